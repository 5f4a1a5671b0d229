/* deq_iq_avx2.c -- AVX2 + F16C kernels for the grid ("codebook") IQ types:
 * IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M (built with -mavx2
 * -mf16c -mno-fma; called only on CPUs with both).
 *
 * Grid rows are single loads: IQ2/IQ3 rows from float copies of the grids
 * that the compiler builds; IQ2_S rows (its 1024-row grid as floats would
 * fill L1; measured no faster) and IQ1 rows widened straight from the byte
 * grids.  AMD's gathers are slower than separate loads.
 *
 * Bit-identity with deq_iquants.c:
 *  - scales are the reference's scalar expressions, or the same operations
 *    lane-wise;
 *  - the reference computes -(db * g) or db * g (ggml's (+-1.0f) multiply,
 *    compiled to a negation) with a grid magnitude g > 0; we compute that
 *    (IQ2_XS: the product's sign bit flipped) or (+-db) * g (the others:
 *    db's sign bit flipped per lane).  Round to nearest-even is symmetric,
 *    so -(db * g) == -db * g for every db, and for a NaN db both give db's
 *    NaN with its sign flipped (x86's multiply passes a NaN operand through),
 *    the bits ggml gives;
 *  - IQ1 values dl * ((float)g + delta), g in {-1, 0, 1}, take one of three
 *    floats per row: the table (g + delta per lane, exact constants, then
 *    times dl lane-wise) holds exactly those products, and the codes pick. */
#include "quant/deq.h"

#if defined(__AVX2__) && defined(__F16C__)

#include "quant/x86/deq_avx2.h"
#include "quant/iq_tables.h"

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

/* ---- float grids -------------------------------------------------------------
 * The grid rows as floats, built by the compiler from the same lists as the
 * integer grids: a row of eight (IQ2) or four (IQ3) magnitudes is one load,
 * with no widening or conversion; signs are applied as described above. */
#include "quant/iq_grids.h"

#define GB(g, k) (float)(((g) >> (8 * (k))) & 0xFF)
#define FROW8(g) {GB(g, 0), GB(g, 1), GB(g, 2), GB(g, 3), GB(g, 4), GB(g, 5), GB(g, 6), GB(g, 7)},
#define FROW4(g) {GB(g, 0), GB(g, 1), GB(g, 2), GB(g, 3)},
static _Alignas(32) const float IQ2XXS_F[256][8] = {LGG__IQ2XXS_GRID(FROW8)};
static _Alignas(32) const float IQ2XS_F[512][8] = {LGG__IQ2XS_GRID(FROW8)};
static _Alignas(16) const float IQ3XXS_F[256][4] = {LGG__IQ3XXS_GRID(FROW4)};
static _Alignas(16) const float IQ3S_F[512][4] = {LGG__IQ3S_GRID(FROW4)};
#undef GB
#undef FROW8
#undef FROW4

/* IQ2_XS sign masks: row i has the float sign bit in lane j where bit j of
 * ksigns_iq2xs[i] is set (i with an even-parity 8th bit).  For IQ2_XS a
 * 4 KiB table measured faster than signed_scale; the other types do better
 * without it. */
#define SM(i, j) ((((i) >> (j)) & 1) ? 0x80000000u : 0u)
#define SROW(i) {SM(i, 0), SM(i, 1), SM(i, 2), SM(i, 3), SM(i, 4), SM(i, 5), SM(i, 6), SM(i, 7)},
#define PAR(i) ((((i) ^ ((i) >> 1) ^ ((i) >> 2) ^ ((i) >> 3) ^ ((i) >> 4) ^ ((i) >> 5) ^ ((i) >> 6)) & 1) << 7)
#define KROW(i) SROW((i) | PAR(i))
#define R4(R, i) R(i) R((i) + 1) R((i) + 2) R((i) + 3)
#define R16(R, i) R4(R, i) R4(R, (i) + 4) R4(R, (i) + 8) R4(R, (i) + 12)
#define R64(R, i) R16(R, i) R16(R, (i) + 16) R16(R, (i) + 32) R16(R, (i) + 48)
static _Alignas(32) const uint32_t SIGN_KS[128][8] = {R64(KROW, 0) R64(KROW, 64)};
#undef SM
#undef SROW
#undef PAR
#undef KROW
#undef R4
#undef R16
#undef R64
/* dst[0..7] = db * g with the signs of mask s flipped */
static inline void st8_masked(float *dst, __m256 db, __m256 g, __m256 s) {
    _mm256_storeu_ps(dst, _mm256_xor_ps(_mm256_mul_ps(db, g), s));
}

/* Rows by byte offset (the row size folds into the index arithmetic). */
static inline __m256 at8(const void *table, size_t off) {
    return _mm256_load_ps((const float *)(const void *)((const char *)table + off));
}
static inline __m256 at4x2(const void *table, size_t a, size_t b) {
    const char *t = (const char *)table;
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps((const float *)(const void *)(t + a))),
                                _mm_load_ps((const float *)(const void *)(t + b)), 1);
}
/* A row of eight byte magnitudes as floats. */
static inline __m256 u8row(const uint64_t *grid, size_t idx) { return u8_ps(load8((const uint8_t *)(const void *)(grid + idx))); }

/* Signs in registers: sw holds a sub-block's four sign bytes (explicit in
 * IQ2_S and IQ3_S, ksigns_iq2xs values built lane-wise for the others) in
 * every lane; bit j of byte l moves to bit 31 of lane j, which is all
 * vblendvps reads, to choose -d over d for lane j of row l (d * g then
 * needs no per-row sign flip of g).  Cheaper than mask tables in L1
 * (measured). */
static inline __m256 signed_scale(__m256 d, __m256i sw, int l) {
    const __m256i sh = _mm256_setr_epi32(31 - 8 * l, 30 - 8 * l, 29 - 8 * l, 28 - 8 * l, 27 - 8 * l, 26 - 8 * l,
                                         25 - 8 * l, 24 - 8 * l);
    const __m256 neg = _mm256_xor_ps(d, _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u)));
    return _mm256_blendv_ps(d, neg, _mm256_castsi256_ps(_mm256_sllv_epi32(sw, sh)));
}
/* the 4 sign bytes at signs (any alignment) in every lane; memcpy, not a
 * float* broadcast: clang's _mm256_broadcast_ss dereferences its float*,
 * which is undefined at an address that is not a multiple of 4 (UBSan
 * caught it on IQ3_S blocks at odd offsets) */
static inline __m256i sign_word(const uint8_t *signs) {
    int32_t w;
    memcpy(&w, signs, sizeof w);
    return _mm256_set1_epi32(w);
}

/* Bytes of 7-bit sign indices with the even-parity 8th bit set: the
 * ksigns_iq2xs values, lane-wise (parity of each nibble from a table). */
static inline __m256i with_parity(__m256i b) {
    const __m256i m4 = _mm256_set1_epi8(0x0F);
    const __m256i par = _mm256_setr_epi8(0, -128, -128, 0, -128, 0, 0, -128, -128, 0, 0, -128, 0, -128, -128, 0, 0,
                                         -128, -128, 0, -128, 0, 0, -128, -128, 0, 0, -128, 0, -128, -128, 0);
    return _mm256_or_si256(b, _mm256_xor_si256(_mm256_shuffle_epi8(par, _mm256_and_si256(b, m4)),
                                               _mm256_shuffle_epi8(par, _mm256_and_si256(_mm256_srli_epi16(b, 4), m4))));
}

/* The sign words of the eight sub-blocks of an IQ2_XXS / IQ3_XXS block, in
 * the form signed_scale reads: byte l of word ib is ksigns_iq2xs of the 7-bit
 * index in bits 7l..7l+6 of the block's word ib, that is the index with an
 * even-parity 8th bit (parity from a nibble table, lane-wise). */
static inline void xxs_sign_words(uint32_t out[8], __m256i words) {
    const __m256i m7 = _mm256_set1_epi32(127);
    __m256i b = _mm256_and_si256(words, m7);
    b = _mm256_or_si256(b, _mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(words, 7), m7), 8));
    b = _mm256_or_si256(b, _mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(words, 14), m7), 16));
    b = _mm256_or_si256(b, _mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(words, 21), m7), 24));
    _mm256_storeu_si256((__m256i *)(void *)out, with_parity(b));
}

static void iq2_xxs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ2_XXS) {
        /* the words are the odd u32 of the 64 payload bytes */
        const __m256 a = _mm256_castsi256_ps(load32(src + 2)), b = _mm256_castsi256_ps(load32(src + 34));
        const __m256i words = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xDD)), 0xD8);
        float db[8];
        xxs_scales(db, words, half_f16c(src), 0.25f);
        uint32_t sws[8];
        xxs_sign_words(sws, words);
        for (int ib = 0; ib < 8; ib++, dst += 32) {
            const uint8_t *g = src + 2 + 8 * ib;
            const __m256 dv = _mm256_broadcast_ss(&db[ib]);
            const __m256i sw = sign_word((const uint8_t *)(const void *)&sws[ib]);
            _mm256_storeu_ps(dst, _mm256_mul_ps(signed_scale(dv, sw, 0), at8(IQ2XXS_F, (size_t)g[0] * 32)));
            _mm256_storeu_ps(dst + 8, _mm256_mul_ps(signed_scale(dv, sw, 1), at8(IQ2XXS_F, (size_t)g[1] * 32)));
            _mm256_storeu_ps(dst + 16, _mm256_mul_ps(signed_scale(dv, sw, 2), at8(IQ2XXS_F, (size_t)g[2] * 32)));
            _mm256_storeu_ps(dst + 24, _mm256_mul_ps(signed_scale(dv, sw, 3), at8(IQ2XXS_F, (size_t)g[3] * 32)));
        }
    }
}

static void iq2_xs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ2_XS) {
        const uint8_t *qs = src + 2;
        float lo[8], hi[8];
        nibble_scales(lo, hi, src + 66, half_f16c(src));
        for (int ib = 0; ib < 8; ib++, qs += 8, dst += 32) {
            const __m256 db0 = _mm256_broadcast_ss(&lo[ib]), db1 = _mm256_broadcast_ss(&hi[ib]);
            uint64_t x; /* four u16: grid index in bits 0-8, sign index in 9-15 */
            memcpy(&x, qs, 8);
#define XS_ROW(l, db)                                                                                          \
    st8_masked(dst + 8 * (l), db, at8(IQ2XS_F, (l) ? (x >> (16 * (l) - 5)) & (511u << 5) : (x << 5) & (511u << 5)), \
               at8(SIGN_KS, (x >> (16 * (l) + 4)) & (127u << 5)))
            XS_ROW(0, db0);
            XS_ROW(1, db0);
            XS_ROW(2, db1);
            XS_ROW(3, db1);
#undef XS_ROW
        }
    }
}

static void iq2_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ2_S) {
        const uint8_t *qs = src + 2, *signs = src + 34, *qh = src + 66;
        float lo[8], hi[8];
        nibble_scales(lo, hi, src + 74, half_f16c(src));
        for (int ib = 0; ib < 8; ib++, qs += 4, signs += 4, dst += 32) {
            const __m256 db0 = _mm256_broadcast_ss(&lo[ib]), db1 = _mm256_broadcast_ss(&hi[ib]);
            const size_t h = qh[ib];
            /* bits 2l, 2l+1 of qh[ib] are index bits 8-9 of entry l */
            const __m256i sw = sign_word(signs);
#define S_ROW(l, db)                                                                                           \
    _mm256_storeu_ps(dst + 8 * (l),                                                                            \
                     _mm256_mul_ps(signed_scale(db, sw, l), u8row(lgg__iq2s_grid, qs[l] | ((h << (8 - 2 * (l))) & 0x300))))
            S_ROW(0, db0);
            S_ROW(1, db0);
            S_ROW(2, db1);
            S_ROW(3, db1);
#undef S_ROW
        }
    }
}

static void iq3_xxs_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ3_XXS) {
        const float d = half_f16c(src);
        const uint8_t *qs = src + 2, *ss = src + LGG__IQ3_XXS_SIGNS;
        float dbs[8];
        xxs_scales(dbs, load32(ss), d, 0.5f);
        uint32_t sws[8];
        xxs_sign_words(sws, load32(ss));
        for (int ib = 0; ib < 8; ib++, qs += 8, dst += 32) {
            const __m256 db = _mm256_broadcast_ss(&dbs[ib]);
            const __m256i sw = sign_word((const uint8_t *)(const void *)&sws[ib]);
#define X3_ROW(l)                                                                                                 \
    _mm256_storeu_ps(dst + 8 * (l),                                                                               \
                     _mm256_mul_ps(signed_scale(db, \
                                                  sw, l), at4x2(IQ3XXS_F, (size_t)qs[2 * (l)] << 4, (size_t)qs[2 * (l) + 1] << 4)))
            X3_ROW(0);
            X3_ROW(1);
            X3_ROW(2);
            X3_ROW(3);
#undef X3_ROW
        }
    }
}

static void iq3_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ3_S) {
        const uint8_t *qs = src + 2, *qh = src + 66, *signs = src + 74;
        /* the eight scales d * (1 + 2s), s = nibble ib of scales[0..3] (low first), lane-wise */
        const __m128i sb = _mm_shuffle_epi8(_mm_cvtsi32_si128((int)lgg__h32(src + 106)),
                                            _mm_setr_epi8(0, 0, 1, 1, 2, 2, 3, 3, -1, -1, -1, -1, -1, -1, -1, -1));
        const __m256i s4 = _mm256_and_si256(_mm256_srlv_epi32(_mm256_cvtepu8_epi32(sb), _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4)),
                                            _mm256_set1_epi32(15));
        const __m256i odd = _mm256_add_epi32(_mm256_add_epi32(s4, s4), _mm256_set1_epi32(1));
        float dbs[8];
        _mm256_storeu_ps(dbs, _mm256_mul_ps(_mm256_set1_ps(half_f16c(src)), _mm256_cvtepi32_ps(odd)));
        /* byte offsets of the 64 grid rows (index bit 8 of entry k is bit k
         * of the eight qh bytes read as one little-endian word) and of the
         * 32 sign rows, lane-wise */
        _Alignas(32) uint16_t go[64];
        uint64_t hbits;
        memcpy(&hbits, qh, 8);
        const __m256i bitsel = _mm256_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                                 (short)0x8000);
        for (int j = 0; j < 4; j++) {
            const __m256i hb = _mm256_set1_epi16((short)(hbits >> (16 * j)));
            const __m256i hit = _mm256_cmpeq_epi16(_mm256_and_si256(hb, bitsel), bitsel);
            const __m256i idx = _mm256_or_si256(_mm256_cvtepu8_epi16(load16(qs + 16 * j)),
                                                _mm256_and_si256(hit, _mm256_set1_epi16(256)));
            _mm256_store_si256((__m256i *)(void *)(go + 16 * j), _mm256_slli_epi16(idx, 4));
        }
        for (int ib = 0; ib < 8; ib++, dst += 32, signs += 4) {
            const __m256 db = _mm256_broadcast_ss(&dbs[ib]);
            const uint16_t *g = go + 8 * ib;
            const __m256i sw = sign_word(signs);
#define S3_ROW(l) _mm256_storeu_ps(dst + 8 * (l), _mm256_mul_ps(signed_scale(db, sw, l), at4x2(IQ3S_F, g[2 * (l)], g[2 * (l) + 1])))
            S3_ROW(0);
            S3_ROW(1);
            S3_ROW(2);
            S3_ROW(3);
#undef S3_ROW
        }
    }
}

/* IQ1: a grid row is eight int8 g in {-1, 0, 1}, widened straight from the
 * grid (vpmovsxbd from memory); vpermps reads the low three bits of each
 * lane, so g = -1 picks lane 7, 0 lane 0 and 1 lane 1.  Those lanes of
 * OFFS[s] hold g + delta, or g - delta for s = 1 (exact constants), and
 * times dl they are the reference's dl * ((float)g + delta) bit for bit. */
#define OFFS_ROWS(delta)                                                                                   \
    {{0.0f + (delta), 1.0f + (delta), 0, 0, 0, 0, 0, -1.0f + (delta)},                                     \
     {0.0f - (delta), 1.0f - (delta), 0, 0, 0, 0, 0, -1.0f - (delta)}}
static _Alignas(32) const float IQ1S_OFFS[2][8] = OFFS_ROWS(LGG__IQ1S_DELTA);
static _Alignas(32) const float IQ1M_OFFS[2][8] = OFFS_ROWS(LGG__IQ1M_DELTA);
#undef OFFS_ROWS

static inline __m256i iq1_row(unsigned idx) {
    return _mm256_cvtepi8_epi32(load8((const uint8_t *)(const void *)&lgg__iq1s_grid[idx]));
}

static void iq1_s_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ1_S) {
        const uint8_t *qs = src + 2;
        /* the eight scales d * (2s + 1), s = bits 12-14 of each qh word, lane-wise */
        const __m256i hw = _mm256_cvtepu16_epi32(load16(src + LGG__IQ1_S_QH));
        const __m256i s3 = _mm256_and_si256(_mm256_srli_epi32(hw, 12), _mm256_set1_epi32(7));
        const __m256i odd = _mm256_add_epi32(_mm256_add_epi32(s3, s3), _mm256_set1_epi32(1));
        float dl[8];
        _mm256_storeu_ps(dl, _mm256_mul_ps(_mm256_set1_ps(half_f16c(src)), _mm256_cvtepi32_ps(odd)));
        for (int ib = 0; ib < 8; ib++, qs += 4, dst += 32) {
            const unsigned h = lgg__h16(src + LGG__IQ1_S_QH + 2 * ib);
            const __m256 tbl = _mm256_mul_ps(_mm256_broadcast_ss(&dl[ib]), _mm256_load_ps(IQ1S_OFFS[h >> 15]));
            _mm256_storeu_ps(dst, _mm256_permutevar8x32_ps(tbl, iq1_row(qs[0] | ((h << 8) & 0x700))));
            _mm256_storeu_ps(dst + 8, _mm256_permutevar8x32_ps(tbl, iq1_row(qs[1] | ((h << 5) & 0x700))));
            _mm256_storeu_ps(dst + 16, _mm256_permutevar8x32_ps(tbl, iq1_row(qs[2] | ((h << 2) & 0x700))));
            _mm256_storeu_ps(dst + 24, _mm256_permutevar8x32_ps(tbl, iq1_row(qs[3] | ((h >> 1) & 0x700))));
        }
    }
}

static void iq1_m_avx2(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    const __m256i sh = _mm256_setr_epi32(0, 3, 6, 9, 0, 3, 6, 9);
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ1_M) {
        const uint8_t *qs = src, *qh = src + 32;
        uint16_t sc[4];
        for (int k = 0; k < 4; k++) sc[k] = lgg__h16(src + LGG__IQ1_M_SCALES + 2 * k);
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
            const unsigned h = lgg__h16(qh); /* nibble l: index bits 8-10 and the delta sign (bit 3) of row l */
#define M_ROW(l)                                                                                                  \
    _mm256_storeu_ps(dst + 8 * (l),                                                                               \
                     _mm256_permutevar8x32_ps(_mm256_mul_ps(_mm256_broadcast_ss(&dl[2 * ib + (l) / 2]),          \
                                                            _mm256_load_ps(IQ1M_OFFS[(h >> (4 * (l) + 3)) & 1])), \
                                              iq1_row(qs[l] | (((h >> (4 * (l))) & 7) << 8))))
            M_ROW(0);
            M_ROW(1);
            M_ROW(2);
            M_ROW(3);
#undef M_ROW
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
