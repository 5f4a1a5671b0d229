/* hfvocab.c -- gguf-py's LlamaHfVocab: a byte-fallback BPE tokenizer.json
 * (a Sequence decoder) read as a SentencePiece-style llama vocabulary, with
 * the token types transformers' fast tokenizer gives.  The reference's
 * LlamaModel tries it when a folder has no tokenizer.model (tokenizer.c),
 * DeciLM-7B always (families/deci.c). */
#include "cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TT_NORMAL = 1, TT_CONTROL = 3, TT_USER = 4, TT_BYTE = 6 };

/* What LlamaHfVocab makes of a tokenizer.json. */
typedef enum hf_kind { HF_LLAMA, HF_LLAMA3, HF_OTHER } hf_kind;

/* A Llama tokenizer is a BPE model with byte_fallback and a Sequence
 * decoder; a Llama 3 one (ignore_merges, no byte fallback) the reference
 * names in its refusal. */
static hf_kind hf_classify(const json_t *tj) {
    const json_t *model = json_object_get(tj, "model"), *bf = json_object_get(model, "byte_fallback");
    const char *type = json_string_value(json_object_get(model, "type"));
    const char *dec = json_string_value(json_object_get(json_object_get(tj, "decoder"), "type"));
    if (!type || strcmp(type, "BPE")) return HF_OTHER;
    if (json_is_true(json_object_get(model, "ignore_merges")) && json_is_false(bf)) return HF_LLAMA3;
    return json_is_true(bf) && dec && !strcmp(dec, "Sequence") ? HF_LLAMA : HF_OTHER;
}

int lgg__cv_llama_hf_applies(lgg_convert *c) {
    json_t *tj = NULL;
    lgg_error e;
    if (!lgg__cv_exists(c, "tokenizer.json", NULL) || lgg__cv_tokenizer_json(c, 0, &tj, &e) != LGG_OK || !tj) return 0;
    int yes = hf_classify(tj) == HF_LLAMA;
    json_decref(tj);
    return yes;
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

/* The tokens as `how` names its model: "llama" with pre "default"
 * (LlamaModel's), another name without a pre (Gemma 4's "gemma4"), the
 * tokens of how->user_defined made USER_DEFINED; then the merges when
 * how->merges. */
static lgg_status write_as(lgg_convert *c, const cv_hf_vocab *how, const json_t *model, size_t n, const lgg_str *tok,
                           const float *score, int32_t *tt, lgg_error *err) {
    for (const char *const *u = how->user_defined; u && *u; u++)
        for (size_t i = 0; i < n; i++)
            if (tok[i].len == strlen(*u) && !memcmp(tok[i].ptr, *u, tok[i].len)) tt[i] = TT_USER;
    if (!strcmp(how->model, "llama")) return lgg__cv_llama_tokens(c, n, tok, score, tt, err);
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, tok};
    lgg_wvalue sc = {LGG_VT_ARRAY, LGG_VT_F32, n, score};
    lgg_wvalue ty = {LGG_VT_ARRAY, LGG_VT_I32, n, tt};
    if (lgg_writer_set_str(c->w, "tokenizer.ggml.model", how->model, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tv, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.scores", 21, &sc, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &ty, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return how->merges ? lgg__cv_write_merges(c, model, err) : LGG_OK;
}

lgg_status lgg__cv_llama_hf_vocab(lgg_convert *c, json_t *tc, lgg_error *err) {
    static const cv_hf_vocab LLAMA = {"llama", NULL, 0};
    return lgg__cv_llama_hf_vocab_as(c, tc, &LLAMA, err);
}

/* gguf-py's LlamaHfVocab: a byte-fallback BPE tokenizer.json read as a
 * llama vocabulary: the base tokens by id (BYTE for <0xXX>, CONTROL for the
 * special tokens, else NORMAL), then the added tokens past them in id order
 * (CONTROL when special, else USER_DEFINED), every score -1000. */
lgg_status lgg__cv_llama_hf_vocab_as(lgg_convert *c, json_t *tc, const cv_hf_vocab *how, lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    const json_t *model = json_object_get(tj, "model"), *vocab = json_object_get(model, "vocab");
    const json_t *added = json_object_get(tj, "added_tokens");
    hf_kind kind = hf_classify(tj);
    if (kind == HF_LLAMA3)
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/tokenizer.json: a Llama 3 tokenizer, which the reference's LlamaHfVocab "
                          "refuses", c->dir);
    else if (kind != HF_LLAMA || !json_is_object(vocab))
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
    if (!st) st = write_as(c, how, model, n, tok, score, tt, err);
    if (!st) st = lgg__cv_special_vocab(c, tc, n, err);
    free(tok), free(score), free(tt);
    json_decref(tj);
    return st;
}

