/* loadcheck.c -- would llama.cpp master (3f545becc) load this file: its
 * llama_model_load_from_file replayed on the header, in master's order
 * (llama-model.cpp's load_hparams, llama-vocab.cpp's load, then each
 * architecture's load_arch_tensors in src/models/NAME.cpp and
 * llama-model-loader.cpp's create_tensor, check_tensor_dims and
 * done_getting_tensors).  The per-architecture part is a table: one row per
 * architecture, its keys and what its tensor list has beyond the common
 * llama-like layer. */
#include "base/internal.h"
#include "format/file.h"

#include <stdio.h>

#define MAX_LAYERS 512u  /* LLAMA_MAX_LAYERS */
#define MAX_EXPERTS 512u /* LLAMA_MAX_EXPERTS */

/* create_tensor's flags */
#define OPT 1u  /* TENSOR_NOT_REQUIRED */
#define DUP 2u  /* TENSOR_DUPLICATED: not counted as created */
#define DUP1 4u /* TENSOR_DUPLICATED on every layer but the first (rope factors) */

/* A dimension, from the hyperparameters as LLAMA_LOAD_LOCALS has them (layer 0's head counts and FFN size). */
enum {
    D_NONE, D_E /* n_embd */, D_V /* the vocabulary's tokens */, D_F /* n_ff */, D_F2 /* 2 n_ff */,
    D_Q /* head_k n_head */, D_KG /* head_k n_head_kv */, D_VG /* head_v n_head_kv */, D_HK /* head_k */,
    D_X /* n_expert */, D_FX /* expert_feed_forward_length, else n_ff / n_expert_used */,
    D_FS /* expert_shared_feed_forward_length, else n_ff */, D_ROT2 /* n_rot / 2 */, D_CLS /* classifier outputs */,
    D_KN /* n_head_kv (n_embd / n_head) */, D_FXS /* expert_shared_feed_forward_length */, D_H /* n_head */,
    D_HKV /* n_head_kv */
};

/* What a row does. */
enum {
    OP_T,      /* create_tensor(name, dims, flags) */
    OP_QKV,    /* create_tensor_qkv(n_embd, d[0], d[1], d[2], flags): a fused attn_qkv, else Q, K, V (+ biases) */
    OP_OUTPUT, /* output.weight optional; absent, token_embd.weight is reused (TENSOR_DUPLICATED) */
    OP_EXPERTS /* master throws unless expert_count and expert_used_count are above 0 */
};
/* When a row applies. */
enum { C_ALL, C_DENSE /* expert_count 0 */, C_MOE /* expert_count > 0 */, C_SHEXP /* n_ff_shexp > 0 */,
       C_LONGROPE, C_NOT_LONGROPE, C_L64 /* block_count >= 64 (command-r's Q/K norms) */ };

typedef struct tspec {
    uint8_t op, cond, flags;
    uint8_t d[3];
    const char *name; /* a layer's: "attn_norm.weight" for blk.N.attn_norm.weight */
} tspec;

#define T(name, f, a, b, c) {OP_T, C_ALL, f, {a, b, c}, name}
#define TC(cond, name, f, a, b, c) {OP_T, cond, f, {a, b, c}, name}
#define QKV(q, k, v, f) {OP_QKV, C_ALL, f, {q, k, v}, NULL}
#define END {0, 0, 0, {0, 0, 0}, NULL}

/* the global tensors */
static const tspec G_TIED[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                               {OP_OUTPUT, C_ALL, 0, {0, 0, 0}, NULL}, END};
static const tspec G_QWEN2[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                {OP_OUTPUT, C_ALL, 0, {0, 0, 0}, NULL}, T("output.bias", OPT, D_V, 0, 0), END};
static const tspec G_QWEN3[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                {OP_OUTPUT, C_ALL, 0, {0, 0, 0}, NULL}, T("cls.output.weight", OPT, D_E, D_CLS, 0),
                                END};
static const tspec G_UNTIED[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                 T("output.weight", 0, D_E, D_V, 0), END};
static const tspec G_NO_OUTPUT[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0), END};

/* the layers */
static const tspec L_LLAMA[] = { /* llama, mistral3, granite: llama's optional biases and experts */
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_output.bias", OPT, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    TC(C_LONGROPE, "rope_factors_long.weight", OPT | DUP1, D_ROT2, 0, 0),
    TC(C_LONGROPE, "rope_factors_short.weight", OPT | DUP1, D_ROT2, 0, 0),
    TC(C_NOT_LONGROPE, "rope_freqs.weight", OPT | DUP1, D_ROT2, 0, 0),
    TC(C_DENSE, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_DENSE, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_DENSE, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_DENSE, "ffn_gate.bias", OPT, D_F, 0, 0),
    TC(C_DENSE, "ffn_down.bias", OPT, D_E, 0, 0), TC(C_DENSE, "ffn_up.bias", OPT, D_F, 0, 0),
    TC(C_MOE, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_MOE, "ffn_gate_exps.weight", OPT, D_E, D_F, D_X),
    TC(C_MOE, "ffn_down_exps.weight", 0, D_F, D_E, D_X), TC(C_MOE, "ffn_up_exps.weight", 0, D_E, D_F, D_X),
    TC(C_SHEXP, "ffn_gate_shexp.weight", 0, D_E, D_FXS, 0), TC(C_SHEXP, "ffn_up_shexp.weight", 0, D_E, D_FXS, 0),
    TC(C_SHEXP, "ffn_down_shexp.weight", 0, D_FXS, D_E, 0), END};
#define DENSE_FFN T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0), \
                  T("ffn_up.weight", 0, D_E, D_F, 0)
static const tspec L_QWEN2[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN,
                                END};
static const tspec L_QWEN3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
                                T("attn_q_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN,
                                END};
#define EXPERTS(ff) T("ffn_gate_inp.weight", 0, D_E, D_X, 0), {OP_EXPERTS, C_ALL, 0, {0, 0, 0}, NULL}, \
    T("ffn_gate_exps.weight", 0, D_E, ff, D_X), T("ffn_down_exps.weight", 0, ff, D_E, D_X),             \
    T("ffn_up_exps.weight", 0, D_E, ff, D_X)
static const tspec L_QWEN3MOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0),
                                   T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
                                   T("attn_q_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                   EXPERTS(D_FX), END};
static const tspec L_QWEN2MOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                   T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                   EXPERTS(D_FX), T("ffn_gate_inp_shexp.weight", 0, D_E, 0, 0),
                                   T("ffn_gate_shexp.weight", 0, D_E, D_FS, 0),
                                   T("ffn_down_shexp.weight", 0, D_FS, D_E, 0),
                                   T("ffn_up_shexp.weight", 0, D_E, D_FS, 0), END};
static const tspec L_OLMOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_E, D_E, 0), T("attn_q_norm.weight", 0, D_E, 0, 0),
                                T("attn_k_norm.weight", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                EXPERTS(D_F), END};
#define GEMMA_FFN T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_F, 0), \
    T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0), T("post_ffw_norm.weight", 0, D_E, 0, 0)
static const tspec L_GEMMA2[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                 T("attn_output.weight", 0, D_Q, D_E, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
                                 GEMMA_FFN, END};
static const tspec L_GEMMA3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                 T("attn_output.weight", 0, D_Q, D_E, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
                                 T("attn_k_norm.weight", 0, D_HK, 0, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0),
                                 GEMMA_FFN, END};
static const tspec L_SMOLLM3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                  T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN,
                                  END};
static const tspec L_PHI3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, OPT),
                               T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                               T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_up.weight", 0, D_E, D_F2, 0),
                               T("rope_factors_long.weight", OPT | DUP1, D_ROT2, 0, 0),
                               T("rope_factors_short.weight", OPT | DUP1, D_ROT2, 0, 0), END};
static const tspec L_OLMO2[] = {QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
                                T("attn_q_norm.weight", 0, D_E, 0, 0), T("attn_k_norm.weight", 0, D_KN, 0, 0),
                                T("post_attention_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_F, 0),
                                T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0),
                                T("post_ffw_norm.weight", 0, D_E, 0, 0), END};

#define ROPE_FREQS T("rope_freqs.weight", OPT | DUP1, D_ROT2, 0, 0)
static const tspec L_EXAONE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                 T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                 ROPE_FREQS, DENSE_FFN, END};
static const tspec L_ARCEE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                ROPE_FREQS, T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                                END};
static const tspec L_COMMAND_R[] = {T("attn_norm.weight", 0, D_E, 0, 0),
                                    TC(C_L64, "attn_q_norm.weight", 0, D_HK, D_H, 0),
                                    TC(C_L64, "attn_k_norm.weight", 0, D_HK, D_HKV, 0), QKV(D_E, D_VG, D_VG, 0),
                                    T("attn_output.weight", 0, D_E, D_E, 0), DENSE_FFN, END};
static const tspec L_SEED_OSS[] = {QKV(D_Q, D_KG, D_KG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
                                   T("attn_norm.weight", 0, D_E, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
                                   T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                                   T("ffn_down.weight", 0, D_F, D_E, 0), END};
static const tspec L_GEMMA[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                                T("ffn_down.weight", 0, D_F, D_E, 0), END};
static const tspec L_ERNIE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),
                                T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN, END};
static const tspec G_COMMAND_R[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                    T("token_embd.weight", DUP, D_E, D_V, 0), END};

/* A key an architecture reads in its load_arch_hparams (after the common ones). */
typedef struct arch_key {
    const char *suffix; /* after "<arch>." */
    uint8_t type;       /* LGG_VT_*; LGG_VT_COUNT: a u32 or an array (get_key_or_arr, optional) */
    bool required;
} arch_key;

#define RMS_EPS {"attention.layer_norm_rms_epsilon", LGG_VT_F32, true}
#define K_FF_EXP {"expert_feed_forward_length", LGG_VT_U32, false}
#define K_FF_SHEXP {"expert_shared_feed_forward_length", LGG_VT_U32, false}
#define K_SWA {"attention.sliding_window", LGG_VT_U32, false}
#define K_SWA_PATTERN {"attention.sliding_window_pattern", LGG_VT_COUNT, false}
#define K_SWA_BASE {"rope.freq_base_swa", LGG_VT_F32, false}

typedef struct arch_table {
    const char *name;
    const tspec *globals, *layer;
    bool rot_check; /* llama: rope.dimension_count must be the head size */
    arch_key keys[10];
} arch_table;

/* From master's src/models/NAME.cpp: load_arch_hparams' keys in its order, load_arch_tensors' tensors. */
static const arch_table TABLES[] = {
    {"llama", G_TIED, L_LLAMA, true, {{"vocab_size", LGG_VT_U32, false}, RMS_EPS}},
    {"qwen2", G_QWEN2, L_QWEN2, false, {RMS_EPS}},
    {"qwen3", G_QWEN3, L_QWEN3, false, {RMS_EPS}},
    {"qwen3moe", G_TIED, L_QWEN3MOE, false, {K_FF_EXP, RMS_EPS}},
    {"qwen2moe", G_UNTIED, L_QWEN2MOE, false, {K_FF_EXP, K_FF_SHEXP, RMS_EPS}},
    {"olmoe", G_UNTIED, L_OLMOE, false, {RMS_EPS}},
    {"gemma2", G_NO_OUTPUT, L_GEMMA2, false,
     {K_SWA_PATTERN, K_SWA_BASE, K_SWA, RMS_EPS, {"attn_logit_softcapping", LGG_VT_F32, false},
      {"final_logit_softcapping", LGG_VT_F32, false}}},
    {"gemma3", G_TIED, L_GEMMA3, false,
     {K_SWA, K_SWA_PATTERN, K_SWA_BASE, {"final_logit_softcapping", LGG_VT_F32, false}, RMS_EPS}},
    {"smollm3", G_TIED, L_SMOLLM3, false, {RMS_EPS}},
    {"mistral3", G_TIED, L_LLAMA, false,
     {RMS_EPS, {"attention.temperature_scale", LGG_VT_F32, false}, {"rope.scaling.yarn_beta_fast", LGG_VT_F32, false},
      {"rope.scaling.yarn_beta_slow", LGG_VT_F32, false}, {"rope.scaling.yarn_log_multiplier", LGG_VT_F32, false}}},
    {"granite", G_TIED, L_LLAMA, false,
     {RMS_EPS, {"logit_scale", LGG_VT_F32, true}, {"residual_scale", LGG_VT_F32, false},
      {"embedding_scale", LGG_VT_F32, false}, {"attention.scale", LGG_VT_F32, false},
      {"rope.scaling.finetuned", LGG_VT_BOOL, false}, K_FF_SHEXP}},
    {"phi3", G_TIED, L_PHI3, false, {RMS_EPS, K_SWA}},
    {"olmo2", G_UNTIED, L_OLMO2, false, {RMS_EPS, K_SWA, K_SWA_PATTERN, K_SWA_BASE}},
    {"exaone", G_TIED, L_EXAONE, false, {RMS_EPS}},
    {"internlm2", G_UNTIED, L_QWEN2, false, {RMS_EPS}},
    {"minicpm", G_TIED, L_LLAMA, false,
     {RMS_EPS, {"embedding_scale", LGG_VT_F32, false}, {"residual_scale", LGG_VT_F32, false},
      {"logit_scale", LGG_VT_F32, false}}},
    {"command-r", G_COMMAND_R, L_COMMAND_R, false,
     {{"logit_scale", LGG_VT_F32, false}, {"attention.layer_norm_epsilon", LGG_VT_F32, true}}},
    {"arcee", G_TIED, L_ARCEE, false, {RMS_EPS}},
    {"seed_oss", G_TIED, L_SEED_OSS, false, {RMS_EPS}},
    {"gemma", G_NO_OUTPUT, L_GEMMA, false, {RMS_EPS}},
    {"ernie4_5", G_TIED, L_ERNIE, false, {RMS_EPS}},
};

/* One check: the file, what master computed so far, the findings. */
typedef struct lc {
    const lgg_file *f;
    const arch_table *t;
    lgg_load_check *out;
    uint8_t *seen; /* per tensor of the file: created by master */
    uint32_t n_layer, n_embd, n_head, n_head_kv, n_ff, head_k, head_v, n_rot, n_expert, n_expert_used;
    uint32_t n_ff_exp, n_ff_shexp, n_cls_out;
    uint64_t n_vocab;
    bool longrope;
} lc;

const char *lgg_load_problem_name(uint32_t problem) {
    static const char *const names[] = {NULL, "missing", "wrong type", "wrong shape", "unexpected", "bad value", "no data"};
    return problem < sizeof names / sizeof names[0] ? names[problem] : NULL;
}

/* Printable ASCII of n bytes at s into dst (cut to fit). */
static void printable(char *dst, size_t cap, const char *s, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) dst[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    dst[k] = 0;
}

static void issue(lc *c, bool tensor, uint32_t problem, const char *name, const char *expected, const char *found) {
    lgg_load_check *o = c->out;
    if (o->n_issues < LGG_LOAD_MAX_ISSUES) {
        lgg_load_issue *i = &o->issues[o->n_issues];
        i->tensor = tensor;
        i->problem = problem;
        printable(i->name, sizeof i->name, name, strlen(name));
        snprintf(i->expected, sizeof i->expected, "%s", expected ? expected : "");
        snprintf(i->found, sizeof i->found, "%s", found ? found : "");
    }
    o->n_issues++;
}

static const char *vt_name(uint32_t vt) {
    const char *n = lgg_vtype_name(vt);
    return n ? n : "?";
}

/* ---- keys ------------------------------------------------------------------ */

/* Key KEY as master's get_key reads it: of exactly type VT.  Absent: false (an issue when required);
 * present with another type: an issue and false. */
static bool key_of(lc *c, const char *key, uint32_t vt, bool required, lgg_value *v) {
    if (lgg_get(c->f, key, v) != LGG_OK) {
        if (required) issue(c, false, LGG_LOAD_MISSING, key, vt_name(vt), "");
        return false;
    }
    if (v->type != vt) {
        char found[64];
        snprintf(found, sizeof found, "%s", vt_name(v->type));
        if (v->type == LGG_VT_ARRAY) snprintf(found, sizeof found, "array of %s", vt_name(v->elem_type));
        issue(c, false, LGG_LOAD_WRONG_TYPE, key, vt_name(vt), found);
        return false;
    }
    return true;
}

static const char *akey(const lc *c, const char *suffix, char *buf, size_t cap) {
    snprintf(buf, cap, "%s.%s", c->out->arch, suffix);
    return buf;
}

static bool arch_u32(lc *c, const char *suffix, bool required, uint32_t *x) {
    char k[160];
    lgg_value v;
    uint64_t u;
    if (!key_of(c, akey(c, suffix, k, sizeof k), LGG_VT_U32, required, &v) || lgg_value_uint(&v, &u) != LGG_OK)
        return false;
    *x = (uint32_t)u;
    return true;
}

static void arch_typed(lc *c, const char *suffix, uint32_t vt, bool required) {
    char k[160];
    lgg_value v;
    key_of(c, akey(c, suffix, k, sizeof k), vt, required, &v);
}

/* get_key_or_arr into a per-layer array: a u32, or an array of n_layer u32/i32 (bool too); *x its
 * first element.  required false throughout in load_hparams. */
static void layer_key(lc *c, const char *suffix, uint32_t *x) {
    char k[160], want[64], got[64];
    lgg_value v, e;
    uint64_t u;
    akey(c, suffix, k, sizeof k);
    if (lgg_get(c->f, k, &v) != LGG_OK) return;
    if (v.type != LGG_VT_ARRAY) {
        if (key_of(c, k, LGG_VT_U32, false, &v) && lgg_value_uint(&v, &u) == LGG_OK) *x = (uint32_t)u;
        return;
    }
    if (v.count != c->n_layer) {
        snprintf(want, sizeof want, "%u elements", c->n_layer);
        snprintf(got, sizeof got, "%llu elements", (unsigned long long)v.count);
        issue(c, false, LGG_LOAD_BAD_VALUE, k, want, got);
        return;
    }
    if (v.elem_type != LGG_VT_U32 && v.elem_type != LGG_VT_I32 && v.elem_type != LGG_VT_BOOL) {
        snprintf(got, sizeof got, "array of %s", vt_name(v.elem_type));
        issue(c, false, LGG_LOAD_WRONG_TYPE, k, "u32 or array of u32/i32", got);
        return;
    }
    if (v.count && lgg_array_get(&v, 0, &e) == LGG_OK) {
        if (e.type == LGG_VT_BOOL) *x = e.data[0] != 0;
        else if (lgg_value_uint(&e, &u) == LGG_OK) *x = (uint32_t)u;
        else *x = 0; /* a negative i32 read as uint32_t: not a size master can use */
    }
}

static void bad_value(lc *c, const char *key, const char *expected, uint64_t found) {
    char got[32];
    snprintf(got, sizeof got, "%llu", (unsigned long long)found);
    issue(c, false, LGG_LOAD_BAD_VALUE, key, expected, got);
}

/* The expert counts and master's asserts on them. */
static void expert_keys(lc *c) {
    uint32_t groups = 0, group_used = 0;
    char k[160];
    arch_u32(c, "expert_count", false, &c->n_expert);
    arch_u32(c, "expert_used_count", false, &c->n_expert_used);
    arch_u32(c, "expert_group_count", false, &groups);
    arch_u32(c, "expert_group_used_count", false, &group_used);
    if (c->n_expert > MAX_EXPERTS) bad_value(c, akey(c, "expert_count", k, sizeof k), "at most 512", c->n_expert);
    else if (c->n_expert_used > c->n_expert)
        bad_value(c, akey(c, "expert_used_count", k, sizeof k), "at most expert_count", c->n_expert_used);
    else if (c->n_expert > 0 && c->n_expert_used == 0)
        bad_value(c, akey(c, "expert_used_count", k, sizeof k), "above 0 with experts", 0);
    else if (c->n_expert > 0 && groups >= c->n_expert)
        bad_value(c, akey(c, "expert_group_count", k, sizeof k), "below expert_count", groups);
    else if (c->n_expert > 0 && groups > 1 && (c->n_expert % groups || !group_used || group_used >= groups))
        bad_value(c, akey(c, "expert_group_used_count", k, sizeof k), "in 1..expert_group_count-1", group_used);
    else if (c->n_expert == 0 && groups)
        bad_value(c, akey(c, "expert_group_count", k, sizeof k), "0 without experts", groups);
}

/* rope.scaling.type: a name master knows (else its GGML_ASSERT). */
static void rope_keys(lc *c) {
    static const char *const types[] = {"none", "linear", "yarn", "longrope"};
    char k[160];
    lgg_value v;
    lgg_str s;
    arch_typed(c, "rope.scaling.finetuned", LGG_VT_BOOL, false);
    arch_typed(c, "rope.scaling.original_context_length", LGG_VT_U32, false);
    arch_typed(c, "rope.freq_base", LGG_VT_F32, false);
    if (key_of(c, akey(c, "rope.scaling.type", k, sizeof k), LGG_VT_STRING, false, &v) &&
        lgg_value_string(&v, &s) == LGG_OK) {
        bool known = false;
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            known |= s.len == strlen(types[i]) && !memcmp(s.ptr, types[i], s.len);
        c->longrope = s.len == 8 && !memcmp(s.ptr, "longrope", 8);
        char got[64];
        printable(got, sizeof got, s.ptr, (size_t)s.len);
        if (!known) issue(c, false, LGG_LOAD_BAD_VALUE, k, "none, linear, yarn or longrope", got);
    }
    if (lgg_get(c->f, akey(c, "rope.scaling.factor", k, sizeof k), &v) == LGG_OK)
        arch_typed(c, "rope.scaling.factor", LGG_VT_F32, false);
    else arch_typed(c, "rope.scale_linear", LGG_VT_F32, false);
    arch_typed(c, "rope.scaling.attn_factor", LGG_VT_F32, false);
    arch_typed(c, "rope.scaling.alpha", LGG_VT_F32, false);
}

/* Head sizes and rotary dimensions (n_head > 0), llama's n_rot check, the SWA variants. */
static void head_keys(lc *c) {
    char k[160];
    if (c->n_head > 0) {
        c->head_k = c->head_v = c->n_embd / c->n_head;
        arch_u32(c, "attention.key_length", false, &c->head_k);
        arch_u32(c, "attention.value_length", false, &c->head_v);
        c->n_rot = c->head_k;
        arch_u32(c, "rope.dimension_count", false, &c->n_rot);
        if (c->t->rot_check && c->n_rot != c->head_k) {
            char want[32];
            snprintf(want, sizeof want, "%u (the head size)", c->head_k);
            bad_value(c, akey(c, "rope.dimension_count", k, sizeof k), want, c->n_rot);
        }
    }
    arch_typed(c, "attention.key_length_swa", LGG_VT_U32, false);
    arch_typed(c, "attention.value_length_swa", LGG_VT_U32, false);
    arch_typed(c, "rope.dimension_count_swa", LGG_VT_U32, false);
}

static void arch_keys(lc *c) {
    for (size_t i = 0; i < sizeof c->t->keys / sizeof c->t->keys[0] && c->t->keys[i].suffix; i++) {
        const arch_key *ak = &c->t->keys[i];
        uint32_t x = 0;
        if (ak->type == LGG_VT_COUNT) {
            char k[160];
            lgg_value v;
            /* get_key_or_arr into one uint32_t: an array is skipped (it is optional) */
            if (lgg_get(c->f, akey(c, ak->suffix, k, sizeof k), &v) == LGG_OK && v.type != LGG_VT_ARRAY)
                key_of(c, k, LGG_VT_U32, false, &v);
        } else if (!strcmp(ak->suffix, "expert_feed_forward_length")) {
            arch_u32(c, ak->suffix, ak->required, &c->n_ff_exp);
        } else if (!strcmp(ak->suffix, "expert_shared_feed_forward_length")) {
            arch_u32(c, ak->suffix, ak->required, &c->n_ff_shexp);
        } else if (ak->type == LGG_VT_U32) {
            arch_u32(c, ak->suffix, ak->required, &x);
        } else {
            arch_typed(c, ak->suffix, ak->type, ak->required);
        }
    }
}

/* llama_model::load_hparams: the common keys, then the architecture's. */
static void hparams(lc *c) {
    char k[160];
    lgg_value v;
    uint32_t ignored;
    key_of(c, "general.name", LGG_VT_STRING, false, &v);
    arch_u32(c, "context_length", true, &ignored);
    arch_u32(c, "embedding_length", true, &c->n_embd);
    arch_u32(c, "embedding_length_out", false, &ignored);
    arch_typed(c, "attention.causal", LGG_VT_BOOL, false);
    arch_u32(c, "pooling_type", false, &ignored);
    if (arch_u32(c, "block_count", true, &c->n_layer) && (c->n_layer == 0 || c->n_layer > MAX_LAYERS))
        bad_value(c, akey(c, "block_count", k, sizeof k), "1..512", c->n_layer);
    if (c->n_layer == 0 || c->n_layer > MAX_LAYERS) return; /* master asserts here */
    expert_keys(c);
    layer_key(c, "feed_forward_length", &c->n_ff);
    layer_key(c, "attention.head_count", &c->n_head);
    c->n_head_kv = c->n_head;
    layer_key(c, "attention.head_count_kv", &c->n_head_kv);
    rope_keys(c);
    head_keys(c);
    if (lgg_get(c->f, akey(c, "classifier.output_labels", k, sizeof k), &v) == LGG_OK && v.type == LGG_VT_ARRAY) {
        if (v.elem_type != LGG_VT_STRING) {
            char got[64];
            snprintf(got, sizeof got, "array of %s", vt_name(v.elem_type));
            issue(c, false, LGG_LOAD_WRONG_TYPE, k, "array of string", got);
        } else if (v.count) {
            c->n_cls_out = v.count > UINT32_MAX ? UINT32_MAX : (uint32_t)v.count;
        }
    }
    arch_keys(c);
}

/* ---- vocabulary (llama_vocab::impl::load) ------------------------------------ */

static bool str_is(const lgg_str *s, const char *z) { return s->len == strlen(z) && !memcmp(s->ptr, z, s->len); }

/* The token list and the arrays as long as it. */
static void vocab_arrays(lc *c) {
    lgg_value v;
    char want[64], got[64];
    if (lgg_get(c->f, "tokenizer.ggml.tokens", &v) != LGG_OK) {
        issue(c, false, LGG_LOAD_MISSING, "tokenizer.ggml.tokens", "array of string", "");
        return;
    }
    if (v.type != LGG_VT_ARRAY || v.elem_type != LGG_VT_STRING) {
        issue(c, false, LGG_LOAD_WRONG_TYPE, "tokenizer.ggml.tokens", "array of string", vt_name(v.type));
        return;
    }
    c->n_vocab = v.count;
    static const char *const arrays[] = {"tokenizer.ggml.scores", "tokenizer.ggml.token_type"};
    for (size_t i = 0; i < 2; i++) {
        if (lgg_get(c->f, arrays[i], &v) != LGG_OK) continue;
        bool ok = v.type == LGG_VT_ARRAY && (v.elem_type == LGG_VT_I32 || (i == 0 && v.elem_type == LGG_VT_F32));
        if (!ok) {
            snprintf(got, sizeof got, v.type == LGG_VT_ARRAY ? "array of %s" : "%s",
                     vt_name(v.type == LGG_VT_ARRAY ? v.elem_type : v.type));
            issue(c, false, LGG_LOAD_WRONG_TYPE, arrays[i], i ? "array of i32" : "array of f32 or i32", got);
        } else if (v.count < c->n_vocab) {
            snprintf(want, sizeof want, "at least %llu elements", (unsigned long long)c->n_vocab);
            snprintf(got, sizeof got, "%llu elements", (unsigned long long)v.count);
            issue(c, false, LGG_LOAD_BAD_VALUE, arrays[i], want, got);
        }
    }
}

/* The pre-tokenizer names master's BPE vocabularies know (llama-vocab.cpp at 3f545becc, its
 * `tokenizer_pre == "..."` tests; another name: "unknown pre-tokenizer type"; none: the default). */
static const char *const PRE_NAMES[] = {
    "a.x-4.0", "afmoe", "bailingmoe", "bailingmoe2", "bloom", "chameleon", "chatglm-bpe", "codeshell",
    "cohere2moe", "command-r", "dbrx", "deepseek-coder", "deepseek-llm", "deepseek-r1-qwen", "deepseek-v3",
    "default", "exaone", "exaone-moe", "exaone4", "f2llmv2", "falcon", "falcon-h1", "falcon3", "gemma4",
    "gigachat", "glm4", "gpt-2", "gpt-4o", "gpt3-finnish", "granite-docling", "granite-embed-multi-311m",
    "granite-embed-multi-97m", "grok-2", "hunyuan", "hunyuan-dense", "jais", "jais-2", "jina-de", "jina-es",
    "jina-v1-en", "jina-v2-code", "jina-v2-de", "jina-v2-es", "jina-v5-nano", "joyai-llm", "kanana2", "kimi-k2",
    "kormo", "laguna", "lfm2", "llada-moe", "llama-bpe", "llama-v3", "llama3", "llama4", "megrez", "mellum",
    "mellum2", "midm-2.0", "minerva-7b", "minicpm5", "minimax-m2", "modern-bert", "mpt", "olmo", "phi-2",
    "pixtral", "poro-chat", "qwen2", "qwen35", "refact", "roberta-bpe", "sarvam-moe", "seed-coder", "smaug-bpe",
    "smollm", "solar-open", "stablelm2", "starcoder", "superbpe", "talkie", "tekken", "tiny_aya", "trillion",
    "viking", "whitespace", "youtu"};

/* A BPE vocabulary: its merges (but kimi-k2's), its pre-tokenizer a name master knows. */
static void bpe_keys(lc *c, const lgg_str *pre) {
    lgg_value v;
    if (!str_is(pre, "kimi-k2")) {
        if (lgg_get(c->f, "tokenizer.ggml.merges", &v) != LGG_OK)
            issue(c, false, LGG_LOAD_MISSING, "tokenizer.ggml.merges", "array of string", "");
        else if (v.type != LGG_VT_ARRAY || v.elem_type != LGG_VT_STRING)
            issue(c, false, LGG_LOAD_WRONG_TYPE, "tokenizer.ggml.merges", "array of string", vt_name(v.type));
    }
    bool known = pre->len == 0;
    for (size_t i = 0; i < sizeof PRE_NAMES / sizeof PRE_NAMES[0] && !known; i++) known = str_is(pre, PRE_NAMES[i]);
    if (!known) {
        char got[64];
        printable(got, sizeof got, pre->ptr, (size_t)pre->len);
        issue(c, false, LGG_LOAD_BAD_VALUE, "tokenizer.ggml.pre", "a pre-tokenizer master knows", got);
    }
}

static void vocab(lc *c) {
    static const char *const models[] = {"llama", "bert", "gpt2", "hybriddna", "whitespace",
                                         "t5", "rwkv", "plamo2", "gemma4"};
    static const char *const ids[] = {"bos", "eos", "eot", "eom", "unk", "sep", "pad", "mask", "fim_pre",
                                      "fim_suf", "fim_mid", "fim_pad", "fim_rep", "fim_sep", "prefix", "suffix",
                                      "middle"};
    lgg_value v, pre;
    lgg_str m, p = {0};
    if (!key_of(c, "tokenizer.ggml.model", LGG_VT_STRING, true, &v) || lgg_value_string(&v, &m) != LGG_OK) return;
    if (key_of(c, "tokenizer.ggml.pre", LGG_VT_STRING, false, &pre)) lgg_value_string(&pre, &p);
    key_of(c, "tokenizer.ggml.token_type_count", LGG_VT_U32, false, &v);
    if (str_is(&m, "no_vocab") || str_is(&m, "none")) { /* <arch>.vocab_size dummy tokens */
        uint64_t n = 0;
        if (key_of(c, akey(c, "vocab_size", (char[160]){0}, 160), LGG_VT_U32, false, &v) &&
            lgg_value_uint(&v, &n) == LGG_OK)
            c->n_vocab = n;
        return;
    }
    bool known = false;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) known |= str_is(&m, models[i]);
    if (!known) {
        char got[64];
        printable(got, sizeof got, m.ptr, (size_t)m.len);
        issue(c, false, LGG_LOAD_BAD_VALUE, "tokenizer.ggml.model", "a tokenizer master knows", got);
        return;
    }
    if (str_is(&m, "gpt2") || str_is(&m, "hybriddna") || str_is(&m, "whitespace")) bpe_keys(c, &p);
    key_of(c, "tokenizer.ggml.add_space_prefix", LGG_VT_BOOL, false, &v);
    key_of(c, "tokenizer.ggml.remove_extra_whitespaces", LGG_VT_BOOL, false, &v);
    vocab_arrays(c);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        char k[64];
        snprintf(k, sizeof k, "tokenizer.ggml.%s_token_id", ids[i]);
        key_of(c, k, LGG_VT_U32, false, &v);
    }
    key_of(c, "tokenizer.ggml.add_bos_token", LGG_VT_BOOL, false, &v);
    key_of(c, "tokenizer.ggml.add_eos_token", LGG_VT_BOOL, false, &v);
    key_of(c, "tokenizer.ggml.add_sep_token", LGG_VT_BOOL, false, &v);
}

/* ---- tensors ----------------------------------------------------------------- */

static void shape_text(char *buf, size_t cap, const int64_t *ne, uint32_t nd) {
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (uint32_t i = 0; i < nd && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? ", " : "", (long long)ne[i]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* create_tensor(NAME, {ne0[, ne1[, ne2]]}, flags): true when the tensor is there (whatever its shape). */
static bool want(lc *c, unsigned flags, const char *name, int64_t ne0, int64_t ne1, int64_t ne2) {
    const int64_t ne[3] = {ne0, ne1, ne2};
    const uint32_t nd = ne2 ? 3 : ne1 ? 2 : 1;
    int64_t id = lgg_find_tensor_cstr(c->f, name);
    char exp[96], got[96];
    shape_text(exp, sizeof exp, ne, nd);
    if (id < 0) {
        if (!(flags & OPT)) issue(c, true, LGG_LOAD_MISSING, name, exp, "");
        return false;
    }
    const lgg_tensor *t = lgg_tensor_at(c->f, (uint64_t)id);
    bool ok = true;
    for (uint32_t i = 0; i < LGG_MAX_DIMS; i++) ok &= t->ne[i] == (i < nd ? ne[i] : 1);
    if (!ok) {
        shape_text(got, sizeof got, t->ne, t->n_dims ? t->n_dims : 1);
        issue(c, true, LGG_LOAD_WRONG_SHAPE, name, exp, got);
    }
    if (!(flags & DUP) && !c->seen[id]) {
        c->seen[id] = 1;
        c->out->n_tensors_expected++;
    }
    return true;
}

static int64_t dim(const lc *c, uint8_t d) {
    const int64_t hk = c->head_k, hv = c->head_v, F = c->n_ff;
    switch (d) {
    case D_E: return c->n_embd;
    case D_V: return (int64_t)c->n_vocab;
    case D_F: return F;
    case D_F2: return 2 * F;
    case D_Q: return hk * c->n_head;
    case D_KG: return hk * c->n_head_kv;
    case D_VG: return hv * c->n_head_kv;
    case D_HK: return hk;
    case D_X: return c->n_expert;
    case D_FX: return c->n_ff_exp ? c->n_ff_exp : c->n_expert_used ? F / c->n_expert_used : 0;
    case D_FS: return c->n_ff_shexp ? c->n_ff_shexp : F;
    case D_FXS: return c->n_ff_shexp;
    case D_ROT2: return c->n_rot / 2;
    case D_CLS: return c->n_cls_out;
    case D_KN: return c->n_head ? (int64_t)c->n_head_kv * (c->n_embd / c->n_head) : 0;
    case D_H: return c->n_head;
    case D_HKV: return c->n_head_kv;
    default: return 0;
    }
}

/* The name of a row: blk.N.NAME for a layer's (il >= 0), NAME for a global one. */
static const char *row_name(char *buf, size_t cap, int64_t il, const char *name) {
    if (il < 0) snprintf(buf, cap, "%s", name);
    else if (!strncmp(name, "rope_", 5)) snprintf(buf, cap, "%s", name); /* rope factors: no layer number */
    else snprintf(buf, cap, "blk.%lld.%s", (long long)il, name);
    return buf;
}

/* create_tensor_qkv: a fused attn_qkv when present, else Q, K and V with optional biases. */
static void qkv(lc *c, int64_t il, const tspec *r) {
    char n[96], w[64];
    const int64_t E = c->n_embd, q = dim(c, r->d[0]), k = dim(c, r->d[1]), v = dim(c, r->d[2]);
    static const char *const part[] = {"attn_q", "attn_k", "attn_v"};
    const int64_t size[] = {q, k, v};
    if (want(c, OPT, row_name(n, sizeof n, il, "attn_qkv.weight"), E, q + k + v, 0)) {
        want(c, OPT, row_name(n, sizeof n, il, "attn_qkv.bias"), q + k + v, 0, 0);
        return;
    }
    for (int i = 0; i < 3; i++) {
        snprintf(w, sizeof w, "%s.weight", part[i]);
        want(c, r->flags, row_name(n, sizeof n, il, w), E, size[i], 0);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(w, sizeof w, "%s.bias", part[i]);
        want(c, OPT, row_name(n, sizeof n, il, w), size[i], 0, 0);
    }
}

static bool applies(const lc *c, uint8_t cond) {
    switch (cond) {
    case C_DENSE: return c->n_expert == 0;
    case C_MOE: return c->n_expert > 0;
    case C_SHEXP: return c->n_expert > 0 && c->n_ff_shexp > 0;
    case C_LONGROPE: return c->longrope;
    case C_NOT_LONGROPE: return !c->longrope;
    case C_L64: return c->n_layer >= 64;
    default: return true;
    }
}

/* One table's rows, for layer il (or the globals: il -1); false when master throws. */
static bool rows(lc *c, const tspec *r, int64_t il) {
    char n[96], k[160];
    for (; r->op || r->name; r++) {
        if (!applies(c, r->cond)) continue;
        if (r->op == OP_QKV) {
            qkv(c, il, r);
        } else if (r->op == OP_OUTPUT) {
            if (!want(c, OPT, "output.weight", c->n_embd, (int64_t)c->n_vocab, 0))
                want(c, DUP, "token_embd.weight", c->n_embd, (int64_t)c->n_vocab, 0);
        } else if (r->op == OP_EXPERTS) {
            if (c->n_expert && c->n_expert_used) continue;
            issue(c, false, LGG_LOAD_BAD_VALUE,
                  akey(c, c->n_expert ? "expert_used_count" : "expert_count", k, sizeof k), "above 0", "0");
            return false;
        } else {
            unsigned f = r->flags & (OPT | DUP);
            if ((r->flags & DUP1) && il > 0) f |= DUP;
            want(c, f, row_name(n, sizeof n, il, r->name), dim(c, r->d[0]), dim(c, r->d[1]), dim(c, r->d[2]));
        }
    }
    return true;
}

static void tensors(lc *c) {
    if (!rows(c, c->t->globals, -1)) return;
    for (uint32_t il = 0; il < c->n_layer; il++)
        if (!rows(c, c->t->layer, il)) return;
    /* done_getting_tensors: every tensor of the file must have been created */
    for (uint64_t i = 0; i < c->f->n_tensors; i++) {
        if (c->seen[i]) continue;
        const lgg_tensor *t = lgg_tensor_at(c->f, i);
        char name[96], got[96];
        printable(name, sizeof name, t->name.ptr, (size_t)t->name.len);
        shape_text(got, sizeof got, t->ne, t->n_dims ? t->n_dims : 1);
        issue(c, true, LGG_LOAD_UNEXPECTED, name, "", got);
    }
}

/* ---- the check ----------------------------------------------------------------- */

/* llama_model_loader's constructor: every tensor's data within the file ("data is not within the file
 * bounds"), before anything else is read. */
static void data_present(lc *c) {
    for (uint64_t i = 0; i < c->f->n_tensors; i++) {
        const lgg_tensor *t = lgg_tensor_at(c->f, i);
        if (t->data_available) continue;
        char name[96];
        printable(name, sizeof name, t->name.ptr, (size_t)t->name.len);
        issue(c, true, LGG_LOAD_NO_DATA, name, "data within the file", "past its end");
    }
}

lgg_status lgg_load_check_file(const lgg_file *f, lgg_load_check *out, lgg_error *err) {
    if (!f || !out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "file or out is NULL");
    memset(out, 0, sizeof *out);
    lc c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.out = out;
    c.n_cls_out = 1;
    lgg_value v;
    lgg_str s;
    data_present(&c);
    if (out->n_issues) {
        out->verdict = LGG_LOAD_REFUSED;
        if (lgg_get(f, "general.architecture", &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK)
            printable(out->arch, sizeof out->arch, s.ptr, (size_t)s.len);
        return LGG_OK;
    }
    if (!key_of(&c, "general.architecture", LGG_VT_STRING, true, &v) || lgg_value_string(&v, &s) != LGG_OK) {
        out->verdict = LGG_LOAD_REFUSED;
        return LGG_OK;
    }
    printable(out->arch, sizeof out->arch, s.ptr, (size_t)s.len);
    for (size_t i = 0; i < sizeof TABLES / sizeof TABLES[0]; i++)
        if (str_is(&s, TABLES[i].name)) c.t = &TABLES[i];
    if (!c.t) {
        out->verdict = LGG_LOAD_NO_TABLE;
        return LGG_OK;
    }
    hparams(&c);
    if (!out->n_issues) vocab(&c);
    if (!out->n_issues) {
        c.seen = lgg__calloc(f->alloc, f->n_tensors ? f->n_tensors : 1, 1);
        if (!c.seen) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        tensors(&c);
        lgg__free(f->alloc, c.seen);
    }
    out->verdict = out->n_issues ? LGG_LOAD_REFUSED : LGG_LOAD_LOADS;
    return LGG_OK;
}
