/* deq_avx2.c -- AVX2 + F16C kernels (this file is built with -mavx2 -mf16c
 * -mno-fma; the dispatcher calls it only on CPUs that have both).
 *
 * Bit-identity with the scalar decoders comes from doing the very same IEEE
 * operations per element: integer codes are formed exactly in integer lanes,
 * converted to float (exact: they are small), then multiplied by the same
 * float scale -- computed by the same scalar expression -- and, where ggml
 * subtracts or adds a float min, that is a separate vector add/sub.  No FMA
 * (the build forbids contraction and this file has no FMA enabled), and
 * multiplication is commutative in IEEE arithmetic, so d*x == x*d bit for bit
 * (only the scale can be NaN, so NaN payload order does not arise). */
#include "quant/deq.h"

#if defined(__AVX2__) && defined(__F16C__)

#include "quant/x86/deq_avx2.h"
#include "quant/iq_tables.h"

/* ---- plain ------------------------------------------------------------------ */

static void f16_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8) _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(load16(src + 2 * i)));
    if (i < nb) lgg__deq_f16(src + 2 * i, dst + i, nb - i);
}

static void bf16_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    size_t i = 0;
    for (; i + 8 <= nb; i += 8) {
        __m256i w = _mm256_slli_epi32(_mm256_cvtepu16_epi32(load16(src + 2 * i)), 16);
        _mm256_storeu_ps(dst + i, _mm256_castsi256_ps(w));
    }
    if (i < nb) lgg__deq_bf16(src + 2 * i, dst + i, nb - i);
}

/* ---- legacy ------------------------------------------------------------------ */

static void q4_0_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m128i eight = _mm_set1_epi8(8);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_0, dst += 32) {
        const __m256 d = _mm256_set1_ps(half_f16c(src));
        const __m128i q = load16(src + 2);
        /* nibble - 8 fits a signed byte exactly */
        st16_i8_mul(dst, _mm_sub_epi8(lo_nib(q), eight), d);
        st16_i8_mul(dst + 16, _mm_sub_epi8(hi_nib(q), eight), d);
    }
}

/* The 32 nibbles of 16 bytes in value order: low nibbles first (the bytes
 * in both lanes, the upper lane shifted by 4). */
static inline __m256i nibbles32(const uint8_t *qs) {
    const __m256i q = _mm256_broadcastsi128_si256(load16(qs));
    return _mm256_and_si256(_mm256_srlv_epi64(q, _mm256_setr_epi64x(0, 0, 4, 4)), _mm256_set1_epi8(0x0F));
}

static void q4_1_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_1, dst += 32) {
        const __m256 d = _mm256_set1_ps(half_f16c(src)), m = _mm256_set1_ps(half_f16c(src + 2));
        st32_u8_staged_mul_add(dst, nibbles32(src + 4), d, m);
    }
}

/* The 32 five-bit codes of a Q5_0/Q5_1 block: low nibbles of qs are values
 * 0-15, high nibbles 16-31 (nibbles32), and bit j of qh is bit 4 of value j (qh in every lane, byte j/8 spread
 * over bytes j and tested against bit j%8). */
static inline __m256i q5_codes(const uint8_t *qs, const uint8_t *qh) {
    const __m256i sel = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
                                         3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    const __m256i nib = nibbles32(qs);
    const __m256i h = _mm256_shuffle_epi8(_mm256_set1_epi32((int)lgg__h32(qh)), sel);
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(h, bit), bit);
    return _mm256_or_si256(nib, _mm256_and_si256(set, _mm256_set1_epi8(0x10)));
}

static void q5_0_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i sixteen = _mm256_set1_epi8(16);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_0, dst += 32) {
        const __m256 d = _mm256_set1_ps(half_f16c(src));
        st32_i8_staged(dst, _mm256_sub_epi8(q5_codes(src + 6, src + 2), sixteen), d);
    }
}

static void q5_1_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_1, dst += 32) {
        const __m256 d = _mm256_set1_ps(half_f16c(src)), m = _mm256_set1_ps(half_f16c(src + 2));
        st32_u8_staged_mul_add(dst, q5_codes(src + 8, src + 4), d, m);
    }
}

static void q8_0_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_0, dst += 32) {
        const __m256 d = _mm256_set1_ps(half_f16c(src));
        st16_i8_mul(dst, load16(src + 2), d);
        st16_i8_mul(dst + 16, load16(src + 18), d);
    }
}

static void q8_1_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_1, dst += 32) {
        const __m256 d = _mm256_set1_ps(half_f16c(src));
        st16_i8_mul(dst, load16(src + 4), d);
        st16_i8_mul(dst + 16, load16(src + 20), d);
    }
}

/* ---- K-quants ------------------------------------------------------------------ */

static void q2_k_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i three = _mm256_set1_epi8(3);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q2_K, dst += 256) {
        /* the 16 scales d * (sc & 15) and mins dmin * (sc >> 4), lane-wise */
        float dl[16], ml[16];
        const __m256 d = _mm256_set1_ps(half_f16c(src + LGG__Q2_K_D)), dmin = _mm256_set1_ps(half_f16c(src + LGG__Q2_K_D + 2));
        const __m128i sc = load16(src);
        const __m128i sl = lo_nib(sc), sh = hi_nib(sc);
        _mm256_storeu_ps(dl, _mm256_mul_ps(d, u8_ps(sl)));
        _mm256_storeu_ps(dl + 8, _mm256_mul_ps(d, u8_ps(hi64(sl))));
        _mm256_storeu_ps(ml, _mm256_mul_ps(dmin, u8_ps(sh)));
        _mm256_storeu_ps(ml + 8, _mm256_mul_ps(dmin, u8_ps(hi64(sh))));
        const __m256i qa = load32(src + 16), qb = load32(src + 48);
        /* codes 32k..32k+31: the 2-bit field at 2 * (k % 4) of the k / 4th 32 bytes */
        _Alignas(32) uint8_t codes[256];
        __m256i *c = (__m256i *)(void *)codes;
        for (int k = 0; k < 4; k++) {
            const __m128i cnt = _mm_cvtsi32_si128(2 * k);
            _mm256_store_si256(c + k, _mm256_and_si256(_mm256_srl_epi16(qa, cnt), three));
            _mm256_store_si256(c + 4 + k, _mm256_and_si256(_mm256_srl_epi16(qb, cnt), three));
        }
        st_u8_by16_sub(dst, codes, dl, ml, 16);
    }
}

/* Q3_K's 16 scales d * (s - 32), lane-wise (see lgg__q3k_scales for the
 * bit layout): low nibbles from bytes 0-7, top bits from bytes 8-11 at a
 * shift that is uniform per group of four scales. */
static inline void q3k_scales_f(float out[16], const uint8_t *s, float d) {
    const __m128i b = load8(s);
    const __m128i lo = _mm_unpacklo_epi64(lo_nib(b), hi_nib(b));
    const __m128i top = _mm_shuffle_epi8(load8(s + 4), _mm_setr_epi8(4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7));
    const __m128i hi = _mm_and_si128(_mm_srlv_epi32(top, _mm_setr_epi32(0, 2, 4, 6)), _mm_set1_epi8(3));
    const __m128i sc = _mm_sub_epi8(_mm_or_si128(lo, _mm_slli_epi16(hi, 4)), _mm_set1_epi8(32));
    const __m256 dv = _mm256_set1_ps(d);
    _mm256_storeu_ps(out, _mm256_mul_ps(dv, i8_ps(sc)));
    _mm256_storeu_ps(out + 8, _mm256_mul_ps(dv, i8_ps(hi64(sc))));
}

static void q3_k_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i three = _mm256_set1_epi8(3), four = _mm256_set1_epi8(4);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q3_K, dst += 256) {
        float dl[16];
        q3k_scales_f(dl, src + 96, half_f16c(src + LGG__Q3_K_D));
        const __m256i hm = load32(src), qa = load32(src + 32), qb = load32(src + 64);
        /* codes 32k..32k+31: the 2-bit field at 2 * (k % 4) of the k / 4th 32
         * bytes of q, minus 4 where bit k of hmask is clear (that bit moved to
         * bit 2 and inverted by andnot; the 16-bit shifts carry nothing into
         * bit 2 of a byte) */
        _Alignas(32) int8_t codes[256];
        __m256i *c = (__m256i *)(void *)codes;
#define Q3_STEP(k, q, shift)                                                                              \
    _mm256_store_si256(c + (k), _mm256_sub_epi8(_mm256_and_si256(_mm256_srli_epi16(q, shift), three),    \
                                                _mm256_andnot_si256(hs, four)))
        __m256i hs = _mm256_slli_epi16(hm, 2);
        Q3_STEP(0, qa, 0);
        hs = _mm256_slli_epi16(hm, 1);
        Q3_STEP(1, qa, 2);
        hs = hm;
        Q3_STEP(2, qa, 4);
        hs = _mm256_srli_epi16(hm, 1);
        Q3_STEP(3, qa, 6);
        hs = _mm256_srli_epi16(hm, 2);
        Q3_STEP(4, qb, 0);
        hs = _mm256_srli_epi16(hm, 3);
        Q3_STEP(5, qb, 2);
        hs = _mm256_srli_epi16(hm, 4);
        Q3_STEP(6, qb, 4);
        hs = _mm256_srli_epi16(hm, 5);
        Q3_STEP(7, qb, 6);
#undef Q3_STEP
        st_i8_by16(dst, codes, dl, 16);
    }
}

/* Q4_K / Q5_K: the eight scales d * sc and mins dmin * m of a block
 * (lgg__k4_scale_min's bit layout, all eight at once in 64-bit integers),
 * the products lane-wise. */
static inline void k4_scales_f(float dl[8], float ml[8], const uint8_t *s, float d, float dmin) {
    uint64_t a;
    memcpy(&a, s, 8);
    const uint64_t b = lgg__h32(s + 8);
    const uint64_t top = (a & 0xC0C0C0C0C0C0C0C0ull) >> 2; /* bits 6-7 of bytes 0-7 at bits 4-5 */
    const uint64_t sc = (a & 0x3F3F3F3Full) | (((b & 0x0F0F0F0Full) | (top & 0x30303030ull)) << 32);
    const uint64_t mn = ((a >> 32) & 0x3F3F3F3Full) | ((((b >> 4) & 0x0F0F0F0Full) | (top >> 32)) << 32);
    _mm256_storeu_ps(dl, _mm256_mul_ps(_mm256_set1_ps(d), u8_ps(_mm_cvtsi64_si128((long long)sc))));
    _mm256_storeu_ps(ml, _mm256_mul_ps(_mm256_set1_ps(dmin), u8_ps(_mm_cvtsi64_si128((long long)mn))));
}

static void q4_k_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q4_K) {
        float dl[8], ml[8];
        k4_scales_f(dl, ml, src + 4, half_f16c(src), half_f16c(src + 2));
        const uint8_t *q = src + 16;
        for (int j = 0; j < 8; j += 2, q += 32, dst += 64) {
            const __m256 d1 = _mm256_broadcast_ss(&dl[j]), m1 = _mm256_broadcast_ss(&ml[j]);
            const __m256 d2 = _mm256_broadcast_ss(&dl[j + 1]), m2 = _mm256_broadcast_ss(&ml[j + 1]);
            const __m256i qv = load32(q);
            const __m256i lo = _mm256_and_si256(qv, m4), hi = _mm256_and_si256(_mm256_srli_epi16(qv, 4), m4);
            st32_u8_staged_mul_sub(dst, lo, d1, m1);
            st32_u8_staged_mul_sub(dst + 32, hi, d2, m2);
        }
    }
}

static void q5_k_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i m4 = _mm256_set1_epi8(0x0F), one = _mm256_set1_epi8(1);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q5_K) {
        float dl[8], ml[8];
        k4_scales_f(dl, ml, src + 4, half_f16c(src), half_f16c(src + 2));
        const uint8_t *q = src + 48;
        const __m256i qh = load32(src + 16);
        for (int j = 0; j < 8; j += 2, q += 32, dst += 64) {
            const __m256 d1 = _mm256_broadcast_ss(&dl[j]), m1 = _mm256_broadcast_ss(&ml[j]);
            const __m256 d2 = _mm256_broadcast_ss(&dl[j + 1]), m2 = _mm256_broadcast_ss(&ml[j + 1]);
            const __m256i qv = load32(q);
            /* bit j (j+1) of each qh byte, moved to 0x10; per-byte after the 16-bit shift and mask */
            const __m256i h1 = _mm256_slli_epi16(_mm256_and_si256(_mm256_srl_epi16(qh, _mm_cvtsi32_si128(j)), one), 4);
            const __m256i h2 =
                _mm256_slli_epi16(_mm256_and_si256(_mm256_srl_epi16(qh, _mm_cvtsi32_si128(j + 1)), one), 4);
            const __m256i lo = _mm256_or_si256(_mm256_and_si256(qv, m4), h1);
            const __m256i hi = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(qv, 4), m4), h2);
            st32_u8_staged_mul_sub(dst, lo, d1, m1);
            st32_u8_staged_mul_sub(dst + 32, hi, d2, m2);
        }
    }
}


static void q6_k_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i m4 = _mm256_set1_epi8(0x0F), m2 = _mm256_set1_epi8(3), bias = _mm256_set1_epi8(32);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q6_K, dst += 256) {
        const float d = half_f16c(src + LGG__Q6_K_D);
        /* the 16 scales d * sc, lane-wise (the reference's d * sc before times q) */
        float sc[16];
        const __m128i s8 = load16(src + 192);
        const __m256 dv = _mm256_set1_ps(d);
        _mm256_storeu_ps(sc, _mm256_mul_ps(dv, i8_ps(s8)));
        _mm256_storeu_ps(sc + 8, _mm256_mul_ps(dv, i8_ps(hi64(s8))));
        _Alignas(32) int8_t codes[256];
        for (int half = 0; half < 2; half++) {
            const uint8_t *ql = src + 64 * half, *qh = src + 128 + 32 * half;
            const __m256i a = load32(ql), b = load32(ql + 32), h = load32(qh);
            const __m256i h0 = _mm256_slli_epi16(_mm256_and_si256(h, m2), 4);
            const __m256i h1 = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(h, 2), m2), 4);
            const __m256i h2 = _mm256_and_si256(h, _mm256_set1_epi8(0x30));
            const __m256i h3 = _mm256_and_si256(_mm256_srli_epi16(h, 2), _mm256_set1_epi8(0x30));
            __m256i *c = (__m256i *)(void *)(codes + 128 * half);
            _mm256_store_si256(c, _mm256_sub_epi8(_mm256_or_si256(_mm256_and_si256(a, m4), h0), bias));
            _mm256_store_si256(c + 1, _mm256_sub_epi8(_mm256_or_si256(_mm256_and_si256(b, m4), h1), bias));
            _mm256_store_si256(c + 2, _mm256_sub_epi8(_mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(a, 4), m4), h2), bias));
            _mm256_store_si256(c + 3, _mm256_sub_epi8(_mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(b, 4), m4), h3), bias));
        }
        st_i8_by16(dst, codes, sc, 16);
    }
}

static void q8_k_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_Q8_K, dst += 256) {
        float df;
        memcpy(&df, src, 4);
        const __m256 d = _mm256_set1_ps(df);
        for (int j = 0; j < 256; j += 16) st16_i8_mul(dst + j, load16(src + 4 + j), d);
    }
}

/* ---- non-linear 4-bit ------------------------------------------------------------ */

static inline __m128i lut16(const int8_t *table) { return _mm_loadu_si128((const __m128i *)(const void *)table); }

static void iq4_nl_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m128i lut = lut16(lgg__kvalues_iq4nl);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ4_NL, dst += 32) {
        const __m256 d = _mm256_set1_ps(half_f16c(src));
        const __m128i q = load16(src + 2);
        st16_i8_mul(dst, _mm_shuffle_epi8(lut, lo_nib(q)), d);
        st16_i8_mul(dst + 16, _mm_shuffle_epi8(lut, hi_nib(q)), d);
    }
}

static void iq4_xs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m128i lut = lut16(lgg__kvalues_iq4nl);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ4_XS) {
        /* the eight scales d * (ls - 32), ls = nibble ib of scales_l (low
         * first) | bits 2ib..2ib+1 of scales_h << 4, lane-wise */
        const __m256i lw = _mm256_cvtepu8_epi32(_mm_shuffle_epi8(_mm_cvtsi32_si128((int)lgg__h32(src + 4)),
                                                                 _mm_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, -1, -1, -1, -1,
                                                                               -1, -1, -1, -1)));
        const __m256i lsl = _mm256_and_si256(_mm256_srlv_epi32(lw, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4)),
                                             _mm256_set1_epi32(15));
        const __m256i lsh = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(lgg__h16(src + 2)),
                                                               _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14)),
                                             _mm256_set1_epi32(3));
        const __m256i ls = _mm256_sub_epi32(_mm256_or_si256(lsl, _mm256_slli_epi32(lsh, 4)), _mm256_set1_epi32(32));
        float dls[8];
        _mm256_storeu_ps(dls, _mm256_mul_ps(_mm256_set1_ps(half_f16c(src)), _mm256_cvtepi32_ps(ls)));
        const uint8_t *qs = src + 8;
        for (int ib = 0; ib < 8; ib++, qs += 16, dst += 32) {
            const __m256 dl = _mm256_broadcast_ss(&dls[ib]);
            const __m128i q = load16(qs);
            st16_i8_mul(dst, _mm_shuffle_epi8(lut, lo_nib(q)), dl);
            st16_i8_mul(dst + 16, _mm_shuffle_epi8(lut, hi_nib(q)), dl);
        }
    }
}

static void mxfp4_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m128i lut = lut16(lgg__kvalues_fp4);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_MXFP4, dst += 32) {
        const __m256 d = _mm256_set1_ps(lgg__e8m0_half(src[0]));
        const __m128i q = load16(src + 1);
        st16_i8_mul(dst, _mm_shuffle_epi8(lut, lo_nib(q)), d);
        st16_i8_mul(dst + 16, _mm_shuffle_epi8(lut, hi_nib(q)), d);
    }
}

/* lgg__ue4m3_half of every scale byte, built by the compiler: each entry is
 * an exact product of the same two exact factors as in the scalar function,
 * so the same bits (only 0x7F itself means zero; 0xFF does not). */
#define UE(x)                                                                                                   \
    ((x) == 0x7F ? 0.0f                                                                                         \
     : (((x) >> 3) & 15) == 0 ? (float)((x) & 7) * 0x1p-10f                                                    \
                              : (float)(8 + ((x) & 7)) * ((float)(1u << (((x) >> 3) & 15)) * 0x1p-11f))
#define UE4(x) UE(x), UE((x) + 1), UE((x) + 2), UE((x) + 3)
#define UE16(x) UE4(x), UE4((x) + 4), UE4((x) + 8), UE4((x) + 12)
#define UE64(x) UE16(x), UE16((x) + 16), UE16((x) + 32), UE16((x) + 48)
static const float UE4M3_HALF[256] = {UE64(0), UE64(64), UE64(128), UE64(192)};
#undef UE
#undef UE4
#undef UE16
#undef UE64

static void nvfp4_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i lut = _mm256_broadcastsi128_si256(lut16(lgg__kvalues_fp4)), m4 = _mm256_set1_epi8(0x0F);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_NVFP4) {
        /* the 64 values as int8 through L1: sub-block s is lo[8s..8s+7] then hi[8s..8s+7] */
        _Alignas(32) int8_t lo[32], hi[32];
        const __m256i q = load32(src + 4);
        _mm256_store_si256((__m256i *)(void *)lo, _mm256_shuffle_epi8(lut, _mm256_and_si256(q, m4)));
        _mm256_store_si256((__m256i *)(void *)hi, _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(q, 4), m4)));
        for (int s = 0; s < 4; s++, dst += 16) {
            const __m256 d = _mm256_broadcast_ss(&UE4M3_HALF[src[s]]);
            _mm256_storeu_ps(dst, _mm256_mul_ps(i8_ps(load8((const uint8_t *)lo + 8 * s)), d));
            _mm256_storeu_ps(dst + 8, _mm256_mul_ps(i8_ps(load8((const uint8_t *)hi + 8 * s)), d));
        }
    }
}

void lgg__stream_floats_avx2(float *dst, const float *src, size_t n, bool last) {
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    size_t bytes = n * 4, head = (32 - ((uintptr_t)d & 31)) & 31;
    if (head > bytes) head = bytes;
    memcpy(d, s, head);
    d += head, s += head, bytes -= head;
    for (; bytes >= 32; d += 32, s += 32, bytes -= 32)
        _mm256_stream_ps((float *)(void *)d, _mm256_loadu_ps((const float *)(const void *)s));
    memcpy(d, s, bytes);
    if (last) _mm_sfence(); /* streamed stores are weakly ordered: visible before we return */
}

lgg__deq_fn lgg__deq_avx2_get(uint32_t type) {
    switch (type) {
    case LGG_TYPE_F16: return f16_avx2;
    case LGG_TYPE_BF16: return bf16_avx2;
    case LGG_TYPE_Q4_0: return q4_0_avx2;
    case LGG_TYPE_Q4_1: return q4_1_avx2;
    case LGG_TYPE_Q5_0: return q5_0_avx2;
    case LGG_TYPE_Q5_1: return q5_1_avx2;
    case LGG_TYPE_Q8_0: return q8_0_avx2;
    case LGG_TYPE_Q8_1: return q8_1_avx2;
    case LGG_TYPE_Q2_K: return q2_k_avx2;
    case LGG_TYPE_Q3_K: return q3_k_avx2;
    case LGG_TYPE_Q4_K: return q4_k_avx2;
    case LGG_TYPE_Q5_K: return q5_k_avx2;
    case LGG_TYPE_Q6_K: return q6_k_avx2;
    case LGG_TYPE_Q8_K: return q8_k_avx2;
    case LGG_TYPE_IQ4_NL: return iq4_nl_avx2;
    case LGG_TYPE_IQ4_XS: return iq4_xs_avx2;
    case LGG_TYPE_MXFP4: return mxfp4_avx2;
    case LGG_TYPE_NVFP4: return nvfp4_avx2;
    default: break;
    }
    lgg__deq_fn f = lgg__deq_avx2_iq_get(type);
    return f ? f : lgg__deq_avx2_misc_get(type);
}

#else /* not an AVX2 build (e.g. another architecture) */

lgg__deq_fn lgg__deq_avx2_get(uint32_t type) {
    (void)type;
    return NULL;
}

void lgg__stream_floats_avx2(float *dst, const float *src, size_t n, bool last) {
    (void)last;
    memcpy(dst, src, n * 4);
}

#endif
