/* test_convert.c -- `gguf convert` and libgguf-convert.
 *
 * Golden: every run in ../shared/golden/convert/index.json of a supported
 * model is converted again and must have the sha256 llama.cpp's
 * convert_hf_to_gguf.py (b4747) gave, and equal the stored file byte for
 * byte where one is kept; the default invocation must choose the same file
 * name.  Bad input: hand-made model directories (a tiny llama with a
 * SentencePiece vocabulary) broken one way at a time must fail with exit
 * status 1, a message naming the file and the tensor or key, and no output
 * or temporary file left behind. */
#include "libgguf_convert.h"
#include "convert_cases.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS /* cross builds without jansson and libcrypto */

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>


static const uint32_t OUTTYPES[] = {LGG_CONVERT_F32, LGG_CONVERT_F16, LGG_CONVERT_BF16, LGG_CONVERT_Q8_0,
                                    LGG_CONVERT_AUTO};
static const char *const OUTNAMES[] = {"f32", "f16", "bf16", "q8_0", "auto"};

/* The models whose vocabulary this converter reads so far. */
static int supported(const char *family) {
    return !strcmp(family, "llama-spm") || !strcmp(family, "gemma2") || !strcmp(family, "qwen2");
}

static uint32_t outtype_of(const char *s) {
    for (size_t i = 0; i < 5; i++)
        if (!strcmp(s, OUTNAMES[i])) return OUTTYPES[i];
    return 99;
}

static int lib_threads; /* lgg_convert_options.n_threads for convert_lib */
static const char *lib_pre; /* lgg_convert_options.pre for convert_lib and the fused conversion */

/* Convert through the library into the scratch directory; the path (static
 * buffer) or NULL. */
static const char *convert_lib(const char *dir, uint32_t outtype, const char *tag) {
    static char out[4096];
    snprintf(out, sizeof out, "%s/%s.gguf", scratch_dir(), tag);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = outtype;
    o.n_threads = lib_threads;
    o.pre = lib_pre;
    lgg_convert *c = NULL;
    lgg_error err;
    if (lgg_convert_open(dir, &o, &c, &err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", tag, err.message);
        return NULL;
    }
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.flags |= LGG_WRITE_NO_SYNC;
    lgg_status st = lgg_writer_write_file(lgg_convert_writer(c), out, &wo, &err);
    if (st) test_fail(__FILE__, __LINE__, "%s: write: %s", tag, err.message);
    lgg_convert_free(c);
    return st ? NULL : out;
}

static void check_run(const json_t *run, const char *gdir, int *n_same) {
    const char *model = json_string_value(json_object_get(run, "model"));
    const char *ot = json_string_value(json_object_get(run, "outtype"));
    const char *want = json_string_value(json_object_get(run, "sha256"));
    if (!model || !ot || !want) return;
    char dir[4096], tag[256];
    snprintf(dir, sizeof dir, "%s/%s", gdir, model);
    snprintf(tag, sizeof tag, "%s.%s", model, ot);
    const char *out = convert_lib(dir, outtype_of(ot), tag);
    if (!out) return;
    size_t n = 0;
    unsigned char *got = read_file(out, &n);
    REQUIRE(got);
    char hex[65];
    sha256_hex(got, n, hex);
    CHECKF(!strcmp(hex, want), "%s: sha256 %s, reference %s", tag, hex, want);
    if (!strcmp(hex, want)) (*n_same)++;
    if (json_is_true(json_object_get(run, "stored"))) {
        char ref[4200];
        snprintf(ref, sizeof ref, "%s/%s", gdir, json_string_value(json_object_get(run, "output")));
        size_t rn = 0;
        unsigned char *r = read_file(ref, &rn);
        CHECKF(r && rn == n && !memcmp(r, got, n), "%s: differs from the stored %s", tag, ref);
        free(r);
    }
    free(got);
    unlink(out);
}

static json_t *load_index(const char **gdir) {
    *gdir = shared_path("golden/convert");
    char p[4200];
    snprintf(p, sizeof p, "%s/index.json", *gdir);
    return json_load_file(p, 0, NULL);
}

static const char *family_of(const json_t *idx, const char *model) {
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(idx, "models"), i, m) {
        if (!strcmp(json_string_value(json_object_get(m, "model")), model))
            return json_string_value(json_object_get(m, "family"));
    }
    return "";
}

TEST(convert_golden) {
    static char gdir[2048];
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return; /* reference material absent */
    snprintf(gdir, sizeof gdir, "%s", g);
    size_t i;
    json_t *run;
    int n_same = 0, n_runs = 0;
    json_array_foreach(json_object_get(idx, "runs"), i, run) {
        const char *model = json_string_value(json_object_get(run, "model"));
        if (!model || !supported(family_of(idx, model))) continue;
        if (test_reduced_sweeps() && i % 3) continue; /* one run in three */
        n_runs++;
        check_run(run, gdir, &n_same);
    }
    CHECKF(n_runs >= (test_reduced_sweeps() ? 5 : 15) && n_same == n_runs, "%d of %d runs byte-identical", n_same, n_runs);
    json_decref(idx);
}

/* The bytes do not depend on the number of threads converting rows. */
TEST(convert_golden_threads) {
    static char gdir[2048];
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return;
    snprintf(gdir, sizeof gdir, "%s", g);
    size_t i;
    json_t *run;
    int n_same = 0;
    for (int nt = 1; nt <= 5; nt += 4) {
        lib_threads = nt;
        json_array_foreach(json_object_get(idx, "runs"), i, run) {
            const char *model = json_string_value(json_object_get(run, "model"));
            const char *ot = json_string_value(json_object_get(run, "outtype"));
            if (model && ot && !strcmp(model, "gemma-2-tiny-12L-test") && strcmp(ot, "auto")) check_run(run, gdir, &n_same);
        }
    }
    lib_threads = 0;
    CHECKF(n_same == 8, "%d of 8 runs with 1 and 5 threads byte-identical", n_same);
    json_decref(idx);
}

/* The default invocation: the reference's file name, in the current directory. */
TEST(convert_default_name) {
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return;
    char gdir[4096], abs_build[4096];
    REQUIRE(realpath(g, gdir) && realpath(build_dir(), abs_build));
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(idx, "default_invocation"), i, d) {
        const char *model = json_string_value(json_object_get(d, "model"));
        const char *written = json_string_value(json_array_get(json_object_get(d, "written"), 0));
        if (!model || !written || !supported(family_of(idx, model))) continue;
        const char *base = strrchr(written, '/') ? strrchr(written, '/') + 1 : written;
        char cmd[12000];
        snprintf(cmd, sizeof cmd, "cd '%s' && '%s/gguf' convert -q --no-fsync '%s/%s'", scratch_dir(), abs_build, gdir,
                 model);
        char *argv[] = {"/bin/sh", "-c", cmd, NULL};
        char *out = NULL, *err = NULL;
        size_t ol, el;
        int status = -1;
        REQUIRE(run_capture(argv, &out, &ol, &err, &el, &status) == 0);
        CHECKF(status == 0, "%s: exit %d: %s", model, status, err);
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", scratch_dir(), base);
        size_t n = 0;
        unsigned char *got = read_file(path, &n);
        CHECKF(got != NULL, "%s: %s was not written", model, base);
        if (got) {
            char hex[65];
            sha256_hex(got, n, hex);
            CHECK_STR(hex, json_string_value(json_object_get(d, "sha256")));
        }
        free(got);
        unlink(path);
        free(out);
        free(err);
    }
    json_decref(idx);
}


/* `sh -c cmd` in the scratch directory: its exit status; its stderr into
 * err (malloc'd; the caller frees it). */
static int sh(const char *cmd, char **err) {
    char full[16384];
    snprintf(full, sizeof full, "cd '%s' && %s", scratch_dir(), cmd);
    char *argv[] = {"/bin/sh", "-c", full, NULL}, *out = NULL;
    size_t ol, el;
    int status = -1;
    *err = NULL;
    if (run_capture(argv, &out, &ol, err, &el, &status) != 0) status = -1;
    free(out);
    return status;
}

static int same_files(const char *a, const char *b) {
    size_t na = 0, nb = 0;
    unsigned char *x = read_file(a, &na), *y = read_file(b, &nb);
    int same = x && y && na == nb && !memcmp(x, y, na);
    free(x);
    free(y);
    return same;
}

/* --outtype A,B,...: every output equals its single-outtype run (f16 and
 * q8_0 are also the reference's stored outputs, the presets are checked
 * against llama-quantize in convert_fused_*); {ftype} is the reference's
 * lower-case encoding; a directory gets the default names; a failure
 * leaves no output. */
TEST(convert_multi_outtype) {
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return;
    json_decref(idx);
    char gdir[4096], build[4096], cmd[12000], *err = NULL;
    REQUIRE(realpath(g, gdir) && realpath(build_dir(), build));
    const char *model = "TinyLlama-2-Test-2x32";
    static const char *const single[] = {"f16", "q8_0", "Q4_K_M", "Q5_K_M"}, *const lower[] = {"f16", "q8_0", "q4_k_m", "q5_k_m"};
    REQUIRE(sh("rm -rf multi && mkdir -p multi/dir multi/f16", &err) == 0);
    free(err);
    snprintf(cmd, sizeof cmd, "'%s/gguf' convert -q --no-fsync --outtype f16,q8_0,Q4_K_M,Q5_K_M '%s/%s' -o 'multi/M-{ftype}.gguf'",
             build, gdir, model);
    int st = sh(cmd, &err);
    CHECKF(st == 0, "multi: exit %d: %s", st, err);
    free(err);
    for (size_t k = 0; k < 4; k++) {
        snprintf(cmd, sizeof cmd, "'%s/gguf' convert -q --no-fsync --outtype %s '%s/%s' -o multi/one.gguf", build,
                 single[k], gdir, model);
        CHECKF(sh(cmd, &err) == 0, "%s: %s", single[k], err);
        free(err);
        char a[4200], b[4200];
        snprintf(a, sizeof a, "%s/multi/M-%s.gguf", scratch_dir(), lower[k]);
        snprintf(b, sizeof b, "%s/multi/one.gguf", scratch_dir());
        CHECKF(same_files(a, b), "--outtype %s: the several-outtype output differs from the single run", single[k]);
        if (k < 2) {
            snprintf(b, sizeof b, "%s/%s.%s.gguf", gdir, model, single[k]);
            CHECKF(same_files(a, b), "--outtype %s: differs from the reference's %s", single[k], b);
        }
    }
    /* a directory: each output under its default name, as a single run names it */
    snprintf(cmd, sizeof cmd, "'%s/gguf' convert -q --no-fsync --outtype bf16,Q4_K_M '%s/%s' -o multi/dir && ls multi/dir >&2",
             build, gdir, model);
    CHECKF(sh(cmd, &err) == 0, "directory: %s", err);
    CHECK_STR(err, "TinyLlama-2-Test-2.1M-2x32-BF16.gguf\nTinyLlama-2-Test-2.1M-2x32-Q4_K_M.gguf\n");
    free(err);
    snprintf(cmd, sizeof cmd, "cd multi && '%s/gguf' convert -q --no-fsync --outtype Q4_K_M '%s/%s' && "
             "cmp TinyLlama-2-Test-2.1M-2x32-Q4_K_M.gguf dir/TinyLlama-2-Test-2.1M-2x32-Q4_K_M.gguf >&2", build, gdir, model);
    CHECKF(sh(cmd, &err) == 0, "default name: %s", err);
    free(err);
    /* q8_0's name is taken by a directory: f16, renamed into place first,
     * is taken back; no temporary file stays */
    snprintf(cmd, sizeof cmd, "mkdir multi/f16/M-q8_0.gguf && '%s/gguf' convert -q --no-fsync --outtype f16,q8_0 '%s/%s' -o 'multi/f16/M-{ftype}.gguf'",
             build, gdir, model);
    CHECKF(sh(cmd, &err) == 1, "failure: %s", err);
    CHECKF(err && strstr(err, "multi/f16/M-q8_0.gguf"), "the error names the output: %s", err);
    free(err);
    CHECKF(sh("test \"$(ls -A multi/f16)\" = M-q8_0.gguf", &err) == 0, "a failed run left files in multi/f16");
    free(err);
    /* {ftype} in a directory is not a template (the reference fills the file name only) */
    snprintf(cmd, sizeof cmd, "'%s/gguf' convert -q --outtype f16,q8_0 '%s/%s' -o 'multi/{ftype}/M.gguf'", build, gdir, model);
    CHECKF(sh(cmd, &err) == 2, "template in a directory: %s", err);
    free(err);
    /* several types and one file name: a usage error */
    snprintf(cmd, sizeof cmd, "'%s/gguf' convert -q --outtype f16,q8_0 '%s/%s' -o multi/x.gguf", build, gdir, model);
    CHECKF(sh(cmd, &err) == 2, "one name for two types: %s", err);
    CHECKF(err && strstr(err, "need {ftype} in -o"), "usage message: %s", err);
    free(err);
    sh("rm -rf multi", &err);
    free(err);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* A legacy imatrix with a vector of `ne0` positive weights for every 2-D
 * tensor of `f` (so every very-low-bit type can be used). */
static const char *make_imatrix(const lgg_file *f, const char *tag) {
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s.imatrix", scratch_dir(), tag);
    FILE *o = fopen(path, "wb");
    if (!o) return NULL;
    int32_t n = 0;
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) n += lgg_tensor_at(f, i)->n_dims >= 2;
    fwrite(&n, 4, 1, o);
    uint32_t seed = 12345;
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        if (t->n_dims < 2) continue;
        int32_t len = (int32_t)t->name.len, calls = 1, nv = (int32_t)(t->ne[0] * (t->n_dims > 2 ? t->ne[2] : 1));
        fwrite(&len, 4, 1, o);
        fwrite(t->name.ptr, 1, (size_t)len, o);
        fwrite(&calls, 4, 1, o);
        fwrite(&nv, 4, 1, o);
        for (int32_t k = 0; k < nv; k++) {
            seed = seed * 1103515245u + 12345u;
            float v = 0.05f + (float)(seed >> 8) / (float)(1u << 24);
            fwrite(&v, 4, 1, o);
        }
    }
    fclose(o);
    return path;
}

static int n_fused_same;
static void fused_vs_two_step(const char *dir, const char *model, const char *preset, int with_imatrix);

/* One preset both ways: auto conversion then the quantizer, and fused
 * (test.h). */
int convert_fused_vs_two_step(const char *dir, const char *model, const char *preset, int with_imatrix) {
    return convert_fused_vs_two_step_pre(dir, model, preset, with_imatrix, NULL);
}

int convert_fused_vs_two_step_pre(const char *dir, const char *model, const char *preset, int with_imatrix,
                                  const char *pre) {
    int before = n_fused_same;
    lib_pre = pre;
    fused_vs_two_step(dir, model, preset, with_imatrix);
    lib_pre = NULL;
    return n_fused_same > before;
}

static void fused_vs_two_step(const char *dir, const char *model, const char *preset, int with_imatrix) {
    char tag[256], two[4200], one[4200];
    snprintf(tag, sizeof tag, "%s.auto", model);
    const char *autop = convert_lib(dir, LGG_CONVERT_AUTO, tag);
    REQUIRE(autop);
    char autopath[4200];
    snprintf(autopath, sizeof autopath, "%s", autop);
    snprintf(two, sizeof two, "%s/%s.%s.two.gguf", scratch_dir(), model, preset);
    snprintf(one, sizeof one, "%s/%s.%s.one.gguf", scratch_dir(), model, preset);
    lgg_file *f = NULL;
    lgg_error err;
    REQUIRE(lgg_open_file(autopath, NULL, &f, &err) == LGG_OK);
    lgg_imatrix *im = NULL;
    const char *imf = with_imatrix ? make_imatrix(f, model) : NULL;
    if (imf) REQUIRE(lgg_imatrix_load_file(imf, NULL, &im, &err) == LGG_OK);
    lgg_quant_options qo;
    lgg_quant_options_init(&qo);
    qo.preset = lgg_quant_preset_find(preset);
    qo.imatrix = im;
    REQUIRE(qo.preset);
    lgg_quant_write_options qw;
    lgg_quant_write_options_init(&qw);
    qw.n_threads = 2;
    qw.imatrix_file = imf;
    qw.write_flags = LGG_WRITE_NO_SYNC;
    lgg_quant_plan *p = NULL;
    lgg_status st2 = lgg_quant_plan_create((const lgg_file *const *)&f, 1, &qo, &p, &err);
    if (st2 == LGG_OK) st2 = lgg_quant_plan_write(p, two, &qw, &err);
    lgg_quant_plan_free(p);
    lgg_close(f);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = LGG_CONVERT_AUTO;
    o.pre = lib_pre;
    lgg_convert *c = NULL;
    REQUIRE(lgg_convert_open(dir, &o, &c, &err) == LGG_OK);
    qw.n_threads = 3;
    lgg_status st1 = lgg_convert_write_quantized(c, &qo, &qw, one, &err);
    lgg_convert_free(c);
    lgg_imatrix_free(im);
    CHECKF(st1 == st2, "%s %s: fused status %d, two-step %d (%s)", model, preset, st1, st2, err.message);
    if (st1 == LGG_OK && st2 == LGG_OK) {
        size_t n1 = 0, n2 = 0;
        unsigned char *a = read_file(one, &n1), *b = read_file(two, &n2);
        CHECKF(a && b && n1 == n2 && !memcmp(a, b, n1), "%s %s%s: fused output differs from the two-step one", model,
               preset, imf ? " (imatrix)" : "");
        n_fused_same += a && b && n1 == n2 && !memcmp(a, b, n1);
        free(a);
        free(b);
    }
    unlink(one);
    unlink(two);
    unlink(autopath);
}

TEST(convert_fused_presets) {
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return;
    json_decref(idx);
    static const char *const models[] = {"TinyLlama-2-Test-2x32", "gemma-2-tiny-12L-test"};
    static const char *const presets[] = {"Q4_K_M", "Q8_0", "Q6_K", "Q5_K_S", "IQ4_XS", "Q4_0", "Q2_K", "Q3_K_L", "F16", "BF16"};
    int before = n_fused_same, tried = 0; /* other tests count theirs through convert_fused_vs_two_step */
    const size_t step = test_reduced_sweeps() ? 3 : 1; /* reduced sweeps: one preset in three */
    for (size_t m = 0; m < 2; m++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", g, models[m]);
        for (size_t i = m % step; i < sizeof presets / sizeof presets[0]; i += step, tried++)
            fused_vs_two_step(dir, models[m], presets[i], 0);
        fused_vs_two_step(dir, models[m], "IQ2_XXS", 1);
        fused_vs_two_step(dir, models[m], "Q4_K_M", 1);
        tried += 2;
    }
    CHECKF(n_fused_same - before == tried, "%d of %d fused outputs equal the two-step ones", n_fused_same - before, tried);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* --vocab-only: the reference's metadata without general.size_label (no
 * tensors to count), no tensors, and the name "<base>-<finetune>-vocab.gguf";
 * its bytes are those of convert_hf_to_gguf.py b4747 --vocab-only --outtype
 * f16 (no padding after the metadata: gguf-py writes none without tensors). */
static const char VOCAB_ONLY_SHA[] = "85dad5a5ba3aadaaf5d19b3551c4eaef0923000b9fb7815efd33cfd16dfaed96";

TEST(convert_vocab_only) {
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return;
    json_decref(idx);
    char dir[4096], ref[4200], abs_build[4096], cmd[12000];
    REQUIRE(realpath(g, dir) && realpath(build_dir(), abs_build));
    snprintf(ref, sizeof ref, "%s/TinyLlama-2-Test-2x32.f16.gguf", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s/gguf' convert --vocab-only -q --no-fsync '%s/TinyLlama-2-Test-2x32'",
             scratch_dir(), abs_build, dir);
    char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    char *so = NULL, *se = NULL;
    size_t sl, el;
    int status = -1;
    REQUIRE(run_capture(argv, &so, &sl, &se, &el, &status) == 0);
    CHECKF(status == 0, "exit %d: %s", status, se);
    free(so);
    free(se);
    char out[4200];
    snprintf(out, sizeof out, "%s/TinyLlama-2-Test-2x32-vocab.gguf", scratch_dir());
    lgg_file *a = NULL, *b = NULL;
    REQUIRE(lgg_open_file(out, NULL, &a, NULL) == LGG_OK);
    REQUIRE(lgg_open_file(ref, NULL, &b, NULL) == LGG_OK);
    CHECK_EQ_U(lgg_tensor_count(a), 0);
    size_t n = 0;
    unsigned char *bytes = read_file(out, &n);
    char sha[65] = "";
    if (bytes) sha256_hex(bytes, n, sha);
    free(bytes);
    CHECKF(!strcmp(sha, VOCAB_ONLY_SHA), "--vocab-only output %s (%zu bytes), the reference's %s", sha, n, VOCAB_ONLY_SHA);
    CHECK_EQ_U(lgg_kv_count(a) + 1, lgg_kv_count(b));
    for (uint64_t i = 0, j = 0; i < lgg_kv_count(a) && j < lgg_kv_count(b); i++, j++) {
        const lgg_kv *x = lgg_kv_at(a, i), *y = lgg_kv_at(b, j);
        if (y->key.len == 18 && !memcmp(y->key.ptr, "general.size_label", 18)) y = lgg_kv_at(b, ++j);
        CHECKF(x->key.len == y->key.len && !memcmp(x->key.ptr, y->key.ptr, x->key.len) && x->value.type == y->value.type,
               "key %llu: %.*s, reference %.*s", (unsigned long long)i, (int)x->key.len, x->key.ptr, (int)y->key.len,
               y->key.ptr);
    }
    lgg_close(a);
    lgg_close(b);
    unlink(out);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Run a shell command; a failed check names the case (a, b, c). */
static void sh_ok(const char *cmd, const char *a, const char *b, const char *c) {
    char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
    char *so = NULL, *se = NULL;
    size_t sl, el;
    int status = -1;
    REQUIRE(run_capture(argv, &so, &sl, &se, &el, &status) == 0);
    CHECKF(status == 0, "%s %s %s: status %d, %s %s", a, b, c, status, so, se);
    free(so);
    free(se);
}

/* The golden directory and the build directory as absolute paths; 0 when
 * the reference material is absent. */
static int split_paths(char dir[4096], char abs_build[4096]) {
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return 0;
    json_decref(idx);
    int ok = realpath(g, dir) && realpath(build_dir(), abs_build);
    CHECK(ok);
    return ok;
}

/* --split-max-size / --split-max-tensors: a shard set (the reference's
 * bytes are checked in test_convert_refopts.c) that `gguf merge` gives
 * back as the unsplit conversion, byte for byte. */
static void split_case(const char *model, const char *opt, const char *val, const char *golden) {
    char dir[4096], abs_build[4096], cmd[32768];
    if (!split_paths(dir, abs_build)) return;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -rf split && mkdir split && cd split && g='%s/gguf' && $g convert -q --no-fsync %s %s '%s/%s'"
             " -o cv.gguf && n=$(ls cv-*-of-*.gguf | wc -l) && test $n -gt 1 && test ! -e cv.gguf &&"
             " $g merge cv-00001-of-0000$n.gguf merged.gguf >/dev/null && cmp merged.gguf '%s/%s'",
             scratch_dir(), abs_build, opt, val, dir, model, dir, golden);
    sh_ok(cmd, model, opt, val);
}

/* With a preset: the shards of the fused output (the rule applied to the
 * quantized sizes) merge back to the unsplit fused output. */
static void split_preset_case(const char *model, const char *preset, const char *opt, const char *val) {
    char dir[4096], abs_build[4096], cmd[32768];
    if (!split_paths(dir, abs_build)) return;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -rf splitq && mkdir splitq && cd splitq && g='%s/gguf' && m='%s/%s' &&"
             " $g convert -q --no-fsync --outtype %s $m -o whole.gguf &&"
             " $g convert -q --no-fsync --outtype %s %s %s $m -o cv.gguf && n=$(ls cv-*-of-*.gguf | wc -l) &&"
             " test $n -gt 1 && $g merge cv-00001-of-0000$n.gguf merged.gguf >/dev/null && cmp merged.gguf whole.gguf",
             scratch_dir(), abs_build, dir, model, preset, preset, opt, val);
    sh_ok(cmd, model, preset, val);
}

TEST(convert_split) {
    split_case("TinyLlama-2-Test-2x32", "--split-max-tensors", "7", "TinyLlama-2-Test-2x32.f16.gguf");
    split_case("gemma-2-tiny-12L-test", "--split-max-size", "300K", "gemma-2-tiny-12L-test.f16.gguf");
    split_preset_case("TinyLlama-2-Test-2x32", "Q4_K_M", "--split-max-tensors", "5");
    split_preset_case("gemma-2-tiny-12L-test", "IQ4_XS", "--split-max-size", "100K");
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* --outtype PRESET against llama.cpp itself: the golden auto conversion
 * (the reference converter's f16, or bf16 for gemma) quantized by
 * llama-quantize b4747, built outside the repo; its outputs' sha256.  The Q2_K
 * rows are master's (3f545becc, same command): master falls Q2_K and Q3_K
 * rows that 256 does not divide back to Q4_0 where b4747 chose IQ4_NL
 * (b4747's: 9c99417c... and 1ab4a252...); the other ten are the same in both. */
static const struct {
    const char *model, *preset, *sha256;
} LLAMA_QUANTIZE[] = {
    {"TinyLlama-2-Test-2x32", "Q4_K_M", "4528d4562f056b4ea2ad92ffed2963ca995d48f271dbe139d46e8d8066981699"},
    {"TinyLlama-2-Test-2x32", "Q8_0", "57fe762f9e386409499b732b69802e728f46ea3438983d7b7ea79eaa38bdd81e"},
    {"TinyLlama-2-Test-2x32", "IQ4_XS", "4a6e85010673de71ce863d2a6778d49a562ce8186726a3c0cc523fb853a59d6b"},
    {"TinyLlama-2-Test-2x32", "Q5_K_S", "caafd41f276226d083535a7bf290624ac42cf0766f823a563f4948cc45e5a58e"},
    {"TinyLlama-2-Test-2x32", "Q2_K", "ac3085b4c2ebc5c57dd656f57e9b6e27c41599171e3124c63250fb534e19f002"},
    {"TinyLlama-2-Test-2x32", "Q6_K", "b74887648716331106dcde920e35fd2bc311001054ce9c395ef6c28bf8791379"},
    {"gemma-2-tiny-12L-test", "Q4_K_M", "e84e0eba4ff5d9b07a4a9584d72cd2a4fdf9de0b8c0e951cdbbe8b349feb43df"},
    {"gemma-2-tiny-12L-test", "Q8_0", "c586b13c5e0221a215d90c79b82312bb59a8893145d40c43e8dd27d868f9b569"},
    {"gemma-2-tiny-12L-test", "IQ4_XS", "5b171de43140d74643457fee2be562c486e1d4f74fa632bbeeb5dc784bc1a9ce"},
    {"gemma-2-tiny-12L-test", "Q5_K_S", "720b92e2039bb2e44264ff9f4097e502aebf4f5ec5e1eded0291e0395ebc6d9a"},
    {"gemma-2-tiny-12L-test", "Q2_K", "9829673c7c7a8ac57c0ad8a379659198733e03cea0ef9b6d15a6d3704dd72cd2"},
    {"gemma-2-tiny-12L-test", "Q6_K", "a514e8730098f62c1a997bb2d1c936866db794b664b9cfa69bd9ad183c55a88b"},
};

/* The fused conversion of dir with a preset against a recorded sha256 (test.h). */
int convert_preset_sha_ok(const char *dir, const char *preset, const char *sha) {
    char out[4300];
    snprintf(out, sizeof out, "%s.lq.gguf", dir);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = LGG_CONVERT_AUTO;
    lgg_quant_options qo;
    lgg_quant_options_init(&qo);
    qo.preset = lgg_quant_preset_find(preset);
    lgg_quant_write_options qw;
    lgg_quant_write_options_init(&qw);
    qw.write_flags = LGG_WRITE_NO_SYNC;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    if (st == LGG_OK) st = lgg_convert_write_quantized(c, &qo, &qw, out, &err);
    lgg_convert_free(c);
    size_t len = 0;
    unsigned char *b = st == LGG_OK ? read_file(out, &len) : NULL;
    char hex[65] = "";
    if (b) sha256_hex(b, len, hex);
    free(b);
    unlink(out);
    CHECKF(!strcmp(hex, sha), "%s %s: sha256 %s, llama-quantize %s (%s)", dir, preset, hex, sha, st ? err.message : "");
    return !strcmp(hex, sha);
}

TEST(convert_fused_vs_llama_quantize) {
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return;
    json_decref(idx);
    int same = 0, n = (int)(sizeof LLAMA_QUANTIZE / sizeof LLAMA_QUANTIZE[0]);
    for (int i = 0; i < n; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", g, LLAMA_QUANTIZE[i].model);
        same += convert_preset_sha_ok(dir, LLAMA_QUANTIZE[i].preset, LLAMA_QUANTIZE[i].sha256);
    }
    CHECKF(same == n, "%d of %d fused conversions equal llama-quantize's output", same, n);
}

/* An lgg_convert_io over a local folder that records what is read, and
 * can fail a read or hide a file. */
typedef struct rec_io {
    const char *dir;
    char names[16][256];
    uint64_t sizes[16], read[16]; /* per file: bytes read */
    size_t n;
    uint64_t small_reads;         /* reads of tensor data under the chunk, not to the file's end */
    int fail_data;                /* fail the reads of tensor data */
} rec_io;

static const char *rec_file_at(void *ud, size_t i, uint64_t *size) {
    rec_io *r = ud;
    if (i >= r->n) return NULL;
    *size = r->sizes[i];
    return r->names[i];
}

static lgg_status rec_read(void *ud, const char *name, uint64_t off, void *dst, size_t n, lgg_error *err) {
    rec_io *r = ud;
    size_t k = 0;
    while (k < r->n && strcmp(r->names[k], name)) k++;
    if (k == r->n) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%s: not listed", name);
    int shard = strstr(name, ".safetensors") != NULL;
    /* a shard's reads: its header's length at 0, the header at 8, then tensor data */
    if (shard && off > 8 && r->fail_data)
        return lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s: the provider's own error", name);
    if (shard && off > 8 && n < LGG_CONVERT_IO_CHUNK && off + n != r->sizes[k]) r->small_reads++;
    r->read[k] += n;
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", r->dir, name);
    FILE *f = fopen(p, "rb");
    int ok = f && fseeko(f, (off_t)off, SEEK_SET) == 0 && fread(dst, 1, n, f) == n;
    if (f) fclose(f);
    return ok ? LGG_OK : lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s: cannot read", name);
}

/* The folder's files into r (hide: one left out). */
static void rec_list(rec_io *r, const char *dir, const char *hide) {
    memset(r, 0, sizeof *r);
    r->dir = dir;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) && r->n < 16) {
        char p[4096];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(p, &st) != 0 || (hide && !strcmp(e->d_name, hide))) continue;
        snprintf(r->names[r->n], sizeof r->names[0], "%s", e->d_name);
        r->sizes[r->n++] = (uint64_t)st.st_size;
    }
    if (d) closedir(d);
}

/* lgg_convert_options.io: the golden gemma-2 checkpoint (two shards and an
 * index) read only through the provider gives the reference's f16 bytes
 * and default name, each byte of a shard read once at most, the tensor
 * data in ranges of LGG_CONVERT_IO_CHUNK or to a file's end; the
 * provider's error comes back from the write in its own words; a shard the
 * index names that the provider does not list is named; an io without its
 * callbacks is refused. */
TEST(convert_io_provider) {
    const char *g;
    json_t *idx = load_index(&g);
    if (!idx) return;
    char dir[4096], want[65] = "", hex[65], out[4200];
    snprintf(dir, sizeof dir, "%s/gemma-2-tiny-12L-test", g);
    size_t i;
    json_t *run;
    json_array_foreach(json_object_get(idx, "runs"), i, run) {
        if (!strcmp(json_string_value(json_object_get(run, "output")), "gemma-2-tiny-12L-test.f16.gguf"))
            snprintf(want, sizeof want, "%s", json_string_value(json_object_get(run, "sha256")));
    }
    json_decref(idx);
    static rec_io r;
    rec_list(&r, dir, NULL);
    lgg_convert_io io = {.size = sizeof io, .ud = &r, .file_at = rec_file_at, .read = rec_read};
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.io = &io;
    lgg_convert *c = NULL;
    lgg_error err;
    /* "dir" names the folder only: a path that does not exist */
    REQUIRE(lgg_convert_open("/nonexistent/gemma-2-tiny-12L-test", &o, &c, &err) == LGG_OK);
    char name[256], local_name[256];
    lgg_convert_default_name(c, name, sizeof name);
    snprintf(out, sizeof out, "%s/io.gguf", scratch_dir());
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.flags |= LGG_WRITE_NO_SYNC;
    CHECKF(lgg_writer_write_file(lgg_convert_writer(c), out, &wo, &err) == LGG_OK, "write: %s", err.message);
    lgg_convert_free(c);
    size_t n = 0;
    unsigned char *b = read_file(out, &n);
    if (b) sha256_hex(b, n, hex);
    CHECKF(b && !strcmp(hex, want), "io: sha256 %s, the reference's %s", b ? hex : "-", want);
    free(b);
    lgg_convert_options_init(&o);
    REQUIRE(lgg_convert_open(dir, &o, &c, &err) == LGG_OK);
    lgg_convert_default_name(c, local_name, sizeof local_name);
    lgg_convert_free(c);
    CHECK_STR(name, local_name);
    for (size_t k = 0; k < r.n; k++)
        if (strstr(r.names[k], ".safetensors"))
            CHECKF(r.read[k] > 0 && r.read[k] <= r.sizes[k], "%s: %llu bytes read of %llu", r.names[k],
                   (unsigned long long)r.read[k], (unsigned long long)r.sizes[k]);
    CHECKF(r.small_reads == 0, "%llu reads of tensor data under the chunk", (unsigned long long)r.small_reads);
    /* the provider's error, in its words */
    o.io = &io;
    r.fail_data = 1;
    REQUIRE(lgg_convert_open("gemma-2-tiny-12L-test", &o, &c, &err) == LGG_OK);
    CHECK(lgg_writer_write_file(lgg_convert_writer(c), out, &wo, &err) == LGG_ERR_IO &&
          strstr(err.message, "model-00001-of-00002.safetensors: the provider's own error"));
    lgg_convert_free(c);
    /* a shard missing */
    rec_list(&r, dir, "model-00002-of-00002.safetensors");
    CHECK(lgg_convert_open("gemma-2-tiny-12L-test", &o, &c, &err) == LGG_ERR_IO &&
          strstr(err.message, "gemma-2-tiny-12L-test/model-00002-of-00002.safetensors: missing or incomplete shard"));
    io.read = NULL;
    CHECK(lgg_convert_open("gemma-2-tiny-12L-test", &o, &c, &err) == LGG_ERR_ARG);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Stacked experts read through lgg_convert_io: each byte of the shard read
 * once (issue 34: a Mixtral-style checkpoint from the hub fetched 1.67x
 * its bytes, the read-ahead of one expert's matrix taking in the others'
 * that the next stacked tensor read again), the same output as the local
 * folder's. */
TEST(convert_io_moe_reads_each_byte_once) {
    char dir[4100], out[4200], hex[65], want[65];
    snprintf(dir, sizeof dir, "%s/moe-io", scratch_dir());
    uint64_t size = cv_case_moe_large(dir);
    REQUIRE(size > LGG_CONVERT_IO_CHUNK);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.flags |= LGG_WRITE_NO_SYNC;
    lgg_convert *c = NULL;
    lgg_error err;
    snprintf(out, sizeof out, "%s/moe-local.gguf", scratch_dir());
    REQUIRE(lgg_convert_open(dir, &o, &c, &err) == LGG_OK);
    CHECKF(lgg_writer_write_file(lgg_convert_writer(c), out, &wo, &err) == LGG_OK, "local: %s", err.message);
    lgg_convert_free(c);
    REQUIRE(file_sha256(out, want));
    unlink(out);
    static rec_io r;
    rec_list(&r, dir, NULL);
    lgg_convert_io io = {.size = sizeof io, .ud = &r, .file_at = rec_file_at, .read = rec_read};
    o.io = &io;
    REQUIRE(lgg_convert_open(dir, &o, &c, &err) == LGG_OK);
    CHECKF(lgg_writer_write_file(lgg_convert_writer(c), out, &wo, &err) == LGG_OK, "io: %s", err.message);
    lgg_convert_free(c);
    CHECK(file_sha256(out, hex) && !strcmp(hex, want));
    unlink(out);
    for (size_t k = 0; k < r.n; k++) {
        if (strcmp(r.names[k], "model.safetensors")) continue;
        printf("    %llu bytes read of %llu (%.3fx), %llu reads of tensor data under the chunk\n",
               (unsigned long long)r.read[k], (unsigned long long)size, (double)r.read[k] / (double)size,
               (unsigned long long)r.small_reads);
        CHECKF(r.read[k] <= size, "%llu bytes read of a %llu-byte shard", (unsigned long long)r.read[k],
               (unsigned long long)size);
    }
}
#endif
