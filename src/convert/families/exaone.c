/* exaone.c -- what Exaone does in code in the reference converter:
 * its activation checked and its defaults; EXAONE 4 (llama.cpp master's
 * Exaone4Model, which only master converts): its per-layer sliding-window
 * pattern and llama 3's rope factors read from master's rope parameters. */
#include "../cvint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Exaone: SiLU only (the reference asserts it); the feed-forward length
 * 4 * hidden_size and the rotary fraction 1 when config.json has none. */
static lgg_status exaone_init(lgg_convert *c, lgg_error *err) {
    const char *act = json_string_value(json_object_get(c->config, "activation_function"));
    if (!act || strcmp(act, "silu"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: key 'activation_function' must be \"silu\"", c->dir);
    int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1);
    int bad = 0;
    if (!json_object_get(c->config, "intermediate_size") && h >= 0 && h <= INT64_MAX / 4)
        bad |= json_object_set_new(c->config, "intermediate_size", json_integer(4 * h));
    if (!lgg__cv_first_key(c->config, "partial_rotary_factor|rope_pct", NULL, 0))
        bad |= json_object_set_new(c->config, "partial_rotary_factor", json_real(1.0));
    return bad ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

const cv_hooks lgg__cv_hooks_exaone = {exaone_init, NULL, NULL, NULL, NULL, NULL};

/* EXAONE 4's attention.sliding_window_pattern (with a sliding_window): one
 * bool per entry of layer_types (is it "sliding_attention"), else per layer
 * from sliding_window_pattern, a string ('L' a sliding layer, repeated) or a
 * period (every period-th layer global); nothing for another type. */
static lgg_status exaone4_meta(lgg_convert *c, lgg_error *err) {
    if (!lgg__cv_first_key(c->config, "sliding_window", NULL, 0)) return LGG_OK;
    const json_t *lt = json_object_get(c->config, "layer_types"), *sp = json_object_get(c->config, "sliding_window_pattern");
    int64_t nl = lgg__cv_hparam_int(c, json_object_get(c->config, "lgg.main_layers") ? "lgg.main_layers" : "num_hidden_layers", -1);
    size_t n = json_is_array(lt) ? json_array_size(lt) : nl >= 0 && nl <= (1 << 20) ? (size_t)nl : 0;
    if (!lt && !(json_is_string(sp) || json_is_integer(sp))) return LGG_OK;
    if (lt && !json_is_array(lt))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'layer_types' is not a list", c->dir);
    if (!lt && ((json_is_string(sp) && !json_string_length(sp)) || (json_is_integer(sp) && json_integer_value(sp) == 0)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window_pattern' is empty or 0", c->dir);
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const char *t = json_string_value(json_array_get(lt, i));
        if (lt) b[i] = t && !strcmp(t, "sliding_attention");
        else if (json_is_string(sp)) b[i] = json_string_value(sp)[i % json_string_length(sp)] == 'L';
        else b[i] = (i + 1) % (uint64_t)llabs((long long)json_integer_value(sp)) != 0; /* Python: the sign does not matter */
    }
    char key[96];
    snprintf(key, sizeof key, "%s.attention.sliding_window_pattern", c->fam->arch);
    lgg_wvalue v = {LGG_VT_ARRAY, LGG_VT_BOOL, n, b};
    lgg_status st = lgg_writer_set(c->w, key, (uint32_t)strlen(key), &v, NULL);
    free(b);
    return st ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

static double num_or(const json_t *o, const char *key, double dflt) {
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* rope_freqs when master's rope parameters (rope_parameters, else
 * rope_scaling; their full_attention part when there is one) are llama3's:
 * the theta master holds for the global layers (10000 without), factor 16,
 * the original context 8192 unless given (there, else config.json's own). */
static lgg_status exaone4_generated(lgg_convert *c, lgg_error *err) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!json_is_object(rp)) rp = json_object_get(c->config, "rope_scaling");
    if (!json_is_object(rp)) return LGG_OK;
    int mirrored = !json_object_get(rp, "full_attention") && !json_object_get(rp, "sliding_attention");
    const json_t *full = json_object_get(rp, "full_attention") ? json_object_get(rp, "full_attention") : rp;
    const json_t *rt = json_object_get(full, "rope_type");
    if (!json_is_object(full) || !json_is_string(rt) || strcasecmp(json_string_value(rt), "llama3")) return LGG_OK;
    const json_t *theta = NULL;
    if (lgg__cv_master_theta(c, 0, &theta) && !json_is_number(theta))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the rope theta is not a number", c->dir);
    double old = num_or(full, "original_max_position_embeddings",
                        mirrored ? num_or(c->config, "original_max_position_embeddings", 8192) : 8192);
    float *f = NULL;
    uint64_t n = 0;
    lgg_status st = lgg__cv_llama3_freqs(c, full, theta ? json_number_value(theta) : 10000.0, num_or(full, "factor", 16.0), old,
                                         &f, &n, err);
    if (st || !f) return st;
    if ((st = lgg__cv_add_generated(c, "rope_freqs.weight", f, n, err)) != LGG_OK) free(f);
    return st;
}

const cv_hooks lgg__cv_hooks_exaone4 = {NULL, NULL, NULL, exaone4_meta, NULL, exaone4_generated};

/* EXAONE MoE (master's ExaoneMoEModel over Exaone4Model): EXAONE 4's keys,
 * then these (lgg.*: exaonemoe_init's), the rope scaling type "none" last. */
static const cv_mkey EXAONEMOE_TAIL[] = {
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_count", "num_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_feed_forward_length", "lgg.shexp_ff", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, CV_M_REQUIRED},
    {"expert_weights_norm", "norm_topk_prob", CV_M_BOOL, CV_M_REQUIRED},
    {"leading_dense_block_count", "lgg.leading", CV_M_U32, CV_M_REQUIRED},
    {"nextn_predict_layers", "lgg.nextn", CV_M_U32, CV_M_REQUIRED},
    {"rope.scaling.type", "none", CV_M_STR, 0},
    {NULL, NULL, 0, 0},
};

/* A count of config.json: absent, dflt; null or another type, -1. */
static int64_t count_of(const lgg_convert *c, const char *key, int64_t dflt) {
    const json_t *v = json_object_get(c->config, key);
    if (!v) return dflt;
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 30) ? json_integer_value(v) : -1;
}

/* The main blocks (lgg.main_layers) and the next-token-prediction ones
 * (lgg.nextn, counted in num_hidden_layers as master's block count); more
 * than one is refused. */
static lgg_status mtp_blocks(lgg_convert *c, int64_t nh, int64_t nx, lgg_error *err) {
    if (nx > 1)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: %lld next-token-prediction layers: llama.cpp master writes the shared MTP "
                            "tensors once per layer, which this converter does not yet (one layer converts)", c->dir, (long long)nx);
    if (json_object_set_new(c->config, "lgg.main_layers", json_integer(nh)) ||
        json_object_set_new(c->config, "lgg.nextn", json_integer(nx)) ||
        json_object_set_new(c->config, "num_hidden_layers", json_integer(nh + nx)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* The MTP blocks (mtp_blocks), the leading dense blocks (first_k_dense_replace,
 * else first_last_k_dense_replace, else 0) and the shared experts' width. */
static lgg_status exaonemoe_init(lgg_convert *c, lgg_error *err) {
    int64_t nh = count_of(c, "num_hidden_layers", -1), nx = count_of(c, "num_nextn_predict_layers", 0);
    int64_t lead = json_object_get(c->config, "first_k_dense_replace") ? count_of(c, "first_k_dense_replace", -1)
                                                                          : count_of(c, "first_last_k_dense_replace", 0);
    int64_t ff = count_of(c, "moe_intermediate_size", -1), sh = count_of(c, "num_shared_experts", -1);
    const char *bad = nh < 0 ? "num_hidden_layers" : nx < 0 ? "num_nextn_predict_layers" : lead < 0 ? "first_k_dense_replace"
                      : ff < 0 ? "moe_intermediate_size" : sh < 0 ? "num_shared_experts" : NULL;
    if (bad) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, bad);
    if (json_object_set_new(c->config, "lgg.leading", json_integer(lead)) ||
        json_object_set_new(c->config, "lgg.shexp_ff", json_integer(ff * sh)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return mtp_blocks(c, nh, nx, err);
}

/* master's renames of the MTP tensors: mtp.layers.N.X is block N after the
 * main ones, mtp.fc / .pre_fc_norm_embedding / .pre_fc_norm_hidden / .norm
 * that block's eh_proj, enorm, hnorm and shared_head.norm.  The family's
 * rows (families.c) map them as block N (the shared ones as "mtp.*"
 * names); here they move past the main blocks.  Without an MTP layer
 * master drops the shared ones and stops on a layer's: both refused. */
static lgg_status mtp_past_main(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int64_t nh = lgg__cv_hparam_int(c, "lgg.main_layers", 0);
    char name[192];
    int n;
    if (!strncmp(t->name, "mtp.", 4)) n = snprintf(name, sizeof name, "blk.%lld.nextn.%s", (long long)nh, t->name + 4);
    else n = snprintf(name, sizeof name, "blk.%lld%s", strtoll(t->name + 4, NULL, 10) + (long long)nh, strchr(t->name + 4, '.'));
    char *copy = n > 0 && (size_t)n < sizeof name ? strdup(name) : NULL;
    if (!copy) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    free(t->name);
    t->name = copy;
    return LGG_OK;
}

static lgg_status exaonemoe_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strncmp(t->src_name, "mtp.", 4)) return LGG_OK;
    if (lgg__cv_hparam_int(c, "lgg.nextn", 0) < 1)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': an MTP tensor with num_nextn_predict_layers 0", c->dir,
                            t->src_name);
    return mtp_past_main(c, t, err);
}

static lgg_status exaonemoe_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = exaone4_meta(c, err);
    return st ? st : lgg__cv_meta_keys(c, EXAONEMOE_TAIL, err);
}

const cv_hooks lgg__cv_hooks_exaonemoe = {exaonemoe_init, NULL, exaonemoe_tensor, exaonemoe_meta, NULL, exaone4_generated};

/* EXAONE 4.5's text (master's Exaone4_5_TextModel over Exaone4Model): text_config over the top level, the vision
 * tower out and language_model. off (master's TextModel filter), EXAONE 4's keys and nextn_predict_layers; its MTP
 * block past the main ones as EXAONE MoE's (one; the shared tensors would be written once per block for more),
 * and, without num_nextn_predict_layers, the mtp.* tensors dropped as master drops them. */
static lgg_status exaone45_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    if (st) return st;
    int64_t nh = count_of(c, "num_hidden_layers", -1), nx = count_of(c, "num_nextn_predict_layers", 0);
    if (json_is_null(json_object_get(c->config, "num_nextn_predict_layers"))) nx = 0; /* master's `or 0` */
    if (nh < 0 || nx < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir,
                            nh < 0 ? "num_hidden_layers" : "num_nextn_predict_layers");
    return mtp_blocks(c, nh, nx, err);
}

static lgg_status exaone45_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strncmp(t->src_name, "mtp.", 4)) return LGG_OK;
    if (lgg__cv_hparam_int(c, "lgg.nextn", 0) >= 1) return mtp_past_main(c, t, err);
    free(t->name); /* master drops them without an MTP layer */
    c->n_t--;
    return LGG_OK;
}

static const cv_mkey EXAONE45_TAIL[] = {
    {"nextn_predict_layers", "lgg.nextn", CV_M_U32, CV_M_NONZERO},
    {NULL, NULL, 0, 0},
};

static lgg_status exaone45_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = exaone4_meta(c, err);
    return st ? st : lgg__cv_meta_keys(c, EXAONE45_TAIL, err);
}

const cv_hooks lgg__cv_hooks_exaone45 = {exaone45_init, lgg__cv_master_text_name, exaone45_tensor, exaone45_meta, NULL,
                                         exaone4_generated};
