/* master.c -- what llama.cpp master's converter (3f545becc) writes that
 * b4747's did not, for a conversion whose target is master
 * (lgg_convert_options.target): the sampling defaults of
 * generation_config.json as general.sampling.*, and master's reading of
 * rope_scaling (rope_parameters) in its base parameters. */
#include "cvint.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static lgg_status wset(lgg_status st, const char *key, lgg_error *err) {
    return st ? lgg__cv_fail(err, st, "cannot set metadata key '%s'", key) : LGG_OK;
}

/* generation_config.json's field, its key, and the type master writes it as. */
static const struct {
    const char *field, *key;
    char type; /* 's' string, 'i' i32, 'f' f32 */
} SAMPLING[] = {
    {"sequence", "general.sampling.sequence", 's'},
    {"top_k", "general.sampling.top_k", 'i'},
    {"top_p", "general.sampling.top_p", 'f'},
    {"min_p", "general.sampling.min_p", 'f'},
    {"xtc_probability", "general.sampling.xtc_probability", 'f'},
    {"xtc_threshold", "general.sampling.xtc_threshold", 'f'},
    {"temperature", "general.sampling.temp", 'f'},
    {"penalty_last_n", "general.sampling.penalty_last_n", 'i'},
    {"penalty_repeat", "general.sampling.penalty_repeat", 'f'},
    {"mirostat", "general.sampling.mirostat", 'i'},
    {"mirostat_tau", "general.sampling.mirostat_tau", 'f'},
    {"mirostat_eta", "general.sampling.mirostat_eta", 'f'},
};

/* One sampling value: a null (or absent) one is not written; a value of
 * another JSON type than the key's is refused (master would write it
 * mistyped or fail). */
static lgg_status sampling_one(lgg_convert *c, size_t k, const json_t *v, lgg_error *err) {
    const char *key = SAMPLING[k].key;
    if (!v || json_is_null(v)) return LGG_OK;
    if (SAMPLING[k].type == 's' && json_is_string(v)) return wset(lgg_writer_set_str(c->w, key, json_string_value(v), NULL), key, err);
    if (SAMPLING[k].type == 'i' && json_is_integer(v) && json_integer_value(v) >= INT32_MIN && json_integer_value(v) <= INT32_MAX) {
        int32_t i = (int32_t)json_integer_value(v);
        lgg_wvalue w = {LGG_VT_I32, 0, 1, &i};
        return wset(lgg_writer_set(c->w, key, strlen(key), &w, NULL), key, err);
    }
    if (SAMPLING[k].type == 'f' && json_is_number(v))
        return wset(lgg_writer_set_f32(c->w, key, (float)json_number_value(v), NULL), key, err);
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/generation_config.json: key '%s' is not a %s", c->dir, SAMPLING[k].field,
                        SAMPLING[k].type == 's' ? "string" : SAMPLING[k].type == 'i' ? "32-bit integer" : "number");
}

lgg_status lgg__cv_master_sampling(lgg_convert *c, lgg_error *err) {
    json_t *g = NULL;
    lgg_status st = lgg__cv_json(c, "generation_config.json", 0, &g, err);
    if (st == LGG_ERR_INVALID) return LGG_OK; /* master reads a malformed file as none */
    for (size_t k = 0; !st && json_is_object(g) && k < sizeof SAMPLING / sizeof SAMPLING[0]; k++)
        st = sampling_one(c, k, json_object_get(g, SAMPLING[k].field), err);
    json_decref(g);
    return st;
}

static lgg_status rope_f32(lgg_convert *c, const json_t *rp, const char *fields, const char *name, lgg_error *err) {
    char key[160], which[64];
    const json_t *v = lgg__cv_first_key(rp, fields, which, sizeof which);
    if (!v) return LGG_OK;
    if (!json_is_number(v))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.%s' is not a number", c->dir, which);
    snprintf(key, sizeof key, "%s.rope.scaling.%s", c->fam->arch, name);
    return wset(lgg_writer_set_f32(c->w, key, (float)json_number_value(v), NULL), key, err);
}

/* yarn's original context: rope_scaling's, else config.json's own. */
static lgg_status yarn_ctx(lgg_convert *c, const json_t *rp, lgg_error *err) {
    const json_t *v = json_object_get(rp, "original_max_position_embeddings");
    if (!v) v = json_object_get(c->config, "original_max_position_embeddings");
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: key 'rope_scaling.original_max_position_embeddings' is missing or not a count", c->dir);
    char key[160];
    snprintf(key, sizeof key, "%s.rope.scaling.original_context_length", c->fam->arch);
    return wset(lgg_writer_set_u32(c->w, key, (uint32_t)json_integer_value(v), NULL), key, err);
}

lgg_status lgg__cv_master_rope(lgg_convert *c, lgg_error *err) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!rp) rp = json_object_get(c->config, "rope_scaling");
    if (!json_is_object(rp)) return LGG_OK;
    if (json_is_object(json_object_get(rp, "full_attention"))) rp = json_object_get(rp, "full_attention");
    char which[64], key[160];
    const json_t *ty = lgg__cv_first_key(rp, "rope_type|type", which, sizeof which), *f = lgg__cv_first_key(rp, "factor", key, sizeof key);
    const char *type = json_is_string(ty) ? json_string_value(ty) : "";
    const char *gguf = !strcmp(type, "su") || !strcmp(type, "longrope") ? "longrope"
                       : (!strcmp(type, "linear") || !strcmp(type, "yarn")) && f ? type : NULL;
    if (!gguf) return LGG_OK;
    snprintf(key, sizeof key, "%s.rope.scaling.type", c->fam->arch);
    lgg_status st = wset(lgg_writer_set_str(c->w, key, gguf, NULL), key, err);
    if (!st && strcmp(gguf, "longrope")) st = rope_f32(c, rp, "factor", "factor", err);
    if (st || strcmp(gguf, "yarn")) return st;
    if (!(st = yarn_ctx(c, rp, err))) st = rope_f32(c, rp, "extrapolation_factor", "yarn_ext_factor", err);
    if (!st) st = rope_f32(c, rp, "attention_factor|attn_factor", "yarn_attn_factor", err);
    if (!st) st = rope_f32(c, rp, "beta_fast", "yarn_beta_fast", err);
    if (!st) st = rope_f32(c, rp, "beta_slow", "yarn_beta_slow", err);
    return st;
}
