/* fuzz_dequant.c -- lgg_dequantize (best SIMD path) against
 * lgg_dequantize_ref (scalar reference) on arbitrary blocks.
 *
 * Input: byte 0 is the type id (any value: ids past the table and removed
 * ids must be refused), byte 1 the byte order (0 little, 1 big, anything
 * else an invalid lgg_endian that must be refused), the rest the blocks;
 * whole blocks are converted.  Both paths must return the same status and,
 * on success, the same bits for every output (NaN matches NaN).  Outputs go
 * to exactly-sized heap buffers so a write past the end is caught.  The
 * argument checks are probed too: one byte short, a count that is not a
 * multiple of the block size. */
#include "fuzz.h"
#include "libgguf.h"

#include <math.h>
#include <string.h>

static void same_bits(const float *a, const float *b, uint64_t n, uint32_t type, int endian) {
    for (uint64_t i = 0; i < n; i++) {
        uint32_t x, y;
        memcpy(&x, &a[i], 4);
        memcpy(&y, &b[i], 4);
        if (x == y || (isnan(a[i]) && isnan(b[i]))) continue;
        fprintf(stderr, "type %u (%s) endian %d: element %llu: simd %08x (%g) != ref %08x (%g)\n", type,
                lgg_type_name(type) ? lgg_type_name(type) : "?", endian, (unsigned long long)i, x, (double)a[i],
                y, (double)b[i]);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const uint32_t type = data[0];
    const int endian = data[1];
    const uint8_t *src = data + 2;
    const size_t src_size = size - 2;
    const lgg_type_info *ti = lgg_type_get(type);
    const bool live = ti && !ti->removed;
    const lgg_endian e = endian == 0 ? LGG_LITTLE_ENDIAN : endian == 1 ? LGG_BIG_ENDIAN : (lgg_endian)endian;

    if (!live) {
        float x[32];
        FUZZ_ASSERT(lgg_dequantize(type, src, src_size, LGG_LITTLE_ENDIAN, x, 0) == LGG_ERR_UNSUPPORTED);
        FUZZ_ASSERT(lgg_dequantize_ref(type, src, src_size, LGG_LITTLE_ENDIAN, x, 0) == LGG_ERR_UNSUPPORTED);
        return 0;
    }
    const uint64_t nb = src_size / ti->type_size;
    const uint64_t n = nb * ti->block_size;
    float *a = malloc(n ? n * sizeof *a : 1);
    float *b = malloc(n ? n * sizeof *b : 1);
    FUZZ_ASSERT(a && b);
    lgg_status sa = lgg_dequantize(type, src, src_size, e, a, n);
    lgg_status sb = lgg_dequantize_ref(type, src, src_size, e, b, n);
    FUZZ_ASSERT(sa == sb);
    if (endian > 1) {
        FUZZ_ASSERT(sa == LGG_ERR_ARG);
    } else {
        FUZZ_ASSERT(sa == LGG_OK);
        same_bits(a, b, n, type, endian);
        if (nb) {
            /* one byte short of the blocks */
            size_t exact = (size_t)(nb * ti->type_size);
            FUZZ_ASSERT(lgg_dequantize(type, src, exact - 1, e, a, n) == LGG_ERR_RANGE);
            FUZZ_ASSERT(lgg_dequantize_ref(type, src, exact - 1, e, b, n) == LGG_ERR_RANGE);
            /* exactly the blocks, from an unaligned copy: same bits again */
            uint8_t *c = malloc(exact + 1);
            FUZZ_ASSERT(c != NULL);
            memcpy(c + 1, src, exact);
            float *d = malloc(n * sizeof *d);
            FUZZ_ASSERT(d != NULL);
            FUZZ_ASSERT(lgg_dequantize(type, c + 1, exact, e, d, n) == LGG_OK);
            same_bits(d, b, n, type, endian);
            free(d);
            free(c);
        }
        if (ti->block_size > 1 && n) {
            FUZZ_ASSERT(lgg_dequantize(type, src, src_size, e, a, n - 1) == LGG_ERR_RANGE);
            FUZZ_ASSERT(lgg_dequantize_ref(type, src, src_size, e, b, n - 1) == LGG_ERR_RANGE);
        }
    }
    FUZZ_ASSERT(lgg_dequantize(type, NULL, src_size, LGG_LITTLE_ENDIAN, a, n) == LGG_ERR_ARG);
    FUZZ_ASSERT(lgg_dequantize(type, src, src_size, LGG_LITTLE_ENDIAN, NULL, n) == LGG_ERR_ARG);
    /* more elements than the blocks hold */
    FUZZ_ASSERT(lgg_dequantize(type, src, src_size, LGG_LITTLE_ENDIAN, a, n + ti->block_size) == LGG_ERR_RANGE);
    /* a count whose byte size overflows */
    FUZZ_ASSERT(lgg_dequantize(type, src, src_size, LGG_LITTLE_ENDIAN, a,
                               UINT64_MAX / ti->block_size * ti->block_size) == LGG_ERR_RANGE);
    free(a);
    free(b);
    return 0;
}
