/* bench_convert.c -- gguf convert on a ~1B-parameter bf16 checkpoint in
 * Hugging Face layout (random weights, a llama shape: 20 layers, hidden
 * 2048, two safetensors shards and their index, a 32000-piece
 * SentencePiece vocabulary), made outside the repository in $BENCH_DIR
 * (default /tmp) and removed at the end.
 *
 * A second checkpoint, a DeepSeek MoE (~0.55B, 16 experts in 7 layers), is
 * then made the same way and converted to f16 and Q4_K_M against cp of its
 * shards.
 *
 * Prints, all measured in this run: `cp` of the shards (the baseline: the
 * same bytes read and written), --outtype f16 and --outtype Q4_K_M (fused
 * conversion + quantization) as ratios to it, and the converter's peak
 * anonymous memory (sampled at every chunk) against the largest tensor.
 * Outputs are written without fsync, as cp writes.
 *
 * The reference converter is built and run outside the repository: with
 * LGG_BENCH_REFERENCE set to a shell command prefix that runs it (for
 * instance "PYTHONPATH=... python3 .../convert_hf_to_gguf.py"), it is timed
 * once with --outtype f16 (and --outtype auto followed by
 * $LGG_BENCH_LLAMA_QUANTIZE, a llama-quantize binary, when that is set),
 * and the ratios to it are printed too.  BENCH_KEEP=1 keeps the checkpoint
 * (to profile the converter on it); BENCH_ONE_PASS=1 times only the one
 * pass against the three single runs (and BENCH_REPS pairs of them, default
 * 2), with the source in the page cache, then read from the disk. */
#include "bench.h"
#include "libgguf_convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

enum { HIDDEN = 2048, LAYERS = 20, FF = 5632, VOCAB = 32000, HEADS = 32, KV = 4 };

typedef struct spec {
    char name[96];
    uint64_t rows, cols;
} spec;

/* A DeepSeek MoE checkpoint (DeepseekForCausalLM, llama's attention):
 * hidden 1024, 8 layers, the first dense, the others with 16 routed
 * experts of width 704 and 2 shared ones (~0.55B parameters in ~400
 * tensors, the converter stacking each layer's experts into 3-D tensors). */
enum { MOE_H = 1024, MOE_L = 8, MOE_FF = 2816, MOE_E = 16, MOE_MF = 704, MOE_SHARED = 2, MOE_HEADS = 16 };

static size_t moe_specs(spec *s) {
    size_t n = 0;
#define PUT(r, c, ...) (snprintf(s[n].name, sizeof s[n].name, __VA_ARGS__), s[n].rows = (r), s[n++].cols = (c))
    PUT(VOCAB, MOE_H, "lm_head.weight");
    PUT(VOCAB, MOE_H, "model.embed_tokens.weight");
    PUT(1, MOE_H, "model.norm.weight");
    for (int l = 0; l < MOE_L; l++) {
        PUT(1, MOE_H, "model.layers.%d.input_layernorm.weight", l);
        PUT(1, MOE_H, "model.layers.%d.post_attention_layernorm.weight", l);
        static const char *const qkvo[] = {"q", "k", "v", "o"};
        for (int k = 0; k < 4; k++) PUT(MOE_H, MOE_H, "model.layers.%d.self_attn.%s_proj.weight", l, qkvo[k]);
        if (l == 0) {
            PUT(MOE_FF, MOE_H, "model.layers.%d.mlp.gate_proj.weight", l);
            PUT(MOE_FF, MOE_H, "model.layers.%d.mlp.up_proj.weight", l);
            PUT(MOE_H, MOE_FF, "model.layers.%d.mlp.down_proj.weight", l);
            continue;
        }
        PUT(MOE_E, MOE_H, "model.layers.%d.mlp.gate.weight", l);
        for (int x = 0; x < MOE_E; x++) {
            PUT(MOE_MF, MOE_H, "model.layers.%d.mlp.experts.%d.gate_proj.weight", l, x);
            PUT(MOE_MF, MOE_H, "model.layers.%d.mlp.experts.%d.up_proj.weight", l, x);
            PUT(MOE_H, MOE_MF, "model.layers.%d.mlp.experts.%d.down_proj.weight", l, x);
        }
        PUT(MOE_MF * MOE_SHARED, MOE_H, "model.layers.%d.mlp.shared_experts.gate_proj.weight", l);
        PUT(MOE_MF * MOE_SHARED, MOE_H, "model.layers.%d.mlp.shared_experts.up_proj.weight", l);
        PUT(MOE_H, MOE_MF * MOE_SHARED, "model.layers.%d.mlp.shared_experts.down_proj.weight", l);
    }
#undef PUT
    return n;
}

static size_t specs(spec *s) {
    size_t n = 0;
    snprintf(s[n].name, sizeof s[n].name, "lm_head.weight"), s[n].rows = VOCAB, s[n++].cols = HIDDEN;
    snprintf(s[n].name, sizeof s[n].name, "model.embed_tokens.weight"), s[n].rows = VOCAB, s[n++].cols = HIDDEN;
    snprintf(s[n].name, sizeof s[n].name, "model.norm.weight"), s[n].rows = 1, s[n++].cols = HIDDEN;
    static const struct { const char *n; uint64_t r, c; } L[] = {
        {"input_layernorm", 1, HIDDEN}, {"post_attention_layernorm", 1, HIDDEN},
        {"self_attn.q_proj", HIDDEN, HIDDEN}, {"self_attn.k_proj", HIDDEN / HEADS * KV, HIDDEN},
        {"self_attn.v_proj", HIDDEN / HEADS * KV, HIDDEN}, {"self_attn.o_proj", HIDDEN, HIDDEN},
        {"mlp.gate_proj", FF, HIDDEN}, {"mlp.up_proj", FF, HIDDEN}, {"mlp.down_proj", HIDDEN, FF}};
    for (int l = 0; l < LAYERS; l++)
        for (size_t k = 0; k < sizeof L / sizeof L[0]; k++) {
            snprintf(s[n].name, sizeof s[n].name, "model.layers.%d.%s.weight", l, L[k].n);
            s[n].rows = L[k].r, s[n++].cols = L[k].c;
        }
    return n;
}

/* The checkpoints' two shards. */
static const char *const SHARDS[2] = {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"};

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint16_t rand_bf16(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    float f = (float)((int64_t)(rng >> 11) - (1ll << 52)) * (0.05f / (float)(1ll << 52));
    return lgg_f32_to_bf16(f);
}

/* One shard with tensors [a, b) of s. */
static int write_shard(const char *dir, const char *file, const spec *s, size_t a, size_t b, FILE *index) {
    char path[4200], *hdr = malloc(1 << 20);
    size_t hl = 0;
    uint64_t off = 0;
    hl += (size_t)sprintf(hdr + hl, "{\"__metadata__\":{\"format\":\"pt\"}");
    for (size_t i = a; i < b; i++) {
        uint64_t bytes = s[i].rows * s[i].cols * 2;
        if (s[i].rows == 1)
            hl += (size_t)sprintf(hdr + hl, ",\"%s\":{\"dtype\":\"BF16\",\"shape\":[%llu],\"data_offsets\":[%llu,%llu]}",
                                  s[i].name, (unsigned long long)s[i].cols, (unsigned long long)off,
                                  (unsigned long long)(off + bytes));
        else
            hl += (size_t)sprintf(hdr + hl, ",\"%s\":{\"dtype\":\"BF16\",\"shape\":[%llu,%llu],\"data_offsets\":[%llu,%llu]}",
                                  s[i].name, (unsigned long long)s[i].rows, (unsigned long long)s[i].cols,
                                  (unsigned long long)off, (unsigned long long)(off + bytes));
        fprintf(index, "%s\"%s\":\"%s\"", ftell(index) > 40 ? "," : "", s[i].name, file);
        off += bytes;
    }
    hl += (size_t)sprintf(hdr + hl, "}");
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    if (!f) return free(hdr), 0;
    uint64_t hl64 = hl;
    fwrite(&hl64, 8, 1, f);
    fwrite(hdr, 1, hl, f);
    free(hdr);
    uint16_t *buf = malloc(1 << 21);
    for (size_t i = a; i < b; i++)
        for (uint64_t left = s[i].rows * s[i].cols; left;) {
            size_t k = left < (1 << 20) ? (size_t)left : (1 << 20);
            for (size_t j = 0; j < k; j++) buf[j] = rand_bf16();
            fwrite(buf, 2, k, f);
            left -= k;
        }
    free(buf);
    return fclose(f) == 0;
}

static void write_spm(const char *dir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/tokenizer.model", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    for (int i = 0; i < VOCAB; i++) {
        char piece[32];
        int l = i < 3 ? snprintf(piece, sizeof piece, "%s", i == 0 ? "<unk>" : i == 1 ? "<s>" : "</s>")
                      : snprintf(piece, sizeof piece, "tok%d", i);
        float score = -(float)i;
        uint8_t msg[64];
        size_t m = 0;
        msg[m++] = 0x0a, msg[m++] = (uint8_t)l;
        memcpy(msg + m, piece, (size_t)l), m += (size_t)l;
        msg[m++] = 0x15, memcpy(msg + m, &score, 4), m += 4;
        msg[m++] = 0x18, msg[m++] = i == 0 ? 2 : i < 3 ? 3 : 1;
        uint8_t head[2] = {0x0a, (uint8_t)m};
        fwrite(head, 1, 2, f);
        fwrite(msg, 1, m, f);
    }
    fclose(f);
}

static int make_model(const char *dir, int moe, uint64_t *largest) {
    static spec s[1024];
    size_t n = moe ? moe_specs(s) : specs(s), half = n / 2;
    *largest = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i].rows * s[i].cols * 2 > *largest) *largest = s[i].rows * s[i].cols * 2;
    char path[4200];
    snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
    FILE *idx = fopen(path, "w");
    if (!idx) return 0;
    fprintf(idx, "{\"metadata\":{},\"weight_map\":{");
    int ok = write_shard(dir, SHARDS[0], s, 0, half, idx) && write_shard(dir, SHARDS[1], s, half, n, idx);
    fprintf(idx, "}}");
    fclose(idx);
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *c = fopen(path, "w");
    if (!c) return 0;
    if (moe)
        fprintf(c, "{\"architectures\":[\"DeepseekForCausalLM\"],\"first_k_dense_replace\":1,\"hidden_size\":%d,"
                   "\"intermediate_size\":%d,\"moe_intermediate_size\":%d,\"moe_layer_freq\":1,\"n_routed_experts\":%d,"
                   "\"n_shared_experts\":%d,\"norm_topk_prob\":false,\"num_attention_heads\":%d,\"num_experts_per_tok\":2,"
                   "\"num_hidden_layers\":%d,\"num_key_value_heads\":%d,\"rms_norm_eps\":1e-06,\"rope_theta\":10000,"
                   "\"max_position_embeddings\":4096,\"scoring_func\":\"softmax\",\"tie_word_embeddings\":false,"
                   "\"bos_token_id\":1,\"eos_token_id\":2,\"torch_dtype\":\"bfloat16\",\"vocab_size\":%d}",
                MOE_H, MOE_FF, MOE_MF, MOE_E, MOE_SHARED, MOE_HEADS, MOE_L, MOE_HEADS, VOCAB);
    else fprintf(c, "{\"architectures\":[\"LlamaForCausalLM\"],\"hidden_size\":%d,\"intermediate_size\":%d,"
               "\"num_attention_heads\":%d,\"num_key_value_heads\":%d,\"num_hidden_layers\":%d,\"vocab_size\":%d,"
               "\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"max_position_embeddings\":4096,"
               "\"bos_token_id\":1,\"eos_token_id\":2,\"torch_dtype\":\"bfloat16\"}",
            HIDDEN, FF, HEADS, KV, LAYERS, VOCAB);
    fclose(c);
    write_spm(dir);
    return ok;
}

static uint64_t peak_anon;
static void sample_anon(void *ud, uint64_t done, uint64_t total) {
    (void)ud, (void)done, (void)total;
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "RssAnon:", 8)) {
            uint64_t kb = strtoull(line + 8, NULL, 10) * 1024;
            if (kb > peak_anon) peak_anon = kb;
        }
    if (f) fclose(f);
}

static double run_convert(const char *dir, const char *out, const char *preset) {
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = preset ? LGG_CONVERT_AUTO : LGG_CONVERT_F16;
    lgg_convert *c = NULL;
    lgg_error err;
    double t0 = bench_now();
    if (lgg_convert_open(dir, &o, &c, &err)) {
        fprintf(stderr, "bench_convert: %s\n", err.message);
        return -1;
    }
    lgg_convert_set_progress(c, sample_anon, NULL);
    lgg_status st;
    if (preset) {
        lgg_quant_options qo;
        lgg_quant_options_init(&qo);
        qo.preset = lgg_quant_preset_find(preset);
        lgg_quant_write_options qw;
        lgg_quant_write_options_init(&qw);
        qw.write_flags = LGG_WRITE_NO_SYNC;
        st = lgg_convert_write_quantized(c, &qo, &qw, out, &err);
    } else {
        lgg_write_options wo;
        lgg_write_options_init(&wo);
        wo.flags = LGG_WRITE_NO_SYNC;
        st = lgg_writer_write_file(lgg_convert_writer(c), out, &wo, &err);
    }
    lgg_convert_free(c);
    double t = bench_now() - t0;
    if (st) fprintf(stderr, "bench_convert: %s\n", err.message);
    unlink(out);
    return st ? -1 : t;
}

static double timed(const char *cmd) {
    double t0 = bench_now();
    int rc = system(cmd);
    return rc == 0 ? bench_now() - t0 : -1;
}

static void reference(const char *dir, double f16, double q4) {
    const char *ref = getenv("LGG_BENCH_REFERENCE"), *lq = getenv("LGG_BENCH_LLAMA_QUANTIZE");
    if (!ref || !*ref) {
        printf("reference converter: not timed (set LGG_BENCH_REFERENCE)\n");
        return;
    }
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s --outtype f16 --outfile %s.ref.gguf %s >/dev/null 2>&1", ref, dir, dir);
    double tr = timed(cmd);
    if (tr < 0) {
        printf("reference converter: failed\n");
        return;
    }
    printf("reference --outtype f16: %6.2f s  convert is %.1fx faster\n", tr, tr / f16);
    if (lq && *lq) {
        snprintf(cmd, sizeof cmd, "%s --outtype auto --outfile %s.ref.gguf %s >/dev/null 2>&1 && %s %s.ref.gguf %s.refq.gguf Q4_K_M >/dev/null 2>&1",
                 ref, dir, dir, lq, dir, dir);
        double tq = timed(cmd);
        if (tq > 0) printf("reference + llama-quantize Q4_K_M: %6.2f s  convert is %.1fx faster\n", tq, tq / q4);
        snprintf(cmd, sizeof cmd, "%s.refq.gguf", dir);
        unlink(cmd);
    }
    snprintf(cmd, sizeof cmd, "%s.ref.gguf", dir);
    unlink(cmd);
}

/* The checkpoint's shards dropped from the page cache (written back
 * first, as a just-made file's pages are dirty), so the next run reads them
 * from the disk: what a checkpoint larger than the memory left over costs,
 * where the three single runs read it three times.  0 on failure. */
static int drop_source(const char *dir) {
    for (int i = 0; i < 2; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, SHARDS[i]);
        int fd = open(path, O_RDONLY);
        if (fd < 0) return 0;
        int ok = fdatasync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
        close(fd);
        if (!ok) return 0;
    }
    return 1;
}

/* The CPU seconds (user + system) the waited-for children have used. */
static double children_cpu(void) {
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

/* A command timed (the source dropped first when `from_disk`), its CPU
 * seconds added to *cpu; -1 when it fails.  The dirty pages the runs
 * before left (outputs since removed, or kept) are written back first, so
 * no run pays for another's writeback. */
static double timed_run(const char *cmd, int from_disk, const char *dir, double *cpu) {
    sync();
    if (from_disk && !drop_source(dir)) return -1;
    double c0 = children_cpu(), t = timed(cmd);
    *cpu += children_cpu() - c0;
    return t;
}

/* Several outtypes in one run (`gguf convert --outtype f16,q8_0,Q4_K_M`,
 * the binary in $GGUF, default build/gguf) against the three single runs,
 * side by side, alternating, each pair printed, then the best of each.  The
 * single runs keep their outputs until all three are done, as the one run
 * must (removing each output at once would spare its writeback).  Twice:
 * the source in the page cache (as a checkpoint just written, or one much
 * smaller than the memory), then read from the disk by every run (its pages
 * dropped before each).  The CPU seconds of each side are printed too: when
 * both cores are busy in the three runs as in the one, the wall-time ratio
 * cannot fall below the CPU ratio. */
static void one_pass_mode(const char *dir, int from_disk) {
    const char *gguf = getenv("GGUF") && *getenv("GGUF") ? getenv("GGUF") : "build/gguf";
    static const char *const types[] = {"f16", "q8_0", "Q4_K_M"};
    char cmd[8192];
    double best_one = 1e30, best_three = 1e30, cpu_one = 0, cpu_three = 0;
    const int reps = getenv("BENCH_REPS") && atoi(getenv("BENCH_REPS")) > 0 ? atoi(getenv("BENCH_REPS")) : 2;
    printf("one pass, the source %s:\n", from_disk ? "read from the disk (its pages dropped before each run)"
                                                   : "in the page cache");
    for (int rep = 0; rep < reps; rep++) {
        double three = 0, c3 = 0, c1 = 0;
        for (int k = 0; k < 3 && three >= 0; k++) {
            snprintf(cmd, sizeof cmd, "%s convert -q --no-fsync --outtype %s %s -o %s.single-%s.gguf", gguf, types[k],
                     dir, dir, types[k]);
            double t = timed_run(cmd, from_disk, dir, &c3);
            three = t < 0 ? -1 : three + t;
        }
        snprintf(cmd, sizeof cmd, "rm -f %s.single-*.gguf", dir);
        three = system(cmd) == 0 ? three : -1;
        snprintf(cmd, sizeof cmd, "%s convert -q --no-fsync --outtype f16,q8_0,Q4_K_M %s -o '%s.multi-{ftype}.gguf'", gguf,
                 dir, dir);
        double one = timed_run(cmd, from_disk, dir, &c1);
        snprintf(cmd, sizeof cmd, "rm -f %s.multi-*.gguf", dir); /* not timed, as the single runs' removal */
        one = system(cmd) == 0 ? one : -1;
        if (three < 0 || one < 0) {
            printf("one pass: %s failed\n", gguf);
            return;
        }
        printf("  pair %d: three runs %6.2f s (%.2f s CPU), one run %6.2f s (%.2f s CPU): %.2fx\n", rep + 1, three, c3,
               one, c1, one / three);
        fflush(stdout);
        if (three < best_three) best_three = three, cpu_three = c3;
        if (one < best_one) best_one = one, cpu_one = c1;
    }
    printf("f16 + q8_0 + Q4_K_M, three runs: %6.2f s\n", best_three);
    printf("f16,q8_0,Q4_K_M in one run:     %6.2f s  %.2fx the three runs (target <= 0.70x); CPU %.2fx\n", best_one,
           best_one / best_three, cpu_one / cpu_three);
}

static void one_pass(const char *dir) {
    one_pass_mode(dir, 0);
    one_pass_mode(dir, 1);
}

/* The MoE family: its own checkpoint, cp of its shards as the baseline,
 * --outtype f16 and Q4_K_M (experts stacked as they are written). */
static void moe(const char *base) {
    char dir[1024], out[1100], cmd[8000];
    snprintf(dir, sizeof dir, "%s/lgg-bench-convert-moe-%d", base, (int)getpid());
    uint64_t largest = 0;
    if (mkdir(dir, 0755) != 0 || !make_model(dir, 1, &largest)) {
        printf("MoE (DeepSeek): cannot write the checkpoint\n");
        return;
    }
    snprintf(cmd, sizeof cmd, "mkdir -p %s.cp && cp %s/model-0000*.safetensors %s.cp && rm -rf %s.cp", dir, dir, dir, dir);
    double best_cp = 1e30, best_f16 = 1e30, best_q4 = 1e30;
    for (int rep = 0; rep < 2; rep++) {
        double t0 = bench_now();
        if (system(cmd) != 0) break;
        double tcp = bench_now() - t0;
        snprintf(out, sizeof out, "%s.f16.gguf", dir);
        double tf = run_convert(dir, out, NULL);
        snprintf(out, sizeof out, "%s.q4km.gguf", dir);
        double tq = run_convert(dir, out, "Q4_K_M");
        if (tf < 0 || tq < 0) break;
        if (tcp < best_cp) best_cp = tcp;
        if (tf < best_f16) best_f16 = tf;
        if (tq < best_q4) best_q4 = tq;
    }
    if (best_q4 < 1e30) {
        printf("MoE (DeepSeek, ~0.55B, %d experts x %d layers): cp %.2f s\n", MOE_E, MOE_L - 1, best_cp);
        printf("  convert --outtype f16:   %6.2f s  %.2fx cp\n", best_f16, best_f16 / best_cp);
        printf("  convert --outtype Q4_K_M:%6.2f s  %.2fx cp\n", best_q4, best_q4 / best_cp);
    } else {
        printf("MoE (DeepSeek): conversion failed\n");
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("MoE (DeepSeek): cannot remove %s\n", dir);
}

int main(void) {
    const char *base = getenv("BENCH_DIR") ? getenv("BENCH_DIR") : "/tmp";
    char dir[1024], out[1100], cmd[4000];
    snprintf(dir, sizeof dir, "%s/lgg-bench-convert-%d", base, (int)getpid());
    if (mkdir(dir, 0755) != 0) return perror(dir), 1;
    uint64_t largest = 0;
    double t0 = bench_now();
    if (!make_model(dir, 0, &largest)) return fprintf(stderr, "bench_convert: cannot write the model\n"), 1;
    printf("checkpoint: ~1.0B bf16 parameters, 2 shards, made in %.1f s in %s\n", bench_now() - t0, dir);
    fflush(stdout);
    if (getenv("BENCH_ONE_PASS")) {
        one_pass(dir);
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        return getenv("BENCH_KEEP") || system(cmd) == 0 ? 0 : 1;
    }
    snprintf(cmd, sizeof cmd, "cp %s/model-0000*.safetensors %s.cp && rm -rf %s.cp", dir, dir, dir);
    char mk[8000];
    snprintf(mk, sizeof mk, "mkdir -p %s.cp && %s", dir, cmd);
    double best_cp = 1e30, best_f16 = 1e30, best_q4 = 1e30;
    for (int rep = 0; rep < 2; rep++) {
        t0 = bench_now();
        if (system(mk) != 0) return fprintf(stderr, "bench_convert: cp failed\n"), 1;
        double tcp = bench_now() - t0;
        snprintf(out, sizeof out, "%s.f16.gguf", dir);
        double tf = run_convert(dir, out, NULL);
        snprintf(out, sizeof out, "%s.q4km.gguf", dir);
        double tq = run_convert(dir, out, "Q4_K_M");
        if (tf < 0 || tq < 0) return 1;
        if (tcp < best_cp) best_cp = tcp;
        if (tf < best_f16) best_f16 = tf;
        if (tq < best_q4) best_q4 = tq;
    }
    printf("cp of the shards:        %6.2f s (baseline)\n", best_cp);
    printf("convert --outtype f16:   %6.2f s  %.2fx cp\n", best_f16, best_f16 / best_cp);
    printf("convert --outtype Q4_K_M:%6.2f s  %.2fx cp\n", best_q4, best_q4 / best_cp);
    printf("peak anonymous memory: %.1f MiB; largest tensor %.1f MiB (%.2fx)\n", (double)peak_anon / 1048576.0,
           (double)largest / 1048576.0, (double)peak_anon / (double)largest);
    reference(dir, best_f16, best_q4);
    one_pass(dir);
    moe(base);
    if (getenv("BENCH_KEEP")) { /* to profile the converter on the same checkpoint */
        printf("kept %s\n", dir);
        return 0;
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : 1;
}
