/* smallthinker.c -- SmallThinker (llama.cpp master's SmallThinkerModel),
 * which only master converts: the gating function from
 * moe_primary_router_apply_softmax (softmax when true, else sigmoid) and the
 * sliding window (sliding_window_size, when a layer of sliding_window_layout
 * is not 0), as config.json's lgg.gating and lgg.swa for its key table. */
#include "../cvint.h"

static lgg_status smallthinker_init(lgg_convert *c, lgg_error *err) {
    int softmax = lgg__cv_py_truthy(json_object_get(c->config, "moe_primary_router_apply_softmax"));
    const json_t *layout = json_object_get(c->config, "sliding_window_layout"), *size = json_object_get(c->config, "sliding_window_size");
    int sliding = 0;
    size_t i;
    const json_t *l;
    json_array_foreach(json_is_array(layout) ? layout : NULL, i, l) sliding |= !(json_is_integer(l) && json_integer_value(l) == 0) &&
                                                                                 !(json_is_real(l) && json_real_value(l) == 0);
    if (lgg__cv_py_truthy(layout) && !json_is_array(layout))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window_layout' is not a list", c->dir);
    if (json_object_set_new(c->config, "lgg.gating", json_integer(softmax ? 1 : 2)) ||
        (sliding && lgg__cv_py_truthy(size) && json_object_set(c->config, "lgg.swa", (json_t *)size)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_smallthinker = {smallthinker_init, NULL, NULL, NULL, NULL, NULL};
