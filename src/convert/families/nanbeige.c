/* nanbeige.c -- Nanbeige (NanbeigeForCausalLM) as llama.cpp master
 * (3f545becc) converts it (conversion/nanbeige.py, over its LlamaModel):
 * llama's keys, names, permutation and vocabulary, then num_loops
 * (config.json's, 1 when absent, null, 0 or below 1) and
 * skip_loop_final_norm (its truth, false when absent). */
#include "../cvint.h"

#include <stdio.h>

static lgg_status nanbeige_meta(lgg_convert *c, lgg_error *err) {
    const json_t *nl = json_object_get(c->config, "num_loops"), *sk = json_object_get(c->config, "skip_loop_final_norm");
    if (nl && !json_is_null(nl) && !json_is_integer(nl))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_loops' is not an integer", c->dir);
    int64_t n = json_is_integer(nl) ? (int64_t)json_integer_value(nl) : 1;
    if (n > UINT32_MAX) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_loops' is too large", c->dir);
    int skip = sk && !json_is_null(sk) && !json_is_false(sk) && !(json_is_number(sk) && json_number_value(sk) == 0) &&
               !(json_is_string(sk) && !json_string_length(sk));
    char k1[160], k2[160];
    snprintf(k1, sizeof k1, "%s.num_loops", c->fam->arch);
    snprintf(k2, sizeof k2, "%s.skip_loop_final_norm", c->fam->arch);
    if (lgg_writer_set_u32(c->w, k1, n < 1 ? 1 : (uint32_t)n, NULL) || lgg_writer_set_bool(c->w, k2, skip, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", k1);
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_nanbeige = {NULL, NULL, NULL, nanbeige_meta, NULL, NULL};
