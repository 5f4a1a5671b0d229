/* bpe.c -- a byte-level BPE vocabulary from tokenizer.json as the
 * reference converter writes it (tokenizer.ggml.model "gpt2"): tokens by
 * id with [PADi] holes, token types from the added tokens, merges, and
 * tokenizer.ggml.pre.
 *
 * The reference names the pre-tokenizer by hashing the ids its Hugging Face
 * tokenizer gives for a fixed text.  Those ids depend only on the
 * normalizer, the pre-tokenizer, the model type, the vocabulary and the
 * merges (the text holds no added-token string), so this converter hashes
 * exactly those parts of tokenizer.json (a fingerprint; docs/convert.md) and
 * looks the fingerprint up in a table of the tokenizers it has checked
 * against the reference.  An unknown fingerprint is an error unless --pre
 * names the pre-tokenizer, as the reference refuses what it does not know. */
#include "cvint.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fingerprints (sha256, see fingerprint()) of tokenizers whose
 * tokenizer.ggml.pre the reference converter was seen to write. */
static const struct {
    const char *sha256, *pre;
} KNOWN_PRE[] = {
    /* Qwen2.5's byte-level BPE (../shared/golden/convert/Qwen2.5-Tiny-Test-Instruct): the reference's
     * hash e636dc30a262dcc0d8c323492e32ae2b70728f4df7dfe9737d9f920a282b8aea */
    {"cb6be3940ffe3580deba89dc4a5952b222f6e1428ee2ad09ec913c75cef9e4f7", "qwen2"},
    /* bert-base-uncased's WordPiece (bge-small-en-v1.5, all-MiniLM-L6-v2; tests/test_convert_embed.c): the
     * reference's hash 0876d13b50744004aa9aeae05e7b0647eac9d801b5ba4668afc01e709c15e19f, which it lists twice,
     * "bert-bge" then "jina-v2-en"; the later test wins */
    {"144aa19bbc2bc1f6823737c4396845f34d80991ffaf2b5fb55de4338f0605696", "jina-v2-en"},
};

static void upd_json(EVP_MD_CTX *h, const json_t *v) {
    char *s = v ? json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
    const char *t = s ? s : "null";
    EVP_DigestUpdate(h, t, strlen(t) + 1);
    free(s);
}

/* The merge rule as the reference writes it: "a b"; pairs (the newer
 * format) have their spaces written as U+0120. NULL if malformed. */
static char *merge_text(const json_t *m) {
    if (json_is_string(m)) return strdup(json_string_value(m));
    if (!json_is_array(m) || json_array_size(m) != 2 || !json_is_string(json_array_get(m, 0)) ||
        !json_is_string(json_array_get(m, 1)))
        return NULL;
    const char *a = json_string_value(json_array_get(m, 0)), *b = json_string_value(json_array_get(m, 1));
    char *o = malloc(2 * (strlen(a) + strlen(b)) + 2), *w = o;
    if (!o) return NULL;
    for (int k = 0; k < 2; k++) {
        for (const char *p = k ? b : a; *p; p++)
            if (*p == ' ') *w++ = (char)0xc4, *w++ = (char)0xa0;
            else *w++ = *p;
        if (!k) *w++ = ' ';
    }
    *w = 0;
    return o;
}

static void fingerprint(const json_t *tj, const lgg_str *by_id, size_t n_ids, char hex[65]) {
    EVP_MD_CTX *h = EVP_MD_CTX_new();
    const json_t *model = json_object_get(tj, "model");
    EVP_DigestInit_ex(h, EVP_sha256(), NULL);
    upd_json(h, json_object_get(tj, "normalizer"));
    upd_json(h, json_object_get(tj, "pre_tokenizer"));
    upd_json(h, json_object_get(model, "type"));
    for (size_t i = 0; i < n_ids; i++) EVP_DigestUpdate(h, by_id[i].ptr ? by_id[i].ptr : "", by_id[i].len + 1);
    size_t i;
    const json_t *m;
    json_array_foreach(json_object_get(model, "merges"), i, m) {
        char *t = merge_text(m);
        EVP_DigestUpdate(h, t ? t : "", t ? strlen(t) + 1 : 1);
        free(t);
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_DigestFinal_ex(h, md, &len);
    EVP_MD_CTX_free(h);
    for (unsigned k = 0; k < 32; k++) snprintf(hex + 2 * k, 3, "%02x", md[k]);
}

typedef struct bpe {
    size_t n;         /* vocab_size */
    lgg_str *tok;
    int32_t *type;
    char *pads;       /* the [PADi] texts */
    char **own;       /* texts rewritten here (user-defined added tokens), by id */
    lgg_str *merges;
    char **merge_own;
    size_t n_merges;
} bpe;

static void bpe_free(bpe *b) {
    for (size_t i = 0; b->merge_own && i < b->n_merges; i++) free(b->merge_own[i]);
    free(b->merge_own);
    free(b->merges);
    free(b->tok);
    free(b->type);
    free(b->pads);
    for (size_t i = 0; b->own && i < b->n; i++) free(b->own[i]);
    free(b->own);
}

/* The base vocabulary by id (for the fingerprint); *n_ids = highest id + 1. */
static lgg_status base_by_id(lgg_convert *c, const json_t *vocab, lgg_str **out, size_t *n_ids, lgg_error *err) {
    const char *k;
    json_t *v;
    size_t n = 0;
    json_object_foreach((json_t *)vocab, k, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= (1 << 26))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: model.vocab '%s': id is not a token number",
                                c->dir, k);
        if ((size_t)json_integer_value(v) + 1 > n) n = (size_t)json_integer_value(v) + 1;
    }
    lgg_str *by = calloc(n ? n : 1, sizeof *by);
    if (!by) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_object_foreach((json_t *)vocab, k, v) {
        by[json_integer_value(v)].ptr = k;
        by[json_integer_value(v)].len = strlen(k);
    }
    *out = by;
    *n_ids = n;
    return LGG_OK;
}

static lgg_status pre_name(lgg_convert *c, const json_t *tj, const lgg_str *by, size_t n_ids,
                           const lgg_convert_options *o, const char **pre, lgg_error *err) {
    if (o->pre) {
        *pre = o->pre;
        return LGG_OK;
    }
    char hex[65];
    fingerprint(tj, by, n_ids, hex);
    for (size_t i = 0; i < sizeof KNOWN_PRE / sizeof KNOWN_PRE[0]; i++)
        if (!strcmp(hex, KNOWN_PRE[i].sha256)) {
            *pre = KNOWN_PRE[i].pre;
            return LGG_OK;
        }
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s/tokenizer.json: BPE pre-tokenizer not recognised (fingerprint %s); name it with --pre NAME",
                        c->dir, hex);
}

/* Tokens and types by id: the base vocabulary, then the added tokens
 * (which win an id they share), [PADi] for ids neither names. */
static lgg_status fill_tokens(lgg_convert *c, const json_t *added, const lgg_str *by, size_t n_ids, bpe *b,
                              lgg_error *err) {
    size_t i;
    const json_t *a;
    for (i = 0; i < b->n; i++) {
        if (i < n_ids && by[i].ptr) b->tok[i] = by[i], b->type[i] = 1;
    }
    json_array_foreach((json_t *)added, i, a) {
        const json_t *id = json_object_get(a, "id"), *ct = json_object_get(a, "content");
        if (!json_is_integer(id) || json_integer_value(id) < 0 || !json_is_string(ct))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: added_tokens[%zu]: needs an id and a content",
                                c->dir, i);
        if ((uint64_t)json_integer_value(id) >= b->n)
            return lgg__cv_fail(err, LGG_ERR_INVALID,
                                "%s/tokenizer.json: added token '%s' has id %lld, beyond config.json's vocab_size %zu",
                                c->dir, json_string_value(ct), (long long)json_integer_value(id), b->n);
        size_t k = (size_t)json_integer_value(id);
        const char *text = json_string_value(ct);
        b->tok[k].ptr = text, b->tok[k].len = strlen(text);
        b->type[k] = (json_is_true(json_object_get(a, "special")) || lgg__cv_looks_special(text)) ? 3 : 4;
        if (b->type[k] == 4) { /* the reference writes user-defined spaces as ' ' */
            free(b->own[k]);
            if (!(b->own[k] = lgg__cv_unspace(text))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
            b->tok[k].ptr = b->own[k], b->tok[k].len = strlen(b->own[k]);
        }
    }
    size_t pads = 0;
    for (i = 0; i < b->n; i++) pads += !b->tok[i].ptr;
    if (pads && !(b->pads = malloc(pads * 24))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    char *w = b->pads;
    for (i = 0; i < b->n; i++) {
        if (b->tok[i].ptr) continue;
        int l = snprintf(w, 24, "[PAD%zu]", i);
        b->tok[i].ptr = w, b->tok[i].len = (size_t)l, b->type[i] = 5;
        w += 24;
    }
    return LGG_OK;
}

static lgg_status merges(lgg_convert *c, const json_t *model, bpe *b, lgg_error *err) {
    const json_t *m = json_object_get(model, "merges");
    size_t n = json_array_size(m), i;
    if (!n) return LGG_OK;
    b->merges = calloc(n, sizeof *b->merges);
    b->merge_own = calloc(n, sizeof *b->merge_own);
    if (!b->merges || !b->merge_own) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    const json_t *e;
    json_array_foreach(m, i, e) {
        if (!(b->merge_own[i] = merge_text(e)))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: model.merges[%zu] is not a merge rule", c->dir, i);
        b->merges[i].ptr = b->merge_own[i], b->merges[i].len = strlen(b->merge_own[i]);
        b->n_merges = i + 1;
    }
    return LGG_OK;
}

/* Each token through the style's rewrite (NULL: kept as it is). */
static lgg_status rewrite(lgg_convert *c, const cv_vocab_style *vs, bpe *b, lgg_error *err) {
    for (size_t i = 0; vs->rewrite && i < b->n; i++) {
        char *r = vs->rewrite(b->tok[i].ptr, b->tok[i].len);
        if (r == b->tok[i].ptr) continue;
        if (!r) return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", c->dir);
        free(b->own[i]);
        b->own[i] = r;
        b->tok[i].ptr = r, b->tok[i].len = strlen(r);
    }
    return LGG_OK;
}

static lgg_status write_bpe(lgg_convert *c, const bpe *b, const char *model, const char *pre, lgg_error *err) {
    lgg_wvalue tok = {LGG_VT_ARRAY, LGG_VT_STRING, b->n, b->tok};
    lgg_wvalue ty = {LGG_VT_ARRAY, LGG_VT_I32, b->n, b->type};
    lgg_wvalue mg = {LGG_VT_ARRAY, LGG_VT_STRING, b->n_merges, b->merges};
    if (lgg_writer_set_str(c->w, "tokenizer.ggml.model", model, NULL) ||
        lgg_writer_set_str(c->w, "tokenizer.ggml.pre", pre, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tok, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &ty, NULL) ||
        (b->n_merges && lgg_writer_set(c->w, "tokenizer.ggml.merges", 21, &mg, NULL)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return LGG_OK;
}

lgg_status lgg__cv_bpe(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const cv_vocab_style GPT2 = {"gpt2", NULL, 0};
    return lgg__cv_vocab_json(c, tc, o, &GPT2, err);
}

lgg_status lgg__cv_vocab_json(lgg_convert *c, json_t *tc, const lgg_convert_options *o, const cv_vocab_style *vs,
                              lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    const json_t *model = json_object_get(tj, "model"), *vocab = json_object_get(model, "vocab");
    const json_t *added = json_object_get(tj, "added_tokens");
    bpe b = {0};
    lgg_str *by = NULL;
    size_t n_ids = 0;
    if (!json_is_object(vocab))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: key 'model.vocab' is missing", c->dir);
    if (!st) st = base_by_id(c, vocab, &by, &n_ids, err);
    const char *pre = NULL;
    if (!st) st = pre_name(c, tj, by, n_ids, o, &pre, err);
    if (!st) {
        json_t *vsz = json_object_get(c->config, "vocab_size");
        b.n = json_is_integer(vsz) && json_integer_value(vsz) >= 0 ? (size_t)json_integer_value(vsz)
                                                                 : json_object_size(vocab) + json_array_size(added);
        if (n_ids > b.n)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: token id %zu is beyond config.json's vocab_size %zu",
                              c->dir, n_ids - 1, b.n);
        else if (b.n > (64u << 20))
            st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/config.json: vocab_size %zu is too large", c->dir, b.n);
    }
    if (!st && (!(b.tok = calloc(b.n + 1, sizeof *b.tok)) || !(b.type = calloc(b.n + 1, sizeof *b.type)) ||
                !(b.own = calloc(b.n + 1, sizeof *b.own))))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) st = fill_tokens(c, added, by, n_ids, &b, err);
    if (!st) st = merges(c, model, &b, err);
    if (!st) st = rewrite(c, vs, &b, err);
    if (!st) st = write_bpe(c, &b, vs->model, pre, err);
    if (!st) st = lgg__cv_special_vocab(c, tc, vs->bound_ids ? b.n : SIZE_MAX, err);
    free(by);
    bpe_free(&b);
    json_decref(tj);
    return st;
}
