/* parse.c -- opening a GGUF file: map it, walk the header, every metadata
 * value and every tensor info once, and check the whole structure before
 * anything is trusted.
 *
 * Layout (all multi-byte fields in the file's byte order; "len" is u32 in v1
 * and u64 in v2/v3):
 *
 *   "GGUF" u32 version  len n_tensors  len n_kv
 *   n_kv x  { len keylen, key bytes, u32 vtype, value }
 *           value = scalar | len strlen + bytes | u32 elemtype, len count, elements
 *   n_tensors x { len namelen, name, u32 n_dims, len ne[n_dims], u32 type, u64 offset }
 *   zero padding to the alignment, then the data section.
 *
 * Nothing is allocated from a count before the count is checked against the
 * bytes left: each pair needs at least 13 bytes and each tensor info 24 (v1:
 * 9 and 20), so the records allocated are bounded by the file's real size.
 * Nested arrays are walked with an explicit stack, never recursion. */
#include "base/cursor.h"
#include "format/file.h"
#include "base/nameidx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEPTH_CAP 64u /* hard ceiling on lgg_limits.max_depth (stack frames) */

void lgg_open_options_init(lgg_open_options *o) {
    if (o) *o = (lgg_open_options)LGG_OPEN_OPTIONS_INIT;
}

static void limits_resolve(lgg_limits *l, const lgg_limits *in) {
    l->max_string_len = in && in->max_string_len ? in->max_string_len : LGG_DEFAULT_MAX_STRING_LEN;
    l->max_array_len = in && in->max_array_len ? in->max_array_len : LGG_DEFAULT_MAX_ARRAY_LEN;
    l->max_depth = in && in->max_depth ? in->max_depth : LGG_DEFAULT_MAX_DEPTH;
    if (l->max_depth > MAX_DEPTH_CAP) l->max_depth = MAX_DEPTH_CAP;
    l->max_kv = in && in->max_kv ? in->max_kv : LGG_DEFAULT_MAX_KV;
    l->max_tensors = in && in->max_tensors ? in->max_tensors : LGG_DEFAULT_MAX_TENSORS;
    l->max_dims = in && in->max_dims && in->max_dims < LGG_MAX_DIMS ? in->max_dims : LGG_MAX_DIMS;
}

static const char *vt_name(uint32_t vt) {
    const char *n = lgg_vtype_name(vt);
    return n ? n : "?";
}

/* ---- metadata values ---------------------------------------------------- */

typedef struct frame {
    uint32_t et;    /* element type of the array being walked */
    uint64_t left;  /* elements still to walk */
} frame;

static lgg_status read_string_len(lgg_cursor *c, const lgg_limits *lim, uint64_t *len, const char *what) {
    uint64_t at = c->pos;
    lgg_status s = lgg__cur_len(c, len, what);
    if (s) return s;
    if (LGG_UNLIKELY(*len > lgg__cur_left(c)))
        return lgg__fail(c->err, LGG_ERR_TRUNCATED, at,
                         "%s length %llu at offset %llu exceeds the %llu bytes left in the file", what,
                         (unsigned long long)*len, (unsigned long long)at,
                         (unsigned long long)lgg__cur_left(c));
    if (LGG_UNLIKELY(*len > lim->max_string_len))
        return lgg__fail(c->err, LGG_ERR_LIMIT, at, "%s length %llu at offset %llu exceeds the limit of %llu bytes",
                         what, (unsigned long long)*len, (unsigned long long)at,
                         (unsigned long long)lim->max_string_len);
    return LGG_OK;
}

/* Read an array header (element type, count) and check the count against
 * the limits and against the least number of bytes its elements can take. */
static lgg_status read_array_header(lgg_cursor *c, const lgg_limits *lim, uint32_t *et, uint64_t *count) {
    uint64_t at = c->pos;
    lgg_status s = lgg__cur_u32(c, et, "array element type");
    if (s) return s;
    if (LGG_UNLIKELY(*et >= LGG_VT_COUNT))
        return lgg__fail(c->err, LGG_ERR_VALUE_TYPE, at, "unknown array element type %u at offset %llu", *et,
                         (unsigned long long)at);
    uint64_t cat = c->pos;
    if ((s = lgg__cur_len(c, count, "array length"))) return s;
    uint64_t min_each = lgg_vtype_size(*et);
    if (*et == LGG_VT_STRING) min_each = c->lw;
    if (*et == LGG_VT_ARRAY) min_each = 4u + c->lw;
    uint64_t need;
    if (LGG_UNLIKELY(lgg__mul_ovf(*count, min_each, &need) || need > lgg__cur_left(c)))
        return lgg__fail(c->err, LGG_ERR_TRUNCATED, cat,
                         "array of %llu %s at offset %llu needs at least %llu bytes per element but the file has %llu left",
                         (unsigned long long)*count, vt_name(*et), (unsigned long long)cat,
                         (unsigned long long)min_each, (unsigned long long)lgg__cur_left(c));
    if (LGG_UNLIKELY(*count > lim->max_array_len))
        return lgg__fail(c->err, LGG_ERR_LIMIT, cat, "array length %llu at offset %llu exceeds the limit of %llu",
                         (unsigned long long)*count, (unsigned long long)cat,
                         (unsigned long long)lim->max_array_len);
    return LGG_OK;
}

/* Walk the elements of an array whose header was just read; depth is the
 * nesting level of that array (1 for a top-level array). */
static lgg_status walk_array(lgg_cursor *c, const lgg_limits *lim, uint32_t et, uint64_t count, uint32_t depth) {
    frame stack[MAX_DEPTH_CAP + 1];
    uint32_t sp = 0;
    stack[sp].et = et;
    stack[sp].left = count;
    sp++;
    while (sp) {
        frame *f = &stack[sp - 1];
        if (f->left == 0) {
            sp--;
            continue;
        }
        size_t esz = lgg_vtype_size(f->et);
        if (esz) { /* fixed-size elements: the header check already bounded them */
            c->pos += f->left * esz;
            f->left = 0;
        } else if (f->et == LGG_VT_STRING) {
            for (; f->left; f->left--) {
                uint64_t len;
                lgg_status s = read_string_len(c, lim, &len, "string");
                if (s) return s;
                c->pos += len;
            }
        } else { /* an array of arrays: descend into the next element */
            f->left--;
            if (depth + sp > lim->max_depth) {
                return lgg__fail(c->err, LGG_ERR_NESTING, c->pos,
                                 "array at offset %llu is nested %u deep, beyond the limit of %u",
                                 (unsigned long long)c->pos, depth + sp, lim->max_depth);
            }
            uint32_t cet;
            uint64_t ccount;
            lgg_status s = read_array_header(c, lim, &cet, &ccount);
            if (s) return s;
            stack[sp].et = cet;
            stack[sp].left = ccount;
            sp++;
        }
    }
    return LGG_OK;
}

static lgg_status parse_value(lgg_cursor *c, const lgg_limits *lim, uint32_t vt, uint64_t vt_at, lgg_value *v) {
    v->type = vt;
    v->elem_type = 0;
    v->swap = c->swap;
    v->len_width = c->lw;
    lgg_status s;
    if (LGG_UNLIKELY(vt >= LGG_VT_COUNT))
        return lgg__fail(c->err, LGG_ERR_VALUE_TYPE, vt_at, "unknown value type %u at offset %llu", vt,
                         (unsigned long long)vt_at);
    size_t sz = lgg_vtype_size(vt);
    if (sz) {
        if (lgg__cur_left(c) < sz) return lgg__cur_short(c, sz, vt_name(vt));
        v->count = 1;
        v->size = sz;
    } else if (vt == LGG_VT_STRING) {
        uint64_t len;
        if ((s = read_string_len(c, lim, &len, "string"))) return s;
        v->count = len;
        v->size = len;
    } else {
        uint32_t et;
        uint64_t count;
        if ((s = read_array_header(c, lim, &et, &count))) return s;
        v->elem_type = et;
        v->count = count;
        uint64_t start = c->pos;
        if (et == LGG_VT_ARRAY && lim->max_depth < 2 && count)
            return lgg__fail(c->err, LGG_ERR_NESTING, start,
                             "array at offset %llu is nested 2 deep, beyond the limit of %u",
                             (unsigned long long)start, lim->max_depth);
        if ((s = walk_array(c, lim, et, count, 1))) return s;
        v->data = c->base + start;
        v->offset = start;
        v->size = c->pos - start;
        return LGG_OK;
    }
    v->data = c->base + c->pos;
    v->offset = c->pos;
    c->pos += v->size;
    return LGG_OK;
}

/* ---- the header ----------------------------------------------------------- */

/* GGUF's predecessors, as llama.cpp wrote them: a u32 magic in the host's
 * byte order ('ggjt' is "tjgg" on disk from a little-endian machine), then,
 * except for unversioned ggml, a u32 version in the same order.  Fills err
 * and returns true for one of them. */
static bool legacy_format(const lgg_file *f, lgg_error *err) {
    static const char *const FAMILIES[] = {"ggml", "ggmf", "ggjt"};
    for (size_t k = 0; k < 3; k++) {
        const char *m = FAMILIES[k];
        const char rev[4] = {m[3], m[2], m[1], m[0]};
        const bool big = memcmp(f->base, m, 4) == 0;
        if (!big && memcmp(f->base, rev, 4) != 0) continue;
        if (k == 0) {
            lgg__fail(err, LGG_ERR_MAGIC, 0, "legacy pre-GGUF format (ggml unversioned), not GGUF");
        } else if (f->mem_size < 8) {
            lgg__fail(err, LGG_ERR_MAGIC, 0, "legacy pre-GGUF format (%s, no version), not GGUF", m);
        } else {
            const uint8_t *v = f->base + 4;
            const uint32_t version = big ? (uint32_t)v[0] << 24 | (uint32_t)v[1] << 16 | (uint32_t)v[2] << 8 | v[3]
                                         : (uint32_t)v[3] << 24 | (uint32_t)v[2] << 16 | (uint32_t)v[1] << 8 | v[0];
            lgg__fail(err, LGG_ERR_MAGIC, 0, "legacy pre-GGUF format (%s v%u), not GGUF", m, version);
        }
        return true;
    }
    return false;
}

/* Magic, version (its byte order tells the file's), and the two counts,
 * checked against the bytes left and the limits before anything is
 * allocated for them. */
static lgg_status parse_preamble(lgg_file *f, lgg_cursor *c, lgg_error *err) {
    lgg_status s;
    if (f->mem_size < 4) return lgg__fail(err, LGG_ERR_TRUNCATED, 0, "file has %llu bytes, too short for the magic",
                                          (unsigned long long)f->mem_size);
    if (memcmp(f->base, "GGUF", 4) != 0) {
        if (legacy_format(f, err)) return LGG_ERR_MAGIC;
        char q[32];
        lgg__quote(q, sizeof q, (const char *)f->base, 4, 4);
        return lgg__fail(err, LGG_ERR_MAGIC, 0, "bad magic '%s' at offset 0, expected 'GGUF'", q);
    }
    c->pos = 4;
    uint32_t version;
    if ((s = lgg__cur_u32(c, &version, "version"))) return s;
    if (version >= 1 && version <= 3) {
        f->endian = lgg__host_is_big() ? LGG_BIG_ENDIAN : LGG_LITTLE_ENDIAN;
    } else if (lgg__bswap32(version) >= 1 && lgg__bswap32(version) <= 3) {
        version = lgg__bswap32(version);
        f->endian = lgg__host_is_big() ? LGG_LITTLE_ENDIAN : LGG_BIG_ENDIAN;
        c->swap = true;
    } else {
        return lgg__fail(err, LGG_ERR_VERSION, 4, "unsupported version %u at offset 4 (known: 1, 2, 3)", version);
    }
    f->version = version;
    f->swap = c->swap;
    f->lw = c->lw = version == 1 ? 4 : 8;

    uint64_t n_tensors, n_kv;
    if ((s = lgg__cur_len(c, &n_tensors, "tensor count"))) return s;
    if ((s = lgg__cur_len(c, &n_kv, "metadata count"))) return s;
    const uint64_t min_kv = (uint64_t)c->lw + 4 + 1, min_ti = (uint64_t)c->lw + 4 + 4 + 8;
    uint64_t a, b, need;
    if (lgg__mul_ovf(n_kv, min_kv, &a) || lgg__mul_ovf(n_tensors, min_ti, &b) || lgg__add_ovf(a, b, &need) ||
        need > lgg__cur_left(c))
        return lgg__fail(err, LGG_ERR_TRUNCATED, 8,
                         "%llu metadata pairs and %llu tensor infos need at least %llu and %llu bytes each, "
                         "but the file has %llu bytes after the header",
                         (unsigned long long)n_kv, (unsigned long long)n_tensors, (unsigned long long)min_kv,
                         (unsigned long long)min_ti, (unsigned long long)lgg__cur_left(c));
    if (n_kv > f->limits.max_kv)
        return lgg__fail(err, LGG_ERR_LIMIT, c->lw == 4 ? 12 : 16,
                         "metadata count %llu exceeds the limit of %llu", (unsigned long long)n_kv,
                         (unsigned long long)f->limits.max_kv);
    if (n_tensors > f->limits.max_tensors)
        return lgg__fail(err, LGG_ERR_LIMIT, 8, "tensor count %llu exceeds the limit of %llu",
                         (unsigned long long)n_tensors, (unsigned long long)f->limits.max_tensors);
    f->n_kv = n_kv;
    f->n_tensors = n_tensors;
    f->kv = lgg__calloc(f->alloc, n_kv ? n_kv : 1, sizeof *f->kv);
    f->tensors = lgg__calloc(f->alloc, n_tensors ? n_tensors : 1, sizeof *f->tensors);
    if (!f->kv || !f->tensors) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory for %llu pairs and %llu tensors",
                                                (unsigned long long)n_kv, (unsigned long long)n_tensors);
    return LGG_OK;
}

/* The first general.alignment decides the data section's alignment.  An
 * integer of any width is honoured (validation reports a type other than
 * u32); a non-integer is ignored and reported by validation. */
static lgg_status note_alignment(lgg_file *f, const lgg_kv *kv, uint64_t i, lgg_error *err) {
    if (f->alignment_kv >= 0 || kv->key.len != 17 || memcmp(kv->key.ptr, "general.alignment", 17) != 0)
        return LGG_OK;
    f->alignment_kv = (int64_t)i;
    uint64_t a;
    if (lgg_value_uint(&kv->value, &a) != LGG_OK && kv->value.type != LGG_VT_I8 && kv->value.type != LGG_VT_I16 &&
        kv->value.type != LGG_VT_I32 && kv->value.type != LGG_VT_I64)
        return LGG_OK;
    int64_t sv;
    if (lgg_value_int(&kv->value, &sv) == LGG_OK && sv < 0)
        return lgg__fail(err, LGG_ERR_ALIGNMENT, kv->value.offset, "general.alignment %lld at offset %llu is negative",
                         (long long)sv, (unsigned long long)kv->value.offset);
    if (a == 0 || (a & (a - 1)) != 0)
        return lgg__fail(err, LGG_ERR_ALIGNMENT, kv->value.offset,
                         "general.alignment %llu at offset %llu is not a non-zero power of two", (unsigned long long)a,
                         (unsigned long long)kv->value.offset);
    f->alignment = a;
    return LGG_OK;
}

/* Key/value pair i: the key, the value type, the value. */
static lgg_status parse_kv(lgg_file *f, lgg_cursor *c, uint64_t i, lgg_error *err) {
    lgg_kv *kv = &f->kv[i];
    lgg_status s;
    kv->offset = c->pos;
    uint64_t klen;
    if ((s = read_string_len(c, &f->limits, &klen, "key"))) return s;
    kv->key.ptr = (const char *)c->base + c->pos;
    kv->key.len = klen;
    c->pos += klen;
    uint32_t vt;
    uint64_t vt_at = c->pos;
    if ((s = lgg__cur_u32(c, &vt, "value type"))) return s;
    if ((s = parse_value(c, &f->limits, vt, vt_at, &kv->value))) {
        if (s == LGG_ERR_VALUE_TYPE && err && kv->key.len < 200) {
            /* name the key: it is what a user can look for */
            char q[160];
            lgg__quote(q, sizeof q, kv->key.ptr, kv->key.len, 120);
            size_t used = strlen(err->message);
            if (used + strlen(q) + 9 < sizeof err->message)
                snprintf(err->message + used, sizeof err->message - used, " (key '%s')", q);
        }
        return s;
    }
    return note_alignment(f, kv, i, err);
}

/* Tensor info i: name, dimensions, type, offset (checked later, once the
 * data section's place is known). */
static lgg_status parse_tensor_info(lgg_file *f, lgg_cursor *c, uint64_t i, lgg_error *err) {
    lgg_tensor *t = &f->tensors[i];
    lgg_status s;
    t->info_offset = c->pos;
    uint64_t nlen;
    if ((s = read_string_len(c, &f->limits, &nlen, "tensor name"))) return s;
    t->name.ptr = (const char *)c->base + c->pos;
    t->name.len = nlen;
    c->pos += nlen;
    uint64_t nd_at = c->pos;
    if ((s = lgg__cur_u32(c, &t->n_dims, "tensor n_dims"))) return s;
    if (t->n_dims > f->limits.max_dims)
        return lgg__fail(err, LGG_ERR_TENSOR_NDIMS, nd_at, "tensor %llu has %u dimensions at offset %llu, more than %u",
                         (unsigned long long)i, t->n_dims, (unsigned long long)nd_at, f->limits.max_dims);
    for (uint32_t d = 0; d < LGG_MAX_DIMS; d++) t->ne[d] = 1;
    for (uint32_t d = 0; d < t->n_dims; d++) {
        uint64_t ne, at = c->pos;
        if ((s = lgg__cur_len(c, &ne, "tensor dimension"))) return s;
        if (ne > (uint64_t)INT64_MAX)
            return lgg__fail(err, LGG_ERR_TENSOR_DIMS, at, "tensor %llu dimension %u at offset %llu is negative (%lld)",
                             (unsigned long long)i, d, (unsigned long long)at, (long long)(int64_t)ne);
        t->ne[d] = (int64_t)ne;
    }
    if ((s = lgg__cur_u32(c, &t->type, "tensor type"))) return s;
    return lgg__cur_u64(c, &t->offset, "tensor offset");
}

lgg_status lgg__parse_header(lgg_file *f, lgg_error *err) {
    lgg_cursor cur = {f->base, f->mem_size, 0, false, 8, err};
    lgg_status s;
    if ((s = parse_preamble(f, &cur, err))) return s;
    f->alignment = 32;
    f->alignment_kv = -1;
    for (uint64_t i = 0; i < f->n_kv; i++)
        if ((s = parse_kv(f, &cur, i, err))) return s;
    for (uint64_t i = 0; i < f->n_tensors; i++)
        if ((s = parse_tensor_info(f, &cur, i, err))) return s;
    f->header_size = cur.pos;
    return LGG_OK;
}

/* ---- tensor data checks -------------------------------------------------- */

/* Ties in info order: which overlap is reported must not depend on libc's
 * qsort (glibc's is stable, musl's and so the WebAssembly build's is not). */
static int cmp_by_offset(const void *a, const void *b, void *ctx) {
    const lgg_tensor *t = ctx;
    const uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (t[i].file_offset != t[j].file_offset) return t[i].file_offset < t[j].file_offset ? -1 : 1;
    return i < j ? -1 : i > j;
}

static lgg_status tensor_name_msg(const lgg_tensor *t, char *q, size_t cap) {
    lgg__quote(q, cap, t->name.ptr, t->name.len, 80);
    return LGG_OK;
}

/* Where t's data lies: inside any file at all, then inside this one (a
 * tensor past the end is an error unless missing data is allowed). */
static lgg_status check_tensor_place(lgg_file *f, lgg_tensor *t, lgg_error *err) {
    char q[200];
    uint64_t start, end;
    if (lgg__add_ovf(f->data_offset, t->offset, &start) || lgg__add_ovf(start, t->size, &end) ||
        end > (UINT64_C(1) << 62)) {
        tensor_name_msg(t, q, sizeof q);
        return lgg__fail(err, LGG_ERR_TENSOR_BOUNDS, t->info_offset,
                         "tensor '%s' (info at offset %llu): data at offset %llu + %llu of %llu bytes lies outside any file",
                         q, (unsigned long long)t->info_offset, (unsigned long long)f->data_offset,
                         (unsigned long long)t->offset, (unsigned long long)t->size);
    }
    t->file_offset = start;
    if (end > f->expected_end) f->expected_end = end;
    if (end <= f->size && end > f->mem_size) {
        /* in the file, at its source: placed, not present (lgg_file_load_tensor) */
        if (end > f->data_end) f->data_end = end;
        return LGG_OK;
    }
    if (end > f->size) {
        if (f->flags & LGG_OPEN_ALLOW_MISSING_DATA) return LGG_OK;
        tensor_name_msg(t, q, sizeof q);
        return lgg__fail(err, LGG_ERR_TRUNCATED, start > f->size ? f->size : start,
                         "tensor '%s' (info at offset %llu): data from offset %llu to %llu runs past the end of "
                         "the file (%llu bytes): truncated",
                         q, (unsigned long long)t->info_offset, (unsigned long long)start,
                         (unsigned long long)end, (unsigned long long)f->size);
    }
    t->data_available = true;
    t->data = f->base + start;
    if (end > f->data_end) f->data_end = end;
    return LGG_OK;
}

/* The data section starts at the next multiple of the alignment (ggml
 * leaves it unpadded when there are no tensors).  A metadata-only file
 * (ggml's gguf_write_to_file with only_meta) ends before it: with
 * LGG_OPEN_ALLOW_MISSING_DATA it opens, its data offset past the end. */
static lgg_status place_data(lgg_file *f, lgg_error *err) {
    if (f->n_tensors == 0) {
        f->data_offset = f->header_size;
    } else {
        uint64_t pad = (f->alignment - f->header_size % f->alignment) % f->alignment, d;
        if (lgg__add_ovf(f->header_size, pad, &d) || (d > f->size && !(f->flags & LGG_OPEN_ALLOW_MISSING_DATA)))
            return lgg__fail(err, LGG_ERR_TRUNCATED, f->header_size,
                             "the data section would start at offset %llu (after padding to %llu), past the end of "
                             "the file (%llu bytes)",
                             (unsigned long long)f->header_size + pad, (unsigned long long)f->alignment,
                             (unsigned long long)f->size);
        f->data_offset = d;
    }
    f->data_end = f->data_offset;
    f->expected_end = f->data_offset;
    return LGG_OK;
}

/* Tensor t's element count, size, alignment and place in the file; its
 * data is available when it lies inside the file. */
static lgg_status check_tensor(lgg_file *f, lgg_tensor *t, lgg_error *err) {
    char q[200];
    uint64_t n = 1;
    for (uint32_t d = 0; d < LGG_MAX_DIMS; d++) {
        if (lgg__mul_ovf(n, (uint64_t)t->ne[d], &n) || n > (uint64_t)INT64_MAX) {
            tensor_name_msg(t, q, sizeof q);
            return lgg__fail(err, LGG_ERR_TENSOR_DIMS, t->info_offset,
                             "tensor '%s' (info at offset %llu): element count %lld x %lld x %lld x %lld overflows",
                             q, (unsigned long long)t->info_offset, (long long)t->ne[0], (long long)t->ne[1],
                             (long long)t->ne[2], (long long)t->ne[3]);
        }
    }
    t->n_elements = n;
    t->file_offset = 0;
    t->data_available = false;
    const lgg_type_info *ti = lgg_type_get(t->type);
    t->type_known = ti && !ti->removed;
    if (!t->type_known) return LGG_OK; /* opens for metadata work; validation reports it */
    if ((uint64_t)t->ne[0] % ti->block_size) {
        tensor_name_msg(t, q, sizeof q);
        return lgg__fail(err, LGG_ERR_TENSOR_BLOCK, t->info_offset,
                         "tensor '%s' (info at offset %llu): ne[0] = %lld is not a multiple of %s's block size %u",
                         q, (unsigned long long)t->info_offset, (long long)t->ne[0], ti->name, ti->block_size);
    }
    if (lgg__mul_ovf(n / ti->block_size, ti->type_size, &t->size)) {
        tensor_name_msg(t, q, sizeof q);
        return lgg__fail(err, LGG_ERR_TENSOR_DIMS, t->info_offset,
                         "tensor '%s' (info at offset %llu): byte size of %llu %s elements overflows", q,
                         (unsigned long long)t->info_offset, (unsigned long long)n, ti->name);
    }
    if (t->offset % f->alignment) {
        tensor_name_msg(t, q, sizeof q);
        return lgg__fail(err, LGG_ERR_TENSOR_ALIGN, t->info_offset,
                         "tensor '%s' (info at offset %llu): data offset %llu is not a multiple of the alignment %llu",
                         q, (unsigned long long)t->info_offset, (unsigned long long)t->offset,
                         (unsigned long long)f->alignment);
    }
    return check_tensor_place(f, t, err);
}

/* Overlaps: the tensors that hold data, sorted by offset, neighbours compared. */
static lgg_status check_overlaps(lgg_file *f, lgg_error *err) {
    if (f->n_tensors < 2) return LGG_OK;
    uint32_t *ord = lgg__calloc(f->alloc, f->n_tensors, sizeof *ord);
    if (!ord) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory checking tensor overlaps");
    uint64_t m = 0;
    for (uint64_t i = 0; i < f->n_tensors; i++)
        if (lgg__tensor_in_file(f, &f->tensors[i]) && f->tensors[i].size) ord[m++] = (uint32_t)i;
    qsort_r(ord, m, sizeof *ord, cmp_by_offset, f->tensors);
    lgg_status s = LGG_OK;
    for (uint64_t k = 1; k < m; k++) {
        const lgg_tensor *a = &f->tensors[ord[k - 1]], *b = &f->tensors[ord[k]];
        if (a->file_offset + a->size > b->file_offset) {
            char q[200], q2[200];
            tensor_name_msg(a, q, sizeof q);
            tensor_name_msg(b, q2, sizeof q2);
            s = lgg__fail(err, LGG_ERR_TENSOR_OVERLAP, b->info_offset,
                          "tensor '%s' (data %llu..%llu) overlaps tensor '%s' (data %llu..%llu)", q2,
                          (unsigned long long)b->file_offset, (unsigned long long)(b->file_offset + b->size), q,
                          (unsigned long long)a->file_offset, (unsigned long long)(a->file_offset + a->size));
            break;
        }
    }
    lgg__free(f->alloc, ord);
    return s;
}

/* With LGG_OPEN_ALLOW_BAD_LAYOUT, a problem only in where a tensor's data
 * lies is kept for lgg_file_layout_error instead of failing the open. */
static lgg_status layout_problem(lgg_file *f, lgg_status s, const lgg_error *e, lgg_error *err) {
    const bool layout = s == LGG_ERR_TENSOR_BOUNDS || s == LGG_ERR_TENSOR_ALIGN || s == LGG_ERR_TENSOR_OVERLAP;
    if (!layout || !(f->flags & LGG_OPEN_ALLOW_BAD_LAYOUT)) {
        if (s && err) *err = *e;
        return s;
    }
    if (!f->layout_bad) f->layout_err = *e;
    f->layout_bad = true;
    return LGG_OK;
}

static lgg_status check_tensors(lgg_file *f, lgg_error *err) {
    lgg_status s = place_data(f, err);
    lgg_error e;
    memset(&e, 0, sizeof e);
    for (uint64_t i = 0; i < f->n_tensors && !s; i++)
        s = layout_problem(f, check_tensor(f, &f->tensors[i], &e), &e, err);
    if (!s && !f->layout_bad) s = layout_problem(f, check_overlaps(f, &e), &e, err);
    /* data that may overlap other data or lie nowhere is no tensor's data */
    for (uint64_t i = 0; i < f->n_tensors && !s && f->layout_bad; i++) {
        f->tensors[i].data = NULL;
        f->tensors[i].data_available = false;
    }
    return s;
}

static lgg_status build_indexes(lgg_file *f, lgg_error *err) {
    /* duplicate keys keep the first occurrence in the index; validation reports them */
    int64_t dup;
    if (!lgg__nameidx_build(&f->kv_idx, f->alloc, f->n_kv, lgg__file_kv_name, f, NULL) ||
        !lgg__nameidx_build(&f->t_idx, f->alloc, f->n_tensors, lgg__file_tensor_name, f, &dup))
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory for the indexes");
    if (dup >= 0) {
        const lgg_tensor *t = &f->tensors[dup];
        int64_t prev = lgg__nameidx_find(&f->t_idx, lgg__file_tensor_name, f, t->name.ptr, t->name.len);
        char q[200];
        tensor_name_msg(t, q, sizeof q);
        return lgg__fail(err, LGG_ERR_TENSOR_DUP, t->info_offset,
                         "tensor %lld at offset %llu has the same name '%s' as tensor %lld", (long long)dup,
                         (unsigned long long)t->info_offset, q, (long long)prev);
    }
    return LGG_OK;
}

/* ---- open / close ------------------------------------------------------- */

lgg_file *lgg__file_new(const lgg_open_options *opts) {
    const lgg_allocator *a = opts ? opts->allocator : NULL;
    lgg_file *f = lgg__calloc(a, 1, sizeof *f);
    if (!f) return NULL;
    if (a) {
        f->alloc_copy = *a;
        f->alloc = &f->alloc_copy;
    }
    limits_resolve(&f->limits, opts ? &opts->limits : NULL);
    f->flags = opts ? opts->flags : 0;
    lgg__nameidx_init(&f->kv_idx, f);
    lgg__nameidx_init(&f->t_idx, f);
    return f;
}

/* Everything after the header: the tensors' places, the indexes. */
lgg_status lgg__finish_checks(lgg_file *f, lgg_file **out, lgg_error *err) {
    lgg_status s = check_tensors(f, err);
    if (!s) s = build_indexes(f, err);
    if (s) {
        lgg_close(f);
        return s;
    }
    *out = f;
    return LGG_OK;
}

static lgg_status finish_open(lgg_file *f, lgg_file **out, lgg_error *err) {
    lgg_status s = lgg__parse_header(f, err);
    if (s) {
        lgg_close(f);
        return s;
    }
    return lgg__finish_checks(f, out, err);
}

lgg_status lgg__open_owned(const lgg_allocator *a, void *p, uint64_t n, lgg_file **out, lgg_error *err) {
    lgg_open_options o = {.allocator = a, .flags = LGG_OPEN_ALLOW_MISSING_DATA};
    lgg_file *f = lgg__file_new(&o);
    if (!f) {
        lgg__free(a, p);
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    }
    f->owned = p;
    f->base = p;
    f->size = f->mem_size = n;
    return finish_open(f, out, err);
}

lgg_status lgg_open_memory(const void *data, size_t size, const lgg_open_options *opts, lgg_file **out,
                           lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "out is NULL");
    *out = NULL;
    LGG__OPTIONS_IN(lgg_open_options, opts, err)
    if (!data && size) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "data is NULL");
    lgg_file *f = lgg__file_new(opts);
    if (!f) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    f->base = data ? data : (const uint8_t *)"";
    f->size = f->mem_size = size;
    return finish_open(f, out, err);
}

lgg_status lgg_open_fd(int fd, const lgg_open_options *opts, lgg_file **out, lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "out is NULL");
    *out = NULL;
    LGG__OPTIONS_IN(lgg_open_options, opts, err)
    struct stat st;
    if (fstat(fd, &st) != 0) return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "fstat: %s", strerror(errno));
    if (S_ISDIR(st.st_mode)) return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "is a directory");
    lgg_file *f = lgg__file_new(opts);
    if (!f) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    if (S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > SIZE_MAX) {
            lgg_close(f);
            return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "file too large to map");
        }
        f->size = (uint64_t)st.st_size;
        if (f->size) {
            void *m = mmap(NULL, (size_t)f->size, PROT_READ, MAP_PRIVATE, fd, 0);
            if (m == MAP_FAILED) {
                int e = errno;
                lgg_close(f);
                return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "mmap: %s", strerror(e));
            }
            f->map = m;
            f->map_len = (size_t)f->size;
            f->base = m;
        } else {
            f->base = (const uint8_t *)"";
        }
        f->mem_size = f->size;
        return finish_open(f, out, err);
    }
    /* a pipe or other stream: read it into memory, growing geometrically */
    size_t cap = 1 << 16, n = 0;
    uint8_t *p = lgg__alloc(f->alloc, cap);
    if (!p) {
        lgg_close(f);
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    }
    for (;;) {
        if (n == cap) {
            if (cap > SIZE_MAX / 2) {
                lgg__free(f->alloc, p);
                lgg_close(f);
                return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "stream too large");
            }
            uint8_t *q = lgg__realloc(f->alloc, p, cap, cap * 2);
            if (!q) {
                lgg__free(f->alloc, p);
                lgg_close(f);
                return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory reading the stream");
            }
            p = q;
            cap *= 2;
        }
        ssize_t r = read(fd, p + n, cap - n);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            lgg__free(f->alloc, p);
            lgg_close(f);
            return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "read: %s", strerror(e));
        }
        if (r == 0) break;
        n += (size_t)r;
    }
    f->owned = p;
    f->base = p;
    f->size = f->mem_size = n;
    return finish_open(f, out, err);
}

lgg_status lgg_open_file(const char *path, const lgg_open_options *opts, lgg_file **out, lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "out is NULL");
    *out = NULL;
    LGG__OPTIONS_IN(lgg_open_options, opts, err)
    if (!path) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "path is NULL");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "cannot open: %s", strerror(errno));
    lgg_status s = lgg_open_fd(fd, opts, out, err);
    close(fd);
    return s;
}

void lgg_close(lgg_file *f) {
    if (!f) return;
    lgg_allocator copy = f->alloc_copy;
    const lgg_allocator *a = f->alloc ? &copy : NULL;
    if (f->map) munmap(f->map, f->map_len);
    lgg__free(a, f->owned);
    if (f->loaded)
        for (uint64_t i = 0; i < f->n_tensors; i++) lgg__free(a, f->loaded[i]);
    lgg__free(a, f->loaded);
    lgg__free(a, f->kv);
    lgg__free(a, f->tensors);
    lgg__nameidx_free(&f->kv_idx, a);
    lgg__nameidx_free(&f->t_idx, a);
    lgg__free(a, f);
}
