/* deq_iq_avx2.c -- AVX2 + F16C kernels for the grid ("codebook") IQ types:
 * IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M (built with -mavx2
 * -mf16c -mno-fma; called only on CPUs with both).
 *
 * Grid rows are fetched with scalar loads (AMD's gathers are slower than
 * inserting four or eight loads) and decoded 32 values at a time.
 *
 * Bit-identity with deq_iquants.c:
 *  - scales are the reference's scalar expressions;
 *  - the reference computes (db * g) * (+-1.0f) with a grid magnitude g > 0;
 *    we negate g as an integer first (psignb) and compute db * (+-g).  Round
 *    to nearest-even is symmetric, so -(db * g) == db * -g for every db that
 *    is not NaN, and a NaN db gives NaN both ways (compared as a class);
 *  - IQ1 values dl * ((float)g + delta), g in {-1, 0, 1}, take one of six
 *    floats per scale: the table (g + delta per lane, exact constants, then
 *    times dl lane-wise) holds exactly those products, and the codes pick. */
#include "quant/deq.h"

#if defined(__AVX2__) && defined(__F16C__)

#include "quant/deq_avx2.h"
#include "quant/iq_tables.h"

/* Sign bytes for psignb from four sign masks (byte l of s covers the 8
 * values of lane l, bit j value j): -1 where the bit is set, else +1. */
static inline __m256i sign_bytes(uint32_t s) {
    const __m256i rep = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3,
                                         3, 3, 3, 3, 3, 3, 3);
    const __m256i bit = _mm256_set1_epi64x((long long)0x8040201008040201ull);
    const __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi32((int)s), rep);
    return _mm256_or_si256(_mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit), _mm256_set1_epi8(1));
}

/* The four 7-bit sign indices of an IQ2_XXS / IQ3_XXS word, as sign masks. */
static inline uint32_t signs_from_word(uint32_t w) {
    const uint8_t *ks = lgg__ksigns_iq2xs;
    return (uint32_t)ks[w & 127] | (uint32_t)ks[(w >> 7) & 127] << 8 | (uint32_t)ks[(w >> 14) & 127] << 16 |
           (uint32_t)ks[(w >> 21) & 127] << 24;
}

static inline __m256i grid64x4(const uint64_t *grid, unsigned a, unsigned b, unsigned c, unsigned d) {
    return _mm256_setr_epi64x((long long)grid[a], (long long)grid[b], (long long)grid[c], (long long)grid[d]);
}

static inline __m256i grid32x8(const uint32_t *grid, const unsigned idx[8]) {
    return _mm256_setr_epi32((int)grid[idx[0]], (int)grid[idx[1]], (int)grid[idx[2]], (int)grid[idx[3]],
                             (int)grid[idx[4]], (int)grid[idx[5]], (int)grid[idx[6]], (int)grid[idx[7]]);
}

static void iq2_xxs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 66) {
        const float d = lgg__half(src);
        for (int ib = 0; ib < 8; ib++, dst += 32) {
            const uint8_t *g = src + 2 + 8 * ib;
            const uint32_t w = lgg__h32(g + 4);
            const __m256 db = _mm256_set1_ps(d * (0.5f + (float)(w >> 28)) * 0.25f);
            const __m256i q = grid64x4(lgg__iq2xxs_grid, g[0], g[1], g[2], g[3]);
            const __m256i v = _mm256_sign_epi8(q, sign_bytes(signs_from_word(w)));
            st32_i8_mul2(dst, v, db, db);
        }
    }
}

static void iq2_xs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const uint8_t *ks = lgg__ksigns_iq2xs;
    for (size_t i = 0; i < nb; i++, src += 74) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *scales = src + 66;
        for (int ib = 0; ib < 8; ib++, qs += 8, dst += 32) {
            const __m256 db0 = _mm256_set1_ps(d * (0.5f + (float)(scales[ib] & 0xF)) * 0.25f);
            const __m256 db1 = _mm256_set1_ps(d * (0.5f + (float)(scales[ib] >> 4)) * 0.25f);
            const uint16_t v0 = lgg__h16(qs), v1 = lgg__h16(qs + 2), v2 = lgg__h16(qs + 4), v3 = lgg__h16(qs + 6);
            const __m256i q = grid64x4(lgg__iq2xs_grid, v0 & 511u, v1 & 511u, v2 & 511u, v3 & 511u);
            const uint32_t s = (uint32_t)ks[v0 >> 9] | (uint32_t)ks[v1 >> 9] << 8 | (uint32_t)ks[v2 >> 9] << 16 |
                               (uint32_t)ks[v3 >> 9] << 24;
            st32_i8_mul2(dst, _mm256_sign_epi8(q, sign_bytes(s)), db0, db1);
        }
    }
}

static void iq2_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 82) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *signs = src + 34, *qh = src + 66, *scales = src + 74;
        for (int ib = 0; ib < 8; ib++, qs += 4, signs += 4, dst += 32) {
            const __m256 db0 = _mm256_set1_ps(d * (0.5f + (float)(scales[ib] & 0xF)) * 0.25f);
            const __m256 db1 = _mm256_set1_ps(d * (0.5f + (float)(scales[ib] >> 4)) * 0.25f);
            const unsigned h = qh[ib];
            const __m256i q = grid64x4(lgg__iq2s_grid, qs[0] | ((h << 8) & 0x300), qs[1] | ((h << 6) & 0x300),
                                       qs[2] | ((h << 4) & 0x300), qs[3] | ((h << 2) & 0x300));
            st32_i8_mul2(dst, _mm256_sign_epi8(q, sign_bytes(lgg__h32(signs))), db0, db1);
        }
    }
}

static void iq3_xxs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 98) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *ss = src + 66;
        for (int ib = 0; ib < 8; ib++, qs += 8, dst += 32) {
            const uint32_t w = lgg__h32(ss + 4 * ib);
            const __m256 db = _mm256_set1_ps(d * (0.5f + (float)(w >> 28)) * 0.5f);
            const unsigned idx[8] = {qs[0], qs[1], qs[2], qs[3], qs[4], qs[5], qs[6], qs[7]};
            const __m256i q = grid32x8(lgg__iq3xxs_grid, idx);
            st32_i8_mul2(dst, _mm256_sign_epi8(q, sign_bytes(signs_from_word(w))), db, db);
        }
    }
}

static void iq3_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 110) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *qh = src + 66, *signs = src + 74, *scales = src + 106;
        for (int ib = 0; ib < 8; ib++, qs += 8, signs += 4, dst += 32) {
            const int s = ib % 2 ? scales[ib / 2] >> 4 : scales[ib / 2] & 0xF;
            const __m256 db = _mm256_set1_ps(d * (float)(1 + 2 * s));
            const unsigned h = qh[ib];
            /* bit k of qh[ib] is the 9th index bit of entry k */
            unsigned idx[8];
            for (int k = 0; k < 8; k++) idx[k] = qs[k] | (((h >> k) & 1) << 8);
            const __m256i q = grid32x8(lgg__iq3s_grid, idx);
            st32_i8_mul2(dst, _mm256_sign_epi8(q, sign_bytes(lgg__h32(signs))), db, db);
        }
    }
}

/* Lanes 0-2: g + delta for g = -1, 0, 1; lanes 3-5: g - delta (all exact). */
static inline __m256 iq1_offsets(float delta) {
    return _mm256_setr_ps(-1.0f + delta, 0.0f + delta, 1.0f + delta, -1.0f - delta, 0.0f - delta, 1.0f - delta, 0,
                          0);
}

static void iq1_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256 offs = iq1_offsets(LGG__IQ1S_DELTA);
    const __m256i one = _mm256_set1_epi8(1), four = _mm256_set1_epi8(4);
    for (size_t i = 0; i < nb; i++, src += 50) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2;
        for (int ib = 0; ib < 8; ib++, qs += 4, dst += 32) {
            const unsigned h = lgg__h16(src + 34 + 2 * ib);
            const __m256 tbl = _mm256_mul_ps(_mm256_set1_ps(d * (float)(2 * ((h >> 12) & 7) + 1)), offs);
            const __m256i q = grid64x4(lgg__iq1s_grid, qs[0] | ((h << 8) & 0x700), qs[1] | ((h << 5) & 0x700),
                                       qs[2] | ((h << 2) & 0x700), qs[3] | ((h >> 1) & 0x700));
            /* code g + 1, plus 3 for a negative delta */
            const __m256i c = _mm256_add_epi8(q, h & 0x8000 ? four : one);
            st32_lut2(dst, c, tbl, tbl);
        }
    }
}

static void iq1_m_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256 offs = iq1_offsets(LGG__IQ1M_DELTA);
    for (size_t i = 0; i < nb; i++, src += 56) {
        const uint8_t *qs = src, *qh = src + 32;
        uint16_t sc[4];
        for (int k = 0; k < 4; k++) sc[k] = lgg__h16(src + 48 + 2 * k);
        const uint16_t dbits = (uint16_t)((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) |
                                          (sc[3] & 0xF000));
        const float d = _cvtsh_ss(dbits);
        for (int ib = 0; ib < 8; ib++, qs += 4, qh += 2, dst += 32) {
            const float dl1 = d * (float)(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 0)) & 7) + 1);
            const float dl2 = d * (float)(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 7) + 1);
            const __m256 t1 = _mm256_mul_ps(_mm256_set1_ps(dl1), offs);
            const __m256 t2 = _mm256_mul_ps(_mm256_set1_ps(dl2), offs);
            const unsigned h = lgg__h16(qh); /* nibble l: index bits 8-10 and the delta sign of lane l */
            const __m256i q = grid64x4(lgg__iq1s_grid, qs[0] | ((h << 8) & 0x700), qs[1] | ((h << 4) & 0x700),
                                       qs[2] | (h & 0x700), qs[3] | ((h >> 4) & 0x700));
            const uint64_t rep = 0x0101010101010101ull;
            const __m256i add = _mm256_setr_epi64x(
                (long long)(rep * (1 + 3 * ((h >> 3) & 1))), (long long)(rep * (1 + 3 * ((h >> 7) & 1))),
                (long long)(rep * (1 + 3 * ((h >> 11) & 1))), (long long)(rep * (1 + 3 * ((h >> 15) & 1))));
            st32_lut2(dst, _mm256_add_epi8(q, add), t1, t2);
        }
    }
}

lgg__deq_fn lgg__deq_avx2_iq_get(uint32_t type) {
    switch (type) {
    case LGG_TYPE_IQ2_XXS: return iq2_xxs_avx2;
    case LGG_TYPE_IQ2_XS: return iq2_xs_avx2;
    case LGG_TYPE_IQ2_S: return iq2_s_avx2;
    case LGG_TYPE_IQ3_XXS: return iq3_xxs_avx2;
    case LGG_TYPE_IQ3_S: return iq3_s_avx2;
    case LGG_TYPE_IQ1_S: return iq1_s_avx2;
    case LGG_TYPE_IQ1_M: return iq1_m_avx2;
    default: return NULL;
    }
}

#else

lgg__deq_fn lgg__deq_avx2_iq_get(uint32_t type) {
    (void)type;
    return NULL;
}

#endif
