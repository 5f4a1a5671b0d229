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
 *
 * Then MXFP4_MOE (issue 35) on a synthetic MoE model: qwen3moe with
 * Qwen3-30B-A3B's shapes (embedding 2048, 32 heads of 128 / 4 KV heads,
 * q/k norms, experts of 2048 x 768) cut to 4 layers of 32 experts and a
 * 32000-token vocabulary (about 0.81B parameters, 1.6 GB of F16): the
 * experts become MXFP4, the rest Q8_0; against LLAMA_QUANTIZE in the same
 * run when it is set.
 * Env: BENCH_DIR (default $TMPDIR or /tmp), GGUF_BUILD (default build),
 * BENCH_MODEL, BENCH_MOE_MODEL (paths: the models are kept there and
 * reused by later runs), BENCH_PART ("dense" or "moe": only that part). */
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

/* The MoE model's sizes (Qwen3-30B-A3B's widths, fewer layers and experts). */
enum { MOE_LAYER = 4, MOE_EMBD = 2048, MOE_HEAD = 32, MOE_HEAD_KV = 4, MOE_HEAD_DIM = 128, MOE_FF = 768, MOE_EXPERTS = 32,
       MOE_USED = 8, MOE_VOCAB = 32000 };

/* One tensor of seeded F16 weights (ne2 > 1: 3-d) or of F32 ones (f32). */
static lgg_status add_moe(lgg_writer *w, const char *name, int64_t ne0, int64_t ne1, int64_t ne2, bool f32, lgg_error *err) {
    static gen gens[MOE_LAYER * 16 + 4];
    static int gi;
    int64_t ne[3] = {ne0, ne1, ne2};
    uint32_t nd = ne2 > 1 ? 3 : ne1 > 1 ? 2 : 1;
    if (f32) return lgg_writer_add_tensor_callback(w, name, strlen(name), nd, ne, LGG_TYPE_F32, ones_read, NULL, LGG_LITTLE_ENDIAN, err);
    gens[gi].seed = (uint64_t)gi * 104729 + 7;
    return lgg_writer_add_tensor_callback(w, name, strlen(name), nd, ne, LGG_TYPE_F16, gen_read, &gens[gi++], LGG_LITTLE_ENDIAN, err);
}

/* Block l of the MoE model: attention with q/k norms, a router and the experts. */
static lgg_status add_moe_block(lgg_writer *w, int l, lgg_error *err) {
    static const struct {
        const char *name;
        int64_t ne0, ne1, ne2;
        bool f32;
    } B[] = {
        {"attn_norm", MOE_EMBD, 1, 1, true}, {"attn_q", MOE_EMBD, MOE_HEAD * MOE_HEAD_DIM, 1, false},
        {"attn_k", MOE_EMBD, MOE_HEAD_KV * MOE_HEAD_DIM, 1, false}, {"attn_v", MOE_EMBD, MOE_HEAD_KV * MOE_HEAD_DIM, 1, false},
        {"attn_output", MOE_HEAD * MOE_HEAD_DIM, MOE_EMBD, 1, false}, {"attn_q_norm", MOE_HEAD_DIM, 1, 1, true},
        {"attn_k_norm", MOE_HEAD_DIM, 1, 1, true}, {"ffn_norm", MOE_EMBD, 1, 1, true},
        {"ffn_gate_inp", MOE_EMBD, MOE_EXPERTS, 1, true}, {"ffn_gate_exps", MOE_EMBD, MOE_FF, MOE_EXPERTS, false},
        {"ffn_down_exps", MOE_FF, MOE_EMBD, MOE_EXPERTS, false}, {"ffn_up_exps", MOE_EMBD, MOE_FF, MOE_EXPERTS, false},
    };
    lgg_status st = LGG_OK;
    char name[96];
    for (size_t i = 0; !st && i < sizeof B / sizeof B[0]; i++) {
        snprintf(name, sizeof name, "blk.%d.%s.weight", l, B[i].name);
        st = add_moe(w, name, B[i].ne0, B[i].ne1, B[i].ne2, B[i].f32, err);
    }
    return st;
}

static int make_moe_model(const char *path) {
    lgg_writer *w;
    lgg_error err;
    if (lgg_writer_create(NULL, &w, &err) != LGG_OK) return -1;
    static const struct {
        const char *key;
        uint32_t v;
    } U[] = {{"qwen3moe.context_length", 40960}, {"qwen3moe.embedding_length", MOE_EMBD},
             {"qwen3moe.feed_forward_length", 6144}, {"qwen3moe.block_count", MOE_LAYER},
             {"qwen3moe.attention.head_count", MOE_HEAD}, {"qwen3moe.attention.head_count_kv", MOE_HEAD_KV},
             {"qwen3moe.attention.key_length", MOE_HEAD_DIM}, {"qwen3moe.attention.value_length", MOE_HEAD_DIM},
             {"qwen3moe.expert_count", MOE_EXPERTS}, {"qwen3moe.expert_used_count", MOE_USED},
             {"qwen3moe.expert_feed_forward_length", MOE_FF}, {"general.file_type", 1}};
    lgg_writer_set_str(w, "general.architecture", "qwen3moe", NULL);
    lgg_writer_set_str(w, "general.name", "bench-moe-0.8b", NULL);
    for (size_t i = 0; i < sizeof U / sizeof U[0]; i++) lgg_writer_set_u32(w, U[i].key, U[i].v, NULL);
    lgg_writer_set_f32(w, "qwen3moe.rope.freq_base", 1e6f, NULL);
    lgg_writer_set_f32(w, "qwen3moe.attention.layer_norm_rms_epsilon", 1e-6f, NULL);
    lgg_status st = add_moe(w, "token_embd.weight", MOE_EMBD, MOE_VOCAB, 1, false, &err);
    if (!st) st = add_moe(w, "output_norm.weight", MOE_EMBD, 1, 1, true, &err);
    if (!st) st = add_moe(w, "output.weight", MOE_EMBD, MOE_VOCAB, 1, false, &err);
    for (int l = 0; !st && l < MOE_LAYER; l++) st = add_moe_block(w, l, &err);
    if (!st) st = lgg_writer_write_file(w, path, NULL, &err);
    if (st) fprintf(stderr, "bench: %s\n", err.message);
    lgg_writer_free(w);
    return st ? -1 : 0;
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

/* The I/O floor: best `cp in out` of repeat + 1 (the first warms the page cache). */
static double cp_floor(const char *in, const char *out, int repeat) {
    char *cp_argv[] = {"/bin/cp", (char *)in, (char *)out, NULL};
    double cp = 1e30;
    for (int r = 0; r < repeat + 1; r++) {
        double t = run(cp_argv);
        unlink(out);
        if (t > 0 && t < cp) cp = t;
    }
    return cp;
}

/* Best wall and cpu seconds of repeat runs of argv (each writing a new
 * `out`: renaming over an existing output makes ext4 (auto_da_alloc) start
 * writeback of the new data inside rename(), and freeing the old file's
 * pages is charged to the run too, ~0.3 s for a 0.5 GB file); 1 on failure. */
static int best_of(char *const argv[], const char *out, int repeat, double *best, double *best_cpu) {
    *best = *best_cpu = 1e30;
    for (int r = 0; r < repeat; r++) {
        unlink(out);
        double c = 0, t = run_cpu(argv, &c);
        if (t < 0) return 1;
        if (c < *best_cpu) *best_cpu = c;
        if (t < *best) *best = t;
    }
    unlink(out);
    return 0;
}

/* Q4_K_M, Q8_0 and Q4_0 on the dense model, without and with fsync. */
static int dense_part(const char *tool, const char *in, const char *out, const char *dir, const char *master, int repeat) {
    double cp = cp_floor(in, out, repeat);
    printf("cp of the input (I/O floor): %.2f s\n", cp);
    static const struct {
        const char *preset;
        double llama;
    } P[] = {{"Q4_K_M", 26.6}, {"Q8_0", 4.75}, {"Q4_0", 4.40}};
    int rc = 0;
    for (size_t i = 0; i < 6 && !rc; i++) {
        const bool sync = i >= 3;
        char *argv[] = {(char *)tool, "quantize", "-q", sync ? "-q" : "--no-fsync", (char *)in, (char *)out, (char *)P[i % 3].preset, "2", NULL};
        double best, best_cpu;
        if (best_of(argv, out, repeat, &best, &best_cpu)) {
            fprintf(stderr, "bench: gguf quantize %s failed\n", P[i % 3].preset);
            return 1;
        }
        if (i == 3) printf("with fsync before the rename (durable; cp and llama-quantize do not sync):\n");
        printf("gguf quantize %-7s 2 threads%s: %6.2f s (cpu %6.2f s) = %5.2fx cp | llama-quantize %5.2f s: %5.2fx faster\n",
               P[i % 3].preset, sync ? "" : " --no-fsync", best, best_cpu, best / cp, P[i % 3].llama,
               P[i % 3].llama / best);
        if (!sync && master) rc |= versus(argv, master, in, out, dir, P[i].preset, repeat);
    }
    return rc;
}

/* MXFP4_MOE on the MoE model (made at `in` unless there). */
static int moe_part(const char *tool, const char *in, const char *out, const char *dir, const char *master, int repeat) {
    double t0 = bench_now();
    if (access(in, R_OK) != 0) {
        if (make_moe_model(in) != 0) return 1;
        printf("synthetic MoE model (qwen3moe, %d layers of %d experts of %d x %d) written in %.2f s\n", MOE_LAYER,
               MOE_EXPERTS, MOE_EMBD, MOE_FF, bench_now() - t0);
    }
    double cp = cp_floor(in, out, repeat), best, best_cpu;
    printf("MoE model: cp of the input (I/O floor): %.2f s\n", cp);
    char *argv[] = {(char *)tool, "quantize", "-q", "--no-fsync", (char *)in, (char *)out, "MXFP4_MOE", "2", NULL};
    if (best_of(argv, out, repeat, &best, &best_cpu)) {
        fprintf(stderr, "bench: gguf quantize MXFP4_MOE failed\n");
        return 1;
    }
    printf("gguf quantize MXFP4_MOE 2 threads --no-fsync: %6.2f s (cpu %6.2f s) = %5.2fx cp\n", best, best_cpu, best / cp);
    return master ? versus(argv, master, in, out, dir, "MXFP4_MOE", repeat) : 0;
}

int main(void) {
    const char *base = getenv("BENCH_DIR") ? getenv("BENCH_DIR") : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    const char *build = getenv("GGUF_BUILD") ? getenv("GGUF_BUILD") : "build";
    const char *part = getenv("BENCH_PART") ? getenv("BENCH_PART") : "";
    int repeat = getenv("BENCH_REPEAT") ? atoi(getenv("BENCH_REPEAT")) : 2;
    if (repeat < 1) repeat = 1;
    char dir[512], in[600], moe_in[600], out[600], tool[600];
    snprintf(dir, sizeof dir, "%s/lggbench.XXXXXX", base);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    const char *keep = getenv("BENCH_MODEL"), *moe_keep = getenv("BENCH_MOE_MODEL");
    snprintf(in, sizeof in, "%s", keep ? keep : "");
    if (!keep) snprintf(in, sizeof in, "%s/model-f16.gguf", dir);
    snprintf(moe_in, sizeof moe_in, "%s", moe_keep ? moe_keep : "");
    if (!moe_keep) snprintf(moe_in, sizeof moe_in, "%s/moe-f16.gguf", dir);
    snprintf(out, sizeof out, "%s/out.gguf", dir);
    snprintf(tool, sizeof tool, "%s/gguf", build);
    const char *master = getenv("LLAMA_QUANTIZE");
    if (master && access(master, X_OK) != 0) {
        fprintf(stderr, "bench: LLAMA_QUANTIZE=%s is not an executable\n", master);
        return 1;
    }
    int rc = 0;
    if (strcmp(part, "moe")) {
        double t0 = bench_now();
        if (!keep || access(in, R_OK) != 0) {
            if (make_model(in) != 0) return 1;
            printf("synthetic model written in %.2f s\n", bench_now() - t0);
        }
        rc |= dense_part(tool, in, out, dir, master, repeat);
        if (!keep) unlink(in);
    }
    if (strcmp(part, "dense")) rc |= moe_part(tool, moe_in, out, dir, master, repeat);
    if (!moe_keep) unlink(moe_in);
    rmdir(dir);
    return rc;
}
