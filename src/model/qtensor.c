/* qtensor.c -- quantize rows of a tensor of an open file, any input type.
 *
 * Each row is converted to f32 (lgg_dequantize: exact for F16/BF16, ggml's
 * to_float for quantized inputs) and quantized by lgg_quantize, so a row's
 * bytes never depend on which other rows share a call or a thread.  Work
 * memory is a caller-sized f32 scratch: a few rows, never the tensor. */
#include "format/file.h"

#include <stdlib.h>

/* f32 elements converted per step: big enough to amortize the calls,
 * small enough to stay in cache. */
#define STEP_ELEMS (64u * 1024u)

static lgg_status check_rows(const lgg_tensor *t, uint32_t type, uint64_t *nrows, uint64_t *out_row) {
    if (!t->type_known || !lgg_type_is_valid(t->type) || !t->data_available || !t->data) return LGG_ERR_UNSUPPORTED;
    if (!lgg_type_can_quantize(type)) return LGG_ERR_UNSUPPORTED;
    if (t->ne[0] <= 0 || t->n_elements == 0) {
        *nrows = 0;
        *out_row = 0;
        return LGG_OK;
    }
    const uint64_t ne0 = (uint64_t)t->ne[0];
    if (lgg_type_nbytes(type, ne0, out_row) != LGG_OK) return LGG_ERR_RANGE;
    *nrows = t->n_elements / ne0;
    return LGG_OK;
}

/* Where row r's imatrix slice starts: one vector per ne[2] slice. */
static const float *imatrix_for(const lgg_tensor *t, const float *imatrix, uint64_t r) {
    if (!imatrix) return NULL;
    const uint64_t ne1 = t->ne[1] > 0 ? (uint64_t)t->ne[1] : 1, ne2 = t->ne[2] > 0 ? (uint64_t)t->ne[2] : 1;
    return imatrix + ((r / ne1) % ne2) * (uint64_t)t->ne[0];
}

lgg_status lgg_quantize_rows(const lgg_file *f, const lgg_tensor *t, uint32_t type, const float *imatrix,
                             uint64_t row_begin, uint64_t row_end, void *dst, size_t dst_size, float *scratch,
                             size_t scratch_count) {
    if (!f || !t || (!dst && row_end > row_begin)) return LGG_ERR_ARG;
    uint64_t nrows, out_row;
    lgg_status st = check_rows(t, type, &nrows, &out_row);
    if (st != LGG_OK) return st;
    if (row_begin > row_end || row_end > nrows) return LGG_ERR_RANGE;
    if (row_begin == row_end) return LGG_OK;
    const uint64_t ne0 = (uint64_t)t->ne[0];
    uint64_t need;
    if (lgg__mul_ovf(row_end - row_begin, out_row, &need) || need > dst_size) return LGG_ERR_RANGE;
    if (ne0 % lgg_type_get(type)->block_size != 0) return LGG_ERR_RANGE;
    /* little-endian f32 on a little-endian host is read in place */
    const bool direct = t->type == LGG_TYPE_F32 && !lgg__needs_swap(lgg_file_endian(f)) &&
                        ((uintptr_t)t->data % sizeof(float)) == 0;
    if (!direct && (!scratch || scratch_count < ne0)) return LGG_ERR_RANGE;
    const uint64_t ne1 = t->ne[1] > 0 ? (uint64_t)t->ne[1] : 1;
    const uint64_t per = direct ? UINT64_MAX : scratch_count / ne0;
    uint8_t *y = dst;
    for (uint64_t r = row_begin; r < row_end;) {
        uint64_t k = row_end - r;
        if (k > per) k = per;
        /* a call never crosses into the next expert's imatrix slice */
        if (imatrix) {
            const uint64_t slice_end = (r / ne1 + 1) * ne1;
            if (r + k > slice_end) k = slice_end - r;
        }
        const float *x;
        if (direct) {
            x = (const float *)t->data + r * ne0;
        } else {
            st = lgg_dequantize_rows(f, t, r, r + k, scratch, scratch_count);
            if (st != LGG_OK) return st;
            x = scratch;
        }
        st = lgg_quantize(type, x, y, (size_t)(k * out_row), (int64_t)k, (int64_t)ne0, imatrix_for(t, imatrix, r), NULL);
        if (st != LGG_OK) return st;
        y += k * out_row;
        r += k;
    }
    return LGG_OK;
}

typedef struct qwork {
    const lgg_file *f;
    const lgg_tensor *t;
    uint32_t type;
    const float *imatrix;
    uint64_t r0, r1, out_row;
    uint8_t *dst;
    float *scratch;
    size_t scratch_count;
    lgg_status st;
} qwork;

static void *qworker(void *p) {
    qwork *w = p;
    w->st = lgg_quantize_rows(w->f, w->t, w->type, w->imatrix, w->r0, w->r1, w->dst + (w->r0 * w->out_row),
                              (size_t)((w->r1 - w->r0) * w->out_row), w->scratch, w->scratch_count);
    return NULL;
}

lgg_status lgg_quantize_tensor(const lgg_file *f, const lgg_tensor *t, uint32_t type, const float *imatrix, void *dst,
                               size_t dst_size, int n_threads) {
    if (!f || !t) return LGG_ERR_ARG;
    uint64_t nrows, out_row;
    lgg_status st = check_rows(t, type, &nrows, &out_row);
    if (st != LGG_OK) return st;
    if (nrows == 0) return LGG_OK;
    if (!dst) return LGG_ERR_ARG;
    uint64_t need;
    if (lgg__mul_ovf(nrows, out_row, &need) || need > dst_size) return LGG_ERR_RANGE;
    uint64_t nt = lgg__threads(n_threads);
    if (nt > nrows) nt = nrows;
    const uint64_t ne0 = (uint64_t)t->ne[0];
    uint64_t rows_per_step = STEP_ELEMS / ne0;
    if (rows_per_step == 0) rows_per_step = 1;
    const size_t scratch_count = (size_t)(rows_per_step * ne0);

    qwork w[LGG__MAX_THREADS];
    const lgg_allocator *a = f->alloc; /* the caller's hooks, as for the file */
    float *scratch = lgg__calloc(a, (size_t)nt, scratch_count * sizeof(float));
    if (!scratch) return LGG_ERR_NOMEM;
    for (uint64_t i = 0; i < nt; i++) {
        w[i] = (qwork){f, t, type, imatrix, nrows * i / nt, nrows * (i + 1) / nt, out_row, dst,
                       scratch + i * scratch_count, scratch_count, LGG_OK};
    }
    lgg__fan_out(qworker, w, sizeof w[0], (unsigned)nt);
    lgg__free(a, scratch);
    for (uint64_t i = 0; i < nt; i++)
        if (w[i].st != LGG_OK) return w[i].st;
    return LGG_OK;
}
