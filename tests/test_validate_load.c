/* test_validate_load.c -- lgg_load_check_file (gguf validate --load) held to
 * llama.cpp master's own loader: tests/validate/master_load.json says, for
 * each case of tests/validate/load_cases.py (written here into the scratch
 * directory: realistic headers, sparse data) and for two committed files,
 * whether master's llama_model_load_from_file loaded it and its error.  Our
 * verdict must be master's for every case of an architecture with a table,
 * and our first problem the one master stopped at (its error names the key
 * or tensor; "wrong number of tensors" for an extra tensor; its assert for
 * a bad value).  ref_load.py wrote the JSON (docs/reference.md). */
/* The file reads JSON (jansson): cross builds without it (LGG_TEST_NO_GOLDEN_LIBS) leave it out. */
#ifndef LGG_TEST_NO_GOLDEN_LIBS
#include "libgguf.h"
#include "test.h"

#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool write_cases(const char *dir) {
    if (access("/usr/bin/env", X_OK) != 0) return false;
    char *argv[] = {(char *)"/usr/bin/env", (char *)"python3", (char *)"tests/validate/load_cases.py", (char *)"--all", (char *)dir, NULL};
    char *out = NULL, *err = NULL;
    size_t ol, el;
    int status = -1;
    bool ok = run_capture(argv, &out, &ol, &err, &el, &status) == 0 && status == 0;
    if (!ok && err) fprintf(stderr, "  load_cases.py: %s", err);
    free(out);
    free(err);
    return ok;
}

/* Master's error names our first problem. */
static bool same_first(const lgg_load_check *c, const char *error) {
    /* master's words where they do not name the key */
    static const char *const said[][2] = {{"tokenizer.ggml.tokens", "cannot find tokenizer vocab"},
                                          {"tokenizer.ggml.merges", "cannot find tokenizer merges"},
                                          {"mamba.ssm.inner_size", "only an expansion factor of 2"}};
    const lgg_load_issue *is = &c->issues[0];
    if (strstr(error, is->name)) return true;
    for (size_t i = 0; i < sizeof said / sizeof said[0]; i++)
        if (!strcmp(is->name, said[i][0]) && strstr(error, said[i][1])) return true;
    if (is->problem == LGG_LOAD_UNEXPECTED) return strstr(error, "wrong number of tensors") != NULL;
    if (is->problem == LGG_LOAD_BAD_VALUE) return strstr(error, is->found) || !strncmp(error, "aborted: ", 9);
    return false;
}

static void check_case(const char *id, const char *path, bool loaded, const char *error, int *n_checked) {
    lgg_file *f = NULL;
    lgg_error err;
    lgg_open_options oo;
    lgg_open_options_init(&oo);
    oo.flags |= LGG_OPEN_ALLOW_MISSING_DATA; /* the .cut cases */
    if (lgg_open_file(path, &oo, &f, &err) != LGG_OK) {
        CHECKF(0, "%s: %s", id, err.message);
        return;
    }
    lgg_load_check *c = malloc(sizeof *c);
    REQUIRE(c);
    CHECKF(lgg_load_check_file(f, c, &err) == LGG_OK, "%s: %s", id, err.message);
    if (c->verdict == LGG_LOAD_NO_TABLE) {
        CHECKF(c->n_issues == 0, "%s: no table, yet %u issues", id, c->n_issues);
    } else {
        (*n_checked)++;
        CHECKF((c->verdict == LGG_LOAD_LOADS) == loaded, "%s: master %s, we say %s (first: %s '%s')", id,
               loaded ? "loads it" : error, c->verdict == LGG_LOAD_LOADS ? "it loads" : "refused",
               c->n_issues ? lgg_load_problem_name(c->issues[0].problem) : "-", c->n_issues ? c->issues[0].name : "");
        if (!loaded && c->n_issues)
            CHECKF(same_first(c, error), "%s: our first problem is %s '%s' (expected %s, found %s); master: %s", id,
                   lgg_load_problem_name(c->issues[0].problem), c->issues[0].name, c->issues[0].expected,
                   c->issues[0].found, error);
    }
    free(c);
    lgg_close(f);
}

TEST(validate_load_master) {
    json_error_t je;
    json_t *root = json_load_file("tests/validate/master_load.json", 0, &je);
    REQUIRE(root);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", scratch_path("validate-load"));
    REQUIRE(mkdir(dir, 0700) == 0);
    if (!write_cases(dir)) {
        json_decref(root);
        test_skip("no python3 to write the cases");
        return;
    }
    json_t *cases = json_object_get(root, "cases"), *c;
    size_t i;
    int n_checked = 0, n_refused = 0;
    json_array_foreach(cases, i, c) {
        const char *id = json_string_value(json_object_get(c, "id"));
        bool preset = json_is_string(json_object_get(c, "preset"));
        bool loaded = json_is_true(json_object_get(c, "loaded"));
        const char *error = json_string_value(json_object_get(c, "error"));
        char path[4200];
        if (preset) snprintf(path, sizeof path, "%s/%s.gguf", dir, id);
        else snprintf(path, sizeof path, "%s", id);
        n_refused += !loaded;
        check_case(id, path, loaded, error ? error : "", &n_checked);
        if (preset) unlink(path);
    }
    /* the table covers every case but the one without a table (unknown_arch.ok) */
    CHECKF(n_checked + 1 == (int)json_array_size(cases), "%d of %zu cases checked", n_checked, json_array_size(cases));
    CHECK(n_refused >= 20);
    json_decref(root);
}

/* What is not a model file of a known shape: no architecture, an architecture without a table. */
TEST(validate_load_edges) {
    lgg_load_check c;
    lgg_error err;
    CHECK(lgg_load_check_file(NULL, &c, &err) == LGG_ERR_ARG);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file("tests/data/imatrix-tiny.gguf", NULL, &f, &err) == LGG_OK);
    REQUIRE(lgg_load_check_file(f, &c, &err) == LGG_OK);
    CHECK(c.verdict == LGG_LOAD_REFUSED && c.n_issues == 1 && !strcmp(c.issues[0].name, "general.architecture") &&
          c.issues[0].problem == LGG_LOAD_MISSING);
    lgg_close(f);
    REQUIRE(lgg_open_file("tests/data/mmproj-clip.gguf", NULL, &f, &err) == LGG_OK);
    REQUIRE(lgg_load_check_file(f, &c, &err) == LGG_OK);
    CHECK(c.verdict == LGG_LOAD_NO_TABLE && !strcmp(c.arch, "clip") && c.n_issues == 0);
    lgg_close(f);
    CHECK(!strcmp(lgg_load_problem_name(LGG_LOAD_WRONG_SHAPE), "wrong shape") && !lgg_load_problem_name(0) &&
          !lgg_load_problem_name(99));
}
#endif
