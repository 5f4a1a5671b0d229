/* test_alloc_fail.c -- allocation-failure injection.
 *
 * An lgg_allocator that fails the Nth allocation (and every later one, or
 * only that one) and keeps the set of live blocks.  For N = 1, 2, ... until
 * the operation succeeds, each operation is run on real corpus files (a
 * model with tensors, a vocabulary) and must, every time:
 *   - report LGG_ERR_NOMEM (status and err.code), with its out pointer NULL,
 *     whenever an allocation failed (no silent degradation: a result that
 *     quietly lacks something is a bug);
 *   - free every block it allocated once the object is closed/freed, and
 *     never free a block twice or one it did not allocate;
 *   - not crash (the suite runs under ASan in make check-asan).
 * Operations: lgg_open_memory, lgg_open_fd on a pipe (the stream path that
 * grows its buffer), lgg_validate, lgg_report_from_error, and the writer:
 * lgg_writer_from_file + edits + lgg_writer_write_fd, split and merge, and
 * lgg_quantize_tensor (its work buffer). */
#include "gen.h"
#include "libgguf.h"
#include "standin.h"
#include "vocab_standin.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct failer {
    long fail_at;   /* 1-based index of the allocation to fail; 0: never */
    bool sticky;    /* fail every allocation from fail_at on */
    long count;     /* allocation attempts (alloc and realloc) */
    long failed;    /* attempts refused */
    void **live;    /* blocks handed out and not yet freed */
    size_t n_live, cap_live;
    long bad_frees; /* frees of a block not live (double or foreign) */
} failer;

static bool refuse(failer *f) {
    f->count++;
    if (f->fail_at && (f->count == f->fail_at || (f->sticky && f->count > f->fail_at))) {
        f->failed++;
        return true;
    }
    return false;
}

static void track(failer *f, void *p) {
    if (f->n_live == f->cap_live) {
        f->cap_live = f->cap_live ? f->cap_live * 2 : 64;
        f->live = realloc(f->live, f->cap_live * sizeof *f->live);
        if (!f->live) abort();
    }
    f->live[f->n_live++] = p;
}

static bool untrack(failer *f, void *p) {
    for (size_t i = f->n_live; i-- > 0;)
        if (f->live[i] == p) {
            f->live[i] = f->live[--f->n_live];
            return true;
        }
    return false;
}

static void *fa_alloc(void *ud, size_t size) {
    failer *f = ud;
    if (refuse(f)) return NULL;
    void *p = malloc(size);
    if (p) track(f, p);
    return p;
}

static void fa_free(void *ud, void *p) {
    failer *f = ud;
    if (!p) return;
    if (!untrack(f, p)) {
        f->bad_frees++;
        return; /* never hand libc a pointer it did not give out */
    }
    free(p);
}

static void *fa_realloc(void *ud, void *p, size_t old_size, size_t new_size) {
    failer *f = ud;
    (void)old_size;
    if (refuse(f)) return NULL;
    if (p && !untrack(f, p)) {
        f->bad_frees++;
        return NULL;
    }
    void *q = realloc(p, new_size);
    if (!q) {
        if (p) track(f, p);
        return NULL;
    }
    track(f, q);
    return q;
}

static void failer_reset(failer *f, long fail_at, bool sticky) {
    free(f->live);
    memset(f, 0, sizeof *f);
    f->fail_at = fail_at;
    f->sticky = sticky;
}

static lgg_allocator allocator_of(failer *f, bool with_realloc) {
    lgg_allocator a = {fa_alloc, with_realloc ? fa_realloc : NULL, fa_free, f};
    return a;
}

/* ---- the operations: each returns its status; everything it made is
 * closed/freed before it returns ---- */

typedef struct ctx {
    const unsigned char *data;
    size_t size;
    const char *path;
    const lgg_file *file; /* opened with malloc, for validate and the writer */
    const char *scratch;
} ctx;

typedef lgg_status (*op_fn)(const ctx *c, const lgg_allocator *a, lgg_error *e);

static lgg_status op_open_memory(const ctx *c, const lgg_allocator *a, lgg_error *e) {
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.allocator = a;
    lgg_file *f = (lgg_file *)(uintptr_t)1;
    lgg_status s = lgg_open_memory(c->data, c->size, &o, &f, e);
    if (s) {
        CHECK(f == NULL);
        return s;
    }
    /* something to read, so a half-built index would show */
    CHECK(lgg_kv_count(f) > 0);
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        CHECK(lgg_find_key(f, kv->key.ptr, (size_t)kv->key.len) >= 0);
    }
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        CHECK(lgg_find_tensor(f, t->name.ptr, (size_t)t->name.len) == (int64_t)i);
    }
    lgg_close(f);
    return s;
}

/* The stream path: the file arrives through a pipe fed by a child process. */
static lgg_status op_open_pipe(const ctx *c, const lgg_allocator *a, lgg_error *e) {
    int p[2];
    if (pipe(p) != 0) return LGG_ERR_IO;
    pid_t pid = fork();
    if (pid < 0) return LGG_ERR_IO;
    if (pid == 0) {
        close(p[0]);
        signal(SIGPIPE, SIG_DFL);
        size_t off = 0;
        while (off < c->size) {
            ssize_t w = write(p[1], c->data + off, c->size - off);
            if (w <= 0) _exit(0); /* the reader stopped early (a refused allocation) */
            off += (size_t)w;
        }
        _exit(0);
    }
    close(p[1]);
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.allocator = a;
    lgg_file *f = (lgg_file *)(uintptr_t)1;
    lgg_status s = lgg_open_fd(p[0], &o, &f, e);
    close(p[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0) {
    }
    if (s) {
        CHECK(f == NULL);
        return s;
    }
    CHECK(lgg_file_size(f) == c->size);
    lgg_close(f);
    return s;
}

static lgg_status op_validate(const ctx *c, const lgg_allocator *a, lgg_error *e) {
    lgg_validate_options vo = {.flags = LGG_VALIDATE_STRICT, .file_name = "Llama-2-7B-v1.0-Q4_0.gguf", .allocator = a};
    lgg_report *r = (lgg_report *)(uintptr_t)1;
    lgg_status s = lgg_validate(c->file, &vo, &r);
    if (e) e->code = s;
    if (s) {
        CHECK(r == NULL);
        return s;
    }
    CHECK(r != NULL);
    lgg_report_free(r);
    return s;
}

static lgg_status op_report_from_error(const ctx *c, const lgg_allocator *a, lgg_error *e) {
    (void)c;
    lgg_error in = {LGG_ERR_TRUNCATED, 24, "key length 9 at offset 24 exceeds the 1 bytes left in the file"};
    lgg_report *r = lgg_report_from_error(&in, a);
    lgg_status s = r ? LGG_OK : LGG_ERR_NOMEM;
    if (e) e->code = s;
    lgg_report_free(r);
    return s;
}

static lgg_status op_writer(const ctx *c, const lgg_allocator *a, lgg_error *e) {
    lgg_writer *w = (lgg_writer *)(uintptr_t)1;
    lgg_status s = lgg_writer_from_file(c->file, -1, a, 0, &w, e);
    if (s) {
        CHECK(w == NULL);
        return s;
    }
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    static const lgg_str strs[] = {{"a", 1}, {"bc", 2}, {"", 0}};
    const lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_STRING, 3, strs};
    const lgg_wvalue nested = {LGG_VT_ARRAY, LGG_VT_ARRAY, 1, &arr};
    float f4[4] = {1, 2, 3, 4};
    const int64_t ne[1] = {4};
    if (!s) s = lgg_writer_set_str(w, "general.name", "alloc-fail test", e);
    if (!s) s = lgg_writer_set_u32(w, "test.count", 7, e);
    if (!s) s = lgg_writer_set(w, "test.nested", 11, &nested, e);
    for (size_t i = 0; i < 5 && !s; i++) s = lgg_writer_set_u64(w, names[i], i, e); /* grows the pair array */
    if (!s) s = lgg_writer_rename(w, "a", 1, "test.renamed", 12, e);
    if (!s) s = lgg_writer_remove(w, "b", 1, e);
    if (!s) s = lgg_writer_add_tensor_buffer(w, "alloc_fail.extra", 16, 1, ne, LGG_TYPE_F32, f4, sizeof f4,
                                             LGG_LITTLE_ENDIAN, e);
    if (!s) {
        char path[1024];
        snprintf(path, sizeof path, "%s/alloc-fail.gguf", c->scratch);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            test_fail(__FILE__, __LINE__, "cannot create %s", path);
            lgg_writer_free(w);
            return LGG_ERR_IO;
        }
        for (int endian = 0; endian < 2 && !s; endian++) { /* big-endian goes through the copy buffer */
            lgg_write_options wo;
            lgg_write_options_init(&wo);
            wo.allocator = a;
            wo.endian = endian ? LGG_BIG_ENDIAN : LGG_LITTLE_ENDIAN;
            uint64_t n = 0;
            s = lgg_writer_write_fd(w, fd, &wo, &n, e);
            if (!s) CHECK(n > c->size / 2);
        }
        close(fd);
    }
    lgg_writer_free(w);
    return s;
}

/* Split into shards of two tensors, open the shards, merge them: every
 * allocation (plan, shard writers, their copy buffers, the opens, the merge
 * writer) through the hook. */
static lgg_status op_split_merge(const ctx *c, const lgg_allocator *a, lgg_error *e) {
    lgg_split_options so;
    lgg_split_options_init(&so);
    so.max_tensors = 2;
    so.allocator = a;
    lgg_split_plan *p = NULL;
    lgg_status s = lgg_split_plan_make(c->file, &so, &p, e);
    if (s) return s;
    uint32_t n = lgg_split_plan_count(p);
    lgg_file *shards[64] = {0};
    char path[1024];
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.allocator = a;
    wo.endian = lgg_file_endian(c->file);
    lgg_open_options oo;
    lgg_open_options_init(&oo);
    oo.allocator = a;
    CHECK(n <= 64);
    for (uint32_t i = 0; i < n && i < 64 && !s; i++) {
        lgg_writer *w = NULL;
        snprintf(path, sizeof path, "%s/alloc-fail-shard-%u.gguf", c->scratch, i);
        s = lgg_split_shard_writer(c->file, -1, p, i, &w, e);
        if (!s) s = lgg_writer_write_file(w, path, &wo, e);
        lgg_writer_free(w);
        if (!s) s = lgg_open_file(path, &oo, &shards[i], e);
    }
    lgg_writer *m = NULL;
    if (!s) s = lgg_merge_writer((const lgg_file *const *)shards, NULL, n, a, &m, e);
    if (!s) {
        snprintf(path, sizeof path, "%s/alloc-fail-merged.gguf", c->scratch);
        s = lgg_writer_write_file(m, path, &wo, e);
    }
    lgg_writer_free(m);
    for (uint32_t i = 0; i < n && i < 64; i++) lgg_close(shards[i]);
    lgg_split_plan_free(p);
    return s;
}

/* Open through the hook and quantize the first F32/F16 tensor whose rows
 * fit Q8_0 with two threads: the work buffer comes from the file's
 * allocator too. */
static lgg_status op_quantize_tensor(const ctx *c, const lgg_allocator *a, lgg_error *e) {
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.allocator = a;
    lgg_file *f = NULL;
    lgg_status s = lgg_open_memory(c->data, c->size, &o, &f, e);
    if (s) return s;
    for (uint64_t i = 0; i < lgg_tensor_count(f) && !s; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        if ((t->type != LGG_TYPE_F32 && t->type != LGG_TYPE_F16) || t->ne[0] % 32) continue;
        uint64_t bytes = 0;
        CHECK(lgg_type_nbytes(LGG_TYPE_Q8_0, (uint64_t)t->n_elements, &bytes) == LGG_OK);
        void *dst = malloc(bytes ? (size_t)bytes : 1);
        CHECK(dst != NULL);
        const long before = ((const failer *)a->ud)->count;
        if (dst) s = lgg_quantize_tensor(f, t, LGG_TYPE_Q8_0, NULL, dst, (size_t)bytes, 2);
        /* its work buffer is real memory: it must come through the hook */
        CHECKF(s != LGG_OK || ((const failer *)a->ud)->count > before, "%s: lgg_quantize_tensor allocated nothing "
               "through the file's allocator", c->path);
        free(dst);
        /* the generated file's bytes need not be finite floats: refusing
         * them is an answer too; only the allocations are on trial */
        if (s == LGG_ERR_INVALID) s = LGG_OK;
        if (s) e->code = s; /* no lgg_error in its signature: the status is the report */
        break;
    }
    lgg_close(f);
    return s;
}

/* ---- the loop ---- */

/* Run `op` with allocation N failing for N = 1, 2, ... until it succeeds
 * without a refused allocation.  Returns the number of allocations it made. */
static long inject(const char *what, op_fn op, const ctx *c, bool sticky, bool with_realloc) {
    failer f = {0};
    lgg_allocator a;
    long n = 1;
    const int failures_before = test_failures();
    for (;; n++) {
        failer_reset(&f, n, sticky);
        a = allocator_of(&f, with_realloc);
        lgg_error e;
        memset(&e, 0, sizeof e);
        lgg_status s = op(c, &a, &e);
        CHECKF(f.n_live == 0, "%s, allocation %ld failing: %zu blocks leaked", what, n, f.n_live);
        CHECKF(f.bad_frees == 0, "%s, allocation %ld failing: %ld frees of blocks not allocated", what, n,
               f.bad_frees);
        if (f.failed == 0) {
            CHECKF(s == LGG_OK, "%s: fails without a refused allocation: %s (%s)", what, lgg_status_name(s),
                   e.message);
            break;
        }
        CHECKF(s == LGG_ERR_NOMEM, "%s, allocation %ld failing: %s instead of out-of-memory (%s)", what, n,
               lgg_status_name(s), e.message);
        CHECKF(e.code == s, "%s, allocation %ld failing: err.code %s, status %s", what, n,
               lgg_status_name(e.code), lgg_status_name(s));
        if (test_failures() > failures_before || n > 100000) break;
    }
    failer_reset(&f, 0, false);
    free(f.live);
    return n - 1;
}

static void run_on(const char *rel, const unsigned char *data, size_t size) {
    lgg_file *file = NULL;
    lgg_error e;
    REQUIRE(lgg_open_memory(data, size, NULL, &file, &e) == LGG_OK);
    ctx c = {data, size, rel, file, scratch_dir()};
    static const struct {
        const char *name;
        op_fn fn;
    } OPS[] = {
        {"open_memory", op_open_memory}, {"open_pipe", op_open_pipe}, {"validate", op_validate},
        {"report_from_error", op_report_from_error}, {"writer", op_writer}, {"split_merge", op_split_merge}, {"quantize_tensor", op_quantize_tensor},
    };
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++) {
        for (int mode = 0; mode < 3; mode++) {
            /* mode 0: only the Nth fails, realloc hook given; 1: Nth and all later
             * (the usual out-of-memory), realloc hook; 2: only the Nth, no
             * realloc hook (the library's alloc+copy+free path) */
            char what[256];
            snprintf(what, sizeof what, "%s: %s (%s)", rel, OPS[i].name,
                     mode == 0 ? "one failure" : mode == 1 ? "failures from then on" : "no realloc hook");
            long n = inject(what, OPS[i].fn, &c, mode == 1, mode != 2);
            CHECKF(n > 0, "%s made no allocation", what);
            if (getenv("TEST_VERBOSE") && mode == 0) fprintf(stderr, "    %s: %ld allocations\n", what, n);
        }
    }
    lgg_close(file);
}

static void run_all(const char *rel) {
    size_t size = 0;
    unsigned char *data = read_file(model_path(rel), &size);
    REQUIRE(data != NULL);
    run_on(rel, data, size);
    free(data);
}

TEST(alloc_fail_model_with_tensors) {
    if (!need_models()) return; /* or its stand-in: the header, seeded data */
    run_all("corpus/ollama/llama-2-tiny-random@55b2b40c.gguf");
}
/* bert-bge's vocabulary, or without ../shared its reduced stand-in (every
 * id, the entries the tests reach: a vocabulary-only file of the same keys) */
TEST(alloc_fail_vocab) {
    if (shared_present()) {
        run_all("corpus/llama.cpp/ggml-vocab-bert-bge@b2cbd5df.gguf");
        return;
    }
    const char *path = vocab_standin("ggml-vocab-bert-bge", "fbcbe22278fb");
    REQUIRE(path != NULL);
    size_t size = 0;
    unsigned char *data = read_file(path, &size);
    REQUIRE(data != NULL);
    run_on("ggml-vocab-bert-bge (reduced)", data, size);
    free(data);
}
TEST(alloc_fail_big_endian_model) {
    if (!need_models()) return;
    run_all("golden/llama-quantize/pub-dense-Q8_0.BE.gguf");
}

/* A file with many findings (the report grows several times) and tensors. */
TEST(alloc_fail_many_findings) {
    buf b = {0};
    gen_header(&b, 3, 3, 41);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "llama");
    for (int i = 0; i < 40; i++) {
        char k[32];
        snprintf(k, sizeof k, "Bad.Key.%d", i);
        gen_key(&b, 3, k, LGG_VT_BOOL);
        buf_u8(&b, 2); /* a bad key and a bad bool: two findings each */
    }
    uint64_t ne[2] = {32, 2};
    gen_tensor(&b, 3, "a", 2, ne, LGG_TYPE_Q4_0, 128);
    gen_tensor(&b, 3, "b", 1, ne, LGG_TYPE_F32, 0);
    gen_tensor(&b, 3, "c", 1, ne, LGG_TYPE_F16, 192);
    buf_pad(&b, 32);
    for (int i = 0; i < 256; i++) buf_u8(&b, (uint8_t)i);
    run_on("many findings", b.p, b.n);
    buf_free(&b);
}
