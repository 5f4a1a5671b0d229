/* granite_swa.c -- Granite with interleaved sliding-window attention
 * (GraniteSWAForCausalLM) and its MoE form (GraniteMoeSWAForCausalLM), both
 * granite_swa, as llama.cpp master (3f545becc, conversion/granite.py's
 * GraniteSWAModel and GraniteMoeSWAModel over GraniteModel and LlamaModel)
 * converts them:
 *   names   the multimodal tensors dropped (GraniteModel's filter: "encoder."
 *           first, "image_", "layerwise_projectors", "spatial_projectors");
 *           attention sinks read as sinks.weight (families.c's rows); the
 *           MoE form's experts and shared MLP kept fused (gate and up in one
 *           ffn_gate_up_exps / ffn_up_shexp, checked to be 2 x their width)
 *   meta    master's base parameters, vocab_size, the rope dimension and
 *           Granite's multipliers (families.c's table), then the window
 *           (sliding_window, default 128), the per-block window pattern
 *           (layer_types' "sliding_attention", else every block but each
 *           fourth), the rope pattern (no_rope_layers' truth), and for the
 *           MoE form the shared MLP's width
 * The vocabulary is LlamaModel's (the row's flags). */
#include "../cvint.h"

#include <stdlib.h>
#include <string.h>

/* GraniteModel's drop of a vision checkpoint's tensors; "...sinks" + ".weight" (GraniteSWAModel's filter). */
static int granite_swa_hf_name(const char *hf, char *out, size_t cap) {
    if (!strncmp(hf, "encoder.", 8) || strstr(hf, "image_") || strstr(hf, "layerwise_projectors") ||
        strstr(hf, "spatial_projectors"))
        return 0;
    int n = snprintf(out, cap, "%s%s", hf, lgg__cv_ends_with(hf, "sinks") ? ".weight" : "");
    if (n < 0 || (size_t)n >= cap) snprintf(out, cap, "%s", hf); /* too long: left as it is, unmapped */
    return 1;
}

/* A fused gate+up matrix: its second-to-last dimension must be 2 x config.json's `key` (else `dflt_key`). */
static lgg_status fused_rows(lgg_convert *c, const cv_tensor *t, const char *key, const char *dflt_key, lgg_error *err) {
    int64_t ff = lgg__cv_hparam_int(c, key, -1);
    if (ff < 0 && dflt_key) ff = lgg__cv_hparam_int(c, dflt_key, -1), key = dflt_key;
    const lgg_st_tensor *s = t->src;
    if (ff <= 0 || s->n_dims < 2 || s->shape[s->n_dims - 2] != 2 * (uint64_t)ff)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': needs 2 * %s (config.json) rows, as master asserts",
                            c->dir, c->shard_names[t->shard], t->src_name, key);
    return LGG_OK;
}

static lgg_status granite_moe_swa_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const char *n = t->src_name;
    if (lgg__cv_ends_with(n, "block_sparse_moe.experts.gate_up_proj") || lgg__cv_ends_with(n, "block_sparse_moe.input_linear.weight"))
        return fused_rows(c, t, "intermediate_size", NULL, err);
    if (lgg__cv_ends_with(n, "shared_mlp.input_linear.weight"))
        return fused_rows(c, t, "shared_intermediate_size", "intermediate_size", err);
    return LGG_OK;
}

/* A BOOL array <arch>.NAME of n values, value i from fn(list, i). */
static lgg_status put_bools(lgg_convert *c, const char *name, const json_t *list, uint64_t n,
                            int (*fn)(const json_t *list, uint64_t i), lgg_error *err) {
    if (n > (1u << 20)) return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/config.json: %s: more than 2^20 blocks", c->dir, name);
    uint8_t *v = malloc(n ? n : 1);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; i < n; i++) v[i] = (uint8_t)fn(list, i);
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_BOOL, n, v};
    lgg_status st = lgg__cv_put_arch(c, name, &w, err);
    free(v);
    return st;
}

static int is_sliding(const json_t *list, uint64_t i) {
    const char *s = json_string_value(json_array_get(list, (size_t)i));
    return s && !strcmp(s, "sliding_attention");
}
static int every_fourth_full(const json_t *list, uint64_t i) { return (void)list, i % 4 != 0; }
static int truth(const json_t *list, uint64_t i) { return lgg__cv_py_truthy(json_array_get(list, (size_t)i)); }

static lgg_status swa_keys(lgg_convert *c, lgg_error *err) {
    const json_t *w = json_object_get(c->config, "sliding_window"), *lt = json_object_get(c->config, "layer_types");
    const json_t *nr = json_object_get(c->config, "no_rope_layers");
    if (lgg__cv_py_truthy(json_object_get(c->config, "spatial_target_layers")) ||
        lgg__cv_py_truthy(json_object_get(c->config, "deepstack_layer_map")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: Granite 4 Vision's deepstack mapping is not converted",
                            c->dir);
    if (w && (!json_is_integer(w) || json_integer_value(w) < 0 || json_integer_value(w) > UINT32_MAX))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window' is not a 32-bit count", c->dir);
    if ((lt && !json_is_array(lt) && lgg__cv_py_truthy(lt)) || (nr && !json_is_array(nr) && lgg__cv_py_truthy(nr)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: layer_types or no_rope_layers is not a list", c->dir);
    lgg_status st = lgg__cv_put_arch_u32(c, "attention.sliding_window", w ? (uint32_t)json_integer_value(w) : 128, err);
    if (!st && json_array_size(lt)) st = put_bools(c, "attention.sliding_window_pattern", lt, json_array_size(lt), is_sliding, err);
    else if (!st) st = put_bools(c, "attention.sliding_window_pattern", NULL, c->block_count, every_fourth_full, err);
    if (!st && json_array_size(nr)) st = put_bools(c, "attention.rope_pattern", nr, json_array_size(nr), truth, err);
    return st;
}

/* The MoE form: the shared MLP's width after the window keys, when set and not 0. */
static lgg_status moe_swa_keys(lgg_convert *c, lgg_error *err) {
    lgg_status st = swa_keys(c, err);
    const json_t *s = json_object_get(c->config, "shared_intermediate_size");
    if (st || !lgg__cv_py_truthy(s)) return st;
    if (!json_is_integer(s) || json_integer_value(s) < 0 || json_integer_value(s) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'shared_intermediate_size' is not a 32-bit count", c->dir);
    return lgg__cv_put_arch_u32(c, "expert_shared_feed_forward_length", (uint32_t)json_integer_value(s), err);
}

const cv_hooks lgg__cv_hooks_granite_swa = {NULL, granite_swa_hf_name, NULL, swa_keys, NULL, NULL};
const cv_hooks lgg__cv_hooks_granite_moe_swa = {NULL, granite_swa_hf_name, granite_moe_swa_tensor, moe_swa_keys, NULL, NULL};
