/* mellum.c -- Mellum (MellumForCausalLM) as llama.cpp master (3f545becc)
 * converts it (conversion/mellum.py): master's base parameters, q/k norms,
 * experts stacked down, gate, up; then expert_feed_forward_length
 * (moe_intermediate_size) and, when use_sliding_window is true or absent
 * and sliding_window is set, the window and layer_types' sliding layers
 * (required then, as master reads them). */
#include "../cvint.h"

#include <stdio.h>
#include <string.h>

/* layer_types' sliding layers (required: master reads it when the window is used). */
static const cv_mkey MELLUM_SWA[] = {
    {"attention.sliding_window_pattern", "layer_types", CV_M_SWA_LAYERS, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

static lgg_status mellum_meta(lgg_convert *c, lgg_error *err) {
    const json_t *ff = json_object_get(c->config, "moe_intermediate_size"), *use = json_object_get(c->config, "use_sliding_window");
    const json_t *sw = json_object_get(c->config, "sliding_window");
    lgg_status st = LGG_OK;
    if (ff && !json_is_null(ff)) {
        if (!json_is_integer(ff) || json_integer_value(ff) < 0 || json_integer_value(ff) > UINT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'moe_intermediate_size' is not a count", c->dir);
        uint32_t v = (uint32_t)json_integer_value(ff);
        lgg_wvalue w = {LGG_VT_U32, 0, 1, &v};
        st = lgg__cv_put_arch(c, "expert_feed_forward_length", &w, err);
    }
    if (st || !(json_is_true(use) || !use || json_is_null(use)) || !sw || json_is_null(sw)) return st;
    if (!json_is_integer(sw) || json_integer_value(sw) < 0 || json_integer_value(sw) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window' is not a count", c->dir);
    uint32_t w = (uint32_t)json_integer_value(sw);
    lgg_wvalue v = {LGG_VT_U32, 0, 1, &w};
    if ((st = lgg__cv_put_arch(c, "attention.sliding_window", &v, err))) return st;
    return lgg__cv_meta_keys(c, MELLUM_SWA, err);
}

/* The expert count master stacks by: num_local_experts, else num_experts (as lgg.experts). */
static lgg_status mellum_init(lgg_convert *c, lgg_error *err) {
    json_t *n = json_object_get(c->config, "num_local_experts");
    if (!n) n = json_object_get(c->config, "num_experts");
    if (!n)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_local_experts' (or 'num_experts') is missing",
                            c->dir);
    if (json_object_set(c->config, "lgg.experts", n)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_mellum = {mellum_init, NULL, NULL, mellum_meta, NULL, NULL};
