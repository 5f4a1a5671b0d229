/* cohere2moe.c -- Cohere2 MoE (Cohere2MoeForCausalLM: CohereLabs/North-Mini-Code-1.0)
 * as llama.cpp master (3f545becc) converts it (conversion/command_r.py's
 * Cohere2MoeModel, which only master converts):
 *   init    the next-token-prediction blocks (num_nextn_predict_layers; master
 *           takes neither --mtp nor --no-mtp here) counted in the block count;
 *           as lgg.* for families.c's COHERE2MOE_META: the leading dense blocks
 *           (mlp_layer_types' first entry that is not "dense", else
 *           first_k_dense_replace, else 0), norm_topk_prob's truth, and with
 *           shared experts their count and width (intermediate_size x
 *           num_shared_experts; a shared_expert_combination_strategy other
 *           than "average" refused, as master refuses it)
 *   tensor  a bias refused (master's default run fails on one: below).
 * The routed experts are stacked down, gate, up by namemap.c's rows. */
#include "../cvint.h"

#include <string.h>

static lgg_status set_int(lgg_convert *c, const char *key, json_int_t v, lgg_error *err) {
    json_t *j = json_integer(v);
    return !j || json_object_set_new(c->config, key, j) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* A count of config.json: dflt when absent; -1 when null or not a count (master's arithmetic fails there). */
static int64_t count_of(const lgg_convert *c, const char *key, int64_t dflt) {
    const json_t *v = json_object_get(c->config, key);
    if (!v) return dflt;
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 30) ? json_integer_value(v) : -1;
}

/* master's leading dense blocks: the index of mlp_layer_types' first entry
 * other than "dense" (its length when all are), else first_k_dense_replace. */
static int64_t leading_dense(const lgg_convert *c) {
    const json_t *types = json_object_get(c->config, "mlp_layer_types");
    if (!types || json_is_null(types)) return count_of(c, "first_k_dense_replace", 0);
    if (!json_is_array(types)) return -1;
    size_t i = 0;
    while (i < json_array_size(types) && json_is_string(json_array_get(types, i)) &&
           !strcmp(json_string_value(json_array_get(types, i)), "dense"))
        i++;
    return (int64_t)i;
}

static lgg_status shared_experts(lgg_convert *c, lgg_error *err) {
    int64_t n = count_of(c, "num_shared_experts", 0), ff = count_of(c, "intermediate_size", -1);
    if (n < 0 || ff < 0 || (uint64_t)n * (uint64_t)ff > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir,
                            n < 0 ? "num_shared_experts" : ff < 0 ? "intermediate_size" : "num_shared_experts");
    if (n == 0) return LGG_OK;
    const json_t *how = json_object_get(c->config, "shared_expert_combination_strategy");
    if (how && !(json_is_string(how) && !strcmp(json_string_value(how), "average")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: shared_expert_combination_strategy is not \"average\", the only one llama.cpp "
                            "master (3f545becc) converts for Cohere2 MoE", c->dir);
    lgg_status st = set_int(c, "lgg.shexp_n", n, err);
    return st ? st : set_int(c, "lgg.shexp_ff", n * ff, err);
}

static lgg_status cohere2moe_init(lgg_convert *c, lgg_error *err) {
    int64_t lead = leading_dense(c);
    if (lead < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'mlp_layer_types' (or 'first_k_dense_replace') is "
                            "not a list (a count)", c->dir);
    lgg_status st = lgg__cv_master_nextn_blocks(c, err);
    if (!st) st = set_int(c, "lgg.leading", lead, err);
    if (!st) {
        json_t *norm = json_boolean(lgg__cv_py_truthy(json_object_get(c->config, "norm_topk_prob")));
        if (!norm || json_object_set_new(c->config, "lgg.topk_norm", norm)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    return st ? st : shared_experts(c, err);
}

/* Any bias refused: master skips the zero ones and stops on the others, but its
 * zero test (torch.any on the lazy tensor it converts by default) raises
 * TypeError, so master's default run fails on every bias (measured:
 * test_convert_cohere2moe.c's bias checkpoint). */
static lgg_status cohere2moe_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!lgg__cv_ends_with(t->src_name, ".bias")) return LGG_OK;
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s: tensor '%s': a bias, which llama.cpp master (3f545becc) fails on for Cohere2 MoE (its zero "
                        "check of the lazy tensor raises TypeError)", c->dir, t->src_name);
}

const cv_hooks lgg__cv_hooks_cohere2moe = {cohere2moe_init, lgg__cv_master_text_name, cohere2moe_tensor, NULL, NULL, NULL};
