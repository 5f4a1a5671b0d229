/* qsearch.c -- the scale searches that several quantization families share
 * (all arithmetic in float, in ggml's order):
 *   make_qx_quants   symmetric levels [-nmax, nmax-1]; first guess -nmax/max,
 *                    then 18 nearby guesses, keeping the best weighted fit
 *                    (Q3_K/Q6_K sub-block scales, Q4_0/Q5_0 with an imatrix)
 *   make_qkx3_quants asymmetric levels [0, nmax] with a min; a sweep of
 *                    candidate scales, each refit by weighted least squares
 *                    (Q2_K/Q4_K/Q5_K, Q4_1/Q5_1 with an imatrix)
 *   make_qp_quants   positive levels [0, nmax] for the sub-block scales
 *                    (K-quants and IQ2/IQ3 with an imatrix)
 * and their batched forms over many sub-blocks, which hand whole groups to
 * the AVX2 kernels (x86/quant_avx2.c) when the CPU has them.  They sit
 * below every family file and above the kernels, so nothing loops back. */
#include "quant/quant_internal.h"

#define EPS_GROUP 1e-15f

static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int clampi(int v, int lo, int hi) { return imax(lo, imin(hi, v)); }

/* weight of x for the rmse_type variants of make_qx_quants */
static inline float qx_weight(const float *qw, int rmse_type, const float *x, int i) {
    if (qw) return qw[i];
    switch (rmse_type) {
    case 1: return x[i] * x[i];
    case 2: return 1;
    case 3: return fabsf(x[i]);
    default: return sqrtf(fabsf(x[i]));
    }
}

float lgg__make_qx_quants(int n, int nmax, const float *x, int8_t *L, int rmse_type, const float *qw) {
    float amax = 0, max = 0;
    for (int i = 0; i < n; i++) {
        const float a = fabsf(x[i]);
        if (a > amax) {
            amax = a;
            max = x[i];
        }
    }
    if (amax < EPS_GROUP) {
        memset(L, 0, (size_t)n);
        return 0.f;
    }
    float iscale = (float)-nmax / max;
    if (rmse_type == 0) {
        for (int i = 0; i < n; i++)
            L[i] = (int8_t)(nmax + clampi(lgg__nearest_int(iscale * x[i]), -nmax, nmax - 1));
        return 1 / iscale;
    }
    bool early = false;
    if (rmse_type < 0) {
        rmse_type = -rmse_type;
        early = true;
    }
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; i++) {
        const int l = clampi(lgg__nearest_int(iscale * x[i]), -nmax, nmax - 1);
        L[i] = (int8_t)(l + nmax);
        const float w = qx_weight(qw, rmse_type, x, i);
        sumlx += w * x[i] * (float)l;
        suml2 += w * (float)l * (float)l;
    }
    float scale = suml2 != 0.0f ? sumlx / suml2 : 0.0f;
    if (early) return suml2 > 0 ? 0.5f * (scale + 1 / iscale) : 1 / iscale;
    float best = scale * sumlx;
    for (int is = -9; is <= 9; is++) {
        if (is == 0) continue;
        iscale = -((float)nmax + 0.1f * (float)is) / max;
        sumlx = suml2 = 0;
        for (int i = 0; i < n; i++) {
            const int l = clampi(lgg__nearest_int(iscale * x[i]), -nmax, nmax - 1);
            const float w = qx_weight(qw, rmse_type, x, i);
            sumlx += w * x[i] * (float)l;
            suml2 += w * (float)l * (float)l;
        }
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            for (int i = 0; i < n; i++)
                L[i] = (int8_t)(nmax + clampi(lgg__nearest_int(iscale * x[i]), -nmax, nmax - 1));
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

void lgg__qkx3_batch(int nsub, int n, int nmax, const float *x, const float *w, uint8_t *L, float *scales,
                     float *mins, bool simd) {
    int j = 0;
#if defined(LGG__QX86)
    if (simd && lgg__cpu_avx2_f16c() && (n == 16 || n == 32))
        for (int k; j + 8 <= nsub; j = k + 8) {
            k = lgg__x16_second(j, nsub);
            const float *const xs[2] = {x + j * n, x + k * n}, *const ws[2] = {w + j * n, w + k * n};
            uint8_t *const Ls[2] = {L + j * n, L + k * n};
            float *const ss[2] = {scales + j, scales + k}, *const ms[2] = {mins + j, mins + k};
            if (lgg__cpu_avx512()) lgg__qkx3_x16_avx512(n, nmax, xs, ws, Ls, ss, ms, -0.9f, 0.05f, 36);
            else lgg__qkx3_x16_avx2(n, nmax, xs, ws, Ls, ss, ms, -0.9f, 0.05f, 36);
        }
#else
    (void)simd;
#endif
    uint8_t Laux[32];
    for (; j < nsub; j++)
        scales[j] = lgg__make_qkx3_quants(n, nmax, x + j * n, w + j * n, L + j * n, &mins[j], Laux, -0.9f, 0.05f, 36,
                                          false);
}

void lgg__qx1_batch(int nsub, int n, int nmax, const float *x, const float *w, int8_t *L, float *scales, bool simd) {
    int j = 0;
#if defined(LGG__QX86)
    if (simd && lgg__cpu_avx2_f16c() && (n == 16 || n == 32))
        for (int k; j + 8 <= nsub; j = k + 8) {
            k = lgg__x16_second(j, nsub);
            const float *const xs[2] = {x + j * n, x + k * n}, *const ws[2] = {w + j * n, w + k * n};
            int8_t *const Ls[2] = {L + j * n, L + k * n};
            float *const ss[2] = {scales + j, scales + k};
            if (lgg__cpu_avx512()) lgg__qx1_x16_avx512(n, nmax, xs, ws, Ls, ss);
            else lgg__qx1_x16_avx2(n, nmax, xs, ws, Ls, ss);
        }
#else
    (void)simd;
#endif
    for (; j < nsub; j++) scales[j] = lgg__make_qx_quants(n, nmax, x + j * n, L + j * n, 1, w + j * n);
}

/* The asymmetric fit of Q2_K/Q4_K/Q5_K and Q4_1/Q5_1: weights given, or x^2
 * when NULL.  ggml has it twice, as make_qkx2_quants (explicit weights, a
 * `max == min` test) and make_qkx3_quants (optional weights, `max <= min`);
 * the two tests agree because max >= min always holds here (min only ever
 * drops, to 0 at most, below a max that is at least x[0]; a NaN x[0] makes
 * both false), so one function serves both. */
float lgg__make_qkx3_quants(int n, int nmax, const float *x, const float *weights, uint8_t *L, float *the_min,
                            uint8_t *Laux, float rmin, float rdelta, int nstep, bool use_mad) {
    float min = x[0], max = x[0];
    float sum_w = weights ? weights[0] : x[0] * x[0];
    float sum_x = sum_w * x[0];
    for (int i = 1; i < n; i++) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        const float w = weights ? weights[i] : x[i] * x[i];
        sum_w += w;
        sum_x += w * x[i];
    }
    if (min > 0) min = 0;
    if (max <= min) {
        memset(L, 0, (size_t)n);
        *the_min = -min;
        return 0.f;
    }
    float iscale = (float)nmax / (max - min);
    float scale = 1 / iscale;
    float best_mad = 0;
    for (int i = 0; i < n; i++) {
        const int l = lgg__nearest_int(iscale * (x[i] - min));
        L[i] = (uint8_t)clampi(l, 0, nmax);
        float diff = scale * (float)L[i] + min - x[i];
        diff = use_mad ? fabsf(diff) : diff * diff;
        const float w = weights ? weights[i] : x[i] * x[i];
        best_mad += w * diff;
    }
    if (nstep < 1) {
        *the_min = -min;
        return scale;
    }
    for (int is = 0; is <= nstep; is++) {
        iscale = (rmin + rdelta * (float)is + (float)nmax) / (max - min);
        float sum_l = 0, sum_l2 = 0, sum_xl = 0;
        for (int i = 0; i < n; i++) {
            const int l = clampi(lgg__nearest_int(iscale * (x[i] - min)), 0, nmax);
            Laux[i] = (uint8_t)l;
            const float w = weights ? weights[i] : x[i] * x[i];
            sum_l += w * (float)l;
            sum_l2 += w * (float)l * (float)l;
            sum_xl += w * (float)l * x[i];
        }
        const float D = sum_w * sum_l2 - sum_l * sum_l;
        if (D > 0) {
            float this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
            float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
            if (this_min > 0) {
                this_min = 0;
                this_scale = sum_xl / sum_l2;
            }
            float mad = 0;
            for (int i = 0; i < n; i++) {
                float diff = this_scale * (float)Laux[i] + this_min - x[i];
                diff = use_mad ? fabsf(diff) : diff * diff;
                const float w = weights ? weights[i] : x[i] * x[i];
                mad += w * diff;
            }
            if (mad < best_mad) {
                memcpy(L, Laux, (size_t)n);
                best_mad = mad;
                scale = this_scale;
                min = this_min;
            }
        }
    }
    *the_min = -min;
    return scale;
}

/* Positive levels for the (positive) sub-block scales and mins. */
float lgg__make_qp_quants(int n, int nmax, const float *x, uint8_t *L, const float *qw) {
    float max = 0;
    for (int i = 0; i < n; i++) max = max > x[i] ? max : x[i];
    if (max < EPS_GROUP) {
        memset(L, 0, (size_t)n);
        return 0.f;
    }
    float iscale = (float)nmax / max;
    for (int i = 0; i < n; i++) L[i] = (uint8_t)lgg__nearest_int(iscale * x[i]);
    const float scale = 1 / iscale;
    float best_mse = 0;
    for (int i = 0; i < n; i++) {
        const float diff = x[i] - scale * (float)L[i];
        best_mse += qw[i] * diff * diff;
    }
    for (int is = -4; is <= 4; is++) {
        if (is == 0) continue;
        const float iscale_is = (0.1f * (float)is + (float)nmax) / max;
        const float scale_is = 1 / iscale_is;
        float mse = 0;
        for (int i = 0; i < n; i++) {
            const int l = imin(nmax, lgg__nearest_int(iscale_is * x[i]));
            const float diff = x[i] - scale_is * (float)l;
            mse += qw[i] * diff * diff;
        }
        if (mse < best_mse) {
            best_mse = mse;
            iscale = iscale_is;
        }
    }
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; i++) {
        const int l = imin(nmax, lgg__nearest_int(iscale * x[i]));
        L[i] = (uint8_t)l;
        const float w = qw[i];
        sumlx += w * x[i] * (float)l;
        suml2 += w * (float)l * (float)l;
    }
    for (int pass = 0; pass < 5; pass++) {
        int changed = 0;
        for (int i = 0; i < n; i++) {
            const float w = qw[i];
            float slx = sumlx - w * x[i] * (float)L[i];
            float sl2 = suml2 - w * (float)L[i] * (float)L[i];
            if (slx > 0 && sl2 > 0) {
                const int nl = imin(nmax, lgg__nearest_int(x[i] * sl2 / slx));
                if (nl != L[i]) {
                    slx += w * x[i] * (float)nl;
                    sl2 += w * (float)nl * (float)nl;
                    if (slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = (uint8_t)nl;
                        sumlx = slx;
                        suml2 = sl2;
                        changed++;
                    }
                }
            }
        }
        if (!changed) break;
    }
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}
