/* bitnet.c -- what BitNet b1.58 (BitnetForCausalLM) does in code in the
 * reference converter: each attention and feed-forward matrix becomes
 * ternary, w -> clamp(round(w / s), -1, 1) * s in float32, where s is the
 * mean of |w| (at least 1e-5), then back to the working dtype.
 *
 * s's last bit depends on the order of torch's float32 sum, so the sum is
 * torch 1.13's, step by step in scalar code (aten/src/ATen/native/cpu/
 * SumKernel.cpp: cascade_sum, whose contiguous full reduction runs
 * vectorized_inner_sum -> row_sum -> multi_row_sum), with the vector width
 * of the kernel torch dispatches by default: 8 floats (its AVX2 and its
 * plain build; torch 1.13 takes AVX-512 only when ATEN_CPU_CAPABILITY asks
 * for it, whose 16 lanes give other sums) on one thread (what torch runs on
 * a machine whose cores it counts as one, or with OMP_NUM_THREADS=1: more
 * threads split tensors of 32768 elements or more into per-thread sums, which
 * lgg__cv_torch_abs_sum also follows).  Each addition is a separate float
 * operation here (no reassociation, no contraction), so the bytes do not
 * depend on the machine.  tests/test_convert_bitnet.c checks the sums
 * against torch's for widths 8 and 16 and 1 to 3 threads.  The scales are
 * all taken before any data is written, one tensor per thread. */
#include "../cvint.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_LANES = 16, BUF = 4096, GRAIN = 32768 /* at::internal::GRAIN_SIZE */ };

/* The source's |x| as float, read front to back in slices (every step of
 * torch's sum reads the elements in increasing order). */
typedef struct reader {
    const uint8_t *p;
    uint32_t dtype;
    int signed_sum; /* the values as they are (a plain sum), not their |x| */
    uint64_t next, end; /* elements not yet in buf: [next, end) */
    size_t at, have;
    float buf[BUF];
} reader;

/* The next k (<= 4 * MAX_LANES) values. */
static const float *take(reader *r, size_t k) {
    if (r->at + k > r->have) { /* refill: widened exactly, then |x| */
        size_t left = r->have - r->at, m = BUF - left;
        memmove(r->buf, r->buf + r->at, left * sizeof *r->buf);
        if (m > r->end - r->next) m = (size_t)(r->end - r->next);
        size_t es = r->dtype == LGG_TYPE_F32 ? 4 : 2;
        float *d = r->buf + left;
        if (lgg_dequantize(r->dtype, r->p + r->next * es, m * es, LGG_LITTLE_ENDIAN, d, m) != LGG_OK) memset(d, 0, m * 4);
        for (size_t i = 0; i < m && !r->signed_sum; i++) d[i] = fabsf(d[i]);
        r->next += m, r->at = 0, r->have = left + m;
    }
    r->at += k;
    return r->buf + r->at - k;
}

/* ceil(log2(x)), 1 for x <= 2 (ATen's utils::CeilLog2). */
static int ceil_log2(uint64_t x) {
    int b = 1;
    if (x <= 2) return 1;
    while (((x - 1) >> b) != 0) b++;
    return b;
}

/* multi_row_sum with 4 rows of `lanes` floats: `size` groups of 4 * lanes
 * consecutive values, summed per row and lane in a four-level cascade
 * whose levels take 2^level_power additions each. */
/* a[q] += v[q] for q < nq, each a float addition of its own (lane-wise:
 * the order within each lane is unchanged); 4 rows of 8 lanes unrolled. */
static inline void add_lanes(float *restrict a, const float *restrict v, int nq) {
    if (nq == 32)
        for (int q = 0; q < 32; q++) a[q] += v[q];
    else
        for (int q = 0; q < nq; q++) a[q] += v[q];
}

static void multi_row_sum(reader *r, uint64_t size, int lanes, float out[4][MAX_LANES]) {
    int lp = ceil_log2(size) / 4;
    if (lp < 4) lp = 4;
    const uint64_t step = (uint64_t)1 << lp, mask = step - 1;
    const int nq = 4 * lanes; /* row k, lane l at k * lanes + l */
    float acc[4][4 * MAX_LANES] = {{0}};
    uint64_t i = 0;
    while (i + step <= size) {
        for (uint64_t j = 0; j < step; j++, i++) add_lanes(acc[0], take(r, (size_t)nq), nq);
        for (int j = 1; j < 4; j++) {
            add_lanes(acc[j], acc[j - 1], nq);
            memset(acc[j - 1], 0, sizeof acc[j - 1]);
            if (i & (mask << (j * lp))) break;
        }
    }
    for (; i < size; i++) add_lanes(acc[0], take(r, (size_t)nq), nq);
    for (int j = 1; j < 4; j++) add_lanes(acc[0], acc[j], nq);
    for (int k = 0; k < 4; k++) memcpy(out[k], acc[0] + k * lanes, (size_t)lanes * sizeof(float));
}

/* row_sum: `size` items of `lanes` floats as rows of 4 (its ILP factor),
 * the items past the last whole row added to the first, then the four. */
static void row_sum(reader *r, uint64_t size, int lanes, float out[MAX_LANES]) {
    float p[4][MAX_LANES];
    multi_row_sum(r, size / 4, lanes, p);
    for (uint64_t i = size / 4 * 4; i < size; i++) {
        const float *v = take(r, (size_t)lanes);
        for (int l = 0; l < lanes; l++) p[0][l] += v[l];
    }
    for (int k = 1; k < 4; k++)
        for (int l = 0; l < lanes; l++) p[0][l] += p[k][l];
    memcpy(out, p[0], sizeof p[0]);
}

/* One loop call of cascade_sum over n contiguous elements from `first`: n
 * / lanes vectors, then the scalar tail, then the lanes in order; added
 * to the output (0). */
static float sum_range(const uint8_t *p, uint32_t dtype, uint64_t first, uint64_t n, int lanes, int signed_sum) {
    reader rd = {.p = p, .dtype = dtype, .signed_sum = signed_sum, .next = first, .end = first + n}, *r = &rd;
    float v[MAX_LANES], f = 0;
    if (n < (uint64_t)lanes) { /* scalar_outer_sum's row_sum over single values */
        row_sum(r, n, 1, v);
        f = v[0];
    } else {
        row_sum(r, n / (uint64_t)lanes, lanes, v);
        for (uint64_t k = n / (uint64_t)lanes * (uint64_t)lanes; k < n; k++) f += *take(r, 1);
        for (int l = 0; l < lanes; l++) f += v[l];
    }
    return 0.0f + f;
}

float lgg__cv_torch_sum(const void *src, uint32_t dtype, uint64_t n, int lanes, int threads, int signed_sum) {
    if (lanes < 1 || lanes > MAX_LANES) lanes = 8;
    if (threads <= 1 || n < GRAIN) return sum_range(src, dtype, 0, n, lanes, signed_sum);
    /* TensorIterator's two-pass reduction: a partial sum per thread (each
     * its own share of at::parallel_for's split, when there is more than
     * one grain), then the sum of all `threads` partials. */
    if (threads > 64) threads = 64;
    float part[64] = {0};
    if (n == GRAIN) {
        part[0] = sum_range(src, dtype, 0, n, lanes, signed_sum);
    } else {
        uint64_t nt = (n + GRAIN - 1) / GRAIN < (uint64_t)threads ? (n + GRAIN - 1) / GRAIN : (uint64_t)threads;
        uint64_t chunk = (n + nt - 1) / nt;
        for (uint64_t t = 0; t < nt && t * chunk < n; t++)
            part[t] = sum_range(src, dtype, t * chunk, (t + 1) * chunk < n ? chunk : n - t * chunk, lanes, signed_sum);
    }
    return sum_range((const uint8_t *)part, LGG_TYPE_F32, 0, (uint64_t)threads, lanes, 1); /* the partials as they are */
}

float lgg__cv_torch_abs_sum(const void *src, uint32_t dtype, uint64_t n, int lanes, int threads) {
    return lgg__cv_torch_sum(src, dtype, n, lanes, threads, 0);
}

/* Rows of a ternary matrix: torch's round (half to even), clamp to
 * [-1, 1] and true division, then .type(dtype) back to the working dtype.
 * Their results are few: round(v) clamped is 1 above 0.5, -1 below -0.5,
 * else a zero of v's sign (NaN kept), and 1 / iscale divided by it is
 * +-(1 / iscale) rounded once, so a product with that (rounded to the
 * working dtype first) gives the same bits. */
void lgg__cv_ternary_row(float *x, uint64_t n, float iscale, uint32_t work) {
    float s = 1.0f / iscale;
    if (work == LGG_TYPE_F16) s = lgg_f16_to_f32(lgg__cv_f32_to_f16(s));
    if (!(s < INFINITY)) { /* the mean overflowed (or is NaN): as written, 0 * inf included */
        for (uint64_t i = 0; i < n; i++) {
            float v = x[i] * iscale;
            x[i] = (v > 0.5f ? 1.0f : v < -0.5f ? -1.0f : v * 0.0f) * s;
        }
        return;
    }
    uint32_t sb; /* s's bits, or 0, with the sign of v; NaN kept: integer masks, no branch on the data */
    memcpy(&sb, &s, 4);
    for (uint64_t i = 0; i < n; i += 8) {
        uint32_t b[8];
        float v[8] = {0};
        size_t m = n - i < 8 ? (size_t)(n - i) : 8;
        memcpy(v, x + i, m * 4);
        for (size_t k = 0; k < 8; k++) { /* whole blocks of 8: a loop the compiler can vectorize */
            v[k] *= iscale;
            memcpy(&b[k], &v[k], 4);
            uint32_t a = b[k] & 0x7fffffffu, nan = 0u - (uint32_t)(a > 0x7f800000u), big = 0u - (uint32_t)(a > 0x3f000000u);
            b[k] = (b[k] & nan) | (~nan & ((b[k] & 0x80000000u) | (sb & big)));
        }
        memcpy(x + i, b, m * 4);
    }
}

/* The seven matrices (the reference's ATTN_Q, ATTN_K, ATTN_V, ATTN_OUT,
 * FFN_UP, FFN_DOWN, FFN_GATE), their weights only, are made ternary. */
static lgg_status bitnet_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    static const char *const kinds[] = {"attn_q.weight", "attn_k.weight", "attn_v.weight", "attn_output.weight",
                                        "ffn_up.weight", "ffn_down.weight", "ffn_gate.weight"};
    (void)c, (void)err;
    size_t l = t->src_name ? strlen(t->src_name) : 0;
    const char *kind = strncmp(t->name, "blk.", 4) ? NULL : strchr(t->name + 4, '.');
    if (!kind || l < 7 || strcmp(t->src_name + l - 7, ".weight")) return LGG_OK;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kind + 1, kinds[i])) t->xform |= CV_X_TERNARY;
    return LGG_OK;
}

/* t's scale: mean(|w|) as torch takes it (the sum, then / numel as a
 * float), clamped below at 1e-5 (NaN kept), inverted. */
static void set_scale(cv_tensor *t, const uint8_t *p) {
    uint64_t n = t->unit * t->n_units;
    float mean = lgg__cv_torch_abs_sum(p, t->src->dtype, n, 8, 1) / (float)n;
    t->iscale = 1.0f / (mean < 1e-5f ? 1e-5f : mean);
}

/* Memory-mapped shards: the tensors' sums on several threads, each
 * taking the next tensor not yet taken. */
typedef struct scale_pool {
    lgg_convert *c;
    pthread_mutex_t lock;
    size_t next;
} scale_pool;

static void *scale_worker(void *arg) {
    scale_pool *sp = arg;
    for (;;) {
        pthread_mutex_lock(&sp->lock);
        size_t i = sp->next;
        while (i < sp->c->n_t && !(sp->c->t[i].xform & CV_X_TERNARY)) i++;
        sp->next = i + 1;
        pthread_mutex_unlock(&sp->lock);
        if (i >= sp->c->n_t) return NULL;
        cv_tensor *t = &sp->c->t[i];
        set_scale(t, lgg_st_bytes(sp->c->shards[t->shard]) + t->src->offset);
    }
}

/* Every scale before any data is read (after the plan, with the keys). */
static lgg_status bitnet_scales(lgg_convert *c, lgg_error *err) {
    if (c->has_io) { /* read through the caller's io, one tensor at a time */
        for (size_t i = 0; i < c->n_t; i++) {
            const uint8_t *p;
            void *owned = NULL;
            if (!(c->t[i].xform & CV_X_TERNARY)) continue;
            lgg_status st = lgg__cv_src_bytes(c, c->t[i].shard, c->t[i].src, &p, &owned, err);
            if (st) return st;
            set_scale(&c->t[i], p);
            free(owned);
        }
        return LGG_OK;
    }
    enum { MAX_T = 64 };
    long nt = c->n_threads; /* resolved at open */
    nt = nt < 1 ? 1 : nt > MAX_T ? MAX_T : nt;
    scale_pool sp = {c, PTHREAD_MUTEX_INITIALIZER, 0};
    lgg_run_jobs(scale_worker, &sp, 0, (unsigned)nt); /* workers sharing one pool */
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_bitnet = {NULL, NULL, bitnet_tensor, bitnet_scales, NULL, NULL};
