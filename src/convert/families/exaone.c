/* exaone.c -- what Exaone does in code in the reference converter:
 * its activation checked and its defaults. */
#include "../cvint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

const cv_hooks lgg__cv_hooks_exaone = {exaone_init, NULL, NULL, NULL, NULL, NULL};
