/* test_corrupt.c -- a generator of corrupt files: one per structural class,
 * each with the exact error (code, offset, and for some the message), plus
 * every prefix of a valid file and the validation findings. */
#include "gen.h"
#include "libgguf.h"

#include <stdlib.h>

static lgg_status open_buf(const buf *b, lgg_error *e) {
    lgg_file *f = NULL;
    memset(e, 0, sizeof *e);
    lgg_status s = lgg_open_memory(b->p, b->n, NULL, &f, e);
    lgg_close(f);
    return s;
}

#define EXPECT(b, code)                                                                          \
    do {                                                                                         \
        lgg_error e_;                                                                            \
        lgg_status s_ = open_buf(&(b), &e_);                                                     \
        CHECKF(s_ == (code), "expected %s, got %s: %s", lgg_status_name(code), lgg_status_name(s_), \
               e_.message);                                                                      \
    } while (0)

/* a v3 file with one tensor "w" of the given shape/type/offset, data of data_len zero bytes */
static void one_tensor(buf *b, uint32_t n_dims, const uint64_t *ne, uint32_t type, uint64_t offset, size_t data_len) {
    gen_header(b, 3, 1, 1);
    gen_key(b, 3, "general.architecture", 8);
    gen_str(b, 3, "x");
    gen_tensor(b, 3, "w", n_dims, ne, type, offset);
    buf_pad(b, 32);
    for (size_t i = 0; i < data_len; i++) buf_u8(b, 0);
}

TEST(corrupt_file_level) {
    buf b = {0};
    lgg_error e;
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED);
    buf_put(&b, "GGML\3\0\0\0", 8);
    CHECK(open_buf(&b, &e) == LGG_ERR_MAGIC && e.offset == 0);
    buf_free(&b);
    gen_header(&b, 4, 0, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_VERSION && e.offset == 4);
    buf_free(&b);
    gen_header(&b, 0, 0, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_VERSION);
    buf_free(&b);
    buf_put(&b, "GGUF\3\0", 6);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED && e.offset == 4);
    CHECK_STR(e.message, "version at offset 4 needs 4 bytes but the file has 2 left");
    buf_free(&b);
    /* counts that no file of this size can hold are refused before any allocation */
    gen_header(&b, 3, 0, UINT64_C(1) << 62);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED && e.offset == 8);
    buf_free(&b);
    gen_header(&b, 3, UINT64_C(0xFFFFFFFFFFFFFFFF), 1);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED);
    buf_free(&b);
}

TEST(corrupt_metadata) {
    buf b = {0};
    lgg_error e;
    /* the example from the issue: a string length beyond the file */
    gen_header(&b, 3, 0, 1);
    buf_u64(&b, UINT64_C(9223372036854775813));
    buf_put(&b, "general.ar", 10);
    buf_u8(&b, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED && e.offset == 24);
    CHECK_STR(e.message, "key length 9223372036854775813 at offset 24 exceeds the 11 bytes left in the file");
    buf_free(&b);
    /* string value too long */
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 8);
    buf_u64(&b, 100);
    buf_put(&b, "abc", 3);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED && e.offset == 37);
    buf_free(&b);
    /* unknown value type, unknown element type */
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 13);
    buf_u64(&b, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_VALUE_TYPE && e.offset == 33);
    CHECK_STR(e.message, "unknown value type 13 at offset 33 (key 'k')");
    buf_free(&b);
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 9);
    buf_u32(&b, 0x7fffffff);
    buf_u64(&b, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_VALUE_TYPE && e.offset == 37);
    buf_free(&b);
    /* array count beyond the file, for fixed-size and string elements */
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 9);
    buf_u32(&b, 12);
    buf_u64(&b, UINT64_C(1) << 61);
    buf_u64(&b, 1);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED && e.offset == 41);
    buf_free(&b);
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 9);
    buf_u32(&b, 8);
    buf_u64(&b, UINT64_C(4611686018427387904));
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED);
    buf_free(&b);
    /* a truncated scalar */
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 10);
    buf_u32(&b, 1);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED);
    CHECK_STR(e.message, "u64 at offset 37 needs 8 bytes but the file has 4 left");
    buf_free(&b);
}

TEST(corrupt_deep_nesting_is_rejected_without_recursion) {
    /* 200,000 arrays nested in each other */
    buf b = {0};
    const int depth = 200000;
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 9);
    for (int i = 0; i < depth; i++) {
        buf_u32(&b, 9);
        buf_u64(&b, 1);
    }
    buf_u32(&b, 0);
    buf_u64(&b, 0);
    lgg_error e;
    CHECK(open_buf(&b, &e) == LGG_ERR_NESTING);
    /* with the depth limit raised to its ceiling it still refuses, and one level under the limit passes */
    buf_free(&b);
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "k", 9);
    for (int i = 0; i < 15; i++) {
        buf_u32(&b, 9);
        buf_u64(&b, 1);
    }
    buf_u32(&b, 0);
    buf_u64(&b, 0);
    CHECK(open_buf(&b, &e) == LGG_OK); /* 16 levels: the default limit */
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.limits.max_depth = 4;
    lgg_file *f = NULL;
    CHECK(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_ERR_NESTING && f == NULL);
    buf_free(&b);
}

TEST(corrupt_limits_are_configurable) {
    buf b = {0};
    build_limits:
    gen_header(&b, 3, 0, 2);
    gen_key(&b, 3, "a.b", 8);
    gen_str(&b, 3, "0123456789");
    gen_key(&b, 3, "a.c", 9);
    buf_u32(&b, 0);
    buf_u64(&b, 100);
    for (int i = 0; i < 100; i++) buf_u8(&b, 1);
    lgg_open_options o;
    lgg_file *f = NULL;
    lgg_error e;
    lgg_open_options_init(&o);
    CHECK(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_OK);
    lgg_close(f);
    o.limits.max_string_len = 5;
    CHECK(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_ERR_LIMIT);
    lgg_open_options_init(&o);
    o.limits.max_array_len = 99;
    CHECK(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_ERR_LIMIT);
    lgg_open_options_init(&o);
    o.limits.max_kv = 1;
    CHECK(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_ERR_LIMIT && e.offset == 16);
    buf_free(&b);
    gen_small_model(&b);
    lgg_open_options_init(&o);
    o.limits.max_tensors = 1;
    CHECK(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_ERR_LIMIT);
    o.limits.max_tensors = 0;
    o.limits.max_dims = 1;
    CHECK(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_ERR_TENSOR_NDIMS);
    buf_free(&b);
    (void)&&build_limits;
}

TEST(corrupt_tensors) {
    buf b = {0};
    lgg_error e;
    uint64_t ne[5] = {32, 2, 1, 1, 1};
    one_tensor(&b, 5, ne, 0, 0, 256);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_NDIMS);
    buf_free(&b);
    uint64_t neg[2] = {32, (uint64_t)-1};
    one_tensor(&b, 2, neg, 0, 0, 256);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_DIMS);
    buf_free(&b);
    uint64_t big[4] = {UINT64_C(1) << 40, UINT64_C(1) << 30, 1, 1};
    one_tensor(&b, 4, big, 0, 0, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_DIMS);
    buf_free(&b);
    uint64_t bytes_ovf[1] = {UINT64_C(1) << 62}; /* 2^62 f32 elements = 2^64 bytes */
    one_tensor(&b, 1, bytes_ovf, 0, 0, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_DIMS);
    buf_free(&b);
    uint64_t zero[2] = {0, 7}; /* zero elements: fine, and no division by zero */
    one_tensor(&b, 2, zero, 2, 0, 0);
    CHECK(open_buf(&b, &e) == LGG_OK);
    buf_free(&b);
    uint64_t q[1] = {33};
    one_tensor(&b, 1, q, LGG_TYPE_Q4_0, 0, 64);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_BLOCK);
    buf_free(&b);
    uint64_t f8[1] = {8};
    one_tensor(&b, 1, f8, 0, 16, 64);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_ALIGN);
    buf_free(&b);
    one_tensor(&b, 1, f8, 0, UINT64_C(1) << 63, 64);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_BOUNDS);
    buf_free(&b);
    one_tensor(&b, 1, f8, 0, 4096, 64);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED);
    buf_free(&b);
    /* a half-downloaded model: the data stops partway */
    one_tensor(&b, 1, f8, 0, 0, 20);
    CHECK(open_buf(&b, &e) == LGG_ERR_TRUNCATED);
    {
        lgg_open_options o;
        lgg_open_options_init(&o);
        o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
        lgg_file *f = NULL;
        REQUIRE(lgg_open_memory(b.p, b.n, &o, &f, &e) == LGG_OK);
        CHECK(!lgg_tensor_at(f, 0)->data_available && lgg_tensor_at(f, 0)->data == NULL);
        lgg_report *r = NULL;
        REQUIRE(lgg_validate(f, NULL, &r) == LGG_OK);
        int missing = 0;
        for (size_t i = 0; i < lgg_report_count(r); i++) missing += lgg_report_at(r, i)->check == LGG_CHECK_MISSING_DATA;
        CHECK(missing == 1);
        lgg_report_free(r);
        lgg_close(f);
    }
    buf_free(&b);
    /* duplicate names, overlap */
    gen_header(&b, 3, 2, 0);
    gen_tensor(&b, 3, "w", 1, f8, 0, 0);
    gen_tensor(&b, 3, "w", 1, f8, 0, 32);
    buf_pad(&b, 32);
    for (int i = 0; i < 64; i++) buf_u8(&b, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_DUP);
    buf_free(&b);
    uint64_t f16[1] = {16};
    gen_header(&b, 3, 2, 0);
    gen_tensor(&b, 3, "w", 1, f16, 0, 0);
    gen_tensor(&b, 3, "v", 1, f8, 0, 32);
    buf_pad(&b, 32);
    for (int i = 0; i < 64; i++) buf_u8(&b, 0);
    CHECK(open_buf(&b, &e) == LGG_ERR_TENSOR_OVERLAP);
    buf_free(&b);
    /* an unknown type id opens for metadata work and validation reports it */
    one_tensor(&b, 1, f8, 99, 0, 64);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(b.p, b.n, NULL, &f, &e) == LGG_OK);
    CHECK(!lgg_tensor_at(f, 0)->type_known && lgg_tensor_at(f, 0)->size == 0);
    lgg_report *r = NULL;
    REQUIRE(lgg_validate(f, NULL, &r) == LGG_OK);
    CHECK(lgg_report_count_severity(r, LGG_SEV_ERROR) >= 1);
    lgg_report_free(r);
    lgg_close(f);
    buf_free(&b);
}

TEST(corrupt_alignment) {
    static const uint32_t bad[] = {0, 3, 48};
    for (size_t i = 0; i < 3; i++) {
        buf b = {0};
        gen_header(&b, 3, 0, 1);
        gen_key(&b, 3, "general.alignment", 4);
        buf_u32(&b, bad[i]);
        lgg_error e;
        CHECK(open_buf(&b, &e) == LGG_ERR_ALIGNMENT && e.offset == 53);
        buf_free(&b);
    }
}

TEST(corrupt_every_prefix_of_a_valid_file_fails_cleanly) {
    buf b = {0};
    gen_small_model(&b);
    for (size_t n = 0; n < b.n; n++) {
        lgg_file *f = NULL;
        lgg_error e;
        lgg_status s = lgg_open_memory(b.p, n, NULL, &f, &e);
        CHECKF(s == LGG_ERR_TRUNCATED, "prefix %zu: %s", n, lgg_status_name(s));
        CHECK(f == NULL);
    }
    /* every single-byte change opens or fails with a code, and never crashes */
    for (size_t i = 0; i < b.n; i++) {
        for (int v = 0; v < 256; v += 51) {
            unsigned char old = b.p[i];
            b.p[i] = (unsigned char)(old ^ (v | 1));
            lgg_file *f = NULL;
            lgg_error e;
            lgg_status s = lgg_open_memory(b.p, b.n, NULL, &f, &e);
            if (s == LGG_OK) {
                lgg_report *r = NULL;
                CHECK(lgg_validate(f, NULL, &r) == LGG_OK);
                lgg_report_free(r);
            } else {
                CHECK(f == NULL && e.code == s);
            }
            lgg_close(f);
            b.p[i] = old;
        }
    }
    buf_free(&b);
}

/* ---- validation findings ---- */

static int count_check(const lgg_report *r, lgg_check c, lgg_severity s) {
    int n = 0;
    for (size_t i = 0; i < lgg_report_count(r); i++)
        n += lgg_report_at(r, i)->check == c && lgg_report_at(r, i)->severity == s;
    return n;
}

static lgg_report *validate_buf(const buf *b, uint32_t flags) {
    lgg_file *f = NULL;
    lgg_error e;
    if (lgg_open_memory(b->p, b->n, NULL, &f, &e) != LGG_OK) {
        test_fail(__FILE__, __LINE__, "open: %s", e.message);
        return NULL;
    }
    lgg_report *r = NULL;
    lgg_validate_options o = {.flags = flags};
    lgg_validate(f, &o, &r);
    lgg_close(f);
    return r;
}

TEST(validate_findings) {
    buf b = {0};
    gen_header(&b, 3, 1, 11);
    gen_key(&b, 3, "general.architecture", 8); gen_str(&b, 3, "command-r");
    gen_key(&b, 3, "Bad.Key", 4); buf_u32(&b, 1);
    gen_key(&b, 3, "a..b", 4); buf_u32(&b, 1);
    gen_key(&b, 3, "x.flag", 7); buf_u8(&b, 2);
    gen_key(&b, 3, "x.flag", 7); buf_u8(&b, 0);
    gen_key(&b, 3, "x.text", 8); gen_str(&b, 3, "bad \xC3(");
    gen_key(&b, 3, "general.alignment", 10); buf_u64(&b, 32);
    gen_key(&b, 3, "general.name", 4); buf_u32(&b, 5);
    gen_key(&b, 3, "tokenizer.ggml.tokens", 9); buf_u32(&b, 8); buf_u64(&b, 2); gen_str(&b, 3, "a"); gen_str(&b, 3, "b");
    gen_key(&b, 3, "tokenizer.ggml.scores", 9); buf_u32(&b, 6); buf_u64(&b, 1); buf_u32(&b, 0);
    gen_key(&b, 3, "tokenizer.ggml.bos_token_id", 4); buf_u32(&b, 7);
    uint64_t ne[1] = {32};
    gen_tensor(&b, 3, "a_very_long_tensor_name_that_goes_on_and_on_and_on_past_sixty_four_bytes", 1, ne, LGG_TYPE_Q4_0, 0);
    buf_pad(&b, 32);
    for (int i = 0; i < 18; i++) buf_u8(&b, 0);
    buf_u8(&b, 7); /* non-zero padding */
    for (int i = 0; i < 13; i++) buf_u8(&b, 0);
    buf_put(&b, "trailing", 8);
    lgg_report *r = validate_buf(&b, 0);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_ARCH_NAME, LGG_SEV_WARNING) == 1);
    CHECK(count_check(r, LGG_CHECK_KEY_SYNTAX, LGG_SEV_ERROR) == 2);
    CHECK(count_check(r, LGG_CHECK_BOOL_VALUE, LGG_SEV_ERROR) == 1);
    CHECK(count_check(r, LGG_CHECK_KEY_DUPLICATE, LGG_SEV_ERROR) == 1);
    CHECK(count_check(r, LGG_CHECK_UTF8, LGG_SEV_ERROR) == 1);
    CHECK(count_check(r, LGG_CHECK_ALIGNMENT_KEY, LGG_SEV_ERROR) == 1);
    CHECK(count_check(r, LGG_CHECK_KEY_TYPE, LGG_SEV_ERROR) == 1);
    CHECK(count_check(r, LGG_CHECK_TOKENIZER, LGG_SEV_ERROR) == 2);
    CHECK(count_check(r, LGG_CHECK_TENSOR_NAME_LENGTH, LGG_SEV_ERROR) == 1);
    CHECK(count_check(r, LGG_CHECK_QUANT_VERSION, LGG_SEV_ERROR) == 1);
    CHECK(count_check(r, LGG_CHECK_PADDING, LGG_SEV_WARNING) == 1);
    CHECK(count_check(r, LGG_CHECK_TRAILING_BYTES, LGG_SEV_WARNING) == 1);
    lgg_report_free(r);
    /* --strict: warnings become errors */
    r = validate_buf(&b, LGG_VALIDATE_STRICT);
    REQUIRE(r != NULL);
    CHECK(lgg_report_count_severity(r, LGG_SEV_WARNING) == 0);
    CHECK(count_check(r, LGG_CHECK_ARCH_NAME, LGG_SEV_ERROR) == 1);
    lgg_report_free(r);
    buf_free(&b);

    /* required keys of a listed architecture, and a missing architecture */
    gen_header(&b, 3, 1, 2);
    gen_key(&b, 3, "general.architecture", 8); gen_str(&b, 3, "gpt2");
    gen_key(&b, 3, "gpt2.context_length", 4); buf_u32(&b, 1024);
    gen_tensor(&b, 3, "w", 1, ne, 0, 0);
    buf_pad(&b, 32);
    for (int i = 0; i < 128; i++) buf_u8(&b, 0);
    r = validate_buf(&b, 0);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_REQUIRED_KEY, LGG_SEV_ERROR) == 4);
    CHECK(lgg_report_count(r) == 4);
    lgg_report_free(r);
    buf_free(&b);
    gen_header(&b, 3, 0, 0);
    r = validate_buf(&b, 0);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_ARCHITECTURE, LGG_SEV_ERROR) == 1 && lgg_report_count(r) == 1);
    lgg_report_free(r);
    buf_free(&b);
}

/* A header without tensors padded to the alignment, as ggml's and gguf-py's
 * writers (and gguf copy/set) write it: the padding is no trailing data
 * (issue #28); what is there of it must be zero; bytes past it still warn. */
TEST(validate_padding_after_a_tensorless_header) {
    buf b = {0};
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "general.architecture", 8); gen_str(&b, 3, "test");
    const size_t header = b.n;
    buf_pad(&b, 32);
    REQUIRE(b.n > header);
    lgg_report *r = validate_buf(&b, 0);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_TRAILING_BYTES, LGG_SEV_WARNING) == 0);
    CHECK(count_check(r, LGG_CHECK_PADDING, LGG_SEV_WARNING) == 0);
    lgg_report_free(r);
    /* a file cut inside the padding is fine too */
    b.n = header + 1;
    r = validate_buf(&b, 0);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_TRAILING_BYTES, LGG_SEV_WARNING) == 0);
    lgg_report_free(r);
    /* one byte past the padding */
    buf_pad(&b, 32);
    const size_t padded = b.n;
    buf_u8(&b, 0);
    r = validate_buf(&b, 0);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_TRAILING_BYTES, LGG_SEV_WARNING) == 1);
    for (size_t i = 0; i < lgg_report_count(r); i++)
        if (lgg_report_at(r, i)->check == LGG_CHECK_TRAILING_BYTES) CHECK_EQ_U(lgg_report_at(r, i)->offset, padded);
    lgg_report_free(r);
    /* a non-zero byte in the padding */
    b.n = padded;
    b.p[header + 2] = 7;
    r = validate_buf(&b, 0);
    REQUIRE(r != NULL);
    CHECK(count_check(r, LGG_CHECK_PADDING, LGG_SEV_WARNING) == 1);
    CHECK(count_check(r, LGG_CHECK_TRAILING_BYTES, LGG_SEV_WARNING) == 0);
    lgg_report_free(r);
    buf_free(&b);
}
