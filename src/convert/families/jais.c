/* jais.c -- what Jais does in code in the reference converter: its
 * embedding and output scales, dropped buffers and max_alibi_bias. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Jais: SwiGLU and ALiBi asserted; the embeddings scale
 * (mup_embeddings_scale, else embeddings_scale) and the output's
 * (mup_output_alpha * mup_width_scale, else width_scale), each required. */
static lgg_status jais_scales(lgg_convert *c, double *embd, double *width, lgg_error *err) {
    static const char *const NEED[][2] = {{"activation_function", "swiglu"}, {"position_embedding_type", "alibi"}};
    for (size_t i = 0; i < 2; i++) {
        const char *v = json_string_value(json_object_get(c->config, NEED[i][0]));
        if (!v || strcmp(v, NEED[i][1]))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not \"%s\" (the reference asserts it)",
                                c->dir, NEED[i][0], NEED[i][1]);
    }
    char which[64];
    const json_t *e = lgg__cv_first_key(c->config, "mup_embeddings_scale|embeddings_scale", which, sizeof which);
    const json_t *a = json_object_get(c->config, "mup_output_alpha"), *ws = json_object_get(c->config, "mup_width_scale");
    const json_t *w = json_object_get(c->config, "width_scale");
    if (!json_is_number(e))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'mup_embeddings_scale' is missing (and embeddings_scale too)",
                            c->dir);
    if (a ? !json_is_number(a) || !json_is_number(ws) : !json_is_number(w))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a number", c->dir,
                            a ? "mup_width_scale" : "mup_output_alpha");
    *embd = json_number_value(e);
    *width = a ? json_number_value(a) * json_number_value(ws) : json_number_value(w);
    return LGG_OK;
}

static lgg_status jais_init(lgg_convert *c, lgg_error *err) {
    double e, w;
    return jais_scales(c, &e, &w, err);
}

/* The causal-mask buffers and the ALiBi slopes are not written. */
static int jais_name(const char *hf, char *out, size_t cap) {
    size_t l = strlen(hf);
    if (l >= cap || (l >= 10 && !strcmp(hf + l - 10, ".attn.bias")) || (l >= 18 && !strcmp(hf + l - 18, "relative_pe.slopes")))
        return 0;
    memcpy(out, hf, l + 1);
    return 1;
}

/* The scales, and max_alibi_bias from the slopes' first value (8 without
 * them): -round(log2(slope0) * 2^floor(log2(n_head))). */
static lgg_status jais_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    double e, w;
    int embd = !strcmp(t->name, "token_embd.weight");
    if (!embd && strcmp(t->name, "output.weight")) return LGG_OK;
    lgg_status st = jais_scales(c, &e, &w, err);
    if (st) return st;
    /* torch multiplies an f16 tensor by the scale cast to f16 (in f32, then rounded) */
    t->scale = (float)(embd ? e : w);
    if (t->work == LGG_TYPE_F16) t->scale = lgg_f16_to_f32(lgg__cv_f32_to_f16(t->scale));
    if (!embd) return LGG_OK;
    c->has_max_alibi_bias = 1, c->max_alibi_bias = 8.0f;
    for (size_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            const lgg_st_tensor *x = lgg_st_at(c->shards[s], i);
            size_t l = x->name.len;
            if (l < 18 || strcmp(x->name.ptr + l - 18, "relative_pe.slopes") || !x->size) continue;
            float v;
            void *owned;
            const uint8_t *p;
            if ((st = lgg__cv_src_bytes(c, (uint32_t)s, x, &p, &owned, err)) != LGG_OK) return st;
            lgg_dequantize(x->dtype, p, x->dtype == LGG_TYPE_F32 ? 4 : 2, LGG_LITTLE_ENDIAN, &v, 1);
            free(owned);
            int64_t nh = lgg__cv_hparam_int(c, "n_head", 0);
            if (!(v > 0) || nh <= 0)
                return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': the first slope is not positive (or no n_head)",
                                    c->dir, c->shard_names[s], x->name.ptr);
            double closest = exp2(floor(log2((double)nh)));
            c->max_alibi_bias = (float)-(long long)nearbyint(log2((double)v) * closest); /* Python's round: ties to even */
        }
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_jais = {jais_init, jais_name, jais_tensor, NULL, NULL, NULL};
