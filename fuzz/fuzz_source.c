/* fuzz_source.c -- lgg_open_source, the header assembled from reads of
 * arbitrary sizes: the first two bytes of the input choose the first read
 * (1..65536 bytes) and a source that returns short reads as errors every
 * so often; the rest is the file.
 *
 * The verdict must be the one lgg_open_memory gives on the same bytes
 * (a failing read aside, which must surface as its own status), every read
 * must lie inside the file, and an open file must hold the same pairs and
 * tensors. */
#include "fuzz.h"
#include "libgguf.h"

#include <string.h>

typedef struct src {
    const uint8_t *p;
    uint64_t size;
    unsigned fail_every, n;
} src;

static lgg_status rd(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    src *s = ud;
    FUZZ_ASSERT(off <= s->size && n <= s->size - off);
    if (s->fail_every && ++s->n % s->fail_every == 0)
        return lgg_error_set(err, LGG_ERR_IO, off, "read %u fails", s->n);
    memcpy(dst, s->p + off, n);
    return LGG_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const unsigned first = 1u + (unsigned)(data[0] | (data[1] & 0x7f) << 8) * 2u;
    const unsigned fail_every = data[1] & 0x80 ? 1u + data[0] % 5u : 0;
    data += 2, size -= 2;
    lgg_file *a = NULL, *b = NULL;
    lgg_status sa = lgg_open_memory(data, size, NULL, &a, NULL);
    src s = {data, size, fail_every, 0};
    lgg_source so = {rd, &s, size, first, 0};
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_status sb = lgg_open_source(&so, NULL, &b, &e);
    if (sb == LGG_ERR_IO) FUZZ_ASSERT(fail_every && e.code == LGG_ERR_IO);
    else FUZZ_ASSERT(sa == sb);
    if (sa == LGG_OK && sb == LGG_OK) {
        FUZZ_ASSERT(lgg_kv_count(a) == lgg_kv_count(b) && lgg_tensor_count(a) == lgg_tensor_count(b));
        FUZZ_ASSERT(lgg_file_data_offset(a) == lgg_file_data_offset(b));
        for (uint64_t i = 0; i < lgg_tensor_count(b); i++) {
            const lgg_tensor *t = lgg_tensor_at(b, i);
            lgg_status l = lgg_file_load_tensor(b, i, NULL);
            if (l == LGG_OK) {
                const lgg_tensor *u = lgg_tensor_at(a, i);
                FUZZ_ASSERT(u->data_available && !memcmp(u->data, t->data, (size_t)t->size));
            }
        }
    }
    lgg_close(a);
    lgg_close(b);
    return 0;
}
