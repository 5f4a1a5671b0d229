/* lfm2.c -- what llama.cpp master's LFM2Model (Lfm2ForCausalLM) does in
 * code: one KV head count per block (0 for a short-convolution block, in
 * the base parameters' place), the norm epsilon from norm_eps and the
 * feed-forward width as LFM2 adjusts it (both written over the base's, in
 * place), the short convolution's cache length; its conv weight squeezed
 * to (channels, kernel).  LFM2-MoE (master's LFM2MoeModel): the same
 * blocks, its leading dense blocks then experts (stacked w1, w2, w3), the
 * router and its expert bias; its KV head counts for "full_attention"
 * blocks, the vocabulary size and cache length after its expert keys. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* num_key_value_heads per block of layer_types (INT32: gguf-py's list type):
 * LFM2 0 for a "conv" block, LFM2-MoE for any block but "full_attention". */
static lgg_status kv_heads(lgg_convert *c, int moe, lgg_error *err) {
    const json_t *lt = json_object_get(c->config, "layer_types"), *kv = json_object_get(c->config, "num_key_value_heads");
    size_t n = json_array_size(lt);
    if (!json_is_array(lt) || !json_is_integer(kv) || json_integer_value(kv) < 0 || json_integer_value(kv) > INT32_MAX ||
        n > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: keys 'layer_types' (a list) and 'num_key_value_heads' "
                            "(a count) are needed", c->dir);
    int32_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(lt, i);
        const char *k = json_is_string(e) ? json_string_value(e) : "";
        v[i] = (moe ? strcmp(k, "full_attention") : !strcmp(k, "conv")) ? 0 : (int32_t)json_integer_value(kv);
    }
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_I32, n, v};
    lgg_status st = lgg__cv_put_arch(c, "attention.head_count_kv", &w, err);
    free(v);
    return st;
}

/* block_ff_dim (or intermediate_size), adjusted as LFM2 does when
 * block_auto_adjust_ff_dim: int(2 * ff / 3), times block_ffn_dim_multiplier
 * (int), rounded up to block_multiple_of. */
static lgg_status ff_dim(lgg_convert *c, uint32_t *out, lgg_error *err) {
    const char *k = json_object_get(c->config, "block_ff_dim") ? "block_ff_dim" : "intermediate_size";
    const json_t *ff = json_object_get(c->config, k), *adj = json_object_get(c->config, "block_auto_adjust_ff_dim");
    const json_t *mul = json_object_get(c->config, "block_ffn_dim_multiplier"), *of = json_object_get(c->config, "block_multiple_of");
    if (!json_is_integer(ff) || json_integer_value(ff) < 0 || json_integer_value(ff) > UINT32_MAX || !adj || !mul || !of)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: keys '%s', 'block_auto_adjust_ff_dim', "
                            "'block_ffn_dim_multiplier' and 'block_multiple_of' are needed", c->dir, k);
    double d = (double)json_integer_value(ff);
    if (json_is_true(adj) || (json_is_integer(adj) && json_integer_value(adj))) {
        if (!json_is_integer(of) || json_integer_value(of) <= 0 || (!json_is_null(mul) && !json_is_number(mul)))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: 'block_multiple_of' or 'block_ffn_dim_multiplier' "
                                "is not a number", c->dir);
        d = floor(2 * d / 3);
        if (json_is_number(mul)) d = trunc(json_number_value(mul) * d);
        double m = (double)json_integer_value(of);
        d = m * floor((d + m - 1) / m);
    }
    if (!(d >= 0 && d <= UINT32_MAX))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the feed-forward width is out of range", c->dir);
    *out = (uint32_t)d;
    return LGG_OK;
}

/* The KV heads over the base's count, then vocab_size and the cache length. */
static lgg_status kv_vocab_cache(lgg_convert *c, int moe, lgg_error *err) {
    uint32_t n, l_cache;
    lgg_status st = kv_heads(c, moe, err);
    if (!st) st = lgg__cv_find_count(c, "vocab_size", -1, &n, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "vocab_size", n, err);
    if (!st) st = lgg__cv_find_count(c, "conv_L_cache", -1, &l_cache, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "shortconv.l_cache", l_cache, err);
    return st;
}

static lgg_status lfm2moe_meta(lgg_convert *c, lgg_error *err) { return kv_vocab_cache(c, 1, err); }

static lgg_status lfm2_meta(lgg_convert *c, lgg_error *err) {
    uint32_t ff = 0;
    lgg_status st = kv_vocab_cache(c, 0, err);
    const json_t *eps = json_object_get(c->config, "norm_eps");
    if (!st && !json_is_number(eps)) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'norm_eps' is needed", c->dir);
    float e = st ? 0 : (float)json_number_value(eps);
    lgg_wvalue w = {LGG_VT_F32, 0, 0, &e};
    if (!st) st = lgg__cv_put_arch(c, "attention.layer_norm_rms_epsilon", &w, err);
    if (!st) st = ff_dim(c, &ff, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "feed_forward_length", ff, err);
    return st;
}

/* conv.conv's (channels, 1, kernel) squeezed at its dimension 1. */
static lgg_status lfm2_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)c, (void)err;
    if (!strstr(t->src_name, "conv.conv") || t->n_dims < 2 || t->ne[t->n_dims - 2] != 1) return LGG_OK;
    uint32_t d = t->n_dims - 2; /* torch's dimension 1 */
    memmove(t->ne + d, t->ne + d + 1, (3 - d) * sizeof t->ne[0]);
    t->ne[3] = 1, t->n_dims--;
    return LGG_OK;
}

/* Lfm2Model and Lfm2BidirectionalModel (LFM2's ColBERT and embedding
 * models): the bare model's names get "model.", its 1_Dense module (which
 * master writes as dense_2) is not converted yet. */
static lgg_status embed_init(lgg_convert *c, lgg_error *err) {
    if (lgg__cv_exists(c, "1_Dense/model.safetensors", NULL))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s: the 1_Dense module (master's dense_2 and embedding_length_out) is not converted yet", c->dir);
    return LGG_OK;
}

static int embed_name(const char *hf, char *out, size_t cap) {
    return (size_t)snprintf(out, cap, "%s%s", strncmp(hf, "model.", 6) ? "model." : "", hf) < cap;
}

/* LFM2's keys, not causal for the bidirectional one, then master's pooling. */
static lgg_status embed_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = lfm2_meta(c, err);
    const char *arch = json_string_value(json_array_get(json_object_get(c->config, "architectures"), 0));
    if (!st && arch && !strcmp(arch, "Lfm2BidirectionalModel")) st = lgg__cv_put_arch_bool(c, "attention.causal", 0, err);
    return st ? st : lgg__cv_master_pooling(c, err);
}

const cv_hooks lgg__cv_hooks_lfm2_embed = {embed_init, embed_name, lfm2_tensor, embed_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_lfm2 = {NULL, NULL, lfm2_tensor, lfm2_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_lfm2moe = {NULL, NULL, lfm2_tensor, lfm2moe_meta, NULL, NULL};
