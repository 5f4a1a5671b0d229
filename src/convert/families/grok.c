/* grok.c -- what llama.cpp master's GrokModel does beyond the shared
 * tables (GrokForCausalLM under --target master, Grok1ForCausalLM): after
 * master's base keys, the softcapping of attention and router logits (30
 * when config.json has none) and of the final logits, the experts' width,
 * yarn rope scaling from top-level keys (rope_type "yarn" or "original"),
 * the attention temperature length, the attention output scale (head
 * size^-0.5 when config.json has none), the embedding and logit scales.
 * Its vocabulary: tokenizer.model, else tokenizer.json with a
 * chat_template.jinja beside it (master refuses a folder without both). */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* config.json's number `key`: *v, 1 when present (0 absent); a present
 * non-number, or for a count one outside 0..2^32-1, fails. */
static int number(lgg_convert *c, const char *key, int count, double *v, lgg_status *st, lgg_error *err) {
    const json_t *j = json_object_get(c->config, key);
    if (*st || !j || json_is_null(j)) return 0;
    *v = json_number_value(j);
    if (!json_is_number(j) || (count && (*v < 0 || *v > UINT32_MAX || *v != floor(*v)))) {
        *st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a %s", c->dir, key, count ? "count" : "number");
        return 0;
    }
    return 1;
}

static lgg_status required(lgg_convert *c, const char *key, double *v, lgg_error *err) {
    lgg_status st = LGG_OK;
    if (!number(c, key, 0, v, &st, err) && !st)
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing", c->dir, key);
    return st;
}

static lgg_status grok_init(lgg_convert *c, lgg_error *err) {
    if (!c->master || lgg__cv_exists(c, "tokenizer.model", NULL)) return LGG_OK;
    if (!lgg__cv_exists(c, "tokenizer.json", NULL) || !lgg__cv_exists(c, "chat_template.jinja", NULL))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: no tokenizer.model, nor tokenizer.json with chat_template.jinja (Grok 2's "
                            "are in alvarobartt/grok-2-tokenizer)", c->dir);
    return LGG_OK;
}

/* rope_type "yarn" or "original" (master takes the second for the first):
 * the scaling keys from the top level of config.json, all required. */
static lgg_status yarn(lgg_convert *c, lgg_error *err) {
    static const char *const FROM[6] = {"scaling_factor", "original_max_position_embeddings", "extrapolation_factor",
                                        "attn_factor", "beta_fast", "beta_slow"};
    static const char *const KEY[6] = {"rope.scaling.factor", "rope.scaling.original_context_length", "rope.scaling.yarn_ext_factor",
                                       "rope.scaling.yarn_attn_factor", "rope.scaling.yarn_beta_fast", "rope.scaling.yarn_beta_slow"};
    char key[96];
    snprintf(key, sizeof key, "%s.rope.scaling.type", c->fam->arch);
    if (lgg_writer_set_str(c->w, key, "yarn", NULL)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    lgg_status st = LGG_OK;
    for (int k = 0; k < 6 && !st; k++) {
        double v = 0;
        st = required(c, FROM[k], &v, err);
        if (!st && k == 1 && (v < 0 || v > UINT32_MAX || v != floor(v)))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a count", c->dir, FROM[k]);
        if (!st) st = k == 1 ? lgg__cv_put_arch_u32(c, KEY[k], (uint32_t)v, err) : lgg__cv_put_arch_f32(c, KEY[k], v, err);
    }
    return st;
}

static lgg_status grok_meta(lgg_convert *c, lgg_error *err) {
    if (!c->master) return LGG_OK;
    lgg_status st = LGG_OK;
    double v = 30.0, w = 30.0, rope_dim;
    number(c, "attn_logit_softcapping", 0, &v, &st, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "attn_logit_softcapping", v, err);
    number(c, "router_logit_softcapping", 0, &w, &st, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "router_logit_softcapping", w, err);
    if (number(c, "final_logit_softcapping", 0, &v, &st, err) && v != 0) st = lgg__cv_put_arch_f32(c, "final_logit_softcapping", v, err);
    int64_t hd = lgg__cv_hparam_int(c, "head_dim", -1), h = lgg__cv_hparam_int(c, "hidden_size", -1),
            nh = lgg__cv_hparam_int(c, "num_attention_heads", -1);
    if (!st && hd < 0 && (h < 0 || !lgg__cv_heads_ok(nh)))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: no head_dim, nor hidden_size and num_attention_heads", c->dir);
    rope_dim = hd >= 0 ? (double)hd : (double)(h / nh);
    if (number(c, "moe_intermediate_size", 1, &v, &st, err)) st = lgg__cv_put_arch_u32(c, "expert_feed_forward_length", (uint32_t)v, err);
    const char *rt = json_string_value(json_object_get(c->config, "rope_type"));
    if (!st && rt && (!strcmp(rt, "yarn") || !strcmp(rt, "original"))) st = yarn(c, err);
    if (number(c, "attn_temperature_len", 1, &v, &st, err) && v != 0) st = lgg__cv_put_arch_u32(c, "attention.temperature_length", (uint32_t)v, err);
    v = pow(rope_dim, -0.5);
    number(c, "attn_output_multiplier", 0, &v, &st, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "attention.output_scale", v, err);
    if (!st) st = required(c, "embedding_multiplier_scale", &v, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "embedding_scale", v, err);
    if (!st) st = required(c, "output_multiplier_scale", &v, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "logit_scale", v, err);
    return st;
}

const cv_hooks lgg__cv_hooks_grok = {grok_init, NULL, NULL, grok_meta, NULL, NULL};
