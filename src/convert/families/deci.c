/* deci.c -- what the reference's DeciLM class does in code.  Two real
 * kinds of checkpoint: DeciLM-7B (num_key_value_heads_per_layer, written as
 * a per-layer array, and its vocabulary read from tokenizer.json as gguf-py's
 * LlamaHfVocab reads it) and Llama-3.1-Nemotron-51B (block_configs: per
 * layer, full attention with n_heads_in_group, a linear layer in its place,
 * or none, and a feed-forward width from ffn_mult; a Llama 3 BPE
 * vocabulary). */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DeciLM's keys (every one written by deci_meta): DeciLM-7B's are llama's
 * (its per-layer KV head counts after the base keys); Nemotron-51B's come
 * around its per-layer arrays. */
static const cv_mkey DECI_BASE[] = {BASE_PARAMS, {NULL, NULL, 0, 0}};
static const cv_mkey DECI_TAIL[] = {
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"rope.scaling", "linear", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};
/* Master: DeciLM-7B's base keys are master's (linear rope scaling among
 * them, before the rope base); Nemotron-51B's path writes no scaling. */
static const cv_mkey DECI_MASTER_BASE[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};
static const cv_mkey DECI_MASTER_TAIL[] = {
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};
static const cv_mkey DECI_51B_HEAD[] = {{"rope.freq_base", "rope_theta", CV_M_F32, 0}, {NULL, NULL, 0, 0}};
static const cv_mkey DECI_51B[] = {
    {"block_count", "n_layers|num_hidden_layers|n_layer|num_layers", CV_M_U32, CV_M_REQUIRED},
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"attention.key_length", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {"attention.value_length", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};


static lgg_status bad_key(const lgg_convert *c, const char *key, lgg_error *err) {
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or out of range", c->dir, key);
}

static lgg_status bad_layer(const lgg_convert *c, size_t il, const char *key, lgg_error *err) {
    char k[96];
    snprintf(k, sizeof k, "block_configs[%zu].%s", il, key);
    return bad_key(c, k, err);
}

/* Layer il's query and KV head counts, and for block_configs its
 * feed-forward width (*ff; else -1); *nkv -1 when the layer has no KV head
 * count of its own (config.json's num_key_value_heads, else the query
 * heads', applies).  With both per-layer lists the reference's keys come
 * from block_configs, its k permutation from num_key_value_heads_per_layer
 * (`tensor`). */
static lgg_status layer(const lgg_convert *c, size_t il, int tensor, int64_t *nh, int64_t *nkv, int64_t *ff, lgg_error *err) {
    const json_t *per = json_object_get(c->config, "num_key_value_heads_per_layer");
    const json_t *bc = json_object_get(c->config, "block_configs");
    *nh = lgg__cv_hparam_int(c, "num_attention_heads", -1), *nkv = -1, *ff = -1;
    if (*nh < 0 || *nh > INT32_MAX) return bad_key(c, "num_attention_heads", err);
    if (per && (tensor || !bc)) {
        const json_t *v = json_array_get(per, il);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT32_MAX)
            return bad_key(c, "num_key_value_heads_per_layer", err);
        *nkv = json_integer_value(v);
        return LGG_OK;
    }
    if (!bc) {
        const json_t *v = json_object_get(c->config, "num_key_value_heads");
        if (json_is_integer(v)) *nkv = json_integer_value(v);
        return LGG_OK;
    }
    const json_t *b = json_array_get(bc, il), *at = json_object_get(b, "attention");
    const json_t *g = json_object_get(at, "n_heads_in_group"), *mul = json_object_get(json_object_get(b, "ffn"), "ffn_mult");
    if (!g || (!json_is_null(g) && (!json_is_integer(g) || json_integer_value(g) <= 0)))
        return bad_layer(c, il, "attention.n_heads_in_group", err);
    /* gguf-py's check: the first multiplier is a float */
    if (!json_is_number(mul) || (il == 0 && !json_is_real(mul)) || json_number_value(mul) < 0 || json_number_value(mul) > 1e6)
        return bad_layer(c, il, "ffn.ffn_mult", err);
    if (json_is_null(g)) /* a linear layer keeps the query heads; no attention at all has none */
        *nkv = 0, *nh = json_is_true(json_object_get(at, "replace_with_linear")) ? *nh : 0;
    else
        *nkv = *nh / json_integer_value(g);
    int64_t embd = lgg__cv_hparam_int(c, "hidden_size", -1);
    if (embd <= 0 || embd > INT32_MAX) return bad_key(c, "hidden_size", err);
    /* the reference's int(2 * ffn_mult * n_embd / 3), rounded up to a multiple of 256 */
    int64_t w = (int64_t)(2.0 * json_number_value(mul) * (double)embd / 3.0);
    *ff = w % 256 ? w + 256 - w % 256 : w;
    return *ff > INT32_MAX ? bad_layer(c, il, "ffn.ffn_mult", err) : LGG_OK;
}

/* The per-layer lists have one entry per layer. */
static lgg_status deci_init(lgg_convert *c, lgg_error *err) {
    char which[64];
    const json_t *n = lgg__cv_first_key(c->config, "n_layers|num_hidden_layers|n_layer|num_layers", which, sizeof which);
    const char *keys[] = {"num_key_value_heads_per_layer", "block_configs"};
    for (int k = 0; k < 2; k++) {
        const json_t *v = json_object_get(c->config, keys[k]);
        if (v && (!json_is_array(v) || !json_is_integer(n) || json_array_size(v) != (size_t)json_integer_value(n) ||
                  json_array_size(v) > 65536))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' does not have one entry per layer", c->dir, keys[k]);
    }
    return LGG_OK;
}

/* q and k permuted with the layer's head counts (DeciModel.permute: k by
 * its KV heads when it has a count of its own). */
static lgg_status deci_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int q = strstr(t->name, ".attn_q.") != NULL;
    if (!q && !strstr(t->name, ".attn_k.")) return LGG_OK;
    uint64_t bid = strtoull(t->name + 4, NULL, 10); /* "blk.N." */
    int64_t nh, nkv, ff;
    lgg_status st = layer(c, bid < c->block_count ? bid : 0, 1, &nh, &nkv, &ff, err);
    if (st) return st;
    uint64_t heads = (uint64_t)(q || nkv < 0 ? nh : nkv), rows = (uint64_t)t->ne[t->n_dims - 1];
    if (t->n_dims > 2 || heads == 0 || rows % (2 * heads))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': %llu rows cannot be permuted for %llu heads (config.json)",
                            c->dir, c->shard_names[t->shard], t->src_name, (unsigned long long)rows, (unsigned long long)heads);
    t->xform |= q ? CV_X_PERM_Q : CV_X_PERM_K;
    t->heads = heads;
    t->unit = t->n_dims == 1 ? 1 : (uint64_t)t->ne[0], t->n_units = rows;
    return LGG_OK;
}

/* One INT32 per layer (gguf-py's type for a list of ints). */
static lgg_status put_array(lgg_convert *c, const char *name, const int32_t *v, lgg_error *err) {
    char key[96];
    snprintf(key, sizeof key, "deci.%s", name);
    lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_I32, c->block_count, v};
    return lgg_writer_set(c->w, key, strlen(key), &a, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

/* The keys in the reference's order: DeciLM-7B's are llama's with the KV
 * head counts after the base ones; Nemotron-51B's are its own. */
static lgg_status deci_meta(lgg_convert *c, lgg_error *err) {
    int nas = json_object_get(c->config, "block_configs") != NULL;
    int per = json_object_get(c->config, "num_key_value_heads_per_layer") != NULL;
    size_t n = nas || per ? c->block_count : 0; /* then the lists' length (deci_init) */
    int32_t *a = calloc(3 * (n ? n : 1), sizeof *a); /* KV heads, heads, feed-forward widths */
    if (!a) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_status st = LGG_OK;
    for (size_t i = 0; !st && i < n; i++) {
        int64_t nh, nkv, ff;
        st = layer(c, i, 0, &nh, &nkv, &ff, err);
        a[i] = (int32_t)nkv, a[n + i] = (int32_t)nh, a[2 * n + i] = (int32_t)ff;
    }
    if (!st && n == 0 && (nas || per)) st = bad_key(c, "num_hidden_layers", err); /* gguf-py cannot write an empty list */
    if (!st) st = lgg__cv_meta_keys(c, nas ? DECI_51B_HEAD : c->master ? DECI_MASTER_BASE : DECI_BASE, err);
    if (!st && (nas || per)) st = put_array(c, "attention.head_count_kv", a, err);
    if (!st && nas) st = put_array(c, "attention.head_count", a + n, err);
    if (!st && nas) st = put_array(c, "feed_forward_length", a + 2 * n, err);
    if (!st && nas) st = lgg__cv_meta_keys(c, DECI_51B, err);
    if (!st) st = lgg__cv_meta_keys(c, c->master ? DECI_MASTER_TAIL : DECI_TAIL, err);
    free(a);
    return st;
}

/* vocab_size 128256 (or none): Nemotron-51B's Llama 3 BPE vocabulary; else DeciLM-7B's. */
static lgg_status deci_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    const json_t *vs = json_object_get(c->config, "vocab_size");
    if (!vs || (json_is_number(vs) && json_number_value(vs) == 128256)) return lgg__cv_bpe(c, tc, o, err);
    return lgg__cv_llama_hf_vocab(c, tc, err);
}

const cv_hooks lgg__cv_hooks_deci = {deci_init, NULL, deci_tensor, deci_meta, deci_vocab, NULL};
