/* test.h -- a tiny test harness.  TEST(name) { ... } registers a test; CHECK
 * records a failure with file:line and carries on; REQUIRE stops the test.
 * The runner (main.c) ends with "N passed, N failed". */
#ifndef LGG_TEST_H
#define LGG_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
/* A test that takes an argument (one registration per case of a table or a
 * directory); the runner keeps `name`. */
typedef void (*test_fn_arg)(void *arg);
void test_register_arg(const char *name, test_fn_arg fn, void *arg);
/* Mark the running test skipped (its reference material is missing, say),
 * with the reason; the runner counts it apart from passed and failed. */
void test_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Failures so far in the running test. */
int test_failures(void);

/* A test that measures wall time (a browser's response, say): the runner
 * runs it after the others, alone, so that -j N does not load the machine
 * under it. */
void test_register_alone(const char *name, test_fn fn);
#define TEST_ALONE(name)                                                           \
    static void test_##name(void);                                                 \
    __attribute__((constructor)) static void test_reg_##name(void) {               \
        test_register_alone(#name, test_##name);                                   \
    }                                                                              \
    static void test_##name(void)

#define TEST(name)                                                                 \
    static void test_##name(void);                                                 \
    __attribute__((constructor)) static void test_reg_##name(void) {               \
        test_register(#name, test_##name);                                         \
    }                                                                              \
    static void test_##name(void)

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);            \
    } while (0)
#define CHECKF(cond, ...)                                                          \
    do {                                                                           \
        if (!(cond)) test_fail(__FILE__, __LINE__, __VA_ARGS__);                   \
    } while (0)
#define REQUIRE(cond)                                                              \
    do {                                                                           \
        if (!(cond)) {                                                             \
            test_fail(__FILE__, __LINE__, "REQUIRE(%s)", #cond);                   \
            return;                                                                \
        }                                                                          \
    } while (0)
#define CHECK_EQ_U(a, b)                                                           \
    do {                                                                           \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
        if (a_ != b_) test_fail(__FILE__, __LINE__, "%s == %s: %llu != %llu", #a, #b, a_, b_); \
    } while (0)
#define CHECK_STR(a, b)                                                            \
    do {                                                                           \
        const char *a_ = (a), *b_ = (b);                                           \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                     \
            test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,    \
                      a_ ? a_ : "(null)", b_ ? b_ : "(null)");                     \
    } while (0)

/* Helpers shared by the tests (util.c). */
/* Path of a file under ../shared (the reference material). */
const char *shared_path(const char *rel);
/* True when ../shared (or GGUF_SHARED) is there; otherwise marks the running
 * test skipped, with the reason, and returns false: `if (!need_shared()) return;` */
bool need_shared(void);
/* The same question without skipping: is ../shared (GGUF_SHARED) there?
 * False means the stand-ins and the compact copies are what tests read. */
bool shared_present(void);
/* LGG_TEST_SWEEPS=reduced (the sanitizer builds' make targets set it):
 * the byte-identity sweeps check one outtype per checkpoint instead of
 * every one, write several outputs at once for one checkpoint in four, and
 * run one in three of the golden conversions, fused presets and
 * llama-quantize runs.  Every family hook and transform still runs; the
 * plain build checks everything. */
bool test_reduced_sweeps(void);
/* Read a whole file; returns malloc'd bytes (caller frees) or NULL. */
/* The whole file, malloc'd, followed by a NUL (not counted in *size), so a
 * text file is a C string; NULL if it cannot be opened. */
unsigned char *read_file(const char *path, size_t *size);
/* Directory of the build (GGUF_BUILD, default "build"). */
const char *build_dir(void);
/* build/gguf with ARGV in the directory DIR, stdin and stdout /dev/null,
 * stderr to ERRPATH (NULL: /dev/null); its exit status, -1 when it did not
 * exit normally. */
int run_gguf_in(const char *dir, char *const argv[], const char *errpath);
/* A fresh scratch directory for this test run (removed at exit). */
const char *scratch_dir(void);
/* scratch_dir()/name (in one of 8 rotating static buffers). */
const char *scratch_path(const char *name);
/* Copy a whole file; false if it cannot be read or written. */
bool file_copy(const char *from, const char *to);

/* Run a program (argv[0] is a path) with no stdin; capture stdout and stderr
 * (malloc'd, NUL-terminated, caller frees) and the exit status (-1 if it did
 * not exit normally).  Returns 0, or -1 if it could not be started. */
int run_capture(char *const argv[], char **out, size_t *out_len, char **err, size_t *err_len, int *status);

/* Run build/gguf with the NULL-terminated arguments after err; stdout and
 * stderr are returned (malloc'd, NUL-terminated) through out and err when
 * they are not NULL.  Returns the exit status (-1: killed, -2: not run). */
int run_gguf_capture(char **out, char **err, ...);

/* 1 if a name in dir starts with `start`. */
int has_entry(const char *dir, const char *start);
/* How many entries dir has, "." and ".." aside (0 when it cannot be read). */
int entries_in(const char *dir);
/* Run build/gguf with args (NULL-terminated, after the tool's path), its
 * stdout a one-page pipe nobody reads (a command that prints each file it
 * writes stops there: the signal comes mid-run on any machine), its stderr
 * /dev/null; once a name starting with `first` is in dir (10 s at most),
 * send it sig.  The wait status, -1 if it did not start, -2 if the file
 * never came. */
int signal_mid_run(char **args, const char *dir, const char *first, int sig);
/* As run_capture, with standard input read from the file `in`. */
int run_capture_stdin(char *const argv[], const char *in, char **out, size_t *out_len, char **err, size_t *err_len,
                      int *status);
/* test_convert.c: convert DIR fused with PRESET (an imatrix when asked)
 * and in two steps; 1 when the outputs are byte-identical (a failed check
 * otherwise). */
int convert_fused_vs_two_step(const char *dir, const char *model, const char *preset, int with_imatrix);
/* The same with lgg_convert_options.pre set (a vocabulary the converter cannot name itself). */
int convert_fused_vs_two_step_pre(const char *dir, const char *model, const char *preset, int with_imatrix,
                                  const char *pre);
/* test_convert.c: convert DIR with PRESET in one pass; 1 when the output's
 * sha256 is SHA (a failed check otherwise). */
int convert_preset_sha_ok(const char *dir, const char *preset, const char *sha);

/* sha256 of n bytes as 64 hex digits and a NUL (sha256.c: libcrypto's, or
 * FIPS 180-4 written out in builds with LGG_TEST_NO_GOLDEN_LIBS). */
void sha256_hex(const void *p, size_t n, char out[65]);
/* The sha256 of file `path` in hex; false (out "") when it cannot be read. */
bool file_sha256(const char *path, char out[65]);

/* Write n bytes (a C string) to dir/name; 1 when all were written. */
int put_file(const char *dir, const char *name, const void *p, size_t n);
int put_text(const char *dir, const char *name, const char *s);
/* Processor time (user + system) of the finished children so far, in
 * seconds: time bounds on a shared machine measure the child, not the
 * neighbours. */
double children_cpu_s(void);

/* A growable byte buffer for building GGUF files by hand. */
typedef struct buf {
    unsigned char *p;
    size_t n, cap;
    bool big; /* write multi-byte values big-endian */
} buf;
void buf_put(buf *b, const void *p, size_t n);
void buf_u8(buf *b, uint8_t v);
void buf_u16(buf *b, uint16_t v);
void buf_u32(buf *b, uint32_t v);
void buf_u64(buf *b, uint64_t v);
void buf_str(buf *b, const char *s);          /* u64 length + bytes */
void buf_str_n(buf *b, const char *s, uint64_t n);
void buf_pad(buf *b, size_t align);
void buf_free(buf *b);

/* s with every `from` replaced by `to` (malloc'd; NULL when out of memory). */
char *text_replace(const char *s, const char *from, const char *to);
/* One test per file NAME`ext` in `dir` (relative to the repository's root,
 * where the runner starts), named `prefix`NAME; fn gets NAME. */
void test_register_dir(const char *dir, const char *ext, const char *prefix, test_fn_arg fn);

#endif
