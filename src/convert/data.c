/* data.c -- tensor data as the writer asks for it: whole source rows are
 * read from the memory-mapped shard, transformed (q/k permutation, norm + 1)
 * and converted to the output type, a bounded number at a time.  The
 * arithmetic follows the reference: bf16 is widened to f32 first, an f16
 * source stays f16 through the transforms, f16 rounds to nearest even. */
#include "cvint.h"

#include <stdlib.h>
#include <string.h>

uint64_t lgg__cv_out_bytes(const cv_tensor *t) {
    uint64_t b = 0;
    lgg_type_nbytes(t->qtype ? t->qtype : t->type, t->unit, &b);
    return b;
}

/* The source row that output row u comes from: the reference reshapes to
 * (heads, 2, rows/heads/2, ...) and swaps the two middle axes. */
static uint64_t src_row(const cv_tensor *t, uint64_t u) {
    if (!(t->xform & (CV_X_PERM_Q | CV_X_PERM_K))) return u;
    uint64_t half = t->n_units / t->heads / 2, h = u / (2 * half), r = u % (2 * half);
    return h * 2 * half + (r % 2) * half + r / 2;
}

static void load_row(const cv_tensor *t, uint64_t u, float *x) {
    const uint8_t *p = lgg_st_bytes(t->c->shards[t->shard]) + t->src->offset;
    uint64_t n = t->unit, first = src_row(t, u) * n;
    switch (t->src->dtype) {
    case LGG_TYPE_F32:
        memcpy(x, p + first * 4, n * 4);
        break;
    case LGG_TYPE_F16:
        for (uint64_t i = 0; i < n; i++) {
            uint16_t h;
            memcpy(&h, p + (first + i) * 2, 2);
            x[i] = lgg_f16_to_f32(h);
        }
        break;
    default: /* BF16 */
        for (uint64_t i = 0; i < n; i++) {
            uint16_t h;
            memcpy(&h, p + (first + i) * 2, 2);
            x[i] = lgg_bf16_to_f32(h);
        }
        break;
    }
    if (t->xform & CV_X_ADD1)
        for (uint64_t i = 0; i < n; i++) {
            x[i] = x[i] + 1.0f;
            if (t->work == LGG_TYPE_F16) x[i] = lgg_f16_to_f32(lgg__cv_f32_to_f16(x[i]));
        }
}

/* Fused quantization: the values the two-step path's quantizer reads back
 * from the intermediate file (rounded to its type), quantized. */
static lgg_status requantize_row(const cv_tensor *t, uint64_t u, float *x, uint8_t *out, uint64_t ob) {
    for (uint64_t i = 0; i < t->unit; i++)
        x[i] = t->type == LGG_TYPE_F16    ? lgg_f16_to_f32(lgg__cv_f32_to_f16(x[i]))
               : t->type == LGG_TYPE_BF16 ? lgg_bf16_to_f32(lgg_f32_to_bf16(x[i]))
                                          : x[i];
    const float *im = t->imatrix ? t->imatrix + (u / (uint64_t)t->ne[1]) * t->unit : NULL;
    size_t written = 0;
    return lgg_quantize(t->qtype, x, out, (size_t)ob, 1, (int64_t)t->unit, im, &written);
}

static lgg_status store_row(const cv_tensor *t, uint64_t u, float *x, uint8_t *out, uint64_t ob) {
    uint64_t n = t->unit;
    if (t->qtype) return requantize_row(t, u, x, out, ob);
    switch (t->type) {
    case LGG_TYPE_F32:
        memcpy(out, x, n * 4);
        return LGG_OK;
    case LGG_TYPE_F16:
        for (uint64_t i = 0; i < n; i++) {
            uint16_t h = lgg__cv_f32_to_f16(x[i]);
            memcpy(out + i * 2, &h, 2);
        }
        return LGG_OK;
    case LGG_TYPE_BF16:
        for (uint64_t i = 0; i < n; i++) {
            uint16_t h = lgg_f32_to_bf16(x[i]);
            memcpy(out + i * 2, &h, 2);
        }
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

/* lgg_read_fn: bytes [offset, offset+n) of tensor ud's output. */
lgg_status lgg__cv_read(void *ud, uint64_t offset, void *dst, size_t n) {
    cv_tensor *t = ud;
    struct lgg_convert *c = t->c;
    uint64_t ob = lgg__cv_out_bytes(t);
    if (!n || c->skeleton) return LGG_OK;
    uint64_t u0 = offset / ob, u1 = (offset + n + ob - 1) / ob;
    if (u1 > t->n_units || !grow((void **)&c->scratch, &c->scratch_cap, (size_t)((u1 - u0) * ob)) ||
        !grow((void **)&c->row, &c->row_cap, (size_t)t->unit * sizeof(float)))
        return lgg__cv_fail(&c->cb_err, LGG_ERR_NOMEM, "%s: out of memory converting", t->name);
    for (uint64_t u = u0; u < u1; u++) {
        load_row(t, u, c->row);
        lgg_status st = store_row(t, u, c->row, c->scratch + (u - u0) * ob, ob);
        if (st)
            return lgg__cv_fail(&c->cb_err, st, "%s: tensor '%s': conversion to %s failed", c->shard_names[t->shard],
                                t->src_name, lgg_type_name(t->qtype ? t->qtype : t->type));
    }
    memcpy(dst, c->scratch + (offset - u0 * ob), n);
    c->done += n;
    if (c->progress) c->progress(c->progress_ud, c->done, c->total);
    return LGG_OK;
}
