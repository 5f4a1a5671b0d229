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
    char *in = (char *)read_file(inp, &n_in), *expect = (char *)read_file(out, &n_out);
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

#endif
