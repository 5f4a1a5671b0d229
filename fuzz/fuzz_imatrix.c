/* fuzz_imatrix.c -- lgg_imatrix_load_memory on arbitrary bytes (legacy .dat
 * or GGUF imatrix).  A matrix that loads must be self-consistent: every
 * entry is found by its name with the same values, and filtering keeps a
 * subset that is still found. */
#include "fuzz.h"
#include "libgguf.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lgg_imatrix *m = NULL;
    lgg_error err;
    if (lgg_imatrix_load_memory(data, size, NULL, &m, &err) != LGG_OK) {
        FUZZ_ASSERT(m == NULL);
        return 0;
    }
    const size_t n = lgg_imatrix_count(m);
    FUZZ_ASSERT(n > 0);
    volatile float sink = 0;
    for (size_t i = 0; i < n; i++) {
        const float *v = NULL;
        uint64_t nv = 0;
        const char *name = lgg_imatrix_entry(m, i, &v, &nv);
        FUZZ_ASSERT(name && v && nv > 0);
        uint64_t nf = 0;
        FUZZ_ASSERT(lgg_imatrix_find(m, name, strlen(name), &nf) == v && nf == nv);
        sink += v[0] + v[nv - 1];
    }
    (void)sink;
    lgg_str ds;
    if (lgg_imatrix_dataset(m, &ds)) FUZZ_ASSERT(ds.len == 0 || ds.ptr != NULL);
    const char *ex[] = {"a"};
    lgg_imatrix_filter(m, NULL, 0, ex, 1);
    FUZZ_ASSERT(lgg_imatrix_count(m) <= n);
    for (size_t i = 0; i < lgg_imatrix_count(m); i++) {
        const char *name = lgg_imatrix_entry(m, i, NULL, NULL);
        FUZZ_ASSERT(name && !strchr(name, 'a') && lgg_imatrix_find(m, name, strlen(name), NULL));
    }
    lgg_imatrix_free(m);
    return 0;
}
