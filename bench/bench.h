/* bench.h -- what the benchmarks share: clocks, and deterministic bytes
 * for the tensors they write. */
#ifndef LGG_BENCH_H
#define LGG_BENCH_H

#include "libgguf.h"

#include <stdint.h>
#include <time.h>

/* wall-clock seconds (CLOCK_MONOTONIC) */
static inline double bench_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* this thread's CPU seconds: steadier than wall time on a shared machine */
static inline double bench_cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* an lgg_read_fn for lgg_writer_add_tensor_callback: pseudo-random bytes
 * of the offset and the seed (ud) */
static inline lgg_status bench_fill(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)err;
    uint8_t *p = dst;
    uint64_t seed = (uint64_t)(uintptr_t)ud;
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)((off + i) * 2654435761u >> 13 ^ seed);
    return LGG_OK;
}

#endif
