/* ugm.c -- a Unigram SentencePiece vocabulary as the reference writes it
 * for XLM-RoBERTa (tokenizer.ggml.model "t5", from sentencepiece.bpe.model):
 * the pieces by id in vocab_size slots ([PADi], score -10000, unused, for
 * ids past the pieces), then shifted one place as Hugging Face's tokenizer
 * does (<s>, <pad>, </s>, <unk> first, the rest moved up by one, the last
 * slot dropped), the normalizer's flags and precompiled character map, and
 * BOS and EOS added. */
#include "cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

lgg_status lgg__cv_token_type_count(lgg_convert *c, lgg_error *err) {
    int64_t n = lgg__cv_hparam_int(c, "type_vocab_size", 1);
    if (n < 0 || n > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'type_vocab_size' is not a 32-bit count", c->dir);
    if (lgg_writer_set_u32(c->w, "tokenizer.ggml.token_type_count", (uint32_t)n, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.token_type_count");
    return LGG_OK;
}

typedef struct ugm {
    size_t n;
    lgg_str *tok;
    float *score;
    int32_t *type;
    char *pads; /* the [PADi] texts, 24 bytes each */
} ugm;

/* Slot i of the list before the shift: piece i, else [PADi]. */
static void slot(const lgg_spm *spm, size_t i, ugm *u, size_t k) {
    const lgg_spm_piece *p = lgg_spm_at(spm, i);
    if (p) {
        u->tok[k] = p->piece, u->score[k] = p->score, u->type[k] = p->type;
    } else {
        int l = snprintf(u->pads + 24 * k, 24, "[PAD%zu]", i);
        u->tok[k].ptr = u->pads + 24 * k, u->tok[k].len = (size_t)l, u->score[k] = -10000.0f, u->type[k] = 5;
    }
}

static lgg_status write_ugm(lgg_convert *c, const ugm *u, const cv_spm_specs *sp, lgg_error *err) {
    lgg_wvalue tok = {LGG_VT_ARRAY, LGG_VT_STRING, u->n, u->tok};
    lgg_wvalue sc = {LGG_VT_ARRAY, LGG_VT_F32, u->n, u->score};
    lgg_wvalue ty = {LGG_VT_ARRAY, LGG_VT_I32, u->n, u->type};
    lgg_wvalue cm = {LGG_VT_ARRAY, LGG_VT_U8, sp->charsmap_len, sp->charsmap};
    if (lgg_writer_set_str(c->w, "tokenizer.ggml.model", "t5", NULL) ||
        lgg_writer_set_str(c->w, "tokenizer.ggml.pre", "default", NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tok, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.scores", 21, &sc, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &ty, NULL) ||
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", sp->add_dummy_prefix, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    lgg_status st = lgg__cv_token_type_count(c, err);
    if (st) return st;
    if (lgg_writer_set_bool(c->w, "tokenizer.ggml.remove_extra_whitespaces", sp->remove_extra_whitespaces, NULL) ||
        (sp->charsmap_len && lgg_writer_set(c->w, "tokenizer.ggml.precompiled_charsmap", 35, &cm, NULL)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return LGG_OK;
}

lgg_status lgg__cv_ugm_xlmr(lgg_convert *c, json_t *tc, lgg_error *err) {
    static const char FILE_NAME[] = "sentencepiece.bpe.model";
    void *map = NULL;
    size_t msize = 0;
    lgg_spm *spm = NULL;
    ugm u = {0};
    cv_spm_specs sp;
    lgg_error e2;
    lgg_status st = lgg__cv_map_file(c, FILE_NAME, &map, &msize, err);
    if (!st && ((st = lgg_spm_parse(map, msize, &spm, &e2)) || (st = lgg__cv_spm_specs(map, msize, &sp, &e2))))
        st = lgg__cv_fail(err, st, "%s/%s: %s", c->dir, FILE_NAME, e2.message);
    if (!st && sp.model_type != 1)
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: model type %u, not Unigram (1)", c->dir, FILE_NAME, sp.model_type);
    if (!st) {
        size_t np = lgg_spm_count(spm);
        int64_t vs = lgg__cv_hparam_int(c, "vocab_size", (int64_t)np);
        if (vs < 4 || (uint64_t)vs < np || vs > (64 << 20))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: vocab_size %lld: not from 4 up to 2^26, or fewer than the %zu pieces",
                              c->dir, (long long)vs, np);
        else
            u.n = (size_t)vs;
    }
    if (!st && (!(u.tok = calloc(u.n, sizeof *u.tok)) || !(u.score = calloc(u.n, sizeof *u.score)) ||
                !(u.type = calloc(u.n, sizeof *u.type)) || !(u.pads = calloc(u.n, 24))))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) {
        static const char *const FIRST[4] = {"<s>", "<pad>", "</s>", "<unk>"};
        for (size_t k = 0; k < 4; k++)
            u.tok[k].ptr = FIRST[k], u.tok[k].len = strlen(FIRST[k]), u.score[k] = 0.0f, u.type[k] = k < 3 ? 3 : 2;
        for (size_t k = 4; k < u.n; k++) slot(spm, k - 1, &u, k);
        st = write_ugm(c, &u, &sp, err);
    }
    if (!st) st = lgg__cv_special_vocab(c, tc, u.n, err);
    if (!st && (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", true, NULL) ||
                lgg_writer_set_bool(c->w, "tokenizer.ggml.add_eos_token", true, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
    free(u.tok), free(u.score), free(u.type), free(u.pads);
    lgg_spm_free(spm);
    free(map);
    return st;
}
