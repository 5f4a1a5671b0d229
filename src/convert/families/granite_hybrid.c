/* granite_hybrid.c -- what llama.cpp master's GraniteHybridModel (Granite
 * 4's GraniteMoeHybridForCausalLM, Bamba) does in code: Mamba 2 layers and
 * attention layers (layer_types, else attn_layer_indices, else a period and
 * offset), Mamba 2's tensors in the first (families/mamba.c), llama's q/k
 * permutation in the second, GraniteMoE's experts and shared MLP split
 * (families/granitemoe.c); Granite's keys, then the ssm.* keys, the
 * per-layer KV head counts, rope only for Bamba. Its hyperparameters are
 * found under their names and with a "mamba_" prefix, as master's
 * find_hparam for this family looks them up.  Nemotron-H (master's
 * NemotronHModel over GraniteHybridModel): the blocks from its pattern
 * ("M" Mamba 2, "*" attention, "-" a ReLU^2 MLP), names under backbone.,
 * the KV head size and per-block feed-forward widths, its vocabulary
 * always padded to 8 with add_bos_token true. */
#include "../cvint.h"

#include <stdlib.h>
#include <string.h>

static int nemotron_h(const lgg_convert *c) { return !strcmp(c->fam->arch, "nemotron_h"); }

/* Nemotron-H's pattern: hybrid_override_pattern (a string), else
 * layers_block_type (a list); NULL with err set when neither is usable. */
static const json_t *nemotron_pattern(lgg_convert *c, lgg_error *err) {
    const json_t *p = json_object_get(c->config, "hybrid_override_pattern");
    if (!(json_is_string(p) && json_string_length(p)) && !(json_is_array(p) && json_array_size(p)))
        p = json_object_get(c->config, "layers_block_type");
    size_t n = json_is_string(p) ? json_string_length(p) : json_array_size(p);
    if ((!json_is_string(p) && !json_is_array(p)) || n != c->block_count)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: hybrid_override_pattern (or layers_block_type) is "
                            "missing or not one entry per block (%llu)", c->dir, (unsigned long long)c->block_count), NULL;
    return p;
}

/* Block b's kind: 'A' attention, 'M' Mamba 2, 'F' a feed-forward block
 * (Nemotron-H's "-"), or -1 with err set when config.json says neither. */
static int layer_kind(lgg_convert *c, uint64_t b, lgg_error *err) {
    if (nemotron_h(c)) {
        const json_t *p = nemotron_pattern(c, err);
        if (!p) return -1;
        if (json_is_string(p)) {
            char k = json_string_value(p)[b];
            return k == '*' ? 'A' : k == 'M' ? 'M' : 'F';
        }
        const json_t *e = json_array_get(p, (size_t)b);
        const char *k = json_is_string(e) ? json_string_value(e) : "";
        return !strcmp(k, "attention") ? 'A' : !strcmp(k, "mamba") ? 'M' : 'F';
    }
    const json_t *lt = json_object_get(c->config, "layer_types"), *ix = json_object_get(c->config, "attn_layer_indices");
    if (lt && !json_is_null(lt) && !(json_is_array(lt) && !json_array_size(lt))) {
        if (!json_is_array(lt))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'layer_types' is not a list", c->dir), -1;
        const json_t *e = json_array_get(lt, (size_t)b);
        return b < json_array_size(lt) && json_is_string(e) && !strcmp(json_string_value(e), "attention") ? 'A' : 'M';
    }
    if (json_is_array(ix) && json_array_size(ix)) {
        for (size_t i = 0; i < json_array_size(ix); i++) {
            const json_t *e = json_array_get(ix, i);
            if (!json_is_integer(e))
                return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'attn_layer_indices' holds a non-integer",
                                    c->dir), -1;
            if (json_integer_value(e) >= 0 && (uint64_t)json_integer_value(e) == b) return 'A';
        }
        return 'M';
    }
    const json_t *p = json_object_get(c->config, "attn_layer_period"), *o = json_object_get(c->config, "attn_layer_offset");
    if (!json_is_integer(p) || json_integer_value(p) <= 0 || !json_is_integer(o))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: no layer_types, attn_layer_indices or attn_layer_period "
                            "with attn_layer_offset (which layers are attention)", c->dir), -1;
    return (int64_t)(b % (uint64_t)json_integer_value(p)) == json_integer_value(o) ? 'A' : 'M';
}

/* How many blocks are Mamba 2 blocks, or -1 with err set. */
static int64_t ssm_layers(lgg_convert *c, lgg_error *err) {
    int64_t n = 0;
    for (uint64_t b = 0; b < c->block_count; b++) {
        int k = layer_kind(c, b, err);
        if (k < 0) return -1;
        n += k == 'M';
    }
    return n;
}

/* Master's GraniteHybridModel dimensions: d_model (its mamba_head_dim
 * first), the group count, d_inner = (expand or num_heads) * d_model. */
static lgg_status hybrid_dims(lgg_convert *c, cv_mamba2 *d, uint32_t *n_heads, lgg_error *err) {
    memset(d, 0, sizeof *d);
    lgg_status st = lgg__cv_find_count(c, "mamba_head_dim|hidden_size|d_model|mamba_mamba_head_dim|mamba_hidden_size|mamba_d_model",
                                       -1, &d->d_model, err);
    if (!st) st = lgg__cv_find_count(c, "n_groups|num_groups|mamba_n_groups|mamba_num_groups", -1, &d->n_group, err);
    if (!st) st = lgg__cv_find_count(c, "expand|num_heads|mamba_expand|mamba_num_heads", -1, &d->expand, err);
    if (!st) st = lgg__cv_find_count(c, "conv_kernel|d_conv|mamba_conv_kernel|mamba_d_conv", -1, &d->d_conv, err);
    if (!st)
        st = lgg__cv_find_count(c, "state_size|d_state|state_dim|ssm_state_size|mamba_state_size|mamba_d_state|"
                                "mamba_state_dim|mamba_ssm_state_size", -1, &d->d_state, err);
    if (!st) st = lgg__cv_find_count(c, "n_heads|num_heads|mamba_n_heads|mamba_num_heads", -1, n_heads, err);
    if (!st) st = lgg__cv_find_count(c, "d_head|mamba_d_head", 64, &d->head_dim, err);
    if (st) return st;
    uint64_t inner = (uint64_t)d->expand * d->d_model;
    if (inner > UINT32_MAX || !d->head_dim || inner % d->head_dim) /* master asserts the second */
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: SSM inner size %llu is not a multiple of the head size %u",
                            c->dir, (unsigned long long)inner, d->head_dim);
    d->d_inner = (uint32_t)inner;
    return LGG_OK;
}

/* Nemotron-H: the block count from layers_block_type when given; its MoE
 * (num_experts_per_tok) is not converted yet. */
static lgg_status nemotron_init(lgg_convert *c, lgg_error *err) {
    const json_t *lbt = json_object_get(c->config, "layers_block_type");
    if (json_object_get(c->config, "num_experts_per_tok"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: a Nemotron-H MoE (nemotron_h_moe in llama.cpp "
                            "master), which this converter does not convert yet", c->dir);
    if (lbt && !json_is_null(lbt) &&
        (!json_is_array(lbt) || json_object_set_new(c->config, "num_hidden_layers", json_integer((json_int_t)json_array_size(lbt)))))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'layers_block_type' is not a list", c->dir);
    const json_t *hd = json_object_get(c->config, "head_dim");
    if (!hd) hd = json_object_get(c->config, "attention_head_dim");
    if (!json_is_integer(hd) || json_integer_value(hd) < 0 || json_integer_value(hd) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: no attention head size (head_dim, attention_head_dim)", c->dir);
    return json_object_set_new(c->config, "lgg.head_dim", json_integer(json_integer_value(hd)))
               ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
               : LGG_OK;
}

static lgg_status hybrid_init(lgg_convert *c, lgg_error *err) {
    cv_mamba2 d;
    if (nemotron_h(c)) {
        lgg_status nst = nemotron_init(c, err);
        if (nst) return nst;
    }
    uint32_t n_heads;
    lgg_status st = hybrid_dims(c, &d, &n_heads, err);
    if (st) return st;
    const json_t *act = json_object_get(c->config, "hidden_act");
    if (act && !json_is_null(act) && !(json_is_string(act) && !strcmp(json_string_value(act), "silu")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: hidden_act is not silu (master asserts it)", c->dir);
    return LGG_OK;
}

static int block_of(const char *hf, uint64_t *b) {
    const char *p = strstr(hf, "layers.");
    if (!p || p[7] < '0' || p[7] > '9') return 0;
    *b = strtoull(p + 7, NULL, 10);
    return 1;
}

/* The experts and the shared MLP as GraniteMoE splits them; a Mamba 2
 * block's tensors as Mamba 2 writes them (an attention block's q/k are
 * permuted by the row's flag). */
static lgg_status hybrid_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    uint64_t b;
    if (lgg__cv_ends_with(t->src_name, ".block_sparse_moe.input_linear.weight") || strstr(t->src_name, "shared_mlp"))
        return lgg__cv_granitemoe_tensor(c, t, err);
    if (!block_of(t->src_name, &b)) return LGG_OK;
    int k = layer_kind(c, b, err);
    if (k < 0) return LGG_ERR_INVALID;
    if (k != 'M') return LGG_OK;
    cv_mamba2 d;
    uint32_t n_heads;
    lgg_status st = hybrid_dims(c, &d, &n_heads, err);
    return st ? st : lgg__cv_mamba2_tensor(c, t, &d, err);
}

/* One entry per block: the KV heads of an attention block, 0 for a Mamba 2 one (INT32, gguf-py's type). */
static lgg_status put_kv_heads(lgg_convert *c, lgg_error *err) {
    uint32_t kv;
    lgg_status st = lgg__cv_find_count(c, "num_key_value_heads|n_head_kv|mamba_num_key_value_heads|mamba_n_head_kv", -1, &kv, err);
    if (st) return st;
    if (kv > INT32_MAX || c->block_count > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: %u KV heads over %llu blocks are out of range", c->dir, kv,
                            (unsigned long long)c->block_count);
    int32_t *v = malloc((c->block_count ? c->block_count : 1) * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t b = 0; b < c->block_count && !st; b++) {
        int k = layer_kind(c, b, err);
        if (k < 0) st = LGG_ERR_INVALID;
        v[b] = k == 'A' ? (int32_t)kv : 0;
    }
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_I32, c->block_count, v};
    if (!st) st = lgg__cv_put_arch(c, "attention.head_count_kv", &w, err); /* over the base's count, in its place */
    free(v);
    return st;
}

static lgg_status nemotron_meta(lgg_convert *c, lgg_error *err);

/* After Granite's keys (the row's table): the ssm.* keys in master's order,
 * the per-block KV heads, attn_rotary_emb's rope dimension, whether rope is
 * used (Bamba, or no Mamba 2 block), and without rope a 2^20 context. */
static lgg_status hybrid_meta(lgg_convert *c, lgg_error *err) {
    cv_mamba2 d;
    uint32_t n_heads;
    lgg_status st = hybrid_dims(c, &d, &n_heads, err);
    if (st) return st;
    int64_t ssm = ssm_layers(c, err);
    if (ssm < 0) return LGG_ERR_INVALID;
    if (!ssm && !nemotron_h(c)) /* Granite 4.0 Micro's kind */
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: no Mamba 2 layer: llama.cpp master writes such a "
                            "checkpoint as granite or granitemoe, which this converter does not yet", c->dir);
    const struct {
        const char *name;
        uint32_t v;
    } counts[] = {{"ssm.conv_kernel", d.d_conv}, {"ssm.state_size", d.d_state}, {"ssm.group_count", d.n_group},
                  {"ssm.inner_size", d.d_inner}, {"ssm.time_step_rank", n_heads}};
    for (size_t i = 0; !st && i < sizeof counts / sizeof counts[0]; i++) st = lgg__cv_put_arch_u32(c, counts[i].name, counts[i].v, err);
    uint32_t rope_dim = 0;
    const json_t *re = json_object_get(c->config, "attn_rotary_emb");
    if (!st && re && !json_is_null(re) && !(json_is_integer(re) && !json_integer_value(re)))
        st = lgg__cv_find_count(c, "attn_rotary_emb", 0, &rope_dim, err);
    if (!st && rope_dim) st = lgg__cv_put_arch_u32(c, "rope.dimension_count", rope_dim, err);
    if (!st) st = put_kv_heads(c, err);
    int use_rope = ssm == 0;
    const json_t *archs = json_object_get(c->config, "architectures");
    for (size_t i = 0; i < json_array_size(archs); i++)
        if (json_is_string(json_array_get(archs, i)) && !strcmp(json_string_value(json_array_get(archs, i)), "BambaForCausalLM"))
            use_rope = 1;
    if (!st) st = lgg__cv_put_arch_bool(c, "rope.scaling.finetuned", use_rope, err);
    if (!st && !use_rope) st = lgg__cv_put_arch_u32(c, "context_length", 1u << 20, err);
    if (!st && nemotron_h(c)) st = nemotron_meta(c, err);
    return st;
}

/* Nemotron-H's keys after the hybrid's: the KV head size, and one
 * feed-forward width per block (its MLP blocks: "-" in a pattern string,
 * "moe" in a list) over the base's, in place. */
static lgg_status nemotron_meta(lgg_convert *c, lgg_error *err) {
    uint32_t hd = (uint32_t)lgg__cv_hparam_int(c, "lgg.head_dim", 0), ff;
    lgg_status st = lgg__cv_put_arch_u32(c, "attention.key_length", hd, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.value_length", hd, err);
    if (!st) st = lgg__cv_find_count(c, "intermediate_size|n_inner|hidden_dim|mamba_intermediate_size|mamba_n_inner|mamba_hidden_dim",
                                     -1, &ff, err);
    const json_t *p = st ? NULL : nemotron_pattern(c, err);
    if (!p) return st ? st : LGG_ERR_INVALID;
    if (ff > INT32_MAX) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: intermediate_size out of range", c->dir);
    int32_t *v = malloc((c->block_count ? c->block_count : 1) * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t b = 0; b < c->block_count; b++) {
        const json_t *e = json_array_get(p, (size_t)b);
        int mlp = json_is_string(p) ? json_string_value(p)[b] == '-' : json_is_string(e) && !strcmp(json_string_value(e), "moe");
        v[b] = mlp ? (int32_t)ff : 0;
    }
    lgg_wvalue w = {LGG_VT_ARRAY, LGG_VT_I32, c->block_count, v};
    st = lgg__cv_put_arch(c, "feed_forward_length", &w, err);
    free(v);
    return st;
}

/* Mamba 2's vocabulary, padded to a multiple of 8 when there is a Mamba 2
 * block (after vocab_size is written: master pads in set_vocab). */
static lgg_status hybrid_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    int64_t ssm = ssm_layers(c, err);
    if (ssm < 0) return LGG_ERR_INVALID;
    lgg_status st = lgg__cv_pad_vocab(c, ssm || nemotron_h(c) ? 8 : 1, err);
    if (nemotron_h(c)) { /* master's own set_vocab: the tokenizer.json vocabulary, then add_bos_token true */
        if (!st) st = lgg__cv_bpe(c, tc, o, err);
        if (!st && lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", 1, NULL))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
        return st;
    }
    return st ? st : lgg__cv_mamba2_vocab(c, tc, o, err);
}

const cv_hooks lgg__cv_hooks_granite_hybrid = {hybrid_init, lgg__cv_mamba2_hf_name, hybrid_tensor, hybrid_meta, hybrid_vocab,
                                               NULL};
const cv_hooks lgg__cv_hooks_nemotron_h = {hybrid_init, lgg__cv_mamba2_hf_name, hybrid_tensor, hybrid_meta, hybrid_vocab, NULL};
