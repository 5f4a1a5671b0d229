/* wpm.c -- BERT's WordPiece vocabulary as the reference converter writes
 * it (tokenizer.ggml.model "bert"): tokenizer.json read as for BPE (tokens
 * by id, types from the added tokens, the pre-tokenizer's name), each token
 * rewritten to the "phantom space" form llama.cpp's WPM tokenizer reads: a
 * word-initial piece gets U+2581 in front, a continuation ("##x") loses its
 * "##", a bracketed token ("[CLS]", "[unused0]") stays as it is. */
#include "cvint.h"

#include <stdlib.h>
#include <string.h>

static char *phantom(const char *tok, size_t len) {
    if (len >= 2 && tok[0] == '[' && tok[len - 1] == ']') return (char *)tok;
    if (len >= 2 && tok[0] == '#' && tok[1] == '#') return strdup(tok + 2);
    char *r = malloc(len + 4);
    if (!r) return NULL;
    memcpy(r, "\xe2\x96\x81", 3);
    memcpy(r + 3, tok, len + 1);
    return r;
}

lgg_status lgg__cv_wpm(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    /* the special token ids are checked against the token count (SpecialVocab's n_vocab) */
    static const cv_vocab_style WPM = {"bert", phantom, 1};
    return lgg__cv_vocab_json(c, tc, o, &WPM, err);
}
