/* qwen3.c -- Qwen3 and Qwen3-MoE: what master's converter (3f545becc,
 * conversion/qwen.py) does beyond Qwen2's rules that this converter does
 * not: a Qwen3 reranker (master writes its yes/no classifier head and
 * pooling keys) is refused by name rather than written as a plain model. */
#include "../cvint.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* s lower-cased contains needle (ASCII). */
static int has_lower(const char *s, const char *needle) {
    size_t n = strlen(needle);
    for (; s && *s; s++) {
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == needle[i]) i++;
        if (i == n) return 1;
    }
    return 0;
}

static int names_reranker(const char *s) {
    return has_lower(s, "qwen3-reranker") || has_lower(s, "qwen3-vl-reranker");
}

/* Master's test: the model card's heading, or the folder's name, _name_or_path or model_type. */
static int is_reranker(struct lgg_convert *c) {
    const char *base = c->dir ? strrchr(c->dir, '/') : NULL;
    base = base ? base + 1 : c->dir;
    json_t *np = json_object_get(c->config, "_name_or_path"), *mt = json_object_get(c->config, "model_type");
    if (names_reranker(base) || names_reranker(json_string_value(np)) || names_reranker(json_string_value(mt)))
        return 1;
    char *card = NULL;
    size_t n = 0;
    lgg_error ignored;
    int hit = 0;
    if (lgg__cv_exists(c, "README.md", NULL) &&
        lgg__cv_load(c, "README.md", LGG_CONVERT_MAX_OTHER_JSON, &card, &n, &ignored) == LGG_OK && card)
        hit = has_lower(card, "# qwen3-reranker") || has_lower(card, "# qwen3-vl-reranker");
    free(card);
    return hit;
}

static lgg_status qwen3_init(struct lgg_convert *c, lgg_error *err) {
    if (is_reranker(c))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "a Qwen3 reranker, which llama.cpp master converts with its classifier head "
                            "(conversion/qwen.py); this converter does not yet");
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_qwen3 = {qwen3_init, NULL, NULL, NULL, NULL, NULL};
