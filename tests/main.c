/* main.c -- the test runner.  `test_runner [SUBSTRING]` runs the tests whose
 * names contain SUBSTRING (all by default) and ends with "N passed, N failed, N skipped". */
#include "test.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

#define MAX_TESTS 4096
typedef struct {
    const char *name;
    test_fn fn;
    test_fn_arg fa;
    void *arg;
} test_entry;
static test_entry tests[MAX_TESTS];
static int n_tests;
static int cur_failures, cur_skipped;
static const char *cur_name;

void test_register(const char *name, test_fn fn) {
    if (n_tests < MAX_TESTS) tests[n_tests++] = (test_entry){name, fn, NULL, NULL};
}

void test_register_arg(const char *name, test_fn_arg fn, void *arg) {
    if (n_tests < MAX_TESTS) tests[n_tests++] = (test_entry){name, NULL, fn, arg};
}

void test_skip(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "SKIP %s: ", cur_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    cur_skipped = 1;
}

void test_fail(const char *file, int line, const char *fmt, ...) {
    if (cur_failures < 20) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "  FAIL %s (%s:%d): ", cur_name, file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    cur_failures++;
}

int test_failures(void) { return cur_failures; }

/* The runner's side of util.c's helpers (here, so that programs that use
 * util.c without the runner, fuzz/gen_corpus.c, link). */
bool need_shared(void) {
    static int have = -1;
    if (have < 0) {
        struct stat st;
        have = stat(shared_path(""), &st) == 0 && S_ISDIR(st.st_mode);
    }
    if (!have) test_skip("the reference material (%s, or GGUF_SHARED) is missing", shared_path(""));
    return have;
}

void test_register_dir(const char *dir, const char *ext, const char *prefix, test_fn_arg fn) {
    DIR *d = opendir(dir);
    if (!d) return;
    size_t el = strlen(ext), pl = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= el || strcmp(e->d_name + l - el, ext)) continue;
        char *name = strndup(e->d_name, l - el), *label = malloc(pl + l + 1);
        if (!name || !label) {
            free(name);
            free(label);
            break;
        }
        snprintf(label, pl + l + 1, "%s%s", prefix, name);
        test_register_arg(label, fn, name); /* the runner keeps both for its whole run */
    }
    closedir(d);
}

static int cmp_tests(const void *a, const void *b) {
    return strcmp(((const test_entry *)a)->name, ((const test_entry *)b)->name);
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    qsort(tests, (size_t)n_tests, sizeof tests[0], cmp_tests);
    int passed = 0, failed = 0, skipped = 0;
    for (int i = 0; i < n_tests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        cur_name = tests[i].name;
        cur_failures = 0;
        cur_skipped = 0;
        if (tests[i].fn) tests[i].fn();
        else tests[i].fa(tests[i].arg);
        if (cur_skipped && !cur_failures) {
            skipped++;
        } else if (cur_failures) {
            failed++;
            fprintf(stderr, "FAIL %s (%d failed checks)\n", tests[i].name, cur_failures);
        } else {
            passed++;
            if (getenv("TEST_VERBOSE")) fprintf(stderr, "ok   %s\n", tests[i].name);
        }
    }
    fflush(stderr);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
