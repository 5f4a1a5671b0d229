/* quant_misc.c -- ternary (TQ1_0, TQ2_0), FP4 (MXFP4, NVFP4), the 1- and
 * 2-bit sign/scale formats (Q1_0, Q2_0) and the non-linear 4-bit formats
 * (IQ4_NL, IQ4_XS).  Only IQ4_NL and IQ4_XS use importance weights; ggml
 * always runs their weighted search (7 trial scales each side), with x^2 as
 * weights when there is no imatrix. */
#include "quant/quant_internal.h"
#include "quant/iq_tables.h"
#include "quant/deq.h"

#define QK_K LGG__QK_K

static float absmax_n(const float *x, int n) {
    float amax = 0.0f;
    for (int j = 0; j < n; j++) {
        const float a = fabsf(x[j]);
        amax = amax > a ? amax : a;
    }
    return amax;
}

/* ---- TQ1_0: qs[48] (5 trits a byte), qh[4] (4 trits a byte), d ---- */
static inline int trit(float v, float id) { return (int)lroundf(v * id) + 1; }

/* five (or four, then shifted) base-3 digits as a fixed-point fraction of 256 */
static inline uint8_t trits_to_byte(unsigned q) { return (uint8_t)(((uint16_t)q * 256 + (243 - 1)) / 243); }

void lgg__qrow_tq1_0(const float *x, uint8_t *y, int64_t n, const float *qw) {
    (void)qw;
    for (int64_t i = 0; i < n / QK_K; i++) {
        uint8_t *b = y + i * LGG__TS_TQ1_0;
        const float d = absmax_n(x, QK_K);
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        lgg__put_f16(b + LGG__TQ1_0_D, d);
        for (int m = 0; m < 32; m++) {
            uint8_t q = 0;
            for (int k = 0; k < 5; k++) q = (uint8_t)(q * 3 + trit(x[m + k * 32], id));
            b[m] = trits_to_byte(q);
        }
        x += 160;
        for (int m = 0; m < 16; m++) {
            uint8_t q = 0;
            for (int k = 0; k < 5; k++) q = (uint8_t)(q * 3 + trit(x[m + k * 16], id));
            b[32 + m] = trits_to_byte(q);
        }
        x += 80;
        for (int j = 0; j < 4; j++) {
            uint8_t q = 0;
            for (int m = 0; m < 4; m++) q = (uint8_t)(q * 3 + trit(x[j + m * 4], id));
            q = (uint8_t)(q * 3);
            b[48 + j] = trits_to_byte(q);
        }
        x += 16;
    }
}

/* ---- TQ2_0: qs[64] (four 2-bit codes a byte, stride 32), d ---- */
void lgg__qrow_tq2_0(const float *x, uint8_t *y, int64_t n, const float *qw) {
    (void)qw;
    for (int64_t i = 0; i < n / QK_K; i++) {
        uint8_t *b = y + i * LGG__TS_TQ2_0;
        const float d = absmax_n(x, QK_K);
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        lgg__put_f16(b + LGG__TQ2_0_D, d);
        for (int j = 0; j < 64; j += 32) {
            for (int m = 0; m < 32; m++) {
                uint8_t q = 0;
                for (int k = 0; k < 4; k++) q = (uint8_t)(q + ((trit(x[m + k * 32], id) & 3) << (2 * k)));
                b[j + m] = q;
            }
            x += 128;
        }
    }
}

/* ---- FP4: nearest of the 16 doubled E2M1 values times e ---- */
static inline int fp4_index(float x, float e) {
    int best = 0;
    float best_err = fabsf((float)lgg__kvalues_fp4[0] * e - x);
    for (int i = 1; i < 16; i++) {
        const float err = fabsf((float)lgg__kvalues_fp4[i] * e - x);
        if (err < best_err) {
            best = i;
            best_err = err;
        }
    }
    return best;
}

/* the largest |x| of n values (16 or 32), NaNs skipped */
static float fp4_absmax(const float *x, int n, bool simd) {
#if defined(LGG__QX86)
    if (simd) return lgg__absmax_avx2(x, n);
#endif
    (void)simd;
    float amax = 0.0f;
    for (int j = 0; j < n; j++)
        if (amax < fabsf(x[j])) amax = fabsf(x[j]);
    return amax;
}

/* the codes of n (16 or 32) values, byte j holding values j and j + n/2 */
static void fp4_codes(const float *x, int n, float d, uint8_t *q, bool simd) {
#if defined(LGG__QX86)
    if (simd) {
        lgg__fp4_codes_avx2(x, n, d, q);
        return;
    }
#endif
    (void)simd;
    for (int j = 0; j < n / 2; j++) q[j] = (uint8_t)(fp4_index(x[j], d) | (fp4_index(x[j + n / 2], d) << 4));
}

/* MXFP4: e (E8M0), qs[16] */
void lgg__qrow_mxfp4_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    (void)qw;
    simd = simd && lgg__cpu_avx2_f16c();
#if defined(LGG__QX86)
    if (simd) {
        lgg__qrow_mxfp4_avx2(x, y, n);
        return;
    }
#endif
    for (int64_t ib = 0; ib < n / 32; ib++) {
        const float *xb = x + ib * 32;
        uint8_t *b = y + ib * LGG__TS_MXFP4;
        const float amax = fp4_absmax(xb, 32, simd);
        const uint8_t e = lgg__mxfp4_e8m0(amax);
        b[0] = e;
        fp4_codes(xb, 32, lgg__e8m0_half(e), b + 1, simd);
    }
}

static uint8_t to_ue4m3(float v) {
    if (!(v > 0.0f)) return 0;
    if (v > 448.0f) v = 448.0f;
    uint32_t bits;
    memcpy(&bits, &v, 4);
    int ex = (int)((bits >> 23) & 0xFF) - 127 + 7;
    const int man = (bits >> 20) & 7;
    if (ex <= 0) {
        int m = lgg__f2i(v * 512.0f + 0.5f);
        if (m > 7) m = 7;
        return m < 1 ? 0 : (uint8_t)m;
    }
    if (ex >= 15) return 0x7E;
    int mr = man + (int)((bits >> 19) & 1);
    if (mr > 7) {
        mr = 0;
        if (++ex >= 15) return 0x7E;
    }
    return (uint8_t)((ex << 3) | mr);
}

/* NVFP4: d[4] (UE4M3 per 16 values), qs[32] */
void lgg__qrow_nvfp4_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    (void)qw;
    simd = simd && lgg__cpu_avx2_f16c();
    for (int64_t ib = 0; ib < n / 64; ib++) {
        uint8_t *b = y + ib * LGG__TS_NVFP4;
        for (int s = 0; s < 4; s++) {
            const float *xb = x + ib * 64 + s * 16;
            const float amax = fp4_absmax(xb, 16, simd);
            const uint8_t ue = to_ue4m3(amax / 6.0f);
            b[s] = ue;
            fp4_codes(xb, 16, lgg__ue4m3_half(ue), b + 4 + s * 8, simd); /* deq.h: exact, as ggml's ldexpf form */
        }
    }
}

/* ---- Q1_0: d = mean |x| (f16), one sign bit per value (1 = non-negative) ---- */
void lgg__qrow_q1_0(const float *x, uint8_t *y, int64_t n, const float *qw) {
    (void)qw;
    for (int64_t ib = 0; ib < n / 128; ib++) {
        const float *xb = x + ib * 128;
        uint8_t *b = y + ib * LGG__TS_Q1_0;
        float sum = 0.0f;
        for (int j = 0; j < 128; j++) sum += fabsf(xb[j]);
        lgg__put_f16(b, sum / 128);
        memset(b + 2, 0, 16);
        for (int j = 0; j < 128; j++)
            if (xb[j] >= 0.0f) b[2 + j / 8] |= (uint8_t)(1u << (j % 8));
    }
}

/* ---- Q2_0: d = max |x|, codes round(x/d)+1 clamped to 0..3 ---- */
void lgg__qrow_q2_0(const float *x, uint8_t *y, int64_t n, const float *qw) {
    (void)qw;
    for (int64_t ib = 0; ib < n / 64; ib++) {
        const float *xb = x + ib * 64;
        uint8_t *b = y + ib * LGG__TS_Q2_0;
        float amax = 0.0f;
        for (int j = 0; j < 64; j++)
            if (fabsf(xb[j]) > amax) amax = fabsf(xb[j]);
        const float d = amax;
        const float id = d > 0.0f ? 1.0f / d : 0.0f;
        lgg__put_f16(b, d);
        memset(b + 2, 0, 16);
        for (int j = 0; j < 64; j++) {
            int q = lgg__f2i(roundf(xb[j] * id)) + 1;
            q = q < 0 ? 0 : q > 3 ? 3 : q;
            b[2 + j / 4] |= (uint8_t)(q << ((j % 4) * 2));
        }
    }
}

/* ---- IQ4_NL / IQ4_XS: non-linear 4-bit levels per 32 values ----
 * A super-block of `sbs` values (32 for NL, 256 for XS) in blocks of 32: each
 * block's scale is searched (iq4_block_scale; the AVX2 kernel runs 8 blocks
 * in lanes), then the super-block's f16 scale, (XS) the 6-bit block scales
 * and the codes follow from them (iq4_finish). */
#define IQ4_NTRY 7

/* weights of one block: imatrix * sqrt(sigma2 + x^2), or x^2 */
static void iq4_weights(const float *xb, const float *q, float sigma2, float *weight) {
    if (q)
        for (int j = 0; j < 32; j++) weight[j] = q[j] * sqrtf(sigma2 + xb[j] * xb[j]);
    else
        for (int j = 0; j < 32; j++) weight[j] = xb[j] * xb[j];
}

static float iq4_sigma2(const float *x, int sbs) {
    float sigma2 = 0;
    for (int j = 0; j < sbs; j++) sigma2 += x[j] * x[j];
    return sigma2 * (2.f / (float)sbs);
}

/* the scale of one block of 32 with its weights (0 for a near-zero block) */
static float iq4_block_scale(const float *xb, const float *weight) {
    const int8_t *values = lgg__kvalues_iq4nl;
    float amax = 0, max = 0;
    for (int j = 0; j < 32; j++) {
        const float a = fabsf(xb[j]);
        if (a > amax) {
            amax = a;
            max = xb[j];
        }
    }
    if (amax < 1e-15f) return 0;
    float d = -max / (float)values[0];
    float id = 1 / d;
    float sumqx = 0, sumq2 = 0;
    for (int j = 0; j < 32; j++) {
        const int l = lgg__best_index_i8(16, values, id * xb[j]);
        const float q = (float)values[l], w = weight[j];
        sumqx += w * q * xb[j];
        sumq2 += w * q * q;
    }
    d = sumq2 > 0 ? sumqx / sumq2 : 0.f;
    float best = d * sumqx;
    for (int t = -IQ4_NTRY; t <= IQ4_NTRY; t++) {
        id = (float)(t + values[0]) / max;
        sumqx = sumq2 = 0;
        for (int j = 0; j < 32; j++) {
            const int l = lgg__best_index_i8(16, values, id * xb[j]);
            const float q = (float)values[l], w = weight[j];
            sumqx += w * q * xb[j];
            sumq2 += w * q * q;
        }
        if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
            d = sumqx / sumq2;
            best = d * sumqx;
        }
    }
    return d;
}

/* codes of 32 values at scale 1/id, packed in nibble pairs (j, j+16) */
static void iq4_codes(const float *xb, float id, uint8_t *q4, bool simd) {
#if defined(LGG__QX86)
    if (simd) {
        lgg__iq4_codes_avx2(xb, id, q4);
        return;
    }
#endif
    (void)simd;
    uint8_t L[32];
    for (int j = 0; j < 32; j++) L[j] = (uint8_t)lgg__best_index_i8(16, lgg__kvalues_iq4nl, id * xb[j]);
    for (int j = 0; j < 16; j++) q4[j] = (uint8_t)(L[j] | (L[16 + j] << 4));
}

/* from the block scales to the stored super-block */
static void iq4_finish(int sbs, const float *x, const float *scales, uint8_t *dh, uint8_t *q4, uint8_t *scales_h,
                       uint8_t *scales_l, bool simd) {
    const int nblk = sbs / 32;
    float max_scale = 0, amax_scale = 0;
    for (int ib = 0; ib < nblk; ib++)
        if (fabsf(scales[ib]) > amax_scale) {
            amax_scale = fabsf(scales[ib]);
            max_scale = scales[ib];
        }
    if (nblk > 1) {
        memset(scales_h, 0, 2);
        const float d = -max_scale / 32;
        lgg__put_f16(dh, d);
        const float id = d != 0.0f ? 1 / d : 0.f;
        uint16_t sh = 0;
        for (int ib = 0; ib < nblk; ib++) {
            int l = lgg__nearest_int(id * scales[ib]);
            l = l < -32 ? -32 : l > 31 ? 31 : l;
            const float dl = d * (float)l;
            const float idl = dl != 0.0f ? 1 / dl : 0.f;
            iq4_codes(x + ib * 32, idl, q4 + 16 * ib, simd);
            l += 32;
            const uint8_t lo = (uint8_t)(l & 0xf), hi = (uint8_t)(l >> 4);
            if (ib % 2 == 0) scales_l[ib / 2] = lo;
            else scales_l[ib / 2] |= (uint8_t)(lo << 4);
            sh |= (uint16_t)(hi << 2 * (ib % 8));
        }
        lgg__put16(scales_h, sh);
    } else {
        lgg__put_f16(dh, scales[0]);
        const float id = scales[0] != 0.0f ? 1 / scales[0] : 0;
        iq4_codes(x, id, q4, simd);
    }
}

/* block scales of nblk consecutive blocks; sigma2 per super-block of sbs */
static void iq4_scales(int nblk, int sbs, const float *x, const float *qw, float *scales, bool simd) {
    float weight[8 * 32], sigma2 = 0;
    int ib = 0, sb_done = -1;
    /* the sigma^2 of block k's super-block (formed once per super-block) */
#define IQ4_SIGMA2(k)                                                                                                  \
    do {                                                                                                               \
        const int sb_ = (k) * 32 / sbs;                                                                                \
        if (qw && sb_ != sb_done) {                                                                                    \
            sigma2 = iq4_sigma2(x + sb_ * sbs, sbs);                                                                   \
            sb_done = sb_;                                                                                             \
        }                                                                                                              \
    } while (0)
#if defined(LGG__QX86)
    if (simd)
        for (; ib + 8 <= nblk; ib += 8) {
            if (qw)
                for (int k = ib; k < ib + 8; k++) {
                    IQ4_SIGMA2(k);
                    iq4_weights(x + k * 32, qw + k * 32, sigma2, weight + (k - ib) * 32);
                }
            lgg__iq4_scales_x8_avx2(x + ib * 32, qw ? weight : NULL, scales + ib);
        }
#endif
    (void)simd;
    for (; ib < nblk; ib++) {
        IQ4_SIGMA2(ib);
        iq4_weights(x + ib * 32, qw ? qw + ib * 32 : NULL, sigma2, weight);
        scales[ib] = iq4_block_scale(x + ib * 32, weight);
    }
#undef IQ4_SIGMA2
}

/* IQ4_NL: d, qs[16]; each block is its own super-block, 8 searched at once */
void lgg__qrow_iq4_nl_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
#if defined(LGG__QX86)
    simd = simd && lgg__cpu_avx2_f16c();
#endif
    float scales[8];
    for (int64_t ib = 0; ib < n / 32; ib += 8) {
        const int nblk = n / 32 - ib < 8 ? (int)(n / 32 - ib) : 8;
        iq4_scales(nblk, 32, x + ib * 32, qw ? qw + ib * 32 : NULL, scales, simd);
        for (int k = 0; k < nblk; k++) {
            uint8_t *b = y + (ib + k) * 18;
            iq4_finish(32, x + (ib + k) * 32, scales + k, b, b + 2, NULL, NULL, simd);
        }
    }
}

/* IQ4_XS: d, scales_h (u16), scales_l[4], qs[128] */
void lgg__qrow_iq4_xs_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
#if defined(LGG__QX86)
    simd = simd && lgg__cpu_avx2_f16c();
#endif
    float scales[QK_K / 32];
    for (int64_t ib = 0; ib < n / QK_K; ib++) {
        uint8_t *b = y + ib * LGG__TS_IQ4_XS;
        const float *xb = x + ib * QK_K;
        iq4_scales(QK_K / 32, QK_K, xb, qw ? qw + ib * QK_K : NULL, scales, simd);
        iq4_finish(QK_K, xb, scales, b, b + 8, b + 2, b + 4, simd);
    }
}
