/* test_tokhostile.c -- tokenizer.json files that cost more than their size
 * (issue 38): a Split pattern that backtracks catastrophically must fail
 * the text, clearly and soon, never change its ids. */
#include "libgguf_convert.h"
#include "libgguf_tokenize.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A BPE tokenizer.json whose Split pattern is `pattern` (a JSON string's
 * body): a, b, c and the merge "a a" */
static char *split_json(const char *pattern) {
    static const char FMT[] =
        "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0, \"b\": 1, \"c\": 2, \"aa\": 3}, \"merges\": [\"a a\"]},"
        " \"pre_tokenizer\": {\"type\": \"Split\", \"pattern\": {\"Regex\": \"%s\"}, \"behavior\": \"Isolated\","
        " \"invert\": false}, \"added_tokens\": []}";
    size_t n = sizeof FMT + strlen(pattern);
    char *s = malloc(n);
    if (s) snprintf(s, n, FMT, pattern);
    return s;
}

/* a checkpoint folder holding only that tokenizer.json */
static const char *split_dir(const char *name, const char *pattern) {
    const char *dir = scratch_path(name);
    char *json = split_json(pattern);
    mkdir(dir, 0755);
    int ok = json && put_text(dir, "tokenizer.json", json);
    free(json);
    return ok ? dir : NULL;
}

static char *run_of(char c, size_t n) {
    char *s = malloc(n + 1);
    if (s) memset(s, c, n), s[n] = 0;
    return s;
}

/* (a|a)*b|a doubles its backtracking with each 'a' of a run */
#define CATASTROPHIC "(a|a)*b|a"

/* Before: at 30 'a' Oniguruma gave up (10^7 steps a match), which read as
 * "no more matches": the text became one piece, merged to 15 "aa" (exit 0). */
TEST(tokhostile_regex_gave_up_is_an_error) {
    char *json = split_json(CATASTROPHIC), *a30 = run_of('a', 30);
    REQUIRE(json && a30);
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(lgg_tokenizer_open_json(json, strlen(json), NULL, 0, &t, &err) == LGG_OK);
    int32_t ids[64];
    CHECK(lgg_tokenize(t, a30, 8, 0, ids, 64, &err) == 8); /* a short run matches 'a' by 'a', unmerged */
    for (int i = 0; i < 8; i++) CHECK(ids[i] == 0);
    int64_t n = lgg_tokenize(t, a30, 30, 0, ids, 64, &err);
    CHECKF(n == -LGG_ERR_LIMIT, "30 'a': %lld ids, not an error", (long long)n);
    CHECKF(strstr(err.message, "tokenizer.json") && strstr(err.message, "backtrack"), "message: %s", err.message);
    lgg_tokenizer_free(t);

    const char *dir = split_dir("rx-gaveup", CATASTROPHIC);
    REQUIRE(dir);
    char *out = NULL, *se = NULL;
    int st = run_gguf_capture(&out, &se, "tokenize", "--ids", dir, a30, NULL);
    CHECKF(st == 1, "gguf tokenize: exit %d, stdout %s", st, out ? out : "");
    CHECKF(se && strstr(se, "tokenizer.json") && strstr(se, "backtrack"), "stderr: %s", se ? se : "");
    free(out), free(se), free(json), free(a30);
}

/* convert names the pre-tokenizer by the ids of its check text, whose
 * longest run of non-spaces ('', `, ", ., !, ?) is 36 characters */
TEST(tokhostile_convert_check_text_regex_gave_up) {
    const char *dir = split_dir("rx-convert", "(\\\\S|\\\\S)*\\\\x01|\\\\S");
    REQUIRE(dir);
    const char *pre = NULL;
    char hash[65];
    lgg_error err;
    memset(&err, 0, sizeof err);
    lgg_status st = lgg_convert_bpe_pre(dir, &pre, hash, &err);
    CHECKF(st == LGG_ERR_LIMIT, "status %s: %s", lgg_status_name(st), err.message);
    CHECKF(strstr(err.message, dir) && strstr(err.message, "backtrack"), "message: %s", err.message);
}

/* Runs of 22 'a' (each below Oniguruma's own limit, ~2^23 steps a run):
 * before, 6.4 s of processor time for 920 bytes; here 2,760 bytes. */
TEST(tokhostile_regex_backtracking_is_bounded) {
    const char *dir = split_dir("rx-bounded", CATASTROPHIC);
    REQUIRE(dir);
    char text[2760 + 1];
    for (size_t i = 0; i < sizeof text - 1; i++) text[i] = i % 23 == 22 ? 'c' : 'a';
    text[sizeof text - 1] = 0;
    REQUIRE(put_text(dir, "text.txt", text));
    char path[4300];
    snprintf(path, sizeof path, "%s/text.txt", dir);
    double t0 = children_cpu_s();
    char *se = NULL;
    int st = run_gguf_capture(NULL, &se, "tokenize", "--ids", dir, "-f", path, NULL);
    double took = children_cpu_s() - t0;
    CHECKF(took < 5.0, "gguf tokenize took %.1f s of processor time", took);
    CHECKF(st == 1 && se && strstr(se, "text.txt") && strstr(se, "backtrack"), "exit %d: %s", st, se ? se : "");
    free(se);
}

/* A tokenizer.json of a, b and n special added tokens <spI> (ids 2 + I). */
static const char *many_added_dir(const char *name, size_t n) {
    const char *dir = scratch_path(name);
    mkdir(dir, 0755);
    char path[4300];
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fputs("{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0, \"b\": 1}, \"merges\": []}, \"added_tokens\": [", f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s{\"id\": %zu, \"content\": \"<sp%zu>\", \"special\": true, \"normalized\": false}", i ? ", " : "",
                i + 2, i);
    fputs("]}", f);
    return fclose(f) == 0 ? dir : NULL;
}

/* Loading builds every id's piece by decoding it, and decoding scanned the
 * added tokens for each: before, 100,000 of them took 10 s of processor
 * time (quadratic; 400,000 took 264 s); here 200,000. */
TEST(tokhostile_many_added_tokens_load_in_linear_time) {
    const char *dir = many_added_dir("added-200k", 200000);
    REQUIRE(dir);
    double t0 = children_cpu_s();
    char *out = NULL, *se = NULL;
    int st = run_gguf_capture(&out, &se, "tokenize", "--json", dir, "ab<sp199999><sp7>", NULL);
    double took = children_cpu_s() - t0;
    CHECKF(took < 5.0, "gguf tokenize took %.1f s of processor time", took);
    CHECKF(st == 0, "exit %d: %s", st, se ? se : "");
    CHECKF(out && strstr(out, "\"ids\": [0, 1, 200001, 9]") && strstr(out, "\"<sp199999>\", \"<sp7>\""), "%s",
           out ? out : "");
    free(out), free(se);
}

/* The index keeps what the scan did: an id listed twice decodes as its
 * last entry (normalized: its normalized content), AB as "ab". */
TEST(tokhostile_added_token_last_entry_wins) {
    static const char JSON[] =
        "{\"normalizer\": {\"type\": \"Lowercase\"}, \"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0, \"b\": 1},"
        " \"merges\": []}, \"added_tokens\": [{\"id\": 2, \"content\": \"<X>\", \"normalized\": true},"
        " {\"id\": 2, \"content\": \"<Y>\", \"normalized\": true}, {\"id\": 4, \"content\": \"AB\", \"normalized\": true}]}";
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(lgg_tokenizer_open_json(JSON, strlen(JSON), NULL, 0, &t, &err) == LGG_OK);
    int32_t ids[] = {2, 4, 0};
    char out[64];
    int64_t n = lgg_detokenize(t, ids, 3, 0, out, sizeof out - 1, &err);
    /* no decoder: the pieces joined with spaces, as the library does */
    CHECKF(n == 8 && !memcmp(out, "<y> ab a", 8), "%lld: %.*s", (long long)n, n > 0 ? (int)n : 0, out);
    lgg_tokenizer_free(t);
}


/* tokenize DIR read tokenizer.json, tokenizer_config.json and
 * tokenizer.model whole, whatever their size: each is bounded now, the
 * read stopping at the bound (sparse files of 200 MiB: refused after at
 * most the bound is read, naming the file). */
static void refused_for_size(const char *dir, const char *file, const char *bound) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    REQUIRE(ftruncate(fileno(f), (off_t)200 << 20) == 0);
    fclose(f);
    char *out = NULL, *err = NULL;
    const double t0 = children_cpu_s();
    int st = run_gguf_capture(&out, &err, "tokenize", dir, "hello", NULL);
    CHECKF(st == 1 && err && strstr(err, file) && strstr(err, bound), "%s: exit %d: %s", file, st, err ? err : "");
    CHECKF(children_cpu_s() - t0 < 5.0, "%s: %.2f s", file, children_cpu_s() - t0);
    free(out), free(err);
    unlink(path);
}

TEST(tokhostile_folder_files_are_bounded) {
    const char *dir = split_dir("bounded", "a");
    REQUIRE(dir);
    refused_for_size(dir, "tokenizer_config.json", "larger than 64 MiB");
    refused_for_size(dir, "tokenizer.json", "larger than 128 MiB");
    refused_for_size(dir, "tokenizer.model", "larger than 64 MiB"); /* tokenizer.json is gone: the model is read */
}
#endif
