/* generated.c -- tensors the reference computes rather than reads, which
 * come first in its output: llama 3's rope_freqs (the per-frequency
 * scaling factors of its "llama3" rope scaling).
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

/* rope_freqs for rope_scaling {"rope_type": "llama3", ...}; *out NULL when
 * the config asks for none. */
static lgg_status llama3_factors(lgg_convert *c, float **out, uint64_t *n, lgg_error *err) {
    *out = NULL;
    const json_t *rs = json_object_get(c->config, "rope_scaling");
    const json_t *rt = json_object_get(rs, "rope_type");
    if (!json_is_object(rs) || !json_is_string(rt) || strcasecmp(json_string_value(rt), "llama3")) return LGG_OK;
    const json_t *hd = json_object_get(c->config, "head_dim");
    const json_t *hs = json_object_get(c->config, "hidden_size"), *nh = json_object_get(c->config, "num_attention_heads");
    if (!json_is_integer(hd) && (!json_is_integer(hs) || !json_is_integer(nh) || json_integer_value(nh) <= 0))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'hidden_size' or 'num_attention_heads' missing", c->dir);
    json_int_t dim = json_is_integer(hd) ? json_integer_value(hd) : json_integer_value(hs) / json_integer_value(nh);
    if (dim <= 0 || dim > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: head dimension %lld out of range", c->dir, (long long)dim);
    double base = num(c->config, "rope_theta", 10000.0), factor = num(rs, "factor", 8.0);
    double low = num(rs, "low_freq_factor", 1.0), high = num(rs, "high_freq_factor", 4.0);
    double old = num(c->config, "original_max_position_embeddings", 8192);
    double low_wl = old / low, high_wl = old / high;
    if (low_wl == high_wl)
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

lgg_status lgg__cv_generated(lgg_convert *c, lgg_error *err) {
    if (strcmp(c->fam->arch, "llama")) return LGG_OK;
    float *f = NULL;
    uint64_t n = 0;
    lgg_status st = llama3_factors(c, &f, &n, err);
    if (st || !f) return st;
    if ((st = lgg__cv_add_generated(c, "rope_freqs.weight", f, n, err)) != LGG_OK) free(f);
    return st;
}
