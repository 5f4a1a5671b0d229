/* test_cli_data.c -- the tensor-data commands of the gguf tool (cat, stats,
 * diff), run as a separate process exactly as a user runs them: exit status,
 * stdout and stderr are compared byte for byte with what is expected.
 *
 * Longer expected outputs live in tests/cli/.  LGG_UPDATE_EXPECTED=1 rewrites
 * them from the tool's output (then review the change with git diff). */
#include "gen.h"
#include "test.h"
#include "standin.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct run_out {
    int status; /* exit status, or -1 if the tool did not exit normally */
    unsigned char *out, *err;
    size_t n_out, n_err;
} run_out;

static void run_free(run_out *r) {
    free(r->out);
    free(r->err);
    memset(r, 0, sizeof *r);
}

/* Run build_dir()/gguf with args (NULL-terminated), stdin from /dev/null and
 * stdout/stderr captured through files, so neither can fill a pipe and
 * block.  Returns 0 if the tool ran. */
static int run_gguf_env(run_out *r, const char *const *args, const char *extra_env) {
    static int seq;
    memset(r, 0, sizeof *r);
    r->status = -1;
    char tool[1024], po[1200], pe[1200];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    snprintf(po, sizeof po, "%s/run%d.out", scratch_dir(), seq);
    snprintf(pe, sizeof pe, "%s/run%d.err", scratch_dir(), seq++);
    const char *argv[64];
    int n = 0;
    argv[n++] = tool;
    for (; args[n - 1] && n < 63; n++) argv[n] = args[n - 1];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, po, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    size_t ne = 0;
    while (environ[ne]) ne++;
    char **envp = calloc(ne + 2, sizeof *envp);
    if (!envp) return -1;
    memcpy(envp, environ, ne * sizeof *envp);
    if (extra_env) envp[ne] = (char *)extra_env;
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &fa, NULL, (char *const *)argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    free(envp);
    if (rc != 0) return -1;
    int st;
    if (waitpid(pid, &st, 0) != pid) return -1;
    if (WIFEXITED(st)) r->status = WEXITSTATUS(st);
    r->out = read_file(po, &r->n_out);
    r->err = read_file(pe, &r->n_err);
    unlink(po);
    unlink(pe);
    return r->out && r->err ? 0 : -1;
}

static int run_gguf(run_out *r, const char *const *args) { return run_gguf_env(r, args, NULL); }

/* The captured stream as a NUL-terminated string (for text comparisons). */
static char *text(const unsigned char *p, size_t n) {
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

static const char *golden(const char *rel) {
    static char p[8][4096];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s", ref_path(rel)); /* ../shared, or its rebuilt parts (standin.h) */
    return p[k];
}

/* `got` with every occurrence of `from` replaced by `to` (malloc'd). */
static char *replace_all(const char *got, const char *from, const char *to) {
    size_t nf = strlen(from), nt = strlen(to), cap = strlen(got) + 1, k = 0;
    for (const char *p = strstr(got, from); p; p = strstr(p + nf, from)) cap += nt;
    char *s = malloc(cap);
    for (const char *p = got;;) {
        const char *q = strstr(p, from);
        if (!q) {
            memcpy(s + k, p, strlen(p) + 1);
            break;
        }
        memcpy(s + k, p, (size_t)(q - p));
        k += (size_t)(q - p);
        memcpy(s + k, to, nt);
        k += nt;
        p = q + nf;
    }
    return s;
}

/* Compare with tests/cli/NAME; report the first differing line. */
static void check_expected(const char *file, int line, const char *name, const char *got) {
    char path[512];
    snprintf(path, sizeof path, "tests/cli/%s", name);
    if (getenv("LGG_UPDATE_EXPECTED")) {
        FILE *f = fopen(path, "wb");
        if (f) fputs(got, f), fclose(f);
    }
    size_t n;
    unsigned char *exp = read_file(path, &n);
    if (!exp) {
        test_fail(file, line, "cannot read %s", path);
        return;
    }
    char *e = text(exp, n);
    free(exp);
    if (strcmp(e, got) != 0) {
        const char *a = e, *b = got;
        int ln = 1;
        while (*a && *a == *b) {
            if (*a == '\n') ln++;
            a++, b++;
        }
        const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
        test_fail(file, line, "%s differs at line %d: expected \"%.*s\", got \"%.*s\"", path, ln,
                  (int)(ea ? ea - a : (long)strlen(a)), a, (int)(eb ? eb - b : (long)strlen(b)), b);
    }
    free(e);
}
#define CHECK_EXPECTED(name, got) check_expected(__FILE__, __LINE__, name, got)

#define RUN(r, ...)                                                                \
    do {                                                                           \
        const char *const args_[] = {__VA_ARGS__, NULL};                           \
        REQUIRE(run_gguf(r, args_) == 0);                                          \
    } while (0)

static int same_bytes(const unsigned char *a, size_t na, const char *path) {
    size_t n;
    unsigned char *b = read_file(path, &n);
    int ok = b && n == na && !memcmp(a, b, n);
    free(b);
    return ok;
}

static void write_file(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(p, 1, n, f);
    fclose(f);
}

/* ---- cat ---------------------------------------------------------------- */

TEST(cli_cat_golden_every_type) {
    if (!need_models()) return;
    DIR *d = opendir(golden("golden/ggml-types"));
    REQUIRE(d);
    static const char *const CASES[] = {"gauss", "weights", "uniform", "edge"};
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "type-", 5) || len < 11 || strcmp(e->d_name + len - 5, ".gguf")) continue;
        char ty[32];
        snprintf(ty, sizeof ty, "%.*s", (int)(len - 10), e->d_name + 5);
        char gguf[4096];
        snprintf(gguf, sizeof gguf, "%s/%s", golden("golden/ggml-types"), e->d_name);
        files++;
        for (int c = 0; c < 4; c++) {
            char tname[64], rel[256], deq[4096], raw[4096];
            snprintf(tname, sizeof tname, "%s.weight", CASES[c]);
            if (!strcmp(ty, "f32")) {
                snprintf(rel, sizeof rel, "golden/quant/input.%s.f32", CASES[c]);
                snprintf(deq, sizeof deq, "%s", ref_path(rel));
                snprintf(raw, sizeof raw, "%s", deq);
            } else {
                /* types that need an importance matrix only have .imatrix files */
                snprintf(rel, sizeof rel, "golden/quant/quant.%s.%s.bin", ty, CASES[c]);
                const char *sfx = access(ref_path(rel), R_OK) == 0 ? "" : ".imatrix";
                snprintf(rel, sizeof rel, "golden/quant/quant.%s.%s%s.bin", ty, CASES[c], sfx);
                snprintf(raw, sizeof raw, "%s", ref_path(rel));
                snprintf(rel, sizeof rel, "golden/quant/dequant.%s.%s%s.f32", ty, CASES[c], sfx);
                snprintf(deq, sizeof deq, "%s", ref_path(rel));
            }
            run_out r;
            RUN(&r, "cat", gguf, tname, "--as", "f32");
            CHECKF(r.status == 0 && r.n_err == 0, "%s %s: status %d", ty, tname, r.status);
            CHECKF(r.n_out == 4096 * 4 && same_bytes(r.out, r.n_out, deq), "%s %s --as f32 differs from %s", ty,
                   tname, deq);
            run_free(&r);
            RUN(&r, "cat", gguf, tname);
            CHECKF(r.status == 0 && r.n_err == 0, "%s %s raw: status %d", ty, tname, r.status);
            CHECKF(same_bytes(r.out, r.n_out, raw), "%s %s raw differs from %s", ty, tname, raw);
            run_free(&r);
        }
    }
    closedir(d);
    CHECKF(files >= 28, "only %d golden type files", files);
}

/* Values do not depend on the byte order of the file; stored bytes do.
 * (pub-dense-Q8_0.BE.gguf's Q8_0 data is not a faithful conversion -- see
 * test_dequant.c -- so only its F32 tensor is compared.) */
TEST(cli_cat_big_endian_values_match) {
    if (!need_models()) return;
    static const struct {
        const char *le, *be, *tensor;
    } C[] = {
        {"golden/llama-quantize/pub-dense-f16.gguf", "golden/llama-quantize/pub-dense-f16.BE.gguf", "token_embd.weight"},
        {"golden/llama-quantize/pub-dense-f16.gguf", "golden/llama-quantize/pub-dense-f16.BE.gguf", "output_norm.weight"},
        {"golden/llama-quantize/pub-dense-f16.gguf", "golden/llama-quantize/pub-dense-f16.BE.gguf", "blk.2.ffn_down.weight"},
        {"golden/llama-quantize/pub-dense-Q8_0.gguf", "golden/llama-quantize/pub-dense-Q8_0.BE.gguf", "output_norm.weight"},
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        run_out le, be;
        RUN(&le, "cat", golden(C[i].le), C[i].tensor, "--as=f32");
        RUN(&be, "cat", golden(C[i].be), C[i].tensor, "--as", "f32");
        CHECK(le.status == 0 && be.status == 0);
        CHECKF(le.n_out > 0 && le.n_out == be.n_out && !memcmp(le.out, be.out, le.n_out), "%s %s", C[i].be,
               C[i].tensor);
        run_free(&le);
        run_free(&be);
        RUN(&le, "cat", golden(C[i].le), C[i].tensor);
        RUN(&be, "cat", golden(C[i].be), C[i].tensor);
        CHECK(le.status == 0 && be.status == 0 && le.n_out == be.n_out);
        CHECK(memcmp(le.out, be.out, le.n_out) != 0);
        run_free(&le);
        run_free(&be);
    }
}

TEST(cli_cat_output_file) {
    if (!need_models()) return;
    const char *in = golden("golden/ggml-types/type-q4_K.gguf");
    char out[512];
    snprintf(out, sizeof out, "%s/cat-out.f32", scratch_dir());
    write_file(out, "old contents", 12);
    chmod(out, 0640);
    run_out r;
    RUN(&r, "cat", in, "weights.weight", "--as", "f32", "-o", out);
    CHECK(r.status == 0 && r.n_out == 0 && r.n_err == 0);
    run_free(&r);
    size_t n;
    unsigned char *got = read_file(out, &n);
    REQUIRE(got);
    CHECK(n == 4096 * 4 && same_bytes(got, n, golden("golden/quant/dequant.q4_K.weights.f32")));
    free(got);
    struct stat st;
    CHECK(stat(out, &st) == 0 && (st.st_mode & 0777) == 0640);
    /* no temporary file left behind */
    DIR *d = opendir(scratch_dir());
    REQUIRE(d);
    struct dirent *e;
    while ((e = readdir(d))) CHECKF(strncmp(e->d_name, ".cat-out", 8) != 0, "left behind: %s", e->d_name);
    closedir(d);
    /* a new file in a directory that exists; "-o -" is stdout */
    RUN(&r, "cat", in, "edge.weight", "-o", "-");
    CHECK(r.status == 0 && same_bytes(r.out, r.n_out, golden("golden/quant/quant.q4_K.edge.bin")));
    run_free(&r);
}

TEST(cli_cat_refuses_to_overwrite_input) {
    if (!need_models()) return;
    size_t n;
    unsigned char *src = read_file(golden("golden/ggml-types/type-q8_0.gguf"), &n);
    REQUIRE(src);
    char copy[512], link2[512];
    snprintf(copy, sizeof copy, "%s/self.gguf", scratch_dir());
    snprintf(link2, sizeof link2, "%s/self-link.gguf", scratch_dir());
    write_file(copy, src, n);
    unlink(link2);
    REQUIRE(link(copy, link2) == 0);
    const char *outs[2] = {copy, link2};
    for (int i = 0; i < 2; i++) {
        run_out r;
        RUN(&r, "cat", copy, "gauss.weight", "-o", outs[i]);
        CHECK(r.status == 1 && r.n_out == 0);
        char *err = text(r.err, r.n_err), want[1200];
        snprintf(want, sizeof want,
                 "gguf cat: %s: refusing to write over the input %s (the same file); nothing written\n", outs[i], copy);
        CHECK_STR(err, want);
        free(err);
        run_free(&r);
    }
    CHECK(same_bytes(src, n, copy));
    free(src);
    unlink(link2);
}

TEST(cli_cat_errors) {
    if (!need_models()) return;
    const char *in = golden("golden/ggml-types/type-q4_0.gguf");
    char want[4400];
    run_out r;
    RUN(&r, "cat", in, "nope.weight");
    CHECK_EQ_U(r.status, 1);
    CHECK_EQ_U(r.n_out, 0);
    char *err = text(r.err, r.n_err);
    snprintf(want, sizeof want, "gguf cat: %s: no tensor named 'nope.weight'\n", in);
    CHECK_STR(err, want);
    free(err);
    run_free(&r);

    static const struct {
        const char *a[5];
        const char *msg;
    } U[] = {
        {{"cat", NULL}, "FILE and TENSOR are required"},
        {{"cat", "x.gguf", NULL}, "FILE and TENSOR are required"},
        {{"cat", "x.gguf", "t", "--as"}, "--as needs a value (FORMAT)"},
        {{"cat", "--as=f16", "x.gguf", "t"}, "--as takes raw, f32 or npy, not 'f16'"},
        {{"cat", "--bogus", "x.gguf", "t"}, "unknown option '--bogus'"},
        {{"cat", "x.gguf", "t", "u"}, "unexpected argument 'u'"},
    };
    for (size_t i = 0; i < sizeof U / sizeof U[0]; i++) {
        REQUIRE(run_gguf(&r, U[i].a) == 0);
        CHECK_EQ_U(r.status, 2);
        CHECK_EQ_U(r.n_out, 0);
        err = text(r.err, r.n_err);
        snprintf(want, sizeof want, "gguf cat: %s\nusage: gguf cat [--as raw|f32|npy] [-o OUT] FILE TENSOR\n", U[i].msg);
        CHECK_STR(err, want);
        free(err);
        run_free(&r);
    }
    /* a file that does not open */
    RUN(&r, "cat", "/nonexistent/x.gguf", "t");
    CHECK(r.status == 1 && r.n_out == 0 && r.n_err > 0);
    run_free(&r);
}

/* Tiny chunks (less than a row, a few rows) give the same bytes as one
 * chunk: converting in pieces must not change a single value. */
TEST(cli_data_chunked_same_output) {
    if (!need_models()) return;
    static const char *const ENV[] = {"LGG_CHUNK_FLOATS=100", "LGG_CHUNK_FLOATS=1024", "LGG_CHUNK_FLOATS=3000"};
    static const struct {
        const char *a[6];
    } CMDS[] = {
        {{"cat", "golden/ggml-types/type-q4_K.gguf", "edge.weight", "--as", "f32", NULL}},
        {{"cat", "golden/ggml-types/type-iq4_nl.gguf", "gauss.weight", NULL}},
        {{"stats", "--json", "golden/ggml-types/type-q5_1.gguf", NULL}},
        {{"stats", "golden/ggml-types/type-f16.gguf", NULL}},
        {{"diff", "--json", "golden/llama-quantize/pub-dense-f16.gguf", "golden/llama-quantize/pub-dense-Q8_0.gguf", NULL}},
    };
    for (size_t c = 0; c < sizeof CMDS / sizeof CMDS[0]; c++) {
        const char *args[6];
        for (int i = 0; i < 6; i++)
            args[i] = CMDS[c].a[i] && !strncmp(CMDS[c].a[i], "golden/", 7) ? golden(CMDS[c].a[i]) : CMDS[c].a[i];
        run_out base;
        REQUIRE(run_gguf(&base, args) == 0);
        CHECK(base.n_out > 0 && base.n_err == 0 && base.status <= 1);
        for (int e = 0; e < 3; e++) {
            run_out r;
            REQUIRE(run_gguf_env(&r, args, ENV[e]) == 0);
            CHECKF(r.status == base.status && r.n_out == base.n_out && !memcmp(r.out, base.out, r.n_out) &&
                       r.n_err == 0,
                   "%s %s with %s differs", args[0], args[1], ENV[e]);
            run_free(&r);
        }
        run_free(&base);
    }
}

TEST(cli_data_help) {
    static const char *const CMD[] = {"cat", "stats", "diff"};
    for (int i = 0; i < 3; i++) {
        run_out r;
        RUN(&r, CMD[i], "--help");
        CHECK(r.status == 0 && r.n_err == 0);
        char *out = text(r.out, r.n_out), name[64];
        snprintf(name, sizeof name, "%s.help.txt", CMD[i]);
        CHECK_EXPECTED(name, out);
        free(out);
        run_free(&r);
    }
    /* the commands are listed in the tool's own help */
    run_out r;
    RUN(&r, "--help");
    char *out = text(r.out, r.n_out);
    CHECK(r.status == 0 && strstr(out, "\n  cat ") && strstr(out, "\n  stats ") && strstr(out, "\n  diff "));
    free(out);
    run_free(&r);
}

/* ---- stats -------------------------------------------------------------- */

/* The number after "KEY": in the first object that has it. */
static double json_num(const char *s, const char *key) {
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *p = strstr(s, k);
    return p ? strtod(p + strlen(k), NULL) : NAN;
}

TEST(cli_stats_golden_text_and_json) {
    if (!need_models()) return;
    const char *in = golden("golden/ggml-types/type-q4_0.gguf");
    run_out r;
    RUN(&r, "stats", in);
    CHECK(r.status == 0 && r.n_err == 0);
    char *out = text(r.out, r.n_out);
    CHECK_EXPECTED("stats-q4_0.txt", out);
    free(out);
    run_free(&r);
    RUN(&r, "stats", "--json", in);
    CHECK(r.status == 0 && r.n_err == 0);
    out = text(r.out, r.n_out);
    CHECK_EXPECTED("stats-q4_0.json", out);
    free(out);
    run_free(&r);
}

/* The figures agree with ones computed here from the golden values. */
TEST(cli_stats_figures_match_direct_computation) {
    if (!need_models()) return;
    size_t n;
    unsigned char *raw = read_file(golden("golden/quant/dequant.q6_K.weights.f32"), &n);
    REQUIRE(raw && n == 4096 * 4);
    float x[4096];
    memcpy(x, raw, n);
    free(raw);
    double lo = x[0], hi = x[0], sum = 0, am = 0;
    for (int i = 0; i < 4096; i++) {
        if (x[i] < lo) lo = x[i];
        if (x[i] > hi) hi = x[i];
        if (fabs(x[i]) > am) am = fabs(x[i]);
        sum += x[i];
    }
    const double mean = sum / 4096;
    double m2 = 0;
    for (int i = 0; i < 4096; i++) m2 += (x[i] - mean) * (x[i] - mean);
    run_out r;
    RUN(&r, "stats", "--json", golden("golden/ggml-types/type-q6_K.gguf"), "weights.weight");
    REQUIRE(r.status == 0);
    char *out = text(r.out, r.n_out);
    CHECK(json_num(out, "min") == lo);
    CHECK(json_num(out, "max") == hi);
    CHECK(json_num(out, "absmax") == am);
    CHECK(fabs(json_num(out, "mean") - mean) <= 1e-12 * fabs(mean) + 1e-15);
    CHECK(fabs(json_num(out, "std") - sqrt(m2 / 4096)) <= 1e-12 * sqrt(m2 / 4096));
    CHECK(json_num(out, "n") == 4096);
    CHECK(strstr(out, "\"name\": \"weights.weight\"") && !strstr(out, "gauss.weight"));
    free(out);
    run_free(&r);
}

/* A hand-made file with NaN, infinities, zeros of both signs, and a tensor
 * with no finite value at all. */
static void special_values_file(const char *path) {
    static const uint32_t V[] = {0x3f800000u, 0xc0000000u, 0x00000000u, 0x80000000u,
                                 0x7fc00000u, 0x7f800000u, 0xff800000u, 0x40400000u};
    buf b = {0};
    gen_header(&b, 3, 2, 1);
    gen_key(&b, 3, "general.architecture", 8);
    gen_str(&b, 3, "test");
    uint64_t ne[1] = {8}, ne2[1] = {2};
    gen_tensor(&b, 3, "mixed", 1, ne, 0, 0);
    gen_tensor(&b, 3, "nan", 1, ne2, 0, 32);
    buf_pad(&b, 32);
    for (int i = 0; i < 8; i++) buf_u32(&b, V[i]);
    buf_u32(&b, 0x7fc00000u);
    buf_u32(&b, 0xffc00000u);
    write_file(path, b.p, b.n);
    buf_free(&b);
}

TEST(cli_stats_special_values) {
    char path[512];
    snprintf(path, sizeof path, "%s/special.gguf", scratch_dir());
    special_values_file(path);
    run_out r;
    RUN(&r, "stats", "--json", path);
    CHECK(r.status == 0 && r.n_err == 0);
    char *out = text(r.out, r.n_out);
    CHECK_STR(out, "[\n"
                   "  {\"name\": \"mixed\", \"type\": \"F32\", \"shape\": [8], \"n\": 8, \"min\": -2.0, \"max\": 3.0, "
                   "\"mean\": 0.4, \"std\": 1.624807680927192, \"absmax\": 3.0, \"nan\": 1, \"inf\": 2, \"zeros\": 0.25, "
                   "\"histogram\": {\"min\": -2.0, \"max\": 3.0, \"counts\": [1, 0, 0, 0, 2, 0, 1, 0, 0, 1]}},\n"
                   "  {\"name\": \"nan\", \"type\": \"F32\", \"shape\": [2], \"n\": 2, \"min\": null, \"max\": null, "
                   "\"mean\": null, \"std\": null, \"absmax\": null, \"nan\": 2, \"inf\": 0, \"zeros\": 0.0, "
                   "\"histogram\": null}\n"
                   "]\n");
    free(out);
    run_free(&r);
    RUN(&r, "stats", path, "nan");
    CHECK(r.status == 0);
    out = text(r.out, r.n_out);
    CHECK_STR(out, "nan  F32 [2]  2 values\n  no finite values\n  nan 2  inf 0  zeros 0%\n");
    free(out);
    run_free(&r);
}

TEST(cli_stats_errors) {
    if (!need_models()) return;
    const char *in = golden("golden/ggml-types/type-q4_0.gguf");
    run_out r;
    RUN(&r, "stats", in, "gauss.weight", "nope");
    CHECK_EQ_U(r.status, 1);
    CHECK_EQ_U(r.n_out, 0);
    char *err = text(r.err, r.n_err), want[4400];
    snprintf(want, sizeof want, "gguf stats: %s: no tensor named 'nope'\n", in);
    CHECK_STR(err, want);
    free(err);
    run_free(&r);
    RUN(&r, "stats");
    CHECK_EQ_U(r.status, 2);
    err = text(r.err, r.n_err);
    CHECK_STR(err, "gguf stats: no FILE given\nusage: gguf stats [--json] FILE [TENSOR...]\n");
    free(err);
    run_free(&r);
    RUN(&r, "stats", "-x", in);
    CHECK_EQ_U(r.status, 2);
    CHECK_EQ_U(r.n_out, 0);
    run_free(&r);
}

/* ---- diff --------------------------------------------------------------- */

TEST(cli_diff_identical) {
    if (!need_models()) return;
    const char *f16 = golden("golden/llama-quantize/pub-dense-f16.gguf");
    run_out r;
    RUN(&r, "diff", f16, f16);
    CHECK(r.status == 0 && r.n_out == 0 && r.n_err == 0);
    run_free(&r);
    /* byte order is layout, not content */
    RUN(&r, "diff", f16, golden("golden/llama-quantize/pub-dense-f16.BE.gguf"));
    CHECK(r.status == 0 && r.n_out == 0 && r.n_err == 0);
    run_free(&r);
    RUN(&r, "diff", "--json", f16, f16);
    CHECK(r.status == 0 && r.n_err == 0);
    char *out = text(r.out, r.n_out);
    const char *tail = ",\n  \"identical\": true}\n";
    CHECK(r.n_out > 40 && !strcmp(out + r.n_out - strlen(tail), tail));
    CHECK(!strstr(out, "\"identical\": false"));
    free(out);
    run_free(&r);
}

/* TEXT (malloc'd) with each line's figures after "  max_abs_err " left
 * out: what does not depend on the tensors' values. */
static char *without_figures(const char *text) {
    char *out = malloc(strlen(text) + 1), *o = out;
    for (const char *p = text; out && *p;) {
        const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p), *fig = strstr(p, "  max_abs_err ");
        const char *cut = fig && fig < end ? fig : end;
        memcpy(o, p, (size_t)(cut - p));
        o += cut - p;
        if (nl) *o++ = '\n';
        p = nl ? nl + 1 : end;
    }
    if (out) *o = 0;
    return out;
}

TEST(cli_diff_f16_vs_q8_0) {
    if (!need_models()) return;
    /* without ../shared, the stand-ins (the Q8_0 one the Q8_0 of the f16
     * one's values): the expected text but its figures, and the JSON's bounds */
    const bool stand_in = access(shared_path("golden/llama-quantize/pub-dense-f16.gguf"), R_OK) != 0;
    const char *dir = golden("golden/llama-quantize/");
    char a[4200], b[4200];
    snprintf(a, sizeof a, "%spub-dense-f16.gguf", dir);
    snprintf(b, sizeof b, "%spub-dense-Q8_0.gguf", dir);
    run_out r;
    RUN(&r, "diff", a, b);
    CHECK(r.status == 1 && r.n_err == 0);
    char *out = text(r.out, r.n_out), *norm = replace_all(out, dir, "$LQ/");
    if (stand_in) {
        size_t n = 0;
        unsigned char *want = read_file("tests/cli/diff-f16-q8_0.txt", &n);
        char *w = want ? text(want, n) : NULL, *ws = w ? without_figures(w) : NULL, *gs = without_figures(norm);
        CHECK_STR(gs, ws);
        free(ws), free(gs), free(w), free(want);
    } else {
        CHECK_EXPECTED("diff-f16-q8_0.txt", norm);
    }
    free(norm);
    free(out);
    run_free(&r);

    RUN(&r, "diff", "--json", a, b);
    CHECK(r.status == 1 && r.n_err == 0);
    out = text(r.out, r.n_out);
    /* every weight converted to Q8_0 stays close; the F32 norms are untouched */
    int weights = 0, norms = 0;
    for (const char *p = strstr(out, "\n    {\"name\": \""); p; p = strstr(p + 1, "\n    {\"name\": \"")) {
        const char *end = strchr(p + 1, '\n');
        if (!strstr(p, "\"type_a\"") || (end && strstr(p, "\"type_a\"") > end)) continue;
        if (strncmp(strstr(p, "\"type_a\": ") + 10, "\"F16\", \"type_b\": \"Q8_0\"", 23) == 0) {
            weights++;
            double cos = json_num(p, "cos"), err = json_num(p, "max_abs_err"), rmse = json_num(p, "rmse");
            CHECKF(cos > 0.99 && cos <= 1, "cos %g", cos);
            CHECK(err > 0 && err < 0.05 && rmse > 0 && rmse < err);
            CHECK(strstr(p, "\"identical\": false") < end);
        } else {
            norms++;
            CHECK(strstr(p, "\"type_a\": \"F32\", \"type_b\": \"F32\"") < end);
            CHECK(strstr(p, "\"identical\": true") < end);
            CHECK(strstr(p, "\"max_abs_err\": 0, \"rmse\": 0, \"cos\": 1, \"differ\": 0}") < end);
        }
    }
    CHECK_EQ_U(weights, 30);
    CHECK_EQ_U(norms, 9);
    CHECK(strstr(out, "\"added\": [\n    {\"key\": \"general.quantization_version\", \"type\": \"u32\", \"value\": 2}"));
    CHECK(strstr(out, "{\"key\": \"general.file_type\", \"old_type\": \"u32\", \"old\": 1, \"new_type\": \"u32\", \"new\": 7}"));
    CHECK(strstr(out, "\"tensors\": {\"removed\": [], \"added\": [], \"common\": ["));
    const char *tail = ",\n  \"identical\": false}\n";
    CHECK(r.n_out > 25 && !strcmp(out + r.n_out - strlen(tail), tail));
    free(out);
    run_free(&r);
}

/* Metadata added, removed and changed (long values shortened in text only),
 * tensors added, removed, reshaped and retyped. */
TEST(cli_diff_hand_made) {
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/diff-a.gguf", scratch_dir());
    snprintf(pb, sizeof pb, "%s/diff-b.gguf", scratch_dir());
    char longs[101];
    memset(longs, 'x', 100);
    longs[100] = 0;
    for (int which = 0; which < 2; which++) {
        buf b = {0};
        b.big = which == 1; /* B is big-endian: only content counts */
        gen_header(&b, 3, 3, 4);
        gen_key(&b, 3, "general.architecture", 8);
        gen_str(&b, 3, "test");
        gen_key(&b, 3, which ? "b.only" : "a.only", 4);
        buf_u32(&b, 7);
        gen_key(&b, 3, "same.array", 9);
        buf_u32(&b, 5);
        gen_len(&b, 3, 3);
        for (int i = 0; i < 3; i++) buf_u32(&b, (uint32_t)(i * 1000));
        gen_key(&b, 3, "changed.str", 8);
        if (which) longs[50] = 'y';
        gen_str(&b, 3, longs);
        uint64_t n8[1] = {8}, n42[2] = {4, 2}, n24[2] = {2, 4};
        gen_tensor(&b, 3, "a", 1, n8, 0, 0);
        gen_tensor(&b, 3, "b", 2, which ? n24 : n42, 0, 32);
        gen_tensor(&b, 3, which ? "only_b" : "only_a", 1, n8, 0, 64);
        buf_pad(&b, 32);
        for (int i = 0; i < 24; i++) {
            float x = (float)(i + 1) + (which && i == 3 ? 0.5f : 0.0f);
            uint32_t u;
            memcpy(&u, &x, 4);
            buf_u32(&b, u);
        }
        write_file(which ? pb : pa, b.p, b.n);
        buf_free(&b);
    }
    run_out r;
    RUN(&r, "diff", pa, pb);
    CHECK_EQ_U(r.status, 1);
    char *out = text(r.out, r.n_out), *norm = replace_all(out, scratch_dir(), "$T");
    CHECK_STR(norm,
              "--- $T/diff-a.gguf\n"
              "+++ $T/diff-b.gguf\n"
              "metadata:\n"
              "- a.only: u32 = 7\n"
              "+ b.only: u32 = 7\n"
              "~ changed.str: string \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"... (100 bytes) -> "
              "string \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxyxxxxxxxxx\"... (100 bytes)\n"
              "tensors:\n"
              "- only_a  F32 [8]\n"
              "+ only_b  F32 [8]\n"
              "~ a  F32 [8]  max_abs_err 0.5  rmse 0.1768  cos 0.999446684  differ 1\n"
              "~ b  F32 [4, 2] -> [2, 4]  max_abs_err 0  rmse 0  cos 1.000000000  differ 0\n"
              "summary: metadata 1 removed, 1 added, 1 changed; tensors 1 removed, 1 added, 2 changed\n");
    free(norm);
    free(out);
    run_free(&r);
    RUN(&r, "diff", "--json", pa, pb);
    CHECK_EQ_U(r.status, 1);
    out = text(r.out, r.n_out);
    /* JSON holds the complete values */
    longs[50] = 'y';
    char want[300];
    snprintf(want, sizeof want, "\"new_type\": \"string\", \"new\": \"%s\"}", longs);
    CHECK(strstr(out, want) != NULL);
    free(out);
    run_free(&r);
}

/* The reference's big-endian Q8_0 data is its little-endian one as
 * pyswap_q8_0 (standin.h) mangles it, and its F32 data properly swapped:
 * what the stand-in is made of. */
static void bad_endian_is_pyswap(void) {
    lgg_file *le = NULL, *be = NULL;
    REQUIRE(lgg_open_file(shared_path("golden/llama-quantize/pub-dense-Q8_0.gguf"), NULL, &le, NULL) == LGG_OK);
    REQUIRE(lgg_open_file(shared_path("golden/llama-quantize/pub-dense-Q8_0.BE.gguf"), NULL, &be, NULL) == LGG_OK);
    int same = 0;
    for (uint64_t k = 0; k < lgg_tensor_count(le); k++) {
        const lgg_tensor *a = lgg_tensor_at(le, k), *b = lgg_tensor_at(be, k);
        uint8_t *p = malloc(a->size);
        REQUIRE(p != NULL);
        memcpy(p, a->data, a->size);
        if (a->type == LGG_TYPE_Q8_0) pyswap_q8_0(a, p);
        else swap_blocks_to_big(lgg_type_get(a->type), p, a->size / lgg_type_get(a->type)->type_size);
        same += a->size == b->size && !memcmp(p, b->data, a->size);
        free(p);
    }
    CHECKF(same == (int)lgg_tensor_count(le), "%d of %llu tensors as pyswap_q8_0 makes them", same,
           (unsigned long long)lgg_tensor_count(le));
    lgg_close(le);
    lgg_close(be);
}

/* The Q8_0 data of pub-dense-Q8_0.BE.gguf was mangled by its converter:
 * diff sees it, and only in the quantized tensors. */
TEST(cli_diff_catches_bad_endian_conversion) {
    if (!need_models()) return; /* or the stand-ins, whose BE data is swapped the same way */
    if (access(shared_path("golden/llama-quantize/pub-dense-Q8_0.BE.gguf"), R_OK) == 0) bad_endian_is_pyswap();
    run_out r;
    RUN(&r, "diff", golden("golden/llama-quantize/pub-dense-Q8_0.gguf"), golden("golden/llama-quantize/pub-dense-Q8_0.BE.gguf"));
    CHECK_EQ_U(r.status, 1);
    char *out = text(r.out, r.n_out);
    CHECK(strstr(out, "\n~ token_embd.weight  Q8_0 [256, 1000]  max_abs_err ") != NULL);
    CHECK(strstr(out, "norm") == NULL && strstr(out, "metadata:") == NULL);
    CHECK(strstr(out, "summary: metadata 0 removed, 0 added, 0 changed; tensors 0 removed, 0 added, 30 changed\n"));
    free(out);
    run_free(&r);
}

TEST(cli_diff_errors) {
    run_out r;
    RUN(&r, "diff", "x.gguf");
    CHECK_EQ_U(r.status, 2);
    char *err = text(r.err, r.n_err);
    CHECK_STR(err, "gguf diff: two files are required\nusage: gguf diff [--json] [--metadata] A B\n");
    free(err);
    run_free(&r);
    RUN(&r, "diff", "a", "b", "c");
    CHECK_EQ_U(r.status, 2);
    CHECK_EQ_U(r.n_out, 0);
    run_free(&r);
    RUN(&r, "diff", golden("golden/ggml-types/type-q4_0.gguf"), "/nonexistent/x.gguf");
    CHECK_EQ_U(r.status, 2);
    CHECK(r.n_out == 0 && r.n_err > 0);
    run_free(&r);
}

/* ---- MXFP4, NVFP4, Q1_0, Q2_0 ------------------------------------------- */

/* A file with one [128, 2] tensor of each of the four newest types, made of
 * hand-made blocks, and the values they stand for, worked out here from the
 * format definitions (not with the library): E2M1 codes (doubled values
 * 0 1 2 3 4 6 8 12, bit 3 the sign) times a power-of-two E8M0 scale halved
 * (MXFP4) or a UE4M3 scale halved (NVFP4, one per 16 values), sign bits
 * times d (Q1_0), 2-bit codes q meaning (q - 1) d (Q2_0).  `as_f32` writes
 * the same tensors as F32 instead; `tweak` changes one Q2_0 code. */
#define NEWT_ROW 128
static const struct {
    const char *name;
    uint32_t type, block, tsize;
} NEWT[] = {{"mx", 39, 32, 17}, {"nv", 40, 64, 36}, {"q1", 41, 128, 18}, {"q2", 42, 64, 18}};

static float newt_value(int t, int k, int j) { /* block k, element j */
    static const int8_t e2m1[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};
    const int code = (j * 7 + k * 3) & 15;
    switch (t) {
    case 0: return (float)e2m1[code] * ldexpf(1.0f, k % 4 - 2);               /* e = 126 + k%4 */
    case 1: return (float)e2m1[code] * (1.0f + (float)(j / 16) / 8.0f) * 0.5f; /* UE4M3 0x38 + s */
    case 2: return code & 1 ? 1.5f : -1.5f;                                    /* d = 1.5 */
    default: return (float)((code & 3) - 1) * 0.5f;                            /* d = 0.5 */
    }
}

static void newt_block(int t, int k, uint8_t *blk, bool tweak) {
    int code[128];
    for (int j = 0; j < (int)NEWT[t].block; j++) code[j] = (j * 7 + k * 3) & 15;
    memset(blk, 0, NEWT[t].tsize);
    switch (t) {
    case 0:
        blk[0] = (uint8_t)(126 + k % 4);
        for (int j = 0; j < 16; j++) blk[1 + j] = (uint8_t)(code[j] | code[j + 16] << 4);
        break;
    case 1:
        for (int s = 0; s < 4; s++) {
            blk[s] = (uint8_t)(0x38 + s);
            for (int j = 0; j < 8; j++) blk[4 + 8 * s + j] = (uint8_t)(code[16 * s + j] | code[16 * s + j + 8] << 4);
        }
        break;
    case 2:
        blk[0] = 0x00, blk[1] = 0x3E; /* 1.5 */
        for (int j = 0; j < 128; j++) blk[2 + j / 8] |= (uint8_t)((code[j] & 1) << (j % 8));
        break;
    default:
        blk[0] = 0x00, blk[1] = 0x38; /* 0.5 */
        for (int j = 0; j < 64; j++) blk[2 + j / 4] |= (uint8_t)((code[j] & 3) << (2 * (j % 4)));
        if (tweak && k == 1) blk[2] ^= 0x03; /* value 0 of the second block */
        break;
    }
}

static void write_newt(const char *path, bool as_f32, bool tweak) {
    buf b = {0};
    gen_header(&b, 3, 4, 0);
    uint64_t off = 0, size[4];
    const uint64_t ne[2] = {NEWT_ROW, 2};
    for (int t = 0; t < 4; t++) {
        size[t] = as_f32 ? 2 * NEWT_ROW * 4 : 2 * NEWT_ROW / NEWT[t].block * NEWT[t].tsize;
        gen_tensor(&b, 3, NEWT[t].name, 2, ne, as_f32 ? 0 : NEWT[t].type, off);
        off += (size[t] + 31) / 32 * 32;
    }
    buf_pad(&b, 32);
    for (int t = 0; t < 4; t++) {
        const int nblk = 2 * NEWT_ROW / (int)NEWT[t].block;
        for (int k = 0; k < nblk; k++) {
            if (as_f32) {
                for (int j = 0; j < (int)NEWT[t].block; j++) {
                    const float v = newt_value(t, k, j);
                    uint32_t u;
                    memcpy(&u, &v, 4);
                    buf_u32(&b, u);
                }
            } else {
                uint8_t blk[64];
                newt_block(t, k, blk, tweak);
                buf_put(&b, blk, NEWT[t].tsize);
            }
        }
        buf_pad(&b, 32);
    }
    write_file(path, b.p, b.n);
    buf_free(&b);
}

/* stdout with the scratch directory as $T */
static char *newt_norm(const run_out *r) {
    char *t = text(r->out, r->n_out), *n = replace_all(t, scratch_dir(), "$T");
    free(t);
    return n;
}

TEST(cli_new_types_cat_stats_diff) {
    char pq[512], pf[512], pt[512];
    snprintf(pq, sizeof pq, "%s/newtypes.gguf", scratch_dir());
    snprintf(pf, sizeof pf, "%s/newtypes-f32.gguf", scratch_dir());
    snprintf(pt, sizeof pt, "%s/newtypes-tweak.gguf", scratch_dir());
    write_newt(pq, false, false);
    write_newt(pf, true, false);
    write_newt(pt, false, true);
    run_out r;
    /* cat --as f32: the values the blocks stand for, bit for bit */
    for (int t = 0; t < 4; t++) {
        RUN(&r, "cat", pq, NEWT[t].name, "--as", "f32");
        CHECKF(r.status == 0 && r.n_err == 0, "cat %s: status %d", NEWT[t].name, r.status);
        float want[2 * NEWT_ROW];
        for (int i = 0; i < 2 * NEWT_ROW; i++) want[i] = newt_value(t, i / (int)NEWT[t].block, i % (int)NEWT[t].block);
        CHECKF(r.n_out == sizeof want && memcmp(r.out, want, sizeof want) == 0, "cat %s --as f32: wrong values",
               NEWT[t].name);
        run_free(&r);
    }
    /* stats: the same figures as for the F32 copy, under the types' names */
    RUN(&r, "stats", pq);
    CHECK(r.status == 0 && r.n_err == 0);
    char *sq = newt_norm(&r);
    run_free(&r);
    CHECK_EXPECTED("stats-new-types.txt", sq);
    RUN(&r, "stats", pf);
    CHECK(r.status == 0);
    char *sf = newt_norm(&r);
    run_free(&r);
    static const char *const tn[4] = {"MXFP4", "NVFP4", "Q1_0", "Q2_0"};
    char *a = replace_all(sq, "newtypes.gguf", "newtypes-f32.gguf");
    for (int t = 0; t < 4; t++) {
        char from[32], *next;
        snprintf(from, sizeof from, "  %s [", tn[t]);
        CHECKF(strstr(a, from) != NULL, "stats: no %s tensor", tn[t]);
        next = replace_all(a, from, "  F32 [");
        free(a);
        a = next;
    }
    CHECK_STR(a, sf);
    free(a);
    free(sf);
    free(sq);
    /* diff: against the F32 copy every tensor is retyped with no error; one
     * changed Q2_0 code is one differing value */
    RUN(&r, "diff", pq, pf);
    CHECK_EQ_U(r.status, 1);
    char *d = newt_norm(&r);
    CHECK_EXPECTED("diff-new-types-f32.txt", d);
    free(d);
    run_free(&r);
    RUN(&r, "diff", pq, pt);
    CHECK_EQ_U(r.status, 1);
    d = newt_norm(&r);
    CHECK_EXPECTED("diff-new-types-tweak.txt", d);
    free(d);
    run_free(&r);
    RUN(&r, "diff", pq, pq);
    CHECK_EQ_U(r.status, 0);
    run_free(&r);
}
