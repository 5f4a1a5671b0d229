/* fuzz_edit.c -- random edit sequences (set, rm, rename) on a file opened
 * from memory, then a write and a re-open.
 *
 * Input: byte 0 = n, the number of operation bytes that follow; then n bytes
 * of operations; the rest is a GGUF file.  When the rest does not open (or
 * its alignment would make huge padding), a small built-in model is edited
 * instead, so every input exercises the editor.
 *
 * The target keeps its own model of the metadata (ordered pairs, each value
 * in a canonical host-order encoding): from_file keeps the first pair of
 * each key and reports the later ones as dropped, in order (with
 * LGG_FROM_FILE_KEEP_DUPLICATES, chosen by the low bit of n, every pair);
 * set replaces the first pair with the key in place or appends;
 * rm removes every pair with the key (LGG_ERR_NOT_FOUND when none); rename
 * renames every pair (LGG_ERR_NOT_FOUND / LGG_ERR_EXISTS).  The writer must
 * return the model's status for every operation, the written file must
 * re-open, hold exactly the model's pairs in order with equal values, and
 * the same tensors with the same data. */
#include "fuzz.h"
#include "libgguf.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- a byte reader over the operation bytes ---- */
typedef struct rd {
    const uint8_t *p;
    size_t n, i;
} rd;
static uint8_t next(rd *r) { return r->i < r->n ? r->p[r->i++] : 0; }

/* ---- canonical encodings: the same bytes whatever the value came from ---- */
typedef struct enc {
    uint8_t *p;
    size_t n, cap;
} enc;
static void put(enc *e, const void *p, size_t n) {
    if (e->n + n > e->cap) {
        size_t c = e->cap ? e->cap : 64;
        while (c < e->n + n) c *= 2;
        e->p = realloc(e->p, c);
        FUZZ_ASSERT(e->p != NULL);
        e->cap = c;
    }
    if (n) memcpy(e->p + e->n, p, n);
    e->n += n;
}
static void put_u64(enc *e, uint64_t v) { put(e, &v, 8); }

/* A view from a file, in host order. */
static void enc_view(enc *e, const lgg_value *v) {
    put_u64(e, v->type);
    if (v->type == LGG_VT_STRING) {
        lgg_str s;
        FUZZ_ASSERT(lgg_value_string(v, &s) == LGG_OK);
        put_u64(e, s.len);
        put(e, s.ptr, s.len);
    } else if (v->type == LGG_VT_ARRAY) {
        put_u64(e, v->elem_type);
        put_u64(e, v->count);
        lgg_iter it;
        lgg_value el;
        uint64_t k = 0;
        lgg_array_iter(v, &it);
        while (lgg_iter_next(&it, &el)) {
            enc_view(e, &el);
            k++;
        }
        FUZZ_ASSERT(k == v->count);
    } else {
        size_t sz = lgg_vtype_size(v->type);
        FUZZ_ASSERT(sz > 0 && v->size == sz);
        uint8_t b[8];
        for (size_t k = 0; k < sz; k++) b[k] = v->swap ? v->data[sz - 1 - k] : v->data[k];
        put(e, b, sz);
    }
}

/* ---- values built from the fuzz bytes, with their encoding ---- */
typedef struct built {
    lgg_wvalue v;
    void *store;     /* scalars, string bytes, array elements */
    lgg_str *strs;   /* array of strings */
    lgg_wvalue *sub; /* array of arrays */
    uint8_t *subdata;
    enc e;
} built;

static const uint32_t SCALARS[] = {LGG_VT_U8,  LGG_VT_I8,  LGG_VT_U16, LGG_VT_I16, LGG_VT_U32, LGG_VT_I32,
                                   LGG_VT_F32, LGG_VT_BOOL, LGG_VT_U64, LGG_VT_I64, LGG_VT_F64};
#define N_SCALARS (sizeof SCALARS / sizeof SCALARS[0])

static void build_value(rd *r, built *b) {
    memset(b, 0, sizeof *b);
    uint8_t kind = next(r) % 5;
    if (kind <= 1) { /* scalar */
        uint32_t t = SCALARS[next(r) % N_SCALARS];
        size_t sz = lgg_vtype_size(t);
        uint8_t *p = calloc(1, 8);
        for (size_t k = 0; k < sz; k++) p[k] = next(r);
        if (t == LGG_VT_BOOL) p[0] &= 1;
        b->store = p;
        b->v = (lgg_wvalue){t, 0, 1, p};
        put_u64(&b->e, t);
        put(&b->e, p, sz);
    } else if (kind == 2) { /* string */
        size_t len = next(r) % 24;
        char *s = malloc(len + 1);
        for (size_t k = 0; k < len; k++) s[k] = (char)next(r);
        b->store = s;
        b->v = (lgg_wvalue){LGG_VT_STRING, 0, len, s};
        put_u64(&b->e, LGG_VT_STRING);
        put_u64(&b->e, len);
        put(&b->e, s, len);
    } else if (kind == 3) { /* array of scalars or strings */
        size_t count = next(r) % 6;
        bool strings = next(r) & 1;
        uint32_t et = strings ? LGG_VT_STRING : SCALARS[next(r) % N_SCALARS];
        put_u64(&b->e, LGG_VT_ARRAY);
        put_u64(&b->e, et);
        put_u64(&b->e, count);
        if (strings) {
            b->strs = calloc(count + 1, sizeof *b->strs);
            char *chars = malloc(count * 8 + 1);
            b->store = chars;
            for (size_t i = 0; i < count; i++) {
                size_t len = next(r) % 8;
                for (size_t k = 0; k < len; k++) chars[i * 8 + k] = (char)next(r);
                b->strs[i] = (lgg_str){chars + i * 8, len};
                put_u64(&b->e, LGG_VT_STRING);
                put_u64(&b->e, len);
                put(&b->e, chars + i * 8, len);
            }
            b->v = (lgg_wvalue){LGG_VT_ARRAY, et, count, b->strs};
        } else {
            size_t sz = lgg_vtype_size(et);
            uint8_t *p = calloc(count + 1, sz);
            for (size_t i = 0; i < count; i++) {
                for (size_t k = 0; k < sz; k++) p[i * sz + k] = next(r);
                if (et == LGG_VT_BOOL) p[i] &= 1;
                put_u64(&b->e, et);
                put(&b->e, p + i * sz, sz);
            }
            b->store = p;
            b->v = (lgg_wvalue){LGG_VT_ARRAY, et, count, p};
        }
    } else { /* array of arrays of u16 */
        size_t count = next(r) % 4;
        b->sub = calloc(count + 1, sizeof *b->sub);
        b->subdata = calloc(count * 3 + 1, 2);
        put_u64(&b->e, LGG_VT_ARRAY);
        put_u64(&b->e, LGG_VT_ARRAY);
        put_u64(&b->e, count);
        for (size_t i = 0; i < count; i++) {
            size_t c = next(r) % 4;
            uint8_t *d = b->subdata + i * 6;
            for (size_t k = 0; k < c * 2; k++) d[k] = next(r);
            b->sub[i] = (lgg_wvalue){LGG_VT_ARRAY, LGG_VT_U16, c, d};
            put_u64(&b->e, LGG_VT_ARRAY);
            put_u64(&b->e, LGG_VT_U16);
            put_u64(&b->e, c);
            for (size_t k = 0; k < c; k++) {
                put_u64(&b->e, LGG_VT_U16);
                put(&b->e, d + k * 2, 2);
            }
        }
        b->v = (lgg_wvalue){LGG_VT_ARRAY, LGG_VT_ARRAY, count, b->sub};
    }
}

static void built_free(built *b) {
    free(b->store);
    free(b->strs);
    free(b->sub);
    free(b->subdata);
    free(b->e.p);
}

/* ---- the model ---- */
typedef struct pair {
    char *key;
    size_t klen;
    enc val;
} pair;

typedef struct model {
    pair *p;
    size_t n, cap;
} model;

static void m_append(model *m, const char *k, size_t kl, const enc *v) {
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 16;
        m->p = realloc(m->p, m->cap * sizeof *m->p);
        FUZZ_ASSERT(m->p != NULL);
    }
    pair *p = &m->p[m->n++];
    p->key = malloc(kl + 1);
    if (kl) memcpy(p->key, k, kl);
    p->klen = kl;
    p->val = (enc){NULL, 0, 0};
    put(&p->val, v->p, v->n);
}
static long m_find(const model *m, const char *k, size_t kl) {
    for (size_t i = 0; i < m->n; i++)
        if (m->p[i].klen == kl && (kl == 0 || memcmp(m->p[i].key, k, kl) == 0)) return (long)i;
    return -1;
}
static void m_free(model *m) {
    for (size_t i = 0; i < m->n; i++) {
        free(m->p[i].key);
        free(m->p[i].val.p);
    }
    free(m->p);
}

/* Key names the operations use: a pool of fixed names, some the base file
 * has, plus keys of the file itself. */
static const char *const POOL[] = {"a", "b.c", "general.name", "k", "", "tokenizer.ggml.tokens", "x.y.z",
                                   "general.architecture"};
#define N_POOL (sizeof POOL / sizeof POOL[0])

static void pick_key(rd *r, const model *m, char *buf, size_t *len) {
    uint8_t c = next(r);
    if ((c & 1) && m->n) {
        const pair *p = &m->p[(c >> 1) % m->n];
        size_t l = p->klen < 200 ? p->klen : 200;
        memcpy(buf, p->key, l);
        *len = l;
    } else {
        const char *k = POOL[(c >> 1) % N_POOL];
        *len = strlen(k);
        memcpy(buf, k, *len);
    }
}

/* A small model: three pairs and two F32 tensors. */
static const uint8_t *base_file(size_t *n) {
    static uint8_t buf[1024];
    static size_t len;
    if (len) {
        *n = len;
        return buf;
    }
    lgg_writer *w = NULL;
    FUZZ_ASSERT(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    lgg_writer_set_u32(w, "k", 7, NULL);
    lgg_writer_set_str(w, "general.name", "base", NULL);
    static const float d[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int64_t ne[2] = {4, 1};
    lgg_writer_add_tensor_buffer(w, "t0", 2, 1, ne, LGG_TYPE_F32, d, 16, LGG_LITTLE_ENDIAN, NULL);
    lgg_writer_add_tensor_buffer(w, "t1", 2, 1, ne, LGG_TYPE_F32, d + 4, 16, LGG_LITTLE_ENDIAN, NULL);
    int fd = memfd_create("fuzz_edit_base", 0);
    FUZZ_ASSERT(fd >= 0);
    uint64_t wr = 0;
    FUZZ_ASSERT(lgg_writer_write_fd(w, fd, NULL, &wr, NULL) == LGG_OK && wr <= sizeof buf);
    FUZZ_ASSERT(pread(fd, buf, (size_t)wr, 0) == (ssize_t)wr);
    close(fd);
    lgg_writer_free(w);
    len = (size_t)wr;
    *n = len;
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    size_t nops = data[0];
    if (nops > size - 1) nops = size - 1;
    rd r = {data + 1, nops, 0};
    const uint8_t *file = data + 1 + nops;
    size_t fsize = size - 1 - nops;

    lgg_file *f = NULL;
    if (lgg_open_memory(file, fsize, NULL, &f, NULL) != LGG_OK || lgg_file_alignment(f) > 65536) {
        lgg_close(f);
        f = NULL;
        file = base_file(&fsize);
        FUZZ_ASSERT(lgg_open_memory(file, fsize, NULL, &f, NULL) == LGG_OK);
    }
    lgg_writer *w = NULL;
    lgg_error err;
    const bool keep_dups = data[0] & 1;
    if (lgg_writer_from_file(f, -1, NULL, keep_dups ? LGG_FROM_FILE_KEEP_DUPLICATES : 0, &w, &err) != LGG_OK) {
        /* only a tensor without a size can stop a copy */
        FUZZ_ASSERT(err.code == LGG_ERR_UNSUPPORTED);
        lgg_close(f);
        return 0;
    }
    model m = {0};
    uint64_t dropped = 0;
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        if (!keep_dups && (uint64_t)lgg_find_key(f, kv->key.ptr, (size_t)kv->key.len) != i) {
            FUZZ_ASSERT(lgg_writer_dropped_at(w, dropped++) == kv);
            continue;
        }
        enc e = {0};
        enc_view(&e, &kv->value);
        m_append(&m, kv->key.ptr, kv->key.len, &e);
        free(e.p);
    }
    FUZZ_ASSERT(lgg_writer_kv_count(w) == m.n);
    FUZZ_ASSERT(lgg_writer_dropped_count(w) == dropped && lgg_writer_dropped_at(w, dropped) == NULL);

    while (r.i < r.n) {
        uint8_t op = next(&r) % 3;
        char k1[256], k2[256];
        size_t l1, l2;
        pick_key(&r, &m, k1, &l1);
        if (op == 0) {
            if (l1 == 17 && !memcmp(k1, "general.alignment", 17)) continue; /* it would move the data */
            built b;
            build_value(&r, &b);
            lgg_status s = lgg_writer_set(w, k1, l1, &b.v, &err);
            FUZZ_ASSERT(s == LGG_OK);
            long at = m_find(&m, k1, l1);
            if (at >= 0) {
                free(m.p[at].val.p);
                m.p[at].val = (enc){NULL, 0, 0};
                put(&m.p[at].val, b.e.p, b.e.n);
            } else {
                m_append(&m, k1, l1, &b.e);
            }
            built_free(&b);
        } else if (op == 1) {
            lgg_status s = lgg_writer_remove(w, k1, l1, &err);
            long at = m_find(&m, k1, l1);
            FUZZ_ASSERT(s == (at >= 0 ? LGG_OK : LGG_ERR_NOT_FOUND));
            size_t j = 0;
            for (size_t i = 0; i < m.n; i++) {
                if (m.p[i].klen == l1 && (l1 == 0 || !memcmp(m.p[i].key, k1, l1))) {
                    free(m.p[i].key);
                    free(m.p[i].val.p);
                } else {
                    m.p[j++] = m.p[i];
                }
            }
            m.n = j;
        } else {
            pick_key(&r, &m, k2, &l2);
            if (l2 == 17 && !memcmp(k2, "general.alignment", 17)) continue;
            lgg_status s = lgg_writer_rename(w, k1, l1, k2, l2, &err);
            long from = m_find(&m, k1, l1), to = m_find(&m, k2, l2);
            bool same = l1 == l2 && (l1 == 0 || !memcmp(k1, k2, l1));
            lgg_status want = from < 0 ? LGG_ERR_NOT_FOUND : same ? LGG_OK : to >= 0 ? LGG_ERR_EXISTS : LGG_OK;
            FUZZ_ASSERT(s == want);
            if (s == LGG_OK && !same)
                for (size_t i = 0; i < m.n; i++)
                    if (m.p[i].klen == l1 && (l1 == 0 || !memcmp(m.p[i].key, k1, l1))) {
                        free(m.p[i].key);
                        m.p[i].key = malloc(l2 + 1);
                        if (l2) memcpy(m.p[i].key, k2, l2);
                        m.p[i].klen = l2;
                    }
        }
        FUZZ_ASSERT(lgg_writer_kv_count(w) == m.n);
    }

    int fd = memfd_create("fuzz_edit", 0);
    FUZZ_ASSERT(fd >= 0);
    uint64_t written = 0;
    lgg_status s = lgg_writer_write_fd(w, fd, NULL, &written, &err);
    /* a file whose general.alignment the edits left alone may still be one
     * the writer refuses (not a power of two, or not 32-bit) */
    if (s != LGG_OK) {
        FUZZ_ASSERT(s == LGG_ERR_ALIGNMENT || s == LGG_ERR_RANGE);
    } else {
        uint8_t *out = malloc(written ? (size_t)written : 1);
        FUZZ_ASSERT(out && pread(fd, out, (size_t)written, 0) == (ssize_t)written);
        lgg_file *g = NULL;
        s = lgg_open_memory(out, (size_t)written, NULL, &g, &err);
        if (s != LGG_OK) fprintf(stderr, "re-open: %s\n", err.message);
        FUZZ_ASSERT(s == LGG_OK);
        FUZZ_ASSERT(lgg_kv_count(g) == m.n);
        for (size_t i = 0; i < m.n; i++) {
            const lgg_kv *kv = lgg_kv_at(g, i);
            FUZZ_ASSERT(kv->key.len == m.p[i].klen && (m.p[i].klen == 0 || !memcmp(kv->key.ptr, m.p[i].key, m.p[i].klen)));
            enc e = {0};
            enc_view(&e, &kv->value);
            FUZZ_ASSERT(e.n == m.p[i].val.n && !memcmp(e.p, m.p[i].val.p, e.n));
            free(e.p);
        }
        FUZZ_ASSERT(lgg_tensor_count(g) == lgg_tensor_count(f));
        bool same_order = lgg_file_endian(f) == lgg_file_endian(g);
        for (uint64_t i = 0; i < lgg_tensor_count(g); i++) {
            const lgg_tensor *a = lgg_tensor_at(f, i), *b = lgg_tensor_at(g, i);
            FUZZ_ASSERT(a->name.len == b->name.len && !memcmp(a->name.ptr, b->name.ptr, a->name.len));
            FUZZ_ASSERT(a->type == b->type && !memcmp(a->ne, b->ne, sizeof a->ne) && a->size == b->size);
            if (same_order) FUZZ_ASSERT(a->size == 0 || !memcmp(a->data, b->data, a->size));
        }
        lgg_close(g);
        free(out);
    }
    close(fd);
    m_free(&m);
    lgg_writer_free(w);
    lgg_close(f);
    return 0;
}
