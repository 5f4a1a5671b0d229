/* test_keys.c -- standardized keys: their types (lgg_standard_key_type and
 * what lgg_validate reports for other widths) and the key-name rule
 * (lgg_key_name_ok). */
#include "test.h"
#include "libgguf.h"
#include "gen.h"

#include <stdlib.h>

/* A tensor-less llama file: general.architecture, then one pair `key` of
 * type `vt` holding the `size` bytes at `val`. */
static lgg_report *validate_one(const char *key, uint32_t vt, const void *val, size_t size, uint32_t vflags) {
    buf b = {0};
    gen_header(&b, 3, 0, 2);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "llama");
    gen_key(&b, 3, key, vt);
    buf_put(&b, val, size);
    lgg_file *f = NULL;
    lgg_error e;
    lgg_report *r = NULL;
    if (lgg_open_memory(b.p, b.n, NULL, &f, &e) == LGG_OK) {
        lgg_validate_options vo = {.flags = vflags};
        if (lgg_validate(f, &vo, &r) != LGG_OK) r = NULL;
    }
    lgg_close(f);
    buf_free(&b);
    return r;
}

/* The message of the only finding of `check` in r, or NULL. */
static const lgg_finding *only(const lgg_report *r, lgg_check check) {
    const lgg_finding *hit = NULL;
    size_t n = 0;
    for (size_t i = 0; i < lgg_report_count(r); i++)
        if (lgg_report_at(r, i)->check == check) {
            hit = lgg_report_at(r, i);
            n++;
        }
    return n == 1 ? hit : NULL;
}

static size_t count_of(const lgg_report *r, lgg_check check) {
    size_t n = 0;
    for (size_t i = 0; i < lgg_report_count(r); i++) n += lgg_report_at(r, i)->check == check;
    return n;
}

TEST(keys_wrong_integer_and_float_width_is_an_error) {
    const int64_t i64 = 8192;
    const uint64_t u64 = 8192;
    const double f64 = 10000.0;
    const int32_t i32 = 1;
    const uint16_t u16 = 32;
    static const struct {
        const char *key;
        uint32_t vt;
        size_t size;
        const char *want;
    } cases[] = {
        {"llama.context_length", LGG_VT_I64, 8,
         "'llama.context_length' is i64, expected u32"},
        {"llama.block_count", LGG_VT_U64, 8,
         "'llama.block_count' is u64, expected u32: llama.cpp reads u32 only (the spec lists it as uint64)"},
        {"llama.rope.freq_base", LGG_VT_F64, 8, "'llama.rope.freq_base' is f64, expected f32"},
        {"tokenizer.ggml.bos_token_id", LGG_VT_I32, 4, "'tokenizer.ggml.bos_token_id' is i32, expected u32"},
        {"llama.attention.head_count", LGG_VT_U16, 2,
         "'llama.attention.head_count' is u16, expected u32 (or an array of per-layer integers)"},
        {"general.file_type", LGG_VT_I32, 4, "'general.file_type' is i32, expected u32"},
    };
    const void *vals[] = {&i64, &u64, &f64, &i32, &u16, &i32};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int strict = 0; strict < 2; strict++) {
            lgg_report *r = validate_one(cases[k].key, cases[k].vt, vals[k], cases[k].size,
                                         strict ? LGG_VALIDATE_STRICT : 0);
            REQUIRE(r != NULL);
            const lgg_finding *x = only(r, LGG_CHECK_KEY_TYPE);
            CHECKF(x != NULL, "%s: no single key-type finding", cases[k].key);
            if (x) {
                CHECK_STR(x->message, cases[k].want);
                CHECK(x->severity == LGG_SEV_ERROR);
            }
            lgg_report_free(r);
        }
}

/* The widths writers use pass; another architecture's keys are not judged. */
TEST(keys_right_types_pass) {
    const uint32_t u32 = 4096;
    const float f32 = 10000.0f;
    const int64_t i64 = 5;
    lgg_report *r = validate_one("llama.context_length", LGG_VT_U32, &u32, 4, LGG_VALIDATE_STRICT);
    REQUIRE(r != NULL);
    CHECK_EQ_U(count_of(r, LGG_CHECK_KEY_TYPE) + count_of(r, LGG_CHECK_COMPAT), 0);
    lgg_report_free(r);
    r = validate_one("llama.rope.freq_base", LGG_VT_F32, &f32, 4, LGG_VALIDATE_STRICT);
    REQUIRE(r != NULL);
    CHECK_EQ_U(count_of(r, LGG_CHECK_KEY_TYPE) + count_of(r, LGG_CHECK_COMPAT), 0);
    lgg_report_free(r);
    r = validate_one("qwen2.context_length", LGG_VT_I64, &i64, 8, LGG_VALIDATE_STRICT);
    REQUIRE(r != NULL);
    CHECK_EQ_U(count_of(r, LGG_CHECK_KEY_TYPE) + count_of(r, LGG_CHECK_COMPAT), 0);
    lgg_report_free(r);
}

/* A Falcon file with one F32 tensor and the keys llama.cpp's loader reads
 * for it (b4747 load_hparams), but `skip`: no attention.use_norm, which
 * nothing writes, and no head_count_kv, which defaults to head_count. */
static lgg_report *validate_falcon(const char *skip) {
    static const char *const keys[] = {"falcon.context_length", "falcon.embedding_length", "falcon.block_count",
                                       "falcon.attention.head_count", "falcon.attention.layer_norm_epsilon"};
    const size_t n = sizeof keys / sizeof keys[0];
    buf b = {0};
    gen_header(&b, 3, 1, 1 + n - (skip != NULL));
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "falcon");
    for (size_t k = 0; k < n; k++) {
        if (skip && !strcmp(keys[k], skip)) continue;
        const bool eps = k == n - 1;
        const float f = 1e-5f;
        const uint32_t u = 4;
        gen_key(&b, 3, keys[k], eps ? LGG_VT_F32 : LGG_VT_U32);
        buf_put(&b, eps ? (const void *)&f : (const void *)&u, 4);
    }
    const uint64_t ne[1] = {8};
    gen_tensor(&b, 3, "token_embd.weight", 1, ne, LGG_TYPE_F32, 0);
    buf_pad(&b, 32);
    for (int i = 0; i < 8; i++) buf_u32(&b, 0);
    lgg_file *f = NULL;
    lgg_error e;
    lgg_report *r = NULL;
    if (lgg_open_memory(b.p, b.n, NULL, &f, &e) == LGG_OK) {
        lgg_validate_options vo = {.flags = 0};
        if (lgg_validate(f, &vo, &r) != LGG_OK) r = NULL;
    }
    lgg_close(f);
    buf_free(&b);
    return r;
}

/* Falcon's required keys are those llama.cpp requires (issue 37). */
TEST(keys_falcon_required_as_llama_cpp_reads) {
    lgg_report *r = validate_falcon(NULL);
    REQUIRE(r != NULL);
    CHECK_EQ_U(count_of(r, LGG_CHECK_REQUIRED_KEY), 0);
    CHECK_EQ_U(lgg_report_count_severity(r, LGG_SEV_ERROR), 0);
    lgg_report_free(r);
    r = validate_falcon("falcon.attention.layer_norm_epsilon");
    REQUIRE(r != NULL);
    const lgg_finding *x = only(r, LGG_CHECK_REQUIRED_KEY);
    CHECK(x != NULL);
    if (x) {
        CHECK_STR(x->message, "falcon.attention.layer_norm_epsilon is missing (required for architecture falcon)");
        CHECK(x->severity == LGG_SEV_ERROR);
    }
    lgg_report_free(r);
}

TEST(keys_standard_key_type) {
    static const struct {
        const char *key;
        uint32_t vt;
    } cases[] = {
        {"llama.context_length", LGG_VT_U32},    {"qwen2.rope.freq_base", LGG_VT_F32},
        {"general.name", LGG_VT_STRING},         {"general.file_type", LGG_VT_U32},
        {"general.alignment", LGG_VT_U32},       {"tokenizer.ggml.tokens", LGG_VT_ARRAY},
        {"tokenizer.ggml.eos_token_id", LGG_VT_U32}, {"llama.attention.layer_norm_rms_epsilon", LGG_VT_F32},
        {"gemma3.expert_count", LGG_VT_U32},     {"llama.use_parallel_residual", LGG_VT_BOOL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint32_t vt = 99;
        CHECKF(lgg_standard_key_type(cases[k].key, strlen(cases[k].key), &vt) == LGG_OK && vt == cases[k].vt,
               "%s: %u", cases[k].key, vt);
    }
    static const char *const others[] = {"general.context_length", "tokenizer.context_length", "context_length",
                                         ".context_length", "llama.context_length_x", "my.key"};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        uint32_t vt = 99;
        CHECKF(lgg_standard_key_type(others[k], strlen(others[k]), &vt) == LGG_ERR_NOT_FOUND && vt == 99, "%s",
               others[k]);
    }
    uint32_t vt;
    CHECK(lgg_standard_key_type(NULL, 0, &vt) == LGG_ERR_ARG);
    CHECK(lgg_standard_key_type("general.name", 12, NULL) == LGG_ERR_ARG);
    /* pointer + length: the key need not be NUL-terminated */
    CHECK(lgg_standard_key_type("general.namexyz", 12, &vt) == LGG_OK && vt == LGG_VT_STRING);
}

/* lgg_key_name_ok agrees with the validator's key-syntax finding. */
TEST(keys_name_rule_matches_validate) {
    static const struct {
        const char *key;
        bool ok;
    } cases[] = {
        {"general.name", true},  {"a", true},          {"my_key.x2.y_3", true}, {"bad key", false},
        {"Bad.key", false},      {"a..b", false},      {".a", false},          {"a.", false},
        {"a-b.c", false},        {"caf\xc3\xa9", false}, {"", false},
    };
    const uint32_t one = 1;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const size_t n = strlen(cases[k].key);
        CHECKF(lgg_key_name_ok(cases[k].key, n) == cases[k].ok, "'%s'", cases[k].key);
        if (!n) continue;
        lgg_report *r = validate_one(cases[k].key, LGG_VT_U32, &one, 4, 0);
        REQUIRE(r != NULL);
        CHECKF((only(r, LGG_CHECK_KEY_SYNTAX) == NULL) == cases[k].ok, "validate on '%s'", cases[k].key);
        lgg_report_free(r);
    }
    char *long_key = malloc(65536);
    REQUIRE(long_key != NULL);
    memset(long_key, 'a', 65536);
    CHECK(lgg_key_name_ok(long_key, 65535));
    CHECK(!lgg_key_name_ok(long_key, 65536));
    free(long_key);
    CHECK(!lgg_key_name_ok(NULL, 0));
    CHECK(lgg_key_name_ok("general.name\0junk", 12));
}
