/* test_writer.c -- the writer: byte-identical canonical copies of ggml's own
 * files, semantic round trips of the corpus in every version and byte
 * order, every value type, limits of v1, safe replacement under injected
 * write failures, and in-place header edits. */
#include "gen.h"
#include "corpus.h"
#include "test.h"
#include "standin.h"
#include "libgguf.h"
#include "format/writer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* A scalar's bytes in host order. */
static void host_bytes(const lgg_value *v, uint8_t *out, size_t sz) {
    for (size_t k = 0; k < sz; k++) out[k] = v->swap ? v->data[sz - 1 - k] : v->data[k];
}

/* Equal values, whatever version and byte order each file has. */
static bool value_eq(const lgg_value *a, const lgg_value *b) {
    if (a->type != b->type || a->count != b->count) return false;
    size_t sz = lgg_vtype_size(a->type);
    if (sz) {
        uint8_t x[8], y[8];
        host_bytes(a, x, sz);
        host_bytes(b, y, sz);
        return memcmp(x, y, sz) == 0;
    }
    if (a->type == LGG_VT_STRING) return a->count == 0 || memcmp(a->data, b->data, a->count) == 0;
    if (a->elem_type != b->elem_type) return false;
    lgg_iter i, j;
    lgg_value x, y;
    lgg_array_iter(a, &i);
    lgg_array_iter(b, &j);
    while (lgg_iter_next(&i, &x)) {
        if (!lgg_iter_next(&j, &y) || !value_eq(&x, &y)) return false;
    }
    return !lgg_iter_next(&j, &y);
}

/* Same metadata (in order) and same tensors (names, shapes, types, data as
 * host-order values: each block's fields swapped back when the orders differ). */
static bool files_equal(const lgg_file *a, const lgg_file *b, const char *what) {
    if (lgg_kv_count(a) != lgg_kv_count(b)) {
        test_fail(__FILE__, __LINE__, "%s: %llu vs %llu keys", what, (unsigned long long)lgg_kv_count(a),
                  (unsigned long long)lgg_kv_count(b));
        return false;
    }
    for (uint64_t i = 0; i < lgg_kv_count(a); i++) {
        const lgg_kv *x = lgg_kv_at(a, i), *y = lgg_kv_at(b, i);
        if (x->key.len != y->key.len || memcmp(x->key.ptr, y->key.ptr, x->key.len) || !value_eq(&x->value, &y->value)) {
            test_fail(__FILE__, __LINE__, "%s: key %llu differs", what, (unsigned long long)i);
            return false;
        }
    }
    if (lgg_tensor_count(a) != lgg_tensor_count(b)) {
        test_fail(__FILE__, __LINE__, "%s: tensor counts differ", what);
        return false;
    }
    bool swap = lgg_file_endian(a) != lgg_file_endian(b);
    for (uint64_t i = 0; i < lgg_tensor_count(a); i++) {
        const lgg_tensor *x = lgg_tensor_at(a, i), *y = lgg_tensor_at(b, i);
        if (x->name.len != y->name.len || memcmp(x->name.ptr, y->name.ptr, x->name.len) || x->type != y->type ||
            memcmp(x->ne, y->ne, sizeof x->ne) || x->size != y->size) {
            test_fail(__FILE__, __LINE__, "%s: tensor %llu info differs", what, (unsigned long long)i);
            return false;
        }
        if (!x->size) continue;
        const lgg_type_info *ti = lgg_type_get(x->type);
        unsigned char *c = malloc(x->size);
        memcpy(c, y->data, x->size);
        if (swap)
            for (uint64_t blk = 0; blk < x->size / ti->type_size; blk++)
                for (unsigned f = 0; f < ti->n_fields; f++)
                    for (unsigned k = 0; k < ti->fields[f].count; k++) {
                        unsigned char *p = c + blk * ti->type_size + ti->fields[f].offset + k * ti->fields[f].width;
                        for (unsigned q = 0; q < ti->fields[f].width / 2; q++) {
                            unsigned char t = p[q];
                            p[q] = p[ti->fields[f].width - 1 - q];
                            p[ti->fields[f].width - 1 - q] = t;
                        }
                    }
        bool same = memcmp(c, x->data, x->size) == 0;
        free(c);
        if (!same) {
            test_fail(__FILE__, __LINE__, "%s: tensor %llu data differs", what, (unsigned long long)i);
            return false;
        }
    }
    return true;
}

/* Write `w` to a scratch file, return its bytes. */
static unsigned char *write_to_mem(const lgg_writer *w, const lgg_write_options *o, size_t *n, lgg_status *st) {
    char path[512];
    snprintf(path, sizeof path, "%s/w.out", scratch_dir());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return NULL;
    lgg_error e;
    uint64_t written = 0;
    *st = lgg_writer_write_fd(w, fd, o, &written, &e);
    close(fd);
    if (*st) {
        fprintf(stderr, "    write: %s\n", e.message);
        return NULL;
    }
    unsigned char *p = read_file(path, n);
    if (p && written != *n) test_fail(__FILE__, __LINE__, "written %llu, file has %zu", (unsigned long long)written, *n);
    return p;
}

static unsigned char *copy_file(const char *path, const lgg_write_options *o, size_t *n, lgg_file **orig) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    lgg_file *f = NULL;
    lgg_error e;
    if (lgg_open_fd(fd, NULL, &f, &e)) {
        close(fd);
        return NULL;
    }
    lgg_writer *w = NULL;
    unsigned char *out = NULL;
    /* every pair, repeated keys included: the copies must hold all the file holds */
    lgg_status st = lgg_writer_from_file(f, fd, NULL, LGG_FROM_FILE_KEEP_DUPLICATES, &w, &e);
    if (!st) out = write_to_mem(w, o, n, &st);
    else fprintf(stderr, "    from_file %s: %s\n", path, e.message);
    lgg_writer_free(w);
    close(fd);
    if (orig) *orig = f;
    else lgg_close(f);
    return out;
}

TEST(writer_reproduces_every_ggml_types_file_byte_for_byte) {
    if (!need_models()) return;
    DIR *d = opendir(ggml_types_dir());
    REQUIRE(d != NULL);
    struct dirent *de;
    int n = 0;
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, "type-", 5) || !strstr(de->d_name, ".gguf")) continue;
        char rel[512];
        snprintf(rel, sizeof rel, "golden/ggml-types/%s", de->d_name);
        size_t on = 0, cn = 0;
        unsigned char *orig = read_file(ref_path(rel), &on);
        unsigned char *copy = copy_file(ref_path(rel), NULL, &cn, NULL);
        CHECKF(orig && copy && on == cn && memcmp(orig, copy, on) == 0, "%s: copy differs (%zu vs %zu bytes)",
               de->d_name, on, cn);
        /* little -> big -> little is the identity */
        lgg_write_options o;
        lgg_write_options_init(&o);
        o.endian = LGG_BIG_ENDIAN;
        lgg_file *lf = NULL, *bf = NULL;
        size_t bn = 0;
        unsigned char *big = copy_file(ref_path(rel), &o, &bn, &lf);
        REQUIRE(big != NULL);
        CHECK(lgg_open_memory(big, bn, NULL, &bf, NULL) == LGG_OK);
        if (bf) {
            CHECK(lgg_file_endian(bf) == LGG_BIG_ENDIAN);
            files_equal(lf, bf, de->d_name);
            lgg_writer *w = NULL;
            REQUIRE(lgg_writer_from_file(bf, -1, NULL, 0, &w, NULL) == LGG_OK);
            size_t ln = 0;
            lgg_status st;
            unsigned char *back = write_to_mem(w, NULL, &ln, &st);
            CHECKF(back && ln == on && memcmp(back, orig, on) == 0, "%s: LE->BE->LE differs", de->d_name);
            free(back);
            lgg_writer_free(w);
        }
        lgg_close(bf);
        lgg_close(lf);
        free(big);
        free(orig);
        free(copy);
        n++;
    }
    closedir(d);
    CHECKF(n >= 28, "only %d golden files", n);
}

/* ggml's layout, checked independently of the writer. */
static bool is_canonical(const lgg_file *f) {
    if (lgg_file_version(f) != 3 || lgg_file_endian(f) != LGG_LITTLE_ENDIAN) return false;
    uint64_t a = lgg_file_alignment(f), off = 0, hs = lgg_file_header_size(f);
    uint64_t ds = hs + (a - hs % a) % a;
    if (lgg_tensor_count(f) && lgg_file_data_offset(f) != ds) return false;
    const uint8_t *b = lgg_file_bytes(f);
    for (uint64_t i = hs; i < ds && i < lgg_file_size(f); i++)
        if (b[i]) return false;
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        uint32_t nd = 1;
        for (uint32_t k = 1; k < 4; k++)
            if (t->ne[k] != 1) nd = k + 1;
        if (t->n_dims != nd || t->offset != off) return false;
        uint64_t end = ds + off + t->size, padded = t->size + (a - t->size % a) % a;
        for (uint64_t k = end; k < ds + off + padded && k < lgg_file_size(f); k++)
            if (b[k]) return false;
        off += padded;
    }
    return lgg_file_size(f) == ds + off;
}

TEST(writer_round_trips_every_valid_corpus_file) {
    if (!need_corpus()) return;
    FILE *x = fopen("tests/corpus_expect.tsv", "r");
    REQUIRE(x != NULL);
    char line[4096];
    int n = 0, canon = 0;
    while (fgets(line, sizeof line, x)) {
        char *tab = strchr(line, '\t');
        if (!tab || strncmp(tab + 1, "ok", 2) != 0) continue;
        *tab = 0;
        const char *rel = corpus_path(line);
        if (!rel) continue; /* left out of the compact copy */
        lgg_file *f = NULL;
        if (lgg_open_file(rel, NULL, &f, NULL) != LGG_OK) {
            test_fail(__FILE__, __LINE__, "%s does not open", line);
            continue;
        }
        bool unknown = false;
        for (uint64_t i = 0; i < lgg_tensor_count(f); i++) unknown |= !lgg_tensor_at(f, i)->type_known;
        if (unknown) { /* no size, so no data to copy: refused, not guessed */
            lgg_writer *w = NULL;
            CHECK(lgg_writer_from_file(f, -1, NULL, 0, &w, NULL) == LGG_ERR_UNSUPPORTED);
            lgg_close(f);
            continue;
        }
        size_t cn = 0;
        lgg_file *orig = NULL;
        unsigned char *copy = copy_file(rel, NULL, &cn, &orig);
        CHECKF(copy != NULL, "%s: copy failed", line);
        if (copy && is_canonical(f)) {
            CHECKF(cn == lgg_file_size(f) && memcmp(copy, lgg_file_bytes(f), cn) == 0, "%s: canonical file changed", line);
            canon++;
        }
        lgg_file *g = NULL;
        if (copy && lgg_open_memory(copy, cn, NULL, &g, NULL) == LGG_OK) {
            CHECK(lgg_file_version(g) == 3);
            files_equal(f, g, line);
            /* the copy is in ggml's layout (checked independently), so copying it again changes nothing */
            CHECKF(is_canonical(g), "%s: copy is not canonical", line);
            lgg_writer *w2 = NULL;
            size_t n2 = 0;
            lgg_status st2;
            unsigned char *again = NULL;
            if (lgg_writer_from_file(g, -1, NULL, LGG_FROM_FILE_KEEP_DUPLICATES, &w2, NULL) == LGG_OK)
                again = write_to_mem(w2, NULL, &n2, &st2);
            CHECKF(again && n2 == cn && memcmp(again, copy, cn) == 0, "%s: second copy differs", line);
            free(again);
            lgg_writer_free(w2);
        } else if (copy) {
            test_fail(__FILE__, __LINE__, "%s: copy does not open", line);
        }
        lgg_close(g);
        lgg_close(orig);
        lgg_close(f);
        free(copy);
        n++;
    }
    fclose(x);
    /* the compact copy: its 23 valid files, no vocabulary */
    CHECKF(n >= (shared_present() ? 30 : 23), "only %d files", n);
    CHECKF(canon >= 1, "only %d canonical files", canon);
}

/* A writer holding every value type, nested arrays included. */
static lgg_writer *all_types_writer(void) {
    lgg_writer *w = NULL;
    if (lgg_writer_create(NULL, &w, NULL)) return NULL;
    uint8_t u8 = 200;
    int8_t i8 = -100;
    uint16_t u16 = 60000;
    int16_t i16 = -30000;
    uint32_t u32 = 4000000000u;
    int32_t i32 = -2000000000;
    float f32 = 1.5f;
    uint8_t b = 1;
    uint64_t u64 = UINT64_C(18000000000000000000);
    int64_t i64 = INT64_MIN;
    double f64 = -2.25e300;
    const void *vals[] = {&u8, &i8, &u16, &i16, &u32, &i32, &f32, &b, NULL, NULL, &u64, &i64, &f64};
    for (uint32_t t = 0; t < LGG_VT_COUNT; t++) {
        if (!vals[t]) continue;
        char key[32];
        snprintf(key, sizeof key, "t.%s", lgg_vtype_name(t));
        lgg_wvalue v = {t, 0, 1, vals[t]};
        if (lgg_writer_set(w, key, strlen(key), &v, NULL)) return NULL;
    }
    lgg_wvalue s = {LGG_VT_STRING, 0, 5, "a\0b\xffz"};
    lgg_writer_set(w, "t.string", 8, &s, NULL);
    int32_t ints[3] = {1, -2, 3};
    lgg_wvalue ai = {LGG_VT_ARRAY, LGG_VT_I32, 3, ints};
    lgg_writer_set(w, "t.arr_i32", 9, &ai, NULL);
    double ds[2] = {0.5, -1e-300};
    lgg_wvalue ad = {LGG_VT_ARRAY, LGG_VT_F64, 2, ds};
    lgg_writer_set(w, "t.arr_f64", 9, &ad, NULL);
    lgg_str strs[3] = {{"x", 1}, {"", 0}, {"hello", 5}};
    lgg_wvalue as = {LGG_VT_ARRAY, LGG_VT_STRING, 3, strs};
    lgg_writer_set(w, "t.arr_str", 9, &as, NULL);
    uint16_t u16s[2] = {1, 65535};
    lgg_wvalue inner[3] = {{LGG_VT_ARRAY, LGG_VT_U16, 2, u16s}, {LGG_VT_ARRAY, LGG_VT_STRING, 3, strs},
                           {LGG_VT_ARRAY, LGG_VT_BOOL, 0, NULL}};
    lgg_wvalue nest = {LGG_VT_ARRAY, LGG_VT_ARRAY, 3, inner};
    lgg_writer_set(w, "t.nested", 8, &nest, NULL);
    lgg_wvalue outer = {LGG_VT_ARRAY, LGG_VT_ARRAY, 1, &nest};
    lgg_writer_set(w, "t.nested2", 9, &outer, NULL);
    return w;
}

TEST(writer_every_value_type_in_every_version_and_byte_order) {
    lgg_writer *w = all_types_writer();
    REQUIRE(w != NULL);
    CHECK_EQ_U(lgg_writer_kv_count(w), 17);
    float data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int64_t ne[2] = {4, 2};
    REQUIRE(lgg_writer_add_tensor_buffer(w, "w", 1, 2, ne, LGG_TYPE_F32, data, sizeof data, LGG_LITTLE_ENDIAN, NULL) == 0);
    lgg_file *ref = NULL;
    unsigned char *refp = NULL;
    for (uint32_t ver = 1; ver <= 3; ver++)
        for (int e = 0; e < 2; e++) {
            lgg_write_options o;
            lgg_write_options_init(&o);
            o.version = ver;
            o.endian = e ? LGG_BIG_ENDIAN : LGG_LITTLE_ENDIAN;
            size_t n = 0;
            lgg_status st;
            unsigned char *p = write_to_mem(w, &o, &n, &st);
            REQUIRE(p != NULL);
            lgg_file *f = NULL;
            lgg_error err;
            CHECKF(lgg_open_memory(p, n, NULL, &f, &err) == LGG_OK, "v%u e%d: %s", ver, e, err.message);
            if (f) {
                CHECK(lgg_file_version(f) == ver);
                CHECK(lgg_file_endian(f) == o.endian);
                lgg_value v;
                uint64_t u;
                int64_t i;
                double d;
                CHECK(lgg_get(f, "t.u64", &v) == 0 && lgg_value_u64(&v, &u) == 0 && u == UINT64_C(18000000000000000000));
                CHECK(lgg_get(f, "t.i64", &v) == 0 && lgg_value_i64(&v, &i) == 0 && i == INT64_MIN);
                CHECK(lgg_get(f, "t.f64", &v) == 0 && lgg_value_f64(&v, &d) == 0 && d == -2.25e300);
                CHECK(lgg_get(f, "t.string", &v) == 0 && v.count == 5 && memcmp(v.data, "a\0b\xffz", 5) == 0);
                CHECK(lgg_get(f, "t.nested", &v) == 0 && v.count == 3 && v.elem_type == LGG_VT_ARRAY);
                lgg_value e1, e2;
                uint16_t h;
                CHECK(lgg_array_get(&v, 0, &e1) == 0 && lgg_array_get(&e1, 1, &e2) == 0 && lgg_value_u16(&e2, &h) == 0 &&
                      h == 65535);
                CHECK(lgg_get(f, "t.arr_i32", &v) == 0 && lgg_array_get(&v, 1, &e1) == 0 && lgg_value_int(&e1, &i) == 0 &&
                      i == -2);
                const lgg_tensor *t = lgg_tensor_at(f, 0);
                CHECK(t && t->n_dims == 2 && t->ne[1] == 2);
                if (!ref) {
                    ref = f;
                    refp = p;
                } else {
                    files_equal(ref, f, "versions");
                    lgg_close(f);
                }
            }
            if (f != ref) free(p);
        }
    lgg_close(ref);
    free(refp);
    lgg_writer_free(w);
}

static lgg_status zero_reader(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)err;
    (void)ud;
    (void)off;
    memset(dst, 0, n);
    return LGG_OK;
}

TEST(writer_v1_range_error_for_dimension_beyond_32_bits) {
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == 0);
    int64_t ne[2] = {16, ((int64_t)1 << 32) + 1};
    REQUIRE(lgg_writer_add_tensor_callback(w, "huge", 4, 2, ne, LGG_TYPE_I8, zero_reader, NULL, LGG_LITTLE_ENDIAN,
                                           NULL) == 0);
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.version = 1;
    uint64_t hs;
    lgg_error e;
    CHECK(lgg_writer_header_size(w, &o, &hs, &e) == LGG_ERR_RANGE);
    o.version = 2;
    CHECK(lgg_writer_header_size(w, &o, &hs, &e) == LGG_OK);
    lgg_writer_free(w);
}

/* A lending source: pieces of `piece` bytes (7: not whole F32 elements), the
 * offsets it was asked for checked as the writer promises. */
typedef struct lender {
    const uint8_t *data;
    uint64_t size, last;
    size_t piece;
    int backwards, ended;
} lender;

static lgg_status lend(void *ud, uint64_t off, const void **p, size_t *n) {
    lender *l = ud;
    if (off < l->last) l->backwards++;
    l->last = off;
    if (off >= l->size) {
        l->ended++;
        return LGG_OK;
    }
    *p = l->data + off;
    *n = l->size - off < l->piece ? (size_t)(l->size - off) : l->piece;
    return LGG_OK;
}

TEST(writer_lending_source_writes_what_a_buffer_writes_in_both_byte_orders) {
    float x[301];
    for (int i = 0; i < 301; i++) x[i] = (float)i * 0.25f - 17.0f;
    const int64_t ne[1] = {301};
    for (int e = 0; e < 2; e++) {
        const lgg_endian end = e ? LGG_BIG_ENDIAN : LGG_LITTLE_ENDIAN;
        lender l = {(const uint8_t *)x, sizeof x, 0, 7, 0, 0};
        lgg_writer *a = NULL, *b = NULL;
        REQUIRE(lgg_writer_create(NULL, &a, NULL) == 0 && lgg_writer_create(NULL, &b, NULL) == 0);
        REQUIRE(lgg_writer_add_tensor_buffer(a, "t", 1, 1, ne, LGG_TYPE_F32, x, sizeof x, LGG_LITTLE_ENDIAN, NULL) == 0);
        REQUIRE(lgg__writer_add_tensor_view(b, "t", 1, 1, ne, LGG_TYPE_F32, lend, &l, LGG_LITTLE_ENDIAN, NULL) == 0);
        lgg_write_options o;
        lgg_write_options_init(&o);
        o.endian = end;
        size_t na = 0, nb = 0;
        lgg_status sa, sb;
        unsigned char *ba = write_to_mem(a, &o, &na, &sa);
        REQUIRE(sa == LGG_OK && ba);
        unsigned char *bb = write_to_mem(b, &o, &nb, &sb);
        REQUIRE(sb == LGG_OK && bb);
        CHECK_EQ_U(na, nb);
        CHECK(na == nb && memcmp(ba, bb, na) == 0);
        CHECK_EQ_U(l.backwards, 0);
        CHECK_EQ_U(l.ended, 1);
        free(ba);
        free(bb);
        lgg_writer_free(a);
        lgg_writer_free(b);
    }
}

TEST(writer_set_replaces_in_place_remove_and_rename) {
    lgg_writer *w = all_types_writer();
    REQUIRE(w != NULL);
    CHECK(lgg_writer_set_str(w, "t.u8", "now a string", NULL) == 0);
    CHECK(lgg_writer_remove(w, "t.i8", 4, NULL) == 0);
    CHECK(lgg_writer_remove(w, "t.i8", 4, NULL) == LGG_ERR_NOT_FOUND);
    CHECK(lgg_writer_rename(w, "t.u16", 5, "t.renamed", 9, NULL) == 0);
    CHECK(lgg_writer_rename(w, "t.u32", 5, "t.i32", 5, NULL) == LGG_ERR_EXISTS);
    CHECK(lgg_writer_rename(w, "nope", 4, "x", 1, NULL) == LGG_ERR_NOT_FOUND);
    CHECK(lgg_writer_set_u32(w, "new.key", 7, NULL) == 0);
    size_t n;
    lgg_status st;
    unsigned char *p = write_to_mem(w, NULL, &n, &st);
    REQUIRE(p != NULL);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(p, n, NULL, &f, NULL) == 0);
    const lgg_kv *k0 = lgg_kv_at(f, 0), *k1 = lgg_kv_at(f, 1);
    CHECK(k0->key.len == 4 && !memcmp(k0->key.ptr, "t.u8", 4) && k0->value.type == LGG_VT_STRING);
    CHECK(k1->key.len == 9 && !memcmp(k1->key.ptr, "t.renamed", 9) && k1->value.type == LGG_VT_U16);
    CHECK(lgg_find_key_cstr(f, "t.i8") < 0);
    CHECK(lgg_find_key_cstr(f, "new.key") == (int64_t)lgg_kv_count(f) - 1);
    lgg_close(f);
    free(p);
    lgg_writer_free(w);
}

TEST(writer_alignment_option_sets_the_key) {
    buf b = {0};
    gen_small_model(&b);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(b.p, b.n, NULL, &f, NULL) == 0);
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_from_file(f, -1, NULL, 0, &w, NULL) == 0);
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.alignment = 64;
    size_t n;
    lgg_status st;
    unsigned char *p = write_to_mem(w, &o, &n, &st);
    REQUIRE(p != NULL);
    lgg_file *g = NULL;
    REQUIRE(lgg_open_memory(p, n, NULL, &g, NULL) == 0);
    CHECK(lgg_file_alignment(g) == 64);
    CHECK(lgg_file_data_offset(g) % 64 == 0);
    CHECK(lgg_tensor_at(g, 1)->offset == 64);
    CHECK(lgg_kv_count(g) == 2);
    o.alignment = 48;
    CHECK(lgg_writer_write_fd(w, 1, &o, NULL, NULL) == LGG_ERR_ARG);
    lgg_close(g);
    free(p);
    lgg_writer_free(w);
    lgg_close(f);
    buf_free(&b);
}

/* ---- safe writing ---- */

typedef struct fault {
    uint64_t budget; /* bytes allowed before failing */
    int err;
} fault;

static long faulty_write(void *ud, int fd, const void *p, size_t n) {
    fault *f = ud;
    if (f->budget == 0) {
        errno = f->err;
        return -1;
    }
    if (n > f->budget) n = (size_t)f->budget;
    ssize_t r = write(fd, p, n);
    if (r > 0) f->budget -= (uint64_t)r;
    return (long)r;
}

static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' || (e->d_name[1] && e->d_name[1] != '.')) n++;
    if (d) closedir(d);
    return n;
}

static const char *scratch_sub(const char *name) {
    static char p[600];
    snprintf(p, sizeof p, "%s/%s", scratch_dir(), name);
    mkdir(p, 0755);
    return p;
}

TEST(writer_safe_write_survives_enospc_and_eio_partway) {
    if (!need_models()) return;
    const char *dir = scratch_sub("safe");
    char target[700];
    snprintf(target, sizeof target, "%s/model.gguf", dir);
    size_t gn = 0;
    unsigned char *golden = read_file(ref_path("golden/ggml-types/type-q4_K.gguf"), &gn);
    REQUIRE(golden != NULL);
    FILE *fp = fopen(target, "wb");
    REQUIRE(fp != NULL);
    fwrite("original", 1, 8, fp);
    fclose(fp);
    chmod(target, 0640);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(golden, gn, NULL, &f, NULL) == 0);
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_from_file(f, -1, NULL, 0, &w, NULL) == 0);
    uint64_t budgets[] = {0, 10, 100, 5000, gn / 2, gn - 1};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        fault ft = {budgets[i], i % 2 ? EIO : ENOSPC};
        lgg_write_options o;
        lgg_write_options_init(&o);
        o.write_fn = faulty_write;
        o.write_ud = &ft;
        lgg_error e;
        CHECK(lgg_writer_write_file(w, target, &o, &e) == LGG_ERR_IO);
        CHECKF(strstr(e.message, i % 2 ? "Input/output" : "No space") != NULL, "message: %s", e.message);
        size_t n = 0;
        unsigned char *now = read_file(target, &n);
        CHECK(now && n == 8 && memcmp(now, "original", 8) == 0);
        free(now);
        CHECK_EQ_U(count_entries(dir), 1);
    }
    /* then a clean write replaces it, keeping the mode */
    CHECK(lgg_writer_write_file(w, target, NULL, NULL) == 0);
    size_t n = 0;
    unsigned char *now = read_file(target, &n);
    CHECK(now && n == gn && memcmp(now, golden, gn) == 0);
    free(now);
    struct stat st;
    CHECK(stat(target, &st) == 0 && (st.st_mode & 0777) == 0640);
    CHECK_EQ_U(count_entries(dir), 1);
    lgg_writer_free(w);
    lgg_close(f);
    free(golden);
    unlink(target);
    rmdir(dir);
}

TEST(writer_refuses_to_write_onto_an_input_even_through_another_name) {
    const char *dir = scratch_sub("self");
    char a[700], b[700];
    snprintf(a, sizeof a, "%s/a.gguf", dir);
    snprintf(b, sizeof b, "%s/b.gguf", dir);
    buf m = {0};
    gen_small_model(&m);
    FILE *fp = fopen(a, "wb");
    REQUIRE(fp != NULL);
    fwrite(m.p, 1, m.n, fp);
    fclose(fp);
    REQUIRE(link(a, b) == 0);
    int fd = open(a, O_RDONLY);
    REQUIRE(fd >= 0);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_fd(fd, NULL, &f, NULL) == 0);
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_from_file(f, fd, NULL, 0, &w, NULL) == 0);
    lgg_error e;
    CHECK(lgg_writer_write_file(w, b, NULL, &e) == LGG_ERR_EXISTS);
    CHECK(lgg_writer_write_file(w, a, NULL, &e) == LGG_ERR_EXISTS);
    size_t n = 0;
    unsigned char *now = read_file(a, &n);
    CHECK(now && n == m.n && memcmp(now, m.p, n) == 0);
    free(now);
    lgg_writer_free(w);
    lgg_close(f);
    close(fd);
    unlink(a);
    unlink(b);
    rmdir(dir);
    buf_free(&m);
}

TEST(writer_update_in_place_when_the_header_keeps_its_padded_size) {
    if (!need_models()) return;
    const char *dir = scratch_sub("inplace");
    char p[700];
    snprintf(p, sizeof p, "%s/m.gguf", dir);
    size_t gn = 0;
    unsigned char *golden = read_file(ref_path("golden/ggml-types/type-q8_0.gguf"), &gn);
    REQUIRE(golden != NULL);
    FILE *fp = fopen(p, "wb");
    REQUIRE(fp != NULL);
    fwrite(golden, 1, gn, fp);
    fclose(fp);
    struct stat st0;
    REQUIRE(stat(p, &st0) == 0);
    for (int round = 0; round < 2; round++) {
        int fd = open(p, O_RDONLY);
        REQUIRE(fd >= 0);
        lgg_file *f = NULL;
        REQUIRE(lgg_open_fd(fd, NULL, &f, NULL) == 0);
        lgg_writer *w = NULL;
        REQUIRE(lgg_writer_from_file(f, fd, NULL, 0, &w, NULL) == 0);
        bool inplace = false;
        lgg_error e;
        if (round == 0) {
            /* same size: the header keeps its length */
            CHECK(lgg_writer_set_u32(w, "general.quantization_version", 7, NULL) == 0);
        } else {
            char big[300];
            memset(big, 'z', sizeof big - 1);
            big[sizeof big - 1] = 0;
            CHECK(lgg_writer_set_str(w, "y", big, NULL) == 0); /* grows past any padding */
        }
        uint64_t hs = 0;
        CHECK(lgg_writer_header_size(w, NULL, &hs, NULL) == 0);
        uint64_t a = lgg_file_alignment(f);
        bool fits = hs + (a - hs % a) % a == lgg_file_data_offset(f);
        CHECKF(lgg_writer_update_file(w, p, NULL, &inplace, &e) == 0, "%s", e.message);
        CHECK(inplace == fits);
        CHECK(fits == (round == 0));
        struct stat st;
        CHECK(stat(p, &st) == 0 && (st.st_ino == st0.st_ino) == fits);
        lgg_file *g = NULL;
        CHECK(lgg_open_file(p, NULL, &g, NULL) == 0);
        if (g) {
            lgg_value v;
            uint32_t x = 0;
            CHECK(lgg_get(g, "general.quantization_version", &v) == 0 && lgg_value_u32(&v, &x) == 0 && x == 7);
            CHECK(lgg_kv_count(g) == lgg_kv_count(f) + (round == 0 ? 0 : 1));
            for (uint64_t i = 0; i < lgg_tensor_count(f); i++)
                CHECK(!memcmp(lgg_tensor_at(g, i)->data, lgg_tensor_at(f, i)->data, lgg_tensor_at(f, i)->size));
        }
        lgg_close(g);
        lgg_writer_free(w);
        lgg_close(f);
        close(fd);
        stat(p, &st0);
    }
    free(golden);
    unlink(p);
    CHECK_EQ_U(count_entries(dir), 0);
    rmdir(dir);
}

/* The writer's name indexes (grown on add, dropped on remove/rename and
 * rebuilt on the next lookup) must answer exactly as a scan would: a random
 * sequence of sets, removes and renames over 20,000 keys is checked against
 * a plain model, and tensor duplicates are found at any position. */
TEST(writer_indexes_agree_with_a_model_over_many_edits) {
    enum { NK = 20000, STEPS = 30000 };
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == 0);
    /* model: present[i] and value[i] for key "k.<i>", order of first insertion */
    static int32_t order[NK + STEPS];
    static uint32_t value[NK];
    static bool present[NK];
    size_t n_order = 0;
    uint64_t x = 12345;
    char key[32], key2[32];
    for (int s = 0; s < STEPS; s++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(x >> 33);
        uint32_t i = r % NK, op = (r >> 20) % 8;
        int kl = snprintf(key, sizeof key, "k.%u", i);
        if (op < 6) { /* set: replace in place, or append */
            CHECK(lgg_writer_set_u32(w, key, (uint32_t)s, NULL) == 0);
            if (!present[i]) order[n_order++] = (int32_t)i;
            present[i] = true;
            value[i] = (uint32_t)s;
        } else if (op == 6) { /* remove */
            lgg_status st = lgg_writer_remove(w, key, (size_t)kl, NULL);
            CHECK(st == (present[i] ? LGG_OK : LGG_ERR_NOT_FOUND));
            if (present[i]) {
                present[i] = false;
                for (size_t j = 0; j < n_order; j++)
                    if (order[j] == (int32_t)i) {
                        memmove(order + j, order + j + 1, (n_order - j - 1) * sizeof *order);
                        n_order--;
                        break;
                    }
            }
        } else { /* rename k.i -> k.(i+1 mod NK) when that key is absent */
            uint32_t t = (i + 1) % NK;
            int kl2 = snprintf(key2, sizeof key2, "k.%u", t);
            lgg_status st = lgg_writer_rename(w, key, (size_t)kl, key2, (size_t)kl2, NULL);
            lgg_status want = !present[i] ? LGG_ERR_NOT_FOUND : present[t] ? LGG_ERR_EXISTS : LGG_OK;
            CHECK(st == want);
            if (want == LGG_OK) {
                present[i] = false;
                present[t] = true;
                value[t] = value[i];
                for (size_t j = 0; j < n_order; j++)
                    if (order[j] == (int32_t)i) order[j] = (int32_t)t;
            }
        }
    }
    CHECK(lgg_writer_kv_count(w) == n_order);
    size_t n;
    lgg_status st;
    unsigned char *p = write_to_mem(w, NULL, &n, &st);
    REQUIRE(p != NULL);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(p, n, NULL, &f, NULL) == 0);
    REQUIRE(lgg_kv_count(f) == n_order);
    int bad = 0;
    for (size_t j = 0; j < n_order && bad < 5; j++) {
        const lgg_kv *kv = lgg_kv_at(f, j);
        int kl = snprintf(key, sizeof key, "k.%d", order[j]);
        uint32_t v = 0;
        if (kv->key.len != (size_t)kl || memcmp(kv->key.ptr, key, (size_t)kl) ||
            lgg_value_u32(&kv->value, &v) != 0 || v != value[order[j]]) {
            CHECKF(0, "pair %zu is not %s = %u", j, key, value[order[j]]);
            bad++;
        }
    }
    lgg_close(f);
    free(p);

    /* tensors: 20,000 names, then a duplicate of the first, a middle and the last */
    static float one[1];
    int64_t ne[1] = {1};
    for (int i = 0; i < NK; i++) {
        int kl = snprintf(key, sizeof key, "t.%d", i);
        if (lgg_writer_add_tensor_buffer(w, key, (size_t)kl, 1, ne, LGG_TYPE_F32, one, 4, LGG_LITTLE_ENDIAN, NULL)) {
            CHECKF(0, "adding tensor %d failed", i);
            break;
        }
    }
    const int dups[] = {0, NK / 2, NK - 1};
    for (size_t d = 0; d < 3; d++) {
        int kl = snprintf(key, sizeof key, "t.%d", dups[d]);
        CHECK(lgg_writer_add_tensor_buffer(w, key, (size_t)kl, 1, ne, LGG_TYPE_F32, one, 4, LGG_LITTLE_ENDIAN,
                                           NULL) == LGG_ERR_TENSOR_DUP);
    }
    /* a failed add (wrong data size) leaves no trace: the name is free again */
    CHECK(lgg_writer_add_tensor_buffer(w, "t.x", 3, 1, ne, LGG_TYPE_F32, one, 8, LGG_LITTLE_ENDIAN, NULL) ==
          LGG_ERR_RANGE);
    CHECK(lgg_writer_add_tensor_buffer(w, "t.x", 3, 1, ne, LGG_TYPE_F32, one, 4, LGG_LITTLE_ENDIAN, NULL) == 0);
    CHECK(lgg_writer_tensor_count(w) == NK + 1);
    lgg_writer_free(w);
}

/* A source that fails in its own words: the writer reports the code and
 * message as they are (lgg_read_fn's lgg_error); one that gives a code only
 * gets the writer's message naming the tensor. */
static lgg_status failing_reader(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)dst, (void)n;
    if (ud) return LGG_ERR_IO;
    return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "row %llu is not finite", (unsigned long long)off);
}

TEST(writer_read_callback_reports_in_its_own_words) {
    int64_t ne[1] = {64};
    lgg_error e;
    for (int own = 0; own < 2; own++) {
        lgg_writer *w = NULL;
        REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
        REQUIRE(lgg_writer_add_tensor_callback(w, "t", 1, 1, ne, LGG_TYPE_I8, failing_reader, own ? NULL : (void *)1,
                                               LGG_LITTLE_ENDIAN, NULL) == LGG_OK);
        int fd = open("/dev/null", O_WRONLY);
        REQUIRE(fd >= 0);
        lgg_status st = lgg_writer_write_fd(w, fd, NULL, NULL, &e);
        close(fd);
        if (own) {
            CHECK(st == LGG_ERR_INVALID && e.code == LGG_ERR_INVALID);
            CHECK_STR(e.message, "row 0 is not finite");
        } else {
            CHECK(st == LGG_ERR_IO && e.code == LGG_ERR_IO);
            CHECK(strstr(e.message, "reading tensor 't' data at 0 failed") != NULL);
        }
        lgg_writer_free(w);
    }
}

/* lgg_writer_describe: the header as it would be written, as a file with no
 * data that the split and quantize plans take; its tensors cannot be
 * written. */
TEST(writer_describe_is_the_header_without_data) {
    lgg_writer *w = NULL;
    lgg_error e;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    REQUIRE(lgg_writer_set_str(w, "general.architecture", "llama", &e) == LGG_OK);
    int64_t ne[2] = {32, 4};
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "t%d", i);
        REQUIRE(lgg_writer_add_tensor_callback(w, name, strlen(name), 2, ne, LGG_TYPE_F32, zero_reader, NULL,
                                               LGG_LITTLE_ENDIAN, &e) == LGG_OK);
    }
    uint64_t hs;
    REQUIRE(lgg_writer_header_size(w, NULL, &hs, &e) == LGG_OK);
    lgg_file *d = NULL;
    REQUIRE(lgg_writer_describe(w, &d, &e) == LGG_OK);
    CHECK(lgg_file_metadata_only(d));
    CHECK(lgg_tensor_count(d) == 3 && lgg_kv_count(d) == 1);
    CHECK(lgg_tensor_at(d, 2)->offset == 2 * 32 * 4 * 4 && lgg_tensor_at(d, 1)->size == 32 * 4 * 4);
    CHECK(lgg_file_data_offset(d) >= hs);
    /* the split plan takes it ... */
    lgg_split_options so = {.max_tensors = 2};
    lgg_split_plan *sp = NULL;
    CHECK(lgg_split_plan_make(d, &so, &sp, &e) == LGG_OK && lgg_split_plan_count(sp) == 2);
    lgg_split_plan_free(sp);
    /* ... but its tensors have no data to write */
    lgg_writer *w2 = NULL;
    REQUIRE(lgg_writer_create(NULL, &w2, NULL) == LGG_OK);
    REQUIRE(lgg_writer_add_tensor_from_file(w2, d, -1, 0, &e) == LGG_OK);
    int fd = open("/dev/null", O_WRONLY);
    REQUIRE(fd >= 0);
    CHECK(lgg_writer_write_fd(w2, fd, NULL, NULL, &e) == LGG_ERR_NO_DATA);
    close(fd);
    lgg_writer_free(w2);
    lgg_close(d);
    lgg_writer_free(w);
}

/* LGG_WRITE_NO_EMPTY_PAD: a file without tensors ends at its metadata (as
 * gguf-py writes it); ggml's padding stays the default, and a file with
 * tensors is padded either way. */
TEST(writer_no_empty_pad_only_without_tensors) {
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == 0);
    REQUIRE(lgg_writer_set_str(w, "general.name", "x", NULL) == 0);
    lgg_write_options o = LGG_WRITE_OPTIONS_INIT;
    size_t padded = 0, bare = 0, with_t = 0, with_t_flag = 0;
    lgg_status st;
    free(write_to_mem(w, &o, &padded, &st));
    o.flags = LGG_WRITE_NO_EMPTY_PAD;
    free(write_to_mem(w, &o, &bare, &st));
    CHECK_EQ_U(padded % 32, 0);
    CHECKF(bare < padded && bare % 32 != 0, "without tensors: %zu bytes unpadded, %zu padded", bare, padded);
    static const float v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int64_t ne[1] = {8};
    REQUIRE(lgg_writer_add_tensor_buffer(w, "t", 1, 1, ne, LGG_TYPE_F32, v, sizeof v, LGG_LITTLE_ENDIAN, NULL) == 0);
    free(write_to_mem(w, &o, &with_t_flag, &st));
    o.flags = 0;
    free(write_to_mem(w, &o, &with_t, &st));
    CHECK_EQ_U(with_t_flag, with_t);
    lgg_writer_free(w);
}
