/* bailingmoe.c -- Bailing MoE (Ling-lite, Ling-plus: llama.cpp master's
 * BailingMoeModel) and Ling 2.0 (its BailingMoeV2Model), which only master
 * converts.  Bailing V1: the fused query_key_value split into q, k and v
 * (num_attention_heads, num_key_value_heads, num_key_value_heads heads of
 * head_dim rows), q and k permuted as llama's; norm_head (master divides the
 * output head by its columns' norms in torch float32, an order of
 * summation this converter does not reproduce) refused.  Ling 2.0: the next-token-prediction blocks counted in the block
 * count, master's partial rotary dimension (0.5 of head_dim without a
 * factor), and the shared experts' width: moe_shared_expert_intermediate_size,
 * else moe_intermediate_size x num_shared_experts. */
#include "../cvint.h"

#include <stdlib.h>

static lgg_status bailingmoe2_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_nextn_blocks(c, err);
    if (!st) st = lgg__cv_master_rope_dim(c, err);
    if (st) return st;
    const json_t *sh = json_object_get(c->config, "moe_shared_expert_intermediate_size");
    int64_t ff = lgg__cv_hparam_int(c, "moe_intermediate_size", -1), n = lgg__cv_hparam_int(c, "num_shared_experts", -1);
    if (!sh && (ff < 0 || ff > UINT32_MAX || n < 0 || n > UINT32_MAX))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir,
                            ff < 0 || ff > UINT32_MAX ? "moe_intermediate_size" : "num_shared_experts");
    json_t *v = sh ? json_deep_copy(sh) : json_integer(ff * n);
    return !v || json_object_set_new(c->config, "lgg.shexp_ff", v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

const cv_hooks lgg__cv_hooks_bailingmoe2 = {bailingmoe2_init, NULL, NULL, NULL, NULL, NULL};

/* Bailing V1's config: norm_head refused (see above). */
static lgg_status bailingmoe_init(lgg_convert *c, lgg_error *err) {
    if (lgg__cv_py_truthy(json_object_get(c->config, "norm_head")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: norm_head is set: llama.cpp master divides lm_head by its column norms "
                            "(torch float32 sums); this converter does not reproduce that", c->dir);
    return LGG_OK;
}

/* query_key_value (arriving as attn_q) into q, k and v, q and k permuted. */
static lgg_status bailingmoe_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!lgg__cv_ends_with(t->src_name, "attention.query_key_value.weight")) return LGG_OK;
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", -1), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", -1);
    int64_t hd = lgg__cv_hparam_int(c, "head_dim", -1), h = lgg__cv_hparam_int(c, "hidden_size", -1);
    if (hd < 0 && lgg__cv_heads_ok(nh) && h > 0) hd = h / nh;
    if (!lgg__cv_heads_ok(nh) || !lgg__cv_heads_ok(nkv) || hd <= 0 || hd % 2 || hd > (1 << 20) || t->n_dims != 2 ||
        t->n_units != (uint64_t)(nh + 2 * nkv) * (uint64_t)hd)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s: tensor '%s': not (num_attention_heads + 2 * num_key_value_heads) * head_dim rows (config.json)",
                            c->dir, t->src_name);
    size_t q = (size_t)(t - c->t), k = c->n_t, v = c->n_t + 1; /* where the splits add attn_k and attn_v */
    lgg_status st = lgg__cv_split_rows(c, t, (uint64_t)(nh * hd), "attn_k", err); /* c->t may move */
    if (!st) st = lgg__cv_split_rows(c, &c->t[k], (uint64_t)(nkv * hd), "attn_v", err);
    if (st) return st;
    c->t[q].xform |= CV_X_PERM_Q, c->t[q].heads = (uint64_t)nh;
    c->t[k].xform |= CV_X_PERM_K, c->t[k].heads = (uint64_t)nkv;
    c->t[v].xform &= ~(unsigned)(CV_X_PERM_Q | CV_X_PERM_K);
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_bailingmoe = {bailingmoe_init, NULL, bailingmoe_tensor, NULL, NULL, NULL};

/* Sarvam-MoE (SarvamMoEForCausalLM, master's SarvamMoEModel over BailingMoeV2Model): Ling 2.0's, with the
 * full head as the rope dimension (head_dim, else hidden_size // num_attention_heads: master writes it over
 * Ling's partial one, in its place). */
static lgg_status sarvam_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = bailingmoe2_init(c, err);
    if (st) return st;
    int64_t hd = lgg__cv_hparam_int(c, "head_dim", -1), h = lgg__cv_hparam_int(c, "hidden_size", -1);
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", -1);
    if (hd < 0 && lgg__cv_heads_ok(nh) && h >= 0) hd = h / nh;
    if (hd < 0 || hd > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'head_dim' (or 'hidden_size' and "
                            "'num_attention_heads') is missing or not a count", c->dir);
    json_t *v = json_integer(hd);
    return !v || json_object_set_new(c->config, "lgg.rope_dim", v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* The router's expert_bias made zero-mean as master's torch does it: t - t.mean() in float32, the mean
 * torch's float32 sum (families/bitnet.c) divided by the count.  An expert_bias of another dtype
 * (master's mean and subtraction would round to it) is not reproduced: refused. */
static lgg_status sarvam_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!lgg__cv_ends_with(t->src_name, ".expert_bias")) return LGG_OK;
    uint64_t n = t->unit * t->n_units;
    if (t->src->dtype != LGG_TYPE_F32 || t->n_dims != 1 || n == 0)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': only a non-empty F32 expert_bias is made zero-mean "
                            "here (llama.cpp master's torch mean in another dtype is not reproduced)", c->dir, t->src_name);
    const uint8_t *p;
    void *owned = NULL;
    float *v = malloc((size_t)n * sizeof *v);
    lgg_status st = v ? lgg__cv_src_bytes(c, t->shard, t->src, &p, &owned, err) : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (st) return free(v), st;
    float mean = lgg__cv_torch_sum(p, LGG_TYPE_F32, n, 8, 1, 1) / (float)n;
    lgg_dequantize(LGG_TYPE_F32, p, (size_t)n * 4, LGG_LITTLE_ENDIAN, v, n);
    free(owned);
    for (uint64_t i = 0; i < n; i++) v[i] -= mean;
    t->gen = v;
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_sarvam = {sarvam_init, NULL, sarvam_tensor, NULL, NULL, NULL};
