/* internal.h -- shared by the library's sources; not installed.
 *
 * Dependency rule: src/ files include only libgguf.h, internal.h, their own
 * family headers and libc/pthreads.  Nothing here is visible to tools/. */
#ifndef LGG_INTERNAL_H
#define LGG_INTERNAL_H

#include "libgguf.h"

#include <stdarg.h>
#include <string.h>

#if defined(__GNUC__)
#define LGG_HIDDEN __attribute__((visibility("hidden")))
#define LGG_LIKELY(x) __builtin_expect(!!(x), 1)
#define LGG_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LGG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define LGG_HIDDEN
#define LGG_LIKELY(x) (x)
#define LGG_UNLIKELY(x) (x)
#define LGG_PRINTF(a, b)
#endif

/* ---- allocation (alloc.c) ---- */
LGG_HIDDEN void *lgg__alloc(const lgg_allocator *a, size_t size);
LGG_HIDDEN void *lgg__calloc(const lgg_allocator *a, size_t n, size_t size); /* overflow-checked */
LGG_HIDDEN void *lgg__realloc(const lgg_allocator *a, void *p, size_t old_size, size_t new_size);
LGG_HIDDEN void lgg__free(const lgg_allocator *a, void *p);
/* The one growable array: make *p (*cap elements of `elem` bytes) hold at
 * least `need` elements, doubling from `first` (or the current capacity).
 * False when out of memory or the size overflows; *p and *cap are then
 * unchanged (still valid, still owned by the caller). */
LGG_HIDDEN bool lgg__grow(const lgg_allocator *a, void **p, size_t *cap, size_t need, size_t elem, size_t first);

/* ---- errors (error.c) ---- */
/* Fill err (if non-NULL) and return code. */
LGG_HIDDEN lgg_status lgg__fail(lgg_error *err, lgg_status code, uint64_t offset, const char *fmt, ...)
    LGG_PRINTF(4, 5);

/* ---- options structs that can grow (options.c, libgguf.h) ---- */
/* Replace the caller's options pointer `o` (NULL stays NULL) by a copy of
 * type `type` holding every field this library knows, those the caller's
 * size does not cover zeroed; return the status from the enclosing function
 * when the size is refused.  The first layout of each struct (what size 0
 * stands for) is LGG__FIRST_<type>: the whole struct until a field is
 * added, then offsetof(type, that field). */
#define LGG__OPTIONS_IN(type, o, err)                                                                   \
    type o##_in_;                                                                                       \
    if (o) {                                                                                            \
        lgg_status o##_st_ = lgg_options_copy(&o##_in_, sizeof o##_in_, LGG__FIRST_##type, (o), #type, (err)); \
        if (o##_st_ != LGG_OK) return o##_st_;                                                          \
        (o) = &o##_in_;                                                                                 \
    }
#define LGG__FIRST_lgg_open_options sizeof(lgg_open_options)
#define LGG__FIRST_lgg_validate_options sizeof(lgg_validate_options)
#define LGG__FIRST_lgg_write_options sizeof(lgg_write_options)
#define LGG__FIRST_lgg_split_options sizeof(lgg_split_options)
#define LGG__FIRST_lgg_quant_options offsetof(lgg_quant_options, prune_layers) /* before --prune-layers */
#define LGG__FIRST_lgg_quant_write_options sizeof(lgg_quant_write_options)
#define LGG__FIRST_lgg_estimate_params sizeof(lgg_estimate_params)

/* ---- overflow-checked arithmetic ---- */
static inline bool lgg__add_ovf(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_add_overflow(a, b, r); }
static inline bool lgg__mul_ovf(uint64_t a, uint64_t b, uint64_t *r) { return __builtin_mul_overflow(a, b, r); }

/* ---- byte loads in either byte order (cursor.c has the cursor) ---- */
static inline uint16_t lgg__bswap16(uint16_t v) { return __builtin_bswap16(v); }
static inline uint32_t lgg__bswap32(uint32_t v) { return __builtin_bswap32(v); }
static inline uint64_t lgg__bswap64(uint64_t v) { return __builtin_bswap64(v); }

static inline uint16_t lgg__ld16(const uint8_t *p, bool swap) {
    uint16_t v;
    memcpy(&v, p, 2);
    return swap ? lgg__bswap16(v) : v;
}
static inline uint32_t lgg__ld32(const uint8_t *p, bool swap) {
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? lgg__bswap32(v) : v;
}
static inline uint64_t lgg__ld64(const uint8_t *p, bool swap) {
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? lgg__bswap64(v) : v;
}

/* True on a big-endian host. */
static inline bool lgg__host_is_big(void) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return true;
#else
    return false;
#endif
}

/* Whether data in byte order `e` must be swapped to be read on this host. */
static inline bool lgg__needs_swap(lgg_endian e) { return (e == LGG_BIG_ENDIAN) != lgg__host_is_big(); }

/* ---- string helpers ---- */
/* Copy a not-NUL-terminated string into a message, escaping control and
 * non-ASCII bytes as \xNN and cutting it at `max` bytes (adds "..."). */
/* Threads (threads.c).  lgg__threads: n_threads, or the online CPUs when
 * n_threads <= 0; between 1 and LGG__MAX_THREADS.  lgg__fan_out: fn on each
 * of n jobs (an array of `size`-byte elements), job 0 on the calling thread
 * and the others on threads of their own, returning when all are done; a
 * job whose thread cannot start, and any beyond LGG__MAX_THREADS, runs on the
 * caller (lgg_run_jobs is its public name). */
#define LGG__MAX_THREADS 64u
LGG_HIDDEN unsigned lgg__threads(int n_threads);
LGG_HIDDEN void lgg__fan_out(void *(*fn)(void *), void *jobs, size_t size, unsigned n);

/* The CPU's features (cpu.c), probed once: LGG__CPU_* bits. */
#define LGG__CPU_AVX2 1u
#define LGG__CPU_F16C 2u
#define LGG__CPU_NEON 4u
#define LGG__CPU_AVX512 8u /* AVX-512 F, BW and VL */
LGG_HIDDEN unsigned lgg__cpu_features(void);
/* AVX2 and F16C both present: the condition for every *_avx2.c kernel
 * (they convert halves with F16C). */
LGG_HIDDEN bool lgg__cpu_avx2_f16c(void);
/* ... and AVX-512 F, BW, VL besides: the condition for every *_avx512.c
 * kernel (built with -mavx512f -mavx512bw -mavx512vl -mavx2 -mf16c) */
LGG_HIDDEN bool lgg__cpu_avx512(void);
LGG_HIDDEN void lgg__quote(char *dst, size_t cap, const char *s, uint64_t len, size_t max);

/* UTF-8 validity (utf8.c).  Returns true if s[0..len) is valid UTF-8 (no
 * overlongs, no surrogates, nothing above U+10FFFF); else false and *bad_at is
 * the offset of the first invalid byte. */
LGG_HIDDEN bool lgg__utf8_valid(const uint8_t *s, uint64_t len, uint64_t *bad_at);

#endif
