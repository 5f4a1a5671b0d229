/* qwen3.c -- Qwen3 and Qwen2's bare encoders (llama.cpp master's Qwen3Model,
 * Qwen2Model): the embedding checkpoints' names without "model." (Qwen3's
 * bare names are gguf-py's own rows for qwen3-embedding; Qwen2Model's every
 * name gets "model." as master prefixes it), sentence-transformers' pooling
 * type after the base parameters.  A Qwen3 reranker: master takes a
 * checkpoint for one when its folder name, _name_or_path, model_type or
 * architecture holds "qwen3-reranker" or "qwen3-vl-reranker", or README.md a
 * "# qwen3-reranker" ("# qwen3-vl-reranker") heading (case ignored), and
 * then writes the output head's rows of "yes" and "no" as cls.output, rank
 * pooling, the labels and a rerank template. */
#include "../cvint.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const cv_hooks lgg__cv_hooks_qwen3_rerank;

/* Whether s (n bytes) holds needle (lower case) with ASCII case ignored. */
static int has_lower(const char *s, size_t n, const char *needle) {
    size_t m = strlen(needle);
    for (size_t i = 0; m <= n && i <= n - m; i++) {
        size_t k = 0;
        while (k < m && tolower((unsigned char)s[i + k]) == needle[k]) k++;
        if (k == m) return 1;
    }
    return 0;
}

static int names_reranker(const char *s, size_t n) {
    return has_lower(s, n, "qwen3-reranker") || has_lower(s, n, "qwen3-vl-reranker");
}

/* A reranker: the ids of "yes" and "no" (tokenizer.json's vocabulary or
 * added tokens), whose rows of the output head become cls.output, as
 * lgg.rerank_yes / lgg.rerank_no in the config. */
static lgg_status rerank_ids(lgg_convert *c, lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    static const char *const WORD[2] = {"yes", "no"}, *const KEY[2] = {"lgg.rerank_yes", "lgg.rerank_no"};
    for (int k = 0; k < 2 && !st; k++) {
        const json_t *v = json_object_get(json_object_get(json_object_get(tj, "model"), "vocab"), WORD[k]);
        int64_t id = json_is_integer(v) ? (int64_t)json_integer_value(v) : lgg__cv_added_id(tj, WORD[k]);
        json_t *j = id >= 0 && id <= (1 << 30) ? json_integer(id) : NULL;
        if (id < 0 || id > (1 << 30))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: a Qwen3 reranker without the token '%s' "
                              "(its classifier head is that token's row)", c->dir, WORD[k]);
        else if (!j || json_object_set_new(c->config, KEY[k], j))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    json_decref(tj);
    return st;
}

static lgg_status qwen3_init(struct lgg_convert *c, lgg_error *err) {
    const char *base = strrchr(c->dir, '/');
    base = base && base[1] ? base + 1 : c->dir;
    int rerank = names_reranker(base, strlen(base));
    static const char *const keys[] = {"_name_or_path", "model_type"};
    for (int k = 0; k < 2 && !rerank; k++) {
        const json_t *v = json_object_get(c->config, keys[k]);
        if (json_is_string(v)) rerank = names_reranker(json_string_value(v), json_string_length(v));
    }
    char *card = NULL;
    size_t n = 0;
    if (!rerank && lgg__cv_exists(c, "README.md", NULL)) {
        lgg_status st = lgg__cv_load(c, "README.md", LGG_CONVERT_MAX_CARD, &card, &n, err);
        if (st) return st;
        if (!card) return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/README.md: larger than %llu bytes", c->dir,
                                       (unsigned long long)LGG_CONVERT_MAX_CARD);
        rerank = has_lower(card, n, "# qwen3-reranker") || has_lower(card, n, "# qwen3-vl-reranker");
        free(card);
    }
    if (!rerank) return LGG_OK;
    c->hooks = &lgg__cv_hooks_qwen3_rerank; /* its head's tensor hook only for a reranker (FP8 checkpoints take no hook) */
    return rerank_ids(c, err);
}

/* Qwen3-Embedding's names (embed_tokens, layers.N..., norm) as the
 * causal model's. */
static int qwen3_name(const char *hf, char *out, size_t cap) {
    static const char *const BARE[] = {"layers.", "embed_tokens.", "norm."};
    int bare = 0;
    for (size_t i = 0; i < 3; i++) bare |= !strncmp(hf, BARE[i], strlen(BARE[i]));
    return (size_t)snprintf(out, cap, "%s%s", bare ? "model." : "", hf) < cap;
}

/* Qwen2Model: every name under "model.", as master maps it. */
static int qwen2_name(const char *hf, char *out, size_t cap) {
    return (size_t)snprintf(out, cap, "model.%s", hf) < cap;
}

/* cls.output's row u: the "yes" row, then the "no" row. */
static uint64_t cls_row(const cv_tensor *t, uint64_t u) { return t->row_arg[u ? 1 : 0]; }

/* A reranker's head: the output head's (tied: the embeddings') rows of
 * "yes" and "no" as cls.output, in the head's place (tied: just before the
 * embeddings, which stay); no output. */
static lgg_status qwen3_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const json_t *yes = json_object_get(c->config, "lgg.rerank_yes"), *no = json_object_get(c->config, "lgg.rerank_no");
    if (!yes) return LGG_OK;
    int tied = json_is_true(json_object_get(c->config, "tie_word_embeddings"));
    if (strcmp(t->name, tied ? "token_embd.weight" : "output.weight")) return LGG_OK;
    size_t i = (size_t)(t - c->t);
    if (t->n_dims != 2 || (uint64_t)json_integer_value(yes) >= (uint64_t)t->ne[1] || (uint64_t)json_integer_value(no) >= (uint64_t)t->ne[1])
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': no rows for the reranker's 'yes' and 'no' tokens", c->dir,
                            t->src_name);
    if (tied) {
        lgg_status st = lgg__cv_dup_tensor(c, i, "token_embd.weight", err); /* c->t may move */
        if (st) return st;
    }
    cv_tensor *h = &c->t[i];
    char *name = strdup("cls.output.weight");
    if (!name) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    free(h->name);
    h->name = name;
    h->ne[1] = 2, h->n_units = 2;
    h->row_of = cls_row, h->row_arg[0] = (uint64_t)json_integer_value(yes), h->row_arg[1] = (uint64_t)json_integer_value(no);
    return LGG_OK;
}

/* The rerank template master writes. */
static const char RERANK[] =
    "<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. "
    "Note that the answer can only be \"yes\" or \"no\".<|im_end|>\n<|im_start|>user\n<Instruct>: Given a web search query, "
    "retrieve relevant passages that answer the query\n<Query>: {query}\n<Document>: {document}<|im_end|>\n"
    "<|im_start|>assistant\n<think>\n\n</think>\n\n";

/* After the base parameters: the pooling type; a reranker's rank pooling,
 * labels and template (master's order). */
static lgg_status qwen3_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_pooling(c, err);
    if (st || !json_object_get(c->config, "lgg.rerank_yes")) return st;
    static const lgg_str LABELS[2] = {{"yes", 3}, {"no", 2}}, NAMES[1] = {{"rerank", 6}};
    lgg_wvalue labels = {LGG_VT_ARRAY, LGG_VT_STRING, 2, LABELS}, names = {LGG_VT_ARRAY, LGG_VT_STRING, 1, NAMES};
    char pool[96], lab[96];
    snprintf(pool, sizeof pool, "%s.pooling_type", c->fam->arch); /* qwen3, qwen3vl */
    snprintf(lab, sizeof lab, "%s.classifier.output_labels", c->fam->arch);
    if (lgg_writer_set_u32(c->w, pool, 4, NULL) || lgg_writer_set(c->w, lab, strlen(lab), &labels, NULL) ||
        lgg_writer_set_str(c->w, "tokenizer.chat_template.rerank", RERANK, NULL) ||
        lgg_writer_set(c->w, "tokenizer.chat_templates", 24, &names, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the reranker's metadata");
    return LGG_OK;
}

/* Step3-VL's text (master's Step3VLTextModel, a Qwen3Model): text_config over the top level, then Qwen3's; its
 * vision tower and projector out (master's TextModel filter) before Qwen3's names. */
static lgg_status step_vl_init(struct lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    return st ? st : qwen3_init(c, err);
}

static int step_vl_name(const char *hf, char *out, size_t cap) {
    char text[512];
    return lgg__cv_master_text_name(hf, text, sizeof text) && qwen3_name(text, out, cap);
}

const cv_hooks lgg__cv_hooks_qwen3 = {qwen3_init, qwen3_name, NULL, qwen3_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_step_vl = {step_vl_init, step_vl_name, NULL, qwen3_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_qwen3_rerank = {qwen3_init, qwen3_name, qwen3_tensor, qwen3_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_qwen2model = {NULL, qwen2_name, NULL, lgg__cv_master_pooling, NULL, NULL};
