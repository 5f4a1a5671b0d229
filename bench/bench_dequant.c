/* bench_dequant.c -- dequantization throughput against memcpy.
 *
 * For each type: GiB/s of f32 output when dequantizing a large buffer
 * (default 256 MiB of output; streaming from memory) with 1 and 2 threads,
 * and ns and cycles per 32 values on a tensor that stays in L2 with its
 * output (256 KiB of output, less for types of 4 or more bytes per value:
 * input and output together stay within 384 KiB of a 512 KiB L2), for
 * the best path (lgg_dequantize) and the scalar reference, whose ratio is the
 * SIMD speedup.  The baseline is memcpy of the same large size, measured
 * again next to each type (memory bandwidth drifts on a shared machine).
 *
 *   LGG_BENCH_TYPES=q4_0,q4_k,f16   only these types (default: all)
 *   LGG_BENCH_MB=64                 size of the large output in MiB
 *
 * Cycles are TSC ticks on x86 (constant-rate, not core clocks); elsewhere
 * the column is blank. */
#include "libgguf.h"
#include "bench.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

static uint64_t ticks(void) {
#ifdef HAVE_TSC
    return __rdtsc();
#else
    return 0;
#endif
}

static uint64_t rs = 0x2545F4914F6CDD1Dull;
static uint64_t rng(void) {
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return rs;
}

/* Random payload with realistic scales (random scale bits would give
 * subnormals, which slow some CPUs down and are not what models hold). */
static void fill(const lgg_type_info *ti, uint8_t *p, size_t nblocks) {
    size_t n = nblocks * ti->type_size, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t r = rng();
        memcpy(p + i, &r, 8);
    }
    for (; i < n; i++) p[i] = (uint8_t)rng();
    const uint16_t h = 0x2C00; /* 0.0625 as f16 */
    const float f = 0.01f;
    const double g = 0.5;
    for (size_t b = 0; b < nblocks; b++) {
        uint8_t *blk = p + b * ti->type_size;
        for (int k = 0; k < ti->n_fields; k++)
            for (int c = 0; c < ti->fields[k].count; c++) {
                uint8_t *q = blk + ti->fields[k].offset + c * ti->fields[k].width;
                if (ti->fields[k].width == 2 && (c == 0 || ti->id == LGG_TYPE_F16 || ti->id == LGG_TYPE_BF16 ||
                                                 ti->id == LGG_TYPE_Q4_1 || ti->id == LGG_TYPE_Q5_1 ||
                                                 ti->id == LGG_TYPE_Q4_K || ti->id == LGG_TYPE_Q5_K ||
                                                 ti->id == LGG_TYPE_Q2_K || ti->id == LGG_TYPE_IQ4_XS))
                    memcpy(q, &h, 2);
                else if (ti->fields[k].width == 4 && (ti->id == LGG_TYPE_F32 || ti->id == LGG_TYPE_Q8_K))
                    memcpy(q, &f, 4);
                else if (ti->fields[k].width == 8 && ti->id == LGG_TYPE_F64)
                    memcpy(q, &g, 8);
            }
        if (ti->id == LGG_TYPE_I64) { /* integer tensors hold small values, not random 64-bit patterns */
            const int64_t v = (int64_t)(rng() % 2000001) - 1000000;
            memcpy(blk, &v, 8);
        }
        if (ti->id == LGG_TYPE_MXFP4) blk[0] = 120;
        if (ti->id == LGG_TYPE_NVFP4) memset(blk, 0x30, 4);
    }
}

/* Seconds for memcpy of `bytes` into dst from a buffer of the same size. */
static uint8_t *copy_src;
static double memcpy_pass(void *dst, size_t bytes) {
    double t0 = bench_now();
    memcpy(dst, copy_src, bytes);
    return bench_now() - t0;
}

typedef struct {
    uint32_t type;
    const uint8_t *src;
    size_t bytes;
    float *dst;
    uint64_t n;
} job;

static void *run_job(void *p) {
    job *j = p;
    if (lgg_dequantize(j->type, j->src, j->bytes, LGG_LITTLE_ENDIAN, j->dst, j->n) != LGG_OK) abort();
    return NULL;
}

/* Seconds to dequantize nb blocks with `threads` threads (1 or 2). */
static double big_pass(const lgg_type_info *ti, const uint8_t *src, float *dst, size_t nb, int threads) {
    job j[2];
    size_t half = threads == 2 ? nb / 2 : nb;
    j[0] = (job){ti->id, src, half * ti->type_size, dst, (uint64_t)half * ti->block_size};
    j[1] = (job){ti->id, src + half * ti->type_size, (nb - half) * ti->type_size, dst + half * ti->block_size,
                 (uint64_t)(nb - half) * ti->block_size};
    double t0 = bench_now();
    if (threads == 2) {
        pthread_t t;
        if (pthread_create(&t, NULL, run_job, &j[1]) != 0) abort();
        run_job(&j[0]);
        pthread_join(t, NULL);
    } else {
        run_job(&j[0]);
    }
    return bench_now() - t0;
}

typedef lgg_status (*deq_api)(uint32_t, const void *, size_t, lgg_endian, float *, uint64_t);

/* ns and ticks per 32 values on a cache-resident buffer. */
static void l2_rate(deq_api fn, const lgg_type_info *ti, const uint8_t *src, float *dst, size_t nb, double *ns32,
                    double *tk32) {
    const uint64_t n = (uint64_t)nb * ti->block_size;
    const size_t bytes = nb * ti->type_size;
    fn(ti->id, src, bytes, LGG_LITTLE_ENDIAN, dst, n); /* warm */
    double best = 1e30, best_tk = 1e30;
    /* many short rounds, best kept: on a shared machine a short round is
     * more likely to run undisturbed than a long one */
    for (int round = 0; round < 40; round++) {
        int reps = 0;
        double t0 = bench_now(), t;
        uint64_t k0 = ticks();
        do {
            fn(ti->id, src, bytes, LGG_LITTLE_ENDIAN, dst, n);
            reps++;
        } while ((t = bench_now() - t0) < 0.001);
        uint64_t k = ticks() - k0;
        double per = t / reps / ((double)n / 32) * 1e9;
        double per_tk = (double)k / reps / ((double)n / 32);
        if (per < best) best = per, best_tk = per_tk;
    }
    *ns32 = best;
    *tk32 = best_tk;
}

static bool wanted(const char *list, const char *name) {
    if (!list || !*list) return true;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncasecmp(p, name, n) == 0) return true;
        p += len + (e ? 1 : 0);
    }
    return false;
}

int main(void) {
    const char *types = getenv("LGG_BENCH_TYPES");
    const size_t mib = getenv("LGG_BENCH_MB") ? (size_t)strtoul(getenv("LGG_BENCH_MB"), NULL, 10) : 256;
    const size_t out_bytes = (mib ? mib : 256) << 20;
    const uint64_t n_big = out_bytes / 4;

    float *dst = malloc(out_bytes);
    uint8_t *cpy = malloc(out_bytes);
    if (!dst || !cpy) return 1;
    copy_src = cpy;
    memset(dst, 1, out_bytes); /* fault the pages in before timing */
    memset(cpy, 2, out_bytes);
    double mc = 1e30;
    for (int r = 0; r < 3; r++) {
        double t = memcpy_pass(dst, out_bytes);
        if (t < mc) mc = t;
    }
    const double gib = (double)out_bytes / (1u << 30);
    const double memcpy_gibs = gib / mc;
    printf("simd path: %s; large buffer: %zu MiB of f32 output; L2 buffer: input + output <= 384 KiB, at most 256 "
           "KiB of output\n",
           lgg_simd_name(),
           out_bytes >> 20);
    printf("memcpy %zu MiB: %.2f GiB/s at start; \"mc\" is memcpy re-measured next to each type's passes\n\n",
           out_bytes >> 20, memcpy_gibs);
    printf("%-8s %9s %9s %7s %7s %7s | %8s %8s %8s %8s %7s\n", "type", "1T GiB/s", "2T GiB/s", "mc GiB/s", "1T/mc",
           "2T/mc", "ns/32", "tck/32", "ref ns", "ref tck", "speedup");

    enum { L2_VALUES = 65536 };
    float *l2dst = malloc(L2_VALUES * 4);
    for (uint32_t id = 0; id < LGG_TYPE_COUNT; id++) {
        const lgg_type_info *ti = lgg_type_get(id);
        if (!ti || ti->removed || !wanted(types, ti->name)) continue;
        const size_t nb = (size_t)(n_big / ti->block_size);
        uint8_t *src = malloc(nb * ti->type_size);
        if (!src) return 1;
        fill(ti, src, nb);
        /* memcpy again next to each type's passes: on a shared machine the
         * memory bandwidth drifts, and the ratio should compare like with like */
        double t1 = 1e30, t2 = 1e30, tm = 1e30;
        for (int r = 0; r < 2; r++) {
            double m = memcpy_pass(dst, out_bytes), a = big_pass(ti, src, dst, nb, 1),
                   b = big_pass(ti, src, dst, nb, 2);
            if (m < tm) tm = m;
            if (a < t1) t1 = a;
            if (b < t2) t2 = b;
        }
        const double mc_here = gib / tm;
        const double outg = (double)nb * ti->block_size * 4 / (1u << 30);
        size_t l2nb = L2_VALUES / ti->block_size;
        while (l2nb * (ti->type_size + 4 * ti->block_size) > (384u << 10)) l2nb--;
        double ns, tk, rns, rtk;
        l2_rate(lgg_dequantize, ti, src, l2dst, l2nb, &ns, &tk);
        l2_rate(lgg_dequantize_ref, ti, src, l2dst, l2nb, &rns, &rtk);
        printf("%-8s %9.2f %9.2f %8.2f %7.2f %7.2f | %8.2f %8.1f %8.2f %8.1f %6.2fx\n", ti->name, outg / t1,
               outg / t2, mc_here, outg / t1 / mc_here, outg / t2 / mc_here, ns, tk, rns, rtk, rns / ns);
        fflush(stdout);
        free(src);
    }
    free(l2dst);
    free(dst);
    free(cpy);
    return 0;
}
