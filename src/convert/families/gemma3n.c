/* gemma3n.c -- Gemma 3n as llama.cpp master (3f545becc) converts it
 * (conversion/gemma.py's Gemma3NModel, on Gemma 3's code): the text of
 * Gemma3nForConditionalGeneration or a Gemma3nForCausalLM, its norms as
 * they are (no + 1), "_scale" tensors named ".weight", the three AltUp
 * projections each way stacked into one (3, n, n) tensor, the token and
 * per-layer embeddings padded with zero rows to vocab_size; Gemma 3's
 * parameters (a per-block intermediate_size list as an INT32 array in the
 * base's place), then AltUp's, the per-layer input width, the shared KV
 * layers, the activation sparsity scales (the standard normal's quantiles,
 * computed as torch 1.13 computes them in float32) and the sliding-window
 * layers. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const cv_hooks lgg__cv_hooks_gemma3;

/* Gemma 3's __init__, then master's assertion of 4 AltUp inputs; a
 * per-block intermediate_size kept as lgg.ff_list (the base writes its
 * first value where the list goes, gemma3n_meta the list over it). */
static lgg_status gemma3n_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_hooks_gemma3.init(c, err);
    if (st) return st;
    const json_t *n = json_object_get(c->config, "altup_num_inputs");
    if (!json_is_integer(n) || json_integer_value(n) != 4)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: altup_num_inputs is not 4 (llama.cpp master "
                            "converts only 4 AltUp inputs)", c->dir);
    json_t *ff = json_object_get(c->config, "intermediate_size");
    if (!json_is_array(ff)) return LGG_OK;
    size_t i;
    const json_t *v;
    json_array_foreach(ff, i, v) if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: intermediate_size[%zu] is not a count", c->dir, i);
    json_t *first = json_integer(json_array_size(ff) ? json_integer_value(json_array_get(ff, 0)) : 0);
    if (!first || json_object_set(c->config, "lgg.ff_list", ff) ||
        json_object_set_new(c->config, "intermediate_size", first))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* Gemma 3's renames (the towers dropped, "language_model." out), then
 * "_scale" names given ".weight", and of AltUp's projections the third
 * kept (under the stacked tensor's name: gemma3n_tensor stacks the three);
 * any other number keeps its name, which maps to nothing (master stops). */
static int gemma3n_name(const char *hf, char *out, size_t cap) {
    if (!lgg__cv_hooks_gemma3.hf_name(hf, out, cap)) return 0;
    size_t len = strlen(out);
    if (lgg__cv_ends_with(out, "_scale") && len + 8 <= cap) memcpy(out + len, ".weight", 8);
    static const char *const ALTUP[] = {"model.altup_projections.", "model.altup_unembed_projections."};
    for (int k = 0; k < 2; k++) {
        size_t p = strlen(ALTUP[k]);
        if (strncmp(out, ALTUP[k], p) || !out[p] || strcmp(out + p + 1, ".weight")) continue;
        if (out[p] == '0' || out[p] == '1') return 0;
        if (out[p] == '2') memcpy(out + p - 1, ".weight", 8);
    }
    return 1;
}

/* AltUp's projections .0, .1 and .2 (t is .2's) stacked as master's torch.stack does. */
static lgg_status stack_altup(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    char name[512];
    size_t len = strlen(t->src_name);
    if (len >= sizeof name || len < 9 || t->n_dims != 2)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' is not an AltUp projection matrix", c->dir, t->src_name);
    memcpy(name, t->src_name, len + 1);
    if (!(t->stack = malloc(3 * sizeof *t->stack))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (int k = 0; k < 3; k++) {
        name[len - 8] = (char)('0' + k); /* "....N.weight" */
        cv_src *s = &t->stack[k];
        s->fp8 = NULL;
        if (!(s->t = lgg__cv_find_tensor(c, name, &s->shard)))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' has no '%s' to be stacked with", c->dir,
                                t->src_name, name);
        if (s->t->n_dims != 2 || s->t->dtype != t->src->dtype || s->t->shape[0] != t->src->shape[0] ||
            s->t->shape[1] != t->src->shape[1])
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: AltUp projections '%s' and '%s' differ in shape or dtype",
                                c->dir, name, t->src_name);
    }
    t->src = t->stack[0].t, t->shard = t->stack[0].shard, t->src_name = t->src->name.ptr;
    t->n_stack = 3, t->n_dims = 3, t->ne[2] = 3, t->n_units *= 3;
    return LGG_OK;
}

/* The token and per-layer embeddings padded to vocab_size (262400 by default) with zero rows; AltUp stacked. */
static lgg_status gemma3n_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strcmp(t->name, "altup_proj.weight") || !strcmp(t->name, "altup_unembd_proj.weight"))
        return stack_altup(c, t, err);
    if (strcmp(t->name, "token_embd.weight") && strcmp(t->name, "per_layer_token_embd.weight")) return LGG_OK;
    int64_t v = lgg__cv_hparam_int(c, "vocab_size", 262400);
    if (t->n_dims != 2 || v < 0 || v > (1 << 26))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' is not a matrix, or vocab_size is out of range", c->dir,
                            t->src_name);
    if ((uint64_t)v > t->n_units) t->zero_from = t->n_units, t->n_units = (uint64_t)v, t->ne[1] = v;
    return LGG_OK;
}

/* torch 1.13's float32 erfinv (a rational first guess, then two Newton steps), as its AVX2 kernels run it:
 * the polynomials' multiply-adds fused (the compiler contracts them there; measured: equal to torch.erfinv
 * and Normal(0, 1).icdf for 2001 values of s in [0, 1]). */
static float torch_erfinvf(float y) {
    static const float A[4] = {0.886226899f, -1.645349621f, 0.914624893f, -0.140543331f};
    static const float B[4] = {-2.118377725f, 1.442710462f, -0.329097515f, 0.012229801f};
    static const float C[4] = {-1.970840454f, -1.624906493f, 3.429567803f, 1.641345311f};
    static const float D[2] = {3.543889200f, 1.637067800f};
    float ya = fabsf(y), x, z, num, dem;
    if (ya > 1.0f || y != y) return NAN;
    if (ya == 1.0f) return copysignf(INFINITY, y);
    if (ya <= 0.7f) {
        z = y * y;
        num = fmaf(fmaf(fmaf(A[3], z, A[2]), z, A[1]), z, A[0]);
        dem = fmaf(fmaf(fmaf(fmaf(B[3], z, B[2]), z, B[1]), z, B[0]), z, 1.0f);
        x = y * num / dem;
    } else {
        z = sqrtf(-logf((1.0f - ya) / 2.0f));
        num = fmaf(fmaf(fmaf(C[3], z, C[2]), z, C[1]), z, C[0]);
        dem = fmaf(fmaf(D[1], z, D[0]), z, 1.0f);
        x = copysignf(num, y) / dem;
    }
    const float k = (float)(2.0 / sqrt(3.14159265358979323846));
    x = x - (erff(x) - y) / (k * expf(-x * x));
    x = x - (erff(x) - y) / (k * expf(-x * x));
    return x;
}

/* config.json's count `field` (required) as <arch>.KEY. */
static lgg_status set_count(lgg_convert *c, const char *key, const char *field, lgg_error *err) {
    const json_t *v = json_object_get(c->config, field);
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, field);
    uint32_t x = (uint32_t)json_integer_value(v);
    lgg_wvalue w = {LGG_VT_U32, 0, 0, &x};
    return lgg__cv_put_arch(c, key, &w, err);
}

/* The list `field` (required, at most 2^20 entries) as an array: activation_sparsity_pattern's
 * quantiles (F32) or layer_types' "sliding_attention" (BOOL), or lgg.ff_list's counts (INT32). */
static lgg_status set_list(lgg_convert *c, const char *key, const char *field, uint32_t type, lgg_error *err) {
    const json_t *l = json_object_get(c->config, field), *e;
    size_t n = json_array_size(l), i;
    if (!json_is_array(l) || n > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a list", c->dir, field);
    void *v = malloc(n ? n * 4 : 1);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_array_foreach(l, i, e) {
        if (type == LGG_VT_F32 && !json_is_number(e)) break;
        if (type == LGG_VT_F32) { /* Normal(0, 1).icdf(s): erfinv(2 s - 1) * sqrt(2), in float32 */
            float s = (float)json_number_value(e);
            ((float *)v)[i] = 0.0f + 1.0f * torch_erfinvf(2.0f * s - 1.0f) * (float)sqrt(2.0);
        } else if (type == LGG_VT_BOOL) {
            ((uint8_t *)v)[i] = json_is_string(e) && !strcmp(json_string_value(e), "sliding_attention");
        } else {
            ((int32_t *)v)[i] = (int32_t)json_integer_value(e);
        }
    }
    lgg_wvalue w = {LGG_VT_ARRAY, type, n, v};
    lgg_status st = i < n ? lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: %s[%zu] is not a number", c->dir, field, i)
                          : lgg__cv_put_arch(c, key, &w, err);
    free(v);
    return st;
}

/* Gemma 3's parameters, then Gemma 3n's in master's order. */
static lgg_status gemma3n_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_hooks_gemma3.meta(c, err);
    if (!st && json_object_get(c->config, "lgg.ff_list"))
        st = set_list(c, "feed_forward_length", "lgg.ff_list", LGG_VT_I32, err);
    if (!st) st = set_count(c, "altup.active_idx", "altup_active_idx", err);
    if (!st) st = set_count(c, "altup.num_inputs", "altup_num_inputs", err);
    if (!st) st = set_count(c, "embedding_length_per_layer_input", "hidden_size_per_layer_input", err);
    if (!st) st = set_count(c, "attention.shared_kv_layers", "num_kv_shared_layers", err);
    if (!st) st = set_list(c, "activation_sparsity_scale", "activation_sparsity_pattern", LGG_VT_F32, err);
    if (!st) st = set_list(c, "attention.sliding_window_pattern", "layer_types", LGG_VT_BOOL, err);
    return st;
}

static lgg_status gemma3n_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    return lgg__cv_hooks_gemma3.vocab(c, tc, o, err);
}

const cv_hooks lgg__cv_hooks_gemma3n = {gemma3n_init, gemma3n_name, gemma3n_tensor, gemma3n_meta, gemma3n_vocab, NULL};
