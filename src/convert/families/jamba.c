/* jamba.c -- Jamba (JambaForCausalLM) as llama.cpp master (3f545becc)
 * converts it (conversion/jamba.py): Mamba blocks and attention blocks
 * (every attn_layer_period from attn_layer_offset), feed-forwards dense or
 * MoE (every expert_layer_period from expert_layer_offset):
 *   names   ".moe." read as ".feed_forward." (Mini-Jamba), and in a block
 *           that is not MoE a single expert's "experts.0." taken out (the
 *           dense feed-forward); experts stacked down, gate, up
 *   tensor  A = -exp(A_log) (torch's exp), conv1d squeezed to (d_inner, d_conv)
 *   meta    master's own list (no base parameters): the KV heads per block
 *           (0 for a Mamba block) as an INT32 array, the ssm.* sizes with
 *           their defaults (d_conv 4, d_state 16, dt_rank ceil(d_model / 16),
 *           d_inner mamba_expand x d_model), the RMS epsilon (default 1e-6)
 *   vocab   tokenizer.model, else gguf-py's LlamaHfVocab over tokenizer.json
 *           with add_space_prefix false. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* config.json's first present key of `keys` as a count (dflt when none, -1 when not a count). */
static int64_t first_count(const lgg_convert *c, const char *keys, int64_t dflt) {
    char which[64];
    const json_t *v = lgg__cv_first_key(c->config, keys, which, sizeof which);
    if (!v) return dflt;
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= UINT32_MAX ? json_integer_value(v) : -1;
}

static lgg_status jamba_init(lgg_convert *c, lgg_error *err) {
    static const char *const KEYS[] = {"hidden_size|mamba_d_model", "mamba_expand", "num_key_value_heads", "attn_layer_offset",
                                       "attn_layer_period", "expert_layer_offset", "expert_layer_period",
                                       "num_local_experts|num_experts", "num_experts_per_tok|num_experts_per_token"};
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++) {
        int64_t v = first_count(c, KEYS[i], -1);
        if (v < 0 || (v == 0 && strstr(KEYS[i], "period")) || (i >= 3 && i <= 6 && v > (1 << 20)))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%.*s' is missing or not a count%s", c->dir,
                                (int)strcspn(KEYS[i], "|"), KEYS[i], strstr(KEYS[i], "period") ? " above 0" : "");
    }
    json_t *n = json_integer(first_count(c, "num_local_experts|num_experts", 0));
    if (!n || json_object_set_new(c->config, "lgg.experts", n)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* Master's renames before the lookup: ".moe." as ".feed_forward.", and
 * ".experts.0." out in a block that is not MoE (its block: the name's first
 * all-digit part). */
const char *lgg__cv_jamba_name(const lgg_convert *c, const char *hf, char *out, size_t cap) {
    size_t o = 0;
    for (const char *p = hf; *p; ) {
        const char *put = !strncmp(p, ".moe.", 5) ? ".feed_forward." : NULL;
        size_t adv = put ? 5 : 1, len = put ? 14 : 1;
        if (o + len >= cap) return hf;
        memcpy(out + o, put ? put : p, len);
        o += len, p += adv;
    }
    out[o] = 0;
    long long bid = -1;
    for (const char *p = out; *p && bid < 0;) {
        size_t l = strcspn(p, ".");
        if (l && strspn(p, "0123456789") == l) bid = strtoll(p, NULL, 10);
        p += l + (p[l] == '.');
    }
    int64_t off = first_count(c, "expert_layer_offset", 0), per = first_count(c, "expert_layer_period", 1);
    char *e = strstr(out, ".experts.0.");
    if (bid >= 0 && per > 0 && !(bid >= off && (bid - off) % per == 0))
        for (; e; e = strstr(e, ".experts.0.")) memmove(e + 1, e + 11, strlen(e + 11) + 1);
    return out;
}

static lgg_status jamba_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)c, (void)err;
    if (t->src_name && lgg__cv_ends_with(t->src_name, ".A_log")) t->xform |= CV_X_NEG_EXP;
    if (lgg__cv_ends_with(t->name, ".ssm_conv1d.weight")) lgg__cv_squeeze(t);
    return LGG_OK;
}

/* [0] * attn_layer_offset, then num_key_value_heads every attn_layer_period blocks up to the block count. */
static lgg_status kv_heads(lgg_convert *c, lgg_error *err) {
    uint64_t off = (uint64_t)first_count(c, "attn_layer_offset", 0), per = (uint64_t)first_count(c, "attn_layer_period", 1);
    int64_t kv = first_count(c, "num_key_value_heads", 0);
    uint64_t n = off > c->block_count ? off : c->block_count;
    if (kv > INT32_MAX || n > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the KV heads or the block count are out of range", c->dir);
    int32_t *v = calloc(n ? n : 1, sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = off; i < n; i++) v[i] = (i - off) % per == 0 ? (int32_t)kv : 0;
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_I32, n, v};
    lgg_status st = lgg__cv_put_arch(c, "attention.head_count_kv", &w, err);
    free(v);
    return st;
}

/* find_hparam(["layer_norm_epsilon", "rms_norm_eps"]) or 1e-6. */
static lgg_status rms_eps(lgg_convert *c, lgg_error *err) {
    char which[64];
    const json_t *v = lgg__cv_first_key(c->config, "layer_norm_epsilon|rms_norm_eps", which, sizeof which);
    if (v && !json_is_null(v) && !json_is_number(v))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a number", c->dir, which);
    float eps = v && json_is_number(v) && json_number_value(v) != 0 ? (float)json_number_value(v) : 1e-6f;
    lgg_wvalue w = {LGG_VT_F32, 0, 1, &eps};
    return lgg__cv_put_arch(c, "attention.layer_norm_rms_epsilon", &w, err);
}

/* After the table's counts: the per-block KV heads, the ssm.* sizes, the
 * epsilon, the expert counts and the file type, in master's order. */
static lgg_status jamba_meta(lgg_convert *c, lgg_error *err) {
    int64_t d_model = first_count(c, "hidden_size|mamba_d_model", 0), expand = first_count(c, "mamba_expand", 0);
    uint32_t d_conv, d_state, dt_rank;
    lgg_status st = kv_heads(c, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_conv", 4, &d_conv, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_state", 16, &d_state, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_dt_rank", (d_model + 15) / 16, &dt_rank, err);
    if (!st && (uint64_t)d_model * (uint64_t)expand > UINT32_MAX)
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: mamba_expand x hidden_size is beyond 32 bits", c->dir);
    if (!st) st = lgg__cv_put_arch_u32(c, "ssm.conv_kernel", d_conv, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "ssm.inner_size", (uint32_t)(d_model * expand), err);
    if (!st) st = lgg__cv_put_arch_u32(c, "ssm.state_size", d_state, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "ssm.time_step_rank", dt_rank, err);
    if (!st) st = rms_eps(c, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "expert_count", (uint32_t)first_count(c, "num_local_experts|num_experts", 0), err);
    if (!st) st = lgg__cv_put_arch_u32(c, "expert_used_count", (uint32_t)first_count(c, "num_experts_per_tok|num_experts_per_token", 0), err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    return st;
}

static lgg_status jamba_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    if (lgg__cv_exists(c, "tokenizer.model", NULL)) return lgg__cv_spm(c, tc, err);
    lgg_status st = lgg__cv_llama_hf_vocab(c, tc, err);
    if (!st && lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", false, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_space_prefix");
    return st;
}

const cv_hooks lgg__cv_hooks_jamba = {jamba_init, NULL, jamba_tensor, jamba_meta, jamba_vocab, NULL};
