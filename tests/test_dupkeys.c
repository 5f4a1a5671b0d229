/* test_dupkeys.c -- lgg_writer_from_file keeps the first occurrence of a
 * repeated key (the one lookups return; ggml refuses repeats) and says what
 * it left out; LGG_FROM_FILE_KEEP_DUPLICATES keeps them all. */
#include "test.h"
#include "libgguf.h"
#include "gen.h"

#include <stdlib.h>

/* a=1, b="x", a=2, c=3, b="y", a=4 (u32 and strings), one F32 tensor */
static void gen_dups(buf *b) {
    gen_header(b, 3, 1, 6);
    static const char *const keys[] = {"k.a", "k.b", "k.a", "k.c", "k.b", "k.a"};
    static const uint32_t vals[] = {1, 0, 2, 3, 0, 4};
    static const char *const strs[] = {NULL, "x", NULL, NULL, "y", NULL};
    for (int i = 0; i < 6; i++) {
        if (strs[i]) {
            gen_key(b, 3, keys[i], LGG_VT_STRING);
            gen_str(b, 3, strs[i]);
        } else {
            gen_key(b, 3, keys[i], LGG_VT_U32);
            buf_u32(b, vals[i]);
        }
    }
    uint64_t ne[1] = {8};
    gen_tensor(b, 3, "t", 1, ne, LGG_TYPE_F32, 0);
    buf_pad(b, 32);
    for (int i = 0; i < 32; i++) buf_u8(b, (uint8_t)i);
}

/* Write w to a scratch file and open it. */
static lgg_file *write_and_open(const lgg_writer *w, const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", scratch_dir(), name);
    lgg_error e;
    if (lgg_writer_write_file(w, path, NULL, &e) != LGG_OK) return NULL;
    lgg_file *f = NULL;
    return lgg_open_file(path, NULL, &f, &e) == LGG_OK ? f : NULL;
}

TEST(dupkeys_first_occurrence_kept_by_default) {
    buf b = {0};
    gen_dups(&b);
    lgg_file *f = NULL;
    lgg_error e;
    REQUIRE(lgg_open_memory(b.p, b.n, NULL, &f, &e) == LGG_OK);
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_from_file(f, -1, NULL, 0, &w, &e) == LGG_OK);
    CHECK_EQ_U(lgg_writer_kv_count(w), 3);
    CHECK_EQ_U(lgg_writer_dropped_count(w), 3);
    static const uint64_t dropped_index[] = {2, 4, 5};
    for (uint64_t i = 0; i < 3; i++) {
        const lgg_kv *d = lgg_writer_dropped_at(w, i);
        REQUIRE(d != NULL);
        CHECK(d == lgg_kv_at(f, dropped_index[i])); /* a view into the source, with its offset */
    }
    CHECK(lgg_writer_dropped_at(w, 3) == NULL);
    lgg_file *g = write_and_open(w, "dups-dropped.gguf");
    REQUIRE(g != NULL);
    CHECK_EQ_U(lgg_kv_count(g), 3);
    lgg_value v;
    uint32_t u;
    lgg_str s;
    CHECK(lgg_get(g, "k.a", &v) == LGG_OK && lgg_value_u32(&v, &u) == LGG_OK && u == 1);
    CHECK(lgg_get(g, "k.b", &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK && s.len == 1 && s.ptr[0] == 'x');
    CHECK(lgg_get(g, "k.c", &v) == LGG_OK && lgg_value_u32(&v, &u) == LGG_OK && u == 3);
    CHECK(lgg_kv_at(g, 2)->key.len == 3 && memcmp(lgg_kv_at(g, 2)->key.ptr, "k.c", 3) == 0); /* order kept */
    CHECK_EQ_U(lgg_tensor_count(g), 1);
    lgg_close(g);
    lgg_writer_free(w);

    /* all of them, on request */
    REQUIRE(lgg_writer_from_file(f, -1, NULL, LGG_FROM_FILE_KEEP_DUPLICATES, &w, &e) == LGG_OK);
    CHECK_EQ_U(lgg_writer_kv_count(w), 6);
    CHECK_EQ_U(lgg_writer_dropped_count(w), 0);
    CHECK(lgg_writer_dropped_at(w, 0) == NULL);
    g = write_and_open(w, "dups-kept.gguf");
    REQUIRE(g != NULL);
    CHECK_EQ_U(lgg_kv_count(g), 6);
    CHECK(lgg_value_u32(&lgg_kv_at(g, 5)->value, &u) == LGG_OK && u == 4);
    lgg_close(g);
    lgg_writer_free(w);

    w = (lgg_writer *)&b; /* must be overwritten with NULL */
    CHECK(lgg_writer_from_file(f, -1, NULL, 0x80, &w, &e) == LGG_ERR_ARG);
    CHECK(w == NULL);
    CHECK(lgg_writer_dropped_count(NULL) == 0 && lgg_writer_dropped_at(NULL, 0) == NULL);
    lgg_close(f);
    buf_free(&b);
}

/* A writer built by hand has nothing dropped. */
TEST(dupkeys_plain_writer_drops_nothing) {
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    CHECK(lgg_writer_set_u32(w, "a.b", 1, NULL) == LGG_OK);
    CHECK_EQ_U(lgg_writer_dropped_count(w), 0);
    CHECK(lgg_writer_dropped_at(w, 0) == NULL);
    lgg_writer_free(w);
}
