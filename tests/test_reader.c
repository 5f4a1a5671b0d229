/* test_reader.c -- every value type, accessor, array form, version and byte
 * order, on files built by hand. */
#include "gen.h"
#include "libgguf.h"
#include "base/cursor.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* One pair of each scalar type, a string, arrays of each element type and a
 * nested array, in byte order `big` and GGUF `version`. */
static void build_all_types(buf *b, uint32_t version) {
    gen_header(b, version, 0, 16);
    gen_key(b, version, "t.u8", 0); buf_u8(b, 200);
    gen_key(b, version, "t.i8", 1); buf_u8(b, (uint8_t)-5);
    gen_key(b, version, "t.u16", 2); buf_u16(b, 60000);
    gen_key(b, version, "t.i16", 3); buf_u16(b, (uint16_t)-300);
    gen_key(b, version, "t.u32", 4); buf_u32(b, 4000000000u);
    gen_key(b, version, "t.i32", 5); buf_u32(b, (uint32_t)-70000);
    gen_key(b, version, "t.f32", 6); { float x = 0.1f; uint32_t u; memcpy(&u, &x, 4); buf_u32(b, u); }
    gen_key(b, version, "t.bool", 7); buf_u8(b, 1);
    gen_key(b, version, "t.str", 8); gen_str(b, version, "h\xC3\xA9llo");
    gen_key(b, version, "t.u64", 10); buf_u64(b, UINT64_C(18446744073709551615));
    gen_key(b, version, "t.i64", 11); buf_u64(b, (uint64_t)INT64_MIN);
    gen_key(b, version, "t.f64", 12); { double x = -2.5e300; uint64_t u; memcpy(&u, &x, 8); buf_u64(b, u); }
    gen_key(b, version, "t.arr_i16", 9); buf_u32(b, 3); gen_len(b, version, 3);
    buf_u16(b, 1); buf_u16(b, (uint16_t)-2); buf_u16(b, 3);
    gen_key(b, version, "t.arr_str", 9); buf_u32(b, 8); gen_len(b, version, 3);
    gen_str(b, version, "a"); gen_str(b, version, ""); gen_str(b, version, "ccc");
    /* [[1, 2], [], [3]] of u32 */
    gen_key(b, version, "t.nested", 9); buf_u32(b, 9); gen_len(b, version, 3);
    buf_u32(b, 4); gen_len(b, version, 2); buf_u32(b, 1); buf_u32(b, 2);
    buf_u32(b, 4); gen_len(b, version, 0);
    buf_u32(b, 4); gen_len(b, version, 1); buf_u32(b, 3);
    gen_key(b, version, "t.empty", 9); buf_u32(b, 6); gen_len(b, version, 0);
}

static void check_all_types(lgg_file *f) {
    lgg_value v;
    uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32; uint64_t u64; int64_t i64;
    float f32; double f64; bool bo; lgg_str s;
    REQUIRE(lgg_kv_count(f) == 16);
    REQUIRE(lgg_get(f, "t.u8", &v) == LGG_OK); CHECK(lgg_value_u8(&v, &u8) == LGG_OK && u8 == 200);
    CHECK(lgg_value_i8(&v, &i8) == LGG_ERR_TYPE);
    REQUIRE(lgg_get(f, "t.i8", &v) == LGG_OK); CHECK(lgg_value_i8(&v, &i8) == LGG_OK && i8 == -5);
    CHECK(lgg_value_uint(&v, &u64) == LGG_ERR_RANGE);
    CHECK(lgg_value_int(&v, &i64) == LGG_OK && i64 == -5);
    REQUIRE(lgg_get(f, "t.u16", &v) == LGG_OK); CHECK(lgg_value_u16(&v, &u16) == LGG_OK && u16 == 60000);
    REQUIRE(lgg_get(f, "t.i16", &v) == LGG_OK); CHECK(lgg_value_i16(&v, &i16) == LGG_OK && i16 == -300);
    REQUIRE(lgg_get(f, "t.u32", &v) == LGG_OK); CHECK(lgg_value_u32(&v, &u32) == LGG_OK && u32 == 4000000000u);
    CHECK(lgg_value_uint(&v, &u64) == LGG_OK && u64 == 4000000000u);
    CHECK(lgg_value_string(&v, &s) == LGG_ERR_TYPE);
    REQUIRE(lgg_get(f, "t.i32", &v) == LGG_OK); CHECK(lgg_value_i32(&v, &i32) == LGG_OK && i32 == -70000);
    REQUIRE(lgg_get(f, "t.f32", &v) == LGG_OK); CHECK(lgg_value_f32(&v, &f32) == LGG_OK && f32 == 0.1f);
    CHECK(lgg_value_f64(&v, &f64) == LGG_ERR_TYPE);
    CHECK(lgg_value_float(&v, &f64) == LGG_OK && f64 == (double)0.1f);
    REQUIRE(lgg_get(f, "t.bool", &v) == LGG_OK); CHECK(lgg_value_bool(&v, &bo) == LGG_OK && bo);
    REQUIRE(lgg_get(f, "t.str", &v) == LGG_OK);
    CHECK(lgg_value_string(&v, &s) == LGG_OK && s.len == 6 && !memcmp(s.ptr, "h\xC3\xA9llo", 6));
    CHECK(lgg_value_u32(&v, &u32) == LGG_ERR_TYPE);
    REQUIRE(lgg_get(f, "t.u64", &v) == LGG_OK); CHECK(lgg_value_u64(&v, &u64) == LGG_OK && u64 == UINT64_MAX);
    CHECK(lgg_value_int(&v, &i64) == LGG_ERR_RANGE);
    REQUIRE(lgg_get(f, "t.i64", &v) == LGG_OK); CHECK(lgg_value_i64(&v, &i64) == LGG_OK && i64 == INT64_MIN);
    REQUIRE(lgg_get(f, "t.f64", &v) == LGG_OK); CHECK(lgg_value_f64(&v, &f64) == LGG_OK && f64 == -2.5e300);

    lgg_value e;
    REQUIRE(lgg_get(f, "t.arr_i16", &v) == LGG_OK);
    CHECK(v.type == LGG_VT_ARRAY && v.elem_type == LGG_VT_I16 && v.count == 3);
    CHECK(lgg_array_get(&v, 1, &e) == LGG_OK && lgg_value_i16(&e, &i16) == LGG_OK && i16 == -2);
    CHECK(lgg_array_get(&v, 3, &e) == LGG_ERR_RANGE);
    CHECK(lgg_value_u8(&v, &u8) == LGG_ERR_TYPE);

    REQUIRE(lgg_get(f, "t.arr_str", &v) == LGG_OK);
    CHECK(lgg_array_get(&v, 2, &e) == LGG_OK && lgg_value_string(&e, &s) == LGG_OK && s.len == 3 && !memcmp(s.ptr, "ccc", 3));
    lgg_iter it;
    lgg_array_iter(&v, &it);
    const char *want[] = {"a", "", "ccc"};
    int n = 0;
    while (lgg_iter_next(&it, &e)) {
        REQUIRE(n < 3);
        CHECK(lgg_value_string(&e, &s) == LGG_OK && s.len == strlen(want[n]) && !memcmp(s.ptr, want[n], s.len));
        n++;
    }
    CHECK(n == 3);

    REQUIRE(lgg_get(f, "t.nested", &v) == LGG_OK);
    CHECK(v.elem_type == LGG_VT_ARRAY && v.count == 3);
    static const uint32_t flat[] = {1, 2, 3};
    int k = 0;
    lgg_array_iter(&v, &it);
    uint64_t counts[3], ci = 0;
    while (lgg_iter_next(&it, &e)) {
        REQUIRE(ci < 3);
        counts[ci++] = e.count;
        lgg_iter in;
        lgg_value x;
        lgg_array_iter(&e, &in);
        while (lgg_iter_next(&in, &x)) CHECK(lgg_value_u32(&x, &u32) == LGG_OK && u32 == flat[k++]);
    }
    CHECK(ci == 3 && counts[0] == 2 && counts[1] == 0 && counts[2] == 1 && k == 3);
    CHECK(lgg_array_get(&v, 2, &e) == LGG_OK && e.count == 1);

    REQUIRE(lgg_get(f, "t.empty", &v) == LGG_OK);
    CHECK(v.count == 0 && lgg_array_get(&v, 0, &e) == LGG_ERR_RANGE);
    lgg_array_iter(&v, &it);
    CHECK(!lgg_iter_next(&it, &e));

    /* file order and lookups */
    CHECK(lgg_kv_at(f, 0)->key.len == 4 && !memcmp(lgg_kv_at(f, 0)->key.ptr, "t.u8", 4));
    CHECK(lgg_kv_at(f, 16) == NULL);
    CHECK(lgg_find_key_cstr(f, "t.f64") == 11);
    CHECK(lgg_find_key_cstr(f, "t.nope") == -1);
    CHECK(lgg_find_key(f, "t.u8x", 4) == 0);
    CHECK(lgg_get(f, "missing", &v) == LGG_ERR_NOT_FOUND);
}

TEST(reader_all_value_types_v3_v2_v1_both_byte_orders) {
    for (uint32_t version = 1; version <= 3; version++) {
        for (int big = 0; big < 2; big++) {
            buf b = {0};
            b.big = big;
            build_all_types(&b, version);
            lgg_file *f = NULL;
            lgg_error e;
            lgg_status s = lgg_open_memory(b.p, b.n, NULL, &f, &e);
            CHECKF(s == LGG_OK, "v%u big=%d: %s", version, big, s ? e.message : "");
            if (f) {
                CHECK(lgg_file_version(f) == version);
                CHECK(lgg_file_endian(f) == (big ? LGG_BIG_ENDIAN : LGG_LITTLE_ENDIAN));
                check_all_types(f);
                lgg_report *r = NULL;
                REQUIRE(lgg_validate(f, NULL, &r) == LGG_OK);
                /* nested arrays and v1 are compatibility notes */
                size_t notes = lgg_report_count_severity(r, LGG_SEV_NOTE);
                CHECK(notes == (version == 1 ? 2u : 1u));
                lgg_report_free(r);
            }
            lgg_close(f);
            buf_free(&b);
        }
    }
}

TEST(reader_tensors_and_data) {
    buf b = {0};
    gen_small_model(&b);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(b.p, b.n, NULL, &f, NULL) == LGG_OK);
    CHECK(lgg_tensor_count(f) == 2);
    CHECK(lgg_file_alignment(f) == 32);
    CHECK(lgg_file_data_offset(f) % 32 == 0);
    const lgg_tensor *t = lgg_tensor_at(f, 1);
    REQUIRE(t != NULL);
    CHECK(t->name.len == 1 && t->name.ptr[0] == 'b');
    CHECK(t->n_dims == 2 && t->ne[0] == 4 && t->ne[1] == 2 && t->ne[2] == 1 && t->ne[3] == 1);
    CHECK(t->n_elements == 8 && t->size == 32 && t->offset == 32);
    CHECK(t->file_offset == lgg_file_data_offset(f) + 32);
    float x;
    memcpy(&x, t->data, 4);
    CHECK(x == 9.0f);
    CHECK(lgg_find_tensor_cstr(f, "b") == 1 && lgg_find_tensor_cstr(f, "a") == 0 && lgg_find_tensor_cstr(f, "c") == -1);
    CHECK(lgg_tensor_at(f, 2) == NULL);
    CHECK(lgg_parameter_count(f) == 16);
    CHECK(lgg_file_data_end(f) == lgg_file_size(f));
    lgg_close(f);
    buf_free(&b);
}

TEST(reader_open_fd_path_and_pipe) {
    buf b = {0};
    gen_small_model(&b);
    char path[512];
    snprintf(path, sizeof path, "%s/small.gguf", scratch_dir());
    FILE *o = fopen(path, "wb");
    REQUIRE(o != NULL);
    fwrite(b.p, 1, b.n, o);
    fclose(o);
    lgg_file *f = NULL;
    CHECK(lgg_open_file(path, NULL, &f, NULL) == LGG_OK && lgg_tensor_count(f) == 2);
    lgg_close(f);
    lgg_error e;
    CHECK(lgg_open_file("/nonexistent/x.gguf", NULL, &f, &e) == LGG_ERR_IO && f == NULL);
    CHECK(lgg_open_file(scratch_dir(), NULL, &f, &e) == LGG_ERR_IO);
    /* a pipe is read into memory */
    int p[2];
    REQUIRE(pipe(p) == 0);
    REQUIRE(write(p[1], b.p, b.n) == (ssize_t)b.n);
    close(p[1]);
    CHECK(lgg_open_fd(p[0], NULL, &f, &e) == LGG_OK && lgg_tensor_count(f) == 2);
    close(p[0]);
    lgg_close(f);
    lgg_close(NULL);
    buf_free(&b);
}

TEST(reader_arguments) {
    lgg_file *f = (lgg_file *)1;
    CHECK(lgg_open_memory(NULL, 10, NULL, &f, NULL) == LGG_ERR_ARG && f == NULL);
    CHECK(lgg_open_memory("GGUF", 4, NULL, NULL, NULL) == LGG_ERR_ARG);
    CHECK(lgg_open_file(NULL, NULL, &f, NULL) == LGG_ERR_ARG);
    CHECK(lgg_kv_count(NULL) == 0 && lgg_kv_at(NULL, 0) == NULL && lgg_find_key_cstr(NULL, "x") == -1);
    lgg_value v;
    uint8_t u;
    CHECK(lgg_value_u8(NULL, &u) == LGG_ERR_ARG && lgg_value_u8(&v, NULL) == LGG_ERR_ARG);
    CHECK(lgg_validate(NULL, NULL, NULL) == LGG_ERR_ARG);
    CHECK(!strcmp(lgg_status_name(LGG_ERR_TRUNCATED), "truncated") && !strcmp(lgg_status_name((lgg_status)999), "unknown"));
}

TEST(cursor_loads_both_orders_and_short_reads) {
    const uint8_t bytes[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    lgg_error e;
    lgg_cursor c = {bytes, sizeof bytes, 0, false, 8, &e};
    uint32_t u32;
    uint64_t u64;
    CHECK(lgg__cur_u32(&c, &u32, "x") == LGG_OK && u32 == 0x04030201u && c.pos == 4);
    c.swap = true;
    CHECK(lgg__cur_u64(&c, &u64, "y") == LGG_OK && u64 == UINT64_C(0x05060708090a0b0c) && c.pos == 12);
    CHECK(lgg__cur_u32(&c, &u32, "tail") == LGG_ERR_TRUNCATED && e.offset == 12 && c.pos == 12);
    CHECK_STR(e.message, "tail at offset 12 needs 4 bytes but the file has 0 left");
    c.pos = 8;
    c.lw = 4;
    c.swap = false;
    CHECK(lgg__cur_len(&c, &u64, "n") == LGG_OK && u64 == 0x0c0b0a09u);
    CHECK(lgg__ld16(bytes, true) == 0x0102 && lgg__ld16(bytes, false) == 0x0201);
}

TEST(utf8_validation) {
    uint64_t at;
    CHECK(lgg__utf8_valid((const uint8_t *)"plain ascii text, long enough for words", 39, &at));
    CHECK(lgg__utf8_valid((const uint8_t *)"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 9, &at));
    CHECK(!lgg__utf8_valid((const uint8_t *)"ab\xC0\xAF", 4, &at) && at == 2);        /* overlong */
    CHECK(!lgg__utf8_valid((const uint8_t *)"\xED\xA0\x80", 3, &at) && at == 0);      /* surrogate */
    CHECK(!lgg__utf8_valid((const uint8_t *)"\xF4\x90\x80\x80", 4, &at));             /* > U+10FFFF */
    CHECK(!lgg__utf8_valid((const uint8_t *)"abcdefgh\xE2\x82", 10, &at) && at == 8); /* cut short */
    CHECK(!lgg__utf8_valid((const uint8_t *)"\xFF", 1, &at));
}

TEST(naming_convention_examples) {
    static const struct { const char *name, *base, *size, *ft, *ver, *enc, *type, *shard; } C[] = {
        {"Mixtral-8x7B-v0.1-KQ2.gguf", "Mixtral", "8x7B", "", "v0.1", "KQ2", "", ""},
        {"Grok-100B-v1.0-Q4_0-00003-of-00009.gguf", "Grok", "100B", "", "v1.0", "Q4_0", "", "00003-of-00009"},
        {"Hermes-2-Pro-Llama-3-8B-v1.0-F16.gguf", "Hermes-2-Pro-Llama-3", "8B", "", "v1.0", "F16", "", ""},
        {"Phi-3-mini-3.8B-ContextLength4k-instruct-v1.0.gguf", "Phi-3-mini", "3.8B-ContextLength4k", "instruct", "v1.0", "", "", ""},
        {"Llama-3-8B-v1.0-vocab.gguf", "Llama-3", "8B", "", "v1.0", "", "vocab", ""},
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        lgg_name_parts p;
        REQUIRE(lgg_name_parse(C[i].name, strlen(C[i].name), &p));
#define PART(field, want) CHECKF(p.field.len == strlen(want) && (!p.field.len || !memcmp(p.field.ptr, want, p.field.len)), "%s: " #field " = '%.*s'", C[i].name, (int)p.field.len, p.field.ptr ? p.field.ptr : "")
        PART(base_name, C[i].base);
        PART(size_label, C[i].size);
        PART(fine_tune, C[i].ft);
        PART(version, C[i].ver);
        PART(encoding, C[i].enc);
        PART(type, C[i].type);
        PART(shard, C[i].shard);
#undef PART
    }
    CHECK(!lgg_name_parse("not-a-known-arrangement.gguf", 28, NULL));
    CHECK(!lgg_name_parse("model.bin", 9, NULL));
    CHECK(!lgg_name_parse("Llama-7B.gguf", 13, NULL)); /* no version */
}

TEST(size_labels_as_gguf_py) {
    char b[32];
    lgg_size_label(6738415616ull, 0, b, sizeof b); CHECK_STR(b, "6.7B");
    lgg_size_label(13015864320ull, 0, b, sizeof b); CHECK_STR(b, "13B");
    lgg_size_label(838860800ull, 0, b, sizeof b); CHECK_STR(b, "839M");
    lgg_size_label(1100048384ull, 0, b, sizeof b); CHECK_STR(b, "1.1B");
    lgg_size_label(513048ull, 0, b, sizeof b); CHECK_STR(b, "513K");
    lgg_size_label(7241732096ull, 8, b, sizeof b); CHECK_STR(b, "8x7.2B");
    CHECK(lgg_size_label(7241732096ull, 8, b, 3) == 6 && b[0] == 0);
}

/* The AVX2 validator exists only in x86 builds (check-aarch64 cross-builds this file). */
#if defined(__x86_64__) || defined(__i386__)
bool lgg__utf8_valid_scalar(const uint8_t *s, uint64_t len, uint64_t *bad_at);
bool lgg__utf8_valid_avx2(const uint8_t *s, uint64_t len);

TEST(utf8_vector_validator_agrees_with_scalar) {
    if (!__builtin_cpu_supports("avx2")) return;
    /* random strings built from valid and invalid pieces, every length to 300 */
    static const char *const pieces[] = {"a", "z~", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xC4\xA0",
                                         "\x80", "\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xE0\x9F\xBF",
                                         "\xF0\x8F\xBF\xBF", "\xC3", "\xE2\x82", "\xF0\x9F\x98", "\xFF", "\xF5\x80\x80\x80",
                                         "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF"};
    uint64_t seed = 12345;
    uint8_t s[400];
    int mismatches = 0, invalid = 0;
    for (int iter = 0; iter < 40000; iter++) {
        size_t n = 0, target = (size_t)(iter % 300);
        while (n < target) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            /* mostly valid pieces so that long valid strings are common */
            unsigned r = (unsigned)(seed >> 33);
            const char *p = pieces[(r % 100) < 97 ? r % 6 : 6 + r % 14];
            size_t l = strlen(p);
            if (n + l > sizeof s) break;
            memcpy(s + n, p, l);
            n += l;
        }
        uint64_t at;
        bool a = lgg__utf8_valid_scalar(s, n, &at), b = lgg__utf8_valid_avx2(s, n);
        if (a != b && mismatches++ < 5) test_fail(__FILE__, __LINE__, "length %zu: scalar %d, avx2 %d", n, a, b);
        invalid += !a;
    }
    CHECK(mismatches == 0);
    CHECK(invalid > 1000 && invalid < 39000);
}
#endif
