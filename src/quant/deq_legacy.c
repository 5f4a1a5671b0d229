/* deq_legacy.c -- the 32-value block formats Q4_0 .. Q8_1.
 *
 * Each value is (integer code) * d, or code * d + m for the "_1" variants,
 * where the integer is converted to float before the multiply, exactly as
 * ggml's reference does; the add is a separate rounding (no FMA), with the
 * product's NaN kept when both are NaN (lgg__add_nan_first). */
#include "quant/deq.h"

/* Q4_0, 18 bytes:  d (f16) | qs[16]
 * byte j of qs: low nibble is value j, high nibble value j+16; stored with
 * a +8 bias. */
void lgg__deq_q4_0(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_0, dst += 32) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2;
        for (int j = 0; j < 16; j++) {
            dst[j] = (float)((qs[j] & 0xF) - 8) * d;
            dst[j + 16] = (float)((qs[j] >> 4) - 8) * d;
        }
    }
}

/* Q4_1, 20 bytes:  d (f16) | m (f16) | qs[16], nibbles as Q4_0, unbiased. */
void lgg__deq_q4_1(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_1, dst += 32) {
        const float d = lgg__half(src), m = lgg__half(src + 2);
        const uint8_t *qs = src + 4;
        for (int j = 0; j < 16; j++) {
            dst[j] = lgg__add_nan_first((float)(qs[j] & 0xF) * d, m);
            dst[j + 16] = lgg__add_nan_first((float)(qs[j] >> 4) * d, m);
        }
    }
}

/* Q5_0, 22 bytes:  d (f16) | qh (u32, host order) | qs[16]
 * Nibbles as Q4_0; bit j of qh is the fifth bit of value j (0..31).  Codes
 * are biased by 16. */
void lgg__deq_q5_0(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_0, dst += 32) {
        const float d = lgg__half(src);
        const uint32_t qh = lgg__h32(src + 2);
        const uint8_t *qs = src + 6;
        for (int j = 0; j < 16; j++) {
            int lo = (int)(qs[j] & 0xF) | (int)(((qh >> j) & 1) << 4);
            int hi = (int)(qs[j] >> 4) | (int)(((qh >> (j + 16)) & 1) << 4);
            dst[j] = (float)(lo - 16) * d;
            dst[j + 16] = (float)(hi - 16) * d;
        }
    }
}

/* Q5_1, 24 bytes:  d (f16) | m (f16) | qh (u32) | qs[16], as Q5_0 unbiased. */
void lgg__deq_q5_1(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_1, dst += 32) {
        const float d = lgg__half(src), m = lgg__half(src + 2);
        const uint32_t qh = lgg__h32(src + 4);
        const uint8_t *qs = src + 8;
        for (int j = 0; j < 16; j++) {
            int lo = (int)(qs[j] & 0xF) | (int)(((qh >> j) & 1) << 4);
            int hi = (int)(qs[j] >> 4) | (int)(((qh >> (j + 16)) & 1) << 4);
            dst[j] = lgg__add_nan_first((float)lo * d, m);
            dst[j + 16] = lgg__add_nan_first((float)hi * d, m);
        }
    }
}

/* Q8_0, 34 bytes:  d (f16) | qs[32] (int8) */
void lgg__deq_q8_0(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_0, dst += 32) {
        const float d = lgg__half(src);
        for (int j = 0; j < 32; j++) dst[j] = (float)(int8_t)src[2 + j] * d;
    }
}

/* Q8_1, 36 bytes:  d (f16) | s (f16, d * sum of codes; not needed) | qs[32]
 * ggml has no to_float for Q8_1 (it is only a dot-product operand); the
 * values are what its quantizer encodes: code * d. */
void lgg__deq_q8_1(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_1, dst += 32) {
        const float d = lgg__half(src);
        for (int j = 0; j < 32; j++) dst[j] = (float)(int8_t)src[4 + j] * d;
    }
}
