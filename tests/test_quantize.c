/* test_quantize.c -- lgg_quantize against ggml's golden bytes, plus the
 * argument contract, NaN handling and row-split invariance. */
#include "test.h"
#include "libgguf.h"
#include "golden.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* A committed golden input of WANT_COUNT floats (golden.h), or NULL. */
static float *load_f32(const char *name, size_t want_count) {
    size_t n = 0;
    unsigned char *p = golden_input(name, &n);
    if (p && n != want_count * sizeof(float)) {
        free(p);
        p = NULL;
    }
    return (float *)p;
}

#include "quant/quant_internal.h"
#include "quant/iq_tables.h"

/* One golden row, through the dispatched path (simd) or the scalar
 * reference: its sha256 against the reference's; true when it matches. */
static bool golden_row_ok(const golden_vec *r, bool simd) {
    char name[128];
    const size_t count = (size_t)r->nrows * (size_t)r->n_per_row;
    float *in = load_f32(r->input, count), *imx = NULL;
    snprintf(name, sizeof name, "input.%s.imatrix.f32", r->cas);
    if (r->imatrix) imx = load_f32(name, (size_t)r->n_per_row);
    CHECKF(in && (!r->imatrix || imx), "%s: cannot read the golden inputs", r->output);
    unsigned char *out = malloc(r->bytes + 64);
    bool ok = in && (!r->imatrix || imx) && out;
    if (ok) {
        memset(out, 0xA5, r->bytes + 64);
        size_t written = 12345;
        lgg_status st = simd ? lgg_quantize(r->type_id, in, out, r->bytes + 64, r->nrows, r->n_per_row, imx, &written)
                             : lgg__quantize_path(r->type_id, in, out, r->bytes + 64, r->nrows, r->n_per_row, imx,
                                                  &written, false);
        /* every golden row must be produced: no type may be left unsupported */
        CHECKF(st == LGG_OK && written == r->bytes, "%s: status %d, written %zu (want %zu)", r->output, (int)st,
               written, r->bytes);
        ok = st == LGG_OK && written == r->bytes && golden_check(r, out, r->bytes, simd ? "dispatched" : "scalar");
        CHECKF(out[r->bytes] == 0xA5, "%s: wrote past the output", r->output);
        ok = ok && out[r->bytes] == 0xA5;
    }
    free(in), free(imx), free(out);
    return ok;
}

/* every golden row, through the dispatched path (simd) or the scalar reference */
static void golden_rows(bool simd) {
    static golden_vec rows[512];
    const int n = golden_index("quantize", rows, 512);
    REQUIRE(n > 200); /* 208 rows when the index was made */
    int matched = 0;
    for (int i = 0; i < n; i++) matched += golden_row_ok(&rows[i], simd);
    printf("    golden quantize rows (%s): %d total, %d match, %d mismatch\n", simd ? "dispatched" : "scalar only", n,
           matched, n - matched);
    CHECK(matched == n);
}

TEST(quant_golden_all_rows) { golden_rows(true); }
TEST(quant_golden_all_rows_scalar) { golden_rows(false); }

TEST(quant_needs_imatrix) {
    /* ggml_quantize_requires_imatrix's list; IQ1_M is not on it */
    static const uint32_t need[] = {LGG_TYPE_IQ2_XXS, LGG_TYPE_IQ2_XS, LGG_TYPE_IQ1_S};
    float x[256];
    for (int i = 0; i < 256; i++) x[i] = sinf(0.37f * (float)i);
    unsigned char out[512];
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        CHECKF(lgg_type_needs_imatrix(need[i]), "type %u", need[i]);
        CHECKF(lgg_type_can_quantize(need[i]), "type %u", need[i]);
        CHECK_EQ_U(lgg_quantize(need[i], x, out, sizeof out, 1, 256, NULL, NULL), LGG_ERR_NEEDS_IMATRIX);
    }
    CHECK(!lgg_type_needs_imatrix(LGG_TYPE_IQ1_M));
    size_t w = 0;
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_IQ1_M, x, out, sizeof out, 1, 256, NULL, &w), LGG_OK);
    CHECK_EQ_U(w, 56);
    CHECK(!lgg_type_needs_imatrix(LGG_TYPE_Q4_K));
    CHECK(!lgg_type_needs_imatrix(LGG_TYPE_IQ3_S));
    CHECK(!lgg_type_needs_imatrix(LGG_TYPE_Q8_0));
}

TEST(quant_can_quantize) {
    static const uint32_t yes[] = {LGG_TYPE_F32, LGG_TYPE_F16, LGG_TYPE_BF16, LGG_TYPE_Q4_0, LGG_TYPE_Q4_1,
                                   LGG_TYPE_Q5_0, LGG_TYPE_Q5_1, LGG_TYPE_Q8_0, LGG_TYPE_Q8_1, LGG_TYPE_Q2_K,
                                   LGG_TYPE_Q3_K, LGG_TYPE_Q4_K, LGG_TYPE_Q5_K, LGG_TYPE_Q6_K, LGG_TYPE_TQ1_0,
                                   LGG_TYPE_TQ2_0, LGG_TYPE_MXFP4, LGG_TYPE_NVFP4, LGG_TYPE_Q1_0, LGG_TYPE_Q2_0,
                                   LGG_TYPE_IQ4_NL, LGG_TYPE_IQ4_XS, LGG_TYPE_IQ2_XXS, LGG_TYPE_IQ2_XS,
                                   LGG_TYPE_IQ2_S, LGG_TYPE_IQ3_XXS, LGG_TYPE_IQ3_S, LGG_TYPE_IQ1_S,
                                   LGG_TYPE_IQ1_M};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) CHECKF(lgg_type_can_quantize(yes[i]), "type %u", yes[i]);
    static const uint32_t no[] = {LGG_TYPE_Q8_K, LGG_TYPE_I8, LGG_TYPE_I32, LGG_TYPE_F64, 4, 31, 36, LGG_TYPE_COUNT,
                                  1000};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) CHECKF(!lgg_type_can_quantize(no[i]), "type %u", no[i]);
}

TEST(quant_bad_arguments) {
    float x[512];
    for (int i = 0; i < 512; i++) x[i] = sinf((float)i);
    unsigned char out[4096];
    size_t w = 99;
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, NULL, out, sizeof out, 1, 32, NULL, &w), LGG_ERR_ARG);
    CHECK_EQ_U(w, 0);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, NULL, sizeof out, 1, 32, NULL, NULL), LGG_ERR_ARG);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, sizeof out, -1, 32, NULL, NULL), LGG_ERR_ARG);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, sizeof out, 1, 0, NULL, NULL), LGG_ERR_ARG);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q8_K, x, out, sizeof out, 1, 256, NULL, NULL), LGG_ERR_UNSUPPORTED);
    CHECK_EQ_U(lgg_quantize(4, x, out, sizeof out, 1, 32, NULL, NULL), LGG_ERR_UNSUPPORTED);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_COUNT, x, out, sizeof out, 1, 32, NULL, NULL), LGG_ERR_UNSUPPORTED);
    /* not a multiple of the block size */
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, sizeof out, 1, 48, NULL, NULL), LGG_ERR_RANGE);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_K, x, out, sizeof out, 1, 128, NULL, NULL), LGG_ERR_RANGE);
    /* dst one byte short, then exactly right */
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, 2 * 18 * 2 - 1, 2, 64, NULL, NULL), LGG_ERR_RANGE);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, 2 * 18 * 2, 2, 64, NULL, &w), LGG_OK);
    CHECK_EQ_U(w, 72);
    /* size overflow */
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_F32, x, out, sizeof out, INT64_MAX / 2, 4, NULL, NULL), LGG_ERR_RANGE);
    /* zero rows is a no-op */
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, 0, 0, 32, NULL, &w), LGG_OK);
    CHECK_EQ_U(w, 0);
}

/* ggml's validator only looks at the scales: a NaN that ends up in a scale is
 * rejected; one that only affects its own code is not (ggml accepts it too). */
TEST(quant_nan_rows) {
    float x[2 * 256];
    for (int i = 0; i < 512; i++) x[i] = cosf((float)i * 0.37f);
    unsigned char out[4096];
    size_t w = 0;
    /* Q8_0 and TQ1_0 take amax = MAX(amax, |x|): a NaN survives only as the
     * block's last value, then d is NaN and the row is rejected */
    x[256 + 31] = NAN; /* second row, last value of its first Q8_0 block */
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q8_0, x, out, sizeof out, 2, 256, NULL, &w), LGG_ERR_INVALID);
    CHECK_EQ_U(w, 8 * 34); /* the first row was accepted */
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_F16, x, out, sizeof out, 2, 256, NULL, NULL), LGG_ERR_INVALID);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_BF16, x, out, sizeof out, 2, 256, NULL, NULL), LGG_ERR_INVALID);
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_F32, x, out, sizeof out, 2, 256, NULL, NULL), LGG_ERR_INVALID);
    x[256 + 31] = 0.5f;
    x[256 + 5] = NAN; /* not last: ggml's max skips it and d stays finite */
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q8_0, x, out, sizeof out, 2, 256, NULL, NULL), LGG_OK);
    x[256 + 5] = 0.5f;
    x[256 + 255] = NAN;
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_TQ1_0, x, out, sizeof out, 2, 256, NULL, NULL), LGG_ERR_INVALID);
    x[256 + 255] = 0.5f;
    x[256 + 5] = NAN;
    /* with an imatrix the row's sigma^2 is NaN, so every weighted scale is */
    float imx[256];
    for (int i = 0; i < 256; i++) imx[i] = 1.0f;
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, sizeof out, 2, 256, imx, NULL), LGG_ERR_INVALID);
    /* Inf: Q4_0 reference, max = Inf gives d = -Inf */
    x[256 + 5] = INFINITY;
    CHECK_EQ_U(lgg_quantize(LGG_TYPE_Q4_0, x, out, sizeof out, 2, 256, NULL, NULL), LGG_ERR_INVALID);
    /* finite data always passes */
    x[256 + 5] = 1.0f;
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_can_quantize(t)) continue;
        lgg_status st = lgg_quantize(t, x, out, sizeof out, 2, 256, lgg_type_needs_imatrix(t) ? imx : NULL, NULL);
        CHECKF(st == LGG_OK, "type %u: %d", t, (int)st);
    }
}

/* Quantizing row by row gives the same bytes as all rows at once. */
TEST(quant_row_split_invariance) {
    size_t n = 0;
    float *in = (float *)golden_input("input.weights.f32", &n);
    float *imx = (float *)golden_input("input.weights.imatrix.f32", &n);
    REQUIRE(in && imx);
    enum { NR = 8, NPR = 512 };
    static unsigned char all[NR * NPR * 4], one[NR * NPR * 4];
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_can_quantize(t)) continue;
        for (int use = 0; use < 2; use++) {
            const float *q = use || lgg_type_needs_imatrix(t) ? imx : NULL;
            size_t wa = 0;
            CHECK(lgg_quantize(t, in, all, sizeof all, NR, NPR, q, &wa) == LGG_OK);
            const size_t rs = wa / NR;
            for (int r = 0; r < NR; r++) {
                size_t w1 = 0;
                CHECK(lgg_quantize(t, in + r * NPR, one + r * rs, rs, 1, NPR, q, &w1) == LGG_OK);
                CHECK_EQ_U(w1, rs);
            }
            CHECKF(memcmp(all, one, wa) == 0, "type %u imatrix %d: row split differs", t, use);
        }
    }
    free(in);
    free(imx);
}

/* ---- SIMD kernels against the scalar reference ---------------------------- */

typedef void (*qpath_fn)(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd);

static uint64_t simd_rng = 0x9E3779B97F4A7C15ull;
static float simd_rand(void) {
    simd_rng ^= simd_rng << 13, simd_rng ^= simd_rng >> 7, simd_rng ^= simd_rng << 17;
    return (float)((double)(simd_rng >> 11) / 9007199254740992.0);
}

/* one row of 1024 values in a style that stresses a different branch of the
 * scale search: gaussian-ish, all positive, all negative, constant runs,
 * exact zeros, huge/tiny magnitudes, few distinct values (ties) */
static void simd_fill(float *x, int n, int style) {
    for (int i = 0; i < n; i++) {
        float g = simd_rand() + simd_rand() + simd_rand() - 1.5f;
        switch (style % 7) {
        case 0: x[i] = g; break;
        case 1: x[i] = fabsf(g) + 0.25f; break;
        case 2: x[i] = -fabsf(g) - 1e-3f; break;
        case 3: x[i] = (i / 16) % 3 == 0 ? 0.5f : (i / 16) % 3 == 1 ? 0.0f : g; break;
        case 4: x[i] = simd_rand() < 0.5f ? 0.0f : g; break;
        case 5: x[i] = g * ((i / 32) % 2 ? 1e-30f : 3e4f); break;
        default: x[i] = (float)((int)(simd_rand() * 4.0f)) - 1.5f; break;
        }
    }
}

static void simd_compare(const char *name, qpath_fn fn, size_t bs, const float *x, int64_t n, const float *qw) {
    const size_t len = (size_t)(n / 256) * bs;
    unsigned char *a = malloc(len), *b = malloc(len);
    REQUIRE(a && b);
    memset(a, 0x11, len);
    memset(b, 0x22, len);
    fn(x, a, n, qw, false);
    fn(x, b, n, qw, true);
    size_t k = 0;
    while (k < len && a[k] == b[k]) k++;
    CHECKF(k == len, "%s: simd differs from scalar at byte %zu (%02x != %02x)", name, k, k < len ? b[k] : 0,
           k < len ? a[k] : 0);
    free(a), free(b);
}

TEST(quant_simd_matches_scalar) {
    static const struct {
        const char *name;
        qpath_fn fn;
        size_t bs;
    } T[] = {{"q2_k", lgg__qrow_q2_k_path, 84}, {"q4_k", lgg__qrow_q4_k_path, 144}, {"q5_k", lgg__qrow_q5_k_path, 176},
                 {"q6_k", lgg__qrow_q6_k_path, 210}};
    printf("    quantizer SIMD path on this CPU: %s\n", lgg__cpu_avx512()      ? "avx2, avx512 (K-quant scale search)"
                                                 : lgg__cpu_avx2_f16c() ? "avx2"
                                                                        : "none (scalar only)");
    enum { N = 1024 };
    float *x = malloc(N * sizeof(float));
    REQUIRE(x);
    for (int round = 0; round < 70; round++) {
        simd_fill(x, N, round);
        for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) simd_compare(T[t].name, T[t].fn, T[t].bs, x, N, NULL);
        /* Q6_K's SIMD search also runs with an imatrix */
        float qw[N];
        for (int i = 0; i < N; i++) qw[i] = round % 2 ? 0.5f + simd_rand() : (float)(i % 3);
        simd_compare("q6_k+imatrix", lgg__qrow_q6_k_path, 210, x, N, qw);
    }
    free(x);
    /* the golden inputs too (every case, all rows) */
    static const char *const cases[] = {"gauss", "weights", "uniform", "edge"};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char rel[128];
        snprintf(rel, sizeof rel, "input.%s.f32", cases[c]);
        size_t len = 0;
        float *in = (float *)golden_input(rel, &len);
        CHECKF(in && len >= 256 * sizeof(float), "cannot read %s", rel);
        if (!in) continue;
        const int64_t n = (int64_t)(len / sizeof(float)) / 256 * 256;
        for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) simd_compare(T[t].name, T[t].fn, T[t].bs, in, n, NULL);
        free(in);
    }
}

/* ---- every type: dispatched path == scalar reference on adversarial rows ---- */

/* Rows built to hit the rounding and reduction corner cases of the kernels:
 * styles 0-6 as simd_fill; then exact ties after scaling (values k/2 with a
 * largest magnitude that makes the scale a power of two), +0/-0 mixtures,
 * denormals, NaN/Inf/FLT_MAX sprinkled, constant rows, all -0, and a largest
 * magnitude reached by both +v and -v. */
static void adv_fill(float *x, int n, int style) {
    static const float amax_pick[] = {8, -8, 16, -16, 127, -127, 15, 31, 63, 4, -4, 3};
    if (style < 7) {
        simd_fill(x, n, style);
        return;
    }
    const int r = (int)(simd_rand() * 1e6f);
    for (int i = 0; i < n; i++) {
        const float u = simd_rand();
        float g = simd_rand() + simd_rand() + simd_rand() - 1.5f;
        switch (style) {
        case 7: x[i] = (float)((int)(u * 33.0f) - 16) * 0.5f; break;
        case 8: x[i] = u < 0.3f ? 0.0f : u < 0.6f ? -0.0f : u < 0.8f ? g : (u < 0.9f ? 1.0f : -1.0f); break;
        case 9: x[i] = u < 0.3f ? 0.0f : g * 1e-39f; break;
        case 10: {
            static const float sp[] = {NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1e38f, -3e38f};
            x[i] = u < 0.02f ? sp[(int)(simd_rand() * 7.0f) % 7] : g;
            break;
        }
        case 11: x[i] = (float)(r % 7 - 3) * 0.37f; break;
        case 12: x[i] = -0.0f; break;
        case 13: x[i] = u < 0.5f ? -0.0f : 0.0f; break;
        case 14: x[i] = (float)((int)(u * 5.0f) - 2) * (r % 2 ? 1.0f : -1.0f); break;
        default: {
            /* IQ4's levels and the midpoints between them: exact ties once
             * the first largest value (127) makes the scale 1 */
            static const float lv[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};
            const int k = (int)(u * 15.0f) % 15;
            x[i] = simd_rand() < 0.3f ? lv[k] : (lv[k] + lv[k + 1]) / 2;
            if (i % 32 == 0) x[i] = 127.0f;
            break;
        }
        }
    }
    if (style == 7 || style == 14) {
        /* pin the largest magnitude so x * id lands on .5 ties */
        const int k = (int)(simd_rand() * (float)n) % n;
        x[k] = amax_pick[r % (int)(sizeof amax_pick / sizeof amax_pick[0])];
        if (style == 14) x[(k + 1) % n] = -x[k]; /* and its negation too */
    }
}

static void path_compare(uint32_t t, const float *x, int64_t nrows, int64_t npr, const float *qw, const char *what) {
    const lgg_type_info *ti = lgg_type_get(t);
    const size_t len = (size_t)(npr / ti->block_size) * ti->type_size * (size_t)nrows;
    unsigned char *a = malloc(len + 1), *b = malloc(len + 1);
    REQUIRE(a && b);
    memset(a, 0x5A, len + 1);
    memset(b, 0x5A, len + 1);
    size_t wa = 0, wb = 0;
    const lgg_status sa = lgg__quantize_path(t, x, a, len, nrows, npr, qw, &wa, false);
    const lgg_status sb = lgg__quantize_path(t, x, b, len, nrows, npr, qw, &wb, true);
    size_t k = 0;
    while (k < len && a[k] == b[k]) k++;
    CHECKF(sa == sb && wa == wb && k == len, "%s n=%lld imatrix=%d (%s): status %d/%d, first diff at byte %zu of %zu",
           lgg_type_name(t), (long long)npr, qw != NULL, what, (int)sa, (int)sb, k, len);
    free(a), free(b);
}

TEST(quant_simd_paths_all_types) {
    enum { MAXN = 9 * 256 };
    float *x = malloc(MAXN * sizeof(float)), *qw = malloc(MAXN * sizeof(float));
    REQUIRE(x && qw);
    int compared = 0;
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_can_quantize(t)) continue;
        const lgg_type_info *ti = lgg_type_get(t);
        /* the slow grid searches get fewer rounds */
        const bool slow = t == LGG_TYPE_IQ2_XXS || t == LGG_TYPE_IQ2_XS || t == LGG_TYPE_IQ2_S ||
                          t == LGG_TYPE_IQ3_XXS || t == LGG_TYPE_IQ3_S || t == LGG_TYPE_IQ1_S || t == LGG_TYPE_IQ1_M;
        const int rounds = slow ? 16 : 64;
        for (int round = 0; round < rounds; round++) {
            const int64_t nblk = 1 + round % (ti->block_size >= 256 ? 4 : 9);
            const int64_t npr = nblk * (int64_t)ti->block_size;
            adv_fill(x, (int)npr, round % 16);
            for (int64_t i = 0; i < npr; i++) qw[i] = round % 3 == 0 ? (float)(i % 4) : 0.25f + simd_rand();
            if (!lgg_type_needs_imatrix(t)) path_compare(t, x, 1, npr, NULL, "no imatrix");
            path_compare(t, x, 1, npr, qw, "imatrix");
            compared++;
        }
    }
    printf("    %d adversarial rows compared, dispatched vs scalar, on every type\n", compared);
    free(x), free(qw);
}

/* f32 -> f16 / bf16 rows: a stride through all 2^32 bit patterns, and around
 * every half's value and rounding midpoint (ties to even, +-1 ulp) */
TEST(quant_simd_f16_bf16_rows) {
    enum { CH = 4096 };
    static float x[CH];
    static unsigned char a[2 * CH], b[2 * CH];
    uint64_t mism16 = 0, mismbf = 0, total = 0;
    int fill = 0;
    uint64_t u = 0;
    for (;;) {
        x[fill++] = 0; /* replaced below */
        memcpy(&x[fill - 1], &(uint32_t){(uint32_t)u}, 4);
        u += 9973;
        const bool last = u >= (UINT64_C(1) << 32);
        if (fill == CH || last) {
            lgg__qrow_f16_path(x, a, fill, NULL, false);
            lgg__qrow_f16_path(x, b, fill, NULL, true);
            mism16 += memcmp(a, b, 2 * (size_t)fill) != 0;
            lgg__qrow_bf16_path(x, a, fill, NULL, false);
            lgg__qrow_bf16_path(x, b, fill, NULL, true);
            mismbf += memcmp(a, b, 2 * (size_t)fill) != 0;
            total += (uint64_t)fill;
            fill = 0;
        }
        if (last) break;
    }
    for (uint32_t h = 0; h < 65536; h += CH / 8) {
        int m = 0;
        for (uint32_t k = h; k < h + CH / 8; k++) {
            const float v = lgg_f16_to_f32((uint16_t)k), w = lgg_f16_to_f32((uint16_t)(k + 1));
            const float mid = (float)(((double)v + (double)w) / 2);
            x[m++] = v;
            x[m++] = nextafterf(v, INFINITY);
            x[m++] = nextafterf(v, -INFINITY);
            x[m++] = mid;
            x[m++] = nextafterf(mid, INFINITY);
            x[m++] = nextafterf(mid, -INFINITY);
            x[m++] = -mid;
            x[m++] = (float)k * 1e-45f;
        }
        lgg__qrow_f16_path(x, a, m, NULL, false);
        lgg__qrow_f16_path(x, b, m, NULL, true);
        mism16 += memcmp(a, b, 2 * (size_t)m) != 0;
        lgg__qrow_bf16_path(x, a, m, NULL, false);
        lgg__qrow_bf16_path(x, b, m, NULL, true);
        mismbf += memcmp(a, b, 2 * (size_t)m) != 0;
        total += (uint64_t)m;
    }
    /* odd lengths: the scalar tails */
    for (int n = 1; n < 40; n++) {
        for (int i = 0; i < n; i++) x[i] = simd_rand() * 1e5f - 5e4f;
        lgg__qrow_f16_path(x, a, n, NULL, false);
        lgg__qrow_f16_path(x, b, n, NULL, true);
        mism16 += memcmp(a, b, 2 * (size_t)n) != 0;
        lgg__qrow_bf16_path(x, a, n, NULL, false);
        lgg__qrow_bf16_path(x, b, n, NULL, true);
        mismbf += memcmp(a, b, 2 * (size_t)n) != 0;
    }
    printf("    f16/bf16 rows: %llu values compared\n", (unsigned long long)total);
    CHECK_EQ_U(mism16, 0);
    CHECK_EQ_U(mismbf, 0);
}

#if defined(LGG__QX86)
/* IQ4's nearest-level choice in lanes against lgg__best_index_i8 at every
 * level, midpoint (a tie: the upper level wins) and their neighbours, and
 * the non-finite inputs */
TEST(quant_simd_iq4_nearest_level) {
    if (!lgg__cpu_avx2_f16c()) return;
    float x[32 * 64];
    int m = 0;
    for (int k = 0; k < 16; k++) {
        const float v = lgg__kvalues_iq4nl[k], w = k < 15 ? lgg__kvalues_iq4nl[k + 1] : 200.0f;
        const float mid = (v + w) / 2;
        const float c[] = {v, nextafterf(v, -INFINITY), nextafterf(v, INFINITY), mid, nextafterf(mid, -INFINITY),
                           nextafterf(mid, INFINITY), -mid, (v + mid) / 2};
        for (size_t j = 0; j < sizeof c / sizeof c[0]; j++) x[m++] = c[j];
    }
    const float sp[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e30f, -1e30f, FLT_MAX, -FLT_MAX, 1e-40f};
    for (size_t j = 0; j < sizeof sp / sizeof sp[0]; j++) x[m++] = sp[j];
    for (; m % 32; m++) x[m] = (float)m - 100.0f;
    int bad = 0;
    for (int b = 0; b < m / 32; b++) {
        uint8_t q[16];
        lgg__iq4_codes_avx2(x + 32 * b, 1.0f, q);
        for (int j = 0; j < 32; j++) {
            const int want = lgg__best_index_i8(16, lgg__kvalues_iq4nl, x[32 * b + j]);
            const int got = j < 16 ? q[j] & 15 : q[j - 16] >> 4;
            if (got != want) {
                bad++;
                test_fail(__FILE__, __LINE__, "x=%a: level %d, scalar %d", (double)x[32 * b + j], got, want);
            }
        }
    }
    CHECK(bad == 0);
}
#endif

/* The FP4 scales the quantizers and decoders share (quant/deq.h), built from
 * bits, against ggml's definitions: UE4M3 through ldexpf, halved (0x00 and
 * 0x7F zero, the top bit ignored); E8M0 halved, 2^(e - 128). */
#include "quant/deq.h"
/* MXFP4's block exponent from the exponent field (lgg__mxfp4_e8m0) against
 * ggml's floorf(log2f(amax)): every exponent with the mantissas at the
 * edges of its fast path, subnormals, the largest float and infinity. */
TEST(quant_mxfp4_exponent_as_log2f) {
    static const uint32_t MAN[] = {0, 1, 0x123456, 0x400000, 0x7fdfff, 0x7fe000, 0x7ff000, 0x7ffffe, 0x7fffff};
    for (uint32_t ex = 0; ex < 256; ex++)
        for (size_t k = 0; k < sizeof MAN / sizeof MAN[0]; k++) {
            const uint32_t bits = ex << 23 | MAN[k];
            float a;
            memcpy(&a, &bits, 4);
            if (a != a) continue; /* NaN: the block's largest |x| skips them */
            const uint8_t want = a > 0.0f ? (uint8_t)lgg__f2i(floorf(log2f(a)) - 2 + 127) : 0, got = lgg__mxfp4_e8m0(a);
            CHECKF(got == want, "amax %a (%08x): %u, log2f gives %u", (double)a, bits, got, want);
        }
}

/* MXFP4's codes where a nearest-level choice is closest to a tie: blocks
 * of the levels (0 1 2 3 4 6 8 12) and the midpoints between them times
 * the block's scale, one float either side of them, and values anywhere
 * below 16 times the scale, at scales 2^-150 to 2^129 (subnormal blocks,
 * an exponent that wraps, levels that overflow): the dispatched path (the
 * AVX2 midpoint count) gives the bytes of the scalar scan. */
TEST(quant_mxfp4_ties_dispatched_as_scalar) {
    enum { NB = 2048 };
    static float x[NB * 32];
    static uint8_t a[NB * 17], b[NB * 17];
    static const float M[] = {0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 5, 6, 7, 8, 10, 12, 14, 15, 0x1.fffffep+3f};
    uint64_t r = 88172645463325252ull;
    int differ = 0, refused = 0, row_differ = 0, rows_ok = 0;
    for (int round = 0; round < 40; round++) {
        for (int i = 0; i < NB * 32; i++) {
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            static float d;
            if (i % 32 == 0) d = ldexpf(1.0f, (int)((r >> 8) % 275) - 150); /* one scale per block, 16 d finite */
            float m = M[(r >> 20) % 18] * d;
            uint32_t u;
            memcpy(&u, &m, 4);
            const int how = (int)((r >> 28) % 5);
            if (how == 1 && m > 0) u++;
            else if (how == 2 && m > 0) u--;
            memcpy(&m, &u, 4);
            if (how == 3) m = (float)((r >> 32) % 1000000) / 62500.0f * d;
            x[i] = (r >> 60) & 1 ? -m : m;
        }
        for (int ib = 0; ib < NB; ib++) { /* a block at a time: one whose E8M0 would be 0xFF is refused by both */
            size_t w = 0;
            const lgg_status sa = lgg__quantize_path(LGG_TYPE_MXFP4, x + ib * 32, a + ib * 17, 17, 1, 32, NULL, &w, false);
            const lgg_status sb = lgg__quantize_path(LGG_TYPE_MXFP4, x + ib * 32, b + ib * 17, 17, 1, 32, NULL, &w, true);
            differ += sa != sb || (sa == LGG_OK && memcmp(a + ib * 17, b + ib * 17, 17) != 0);
            refused += sa != LGG_OK;
        }
        /* then rows of 8 and of 11 blocks (the AVX2 path takes 8 at a time,
         * blocks of either kind side by side, and the rest one by one) */
        for (int per = 8; per <= 11; per += 3)
            for (int ib = 0; ib + per <= NB; ib += per) {
                size_t w = 0;
                const size_t len = (size_t)per * 17;
                const float *xr = x + ib * 32;
                const lgg_status sa = lgg__quantize_path(LGG_TYPE_MXFP4, xr, a + ib * 17, len, 1, per * 32, NULL, &w, false);
                const lgg_status sb = lgg__quantize_path(LGG_TYPE_MXFP4, xr, b + ib * 17, len, 1, per * 32, NULL, &w, true);
                row_differ += sa != sb || (sa == LGG_OK && memcmp(a + ib * 17, b + ib * 17, len) != 0);
                rows_ok += sa == LGG_OK;
            }
    }
    CHECKF(differ == 0, "%d of %d blocks differ", differ, 40 * NB);
    CHECKF(refused < 40 * NB / 100, "%d of %d blocks refused", refused, 40 * NB);
    CHECKF(row_differ == 0 && rows_ok > 40 * NB / 16, "%d rows differ, %d quantized", row_differ, rows_ok);
}

TEST(quant_fp4_scales_exact) {
    for (int v = 0; v < 256; v++) {
        const int ex = (v >> 3) & 0xF, man = v & 7;
        float want = 0.0f;
        if (v != 0 && v != 0x7F) want = (ex == 0 ? ldexpf((float)man, -9) : ldexpf(1.0f + (float)man / 8.0f, ex - 7)) * 0.5f;
        const float got = lgg__ue4m3_half((uint8_t)v);
        CHECKF(memcmp(&got, &want, 4) == 0, "ue4m3 %02x: %a != %a", v, (double)got, (double)want);
        const float e = lgg__e8m0_half((uint8_t)v), we = ldexpf(1.0f, v - 128);
        CHECKF(memcmp(&e, &we, 4) == 0, "e8m0 %02x: %a != %a", v, (double)e, (double)we);
    }
}
