/* falcon_h1.c -- what llama.cpp master's FalconH1Model (a Mamba2Model
 * whose blocks hold a Mamba 2 mixer, attention and an MLP side by side)
 * does in code: Mamba 2's tensors (families/mamba.c) with its dimensions
 * found also under a "mamba_" prefix (d_inner is mamba_d_ssm), then its
 * multipliers applied to the matrices in float32, one after the other as
 * master's torch applies them (the input projection's row ranges each by
 * their own ssm_multipliers entry); Mamba 2's keys with Falcon-H1's written
 * over them in place and its own after; the tokenizer.json vocabulary,
 * unpadded. */
#include "../cvint.h"

#include <string.h>

static lgg_status dims(lgg_convert *c, cv_mamba2 *d, lgg_error *err) {
    uint32_t d_head;
    memset(d, 0, sizeof *d);
    lgg_status st = lgg__cv_find_count(c, "hidden_size|d_model|dim|mamba_hidden_size|mamba_d_model|mamba_dim", -1, &d->d_model, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_ssm|mamba_mamba_d_ssm", -1, &d->d_inner, err);
    if (!st) st = lgg__cv_find_count(c, "n_groups|mamba_n_groups", -1, &d->n_group, err);
    if (!st) st = lgg__cv_find_count(c, "d_head|mamba_d_head", -1, &d_head, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_head|head_dim|mamba_mamba_d_head|mamba_head_dim", 64, &d->head_dim, err);
    if (!st) st = lgg__cv_find_count(c, "conv_kernel|d_conv|mamba_conv_kernel|mamba_d_conv", 4, &d->d_conv, err);
    if (!st) st = lgg__cv_find_count(c, "state_size|d_state|mamba_state_size|mamba_d_state", 128, &d->d_state, err);
    if (st) return st;
    if (d->d_inner % d_head || !d->head_dim) /* master asserts the first */
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: SSM inner size %u is not a multiple of the head size %u",
                            c->dir, d->d_inner, d_head);
    return LGG_OK;
}

static lgg_status falcon_h1_init(lgg_convert *c, lgg_error *err) {
    cv_mamba2 d;
    lgg_status st = dims(c, &d, err);
    const json_t *act = json_object_get(c->config, "hidden_act");
    if (!st && act && !json_is_null(act) && !(json_is_string(act) && !strcmp(json_string_value(act), "silu")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: hidden_act is not silu (master asserts it)", c->dir);
    return st;
}

/* config.json's number `key` (entry i of a list when i >= 0) as a float32. */
static lgg_status multiplier(lgg_convert *c, const char *key, int i, float *out, lgg_error *err) {
    const json_t *v = json_object_get(c->config, key);
    if (i >= 0) v = json_array_get(v, (size_t)i);
    if (!json_is_number(v))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s'%s is not a number", c->dir, key,
                            i >= 0 ? " (a list of numbers)" : "");
    *out = (float)json_number_value(v);
    return LGG_OK;
}

/* The input projection's rows: z (d_inner), x (d_inner), B and C (groups *
 * state each), dt (the rest), each by its ssm_multipliers entry: row_arg[0]
 * and [1] hold d_inner and groups * state, [2] and [3] the first four
 * factors' bits, scale2 the fifth (row_scale takes its place). */
static float in_proj_scale(const cv_tensor *t, uint64_t u) {
    uint64_t di = t->row_arg[0], gs = t->row_arg[1];
    int k = u < di ? 0 : u < 2 * di ? 1 : u < 2 * di + gs ? 2 : u < 2 * di + 2 * gs ? 3 : 4;
    if (k == 4) return t->scale2;
    uint32_t bits = (uint32_t)(t->row_arg[2 + k / 2] >> (32 * (k % 2)));
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static lgg_status in_proj(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    float z[5];
    uint32_t di, g, ds, b[5];
    lgg_status st = multiplier(c, "ssm_in_multiplier", -1, &t->scale, err);
    for (int k = 0; !st && k < 5; k++) st = multiplier(c, "ssm_multipliers", k, &z[k], err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_ssm", -1, &di, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_n_groups", -1, &g, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_state", -1, &ds, err);
    if (st) return st;
    memcpy(b, z, sizeof b);
    t->row_arg[0] = di, t->row_arg[1] = (uint64_t)g * ds;
    t->row_arg[2] = b[0] | (uint64_t)b[1] << 32, t->row_arg[3] = b[2] | (uint64_t)b[3] << 32, t->scale2 = z[4];
    t->row_scale = in_proj_scale;
    return LGG_OK;
}

/* Mamba 2's transforms, then the multiplier of the first of master's
 * name tests that matches. */
static lgg_status falcon_h1_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    cv_mamba2 d;
    lgg_status st = dims(c, &d, err);
    if (!st) st = lgg__cv_mamba2_tensor(c, t, &d, err);
    if (st) return st;
    const char *n = t->src_name;
    if (strstr(n, "down_proj")) return multiplier(c, "mlp_multipliers", 1, &t->scale, err);
    if (strstr(n, "gate_proj")) return multiplier(c, "mlp_multipliers", 0, &t->scale, err);
    if (strstr(n, "k_proj")) {
        st = multiplier(c, "key_multiplier", -1, &t->scale, err);
        return st ? st : multiplier(c, "attention_in_multiplier", -1, &t->scale2, err);
    }
    if (strstr(n, "q_proj") || strstr(n, "v_proj")) return multiplier(c, "attention_in_multiplier", -1, &t->scale, err);
    if (strstr(n, "o_proj")) return multiplier(c, "attention_out_multiplier", -1, &t->scale, err);
    if (strstr(n, "out_proj")) return multiplier(c, "ssm_out_multiplier", -1, &t->scale, err);
    if (strstr(n, "in_proj")) return in_proj(c, t, err);
    if (strstr(n, "lm_head")) return multiplier(c, "lm_head_multiplier", -1, &t->scale, err);
    if (strstr(n, "embed_tokens")) return multiplier(c, "embedding_multiplier", -1, &t->scale, err);
    return LGG_OK;
}

/* Mamba 2's keys in its order with Falcon-H1's values where it writes its
 * own over them (block count, context, feed-forward width, heads), then
 * vocab_size, the KV heads, key/value length and the rope base. */
static lgg_status falcon_h1_meta(lgg_convert *c, lgg_error *err) {
    cv_mamba2 d;
    float eps;
    uint32_t ff, heads, kv, hd, vocab;
    lgg_status st = dims(c, &d, err);
    if (!st) st = lgg__cv_mamba_eps(c, &eps, err);
    if (!st) st = lgg__cv_find_count(c, "intermediate_size", -1, &ff, err);
    if (!st) st = lgg__cv_find_count(c, "num_attention_heads", -1, &heads, err);
    if (!st) st = lgg__cv_find_count(c, "num_key_value_heads", -1, &kv, err);
    if (!st) st = lgg__cv_find_count(c, "head_dim", -1, &hd, err);
    if (!st) st = lgg__cv_find_count(c, "vocab_size", -1, &vocab, err);
    const json_t *theta = json_object_get(c->config, "rope_theta");
    if (!st && !json_is_number(theta)) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_theta' is needed", c->dir);
    if (st) return st;
    if (c->block_count > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the block count is beyond 32 bits", c->dir);
    uint32_t ctx = (uint32_t)lgg__cv_hparam_int(c, "max_position_embeddings", 0);
    const struct {
        const char *name;
        uint32_t v;
    } counts[] = {{"context_length", ctx}, {"embedding_length", d.d_model}, {"feed_forward_length", ff},
                  {"attention.head_count", heads}, {"block_count", (uint32_t)c->block_count}};
    for (size_t i = 0; !st && i < sizeof counts / sizeof counts[0]; i++) st = lgg__cv_put_arch_u32(c, counts[i].name, counts[i].v, err);
    if (!st) st = lgg__cv_mamba2_ssm_keys(c, &d, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "attention.layer_norm_rms_epsilon", eps, err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    if (!st) st = lgg__cv_put_arch_u32(c, "vocab_size", vocab, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.head_count_kv", kv, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.key_length", hd, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.value_length", hd, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "rope.freq_base", json_number_value(theta), err);
    return st;
}

/* Mamba 2's renames; pre_ff_layernorm.weight is master's FFN_PRE_NORM,
 * matched with its suffix, which writes it as blk.N.ffn_norm without one
 * (the row of FALCON_H1_TENSORS for this name). */
static int falcon_h1_hf_name(const char *hf, char *out, size_t cap) {
    static const char suffix[] = ".pre_ff_layernorm.weight";
    size_t l = strlen(hf), k = sizeof suffix - 1;
    if (l > k && !strcmp(hf + l - k, suffix)) {
        snprintf(out, cap, "%.*s.pre_ff_layernorm_weight", (int)(l - k), hf);
        return 1;
    }
    return lgg__cv_mamba2_hf_name(hf, out, cap);
}

const cv_hooks lgg__cv_hooks_falcon_h1 = {falcon_h1_init, falcon_h1_hf_name, falcon_h1_tensor, falcon_h1_meta, NULL, NULL};
