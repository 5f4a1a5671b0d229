/* openelm.c -- what OpenELM does in code in the reference converter:
 * its per-layer keys and its split feed-forward. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OpenELM: per-layer head counts and feed-forward widths. */
static lgg_status openelm_arrays(const lgg_convert *c, json_t **nq, json_t **nkv, int64_t *ff, size_t cap, lgg_error *err) {
    const json_t *mul = json_object_get(c->config, "ffn_multipliers");
    *nq = json_object_get(c->config, "num_query_heads"), *nkv = json_object_get(c->config, "num_kv_heads");
    int64_t div = lgg__cv_hparam_int(c, "ffn_dim_divisor", 0), d = lgg__cv_hparam_int(c, "model_dim", 0);
    size_t n = c->block_count;
    const char *bad = !json_is_array(mul) || json_array_size(mul) != n ? "ffn_multipliers"
                      : !json_is_array(*nq) || json_array_size(*nq) != n ? "num_query_heads"
                      : !json_is_array(*nkv) || json_array_size(*nkv) != n ? "num_kv_heads"
                      : div <= 0 ? "ffn_dim_divisor" : d <= 0 ? "model_dim" : n > cap ? "num_transformer_layers" : NULL;
    for (size_t i = 0; !bad && i < n; i++) {
        const json_t *m = json_array_get(mul, i);
        if (!json_is_number(m) || json_number_value(m) < 0 || json_number_value(m) > 1e6) bad = "ffn_multipliers";
        else if (!json_is_integer(json_array_get(*nq, i)) || !json_is_integer(json_array_get(*nkv, i))) bad = "num_query_heads";
        else { /* the reference's _make_divisible(multiplier * model_dim, divisor) */
            double v = json_number_value(m) * (double)d;
            int64_t r = (int64_t)(v + (double)div / 2) / div * div;
            if (r < div) r = div;
            if ((double)r < 0.9 * v) r += div;
            ff[i] = r;
        }
    }
    if (bad)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or does not have one entry per layer",
                            c->dir, bad);
    return LGG_OK;
}

/* block_count from num_transformer_layers (the reference's find_hparam
 * override), stored as num_hidden_layers before the converter reads it. */
static lgg_status openelm_init(lgg_convert *c, lgg_error *err) {
    json_t *l = json_object_get(c->config, "num_transformer_layers");
    if (!json_is_integer(l) || json_integer_value(l) < 0 || json_integer_value(l) > 4096)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_transformer_layers' is missing or not a count", c->dir);
    return json_object_set(c->config, "num_hidden_layers", l) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* ffn.proj_1 of block N: its first ffn_dims[N] rows are the gate, the rest up. */
static lgg_status openelm_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strstr(t->name, ".ffn_gate.weight")) return LGG_OK;
    json_t *nq, *nkv;
    int64_t ff[4096];
    lgg_status st = openelm_arrays(c, &nq, &nkv, ff, 4096, err);
    uint64_t bid = strtoull(t->name + 4, NULL, 10); /* "blk.N." */
    return st ? st : lgg__cv_split_rows(c, t, (uint64_t)ff[bid < c->block_count ? bid : 0], "ffn_up", err);
}

/* Its keys, all written here: per-layer arrays (INT32, as gguf-py types a
 * list of ints) for the feed-forward widths and the head counts. */
static lgg_status openelm_meta(lgg_convert *c, lgg_error *err) {
    json_t *nq, *nkv;
    int64_t ff[4096];
    lgg_status st = openelm_arrays(c, &nq, &nkv, ff, 4096, err);
    int64_t hd = lgg__cv_hparam_int(c, "head_dim", -1), ctx = lgg__cv_hparam_int(c, "max_context_length", -1);
    const json_t *base = json_object_get(c->config, "rope_freq_constant");
    if (!st && (hd < 0 || hd > UINT32_MAX || ctx < 0 || ctx > UINT32_MAX || !json_is_number(base)))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or out of range", c->dir,
                          hd < 0 || hd > UINT32_MAX ? "head_dim" : !json_is_number(base) ? "rope_freq_constant" : "max_context_length");
    if (st) return st;
    size_t n = c->block_count;
    int32_t a[3][4096];
    for (size_t i = 0; i < n; i++)
        a[0][i] = (int32_t)ff[i], a[1][i] = (int32_t)json_integer_value(json_array_get(nq, i)),
        a[2][i] = (int32_t)json_integer_value(json_array_get(nkv, i));
    lgg_writer *w = c->w;
    lgg_wvalue ffv = {LGG_VT_ARRAY, LGG_VT_I32, n, a[0]}, qv = {LGG_VT_ARRAY, LGG_VT_I32, n, a[1]},
               kv = {LGG_VT_ARRAY, LGG_VT_I32, n, a[2]};
#define K(name) "openelm." name, strlen("openelm." name)
    if (lgg_writer_set_u32(w, "openelm.block_count", (uint32_t)n, NULL) ||
        lgg_writer_set_u32(w, "openelm.context_length", (uint32_t)ctx, NULL) ||
        lgg_writer_set_u32(w, "openelm.embedding_length", (uint32_t)lgg__cv_hparam_int(c, "model_dim", 0), NULL) ||
        lgg_writer_set(w, K("feed_forward_length"), &ffv, NULL) || lgg_writer_set(w, K("attention.head_count"), &qv, NULL) ||
        lgg_writer_set(w, K("attention.head_count_kv"), &kv, NULL) ||
        lgg_writer_set_f32(w, "openelm.rope.freq_base", (float)json_number_value(base), NULL) ||
        lgg_writer_set_f32(w, "openelm.attention.layer_norm_rms_epsilon", 1e-6f, NULL) ||
        lgg_writer_set_u32(w, "openelm.rope.dimension_count", (uint32_t)hd, NULL) ||
        lgg_writer_set_u32(w, "openelm.attention.key_length", (uint32_t)hd, NULL) ||
        lgg_writer_set_u32(w, "openelm.attention.value_length", (uint32_t)hd, NULL) ||
        lgg_writer_set_u32(w, "general.file_type", lgg__cv_file_type(c), NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set OpenELM's keys");
#undef K
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_openelm = {openelm_init, NULL, openelm_tensor, openelm_meta, NULL, NULL};
