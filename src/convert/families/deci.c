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

enum { TT_NORMAL = 1, TT_CONTROL = 3, TT_USER = 4, TT_BYTE = 6 };

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
    if (!st) st = lgg__cv_meta_keys(c, nas ? DECI_51B_HEAD : DECI_BASE, err);
    if (!st && (nas || per)) st = put_array(c, "attention.head_count_kv", a, err);
    if (!st && nas) st = put_array(c, "attention.head_count", a + n, err);
    if (!st && nas) st = put_array(c, "feed_forward_length", a + 2 * n, err);
    if (!st && nas) st = lgg__cv_meta_keys(c, DECI_51B, err);
    if (!st) st = lgg__cv_meta_keys(c, DECI_TAIL, err);
    free(a);
    return st;
}

/* transformers' all_special_tokens: the named special tokens of
 * tokenizer_config.json (special_tokens_map.json's win) and the additional
 * ones; *ids gets each one's id in tokenizer.json (absent ones skipped). */
static lgg_status special_ids(lgg_convert *c, json_t *tc, const json_t *vocab, const json_t *added, int64_t *ids, size_t *n,
                              size_t cap, lgg_error *err) {
    json_t *sm = NULL, *by_content = json_object(); /* the first added token of each content: one look-up per name,
                                                       not a scan of added_tokens (a long list of each is costly) */
    size_t i;
    json_t *at;
    if (!by_content) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_array_foreach(added, i, at) {
        json_t *ct = json_object_get(at, "content"), *id = json_object_get(at, "id");
        if (json_is_string(ct) && id && !json_object_getn(by_content, json_string_value(ct), json_string_length(ct)) &&
            json_object_setn(by_content, json_string_value(ct), json_string_length(ct), id)) {
            json_decref(by_content);
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        }
    }
    lgg_status st = lgg__cv_json(c, "special_tokens_map.json", 0, &sm, err);
    if (st) {
        json_decref(by_content);
        return st;
    }
    static const char *const NAMES[] = {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                                        "cls_token", "mask_token", "additional_special_tokens"};
    *n = 0;
    for (size_t k = 0; k < 8; k++) {
        json_t *v = sm && json_object_get(sm, NAMES[k]) ? json_object_get(sm, NAMES[k]) : json_object_get(tc, NAMES[k]);
        size_t m = json_is_array(v) ? json_array_size(v) : 1;
        for (size_t j = 0; j < m && *n < cap; j++) {
            json_t *e = json_is_array(v) ? json_array_get(v, j) : v;
            if (json_is_object(e)) e = json_object_get(e, "content");
            if (!json_is_string(e)) continue;
            const json_t *id = json_object_get(vocab, json_string_value(e));
            if (!id) id = json_object_getn(by_content, json_string_value(e), json_string_length(e));
            if (json_is_integer(id)) ids[(*n)++] = json_integer_value(id);
        }
    }
    json_decref(sm);
    json_decref(by_content);
    return LGG_OK;
}

static int in_ids(const int64_t *ids, size_t n, int64_t id) {
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id) return 1;
    return 0;
}

/* An added token past the base ones: its id, its place in added_tokens. */
typedef struct past_tok {
    json_int_t id;
    size_t at;
    const json_t *t;
} past_tok;

static int by_id(const void *a, const void *b) {
    const past_tok *x = a, *y = b;
    return x->id != y->id ? (x->id < y->id ? -1 : 1) : (x->at > y->at) - (x->at < y->at);
}

static int is_byte_token(const char *s, size_t l) {
    static const char HEX[] = "0123456789abcdefABCDEF";
    return l == 6 && !memcmp(s, "<0x", 3) && s[5] == '>' && s[3] && s[4] && strchr(HEX, s[3]) && strchr(HEX, s[4]);
}

/* gguf-py's LlamaHfVocab: a byte-fallback BPE tokenizer.json read as a
 * llama vocabulary: the base tokens by id (BYTE for <0xXX>, CONTROL for the
 * special tokens, else NORMAL), then the added tokens past them in id order
 * (CONTROL when special, else USER_DEFINED), every score -1000. */
static lgg_status llama_hf_vocab(lgg_convert *c, json_t *tc, lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    const json_t *model = json_object_get(tj, "model"), *vocab = json_object_get(model, "vocab");
    const json_t *added = json_object_get(tj, "added_tokens"), *bf = json_object_get(model, "byte_fallback");
    const char *type = json_string_value(json_object_get(model, "type"));
    const char *dec = json_string_value(json_object_get(json_object_get(tj, "decoder"), "type"));
    int bpe = type && !strcmp(type, "BPE");
    if (bpe && json_is_true(json_object_get(model, "ignore_merges")) && json_is_false(bf))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/tokenizer.json: a Llama 3 tokenizer, which the reference's LlamaHfVocab "
                          "refuses (DeciLM reads a BPE vocabulary only when vocab_size is 128256)", c->dir);
    else if (!bpe || !json_is_true(bf) || !dec || strcmp(dec, "Sequence") || !json_is_object(vocab))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                          "%s/tokenizer.json: not a Llama BPE tokenizer (BPE with byte_fallback and a Sequence decoder)", c->dir);
    size_t nb = json_object_size(vocab), na = json_array_size(added), n = nb, ns = 0;
    if (!st && nb + na > (64u << 20)) st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/tokenizer.json: too many tokens", c->dir);
    lgg_str *tok = st ? NULL : calloc(nb + na + 1, sizeof *tok);
    float *score = st ? NULL : malloc((nb + na + 1) * sizeof *score);
    int32_t *tt = st ? NULL : malloc((nb + na + 1) * sizeof *tt);
    int64_t ids[256];
    if (!st && (!tok || !score || !tt)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) st = special_ids(c, tc, vocab, added, ids, &ns, 256, err);
    const char *k;
    json_t *v;
    if (!st) json_object_foreach((json_t *)vocab, k, v) {
        json_int_t id = json_integer_value(v);
        if (json_is_integer(v) && id >= 0 && (size_t)id < nb) tok[id].ptr = k, tok[id].len = strlen(k);
    }
    json_t *at;
    size_t i;
    json_array_foreach(added, i, at) { /* an added token fills a base id the model's vocabulary lacks */
        json_t *id = json_object_get(at, "id"), *ct = json_object_get(at, "content");
        if (!st && json_is_integer(id) && json_is_string(ct) && json_integer_value(id) >= 0 && (size_t)json_integer_value(id) < nb &&
            !tok[json_integer_value(id)].ptr)
            tok[json_integer_value(id)].ptr = json_string_value(ct), tok[json_integer_value(id)].len = json_string_length(ct);
    }
    for (size_t id = 0; !st && id < nb; id++) {
        if (!tok[id].ptr) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: no token has id %zu", c->dir, id);
        else tt[id] = is_byte_token(tok[id].ptr, tok[id].len) ? TT_BYTE : in_ids(ids, ns, (int64_t)id) ? TT_CONTROL : TT_NORMAL;
        score[id] = -1000.0f;
    }
    /* the added tokens past the base ones, by id (one id twice: the later, as a dict by id keeps it) */
    past_tok *past = st ? NULL : malloc((na + 1) * sizeof *past);
    size_t np = 0;
    if (!st && !past) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) json_array_foreach(added, i, at) {
        json_t *id = json_object_get(at, "id");
        if (json_is_integer(id) && json_is_string(json_object_get(at, "content")) && json_integer_value(id) >= (json_int_t)nb)
            past[np].id = json_integer_value(id), past[np].at = i, past[np++].t = at;
    }
    if (np) qsort(past, np, sizeof *past, by_id);
    for (size_t j = 0; j < np; j++) {
        if (j + 1 < np && past[j + 1].id == past[j].id) continue;
        json_t *ct = json_object_get(past[j].t, "content");
        tok[n].ptr = json_string_value(ct), tok[n].len = json_string_length(ct);
        tt[n] = in_ids(ids, ns, past[j].id) ? TT_CONTROL : TT_USER, score[n++] = -1000.0f;
    }
    free(past);
    if (!st) st = lgg__cv_llama_tokens(c, n, tok, score, tt, err);
    if (!st) st = lgg__cv_special_vocab(c, tc, n, err);
    free(tok), free(score), free(tt);
    json_decref(tj);
    return st;
}

/* vocab_size 128256 (or none): Nemotron-51B's Llama 3 BPE vocabulary; else DeciLM-7B's. */
static lgg_status deci_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    const json_t *vs = json_object_get(c->config, "vocab_size");
    if (!vs || (json_is_number(vs) && json_number_value(vs) == 128256)) return lgg__cv_bpe(c, tc, o, err);
    return llama_hf_vocab(c, tc, err);
}

const cv_hooks lgg__cv_hooks_deci = {deci_init, NULL, deci_tensor, deci_meta, deci_vocab, NULL};
