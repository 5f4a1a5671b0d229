/* nvfp4.c -- NVFP4 checkpoints: NVIDIA ModelOpt's (quant_algo "NVFP4" or
 * "W4A16_NVFP4" in config.json's quantization_config, in its
 * quantized_layers, or in hf_quant_config.json) and compressed-tensors'
 * ("nvfp4-pack-quantized").  Written as llama.cpp master's converter writes
 * them, before every other tensor and without requantizing:
 *
 *  - each matrix NAME.weight (U8, out x in/2: value 2k in the low nibble of
 *    byte k) with its NAME.weight_scale (F8_E4M3, out x in/16) becomes a
 *    GGML NVFP4 tensor: per 64 values the 4 scale bytes with the sign bit
 *    cleared, then per 16 values 8 bytes whose low nibble is value j and
 *    high nibble value j + 8;
 *  - then NAME.scale (its weight_scale_2) and NAME.input_scale (its
 *    input_scale), F32 and flattened, each unless it is one value within
 *    1e-6 of 1;
 *  - an expert's matrices (layers.B.*.experts.E.{gate,up,down}_proj) are
 *    stacked per block and projection once all num_local_experts (or
 *    num_experts) of them are read, in expert order, with one scale per
 *    expert in .scale and .input_scale, unless all are close to 1 (numpy's
 *    allclose: within 1e-6 + 1e-5);
 *  - compressed-tensors names weight_packed, weight_global_scale and
 *    input_global_scale; its global scales are the reciprocals of ModelOpt's.
 *
 * The GGUF names are the family's table's for NAME.weight; master writes
 * these tensors as they are, without the family's transforms (no q/k
 * permutation), and so do both targets.  general.file_type is MOSTLY_NVFP4
 * for f32, f16 and bf16 (outtypes.c).  The k_scale and v_scale tensors are
 * dropped. */
#include "cvint.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { NV_SUB = 16, NV_SUPER = 64, NV_BYTES = 36 }; /* values per scale, per GGML block; block bytes */

static const char *str_at(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

/* compressed-tensors' NVFP4: format nvfp4-pack-quantized, or mixed-precision with every group's format that */
static int ct_nvfp4(const char *method, const char *format, const json_t *groups) {
    if (!method || strcmp(method, "compressed-tensors") || !format) return 0;
    if (!strcmp(format, "nvfp4-pack-quantized")) return 1;
    if (strcmp(format, "mixed-precision") || !json_is_object(groups) || !json_object_size(groups)) return 0;
    const char *k;
    json_t *g;
    json_object_foreach((json_t *)groups, k, g) {
        const char *f = str_at(g, "format");
        if (json_is_object(g) && (!f || strcmp(f, "nvfp4-pack-quantized"))) return 0;
    }
    return 1;
}

/* a quantized_layers entry whose quant_algo ends in NVFP4 */
static int layers_nvfp4(const json_t *layers) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)layers, k, v) {
        const char *a = str_at(v, "quant_algo");
        size_t n = a ? strlen(a) : 0;
        if (n >= 5 && !strcmp(a + n - 5, "NVFP4")) return 1;
    }
    return 0;
}

lgg_status lgg__cv_nvfp4_init(lgg_convert *c, lgg_error *err) {
    const json_t *q = json_object_get(c->config, "quantization_config");
    const char *algo = str_at(q, "quant_algo"), *method = str_at(q, "quant_method"), *format = str_at(q, "format");
    const json_t *groups = json_object_get(q, "config_groups"), *layers = json_object_get(q, "quantized_layers");
    json_t *hq = NULL;
    char prod[64];
    if (!algo || !json_object_size(layers)) { /* master reads hf_quant_config.json then */
        lgg_status st = lgg__cv_json(c, "hf_quant_config.json", 0, &hq, err);
        if (st) return st;
        const json_t *qc = json_object_get(hq, "quantization");
        const char *producer = str_at(json_object_get(hq, "producer"), "name");
        if (!method && producer) { /* master takes the producer's name, lower-cased */
            snprintf(prod, sizeof prod, "%s", producer);
            for (char *k = prod; *k; k++) *k = (char)tolower((unsigned char)*k);
            method = prod;
        }
        if (str_at(qc, "quant_algo")) algo = str_at(qc, "quant_algo");
        if (str_at(qc, "quant_method")) method = str_at(qc, "quant_method");
        if (str_at(qc, "format")) format = str_at(qc, "format");
        if (json_object_get(qc, "config_groups")) groups = json_object_get(qc, "config_groups");
        if (json_object_get(qc, "quantized_layers")) layers = json_object_get(qc, "quantized_layers");
    }
    int ct = ct_nvfp4(method, format, groups);
    int nv = (algo && (!strcmp(algo, "NVFP4") || !strcmp(algo, "W4A16_NVFP4"))) || ct || (json_is_object(layers) && layers_nvfp4(layers));
    int modelopt = method && !strcmp(method, "modelopt");
    char a[64];
    snprintf(a, sizeof a, "%s", algo ? algo : "(none)");
    json_decref(hq);
    if (!nv && modelopt)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: a ModelOpt checkpoint with quant_algo %s: this converter "
                            "reads ModelOpt's NVFP4 checkpoints only (docs/convert.md)", c->dir, a);
    c->nvfp4 = nv, c->nvfp4_ct = ct;
    return LGG_OK;
}

/* ---- names ---- */

/* The tensor `name` in any shard, or NULL. */
static const lgg_st_tensor *find(const lgg_convert *c, const char *name, uint32_t *shard) {
    uint32_t s0;
    return lgg__cv_find_tensor(c, name, shard ? shard : &s0);
}

/* base + suffix into out (1 when it fits) */
static int join(char *out, size_t cap, const char *base, size_t n, const char *suffix) {
    return (size_t)snprintf(out, cap, "%.*s%s", (int)n, base, suffix) < cap;
}

/* NAME's NVFP4 block scales (2-D or more) when NAME (n bytes) is an NVFP4 matrix's stem */
static const lgg_st_tensor *block_scales(const lgg_convert *c, const char *stem, size_t n, uint32_t *shard) {
    char s[512];
    const lgg_st_tensor *t = join(s, sizeof s, stem, n, ".weight_scale") ? find(c, s, shard) : NULL;
    return t && t->n_dims >= 2 ? t : NULL;
}

/* The suffixes of an NVFP4 matrix's tensors, ModelOpt's then compressed-tensors'. */
static const char *const MO_SUFFIX[] = {".weight", ".weight_scale", ".weight_scale_2", ".input_scale"};
static const char *const CT_SUFFIX[] = {".weight_packed", ".weight_scale", ".weight_global_scale", ".input_global_scale"};

int lgg__cv_nvfp4_skipped(const lgg_convert *c, const char *name) {
    if (!c->nvfp4) return 0;
    if (lgg__cv_ends_with(name, ".k_scale") || lgg__cv_ends_with(name, ".v_scale")) return 1;
    const char *const *sfx = c->nvfp4_ct ? CT_SUFFIX : MO_SUFFIX;
    for (int k = 0; k < 4; k++)
        if (lgg__cv_ends_with(name, sfx[k]) && block_scales(c, name, strlen(name) - strlen(sfx[k]), NULL)) return 1;
    return 0;
}

/* ---- the NVFP4 bytes ---- */

/* One GGML NVFP4 block from 32 checkpoint bytes and 4 scales. */
static void repack_block(const uint8_t *w, const uint8_t *s, uint8_t *out) {
    for (int k = 0; k < 4; k++) out[k] = s[k] & 0x7F; /* E4M3 as UE4M3 */
    for (int k = 0; k < 4; k++) {
        const uint8_t *q = w + 8 * k; /* 16 values, 2 per byte, low nibble first */
        for (int j = 0; j < 8; j++) {
            uint8_t lo = (uint8_t)(q[j >> 1] >> ((j & 1) * 4) & 15), hi = (uint8_t)(q[4 + (j >> 1)] >> ((j & 1) * 4) & 15);
            out[4 + 8 * k + j] = (uint8_t)(lo | hi << 4);
        }
    }
}

/* Output row u (ob bytes at out) from its checkpoint row; requantized when a
 * quantize plan gives t another type. */
static lgg_status store_row(const cv_tensor *t, uint64_t u, const uint8_t *w, const uint8_t *s, uint8_t *nv, float *x,
                            uint8_t *out) {
    uint64_t nb = t->unit / NV_SUPER;
    for (uint64_t b = 0; b < nb; b++) repack_block(w + b * 32, s + b * 4, nv + b * NV_BYTES);
    if (!t->qtype || t->qtype == LGG_TYPE_NVFP4) return LGG_OK;
    if (lgg_dequantize(LGG_TYPE_NVFP4, nv, (size_t)nb * NV_BYTES, LGG_LITTLE_ENDIAN, x, (size_t)t->unit)) return LGG_ERR_INVALID;
    const float *im = t->imatrix ? t->imatrix + (u / (uint64_t)t->ne[1]) * t->unit : NULL;
    size_t written = 0;
    return lgg_quantize(t->qtype, x, out, (size_t)lgg__cv_out_bytes(t), 1, (int64_t)t->unit, im, &written);
}

/* t's raw hook: units [u0, u1), a row each, expert by expert (the sources
 * of expert e: stack[e] and its scales stack[n_stack + e]). */
static lgg_status nv_rows(lgg_convert *c, const cv_tensor *t, uint64_t u0, uint64_t u1, uint8_t *out, lgg_error *err) {
    uint64_t rows = (uint64_t)t->ne[1], wb = t->unit / 2, sb = t->unit / NV_SUB, ob = lgg__cv_out_bytes(t);
    int requant = t->qtype && t->qtype != LGG_TYPE_NVFP4;
    uint8_t *bw = NULL, *bs = NULL, *nv = requant ? malloc((size_t)(t->unit / NV_SUPER) * NV_BYTES) : NULL;
    float *x = requant ? malloc((size_t)t->unit * sizeof *x) : NULL;
    lgg_status st = requant && (!nv || !x) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", t->name) : LGG_OK;
    for (uint64_t a = u0, b; !st && a < u1; a = b) {
        uint64_t e = a / rows, r0 = a % rows;
        b = (e + 1) * rows < u1 ? (e + 1) * rows : u1;
        const cv_src *w = t->stack ? &t->stack[e] : NULL, *s = t->stack ? &t->stack[t->n_stack + e] : NULL;
        const uint8_t *pw = NULL, *ps = NULL;
        st = lgg__cv_span(c, w ? w->shard : t->shard, w ? w->t : t->src, r0 * wb, (b - a) * wb, &bw, &pw, err);
        if (!st) st = lgg__cv_span(c, s ? s->shard : t->shard2, s ? s->t : t->src2, r0 * sb, (b - a) * sb, &bs, &ps, err);
        for (uint64_t u = a; !st && u < b; u++) {
            uint8_t *o = out + (u - u0) * ob;
            st = store_row(t, u, pw + (u - a) * wb, ps + (u - a) * sb, requant ? nv : o, x, o);
            if (st) lgg__cv_fail(err, st, "%s: row %llu: requantizing NVFP4 to %s failed", t->name,
                                 (unsigned long long)u, lgg_type_name(t->qtype));
        }
    }
    free(bw), free(bs), free(nv), free(x);
    return st;
}

/* ---- planning ---- */

/* An NVFP4 matrix read from the checkpoint. */
typedef struct nv_mat {
    uint32_t ws, ss;                   /* shards of the weight and its block scales */
    const lgg_st_tensor *w, *s;
    const lgg_st_tensor *scale2, *input; /* per-tensor scales, or NULL (1) */
    uint32_t s2s, ins;
} nv_mat;

/* The checkpoint's shapes: weight U8 (out, nb * 8), scales F8_E4M3 (out, nb), nb a multiple of 4. */
static lgg_status check_mat(lgg_convert *c, const nv_mat *m, lgg_error *err) {
    const lgg_st_tensor *w = m->w, *s = m->s;
    if (w->dtype != LGG_TYPE_I8 || w->n_dims != 2 || s->dtype != LGG_ST_F8_E4M3 || s->n_dims != 2 ||
        w->shape[0] != s->shape[0] || !w->shape[0] || !s->shape[1] || s->shape[1] % 4 || w->shape[1] != s->shape[1] * 8)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/%s: tensor '%s': an NVFP4 matrix must be U8 (rows, 8 x blocks) with F8_E4M3 scales "
                            "(rows, blocks), the blocks a positive multiple of 4", c->dir, c->shard_names[m->ws], w->name.ptr);
    return LGG_OK;
}

/* The values of a per-tensor scale (F32, F16 or BF16) as float32; the
 * reciprocals for compressed-tensors' global scales.  *out owned. */
static lgg_status scale_values(lgg_convert *c, uint32_t sh, const lgg_st_tensor *t, int recip, float **out, uint64_t *n,
                               lgg_error *err) {
    uint64_t k = 1;
    for (uint32_t d = 0; d < t->n_dims; d++) k *= t->shape[d];
    size_t es = t->dtype == LGG_TYPE_F32 ? 4 : 2;
    if ((t->dtype != LGG_TYPE_F32 && t->dtype != LGG_TYPE_F16 && t->dtype != LGG_TYPE_BF16) || !k || k > (1u << 24) ||
        t->size != k * es)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': an NVFP4 scale must be F32, F16 or BF16 values",
                            c->dir, c->shard_names[sh], t->name.ptr);
    const uint8_t *p;
    void *owned;
    lgg_status st = lgg__cv_src_bytes(c, sh, t, &p, &owned, err);
    float *v = st ? NULL : malloc((size_t)k * sizeof *v);
    if (!st && !v) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) st = lgg_dequantize(t->dtype, p, (size_t)(k * es), LGG_LITTLE_ENDIAN, v, (size_t)k)
                      ? lgg__cv_fail(err, LGG_ERR_INVALID, "%s: bad scale", t->name.ptr) : LGG_OK;
    for (uint64_t i = 0; !st && recip && i < k; i++) v[i] = 1.0f / v[i];
    free(owned);
    if (st) return free(v), st;
    *out = v, *n = k;
    return LGG_OK;
}

/* NAME.scale or NAME.input_scale of a matrix (its GGUF name g, ".weight" replaced), unless trivial:
 * one value within 1e-6 of 1 (master's _scale_is_trivial). */
static lgg_status add_scale(lgg_convert *c, const char *g, const char *what, uint32_t sh, const lgg_st_tensor *t,
                            lgg_error *err) {
    if (!t) return LGG_OK;
    float *v;
    uint64_t n;
    lgg_status st = scale_values(c, sh, t, c->nvfp4_ct, &v, &n, err);
    if (st) return st;
    double d = (double)v[0] - 1.0;
    if (n == 1 && d < 1e-6 && d > -1e-6) return free(v), LGG_OK;
    char name[300];
    const char *dot = strstr(g, ".weight");
    snprintf(name, sizeof name, "%.*s%s%s", (int)(dot ? dot - g : (ptrdiff_t)strlen(g)), g, what,
             dot ? dot + strlen(".weight") : "");
    st = lgg__cv_add_generated(c, name, v, n, err);
    if (st) free(v);
    return st;
}

/* A new NVFP4 output named g of `experts` stacked matrices shaped as m's (0: one, 2-D). */
static lgg_status new_output(lgg_convert *c, const char *g, const nv_mat *m, uint32_t experts, lgg_error *err) {
    cv_tensor *t = lgg__cv_new_tensor(c, err);
    if (!t) return LGG_ERR_NOMEM;
    if (!(t->name = strdup(g))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    t->shard = m->ws, t->src = m->w, t->src_name = m->w->name.ptr, t->shard2 = m->ss, t->src2 = m->s, t->raw = nv_rows;
    t->type = LGG_TYPE_NVFP4, t->work = LGG_TYPE_F32;
    t->ne[0] = (int64_t)(m->s->shape[1] * NV_SUB), t->ne[1] = (int64_t)m->w->shape[0], t->ne[2] = experts ? experts : 1;
    t->ne[3] = 1, t->n_dims = experts ? 3 : 2;
    t->unit = (uint64_t)t->ne[0], t->n_units = (uint64_t)t->ne[1] * (uint64_t)t->ne[2];
    c->n_t++;
    return LGG_OK;
}

/* One matrix (not an expert's): the NVFP4 tensor, then its scales. */
static lgg_status add_single(lgg_convert *c, const char *hf, const nv_mat *m, lgg_error *err) {
    char g[300];
    unsigned xform = 0;
    long bid = -1, xid = -1;
    if (!lgg__cv_map_name(c->fam, hf, g, sizeof g, &xform, &bid, &xid) || (xform & CV_X_SKIP))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': no GGUF name for it in the %s table", c->dir,
                            c->shard_names[m->ws], m->w->name.ptr, c->fam->arch);
    lgg_status st = new_output(c, g, m, 0, err);
    if (!st) st = add_scale(c, g, ".scale", m->s2s, m->scale2, err);
    if (!st) st = add_scale(c, g, ".input_scale", m->ins, m->input, err);
    return st;
}

/* The experts of one block and projection, collected until all are read. */
typedef struct nv_group {
    unsigned long long bid;
    int proj;                          /* 0 gate, 1 up, 2 down */
    uint32_t n, want;                  /* experts read, experts expected */
    nv_mat *m;                         /* by expert number */
    char hf[300];                      /* the first one's name, for the GGUF name */
} nv_group;

static const char *const PROJ[] = {"gate_proj", "up_proj", "down_proj"};

/* Whether hf is layers.B....experts.E.PROJ.weight: its block, expert and projection. */
static int expert_of(const char *hf, unsigned long long *bid, unsigned long long *xid, int *proj) {
    const char *l = strstr(hf, ".layers."), *x = strstr(hf, ".experts.");
    if (!l || !x) return 0;
    char *end;
    *bid = strtoull(l + 8, &end, 10);
    if (end == l + 8 || *end != '.') return 0;
    *xid = strtoull(x + 9, &end, 10);
    if (end == x + 9 || *end != '.' || *xid > 65535) return 0;
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(PROJ[k]);
        if (!strncmp(end + 1, PROJ[k], n) && !strcmp(end + 1 + n, ".weight")) return *proj = k, 1;
    }
    return 0;
}

/* One expert scale per matrix (its only value), or NULL's 1; for .scale or .input_scale. */
static lgg_status expert_scales(lgg_convert *c, const nv_group *g, int input, float **out, lgg_error *err) {
    float *v = malloc(g->n * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    int trivial = 1;
    for (uint32_t e = 0; e < g->n; e++) {
        const lgg_st_tensor *t = input ? g->m[e].input : g->m[e].scale2;
        float *one = NULL;
        uint64_t n = 1;
        v[e] = 1.0f;
        lgg_status st = t ? scale_values(c, input ? g->m[e].ins : g->m[e].s2s, t, c->nvfp4_ct, &one, &n, err) : LGG_OK;
        if (!st && n != 1)
            st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': an expert's NVFP4 scale of %llu values is not "
                              "converted (one per expert)", c->dir, t->name.ptr, (unsigned long long)n);
        if (st) return free(one), free(v), st;
        if (one) v[e] = one[0], free(one);
        double d = (double)v[e] - 1.0;
        trivial &= d <= 1e-6 + 1e-5 && d >= -(1e-6 + 1e-5); /* numpy's allclose(scales, 1.0, atol=1e-6) */
    }
    if (trivial) free(v), v = NULL;
    *out = v;
    return LGG_OK;
}

/* The stacked tensor of a complete group, then its per-expert scales. */
static lgg_status flush(lgg_convert *c, nv_group *g, lgg_error *err) {
    for (uint32_t e = 0; e < g->want; e++)
        if (!g->m[e].w)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: block %llu's %s has no NVFP4 matrix of expert %u (of %u)",
                                c->dir, g->bid, PROJ[g->proj], e, g->want);
        else if (g->m[e].w->shape[0] != g->m[0].w->shape[0] || g->m[e].w->shape[1] != g->m[0].w->shape[1])
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': the experts of one block differ in shape",
                                c->dir, g->m[e].w->name.ptr);
    char gg[300];
    unsigned xform = 0;
    long bid = -1, xid = -1;
    const cv_tmap *row = lgg__cv_map_name(c->fam, g->hf, gg, sizeof gg, &xform, &bid, &xid);
    if (!row || !(xform & CV_X_EXPERT))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': no GGUF name for stacked experts in the %s table",
                            c->dir, g->hf, c->fam->arch);
    lgg__cv_stacked_name(gg, sizeof gg, row->gguf, g->bid);
    cv_src *v = malloc(2 * (size_t)g->n * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint32_t e = 0; e < g->n; e++)
        v[e] = (cv_src){g->m[e].ws, g->m[e].w, NULL}, v[g->n + e] = (cv_src){g->m[e].ss, g->m[e].s, NULL};
    lgg_status st = new_output(c, gg, &g->m[0], g->n, err);
    if (st) return free(v), st;
    cv_tensor *t = &c->t[c->n_t - 1];
    t->stack = v, t->n_stack = g->n;
    for (int k = 0; k < 2 && !st; k++) {
        float *s = NULL;
        st = expert_scales(c, g, k, &s, err);
        char name[300];
        snprintf(name, sizeof name, "%.*s%s", (int)(strlen(gg) - strlen(".weight")), gg, k ? ".input_scale" : ".scale");
        if (!st && s && (st = lgg__cv_add_generated(c, name, s, g->n, err))) free(s);
    }
    return st;
}

typedef struct nv_plan {
    nv_group *g;
    size_t n, cap;
    uint32_t n_experts;                /* num_local_experts or num_experts, 0: unknown */
} nv_plan;

/* An expert's matrix into its group; the group flushed once it has them all. */
static lgg_status add_expert(lgg_convert *c, nv_plan *p, const char *hf, const nv_mat *m, unsigned long long bid,
                             unsigned long long xid, int proj, lgg_error *err) {
    size_t i = 0;
    while (i < p->n && (p->g[i].bid != bid || p->g[i].proj != proj || !p->g[i].m)) i++;
    if (i == p->n) {
        if (!p->n_experts || xid >= p->n_experts)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': expert %llu of %u (config.json's "
                                "num_local_experts or num_experts)", c->dir, hf, xid, p->n_experts);
        nv_group *g = p->n == p->cap ? realloc(p->g, (p->cap = p->cap * 2 + 8) * sizeof *g) : p->g;
        if (!g) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        p->g = g;
        p->g[p->n] = (nv_group){bid, proj, 0, p->n_experts, calloc(p->n_experts, sizeof(nv_mat)), ""};
        if (!p->g[p->n++].m) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    nv_group *g = &p->g[i];
    if (xid >= p->n_experts || g->m[xid].w)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': expert %llu twice or beyond the %u experts", c->dir,
                            hf, xid, p->n_experts);
    if (!g->n) snprintf(g->hf, sizeof g->hf, "%s", hf);
    g->m[xid] = *m;
    if (++g->n < p->n_experts) return LGG_OK;
    lgg_status st = flush(c, g, err);
    free(g->m), g->m = NULL;
    return st;
}

/* The matrix whose weight is source tensor w (shard ws), named hf (ModelOpt's NAME.weight). */
static lgg_status add_matrix(lgg_convert *c, nv_plan *p, uint32_t ws, const lgg_st_tensor *w, const char *hf,
                             lgg_error *err) {
    size_t stem = strlen(hf) - strlen(".weight");
    nv_mat m = {ws, 0, w, NULL, NULL, NULL, 0, 0};
    if (!(m.s = block_scales(c, hf, stem, &m.ss))) return LGG_OK;
    char name[512];
    const char *const *sfx = c->nvfp4_ct ? CT_SUFFIX : MO_SUFFIX;
    if (join(name, sizeof name, hf, stem, sfx[2])) m.scale2 = find(c, name, &m.s2s);
    if (join(name, sizeof name, hf, stem, sfx[3])) m.input = find(c, name, &m.ins);
    lgg_status st = check_mat(c, &m, err);
    if (st) return st;
    unsigned long long bid, xid;
    int proj;
    if (expert_of(hf, &bid, &xid, &proj)) return add_expert(c, p, hf, &m, bid, xid, proj, err);
    return add_single(c, hf, &m, err);
}

/* Master's _generate_nvfp4_tensors: every NVFP4 matrix in the checkpoint's
 * order, before the other tensors; experts stacked as their groups fill,
 * the groups still short flushed at the end in the order they began. */
lgg_status lgg__cv_nvfp4_plan(lgg_convert *c, lgg_error *err) {
    if (!c->nvfp4) return LGG_OK;
    int64_t ne = lgg__cv_hparam_int(c, "num_local_experts", 0);
    if (ne <= 0) ne = lgg__cv_hparam_int(c, "num_experts", 0);
    nv_plan p = {NULL, 0, 0, ne > 0 && ne <= 65536 ? (uint32_t)ne : 0};
    lgg_status st = LGG_OK;
    const char *wsfx = c->nvfp4_ct ? ".weight_packed" : ".weight";
    for (uint32_t s = 0; !st && s < c->n_shards; s++)
        for (size_t i = 0; !st && i < lgg_st_count(c->shards[s]); i++) {
            const lgg_st_tensor *t = lgg_st_at(c->shards[s], i);
            const char *name = t->name.ptr;
            char hf[512];
            if (lgg__cv_ends_with(name, ".weight_scale") && t->n_dims < 2)
                st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': an FP8 matrix in an NVFP4 checkpoint "
                                  "(mixed precision) is not converted yet", c->dir, name);
            else if (lgg__cv_ends_with(name, wsfx) &&
                     join(hf, sizeof hf, name, strlen(name) - strlen(wsfx), ".weight"))
                st = add_matrix(c, &p, s, t, hf, err);
        }
    for (size_t i = 0; !st && i < p.n; i++) /* groups short of experts */
        if (p.g[i].m) st = flush(c, &p.g[i], err);
    for (size_t i = 0; i < p.n; i++) free(p.g[i].m);
    free(p.g);
    return st;
}
