/* fused.c -- --outtype PRESET: convert and quantize in one pass.
 *
 * The output must equal `convert --outtype auto` followed by `quantize`.
 * llama-quantize's per-tensor decisions (lgg_quant_plan_*) read a GGUF
 * file's metadata and tensor infos, never its data.  So the plan is made
 * from the auto conversion's description (lgg_writer_describe: its header
 * in memory, no data), and the output writer gets the plan's metadata
 * (lgg_quant_plan_set_metadata) and, per tensor, a callback that converts
 * source rows, rounds them to the auto type (what the two-step quantizer
 * would read back) and quantizes them to the plan's type. */
#include "cvint.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What writer w describes, its metadata and tensor infos, as a file without
 * data (lgg_writer_describe): what the quantize and split plans read. */
static lgg_status header_file(const lgg_convert *c, const lgg_writer *w, lgg_file **out, lgg_error *err) {
    lgg_error e2;
    lgg_status st = lgg_writer_describe(w, out, &e2);
    return st ? lgg__cv_fail(err, st, "%s: the converted header: %s", c->dir, e2.message) : LGG_OK;
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
        st = lgg__cv_writer_add(w, t, it->type, 0, err);
        c->total += lgg__cv_out_bytes(t) * t->n_units;
    }
    if (st) {
        lgg_writer_free(w);
        return st;
    }
    *out = w;
    return LGG_OK;
}

/* The quantized output's writer and its plan, made from the auto
 * conversion's description (f holds it until the end). */
static lgg_status fused_begin(lgg_convert *c, const lgg_quant_options *qo, const lgg_quant_write_options *qw,
                              lgg_file **f, lgg_quant_plan **p, lgg_writer **w, lgg_error *err) {
    lgg_status st = header_file(c, c->w, f, err);
    if (!st) st = lgg_quant_plan_create((const lgg_file *const *)f, 1, qo, p, err);
    if (!st) st = fused_writer(c, *p, qw, w, err);
    /* the plan's order of c's tensors (0: theirs), for rows shared with other outputs */
    c->share_order = 0;
    if (!st && c->share && !(c->share_pos = calloc(c->n_t ? c->n_t : 1, sizeof *c->share_pos)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; !st && i < lgg_quant_plan_count(*p); i++) {
        uint64_t ti = lgg_quant_plan_at(*p, i)->tensor; /* < c->n_t: fused_writer checked */
        if (c->share_pos) c->share_pos[ti] = (uint32_t)i;
        if (ti != i || c->share_order) c->share_order = (c->share_order ^ ti) * 0x100000001b3ull | 1;
    }
    c->done = 0;
    if (qw->n_threads > 0) c->n_threads = qw->n_threads;
    return st;
}

static void fused_end(lgg_convert *c, lgg_file *f, lgg_quant_plan *p, lgg_writer *w) {
    for (size_t i = 0; i < c->n_t; i++) c->t[i].qtype = 0, c->t[i].imatrix = NULL;
    free(c->share_pos);
    c->share_pos = NULL;
    lgg_writer_free(w);
    lgg_quant_plan_free(p);
    lgg_close(f);
}

static void fused_write_options(const lgg_quant_write_options *qw, lgg_write_options *wo) {
    lgg_write_options_init(wo);
    wo->flags = qw->write_flags;
    wo->temp_fn = qw->temp_fn; /* the caller may remove the temporary file on a signal */
    wo->temp_ud = qw->temp_ud;
}

/* Tensor i of the whole output: its converter entry (the plan's item i
 * with a plan), *type, and whether gguf-py's dimensions are kept. */
static cv_tensor *whole_tensor(lgg_convert *c, const lgg_quant_plan *p, uint64_t i, uint32_t *type, int *keep_dims) {
    if (!p) {
        *type = c->t[i].type, *keep_dims = 1;
        return &c->t[i];
    }
    const lgg_quant_item *it = lgg_quant_plan_at(p, i);
    *type = it->type, *keep_dims = 0;
    return &c->t[it->tensor];
}

/* Shard s: the metadata the splitter gives it, tensors from c. */
static lgg_status shard_writer(lgg_convert *c, const lgg_file *whole, const lgg_quant_plan *p, const lgg_split_plan *sp,
                               uint32_t s, lgg_writer **out, lgg_error *err) {
    lgg_writer *sw = NULL, *w = NULL;
    lgg_file *hf = NULL;
    lgg_status st = lgg_split_shard_writer(whole, -1, sp, s, &sw, err);
    if (!st) st = header_file(c, sw, &hf, err);
    if (!st) st = lgg_writer_create(NULL, &w, err);
    for (uint64_t i = 0; !st && i < lgg_kv_count(hf); i++) {
        const lgg_kv *kv = lgg_kv_at(hf, i);
        st = lgg_writer_set_value(w, kv->key.ptr, (size_t)kv->key.len, &kv->value, err);
    }
    const lgg_shard *sh = lgg_split_plan_shard(sp, s);
    for (uint64_t i = sh->first_tensor; !st && i < sh->first_tensor + sh->n_tensors; i++) {
        uint32_t type;
        int keep;
        cv_tensor *t = whole_tensor(c, p, i, &type, &keep);
        st = lgg__cv_writer_add(w, t, type, keep, err);
    }
    lgg_writer_free(sw);
    lgg_close(hf);
    if (st) {
        lgg_writer_free(w);
        return st;
    }
    *out = w;
    return LGG_OK;
}

/* The output of `whole` (c->w, or the fused writer with its plan p) as a
 * shard set; on error no shard of the set is left. */
static lgg_status write_shards(lgg_convert *c, const lgg_writer *whole, const lgg_quant_plan *p, const char *prefix,
                               const lgg_split_options *so, const lgg_write_options *wo, lgg_error *err) {
    lgg_file *f = NULL;
    lgg_split_plan *sp = NULL;
    lgg_status st = header_file(c, whole, &f, err);
    if (!st) st = lgg_split_plan_make(f, so, &sp, err);
    uint32_t n = st ? 0 : lgg_split_plan_count(sp), s;
    c->done = 0;
    if (n == 1 && (so->flags & LGG_SPLIT_GGUF_PY)) {
        /* gguf-py does not split what fits one shard: the plain output */
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s.gguf", prefix) >= sizeof path)
            st = lgg__cv_fail(err, LGG_ERR_RANGE, "%s: output name too long", prefix);
        else st = lgg_writer_write_file(whole, path, wo, err);
        n = 0;
    }
    for (s = 0; !st && s < n; s++) {
        char path[4096];
        lgg_writer *w = NULL;
        if (lgg_split_path(path, sizeof path, prefix, s, n) >= sizeof path) {
            st = lgg__cv_fail(err, LGG_ERR_RANGE, "%s: shard name too long", prefix);
            break;
        }
        st = shard_writer(c, f, p, sp, s, &w, err);
        if (!st) st = lgg_writer_write_file(w, path, wo, err);
        lgg_writer_free(w);
    }
    for (uint32_t k = 0; st && k + 1 < s; k++) {
        char path[4096];
        lgg_split_path(path, sizeof path, prefix, k, n);
        unlink(path);
    }
    lgg_split_plan_free(sp);
    lgg_close(f);
    return st;
}

lgg_status lgg_convert_write_split(lgg_convert *c, const char *prefix, const lgg_split_options *so,
                                   const lgg_write_options *wo, lgg_error *err) {
    if (!c || !prefix || !so) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_write_split: NULL argument");
    return write_shards(c, c->w, NULL, prefix, so, wo, err);
}

/* The quantized output to `path`, or with so as the shard set `path`-0000i-of-0000n.gguf. */
static lgg_status write_fused(lgg_convert *c, const lgg_quant_options *qo, const lgg_quant_write_options *qw,
                              const char *path, const lgg_split_options *so, lgg_error *err) {
    lgg_file *f = NULL;
    lgg_quant_plan *p = NULL;
    lgg_writer *w = NULL;
    lgg_status st = fused_begin(c, qo, qw, &f, &p, &w, err);
    if (!st) {
        lgg_write_options wo;
        fused_write_options(qw, &wo);
        st = so ? write_shards(c, w, p, path, so, &wo, err) : lgg_writer_write_file(w, path, &wo, err);
    }
    fused_end(c, f, p, w);
    return st;
}

lgg_status lgg_convert_write_quantized(lgg_convert *c, const lgg_quant_options *qo, const lgg_quant_write_options *qw,
                                       const char *path, lgg_error *err) {
    if (!c || !qo || !qw || !path) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_write_quantized: NULL argument");
    return write_fused(c, qo, qw, path, NULL, err);
}

lgg_status lgg_convert_write_quantized_split(lgg_convert *c, const lgg_quant_options *qo,
                                             const lgg_quant_write_options *qw, const char *prefix,
                                             const lgg_split_options *so, lgg_error *err) {
    if (!c || !qo || !qw || !prefix || !so)
        return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_write_quantized_split: NULL argument");
    return write_fused(c, qo, qw, prefix, so, err);
}
