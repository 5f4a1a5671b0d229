/* test_types.c -- the type table and half-precision conversions. */
#include "test.h"
#include "libgguf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TEST(types_table_ids_and_names) {
    static const struct { uint32_t id; const char *name; uint32_t bs, ts; } want[] = {
        {0, "F32", 1, 4},        {1, "F16", 1, 2},         {2, "Q4_0", 32, 18},      {3, "Q4_1", 32, 20},
        {6, "Q5_0", 32, 22},     {7, "Q5_1", 32, 24},      {8, "Q8_0", 32, 34},      {9, "Q8_1", 32, 36},
        {10, "Q2_K", 256, 84},   {11, "Q3_K", 256, 110},   {12, "Q4_K", 256, 144},   {13, "Q5_K", 256, 176},
        {14, "Q6_K", 256, 210},  {15, "Q8_K", 256, 292},   {16, "IQ2_XXS", 256, 66}, {17, "IQ2_XS", 256, 74},
        {18, "IQ3_XXS", 256, 98},{19, "IQ1_S", 256, 50},   {20, "IQ4_NL", 32, 18},   {21, "IQ3_S", 256, 110},
        {22, "IQ2_S", 256, 82},  {23, "IQ4_XS", 256, 136}, {24, "I8", 1, 1},         {25, "I16", 1, 2},
        {26, "I32", 1, 4},       {27, "I64", 1, 8},        {28, "F64", 1, 8},        {29, "IQ1_M", 256, 56},
        {30, "BF16", 1, 2},      {34, "TQ1_0", 256, 54},   {35, "TQ2_0", 256, 66},   {39, "MXFP4", 32, 17},
        {40, "NVFP4", 64, 36},   {41, "Q1_0", 128, 18},    {42, "Q2_0", 64, 18},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const lgg_type_info *t = lgg_type_get(want[i].id);
        REQUIRE(t != NULL);
        CHECK_EQ_U(t->id, want[i].id);
        CHECK_STR(t->name, want[i].name);
        CHECK_EQ_U(t->block_size, want[i].bs);
        CHECK_EQ_U(t->type_size, want[i].ts);
        CHECK(!t->removed);
        CHECK(lgg_type_is_valid(want[i].id));
        uint32_t id = 999;
        CHECK(lgg_type_from_name(want[i].name, strlen(want[i].name), &id) == LGG_OK && id == want[i].id);
        /* every multi-byte field lies inside the block */
        for (int f = 0; f < t->n_fields; f++)
            CHECK(t->fields[f].offset + (uint32_t)t->fields[f].width * t->fields[f].count <= t->type_size);
    }
    static const uint32_t removed[] = {4, 5, 31, 32, 33, 36, 37, 38};
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        const lgg_type_info *t = lgg_type_get(removed[i]);
        REQUIRE(t != NULL);
        CHECK(t->removed);
        CHECK(!lgg_type_is_valid(removed[i]));
    }
    CHECK(lgg_type_get(43) == NULL);
    CHECK(lgg_type_get(UINT32_MAX) == NULL);
    uint32_t id;
    CHECK(lgg_type_from_name("q4_k", 4, &id) == LGG_OK && id == LGG_TYPE_Q4_K);
    CHECK(lgg_type_from_name("Q4_2", 4, &id) == LGG_ERR_NOT_FOUND);
    CHECK(lgg_type_from_name("nope", 4, &id) == LGG_ERR_NOT_FOUND);
}

TEST(types_nbytes) {
    uint64_t b = 0;
    CHECK(lgg_type_nbytes(LGG_TYPE_Q4_K, 512, &b) == LGG_OK && b == 288);
    CHECK(lgg_type_nbytes(LGG_TYPE_Q4_K, 100, &b) == LGG_ERR_RANGE);
    CHECK(lgg_type_nbytes(LGG_TYPE_F32, UINT64_MAX, &b) == LGG_ERR_TENSOR_DIMS);
    CHECK(lgg_type_nbytes(4, 32, &b) == LGG_ERR_ARG);
}

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float bitsf(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

TEST(fp16_roundtrip_all_65536) {
    /* f16 -> f32 is exact and f32 -> f16 gives back the same bits (NaN: quiet, sign kept) */
    for (uint32_t h = 0; h < 65536; h++) {
        float f = lgg_f16_to_f32((uint16_t)h);
        uint16_t back = lgg_f32_to_f16(f);
        if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff)) {
            CHECK(isnan(f));
            CHECKF(back == ((h & 0x8000) | 0x7e00), "nan %04x -> %04x", h, back);
        } else {
            CHECKF(back == h, "%04x -> %08x -> %04x", h, fbits(f), back);
        }
        /* value check against the definition */
        int e = (h >> 10) & 31, m = h & 1023;
        double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
        if (h & 0x8000) v = -v;
        if (!isnan(v)) CHECKF((double)f == v, "%04x value", h);
    }
}

TEST(fp16_round_to_nearest_even) {
    CHECK(lgg_f32_to_f16(1.0f) == 0x3c00);
    /* 1 + 2^-11 is halfway between 1 and 1+2^-10: ties to even (1.0) */
    CHECK(lgg_f32_to_f16(bitsf(0x3f801000)) == 0x3c00);
    /* 1 + 3*2^-11: ties to even (1 + 2^-9) */
    CHECK(lgg_f32_to_f16(bitsf(0x3f803000)) == 0x3c02);
    CHECK(lgg_f32_to_f16(65520.0f) == 0x7c00); /* rounds up to inf */
    CHECK(lgg_f32_to_f16(65519.0f) == 0x7bff);
    CHECK(lgg_f32_to_f16(-0.0f) == 0x8000);
    CHECK(lgg_f32_to_f16(1e-8f) == 0x0000);
    CHECK(lgg_f32_to_f16(bitsf(0x33800001)) == 0x0001); /* just above half the smallest subnormal */
    CHECK(lgg_f32_to_f16(bitsf(0x7f800001)) == 0x7e00);
    CHECK(lgg_f32_to_f16(bitsf(0xffc00000)) == 0xfe00);
}

TEST(bf16_all_65536_and_rounding) {
    for (uint32_t h = 0; h < 65536; h++) {
        float f = lgg_bf16_to_f32((uint16_t)h);
        CHECK(fbits(f) == h << 16);
        uint16_t back = lgg_f32_to_bf16(f);
        if ((h & 0x7f80) == 0x7f80 && (h & 0x7f)) CHECK(back == (h | 64));
        else CHECK(back == h);
    }
    CHECK(lgg_f32_to_bf16(bitsf(0x3f808000)) == 0x3f80); /* tie -> even */
    CHECK(lgg_f32_to_bf16(bitsf(0x3f818000)) == 0x3f82); /* tie -> even (up) */
    CHECK(lgg_f32_to_bf16(bitsf(0x3f808001)) == 0x3f81);
    CHECK(lgg_f32_to_bf16(bitsf(0x7f7fffff)) == 0x7f80); /* overflow to inf */
}

/* The version is written once (libgguf.h's three numbers); the man page's
 * title line must name the same one. */
TEST(version_one_source) {
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", LGG_VERSION_MAJOR, LGG_VERSION_MINOR, LGG_VERSION_PATCH);
    CHECK(strcmp(lgg_version(), want) == 0);
    CHECK(strcmp(LGG_VERSION_STRING, want) == 0);
    size_t n = 0;
    char *man = (char *)read_file("docs/gguf.1", &n);
    REQUIRE(man != NULL);
    char th[128];
    snprintf(th, sizeof th, "\"libgguf %s\"", want);
    const char *nl = memchr(man, '\n', n);
    CHECKF(nl && memmem(man, (size_t)(nl - man), th, strlen(th)) != NULL, "docs/gguf.1's .TH line does not name %s",
           th);
    free(man);
}
