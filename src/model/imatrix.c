/* imatrix.c -- llama.cpp's importance matrices, legacy .dat and GGUF.
 *
 * The values are turned into what llama-quantize hands to the quantizers
 * (sums divided by their counts) with the same float operations, so the
 * quantized bytes match.  Both formats are untrusted input: every length is
 * checked against the bytes that remain before it is used, and nothing is
 * allocated from a count the file claims until the bytes behind it are
 * known to be present. */
#include "base/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct im_entry {
    char *name;     /* NUL-terminated */
    size_t name_len;
    float *v;
    uint64_t n;
} im_entry;

struct lgg_imatrix {
    lgg_allocator a;
    bool has_alloc;
    int format;
    im_entry *e;
    size_t n, cap;
    size_t *order; /* entry indices sorted by name, for lookups */
    int64_t chunks;
    char *dataset;
    size_t dataset_len;
    bool has_dataset;
};

static const lgg_allocator *A(const lgg_imatrix *m) { return m->has_alloc ? &m->a : NULL; }

static void entry_free(const lgg_imatrix *m, im_entry *e) {
    lgg__free(A(m), e->name);
    lgg__free(A(m), e->v);
    e->name = NULL;
    e->v = NULL;
}

void lgg_imatrix_free(lgg_imatrix *m) {
    if (!m) return;
    for (size_t i = 0; i < m->n; i++) entry_free(m, &m->e[i]);
    lgg__free(A(m), m->e);
    lgg__free(A(m), m->order);
    lgg__free(A(m), m->dataset);
    const lgg_allocator a = m->a;
    lgg__free(m->has_alloc ? &a : NULL, m);
}

static int cmp_entry(const lgg_imatrix *m, size_t i, const char *name, size_t len) {
    const im_entry *e = &m->e[i];
    size_t k = e->name_len < len ? e->name_len : len;
    int c = memcmp(e->name, name, k);
    if (c) return c;
    return e->name_len < len ? -1 : e->name_len > len ? 1 : 0;
}

/* Insertion into the sorted index; a name already present takes the new
 * vector (llama.cpp's map keeps the last one). */
static lgg_status add_entry(lgg_imatrix *m, char *name, size_t len, float *v, uint64_t n) {
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_entry(m, m->order[mid], name, len);
        if (c == 0) {
            im_entry *e = &m->e[m->order[mid]];
            lgg__free(A(m), e->v);
            lgg__free(A(m), name);
            e->v = v;
            e->n = n;
            return LGG_OK;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    if (m->n == m->cap) {
        /* two arrays of one capacity: grown alike, so their caps agree */
        size_t ce = m->cap, co = m->cap;
        if (!lgg__grow(A(m), (void **)&m->e, &ce, m->n + 1, sizeof *m->e, 64)) goto nomem;
        if (!lgg__grow(A(m), (void **)&m->order, &co, m->n + 1, sizeof *m->order, 64)) goto nomem;
        m->cap = co;
    }
    memmove(m->order + lo + 1, m->order + lo, (m->n - lo) * sizeof *m->order);
    m->order[lo] = m->n;
    m->e[m->n++] = (im_entry){name, len, v, n};
    return LGG_OK;
nomem:
    lgg__free(A(m), name);
    lgg__free(A(m), v);
    return LGG_ERR_NOMEM;
}

static bool rd_i32(const uint8_t *p, size_t size, size_t *pos, int32_t *out) {
    if (size - *pos < 4) return false;
    uint32_t u = lgg__ld32(p + *pos, lgg__host_is_big());
    memcpy(out, &u, 4);
    *pos += 4;
    return true;
}

static lgg_status load_legacy(lgg_imatrix *m, const uint8_t *p, size_t size, lgg_error *err) {
    size_t pos = 0;
    int32_t n_entries;
    if (!rd_i32(p, size, &pos, &n_entries)) return lgg__fail(err, LGG_ERR_TRUNCATED, 0, "imatrix: no entry count");
    if (n_entries < 1) return lgg__fail(err, LGG_ERR_INVALID, 0, "imatrix: entry count %d (no data)", (int)n_entries);
    for (int32_t i = 0; i < n_entries; i++) {
        const size_t at = pos;
        int32_t len, ncall, nval;
        if (!rd_i32(p, size, &pos, &len))
            return lgg__fail(err, LGG_ERR_TRUNCATED, at, "imatrix: entry %d: name length past the end", (int)i);
        if (len < 0 || (size_t)len > size - pos)
            return lgg__fail(err, LGG_ERR_TRUNCATED, at, "imatrix: entry %d: name length %d exceeds the %zu bytes left",
                             (int)i, (int)len, size - pos);
        /* llama.cpp reads the name as a C string: it ends at a NUL byte */
        const char *nm = (const char *)p + pos;
        size_t nl = strnlen(nm, (size_t)len);
        pos += (size_t)len;
        if (!rd_i32(p, size, &pos, &ncall) || !rd_i32(p, size, &pos, &nval))
            return lgg__fail(err, LGG_ERR_TRUNCATED, pos, "imatrix: entry %d: counts past the end", (int)i);
        if (nval < 1) return lgg__fail(err, LGG_ERR_INVALID, pos - 4, "imatrix: entry %d: %d values", (int)i, (int)nval);
        if ((size - pos) / 4 < (size_t)nval)
            return lgg__fail(err, LGG_ERR_TRUNCATED, pos, "imatrix: entry %d: %d values exceed the %zu bytes left",
                             (int)i, (int)nval, size - pos);
        char *name = lgg__alloc(A(m), nl + 1);
        float *v = lgg__calloc(A(m), (size_t)nval, sizeof *v);
        if (!name || !v) {
            lgg__free(A(m), name);
            lgg__free(A(m), v);
            return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "imatrix: out of memory");
        }
        memcpy(name, nm, nl);
        name[nl] = 0;
        for (int32_t j = 0; j < nval; j++) {
            uint32_t u = lgg__ld32(p + pos + 4 * (size_t)j, lgg__host_is_big());
            memcpy(&v[j], &u, 4);
            /* float divided by the int converted to float, as `v /= ncall` */
            if (ncall > 0) v[j] = v[j] / (float)ncall;
        }
        pos += 4 * (size_t)nval;
        lgg_status st = add_entry(m, name, nl, v, (uint64_t)nval);
        if (st != LGG_OK) return lgg__fail(err, st, LGG_NO_OFFSET, "imatrix: out of memory");
    }
    if (pos < size) {
        const size_t at = pos;
        int32_t last_call, dlen;
        if (!rd_i32(p, size, &pos, &last_call) || !rd_i32(p, size, &pos, &dlen))
            return lgg__fail(err, LGG_ERR_TRUNCATED, at, "imatrix: chunk count and dataset cut short");
        if (dlen < 0 || (size_t)dlen > size - pos)
            return lgg__fail(err, LGG_ERR_TRUNCATED, pos - 4, "imatrix: dataset name length %d exceeds the %zu bytes left",
                             (int)dlen, size - pos);
        m->chunks = last_call;
        m->dataset = lgg__alloc(A(m), (size_t)dlen + 1);
        if (!m->dataset) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "imatrix: out of memory");
        memcpy(m->dataset, p + pos, (size_t)dlen);
        m->dataset[dlen] = 0;
        m->dataset_len = (size_t)dlen;
        m->has_dataset = true;
        pos += (size_t)dlen;
        if (pos != size)
            return lgg__fail(err, LGG_ERR_INVALID, pos, "imatrix: %zu unexpected bytes after the dataset name", size - pos);
    }
    return LGG_OK;
}

/* s ends with suf.  A name with a NUL byte never does: llama.cpp takes
 * tensor names as C strings, so such a name ends at the NUL, has no suffix,
 * and the tensor is ignored (and our entry names are C strings too). */
static bool ends_with(lgg_str s, const char *suf, size_t *base) {
    size_t k = strlen(suf);
    if (s.len < k || memcmp(s.ptr + s.len - k, suf, k) != 0) return false;
    if (memchr(s.ptr, 0, (size_t)s.len)) return false;
    *base = (size_t)s.len - k;
    return true;
}

/* The GGUF imatrix's keys: the datasets (the first one kept) and the chunk
 * count. */
static lgg_status gguf_keys(lgg_imatrix *m, const lgg_file *f, lgg_error *err) {
    lgg_value ds, cc, cs;
    uint64_t chunks = 0;
    if (lgg_tensor_count(f) < 1) return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "imatrix: no tensors");
    if (lgg_get(f, "imatrix.datasets", &ds) != LGG_OK || lgg_get(f, "imatrix.chunk_count", &cc) != LGG_OK ||
        lgg_get(f, "imatrix.chunk_size", &cs) != LGG_OK)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "imatrix: missing imatrix.datasets, imatrix.chunk_count or imatrix.chunk_size");
    if (ds.type != LGG_VT_ARRAY || ds.elem_type != LGG_VT_STRING || lgg_value_uint(&cc, &chunks) != LGG_OK ||
        chunks > INT32_MAX)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "imatrix: imatrix.datasets or imatrix.chunk_count has a bad type");
    m->chunks = (int64_t)chunks;
    lgg_value e0;
    lgg_str s;
    if (ds.count > 0 && lgg_array_get(&ds, 0, &e0) == LGG_OK && lgg_value_string(&e0, &s) == LGG_OK) {
        m->dataset = lgg__alloc(A(m), (size_t)s.len + 1);
        if (!m->dataset) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "imatrix: out of memory");
        if (s.len) memcpy(m->dataset, s.ptr, (size_t)s.len);
        m->dataset[s.len] = 0;
        m->dataset_len = (size_t)s.len;
        m->has_dataset = true;
    }
    return LGG_OK;
}

/* One NAME.in_sum2 tensor (t) and its NAME.counts: the mean squared
 * activations, one row per expert, as an entry named NAME. */
static lgg_status gguf_entry(lgg_imatrix *m, const lgg_file *f, const lgg_tensor *t, size_t base, lgg_error *err) {
    char cname[1024];
    if (base + 8 > sizeof cname) return lgg__fail(err, LGG_ERR_INVALID, t->info_offset, "imatrix: tensor name too long");
    memcpy(cname, t->name.ptr, base);
    memcpy(cname + base, ".counts", 8);
    int64_t ci = lgg_find_tensor(f, cname, base + 7);
    if (ci < 0)
        return lgg__fail(err, LGG_ERR_INVALID, t->info_offset, "imatrix: mismatched sums and counts for %.*s",
                         (int)(base < 200 ? base : 200), t->name.ptr);
    const lgg_tensor *c = lgg_tensor_at(f, (uint64_t)ci);
    const uint64_t ne0 = t->ne[0] > 0 ? (uint64_t)t->ne[0] : 0;
    const uint64_t ne1 = ne0 ? t->n_elements / ne0 : 0;
    if (t->type != LGG_TYPE_F32 || c->type != LGG_TYPE_F32 || !t->data || !c->data || ne0 == 0 || ne1 == 0 ||
        c->n_elements < ne1 || t->n_elements > SIZE_MAX / sizeof(float))
        return lgg__fail(err, LGG_ERR_INVALID, t->info_offset,
                         "imatrix: %.*s: sums and counts must be f32 and not empty, counts one per row",
                         (int)(base < 200 ? base : 200), t->name.ptr);
    float *v = lgg__calloc(A(m), (size_t)t->n_elements, sizeof *v);
    float *cnt = lgg__calloc(A(m), (size_t)ne1, sizeof *cnt);
    char *name = lgg__alloc(A(m), base + 1);
    if (!v || !cnt || !name) {
        lgg__free(A(m), v);
        lgg__free(A(m), cnt);
        lgg__free(A(m), name);
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "imatrix: out of memory");
    }
    const lgg_endian endian = lgg_file_endian(f);
    lgg_dequantize(LGG_TYPE_F32, t->data, (size_t)t->size, endian, v, t->n_elements);
    lgg_dequantize(LGG_TYPE_F32, c->data, (size_t)c->size, endian, cnt, ne1);
    for (uint64_t j = 0; j < ne1; j++) {
        const float count = cnt[j];
        for (uint64_t k = 0; k < ne0; k++) v[j * ne0 + k] = count > 0.0f ? v[j * ne0 + k] / count : 1.0f;
    }
    lgg__free(A(m), cnt);
    memcpy(name, t->name.ptr, base);
    name[base] = 0;
    lgg_status st = add_entry(m, name, base, v, t->n_elements);
    return st != LGG_OK ? lgg__fail(err, st, LGG_NO_OFFSET, "imatrix: out of memory") : LGG_OK;
}

static lgg_status load_gguf(lgg_imatrix *m, const uint8_t *p, size_t size, lgg_error *err) {
    lgg_open_options oo;
    lgg_open_options_init(&oo);
    oo.allocator = A(m);
    lgg_file *f = NULL;
    lgg_status st = lgg_open_memory(p, size, &oo, &f, err);
    if (st != LGG_OK) return st;
    st = gguf_keys(m, f, err);
    for (uint64_t i = 0; i < lgg_tensor_count(f) && st == LGG_OK; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        size_t base;
        if (ends_with(t->name, ".in_sum2", &base) && base) st = gguf_entry(m, f, t, base, err);
    }
    /* counts without sums are an error too, as in llama.cpp */
    for (uint64_t i = 0; i < lgg_tensor_count(f) && st == LGG_OK; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        size_t base;
        if (ends_with(t->name, ".counts", &base) && base && !lgg_imatrix_find(m, t->name.ptr, base, NULL))
            st = lgg__fail(err, LGG_ERR_INVALID, t->info_offset, "imatrix: mismatched sums and counts for %.*s",
                           (int)(base < 200 ? base : 200), t->name.ptr);
    }
    if (st == LGG_OK && m->n == 0) st = lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "imatrix: no .in_sum2 tensors");
    lgg_close(f);
    return st;
}

lgg_status lgg_imatrix_load_memory(const void *data, size_t size, const lgg_allocator *allocator, lgg_imatrix **out,
                                   lgg_error *err) {
    if (!out || (!data && size)) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "imatrix: NULL argument");
    *out = NULL;
    lgg_imatrix *m = lgg__calloc(allocator, 1, sizeof *m);
    if (!m) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "imatrix: out of memory");
    if (allocator && allocator->alloc) {
        m->a = *allocator;
        m->has_alloc = true;
    }
    const uint8_t *p = data;
    lgg_status st;
    if (size >= 4 && memcmp(p, "GGUF", 4) == 0) {
        m->format = LGG_IMATRIX_GGUF;
        st = load_gguf(m, p, size, err);
    } else {
        m->format = LGG_IMATRIX_LEGACY;
        st = load_legacy(m, p, size, err);
    }
    if (st != LGG_OK) {
        lgg_imatrix_free(m);
        return st;
    }
    *out = m;
    return LGG_OK;
}

lgg_status lgg_imatrix_load_file(const char *path, const lgg_allocator *allocator, lgg_imatrix **out, lgg_error *err) {
    if (!path || !out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "imatrix: NULL argument");
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || (uint64_t)sb.st_size > SIZE_MAX) {
        close(fd);
        return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s: not a regular file", path);
    }
    size_t size = (size_t)sb.st_size;
    uint8_t *buf = lgg__alloc(allocator, size);
    if (!buf) {
        close(fd);
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "imatrix: out of memory");
    }
    size_t got = 0;
    while (got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    lgg_status st = lgg_imatrix_load_memory(buf, got, allocator, out, err);
    lgg__free(allocator, buf);
    return st;
}

int lgg_imatrix_format(const lgg_imatrix *m) { return m ? m->format : 0; }
size_t lgg_imatrix_count(const lgg_imatrix *m) { return m ? m->n : 0; }
int64_t lgg_imatrix_chunks(const lgg_imatrix *m) { return m ? m->chunks : 0; }

bool lgg_imatrix_dataset(const lgg_imatrix *m, lgg_str *out) {
    if (out) *out = (lgg_str){NULL, 0};
    if (!m || !m->has_dataset) return false;
    if (out) *out = (lgg_str){m->dataset, m->dataset_len};
    return true;
}

const char *lgg_imatrix_entry(const lgg_imatrix *m, size_t i, const float **values, uint64_t *n_values) {
    if (!m || i >= m->n) return NULL;
    if (values) *values = m->e[i].v;
    if (n_values) *n_values = m->e[i].n;
    return m->e[i].name;
}

const float *lgg_imatrix_find(const lgg_imatrix *m, const char *name, size_t len, uint64_t *n_values) {
    if (!m || (!name && len)) return NULL;
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_entry(m, m->order[mid], name, len);
        if (c == 0) {
            if (n_values) *n_values = m->e[m->order[mid]].n;
            return m->e[m->order[mid]].v;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

static bool contains_any(const char *s, const char *const *subs, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (subs[i] && strstr(s, subs[i])) return true;
    return false;
}

void lgg_imatrix_filter(lgg_imatrix *m, const char *const *include, size_t n_include, const char *const *exclude,
                        size_t n_exclude) {
    if (!m) return;
    size_t k = 0;
    for (size_t i = 0; i < m->n; i++) {
        bool keep = !contains_any(m->e[i].name, exclude, n_exclude);
        if (keep && n_include) keep = contains_any(m->e[i].name, include, n_include);
        if (keep) m->e[k++] = m->e[i];
        else entry_free(m, &m->e[i]);
    }
    m->n = k;
    /* rebuild the sorted index over what is left */
    for (size_t i = 0; i < k; i++) {
        size_t j = i;
        m->order[j] = i;
        while (j > 0 && cmp_entry(m, m->order[j - 1], m->e[i].name, m->e[i].name_len) > 0) {
            m->order[j] = m->order[j - 1];
            j--;
        }
        m->order[j] = i;
    }
}
