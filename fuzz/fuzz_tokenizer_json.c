/* fuzz_tokenizer_json.c -- the tokenizer.json loader and the Hugging Face
 * side of the tokenizer: the input up to its first NUL is tokenizer.json,
 * the rest (when there is a NUL) tokenizer_config.json.  A file that opens
 * must tokenize a few texts and the input itself with ids in the
 * vocabulary, the same count twice, and decode them (or say that a regex
 * backtracked past its bound); one that fails must say why. */
#include "fuzz.h"
#include "libgguf_tokenize.h"

#include <string.h>

static void check_text(const lgg_tokenizer *t, const char *s, size_t n, unsigned flags) {
    lgg_error err;
    int64_t k = lgg_tokenize(t, s, n, flags, NULL, 0, &err);
    if (k == -LGG_ERR_LIMIT) { /* a pattern that backtracks past its bound: an error, said */
        FUZZ_ASSERT(strstr(err.message, "backtrack") != NULL);
        return;
    }
    FUZZ_ASSERT(k >= 0);
    int32_t *ids = malloc(((size_t)k + 1) * sizeof *ids);
    FUZZ_ASSERT(ids && lgg_tokenize(t, s, n, flags, ids, (size_t)k, &err) == k);
    for (int64_t i = 0; i < k; i++) FUZZ_ASSERT(ids[i] >= 0 && ids[i] < lgg_tokenizer_n_tokens(t));
    int64_t m = lgg_detokenize(t, ids, (size_t)k, 0, NULL, 0, &err);
    FUZZ_ASSERT(m >= 0);
    free(ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *p = (const char *)data;
    const char *nul = memchr(p, 0, size);
    size_t jn = nul ? (size_t)(nul - p) : size;
    lgg_tokenizer *t = NULL;
    lgg_error err;
    memset(&err, 0, sizeof err);
    lgg_status st = lgg_tokenizer_open_json(p, jn, nul ? nul + 1 : NULL, nul ? size - jn - 1 : 0, &t, &err);
    if (st != LGG_OK) {
        FUZZ_ASSERT(t == NULL && err.message[0] != 0);
        return 0;
    }
    static const char *const TEXTS[] = {"", "Hello world, it's 12345!", " \n\n\t  x", "<s>a</s> <|end|>", "\xe4\xb8\xad\xf0\x9f\xa6\x99"};
    for (size_t i = 0; i < sizeof TEXTS / sizeof *TEXTS; i++) check_text(t, TEXTS[i], strlen(TEXTS[i]), i & 3);
    check_text(t, p, jn < 512 ? jn : 512, 3);
    lgg_tokenizer_free(t);
    return 0;
}
