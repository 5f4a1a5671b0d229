/* test_source.c -- lgg_open_source: the header read as a growing prefix
 * through a callback, tensor data only on demand.
 *
 * Every corpus file (and a generated one with a 4 MB vocabulary) is opened
 * both ways: the verdict, the pairs, the tensor infos and the validation
 * findings are the same (a source's padding bytes between tensors are not
 * read, so padding findings are the only ones it may lack); the reads stay
 * within the budget the header documents; a loaded tensor has the file's
 * bytes. */
#include "corpus.h"
#include "gen.h"
#include "libgguf.h"

#include <stdlib.h>

typedef struct mem_src {
    const unsigned char *p;
    uint64_t size;
    int reads;
    uint64_t bytes;
    int fail_at; /* 1-based read that fails with LGG_ERR_IO; 0: none */
} mem_src;

static lgg_status mem_read(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    mem_src *m = ud;
    m->reads++;
    if (m->fail_at && m->reads == m->fail_at) {
        if (err) {
            err->code = LGG_ERR_IO;
            err->offset = off;
            snprintf(err->message, sizeof err->message, "injected failure");
        }
        return LGG_ERR_IO;
    }
    CHECKF(off <= m->size && n <= m->size - off, "read past the end: %llu + %zu > %llu", (unsigned long long)off, n,
           (unsigned long long)m->size);
    if (off > m->size || n > m->size - off) return LGG_ERR_RANGE;
    memcpy(dst, m->p + off, n);
    m->bytes += n;
    return LGG_OK;
}

static lgg_source source_of(mem_src *m, uint64_t first) {
    lgg_source s = {mem_read, m, m->size, first, 0};
    return s;
}

/* Findings of the file that a source open must also give: all but the
 * padding ones (those bytes are not read). */
static void same_findings(const char *name, const lgg_file *a, const lgg_file *b) {
    lgg_report *ra = NULL, *rb = NULL;
    CHECK(lgg_validate(a, NULL, &ra) == LGG_OK);
    CHECK(lgg_validate(b, NULL, &rb) == LGG_OK);
    size_t nb = lgg_report_count(rb), j = 0;
    for (size_t i = 0; i < lgg_report_count(ra); i++) {
        const lgg_finding *x = lgg_report_at(ra, i);
        if (x->check == LGG_CHECK_PADDING) continue;
        while (j < nb && lgg_report_at(rb, j)->check == LGG_CHECK_PADDING) j++;
        const lgg_finding *y = j < nb ? lgg_report_at(rb, j++) : NULL;
        CHECKF(y && y->check == x->check && y->severity == x->severity && y->offset == x->offset &&
                   !strcmp(y->message, x->message),
               "%s: finding %zu differs: '%s' vs '%s'", name, i, x->message, y ? y->message : "(none)");
    }
    while (j < nb && lgg_report_at(rb, j)->check == LGG_CHECK_PADDING) j++;
    CHECKF(j == nb, "%s: the source open has %zu findings more", name, nb - j);
    lgg_report_free(ra);
    lgg_report_free(rb);
}

static int ceil_log2(uint64_t x) {
    int k = 0;
    while ((UINT64_C(1) << k) < x) k++;
    return k;
}

/* Open `p` both ways with a first read of `first` bytes and compare. */
static void compare(const char *name, const unsigned char *p, size_t n, uint64_t first) {
    lgg_file *f = NULL, *g = NULL;
    lgg_error e1, e2;
    memset(&e1, 0, sizeof e1);
    memset(&e2, 0, sizeof e2);
    lgg_status s1 = lgg_open_memory(p, n, NULL, &f, &e1);
    mem_src m = {p, n, 0, 0, 0};
    lgg_source src = source_of(&m, first);
    lgg_status s2 = lgg_open_source(&src, NULL, &g, &e2);
    CHECKF(s1 == s2, "%s: %s from memory, %s through a source (%s)", name, lgg_status_name(s1), lgg_status_name(s2),
           e2.message);
    if (s1 || s2) {
        CHECKF(s1 != s2 || e1.offset == e2.offset, "%s: error offset %llu vs %llu", name,
               (unsigned long long)e1.offset, (unsigned long long)e2.offset);
        lgg_close(f);
        lgg_close(g);
        return;
    }
    CHECK(lgg_file_header_only(g) && !lgg_file_header_only(f));
    CHECK_EQ_U(lgg_kv_count(g), lgg_kv_count(f));
    CHECK_EQ_U(lgg_tensor_count(g), lgg_tensor_count(f));
    CHECK_EQ_U(lgg_file_data_offset(g), lgg_file_data_offset(f));
    CHECK_EQ_U(lgg_file_size(g), lgg_file_size(f));
    const uint64_t h = lgg_file_data_offset(f);
    /* the budget: at most max(first, 2H) bytes in log2(H / first) + 1 reads */
    const uint64_t most = first > 2 * h ? first : 2 * h;
    CHECKF(m.bytes <= (most < n ? most : n), "%s: %llu bytes read for a %llu-byte header", name,
           (unsigned long long)m.bytes, (unsigned long long)h);
    CHECKF(m.reads <= 1 + ceil_log2(h / first + 1), "%s: %d reads for a %llu-byte header from %llu", name, m.reads,
           (unsigned long long)h, (unsigned long long)first);
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *a = lgg_kv_at(f, i), *b = lgg_kv_at(g, i);
        CHECK(a->key.len == b->key.len && !memcmp(a->key.ptr, b->key.ptr, a->key.len));
        CHECK(a->value.type == b->value.type && a->value.count == b->value.count && a->value.size == b->value.size);
        CHECK(a->value.size == 0 || !memcmp(a->value.data, b->value.data, a->value.size));
    }
    same_findings(name, f, g);
    /* data: not present until loaded, then the file's bytes */
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *a = lgg_tensor_at(f, i), *b = lgg_tensor_at(g, i);
        CHECK(a->file_offset == b->file_offset && a->size == b->size && a->type == b->type);
        if (!a->data_available) continue;
        if (!b->data_available) CHECK(b->data == NULL);
        const int before = m.reads;
        CHECK(lgg_file_load_tensor(g, i, NULL) == LGG_OK);
        CHECK(b->data_available && (a->size == 0 || !memcmp(a->data, b->data, a->size)));
        CHECK(m.reads <= before + 1);
        CHECK(lgg_file_load_tensor(g, i, NULL) == LGG_OK); /* once */
        CHECK(m.reads <= before + 1);
    }
    lgg_close(f);
    lgg_close(g);
}

TEST(source_corpus_same_as_memory) {
    if (!need_corpus()) return;
    FILE *x = fopen("tests/corpus_expect.tsv", "r");
    REQUIRE(x != NULL);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, x)) {
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = 0;
        const char *path = corpus_path(line);
        if (!path) continue; /* left out of the compact copy */
        size_t sz = 0;
        unsigned char *b = read_file(path, &sz);
        REQUIRE(b != NULL);
        compare(line, b, sz, 64);
        if (n % 7 == 0) compare(line, b, sz, 256 << 10); /* the default: one read for most headers */
        free(b);
        n++;
    }
    fclose(x);
    const corpus_row *rows;
    CHECKF(shared_present() ? n > 250 : n == corpus_index(&rows), "%d files", n); /* all of the compact copy */
}

/* A 4 MB vocabulary header: six reads from 256 KiB, about twice the header. */
TEST(source_large_vocabulary_header) {
    buf b = {0};
    const int n_tok = 200000;
    gen_header(&b, 3, 1, 2);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "llama");
    gen_key(&b, 3, "tokenizer.ggml.tokens", LGG_VT_ARRAY);
    buf_u32(&b, LGG_VT_STRING);
    buf_u64(&b, (uint64_t)n_tok);
    for (int i = 0; i < n_tok; i++) {
        char t[32];
        snprintf(t, sizeof t, "token-%07d-xxxxxx", i);
        gen_str(&b, 3, t);
    }
    uint64_t ne[2] = {1024, 1024}; /* 4 MiB of data after the header */
    gen_tensor(&b, 3, "w", 2, ne, LGG_TYPE_F32, 0);
    buf_pad(&b, 32);
    for (int i = 0; i < 1024 * 1024 * 4; i++) buf_u8(&b, (uint8_t)(i >> 3));
    CHECK(b.n > (4u << 20));
    mem_src m = {b.p, b.n, 0, 0, 0};
    lgg_source src = source_of(&m, 0);
    lgg_file *g = NULL;
    REQUIRE(lgg_open_source(&src, NULL, &g, NULL) == LGG_OK);
    const uint64_t h = lgg_file_data_offset(g);
    CHECKF(m.reads <= 6, "%d reads", m.reads);
    CHECKF(m.bytes <= 2 * h + (1u << 20), "%llu bytes for a %llu-byte header", (unsigned long long)m.bytes,
           (unsigned long long)h);
    CHECK(!lgg_tensor_at(g, 0)->data_available);
    lgg_close(g);
    compare("4 MB vocabulary", b.p, b.n, 256 << 10);
    buf_free(&b);
}

/* The source's failures, a source shorter than the header, the header cap,
 * and tensors past the source's end. */
TEST(source_failures) {
    buf b = {0};
    gen_header(&b, 3, 1, 1);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "llama");
    uint64_t ne[1] = {1024};
    gen_tensor(&b, 3, "w", 1, ne, LGG_TYPE_F32, 0);
    buf_pad(&b, 32);
    const size_t data_at = b.n;
    for (int i = 0; i < 4096; i++) buf_u8(&b, 0);
    for (int fail = 1; fail <= 3; fail++) {
        mem_src m = {b.p, b.n, 0, 0, fail};
        lgg_source src = source_of(&m, 16);
        lgg_file *g = NULL;
        lgg_error e;
        memset(&e, 0, sizeof e);
        lgg_status s = lgg_open_source(&src, NULL, &g, &e);
        CHECKF(s == LGG_ERR_IO && g == NULL && strstr(e.message, "injected"), "read %d failing: %s (%s)", fail,
               lgg_status_name(s), e.message);
    }
    /* the read of a tensor fails: the status, and the tensor stays absent */
    mem_src m = {b.p, b.n, 0, 0, 0};
    lgg_source src = source_of(&m, 64);
    lgg_file *g = NULL;
    REQUIRE(lgg_open_source(&src, NULL, &g, NULL) == LGG_OK);
    m.fail_at = m.reads + 1;
    CHECK(lgg_file_load_tensor(g, 0, NULL) == LGG_ERR_IO);
    CHECK(!lgg_tensor_at(g, 0)->data_available);
    CHECK(lgg_file_load_tensor(g, 1, NULL) == LGG_ERR_ARG);
    lgg_close(g);
    /* a header cut short; a tensor past the source's end (allowed or not) */
    mem_src shortm = {b.p, 20, 0, 0, 0};
    src = source_of(&shortm, 8);
    CHECK(lgg_open_source(&src, NULL, &g, NULL) == LGG_ERR_TRUNCATED && g == NULL);
    mem_src cut = {b.p, data_at + 100, 0, 0, 0};
    src = source_of(&cut, 8);
    CHECK(lgg_open_source(&src, NULL, &g, NULL) == LGG_ERR_TRUNCATED);
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
    REQUIRE(lgg_open_source(&src, &o, &g, NULL) == LGG_OK);
    lgg_error e;
    CHECK(lgg_file_load_tensor(g, 0, &e) == LGG_ERR_NO_DATA && e.code == LGG_ERR_NO_DATA);
    lgg_close(g);
    /* the cap on the header's size */
    src = source_of(&m, 8);
    src.max_header = 16;
    CHECK(lgg_open_source(&src, NULL, &g, NULL) == LGG_ERR_LIMIT);
    CHECK(lgg_open_source(NULL, NULL, &g, NULL) == LGG_ERR_ARG);
    CHECK(lgg_file_load_tensor(NULL, 0, NULL) == LGG_ERR_ARG);
    CHECK(!lgg_file_header_only(NULL));
    buf_free(&b);
}
