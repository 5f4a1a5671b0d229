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

/* Field by field: padding bytes may differ between the two (clang's
 * compound literals leave them as they were). */
TEST(options_init_macros_match_init_functions) {
    lgg_open_options o1, o2 = LGG_OPEN_OPTIONS_INIT;
    lgg_open_options_init(&o1);
    CHECK(o1.size == sizeof o1 && o2.size == sizeof o2 && !o1.allocator && !o2.allocator && !o1.flags && !o2.flags);
    const lgg_limits *ls[2] = {&o1.limits, &o2.limits};
    for (int i = 0; i < 2; i++) /* zeros: the defaults */
        CHECK(!ls[i]->max_string_len && !ls[i]->max_array_len && !ls[i]->max_depth && !ls[i]->max_kv &&
              !ls[i]->max_tensors && !ls[i]->max_dims);
    lgg_write_options w1, w2 = LGG_WRITE_OPTIONS_INIT;
    lgg_write_options_init(&w1);
    CHECK(w1.size == sizeof w1 && w2.size == sizeof w2 && w1.version == w2.version && w1.endian == w2.endian &&
          w1.alignment == w2.alignment && w1.flags == w2.flags && !w1.write_fn && !w2.write_fn && !w1.temp_fn);
    lgg_split_options s1, s2 = LGG_SPLIT_OPTIONS_INIT;
    lgg_split_options_init(&s1);
    CHECK(s1.size == sizeof s1 && s2.size == sizeof s2 && s1.max_tensors == s2.max_tensors &&
          s1.max_size == s2.max_size && s1.flags == s2.flags);
    lgg_quant_options q1, q2 = LGG_QUANT_OPTIONS_INIT;
    lgg_quant_options_init(&q1);
    CHECK(q1.size == sizeof q1 && q2.size == sizeof q2 && !q1.preset && !q2.preset &&
          q1.output_tensor_type == LGG_TYPE_COUNT && q2.output_tensor_type == LGG_TYPE_COUNT &&
          q1.token_embedding_type == LGG_TYPE_COUNT && q2.token_embedding_type == LGG_TYPE_COUNT &&
          q1.pure == q2.pure && q1.keep_split == q2.keep_split && q1.n_tensor_types == q2.n_tensor_types);
    lgg_quant_write_options qw1, qw2 = LGG_QUANT_WRITE_OPTIONS_INIT;
    lgg_quant_write_options_init(&qw1);
    CHECK(qw1.size == sizeof qw1 && qw2.size == sizeof qw2 && qw1.n_threads == qw2.n_threads &&
          qw1.n_overrides == qw2.n_overrides && qw1.write_flags == qw2.write_flags && !qw1.progress);
    /* llama-cli's defaults, as documented */
    lgg_estimate_params p1, p2 = LGG_ESTIMATE_PARAMS_INIT;
    lgg_estimate_params_init(&p1);
    const lgg_estimate_params *ps[2] = {&p1, &p2};
    for (int i = 0; i < 2; i++)
        CHECK(ps[i]->size == sizeof p1 && ps[i]->n_ctx == 4096 && ps[i]->n_batch == 2048 && ps[i]->n_ubatch == 512 &&
              ps[i]->n_seq_max == 1 && ps[i]->type_k == LGG_TYPE_F16 && ps[i]->type_v == LGG_TYPE_F16 &&
              !ps[i]->flash_attn && !ps[i]->no_mmap && !ps[i]->n_gpu_layers && !ps[i]->allocator);
}
