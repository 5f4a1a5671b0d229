/* quant_internal.h -- shared by the quantizers (src/quant/quant_*.c).
 *
 * Every quantizer here converts ONE row of `n` floats (n a multiple of the
 * type's block size) into little-endian blocks at `y`.  `qw` is NULL or the
 * row's n importance weights.  The arithmetic follows ggml's reference
 * quantizers operation by operation in single precision (the build uses
 * -ffp-contract=off), so the bytes are identical to ggml's. */
#ifndef LGG_QUANT_INTERNAL_H
#define LGG_QUANT_INTERNAL_H

#include "base/internal.h"

#include <math.h>

#include "base/blocks.h"

#if defined(__x86_64__) || defined(__i386__)
#define LGG__QX86 1
#endif

typedef void (*lgg__qrow_fn)(const float *x, uint8_t *y, int64_t n, const float *qw);

/* Round to nearest (ties to even) for |v| <= 2^22 by adding 1.5*2^23 and
 * reading the mantissa; same bits as ggml for any input. */
static inline int lgg__nearest_int(float v) {
    float t = v + 12582912.f;
    int32_t i;
    memcpy(&i, &t, sizeof i);
    return (i & 0x007fffff) - 0x00400000;
}

/* float -> int32 by truncation, as x86's cvttss2si does it (which is what a C
 * cast compiles to in ggml): NaN and out-of-range values give INT32_MIN.
 * Defined behaviour for every input, unlike a plain cast. */
static inline int32_t lgg__f2i(float v) {
    if (!(v > -2147483904.f && v < 2147483648.f)) return INT32_MIN;
    return (int32_t)v;
}

/* MXFP4's E8M0 exponent of a block whose largest |x| is amax (not NaN):
 * ggml's (uint8_t)(floorf(log2f(amax)) - 2 + 127), 0 for amax 0.  For a
 * normal amax whose mantissa is below 2 - 2^-10, floorf(log2f(amax)) is
 * its exponent field less 127 (checked for every such float against
 * glibc's log2f: log2f of it is at least 0.0014 below the next integer,
 * far more than its error); the others (near a power of two from below,
 * subnormal, infinite) take log2f itself. */
static inline uint8_t lgg__mxfp4_e8m0(float amax) {
    if (!(amax > 0.0f)) return 0;
    uint32_t bits;
    memcpy(&bits, &amax, sizeof bits);
    const uint32_t ex = bits >> 23 & 0xff, man = bits & 0x7fffff;
    const float l = ex >= 1 && ex < 255 && man < 0x7fe000 ? (float)((int)ex - 127) : floorf(log2f(amax));
    return (uint8_t)lgg__f2i(l - 2 + 127);
}

static inline void lgg__put16(uint8_t *p, uint16_t v) {
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)(v >> 8);
}
static inline void lgg__put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v & 0xff);
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline uint16_t lgg__get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

/* store f as IEEE half at p (little-endian) */
static inline void lgg__put_f16(uint8_t *p, float f) { lgg__put16(p, lgg_f32_to_f16(f)); }
/* the half at p, rounded trip included: what ggml reads back */
static inline float lgg__get_f16(const uint8_t *p) { return lgg_f16_to_f32(lgg__get16(p)); }

/* index of the value in the sorted table val[0..n) nearest to x (ties to the upper) */
static inline int lgg__best_index_i8(int n, const int8_t *val, float x) {
    if (x <= val[0]) return 0;
    if (x >= val[n - 1]) return n - 1;
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (x < val[mid]) hi = mid;
        else lo = mid;
    }
    return x - val[hi - 1] < val[hi] - x ? hi - 1 : hi;
}

/* ---- per-family row quantizers ---- */
/* A row quantizer that has SIMD kernels takes the path as its last argument:
 * simd=false is the scalar reference, simd=true uses the kernels where the
 * CPU has them.  Both give the same bytes (tests compare them). */
typedef void (*lgg__qpath_fn)(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);

/* lgg_quantize with the path chosen: simd=false runs every type's scalar
 * reference (what the tests hold the SIMD kernels against) */
LGG_HIDDEN lgg_status lgg__quantize_path(uint32_t type, const float *src, void *dst, size_t dst_size, int64_t nrows,
                                         int64_t n_per_row, const float *imatrix, size_t *written, bool simd);
/* quant_legacy.c */
LGG_HIDDEN void lgg__qrow_f16_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_bf16_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_f32(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN void lgg__qrow_q4_0_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q4_1_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q5_0_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q5_1_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q8_0_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q8_1_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
/* qsearch.c: the scale searches several families share */
LGG_HIDDEN float lgg__make_qx_quants(int n, int nmax, const float *x, int8_t *L, int rmse_type, const float *qw);
LGG_HIDDEN float lgg__make_qkx3_quants(int n, int nmax, const float *x, const float *weights, uint8_t *L,
                                       float *the_min, uint8_t *Laux, float rmin, float rdelta, int nstep,
                                       bool use_mad);
/* Positive levels [0, nmax] under importance weights qw (K-quants' sub-block
 * scales and mins; IQ2_XXS's first guess). Returns the scale. */
LGG_HIDDEN float lgg__make_qp_quants(int n, int nmax, const float *x, uint8_t *L, const float *qw);
/* the reference weights of the K-quant scale searches */
enum {
    LGG__QW_GIVEN = 0, /* an array */
    LGG__QW_ABS = 1,   /* |x| (Q2_K) */
    LGG__QW_AVABS = 2  /* sqrt(mean x^2) + |x| per sub-block (Q4_K, Q5_K) */
};
/* quant_avx2.c (x86 builds only): make_qkx2_quants on two groups of 8
 * sub-blocks of n values (group g at x[g], its levels to L[g], scales and
 * mins to scales[g], mins[g]; the two may be the same), bit-identical to the
 * scalar search.  Only the K-quants' two shapes, chosen by n: 32 with the
 * LGG__QW_AVABS weights and squared errors (Q4_K, Q5_K), 16 with LGG__QW_ABS
 * and absolute errors (Q2_K). */
static inline bool lgg__qkx2_x16_shape(int n, int wmode, bool use_mad) {
    return (n == 32 && wmode == LGG__QW_AVABS && !use_mad) || (n == 16 && wmode == LGG__QW_ABS && use_mad);
}
LGG_HIDDEN void lgg__qkx2_x16_avx2(int n, int nmax, const float *const x[2], uint8_t *const L[2],
                                  float *const scales[2], float *const mins[2], float rmin, float rdelta, int nstep);
/* quant_avx512.c (x86 builds only): the same search on 16 sub-blocks in the
 * lanes of one vector (halves x[0], x[1] of 8 sub-blocks each, laid out as
 * above), or on 32 in two (x[0..3]), bit-identical to the scalar search; the
 * same two shapes */
LGG_HIDDEN void lgg__qkx2_x16_avx512(int n, int nmax, const float *const x[2], uint8_t *const L[2],
                                    float *const scales[2], float *const mins[2], float rmin, float rdelta,
                                    int nstep);
LGG_HIDDEN void lgg__qkx2_x32_avx512(int n, int nmax, const float *const x[4], uint8_t *const L[4],
                                    float *const scales[4], float *const mins[4], float rmin, float rdelta,
                                    int nstep);
/* ... and make_qkx3_quants (use_mad false) with weights w[g] on 16, laid
 * out as lgg__qkx3_x16_avx2's two groups */
LGG_HIDDEN void lgg__qkx3_x16_avx512(int n, int nmax, const float *const x[2], const float *const w[2],
                                    uint8_t *const L[2], float *const scales[2], float *const mins[2], float rmin,
                                    float rdelta, int nstep);
/* ... and make_qx_quants with rmse_type 1 (weights qw[g], or x^2 when NULL)
 * on 16 sub-blocks of 16 or 32 in one vector, laid out as
 * lgg__qx1_x16_avx2's two groups */
LGG_HIDDEN void lgg__qx1_x16_avx512(int n, int nmax, const float *const x[2], const float *const qw[2],
                                   int8_t *const L[2], float *const scales[2]);
/* the second group of a call that starts at sub-block j of nsub: j + 8, or j
 * again (the same 8 twice) when only 8 are left */
static inline int lgg__x16_second(int j, int nsub) { return j + 16 <= nsub ? j + 8 : j; }
/* ... and make_qx_quants with rmse_type 1 (weights qw[g], or x^2 when
 * NULL) on two groups of 8 sub-blocks of 16 or 32 likewise */
LGG_HIDDEN void lgg__qx1_x16_avx2(int n, int nmax, const float *const x[2], const float *const qw[2],
                                 int8_t *const L[2], float *const scales[2]);
/* ... and make_qkx3_quants (use_mad false) with weights w[g] likewise, n 16 or 32 */
LGG_HIDDEN void lgg__qkx3_x16_avx2(int n, int nmax, const float *const x[2], const float *const w[2],
                                  uint8_t *const L[2], float *const scales[2], float *const mins[2], float rmin,
                                  float rdelta, int nstep);
/* the imatrix searches on nsub consecutive sub-blocks of n values (weights
 * laid out alike), 16 at a time in SIMD lanes when simd and the CPU allow:
 * make_qkx3_quants(n, nmax, .., -0.9, 0.05, 36, false) (mins negated, as it
 * returns them) and make_qx_quants(n, nmax, .., rmse_type 1, w) */
LGG_HIDDEN void lgg__qkx3_batch(int nsub, int n, int nmax, const float *x, const float *w, uint8_t *L, float *scales,
                                float *mins, bool simd);
LGG_HIDDEN void lgg__qx1_batch(int nsub, int n, int nmax, const float *x, const float *w, int8_t *L, float *scales,
                               bool simd);
/* K-quant final codes: Q4_K/Q5_K sub-block of 32 (clamp(nearest((x+dm)/d),
 * 0, nmax)) and Q6_K/Q3_K sub-block of 16 (clamp(nearest(x/d), -nmax,
 * nmax-1) + nmax) */
LGG_HIDDEN void lgg__requant32_avx2(const float *x, float d, float dm, int nmax, uint8_t *L);
LGG_HIDDEN void lgg__requant16_avx2(const float *x, float d, int nmax, int8_t *L);
LGG_HIDDEN void lgg__q6_k_pack_avx2(const int8_t *L, uint8_t *ql, uint8_t *qh);
/* Q3_K's make_q3_quants(16, 4, .., true) on 8 sub-blocks of 16 in lanes */
LGG_HIDDEN void lgg__q3_x8_avx2(const float *x, int8_t *L, float *scales);
/* legacy blocks and plain rows, nb blocks / n values (quant_avx2.c) */
/* Q8_0/Q8_1 blocks from the first one on, stopping before the first block
 * that holds a NaN (the scalar quantizer takes that one): returns the
 * number of blocks written */
LGG_HIDDEN int64_t lgg__q8_avx2(const float *x, uint8_t *y, int64_t nb, bool sum);
LGG_HIDDEN void lgg__qx_0_avx2(const float *x, uint8_t *y, int64_t nb, int bits);
LGG_HIDDEN void lgg__qx_1_avx2(const float *x, uint8_t *y, int64_t nb, int bits);
LGG_HIDDEN void lgg__f32_to_f16_avx2(const float *x, uint8_t *y, int64_t n);
LGG_HIDDEN void lgg__f32_to_bf16_avx2(const float *x, uint8_t *y, int64_t n);
/* the K-quant row quantizers */
LGG_HIDDEN void lgg__qrow_q3_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q2_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q4_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q6_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_q5_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
/* quant_misc.c */
LGG_HIDDEN void lgg__qrow_tq1_0(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN void lgg__qrow_tq2_0(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN void lgg__qrow_mxfp4_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_nvfp4_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
/* FP4 (quant_avx2.c): the nibble codes of n (16 or 32) values at level scale
 * d, byte j holding values j and j + n/2 */
LGG_HIDDEN void lgg__fp4_codes_avx2(const float *x, int n, float d, uint8_t *q);
/* the largest |x| of n (a multiple of 8) values, NaNs skipped, +0 if none */
LGG_HIDDEN float lgg__absmax_avx2(const float *x, int n);
/* MXFP4 blocks of n (a multiple of 32) values, the whole row in one call */
LGG_HIDDEN void lgg__qrow_mxfp4_avx2(const float *x, uint8_t *y, int64_t n);
LGG_HIDDEN void lgg__qrow_q1_0(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN void lgg__qrow_q2_0(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN void lgg__qrow_iq4_nl_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
LGG_HIDDEN void lgg__qrow_iq4_xs_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);
/* IQ4 (quant_avx2.c): the block-scale search of 8 consecutive blocks of 32
 * in lanes (weights w[32*k + j], or x^2 when w is NULL), and the nibble
 * codes of 32 values at scale 1/id */
LGG_HIDDEN void lgg__iq4_scales_x8_avx2(const float *x, const float *w, float *scales);
LGG_HIDDEN void lgg__iq4_codes_avx2(const float *x, float id, uint8_t *q4);
/* quant_iquants.c: these return false if the search tables are missing or a
 * point falls off the grid (ggml would abort); the row is then rejected. */
typedef bool (*lgg__qrow_chk_fn)(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN bool lgg__qrow_iq2_xxs(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN bool lgg__qrow_iq2_xs(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN bool lgg__qrow_iq2_s(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN bool lgg__qrow_iq3_xxs(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN bool lgg__qrow_iq3_s(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN bool lgg__qrow_iq1_s(const float *x, uint8_t *y, int64_t n, const float *qw);
LGG_HIDDEN bool lgg__qrow_iq1_m(const float *x, uint8_t *y, int64_t n, const float *qw);
/* IQ grid-derived search tables (built once); false if out of memory */
LGG_HIDDEN bool lgg__iq_init(uint32_t type);

#endif
