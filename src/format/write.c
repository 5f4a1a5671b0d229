/* write.c -- the writer: an ordered description of a GGUF file (metadata and
 * tensor infos with data sources) and its encoding in any version and byte
 * order.
 *
 * Values are kept in one internal form, GGUF v3's layout in host byte order,
 * whatever they came from (caller values, or views into files of any version
 * and byte order).  One transcoder walks that layout and re-emits it with
 * the output's length width and byte order, so reading a foreign file and
 * writing a foreign file share the same code. */
#include "format/file.h"
#include "format/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_NEST 64
#define CHUNK ((size_t)4 << 20)

/* ---- a growable byte buffer ---------------------------------------------- */

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
    const lgg_allocator *a;
    bool oom;
} wbuf;

static void wb_put(wbuf *b, const void *src, uint64_t n) {
    if (b->oom) return;
    if (n > SIZE_MAX - b->n) {
        b->oom = true;
        return;
    }
    if (!lgg__grow(b->a, (void **)&b->p, &b->cap, b->n + (size_t)n, 1, 256)) {
        b->oom = true;
        return;
    }
    if (n) memcpy(b->p + b->n, src, (size_t)n);
    b->n += (size_t)n;
}

static void wb_u32(wbuf *b, uint32_t v, bool swap) {
    if (swap) v = lgg__bswap32(v);
    wb_put(b, &v, 4);
}
static void wb_u64(wbuf *b, uint64_t v, bool swap) {
    if (swap) v = lgg__bswap64(v);
    wb_put(b, &v, 8);
}

typedef struct fmt {
    bool swap;  /* relative to the host */
    uint8_t lw; /* 4 (v1) or 8 */
} fmt;

static lgg_status wb_len(wbuf *b, uint64_t v, fmt f, const char *what, lgg_error *err) {
    if (f.lw == 4) {
        if (v > UINT32_MAX)
            return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "%s %llu does not fit GGUF v1's 32 bits", what,
                             (unsigned long long)v);
        wb_u32(b, (uint32_t)v, f.swap);
    } else {
        wb_u64(b, v, f.swap);
    }
    return LGG_OK;
}

static void swap_copy(uint8_t *dst, const uint8_t *src, uint64_t n, size_t w) {
    for (uint64_t i = 0; i < n; i++, dst += w, src += w)
        for (size_t k = 0; k < w; k++) dst[k] = src[w - 1 - k];
}

/* ---- the transcoder -------------------------------------------------------- */

static lgg_status short_src(lgg_error *err) {
    return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "value bytes end early");
}

/* Re-emit the body of a value of type vt (array: elements et, count) from
 * `src` (format `in`) into `o` (format `out`); *used gets the bytes read. */
static lgg_status tc_body(wbuf *o, const uint8_t *src, uint64_t avail, uint64_t *used, uint32_t vt, uint32_t et,
                          uint64_t count, fmt in, fmt out, int depth, lgg_error *err) {
    size_t sz = lgg_vtype_size(vt);
    if (vt != LGG_VT_ARRAY) {
        uint64_t n = sz ? sz : count;
        if (n > avail) return short_src(err);
        if (sz > 1 && in.swap != out.swap) {
            uint8_t tmp[8];
            swap_copy(tmp, src, 1, sz);
            wb_put(o, tmp, sz);
        } else {
            wb_put(o, src, n);
        }
        *used = n;
        return LGG_OK;
    }
    if (depth > MAX_NEST)
        return lgg__fail(err, LGG_ERR_NESTING, LGG_NO_OFFSET, "arrays nested deeper than %d", MAX_NEST);
    size_t esz = lgg_vtype_size(et);
    uint64_t pos = 0;
    if (esz) {
        uint64_t n;
        if (lgg__mul_ovf(count, esz, &n) || n > avail) return short_src(err);
        if (esz > 1 && in.swap != out.swap) {
            uint8_t tmp[4096];
            uint64_t per = sizeof tmp / esz;
            for (uint64_t i = 0; i < count; i += per) {
                uint64_t k = count - i < per ? count - i : per;
                swap_copy(tmp, src + i * esz, k, esz);
                wb_put(o, tmp, k * esz);
            }
        } else {
            wb_put(o, src, n);
        }
        *used = n;
        return o->oom ? lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory encoding an array") : LGG_OK;
    }
    for (uint64_t i = 0; i < count; i++) {
        lgg_status s;
        if (et == LGG_VT_STRING) {
            if (avail - pos < in.lw) return short_src(err);
            uint64_t len = in.lw == 4 ? lgg__ld32(src + pos, in.swap) : lgg__ld64(src + pos, in.swap);
            pos += in.lw;
            if (len > avail - pos) return short_src(err);
            if ((s = wb_len(o, len, out, "string length", err))) return s;
            wb_put(o, src + pos, len);
            pos += len;
        } else if (et == LGG_VT_ARRAY) {
            if (avail - pos < 4u + in.lw) return short_src(err);
            uint32_t cet = lgg__ld32(src + pos, in.swap);
            uint64_t ccount = in.lw == 4 ? lgg__ld32(src + pos + 4, in.swap) : lgg__ld64(src + pos + 4, in.swap);
            pos += 4u + in.lw;
            if (cet >= LGG_VT_COUNT)
                return lgg__fail(err, LGG_ERR_VALUE_TYPE, LGG_NO_OFFSET, "unknown array element type %u", cet);
            wb_u32(o, cet, out.swap);
            if ((s = wb_len(o, ccount, out, "array length", err))) return s;
            uint64_t u = 0;
            if ((s = tc_body(o, src + pos, avail - pos, &u, LGG_VT_ARRAY, cet, ccount, in, out, depth + 1, err)))
                return s;
            pos += u;
        } else {
            return lgg__fail(err, LGG_ERR_VALUE_TYPE, LGG_NO_OFFSET, "unknown array element type %u", et);
        }
        if (o->oom) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory encoding an array");
    }
    *used = pos;
    return LGG_OK;
}

/* Caller values (host order) into the internal form. */
static lgg_status build_body(wbuf *o, const lgg_wvalue *v, int depth, lgg_error *err) {
    if (!v || v->type >= LGG_VT_COUNT)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "unknown value type %u", v ? v->type : 0);
    size_t sz = lgg_vtype_size(v->type);
    if (!v->data && (sz || v->count))
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "value data is NULL");
    if (sz) {
        wb_put(o, v->data, sz);
        return LGG_OK;
    }
    if (v->type == LGG_VT_STRING) {
        wb_put(o, v->data, v->count);
        return LGG_OK;
    }
    if (depth > MAX_NEST)
        return lgg__fail(err, LGG_ERR_NESTING, LGG_NO_OFFSET, "arrays nested deeper than %d", MAX_NEST);
    if (v->elem_type >= LGG_VT_COUNT)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "unknown array element type %u", v->elem_type);
    size_t esz = lgg_vtype_size(v->elem_type);
    if (esz) {
        uint64_t n;
        if (lgg__mul_ovf(v->count, esz, &n))
            return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "array of %llu elements overflows",
                             (unsigned long long)v->count);
        wb_put(o, v->data, n);
        return LGG_OK;
    }
    for (uint64_t i = 0; i < v->count && !o->oom; i++) {
        if (v->elem_type == LGG_VT_STRING) {
            const lgg_str *s = (const lgg_str *)v->data + i;
            if (!s->ptr && s->len) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "string %llu is NULL", (unsigned long long)i);
            wb_u64(o, s->len, false);
            wb_put(o, s->ptr, s->len);
        } else {
            const lgg_wvalue *e = (const lgg_wvalue *)v->data + i;
            if (e->type != LGG_VT_ARRAY)
                return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "element %llu of an array of arrays is a %s",
                                 (unsigned long long)i, lgg_vtype_name(e->type) ? lgg_vtype_name(e->type) : "?");
            wb_u32(o, e->elem_type, false);
            wb_u64(o, e->count, false);
            lgg_status s = build_body(o, e, depth + 1, err);
            if (s) return s;
        }
    }
    return LGG_OK;
}

/* ---- writer building ------------------------------------------------------- */

void lgg_write_options_init(lgg_write_options *o) {
    if (o) *o = (lgg_write_options)LGG_WRITE_OPTIONS_INIT;
}

lgg_status lgg_writer_create(const lgg_allocator *allocator, lgg_writer **out, lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "out is NULL");
    lgg_writer *w = lgg__calloc(allocator, 1, sizeof *w);
    if (!w) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    if (allocator) {
        w->alloc_copy = *allocator;
        w->alloc = &w->alloc_copy;
    }
    w->src_fd = -1;
    lgg__nameidx_init(&w->kv_idx, w);
    lgg__nameidx_init(&w->t_idx, w);
    *out = w;
    return LGG_OK;
}

void lgg_writer_free(lgg_writer *w) {
    if (!w) return;
    lgg_allocator copy = w->alloc_copy;
    const lgg_allocator *a = w->alloc ? &copy : NULL;
    for (uint64_t i = 0; i < w->n_kv; i++) {
        lgg__free(a, w->kv[i].key);
        lgg__free(a, w->kv[i].body);
    }
    for (uint64_t i = 0; i < w->n_t; i++) lgg__free(a, w->t[i].name);
    lgg__free(a, w->kv);
    lgg__free(a, w->t);
    lgg__free(a, w->in_fds);
    lgg__free(a, w->dropped);
    lgg__nameidx_free(&w->kv_idx, a);
    lgg__nameidx_free(&w->t_idx, a);
    lgg__free(a, w);
}

uint64_t lgg_writer_kv_count(const lgg_writer *w) { return w ? w->n_kv : 0; }
uint64_t lgg_writer_tensor_count(const lgg_writer *w) { return w ? w->n_t : 0; }

lgg_status lgg_writer_set_tensor_n_dims(lgg_writer *w, uint64_t index, uint32_t n_dims, lgg_error *err) {
    if (!w || index >= w->n_t) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "no tensor %llu", (unsigned long long)index);
    lgg__wtensor *t = &w->t[index];
    uint32_t least = 1;
    for (uint32_t i = 1; i < LGG_MAX_DIMS; i++)
        if (t->ne[i] != 1) least = i + 1;
    if (n_dims < least || n_dims > LGG_MAX_DIMS)
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "tensor '%.*s': %u dimensions written, it has %u to %u",
                         (int)t->nlen, t->name, n_dims, least, LGG_MAX_DIMS);
    t->n_dims = n_dims;
    return LGG_OK;
}

static char *dup_bytes(const lgg_allocator *a, const char *s, uint64_t n) {
    if (n >= SIZE_MAX) return NULL;
    char *p = lgg__alloc(a, (size_t)n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, (size_t)n);
    p[n] = 0;
    return p;
}

static void wkv_name(const void *ctx, uint64_t i, const char **name, uint64_t *len) {
    const lgg__wkv *kv = &((const lgg_writer *)ctx)->kv[i];
    *name = kv->key;
    *len = kv->klen;
}

static void wt_name(const void *ctx, uint64_t i, const char **name, uint64_t *len) {
    const lgg__wtensor *t = &((const lgg_writer *)ctx)->t[i];
    *name = t->name;
    *len = t->nlen;
}

/* Lookups from functions that must not change the writer (it may be written
 * from several threads at once) use the index only when it is current and
 * scan otherwise. */
static int64_t find_kv_ro(const lgg_writer *w, const char *key, uint64_t klen) {
    if (w->kv_idx_ok) return lgg__nameidx_find(&w->kv_idx, wkv_name, w, key, klen);
    for (uint64_t i = 0; i < w->n_kv; i++)
        if (w->kv[i].klen == klen && (klen == 0 || memcmp(w->kv[i].key, key, klen) == 0)) return (int64_t)i;
    return -1;
}

lgg_status lgg_writer_file_size(const lgg_writer *w, const lgg_write_options *opts, uint64_t *size,
                                lgg_error *err) {
    if (!w || !size) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    LGG__OPTIONS_IN(lgg_write_options, opts, err)
    lgg_write_options def;
    lgg_write_options_init(&def);
    lgg__wopts o;
    lgg_status s = lgg__wopts_resolve(w, opts ? opts : &def, &o, err);
    if (s) return s;
    uint8_t *h;
    uint64_t hn, un;
    if ((s = lgg__encode_header(w, &o, false, &h, &hn, &un, err))) return s;
    lgg__free(o.alloc, h);
    /* the padded header, then each tensor's data padded to the alignment */
    uint64_t total = hn;
    for (uint64_t i = 0; i < w->n_t; i++) {
        uint64_t r = w->t[i].size % o.alignment, padded;
        if (lgg__add_ovf(w->t[i].size, r ? o.alignment - r : 0, &padded) || lgg__add_ovf(total, padded, &total))
            return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the file's size overflows");
    }
    *size = total;
    return LGG_OK;
}

lgg_status lgg_writer_key_type(const lgg_writer *w, const char *key, size_t klen, uint32_t *type, uint32_t *elem_type) {
    if (!w || !key) return LGG_ERR_ARG;
    int64_t i = find_kv_ro(w, key, klen);
    if (i < 0) return LGG_ERR_NOT_FOUND;
    if (type) *type = w->kv[i].vt;
    if (elem_type) *elem_type = w->kv[i].et;
    return LGG_OK;
}

/* Make the key index current; false when out of memory. */
static bool kv_index(lgg_writer *w) {
    if (!w->kv_idx_ok) w->kv_idx_ok = lgg__nameidx_build(&w->kv_idx, w->alloc, w->n_kv, wkv_name, w, NULL);
    return w->kv_idx_ok;
}

static bool t_index(lgg_writer *w) {
    if (!w->t_idx_ok) w->t_idx_ok = lgg__nameidx_build(&w->t_idx, w->alloc, w->n_t, wt_name, w, NULL);
    return w->t_idx_ok;
}

/* Take ownership of body and install it under key: replace the first pair
 * with that key, or append (always append when `append` is set). */
static lgg_status put_kv(lgg_writer *w, const char *key, uint64_t klen, uint32_t vt, uint32_t et, uint64_t count,
                         wbuf *body, bool append, lgg_error *err) {
    if (body->oom) {
        lgg__free(w->alloc, body->p);
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory storing a value");
    }
    if (!append && !kv_index(w)) goto oom;
    int64_t at = append ? -1 : find_kv_ro(w, key, klen);
    lgg__wkv *kv;
    if (at >= 0) {
        kv = &w->kv[at];
        lgg__free(w->alloc, kv->body);
    } else {
        if (w->n_kv == w->cap_kv) {
            uint64_t c = w->cap_kv ? w->cap_kv * 2 : 16;
            size_t bytes;
            if (__builtin_mul_overflow(c, sizeof *w->kv, &bytes)) goto oom;
            lgg__wkv *q = lgg__realloc(w->alloc, w->kv, (size_t)w->cap_kv * sizeof *w->kv, bytes);
            if (!q) goto oom;
            w->kv = q;
            w->cap_kv = c;
        }
        char *k = dup_bytes(w->alloc, key, klen);
        if (!k) goto oom;
        kv = &w->kv[w->n_kv++];
        kv->key = k;
        kv->klen = klen;
        if (w->kv_idx_ok && lgg__nameidx_add(&w->kv_idx, w->alloc, wkv_name, w, w->n_kv - 1) == -2) {
            w->kv_idx_ok = false;
            w->n_kv--;
            lgg__free(w->alloc, k);
            goto oom;
        }
    }
    kv->vt = vt;
    kv->et = et;
    kv->count = count;
    kv->body = body->p;
    kv->blen = body->n;
    return LGG_OK;
oom:
    lgg__free(w->alloc, body->p);
    return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory adding a key");
}

lgg_status lgg_writer_set(lgg_writer *w, const char *key, size_t klen, const lgg_wvalue *v, lgg_error *err) {
    if (!w || (!key && klen) || !v) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    wbuf b = {NULL, 0, 0, w->alloc, false};
    lgg_status s = build_body(&b, v, 1, err);
    if (s) {
        lgg__free(w->alloc, b.p);
        return s;
    }
    uint64_t count = v->type == LGG_VT_STRING || v->type == LGG_VT_ARRAY ? v->count : 1;
    return put_kv(w, key, klen, v->type, v->type == LGG_VT_ARRAY ? v->elem_type : 0, count, &b, false, err);
}

static lgg_status set_from_view(lgg_writer *w, const char *key, uint64_t klen, const lgg_value *v, bool append,
                                lgg_error *err) {
    if (v->type >= LGG_VT_COUNT) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "unknown value type %u", v->type);
    wbuf b = {NULL, 0, 0, w->alloc, false};
    uint64_t used = 0;
    fmt in = {v->swap != 0, v->len_width == 4 ? 4 : 8}, host = {false, 8};
    lgg_status s = tc_body(&b, v->data, v->size, &used, v->type, v->elem_type, v->count, in, host, 1, err);
    if (s) {
        lgg__free(w->alloc, b.p);
        return s;
    }
    return put_kv(w, key, klen, v->type, v->type == LGG_VT_ARRAY ? v->elem_type : 0, v->count, &b, append, err);
}

lgg_status lgg__writer_append_value(lgg_writer *w, const char *key, uint64_t klen, const lgg_value *v,
                                    lgg_error *err) {
    return set_from_view(w, key, klen, v, true, err);
}

lgg_status lgg_writer_set_value(lgg_writer *w, const char *key, size_t klen, const lgg_value *v, lgg_error *err) {
    if (!w || (!key && klen) || !v) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    return set_from_view(w, key, klen, v, false, err);
}

static lgg_status set_scalar(lgg_writer *w, const char *key, uint32_t vt, const void *p, lgg_error *err) {
    if (!key) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "key is NULL");
    lgg_wvalue v = {vt, 0, 1, p};
    return lgg_writer_set(w, key, strlen(key), &v, err);
}
lgg_status lgg_writer_set_u32(lgg_writer *w, const char *key, uint32_t v, lgg_error *err) { return set_scalar(w, key, LGG_VT_U32, &v, err); }
lgg_status lgg_writer_set_u64(lgg_writer *w, const char *key, uint64_t v, lgg_error *err) { return set_scalar(w, key, LGG_VT_U64, &v, err); }
lgg_status lgg_writer_set_i64(lgg_writer *w, const char *key, int64_t v, lgg_error *err) { return set_scalar(w, key, LGG_VT_I64, &v, err); }
lgg_status lgg_writer_set_f32(lgg_writer *w, const char *key, float v, lgg_error *err) { return set_scalar(w, key, LGG_VT_F32, &v, err); }
lgg_status lgg_writer_set_bool(lgg_writer *w, const char *key, bool v, lgg_error *err) {
    uint8_t b = v ? 1 : 0;
    return set_scalar(w, key, LGG_VT_BOOL, &b, err);
}
lgg_status lgg_writer_set_str(lgg_writer *w, const char *key, const char *s, lgg_error *err) {
    if (!key || !s) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    lgg_wvalue v = {LGG_VT_STRING, 0, strlen(s), s};
    return lgg_writer_set(w, key, strlen(key), &v, err);
}

lgg_status lgg_writer_remove(lgg_writer *w, const char *key, size_t klen, lgg_error *err) {
    if (!w || (!key && klen)) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    uint64_t j = 0, removed = 0;
    for (uint64_t i = 0; i < w->n_kv; i++) {
        lgg__wkv *kv = &w->kv[i];
        if (kv->klen == klen && (klen == 0 || memcmp(kv->key, key, klen) == 0)) {
            lgg__free(w->alloc, kv->key);
            lgg__free(w->alloc, kv->body);
            removed++;
        } else {
            w->kv[j++] = *kv;
        }
    }
    w->n_kv = j;
    if (removed) w->kv_idx_ok = false; /* positions moved */
    if (!removed) {
        char q[160];
        lgg__quote(q, sizeof q, key, klen, 120);
        return lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "no key '%s'", q);
    }
    return LGG_OK;
}

lgg_status lgg_writer_rename(lgg_writer *w, const char *from, size_t flen, const char *to, size_t tlen,
                             lgg_error *err) {
    if (!w || (!from && flen) || (!to && tlen)) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    char q[160];
    if (!kv_index(w)) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    if (find_kv_ro(w, from, flen) < 0) {
        lgg__quote(q, sizeof q, from, flen, 120);
        return lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "no key '%s'", q);
    }
    if (flen == tlen && memcmp(from, to, flen) == 0) return LGG_OK;
    if (find_kv_ro(w, to, tlen) >= 0) {
        lgg__quote(q, sizeof q, to, tlen, 120);
        return lgg__fail(err, LGG_ERR_EXISTS, LGG_NO_OFFSET, "key '%s' already exists", q);
    }
    w->kv_idx_ok = false; /* names change below */
    for (uint64_t i = 0; i < w->n_kv; i++) {
        lgg__wkv *kv = &w->kv[i];
        if (kv->klen != flen || (flen && memcmp(kv->key, from, flen) != 0)) continue;
        char *k = dup_bytes(w->alloc, to, tlen);
        if (!k) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        lgg__free(w->alloc, kv->key);
        kv->key = k;
        kv->klen = tlen;
    }
    return LGG_OK;
}

/* ---- tensors ---------------------------------------------------------------- */

static lgg_status new_tensor(lgg_writer *w, const char *name, uint64_t nlen, uint32_t n_dims, const int64_t *ne,
                             uint32_t type, lgg__wtensor **out, lgg_error *err) {
    char q[160];
    if (!w || (!name && nlen) || (!ne && n_dims)) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    lgg__quote(q, sizeof q, name, nlen, 120);
    if (n_dims > LGG_MAX_DIMS)
        return lgg__fail(err, LGG_ERR_TENSOR_NDIMS, LGG_NO_OFFSET, "tensor '%s': %u dimensions, more than %u", q,
                         n_dims, LGG_MAX_DIMS);
    const lgg_type_info *ti = lgg_type_get(type);
    if (!ti || ti->removed)
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "tensor '%s': unknown or removed type %u", q, type);
    int64_t d[LGG_MAX_DIMS] = {1, 1, 1, 1};
    uint64_t n = 1;
    for (uint32_t i = 0; i < n_dims; i++) {
        if (ne[i] < 0)
            return lgg__fail(err, LGG_ERR_TENSOR_DIMS, LGG_NO_OFFSET, "tensor '%s': dimension %u is negative", q, i);
        d[i] = ne[i];
        if (lgg__mul_ovf(n, (uint64_t)ne[i], &n) || n > (uint64_t)INT64_MAX)
            return lgg__fail(err, LGG_ERR_TENSOR_DIMS, LGG_NO_OFFSET, "tensor '%s': element count overflows", q);
    }
    if ((uint64_t)d[0] % ti->block_size)
        return lgg__fail(err, LGG_ERR_TENSOR_BLOCK, LGG_NO_OFFSET,
                         "tensor '%s': ne[0] = %lld is not a multiple of %s's block size %u", q, (long long)d[0],
                         ti->name, ti->block_size);
    uint64_t size;
    if (lgg_type_nbytes(type, n, &size))
        return lgg__fail(err, LGG_ERR_TENSOR_DIMS, LGG_NO_OFFSET, "tensor '%s': byte size overflows", q);
    if (!t_index(w)) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    if (lgg__nameidx_find(&w->t_idx, wt_name, w, name, nlen) >= 0)
        return lgg__fail(err, LGG_ERR_TENSOR_DUP, LGG_NO_OFFSET, "tensor '%s' already added", q);
    if (w->n_t == w->cap_t) {
        uint64_t c = w->cap_t ? w->cap_t * 2 : 16;
        size_t bytes;
        if (__builtin_mul_overflow(c, sizeof *w->t, &bytes))
            return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        lgg__wtensor *p = lgg__realloc(w->alloc, w->t, (size_t)w->cap_t * sizeof *w->t, bytes);
        if (!p) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        w->t = p;
        w->cap_t = c;
    }
    char *nm = dup_bytes(w->alloc, name, nlen);
    if (!nm) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    lgg__wtensor *t = &w->t[w->n_t++];
    memset(t, 0, sizeof *t);
    t->name = nm;
    t->nlen = nlen;
    if (lgg__nameidx_add(&w->t_idx, w->alloc, wt_name, w, w->n_t - 1) == -2) {
        w->t_idx_ok = false;
        w->n_t--;
        lgg__free(w->alloc, nm);
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    }
    memcpy(t->ne, d, sizeof d);
    /* ggml writes only up to the last dimension that is not 1 */
    t->n_dims = 1;
    for (uint32_t i = 1; i < LGG_MAX_DIMS; i++)
        if (d[i] != 1) t->n_dims = i + 1;
    t->type = type;
    t->size = size;
    t->fd = -1;
    *out = t;
    return LGG_OK;
}

lgg_status lgg_writer_add_tensor_buffer(lgg_writer *w, const char *name, size_t nlen, uint32_t n_dims,
                                        const int64_t *ne, uint32_t type, const void *data, uint64_t size,
                                        lgg_endian endian, lgg_error *err) {
    lgg__wtensor *t;
    lgg_status s = new_tensor(w, name, nlen, n_dims, ne, type, &t, err);
    if (s) return s;
    if (size != t->size || (!data && size)) {
        uint64_t want = t->size;
        lgg__free(w->alloc, t->name);
        w->n_t--;
        w->t_idx_ok = false;
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "tensor data is %llu bytes, the tensor needs %llu",
                         (unsigned long long)size, (unsigned long long)want);
    }
    t->src = LGG__SRC_BUF;
    t->buf = data;
    t->endian = endian;
    return LGG_OK;
}

lgg_status lgg_writer_add_tensor_callback(lgg_writer *w, const char *name, size_t nlen, uint32_t n_dims,
                                          const int64_t *ne, uint32_t type, lgg_read_fn read, void *ud,
                                          lgg_endian endian, lgg_error *err) {
    if (!read) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "read callback is NULL");
    lgg__wtensor *t;
    lgg_status s = new_tensor(w, name, nlen, n_dims, ne, type, &t, err);
    if (s) return s;
    t->src = LGG__SRC_CB;
    t->read = read;
    t->ud = ud;
    t->endian = endian;
    return LGG_OK;
}

lgg_status lgg__writer_add_tensor_view(lgg_writer *w, const char *name, size_t nlen, uint32_t n_dims,
                                       const int64_t *ne, uint32_t type, lgg__view_fn view, void *ud,
                                       lgg_endian endian, lgg_error *err) {
    if (!view) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "view callback is NULL");
    lgg__wtensor *t;
    lgg_status s = new_tensor(w, name, nlen, n_dims, ne, type, &t, err);
    if (s) return s;
    t->src = LGG__SRC_VIEW;
    t->view = view;
    t->ud = ud;
    t->endian = endian;
    return LGG_OK;
}

lgg_status lgg_writer_add_tensor_from_file(lgg_writer *w, const lgg_file *f, int fd, uint64_t index, lgg_error *err) {
    const lgg_tensor *ft = lgg_tensor_at(f, index);
    if (!w || !ft) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "no tensor %llu", (unsigned long long)index);
    if (!ft->type_known || (!ft->data_available && !f->described)) {
        char q[160];
        lgg__quote(q, sizeof q, ft->name.ptr, ft->name.len, 120);
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, ft->info_offset,
                         "tensor '%s' has %s; its data cannot be copied", q,
                         ft->type_known ? "no data in the file" : "an unknown or removed type");
    }
    lgg__wtensor *t;
    lgg_status s = new_tensor(w, ft->name.ptr, ft->name.len, LGG_MAX_DIMS, ft->ne, ft->type, &t, err);
    if (s) return s;
    t->src = LGG__SRC_FILE;
    t->f = f;
    t->fd = fd;
    t->index = index;
    t->buf = ft->data;
    t->endian = lgg_file_endian(f);
    return LGG_OK;
}

/* A later occurrence of a key: ggml refuses a file that has one, and
 * lookups never see it, so it is left out unless asked for. */
static lgg_status drop_duplicate(lgg_writer *w, uint64_t i, lgg_error *err) {
    if (!w->dropped) {
        w->dropped = lgg__calloc(w->alloc, 1, sizeof *w->dropped);
        if (!w->dropped) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    } else if ((w->n_dropped & (w->n_dropped - 1)) == 0) { /* grow at powers of two */
        uint64_t *p = lgg__realloc(w->alloc, w->dropped, w->n_dropped * sizeof *p, 2 * w->n_dropped * sizeof *p);
        if (!p) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        w->dropped = p;
    }
    w->dropped[w->n_dropped++] = i;
    return LGG_OK;
}

lgg_status lgg_writer_from_file(const lgg_file *f, int fd, const lgg_allocator *allocator, uint32_t flags,
                                 lgg_writer **out, lgg_error *err) {
    if (!f || !out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    *out = NULL;
    if (flags & ~LGG_FROM_FILE_KEEP_DUPLICATES)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "unknown flags 0x%x", (unsigned)flags);
    lgg_writer *w;
    lgg_status s = lgg_writer_create(allocator, &w, err);
    if (s) return s;
    const bool keep = flags & LGG_FROM_FILE_KEEP_DUPLICATES;
    for (uint64_t i = 0; i < lgg_kv_count(f) && !s; i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        if (!keep && (uint64_t)lgg_find_key(f, kv->key.ptr, (size_t)kv->key.len) != i)
            s = drop_duplicate(w, i, err);
        else
            s = set_from_view(w, kv->key.ptr, kv->key.len, &kv->value, true, err);
    }
    for (uint64_t i = 0; i < lgg_tensor_count(f) && !s; i++) s = lgg_writer_add_tensor_from_file(w, f, fd, i, err);
    if (s) {
        lgg_writer_free(w);
        return s;
    }
    w->src = f;
    w->src_fd = fd;
    *out = w;
    return LGG_OK;
}

uint64_t lgg_writer_dropped_count(const lgg_writer *w) { return w ? w->n_dropped : 0; }

const lgg_kv *lgg_writer_dropped_at(const lgg_writer *w, uint64_t i) {
    return w && w->src && i < w->n_dropped ? lgg_kv_at(w->src, w->dropped[i]) : NULL;
}

/* ---- encoding ------------------------------------------------------------- */

static bool is_alignment_key(const lgg__wkv *kv) {
    return kv->klen == 17 && memcmp(kv->key, "general.alignment", 17) == 0;
}

/* The integer a stored alignment holds, or false for a non-integer. */
static bool kv_uint(const lgg__wkv *kv, uint64_t *v, bool *neg) {
    const uint8_t *p = kv->body;
    *neg = false;
    switch (kv->vt) {
    case LGG_VT_U8: *v = p[0]; return true;
    case LGG_VT_U16: *v = lgg__ld16(p, false); return true;
    case LGG_VT_U32: *v = lgg__ld32(p, false); return true;
    case LGG_VT_U64: *v = lgg__ld64(p, false); return true;
    case LGG_VT_I8: *neg = (int8_t)p[0] < 0; *v = (uint64_t)(int64_t)(int8_t)p[0]; return true;
    case LGG_VT_I16: *neg = (int16_t)lgg__ld16(p, false) < 0; *v = (uint64_t)(int64_t)(int16_t)lgg__ld16(p, false); return true;
    case LGG_VT_I32: *neg = (int32_t)lgg__ld32(p, false) < 0; *v = (uint64_t)(int64_t)(int32_t)lgg__ld32(p, false); return true;
    case LGG_VT_I64: *neg = (int64_t)lgg__ld64(p, false) < 0; *v = lgg__ld64(p, false); return true;
    default: return false;
    }
}

lgg_status lgg__wopts_resolve(const lgg_writer *w, const lgg_write_options *o, lgg__wopts *r, lgg_error *err) {
    memset(r, 0, sizeof *r);
    r->version = o && o->version ? o->version : 3;
    if (r->version > 3)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "cannot write GGUF version %u (1, 2 or 3)", r->version);
    r->endian = o ? o->endian : LGG_LITTLE_ENDIAN;
    if (r->endian != LGG_LITTLE_ENDIAN && r->endian != LGG_BIG_ENDIAN)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "unknown byte order %d", (int)r->endian);
    r->write_fn = o ? o->write_fn : NULL;
    r->write_ud = o ? o->write_ud : NULL;
    r->temp_fn = o ? o->temp_fn : NULL;
    r->temp_ud = o ? o->temp_ud : NULL;
    r->flags = o ? o->flags : 0;
    r->alloc = o && o->allocator ? o->allocator : w->alloc;
    /* the alignment readers will use is the one the metadata states */
    uint64_t meta = 32;
    bool have = false;
    for (uint64_t i = 0; i < w->n_kv; i++) {
        if (!is_alignment_key(&w->kv[i])) continue;
        bool neg;
        uint64_t v;
        if (kv_uint(&w->kv[i], &v, &neg)) {
            if (neg || v == 0 || (v & (v - 1)))
                return lgg__fail(err, LGG_ERR_ALIGNMENT, LGG_NO_OFFSET,
                                 "general.alignment %lld is not a non-zero power of two", (long long)v);
            meta = v;
            have = true;
        }
        break;
    }
    /* GGUF's general.alignment is a u32 (ggml reads nothing else), and the
     * header is padded to it in memory: a file that opened with a u64 2^63
     * (allowed when it has no tensors) must not make a 2^63-byte header */
    if (meta > UINT32_MAX && !(o && o->alignment))
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET,
                         "general.alignment %llu does not fit GGUF's 32-bit alignment; choose one with the options",
                         (unsigned long long)meta);
    r->alignment = meta;
    if (o && o->alignment) {
        uint64_t a = o->alignment;
        if ((a & (a - 1)) || a > UINT32_MAX)
            return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "alignment %llu is not a power of two below 2^32",
                             (unsigned long long)a);
        r->set_alignment = a != meta || (have && w->kv[find_kv_ro(w, "general.alignment", 17)].vt != LGG_VT_U32);
        r->alignment = a;
    }
    return LGG_OK;
}

static lgg_status emit_kv(wbuf *b, const char *key, uint64_t klen, uint32_t vt, uint32_t et, uint64_t count,
                          const uint8_t *body, uint64_t blen, fmt out, lgg_error *err) {
    lgg_status s;
    if ((s = wb_len(b, klen, out, "key length", err))) return s;
    wb_put(b, key, klen);
    wb_u32(b, vt, out.swap);
    if (vt == LGG_VT_STRING) {
        if ((s = wb_len(b, count, out, "string length", err))) return s;
    } else if (vt == LGG_VT_ARRAY) {
        wb_u32(b, et, out.swap);
        if ((s = wb_len(b, count, out, "array length", err))) return s;
    }
    uint64_t used;
    fmt host = {false, 8};
    return tc_body(b, body, blen, &used, vt, et, count, host, out, 1, err);
}

static uint64_t pad_to(uint64_t n, uint64_t a) { return (a - n % a) % a; }

lgg_status lgg__encode_header(const lgg_writer *w, const lgg__wopts *o, bool keep_offsets, uint8_t **out,
                              uint64_t *size, uint64_t *unpadded, lgg_error *err) {
    fmt f = {lgg__needs_swap(o->endian), o->version == 1 ? 4 : 8};
    wbuf b = {NULL, 0, 0, o->alloc, false};
    lgg_status s = LGG_OK;
    bool add_align = o->set_alignment && find_kv_ro(w, "general.alignment", 17) < 0;
    wb_put(&b, "GGUF", 4);
    wb_u32(&b, o->version, f.swap);
    if ((s = wb_len(&b, w->n_t, f, "tensor count", err))) goto fail;
    if ((s = wb_len(&b, w->n_kv + (add_align ? 1 : 0), f, "metadata count", err))) goto fail;
    bool align_done = false;
    for (uint64_t i = 0; i < w->n_kv; i++) {
        const lgg__wkv *kv = &w->kv[i];
        if (o->set_alignment && !align_done && is_alignment_key(kv)) {
            uint32_t a = (uint32_t)o->alignment;
            s = emit_kv(&b, kv->key, kv->klen, LGG_VT_U32, 0, 1, (const uint8_t *)&a, 4, f, err);
            align_done = true;
        } else {
            s = emit_kv(&b, kv->key, kv->klen, kv->vt, kv->et, kv->count, kv->body, kv->blen, f, err);
        }
        if (s) goto fail;
    }
    if (add_align) {
        uint32_t a = (uint32_t)o->alignment;
        if ((s = emit_kv(&b, "general.alignment", 17, LGG_VT_U32, 0, 1, (const uint8_t *)&a, 4, f, err))) goto fail;
    }
    uint64_t off = 0;
    for (uint64_t i = 0; i < w->n_t; i++) {
        const lgg__wtensor *t = &w->t[i];
        if ((s = wb_len(&b, t->nlen, f, "tensor name length", err))) goto fail;
        wb_put(&b, t->name, t->nlen);
        wb_u32(&b, t->n_dims, f.swap);
        for (uint32_t d = 0; d < t->n_dims; d++)
            if ((s = wb_len(&b, (uint64_t)t->ne[d], f, "tensor dimension", err))) goto fail;
        wb_u32(&b, t->type, f.swap);
        if (keep_offsets) {
            wb_u64(&b, lgg_tensor_at(t->f, t->index)->offset, f.swap);
        } else {
            wb_u64(&b, off, f.swap);
            uint64_t padded;
            if (lgg__add_ovf(t->size, pad_to(t->size, o->alignment), &padded) || lgg__add_ovf(off, padded, &off)) {
                s = lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the data section's size overflows");
                goto fail;
            }
        }
    }
    *unpadded = b.n;
    {
        static const uint8_t zeros[64];
        uint64_t p = w->n_t == 0 && (o->flags & LGG_WRITE_NO_EMPTY_PAD) ? 0 : pad_to(b.n, o->alignment);
        while (p && !b.oom) { /* (after a failed allocation, stop: p may be ~2^31) */
            uint64_t k = p < sizeof zeros ? p : sizeof zeros;
            wb_put(&b, zeros, k);
            p -= k;
        }
    }
    if (b.oom) {
        s = lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory encoding the header");
        goto fail;
    }
    *out = b.p;
    *size = b.n;
    return LGG_OK;
fail:
    lgg__free(o->alloc, b.p);
    return s;
}

lgg_status lgg_writer_describe(const lgg_writer *w, lgg_file **out, lgg_error *err) {
    if (!w || !out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    *out = NULL;
    lgg__wopts o;
    lgg_status s = lgg__wopts_resolve(w, NULL, &o, err);
    uint8_t *h;
    uint64_t n, un;
    if (s || (s = lgg__encode_header(w, &o, false, &h, &n, &un, err))) return s;
    if ((s = lgg__open_owned(o.alloc, h, n, out, err))) return s;
    (*out)->described = true;
    return LGG_OK;
}

lgg_status lgg_writer_header_size(const lgg_writer *w, const lgg_write_options *opts, uint64_t *size, lgg_error *err) {
    if (!w || !size) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    LGG__OPTIONS_IN(lgg_write_options, opts, err)
    lgg__wopts o;
    lgg_status s = lgg__wopts_resolve(w, opts, &o, err);
    if (s) return s;
    uint8_t *h;
    uint64_t n, un;
    if ((s = lgg__encode_header(w, &o, false, &h, &n, &un, err))) return s;
    lgg__free(o.alloc, h);
    *size = un;
    return LGG_OK;
}

/* ---- streaming out --------------------------------------------------------- */

lgg_status lgg__write_all(const lgg__wopts *o, int fd, const void *p, uint64_t n, lgg_error *err) {
    const uint8_t *c = p;
    while (n) {
        size_t k = n > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)n;
        long r = o->write_fn ? o->write_fn(o->write_ud, fd, c, k) : (long)write(fd, c, k);
        if (r < 0) {
            if (errno == EINTR) continue;
            return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "write: %s", strerror(errno));
        }
        if (r == 0) return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "write: wrote nothing");
        c += r;
        n -= (uint64_t)r;
    }
    return LGG_OK;
}

static void swap_blocks(const lgg_type_info *ti, uint8_t *p, uint64_t nb) {
    for (uint64_t b = 0; b < nb; b++, p += ti->type_size)
        for (unsigned f = 0; f < ti->n_fields; f++) {
            uint8_t *q = p + ti->fields[f].offset;
            const unsigned wd = ti->fields[f].width;
            for (unsigned c = 0; c < ti->fields[f].count; c++, q += wd)
                for (unsigned k = 0; k < wd / 2; k++) {
                    uint8_t x = q[k];
                    q[k] = q[wd - 1 - k];
                    q[wd - 1 - k] = x;
                }
        }
}

/* Copy straight from the source file to the output; *done gets the bytes
 * copied (0 when the kernel cannot do it for these descriptors). */
static lgg_status try_copy_range(int in, uint64_t off, int out, uint64_t n, uint64_t *done, lgg_error *err) {
    *done = 0;
    off64_t o = (off64_t)off;
    while (*done < n) {
        uint64_t left = n - *done;
        ssize_t r = copy_file_range(in, &o, out, NULL, left > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)left, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            if (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP || errno == EBADF ||
                errno == ETXTBSY || errno == EPERM)
                return LGG_OK; /* the write() path takes over from *done */
            return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "copy_file_range: %s", strerror(errno));
        }
        if (r == 0) return LGG_OK;
        *done += (uint64_t)r;
    }
    return LGG_OK;
}

static lgg_status source_failed(const lgg__wtensor *t, lgg_status s, uint64_t pos, lgg_error *err) {
    char q[160];
    lgg__quote(q, sizeof q, t->name, t->nlen, 120);
    return lgg__fail(err, s, LGG_NO_OFFSET, "reading tensor '%s' data at %llu failed (%s)", q, (unsigned long long)pos,
                     lgg_status_name(s));
}

/* The next piece of a lending source, checked. */
static lgg_status view_at(const lgg__wtensor *t, uint64_t pos, const uint8_t **p, size_t *n, lgg_error *err) {
    const void *v = NULL;
    *n = 0;
    lgg_status s = t->view(t->ud, pos, &v, n);
    if (s) return source_failed(t, s, pos, err);
    if (!v || *n == 0 || *n > t->size - pos) return source_failed(t, LGG_ERR_RANGE, pos, err);
    *p = v;
    return LGG_OK;
}

/* Lent pieces straight to the output (no byte swap needed). */
static lgg_status write_viewed(const lgg__wtensor *t, const lgg__wopts *o, int fd, lgg_error *err) {
    lgg_status s = LGG_OK;
    for (uint64_t pos = 0; pos < t->size && !s;) {
        const uint8_t *p;
        size_t n;
        if ((s = view_at(t, pos, &p, &n, err))) break;
        s = lgg__write_all(o, fd, p, n, err);
        pos += n;
    }
    size_t n;
    const void *v;
    t->view(t->ud, t->size, &v, &n); /* give the last piece back */
    return s;
}

static lgg_status write_tensor(const lgg__wtensor *t, const lgg__wopts *o, int fd, bool regular, uint8_t **tmp,
                               lgg_error *err) {
    const lgg_type_info *ti = lgg_type_get(t->type);
    bool swap = t->endian != o->endian && ti->n_fields > 0;
    uint64_t done = 0;
    lgg_status s;
    if (t->src == LGG__SRC_FILE && t->f->described && t->size)
        return lgg__fail(err, LGG_ERR_NO_DATA, LGG_NO_OFFSET, "tensor %.*s comes from a description (lgg_writer_describe): it has no data",
                         (int)(t->nlen < 120 ? t->nlen : 120), t->name);
    if (!swap && t->src == LGG__SRC_FILE && t->fd >= 0 && regular && !o->write_fn) {
        if ((s = try_copy_range(t->fd, lgg_tensor_at(t->f, t->index)->file_offset, fd, t->size, &done, err)))
            return s;
    }
    if (!swap && t->src == LGG__SRC_VIEW) return write_viewed(t, o, fd, err);
    if (!swap && t->src != LGG__SRC_CB) return lgg__write_all(o, fd, (const uint8_t *)t->buf + done, t->size - done, err);
    if (!*tmp && !(*tmp = lgg__alloc(o->alloc, CHUNK)))
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory for a copy buffer");
    /* whole blocks per chunk, so each block is swapped in one piece */
    uint64_t chunk = CHUNK - CHUNK % ti->type_size;
    s = LGG_OK;
    for (uint64_t pos = 0; pos < t->size && !s; pos += chunk) {
        size_t k = (size_t)(t->size - pos < chunk ? t->size - pos : chunk);
        if (t->src == LGG__SRC_CB) {
            lgg_error e2 = {LGG_OK, LGG_NO_OFFSET, ""};
            if ((s = t->read(t->ud, pos, *tmp, k, &e2))) {
                if (e2.code == LGG_OK || !e2.message[0]) return source_failed(t, s, pos, err);
                if (err) *err = e2, err->code = s; /* the source's own words */
                return s;
            }
        } else if (t->src == LGG__SRC_VIEW) {
            for (size_t got = 0; got < k && !s;) {
                const uint8_t *p;
                size_t n;
                if ((s = view_at(t, pos + got, &p, &n, err))) break;
                if (n > k - got) n = k - got;
                memcpy(*tmp + got, p, n);
                got += n;
            }
            if (s) break;
        } else {
            memcpy(*tmp, (const uint8_t *)t->buf + pos, k);
        }
        if (swap) swap_blocks(ti, *tmp, k / ti->type_size);
        s = lgg__write_all(o, fd, *tmp, k, err);
    }
    if (t->src == LGG__SRC_VIEW) {
        size_t n;
        const void *v;
        t->view(t->ud, t->size, &v, &n);
    }
    return s;
}

lgg_status lgg__write_stream(const lgg_writer *w, const lgg__wopts *o, int fd, bool regular, uint64_t *written,
                             lgg_error *err) {
    uint8_t *h = NULL, *tmp = NULL;
    uint64_t hn, un, total;
    lgg_status s = lgg__encode_header(w, o, false, &h, &hn, &un, err);
    if (s) return s;
    s = lgg__write_all(o, fd, h, hn, err);
    lgg__free(o->alloc, h);
    total = hn;
    static const uint8_t zeros[256];
    uint64_t kicked = 0;
    for (uint64_t i = 0; i < w->n_t && !s; i++) {
        const lgg__wtensor *t = &w->t[i];
        if ((s = write_tensor(t, o, fd, regular, &tmp, err))) break;
        uint64_t p = pad_to(t->size, o->alignment);
        total += t->size + p;
        while (p && !s) {
            uint64_t k = p < sizeof zeros ? p : sizeof zeros;
            s = lgg__write_all(o, fd, zeros, k, err);
            p -= k;
        }
#ifdef SYNC_FILE_RANGE_WRITE
        /* a file that will be fsynced: let the disk start now, while the
         * rest is produced, instead of all at the final fsync */
        if (o->writeback && regular && total - kicked >= ((uint64_t)16 << 20)) {
            sync_file_range(fd, (off_t)kicked, (off_t)(total - kicked), SYNC_FILE_RANGE_WRITE);
            kicked = total;
        }
#endif
    }
    lgg__free(o->alloc, tmp);
    if (!s && written) *written = total;
    return s;
}

lgg_status lgg_writer_write_fd(const lgg_writer *w, int fd, const lgg_write_options *opts, uint64_t *written,
                               lgg_error *err) {
    if (!w || fd < 0) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "bad writer or descriptor");
    LGG__OPTIONS_IN(lgg_write_options, opts, err)
    lgg__wopts o;
    lgg_status s = lgg__wopts_resolve(w, opts, &o, err);
    if (s) return s;
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    return lgg__write_stream(w, &o, fd, regular, written, err);
}
