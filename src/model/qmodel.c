/* qmodel.c -- write a quantized model from a plan.
 *
 * The writer (lgg_writer_write_file) pulls each tensor's bytes through a
 * callback, in file order.  Converted tensors are cut into chunks of rows;
 * threads take chunks in order and convert them into a ring of buffers
 * ahead of the writer, which write()s finished chunks straight from their
 * slots and then frees them.  The writing thread is one of the converting
 * threads: while the chunk it needs is not ready it converts the next free
 * one itself, and sleeps only when the ring is full, so with n threads
 * n - 1 workers run beside it and a wake-up is rare.  So the converting
 * overlaps the writing, the file is written sequentially, and memory is the
 * ring (a few MiB per thread) whatever the model's size.  Rows are
 * independent, so the bytes do not depend on the thread count. */
#include "model/plan.h"
#include "format/file.h"
#include "format/writer.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* A chunk (a unit of work a thread takes) is at most CHUNK_ELEMS input
 * elements and CHUNK_BYTES output bytes.  Every chunk costs a write() and
 * sometimes a wake-up (tens of microseconds in a VM), so chunks should not
 * be small; but the writer copies each chunk into the page cache soon after
 * it is made, which is cheap only while it is still in cache: with 2 MiB
 * Q8_0 chunks the kernel's share of a run doubled.  On the issue 5 model
 * (bench/bench_quantize_model), 2 threads, a 256 KiB cap beat 384 KiB,
 * 512 KiB and more, and 256 Ki elements (144 KiB of Q4_0) for Q4_0.  A
 * step is the part of a chunk converted to f32 and quantized while in
 * L1/L2. */
#define CHUNK_ELEMS (1024u * 1024u)
#define CHUNK_BYTES (256u * 1024u)
#define STEP_ELEMS (16u * 1024u)
#define QNT_VERSION 2u

typedef struct job {
    size_t item;
    uint64_t r0, r1;
} job;

typedef struct slot {
    uint8_t *buf;
    size_t cap, len;
    size_t id;
    bool ready;
} slot;

typedef struct pipe_s {
    const lgg_quant_plan *p;
    const lgg_allocator *a;
    pthread_mutex_t mu;
    pthread_cond_t cv_ready; /* the writer waits here for the chunk it needs */
    pthread_cond_t cv_space; /* workers wait here for a free slot */
    job *jobs;
    size_t n_jobs, next, consumed;
    size_t *first_job; /* per item: its first job, or SIZE_MAX when copied */
    uint64_t *chunk_rows;
    slot *slots;
    size_t n_slots;
    size_t lent;       /* the chunk the writer is writing from, or SIZE_MAX */
    size_t awaited;    /* the chunk the writer sleeps on, or SIZE_MAX */
    size_t n_idle;     /* workers asleep on cv_space */
    bool abort;
    lgg_status st;
    char msg[200];
    size_t scratch_count;
    float *wscratch; /* the writer's, for the chunks it converts itself */
    /* progress, on the writing thread */
    uint64_t done, total;
    lgg_quant_progress_fn progress;
    void *progress_ud;
} pipe_s;

typedef struct item_ctx {
    pipe_s *pp;
    size_t item;
} item_ctx;

static uint64_t out_row_bytes(const lgg_quant_item *it) {
    uint64_t b = 0;
    lgg_type_nbytes(it->type, (uint64_t)it->t->ne[0], &b);
    return b;
}

static void fail_locked(pipe_s *pp, lgg_status st, const char *name, uint32_t type) {
    if (!pp->abort) {
        pp->st = st;
        snprintf(pp->msg, sizeof pp->msg, "%s: converting to %s failed: %s", name, lgg_type_name(type),
                 st == LGG_ERR_INVALID ? "a quantized row holds NaN or Inf (as llama.cpp, refused)"
                 : st == LGG_ERR_NOMEM ? "out of memory"
                                       : lgg_status_name(st));
    }
    pp->abort = true;
    pthread_cond_broadcast(&pp->cv_ready);
    pthread_cond_broadcast(&pp->cv_space);
}

/* May a thread take another job?  Only while its slot is free: the ring
 * holds the chunks from `consumed` on. */
static bool can_claim(const pipe_s *pp) { return pp->next < pp->n_jobs && pp->next < pp->consumed + pp->n_slots; }

/* Convert job g into its slot; called with the lock held, returns with it
 * held, works without it.  False when it failed (the pipe is aborted). */
static bool run_job(pipe_s *pp, size_t g, float *scratch) {
    pthread_mutex_unlock(&pp->mu);
    /* the slot is ours: its previous chunk was consumed */
    slot *s = &pp->slots[g % pp->n_slots];
    const job *j = &pp->jobs[g];
    const lgg_quant_item *it = lgg_quant_plan_at(pp->p, j->item);
    const size_t len = (size_t)((j->r1 - j->r0) * out_row_bytes(it));
    lgg_status st = LGG_OK;
    if (s->cap < len) {
        uint8_t *nb = lgg__realloc(pp->a, s->buf, s->cap, len);
        if (!nb) st = LGG_ERR_NOMEM;
        else {
            s->buf = nb;
            s->cap = len;
        }
    }
    if (st == LGG_OK)
        st = lgg_quantize_rows(lgg__plan_file(pp->p, it->file), it->t, it->type, it->imatrix, j->r0, j->r1, s->buf,
                               len, scratch, pp->scratch_count);
    pthread_mutex_lock(&pp->mu);
    if (st != LGG_OK) {
        fail_locked(pp, st, lgg__plan_name(pp->p, j->item), it->type);
        return false;
    }
    s->len = len;
    s->id = g;
    s->ready = true;
    /* a wake-up is a system call (an interrupt to the other CPU in a VM):
     * only for a writer that sleeps on this very chunk */
    if (pp->awaited == g) pthread_cond_signal(&pp->cv_ready);
    return true;
}

static void *worker(void *arg) {
    pipe_s *pp = arg;
    float *scratch = lgg__calloc(pp->a, pp->scratch_count ? pp->scratch_count : 1, sizeof(float));
    pthread_mutex_lock(&pp->mu);
    if (!scratch) fail_locked(pp, LGG_ERR_NOMEM, "worker", LGG_TYPE_F32);
    while (!pp->abort) {
        if (!can_claim(pp)) {
            if (pp->next >= pp->n_jobs) break;
            pp->n_idle++;
            pthread_cond_wait(&pp->cv_space, &pp->mu);
            pp->n_idle--;
            continue;
        }
        if (!run_job(pp, pp->next++, scratch)) break;
    }
    pthread_mutex_unlock(&pp->mu);
    lgg__free(pp->a, scratch);
    return NULL;
}

static void report(pipe_s *pp, size_t item, uint64_t n) {
    pp->done += n;
    if (pp->progress) pp->progress(pp->progress_ud, item, lgg_quant_plan_count(pp->p), pp->done, pp->total);
}

/* Give the chunk lent to the writer back to the workers. */
static void give_back(pipe_s *pp, size_t item) {
    if (pp->lent == SIZE_MAX) return;
    slot *s = &pp->slots[pp->lent % pp->n_slots];
    pthread_mutex_lock(&pp->mu);
    /* read before the slot is freed: a worker refills it (len included) as
     * soon as the lock is released, and the progress lines count bytes */
    const size_t len = s->len;
    s->ready = false;
    pp->consumed = pp->lent + 1;
    if (pp->n_idle) pthread_cond_signal(&pp->cv_space);
    pthread_mutex_unlock(&pp->mu);
    pp->lent = SIZE_MAX;
    report(pp, item, len);
}

/* Wait, with the lock held, until chunk g is converted.  Rather than sleep
 * the writer converts the next job itself while the ring has room: it is
 * one of the n_threads converting threads, and a chunk it made is written
 * from its own cache without waking anyone. */
static lgg_status await_chunk(pipe_s *pp, size_t g) {
    const slot *s = &pp->slots[g % pp->n_slots];
    while (!pp->abort && !(s->ready && s->id == g)) {
        if (can_claim(pp)) {
            run_job(pp, pp->next++, pp->wscratch);
            continue;
        }
        pp->awaited = g;
        pthread_cond_wait(&pp->cv_ready, &pp->mu);
        pp->awaited = SIZE_MAX;
    }
    return pp->abort ? pp->st : LGG_OK;
}

/* The writer's source for a converted tensor: it writes straight from the
 * slots, each lent until the writer asks past it. */
static lgg_status view_converted(void *ud, uint64_t offset, const void **p, size_t *n) {
    item_ctx *c = ud;
    pipe_s *pp = c->pp;
    const lgg_quant_item *it = lgg_quant_plan_at(pp->p, c->item);
    const uint64_t chunk_bytes = pp->chunk_rows[c->item] * out_row_bytes(it);
    if (offset >= it->size) {
        give_back(pp, c->item);
        /* its input is read: unmap it now, a tensor at a time, while the
         * other threads convert, rather than all of it at close, serially
         * (0.1 s for the issue 5 model) */
        lgg__file_release(lgg__plan_file(pp->p, it->file), it->t->data, it->t->size);
        *p = NULL;
        *n = 0;
        return LGG_OK;
    }
    const uint64_t k = offset / chunk_bytes;
    const size_t g = pp->first_job[c->item] + (size_t)k;
    const uint64_t in_off = offset - k * chunk_bytes;
    if (pp->lent != g) give_back(pp, c->item);
    slot *s = &pp->slots[g % pp->n_slots];
    pthread_mutex_lock(&pp->mu);
    lgg_status st = await_chunk(pp, g);
    pthread_mutex_unlock(&pp->mu);
    if (st != LGG_OK) return st;
    if (in_off >= s->len) return LGG_ERR_RANGE;
    pp->lent = g;
    *p = s->buf + in_off;
    *n = (size_t)(s->len - in_off);
    return LGG_OK;
}

/* The writer's callback for a tensor copied as it is. */
static lgg_status read_copied(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    (void)err;
    item_ctx *c = ud;
    const lgg_quant_item *it = lgg_quant_plan_at(c->pp->p, c->item);
    if (offset > it->t->size || n > it->t->size - offset) return LGG_ERR_RANGE;
    memcpy(dst, (const uint8_t *)it->t->data + offset, n);
    if (offset + n == it->t->size || n == 0) report(c->pp, c->item, it->size);
    return LGG_OK;
}

void lgg_quant_write_options_init(lgg_quant_write_options *o) {
    if (o) *o = (lgg_quant_write_options)LGG_QUANT_WRITE_OPTIONS_INIT;
}

static size_t n_splits(const lgg_quant_plan *p) {
    if (!lgg__plan_keep_split(p)) return 1;
    size_t n = 1;
    for (size_t i = 0; i < lgg_quant_plan_count(p); i++) {
        uint32_t f = lgg_quant_plan_at(p, i)->file;
        if (f + 1u > n) n = f + 1u;
    }
    return n;
}

/* gguf_set_val: drop the key wherever it is, then append it. */
static lgg_status set_last(lgg_writer *w, const char *key, const lgg_wvalue *v, lgg_error *err) {
    lgg_writer_remove(w, key, strlen(key), NULL);
    return lgg_writer_set(w, key, strlen(key), v, err);
}

static lgg_status set_str_127(lgg_writer *w, const char *key, const char *s, size_t len, lgg_error *err) {
    /* llama-quantize stores these through a 128-byte override buffer */
    size_t n = strnlen(s, len < 127 ? len : 127);
    lgg_wvalue v = {LGG_VT_STRING, 0, n, s};
    return set_last(w, key, &v, err);
}

/* --prune-layers: ARCH.block_count (u32), last, as master sets it */
static lgg_status set_block_count(const lgg_quant_plan *p, lgg_writer *w, lgg_error *err) {
    uint32_t n;
    if (!lgg__plan_block_count(p, &n)) return LGG_OK;
    lgg_value av;
    lgg_str arch = {"", 0};
    if (lgg_get(lgg__plan_file(p, 0), "general.architecture", &av) == LGG_OK) lgg_value_string(&av, &arch);
    char key[160];
    snprintf(key, sizeof key, "%.*s.block_count", (int)(arch.len < 120 ? arch.len : 120), arch.ptr ? arch.ptr : "");
    lgg_wvalue v = {LGG_VT_U32, 0, 1, &n};
    return set_last(w, key, &v, err);
}

lgg_status lgg_quant_plan_set_metadata(const lgg_quant_plan *p, const lgg_quant_write_options *o, lgg_writer *w,
                                       lgg_error *err) {
    if (!p || !o || !w) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    LGG__OPTIONS_IN(lgg_quant_write_options, o, err)
    lgg_status st = LGG_OK;
    const lgg_file *f0 = lgg__plan_file(p, 0);
    for (uint64_t i = 0; i < lgg_kv_count(f0); i++) {
        const lgg_kv *kv = lgg_kv_at(f0, i);
        /* a repeated key keeps its first pair (the one lookups return), as
         * lgg_writer_from_file does */
        if (lgg_find_key(f0, kv->key.ptr, kv->key.len) != (int64_t)i) continue;
        if ((st = lgg_writer_set_value(w, kv->key.ptr, (size_t)kv->key.len, &kv->value, err)) != LGG_OK) return st;
    }
    uint32_t qv = QNT_VERSION, ft = lgg_quant_plan_file_type(p);
    lgg_wvalue v = {LGG_VT_U32, 0, 1, &qv};
    if ((st = set_last(w, "general.quantization_version", &v, err)) != LGG_OK) return st;
    v.data = &ft;
    if ((st = set_last(w, "general.file_type", &v, err)) != LGG_OK) return st;
    lgg_writer_remove(w, "split.no", 8, NULL);
    lgg_writer_remove(w, "split.count", 11, NULL);
    lgg_writer_remove(w, "split.tensors.count", 19, NULL);
    for (size_t i = 0; i < o->n_overrides; i++) {
        if (!o->overrides[i].key) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "override %zu has no key", i);
        if ((st = set_last(w, o->overrides[i].key, &o->overrides[i].value, err)) != LGG_OK) return st;
    }
    const lgg_imatrix *im = lgg__plan_imatrix(p);
    if (im) {
        if (o->imatrix_file &&
            (st = set_str_127(w, "quantize.imatrix.file", o->imatrix_file, strlen(o->imatrix_file), err)) != LGG_OK)
            return st;
        lgg_str ds;
        if (lgg_imatrix_dataset(im, &ds) &&
            (st = set_str_127(w, "quantize.imatrix.dataset", ds.ptr ? ds.ptr : "", (size_t)ds.len, err)) != LGG_OK)
            return st;
        /* u32, as master writes every integer override (b4747: i32) */
        uint32_t ne = (uint32_t)lgg_imatrix_count(im);
        lgg_wvalue iv = {LGG_VT_U32, 0, 1, &ne};
        if ((st = set_last(w, "quantize.imatrix.entries_count", &iv, err)) != LGG_OK) return st;
        const int64_t ch = lgg_imatrix_chunks(im);
        if (ch > 0) {
            uint32_t c32 = (uint32_t)ch;
            iv.data = &c32;
            if ((st = set_last(w, "quantize.imatrix.chunks_count", &iv, err)) != LGG_OK) return st;
        }
    }
    return set_block_count(p, w, err);
}

static lgg_status build_writer(const lgg_quant_plan *p, size_t split, size_t n_split, const lgg_quant_write_options *o,
                               item_ctx *ctx, lgg_writer **out, lgg_error *err) {
    *out = NULL;
    lgg_writer *w = NULL;
    lgg_status st = lgg_writer_create(lgg__plan_allocator(p), &w, err);
    if (st != LGG_OK) return st;
    if (split == 0 && (st = lgg_quant_plan_set_metadata(p, o, w, err)) != LGG_OK) goto fail;
    if (n_split > 1) {
        uint16_t no = (uint16_t)split, cnt = (uint16_t)n_split;
        int32_t nt = (int32_t)lgg_quant_plan_count(p);
        lgg_wvalue v = {LGG_VT_U16, 0, 1, &no};
        if ((st = set_last(w, "split.no", &v, err)) != LGG_OK) goto fail;
        v.data = &cnt;
        if ((st = set_last(w, "split.count", &v, err)) != LGG_OK) goto fail;
        lgg_wvalue tv = {LGG_VT_I32, 0, 1, &nt};
        if ((st = set_last(w, "split.tensors.count", &tv, err)) != LGG_OK) goto fail;
    }
    for (size_t i = 0; i < lgg_quant_plan_count(p); i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(p, i);
        if (n_split > 1 && it->file != split) continue;
        const lgg_file *f = lgg__plan_file(p, it->file);
        /* no contexts for a dry run (sizes only); &ctx[i] on NULL would be undefined */
        item_ctx *const c = ctx ? &ctx[i] : NULL;
        if (it->convert)
            st = lgg__writer_add_tensor_view(w, it->name.ptr, (size_t)it->name.len, it->t->n_dims, it->t->ne,
                                             it->type, view_converted, c, LGG_LITTLE_ENDIAN, err);
        else
            st = lgg_writer_add_tensor_callback(w, it->name.ptr, (size_t)it->name.len, it->t->n_dims, it->t->ne,
                                                it->type, read_copied, c, lgg_file_endian(f), err);
        if (st != LGG_OK) goto fail;
    }
    *out = w;
    return LGG_OK;
fail:
    lgg_writer_free(w);
    return st;
}

/* OUT-0000i-of-0000n.gguf from OUT minus a trailing ".gguf" (llama_split_path). */
static void split_path(char *buf, size_t cap, const char *path, size_t i, size_t n) {
    size_t l = strlen(path);
    if (l >= 5 && !strcmp(path + l - 5, ".gguf")) l -= 5;
    snprintf(buf, cap, "%.*s-%05zu-of-%05zu.gguf", (int)l, path, i + 1, n);
}

lgg_status lgg_quant_plan_output_size(const lgg_quant_plan *p, const lgg_quant_write_options *o, uint64_t *size,
                                      lgg_error *err) {
    if (!p || !size) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    LGG__OPTIONS_IN(lgg_quant_write_options, o, err)
    lgg_quant_write_options def;
    if (!o) {
        lgg_quant_write_options_init(&def);
        o = &def;
    }
    const size_t ns = n_splits(p);
    uint64_t total = 0;
    for (size_t s = 0; s < ns; s++) {
        lgg_writer *w;
        lgg_status st = build_writer(p, s, ns, o, NULL, &w, err);
        if (st != LGG_OK) return st;
        uint64_t hs = 0;
        st = lgg_writer_header_size(w, NULL, &hs, err);
        lgg_writer_free(w);
        if (st != LGG_OK) return st;
        const uint64_t al = s == 0 ? lgg_file_alignment(lgg__plan_file(p, 0)) : 32;
        total += (hs + al - 1) / al * al;
        for (size_t i = 0; i < lgg_quant_plan_count(p); i++) {
            const lgg_quant_item *it = lgg_quant_plan_at(p, i);
            if (ns > 1 && it->file != s) continue;
            total += (it->size + al - 1) / al * al;
        }
    }
    *size = total;
    return LGG_OK;
}

/* An output that is one of the inputs would be read while replaced. */
static lgg_status check_outputs(const lgg_quant_plan *p, char (*paths)[4096], size_t ns, const int *input_fds,
                                lgg_error *err) {
    for (size_t s = 0; input_fds && s < ns; s++) {
        struct stat so;
        if (stat(paths[s], &so) != 0) continue;
        for (size_t i = 0; i < lgg__plan_n_files(p); i++)
            if (lgg__fd_is(input_fds[i], &so))
                return lgg__fail(err, LGG_ERR_EXISTS, LGG_NO_OFFSET, "%s is one of the input files", paths[s]);
    }
    return LGG_OK;
}

/* The conversion jobs: each converted tensor cut into chunks of rows, in
 * item order, so they come out in the order the writer asks for them. */
static lgg_status plan_jobs(pipe_s *pp, const lgg_quant_plan *p, item_ctx *ctx, size_t n_items, lgg_error *err) {
    for (size_t i = 0; i < n_items; i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(p, i);
        ctx[i] = (item_ctx){pp, i};
        pp->total += it->size;
        pp->first_job[i] = SIZE_MAX;
        if (!it->convert || it->t->n_elements == 0) continue;
        const uint64_t ne0 = (uint64_t)it->t->ne[0], rows = it->t->n_elements / ne0;
        uint64_t cr = CHUNK_ELEMS / ne0;
        const uint64_t rb = out_row_bytes(it);
        if (rb > 0 && cr > CHUNK_BYTES / rb) cr = CHUNK_BYTES / rb;
        if (cr == 0) cr = 1;
        pp->chunk_rows[i] = cr;
        const uint64_t step = ne0 > STEP_ELEMS ? ne0 : STEP_ELEMS / ne0 * ne0;
        if ((size_t)step > pp->scratch_count) pp->scratch_count = (size_t)step;
        pp->first_job[i] = pp->n_jobs;
        pp->n_jobs += (size_t)((rows + cr - 1) / cr);
    }
    pp->jobs = lgg__calloc(pp->a, pp->n_jobs ? pp->n_jobs : 1, sizeof *pp->jobs);
    if (!pp->jobs) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    for (size_t i = 0, g = 0; i < n_items; i++) {
        if (pp->first_job[i] == SIZE_MAX) continue;
        const lgg_quant_item *it = lgg_quant_plan_at(p, i);
        const uint64_t rows = it->t->n_elements / (uint64_t)it->t->ne[0];
        for (uint64_t r = 0; r < rows; r += pp->chunk_rows[i])
            pp->jobs[g++] = (job){i, r, r + pp->chunk_rows[i] < rows ? r + pp->chunk_rows[i] : rows};
    }
    return LGG_OK;
}

/* Each output file in turn, its tensor data coming from the pipeline; the
 * workers' own failure, when there is one, is the one to report. */
static lgg_status write_outputs(pipe_s *pp, const lgg_quant_plan *p, char (*paths)[4096], size_t ns,
                                const lgg_quant_write_options *o, item_ctx *ctx, lgg_error *err) {
    lgg_status st = LGG_OK;
    for (size_t s = 0; s < ns && st == LGG_OK; s++) {
        lgg_writer *w;
        st = build_writer(p, s, ns, o, ctx, &w, err);
        if (st != LGG_OK) break;
        lgg_write_options wopt;
        lgg_write_options_init(&wopt);
        wopt.flags = o->write_flags;
        wopt.temp_fn = o->temp_fn;
        wopt.temp_ud = o->temp_ud;
        st = lgg_writer_write_file(w, paths[s], &wopt, err);
        lgg_writer_free(w);
        if (st != LGG_OK) {
            pthread_mutex_lock(&pp->mu);
            if (pp->abort && pp->st != LGG_OK) st = lgg__fail(err, pp->st, LGG_NO_OFFSET, "%s", pp->msg);
            pthread_mutex_unlock(&pp->mu);
        }
    }
    return st;
}

/* The worker threads around the writing: nt - 1 of them, since the writing
 * thread converts too (await_chunk); if some cannot start, fewer threads
 * share the same jobs. */
static lgg_status run_pipeline(pipe_s *pp, const lgg_quant_plan *p, char (*paths)[4096], size_t ns,
                               const lgg_quant_write_options *o, item_ctx *ctx, lgg_error *err) {
    const unsigned nt = lgg__threads(o->n_threads);
    pp->n_slots = 2 * (size_t)nt + 2;
    pp->slots = lgg__calloc(pp->a, pp->n_slots, sizeof *pp->slots);
    pp->wscratch = lgg__calloc(pp->a, pp->scratch_count ? pp->scratch_count : 1, sizeof(float));
    if (!pp->slots || !pp->wscratch) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    pthread_mutex_init(&pp->mu, NULL);
    pthread_cond_init(&pp->cv_ready, NULL);
    pthread_cond_init(&pp->cv_space, NULL);
    pthread_t tid[LGG__MAX_THREADS];
    unsigned started = 0;
    if (pp->n_jobs > 0)
        for (; started + 1 < nt; started++)
            if (pthread_create(&tid[started], NULL, worker, pp) != 0) break;
    lgg_status st = write_outputs(pp, p, paths, ns, o, ctx, err);
    pthread_mutex_lock(&pp->mu);
    pp->abort = true;
    pthread_cond_broadcast(&pp->cv_space);
    pthread_mutex_unlock(&pp->mu);
    for (unsigned i = 0; i < started; i++) pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&pp->mu);
    pthread_cond_destroy(&pp->cv_ready);
    pthread_cond_destroy(&pp->cv_space);
    return st;
}

lgg_status lgg_quant_plan_write(const lgg_quant_plan *p, const char *path, const lgg_quant_write_options *o,
                                lgg_error *err) {
    if (!p || !path) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    LGG__OPTIONS_IN(lgg_quant_write_options, o, err)
    for (size_t i = 0; i < lgg__plan_n_files(p); i++)
        if (lgg__plan_file(p, i)->described)
            return lgg__fail(err, LGG_ERR_NO_DATA, LGG_NO_OFFSET,
                             "the plan was made from a description (lgg_writer_describe): it has no data to write");
    lgg_quant_write_options def;
    if (!o) {
        lgg_quant_write_options_init(&def);
        o = &def;
    }
    const lgg_allocator *a = lgg__plan_allocator(p);
    const size_t n_items = lgg_quant_plan_count(p), ns = n_splits(p);
    char (*paths)[4096] = lgg__calloc(a, ns, sizeof *paths);
    if (!paths) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    for (size_t s = 0; s < ns; s++) {
        if (lgg__plan_keep_split(p)) split_path(paths[s], sizeof paths[s], path, s, ns);
        else snprintf(paths[s], sizeof paths[s], "%s", path);
    }
    pipe_s pp;
    memset(&pp, 0, sizeof pp);
    pp.p = p;
    pp.a = a;
    pp.progress = o->progress;
    pp.progress_ud = o->progress_ud;
    pp.lent = SIZE_MAX;
    pp.awaited = SIZE_MAX;
    item_ctx *ctx = lgg__calloc(a, n_items ? n_items : 1, sizeof *ctx);
    pp.first_job = lgg__calloc(a, n_items ? n_items : 1, sizeof *pp.first_job);
    pp.chunk_rows = lgg__calloc(a, n_items ? n_items : 1, sizeof *pp.chunk_rows);
    lgg_status st = check_outputs(p, paths, ns, o->input_fds, err);
    if (!st && (!ctx || !pp.first_job || !pp.chunk_rows)) st = lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    if (!st) st = plan_jobs(&pp, p, ctx, n_items, err);
    if (!st) st = run_pipeline(&pp, p, paths, ns, o, ctx, err);
    if (pp.slots)
        for (size_t i = 0; i < pp.n_slots; i++) lgg__free(a, pp.slots[i].buf);
    lgg__free(a, pp.slots);
    lgg__free(a, pp.wscratch);
    lgg__free(a, pp.jobs);
    lgg__free(a, pp.first_job);
    lgg__free(a, pp.chunk_rows);
    lgg__free(a, ctx);
    lgg__free(a, paths);
    return st;
}
