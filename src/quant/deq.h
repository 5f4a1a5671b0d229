/* deq.h -- private interface between the dequantization sources.
 *
 * A block decoder turns `nb` consecutive blocks at `src` into
 * nb * block_size floats at `dst`.  The blocks are in HOST byte order: the
 * dispatcher (dequant.c) swaps the multi-byte fields of foreign-order data
 * into a local copy first, so every decoder is written once for both byte
 * orders.  Decoders read multi-byte values with memcpy (no alignment is
 * assumed: block sizes such as 17, 18 or 110 bytes leave them unaligned).
 *
 * Every decoder follows ggml's reference order of float operations exactly
 * (the build has -ffp-contract=off); the SIMD kernels must produce the same
 * bits, so they perform the same IEEE operations per element. */
#ifndef LGG_DEQ_H
#define LGG_DEQ_H

#include "base/internal.h"

typedef void (*lgg__deq_fn)(const uint8_t *restrict src, float *restrict dst, size_t nb);

#include "base/blocks.h"

/* Host-order loads for the decoders. */
static inline uint16_t lgg__h16(const uint8_t *p) {
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static inline uint32_t lgg__h32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static inline float lgg__half(const uint8_t *p) { return lgg_f16_to_f32(lgg__h16(p)); }

/* p + m where p's NaN wins when both are NaN: what ggml's compiled
 * q * d + m gives on x86 (an add returns its first operand's NaN).  A
 * compiler may swap a plain +'s operands, so the order is made explicit.
 * p is a product, so a NaN p is already quiet. */
static inline float lgg__add_nan_first(float p, float m) { return p != p ? p : p + m; }

/* 6-bit scale and min number j (0..7) of a Q4_K/Q5_K block's 12 packed bytes:
 * entries 0-3 are the low 6 bits of bytes 0-3 (scales) and 4-7 (mins);
 * entries 4-7 take their low nibble from bytes 8-11 and their top two bits
 * from the spare top bits of bytes 0-3 (scales) and 4-7 (mins). */
static inline void lgg__k4_scale_min(int j, const uint8_t *s, uint8_t *sc, uint8_t *mn) {
    if (j < 4) {
        *sc = s[j] & 63;
        *mn = s[j + 4] & 63;
    } else {
        *sc = (uint8_t)((s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4));
        *mn = (uint8_t)((s[j + 4] >> 4) | ((s[j] >> 6) << 4));
    }
}

/* Q3_K: unpack the 16 six-bit scales (12 bytes) to signed values - 32 is done
 * by the caller.  Scale k has its low nibble in byte k%8 (low nibble for
 * k < 8, high nibble for k >= 8) and its top two bits in byte 8 + k%4 at
 * bit position 2*(k/4). */
static inline void lgg__q3k_scales(const uint8_t *s, int8_t out[16]) {
    for (int k = 0; k < 16; k++) {
        int lo = k < 8 ? (s[k] & 0xF) : (s[k - 8] >> 4);
        int hi = (s[8 + k % 4] >> (2 * (k / 4))) & 3;
        out[k] = (int8_t)(lo | (hi << 4));
    }
}

/* UE4M3 scale of NVFP4, already halved (the FP4 table holds doubled values).
 * 0x00 and 0x7F mean zero; the top bit is ignored.  Every value is exact, so
 * building it from powers of two gives the same bits as any exact method. */
static inline float lgg__ue4m3_half(uint8_t x) {
    if (x == 0 || x == 0x7F) return 0.0f;
    int e = (x >> 3) & 0xF, m = x & 7;
    float p;
    uint32_t bits;
    if (e == 0) {
        bits = (uint32_t)(127 - 10) << 23; /* man * 2^-9, halved */
        memcpy(&p, &bits, 4);
        return (float)m * p;
    }
    bits = (uint32_t)(127 + e - 7 - 3 - 1) << 23; /* (8+man)/8 * 2^(e-7), halved */
    memcpy(&p, &bits, 4);
    return (float)(8 + m) * p;
}

/* E8M0 scale of MXFP4, halved: 2^(x-128); x < 2 lands in the subnormals. */
static inline float lgg__e8m0_half(uint8_t x) {
    uint32_t bits = x < 2 ? (UINT32_C(0x00200000) << x) : ((uint32_t)(x - 1) << 23);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Scalar decoders (deq_misc.c, deq_legacy.c, deq_kquants.c, deq_iquants.c). */
#define LGG__DECL(name) LGG_HIDDEN void lgg__deq_##name(const uint8_t *restrict src, float *restrict dst, size_t nb)
LGG__DECL(f32);
LGG__DECL(f16);
LGG__DECL(bf16);
LGG__DECL(f64);
LGG__DECL(i8);
LGG__DECL(i16);
LGG__DECL(i32);
LGG__DECL(i64);
LGG__DECL(q4_0);
LGG__DECL(q4_1);
LGG__DECL(q5_0);
LGG__DECL(q5_1);
LGG__DECL(q8_0);
LGG__DECL(q8_1);
LGG__DECL(q2_k);
LGG__DECL(q3_k);
LGG__DECL(q4_k);
LGG__DECL(q5_k);
LGG__DECL(q6_k);
LGG__DECL(q8_k);
LGG__DECL(iq2_xxs);
LGG__DECL(iq2_xs);
LGG__DECL(iq2_s);
LGG__DECL(iq3_xxs);
LGG__DECL(iq3_s);
LGG__DECL(iq1_s);
LGG__DECL(iq1_m);
LGG__DECL(iq4_nl);
LGG__DECL(iq4_xs);
LGG__DECL(tq1_0);
LGG__DECL(tq2_0);
LGG__DECL(mxfp4);
LGG__DECL(nvfp4);
LGG__DECL(q1_0);
LGG__DECL(q2_0);

/* SIMD kernels: the decoder for `type`, or NULL where the path has none (the
 * scalar decoder is used then).  Only call after checking the CPU. */
LGG_HIDDEN lgg__deq_fn lgg__deq_avx2_get(uint32_t type);
/* The same for the IQ grid types (deq_iq_avx2.c) and for the plain, ternary
 * and 1-/2-bit types (deq_misc_avx2.c); lgg__deq_avx2_get asks both. */
LGG_HIDDEN lgg__deq_fn lgg__deq_avx2_iq_get(uint32_t type);
LGG_HIDDEN lgg__deq_fn lgg__deq_avx2_misc_get(uint32_t type);
/* Copy n floats with non-temporal stores (bypassing the caches) where dst
 * allows, any alignment; `last`: fence, so the stores are ordered before
 * whatever follows (deq_avx2.c; a plain copy in other builds). */
LGG_HIDDEN void lgg__stream_floats_avx2(float *dst, const float *src, size_t n, bool last);

/* AArch64 NEON kernels (deq_neon.c); NULL elsewhere. */
LGG_HIDDEN lgg__deq_fn lgg__deq_neon_get(uint32_t type);

#endif
