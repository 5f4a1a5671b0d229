/* test_imatrix.c -- llama.cpp's importance matrices: the legacy .dat the
 * golden runs used, the GGUF format (built here with the writer), and
 * hostile variants of both (every prefix, bad counts, missing parts). */
#include "libgguf.h"
#include "test.h"
#include "standin.h"

#include <stdlib.h>

static void put_i32(buf *b, int32_t v) { buf_u32(b, (uint32_t)v); }
static void put_f32(buf *b, float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    buf_u32(b, u);
}

/* A legacy file: entries (name, ncall, values), then optionally the chunk
 * count and dataset name. */
static void legacy(buf *b, bool trailer) {
    memset(b, 0, sizeof *b);
    put_i32(b, 3);
    const char *names[] = {"blk.0.attn_k.weight", "blk.0.ffn_down.weight", "blk.0.attn_k.weight"};
    for (int e = 0; e < 3; e++) {
        put_i32(b, (int32_t)strlen(names[e]));
        buf_put(b, names[e], strlen(names[e]));
        put_i32(b, e == 1 ? 0 : 3); /* ncall: 0 keeps the sums as they are */
        put_i32(b, 4);
        for (int j = 0; j < 4; j++) put_f32(b, (float)(e * 10 + j + 1));
    }
    if (trailer) {
        put_i32(b, 42);
        put_i32(b, 8);
        buf_put(b, "data.txt", 8);
    }
}

TEST(imatrix_legacy_built) {
    buf b;
    legacy(&b, true);
    lgg_imatrix *m = NULL;
    lgg_error err;
    REQUIRE(lgg_imatrix_load_memory(b.p, b.n, NULL, &m, &err) == LGG_OK);
    CHECK(lgg_imatrix_format(m) == LGG_IMATRIX_LEGACY);
    CHECK_EQ_U(lgg_imatrix_count(m), 2); /* the repeated name keeps its last vector */
    CHECK(lgg_imatrix_chunks(m) == 42);
    lgg_str ds;
    CHECK(lgg_imatrix_dataset(m, &ds) && ds.len == 8 && !memcmp(ds.ptr, "data.txt", 8));
    uint64_t n = 0;
    const float *v = lgg_imatrix_find(m, "blk.0.attn_k.weight", 19, &n);
    REQUIRE(v != NULL);
    CHECK_EQ_U(n, 4);
    CHECK(v[0] == 21.0f / 3.0f && v[3] == 24.0f / 3.0f);
    v = lgg_imatrix_find(m, "blk.0.ffn_down.weight", 21, &n);
    REQUIRE(v != NULL);
    CHECK(v[0] == 11.0f && v[3] == 14.0f);
    CHECK(lgg_imatrix_find(m, "blk.0.attn_k.weigh", 18, NULL) == NULL);
    const char *exclude[] = {"ffn_down"};
    lgg_imatrix_filter(m, NULL, 0, exclude, 1);
    CHECK_EQ_U(lgg_imatrix_count(m), 1);
    CHECK(lgg_imatrix_find(m, "blk.0.ffn_down.weight", 21, NULL) == NULL);
    CHECK(lgg_imatrix_find(m, "blk.0.attn_k.weight", 19, NULL) != NULL);
    const char *include[] = {"attn_q"};
    lgg_imatrix_filter(m, include, 1, NULL, 0);
    CHECK_EQ_U(lgg_imatrix_count(m), 0);
    lgg_imatrix_free(m);

    /* without the trailer: no chunks, no dataset */
    buf_free(&b);
    legacy(&b, false);
    REQUIRE(lgg_imatrix_load_memory(b.p, b.n, NULL, &m, &err) == LGG_OK);
    CHECK(lgg_imatrix_chunks(m) == 0);
    CHECK(!lgg_imatrix_dataset(m, &ds));
    lgg_imatrix_free(m);
    buf_free(&b);
}

/* Every prefix of a legacy file fails cleanly, except the one that ends
 * exactly after the entries (the trailer is optional). */
TEST(imatrix_legacy_prefixes) {
    buf b, nb;
    legacy(&b, true);
    legacy(&nb, false);
    for (size_t k = 0; k < b.n; k++) {
        lgg_imatrix *m = (lgg_imatrix *)&k;
        lgg_error err;
        unsigned char *copy = malloc(k ? k : 1);
        memcpy(copy, b.p, k);
        lgg_status st = lgg_imatrix_load_memory(copy, k, NULL, &m, &err);
        if (k == nb.n) CHECKF(st == LGG_OK, "prefix %zu: %s", k, err.message);
        else CHECKF(st == LGG_ERR_TRUNCATED, "prefix %zu: %s", k, lgg_status_name(st));
        if (st != LGG_OK) CHECK(m == NULL);
        lgg_imatrix_free(st == LGG_OK ? m : NULL);
        free(copy);
    }
    buf_free(&b);
    buf_free(&nb);
}

static lgg_status load_bytes(const void *p, size_t n) {
    lgg_imatrix *m = NULL;
    lgg_status st = lgg_imatrix_load_memory(p, n, NULL, &m, NULL);
    lgg_imatrix_free(m);
    return st;
}

TEST(imatrix_legacy_hostile) {
    buf b = {0};
    put_i32(&b, 0);
    CHECK(load_bytes(b.p, b.n) == LGG_ERR_INVALID); /* no entries */
    buf_free(&b);
    put_i32(&b, 1);
    put_i32(&b, -5);
    CHECK(load_bytes(b.p, b.n) == LGG_ERR_TRUNCATED); /* negative name length */
    buf_free(&b);
    put_i32(&b, 1);
    put_i32(&b, 1);
    buf_put(&b, "x", 1);
    put_i32(&b, 1);
    put_i32(&b, 0);
    CHECK(load_bytes(b.p, b.n) == LGG_ERR_INVALID); /* zero values */
    buf_free(&b);
    put_i32(&b, 1);
    put_i32(&b, 1);
    buf_put(&b, "x", 1);
    put_i32(&b, 1);
    put_i32(&b, 0x7fffffff);
    put_f32(&b, 1.0f);
    CHECK(load_bytes(b.p, b.n) == LGG_ERR_TRUNCATED); /* a count the bytes do not back */
    buf_free(&b);
    buf legit;
    legacy(&legit, true);
    buf_put(&legit, "zz", 2);
    CHECK(load_bytes(legit.p, legit.n) == LGG_ERR_INVALID); /* trailing bytes */
    buf_free(&legit);
    CHECK(load_bytes(NULL, 0) == LGG_ERR_TRUNCATED);
    lgg_imatrix *m;
    CHECK(lgg_imatrix_load_memory(NULL, 4, NULL, &m, NULL) == LGG_ERR_ARG);
    CHECK(lgg_imatrix_load_file("/nonexistent/imatrix.dat", NULL, &m, NULL) == LGG_ERR_IO);
}

/* The golden .dat files: what llama-quantize read for the golden runs. */
TEST(imatrix_legacy_golden) {
    if (!need_models()) return; /* or the files rebuilt from their compact copy, checked by sha256 */
    const char *files[] = {"golden/llama-quantize/pub-dense-f16.imatrix.dat",
                           "golden/llama-quantize/pub-moe-f32.imatrix.dat"};
    for (int i = 0; i < 2; i++) {
        size_t n;
        const char *path = model_path(files[i]);
        REQUIRE(path != NULL);
        unsigned char *raw = read_file(path, &n);
        REQUIRE(raw != NULL);
        lgg_imatrix *m = NULL;
        lgg_error err;
        REQUIRE(lgg_imatrix_load_file(path, NULL, &m, &err) == LGG_OK);
        CHECK(lgg_imatrix_count(m) > 0);
        CHECK(lgg_imatrix_chunks(m) > 0);
        lgg_str ds;
        CHECK(lgg_imatrix_dataset(m, &ds) && ds.len > 0);
        /* the first entry by hand: sums over ncall */
        int32_t len, ncall, nval;
        memcpy(&len, raw + 4, 4);
        memcpy(&ncall, raw + 8 + len, 4);
        memcpy(&nval, raw + 12 + len, 4);
        float first;
        memcpy(&first, raw + 16 + len, 4);
        uint64_t cnt;
        const float *v = lgg_imatrix_find(m, (const char *)raw + 8, (size_t)len, &cnt);
        REQUIRE(v != NULL);
        CHECK_EQ_U(cnt, (uint64_t)nval);
        CHECK(v[0] == (ncall > 0 ? first / (float)ncall : first));
        for (size_t k = 0; k < lgg_imatrix_count(m); k++) {
            const float *vals;
            uint64_t nv;
            const char *name = lgg_imatrix_entry(m, k, &vals, &nv);
            REQUIRE(name != NULL);
            CHECK(lgg_imatrix_find(m, name, strlen(name), NULL) == vals);
        }
        lgg_imatrix_free(m);
        /* prefixes at a stride: never a crash, never success but for the
         * end of the entries and the whole file */
        for (size_t k = 0; k < n; k += 211) {
            lgg_status st = load_bytes(raw, k);
            CHECKF(st == LGG_ERR_TRUNCATED || st == LGG_ERR_INVALID || st == LGG_OK, "prefix %zu", k);
        }
        free(raw);
    }
}

/* A GGUF imatrix written with the writer. */
static void *gguf_imatrix(size_t *size, bool with_counts, bool with_keys) {
    lgg_writer *w;
    if (lgg_writer_create(NULL, &w, NULL) != LGG_OK) return NULL;
    lgg_writer_set_str(w, "general.type", "imatrix", NULL);
    if (with_keys) {
        lgg_str ds[] = {{"calib.txt", 9}, {"more.txt", 8}};
        lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_STRING, 2, ds};
        lgg_writer_set(w, "imatrix.datasets", 16, &arr, NULL);
        lgg_writer_set_u32(w, "imatrix.chunk_count", 7, NULL);
        lgg_writer_set_u32(w, "imatrix.chunk_size", 512, NULL);
    }
    static const float sums[8] = {2, 4, 6, 8, 1, 2, 3, 4};
    static const float counts[2] = {2, 0};
    int64_t ne_s[2] = {4, 2}, ne_c[1] = {2};
    lgg_writer_add_tensor_buffer(w, "blk.0.ffn_up_exps.weight.in_sum2", 32, 2, ne_s, LGG_TYPE_F32, sums, sizeof sums,
                                 LGG_LITTLE_ENDIAN, NULL);
    if (with_counts)
        lgg_writer_add_tensor_buffer(w, "blk.0.ffn_up_exps.weight.counts", 31, 1, ne_c, LGG_TYPE_F32, counts,
                                     sizeof counts, LGG_LITTLE_ENDIAN, NULL);
    char path[1024];
    snprintf(path, sizeof path, "%s/imatrix.gguf", scratch_dir());
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.flags = LGG_WRITE_NO_SYNC;
    lgg_status st = lgg_writer_write_file(w, path, &o, NULL);
    lgg_writer_free(w);
    return st == LGG_OK ? read_file(path, size) : NULL;
}

TEST(imatrix_gguf) {
    size_t n;
    unsigned char *p = gguf_imatrix(&n, true, true);
    REQUIRE(p != NULL);
    lgg_imatrix *m = NULL;
    lgg_error err;
    REQUIRE(lgg_imatrix_load_memory(p, n, NULL, &m, &err) == LGG_OK);
    CHECK(lgg_imatrix_format(m) == LGG_IMATRIX_GGUF);
    CHECK_EQ_U(lgg_imatrix_count(m), 1);
    CHECK(lgg_imatrix_chunks(m) == 7);
    lgg_str ds;
    CHECK(lgg_imatrix_dataset(m, &ds) && ds.len == 9 && !memcmp(ds.ptr, "calib.txt", 9));
    uint64_t cnt;
    const float *v = lgg_imatrix_find(m, "blk.0.ffn_up_exps.weight", 24, &cnt);
    REQUIRE(v != NULL);
    CHECK_EQ_U(cnt, 8);
    /* row 0 over its count 2; row 1 had count 0: weights 1 */
    CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3 && v[3] == 4);
    CHECK(v[4] == 1 && v[5] == 1 && v[6] == 1 && v[7] == 1);
    lgg_imatrix_free(m);
    /* a prefix loads exactly when it holds all the tensor data (the last
     * tensor's padding is not needed) */
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(p, n, NULL, &f, NULL) == LGG_OK);
    const uint64_t data_end = lgg_file_data_end(f);
    lgg_close(f);
    CHECK(data_end < n);
    for (size_t k = 0; k < n; k++) {
        lgg_status st = load_bytes(p, k);
        CHECKF((st == LGG_OK) == (k >= data_end), "prefix %zu of a GGUF imatrix: %s", k, lgg_status_name(st));
    }
    free(p);
    p = gguf_imatrix(&n, false, true);
    REQUIRE(p != NULL);
    CHECK(load_bytes(p, n) == LGG_ERR_INVALID); /* sums without counts */
    free(p);
    p = gguf_imatrix(&n, true, false);
    REQUIRE(p != NULL);
    CHECK(load_bytes(p, n) == LGG_ERR_INVALID); /* missing imatrix.* keys */
    free(p);
}
