/* fused_qkv.c -- the fused QKV matrices that GPT-NeoX, Falcon and
 * InternLM2 hold, as their reference classes reorder or split them: all
 * queries, then all keys, then all values (each a row map, cv_tensor.row_of,
 * so the data is still read row by row); InternLM2's q and k then take
 * llama's permutation; Falcon's key/value head count default. */
#include "../cvint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* GPT-NeoX's fused rows are grouped per head as (q, k, v), each head_dim
 * rows; the output has every head's q, then every k, then every v. */
static uint64_t neox_row(const cv_tensor *t, uint64_t u) {
    uint64_t embd = t->n_units / 3, hd = embd / t->row_arg[0], j = u / embd, h = (u % embd) / hd;
    return h * 3 * hd + j * hd + u % hd;
}

/* Falcon's and InternLM2's are grouped per key/value head: its g =
 * heads/kv_heads queries, then its key, then its value.  u indexes all
 * queries, then all keys, then all values. */
static uint64_t kv_group_row(uint64_t nh, uint64_t nkv, uint64_t hd, uint64_t u) {
    uint64_t g = nh / nkv, d = u % hd, r = u / hd;
    if (r < nh) return ((r / g) * (g + 2) + r % g) * hd + d;
    r -= nh;
    if (r < nkv) return (r * (g + 2) + g) * hd + d;
    return ((r - nkv) * (g + 2) + g + 1) * hd + d;
}

static uint64_t falcon_row(const cv_tensor *t, uint64_t u) {
    uint64_t nh = t->row_arg[0], nkv = t->row_arg[1];
    return kv_group_row(nh, nkv, t->n_units / (nh + 2 * nkv), u);
}

/* InternLM2's wqkv, split: row_arg[2] is the part (0 q, 1 k, 2 v); q and k
 * then take llama's permutation (heads, 2, rows/heads/2) with their head
 * counts. */
static uint64_t internlm2_row(const cv_tensor *t, uint64_t u) {
    uint64_t nh = t->row_arg[0], nkv = t->row_arg[1], part = t->row_arg[2], hd = t->row_arg[3];
    if (part < 2) {
        uint64_t half = t->n_units / (part ? nkv : nh) / 2, h = u / (2 * half), r = u % (2 * half);
        u = h * 2 * half + (r % 2) * half + r / 2;
    }
    return kv_group_row(nh, nkv, hd, u + (part == 0 ? 0 : part == 1 ? nh * hd : (nh + nkv) * hd));
}

/* config.json's count `keys` (the first present), or dflt when none is. */
static int64_t count_of(const lgg_convert *c, const char *keys, int64_t dflt) {
    char which[64];
    const json_t *v = lgg__cv_first_key(c->config, keys, which, sizeof which);
    return !v ? dflt : json_is_integer(v) ? json_integer_value(v) : -1;
}

static lgg_status fused_qkv(lgg_convert *c, cv_tensor *t, int falcon, lgg_error *err) {
    if (!strstr(t->src_name, "query_key_value")) return LGG_OK;
    int64_t nh = count_of(c, falcon ? "num_attention_heads|n_head" : "n_head|num_attention_heads", 0), embd = count_of(c, "hidden_size|n_embed", 0);
    int64_t nkv = falcon ? count_of(c, "num_kv_heads|n_head_kv", 1) : nh;
    if (t->src->n_dims == 1) t->unit = 1, t->n_units = t->src->shape[0]; /* a bias: reordered element by element */
    uint64_t rows = t->n_units, cols = t->src->n_dims == 2 ? t->src->shape[1] : 0;
    int ok = nh > 0 && nkv > 0 && embd > 0 && embd % nh == 0 && nh % nkv == 0;
    uint64_t hd = ok ? (uint64_t)(embd / nh) : 0;
    if (falcon) /* the reference views the matrix as (kv_heads, heads/kv_heads + 2, head_dim, hidden_size) */
        ok = ok && t->src->n_dims == 2 && cols == (uint64_t)embd && rows == (uint64_t)(nh + 2 * nkv) * hd;
    else
        ok = ok && rows == 3 * (uint64_t)embd && (t->src->n_dims == 1 || cols == (uint64_t)embd);
    if (!ok)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/%s: tensor '%s': its shape does not fit the heads and hidden_size of config.json", c->dir,
                            c->shard_names[t->shard], t->src_name);
    t->row_arg[0] = (uint64_t)nh, t->row_arg[1] = (uint64_t)nkv;
    t->row_of = falcon ? falcon_row : neox_row;
    return LGG_OK;
}

static lgg_status neox_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) { return fused_qkv(c, t, 0, err); }
static lgg_status falcon_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) { return fused_qkv(c, t, 1, err); }

/* InternLM2's wqkv: q, k and v (three tensors, at the entry's place). */
static lgg_status internlm2_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strstr(t->src_name, ".attention.wqkv.")) return LGG_OK;
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", 0), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", 0);
    int64_t embd = lgg__cv_hparam_int(c, "hidden_size", 0);
    uint64_t hd = nh > 0 && embd % nh == 0 ? (uint64_t)(embd / nh) : 0;
    const char *q = strstr(t->name, "attn_q");
    if (!q || t->src->n_dims != 2 || nkv <= 0 || !hd || nh % nkv || hd % 2 || t->src->shape[1] != (uint64_t)embd ||
        t->src->shape[0] != (uint64_t)(nh + 2 * nkv) * hd)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/%s: tensor '%s': its shape does not fit the heads and hidden_size of config.json", c->dir,
                            c->shard_names[t->shard], t->src_name);
    char name[128];
    int at = (int)(q - t->name);
    uint64_t rows[3] = {(uint64_t)nh * hd, (uint64_t)nkv * hd, (uint64_t)nkv * hd};
    t->row_of = internlm2_row, t->row_arg[0] = (uint64_t)nh, t->row_arg[1] = (uint64_t)nkv, t->row_arg[3] = hd;
    for (int part = 2; part >= 0; part--) { /* t itself last: a copy may move it */
        t->ne[1] = (int64_t)rows[part], t->n_units = rows[part], t->row_arg[2] = (uint64_t)part;
        if (part == 0) break;
        snprintf(name, sizeof name, "%.*sattn_%c%s", at, t->name, part == 1 ? 'k' : 'v', q + 6);
        size_t idx = (size_t)(t - c->t);
        lgg_status st = lgg__cv_dup_tensor(c, idx, name, err);
        if (st) return st;
        t = &c->t[idx];
    }
    /* the copies went after t in the order v, k: put k before v */
    cv_tensor k = c->t[c->n_t - 1];
    c->t[c->n_t - 1] = c->t[c->n_t - 2];
    c->t[c->n_t - 2] = k;
    return LGG_OK;
}

/* Falcon's key/value head count: num_kv_heads, else n_head_kv, else 1. */
static lgg_status falcon_init(lgg_convert *c, lgg_error *err) {
    if (lgg__cv_first_key(c->config, "num_kv_heads|n_head_kv", NULL, 0)) return LGG_OK;
    return json_object_set_new(c->config, "n_head_kv", json_integer(1)) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
                                                                        : LGG_OK;
}

const cv_hooks lgg__cv_hooks_gptneox = {NULL, NULL, neox_tensor, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_falcon = {falcon_init, NULL, falcon_tensor, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_internlm2 = {NULL, NULL, internlm2_tensor, NULL, NULL, NULL};
