/* test_cli_user.c -- what a new user hits first (issue 13): editing that
 * keeps types and order, canonical copies, number text, stdin and terminals,
 * quantize's default name, and the UTF-8 replacement rule. */
#include "test.h"
#include "standin.h"
#include "libgguf.h"

#include <dirent.h>
#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *scratch(const char *name) {
    static char p[8][1024];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", scratch_dir(), name);
    return p[k];
}

static bool same_bytes(const char *a, const char *b) {
    size_t na, nb;
    unsigned char *x = read_file(a, &na), *y = read_file(b, &nb);
    bool same = x && y && na == nb && !memcmp(x, y, na);
    free(x);
    free(y);
    return same;
}

/* The type of KEY in FILE, or 99 when it cannot be read. */
static uint32_t key_type(const char *file, const char *key) {
    lgg_file *f = NULL;
    lgg_value v;
    uint32_t t = 99;
    if (lgg_open_file(file, NULL, &f, NULL) == LGG_OK && lgg_get(f, key, &v) == LGG_OK) t = v.type;
    lgg_close(f);
    return t;
}

#define DENSE "golden/llama-quantize/pub-dense-f16.gguf"

TEST(cli_set_output_before_file_and_renames) {
    if (!need_models()) return; /* the models, or their stand-ins (standin.h) */
    const char *in = scratch("s.gguf"), *out = scratch("s-out.gguf");
    REQUIRE(file_copy(model_path(DENSE), in));
    char *o = NULL, *e = NULL;
    /* -o first used to crash: the file is found wherever it stands */
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", "-o", out, in, "general.name=str:X", NULL), 0);
    CHECK_EQ_U(run_gguf_capture(&o, NULL, "get", out, "general.name", NULL), 0);
    CHECK_STR(o, "X\n");
    free(o);
    CHECK(same_bytes(in, model_path(DENSE)));
    /* --rename renames, in order with the assignments */
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "set", in, "--rename", "general.name=general.basename", "-o", out, NULL), 0);
    CHECK_STR(e, "");
    free(e);
    CHECK(key_type(out, "general.basename") == LGG_VT_STRING && key_type(out, "general.name") == 99);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", in, "--rename", "general.name=general.basename",
                                "general.name=str:again", "-o", out, NULL),
               0);
    CHECK(key_type(out, "general.basename") == LGG_VT_STRING && key_type(out, "general.name") == LGG_VT_STRING);
    /* a value is not a key name: the rename is refused, nothing written */
    unlink(out);
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "set", in, "--rename", "general.name=str:evil", "-o", out, NULL), 1);
    CHECK(access(out, F_OK) != 0);
    CHECK(e && strstr(e, "'str:evil' is not a valid key") != NULL);
    free(e);
}

TEST(cli_set_keeps_types) {
    if (!need_models()) return; /* the models, or their stand-ins (standin.h) */
    const char *in = scratch("t.gguf"), *out = scratch("t-out.gguf");
    REQUIRE(file_copy(model_path(DENSE), in));
    REQUIRE(key_type(in, "llama.attention.layer_norm_rms_epsilon") == LGG_VT_F32);
    REQUIRE(key_type(in, "llama.context_length") == LGG_VT_U32);
    char *e = NULL, *o = NULL;
    /* the generic names keep an existing key's type */
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "set", in, "llama.attention.layer_norm_rms_epsilon=float:500000", "llama.context_length=int:8192",
                                "-o", out, NULL),
               0);
    CHECK_STR(e, "");
    free(e);
    CHECK(key_type(out, "llama.attention.layer_norm_rms_epsilon") == LGG_VT_F32 && key_type(out, "llama.context_length") == LGG_VT_U32);
    CHECK_EQ_U(run_gguf_capture(&o, NULL, "get", out, "llama.attention.layer_norm_rms_epsilon", "llama.context_length", NULL), 0);
    CHECK_STR(o, "500000.0\n8192\n");
    free(o);
    /* range-checked against that type */
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "set", in, "llama.context_length=int:-1", "-o", out, NULL), 1);
    CHECK(e && strstr(e, "is not an unsigned integer") != NULL);
    free(e);
    /* a u64 count (the spec lists uint64; llama.cpp reads u32 only) is
     * refused like any other width; --force changes it, and says so */
    char want[2048];
    unlink(out);
    snprintf(want, sizeof want,
             "gguf set: %s: 'llama.context_length' is u64, expected u32: llama.cpp reads u32 only (the spec lists it "
             "as uint64); --force writes it\n", in);
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "set", in, "llama.context_length=u64:8192", "-o", out, NULL), 1);
    CHECK_STR(e, want);
    free(e);
    CHECK(access(out, F_OK) != 0);
    snprintf(want, sizeof want, "gguf set: %s: note: llama.context_length changes type from u32 to u64\n", in);
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "set", in, "--force", "llama.context_length=u64:8192", "-o", out, NULL), 0);
    CHECK_STR(e, want);
    free(e);
    CHECK(key_type(out, "llama.context_length") == LGG_VT_U64);
    /* one the spec does not allow (validate rejects it) only with --force */
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", in, "llama.context_length=i64:8192", "-o", out, NULL), 1);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", in, "--force", "llama.context_length=i64:8192", "-o", out, NULL), 0);
    CHECK(key_type(out, "llama.context_length") == LGG_VT_I64);
    /* new keys: i32 and f32 as llama-quantize's --override-kv writes them;
     * a standard key the spec types gets the spec's type */
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", in, "x.count=int:3", "x.scale=float:0.5",
                                "llama.expert_count=int:4", "-o", out, NULL),
               0);
    CHECK(key_type(out, "x.count") == LGG_VT_I32 && key_type(out, "x.scale") == LGG_VT_F32);
    CHECK(key_type(out, "llama.expert_count") == LGG_VT_U32);
    /* a key its own validator would reject: refused unless --force */
    unlink(out);
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "set", in, "bad key=str:x", "-o", out, NULL), 1);
    CHECK(access(out, F_OK) != 0);
    free(e);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "set", "--force", in, "bad key=str:x", "-o", out, NULL), 0);
    CHECK(key_type(out, "bad key") == LGG_VT_STRING);
}

TEST(cli_number_text) {
    if (!need_models()) return; /* the models, or their stand-ins (standin.h) */
    const char *in = scratch("n.gguf"), *out = scratch("n-out.gguf");
    REQUIRE(file_copy(model_path(DENSE), in));
    static const struct {
        const char *assign, *text;
    } C[] = {
        {"n.a=f64:-0.0", "-0.0"},       {"n.b=f64:10000", "10000.0"}, {"n.c=f64:500000", "500000.0"},
        {"n.d=f64:-10", "-10.0"},       {"n.e=f64:1e-5", "0.00001"},  {"n.f=f64:1e-6", "1e-06"},
        {"n.g=f64:1e16", "1e+16"},      {"n.h=f64:0.1", "0.1"},       {"n.i=f32:0.1", "0.1"},
        {"n.j=f64:123.456", "123.456"}, {"n.k=f32:1e-45", "1e-45"},   {"n.l=f64:9999999999999998", "9999999999999998.0"},
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        char key[8];
        snprintf(key, sizeof key, "%.3s", C[i].assign);
        char *o = NULL, want[64];
        REQUIRE(run_gguf_capture(NULL, NULL, "set", in, C[i].assign, "-o", out, NULL) == 0);
        CHECK_EQ_U(run_gguf_capture(&o, NULL, "get", out, key, NULL), 0);
        snprintf(want, sizeof want, "%s\n", C[i].text);
        CHECK_STR(o, want);
        free(o);
        CHECK_EQ_U(run_gguf_capture(&o, NULL, "get", "--json", out, key, NULL), 0);
        CHECK_STR(o, want);
        free(o);
    }
}

TEST(cli_copy_keeps_byte_order_and_version) {
    if (!need_models()) return; /* the models, or their stand-ins (standin.h) */
    static const char *const IN[] = {"golden/llama-quantize/pub-dense-Q8_0.BE.gguf",
                                     "golden/llama-quantize/pub-dense-f16.BE.gguf"};
    for (int i = 0; i < 2; i++) {
        const char *out = scratch("be-copy.gguf");
        CHECK_EQ_U(run_gguf_capture(NULL, NULL, "copy", model_path(IN[i]), out, NULL), 0);
        CHECKF(same_bytes(out, model_path(IN[i])), "%s: a canonical big-endian copy must be identical", IN[i]);
        CHECK_EQ_U(run_gguf_capture(NULL, NULL, "copy", "--endian", "little", model_path(IN[i]), out, NULL), 0);
        lgg_file *f = NULL;
        REQUIRE(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
        CHECK(lgg_file_endian(f) == LGG_LITTLE_ENDIAN);
        lgg_close(f);
    }
}

/* Run gguf with stdout on a pseudo-terminal; returns the exit status. */
static int run_on_tty(char *const argv[], char *msg, size_t cap) {
    int master, slave;
    if (openpty(&master, &slave, NULL, NULL, NULL) != 0) return -2;
    int ep[2];
    if (pipe(ep) != 0) return -2;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, slave, 1);
    posix_spawn_file_actions_adddup2(&fa, ep[1], 2);
    pid_t pid;
    extern char **environ;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(slave);
    close(ep[1]);
    if (rc != 0) return -2;
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(ep[0], msg + n, cap - 1 - n)) > 0) n += (size_t)r;
    msg[n] = 0;
    int st;
    waitpid(pid, &st, 0);
    close(ep[0]);
    close(master);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(cli_cat_refuses_a_terminal_and_writes_npy) {
    if (!need_models()) return;
    char tool[1024], msg[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    const char *in = ref_path("golden/ggml-types/type-q4_0.gguf");
    char *argv[] = {tool, "cat", (char *)in, "gauss.weight", NULL};
    char in_copy[1024];
    snprintf(in_copy, sizeof in_copy, "%s", in);
    argv[2] = in_copy;
    int st = run_on_tty(argv, msg, sizeof msg);
    if (st == -2) {
        test_skip("no pseudo-terminal here");
        return;
    }
    CHECK_EQ_U(st, 1);
    CHECK_STR(msg, "gguf cat: refusing to write binary data to a terminal (use -o OUT, a pipe, or --force)\n");
    /* npy: the header names the dtype and NumPy's shape; the data is the f32 values */
    const char *npy = scratch("t.npy"), *f32 = scratch("t.f32");
    REQUIRE(run_gguf_capture(NULL, NULL, "cat", "--as", "npy", "-o", npy, in_copy, "gauss.weight", NULL) == 0);
    REQUIRE(run_gguf_capture(NULL, NULL, "cat", "--as", "f32", "-o", f32, in_copy, "gauss.weight", NULL) == 0);
    size_t nn, nf;
    unsigned char *a = read_file(npy, &nn), *b = read_file(f32, &nf);
    REQUIRE(a && b && nn > 10);
    CHECK(!memcmp(a, "\x93NUMPY\x01\x00", 8));
    size_t hl = (size_t)a[8] | (size_t)a[9] << 8;
    CHECK((10 + hl) % 64 == 0 && a[10 + hl - 1] == '\n');
    const char *want = "{'descr': '<f4', 'fortran_order': False, 'shape': (8, 512), }";
    CHECK(hl >= strlen(want) && !memcmp(a + 10, want, strlen(want)));
    CHECK(nn == 10 + hl + nf && !memcmp(a + 10 + hl, b, nf));
    free(a);
    free(b);
    /* F16 keeps its own dtype and bytes */
    REQUIRE(run_gguf_capture(NULL, NULL, "cat", "--as", "npy", "-o", npy, ref_path("golden/ggml-types/type-f16.gguf"),
                             "edge.weight", NULL) == 0);
    a = read_file(npy, &nn);
    REQUIRE(a && nn > 80);
    CHECK(memmem(a, nn, "'descr': '<f2'", 14) != NULL);
    CHECK(nn == 10 + ((size_t)a[8] | (size_t)a[9] << 8) + 512 * 8 * 2);
    free(a);
}

/* Without OUT the output is named as `gguf name` names it (the naming
 * convention, as convert names its outputs), beside IN, the bytes
 * llama-quantize writes; a file of that name is replaced only with -f, a
 * given OUT always. */
TEST(cli_quantize_default_output_name) {
    if (!need_models()) return; /* the models, or their stand-ins (standin.h) */
    const char *in = scratch("q-in.gguf"), *out = scratch("tiny-llama-11-3.7M-Q8_0.gguf");
    REQUIRE(file_copy(model_path(DENSE), in));
    unlink(out);
    /* llama-quantize's Q8_0 of the model; of a stand-in, its Q8_0 under a given name */
    char q8[1200]; /* model_path's buffer is reused by the calls below */
    snprintf(q8, sizeof q8, "%s", model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
    if (!shared_present()) {
        snprintf(q8, sizeof q8, "%s", scratch("q8-named.gguf"));
        CHECK_EQ_U(run_gguf_capture(NULL, NULL, "quantize", "-q", in, q8, "Q8_0", NULL), 0);
    }
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "quantize", "-q", in, "Q8_0", NULL), 0);
    CHECK(same_bytes(out, q8));
    char *so = NULL, *se = NULL;
    CHECK_EQ_U(run_gguf_capture(&so, NULL, "name", out, NULL), 0);
    CHECK_STR(so, "tiny-llama-11-3.7M-Q8_0.gguf\n");
    free(so);
    /* again: refused, the file untouched; with -f (and THREADS) replaced */
    REQUIRE(file_copy(model_path(DENSE), out));
    CHECK_EQ_U(run_gguf_capture(&so, &se, "quantize", "-q", in, "Q8_0", NULL), 1);
    char want[1200];
    snprintf(want, sizeof want, "gguf quantize: %s: exists (the default output name): -f replaces it, or give OUT\n", out);
    CHECK_STR(se, want);
    CHECK(same_bytes(out, model_path(DENSE)));
    free(so), free(se);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "quantize", "-q", "-f", in, "Q8_0", "2", NULL), 0);
    CHECK(same_bytes(out, q8));
    /* OUT given: replaced without -f, as before */
    REQUIRE(file_copy(model_path(DENSE), out));
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "quantize", "-q", in, out, "Q8_0", NULL), 0);
    CHECK(same_bytes(out, q8));
    unlink(out);
    unlink(in);
    /* --keep-split: the set's shards take the name, and none is replaced */
    static const char *const SH[] = {"pub-dense-Q8_0-split-00001-of-00003.gguf", "pub-dense-Q8_0-split-00002-of-00003.gguf",
                                     "pub-dense-Q8_0-split-00003-of-00003.gguf"};
    char src[600];
    for (int i = 0; i < 3; i++) {
        snprintf(src, sizeof src, "golden/llama-quantize/%s", SH[i]);
        REQUIRE(file_copy(model_path(src), scratch(SH[i])));
    }
    const char *q2 = scratch("tiny-llama-11-3.7M-Q4_0-00002-of-00003.gguf");
    unlink(q2);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "quantize", "-q", "--keep-split", "--allow-requantize", scratch(SH[0]), "Q4_0",
                                NULL), 0);
    CHECK(access(q2, F_OK) == 0);
    CHECK_EQ_U(run_gguf_capture(NULL, &se, "quantize", "-q", "--keep-split", "--allow-requantize", scratch(SH[0]),
                                "Q4_0", NULL), 1);
    CHECK(se && strstr(se, "tiny-llama-11-3.7M-Q4_0-00001-of-00003.gguf: exists (the default output name)"));
    free(se);
    for (int i = 0; i < 3; i++) {
        char n[64];
        snprintf(n, sizeof n, "tiny-llama-11-3.7M-Q4_0-%05d-of-00003.gguf", i + 1);
        unlink(scratch(n));
        unlink(scratch(SH[i]));
    }
}

/* Unicode's example of maximal subparts (chapter 3, table 3-8): one U+FFFD
 * per ill-formed subsequence, not one per byte. */
TEST(utf8_decode_maximal_subparts) {
    static const unsigned char S[] = {0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64};
    static const uint32_t WANT[] = {0x61, LGG_UTF8_INVALID, LGG_UTF8_INVALID, LGG_UTF8_INVALID, 0x62,
                                    LGG_UTF8_INVALID, 0x63, LGG_UTF8_INVALID, LGG_UTF8_INVALID, 0x64};
    size_t i = 0, k = 0;
    while (i < sizeof S && k < 10) {
        uint32_t cp;
        size_t n = lgg_utf8_decode(S + i, sizeof S - i, &cp);
        REQUIRE(n > 0);
        CHECKF(cp == WANT[k], "item %zu: %x != %x", k, cp, WANT[k]);
        i += n, k++;
    }
    CHECK(i == sizeof S && k == 10);
    /* overlongs, surrogates, beyond U+10FFFF: one error each for the lead */
    uint32_t cp;
    CHECK(lgg_utf8_decode("\xC0\xAF", 2, &cp) == 1 && cp == LGG_UTF8_INVALID);
    CHECK(lgg_utf8_decode("\xED\xA0\x80", 3, &cp) == 1 && cp == LGG_UTF8_INVALID);
    CHECK(lgg_utf8_decode("\xF4\x90\x80\x80", 4, &cp) == 1 && cp == LGG_UTF8_INVALID);
    CHECK(lgg_utf8_decode("\xF0\x9F\x98", 3, &cp) == 3 && cp == LGG_UTF8_INVALID);
    CHECK(lgg_utf8_decode("\xF0\x9F\x98\x80", 4, &cp) == 4 && cp == 0x1F600);
    CHECK(lgg_utf8_decode("\xEF\xBF\xBD", 3, &cp) == 3 && cp == 0xFFFD);
    CHECK(lgg_utf8_decode("", 0, &cp) == 0);
}

TEST(cli_json_replaces_ill_formed_utf8_once_per_subpart) {
    if (!need_models()) return; /* the models, or their stand-ins (standin.h) */
    const char *in = scratch("u.gguf"), *out = scratch("u-out.gguf"), *val = scratch("u.txt");
    REQUIRE(file_copy(model_path(DENSE), in));
    FILE *f = fopen(val, "wb");
    REQUIRE(f);
    fwrite("a\xF1\x80\x80\xE1\x80\xC2" "b", 1, 8, f);
    fclose(f);
    char assign[1200];
    snprintf(assign, sizeof assign, "x.s=str@%s", val);
    REQUIRE(run_gguf_capture(NULL, NULL, "set", "--force", in, assign, "-o", out, NULL) == 0);
    char *o = NULL;
    CHECK_EQ_U(run_gguf_capture(&o, NULL, "get", "--json", out, "x.s", NULL), 0);
    CHECK_STR(o, "\"a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD" "b\"\n");
    free(o);
}

TEST(cli_copy_drops_repeated_keys_unless_asked) {
    const char *in = need_model("corpus/llama.cpp/ggml-vocab-dbrx@ae6d2c32.gguf"), *out = scratch("dup-copy.gguf");
    if (!in) return;
    char *e = NULL;
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "copy", in, out, NULL), 0);
    CHECK(e && strstr(e, "warning: left out a repeated key '") != NULL && strstr(e, "--keep-duplicates") != NULL);
    free(e);
    lgg_file *f = NULL, *g = NULL;
    REQUIRE(lgg_open_file(in, NULL, &f, NULL) == LGG_OK);
    REQUIRE(lgg_open_file(out, NULL, &g, NULL) == LGG_OK);
    CHECK(lgg_kv_count(g) < lgg_kv_count(f));
    /* every key once: what ggml needs to load it */
    for (uint64_t i = 0; i < lgg_kv_count(g); i++) {
        const lgg_kv *kv = lgg_kv_at(g, i);
        CHECK(lgg_find_key(g, kv->key.ptr, kv->key.len) == (int64_t)i);
    }
    lgg_close(g);
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "copy", "--keep-duplicates", in, out, NULL), 0);
    CHECK_STR(e, "");
    free(e);
    REQUIRE(lgg_open_file(out, NULL, &g, NULL) == LGG_OK);
    CHECK(lgg_kv_count(g) == lgg_kv_count(f));
    lgg_close(g);
    lgg_close(f);
}

/* SIGINT/SIGTERM in the middle of a write remove the temporary file. */
TEST(cli_signal_leaves_no_temporary_file) {
    if (!need_models()) return; /* the models, or their stand-ins (standin.h) */
    const char *dir = scratch("sig");
    mkdir(dir, 0700);
    char in[1200], out[1200];
    snprintf(in, sizeof in, "%s/in.gguf", dir);
    snprintf(out, sizeof out, "%s/out.gguf", dir);
    REQUIRE(file_copy(model_path("golden/llama-quantize/pub-moe-f32.gguf"), in));
    char tool[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    int caught = 0;
    for (int attempt = 0; attempt < 20 && !caught; attempt++) {
        pid_t pid = fork();
        if (pid == 0) {
            int dn = open("/dev/null", O_WRONLY);
            dup2(dn, 1), dup2(dn, 2);
            execl(tool, tool, "quantize", "-q", in, out, "Q4_K_M", "1", (char *)NULL);
            _exit(127);
        }
        /* wait for the temporary file to appear, then interrupt */
        for (int spin = 0; spin < 20000 && !caught; spin++) {
            DIR *d = opendir(dir);
            struct dirent *e;
            while (d && (e = readdir(d)))
                if (strstr(e->d_name, ".tmp")) caught = 1;
            if (d) closedir(d);
            if (!caught) usleep(50);
        }
        kill(pid, attempt % 2 ? SIGINT : SIGTERM);
        int st;
        waitpid(pid, &st, 0);
        if (caught) CHECK(WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGTERM));
        unlink(out);
    }
    if (!caught) {
        test_skip("the write finished before it could be interrupted");
        return;
    }
    DIR *d = opendir(dir);
    REQUIRE(d);
    struct dirent *e;
    int left = 0;
    while ((e = readdir(d)))
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) left++;
    closedir(d);
    CHECK_EQ_U(left, 0);
}

/* A download cut inside the header (issue 37): info, stats, quantize and
 * validate say the file is truncated, and keep the offset the reader gives. */
TEST(cli_header_cut_says_truncated) {
    size_t n;
    unsigned char *b = read_file("tests/data/truncated-Q8_0.gguf", &n);
    REQUIRE(b && n > 1355);
    const char *cut = scratch("cut.gguf");
    FILE *fp = fopen(cut, "wb");
    REQUIRE(fp != NULL);
    fwrite(b, 1, 1355, fp); /* 6 bytes of a string's 8-byte length */
    fclose(fp);
    free(b);
    static const char *const cmds[] = {"info", "stats", "quantize"};
    char want[2048], *e = NULL, *o = NULL;
    for (size_t k = 0; k < 3; k++) {
        snprintf(want, sizeof want,
                 "gguf %s: %s: the file is truncated: string at offset 1349 needs 8 bytes but the file has 6 left\n",
                 cmds[k], cut);
        CHECK_EQ_U(run_gguf_capture(NULL, &e, cmds[k], cut, k == 2 ? scratch("q.gguf") : NULL, "Q4_0", NULL), 1);
        CHECK_STR(e, want);
        free(e);
    }
    snprintf(want, sizeof want,
             "%s: offset 1349: error: the file is truncated: string at offset 1349 needs 8 bytes but the file has 6 "
             "left\n", cut);
    CHECK_EQ_U(run_gguf_capture(&o, NULL, "validate", cut, NULL), 1);
    CHECK_STR(o, want);
    free(o);
}
