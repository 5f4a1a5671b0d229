/* bench_hash.c -- `gguf hash` on a 1.67 GB model against the baselines of
 * the same run: `openssl dgst -sha256` over the file (--sha256 should be
 * within 1.3x), `cat FILE > /dev/null` from the page cache (--xxh64 should
 * be as fast), and llama-gguf-hash --sha256 when LLAMA_GGUF_HASH names one
 * (this should be 8x faster).  Wall time best of BENCH_REPS (default 3),
 * each command's peak RSS from wait4.
 *
 * The model (F16, a 15-layer llama-like shape, 137 tensors) is written with
 * the library's writer to BENCH_HASH_MODEL (default $TMPDIR/bench-hash-model.gguf,
 * TMPDIR default /tmp) if it does not exist; a model this run created at
 * the default path is removed at the end (one at BENCH_HASH_MODEL is kept
 * for the next run).  GGUF_BUILD (default build) locates the gguf tool. */
#include "libgguf.h"
#include "bench.h"

#include <fcntl.h>
#include <stdbool.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int add(lgg_writer *w, const char *name, int64_t n0, int64_t n1, uintptr_t seed) {
    int64_t ne[2] = {n0, n1};
    lgg_error e;
    if (lgg_writer_add_tensor_callback(w, name, strlen(name), n1 > 1 ? 2 : 1, ne, LGG_TYPE_F16, bench_fill,
                                       (void *)seed, LGG_LITTLE_ENDIAN, &e) == LGG_OK)
        return 0;
    fprintf(stderr, "bench_hash: %s: %s\n", name, e.message);
    return 1;
}

static int make_model(const char *path) {
    static const char *const ATTN[4] = {"attn_q", "attn_k", "attn_v", "attn_output"};
    static const char *const FFN[3] = {"ffn_gate", "ffn_up", "ffn_down"};
    lgg_writer *w = NULL;
    lgg_error e;
    if (lgg_writer_create(NULL, &w, &e) || lgg_writer_set_str(w, "general.architecture", "llama", &e)) return 1;
    int rc = add(w, "token_embd.weight", 2048, 32000, 1);
    char name[64];
    for (int l = 0; l < 15 && !rc; l++) {
        for (int k = 0; k < 4 && !rc; k++) {
            snprintf(name, sizeof name, "blk.%d.%s.weight", l, ATTN[k]);
            rc = add(w, name, 2048, 2048, (uintptr_t)(l * 16 + k));
        }
        for (int k = 0; k < 3 && !rc; k++) {
            snprintf(name, sizeof name, "blk.%d.%s.weight", l, FFN[k]);
            rc = add(w, name, k == 2 ? 5632 : 2048, k == 2 ? 2048 : 5632, (uintptr_t)(l * 16 + 4 + k));
        }
        snprintf(name, sizeof name, "blk.%d.attn_norm.weight", l);
        rc = rc || add(w, name, 2048, 1, 7);
        snprintf(name, sizeof name, "blk.%d.ffn_norm.weight", l);
        rc = rc || add(w, name, 2048, 1, 9);
    }
    rc = rc || add(w, "output_norm.weight", 2048, 1, 3);
    if (!rc && lgg_writer_write_file(w, path, NULL, &e)) {
        fprintf(stderr, "bench_hash: %s: %s\n", path, e.message);
        rc = 1;
    }
    lgg_writer_free(w);
    return rc;
}

typedef struct result {
    double secs;
    long rss_kib;
} result;

/* Best wall time of `reps` runs of argv (stdout to /dev/null); -1 on failure. */
static result timed(char *const argv[], int reps) {
    result best = {-1, 0};
    for (int r = 0; r < reps; r++) {
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
        pid_t pid;
        double t0 = bench_now();
        int bad = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
        posix_spawn_file_actions_destroy(&fa);
        int st = 0;
        struct rusage ru;
        if (bad || wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
            fprintf(stderr, "bench_hash: %s failed\n", argv[0]);
            return (result){-1, 0};
        }
        double dt = bench_now() - t0;
        if (best.secs < 0 || dt < best.secs) best.secs = dt;
        if (ru.ru_maxrss > best.rss_kib) best.rss_kib = ru.ru_maxrss;
    }
    return best;
}

static void show(const char *what, result r, double gb) {
    printf("  %-34s %7.3f s  %6.2f GB/s  peak RSS %6.1f MiB\n", what, r.secs, gb / r.secs, r.rss_kib / 1024.0);
}

int main(void) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[1024], tool[1024];
    if (getenv("BENCH_HASH_MODEL")) snprintf(path, sizeof path, "%s", getenv("BENCH_HASH_MODEL"));
    else snprintf(path, sizeof path, "%s/bench-hash-model.gguf", tmp);
    snprintf(tool, sizeof tool, "%s/gguf", getenv("GGUF_BUILD") ? getenv("GGUF_BUILD") : "build");
    int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 3;
    if (reps < 1) reps = 1;
    bool created = access(path, R_OK) != 0, keep = getenv("BENCH_HASH_MODEL") != NULL;
    if (created && make_model(path)) return 1;
    lgg_file *f = NULL;
    if (lgg_open_file(path, NULL, &f, NULL)) return 1;
    double gb = (double)lgg_file_size(f) / 1e9;
    printf("model %s: %.2f GB, %llu tensors; best of %d\n", path, gb, (unsigned long long)lgg_tensor_count(f), reps);
    lgg_close(f);

    char *cat[] = {"cat", path, NULL};
    char *ossl[] = {"openssl", "dgst", "-sha256", path, NULL};
    char *sha[] = {tool, "hash", "--sha256", path, NULL};
    char *sha_nl[] = {tool, "hash", "--sha256", "--no-layer", path, NULL};
    char *xxh[] = {tool, "hash", "--xxh64", path, NULL};
    timed(cat, 1); /* into the page cache */
    result r_cat = timed(cat, reps), r_ossl = timed(ossl, reps), r_sha = timed(sha, reps),
           r_sha_nl = timed(sha_nl, reps), r_xxh = timed(xxh, reps);
    if (r_cat.secs < 0 || r_ossl.secs < 0 || r_sha.secs < 0 || r_sha_nl.secs < 0 || r_xxh.secs < 0) return 1;
    show("cat FILE > /dev/null", r_cat, gb);
    show("openssl dgst -sha256", r_ossl, gb);
    show("gguf hash --sha256", r_sha, gb);
    show("gguf hash --sha256 --no-layer", r_sha_nl, gb);
    show("gguf hash --xxh64", r_xxh, gb);
    printf("ratios (time / baseline time):\n");
    printf("  gguf hash --sha256 / openssl dgst -sha256            %.2fx (target <= 1.3)\n", r_sha.secs / r_ossl.secs);
    printf("  gguf hash --sha256 --no-layer / openssl dgst -sha256 %.2fx\n", r_sha_nl.secs / r_ossl.secs);
    printf("  gguf hash --xxh64 / cat                              %.2fx (target ~1)\n", r_xxh.secs / r_cat.secs);
    const char *llama = getenv("LLAMA_GGUF_HASH");
    if (llama && *llama) {
        char *ll[] = {(char *)llama, "--sha256", path, NULL};
        result r_ll = timed(ll, reps);
        if (r_ll.secs < 0) return 1;
        show("llama-gguf-hash --sha256", r_ll, gb);
        printf("  llama-gguf-hash --sha256 / gguf hash --sha256        %.2fx faster (target >= 8)\n",
               r_ll.secs / r_sha.secs);
    } else {
        printf("  (set LLAMA_GGUF_HASH=/path/to/llama-gguf-hash to compare with it)\n");
    }
    if (created && !keep) unlink(path);
    return 0;
}
