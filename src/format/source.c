/* source.c -- opening a file through a read callback (lgg_source): the
 * header is read as one growing prefix, the tensor data only on demand.
 *
 * The prefix starts at first_read bytes and doubles while the parser runs
 * out of bytes (LGG_ERR_TRUNCATED from a prefix shorter than the file), so
 * a header of H bytes costs at most max(first_read, 2H) bytes and
 * log2(H / first_read) + 1 reads; each read fetches only the new part. */
#include "format/file.h"

#define FIRST_READ (UINT64_C(256) << 10)
#define MAX_HEADER (UINT64_C(1) << 30)

/* Forget a parse of a prefix that was too short, before the next try. */
static void reset_parse(lgg_file *f) {
    lgg__free(f->alloc, f->kv);
    lgg__free(f->alloc, f->tensors);
    f->kv = NULL;
    f->tensors = NULL;
    f->n_kv = f->n_tensors = 0;
}

/* Read [f->mem_size, want) through the source onto the prefix. */
static lgg_status extend(lgg_file *f, size_t *cap, uint64_t want, lgg_error *err) {
    if (want <= f->mem_size) return LGG_OK; /* an empty source: nothing to read */
    void *p = f->owned;
    if (!lgg__grow(f->alloc, &p, cap, (size_t)want, 1, (size_t)want))
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory for a %llu-byte header prefix",
                         (unsigned long long)want);
    f->owned = p;
    f->base = p;
    lgg_status s = f->src.read(f->src.ud, f->mem_size, (uint8_t *)p + f->mem_size, (size_t)(want - f->mem_size), err);
    if (s) return err && err->code == s ? s : lgg__fail(err, s, f->mem_size, "the source failed to read bytes %llu..%llu",
                                                         (unsigned long long)f->mem_size, (unsigned long long)want);
    f->mem_size = want;
    return LGG_OK;
}

static lgg_status read_header(lgg_file *f, lgg_error *err) {
    const uint64_t first = f->src.first_read ? f->src.first_read : FIRST_READ;
    const uint64_t max = f->src.max_header ? f->src.max_header : MAX_HEADER;
    uint64_t want = first < f->src.size ? first : f->src.size;
    size_t cap = 0;
    for (;;) {
        if (want > max || want > SIZE_MAX)
            return lgg__fail(err, LGG_ERR_LIMIT, f->mem_size,
                             "the header is longer than %llu bytes (the limit for a file read through a source)",
                             (unsigned long long)max);
        lgg_status s = extend(f, &cap, want, err);
        if (s) return s;
        s = lgg__parse_header(f, err);
        if (s != LGG_ERR_TRUNCATED || f->mem_size == f->src.size) return s;
        reset_parse(f);
        want = f->mem_size > f->src.size / 2 ? f->src.size : f->mem_size * 2;
        if (want > max && f->mem_size < max) want = max; /* one last try at the limit */
    }
}

lgg_status lgg_open_source(const lgg_source *src, const lgg_open_options *opts, lgg_file **out, lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "out is NULL");
    *out = NULL;
    LGG__OPTIONS_IN(lgg_open_options, opts, err)
    if (!src || !src->read) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "no source to read");
    lgg_file *f = lgg__file_new(opts);
    if (!f) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    f->has_src = true;
    f->src = *src;
    f->size = src->size;
    f->base = (const uint8_t *)"";
    lgg_status s = read_header(f, err);
    if (s) {
        lgg_close(f);
        return s;
    }
    return lgg__finish_checks(f, out, err);
}

bool lgg_file_header_only(const lgg_file *f) { return f && f->has_src; }

lgg_status lgg_file_load_tensor(lgg_file *f, uint64_t index, lgg_error *err) {
    if (!f || index >= f->n_tensors) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "no tensor %llu",
                                                      (unsigned long long)index);
    lgg_tensor *t = &f->tensors[index];
    if (t->data_available) return LGG_OK;
    if (f->layout_bad) {
        if (err) *err = f->layout_err;
        return f->layout_err.code;
    }
    if (!f->has_src || !lgg__tensor_in_file(f, t))
        return lgg__fail(err, LGG_ERR_NO_DATA, f->size, "tensor %llu's data is not in the file",
                         (unsigned long long)index);
    if (t->size > SIZE_MAX) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "tensor too large for memory");
    if (!f->loaded && !(f->loaded = lgg__calloc(f->alloc, f->n_tensors, sizeof *f->loaded)))
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    void *p = lgg__alloc(f->alloc, (size_t)t->size);
    if (!p) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory for %llu bytes of tensor data",
                             (unsigned long long)t->size);
    lgg_status s = t->size ? f->src.read(f->src.ud, t->file_offset, p, (size_t)t->size, err) : LGG_OK;
    if (s) {
        lgg__free(f->alloc, p);
        return err && err->code == s ? s : lgg__fail(err, s, t->file_offset, "the source failed to read tensor %llu",
                                                     (unsigned long long)index);
    }
    f->loaded[index] = p;
    t->data = p;
    t->data_available = true;
    return LGG_OK;
}

lgg_status lgg_file_read(const lgg_file *f, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    if (!f || (!dst && n)) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    if (offset > f->size || n > f->size - offset)
        return lgg__fail(err, LGG_ERR_RANGE, offset, "bytes %llu..%llu lie past the end of the file (%llu bytes)",
                         (unsigned long long)offset, (unsigned long long)(offset + n), (unsigned long long)f->size);
    if (offset + n <= f->mem_size) {
        if (n) memcpy(dst, f->base + offset, n);
        return LGG_OK;
    }
    if (!f->has_src)
        return lgg__fail(err, LGG_ERR_RANGE, offset, "bytes %llu..%llu are not in the file as read (%llu bytes)",
                         (unsigned long long)offset, (unsigned long long)(offset + n), (unsigned long long)f->mem_size);
    return f->src.read(f->src.ud, offset, dst, n, err);
}
