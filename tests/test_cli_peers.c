/* test_cli_peers.c -- what a differential run against other GGUF
 * implementations found (issue #28): the padding after a header without
 * tensors, repeated keys in every writer, and inspection of files whose
 * tensor table is bad. */
#include "hostile.h"
#include "standin.h"
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

#define DBRX "corpus/llama.cpp/ggml-vocab-dbrx@ae6d2c32.gguf"
#define SPM "corpus/llama.cpp/ggml-vocab-llama-spm@658295a5.gguf"

static bool have(const char *path) {
    if (access(path, R_OK) == 0) return true;
    test_skip("%s is missing", path);
    return false;
}

static uint64_t kv_count(const char *path) {
    lgg_file *f = NULL;
    uint64_t n = UINT64_MAX;
    if (lgg_open_file(path, NULL, &f, NULL) == LGG_OK) n = lgg_kv_count(f);
    lgg_close(f);
    return n;
}

/* gguf copy pads a header without tensors to the alignment, as ggml does;
 * validate took that padding for trailing bytes. */
TEST(cli_copy_of_a_tensorless_file_validates_without_warning) {
    char in[1024];
    snprintf(in, sizeof in, "%s", shared_path(SPM));
    if (!have(in)) return;
    const char *out = scratch_path("vocab-copy.gguf");
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "copy", in, out, NULL), 0);
    size_t n = 0;
    free(read_file(out, &n));
    CHECK(n % 32 == 0); /* padded */
    char *o = NULL;
    CHECK_EQ_U(run_gguf_capture(&o, NULL, "validate", "--json", out, NULL), 0);
    CHECKF(o && !strstr(o, "bytes after") && strstr(o, "\"warnings\": 0,"), "%s", o ? o : "");
    free(o);
    unlink(out);
}

/* set and rm name the pairs of a repeated key they leave out, as copy does,
 * and keep them with --keep-duplicates. */
TEST(cli_set_and_rm_name_the_repeated_keys_they_leave_out) {
    char in[1024], want[2048];
    snprintf(in, sizeof in, "%s", shared_path(DBRX));
    if (!have(in)) return;
    const char *out = scratch_path("dbrx-set.gguf");
    const uint64_t n_in = kv_count(in);
    static const char *const cmds[] = {"set", "rm"};
    for (int k = 0; k < 2; k++) {
        const char *edit = k ? "general.name" : "general.name=str:x";
        const uint64_t n_out = k ? n_in - 2 : n_in - 1; /* rm takes general.name out too */
        char *e = NULL;
        CHECK_EQ_U(run_gguf_capture(NULL, &e, cmds[k], in, "-o", out, edit, NULL), 0);
        snprintf(want, sizeof want,
                 "gguf %s: %s: warning: left out a repeated key 'general.file_type' (at byte 561); "
                 "--keep-duplicates keeps it\n",
                 cmds[k], in);
        CHECK_STR(e, want);
        free(e);
        CHECK_EQ_U(kv_count(out), n_out);
        CHECK_EQ_U(run_gguf_capture(NULL, &e, cmds[k], "--keep-duplicates", in, "-o", out, edit, NULL), 0);
        CHECK_STR(e, "");
        free(e);
        CHECK_EQ_U(kv_count(out), n_out + 1);
    }
    /* copy says it the same way */
    char *e = NULL;
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "copy", in, out, NULL), 0);
    snprintf(want, sizeof want,
             "gguf copy: %s: warning: left out a repeated key 'general.file_type' (at byte 561); "
             "--keep-duplicates keeps it\n",
             in);
    CHECK_STR(e, want);
    free(e);
    unlink(out);
}

/* A tensor whose data would end past 2^64: dump, info and tensors show the
 * header with the error on stderr and exit 1; data commands refuse. */
TEST(cli_inspection_shows_a_header_whose_data_lies_nowhere) {
    const hostile_case *h = hostile_find("offset-plus-size-wraps");
    REQUIRE(h != NULL);
    buf b = {0};
    h->build(&b);
    const char *path = scratch_path("wraps.gguf");
    FILE *fp = fopen(path, "wb");
    REQUIRE(fp != NULL);
    fwrite(b.p, 1, b.n, fp);
    fclose(fp);
    buf_free(&b);
    lgg_error e0;
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(path, NULL, &f, &e0) == LGG_ERR_TENSOR_BOUNDS);
    char want_err[1024];
    static const char *const inspect[] = {"dump", "info", "tensors"};
    for (int k = 0; k < 3; k++) {
        char *o = NULL, *e = NULL;
        CHECK_EQ_U(run_gguf_capture(&o, &e, inspect[k], path, NULL), 1);
        /* the message says "at offset N" itself: no "(at byte N)" after it */
        snprintf(want_err, sizeof want_err, "gguf %s: %s: %s\n", inspect[k], path, e0.message);
        CHECK_STR(e, want_err);
        /* the header's own offset, 2^64 - data offset - 32 */
        CHECKF(o && (k == 1 ? strstr(o, "tensors:        1") != NULL : strstr(o, "18446744073709551520") != NULL),
               "%s: %s", inspect[k], o ? o : "");
        free(o);
        free(e);
    }
    const char *out = scratch_path("wraps-copy.gguf");
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "cat", path, "w", NULL), 1);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "stats", path, NULL), 1);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "hash", path, NULL), 1);
    CHECK_EQ_U(run_gguf_capture(NULL, NULL, "copy", path, out, NULL), 1);
    CHECK(access(out, F_OK) != 0);
    unlink(path);
}

/* quantize keeps a repeated key's first pair, as every writer does, and
 * names the one it leaves out (it used to write the last value, silently). */
TEST(cli_quantize_keeps_the_first_pair_of_a_repeated_key) {
    char src[1024]; /* the model, or its stand-in (standin.h): the same header */
    if (!need_models()) return;
    snprintf(src, sizeof src, "%s", model_path("golden/llama-quantize/pub-dense-f16.gguf"));
    if (!have(src)) return;
    size_t n = 0;
    unsigned char *b = read_file(src, &n);
    REQUIRE(b != NULL);
    /* tokenizer.ggml.eos_token_id (2) becomes a second tokenizer.ggml.bos_token_id (1 first) */
    static const char eos[] = "tokenizer.ggml.eos_token_id";
    unsigned char *at = memmem(b, n, eos, sizeof eos - 1);
    REQUIRE(at != NULL);
    at[15] = 'b';
    const char *in = scratch_path("dup-bos.gguf"), *out = scratch_path("dup-bos-q8.gguf");
    FILE *fp = fopen(in, "wb");
    REQUIRE(fp != NULL);
    fwrite(b, 1, n, fp);
    fclose(fp);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(in, NULL, &f, NULL) == LGG_OK);
    const uint64_t dup_at = lgg_kv_at(f, (uint64_t)lgg_kv_count(f) - 2)->offset;
    lgg_close(f);
    char *e = NULL, want[2048];
    CHECK_EQ_U(run_gguf_capture(NULL, &e, "quantize", in, out, "Q8_0", NULL), 0);
    snprintf(want, sizeof want,
             "gguf quantize: %s: warning: left out a repeated key 'tokenizer.ggml.bos_token_id' (at byte %llu)\n", in,
             (unsigned long long)dup_at);
    CHECKF(e && !strncmp(e, want, strlen(want)), "%s", e ? e : "");
    free(e);
    REQUIRE(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
    lgg_value v;
    uint64_t x = 0;
    CHECK(lgg_get(f, "tokenizer.ggml.bos_token_id", &v) == LGG_OK && lgg_value_uint(&v, &x) == LGG_OK && x == 1);
    CHECK(lgg_find_key_cstr(f, "tokenizer.ggml.eos_token_id") < 0);
    lgg_close(f);
    free(b);
    unlink(in);
    unlink(out);
}
