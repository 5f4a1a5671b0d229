/* quant_avx2.c -- AVX2 + F16C kernels for the quantizers (built with -mavx2
 * -mf16c -mno-fma; called only when the CPU has both, and only through the
 * row quantizers' simd path, whose scalar code stays the reference: the
 * tests compare the two byte for byte).
 *
 * Scale searches (K-quants, their imatrix variants, the legacy imatrix
 * paths, IQ4, Q3_K's refinement) are long chains of dependent float
 * additions, each formed in ggml's order, so one sub-block at a time is
 * latency-bound.  Sub-blocks are independent, so each of the 8 lanes runs one
 * sub-block's search: every lane performs the scalar code's IEEE operations
 * in the scalar code's order (add, mul, div, sqrt, compare; no FMA, no
 * reassociation, no approximate reciprocal), and the scalar branches become
 * per-lane selects.  Element-wise work (legacy blocks, final codes, f16/bf16
 * rows) is vectorized along the row with the same per-element expression;
 * the reductions that need care are described where they are done. */
#include "quant/quant_internal.h"
#include "quant/iq_tables.h"
#include "quant/deq.h"

#if defined(__AVX2__)

#include <float.h>
#include <immintrin.h>

/* lgg__nearest_int per lane: the same 1.5*2^23 trick on the same bits */
static inline __m256i near8(__m256 v) {
    const __m256i t = _mm256_castps_si256(_mm256_add_ps(v, _mm256_set1_ps(12582912.f)));
    return _mm256_sub_epi32(_mm256_and_si256(t, _mm256_set1_epi32(0x007fffff)), _mm256_set1_epi32(0x00400000));
}

/* One scale to f16 with F16C: the same bits as lgg_f32_to_f16 (IEEE round to
 * nearest even, subnormals, overflow to Inf), NaN included: the scalar code
 * makes every NaN 0x7E00 with its sign, F16C would keep payload bits. */
static inline void put_f16c(uint8_t *p, float f) {
    uint16_t h = (uint16_t)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    if (f != f) h = (uint16_t)((h & 0x8000u) | 0x7E00u);
    lgg__put16(p, h);
}

static inline __m256 sel(__m256 a, __m256 b, __m256 take_b) { return _mm256_blendv_ps(a, b, take_b); }

/* Levels clamp(nearest_int(v), lo, hi) of v = s * d (lo, hi small), as
 * floats.  The scalar code reads the integer out of the bits of v + 1.5*2^23;
 * while |v| < 2^21 that sum lies in [2^23, 2^24), where a float's ulp is 1
 * and 1.5*2^23 is even, so the sum rounds v to the nearest integer, ties to
 * even: exactly what vroundps does in one operation (it gives -0 where the
 * sum gives +0; the searches only multiply levels and add the products to
 * sums that start at +0, where a -0 term changes nothing, and final levels
 * are formed the other way).  `fast` is chosen by the caller from a bound on
 * |v| over all lanes; otherwise (huge, Inf or NaN inputs) the bit-reading
 * form reproduces whatever the scalar code gets. */
static inline __m256 level8(__m256 v, bool fast, int lo, int hi) {
    if (fast) {
        const __m256 r = _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        return _mm256_min_ps(_mm256_max_ps(r, _mm256_set1_ps((float)lo)), _mm256_set1_ps((float)hi));
    }
    const __m256i l = _mm256_min_epi32(_mm256_set1_epi32(hi), _mm256_max_epi32(_mm256_set1_epi32(lo), near8(v)));
    return _mm256_cvtepi32_ps(l);
}
/* lanes where |s| * bound < 2^21 (so every level8 input is in the fast range) */
static inline __m256 in_range(__m256 s, __m256 bound) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    return _mm256_cmp_ps(_mm256_mul_ps(_mm256_andnot_ps(sign, s), bound), _mm256_set1_ps(2097152.f), _CMP_LT_OQ);
}
static inline bool all8(__m256 m) { return _mm256_movemask_ps(m) == 0xFF; }

/* xt[i] lane j = x[j*n + i] for i < n (16 or 32, as for every search here):
 * 8 rows of n values transposed into lanes by 8x8 block transposes, much
 * cheaper than a gather per i */
static inline __attribute__((always_inline)) void load_t8(const int n, const float *x, __m256 *xt) {
    for (int i0 = 0; i0 < n; i0 += 8) {
        __m256 r[8], t[8], u[8];
        for (int j = 0; j < 8; j++) r[j] = _mm256_loadu_ps(x + j * n + i0);
        for (int j = 0; j < 8; j += 2) {
            t[j] = _mm256_unpacklo_ps(r[j], r[j + 1]);
            t[j + 1] = _mm256_unpackhi_ps(r[j], r[j + 1]);
        }
        for (int j = 0; j < 8; j += 4) {
            u[j] = _mm256_shuffle_ps(t[j], t[j + 2], 0x44);
            u[j + 1] = _mm256_shuffle_ps(t[j], t[j + 2], 0xEE);
            u[j + 2] = _mm256_shuffle_ps(t[j + 1], t[j + 3], 0x44);
            u[j + 3] = _mm256_shuffle_ps(t[j + 1], t[j + 3], 0xEE);
        }
        for (int k = 0; k < 4; k++) {
            xt[i0 + k] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20);
            xt[i0 + k + 4] = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
        }
    }
}

/* Levels of 8 lanes x n values, Lv[i] lane j = sub-block j's level i, plus
 * off (the sum in 0..255), to bytes L[j*n + i]; n a multiple of 4.  Four consecutive i are packed into one
 * vector whose 32-bit word j is L[j*n + i .. i+3] (an in-lane 4x4 byte
 * transpose after the packs), so a sub-block's row is written a word at a
 * time.  Lanes in `zero` get levels 0. */
static inline void levels_out8(const int n, const __m256 *Lv, int off, __m256 zero, uint8_t *L) {
    const __m256i z = _mm256_castps_si256(zero), vo = _mm256_set1_epi32(off);
    const __m256i tr = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 0, 4, 8, 12, 1, 5, 9, 13,
                                        2, 6, 10, 14, 3, 7, 11, 15);
    uint32_t dw[8][8];
    for (int k = 0; k < n / 4; k++) {
        __m256i q[4];
        for (int t = 0; t < 4; t++) q[t] = _mm256_andnot_si256(z, _mm256_add_epi32(_mm256_cvttps_epi32(Lv[4 * k + t]), vo));
        const __m256i p = _mm256_packus_epi16(_mm256_packus_epi32(q[0], q[1]), _mm256_packus_epi32(q[2], q[3]));
        _mm256_storeu_si256((__m256i *)dw[k], _mm256_shuffle_epi8(p, tr));
    }
    for (int j = 0; j < 8; j++)
        for (int k = 0; k < n / 4; k++) memcpy(L + j * n + 4 * k, &dw[k][j], 4);
}

/* lgg__make_qkx3_quants (quant_kquants.c) on 16 sub-blocks of n (1..32)
 * values at once, in two groups of 8 lanes: group g's sub-block j is
 * x[g][j*n .. j*n+n) with the weights of wmode (w[g] when given); its levels
 * go to L[g][j*n ..], its scale to scales[g][j] and its negated min to
 * mins[g][j].  Inlined into wrappers with n, wmode and use_mad constant.
 *
 * Each step of the search ends in two chains of n dependent additions (the
 * sums, then the error), so the two groups are interleaved element by
 * element to keep two chains in flight; each step computes a candidate's
 * levels and its three sums in one pass; and a lane does not copy its best
 * levels when they change, but remembers the iscale and min that produced
 * them, and they are recomputed once at the end (the same operations on the
 * same operands, so the same levels). */
typedef struct qk2_group {
    __m256 xt[32], wt[32], La[32];
    __m256 mn, mx, sw, sx, nan, flat, xmin, bound, scale, best, b_iscale, b_mn;
} qk2_group;

/* every x - min lies between xmin - min and max - min (rounding is
 * monotonic), so the larger magnitude of the two bounds |x - min|; a lane
 * with a NaN takes the exact slow path throughout */
static inline void qk2_bound(qk2_group *g) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    g->bound = sel(_mm256_max_ps(_mm256_andnot_ps(sign, _mm256_sub_ps(g->mx, g->mn)),
                                 _mm256_andnot_ps(sign, _mm256_sub_ps(g->xmin, g->mn))),
                   _mm256_set1_ps(INFINITY), g->nan);
}

/* lanes that may take the fast level8 path at this iscale */
static inline bool qk2_fast(const qk2_group *g, __m256 iscale) {
    return all8(_mm256_or_ps(g->flat, in_range(iscale, g->bound)));
}

static inline __attribute__((always_inline)) void qk2_setup(qk2_group *g, const int n, int nmax, const float *x,
                                                           const int wmode, const float *w, const bool use_mad) {
    const __m256 zero = _mm256_setzero_ps(), sign = _mm256_set1_ps(-0.0f);
    __m256 *xt = g->xt, *wt = g->wt;
    /* n >= 1: the scalar search also starts from element 0 unconditionally */
    load_t8(n, x, xt);
    /* the weights, as ref_weights in quant_kquants.c forms them */
    __m256 av = zero;
    if (wmode == LGG__QW_AVABS) {
        __m256 s2 = zero;
        for (int i = 0; i < n; i++) s2 = _mm256_add_ps(s2, _mm256_mul_ps(xt[i], xt[i]));
        av = _mm256_sqrt_ps(_mm256_div_ps(s2, _mm256_set1_ps((float)n)));
    }
    if (wmode == LGG__QW_GIVEN) load_t8(n, w, wt);
    else
        for (int i = 0; i < n; i++)
            wt[i] = wmode == LGG__QW_AVABS ? _mm256_add_ps(av, _mm256_andnot_ps(sign, xt[i])) : _mm256_andnot_ps(sign, xt[i]);
    __m256 mn = xt[0], mx = xt[0], sw = wt[0], sx = _mm256_mul_ps(wt[0], xt[0]), nan = zero;
    for (int i = 1; i < n; i++) {
        mn = _mm256_min_ps(xt[i], mn); /* x < min ? x : min */
        mx = _mm256_max_ps(xt[i], mx); /* x > max ? x : max */
        sw = _mm256_add_ps(sw, wt[i]);
        sx = _mm256_add_ps(sx, _mm256_mul_ps(wt[i], xt[i]));
    }
    for (int i = 0; i < n; i++) nan = _mm256_or_ps(nan, _mm256_cmp_ps(xt[i], xt[i], _CMP_UNORD_Q));
    g->xmin = mn;
    mn = sel(mn, zero, _mm256_cmp_ps(mn, zero, _CMP_GT_OQ));
    g->mn = mn, g->mx = mx, g->sw = sw, g->sx = sx, g->nan = nan;
    /* a flat sub-block (max <= min, the same as max == min here: see
     * lgg__make_qkx3_quants) gets no search */
    g->flat = _mm256_cmp_ps(mx, mn, _CMP_LE_OQ);
    qk2_bound(g);
    const __m256 iscale = _mm256_div_ps(_mm256_set1_ps((float)nmax), _mm256_sub_ps(mx, mn));
    const __m256 scale = _mm256_div_ps(_mm256_set1_ps(1.0f), iscale);
    __m256 best = zero;
#define QK2_INIT(fast)                                                                                                 \
    for (int i = 0; i < n; i++) {                                                                                      \
        const __m256 l = level8(_mm256_mul_ps(iscale, _mm256_sub_ps(xt[i], mn)), fast, 0, nmax);                       \
        __m256 diff = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(scale, l), mn), xt[i]);                                \
        diff = use_mad ? _mm256_andnot_ps(sign, diff) : _mm256_mul_ps(diff, diff);                                    \
        best = _mm256_add_ps(best, _mm256_mul_ps(wt[i], diff));                                                        \
    }
    if (qk2_fast(g, iscale)) QK2_INIT(true) else QK2_INIT(false)
#undef QK2_INIT
    g->scale = scale, g->best = best, g->b_iscale = iscale, g->b_mn = mn;
}

/* one candidate's level l of element i, and its terms of the three sums */
static inline __attribute__((always_inline)) void qk2_lsum(qk2_group *g, int i, __m256 iscale, bool fast, int nmax,
                                                          __m256 *sl, __m256 *sl2, __m256 *sxl) {
    const __m256 l = level8(_mm256_mul_ps(iscale, _mm256_sub_ps(g->xt[i], g->mn)), fast, 0, nmax);
    g->La[i] = l;
    const __m256 wl = _mm256_mul_ps(g->wt[i], l);
    *sl = _mm256_add_ps(*sl, wl);
    *sl2 = _mm256_add_ps(*sl2, _mm256_mul_ps(wl, l));
    *sxl = _mm256_add_ps(*sxl, _mm256_mul_ps(wl, g->xt[i]));
}

/* the candidate's scale ts and min tm from its sums; lanes in the result
 * have D > 0 (the others keep their best) */
static inline __m256 qk2_fit(const qk2_group *g, __m256 sl, __m256 sl2, __m256 sxl, __m256 *ts, __m256 *tm) {
    const __m256 zero = _mm256_setzero_ps();
    const __m256 D = _mm256_sub_ps(_mm256_mul_ps(g->sw, sl2), _mm256_mul_ps(sl, sl));
    const __m256 dpos = _mm256_andnot_ps(g->flat, _mm256_cmp_ps(D, zero, _CMP_GT_OQ));
    __m256 s = _mm256_div_ps(_mm256_sub_ps(_mm256_mul_ps(g->sw, sxl), _mm256_mul_ps(g->sx, sl)), D);
    __m256 m = _mm256_div_ps(_mm256_sub_ps(_mm256_mul_ps(sl2, g->sx), _mm256_mul_ps(sl, sxl)), D);
    const __m256 mpos = _mm256_cmp_ps(m, zero, _CMP_GT_OQ);
    *tm = sel(m, zero, mpos);
    *ts = sel(s, _mm256_div_ps(sxl, sl2), mpos);
    return dpos;
}

static inline __attribute__((always_inline)) __m256 qk2_err(const qk2_group *g, int i, __m256 ts, __m256 tm,
                                                           __m256 cur, const bool use_mad) {
    __m256 diff = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(ts, g->La[i]), tm), g->xt[i]);
    diff = use_mad ? _mm256_andnot_ps(_mm256_set1_ps(-0.0f), diff) : _mm256_mul_ps(diff, diff);
    return _mm256_add_ps(cur, _mm256_mul_ps(g->wt[i], diff));
}

static inline void qk2_update(qk2_group *g, __m256 dpos, __m256 cur, __m256 iscale, __m256 ts, __m256 tm) {
    const __m256 upd = _mm256_and_ps(dpos, _mm256_cmp_ps(cur, g->best, _CMP_LT_OQ));
    if (_mm256_movemask_ps(upd) == 0) return;
    g->b_iscale = sel(g->b_iscale, iscale, upd);
    g->b_mn = sel(g->b_mn, g->mn, upd);
    g->best = sel(g->best, cur, upd);
    g->scale = sel(g->scale, ts, upd);
    g->mn = sel(g->mn, tm, upd);
    qk2_bound(g);
}

static inline __attribute__((always_inline)) void qk2_finish(qk2_group *g, const int n, int nmax, uint8_t *L,
                                                            float *scales, float *the_mins) {
    const __m256 zero = _mm256_setzero_ps();
    /* a constant sub-block: all levels 0, scale 0 */
    _mm256_storeu_ps(scales, sel(g->scale, zero, g->flat));
    _mm256_storeu_ps(the_mins, _mm256_xor_ps(g->mn, _mm256_set1_ps(-0.0f)));
    /* the bit-reading form, exact for any lane */
    for (int i = 0; i < n; i++)
        g->La[i] = level8(_mm256_mul_ps(g->b_iscale, _mm256_sub_ps(g->xt[i], g->b_mn)), false, 0, nmax);
    levels_out8(n, g->La, 0, g->flat, L);
}

static inline __attribute__((always_inline)) void qkx2_x16(const int n, int nmax, const float *const x[2],
                                                          const int wmode, const float *const w[2], uint8_t *const L[2],
                                                          float *const scales[2], float *const mins[2], float rmin,
                                                          float rdelta, int nstep, const bool use_mad) {
    qk2_group A, B;
    const __m256 zero = _mm256_setzero_ps();
    qk2_setup(&A, n, nmax, x[0], wmode, w[0], use_mad);
    qk2_setup(&B, n, nmax, x[1], wmode, w[1], use_mad);
    for (int is = 0; is <= nstep; is++) {
        /* lane-uniform numerator: the scalar expression, evaluated once */
        const float num = rmin + rdelta * (float)is + (float)nmax;
        const __m256 isa = _mm256_div_ps(_mm256_set1_ps(num), _mm256_sub_ps(A.mx, A.mn));
        const __m256 isb = _mm256_div_ps(_mm256_set1_ps(num), _mm256_sub_ps(B.mx, B.mn));
        __m256 sla = zero, sl2a = zero, sxla = zero, slb = zero, sl2b = zero, sxlb = zero;
#define QK2_LSUMS(fast)                                                                                                \
    _Pragma("GCC unroll 2") for (int i = 0; i < n; i++) {                                                              \
        qk2_lsum(&A, i, isa, fast, nmax, &sla, &sl2a, &sxla);                                                      \
        qk2_lsum(&B, i, isb, fast, nmax, &slb, &sl2b, &sxlb);                                                      \
    }
        if (qk2_fast(&A, isa) && qk2_fast(&B, isb)) QK2_LSUMS(true) else QK2_LSUMS(false)
#undef QK2_LSUMS
        __m256 tsa, tma, tsb, tmb;
        const __m256 dpa = qk2_fit(&A, sla, sl2a, sxla, &tsa, &tma);
        const __m256 dpb = qk2_fit(&B, slb, sl2b, sxlb, &tsb, &tmb);
        if (_mm256_movemask_ps(_mm256_or_ps(dpa, dpb)) == 0) continue;
        __m256 cura = zero, curb = zero;
#pragma GCC unroll 2
        for (int i = 0; i < n; i++) {
            cura = qk2_err(&A, i, tsa, tma, cura, use_mad);
            curb = qk2_err(&B, i, tsb, tmb, curb, use_mad);
        }
        qk2_update(&A, dpa, cura, isa, tsa, tma);
        qk2_update(&B, dpb, curb, isb, tsb, tmb);
    }
    qk2_finish(&A, n, nmax, L[0], scales[0], mins[0]);
    qk2_finish(&B, n, nmax, L[1], scales[1], mins[1]);
}

void lgg__qkx2_x16_avx2(int n, int nmax, const float *const x[2], uint8_t *const L[2], float *const scales[2],
                        float *const mins[2], float rmin, float rdelta, int nstep) {
    const float *const nw[2] = {NULL, NULL};
    if (n == 32) qkx2_x16(32, nmax, x, LGG__QW_AVABS, nw, L, scales, mins, rmin, rdelta, nstep, false);
    else qkx2_x16(16, nmax, x, LGG__QW_ABS, nw, L, scales, mins, rmin, rdelta, nstep, true);
}

void lgg__qkx3_x16_avx2(int n, int nmax, const float *const x[2], const float *const w[2], uint8_t *const L[2],
                        float *const scales[2], float *const mins[2], float rmin, float rdelta, int nstep) {
    if (n == 32) qkx2_x16(32, nmax, x, LGG__QW_GIVEN, w, L, scales, mins, rmin, rdelta, nstep, false);
    else qkx2_x16(16, nmax, x, LGG__QW_GIVEN, w, L, scales, mins, rmin, rdelta, nstep, false);
}

/* lgg__make_qx_quants with rmse_type 1 (weights qw, or x^2 when qw is NULL)
 * on 8 sub-blocks of n (16 or 32) values at once, laid out as in
 * lgg__qkx2_x8_avx2; levels (offset by nmax) to L[j*n ..], scales[j].
 * w*x is formed once (the scalar sum is (w*x)*l, in that order). */
typedef struct qx1_group {
    __m256 xt[32], wt[32], wx[32];
    __m256 max, tiny, bound, scale, best, b_iscale;
} qx1_group;

static inline __attribute__((always_inline)) void qx1_setup(qx1_group *g, const int n, const float *x, const float *qw) {
    const __m256 zero = _mm256_setzero_ps(), sign = _mm256_set1_ps(-0.0f);
    load_t8(n, x, g->xt);
    if (qw) load_t8(n, qw, g->wt);
    __m256 amax = zero, max = zero, nan = zero;
    for (int i = 0; i < n; i++) {
        const __m256 xi = g->xt[i];
        if (!qw) g->wt[i] = _mm256_mul_ps(xi, xi);
        g->wx[i] = _mm256_mul_ps(g->wt[i], xi);
        const __m256 a = _mm256_andnot_ps(sign, xi);
        const __m256 gt = _mm256_cmp_ps(a, amax, _CMP_GT_OQ);
        amax = sel(amax, a, gt);
        max = sel(max, xi, gt);
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(xi, xi, _CMP_UNORD_Q));
    }
    g->max = max;
    g->tiny = _mm256_cmp_ps(amax, _mm256_set1_ps(1e-15f), _CMP_LT_OQ);
    /* |iscale * x| <= |iscale| * amax unless a NaN hides from amax; the
     * (discarded) near-zero lanes must not force the slow path */
    g->bound = sel(amax, _mm256_set1_ps(INFINITY), nan);
}

/* lgg__make_qx_quants with rmse_type 1 (weights qw[g], or x^2 when NULL) on
 * two groups of 8 sub-blocks of n (16 or 32) values, laid out as in
 * qkx2_x16; levels (offset by nmax) to L[g][j*n ..], scales[g][j].  w*x is
 * formed once (the scalar sum is (w*x)*l, in that order).  As in qkx2_x16,
 * the groups are interleaved (two pairs of dependent sums in flight), each
 * candidate's levels and sums take one pass, and the best levels are
 * recomputed at the end from the iscale that produced them. */
static inline __attribute__((always_inline)) void qx1_x16(const int n, const int nmax, const float *const x[2],
                                                         const float *const qw[2], int8_t *const L[2],
                                                         float *const scales[2]) {
    qx1_group A, B;
    const __m256 zero = _mm256_setzero_ps();
    qx1_setup(&A, n, x[0], qw[0]);
    qx1_setup(&B, n, x[1], qw[1]);
    __m256 isa = _mm256_div_ps(_mm256_set1_ps((float)-nmax), A.max);
    __m256 isb = _mm256_div_ps(_mm256_set1_ps((float)-nmax), B.max);
    __m256 lxa, l2a, lxb, l2b;
#define QX1_SUM(G, is_, lx, l2, fast)                                                                                  \
    do {                                                                                                               \
        const __m256 l = level8(_mm256_mul_ps(is_, G.xt[i]), fast, -nmax, nmax - 1);                                   \
        lx = _mm256_add_ps(lx, _mm256_mul_ps(G.wx[i], l));                                                             \
        l2 = _mm256_add_ps(l2, _mm256_mul_ps(_mm256_mul_ps(G.wt[i], l), l));                                           \
    } while (0)
#define QX1_SUMS(fast)                                                                                                 \
    _Pragma("GCC unroll 2") for (int i = 0; i < n; i++) {                                                              \
        QX1_SUM(A, isa, lxa, l2a, fast);                                                                               \
        QX1_SUM(B, isb, lxb, l2b, fast);                                                                               \
    }
#define QX1_LEVELS_SUMS()                                                                                              \
    do {                                                                                                               \
        lxa = l2a = lxb = l2b = zero;                                                                                  \
        if (all8(_mm256_or_ps(A.tiny, in_range(isa, A.bound))) && all8(_mm256_or_ps(B.tiny, in_range(isb, B.bound)))) \
            QX1_SUMS(true)                                                                                             \
        else QX1_SUMS(false)                                                                                           \
    } while (0)
    QX1_LEVELS_SUMS();
    A.b_iscale = isa, B.b_iscale = isb;
    A.scale = sel(zero, _mm256_div_ps(lxa, l2a), _mm256_cmp_ps(l2a, zero, _CMP_NEQ_UQ));
    B.scale = sel(zero, _mm256_div_ps(lxb, l2b), _mm256_cmp_ps(l2b, zero, _CMP_NEQ_UQ));
    A.best = _mm256_mul_ps(A.scale, lxa);
    B.best = _mm256_mul_ps(B.scale, lxb);
    for (int is = -9; is <= 9; is++) {
        if (is == 0) continue;
        const __m256 num = _mm256_set1_ps(-((float)nmax + 0.1f * (float)is));
        isa = _mm256_div_ps(num, A.max);
        isb = _mm256_div_ps(num, B.max);
        QX1_LEVELS_SUMS();
#define QX1_UPDATE(G, is_, lx, l2)                                                                                     \
    do {                                                                                                               \
        const __m256 upd = _mm256_and_ps(_mm256_cmp_ps(l2, zero, _CMP_GT_OQ),                                          \
                                         _mm256_cmp_ps(_mm256_mul_ps(lx, lx), _mm256_mul_ps(G.best, l2), _CMP_GT_OQ)); \
        G.b_iscale = sel(G.b_iscale, is_, upd);                                                                        \
        G.scale = sel(G.scale, _mm256_div_ps(lx, l2), upd);                                                            \
        G.best = sel(G.best, _mm256_mul_ps(G.scale, lx), upd);                                                         \
    } while (0)
        QX1_UPDATE(A, isa, lxa, l2a);
        QX1_UPDATE(B, isb, lxb, l2b);
#undef QX1_UPDATE
    }
#undef QX1_LEVELS_SUMS
#undef QX1_SUMS
#undef QX1_SUM
    __m256 Lv[32];
    /* a (near) zero sub-block: level 0 (stored as 0, not nmax) and scale 0 */
    _mm256_storeu_ps(scales[0], sel(A.scale, zero, A.tiny));
    for (int i = 0; i < n; i++) Lv[i] = level8(_mm256_mul_ps(A.b_iscale, A.xt[i]), false, -nmax, nmax - 1);
    levels_out8(n, Lv, nmax, A.tiny, (uint8_t *)L[0]);
    _mm256_storeu_ps(scales[1], sel(B.scale, zero, B.tiny));
    for (int i = 0; i < n; i++) Lv[i] = level8(_mm256_mul_ps(B.b_iscale, B.xt[i]), false, -nmax, nmax - 1);
    levels_out8(n, Lv, nmax, B.tiny, (uint8_t *)L[1]);
}

void lgg__qx1_x16_avx2(int n, int nmax, const float *const x[2], const float *const qw[2], int8_t *const L[2],
                       float *const scales[2]) {
    if (n == 16 && nmax == 32) qx1_x16(16, 32, x, qw, L, scales); /* Q6_K */
    else if (n == 16 && nmax == 4) qx1_x16(16, 4, x, qw, L, scales); /* Q3_K with weights */
    else if (n == 32 && nmax == 8) qx1_x16(32, 8, x, qw, L, scales); /* Q4_0 with weights */
    else if (n == 32 && nmax == 16) qx1_x16(32, 16, x, qw, L, scales); /* Q5_0 with weights */
    else if (n == 16) qx1_x16(16, nmax, x, qw, L, scales);
    else qx1_x16(32, nmax, x, qw, L, scales);
}

/* ==== legacy 32-element blocks and plain f16/bf16 rows ====================
 *
 * One block at a time, the 32 values in four vectors.  The per-element
 * arithmetic is the scalar expression lane by lane; what needs care is the
 * reductions, which the scalar code runs in element order:
 *  - max |x| (Q8_0/Q8_1: `amax > a ? amax : a` starting at 0) does not depend
 *    on order unless a NaN is present, so a block with a NaN is handed to the
 *    scalar block code;
 *  - Q4_0/Q5_0's "value of largest magnitude" skips NaNs and keeps the FIRST
 *    value reaching the maximum (a later -v does not replace +v), so the max
 *    is reduced in any order and the value is then picked by first index;
 *    when the max is 0 the scalar code keeps its initial +0;
 *  - Q4_1/Q5_1's min and max (from +-FLT_MAX, `<` / `>`) skip NaNs; order
 *    matters only for the sign of a zero result, which is then the sign of
 *    the first zero in the block.
 * Float -> int conversions are cvttps (NaN and out of range give INT32_MIN
 * exactly like lgg__f2i), then the low byte is taken as the scalar int8_t /
 * uint8_t casts do; packs use unsigned saturation on values already masked
 * to 0..255, so nothing saturates. */

static inline __m256 abs8(__m256 v) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), v); }
static inline float hmax8(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}
/* lane b = the largest (or smallest) of m[b]'s 8 lanes, for 8 vectors at
 * once (none NaN; max and min are exact, so the order does not matter) */
static inline __attribute__((always_inline)) __m256 mm8(__m256 a, __m256 b, bool max) {
    return max ? _mm256_max_ps(a, b) : _mm256_min_ps(a, b);
}
static inline __attribute__((always_inline)) __m256 hred8x8(const __m256 *m, bool max) {
    const __m256 a01 = mm8(_mm256_unpacklo_ps(m[0], m[1]), _mm256_unpackhi_ps(m[0], m[1]), max);
    const __m256 a23 = mm8(_mm256_unpacklo_ps(m[2], m[3]), _mm256_unpackhi_ps(m[2], m[3]), max);
    const __m256 a45 = mm8(_mm256_unpacklo_ps(m[4], m[5]), _mm256_unpackhi_ps(m[4], m[5]), max);
    const __m256 a67 = mm8(_mm256_unpacklo_ps(m[6], m[7]), _mm256_unpackhi_ps(m[6], m[7]), max);
    const __m256 b0 = mm8(_mm256_shuffle_ps(a01, a23, 0x44), _mm256_shuffle_ps(a01, a23, 0xEE), max);
    const __m256 b4 = mm8(_mm256_shuffle_ps(a45, a67, 0x44), _mm256_shuffle_ps(a45, a67, 0xEE), max);
    return mm8(_mm256_permute2f128_ps(b0, b4, 0x20), _mm256_permute2f128_ps(b0, b4, 0x31), max);
}
static inline float hmin8(__m256 v) {
    __m128 m = _mm_min_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_min_ps(m, _mm_movehl_ps(m, m));
    m = _mm_min_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}
/* bit j set where lane j of the four vectors (32 values) compares true */
static inline uint32_t mask32(__m256 m0, __m256 m1, __m256 m2, __m256 m3) {
    return (uint32_t)_mm256_movemask_ps(m0) | (uint32_t)_mm256_movemask_ps(m1) << 8 |
           (uint32_t)_mm256_movemask_ps(m2) << 16 | (uint32_t)_mm256_movemask_ps(m3) << 24;
}
/* (int8_t) of an int32 lane, as a sign-extended int32 */
static inline __m256i sext8(__m256i t) { return _mm256_srai_epi32(_mm256_slli_epi32(t, 24), 24); }
static inline __m256i low8(__m256i t) { return _mm256_and_si256(t, _mm256_set1_epi32(0xFF)); }

/* roundf (half away from zero) per lane: trunc, then the exact fraction
 * v - trunc(v) decides; |v| >= 2^23 has no fraction, Inf gives a NaN
 * fraction (no step) and stays Inf, NaN stays NaN. */
static inline __m256 roundf8(__m256 v) {
    const __m256 t = _mm256_round_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m256 f = abs8(_mm256_sub_ps(v, t));
    const __m256 step = _mm256_or_ps(_mm256_set1_ps(1.0f), _mm256_and_ps(v, _mm256_set1_ps(-0.0f)));
    return _mm256_add_ps(t, _mm256_and_ps(step, _mm256_cmp_ps(f, _mm256_set1_ps(0.5f), _CMP_GE_OQ)));
}

/* 32 byte lanes (values 0..255, elements 0-7, 8-15, 16-23, 24-31) to 32 bytes */
static inline void store32_u8(uint8_t *p, __m256i q0, __m256i q1, __m256i q2, __m256i q3) {
    const __m256i a = _mm256_packus_epi32(q0, q1), b = _mm256_packus_epi32(q2, q3);
    const __m256i c = _mm256_packus_epi16(a, b);
    _mm256_storeu_si256((__m256i *)(void *)p,
                        _mm256_permutevar8x32_epi32(c, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}
/* nibble pairs: byte j = (q[j] | q[j+16] << 4) & 0xFF for j < 16 */
static inline void store16_nib(uint8_t *p, __m256i q0, __m256i q1, __m256i q2, __m256i q3) {
    const __m256i lo = low8(_mm256_or_si256(q0, _mm256_slli_epi32(q2, 4)));
    const __m256i hi = low8(_mm256_or_si256(q1, _mm256_slli_epi32(q3, 4)));
    const __m256i a = _mm256_packus_epi32(lo, hi);
    const __m256i c = _mm256_packus_epi16(a, a);
    const __m256i r = _mm256_permutevar8x32_epi32(c, _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(r));
}
/* pack5 of quant_legacy.c: low nibbles as store16_nib, bit 4 of element i
 * into bit i of the little-endian word at qh */
static inline void store_q5(uint8_t *qh, uint8_t *qs, __m256i q0, __m256i q1, __m256i q2, __m256i q3) {
    const uint32_t h = mask32(_mm256_castsi256_ps(_mm256_slli_epi32(q0, 27)),
                              _mm256_castsi256_ps(_mm256_slli_epi32(q1, 27)),
                              _mm256_castsi256_ps(_mm256_slli_epi32(q2, 27)),
                              _mm256_castsi256_ps(_mm256_slli_epi32(q3, 27)));
    lgg__put32(qh, h);
    const __m256i m = _mm256_set1_epi32(0x0F);
    store16_nib(qs, _mm256_and_si256(q0, m), _mm256_and_si256(q1, m), _mm256_and_si256(q2, m),
                _mm256_and_si256(q3, m));
}

/* Q8_0 (sum = false: d, 32 codes) or Q8_1 (sum = true: d, d*sum, 32 codes) */
/* 8 block scales d to df, and id = d != 0 ? 1 / d : 0 to idf, as the scalar
 * code forms them block by block */
static inline void scales8(__m256 d, float *df, float *idf) {
    const __m256 z = _mm256_setzero_ps();
    _mm256_storeu_ps(df, d);
    _mm256_storeu_ps(idf, sel(z, _mm256_div_ps(_mm256_set1_ps(1.f), d), _mm256_cmp_ps(d, z, _CMP_NEQ_UQ)));
}

/* one block's codes from its scale d and 1/d (the values are loaded here:
 * an array of vectors passed in was copied through the stack in halves,
 * and the full-width reloads stalled on store forwarding) */
static inline __attribute__((always_inline)) void q8_codes(const float *x, uint8_t *y, bool sum, float d, float id) {
    const size_t off = sum ? 4 : 2;
    __m256 v[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) v[k] = _mm256_loadu_ps(x + 8 * k);
    put_f16c(y, d);
    const __m256 vid = _mm256_set1_ps(id);
    __m256i q[4], s = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) {
        const __m256i t = _mm256_cvttps_epi32(roundf8(_mm256_mul_ps(v[k], vid)));
        s = _mm256_add_epi32(s, sext8(t));
        q[k] = low8(t);
    }
    store32_u8(y + off, q[0], q[1], q[2], q[3]);
    if (sum) {
        __m128i h = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        h = _mm_add_epi32(h, _mm_unpackhi_epi64(h, h));
        h = _mm_add_epi32(h, _mm_shuffle_epi32(h, 1));
        put_f16c(y + 2, (float)_mm_cvtsi128_si32(h) * d);
    }
}

/* Scales of 8 blocks at a time: their maxima gathered into one vector, so
 * the two divisions per block (d = amax / 127, id = 1 / d) are two vector
 * divisions per 8 blocks, the same IEEE operations. */
int64_t lgg__q8_avx2(const float *x, uint8_t *y, int64_t nb, bool sum) {
    const size_t bs = sum ? 36 : 34;
    int64_t ib = 0;
    for (; ib + 8 <= nb; ib += 8, x += 256, y += 8 * bs) {
        __m256 m[8], nan = _mm256_setzero_ps();
        for (int b = 0; b < 8; b++) {
            const float *xb = x + 32 * b;
            const __m256 v0 = _mm256_loadu_ps(xb), v1 = _mm256_loadu_ps(xb + 8), v2 = _mm256_loadu_ps(xb + 16),
                         v3 = _mm256_loadu_ps(xb + 24);
            nan = _mm256_or_ps(nan, _mm256_or_ps(_mm256_cmp_ps(v0, v1, _CMP_UNORD_Q), _mm256_cmp_ps(v2, v3, _CMP_UNORD_Q)));
            m[b] = _mm256_max_ps(_mm256_max_ps(abs8(v0), abs8(v1)), _mm256_max_ps(abs8(v2), abs8(v3)));
        }
        if (_mm256_movemask_ps(nan)) break; /* the block-by-block loop takes these */
        const __m256 d = _mm256_div_ps(hred8x8(m, true), _mm256_set1_ps(127.f));
        float df[8], idf[8];
        scales8(d, df, idf);
        for (int b = 0; b < 8; b++) q8_codes(x + 32 * b, y + b * bs, sum, df[b], idf[b]);
    }
    for (; ib < nb; ib++, x += 32, y += bs) {
        __m256 v[4];
        for (int k = 0; k < 4; k++) v[k] = _mm256_loadu_ps(x + 8 * k);
        const __m256 nan01 = _mm256_cmp_ps(v[0], v[1], _CMP_UNORD_Q), nan23 = _mm256_cmp_ps(v[2], v[3], _CMP_UNORD_Q);
        if (_mm256_movemask_ps(_mm256_or_ps(nan01, nan23))) return ib;
        const float amax = hmax8(_mm256_max_ps(_mm256_max_ps(abs8(v[0]), abs8(v[1])), _mm256_max_ps(abs8(v[2]), abs8(v[3]))));
        const float d = amax / 127;
        q8_codes(x, y, sum, d, d != 0.0f ? 1.0f / d : 0.0f);
    }
    return nb;
}

/* value of largest magnitude, first one on ties, +0 if none is above 0 */
static inline float signed_absmax8(const float *x, const __m256 *v) {
    __m256 acc = _mm256_setzero_ps();
    for (int k = 0; k < 4; k++) acc = _mm256_max_ps(abs8(v[k]), acc); /* a NaN lane keeps acc */
    const float amax = hmax8(acc);
    if (!(amax > 0.0f)) return 0.0f;
    const __m256 m = _mm256_set1_ps(amax);
    const uint32_t hit = mask32(_mm256_cmp_ps(abs8(v[0]), m, _CMP_EQ_OQ), _mm256_cmp_ps(abs8(v[1]), m, _CMP_EQ_OQ),
                                _mm256_cmp_ps(abs8(v[2]), m, _CMP_EQ_OQ), _mm256_cmp_ps(abs8(v[3]), m, _CMP_EQ_OQ));
    return x[__builtin_ctz(hit)];
}

/* Q4_0 (bits 4) and Q5_0 (bits 5): d = max / -2^(b-1), code = min(2^b - 1,
 * (int8)(x*id + 2^(b-1) + 0.5)) */
static inline __attribute__((always_inline)) void qx_0_codes(const float *x, uint8_t *y, int bits, float d, float id) {
    __m256 v[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++) v[k] = _mm256_loadu_ps(x + 8 * k);
    const __m256i top = _mm256_set1_epi32((1 << bits) - 1);
    put_f16c(y, d);
    const __m256 vid = _mm256_set1_ps(id), vh = _mm256_set1_ps(bits == 4 ? 8.5f : 16.5f);
    __m256i q[4];
#pragma GCC unroll 4
    for (int k = 0; k < 4; k++)
        q[k] = low8(_mm256_min_epi32(sext8(_mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(v[k], vid), vh))), top));
    if (bits == 4) store16_nib(y + 2, q[0], q[1], q[2], q[3]);
    else store_q5(y + 2, y + 6, q[0], q[1], q[2], q[3]);
}

/* 8 blocks at a time as in lgg__q8_avx2: the largest magnitudes in one
 * vector, each given the sign of the block's first value of that magnitude
 * (that value is exactly +-amax), then two vector divisions */
void lgg__qx_0_avx2(const float *x, uint8_t *y, int64_t nb, int bits) {
    const size_t bs = bits == 4 ? 18 : 22;
    const float dv = bits == 4 ? -8.f : -16.f;
    int64_t ib = 0;
    for (; ib + 8 <= nb; ib += 8, x += 256, y += 8 * bs) {
        /* per block max and min from +0 (max_ps/min_ps keep the
         * accumulator on a NaN, as the scalar search skips one), so
         * amax = max(max, -min) = the largest |x|; the signed maximum is
         * +amax or -amax, whichever is present, and the first of them when
         * both are (rare: those blocks are scanned) */
        __m256 mx[8], mn[8];
        for (int b = 0; b < 8; b++) {
            __m256 hi = _mm256_setzero_ps(), lo = hi;
            for (int k = 0; k < 4; k++) {
                const __m256 v = _mm256_loadu_ps(x + 32 * b + 8 * k);
                hi = _mm256_max_ps(v, hi);
                lo = _mm256_min_ps(v, lo);
            }
            mx[b] = hi;
            mn[b] = lo;
        }
        const __m256 hi = hred8x8(mx, true), nlo = _mm256_xor_ps(hred8x8(mn, false), _mm256_set1_ps(-0.0f));
        const __m256 amax = _mm256_max_ps(hi, nlo);
        const __m256 pos = _mm256_cmp_ps(amax, _mm256_setzero_ps(), _CMP_GT_OQ);
        const __m256 has_p = _mm256_cmp_ps(hi, amax, _CMP_EQ_OQ), has_n = _mm256_cmp_ps(nlo, amax, _CMP_EQ_OQ);
        uint32_t neg = (uint32_t)_mm256_movemask_ps(_mm256_andnot_ps(has_p, pos));
        uint32_t both = (uint32_t)_mm256_movemask_ps(_mm256_and_ps(_mm256_and_ps(has_p, has_n), pos));
        for (; both; both &= both - 1) {
            const int b = __builtin_ctz(both);
            __m256 v[4];
            for (int k = 0; k < 4; k++) v[k] = _mm256_loadu_ps(x + 32 * b + 8 * k);
            neg |= (signbit(signed_absmax8(x + 32 * b, v)) ? 1u : 0u) << b;
        }
        /* the signed maxima; amax lanes that are not > 0 become +0 */
        const __m256i nb8 = _mm256_and_si256(_mm256_sllv_epi32(_mm256_set1_epi32((int)neg), _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24)),
                                             _mm256_set1_epi32(INT32_MIN));
        const __m256 smax = _mm256_or_ps(_mm256_and_ps(amax, pos), _mm256_castsi256_ps(nb8));
        const __m256 d = _mm256_div_ps(smax, _mm256_set1_ps(dv));
        float df[8], idf[8];
        scales8(d, df, idf);
        for (int b = 0; b < 8; b++) qx_0_codes(x + 32 * b, y + b * bs, bits, df[b], idf[b]);
    }
    for (; ib < nb; ib++, x += 32, y += bs) {
        __m256 v[4];
        for (int k = 0; k < 4; k++) v[k] = _mm256_loadu_ps(x + 8 * k);
        const float max = signed_absmax8(x, v);
        const float d = max / dv;
        qx_0_codes(x, y, bits, d, d != 0.0f ? 1.0f / d : 0.0f);
    }
}

/* the first zero of the block, when a reduction's result is a zero */
static inline float zero_sign(const float *x, const __m256 *v, float r) {
    if (r != 0.0f) return r;
    const __m256 z = _mm256_setzero_ps();
    const uint32_t hit = mask32(_mm256_cmp_ps(v[0], z, _CMP_EQ_OQ), _mm256_cmp_ps(v[1], z, _CMP_EQ_OQ),
                                _mm256_cmp_ps(v[2], z, _CMP_EQ_OQ), _mm256_cmp_ps(v[3], z, _CMP_EQ_OQ));
    return x[__builtin_ctz(hit)];
}

/* Q4_1 (bits 4) and Q5_1 (bits 5): d = (max - min) / (2^b - 1), m = min,
 * code = (x - min)*id + 0.5 truncated (Q4_1 also capped at 15) */
void lgg__qx_1_avx2(const float *x, uint8_t *y, int64_t nb, int bits) {
    const size_t bs = bits == 4 ? 20 : 24;
    for (int64_t ib = 0; ib < nb; ib++, x += 32, y += bs) {
        __m256 v[4];
        __m256 mn = _mm256_set1_ps(FLT_MAX), mx = _mm256_set1_ps(-FLT_MAX);
        for (int k = 0; k < 4; k++) {
            v[k] = _mm256_loadu_ps(x + 8 * k);
            mn = _mm256_min_ps(v[k], mn); /* x < mn ? x : mn: a NaN x keeps mn */
            mx = _mm256_max_ps(v[k], mx);
        }
        const float fmn = zero_sign(x, v, hmin8(mn)), fmx = zero_sign(x, v, hmax8(mx));
        const float d = bits == 4 ? (fmx - fmn) / 15 : (fmx - fmn) / 31;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        put_f16c(y, d);
        put_f16c(y + 2, fmn);
        const __m256 vid = _mm256_set1_ps(id), vmn = _mm256_set1_ps(fmn), h = _mm256_set1_ps(0.5f);
        __m256i q[4];
        for (int k = 0; k < 4; k++) {
            const __m256i t = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(_mm256_sub_ps(v[k], vmn), vid), h));
            q[k] = low8(bits == 4 ? _mm256_min_epi32(sext8(t), _mm256_set1_epi32(15)) : t);
        }
        if (bits == 4) store16_nib(y + 4, q[0], q[1], q[2], q[3]);
        else store_q5(y + 4, y + 8, q[0], q[1], q[2], q[3]);
    }
}

/* f32 -> f16 with F16C (round to nearest even, subnormals and overflow to
 * Inf as IEEE says, which is what the scalar code computes); only NaN
 * differs: the scalar code makes every NaN 0x7E00 with the sign kept. */
void lgg__f32_to_f16_avx2(const float *x, uint8_t *y, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const __m256i nan = _mm256_castps_si256(_mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        if (!_mm256_testz_si256(nan, nan)) {
            const __m256i sgn = _mm256_srli_epi32(_mm256_and_si256(_mm256_castps_si256(v), _mm256_set1_epi32(INT32_MIN)), 16);
            const __m256i qn = _mm256_or_si256(sgn, _mm256_set1_epi32(0x7E00));
            const __m256i hv = _mm256_blendv_epi8(_mm256_cvtepu16_epi32(h), qn, nan);
            const __m256i p = _mm256_packus_epi32(hv, hv);
            h = _mm256_castsi256_si128(_mm256_permute4x64_epi64(p, 0x08));
        }
        _mm_storeu_si128((__m128i *)(void *)(y + 2 * i), h);
    }
    for (; i < n; i++) lgg__put16(y + 2 * i, lgg_f32_to_f16(x[i]));
}

/* f32 -> bf16: round to nearest even on the integer bits; NaN keeps its top
 * bits and is made quiet (| 0x40), as lgg_f32_to_bf16 */
void lgg__f32_to_bf16_avx2(const float *x, uint8_t *y, int64_t n) {
    int64_t i = 0;
    const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
    for (; i + 16 <= n; i += 16) {
        __m256i r[2];
        for (int k = 0; k < 2; k++) {
            const __m256i u = _mm256_loadu_si256((const __m256i *)(const void *)(x + i + 8 * k));
            const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, abs_mask), inf);
            const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
            const __m256i rn = _mm256_srli_epi32(_mm256_add_epi32(u, _mm256_add_epi32(odd, _mm256_set1_epi32(0x7fff))), 16);
            const __m256i qn = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(64));
            r[k] = _mm256_blendv_epi8(rn, qn, nan);
        }
        const __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi32(r[0], r[1]), 0xD8);
        _mm256_storeu_si256((__m256i *)(void *)(y + 2 * i), p);
    }
    for (; i < n; i++) lgg__put16(y + 2 * i, lgg_f32_to_bf16(x[i]));
}

/* ==== final codes from the stored scales ==== */

/* 16 int32 lanes (small non-negative values) to 16 bytes */
static inline void store16_u8(uint8_t *p, __m256i a, __m256i b) {
    const __m256i c = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_setzero_si256());
    const __m256i r = _mm256_permutevar8x32_epi32(c, _mm256_setr_epi32(0, 4, 1, 5, 0, 0, 0, 0));
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(r));
}

/* Q4_K/Q5_K: L[i] = clamp(nearest_int((x[i] + dm) / d), 0, nmax), 32 values */
void lgg__requant32_avx2(const float *x, float d, float dm, int nmax, uint8_t *L) {
    const __m256 vd = _mm256_set1_ps(d), vm = _mm256_set1_ps(dm);
    const __m256i lo = _mm256_setzero_si256(), hi = _mm256_set1_epi32(nmax);
    __m256i q[4];
    for (int k = 0; k < 4; k++) {
        const __m256 v = _mm256_div_ps(_mm256_add_ps(_mm256_loadu_ps(x + 8 * k), vm), vd);
        q[k] = _mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(v)));
    }
    store32_u8(L, q[0], q[1], q[2], q[3]);
}

/* Q6_K (nmax 32), Q3_K (nmax 4): L[i] = clamp(nearest_int(x[i] / d), -nmax,
 * nmax - 1) + nmax, 16 values */
void lgg__requant16_avx2(const float *x, float d, int nmax, int8_t *L) {
    const __m256 vd = _mm256_set1_ps(d);
    const __m256i lo = _mm256_set1_epi32(-nmax), hi = _mm256_set1_epi32(nmax - 1), off = _mm256_set1_epi32(nmax);
    __m256i q[2];
    for (int k = 0; k < 2; k++) {
        const __m256 v = _mm256_div_ps(_mm256_loadu_ps(x + 8 * k), vd);
        q[k] = _mm256_add_epi32(_mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(v))), off);
    }
    store16_u8((uint8_t *)L, q[0], q[1]);
}

/* Q6_K's 256 6-bit codes (0..63) into ql[128] (low nibbles) and qh[64]
 * (high 2 bits), in the layout lgg__qrow_q6_k_path draws: per half of 128,
 * ql[l] = L[l] | L[l+64] << 4, ql[l+32] = L[l+32] | L[l+96] << 4 and
 * qh[l] = L[l] >> 4 | L[l+32] >> 4 << 2 | L[l+64] >> 4 << 4 | L[l+96] >> 4 << 6.
 * Byte shifts are 16-bit shifts and a mask; no bit crosses a byte for codes
 * below 64. */
void lgg__q6_k_pack_avx2(const int8_t *L, uint8_t *ql, uint8_t *qh) {
    const __m256i m4 = _mm256_set1_epi8(0x0F), m2 = _mm256_set1_epi8(0x03);
    for (int j = 0; j < 256; j += 128, ql += 64, qh += 32) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(L + j));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(L + j + 32));
        const __m256i c = _mm256_loadu_si256((const __m256i *)(L + j + 64));
        const __m256i d = _mm256_loadu_si256((const __m256i *)(L + j + 96));
        const __m256i lo0 = _mm256_or_si256(_mm256_and_si256(a, m4), _mm256_slli_epi16(_mm256_and_si256(c, m4), 4));
        const __m256i lo1 = _mm256_or_si256(_mm256_and_si256(b, m4), _mm256_slli_epi16(_mm256_and_si256(d, m4), 4));
        const __m256i ha = _mm256_and_si256(_mm256_srli_epi16(a, 4), m2);
        const __m256i hb = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(b, 4), m2), 2);
        const __m256i hc = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(c, 4), m2), 4);
        const __m256i hd = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(d, 4), m2), 6);
        _mm256_storeu_si256((__m256i *)ql, lo0);
        _mm256_storeu_si256((__m256i *)(ql + 32), lo1);
        _mm256_storeu_si256((__m256i *)qh, _mm256_or_si256(_mm256_or_si256(ha, hb), _mm256_or_si256(hc, hd)));
    }
}

/* ==== IQ4_NL / IQ4_XS ==== */

/* the 16 levels as floats: broadcasts for the compares, two halves for lookups */
typedef struct iq4tab {
    __m256 v[16], t0, t1;
} iq4tab;

static inline void iq4_tab(iq4tab *t) {
    float f[16];
    for (int k = 0; k < 16; k++) {
        f[k] = (float)lgg__kvalues_iq4nl[k];
        t->v[k] = _mm256_set1_ps(f[k]);
    }
    t->t0 = _mm256_loadu_ps(f);
    t->t1 = _mm256_loadu_ps(f + 8);
}
static inline __m256 iq4_look(const iq4tab *t, __m256i idx) {
    const __m256 a = _mm256_permutevar8x32_ps(t->t0, idx), b = _mm256_permutevar8x32_ps(t->t1, idx);
    return sel(a, b, _mm256_castsi256_ps(_mm256_cmpgt_epi32(idx, _mm256_set1_epi32(7))));
}

/* lgg__best_index_i8(16, levels, x) per lane, and the level it picks: below
 * or at the first level 0, at or above the last (or NaN, which fails every
 * test of the binary search) 15; otherwise lo = the last level <= x (what
 * the binary search finds; the levels increase strictly), then the nearer of
 * lo and lo+1 by the same float differences, ties to the upper. */
static inline __m256i iq4_best(const iq4tab *t, __m256 x, __m256 *q) {
    __m256i cnt = _mm256_setzero_si256();
    for (int k = 1; k < 15; k++) cnt = _mm256_sub_epi32(cnt, _mm256_castps_si256(_mm256_cmp_ps(x, t->v[k], _CMP_GE_OQ)));
    const __m256i hi = _mm256_add_epi32(cnt, _mm256_set1_epi32(1));
    const __m256 vlo = iq4_look(t, cnt), vhi = iq4_look(t, hi);
    const __m256 take_lo = _mm256_cmp_ps(_mm256_sub_ps(x, vlo), _mm256_sub_ps(vhi, x), _CMP_LT_OQ);
    __m256i idx = _mm256_blendv_epi8(hi, cnt, _mm256_castps_si256(take_lo));
    __m256 v = sel(vhi, vlo, take_lo);
    const __m256 first = _mm256_cmp_ps(x, t->v[0], _CMP_LE_OQ);
    const __m256 last = _mm256_or_ps(_mm256_cmp_ps(x, t->v[15], _CMP_GE_OQ), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    idx = _mm256_blendv_epi8(idx, _mm256_setzero_si256(), _mm256_castps_si256(first));
    v = sel(v, t->v[0], first);
    idx = _mm256_blendv_epi8(idx, _mm256_set1_epi32(15), _mm256_castps_si256(last));
    *q = sel(v, t->v[15], last);
    return idx;
}

/* iq4_block_scale (quant_misc.c) on 8 consecutive blocks of 32, one per lane */
void lgg__iq4_scales_x8_avx2(const float *x, const float *w, float *scales) {
    iq4tab t;
    iq4_tab(&t);
    __m256 xt[32], wt[32];
    const __m256i vidx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(32));
    const __m256 zero = _mm256_setzero_ps(), sign = _mm256_set1_ps(-0.0f);
    __m256 amax = zero, max = zero;
    for (int j = 0; j < 32; j++) {
        xt[j] = _mm256_i32gather_ps(x + j, vidx, 4);
        wt[j] = w ? _mm256_i32gather_ps(w + j, vidx, 4) : _mm256_mul_ps(xt[j], xt[j]);
        const __m256 a = _mm256_andnot_ps(sign, xt[j]);
        const __m256 gt = _mm256_cmp_ps(a, amax, _CMP_GT_OQ);
        amax = sel(amax, a, gt);
        max = sel(max, xt[j], gt);
    }
    const __m256 tiny = _mm256_cmp_ps(amax, _mm256_set1_ps(1e-15f), _CMP_LT_OQ);
    __m256 d = _mm256_div_ps(_mm256_xor_ps(max, sign), t.v[0]);
    __m256 id = _mm256_div_ps(_mm256_set1_ps(1.0f), d);
    __m256 sumqx = zero, sumq2 = zero;
    for (int j = 0; j < 32; j++) {
        __m256 q;
        (void)iq4_best(&t, _mm256_mul_ps(id, xt[j]), &q);
        const __m256 wq = _mm256_mul_ps(wt[j], q);
        sumqx = _mm256_add_ps(sumqx, _mm256_mul_ps(wq, xt[j]));
        sumq2 = _mm256_add_ps(sumq2, _mm256_mul_ps(wq, q));
    }
    d = sel(zero, _mm256_div_ps(sumqx, sumq2), _mm256_cmp_ps(sumq2, zero, _CMP_GT_OQ));
    __m256 best = _mm256_mul_ps(d, sumqx);
    for (int tr = -7; tr <= 7; tr++) {
        id = _mm256_div_ps(_mm256_set1_ps((float)(tr + lgg__kvalues_iq4nl[0])), max);
        sumqx = sumq2 = zero;
        for (int j = 0; j < 32; j++) {
            __m256 q;
            (void)iq4_best(&t, _mm256_mul_ps(id, xt[j]), &q);
            const __m256 wq = _mm256_mul_ps(wt[j], q);
            sumqx = _mm256_add_ps(sumqx, _mm256_mul_ps(wq, xt[j]));
            sumq2 = _mm256_add_ps(sumq2, _mm256_mul_ps(wq, q));
        }
        const __m256 upd = _mm256_and_ps(_mm256_cmp_ps(sumq2, zero, _CMP_GT_OQ),
                                         _mm256_cmp_ps(_mm256_mul_ps(sumqx, sumqx), _mm256_mul_ps(best, sumq2), _CMP_GT_OQ));
        d = sel(d, _mm256_div_ps(sumqx, sumq2), upd);
        best = sel(best, _mm256_mul_ps(d, sumqx), upd);
    }
    _mm256_storeu_ps(scales, sel(d, zero, tiny));
}

void lgg__iq4_codes_avx2(const float *x, float id, uint8_t *q4) {
    iq4tab t;
    iq4_tab(&t);
    const __m256 vid = _mm256_set1_ps(id);
    __m256i l[4];
    for (int k = 0; k < 4; k++) {
        __m256 q;
        l[k] = iq4_best(&t, _mm256_mul_ps(vid, _mm256_loadu_ps(x + 8 * k)), &q);
    }
    store16_nib(q4, l[0], l[1], l[2], l[3]);
}

/* ==== Q3_K reference search ==== */

/* make_q3_quants(16, 4, x, L, true) (quant_kquants.c) on 8 sub-blocks of 16
 * in lanes.  The refinement passes run until no lane changes: a lane whose
 * scalar loop would have stopped (a pass without change) repeats a pass that
 * again changes nothing, since it starts from the same state. */
void lgg__q3_x8_avx2(const float *x, int8_t *L, float *scales) {
    enum { N = 16, NMAX = 4 };
    __m256 xt[N], wt[N], wx[N], Lf[N];
    const __m256i vidx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(N));
    const __m256 zero = _mm256_setzero_ps(), sign = _mm256_set1_ps(-0.0f);
    const __m256i lo = _mm256_set1_epi32(-NMAX), hi = _mm256_set1_epi32(NMAX - 1);
    __m256 amax = zero, max = zero;
    for (int i = 0; i < N; i++) {
        xt[i] = _mm256_i32gather_ps(x + i, vidx, 4);
        wt[i] = _mm256_mul_ps(xt[i], xt[i]);
        wx[i] = _mm256_mul_ps(wt[i], xt[i]);
        const __m256 a = _mm256_andnot_ps(sign, xt[i]);
        const __m256 gt = _mm256_cmp_ps(a, amax, _CMP_GT_OQ);
        amax = sel(amax, a, gt);
        max = sel(max, xt[i], gt);
    }
    const __m256 tiny = _mm256_cmp_ps(amax, _mm256_set1_ps(1e-15f), _CMP_LT_OQ);
    const __m256 iscale = _mm256_div_ps(_mm256_set1_ps((float)-NMAX), max);
    __m256 sumlx = zero, suml2 = zero;
    for (int i = 0; i < N; i++) {
        Lf[i] = _mm256_cvtepi32_ps(_mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(_mm256_mul_ps(iscale, xt[i])))));
        sumlx = _mm256_add_ps(sumlx, _mm256_mul_ps(wx[i], Lf[i]));
        suml2 = _mm256_add_ps(suml2, _mm256_mul_ps(_mm256_mul_ps(wt[i], Lf[i]), Lf[i]));
    }
    for (int pass = 0; pass < 5; pass++) {
        __m256 changed = zero;
        for (int i = 0; i < N; i++) {
            __m256 slx = _mm256_sub_ps(sumlx, _mm256_mul_ps(wx[i], Lf[i]));
            const __m256 pos = _mm256_cmp_ps(slx, zero, _CMP_GT_OQ);
            if (_mm256_movemask_ps(pos) == 0) continue;
            __m256 sl2 = _mm256_sub_ps(suml2, _mm256_mul_ps(_mm256_mul_ps(wt[i], Lf[i]), Lf[i]));
            const __m256i nl =
                _mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(_mm256_div_ps(_mm256_mul_ps(xt[i], sl2), slx))));
            const __m256 nlf = _mm256_cvtepi32_ps(nl);
            const __m256 diff = _mm256_and_ps(pos, _mm256_cmp_ps(nlf, Lf[i], _CMP_NEQ_OQ));
            if (_mm256_movemask_ps(diff) == 0) continue;
            slx = _mm256_add_ps(slx, _mm256_mul_ps(wx[i], nlf));
            sl2 = _mm256_add_ps(sl2, _mm256_mul_ps(_mm256_mul_ps(wt[i], nlf), nlf));
            const __m256 better = _mm256_cmp_ps(_mm256_mul_ps(_mm256_mul_ps(slx, slx), suml2),
                                                _mm256_mul_ps(_mm256_mul_ps(sumlx, sumlx), sl2), _CMP_GT_OQ);
            const __m256 take = _mm256_and_ps(diff, _mm256_and_ps(_mm256_cmp_ps(sl2, zero, _CMP_GT_OQ), better));
            Lf[i] = sel(Lf[i], nlf, take);
            sumlx = sel(sumlx, slx, take);
            suml2 = sel(suml2, sl2, take);
            changed = _mm256_or_ps(changed, take);
        }
        if (_mm256_movemask_ps(changed) == 0) break;
    }
    const __m256 scale = sel(zero, _mm256_div_ps(sumlx, suml2), _mm256_cmp_ps(suml2, zero, _CMP_GT_OQ));
    _mm256_storeu_ps(scales, sel(scale, zero, tiny));
    int32_t lv[N][8];
    const __m256i tinyi = _mm256_castps_si256(tiny), off = _mm256_set1_epi32(NMAX);
    for (int i = 0; i < N; i++)
        _mm256_storeu_si256((__m256i *)lv[i], _mm256_andnot_si256(tinyi, _mm256_add_epi32(_mm256_cvttps_epi32(Lf[i]), off)));
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < N; i++) L[j * N + i] = (int8_t)lv[i][j];
}

/* ==== FP4 codes (MXFP4, NVFP4) ==== */

/* The scalar fp4_index (quant_misc.c, ggml's best_index_mxfp4) scans the 16
 * levels L_i = kvalues_fp4[i] * d in table order and keeps the first i with
 * the least err_i = |L_i - x|; nothing beats a NaN start, so a NaN x gets 0.
 * The same code with fewer operations, per lane:
 *
 *  - Levels of the other sign never win: for x >= 0 and a negative level,
 *    err = round(k d + x) >= x = err_0 (rounding is monotonic), so level 0,
 *    first in the table, stays ahead; likewise for x < 0.  Level 8 (a second
 *    0) ties with level 0 and never wins.  For x < 0, levels 9..15 give
 *    exactly the errors levels 1..7 give for |x| (negation is exact), in the
 *    same order after level 0.  So code(x) = c(|x|) over levels 0..7, plus 8
 *    when x < 0 and c != 0.
 *  - Levels 0..7 ascend (0 1 2 3 4 6 8 12 times d >= 0), so for a = |x| the
 *    rounded errors do not increase up to the level nearest a and do not
 *    decrease after it.  The scan's minimum so far is then always the
 *    previous error in the first stretch and nothing in the second beats it:
 *    c = the largest k with err_k < err_{k-1}, or 0.  A NaN a (all errors
 *    NaN) and an infinite one (all infinite) give 0, as the scan does.
 *
 * Byte j of q gets the codes of values j and j + n/2. */
static inline __attribute__((always_inline)) void fp4_codes_n(const float *x, const int nv, float d, uint8_t *q) {
    const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
    __m256 lv[8];
    for (int k = 0; k < 8; k++) lv[k] = _mm256_set1_ps((float)lgg__kvalues_fp4[k] * d);
    __m256i code[4];
    for (int v = 0; v < nv; v++) { /* nv: 2 or 4 vectors of 8 values */
        const __m256 xv = _mm256_loadu_ps(x + 8 * v), a = _mm256_andnot_ps(sign, xv);
        __m256 prev = _mm256_andnot_ps(sign, _mm256_sub_ps(lv[0], a));
        __m256i c[7];
        for (int k = 1; k < 8; k++) {
            const __m256 err = _mm256_andnot_ps(sign, _mm256_sub_ps(lv[k], a));
            c[k - 1] = _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(err, prev, _CMP_LT_OQ)), _mm256_set1_epi32(k));
            prev = err;
        }
        const __m256i m = _mm256_max_epi32(_mm256_max_epi32(_mm256_max_epi32(c[0], c[1]), _mm256_max_epi32(c[2], c[3])),
                                           _mm256_max_epi32(_mm256_max_epi32(c[4], c[5]), c[6]));
        const __m256i neg = _mm256_castps_si256(_mm256_cmp_ps(xv, zero, _CMP_LT_OQ));
        const __m256i add8 = _mm256_and_si256(_mm256_and_si256(neg, _mm256_cmpgt_epi32(m, _mm256_setzero_si256())),
                                              _mm256_set1_epi32(8));
        code[v] = _mm256_or_si256(m, add8);
    }
    const int h = nv / 2; /* low nibbles from the first half, high from the second */
    for (int k = 0; k < h; k++) {
        const __m256i b = _mm256_or_si256(code[k], _mm256_slli_epi32(code[k + h], 4));
        const __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
        _mm_storel_epi64((__m128i *)(q + 8 * k), _mm_packus_epi16(w, w));
    }
}

/* The largest |x| of n (a multiple of 8) values, NaNs skipped, +0 when
 * there are none: the scalar `if (amax < fabsf(v)) amax = fabsf(v)` loop
 * (max is exact, so the order does not matter; maxps returns its second
 * operand, 0, for a NaN lane). */
float lgg__absmax_avx2(const float *x, int n) {
    const __m256 zero = _mm256_setzero_ps();
    __m256 m = zero;
    for (int k = 0; k < n; k += 8) m = _mm256_max_ps(m, _mm256_max_ps(abs8(_mm256_loadu_ps(x + k)), zero));
    return hmax8(m);
}

/* The codes of an MXFP4 block's 32 values x at level scale d (MXFP4's
 * half scale) when every |x| is below 16 d or below d / 2 (a block whose
 * largest |x| is finite): c(|x|) is the count of the midpoints
 * M = (0.5 1.5 2.5 3.5 5 7 10) d it exceeds.  fp4_codes_n's rule (the
 * largest k with err_k < err_{k-1}) is that count computed exactly: the
 * levels and midpoints are exact (a few bits times a power of two, finite
 * for an E8M0 up to 252; above it, where log2f rounds a largest |x| near
 * 2^128 up or the exponent wraps, 8 d or 12 d overflow and the scan's
 * errors are infinite: fp4_codes_n); near a midpoint both errors
 * are exact (Sterbenz: each level is within a factor 2 of |x| there, or
 * |x| < d / 2 < d - |x| for the first), so they compare as the exact
 * ones, a tie at M included (no k); |x| above a level gives |x| - L
 * exactly (L is a multiple of ulp(|x|) when |x| < 16 d), below both levels
 * the exact errors differ by at least d, far beyond their rounding.  NaN
 * exceeds nothing: code 0, as the scan gives.  An infinite |x| (a block
 * holding one) takes fp4_codes_n too. */
static inline __attribute__((always_inline)) void fp4_codes_mid32(const float *x, float d, uint8_t *q) {
    const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
    const __m256 m0 = _mm256_set1_ps(0.5f * d), m1 = _mm256_set1_ps(1.5f * d), m2 = _mm256_set1_ps(2.5f * d),
                 m3 = _mm256_set1_ps(3.5f * d), m4 = _mm256_set1_ps(5.0f * d), m5 = _mm256_set1_ps(7.0f * d),
                 m6 = _mm256_set1_ps(10.0f * d);
    __m256i code[4];
#define GT(m) _mm256_castps_si256(_mm256_cmp_ps(a, (m), _CMP_GT_OQ)) /* -1 where |x| > m */
    for (int v = 0; v < 4; v++) {
        const __m256 xv = _mm256_loadu_ps(x + 8 * v), a = _mm256_andnot_ps(sign, xv);
        const __m256i s01 = _mm256_add_epi32(GT(m0), GT(m1)), s23 = _mm256_add_epi32(GT(m2), GT(m3)),
                      s45 = _mm256_add_epi32(GT(m4), GT(m5));
        const __m256i c = _mm256_sub_epi32(_mm256_setzero_si256(),
                                           _mm256_add_epi32(_mm256_add_epi32(s01, s23), _mm256_add_epi32(s45, GT(m6))));
        const __m256i neg = _mm256_castps_si256(_mm256_cmp_ps(xv, zero, _CMP_LT_OQ));
        const __m256i add8 = _mm256_and_si256(_mm256_and_si256(neg, _mm256_cmpgt_epi32(c, _mm256_setzero_si256())),
                                              _mm256_set1_epi32(8));
        code[v] = _mm256_or_si256(c, add8);
    }
#undef GT
    for (int k = 0; k < 2; k++) { /* low nibbles from values 0..15, high from 16..31 */
        const __m256i b = _mm256_or_si256(code[k], _mm256_slli_epi32(code[k + 2], 4));
        const __m128i w = _mm_packus_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
        _mm_storel_epi64((__m128i *)(q + 8 * k), _mm_packus_epi16(w, w));
    }
}

/* One MXFP4 block whose largest |x| is amax, by itself: its E8M0 exponent,
 * then the codes at half its scale (the midpoint count, or the scan where
 * the levels overflow or a value is infinite). */
static void mxfp4_block(const float *xb, uint8_t *b, float amax) {
    const uint8_t e = lgg__mxfp4_e8m0(amax);
    b[0] = e;
    if (amax <= FLT_MAX && e <= 252) fp4_codes_mid32(xb, lgg__e8m0_half(e), b + 1);
    else fp4_codes_n(xb, 4, lgg__e8m0_half(e), b + 1);
}

/* fp4_codes_mid32 with |x| scaled by 1/d = 2^(128-e) instead of the
 * midpoints by d: the product of a float and a power of two is exact when
 * it does not overflow (|x| < 16 d here) or land in the subnormals (then
 * both it and |x| / d are below the first midpoint), so |x| > M d exactly
 * when |x| / d > M, and the midpoints are constants.  inv_d normal: e from
 * 1 to 252. */
static inline __attribute__((always_inline)) void fp4_codes_scaled32(const float *x, __m256 inv_d, uint8_t *q) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256i code[4];
#define GT(m) _mm256_castps_si256(_mm256_cmp_ps(s, _mm256_set1_ps(m), _CMP_GT_OQ)) /* -1 where |x|/d > m */
    for (int v = 0; v < 4; v++) {
        const __m256 xv = _mm256_loadu_ps(x + 8 * v), s = _mm256_mul_ps(_mm256_andnot_ps(sign, xv), inv_d);
        const __m256i g0 = GT(0.5f);
        const __m256i s01 = _mm256_add_epi32(g0, GT(1.5f)), s23 = _mm256_add_epi32(GT(2.5f), GT(3.5f)),
                      s45 = _mm256_add_epi32(GT(5.0f), GT(7.0f));
        const __m256i c = _mm256_sub_epi32(_mm256_setzero_si256(),
                                           _mm256_add_epi32(_mm256_add_epi32(s01, s23), _mm256_add_epi32(s45, GT(10.0f))));
        /* 8 for a negative x whose code is not 0 (|x| above the first midpoint) */
        const __m256i neg = _mm256_and_si256(_mm256_srai_epi32(_mm256_castps_si256(xv), 31), g0);
        code[v] = _mm256_or_si256(c, _mm256_and_si256(neg, _mm256_set1_epi32(8)));
    }
#undef GT
    /* low nibbles from values 0..15, high from 16..31: bytes 0..3 and 4..7
     * of both halves come out of the packs in lanes 0, 4, 1, 5 */
    const __m256i b0 = _mm256_or_si256(code[0], _mm256_slli_epi32(code[2], 4)),
                  b1 = _mm256_or_si256(code[1], _mm256_slli_epi32(code[3], 4));
    const __m256i w = _mm256_packus_epi32(b0, b1), p = _mm256_packus_epi16(w, w);
    const __m256i o = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 0, 4, 1, 5));
    _mm_storeu_si128((__m128i *)q, _mm256_castsi256_si128(o));
}

/* MXFP4 (quant_misc.c's scalar loop, one call per row).  Eight blocks at a
 * time: their largest |x| gathered into one vector, whose E8M0 exponents
 * are the exponent fields less 2 where lgg__mxfp4_e8m0 takes its fast path
 * (exponent field 3 to 254, mantissa below 0x7fe000: the E8M0 is then 1 to
 * 252); each such block's codes at 1/d from the same vector, the others
 * block by block.  Gathering first keeps the exponent's scalar chain out
 * of the way of the codes. */
void lgg__qrow_mxfp4_avx2(const float *x, uint8_t *y, int64_t n) {
    const int64_t nb = n / 32;
    int64_t ib = 0;
    for (; ib + 8 <= nb; ib += 8, x += 256, y += 8 * 17) {
        const __m256 sign = _mm256_set1_ps(-0.0f);
        __m256 m[8];
        for (int b = 0; b < 8; b++) {
            __m256 acc = _mm256_setzero_ps();
            for (int v = 0; v < 4; v++) acc = _mm256_max_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(x + 32 * b + 8 * v)), acc);
            m[b] = acc; /* a NaN lane keeps acc */
        }
        const __m256 amax = hred8x8(m, true);
        const __m256i bits = _mm256_castps_si256(amax), ex = _mm256_srli_epi32(bits, 23);
        const __m256i fast = _mm256_and_si256(
            _mm256_and_si256(_mm256_cmpgt_epi32(ex, _mm256_set1_epi32(2)), _mm256_cmpgt_epi32(_mm256_set1_epi32(255), ex)),
            _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7fe000), _mm256_and_si256(bits, _mm256_set1_epi32(0x7fffff))));
        const int fm = _mm256_movemask_ps(_mm256_castsi256_ps(fast));
        /* e = ex - 2; 1/d = 2^(128 - e): exponent field 255 - e = 257 - ex */
        const __m256i inv_bits = _mm256_slli_epi32(_mm256_sub_epi32(_mm256_set1_epi32(257), ex), 23);
        float af[8], inv[8];
        int32_t exf[8];
        _mm256_storeu_ps(af, amax);
        _mm256_storeu_ps(inv, _mm256_castsi256_ps(inv_bits));
        _mm256_storeu_si256((__m256i *)exf, ex);
        for (int b = 0; b < 8; b++) {
            uint8_t *yb = y + 17 * b;
            if (fm >> b & 1) {
                yb[0] = (uint8_t)(exf[b] - 2);
                fp4_codes_scaled32(x + 32 * b, _mm256_set1_ps(inv[b]), yb + 1);
            } else {
                mxfp4_block(x + 32 * b, yb, af[b]);
            }
        }
    }
    for (; ib < nb; ib++, x += 32, y += 17) mxfp4_block(x, y, lgg__absmax_avx2(x, 32));
}

void lgg__fp4_codes_avx2(const float *x, int n, float d, uint8_t *q) {
    if (n == 32) fp4_codes_n(x, 4, d, q);
    else fp4_codes_n(x, 2, d, q);
}

#endif
