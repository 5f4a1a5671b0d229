/* olmo3.c -- OLMo 3 (Olmo3ForCausalLM) as llama.cpp master (3f545becc)
 * converts it (conversion/olmo.py's Olmo2Model, written as olmo2): master's
 * base parameters, then, when config.json has a sliding_window, the window
 * and which layers use it (layer_types' "sliding_attention", else every
 * layer but each fourth) as a bool array. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lgg_status olmo3_meta(lgg_convert *c, lgg_error *err) {
    const json_t *sw = json_object_get(c->config, "sliding_window"), *lt = json_object_get(c->config, "layer_types");
    if (!sw) return LGG_OK;
    if (!json_is_integer(sw) || json_integer_value(sw) < 0 || json_integer_value(sw) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window' is not a count", c->dir);
    if (lt && !json_is_array(lt))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'layer_types' is not a list", c->dir);
    uint32_t w = (uint32_t)json_integer_value(sw);
    lgg_wvalue v = {LGG_VT_U32, 0, 1, &w};
    lgg_status st = lgg__cv_put_arch(c, "attention.sliding_window", &v, err);
    uint64_t n = lt ? json_array_size(lt) : c->block_count;
    uint8_t *pat = !st ? malloc(n ? (size_t)n : 1) : NULL;
    if (!st && !pat) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; !st && i < n; i++) {
        const json_t *e = lt ? json_array_get(lt, (size_t)i) : NULL;
        pat[i] = lt ? json_is_string(e) && !strcmp(json_string_value(e), "sliding_attention") : (i + 1) % 4 != 0;
    }
    lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_BOOL, n, pat};
    if (!st) st = lgg__cv_put_arch(c, "attention.sliding_window_pattern", &a, err);
    free(pat);
    return st;
}

const cv_hooks lgg__cv_hooks_olmo3 = {NULL, NULL, NULL, olmo3_meta, NULL, NULL};
