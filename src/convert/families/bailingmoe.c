/* bailingmoe.c -- Ling 2.0 (llama.cpp master's BailingMoeV2Model), which only
 * master converts: the next-token-prediction blocks counted in the block
 * count, master's partial rotary dimension (0.5 of head_dim without a
 * factor), and the shared experts' width: moe_shared_expert_intermediate_size,
 * else moe_intermediate_size x num_shared_experts. */
#include "../cvint.h"

static lgg_status bailingmoe2_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_nextn_blocks(c, err);
    if (!st) st = lgg__cv_master_rope_dim(c, err);
    if (st) return st;
    const json_t *sh = json_object_get(c->config, "moe_shared_expert_intermediate_size");
    int64_t ff = lgg__cv_hparam_int(c, "moe_intermediate_size", -1), n = lgg__cv_hparam_int(c, "num_shared_experts", -1);
    if (!sh && (ff < 0 || ff > UINT32_MAX || n < 0 || n > UINT32_MAX))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir,
                            ff < 0 || ff > UINT32_MAX ? "moe_intermediate_size" : "num_shared_experts");
    json_t *v = sh ? json_deep_copy(sh) : json_integer(ff * n);
    return !v || json_object_set_new(c->config, "lgg.shexp_ff", v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

const cv_hooks lgg__cv_hooks_bailingmoe2 = {bailingmoe2_init, NULL, NULL, NULL, NULL, NULL};
