/* test_cli_inputs.c -- what the tool reads is never what it writes, a
 * signal leaves no part of a shard set behind, outputs keep their input's
 * permission bits as cp's copies do, and names in messages are escaped
 * (issue 22, items 1, 2, 16, 17). */
#include "gen.h"
#include "libgguf.h"
#include "standin.h"
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A fresh directory under the scratch one. */
static const char *fresh(const char *name) {
    static char path[8][600];
    static int k;
    k = (k + 1) % 8;
    snprintf(path[k], sizeof path[k], "%s/%s", scratch_dir(), name);
    mkdir(path[k], 0777);
    return path[k];
}

static void put(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(p, 1, n, f);
    fclose(f);
}

static void small_gguf(const char *path) {
    buf b = {0};
    gen_small_model(&b);
    put(path, b.p, b.n);
    buf_free(&b);
}

static bool same_bytes(const char *path, const void *p, size_t n) {
    size_t m = 0;
    unsigned char *q = read_file(path, &m);
    bool same = q && m == n && !memcmp(p, q, n);
    free(q);
    return same;
}

/* Names in dir (not . or ..). */
static int entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.' || (e->d_name[1] && e->d_name[1] != '.');
    if (d) closedir(d);
    return n;
}

static void refusal(char *want, size_t cap, const char *cmd, const char *out, const char *in) {
    snprintf(want, cap, "gguf %s: %s: refusing to write over the input %s (the same file); nothing written\n", cmd, out,
             in);
}

/* gguf set IN -o val.txt general.name=str@val.txt: the value's file is an
 * input too; so is a manifest or a file linked to one. */
TEST(cli_set_refuses_its_value_file) {
    const char *d = fresh("set-self");
    char in[700], val[700], want[2400];
    snprintf(in, sizeof in, "%s/in.gguf", d);
    snprintf(val, sizeof val, "%s/val.txt", d);
    small_gguf(in);
    put(val, "a name", 6);
    char arg[800];
    snprintf(arg, sizeof arg, "general.name=str@%s", val);
    char *se = NULL;
    CHECK_EQ_U(run_gguf_capture(NULL, &se, "set", in, "-o", val, arg, NULL), 1);
    refusal(want, sizeof want, "set", val, val);
    CHECK_STR(se, want);
    free(se);
    CHECK(same_bytes(val, "a name", 6));
    CHECK_EQ_U(entries(d), 2);
    /* the value file through a hard link */
    char hl[700];
    snprintf(hl, sizeof hl, "%s/hard.gguf", d);
    REQUIRE(link(val, hl) == 0);
    CHECK_EQ_U(run_gguf_capture(NULL, &se, "set", in, "-o", hl, arg, NULL), 1);
    refusal(want, sizeof want, "set", hl, val);
    CHECK_STR(se, want);
    free(se);
    CHECK(same_bytes(val, "a name", 6));
    /* and a value file that is not the output still works */
    char out[700];
    snprintf(out, sizeof out, "%s/out.gguf", d);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", in, "-o", out, arg, NULL), 0);
}

/* quantize --imatrix im.dat IN im.dat PRESET */
TEST(cli_quantize_refuses_its_imatrix) {
    if (!need_models()) return; /* the model and its importance matrix, or their stand-ins (standin.h) */
    const char *d = fresh("q-self");
    char im[700], want[2400];
    snprintf(im, sizeof im, "%s/im.dat", d);
    REQUIRE(file_copy(model_path("golden/llama-quantize/pub-dense-f16.imatrix.dat"), im));
    size_t n = 0;
    unsigned char *before = read_file(im, &n);
    REQUIRE(before);
    char *se = NULL;
    CHECK_EQ_U(run_gguf_capture(NULL, &se, "quantize", "-q", "--imatrix", im,
                                model_path("golden/llama-quantize/pub-dense-f16.gguf"), im, "Q4_K_M", NULL),
               1);
    refusal(want, sizeof want, "quantize", im, im);
    CHECK_STR(se, want);
    free(se);
    CHECK(same_bytes(im, before, n));
    CHECK_EQ_U(entries(d), 1);
    free(before);
}

static unsigned mode_of(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0xFFFFu;
}

/* A new output takes its input's permission bits (less the umask), as
 * cp's copy does; a file that is replaced keeps its own. */
TEST(cli_outputs_keep_the_input_mode) {
    const char *d = fresh("modes");
    const mode_t um = umask(022);
    char in[700], out[700], prefix[700], shard[760];
    snprintf(in, sizeof in, "%s/in.gguf", d);
    small_gguf(in);
    static const unsigned modes[] = {0600, 0640, 0604};
    for (size_t i = 0; i < 3; i++) {
        REQUIRE(chmod(in, modes[i]) == 0);
        const unsigned want = modes[i] & ~022u;
        snprintf(out, sizeof out, "%s/copy%zu.gguf", d, i);
        CHECK_EQ_U(run_gguf_capture(NULL, NULL, "copy", in, out, NULL), 0);
        CHECK_EQ_U(mode_of(out), want);
        snprintf(out, sizeof out, "%s/set%zu.gguf", d, i);
        CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", in, "-o", out, "general.name=str:x", NULL), 0);
        CHECK_EQ_U(mode_of(out), want);
        snprintf(out, sizeof out, "%s/cat%zu.bin", d, i);
        CHECK_EQ_U(run_gguf_capture(NULL, NULL, "cat", in, "a", "-o", out, NULL), 0);
        CHECK_EQ_U(mode_of(out), want);
        snprintf(prefix, sizeof prefix, "%s/sp%zu", d, i);
        CHECK_EQ_U(run_gguf_capture(NULL, NULL, "split", "--max-tensors", "1", in, prefix, NULL), 0);
        snprintf(shard, sizeof shard, "%s-00002-of-00002.gguf", prefix);
        CHECK_EQ_U(mode_of(shard), want);
    }
    /* a replaced file keeps its mode */
    snprintf(out, sizeof out, "%s/copy0.gguf", d);
    REQUIRE(chmod(out, 0644) == 0);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "copy", in, out, NULL), 0);
    CHECK_EQ_U(mode_of(out), 0644);
    umask(um);
}

/* A file of n tiny tensors. */
static void many_tensors(const char *path, int n) {
    lgg_writer *w = NULL;
    if (lgg_writer_create(NULL, &w, NULL) != LGG_OK) return;
    lgg_writer_set_str(w, "general.architecture", "test", NULL);
    float v[4] = {1, 2, 3, 4};
    for (int i = 0; i < n; i++) {
        char name[32];
        int l = snprintf(name, sizeof name, "t.%d", i);
        int64_t ne[1] = {4};
        lgg_writer_add_tensor_buffer(w, name, (size_t)l, 1, ne, LGG_TYPE_F32, v, sizeof v, LGG_LITTLE_ENDIAN, NULL);
    }
    lgg_writer_write_file(w, path, NULL, NULL);
    lgg_writer_free(w);
}

/* Ctrl-C (or SIGTERM) during split removes every shard this run wrote,
 * and every temporary file: nothing of the set is left. */
TEST(cli_split_signal_leaves_nothing) {
    char in[700];
    snprintf(in, sizeof in, "%s/many.gguf", fresh("sig-in"));
    many_tensors(in, 400);
    static const int sigs[] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++) {
        const char *d = fresh(i ? "sig-term" : "sig-int");
        char prefix[700];
        snprintf(prefix, sizeof prefix, "%s/x", d);
        int st = signal_mid_run((char *[]){"split", "--max-tensors", "1", in, prefix, NULL}, d, "x-00001-of-00400",
                                sigs[i]);
        CHECKF(st >= 0, "split: %s", st == -2 ? "no shard appeared" : "not started");
        CHECKF(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i], "split: wait status %#x", st);
        CHECKF(entries(d) == 0, "%d file(s) left after signal %d", entries(d), sigs[i]);
    }
    /* the run without a signal keeps its set */
    const char *d = fresh("sig-none");
    char prefix[700];
    snprintf(prefix, sizeof prefix, "%s/x", d);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "split", "--max-tensors", "100", in, prefix, NULL), 0);
    CHECK_EQ_U(entries(d), 4);
}

/* A key with control bytes is escaped in the message, as in info's output. */
TEST(cli_messages_escape_names) {
    char in[700], want[1600];
    snprintf(in, sizeof in, "%s/esc.gguf", fresh("esc"));
    small_gguf(in);
    char *se = NULL;
    CHECK_EQ_U(run_gguf_capture(NULL, &se, "get", in, "bad\x1b]0;x\nkey", NULL), 1);
    snprintf(want, sizeof want, "gguf get: %s: no key 'bad\\x1b]0;x\\x0akey'\n", in);
    CHECK_STR(se, want);
    free(se);
}
