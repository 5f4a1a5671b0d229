/* fused.c -- --outtype PRESET: convert and quantize in one pass.
 *
 * The output must equal `convert --outtype auto` followed by `quantize`.
 * llama-quantize's per-tensor decisions (lgg_quant_plan_*) need an open
 * GGUF file; they read its metadata and tensor infos, never its data.  So
 * the auto conversion's header is written into an anonymous memory file
 * whose data section is a hole (no memory, no disk), the plan is made from
 * it, and the output writer gets the plan's metadata
 * (lgg_quant_plan_set_metadata) and, per tensor, a callback that converts
 * source rows, rounds them to the auto type (what the two-step quantizer
 * would read back) and quantizes them to the plan's type. */
#include "cvint.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct head_sink {
    uint64_t pos, keep; /* bytes seen; bytes to keep (the header and its padding) */
} head_sink;

/* lgg_write_fn that keeps only the header: the data is never produced
 * (the converter's callbacks return at once in skeleton mode). */
static long head_only(void *ud, int fd, const void *buf, size_t n) {
    head_sink *h = ud;
    size_t keep = h->pos < h->keep ? (size_t)(h->keep - h->pos < n ? h->keep - h->pos : n) : 0;
    for (size_t done = 0; done < keep;) {
        ssize_t w = write(fd, (const char *)buf + done, keep - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        done += (size_t)w;
    }
    h->pos += n;
    return (long)n;
}

/* The auto conversion as a GGUF file with a sparse data section. */
static lgg_status skeleton(lgg_convert *c, int *fd_out, lgg_file **out, lgg_error *err) {
    int fd = memfd_create("gguf-convert-header", MFD_CLOEXEC);
    if (fd < 0) return lgg__cv_fail(err, LGG_ERR_IO, "memfd_create: %s", strerror(errno));
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    uint64_t hs = 0, total = 0;
    lgg_error e2;
    lgg_status st = lgg_writer_header_size(c->w, &wo, &hs, &e2);
    head_sink h = {0, (hs + 31) / 32 * 32};
    wo.write_fn = head_only;
    wo.write_ud = &h;
    c->skeleton = 1;
    if (!st) st = lgg_writer_write_fd(c->w, fd, &wo, &total, &e2);
    c->skeleton = 0;
    if (!st && ftruncate(fd, (off_t)total) != 0) st = LGG_ERR_IO, snprintf(e2.message, sizeof e2.message, "%s", strerror(errno));
    if (!st) st = lgg_open_fd(fd, NULL, out, &e2);
    if (st) {
        close(fd);
        return lgg__cv_fail(err, st, "%s: the converted header: %s", c->dir, e2.message);
    }
    *fd_out = fd;
    return LGG_OK;
}

/* The output writer: the plan's metadata, its tensors fed by the converter. */
static lgg_status fused_writer(lgg_convert *c, const lgg_quant_plan *p, const lgg_quant_write_options *qw,
                               lgg_writer **out, lgg_error *err) {
    lgg_writer *w = NULL;
    lgg_status st = lgg_writer_create(NULL, &w, err);
    if (!st) st = lgg_quant_plan_set_metadata(p, qw, w, err);
    c->total = 0;
    for (size_t i = 0; !st && i < lgg_quant_plan_count(p); i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(p, i);
        if (it->tensor >= c->n_t) {
            st = lgg__cv_fail(err, LGG_ERR_ARG, "quantization plan names tensor %llu of %zu",
                              (unsigned long long)it->tensor, c->n_t);
            break;
        }
        cv_tensor *t = &c->t[it->tensor];
        t->qtype = it->convert ? it->type : 0;
        t->imatrix = it->convert ? it->imatrix : NULL;
        st = lgg_writer_add_tensor_callback(w, t->name, strlen(t->name), t->n_dims, t->ne, it->type, lgg__cv_read, t,
                                            LGG_LITTLE_ENDIAN, err);
        c->total += lgg__cv_out_bytes(t) * t->n_units;
    }
    if (st) {
        lgg_writer_free(w);
        return st;
    }
    *out = w;
    return LGG_OK;
}

lgg_status lgg_convert_write_quantized(lgg_convert *c, const lgg_quant_options *qo, const lgg_quant_write_options *qw,
                                       const char *path, lgg_error *err) {
    if (!c || !qo || !qw || !path) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_write_quantized: NULL argument");
    int fd = -1;
    lgg_file *f = NULL;
    lgg_quant_plan *p = NULL;
    lgg_writer *w = NULL;
    lgg_status st = skeleton(c, &fd, &f, err);
    if (!st) st = lgg_quant_plan_create((const lgg_file *const *)&f, 1, qo, &p, err);
    if (!st) st = fused_writer(c, p, qw, &w, err);
    if (!st) {
        lgg_write_options wo;
        lgg_write_options_init(&wo);
        wo.flags = qw->write_flags;
        c->done = 0;
        if (qw->n_threads > 0) c->n_threads = qw->n_threads;
        st = lgg_writer_write_file(w, path, &wo, err);
    }
    for (size_t i = 0; i < c->n_t; i++) c->t[i].qtype = 0, c->t[i].imatrix = NULL;
    lgg_writer_free(w);
    lgg_quant_plan_free(p);
    lgg_close(f);
    if (fd >= 0) close(fd);
    return st;
}
