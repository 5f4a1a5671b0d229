/* test_filename.c -- lgg_validate's file-name check: the naming
 * convention's prose (a missing Version means v1.0), the recommended name,
 * at most a warning, no offset, not made an error by strictness. */
#include "test.h"
#include "libgguf.h"
#include "gen.h"

#include <stdlib.h>

/* A small model with general.name set to `name` (NULL: none), and split
 * keys when `shard` (shard 2 of 3). */
static lgg_file *model(buf *b, const char *name, bool shard) {
    gen_header(b, 3, 1, 1 + (name != NULL) + (shard ? 3 : 0));
    gen_key(b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(b, 3, "test");
    if (name) {
        gen_key(b, 3, "general.name", LGG_VT_STRING);
        gen_str(b, 3, name);
    }
    if (shard) {
        gen_key(b, 3, "split.no", LGG_VT_U16);
        buf_u16(b, 1);
        gen_key(b, 3, "split.count", LGG_VT_U16);
        buf_u16(b, 3);
        gen_key(b, 3, "split.tensors.count", LGG_VT_I32);
        buf_u32(b, 3);
    }
    uint64_t ne[1] = {8};
    gen_tensor(b, 3, "a", 1, ne, LGG_TYPE_F32, 0);
    buf_pad(b, 32);
    for (int i = 0; i < 32; i++) buf_u8(b, 0);
    lgg_file *f = NULL;
    lgg_error e;
    return lgg_open_memory(b->p, b->n, NULL, &f, &e) == LGG_OK ? f : NULL;
}

/* Findings about the file name in a validation of f named `name`. */
static size_t name_findings(const lgg_file *f, const char *name, uint32_t flags, lgg_finding *last) {
    lgg_validate_options vo = {.flags = flags, .file_name = name};
    lgg_report *r = NULL;
    if (lgg_validate(f, &vo, &r) != LGG_OK) return 999;
    size_t n = 0;
    for (size_t i = 0; i < lgg_report_count(r); i++)
        if (lgg_report_at(r, i)->check == LGG_CHECK_FILE_NAME) {
            n++;
            if (last) *last = *lgg_report_at(r, i);
        }
    lgg_report_free(r);
    return n;
}

TEST(filename_missing_version_means_v1) {
    buf b = {0};
    lgg_file *f = model(&b, NULL, false);
    REQUIRE(f != NULL);
    static const char *const good[] = {
        "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", "Mixtral-8x7B-v0.1-KQ2.gguf", "Qwen2.5-Coder-7B-Instruct-F16.gguf",
        "Grok-100B-v1.0-Q4_0.gguf", "Phi-3-mini-3.8B-ContextLength4k-instruct-v1.0.gguf",
        "Llama-2-7B.gguf", "Hermes-2-Pro-Llama-3-8B-F16.gguf"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CHECKF(name_findings(f, good[i], LGG_VALIDATE_STRICT, NULL) == 0, "%s", good[i]);
    /* the spec's expression itself still wants the Version */
    CHECK(!lgg_name_parse("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", 38, NULL));
    /* attempts at the convention that went wrong (a SizeLabel is there):
     * a warning, strict or not */
    static const char *const bad[] = {"Llama-8B-Q4.bin", "-8B-Q4_0.gguf", "llama-2-7b-chat.Q4_K_M.gguf"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lgg_finding x;
        CHECKF(name_findings(f, bad[i], 0, &x) == 1, "%s", bad[i]);
        CHECKF(name_findings(f, bad[i], LGG_VALIDATE_STRICT, &x) == 1, "%s", bad[i]);
    }
    /* names that never tried it (llama-quantize's own default among them):
     * the convention is advice, so only --strict mentions it */
    static const char *const other[] = {"model.gguf", "ggml-model-Q4_K_M.gguf", "llama-model-q4.gguf",
                                        "Llama-3.1.gguf", "ggml-model-f16.gguf"};
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        CHECKF(name_findings(f, other[i], 0, NULL) == 0, "%s", other[i]);
        CHECKF(name_findings(f, other[i], LGG_VALIDATE_STRICT, NULL) == 1, "%s", other[i]);
    }
    lgg_close(f);
    buf_free(&b);
}

/* A file named exactly as lgg_recommended_name says passes, whatever
 * characters its general.name brings. */
TEST(filename_recommended_name_passes) {
    static const char *const names[] = {NULL, "My Model (test) #2", "Llama 3.1 8B"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        for (int shard = 0; shard < 2; shard++) {
            buf b = {0};
            lgg_file *f = model(&b, names[k], shard);
            REQUIRE(f != NULL);
            char rec[256];
            REQUIRE(lgg_recommended_name(f, rec, sizeof rec) < sizeof rec);
            CHECKF(name_findings(f, rec, LGG_VALIDATE_STRICT, NULL) == 0, "recommended '%s'", rec);
            lgg_close(f);
            buf_free(&b);
        }
    }
}

/* A name of printable characters alone, one file name: general.name's
 * control bytes (C0, DEL, UTF-8's C1) are left out and its '/' made '-'. */
TEST(filename_recommended_name_printable) {
    buf b = {0};
    lgg_file *f = model(&b, " a\nb\x1b[31mRED\x7f\xc2\x9bX/y\xc3\xa9 ", false);
    REQUIRE(f != NULL);
    char rec[256];
    CHECK_EQ_U(lgg_recommended_name(f, rec, sizeof rec), strlen("ab[31mREDX-y\xc3\xa9-0.01K.gguf"));
    CHECK_STR(rec, "ab[31mREDX-y\xc3\xa9-0.01K.gguf");
    lgg_close(f);
    buf_free(&b);
}

/* At most a warning, without an offset, under --strict too; no file name,
 * no check. */
TEST(filename_finding_is_a_warning_without_offset) {
    buf b = {0};
    lgg_file *f = model(&b, NULL, true);
    REQUIRE(f != NULL);
    for (int strict = 0; strict < 2; strict++) {
        lgg_finding x;
        /* a bad name, and a shard named as another position */
        static const char *const names[] = {"Llama-8B.gguf.bin", "Llama-8B-Q4_0-00001-of-00003.gguf"};
        for (size_t k = 0; k < 2; k++) {
            CHECKF(name_findings(f, names[k], strict ? LGG_VALIDATE_STRICT : 0, &x) >= 1, "%s", names[k]);
            CHECK(x.severity == LGG_SEV_WARNING);
            CHECK(x.offset == LGG_NO_OFFSET);
        }
    }
    CHECK_EQ_U(name_findings(f, NULL, LGG_VALIDATE_STRICT, NULL), 0);
    lgg_validate_options vo = {.flags = LGG_VALIDATE_STRICT, .file_name = "model.gguf"};
    lgg_report *r = NULL;
    REQUIRE(lgg_validate(f, &vo, &r) == LGG_OK);
    for (size_t i = 0; i < lgg_report_count(r); i++)
        if (lgg_report_at(r, i)->severity == LGG_SEV_ERROR)
            CHECKF(lgg_report_at(r, i)->check != LGG_CHECK_FILE_NAME, "%s", lgg_report_at(r, i)->message);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}
