/* test_quant_model.c -- `gguf quantize` against llama-quantize b4747 (where
 * master changed b4747's bytes, master's: b4747_sha256).
 *
 * ../shared/golden/llama-quantize/ *.presets.json record what llama-quantize
 * made of two tiny models for every preset and option.  Every run is
 * repeated with the gguf tool (2 threads, run in the golden directory so
 * that quantize.imatrix.file records the same relative name) and must give
 * the same exit status and, when it succeeds, the same file: its sha256,
 * every metadata key and type in order, every tensor's name, type and
 * sha256.  Then the library path with 1 and 3 threads must give the same
 * bytes as with 2, and a refused run must leave no file behind.
 *
 * Without ../shared the models are their stand-ins (standin.h: the
 * reference's header, tensor data from a seed) and the runs come from
 * tests/data/golden/llama-quantize.json (scripts/make-golden-index.py):
 * every run is still made and its exit status, keys and types, tensor
 * names and types and dry-run plan compared with llama-quantize's; the
 * bytes of the data, which are not the reference's, are compared between
 * thread counts instead of with the reference's hashes. */
#include "libgguf.h"
#include "standin.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS /* cross builds without jansson and libcrypto */

#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;


/* ../shared/golden/llama-quantize, or the stand-ins' directory. */
static const char *golden_dir(void) {
    static char d[2048];
    snprintf(d, sizeof d, "%s", ref_path("golden/llama-quantize"));
    return d;
}

/* Where llama.cpp master changed b4747's bytes and gguf quantize follows
 * master (docs/reference.md): quantize.imatrix.entries_count and
 * .chunks_count, and the keys of --override-kv KEY=int:V, are u32 where
 * b4747 wrote i32 (same 4 value bytes for these positive numbers).  True for
 * such a key of the output, given the run's arguments (or NULL). */
static bool master_u32_key(const lgg_kv *kv, json_t *args) {
    if (kv->value.type != LGG_VT_U32) return false;
    static const char *const COUNTS[] = {"quantize.imatrix.entries_count", "quantize.imatrix.chunks_count"};
    for (int i = 0; i < 2; i++)
        if (kv->key.len == strlen(COUNTS[i]) && !memcmp(kv->key.ptr, COUNTS[i], kv->key.len)) return true;
    for (size_t i = 0; i + 1 < json_array_size(args); i++) {
        const char *a = json_string_value(json_array_get(args, i)), *v = json_string_value(json_array_get(args, i + 1));
        if (a && v && !strcmp(a, "--override-kv") && !strncmp(v, kv->key.ptr, kv->key.len) &&
            !strncmp(v + kv->key.len, "=int:", 5))
            return true;
    }
    return false;
}

/* The sha256 of the output with master's u32 keys written back as b4747's
 * i32: what b4747's file must then be, byte for byte. */
static void b4747_sha256(const unsigned char *bytes, size_t n, json_t *args, char hex[65]) {
    unsigned char *c = malloc(n ? n : 1);
    memcpy(c, bytes, n);
    lgg_file *f = NULL;
    if (lgg_open_memory(bytes, n, NULL, &f, NULL) == LGG_OK) {
        for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
            const lgg_kv *kv = lgg_kv_at(f, i);
            const uint64_t at = kv->offset + 8 + kv->key.len;
            const uint32_t i32 = LGG_VT_I32;
            if (master_u32_key(kv, args) && at + 4 <= n) memcpy(c + at, &i32, 4);
        }
        lgg_close(f);
    }
    sha256_hex(c, n, hex);
    free(c);
}

/* The runs of golden/llama-quantize/JSON_NAME (a presets.json), or without
 * ../shared the same runs rebuilt from the compact copy, without the
 * tensors' hashes (each tensor [name, type]); NULL if neither reads. */
static json_t *load_runs(const char *json_name) {
    char jp[4200];
    if (shared_present()) {
        snprintf(jp, sizeof jp, "%s/%s", golden_dir(), json_name);
        return json_load_file(jp, 0, NULL);
    }
    json_t *c = json_load_file("tests/data/golden/llama-quantize.json", 0, NULL);
    json_t *runs = json_object_get(json_object_get(c, "models"), json_name), *out = json_array(), *r;
    json_t *kvs = json_object_get(c, "kvs"), *names = json_object_get(c, "names");
    size_t i;
    json_array_foreach(runs, i, r) {
        json_t *run = json_deep_copy(r);
        json_t *nm = json_array_get(names, (size_t)json_integer_value(json_object_get(r, "names")));
        const char *types = json_string_value(json_object_get(r, "types"));
        if (types) {
            json_object_set(run, "kvs", json_array_get(kvs, (size_t)json_integer_value(json_object_get(r, "kvs"))));
            json_t *ts = json_array();
            char ty[32];
            int used = 0;
            for (size_t k = 0; k < json_array_size(nm) && sscanf(types, "%31s%n", ty, &used) == 1; k++, types += used)
                json_array_append_new(ts, json_pack("[Os]", json_array_get(nm, k), ty));
            json_object_set_new(run, "tensors", ts);
        }
        json_array_append_new(out, run);
    }
    json_t *root = runs ? json_pack("{so}", "runs", out) : NULL;
    if (!root) json_decref(out);
    json_decref(c);
    return root;
}

/* Compare a written file with a golden run record. */
static void check_output(const char *tag, const char *path, json_t *run) {
    size_t n;
    unsigned char *bytes = read_file(path, &n);
    CHECKF(bytes != NULL, "%s: no output file", tag);
    if (!bytes) return;
    char hex[65];
    json_t *args = json_object_get(run, "args");
    b4747_sha256(bytes, n, args, hex);
    const char *want = json_string_value(json_object_get(run, "file_sha256"));
    const bool data = shared_present(); /* the stand-ins' data is not the reference's */
    CHECKF(!data || (want && !strcmp(hex, want)), "%s: file sha256 %s (master's u32 keys as b4747's i32), llama-quantize %s",
           tag, hex, want ? want : "?");
    lgg_file *f = NULL;
    CHECKF(lgg_open_memory(bytes, n, NULL, &f, NULL) == LGG_OK, "%s: output does not open", tag);
    if (f) {
        json_t *kvs = json_object_get(run, "kvs");
        CHECKF(json_array_size(kvs) == lgg_kv_count(f), "%s: %zu keys, llama-quantize %zu", tag,
               (size_t)lgg_kv_count(f), json_array_size(kvs));
        for (size_t i = 0; i < json_array_size(kvs) && i < lgg_kv_count(f); i++) {
            json_t *kv = json_array_get(kvs, i);
            const char *key = json_string_value(json_array_get(kv, 0));
            const lgg_kv *got = lgg_kv_at(f, i);
            const uint32_t want_type = (uint32_t)json_integer_value(json_array_get(kv, 1));
            CHECKF(key && got->key.len == strlen(key) && !memcmp(got->key.ptr, key, got->key.len) &&
                       (got->value.type == want_type || (want_type == LGG_VT_I32 && master_u32_key(got, args))),
                   "%s: key %zu: %.*s (type %u), llama-quantize %s (type %d)", tag, i, (int)got->key.len,
                   got->key.ptr, got->value.type, key ? key : "?", (int)json_integer_value(json_array_get(kv, 1)));
        }
        json_t *ts = json_object_get(run, "tensors");
        CHECKF(json_array_size(ts) == lgg_tensor_count(f), "%s: %zu tensors", tag, (size_t)lgg_tensor_count(f));
        for (size_t i = 0; i < json_array_size(ts) && i < lgg_tensor_count(f); i++) {
            json_t *t = json_array_get(ts, i);
            const char *name = json_string_value(json_array_get(t, 0));
            const char *type = json_string_value(json_array_get(t, 1));
            const char *sha = json_string_value(json_array_get(t, 2));
            const lgg_tensor *g = lgg_tensor_at(f, i);
            char th[65];
            sha256_hex(g->data, (size_t)g->size, th);
            CHECKF(name && g->name.len == strlen(name) && !memcmp(g->name.ptr, name, g->name.len), "%s: tensor %zu name",
                   tag, i);
            CHECKF(type && !strcmp(lgg_type_name(g->type), type), "%s: %s is %s, llama-quantize %s", tag,
                   name ? name : "?", lgg_type_name(g->type), type ? type : "?");
            CHECKF(!data || (sha && !strcmp(th, sha)), "%s: %s bytes differ", tag, name ? name : "?");
        }
        lgg_close(f);
    }
    free(bytes);
}

/* The same arguments with --dry-run --json: the plan printed must give
 * each tensor the type llama-quantize chose, and the predicted file size
 * must be the size of the file written. */
static void check_dry_run(const char *tag, char **argv, int argc, json_t *run, uint64_t size) {
    char *dv[40];
    int k = 0;
    for (int i = 0; i < argc; i++) {
        dv[k++] = argv[i];
        if (i == 1) {
            dv[k++] = "--dry-run";
            dv[k++] = "--json";
        }
    }
    dv[k] = NULL;
    char outp[1024];
    snprintf(outp, sizeof outp, "%s/dry.json", scratch_dir());
    char tool[4200], abs_build[4096];
    REQUIRE(realpath(build_dir(), abs_build) != NULL);
    snprintf(tool, sizeof tool, "%s/gguf", abs_build);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addchdir_np(&fa, golden_dir());
    pid_t pid;
    int rc = posix_spawn(&pid, tool, &fa, NULL, dv, environ);
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
    int st;
    while (waitpid(pid, &st, 0) < 0) {
    }
    CHECKF(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: dry run failed", tag);
    json_t *plan = json_load_file(outp, 0, NULL);
    CHECKF(plan != NULL, "%s: dry run printed no JSON", tag);
    if (!plan) return;
    CHECKF((uint64_t)json_integer_value(json_object_get(plan, "file_size")) == size,
           "%s: dry run predicts %lld bytes, the file has %llu", tag,
           (long long)json_integer_value(json_object_get(plan, "file_size")), (unsigned long long)size);
    json_t *pt = json_object_get(plan, "tensors"), *gt = json_object_get(run, "tensors");
    CHECK(json_array_size(pt) == json_array_size(gt));
    for (size_t i = 0; i < json_array_size(pt) && i < json_array_size(gt); i++) {
        const char *a = json_string_value(json_object_get(json_array_get(pt, i), "name"));
        const char *b = json_string_value(json_array_get(json_array_get(gt, i), 0));
        const char *ta = json_string_value(json_object_get(json_array_get(pt, i), "new_type"));
        const char *tb = json_string_value(json_array_get(json_array_get(gt, i), 1));
        CHECKF(a && b && ta && tb && !strcmp(a, b) && !strcmp(ta, tb), "%s: dry run tensor %zu", tag, i);
    }
    json_decref(plan);
    unlink(outp);
}

static void golden_runs(const char *json_name, const char *stem) {
    json_t *root = load_runs(json_name);
    REQUIRE(root != NULL);
    json_t *runs = json_object_get(root, "runs");
    REQUIRE(json_array_size(runs) == 72);
    char requant_in[1024] = "";
    size_t n_ok = 0, n_refused = 0;
    for (size_t r = 0; r < json_array_size(runs); r++) {
        json_t *run = json_array_get(runs, r);
        const char *tag = json_string_value(json_object_get(run, "tag"));
        const char *model = json_string_value(json_object_get(run, "model"));
        const char *preset = json_string_value(json_object_get(run, "preset"));
        /* master refuses IQ3_XS without an importance matrix (its attn_q/attn_k
         * get IQ3_XXS, which master requires one for; b4747 did not):
         * scripts/compare-quantize-master.sh, docs/reference.md */
        const bool master_refuses = !strcmp(tag, "IQ3_XS");
        const int want_rc = master_refuses ? 1 : (int)json_integer_value(json_object_get(run, "rc"));
        json_t *args = json_object_get(run, "args");
        /* reduced sweeps: one run in three, and Q8_0 (the requantize runs' input) */
        if (test_reduced_sweeps() && r % 3 && strcmp(tag, "Q8_0")) continue;
        char out[1024], errp[1024];
        snprintf(out, sizeof out, "%s/%s-%s.gguf", scratch_dir(), stem, tag);
        snprintf(errp, sizeof errp, "%s/%s-%s.err", scratch_dir(), stem, tag);
        /* the requantize runs start from llama-quantize's Q8_0 of the model,
         * which the Q8_0 run (checked against its sha256) has just made */
        const bool requant = strstr(model, ".Q8_0.gguf") != NULL;
        if (requant) REQUIRE(requant_in[0] != 0);
        char *argv[32];
        int a = 0;
        argv[a++] = "gguf";
        argv[a++] = "quantize";
        argv[a++] = "-q";
        argv[a++] = "--no-fsync"; /* durability is not what is compared; syncs cost seconds */
        for (size_t i = 0; i < json_array_size(args) && a < 24; i++)
            argv[a++] = (char *)json_string_value(json_array_get(args, i));
        argv[a++] = requant ? requant_in : (char *)model;
        argv[a++] = out;
        argv[a++] = (char *)preset;
        argv[a++] = "2";
        argv[a] = NULL;
        int rc = run_gguf_in(golden_dir(), argv, errp);
        CHECKF(rc == want_rc, "%s %s: exit status %d, llama-quantize %d", stem, tag, rc, want_rc);
        struct stat st;
        if (want_rc == 0) {
            n_ok++;
            check_output(tag, out, run);
            check_dry_run(tag, argv, a, run, stat(out, &st) == 0 ? (uint64_t)st.st_size : 0);
        } else {
            n_refused++;
            CHECKF(stat(out, &st) != 0, "%s %s: a refused run left %s", stem, tag, out);
        }
        if (!strcmp(tag, "Q8_0")) snprintf(requant_in, sizeof requant_in, "%s", out);
        else unlink(out);
        unlink(errp);
    }
    if (!test_reduced_sweeps()) {
        CHECK_EQ_U(n_ok + n_refused, 72);
        CHECK(n_refused == 9); /* b4747's 8 and IQ3_XS */
    } else {
        CHECK(n_ok + n_refused >= 24);
    }
    json_decref(root);
}

TEST(quant_model_golden_dense) {
    if (!need_models()) return;
    golden_runs("pub-dense-f16.presets.json", "dense");
}
TEST(quant_model_golden_moe) {
    if (!need_models()) return;
    golden_runs("pub-moe-f32.presets.json", "moe");
}

/* The library path, with another thread count: same bytes as the golden
 * 2-thread runs (without ../shared: as its own 2-thread write, whose keys
 * and tensor types are llama-quantize's). */
static void threads_case(const char *model, const char *preset, const char *imatrix, const char *tag,
                         const char *json_name) {
    char mp[4200], ip[4200];
    snprintf(mp, sizeof mp, "%s/%s", golden_dir(), model);
    json_t *root = load_runs(json_name);
    REQUIRE(root != NULL);
    json_t *run = NULL;
    for (size_t r = 0; r < json_array_size(json_object_get(root, "runs")); r++) {
        json_t *x = json_array_get(json_object_get(root, "runs"), r);
        if (!strcmp(json_string_value(json_object_get(x, "tag")), tag)) run = x;
    }
    REQUIRE(run != NULL);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(mp, NULL, &f, NULL) == LGG_OK);
    lgg_imatrix *im = NULL;
    if (imatrix) {
        snprintf(ip, sizeof ip, "%s/%s", golden_dir(), imatrix);
        REQUIRE(lgg_imatrix_load_file(ip, NULL, &im, NULL) == LGG_OK);
    }
    lgg_quant_options o;
    lgg_quant_options_init(&o);
    o.preset = lgg_quant_preset_find(preset);
    o.imatrix = im;
    lgg_quant_plan *p = NULL;
    lgg_error err;
    CHECKF(lgg_quant_plan_create((const lgg_file *const *)&f, 1, &o, &p, &err) == LGG_OK, "%s", err.message);
    static const int with_shared[] = {1, 3}, alone[] = {2, 1, 3};
    const bool shared = shared_present();
    const int *counts = shared ? with_shared : alone, n_counts = shared ? 2 : 3;
    char want[65] = "";
    if (shared) snprintf(want, sizeof want, "%s", json_string_value(json_object_get(run, "file_sha256")));
    for (int c = 0; p && c < n_counts; c++) {
        const int nt = counts[c];
        lgg_quant_write_options wo;
        lgg_quant_write_options_init(&wo);
        wo.n_threads = nt;
        wo.imatrix_file = imatrix;
        wo.write_flags = LGG_WRITE_NO_SYNC;
        char out[1024];
        snprintf(out, sizeof out, "%s/threads-%d.gguf", scratch_dir(), nt);
        CHECKF(lgg_quant_plan_write(p, out, &wo, &err) == LGG_OK, "%s", err.message);
        size_t n;
        unsigned char *b = read_file(out, &n);
        REQUIRE(b != NULL);
        char hex[65];
        b4747_sha256(b, n, json_object_get(run, "args"), hex);
        if (!want[0]) { /* the stand-in's 2-thread output: llama-quantize's keys and types */
            check_output(tag, out, run);
            memcpy(want, hex, sizeof want);
        }
        CHECKF(!strcmp(hex, want), "%s with %d threads differs", tag, nt);
        uint64_t predicted = 0;
        CHECK(lgg_quant_plan_output_size(p, &wo, &predicted, NULL) == LGG_OK);
        CHECK_EQ_U(predicted, n);
        free(b);
        unlink(out);
    }
    lgg_quant_plan_free(p);
    lgg_imatrix_free(im);
    lgg_close(f);
    json_decref(root);
}

TEST(quant_model_threads) {
    if (!need_models()) return;
    threads_case("pub-moe-f32.gguf", "Q4_K_M", "pub-moe-f32.imatrix.dat", "Q4_K_M-imatrix", "pub-moe-f32.presets.json");
    threads_case("pub-dense-f16.gguf", "Q3_K_M", NULL, "Q3_K_M", "pub-dense-f16.presets.json");
}

/* Without -q and with stderr not a terminal: one line per tensor, the same
 * lines --dry-run prints, then a summary; nothing on stdout. */
TEST(quant_model_progress_lines) {
    if (!need_models()) return;
    char tool[1024], in[4200], out[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    snprintf(in, sizeof in, "%s/pub-dense-f16.gguf", golden_dir());
    snprintf(out, sizeof out, "%s/progress.gguf", scratch_dir());
    char *dry[] = {tool, "quantize", "--dry-run", in, out, "Q4_K_M", NULL};
    char *real[] = {tool, "quantize", "--no-fsync", in, out, "Q4_K_M", "2", NULL};
    char *o1, *e1, *o2, *e2;
    size_t n1, m1, n2, m2;
    int s1, s2;
    REQUIRE(run_capture(dry, &o1, &n1, &e1, &m1, &s1) == 0);
    REQUIRE(run_capture(real, &o2, &n2, &e2, &m2, &s2) == 0);
    CHECK(s1 == 0 && s2 == 0);
    CHECK(m1 == 0 && n2 == 0);
    /* the dry run's tensor lines are the first 39 lines of the run's stderr */
    const char *end1 = o1;
    for (int i = 0; i < 39 && end1; i++) end1 = strchr(end1, '\n') ? strchr(end1, '\n') + 1 : NULL;
    REQUIRE(end1 != NULL);
    size_t k = (size_t)(end1 - o1);
    CHECK(m2 > k && !memcmp(o1, e2, k));
    CHECK(!strncmp(e2 + k, "gguf quantize: ", 15) && strstr(e2 + k, " as Q4_K_M: tensor data 6.99 MiB -> 2.15 MiB in "));
    CHECK(strstr(o1, "output file 2284800 bytes") != NULL);
    struct stat st;
    CHECK(stat(out, &st) == 0 && st.st_size == 2284800);
    free(o1), free(e1), free(o2), free(e2);
    unlink(out);
}

#endif /* LGG_TEST_NO_GOLDEN_LIBS */
