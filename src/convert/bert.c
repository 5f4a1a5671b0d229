/* bert.c -- what the BERT family (BertModel and the names registered with
 * it) does in code in the reference converter: its tensor renames and
 * drops, the keys it writes after the common ones (attention not causal,
 * the sentence-transformers pooling type), and its vocabulary (the token
 * type count, then WordPiece, wpm.c). */
#include "cvint.h"

#include <stdio.h>
#include <string.h>

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* "bert." dropped, old-style LayerNorm names (.gamma/.beta) made
 * .weight/.bias; the pooler and the pre-training heads are not used for
 * embeddings and are dropped. */
static int bert_name(const char *hf, char *out, size_t cap) {
    if (starts(hf, "bert.")) hf += 5;
    size_t l = strlen(hf);
    if (l >= cap) l = cap - 1;
    int n = snprintf(out, cap, "%.*s", (int)l, hf);
    if (n >= 6 && !strcmp(out + n - 6, ".gamma")) snprintf(out + n - 6, cap - (size_t)(n - 6), ".weight");
    else if (n >= 5 && !strcmp(out + n - 5, ".beta")) snprintf(out + n - 5, cap - (size_t)(n - 5), ".bias");
    return strcmp(out, "embeddings.position_ids") && strcmp(out, "pooler.dense.weight") &&
           strcmp(out, "pooler.dense.bias") && !starts(out, "cls.predictions") && !starts(out, "cls.seq_relationship");
}

/* Python's truth of a JSON value (the reference tests the flags with `if`). */
static int truthy(const json_t *v) {
    return json_is_true(v) || (json_is_integer(v) && json_integer_value(v)) || (json_is_real(v) && json_real_value(v)) ||
           (json_is_string(v) && json_string_length(v)) || (json_is_array(v) && json_array_size(v)) ||
           (json_is_object(v) && json_object_size(v));
}

/* modules.json's first sentence_transformers Pooling module: its
 * config.json gives MEAN (1) or CLS (2); *type 0 when there is none. */
static lgg_status pooling(lgg_convert *c, uint32_t *type, lgg_error *err) {
    json_t *mods = NULL, *pc = NULL;
    *type = 0;
    lgg_status st = lgg__cv_json_value(c->dir, "modules.json", 0, &mods, err);
    if (st || !mods) return st;
    const char *path = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(mods, i, m) {
        const char *ty = json_string_value(json_object_get(m, "type"));
        if (ty && !strcmp(ty, "sentence_transformers.models.Pooling")) {
            path = json_string_value(json_object_get(m, "path"));
            if (!path) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/modules.json: the Pooling module has no 'path'", c->dir);
            break;
        }
    }
    char name[512];
    if (!st && path) { /* a folder of the model, not a path out of it */
        if (path[0] == '/' || strstr(path, "..") || strlen(path) > 400)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/modules.json: Pooling path '%.60s' is not a folder of the model",
                              c->dir, path);
        else
            snprintf(name, sizeof name, "%s/config.json", path), st = lgg__cv_json(c->dir, name, 1, &pc, err);
    }
    if (!st && pc) {
        const json_t *mean = json_object_get(pc, "pooling_mode_mean_tokens"), *cls = json_object_get(pc, "pooling_mode_cls_token");
        if (!mean || (!truthy(mean) && !cls))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: key '%s' is missing", c->dir, name,
                              mean ? "pooling_mode_cls_token" : "pooling_mode_mean_tokens");
        else if (truthy(mean)) *type = 1;
        else if (truthy(cls)) *type = 2;
        else st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: only MEAN and CLS pooling are supported", c->dir, name);
    }
    json_decref(pc);
    json_decref(mods);
    return st;
}

static lgg_status bert_meta(lgg_convert *c, lgg_error *err) {
    char key[96];
    snprintf(key, sizeof key, "%s.attention.causal", c->fam->arch);
    if (lgg_writer_set_bool(c->w, key, false, NULL)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    uint32_t type;
    lgg_status st = pooling(c, &type, err);
    if (st || !type) return st;
    snprintf(key, sizeof key, "%s.pooling_type", c->fam->arch);
    return lgg_writer_set_u32(c->w, key, type, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

/* The token type count (type_vocab_size, else 1), then the WordPiece vocabulary. */
static lgg_status bert_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    int64_t n = lgg__cv_hparam_int(c, "type_vocab_size", 1);
    if (n < 0 || n > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'type_vocab_size' is not a 32-bit count", c->dir);
    if (lgg_writer_set_u32(c->w, "tokenizer.ggml.token_type_count", (uint32_t)n, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.token_type_count");
    return lgg__cv_wpm(c, tc, o, err);
}

const cv_hooks *lgg__cv_family_hooks(const char *arch) {
    static const cv_hooks BERT = {bert_name, bert_meta, bert_vocab};
    return !strcmp(arch, "bert") ? &BERT : NULL;
}
