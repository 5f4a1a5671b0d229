/* fam_code.c -- what GPT-2, GPT-NeoX, Falcon, GraniteMoE, Exaone and
 * InternLM2 do in code in the reference converter: GPT-2's transposed matrices (the table's
 * CV_X_TRANSPOSE), its dropped attention buffers and its output matrix (a
 * copy of the embeddings); the fused QKV matrices that GPT-NeoX and Falcon
 * reorder into all queries, then all keys, then all values; GraniteMoE's
 * gate and up experts split from one matrix; InternLM2's wqkv split
 * into q, k and v with llama's permutation (each a row map,
 * cv_tensor.row_of, so the data is still read row by row); Exaone's
 * defaults. */
#include "cvint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static int ends(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* GPT-2's names with or without "transformer." (the reference maps both);
 * its causal-mask buffers are dropped. */
static int gpt2_name(const char *hf, char *out, size_t cap) {
    if (ends(hf, ".attn.bias") || ends(hf, ".attn.masked_bias")) return 0;
    if (starts(hf, "transformer.")) hf += 12;
    size_t l = strlen(hf);
    if (l >= cap) return 0;
    memcpy(out, hf, l + 1);
    return 1;
}

/* A second output tensor from t's source, named `name`, after the last
 * one (NULL when out of memory, err set); t may move. */
static cv_tensor *add_copy(lgg_convert *c, const cv_tensor *t, const char *name, lgg_error *err) {
    cv_tensor copy = *t;
    cv_tensor *o = lgg__cv_new_tensor(c, err);
    if (!o) return NULL;
    *o = copy;
    if (!(o->name = strdup(name))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory"), NULL;
    c->n_t++;
    return o;
}

/* GPT-2's output matrix is its embeddings: written again, right after them. */
static lgg_status gpt2_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strcmp(t->name, "token_embd.weight")) return LGG_OK;
    return add_copy(c, t, "output.weight", err) ? LGG_OK : LGG_ERR_NOMEM;
}

/* GraniteMoE's experts hold their gate rows and then their up rows in one
 * matrix (input_linear, 2 * intermediate_size rows each): the gate half,
 * then the up half as a second tensor. */
static uint64_t half_row(const cv_tensor *t, uint64_t u) {
    uint64_t ff = t->row_arg[0];
    return u / ff * 2 * ff + t->row_arg[1] * ff + u % ff;
}

static lgg_status granitemoe_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!ends(t->src_name, ".block_sparse_moe.input_linear.weight")) return LGG_OK;
    int64_t ff = lgg__cv_hparam_int(c, "intermediate_size", 0);
    const char *gate = strstr(t->name, "ffn_gate_exps");
    if (!gate || t->src->n_dims != 3 || ff <= 0 || t->src->shape[1] % 2 || t->src->shape[1] / 2 != (uint64_t)ff)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': needs 2 * intermediate_size (config.json) rows per expert",
                            c->dir, c->shard_names[t->shard], t->src_name);
    t->ne[1] = ff, t->n_units /= 2, t->row_of = half_row, t->row_arg[0] = (uint64_t)ff, t->row_arg[1] = 0;
    char name[128];
    snprintf(name, sizeof name, "%.*sffn_up_exps%s", (int)(gate - t->name), t->name, gate + 13);
    cv_tensor *up = add_copy(c, t, name, err);
    if (!up) return LGG_ERR_NOMEM;
    up->row_arg[1] = 1;
    return LGG_OK;
}

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
    for (int part = 2; part >= 0; part--) { /* t itself last: add_copy may move it */
        t->ne[1] = (int64_t)rows[part], t->n_units = rows[part], t->row_arg[2] = (uint64_t)part;
        if (part == 0) break;
        snprintf(name, sizeof name, "%.*sattn_%c%s", at, t->name, part == 1 ? 'k' : 'v', q + 6);
        size_t idx = (size_t)(t - c->t);
        if (!add_copy(c, t, name, err)) return LGG_ERR_NOMEM;
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

/* Exaone: SiLU only (the reference asserts it); the feed-forward length
 * 4 * hidden_size and the rotary fraction 1 when config.json has none. */
static lgg_status exaone_init(lgg_convert *c, lgg_error *err) {
    const char *act = json_string_value(json_object_get(c->config, "activation_function"));
    if (!act || strcmp(act, "silu"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: key 'activation_function' must be \"silu\"", c->dir);
    int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1);
    int bad = 0;
    if (!json_object_get(c->config, "intermediate_size") && h >= 0 && h <= INT64_MAX / 4)
        bad |= json_object_set_new(c->config, "intermediate_size", json_integer(4 * h));
    if (!lgg__cv_first_key(c->config, "partial_rotary_factor|rope_pct", NULL, 0))
        bad |= json_object_set_new(c->config, "partial_rotary_factor", json_real(1.0));
    return bad ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

const cv_hooks lgg__cv_hooks_gpt2 = {NULL, gpt2_name, gpt2_tensor, NULL, NULL};
const cv_hooks lgg__cv_hooks_gptneox = {NULL, NULL, neox_tensor, NULL, NULL};
const cv_hooks lgg__cv_hooks_falcon = {falcon_init, NULL, falcon_tensor, NULL, NULL};
const cv_hooks lgg__cv_hooks_granitemoe = {NULL, NULL, granitemoe_tensor, NULL, NULL};
const cv_hooks lgg__cv_hooks_exaone = {exaone_init, NULL, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_internlm2 = {NULL, NULL, internlm2_tensor, NULL, NULL};
