/* test_qsearch_lanes.c -- the SIMD make_qkx2_quants kernels (AVX-512: 16 or
 * 32 sub-blocks in the lanes of one or two vectors; AVX2: 16 in two) called
 * directly on seeded sub-blocks, each against the scalar search
 * (lgg__make_qkx3_quants with ggml's reference weights), comparing the levels
 * byte for byte and the scales and mins bit for bit.  Every lane of a call
 * gets a sub-block of its own kind (gaussian, one-signed, zeros, constant,
 * huge, tiny, denormal, NaN, Inf, FLT_MAX, ties, signed zeros), so the
 * per-lane selects meet their neighbours' special cases; some calls give
 * every lane the same kind.  make_qkx3_quants with imatrix weights, and make_qx_quants (rmse_type 1: Q6_K, Q3_K, and
 * Q4_0/Q5_0 with an imatrix) likewise, against lgg__make_qx_quants.  The row tests (test_quantize.c) reach only the
 * kernel the dispatch picks on this CPU; here both are checked where the CPU
 * has them. */
#include "test.h"
#include "quant/quant_internal.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#if defined(LGG__QX86)

/* The same bits; for a NaN, any NaN: its sign is which operand the scalar code's compiler put first
 * (gcc's and clang's builds of the scalar search give opposite signs on the same input), not part of
 * the search's result. */
static bool same_float(float a, float b) {
    if (a != a || b != b) return a != a && b != b;
    return memcmp(&a, &b, sizeof a) == 0;
}
static uint64_t lane_rng = 0xD1B54A32D192ED03ull;
static float lane_rand(void) {
    lane_rng ^= lane_rng << 13, lane_rng ^= lane_rng >> 7, lane_rng ^= lane_rng << 17;
    return (float)((double)(lane_rng >> 11) / 9007199254740992.0);
}

enum { KINDS = 16 };

/* one sub-block of n values of the given kind */
static void lane_fill(float *x, int n, int kind) {
    static const float special[] = {NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1e38f, -3e38f};
    const float c = (lane_rand() - 0.5f) * 8.0f;
    for (int i = 0; i < n; i++) {
        const float u = lane_rand(), g = lane_rand() + lane_rand() + lane_rand() - 1.5f;
        switch (kind) {
        case 0: x[i] = g; break;
        case 1: x[i] = fabsf(g) + 0.25f; break;             /* min > 0: clamped to 0 */
        case 2: x[i] = -fabsf(g) - 1e-3f; break;            /* all negative */
        case 3: x[i] = 0.0f; break;                         /* flat */
        case 4: x[i] = c; break;                            /* constant: flat, or not when c > 0 */
        case 5: x[i] = g * 3e4f; break;
        case 6: x[i] = g * 1e-30f; break;
        case 7: x[i] = u < 0.3f ? 0.0f : g * 1e-39f; break; /* denormals */
        case 8: x[i] = u < 0.1f ? NAN : g; break;
        case 9: x[i] = u < 0.1f ? (u < 0.05f ? INFINITY : -INFINITY) : g; break;
        case 10: x[i] = u < 0.05f ? special[(int)(lane_rand() * 7.0f) % 7] : g; break;
        case 11: x[i] = (float)((int)(u * 33.0f) - 16) * 0.5f; break; /* ties after scaling */
        case 12: x[i] = u < 0.5f ? -0.0f : 0.0f; break;
        case 13: x[i] = (float)((int)(u * 4.0f)) - 1.5f; break;       /* few distinct values */
        case 14: x[i] = i == 0 ? 1e6f : g; break;                    /* one outlier */
        default: x[i] = g * (i % 2 ? 1e-3f : 1.0f) + 100.0f; break;  /* far from 0 */
        }
    }
}

typedef struct lane_shape {
    const char *name;
    int n, nmax, wmode, nstep;
    float rmin;
    bool use_mad;
} lane_shape;

/* Q4_K, Q5_K, Q2_K; with an imatrix (weights given: make_qkx3_quants) Q4_K
 * and Q2_K */
static const lane_shape SHAPES[] = {
    {"q4_k", 32, 15, LGG__QW_AVABS, 20, -1.0f, false},
    {"q5_k", 32, 31, LGG__QW_AVABS, 15, -0.5f, false},
    {"q2_k", 16, 3, LGG__QW_ABS, 15, -0.5f, true},
};
static const lane_shape SHAPES3[] = {
    {"q4_k+imatrix", 32, 15, LGG__QW_GIVEN, 36, -0.9f, false},
    {"q2_k+imatrix", 16, 3, LGG__QW_GIVEN, 36, -0.9f, false},
};
static float lane_w[32 * 32]; /* the weights of LGG__QW_GIVEN */

/* the scalar search of sub-block j of x: levels to L, scale and min */
static void lane_ref(const lane_shape *s, int j, const float *xrow, uint8_t *L, float *scale, float *min) {
    const float *x = xrow + j * s->n;
    float w[32], av = 0;
    uint8_t Laux[32];
    if (s->wmode == LGG__QW_GIVEN) {
        *scale = lgg__make_qkx3_quants(s->n, s->nmax, x, lane_w + j * s->n, L, min, Laux, s->rmin, 0.05f, s->nstep,
                                       false);
        return;
    }
    if (s->wmode == LGG__QW_AVABS) {
        float sum_x2 = 0;
        for (int i = 0; i < s->n; i++) sum_x2 += x[i] * x[i];
        av = sqrtf(sum_x2 / (float)s->n);
    }
    for (int i = 0; i < s->n; i++) w[i] = s->wmode == LGG__QW_AVABS ? av + fabsf(x[i]) : fabsf(x[i]);
    *scale = lgg__make_qkx3_quants(s->n, s->nmax, x, w, L, min, Laux, s->rmin, 0.1f, s->nstep, s->use_mad);
}

typedef void (*lanes_fn)(int n, int nmax, const float *const x[], uint8_t *const L[], float *const scales[],
                         float *const mins[], float rmin, float rdelta, int nstep);

/* One call of fn on `groups` groups of 8 sub-blocks (group g at x + base[g]*8n)
 * against the scalar search of each; returns whether all matched. */
typedef void (*lanes3_fn)(int n, int nmax, const float *const x[], const float *const w[], uint8_t *const L[],
                          float *const scales[], float *const mins[], float rmin, float rdelta, int nstep);

static bool lanes_call(const lane_shape *s, lanes_fn fn, lanes3_fn fn3, int groups, const int *base, const float *x,
                       const char *what, int round) {
    enum { MAXSUB = 32 };
    uint8_t L[MAXSUB * 32], Lr[32];
    float sc[MAXSUB], mn[MAXSUB];
    memset(L, 0xA5, sizeof L);
    memset(sc, 0xA5, sizeof sc);
    memset(mn, 0xA5, sizeof mn);
    const float *xs[4];
    uint8_t *Ls[4];
    float *ss[4], *ms[4];
    for (int g = 0; g < groups; g++) {
        const int j = base[g] * 8;
        xs[g] = x + j * s->n, Ls[g] = L + j * s->n, ss[g] = sc + j, ms[g] = mn + j;
    }
    if (s->wmode == LGG__QW_GIVEN) {
        const float *ws[2] = {lane_w + base[0] * 8 * s->n, lane_w + base[1] * 8 * s->n};
        fn3(s->n, s->nmax, xs, ws, Ls, ss, ms, s->rmin, 0.05f, s->nstep);
    } else fn(s->n, s->nmax, xs, Ls, ss, ms, s->rmin, 0.1f, s->nstep);
    bool ok = true;
    for (int g = 0; g < groups && ok; g++)
        for (int k = 0; k < 8 && ok; k++) {
            const int j = base[g] * 8 + k;
            float rs, rm;
            lane_ref(s, j, x, Lr, &rs, &rm);
            const bool same = memcmp(L + j * s->n, Lr, (size_t)s->n) == 0 && same_float(sc[j], rs) &&
                              same_float(mn[j], rm);
            CHECKF(same, "%s %s round %d: sub-block %d differs from the scalar search (scale %a/%a min %a/%a)",
                   what, s->name, round, j, (double)sc[j], (double)rs, (double)mn[j], (double)rm);
            ok = same;
        }
    return ok;
}

/* seeded rounds of 32 sub-blocks through fn (x32: the four groups; x16: the
 * first two, and one group twice), or through fn3 with weights (x16) */
static int lanes_rounds(lanes_fn fn, lanes3_fn fn3, bool x32, const char *what) {
    float x[32 * 32];
    int calls = 0;
    const lane_shape *shapes = fn3 ? SHAPES3 : SHAPES;
    const size_t nshapes = fn3 ? sizeof SHAPES3 / sizeof SHAPES3[0] : sizeof SHAPES / sizeof SHAPES[0];
    for (size_t t = 0; t < nshapes; t++) {
        const lane_shape *s = &shapes[t];
        for (int round = 0; round < 400; round++) {
            const int all = round % 4 == 3 ? (int)(lane_rand() * KINDS) % KINDS : -1;
            for (int j = 0; j < 32; j++) lane_fill(x + j * s->n, s->n, all >= 0 ? all : (int)(lane_rand() * KINDS) % KINDS);
            for (int i = 0; i < 32 * s->n; i++) lane_w[i] = round % 3 == 0 ? (float)(i % 4) : 0.25f + lane_rand();
            static const int b4[4] = {0, 1, 2, 3}, b2[2] = {2, 3}, b1[2] = {1, 1};
            bool ok = lanes_call(s, fn, fn3, x32 ? 4 : 2, b4, x, what, round);
            if (!x32) ok = ok && lanes_call(s, fn, fn3, 2, round % 2 ? b2 : b1, x, what, round);
            calls++;
            if (!ok) return calls;
        }
    }
    return calls;
}

/* make_qx_quants (rmse_type 1): Q6_K (n 16, nmax 32), Q3_K (16, 4), Q4_0
 * and Q5_0 (32, 8 and 16) with an imatrix; weights x^2 or given */
typedef void (*qx1_fn)(int n, int nmax, const float *const x[2], const float *const qw[2], int8_t *const L[2],
                       float *const scales[2]);

static int qx1_rounds(qx1_fn fn, const char *what) {
    static const int shapes[][2] = {{16, 32}, {16, 4}, {32, 8}, {32, 16}};
    float x[16 * 32], w[16 * 32];
    int calls = 0;
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        const int n = shapes[t][0], nmax = shapes[t][1];
        for (int round = 0; round < 300; round++) {
            const int all = round % 4 == 3 ? (int)(lane_rand() * KINDS) % KINDS : -1;
            for (int j = 0; j < 16; j++) lane_fill(x + j * n, n, all >= 0 ? all : (int)(lane_rand() * KINDS) % KINDS);
            for (int i = 0; i < 16 * n; i++) w[i] = round % 3 == 0 ? (float)(i % 4) : 0.25f + lane_rand();
            const bool given = round % 2 == 1;
            int8_t L[16 * 32], Lr[32];
            float sc[16];
            memset(L, 0x5A, sizeof L);
            memset(sc, 0x5A, sizeof sc);
            const float *const xs[2] = {x, x + 8 * n}, *const ws[2] = {given ? w : NULL, given ? w + 8 * n : NULL};
            int8_t *const Ls[2] = {L, L + 8 * n};
            float *const ss[2] = {sc, sc + 8};
            fn(n, nmax, xs, ws, Ls, ss);
            calls++;
            for (int j = 0; j < 16; j++) {
                const float rs = lgg__make_qx_quants(n, nmax, x + j * n, Lr, 1, given ? w + j * n : NULL);
                const bool same = memcmp(L + j * n, Lr, (size_t)n) == 0 && same_float(sc[j], rs);
                CHECKF(same, "%s qx n=%d nmax=%d round %d: sub-block %d differs from the scalar search (%a/%a)", what,
                       n, nmax, round, j, (double)sc[j], (double)rs);
                if (!same) return calls;
            }
        }
    }
    return calls;
}

TEST(quant_qkx2_lanes_avx512) {
    if (!lgg__cpu_avx512()) {
        test_skip("this CPU has no AVX-512 F/BW/VL: the AVX-512 search cannot run");
        return;
    }
    const int a = lanes_rounds(lgg__qkx2_x32_avx512, NULL, true, "avx512 x32");
    const int b = lanes_rounds(lgg__qkx2_x16_avx512, NULL, false, "avx512 x16");
    printf("    avx512 make_qkx2_quants: %d calls of 32 sub-blocks, %d of 16, every lane as the scalar search\n", a, b);
    const int d = lanes_rounds(NULL, lgg__qkx3_x16_avx512, false, "avx512 x16");
    printf("    avx512 make_qkx3_quants (imatrix weights): %d calls of 16 sub-blocks, every lane as the scalar search\n", d);
    const int c = qx1_rounds(lgg__qx1_x16_avx512, "avx512");
    printf("    avx512 make_qx_quants: %d calls of 16 sub-blocks, every lane as the scalar search\n", c);
}

TEST(quant_qkx2_lanes_avx2) {
    if (!lgg__cpu_avx2_f16c()) {
        test_skip("this CPU has no AVX2 + F16C: the AVX2 search cannot run");
        return;
    }
    const int a = lanes_rounds(lgg__qkx2_x16_avx2, NULL, false, "avx2 x16");
    printf("    avx2 make_qkx2_quants: %d calls of 16 sub-blocks, every lane as the scalar search\n", a);
    const int d = lanes_rounds(NULL, lgg__qkx3_x16_avx2, false, "avx2 x16");
    printf("    avx2 make_qkx3_quants (imatrix weights): %d calls of 16 sub-blocks, every lane as the scalar search\n", d);
    const int c = qx1_rounds(lgg__qx1_x16_avx2, "avx2");
    printf("    avx2 make_qx_quants: %d calls of 16 sub-blocks, every lane as the scalar search\n", c);
}

#else

TEST(quant_qkx2_lanes_avx512) { test_skip("not an x86 build: no AVX-512 search"); }
TEST(quant_qkx2_lanes_avx2) { test_skip("not an x86 build: no AVX2 search"); }

#endif
