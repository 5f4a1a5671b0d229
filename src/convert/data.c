/* data.c -- tensor data as the writer asks for it: whole source rows are
 * read from the memory-mapped shard (or, with several outputs written at
 * once, a block shared with them: share.c), transformed (q/k permutation, norm + 1,
 * Mamba's -exp) and converted to the output type, a bounded number at a
 * time.  The arithmetic follows the reference: bf16 is widened to f32
 * first, an f16 source stays f16 through the transforms, f16 rounds to
 * nearest even. */
#include "cvint.h"

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
    if (t->row_of) return t->row_of(t, u);
    if (!(t->xform & (CV_X_PERM_Q | CV_X_PERM_K))) return u;
    uint64_t half = t->n_units / t->heads / 2, h = u / (2 * half), r = u % (2 * half);
    return h * 2 * half + (r % 2) * half + r / 2;
}

static int grow(void **p, size_t *cap, size_t need) {
    if (*cap >= need) return 1;
    void *q = realloc(*p, need);
    if (!q) return 0;
    *p = q;
    *cap = need;
    return 1;
}

/* Shard data through lgg_convert_io: each shard's window holds the file's
 * bytes [lo, hi).  Before a callback converts units [u0, u1) of a tensor,
 * fetch() makes each shard's window cover every source byte they need
 * (the rows' hull, per shard), reading ahead to LGG_CONVERT_IO_CHUNK bytes
 * and keeping what the old window already holds.  The read-ahead runs on
 * through the file only while the next tensor in it is the one the output
 * reads next (cv_piece): in output order, which is the files' order for
 * most checkpoints, it reads whole chunks; stacked experts, whose matrices
 * the output takes one kind at a time (every w1, then every w2) while the
 * file holds them expert by expert, are read one matrix at a time, so
 * each byte comes once. */
typedef struct cv_piece {
    uint32_t shard;
    uint64_t lo, hi; /* the source tensor's bytes in the file */
    uint64_t next;   /* where the tensor the output reads after it starts, in this shard (else UINT64_MAX) */
    size_t order;    /* its first place in the output's order */
} cv_piece;
typedef struct cv_window {
    uint8_t *buf;
    size_t cap;
    uint64_t lo, hi;
    uint64_t need_lo, need_hi; /* this call's hull (need_hi 0: none) */
    int used;                  /* needed by the last call */
} cv_window;

void lgg__cv_windows_free(struct lgg_convert *c) {
    for (size_t i = 0; c->win && i < c->n_shards + c->n_extra; i++) free(c->win[i].buf);
    free(c->win);
    c->win = NULL;
    free(c->pieces);
    c->pieces = NULL;
    c->n_pieces = 0;
}

static int piece_cmp(const void *a, const void *b) {
    const cv_piece *x = a, *y = b;
    if (x->shard != y->shard) return x->shard < y->shard ? -1 : 1;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The source tensors in the order the output reads them (the quantize
 * plan's when it shares rows, else the tensors'), then sorted by place in
 * the file, a tensor read twice kept once (at its first read). */
static lgg_status plan_pieces(struct lgg_convert *c, lgg_error *err) {
    size_t n = 0;
    for (size_t i = 0; i < c->n_t; i++) n += c->t[i].gen ? 0 : c->t[i].stack ? c->t[i].n_stack : 1;
    cv_piece *p = malloc((n ? n : 1) * sizeof *p);
    size_t *at = malloc((c->n_t ? c->n_t : 1) * sizeof *at); /* tensor index by place in the output */
    if (!p || !at) return free(p), free(at), lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < c->n_t; i++) at[c->share_pos ? c->share_pos[i] : i] = i;
    size_t k = 0;
    for (size_t j = 0; j < c->n_t; j++) {
        const cv_tensor *t = &c->t[at[j]];
        for (uint32_t e = 0; !t->gen && e < (t->stack ? t->n_stack : 1); e++, k++) {
            const lgg_st_tensor *src = t->stack ? t->stack[e].t : t->src;
            p[k] = (cv_piece){t->stack ? t->stack[e].shard : t->shard, src->offset, src->offset + src->size, UINT64_MAX, k};
        }
    }
    for (size_t i = 0; i + 1 < n; i++) { /* the next tensor read (another than this one) */
        size_t j = i + 1;
        while (j < n && p[j].shard == p[i].shard && p[j].lo == p[i].lo) j++;
        if (j < n && p[j].shard == p[i].shard) p[i].next = p[j].lo;
    }
    free(at);
    qsort(p, n, sizeof *p, piece_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || p[i].shard != p[m - 1].shard || p[i].lo != p[m - 1].lo) p[m++] = p[i];
    c->pieces = p, c->n_pieces = m;
    return LGG_OK;
}

/* How far past hi a read of shard s from lo may run: to the end of the
 * tensor holding byte hi - 1, and on through the tensors after it in the
 * file while each is the one the output reads next (UINT64_MAX: no tensor
 * holds hi - 1). */
static uint64_t read_ahead_end(const struct lgg_convert *c, uint32_t s, uint64_t lo, uint64_t hi) {
    size_t a = 0, b = c->n_pieces; /* the last piece starting at or before hi - 1 */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        const cv_piece *q = &c->pieces[mid];
        if (q->shard < s || (q->shard == s && q->lo <= hi - 1)) a = mid + 1;
        else b = mid;
    }
    if (!a || c->pieces[a - 1].shard != s || c->pieces[a - 1].hi < hi) return UINT64_MAX;
    const cv_piece *p = &c->pieces[a - 1];
    uint64_t end = p->hi;
    while (end - lo < LGG_CONVERT_IO_CHUNK && p + 1 < c->pieces + c->n_pieces && p[1].shard == s && p[1].lo == end &&
           p->next == end)
        p++, end = p->hi;
    return end;
}

/* An output that no longer writes lets go of its io windows (64 MiB per
 * shard it was reading) when it leaves the share, not when it is freed
 * after the others: only the outputs still writing hold one.  No other
 * output reads through them (share.c fills a block through the filler's
 * own windows). */
void lgg_convert_unshare(struct lgg_convert *c) {
    if (!c || !c->share) return;
    lgg__cv_share_leave(c);
    if (c->has_io) lgg__cv_windows_free(c);
}

/* The source byte at file offset off of the shard (inside its window). */
static const uint8_t *src_bytes(const struct lgg_convert *c, uint32_t shard, uint64_t off) {
    if (!c->has_io) return lgg_st_bytes(c->shards[shard]) + off;
    const cv_window *w = &c->win[shard];
    return w->buf + (off - w->lo);
}

/* Source units [a, b) of tensor src in shard s (rows of `unit` elements,
 * after `skip` rows; a permuted tensor's rows come from whole head groups
 * of `group` rows) into the shard's hull. */
static void need(struct lgg_convert *c, uint32_t s, const lgg_st_tensor *src, const cv_tensor *t, uint64_t a,
                 uint64_t b) {
    if (t->zero_from && b > t->zero_from) b = t->zero_from; /* the zero rows read nothing */
    if (t->zero_from && a >= b) return;
    if (t->xform & (CV_X_PERM_Q | CV_X_PERM_K)) {
        uint64_t group = t->n_units / t->heads; /* 2 * half rows per head */
        a = a / group * group, b = (b + group - 1) / group * group;
    }
    uint64_t row = t->unit * (src->dtype == LGG_TYPE_F32 ? 4 : src->dtype == LGG_ST_F8_E4M3 ? 1 : 2);
    uint64_t lo = src->offset + (a + t->row_skip) * row, hi = src->offset + (b + t->row_skip) * row;
    if (t->row_of || t->zero_first || (t->xform & (CV_X_TRANSPOSE | CV_X_EXPERT_T))) /* any row may come from anywhere in it */
        lo = src->offset, hi = src->offset + src->size;
    cv_window *w = &c->win[s];
    if (!w->need_hi || lo < w->need_lo) w->need_lo = lo;
    if (hi > w->need_hi) w->need_hi = hi;
}

static lgg_status fetch(struct lgg_convert *c, const cv_tensor *t, uint64_t u0, uint64_t u1, lgg_error *err) {
    if (t->gen) return LGG_OK;
    if (!c->win) {
        lgg_status st = plan_pieces(c, err);
        if (st) return st;
        if (!(c->win = calloc(c->n_shards + c->n_extra, sizeof *c->win))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    if (t->stack) { /* expert e is units [e * rows, (e + 1) * rows) */
        uint64_t rows = t->n_units / t->n_stack;
        for (uint64_t e = u0 / rows; e * rows < u1; e++) {
            uint64_t a = u0 > e * rows ? u0 - e * rows : 0, b = u1 < (e + 1) * rows ? u1 - e * rows : rows;
            need(c, t->stack[e].shard, t->stack[e].t, t, a, b);
        }
    } else {
        need(c, t->shard, t->src, t, u0, u1);
    }
    lgg_status st = LGG_OK;
    int moved = 0; /* a window was read: the windows this call does not use are let go */
    for (uint32_t s = 0; s < c->n_shards + c->n_extra; s++) {
        cv_window *w = &c->win[s];
        uint64_t lo = w->need_lo, hi = w->need_hi, size = 0;
        w->used = hi != 0;
        w->need_lo = w->need_hi = 0;
        if (st || !hi || (w->lo <= lo && hi <= w->hi)) continue;
        moved = 1;
        lgg__cv_exists(c, c->shard_names[s], &size);
        uint64_t end = lo + LGG_CONVERT_IO_CHUNK < hi ? hi : lo + LGG_CONVERT_IO_CHUNK;
        uint64_t ahead = read_ahead_end(c, s, lo, hi);
        if (ahead < end) end = ahead;
        if (end > size) end = size;
        uint64_t keep = lo >= w->lo && lo < w->hi ? (w->hi < end ? w->hi : end) - lo : 0;
        if (keep) memmove(w->buf, w->buf + (lo - w->lo), (size_t)keep);
        if (end - lo > SIZE_MAX || !grow((void **)&w->buf, &w->cap, (size_t)(end - lo))) {
            w->lo = w->hi = 0;
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory reading %s", t->name, c->shard_names[s]);
            continue;
        }
        w->lo = lo, w->hi = lo + keep;
        st = lgg__cv_pread(c, c->shard_names[s], lo + keep, w->buf + keep, (size_t)(end - lo - keep), err);
        if (!st) w->hi = end;
    }
    for (uint32_t s = 0; moved && s < c->n_shards + c->n_extra; s++)
        if (!c->win[s].used) free(c->win[s].buf), c->win[s] = (cv_window){0};
    return st;
}

static void load_row(const cv_tensor *t, uint64_t u, float *x) {
    const float s2 = t->row_scale ? t->row_scale(t, u) : t->scale2; /* u: the output row */
    if (t->gen) {
        memcpy(x, t->gen + u * t->unit, t->unit * sizeof *x);
        return;
    }
    if ((t->zero_from && u >= t->zero_from) || u < t->zero_first) {
        memset(x, 0, t->unit * sizeof *x);
        return;
    }
    u -= t->zero_first;
    const lgg_st_tensor *src = t->src;
    uint32_t shard = t->shard;
    const cv_fp8 *fp8 = t->fp8;
    if (t->stack) { /* expert u / rows, its row u % rows */
        uint64_t rows = t->n_units / t->n_stack;
        src = t->stack[u / rows].t, shard = t->stack[u / rows].shard, fp8 = t->stack[u / rows].fp8, u %= rows;
    }
    uint64_t n = t->unit, first = (src_row(t, u) + t->row_skip) * n;
    size_t es = src->dtype == LGG_TYPE_F32 ? 4 : 2;
    if (fp8) { /* a block-scaled FP8 row (no other transform reads FP8: convert.c refuses them) */
        lgg__cv_fp8_row(fp8, src_row(t, u) + t->row_skip, src_bytes(t->c, shard, src->offset + first), n, x);
    } else if (t->xform & CV_X_EXPERT_T) { /* column u % rows of expert u / rows, element by element (need() took it all) */
        const uint8_t *p = src_bytes(t->c, shard, src->offset);
        uint64_t rows = (uint64_t)t->ne[1], e = u / rows, j = u % rows;
        /* row_arg: the source rows' length (0: rows), the step between the columns taken (0: 1), the first
           (gpt-oss's interleaved gate_up: every other column), the experts' source rows apart (0: n; MLA's k_b) */
        uint64_t len = t->row_arg[0] ? t->row_arg[0] : rows, col = j * (t->row_arg[1] ? t->row_arg[1] : 1) + t->row_arg[2];
        uint64_t stride = t->row_arg[3] ? t->row_arg[3] : n;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t k = (e * stride + i) * len + col;
            uint16_t h;
            if (es == 4) memcpy(x + i, p + k * 4, 4);
            else memcpy(&h, p + k * 2, 2), x[i] = src->dtype == LGG_TYPE_F16 ? lgg_f16_to_f32(h) : lgg_bf16_to_f32(h);
        }
    } else if (t->xform & CV_X_TRANSPOSE) { /* column u of the source, element by element (need() took it all) */
        const uint8_t *p = src_bytes(t->c, shard, src->offset);
        for (uint64_t i = 0; i < n; i++) {
            const uint8_t *e = p + (i * t->n_units + u) * es;
            uint16_t h = (uint16_t)(e[0] | e[1] << 8);
            if (es == 4) memcpy(x + i, e, 4);
            else x[i] = src->dtype == LGG_TYPE_F16 ? lgg_f16_to_f32(h) : lgg_bf16_to_f32(h);
        }
    } else {
        const uint8_t *p = src_bytes(t->c, shard, src->offset + first * es);
        uint64_t b = t->col_of ? t->col_block : n; /* columns in blocks of b, each from block col_of(j) */
        for (uint64_t j = 0; j < n / b; j++) {
            const uint8_t *q = p + (t->col_of ? t->col_of(t, j) : j) * b * es;
            if (es == 4) memcpy(x + j * b, q, b * 4);
            else lgg_dequantize(src->dtype, q, (size_t)b * 2, LGG_LITTLE_ENDIAN, x + j * b, b); /* exact widening */
        }
    }
    if (t->xform & CV_X_TERNARY) lgg__cv_ternary_row(x, n, t->iscale, t->work);
    if (t->xform & (CV_X_ADD1 | CV_X_NEG_EXP))
        for (uint64_t i = 0; i < n; i++) {
            x[i] = (t->xform & CV_X_ADD1) ? x[i] + 1.0f : -lgg__cv_torch_expf(x[i]);
            if (t->work == LGG_TYPE_F16) x[i] = lgg_f16_to_f32(lgg__cv_f32_to_f16(x[i]));
        }
    for (uint64_t i = 0; t->add && i < n; i++) { /* torch's tensor + scalar: in float, rounded to an f16 source's type */
        x[i] += t->add;
        if (t->work == LGG_TYPE_F16) x[i] = lgg_f16_to_f32(lgg__cv_f32_to_f16(x[i]));
    }
    const float sc[2] = {t->scale, s2};
    for (int k = 0; k < 2; k++)
        for (uint64_t i = 0; sc[k] && i < n; i++) {
            x[i] *= sc[k];
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

/* Whether fused quantization reads t's rows rounded to its auto type. */
static int rounds(const cv_tensor *t) { return t->qtype && (t->type == LGG_TYPE_F16 || t->type == LGG_TYPE_BF16); }

/* The values the two-step path's quantizer reads back from the
 * intermediate file: the row as narrow_row writes it there, widened as the
 * quantizer's reader widens it.  `half` holds the row's 16-bit form. */
static lgg_status round_row(uint32_t type, float *x, uint16_t *half, uint64_t n) {
    narrow_row(type, x, (uint8_t *)half, n);
    return lgg_dequantize(type, half, (size_t)n * 2, LGG_LITTLE_ENDIAN, x, (size_t)n) == LGG_OK ? LGG_OK : LGG_ERR_INVALID;
}

/* Row u of t, its values x (rounded when rounds(t)), as output bytes. */
static lgg_status store_row(const cv_tensor *t, uint64_t u, const float *x, uint8_t *out, uint64_t ob) {
    uint64_t n = t->unit;
    size_t written = 0;
    if (t->qtype) { /* fused quantization */
        const float *im = t->imatrix ? t->imatrix + (u / (uint64_t)t->ne[1]) * t->unit : NULL;
        return lgg_quantize(t->qtype, x, out, (size_t)ob, 1, (int64_t)n, im, &written);
    }
    switch (t->type) {
    case LGG_TYPE_F32:
        memcpy(out, x, n * 4);
        return LGG_OK;
    case LGG_TYPE_F16:
    case LGG_TYPE_BF16:
        narrow_row(t->type, x, out, n);
        return LGG_OK;
    default:
        return lgg_quantize(t->type, x, out, (size_t)ob, 1, (int64_t)n, NULL, &written);
    }
}

/* Units [u0, u1) of t into out; each call its own row buffer. */
typedef struct job {
    const cv_tensor *t;
    uint64_t u0, u1, ob;
    uint8_t *out;
    float *row;
    uint16_t *half; /* the row narrowed to the auto type (fused quantization) */
    const float *src; /* rows u0.. already read (shared between outputs, rounded when rounds(t)), or NULL */
    lgg_status st;
    uint64_t bad; /* the unit that failed */
} job;

static void *run_job(void *arg) {
    job *j = arg;
    for (uint64_t u = j->u0; u < j->u1 && j->st == LGG_OK; u++) {
        const float *x = j->src ? j->src + (u - j->u0) * j->t->unit : j->row;
        if (!j->src) {
            load_row(j->t, u, j->row);
            if (rounds(j->t)) j->st = round_row(j->t->type, j->row, j->half, j->t->unit);
        }
        if (!j->st) j->st = store_row(j->t, u, x, j->out + (u - j->u0) * j->ob, j->ob);
        j->bad = u;
    }
    return NULL;
}

enum { MAX_THREADS = 64 };

/* Convert units [u0, u1) into out, on up to c->n_threads threads when
 * there is enough work (rows are independent; the bytes do not depend on
 * the split); src: their rows already read, or NULL. */
static lgg_status convert_units(struct lgg_convert *c, const cv_tensor *t, uint64_t u0, uint64_t u1, uint64_t ob,
                                const float *src, uint8_t *out, lgg_error *err) {
    uint64_t work = (u1 - u0) * t->unit;
    long nt = c->n_threads; /* resolved at open */
    if (nt > MAX_THREADS) nt = MAX_THREADS;
    if (nt < 1 || work < (1u << 16)) nt = 1;
    if (src && !t->qtype) nt = 1; /* rows already read, only narrowed or made q8_0: too little for a thread */
    if ((uint64_t)nt > u1 - u0) nt = (long)(u1 - u0);
    /* per thread: a row of floats, then its 16-bit form (a multiple of 64
     * bytes, so every thread's floats stay aligned) */
    const size_t per_row = ((size_t)t->unit * (sizeof(float) + sizeof(uint16_t)) + 63) / 64 * 64;
    if (!grow((void **)&c->row, &c->row_cap, (size_t)nt * per_row))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
    job jobs[MAX_THREADS];
    uint64_t per = (u1 - u0 + (uint64_t)nt - 1) / (uint64_t)nt;
    for (long k = 0; k < nt; k++) {
        uint64_t a = u0 + (uint64_t)k * per, b = a + per < u1 ? a + per : u1;
        float *row = (float *)((uint8_t *)c->row + (size_t)k * per_row);
        jobs[k] = (job){t, a, b < a ? a : b, ob, out + (a - u0) * ob, row, (uint16_t *)(row + t->unit),
                     src ? src + (a - u0) * t->unit : NULL, LGG_OK, 0};
    }
    lgg_run_jobs(run_job, jobs, sizeof jobs[0], (unsigned)nt);
    lgg_status st = LGG_OK;
    for (long k = 0; k < nt; k++) {
        if (jobs[k].st && !st) {
            st = jobs[k].st;
            lgg__cv_fail(err, st, "%s: tensor '%s': row %llu: conversion to %s failed", c->shard_names[t->shard],
                         t->src_name, (unsigned long long)jobs[k].bad, lgg_type_name(t->qtype ? t->qtype : t->type));
        }
    }
    return st;
}

/* Where a part of units [a, u1) read through the io ends: for stacked
 * experts at the end of expert a's rows (one window holds one expert's
 * matrix, not the hull of several with the other matrices between them in
 * the file); else u1. */
static uint64_t io_part_end(const struct lgg_convert *c, const cv_tensor *t, uint64_t a, uint64_t u1) {
    if (!c->has_io || !t->stack) return u1;
    uint64_t rows = t->n_units / t->n_stack, b = (a / rows + 1) * rows;
    return b < u1 ? b : u1;
}

/* share.c's filling of a block: rows [first, first + n) of t read (through
 * the io windows when there are any), then rounded for the presets. */
static lgg_status load_rows(struct lgg_convert *c, const cv_tensor *t, uint64_t first, uint64_t n, float *x,
                            lgg_error *err) {
    lgg_status st = LGG_OK;
    for (uint64_t a = first, b; !st && a < first + n; a = b) {
        b = io_part_end(c, t, a, first + n);
        st = c->has_io ? fetch(c, t, a, b, err) : LGG_OK;
        for (uint64_t r = a; !st && r < b; r++) load_row(t, r, x + (r - first) * t->unit);
    }
    return st;
}

static lgg_status round_rows(const cv_tensor *t, float *x, uint64_t n, lgg_error *err) {
    uint16_t *half = malloc((size_t)t->unit * sizeof *half);
    if (!half) return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
    lgg_status st = LGG_OK;
    for (uint64_t r = 0; !st && r < n; r++)
        if ((st = round_row(t->type, x + r * t->unit, half, t->unit)) != LGG_OK)
            lgg__cv_fail(err, st, "%s: tensor '%s': rounding to %s failed", t->c->shard_names[t->shard], t->src_name,
                         lgg_type_name(t->type));
    free(half);
    return st;
}

/* Units [u0, u1) into out, a block of rows shared with the other outputs
 * (share.c) at a time. */
static lgg_status shared_units(struct lgg_convert *c, const cv_tensor *t, uint64_t u0, uint64_t u1, uint64_t ob,
                               uint8_t *out, lgg_error *err) {
    static const cv_share_fill fill = {load_rows, round_rows};
    for (uint64_t a = u0; a < u1;) {
        uint64_t first, n;
        lgg_error e;
        const float *rows = lgg__cv_share_rows(c, t, a, rounds(t), &fill, &first, &n, &e);
        if (!rows) {
            if (err) *err = e;
            return e.code;
        }
        uint64_t b = first + n < u1 ? first + n : u1;
        lgg_status st = convert_units(c, t, a, b, ob, rows + (a - first) * t->unit, out + (a - u0) * ob, err);
        if (st) return st;
        a = b;
    }
    return LGG_OK;
}

/* lgg_read_fn: bytes [offset, offset+n) of tensor ud's output. */
lgg_status lgg__cv_read(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    cv_tensor *t = ud;
    struct lgg_convert *c = t->c;
    uint64_t ob = lgg__cv_out_bytes(t);
    if (!n) return LGG_OK;
    uint64_t u0 = offset / ob, u1 = (offset + n + ob - 1) / ob;
    if (u1 > t->n_units) return lgg__cv_fail(err, LGG_ERR_RANGE, "%s: read past the tensor", t->name);
    const int shared = c->share && !lgg__cv_share_alone(c);
    const int whole = offset % ob == 0 && n % ob == 0; /* whole units: straight into the writer's buffer */
    if (!whole && !grow((void **)&c->scratch, &c->scratch_cap, (size_t)((u1 - u0) * ob)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
    uint8_t *out = whole ? dst : c->scratch;
    lgg_status st = t->raw ? t->raw(c, t, u0, u1, out, err) : LGG_OK; /* bytes its family makes */
    for (uint64_t a = u0, b; !st && !t->raw && a < u1; a = b) {
        b = shared ? u1 : io_part_end(c, t, a, u1);
        st = c->has_io && !shared ? fetch(c, t, a, b, err) : LGG_OK; /* shared: the filler's fetch */
        if (!st)
            st = shared ? shared_units(c, t, a, b, ob, out + (a - u0) * ob, err)
                        : convert_units(c, t, a, b, ob, NULL, out + (a - u0) * ob, err);
    }
    if (st) return st;
    if (!whole) memcpy(dst, c->scratch + (offset - u0 * ob), n);
    c->done += n;
    if (c->progress) c->progress(c->progress_ud, c->done, c->total);
    return LGG_OK;
}
