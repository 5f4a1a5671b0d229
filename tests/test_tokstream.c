/* test_tokstream.c -- lgg_tokenize_stream_*: the ids of a text fed in
 * slices, with small chunk sizes that force a cut at nearly every safe
 * point, are exactly lgg_tokenize's for the whole text (itself checked
 * against llama-tokenize b4747 in test_tokenize.c), on the 33 small
 * vocabularies of fuzz/tok_vocabs.h and on llama.cpp's vocabulary GGUFs; and
 * a child process streaming 32 MiB peaks at the same memory as one streaming
 * 4 MiB. */
#include "libgguf_tokenize.h"
#include "test.h"
#include "vocab_standin.h"
#include "../fuzz/tok_vocabs.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <dirent.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct idv {
    int32_t *p;
    size_t n, cap;
    size_t calls;
} idv;

static int collect(void *user, const int32_t *ids, size_t n) {
    idv *v = user;
    if (v->n + n > v->cap) {
        v->cap = (v->n + n) * 2;
        v->p = realloc(v->p, v->cap * sizeof *v->p);
        if (!v->p) return -1;
    }
    memcpy(v->p + v->n, ids, n * sizeof *ids);
    v->n += n;
    v->calls++;
    return 0;
}

static uint32_t rnd(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* a text of n bytes or more from pieces that meet every cut shape and the
 * things around them: words, contractions, digits, punctuation, whitespace
 * runs, CRLF, multi-byte and invalid UTF-8, and special tokens' texts
 * (unless `plain`) */
static char *gen_text_of(uint32_t seed, size_t n, size_t *len, int plain) {
    static const char *const P[] = {
        "hello", "the", "Hello", "an", "ab", " ", " ", " ", "\n", "\n", "\n\n", "\t", "\r\n", "  ", "it's", "'re",
        "I'M", "'ll", "123", "4567", "!", "?!", ".", ",", "(x)", "\xe4\xb8\xad", "\xc3\xa9", "\xf0\x9f\x98\x80",
        "\xff", "\xe2\x96\x81", "<|end|>", "<user>", "<s>", "</s>", "[CLS]", "<|endoftext|>", "<|im_end|>",
        "  \n", "a\nb", "x \ny", "\n1", ";\nfoo", "ll", "llo", "12", "\xc2\x85", "\xc2\xa0", "/", "\\n", "\x00"};
    size_t np = sizeof P / sizeof *P, cap = n + 64, k = 0;
    char *s = malloc(cap);
    while (k < n) {
        const char *p = P[rnd(&seed) % np];
        if (plain && strpbrk(p, "<[")) continue;
        size_t l = strlen(p) ? strlen(p) : 1; /* "\x00": one NUL byte */
        memcpy(s + k, p, l);
        k += l;
    }
    *len = k;
    return s;
}

static char *gen_text(uint32_t seed, size_t n, size_t *len) {
    return gen_text_of(seed, n, len, 0);
}

/* the texts of texts.inp, joined by newlines */
static char *joined_texts(size_t *len) {
    size_t n;
    unsigned char *in = read_file("tests/tokenize/texts.inp", &n);
    if (!in) return NULL;
    static const char SEP[] = "\n__ggml_vocab_test__\n";
    char *out = malloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        if (i + sizeof SEP - 1 <= n && !memcmp(in + i, SEP, sizeof SEP - 1)) {
            out[k++] = '\n';
            i += sizeof SEP - 1;
        } else {
            out[k++] = (char)in[i++];
        }
    }
    free(in);
    *len = k;
    return out;
}

/* the stream's ids (slices of pseudo-random sizes) against the whole call's;
 * returns the sink calls, or 0 on a failure (reported) */
static size_t check_one(const char *name, const lgg_tokenizer *t, const char *s, size_t n, unsigned flags,
                        size_t chunk, uint32_t seed) {
    lgg_error e1, e2;
    memset(&e1, 0, sizeof e1), memset(&e2, 0, sizeof e2);
    int64_t k = lgg_tokenize(t, s, n, flags, NULL, 0, &e1);
    int32_t *want = k > 0 ? malloc((size_t)k * sizeof *want) : NULL;
    if (k > 0) lgg_tokenize(t, s, n, flags, want, (size_t)k, &e1);
    idv got = {0};
    lgg_tokenize_stream *st = NULL;
    lgg_status rc = lgg_tokenize_stream_new(t, flags, chunk, collect, &got, &st, &e2);
    for (size_t off = 0; !rc && off < n;) {
        size_t take = 1 + rnd(&seed) % 97;
        if (take > n - off) take = n - off;
        rc = lgg_tokenize_stream_feed(st, s + off, take, &e2);
        off += take;
    }
    if (!rc) rc = lgg_tokenize_stream_finish(st, &e2);
    lgg_tokenize_stream_free(st);
    size_t calls = got.calls ? got.calls : 1, ok = 1;
    if (k < 0) { /* the same failure, at the same byte */
        ok = rc == (lgg_status)-k && e2.offset == e1.offset;
        if (!ok)
            test_fail(__FILE__, __LINE__, "%s chunk %zu: whole fails (%s), stream gives %s (%s)", name, chunk,
                      e1.message, lgg_status_name(rc), e2.message);
    } else if (rc || got.n != (size_t)k || (k && memcmp(got.p, want, (size_t)k * sizeof *want))) {
        size_t at = 0;
        while (at < got.n && at < (size_t)k && got.p[at] == want[at]) at++;
        test_fail(__FILE__, __LINE__, "%s chunk %zu flags %u: %s; %zu ids streamed, %lld whole, first difference at %zu",
                  name, chunk, flags, rc ? e2.message : "ids differ", got.n, (long long)k, at);
        ok = 0;
    }
    free(want);
    free(got.p);
    return ok ? calls : 0;
}

/* a BPE vocabulary whose pre-tokenizer only llama.cpp master knows (after b4747's 42 names) */
static bool master_only(const lgg_tokenizer *t) {
    const char *pre = lgg_tokenizer_type(t) == LGG_VOCAB_BPE ? lgg_tokenizer_pre(t) : NULL;
    size_t n;
    const char *p;
    for (size_t i = 42; pre && (p = lgg_tokenizer_pre_name(i, &n)); i++)
        if (n == strlen(pre) && !memcmp(p, pre, n)) return true;
    return false;
}

static void stream_vocab(const char *name, const lgg_tokenizer *t) {
    static const size_t CHUNKS[] = {1, 3, 17, 256, 0};
    size_t jl = 0, most = 0;
    char *joined = joined_texts(&jl);
    REQUIRE(joined != NULL);
    for (uint32_t seed = 1; seed <= 4; seed++) {
        size_t n;
        char *s = seed == 4 ? joined : gen_text(seed, 3000, &n);
        if (seed == 4) n = jl;
        for (size_t c = 0; c < sizeof CHUNKS / sizeof *CHUNKS; c++)
            for (unsigned flags = 0; flags < 4; flags += 3) {
                size_t calls = check_one(name, t, s, n, flags, CHUNKS[c], seed * 7 + (uint32_t)c);
                if (calls > most) most = calls;
            }
        if (s != joined) free(s);
    }
    free(joined);
    /* the small chunks did cut (UGM, tokenizer.json and the pre-tokenizers
     * only llama.cpp master knows hold the text whole) */
    if (lgg_tokenizer_type(t) == LGG_VOCAB_UGM || master_only(t)) CHECKF(most == 1, "%s: cut %zu times", name, most);
    else CHECKF(most > 10, "%s: only %zu pieces with a 1-byte chunk", name, most);
}

static lgg_tokenizer *open_path(const char *path) {
    lgg_file *f = NULL;
    lgg_error err;
    lgg_tokenizer *t = NULL;
    if (lgg_open_file(path, NULL, &f, &err) != LGG_OK || lgg_tokenizer_open_gguf(f, &t, &err) != LGG_OK)
        test_fail(__FILE__, __LINE__, "%s: %s", path, err.message);
    lgg_close(f);
    return t;
}

static void synth_case(void *arg) {
    int kind = (int)(intptr_t)arg;
    char name[64];
    tok_vocab_name(kind, name, sizeof name);
    const char *path = scratch_path("stream-vocab.gguf");
    REQUIRE(tok_vocab_write(kind, path) == 0);
    lgg_tokenizer *t = open_path(path);
    REQUIRE(t != NULL);
    stream_vocab(name, t);
    lgg_tokenizer_free(t);
}

static void real_case(void *arg) {
    const char *name = arg;
    const char *path = vocab_realistic(name);
    if (!path) {
        test_skip("%s.gguf is not there (llama.cpp b4747 checkout: $GGUF_LLAMA_CPP or ../ref/llama.cpp), nor a "
                  "stand-in of it", name);
        return;
    }
    lgg_tokenizer *t = open_path(path);
    REQUIRE(t != NULL);
    stream_vocab(name, t);
    lgg_tokenizer_free(t);
}

__attribute__((constructor)) static void register_stream_cases(void) {
    static char names[N_VOCABS][80];
    for (int k = 0; k < (int)N_VOCABS; k++) {
        char v[48];
        tok_vocab_name(k, v, sizeof v);
        snprintf(names[k], sizeof names[k], "tokenize_stream/%s", v);
        test_register_arg(names[k], synth_case, (void *)(intptr_t)k);
    }
    static const char *const REAL[] = {"ggml-vocab-llama-spm", "ggml-vocab-phi-3",      "ggml-vocab-baichuan",
                                       "ggml-vocab-gpt-2",     "ggml-vocab-falcon",     "ggml-vocab-deepseek-llm",
                                       "ggml-vocab-deepseek-coder", "ggml-vocab-starcoder", "ggml-vocab-refact",
                                       "ggml-vocab-mpt",       "ggml-vocab-gpt-neox",   "ggml-vocab-bert-bge"};
    static char rn[sizeof REAL / sizeof *REAL][80];
    for (size_t i = 0; i < sizeof REAL / sizeof *REAL; i++) {
        snprintf(rn[i], sizeof rn[i], "tokenize_stream/%s", REAL[i] + 11);
        test_register_arg(rn[i], real_case, (void *)REAL[i]);
    }
}

/* ---- flat memory ---- */

static int count_ids(void *user, const int32_t *ids, size_t n) {
    (void)ids;
    *(size_t *)user += n;
    return 0;
}

/* The peak RSS since the last peak_reset, in KiB: Linux's VmHWM, which a
 * forked child inherits from its parent unless reset (writing 5 to
 * /proc/self/clear_refs); getrusage's ru_maxrss (inherited too) when /proc
 * is not there. */
static void peak_reset(void) {
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) fputs("5", f), fclose(f);
}
static long peak_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) v = atol(line + 6);
    if (f) fclose(f);
    if (v < 0) {
        struct rusage ru;
        if (!getrusage(RUSAGE_SELF, &ru)) v = ru.ru_maxrss;
    }
    return v;
}

/* In a child: stream `mib` MiB of generated lines through t (or, when
 * `whole`, tokenize them in one lgg_tokenize call); its peak RSS in KiB (-1
 * on failure). */
static long child_peak(const lgg_tokenizer *t, size_t mib, int whole, size_t *n_ids) {
    int fd[2];
    if (pipe(fd)) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        close(fd[0]);
        size_t ids = 0;
        long out[2] = {-1, 0};
        lgg_tokenize_stream *s = NULL;
        lgg_error e;
        size_t len;
        char *block = gen_text_of(99, 1 << 16, &len, 1); /* no special tokens: fragments as long as lines */
        char *all = whole ? malloc(mib << 20) : NULL;
        for (size_t done = 0; all && done + len <= mib << 20; done += len) memcpy(all + done, block, len);
        /* the free memory this child inherits from the runner's earlier tests
         * (a worker runs many) goes back to the system first: reused, its
         * pages are already resident and the peak would not see them */
        malloc_trim(0);
        peak_reset();
        if (all) {
            int64_t k = lgg_tokenize(t, all, (mib << 20) / len * len, 3, NULL, 0, &e);
            out[0] = k >= 0 ? peak_kib() : -1, out[1] = (long)k;
            if (write(fd[1], out, sizeof out) != sizeof out) _exit(1);
            _exit(0);
        }
        int ok = lgg_tokenize_stream_new(t, LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL, 0, count_ids, &ids, &s,
                                         &e) == LGG_OK;
        for (size_t done = 0; ok && done < mib << 20; done += len) ok = lgg_tokenize_stream_feed(s, block, len, &e) == LGG_OK;
        ok = ok && lgg_tokenize_stream_finish(s, &e) == LGG_OK;
        if (ok) out[0] = peak_kib(), out[1] = (long)ids;
        if (write(fd[1], out, sizeof out) != sizeof out) _exit(1);
        _exit(0);
    }
    close(fd[1]);
    long in[2] = {-1, 0};
    if (read(fd[0], in, sizeof in) != sizeof in) in[0] = -1;
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    *n_ids = (size_t)in[1];
    return in[0];
}

TEST(tokenize_stream_flat_memory) {
    /* ASan's shadow memory and quarantine and TSan's shadow make the peak
     * RSS measure the sanitizer, not the tokenizer */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    test_skip("a sanitizer's shadow memory hides the tokenizer's peak memory");
    return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    test_skip("a sanitizer's shadow memory hides the tokenizer's peak memory");
    return;
#endif
#endif
    const char *path = scratch_path("stream-mem.gguf");
    REQUIRE(tok_vocab_write(8 /* gpt-2 */, path) == 0);
    lgg_tokenizer *t = open_path(path);
    REQUIRE(t != NULL);
    size_t ids4 = 0, ids32 = 0, ids_whole = 0;
    long small = child_peak(t, 4, 0, &ids4), big = child_peak(t, 32, 0, &ids32), whole = child_peak(t, 4, 1, &ids_whole);
    lgg_tokenizer_free(t);
    REQUIRE(small > 0 && big > 0 && whole > 0);
    /* the measure sees memory: the whole call on 4 MiB peaks far higher */
    CHECKF(whole - small > 16384, "the whole call on 4 MiB peaks at %ld KiB, the stream at %ld KiB", whole, small);
    CHECKF(ids32 > 7 * ids4, "32 MiB gave %zu ids, 4 MiB %zu", ids32, ids4);
    /* the whole text would take more than its size again (code points alone
     * are 4 bytes each): 28 MiB more input may add 4 MiB at most */
    CHECKF(big - small < 4096, "peak RSS %ld KiB for 32 MiB against %ld KiB for 4 MiB", big, small);
    printf("    peak RSS streaming 4 MiB: %ld KiB, 32 MiB: %ld KiB; the whole call on 4 MiB: %ld KiB\n", small, big,
           whole);
}

/* ---- the command on a text longer than its 1 MiB chunk ---- */

/* `--ids` of the whole call, as the command prints them */
static char *ids_line(const lgg_tokenizer *t, const char *s, size_t n) {
    lgg_error e;
    unsigned flags = LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL;
    int64_t k = lgg_tokenize(t, s, n, flags, NULL, 0, &e);
    if (k < 0) return NULL;
    int32_t *ids = malloc(((size_t)k + 1) * sizeof *ids);
    lgg_tokenize(t, s, n, flags, ids, (size_t)k, &e);
    char *out = malloc((size_t)k * 13 + 4), *w = out;
    *w++ = '[';
    for (int64_t i = 0; i < k; i++) w += sprintf(w, "%s%d", i ? ", " : "", (int)ids[i]);
    strcpy(w, "]\n");
    free(ids);
    return out;
}

/* stdout of a command, or NULL (reported) */
static char *run_out(char *const argv[]) {
    char *o = NULL, *e = NULL;
    size_t ol, el;
    int status;
    if (run_capture(argv, &o, &ol, &e, &el, &status) || status != 0) {
        test_fail(__FILE__, __LINE__, "%s exited %d: %s", argv[0], status, e ? e : "");
        free(o), free(e);
        return NULL;
    }
    free(e);
    return o;
}

/* `gguf tokenize --ids MODEL -f FILE` on 1.4 MiB of generated lines: the
 * whole call's ids, and llama-tokenize b4747's when it is at hand
 * ($LLAMA_TOKENIZE or ../ref/llama-build/bin/llama-tokenize) */
static void cli_case(void *arg) {
    const char *name = arg;
    char vocab[1500], gguf[1024], full[64];
    snprintf(full, sizeof full, "ggml-vocab-%s", name);
    const char *v = vocab_realistic(full);
    if (!v) {
        test_skip("%s.gguf is not there (llama.cpp b4747 checkout: $GGUF_LLAMA_CPP or ../ref/llama.cpp), nor a "
                  "stand-in of it", full);
        return;
    }
    snprintf(vocab, sizeof vocab, "%s", v);
    size_t n;
    char *text = gen_text(7, (1 << 20) + (384 << 10), &n);
    for (size_t i = 0; i < n; i++) /* llama-tokenize reads -f as a C string */
        if (!text[i]) text[i] = 'z';
    const char *file = scratch_path("stream-cli.txt");
    FILE *f = fopen(file, "wb");
    REQUIRE(f && fwrite(text, 1, n, f) == n && fclose(f) == 0);
    lgg_tokenizer *t = open_path(vocab);
    REQUIRE(t != NULL);
    char *want = ids_line(t, text, n);
    lgg_tokenizer_free(t);
    free(text);
    REQUIRE(want != NULL);
    snprintf(gguf, sizeof gguf, "%s/gguf", build_dir());
    char *argv[] = {gguf, "tokenize", "--ids", vocab, "-f", (char *)file, NULL};
    char *got = run_out(argv);
    CHECKF(got && !strcmp(got, want), "%s: the streamed command differs from the whole call", name);
    free(got);
    const char *lt = getenv("LLAMA_TOKENIZE");
    if (!lt || !*lt) lt = "../ref/llama-build/bin/llama-tokenize";
    if (access(lt, X_OK)) {
        test_skip("llama-tokenize is not there (set LLAMA_TOKENIZE): the whole call alone was compared");
    } else {
        char *ref_argv[] = {(char *)lt, "-m", vocab, "-f", (char *)file, "--ids", "--no-escape", "--log-disable", NULL};
        char *ref = run_out(ref_argv);
        /* its last line is the ids */
        char *last = ref ? ref + strlen(ref) : NULL;
        if (last && last > ref && last[-1] == '\n') last--;
        while (last && last > ref && last[-1] != '\n') last--;
        CHECKF(last && !strcmp(last, want), "%s: llama-tokenize's ids differ from ours", name);
        free(ref);
    }
    free(want);
}

__attribute__((constructor)) static void register_cli_cases(void) {
    test_register_arg("tokenize_stream/cli-llama-spm", cli_case, "llama-spm");
    test_register_arg("tokenize_stream/cli-gpt-2", cli_case, "gpt-2");
}

#endif
