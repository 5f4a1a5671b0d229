/* test_tokenize_master.c -- the tokenizer.ggml.pre names llama.cpp master
 * (3f545becc) accepts, each against master's llama-tokenize: for every
 * tests/tokenize/master/VOCAB.txt (made by tests/tokenize/make_master_expect.py
 * from master's build), VOCAB.gguf with tokenizer.ggml.pre set to each name
 * tokenizes the texts of tests/tokenize/texts.inp and master/texts.inp, with
 * add-special + parse-special (A) and without (B), and every id list must be
 * master's.  Standalone: the vocabularies and the ids are in the repository. */
#include "libgguf.h"
#include "libgguf_tokenize.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS /* the tokenize library is not in the aarch64 build */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_TEXTS 256

typedef struct texts {
    char *buf[2];
    char *p[MAX_TEXTS];
    size_t len[MAX_TEXTS], n;
} texts;

static void texts_add(texts *t, int k, const char *path) {
    static const char SEP[] = "\n__ggml_vocab_test__\n";
    size_t n;
    char *in = (char *)read_file(path, &n);
    t->buf[k] = in;
    for (char *p = in, *end = in + (in ? n : 0); p < end && t->n < MAX_TEXTS; t->n++) {
        char *q = memmem(p, (size_t)(end - p), SEP, sizeof SEP - 1);
        t->p[t->n] = p;
        t->len[t->n] = q ? (size_t)(q - p) : (size_t)(end - p);
        p = q ? q + sizeof SEP - 1 : end;
    }
}

/* VOCAB with tokenizer.ggml.pre set to pre (a "model=NAME" pre: with
 * tokenizer.ggml.model NAME and no pre), opened as a tokenizer (NULL and
 * *why set when it does not open) */
static lgg_tokenizer *open_as(const lgg_file *f, const char *pre, lgg_error *why) {
    lgg_writer *w = NULL;
    lgg_tokenizer *t = NULL;
    lgg_file *g = NULL;
    const char *path = scratch_path("master-vocab.gguf");
    int model = !strncmp(pre, "model=", 6);
    if (lgg_writer_from_file(f, -1, NULL, 0, &w, why) ||
        (model ? lgg_writer_set_str(w, "tokenizer.ggml.model", pre + 6, why) ||
                     lgg_writer_remove(w, "tokenizer.ggml.pre", 18, why)
               : lgg_writer_set_str(w, "tokenizer.ggml.pre", pre, why)) ||
        lgg_writer_write_file(w, path, NULL, why) || lgg_open_file(path, NULL, &g, why) ||
        lgg_tokenizer_open_gguf(g, &t, why))
        t = NULL;
    lgg_writer_free(w);
    lgg_close(g);
    return t;
}

/* "[1, 2, 3]" of the ids of text i in mode A or B; "ERROR" when we fail */
static void ids_of(const lgg_tokenizer *t, const texts *tx, size_t i, char mode, char *out, size_t cap) {
    unsigned flags = mode == 'A' ? (lgg_tokenizer_add_bos(t) ? LGG_TOKENIZE_ADD_SPECIAL : 0) | LGG_TOKENIZE_PARSE_SPECIAL : 0;
    lgg_error err;
    int64_t k = lgg_tokenize(t, tx->p[i], tx->len[i], flags, NULL, 0, &err);
    int32_t *ids = k >= 0 ? malloc(((size_t)k + 1) * sizeof *ids) : NULL;
    if (!ids || lgg_tokenize(t, tx->p[i], tx->len[i], flags, ids, (size_t)k, &err) != k) {
        snprintf(out, cap, "ERROR");
        free(ids);
        return;
    }
    size_t n = (size_t)snprintf(out, cap, "[");
    for (int64_t j = 0; j < k && n < cap - 16; j++) n += (size_t)snprintf(out + n, cap - n, "%s%d", j ? ", " : "", (int)ids[j]);
    snprintf(out + n, cap - n, "]");
    free(ids);
}

/* a name llama.cpp b4747 knows too (lgg_tokenizer_pre_name lists its 42 first) */
static bool b4747_name(const char *pre) {
    size_t n;
    const char *p;
    for (size_t i = 0; i < 42 && (p = lgg_tokenizer_pre_name(i, &n)); i++)
        if (n == strlen(pre) && !memcmp(p, pre, n)) return true;
    return false;
}

/* Where master gives other ids than b4747 for a b4747 name, we keep b4747's
 * (docs/tokenize.md): master marks more texts control by name ("</s>",
 * "<|return|>"...), which counts with parse_special (mode A), and its \p{S}
 * takes ASCII `~` (deepseek-v3's expressions) */
static bool b4747_kept(const char *pre, char mode, const char *text, size_t len) {
    static const char *const MORE_EOG[] = {"</s>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>", "_<EOT>",
                                           "[EOT]", "[EOS]", "<|end_of_text|>", "<end_of_utterance>", "<eos>",
                                           "<turn|>", "<|tool_response>", "[e~["};
    if (!b4747_name(pre)) return false;
    if (!strcmp(pre, "deepseek-v3") && memchr(text, '~', len)) return true;
    for (size_t i = 0; mode == 'A' && i < sizeof MORE_EOG / sizeof *MORE_EOG; i++)
        if (memmem(text, len, MORE_EOG[i], strlen(MORE_EOG[i]))) return true;
    return false;
}

/* a comma-separated list being built */
typedef struct tok_list {
    char *p;
    size_t n;
} tok_list;

static void list_put(tok_list *l, const char *names) {
    size_t k = strlen(names);
    char *q = realloc(l->p, l->n + k + 2);
    if (!q) return;
    l->p = q;
    if (l->n) l->p[l->n++] = ',';
    memcpy(l->p + l->n, names, k + 1);
    l->n += k;
}

/* one line of VOCAB.txt: MODE i PRE,PRE,... IDS */
typedef struct exp_line {
    char mode;
    int i;
    char *names, *ids;
} exp_line;

static size_t parse_lines(char *exp, const texts *tx, exp_line *out, size_t max, const char *path) {
    size_t n = 0;
    char *save = NULL;
    for (char *line = strtok_r(exp, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save)) {
        exp_line *e = &out[n];
        int off = 0;
        char *sp;
        if (sscanf(line, "%c %d %n", &e->mode, &e->i, &off) < 2 || e->i < 0 || (size_t)e->i >= tx->n ||
            !(sp = strchr(line + off, ' '))) {
            test_fail(__FILE__, __LINE__, "%s: bad line '%.80s'", path, line);
            return 0;
        }
        *sp = 0;
        e->names = line + off;
        e->ids = sp + 1;
        n++;
    }
    return n;
}

/* pre is one of the comma-separated names */
static bool names_have(const char *names, const char *pre) {
    size_t n = strlen(pre);
    for (const char *p = names; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, pre, n) && (p[n] == ',' || !p[n])) return true;
    return false;
}

/* the lines of one name: its ids on every text and mode must be master's */
static void check_name(const lgg_file *f, const char *label, const char *pre, const texts *tx, const exp_line *el,
                       size_t n_el, int *kept) {
    static char got[1 << 16];
    lgg_error err;
    lgg_tokenizer *t = open_as(f, pre, &err);
    CHECKF(t != NULL, "%s: pre '%s' does not open: %s", label, pre, err.message);
    int lines = 0, bad = 0;
    for (size_t k = 0; k < n_el; k++) {
        const exp_line *e = &el[k];
        if (!names_have(e->names, pre)) continue;
        lines++;
        if (!t) continue;
        if (b4747_kept(pre, e->mode, tx->p[e->i], tx->len[e->i])) {
            ++*kept;
            continue;
        }
        ids_of(t, tx, (size_t)e->i, e->mode, got, sizeof got);
        if (strcmp(got, e->ids) && bad++ < 2)
            test_fail(__FILE__, __LINE__, "%s: pre %s, %c text %d (%.40s): got %.200s want %.200s", label, pre, e->mode,
                      e->i, tx->p[e->i], got, e->ids);
    }
    CHECKF(bad == 0, "%s: pre %s: %d of %d lines differ", label, pre, bad, lines);
    CHECKF(lines == (int)tx->n * 2, "%s: pre %s: %d lines for %zu texts", label, pre, lines, tx->n);
    lgg_tokenizer_free(t);
}

/* dir/VOCAB.txt's lines for every name it has (at least min_names) */
static void master_dir_case(const char *dir, const char *label, int min_names) {
    char path[512], vocab[512];
    snprintf(path, sizeof path, "tests/tokenize/%s/%s.txt", dir, label);
    snprintf(vocab, sizeof vocab, "tests/tokenize/%s/%s.gguf", dir, label);
    texts tx = {0};
    texts_add(&tx, 0, "tests/tokenize/texts.inp");
    texts_add(&tx, 1, "tests/tokenize/master/texts.inp");
    size_t n_exp;
    char *exp = (char *)read_file(path, &n_exp);
    lgg_file *f = NULL;
    lgg_error err;
    static exp_line el[4 * MAX_TEXTS * 16];
    REQUIRE(exp && tx.n > 60);
    size_t n_el = parse_lines(exp, &tx, el, sizeof el / sizeof *el, path);
    REQUIRE(n_el > 0);
    REQUIRE(lgg_open_file(vocab, NULL, &f, &err) == LGG_OK);
    /* the names: text 0's lines in mode A split them into groups */
    tok_list all = {0};
    for (size_t k = 0; k < n_el; k++)
        if (el[k].i == 0 && el[k].mode == 'A') list_put(&all, el[k].names);
    REQUIRE(all.p != NULL);
    char *names = all.p, *save = NULL;
    int n_names = 0, kept = 0;
    for (char *pre = strtok_r(names, ",", &save); pre; pre = strtok_r(NULL, ",", &save), n_names++)
        check_name(f, label, pre, &tx, el, n_el, &kept);
    CHECKF(n_names >= min_names, "%d names", n_names);
    CHECK(kept < n_names * (int)tx.n * 2 / 50); /* what b4747 keeps is rare */
    free(names);
    lgg_close(f);
    free(exp);
    free(tx.buf[0]);
    free(tx.buf[1]);
}

/* master's 83 byte-level names (all but the ones below and whitespace) */
static void master_case(void *arg) { master_dir_case("master", arg, 83); }

/* master's SPM-style BPE (no byte-level encoding, spaces escaped): gemma4,
 * granite-embed-multi-311m, sarvam-moe, and tokenizer.ggml.model "gemma4"
 * (tests/tokenize/make_master_raw_expect.py) */
static void master_raw_case(void *arg) { master_dir_case("master-raw", arg, 4); }

__attribute__((constructor)) static void register_master_cases(void) {
    test_register_dir("tests/tokenize/master", ".txt", "tokenize_master/", master_case);
    test_register_dir("tests/tokenize/master-raw", ".txt", "tokenize_master_raw/", master_raw_case);
}

/* master's whitespace pre-tokenizer (its own tokenizer model's) is refused by name */
TEST(tokenize_master_refused) {
    lgg_file *f = NULL;
    lgg_error err;
    REQUIRE(lgg_open_file("tests/tokenize/master/qwen3.gguf", NULL, &f, &err) == LGG_OK);
    lgg_tokenizer *t = open_as(f, "whitespace", &err);
    CHECKF(t == NULL && strstr(err.message, "no byte-level encoding"), "whitespace: %s", t ? "opened" : err.message);
    lgg_tokenizer_free(t);
    lgg_close(f);
}

/* Untrusted text through every name only master knows: each in linear time.
 * 110,000 code points of long runs (letters, digits, spaces, apostrophes,
 * Han, combining marks, `~!`, upper then lower case); before superbpe's
 * (?=(\d{3})+(?!\d)) was matched by hand, Oniguruma took 11 s on its digit
 * run (quadratic, as std::wregex is in master). */
TEST(tokenize_master_hostile_linear) {
    static const struct {
        const char *s;
        size_t n;
    } RUNS[] = {{"a", 20000}, {" ", 1}, {"1", 40000}, {" ", 10000}, {"x\n", 1}, {"a b ", 2000}, {"'", 5000},
                {"\xe4\xb8\xad", 5000}, {"e\xcc\x81", 3000}, {"~!", 3000}, {"A", 5000}, {"a", 5000}};
    size_t cap = 0;
    for (size_t i = 0; i < sizeof RUNS / sizeof *RUNS; i++) cap += strlen(RUNS[i].s) * RUNS[i].n;
    char *text = malloc(cap + 1), *p = text;
    REQUIRE(text != NULL);
    for (size_t i = 0; i < sizeof RUNS / sizeof *RUNS; i++)
        for (size_t k = 0; k < RUNS[i].n; k++) p = memcpy(p, RUNS[i].s, strlen(RUNS[i].s)), p += strlen(RUNS[i].s);
    lgg_file *f = NULL;
    lgg_error err;
    REQUIRE(lgg_open_file("tests/tokenize/master/qwen3.gguf", NULL, &f, &err) == LGG_OK);
    size_t n;
    const char *name;
    int names = 0;
    for (size_t i = 42; (name = lgg_tokenizer_pre_name(i, &n)); i++, names++) {
        char pre[64];
        snprintf(pre, sizeof pre, "%.*s", (int)n, name);
        lgg_tokenizer *t = open_as(f, pre, &err);
        CHECKF(t != NULL, "%s: %s", pre, err.message);
        if (!t) continue;
        struct timespec t0, t1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        int64_t k = lgg_tokenize(t, text, (size_t)(p - text), 0, NULL, 0, &err);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        CHECKF(k > 0, "%s: %s", pre, err.message);
        CHECKF(took < 3.0, "%s: %.1f s of processor time for %zu bytes", pre, took, (size_t)(p - text));
        lgg_tokenizer_free(t);
    }
    CHECK_EQ_U(names, 44);
    lgg_close(f);
    free(text);
}

#endif
