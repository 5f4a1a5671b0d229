/* main.c -- the test runner.
 *
 *   test_runner [-j N] [--list] [--slowest K] [SUBSTRING...]
 *
 * runs the tests whose names contain any SUBSTRING (all by default), in N
 * worker processes (default 1: in this process, in name order), and ends
 * with "N passed, N failed, N skipped".  --list prints the names it would
 * run.  Each test's time goes with its "ok" line (TEST_VERBOSE set) and the
 * K slowest (default 10) are listed on stderr before the closing line.
 *
 * Scratch files go to TMPDIR, or /dev/shm when TMPDIR is unset and that is
 * a writable folder: the suite's writes are not meant to reach a disk (its
 * fsyncs and renames cost 87% of some tests there), and the tests that are
 * about durability say so themselves. */
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TESTS 4096
#define MAX_WORKERS 64
typedef struct {
    const char *name;
    test_fn fn;
    test_fn_arg fa;
    void *arg;
    int alone; /* TEST_ALONE: run after the others, with nothing beside it */
} test_entry;
static test_entry tests[MAX_TESTS];
static int n_tests;
static int cur_failures, cur_skipped;
static const char *cur_name;

void test_register(const char *name, test_fn fn) {
    if (n_tests < MAX_TESTS) tests[n_tests++] = (test_entry){name, fn, NULL, NULL, 0};
}

void test_register_alone(const char *name, test_fn fn) {
    if (n_tests < MAX_TESTS) tests[n_tests++] = (test_entry){name, fn, NULL, NULL, 1};
}

void test_register_arg(const char *name, test_fn_arg fn, void *arg) {
    if (n_tests < MAX_TESTS) tests[n_tests++] = (test_entry){name, NULL, fn, arg, 0};
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
bool shared_present(void) {
    static int have = -1;
    if (have < 0) {
        struct stat st;
        have = stat(shared_path(""), &st) == 0 && S_ISDIR(st.st_mode);
    }
    return have;
}

bool need_shared(void) {
    const bool have = shared_present();
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

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What became of one test. */
enum { R_NOT_RUN, R_PASSED, R_FAILED, R_SKIPPED };
typedef struct {
    int result;
    double seconds;
} test_result;

/* Run test i here; its result and time. */
static test_result run_one(int i) {
    cur_name = tests[i].name;
    cur_failures = 0;
    cur_skipped = 0;
    double t0 = now_s();
    if (tests[i].fn) tests[i].fn();
    else tests[i].fa(tests[i].arg);
    test_result r = {R_PASSED, now_s() - t0};
    if (cur_failures) {
        r.result = R_FAILED;
        fprintf(stderr, "FAIL %s (%d failed checks)\n", tests[i].name, cur_failures);
    } else if (cur_skipped) {
        r.result = R_SKIPPED;
    } else if (getenv("TEST_VERBOSE")) {
        fprintf(stderr, "ok   %s (%.2f s)\n", tests[i].name, r.seconds);
    }
    fflush(stdout);
    fflush(stderr);
    return r;
}

/* ---- workers: N processes take the next test from a shared counter ---- */

/* The state the workers share with the runner (an anonymous shared
 * mapping): the next index into `order`, each test's result, and which test
 * each worker is in (-1: none), so that a worker that dies names it. */
typedef struct {
    int next;
    int running[MAX_WORKERS];
    test_result results[MAX_TESTS];
} shared_state;

static void worker(shared_state *s, int w, const int *order, int n) {
    for (;;) {
        int k = __atomic_fetch_add(&s->next, 1, __ATOMIC_SEQ_CST);
        if (k >= n) break;
        __atomic_store_n(&s->running[w], order[k], __ATOMIC_SEQ_CST);
        s->results[order[k]] = run_one(order[k]);
        __atomic_store_n(&s->running[w], -1, __ATOMIC_SEQ_CST);
    }
    exit(0); /* atexit: this worker's scratch folder goes */
}

static pid_t start_worker(shared_state *s, int w, const int *order, int n) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) worker(s, w, order, n);
    return pid;
}

/* Run order[0..n) on `jobs` workers; a worker that dies fails its test and
 * is replaced. */
static void run_parallel(const int *order, int n, int jobs, test_result *out) {
    shared_state *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) {
        perror("test_runner: mmap");
        exit(2);
    }
    memset(s, 0, sizeof *s);
    pid_t pids[MAX_WORKERS];
    for (int w = 0; w < jobs; w++) s->running[w] = -1, pids[w] = start_worker(s, w, order, n);
    for (int alive = jobs; alive > 0;) {
        int st;
        pid_t pid = wait(&st);
        if (pid < 0) {
            if (errno == EINTR) continue;
            break;
        }
        int w = 0;
        while (w < jobs && pids[w] != pid) w++;
        if (w == jobs) continue; /* not a worker (a test's own child) */
        alive--;
        int t = s->running[w];
        if (t < 0) continue;
        fprintf(stderr, "FAIL %s (the worker %s %d)\n", tests[t].name, WIFSIGNALED(st) ? "died of signal" : "exited with",
                WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
        s->results[t] = (test_result){R_FAILED, 0};
        s->running[w] = -1;
        if ((pids[w] = start_worker(s, w, order, n)) > 0) alive++;
    }
    memcpy(out, s->results, sizeof s->results);
    munmap(s, sizeof *s);
}

static int matches(const char *name, char **filters, int n_filters) {
    for (int f = 0; f < n_filters; f++)
        if (strstr(name, filters[f])) return 1;
    return n_filters == 0;
}

static void print_slowest(const test_result *r, int k) {
    int done[32] = {0}, n = 0;
    if (k > 32) k = 32;
    for (; n < k; n++) {
        int best = -1;
        for (int i = 0; i < n_tests; i++) {
            int taken = 0;
            for (int j = 0; j < n; j++) taken |= done[j] == i;
            if (!taken && r[i].result != R_NOT_RUN && (best < 0 || r[i].seconds > r[best].seconds)) best = i;
        }
        if (best < 0 || r[best].seconds < 1.0) break;
        done[n] = best;
        fprintf(stderr, "%s %7.2f s  %s\n", n ? "       " : "slowest", r[best].seconds, tests[best].name);
    }
}

/* TMPDIR unset: /dev/shm when it is a folder this process can write. */
static void scratch_on_tmpfs(void) {
    if (getenv("TMPDIR")) return;
    struct stat st;
    if (stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK | X_OK) == 0)
        setenv("TMPDIR", "/dev/shm", 1);
}

static int usage(void) {
    fprintf(stderr, "usage: test_runner [-j N] [--list] [--slowest K] [SUBSTRING...]\n");
    return 2;
}

int main(int argc, char **argv) {
    int jobs = 1, list = 0, slowest = 10, n_filters = 0;
    char **filters = calloc((size_t)argc, sizeof *filters);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--list")) list = 1;
        else if (!strcmp(argv[i], "-j") && i + 1 < argc) jobs = atoi(argv[++i]);
        else if (!strncmp(argv[i], "-j", 2) && argv[i][2]) jobs = atoi(argv[i] + 2);
        else if (!strcmp(argv[i], "--slowest") && i + 1 < argc) slowest = atoi(argv[++i]);
        else if (argv[i][0] == '-') return usage();
        else filters[n_filters++] = argv[i];
    }
    if (jobs < 1 || jobs > MAX_WORKERS) return usage();
    qsort(tests, (size_t)n_tests, sizeof tests[0], cmp_tests);
    static int order[MAX_TESTS];
    int n = 0;
    for (int i = 0; i < n_tests; i++)
        if (matches(tests[i].name, filters, n_filters)) order[n++] = i;
    free(filters);
    if (list) {
        for (int k = 0; k < n; k++) printf("%s\n", tests[order[k]].name);
        return 0;
    }
    scratch_on_tmpfs();
    static test_result results[MAX_TESTS];
    /* the tests that measure wall time run last, one at a time, on an otherwise idle machine */
    int n_shared = 0;
    static int alone[MAX_TESTS];
    int n_alone = 0;
    for (int k = 0; k < n; k++) {
        if (tests[order[k]].alone) alone[n_alone++] = order[k];
        else order[n_shared++] = order[k];
    }
    if (jobs == 1 || n_shared < 2) {
        for (int k = 0; k < n_shared; k++) results[order[k]] = run_one(order[k]);
    } else {
        run_parallel(order, n_shared, jobs < n_shared ? jobs : n_shared, results);
    }
    for (int k = 0; k < n_alone; k++) results[alone[k]] = run_one(alone[k]);
    int count[4] = {0};
    for (int i = 0; i < n_tests; i++) count[results[i].result]++;
    print_slowest(results, slowest);
    fflush(stderr);
    printf("%d passed, %d failed, %d skipped\n", count[R_PASSED], count[R_FAILED], count[R_SKIPPED]);
    return count[R_FAILED] ? 1 : 0;
}
