/* master.c -- what llama.cpp master's converter (3f545becc) writes that
 * b4747's did not, for a conversion whose target is master
 * (lgg_convert_options.target): the sampling defaults of
 * generation_config.json as general.sampling.*, and master's reading of
 * rope_scaling (rope_parameters) and of the global and sliding-window rope
 * thetas in its base parameters. */
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

/* rope_parameters' mrope_section as rope.dimension_sections: 4 i32, padded
 * with 0 (master writes it after the scaling keys). */
static lgg_status mrope_sections(lgg_convert *c, const json_t *rp, lgg_error *err) {
    const json_t *ms = json_object_get(rp, "mrope_section");
    if (!ms) return LGG_OK;
    int32_t v[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < json_array_size(ms) && i < 4; i++) {
        const json_t *e = json_array_get(ms, i);
        if (!json_is_integer(e) || json_integer_value(e) < INT32_MIN || json_integer_value(e) > INT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rope 'mrope_section' is not a list of integers", c->dir);
        v[i] = (int32_t)json_integer_value(e);
    }
    if (!json_is_array(ms))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rope 'mrope_section' is not a list of integers", c->dir);
    char key[160];
    snprintf(key, sizeof key, "%s.rope.dimension_sections", c->fam->arch);
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_I32, 4, v};
    return wset(lgg_writer_set(c->w, key, strlen(key), &w, NULL), key, err);
}

static lgg_status master_scaling(lgg_convert *c, const json_t *rp, lgg_error *err);

lgg_status lgg__cv_master_rope(lgg_convert *c, lgg_error *err) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!rp) rp = json_object_get(c->config, "rope_scaling");
    if (!json_is_object(rp)) return LGG_OK;
    lgg_status st = master_scaling(c, rp, err);
    return st ? st : mrope_sections(c, rp, err);
}

/* The scaling keys of rope_parameters (its full_attention's when it has one). */
static lgg_status master_scaling(lgg_convert *c, const json_t *rp, lgg_error *err) {
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

/* master's find_hparam: the first of `keys` ('|' separated) config.json
 * has, even when its value is null. */
static const json_t *first_present(const json_t *obj, const char *keys) {
    char k[64];
    for (const char *p = keys; *p;) {
        size_t l = strcspn(p, "|");
        snprintf(k, sizeof k, "%.*s", (int)l, p);
        const json_t *v = json_object_get(obj, k);
        if (v) return v;
        p += l + (p[l] == '|');
    }
    return NULL;
}

/* TextModel.__init__'s rope_parameters: config.json's rope_parameters (else
 * rope_scaling) when a non-empty object; the global and sliding-window
 * thetas mirrored into it from config.json's keys when it has neither
 * full_attention nor sliding_attention. */
int lgg__cv_master_theta(const lgg_convert *c, int swa, const json_t **v) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!rp) rp = json_object_get(c->config, "rope_scaling");
    if (!json_is_object(rp)) rp = NULL;
    *v = NULL;
    if (rp && (json_object_get(rp, "full_attention") || json_object_get(rp, "sliding_attention"))) {
        const json_t *sub = json_object_get(rp, swa ? "sliding_attention" : "full_attention");
        if (!swa && !sub) sub = rp;
        *v = json_object_get(sub, "rope_theta");
    } else if (swa) {
        *v = first_present(c->config, "local_rope_theta|rope_local_theta|rope_theta_local|swa_rope_theta|rope_local_base_freq");
    } else {
        *v = rp ? json_object_get(rp, "rope_theta") : NULL;
        if (!*v) *v = first_present(c->config, "global_rope_theta|rope_global_theta|rope_theta_global|rope_theta|rotary_emb_base");
    }
    if (*v && json_is_null(*v)) *v = NULL;
    return *v != NULL;
}

lgg_status lgg__cv_master_theta_key(lgg_convert *c, const char *key, int swa, lgg_error *err) {
    const json_t *v;
    if (!lgg__cv_master_theta(c, swa, &v)) return LGG_OK;
    if (!json_is_number(v))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the %s rope theta is not a number", c->dir,
                            swa ? "sliding-window" : "global");
    return wset(lgg_writer_set_f32(c->w, key, (float)json_number_value(v), NULL), key, err);
}

/* Python's truth of a JSON value (None, "", {}, [] and false are false). */
static int truthy(const json_t *v) {
    if (!v || json_is_null(v) || json_is_false(v)) return 0;
    if (json_is_string(v)) return json_string_length(v) > 0;
    if (json_is_object(v)) return json_object_size(v) > 0;
    if (json_is_array(v)) return json_array_size(v) > 0;
    return 1;
}

int lgg__cv_py_truthy(const json_t *v) {
    if (!v || json_is_null(v) || json_is_false(v)) return 0;
    if (json_is_integer(v)) return json_integer_value(v) != 0;
    if (json_is_real(v)) return json_real_value(v) != 0;
    return truthy(v);
}

static int same(const json_t *a, const json_t *b) { return a && b && json_equal(a, b); }

/* Element i of a template (negative: from the end): its SpecialToken's or Sequence's id. */
static const json_t *tmpl_id(const json_t *tmpl, long i, const char *kind) {
    long n = (long)json_array_size(tmpl);
    if (i < 0) i += n;
    return i < 0 || i >= n ? NULL : json_object_get(json_object_get(json_array_get(tmpl, (size_t)i), kind), "id");
}

static void add_flag(cv_master_add *a, int k, int v) {
    int i = 0;
    while (i < a->n && a->order[i] != k) i++;
    if (i == a->n) a->order[a->n++] = k;
    a->val[k] = v;
}

/* tokenizer_config.json's X_token set to v (tc is the working copy; none: not kept). */
static const json_t *tc_set(json_t *tc, const char *key, const json_t *v) {
    if (tc) json_object_set(tc, key, v ? (json_t *)v : json_null());
    return tc ? json_object_get(tc, key) : v;
}

/* TemplateProcessing's pair template between its A and B: whether a
 * separator is added. */
static void pair_sep(const json_t *pair, const json_t *first, const json_t *last, json_t *tc, const json_t **sep,
                     const json_t *eos, cv_master_add *a) {
    long n = (long)json_array_size(pair);
    long lo = first && same(tmpl_id(pair, 0, "SpecialToken"), first) ? 1 : 0;
    long hi = last && same(tmpl_id(pair, -1, "SpecialToken"), last) ? n - 1 : n;
    if (hi - lo < 1) return;
    const json_t *sa = json_object_get(json_object_get(json_array_get(pair, (size_t)lo), "Sequence"), "id");
    const json_t *sb = json_object_get(json_object_get(json_array_get(pair, (size_t)(hi - 1)), "Sequence"), "id");
    if (!json_is_string(sa) || strcmp(json_string_value(sa), "A") || !json_is_string(sb) || strcmp(json_string_value(sb), "B") ||
        hi - lo - 2 < 1)
        return;
    int add = 0;
    const json_t *e = json_object_get(json_object_get(json_array_get(pair, (size_t)(lo + 1)), "SpecialToken"), "id");
    if (truthy(e) && (same(e, *sep) || same(e, eos)) && !truthy(last)) add = 1;
    if (hi - lo - 2 == 2) {
        e = json_object_get(json_object_get(json_array_get(pair, (size_t)(lo + 2)), "SpecialToken"), "id");
        if (truthy(e) && (same(e, *sep) || same(e, eos))) add = 1;
    }
    add_flag(a, 2, add);
    if (add && !truthy(*sep) && tc) *sep = tc_set(tc, "sep_token", eos);
}

/* TemplateProcessing's single template: BOS and EOS added, and the tokens
 * it names as tokenizer_config.json's when that names others. */
static void template_single(const json_t *single, json_t *tc, const json_t **bos, const json_t **cls, const json_t **eos,
                            int *eot, cv_master_add *a, const json_t **first, const json_t **last) {
    *first = *last = NULL;
    if (json_array_size(single) <= 1) return;
    const json_t *f = tmpl_id(single, 0, "SpecialToken"), *l = tmpl_id(single, -1, "SpecialToken");
    if (truthy(f)) {
        *first = f;
        if (!tc) *bos = f;
        else if (!same(f, *bos) && !same(f, *cls)) {
            if (!truthy(*bos)) *bos = tc_set(tc, "bos_token", f);
            if (!truthy(*cls)) *cls = tc_set(tc, "cls_token", f);
        }
        add_flag(a, 0, same(f, *bos) || same(f, *cls));
    }
    if (truthy(l)) {
        *last = l;
        if (!tc) *eos = l;
        else if (!same(l, *eos)) {
            if (!*eot) *eot = 1, tc_set(tc, "eot_token", *eos);
            *eos = tc_set(tc, "eos_token", l);
        }
        add_flag(a, 1, same(l, *eos));
    }
}

void lgg__cv_master_post(const json_t *tj, json_t *tc, cv_master_add *a, int *eot) {
    const json_t *bos = json_object_get(tc, "bos_token"), *cls = json_object_get(tc, "cls_token");
    const json_t *eos = json_object_get(tc, "eos_token"), *sep = json_object_get(tc, "sep_token");
    if (!truthy(tc)) tc = NULL;
    if (!truthy(bos) && truthy(cls) && tc) bos = tc_set(tc, "bos_token", cls);
    if (!truthy(eos) && truthy(sep) && tc) eos = tc_set(tc, "eos_token", sep);
    const json_t *post = json_object_get(tj, "post_processor");
    if (!truthy(post)) return;
    const json_t *list = json_object_get(post, "processors");
    size_t n = list ? json_array_size(list) : 1;
    for (size_t i = 0; i < n; i++) {
        const json_t *p = list ? json_array_get(list, i) : post;
        const json_t *ty = json_object_get(p, "type");
        const char *type = json_is_string(ty) ? json_string_value(ty) : "";
        if (!strcmp(type, "RobertaProcessing")) {
            add_flag(a, 0, 1), add_flag(a, 1, 1), add_flag(a, 2, 1);
            const json_t *pc = json_object_get(p, "cls"), *ps = json_object_get(p, "sep");
            if (!truthy(cls) && tc) cls = tc_set(tc, "cls_token", pc ? json_array_get(pc, 0) : bos);
            if (!truthy(sep) && tc) sep = tc_set(tc, "sep_token", ps ? json_array_get(ps, 0) : eos);
        } else if (!strcmp(type, "TemplateProcessing")) {
            const json_t *first, *last;
            template_single(json_object_get(p, "single"), tc, &bos, &cls, &eos, eot, a, &first, &last);
            const json_t *pair = json_object_get(p, "pair");
            if (json_array_size(pair)) pair_sep(pair, first, last, tc, &sep, eos, a);
        }
    }
}

/* master's rope parameters: rope_parameters, else rope_scaling (a null one
 * is none). */
const json_t *lgg__cv_master_rope_params(const lgg_convert *c) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!rp) rp = json_object_get(c->config, "rope_scaling");
    return json_is_object(rp) ? rp : NULL;
}

lgg_status lgg__cv_master_rope_dim(lgg_convert *c, lgg_error *err) { return lgg__cv_partial_rope_dim(c, 0.5, err); }

lgg_status lgg__cv_partial_rope_dim(lgg_convert *c, double dflt, lgg_error *err) {
    const json_t *rp = lgg__cv_master_rope_params(c);
    char which[64];
    const json_t *p = json_object_get(rp, "partial_rotary_factor");
    if (!p && !json_object_get(rp, "full_attention") && !json_object_get(rp, "sliding_attention"))
        p = lgg__cv_first_key(c->config, "partial_rotary_factor|rope_pct|rope_percent", which, sizeof which);
    if (p && (!json_is_number(p) || json_number_value(p) < 0 || json_number_value(p) > 1))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: partial_rotary_factor is not a number from 0 to 1", c->dir);
    double f = p ? json_number_value(p) : dflt;
    int64_t dim = lgg__cv_hparam_int(c, "head_dim", -1);
    if (!json_object_get(c->config, "head_dim") || json_is_null(json_object_get(c->config, "head_dim"))) {
        int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1), n = lgg__cv_hparam_int(c, "num_attention_heads", -1);
        dim = h >= 0 && lgg__cv_heads_ok(n) ? h / n : -1;
    }
    if (dim < 0 || dim > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: key 'head_dim' (or hidden_size and num_attention_heads) missing or not a count", c->dir);
    json_t *v = json_integer((json_int_t)((double)dim * f));
    if (!v || json_object_set_new(c->config, "lgg.rope_dim", v))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

lgg_status lgg__cv_master_nextn_blocks(lgg_convert *c, lgg_error *err) {
    const json_t *nl = json_object_get(c->config, "num_hidden_layers"), *nx = json_object_get(c->config, "num_nextn_predict_layers");
    if (!json_is_integer(nl) || json_integer_value(nl) < 0 || json_integer_value(nl) > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_hidden_layers' is missing or not a count", c->dir);
    if (nx && (!json_is_integer(nx) || json_integer_value(nx) < 0 || json_integer_value(nx) > (1 << 20)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_nextn_predict_layers' is not a count", c->dir);
    json_t *sum = json_integer(json_integer_value(nl) + (nx ? json_integer_value(nx) : 0));
    if (!sum || json_object_set_new(c->config, "num_hidden_layers", sum))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* The special-token ids a thinker's text_config brought that config.json's
 * top level lacks made null: gguf-py's SpecialVocab reads the file (its
 * top level, then its own text_config), where they are not. */
static lgg_status thinker_text(lgg_convert *c, json_t *th, lgg_error *err) {
    static const char *const ID[] = {"bos_token_id", "eos_token_id", "unk_token_id", "sep_token_id",
                                     "pad_token_id", "cls_token_id", "mask_token_id"};
    json_t *tc = json_is_object(th) ? json_object_get(th, "text_config") : NULL;
    if (!tc)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'thinker_config' is not an object with a 'text_config'",
                            c->dir);
    for (size_t i = 0; i < sizeof ID / sizeof ID[0] && json_is_object(tc); i++)
        if (!json_object_get(c->config, ID[i]) && json_object_get(tc, ID[i]) && json_object_set_new(tc, ID[i], json_null()))
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return json_object_set(c->config, "text_config", tc) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* Master's load_hparams: a thinker_config's text_config is the text_config
 * (Qwen2.5-Omni, Qwen3-Omni, Qwen3-ASR); its TextModel.__init__: hparams =
 * {**config, **config["text_config"]}. */
lgg_status lgg__cv_master_text_config(lgg_convert *c, lgg_error *err) {
    json_t *th = json_object_get(c->config, "thinker_config");
    lgg_status st = th ? thinker_text(c, th, err) : LGG_OK;
    if (st) return st;
    json_t *tc = json_object_get(c->config, "text_config");
    if (!json_is_object(tc)) return LGG_OK;
    json_incref(tc);
    int bad = json_object_update(c->config, tc) != 0;
    json_decref(tc);
    return bad ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

int lgg__cv_master_multimodal(const char *hf) {
    static const char *const PREFIX[] = {"mlp", "vit.", "vpm.", "siglip2.", "conformer.", "merger.", "resampler.",
                                         "sound_encoder.", "sound_projection.", "speech_embeddings."};
    static const char *const PART[] = {"visual.", "vision.", "audio.", "talker.", "vision_", "audio_", "token2wav.",
                                       "code2wav.", "projector.", "pre_mm_projector_norm", "image_newline",
                                       "view_seperator", "patch_embed", "patch_embedding", "patch_merger.",
                                       "patch_merge_mlp.", "model.connector."};
    for (size_t i = 0; i < sizeof PREFIX / sizeof PREFIX[0]; i++)
        if (starts(hf, PREFIX[i])) return 1;
    for (size_t i = 0; i < sizeof PART / sizeof PART[0]; i++)
        if (strstr(hf, PART[i])) return 1;
    return 0;
}

size_t lgg__cv_master_strip(const char *hf, const char *part, char *out, size_t o, size_t cap) {
    size_t n = strlen(part);
    for (const char *p = hf; *p && o < cap;) {
        if (!strncmp(p, part, n)) {
            p += n;
            continue;
        }
        out[o++] = *p++;
    }
    if (o >= cap) return 0;
    out[o] = 0;
    return o;
}

/* sentence-transformers' pooling module (modules.json's *Pooling entry,
 * its config.json) as <arch>.pooling_type: mean 1, cls 2, last token 3. */
lgg_status lgg__cv_master_pooling(lgg_convert *c, lgg_error *err) {
    json_t *mods = NULL, *pc = NULL;
    lgg_status st = lgg__cv_json_value(c, "modules.json", 0, &mods, err);
    const char *path = NULL;
    size_t i;
    const json_t *m;
    json_array_foreach(st ? NULL : mods, i, m) {
        const char *ty = json_string_value(json_object_get(m, "type"));
        size_t n = ty ? strlen(ty) : 0;
        if (n >= 7 && !strcmp(ty + n - 7, "Pooling")) {
            path = json_string_value(json_object_get(m, "path"));
            break;
        }
    }
    char name[512];
    if (!st && path && (path[0] == '/' || strstr(path, "..") || (size_t)snprintf(name, sizeof name, "%s/config.json", path) >= sizeof name))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/modules.json: the pooling module's path '%.100s' is not a folder of the checkpoint",
                          c->dir, path);
    if (!st && path) st = lgg__cv_json(c, name, 1, &pc, err);
    if (!st && path) {
        static const char *const MODE[] = {"pooling_mode_mean_tokens", "pooling_mode_cls_token", "pooling_mode_lasttoken"};
        static const char *const NAME[] = {"mean", "cls", "lasttoken"};
        const json_t *mode = json_object_get(pc, "pooling_mode");
        uint32_t type = 0;
        for (uint32_t k = 0; k < 3 && !type; k++) {
            const json_t *v = json_object_get(pc, MODE[k]);
            if (v && !json_is_null(v) && !json_is_false(v) && !(json_is_number(v) && json_number_value(v) == 0)) type = k + 1;
        }
        for (uint32_t k = 0; k < 3 && !type; k++)
            if (json_is_string(mode) && !strcmp(json_string_value(mode), NAME[k])) type = k + 1;
        char key[160];
        snprintf(key, sizeof key, "%s.pooling_type", c->fam->arch);
        if (!type)
            st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: only mean, CLS and last-token pooling are converted", c->dir, name);
        else if (lgg_writer_set_u32(c->w, key, type, NULL))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key);
    }
    json_decref(pc);
    json_decref(mods);
    return st;
}

int lgg__cv_master_text_name(const char *hf, char *out, size_t cap) {
    return !lgg__cv_master_multimodal(hf) && lgg__cv_master_strip(hf, "language_model.", out, 0, cap) != 0;
}

int lgg__cv_master_llama_name(const char *hf, char *out, size_t cap) {
    char tmp[512];
    if (!lgg__cv_master_strip(hf, "text_model.", tmp, 0, sizeof tmp) || lgg__cv_master_multimodal(tmp)) return 0;
    return lgg__cv_master_strip(tmp, "language_model.", out, 0, cap) != 0;
}
