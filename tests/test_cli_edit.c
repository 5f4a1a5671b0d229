/* test_cli_edit.c -- the writing subcommands of the gguf tool (copy, set,
 * get, rm), run as a user would, plus a crash test of in-place editing. */
#include "test.h"
#include "libgguf.h"

#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run build/gguf with the NULL-terminated arguments; its stdout goes to
 * `out` (cap bytes, NUL-terminated) when given.  Returns the exit status. */
static int run_gguf(char *out, size_t cap, ...) {
    char *argv[32];
    char tool[512];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    argv[0] = tool;
    int n = 1;
    va_list ap;
    va_start(ap, cap);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < 31) argv[n++] = (char *)a;
    va_end(ap);
    argv[n] = NULL;
    int pfd[2];
    if (pipe(pfd)) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(pfd[1], 1);
        close(pfd[0]);
        int dn = open("/dev/null", O_WRONLY);
        if (dn >= 0 && !getenv("TEST_VERBOSE")) dup2(dn, 2);
        execv(tool, argv);
        _exit(127);
    }
    close(pfd[1]);
    size_t got = 0;
    char sink[4096];
    for (;;) {
        char *dst = out && got + 1 < cap ? out + got : sink;
        size_t room = out && got + 1 < cap ? cap - 1 - got : sizeof sink;
        ssize_t r = read(pfd[0], dst, room);
        if (r <= 0) break;
        if (dst != sink) got += (size_t)r;
    }
    if (out && cap) out[got] = 0;
    close(pfd[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static const char *tmp_path(const char *name) {
    static char p[4][600];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", scratch_dir(), name);
    return p[k];
}

static bool same_file_bytes(const char *a, const char *b, size_t limit) {
    size_t na = 0, nb = 0;
    unsigned char *x = read_file(a, &na), *y = read_file(b, &nb);
    bool ok = x && y && (limit ? na >= limit && nb >= limit && !memcmp(x, y, limit) : na == nb && !memcmp(x, y, na));
    free(x);
    free(y);
    return ok;
}

TEST(cli_copy_big_endian_matches_gguf_py) {
    const char *le = shared_path("golden/llama-quantize/pub-dense-f16.gguf");
    char lebuf[600], bebuf[600];
    snprintf(lebuf, sizeof lebuf, "%s", le);
    snprintf(bebuf, sizeof bebuf, "%s", shared_path("golden/llama-quantize/pub-dense-f16.BE.gguf"));
    const char *be = tmp_path("be.gguf"), *back = tmp_path("back.gguf");
    CHECK(run_gguf(NULL, 0, "copy", lebuf, be, "--endian", "big", NULL) == 0);
    CHECK(same_file_bytes(be, bebuf, 0));
    CHECK(run_gguf(NULL, 0, "copy", be, back, "--endian", "little", NULL) == 0);
    CHECK(same_file_bytes(back, lebuf, 0));
    unlink(be);
    unlink(back);
}

TEST(cli_copy_q8_0_big_endian_header_matches_gguf_py) {
    /* pub-dense-Q8_0.BE.gguf is known to be corrupt: gguf-py's converter
     * swapped the scales of only some rows.  Only its header, metadata and
     * tensor infos (everything before the data section) are a reference. */
    char src[600], ref[600];
    snprintf(src, sizeof src, "%s", shared_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
    snprintf(ref, sizeof ref, "%s", shared_path("golden/llama-quantize/pub-dense-Q8_0.BE.gguf"));
    const char *be = tmp_path("q8be.gguf");
    CHECK(run_gguf(NULL, 0, "copy", src, be, "--endian", "big", NULL) == 0);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(ref, NULL, &f, NULL) == LGG_OK);
    CHECK(same_file_bytes(be, ref, (size_t)lgg_file_data_offset(f)));
    lgg_close(f);
    unlink(be);
}

TEST(cli_copy_usage_and_refusals) {
    char src[600];
    snprintf(src, sizeof src, "%s", shared_path("golden/ggml-types/type-f32.gguf"));
    const char *out = tmp_path("v1.gguf");
    CHECK(run_gguf(NULL, 0, "copy", src, NULL) == 2);
    CHECK(run_gguf(NULL, 0, "copy", src, out, "--endian", "middle", NULL) == 2);
    CHECK(run_gguf(NULL, 0, "copy", src, out, "--version", "4", NULL) == 2);
    CHECK(run_gguf(NULL, 0, "copy", src, out, "--alignment", "24", NULL) == 2);
    char help[4096];
    CHECK(run_gguf(help, sizeof help, "copy", "--help", NULL) == 0 && strstr(help, "usage: gguf copy"));
    CHECK(run_gguf(NULL, 0, "copy", src, out, "--version", "1", "--alignment", "64", NULL) == 0);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
    CHECK(lgg_file_version(f) == 1 && lgg_file_alignment(f) == 64);
    lgg_close(f);
    /* onto itself, by the same name: refused, untouched */
    CHECK(run_gguf(NULL, 0, "copy", out, out, NULL) == 1);
    REQUIRE(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
    CHECK(lgg_file_version(f) == 1);
    lgg_close(f);
    unlink(out);
}
