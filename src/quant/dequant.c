/* dequant.c -- lgg_dequantize / lgg_dequantize_ref: argument checks, the
 * best decoder of each type (the kernel table's scalar one, replaced by a
 * SIMD one where the CPU has it, chosen once) and foreign byte order.
 *
 * Data in the host's byte order is decoded in place, straight from `src`.
 * Data in the other byte order is copied a few blocks at a time into a stack
 * buffer, the type's multi-byte `fields` (from the type table) are swapped
 * there, and the same decoder runs on the copy; `src` is never written. */
#include "quant/kernels.h"

#include <pthread.h>



/* The best path, chosen once.  Written only inside pthread_once. */
static pthread_once_t best_once = PTHREAD_ONCE_INIT;
static lgg__deq_fn best[LGG_TYPE_COUNT];
static const char *best_name = "scalar";
static bool best_streams; /* the path has lgg__stream_floats_avx2 */

static void pick_best(void) {
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) best[t] = lgg__kernel(t)->deq;
#if defined(__aarch64__) && defined(__ARM_NEON)
    best_name = "neon";
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        lgg__deq_fn f = lgg__deq_neon_get(t);
        if (f && best[t]) best[t] = f;
    }
#endif
#if defined(__x86_64__) || defined(__i386__)
    if (lgg__cpu_avx2_f16c()) {
        best_name = "avx2";
        best_streams = true;
        for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
            lgg__deq_fn f = lgg__deq_avx2_get(t);
            if (f && best[t]) best[t] = f;
        }
    }
#endif
}

const char *lgg_simd_name(void) {
    pthread_once(&best_once, pick_best);
    return best_name;
}

/* Swap the fields of `nb` blocks in place (they are a private copy). */
static void swap_fields(const lgg_type_info *ti, uint8_t *blocks, size_t nb) {
    for (size_t b = 0; b < nb; b++) {
        uint8_t *blk = blocks + b * ti->type_size;
        for (int f = 0; f < ti->n_fields; f++) {
            uint8_t *p = blk + ti->fields[f].offset;
            const unsigned w = ti->fields[f].width;
            for (unsigned c = 0; c < ti->fields[f].count; c++, p += w)
                for (unsigned k = 0; k < w / 2; k++) {
                    uint8_t t = p[k];
                    p[k] = p[w - 1 - k];
                    p[w - 1 - k] = t;
                }
        }
    }
}

#define SWAP_BUF 2048 /* bytes; holds at least one block of every type */

/* Outputs this large (bytes) are decoded STREAM_VALS values at a time into a
 * buffer that stays in L1 and written out with non-temporal stores: far
 * larger than the caches, they would only evict everything else, and a
 * cached store first reads its line from memory.  That pays for the extra
 * copy only when the output dominates the traffic: types stored in at most
 * 1.125 bytes per value (measured: Q4_0 and IQ2_XXS gain 1.4x, I8 1.1x;
 * F16, I16, I32 and F64 lose 10-30%).  Every block size divides STREAM_VALS. */
#define STREAM_MIN (8u << 20)
#define STREAM_VALS 2048

/* Decode with the best decoder (SIMD where the CPU has it) or, when `ref`, the
 * scalar reference of the kernel table. */
static lgg_status run(bool ref, uint32_t type, const void *src, size_t src_size,
                      lgg_endian endian, float *dst, uint64_t n) {
    if (!src || !dst) return LGG_ERR_ARG;
    if (endian != LGG_LITTLE_ENDIAN && endian != LGG_BIG_ENDIAN) return LGG_ERR_ARG;
    const lgg_type_info *ti = lgg_type_get(type);
    if (!ti || ti->removed) return LGG_ERR_UNSUPPORTED;
    const lgg__deq_fn fn = ref ? lgg__kernel(type)->deq : best[type];
    if (!fn) return LGG_ERR_UNSUPPORTED;
    if (n % ti->block_size) return LGG_ERR_RANGE;
    const uint64_t nb = n / ti->block_size;
    uint64_t bytes;
    if (lgg__mul_ovf(nb, ti->type_size, &bytes) || bytes > src_size || nb > SIZE_MAX / ti->block_size)
        return LGG_ERR_RANGE;
    const uint8_t *s = src;
    if (!lgg__needs_swap(endian) || ti->n_fields == 0) {
        if (!ref && best_streams && n >= STREAM_MIN / 4 && ti->type_size * 8 <= ti->block_size * 9) {
            _Alignas(64) float out[STREAM_VALS];
            const size_t per = STREAM_VALS / ti->block_size;
            for (uint64_t b = 0; b < nb;) {
                const size_t k = (size_t)(nb - b < per ? nb - b : per);
                fn(s + b * ti->type_size, out, k);
                b += k;
                lgg__stream_floats_avx2(dst + (b - k) * ti->block_size, out, k * ti->block_size, b == nb);
            }
            return LGG_OK;
        }
        if (nb) fn(s, dst, (size_t)nb);
        return LGG_OK;
    }
    _Alignas(64) uint8_t tmp[SWAP_BUF];
    const size_t per = SWAP_BUF / ti->type_size; /* blocks per chunk, >= 1 */
    const size_t vals = (size_t)ti->block_size;
    for (uint64_t b = 0; b < nb;) {
        size_t k = (size_t)(nb - b < per ? nb - b : per);
        memcpy(tmp, s + b * ti->type_size, k * ti->type_size);
        swap_fields(ti, tmp, k);
        fn(tmp, dst + b * vals, k);
        b += k;
    }
    return LGG_OK;
}

lgg_status lgg_dequantize(uint32_t type, const void *src, size_t src_size, lgg_endian endian, float *dst,
                          uint64_t n) {
    pthread_once(&best_once, pick_best);
    return run(false, type, src, src_size, endian, dst, n);
}

lgg_status lgg_dequantize_ref(uint32_t type, const void *src, size_t src_size, lgg_endian endian, float *dst,
                              uint64_t n) {
    return run(true, type, src, src_size, endian, dst, n);
}
