/* generated.c -- tensors the reference computes rather than reads, which
 * come first in its output: llama 3's rope_freqs (the per-frequency
 * scaling factors of its "llama3" rope scaling), and the long and short
 * rope factors copied from config.json that families (families/phi3.c,
 * minicpm.c, minicpm3.c) write from their `generated` hook.
 *
 * The reference computes them with torch in float32; every step here is the
 * same float32 operation: a tensor divided by a scalar is a true division,
 * a scalar divided by a tensor is the scalar times the tensor's reciprocal,
 * and Python numbers meet float32 tensors as float32. */
#include "cvint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double num(const json_t *o, const char *key, double dflt) {
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : dflt;
}

/* Master's rope parameters for rope_freqs: rope_parameters (else
 * rope_scaling), its full_attention part when it has one; the base from
 * master's theta, the original context from them, else config.json's. */
static const json_t *master_rope(const lgg_convert *c, double *base, double *old) {
    const json_t *rs = json_object_get(c->config, "rope_parameters"), *v = NULL;
    if (!json_is_object(rs)) rs = json_object_get(c->config, "rope_scaling");
    if (json_is_object(json_object_get(rs, "full_attention"))) rs = json_object_get(rs, "full_attention");
    *base = lgg__cv_master_theta(c, 0, &v) && json_is_number(v) ? json_number_value(v) : 10000.0;
    v = json_object_get(rs, "original_max_position_embeddings");
    *old = num(json_is_number(v) ? rs : c->config, "original_max_position_embeddings", 8192);
    return rs;
}

/* rope_freqs for rope_scaling {"rope_type": "llama3", ...}; *out NULL when
 * the config asks for none.  Master allows equal low and high frequency
 * factors (Llama 4's): no wavelength falls between them. */
static lgg_status llama3_factors(lgg_convert *c, float **out, uint64_t *n, lgg_error *err) {
    *out = NULL;
    double base = 10000.0, old = 8192;
    const json_t *rs = c->master ? master_rope(c, &base, &old) : json_object_get(c->config, "rope_scaling");
    const json_t *rt = json_object_get(rs, "rope_type");
    if (c->master && !rt) rt = json_object_get(rs, "type");
    if (!json_is_object(rs) || !json_is_string(rt) || strcasecmp(json_string_value(rt), "llama3")) return LGG_OK;
    if (!c->master) base = num(c->config, "rope_theta", 10000.0), old = num(c->config, "original_max_position_embeddings", 8192);
    return lgg__cv_llama3_freqs(c, rs, base, num(rs, "factor", 8.0), old, out, n, err);
}

lgg_status lgg__cv_llama3_freqs(lgg_convert *c, const json_t *rs, double base, double factor, double old, float **out,
                                uint64_t *n, lgg_error *err) {
    *out = NULL;
    const json_t *hd = json_object_get(c->config, "head_dim");
    const json_t *hs = json_object_get(c->config, "hidden_size"), *nh = json_object_get(c->config, "num_attention_heads");
    if (!json_is_integer(hd) && (!json_is_integer(hs) || !json_is_integer(nh) || json_integer_value(nh) <= 0))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'hidden_size' or 'num_attention_heads' missing", c->dir);
    json_int_t dim = json_is_integer(hd) ? json_integer_value(hd) : json_integer_value(hs) / json_integer_value(nh);
    if (dim <= 0 || dim > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: head dimension %lld out of range", c->dir, (long long)dim);
    double low = num(rs, "low_freq_factor", 1.0), high = num(rs, "high_freq_factor", 4.0);
    double low_wl = old / low, high_wl = old / high;
    if (low_wl == high_wl && !c->master)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rope_scaling low and high frequency factors are equal", c->dir);
    *n = (uint64_t)(dim + 1) / 2;
    float *f = malloc(*n * sizeof *f);
    if (!f) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; i < *n; i++) {
        float e = (float)(2 * i) / (float)dim;
        float freq = 1.0f / powf((float)base, e);
        float wavelen = (1.0f / freq) * (float)(2 * M_PI);
        if (wavelen < (float)high_wl) {
            f[i] = 1.0f;
        } else if (wavelen > (float)low_wl) {
            f[i] = (float)factor;
        } else {
            float smooth = ((1.0f / wavelen) * (float)old - (float)low) / (float)(high - low);
            f[i] = 1.0f / ((1.0f - smooth) / (float)factor + smooth);
        }
    }
    *out = f;
    return LGG_OK;
}

/* config.json's rope_scaling.NAME: n numbers, as float32 (malloc'd). */
lgg_status lgg__cv_factor_list(lgg_convert *c, const json_t *rs, const char *name, uint64_t n, float **out, lgg_error *err) {
    const json_t *a = json_object_get(rs, name);
    if (!json_is_array(a))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.%s' is missing", c->dir, name);
    if (json_array_size(a) != n)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.%s' has %zu factors, not %llu (half the rope dimensions)",
                            c->dir, name, json_array_size(a), (unsigned long long)n);
    if (!(*out = malloc((n ? n : 1) * sizeof **out))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, i);
        if (!json_is_number(v)) {
            free(*out), *out = NULL;
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.%s': item %llu is not a number",
                                c->dir, name, (unsigned long long)i);
        }
        (*out)[i] = (float)json_number_value(v);
    }
    return LGG_OK;
}

/* The long and short factors of a rope_scaling that is not null, dims / 2
 * each (MiniCPM: hidden_size / num_attention_heads dimensions; MiniCPM 3:
 * qk_rope_head_dim). */
lgg_status lgg__cv_long_short(lgg_convert *c, int64_t dims, lgg_error *err) {
    const json_t *rs = json_object_get(c->config, "rope_scaling");
    if (!rs || json_is_null(rs)) return LGG_OK;
    if (dims <= 0 || dims % 2 || dims > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the rope dimension count (%lld) is not even and positive", c->dir,
                            (long long)dims);
    float *lf = NULL, *sf = NULL;
    lgg_status st = lgg__cv_factor_list(c, rs, "long_factor", (uint64_t)dims / 2, &lf, err);
    if (!st) st = lgg__cv_factor_list(c, rs, "short_factor", (uint64_t)dims / 2, &sf, err);
    if (!st && (st = lgg__cv_add_generated(c, "rope_factors_long.weight", lf, (uint64_t)dims / 2, err)) == LGG_OK) lf = NULL;
    if (!st && (st = lgg__cv_add_generated(c, "rope_factors_short.weight", sf, (uint64_t)dims / 2, err)) == LGG_OK) sf = NULL;
    free(lf), free(sf);
    return st;
}

lgg_status lgg__cv_generated(lgg_convert *c, lgg_error *err) {
    if (c->hooks && c->hooks->generated) return c->hooks->generated(c, err);
    if (!(c->fam->flags & CV_F_LLAMA_ROPE_FREQS)) return LGG_OK;
    float *f = NULL;
    uint64_t n = 0;
    lgg_status st = llama3_factors(c, &f, &n, err);
    if (st || !f) return st;
    if ((st = lgg__cv_add_generated(c, "rope_freqs.weight", f, n, err)) != LGG_OK) free(f);
    return st;
}
