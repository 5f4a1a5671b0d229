/* tokenizer.c -- the tokenizer part of a conversion: which vocabulary
 * reader a family's files call for (SentencePiece in vocab.c, BPE in
 * bpe.c; both share vocab.c's special-token handling), then what some
 * families add on top. */
#include "cvint.h"

#include <stdlib.h>
#include <string.h>

/* The end-of-turn id the reference gives every Gemma (default 107) and
 * CodeLlama (32010): named by tokenizer_config.json's eot_token (through
 * tokenizer.json's added tokens), else config.json's eot_token_id, else
 * the default.  (CodeLlama's prefix, suffix and middle ids have no writer
 * method in b4747's gguf-py, so the reference writes only this one.) */
static lgg_status eot_id(lgg_convert *c, json_t *tc, json_int_t dflt, lgg_error *err) {
    json_int_t id = -1;
    json_t *e = tc ? json_object_get(tc, "eot_token") : NULL;
    if (json_is_object(e)) e = json_object_get(e, "content");
    if (json_is_string(e)) {
        json_t *tj = NULL;
        lgg_status st = lgg__cv_tokenizer_json(c, 0, &tj, err);
        if (st) return st;
        size_t i;
        json_t *at;
        json_array_foreach(tj ? json_object_get(tj, "added_tokens") : NULL, i, at) {
            json_t *ct = json_object_get(at, "content"), *v = json_object_get(at, "id");
            if (json_is_string(ct) && json_equal(ct, e)) {
                if (json_is_integer(v)) id = json_integer_value(v);
                break;
            }
        }
        json_decref(tj);
    }
    json_t *cfg = json_object_get(c->config, "eot_token_id");
    if (id < 0 && json_is_integer(cfg)) id = json_integer_value(cfg);
    if (id < 0) id = dflt;
    if (id > UINT32_MAX) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: eot token id %lld is out of range", c->dir, (long long)id);
    return lgg_writer_set_u32(c->w, "tokenizer.ggml.eot_token_id", (uint32_t)id, NULL)
               ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.eot_token_id")
               : LGG_OK;
}

/* tokenizer_config.json's add_prefix_space as tokenizer.ggml.add_space_prefix
 * (CV_F_PREFIX_SPACE_FROM_CONFIG), or false (CV_F_SPACE_PREFIX_FALSE). */
static lgg_status space_prefix(lgg_convert *c, json_t *tc, lgg_error *err) {
    json_t *aps = tc ? json_object_get(tc, "add_prefix_space") : NULL;
    int set = -1;
    if ((c->fam->flags & CV_F_PREFIX_SPACE_FROM_CONFIG) && json_is_boolean(aps)) set = json_is_true(aps);
    if (c->fam->flags & CV_F_SPACE_PREFIX_FALSE) set = 0;
    if (set >= 0 && lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", set != 0, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_space_prefix");
    return LGG_OK;
}

/* master's LlamaModel (and the families over it) writes add_space_prefix
 * before the vocabulary; b4747's and the others' after it. */
static int master_llama_prefix(const lgg_convert *c) {
    return c->master && (c->fam->flags & CV_F_LLAMA_VOCAB_SIZES) && (c->fam->flags & CV_F_PREFIX_SPACE_FROM_CONFIG);
}

static lgg_status family_extras(lgg_convert *c, json_t *tc, lgg_error *err) {
    if (c->fam->flags & CV_F_EOT_107) {
        lgg_status st = eot_id(c, tc, 107, err);
        if (st) return st;
    }
    json_t *vs = json_object_get(c->config, "vocab_size");
    json_int_t n_vocab = json_is_integer(vs) ? json_integer_value(vs) : 32000;
    if ((c->fam->flags & CV_F_LLAMA_VOCAB_SIZES) && n_vocab == 32016) {
        lgg_status st = eot_id(c, tc, 32010, err);
        if (st) return st;
    }
    if (!master_llama_prefix(c)) {
        lgg_status st = space_prefix(c, tc, err);
        if (st) return st;
    }
    /* Granite's small models (a llama with vocab_size 49152) add no BOS; where the
     * tokenizer files set add_bos_token already, the reference stops at the
     * duplicate key: this keeps the one key, false */
    if ((c->fam->flags & CV_F_LLAMA_VOCAB_SIZES) && n_vocab == 49152 &&
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", false, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
    return LGG_OK;
}

lgg_status lgg__cv_vocab(lgg_convert *c, const lgg_convert_options *o, lgg_error *err) {
    json_t *tc = NULL;
    lgg_status st = lgg__cv_json(c, "tokenizer_config.json", 0, &tc, err);
    if (st) return st;
    json_t *cls = tc ? json_object_get(tc, "tokenizer_class") : NULL;
    int gpt2 = json_is_string(cls) && !strcmp(json_string_value(cls), "GPT2Tokenizer");
    if (master_llama_prefix(c) && (st = space_prefix(c, tc, err)) != LGG_OK) {
        json_decref(tc);
        return st;
    }
    if (c->hooks && c->hooks->vocab) {
        st = c->hooks->vocab(c, tc, o, err);
    } else if (c->fam->flags & CV_F_PHI3_VOCAB) { /* by the tokenizer's class: BPE, else SentencePiece or nothing */
        st = gpt2 ? lgg__cv_bpe(c, tc, o, err) : lgg__cv_spm(c, tc, err);
    } else if ((c->fam->vocab & CV_V_SPM) && lgg__cv_exists(c, "tokenizer.model", NULL)) {
        st = lgg__cv_spm(c, tc, err);
    } else if ((c->fam->flags & CV_F_LLAMA_VOCAB_SIZES) && lgg__cv_llama_hf_applies(c)) {
        st = lgg__cv_llama_hf_vocab(c, tc, err); /* LlamaModel.set_vocab's second try */
    } else if (c->fam->vocab & CV_V_BPE) {
        st = lgg__cv_bpe(c, tc, o, err);
    } else {
        char *p = lgg__cv_path(c->dir, "tokenizer.model");
        st = lgg__cv_fail(err, LGG_ERR_IO, "%s: no such file", p ? p : "tokenizer.model");
        free(p);
    }
    if (!st) st = family_extras(c, tc, err);
    json_decref(tc);
    json_decref(c->tokenizer_json); /* read once for the whole step, kept no longer */
    c->tokenizer_json = NULL, c->tokenizer_json_read = 0;
    return st;
}
