/* fuzz_tokenize.c -- the GGUF side of the tokenizer on any text: the first
 * byte picks a small vocabulary (SPM, WPM, UGM, RWKV, or BPE with one of
 * llama.cpp's pre-tokenizer names, so every expression set runs), the
 * second the flags, the rest is the text.  Invariants: the count is the same
 * on a second call, every id is in the vocabulary, detokenizing them works,
 * and an error is only the one the reference throws (invalid text). */
#include "fuzz.h"
#include "libgguf_tokenize.h"
#include "tok_vocabs.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static lgg_tokenizer *vocabs[N_VOCABS];

static lgg_tokenizer *build(int kind) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_tokenize_%d_%d.gguf", (int)getpid(), kind);
    if (tok_vocab_write(kind, path)) abort();
    lgg_file *f = NULL;
    lgg_tokenizer *tok = NULL;
    lgg_error err;
    if (lgg_open_file(path, NULL, &f, &err)) abort();
    if (lgg_tokenizer_open_gguf(f, &tok, &err)) {
        fprintf(stderr, "vocabulary %d: %s\n", kind, err.message);
        abort();
    }
    lgg_close(f);
    unlink(path);
    return tok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    int kind = data[0] % N_VOCABS;
    if (!vocabs[kind]) vocabs[kind] = build(kind);
    const lgg_tokenizer *t = vocabs[kind];
    unsigned flags = data[1] & 3;
    const char *text = (const char *)data + 2;
    size_t len = size - 2;
    lgg_error err;
    int64_t n = lgg_tokenize(t, text, len, flags, NULL, 0, &err);
    if (n < 0) { /* only what the reference throws on */
        FUZZ_ASSERT(n == -LGG_ERR_INVALID);
        return 0;
    }
    int32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
    FUZZ_ASSERT(ids != NULL);
    FUZZ_ASSERT(lgg_tokenize(t, text, len, flags, ids, (size_t)n, &err) == n);
    for (int64_t i = 0; i < n; i++)
        FUZZ_ASSERT(ids[i] >= -1 && ids[i] < lgg_tokenizer_n_tokens(t)); /* RWKV's unknown is -1 */
    int rwkv_unknown = 0;
    for (int64_t i = 0; i < n; i++) rwkv_unknown |= ids[i] < 0;
    if (!rwkv_unknown) {
        int64_t k = lgg_detokenize(t, ids, (size_t)n, LGG_DETOKENIZE_UNPARSE_SPECIAL, NULL, 0, &err);
        FUZZ_ASSERT(k >= 0);
        char *buf = malloc((size_t)k + 1);
        FUZZ_ASSERT(buf && lgg_detokenize(t, ids, (size_t)n, LGG_DETOKENIZE_UNPARSE_SPECIAL, buf, (size_t)k, &err) == k);
        free(buf);
    }
    free(ids);
    return 0;
}
