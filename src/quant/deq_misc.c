/* deq_misc.c -- plain types (one element per "block"), ternary, FP4 and the
 * 1- and 2-bit Q1_0/Q2_0 formats.
 *
 * Plain integer and f64 types convert by value (ggml has no to_float for
 * them; this is what a cast does, rounding to nearest-even). */
#include "quant/deq.h"
#include "quant/iq_tables.h"

void lgg__deq_f32(const uint8_t *restrict src, float *restrict dst, size_t nb) { memcpy(dst, src, nb * 4); }

void lgg__deq_f16(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++) dst[i] = lgg_f16_to_f32(lgg__h16(src + 2 * i));
}

void lgg__deq_bf16(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++) dst[i] = lgg_bf16_to_f32(lgg__h16(src + 2 * i));
}

void lgg__deq_f64(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++) {
        double v;
        memcpy(&v, src + 8 * i, 8);
        dst[i] = (float)v;
    }
}

void lgg__deq_i8(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++) dst[i] = (float)(int8_t)src[i];
}

void lgg__deq_i16(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++) dst[i] = (float)(int16_t)lgg__h16(src + 2 * i);
}

void lgg__deq_i32(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++) dst[i] = (float)(int32_t)lgg__h32(src + 4 * i);
}

void lgg__deq_i64(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++) {
        int64_t v;
        memcpy(&v, src + 8 * i, 8);
        dst[i] = (float)v;
    }
}

/* TQ1_0, 54 bytes, 256 ternary values in {-1,0,+1} times d:
 *
 *   qs[48]  base-3 digits packed 5 per byte as a fixed-point fraction
 *           (byte = ceil(v * 256 / 243)); bytes 0-31 hold values 0-159
 *           (32 per digit), bytes 32-47 values 160-239 (16 per digit)
 *   qh[4]   4 digits per byte, values 240-255
 *   d       f16 scale (offset 52)
 *
 * Digit n of a byte is recovered by multiplying by 3^n (mod 256), which
 * shifts the fraction left, then taking the integer part of *3. */
static inline float tq1_digit(uint8_t b, uint8_t pow3, float d) {
    uint8_t q = (uint8_t)(b * pow3);
    int xi = ((uint16_t)q * 3) >> 8;
    return (float)(xi - 1) * d;
}

void lgg__deq_tq1_0(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    static const uint8_t pow3[5] = {1, 3, 9, 27, 81};
    for (size_t i = 0; i < nb; i++, src += LGG__TS_TQ1_0) {
        const uint8_t *qs = src, *qh = src + 48;
        const float d = lgg__half(src + LGG__TQ1_0_D);
        for (int n = 0; n < 5; n++)
            for (int m = 0; m < 32; m++) *dst++ = tq1_digit(qs[m], pow3[n], d);
        for (int n = 0; n < 5; n++)
            for (int m = 0; m < 16; m++) *dst++ = tq1_digit(qs[32 + m], pow3[n], d);
        for (int n = 0; n < 4; n++)
            for (int m = 0; m < 4; m++) *dst++ = tq1_digit(qh[m], pow3[n], d);
    }
}

/* TQ2_0, 66 bytes: qs[64] holds 2-bit codes (q-1 in {-1,0,1,2}); within each
 * 32-byte group, bit pair l of byte m is value 32*l + m; d (f16) at 64. */
void lgg__deq_tq2_0(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_TQ2_0) {
        const float d = lgg__half(src + LGG__TQ2_0_D);
        for (int j = 0; j < 64; j += 32)
            for (int l = 0; l < 4; l++)
                for (int m = 0; m < 32; m++) *dst++ = (float)(((src[j + m] >> (2 * l)) & 3) - 1) * d;
    }
}

/* MXFP4, 17 bytes, 32 values:
 *
 *   e       E8M0 shared exponent (byte 0)
 *   qs[16]  E2M1 codes: low nibble of byte j is value j, high nibble j+16
 *
 * The table holds the E2M1 values doubled, so the scale is halved. */
void lgg__deq_mxfp4(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_MXFP4, dst += 32) {
        const float d = lgg__e8m0_half(src[0]);
        const uint8_t *qs = src + 1;
        for (int j = 0; j < 16; j++) {
            dst[j] = (float)lgg__kvalues_fp4[qs[j] & 0xF] * d;
            dst[j + 16] = (float)lgg__kvalues_fp4[qs[j] >> 4] * d;
        }
    }
}

/* NVFP4, 36 bytes, 64 values in four sub-blocks of 16:
 *
 *   d[4]    UE4M3 scale per sub-block
 *   qs[32]  E2M1 codes; sub-block s uses bytes 8s..8s+7, low nibbles first
 *           half, high nibbles second half */
void lgg__deq_nvfp4(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_NVFP4) {
        for (int s = 0; s < 4; s++, dst += 16) {
            const float d = lgg__ue4m3_half(src[s]);
            const uint8_t *qs = src + 4 + 8 * s;
            for (int j = 0; j < 8; j++) {
                dst[j] = (float)lgg__kvalues_fp4[qs[j] & 0xF] * d;
                dst[j + 8] = (float)lgg__kvalues_fp4[qs[j] >> 4] * d;
            }
        }
    }
}

/* Q1_0, 18 bytes, 128 values: d (f16), then one bit per value, LSB first;
 * a set bit is +d, a clear one -d. */
void lgg__deq_q1_0(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q1_0, dst += 128) {
        /* indexed rather than a conditional: random bits would mispredict */
        const float d = lgg__half(src);
        const float pm[2] = {-d, d};
        for (int j = 0; j < 128; j++) dst[j] = pm[(src[2 + j / 8] >> (j % 8)) & 1];
    }
}

/* Q2_0, 18 bytes, 64 values: d (f16), then 2-bit codes four per byte, low
 * pair first; code q means (q-1)*d, i.e. {-1,0,+1,+2}. */
void lgg__deq_q2_0(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q2_0, dst += 64) {
        const float d = lgg__half(src);
        for (int j = 0; j < 64; j++) dst[j] = (float)(((src[2 + j / 4] >> (2 * (j % 4))) & 3) - 1) * d;
    }
}
