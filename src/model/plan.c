/* plan.c -- llama-quantize's presets and its choice of type for each tensor.
 *
 * The rules follow llama.cpp master's src/llama-quant.cpp (3f545becc),
 * written anew: which tensors are quantized, the per-preset mixture by
 * architecture, tensor category, layer position, grouped-query attention and
 * expert count, the fallbacks for row lengths a block size does not divide,
 * and the refusals.  Where master changed b4747's rules (the version the
 * golden files were made with) it is followed, and the comment says what
 * b4747 did; docs/reference.md lists the changes. */
#include "model/plan.h"
#include "format/file.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>

/* llama.cpp's LLAMA_FTYPE values */
enum {
    FT_ALL_F32 = 0, FT_F16 = 1, FT_Q4_0 = 2, FT_Q4_1 = 3, FT_Q8_0 = 7, FT_Q5_0 = 8, FT_Q5_1 = 9, FT_Q2_K = 10,
    FT_Q3_K_S = 11, FT_Q3_K_M = 12, FT_Q3_K_L = 13, FT_Q4_K_S = 14, FT_Q4_K_M = 15, FT_Q5_K_S = 16, FT_Q5_K_M = 17,
    FT_Q6_K = 18, FT_IQ2_XXS = 19, FT_IQ2_XS = 20, FT_Q2_K_S = 21, FT_IQ3_XS = 22, FT_IQ3_XXS = 23, FT_IQ1_S = 24,
    FT_IQ4_NL = 25, FT_IQ3_S = 26, FT_IQ3_M = 27, FT_IQ2_S = 28, FT_IQ2_M = 29, FT_IQ4_XS = 30, FT_IQ1_M = 31,
    FT_BF16 = 32, FT_TQ1_0 = 36, FT_TQ2_0 = 37, FT_MXFP4_MOE = 38, FT_NVFP4 = 39, FT_Q1_0 = 40, FT_Q2_0 = 41,
    FT_GUESSED = 1024
};

#define NONE LGG_TYPE_COUNT

static const lgg_quant_preset PRESETS[] = {
    {"Q1_0", FT_Q1_0, LGG_TYPE_Q1_0, " 1.125 bpw quantization"},
    {"Q2_0", FT_Q2_0, LGG_TYPE_Q2_0, " 2.25 bpw quantization (group 64)"},
    {"Q4_0", FT_Q4_0, LGG_TYPE_Q4_0, " 4.34G, +0.4685 ppl @ Llama-3-8B"},
    {"Q4_1", FT_Q4_1, LGG_TYPE_Q4_1, " 4.78G, +0.4511 ppl @ Llama-3-8B"},
    {"MXFP4_MOE", FT_MXFP4_MOE, LGG_TYPE_MXFP4, " MXFP4 MoE"},
    {"Q5_0", FT_Q5_0, LGG_TYPE_Q5_0, " 5.21G, +0.1316 ppl @ Llama-3-8B"},
    {"Q5_1", FT_Q5_1, LGG_TYPE_Q5_1, " 5.65G, +0.1062 ppl @ Llama-3-8B"},
    {"IQ2_XXS", FT_IQ2_XXS, LGG_TYPE_IQ2_XXS, " 2.06 bpw quantization"},
    {"IQ2_XS", FT_IQ2_XS, LGG_TYPE_IQ2_XS, " 2.31 bpw quantization"},
    {"IQ2_S", FT_IQ2_S, LGG_TYPE_IQ2_XS, " 2.5  bpw quantization"},
    {"IQ2_M", FT_IQ2_M, LGG_TYPE_IQ2_S, " 2.7  bpw quantization"},
    {"IQ1_S", FT_IQ1_S, LGG_TYPE_IQ1_S, " 1.56 bpw quantization"},
    {"IQ1_M", FT_IQ1_M, LGG_TYPE_IQ1_M, " 1.75 bpw quantization"},
    {"TQ1_0", FT_TQ1_0, LGG_TYPE_TQ1_0, " 1.69 bpw ternarization"},
    {"TQ2_0", FT_TQ2_0, LGG_TYPE_TQ2_0, " 2.06 bpw ternarization"},
    {"Q2_K", FT_Q2_K, LGG_TYPE_Q2_K, " 2.96G, +3.5199 ppl @ Llama-3-8B"},
    {"Q2_K_S", FT_Q2_K_S, LGG_TYPE_Q2_K, " 2.96G, +3.1836 ppl @ Llama-3-8B"},
    {"IQ3_XXS", FT_IQ3_XXS, LGG_TYPE_IQ3_XXS, " 3.06 bpw quantization"},
    {"IQ3_S", FT_IQ3_S, LGG_TYPE_IQ3_S, " 3.44 bpw quantization"},
    {"IQ3_M", FT_IQ3_M, LGG_TYPE_IQ3_S, " 3.66 bpw quantization mix"},
    {"Q3_K", FT_Q3_K_M, LGG_TYPE_Q3_K, "alias for Q3_K_M"},
    {"IQ3_XS", FT_IQ3_XS, LGG_TYPE_IQ3_S, " 3.3 bpw quantization"},
    {"Q3_K_S", FT_Q3_K_S, LGG_TYPE_Q3_K, " 3.41G, +1.6321 ppl @ Llama-3-8B"},
    {"Q3_K_M", FT_Q3_K_M, LGG_TYPE_Q3_K, " 3.74G, +0.6569 ppl @ Llama-3-8B"},
    {"Q3_K_L", FT_Q3_K_L, LGG_TYPE_Q3_K, " 4.03G, +0.5562 ppl @ Llama-3-8B"},
    {"IQ4_NL", FT_IQ4_NL, LGG_TYPE_IQ4_NL, " 4.50 bpw non-linear quantization"},
    {"IQ4_XS", FT_IQ4_XS, LGG_TYPE_IQ4_XS, " 4.25 bpw non-linear quantization"},
    {"Q4_K", FT_Q4_K_M, LGG_TYPE_Q4_K, "alias for Q4_K_M"},
    {"Q4_K_S", FT_Q4_K_S, LGG_TYPE_Q4_K, " 4.37G, +0.2689 ppl @ Llama-3-8B"},
    {"Q4_K_M", FT_Q4_K_M, LGG_TYPE_Q4_K, " 4.58G, +0.1754 ppl @ Llama-3-8B"},
    {"Q5_K", FT_Q5_K_M, LGG_TYPE_Q5_K, "alias for Q5_K_M"},
    {"Q5_K_S", FT_Q5_K_S, LGG_TYPE_Q5_K, " 5.21G, +0.1049 ppl @ Llama-3-8B"},
    {"Q5_K_M", FT_Q5_K_M, LGG_TYPE_Q5_K, " 5.33G, +0.0569 ppl @ Llama-3-8B"},
    {"Q6_K", FT_Q6_K, LGG_TYPE_Q6_K, " 6.14G, +0.0217 ppl @ Llama-3-8B"},
    {"Q8_0", FT_Q8_0, LGG_TYPE_Q8_0, " 7.96G, +0.0026 ppl @ Llama-3-8B"},
    {"F16", FT_F16, LGG_TYPE_F16, "14.00G, +0.0020 ppl @ Mistral-7B"},
    {"BF16", FT_BF16, LGG_TYPE_BF16, "14.00G, -0.0050 ppl @ Mistral-7B"},
    {"F32", FT_ALL_F32, LGG_TYPE_F32, "26.00G              @ 7B"},
    {"COPY", FT_ALL_F32, NONE, "only copy tensors, no quantizing"},
};
#define N_PRESETS (sizeof PRESETS / sizeof PRESETS[0])

size_t lgg_quant_preset_count(void) { return N_PRESETS; }
const lgg_quant_preset *lgg_quant_preset_at(size_t i) { return i < N_PRESETS ? &PRESETS[i] : NULL; }

static bool ieq(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'a' && x <= 'z') x = (char)(x - 32);
        if (y >= 'a' && y <= 'z') y = (char)(y - 32);
        if (x != y) return false;
    }
    return *a == *b;
}

const lgg_quant_preset *lgg_quant_preset_find(const char *s) {
    if (!s || !*s) return NULL;
    for (size_t i = 0; i < N_PRESETS; i++)
        if (ieq(PRESETS[i].name, s)) return &PRESETS[i];
    /* a decimal id, all of the text */
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < 0 || v > INT_MAX) return NULL;
    for (size_t i = 0; i < N_PRESETS; i++)
        if (PRESETS[i].ftype == (uint32_t)v && PRESETS[i].type != NONE) return &PRESETS[i];
    return NULL;
}

void lgg_quant_options_init(lgg_quant_options *o) {
    if (o) *o = (lgg_quant_options)LGG_QUANT_OPTIONS_INIT;
}

/* ---- the plan ---- */

typedef struct src_tensor {
    uint32_t file;
    uint64_t index;
    const lgg_tensor *t;
    char *name; /* NUL-terminated copy (cut at a NUL byte, as C strings are) */
    int layer;  /* "blk.%d." or -1 */
} src_tensor;

struct lgg_quant_plan {
    const lgg_allocator *a;
    lgg_allocator a_copy;
    const lgg_file *const *files;
    lgg_file const **files_copy;
    size_t n_files;
    lgg_quant_item *items;
    char **names;
    size_t n;
    uint32_t file_type;
    size_t n_fallback;
    const lgg_imatrix *imatrix; /* NULL when none or empty */
    bool keep_split;
    bool pruned;          /* --prune-layers: ARCH.block_count becomes block_count */
    uint32_t block_count;
};

/* sscanf("blk.%d.") as llama.cpp: whitespace, a sign and digits after
 * "blk."; returns false when there is no number. */
static bool parse_layer(const char *name, int *out) {
    if (strncmp(name, "blk.", 4) != 0) return false;
    const char *p = name + 4;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
    bool neg = false;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if (*p < '0' || *p > '9') return false;
    long long v = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        if (v < (long long)INT_MAX + 1) v = v * 10 + (*p - '0');
    if (neg) v = -v;
    if (v > INT_MAX) v = INT_MAX;
    if (v < INT_MIN) v = INT_MIN;
    *out = (int)v;
    return true;
}

static int cmp_src(const void *pa, const void *pb) {
    const src_tensor *a = pa, *b = pb;
    if (a->layer != b->layer) return a->layer < b->layer ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* --keep-split: by split, then by position in the split */
static int cmp_src_split(const void *pa, const void *pb) {
    const src_tensor *a = pa, *b = pb;
    if (a->file != b->file) return a->file < b->file ? -1 : 1;
    if (a->t->offset != b->t->offset) return a->t->offset < b->t->offset ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static bool has(const char *s, const char *sub) { return strstr(s, sub) != NULL; }

static bool ends_with(const char *s, const char *suf) {
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && !strcmp(s + n - k, suf);
}

/* Which tensors llama-quantize converts at all. */
static bool allows_quantization(const lgg_quant_options *o, const lgg_tensor *t, const char *name) {
    /* llama.cpp tests name.rfind("weight") == name.size() - 6, which a
     * 5-byte name also passes (npos == size_t(-1)) */
    if (!ends_with(name, "weight") && strlen(name) != 5) return false;
    /* ggml_n_dims: trailing dimensions of 1 do not count */
    int nd = 1;
    for (int i = LGG_MAX_DIMS - 1; i >= 1; i--)
        if (t->ne[i] > 1) {
            nd = i + 1;
            break;
        }
    if (nd < 2) return false;
    if (has(name, "_norm.weight")) return false;
    if (o->leave_output_tensor && !strcmp(name, "output.weight")) return false;
    /* master's list (b4747's, with the DeepSeek-V4, MiniMax, multimodal and
     * audio names; ssm_conv1d and .position_embd without their suffixes) */
    static const char *const KEEP[] = {
        "ffn_gate_inp.weight", "ffn_gate_tid2eid.weight", "altup", "laurel", "per_layer_model_proj", "ssm_conv1d",
        "shortconv.conv.weight", "indexer.k_proj.weight", "indexer.q_proj.weight", "time_mix_first.weight", "time_mix_w0.weight", "time_mix_w1.weight",
        "time_mix_w2.weight", "time_mix_v0.weight", "time_mix_v1.weight", "time_mix_v2.weight", "time_mix_a0.weight",
        "time_mix_a1.weight", "time_mix_a2.weight", "time_mix_g1.weight", "time_mix_g2.weight",
        "time_mix_decay_w1.weight", "time_mix_decay_w2.weight", "time_mix_lerp_fused.weight", "attn_rel_b.weight",
        ".position_embd", "sam.pos_embd", "sam.neck.", "sam.net_", ".rel_pos", ".patch_embd", ".patch_merger",
        "a.rvq.codebook", "mm.a.code_embd",
    };
    for (size_t i = 0; i < sizeof KEEP / sizeof KEEP[0]; i++)
        if (has(name, KEEP[i])) return false;
    if (!strcmp(name, "position_embd.weight") || !strcmp(name, "token_types.weight")) return false;
    return true;
}

typedef struct qstate {
    const lgg_quant_options *o;
    uint32_t ftype;
    bool falcon;
    bool bailingmoe3;
    bool is_70b;
    bool has_output;
    bool has_imatrix;
    uint32_t n_expert;
    uint32_t n_gqa;
    int n_layer;
    int n_attention_wv, i_attention_wv;
    int i_ffn_down, i_ffn_gate, i_ffn_up;
} qstate;

static bool use_more_bits(int i, int n) { return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2; }

/* The layer of an ffn tensor: with experts, from its name (llama.cpp: the
 * expert tensors are not consecutive); else the running count. */
static lgg_status layer_info(const qstate *q, int counter, const char *name, int *il, lgg_error *err) {
    *il = counter;
    if (q->n_expert > 1) {
        if (!parse_layer(name, il))
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "failed to determine layer for tensor %s", name);
        if (*il < 0 || *il >= q->n_layer)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "bad layer %d for tensor %s: must be in [0, %d)", *il,
                             name, q->n_layer);
    }
    return LGG_OK;
}

static bool ft_in(uint32_t ft, const uint32_t *set, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (set[i] == ft) return true;
    return false;
}
#define FT_IN(ft, ...) ft_in(ft, (const uint32_t[]){__VA_ARGS__}, sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t))

static uint32_t blck(uint32_t type) { return lgg_type_get(type)->block_size; }

/* llama_tensor_get_type: the mixture rules, then the fallback. */
/* output.weight (or a tied token_embd.weight standing in for it) */
static uint32_t rule_output(const qstate *q, const lgg_tensor *t, uint32_t ft, uint32_t nt) {
    if (q->o->output_tensor_type < NONE) return q->o->output_tensor_type;
    if (ft == FT_MXFP4_MOE) return LGG_TYPE_Q8_0;
    if (q->falcon || t->ne[0] % 256 != 0) return LGG_TYPE_Q8_0;
    if (FT_IN(ft, FT_IQ2_XXS, FT_IQ2_XS, FT_IQ3_XXS, FT_IQ1_S, FT_IQ2_S, FT_IQ2_M, FT_IQ1_M)) return LGG_TYPE_Q5_K;
    return nt != LGG_TYPE_Q8_0 ? LGG_TYPE_Q6_K : nt;
}

static uint32_t rule_token_embd(const qstate *q, uint32_t ft, uint32_t nt) {
    if (q->o->token_embedding_type < NONE) return q->o->token_embedding_type;
    if (FT_IN(ft, FT_IQ2_XXS, FT_IQ2_XS, FT_IQ1_S, FT_IQ1_M)) return LGG_TYPE_Q2_K;
    if (FT_IN(ft, FT_IQ2_S, FT_IQ2_M, FT_IQ3_XXS)) return LGG_TYPE_IQ3_S;
    if (FT_IN(ft, FT_TQ1_0, FT_TQ2_0, FT_Q2_0)) return LGG_TYPE_Q4_K;
    return nt;
}

/* master's tensor categories (llama-quant.cpp tensor_get_category): the
 * first that matches, in this order */
enum { CAT_TOKEN_EMBD, CAT_Q, CAT_V, CAT_K, CAT_QKV, CAT_KV_B, CAT_AO, CAT_UP, CAT_GATE, CAT_DOWN, CAT_OUTPUT, CAT_OTHER };

static int category(const char *name) {
    if (!strcmp(name, "output.weight")) return CAT_OUTPUT;
    if (!strcmp(name, "token_embd.weight") || !strcmp(name, "per_layer_token_embd.weight")) return CAT_TOKEN_EMBD;
    static const struct { const char *sub; int cat; } BY_NAME[] = {
        {"attn_qkv.weight", CAT_QKV}, {"attn_kv_b.weight", CAT_KV_B}, {"attn_v.weight", CAT_V},
        {"attn_k.weight", CAT_K},     {"attn_q.weight", CAT_Q},       {"attn_output.weight", CAT_AO},
        {"ffn_up", CAT_UP},           {"ffn_gate", CAT_GATE},         {"ffn_down", CAT_DOWN},
    };
    for (size_t i = 0; i < sizeof BY_NAME / sizeof BY_NAME[0]; i++)
        if (has(name, BY_NAME[i].sub)) return BY_NAME[i].cat;
    return CAT_OTHER;
}

/* master: attn_qkv and attn_kv_b take attn_v's rules (b4747: attn_qkv had its
 * own, attn_kv_b none) */
static bool cat_is_attn_v(int c) { return c == CAT_V || c == CAT_QKV || c == CAT_KV_B; }

/* The 1- and 2-bit presets (IQ1_*, IQ2_*) */
static uint32_t rule_very_low_bit(qstate *q, int cat, uint32_t ft, uint32_t nt) {
    const bool s_or_m = ft == FT_IQ2_S || ft == FT_IQ2_M;
    if (cat_is_attn_v(cat)) {
        if (q->n_gqa >= 4 || q->n_expert >= 4) nt = LGG_TYPE_Q4_K;
        else nt = s_or_m ? LGG_TYPE_IQ3_S : LGG_TYPE_Q2_K;
        q->i_attention_wv++;
    } else if (q->n_expert == 8 && cat == CAT_K) {
        nt = LGG_TYPE_Q4_K;
    } else if (cat == CAT_DOWN) {
        if (q->i_ffn_down < q->n_layer / 8) nt = s_or_m ? LGG_TYPE_IQ3_S : LGG_TYPE_Q2_K;
        q->i_ffn_down++;
    } else if (cat == CAT_AO) {
        if (q->n_expert == 8) nt = LGG_TYPE_Q5_K;
        else if (ft == FT_IQ1_S || ft == FT_IQ1_M) nt = LGG_TYPE_IQ2_XXS;
        else if (s_or_m) nt = LGG_TYPE_IQ3_S;
    }
    return nt;
}

static uint32_t rule_attn_v(qstate *q, uint32_t ft, uint32_t nt) {
    if (ft == FT_Q2_K) nt = q->n_gqa >= 4 ? LGG_TYPE_Q4_K : LGG_TYPE_Q3_K;
    else if (ft == FT_Q2_K_S && q->n_gqa >= 4) nt = LGG_TYPE_Q4_K;
    else if (ft == FT_IQ3_XXS)
        nt = q->n_gqa >= 4 ? LGG_TYPE_Q4_K : !q->has_imatrix ? LGG_TYPE_IQ3_S : LGG_TYPE_IQ3_XXS;
    else if ((ft == FT_IQ3_XS || ft == FT_IQ3_S) && q->n_gqa >= 4) nt = LGG_TYPE_Q4_K;
    else if (ft == FT_IQ3_M) nt = LGG_TYPE_Q4_K;
    else if (ft == FT_Q3_K_M) nt = q->i_attention_wv < 2 ? LGG_TYPE_Q5_K : LGG_TYPE_Q4_K;
    else if (ft == FT_Q3_K_L) nt = LGG_TYPE_Q5_K;
    else if ((ft == FT_IQ4_NL || ft == FT_IQ4_XS) && q->n_gqa >= 4) nt = LGG_TYPE_Q5_K;
    else if ((ft == FT_Q4_K_M || ft == FT_Q5_K_M) && use_more_bits(q->i_attention_wv, q->n_attention_wv))
        nt = LGG_TYPE_Q6_K;
    else if (ft == FT_Q4_K_S && q->i_attention_wv < 4) nt = LGG_TYPE_Q5_K;
    /* 70B: 8 heads share attn_v, so more bits cost little */
    if (q->is_70b && (nt == LGG_TYPE_Q3_K || nt == LGG_TYPE_Q4_K)) nt = LGG_TYPE_Q5_K;
    if (q->n_expert == 8) nt = LGG_TYPE_Q8_0;
    q->i_attention_wv++;
    return nt;
}

/* ffn_down of layer il (of nl) */
static uint32_t rule_ffn_down(const qstate *q, int il, uint32_t ft, uint32_t nt) {
    const int nl = q->n_layer;
    if (ft == FT_Q2_K) nt = LGG_TYPE_Q3_K;
    else if (ft == FT_Q2_K_S) {
        if (il < nl / 8) nt = LGG_TYPE_Q4_K;
    } else if (ft == FT_IQ3_XXS && !q->has_imatrix) {
        nt = il < nl / 8 ? LGG_TYPE_Q4_K : LGG_TYPE_Q3_K;
    } else if (ft == FT_Q3_K_M) {
        nt = il < nl / 16 ? LGG_TYPE_Q5_K : !q->falcon || use_more_bits(il, nl) ? LGG_TYPE_Q4_K : LGG_TYPE_Q3_K;
    } else if (ft == FT_IQ3_M && (il < nl / 8 || (q->n_expert == 8 && use_more_bits(il, nl)))) {
        nt = LGG_TYPE_Q4_K;
    } else if (ft == FT_Q3_K_L) {
        nt = q->falcon ? LGG_TYPE_Q4_K : LGG_TYPE_Q5_K;
    } else if (ft == FT_Q4_K_M) {
        if (q->falcon)
            nt = il < nl / 16 ? LGG_TYPE_Q6_K : use_more_bits(il, nl) ? LGG_TYPE_Q5_K : LGG_TYPE_Q4_K;
        else if (use_more_bits(il, nl))
            nt = LGG_TYPE_Q6_K;
    } else if (il < nl / 8 && (ft == FT_IQ4_NL || ft == FT_IQ4_XS) && !q->has_imatrix) {
        nt = LGG_TYPE_Q5_K;
    } else if (ft == FT_Q5_K_M && use_more_bits(il, nl)) {
        nt = LGG_TYPE_Q6_K;
    } else if (ft == FT_Q4_K_S && !q->falcon && il < nl / 8) {
        nt = LGG_TYPE_Q5_K;
    } else if ((ft == FT_Q4_0 || ft == FT_Q5_0) && q->has_imatrix && il < nl / 8) {
        /* the first ffn_down layers go wrong even with an imatrix */
        nt = ft == FT_Q4_0 ? LGG_TYPE_Q4_1 : LGG_TYPE_Q5_1;
    }
    return nt;
}

static uint32_t rule_attn_output(const qstate *q, uint32_t ft, uint32_t nt) {
    if (q->falcon) return ft == FT_Q3_K_L ? LGG_TYPE_Q4_K : nt;
    if (q->n_expert == 8)
        return FT_IN(ft, FT_Q2_K, FT_IQ3_XS, FT_IQ3_XXS, FT_Q3_K_S, FT_Q3_K_M, FT_IQ4_NL, FT_Q4_K_S, FT_Q4_K_M,
                     FT_IQ3_S, FT_IQ3_M, FT_IQ4_XS)
                   ? LGG_TYPE_Q5_K
                   : nt;
    if (ft == FT_Q2_K) return LGG_TYPE_Q3_K;
    if (ft == FT_IQ3_XXS) return LGG_TYPE_IQ3_S;
    if (ft == FT_Q3_K_M) return LGG_TYPE_Q4_K;
    if (ft == FT_Q3_K_L) return LGG_TYPE_Q5_K;
    if (ft == FT_IQ3_M) return LGG_TYPE_Q4_K;
    return nt;
}

/* MXFP4_MOE: experts (3-d) MXFP4, the rest Q8_0; bailingmoe3's 3-d
 * projections that are not ffn experts stay Q8_0 */
static uint32_t rule_mxfp4_moe(const qstate *q, const lgg_tensor *t, int cat) {
    const bool ffn = cat == CAT_UP || cat == CAT_GATE || cat == CAT_DOWN;
    return t->ne[2] > 1 && (!q->bailingmoe3 || ffn) ? LGG_TYPE_MXFP4 : LGG_TYPE_Q8_0;
}

/* llama-quantize's per-tensor rules (llama_tensor_get_type_impl), by category */
static lgg_status rule_by_role(qstate *q, const lgg_tensor *t, const char *name, uint32_t *io, lgg_error *err) {
    const uint32_t ft = q->ftype;
    uint32_t nt = *io;
    lgg_status st = LGG_OK;
    int il;
    const int nl = q->n_layer, cat = category(name);
    if (cat == CAT_OUTPUT || (!q->has_output && cat == CAT_TOKEN_EMBD)) {
        nt = rule_output(q, t, ft, nt);
    } else if (ft == FT_MXFP4_MOE) {
        nt = rule_mxfp4_moe(q, t, cat);
    } else if (cat == CAT_TOKEN_EMBD) {
        nt = rule_token_embd(q, ft, nt);
    } else if (FT_IN(ft, FT_IQ2_XXS, FT_IQ2_XS, FT_IQ1_S, FT_IQ2_S, FT_IQ2_M, FT_IQ1_M)) {
        nt = rule_very_low_bit(q, cat, ft, nt);
    } else if (cat_is_attn_v(cat)) {
        nt = rule_attn_v(q, ft, nt);
    } else if (cat == CAT_K) {
        if (q->n_expert == 8) nt = LGG_TYPE_Q8_0;
        else if (ft == FT_IQ3_XS) nt = LGG_TYPE_IQ3_XXS;
        else if (ft == FT_IQ3_XXS) nt = LGG_TYPE_IQ2_S;
    } else if (cat == CAT_Q) {
        if (ft == FT_IQ3_XS) nt = LGG_TYPE_IQ3_XXS;
        else if (ft == FT_IQ3_XXS) nt = LGG_TYPE_IQ2_S;
    } else if (cat == CAT_DOWN) {
        if ((st = layer_info(q, q->i_ffn_down, name, &il, err)) == LGG_OK) nt = rule_ffn_down(q, il, ft, nt);
        q->i_ffn_down++;
    } else if (cat == CAT_AO) {
        nt = rule_attn_output(q, ft, nt);
    } else if (cat == CAT_GATE || cat == CAT_UP) {
        int *i = cat == CAT_GATE ? &q->i_ffn_gate : &q->i_ffn_up;
        if ((st = layer_info(q, *i, name, &il, err)) == LGG_OK && ft == FT_IQ3_XS && il >= nl / 8 && il < 7 * nl / 8)
            nt = LGG_TYPE_IQ3_XXS;
        (*i)++;
    }
    *io = nt;
    return st;
}

/* A type whose block does not divide the rows falls back as llama-quantize
 * does (to F16 when the fallback's block does not either). */
static lgg_status fallback_type(const lgg_tensor *t, const char *name, uint32_t *nt, bool *fell_back, lgg_error *err) {
    *fell_back = false;
    if (t->ne[0] % blck(*nt) == 0) return LGG_OK;
    uint32_t fb;
    switch (*nt) {
    /* master: Q2_K and Q3_K fall back to Q4_0 (b4747: IQ4_NL) */
    case LGG_TYPE_Q2_0: case LGG_TYPE_Q2_K: case LGG_TYPE_Q3_K:
    case LGG_TYPE_TQ1_0: case LGG_TYPE_TQ2_0: fb = LGG_TYPE_Q4_0; break;
    case LGG_TYPE_IQ2_XXS: case LGG_TYPE_IQ2_XS: case LGG_TYPE_IQ2_S: case LGG_TYPE_IQ3_XXS:
    case LGG_TYPE_IQ3_S: case LGG_TYPE_IQ1_S: case LGG_TYPE_IQ1_M: case LGG_TYPE_IQ4_XS: fb = LGG_TYPE_IQ4_NL; break;
    case LGG_TYPE_Q4_K: fb = LGG_TYPE_Q5_0; break;
    case LGG_TYPE_Q5_K: fb = LGG_TYPE_Q5_1; break;
    case LGG_TYPE_Q6_K: fb = LGG_TYPE_Q8_0; break;
    default: {
        /* master's reason, with ggml's name (lower case for every type that
         * reaches here: the K-types all have a fallback) */
        char gname[32];
        size_t k = 0;
        for (const char *c = lgg_type_name(*nt); *c && k + 1 < sizeof gname; c++)
            gname[k++] = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
        gname[k] = 0;
        return lgg__fail(err, LGG_ERR_TENSOR_BLOCK, LGG_NO_OFFSET,
                         "%s: %" PRId64 " columns are not a multiple of %s's block of %u: no tensor type fallback "
                         "is defined for type %s",
                         name, t->ne[0], lgg_type_name(*nt), blck(*nt), gname);
    }
    }
    if (t->ne[0] % blck(fb) != 0) fb = LGG_TYPE_F16;
    *nt = fb;
    *fell_back = true;
    return LGG_OK;
}

static lgg_status rules_type(qstate *q, const lgg_tensor *t, const char *name, uint32_t *io, bool run_rules,
                             bool *fell_back, lgg_error *err) {
    uint32_t nt = *io;
    lgg_status st = run_rules ? rule_by_role(q, t, name, &nt, err) : LGG_OK;
    if (st != LGG_OK) return st;
    if (!lgg_type_is_valid(nt) || blck(nt) == 0)
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "%s: type %u cannot be written", name, nt);
    if ((st = fallback_type(t, name, &nt, fell_back, err)) != LGG_OK) {
        const bool tied = !q->has_output && !strcmp(name, "token_embd.weight");
        /* the output rule chose Q8_0 (rows not a multiple of 256): say so,
         * and what to do, rather than leave the user with the block sizes */
        if ((tied || !strcmp(name, "output.weight")) && q->o->output_tensor_type >= NONE && nt == LGG_TYPE_Q8_0)
            return lgg__fail(err, st, LGG_NO_OFFSET,
                             "%s%s: %" PRId64 " columns are not a multiple of 256, so llama-quantize's rule gives "
                             "the output tensor Q8_0, whose block of 32 does not divide them either and which has "
                             "no fallback; choose its type with --output-tensor-type (f16 fits any row)",
                             name, tied ? " (the output tensor too: tied embeddings)" : "", t->ne[0]);
        return st;
    }
    *io = nt;
    return LGG_OK;
}

static bool get_u32(const lgg_file *f, const char *arch, const char *suffix, uint32_t *out) {
    char key[256];
    snprintf(key, sizeof key, "%s.%s", arch, suffix);
    lgg_value v;
    if (lgg_get(f, key, &v) != LGG_OK) return false;
    uint64_t u;
    if (v.type == LGG_VT_ARRAY) { /* per-layer values: layer 0's, as n_gqa(0) */
        lgg_value e;
        if (v.count == 0 || lgg_array_get(&v, 0, &e) != LGG_OK) return false;
        v = e;
    }
    if (lgg_value_uint(&v, &u) != LGG_OK || u > UINT32_MAX) return false;
    *out = (uint32_t)u;
    return true;
}

/* ml.ftype for COPY: general.file_type, else the most common tensor type
 * (first to reach the highest count, in tensor order), marked as guessed. */
static uint32_t guess_file_type(const lgg_file *f0, const src_tensor *s, size_t n) {
    lgg_value v;
    uint64_t u;
    if (lgg_get(f0, "general.file_type", &v) == LGG_OK && lgg_value_uint(&v, &u) == LGG_OK && u <= UINT32_MAX)
        return (uint32_t)u;
    uint32_t count[LGG_TYPE_COUNT] = {0}, best = 0, type_max = LGG_TYPE_F32;
    for (size_t i = 0; i < n; i++) {
        uint32_t ty = s[i].t->type;
        if (ty >= LGG_TYPE_COUNT) continue;
        if (best < ++count[ty]) {
            best = count[ty];
            type_max = ty;
        }
    }
    uint32_t ft;
    switch (type_max) {
    case LGG_TYPE_F16: ft = FT_F16; break;
    case LGG_TYPE_BF16: ft = FT_BF16; break;
    case LGG_TYPE_Q4_0: ft = FT_Q4_0; break;
    case LGG_TYPE_Q4_1: ft = FT_Q4_1; break;
    case LGG_TYPE_Q5_0: ft = FT_Q5_0; break;
    case LGG_TYPE_Q5_1: ft = FT_Q5_1; break;
    case LGG_TYPE_Q8_0: ft = FT_Q8_0; break;
    case LGG_TYPE_Q2_K: ft = FT_Q2_K; break;
    case LGG_TYPE_Q3_K: ft = FT_Q3_K_M; break;
    case LGG_TYPE_Q4_K: ft = FT_Q4_K_M; break;
    case LGG_TYPE_Q5_K: ft = FT_Q5_K_M; break;
    case LGG_TYPE_Q6_K: ft = FT_Q6_K; break;
    case LGG_TYPE_TQ1_0: ft = FT_TQ1_0; break;
    case LGG_TYPE_TQ2_0: ft = FT_TQ2_0; break;
    case LGG_TYPE_NVFP4: ft = FT_NVFP4; break;
    case LGG_TYPE_Q1_0: ft = FT_Q1_0; break;
    case LGG_TYPE_Q2_0: ft = FT_Q2_0; break;
    case LGG_TYPE_IQ2_XXS: ft = FT_IQ2_XXS; break;
    case LGG_TYPE_IQ2_XS: ft = FT_IQ2_XS; break;
    case LGG_TYPE_IQ2_S: ft = FT_IQ2_S; break;
    case LGG_TYPE_IQ3_XXS: ft = FT_IQ3_XXS; break;
    case LGG_TYPE_IQ1_S: ft = FT_IQ1_S; break;
    case LGG_TYPE_IQ1_M: ft = FT_IQ1_M; break;
    case LGG_TYPE_IQ4_NL: ft = FT_IQ4_NL; break;
    case LGG_TYPE_IQ4_XS: ft = FT_IQ4_XS; break;
    case LGG_TYPE_IQ3_S: ft = FT_IQ3_S; break;
    default: ft = FT_ALL_F32; break;
    }
    return ft | FT_GUESSED;
}

void lgg_quant_plan_free(lgg_quant_plan *p) {
    if (!p) return;
    const lgg_allocator *a = p->a;
    if (p->names)
        for (size_t i = 0; i < p->n; i++) lgg__free(a, p->names[i]);
    lgg__free(a, p->names);
    lgg__free(a, p->items);
    lgg__free(a, p->files_copy);
    lgg_allocator ac = p->a_copy;
    lgg__free(a ? &ac : NULL, p);
}

size_t lgg_quant_plan_count(const lgg_quant_plan *p) { return p ? p->n : 0; }
const lgg_quant_item *lgg_quant_plan_at(const lgg_quant_plan *p, size_t i) {
    return p && i < p->n ? &p->items[i] : NULL;
}
uint32_t lgg_quant_plan_file_type(const lgg_quant_plan *p) { return p ? p->file_type : 0; }
size_t lgg_quant_plan_fallbacks(const lgg_quant_plan *p) { return p ? p->n_fallback : 0; }


bool lgg__plan_keep_split(const lgg_quant_plan *p) { return p->keep_split; }
const lgg_file *lgg__plan_file(const lgg_quant_plan *p, size_t i) { return i < p->n_files ? p->files[i] : NULL; }
size_t lgg__plan_n_files(const lgg_quant_plan *p) { return p->n_files; }
const lgg_imatrix *lgg__plan_imatrix(const lgg_quant_plan *p) { return p->imatrix; }
const char *lgg__plan_name(const lgg_quant_plan *p, size_t i) { return p->names[i]; }
bool lgg__plan_block_count(const lgg_quant_plan *p, uint32_t *n) {
    *n = p->block_count;
    return p->pruned;
}
const lgg_allocator *lgg__plan_allocator(const lgg_quant_plan *p) { return p->a; }

/* master's tensor_requires_imatrix (b4747: IQ2_* and IQ1_S even for the
 * embeddings and output, IQ3_XXS never) */
static bool very_low_bit_needs(const lgg_quant_options *o, uint32_t type, const char *name) {
    const int cat = category(name);
    if (cat == CAT_TOKEN_EMBD || cat == CAT_OUTPUT) return false;
    return type == LGG_TYPE_IQ3_XXS || type == LGG_TYPE_IQ2_XXS || type == LGG_TYPE_IQ2_XS || type == LGG_TYPE_IQ2_S ||
           type == LGG_TYPE_IQ1_M || type == LGG_TYPE_IQ1_S || (type == LGG_TYPE_Q2_K && o->preset->ftype == FT_Q2_K_S);
}

/* The options, before anything is allocated: a preset, a finite imatrix,
 * valid override types. */
static lgg_status check_options(const lgg_file *const *files, size_t n_files, const lgg_quant_options *o,
                                const lgg_imatrix **im, lgg_error *err) {
    if (!files || n_files == 0 || !o || !o->preset)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "quantize: no input files or no preset");
    for (size_t i = 0; i < n_files; i++)
        if (!files[i]) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "quantize: input file %zu is NULL", i);
    *im = o->imatrix && lgg_imatrix_count(o->imatrix) > 0 ? o->imatrix : NULL;
    /* the imatrix a tensor needs: per tensor (check_conversion), as master (b4747: per preset) */
    if (o->output_tensor_type != NONE && (!lgg_type_is_valid(o->output_tensor_type) || !lgg_type_get(o->output_tensor_type)->block_size))
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "bad output tensor type %u", o->output_tensor_type);
    if (o->token_embedding_type != NONE && (!lgg_type_is_valid(o->token_embedding_type) || !lgg_type_get(o->token_embedding_type)->block_size))
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "bad token embedding type %u", o->token_embedding_type);
    for (size_t i = 0; *im && i < lgg_imatrix_count(*im); i++) {
        const float *v;
        uint64_t n;
        lgg_imatrix_entry(*im, i, &v, &n);
        for (uint64_t j = 0; j < n; j++)
            if (!isfinite(v[j]))
                return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "imatrix contains non-finite value %f", (double)v[j]);
    }
    return LGG_OK;
}

/* What building a plan holds until it is done. */
typedef struct build {
    lgg_quant_plan *p;
    const lgg_allocator *a;
    const lgg_quant_options *o;
    src_tensor *s;     /* the tensors of every file, in output order */
    size_t total, n;
    regex_t *re;       /* --tensor-type patterns */
    size_t n_re;
} build;

/* --tensor-type: each pattern compiled, each type checked. */
static lgg_status compile_rules(build *b, const lgg_quant_options *o, lgg_error *err) {
    for (; b->n_re < o->n_tensor_types; b->n_re++) {
        const char *pat = o->tensor_types[b->n_re].pattern;
        if (!pat || regcomp(&b->re[b->n_re], pat, REG_EXTENDED | REG_NOSUB) != 0)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "bad regular expression '%s'", pat ? pat : "(null)");
        uint32_t ty = o->tensor_types[b->n_re].type;
        if (!lgg_type_is_valid(ty) || !lgg_type_get(ty)->block_size) {
            regfree(&b->re[b->n_re]);
            return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "bad type %u for '%s'", ty, pat);
        }
    }
    return LGG_OK;
}

/* The first "blk.<digits>." in name (std::regex_search of blk\.(\d+)\.):
 * the digits' offset and length, or false. */
static bool find_block(const char *name, size_t *at, size_t *len) {
    for (const char *p = strstr(name, "blk."); p; p = strstr(p + 1, "blk.")) {
        size_t k = 0;
        while (p[4 + k] >= '0' && p[4 + k] <= '9') k++;
        if (k && p[4 + k] == '.') {
            *at = (size_t)(p + 4 - name);
            *len = k;
            return true;
        }
    }
    return false;
}

static bool pruned_layer(const lgg_quant_options *o, long blk) {
    for (size_t i = 0; i < o->n_prune_layers; i++)
        if (o->prune_layers[i] == blk) return true;
    return false;
}

/* --prune-layers, as master's remap_layer in tensor order: a pruned layer's
 * tensors are dropped; a layer below the first pruned keeps its number; the
 * others take the next number in order of first appearance. */
static lgg_status prune_layers(build *b, lgg_error *err) {
    const lgg_quant_options *o = b->o;
    if (!o->prune_layers || !o->n_prune_layers) return LGG_OK;
    enum { MAXL = 4096 };
    long *from = lgg__calloc(b->a, MAXL, sizeof *from), *to = lgg__calloc(b->a, MAXL, sizeof *to);
    size_t n_map = 0, k = 0, i = 0;
    long next = 0;
    lgg_status st = from && to ? LGG_OK : lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    for (; i < b->n && st == LGG_OK; i++) {
        src_tensor s = b->s[i];
        b->s[i].name = NULL;
        size_t at, len, m;
        if (find_block(s.name, &at, &len)) {
            const long blk = len > 9 ? LONG_MAX : strtol(s.name + at, NULL, 10);
            for (m = 0; m < n_map && from[m] != blk; m++) {
            }
            if (m == n_map && n_map == MAXL) {
                st = lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "--prune-layers: more than %d layers", MAXL);
            } else if (m == n_map) {
                from[m] = blk;
                to[m] = pruned_layer(o, blk) ? -1 : blk < o->prune_layers[0] ? blk : next;
                next = to[m] >= 0 ? to[m] + 1 : next;
                n_map++;
            }
            if (st == LGG_OK && to[m] < 0) {
                lgg__free(b->a, s.name);
                continue;
            }
            char num[24];
            const int nn = snprintf(num, sizeof num, "%ld", st == LGG_OK ? to[m] : 0L);
            const size_t l = strlen(s.name), nl = l - len + (size_t)nn;
            char *r = st == LGG_OK ? lgg__alloc(b->a, nl + 1) : NULL;
            if (r) {
                memcpy(r, s.name, at);
                memcpy(r + at, num, (size_t)nn);
                memcpy(r + at + nn, s.name + at + len, l - at - len + 1);
                lgg__free(b->a, s.name);
                s.name = r;
                if (!parse_layer(r, &s.layer)) s.layer = -1;
            } else if (st == LGG_OK) {
                st = lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
            }
        }
        b->s[k++] = s;
    }
    for (; i < b->n; i++) { /* after an error: kept, for the caller to free */
        b->s[k++] = b->s[i];
        if (k - 1 != i) b->s[i].name = NULL;
    }
    b->n = k;
    b->p->pruned = st == LGG_OK;
    b->p->block_count = (uint32_t)next;
    lgg__free(b->a, from);
    lgg__free(b->a, to);
    return st;
}

/* Every tensor of every file with its name and layer, in llama-quantize's
 * order. */
static lgg_status gather_sources(build *b, const lgg_file *const *files, size_t n_files, bool keep_split,
                                 lgg_error *err) {
    for (size_t fi = 0; fi < n_files; fi++) {
        for (uint64_t ti = 0; ti < lgg_tensor_count(files[fi]); ti++) {
            const lgg_tensor *t = lgg_tensor_at(files[fi], ti);
            if (!t->type_known)
                return lgg__fail(err, LGG_ERR_UNSUPPORTED, t->info_offset, "tensor %" PRIu64 " has an unknown type %u",
                                 ti, t->type);
            size_t nl = strnlen(t->name.ptr ? t->name.ptr : "", (size_t)t->name.len);
            char *nm = lgg__alloc(b->a, nl + 1);
            if (!nm) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
            if (nl) memcpy(nm, t->name.ptr, nl);
            nm[nl] = 0;
            src_tensor *s = &b->s[b->n++];
            *s = (src_tensor){(uint32_t)fi, ti, t, nm, -1};
            if (!parse_layer(nm, &s->layer)) s->layer = -1;
        }
    }
    qsort(b->s, b->n, sizeof *b->s, cmp_src);
    lgg_status st = prune_layers(b, err);
    if (st == LGG_OK && keep_split) qsort(b->s, b->n, sizeof *b->s, cmp_src_split);
    return st;
}

/* The model facts the per-tensor rules read: architecture, layers, heads,
 * experts, and how many attention value tensors there are. */
static void model_facts(qstate *q, const lgg_file *f0, const build *b, const lgg_quant_options *o, bool has_im) {
    lgg_value av;
    lgg_str arch = {"", 0};
    if (lgg_get(f0, "general.architecture", &av) == LGG_OK) lgg_value_string(&av, &arch);
    char archz[128];
    snprintf(archz, sizeof archz, "%.*s", (int)(arch.len < 120 ? arch.len : 120), arch.ptr ? arch.ptr : "");
    memset(q, 0, sizeof *q);
    q->o = o;
    q->ftype = o->preset->ftype;
    q->falcon = !strcmp(archz, "falcon");
    q->bailingmoe3 = !strcmp(archz, "bailingmoe3");
    q->has_imatrix = has_im;
    uint32_t n_layer = 0, n_head = 0, n_head_kv = 0, n_expert = 0;
    get_u32(f0, archz, "block_count", &n_layer);
    get_u32(f0, archz, "attention.head_count", &n_head);
    if (!get_u32(f0, archz, "attention.head_count_kv", &n_head_kv)) n_head_kv = n_head;
    get_u32(f0, archz, "expert_count", &n_expert);
    q->n_layer = n_layer > INT_MAX ? INT_MAX : (int)n_layer;
    q->n_expert = n_expert;
    q->n_gqa = n_head_kv ? n_head / n_head_kv : 0;
    q->is_70b = !strcmp(archz, "llama") && n_layer == 80 && n_head != n_head_kv;
    for (size_t i = 0; i < b->n; i++) {
        const char *nm = b->s[i].name;
        if (has(nm, "attn_v.weight") || has(nm, "attn_qkv.weight") || has(nm, "attn_kv_b.weight")) q->n_attention_wv++;
        else if (!strcmp(nm, "output.weight")) q->has_output = true;
    }
}

/* The type a quantized tensor gets, as master's llama_tensor_get_type: the
 * token-embedding and output overrides as they are; else the first
 * --tensor-type pattern that matches (b4747-era: the last, after the rules),
 * or without one the per-tensor rules (unless --pure); then the fallback for
 * rows the type's block does not divide (master: --pure and the patterns'
 * types too). */
static lgg_status target_type(build *b, qstate *q, lgg_quant_item *it, const char *nm, uint32_t *nt,
                              lgg_error *err) {
    const lgg_quant_options *o = q->o;
    const int cat = category(nm);
    if (o->token_embedding_type < NONE && cat == CAT_TOKEN_EMBD) {
        *nt = o->token_embedding_type;
        return LGG_OK;
    }
    if (o->output_tensor_type < NONE && cat == CAT_OUTPUT) {
        *nt = o->output_tensor_type;
        return LGG_OK;
    }
    *nt = o->preset->type;
    if (!lgg_type_get(o->preset->type)->quantized) return LGG_OK;
    bool manual = false;
    for (size_t r = 0; r < b->n_re && !manual; r++)
        if (regexec(&b->re[r], nm, 0, NULL, 0) == 0) {
            *nt = o->tensor_types[r].type;
            manual = true;
        }
    bool fb = false;
    lgg_status st = rules_type(q, it->t, nm, nt, !manual && !o->pure, &fb, err);
    if (st != LGG_OK) return st;
    if (fb) {
        it->fallback = true;
        b->p->n_fallback++;
    }
    return LGG_OK;
}

/* A tensor to convert: its imatrix row, and what would stop the conversion. */
static lgg_status check_conversion(const build *b, const lgg_quant_options *o, lgg_quant_item *it, const char *nm,
                                   uint32_t nt, lgg_error *err) {
    const lgg_tensor *t = it->t;
    if (b->p->imatrix) {
        uint64_t cnt;
        /* by the input's name (master's remap_imatrix undoes --prune-layers' renumbering) */
        const size_t on = strnlen(t->name.ptr ? t->name.ptr : "", (size_t)t->name.len);
        const float *v = lgg_imatrix_find(b->p->imatrix, on ? t->name.ptr : "", on, &cnt);
        const uint64_t want = (uint64_t)t->ne[0] * (uint64_t)t->ne[2];
        if (v && cnt == want) it->imatrix = v;
        else if (v && strcmp(nm, "token_embd.weight") != 0)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                             "imatrix size %" PRIu64 " is different from tensor size %" PRIu64 " for %s", cnt, want, nm);
    }
    if (very_low_bit_needs(o, nt, nm) && !it->imatrix) {
        if (!b->p->imatrix)
            return lgg__fail(err, LGG_ERR_NEEDS_IMATRIX, LGG_NO_OFFSET,
                             "this quantization requires an imatrix! (offending tensor: %s, target type: %s)", nm,
                             lgg_type_name(nt));
        return lgg__fail(err, LGG_ERR_NEEDS_IMATRIX, LGG_NO_OFFSET,
                         "Missing importance matrix for tensor %s in a very low-bit quantization", nm);
    }
    const lgg_type_info *si = lgg_type_get(t->type);
    if (si->quantized && !o->allow_requantize)
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "requantizing from type %s is disabled", si->name);
    if (!si->quantized && t->type != LGG_TYPE_F32 && t->type != LGG_TYPE_F16 && t->type != LGG_TYPE_BF16)
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "cannot dequantize/convert tensor type %s", si->name);
    if (!lgg_type_can_quantize(nt))
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "%s: cannot quantize to %s", nm, lgg_type_name(nt));
    if (t->ne[0] % blck(nt) != 0)
        return lgg__fail(err, LGG_ERR_TENSOR_BLOCK, LGG_NO_OFFSET,
                         "%s: %" PRId64 " columns are not a multiple of %s's block of %u", nm, t->ne[0],
                         lgg_type_name(nt), blck(nt));
    /* a description (lgg_writer_describe) has no data: its caller supplies it */
    if ((!t->data_available || !t->data) && !b->p->files[it->file]->described)
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "%s: data not available", nm);
    return LGG_OK;
}

/* Plan item i from source tensor i: its type, whether it is converted, its
 * imatrix row and size. */
static lgg_status plan_item(build *b, qstate *q, size_t i, lgg_error *err) {
    const lgg_quant_options *o = q->o;
    src_tensor *s = &b->s[i];
    const lgg_tensor *t = s->t;
    const char *nm = s->name;
    lgg_quant_item *it = &b->p->items[i];
    b->p->names[i] = s->name;
    s->name = NULL;
    b->p->n = i + 1;
    it->file = s->file;
    it->tensor = s->index;
    it->t = t;
    it->name = (lgg_str){nm, strlen(nm)};
    it->type = t->type;
    bool quantize = o->preset->type != NONE && allows_quantization(o, t, nm);
    uint32_t nt = t->type;
    lgg_status st;
    if (quantize) {
        if ((st = target_type(b, q, it, nm, &nt, err)) != LGG_OK) return st;
        quantize = t->type != nt;
    }
    it->type = nt;
    it->convert = quantize;
    if (quantize && (st = check_conversion(b, o, it, nm, nt, err)) != LGG_OK) return st;
    if (lgg_type_nbytes(nt, t->n_elements, &it->size) != LGG_OK)
        return lgg__fail(err, LGG_ERR_TENSOR_DIMS, LGG_NO_OFFSET, "%s: size overflows", nm);
    return LGG_OK;
}

/* The plan and its work arrays, sized for every tensor of every file. */
static lgg_status build_alloc(build *b, const lgg_file *const *files, size_t n_files, const lgg_quant_options *o,
                              const lgg_imatrix *im, lgg_error *err) {
    const lgg_allocator *a = o->allocator;
    lgg_quant_plan *p = b->p = lgg__calloc(a, 1, sizeof *p);
    if (!p) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    if (a) {
        p->a_copy = *a;
        p->a = &p->a_copy;
    }
    b->a = a = p->a;
    b->o = o;
    p->imatrix = im;
    p->n_files = n_files;
    p->keep_split = o->keep_split;
    p->files_copy = lgg__calloc(a, n_files, sizeof *p->files_copy);
    for (size_t i = 0; i < n_files; i++) b->total += (size_t)lgg_tensor_count(files[i]);
    const size_t k = b->total ? b->total : 1;
    b->s = lgg__calloc(a, k, sizeof *b->s);
    p->items = lgg__calloc(a, k, sizeof *p->items);
    p->names = lgg__calloc(a, k, sizeof *p->names);
    b->re = o->n_tensor_types ? lgg__calloc(a, o->n_tensor_types, sizeof *b->re) : NULL;
    if (!p->files_copy || !b->s || !p->items || !p->names || (o->n_tensor_types && !b->re))
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < n_files; i++) p->files_copy[i] = files[i];
    p->files = p->files_copy;
    return LGG_OK;
}

lgg_status lgg_quant_plan_create(const lgg_file *const *files, size_t n_files, const lgg_quant_options *o,
                                 lgg_quant_plan **out, lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL plan pointer");
    *out = NULL;
    LGG__OPTIONS_IN(lgg_quant_options, o, err)
    const lgg_imatrix *im = NULL;
    lgg_status st = check_options(files, n_files, o, &im, err);
    if (st != LGG_OK) return st;
    build b;
    memset(&b, 0, sizeof b);
    qstate q;
    if ((st = build_alloc(&b, files, n_files, o, im, err)) == LGG_OK &&
        (st = compile_rules(&b, o, err)) == LGG_OK && (st = gather_sources(&b, files, n_files, o->keep_split, err)) == LGG_OK) {
        model_facts(&q, files[0], &b, o, im != NULL);
        b.p->file_type = o->preset->type == NONE ? guess_file_type(files[0], b.s, b.n) : o->preset->ftype;
        for (size_t i = 0; i < b.n && st == LGG_OK; i++) st = plan_item(&b, &q, i, err);
    }
    for (size_t r = 0; r < b.n_re; r++) regfree(&b.re[r]);
    lgg__free(b.a, b.re);
    if (b.s)
        for (size_t i = 0; i < b.total; i++) lgg__free(b.a, b.s[i].name);
    lgg__free(b.a, b.s);
    if (st != LGG_OK) {
        lgg_quant_plan_free(b.p);
        return st;
    }
    *out = b.p;
    return LGG_OK;
}
