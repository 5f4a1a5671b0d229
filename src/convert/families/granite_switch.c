/* granite_switch.c -- Granite Switch (GraniteSwitchForCausalLM,
 * graniteswitch) as llama.cpp master (3f545becc, conversion/granite.py's
 * GraniteSwitchModel over GraniteMoeModel) converts it: a dense Granite
 * whose projections carry num_adapters embedded LoRA adapters, each
 * adapter's A and B stacked with a zero adapter first (slot 0):
 *   names   the weightless switch (model.switch.*), the control-token
 *           buffers and lm_head (tied) dropped; every other name is one of
 *           families.c's GRANITE_SWITCH_TENSORS (base_layer weights, the
 *           qkv and input_linear slices, o_proj's and output_linear's
 *           lora_A/lora_B as <tensor>.lora_a/.lora_b)
 *   tensor  the fused qkv's q and k rows permuted for ggml's rope (by
 *           num_attention_heads and num_key_value_heads, head size
 *           projection_head_dim, else head_dim, else width / heads);
 *           input_linear split into ffn_gate and ffn_up (2 x
 *           shared_intermediate_size rows); A [n, 1, rank, in] and B [n, 1,
 *           out, rank] as [n + 1, rank, in] and [n + 1, out, rank] with zeros
 *           first, q's and k's B rows permuted per adapter; the LoRA
 *           factors take the outtype as matrices
 *   meta    one block fewer than num_hidden_layers (the switch's cache
 *           slot); Granite's keys (families.c's table), expert_used_count
 *           0 without experts, then the adapters' count, rank, activating
 *           and substitute token ids and the router gain (default 15). */
#include "../cvint.h"

#include <stdlib.h>
#include <string.h>

typedef struct switch_dims {
    int64_t n_head, n_kv, head_dim, adapters;
} switch_dims;

/* A positive count from config.json's `key`, else -1. */
static int64_t count(const lgg_convert *c, const char *key) {
    const json_t *v = json_object_get(c->config, key);
    return json_is_integer(v) && json_integer_value(v) > 0 && json_integer_value(v) <= (1 << 24) ? json_integer_value(v) : -1;
}

static lgg_status dims(lgg_convert *c, switch_dims *d, lgg_error *err) {
    d->n_head = count(c, "num_attention_heads"), d->n_kv = count(c, "num_key_value_heads"), d->adapters = count(c, "num_adapters");
    d->head_dim = count(c, "projection_head_dim");
    if (d->head_dim < 0) d->head_dim = count(c, "head_dim");
    if (d->head_dim < 0 && d->n_head > 0 && count(c, "hidden_size") > 0) d->head_dim = count(c, "hidden_size") / d->n_head;
    if (d->n_head < 0 || d->n_kv < 0 || d->adapters < 0 || d->head_dim <= 0 || count(c, "max_lora_rank") < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: num_attention_heads, num_key_value_heads, num_adapters, "
                            "max_lora_rank and a head size (projection_head_dim, head_dim or hidden_size) are needed", c->dir);
    return LGG_OK;
}

/* The switch takes one of num_hidden_layers' blocks: master writes one fewer (config.json's count amended before
 * the block count is read from it). */
static lgg_status switch_init(lgg_convert *c, lgg_error *err) {
    switch_dims d;
    char which[64];
    lgg_status st = dims(c, &d, err);
    json_t *n = lgg__cv_first_key(c->config, "n_layers|num_hidden_layers|n_layer|num_layers", which, sizeof which);
    if (!st && (!json_is_integer(n) || json_integer_value(n) < 1))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the block count is below 1 (the switch takes one)", c->dir);
    if (st) return st;
    if (json_object_set_new(c->config, which, json_integer(json_integer_value(n) - 1)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

static int switch_hf_name(const char *hf, char *out, size_t cap) {
    const char *bare = strrchr(hf, '.') ? strrchr(hf, '.') + 1 : hf;
    if (!strncmp(hf, "model.switch.", 13) || !strncmp(hf, "switch.", 7) || !strcmp(bare, "adapter_token_ids") ||
        !strcmp(bare, "control_to_substitute_lut") || !strcmp(hf, "lm_head.weight"))
        return 0;
    snprintf(out, cap, "%s", hf);
    return 1;
}

/* llama's rope permutation of `rows` rows in `heads` heads: output row u's source row. */
static uint64_t permuted(uint64_t u, uint64_t rows, uint64_t heads) {
    uint64_t half = rows / heads / 2, h = u / (2 * half), r = u % (2 * half);
    return h * 2 * half + (r % 2) * half + r / 2;
}

/* The fused qkv: q (row_arg[0] rows, row_arg[2] heads) and k (row_arg[1] rows, row_arg[3] heads) permuted, v as is. */
static uint64_t qkv_row(const cv_tensor *t, uint64_t u) {
    uint64_t q = t->row_arg[0], kv = t->row_arg[1];
    if (u < q) return permuted(u, q, t->row_arg[2]);
    if (u < q + kv) return q + permuted(u - q, kv, t->row_arg[3]);
    return u;
}

/* One adapter's B (row_arg[0] rows) permuted by row_arg[1] heads. */
static uint64_t lora_b_row(const cv_tensor *t, uint64_t u) {
    uint64_t out = t->row_arg[0];
    return u / out * out + permuted(u % out, out, t->row_arg[1]);
}

static lgg_status bad(lgg_convert *c, const cv_tensor *t, const char *why, lgg_error *err) {
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': %s", c->dir, c->shard_names[t->shard], t->src_name, why);
}

static lgg_status qkv(lgg_convert *c, cv_tensor *t, const switch_dims *d, lgg_error *err) {
    uint64_t q = (uint64_t)(d->n_head * d->head_dim), kv = (uint64_t)(d->n_kv * d->head_dim);
    if (t->src->n_dims != 2 || t->src->shape[0] != q + 2 * kv || d->head_dim % 2)
        return bad(c, t, "its rows are not q, k and v of the config's heads (or the head size is odd)", err);
    t->row_of = qkv_row, t->row_arg[0] = q, t->row_arg[1] = kv, t->row_arg[2] = (uint64_t)d->n_head, t->row_arg[3] = (uint64_t)d->n_kv;
    return LGG_OK;
}

/* A stacked factor [n, 1, rows, cols] as [n + 1, rows, cols], slot 0 zeros; a matrix of the outtype. */
static lgg_status lora(lgg_convert *c, cv_tensor *t, const switch_dims *d, lgg_error *err) {
    const lgg_st_tensor *s = t->src;
    if (s->n_dims != 4 || s->shape[1] != 1 || s->shape[0] != (uint64_t)d->adapters)
        return bad(c, t, "not [num_adapters, 1, rows, columns]", err);
    uint64_t rows = s->shape[2];
    t->n_dims = 3, t->ne[0] = (int64_t)s->shape[3], t->ne[1] = (int64_t)rows, t->ne[2] = d->adapters + 1, t->ne[3] = 1;
    t->n_units += rows, t->zero_first = rows;
    t->type = lgg__cv_matrix_type(c, s->shape[3]);
    int q = lgg__cv_ends_with(t->name, ".attn_q.lora_b"), k = lgg__cv_ends_with(t->name, ".attn_k.lora_b");
    if (!q && !k) return LGG_OK;
    uint64_t heads = (uint64_t)(q ? d->n_head : d->n_kv);
    if (rows % (2 * heads)) return bad(c, t, "its rows cannot be permuted for the config's heads", err);
    t->row_of = lora_b_row, t->row_arg[0] = rows, t->row_arg[1] = heads;
    return LGG_OK;
}

static lgg_status switch_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    switch_dims d;
    lgg_status st = dims(c, &d, err);
    if (st) return st;
    if (lgg__cv_ends_with(t->name, ".lora_a") || lgg__cv_ends_with(t->name, ".lora_b")) return lora(c, t, &d, err);
    if (lgg__cv_ends_with(t->name, ".attn_qkv.weight")) return qkv(c, t, &d, err);
    if (!lgg__cv_ends_with(t->src_name, "shared_mlp.input_linear.base_layer.weight")) return LGG_OK;
    int64_t ff = count(c, "shared_intermediate_size");
    if (ff < 0 || t->src->n_dims != 2 || t->src->shape[0] != 2 * (uint64_t)ff)
        return bad(c, t, "needs 2 * shared_intermediate_size (config.json) rows", err);
    return lgg__cv_split_rows(c, t, (uint64_t)ff, "ffn_up", err);
}

/* config.json's list `key` as an INT32 array <arch>.NAME. */
static lgg_status id_list(lgg_convert *c, const char *key, const char *name, lgg_error *err) {
    const json_t *l = json_object_get(c->config, key), *v;
    size_t n = json_array_size(l), i;
    if (!json_is_array(l) || n > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a list", c->dir, key);
    int32_t *ids = malloc(n ? n * sizeof *ids : 1);
    if (!ids) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_status st = LGG_OK;
    json_array_foreach(l, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < INT32_MIN || json_integer_value(v) > INT32_MAX)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' holds a value that is not a 32-bit id", c->dir, key);
        else ids[i] = (int32_t)json_integer_value(v);
    }
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_I32, n, ids};
    if (!st) st = lgg__cv_put_arch(c, name, &w, err);
    free(ids);
    return st;
}

static lgg_status switch_meta(lgg_convert *c, lgg_error *err) {
    switch_dims d;
    lgg_status st = dims(c, &d, err);
    const json_t *gain = json_object_get(c->config, "control_token_gain");
    if (!st && gain && !json_is_number(gain))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'control_token_gain' is not a number", c->dir);
    if (!st && !lgg__cv_py_truthy(json_object_get(c->config, "num_local_experts")))
        st = lgg__cv_put_arch_u32(c, "expert_used_count", 0, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "adapters.count", (uint32_t)d.adapters, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "adapters.lora_rank", (uint32_t)count(c, "max_lora_rank"), err);
    if (!st) st = id_list(c, "adapter_token_ids", "adapters.token_ids_activate", err);
    if (!st) st = id_list(c, "adapter_substitute_token_ids", "adapters.token_ids_substitute", err);
    if (!st) st = lgg__cv_put_arch_f32(c, "adapters.router_gain", gain ? json_number_value(gain) : 15.0, err);
    return st;
}

const cv_hooks lgg__cv_hooks_granite_switch = {switch_init, switch_hf_name, switch_tensor, switch_meta, NULL, NULL};
