/* xverse.c -- what Xverse does in code in the reference converter:
 * its k permutation and its vocabulary. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Xverse undoes HF's k permutation with num_attention_heads //
 * num_key_value_heads heads when the two differ (not the kv head count). */
static lgg_status xverse_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", 0), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", nh);
    if (!(t->xform & CV_X_PERM_K) || nkv == nh) return LGG_OK;
    t->heads = lgg__cv_heads_ok(nh) && lgg__cv_heads_ok(nkv) ? (uint64_t)(nh / nkv) : 0;
    uint64_t rows = t->n_units * t->unit / (uint64_t)t->ne[0];
    if (!t->heads || rows % (2 * t->heads))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': %llu rows cannot be permuted for %llu heads (config.json)",
                            c->dir, c->shard_names[t->shard], t->src_name, (unsigned long long)rows,
                            (unsigned long long)t->heads);
    return LGG_OK;
}

/* One token of Xverse's vocabulary: its text (NUL becomes "<b'\x00'>", as
 * Python formats the bytes) and type: byte (NUL, <0xNN>), control or
 * user-defined for an added token (special or not), else normal. */
static int32_t xverse_type(const char *tok, size_t len, const json_t *added, int *nul) {
    *nul = len == 1 && tok[0] == 0;
    int hex = len == 6 && !memcmp(tok, "<0x", 3) && tok[5] == '>' && strspn(tok + 3, "0123456789abcdefABCDEF") >= 2;
    if (*nul || hex) return 6;
    const json_t *a = json_object_getn(added, tok, len);
    return a ? (json_is_true(a) ? 3 : 4) : 1;
}

/* Xverse's vocabulary (its set_vocab): tokenizer.json's tokens by id for
 * ids 0 .. vocab_size - 1 (every one must exist), tokenizer.ggml.model
 * "llama", pre "default", types from the added tokens (special flags from
 * tokenizer.json, then tokenizer_config.json's added_tokens_decoder), no
 * scores and no merges; then the special token ids. */
static lgg_status xverse_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    const json_t *vocab = json_object_get(json_object_get(tj, "model"), "vocab"), *at = json_object_get(tj, "added_tokens");
    json_t *added = json_object(), *byid = json_object(); /* content -> special; "id" -> content */
    size_t n = 0, i;
    int64_t max_id = -1;
    const char *k;
    json_t *v, *e;
    if (!json_is_object(vocab)) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: key 'model.vocab' is missing", c->dir);
    if (!added || !byid) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    char idk[32];
    json_object_foreach((json_t *)vocab, k, v) {
        if (st || !json_is_integer(v)) continue;
        snprintf(idk, sizeof idk, "%lld", (long long)json_integer_value(v));
        json_object_set_new(byid, idk, json_string(k));
        if (json_integer_value(v) > max_id) max_id = json_integer_value(v);
    }
    json_array_foreach(at, i, e) {
        const json_t *id = json_object_get(e, "id"), *ct = json_object_get(e, "content");
        if (st || !json_is_integer(id) || !json_is_string(ct)) continue;
        snprintf(idk, sizeof idk, "%lld", (long long)json_integer_value(id));
        const json_t *dec = json_object_get(json_object_get(tc, "added_tokens_decoder"), idk);
        const json_t *sp = json_equal(json_object_get(dec, "content"), (json_t *)ct) && json_object_get(dec, "special")
                               ? json_object_get(dec, "special")
                               : json_object_get(e, "special");
        json_object_set_new(added, json_string_value(ct), json_boolean(json_is_true(sp)));
        json_object_set(byid, idk, (json_t *)ct);
        if (json_integer_value(id) > max_id) max_id = json_integer_value(id);
    }
    int64_t vs = lgg__cv_hparam_int(c, "vocab_size", max_id + 1);
    if (!st && (vs <= 0 || vs > (16 << 20) || max_id >= vs))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: token id %lld is not under vocab_size %lld", c->dir,
                          (long long)max_id, (long long)vs);
    n = st ? 0 : (size_t)vs;
    lgg_str *toks = calloc(n + 1, sizeof *toks);
    int32_t *types = calloc(n + 1, sizeof *types);
    if (!st && (!toks || !types)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (i = 0; !st && i < n; i++) {
        snprintf(idk, sizeof idk, "%zu", i);
        const json_t *t = json_object_get(byid, idk);
        if (!t) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: no token has id %zu (vocab_size %zu)", c->dir, i, n);
            break;
        }
        int nul;
        types[i] = xverse_type(json_string_value(t), json_string_length(t), added, &nul);
        toks[i].ptr = nul ? "<b'\\x00'>" : json_string_value(t);
        toks[i].len = nul ? 9 : json_string_length(t);
    }
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, toks}, yv = {LGG_VT_ARRAY, LGG_VT_I32, n, types};
    if (!st && (lgg_writer_set_str(c->w, "tokenizer.ggml.model", "llama", NULL) ||
                lgg_writer_set_str(c->w, "tokenizer.ggml.pre", "default", NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tv, NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &yv, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's keys");
    free(toks), free(types);
    json_decref(added), json_decref(byid), json_decref(tj);
    return st ? st : lgg__cv_special_vocab(c, tc, n, err);
}

const cv_hooks lgg__cv_hooks_xverse = {NULL, NULL, xverse_tensor, NULL, xverse_vocab, NULL};
