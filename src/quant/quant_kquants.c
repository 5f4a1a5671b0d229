/* quant_kquants.c -- the K-quants: 256-element super-blocks of 16 or 32
 * element sub-blocks, each with its own quantized scale (and min).
 *
 * The shared scale searches are in qsearch.c; Q3_K's own one is here:
 *   make_q3_quants   symmetric, refined by moving single values (x^2 weights)
 * Without an imatrix ggml uses each type's reference quantizer; with one, the
 * weighted variant.  Q3_K..Q6_K layouts are described at each quantizer. */
#include "quant/quant_internal.h"

#define QK_K LGG__QK_K
#define EPS_GROUP 1e-15f

static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int clampi(int v, int lo, int hi) { return imax(lo, imin(hi, v)); }

static float make_q3_quants(int n, int nmax, const float *x, int8_t *L, bool do_rmse) {
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
    const float iscale = (float)-nmax / max;
    if (do_rmse) {
        float sumlx = 0, suml2 = 0;
        for (int i = 0; i < n; i++) {
            const int l = clampi(lgg__nearest_int(iscale * x[i]), -nmax, nmax - 1);
            L[i] = (int8_t)l;
            const float w = x[i] * x[i];
            sumlx += w * x[i] * (float)l;
            suml2 += w * (float)l * (float)l;
        }
        for (int pass = 0; pass < 5; pass++) {
            int changed = 0;
            for (int i = 0; i < n; i++) {
                const float w = x[i] * x[i];
                float slx = sumlx - w * x[i] * (float)L[i];
                if (slx > 0) {
                    float sl2 = suml2 - w * (float)L[i] * (float)L[i];
                    const int nl = clampi(lgg__nearest_int(x[i] * sl2 / slx), -nmax, nmax - 1);
                    if (nl != L[i]) {
                        slx += w * x[i] * (float)nl;
                        sl2 += w * (float)nl * (float)nl;
                        if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                            L[i] = (int8_t)nl;
                            sumlx = slx;
                            suml2 = sl2;
                            changed++;
                        }
                    }
                }
            }
            if (!changed) break;
        }
        for (int i = 0; i < n; i++) L[i] = (int8_t)(L[i] + nmax);
        return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
    }
    for (int i = 0; i < n; i++) L[i] = (int8_t)(clampi(lgg__nearest_int(iscale * x[i]), -nmax, nmax - 1) + nmax);
    return 1 / iscale;
}

/* The reference weights of one sub-block of n values: |x| (Q2_K) or, for
 * Q4_K/Q5_K, sqrt(mean x^2) + |x| */
static void ref_weights(int n, const float *x, int wmode, float *w) {
    float av_x = 0;
    if (wmode == LGG__QW_AVABS) {
        float sum_x2 = 0;
        for (int l = 0; l < n; l++) sum_x2 += x[l] * x[l];
        av_x = sqrtf(sum_x2 / (float)n);
    }
    for (int l = 0; l < n; l++) w[l] = wmode == LGG__QW_AVABS ? av_x + fabsf(x[l]) : fabsf(x[l]);
}

#if defined(LGG__QX86)
/* the AVX-512 searches on the groups of 8 sub-blocks of qkx2_batch: four
 * groups (two vectors) at a time while at least three are left (the last
 * group repeated when three), then one vector of the one or two left (the
 * group repeated when one); returns the sub-blocks done (a multiple of 8) */
static int qkx2_avx512(int nsub, int n, int nmax, const float *x, uint8_t *L, float *scales, float *mins,
                       float rmin, int nstep) {
    int j = 0;
    while (j + 8 <= nsub) {
        const int left = (nsub - j) / 8, take = left >= 4 ? 4 : left, ng = left >= 3 ? 4 : 2;
        const float *xs[4];
        uint8_t *Ls[4];
        float *ss[4], *ms[4];
        for (int g = 0; g < ng; g++) {
            const int s = j + 8 * (g < take ? g : take - 1);
            xs[g] = x + s * n, Ls[g] = L + s * n, ss[g] = scales + s, ms[g] = mins + s;
        }
        if (ng == 4) lgg__qkx2_x32_avx512(n, nmax, xs, Ls, ss, ms, rmin, 0.1f, nstep);
        else lgg__qkx2_x16_avx512(n, nmax, xs, Ls, ss, ms, rmin, 0.1f, nstep);
        j += 8 * take;
    }
    return j;
}
#endif

/* ggml's make_qkx2_quants (the asymmetric fit with explicit weights) on nsub
 * consecutive sub-blocks of n values with the reference weights of wmode; 16 at a time in SIMD lanes (which
 * form the weights themselves) when asked and available */
static void qkx2_batch(int nsub, int n, int nmax, const float *x, int wmode, uint8_t *L, float *scales,
                       float *mins, float rmin, int nstep, bool use_mad, bool simd) {
    int j = 0;
#if defined(LGG__QX86)
    if (simd && lgg__cpu_avx512() && lgg__qkx2_x16_shape(n, wmode, use_mad))
        j = qkx2_avx512(nsub, n, nmax, x, L, scales, mins, rmin, nstep);
    else if (simd && lgg__cpu_avx2_f16c() && lgg__qkx2_x16_shape(n, wmode, use_mad))
        for (int k; j + 8 <= nsub; j = k + 8) {
            k = lgg__x16_second(j, nsub);
            const float *const xs[2] = {x + j * n, x + k * n};
            uint8_t *const Ls[2] = {L + j * n, L + k * n};
            float *const ss[2] = {scales + j, scales + k}, *const ms[2] = {mins + j, mins + k};
            lgg__qkx2_x16_avx2(n, nmax, xs, Ls, ss, ms, rmin, 0.1f, nstep);
        }
#else
    (void)simd;
#endif
    uint8_t Laux[32];
    float w[32];
    for (; j < nsub; j++) {
        ref_weights(n, x + j * n, wmode, w);
        scales[j] = lgg__make_qkx3_quants(n, nmax, x + j * n, w, L + j * n, &mins[j], Laux, rmin, 0.1f, nstep,
                                          use_mad);
    }
}


/* pack 2-bit codes: byte l of each 32-byte group holds codes l, l+32, l+64, l+96 */
static void pack2(const uint8_t *L, uint8_t *qs) {
    for (int j = 0; j < QK_K; j += 128)
        for (int l = 0; l < 32; l++)
            qs[j / 4 + l] =
                (uint8_t)(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
}

/* ==== Q2_K: scales[16] (4-bit scale | 4-bit min << 4), qs[64], d, dmin ==== */
static void q2_k_requant(const float *x, uint8_t *b, uint8_t *L) {
    const float dd = lgg__get_f16(b + LGG__Q2_K_D), dm_ = lgg__get_f16(b + LGG__Q2_K_D + 2);
    for (int j = 0; j < QK_K / 16; j++) {
        const float d = dd * (float)(b[j] & 0xF);
        if (d == 0.0f) continue;
        const float m = dm_ * (float)(b[j] >> 4);
        for (int ii = 0; ii < 16; ii++)
            L[16 * j + ii] = (uint8_t)clampi(lgg__nearest_int((x[16 * j + ii] + m) / d), 0, 3);
    }
    pack2(L, b + 16);
}

static void q2_k_block_ref(const float *x, uint8_t *b, bool simd) {
    uint8_t L[QK_K];
    float mins[QK_K / 16], scales[QK_K / 16];
    const float q4scale = 15.f;
    float max_scale = 0, max_min = 0;
    qkx2_batch(QK_K / 16, 16, 3, x, LGG__QW_ABS, L, scales, mins, -0.5f, 15, true, simd);
    for (int j = 0; j < QK_K / 16; j++) {
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    if (max_scale > 0) {
        const float iscale = q4scale / max_scale;
        for (int j = 0; j < QK_K / 16; j++) b[j] = (uint8_t)lgg__nearest_int(iscale * scales[j]);
        lgg__put_f16(b + LGG__Q2_K_D, max_scale / q4scale);
    } else {
        memset(b, 0, QK_K / 16);
        lgg__put_f16(b + LGG__Q2_K_D, 0.f);
    }
    if (max_min > 0) {
        const float iscale = q4scale / max_min;
        for (int j = 0; j < QK_K / 16; j++) b[j] |= (uint8_t)((unsigned)lgg__nearest_int(iscale * mins[j]) << 4);
        lgg__put_f16(b + LGG__Q2_K_D + 2, max_min / q4scale);
    } else {
        lgg__put_f16(b + LGG__Q2_K_D + 2, 0.f);
    }
    q2_k_requant(x, b, L);
}

static void q2_k_block_imatrix(const float *x, uint8_t *b, const float *qw, bool simd) {
    uint8_t L[QK_K], Ls[QK_K / 16], Lm[QK_K / 16];
    float mins[QK_K / 16], scales[QK_K / 16], sw[QK_K / 16], w[QK_K];
    float sumx2 = 0;
    for (int j = 0; j < QK_K; j++) sumx2 += x[j] * x[j];
    const float sigma2 = sumx2 / QK_K;
    for (int j = 0; j < QK_K / 16; j++) {
        const float *q = qw + 16 * j;
        float *wj = w + 16 * j;
        for (int l = 0; l < 16; l++) wj[l] = q[l] * sqrtf(sigma2 + x[16 * j + l] * x[16 * j + l]);
        sw[j] = 0;
        for (int l = 0; l < 16; l++) sw[j] += wj[l];
    }
    lgg__qkx3_batch(QK_K / 16, 16, 3, x, w, L, scales, mins, simd);
    const float dm = lgg__make_qp_quants(QK_K / 16, 15, scales, Ls, sw);
    const float mm = lgg__make_qp_quants(QK_K / 16, 15, mins, Lm, sw);
    lgg__put_f16(b + LGG__Q2_K_D, dm);
    lgg__put_f16(b + LGG__Q2_K_D + 2, mm);
    for (int j = 0; j < QK_K / 16; j++) b[j] = (uint8_t)(Ls[j] | (Lm[j] << 4));
    q2_k_requant(x, b, L);
}

void lgg__qrow_q2_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    for (int64_t i = 0; i < n / QK_K; i++) {
        if (qw) q2_k_block_imatrix(x + i * QK_K, y + i * LGG__TS_Q2_K, qw + i * QK_K, simd);
        else q2_k_block_ref(x + i * QK_K, y + i * LGG__TS_Q2_K, simd);
    }
}

/* ==== Q3_K: hmask[32], qs[64], scales[12] (16 six-bit), d ==== */
static void q3_k_finish(const float *x, uint8_t *b, int8_t *L, bool simd) {
    uint8_t *hmask = b, *qs = b + 32, *sc = b + 96;
    const float dd = lgg__get_f16(b + LGG__Q3_K_D);
    (void)simd; /* only the x86 build has the vector path */
    for (int j = 0; j < QK_K / 16; j++) {
        int s = j < 8 ? sc[j] & 0xF : sc[j - 8] >> 4;
        s = (int8_t)((s | (((sc[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32);
        const float d = dd * (float)s;
        if (d == 0.0f) continue;
#if defined(LGG__QX86)
        if (simd) {
            lgg__requant16_avx2(x + 16 * j, d, 4, L + 16 * j);
            continue;
        }
#endif
        for (int ii = 0; ii < 16; ii++)
            L[16 * j + ii] = (int8_t)(clampi(lgg__nearest_int(x[16 * j + ii] / d), -4, 3) + 4);
    }
    memset(hmask, 0, QK_K / 8);
    int m = 0;
    uint8_t hm = 1;
    for (int j = 0; j < QK_K; j++) {
        if (L[j] > 3) {
            hmask[m] |= hm;
            L[j] = (int8_t)(L[j] - 4);
        }
        if (++m == QK_K / 8) {
            m = 0;
            hm = (uint8_t)(hm << 1);
        }
    }
    pack2((const uint8_t *)L, qs);
}

static void q3_k_put_scale(uint8_t *sc, int j, int l) {
    if (j < 8) sc[j] = (uint8_t)(l & 0xF);
    else sc[j - 8] |= (uint8_t)((l & 0xF) << 4);
    l >>= 4;
    sc[j % 4 + 8] |= (uint8_t)(l << (2 * (j / 4)));
}

static void q3_k_block_ref(const float *x, uint8_t *b, bool simd) {
    int8_t L[QK_K];
    float scales[QK_K / 16];
    float max_scale = 0, amax = 0;
    int j0 = 0;
#if defined(LGG__QX86)
    if (simd)
        for (; j0 < QK_K / 16; j0 += 8) lgg__q3_x8_avx2(x + 16 * j0, L + 16 * j0, scales + j0);
#endif
    for (int j = j0; j < QK_K / 16; j++) scales[j] = make_q3_quants(16, 4, x + 16 * j, L + 16 * j, true);
    for (int j = 0; j < QK_K / 16; j++) {
        const float a = fabsf(scales[j]);
        if (a > amax) {
            amax = a;
            max_scale = scales[j];
        }
    }
    uint8_t *sc = b + 96;
    memset(sc, 0, 12);
    if (max_scale != 0.0f) {
        const float iscale = -32.f / max_scale;
        for (int j = 0; j < QK_K / 16; j++) {
            int8_t l = (int8_t)lgg__nearest_int(iscale * scales[j]);
            l = (int8_t)(clampi(l, -32, 31) + 32);
            q3_k_put_scale(sc, j, l);
        }
        lgg__put_f16(b + LGG__Q3_K_D, 1 / iscale);
    } else {
        lgg__put_f16(b + LGG__Q3_K_D, 0.f);
    }
    q3_k_finish(x, b, L, simd);
}

static void q3_k_block_imatrix(const float *x, uint8_t *b, const float *qw, bool simd) {
    int8_t L[QK_K], Ls[QK_K / 16];
    float scales[QK_K / 16], w[QK_K], sw[QK_K / 16];
    float sumx2 = 0;
    for (int j = 0; j < QK_K; j++) sumx2 += x[j] * x[j];
    const float sigma2 = 2 * sumx2 / QK_K;
    for (int j = 0; j < QK_K / 16; j++) {
        float *wj = w + 16 * j;
        if (qw) {
            const float *q = qw + 16 * j;
            for (int l = 0; l < 16; l++) wj[l] = q[l] * sqrtf(sigma2 + x[16 * j + l] * x[16 * j + l]);
        } else {
            for (int l = 0; l < 16; l++) wj[l] = x[16 * j + l] * x[16 * j + l];
        }
        float sumw = 0;
        for (int l = 0; l < 16; l++) sumw += wj[l];
        sw[j] = sumw;
    }
    lgg__qx1_batch(QK_K / 16, 16, 4, x, w, L, scales, simd);
    uint8_t *sc = b + 96;
    memset(sc, 0, 12);
    const float d_block = lgg__make_qx_quants(QK_K / 16, 32, scales, Ls, 1, sw);
    for (int j = 0; j < QK_K / 16; j++) q3_k_put_scale(sc, j, Ls[j]);
    lgg__put_f16(b + LGG__Q3_K_D, d_block);
    q3_k_finish(x, b, L, simd);
}

void lgg__qrow_q3_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
#if defined(LGG__QX86)
    simd = simd && lgg__cpu_avx2_f16c();
#else
    simd = false;
#endif
    for (int64_t i = 0; i < n / QK_K; i++) {
        if (qw) q3_k_block_imatrix(x + i * QK_K, y + i * LGG__TS_Q3_K, qw + i * QK_K, simd);
        else q3_k_block_ref(x + i * QK_K, y + i * LGG__TS_Q3_K, simd);
    }
}

/* ==== Q4_K / Q5_K: d, dmin, scales[12] (8 six-bit scales and mins) ==== */
static void k4_get(int j, const uint8_t *q, uint8_t *d, uint8_t *m) {
    if (j < 4) {
        *d = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *d = (uint8_t)((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        *m = (uint8_t)((q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4));
    }
}

static void k4_put(uint8_t *sc, int j, uint8_t ls, uint8_t lm) {
    if (j < 4) {
        sc[j] = ls;
        sc[j + 4] = lm;
    } else {
        sc[j + 4] = (uint8_t)((ls & 0xF) | ((lm & 0xF) << 4));
        sc[j - 4] |= (uint8_t)((ls >> 4) << 6);
        sc[j - 0] |= (uint8_t)((lm >> 4) << 6);
    }
}

/* reference scales for Q4_K (nmax 15) and Q5_K (nmax 31) of nsb (1 to
 * K45_NSB) consecutive super-blocks (blocks of bs bytes at b): writes d,
 * dmin, scales; two at a time keep 16 sub-block searches in flight (AVX2),
 * four 32 (AVX-512) */
#define K45_NSB 4
static void k45_scales_ref(const float *x, uint8_t *b, size_t bs, int nsb, uint8_t *L, int nmax, float rmin,
                           int nstep, bool simd) {
    float mins[K45_NSB * QK_K / 32], scales[K45_NSB * QK_K / 32];
    qkx2_batch(nsb * QK_K / 32, 32, nmax, x, LGG__QW_AVABS, L, scales, mins, rmin, nstep, false, simd);
    for (int k = 0; k < nsb; k++, b += bs) {
        const float *sk = scales + k * QK_K / 32, *mk = mins + k * QK_K / 32;
        float max_scale = 0, max_min = 0;
        for (int j = 0; j < QK_K / 32; j++) {
            if (sk[j] > max_scale) max_scale = sk[j];
            if (mk[j] > max_min) max_min = mk[j];
        }
        const float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
        const float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
        for (int j = 0; j < QK_K / 32; j++) {
            uint8_t ls = (uint8_t)lgg__nearest_int(inv_scale * sk[j]);
            uint8_t lm = (uint8_t)lgg__nearest_int(inv_min * mk[j]);
            ls = ls < 63 ? ls : 63;
            lm = lm < 63 ? lm : 63;
            k4_put(b + 4, j, ls, lm);
        }
        lgg__put_f16(b, max_scale / 63.f);
        lgg__put_f16(b + 2, max_min / 63.f);
    }
}

static void k45_scales_imatrix(const float *x, uint8_t *b, uint8_t *L, int nmax, const float *qw, bool simd) {
    uint8_t Ls[QK_K / 32], Lm[QK_K / 32];
    float w[QK_K], sw[QK_K / 32], mins[QK_K / 32], scales[QK_K / 32];
    float sum_x2 = 0;
    for (int l = 0; l < QK_K; l++) sum_x2 += x[l] * x[l];
    const float sigma2 = 2 * sum_x2 / QK_K;
    const float av_x = sqrtf(sigma2);
    for (int j = 0; j < QK_K / 32; j++) {
        float *wj = w + 32 * j;
        if (qw) {
            const float *q = qw + 32 * j;
            for (int l = 0; l < 32; l++) wj[l] = q[l] * sqrtf(sigma2 + x[32 * j + l] * x[32 * j + l]);
        } else {
            for (int l = 0; l < 32; l++) wj[l] = av_x + fabsf(x[32 * j + l]);
        }
        float sumw = 0;
        for (int l = 0; l < 32; l++) sumw += wj[l];
        sw[j] = sumw;
    }
    lgg__qkx3_batch(QK_K / 32, 32, nmax, x, w, L, scales, mins, simd);
    const float d_block = lgg__make_qp_quants(QK_K / 32, 63, scales, Ls, sw);
    const float m_block = lgg__make_qp_quants(QK_K / 32, 63, mins, Lm, sw);
    for (int j = 0; j < QK_K / 32; j++) {
        const uint8_t ls = Ls[j] < 63 ? Ls[j] : 63, lm = Lm[j] < 63 ? Lm[j] : 63;
        k4_put(b + 4, j, ls, lm);
    }
    lgg__put_f16(b, d_block);
    lgg__put_f16(b + 2, m_block);
}

/* final codes from the stored (rounded) scales */
static void k45_requant(const float *x, const uint8_t *b, uint8_t *L, int nmax, bool simd) {
    const float dd = lgg__get_f16(b), dmin = lgg__get_f16(b + 2);
    (void)simd; /* only the x86 build has the vector path */
    for (int j = 0; j < QK_K / 32; j++) {
        uint8_t sc, m;
        k4_get(j, b + 4, &sc, &m);
        const float d = dd * (float)sc;
        if (d == 0.0f) continue;
        const float dm = dmin * (float)m;
#if defined(LGG__QX86)
        if (simd) {
            lgg__requant32_avx2(x + 32 * j, d, dm, nmax, L + 32 * j);
            continue;
        }
#endif
        for (int ii = 0; ii < 32; ii++)
            L[32 * j + ii] = (uint8_t)clampi(lgg__nearest_int((x[32 * j + ii] + dm) / d), 0, nmax);
    }
}

static void q4_k_pack(const uint8_t *L, uint8_t *q) {
    for (int j = 0; j < QK_K; j += 64) {
        for (int l = 0; l < 32; l++) q[l] = (uint8_t)(L[j + l] | (L[j + l + 32] << 4));
        q += 32;
    }
}

/* Q5_K: d, dmin, scales[12], qh[32], qs[128] */
static void q5_k_pack(const uint8_t *L, uint8_t *qh, uint8_t *ql) {
    memset(qh, 0, QK_K / 8);
    uint8_t m1 = 1, m2 = 2;
    for (int n = 0; n < QK_K; n += 64) {
        for (int j = 0; j < 32; j++) {
            int l1 = L[n + j], l2 = L[n + j + 32];
            if (l1 > 15) {
                l1 -= 16;
                qh[j] |= m1;
            }
            if (l2 > 15) {
                l2 -= 16;
                qh[j] |= m2;
            }
            ql[j] = (uint8_t)(l1 | (l2 << 4));
        }
        m1 = (uint8_t)(m1 << 2);
        m2 = (uint8_t)(m2 << 2);
        ql += 32;
    }
}

/* Q4_K (nmax 15, bs 144) and Q5_K (nmax 31, bs 176) rows */
static void qrow_k45(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd, int nmax, size_t bs) {
    uint8_t L[K45_NSB * QK_K];
    const int64_t nb = n / QK_K;
    int most = 1; /* super-blocks per scale search */
#if defined(LGG__QX86)
    simd = simd && lgg__cpu_avx2_f16c();
    if (simd && !qw) most = lgg__cpu_avx512() ? K45_NSB : 2;
#else
    simd = false;
#endif
    for (int64_t i = 0; i < nb;) {
        const int nsb = nb - i < most ? (int)(nb - i) : most;
        const float *xb = x + i * QK_K;
        uint8_t *b = y + i * (int64_t)bs;
        if (qw) k45_scales_imatrix(xb, b, L, nmax, qw + i * QK_K, simd);
        else if (nmax == 15) k45_scales_ref(xb, b, bs, nsb, L, 15, -1.f, 20, simd);
        else k45_scales_ref(xb, b, bs, nsb, L, 31, -0.5f, 15, simd);
        for (int k = 0; k < nsb; k++, xb += QK_K, b += bs) {
            k45_requant(xb, b, L + k * QK_K, nmax, simd);
            if (nmax == 15) q4_k_pack(L + k * QK_K, b + 16);
            else q5_k_pack(L + k * QK_K, b + 16, b + 48);
        }
        i += nsb;
    }
}

void lgg__qrow_q4_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    qrow_k45(x, y, n, qw, simd, 15, 144);
}

void lgg__qrow_q5_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    qrow_k45(x, y, n, qw, simd, 31, 176);
}

/* ==== Q6_K: ql[128], qh[64], scales[16] (int8), d ==== */
void lgg__qrow_q6_k_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    int8_t L[QK_K];
    float scales[QK_K / 16];
#if defined(LGG__QX86)
    simd = simd && lgg__cpu_avx2_f16c();
#else
    (void)simd; /* no SIMD quantizer on this architecture */
#endif
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float *xb = x + i * QK_K;
        uint8_t *b = y + i * LGG__TS_Q6_K;
        float max_scale = 0, max_abs = 0;
        int jb = 0;
#if defined(LGG__QX86)
        if (simd) {
            const float *const xs[2] = {xb, xb + 128};
            const float *const ws[2] = {qw ? qw + i * QK_K : NULL, qw ? qw + i * QK_K + 128 : NULL};
            int8_t *const Ls[2] = {L, L + 128};
            float *const ss[2] = {scales, scales + 8};
            if (lgg__cpu_avx512()) lgg__qx1_x16_avx512(16, 32, xs, ws, Ls, ss);
            else lgg__qx1_x16_avx2(16, 32, xs, ws, Ls, ss);
            jb = QK_K / 16;
        }
#endif
        for (; jb < QK_K / 16; jb++) {
            const float *q = qw ? qw + i * QK_K + 16 * jb : NULL;
            scales[jb] = lgg__make_qx_quants(16, 32, xb + 16 * jb, L + 16 * jb, 1, q);
        }
        for (jb = 0; jb < QK_K / 16; jb++) {
            const float s = scales[jb];
            if (fabsf(s) > max_abs) {
                max_abs = fabsf(s);
                max_scale = s;
            }
        }
        if (max_abs < EPS_GROUP) {
            memset(b, 0, 210);
            continue;
        }
        const float iscale = -128.f / max_scale;
        lgg__put_f16(b + LGG__Q6_K_D, 1 / iscale);
        int8_t *sc = (int8_t *)(b + 192);
        for (int ib = 0; ib < QK_K / 16; ib++) sc[ib] = (int8_t)imin(127, lgg__nearest_int(iscale * scales[ib]));
        const float dd = lgg__get_f16(b + LGG__Q6_K_D);
        for (int j = 0; j < QK_K / 16; j++) {
            const float d = dd * (float)sc[j];
            if (d == 0.0f) continue;
#if defined(LGG__QX86)
            if (simd) {
                lgg__requant16_avx2(xb + 16 * j, d, 32, L + 16 * j);
                continue;
            }
#endif
            for (int ii = 0; ii < 16; ii++)
                L[16 * j + ii] = (int8_t)(clampi(lgg__nearest_int(xb[16 * j + ii] / d), -32, 31) + 32);
        }
        uint8_t *ql = b, *qh = b + 128;
#if defined(LGG__QX86)
        if (simd) {
            lgg__q6_k_pack_avx2(L, ql, qh);
            continue;
        }
#endif
        for (int j = 0; j < QK_K; j += 128) {
            for (int l = 0; l < 32; l++) {
                const uint8_t q1 = L[j + l] & 0xF, q2 = L[j + l + 32] & 0xF;
                const uint8_t q3 = L[j + l + 64] & 0xF, q4 = L[j + l + 96] & 0xF;
                ql[l] = (uint8_t)(q1 | (q3 << 4));
                ql[l + 32] = (uint8_t)(q2 | (q4 << 4));
                qh[l] = (uint8_t)((L[j + l] >> 4) | ((L[j + l + 32] >> 4) << 2) | ((L[j + l + 64] >> 4) << 4) |
                                  ((L[j + l + 96] >> 4) << 6));
            }
            ql += 64;
            qh += 32;
        }
    }
}
