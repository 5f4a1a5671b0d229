/* fuzz_safetensors.c -- the safetensors header reader (lgg_st_parse) on
 * arbitrary bytes.  On success every tensor must lie inside the input,
 * after the header, with dtype size x element count == its byte length, in
 * name order, no two overlapping. */
#include "fuzz.h"
#include "libgguf_convert.h"

#include <string.h>

/* the reader's element sizes, by the type it gives: I8 is BOOL and U8 */
static uint64_t esize(uint32_t t) {
    switch (t) {
    case LGG_TYPE_F32: return 4;
    case LGG_TYPE_I64: return 8;
    case LGG_TYPE_I8:
    case LGG_ST_F8_E4M3: return 1;
    default: return 2; /* F16, BF16 */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lgg_safetensors *s = NULL;
    lgg_error err;
    if (lgg_st_parse(size ? data : NULL, size, "fuzz", &s, &err) != LGG_OK) {
        FUZZ_ASSERT(s == NULL && err.message[0]);
        return 0;
    }
    uint64_t hl = 0;
    for (int i = 7; i >= 0; i--) hl = hl << 8 | data[i];
    size_t n = lgg_st_count(s);
    for (size_t i = 0; i < n; i++) {
        const lgg_st_tensor *t = lgg_st_at(s, i);
        FUZZ_ASSERT(t && t->offset >= 8 + hl && t->offset <= size && t->size <= size - t->offset);
        uint64_t elems = 1;
        for (uint32_t d = 0; d < t->n_dims; d++) elems *= t->shape[d];
        FUZZ_ASSERT(elems * esize(t->dtype) == t->size);
        FUZZ_ASSERT(strlen(t->name.ptr) == t->name.len);
        for (size_t j = 0; j < i; j++) {
            const lgg_st_tensor *u = lgg_st_at(s, j);
            FUZZ_ASSERT(strcmp(u->name.ptr, t->name.ptr) < 0);
            FUZZ_ASSERT(!t->size || !u->size || u->offset + u->size <= t->offset || t->offset + t->size <= u->offset);
        }
    }
    FUZZ_ASSERT(lgg_st_at(s, n) == NULL);
    lgg_st_close(s);
    return 0;
}
