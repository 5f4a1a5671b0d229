/* deq_avx2.h -- inline helpers shared by the AVX2 + F16C dequantization
 * kernels (deq_avx2.c, deq_iq_avx2.c, deq_misc_avx2.c).  Include only from
 * files built with -mavx2 -mf16c, after quant/deq.h. */
#ifndef LGG_DEQ_AVX2_H
#define LGG_DEQ_AVX2_H

#include <immintrin.h>

/* Bytes 0-7 of b, unsigned / signed, as 8 floats. */
static inline __m256 u8_ps(__m128i b) { return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b)); }
static inline __m256 i8_ps(__m128i b) { return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(b)); }
static inline __m128i hi64(__m128i b) { return _mm_srli_si128(b, 8); }
static inline __m128i load8(const uint8_t *p) { return _mm_loadl_epi64((const __m128i *)(const void *)p); }

/* dst[0..15] = (float)(int8)b[k] * d */
static inline void st16_i8_mul(float *dst, __m128i b, __m256 d) {
    _mm256_storeu_ps(dst, _mm256_mul_ps(i8_ps(b), d));
    _mm256_storeu_ps(dst + 8, _mm256_mul_ps(i8_ps(hi64(b)), d));
}
/* dst[0..16n) = (float)codes[k] * sc[k / 16]: codes staged in memory, so
 * each group of eight widens straight from a load (no lane extracts) */
static inline void st_i8_by16(float *dst, const int8_t *codes, const float *sc, int n) {
    for (int g = 0; g < n; g++, dst += 16, codes += 16) {
        const __m256 s = _mm256_broadcast_ss(sc + g);
        _mm256_storeu_ps(dst, _mm256_mul_ps(i8_ps(load8((const uint8_t *)codes)), s));
        _mm256_storeu_ps(dst + 8, _mm256_mul_ps(i8_ps(load8((const uint8_t *)codes + 8)), s));
    }
}
/* dst[0..16n) = d[k / 16] * (float)codes[k] - m[k / 16], codes unsigned, staged as above */
static inline void st_u8_by16_sub(float *dst, const uint8_t *codes, const float *d, const float *m, int n) {
    for (int g = 0; g < n; g++, dst += 16, codes += 16) {
        const __m256 dv = _mm256_broadcast_ss(d + g), mv = _mm256_broadcast_ss(m + g);
        _mm256_storeu_ps(dst, _mm256_sub_ps(_mm256_mul_ps(dv, u8_ps(load8(codes))), mv));
        _mm256_storeu_ps(dst + 8, _mm256_sub_ps(_mm256_mul_ps(dv, u8_ps(load8(codes + 8))), mv));
    }
}
/* 32 codes of a vector through an L1 slot, widened straight from loads:
 * cheaper than extracting the upper lane and bytes 8-15 of each half. */
static inline void st32_i8_staged(float *dst, __m256i v, __m256 d) {
    _Alignas(32) uint8_t c[32];
    _mm256_store_si256((__m256i *)(void *)c, v);
    for (int k = 0; k < 32; k += 8) _mm256_storeu_ps(dst + k, _mm256_mul_ps(i8_ps(load8(c + k)), d));
}
/* p + m with p's NaN kept when both are NaN (lgg__add_nan_first) */
static inline __m256 add_nan_first(__m256 p, __m256 m) {
    return _mm256_blendv_ps(_mm256_add_ps(p, m), p, _mm256_cmp_ps(p, p, _CMP_UNORD_Q));
}
/* dst[0..31] = (float)(uint8)v[k] * d + m, staged as above */
static inline void st32_u8_staged_mul_add(float *dst, __m256i v, __m256 d, __m256 m) {
    _Alignas(32) uint8_t c[32];
    _mm256_store_si256((__m256i *)(void *)c, v);
    for (int k = 0; k < 32; k += 8) _mm256_storeu_ps(dst + k, add_nan_first(_mm256_mul_ps(u8_ps(load8(c + k)), d), m));
}
/* dst[0..31] = d * (float)(uint8)v[k] - m, staged as above */
static inline void st32_u8_staged_mul_sub(float *dst, __m256i v, __m256 d, __m256 m) {
    _Alignas(32) uint8_t c[32];
    _mm256_store_si256((__m256i *)(void *)c, v);
    for (int k = 0; k < 32; k += 8) _mm256_storeu_ps(dst + k, _mm256_sub_ps(_mm256_mul_ps(d, u8_ps(load8(c + k))), m));
}

/* f16 scale through F16C: the same value as lgg_f16_to_f32 for every input
 * (exact conversion; NaNs come out quiet either way), without a call.  The
 * AVX2 kernels use it where the scalar ones use lgg__half. */
static inline float half_f16c(const uint8_t *p) { return _cvtsh_ss(lgg__h16(p)); }

static inline __m128i load16(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline __m256i load32(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
static inline __m128i lo_nib(__m128i q) { return _mm_and_si128(q, _mm_set1_epi8(0x0F)); }
static inline __m128i hi_nib(__m128i q) { return _mm_and_si128(_mm_srli_epi16(q, 4), _mm_set1_epi8(0x0F)); }

#endif
