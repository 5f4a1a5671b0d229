/* test_legacy.c -- GGUF's predecessors (GGML, GGMF, GGJT) are named when
 * they fail to open, in both byte orders llama.cpp wrote their magic in. */
#include "test.h"
#include "libgguf.h"

static void expect_legacy(const unsigned char *bytes, size_t n, const char *want) {
    lgg_file *f = NULL;
    lgg_error e;
    CHECK(lgg_open_memory(bytes, n, NULL, &f, &e) == LGG_ERR_MAGIC);
    CHECK(f == NULL);
    CHECK_STR(e.message, want);
    CHECK_EQ_U(e.offset, 0);
}

TEST(legacy_formats_named) {
    /* little-endian hosts wrote the u32 magic 'ggjt' (0x67676a74) as "tjgg" */
    static const unsigned char ggjt3_le[] = {'t', 'j', 'g', 'g', 3, 0, 0, 0, 0, 1, 0, 0};
    static const unsigned char ggjt1_be[] = {'g', 'g', 'j', 't', 0, 0, 0, 1, 0, 1, 0, 0};
    static const unsigned char ggmf1_le[] = {'f', 'm', 'g', 'g', 1, 0, 0, 0};
    static const unsigned char ggmf2_be[] = {'g', 'g', 'm', 'f', 0, 0, 0, 2};
    static const unsigned char ggml_le[] = {'l', 'm', 'g', 'g', 0, 0x7d, 0, 0, 0, 2, 0, 0};
    static const unsigned char ggml_be[] = {'g', 'g', 'm', 'l', 0, 0, 0x7d, 0};
    static const unsigned char ggjt_short[] = {'t', 'j', 'g', 'g', 3};
    expect_legacy(ggjt3_le, sizeof ggjt3_le, "legacy pre-GGUF format (ggjt v3), not GGUF");
    expect_legacy(ggjt1_be, sizeof ggjt1_be, "legacy pre-GGUF format (ggjt v1), not GGUF");
    expect_legacy(ggmf1_le, sizeof ggmf1_le, "legacy pre-GGUF format (ggmf v1), not GGUF");
    expect_legacy(ggmf2_be, sizeof ggmf2_be, "legacy pre-GGUF format (ggmf v2), not GGUF");
    expect_legacy(ggml_le, sizeof ggml_le, "legacy pre-GGUF format (ggml unversioned), not GGUF");
    expect_legacy(ggml_be, sizeof ggml_be, "legacy pre-GGUF format (ggml unversioned), not GGUF");
    expect_legacy(ggjt_short, sizeof ggjt_short, "legacy pre-GGUF format (ggjt, no version), not GGUF");
    /* anything else is still just a bad magic */
    static const unsigned char other[] = {'g', 'g', 'l', 'a', 1, 0, 0, 0};
    lgg_file *f = NULL;
    lgg_error e;
    CHECK(lgg_open_memory(other, sizeof other, NULL, &f, &e) == LGG_ERR_MAGIC);
    CHECK(strstr(e.message, "bad magic 'ggla'") != NULL);
}
