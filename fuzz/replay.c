/* replay.c -- a main() for the fuzz targets when they are built as plain
 * programs (make test): feed every file of every directory or file named on
 * the command line to LLVMFuzzerTestOneInput, once each, in sorted order.
 *
 *   build/fuzz/fuzz_open [DIR|FILE]...
 *
 * With no arguments it replays fuzz/corpus/<program name>/ (which must exist)
 * and fuzz/regressions/<program name>/ (if it exists), relative to the
 * current directory.  Directories are walked recursively; names starting with
 * '.' are skipped.  Each input is read into a buffer of exactly its size, so
 * a sanitizer build (make check-asan) catches a read one byte past the end.
 *
 * Prints "<name>: N inputs replayed" and exits 0; exits 1 if a path cannot be
 * read (a target that finds a bug aborts, which the caller sees as a signal). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned long n_inputs;
static int n_errors;
static const char *prog = "fuzz";

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void replay_file(const char *path, off_t size_hint) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        n_errors++;
        return;
    }
    size_t cap = size_hint > 0 ? (size_t)size_hint : 0, n = 0;
    uint8_t *buf = malloc(cap ? cap : 1);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "%s: %s: out of memory\n", prog, path);
            n_errors++;
            fclose(f);
            return;
        }
        if (n == cap) { /* the file grew, or its size was unknown */
            size_t nc = cap ? cap * 2 : 4096;
            uint8_t *q = realloc(buf, nc);
            if (!q) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = q;
            cap = nc;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: %s: read error\n", prog, path);
        free(buf);
        n_errors++;
        return;
    }
    /* an exactly-sized copy: any over-read lands outside the allocation */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        fprintf(stderr, "%s: %s: out of memory\n", prog, path);
        free(buf);
        n_errors++;
        return;
    }
    if (n) memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(n ? exact : NULL, n);
    free(exact);
    n_inputs++;
}

static void replay_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        n_errors++;
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        replay_file(path, st.st_size);
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        n_errors++;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **q = realloc(names, cap * sizeof *names);
            if (!q) break;
            names = q;
        }
        names[n] = strdup(e->d_name);
        if (names[n]) n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *p = malloc(len);
        if (p) {
            snprintf(p, len, "%s/%s", path, names[i]);
            replay_path(p);
            free(p);
        } else {
            n_errors++;
        }
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv) {
    const char *slash = strrchr(argv[0], '/');
    prog = slash ? slash + 1 : argv[0];
    if (argc > 1) {
        for (int i = 1; i < argc; i++) replay_path(argv[i]);
    } else {
        char p[4096];
        snprintf(p, sizeof p, "fuzz/corpus/%s", prog);
        replay_path(p);
        snprintf(p, sizeof p, "fuzz/regressions/%s", prog);
        struct stat st;
        if (stat(p, &st) == 0) replay_path(p);
    }
    printf("%s: %lu inputs replayed\n", prog, n_inputs);
    if (n_errors) fprintf(stderr, "%s: %d paths could not be read\n", prog, n_errors);
    return n_errors ? 1 : 0;
}
