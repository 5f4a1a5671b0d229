/* qwen3next.c -- Qwen3-Next (llama.cpp master's Qwen3NextModel, only master
 * converts it): gated delta-net linear attention in three blocks of four, gated
 * full attention in the fourth, a MoE with a shared expert in every block, and
 * the multi-token-prediction block master writes by default (its mtp.* names
 * read as blocks past num_hidden_layers, counted from the checkpoint when
 * config.json has no mtp_num_hidden_layers; --no-mtp leaves it out, --mtp
 * keeps it with the embeddings, output norm and head).  What master does by name:
 * A_log becomes -exp(A_log), dt_bias is dt_proj.bias, the conv1d kernel
 * loses its dimension of 1, every norm but the linear attention's gets + 1
 * (the family's CV_F_NORM_ADD1), and in_proj_qkvz, grouped per key head as
 * q, k, v, z, becomes attn_qkv (all q, all k, all v) and attn_gate (all z).
 * Qwen3.5 and Qwen3.5-MoE (Qwen3_5TextModel, Qwen3_5MoeTextModel): the same
 * with separate in_proj_qkv, in_proj_z, in_proj_b, in_proj_a, the value
 * heads tiled (r, k) instead of grouped by key head, M-RoPE sections. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A count of config.json (absent or not a count: -1). */
static int64_t count(const lgg_convert *c, const char *key) {
    const json_t *v = json_object_get(c->config, key);
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 30) ? json_integer_value(v) : -1;
}

static lgg_status put(lgg_convert *c, const char *key, int64_t v, lgg_error *err) {
    json_t *j = json_integer(v);
    return !j || json_object_set_new(c->config, key, j) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* The linear attention's sizes checked; lgg.* for QWEN3NEXT_META: the inner
 * size, the full-attention interval (4 when absent), the partial rotary
 * dimension (factor 0.25 when none), the main blocks. */
static lgg_status qwen3next_init(lgg_convert *c, lgg_error *err) {
    static const char *const NEED[] = {"num_hidden_layers", "linear_key_head_dim", "linear_value_head_dim", "linear_num_key_heads",
                                       "linear_num_value_heads", "linear_conv_kernel_dim"};
    for (size_t i = 0; i < sizeof NEED / sizeof NEED[0]; i++)
        if (count(c, NEED[i]) < 0 || (i > 0 && count(c, NEED[i]) == 0))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, NEED[i]);
    int64_t nk = count(c, "linear_num_key_heads"), nv = count(c, "linear_num_value_heads");
    if (nv % nk)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: linear_num_value_heads is not a multiple of linear_num_key_heads",
                            c->dir);
    const json_t *fi = json_object_get(c->config, "full_attention_interval");
    if (fi && count(c, "full_attention_interval") < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'full_attention_interval' is not a count", c->dir);
    lgg_status st = put(c, "lgg.inner", count(c, "linear_value_head_dim") * nv, err);
    if (!st) st = put(c, "lgg.interval", fi ? count(c, "full_attention_interval") : 4, err);
    if (!st) st = put(c, "lgg.main_layers", count(c, "num_hidden_layers"), err);
    c->mtp_main = (uint64_t)count(c, "num_hidden_layers");
    return st ? st : lgg__cv_partial_rope_dim(c, 0.25, err);
}

/* "mtp.layers.J.REST" (a J past the checkpoint's digits: -1) and the
 * block's own tensors; "model.mtp." as "mtp.", and the bare "mtp." unless
 * `model_only`. */
static const char *mtp_rest(const char *hf, int model_only, long *j) {
    if (!strncmp(hf, "model.mtp.", 10)) hf += 6;
    else if (model_only) return NULL;
    if (strncmp(hf, "mtp.", 4)) return NULL;
    *j = -1;
    if (!strncmp(hf + 4, "layers.", 7) && hf[11] >= '0' && hf[11] <= '9') {
        char *end;
        unsigned long v = strtoul(hf + 11, &end, 10);
        *j = *end == '.' && v < (1ul << 20) ? (long)v : -2;
        return *end == '.' ? end + 1 : hf;
    }
    return hf + 4;
}

/* MiniCPM-V 4.6's own filter drops every name starting "mtp" before the mixin's renames: only its
 * model.mtp.* are read as MTP blocks. */
extern const cv_hooks lgg__cv_hooks_minicpmv46;
static int minicpmv46(const lgg_convert *c) { return c->fam->hooks == &lgg__cv_hooks_minicpmv46; }

const char *lgg__cv_qwen_mtp_name(const lgg_convert *c, const char *hf, char *out, size_t cap) {
    long j;
    const char *rest = mtp_rest(hf, minicpmv46(c), &j);
    int64_t main = count(c, "lgg.main_layers");
    if (!rest || j == -2 || main < 0) return hf;
    static const char *const MAP[][2] = {
        {"fc.", "eh_proj."}, {"pre_fc_norm_embedding.", "enorm."}, {"pre_fc_norm_hidden.", "hnorm."}, {"norm.", "shared_head.norm."}};
    if (j >= 0) {
        int n = snprintf(out, cap, "model.layers.%lld.%s", (long long)(main + j), rest);
        return n > 0 && (size_t)n < cap ? out : hf;
    }
    for (size_t k = 0; k < 4; k++)
        if (!strncmp(rest, MAP[k][0], strlen(MAP[k][0])) && !strchr(rest + strlen(MAP[k][0]), '.')) {
            int n = snprintf(out, cap, "model.layers.%lld.%s%s", (long long)main, MAP[k][1], rest + strlen(MAP[k][0]));
            return n > 0 && (size_t)n < cap ? out : hf;
        }
    return hf;
}

/* Before the tensors: the MTP blocks counted (mtp_num_hidden_layers, else
 * the checkpoint's mtp.layers.J, J + 1 of them) into the block count and
 * lgg.nextn; master stops on a checkpoint with none.  --no-mtp: none. */
static lgg_status qwen3next_generated(lgg_convert *c, lgg_error *err) {
    if (c->mtp == LGG_CONVERT_MTP_NONE) return LGG_OK;
    int64_t n = count(c, "mtp_num_hidden_layers"), main = count(c, "lgg.main_layers");
    int counted = n <= 0;
    for (uint32_t s = 0; counted && s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            long j;
            if (mtp_rest(lgg_st_at(c->shards[s], i)->name.ptr, minicpmv46(c), &j) && j >= 0 && j + 1 > n) n = j + 1;
        }
    if (n <= 0)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: no MTP layers (config.json's mtp_num_hidden_layers, or %smtp.layers.N "
                            "tensors): llama.cpp master stops on it unless --no-mtp", c->dir, minicpmv46(c) ? "model." : "");
    lgg_status st = put(c, "num_hidden_layers", main + n, err);
    if (!st) st = put(c, "lgg.nextn", n, err);
    if (!st) c->block_count = (uint64_t)(main + n);
    return st;
}

/* dt_bias is read as dt_proj.bias. */
static int qwen3next_name(const char *hf, char *out, size_t cap) {
    size_t l = strlen(hf);
    if (l >= 8 && !strcmp(hf + l - 8, ".dt_bias"))
        return (size_t)snprintf(out, cap, "%.*s.dt_proj.bias", (int)(l - 8), hf) < cap;
    return (size_t)snprintf(out, cap, "%s", hf) < cap;
}

/* attn_qkv's row u (row_arg: key head dim, value rows per key head, key heads)
 * and attn_gate's (the z rows), in in_proj_qkvz's [q k v z] per key head. */
static uint64_t qkv_row(const cv_tensor *t, uint64_t u) {
    uint64_t kd = t->row_arg[0], vg = t->row_arg[1], nk = t->row_arg[2], g = 2 * kd + 2 * vg;
    if (u < 2 * nk * kd) return u / kd % nk * g + (u >= nk * kd ? kd : 0) + u % kd;
    u -= 2 * nk * kd;
    return u / vg * g + 2 * kd + u % vg;
}

static uint64_t z_row(const cv_tensor *t, uint64_t u) {
    uint64_t kd = t->row_arg[0], vg = t->row_arg[1];
    return u / vg * (2 * kd + 2 * vg) + 2 * kd + vg + u % vg;
}

static int ends(const char *s, const char *tail) { return lgg__cv_ends_with(s, tail); }

/* in_proj_qkvz split into attn_qkv and attn_gate (written after it). */
static lgg_status split_qkvz(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int64_t kd = count(c, "linear_key_head_dim"), vd = count(c, "linear_value_head_dim"), nk = count(c, "linear_num_key_heads");
    int64_t vg = count(c, "linear_num_value_heads") / nk * vd, rows = nk * (2 * kd + 2 * vg);
    if (t->n_dims != 2 || t->ne[1] != rows)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not linear_num_key_heads x (2 x linear_key_head_dim + 2 x the "
                            "value rows per key head) rows (config.json)", c->dir, t->src_name);
    char name[160];
    snprintf(name, sizeof name, "%.*sattn_gate.weight", (int)(strlen(t->name) - 15), t->name);
    size_t i = (size_t)(t - c->t);
    lgg_status st = lgg__cv_dup_tensor(c, i, name, err); /* c->t may move */
    if (st) return st;
    cv_tensor *q = &c->t[i], *z = &c->t[c->n_t - 1];
    q->ne[1] = 2 * nk * kd + nk * vg, q->n_units = (uint64_t)q->ne[1];
    z->ne[1] = nk * vg, z->n_units = (uint64_t)z->ne[1];
    q->row_of = qkv_row, z->row_of = z_row;
    q->row_arg[0] = z->row_arg[0] = (uint64_t)kd, q->row_arg[1] = z->row_arg[1] = (uint64_t)vg, q->row_arg[2] = (uint64_t)nk;
    return LGG_OK;
}

static lgg_status qwen3next_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (ends(t->src_name, ".A_log")) t->xform |= CV_X_NEG_EXP;
    if (ends(t->name, "ssm_norm.weight")) t->xform &= ~(unsigned)CV_X_ADD1; /* the linear attention's norm: as it is */
    if (ends(t->name, "ssm_conv1d.weight") && t->n_dims == 3 && t->ne[1] == 1) /* squeeze(): [channels, kernel] */
        t->n_dims = 2, t->ne[1] = t->ne[2], t->ne[2] = 1;
    return ends(t->src_name, ".in_proj_qkvz.weight") ? split_qkvz(c, t, err) : LGG_OK;
}

/* Qwen3.5's V heads from grouped by key head (k, r) to tiled (r, k): the
 * source index of output row (or element, or column block) o of `d` wide
 * heads, with row_arg[2] key heads, row_arg[3] value heads per key head,
 * the first row_arg[1] rows (q and k) as they are.  row_arg[0]: d. */
static uint64_t v_tiled(const cv_tensor *t, uint64_t o) {
    uint64_t d = t->row_arg[0], skip = t->row_arg[1], nk = t->row_arg[2], r = t->row_arg[3];
    if (o < skip) return o;
    o -= skip;
    uint64_t h = o / d;
    return skip + (h % nk * r + h / nk) * d + o % d;
}

static uint64_t v_tiled_cols(const cv_tensor *t, uint64_t j) { return v_tiled(t, j * t->row_arg[0]) / t->row_arg[0]; }

/* The reorder of one tensor: rows from `skip` in heads of d, or (cols) its
 * columns in blocks of d; a vector is reordered element by element. */
static lgg_status tile(lgg_convert *c, cv_tensor *t, uint64_t d, uint64_t skip, int cols, lgg_error *err) {
    int64_t nk = count(c, "linear_num_key_heads"), nv = count(c, "linear_num_value_heads");
    uint64_t len = cols ? (uint64_t)t->ne[0] : t->n_dims == 1 ? (uint64_t)t->ne[0] : t->n_units;
    if (len < skip || (len - skip) != (uint64_t)nv * d || (cols && t->n_dims != 2))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not linear_num_value_heads heads of %llu (config.json)", c->dir,
                            t->src_name, (unsigned long long)d);
    t->row_arg[0] = d, t->row_arg[1] = skip, t->row_arg[2] = (uint64_t)nk, t->row_arg[3] = (uint64_t)(nv / nk);
    if (cols) t->col_of = v_tiled_cols, t->col_block = d;
    else {
        if (t->n_dims == 1) t->unit = 1, t->n_units = (uint64_t)t->ne[0];
        t->row_of = v_tiled;
    }
    return LGG_OK;
}

/* Qwen3.5 (master's _LinearAttentionVReorderBase over Qwen3NextModel): Qwen3-Next's transforms, then, when
 * there are fewer key than value heads, the value heads of qkv's v rows, the gate, beta, alpha, A_log,
 * dt_bias, the conv's v channels and out_proj's columns tiled. */
static lgg_status qwen35_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    lgg_status st = qwen3next_tensor(c, t, err);
    int64_t nk = count(c, "linear_num_key_heads"), nv = count(c, "linear_num_value_heads");
    int64_t kd = count(c, "linear_key_head_dim"), vd = count(c, "linear_value_head_dim");
    if (st || nk == nv || !strstr(t->src_name, "linear_attn.")) return st;
    if (ends(t->name, ".attn_qkv.weight")) return tile(c, t, (uint64_t)vd, (uint64_t)(2 * nk * kd), 0, err);
    if (ends(t->name, ".attn_gate.weight")) return tile(c, t, (uint64_t)vd, 0, 0, err);
    if (ends(t->name, ".ssm_beta.weight") || ends(t->name, ".ssm_alpha.weight") || ends(t->name, ".ssm_a") ||
        ends(t->name, ".ssm_dt.bias"))
        return tile(c, t, 1, 0, 0, err);
    if (ends(t->name, ".ssm_conv1d.weight")) return tile(c, t, (uint64_t)vd, (uint64_t)(2 * nk * kd), 0, err);
    if (ends(t->name, ".ssm_out.weight")) return tile(c, t, (uint64_t)vd, 0, 1, err);
    return LGG_OK;
}

/* Qwen3.5 always has M-RoPE: master writes its default sections last when rope_parameters has none. */
static lgg_status qwen35_meta(lgg_convert *c, lgg_error *err) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!json_object_get(c->config, "rope_parameters")) rp = json_object_get(c->config, "rope_scaling");
    if (json_object_get(rp, "mrope_section")) return LGG_OK;
    static const int32_t DEFAULT[4] = {11, 11, 10, 0};
    char key[160];
    snprintf(key, sizeof key, "%s.rope.dimension_sections", c->fam->arch);
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_I32, 4, DEFAULT};
    return lgg_writer_set(c->w, key, strlen(key), &w, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key)
                                                            : LGG_OK;
}

const cv_hooks lgg__cv_hooks_qwen3next = {qwen3next_init, qwen3next_name, qwen3next_tensor, NULL, NULL, qwen3next_generated};
/* The multimodal checkpoint: text_config over the top level, then Qwen3.5's. */
static lgg_status qwen35_vl_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    return st ? st : qwen3next_init(c, err);
}

/* Its vision tower dropped, "language_model." taken out (master's TextModel.filter_tensors). */
static int qwen35_vl_name(const char *hf, char *out, size_t cap) {
    if (lgg__cv_master_multimodal(hf)) return 0;
    char plain[512];
    const char *lm = strstr(hf, "language_model.");
    if (lm && (size_t)snprintf(plain, sizeof plain, "%.*s%s", (int)(lm - hf), hf, lm + 15) < sizeof plain) hf = plain;
    return qwen3next_name(hf, out, cap);
}

const cv_hooks lgg__cv_hooks_qwen35_vl = {qwen35_vl_init, qwen35_vl_name, qwen35_tensor, qwen35_meta, NULL, qwen3next_generated};

/* MiniCPM-V 4.6's text (MiniCPMV4_6ForConditionalGeneration: master's MiniCPMV4_6TextModel over Qwen3_5TextModel):
 * Qwen3.5's multimodal checkpoint with its merger (model.merger.) and its MTP tensors (names starting "mtp") left
 * out, before master's MTP renames.  Master still counts mtp_num_hidden_layers in the block count (blocks without
 * tensors, and nextn_predict_layers).  An MTP block under model.mtp. passes that filter and is Qwen3.5's (counted
 * from the checkpoint without mtp_num_hidden_layers); with neither, master asserts (qwen3next_generated refuses).
 * --no-mtp: none counted; --mtp: the MTP blocks with the embeddings, output norm and head alone. */
static int minicpmv46_name(const char *hf, char *out, size_t cap) {
    return strncmp(hf, "mtp", 3) && strncmp(hf, "model.merger.", 13) && qwen35_vl_name(hf, out, cap);
}

const cv_hooks lgg__cv_hooks_minicpmv46 = {qwen35_vl_init, minicpmv46_name, qwen35_tensor, qwen35_meta, NULL,
                                           qwen3next_generated};
const cv_hooks lgg__cv_hooks_qwen35 = {qwen3next_init, qwen3next_name, qwen35_tensor, qwen35_meta, NULL, qwen3next_generated};
