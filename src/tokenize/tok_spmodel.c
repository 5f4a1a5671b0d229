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
 * to give sentencepiece's ids for these models.  The model is read by
 * lgg_spm_parse (tok_spm_proto.c), the reader the converter uses too. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

typedef struct spm_model {
    lgg_str *piece;
    float *score;
    int32_t *type;
    size_t n;
    lgg_spm_specs sp;
} spm_model;

/* The pieces (their types as the model stores them) and specs, through the
 * one ModelProto reader (tok_spm_proto.c). */
static lgg_status read_model(const uint8_t *data, size_t n, spm_model *m, lgg_error *err) {
    lgg_spm *spm = NULL;
    lgg_status st = lgg_spm_parse(data, n, &spm, err);
    if (st) return st;
    m->n = lgg_spm_count(spm);
    m->sp = *lgg_spm_get_specs(spm);
    m->piece = malloc(m->n * sizeof *m->piece);
    m->score = malloc(m->n * sizeof *m->score);
    m->type = malloc(m->n * sizeof *m->type);
    if (!m->piece || !m->score || !m->type) st = lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory reading tokenizer.model");
    for (size_t i = 0; !st && i < m->n; i++) {
        const lgg_spm_piece *p = lgg_spm_at(spm, i);
        m->piece[i] = p->piece, m->score[i] = p->score, m->type[i] = p->proto_type;
    }
    lgg_spm_free(spm);
    return st;
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
    int unigram = m.sp.model_type == 1;
    int identity = m.sp.normalizer_name.len == 8 && !memcmp(m.sp.normalizer_name.ptr, "identity", 8);
    /* what llama.cpp's algorithms (and so this part) cannot do as sentencepiece does */
    if (!st && m.sp.model_type != 1 && m.sp.model_type != 2)
        st = lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                           "tokenizer.model: trainer_spec.model_type %d (only UNIGRAM and BPE) is not supported",
                           m.sp.model_type);
    if (!st && (!m.sp.escape_whitespaces || m.sp.treat_whitespace_as_suffix))
        st = lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                           "tokenizer.model: %s is not supported",
                           m.sp.treat_whitespace_as_suffix ? "trainer_spec.treat_whitespace_as_suffix" : "normalizer_spec.escape_whitespaces false");
    if (!st && !unigram && (!identity || m.sp.remove_extra_whitespaces))
        st = lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                           "tokenizer.model: a BPE model with normalizer '%.*s'%s is not supported (llama.cpp's SPM "
                           "algorithm neither normalizes nor removes extra whitespace)",
                           (int)m.sp.normalizer_name.len, m.sp.normalizer_name.ptr, m.sp.remove_extra_whitespaces ? " removing extra whitespace" : "");
    if (!st && lgg_writer_create(NULL, &w, err)) st = err ? err->code : LGG_ERR_NOMEM;
    if (!st) {
        lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, m.n, m.piece}, ty = {LGG_VT_ARRAY, LGG_VT_I32, m.n, m.type},
                   sc = {LGG_VT_ARRAY, LGG_VT_F32, m.n, m.score};
        st = lgg_writer_set_str(w, "tokenizer.ggml.model", unigram ? "t5" : "llama", NULL);
        if (!st) st = lgg_writer_set(w, "tokenizer.ggml.tokens", 21, &tv, NULL);
        if (!st) st = lgg_writer_set(w, "tokenizer.ggml.token_type", 25, &ty, NULL);
        if (!st) st = lgg_writer_set(w, "tokenizer.ggml.scores", 21, &sc, NULL);
        set_id(w, "tokenizer.ggml.bos_token_id", m.sp.bos_id, m.n, &st);
        set_id(w, "tokenizer.ggml.eos_token_id", m.sp.eos_id, m.n, &st);
        set_id(w, "tokenizer.ggml.unknown_token_id", m.sp.unk_id, m.n, &st);
        /* LlamaTokenizer's defaults: BOS, no EOS */
        if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.add_bos_token", cfg_bool(cfg, "add_bos_token", 1), NULL);
        if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.add_eos_token", cfg_bool(cfg, "add_eos_token", 0), NULL);
        if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.add_space_prefix", m.sp.add_dummy_prefix, NULL);
        if (unigram) {
            if (!st) st = lgg_writer_set_bool(w, "tokenizer.ggml.remove_extra_whitespaces", m.sp.remove_extra_whitespaces, NULL);
            lgg_wvalue cm = {LGG_VT_ARRAY, LGG_VT_U8, m.sp.charsmap_len, m.sp.charsmap};
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
