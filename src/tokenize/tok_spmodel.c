/* tok_spmodel.c -- a checkpoint folder's tokenizer (lgg_tokenizer_open_dir):
 * its tokenizer.json (tok_hf.c), or, without one, its SentencePiece
 * tokenizer.model: the ids sentencepiece's encode gives, plus what
 * transformers' LlamaTokenizer adds (BOS by add_bos_token, default true; EOS
 * by add_eos_token, default false; legacy).
 *
 * The model's pieces, scores and types become an in-memory GGUF vocabulary
 * as the reference converter writes one (convert_hf_to_gguf.py b4747:
 * "llama" for a BPE model, "t5" with the precompiled charsmap for a Unigram
 * one), opened like any GGUF: llama.cpp's SPM and UGM algorithms are written
 * to give sentencepiece's ids for these models.  The protobuf reader is the
 * few fields needed, on a bounded cursor (the converter has its own, and this
 * part may use only libgguf's public API). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

typedef struct pb {
    const uint8_t *p, *end;
} pb;

static int varint(pb *c, uint64_t *v) {
    uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->p >= c->end) return 0;
        uint8_t b = *c->p++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 1;
        }
    }
    return 0;
}

/* the next field: its number, wire type, and value (varint / fixed) or
 * bytes; 0 at the end, -1 when malformed */
static int field(pb *c, unsigned *f, unsigned *wt, uint64_t *v, pb *bytes) {
    if (c->p >= c->end) return 0;
    uint64_t key;
    if (!varint(c, &key)) return -1;
    *f = (unsigned)(key >> 3), *wt = (unsigned)(key & 7);
    switch (*wt) {
    case 0: return varint(c, v) ? 1 : -1;
    case 1:
    case 5: {
        size_t k = *wt == 1 ? 8 : 4;
        if ((size_t)(c->end - c->p) < k) return -1;
        *v = 0;
        for (size_t i = 0; i < k; i++) *v |= (uint64_t)c->p[i] << (8 * i);
        c->p += k;
        return 1;
    }
    case 2:
        if (!varint(c, v) || *v > (uint64_t)(c->end - c->p)) return -1;
        bytes->p = c->p, bytes->end = c->p + *v;
        c->p += *v;
        return 1;
    default: return -1; /* groups: sentencepiece uses none */
    }
}

typedef struct spm_model {
    lgg_str *piece;
    float *score;
    int32_t *type;
    size_t n, cap;
    int model_type, byte_fallback, ws_suffix;
    int64_t unk, bos, eos;
    lgg_str norm_name;
    pb charsmap;
    int add_dummy_prefix, remove_extra_ws, escape_ws;
} spm_model;

static lgg_status bad(lgg_error *err, const char *what, size_t at) {
    return lgg_error_set(err, LGG_ERR_INVALID, at, "tokenizer.model: byte %zu: %s", at, what);
}

static lgg_status read_model(const uint8_t *data, size_t n, spm_model *m, lgg_error *err) {
    pb c = {data, data + n}, sub;
    unsigned f, wt;
    uint64_t v;
    int r;
    m->model_type = 1, m->unk = 0, m->bos = 1, m->eos = 2; /* the proto's defaults */
    m->add_dummy_prefix = m->remove_extra_ws = m->escape_ws = 1;
    while ((r = field(&c, &f, &wt, &v, &sub)) > 0) {
        if (f == 1 && wt == 2) { /* SentencePiece */
            if (lgg__tok_grow((void **)&m->piece, &m->cap, m->n + 1, sizeof *m->piece) ||
                !(m->score = realloc(m->score, m->cap * sizeof *m->score)) ||
                !(m->type = realloc(m->type, m->cap * sizeof *m->type)))
                return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory reading tokenizer.model");
            lgg_str s = {"", 0};
            float score = 0;
            int32_t type = 1;
            pb p = sub, b;
            int q;
            while ((q = field(&p, &f, &wt, &v, &b)) > 0) {
                if (f == 1 && wt == 2) s.ptr = (const char *)b.p, s.len = (size_t)(b.end - b.p);
                else if (f == 2 && wt == 5) {
                    uint32_t u = (uint32_t)v;
                    memcpy(&score, &u, 4);
                } else if (f == 3 && wt == 0) type = (int32_t)v;
            }
            if (q < 0) return bad(err, "a malformed piece", (size_t)(p.p - data));
            m->piece[m->n] = s, m->score[m->n] = score, m->type[m->n++] = type;
        } else if (f == 2 && wt == 2) { /* TrainerSpec */
            pb p = sub, b;
            int q;
            while ((q = field(&p, &f, &wt, &v, &b)) > 0) {
                if (wt != 0) continue;
                if (f == 3) m->model_type = (int)v;
                else if (f == 24) m->ws_suffix = v != 0;
                else if (f == 35) m->byte_fallback = v != 0;
                else if (f == 40) m->unk = (int32_t)v;
                else if (f == 41) m->bos = (int32_t)v;
                else if (f == 42) m->eos = (int32_t)v;
            }
            if (q < 0) return bad(err, "a malformed trainer_spec", (size_t)(p.p - data));
        } else if (f == 3 && wt == 2) { /* NormalizerSpec */
            pb p = sub, b;
            int q;
            while ((q = field(&p, &f, &wt, &v, &b)) > 0) {
                if (f == 1 && wt == 2) m->norm_name = (lgg_str){(const char *)b.p, (size_t)(b.end - b.p)};
                else if (f == 2 && wt == 2) m->charsmap = b;
                else if (f == 3 && wt == 0) m->add_dummy_prefix = v != 0;
                else if (f == 4 && wt == 0) m->remove_extra_ws = v != 0;
                else if (f == 5 && wt == 0) m->escape_ws = v != 0;
            }
            if (q < 0) return bad(err, "a malformed normalizer_spec", (size_t)(p.p - data));
        }
    }
    if (r < 0) return bad(err, "a malformed field", (size_t)(c.p - data));
    if (!m->n) return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "tokenizer.model: no pieces");
    if (m->n > INT32_MAX) return lgg_error_set(err, LGG_ERR_LIMIT, LGG_NO_OFFSET, "tokenizer.model: too many pieces");
    return LGG_OK;
}

/* tokenizer_config.json's booleans (absent: the default) */
static int cfg_bool(json_t *cfg, const char *key, int def) {
    json_t *v = cfg ? json_object_get(cfg, key) : NULL;
    return json_is_boolean(v) ? json_is_true(v) : def;
}

static void set_id(lgg_writer *w, const char *key, int64_t id, size_t n, lgg_status *st) {
    if (!*st && id >= 0 && (uint64_t)id < n) *st = lgg_writer_set_u32(w, key, (uint32_t)id, NULL);
}

static lgg_status open_spm_model(const char *data, size_t n, const char *config, size_t config_len,
                                 lgg_tokenizer **out, lgg_error *err) {
    spm_model m;
    memset(&m, 0, sizeof m);
    json_t *cfg = NULL;
    lgg_writer *w = NULL;
    lgg_file *f = NULL;
    lgg_status st = read_model((const uint8_t *)data, n, &m, err);
    if (!st && config) {
        json_error_t je;
        cfg = json_loadb(config, config_len, 0, &je);
        if (!cfg || !json_is_object(cfg))
            st = lgg_error_set(err, LGG_ERR_INVALID, (size_t)je.position,
                               "tokenizer_config.json: byte %d: %s", je.position, cfg ? "not an object" : je.text);
    }
    int unigram = m.model_type == 1;
    int identity = m.norm_name.len == 8 && !memcmp(m.norm_name.ptr, "identity", 8);
    /* what llama.cpp's algorithms (and so this part) cannot do as sentencepiece does */
    if (!st && m.model_type != 1 && m.model_type != 2)
        st = lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                           "tokenizer.model: trainer_spec.model_type %d (only UNIGRAM and BPE) is not supported",
                           m.model_type);
    if (!st && (!m.escape_ws || m.ws_suffix))
        st = lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                           "tokenizer.model: %s is not supported",
                           m.ws_suffix ? "trainer_spec.treat_whitespace_as_suffix" : "normalizer_spec.escape_whitespaces false");
    if (!st && !unigram && (!identity || m.remove_extra_ws))
        st = lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                           "tokenizer.model: a BPE model with normalizer '%.*s'%s is not supported (llama.cpp's SPM "
                           "algorithm neither normalizes nor removes extra whitespace)",
                           (int)m.norm_name.len, m.norm_name.ptr, m.remove_extra_ws ? " removing extra whitespace" : "");
    if (!st && lgg_writer_create(NULL, &w, err)) st = err ? err->code : LGG_ERR_NOMEM;
    if (!st) {
        lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, m.n, m.piece}, ty = {LGG_VT_ARRAY, LGG_VT_I32, m.n, m.type},
                   sc = {LGG_VT_ARRAY, LGG_VT_F32, m.n, m.score};
        st = lgg_writer_set_str(w, "tokenizer.ggml.model", unigram ? "t5" : "llama", NULL);
        if (!st) st = lgg_writer_set(w, "tokenizer.ggml.tokens", 21, &tv, NULL);
        if (!st) st = lgg_writer_set(w, "tokenizer.ggml.token_type", 25, &ty, NULL);
        if (!st) st = lgg_writer_set(w, "tokenizer.ggml.scores", 21, &sc, NULL);
        set_id(w, "tokenizer.ggml.bos_token_id", m.bos, m.n, &st);
        set_id(w, "tokenizer.ggml.eos_token_id", m.eos, m.n, &st);
        set_id(w, "tokenizer.ggml.unknown_token_id", m.unk, m.n, &st);
        /* LlamaTokenizer's defaults: BOS, no EOS */
        if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.add_bos_token", cfg_bool(cfg, "add_bos_token", 1), NULL);
        if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.add_eos_token", cfg_bool(cfg, "add_eos_token", 0), NULL);
        if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.add_space_prefix", m.add_dummy_prefix, NULL);
        if (unigram) {
            if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.remove_extra_whitespaces", m.remove_extra_ws, NULL);
            lgg_wvalue cm = {LGG_VT_ARRAY, LGG_VT_U8, (size_t)(m.charsmap.end - m.charsmap.p), m.charsmap.p};
            if (!st && cm.count) st = lgg_writer_set(w, "tokenizer.ggml.precompiled_charsmap", 35, &cm, NULL);
        }
        if (st) lgg_error_set(err, st, LGG_NO_OFFSET, "tokenizer.model: %s building its vocabulary", lgg_status_name(st));
    }
    if (!st) st = lgg_writer_describe(w, &f, err);
    if (!st) st = lgg_tokenizer_open_gguf(f, out, err);
    /* legacy false (transformers' LlamaTokenizer): no space prefix after a
     * special token, only at the start of the text */
    if (!st && !cfg_bool(cfg, "legacy", 1)) (*out)->spm_legacy_off = 1;
    lgg_close(f);
    lgg_writer_free(w);
    json_decref(cfg);
    free(m.piece);
    free(m.score);
    free(m.type);
    return st;
}

/* The whole file at path, at most `cap` bytes (more: LGG_ERR_LIMIT). */
static char *slurp(const char *path, size_t cap, size_t *n, lgg_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        lgg_error_set(err, errno == ENOENT ? LGG_ERR_NOT_FOUND : LGG_ERR_IO, LGG_NO_OFFSET, "%s: %s", path, strerror(errno));
        return NULL;
    }
    tok_buf b = {0};
    char chunk[65536];
    size_t k;
    int fail = 0;
    while (!fail && b.n <= cap && (k = fread(chunk, 1, sizeof chunk, f)) > 0) fail = lgg__tok_buf_put(&b, chunk, k);
    fail |= ferror(f);
    fclose(f);
    if (!fail && b.n > cap) { /* stopped at the bound: never more than cap + 64 KiB read */
        lgg__tok_buf_free(&b);
        lgg_error_set(err, LGG_ERR_LIMIT, LGG_NO_OFFSET, "%s: larger than %zu MiB, the most this file may hold", path,
                      cap >> 20);
        return NULL;
    }
    if (fail || lgg__tok_buf_put(&b, "", 0)) {
        lgg__tok_buf_free(&b);
        lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s: read error or out of memory", path);
        return NULL;
    }
    *n = b.n;
    return b.p;
}

lgg_status lgg_tokenizer_open_dir(const char *dir, unsigned flags, lgg_tokenizer **out, lgg_error *err) {
    if (!dir || !out) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenizer_open_dir: NULL argument");
    *out = NULL;
    char path[4096];
    size_t n = 0, cn = 0;
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    lgg_error e1;
    char *json = slurp(path, LGG_TOKENIZER_MAX_JSON, &n, &e1), *cfg = NULL, *model = NULL;
    if (!json && e1.code == LGG_ERR_NOT_FOUND) { /* only a SentencePiece model */
        snprintf(path, sizeof path, "%s/tokenizer.model", dir);
        model = slurp(path, LGG_TOKENIZER_MAX_MODEL, &n, err);
        if (!model && err && err->code == LGG_ERR_NOT_FOUND)
            lgg_error_set(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "%s: neither tokenizer.json nor tokenizer.model", dir);
        if (!model) return err ? err->code : LGG_ERR_NOT_FOUND;
    } else if (!json) {
        if (err) *err = e1;
        return e1.code;
    }
    if (!(flags & LGG_TOKENIZER_JSON_ONLY)) {
        snprintf(path, sizeof path, "%s/tokenizer_config.json", dir);
        lgg_error e2;
        cfg = slurp(path, LGG_TOKENIZER_MAX_CONFIG, &cn, &e2);
        if (!cfg && e2.code != LGG_ERR_NOT_FOUND) {
            free(json);
            free(model);
            if (err) *err = e2;
            return e2.code;
        }
    }
    lgg_status st = model ? open_spm_model(model, n, cfg, cn, out, err)
                          : lgg_tokenizer_open_json(json, n, cfg, cn, out, err);
    free(model);
    free(json);
    free(cfg);
    return st;
}
