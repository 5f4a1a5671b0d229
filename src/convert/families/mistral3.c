/* mistral3.c -- Mistral 3 and Ministral 3 (Ministral3ForCausalLM, the text
 * part of Mistral3ForConditionalGeneration) as llama.cpp master (3f545becc)
 * converts them (conversion/mistral3.py's Ministral3Model over its
 * LlamaModel): text_config over the top level, the vision tower and
 * projector dropped, "text_model." and "language_model." taken out of the
 * names; llama's keys, permutation and vocabulary, and for model_type
 * "ministral3" its yarn rope's log multiplier (mscale_all_dim) and
 * attention temperature scale (llama_4_scaling_beta).  Mistral 4
 * (model_type "mistral4", master's DeepSeek V2 path) is refused. */
#include "../cvint.h"

#include <stdio.h>
#include <string.h>

static int is_ministral3(const lgg_convert *c) {
    const json_t *mt = json_object_get(c->config, "model_type");
    return json_is_string(mt) && !strcmp(json_string_value(mt), "ministral3");
}

/* Master's rope_parameters (else rope_scaling). */
static const json_t *rope_params(const lgg_convert *c) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    return json_is_object(rp) ? rp : json_object_get(c->config, "rope_scaling");
}

static lgg_status mistral3_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    if (st) return st;
    const json_t *mt = json_object_get(c->config, "model_type");
    if (json_is_string(mt) && !strcmp(json_string_value(mt), "mistral4"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: model_type mistral4 (Mistral 4), which llama.cpp master converts as "
                            "DeepSeek V2's latent attention (mistral4); this converter does not yet", c->dir);
    if (!is_ministral3(c)) return LGG_OK;
    const json_t *rp = rope_params(c), *ty = json_object_get(rp, "rope_type");
    if (!json_is_object(rp) || !json_object_size(rp) || !json_is_string(ty) || strcmp(json_string_value(ty), "yarn"))
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: a ministral3 model needs rope_parameters with rope_type \"yarn\" (llama.cpp "
                            "master asserts it)", c->dir);
    static const char *const NEED[] = {"mscale_all_dim", "llama_4_scaling_beta"};
    for (int k = 0; k < 2; k++)
        if (!json_is_number(json_object_get(rp, NEED[k])))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_parameters.%s' is missing or not a number",
                                c->dir, NEED[k]);
    return LGG_OK;
}

static lgg_status put_f32(lgg_convert *c, const char *key, const char *field, lgg_error *err) {
    char k[160];
    snprintf(k, sizeof k, "%s.%s", c->fam->arch, key);
    if (lgg_writer_set_f32(c->w, k, (float)json_number_value(json_object_get(rope_params(c), field)), NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", k);
    return LGG_OK;
}

/* Ministral3Model.set_gguf_parameters after llama's (init checked both numbers). */
static lgg_status mistral3_meta(lgg_convert *c, lgg_error *err) {
    if (!is_ministral3(c)) return LGG_OK;
    lgg_status st = put_f32(c, "rope.scaling.yarn_log_multiplier", "mscale_all_dim", err);
    return st ? st : put_f32(c, "attention.temperature_scale", "llama_4_scaling_beta", err);
}

const cv_hooks lgg__cv_hooks_mistral3 = {mistral3_init, lgg__cv_master_llama_name, NULL, mistral3_meta, NULL, NULL};
