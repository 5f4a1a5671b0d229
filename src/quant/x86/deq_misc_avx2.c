/* deq_misc_avx2.c -- AVX2 + F16C kernels for the plain integer and f64
 * types, the ternary TQ1_0/TQ2_0 and the 1-/2-bit Q1_0/Q2_0 (built with
 * -mavx2 -mf16c -mno-fma; called only on CPUs with both).
 *
 * Bit-identity with deq_misc.c: conversions are the same IEEE conversions
 * (cvtdq2ps and cvtpd2ps round to nearest-even under the default MXCSR, as
 * the scalar casts do), and the quantized types compute each of their few
 * possible values with the reference's own expression, then store them by
 * table (st256_lut, vpermps): the same bits as computing every value, with
 * fewer instructions. */
#include "quant/deq.h"

#if defined(__AVX2__) && defined(__F16C__)

#include "quant/x86/deq_avx2.h"

/* ---- plain ------------------------------------------------------------------ */

static void i8_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8) _mm256_storeu_ps(dst + i, i8_ps(load8(src + i)));
    if (i < nb) lgg__deq_i8(src + i, dst + i, nb - i);
}

static void i16_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8)
        _mm256_storeu_ps(dst + i, _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(load16(src + 2 * i))));
    if (i < nb) lgg__deq_i16(src + 2 * i, dst + i, nb - i);
}

static void i32_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8) _mm256_storeu_ps(dst + i, _mm256_cvtepi32_ps(load32(src + 4 * i)));
    if (i < nb) lgg__deq_i32(src + 4 * i, dst + i, nb - i);
}

static void f64_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 4 <= nb; i += 4)
        _mm_storeu_ps(dst + i, _mm256_cvtpd_ps(_mm256_loadu_pd((const double *)(const void *)(src + 8 * i))));
    if (i < nb) lgg__deq_f64(src + 8 * i, dst + i, nb - i);
}

/* int64 has no vector conversion in AVX2.  Integer tensors hold small
 * values, so eight at a time are checked to be int32 (the high half is the
 * sign extension of the low half); then converting the low halves is the
 * same single rounding as the scalar cast.  Other groups go through it. */
static void i64_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8) {
        /* values 0,1 | 4,5 and 2,3 | 6,7: then the in-lane shuffles below give
         * the low and high 32-bit halves of 0-7 in order, with no lane crossing */
        const uint8_t *p = src + 8 * i;
        const __m256 a = _mm256_castsi256_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(load16(p)), load16(p + 32), 1));
        const __m256 b =
            _mm256_castsi256_ps(_mm256_inserti128_si256(_mm256_castsi128_si256(load16(p + 16)), load16(p + 48), 1));
        const __m256i lo = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88));
        const __m256i hi = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xDD));
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(hi, _mm256_srai_epi32(lo, 31))) == -1)
            _mm256_storeu_ps(dst + i, _mm256_cvtepi32_ps(lo));
        else
            for (size_t k = i; k < i + 8; k++) {
                int64_t v;
                memcpy(&v, src + 8 * k, 8);
                dst[k] = (float)v;
            }
    }
    if (i < nb) lgg__deq_i64(src + 8 * i, dst + i, nb - i);
}

/* ---- ternary and 1-/2-bit ------------------------------------------------------ */

/* Lanes 0-3: (float)(k - 1) * d for code k, the reference's expression, as
 * a real multiply: compilers fold -1.0f * d into -d, which flips a NaN's
 * sign where x86's multiply (and so ggml) passes the NaN through.  The empty
 * asm hides the factors' values from the optimizer. */
static inline __m256 code_table(float d) {
    __m256 k = _mm256_setr_ps(-1.0f, 0.0f, 1.0f, 2.0f, 0.0f, 0.0f, 0.0f, 0.0f);
    __asm__("" : "+x"(k));
    return _mm256_mul_ps(k, _mm256_set1_ps(d));
}

/* dst[0..255] = tbl[codes[k]], codes staged in memory and widened from loads */
static inline void st256_lut(float *dst, const uint8_t *codes, __m256 tbl) {
    for (int k = 0; k < 256; k += 16) {
        _mm256_storeu_ps(dst + k, _mm256_permutevar8x32_ps(tbl, _mm256_cvtepu8_epi32(load8(codes + k))));
        _mm256_storeu_ps(dst + k + 8, _mm256_permutevar8x32_ps(tbl, _mm256_cvtepu8_epi32(load8(codes + k + 8))));
    }
}

static void tq2_0_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i three = _mm256_set1_epi8(3);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_TQ2_0, dst += 256) {
        const __m256 tbl = code_table(half_f16c(src + LGG__TQ2_0_D));
        /* the 256 codes staged in L1, then widened straight from loads */
        _Alignas(32) uint8_t codes[256];
        __m256i *c = (__m256i *)(void *)codes;
        const __m256i qa = load32(src), qb = load32(src + 32);
        for (int l = 0; l < 4; l++) {
            const __m128i cnt = _mm_cvtsi32_si128(2 * l);
            _mm256_store_si256(c + l, _mm256_and_si256(_mm256_srl_epi16(qa, cnt), three));
            _mm256_store_si256(c + 4 + l, _mm256_and_si256(_mm256_srl_epi16(qb, cnt), three));
        }
        st256_lut(dst, codes, tbl);
    }
}

/* Q2_0: byte k holds values 4k..4k+3 in its bit pairs, low pair first.  Each
 * 32-bit lane takes the u32 of four bytes and shifts its own pair down. */
static void q2_0_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i sh0 = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    const __m256i sh1 = _mm256_setr_epi32(16, 18, 20, 22, 24, 26, 28, 30);
    const __m256i three = _mm256_set1_epi32(3);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q2_0) {
        const __m256 tbl = code_table(half_f16c(src));
        for (int k = 0; k < 4; k++, dst += 16) {
            const __m256i w = _mm256_set1_epi32((int)lgg__h32(src + 2 + 4 * k));
            const __m256i c0 = _mm256_and_si256(_mm256_srlv_epi32(w, sh0), three);
            const __m256i c1 = _mm256_and_si256(_mm256_srlv_epi32(w, sh1), three);
            _mm256_storeu_ps(dst, _mm256_permutevar8x32_ps(tbl, c0));
            _mm256_storeu_ps(dst + 8, _mm256_permutevar8x32_ps(tbl, c1));
        }
    }
}

/* Q1_0: bit j chooses d (set) or -d (clear); shifting bit j of the lane's
 * word to bit 31 makes it blendv's selector. */
static void q1_0_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i sh[4] = {
        _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24), _mm256_setr_epi32(23, 22, 21, 20, 19, 18, 17, 16),
        _mm256_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8), _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0)};
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q1_0) {
        const float d = half_f16c(src);
        const __m256 pos = _mm256_set1_ps(d), neg = _mm256_set1_ps(-d);
        for (int k = 0; k < 4; k++) {
            const __m256i w = _mm256_set1_epi32((int)lgg__h32(src + 2 + 4 * k));
            for (int g = 0; g < 4; g++, dst += 8)
                _mm256_storeu_ps(dst, _mm256_blendv_ps(neg, pos, _mm256_castsi256_ps(_mm256_sllv_epi32(w, sh[g]))));
        }
    }
}

/* TQ1_0 digit codes (0, 1, 2 = the base-3 digit) of the bytes of q after
 * multiplying each by its lane's power of three mod 256; p holds the power
 * per 16-bit lane (both bytes of a lane use it).  As in the reference, the
 * digit is the integer part of 3 * (byte / 256): 1 from 86 on, 2 from 171. */
static inline __m256i tq1_codes(__m256i q, __m256i p) {
    const __m256i lo = _mm256_and_si256(_mm256_mullo_epi16(q, p), _mm256_set1_epi16(0x00FF));
    const __m256i hi = _mm256_mullo_epi16(_mm256_and_si256(q, _mm256_set1_epi16((short)0xFF00)), p);
    const __m256i r = _mm256_xor_si256(_mm256_or_si256(lo, hi), _mm256_set1_epi8((char)0x80)); /* signed compare */
    const __m256i ge86 = _mm256_cmpgt_epi8(r, _mm256_set1_epi8(85 - 128));
    const __m256i ge171 = _mm256_cmpgt_epi8(r, _mm256_set1_epi8(170 - 128));
    return _mm256_sub_epi8(_mm256_setzero_si256(), _mm256_add_epi8(ge86, ge171));
}

static void tq1_0_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    static const short pow3[6] = {1, 3, 9, 27, 81, 0};
    for (size_t i = 0; i < nb; i++, src += LGG__TS_TQ1_0, dst += 256) {
        _Alignas(32) uint8_t codes[256];
        __m256i *c = (__m256i *)(void *)codes;
        /* bytes 0-31: values 32n + m are digit n of byte m */
        const __m256i a = load32(src);
        for (int n = 0; n < 5; n++) _mm256_store_si256(c + n, tq1_codes(a, _mm256_set1_epi16(pow3[n])));
        /* bytes 32-47: values 160 + 16n + m; two digits per vector (one per half) */
        const __m256i b = _mm256_broadcastsi128_si256(load16(src + 32));
        for (int n = 0; n < 4; n += 2) {
            const __m256i p = _mm256_setr_m128i(_mm_set1_epi16(pow3[n]), _mm_set1_epi16(pow3[n + 1]));
            _mm256_store_si256(c + 5 + n / 2, tq1_codes(b, p));
        }
        _mm_store_si128((__m128i *)(void *)(codes + 224), _mm256_castsi256_si128(tq1_codes(b, _mm256_set1_epi16(pow3[4]))));
        /* qh, bytes 48-51: values 240 + 4n + m are digit n of byte m */
        const __m256i h = _mm256_set1_epi32((int)lgg__h32(src + 48));
        const __m256i ph = _mm256_setr_epi16(1, 1, 3, 3, 9, 9, 27, 27, 0, 0, 0, 0, 0, 0, 0, 0);
        _mm_store_si128((__m128i *)(void *)(codes + 240), _mm256_castsi256_si128(tq1_codes(h, ph)));
        st256_lut(dst, codes, code_table(half_f16c(src + LGG__TQ1_0_D)));
    }
}

lgg__deq_fn lgg__deq_avx2_misc_get(uint32_t type) {
    switch (type) {
    case LGG_TYPE_I8: return i8_avx2;
    case LGG_TYPE_I16: return i16_avx2;
    case LGG_TYPE_I32: return i32_avx2;
    case LGG_TYPE_I64: return i64_avx2;
    case LGG_TYPE_F64: return f64_avx2;
    case LGG_TYPE_TQ1_0: return tq1_0_avx2;
    case LGG_TYPE_TQ2_0: return tq2_0_avx2;
    case LGG_TYPE_Q1_0: return q1_0_avx2;
    case LGG_TYPE_Q2_0: return q2_0_avx2;
    default: return NULL;
    }
}

#else

lgg__deq_fn lgg__deq_avx2_misc_get(uint32_t type) {
    (void)type;
    return NULL;
}

#endif
