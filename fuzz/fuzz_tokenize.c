/* fuzz_tokenize.c -- the GGUF side of the tokenizer on any text: the first
 * byte picks a small vocabulary (SPM, WPM, UGM, RWKV, or BPE with one of
 * llama.cpp's pre-tokenizer names, so every expression set runs), the
 * second the flags (low two bits) and a stream chunk size (the rest), the
 * rest is the text.  Invariants: the count is the same on a second call,
 * every id is in the vocabulary, detokenizing them works, an error is only
 * the one the reference throws (invalid text), and the stream
 * (lgg_tokenize_stream_*, fed in slices) gives the same ids or the same
 * error at the same byte. */
#include "fuzz.h"
#include "libgguf_tokenize.h"
#include "tok_vocabs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static lgg_tokenizer *vocabs[N_VOCABS];

typedef struct got {
    int32_t *p;
    size_t n;
} got;

static int collect(void *user, const int32_t *ids, size_t n) {
    got *g = user;
    int32_t *q = realloc(g->p, (g->n + n + 1) * sizeof *q);
    FUZZ_ASSERT(q != NULL);
    memcpy(q + g->n, ids, n * sizeof *ids);
    g->p = q, g->n += n;
    return 0;
}

/* the stream's answer against the whole call's (ids, or -status with err) */
static void check_stream(const lgg_tokenizer *t, const char *text, size_t len, unsigned flags, size_t chunk,
                         const int32_t *ids, int64_t n, const lgg_error *whole) {
    got g = {NULL, 0};
    lgg_tokenize_stream *s = NULL;
    lgg_error err;
    lgg_status st = lgg_tokenize_stream_new(t, flags, chunk, collect, &g, &s, &err);
    FUZZ_ASSERT(st == LGG_OK);
    for (size_t off = 0, k = 1; !st && off < len; off += k, k = k * 2 + 1) {
        if (k > len - off) k = len - off;
        st = lgg_tokenize_stream_feed(s, text + off, k, &err);
    }
    if (!st) st = lgg_tokenize_stream_finish(s, &err);
    lgg_tokenize_stream_free(s);
    if (n < 0) {
        FUZZ_ASSERT(st == (lgg_status)-n && err.offset == whole->offset);
    } else {
        FUZZ_ASSERT(st == LGG_OK && g.n == (size_t)n);
        FUZZ_ASSERT(!n || !memcmp(g.p, ids, (size_t)n * sizeof *ids));
    }
    free(g.p);
}

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
    size_t chunk = (size_t)(data[1] >> 2) + 1;
    if (n < 0) { /* only what the reference throws on */
        FUZZ_ASSERT(n == -LGG_ERR_INVALID);
        check_stream(t, text, len, flags, chunk, NULL, n, &err);
        return 0;
    }
    int32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
    FUZZ_ASSERT(ids != NULL);
    FUZZ_ASSERT(lgg_tokenize(t, text, len, flags, ids, (size_t)n, &err) == n);
    check_stream(t, text, len, flags, chunk, ids, n, &err);
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
