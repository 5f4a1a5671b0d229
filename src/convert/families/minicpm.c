/* minicpm.c -- what MiniCPM does in code in the reference converter:
 * its three scale factors, computed from config.json. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static lgg_status need_num(const lgg_convert *c, const char *key, double *v, lgg_error *err) {
    const json_t *j = json_object_get(c->config, key);
    if (!json_is_number(j)) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a number", c->dir, key);
    *v = json_number_value(j);
    return LGG_OK;
}

/* embedding_scale = scale_emb, residual_scale = scale_depth /
 * sqrt(num_hidden_layers), logit_scale = hidden_size / dim_model_base (in
 * Python's doubles, stored as f32); longrope's scaling type. */
static lgg_status minicpm_meta(lgg_convert *c, lgg_error *err) {
    double emb, depth, layers, hidden, base;
    lgg_status st = need_num(c, "scale_emb", &emb, err);
    if (!st) st = need_num(c, "scale_depth", &depth, err);
    if (!st) st = need_num(c, "num_hidden_layers", &layers, err);
    if (!st) st = need_num(c, "hidden_size", &hidden, err);
    if (!st) st = need_num(c, "dim_model_base", &base, err);
    if (!st && (layers <= 0 || base == 0))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: keys 'num_hidden_layers' and 'dim_model_base' must not be 0", c->dir);
    if (!st) st = lgg__cv_put_arch_f32(c, "embedding_scale", (float)emb, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "residual_scale", (float)(depth / pow(layers, 0.5)), err);
    if (!st) st = lgg__cv_put_arch_f32(c, "logit_scale", (float)(hidden / base), err);
    const json_t *rs = json_object_get(c->config, "rope_scaling"), *ty = json_object_get(rs, "type");
    if (!st && json_is_string(ty) && !strcmp(json_string_value(ty), "longrope"))
        st = lgg__cv_put_arch_str(c, "rope.scaling.type", "longrope", err);
    return st;
}

/* The long and short rope factors of hidden_size / num_attention_heads
 * dimensions. */
static lgg_status minicpm_generated(lgg_convert *c, lgg_error *err) {
    int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1), n = lgg__cv_hparam_int(c, "num_attention_heads", -1);
    return lgg__cv_long_short(c, h > 0 && n > 0 ? h / n : -1, err);
}

const cv_hooks lgg__cv_hooks_minicpm = {NULL, NULL, NULL, minicpm_meta, NULL, minicpm_generated};


