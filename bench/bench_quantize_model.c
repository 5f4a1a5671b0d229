/* bench_quantize_model.c -- `gguf quantize` on the synthetic model of
 * issue 5: llama, 16 layers, embedding 2048, feed-forward 5632, 32 heads /
 * 4 KV heads, 32000-token vocabulary, random F16 weights (about 0.84B
 * parameters, 1.67 GB), written with our writer into a temporary directory.
 *
 * Times `build/gguf quantize -q IN OUT PRESET 2` for Q4_K_M, Q8_0 and Q4_0
 * (best of BENCH_REPEAT runs, default 2) and prints each against two
 * baselines: `cp IN` measured in the same run (the I/O floor) and
 * llama-quantize's figures on these machines (26.6 s, 4.75 s, 4.40 s).
 * Each run's CPU time (user+system) is printed too: on a shared machine it
 * is the steadier figure.  Every run writes a new output file (the previous
 * one is removed, untimed), as a user quantizing to a new name does.
 * With LLAMA_QUANTIZE naming a llama-quantize (llama.cpp master's: its
 * libraries on LD_LIBRARY_PATH), that one is run too, in turn with ours
 * (ours, it, ours, it ...), on the same input with the same 2 threads: the
 * ratio of the two in the same run, and whether the outputs are the same
 * bytes, are printed beside the fixed figures.
 * Env: BENCH_DIR (default $TMPDIR or /tmp), GGUF_BUILD (default build),
 * BENCH_MODEL (a path: the model is kept there and reused by later runs). */
#include "libgguf.h"
#include "bench.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { N_LAYER = 16, N_EMBD = 2048, N_FF = 5632, N_HEAD = 32, N_HEAD_KV = 4, N_VOCAB = 32000 };

/* Deterministic pseudo-random F16 weights: N(0, 0.02)-like via a sum of
 * uniforms, generated on the fly as the writer asks for bytes. */
typedef struct gen {
    uint64_t seed;
} gen;

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static lgg_status gen_read(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    (void)err;
    const gen *g = ud;
    uint16_t *h = dst;
    const uint64_t first = offset / 2;
    for (size_t i = 0; i < n / 2; i++) {
        uint64_t r = mix(g->seed ^ (first + i) * 0x9e3779b97f4a7c15ULL);
        float u = ((float)(r & 0xffff) + (float)((r >> 16) & 0xffff) + (float)((r >> 32) & 0xffff) - 98302.5f) /
                  65536.0f;
        h[i] = lgg_f32_to_f16(u * 0.035f);
    }
    return LGG_OK;
}

static lgg_status ones_read(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err) {
    (void)err;
    (void)ud;
    (void)offset;
    float *f = dst;
    for (size_t i = 0; i < n / 4; i++) f[i] = 1.0f;
    return LGG_OK;
}

static int make_model(const char *path) {
    lgg_writer *w;
    lgg_error err;
    if (lgg_writer_create(NULL, &w, &err) != LGG_OK) return -1;
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    lgg_writer_set_str(w, "general.name", "bench-0.8b", NULL);
    lgg_writer_set_u32(w, "llama.context_length", 4096, NULL);
    lgg_writer_set_u32(w, "llama.embedding_length", N_EMBD, NULL);
    lgg_writer_set_u32(w, "llama.feed_forward_length", N_FF, NULL);
    lgg_writer_set_u32(w, "llama.block_count", N_LAYER, NULL);
    lgg_writer_set_u32(w, "llama.attention.head_count", N_HEAD, NULL);
    lgg_writer_set_u32(w, "llama.attention.head_count_kv", N_HEAD_KV, NULL);
    lgg_writer_set_u32(w, "llama.rope.dimension_count", N_EMBD / N_HEAD, NULL);
    lgg_writer_set_f32(w, "llama.attention.layer_norm_rms_epsilon", 1e-5f, NULL);
    lgg_writer_set_u32(w, "general.file_type", 1, NULL);
    static gen gens[16 * 8 + 2];
    int gi = 0;
    char name[96];
    int64_t ne[2];
#define ADD_F16(nm, a, b)                                                                                          \
    do {                                                                                                           \
        ne[0] = (a);                                                                                               \
        ne[1] = (b);                                                                                               \
        gens[gi].seed = (uint64_t)gi * 7919 + 1;                                                                   \
        if (lgg_writer_add_tensor_callback(w, nm, strlen(nm), 2, ne, LGG_TYPE_F16, gen_read, &gens[gi++],         \
                                           LGG_LITTLE_ENDIAN, &err) != LGG_OK)                                     \
            goto fail;                                                                                             \
    } while (0)
#define ADD_NORM(nm)                                                                                               \
    do {                                                                                                           \
        ne[0] = N_EMBD;                                                                                            \
        if (lgg_writer_add_tensor_callback(w, nm, strlen(nm), 1, ne, LGG_TYPE_F32, ones_read, NULL,               \
                                           LGG_LITTLE_ENDIAN, &err) != LGG_OK)                                     \
            goto fail;                                                                                             \
    } while (0)
    ADD_F16("token_embd.weight", N_EMBD, N_VOCAB);
    ADD_NORM("output_norm.weight");
    ADD_F16("output.weight", N_EMBD, N_VOCAB);
    const int kv = N_EMBD / N_HEAD * N_HEAD_KV;
    for (int l = 0; l < N_LAYER; l++) {
        snprintf(name, sizeof name, "blk.%d.attn_norm.weight", l);
        ADD_NORM(name);
        snprintf(name, sizeof name, "blk.%d.attn_q.weight", l);
        ADD_F16(name, N_EMBD, N_EMBD);
        snprintf(name, sizeof name, "blk.%d.attn_k.weight", l);
        ADD_F16(name, N_EMBD, kv);
        snprintf(name, sizeof name, "blk.%d.attn_v.weight", l);
        ADD_F16(name, N_EMBD, kv);
        snprintf(name, sizeof name, "blk.%d.attn_output.weight", l);
        ADD_F16(name, N_EMBD, N_EMBD);
        snprintf(name, sizeof name, "blk.%d.ffn_norm.weight", l);
        ADD_NORM(name);
        snprintf(name, sizeof name, "blk.%d.ffn_gate.weight", l);
        ADD_F16(name, N_EMBD, N_FF);
        snprintf(name, sizeof name, "blk.%d.ffn_up.weight", l);
        ADD_F16(name, N_EMBD, N_FF);
        snprintf(name, sizeof name, "blk.%d.ffn_down.weight", l);
        ADD_F16(name, N_FF, N_EMBD);
    }
    if (lgg_writer_write_file(w, path, NULL, &err) != LGG_OK) goto fail;
    lgg_writer_free(w);
    return 0;
fail:
    fprintf(stderr, "bench: %s\n", err.message);
    lgg_writer_free(w);
    return -1;
}

/* Wall seconds of one run; *cpu gets its user+system seconds (what the
 * run costs whatever else shares the machine). */
static double run_cpu(char *const argv[], double *cpu) {
    double t0 = bench_now();
    pid_t pid;
    if (posix_spawn(&pid, argv[0], NULL, NULL, argv, environ) != 0) return -1;
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return -1;
    if (cpu)
        *cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec * 1e-6;
    return bench_now() - t0;
}
static double run(char *const argv[]) { return run_cpu(argv, NULL); }

/* Whether two files hold the same bytes. */
static bool same_file(const char *a, const char *b) {
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    static char x[1 << 16], y[1 << 16];
    while (same) {
        size_t na = fread(x, 1, sizeof x, fa), nb = fread(y, 1, sizeof y, fb);
        same = na == nb && !memcmp(x, y, na);
        if (na < sizeof x) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* ours (argv, writing out) and llama-quantize `lq` in turn, repeat times
 * each; prints the best of each, their ratio and whether the outputs are
 * the same bytes; 1 when a run failed. */
static int versus(char *const ours[], const char *lq, const char *in, const char *out, const char *dir,
                  const char *preset, int repeat) {
    char theirs_out[700];
    snprintf(theirs_out, sizeof theirs_out, "%s/theirs.gguf", dir);
    char *lq_argv[] = {(char *)lq, (char *)in, theirs_out, (char *)preset, "2", NULL};
    double best_a = 1e30, best_b = 1e30, cpu_a = 1e30, cpu_b = 1e30;
    bool same = true;
    for (int r = 0; r < repeat; r++) {
        unlink(out), unlink(theirs_out);
        double ca = 0, cb = 0, a = run_cpu(ours, &ca), b = run_cpu(lq_argv, &cb);
        if (a < 0 || b < 0) {
            fprintf(stderr, "bench: %s failed\n", a < 0 ? "gguf quantize" : lq);
            return 1;
        }
        same = same && same_file(out, theirs_out);
        if (a < best_a) best_a = a;
        if (b < best_b) best_b = b;
        if (ca < cpu_a) cpu_a = ca;
        if (cb < cpu_b) cpu_b = cb;
    }
    unlink(out), unlink(theirs_out);
    printf("  vs LLAMA_QUANTIZE in the same run: %6.2f s (cpu %6.2f s) against %6.2f s (cpu %6.2f s): %5.2fx faster "
           "(cpu %5.2fx), output %s\n",
           best_a, cpu_a, best_b, cpu_b, best_b / best_a, cpu_b / cpu_a, same ? "byte-identical" : "DIFFERENT");
    return same ? 0 : 1;
}

int main(void) {
    const char *base = getenv("BENCH_DIR") ? getenv("BENCH_DIR") : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    const char *build = getenv("GGUF_BUILD") ? getenv("GGUF_BUILD") : "build";
    int repeat = getenv("BENCH_REPEAT") ? atoi(getenv("BENCH_REPEAT")) : 2;
    if (repeat < 1) repeat = 1;
    char dir[512], in[600], out[600], tool[600];
    snprintf(dir, sizeof dir, "%s/lggbench.XXXXXX", base);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const char *keep = getenv("BENCH_MODEL");
    snprintf(in, sizeof in, "%s", keep ? keep : "");
    if (!keep) snprintf(in, sizeof in, "%s/model-f16.gguf", dir);
    snprintf(out, sizeof out, "%s/out.gguf", dir);
    snprintf(tool, sizeof tool, "%s/gguf", build);
    double t0 = bench_now();
    if (!keep || access(in, R_OK) != 0) {
        if (make_model(in) != 0) return 1;
        printf("synthetic model written in %.2f s\n", bench_now() - t0);
    }

    /* warm the page cache and measure the I/O floor */
    char *cp_argv[] = {"/bin/cp", in, out, NULL};
    double cp = 1e30;
    for (int r = 0; r < repeat + 1; r++) {
        double t = run(cp_argv);
        unlink(out);
        if (t > 0 && t < cp) cp = t;
    }
    printf("cp of the input (I/O floor): %.2f s\n", cp);
    static const struct {
        const char *preset;
        double llama;
    } P[] = {{"Q4_K_M", 26.6}, {"Q8_0", 4.75}, {"Q4_0", 4.40}};
    int rc = 0;
    const char *master = getenv("LLAMA_QUANTIZE");
    if (master && access(master, X_OK) != 0) {
        fprintf(stderr, "bench: LLAMA_QUANTIZE=%s is not an executable\n", master);
        return 1;
    }
    for (size_t i = 0; i < 6; i++) {
        const bool sync = i >= 3;
        char *argv[] = {tool, "quantize", "-q", sync ? "-q" : "--no-fsync", in, out, (char *)P[i % 3].preset, "2", NULL};
        double best = 1e30, best_cpu = 1e30;
        for (int r = 0; r < repeat; r++) {
            /* each run writes a new file, as cp above does: renaming over an
             * existing output makes ext4 (auto_da_alloc) start writeback of
             * the new data inside rename(), and freeing the old file's pages
             * is charged to the run too, ~0.3 s for a 0.5 GB file */
            unlink(out);
            double c = 0, t = run_cpu(argv, &c);
            if (c < best_cpu) best_cpu = c;
            if (t < 0) {
                fprintf(stderr, "bench: gguf quantize %s failed\n", P[i % 3].preset);
                rc = 1;
                break;
            }
            if (t < best) best = t;
        }
        unlink(out);
        if (rc) break;
        if (i == 3) printf("with fsync before the rename (durable; cp and llama-quantize do not sync):\n");
        printf("gguf quantize %-7s 2 threads%s: %6.2f s (cpu %6.2f s) = %5.2fx cp | llama-quantize %5.2f s: %5.2fx faster\n",
               P[i % 3].preset, sync ? "" : " --no-fsync", best, best_cpu, best / cp, P[i % 3].llama,
               P[i % 3].llama / best);
        if (!sync && master) rc |= versus(argv, master, in, out, dir, P[i].preset, repeat);
    }
    if (!keep) unlink(in);
    rmdir(dir);
    return rc;
}
