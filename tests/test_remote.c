/* test_remote.c -- every read-only command on http:// and hf:// names,
 * against the server in httpd.c (127.0.0.1, started and stopped here): the
 * same output as on the file, the bytes and requests the server saw, and
 * each fault it can make (ranges ignored, 503s, cut responses, a token
 * required, a redirect to another origin, a lying Content-Range, 404, a
 * refused connection); `gguf download` and its resuming. */
#ifndef LGG_TEST_NO_GOLDEN_LIBS
#include "convert_cases.h"
#include "gen.h"
#include "embed_cases.h"
#include "httpd.h"
#include "libgguf.h"
#include "standin.h"
#include "libgguf_remote.h"

#include <dirent.h>
#include <jansson.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static httpd *srv, *other;
static char root[1024];

static bool setup(void) {
    if (srv) return true;
    snprintf(root, sizeof root, "%s/www", scratch_dir());
    mkdir(root, 0755);
    srv = httpd_start(root);
    other = httpd_start(root);
    if (!srv || !other) return false;
    httpd_set_other(srv, other);
    setenv("GGUF_RETRY_MS", "10", 1);
    unsetenv("HF_TOKEN");
    return true;
}

__attribute__((destructor)) static void teardown(void) {
    httpd_stop(srv);
    httpd_stop(other);
}

/* root/NAME into `to`, its folders made. */
static void served_path(const char *name, char *to, size_t cap) {
    snprintf(to, cap, "%s/%s", root, name);
    for (char *p = to + strlen(root) + 1; (p = strchr(p, '/')); p++) {
        *p = 0;
        mkdir(to, 0755);
        *p = '/';
    }
}

/* Put the bytes of `from` under the server's root as `name`. */
static bool publish(const char *from, const char *name) {
    char to[2048];
    served_path(name, to, sizeof to);
    return file_copy(from, to);
}

static char *url(const char *mode, const char *name) {
    static char b[8][2048];
    static int k;
    char *u = b[k++ % 8];
    snprintf(u, sizeof b[0], "http://127.0.0.1:%d/%s/%s", httpd_port(srv), mode, name);
    return u;
}

static bool holds(const char *out, const unsigned char *want, size_t n);

/* A small model with a vocabulary: llama-2-tiny-random from ../shared's
 * corpus, or without ../shared the stand-in of llama-quantize's Q8_0 model
 * (standin.h): what these tests check is that a remote read gives what the
 * local one does, which needs no particular model. */
static const char *tiny_model(void) {
    return shared_present() ? shared_path("corpus/ollama/llama-2-tiny-random@55b2b40c.gguf")
                            : model_path("golden/llama-quantize/pub-dense-Q8_0.gguf");
}

/* Run gguf with up to four arguments; NULL ones are left out. */
static int run(char **out, char **err, const char *cmd, const char *a1, const char *a2, const char *a3,
               const char *a4) {
    const char *v[4] = {a1, a2, a3, a4}, *w[4] = {NULL, NULL, NULL, NULL};
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (v[i]) w[k++] = v[i];
    return run_gguf_capture(out, err, cmd, w[0], w[1], w[2], w[3], (char *)NULL);
}

/* The same command on the file and on its URL: same status, and the same
 * stdout and stderr once the names are swapped. */
static void same_output(const char *file, const char *u, const char *cmd, const char *opt, const char *extra) {
    char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
    int s1, s2;
    if (extra) {
        s1 = run(&o1, &e1, cmd, opt, file, extra, NULL);
        s2 = run(&o2, &e2, cmd, opt, u, extra, NULL);
    } else {
        s1 = run(&o1, &e1, cmd, opt, file, NULL, NULL);
        s2 = run(&o2, &e2, cmd, opt, u, NULL, NULL);
    }
    char *o1u = o1 ? text_replace(o1, file, u) : NULL, *e1u = e1 ? text_replace(e1, file, u) : NULL;
    CHECKF(s1 == s2, "gguf %s %s: status %d on the file, %d on %s (%s)", cmd, opt ? opt : "", s1, s2, u, e2);
    CHECKF(o1u && o2 && !strcmp(o1u, o2), "gguf %s %s %s: stdout differs:\n--- file\n%.600s\n--- url\n%.600s", cmd,
           opt ? opt : "", u, o1u, o2);
    CHECKF(e1u && e2 && !strcmp(e1u, e2), "gguf %s %s %s: stderr differs:\n--- file\n%.600s\n--- url\n%.600s", cmd,
           opt ? opt : "", u, e1u, e2);
    free(o1), free(e1), free(o2), free(e2), free(o1u), free(e1u);
}

/* The first tensor's name, for cat and stats. */
static bool first_tensor(const char *path, char *name, size_t cap) {
    lgg_file *f = NULL;
    if (lgg_open_file(path, NULL, &f, NULL) != LGG_OK) return false;
    bool ok = lgg_tensor_count(f) > 0;
    if (ok) {
        const lgg_tensor *t = lgg_tensor_at(f, lgg_tensor_count(f) - 1);
        snprintf(name, cap, "%.*s", (int)t->name.len, t->name.ptr);
    }
    lgg_close(f);
    return ok;
}

static void all_commands(const char *file, const char *name) {
    char local[2048];
    snprintf(local, sizeof local, "%s/%s", root, name);
    const char *u = url("plain", name);
    same_output(local, u, "info", "--json", NULL);
    same_output(local, u, "info", NULL, NULL);
    same_output(local, u, "dump", "--json", NULL);
    same_output(local, u, "tensors", "--json", NULL);
    same_output(local, u, "validate", "--json", NULL);
    same_output(local, u, "name", NULL, NULL);
    same_output(local, u, "get", "--json", "general.architecture");
    same_output(local, u, "estimate", "--json", NULL);
    char t[512];
    if (first_tensor(file, t, sizeof t)) {
        same_output(local, u, "cat", "--as=f32", t);
        same_output(local, u, "stats", "--json", t);
    }
    same_output(local, u, "hash", "--sha256", NULL);
    same_output(local, u, "hash", "--all", NULL);
    /* either side of a diff */
    char *o = NULL;
    int st = run(&o, NULL, "diff", local, u, NULL, NULL);
    CHECKF(st == 0, "gguf diff FILE URL: status %d:\n%.400s", st, o);
    free(o);
}

TEST(remote_every_command_same_as_file) {
    if (!need_models()) return;
    REQUIRE(setup());
    /* without ../shared: the llama-quantize models' stand-ins, and a
     * committed vocabulary-only file for the vocabulary one */
    const bool shared = shared_present();
    const char *const files[] = {
        shared ? shared_path("corpus/ollama/llama-2-tiny-random@55b2b40c.gguf")
               : model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"),
        shared ? shared_path("corpus/llama.cpp/ggml-vocab-bert-bge@b2cbd5df.gguf") : "tests/data/t5-unigram-nmt-nfkc.gguf",
        model_path("golden/llama-quantize/pub-dense-Q8_0.BE.gguf"),
        model_path("golden/llama-quantize/pub-dense-f16.gguf"),
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const char *name = strrchr(files[i], '/') + 1;
        if (!publish(files[i], name)) {
            CHECKF(0, "cannot publish %s", files[i]);
            continue;
        }
        all_commands(files[i], name);
    }
}

/* A 4 MB vocabulary: the header in at most 6 requests and 2H + 1 MiB. */
TEST(remote_header_budget) {
    REQUIRE(setup());
    buf b = {0};
    gen_header(&b, 3, 1, 2);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "llama");
    gen_key(&b, 3, "tokenizer.ggml.tokens", LGG_VT_ARRAY);
    buf_u32(&b, LGG_VT_STRING);
    buf_u64(&b, 200000);
    for (int i = 0; i < 200000; i++) {
        char t[32];
        snprintf(t, sizeof t, "token-%07d-xxxxxx", i);
        gen_str(&b, 3, t);
    }
    const uint64_t header = b.n;
    uint64_t ne[2] = {4096, 4096}; /* 64 MiB of data that info must not fetch */
    gen_tensor(&b, 3, "w", 2, ne, LGG_TYPE_F32, 0);
    buf_pad(&b, 32);
    const size_t at = b.n;
    b.n += (size_t)4096 * 4096 * 4;
    b.p = realloc(b.p, b.n);
    REQUIRE(b.p != NULL);
    memset(b.p + at, 0, b.n - at);
    char path[2048];
    snprintf(path, sizeof path, "%s/vocab4m.gguf", root);
    FILE *f = fopen(path, "wb");
    REQUIRE(f && fwrite(b.p, 1, b.n, f) == b.n && fclose(f) == 0);
    buf_free(&b);
    httpd_take_counts(srv);
    char *o = NULL, *e = NULL;
    CHECK(run(&o, &e, "info", url("plain", "vocab4m.gguf"), NULL, NULL, NULL) == 0);
    httpd_counts c = httpd_take_counts(srv);
    CHECKF(c.requests <= 6, "%lu requests for a %llu-byte header", c.requests, (unsigned long long)header);
    CHECKF(c.sent <= 2 * header + (1u << 20), "%llu bytes sent for a %llu-byte header", c.sent,
           (unsigned long long)header);
    if (getenv("TEST_VERBOSE"))
        fprintf(stderr, "    4 MB header (%llu bytes): %lu requests, %llu bytes\n", (unsigned long long)header,
                c.requests, c.sent);
    free(o), free(e);
    /* a server that ignores ranges: the same answer, and the 64 MiB body dropped early */
    CHECK(run(&o, &e, "info", url("norange", "vocab4m.gguf"), NULL, NULL, NULL) == 0);
    c = httpd_take_counts(srv);
    CHECKF(c.sent < (48u << 20), "%llu bytes sent by a server ignoring ranges", c.sent);
    free(o), free(e);
}

static void expect_fail(const char *u, const char *want, const char *token) {
    char *o = NULL, *e = NULL;
    int st = token ? run(&o, &e, "info", "--token", token, u, NULL) : run(&o, &e, "info", u, NULL, NULL, NULL);
    CHECKF(st == 1 && e && strstr(e, want), "gguf info %s: status %d, stderr '%s' (wanted '%s')", u, st, e, want);
    free(o), free(e);
}

TEST(remote_faults) {
    if (!need_models()) return;
    REQUIRE(setup());
    const char *src = tiny_model();
    REQUIRE(publish(src, "m.gguf"));
    char local[2048];
    snprintf(local, sizeof local, "%s/m.gguf", root);
    /* survived: 503 every other time, cut responses, ranges ignored */
    same_output(local, url("flaky", "m.gguf"), "info", "--json", NULL);
    same_output(local, url("cut", "m.gguf"), "stats", "--json", "output.weight");
    same_output(local, url("norange", "m.gguf"), "dump", "--json", NULL);
    /* failing with the URL and the status */
    expect_fail(url("plain", "missing.gguf"), "HTTP 404", NULL);
    expect_fail(url("auth", "m.gguf"), "HTTP 401", NULL);
    expect_fail(url("lie", "m.gguf"), "answered bytes 1-", NULL);
    char refused[128];
    snprintf(refused, sizeof refused, "http://127.0.0.1:1/plain/m.gguf");
    expect_fail(refused, "cannot connect", NULL);
    /* a token opens the door, from --token or HF_TOKEN */
    httpd_take_counts(srv);
    same_output(local, url("auth", "m.gguf"), "info", "--token=secret", NULL);
    setenv("HF_TOKEN", "secret", 1);
    same_output(local, url("auth", "m.gguf"), "tensors", NULL, NULL);
    /* ... and never crosses to another origin: the redirect target sees none */
    httpd_take_counts(other);
    same_output(local, url("redirect", "m.gguf"), "info", NULL, NULL);
    httpd_counts c = httpd_take_counts(other), s = httpd_take_counts(srv);
    CHECKF(c.requests > 0 && c.with_auth == 0, "the other origin saw %lu requests, %lu with a token", c.requests,
           c.with_auth);
    CHECKF(s.with_auth > 0, "the token's own origin got no token");
    unsetenv("HF_TOKEN");
}

/* A truncated file and a metadata-only one warn on a URL as on disk. */
TEST(remote_truncated_warns) {
    if (!need_models()) return;
    REQUIRE(setup());
    size_t n = 0;
    unsigned char *b = read_file(model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"), &n);
    REQUIRE(b != NULL);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(b, n, NULL, &f, NULL) == LGG_OK);
    const size_t data = (size_t)lgg_tensor_at(f, 0)->file_offset;
    lgg_close(f);
    const size_t cut[2] = {n - n / 4, data};
    const char *names[2] = {"trunc.gguf", "metaonly.gguf"}, *want[2] = {"warning: truncated", "warning: metadata only"};
    for (int i = 0; i < 2; i++) {
        char local[2048];
        snprintf(local, sizeof local, "%s/%s", root, names[i]);
        FILE *o = fopen(local, "wb");
        REQUIRE(o && fwrite(b, 1, cut[i], o) == cut[i] && fclose(o) == 0);
        const char *u = url("plain", names[i]);
        same_output(local, u, "info", NULL, NULL);
        same_output(local, u, "tensors", "--json", NULL);
        char *out = NULL, *err = NULL;
        int st = run(&out, &err, "info", u, NULL, NULL, NULL);
        CHECKF(st == 0 && err && strstr(err, want[i]), "info %s: %d: %s", u, st, err);
        free(out), free(err);
    }
    free(b);
}

/* hash on a server: the tensors in one streaming GET, also where Range is
 * ignored (there, a read per tensor would be a GET from byte 0 each); and
 * hash - on a pipe that ends early. */
TEST(remote_hash_one_pass) {
    if (!need_models()) return;
    REQUIRE(setup());
    const char *src = model_path("golden/llama-quantize/pub-dense-Q8_0.gguf");
    REQUIRE(publish(src, "h.gguf"));
    size_t n = 0;
    unsigned char *b = read_file(src, &n);
    REQUIRE(b != NULL);
    char local[2048];
    snprintf(local, sizeof local, "%s/h.gguf", root);
    static const char *const modes[] = {"norange", "plain", "cut"};
    for (int i = 0; i < 3; i++) {
        httpd_take_counts(srv);
        same_output(local, url(modes[i], "h.gguf"), "hash", "--all", NULL);
        httpd_counts c = httpd_take_counts(srv);
        /* the header's read, then one for the data (cut: a retry or two more) */
        CHECKF(c.requests <= (i == 2 ? 5u : 2u), "%s: %lu requests", modes[i], c.requests);
        CHECKF(c.sent <= 2 * (unsigned long long)n + (1u << 20), "%s: %llu bytes sent for a %zu-byte file", modes[i],
               c.sent, n);
        if (getenv("TEST_VERBOSE"))
            fprintf(stderr, "    hash --all on %s: %lu requests, %llu bytes for a %zu-byte file\n", modes[i],
                    c.requests, c.sent, n);
    }
    /* a pipe cut in the middle of the data: the tensors before the cut, then why */
    const char *cut = scratch_path("h-cut.gguf");
    FILE *f = fopen(cut, "wb");
    REQUIRE(f && fwrite(b, 1, n - 1000, f) == n - 1000 && fclose(f) == 0);
    char tool[1024], *o = NULL, *e = NULL;
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    char *argv[] = {"/bin/sh", "-c", "cat \"$0\" | exec \"$1\" hash -", (char *)cut, tool, NULL};
    size_t ol, el;
    int st = -1;
    REQUIRE(run_capture(argv, &o, &ol, &e, &el, &st) == 0);
    char want[200];
    snprintf(want, sizeof want, "gguf hash: <stdin>: the input ends at offset %zu, before the ", n - 1000);
    CHECKF(st == 1 && e && !strncmp(e, want, strlen(want)), "cut pipe: %d: %s", st, e);
    free(o), free(e);
    free(b);
}

/* hf://OWNER/REPO/PATH[@REV] through HF_ENDPOINT. */
TEST(remote_hf_names) {
    if (!need_models()) return;
    REQUIRE(setup());
    const char *src = tiny_model();
    REQUIRE(publish(src, "o/r/resolve/main/sub/m.gguf"));
    REQUIRE(publish(src, "o/r/resolve/v2/m.gguf"));
    char ep[256], local[2048];
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/plain", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    snprintf(local, sizeof local, "%s/o/r/resolve/main/sub/m.gguf", root);
    same_output(local, "hf://o/r/sub/m.gguf", "info", NULL, NULL);
    snprintf(local, sizeof local, "%s/o/r/resolve/v2/m.gguf", root);
    same_output(local, "hf://o/r/m.gguf@v2", "tensors", NULL, NULL);
    expect_fail("hf://o/r", "/api/models/o/r/tree/main?recursive=true: HTTP 404 Not Found", NULL); /* no listing */
    /* percent-encoded on the way (the server decodes), saved under the name as written */
    REQUIRE(publish(src, "o/r/resolve/refs/pr/1/m+x y.gguf"));
    snprintf(local, sizeof local, "%s/o/r/resolve/refs/pr/1/m+x y.gguf", root);
    same_output(local, "hf://o/r/m+x y.gguf@refs/pr/1", "info", NULL, NULL);
    char dir[2048], saved[2100];
    snprintf(dir, sizeof dir, "%s/hfdl", scratch_dir());
    REQUIRE(mkdir(dir, 0755) == 0);
    snprintf(saved, sizeof saved, "%s/m+x y.gguf", dir);
    char *o = NULL, *e = NULL;
    int st = run(&o, &e, "download", "-o", dir, "hf://o/r/m+x y.gguf@refs/pr/1", NULL);
    size_t n = 0;
    unsigned char *want = read_file(src, &n);
    CHECKF(st == 0 && want && holds(saved, want, n), "download hf://o/r/m+x y.gguf@refs/pr/1 -o DIR: %d: %s", st, e);
    free(o), free(e), free(want);
    unsetenv("HF_ENDPOINT");
}

/* Write `text` under the server's root as `name`. */
static bool publish_text(const char *name, const char *text) {
    char to[2048];
    served_path(name, to, sizeof to);
    FILE *f = fopen(to, "w");
    if (!f) return false;
    fputs(text, f);
    return fclose(f) == 0;
}

/* A repository on the fake hub (httpd.c's /hub/): its files, each a copy
 * of src, and a README.md, in the folder OWNER/REPO/main/. */
static bool hub_repo(const char *repo, const char *src, const char *const *files) {
    char name[1024];
    snprintf(name, sizeof name, "%s/main/README.md", repo);
    if (!publish_text(name, "card\n")) return false;
    for (size_t i = 0; files[i]; i++) {
        snprintf(name, sizeof name, "%s/main/%s", repo, files[i]);
        if (!publish(src, name)) return false;
    }
    return true;
}

/* Whether two files have the same bytes. */
static bool same_bytes(const char *a, const char *b) {
    size_t na = 0, nb = 0;
    unsigned char *x = read_file(a, &na), *y = read_file(b, &nb);
    bool same = x && y && na == nb && !memcmp(x, y, na);
    free(x), free(y);
    return same;
}

/* gguf download hf://OWNER/REPO: the whole repository, folders kept; a
 * second run fetches only the listing; a damaged file is fetched again;
 * --include/--exclude. */
TEST(remote_hf_snapshot) {
    if (!need_models()) return;
    REQUIRE(setup());
    const char *src = tiny_model();
    static const char *const files[] = {"model.safetensors", "sub/config.json", NULL};
    REQUIRE(hub_repo("o/s", src, files));
    char ep[256], dir[2048], p[2300], *o = NULL, *e = NULL;
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    snprintf(dir, sizeof dir, "%s/snap", scratch_dir());
    int st = run(&o, &e, "download", "-q", "-o", dir, "hf://o/s");
    CHECKF(st == 0, "snapshot: %s", e);
    free(o), free(e);
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    CHECK(same_bytes(p, src));
    snprintf(p, sizeof p, "%s/sub/config.json", dir);
    CHECK(same_bytes(p, src));
    snprintf(p, sizeof p, "%s/README.md", dir);
    size_t n = 0;
    unsigned char *readme = read_file(p, &n);
    CHECK(readme && n == 5 && !memcmp(readme, "card\n", 5));
    free(readme);
    /* again: only the listing */
    httpd_take_counts(srv), httpd_take_counts(other);
    st = run(&o, &e, "download", "-o", dir, "hf://o/s", NULL);
    httpd_counts hub_c = httpd_take_counts(srv), cdn_c = httpd_take_counts(other);
    CHECKF(st == 0 && hub_c.requests == 1 && cdn_c.requests == 0, "second run: %d, %lu + %lu requests: %s", st,
           hub_c.requests, cdn_c.requests, e);
    char *want_e = text_replace("gguf download: DIR: 0 files fetched, 3 already complete\n", "DIR", dir);
    CHECK_STR(e, want_e);
    free(want_e);
    free(o), free(e);
    /* a damaged file (same size) is fetched again */
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    FILE *f = fopen(p, "r+b");
    REQUIRE(f);
    fputc('X', f);
    fclose(f);
    st = run(&o, &e, "download", "-q", "-o", dir, "hf://o/s");
    CHECKF(st == 0 && same_bytes(p, src), "refetch: %s", e);
    free(o), free(e);
    /* globs on the path, '*' crossing '/' */
    snprintf(dir, sizeof dir, "%s/snap2", scratch_dir());
    st = run_gguf_capture(&o, &e, "download", "-q", "-o", dir, "--include", "*.json", "--include", "*.md", "--exclude",
                          "README*", "hf://o/s", (char *)NULL);
    CHECKF(st == 0, "globs: %s", e);
    free(o), free(e);
    snprintf(p, sizeof p, "%s/sub/config.json", dir);
    CHECK(same_bytes(p, src));
    snprintf(p, sizeof p, "%s/README.md", dir);
    CHECK(access(p, F_OK) != 0);
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    CHECK(access(p, F_OK) != 0);
    unsetenv("HF_ENDPOINT");
}

/* The user's own -o DIR is followed through its symlinks (a folder on the
 * way, DIR itself), as cp follows them; a symlink planted under DIR where
 * the listing has a folder is not followed: refused, nothing written
 * through it. */
TEST(remote_hf_snapshot_symlinks) {
    if (!need_models()) return;
    REQUIRE(setup());
    const char *src = tiny_model();
    static const char *const files[] = {"sub/config.json", NULL};
    REQUIRE(hub_repo("o/sl", src, files));
    char ep[256], real[2048], link[2048], dir[2100], p[2300], *o = NULL, *e = NULL;
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    snprintf(real, sizeof real, "%s/sl-real", scratch_dir());
    snprintf(link, sizeof link, "%s/sl-link", scratch_dir());
    REQUIRE(mkdir(real, 0755) == 0 && symlink("sl-real", link) == 0);
    for (int as_dir = 0; as_dir < 2; as_dir++) {
        snprintf(dir, sizeof dir, as_dir ? "%s" : "%s/snap", link);
        int st = run(&o, &e, "download", "-q", "-o", dir, "hf://o/sl");
        CHECKF(st == 0 && !strcmp(e, ""), "-o %s: %d: %s", dir, st, e);
        snprintf(p, sizeof p, as_dir ? "%s/sub/config.json" : "%s/snap/sub/config.json", real);
        CHECKF(same_bytes(p, src), "%s", p);
        free(o), free(e);
    }
    /* DIR/sub a symlink to elsewhere: refused */
    snprintf(dir, sizeof dir, "%s/planted", scratch_dir());
    snprintf(p, sizeof p, "%s/sub", dir);
    REQUIRE(mkdir(dir, 0755) == 0 && symlink("../sl-elsewhere", p) == 0);
    snprintf(p, sizeof p, "%s/sl-elsewhere", scratch_dir());
    REQUIRE(mkdir(p, 0755) == 0);
    int st = run(&o, &e, "download", "-q", "-o", dir, "hf://o/sl");
    char *want = text_replace("gguf download: DIR/sub/config.json: cannot make its folder: File exists\n", "DIR", dir);
    CHECK_EQ_U(st, 1);
    CHECK_STR(e, want);
    CHECK(!has_entry(p, "config"));
    free(want), free(o), free(e);
    unsetenv("HF_ENDPOINT");
}

/* Repository o/NAME on the fake hub listed as `listing` (JSON), its files
 * (NULL-ended NAME, CONTENT pairs) in its folder. */
static bool hub_listed(const char *repo, const char *listing, const char *const *files) {
    char name[1024];
    snprintf(name, sizeof name, "%s/main.json", repo);
    if (!publish_text(name, listing)) return false;
    for (size_t i = 0; files[i]; i += 2) {
        snprintf(name, sizeof name, "%s/main/%s", repo, files[i]);
        if (!publish_text(name, files[i + 1])) return false;
    }
    return true;
}

/* A listing whose names need one local name is refused before anything is
 * fetched: x.txt.part beside x.txt (its temporary file), a file `a`
 * beside `a/b`.  A file longer than the listing says is refused once one
 * byte more than listed came. */
TEST(remote_hf_snapshot_clashes) {
    if (!need_models()) return;
    REQUIRE(setup());
    char ep[256], dir[2048], *o = NULL, *e = NULL;
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    static const struct { const char *repo, *listing, *files[5], *err; } cases[] = {
        {"o/c1",
         "[{\"type\":\"file\",\"oid\":\"1\",\"size\":4,\"path\":\"x.txt.part\"},"
         "{\"type\":\"file\",\"oid\":\"2\",\"size\":4,\"path\":\"x.txt\"}]",
         {"x.txt.part", "two\n", "x.txt", "one\n", NULL},
         "gguf download: hf://o/c1: 'x.txt.part' would be both the file 'x.txt.part' and the temporary file of 'x.txt': "
         "nothing fetched\n"},
        {"o/c2",
         "[{\"type\":\"file\",\"oid\":\"1\",\"size\":4,\"path\":\"a/b\"},"
         "{\"type\":\"file\",\"oid\":\"2\",\"size\":4,\"path\":\"a\"}]",
         {"a/b", "one\n", NULL},
         "gguf download: hf://o/c2: 'a' would be both the file 'a' and a folder of 'a/b': nothing fetched\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        REQUIRE(hub_listed(cases[i].repo, cases[i].listing, cases[i].files));
        snprintf(dir, sizeof dir, "%s/clash%zu", scratch_dir(), i);
        char name[64];
        snprintf(name, sizeof name, "hf://%s", cases[i].repo);
        CHECK_EQ_U(run(&o, &e, "download", "-q", "-o", dir, name), 1);
        CHECK_STR(e, cases[i].err);
        CHECKF(access(dir, F_OK) != 0, "%s: %s was made", name, dir);
        free(o), free(e);
    }
    /* a folder left where a listed file goes: the download fails, leaving
     * no partial file that no later run could rename */
    REQUIRE(hub_listed("o/c4", "[{\"type\":\"file\",\"oid\":\"1\",\"size\":4,\"path\":\"f\"}]",
                       (const char *const[]){"f", "one\n", NULL}));
    snprintf(dir, sizeof dir, "%s/clash-folder", scratch_dir());
    char p[2100];
    snprintf(p, sizeof p, "%s/f", dir);
    REQUIRE(mkdir(dir, 0755) == 0 && mkdir(p, 0755) == 0);
    CHECK_EQ_U(run(&o, &e, "download", "-q", "-o", dir, "hf://o/c4"), 1);
    CHECKF(e && strstr(e, "/f: cannot rename the partial file over it"), "%s", e);
    CHECKF(entries_in(dir) == 1, "%d entries: the partial file left", entries_in(dir));
    free(o), free(e);
    /* 100 bytes listed, the whole model (1750560 bytes with ../shared) served */
    const char *src = tiny_model();
    REQUIRE(hub_listed("o/c3", "[{\"type\":\"file\",\"oid\":\"1\",\"size\":100,\"path\":\"m.safetensors\"}]",
                       (const char *const[]){NULL}));
    REQUIRE(publish(src, "o/c3/main/m.safetensors"));
    snprintf(dir, sizeof dir, "%s/clash-size", scratch_dir());
    httpd_take_counts(other);
    CHECK_EQ_U(run(&o, &e, "download", "-q", "-o", dir, "hf://o/c3"), 1);
    struct stat sst;
    char said[128];
    snprintf(said, sizeof said, "gguf download: DIR/m.safetensors: %lld bytes, the listing says 100\n",
             stat(src, &sst) == 0 ? (long long)sst.st_size : -1LL); /* 1750560 for the shared model */
    char *want = text_replace(said, "DIR", dir);
    CHECK_STR(e, want);
    unsigned long long sent = httpd_take_counts(other).sent;
    CHECKF(sent <= 101, "%llu bytes sent", sent);
    CHECK(!has_entry(dir, "m."));
    free(want), free(o), free(e);
    unsetenv("HF_ENDPOINT");
}

/* hf://OWNER/REPO:QUANT picks the file whose name holds the tag (any
 * case); no tag is Q4_K_M; a shard set is one choice; several files or
 * none are errors that list them / the repository's quantizations; gguf
 * ls.  Against httpd.c's hub shape: the tree API over per-repository
 * folders, LFS files answered with a 302 to another origin. */
TEST(remote_hf_quant_tags) {
    if (!need_models()) return;
    REQUIRE(setup());
    const char *src = tiny_model();
    static const char *const q[] = {"m-Q8_0.gguf", "m-Q4_0.gguf", "m-Q4_K_M.gguf", "big/m-IQ4_XS-00001-of-00002.gguf",
                                    "big/m-IQ4_XS-00002-of-00002.gguf", NULL};
    static const char *const n[] = {"n.F16.gguf", "n.BF16.gguf", "config.json", NULL};
    REQUIRE(hub_repo("o/q", src, q) && hub_repo("o/n", src, n));
    char ep[256], sha[65];
    size_t zn = 0;
    unsigned char *srcb = read_file(src, &zn);
    REQUIRE(srcb);
    sha256_hex(srcb, zn, sha);
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
    /* a tag in any case: the same output as the file's own hf:// name; the
     * token goes to the hub, never to the CDN it redirects to */
    httpd_take_counts(srv), httpd_take_counts(other);
    int s1 = run(&o1, &e1, "info", "--token", "secret", "hf://o/q:q8_0", NULL);
    httpd_counts hub_c = httpd_take_counts(srv), cdn_c = httpd_take_counts(other);
    int s2 = run(&o2, &e2, "info", "hf://o/q/m-Q8_0.gguf", NULL, NULL, NULL);
    CHECKF(s1 == 0 && s2 == 0 && o1 && o2 && !strcmp(o1, o2), "info hf://o/q:q8_0: %d %s / %s", s1, e1, o1);
    CHECKF(hub_c.with_auth >= 2 && cdn_c.requests >= 1 && cdn_c.with_auth == 0,
           "token: hub %lu of %lu requests, CDN %lu of %lu", hub_c.with_auth, hub_c.requests, cdn_c.with_auth,
           cdn_c.requests);
    free(o1), free(e1), free(o2), free(e2);
    /* no tag: Q4_K_M */
    s1 = run(&o1, &e1, "tensors", "hf://o/q", NULL, NULL, NULL);
    s2 = run(&o2, &e2, "tensors", "hf://o/q/m-Q4_K_M.gguf", NULL, NULL, NULL);
    CHECKF(s1 == 0 && s2 == 0 && o1 && o2 && !strcmp(o1, o2), "tensors hf://o/q: %d %s", s1, e1);
    free(o1), free(e1), free(o2), free(e2);
    /* errors, word for word */
    s1 = run(&o1, &e1, "info", "hf://o/q:Q4", NULL, NULL, NULL);
    CHECK(s1 == 1);
    CHECK_STR(e1, "gguf info: hf://o/q: 'Q4' matches 4 files that are not one shard set: big/m-IQ4_XS-00001-of-00002.gguf, "
                  "big/m-IQ4_XS-00002-of-00002.gguf, m-Q4_0.gguf, m-Q4_K_M.gguf\n");
    free(o1), free(e1);
    s1 = run(&o1, &e1, "info", "hf://o/q:IQ2_XXS", NULL, NULL, NULL);
    CHECK(s1 == 1);
    CHECK_STR(e1, "gguf info: hf://o/q: no GGUF file matches 'IQ2_XXS' (the repository has IQ4_XS, Q4_0, Q4_K_M, Q8_0)\n");
    free(o1), free(e1);
    s1 = run(&o1, &e1, "info", "hf://o/n", NULL, NULL, NULL);
    CHECK(s1 == 1);
    CHECK_STR(e1, "gguf info: hf://o/n: no Q4_K_M file: name a quantization with :QUANT (the repository has BF16, F16)\n");
    free(o1), free(e1);
    s1 = run(&o1, &e1, "info", "hf://o/missing:Q8_0", NULL, NULL, NULL);
    CHECKF(s1 == 1 && e1 && strstr(e1, "/hf/api/models/o/missing/tree/main?recursive=true: HTTP 404"), "no repo: %s", e1);
    free(o1), free(e1);
    /* download takes the tag too (and the sha256 check) */
    char out[2048];
    snprintf(out, sizeof out, "%s/tagged.gguf", scratch_dir());
    s1 = run(&o1, &e1, "download", "-q", "hf://o/n:bf16", "-o", out);
    size_t na = 0;
    unsigned char *a = read_file(out, &na);
    CHECKF(s1 == 0 && a && na == zn && !memcmp(a, srcb, na), "download hf://o/n:bf16: %d %s", s1, e1);
    free(a), free(o1), free(e1);
    unlink(out);
    /* gguf ls: every file with its size, then the GGUF files by set */
    char want[4096];
    long long z = (long long)zn;
    snprintf(want, sizeof want,
             "%14d  README.md\n%14lld  big/m-IQ4_XS-00001-of-00002.gguf\n%14lld  big/m-IQ4_XS-00002-of-00002.gguf\n"
             "%14lld  m-Q4_0.gguf\n%14lld  m-Q4_K_M.gguf\n%14lld  m-Q8_0.gguf\n\n"
             "GGUF files (quantization, files, size, first file):\n"
             "  IQ4_XS     2 %14lld  big/m-IQ4_XS-00001-of-00002.gguf\n  Q4_0       1 %14lld  m-Q4_0.gguf\n"
             "  Q4_K_M     1 %14lld  m-Q4_K_M.gguf\n  Q8_0       1 %14lld  m-Q8_0.gguf\n",
             5, z, z, z, z, z, 2 * z, z, z, z);
    s1 = run(&o1, &e1, "ls", "hf://o/q", NULL, NULL, NULL);
    CHECKF(s1 == 0, "ls: %s", e1);
    CHECK_STR(o1, want);
    free(o1), free(e1);
    s1 = run(&o1, &e1, "ls", "--json", "hf://o/n", NULL, NULL);
    snprintf(want, sizeof want,
             "{\"files\": [{\"path\": \"README.md\", \"size\": 5, \"sha256\": \"\"}, {\"path\": \"config.json\", \"size\": %lld, "
             "\"sha256\": \"\"}, {\"path\": \"n.BF16.gguf\", \"size\": %lld, \"sha256\": \"%s\"}, {\"path\": "
             "\"n.F16.gguf\", \"size\": %lld, \"sha256\": \"%s\"}], \"gguf\": [{\"quantization\": \"BF16\", \"first\": "
             "\"n.BF16.gguf\", \"files\": 1, \"size\": %lld}, {\"quantization\": \"F16\", \"first\": \"n.F16.gguf\", "
             "\"files\": 1, \"size\": %lld}]}\n",
             z, z, sha, z, sha, z, z);
    CHECKF(s1 == 0, "ls --json: %s", e1);
    CHECK_STR(o1, want);
    free(o1), free(e1);
    lgg_hub_repo *r = NULL;
    lgg_error err;
    REQUIRE(lgg_hub_list("o/q", NULL, NULL, &r, &err) == LGG_OK);
    size_t i = 99;
    CHECK(lgg_hub_file_count(r) == 6);
    CHECK(lgg_hub_select(r, "iq4_xs", &i, &err) == LGG_OK && i == 1);
    CHECK_STR(lgg_hub_file_at(r, 1)->path, "big/m-IQ4_XS-00001-of-00002.gguf");
    CHECK_STR(lgg_hub_file_at(r, 0)->sha256, "");
    CHECK_STR(lgg_hub_file_at(r, 1)->sha256, sha);
    lgg_hub_free(r);
    /* a hostile listing: a path out of the repository, then no JSON at all */
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/plain", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    REQUIRE(publish_text("api/models/o/bad/tree/main", /* the server drops the query */
                         "[{\"type\":\"file\",\"size\":1,\"path\":\"a/../../x.gguf\"}]"));
    REQUIRE(publish_text("api/models/o/nojson/tree/main", "<html>"));
    s1 = run(&o1, &e1, "ls", "hf://o/bad", NULL, NULL, NULL);
    CHECKF(s1 == 1 && e1 && strstr(e1, "entry 0: a path that cannot be a file of the repository"), "bad path: %d %s", s1, e1);
    free(o1), free(e1);
    s1 = run(&o1, &e1, "info", "hf://o/nojson:Q8_0", NULL, NULL, NULL);
    CHECKF(s1 == 1 && e1 && strstr(e1, "the listing is not a JSON array"), "not JSON: %d %s", s1, e1);
    free(o1), free(e1);
    /* a repository's name is checked before any request, as a file's is */
    httpd_take_counts(srv);
    static const char *const bad[] = {"hf://o/..", "hf://o/r?x=1", "hf://o/r@a/../b", "hf://o/r:Q4@x#y"};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        s1 = run(&o1, &e1, "info", bad[b], NULL, NULL, NULL);
        CHECKF(s1 == 1 && e1 && strstr(e1, "an hf:// name may not"), "%s: %d %s", bad[b], s1, e1);
        free(o1), free(e1);
    }
    CHECK(httpd_take_counts(srv).requests == 0);
    free(srcb);
    unsetenv("HF_ENDPOINT");
}

/* Model preset `preset` of tests/estimate/gen_models.py (sparse: the
 * header, then a hole) written to root/NAME; 1 on success. */
static int hub_preset(const char *preset, const char *name) {
    char to[2048];
    served_path(name, to, sizeof to);
    char *argv[] = {"/usr/bin/env", "python3", "tests/estimate/gen_models.py", (char *)preset, to, NULL};
    char *o = NULL, *e = NULL;
    size_t ol, el;
    int status = -1, ok = run_capture(argv, &o, &ol, &e, &el, &status) == 0 && status == 0;
    if (!ok) test_fail(__FILE__, __LINE__, "gen_models.py %s: %s", preset, e ? e : "");
    free(o), free(e);
    return ok;
}

/* ls --fit-device with a budget per device: each device's total as 'gguf estimate' gives it for the
 * same file (the Q8_0 at `path`), and whether each fits its own budget. */
static void ls_fit_devices(const char *path) {
    char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL;
    int s1 = run_gguf_capture(&o1, &e1, "ls", "--json", "--fit-device", "100M,60M", "-ngl", "99", "--target", "master",
                              "hf://o/fit", (char *)NULL);
    int s2 = run_gguf_capture(&o2, &e2, "estimate", "--json", "-ngl", "99", "--target", "master", "-ts", "100,60", path,
                              (char *)NULL);
    json_t *j = o1 ? json_loads(o1, 0, NULL) : NULL, *est = o2 ? json_loads(o2, 0, NULL) : NULL;
    json_t *fit = json_object_get(j, "fit"), *row = json_array_get(json_object_get(fit, "rows"), 1);
    json_t *totals = json_object_get(row, "device_totals"), *devs = json_object_get(est, "devices");
    CHECKF(s2 == 0 && json_array_size(totals) == 2 && json_array_size(devs) == 3, "ls %d %s / estimate %d %s", s1,
           o1, s2, e2);
    int fits = 1;
    for (size_t d = 0; d < 2 && d < json_array_size(totals); d++) {
        json_int_t got = json_integer_value(json_array_get(totals, d));
        json_int_t want = json_integer_value(json_object_get(json_array_get(devs, d + 1), "total"));
        json_int_t budget = json_integer_value(json_array_get(json_object_get(fit, "device_budgets"), d));
        CHECKF(got == want && got > 0, "device %zu: ls %lld, estimate %lld", d, (long long)got, (long long)want);
        fits = fits && got <= budget;
    }
    CHECK(json_integer_value(json_array_get(json_object_get(fit, "device_budgets"), 1)) == 60 << 20);
    CHECKF(json_is_true(json_object_get(row, "fits")) == fits, "fits: %s", o1);
    json_decref(j), json_decref(est);
    free(o1), free(e1), free(o2), free(e2);
}

/* gguf ls --fit: a row per quantization from each file's header alone
 * (range requests: a small part of the repository's bytes), with the
 * figures `gguf estimate --fit` gives for the same file; a file the
 * estimator cannot size gets a row saying why, and exit status 1. */
TEST(remote_ls_fit) {
    REQUIRE(setup());
    REQUIRE(hub_preset("smollm2-135m", "o/fit/main/m-Q8_0.gguf") && hub_preset("gpt2-medium", "o/fit/main/m-Q4_K_M.gguf"));
    char ep[256], local[2][2100], *o1 = NULL, *e1 = NULL;
    snprintf(local[0], sizeof local[0], "%s/o/fit/main/m-Q4_K_M.gguf", root);
    snprintf(local[1], sizeof local[1], "%s/o/fit/main/m-Q8_0.gguf", root);
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    httpd_take_counts(srv), httpd_take_counts(other);
    int s1 = run_gguf_capture(&o1, &e1, "ls", "--json", "--fit", "600M", "-c", "8192", "hf://o/fit", (char *)NULL);
    httpd_counts hub_c = httpd_take_counts(srv), cdn_c = httpd_take_counts(other);
    CHECKF(s1 == 0, "ls --fit: %d %s", s1, e1);
    json_t *j = o1 ? json_loads(o1, 0, NULL) : NULL, *rows = json_object_get(json_object_get(j, "fit"), "rows");
    CHECKF(json_array_size(rows) == 2, "rows: %s", o1);
    CHECK(json_integer_value(json_object_get(json_object_get(j, "fit"), "host_budget")) == 600 << 20);
    static const char *const QUANT[] = {"Q4_K_M", "Q8_0"};
    int fits[2] = {0, 0};
    for (size_t k = 0; k < 2 && k < json_array_size(rows); k++) {
        json_t *r = json_array_get(rows, k);
        CHECK_STR(json_string_value(json_object_get(r, "quantization")), QUANT[k]);
        /* the same file on disk through gguf estimate */
        char *o2 = NULL, *e2 = NULL;
        int s2 = run_gguf_capture(&o2, &e2, "estimate", "--json", "--fit", "600M", "-c", "8192", local[k], (char *)NULL);
        json_t *est = o2 ? json_loads(o2, 0, NULL) : NULL, *fit = json_object_get(est, "fit");
        CHECKF(est != NULL, "estimate %s: %d %s", local[k], s2, e2);
        json_t *at = json_object_get(fit, "at_fit");
        CHECK(json_integer_value(json_object_get(r, "max_ctx")) == json_integer_value(json_object_get(fit, "ctx")));
        CHECK(json_integer_value(json_object_get(r, "weights")) == json_integer_value(json_object_get(est, "weights")));
        CHECK(json_integer_value(json_object_get(r, "total")) == json_integer_value(json_object_get(est, "total")));
        CHECK(json_equal(json_object_get(r, "kv_cache"), json_object_get(est, "kv_cache")));
        fits[k] = json_is_true(json_object_get(r, "fits"));
        CHECK(fits[k] == (json_integer_value(json_object_get(est, "total")) <= 600 << 20));
        CHECK(at != NULL);
        json_decref(est);
        free(o2), free(e2);
    }
    CHECKF(fits[1] && !fits[0], "the 144 MB Q8_0 (504 MB at 8192) fits 600 MiB, the gpt2 (1.3 GB) does not: %s", o1);
    json_decref(j);
    unsigned long long size = 0;
    for (int k = 0; k < 2; k++) {
        struct stat st;
        if (stat(local[k], &st) == 0) size += (unsigned long long)st.st_size;
    }
    printf("    %llu bytes fetched for two models of %llu bytes, %lu + %lu requests\n", hub_c.sent + cdn_c.sent, size,
           hub_c.requests, cdn_c.requests);
    CHECKF(hub_c.sent + cdn_c.sent < size / 20, "%llu bytes fetched of %llu", hub_c.sent + cdn_c.sent, size);
    free(o1), free(e1);
    /* the text table, and a file the estimator does not know: its row says why, exit status 1 */
    REQUIRE(publish("tests/data/t5-unigram-nmt-nfkc.gguf", "o/fit/main/t5-F16.gguf"));
    s1 = run_gguf_capture(&o1, &e1, "ls", "--fit", "600M", "-c", "8192", "hf://o/fit", (char *)NULL);
    CHECKF(s1 == 1 && o1 && strstr(o1, "\nFit (host 0.59 GiB; -c 8192, -ngl 0, target b4747; bytes; largest context up to "
                                       "the training context):\n  quant           weights       KV cache     host total "
                                       "max context  fits\n  Q4_K_M ") && strstr(o1, "  F16      architecture 't5' is not known"),
           "%d %s / %s", s1, o1, e1);
    free(o1), free(e1);
    s1 = run(&o1, &e1, "ls", "--fit", "0", "hf://o/fit", NULL);
    CHECKF(s1 == 2 && e1 && strstr(e1, "--fit must be a byte count above 0"), "%d %s", s1, e1);
    free(o1), free(e1);
    ls_fit_devices(local[1]);
    unsetenv("HF_ENDPOINT");
}

/* hf:// names: what may not be sent is refused before any request, and the
 * rest is percent-encoded as huggingface_hub's hf_hub_url does (the
 * expected URLs are Python's urllib.parse.quote(path) and
 * quote(revision, safe="")). */
TEST(remote_hf_name_check) {
    static const struct {
        const char *name, *url;
    } ok[] = {
        {"hf://o/r/sub dir/m+x@1~\xc3\xa9%.gguf@refs/pr/1",
         "https://huggingface.co/o/r/resolve/refs%2Fpr%2F1/sub%20dir/m%2Bx%401~%C3%A9%25.gguf"},
        {"hf://o/r/a/b.gguf", "https://huggingface.co/o/r/resolve/main/a/b.gguf"},
        {"hf://o/r/m.gguf@v 2;x", "https://huggingface.co/o/r/resolve/v%202%3Bx/m.gguf"},
    };
    char b[512];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t n = lgg_remote_resolve(ok[i].name, "https://huggingface.co/", b, sizeof b);
        CHECKF(n == strlen(ok[i].url) && !strcmp(b, ok[i].url), "%s: '%s', wanted '%s'", ok[i].name, b, ok[i].url);
        CHECK(lgg_remote_name_check(ok[i].name, NULL, 0));
    }
    /* a buffer too small: the length needed, the text cut and terminated */
    CHECK(lgg_remote_resolve(ok[1].name, "https://huggingface.co", b, 8) == strlen(ok[1].url) && strlen(b) == 7);
    static const struct {
        const char *name, *why;
    } bad[] = {
        {"hf://o/r/../../../../api/whoami", "'.' or '..'"},
        {"hf://o/r/./m.gguf", "'.' or '..'"},
        {"hf://../r/m.gguf", "'.' or '..'"},
        {"hf://o/../m.gguf", "'.' or '..'"},
        {"hf://o/r/m.gguf@..", "'.' or '..'"},
        {"hf://o/r/m.gguf@refs/../x", "'.' or '..'"},
        {"hf://o/r/m.gguf@main?a=b", "'?' or '#'"},
        {"hf://o/r/m.gguf@main#", "'?' or '#'"},
        {"hf://o?/r/m.gguf", "'?' or '#'"},
        {"hf://o/r#/m.gguf", "'?' or '#'"},
        {"hf://o/r/a?b.gguf", "'?' or '#'"},
        {"hf://o//m.gguf", "empty"},
        {"hf:///r/m.gguf", "empty"},
        {"hf://o/r/a//b.gguf", "empty"},
        {"hf://o/r/a/", "empty"},
        {"hf://o/r/m.gguf@", "empty"},
        {"hf://o/r/m.gguf@refs//x", "empty"},
        {"hf://o/r/a\\b.gguf", "backslash"},
        {"hf://o/r/m.gguf@a\\b", "backslash"},
        {"hf://o/r/a\nb.gguf", "control"},
        {"hf://o/r/m.gguf@ma\x7fin", "control"},
        {"hf://o\t/r/m.gguf", "control"},
        {"hf://o/r", "not hf://"},
        {"ftp://x/y", "not a URL"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[128] = "";
        CHECKF(!lgg_remote_name_check(bad[i].name, why, sizeof why) && strstr(why, bad[i].why),
               "%s: accepted or '%s' (wanted '%s')", bad[i].name, why, bad[i].why);
        CHECKF(lgg_remote_resolve(bad[i].name, NULL, b, sizeof b) == 0, "%s resolved", bad[i].name);
    }
}

/* One checker: the core's lgg_hf_name_check (which the GGUF Editor calls in
 * WebAssembly) and what the CLI does with the same names agree, name for
 * name: libgguf-remote's lgg_remote_name_check and lgg_remote_resolve give
 * the same verdict, reason and URL, and `gguf download` refuses (exit 2,
 * the reason) exactly the names the checker refuses, with no request to
 * the server; the names it accepts reach the server. */
TEST(remote_hf_name_one_checker) {
    REQUIRE(setup());
    static const struct {
        const char *name, *why; /* why NULL: accepted */
    } names[] = {
        {"hf://o/r/m.gguf", NULL},
        {"hf://o/r/sub dir/m+x@1~\xc3\xa9%.gguf@refs/pr/1", NULL},
        {"hf://o/r/m.gguf@v 2;x", NULL},
        {"hf://o/r/100%.gguf", NULL},
        {"hf://o/r/a%2.gguf", NULL},
        {"hf://o/r/a%41b.gguf", NULL},
        {"hf://o/r/../../../x.gguf", "'.' or '..'"},
        {"hf://o/r/../../../../api/whoami", "'.' or '..'"},
        {"hf://o/r/./m.gguf", "'.' or '..'"},
        {"hf://../r/m.gguf", "'.' or '..'"},
        {"hf://o/r/m.gguf@refs/../x", "'.' or '..'"},
        {"hf://o/r/x.gguf?a=b", "'?' or '#'"},
        {"hf://o/r/x.gguf#frag", "'?' or '#'"},
        {"hf://o/r/m.gguf@main?a=b", "'?' or '#'"},
        {"hf://o//m.gguf", "empty"},
        {"hf://o/r/a//b.gguf", "empty"},
        {"hf://o/r/m.gguf@", "empty"},
        {"hf://o/r/a\\b.gguf", "backslash"},
        {"hf://o/r/a\nb.gguf", "control"},
        {"hf://o/r/a\x7f.gguf", "control"},
        {"hf://o/r/%2e%2e/%2e%2e/x.gguf", "percent-encoded"},
        {"hf://o/r/%2E%2E/x.gguf", "percent-encoded"},
        {"hf://o/r/a%2fb.gguf", "percent-encoded"},
        {"hf://o/r/a%5Cb.gguf", "percent-encoded"},
        {"hf://o%2e/r/m.gguf", "percent-encoded"},
        {"hf://o/r/m.gguf@refs%2Fpr%2F1", "percent-encoded"},
        {"hf://o/r/.%2e/x.gguf", "percent-encoded"},
    };
    char ep[256], out[1024];
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/plain", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    snprintf(out, sizeof out, "%s/one-checker.gguf", scratch_dir());
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *n = names[i].name;
        char why[256] = "", why_rm[256] = "", u1[1024] = "", u2[1024] = "";
        bool ok = lgg_hf_name_check(n, why, sizeof why);
        CHECKF(ok == !names[i].why && (ok || strstr(why, names[i].why)), "%s: the checker says %s '%s'", n,
               ok ? "yes" : "no", why);
        CHECKF(lgg_remote_name_check(n, why_rm, sizeof why_rm) == ok && !strcmp(why, why_rm),
               "%s: lgg_remote_name_check says '%s', the checker '%s'", n, why_rm, why);
        size_t l1 = lgg_hf_resolve(n, ep, u1, sizeof u1), l2 = lgg_remote_resolve(n, NULL, u2, sizeof u2);
        CHECKF(l1 == l2 && !strcmp(u1, u2) && (l1 > 0) == ok, "%s: '%s' and lgg_remote_resolve's '%s'", n, u1, u2);
        httpd_take_counts(srv);
        char *err = NULL;
        int st = run_gguf_capture(NULL, &err, "download", "-o", out, n, NULL);
        httpd_counts c = httpd_take_counts(srv);
        if (ok)
            CHECKF(st != 2 && c.requests > 0, "%s: the CLI refused it (exit %d, %lu requests): %s", n, st, c.requests,
                   err ? err : "");
        else
            CHECKF(st == 2 && err && strstr(err, why) && c.requests == 0,
                   "%s: the CLI's verdict differs (exit %d, %lu requests): %s", n, st, c.requests, err ? err : "");
        free(err);
        unlink(out);
    }
    /* the repository form (hf://OWNER/REPO:QUANT's listing): the same rules */
    char u[512], why[256] = "";
    CHECK(lgg_hf_tree_url("o/r", "refs/pr/1", "https://huggingface.co/", u, sizeof u, why, sizeof why) > 0 &&
          !strcmp(u, "https://huggingface.co/api/models/o/r/tree/refs%2Fpr%2F1?recursive=true"));
    CHECK(lgg_hf_tree_url("o/..", NULL, NULL, u, sizeof u, why, sizeof why) == 0 && strstr(why, "'.' or '..'"));
    CHECK(lgg_hf_tree_url("o/r", "ma%2e", NULL, u, sizeof u, why, sizeof why) == 0 && strstr(why, "percent-encoded"));
    CHECK(lgg_hf_tree_url("o", NULL, NULL, u, sizeof u, why, sizeof why) == 0 && strstr(why, "not OWNER/REPO"));
    unsetenv("HF_ENDPOINT");
}

/* The server started, a model published as d.gguf: its bytes and sha256
 * (NULL when that fails). */
static unsigned char *publish_d(size_t *n, char sha[65]) {
    const char *src = model_path("golden/llama-quantize/pub-dense-Q8_0.gguf");
    if (!setup() || !publish(src, "d.gguf")) return NULL;
    unsigned char *b = read_file(src, n);
    if (b) sha256_hex(b, *n, sha);
    return b;
}

/* OUT holds exactly want[0..n). */
static bool holds(const char *out, const unsigned char *want, size_t n) {
    size_t got_n = 0;
    unsigned char *got = read_file(out, &got_n);
    bool same = got && got_n == n && !memcmp(got, want, n);
    free(got);
    return same;
}

static bool exists(const char *p) {
    struct stat st;
    return lstat(p, &st) == 0;
}

static char *with_ext(const char *p, const char *ext) {
    static char b[4][2200];
    static int k;
    char *o = b[k++ % 4];
    snprintf(o, sizeof b[0], "%s%s", p, ext);
    return o;
}

TEST(remote_download) {
    if (!need_models()) return;
    size_t n = 0;
    char sha[65];
    unsigned char *want = publish_d(&n, sha);
    REQUIRE(want != NULL);
    const char *out = scratch_path("dl.gguf");
    /* the hub's way: sha256 and size on the redirect, cut responses from the
     * CDN: resumed, whole, and the sha256 said to be verified */
    httpd_set_linked(srv, sha, -1);
    char *o = NULL, *e = NULL;
    int st = run(&o, &e, "download", url("hub", "cut/d.gguf"), "-o", out, NULL);
    char line[200];
    snprintf(line, sizeof line, "gguf download: %s: sha256 %s verified (the server named it)\n", out, sha);
    CHECKF(st == 0 && e && !strcmp(e, line), "download: status %d: '%s'", st, e);
    CHECK(holds(out, want, n));
    CHECK(!exists(with_ext(out, ".part")) && !exists(with_ext(out, ".part.etag")));
    free(o), free(e);
    /* a sha256 that does not match: OUT untouched, no temporary left */
    httpd_set_linked(srv, "0000000000000000000000000000000000000000000000000000000000000000", -1);
    const char *out2 = scratch_path("dl2.gguf");
    st = run(&o, &e, "download", url("hub", "plain/d.gguf"), "-o", out2, NULL);
    CHECKF(st == 1 && e && strstr(e, "sha256 mismatch: the server says 0000"), "download with a wrong sha256: %d: %s", st,
           e);
    CHECK(!exists(out2) && !exists(with_ext(out2, ".part")) && !exists(with_ext(out2, ".part.etag")));
    free(o), free(e);
    /* a size that does not match: refused before any byte is written */
    httpd_set_linked(srv, sha, (long long)n - 1);
    st = run(&o, &e, "download", url("hub", "plain/d.gguf"), "-o", out2, NULL);
    CHECKF(st == 1 && e && strstr(e, "X-Linked-Size"), "download with a wrong size: %d: %s", st, e);
    CHECK(!exists(out2) && !exists(with_ext(out2, ".part")));
    free(o), free(e);
    st = run(&o, &e, "info", url("hub", "plain/d.gguf"), NULL, NULL, NULL);
    CHECKF(st == 1 && e && strstr(e, "X-Linked-Size"), "info with a wrong size: %d: %s", st, e);
    free(o), free(e);
    httpd_set_linked(srv, "", -1);
    /* no sha256 named: said so */
    st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out2, NULL);
    snprintf(line, sizeof line, "gguf download: %s: sha256 %s not verified: the server named none\n", out2, sha);
    CHECKF(st == 0 && e && !strcmp(e, line), "download without a sha256: %d: '%s'", st, e);
    CHECK(holds(out2, want, n));
    free(o), free(e);
    /* an interrupted download resumes from its partial file */
    const char *out3 = scratch_path("dl3.gguf");
    FILE *pf = fopen(with_ext(out3, ".part"), "wb");
    REQUIRE(pf && fwrite(want, 1, n / 3, pf) == n / 3 && fclose(pf) == 0);
    pf = fopen(with_ext(out3, ".part.etag"), "wb");
    REQUIRE(pf);
    fprintf(pf, "\"etag-%zu\"", n);
    fclose(pf);
    httpd_take_counts(srv);
    st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out3, NULL);
    httpd_counts c = httpd_take_counts(srv);
    CHECKF(st == 0, "resumed download: status %d: %s", st, e);
    CHECK(holds(out3, want, n));
    CHECKF(c.sent <= n - n / 3 + (256u << 10), "resumed: %llu bytes sent for %zu missing", c.sent, n - n / 3);
    free(o), free(e);
    /* a failing server: OUT untouched */
    const char *out4 = scratch_path("dl4.gguf");
    st = run(&o, &e, "download", url("plain", "none.gguf"), "-o", out4, NULL);
    CHECKF(st == 1 && e && strstr(e, "HTTP 404"), "status %d: %s", st, e);
    CHECK(!exists(out4));
    free(o), free(e);
    /* a transfer that cannot finish: the partial file kept, and resuming
     * offered, only when the server named the file's version (ETag) */
    st = run(&o, &e, "download", url("trunc", "d.gguf"), "-o", out4, NULL);
    CHECKF(st == 1 && e && strstr(e, "run the same command to resume"), "trunc: %d: %s", st, e);
    CHECK(exists(with_ext(out4, ".part")) && !exists(out4));
    free(o), free(e);
    unlink(with_ext(out4, ".part")), unlink(with_ext(out4, ".part.etag"));
    st = run(&o, &e, "download", url("trunc+noetag", "d.gguf"), "-o", out4, NULL);
    CHECKF(st == 1 && e && !strstr(e, "resume"), "trunc without an ETag: %d: %s", st, e);
    CHECK(!exists(with_ext(out4, ".part")) && !exists(with_ext(out4, ".part.etag")) && !exists(out4));
    free(o), free(e);
    free(want);
}

/* What lies at OUT.part and OUT.part.etag is not followed or trusted. */
TEST(remote_download_planted) {
    if (!need_models()) return;
    size_t n = 0;
    char sha[65];
    unsigned char *want = publish_d(&n, sha);
    REQUIRE(want != NULL);
    const char *victim = scratch_path("victim.txt");
    FILE *vf = fopen(victim, "wb");
    REQUIRE(vf && fputs("precious", vf) >= 0 && fclose(vf) == 0);
    char *o = NULL, *e = NULL;
    /* a symlink at OUT.part: refused, its target untouched */
    const char *out = scratch_path("pl1.gguf");
    REQUIRE(symlink(victim, with_ext(out, ".part")) == 0);
    int st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out, NULL);
    CHECKF(st == 1 && e && strstr(e, "is a symbolic link: refused"), "symlink at .part: %d: %s", st, e);
    CHECK(holds(victim, (const unsigned char *)"precious", 8) && !exists(out));
    free(o), free(e);
    /* a symlink at OUT.part.etag: neither read nor written through */
    const char *out2 = scratch_path("pl2.gguf");
    REQUIRE(symlink(victim, with_ext(out2, ".part.etag")) == 0);
    st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out2, NULL);
    CHECKF(st == 0, "symlink at .etag: %d: %s", st, e);
    CHECK(holds(victim, (const unsigned char *)"precious", 8) && holds(out2, want, n));
    free(o), free(e);
    /* a FIFO or a directory at OUT.part: refused */
    const char *out3 = scratch_path("pl3.gguf");
    REQUIRE(mkfifo(with_ext(out3, ".part"), 0600) == 0);
    st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out3, NULL);
    CHECKF(st == 1 && e && strstr(e, "not a regular file of this user"), "fifo at .part: %d: %s", st, e);
    free(o), free(e);
    const char *out4 = scratch_path("pl4.gguf");
    REQUIRE(mkdir(with_ext(out4, ".part"), 0700) == 0);
    st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out4, NULL);
    CHECKF(st == 1 && e && strstr(e, "pl4.gguf.part") && !exists(out4), "directory at .part: %d: %s", st, e);
    free(o), free(e);
    /* a hard link at OUT.part (a second name for another file): refused */
    const char *out5 = scratch_path("pl5.gguf");
    REQUIRE(link(victim, with_ext(out5, ".part")) == 0);
    st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out5, NULL);
    CHECKF(st == 1 && e && strstr(e, "single link"), "hard link at .part: %d: %s", st, e);
    CHECK(holds(victim, (const unsigned char *)"precious", 8));
    free(o), free(e);
    /* a planted prefix (GGUF, wrong bytes) with a matching ETag file that is
     * not ours: the ETag is not trusted, the download starts over */
    const char *out6 = scratch_path("pl6.gguf");
    unsigned char *bad = malloc(n / 2);
    REQUIRE(bad);
    memcpy(bad, want, n / 2);
    memset(bad + 64, 0x5a, n / 2 - 64);
    FILE *pf = fopen(with_ext(out6, ".part"), "wb");
    REQUIRE(pf && fwrite(bad, 1, n / 2, pf) == n / 2 && fclose(pf) == 0);
    free(bad);
    pf = fopen(with_ext(out6, ".part.etag"), "wb");
    REQUIRE(pf);
    fprintf(pf, "\"etag-%zu\"", n);
    fclose(pf);
    if (geteuid() == 0) {
        REQUIRE(chown(with_ext(out6, ".part.etag"), 65534, 65534) == 0);
    } else { /* not ours cannot be made without root: a FIFO is not trusted either */
        unlink(with_ext(out6, ".part.etag"));
        REQUIRE(mkfifo(with_ext(out6, ".part.etag"), 0600) == 0);
    }
    st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out6, NULL);
    CHECKF(st == 0, "planted prefix: %d: %s", st, e);
    CHECK(holds(out6, want, n));
    free(o), free(e);
    /* both owned by someone else: refused */
    if (geteuid() == 0) {
        const char *out7 = scratch_path("pl7.gguf");
        pf = fopen(with_ext(out7, ".part"), "wb");
        REQUIRE(pf && fwrite(want, 1, n / 2, pf) == n / 2 && fclose(pf) == 0);
        REQUIRE(chown(with_ext(out7, ".part"), 65534, 65534) == 0);
        st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out7, NULL);
        CHECKF(st == 1 && e && strstr(e, "not a regular file of this user"), "another user's .part: %d: %s", st, e);
        CHECK(!exists(out7));
        free(o), free(e);
    }
    free(want);
}

typedef struct dl_run {
    const char *u, *out;
    int st;
    char *err;
} dl_run;

static void *dl_thread(void *p) {
    dl_run *d = p;
    d->st = run(NULL, &d->err, "download", d->u, "-o", d->out, NULL);
    return NULL;
}

/* Two downloads to one OUT: the second refuses while the first runs; the
 * file is whole. */
TEST(remote_download_concurrent) {
    if (!need_models()) return;
    size_t n = 0;
    char sha[65];
    unsigned char *want = publish_d(&n, sha);
    REQUIRE(want != NULL);
    /* the lock held by another process (here: this one) */
    const char *out = scratch_path("cc1.gguf");
    int fd = open(with_ext(out, ".part"), O_RDWR | O_CREAT, 0644);
    REQUIRE(fd >= 0 && flock(fd, LOCK_EX) == 0 && write(fd, "GGUF", 4) == 4);
    char *o = NULL, *e = NULL;
    int st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", out, NULL);
    CHECKF(st == 1 && e && strstr(e, "another download to the same file is running"), "locked: %d: %s", st, e);
    struct stat sb;
    CHECK(fstat(fd, &sb) == 0 && sb.st_size == 4 && !exists(out));
    close(fd);
    free(o), free(e);
    /* two at once, each 3 s long (the server trickles) */
    const char *out2 = scratch_path("cc2.gguf");
    dl_run a = {url("slow", "d.gguf"), out2, -1, NULL}, b = a;
    pthread_t ta, tb;
    REQUIRE(pthread_create(&ta, NULL, dl_thread, &a) == 0);
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
    REQUIRE(pthread_create(&tb, NULL, dl_thread, &b) == 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECKF(a.st == 0, "first download: %d: %s", a.st, a.err);
    CHECKF(b.st == 1 && b.err && strstr(b.err, "another download to the same file is running"),
           "second download: %d: %s", b.st, b.err);
    CHECK(holds(out2, want, n) && !exists(with_ext(out2, ".part")));
    free(a.err), free(b.err);
    free(want);
}

/* A body that is not GGUF is refused at its first bytes. */
TEST(remote_download_not_gguf) {
    if (!need_models()) return;
    size_t n = 0;
    char sha[65];
    unsigned char *want = publish_d(&n, sha);
    REQUIRE(want != NULL);
    free(want);
    char *o = NULL, *e = NULL;
    /* an endless HTML page announced as 10^18 bytes: the first read's bytes decide */
    const char *out = scratch_path("ng1.gguf");
    httpd_take_counts(srv);
    int st = run(&o, &e, "download", url("html", "d.gguf"), "-o", out, NULL);
    httpd_counts c = httpd_take_counts(srv);
    CHECKF(st == 1 && e && strstr(e, "not a GGUF file: it starts with 3c 68 74 6d"), "html: %d: %s", st, e);
    CHECKF(c.requests == 1, "%lu requests", c.requests);
    CHECK(!exists(out) && !exists(with_ext(out, ".part")));
    free(o), free(e);
    /* GGUF at first, then a page: stopped on the download's first bytes */
    st = run(&o, &e, "download", url("bait", "d.gguf"), "-o", out, NULL);
    c = httpd_take_counts(srv);
    CHECKF(st == 1 && e && strstr(e, "not a GGUF file: it starts with 3c 68 74 6d"), "bait: %d: %s", st, e);
    CHECKF(c.requests == 2, "%lu requests", c.requests);
    CHECK(!exists(out) && !exists(with_ext(out, ".part")) && !exists(with_ext(out, ".part.etag")));
    free(o), free(e);
}

/* -o DIR, -o DIR/ and -o . name the file inside as the URL names it. */
TEST(remote_download_into_dir) {
    if (!need_models()) return;
    size_t n = 0;
    char sha[65];
    unsigned char *want = publish_d(&n, sha);
    REQUIRE(want != NULL);
    char dir[2048], slash[2100], file[2100];
    snprintf(dir, sizeof dir, "%s/into", scratch_dir());
    REQUIRE(mkdir(dir, 0755) == 0);
    snprintf(slash, sizeof slash, "%s/", dir);
    snprintf(file, sizeof file, "%s/d.gguf", dir);
    char *o = NULL, *e = NULL;
    const char *outs[2] = {dir, slash};
    for (int i = 0; i < 2; i++) {
        int st = run(&o, &e, "download", url("plain", "d.gguf"), "-o", outs[i], NULL);
        CHECKF(st == 0 && holds(file, want, n), "-o %s: %d: %s", outs[i], st, e);
        free(o), free(e);
        unlink(file);
    }
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "cd '%s' && exec '%s/gguf' download -o . '%s'", dir, build_dir(), url("plain", "d.gguf"));
    if (build_dir()[0] != '/') snprintf(cmd, sizeof cmd, "cd '%s' && exec '%s/%s/gguf' download -o . '%s'", dir,
                                        getcwd(file, sizeof file), build_dir(), url("plain", "d.gguf"));
    snprintf(file, sizeof file, "%s/d.gguf", dir);
    char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    int status = -1;
    size_t ol, el;
    REQUIRE(run_capture(argv, &o, &ol, &e, &el, &status) == 0);
    CHECKF(status == 0 && holds(file, want, n), "-o .: %d: %s", status, e);
    free(o), free(e);
    free(want);
}

/* --timeout bounds a stall, never a transfer that progresses. */
TEST(remote_timeout) {
    if (!need_models()) return;
    size_t n = 0;
    char sha[65];
    unsigned char *want = publish_d(&n, sha);
    REQUIRE(want != NULL);
    char *o = NULL, *e = NULL;
    /* 3 s of trickle, a byte every 75 ms: longer than the timeout, fine */
    const char *out = scratch_path("to1.gguf");
    int st = run_gguf_capture(&o, &e, "download", "--timeout", "1", url("slow", "d.gguf"), "-o", out, (char *)NULL);
    CHECKF(st == 0 && holds(out, want, n), "slow: %d: %s", st, e);
    free(o), free(e);
    /* half a body, then nothing: given up after 1 s and retried */
    const char *out2 = scratch_path("to2.gguf");
    httpd_take_counts(srv);
    st = run_gguf_capture(&o, &e, "download", "--timeout", "1", url("stall", "d.gguf"), "-o", out2, (char *)NULL);
    httpd_counts c = httpd_take_counts(srv);
    CHECKF(st == 0 && holds(out2, want, n), "stall: %d: %s", st, e);
    CHECKF(c.requests >= 3, "stall: %lu requests (a retry expected)", c.requests);
    free(o), free(e);
    free(want);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* A first shard that claims 65,535 shards: refused before any other is
 * asked for, with the count; a moderate set read with a bounded number of
 * connections (the server keeps each one alive, as real servers do). */
TEST(remote_many_shards) {
    if (!need_models()) return;
    REQUIRE(setup());
    buf b = {0};
    gen_header(&b, 3, 0, 4);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "llama");
    gen_key(&b, 3, "split.no", LGG_VT_U16);
    buf_u16(&b, 0);
    gen_key(&b, 3, "split.tensors.count", LGG_VT_I32);
    buf_u32(&b, 0);
    gen_key(&b, 3, "split.count", LGG_VT_U16);
    buf_u16(&b, 65535);
    char path[2048];
    snprintf(path, sizeof path, "%s/big-00001-of-65535.gguf", root);
    FILE *f = fopen(path, "wb");
    REQUIRE(f && fwrite(b.p, 1, b.n, f) == b.n && fclose(f) == 0);
    buf_free(&b);
    const char *u = url("keep", "big-00001-of-65535.gguf");
    char want[2400];
    snprintf(want, sizeof want,
             "%s: a set of 65535 shards on a server: refused, more than 4096 (set GGUF_MAX_SHARDS, up to 65535, "
             "to allow more)\n", u);
    httpd_take_counts(srv);
    char *o = NULL, *e = NULL;
    int st = run(&o, &e, "info", u, NULL, NULL, NULL);
    httpd_counts c = httpd_take_counts(srv);
    CHECKF(st == 0 && e && strstr(e, want) && strstr(e, "gguf info: "), "info: %d: %s", st, e);
    CHECKF(c.requests == 1, "%lu requests for a refused set", c.requests);
    free(o), free(e);
    st = run(&o, &e, "hash", "--shards", u, NULL, NULL);
    CHECKF(st == 1 && e && strstr(e, want), "hash --shards: %d: %s", st, e);
    free(o), free(e);
    st = run(&o, &e, "download", u, "-o", scratch_path("big-00001-of-65535.gguf"), NULL);
    CHECKF(st == 1 && e && strstr(e, "a set of 65535 shards on a server: refused"), "download: %d: %s", st, e);
    free(o), free(e);
    /* a set of one shard per tensor */
    char dir[2048], prefix[2100], first[2200];
    snprintf(dir, sizeof dir, "%s/many", root);
    mkdir(dir, 0755);
    snprintf(prefix, sizeof prefix, "%s/m", dir);
    st = run(&o, &e, "split", "--max-tensors=1", model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"), prefix, NULL);
    REQUIRE(st == 0);
    free(o), free(e);
    unsigned n = 0;
    for (;; n++) {
        snprintf(first, sizeof first, "%s-00001-of-%05u.gguf", prefix, n);
        if (access(first, F_OK) == 0 || n > 99999) break;
    }
    REQUIRE(n > 20 && n <= 99999);
    char name[64];
    snprintf(name, sizeof name, "many/m-00001-of-%05u.gguf", n);
    u = url("keep", name);
    same_output(first, u, "info", "--json", NULL);
    c = httpd_take_counts(srv);
    /* the tool keeps 2 (one per shard before); the server sees a close a
     * moment after it happens, later on a loaded machine */
    CHECKF(c.requests >= n && c.peak_conns <= 10, "%u shards: %lu requests, %u connections open at once", n,
           c.requests, c.peak_conns);
    if (getenv("TEST_VERBOSE"))
        fprintf(stderr, "    %u shards: %lu requests, at most %u connections at once\n", n, c.requests, c.peak_conns);
    same_output(first, u, "hash", "--shards", NULL);
    c = httpd_take_counts(srv);
    CHECKF(c.peak_conns <= 10, "hash --shards: %u connections open at once", c.peak_conns);
    /* the limit is the user's to set */
    setenv("GGUF_MAX_SHARDS", "8", 1);
    st = run(&o, &e, "hash", "--shards", u, NULL, NULL);
    snprintf(want, sizeof want, "a set of %u shards on a server: refused, more than 8", n);
    CHECKF(st == 1 && e && strstr(e, want), "GGUF_MAX_SHARDS=8: %d: %s", st, e);
    free(o), free(e);
    unsetenv("GGUF_MAX_SHARDS");
}

/* A shard set from its first shard's URL: the set's totals, as on disk. */
TEST(remote_shard_set) {
    if (!need_models()) return;
    REQUIRE(setup());
    char name[128], from[256];
    for (int k = 1; k <= 3; k++) {
        snprintf(name, sizeof name, "pub-dense-Q8_0-split-%05d-of-00003.gguf", k);
        snprintf(from, sizeof from, "golden/llama-quantize/%s", name);
        REQUIRE(publish(model_path(from), name));
    }
    char local[2048];
    snprintf(local, sizeof local, "%s/pub-dense-Q8_0-split-00001-of-00003.gguf", root);
    const char *u = url("plain", "pub-dense-Q8_0-split-00001-of-00003.gguf");
    same_output(local, u, "info", "--json", NULL);
    same_output(local, u, "info", NULL, NULL);
    same_output(local, u, "name", NULL, NULL);
    char *o = NULL;
    CHECK(run(&o, NULL, "info", "--json", u, NULL, NULL) == 0 && o && strstr(o, "\"set_totals\": true"));
    free(o);
}

/* The hub's listing in pages (Link: <...>; rel="next"): followed to the
 * end, the same listing as in one page. */
TEST(remote_hf_listing_pages) {
    if (!need_models()) return;
    REQUIRE(setup());
    const char *src = tiny_model();
    static const char *const files[] = {"a-Q4_K_M.gguf", "b-Q8_0.gguf", "c/config.json", "d.txt", NULL};
    REQUIRE(hub_repo("o/pages", src, files));
    char ep[256], *o1 = NULL, *o2 = NULL, *e = NULL;
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    int s1 = run(&o1, &e, "ls", "--json", "hf://o/pages", NULL, NULL);
    free(e), e = NULL;
    httpd_set_page(srv, 2);
    httpd_take_counts(srv);
    int s2 = run(&o2, &e, "ls", "--json", "hf://o/pages", NULL, NULL);
    httpd_counts c = httpd_take_counts(srv);
    httpd_set_page(srv, 0);
    /* 6 entries (the folder c too) in pages of 2 */
    CHECKF(s1 == 0 && s2 == 0 && o1 && o2 && !strcmp(o1, o2) && strstr(o1, "c/config.json") && strstr(o1, "d.txt"),
           "%d %d: %s / %s (%s)", s1, s2, o1, o2, e);
    CHECKF(c.requests == 3, "%lu requests for 3 pages", c.requests);
    free(o1), free(o2), free(e);
    unsetenv("HF_ENDPOINT");
}

/* A listing that never ends ("[" and spaces) is read up to its 64 MiB cap,
 * not whole: before, the client took all the server's 256 MiB (and would
 * take any amount) before the cap was checked. */
TEST(remote_hf_listing_endless_stops_at_the_cap) {
    REQUIRE(setup());
    char ep[256], *o = NULL, *e = NULL;
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/endless", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    httpd_take_counts(srv);
    int st = run(&o, &e, "ls", "hf://o/endless", NULL, NULL, NULL);
    httpd_counts c = httpd_take_counts(srv);
    CHECKF(st == 1 && e && strstr(e, "/endless/api/models/o/endless/tree/main?recursive=true: a listing of more than 64 MiB"),
           "exit %d: %s", st, e ? e : "");
    /* the cap and what the sockets held when the client closed */
    CHECKF(c.sent < (80ull << 20), "the server sent %llu MiB", c.sent >> 20);
    free(o), free(e);
    unsetenv("HF_ENDPOINT");
}

/* gguf ls groups shard sets by name and count, each set where its first
 * file is, whatever the order of the listing */
TEST(remote_ls_groups_sets_exactly) {
    REQUIRE(setup());
    char ep[256], *o = NULL, *e = NULL;
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/plain", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    REQUIRE(publish_text("api/models/o/sets/tree/main",
                         "[{\"type\":\"file\",\"size\":5,\"path\":\"README.md\"},"
                         "{\"type\":\"file\",\"size\":20,\"path\":\"b-00002-of-00002.gguf\"},"
                         "{\"type\":\"file\",\"size\":100,\"path\":\"a-Q4_0-00001-of-00003.gguf\"},"
                         "{\"type\":\"file\",\"size\":100,\"path\":\"a-Q4_0-00002-of-00003.gguf\"},"
                         "{\"type\":\"file\",\"size\":10,\"path\":\"b-00001-of-00002.gguf\"},"
                         "{\"type\":\"file\",\"size\":7,\"path\":\"a-Q4_0-00001-of-00002.gguf\"},"
                         "{\"type\":\"file\",\"size\":3,\"path\":\"x.F16.gguf\"},"
                         "{\"type\":\"file\",\"size\":50,\"path\":\"a-Q4_0-00003-of-00003.gguf\"}]"));
    int st = run(&o, &e, "ls", "hf://o/sets", NULL, NULL, NULL);
    CHECKF(st == 0, "exit %d: %s", st, e ? e : "");
    CHECK_STR(o, "             5  README.md\n"
                 "            20  b-00002-of-00002.gguf\n"
                 "           100  a-Q4_0-00001-of-00003.gguf\n"
                 "           100  a-Q4_0-00002-of-00003.gguf\n"
                 "            10  b-00001-of-00002.gguf\n"
                 "             7  a-Q4_0-00001-of-00002.gguf\n"
                 "             3  x.F16.gguf\n"
                 "            50  a-Q4_0-00003-of-00003.gguf\n"
                 "\n"
                 "GGUF files (quantization, files, size, first file):\n"
                 "  -          2             30  b-00002-of-00002.gguf\n"
                 "  Q4_0       3            250  a-Q4_0-00001-of-00003.gguf\n"
                 "  Q4_0       1              7  a-Q4_0-00001-of-00002.gguf\n"
                 "  F16        1              3  x.F16.gguf\n");
    free(o), free(e);
    unsetenv("HF_ENDPOINT");
}

/* 2,000 shard names, each the first of its set: before, every set summed
 * by asking each later file for its set's first (a scan each): 32 s of
 * processor time (98 s in the report). */
TEST(remote_ls_many_sets_in_bounded_time) {
    REQUIRE(setup());
    enum { N = 2000 };
    char ep[256], *o = NULL, *e = NULL, *text = malloc(N * 80 + 8);
    REQUIRE(text);
    size_t k = 0;
    text[k++] = '[';
    for (int i = 0; i < N; i++)
        k += (size_t)sprintf(text + k, "%s{\"type\":\"file\",\"size\":%d,\"path\":\"s%04d-00001-of-00002.gguf\"}", i ? "," : "",
                             i + 1, i);
    strcpy(text + k, "]");
    REQUIRE(publish_text("api/models/o/many/tree/main", text));
    free(text);
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/plain", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    double t0 = children_cpu_s();
    int st = run(&o, &e, "ls", "hf://o/many", NULL, NULL, NULL);
    double took = children_cpu_s() - t0;
    CHECKF(took < 5.0, "gguf ls took %.1f s of processor time", took);
    CHECKF(st == 0 && o && strstr(o, "\n  -          1           2000  s1999-00001-of-00002.gguf\n"), "exit %d: %s", st,
           e ? e : "");
    size_t sets = 0;
    for (const char *p = o ? strstr(o, "\n  -  ") : NULL; p; p = strstr(p + 1, "\n  -  ")) sets++;
    CHECK_EQ_U(sets, N);
    free(o), free(e);
    unsetenv("HF_ENDPOINT");
}

/* ---- gguf convert hf://OWNER/REPO ------------------------------------ */

/* Without ../shared the hub tests convert a checkpoint made from a seed
 * whose conversions by llama.cpp b4747's convert_hf_to_gguf.py are known
 * (embed_cases.h), its weights cut in two shards as the golden gemma-2's
 * are. */
#define SEEDED_MODEL "bge-reranker-tiny-test"

/* One shard of the safetensors header `h` (a JSON object): the tensors
 * names[from..to) with their data from `data`, written to dir/file. */
static bool write_shard(const char *dir, const char *file, json_t *h, const char **names, size_t from, size_t to,
                        const unsigned char *data) {
    json_t *o = json_object();
    uint64_t off = 0;
    for (size_t i = from; i < to; i++) {
        json_t *t = json_deep_copy(json_object_get(h, names[i]));
        json_t *dof = json_object_get(t, "data_offsets");
        const uint64_t a = (uint64_t)json_integer_value(json_array_get(dof, 0)), b = (uint64_t)json_integer_value(json_array_get(dof, 1));
        json_object_set_new(t, "data_offsets", json_pack("[II]", (json_int_t)off, (json_int_t)(off + b - a)));
        json_object_set_new(o, names[i], t);
        off += b - a;
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    char path[2300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = text ? fopen(path, "wb") : NULL;
    uint64_t hl = text ? strlen(text) : 0;
    bool ok = f && fwrite(&hl, 8, 1, f) == 1 && fwrite(text, 1, hl, f) == hl;
    for (size_t i = from; ok && i < to; i++) {
        json_t *dof = json_object_get(json_object_get(h, names[i]), "data_offsets");
        const uint64_t a = (uint64_t)json_integer_value(json_array_get(dof, 0)), b = (uint64_t)json_integer_value(json_array_get(dof, 1));
        ok = fwrite(data + a, 1, b - a, f) == b - a;
    }
    if (f) ok = (fclose(f) == 0) && ok;
    free(text);
    json_decref(o);
    return ok;
}

static int by_offset(const void *a, const void *b, void *h) {
    const json_int_t x = json_integer_value(json_array_get(json_object_get(json_object_get(h, *(const char *const *)a), "data_offsets"), 0));
    const json_int_t y = json_integer_value(json_array_get(json_object_get(json_object_get(h, *(const char *const *)b), "data_offsets"), 0));
    return (x > y) - (x < y);
}

/* dir/model.safetensors as model-00001-of-00002.safetensors (the first
 * half of its tensors in file order), model-00002-of-00002.safetensors
 * and model.safetensors.index.json, as a sharded checkpoint is. */
static bool shard_in_two(const char *dir) {
    char p[2300];
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    size_t n = 0;
    unsigned char *b = read_file(p, &n);
    uint64_t hl = 0;
    if (b && n >= 8) memcpy(&hl, b, 8);
    json_t *h = b && hl <= n - 8 ? json_loadb((const char *)b + 8, (size_t)hl, 0, NULL) : NULL;
    const char *names[256];
    size_t k = 0;
    const char *key;
    json_t *v;
    json_object_foreach(h, key, v) if (k < 256 && strcmp(key, "__metadata__")) names[k++] = key;
    qsort_r(names, k, sizeof names[0], by_offset, h);
    /* the second shard starts at the largest tensor: it is read in several
     * requests, as the golden gemma-2's second shard is */
    size_t cut = 0, biggest = 0;
    for (size_t i = 0; i < k; i++) {
        json_t *dof = json_object_get(json_object_get(h, names[i]), "data_offsets");
        const size_t len = (size_t)(json_integer_value(json_array_get(dof, 1)) - json_integer_value(json_array_get(dof, 0)));
        if (len > biggest) biggest = len, cut = i;
    }
    if (cut == 0) cut = k / 2;
    bool ok = h && k >= 2 && k < 256 &&
              write_shard(dir, "model-00001-of-00002.safetensors", h, names, 0, cut, b + 8 + hl) &&
              write_shard(dir, "model-00002-of-00002.safetensors", h, names, cut, k, b + 8 + hl);
    json_t *map = json_object();
    for (size_t i = 0; i < k; i++)
        json_object_set_new(map, names[i], json_string(i < cut ? "model-00001-of-00002.safetensors"
                                                                : "model-00002-of-00002.safetensors"));
    json_t *index = json_pack("{s{sI}so}", "metadata", "total_size", (json_int_t)(n - 8 - hl), "weight_map", map);
    snprintf(p, sizeof p, "%s/model.safetensors.index.json", dir);
    ok = ok && index && json_dump_file(index, p, JSON_INDENT(2) | JSON_PRESERVE_ORDER) == 0;
    json_decref(index);
    json_decref(h);
    free(b);
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    return ok && unlink(p) == 0;
}

/* The folder of checkpoint `model`: ../shared/golden/convert/MODEL, or
 * without ../shared the seeded one (SEEDED_MODEL), made and sharded once. */
static const char *checkpoint_dir(const char *model) {
    static char dir[2048];
    if (shared_present()) {
        snprintf(dir, sizeof dir, "%s/%s", shared_path("golden/convert"), model);
        return dir;
    }
    static int made; /* 0 not yet, 1 made and sharded, -1 failed */
    if (strcmp(model, SEEDED_MODEL)) return NULL;
    if (!made) {
        char base[2048];
        snprintf(base, sizeof base, "%s/hub-seeded", scratch_dir());
        const char *d = embed_case(model, base);
        if (d) snprintf(dir, sizeof dir, "%s", d);
        made = d && shard_in_two(dir) ? 1 : -1;
    }
    CHECKF(made == 1, "%s: cannot make and shard the seeded checkpoint", SEEDED_MODEL);
    return made == 1 ? dir : NULL;
}

/* The golden checkpoint `model` as the hub repository o/MODEL (main); its
 * size in bytes (0: not published). */
static uint64_t hub_golden(const char *model, const char *skip) {
    char dir[2048], name[2600], from[4200];
    const char *cd = checkpoint_dir(model);
    if (!cd) return 0;
    snprintf(dir, sizeof dir, "%s", cd);
    DIR *d = opendir(dir);
    if (!d) return 0;
    uint64_t total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || stat(from, &st) != 0 || (skip && !strcmp(e->d_name, skip))) continue;
        snprintf(name, sizeof name, "o/%s/main/%s", model, e->d_name);
        if (!publish(from, name)) total = 0;
        total += (uint64_t)st.st_size;
    }
    closedir(d);
    return total;
}

/* The reference's sha256 of the f16 conversion of `model` (index.json, or
 * the seeded checkpoint's record). */
static bool golden_sha_of(const char *model, const char *outtype, char out[65]) {
    char p[2048];
    if (!shared_present()) {
        static const char *const types[5] = {"f32", "f16", "bf16", "q8_0", "auto"};
        const char *const *sha = strcmp(model, SEEDED_MODEL) ? NULL : embed_case_sha(model);
        if (!sha) return false;
        for (int k = 0; k < 5; k++)
            if (!strcmp(outtype, types[k])) return snprintf(out, 65, "%s", sha[k]) == 64;
        return false;
    }
    snprintf(p, sizeof p, "%s/index.json", shared_path("golden/convert"));
    json_t *idx = json_load_file(p, 0, NULL), *run;
    size_t i;
    bool found = false;
    json_array_foreach(json_object_get(idx, "runs"), i, run) {
        const char *m = json_string_value(json_object_get(run, "model")), *t = json_string_value(json_object_get(run, "outtype"));
        const char *sha = json_string_value(json_object_get(run, "sha256"));
        if (m && t && sha && !strcmp(m, model) && !strcmp(t, outtype) && strlen(sha) == 64) {
            memcpy(out, sha, 65);
            found = true;
        }
    }
    json_decref(idx);
    return found;
}

static bool golden_sha(const char *model, char out[65]) { return golden_sha_of(model, "f16", out); }

/* Run `gguf convert ARGS... hf://o/MODEL` in the folder `cwd` (made
 * empty); the exit status, stderr in *err. */
static int convert_in(const char *cwd, char **err, const char *a1, const char *a2, const char *a3, const char *model) {
    char abs_build[4096], name[512], cmd[8];
    if (!realpath(build_dir(), abs_build)) return -5;
    snprintf(name, sizeof name, "hf://o/%s", model);
    snprintf(cmd, sizeof cmd, "convert");
    mkdir(cwd, 0755);
    int back = open(".", O_RDONLY | O_DIRECTORY);
    char *old = getenv("GGUF_BUILD") ? strdup(getenv("GGUF_BUILD")) : NULL;
    setenv("GGUF_BUILD", abs_build, 1);
    int st = -3;
    if (back >= 0 && chdir(cwd) == 0) {
        const char *v[4] = {a1, a2, a3, name}, *w[4] = {NULL, NULL, NULL, NULL};
        int k = 0;
        for (int i = 0; i < 4; i++)
            if (v[i]) w[k++] = v[i];
        st = run_gguf_capture(NULL, err, cmd, w[0], w[1], w[2], w[3], (char *)NULL);
        if (fchdir(back) != 0) st = -4;
    }
    if (back >= 0) close(back);
    if (old) setenv("GGUF_BUILD", old, 1), free(old);
    else unsetenv("GGUF_BUILD");
    return st;
}

/* The names in dir, sorted, joined by ' ' (what a run left there). */
static char *listing(const char *dir) {
    struct dirent **v = NULL;
    int n = scandir(dir, &v, NULL, alphasort);
    buf b = {0};
    for (int i = 0; i < n; i++) {
        if (v[i]->d_name[0] != '.' || strlen(v[i]->d_name) > 2) {
            if (b.n) buf_put(&b, " ", 1);
            buf_put(&b, v[i]->d_name, strlen(v[i]->d_name));
        }
        free(v[i]);
    }
    free(v);
    buf_put(&b, "", 1);
    return (char *)b.p;
}

/* Each golden checkpoint converted from the hub, in one pass: the
 * reference's bytes, under the name a local copy in a folder REPO gets
 * (in the current directory), every byte of the repository fetched about
 * once (the two servers' counts), the token seen by the hub only. */
TEST(remote_convert_hub_golden) {
    REQUIRE(setup());
    static const char *const golden[] = {"TinyLlama-2-Test-2x32", "Qwen2.5-Tiny-Test-Instruct", "gemma-2-tiny-12L-test"};
    static const char *const seeded[] = {SEEDED_MODEL};
    const bool shared = shared_present();
    const char *const *models = shared ? golden : seeded;
    const size_t n_models = shared ? 3 : 1;
    size_t converted = 0;
    char ep[256], cwd[2048], local[2048], want[65], hex[65];
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    setenv("HF_TOKEN", "secret", 1);
    for (size_t m = 0; m < n_models; m++) {
        uint64_t size = hub_golden(models[m], NULL);
        if (!size || !golden_sha(models[m], want)) continue; /* reference material absent */
        converted++;
        snprintf(cwd, sizeof cwd, "%s/hubconv-%zu", scratch_dir(), m);
        snprintf(local, sizeof local, "%s/local-%zu", scratch_dir(), m);
        mkdir(local, 0755);
        /* the local folder of the same name: its output is the one to match */
        char src[2048], *e = NULL;
        snprintf(src, sizeof src, "%s/o/%s/main", root, models[m]);
        char dst[2100];
        snprintf(dst, sizeof dst, "%s/%s", local, models[m]);
        REQUIRE(rename(src, dst) == 0);
        int st = run(NULL, &e, "convert", "-q", dst, "-o", local);
        CHECKF(st == 0, "%s: local: %s", models[m], e);
        free(e), e = NULL;
        REQUIRE(rename(dst, src) == 0);
        httpd_take_counts(srv), httpd_take_counts(other);
        st = convert_in(cwd, &e, "-q", "--outtype", "f16", models[m]);
        httpd_counts hub_c = httpd_take_counts(srv), cdn_c = httpd_take_counts(other);
        CHECKF(st == 0 && e && !*e, "%s: %d: %s", models[m], st, e);
        free(e);
        char *got = listing(cwd), *exp = listing(local);
        char *exp2 = text_replace(exp, models[m], ""); /* the local run's folder is not an output */
        for (char *q = exp2; *q == ' ';) memmove(q, q + 1, strlen(q));
        CHECKF(!strcmp(got, exp2), "%s: wrote '%s', locally '%s'", models[m], got, exp2);
        char out[4200];
        snprintf(out, sizeof out, "%s/%s", cwd, got);
        size_t n = 0;
        unsigned char *b = read_file(out, &n);
        if (b) sha256_hex(b, n, hex);
        CHECKF(b && !strcmp(hex, want), "%s: sha256 %s, the reference's %s", models[m], b ? hex : "-", want);
        free(b);
        free(got), free(exp), free(exp2);
        double ratio = (double)(hub_c.sent + cdn_c.sent) / (double)size;
        printf("    %s from the hub: %llu bytes fetched for a %llu-byte repository (%.3fx), %lu + %lu requests\n",
               models[m], hub_c.sent + cdn_c.sent, (unsigned long long)size, ratio, hub_c.requests, cdn_c.requests);
        CHECKF(ratio <= 1.05, "%s: %.3fx the repository's bytes fetched", models[m], ratio);
        CHECKF(hub_c.with_auth > 0 && cdn_c.with_auth == 0, "%s: token to the hub %lu times, to the CDN %lu times",
               models[m], hub_c.with_auth, cdn_c.with_auth);
    }
    CHECKF(converted > 0, "no checkpoint converted");
    unsetenv("HF_TOKEN");
    unsetenv("HF_ENDPOINT");
}

/* The sha256 of `gguf convert -q --outtype TYPE DIR -o OUT`, into hex. */
static bool local_convert_sha(const char *dir, const char *type, const char *out, char hex[65]) {
    char *e = NULL;
    int st = run_gguf_capture(NULL, &e, "convert", "-q", "--outtype", type, dir, "-o", out, (char *)NULL);
    free(e);
    bool ok = st == 0 && file_sha256(out, hex);
    unlink(out);
    return ok;
}

/* A Mixtral-style checkpoint whose block is larger than the converter's
 * read chunk, converted from the hub: each byte of the repository fetched
 * once (1.67x before: the read-ahead of one expert's matrix took in the
 * others', which the next stacked tensor fetched again), the local
 * folder's bytes. */
TEST(remote_convert_hub_moe_fetches_once) {
    REQUIRE(setup());
    char dir[2048], local[2100], cwd[2048], ep[256], want[65], hex[65], out[4200], *e = NULL;
    snprintf(dir, sizeof dir, "%s/moe-src", scratch_dir());
    mkdir(dir, 0755);
    snprintf(dir, sizeof dir, "%s/moe-src/moe-large", scratch_dir()); /* the repository's name: the same general.name */
    uint64_t shard = cv_case_moe_large(dir), size = 0;
    REQUIRE(shard > 0);
    static const char *const FILES[] = {"config.json", "tokenizer.model", "model.safetensors"};
    for (int k = 0; k < 3; k++) {
        char from[2200], name[256];
        struct stat st;
        snprintf(from, sizeof from, "%s/%s", dir, FILES[k]);
        snprintf(name, sizeof name, "o/moe-large/main/%s", FILES[k]);
        REQUIRE(stat(from, &st) == 0 && publish(from, name));
        size += (uint64_t)st.st_size;
    }
    snprintf(local, sizeof local, "%s/moe-local.gguf", scratch_dir());
    REQUIRE(local_convert_sha(dir, "f16", local, want));
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    snprintf(cwd, sizeof cwd, "%s/hubconv-moe", scratch_dir());
    httpd_take_counts(srv), httpd_take_counts(other);
    int st = convert_in(cwd, &e, "-q", "--outtype", "f16", "moe-large");
    httpd_counts hub_c = httpd_take_counts(srv), cdn_c = httpd_take_counts(other);
    CHECKF(st == 0 && e && !*e, "%d: %s", st, e);
    free(e);
    char *got = listing(cwd);
    snprintf(out, sizeof out, "%s/%s", cwd, got);
    CHECKF(file_sha256(out, hex) && !strcmp(hex, want), "%s: sha256 %s, the local folder's %s", got, hex, want);
    unlink(out);
    free(got);
    double ratio = (double)(hub_c.sent + cdn_c.sent) / (double)size;
    printf("    from the hub: %llu bytes fetched for a %llu-byte repository (%.3fx), %lu + %lu requests\n",
           hub_c.sent + cdn_c.sent, (unsigned long long)size, ratio, hub_c.requests, cdn_c.requests);
    CHECKF(ratio <= 1.05, "%.3fx the repository's bytes fetched", ratio);
    unsetenv("HF_ENDPOINT");
}


/* Which of the wanted sha256s (want[0..n)) the file cwd/f has: its index + 1, or 0. */
static int sha_among(const char *cwd, const char *f, char (*want)[65], int n, char hex[65]) {
    char out[4200];
    snprintf(out, sizeof out, "%s/%s", cwd, f);
    if (!file_sha256(out, hex)) return snprintf(hex, 65, "-"), 0;
    for (int k = 0; k < n; k++)
        if (!strcmp(hex, want[k])) return k + 1;
    return 0;
}

/* Several outputs from the hub in one run, written at once: f16 and q8_0
 * are the reference's bytes, Q4_K_M and Q5_K_M (which share their auto
 * rows) those of a single local run of each; the shards' bytes are fetched
 * once for all of them (spooled), not once per output.  The CDN failing
 * every other answer is survived by all four outputs at once; a shard that
 * changes on the hub mid-run fails the run, naming the file, and leaves
 * none of them. */
TEST(remote_convert_hub_outtypes) {
    REQUIRE(setup());
    const char *model = shared_present() ? "gemma-2-tiny-12L-test" : SEEDED_MODEL;
    char ep[256], cwd[2048], want[4][65], hex[65], local[2048], scratch[2200], *e = NULL;
    uint64_t size = hub_golden(model, NULL);
    REQUIRE(size && golden_sha_of(model, "f16", want[0]) && golden_sha_of(model, "q8_0", want[1]));
    snprintf(local, sizeof local, "%s", checkpoint_dir(model));
    snprintf(scratch, sizeof scratch, "%s/hubtypes-single.gguf", scratch_dir());
    REQUIRE(local_convert_sha(local, "Q4_K_M", scratch, want[2]) && local_convert_sha(local, "Q5_K_M", scratch, want[3]));
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    static const char *const modes[] = {NULL, "flaky"};
    for (int m = 0; m < 2; m++) {
        httpd_set_cdn_mode(srv, modes[m]);
        snprintf(cwd, sizeof cwd, "%s/hubtypes-%d", scratch_dir(), m);
        httpd_take_counts(srv), httpd_take_counts(other);
        int st = convert_in(cwd, &e, "-q", "--outtype=f16,q8_0,Q4_K_M,Q5_K_M", m ? "--timeout=1" : "--outfile=.", model);
        httpd_counts hub_c = httpd_take_counts(srv), cdn_c = httpd_take_counts(other);
        CHECKF(st == 0 && e && !*e, "%s: %d: %s", modes[m] ? modes[m] : "plain", st, e);
        free(e), e = NULL;
        char *got = listing(cwd), *save = NULL;
        int matched = 0, files = 0;
        for (char *f = strtok_r(got, " ", &save); f; f = strtok_r(NULL, " ", &save), files++) {
            int k = sha_among(cwd, f, want, 4, hex);
            CHECKF(k, "%s: sha256 %s is none of the four expected", f, hex);
            matched |= k ? 1 << (k - 1) : 0;
        }
        CHECKF(matched == 15 && files == 4, "%s: %d files, the four outputs not all there (%d)", modes[m] ? modes[m] : "plain",
               files, matched);
        free(got);
        double ratio = (double)(hub_c.sent + cdn_c.sent) / (double)size;
        if (!modes[m]) {
            printf("    %s from the hub as f16, q8_0, Q4_K_M and Q5_K_M: %llu bytes fetched for a %llu-byte repository (%.3fx)\n",
                   model, hub_c.sent + cdn_c.sent, (unsigned long long)size, ratio);
            CHECKF(ratio <= 1.05, "%.3fx the repository's bytes fetched for four outputs", ratio);
        }
    }
    httpd_set_cdn_mode(srv, NULL);
    httpd_set_change(other, "model-00002-of-00002.safetensors", 1);
    snprintf(cwd, sizeof cwd, "%s/hubtypes-change", scratch_dir());
    int st = convert_in(cwd, &e, "-q", "--outtype=f16,Q4_K_M", NULL, model);
    httpd_set_change(other, NULL, 0);
    char *left = listing(cwd);
    CHECKF(st == 1 && e && strstr(e, "model-00002-of-00002.safetensors: the file changed on the server") && !*left,
           "change: %d: %s (left: %s)", st, e, left);
    free(e), free(left);
    unsetenv("HF_ENDPOINT");
}

/* Conversion from the hub under faults: the CDN cutting, failing (503) or
 * stalling every other answer is survived (the same bytes); a file that
 * changes on the hub mid-run, a shard the index names that the hub lacks,
 * a CDN that never finishes an answer are errors naming the file, and
 * leave nothing behind. */
TEST(remote_convert_hub_faults) {
    REQUIRE(setup());
    const char *model = shared_present() ? "gemma-2-tiny-12L-test" : SEEDED_MODEL;
    char ep[256], cwd[2048], want[65], hex[65], msg[512], *e = NULL;
    REQUIRE(hub_golden(model, NULL) && golden_sha(model, want));
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    static const char *const modes[] = {"cut", "flaky", "stall"};
    for (size_t i = 0; i < 3; i++) {
        httpd_set_cdn_mode(srv, modes[i]);
        snprintf(cwd, sizeof cwd, "%s/hubfault-%zu", scratch_dir(), i);
        int st = convert_in(cwd, &e, "-q", "--timeout", "1", model);
        CHECKF(st == 0, "%s: %d: %s", modes[i], st, e);
        free(e), e = NULL;
        char out[4200], *name = listing(cwd);
        snprintf(out, sizeof out, "%s/%s", cwd, name);
        size_t n = 0;
        unsigned char *b = read_file(out, &n);
        if (b) sha256_hex(b, n, hex);
        CHECKF(b && !strcmp(hex, want), "%s: %s: not the reference's bytes", modes[i], name);
        free(b), free(name);
    }
    /* a GGUF file by its quantization is no checkpoint to convert: a usage error, no request */
    httpd_take_counts(srv);
    snprintf(cwd, sizeof cwd, "%s/hubfail-tag", scratch_dir());
    snprintf(msg, sizeof msg, "%s:Q4_K_M", model);
    int ut = convert_in(cwd, &e, "-q", NULL, NULL, msg);
    snprintf(msg, sizeof msg, "hf://o/%s:Q4_K_M: convert reads a safetensors repository", model);
    CHECKF(ut == 2 && e && strstr(e, msg) && httpd_take_counts(srv).requests == 0, "tag: %d: %s", ut, e);
    free(e), e = NULL;
    /* failures: the message names the file; nothing is left */
    httpd_set_cdn_mode(srv, "trunc");
    snprintf(cwd, sizeof cwd, "%s/hubfail-trunc", scratch_dir());
    int st = convert_in(cwd, &e, "-q", "--timeout", "1", model);
    char *left = listing(cwd);
    CHECKF(st == 1 && e && strstr(e, "model-0000") && !*left, "trunc: %d: %s (left: %s)", st, e, left);
    free(e), free(left), e = NULL;
    httpd_set_cdn_mode(srv, NULL);
    httpd_set_change(other, "model-00002-of-00002.safetensors", 1);
    snprintf(cwd, sizeof cwd, "%s/hubfail-change", scratch_dir());
    st = convert_in(cwd, &e, "-q", NULL, NULL, model);
    left = listing(cwd);
    snprintf(msg, sizeof msg, "%s/resolve/main/model-00002-of-00002.safetensors: the file changed on the server while it was read",
             model);
    CHECKF(st == 1 && e && strstr(e, msg) && !*left, "change: %d: %s (left: %s)", st, e, left);
    free(e), free(left), e = NULL;
    httpd_set_change(other, NULL, 0);
    /* the repository's commit changes after the first two files (config.json, the first shard) */
    httpd_set_commit_after(srv, 2);
    snprintf(cwd, sizeof cwd, "%s/hubfail-commit", scratch_dir());
    st = convert_in(cwd, &e, "-q", NULL, NULL, model);
    httpd_set_commit_after(srv, 0);
    left = listing(cwd);
    snprintf(msg, sizeof msg, "%s/model-00002-of-00002.safetensors: the repository changed on the hub during the conversion "
             "(commit c0c0", model);
    CHECKF(st == 1 && e && strstr(e, msg) && !*left, "commit: %d: %s (left: %s)", st, e, left);
    free(e), free(left), e = NULL;
    char gone[2048];
    snprintf(gone, sizeof gone, "%s/o/%s/main/model-00002-of-00002.safetensors", root, model);
    REQUIRE(unlink(gone) == 0);
    snprintf(cwd, sizeof cwd, "%s/hubfail-missing", scratch_dir());
    st = convert_in(cwd, &e, "-q", NULL, NULL, model);
    left = listing(cwd);
    snprintf(msg, sizeof msg, "%s/model-00002-of-00002.safetensors: missing or incomplete shard", model);
    CHECKF(st == 1 && e && strstr(e, msg) && !*left, "missing shard: %d: %s (left: %s)", st, e, left);
    free(e), free(left);
    unsetenv("HF_ENDPOINT");
}

/* --model-card: README.md for the outputs, as GGUF-my-repo writes it: the
 * front matter with the repository as base_model and the source card's
 * license, language and tags, a row per written file with the
 * quantization its general.file_type names, how to run it. */
TEST(remote_convert_model_card) {
    REQUIRE(setup());
    const char *model = shared_present() ? "TinyLlama-2-Test-2x32" : SEEDED_MODEL;
    REQUIRE(hub_golden(model, NULL));
    char ep[256], cwd[2048], card[2300], name[512], *e = NULL;
    snprintf(name, sizeof name, "o/%s/main/README.md", model);
    REQUIRE(publish_text(name, "---\nlicense: apache-2.0\nlanguage:\n- en\ntags:\n- text-generation\n---\n# a card\n"));
    snprintf(ep, sizeof ep, "http://127.0.0.1:%d/hf", httpd_port(srv));
    setenv("HF_ENDPOINT", ep, 1);
    snprintf(cwd, sizeof cwd, "%s/hubcard", scratch_dir());
    int st = convert_in(cwd, &e, "--outtype=f16,q8_0", "--outfile=.", "--model-card", model);
    CHECKF(st == 0, "%d: %s", st, e);
    free(e);
    char *names = listing(cwd);
    /* two outputs and the card, nothing else (in the order of their names) */
    char got[3][200];
    const char *f16 = "", *q8 = "";
    const int n_names = sscanf(names, "%199s %199s %199s %*s", got[0], got[1], got[2]);
    int cards = 0;
    for (int i = 0; i < n_names; i++) {
        if (!strcmp(got[i], "README.md")) cards++;
        else if (strstr(got[i], "-F16.gguf")) f16 = got[i];
        else if (strstr(got[i], "-Q8_0.gguf")) q8 = got[i];
    }
    CHECKF(n_names == 3 && cards == 1 && *f16 && *q8 && !strstr(names, ".README"), "left: %s", names);
    snprintf(card, sizeof card, "%s/README.md", cwd);
    size_t n = 0;
    char *text = (char *)read_file(card, &n);
    REQUIRE(text);
    char front[1024];
    snprintf(front, sizeof front,
             "---\nbase_model: \"o/%s\"\nlicense: \"apache-2.0\"\nlanguage:\n- \"en\"\n"
             "tags:\n- gguf\n- llama-cpp\n- \"text-generation\"\n---\n\n# %s-GGUF\n",
             model, model);
    CHECKF(!strncmp(text, front, strlen(front)), "front matter: %s", text);
    char row[1200], run[600];
    snprintf(row, sizeof row, "| [%.190s](%.190s) | F16 | ", f16, f16);
    CHECKF(strstr(text, row), "no row '%s' in %s", row, text);
    snprintf(row, sizeof row, "| [%.190s](%.190s) | Q8_0 | ", q8, q8);
    CHECKF(strstr(text, row), "no row '%s' in %s", row, text);
    snprintf(run, sizeof run, "llama-cli -m %.190s -p", f16);
    char hf[600];
    snprintf(hf, sizeof hf, "llama-cli -hf YOU/%s-GGUF:F16", model);
    CHECKF(strstr(text, run) && strstr(text, hf), "how to run: %s", text);
    free(text), free(names);
    unsetenv("HF_ENDPOINT");
}
#endif
