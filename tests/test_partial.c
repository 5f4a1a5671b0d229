/* test_partial.c -- files without all their tensor data: metadata-only files
 * (ggml's gguf_write_to_file with only_meta), truncated downloads, and a file
 * that lacks only the last tensor's padding. */
#include "test.h"
#include "libgguf.h"
#include "gen.h"

#include <stdlib.h>

static lgg_status open_flags(const buf *b, size_t n, uint32_t flags, lgg_file **f) {
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags = flags;
    lgg_error e;
    return lgg_open_memory(b->p, n, &o, f, &e);
}

/* The findings of `check`, and the last one's message and severity. */
static size_t findings_of(const lgg_report *r, lgg_check check, const lgg_finding **last) {
    size_t n = 0;
    for (size_t i = 0; i < lgg_report_count(r); i++)
        if (lgg_report_at(r, i)->check == check) {
            n++;
            *last = lgg_report_at(r, i);
        }
    return n;
}

static lgg_report *validate_flags(const lgg_file *f, uint32_t flags) {
    lgg_validate_options vo = {.flags = flags};
    lgg_report *r = NULL;
    return lgg_validate(f, &vo, &r) == LGG_OK ? r : NULL;
}

/* Cut at the end of the tensor infos (what only_meta writes) and at the
 * padded data offset: both are metadata-only, open only with
 * ALLOW_MISSING_DATA, and validate to one warning (an error when strict). */
TEST(partial_metadata_only) {
    buf b = {0};
    gen_small_model(&b);
    lgg_file *full = NULL;
    REQUIRE(open_flags(&b, b.n, 0, &full) == LGG_OK);
    const uint64_t hs = lgg_file_header_size(full), doff = lgg_file_data_offset(full);
    CHECK(!lgg_file_metadata_only(full));
    CHECK_EQ_U(lgg_file_expected_size(full), b.n);
    CHECK_EQ_U(lgg_file_expected_size(full), lgg_file_data_end(full));
    REQUIRE(hs < doff); /* the cut at hs leaves the padding out */
    const uint64_t cuts[] = {hs, doff};
    for (size_t k = 0; k < 2; k++) {
        lgg_file *f = NULL;
        CHECK(open_flags(&b, (size_t)cuts[k], 0, &f) == LGG_ERR_TRUNCATED);
        REQUIRE(open_flags(&b, (size_t)cuts[k], LGG_OPEN_ALLOW_MISSING_DATA, &f) == LGG_OK);
        CHECK(lgg_file_metadata_only(f));
        CHECK_EQ_U(lgg_file_expected_size(f), b.n);
        CHECK_EQ_U(lgg_file_data_offset(f), doff);
        CHECK_EQ_U(lgg_kv_count(f), 2);
        CHECK_EQ_U(lgg_tensor_count(f), 2);
        CHECK(!lgg_tensor_at(f, 1)->data_available && lgg_tensor_at(f, 1)->data == NULL);
        CHECK_EQ_U(lgg_tensor_at(f, 1)->size, 32);
        for (int strict = 0; strict < 2; strict++) {
            lgg_report *r = validate_flags(f, strict ? LGG_VALIDATE_STRICT : 0);
            REQUIRE(r != NULL);
            const lgg_finding *last = NULL;
            CHECK_EQ_U(findings_of(r, LGG_CHECK_MISSING_DATA, &last), 1);
            if (last) {
                CHECK_STR(last->message, "metadata only: no tensor data");
                CHECK(last->severity == (strict ? LGG_SEV_ERROR : LGG_SEV_WARNING));
            }
            CHECK_EQ_U(lgg_report_count_severity(r, LGG_SEV_ERROR), strict ? 1 : 0);
            lgg_report_free(r);
        }
        lgg_close(f);
    }
    lgg_close(full);
    buf_free(&b);
}

/* A download cut inside the data: one error that says how many bytes are
 * missing, not one per tensor. */
TEST(partial_truncated_says_bytes_missing) {
    buf b = {0};
    gen_small_model(&b);
    lgg_file *full = NULL;
    REQUIRE(open_flags(&b, b.n, 0, &full) == LGG_OK);
    const uint64_t doff = lgg_file_data_offset(full);
    lgg_close(full);
    const uint64_t cuts[] = {doff + 20, doff + 1}; /* tensor b missing; a cut short too */
    for (size_t k = 0; k < 2; k++) {
        lgg_file *f = NULL;
        REQUIRE(open_flags(&b, (size_t)cuts[k], LGG_OPEN_ALLOW_MISSING_DATA, &f) == LGG_OK);
        CHECK(!lgg_file_metadata_only(f));
        CHECK_EQ_U(lgg_file_expected_size(f), b.n);
        lgg_report *r = validate_flags(f, 0);
        REQUIRE(r != NULL);
        const lgg_finding *last = NULL;
        CHECK_EQ_U(findings_of(r, LGG_CHECK_MISSING_DATA, &last), 1);
        char want[320];
        snprintf(want, sizeof want,
                 "truncated: %llu bytes missing (the file has %llu bytes, its tensor data needs %llu); 2 of 2 "
                 "tensors lack data, the first being 'a'",
                 (unsigned long long)(b.n - cuts[k]), (unsigned long long)cuts[k], (unsigned long long)b.n);
        if (last) {
            CHECK_STR(last->message, want);
            CHECK(last->severity == LGG_SEV_ERROR);
            CHECK_EQ_U(last->offset, cuts[k]);
        }
        lgg_report_free(r);
        lgg_close(f);
    }
    buf_free(&b);
}

/* Without tensors the expected size is the header's end, and such a file is
 * not "metadata only". */
TEST(partial_no_tensors) {
    buf b = {0};
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "general.architecture", 8);
    gen_str(&b, 3, "test");
    lgg_file *f = NULL;
    REQUIRE(open_flags(&b, b.n, LGG_OPEN_ALLOW_MISSING_DATA, &f) == LGG_OK);
    CHECK(!lgg_file_metadata_only(f));
    CHECK_EQ_U(lgg_file_expected_size(f), b.n);
    CHECK(!lgg_file_metadata_only(NULL));
    CHECK_EQ_U(lgg_file_expected_size(NULL), 0);
    lgg_close(f);
    buf_free(&b);
}

/* Tensors "a" [8] F32 at 0 and "b" [3] F32 (12 bytes) at 32, with `data`
 * bytes of data (44 without the last padding, 64 with it). */
static void gen_unpadded_last(buf *b, size_t data) {
    gen_header(b, 3, 2, 1);
    gen_key(b, 3, "general.architecture", 8);
    gen_str(b, 3, "test");
    uint64_t a[1] = {8}, c[1] = {3};
    gen_tensor(b, 3, "a", 1, a, 0, 0);
    gen_tensor(b, 3, "b", 1, c, 0, 32);
    buf_pad(b, 32);
    for (size_t i = 0; i < data; i++) buf_u8(b, i < 44 ? 0x3F : 0);
}

/* Only the last tensor's padding missing: valid (no error, no trailing
 * bytes), but ggml reads the padding too, so a compatibility note. */
TEST(partial_last_padding_missing_is_a_note) {
    static const size_t sizes[] = {44, 50, 64};
    for (size_t k = 0; k < 3; k++) {
        buf b = {0};
        gen_unpadded_last(&b, sizes[k]);
        lgg_file *f = NULL;
        REQUIRE(open_flags(&b, b.n, 0, &f) == LGG_OK);
        CHECK_EQ_U(lgg_file_expected_size(f), lgg_file_data_offset(f) + 44);
        CHECK(!lgg_file_metadata_only(f));
        lgg_report *r = validate_flags(f, LGG_VALIDATE_STRICT);
        REQUIRE(r != NULL);
        for (size_t i = 0; i < lgg_report_count(r); i++)
            CHECKF(lgg_report_at(r, i)->severity != LGG_SEV_ERROR, "%zu bytes: %s", sizes[k],
                   lgg_report_at(r, i)->message);
        size_t notes = 0;
        for (size_t i = 0; i < lgg_report_count(r); i++) {
            const lgg_finding *x = lgg_report_at(r, i);
            if (x->check != LGG_CHECK_COMPAT || !strstr(x->message, "padded end of the last tensor")) continue;
            notes++;
            char want[320];
            snprintf(want, sizeof want,
                     "the file ends %zu bytes before the padded end of the last tensor's data (offset %llu): valid, "
                     "but ggml refuses it when it reads the tensor data (gguf_init_from_file reads the padding too)",
                     64 - sizes[k], (unsigned long long)(lgg_file_data_offset(f) + 64));
            CHECK_STR(x->message, want);
            CHECK(x->severity == LGG_SEV_NOTE);
            CHECK_EQ_U(x->offset, b.n);
        }
        CHECK_EQ_U(notes, sizes[k] < 64 ? 1 : 0);
        lgg_report_free(r);
        lgg_close(f);
        buf_free(&b);
    }
}

/* A tensor of unknown type has no known size: no "not packed tightly" note
 * for the tensors after it, no "trailing bytes" for its data; the type
 * finding says the size is unknown. */
TEST(partial_unknown_type_size_unknown) {
    buf b = {0};
    gen_header(&b, 3, 2, 1);
    gen_key(&b, 3, "general.architecture", 8);
    gen_str(&b, 3, "test");
    uint64_t a[1] = {64}, c[1] = {8};
    gen_tensor(&b, 3, "u", 1, a, 200, 0); /* unknown type id, 64 bytes of data say the offsets */
    gen_tensor(&b, 3, "b", 1, c, 0, 64);
    buf_pad(&b, 32);
    for (int i = 0; i < 96; i++) buf_u8(&b, 1);
    lgg_file *f = NULL;
    REQUIRE(open_flags(&b, b.n, 0, &f) == LGG_OK);
    lgg_report *r = validate_flags(f, 0);
    REQUIRE(r != NULL);
    const lgg_finding *last = NULL;
    CHECK_EQ_U(findings_of(r, LGG_CHECK_TENSOR_TYPE, &last), 1);
    if (last) CHECK_STR(last->message, "tensor 'u' has unknown type 200: the size of its data is unknown");
    for (size_t i = 0; i < lgg_report_count(r); i++)
        CHECKF(!strstr(lgg_report_at(r, i)->message, "packed tightly") &&
                   lgg_report_at(r, i)->check != LGG_CHECK_TRAILING_BYTES,
               "unexpected finding: %s", lgg_report_at(r, i)->message);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}
