/* phi3.c -- what Phi-3 and PhiMoE (and Phi-4-reasoning-vision's text) do in code in the reference converter:
 * their long and short rope factors (copied from config.json), with the
 * attention factor that the reference writes as it makes them, before any
 * other hyperparameter. */
#include "../cvint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Phi-3's rope_scaling {"type": "longrope"|"su"|"yarn", "long_factor": [...],
 * "short_factor": [...]}: the attention factor, then the two tensors. */
static lgg_status phi3_generated(lgg_convert *c, lgg_error *err) {
    const json_t *rs = json_object_get(c->config, "rope_scaling");
    if (!rs || json_is_null(rs)) return LGG_OK;
    int64_t embd = lgg__cv_hparam_int(c, "hidden_size", -1), heads = lgg__cv_hparam_int(c, "num_attention_heads", -1);
    int64_t ctx = lgg__cv_hparam_int(c, "max_position_embeddings", -1), orig = lgg__cv_hparam_int(c, "original_max_position_embeddings", -1);
    if (embd <= 0 || heads <= 0 || ctx <= 0 || orig <= 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: keys 'hidden_size', 'num_attention_heads', 'max_position_embeddings' and "
                            "'original_max_position_embeddings' must be positive counts for rope_scaling",
                            c->dir);
    const json_t *ty = json_object_get(rs, "type");
    const char *type = json_is_string(ty) ? json_string_value(ty) : "";
    if (!json_is_object(rs) || !*type)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.type' is missing", c->dir);
    double scale = (double)ctx / (double)orig, attn;
    if (!strcasecmp(type, "su") || !strcasecmp(type, "longrope"))
        attn = scale > 1.0 ? sqrt(1 + log(scale) / log((double)orig)) : 1.0;
    else if (!strcasecmp(type, "yarn"))
        attn = scale > 1.0 ? 0.1 * log(scale) + 1.0 : 1.0;
    else
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: rope_scaling type '%s' is not supported", c->dir, type);
    c->attn_factor = (float)attn, c->has_attn_factor = 1;
    int64_t dims = embd / heads;
    float *lf = NULL, *sf = NULL;
    lgg_status st = dims % 2 ? lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: odd rope dimension count %lld", c->dir, (long long)dims)
                             : lgg__cv_factor_list(c, rs, "long_factor", (uint64_t)dims / 2, &lf, err);
    if (!st) st = lgg__cv_factor_list(c, rs, "short_factor", (uint64_t)dims / 2, &sf, err);
    if (!st && (st = lgg__cv_add_generated(c, "rope_factors_long.weight", lf, (uint64_t)dims / 2, err)) == LGG_OK) lf = NULL;
    if (!st && (st = lgg__cv_add_generated(c, "rope_factors_short.weight", sf, (uint64_t)dims / 2, err)) == LGG_OK) sf = NULL;
    free(lf), free(sf);
    return st;
}

const cv_hooks lgg__cv_hooks_phi3 = {NULL, NULL, NULL, NULL, NULL, phi3_generated};

/* Phi-4-reasoning-vision's text (Phi4ForCausalLMV: master converts it with Phi3MiniModel): Phi-3's, the
 * SigLIP2 tower (model.vision_tower.) and the projector (model.mm_projector.) left out as master's text
 * filter leaves them. */
const cv_hooks lgg__cv_hooks_phi4v = {NULL, lgg__cv_master_text_name, NULL, NULL, NULL, phi3_generated};
