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

/* type_count: tokenizer.ggml.token_type_count after add_space_prefix
 * (XLM-RoBERTa's; T5 writes none). */
static lgg_status write_ugm(lgg_convert *c, const ugm *u, const lgg_spm_specs *sp, int type_count, lgg_error *err) {
    lgg_wvalue cm = {LGG_VT_ARRAY, LGG_VT_U8, sp->charsmap_len, sp->charsmap};
    lgg_status st = lgg__cv_model_tokens(c, "t5", u->n, u->tok, u->score, u->type, err);
    if (st) return st;
    if (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", sp->add_dummy_prefix, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    st = type_count ? lgg__cv_token_type_count(c, err) : LGG_OK;
    if (st) return st;
    if (lgg_writer_set_bool(c->w, "tokenizer.ggml.remove_extra_whitespaces", sp->remove_extra_whitespaces, NULL) ||
        (sp->charsmap_len && lgg_writer_set(c->w, "tokenizer.ggml.precompiled_charsmap", 35, &cm, NULL)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return LGG_OK;
}

/* A Unigram model file, mapped and read, and the slots of its vocabulary. */
typedef struct unigram {
    const char *name;
    void *map;
    size_t msize;
    lgg_spm *spm;
    const lgg_spm_specs *sp;
    ugm u;
} unigram;

static void unigram_free(unigram *g) {
    free(g->u.tok), free(g->u.score), free(g->u.type), free(g->u.pads);
    lgg_spm_free(g->spm);
    free(g->map);
}

/* g->name mapped and read: its pieces and specs. */
static lgg_status unigram_open(lgg_convert *c, unigram *g, lgg_error *err) {
    lgg_error e2;
    lgg_status st = lgg__cv_map_file(c, g->name, &g->map, &g->msize, err);
    if (!st && (st = lgg_spm_parse(g->map, g->msize, &g->spm, &e2)) != LGG_OK)
        st = lgg__cv_fail(err, st, "%s/%s: %s", c->dir, g->name, e2.message);
    if (!st) g->sp = lgg_spm_get_specs(g->spm);
    return st;
}

/* Its pieces (a Unigram model's) and vocab_size slots (at least `min`,
 * at least the pieces; the pieces' count when config.json has none). */
static lgg_status unigram_read(lgg_convert *c, unigram *g, int64_t min, lgg_error *err) {
    if (g->sp->model_type != 1)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: model type %d, not Unigram (1)", c->dir, g->name, (int)g->sp->model_type);
    size_t np = lgg_spm_count(g->spm);
    int64_t vs = lgg__cv_hparam_int(c, "vocab_size", (int64_t)np);
    if (vs < min || (uint64_t)vs < np || vs > (64 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: vocab_size %lld: not from %lld up to 2^26, or fewer than the %zu pieces",
                            c->dir, (long long)vs, (long long)min, np);
    ugm *u = &g->u;
    u->n = (size_t)vs;
    if (!(u->tok = calloc(u->n + 1, sizeof *u->tok)) || !(u->score = calloc(u->n + 1, sizeof *u->score)) ||
        !(u->type = calloc(u->n + 1, sizeof *u->type)) || !(u->pads = calloc(u->n + 1, 24)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* The special tokens, then whether BOS and EOS are added (b4747's; master
 * writes only what the tokenizer files say). */
static lgg_status unigram_tail(lgg_convert *c, json_t *tc, size_t n, int add_bos, lgg_error *err) {
    lgg_status st = lgg__cv_special_vocab(c, tc, n, err);
    if (!st && !c->master && (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", add_bos, NULL) ||
                lgg_writer_set_bool(c->w, "tokenizer.ggml.add_eos_token", true, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
    return st;
}

lgg_status lgg__cv_ugm_xlmr(lgg_convert *c, json_t *tc, lgg_error *err) {
    unigram g = {.name = "sentencepiece.bpe.model"};
    ugm *u = &g.u;
    lgg_status st = unigram_open(c, &g, err);
    if (!st) st = unigram_read(c, &g, 4, err);
    if (!st) {
        static const char *const FIRST[4] = {"<s>", "<pad>", "</s>", "<unk>"};
        for (size_t k = 0; k < 4; k++)
            u->tok[k].ptr = FIRST[k], u->tok[k].len = strlen(FIRST[k]), u->score[k] = 0.0f, u->type[k] = k < 3 ? 3 : 2;
        for (size_t k = 4; k < u->n; k++) slot(g.spm, k - 1, u, k);
        st = write_ugm(c, u, g.sp, 1, err);
    }
    if (!st) st = unigram_tail(c, tc, u->n, 1, err);
    unigram_free(&g);
    return st;
}

/* added_tokens.json's ids below the vocabulary's size: the text, score
 * -1000, user-defined (others are ignored, as the reference warns). */
static lgg_status t5_added(lgg_convert *c, ugm *u, json_t **keep, lgg_error *err) {
    lgg_status st = lgg__cv_json(c, "added_tokens.json", 0, keep, err);
    const char *k;
    json_t *v;
    if (st || !*keep) return st;
    json_object_foreach(*keep, k, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/added_tokens.json: the id of '%.60s' is not a count", c->dir, k);
        if ((uint64_t)json_integer_value(v) >= u->n) continue;
        size_t id = (size_t)json_integer_value(v);
        u->tok[id].ptr = k, u->tok[id].len = strlen(k), u->score[id] = -1000.0f, u->type[id] = 4;
    }
    return LGG_OK;
}

lgg_status lgg__cv_ugm_t5(lgg_convert *c, json_t *tc, lgg_error *err) {
    unigram g = {.name = lgg__cv_exists(c, "tokenizer.model", NULL) ? "tokenizer.model" : "spiece.model"};
    ugm *u = &g.u;
    json_t *added = NULL;
    lgg_status st = unigram_open(c, &g, err);
    if (!st && g.sp->model_type == 2 && !strcmp(g.name, "tokenizer.model")) { /* Pile-T5: a BPE SentencePiece vocabulary */
        unigram_free(&g);
        return lgg__cv_spm(c, tc, err);
    }
    if (!st) st = unigram_read(c, &g, 0, err);
    if (!st) {
        /* the processor's types: unknown, control, unused and byte as such, the rest (user-defined too) normal */
        for (size_t k = 0; k < u->n; k++) {
            slot(g.spm, k, u, k);
            if (k < lgg_spm_count(g.spm) && (u->type[k] < 2 || u->type[k] == 4 || u->type[k] > 6)) u->type[k] = 1;
        }
        st = t5_added(c, u, &added, err);
    }
    if (!st) st = write_ugm(c, u, g.sp, 0, err);
    if (!st) st = unigram_tail(c, tc, u->n, 0, err);
    json_decref(added);
    unigram_free(&g);
    return st;
}
