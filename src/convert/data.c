/* data.c -- tensor data as the writer asks for it: whole source rows are
 * read from the memory-mapped shard, transformed (q/k permutation, norm + 1,
 * Mamba's -exp) and converted to the output type, a bounded number at a
 * time.  The arithmetic follows the reference: bf16 is widened to f32
 * first, an f16 source stays f16 through the transforms, f16 rounds to
 * nearest even. */
#include "cvint.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t lgg__cv_out_bytes(const cv_tensor *t) {
    uint64_t b = 0;
    lgg_type_nbytes(t->qtype ? t->qtype : t->type, t->unit, &b);
    return b;
}

/* The source row that output row u comes from: the reference reshapes to
 * (heads, 2, rows/heads/2, ...) and swaps the two middle axes. */
static uint64_t src_row(const cv_tensor *t, uint64_t u) {
    if (t->xform & CV_X_QKV_BY_HEAD) { /* part p of head h sits at rows (h * 3 + p) * hd */
        uint64_t n = t->n_units / 3, hd = n / t->heads, p = u / n, w = u % n;
        return (w / hd * 3 + p) * hd + w % hd;
    }
    if (!(t->xform & (CV_X_PERM_Q | CV_X_PERM_K))) return u;
    uint64_t half = t->n_units / t->heads / 2, h = u / (2 * half), r = u % (2 * half);
    return h * 2 * half + (r % 2) * half + r / 2;
}

static void load_row(const cv_tensor *t, uint64_t u, float *x) {
    if (t->gen) {
        memcpy(x, t->gen + u * t->unit, t->unit * sizeof *x);
        return;
    }
    const lgg_st_tensor *src = t->src;
    uint32_t shard = t->shard;
    if (t->stack) { /* expert u / rows, its row u % rows */
        uint64_t rows = t->n_units / t->n_stack;
        src = t->stack[u / rows].t, shard = t->stack[u / rows].shard, u %= rows;
    }
    const uint8_t *p = lgg_st_bytes(t->c->shards[shard]) + src->offset;
    uint64_t n = t->unit, first = (src_row(t, u) + t->row_skip) * n;
    if (t->xform & CV_X_EXPERT_T) { /* column u % rows of expert u / rows, element by element */
        uint64_t rows = (uint64_t)t->ne[1], e = u / rows, j = u % rows;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = (e * n + i) * rows + j;
            uint16_t h;
            if (src->dtype == LGG_TYPE_F32) memcpy(x + i, p + k * 4, 4);
            else memcpy(&h, p + k * 2, 2), x[i] = src->dtype == LGG_TYPE_F16 ? lgg_f16_to_f32(h) : lgg_bf16_to_f32(h);
        }
    } else if (src->dtype == LGG_TYPE_F32) memcpy(x, p + first * 4, n * 4);
    else lgg_dequantize(src->dtype, p + first * 2, (size_t)n * 2, LGG_LITTLE_ENDIAN, x, n); /* exact widening */
    if (t->xform & (CV_X_ADD1 | CV_X_NEG_EXP))
        for (uint64_t i = 0; i < n; i++) {
            x[i] = (t->xform & CV_X_ADD1) ? x[i] + 1.0f : -lgg__cv_torch_expf(x[i]);
            if (t->work == LGG_TYPE_F16) x[i] = lgg_f16_to_f32(lgg__cv_f32_to_f16(x[i]));
        }
    if (t->scale)
        for (uint64_t i = 0; i < n; i++) {
            x[i] *= t->scale;
            if (t->work == LGG_TYPE_F16) x[i] = lgg_f16_to_f32(lgg__cv_f32_to_f16(x[i]));
        }
}

/* f32 -> f16/bf16 for a row: the library's SIMD rounding (nearest even),
 * which refuses rows with NaN or infinite results; those rows take the
 * scalar path, which writes them as numpy does. */
static void narrow_row(uint32_t type, const float *x, uint8_t *out, uint64_t n) {
    size_t written = 0;
    if (lgg_quantize(type, x, out, (size_t)n * 2, 1, (int64_t)n, NULL, &written) == LGG_OK) return;
    for (uint64_t i = 0; i < n; i++) {
        uint16_t h = type == LGG_TYPE_F16 ? lgg__cv_f32_to_f16(x[i]) : lgg_f32_to_bf16(x[i]);
        memcpy(out + i * 2, &h, 2);
    }
}

/* Fused quantization: the values the two-step path's quantizer reads back
 * from the intermediate file -- the row as narrow_row writes it there,
 * widened as the quantizer's reader widens it -- quantized.  `half` holds
 * the row's 16-bit form. */
static lgg_status requantize_row(const cv_tensor *t, uint64_t u, float *x, uint16_t *half, uint8_t *out, uint64_t ob) {
    if (t->type == LGG_TYPE_F16 || t->type == LGG_TYPE_BF16) {
        narrow_row(t->type, x, (uint8_t *)half, t->unit);
        if (lgg_dequantize(t->type, half, (size_t)t->unit * 2, LGG_LITTLE_ENDIAN, x, (size_t)t->unit) != LGG_OK)
            return LGG_ERR_INVALID;
    }
    const float *im = t->imatrix ? t->imatrix + (u / (uint64_t)t->ne[1]) * t->unit : NULL;
    size_t written = 0;
    return lgg_quantize(t->qtype, x, out, (size_t)ob, 1, (int64_t)t->unit, im, &written);
}

static lgg_status store_row(const cv_tensor *t, uint64_t u, float *x, uint16_t *half, uint8_t *out, uint64_t ob) {
    uint64_t n = t->unit;
    if (t->qtype) return requantize_row(t, u, x, half, out, ob);
    switch (t->type) {
    case LGG_TYPE_F32:
        memcpy(out, x, n * 4);
        return LGG_OK;
    case LGG_TYPE_F16:
    case LGG_TYPE_BF16:
        narrow_row(t->type, x, out, n);
        return LGG_OK;
    default: {
        size_t written = 0;
        return lgg_quantize(t->type, x, out, (size_t)ob, 1, (int64_t)n, NULL, &written);
    }
    }
}

static int grow(void **p, size_t *cap, size_t need) {
    if (*cap >= need) return 1;
    void *q = realloc(*p, need);
    if (!q) return 0;
    *p = q;
    *cap = need;
    return 1;
}

/* Units [u0, u1) of t into out; each call its own row buffer. */
typedef struct job {
    const cv_tensor *t;
    uint64_t u0, u1, ob;
    uint8_t *out;
    float *row;
    uint16_t *half; /* the row narrowed to the auto type (fused quantization) */
    lgg_status st;
    uint64_t bad; /* the unit that failed */
} job;

static void *run_job(void *arg) {
    job *j = arg;
    for (uint64_t u = j->u0; u < j->u1 && j->st == LGG_OK; u++) {
        load_row(j->t, u, j->row);
        j->st = store_row(j->t, u, j->row, j->half, j->out + (u - j->u0) * j->ob, j->ob);
        j->bad = u;
    }
    return NULL;
}

enum { MAX_THREADS = 64 };

/* Convert units [u0, u1) into out, on up to c->n_threads threads when
 * there is enough work (rows are independent; the bytes do not depend on
 * the split). */
static lgg_status convert_units(struct lgg_convert *c, const cv_tensor *t, uint64_t u0, uint64_t u1, uint64_t ob,
                                uint8_t *out, lgg_error *err) {
    uint64_t work = (u1 - u0) * t->unit;
    long nt = c->n_threads > 0 ? c->n_threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (nt > MAX_THREADS) nt = MAX_THREADS;
    if (nt < 1 || work < (1u << 16)) nt = 1;
    if ((uint64_t)nt > u1 - u0) nt = (long)(u1 - u0);
    /* per thread: a row of floats, then its 16-bit form (a multiple of 64
     * bytes, so every thread's floats stay aligned) */
    const size_t per_row = ((size_t)t->unit * (sizeof(float) + sizeof(uint16_t)) + 63) / 64 * 64;
    if (!grow((void **)&c->row, &c->row_cap, (size_t)nt * per_row))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
    job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    uint64_t per = (u1 - u0 + (uint64_t)nt - 1) / (uint64_t)nt;
    for (long k = 0; k < nt; k++) {
        uint64_t a = u0 + (uint64_t)k * per, b = a + per < u1 ? a + per : u1;
        float *row = (float *)((uint8_t *)c->row + (size_t)k * per_row);
        jobs[k] = (job){t, a, b < a ? a : b, ob, out + (a - u0) * ob, row, (uint16_t *)(row + t->unit), LGG_OK, 0};
        if (k > 0) started[k] = pthread_create(&tid[k], NULL, run_job, &jobs[k]) == 0;
        if (k > 0 && !started[k]) run_job(&jobs[k]); /* no thread: do it here */
    }
    run_job(&jobs[0]);
    lgg_status st = LGG_OK;
    for (long k = 0; k < nt; k++) {
        if (k > 0 && started[k]) pthread_join(tid[k], NULL);
        if (jobs[k].st && !st) {
            st = jobs[k].st;
            lgg__cv_fail(err, st, "%s: tensor '%s': row %llu: conversion to %s failed", c->shard_names[t->shard],
                         t->src_name, (unsigned long long)jobs[k].bad, lgg_type_name(t->qtype ? t->qtype : t->type));
        }
    }
    return st;
}

/* lgg_read_fn: bytes [offset, offset+n) of tensor ud's output. */
lgg_status lgg__cv_read(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    cv_tensor *t = ud;
    struct lgg_convert *c = t->c;
    uint64_t ob = lgg__cv_out_bytes(t);
    if (!n) return LGG_OK;
    uint64_t u0 = offset / ob, u1 = (offset + n + ob - 1) / ob;
    if (u1 > t->n_units) return lgg__cv_fail(err, LGG_ERR_RANGE, "%s: read past the tensor", t->name);
    lgg_status st;
    if (offset % ob == 0 && n % ob == 0) { /* whole units: straight into the writer's buffer */
        st = convert_units(c, t, u0, u1, ob, dst, err);
    } else {
        if (!grow((void **)&c->scratch, &c->scratch_cap, (size_t)((u1 - u0) * ob)))
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
        st = convert_units(c, t, u0, u1, ob, c->scratch, err);
        if (!st) memcpy(dst, c->scratch + (offset - u0 * ob), n);
    }
    if (st) return st;
    c->done += n;
    if (c->progress) c->progress(c->progress_ud, c->done, c->total);
    return LGG_OK;
}
