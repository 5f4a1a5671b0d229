/* grovemoe.c -- GroveMoE (llama.cpp master's GroveMoeModel), which only
 * master converts: besides its experts each block has half as many chunk
 * experts (stacked apart as ffn_*_chexps: lgg.experts2, the experts' count
 * // 2), their width the one master hard-codes (head_dim, else 128: lgg.chunk_ff). */
#include "../cvint.h"

static lgg_status grovemoe_init(lgg_convert *c, lgg_error *err) {
    int64_t n = lgg__cv_hparam_int(c, "num_local_experts", -1);
    if (n < 0) n = lgg__cv_hparam_int(c, "num_experts", -1);
    if (n < 2 || n > 8192)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_experts' is missing or not a count of 2 or more", c->dir);
    const json_t *hd = json_object_get(c->config, "head_dim");
    json_t *ff = lgg__cv_py_truthy(hd) ? json_deep_copy(hd) : json_integer(128);
    if (!ff || json_object_set_new(c->config, "lgg.chunk_ff", ff) ||
        json_object_set_new(c->config, "lgg.experts2", json_integer(n / 2)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_grovemoe = {grovemoe_init, NULL, NULL, NULL, NULL, NULL};
