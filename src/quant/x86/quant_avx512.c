/* quant_avx512.c -- AVX-512 kernels for the quantizers (built with -mavx512f
 * -mavx512bw -mavx512vl -mavx2 -mf16c -mno-fma; called only when the CPU has
 * them all, lgg__cpu_avx512, and only through the row quantizers' simd path,
 * whose scalar code stays the reference: the tests compare the two byte for
 * byte).
 *
 * The scale searches as quant_avx2.c runs them (its qk2_* and qx1_* steps,
 * mirrored one for one) but on 16 sub-blocks per vector: make_qkx2_quants
 * (Q4_K/Q5_K/Q2_K; 32 sub-blocks in two vectors), make_qkx3_quants (their
 * imatrix search) and make_qx_quants with rmse_type 1 (Q6_K, Q3_K).  Each
 * lane performs the scalar code's IEEE operations in the scalar code's order
 * (add, mul, div, sqrt, compare; no FMA, no reassociation, no approximate
 * reciprocal), the scalar branches becoming per-lane selects under mask
 * registers.  On a CPU where 512-bit operations issue on two ports and
 * 256-bit ones on three, the gain over AVX2 is about 1.4x (the searches are
 * bound by floating-point throughput). */
#include "quant/quant_internal.h"

#if defined(__AVX512F__) && defined(__AVX512BW__)

#include <immintrin.h>

static inline __m512 sel16(__m512 a, __m512 b, __mmask16 take_b) { return _mm512_mask_blend_ps(take_b, a, b); }
static inline __m512 abs16(__m512 v) { return _mm512_abs_ps(v); }

/* Levels clamp(nearest_int(v), lo, hi) as floats: vrndscaleps when every
 * lane's |v| < 2^21 (`fast`, the same argument as level8 in quant_avx2.c:
 * there the 1.5*2^23 sum rounds to nearest, ties to even, exactly as the
 * instruction does), else the bits of v + 1.5*2^23 read as the scalar code
 * reads them, exact for any input */
static inline __m512 level16(__m512 v, bool fast, int lo, int hi) {
    if (fast) {
        const __m512 r = _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        return _mm512_min_ps(_mm512_max_ps(r, _mm512_set1_ps((float)lo)), _mm512_set1_ps((float)hi));
    }
    const __m512i t = _mm512_castps_si512(_mm512_add_ps(v, _mm512_set1_ps(12582912.f)));
    const __m512i l = _mm512_sub_epi32(_mm512_and_si512(t, _mm512_set1_epi32(0x007fffff)), _mm512_set1_epi32(0x00400000));
    return _mm512_cvtepi32_ps(_mm512_min_epi32(_mm512_set1_epi32(hi), _mm512_max_epi32(_mm512_set1_epi32(lo), l)));
}

/* xt[i] lane j = p[j][i] for i < n (16 or 32): 16 rows transposed into
 * lanes by 16x16 transposes (unpacks, in-lane shuffles, 128-bit shuffles) */
static inline __attribute__((always_inline)) void load_t16(const int n, const float *const p[16], __m512 *xt) {
    for (int i0 = 0; i0 < n; i0 += 16) {
        __m512 r[16], t[16], u[16];
        for (int j = 0; j < 16; j++) r[j] = _mm512_loadu_ps(p[j] + i0);
        for (int k = 0; k < 16; k += 2) {
            t[k] = _mm512_unpacklo_ps(r[k], r[k + 1]);
            t[k + 1] = _mm512_unpackhi_ps(r[k], r[k + 1]);
        }
        /* u[4k+c], 128-bit lane q: rows 4k..4k+3 of column 4q+c */
        for (int k = 0; k < 16; k += 4) {
            u[k] = _mm512_shuffle_ps(t[k], t[k + 2], 0x44);
            u[k + 1] = _mm512_shuffle_ps(t[k], t[k + 2], 0xEE);
            u[k + 2] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0x44);
            u[k + 3] = _mm512_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
        }
        for (int c = 0; c < 4; c++) {
            const __m512 a1 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0x88), a2 = _mm512_shuffle_f32x4(u[c], u[4 + c], 0xDD);
            const __m512 b1 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0x88);
            const __m512 b2 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], 0xDD);
            xt[i0 + c] = _mm512_shuffle_f32x4(a1, b1, 0x88);
            xt[i0 + 4 + c] = _mm512_shuffle_f32x4(a2, b2, 0x88);
            xt[i0 + 8 + c] = _mm512_shuffle_f32x4(a1, b1, 0xDD);
            xt[i0 + 12 + c] = _mm512_shuffle_f32x4(a2, b2, 0xDD);
        }
    }
}

/* Levels Lv[i] lane j (whole numbers in 0..255), to bytes p[j][i], i < n (a
 * multiple of 4); lanes in `zero` get 0.  Four consecutive i are packed into
 * one vector whose 32-bit word j is p[j][i .. i+3] (the packs work within
 * 128-bit lanes, so an in-lane 4x4 byte transpose puts each lane's bytes
 * together), so a row is written a word at a time. */
static inline void levels_out16(const int n, const __m512 *Lv, __mmask16 zero, uint8_t *const p[16]) {
    const __m512i tr = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    uint32_t dw[8][16];
    for (int k = 0; k < n / 4; k++) {
        __m512i q[4];
        for (int t = 0; t < 4; t++) q[t] = _mm512_maskz_cvttps_epi32((__mmask16)~zero, Lv[4 * k + t]);
        const __m512i pk = _mm512_packus_epi16(_mm512_packus_epi32(q[0], q[1]), _mm512_packus_epi32(q[2], q[3]));
        _mm512_storeu_si512(dw[k], _mm512_shuffle_epi8(pk, tr));
    }
    for (int j = 0; j < 16; j++)
        for (int k = 0; k < n / 4; k++) memcpy(p[j] + 4 * k, &dw[k][j], 4);
}

/* two halves of a vector to two places */
static inline void store_halves(float *lo, float *hi, __m512 v) {
    _mm256_storeu_ps(lo, _mm512_castps512_ps256(v));
    _mm256_storeu_ps(hi, _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
}

/* One group of 16 sub-blocks of make_qkx2_quants (lgg__make_qkx3_quants in
 * qsearch.c), as qk2_group in quant_avx2.c: lane j's best levels are not
 * copied when they change; the iscale and min that produced them are kept and
 * the levels recomputed once at the end (the same operations on the same
 * operands). */
typedef struct qk5_group {
    __m512 xt[32], wt[32], La[32];
    __m512 mn, mx, sw, sx, xmin, bound, scale, best, b_iscale, b_mn;
    __mmask16 nan, flat;
} qk5_group;

/* the larger magnitude of x - min's two bounds, xmin - min and max - min
 * (rounding is monotonic); a lane with a NaN takes the exact path throughout */
static inline void qk5_bound(qk5_group *g) {
    g->bound = sel16(_mm512_max_ps(abs16(_mm512_sub_ps(g->mx, g->mn)), abs16(_mm512_sub_ps(g->xmin, g->mn))),
                     _mm512_set1_ps(INFINITY), g->nan);
}

/* every lane may take level16's fast path at this iscale */
static inline bool qk5_fast(const qk5_group *g, __m512 iscale) {
    const __mmask16 ok =
        _mm512_cmp_ps_mask(_mm512_mul_ps(abs16(iscale), g->bound), _mm512_set1_ps(2097152.f), _CMP_LT_OQ);
    return (__mmask16)(ok | g->flat) == 0xFFFF;
}

/* every lane in the search has min <= each of its x */
static inline bool qk5_above_min(const qk5_group *g) {
    return (__mmask16)(_mm512_cmp_ps_mask(g->mn, g->xmin, _CMP_LE_OQ) | g->flat) == 0xFFFF;
}

static inline __attribute__((always_inline)) void qk5_setup(qk5_group *g, const int n, int nmax,
                                                           const float *const p[16], const int wmode,
                                                           const float *const pw[16], const bool use_mad) {
    const __m512 zero = _mm512_setzero_ps();
    __m512 *xt = g->xt, *wt = g->wt;
    load_t16(n, p, xt);
    /* the weights, as ref_weights in quant_kquants.c forms them */
    __m512 av = zero;
    if (wmode == LGG__QW_AVABS) {
        __m512 s2 = zero;
        for (int i = 0; i < n; i++) s2 = _mm512_add_ps(s2, _mm512_mul_ps(xt[i], xt[i]));
        av = _mm512_sqrt_ps(_mm512_div_ps(s2, _mm512_set1_ps((float)n)));
    }
    if (wmode == LGG__QW_GIVEN) load_t16(n, pw, wt);
    else
        for (int i = 0; i < n; i++) wt[i] = wmode == LGG__QW_AVABS ? _mm512_add_ps(av, abs16(xt[i])) : abs16(xt[i]);
    __m512 mn = xt[0], mx = xt[0], sw = wt[0], sx = _mm512_mul_ps(wt[0], xt[0]);
    __mmask16 nan = 0;
    for (int i = 1; i < n; i++) {
        mn = _mm512_min_ps(xt[i], mn); /* x < min ? x : min */
        mx = _mm512_max_ps(xt[i], mx); /* x > max ? x : max */
        sw = _mm512_add_ps(sw, wt[i]);
        sx = _mm512_add_ps(sx, _mm512_mul_ps(wt[i], xt[i]));
    }
    for (int i = 0; i < n; i++) nan |= _mm512_cmp_ps_mask(xt[i], xt[i], _CMP_UNORD_Q);
    g->xmin = mn;
    mn = sel16(mn, zero, _mm512_cmp_ps_mask(mn, zero, _CMP_GT_OQ));
    g->mn = mn, g->mx = mx, g->sw = sw, g->sx = sx, g->nan = nan;
    /* a flat sub-block (max <= min) gets no search */
    g->flat = _mm512_cmp_ps_mask(mx, mn, _CMP_LE_OQ);
    qk5_bound(g);
    const __m512 iscale = _mm512_div_ps(_mm512_set1_ps((float)nmax), _mm512_sub_ps(mx, mn));
    const __m512 scale = _mm512_div_ps(_mm512_set1_ps(1.0f), iscale);
    __m512 best = zero;
#define QK5_INIT(fast)                                                                                                 \
    for (int i = 0; i < n; i++) {                                                                                      \
        const __m512 l = level16(_mm512_mul_ps(iscale, _mm512_sub_ps(xt[i], mn)), fast, 0, nmax);                      \
        __m512 diff = _mm512_sub_ps(_mm512_add_ps(_mm512_mul_ps(scale, l), mn), xt[i]);                                \
        diff = use_mad ? abs16(diff) : _mm512_mul_ps(diff, diff);                                                      \
        best = _mm512_add_ps(best, _mm512_mul_ps(wt[i], diff));                                                        \
    }
    if (qk5_fast(g, iscale)) QK5_INIT(true) else QK5_INIT(false)
#undef QK5_INIT
    g->scale = scale, g->best = best, g->b_iscale = iscale, g->b_mn = mn;
}

/* A candidate's levels in [0, nmax] on level16's fast path, each clamp
 * left out where no lane can need it (the lanes outside the search, flat
 * ones, may get anything: their sums are never used):
 *  - lo: without it, every lane has min <= its smallest x, so x - min >= 0
 *    (rounding is monotonic) and, iscale being positive, so is v;
 *  - hi: without it, the numerator of iscale is at most nmax + 1/4, and as x
 *    - min <= max - min =: d, v <= fl(fl(num / d) * d) <= num (1 + 2^-24)^2
 *    < nmax + 1/2, which rounds to nmax at most. */
static inline __m512 level16_fast(__m512 v, bool lo, bool hi, int nmax) {
    __m512 r = _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    if (lo) r = _mm512_max_ps(r, _mm512_setzero_ps());
    if (hi) r = _mm512_min_ps(r, _mm512_set1_ps((float)nmax));
    return r;
}

/* one candidate's level of element i, and its terms of the three sums (the
 * scalar code's w*l, (w*l)*l, (w*l)*x); fast 0 takes the exact slow path, 1
 * the fast one with both clamps, 2 without the lower, 3 without the upper, 4
 * without either */
static inline __attribute__((always_inline)) void qk5_lsum(qk5_group *g, int i, __m512 iscale, int fast, int nmax,
                                                          __m512 *sl, __m512 *sl2, __m512 *sxl) {
    const __m512 v = _mm512_mul_ps(iscale, _mm512_sub_ps(g->xt[i], g->mn));
    const __m512 l = fast ? level16_fast(v, fast == 1 || fast == 3, fast == 1 || fast == 2, nmax)
                          : level16(v, false, 0, nmax);
    g->La[i] = l;
    const __m512 wl = _mm512_mul_ps(g->wt[i], l);
    *sl = _mm512_add_ps(*sl, wl);
    *sl2 = _mm512_add_ps(*sl2, _mm512_mul_ps(wl, l));
    *sxl = _mm512_add_ps(*sxl, _mm512_mul_ps(wl, g->xt[i]));
}

/* the candidate's scale ts and min tm from its sums; the lanes returned have
 * D > 0 (the others keep their best) */
static inline __mmask16 qk5_fit(const qk5_group *g, __m512 sl, __m512 sl2, __m512 sxl, __m512 *ts, __m512 *tm) {
    const __m512 zero = _mm512_setzero_ps();
    const __m512 D = _mm512_sub_ps(_mm512_mul_ps(g->sw, sl2), _mm512_mul_ps(sl, sl));
    const __mmask16 dpos = (__mmask16)(~g->flat & _mm512_cmp_ps_mask(D, zero, _CMP_GT_OQ));
    const __m512 s = _mm512_div_ps(_mm512_sub_ps(_mm512_mul_ps(g->sw, sxl), _mm512_mul_ps(g->sx, sl)), D);
    const __m512 m = _mm512_div_ps(_mm512_sub_ps(_mm512_mul_ps(sl2, g->sx), _mm512_mul_ps(sl, sxl)), D);
    const __mmask16 mpos = _mm512_cmp_ps_mask(m, zero, _CMP_GT_OQ);
    *tm = sel16(m, zero, mpos);
    *ts = sel16(s, _mm512_div_ps(sxl, sl2), mpos);
    return dpos;
}

static inline __attribute__((always_inline)) __m512 qk5_err(const qk5_group *g, int i, __m512 ts, __m512 tm,
                                                           __m512 cur, const bool use_mad) {
    __m512 diff = _mm512_sub_ps(_mm512_add_ps(_mm512_mul_ps(ts, g->La[i]), tm), g->xt[i]);
    diff = use_mad ? abs16(diff) : _mm512_mul_ps(diff, diff);
    return _mm512_add_ps(cur, _mm512_mul_ps(g->wt[i], diff));
}

static inline void qk5_update(qk5_group *g, __mmask16 dpos, __m512 cur, __m512 iscale, __m512 ts, __m512 tm) {
    const __mmask16 upd = (__mmask16)(dpos & _mm512_cmp_ps_mask(cur, g->best, _CMP_LT_OQ));
    if (upd == 0) return;
    g->b_iscale = sel16(g->b_iscale, iscale, upd);
    g->b_mn = sel16(g->b_mn, g->mn, upd);
    g->best = sel16(g->best, cur, upd);
    g->scale = sel16(g->scale, ts, upd);
    g->mn = sel16(g->mn, tm, upd);
    qk5_bound(g);
}

static inline __attribute__((always_inline)) void qk5_finish(qk5_group *g, const int n, int nmax,
                                                            uint8_t *const pL[16], float *const scales[2],
                                                            float *const mins[2]) {
    /* a constant sub-block: all levels 0, scale 0 */
    store_halves(scales[0], scales[1], _mm512_maskz_mov_ps((__mmask16)~g->flat, g->scale));
    store_halves(mins[0], mins[1],
                 _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(g->mn), _mm512_set1_epi32(INT32_MIN))));
    /* the bit-reading form, exact for any lane */
    for (int i = 0; i < n; i++)
        g->La[i] = level16(_mm512_mul_ps(g->b_iscale, _mm512_sub_ps(g->xt[i], g->b_mn)), false, 0, nmax);
    levels_out16(n, g->La, g->flat, pL);
}

/* row pointers of the 16 lanes of group k: halves x[2k] and x[2k+1], each 8
 * sub-blocks of n */
static inline void lane_ptrs(const float *const x[], int k, int n, const float *p[16]) {
    for (int j = 0; j < 16; j++) p[j] = x ? x[2 * k + j / 8] + (j % 8) * n : NULL;
}

/* make_qkx2_quants on NG (1 or 2) groups of 16 sub-blocks of n values; group
 * k's lanes are the halves x[2k], x[2k+1] (8 sub-blocks each), their levels
 * to L[2k], L[2k+1], scales and mins likewise.  Inlined into wrappers with
 * NG, n, wmode and use_mad constant.  With two groups, their elements are
 * interleaved to keep two chains of dependent additions in flight (each
 * group's sums in variables of their own, so they stay in registers). */
static inline __attribute__((always_inline)) void qkx2_lanes(const int NG, const int n, int nmax,
                                                            const float *const x[], const int wmode,
                                                            const float *const w[], uint8_t *const L[],
                                                            float *const scales[], float *const mins[], float rmin,
                                                            float rdelta, int nstep, const bool use_mad) {
    qk5_group G[2], *A = &G[0], *B = &G[1];
    const __m512 zero = _mm512_setzero_ps();
    for (int k = 0; k < NG; k++) {
        const float *p[16], *pw[16];
        lane_ptrs(x, k, n, p);
        lane_ptrs(w, k, n, pw);
        qk5_setup(&G[k], n, nmax, p, wmode, pw, use_mad);
    }
    for (int is = 0; nstep >= 1 && is <= nstep; is++) {
        /* lane-uniform numerator: the scalar expression, evaluated once */
        const float num = rmin + rdelta * (float)is + (float)nmax;
        const __m512 isa = _mm512_div_ps(_mm512_set1_ps(num), _mm512_sub_ps(A->mx, A->mn));
        const __m512 isb = NG == 2 ? _mm512_div_ps(_mm512_set1_ps(num), _mm512_sub_ps(B->mx, B->mn)) : zero;
        __m512 sla = zero, sl2a = zero, sxla = zero, slb = zero, sl2b = zero, sxlb = zero;
#define QK5_LSUMS(fast)                                                                                                \
    _Pragma("GCC unroll 2") for (int i = 0; i < n; i++) {                                                              \
        qk5_lsum(A, i, isa, fast, nmax, &sla, &sl2a, &sxla);                                                           \
        if (NG == 2) qk5_lsum(B, i, isb, fast, nmax, &slb, &sl2b, &sxlb);                                              \
    }
        if (!qk5_fast(A, isa) || (NG == 2 && !qk5_fast(B, isb))) QK5_LSUMS(0)
        else {
            const bool lo = !qk5_above_min(A) || (NG == 2 && !qk5_above_min(B));
            const bool hi = num > (float)nmax + 0.25f;
            if (lo && hi) QK5_LSUMS(1) else if (hi) QK5_LSUMS(2) else if (lo) QK5_LSUMS(3) else QK5_LSUMS(4)
        }
#undef QK5_LSUMS
        __m512 tsa, tma, tsb = zero, tmb = zero;
        const __mmask16 dpa = qk5_fit(A, sla, sl2a, sxla, &tsa, &tma);
        const __mmask16 dpb = NG == 2 ? qk5_fit(B, slb, sl2b, sxlb, &tsb, &tmb) : 0;
        if ((dpa | dpb) == 0) continue;
        __m512 cura = zero, curb = zero;
#pragma GCC unroll 2
        for (int i = 0; i < n; i++) {
            cura = qk5_err(A, i, tsa, tma, cura, use_mad);
            if (NG == 2) curb = qk5_err(B, i, tsb, tmb, curb, use_mad);
        }
        qk5_update(A, dpa, cura, isa, tsa, tma);
        if (NG == 2) qk5_update(B, dpb, curb, isb, tsb, tmb);
    }
    for (int k = 0; k < NG; k++) {
        uint8_t *pL[16];
        for (int j = 0; j < 16; j++) pL[j] = L[2 * k + j / 8] + (j % 8) * n;
        qk5_finish(&G[k], n, nmax, pL, scales + 2 * k, mins + 2 * k);
    }
}

void lgg__qkx2_x16_avx512(int n, int nmax, const float *const x[2], uint8_t *const L[2], float *const scales[2],
                          float *const mins[2], float rmin, float rdelta, int nstep) {
    if (n == 32) qkx2_lanes(1, 32, nmax, x, LGG__QW_AVABS, NULL, L, scales, mins, rmin, rdelta, nstep, false);
    else qkx2_lanes(1, 16, nmax, x, LGG__QW_ABS, NULL, L, scales, mins, rmin, rdelta, nstep, true);
}

void lgg__qkx2_x32_avx512(int n, int nmax, const float *const x[4], uint8_t *const L[4], float *const scales[4],
                          float *const mins[4], float rmin, float rdelta, int nstep) {
    if (n == 32) qkx2_lanes(2, 32, nmax, x, LGG__QW_AVABS, NULL, L, scales, mins, rmin, rdelta, nstep, false);
    else qkx2_lanes(2, 16, nmax, x, LGG__QW_ABS, NULL, L, scales, mins, rmin, rdelta, nstep, true);
}

void lgg__qkx3_x16_avx512(int n, int nmax, const float *const x[2], const float *const w[2], uint8_t *const L[2],
                          float *const scales[2], float *const mins[2], float rmin, float rdelta, int nstep) {
    if (n == 32) qkx2_lanes(1, 32, nmax, x, LGG__QW_GIVEN, w, L, scales, mins, rmin, rdelta, nstep, false);
    else qkx2_lanes(1, 16, nmax, x, LGG__QW_GIVEN, w, L, scales, mins, rmin, rdelta, nstep, false);
}

/* lgg__make_qx_quants with rmse_type 1 (weights qw, or x^2 when qw is NULL)
 * on 16 sub-blocks of n (16 or 32) values in one vector, halves x[0], x[1]
 * as above, as qx1_x16 in quant_avx2.c does it on two groups of 8: w*x formed
 * once (the scalar sum is (w*x)*l, in that order), each candidate's levels
 * and sums in one pass, the best levels recomputed at the end from the
 * iscale that produced them. */
static inline __attribute__((always_inline)) void qx1_lanes(const int n, const int nmax, const float *const x[2],
                                                           const float *const qw[2], int8_t *const L[2],
                                                           float *const scales[2]) {
    const __m512 zero = _mm512_setzero_ps();
    __m512 xt[32], wt[32], wx[32];
    const float *p[16], *pw[16];
    lane_ptrs(x, 0, n, p);
    load_t16(n, p, xt);
    if (qw[0]) {
        lane_ptrs(qw, 0, n, pw);
        load_t16(n, pw, wt);
    }
    __m512 amax = zero, max = zero;
    __mmask16 nan = 0;
    for (int i = 0; i < n; i++) {
        if (!qw[0]) wt[i] = _mm512_mul_ps(xt[i], xt[i]);
        wx[i] = _mm512_mul_ps(wt[i], xt[i]);
        const __m512 a = abs16(xt[i]);
        const __mmask16 gt = _mm512_cmp_ps_mask(a, amax, _CMP_GT_OQ);
        amax = sel16(amax, a, gt);
        max = sel16(max, xt[i], gt);
        nan |= _mm512_cmp_ps_mask(xt[i], xt[i], _CMP_UNORD_Q);
    }
    const __mmask16 tiny = _mm512_cmp_ps_mask(amax, _mm512_set1_ps(1e-15f), _CMP_LT_OQ);
    /* |iscale * x| <= |iscale| * amax unless a NaN hides from amax; the
     * (discarded) near-zero lanes must not force the slow path */
    const __m512 bound = sel16(amax, _mm512_set1_ps(INFINITY), nan);
    __m512 is = _mm512_div_ps(_mm512_set1_ps((float)-nmax), max), lx, l2;
#define QX5_SUMS(fast)                                                                                                 \
    _Pragma("GCC unroll 2") for (int i = 0; i < n; i++) {                                                              \
        const __m512 l = level16(_mm512_mul_ps(is, xt[i]), fast, -nmax, nmax - 1);                                    \
        lx = _mm512_add_ps(lx, _mm512_mul_ps(wx[i], l));                                                               \
        l2 = _mm512_add_ps(l2, _mm512_mul_ps(_mm512_mul_ps(wt[i], l), l));                                             \
    }
#define QX5_LEVELS_SUMS()                                                                                              \
    do {                                                                                                               \
        lx = l2 = zero;                                                                                                \
        const __mmask16 ok =                                                                                           \
            _mm512_cmp_ps_mask(_mm512_mul_ps(abs16(is), bound), _mm512_set1_ps(2097152.f), _CMP_LT_OQ);                \
        if ((__mmask16)(ok | tiny) == 0xFFFF) QX5_SUMS(true) else QX5_SUMS(false)                                      \
    } while (0)
    QX5_LEVELS_SUMS();
    __m512 b_is = is;
    __m512 scale = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(l2, zero, _CMP_NEQ_UQ), lx, l2);
    __m512 best = _mm512_mul_ps(scale, lx);
    for (int k = -9; k <= 9; k++) {
        if (k == 0) continue;
        is = _mm512_div_ps(_mm512_set1_ps(-((float)nmax + 0.1f * (float)k)), max);
        QX5_LEVELS_SUMS();
        const __mmask16 upd = (__mmask16)(_mm512_cmp_ps_mask(l2, zero, _CMP_GT_OQ) &
                                          _mm512_cmp_ps_mask(_mm512_mul_ps(lx, lx), _mm512_mul_ps(best, l2), _CMP_GT_OQ));
        b_is = sel16(b_is, is, upd);
        scale = sel16(scale, _mm512_div_ps(lx, l2), upd);
        best = sel16(best, _mm512_mul_ps(scale, lx), upd);
    }
#undef QX5_LEVELS_SUMS
#undef QX5_SUMS
    /* a (near) zero sub-block: level 0 (stored as 0, not nmax) and scale 0 */
    store_halves(scales[0], scales[1], _mm512_maskz_mov_ps((__mmask16)~tiny, scale));
    for (int i = 0; i < n; i++)
        xt[i] = _mm512_add_ps(level16(_mm512_mul_ps(b_is, xt[i]), false, -nmax, nmax - 1), _mm512_set1_ps((float)nmax));
    uint8_t *pL[16];
    for (int j = 0; j < 16; j++) pL[j] = (uint8_t *)L[j / 8] + (j % 8) * n;
    levels_out16(n, xt, tiny, pL);
}

void lgg__qx1_x16_avx512(int n, int nmax, const float *const x[2], const float *const qw[2], int8_t *const L[2],
                         float *const scales[2]) {
    if (n == 16 && nmax == 32) qx1_lanes(16, 32, x, qw, L, scales); /* Q6_K */
    else if (n == 16) qx1_lanes(16, nmax, x, qw, L, scales);
    else qx1_lanes(32, nmax, x, qw, L, scales);
}

#elif defined(__AVX2__)
/* A build that compiles every file with the same flags and no AVX-512 (the
 * libFuzzer one): the same searches, by the AVX2 kernel, eight lanes at a
 * time. */
void lgg__qkx2_x16_avx512(int n, int nmax, const float *const x[2], uint8_t *const L[2], float *const scales[2],
                          float *const mins[2], float rmin, float rdelta, int nstep) {
    lgg__qkx2_x16_avx2(n, nmax, x, L, scales, mins, rmin, rdelta, nstep);
}

void lgg__qkx2_x32_avx512(int n, int nmax, const float *const x[4], uint8_t *const L[4], float *const scales[4],
                          float *const mins[4], float rmin, float rdelta, int nstep) {
    lgg__qkx2_x16_avx2(n, nmax, x, L, scales, mins, rmin, rdelta, nstep);
    lgg__qkx2_x16_avx2(n, nmax, x + 2, L + 2, scales + 2, mins + 2, rmin, rdelta, nstep);
}

void lgg__qx1_x16_avx512(int n, int nmax, const float *const x[2], const float *const qw[2], int8_t *const L[2],
                         float *const scales[2]) {
    lgg__qx1_x16_avx2(n, nmax, x, qw, L, scales);
}

void lgg__qkx3_x16_avx512(int n, int nmax, const float *const x[2], const float *const w[2], uint8_t *const L[2],
                          float *const scales[2], float *const mins[2], float rmin, float rdelta, int nstep) {
    lgg__qkx3_x16_avx2(n, nmax, x, w, L, scales, mins, rmin, rdelta, nstep);
}
#endif
