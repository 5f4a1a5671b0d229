/* test_convert_qwen3.c -- Qwen3 (Qwen3ForCausalLM), which llama.cpp master
 * (3f545becc) converts and b4747 does not, against master's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have (Qwen2's, plus per-head
 * q_norm and k_norm) and Qwen2.5's real tokenizer (the same as Qwen3's:
 * master names it "qwen2"), written again byte for byte by convert_cases.c;
 * the sha256s of master's outputs are recorded here
 * (LGG_REF_MASTER=1 LGG_REF_TEST=convert_qwen3 tests/convert_reference.sh remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Block b's attention: llama's, and RMS norms of each head's q and k (head size hd). */
static size_t qwen3_attn(tspec *t, const cv_fcase *m, uint64_t hd, unsigned long long b) {
    size_t n = cv_fcase_llama_attn(t, m, hd, b);
    ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
    ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    return n;
}

/* Qwen3: Qwen2's names without the q/k/v biases, and RMS norms of each head's q and k. */
static size_t qwen3_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 8, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    if (strstr(m->config, "\"tie_word_embeddings\":false")) ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += qwen3_attn(t + n, m, hd, b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

/* Qwen3-MoE: Qwen3's attention, then a router and per-expert projections (stacked into 3-D tensors). */
static size_t qwen3moe_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 8, MF = 16, X = 4;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += qwen3_attn(t + n, m, hd, b);
        ADD(X, H, "model.layers.%llu.mlp.gate.weight", b);
        for (unsigned long long x = 0; x < X; x++) {
            ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.gate_proj.weight", b, x);
            ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.up_proj.weight", b, x);
            ADD(H, MF, "model.layers.%llu.mlp.experts.%llu.down_proj.weight", b, x);
        }
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"

static const cv_fcase CASES[] = {
    /* Qwen3-0.6B's config (head_dim apart from hidden_size / heads, tied embeddings) */
    {"qwen3-tiny-tied",
     "{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151"
     "643,\"eos_token_id\":151645,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02"
     ",\"intermediate_size\":64,\"max_position_embeddings\":40960,\"max_window_layers\":28,\"model_type\":\"qwen3\",\"n"
     "um_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\""
     ":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"t"
     "ransformers_version\":\"4.51.0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     TOKDIR, TOKFILES, qwen3_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"11379aecd109c855a908169745966eb3f935475044fdd9fe1d3b694dd944d3ea", "256d1d08ce0e502426934f68c7bc2460d2eb1c3347e702ded55f8e910ff65aa6", "fb58450dfafd673095ca4dacd0e28cee9f564600fd2409712f0d9c67b325855a", "833fca8df3ac778c995bd3c80b249ff9fdb862d378111da4ccf91aabed039ec7", "fb58450dfafd673095ca4dacd0e28cee9f564600fd2409712f0d9c67b325855a"}},
    /* Qwen3-8B's shape of config: an untied output head */
    {"qwen3-tiny-untied",
     "{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151"
     "643,\"eos_token_id\":151645,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02"
     ",\"intermediate_size\":64,\"max_position_embeddings\":40960,\"max_window_layers\":36,\"model_type\":\"qwen3\",\"n"
     "um_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\""
     ":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\""
     "transformers_version\":\"4.51.0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     TOKDIR, TOKFILES, qwen3_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"dd24ce60b2cac69e36c5437688bd9aba95245b10989eeca886f51aa5cc11eda3", "46268058f2ac87bc1fc5541abd475a89b81f424af7a1bcf170ec46d3c681e8ce", "b488f30c9a7a8dd0433450045477f59905a0a3456bacc3763e143e308f477c5f", "f152e0e0a0753855c00b47441fed93f94948a1a86fe23831aa399eaf08308830", "b488f30c9a7a8dd0433450045477f59905a0a3456bacc3763e143e308f477c5f"}},
    /* Qwen3-30B-A3B's config: 4 experts of 16, 2 used */
    {"qwen3moe-tiny",
     "{\"architectures\":[\"Qwen3MoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":"
     "151643,\"decoder_sparse_step\":1,\"eos_token_id\":151645,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,"
     "\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":40960,\"max_window_layers\":48,\"m"
     "lp_only_layers\":[],\"model_type\":\"qwen3_moe\",\"moe_intermediate_size\":16,\"norm_topk_prob\":true,\"num_attent"
     "ion_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"outpu"
     "t_router_logits\":false,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"router_aux_loss_coef"
     "\":0.001,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":"
     "\"4.51.0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     TOKDIR, TOKFILES, qwen3moe_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"a888811a84bd8a65fcc1f60e77b22ca014791201fc9247fd355cdcee0c40380a", "8b4c4dbedcc5599964acf483e70bdf667536e51198dfc8d6448b4e7df1bd7a84", "ebfbd0660cdcebb23dc9c4983d51b4552e29a81905ec9f7286ba24a4e5de52fc", "6c69b4b615c72358e93f0b989616a25ec1e44ba70cd54e107f3f549e53148e27", "ebfbd0660cdcebb23dc9c4983d51b4552e29a81905ec9f7286ba24a4e5de52fc"}},
};

TEST(convert_qwen3) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("Qwen3ForCausalLM");
    cv_case_supported("Qwen3MoeForCausalLM");
}

/* Converts dir to out at f16 with the extra arguments; the exit status, stderr kept in *err. */
static int convert_f16(const char *dir, const char *out, const char *extra, char **err) {
    char *o = NULL;
    int st = extra ? run_gguf_capture(&o, err, "convert", dir, "--outtype", "f16", "-o", out, "--metadata", extra, NULL)
                   : run_gguf_capture(&o, err, "convert", dir, "--outtype", "f16", "-o", out, NULL);
    free(o);
    return st;
}

/* general.sampling.KEY of path as a float (an i32 converted), or -1 when absent; *qv_before_tok: whether
 * general.quantization_version comes before tokenizer.ggml.model, as master writes it. */
static double sampling_of(const char *path, const char *key, int *qv_before_tok) {
    lgg_file *f = NULL;
    lgg_error e;
    if (lgg_open_file(path, NULL, &f, &e) != LGG_OK) return -2;
    lgg_value v;
    double r = -1;
    if (lgg_get(f, key, &v) == LGG_OK) {
        float x;
        int32_t i;
        r = lgg_value_f32(&v, &x) == LGG_OK ? x : lgg_value_i32(&v, &i) == LGG_OK ? i : -3;
    }
    *qv_before_tok = lgg_find_key_cstr(f, "general.quantization_version") < lgg_find_key_cstr(f, "tokenizer.ggml.model");
    lgg_close(f);
    return r;
}

/* Master's sampling keys: from generation_config.json (ignored when it is not JSON, as master ignores it),
 * the --metadata file's over them, a value of the wrong type refused by name. */
TEST(convert_qwen3_sampling) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return;
    const char *dir = cv_fcase_make(&CASES[1], NULL, NULL);
    REQUIRE(dir != NULL);
    char out[4200], meta[4200], *err = NULL;
    snprintf(out, sizeof out, "%s.sampling.gguf", dir);
    snprintf(meta, sizeof meta, "%s.meta.json", dir);
    int qv = 0;
    CHECKF(convert_f16(dir, out, NULL, &err) == 0, "%s", err);
    CHECK(sampling_of(out, "general.sampling.top_k", &qv) == 20 && qv);
    CHECK(fabs(sampling_of(out, "general.sampling.temp", &qv) - 0.7) < 1e-6);
    CHECK(sampling_of(out, "general.sampling.penalty_repeat", &qv) == -1); /* repetition_penalty is not read */
    free(err), unlink(out);
    FILE *mf = fopen(meta, "w");
    REQUIRE(mf != NULL);
    fputs("{\"general.sampling.temp\": 0.25}", mf);
    fclose(mf);
    REQUIRE(put_text(dir, "generation_config.json", "{\"top_k\": 20, \"temperature\": 0.7"));
    CHECKF(convert_f16(dir, out, NULL, &err) == 0, "not JSON: %s", err);
    CHECK(sampling_of(out, "general.sampling.top_k", &qv) == -1 && qv);
    free(err), unlink(out);
    REQUIRE(put_text(dir, "generation_config.json", "{\"top_k\": 2.5, \"temperature\": 0.7}"));
    CHECKF(convert_f16(dir, out, NULL, &err) == 1 && err && strstr(err, "general.sampling.top_k: not an integer"),
           "top_k 2.5: %s", err);
    free(err), unlink(out);
    REQUIRE(put_text(dir, "generation_config.json", "{\"top_k\": 40, \"temperature\": 0.7}"));
    CHECKF(convert_f16(dir, out, meta, &err) == 0, "--metadata: %s", err);
    CHECK(sampling_of(out, "general.sampling.top_k", &qv) == 40);
    CHECK(fabs(sampling_of(out, "general.sampling.temp", &qv) - 0.25) < 1e-6);
    free(err), unlink(out), unlink(meta);
    /* a reranker (master writes its classifier head): refused by name, not written as a plain model */
    REQUIRE(put_text(dir, "README.md", "---\nlicense: apache-2.0\n---\n# Qwen3-Reranker-0.6B\n"));
    CHECKF(convert_f16(dir, out, NULL, &err) == 1 && err && strstr(err, "a Qwen3 reranker"), "reranker: %s", err);
    CHECK(access(out, F_OK) != 0);
    free(err);
    unlink(out);
}

#endif
