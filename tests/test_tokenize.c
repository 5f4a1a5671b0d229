/* test_tokenize.c -- the tokenizer part against llama.cpp b4747's own
 * tokenizer tests: for every models/ggml-vocab-NAME.gguf with its .inp
 * (texts separated by "\n__ggml_vocab_test__\n") and .out (one line of ids
 * per text), the ids test-tokenizer-0 compares (add_special and
 * parse_special both false).  The llama.cpp checkout is $GGUF_LLAMA_CPP,
 * else ../ref/llama.cpp; a vocabulary missing from it is skipped with the
 * reason. */
#include "libgguf_tokenize.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS /* cross builds leave the tokenizer part out */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *llama_cpp_dir(void) {
    const char *d = getenv("GGUF_LLAMA_CPP");
    return d && *d ? d : "../ref/llama.cpp";
}

/* a whole file with a NUL after it (read_file adds none) */
static char *read_text(const char *path, size_t *n) {
    unsigned char *b = read_file(path, n);
    char *s = b ? realloc(b, *n + 1) : NULL;
    if (s) s[*n] = 0;
    else free(b);
    return s;
}

static lgg_tokenizer *open_vocab(const char *path) {
    lgg_file *f = NULL;
    lgg_error err;
    if (lgg_open_file(path, NULL, &f, &err) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s", path, err.message);
        return NULL;
    }
    lgg_tokenizer *t = NULL;
    if (lgg_tokenizer_open_gguf(f, &t, &err) != LGG_OK) test_fail(__FILE__, __LINE__, "%s: %s", path, err.message);
    lgg_close(f);
    return t;
}

/* the ids of text, in a malloc'd array */
static int32_t *tokenize(const lgg_tokenizer *t, const char *s, size_t n, unsigned flags, int64_t *count) {
    lgg_error err;
    int64_t k = lgg_tokenize(t, s, n, flags, NULL, 0, &err);
    if (k < 0) {
        test_fail(__FILE__, __LINE__, "lgg_tokenize: %s", err.message);
        return NULL;
    }
    int32_t *ids = malloc(((size_t)k + 1) * sizeof *ids);
    if (ids && lgg_tokenize(t, s, n, flags, ids, (size_t)k, &err) != k) {
        free(ids);
        return NULL;
    }
    *count = k;
    return ids;
}

static void vocab_case(void *arg) {
    const char *name = arg; /* ggml-vocab-NAME */
    char gguf[1024], inp[1100], out[1100];
    snprintf(gguf, sizeof gguf, "%s/models/%s.gguf", llama_cpp_dir(), name);
    snprintf(inp, sizeof inp, "%s.inp", gguf);
    snprintf(out, sizeof out, "%s.out", gguf);
    size_t n_in, n_out, n_g;
    unsigned char *g = read_file(gguf, &n_g);
    if (!g) {
        test_skip("%s.gguf is not in the llama.cpp checkout (only its .inp/.out are)", name);
        return;
    }
    free(g);
    char *in = read_text(inp, &n_in), *expect = read_text(out, &n_out);
    lgg_tokenizer *t = open_vocab(gguf);
    if (!in || !expect || !t) {
        free(in);
        free(expect);
        lgg_tokenizer_free(t);
        REQUIRE(0);
    }
    static const char SEP[] = "\n__ggml_vocab_test__\n";
    char *line = expect, *p = in, *end = in + n_in;
    int cases = 0, bad = 0;
    while (p < end) {
        char *q = memmem(p, (size_t)(end - p), SEP, sizeof SEP - 1);
        size_t len = q ? (size_t)(q - p) : (size_t)(end - p);
        char *nl = strchr(line, '\n');
        if (!nl) {
            test_fail(__FILE__, __LINE__, "%s: fewer lines of ids than texts", name);
            break;
        }
        *nl = 0;
        int64_t k = 0;
        int32_t *ids = tokenize(t, p, len, 0, &k);
        char got[65536];
        size_t gl = 0;
        got[0] = 0;
        for (int64_t i = 0; ids && i < k && gl < sizeof got - 16; i++)
            gl += (size_t)snprintf(got + gl, sizeof got - gl, " %d", (int)ids[i]);
        /* the .out lines have a space before each id and maybe a trailing one */
        char *want = line;
        size_t wl = strlen(want);
        while (wl && want[wl - 1] == ' ') want[--wl] = 0;
        if (!ids || strcmp(got, want) != 0) {
            if (bad++ < 3)
                test_fail(__FILE__, __LINE__, "%s case %d (%.*s): got [%s] want [%s]", name, cases, (int)(len > 60 ? 60 : len),
                          p, got, want);
        }
        free(ids);
        cases++;
        line = nl + 1;
        p = q ? q + sizeof SEP - 1 : end;
    }
    CHECKF(bad == 0, "%s: %d of %d cases differ", name, bad, cases);
    CHECK(cases > 10);
    free(in);
    free(expect);
    lgg_tokenizer_free(t);
}

static void no_checkout(void) {
    test_skip("no llama.cpp b4747 checkout at %s (set GGUF_LLAMA_CPP)", llama_cpp_dir());
}

__attribute__((constructor)) static void register_vocab_cases(void) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/models", llama_cpp_dir());
    DIR *d = opendir(dir);
    if (!d) {
        test_register("tokenize_llama/checkout", no_checkout);
        return;
    }
    closedir(d);
    test_register_dir(dir, ".gguf.inp", "tokenize_llama/", vocab_case);
}

/* ---- tests/tokenize/expect/NAME@SHA.txt: llama-tokenize's ids for every
 * text of tests/tokenize/texts.inp (made by tests/tokenize/make_expect.py) ---- */

/* the vocabulary file NAME whose sha256 starts with sha: in the llama.cpp
 * checkout's models/ or among ../shared/corpus/llama.cpp/NAME@*.gguf */
static char *find_vocab(const char *name, const char *sha) {
    char cand[8][1100];
    int n = 0;
    snprintf(cand[n++], sizeof cand[0], "%s/models/%s.gguf", llama_cpp_dir(), name);
    DIR *d = opendir(shared_path("corpus/llama.cpp"));
    struct dirent *e;
    size_t nl = strlen(name);
    while (d && (e = readdir(d)) && n < 8)
        if (!strncmp(e->d_name, name, nl) && e->d_name[nl] == '@')
            snprintf(cand[n++], sizeof cand[0], "%s/%s", shared_path("corpus/llama.cpp"), e->d_name);
    if (d) closedir(d);
    for (int i = 0; i < n; i++) {
        size_t sz;
        unsigned char *b = read_file(cand[i], &sz);
        if (!b) continue;
        char hex[65];
        sha256_hex(b, sz, hex);
        free(b);
        if (!strncmp(hex, sha, strlen(sha))) return strdup(cand[i]);
    }
    return NULL;
}

/* the texts of texts.inp */
static size_t split_texts(char *in, size_t n, char **text, size_t *len, size_t max) {
    static const char SEP[] = "\n__ggml_vocab_test__\n";
    size_t k = 0;
    for (char *p = in, *end = in + n; p < end && k < max; k++) {
        char *q = memmem(p, (size_t)(end - p), SEP, sizeof SEP - 1);
        text[k] = p;
        len[k] = q ? (size_t)(q - p) : (size_t)(end - p);
        p = q ? q + sizeof SEP - 1 : end;
    }
    return k;
}

static void ref_case(void *arg) {
    const char *label = arg; /* NAME@SHA */
    char name[256], path[1100];
    snprintf(name, sizeof name, "%s", label);
    char *at = strchr(name, '@');
    REQUIRE(at != NULL);
    *at = 0;
    char *vocab = find_vocab(name, at + 1);
    if (!vocab) {
        test_skip("%s (sha256 %s...) is neither in %s/models nor in %s", name, at + 1, llama_cpp_dir(),
                  shared_path("corpus/llama.cpp"));
        return;
    }
    snprintf(path, sizeof path, "tests/tokenize/expect/%s.txt", label);
    size_t n_in, n_exp;
    char *in = read_text("tests/tokenize/texts.inp", &n_in), *exp = read_text(path, &n_exp);
    char *text[256];
    size_t len[256];
    size_t n_texts = in ? split_texts(in, n_in, text, len, 256) : 0;
    lgg_file *f = NULL;
    lgg_error err;
    lgg_tokenizer *t = NULL;
    int opened = lgg_open_file(vocab, NULL, &f, &err) == LGG_OK && lgg_tokenizer_open_gguf(f, &t, &err) == LGG_OK;
    lgg_close(f);
    int lines = 0, errors = 0, bad = 0;
    char *save = NULL;
    for (char *line = exp ? strtok_r(exp, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
        char mode;
        int i, off = 0;
        if (sscanf(line, "%c %d %n", &mode, &i, &off) < 2 || i < 0 || (size_t)i >= n_texts) {
            test_fail(__FILE__, __LINE__, "%s: bad line '%s'", path, line);
            break;
        }
        const char *want = line + off;
        lines++;
        if (!strcmp(want, "ERROR")) {
            errors++;
            if (opened) { /* the reference failed on this text: so must we */
                int64_t k = lgg_tokenize(t, text[i], len[i], 0, NULL, 0, &err);
                CHECKF(k < 0, "%s: text %d: the reference fails, we gave %lld ids", name, i, (long long)k);
            }
            continue;
        }
        if (!opened) {
            if (bad++ < 1) test_fail(__FILE__, __LINE__, "%s: the reference loads it, we do not: %s", name, err.message);
            continue;
        }
        unsigned flags = mode == 'A' ? (lgg_tokenizer_add_bos(t) ? LGG_TOKENIZE_ADD_SPECIAL : 0) | LGG_TOKENIZE_PARSE_SPECIAL : 0;
        int64_t k = 0;
        int32_t *ids = tokenize(t, text[i], len[i], flags, &k);
        char got[65536];
        size_t gl = (size_t)snprintf(got, sizeof got, "[");
        for (int64_t j = 0; ids && j < k && gl < sizeof got - 16; j++)
            gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%d", j ? ", " : "", (int)ids[j]);
        snprintf(got + gl, sizeof got - gl, "]");
        if (!ids || strcmp(got, want)) {
            if (bad++ < 3)
                test_fail(__FILE__, __LINE__, "%s: %c text %d (%.*s): got %s want %s", name, mode, i,
                          (int)(len[i] > 50 ? 50 : len[i]), text[i], got, want);
        }
        free(ids);
    }
    CHECKF(bad == 0, "%s: %d of %d lines differ", name, bad, lines);
    CHECK(lines == (int)n_texts * 2);
    if (!opened) CHECKF(errors == lines, "%s: we refuse it (%s) but the reference does not", name, err.message);
    lgg_tokenizer_free(t);
    free(vocab);
    free(in);
    free(exp);
}

__attribute__((constructor)) static void register_ref_cases(void) {
    test_register_dir("tests/tokenize/expect", ".txt", "tokenize_ref/", ref_case);
}

#endif
