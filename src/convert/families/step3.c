/* step3.c -- Step 3.5 and the text of Step 3.7 (llama.cpp master's
 * Step35Model, step35), which only master converts: full and sliding-window
 * attention blocks with head counts of their own and a head-wise gate, dense
 * and MoE blocks (the experts stored stacked), and next-token-prediction
 * blocks appended past num_hidden_layers.  Beyond the shared tables:
 * - a per-layer rope_theta list: the first entry the global theta, the
 *   second the sliding one;
 * - the MTP blocks counted in block_count; their shared head's names
 *   without ".transformer.", "output" as "head";
 * - per-block head counts (over the base key), key/value head counts, the
 *   sliding window and its pattern, the experts, the leading dense blocks
 *   (moe_layers_enum's first), the SwiGLU clamps, master's assertion that
 *   partial_rotary_factors are 1 on sliding blocks and 0.5 on full ones;
 * - norms with 1 added (Gemma-style), the router bias named ".bias";
 * - llama 3's rope factors for the full blocks' rotary dimensions (the rest
 *   1), in master's double-precision arithmetic.
 * Master's --mtp and --no-mtp are not taken for it yet. */
#include "../cvint.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static lgg_status set_new(lgg_convert *c, const char *key, json_t *v, lgg_error *err) {
    return !v || json_object_set_new(c->config, key, v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

static int64_t count_of(const lgg_convert *c, const char *key, int64_t dflt) {
    const json_t *v = json_object_get(c->config, key);
    if (!v) return dflt;
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 20) ? json_integer_value(v) : -1;
}

/* rope_theta as a list: its first entry the global theta, its second the sliding layers' (master's). */
static lgg_status theta_list(lgg_convert *c, lgg_error *err) {
    const json_t *rt = json_object_get(c->config, "rope_theta");
    if (!json_is_array(rt)) return LGG_OK;
    const json_t *a = json_array_get(rt, 0), *b = json_array_get(rt, 1);
    if (!json_is_number(a) || !json_is_number(b))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_theta' is a list without two numbers", c->dir);
    lgg_status st = set_new(c, "local_rope_theta", json_real(json_number_value(b)), err);
    return st ? st : set_new(c, "rope_theta", json_real(json_number_value(a)), err);
}

static lgg_status step35_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    int64_t nh = count_of(c, "num_hidden_layers", -1), nx = count_of(c, "num_nextn_predict_layers", 0);
    if (!st && (nh < 0 || nx < 0))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir,
                          nh < 0 ? "num_hidden_layers" : "num_nextn_predict_layers");
    if (!st) st = theta_list(c, err);
    if (!st) st = set_new(c, "lgg.main_layers", json_integer(nh), err);
    if (!st) st = set_new(c, "lgg.nextn", json_integer(nx), err);
    if (!st) st = set_new(c, "num_hidden_layers", json_integer(nh + nx), err);
    return st;
}

/* Master's filter: the multimodal parts out, language_model. off, the router bias as a bias, the MTP shared
 * head's names ("transformer." out, "output" as "head"; only the MTP blocks have them). */
static int step35_hf_name(const char *hf, char *out, size_t cap) {
    char a[512];
    if (!lgg__cv_master_text_name(hf, a, sizeof a)) return 0;
    size_t o = 0;
    for (const char *p = a; *p && o + 1 < cap;) {
        if (!strncmp(p, ".transformer.", 13) && !strncmp(a, "model.layers.", 13)) p += 12;
        else if (!strncmp(p, "shared_head.output", 18)) o += (size_t)snprintf(out + o, cap - o, "shared_head.head"), p += 18;
        else out[o++] = *p++;
    }
    if (o + 1 >= cap) return 0;
    out[o] = 0;
    return !lgg__cv_ends_with(out, ".moe.router_bias") || (size_t)snprintf(out + o, cap - o, ".bias") < cap - o;
}

static lgg_status step35_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)c, (void)err;
    static const char *const SQUEEZED[] = {".self_attn.g_proj.weight", ".moe.gate.weight", ".moe.up_proj.weight",
                                           ".moe.gate_proj.weight", ".moe.down_proj.weight"};
    if (lgg__cv_ends_with(t->src_name, "norm.weight")) t->xform |= CV_X_ADD1;
    for (size_t i = 0; i < sizeof SQUEEZED / sizeof SQUEEZED[0]; i++)
        if (lgg__cv_ends_with(t->src_name, SQUEEZED[i]) && t->ne[0] != 1) lgg__cv_squeeze(t);
    return LGG_OK;
}

/* layer_types[i] padded with "full_attention" is "sliding_attention". */
static int sliding(const lgg_convert *c, size_t i) {
    const char *t = json_string_value(json_array_get(json_object_get(c->config, "layer_types"), i));
    return t && !strcmp(t, "sliding_attention");
}

/* Master's assertion: partial_rotary_factors (padded with 0.5) is 1 on the sliding blocks, 0.5 on the others. */
static lgg_status check_factors(lgg_convert *c, size_t n, lgg_error *err) {
    const json_t *f = json_object_get(c->config, "partial_rotary_factors");
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(f, i);
        double x = v ? json_number_value(v) : 0.5;
        if ((v && !json_is_number(v)) || x != (sliding(c, i) ? 1.0 : 0.5))
            return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: partial_rotary_factors is not 1 on the sliding "
                                "layers and 0.5 on the others (llama.cpp master (3f545becc) requires it)", c->dir);
    }
    return LGG_OK;
}

/* A SwiGLU clamp list (null as 0), padded with 0 to n. */
static lgg_status clamps(lgg_convert *c, const char *from, const char *what, size_t n, lgg_error *err) {
    const json_t *l = json_object_get(c->config, from);
    if (!l || json_is_null(l)) return LGG_OK;
    if (!json_is_array(l)) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a list", c->dir, from);
    float *v = calloc(n ? n : 1, sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_status st = LGG_OK;
    for (size_t i = 0; i < n && i < json_array_size(l) && !st; i++) {
        const json_t *e = json_array_get(l, i);
        if (!json_is_null(e) && !json_is_number(e))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' holds a non-number", c->dir, from);
        v[i] = (float)json_number_value(e);
    }
    if (!st) st = lgg__cv_put_arch_array(c, what, LGG_VT_F32, v, n, err);
    free(v);
    return st;
}

/* moe_layers_enum's first MoE block (a string of comma-separated indices; anything else: 0) as lgg.leading. */
static lgg_status leading_dense(lgg_convert *c, lgg_error *err) {
    const char *s = json_string_value(json_object_get(c->config, "moe_layers_enum"));
    long first = -1;
    for (const char *p = s; p && *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'moe_layers_enum' is not a list of indices", c->dir);
        if (first < 0 || v < first) first = v;
        p = end + strspn(end, " ,");
    }
    return set_new(c, "lgg.leading", json_integer(first > 0 ? first : 0), err);
}

static const cv_mkey STEP35_TAIL[] = {
    {"attention.value_length", "head_dim", CV_M_U32, CV_M_REQUIRED},
    {"expert_count", "moe_num_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_used_count", "moe_top_k", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_feed_forward_length", "share_expert_dim", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "moe_router_scaling_factor", CV_M_F32, 0},
    {"expert_weights_norm", "norm_expert_weight", CV_M_BOOL, 0},
    {"leading_dense_block_count", "lgg.leading", CV_M_U32, CV_M_REQUIRED},
    {"moe_every_n_layers", "lgg.every", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "lgg.eps", CV_M_F32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

static const cv_mkey STEP35_NEXTN[] = {
    {"nextn_predict_layers", "lgg.nextn", CV_M_U32, CV_M_NONZERO},
    {NULL, NULL, 0, 0},
};

/* The per-block arrays over the base keys, then the rest in master's order. */
static lgg_status step35_meta(lgg_convert *c, lgg_error *err) {
    size_t n = (size_t)count_of(c, "num_hidden_layers", 0);
    const json_t *other = json_object_get(c->config, "attention_other_setting");
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", -1), nkv = lgg__cv_hparam_int(c, "num_attention_groups", -1);
    const json_t *oh = json_object_get(other, "num_attention_heads"), *okv = json_object_get(other, "num_attention_groups");
    int64_t sh = oh ? (json_is_integer(oh) ? json_integer_value(oh) : -1) : nh, skv = okv ? (json_is_integer(okv) ? json_integer_value(okv) : -1) : nkv;
    if (nh < 0 || nkv < 0 || sh < 0 || skv < 0 || nh > INT32_MAX || nkv > INT32_MAX || sh > INT32_MAX || skv > INT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: num_attention_heads or num_attention_groups (or "
                            "attention_other_setting's) missing or not a count", c->dir);
    lgg_status st = check_factors(c, n, err);
    int32_t *heads = malloc((n ? n : 1) * sizeof *heads), *kv = malloc((n ? n : 1) * sizeof *kv);
    uint8_t *pat = malloc(n ? n : 1);
    if (!st && (!heads || !kv || !pat)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; !st && i < n; i++)
        heads[i] = (int32_t)(sliding(c, i) ? sh : nh), kv[i] = (int32_t)(sliding(c, i) ? skv : nkv), pat[i] = (uint8_t)sliding(c, i);
    if (!st) st = lgg__cv_put_arch_array(c, "attention.head_count", LGG_VT_I32, heads, n, err);
    if (!st) st = lgg__cv_put_arch_array(c, "attention.head_count_kv", LGG_VT_I32, kv, n, err);
    static const cv_mkey WINDOW[] = {{"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_REQUIRED}, {NULL, NULL, 0, 0}};
    if (!st) st = lgg__cv_meta_keys(c, WINDOW, err);
    if (!st) st = lgg__cv_put_arch_array(c, "attention.sliding_window_pattern", LGG_VT_BOOL, pat, n, err);
    free(heads), free(kv), free(pat);
    const json_t *every = json_object_get(c->config, "moe_every_n_layer"), *eps = json_object_get(c->config, "rms_norm_eps");
    if (!st) st = leading_dense(c, err);
    if (!st) st = set_new(c, "lgg.every", every ? json_incref((json_t *)every) : json_integer(1), err);
    if (!st) st = set_new(c, "lgg.eps", eps ? json_incref((json_t *)eps) : json_real(1e-5), err);
    if (!st) st = lgg__cv_meta_keys(c, STEP35_TAIL, err);
    if (!st) st = clamps(c, "swiglu_limits", "swiglu_clamp_exp", n, err);
    if (!st) st = clamps(c, "swiglu_limits_shared", "swiglu_clamp_shexp", n, err);
    return st ? st : lgg__cv_meta_keys(c, STEP35_NEXTN, err);
}

static double num_or(const json_t *o, const char *key, double dflt) {
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* llama 3's factors for the full blocks' rotary dimensions (head_dim x their partial factor), as master
 * computes them: the frequencies in float32, the rest in double; 1 for the other dimensions up to
 * head_dim / 2. */
static lgg_status step35_generated(lgg_convert *c, lgg_error *err) {
    const json_t *rp = lgg__cv_master_rope_params(c);
    const json_t *full = json_object_get(rp, "full_attention") ? json_object_get(rp, "full_attention") : rp;
    const char *rt = json_string_value(json_object_get(full, "rope_type"));
    if (!rt || strcasecmp(rt, "llama3")) return LGG_OK;
    double base = num_or(c->config, "rope_theta", 10000.0); /* master's hparams (a list's first: step35_init) */
    int64_t dim = lgg__cv_hparam_int(c, "head_dim", -1);
    if (dim < 0) {
        int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1), nh = lgg__cv_hparam_int(c, "num_attention_heads", -1);
        dim = h >= 0 && lgg__cv_heads_ok(nh) ? h / nh : -1;
    }
    const json_t *f = json_object_get(c->config, "partial_rotary_factors");
    double pf = -1;
    const json_t *lt = json_object_get(c->config, "layer_types");
    for (size_t i = 0; i < json_array_size(f) && i < (size_t)count_of(c, "num_hidden_layers", 0) && pf < 0; i++) {
        const char *t = json_string_value(json_array_get(lt, i));
        if (t && !strcmp(t, "full_attention")) pf = json_number_value(json_array_get(f, i));
    }
    if (dim <= 0 || dim > (1 << 20) || pf < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: no head_dim, or no full_attention layer with a partial "
                            "rotary factor, for llama 3's rope factors", c->dir);
    int64_t rot = (int64_t)((double)dim * pf);
    double factor = num_or(full, "factor", 8.0), low = num_or(full, "low_freq_factor", 1.0), high = num_or(full, "high_freq_factor", 4.0);
    double old = (double)(int64_t)num_or(full, "original_max_position_embeddings", 8192);
    double low_wl = old / low, high_wl = old / high;
    uint64_t n = (uint64_t)(rot > 0 ? (rot + 1) / 2 : 0), total = n > (uint64_t)dim / 2 ? n : (uint64_t)dim / 2;
    float *out = malloc((total ? total : 1) * sizeof *out);
    if (!out) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; i < total; i++) {
        if (i >= n) {
            out[i] = 1.0f;
            continue;
        }
        float freq = 1.0f / powf((float)base, (float)(2 * i) / (float)rot);
        double wavelen = 2 * M_PI / (double)freq, v;
        if (wavelen < high_wl) v = 1.0;
        else if (wavelen > low_wl) v = factor;
        else {
            double smooth = (old / wavelen - low) / (high - low);
            v = 1.0 / ((1.0 - smooth) / factor + smooth);
        }
        out[i] = (float)v;
    }
    lgg_status st = lgg__cv_add_generated(c, "rope_freqs.weight", out, total, err);
    if (st) free(out);
    return st;
}

const cv_hooks lgg__cv_hooks_step35 = {step35_init, step35_hf_name, step35_tensor, step35_meta, NULL, step35_generated};
