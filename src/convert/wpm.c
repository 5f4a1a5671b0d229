/* wpm.c -- BERT's WordPiece vocabulary as the reference converter writes
 * it (tokenizer.ggml.model "bert"): tokenizer.json read as for BPE (tokens
 * by id, types from the added tokens, the pre-tokenizer's name), each token
 * rewritten to the "phantom space" form llama.cpp's WPM tokenizer reads: a
 * word-initial piece gets U+2581 in front, a continuation ("##x") loses its
 * "##", a bracketed token ("[CLS]", "[unused0]") stays as it is (b4747);
 * for target master a control token (type 3) stays, whatever its text
 * ("[unused0]", a plain vocabulary entry, gets U+2581). */
#include "cvint.h"

#include <stdlib.h>
#include <string.h>

static char *prefixed(const char *tok, size_t len) {
    if (len >= 2 && tok[0] == '#' && tok[1] == '#') return strdup(tok + 2);
    char *r = malloc(len + 4);
    if (!r) return NULL;
    memcpy(r, "\xe2\x96\x81", 3);
    memcpy(r + 3, tok, len + 1);
    return r;
}

static char *phantom(const char *tok, size_t len, int32_t type) {
    (void)type;
    return len >= 2 && tok[0] == '[' && tok[len - 1] == ']' ? (char *)tok : prefixed(tok, len);
}

static char *phantom_master(const char *tok, size_t len, int32_t type) {
    return type == 3 ? (char *)tok : prefixed(tok, len);
}

lgg_status lgg__cv_wpm(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    /* the special token ids are checked against the token count (SpecialVocab's n_vocab) */
    static const cv_vocab_style WPM = {"bert", phantom, 1, 0, NULL}, WPM_MASTER = {"bert", phantom_master, 1, 0, NULL};
    return lgg__cv_vocab_json(c, tc, o, c->master ? &WPM_MASTER : &WPM, err);
}
