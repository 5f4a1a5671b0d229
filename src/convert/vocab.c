/* vocab.c -- tokenizer metadata as the reference converter writes it:
 * SentencePiece pieces (tokenizer.model) amended by added_tokens.json and
 * tokenizer_config.json's added_tokens_decoder, then the special tokens
 * (tokenizer.json's added tokens, config.json's *_token_id), the add_*_token
 * flags and the chat template. */
#include "cvint.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { TT_NORMAL = 1, TT_UNKNOWN = 2, TT_CONTROL = 3, TT_USER = 4, TT_UNUSED = 5 };

typedef struct vocab {
    size_t n;
    lgg_str *tok;
    float *score;
    int32_t *type;
    char **owned; /* texts this file allocated, one per slot (NULL: points elsewhere) */
} vocab;

static void vocab_free(vocab *v) {
    for (size_t i = 0; v->owned && i < v->n; i++) free(v->owned[i]);
    free(v->owned);
    free(v->tok);
    free(v->score);
    free(v->type);
}

static int vocab_set(vocab *v, size_t i, const char *s, size_t len) {
    char *p = malloc(len + 1);
    if (!p) return 0;
    memcpy(p, s, len);
    p[len] = 0;
    free(v->owned[i]);
    v->owned[i] = p;
    v->tok[i].ptr = p;
    v->tok[i].len = len;
    return 1;
}

/* The reference's list of added tokens that are control tokens even when
 * not marked special. */
int lgg__cv_looks_special(const char *t) {
    size_t n = strlen(t);
#define PRE(s) (n >= sizeof(s) - 1 && !memcmp(t, s, sizeof(s) - 1))
#define SUF(s) (n >= sizeof(s) - 1 && !memcmp(t + n - (sizeof(s) - 1), s, sizeof(s) - 1))
    return !strcmp(t, "<pad>") || !strcmp(t, "<mask>") || !strcmp(t, "<2mass>") || !strcmp(t, "[@BOS@]") ||
           (PRE("<|") && SUF("|>")) || (PRE("<\xef\xbd\x9c") && SUF("\xef\xbd\x9c>")) || (PRE("<unused") && SUF(">"));
#undef PRE
#undef SUF
}

static lgg_status read_file(lgg_convert *c, const char *name, void **map, size_t *size, lgg_error *err) {
    char *p = lgg__cv_path(c->dir, name), *b = NULL;
    if (!p) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_status st = lgg__cv_load(c, name, UINT64_MAX, &b, size, err);
    if (!st && (!b || !*size)) st = lgg__cv_fail(err, LGG_ERR_IO, "%s: %s", p, b ? "empty or unreadable" : "too large");
    if (!st) st = lgg__cv_note_input(c, p, err);
    if (st) free(b);
    else *map = b;
    free(p);
    return st;
}

lgg_status lgg__cv_map_file(lgg_convert *c, const char *name, void **map, size_t *size, lgg_error *err) {
    return read_file(c, name, map, size, err);
}

/* Pieces of tokenizer.model into v (vocab_size slots, [PADi] for the rest). */
static lgg_status spm_pieces(lgg_convert *c, vocab *v, void **map, size_t *msize, lgg_spm **spm, lgg_error *err) {
    lgg_status st = read_file(c, "tokenizer.model", map, msize, err);
    if (st) return st;
    lgg_error e2;
    if ((st = lgg_spm_parse(*map, *msize, spm, &e2)) != LGG_OK)
        return lgg__cv_fail(err, st, "%s/%s", c->dir, e2.message);
    size_t np = lgg_spm_count(*spm);
    json_t *vs = json_object_get(c->config, "vocab_size");
    v->n = json_is_integer(vs) ? (size_t)json_integer_value(vs) : np;
    if (json_is_integer(vs) && (json_integer_value(vs) < 0 || (uint64_t)json_integer_value(vs) < np))
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/tokenizer.model: %zu pieces, more than config.json's vocab_size %lld", c->dir, np,
                            (long long)json_integer_value(vs));
    if (v->n > (64u << 20)) return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/config.json: vocab_size %zu is too large", c->dir, v->n);
    v->tok = calloc(v->n ? v->n : 1, sizeof *v->tok);
    v->score = calloc(v->n ? v->n : 1, sizeof *v->score);
    v->type = calloc(v->n ? v->n : 1, sizeof *v->type);
    v->owned = calloc(v->n ? v->n : 1, sizeof *v->owned);
    if (!v->tok || !v->score || !v->type || !v->owned) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    int internlm2 = (c->fam->flags & CV_F_INTERNLM2_VOCAB) != 0;
    for (size_t i = 0; i < v->n; i++) {
        if (i < np) {
            const lgg_spm_piece *p = lgg_spm_at(*spm, i);
            v->tok[i] = p->piece, v->score[i] = p->score, v->type[i] = p->type;
            if (internlm2 && p->piece.len == 1 && !p->piece.ptr[0] && !vocab_set(v, i, "\xf0\x9f\x90\x89", 4))
                return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory"); /* the reference's stand-in for NUL */
            if (internlm2 && p->piece.len >= 7 && !memcmp(p->piece.ptr, "[UNUSED", 7)) v->type[i] = TT_UNUSED;
            continue;
        }
        char pad[32];
        int l = snprintf(pad, sizeof pad, "[PAD%zu]", i);
        if (!vocab_set(v, i, pad, (size_t)l)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        v->score[i] = -10000.0f, v->type[i] = TT_UNUSED;
    }
    return LGG_OK;
}

static lgg_status added_tokens_json(lgg_convert *c, vocab *v, lgg_error *err) {
    json_t *j;
    lgg_status st = lgg__cv_json(c, "added_tokens.json", 0, &j, err);
    if (st || !j) return st;
    if (c->fam->flags & CV_F_INTERNLM2_VOCAB) { /* the reference appends them past vocab_size */
        json_decref(j);
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/added_tokens.json: InternLM2's appended tokens are not supported",
                            c->dir);
    }
    const char *k;
    json_t *id;
    json_object_foreach(j, k, id) {
        if (!json_is_integer(id) || json_integer_value(id) < 0) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/added_tokens.json: key '%s': id is not a token number", c->dir, k);
            break;
        }
        if ((uint64_t)json_integer_value(id) >= v->n) continue; /* the reference warns and ignores it */
        size_t i = (size_t)json_integer_value(id);
        if (!vocab_set(v, i, k, strlen(k))) {
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
            break;
        }
        v->score[i] = -1000.0f, v->type[i] = TT_USER;
    }
    json_decref(j);
    return st;
}

/* Replace every U+2581 (the SentencePiece space) with ' '. */
char *lgg__cv_unspace(const char *s) {
    char *o = malloc(strlen(s) + 1), *w = o;
    if (!o) return NULL;
    for (const char *p = s; *p;) {
        if (!strncmp(p, "\xe2\x96\x81", 3)) *w++ = ' ', p += 3;
        else *w++ = *p++;
    }
    *w = 0;
    return o;
}

/* One added token over slot `id`: a control token when special (or, unless
 * as_written, when it looks special), else user-defined with its
 * SentencePiece spaces made plain (unless as_written). */
static lgg_status added_token(lgg_convert *c, vocab *v, const char *where, unsigned long long id, json_t *d, int as_written,
                              lgg_error *err) {
    json_t *content = json_object_get(d, "content");
    if (!json_is_string(content))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: added token %llu: no content", c->dir, where, id);
    if (id >= v->n)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: added token %llu: beyond vocab_size %zu", c->dir, where, id, v->n);
    const char *text = json_string_value(content);
    int special = json_is_true(json_object_get(d, "special")) || (!as_written && lgg__cv_looks_special(text));
    char *t = special || as_written ? strdup(text) : lgg__cv_unspace(text);
    if (!t) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    int ok = vocab_set(v, (size_t)id, t, strlen(t));
    free(t);
    if (!ok) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    v->type[id] = special ? TT_CONTROL : TT_USER;
    v->score[id] = -1000.0f;
    if (!strcmp(text, "<|im_end|>") && ((c->fam->flags & CV_F_INTERNLM2_VOCAB) ||
                                        ((c->fam->flags & CV_F_INTERNLM3_VOCAB) && json_is_true(json_object_get(d, "special")))))
        c->has_chat_eos = 1, c->chat_eos = (uint32_t)id;
    return LGG_OK;
}

/* Arctic's own rules for one added token (its checkpoint redefines pieces
 * as its bos and eos). */
static lgg_status arctic_token(lgg_convert *c, json_t *tc, vocab *v, unsigned long long id, json_t *d, lgg_error *err) {
    json_t *content = json_object_get(d, "content");
    if (id >= v->n) return LGG_OK; /* the reference ignores it */
    if (!json_is_string(content))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer_config.json: added token %llu: no content", c->dir, id);
    const char *text = json_string_value(content), *unk = json_string_value(json_object_get(tc, "unk_token"));
    if (!vocab_set(v, (size_t)id, text, json_string_length(content))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    int special = json_is_true(json_object_get(d, "special"));
    v->type[id] = !special ? TT_USER : unk && !strcmp(text, unk) ? TT_UNKNOWN : TT_CONTROL;
    v->score[id] = special ? 0.0f : -10000.0f;
    return LGG_OK;
}

static lgg_status added_tokens_decoder(lgg_convert *c, json_t *tc, vocab *v, lgg_error *err) {
    int phi3 = (c->fam->flags & (CV_F_PHI3_VOCAB | CV_F_INTERNLM2_VOCAB)) != 0; /* added tokens as written */
    json_t *atd = json_object_get(tc, "added_tokens_decoder");
    const char *k;
    json_t *d;
    json_object_foreach(atd, k, d) {
        char *end;
        errno = 0;
        unsigned long long id = strtoull(k, &end, 10);
        if (!*k || *end || errno)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer_config.json: added_tokens_decoder key '%s': bad entry",
                                c->dir, k);
        lgg_status st = (c->fam->flags & CV_F_ARCTIC_VOCAB) ? arctic_token(c, tc, v, id, d, err)
                                                             : added_token(c, v, "tokenizer_config.json", id, d, phi3, err);
        if (st) return st;
    }
    return LGG_OK;
}

/* Phi-3 also takes tokenizer.json's added tokens over the pieces. */
static lgg_status added_tokens_tokenizer(lgg_convert *c, vocab *v, lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 0, &tj, err);
    size_t i;
    json_t *d;
    json_array_foreach(st || !tj ? NULL : json_object_get(tj, "added_tokens"), i, d) {
        json_t *id = json_object_get(d, "id");
        if (!json_is_integer(id) || json_integer_value(id) < 0) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: added token %zu: id is not a token number", c->dir, i);
            break;
        }
        if ((st = added_token(c, v, "tokenizer.json", (unsigned long long)json_integer_value(id), d, 1, err))) break;
    }
    json_decref(tj);
    return st;
}

lgg_status lgg__cv_llama_tokens(lgg_convert *c, size_t n, const lgg_str *tok, const float *score, const int32_t *type,
                                lgg_error *err) {
    return lgg__cv_model_tokens(c, "llama", n, tok, score, type, err);
}

lgg_status lgg__cv_model_tokens(lgg_convert *c, const char *model, size_t n, const lgg_str *tok, const float *score,
                                const int32_t *type, lgg_error *err) {
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, tok};
    lgg_wvalue sc = {LGG_VT_ARRAY, LGG_VT_F32, n, score};
    lgg_wvalue ty = {LGG_VT_ARRAY, LGG_VT_I32, n, type};
    if (lgg_writer_set_str(c->w, "tokenizer.ggml.model", model, NULL) ||
        lgg_writer_set_str(c->w, "tokenizer.ggml.pre", "default", NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tv, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.scores", 21, &sc, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &ty, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return LGG_OK;
}

static lgg_status write_tokens(lgg_convert *c, const vocab *v, lgg_error *err) {
    return lgg__cv_llama_tokens(c, v->n, v->tok, v->score, v->type, err);
}

static lgg_status spm_vocab(lgg_convert *c, json_t *tc, vocab *v, lgg_error *err) {
    void *map = NULL;
    size_t msize = 0;
    lgg_spm *spm = NULL;
    lgg_status st = spm_pieces(c, v, &map, &msize, &spm, err);
    if (!st && !(c->fam->flags & CV_F_ARCTIC_VOCAB)) st = added_tokens_json(c, v, err);
    if (!st && tc) st = added_tokens_decoder(c, tc, v, err);
    if (!st && (c->fam->flags & (CV_F_PHI3_VOCAB | CV_F_INTERNLM2_VOCAB))) st = added_tokens_tokenizer(c, v, err);
    if (!st) st = write_tokens(c, v, err); /* the writer copies the texts */
    if (!st && (c->fam->flags & CV_F_INTERNLM2_VOCAB) &&
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", lgg_spm_get_specs(spm)->add_dummy_prefix, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_space_prefix");
    json_t *aps = tc ? json_object_get(tc, "add_prefix_space") : NULL;
    if (!st && (c->fam->flags & CV_F_INTERNLM3_VOCAB) && json_is_boolean(aps) &&
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", json_is_true(aps), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_space_prefix");
    lgg_spm_free(spm);
    free(map);
    return st;
}

/* The types the files give (N_FILE_SPECIAL), then eot and eom, which only a
 * family sets (c->late_special; master's post-processor may add eot). */
enum { N_FILE_SPECIAL = 7, N_SPECIAL = 9 };
static const char *const SPECIAL[N_SPECIAL] = {"bos", "eos", "unk", "sep", "pad", "cls", "mask", "eot", "eom"};
/* The writer has no setter for cls, so the reference skips it. */
static const char *const SPECIAL_KEY[N_SPECIAL] = {
    "tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id", "tokenizer.ggml.unknown_token_id",
    "tokenizer.ggml.seperator_token_id", "tokenizer.ggml.padding_token_id", NULL, "tokenizer.ggml.mask_token_id",
    "tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"};

typedef struct special {
    int64_t id[N_SPECIAL];
    int order[N_SPECIAL], n_order;
    cv_master_add add; /* add_bos_token, add_eos_token (and target master's add_sep_token) */
    int n_types;       /* the types read from the files: N_FILE_SPECIAL, + eot when master's post-processor adds it */
    size_t n_vocab;
    int norm[2]; /* target master: tokenizer.json's normalizer's lowercase, strip_accents (-1 unset, 0, 1) */
} special;

static int json_truth(const json_t *v) {
    return json_is_true(v) || (json_is_integer(v) && json_integer_value(v)) || (json_is_real(v) && json_real_value(v)) ||
           (json_is_string(v) && json_string_length(v)) || (json_is_array(v) && json_array_size(v)) ||
           (json_is_object(v) && json_object_size(v));
}

/* master's reading of the normalizer (Lowercase, StripAccents, a
 * BertNormalizer's flags, a Sequence of them; a null flag leaves it unset). */
static void normalizer_flags(const json_t *n, int norm[2], int depth) {
    const char *ty = json_string_value(json_object_get(n, "type"));
    if (!ty || depth > 8) return;
    if (!strcmp(ty, "Lowercase")) norm[0] = 1;
    else if (!strcmp(ty, "StripAccents")) norm[1] = 1;
    else if (!strcmp(ty, "BertNormalizer")) {
        static const char *const key[2] = {"lowercase", "strip_accents"};
        for (int k = 0; k < 2; k++) {
            const json_t *v = json_object_get(n, key[k]);
            if (v) norm[k] = json_is_null(v) ? -1 : json_truth(v);
        }
    } else if (!strcmp(ty, "Sequence")) {
        size_t i;
        const json_t *e;
        json_array_foreach(json_object_get(n, "normalizers"), i, e) normalizer_flags(e, norm, depth + 1);
    }
}

static lgg_status set_special(lgg_convert *c, special *s, int typ, const json_t *v, const char *where, lgg_error *err) {
    if (!json_is_integer(v) || (typ == 4 && c->no_pad_special)) return LGG_OK;
    json_int_t id = json_integer_value(v);
    if (id < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: %s token id %lld is negative", c->dir, where, SPECIAL[typ],
                            (long long)id);
    if ((uint64_t)id >= s->n_vocab || s->id[typ] >= 0) return LGG_OK;
    s->id[typ] = id;
    s->order[s->n_order++] = typ;
    return LGG_OK;
}

/* Special token names resolve only through tokenizer.json's added tokens.
 * Target master reads tokenizer.json's post-processor first (into s->add
 * and tc, a copy). */
static lgg_status special_from_tokenizer(lgg_convert *c, json_t *tc, special *s, lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 0, &tj, err);
    if (st) return st;
    int eot = 0;
    if (c->master && tj) lgg__cv_master_post(tj, tc, &s->add, &eot);
    if (c->master && tj) normalizer_flags(json_object_get(tj, "normalizer"), s->norm, 0);
    s->n_types = N_FILE_SPECIAL + eot;
    json_t *added = tj ? json_object_get(tj, "added_tokens") : NULL;
    for (int typ = 0; tc && typ < s->n_types && !st; typ++) {
        char key[32];
        snprintf(key, sizeof key, "add_%s_token", SPECIAL[typ]);
        json_t *a = json_object_get(tc, key);
        int k = typ < 2 ? typ : typ == 3 && c->master ? 2 : -1; /* bos, eos; sep: master writes it */
        if (k >= 0 && json_is_boolean(a)) {
            int i = 0;
            while (i < s->add.n && s->add.order[i] != k) i++;
            if (i == s->add.n) s->add.order[s->add.n++] = k;
            s->add.val[k] = json_is_true(a);
        }
        snprintf(key, sizeof key, "%s_token", SPECIAL[typ]);
        json_t *e = json_object_get(tc, key);
        if (json_is_object(e)) e = json_object_get(e, "content");
        if (!json_is_string(e)) continue;
        size_t i;
        json_t *at;
        json_array_foreach(added, i, at) {
            json_t *ct = json_object_get(at, "content");
            if (json_is_string(ct) && json_equal(ct, e)) {
                st = set_special(c, s, typ, json_object_get(at, "id"), "tokenizer.json", err);
                break;
            }
        }
    }
    json_decref(tj);
    return st;
}

/* The add_*_token flags, in the order they were set (a key the family's
 * parameters wrote, Phi-2's add_bos_token: lgg__cv_may_write). */
static lgg_status add_flags(lgg_convert *c, const special *s, lgg_error *err) {
    static const char *const ADD_KEY[3] = {"tokenizer.ggml.add_bos_token", "tokenizer.ggml.add_eos_token",
                                           "tokenizer.ggml.add_sep_token"};
    for (int i = 0; i < s->add.n; i++) {
        const char *key = ADD_KEY[s->add.order[i]];
        if (lgg__cv_may_write(c, key) &&
            lgg_writer_set_bool(c->w, key, s->add.val[s->add.order[i]] != 0, NULL))
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    }
    return LGG_OK;
}

lgg_status lgg__cv_special_vocab(lgg_convert *c, json_t *tc, size_t n_vocab, lgg_error *err) {
    special s = {.n_vocab = n_vocab, .norm = {-1, -1}};
    for (int i = 0; i < N_SPECIAL; i++) s.id[i] = -1;
    json_t *own = c->master && tc ? json_deep_copy(tc) : NULL; /* master's post-processor rewrites its tokens */
    if (c->master && tc && !own) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (own) tc = own;
    lgg_status st = special_from_tokenizer(c, tc, &s, err);
    for (int typ = 0; typ < s.n_types && !st; typ++) {
        char key[32];
        snprintf(key, sizeof key, "%s_token_id", SPECIAL[typ]);
        st = set_special(c, &s, typ, json_object_get(c->config, key), "config.json", err);
    }
    if (c->has_chat_eos && s.id[1] >= 0) s.id[1] = c->chat_eos; /* InternLM2's chat models end a turn with it */
    int from_files = s.n_order;
    for (int k = 0; k < c->n_late_special && !st; k++) {
        if (c->late_special[k].if_none && from_files) continue;
        json_t *id = json_integer(c->late_special[k].id);
        int typ = 0;
        while (typ < N_SPECIAL - 1 && strcmp(SPECIAL[typ], c->late_special[k].type)) typ++;
        st = id ? set_special(c, &s, typ, id, "tokenizer.json", err) : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        json_decref(id);
    }
    for (int k = 0; k < s.n_order && !st; k++) {
        int typ = s.order[k];
        if (SPECIAL_KEY[typ] && lgg_writer_set_u32(c->w, SPECIAL_KEY[typ], (uint32_t)s.id[typ], NULL))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", SPECIAL_KEY[typ]);
    }
    if (!st) st = add_flags(c, &s, err);
    if (!st) st = lgg__cv_chat_template(c, tc, err);
    static const char *const NORM_KEY[2] = {"tokenizer.ggml.normalizer.lowercase", "tokenizer.ggml.normalizer.strip_accents"};
    for (int k = 0; k < 2 && !st; k++)
        if (s.norm[k] >= 0 && lgg_writer_set_bool(c->w, NORM_KEY[k], s.norm[k] != 0, NULL))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", NORM_KEY[k]);
    json_decref(own);
    return st;
}

/* A SentencePiece vocabulary (tokenizer.model, added tokens) and its
 * special tokens. */
lgg_status lgg__cv_spm(lgg_convert *c, json_t *tc, lgg_error *err) {
    vocab v = {0};
    lgg_status st = spm_vocab(c, tc, &v, err);
    if (!st) st = lgg__cv_special_vocab(c, tc, v.n, err);
    vocab_free(&v);
    return st;
}

char *lgg__cv_merge_text(const json_t *m) {
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

lgg_status lgg__cv_write_merges(lgg_convert *c, const json_t *model, lgg_error *err) {
    const json_t *m = json_object_get(model, "merges"), *e;
    size_t n = json_array_size(m), i, done = 0;
    if (!n) return LGG_OK;
    lgg_str *mg = calloc(n, sizeof *mg);
    lgg_status st = mg ? LGG_OK : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) json_array_foreach(m, i, e) {
        char *t = lgg__cv_merge_text(e);
        if (!t) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: model.merges[%zu] is not a merge rule", c->dir, i);
            break;
        }
        mg[done].ptr = t, mg[done++].len = strlen(t);
    }
    lgg_wvalue v = {LGG_VT_ARRAY, LGG_VT_STRING, n, mg};
    if (!st && lgg_writer_set(c->w, "tokenizer.ggml.merges", 21, &v, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.merges");
    for (size_t k = 0; k < done; k++) free((char *)mg[k].ptr);
    free(mg);
    return st;
}
