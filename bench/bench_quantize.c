/* bench_quantize.c -- lgg_quantize throughput per type on 16 MiB of f32
 * (4096 rows x 1024 values, N(0,1)-like data) with 1 and 2 threads (rows
 * split in halves, as a quantizing tool does), against two baselines
 * measured in the same run: memcpy, and the f32->f16 conversion (1 thread).
 * Each type runs over as many rows as fit in ~0.2 s (at least 8 rows).
 * Usage: bench_quantize [type-name-substring] */
#include "libgguf.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NROWS = 4096, NPR = 1024 };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 88172645463325252ull;
static float gauss(void) {
    double u = 0;
    for (int i = 0; i < 12; i++) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        u += (double)(rng >> 11) / 9007199254740992.0;
    }
    return (float)(u - 6.0);
}

typedef struct job {
    uint32_t t;
    const float *src;
    unsigned char *dst;
    size_t cap;
    int rows;
    const float *imx;
    lgg_status st;
} job;

static void *work(void *p) {
    job *j = p;
    j->st = lgg_quantize(j->t, j->src, j->dst, j->cap, j->rows, NPR, j->imx, NULL);
    return NULL;
}

/* quantize `rows` rows on `nth` threads (each a contiguous share of rows) */
static lgg_status quantize_mt(uint32_t t, const float *src, unsigned char *dst, size_t cap, int rows,
                              const float *imx, int nth) {
    if (nth <= 1) return lgg_quantize(t, src, dst, cap, rows, NPR, imx, NULL);
    const lgg_type_info *ti = lgg_type_get(t);
    const size_t rs = (size_t)(NPR / ti->block_size) * ti->type_size;
    job jobs[2];
    pthread_t th;
    const int r0 = rows / 2;
    jobs[0] = (job){t, src, dst, cap, r0, imx, LGG_OK};
    jobs[1] = (job){t, src + (size_t)r0 * NPR, dst + (size_t)r0 * rs, cap - (size_t)r0 * rs, rows - r0, imx, LGG_OK};
    if (pthread_create(&th, NULL, work, &jobs[1]) != 0) return LGG_ERR_NOMEM;
    work(&jobs[0]);
    pthread_join(th, NULL);
    return jobs[0].st != LGG_OK ? jobs[0].st : jobs[1].st;
}

/* MB of f32 input per second for `rows` rows of type t (rows chosen by time) */
static double run(uint32_t t, const float *src, void *dst, size_t cap, const float *imx, int nth,
                  int *rows_done) {
    int rows = 8;
    double el = 0;
    /* warm-up: builds the IQ search tables once, outside the timing */
    if (lgg_quantize(t, src, dst, cap, 1, NPR, imx, NULL) != LGG_OK) return -1;
    for (;;) {
        const double t0 = now();
        if (quantize_mt(t, src, dst, cap, rows, imx, nth) != LGG_OK) return -1;
        el = now() - t0;
        if (el > 0.2 || rows == NROWS) break;
        rows = rows * 4 > NROWS ? NROWS : rows * 4;
    }
    *rows_done = rows;
    return (double)rows * NPR * 4 / el / 1e6;
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    const size_t n = (size_t)NROWS * NPR;
    float *src = malloc(n * sizeof(float));
    float *imx = malloc(NPR * sizeof(float));
    unsigned char *dst = malloc(n * sizeof(float) + 4096);
    if (!src || !imx || !dst) return 1;
    for (size_t i = 0; i < n; i++) src[i] = gauss();
    for (int i = 0; i < NPR; i++) imx[i] = 0.5f + fabsf(gauss());

    /* baselines */
    double t0 = now();
    for (int r = 0; r < 4; r++) {
        memcpy(dst, src, n * sizeof(float));
        src[r] += 0.0f;
    }
    const double mb_memcpy = 4.0 * (double)n * 4 / (now() - t0) / 1e6;
    t0 = now();
    uint16_t *h = (uint16_t *)dst;
    for (size_t i = 0; i < n; i++) h[i] = lgg_f32_to_f16(src[i]);
    const double mb_f16 = (double)n * 4 / (now() - t0) / 1e6;
    printf("baseline memcpy        %9.1f MB/s\n", mb_memcpy);
    printf("baseline f32->f16 loop %9.1f MB/s\n", mb_f16);
    printf("%-8s %-7s %7s %11s %11s %9s %9s\n", "type", "imatrix", "rows", "MB/s 1thr", "MB/s 2thr", "1thr/f16",
           "2thr/f16");
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_can_quantize(t)) continue;
        const char *name = lgg_type_name(t);
        if (filter && !strstr(name, filter)) continue;
        for (int use = 0; use < 2; use++) {
            if (!use && lgg_type_needs_imatrix(t)) continue;
            int rows = 0, rows2 = 0;
            const double mb = run(t, src, dst, n * sizeof(float) + 4096, use ? imx : NULL, 1, &rows);
            const double mb2 = run(t, src, dst, n * sizeof(float) + 4096, use ? imx : NULL, 2, &rows2);
            if (mb < 0 || mb2 < 0) {
                printf("%-8s %-7s failed\n", name, use ? "yes" : "no");
                continue;
            }
            printf("%-8s %-7s %7d %11.1f %11.1f %9.4f %9.4f\n", name, use ? "yes" : "no", rows, mb, mb2, mb / mb_f16,
                   mb2 / mb_f16);
        }
    }
    free(src);
    free(imx);
    free(dst);
    return 0;
}
