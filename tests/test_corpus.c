/* test_corpus.c -- real files written by other software (../shared/corpus).
 * Every file both ggml and gguf-py accept opens with the manifest's counts;
 * every GGUF-magic file has a recorded expected outcome (tests/corpus_expect.tsv)
 * which the reader must reproduce exactly; none may crash. */
#include "test.h"
#include "libgguf.h"
#include "corpus.h"
#include "standin.h"

#include <stdlib.h>

typedef struct row {
    char *f[16];
    int n;
} row;

static int split_tab(char *line, char **f, int max) {
    int n = 0;
    f[n++] = line;
    for (char *p = line; *p && n < max; p++)
        if (*p == '\t') {
            *p = 0;
            f[n++] = p + 1;
        }
    char *nl = strchr(f[n - 1], '\n');
    if (nl) *nl = 0;
    return n;
}

/* The file NAME at PATH opens with the manifest's counts, its tensors' data
 * inside it, and validates. */
static void check_accepted(const char *name, const char *path, const char *version, const char *n_tensors,
                           const char *n_kv) {
    lgg_file *g = NULL;
    lgg_error e;
    lgg_status s = lgg_open_file(path, NULL, &g, &e);
    CHECKF(s == LGG_OK, "%s: %s", name, s ? e.message : "");
    if (s) return;
    CHECKF(lgg_tensor_count(g) == strtoull(n_tensors, NULL, 10), "%s tensors", name);
    CHECKF(lgg_kv_count(g) == strtoull(n_kv, NULL, 10), "%s kv", name);
    CHECKF(lgg_file_version(g) == strtoul(version, NULL, 10), "%s version", name);
    /* every tensor's data lies inside the file */
    for (uint64_t i = 0; i < lgg_tensor_count(g); i++) {
        const lgg_tensor *t = lgg_tensor_at(g, i);
        CHECK(t->data_available && t->file_offset + t->size <= lgg_file_size(g));
    }
    lgg_report *r = NULL;
    CHECK(lgg_validate(g, NULL, &r) == LGG_OK && r != NULL);
    lgg_report_free(r);
    lgg_close(g);
}

/* Without ../shared: the files of the compact copy both references accept
 * (its rows hold MANIFEST.tsv's counts). */
static void accepted_in_compact_copy(void) {
    const corpus_row *rows;
    const int n = corpus_index(&rows);
    int checked = 0, want = 0;
    for (int i = 0; i < n; i++) {
        if (!rows[i].both_accept) continue;
        want++;
        const char *path = corpus_path(rows[i].path);
        CHECKF(path != NULL, "%s: not rebuilt", rows[i].path);
        if (!path) continue;
        char v[24], nt[24], nkv[24];
        snprintf(v, sizeof v, "%u", rows[i].version);
        snprintf(nt, sizeof nt, "%llu", rows[i].n_tensors);
        snprintf(nkv, sizeof nkv, "%llu", rows[i].n_kv);
        check_accepted(rows[i].path, path, v, nt, nkv);
        checked++;
    }
    CHECKF(checked == want && checked >= 20, "only %d of the compact copy's %d accepted files checked", checked, want);
}

TEST(corpus_accepted_by_both_references_open_with_manifest_counts) {
    if (!need_corpus()) return;
    if (!shared_present()) {
        accepted_in_compact_copy();
        return;
    }
    FILE *m = fopen(shared_path("corpus/MANIFEST.tsv"), "r");
    REQUIRE(m != NULL);
    char line[8192];
    int checked = 0;
    REQUIRE(fgets(line, sizeof line, m) != NULL); /* header */
    while (fgets(line, sizeof line, m)) {
        char *f[16];
        int n = split_tab(line, f, 16);
        if (n < 14) continue;
        /* path origin license bytes sha256 format version n_tensors n_kv arch tensor_types notes ref_ggml_c ref_gguf_py */
        if (strcmp(f[12], "ok") != 0 || strncmp(f[13], "ok", 2) != 0) continue;
        check_accepted(f[0], corpus_path(f[0]), f[6], f[7], f[8]);
        checked++;
    }
    fclose(m);
    CHECKF(checked >= 30, "only %d corpus files checked", checked);
}

TEST(corpus_every_gguf_file_has_its_expected_outcome) {
    if (!need_corpus()) return;
    FILE *x = fopen("tests/corpus_expect.tsv", "r");
    REQUIRE(x != NULL);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, x)) {
        char *f[4];
        if (split_tab(line, f, 4) < 2) continue;
        const char *path = corpus_path(f[0]);
        if (!path) continue; /* left out of the compact copy */
        lgg_file *g = NULL;
        lgg_error e;
        memset(&e, 0, sizeof e);
        lgg_status s = lgg_open_file(path, NULL, &g, &e);
        CHECKF(!strcmp(lgg_status_name(s), f[1]), "%s: expected %s, got %s (%s)", f[0], f[1], lgg_status_name(s),
               s ? e.message : "");
        if (s) {
            CHECK(g == NULL);
            CHECK(e.code == s && e.message[0]);
        } else {
            lgg_report *r = NULL;
            CHECK(lgg_validate(g, NULL, &r) == LGG_OK);
            lgg_report_free(r);
        }
        /* the same bytes from memory give the same verdict */
        size_t sz;
        unsigned char *b = read_file(path, &sz);
        REQUIRE(b != NULL);
        lgg_file *h = NULL;
        CHECK(lgg_open_memory(b, sz, NULL, &h, NULL) == s);
        lgg_close(h);
        free(b);
        lgg_close(g);
        n++;
    }
    fclose(x);
    const corpus_row *rows;
    /* without ../shared, every file of the compact copy (all but the vocabularies) */
    CHECKF(shared_present() ? n > 250 : n == corpus_index(&rows), "%d files checked", n);
}

TEST(corpus_known_cases_and_messages) {
    if (!need_corpus() || !need_models()) return;
    lgg_file *g = NULL;
    lgg_error e;
    CHECK(lgg_open_file(corpus_path("llama.cpp/test_writer@30fef3d6.gguf"), NULL, &g, &e) == LGG_ERR_VALUE_TYPE);
    CHECK_STR(e.message, "unknown value type 13 at offset 204 (key 'dict1')");
    CHECK(e.offset == 204);
    CHECK(lgg_open_file(corpus_path("threatflux-gguf/test_model@0f14d3d7.gguf"), NULL, &g, &e) ==
          LGG_ERR_TENSOR_OVERLAP);
    CHECK(lgg_open_file(corpus_path("llama.cpp/example@42a152e7.gguf"), NULL, &g, &e) == LGG_ERR_MAGIC);
    CHECK_STR(e.message, "bad magic 'FUGG' at offset 0, expected 'GGUF'");
    CHECK(lgg_open_file(corpus_path("bitnet-rs/mini@e11b908a.gguf"), NULL, &g, &e) == LGG_ERR_TRUNCATED);
    CHECK_STR(e.message, "key length 962072674336 at offset 24 exceeds the 192 bytes left in the file");

    /* duplicate keys open, and validation reports them */
    const char *dbrx = model_path("corpus/llama.cpp/ggml-vocab-dbrx@ae6d2c32.gguf"); /* or its stand-in */
    REQUIRE(dbrx != NULL);
    REQUIRE(lgg_open_file(dbrx, NULL, &g, &e) == LGG_OK);
    lgg_report *r = NULL;
    REQUIRE(lgg_validate(g, NULL, &r) == LGG_OK);
    int dup = 0;
    for (size_t i = 0; i < lgg_report_count(r); i++) dup += lgg_report_at(r, i)->check == LGG_CHECK_KEY_DUPLICATE;
    CHECK(dup == 1);
    lgg_report_free(r);
    /* the first of two equal keys is the one found */
    CHECK(lgg_find_key_cstr(g, "general.file_type") == 10);
    lgg_close(g);

    /* big-endian copies read exactly like their little-endian originals */
    lgg_file *le = NULL, *be = NULL;
    REQUIRE(lgg_open_file(model_path("golden/llama-quantize/pub-dense-f16.gguf"), NULL, &le, NULL) == LGG_OK);
    REQUIRE(lgg_open_file(model_path("golden/llama-quantize/pub-dense-f16.BE.gguf"), NULL, &be, NULL) == LGG_OK);
    CHECK(lgg_file_endian(le) == LGG_LITTLE_ENDIAN && lgg_file_endian(be) == LGG_BIG_ENDIAN);
    REQUIRE(lgg_kv_count(le) == lgg_kv_count(be) && lgg_tensor_count(le) == lgg_tensor_count(be));
    for (uint64_t i = 0; i < lgg_kv_count(le); i++) {
        const lgg_kv *a = lgg_kv_at(le, i), *b = lgg_kv_at(be, i);
        CHECK(a->key.len == b->key.len && !memcmp(a->key.ptr, b->key.ptr, a->key.len));
        CHECK(a->value.type == b->value.type && a->value.count == b->value.count);
        if (a->value.type == LGG_VT_ARRAY) {
            lgg_iter ia, ib;
            lgg_value ea, eb;
            lgg_array_iter(&a->value, &ia);
            lgg_array_iter(&b->value, &ib);
            while (lgg_iter_next(&ia, &ea)) {
                REQUIRE(lgg_iter_next(&ib, &eb));
                double x, y;
                lgg_str s1, s2;
                if (lgg_value_float(&ea, &x) == LGG_OK) CHECK(lgg_value_float(&eb, &y) == LGG_OK && (x == y || x != x));
                else if (lgg_value_string(&ea, &s1) == LGG_OK)
                    CHECK(lgg_value_string(&eb, &s2) == LGG_OK && s1.len == s2.len && !memcmp(s1.ptr, s2.ptr, s1.len));
            }
        } else {
            double x, y;
            if (lgg_value_float(&a->value, &x) == LGG_OK) CHECK(lgg_value_float(&b->value, &y) == LGG_OK && x == y);
        }
    }
    for (uint64_t i = 0; i < lgg_tensor_count(le); i++) {
        const lgg_tensor *a = lgg_tensor_at(le, i), *b = lgg_tensor_at(be, i);
        CHECK(a->type == b->type && a->offset == b->offset && a->size == b->size);
        CHECK(!memcmp(a->ne, b->ne, sizeof a->ne));
    }
    lgg_close(le);
    lgg_close(be);
}
