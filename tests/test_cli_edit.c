/* test_cli_edit.c -- the writing subcommands of the gguf tool (copy, set,
 * get, rm), run as a user would, plus a crash test of in-place editing. */
#include "test.h"
#include "standin.h"
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
    if (!need_models()) return;
    const char *le = model_path("golden/llama-quantize/pub-dense-f16.gguf");
    char lebuf[600], bebuf[600];
    snprintf(lebuf, sizeof lebuf, "%s", le);
    snprintf(bebuf, sizeof bebuf, "%s", model_path("golden/llama-quantize/pub-dense-f16.BE.gguf"));
    const char *be = tmp_path("be.gguf"), *back = tmp_path("back.gguf");
    CHECK(run_gguf(NULL, 0, "copy", lebuf, be, "--endian", "big", NULL) == 0);
    CHECK(same_file_bytes(be, bebuf, 0));
    CHECK(run_gguf(NULL, 0, "copy", be, back, "--endian", "little", NULL) == 0);
    CHECK(same_file_bytes(back, lebuf, 0));
    unlink(be);
    unlink(back);
}

TEST(cli_copy_q8_0_big_endian_header_matches_gguf_py) {
    if (!need_models()) return;
    /* pub-dense-Q8_0.BE.gguf is known to be corrupt: gguf-py's converter
     * swapped the scales of only some rows.  Only its header, metadata and
     * tensor infos (everything before the data section) are a reference. */
    char src[600], ref[600];
    snprintf(src, sizeof src, "%s", model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
    snprintf(ref, sizeof ref, "%s", model_path("golden/llama-quantize/pub-dense-Q8_0.BE.gguf"));
    const char *be = tmp_path("q8be.gguf");
    CHECK(run_gguf(NULL, 0, "copy", src, be, "--endian", "big", NULL) == 0);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(ref, NULL, &f, NULL) == LGG_OK);
    CHECK(same_file_bytes(be, ref, (size_t)lgg_file_data_offset(f)));
    lgg_close(f);
    unlink(be);
}

TEST(cli_copy_usage_and_refusals) {
    if (!need_models()) return;
    char src[600];
    snprintf(src, sizeof src, "%s", ref_path("golden/ggml-types/type-f32.gguf"));
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

TEST(cli_set_get_rm_every_type_in_place_and_with_output) {
    if (!need_models()) return;
    static const struct { const char *assign, *key, *text, *json; uint32_t vt; } C[] = {
        {"k.u8=u8:255", "k.u8", "255", "255", LGG_VT_U8},
        {"k.i8=i8:-128", "k.i8", "-128", "-128", LGG_VT_I8},
        {"k.u16=u16:65535", "k.u16", "65535", "65535", LGG_VT_U16},
        {"k.i16=i16:-32768", "k.i16", "-32768", "-32768", LGG_VT_I16},
        {"k.u32=u32:4294967295", "k.u32", "4294967295", "4294967295", LGG_VT_U32},
        {"k.i32=i32:-2147483648", "k.i32", "-2147483648", "-2147483648", LGG_VT_I32},
        {"k.u64=u64:18446744073709551615", "k.u64", "18446744073709551615", "18446744073709551615", LGG_VT_U64},
        {"k.i64=i64:-9223372036854775808", "k.i64", "-9223372036854775808", "-9223372036854775808", LGG_VT_I64},
        {"k.f32=f32:0.1", "k.f32", "0.1", "0.1", LGG_VT_F32},
        {"k.f64=f64:1e300", "k.f64", "1e+300", "1e+300", LGG_VT_F64},
        {"k.b=bool:true", "k.b", "true", "true", LGG_VT_BOOL},
        {"k.s=str:hello world", "k.s", "hello world", "\"hello world\"", LGG_VT_STRING},
        {"k.a=arr[i16]:1,-2,3", "k.a", "[1, -2, 3]", "{\"type\": \"i16\", \"items\": [1, -2, 3]}", LGG_VT_ARRAY},
        {"k.as=arr[str]:a\\,b,c\\\\", "k.as", "[\"a,b\", \"c\\\\\"]", "{\"type\": \"string\", \"items\": [\"a,b\", \"c\\\\\"]}", LGG_VT_ARRAY},
        {"k.e=arr[f64]:", "k.e", "[]", "{\"type\": \"f64\", \"items\": []}", LGG_VT_ARRAY},
    };
    char src[600];
    snprintf(src, sizeof src, "%s", ref_path("golden/ggml-types/type-q4_0.gguf"));
    const char *work = tmp_path("edit.gguf"), *out = tmp_path("edit-out.gguf");
    REQUIRE(file_copy(src, work));
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        /* with -o: the input is not touched */
        CHECK(run_gguf(NULL, 0, "set", work, C[i].assign, "-o", out, NULL) == 0);
        CHECK(same_file_bytes(work, src, 0));
        char got[512];
        CHECKF(run_gguf(got, sizeof got, "get", out, C[i].key, NULL) == 0 && !strncmp(got, C[i].text, strlen(C[i].text)) &&
                   got[strlen(C[i].text)] == '\n',
               "%s: got '%s'", C[i].key, got);
        CHECKF(run_gguf(got, sizeof got, "get", out, C[i].key, "--json", NULL) == 0 &&
                   !strncmp(got, C[i].json, strlen(C[i].json)),
               "%s: json '%s'", C[i].key, got);
        lgg_file *f = NULL;
        REQUIRE(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
        lgg_value v;
        CHECK(lgg_get(f, C[i].key, &v) == LGG_OK && v.type == C[i].vt);
        lgg_close(f);
    }
    /* all at once, in place; then rename and remove */
    CHECK(run_gguf(NULL, 0, "set", work, C[0].assign, C[1].assign, C[2].assign, C[3].assign, C[4].assign, C[5].assign,
                   C[6].assign, C[7].assign, C[8].assign, C[9].assign, C[10].assign, C[11].assign, C[12].assign,
                   C[13].assign, C[14].assign, NULL) == 0);
    CHECK(run_gguf(NULL, 0, "set", work, "--rename", "k.s=k.renamed", NULL) == 0);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(work, NULL, &f, NULL) == LGG_OK);
    CHECK(lgg_kv_count(f) == 4 + 15);
    CHECK(lgg_find_key_cstr(f, "k.renamed") == 4 + 11 && lgg_find_key_cstr(f, "k.s") < 0);
    lgg_close(f);
    CHECK(run_gguf(NULL, 0, "rm", work, "k.u8", "k.renamed", "k.as", NULL) == 0);
    CHECK(run_gguf(NULL, 0, "rm", work, "k.u8", NULL) == 1);
    CHECK(run_gguf(NULL, 0, "get", work, "k.u8", NULL) == 1);
    REQUIRE(lgg_open_file(work, NULL, &f, NULL) == LGG_OK);
    CHECK(lgg_kv_count(f) == 4 + 12);
    lgg_close(f);
    /* removing everything we added gives back the original bytes */
    CHECK(run_gguf(NULL, 0, "rm", work, "k.i8", "k.u16", "k.i16", "k.u32", "k.i32", "k.u64", "k.i64", "k.f32", "k.f64",
                   "k.b", "k.a", "k.e", NULL) == 0);
    CHECK(same_file_bytes(work, src, 0));
    /* bad text: usage errors, nothing written */
    CHECK(run_gguf(NULL, 0, "set", work, "x=u8:300", NULL) == 2);
    CHECK(run_gguf(NULL, 0, "set", work, "x=i8:-129", NULL) == 2);
    CHECK(run_gguf(NULL, 0, "set", work, "x=bool:maybe", NULL) == 2);
    CHECK(run_gguf(NULL, 0, "set", work, "x=q7:1", NULL) == 2);
    CHECK(run_gguf(NULL, 0, "set", work, "x=arr[u8]:1,256", NULL) == 2);
    CHECK(same_file_bytes(work, src, 0));
    /* str@FILE */
    const char *txt = tmp_path("tmpl.txt");
    FILE *t = fopen(txt, "wb");
    REQUIRE(t != NULL);
    fwrite("{{ a }}\n\0b", 1, 10, t);
    fclose(t);
    char arg[700];
    snprintf(arg, sizeof arg, "tokenizer.chat_template=str@%s", txt);
    CHECK(run_gguf(NULL, 0, "set", work, arg, NULL) == 0);
    REQUIRE(lgg_open_file(work, NULL, &f, NULL) == LGG_OK);
    lgg_value v;
    CHECK(lgg_get(f, "tokenizer.chat_template", &v) == 0 && v.count == 10 && !memcmp(v.data, "{{ a }}\n\0b", 10));
    lgg_close(f);
    unlink(txt);
    unlink(work);
    unlink(out);
}

/* KEY=VALUE without TYPE: an existing key keeps its type (as the web
 * editor does), a standard key takes the spec's; a new key is a usage error
 * that shows the typed forms. */
TEST(cli_set_without_type_keeps_the_key_type) {
    if (!need_models()) return; /* the model, or its stand-in (standin.h) */
    const char *work = tmp_path("untyped.gguf"), *out = tmp_path("untyped-out.gguf");
    REQUIRE(file_copy(model_path("golden/llama-quantize/pub-dense-f16.gguf"), work));
    CHECK_EQ_U(run_gguf(NULL, 0, "set", work, "general.name=Another: the sequel", "llama.block_count=7",
                        "tokenizer.ggml.scores=0.5,-1", "general.author=a@b", "-o", out, NULL), 0);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
    lgg_value v;
    lgg_str s = {NULL, 0};
    CHECK(lgg_get(f, "general.name", &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK && s.len == 19 &&
          !memcmp(s.ptr, "Another: the sequel", 19));
    CHECK(lgg_get(f, "llama.block_count", &v) == LGG_OK && v.type == LGG_VT_U32 && *(const uint32_t *)v.data == 7);
    CHECK(lgg_get(f, "tokenizer.ggml.scores", &v) == LGG_OK && v.type == LGG_VT_ARRAY && v.elem_type == LGG_VT_F32 &&
          v.count == 2);
    CHECK(lgg_get(f, "general.author", &v) == LGG_OK && v.type == LGG_VT_STRING); /* a standard key: str */
    lgg_close(f);
    /* a bare value that does not fit the key's type, and a new key */
    char *so = NULL, *se = NULL;
    CHECK_EQ_U(run_gguf_capture(&so, &se, "set", work, "llama.block_count=seven", "-o", out, NULL), 1);
    CHECK(se && strstr(se, "llama.block_count: 'seven' is not an unsigned integer"));
    free(so), free(se);
    CHECK_EQ_U(run_gguf_capture(&so, &se, "set", work, "x.new=5", "-o", out, NULL), 2);
    CHECK_STR(se, "gguf set: x.new: no TYPE: for a new key; a new key is written x.new=TYPE:VALUE (TYPE u8 i8 u16 "
                  "i16 u32 i32 u64 i64 f32 f64 bool str, or int, float), x.new=str@PATH or x.new=arr[TYPE]:A,B,C\n"
                  "usage: gguf set [-o OUT] [--force] [--keep-duplicates] FILE KEY=[TYPE:]VALUE... "
                  "[--rename OLD=NEW]...\n");
    free(so), free(se);
    CHECK(same_file_bytes(work, model_path("golden/llama-quantize/pub-dense-f16.gguf"), 0));
    unlink(work);
    unlink(out);
}

/* Kill an editor at random moments: the file must always be the original
 * or the complete edited one. */
TEST(cli_edit_survives_sigkill_at_random_moments) {
    if (!need_models()) return;
    char src[600];
    snprintf(src, sizeof src, "%s", ref_path("golden/ggml-types/type-q6_K.gguf"));
    const char *work = tmp_path("kill.gguf");
    REQUIRE(file_copy(src, work));
    char tool[512];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    srand(12345);
    int seen_new = 0, seen_old = 0;
    for (int round = 0; round < 40; round++) {
        pid_t pid = fork();
        if (pid == 0) {
            int dn = open("/dev/null", O_WRONLY);
            dup2(dn, 2);
            /* alternate between an in-place edit (same size) and a full rewrite (grows) */
            for (int k = 0;; k++) {
                pid_t c = fork();
                if (c == 0) {
                    if (k % 2) execl(tool, tool, "set", work, "general.quantization_version=u32:2", "x.pad=str:", (char *)NULL);
                    else execl(tool, tool, "set", work, "general.quantization_version=u32:5", "x.pad=str:0123456789abcdef0123456789abcdef0123", (char *)NULL);
                    _exit(127);
                }
                int st;
                waitpid(c, &st, 0);
            }
        }
        usleep((useconds_t)(rand() % 20000));
        kill(pid, SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        usleep(20000); /* the grandchild editor may finish its last run */
        lgg_file *f = NULL;
        lgg_error e;
        CHECKF(lgg_open_file(work, NULL, &f, &e) == LGG_OK, "round %d: %s", round, e.message);
        if (!f) continue;
        lgg_report *r = NULL;
        CHECK(lgg_validate(f, NULL, &r) == LGG_OK);
        CHECK(lgg_report_count_severity(r, LGG_SEV_ERROR) == 0);
        lgg_report_free(r);
        lgg_value v;
        uint32_t q = 0;
        CHECK(lgg_get(f, "general.quantization_version", &v) == 0 && lgg_value_u32(&v, &q) == 0);
        CHECKF(q == 2 || q == 5, "round %d: quantization_version %u", round, q);
        lgg_value p;
        if (lgg_get(f, "x.pad", &p) == 0) CHECK((q == 2 && p.count == 0) || (q == 5 && p.count == 36));
        if (q == 5) seen_new++;
        else seen_old++;
        /* tensor data never changes */
        lgg_file *g = NULL;
        REQUIRE(lgg_open_file(src, NULL, &g, NULL) == LGG_OK);
        for (uint64_t i = 0; i < lgg_tensor_count(g); i++)
            CHECK(!memcmp(lgg_tensor_at(g, i)->data, lgg_tensor_at(f, i)->data, lgg_tensor_at(g, i)->size));
        lgg_close(g);
        lgg_close(f);
    }
    CHECK(seen_new + seen_old == 40);
    /* no temporary file is left behind for long: a killed editor may leave
       one, and its name says what it is */
    unlink(work);
}
