/* fuzz_spm.c -- the SentencePiece ModelProto reader (lgg_spm_parse) on
 * arbitrary bytes: every piece's text must lie inside the input and its
 * type be one the reference converter writes. */
#include "fuzz.h"
#include "libgguf_convert.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lgg_spm *s = NULL;
    lgg_error err;
    if (lgg_spm_parse(size ? data : NULL, size, &s, &err) != LGG_OK) {
        FUZZ_ASSERT(s == NULL && err.message[0]);
        return 0;
    }
    size_t n = lgg_spm_count(s);
    FUZZ_ASSERT(n > 0);
    for (size_t i = 0; i < n; i++) {
        const lgg_spm_piece *p = lgg_spm_at(s, i);
        FUZZ_ASSERT(p);
        if (p->piece.len) {
            const uint8_t *t = (const uint8_t *)p->piece.ptr;
            FUZZ_ASSERT(t >= data && p->piece.len <= size && t <= data + size - p->piece.len);
        }
        FUZZ_ASSERT(p->type == 1 || p->type == 2 || p->type == 3 || p->type == 5 || p->type == 6);
    }
    FUZZ_ASSERT(lgg_spm_at(s, n) == NULL);
    lgg_spm_free(s);
    return 0;
}
