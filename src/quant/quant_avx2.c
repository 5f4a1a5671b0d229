/* quant_avx2.c -- AVX2 kernels for the quantizers (built with -mavx2 -mf16c
 * -mno-fma; called only when the CPU has AVX2).
 *
 * The K-quant scale searches are long chains of dependent float additions
 * (each sum must be formed in ggml's order), so one sub-block at a time is
 * latency-bound.  The sub-blocks of a super-block are independent, so here
 * each of the 8 lanes runs one sub-block's search: every lane performs the
 * scalar code's IEEE operations in the scalar code's order (add, mul, div,
 * compare; no FMA, no reassociation, no approximate reciprocal), and the
 * scalar branches become per-lane selects.  Results are bit-identical to
 * quant_kquants.c, which stays the reference (tests compare both). */
#include "quant_internal.h"

#if defined(__AVX2__)

#include <immintrin.h>

/* lgg__nearest_int per lane: the same 1.5*2^23 trick on the same bits */
static inline __m256i near8(__m256 v) {
    const __m256i t = _mm256_castps_si256(_mm256_add_ps(v, _mm256_set1_ps(12582912.f)));
    return _mm256_sub_epi32(_mm256_and_si256(t, _mm256_set1_epi32(0x007fffff)), _mm256_set1_epi32(0x00400000));
}

static inline __m256 sel(__m256 a, __m256 b, __m256 take_b) { return _mm256_blendv_ps(a, b, take_b); }

/* make_qkx2_quants (quant_kquants.c) on 8 sub-blocks of n (<= 32) values at
 * once (1 <= n <= 32): sub-block j is x[j*n .. j*n+n) with weights w[j*n ..]; its levels go
 * to L[j*n ..], its scale to scales[j] and its negated min to the_mins[j]. */
void lgg__qkx2_x8_avx2(int n, int nmax, const float *x, const float *w, uint8_t *L, float *scales, float *the_mins,
                       float rmin, float rdelta, int nstep, bool use_mad) {
    __m256 xt[32], wt[32];
    __m256i Lb[32], La[32];
    const __m256i vidx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(n));
    /* n >= 1: the scalar search also starts from element 0 unconditionally */
    xt[0] = _mm256_i32gather_ps(x, vidx, 4);
    wt[0] = _mm256_i32gather_ps(w, vidx, 4);
    for (int i = 1; i < n; i++) {
        xt[i] = _mm256_i32gather_ps(x + i, vidx, 4);
        wt[i] = _mm256_i32gather_ps(w + i, vidx, 4);
    }
    const __m256 zero = _mm256_setzero_ps(), sign = _mm256_set1_ps(-0.0f);
    const __m256i lo = _mm256_setzero_si256(), hi = _mm256_set1_epi32(nmax);
    __m256 mn = xt[0], mx = xt[0], sw = wt[0], sx = _mm256_mul_ps(wt[0], xt[0]);
    for (int i = 1; i < n; i++) {
        mn = _mm256_min_ps(xt[i], mn); /* x < min ? x : min */
        mx = _mm256_max_ps(xt[i], mx); /* x > max ? x : max */
        sw = _mm256_add_ps(sw, wt[i]);
        sx = _mm256_add_ps(sx, _mm256_mul_ps(wt[i], xt[i]));
    }
    mn = sel(mn, zero, _mm256_cmp_ps(mn, zero, _CMP_GT_OQ));
    const __m256 flat = _mm256_cmp_ps(mx, mn, _CMP_EQ_OQ);
    __m256 iscale = _mm256_div_ps(_mm256_set1_ps((float)nmax), _mm256_sub_ps(mx, mn));
    __m256 scale = _mm256_div_ps(_mm256_set1_ps(1.0f), iscale);
    __m256 best = zero;
    for (int i = 0; i < n; i++) {
        const __m256i l = _mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(_mm256_mul_ps(iscale, _mm256_sub_ps(xt[i], mn)))));
        Lb[i] = l;
        __m256 diff = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(scale, _mm256_cvtepi32_ps(l)), mn), xt[i]);
        diff = use_mad ? _mm256_andnot_ps(sign, diff) : _mm256_mul_ps(diff, diff);
        best = _mm256_add_ps(best, _mm256_mul_ps(wt[i], diff));
    }
    for (int is = 0; is <= nstep; is++) {
        /* lane-uniform numerator: the scalar expression, evaluated once */
        const float num = rmin + rdelta * (float)is + (float)nmax;
        iscale = _mm256_div_ps(_mm256_set1_ps(num), _mm256_sub_ps(mx, mn));
        __m256 sl = zero, sl2 = zero, sxl = zero;
        for (int i = 0; i < n; i++) {
            const __m256i l =
                _mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(_mm256_mul_ps(iscale, _mm256_sub_ps(xt[i], mn)))));
            La[i] = l;
            const __m256 lf = _mm256_cvtepi32_ps(l), wl = _mm256_mul_ps(wt[i], lf);
            sl = _mm256_add_ps(sl, wl);
            sl2 = _mm256_add_ps(sl2, _mm256_mul_ps(wl, lf));
            sxl = _mm256_add_ps(sxl, _mm256_mul_ps(wl, xt[i]));
        }
        const __m256 D = _mm256_sub_ps(_mm256_mul_ps(sw, sl2), _mm256_mul_ps(sl, sl));
        const __m256 dpos = _mm256_andnot_ps(flat, _mm256_cmp_ps(D, zero, _CMP_GT_OQ));
        if (_mm256_movemask_ps(dpos) == 0) continue;
        __m256 ts = _mm256_div_ps(_mm256_sub_ps(_mm256_mul_ps(sw, sxl), _mm256_mul_ps(sx, sl)), D);
        __m256 tm = _mm256_div_ps(_mm256_sub_ps(_mm256_mul_ps(sl2, sx), _mm256_mul_ps(sl, sxl)), D);
        const __m256 mpos = _mm256_cmp_ps(tm, zero, _CMP_GT_OQ);
        tm = sel(tm, zero, mpos);
        ts = sel(ts, _mm256_div_ps(sxl, sl2), mpos);
        __m256 cur = zero;
        for (int i = 0; i < n; i++) {
            __m256 diff = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(ts, _mm256_cvtepi32_ps(La[i])), tm), xt[i]);
            diff = use_mad ? _mm256_andnot_ps(sign, diff) : _mm256_mul_ps(diff, diff);
            cur = _mm256_add_ps(cur, _mm256_mul_ps(wt[i], diff));
        }
        const __m256 upd = _mm256_and_ps(dpos, _mm256_cmp_ps(cur, best, _CMP_LT_OQ));
        if (_mm256_movemask_ps(upd) == 0) continue;
        const __m256i updi = _mm256_castps_si256(upd);
        for (int i = 0; i < n; i++) Lb[i] = _mm256_blendv_epi8(Lb[i], La[i], updi);
        best = sel(best, cur, upd);
        scale = sel(scale, ts, upd);
        mn = sel(mn, tm, upd);
    }
    /* a constant sub-block: all levels 0, scale 0 */
    scale = sel(scale, zero, flat);
    _mm256_storeu_ps(scales, scale);
    _mm256_storeu_ps(the_mins, _mm256_xor_ps(mn, sign));
    int32_t lv[32][8];
    const __m256i flati = _mm256_castps_si256(flat);
    for (int i = 0; i < n; i++) _mm256_storeu_si256((__m256i *)lv[i], _mm256_andnot_si256(flati, Lb[i]));
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < n; i++) L[j * n + i] = (uint8_t)lv[i][j];
}

/* lgg__make_qx_quants with rmse_type 1 (weights qw, or x^2 when qw is NULL)
 * on 8 sub-blocks of n (1..32) values at once, laid out as in
 * lgg__qkx2_x8_avx2; levels (offset by nmax) to L[j*n ..], scales[j]. */
void lgg__qx1_x8_avx2(int n, int nmax, const float *x, const float *qw, int8_t *L, float *scales) {
    __m256 xt[32], wt[32];
    __m256i Lb[32];
    const __m256i vidx = _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(n));
    const __m256 zero = _mm256_setzero_ps(), sign = _mm256_set1_ps(-0.0f);
    const __m256i lo = _mm256_set1_epi32(-nmax), hi = _mm256_set1_epi32(nmax - 1);
    __m256 amax = zero, max = zero;
    for (int i = 0; i < n; i++) {
        xt[i] = _mm256_i32gather_ps(x + i, vidx, 4);
        wt[i] = qw ? _mm256_i32gather_ps(qw + i, vidx, 4) : _mm256_mul_ps(xt[i], xt[i]);
        const __m256 a = _mm256_andnot_ps(sign, xt[i]);
        const __m256 gt = _mm256_cmp_ps(a, amax, _CMP_GT_OQ);
        amax = sel(amax, a, gt);
        max = sel(max, xt[i], gt);
    }
    const __m256 tiny = _mm256_cmp_ps(amax, _mm256_set1_ps(1e-15f), _CMP_LT_OQ);
    __m256 iscale = _mm256_div_ps(_mm256_set1_ps((float)-nmax), max);
    __m256 sumlx = zero, suml2 = zero;
    for (int i = 0; i < n; i++) {
        const __m256i l = _mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(_mm256_mul_ps(iscale, xt[i]))));
        Lb[i] = l;
        const __m256 lf = _mm256_cvtepi32_ps(l);
        sumlx = _mm256_add_ps(sumlx, _mm256_mul_ps(_mm256_mul_ps(wt[i], xt[i]), lf));
        suml2 = _mm256_add_ps(suml2, _mm256_mul_ps(_mm256_mul_ps(wt[i], lf), lf));
    }
    __m256 scale = sel(zero, _mm256_div_ps(sumlx, suml2), _mm256_cmp_ps(suml2, zero, _CMP_NEQ_UQ));
    __m256 best = _mm256_mul_ps(scale, sumlx);
    for (int is = -9; is <= 9; is++) {
        if (is == 0) continue;
        const float num = -((float)nmax + 0.1f * (float)is);
        iscale = _mm256_div_ps(_mm256_set1_ps(num), max);
        __m256i La[32];
        sumlx = suml2 = zero;
        for (int i = 0; i < n; i++) {
            const __m256i l = _mm256_min_epi32(hi, _mm256_max_epi32(lo, near8(_mm256_mul_ps(iscale, xt[i]))));
            La[i] = l;
            const __m256 lf = _mm256_cvtepi32_ps(l);
            sumlx = _mm256_add_ps(sumlx, _mm256_mul_ps(_mm256_mul_ps(wt[i], xt[i]), lf));
            suml2 = _mm256_add_ps(suml2, _mm256_mul_ps(_mm256_mul_ps(wt[i], lf), lf));
        }
        const __m256 upd = _mm256_and_ps(_mm256_cmp_ps(suml2, zero, _CMP_GT_OQ),
                                         _mm256_cmp_ps(_mm256_mul_ps(sumlx, sumlx), _mm256_mul_ps(best, suml2), _CMP_GT_OQ));
        if (_mm256_movemask_ps(upd) == 0) continue;
        const __m256i updi = _mm256_castps_si256(upd);
        for (int i = 0; i < n; i++) Lb[i] = _mm256_blendv_epi8(Lb[i], La[i], updi);
        scale = sel(scale, _mm256_div_ps(sumlx, suml2), upd);
        best = sel(best, _mm256_mul_ps(scale, sumlx), upd);
    }
    /* a (near) zero sub-block: level 0 (stored as 0, not nmax) and scale 0 */
    _mm256_storeu_ps(scales, sel(scale, zero, tiny));
    int32_t lv[32][8];
    const __m256i tinyi = _mm256_castps_si256(tiny), off = _mm256_set1_epi32(nmax);
    for (int i = 0; i < n; i++)
        _mm256_storeu_si256((__m256i *)lv[i], _mm256_andnot_si256(tinyi, _mm256_add_epi32(Lb[i], off)));
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < n; i++) L[j * n + i] = (int8_t)lv[i][j];
}

#endif
