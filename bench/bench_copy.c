/* bench_copy.c -- `copy`, `split` and `merge` of a large file against cp(1)
 * of the same file, in the same run.  Builds a ~1.6 GB model in a fresh
 * directory under $TMPDIR (default /tmp) with the writer (16 F16 tensors of
 * 100 MiB each), then times, best of BENCH_REPS (default 3) each:
 *   cp:         cp FILE DEST (coreutils; no fsync)
 *   cp + sync:  the same, then fsync(DEST) -- the library's writes are durable
 *   copy:       open + lgg_writer_from_file + lgg_writer_write_file
 *   split:      open + lgg_split_plan_make (--max-size 500M) + each shard written
 *   merge:      open the 4 shards + lgg_merge_writer + lgg_writer_write_file
 * and prints each with its ratio to cp and to cp + sync.  All three library
 * operations write through a temporary file, fsync and rename, and copy the
 * data with copy_file_range.  Removes its files at the end. */
#include "libgguf.h"
#include "bench.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[512];

static const char *path_in(const char *name) {
    static char p[4][640];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static int run_cp(const char *from, const char *to, int do_sync) {
    pid_t pid = fork();
    if (pid == 0) {
        execlp("cp", "cp", from, to, (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    if (!WIFEXITED(st) || WEXITSTATUS(st)) return 1;
    if (do_sync) {
        int fd = open(to, O_RDONLY);
        if (fd < 0 || fsync(fd)) return 1;
        close(fd);
    }
    return 0;
}

static int do_copy(const char *from, const char *to) {
    int fd = open(from, O_RDONLY);
    lgg_file *f = NULL;
    lgg_writer *w = NULL;
    lgg_error e;
    int rc = fd < 0 || lgg_open_fd(fd, NULL, &f, &e) || lgg_writer_from_file(f, fd, NULL, 0, &w, &e) ||
             lgg_writer_write_file(w, to, NULL, &e);
    if (rc) fprintf(stderr, "copy: %s\n", e.message);
    lgg_writer_free(w);
    lgg_close(f);
    if (fd >= 0) close(fd);
    return rc;
}

static int do_split(const char *from, const char *prefix, uint32_t *count) {
    int fd = open(from, O_RDONLY);
    lgg_file *f = NULL;
    lgg_split_plan *p = NULL;
    lgg_error e;
    lgg_split_options o;
    lgg_split_options_init(&o);
    o.max_size = 500u * 1000 * 1000;
    int rc = fd < 0 || lgg_open_fd(fd, NULL, &f, &e) || lgg_split_plan_make(f, &o, &p, &e);
    char name[700];
    for (uint32_t i = 0; !rc && i < lgg_split_plan_count(p); i++) {
        lgg_writer *w = NULL;
        lgg_split_path(name, sizeof name, prefix, i, lgg_split_plan_count(p));
        rc = lgg_split_shard_writer(f, fd, p, i, &w, &e) || lgg_writer_write_file(w, name, NULL, &e);
        lgg_writer_free(w);
    }
    if (rc) fprintf(stderr, "split: %s\n", e.message);
    *count = lgg_split_plan_count(p);
    lgg_split_plan_free(p);
    lgg_close(f);
    if (fd >= 0) close(fd);
    return rc;
}

static int do_merge(const char *prefix, uint32_t n, const char *to) {
    lgg_file *files[16] = {0};
    int fds[16];
    lgg_error e;
    int rc = n > 16;
    uint32_t opened = 0;
    char name[700];
    for (; !rc && opened < n; opened++) {
        lgg_split_path(name, sizeof name, prefix, opened, n);
        fds[opened] = open(name, O_RDONLY);
        if (fds[opened] < 0 || lgg_open_fd(fds[opened], NULL, &files[opened], &e)) {
            rc = 1;
            break;
        }
    }
    lgg_writer *w = NULL;
    if (!rc) rc = lgg_merge_writer((const lgg_file *const *)files, fds, n, NULL, &w, &e) ||
                  lgg_writer_write_file(w, to, NULL, &e);
    if (rc) fprintf(stderr, "merge failed\n");
    lgg_writer_free(w);
    for (uint32_t i = 0; i < opened && i < n; i++) {
        lgg_close(files[i]);
        if (fds[i] >= 0) close(fds[i]);
    }
    return rc;
}

int main(void) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/lgg_bench_copy.XXXXXX", tmp);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 3;
    if (reps < 1) reps = 1;
    const char *big = path_in("model.gguf");
    lgg_writer *w = NULL;
    lgg_writer_create(NULL, &w, NULL);
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    int64_t ne[2] = {8192, 6400}; /* F16: 100 MiB each */
    for (int i = 0; i < 16; i++) {
        char name[64];
        snprintf(name, sizeof name, "blk.%d.weight", i);
        lgg_writer_add_tensor_callback(w, name, strlen(name), 2, ne, LGG_TYPE_F16, bench_fill, (void *)(uintptr_t)i,
                                       LGG_LITTLE_ENDIAN, NULL);
    }
    lgg_error e;
    if (lgg_writer_write_file(w, big, NULL, &e)) {
        fprintf(stderr, "create: %s\n", e.message);
        return 1;
    }
    lgg_writer_free(w);
    printf("file: %s (16 x 100 MiB F16 = 1.56 GiB)\n", big);

    double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
    const char *names[5] = {"cp", "cp + fsync", "gguf copy", "gguf split (500M: 4 shards)", "gguf merge (4 shards)"};
    const char *dst = path_in("dst.gguf"), *prefix = path_in("shard");
    uint32_t n_shards = 0;
    int fail = 0;
    for (int r = 0; r < reps && !fail; r++) {
        double t;
        t = bench_now();
        fail |= run_cp(big, dst, 0);
        t = bench_now() - t;
        if (t < best[0]) best[0] = t;
        unlink(dst);
        t = bench_now();
        fail |= run_cp(big, dst, 1);
        t = bench_now() - t;
        if (t < best[1]) best[1] = t;
        unlink(dst);
        t = bench_now();
        fail |= do_copy(big, dst);
        t = bench_now() - t;
        if (t < best[2]) best[2] = t;
        unlink(dst);
        t = bench_now();
        fail |= do_split(big, prefix, &n_shards);
        t = bench_now() - t;
        if (t < best[3]) best[3] = t;
        t = bench_now();
        fail |= do_merge(prefix, n_shards, dst);
        t = bench_now() - t;
        if (t < best[4]) best[4] = t;
        if (!fail && r == 0) {
            /* the merge gives back the file before the split */
            FILE *a = fopen(big, "rb"), *b = fopen(dst, "rb");
            static char x[1 << 20], y[1 << 20];
            size_t na, nb;
            do {
                na = a ? fread(x, 1, sizeof x, a) : 0;
                nb = b ? fread(y, 1, sizeof y, b) : 1;
                if (na != nb || memcmp(x, y, na)) {
                    fprintf(stderr, "merge(split(x)) != x\n");
                    fail = 1;
                    break;
                }
            } while (na);
            if (a) fclose(a);
            if (b) fclose(b);
        }
        unlink(dst);
        char name[700];
        for (uint32_t i = 0; i < n_shards; i++) {
            lgg_split_path(name, sizeof name, prefix, i, n_shards);
            unlink(name);
        }
    }
    unlink(big);
    rmdir(dir);
    if (fail) return 1;
    printf("best of %d:\n", reps);
    for (int i = 0; i < 5; i++)
        printf("  %-28s %8.1f ms   x%.2f of cp   x%.2f of cp + fsync\n", names[i], best[i] * 1e3, best[i] / best[0],
               best[i] / best[1]);
    return 0;
}
