/* test_options.c -- options structs that can grow (libgguf.h, above
 * lgg_open_options): size 0 is the first layout, a larger size from a newer
 * caller is accepted only when the fields this version does not know are
 * zero, a size below the first layout is refused; the INIT macros and the
 * _init functions agree. */
#include "test.h"

#include "libgguf.h"

#include <stdlib.h>

/* A GGUF v3 file of the specification, byte by byte: no tensors, one key
 * general.alignment = 64 (u32). */
static const unsigned char tiny[] = {'G', 'G', 'U', 'F', 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                     17, 0, 0, 0, 0, 0, 0, 0, 'g', 'e', 'n', 'e', 'r', 'a', 'l', '.', 'a', 'l', 'i',
                                     'g', 'n', 'm', 'e', 'n', 't', 4, 0, 0, 0, 64, 0, 0, 0};

TEST(options_size_zero_is_the_first_layout) {
    lgg_open_options o = {0};
    o.limits.max_kv = 1; /* read: the file has one pair, allowed */
    lgg_file *f;
    lgg_error e;
    REQUIRE(lgg_open_memory(tiny, sizeof tiny, &o, &f, &e) == LGG_OK);
    lgg_close(f);
    o.limits.max_kv = 0;
    o.limits.max_string_len = 4; /* read too: the 17-byte key is refused */
    CHECK(lgg_open_memory(tiny, sizeof tiny, &o, &f, &e) == LGG_ERR_LIMIT);
}

TEST(options_newer_callers_fields_must_be_zero) {
    /* a caller built against a later header with one more field */
    struct {
        lgg_open_options o;
        uint64_t later;
    } n;
    memset(&n, 0, sizeof n);
    n.o.size = sizeof n;
    lgg_file *f;
    lgg_error e;
    REQUIRE(lgg_open_memory(tiny, sizeof tiny, &n.o, &f, &e) == LGG_OK);
    lgg_close(f);
    n.later = 1;
    CHECK(lgg_open_memory(tiny, sizeof tiny, &n.o, &f, &e) == LGG_ERR_UNSUPPORTED);
    CHECK(strstr(e.message, "lgg_open_options") != NULL);
    n.o.size = 4; /* not even the size field */
    CHECK(lgg_open_memory(tiny, sizeof tiny, &n.o, &f, &e) == LGG_ERR_ARG);
    lgg_validate_options vo = {.size = 4};
    lgg_report *r = NULL;
    REQUIRE(lgg_open_memory(tiny, sizeof tiny, NULL, &f, &e) == LGG_OK);
    CHECK(lgg_validate(f, &vo, &r) == LGG_ERR_ARG);
    CHECK(r == NULL);
    lgg_close(f);
}

TEST(options_copy_zero_fills_what_the_size_does_not_cover) {
    typedef struct {
        size_t size;
        uint64_t a, b, c, d;
    } later; /* a struct whose first layout ended after a */
    struct {
        size_t size;
        uint64_t a;
    } older = {sizeof older, 7};
    later dst;
    memset(&dst, 0xff, sizeof dst);
    REQUIRE(lgg_options_copy(&dst, sizeof dst, sizeof older, &older, "t", NULL) == LGG_OK);
    CHECK(dst.size == sizeof dst && dst.a == 7 && dst.b == 0 && dst.c == 0 && dst.d == 0);
    older.size = 0; /* the first layout */
    REQUIRE(lgg_options_copy(&dst, sizeof dst, sizeof older, &older, "t", NULL) == LGG_OK);
    CHECK(dst.a == 7 && dst.b == 0);
    REQUIRE(lgg_options_copy(&dst, sizeof dst, sizeof older, NULL, "t", NULL) == LGG_OK);
    CHECK(dst.size == sizeof dst && dst.a == 0);
}

TEST(options_init_macros_match_init_functions) {
#define SAME(type, init, MACRO)                                                                    \
    do {                                                                                           \
        type a_, b_ = MACRO;                                                                       \
        memset(&a_, 0x5a, sizeof a_);                                                              \
        init(&a_);                                                                                 \
        CHECKF(!memcmp(&a_, &b_, sizeof a_), #init " and " #MACRO " differ");                       \
        CHECK(b_.size == sizeof(type));                                                            \
    } while (0)
    SAME(lgg_open_options, lgg_open_options_init, LGG_OPEN_OPTIONS_INIT);
    SAME(lgg_write_options, lgg_write_options_init, LGG_WRITE_OPTIONS_INIT);
    SAME(lgg_split_options, lgg_split_options_init, LGG_SPLIT_OPTIONS_INIT);
    SAME(lgg_quant_options, lgg_quant_options_init, LGG_QUANT_OPTIONS_INIT);
    SAME(lgg_quant_write_options, lgg_quant_write_options_init, LGG_QUANT_WRITE_OPTIONS_INIT);
    SAME(lgg_estimate_params, lgg_estimate_params_init, LGG_ESTIMATE_PARAMS_INIT);
#undef SAME
    lgg_estimate_params p = LGG_ESTIMATE_PARAMS_INIT; /* llama-cli's defaults, as documented */
    CHECK(p.n_ctx == 4096 && p.n_batch == 2048 && p.n_ubatch == 512 && p.n_seq_max == 1);
    lgg_quant_options q = LGG_QUANT_OPTIONS_INIT;
    CHECK(q.output_tensor_type == LGG_TYPE_COUNT && q.token_embedding_type == LGG_TYPE_COUNT);
}
