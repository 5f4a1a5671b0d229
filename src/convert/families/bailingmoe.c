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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Ling 3.0 (BailingMoeV3ForCausalLM, master's BailingMoeV3Model: inclusionAI/Ling-3.0-tiny).  Each group of
 * layer_group_size layers is KDA (Kimi delta attention) linear attention but its last, which is latent
 * attention (MLA, with a head-wise gate); so are the layers past the last whole group and the
 * next-token-prediction blocks (counted in the block count, as Ling 2.0's; --no-mtp drops them with their
 * count, --mtp keeps them with the word embeddings, output norm and head: convert.c).  Master's checks: the KDA
 * projections without LoRA (no_kda_lora), the safe gate (kda_safe_gate), head-wise attention gates. */
static lgg_status ling3_bad(const lgg_convert *c, const char *what, lgg_error *err) {
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: %s (llama.cpp master's BailingMoeV3 stops on it)", c->dir, what);
}

/* Whether block bid is latent attention: master's is_full_attention (lgg.n_layer: the blocks before the
 * next-token-prediction ones). */
static int ling3_full(const lgg_convert *c, uint64_t bid) {
    uint64_t n = (uint64_t)lgg__cv_hparam_int(c, "lgg.n_layer", 0), g = (uint64_t)lgg__cv_hparam_int(c, "layer_group_size", 1);
    return bid >= n || (bid + 1) % g == 0 || bid >= n / g * g;
}

static lgg_status ling3_init(lgg_convert *c, lgg_error *err) {
    const json_t *gran = json_object_get(c->config, "gated_attention_proj_granularity_type");
    if (!lgg__cv_py_truthy(json_object_get(c->config, "no_kda_lora")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: KDA LoRA projections (no_kda_lora not set): "
                            "llama.cpp master does not convert them", c->dir);
    if (!json_is_true(json_object_get(c->config, "kda_safe_gate")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: kda_safe_gate is not true: llama.cpp master "
                            "converts only the safe KDA gate", c->dir);
    if (!json_is_string(gran) || strcmp(json_string_value(gran), "head_wise"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: gated_attention_proj_granularity_type is not "
                            "\"head_wise\": llama.cpp master converts only head-wise attention gates", c->dir);
    static const char *const NEED[] = {"num_hidden_layers", "layer_group_size", "num_attention_heads", "head_dim",
                                       "short_conv_kernel_size", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
                                       "v_head_dim", "moe_intermediate_size", "moe_shared_expert_intermediate_size",
                                       "num_shared_experts", "first_k_dense_replace", "vocab_size", "num_experts"};
    for (size_t i = 0; i < sizeof NEED / sizeof NEED[0]; i++) {
        int64_t v = lgg__cv_hparam_int(c, NEED[i], -1);
        if (v < (i == 1 || i == 2 ? 1 : 0) || v > UINT32_MAX) {
            char what[96];
            snprintf(what, sizeof what, "key '%s' is missing or not a count", NEED[i]);
            return ling3_bad(c, what, err);
        }
    }
    static const char *const NUM[] = {"kda_lower_bound", "routed_scaling_factor"};
    for (size_t i = 0; i < 2; i++)
        if (!json_is_number(json_object_get(c->config, NUM[i]))) return ling3_bad(c, "kda_lower_bound or routed_scaling_factor is not a number", err);
    if (!json_is_boolean(json_object_get(c->config, "norm_topk_prob"))) return ling3_bad(c, "norm_topk_prob is not a boolean", err);
    const json_t *qr = json_object_get(c->config, "q_lora_rank");
    if (qr && !json_is_null(qr) && (!json_is_integer(qr) || json_integer_value(qr) < 0 || json_integer_value(qr) > UINT32_MAX))
        return ling3_bad(c, "q_lora_rank is not a count", err);
    const json_t *nx = json_object_get(c->config, "num_nextn_predict_layers"); /* master: get(..., 0) or 0 */
    if (nx && !json_is_null(nx) && (!json_is_integer(nx) || json_integer_value(nx) < 0 || json_integer_value(nx) > (1 << 20)))
        return ling3_bad(c, "num_nextn_predict_layers is not a count", err);
    int64_t n = lgg__cv_hparam_int(c, "num_hidden_layers", 0), nh = lgg__cv_hparam_int(c, "num_attention_heads", 0);
    int64_t extra = json_is_integer(nx) && c->mtp != LGG_CONVERT_MTP_NONE ? json_integer_value(nx) : 0; /* --no-mtp: none */
    if (n > (1 << 20) || !lgg__cv_heads_ok(nh)) return ling3_bad(c, "num_hidden_layers or num_attention_heads out of range", err);
    c->mtp_main = (uint64_t)n;
    json_t *vals[] = {json_integer(n), json_integer(n + extra), json_integer(1), json_integer(nh), json_integer(extra)};
    const char *keys[] = {"lgg.n_layer", "num_hidden_layers", "num_key_value_heads", "lgg.kv_heads", "lgg.nextn"};
    lgg_status st = LGG_OK;
    for (size_t i = 0; i < 5; i++)
        if ((!vals[i] || json_object_set_new(c->config, keys[i], vals[i])) && !st)
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return st;
}

/* set_gguf_parameters' keys after the per-layer key/value heads, in master's order. */
static const cv_mkey LING3_TAIL[] = {
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"ssm.conv_kernel", "short_conv_kernel_size", CV_M_U32, CV_M_REQUIRED},
    {"kda.head_dim", "head_dim", CV_M_U32, CV_M_REQUIRED},
    {"kda.safe_gate", "kda_safe_gate", CV_M_BOOL, CV_M_REQUIRED},
    {"kda.gate_lower_bound", "kda_lower_bound", CV_M_F32, CV_M_REQUIRED},
    {"attention.q_lora_rank", "q_lora_rank", CV_M_U32, 0},
    {"attention.kv_lora_rank", "kv_lora_rank", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "qk_rope_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"attention.key_length", "kv_lora_rank+qk_rope_head_dim", CV_M_SUM, CV_M_UNLESS_WRITTEN},
    {"attention.key_length_mla", "qk_nope_head_dim+qk_rope_head_dim", CV_M_SUM, CV_M_REQUIRED},
    {"attention.value_length_mla", "v_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_feed_forward_length", "moe_shared_expert_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_count", "num_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, CV_M_REQUIRED},
    {"expert_weights_norm", "norm_topk_prob", CV_M_BOOL, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* A SwiGLU clamp list (config.json's `from`) as master's clamp_limits makes it: the first block_count
 * values, null as 0, padded with 0 to block_count; absent: nothing. */
static lgg_status ling3_clamps(lgg_convert *c, const char *from, const char *key, lgg_error *err) {
    const json_t *v = json_object_get(c->config, from);
    if (!v || json_is_null(v)) return LGG_OK;
    if (!json_is_array(v)) return ling3_bad(c, "a SwiGLU clamp list that is not a list", err);
    size_t n = (size_t)c->block_count;
    float *f = calloc(n ? n : 1, sizeof *f);
    if (!f) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n && i < json_array_size(v); i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_null(e) && !json_is_number(e)) return free(f), ling3_bad(c, "a SwiGLU clamp that is not a number", err);
        f[i] = json_is_null(e) ? 0.0f : (float)json_number_value(e);
    }
    lgg_status st = lgg__cv_put_arch_array(c, key, LGG_VT_F32, f, n, err);
    free(f);
    return st;
}

static lgg_status ling3_meta(lgg_convert *c, lgg_error *err) {
    size_t n = (size_t)c->block_count;
    int32_t *kv = malloc(n ? n * sizeof *kv : 1);
    if (!kv) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) kv[i] = ling3_full(c, i);
    lgg_status st = lgg__cv_put_arch_array(c, "attention.head_count_kv", LGG_VT_I32, kv, n, err); /* over the base's 1 */
    free(kv);
    if (!st) st = lgg__cv_meta_keys(c, LING3_TAIL, err);
    if (!st) st = ling3_clamps(c, "expert_swiglu_limit_list", "swiglu_clamp_exp", err);
    if (!st) st = ling3_clamps(c, "share_expert_swiglu_limit_list", "swiglu_clamp_shexp", err);
    int64_t nx = lgg__cv_hparam_int(c, "lgg.nextn", 0);
    return st || !nx ? st : lgg__cv_put_arch_u32(c, "nextn_predict_layers", (uint32_t)nx, err);
}

/* dt_bias as dt_proj's bias (master's rename). */
static int ling3_name(const char *hf, char *out, size_t cap) {
    size_t l = strlen(hf);
    if (lgg__cv_ends_with(hf, ".dt_bias")) snprintf(out, cap, "%.*s.dt_proj.bias", (int)(l - 8), hf);
    else snprintf(out, cap, "%s", hf);
    return 1;
}

/* The block of a GGUF name blk.N.*, or -1. */
static int64_t ling3_block(const cv_tensor *t) {
    return strncmp(t->name, "blk.", 4) ? -1 : (int64_t)strtoull(t->name + 4, NULL, 10);
}

/* The KDA convolutions as [1, channels, 1, kernel] (from [channels, 1, kernel] or [channels, kernel]). */
static lgg_status ling3_conv(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const lgg_st_tensor *s = t->src;
    if ((s->n_dims != 3 || s->shape[1] != 1) && s->n_dims != 2)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not [channels, 1, kernel] or [channels, kernel]", c->dir,
                            t->src_name);
    int64_t ch = (int64_t)s->shape[0], k = (int64_t)s->shape[s->n_dims - 1];
    t->n_dims = 4, t->ne[0] = k, t->ne[1] = 1, t->ne[2] = ch, t->ne[3] = 1;
    t->unit = (uint64_t)k, t->n_units = (uint64_t)ch;
    return LGG_OK;
}

/* Per tensor: the convolutions reshaped; A = exp(A_log) as a column (-exp's negation: exact); g_proj the
 * attention gate on latent-attention blocks, else KDA's; an f_proj on a latent-attention block refused (as
 * master does); kv_b split as DeepSeek V2's, over num_attention_heads. */
static lgg_status ling3_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int64_t bid = ling3_block(t);
    if (bid < 0) return LGG_OK;
    const char *dot = strchr(t->name + 4, '.') + 1;
    if (!strncmp(dot, "ssm_conv1d_", 11)) return ling3_conv(c, t, err);
    if (!strcmp(dot, "ssm_a")) {
        if (t->src->n_dims != 1)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': A_log is not a vector", c->dir, t->src_name);
        t->n_dims = 2, t->ne[1] = t->ne[0], t->ne[0] = 1, t->unit = 1, t->n_units = (uint64_t)t->ne[1];
        t->scale = -1.0f; /* after CV_X_NEG_EXP's -exp */
        return LGG_OK;
    }
    int full = ling3_full(c, (uint64_t)bid);
    if (!strcmp(dot, "ssm_f_a.weight") && full)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': an f_proj on latent-attention block %lld (llama.cpp "
                            "master's BailingMoeV3 stops on it)", c->dir, t->src_name, (long long)bid);
    if (!strcmp(dot, "ssm_g_a.weight") && full) {
        char name[64];
        snprintf(name, sizeof name, "blk.%lld.attn_gate.weight", (long long)bid);
        char *dup = strdup(name);
        if (!dup) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        free(t->name), t->name = dup;
        return LGG_OK;
    }
    return lgg__cv_mla_kv_b(c, t, err);
}

const cv_hooks lgg__cv_hooks_bailingmoe3 = {ling3_init, ling3_name, ling3_tensor, ling3_meta, NULL, NULL};
