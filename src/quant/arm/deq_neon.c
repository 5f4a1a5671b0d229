/* deq_neon.c -- AArch64 NEON kernels for the most used types: F16, BF16,
 * Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q8_1, Q4_K, Q6_K, Q8_K, IQ4_NL, IQ4_XS, MXFP4
 * (Advanced SIMD is part of every AArch64 CPU, so the dispatcher uses them
 * whenever this file is built for one; other types stay scalar there).
 *
 * Bit-identity with the scalar decoders, as for AVX2: integer codes are
 * formed exactly in integer lanes, converted to float exactly, and multiplied
 * (then, for Q4_K, a separate subtract) by the scale the reference computes
 * with the same scalar expression.  Only vmulq/vsubq: no fused multiply-add
 * intrinsics (vfmaq, vmlaq), and the build has -ffp-contract=off.  f16 goes
 * through FCVT, an exact conversion (NaNs come out quiet, as in the scalar
 * converter). */
#include "quant/deq.h"

#if defined(__ARM_NEON) && defined(__aarch64__)

#include <arm_neon.h>

#include "quant/iq_tables.h"

/* dst[0..15] = (float)v[k] * d */
static inline void st16_s8_mul(float *dst, int8x16_t v, float32x4_t d) {
    const int16x8_t a = vmovl_s8(vget_low_s8(v)), b = vmovl_high_s8(v);
    vst1q_f32(dst, vmulq_f32(vcvtq_f32_s32(vmovl_s16(vget_low_s16(a))), d));
    vst1q_f32(dst + 4, vmulq_f32(vcvtq_f32_s32(vmovl_high_s16(a)), d));
    vst1q_f32(dst + 8, vmulq_f32(vcvtq_f32_s32(vmovl_s16(vget_low_s16(b))), d));
    vst1q_f32(dst + 12, vmulq_f32(vcvtq_f32_s32(vmovl_high_s16(b)), d));
}

/* dst[0..15] = d * (float)v[k] - m */
static inline void st16_u8_mul_sub(float *dst, uint8x16_t v, float32x4_t d, float32x4_t m) {
    const uint16x8_t a = vmovl_u8(vget_low_u8(v)), b = vmovl_high_u8(v);
    vst1q_f32(dst, vsubq_f32(vmulq_f32(d, vcvtq_f32_u32(vmovl_u16(vget_low_u16(a)))), m));
    vst1q_f32(dst + 4, vsubq_f32(vmulq_f32(d, vcvtq_f32_u32(vmovl_high_u16(a))), m));
    vst1q_f32(dst + 8, vsubq_f32(vmulq_f32(d, vcvtq_f32_u32(vmovl_u16(vget_low_u16(b)))), m));
    vst1q_f32(dst + 12, vsubq_f32(vmulq_f32(d, vcvtq_f32_u32(vmovl_high_u16(b))), m));
}

/* p + m with p's NaN kept when both are NaN (lgg__add_nan_first) */
static inline float32x4_t add_nan_first(float32x4_t p, float32x4_t m) {
    return vbslq_f32(vceqq_f32(p, p), vaddq_f32(p, m), p);
}
/* dst[0..15] = (float)v[k] * d + m */
static inline void st16_u8_mul_add(float *dst, uint8x16_t v, float32x4_t d, float32x4_t m) {
    const uint16x8_t a = vmovl_u8(vget_low_u8(v)), b = vmovl_high_u8(v);
    vst1q_f32(dst, add_nan_first(vmulq_f32(vcvtq_f32_u32(vmovl_u16(vget_low_u16(a))), d), m));
    vst1q_f32(dst + 4, add_nan_first(vmulq_f32(vcvtq_f32_u32(vmovl_high_u16(a)), d), m));
    vst1q_f32(dst + 8, add_nan_first(vmulq_f32(vcvtq_f32_u32(vmovl_u16(vget_low_u16(b))), d), m));
    vst1q_f32(dst + 12, add_nan_first(vmulq_f32(vcvtq_f32_u32(vmovl_high_u16(b)), d), m));
}

/* Bits 16h..16h+15 of qh as 0x10 in bytes 0..15 (the fifth bit of Q5_0/Q5_1). */
static inline uint8x16_t qh_bits16(uint32_t qh, int h) {
    const uint8x16_t bit = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    const uint32_t w = qh >> (16 * h);
    const uint8x16_t v = vcombine_u8(vdup_n_u8((uint8_t)w), vdup_n_u8((uint8_t)(w >> 8)));
    return vandq_u8(vtstq_u8(v, bit), vdupq_n_u8(0x10));
}

static void f16_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8) {
        /* raw bits, reinterpreted: no alignment or byte-order assumption beyond the host's */
        const uint16x8_t h = vld1q_u16((const uint16_t *)(const void *)(src + 2 * i));
        vst1q_f32(dst + i, vcvt_f32_f16(vreinterpret_f16_u16(vget_low_u16(h))));
        vst1q_f32(dst + i + 4, vcvt_high_f32_f16(vreinterpretq_f16_u16(h)));
    }
    if (i < nb) lgg__deq_f16(src + 2 * i, dst + i, nb - i);
}

static void bf16_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8) {
        const uint16x8_t h = vld1q_u16((const uint16_t *)(const void *)(src + 2 * i));
        vst1q_f32(dst + i, vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 16)));
        vst1q_f32(dst + i + 4, vreinterpretq_f32_u32(vshll_high_n_u16(h, 16)));
    }
    if (i < nb) lgg__deq_bf16(src + 2 * i, dst + i, nb - i);
}

static void q4_0_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const uint8x16_t m4 = vdupq_n_u8(0x0F);
    const int8x16_t eight = vdupq_n_s8(8);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_0, dst += 32) {
        const float32x4_t d = vdupq_n_f32(lgg__half(src));
        const uint8x16_t q = vld1q_u8(src + 2);
        st16_s8_mul(dst, vsubq_s8(vreinterpretq_s8_u8(vandq_u8(q, m4)), eight), d);
        st16_s8_mul(dst + 16, vsubq_s8(vreinterpretq_s8_u8(vshrq_n_u8(q, 4)), eight), d);
    }
}

static void q4_1_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const uint8x16_t m4 = vdupq_n_u8(0x0F);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_1, dst += 32) {
        const float32x4_t d = vdupq_n_f32(lgg__half(src)), m = vdupq_n_f32(lgg__half(src + 2));
        const uint8x16_t q = vld1q_u8(src + 4);
        st16_u8_mul_add(dst, vandq_u8(q, m4), d, m);
        st16_u8_mul_add(dst + 16, vshrq_n_u8(q, 4), d, m);
    }
}

static void q5_0_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const uint8x16_t m4 = vdupq_n_u8(0x0F);
    const int8x16_t sixteen = vdupq_n_s8(16);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_0, dst += 32) {
        const float32x4_t d = vdupq_n_f32(lgg__half(src));
        const uint32_t qh = lgg__h32(src + 2);
        const uint8x16_t q = vld1q_u8(src + 6);
        const uint8x16_t lo = vorrq_u8(vandq_u8(q, m4), qh_bits16(qh, 0));
        const uint8x16_t hi = vorrq_u8(vshrq_n_u8(q, 4), qh_bits16(qh, 1));
        st16_s8_mul(dst, vsubq_s8(vreinterpretq_s8_u8(lo), sixteen), d);
        st16_s8_mul(dst + 16, vsubq_s8(vreinterpretq_s8_u8(hi), sixteen), d);
    }
}

static void q5_1_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const uint8x16_t m4 = vdupq_n_u8(0x0F);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_1, dst += 32) {
        const float32x4_t d = vdupq_n_f32(lgg__half(src)), m = vdupq_n_f32(lgg__half(src + 2));
        const uint32_t qh = lgg__h32(src + 4);
        const uint8x16_t q = vld1q_u8(src + 8);
        st16_u8_mul_add(dst, vorrq_u8(vandq_u8(q, m4), qh_bits16(qh, 0)), d, m);
        st16_u8_mul_add(dst + 16, vorrq_u8(vshrq_n_u8(q, 4), qh_bits16(qh, 1)), d, m);
    }
}

static void q8_1_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_1, dst += 32) {
        const float32x4_t d = vdupq_n_f32(lgg__half(src));
        st16_s8_mul(dst, vld1q_s8((const int8_t *)(src + 4)), d);
        st16_s8_mul(dst + 16, vld1q_s8((const int8_t *)(src + 20)), d);
    }
}

static void q8_k_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_K, dst += 256) {
        float df;
        memcpy(&df, src, 4);
        const float32x4_t d = vdupq_n_f32(df);
        for (int j = 0; j < 256; j += 16) st16_s8_mul(dst + j, vld1q_s8((const int8_t *)(src + 4 + j)), d);
    }
}

/* 4-bit codes through a 16-entry signed table (IQ4_NL levels, doubled E2M1). */
static inline void st32_nl(float *dst, uint8x16_t q, int8x16_t lut, float32x4_t d) {
    st16_s8_mul(dst, vqtbl1q_s8(lut, vandq_u8(q, vdupq_n_u8(0x0F))), d);
    st16_s8_mul(dst + 16, vqtbl1q_s8(lut, vshrq_n_u8(q, 4)), d);
}

static void iq4_nl_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const int8x16_t lut = vld1q_s8(lgg__kvalues_iq4nl);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ4_NL, dst += 32) st32_nl(dst, vld1q_u8(src + 2), lut, vdupq_n_f32(lgg__half(src)));
}

static void iq4_xs_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const int8x16_t lut = vld1q_s8(lgg__kvalues_iq4nl);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ4_XS) {
        const float d = lgg__half(src);
        const uint16_t sh = lgg__h16(src + 2);
        const uint8_t *sl = src + 4, *qs = src + 8;
        for (int ib = 0; ib < 8; ib++, qs += 16, dst += 32) {
            const int ls = ((sl[ib / 2] >> (4 * (ib % 2))) & 0xF) | (((sh >> (2 * ib)) & 3) << 4);
            st32_nl(dst, vld1q_u8(qs), lut, vdupq_n_f32(d * (float)(ls - 32)));
        }
    }
}

static void mxfp4_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const int8x16_t lut = vld1q_s8(lgg__kvalues_fp4);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_MXFP4, dst += 32) st32_nl(dst, vld1q_u8(src + 1), lut, vdupq_n_f32(lgg__e8m0_half(src[0])));
}

static void q8_0_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_0, dst += 32) {
        const float32x4_t d = vdupq_n_f32(lgg__half(src));
        st16_s8_mul(dst, vld1q_s8((const int8_t *)(src + 2)), d);
        st16_s8_mul(dst + 16, vld1q_s8((const int8_t *)(src + 18)), d);
    }
}

static void q4_k_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const uint8x16_t m4 = vdupq_n_u8(0x0F);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_K) {
        const float d = lgg__half(src), dmin = lgg__half(src + 2);
        const uint8_t *s = src + 4, *q = src + 16;
        for (int j = 0; j < 8; j += 2, q += 32, dst += 64) {
            uint8_t sc, m;
            lgg__k4_scale_min(j, s, &sc, &m);
            const float32x4_t d1 = vdupq_n_f32(d * (float)sc), m1 = vdupq_n_f32(dmin * (float)m);
            lgg__k4_scale_min(j + 1, s, &sc, &m);
            const float32x4_t d2 = vdupq_n_f32(d * (float)sc), m2 = vdupq_n_f32(dmin * (float)m);
            const uint8x16_t a = vld1q_u8(q), b = vld1q_u8(q + 16);
            st16_u8_mul_sub(dst, vandq_u8(a, m4), d1, m1);
            st16_u8_mul_sub(dst + 16, vandq_u8(b, m4), d1, m1);
            st16_u8_mul_sub(dst + 32, vshrq_n_u8(a, 4), d2, m2);
            st16_u8_mul_sub(dst + 48, vshrq_n_u8(b, 4), d2, m2);
        }
    }
}

/* Q6_K: 16 values of one quarter: low nibbles (or high, shift 4) of ql,
 * two bits of qh at `hs`, minus 32, exact in a signed byte. */
static inline int8x16_t q6_codes(uint8x16_t ql, uint8x16_t qh, int high, int hs) {
    const uint8x16_t lo = high ? vshrq_n_u8(ql, 4) : vandq_u8(ql, vdupq_n_u8(0x0F));
    uint8x16_t h;
    switch (hs) { /* shift counts must be constants */
    case 0: h = qh; break;
    case 2: h = vshrq_n_u8(qh, 2); break;
    case 4: h = vshrq_n_u8(qh, 4); break;
    default: h = vshrq_n_u8(qh, 6); break;
    }
    const uint8x16_t v = vorrq_u8(lo, vshlq_n_u8(vandq_u8(h, vdupq_n_u8(3)), 4));
    return vsubq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(32));
}

static void q6_k_neon(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q6_K) {
        const float d = lgg__half(src + LGG__Q6_K_D);
        const uint8_t *ql = src, *qh = src + 128;
        const int8_t *sc = (const int8_t *)(src + 192);
        for (int half = 0; half < 2; half++, ql += 64, qh += 32, sc += 8, dst += 128) {
            for (int part = 0; part < 2; part++) { /* values l = 16*part .. 16*part+15 of each quarter */
                const uint8x16_t a = vld1q_u8(ql + 16 * part), b = vld1q_u8(ql + 32 + 16 * part);
                const uint8x16_t h = vld1q_u8(qh + 16 * part);
                float *o = dst + 16 * part;
                st16_s8_mul(o, q6_codes(a, h, 0, 0), vdupq_n_f32(d * (float)sc[part]));
                st16_s8_mul(o + 32, q6_codes(b, h, 0, 2), vdupq_n_f32(d * (float)sc[part + 2]));
                st16_s8_mul(o + 64, q6_codes(a, h, 1, 4), vdupq_n_f32(d * (float)sc[part + 4]));
                st16_s8_mul(o + 96, q6_codes(b, h, 1, 6), vdupq_n_f32(d * (float)sc[part + 6]));
            }
        }
    }
}

lgg__deq_fn lgg__deq_neon_get(uint32_t type) {
    switch (type) {
    case LGG_TYPE_F16: return f16_neon;
    case LGG_TYPE_BF16: return bf16_neon;
    case LGG_TYPE_Q4_0: return q4_0_neon;
    case LGG_TYPE_Q8_0: return q8_0_neon;
    case LGG_TYPE_Q4_1: return q4_1_neon;
    case LGG_TYPE_Q5_0: return q5_0_neon;
    case LGG_TYPE_Q5_1: return q5_1_neon;
    case LGG_TYPE_Q8_1: return q8_1_neon;
    case LGG_TYPE_Q8_K: return q8_k_neon;
    case LGG_TYPE_IQ4_NL: return iq4_nl_neon;
    case LGG_TYPE_IQ4_XS: return iq4_xs_neon;
    case LGG_TYPE_MXFP4: return mxfp4_neon;
    case LGG_TYPE_Q4_K: return q4_k_neon;
    case LGG_TYPE_Q6_K: return q6_k_neon;
    default: return NULL;
    }
}

#else /* not an AArch64 build */

lgg__deq_fn lgg__deq_neon_get(uint32_t type) {
    (void)type;
    return NULL;
}

#endif
