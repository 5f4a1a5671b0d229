/* qwen3.c -- Qwen3 (llama.cpp master's Qwen3Model): a Qwen3 reranker is
 * refused.  Master takes a checkpoint for a reranker when its folder name,
 * _name_or_path, model_type or architecture holds "qwen3-reranker" or
 * "qwen3-vl-reranker", or README.md a "# qwen3-reranker" ("# qwen3-vl-reranker")
 * heading (case ignored), and then writes a classifier head and a rerank
 * template this converter does not write. */
#include "../cvint.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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
    if (rerank)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s: a Qwen3 reranker (its name or README.md says qwen3-reranker): llama.cpp master writes "
                            "its classifier head (cls.output) and rerank template, which this converter does not yet",
                            c->dir);
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_qwen3 = {qwen3_init, NULL, NULL, NULL, NULL, NULL};
