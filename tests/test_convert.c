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
static int supported(const char *family) { return !strcmp(family, "llama-spm") || !strcmp(family, "gemma2"); }

static uint32_t outtype_of(const char *s) {
    for (size_t i = 0; i < 5; i++)
        if (!strcmp(s, OUTNAMES[i])) return OUTTYPES[i];
    return 99;
}

/* Convert through the library into the scratch directory; the path (static
 * buffer) or NULL. */
static const char *convert_lib(const char *dir, uint32_t outtype, const char *tag) {
    static char out[4096];
    snprintf(out, sizeof out, "%s/%s.gguf", scratch_dir(), tag);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = outtype;
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
        n_runs++;
        check_run(run, gdir, &n_same);
    }
    CHECKF(n_runs >= 10 && n_same == n_runs, "%d of %d runs byte-identical", n_same, n_runs);
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

#endif
