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

/* psignb operands for the 256 sign masks: byte j is -1 where bit j of the
 * index is set, +1 where clear.  Built by the preprocessor; a mask then
 * costs one load instead of an expansion in vector lanes. */
#define SB(i, j) ((uint64_t)((((i) >> (j)) & 1) ? 0xFF : 0x01) << (8 * (j)))
#define SE(i) (SB(i, 0) | SB(i, 1) | SB(i, 2) | SB(i, 3) | SB(i, 4) | SB(i, 5) | SB(i, 6) | SB(i, 7))
#define S4(i) SE(i), SE((i) + 1), SE((i) + 2), SE((i) + 3)
#define S16(i) S4(i), S4((i) + 4), S4((i) + 8), S4((i) + 12)
#define S64(i) S16(i), S16((i) + 16), S16((i) + 32), S16((i) + 48)
static const uint64_t SIGN_BYTES[256] = {S64(0), S64(64), S64(128), S64(192)};
#undef SB
#undef SE
#undef S4
#undef S16
#undef S64

/* Table rows into lanes by broadcast loads and blends: both run outside the
 * shuffle unit, which the conversions to float keep busy (inserting rows
 * would add a shuffle each; AMD's gathers are slower still). */
static inline __m256i grid64x4(const uint64_t *grid, unsigned a, unsigned b, unsigned c, unsigned d) {
    __m256i v = _mm256_set1_epi64x((long long)grid[a]);
    v = _mm256_blend_epi32(v, _mm256_set1_epi64x((long long)grid[b]), 0x0C);
    v = _mm256_blend_epi32(v, _mm256_set1_epi64x((long long)grid[c]), 0x30);
    return _mm256_blend_epi32(v, _mm256_set1_epi64x((long long)grid[d]), 0xC0);
}

/* The sign operands of an IQ2_XXS / IQ3_XXS word: index l in bits 7l..7l+6. */
static inline __m256i xxs_signs(uint32_t w) {
    const uint8_t *ks = lgg__ksigns_iq2xs;
    return grid64x4(SIGN_BYTES, ks[w & 127], ks[(w >> 7) & 127], ks[(w >> 14) & 127], ks[(w >> 21) & 127]);
}

/* Four explicit sign bytes (IQ2_S, IQ3_S). */
static inline __m256i sign4(const uint8_t *s) { return grid64x4(SIGN_BYTES, s[0], s[1], s[2], s[3]); }

static inline __m256i grid32x8(const uint32_t *grid, const unsigned idx[8]) {
    __m256i v = _mm256_set1_epi32((int)grid[idx[0]]);
    v = _mm256_blend_epi32(v, _mm256_set1_epi32((int)grid[idx[1]]), 0x02);
    v = _mm256_blend_epi32(v, _mm256_set1_epi32((int)grid[idx[2]]), 0x04);
    v = _mm256_blend_epi32(v, _mm256_set1_epi32((int)grid[idx[3]]), 0x08);
    v = _mm256_blend_epi32(v, _mm256_set1_epi32((int)grid[idx[4]]), 0x10);
    v = _mm256_blend_epi32(v, _mm256_set1_epi32((int)grid[idx[5]]), 0x20);
    v = _mm256_blend_epi32(v, _mm256_set1_epi32((int)grid[idx[6]]), 0x40);
    return _mm256_blend_epi32(v, _mm256_set1_epi32((int)grid[idx[7]]), 0x80);
}

/* IQ2_XS / IQ2_S: the scales d * (0.5 + s) * 0.25 of the 16 nibbles of
 * scales[0..7], lane-wise: lo[ib] for the low nibble of byte ib (its first
 * 16 values), hi[ib] for the high one. */
static inline void nibble_scales(float lo[8], float hi[8], const uint8_t *scales, float d) {
    const __m256i b = _mm256_cvtepu8_epi32(load8(scales));
    const __m256 dv = _mm256_set1_ps(d), half = _mm256_set1_ps(0.5f), quarter = _mm256_set1_ps(0.25f);
    const __m256 sl = _mm256_cvtepi32_ps(_mm256_and_si256(b, _mm256_set1_epi32(15)));
    const __m256 sh = _mm256_cvtepi32_ps(_mm256_srli_epi32(b, 4));
    _mm256_storeu_ps(lo, _mm256_mul_ps(_mm256_mul_ps(dv, _mm256_add_ps(half, sl)), quarter));
    _mm256_storeu_ps(hi, _mm256_mul_ps(_mm256_mul_ps(dv, _mm256_add_ps(half, sh)), quarter));
}

/* The eight sub-block scales d * (0.5 + s) * f of a block, s = w >> 28 for
 * its eight u32 words: the reference's scalar expression, lane-wise. */
static inline void xxs_scales(float out[8], __m256i words, float d, float f) {
    const __m256 s = _mm256_cvtepi32_ps(_mm256_srli_epi32(words, 28));
    _mm256_storeu_ps(out, _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(d), _mm256_add_ps(_mm256_set1_ps(0.5f), s)),
                                        _mm256_set1_ps(f)));
}

static void iq2_xxs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 66) {
        /* the words are the odd u32 of the 64 payload bytes */
        const __m256 a = _mm256_castsi256_ps(load32(src + 2)), b = _mm256_castsi256_ps(load32(src + 34));
        const __m256i words = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8);
        float db[8];
        xxs_scales(db, words, lgg__half(src), 0.25f);
        for (int ib = 0; ib < 8; ib++, dst += 32) {
            const uint8_t *g = src + 2 + 8 * ib;
            const uint32_t w = lgg__h32(g + 4);
            const __m256 dv = _mm256_set1_ps(db[ib]);
            const __m256i q = grid64x4(lgg__iq2xxs_grid, g[0], g[1], g[2], g[3]);
            st32_i8_mul2(dst, _mm256_sign_epi8(q, xxs_signs(w)), dv, dv);
        }
    }
}

static void iq2_xs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 74) {
        const uint8_t *qs = src + 2;
        float lo[8], hi[8];
        nibble_scales(lo, hi, src + 66, lgg__half(src));
        for (int ib = 0; ib < 8; ib++, qs += 8, dst += 32) {
            const __m256 db0 = _mm256_set1_ps(lo[ib]), db1 = _mm256_set1_ps(hi[ib]);
            uint64_t x; /* four u16: grid index in bits 0-8, sign index in 9-15 */
            memcpy(&x, qs, 8);
            const __m256i q = grid64x4(lgg__iq2xs_grid, x & 511u, (x >> 16) & 511u, (x >> 32) & 511u, (x >> 48) & 511u);
            const uint8_t *ks = lgg__ksigns_iq2xs;
            const __m256i sg = grid64x4(SIGN_BYTES, ks[(x >> 9) & 127], ks[(x >> 25) & 127], ks[(x >> 41) & 127],
                                        ks[x >> 57]);
            st32_i8_mul2(dst, _mm256_sign_epi8(q, sg), db0, db1);
        }
    }
}

static void iq2_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 82) {
        const uint8_t *qs = src + 2, *signs = src + 34, *qh = src + 66;
        float lo[8], hi[8];
        nibble_scales(lo, hi, src + 74, lgg__half(src));
        for (int ib = 0; ib < 8; ib++, qs += 4, signs += 4, dst += 32) {
            const __m256 db0 = _mm256_set1_ps(lo[ib]), db1 = _mm256_set1_ps(hi[ib]);
            const unsigned h = qh[ib];
            const __m256i q = grid64x4(lgg__iq2s_grid, qs[0] | ((h << 8) & 0x300), qs[1] | ((h << 6) & 0x300),
                                       qs[2] | ((h << 4) & 0x300), qs[3] | ((h << 2) & 0x300));
            st32_i8_mul2(dst, _mm256_sign_epi8(q, sign4(signs)), db0, db1);
        }
    }
}

static void iq3_xxs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 98) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *ss = src + 66;
        float dbs[8];
        xxs_scales(dbs, load32(ss), d, 0.5f);
        for (int ib = 0; ib < 8; ib++, qs += 8, dst += 32) {
            const uint32_t w = lgg__h32(ss + 4 * ib);
            const __m256 db = _mm256_set1_ps(dbs[ib]);
            const unsigned idx[8] = {qs[0], qs[1], qs[2], qs[3], qs[4], qs[5], qs[6], qs[7]};
            const __m256i q = grid32x8(lgg__iq3xxs_grid, idx);
            st32_i8_mul2(dst, _mm256_sign_epi8(q, xxs_signs(w)), db, db);
        }
    }
}

static void iq3_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += 110) {
        const uint8_t *qs = src + 2, *qh = src + 66, *signs = src + 74;
        /* the eight scales d * (1 + 2s), s = nibble ib of scales[0..3] (low first), lane-wise */
        const __m128i sb = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)lgg__h32(src + 106)),
                                            _mm_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, -1, -1, -1, -1, -1, -1, -1, -1));
        const __m256i s4 = _mm256_and_si256(_mm256_srlv_epi32(_mm256_cvtepu8_epi32(sb), _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4)),
                                            _mm256_set1_epi32(15));
        const __m256i odd = _mm256_add_epi32(_mm256_add_epi32(s4, s4), _mm256_set1_epi32(1));
        float dbs[8];
        _mm256_storeu_ps(dbs, _mm256_mul_ps(_mm256_set1_ps(lgg__half(src)), _mm256_cvtepi32_ps(odd)));
        for (int ib = 0; ib < 8; ib++, qs += 8, signs += 4, dst += 32) {
            const __m256 db = _mm256_set1_ps(dbs[ib]);
            const unsigned h = qh[ib];
            /* bit k of qh[ib] is the 9th index bit of entry k */
            const unsigned idx[8] = {qs[0] | ((h << 8) & 256), qs[1] | ((h << 7) & 256), qs[2] | ((h << 6) & 256),
                                     qs[3] | ((h << 5) & 256), qs[4] | ((h << 4) & 256), qs[5] | ((h << 3) & 256),
                                     qs[6] | ((h << 2) & 256), qs[7] | ((h << 1) & 256)};
            const __m256i q = grid32x8(lgg__iq3s_grid, idx);
            st32_i8_mul2(dst, _mm256_sign_epi8(q, sign4(signs)), db, db);
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
    for (size_t i = 0; i < nb; i++, src += 50) {
        const uint8_t *qs = src + 2;
        /* the eight scales d * (2s + 1), s = bits 12-14 of each qh word, lane-wise */
        const __m256i hw = _mm256_cvtepu16_epi32(load16(src + 34));
        const __m256i s3 = _mm256_and_si256(_mm256_srli_epi32(hw, 12), _mm256_set1_epi32(7));
        const __m256i odd = _mm256_add_epi32(_mm256_add_epi32(s3, s3), _mm256_set1_epi32(1));
        float dl[8];
        _mm256_storeu_ps(dl, _mm256_mul_ps(_mm256_set1_ps(lgg__half(src)), _mm256_cvtepi32_ps(odd)));
        for (int ib = 0; ib < 8; ib++, qs += 4, dst += 32) {
            const unsigned h = lgg__h16(src + 34 + 2 * ib);
            const __m256 tbl = _mm256_mul_ps(_mm256_set1_ps(dl[ib]), offs);
            const __m256i q = grid64x4(lgg__iq1s_grid, qs[0] | ((h << 8) & 0x700), qs[1] | ((h << 5) & 0x700),
                                       qs[2] | ((h << 2) & 0x700), qs[3] | ((h >> 1) & 0x700));
            /* code g + 1, plus 3 for a negative delta (no branch: the sign bit is random) */
            const __m256i c = _mm256_add_epi8(q, _mm256_set1_epi8((char)(1 + 3 * (h >> 15))));
            st32_lut2(dst, c, tbl, tbl);
        }
    }
}

static void iq1_m_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256 offs = iq1_offsets(LGG__IQ1M_DELTA);
    /* byte 0 of the qh pair to lanes 0-1, byte 1 to lanes 2-3; the delta sign
     * is bit 3 (even lane) or bit 7 (odd lane) of it */
    const __m256i rep = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                         1, 1, 1, 1, 1, 1);
    const __m256i dbit = _mm256_setr_epi64x(0x0808080808080808ll, (long long)0x8080808080808080ull,
                                            0x0808080808080808ll, (long long)0x8080808080808080ull);
    const __m256i one = _mm256_set1_epi8(1), three = _mm256_set1_epi8(3);
    const __m256i sh = _mm256_setr_epi32(0, 3, 6, 9, 0, 3, 6, 9);
    for (size_t i = 0; i < nb; i++, src += 56) {
        const uint8_t *qs = src, *qh = src + 32;
        uint16_t sc[4];
        for (int k = 0; k < 4; k++) sc[k] = lgg__h16(src + 48 + 2 * k);
        const uint16_t dbits = (uint16_t)((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) |
                                          (sc[3] & 0xF000));
        const __m256 d = _mm256_set1_ps(_cvtsh_ss(dbits));
        /* the 16 lane-pair scales d * (2s + 1), s = bits 3(k%4).. of sc[k/4], lane-wise as the reference does
         * per scale */
        float dl[16];
        for (int k = 0; k < 2; k++) {
            const __m256i w = _mm256_setr_epi32(sc[2 * k], sc[2 * k], sc[2 * k], sc[2 * k], sc[2 * k + 1],
                                                sc[2 * k + 1], sc[2 * k + 1], sc[2 * k + 1]);
            const __m256i s3 = _mm256_and_si256(_mm256_srlv_epi32(w, sh), _mm256_set1_epi32(7));
            const __m256i odd = _mm256_add_epi32(_mm256_add_epi32(s3, s3), _mm256_set1_epi32(1));
            _mm256_storeu_ps(dl + 8 * k, _mm256_mul_ps(d, _mm256_cvtepi32_ps(odd)));
        }
        for (int ib = 0; ib < 8; ib++, qs += 4, qh += 2, dst += 32) {
            const __m256 t1 = _mm256_mul_ps(_mm256_set1_ps(dl[2 * ib]), offs);
            const __m256 t2 = _mm256_mul_ps(_mm256_set1_ps(dl[2 * ib + 1]), offs);
            const unsigned h = lgg__h16(qh); /* nibble l: index bits 8-10 and the delta sign of lane l */
            const __m256i q = grid64x4(lgg__iq1s_grid, qs[0] | ((h << 8) & 0x700), qs[1] | ((h << 4) & 0x700),
                                       qs[2] | (h & 0x700), qs[3] | ((h >> 4) & 0x700));
            const __m256i v = _mm256_shuffle_epi8(_mm256_set1_epi16((short)h), rep);
            const __m256i neg = _mm256_cmpeq_epi8(_mm256_and_si256(v, dbit), dbit);
            /* code g + 1, plus 3 for a negative delta */
            const __m256i c = _mm256_add_epi8(_mm256_add_epi8(q, one), _mm256_and_si256(neg, three));
            st32_lut2(dst, c, t1, t2);
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
