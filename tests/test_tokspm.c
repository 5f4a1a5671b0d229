/* test_tokspm.c -- a checkpoint folder with only a SentencePiece
 * tokenizer.model: lgg_tokenizer_open_dir gives sentencepiece's encode plus
 * LlamaTokenizer's BOS, against tests/tokenize/spm/NAME@SHA.txt (Debian's
 * python3-sentencepiece, tests/tokenize/make_spm_expect.py) for the
 * repository's Unigram model with its NFKC charsmap and the BPE models of
 * ../shared's golden checkpoints (skipped when those are missing). */
#include "libgguf_tokenize.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the texts make_spm_expect.py numbers: texts.inp's, then spm_texts.txt's lines */
static size_t load_texts(char **store, char **text, size_t *len, size_t max) {
    size_t n1, n2, k = 0;
    unsigned char *a = read_file("tests/tokenize/texts.inp", &n1), *b = read_file("tests/tokenize/spm_texts.txt", &n2);
    if (!a || !b) {
        free(a), free(b);
        return 0;
    }
    *store = malloc(n1 + n2 + 1);
    memcpy(*store, a, n1), memcpy(*store + n1, b, n2);
    free(a), free(b);
    static const char SEP[] = "\n__ggml_vocab_test__\n";
    char *p = *store, *end = *store + n1;
    while (p < end && k < max) {
        char *q = memmem(p, (size_t)(end - p), SEP, sizeof SEP - 1);
        if (!q) break;
        text[k] = p, len[k++] = (size_t)(q - p);
        p = q + sizeof SEP - 1;
    }
    for (p = *store + n1, end = *store + n1 + n2; p < end && k < max;) {
        char *q = memchr(p, '\n', (size_t)(end - p));
        if (!q) break;
        text[k] = p, len[k++] = (size_t)(q - p);
        p = q + 1;
    }
    return k;
}

static void spm_case(void *arg) {
    const char *file = arg; /* NAME@SHA (of NAME@SHA.txt) */
    char name[256], model[1200], dir[1200], expect[1400];
    snprintf(name, sizeof name, "%s", file);
    char *at = strchr(name, '@');
    REQUIRE(at != NULL);
    *at = 0;
    if (!strcmp(name, "unigram-nmt-nfkc")) snprintf(model, sizeof model, "tests/data/%s.model", name);
    else snprintf(model, sizeof model, "%s", shared_path("golden/convert/"));
    if (strcmp(name, "unigram-nmt-nfkc")) {
        size_t l = strlen(model);
        snprintf(model + l, sizeof model - l, "%s/tokenizer.model", name);
    }
    size_t mn;
    unsigned char *m = read_file(model, &mn);
    if (!m) {
        test_skip("%s is missing", model);
        return;
    }
    char sha[65];
    sha256_hex(m, mn, sha);
    CHECKF(!strncmp(sha, at + 1, 12), "%s: sha256 %.12s, the expected ids are of %.12s", model, sha, at + 1);
    /* a folder with only tokenizer.model */
    snprintf(dir, sizeof dir, "%s", scratch_path(name));
    mkdir(dir, 0755);
    snprintf(expect, sizeof expect, "%s/tokenizer.model", dir);
    FILE *f = fopen(expect, "wb");
    REQUIRE(f && fwrite(m, 1, mn, f) == mn && fclose(f) == 0);
    free(m);
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(lgg_tokenizer_open_dir(dir, 0, &t, &err) == LGG_OK || (test_fail(__FILE__, __LINE__, "%s", err.message), 0));
    snprintf(expect, sizeof expect, "tests/tokenize/spm/%s.txt", file);
    size_t en;
    char *exp = (char *)read_file(expect, &en), *store = NULL;
    static char *text[256];
    static size_t len[256];
    size_t nt = load_texts(&store, text, len, 256);
    REQUIRE(exp && nt > 60);
    int cases = 0, bad = 0;
    for (char *line = exp, *end = exp + en; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl) break;
        *nl = 0;
        size_t i = strtoul(line, NULL, 10);
        char *want = strchr(line, '[');
        REQUIRE(i < nt && want);
        int32_t ids[4096];
        int64_t k = lgg_tokenize(t, text[i], len[i], LGG_TOKENIZE_ADD_SPECIAL, ids, 4096, &err);
        char got[65536] = "[";
        size_t gl = 1;
        for (int64_t j = 0; j < k && j < 4096 && gl < sizeof got - 16; j++)
            gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%d", j ? ", " : "", (int)ids[j]);
        snprintf(got + gl, sizeof got - gl, "]");
        if (k < 0 || strcmp(got, want)) {
            if (bad++ < 3)
                test_fail(__FILE__, __LINE__, "%s text %zu (%.*s): got %s want %s", name, i, (int)(len[i] > 40 ? 40 : len[i]),
                          text[i], k < 0 ? err.message : got, want);
        }
        cases++;
        line = nl + 1;
    }
    CHECKF(bad == 0, "%s: %d of %d texts differ from sentencepiece", name, bad, cases);
    CHECK(cases > 50);
    free(exp);
    free(store);
    lgg_tokenizer_free(t);
}

/* A T5-style UGM vocabulary written from unigram-nmt-nfkc.model as the
 * reference converter's T5 path writes it (with its precompiled NFKC
 * charsmap), against llama-tokenize b4747 on texts.inp and spm_texts.txt
 * (tests/tokenize/make_t5_expect.py): mode A as llama-tokenize runs by
 * default (add_special = the file's add_bos, which is false, so no EOS;
 * special tokens parsed), mode B with --no-bos --no-parse-special. */
TEST(tokenize_spm_t5_ugm_llama) {
    lgg_file *f = NULL;
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(lgg_open_file("tests/data/t5-unigram-nmt-nfkc.gguf", NULL, &f, &err) == LGG_OK);
    REQUIRE(lgg_tokenizer_open_gguf(f, &t, &err) == LGG_OK || (test_fail(__FILE__, __LINE__, "%s", err.message), 0));
    lgg_close(f);
    CHECK(lgg_tokenizer_type(t) == LGG_VOCAB_UGM);
    size_t en;
    char *exp = (char *)read_file("tests/tokenize/t5/t5-unigram-nmt-nfkc.txt", &en), *store = NULL;
    static char *text[256];
    static size_t len[256];
    size_t nt = load_texts(&store, text, len, 256);
    REQUIRE(exp && nt > 60);
    int cases = 0, bad = 0;
    for (char *line = exp, *end = exp + en; line < end;) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (!nl) break;
        *nl = 0;
        char mode = line[0];
        size_t i = strtoul(line + 2, NULL, 10);
        char *want = strchr(line + 2, ' ');
        REQUIRE(i < nt && want && (mode == 'A' || mode == 'B'));
        want++;
        unsigned flags = mode == 'B' ? 0 : LGG_TOKENIZE_PARSE_SPECIAL | (lgg_tokenizer_add_bos(t) ? LGG_TOKENIZE_ADD_SPECIAL : 0);
        int32_t ids[4096];
        int64_t k = lgg_tokenize(t, text[i], len[i], flags, ids, 4096, &err);
        char got[65536] = "[";
        size_t gl = 1;
        for (int64_t j = 0; j < k && j < 4096 && gl < sizeof got - 16; j++)
            gl += (size_t)snprintf(got + gl, sizeof got - gl, "%s%d", j ? ", " : "", (int)ids[j]);
        snprintf(got + gl, sizeof got - gl, "]");
        const char *g = k < 0 ? "ERROR" : got;
        if (strcmp(g, want)) {
            if (bad++ < 3)
                test_fail(__FILE__, __LINE__, "%c text %zu (%.*s): got %s want %s", mode, i, (int)(len[i] > 40 ? 40 : len[i]),
                          text[i], g, want);
        }
        cases++;
        line = nl + 1;
    }
    CHECKF(bad == 0, "%d of %d cases differ from llama-tokenize", bad, cases);
    CHECK(cases > 120);
    free(exp);
    free(store);
    lgg_tokenizer_free(t);
}

__attribute__((constructor)) static void register_spm_cases(void) {
    test_register_dir("tests/tokenize/spm", ".txt", "tokenize_spm/", spm_case);
}

#endif
