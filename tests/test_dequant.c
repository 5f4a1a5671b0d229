/* test_dequant.c -- dequantization: ggml's golden vectors bit for bit on the
 * scalar and SIMD paths, SIMD against scalar on random blocks, big-endian
 * input, and the argument contract. */
#include "test.h"
#include "libgguf.h"
#include "gen.h"
#include "standin.h"
#include "golden.h"

#include <math.h>
#include <stdlib.h>

/* Equal bits: a NaN's sign and payload must match too (ggml's are what its
 * x86 arithmetic gives: a multiply passes a NaN operand through, a negation
 * flips its sign). */
static bool same_float(float a, float b) {
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    return x == y;
}

/* Index of the first differing float, or -1. */
static long first_diff(const float *a, const float *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!same_float(a[i], b[i])) return (long)i;
    return -1;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}
static void fill_random(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(rng() >> 32);
}

/* Every type that holds data. */
static const uint32_t ALL_TYPES[] = {
    LGG_TYPE_F32,    LGG_TYPE_F16,     LGG_TYPE_Q4_0,   LGG_TYPE_Q4_1,    LGG_TYPE_Q5_0,   LGG_TYPE_Q5_1,
    LGG_TYPE_Q8_0,   LGG_TYPE_Q8_1,    LGG_TYPE_Q2_K,   LGG_TYPE_Q3_K,    LGG_TYPE_Q4_K,   LGG_TYPE_Q5_K,
    LGG_TYPE_Q6_K,   LGG_TYPE_Q8_K,    LGG_TYPE_IQ2_XXS,LGG_TYPE_IQ2_XS,  LGG_TYPE_IQ3_XXS,LGG_TYPE_IQ1_S,
    LGG_TYPE_IQ4_NL, LGG_TYPE_IQ3_S,   LGG_TYPE_IQ2_S,  LGG_TYPE_IQ4_XS,  LGG_TYPE_I8,     LGG_TYPE_I16,
    LGG_TYPE_I32,    LGG_TYPE_I64,     LGG_TYPE_F64,    LGG_TYPE_IQ1_M,   LGG_TYPE_BF16,   LGG_TYPE_TQ1_0,
    LGG_TYPE_TQ2_0,  LGG_TYPE_MXFP4,   LGG_TYPE_NVFP4,  LGG_TYPE_Q1_0,    LGG_TYPE_Q2_0,
};
#define N_TYPES (sizeof ALL_TYPES / sizeof ALL_TYPES[0])

/* ---- golden vectors ------------------------------------------------------ */

typedef lgg_status (*deq_api)(uint32_t, const void *, size_t, lgg_endian, float *, uint64_t);

/* One dequantize row of the golden index: the input rebuilt or read from the
 * committed copy (golden.h), the output's sha256 against the reference's. */
static bool golden_one(deq_api fn, const golden_vec *r, const char *label) {
    size_t in_sz = 0;
    unsigned char *in = golden_quant_bytes(r->input, &in_sz);
    CHECKF(in != NULL, "%s: cannot make %s", label, r->input);
    const uint64_t count = (uint64_t)r->nrows * (uint64_t)r->n_per_row;
    float *got = malloc(count * sizeof(float));
    lgg_status st = in ? fn(r->type_id, in, in_sz, LGG_LITTLE_ENDIAN, got, count) : LGG_ERR_ARG;
    CHECKF(!in || st == LGG_OK, "%s: %s (%s) returned %d", label, r->input, r->type, (int)st);
    const bool ok = st == LGG_OK && golden_check(r, got, count * sizeof(float), label);
    free(got);
    free(in);
    return ok;
}

static void golden_with(deq_api fn, const char *label) {
    static golden_vec rows[512];
    const int n = golden_index("dequantize", rows, 512);
    REQUIRE(n > 200); /* 231 pairs when the index was made */
    int checked = 0;
    for (int i = 0; i < n; i++) checked += golden_one(fn, &rows[i], label);
    CHECK_EQ_U(checked, n);
}

TEST(dequant_golden_simd) { golden_with(lgg_dequantize, "simd"); }
TEST(dequant_golden_ref) { golden_with(lgg_dequantize_ref, "ref"); }

/* Every type the golden index lists is one we claim to support. */
TEST(dequant_golden_covers_types) {
    static golden_vec rows[512];
    const int n = golden_index("dequantize", rows, 512);
    REQUIRE(n > 0);
    for (int i = 0; i < n; i++) {
        bool known = false;
        for (size_t t = 0; t < N_TYPES; t++) known |= ALL_TYPES[t] == rows[i].type_id;
        CHECKF(known, "golden type %u (%s) not in the supported list", rows[i].type_id, rows[i].type);
        CHECK(lgg_type_name(rows[i].type_id) != NULL);
    }
}

/* ---- SIMD against the scalar reference ------------------------------------ */

/* Random bytes, plus blocks whose half-precision fields are forced to
 * infinities, NaNs, zeros and subnormals. */
static void fill_blocks(uint32_t type, uint8_t *p, size_t nblocks, int round) {
    const lgg_type_info *ti = lgg_type_get(type);
    fill_random(p, nblocks * ti->type_size);
    static const uint16_t special[] = {0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFFFF, 0x0000, 0x8000, 0x0001, 0x03FF, 0x7BFF};
    if (round % 2 == 0) return;
    for (size_t b = 0; b < nblocks; b++) {
        uint8_t *blk = p + b * ti->type_size;
        for (int f = 0; f < ti->n_fields; f++) {
            if (ti->fields[f].width != 2) continue;
            uint16_t v = special[rng() % (sizeof special / sizeof special[0])];
            memcpy(blk + ti->fields[f].offset, &v, 2); /* the first one: the scale */
        }
    }
}

TEST(dequant_simd_matches_ref_random) {
    const size_t nblocks = 257; /* odd, so any vector tail path runs */
    for (size_t t = 0; t < N_TYPES; t++) {
        const uint32_t type = ALL_TYPES[t];
        const lgg_type_info *ti = lgg_type_get(type);
        const size_t bytes = nblocks * ti->type_size, count = nblocks * ti->block_size;
        uint8_t *src = malloc(bytes);
        float *a = malloc(count * 4), *b = malloc(count * 4);
        for (int round = 0; round < 8; round++) {
            fill_blocks(type, src, nblocks, round);
            /* vary the start and length so unaligned heads and short runs are covered */
            const size_t skip = (size_t)(round % 3), nb = nblocks - skip - (size_t)(round % 5);
            CHECK(lgg_dequantize(type, src + skip * ti->type_size, nb * ti->type_size, LGG_LITTLE_ENDIAN, a,
                                 nb * ti->block_size) == LGG_OK);
            CHECK(lgg_dequantize_ref(type, src + skip * ti->type_size, nb * ti->type_size, LGG_LITTLE_ENDIAN, b,
                                     nb * ti->block_size) == LGG_OK);
            long d = first_diff(a, b, nb * ti->block_size);
            CHECKF(d < 0, "%s round %d: simd %a != ref %a at %ld", ti->name, round, d >= 0 ? a[d] : 0.0,
                   d >= 0 ? b[d] : 0.0, d);
        }
        free(src);
        free(a);
        free(b);
    }
}

/* A NaN scale comes out with the sign and payload ggml's x86 code gives it.
 * Where ggml applies an element's sign as a (+-1.0f) multiply its compiler
 * turns that into a negation, so the NaN's sign flips on negative elements;
 * where it multiplies by (q - 1) the NaN passes through whatever q is; in
 * q * d + m with both d and m NaN, d's wins (an x86 add returns its first
 * operand's NaN).  An element's sign is read from the block with scale 1.0. */
TEST(dequant_nan_scale_sign) {
    static const struct {
        uint32_t type;
        bool negates;
    } cases[] = {{LGG_TYPE_Q2_0, false},   {LGG_TYPE_TQ1_0, false},   {LGG_TYPE_TQ2_0, false},
                 {LGG_TYPE_IQ2_XXS, true}, {LGG_TYPE_IQ2_XS, true},   {LGG_TYPE_IQ2_S, true},
                 {LGG_TYPE_IQ3_XXS, true}, {LGG_TYPE_IQ3_S, true},    {LGG_TYPE_Q4_1, false},
                 {LGG_TYPE_Q5_1, false}};
    static const uint16_t nans[] = {0x7E00, 0xFE00, 0x7C01, 0xFD55, 0xFFFF};
    static const deq_api paths[] = {lgg_dequantize, lgg_dequantize_ref};
    const size_t nb = 9;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const lgg_type_info *ti = lgg_type_get(cases[c].type);
        const size_t bytes = nb * ti->type_size, n = nb * ti->block_size;
        uint8_t *blk = malloc(bytes), *one = malloc(bytes);
        float *sign = malloc(n * 4), *got = malloc(n * 4);
        fill_random(blk, bytes);
        memcpy(one, blk, bytes);
        const uint16_t h_one = 0x3C00;
        for (size_t b = 0; b < nb; b++) memcpy(one + b * ti->type_size + ti->fields[0].offset, &h_one, 2);
        REQUIRE(lgg_dequantize_ref(cases[c].type, one, bytes, LGG_LITTLE_ENDIAN, sign, n) == LGG_OK);
        for (size_t k = 0; k < sizeof nans / sizeof nans[0]; k++) {
            const uint16_t m_nan = 0x7EAB; /* the _1 types' m: another NaN, which must lose */
            for (size_t b = 0; b < nb; b++) {
                memcpy(blk + b * ti->type_size + ti->fields[0].offset, &nans[k], 2);
                if (cases[c].type == LGG_TYPE_Q4_1 || cases[c].type == LGG_TYPE_Q5_1)
                    memcpy(blk + b * ti->type_size + 2, &m_nan, 2);
            }
            const float d = lgg_f16_to_f32(nans[k]);
            uint32_t dbits;
            memcpy(&dbits, &d, 4);
            dbits |= 0x00400000u; /* a product's NaN is quiet */
            for (size_t p = 0; p < 2; p++) {
                REQUIRE(paths[p](cases[c].type, blk, bytes, LGG_LITTLE_ENDIAN, got, n) == LGG_OK);
                size_t bad = 0, first = 0;
                for (size_t i = 0; i < n; i++) {
                    uint32_t g, sb;
                    memcpy(&g, &got[i], 4);
                    memcpy(&sb, &sign[i], 4);
                    const uint32_t want = dbits ^ (cases[c].negates ? (sb & 0x80000000u) : 0u);
                    if (g != want && bad++ == 0) first = i;
                }
                CHECKF(bad == 0, "%s %s scale %04x: %zu values differ, first at %zu", ti->name,
                       p ? "ref" : "simd", nans[k], bad, first);
            }
        }
        free(blk);
        free(one);
        free(sign);
        free(got);
    }
}



/* ---- SIMD against the reference, harder ------------------------------------- */

/* Special values for a multi-byte field: the scale classes (inf, NaN, zero,
 * subnormal, largest), integer range edges and float rounding ties. */
static void special_field(uint32_t type, uint8_t *p, int width) {
    static const uint16_t h[] = {0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFFFF, 0x0000, 0x8000, 0x0001, 0x03FF, 0x7BFF, 0x3C00};
    static const uint32_t f[] = {0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0x00000000,
                                 0x80000000, 0x00000001, 0x007FFFFF, 0x7F7FFFFF, 0x4B800001, 0x80000001};
    if (width == 2) {
        memcpy(p, &h[rng() % (sizeof h / sizeof h[0])], 2);
    } else if (width == 4) {
        memcpy(p, &f[rng() % (sizeof f / sizeof f[0])], 4);
    } else if (type == LGG_TYPE_F64) {
        /* a random float, then nudged to a tie or just past it in double, or an out-of-range value */
        static const double edge[] = {1e39, -1e39, 1e-46, -1e-46, 3.4028235677973366e38, 1.401298464324817e-45 / 2,
                                      INFINITY, -INFINITY, NAN, 0.0, -0.0};
        const uint64_t r = rng();
        double v;
        if (r % 4 == 0) {
            v = edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
        } else {
            uint32_t fb = (uint32_t)(r >> 32);
            float x;
            memcpy(&x, &fb, 4);
            uint64_t db;
            v = (double)x;
            memcpy(&db, &v, 8);
            if ((db & 0x7FF0000000000000ull) != 0x7FF0000000000000ull) db += ((r >> 8) & 1 ? 1ull << 28 : (1ull << 28) + 1) - ((r >> 9) & 1 ? 0 : 2);
            memcpy(&v, &db, 8);
        }
        memcpy(p, &v, 8);
    } else { /* I64: small (the int32 fast path), edges, and ties above 2^24 */
        static const int64_t edge[] = {INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, (int64_t)INT32_MIN - 1,
                                       (int64_t)INT32_MAX + 1, (1ll << 53) + 1, -(1ll << 53) - 1, 16777217, -16777219,
                                       (1ll << 40) + (1ll << 16), 0};
        const uint64_t r = rng();
        int64_t v = r % 3 ? (int64_t)(int32_t)(r >> 16) >> (r % 24) : edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
        memcpy(p, &v, 8);
    }
}

/* Random blocks; in odd rounds every multi-byte field element is special with
 * probability 1/2 (IQ1_M's super-scale lives in the top nibbles of its four
 * scale words, so a special f16 is spread over them); rounds 2 and 6 of the
 * integer types are all special (mostly small values). */
static void fill_hard(uint32_t type, uint8_t *p, size_t nblocks, int round) {
    const lgg_type_info *ti = lgg_type_get(type);
    fill_random(p, nblocks * ti->type_size);
    const bool all = (round % 4 == 2) && ti->block_size == 1;
    if (round % 2 == 0 && !all) return;
    for (size_t b = 0; b < nblocks; b++) {
        uint8_t *blk = p + b * ti->type_size;
        if (type == LGG_TYPE_IQ1_M && rng() % 2) {
            uint16_t hv, sc;
            special_field(type, (uint8_t *)&hv, 2);
            for (int k = 0; k < 4; k++) {
                memcpy(&sc, blk + 48 + 2 * k, 2);
                sc = (uint16_t)((sc & 0x0FFF) | (((hv >> (4 * k)) & 0xF) << 12));
                memcpy(blk + 48 + 2 * k, &sc, 2);
            }
            continue;
        }
        for (int f = 0; f < ti->n_fields; f++)
            for (int c = 0; c < ti->fields[f].count; c++)
                if (all || rng() % 2) special_field(type, blk + ti->fields[f].offset + c * ti->fields[f].width, ti->fields[f].width);
    }
}

/* Many rounds per type, every start offset modulo 8 blocks and odd lengths,
 * so each kernel's main loop, tail and special-scale handling all run. */
TEST(dequant_simd_matches_ref_stress) {
    const size_t nblocks = 75;
    for (size_t t = 0; t < N_TYPES; t++) {
        const uint32_t type = ALL_TYPES[t];
        const lgg_type_info *ti = lgg_type_get(type);
        const size_t count = nblocks * ti->block_size;
        uint8_t *src = malloc(nblocks * ti->type_size);
        float *a = malloc(count * 4), *b = malloc(count * 4);
        const int rounds = ti->block_size == 1 ? 600 : 200;
        for (int round = 0; round < rounds; round++) {
            fill_hard(type, src, nblocks, round);
            const size_t skip = (size_t)(round % 8), nb = nblocks - skip - (size_t)(round / 8 % 11);
            const uint8_t *s = src + skip * ti->type_size;
            memset(a, 0x5A, count * 4);
            CHECK(lgg_dequantize(type, s, nb * ti->type_size, LGG_LITTLE_ENDIAN, a, nb * ti->block_size) == LGG_OK);
            CHECK(lgg_dequantize_ref(type, s, nb * ti->type_size, LGG_LITTLE_ENDIAN, b, nb * ti->block_size) == LGG_OK);
            long d = first_diff(a, b, nb * ti->block_size);
            CHECKF(d < 0, "%s round %d: simd %a != ref %a at %ld", ti->name, round, d >= 0 ? a[d] : 0.0,
                   d >= 0 ? b[d] : 0.0, d);
            /* nothing written past the end */
            if (nb < nblocks) {
                uint32_t tail;
                memcpy(&tail, a + nb * ti->block_size, 4);
                CHECK(tail == 0x5A5A5A5Au);
            }
            if (d >= 0) break;
        }
        free(src);
        free(a);
        free(b);
    }
}

/* Outputs of 8 MiB and more are decoded through a small buffer and written
 * with streaming stores: same floats, at any destination alignment, with a
 * partial last chunk, and nothing written outside the destination. */
TEST(dequant_large_output_streams) {
    static const uint32_t types[] = {LGG_TYPE_Q4_0, LGG_TYPE_IQ2_XXS, LGG_TYPE_F64, LGG_TYPE_Q6_K, LGG_TYPE_I8};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        const lgg_type_info *ti = lgg_type_get(types[t]);
        const size_t nb = ((size_t)(8u << 20) / 4 + 3 * 2048 + 256) / ti->block_size + 1, count = nb * ti->block_size;
        uint8_t *src = malloc(nb * ti->type_size);
        fill_hard(types[t], src, nb, 1);
        float *want = malloc(count * 4), *got = malloc(count * 4 + 64);
        REQUIRE(src && want && got);
        REQUIRE(lgg_dequantize_ref(types[t], src, nb * ti->type_size, LGG_LITTLE_ENDIAN, want, count) == LGG_OK);
        for (size_t off = 0; off < 3; off++) { /* 32-byte aligned (malloc'd), then 4 and 8 bytes past */
            memset(got, 0x5A, count * 4 + 64);
            CHECK(lgg_dequantize(types[t], src, nb * ti->type_size, LGG_LITTLE_ENDIAN, got + off, count) == LGG_OK);
            long d = first_diff(got + off, want, count);
            CHECKF(d < 0, "%s offset %zu: differs at %ld", ti->name, off, d);
            uint32_t before = 0x5A5A5A5Au, after;
            if (off) memcpy(&before, got + off - 1, 4);
            memcpy(&after, got + off + count, 4);
            CHECK(before == 0x5A5A5A5Au && after == 0x5A5A5A5Au);
        }
        free(src);
        free(want);
        free(got);
    }
}

/* The scalar reference itself on the integer and f64 edges, by value (the
 * AVX2 kernels are checked against it above). */
TEST(dequant_plain_edges_by_value) {
    const int64_t i64[] = {INT64_MIN, INT64_MAX, (1ll << 53) + 1, 16777217, 16777219, -16777219, (int64_t)INT32_MAX + 1,
                           3, -3, 0, INT32_MIN, (1ll << 40) + (1ll << 16) + 1};
    const float want64[] = {-9223372036854775808.0f, 9223372036854775808.0f, 9007199254740992.0f, 16777216.0f,
                            16777220.0f, -16777220.0f, 2147483648.0f, 3.0f, -3.0f, 0.0f, -2147483648.0f,
                            1099511758848.0f};
    float out[12];
    for (int pass = 0; pass < 2; pass++) {
        deq_api fn = pass ? lgg_dequantize_ref : lgg_dequantize;
        /* 8 + 4: one vector group and a tail */
        REQUIRE(fn(LGG_TYPE_I64, i64, sizeof i64, LGG_LITTLE_ENDIAN, out, 12) == LGG_OK);
        for (int k = 0; k < 12; k++) CHECKF(out[k] == want64[k], "pass %d i64[%d]: %a", pass, k, (double)out[k]);
        const int32_t i32[8] = {16777217, 16777219, -16777219, INT32_MAX, INT32_MIN, 1, -1, 33554435};
        const float want32[8] = {16777216.0f, 16777220.0f, -16777220.0f, 2147483648.0f, -2147483648.0f, 1, -1,
                                 33554436.0f};
        REQUIRE(fn(LGG_TYPE_I32, i32, sizeof i32, LGG_LITTLE_ENDIAN, out, 8) == LGG_OK);
        for (int k = 0; k < 8; k++) CHECK(out[k] == want32[k]);
        /* ties in f64 -> f32 round to even; overflow to inf; underflow to 0 */
        const double f64[8] = {1.0 + 0x1p-24, 1.0 + 0x1p-24 + 0x1p-40, 1.0 + 3 * 0x1p-24, 1e39, -1e39, 1e-50, -1e-50,
                               0x1p-149};
        REQUIRE(fn(LGG_TYPE_F64, f64, sizeof f64, LGG_LITTLE_ENDIAN, out, 8) == LGG_OK);
        CHECK(out[0] == 1.0f && out[1] == 1.0f + 0x1p-23f && out[2] == 1.0f + 0x1p-22f);
        CHECK(isinf(out[3]) && out[3] > 0 && isinf(out[4]) && out[4] < 0);
        CHECK(out[5] == 0.0f && !signbit(out[5]) && out[6] == 0.0f && signbit(out[6]) && out[7] == 0x1p-149f);
    }
}

/* ---- row ranges of files --------------------------------------------------- */

/* A file holding one [row_len, nrows] tensor of `type` with random payload
 * (special scales included), little- or big-endian; *data gets its LE bytes. */
static uint8_t *gen_type_file(uint32_t type, uint64_t row_len, uint64_t nrows, bool big, size_t *size,
                              const uint8_t *le_data) {
    const lgg_type_info *ti = lgg_type_get(type);
    const size_t bytes = (size_t)(row_len / ti->block_size * nrows) * ti->type_size;
    buf b = {0};
    b.big = big;
    gen_header(&b, 3, 1, 0);
    const uint64_t ne[2] = {row_len, nrows};
    gen_tensor(&b, 3, "t", 2, ne, type, 0);
    buf_pad(&b, 32);
    const size_t at = b.n;
    buf_put(&b, le_data, bytes);
    if (big) swap_blocks_to_big(ti, b.p + at, bytes / ti->type_size);
    *size = b.n;
    return b.p;
}

TEST(dequant_rows_mid_tensor) {
    const uint64_t nrows = 37;
    static const uint64_t ranges[][2] = {{0, 37}, {1, 36}, {5, 6}, {13, 29}, {36, 37}, {0, 1}, {20, 20}};
    for (size_t t = 0; t < N_TYPES; t++) {
        const uint32_t type = ALL_TYPES[t];
        const lgg_type_info *ti = lgg_type_get(type);
        const uint64_t row_len = ti->block_size == 1 ? 41 : 3 * (uint64_t)ti->block_size;
        const size_t row_bytes = (size_t)(row_len / ti->block_size) * ti->type_size;
        uint8_t *data = malloc(row_bytes * nrows);
        fill_hard(type, data, row_bytes * nrows / ti->type_size, 1);
        float *ref = malloc(row_len * nrows * 4), *got = malloc(row_len * nrows * 4 + 4);
        REQUIRE(lgg_dequantize_ref(type, data, row_bytes * nrows, LGG_LITTLE_ENDIAN, ref, row_len * nrows) == LGG_OK);
        for (int big = 0; big < 2; big++) {
            size_t sz;
            uint8_t *file = gen_type_file(type, row_len, nrows, big, &sz, data);
            lgg_file *f = NULL;
            REQUIRE(lgg_open_memory(file, sz, NULL, &f, NULL) == LGG_OK);
            const lgg_tensor *tn = lgg_tensor_at(f, 0);
            REQUIRE(tn && tn->type == type);
            for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
                const uint64_t r0 = ranges[r][0], r1 = ranges[r][1], cnt = (r1 - r0) * row_len;
                memset(got, 0x5A, row_len * nrows * 4 + 4);
                CHECK(lgg_dequantize_rows(f, tn, r0, r1, got, cnt) == LGG_OK);
                long d = first_diff(got, ref + r0 * row_len, cnt);
                CHECKF(d < 0, "%s %s rows %llu-%llu differ at %ld", ti->name, big ? "BE" : "LE",
                       (unsigned long long)r0, (unsigned long long)r1, d);
                uint32_t after;
                memcpy(&after, got + cnt, 4);
                CHECK(after == 0x5A5A5A5Au);
            }
            CHECK(lgg_dequantize_tensor(f, tn, got, row_len * nrows, 2) == LGG_OK);
            CHECKF(first_diff(got, ref, row_len * nrows) < 0, "%s %s tensor", ti->name, big ? "BE" : "LE");
            lgg_close(f);
            free(file);
        }
        free(data);
        free(ref);
        free(got);
    }
}

/* Sanity of the values themselves on a hand-made Q4_0 block, so a decoder
 * that agrees with itself but not with the format would still fail. */
TEST(dequant_q4_0_by_hand) {
    uint8_t blk[18];
    uint16_t d = 0x3C00; /* 1.0 */
    memcpy(blk, &d, 2);
    for (int j = 0; j < 16; j++) blk[2 + j] = (uint8_t)(j | ((15 - j) << 4));
    float out[32];
    REQUIRE(lgg_dequantize(LGG_TYPE_Q4_0, blk, sizeof blk, LGG_LITTLE_ENDIAN, out, 32) == LGG_OK);
    for (int j = 0; j < 16; j++) {
        CHECK(out[j] == (float)(j - 8));
        CHECK(out[j + 16] == (float)(7 - j));
    }
    /* exactly the names the header lists */
    CHECK(strcmp(lgg_simd_name(), "scalar") == 0 || strcmp(lgg_simd_name(), "avx2") == 0 ||
          strcmp(lgg_simd_name(), "neon") == 0);
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) CHECK_STR(lgg_simd_name(), "scalar");
#endif
#if defined(__aarch64__) && defined(__ARM_NEON)
    CHECK_STR(lgg_simd_name(), "neon"); /* so check-aarch64 really tests the NEON kernels */
#endif
}

TEST(dequant_plain_types_by_value) {
    int64_t i64[3] = {-5, 1ll << 40, 16777217};
    double f64[3] = {1.5, -1e300, 0.1};
    int8_t i8[3] = {-128, 0, 127};
    float out[3];
    REQUIRE(lgg_dequantize(LGG_TYPE_I64, i64, sizeof i64, LGG_LITTLE_ENDIAN, out, 3) == LGG_OK);
    CHECK(out[0] == -5.0f && out[1] == 1099511627776.0f && out[2] == 16777216.0f);
    REQUIRE(lgg_dequantize(LGG_TYPE_F64, f64, sizeof f64, LGG_LITTLE_ENDIAN, out, 3) == LGG_OK);
    CHECK(out[0] == 1.5f && isinf(out[1]) && out[1] < 0 && out[2] == 0.1f);
    REQUIRE(lgg_dequantize(LGG_TYPE_I8, i8, sizeof i8, LGG_LITTLE_ENDIAN, out, 3) == LGG_OK);
    CHECK(out[0] == -128.0f && out[1] == 0.0f && out[2] == 127.0f);
}

/* ---- big-endian ---------------------------------------------------------- */

static void check_big_endian(deq_api fn, uint32_t type, const uint8_t *le, size_t nblocks, const char *what) {
    const lgg_type_info *ti = lgg_type_get(type);
    const size_t bytes = nblocks * ti->type_size, count = nblocks * ti->block_size;
    uint8_t *be = malloc(bytes), *keep = malloc(bytes);
    memcpy(be, le, bytes);
    swap_blocks_to_big(ti, be, nblocks);
    memcpy(keep, be, bytes);
    float *a = malloc(count * 4), *b = malloc(count * 4);
    CHECK(fn(type, le, bytes, LGG_LITTLE_ENDIAN, a, count) == LGG_OK);
    CHECK(fn(type, be, bytes, LGG_BIG_ENDIAN, b, count) == LGG_OK);
    long d = first_diff(a, b, count);
    CHECKF(d < 0, "%s %s: big-endian differs at %ld", what, ti->name, d);
    CHECKF(memcmp(be, keep, bytes) == 0, "%s: source was modified", ti->name);
    free(be);
    free(keep);
    free(a);
    free(b);
}

TEST(dequant_big_endian_golden) {
    static golden_vec rows[512];
    const int n = golden_index("dequantize", rows, 512);
    REQUIRE(n > 0);
    for (int i = 0; i < n; i++) {
        size_t sz;
        uint8_t *in = golden_quant_bytes(rows[i].input, &sz);
        CHECKF(in != NULL, "cannot make %s", rows[i].input);
        if (!in) continue;
        const lgg_type_info *ti = lgg_type_get(rows[i].type_id);
        REQUIRE(ti && ti->type_size);
        check_big_endian(lgg_dequantize, rows[i].type_id, in, sz / ti->type_size, rows[i].input);
        check_big_endian(lgg_dequantize_ref, rows[i].type_id, in, sz / ti->type_size, rows[i].input);
        free(in);
    }
}

TEST(dequant_big_endian_all_types) {
    for (size_t t = 0; t < N_TYPES; t++) {
        const lgg_type_info *ti = lgg_type_get(ALL_TYPES[t]);
        const size_t nblocks = 300; /* more than one swap chunk for every type */
        uint8_t *p = malloc(nblocks * ti->type_size);
        fill_blocks(ALL_TYPES[t], p, nblocks, 1);
        check_big_endian(lgg_dequantize, ALL_TYPES[t], p, nblocks, "random");
        check_big_endian(lgg_dequantize_ref, ALL_TYPES[t], p, nblocks, "random");
        free(p);
    }
    /* a swapped field must actually change the result */
    float a[32], b[32];
    uint8_t q8[34] = {0x00, 0x3C, 5};
    CHECK(lgg_dequantize(LGG_TYPE_Q8_0, q8, 34, LGG_LITTLE_ENDIAN, a, 32) == LGG_OK);
    CHECK(lgg_dequantize(LGG_TYPE_Q8_0, q8, 34, LGG_BIG_ENDIAN, b, 32) == LGG_OK);
    CHECK(a[0] == 5.0f);
    CHECK(b[0] != 5.0f);
}

/* ---- argument contract ------------------------------------------------------- */

TEST(dequant_argument_errors) {
    static uint8_t src[4096];
    float dst[1024];
    for (int pass = 0; pass < 2; pass++) {
        deq_api fn = pass ? lgg_dequantize_ref : lgg_dequantize;
        CHECK(fn(LGG_TYPE_Q4_0, NULL, 18, LGG_LITTLE_ENDIAN, dst, 32) == LGG_ERR_ARG);
        CHECK(fn(LGG_TYPE_Q4_0, src, 18, LGG_LITTLE_ENDIAN, NULL, 32) == LGG_ERR_ARG);
        CHECK(fn(LGG_TYPE_Q4_0, src, 18, (lgg_endian)7, dst, 32) == LGG_ERR_ARG);
        CHECK(fn(4, src, sizeof src, LGG_LITTLE_ENDIAN, dst, 32) == LGG_ERR_UNSUPPORTED);
        CHECK(fn(31, src, sizeof src, LGG_LITTLE_ENDIAN, dst, 32) == LGG_ERR_UNSUPPORTED);
        CHECK(fn(LGG_TYPE_COUNT, src, sizeof src, LGG_LITTLE_ENDIAN, dst, 32) == LGG_ERR_UNSUPPORTED);
        CHECK(fn(UINT32_MAX, src, sizeof src, LGG_LITTLE_ENDIAN, dst, 32) == LGG_ERR_UNSUPPORTED);
        CHECK(fn(LGG_TYPE_Q4_0, src, sizeof src, LGG_LITTLE_ENDIAN, dst, 33) == LGG_ERR_RANGE);
        CHECK(fn(LGG_TYPE_Q4_K, src, sizeof src, LGG_LITTLE_ENDIAN, dst, 128) == LGG_ERR_RANGE);
        CHECK(fn(LGG_TYPE_Q4_0, src, 35, LGG_LITTLE_ENDIAN, dst, 64) == LGG_ERR_RANGE);
        CHECK(fn(LGG_TYPE_Q4_0, src, 36, LGG_LITTLE_ENDIAN, dst, 64) == LGG_OK);
        CHECK(fn(LGG_TYPE_F32, src, 4 * 1024 - 1, LGG_BIG_ENDIAN, dst, 1024) == LGG_ERR_RANGE);
        /* a count whose byte size overflows */
        CHECK(fn(LGG_TYPE_F64, src, sizeof src, LGG_LITTLE_ENDIAN, dst, UINT64_MAX) == LGG_ERR_RANGE);
        CHECK(fn(LGG_TYPE_Q8_K, src, sizeof src, LGG_LITTLE_ENDIAN, dst, UINT64_MAX / 256 * 256) == LGG_ERR_RANGE);
        /* zero elements is fine */
        CHECK(fn(LGG_TYPE_Q4_K, src, 0, LGG_LITTLE_ENDIAN, dst, 0) == LGG_OK);
    }
}

/* Reads stop at src_size: a buffer that ends exactly at the last block, at the
 * end of a page-sized heap allocation, is decoded without overrun (ASan). */
TEST(dequant_exact_size_buffers) {
    for (size_t t = 0; t < N_TYPES; t++) {
        const lgg_type_info *ti = lgg_type_get(ALL_TYPES[t]);
        for (size_t nb = 1; nb <= 9; nb += 4) {
            uint8_t *p = malloc(nb * ti->type_size);
            fill_random(p, nb * ti->type_size);
            float *o = malloc(nb * ti->block_size * 4);
            CHECK(lgg_dequantize(ALL_TYPES[t], p, nb * ti->type_size, LGG_LITTLE_ENDIAN, o, nb * ti->block_size) ==
                  LGG_OK);
            CHECK(lgg_dequantize(ALL_TYPES[t], p, nb * ti->type_size, LGG_BIG_ENDIAN, o, nb * ti->block_size) ==
                  LGG_OK);
            free(p);
            free(o);
        }
    }
}

/* ---- tensors of open files ------------------------------------------------- */

/* A file of ../shared/golden/quant/, whole. */
static unsigned char *read_golden(const char *name, size_t *size) {
    char rel[256];
    snprintf(rel, sizeof rel, "golden/quant/%s", name);
    return read_file(ref_path(rel), size); /* ../shared, or rebuilt and checked (standin.h) */
}

static lgg_file *open_path(const char *path) {
    lgg_file *f = NULL;
    if (!path || lgg_open_file(path, NULL, &f, NULL) != LGG_OK) return NULL;
    return f;
}
static lgg_file *open_shared(const char *rel) { return open_path(ref_path(rel)); }
/* A llama-quantize model, or its stand-in (standin.h). */
static lgg_file *open_model(const char *rel) { return open_path(model_path(rel)); }

/* ggml's own GGUF files of every type: each tensor (and slices of its rows)
 * dequantizes to the golden output of the same bytes. */
TEST(dequant_tensor_golden_files) {
    if (!need_models()) return;
    static golden_vec rows[512];
    const int n = golden_index("dequantize", rows, 512);
    REQUIRE(n > 0);
    size_t matched = 0;
    for (int i = 0; i < n; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "golden/ggml-types/type-%s.gguf", rows[i].type);
        lgg_file *f = open_shared(rel);
        if (!f) continue;
        size_t in_sz, out_sz;
        uint8_t *in = read_golden(rows[i].input, &in_sz);
        uint8_t *out = read_golden(rows[i].output, &out_sz);
        for (uint64_t k = 0; in && out && k < lgg_tensor_count(f); k++) {
            const lgg_tensor *t = lgg_tensor_at(f, k);
            if (t->size != in_sz || memcmp(t->data, in, in_sz) != 0) continue;
            matched++;
            const uint64_t cnt = t->n_elements;
            REQUIRE(cnt * 4 == out_sz);
            float *got = malloc(cnt * 4);
            for (int th = 1; th <= 3; th++) {
                memset(got, 0xAB, cnt * 4);
                CHECK(lgg_dequantize_tensor(f, t, got, cnt, th) == LGG_OK);
                CHECKF(first_diff(got, (const float *)out, cnt) < 0, "%s tensor %llu threads %d", rel,
                       (unsigned long long)k, th);
            }
            const uint64_t rl = (uint64_t)t->ne[0];
            CHECK(lgg_dequantize_rows(f, t, 2, 5, got, 3 * rl) == LGG_OK);
            CHECK(first_diff(got, (const float *)out + 2 * rl, 3 * rl) < 0);
            CHECK(lgg_dequantize_rows(f, t, 2, 5, got, 3 * rl - 1) == LGG_ERR_RANGE);
            CHECK(lgg_dequantize_rows(f, t, 5, 2, got, 3 * rl) == LGG_ERR_RANGE);
            CHECK(lgg_dequantize_rows(f, t, 0, (uint64_t)t->n_elements / rl + 1, got, cnt + rl) == LGG_ERR_RANGE);
            CHECK(lgg_dequantize_rows(f, t, 3, 3, got, 0) == LGG_OK);
            CHECK(lgg_dequantize_rows(NULL, t, 0, 1, got, rl) == LGG_ERR_ARG);
            CHECK(lgg_dequantize_rows(f, NULL, 0, 1, got, rl) == LGG_ERR_ARG);
            CHECK(lgg_dequantize_rows(f, t, 0, 1, NULL, rl) == LGG_ERR_ARG);
            CHECK(lgg_dequantize_tensor(f, t, got, cnt - 1, 1) == LGG_ERR_RANGE);
            CHECK(lgg_dequantize_tensor(f, t, NULL, cnt, 1) == LGG_ERR_ARG);
            free(got);
        }
        free(in);
        free(out);
        lgg_close(f);
    }
    CHECKF(matched >= 100, "only %zu golden tensors found in ggml-types/", matched);
}

/* Big-endian files dequantize to the same floats as the little-endian
 * originals, with any number of threads.  `be` must hold the same tensors. */
static void compare_be_file(lgg_file *le, lgg_file *be, const char *what) {
    CHECK(lgg_file_endian(be) == LGG_BIG_ENDIAN);
    REQUIRE(lgg_tensor_count(le) == lgg_tensor_count(be));
    size_t multi = 0;
    for (uint64_t k = 0; k < lgg_tensor_count(le); k++) {
        const lgg_tensor *a = lgg_tensor_at(le, k);
        int64_t j = lgg_find_tensor(be, a->name.ptr, (size_t)a->name.len);
        REQUIRE(j >= 0);
        const lgg_tensor *b = lgg_tensor_at(be, (uint64_t)j);
        REQUIRE(a->n_elements == b->n_elements && a->type == b->type);
        float *x = malloc(a->n_elements * 4), *y = malloc(a->n_elements * 4);
        CHECK(lgg_dequantize_tensor(le, a, x, a->n_elements, 1) == LGG_OK);
        static const int threads[] = {1, 2, 5, 0};
        for (size_t ti = 0; ti < 4; ti++) {
            memset(y, 0xCD, a->n_elements * 4);
            CHECK(lgg_dequantize_tensor(be, b, y, b->n_elements, threads[ti]) == LGG_OK);
            CHECKF(first_diff(x, y, a->n_elements) < 0, "%s: %.*s differs with %d threads", what,
                   (int)a->name.len, a->name.ptr, threads[ti]);
        }
        if (a->n_elements >= 2 * 64 * 1024) multi++;
        free(x);
        free(y);
    }
    CHECK(multi > 0); /* at least one tensor big enough to be split */
}

TEST(dequant_tensor_big_endian_f16) {
    if (!need_models()) return;
    lgg_file *le = open_model("golden/llama-quantize/pub-dense-f16.gguf");
    lgg_file *be = open_model("golden/llama-quantize/pub-dense-f16.BE.gguf");
    REQUIRE(le && be);
    compare_be_file(le, be, "pub-dense-f16.BE.gguf");
    lgg_close(le);
    lgg_close(be);
}

/* pub-dense-Q8_0.BE.gguf's header is big-endian, but its Q8_0 data is not a
 * faithful conversion: the converter swapped every 16-bit word of rows
 * 0,1,34,35,68,69... (it sliced a 2-D row array with block offsets) and left
 * the other rows untouched.  So rebuild the data section properly -- the
 * little-endian blocks with only each block's scale swapped, as the type
 * table says -- into a copy of that file and compare against that. */
TEST(dequant_tensor_big_endian_q8_0) {
    if (!need_models()) return;
    lgg_file *le = open_model("golden/llama-quantize/pub-dense-Q8_0.gguf");
    lgg_file *be0 = open_model("golden/llama-quantize/pub-dense-Q8_0.BE.gguf");
    REQUIRE(le && be0);
    const size_t n = (size_t)lgg_file_size(be0);
    uint8_t *copy = malloc(n);
    memcpy(copy, lgg_file_bytes(be0), n);
    size_t quant = 0;
    for (uint64_t k = 0; k < lgg_tensor_count(be0); k++) {
        const lgg_tensor *b = lgg_tensor_at(be0, k);
        const lgg_tensor *a = lgg_tensor_at(le, (uint64_t)lgg_find_tensor(le, b->name.ptr, (size_t)b->name.len));
        REQUIRE(a && a->size == b->size);
        uint8_t *dst = copy + b->file_offset;
        memcpy(dst, a->data, a->size);
        const lgg_type_info *ti = lgg_type_get(a->type);
        swap_blocks_to_big(ti, dst, a->size / ti->type_size);
        quant += a->type == LGG_TYPE_Q8_0;
    }
    CHECK(quant > 0);
    lgg_file *be = NULL;
    REQUIRE(lgg_open_memory(copy, n, NULL, &be, NULL) == LGG_OK);
    compare_be_file(le, be, "pub-dense-Q8_0 (re-swapped)");
    lgg_close(be);
    lgg_close(be0);
    lgg_close(le);
    free(copy);
}

/* A truncated download opened with LGG_OPEN_ALLOW_MISSING_DATA: tensors
 * whose data is missing are refused, present ones still decode. */
TEST(dequant_tensor_missing_data) {
    if (!need_models()) return;
    size_t sz;
    uint8_t *bytes = read_file(model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"), &sz);
    REQUIRE(bytes);
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(bytes, sz / 2, &o, &f, NULL) == LGG_OK);
    size_t missing = 0, present = 0;
    for (uint64_t k = 0; k < lgg_tensor_count(f); k++) {
        const lgg_tensor *t = lgg_tensor_at(f, k);
        float *x = malloc(t->n_elements * 4 + 4);
        lgg_status st = lgg_dequantize_tensor(f, t, x, t->n_elements, 2);
        if (t->data_available) {
            present++;
            CHECK(st == LGG_OK);
        } else {
            missing++;
            CHECK(st == LGG_ERR_UNSUPPORTED);
            CHECK(lgg_dequantize_rows(f, t, 0, 1, x, t->n_elements) == LGG_ERR_UNSUPPORTED);
        }
        free(x);
    }
    CHECK(missing > 0 && present > 0);
    lgg_close(f);
    free(bytes);
}
