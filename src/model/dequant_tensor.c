/* dequant_tensor.c -- dequantize rows or whole tensors of an open file.
 *
 * Uses only the public reader API (lgg_file_endian and the tensor's fields).
 * lgg_dequantize_tensor splits the rows into contiguous ranges, one per
 * thread; every element is computed by the same code whatever the split, so
 * the result does not depend on the thread count. */
#include "base/internal.h"


/* Below this many output floats per thread, extra threads cost more than
 * they save. */
#define MIN_PER_THREAD (64u * 1024u)

/* Rows of `t` and the bytes of one row; LGG_OK if the tensor can be read. */
static lgg_status tensor_shape(const lgg_tensor *t, uint64_t *nrows, uint64_t *row_bytes) {
    if (!t->type_known || !lgg_type_is_valid(t->type)) return LGG_ERR_UNSUPPORTED;
    if (!t->data_available || !t->data) return LGG_ERR_UNSUPPORTED;
    if (t->ne[0] <= 0 || t->n_elements == 0) { /* empty (a zero dimension): no rows, whatever ne[0] is */
        *nrows = 0;
        *row_bytes = 0;
        return LGG_OK;
    }
    const uint64_t row_len = (uint64_t)t->ne[0];
    if (lgg_type_nbytes(t->type, row_len, row_bytes) != LGG_OK) return LGG_ERR_RANGE;
    *nrows = t->n_elements / row_len;
    uint64_t need;
    if (lgg__mul_ovf(*nrows, *row_bytes, &need) || need > t->size) return LGG_ERR_RANGE;
    return LGG_OK;
}

static lgg_status rows_unchecked(lgg_endian e, const lgg_tensor *t, uint64_t row_bytes, uint64_t r0, uint64_t r1,
                                 float *dst) {
    const uint64_t row_len = (uint64_t)t->ne[0];
    const uint8_t *src = (const uint8_t *)t->data + r0 * row_bytes;
    const uint64_t bytes = (r1 - r0) * row_bytes;
    if (bytes > SIZE_MAX) return LGG_ERR_RANGE;
    return lgg_dequantize(t->type, src, (size_t)bytes, e, dst, (r1 - r0) * row_len);
}

lgg_status lgg_dequantize_rows(const lgg_file *f, const lgg_tensor *t, uint64_t row_begin, uint64_t row_end,
                               float *dst, uint64_t dst_count) {
    if (!f || !t || !dst) return LGG_ERR_ARG;
    uint64_t nrows, row_bytes;
    lgg_status st = tensor_shape(t, &nrows, &row_bytes);
    if (st != LGG_OK) return st;
    if (row_begin > row_end || row_end > nrows) return LGG_ERR_RANGE;
    if (row_begin == row_end) return LGG_OK;
    if ((row_end - row_begin) > dst_count / (uint64_t)t->ne[0]) return LGG_ERR_RANGE;
    return rows_unchecked(lgg_file_endian(f), t, row_bytes, row_begin, row_end, dst);
}

typedef struct {
    const lgg_tensor *t;
    lgg_endian endian;
    uint64_t row_bytes, r0, r1;
    float *dst;
    lgg_status status;
} work;

static void *worker(void *p) {
    work *w = p;
    w->status = rows_unchecked(w->endian, w->t, w->row_bytes, w->r0, w->r1, w->dst);
    return NULL;
}

lgg_status lgg_dequantize_tensor(const lgg_file *f, const lgg_tensor *t, float *dst, uint64_t dst_count,
                                 int n_threads) {
    if (!f || !t || !dst) return LGG_ERR_ARG;
    uint64_t nrows, row_bytes;
    lgg_status st = tensor_shape(t, &nrows, &row_bytes);
    if (st != LGG_OK) return st;
    if (dst_count < t->n_elements) return LGG_ERR_RANGE;
    if (nrows == 0) return LGG_OK;
    const uint64_t row_len = (uint64_t)t->ne[0];

    uint64_t nt = lgg__threads(n_threads);
    if (nt > nrows) nt = nrows;
    const uint64_t by_size = t->n_elements / MIN_PER_THREAD;
    if (nt > by_size) nt = by_size ? by_size : 1;

    const lgg_endian e = lgg_file_endian(f);
    if (nt <= 1) return rows_unchecked(e, t, row_bytes, 0, nrows, dst);

    work w[LGG__MAX_THREADS];
    for (uint64_t i = 0; i < nt; i++) {
        w[i].t = t;
        w[i].endian = e;
        w[i].row_bytes = row_bytes;
        w[i].r0 = nrows * i / nt;
        w[i].r1 = nrows * (i + 1) / nt;
        w[i].dst = dst + w[i].r0 * row_len;
        w[i].status = LGG_OK;
    }
    lgg__fan_out(worker, w, sizeof w[0], (unsigned)nt);
    for (uint64_t i = 0; i < nt; i++)
        if (w[i].status != LGG_OK) return w[i].status;
    return LGG_OK;
}
