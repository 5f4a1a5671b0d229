/* test_galloc.c -- the copy of ggml's graph allocator (src/model/galloc.c) on
 * small graphs whose buffer can be worked out by hand: in-place reuse and
 * its conditions, frees after the last reader, views keeping their source
 * alive, best-fit reuse of freed blocks, and the depth-first node order. */
#include "test.h"
#include "model/galloc.h"

static const int64_t V256[4] = {64, 1, 1, 1}; /* 64 floats: 256 bytes */
static const int64_t V512[4] = {128, 1, 1, 1};

static uint64_t reserve(g_graph *g, int32_t root) {
    lgg__g_expand(g, root);
    uint64_t size = 0;
    CHECK(lgg__g_reserve(g, &size) == LGG_OK);
    lgg__g_free(g);
    return size;
}

TEST(galloc_in_place_chain) {
    /* input -> a (new) -> b, c (in place, one reader each): two buffers */
    g_graph g;
    lgg__g_init(&g, NULL);
    int32_t in = lgg__g_input(&g, LGG_TYPE_F32, 64, 1);
    int32_t a = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, in, -1, -1, -1);
    int32_t b = lgg__g_op(&g, G_INPLACE, LGG_TYPE_F32, V256, a, -1, -1, -1);
    int32_t c = lgg__g_op(&g, G_INPLACE, LGG_TYPE_F32, V256, b, -1, -1, -1);
    CHECK_EQ_U(reserve(&g, c), 512);
}

TEST(galloc_no_reuse_with_two_readers) {
    /* a has two readers: b may not take it over; a lives until d */
    g_graph g;
    lgg__g_init(&g, NULL);
    int32_t in = lgg__g_input(&g, LGG_TYPE_F32, 64, 1);
    int32_t a = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, in, -1, -1, -1);
    int32_t b = lgg__g_op(&g, G_INPLACE, LGG_TYPE_F32, V256, a, -1, -1, -1);
    int32_t d = lgg__g_op(&g, G_INPLACE, LGG_TYPE_F32, V256, b, a, -1, -1);
    CHECK_EQ_U(reserve(&g, d), 512); /* a, and b in the freed input's block; d reuses b */
}

TEST(galloc_layout_and_views) {
    /* a different shape is not reused; a view keeps its source alive */
    g_graph g;
    lgg__g_init(&g, NULL);
    int32_t in = lgg__g_input(&g, LGG_TYPE_F32, 64, 1);
    int32_t a = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, in, -1, -1, -1);
    int32_t v = lgg__g_view(&g, a, LGG_TYPE_F32, V256, NULL);
    int32_t big = lgg__g_op(&g, G_INPLACE, LGG_TYPE_F32, V512, v, -1, -1, -1); /* cannot reuse a view */
    int32_t e = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, big, -1, -1, -1);
    /* in 256 + a 256 + big 512; after big, a is free (its only view is done) and e takes it */
    CHECK_EQ_U(reserve(&g, e), 1024);
}

TEST(galloc_best_fit_and_alignment) {
    /* sizes round up to 32; a freed block is reused by a smaller tensor */
    g_graph g;
    lgg__g_init(&g, NULL);
    const int64_t odd[4] = {3, 1, 1, 1}; /* 12 bytes: 32 */
    int32_t in = lgg__g_input(&g, LGG_TYPE_F32, 3, 1);
    int32_t a = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V512, in, -1, -1, -1);
    int32_t b = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, a, -1, -1, -1); /* a freed after b */
    int32_t c = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, odd, b, -1, -1, -1);   /* lands in a's old block */
    CHECK_EQ_U(reserve(&g, c), 32 + 512 + 256);
}

TEST(galloc_depth_first_order) {
    /* expand visits sources in order: the first source's chain is built first */
    g_graph g;
    lgg__g_init(&g, NULL);
    int32_t in = lgg__g_input(&g, LGG_TYPE_F32, 64, 1);
    int32_t x = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, in, -1, -1, -1);
    int32_t y = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, in, -1, -1, -1);
    int32_t s = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, y, x, -1, -1);
    lgg__g_expand(&g, s);
    CHECK(g.n_nodes == 3 && g.nodes[0] == y && g.nodes[1] == x && g.nodes[2] == s);
    CHECK(g.n_leafs == 1 && g.leafs[0] == in);
    lgg__g_free(&g);
}

TEST(galloc_deep_chain_and_overflow) {
    /* a chain far deeper than any stack recursion would survive */
    g_graph g;
    lgg__g_init(&g, NULL);
    int32_t t = lgg__g_input(&g, LGG_TYPE_F32, 64, 1);
    for (int i = 0; i < 200000; i++) t = lgg__g_op(&g, G_NEW, LGG_TYPE_F32, V256, t, -1, -1, -1);
    CHECK_EQ_U(reserve(&g, t), 512); /* two blocks, taken in turn */
    /* a shape whose byte size overflows: an error, not a number */
    lgg__g_init(&g, NULL);
    const int64_t huge[4] = {INT64_MAX / 2, 4, 1, 1};
    int32_t in = lgg__g_input(&g, LGG_TYPE_F32, 1, 1);
    lgg__g_expand(&g, lgg__g_op(&g, G_NEW, LGG_TYPE_F32, huge, in, -1, -1, -1));
    uint64_t size = 0;
    CHECK(lgg__g_reserve(&g, &size) != LGG_OK);
    lgg__g_free(&g);
}
