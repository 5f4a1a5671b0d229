/* test_quant_master_presets.c -- `gguf quantize` against llama.cpp master's
 * llama-quantize (3f545becc) on tiny models made from seeds
 * (quant_master_models.h): every preset master lists, with and without an
 * importance matrix, and a few option runs.  tests/data/quantize-master.tsv
 * holds master's exit status and output sha256 for each run, made by
 * scripts/golden-quantize-master.sh (docs/reference.md); its INPUT rows are
 * the sha256 of the models and importance matrices the script quantized, so
 * a change of the generator shows as such.  Runs without ../shared. */
#include "test.h"
#include "libgguf.h"

#include "quant_master_models.h"

#include <unistd.h>

#define INDEX "tests/data/quantize-master.tsv"

static bool file_sha(const char *path, char hex[65]) {
    size_t n;
    unsigned char *b = read_file(path, &n);
    if (!b) return false;
    sha256_hex(b, n, hex);
    free(b);
    return true;
}

/* One index row: gguf quantize -q --no-fsync ARGS MODEL.gguf out.gguf PRESET 2
 * in dir; same exit status as master's, and when 0 the same sha256. */
static bool check_run(const char *dir, char *model, char *preset, char *args, int want_rc, const char *want_sha) {
    char *argv[40], mp[160], out[1100];
    int a = 0;
    argv[a++] = "gguf";
    argv[a++] = "quantize";
    argv[a++] = "-q";
    argv[a++] = "--no-fsync";
    char *save = NULL;
    if (strcmp(args, "-") != 0)
        for (char *w = strtok_r(args, " ", &save); w && a < 32; w = strtok_r(NULL, " ", &save)) argv[a++] = w;
    snprintf(mp, sizeof mp, "%s.gguf", model);
    argv[a++] = mp;
    argv[a++] = "out.gguf";
    argv[a++] = preset;
    argv[a++] = "2";
    argv[a] = NULL;
    snprintf(out, sizeof out, "%s/out.gguf", dir);
    unlink(out);
    const int rc = run_gguf_in(dir, argv, NULL);
    char hex[65] = "-";
    if (rc == 0 && !file_sha(out, hex)) snprintf(hex, sizeof hex, "(no file)");
    /* where master crashes (134: an assertion; the --token-embedding-type and
     * --output-tensor-type overrides skip the fallback, so a Q1_0 of rows of
     * 192 reaches ggml's block assertion) gguf quantize refuses (1) */
    const int want = want_rc >= 128 ? 1 : want_rc;
    const bool ok = rc == want && (rc != 0 || !strcmp(hex, want_sha));
    CHECKF(ok, "%s %s %s: exit %d sha256 %s, master exit %d sha256 %s", model, preset, mp, rc, hex, want_rc, want_sha);
    return ok;
}

/* The index's rows for one model (quantize_master_presets/MODEL: the models
 * run in parallel): its model and importance matrix made as the script made
 * them, then each run. */
static void model_case(void *arg) {
    const qmm_model *m = arg;
    size_t n;
    char *tsv = (char *)read_file(INDEX, &n);
    REQUIRE(tsv != NULL);
    const char *dir = scratch_dir();
    char p[1100], q[1100];
    snprintf(p, sizeof p, "%s/%s.gguf", dir, m->name);
    snprintf(q, sizeof q, "%s/%s.imatrix.dat", dir, m->name);
    REQUIRE(qmm_write_model(m, p) && qmm_write_imatrix(m, q));
    size_t rows = 0, same = 0, inputs = 0, refused = 0, k = 0;
    char *save = NULL;
    for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !strncmp(line, "model\t", 6)) continue;
        char *f[5], *s2 = NULL;
        int nf = 0;
        for (char *c = strtok_r(line, "\t", &s2); c && nf < 5; c = strtok_r(NULL, "\t", &s2)) f[nf++] = c;
        REQUIRE(nf == 5);
        if (strcmp(f[0], m->name)) continue;
        if (!strcmp(f[1], "INPUT")) {
            char hex[65] = "";
            const char *in = strcmp(f[2], "-") ? q : p;
            CHECKF(file_sha(in, hex) && !strcmp(hex, f[4]), "%s: sha256 %s, the script's input %s", in, hex, f[4]);
            inputs++;
            continue;
        }
        /* reduced sweeps: one run in four */
        if (test_reduced_sweeps() && k++ % 4) continue;
        rows++;
        refused += atoi(f[3]) != 0;
        same += check_run(dir, f[0], f[1], f[2], atoi(f[3]), f[4]);
    }
    free(tsv);
    CHECK_EQ_U(inputs, 2);
    CHECKF(same == rows && rows > 0, "%zu of %zu runs as master's llama-quantize", same, rows);
    printf("    %zu runs as master's llama-quantize (%zu refused by both)\n", same, refused);
}

__attribute__((constructor)) static void register_models(void) {
    static char names[QMM_N_MODELS][64];
    for (size_t i = 0; i < QMM_N_MODELS; i++) {
        snprintf(names[i], sizeof names[i], "quantize_master_presets/%s", QMM_MODELS[i].name);
        test_register_arg(names[i], model_case, (void *)&QMM_MODELS[i]);
    }
}
