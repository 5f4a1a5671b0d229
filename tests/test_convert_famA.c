/* test_convert_famA.c -- GPT-2, GPT-NeoX and Falcon (issue 25) against
 * llama.cpp b4747's convert_hf_to_gguf.py: tiny checkpoints with the
 * config.json fields and tensor names the families' real checkpoints have
 * (GPT-2's causal-mask buffers, GPT-NeoX's BOOL mask, 0-d masked_bias and
 * rotary inv_freq, which the reference drops), written again byte for byte
 * by convert_cases.c; the sha256s of the reference's outputs are recorded
 * here (LGG_REF_TEST=convert_famA tests/convert_reference.sh remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <unistd.h>

enum { GPT2, NEOX, FALCON };

typedef struct fcase {
    const char *name, *config;
    int kind, prefix;      /* prefix: GPT-2's names under "transformer." */
    uint64_t H, L, nh, nkv, V;
    uint32_t dtype;
    const char *sha[5];    /* the reference's output for f32, f16, bf16, q8_0, auto */
} fcase;

static size_t gpt2_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H;
    const char *p = m->prefix ? "transformer." : "";
    size_t n = 0;
    ADD(m->V, H, "%swte.weight", p);
    ADD(64, H, "%swpe.weight", p);
    ADD(H, 0, "%sln_f.weight", p);
    ADD(H, 0, "%sln_f.bias", p);
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(8, 8, "%sh.%llu.attn.bias", p, b);
        t[n - 1].ones = 2;
        ADD(0, 0, "%sh.%llu.attn.masked_bias", p, b);
        t[n - 1].scalar = 1;
        ADD(H, 3 * H, "%sh.%llu.attn.c_attn.weight", p, b);
        ADD(3 * H, 0, "%sh.%llu.attn.c_attn.bias", p, b);
        ADD(H, H, "%sh.%llu.attn.c_proj.weight", p, b);
        ADD(H, 0, "%sh.%llu.attn.c_proj.bias", p, b);
        const char *ln[2] = {"ln_1", "ln_2"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "%sh.%llu.%s.weight", p, b, ln[k]);
            ADD(H, 0, "%sh.%llu.%s.bias", p, b, ln[k]);
        }
        ADD(H, 4 * H, "%sh.%llu.mlp.c_fc.weight", p, b);
        ADD(4 * H, 0, "%sh.%llu.mlp.c_fc.bias", p, b);
        ADD(4 * H, H, "%sh.%llu.mlp.c_proj.weight", p, b);
        ADD(H, 0, "%sh.%llu.mlp.c_proj.bias", p, b);
    }
    return cv_case_sort(t, n);
}

static size_t neox_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "gpt_neox.embed_in.weight");
    ADD(m->V, H, "embed_out.weight");
    ADD(H, 0, "gpt_neox.final_layer_norm.weight");
    ADD(H, 0, "gpt_neox.final_layer_norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(8, 8, "gpt_neox.layers.%llu.attention.bias", b);
        t[n - 1].ones = 2, t[n - 1].dtype = "BOOL";
        ADD(0, 0, "gpt_neox.layers.%llu.attention.masked_bias", b);
        t[n - 1].scalar = 1;
        ADD(H / m->nh / 2, 0, "gpt_neox.layers.%llu.attention.rotary_emb.inv_freq", b);
        t[n - 1].dtype = "F32";
        ADD(3 * H, H, "gpt_neox.layers.%llu.attention.query_key_value.weight", b);
        ADD(3 * H, 0, "gpt_neox.layers.%llu.attention.query_key_value.bias", b);
        ADD(H, H, "gpt_neox.layers.%llu.attention.dense.weight", b);
        ADD(H, 0, "gpt_neox.layers.%llu.attention.dense.bias", b);
        const char *ln[2] = {"input_layernorm", "post_attention_layernorm"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "gpt_neox.layers.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "gpt_neox.layers.%llu.%s.bias", b, ln[k]);
        }
        ADD(4 * H, H, "gpt_neox.layers.%llu.mlp.dense_h_to_4h.weight", b);
        ADD(4 * H, 0, "gpt_neox.layers.%llu.mlp.dense_h_to_4h.bias", b);
        ADD(H, 4 * H, "gpt_neox.layers.%llu.mlp.dense_4h_to_h.weight", b);
        ADD(H, 0, "gpt_neox.layers.%llu.mlp.dense_4h_to_h.bias", b);
    }
    return cv_case_sort(t, n);
}

/* Falcon 40B's layout (two norms per block, nkv key/value heads) or 7B's
 * (one norm, nkv 0: multi-query, no count in config.json). */
static size_t falcon_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, kv = m->nkv ? m->nkv : 1;
    size_t n = 0;
    ADD(m->V, H, "transformer.word_embeddings.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    ADD(H, 0, "transformer.ln_f.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *ln[2] = {m->nkv ? "ln_attn" : "input_layernorm", "ln_mlp"};
        for (int k = 0; k < (m->nkv ? 2 : 1); k++) {
            ADD(H, 0, "transformer.h.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "transformer.h.%llu.%s.bias", b, ln[k]);
        }
        ADD((m->nh + 2 * kv) * hd, H, "transformer.h.%llu.self_attention.query_key_value.weight", b);
        ADD(H, H, "transformer.h.%llu.self_attention.dense.weight", b);
        ADD(4 * H, H, "transformer.h.%llu.mlp.dense_h_to_4h.weight", b);
        ADD(H, 4 * H, "transformer.h.%llu.mlp.dense_4h_to_h.weight", b);
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"

static const fcase CASES[] = {
    /* GPT-2 as on the hub: names without "transformer.", F32, the mask buffers kept in the file */
    {"gpt2-tiny",
     "{\"activation_function\":\"gelu_new\",\"architectures\":[\"GPT2LMHeadModel\"],\"attn_pdrop\":0.1,\"bos_token_id\":"
     "151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type"
     "\":\"gpt2\",\"n_ctx\":64,\"n_embd\":32,\"n_head\":4,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":0.1,\"summary_act"
     "ivation\":null,\"summary_first_dropout\":0.1,\"summary_proj_to_labels\":true,\"summary_type\":\"cls_index\",\"summary_"
     "use_proj\":true,\"vocab_size\":151936}",
     GPT2, 0, 32, 2, 4, 4, 151936, LGG_TYPE_F32, {0}},
    /* GPT-2 saved by transformers: names under "transformer.", F16 */
    {"gpt2-tiny-transformer",
     "{\"activation_function\":\"gelu_new\",\"architectures\":[\"GPT2LMHeadModel\"],\"attn_pdrop\":0.1,\"bos_token_id\":"
     "151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type"
     "\":\"gpt2\",\"n_ctx\":64,\"n_embd\":32,\"n_head\":4,\"n_inner\":null,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":"
     "0.1,\"torch_dtype\":\"float16\",\"vocab_size\":151936}",
     GPT2, 1, 32, 2, 4, 4, 151936, LGG_TYPE_F16, {0}},
    /* GPT-NeoX (Pythia's config): F16 weights, the BOOL mask, the 0-d masked_bias and inv_freq */
    {"pythia-tiny",
     "{\"architectures\":[\"GPTNeoXForCausalLM\"],\"bos_token_id\":0,\"eos_token_id\":0,\"hidden_act\":\"gelu\",\"hidden_"
     "size\":32,\"initializer_range\":0.02,\"intermediate_size\":128,\"layer_norm_eps\":1e-05,\"max_position_embeddings\":2"
     "048,\"model_type\":\"gpt_neox\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"rotary_emb_base\":10000,\"rotary_"
     "pct\":0.25,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"use_cache\":true,\"use_parallel_residual\":true"
     ",\"vocab_size\":151936}",
     NEOX, 0, 32, 2, 4, 4, 151936, LGG_TYPE_F16, {0}},
    /* Falcon 40B's layout: 2 key/value heads for 4 heads, ln_attn and ln_mlp, BF16 */
    {"falcon-tiny-40b",
     "{\"alibi\":false,\"apply_residual_connection_post_layernorm\":false,\"architectures\":[\"FalconForCausalLM\"],\"atten"
     "tion_dropout\":0.0,\"bias\":false,\"bos_token_id\":151643,\"eos_token_id\":151643,\"hidden_dropout\":0.0,\"hidden_size"
     "\":32,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type\":\"falcon\",\"new_decoder_architecture\":t"
     "rue,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_kv_heads\":2,\"parallel_attn\":true,\"torch_dtype\":\"bflo"
     "at16\",\"vocab_size\":151936}",
     FALCON, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {0}},
    /* Falcon 7B's: multi-query (no key/value head count: 1), one norm per block, the old RW name, F32 */
    {"falcon-tiny-7b",
     "{\"alibi\":false,\"apply_residual_connection_post_layernorm\":false,\"architectures\":[\"RWForCausalLM\"],\"attention"
     "_dropout\":0.0,\"bias\":false,\"bos_token_id\":151643,\"eos_token_id\":151643,\"hidden_dropout\":0.0,\"hidden_size\":32"
     ",\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type\":\"falcon\",\"multi_query\":true,\"new_decoder_a"
     "rchitecture\":false,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"parallel_attn\":true,\"torch_dtype\":\"float32"
     "\",\"vocab_size\":151936}",
     FALCON, 0, 32, 2, 4, 0, 151936, LGG_TYPE_F32, {0}},
};

static const char *make_case(const fcase *m) {
    const char *dir = cv_case_dir(m->name, TOKDIR, TOKFILES, m->config, NULL);
    static tspec t[512];
    if (!dir) return NULL;
    size_t n = m->kind == GPT2 ? gpt2_shapes(t, m) : m->kind == NEOX ? neox_shapes(t, m) : falcon_shapes(t, m);
    return cv_case_weights(dir, t, n, m->dtype) ? dir : NULL;
}

/* A config.json without a key the family needs: refused, naming it. */
static void refused(const char *dir, const char *config, const char *drop, const char *named) {
    char path[4300], *text = strdup(config), *k = strstr(text, drop);
    if (k) memmove(k, k + strlen(drop), strlen(k + strlen(drop)) + 1);
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
    free(text);
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st != LGG_OK && strstr(err.message, named), "%s without %s: status %d, '%s'", dir, drop, (int)st,
           st ? err.message : "");
}

TEST(convert_famA) {
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/" TOKDIR "/tokenizer.json", shared_path("golden/convert"));
    if (access(probe, R_OK) != 0) return; /* reference material absent */
    int same = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *dir = make_case(&CASES[i]);
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[i].name);
        if (dir) same += cv_case_check(dir, CASES[i].name, CASES[i].sha);
    }
    CHECKF(same == 5 * (int)(sizeof CASES / sizeof CASES[0]), "%d of %d byte-identical to the reference", same,
           5 * (int)(sizeof CASES / sizeof CASES[0]));
    const char *dir = make_case(&CASES[0]);
    if (dir) refused(dir, CASES[0].config, "\"n_ctx\":64,", "'n_ctx'");
    if ((dir = make_case(&CASES[2]))) refused(dir, CASES[2].config, "\"rotary_pct\":0.25,", "'rotary_pct'");
    if ((dir = make_case(&CASES[3]))) refused(dir, CASES[3].config, "\"layer_norm_epsilon\":1e-05,", "'layer_norm_epsilon'");
}

#endif
