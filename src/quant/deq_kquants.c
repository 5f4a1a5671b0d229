/* deq_kquants.c -- the 256-value "K" super-block formats.
 *
 * Sub-block scales are small integers times a half-precision super-block
 * scale; ggml first forms the float sub-block scale (d * sc) and then
 * multiplies each code by it, subtracting the float sub-block min (dmin * m)
 * as a separate rounding.  Kept in that order here. */
#include "quant/deq.h"

/* Q2_K, 84 bytes:
 *
 *   scales[16]  per 16-value sub-block: low nibble scale, high nibble min
 *   qs[64]      2-bit codes; two halves of 32 bytes, each covering 128
 *               values: bit pair s of byte l is value 32*s + l
 *   d, dmin     f16 (offset 80, 82)
 *
 * The sub-blocks of a half run: bytes 0-15 pair s, bytes 16-31 pair s, ... */
void lgg__deq_q2_k(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q2_K) {
        const uint8_t *sc = src, *q = src + 16;
        const float d = lgg__half(src + LGG__Q2_K_D), dmin = lgg__half(src + LGG__Q2_K_D + 2);
        int is = 0;
        for (int half = 0; half < 2; half++, q += 32) {
            for (int shift = 0; shift < 8; shift += 2) {
                for (int part = 0; part < 2; part++, is++) {
                    const float dl = d * (float)(sc[is] & 0xF);
                    const float ml = dmin * (float)(sc[is] >> 4);
                    const uint8_t *qq = q + 16 * part;
                    for (int l = 0; l < 16; l++) *dst++ = dl * (float)((qq[l] >> shift) & 3) - ml;
                }
            }
        }
    }
}

/* Q3_K, 110 bytes:
 *
 *   hmask[32]   high (third) bit: bit k of byte l is value 32*k + l;
 *               a CLEAR bit subtracts 4
 *   qs[64]      low 2 bits, laid out as Q2_K
 *   scales[12]  sixteen 6-bit scales, biased by 32 (see lgg__q3k_scales)
 *   d           f16 (offset 108) */
void lgg__deq_q3_k(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q3_K) {
        const uint8_t *hm = src, *q = src + 32;
        const float d = lgg__half(src + LGG__Q3_K_D);
        int8_t scales[16];
        lgg__q3k_scales(src + 96, scales);
        int is = 0;
        uint8_t bit = 1;
        for (int half = 0; half < 2; half++, q += 32) {
            for (int shift = 0; shift < 8; shift += 2, bit = (uint8_t)(bit << 1)) {
                for (int part = 0; part < 2; part++, is++) {
                    const float dl = d * (float)(scales[is] - 32);
                    const uint8_t *qq = q + 16 * part, *hh = hm + 16 * part;
                    for (int l = 0; l < 16; l++) {
                        int v = ((qq[l] >> shift) & 3) - ((hh[l] & bit) ? 0 : 4);
                        *dst++ = dl * (float)v;
                    }
                }
            }
        }
    }
}

/* Q4_K, 144 bytes:
 *
 *   d, dmin     f16
 *   scales[12]  eight 6-bit scales and eight 6-bit mins (lgg__k4_scale_min)
 *   qs[128]     four 32-byte chunks of 64 values: low nibbles are the first
 *               32, high nibbles the next 32 */
void lgg__deq_q4_k(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_K) {
        const float d = lgg__half(src), dmin = lgg__half(src + 2);
        const uint8_t *s = src + 4, *q = src + 16;
        for (int j = 0; j < 8; j += 2, q += 32) {
            uint8_t sc, m;
            lgg__k4_scale_min(j, s, &sc, &m);
            const float d1 = d * (float)sc, m1 = dmin * (float)m;
            lgg__k4_scale_min(j + 1, s, &sc, &m);
            const float d2 = d * (float)sc, m2 = dmin * (float)m;
            for (int l = 0; l < 32; l++) *dst++ = d1 * (float)(q[l] & 0xF) - m1;
            for (int l = 0; l < 32; l++) *dst++ = d2 * (float)(q[l] >> 4) - m2;
        }
    }
}

/* Q5_K, 176 bytes:  d, dmin (f16) | scales[12] as Q4_K | qh[32] | qs[128]
 * qs as Q4_K; the fifth bit of value 32*k + l is bit k of qh[l]. */
void lgg__deq_q5_k(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_K) {
        const float d = lgg__half(src), dmin = lgg__half(src + 2);
        const uint8_t *s = src + 4, *qh = src + 16, *q = src + 48;
        for (int j = 0; j < 8; j += 2, q += 32) {
            uint8_t sc, m;
            lgg__k4_scale_min(j, s, &sc, &m);
            const float d1 = d * (float)sc, m1 = dmin * (float)m;
            lgg__k4_scale_min(j + 1, s, &sc, &m);
            const float d2 = d * (float)sc, m2 = dmin * (float)m;
            for (int l = 0; l < 32; l++)
                *dst++ = d1 * (float)((q[l] & 0xF) + (((qh[l] >> j) & 1) << 4)) - m1;
            for (int l = 0; l < 32; l++)
                *dst++ = d2 * (float)((q[l] >> 4) + (((qh[l] >> (j + 1)) & 1) << 4)) - m2;
        }
    }
}

/* Q6_K, 210 bytes:
 *
 *   ql[128]     low 4 bits; per 128-value half: bytes 0-31 low nibble are
 *               values 0-31, bytes 32-63 low nibble 32-63, bytes 0-31 high
 *               nibble 64-95, bytes 32-63 high nibble 96-127
 *   qh[64]      high 2 bits; per half, bit pair k of byte l is value 32k + l
 *   scales[16]  int8, one per 16 values
 *   d           f16 (offset 208)
 * Codes are biased by 32.  ggml computes (d * scale) * code. */
void lgg__deq_q6_k(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q6_K) {
        const float d = lgg__half(src + LGG__Q6_K_D);
        const uint8_t *ql = src, *qh = src + 128;
        const int8_t *sc = (const int8_t *)(src + 192);
        for (int half = 0; half < 2; half++, ql += 64, qh += 32, sc += 8, dst += 128) {
            for (int l = 0; l < 32; l++) {
                const int is = l / 16;
                const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                dst[l] = d * (float)sc[is] * (float)q1;
                dst[l + 32] = d * (float)sc[is + 2] * (float)q2;
                dst[l + 64] = d * (float)sc[is + 4] * (float)q3;
                dst[l + 96] = d * (float)sc[is + 6] * (float)q4;
            }
        }
    }
}

/* Q8_K, 292 bytes:  d (f32) | qs[256] (int8) | bsums[16] (int16, unused) */
void lgg__deq_q8_k(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_K) {
        float d;
        memcpy(&d, src, 4);
        for (int j = 0; j < 256; j++) *dst++ = d * (float)(int8_t)src[4 + j];
    }
}
