/* bench_quantize.c -- quantizer throughput, single-threaded, in M values/s:
 * for every type and both paths (no imatrix / imatrix), the scalar reference
 * (lgg__quantize_path with simd off) and the dispatched path (lgg_quantize)
 * measured in the same run, and their ratio; the row conversions f16/bf16 ->
 * f32 (lgg_dequantize_ref vs lgg_dequantize) likewise.  Input: 4096 rows x
 * 1024 values, N(0,1)-like; each figure is the best of 3 timed runs of as many
 * rows as fit in ~0.15 s.  Time is the thread's CPU time, so that other load
 * on a shared machine skews the figures less (it still shares caches).
 *
 * It ends with what a quantizing tool does per thread (F16 rows converted to
 * f32 16 rows at a time into a cache-resident buffer, then quantized) and a
 * compute-only projection from it for the benchmark model (0.84 B
 * parameters, F16) at 2 threads, for Q8_0, Q4_0 and Q4_K_M (673 M values to
 * Q4_K and 162 M to Q6_K, the llama rules for 16 layers).  Reading, writing
 * and thread imbalance are not included.
 *
 * Usage: bench_quantize [type-name-substring]   (e.g. "Q4_K"; "-" for none) */
#include "libgguf.h"
#include "bench.h"
#include "quant/quant_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NROWS = 4096, NPR = 1024 };

static uint64_t rng = 88172645463325252ull;
static float gauss(void) {
    double u = 0;
    for (int i = 0; i < 12; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        u += (double)(rng >> 11) / 9007199254740992.0;
    }
    return (float)(u - 6.0);
}

typedef struct ctx {
    const float *src;
    const uint8_t *h16, *hb16; /* the input as f16 and as bf16 */
    float *f32;                /* conversion target */
    unsigned char *dst;
    size_t cap;
} ctx;

/* one timed operation over `rows` rows; returns false on error */
typedef bool (*op_fn)(const ctx *c, uint32_t t, int rows, const float *imx, int mode);

static bool op_quant(const ctx *c, uint32_t t, int rows, const float *imx, int simd) {
    if (simd) return lgg_quantize(t, c->src, c->dst, c->cap, rows, NPR, imx, NULL) == LGG_OK;
    return lgg__quantize_path(t, c->src, c->dst, c->cap, rows, NPR, imx, NULL, false) == LGG_OK;
}

static bool op_conv(const ctx *c, uint32_t t, int rows, const float *imx, int simd) {
    (void)imx;
    const size_t n = (size_t)rows * NPR;
    const uint8_t *in = t == LGG_TYPE_F16 ? c->h16 : c->hb16;
    lgg_status st = simd ? lgg_dequantize(t, in, 2 * n, LGG_LITTLE_ENDIAN, c->f32, n)
                           : lgg_dequantize_ref(t, in, 2 * n, LGG_LITTLE_ENDIAN, c->f32, n);
    return st == LGG_OK;
}

/* what a quantizing tool does per thread: rows of an F16 tensor converted in
 * chunks of 16 rows into a small (cache-resident) f32 buffer, then quantized */
static bool op_pipe(const ctx *c, uint32_t t, int rows, const float *imx, int simd) {
    (void)simd;
    const lgg_type_info *ti = lgg_type_get(t);
    const size_t rs = (size_t)(NPR / ti->block_size) * ti->type_size;
    for (int r = 0; r < rows; r += 16) {
        const int k = rows - r < 16 ? rows - r : 16;
        const size_t cnt = (size_t)k * NPR;
        if (lgg_dequantize(LGG_TYPE_F16, c->h16 + (size_t)r * NPR * 2, 2 * cnt, LGG_LITTLE_ENDIAN, c->f32, cnt) !=
                LGG_OK ||
            lgg_quantize(t, c->f32, c->dst + (size_t)r * rs, c->cap - (size_t)r * rs, k, NPR, imx, NULL) != LGG_OK)
            return false;
    }
    return true;
}

/* best-of-3 M values/s, or -1 on error */
static double rate(op_fn op, const ctx *c, uint32_t t, const float *imx, int mode) {
    if (!op(c, t, 1, imx, mode)) return -1; /* warm-up: IQ tables, page faults */
    int rows = 4;
    for (;;) {
        const double t0 = bench_cpu_now();
        if (!op(c, t, rows, imx, mode)) return -1;
        const double el = bench_cpu_now() - t0;
        if (el > 0.15 || rows == NROWS) break;
        rows = el < 0.01 ? rows * 8 : rows * 2;
        if (rows > NROWS) rows = NROWS;
    }
    double best = 0;
    for (int k = 0; k < 3; k++) {
        const double t0 = bench_cpu_now();
        if (!op(c, t, rows, imx, mode)) return -1;
        const double r = (double)rows * NPR / (bench_cpu_now() - t0) / 1e6;
        if (r > best) best = r;
    }
    return best;
}

static void line(const char *name, const char *what, double s, double d) {
    if (s < 0 || d < 0) {
        printf("%-8s %-8s failed\n", name, what);
        return;
    }
    printf("%-8s %-8s %10.1f %10.1f %7.2fx\n", name, what, s, d, d / s);
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    const size_t n = (size_t)NROWS * NPR;
    float *src = malloc(n * sizeof(float)), *f32 = malloc(n * sizeof(float));
    float *imx = malloc(NPR * sizeof(float));
    uint8_t *h16 = malloc(2 * n), *hb16 = malloc(2 * n);
    unsigned char *dst = malloc(n * sizeof(float) + 4096);
    if (!src || !f32 || !imx || !h16 || !hb16 || !dst) return 1;
    for (size_t i = 0; i < n; i++) {
        src[i] = gauss();
        const uint16_t a = lgg_f32_to_f16(src[i]), b = lgg_f32_to_bf16(src[i]);
        memcpy(h16 + 2 * i, &a, 2);
        memcpy(hb16 + 2 * i, &b, 2);
    }
    for (int i = 0; i < NPR; i++) imx[i] = 0.5f + fabsf(gauss());
    const ctx c = {src, h16, hb16, f32, dst, n * sizeof(float) + 4096};

    printf("quantizer SIMD: %s; M values/s, 1 thread, best of 3\n",
           lgg__cpu_avx512() ? "avx2, avx512 (K-quant scale search)" : lgg__cpu_avx2_f16c() ? "avx2" : "none");
    printf("%-8s %-8s %10s %10s %8s\n", "type", "path", "scalar", "dispatch", "ratio");
    line("f16>f32", "convert", rate(op_conv, &c, LGG_TYPE_F16, NULL, 0), rate(op_conv, &c, LGG_TYPE_F16, NULL, 1));
    line("bf16>f32", "convert", rate(op_conv, &c, LGG_TYPE_BF16, NULL, 0), rate(op_conv, &c, LGG_TYPE_BF16, NULL, 1));
    double q80 = 0, q40 = 0, q4k = 0, q6k = 0;
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_can_quantize(t)) continue;
        const char *name = lgg_type_name(t);
        if (filter && !strstr(name, filter)) continue;
        for (int use = 0; use < 2; use++) {
            if (!use && lgg_type_needs_imatrix(t)) continue;
            const float *q = use ? imx : NULL;
            const double d = rate(op_quant, &c, t, q, 1);
            line(name, use ? "imatrix" : "plain", rate(op_quant, &c, t, q, 0), d);
            if (!use && t == LGG_TYPE_Q8_0) q80 = d;
            if (!use && t == LGG_TYPE_Q4_0) q40 = d;
            if (!use && t == LGG_TYPE_Q4_K) q4k = d;
            if (!use && t == LGG_TYPE_Q6_K) q6k = d;
        }
    }
    /* 2 threads share the values */
    const double P = 835e6, p4 = 673e6, p6 = 162e6;
    printf("F16 rows -> type, converted and quantized in 16-row chunks (M values/s, 1 thread), and the\n"
           "projection for the 0.84B-param F16 llama at 2 threads, compute only (s):\n");
    if (q80 > 0) {
        const double r = rate(op_pipe, &c, LGG_TYPE_Q8_0, NULL, 1);
        printf("  Q8_0   %8.1f M/s %6.2f s  (target < 0.95)\n", r, P / r / 1e6 / 2);
    }
    if (q40 > 0) {
        const double r = rate(op_pipe, &c, LGG_TYPE_Q4_0, NULL, 1);
        printf("  Q4_0   %8.1f M/s %6.2f s  (target < 0.88)\n", r, P / r / 1e6 / 2);
    }
    if (q4k > 0 && q6k > 0) {
        const double r4 = rate(op_pipe, &c, LGG_TYPE_Q4_K, NULL, 1), r6 = rate(op_pipe, &c, LGG_TYPE_Q6_K, NULL, 1);
        printf("  Q4_K_M %8.1f M/s %6.2f s  (target < 5.3; Q4_K %.1f M/s, Q6_K %.1f M/s)\n", P / (p4 / r4 + p6 / r6),
               (p4 / r4 + p6 / r6) / 1e6 / 2, r4, r6);
    }
    free(src), free(f32), free(imx), free(h16), free(hb16), free(dst);
    return 0;
}
