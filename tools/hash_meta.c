/* hash_meta.c -- the canonical encoding of a file's metadata that
 * `gguf hash --metadata` digests (specified in docs/hash.md): GGUF v3
 * little-endian encoding of the pairs in file order and of the tensor infos
 * without their offsets, so the digest survives a byte-order change, a
 * version upgrade, a new alignment or a split. */
#include "tool.h"
#include "hash.h"

#include <stdlib.h>
#include <string.h>

typedef struct enc {
    hash_ctx *c;
    uint8_t buf[1 << 16];
    size_t n;
} enc;

static void put(enc *e, const void *p, size_t n) {
    const uint8_t *s = p;
    while (n) {
        if (e->n == sizeof e->buf) {
            hash_ctx_update(e->c, e->buf, e->n);
            e->n = 0;
        }
        size_t k = sizeof e->buf - e->n < n ? sizeof e->buf - e->n : n;
        memcpy(e->buf + e->n, s, k);
        e->n += k, s += k, n -= k;
    }
}

static void put_le(enc *e, uint64_t v, unsigned width) {
    uint8_t b[8];
    for (unsigned i = 0; i < width; i++) b[i] = (uint8_t)(v >> (8 * i));
    put(e, b, width);
}

static void put_str(enc *e, lgg_str s) {
    put_le(e, s.len, 8);
    put(e, s.ptr, (size_t)s.len);
}

/* A scalar's bits, whatever the file's byte order, little-endian. */
static void put_scalar(enc *e, const lgg_value *v) {
    unsigned w = (unsigned)lgg_vtype_size(v->type);
    uint64_t x = 0;
    const uint16_t one = 1;
    int host_be = *(const uint8_t *)&one == 0;
    int file_be = v->swap != host_be;
    for (unsigned i = 0; i < w; i++) x |= (uint64_t)v->data[file_be ? w - 1 - i : i] << (8 * i);
    put_le(e, x, w);
}

static void put_value(enc *e, const lgg_value *v) {
    if (v->type == LGG_VT_STRING) {
        lgg_str s = {(const char *)v->data, v->count};
        put_str(e, s);
    } else if (v->type == LGG_VT_ARRAY) {
        put_le(e, v->elem_type, 4);
        put_le(e, v->count, 8);
        lgg_iter it;
        lgg_value el;
        lgg_array_iter(v, &it);
        while (lgg_iter_next(&it, &el)) put_value(e, &el);
    } else {
        put_scalar(e, v);
    }
}

static int is_split_key(lgg_str k) {
    return (k.len == 8 && !memcmp(k.ptr, "split.no", 8)) || (k.len == 11 && !memcmp(k.ptr, "split.count", 11)) ||
           (k.len == 19 && !memcmp(k.ptr, "split.tensors.count", 19));
}

int hash_metadata(struct lgg_file *const *files, unsigned n, hash_ctx *c) {
    enc *e = malloc(sizeof *e);
    if (!e) return -1;
    e->c = c;
    e->n = 0;
    put(e, "GGUF-META-1", 11);
    uint64_t n_kv = 0, n_t = 0;
    for (uint64_t i = 0; i < lgg_kv_count(files[0]); i++) n_kv += !(n > 1 && is_split_key(lgg_kv_at(files[0], i)->key));
    put_le(e, n_kv, 8);
    for (uint64_t i = 0; i < lgg_kv_count(files[0]); i++) {
        const lgg_kv *kv = lgg_kv_at(files[0], i);
        if (n > 1 && is_split_key(kv->key)) continue;
        put_str(e, kv->key);
        put_le(e, kv->value.type, 4);
        put_value(e, &kv->value);
    }
    for (unsigned f = 0; f < n; f++) n_t += lgg_tensor_count(files[f]);
    put_le(e, n_t, 8);
    for (unsigned f = 0; f < n; f++)
        for (uint64_t i = 0; i < lgg_tensor_count(files[f]); i++) {
            const lgg_tensor *t = lgg_tensor_at(files[f], i);
            put_str(e, t->name);
            put_le(e, t->n_dims, 4);
            for (uint32_t d = 0; d < t->n_dims; d++) put_le(e, (uint64_t)t->ne[d], 8);
            put_le(e, t->type, 4);
        }
    hash_ctx_update(c, e->buf, e->n);
    free(e);
    return 0;
}
