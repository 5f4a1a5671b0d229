/* test_hostile.c -- the hostile-input suite.
 *
 * tests/hostile.c builds one crafted file per attack class reported against
 * GGUF readers (ggml/gguf.cpp advisories, gguf-py, antirez's gguf-tools,
 * gguf-parser-go, huggingface.js, and loaders built on them; each case cites
 * the issue).  Here every case must give its exact status, the same way from
 * memory and from a file, at once, with a consistent error; the files that
 * open must then validate and walk cleanly.  Cases whose danger lies in what
 * a consumer does next (an empty key, a narrow element type, a string where a
 * number belongs, a zero dimension) get a test of what the accessors and the
 * validator say about them.  Last, a child process under a 256 MiB address
 * space limit opens files that claim 2^62 entries: refused at once, with the
 * right code, without trying to allocate for them. */
#include "hostile.h"
#include "test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *write_scratch(const char *name, const buf *b) {
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s.gguf", scratch_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    if (b->n) fwrite(b->p, 1, b->n, f);
    fclose(f);
    return path;
}

static int count_check(const lgg_report *r, lgg_check c) {
    int n = 0;
    for (size_t i = 0; i < lgg_report_count(r); i++) n += lgg_report_at(r, i)->check == c;
    return n;
}

/* Walk every value of an open file (nested arrays included). */
static void walk(const lgg_file *f) {
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        lgg_iter st[80];
        int sp = 0;
        const lgg_value *v = &lgg_kv_at(f, i)->value;
        if (v->type != LGG_VT_ARRAY) continue;
        lgg_array_iter(v, &st[sp++]);
        lgg_value e;
        while (sp) {
            if (!lgg_iter_next(&st[sp - 1], &e)) {
                sp--;
                continue;
            }
            if (e.type == LGG_VT_ARRAY && sp < 80) lgg_array_iter(&e, &st[sp++]);
        }
    }
}

TEST(hostile_every_case_gives_its_exact_status) {
    CHECK(hostile_count() >= 60);
    for (size_t i = 0; i < hostile_count(); i++) {
        const hostile_case *h = hostile_get(i);
        buf b = {0};
        h->build(&b);
        /* from memory, from an exactly-sized heap copy (ASan sees any over-read) */
        unsigned char *copy = malloc(b.n ? b.n : 1);
        REQUIRE(copy != NULL);
        memcpy(copy, b.p, b.n);
        lgg_file *f = (lgg_file *)(uintptr_t)1;
        lgg_error e;
        memset(&e, 0, sizeof e);
        double t0 = now();
        lgg_status s = lgg_open_memory(copy, b.n, NULL, &f, &e);
        double dt = now() - t0;
        CHECKF(s == h->expect, "%s (%s): expected %s, got %s: %s", h->name, h->source, lgg_status_name(h->expect),
               lgg_status_name(s), s ? e.message : "");
        CHECKF(dt < (h->huge ? 2.0 : 0.25), "%s: took %.3f s", h->name, dt);
        if (s != LGG_OK) {
            CHECKF(f == NULL, "%s: out not NULL on failure", h->name);
            CHECKF(e.code == s, "%s: err.code %s", h->name, lgg_status_name(e.code));
            CHECKF(e.message[0] && memchr(e.message, 0, sizeof e.message), "%s: no message", h->name);
            CHECKF(e.offset == LGG_NO_OFFSET || e.offset <= b.n, "%s: error offset %llu past the %zu-byte file",
                   h->name, (unsigned long long)e.offset, b.n);
        } else {
            REQUIRE(f != NULL);
            walk(f);
            lgg_report *r = NULL;
            CHECKF(lgg_validate(f, NULL, &r) == LGG_OK && r, "%s: validate", h->name);
            lgg_report_free(r);
            lgg_close(f);
        }
        /* the same through a file (mmap) */
        const char *path = write_scratch(h->name, &b);
        REQUIRE(path != NULL);
        f = NULL;
        lgg_status s2 = lgg_open_file(path, NULL, &f, &e);
        CHECKF(s2 == s, "%s: %s from a file, %s from memory", h->name, lgg_status_name(s2), lgg_status_name(s));
        lgg_close(f);
        unlink(path);
        /* a partial download opens at least as far */
        lgg_open_options o;
        lgg_open_options_init(&o);
        o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
        f = NULL;
        lgg_status s3 = lgg_open_memory(copy, b.n, &o, &f, &e);
        if (s == LGG_OK) CHECKF(s3 == LGG_OK, "%s: %s with ALLOW_MISSING_DATA", h->name, lgg_status_name(s3));
        lgg_close(f);
        free(copy);
        buf_free(&b);
    }
}

static lgg_file *open_case(const char *name, buf *b) {
    const hostile_case *h = hostile_find(name);
    if (!h) {
        test_fail(__FILE__, __LINE__, "no hostile case %s", name);
        return NULL;
    }
    h->build(b);
    lgg_file *f = NULL;
    lgg_error e;
    if (lgg_open_memory(b->p, b->n, NULL, &f, &e) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s", name, e.message);
        return NULL;
    }
    return f;
}

static lgg_report *validate(const lgg_file *f) {
    lgg_report *r = NULL;
    if (lgg_validate(f, NULL, &r) != LGG_OK) return NULL;
    return r;
}

/* ggml divided by a zero dimension (whisper.cpp#3864, llama.cpp#26946,
 * ggml#1517), gguf-parser-go computed dim-1 (gguf-parser-go#46) and
 * llama-gguf dereferenced the NULL data of an empty tensor (llama.cpp#19005). */
TEST(hostile_zero_dimensions_are_empty_tensors) {
    static const char *const names[] = {"zero-dim", "zero-dim-first", "zero-dims-all", "zero-dim-huge-ne0"};
    for (int k = 0; k < 4; k++) {
        buf b = {0};
        lgg_file *f = open_case(names[k], &b);
        REQUIRE(f != NULL);
        const lgg_tensor *t = lgg_tensor_at(f, 0);
        CHECK(t->n_elements == 0 && t->size == 0);
        float dst[4];
        CHECK(lgg_dequantize_rows(f, t, 0, 0, dst, 4) == LGG_OK);
        CHECK(lgg_dequantize_rows(f, t, 0, 1, dst, 4) == LGG_ERR_RANGE);
        CHECK(lgg_dequantize_tensor(f, t, dst, 4, 0) == LGG_OK);
        CHECK(lgg_parameter_count(f) == 0);
        lgg_report *r = validate(f);
        CHECK(r != NULL);
        lgg_report_free(r);
        lgg_close(f);
        buf_free(&b);
    }
}

/* llama.cpp#26690: scores stored as u8 were read as floats out of bounds. */
TEST(hostile_narrow_element_type_is_refused_by_the_accessors) {
    buf b = {0};
    lgg_file *f = open_case("scores-as-u8", &b);
    REQUIRE(f != NULL);
    lgg_value v, e;
    REQUIRE(lgg_get(f, "tokenizer.ggml.scores", &v) == LGG_OK);
    CHECK(v.type == LGG_VT_ARRAY && v.elem_type == LGG_VT_U8 && v.count == 3 && v.size == 3);
    REQUIRE(lgg_array_get(&v, 2, &e) == LGG_OK);
    float x;
    CHECK(lgg_value_f32(&e, &x) == LGG_ERR_TYPE);
    uint8_t u;
    CHECK(lgg_value_u8(&e, &u) == LGG_OK && u == 3);
    CHECK(lgg_array_get(&v, 3, &e) == LGG_ERR_RANGE);
    lgg_report *r = validate(f);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_KEY_TYPE) == 1);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}

/* llama.cpp#24446/#24884: an empty key aborted ggml's loader.  Here it opens
 * (it is well-formed) and validation calls it an error. */
TEST(hostile_empty_key_is_a_finding_not_a_crash) {
    buf b = {0};
    lgg_file *f = open_case("key-empty", &b);
    REQUIRE(f != NULL);
    CHECK(lgg_kv_at(f, 0)->key.len == 0);
    CHECK(lgg_find_key(f, "", 0) == 0);
    CHECK(lgg_find_key(f, NULL, 0) == 0);
    lgg_report *r = validate(f);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_KEY_SYNTAX) == 1);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}

/* gguf-parser-go#46 and gpustack#1686: a string or an array where a number
 * was expected made the parsers panic. */
TEST(hostile_wrong_value_types_are_type_errors) {
    buf b = {0};
    lgg_file *f = open_case("file-type-string", &b);
    REQUIRE(f != NULL);
    lgg_value v;
    uint64_t u;
    int64_t i;
    double d;
    REQUIRE(lgg_get(f, "general.file_type", &v) == LGG_OK);
    CHECK(lgg_value_uint(&v, &u) == LGG_ERR_TYPE && lgg_value_int(&v, &i) == LGG_ERR_TYPE &&
          lgg_value_float(&v, &d) == LGG_ERR_TYPE);
    REQUIRE(lgg_get(f, "llama.block_count", &v) == LGG_OK);
    CHECK(lgg_value_uint(&v, &u) == LGG_ERR_TYPE);
    lgg_report *r = validate(f);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_KEY_TYPE) == 2);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}

/* ggml#709: an unchecked type id indexed ggml's type table.  Here the tensor
 * opens for metadata work, has no data, and refuses to dequantize. */
TEST(hostile_unknown_tensor_types_hold_no_data) {
    static const char *const names[] = {"type-2^32-1", "type-removed"};
    for (int k = 0; k < 2; k++) {
        buf b = {0};
        lgg_file *f = open_case(names[k], &b);
        REQUIRE(f != NULL);
        const lgg_tensor *t = lgg_tensor_at(f, 0);
        CHECK(!t->type_known && t->data == NULL && t->size == 0);
        float dst[64];
        CHECK(lgg_dequantize_rows(f, t, 0, 1, dst, 64) == LGG_ERR_UNSUPPORTED);
        CHECK(lgg_dequantize(t->type, dst, sizeof dst, LGG_LITTLE_ENDIAN, dst, 8) == LGG_ERR_UNSUPPORTED);
        uint64_t n;
        CHECK(lgg_type_nbytes(t->type, 8, &n) == LGG_ERR_ARG);
        lgg_report *r = validate(f);
        REQUIRE(r != NULL);
        CHECK(count_check(r, LGG_CHECK_TENSOR_TYPE) == 1);
        lgg_report_free(r);
        lgg_close(f);
        buf_free(&b);
    }
}

/* llama.cpp#26318: general.alignment as INT32 hit an assertion.  An integer
 * of another width is honoured; a string is ignored; both are findings. */
TEST(hostile_alignment_of_other_types) {
    buf b = {0};
    lgg_file *f = open_case("align-i32-64", &b);
    REQUIRE(f != NULL);
    CHECK(lgg_file_alignment(f) == 64 && lgg_file_data_offset(f) % 64 == 0);
    lgg_report *r = validate(f);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_ALIGNMENT_KEY) == 1);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
    f = open_case("align-string", &b);
    REQUIRE(f != NULL);
    CHECK(lgg_file_alignment(f) == 32);
    r = validate(f);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_ALIGNMENT_KEY) == 1);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
    /* 2^63 with no tensor: nothing to pad, so it opens */
    f = open_case("align-2^63-no-tensors", &b);
    REQUIRE(f != NULL);
    CHECK(lgg_file_alignment(f) == UINT64_C(1) << 63);
    CHECK(lgg_file_data_offset(f) == lgg_file_header_size(f));
    r = validate(f);
    REQUIRE(r != NULL);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}

/* Lying dimensions / a truncated download (llama.cpp#6774, mlx#4136): with
 * LGG_OPEN_ALLOW_MISSING_DATA the tensor has no data and cannot be read. */
TEST(hostile_missing_data_cannot_be_read) {
    const hostile_case *h = hostile_find("data-past-end");
    REQUIRE(h != NULL);
    buf b = {0};
    h->build(&b);
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
    lgg_file *f = NULL;
    lgg_error e;
    REQUIRE(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_OK);
    const lgg_tensor *t = lgg_tensor_at(f, 0);
    CHECK(!t->data_available && t->data == NULL && t->size == 4096);
    float *dst = malloc(1024 * sizeof *dst);
    REQUIRE(dst != NULL);
    CHECK(lgg_dequantize_rows(f, t, 0, 1, dst, 1024) == LGG_ERR_UNSUPPORTED);
    CHECK(lgg_dequantize_tensor(f, t, dst, 1024, 1) == LGG_ERR_UNSUPPORTED);
    free(dst);
    CHECK(lgg_file_data_end(f) <= lgg_file_size(f));
    lgg_close(f);
    buf_free(&b);
}

/* huggingface.js#2028: unbounded recursion on nested arrays.  200,000 levels
 * are refused even at the highest depth limit, without recursion. */
TEST(hostile_deep_nesting_at_every_depth_limit) {
    const hostile_case *h = hostile_find("nested-200000");
    REQUIRE(h != NULL);
    buf b = {0};
    h->build(&b);
    static const uint32_t limits[] = {1, 2, 16, 64, 1000000};
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        lgg_open_options o;
        lgg_open_options_init(&o);
        o.limits.max_depth = limits[k];
        lgg_file *f = NULL;
        lgg_error e;
        CHECKF(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_ERR_NESTING && f == NULL, "max_depth %u",
               limits[k]);
    }
    buf_free(&b);
}

/* ---- a child with a 256 MiB address space ---- */

/* AddressSanitizer and ThreadSanitizer reserve terabytes of address space
 * for their shadow, so under them the child runs the same opens without the
 * limit. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SHADOW_SAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SHADOW_SAN 1
#endif
#endif
#ifndef UNDER_SHADOW_SAN
#define UNDER_SHADOW_SAN 0
#endif

/* The address space this process maps now, in bytes (0 if unknown). */
static rlim_t mapped_now(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1) pages = 0;
        fclose(f);
    }
    return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
}

/* Returns the child's exit status: 0 if every open was refused with the
 * expected code in under a second each.  The child may map 256 MiB beyond
 * what it inherits: the runner's own mappings (the thread stacks and the
 * malloc arenas that earlier tests' threads left) are not the parser's. */
static int child_under_rlimit(const char *path, const unsigned char *data, size_t n) {
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        if (!UNDER_SHADOW_SAN) {
            const rlim_t cap = mapped_now() + ((rlim_t)256 << 20);
            struct rlimit rl = {cap, cap};
            if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(10);
            /* the limit is real: a 512 MiB allocation fails in here.  The
             * volatile store keeps clang from eliding the unused malloc and
             * folding the test to "succeeded". */
            void *volatile big = malloc((size_t)512 << 20);
            if (big) _exit(11);
        }
        lgg_open_options o;
        lgg_open_options_init(&o);
        for (int pass = 0; pass < 3; pass++) {
            if (pass == 1) { /* the highest limits do not change the answer */
                o.limits.max_kv = UINT64_MAX;
                o.limits.max_tensors = UINT64_MAX;
                o.limits.max_array_len = UINT64_MAX;
                o.limits.max_string_len = UINT64_MAX;
            }
            if (pass == 2) o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
            lgg_file *f = NULL;
            lgg_error e;
            double t0 = now();
            lgg_status s = lgg_open_file(path, &o, &f, &e);
            if (s != LGG_ERR_TRUNCATED || f != NULL || e.code != s) _exit(20 + pass);
            s = lgg_open_memory(data, n, &o, &f, &e);
            if (s != LGG_ERR_TRUNCATED || f != NULL) _exit(30 + pass);
            if (now() - t0 > 1.0) _exit(40 + pass);
        }
        _exit(0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

TEST(hostile_huge_counts_under_a_256_mib_address_space) {
    buf b = {0};
    hostile_huge_counts(&b); /* 2^62 tensors and 2^62 pairs claimed */
    const char *path = write_scratch("huge-counts", &b);
    REQUIRE(path != NULL);
    int rc = child_under_rlimit(path, b.p, b.n);
    CHECKF(rc == 0, "child exited with %d (10: setrlimit, 11: limit not enforced, 2x: open_file, 3x: "
                    "open_memory, 4x: too slow)", rc);
    buf_free(&b);
    /* 2^62 pairs each claiming a string of 2^62 bytes, in a file of a few KiB */
    gen_header(&b, 3, 0, UINT64_C(1) << 62);
    for (int i = 0; i < 256; i++) {
        buf_u64(&b, UINT64_C(1) << 62);
        buf_put(&b, "k", 1);
    }
    path = write_scratch("huge-counts-2", &b);
    REQUIRE(path != NULL);
    rc = child_under_rlimit(path, b.p, b.n);
    CHECKF(rc == 0, "child exited with %d", rc);
    buf_free(&b);
}

/* ---- resource use that grows faster than the file ---- */

/* FNV-1a with the final mix the name index used before it was keyed. */
static uint64_t old_hash(const char *s, size_t len) {
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * UINT64_C(0x100000001b3);
    h ^= h >> 29;
    h *= UINT64_C(0xbf58476d1ce4e5b9);
    h ^= h >> 32;
    return h;
}

/* Hash flooding: 20,000 keys chosen so that an unkeyed hash puts them all in
 * 64 neighbouring slots (a 600 KB file) took 2.5 s to open, quadratically
 * more with more keys (50,000: 11 s).  With the keyed hash it is linear. */
TEST(hostile_colliding_names_open_in_linear_time) {
    const int n = 20000;
    uint64_t slots = 16;
    while (slots < (uint64_t)n * 2) slots <<= 1;
    buf b = {0};
    gen_header(&b, 3, 0, (uint64_t)n);
    char k[32];
    uint64_t c = 0;
    for (int found = 0; found < n; c++) {
        int l = snprintf(k, sizeof k, "k%016llx", (unsigned long long)c);
        if ((old_hash(k, (size_t)l) & (slots - 1)) >= 64) continue;
        gen_key(&b, 3, k, LGG_VT_U8);
        buf_u8(&b, 1);
        found++;
    }
    lgg_file *f = NULL;
    lgg_error e;
    double t0 = now();
    REQUIRE(lgg_open_memory(b.p, b.n, NULL, &f, &e) == LGG_OK);
    lgg_report *r = NULL;
    CHECK(lgg_validate(f, NULL, &r) == LGG_OK); /* looks every key up again */
    double dt = now() - t0;
    CHECKF(dt < 0.5, "open + validate of %d colliding keys took %.2f s", n, dt);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}

/* A report is bounded: 1,500 empty keys (each a syntax error and all but one
 * a duplicate) list 1,000 findings of each check and one line for the rest. */
TEST(hostile_report_size_is_bounded) {
    const int n = 1500;
    buf b = {0};
    gen_header(&b, 3, 0, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        gen_key(&b, 3, "", LGG_VT_BOOL);
        buf_u8(&b, 2);
    }
    lgg_file *f = NULL;
    lgg_error e;
    REQUIRE(lgg_open_memory(b.p, b.n, NULL, &f, &e) == LGG_OK);
    lgg_report *r = NULL;
    REQUIRE(lgg_validate(f, NULL, &r) == LGG_OK);
    CHECK(count_check(r, LGG_CHECK_KEY_SYNTAX) == (int)LGG_REPORT_MAX_PER_CHECK + 1);
    CHECK(count_check(r, LGG_CHECK_KEY_DUPLICATE) == (int)LGG_REPORT_MAX_PER_CHECK + 1);
    CHECK(count_check(r, LGG_CHECK_BOOL_VALUE) == (int)LGG_REPORT_MAX_PER_CHECK + 1);
    const lgg_finding *last = NULL;
    for (size_t i = 0; i < lgg_report_count(r); i++)
        if (lgg_report_at(r, i)->check == LGG_CHECK_KEY_DUPLICATE) last = lgg_report_at(r, i);
    REQUIRE(last != NULL);
    CHECK(last->offset == LGG_NO_OFFSET && last->severity == LGG_SEV_ERROR);
    CHECK(strstr(last->message, "and 499 more") != NULL);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}

/* A file without tensors may state general.alignment = 2^63 (u64) and open.
 * Copying it padded the header to that alignment in memory: 2 GiB resident,
 * then an endless loop of 2^57 steps after the allocation failed ('gguf copy'
 * hung).  The writer now refuses an alignment beyond GGUF's u32 unless the
 * options choose another. */
TEST(hostile_writer_refuses_an_alignment_beyond_u32) {
    buf b = {0};
    lgg_file *f = open_case("align-2^63-no-tensors", &b);
    REQUIRE(f != NULL);
    lgg_writer *w = NULL;
    lgg_error e;
    REQUIRE(lgg_writer_from_file(f, -1, NULL, 0, &w, &e) == LGG_OK);
    char path[1024];
    snprintf(path, sizeof path, "%s/align-copy.gguf", scratch_dir());
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    REQUIRE(fd >= 0);
    double t0 = now();
    CHECK(lgg_writer_write_fd(w, fd, NULL, NULL, &e) == LGG_ERR_RANGE && e.code == LGG_ERR_RANGE);
    uint64_t hs = 0;
    CHECK(lgg_writer_header_size(w, NULL, &hs, &e) == LGG_ERR_RANGE);
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.alignment = 32;
    uint64_t n = 0;
    CHECK(lgg_writer_write_fd(w, fd, &o, &n, &e) == LGG_OK && n > 0 && n < 4096);
    CHECK(now() - t0 < 1.0);
    close(fd);
    lgg_file *g = NULL;
    CHECK(lgg_open_file(path, NULL, &g, &e) == LGG_OK && lgg_file_alignment(g) == 32);
    lgg_close(g);
    lgg_writer_free(w);
    lgg_close(f);
    buf_free(&b);
}

/* LGG_OPEN_ALLOW_BAD_LAYOUT (issue #28): a case that fails only in where its
 * tensors' data lies opens for inspection with that very error kept, and
 * no data to read; every other case gives the status it gives without it. */
TEST(hostile_bad_layout_opens_for_inspection_only) {
    int opened = 0;
    for (size_t i = 0; i < hostile_count(); i++) {
        const hostile_case *h = hostile_get(i);
        if (h->huge) continue;
        buf b = {0};
        h->build(&b);
        lgg_error e0, e1, le;
        memset(&e0, 0, sizeof e0);
        memset(&e1, 0, sizeof e1);
        lgg_file *f = NULL;
        lgg_status s0 = lgg_open_memory(b.p, b.n, NULL, &f, &e0);
        lgg_close(f);
        f = NULL;
        lgg_open_options o;
        lgg_open_options_init(&o);
        o.flags = LGG_OPEN_ALLOW_BAD_LAYOUT;
        lgg_status s1 = lgg_open_memory(b.p, b.n, &o, &f, &e1);
        const bool layout = s0 == LGG_ERR_TENSOR_BOUNDS || s0 == LGG_ERR_TENSOR_ALIGN || s0 == LGG_ERR_TENSOR_OVERLAP;
        if (!layout) {
            CHECKF(s1 == s0, "%s: %s with the flag, %s without", h->name, lgg_status_name(s1), lgg_status_name(s0));
            CHECKF(s1 != LGG_OK || !lgg_file_layout_error(f, NULL), "%s: a layout error on a sound file", h->name);
        } else {
            CHECKF(s1 == LGG_OK, "%s: %s", h->name, s1 ? e1.message : "");
            if (s1 == LGG_OK) {
                opened++;
                memset(&le, 0, sizeof le);
                CHECKF(lgg_file_layout_error(f, &le) && le.code == s0 && le.offset == e0.offset &&
                           !strcmp(le.message, e0.message),
                       "%s: kept '%s', open said '%s'", h->name, le.message, e0.message);
                for (uint64_t k = 0; k < lgg_tensor_count(f); k++) {
                    CHECKF(!lgg_tensor_at(f, k)->data_available && !lgg_tensor_at(f, k)->data, "%s: data of %llu",
                           h->name, (unsigned long long)k);
                    CHECKF(lgg_file_load_tensor(f, k, &le) == s0, "%s: tensor %llu loads", h->name,
                           (unsigned long long)k);
                }
                lgg_report *r = NULL;
                CHECKF(lgg_validate(f, NULL, &r) == LGG_OK && r, "%s: validate", h->name);
                lgg_report_free(r);
            }
        }
        lgg_close(f);
        buf_free(&b);
    }
    CHECK(opened >= 6);
    CHECK(!lgg_file_layout_error(NULL, NULL));
}
