/* test_convert_pangu.c -- openPangu-Embedded (PanguEmbeddedForCausalLM),
 * which only llama.cpp master converts (its default target), against
 * master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with
 * openPangu-Embedded-7B's config.json fields (no head_dim, q/k/v biases,
 * tie_word_embeddings with an lm_head that master drops) and the
 * SentencePiece tokenizer.model of ../shared's TinyLlama-2-Test-2x32
 * (skipped without it), Qwen3's generation_config.json.  The sha256s are
 * master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static size_t pangu_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += cv_fcase_llama_block(t + n, m, hd, FF, 1, b);
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"Pangu-Embedded-Tiny-Test",
     "{\"architectures\":[\"PanguEmbeddedForCausalLM\"],\"attention_dropout\":0.0,\"bias\":true,\"bos_token_id\":1,\"eo"
     "s_token_id\":2,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_"
     "position_embeddings\":32768,\"model_type\":\"PanguEmbedded\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_"
     "key_value_heads\":2,\"pad_token_id\":0,\"rms_norm_eps\":1e-05,\"rope_theta\":16000000.0,\"tie_word_embeddings\":tru"
     "e,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.53.2\",\"use_cache\":true,\"vocab_size\":32000}",
     "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json", pangu_shapes, 0, 32, 2, 4, 2,
     32000, LGG_TYPE_BF16, {"d726531cf920ebf35f7ff5ce0a7ac1d016aeb39253b792c15a9ae9c3ec4a5732", "3b99c450ccc3b557235916b315ad2ec763aebd2902fb31e902bf366625408acd", "2ca13f4acc9f0616f1e01c0390b4a017db6f4877a20367522c0721a2dd3c8030", "67d983847e663562a674cbf77224f0dfd5774b3f5735b33e76bf0f99281c99a0", "2ca13f4acc9f0616f1e01c0390b4a017db6f4877a20367522c0721a2dd3c8030"}},
};

/* openPangu-Embedded: master's bytes by default. */
TEST(convert_pangu) {
    if (!cv_case_material("TinyLlama-2-Test-2x32/tokenizer.model")) return;
    cv_fcase_run(CASES, 1, FILES, NULL);
    cv_case_supported("PanguEmbeddedForCausalLM");
}

#endif
