/* access.c -- read-only accessors over an open file: properties, typed
 * values, arrays, and facts derived from them.  Everything here only reads
 * the immutable lgg_file, so it is safe from any number of threads. */
#include "format/file.h"

#include <math.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- name indexes ------------------------------------------------------- */

void lgg__file_kv_name(const void *ctx, uint64_t i, const char **name, uint64_t *len) {
    const lgg_str *k = &((const lgg_file *)ctx)->kv[i].key;
    *name = k->ptr;
    *len = k->len;
}

void lgg__file_tensor_name(const void *ctx, uint64_t i, const char **name, uint64_t *len) {
    const lgg_str *k = &((const lgg_file *)ctx)->tensors[i].name;
    *name = k->ptr;
    *len = k->len;
}

int64_t lgg_find_key(const lgg_file *f, const char *key, size_t len) {
    if (!f || (!key && len)) return -1;
    return lgg__nameidx_find(&f->kv_idx, lgg__file_kv_name, f, key, len);
}

int64_t lgg_find_key_cstr(const lgg_file *f, const char *key) {
    return key ? lgg_find_key(f, key, strlen(key)) : -1;
}

int64_t lgg_find_tensor(const lgg_file *f, const char *name, size_t len) {
    if (!f || (!name && len)) return -1;
    return lgg__nameidx_find(&f->t_idx, lgg__file_tensor_name, f, name, len);
}

int64_t lgg_find_tensor_cstr(const lgg_file *f, const char *name) {
    return name ? lgg_find_tensor(f, name, strlen(name)) : -1;
}

uint32_t lgg_file_version(const lgg_file *f) { return f ? f->version : 0; }
lgg_endian lgg_file_endian(const lgg_file *f) { return f ? f->endian : LGG_LITTLE_ENDIAN; }
uint64_t lgg_file_alignment(const lgg_file *f) { return f ? f->alignment : 0; }
uint64_t lgg_file_data_offset(const lgg_file *f) { return f ? f->data_offset : 0; }
uint64_t lgg_file_header_size(const lgg_file *f) { return f ? f->header_size : 0; }
uint64_t lgg_file_size(const lgg_file *f) { return f ? f->size : 0; }
const uint8_t *lgg_file_bytes(const lgg_file *f) { return f ? f->base : NULL; }
uint64_t lgg_kv_count(const lgg_file *f) { return f ? f->n_kv : 0; }
uint64_t lgg_tensor_count(const lgg_file *f) { return f ? f->n_tensors : 0; }
uint64_t lgg_file_data_end(const lgg_file *f) { return f ? f->data_end : 0; }
uint64_t lgg_file_expected_size(const lgg_file *f) { return f ? f->expected_end : 0; }
bool lgg_file_layout_error(const lgg_file *f, lgg_error *out) {
    if (!f || !f->layout_bad) return false;
    if (out) *out = f->layout_err;
    return true;
}
bool lgg_file_metadata_only(const lgg_file *f) {
    return f && f->n_tensors && f->size <= f->data_offset && f->expected_end > f->size;
}

const lgg_kv *lgg_kv_at(const lgg_file *f, uint64_t i) { return f && i < f->n_kv ? &f->kv[i] : NULL; }
const lgg_tensor *lgg_tensor_at(const lgg_file *f, uint64_t i) { return f && i < f->n_tensors ? &f->tensors[i] : NULL; }

lgg_status lgg_get(const lgg_file *f, const char *key, lgg_value *out) {
    if (!f || !key || !out) return LGG_ERR_ARG;
    int64_t i = lgg_find_key_cstr(f, key);
    if (i < 0) return LGG_ERR_NOT_FOUND;
    *out = f->kv[i].value;
    return LGG_OK;
}

/* ---- value types ---- */

static const char *const VT_NAMES[LGG_VT_COUNT] = {"u8",  "i8",     "u16",   "i16", "u32", "i32", "f32",
                                                   "bool", "string", "array", "u64", "i64", "f64"};
static const uint8_t VT_SIZES[LGG_VT_COUNT] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

const char *lgg_vtype_name(uint32_t vt) { return vt < LGG_VT_COUNT ? VT_NAMES[vt] : NULL; }
size_t lgg_vtype_size(uint32_t vt) { return vt < LGG_VT_COUNT ? VT_SIZES[vt] : 0; }

lgg_status lgg_vtype_from_name(const char *name, size_t len, uint32_t *vt) {
    static const struct { const char *n; uint32_t t; } ALIASES[] = {
        {"uint8", LGG_VT_U8},    {"int8", LGG_VT_I8},     {"uint16", LGG_VT_U16},  {"int16", LGG_VT_I16},
        {"uint32", LGG_VT_U32},  {"int32", LGG_VT_I32},   {"float32", LGG_VT_F32}, {"uint64", LGG_VT_U64},
        {"int64", LGG_VT_I64},   {"float64", LGG_VT_F64}, {"str", LGG_VT_STRING},  {"float", LGG_VT_F32},
        {"int", LGG_VT_I64},     {"double", LGG_VT_F64},
    };
    if (!name || !vt) return LGG_ERR_ARG;
    for (uint32_t i = 0; i < LGG_VT_COUNT; i++)
        if (strlen(VT_NAMES[i]) == len && memcmp(VT_NAMES[i], name, len) == 0) {
            *vt = i;
            return LGG_OK;
        }
    for (size_t i = 0; i < sizeof ALIASES / sizeof ALIASES[0]; i++)
        if (strlen(ALIASES[i].n) == len && memcmp(ALIASES[i].n, name, len) == 0) {
            *vt = ALIASES[i].t;
            return LGG_OK;
        }
    return LGG_ERR_NOT_FOUND;
}

/* ---- typed scalar access ---- */

#define SCALAR_GETTER(fn, ctype, vt, load)                                        \
    lgg_status fn(const lgg_value *v, ctype *out) {                               \
        if (!v || !out) return LGG_ERR_ARG;                                       \
        if (v->type != (vt)) return LGG_ERR_TYPE;                                 \
        load;                                                                     \
        return LGG_OK;                                                            \
    }

SCALAR_GETTER(lgg_value_u8, uint8_t, LGG_VT_U8, *out = v->data[0])
SCALAR_GETTER(lgg_value_i8, int8_t, LGG_VT_I8, *out = (int8_t)v->data[0])
SCALAR_GETTER(lgg_value_u16, uint16_t, LGG_VT_U16, *out = lgg__ld16(v->data, v->swap))
SCALAR_GETTER(lgg_value_i16, int16_t, LGG_VT_I16, *out = (int16_t)lgg__ld16(v->data, v->swap))
SCALAR_GETTER(lgg_value_u32, uint32_t, LGG_VT_U32, *out = lgg__ld32(v->data, v->swap))
SCALAR_GETTER(lgg_value_i32, int32_t, LGG_VT_I32, *out = (int32_t)lgg__ld32(v->data, v->swap))
SCALAR_GETTER(lgg_value_u64, uint64_t, LGG_VT_U64, *out = lgg__ld64(v->data, v->swap))
SCALAR_GETTER(lgg_value_i64, int64_t, LGG_VT_I64, *out = (int64_t)lgg__ld64(v->data, v->swap))
SCALAR_GETTER(lgg_value_bool, bool, LGG_VT_BOOL, *out = v->data[0] != 0)
SCALAR_GETTER(lgg_value_f32, float, LGG_VT_F32, { uint32_t w = lgg__ld32(v->data, v->swap); memcpy(out, &w, 4); })
SCALAR_GETTER(lgg_value_f64, double, LGG_VT_F64, { uint64_t w = lgg__ld64(v->data, v->swap); memcpy(out, &w, 8); })

lgg_status lgg_value_string(const lgg_value *v, lgg_str *out) {
    if (!v || !out) return LGG_ERR_ARG;
    if (v->type != LGG_VT_STRING) return LGG_ERR_TYPE;
    out->ptr = (const char *)v->data;
    out->len = v->count;
    return LGG_OK;
}

/* Signed view of any integer value; *is_unsigned_big set for u64 > INT64_MAX. */
static lgg_status int_of(const lgg_value *v, int64_t *s, uint64_t *u, bool *neg) {
    switch (v->type) {
    case LGG_VT_U8: *u = v->data[0]; *neg = false; break;
    case LGG_VT_U16: *u = lgg__ld16(v->data, v->swap); *neg = false; break;
    case LGG_VT_U32: *u = lgg__ld32(v->data, v->swap); *neg = false; break;
    case LGG_VT_U64: *u = lgg__ld64(v->data, v->swap); *neg = false; break;
    case LGG_VT_I8: *s = (int8_t)v->data[0]; goto sgn;
    case LGG_VT_I16: *s = (int16_t)lgg__ld16(v->data, v->swap); goto sgn;
    case LGG_VT_I32: *s = (int32_t)lgg__ld32(v->data, v->swap); goto sgn;
    case LGG_VT_I64: *s = (int64_t)lgg__ld64(v->data, v->swap); goto sgn;
    default: return LGG_ERR_TYPE;
    }
    *s = (int64_t)*u;
    return LGG_OK;
sgn:
    *neg = *s < 0;
    *u = (uint64_t)*s;
    return LGG_OK;
}

lgg_status lgg_value_uint(const lgg_value *v, uint64_t *out) {
    if (!v || !out) return LGG_ERR_ARG;
    int64_t s;
    uint64_t u;
    bool neg;
    lgg_status st = int_of(v, &s, &u, &neg);
    if (st) return st;
    if (neg) return LGG_ERR_RANGE;
    *out = u;
    return LGG_OK;
}

lgg_status lgg_value_int(const lgg_value *v, int64_t *out) {
    if (!v || !out) return LGG_ERR_ARG;
    int64_t s;
    uint64_t u;
    bool neg;
    lgg_status st = int_of(v, &s, &u, &neg);
    if (st) return st;
    if (!neg && u > (uint64_t)INT64_MAX) return LGG_ERR_RANGE;
    *out = neg ? s : (int64_t)u;
    return LGG_OK;
}

lgg_status lgg_value_float(const lgg_value *v, double *out) {
    if (!v || !out) return LGG_ERR_ARG;
    if (v->type == LGG_VT_F32) {
        float x;
        lgg_value_f32(v, &x);
        *out = x;
        return LGG_OK;
    }
    if (v->type == LGG_VT_F64) return lgg_value_f64(v, out);
    int64_t s;
    uint64_t u;
    bool neg;
    lgg_status st = int_of(v, &s, &u, &neg);
    if (st) return st;
    *out = neg ? (double)s : (double)u;
    return LGG_OK;
}

/* ---- arrays ---- */

/* Size in bytes of the element starting at p (which the open checked). */
static uint64_t elem_size(uint32_t et, const uint8_t *p, bool swap, uint8_t lw) {
    size_t sz = lgg_vtype_size(et);
    if (sz) return sz;
    if (et == LGG_VT_STRING) return lw + (lw == 4 ? lgg__ld32(p, swap) : lgg__ld64(p, swap));
    /* a nested array: walk it (iteratively, with its own small stack) */
    uint64_t pos = 0;
    struct { uint32_t et; uint64_t left; } st[80];
    uint32_t sp = 0;
    uint32_t cet = lgg__ld32(p, swap);
    uint64_t cnt = lw == 4 ? lgg__ld32(p + 4, swap) : lgg__ld64(p + 4, swap);
    pos = 4 + lw;
    st[sp].et = cet;
    st[sp].left = cnt;
    sp++;
    while (sp) {
        if (st[sp - 1].left == 0) {
            sp--;
            continue;
        }
        uint32_t e = st[sp - 1].et;
        size_t s = lgg_vtype_size(e);
        if (s) {
            pos += st[sp - 1].left * s;
            st[sp - 1].left = 0;
        } else if (e == LGG_VT_STRING) {
            for (; st[sp - 1].left; st[sp - 1].left--)
                pos += lw + (lw == 4 ? lgg__ld32(p + pos, swap) : lgg__ld64(p + pos, swap));
        } else {
            st[sp - 1].left--;
            if (sp >= 80) return pos; /* cannot happen: open caps depth at 64 */
            st[sp].et = lgg__ld32(p + pos, swap);
            st[sp].left = lw == 4 ? lgg__ld32(p + pos + 4, swap) : lgg__ld64(p + pos + 4, swap);
            pos += 4 + lw;
            sp++;
        }
    }
    return pos;
}

/* Make a value view of the element at byte `pos` of array `a`. */
static void elem_view(const lgg_value *a, uint64_t pos, lgg_value *e) {
    const uint8_t *p = a->data + pos;
    uint32_t et = a->elem_type;
    e->type = et;
    e->elem_type = 0;
    e->swap = a->swap;
    e->len_width = a->len_width;
    size_t sz = lgg_vtype_size(et);
    uint8_t lw = a->len_width;
    if (sz) {
        e->count = 1;
        e->data = p;
        e->size = sz;
        e->offset = a->offset + pos;
    } else if (et == LGG_VT_STRING) {
        e->count = lw == 4 ? lgg__ld32(p, a->swap) : lgg__ld64(p, a->swap);
        e->data = p + lw;
        e->size = e->count;
        e->offset = a->offset + pos + lw;
    } else {
        e->elem_type = lgg__ld32(p, a->swap);
        e->count = lw == 4 ? lgg__ld32(p + 4, a->swap) : lgg__ld64(p + 4, a->swap);
        e->data = p + 4 + lw;
        e->offset = a->offset + pos + 4 + lw;
        e->size = elem_size(et, p, a->swap, lw) - 4 - lw;
    }
}

lgg_status lgg_array_get(const lgg_value *arr, uint64_t i, lgg_value *elem) {
    if (!arr || !elem) return LGG_ERR_ARG;
    if (arr->type != LGG_VT_ARRAY) return LGG_ERR_TYPE;
    if (i >= arr->count) return LGG_ERR_RANGE;
    size_t sz = lgg_vtype_size(arr->elem_type);
    if (sz) {
        elem_view(arr, i * sz, elem);
        return LGG_OK;
    }
    uint64_t pos = 0;
    for (uint64_t k = 0; k < i; k++) pos += elem_size(arr->elem_type, arr->data + pos, arr->swap, arr->len_width);
    elem_view(arr, pos, elem);
    return LGG_OK;
}

void lgg_array_iter(const lgg_value *arr, lgg_iter *it) {
    if (!it) return;
    memset(it, 0, sizeof *it);
    if (arr && arr->type == LGG_VT_ARRAY) it->arr = *arr;
}

bool lgg_iter_next(lgg_iter *it, lgg_value *elem) {
    if (!it || !elem || it->arr.type != LGG_VT_ARRAY || it->index >= it->arr.count) return false;
    elem_view(&it->arr, it->pos, elem);
    it->pos += elem_size(it->arr.elem_type, it->arr.data + it->pos, it->arr.swap, it->arr.len_width);
    it->index++;
    return true;
}

/* ---- derived facts ---- */

uint64_t lgg_parameter_count(const lgg_file *f) {
    uint64_t n = 0;
    if (!f) return 0;
    for (uint64_t i = 0; i < f->n_tensors; i++)
        if (f->tensors[i].type_known) n += f->tensors[i].n_elements;
    return n;
}

/* The naming convention's size label, computed as gguf-py does: scale to
 * T/B/M/K and keep at least two significant digits ("1.1B", "13B", "840M"). */
static size_t label_of(uint64_t n, char *buf, size_t cap) {
    double v = (double)n;
    char suffix;
    if (v >= 1e12) v *= 1e-12, suffix = 'T';
    else if (v >= 1e9) v *= 1e-9, suffix = 'B';
    else if (v >= 1e6) v *= 1e-6, suffix = 'M';
    else v *= 1e-3, suffix = 'K';
    char digits[64];
    snprintf(digits, sizeof digits, "%.0f", nearbyint(v));
    const char *d = digits;
    while (*d == '0') d++;
    int fix = 2 - (int)strlen(d);
    if (fix < 0) fix = 0;
    int w = snprintf(buf, cap, "%.*f%c", fix, v, suffix);
    return w < 0 ? 0 : (size_t)w;
}

size_t lgg_size_label(uint64_t n_params, uint32_t expert_count, char *buf, size_t cap) {
    char tmp[64];
    size_t w;
    if (expert_count > 1) {
        int p = snprintf(tmp, 24, "%ux", expert_count);
        w = (size_t)p + label_of(n_params, tmp + p, sizeof tmp - (size_t)p);
    } else {
        w = label_of(n_params, tmp, sizeof tmp);
    }
    if (buf && cap > w) memcpy(buf, tmp, w + 1);
    else if (buf && cap) buf[0] = 0;
    return w;
}

const char *lgg_file_type_name(uint32_t ft) {
    static const char *const N[] = {
        [0] = "ALL_F32",          [1] = "MOSTLY_F16",      [2] = "MOSTLY_Q4_0",     [3] = "MOSTLY_Q4_1",
        [4] = "MOSTLY_Q4_1_SOME_F16", [7] = "MOSTLY_Q8_0", [8] = "MOSTLY_Q5_0",     [9] = "MOSTLY_Q5_1",
        [10] = "MOSTLY_Q2_K",     [11] = "MOSTLY_Q3_K_S",  [12] = "MOSTLY_Q3_K_M",  [13] = "MOSTLY_Q3_K_L",
        [14] = "MOSTLY_Q4_K_S",   [15] = "MOSTLY_Q4_K_M",  [16] = "MOSTLY_Q5_K_S",  [17] = "MOSTLY_Q5_K_M",
        [18] = "MOSTLY_Q6_K",     [19] = "MOSTLY_IQ2_XXS", [20] = "MOSTLY_IQ2_XS",  [21] = "MOSTLY_Q2_K_S",
        [22] = "MOSTLY_IQ3_XS",   [23] = "MOSTLY_IQ3_XXS", [24] = "MOSTLY_IQ1_S",   [25] = "MOSTLY_IQ4_NL",
        [26] = "MOSTLY_IQ3_S",    [27] = "MOSTLY_IQ3_M",   [28] = "MOSTLY_IQ2_S",   [29] = "MOSTLY_IQ2_M",
        [30] = "MOSTLY_IQ4_XS",   [31] = "MOSTLY_IQ1_M",   [32] = "MOSTLY_BF16",    [36] = "MOSTLY_TQ1_0",
        [37] = "MOSTLY_TQ2_0",    [38] = "MOSTLY_MXFP4_MOE",
    };
    return ft < sizeof N / sizeof N[0] ? N[ft] : NULL;
}

void lgg__file_release(const lgg_file *f, const void *p, uint64_t n) {
    if (!f || !f->map || !p) return;
    const uintptr_t m0 = (uintptr_t)f->map, m1 = m0 + f->map_len, a = (uintptr_t)p;
    if (a < m0 || a > m1 || n > m1 - a) return;
    const long ps = sysconf(_SC_PAGESIZE);
    if (ps <= 0) return;
    const uintptr_t pg = (uintptr_t)ps, b0 = (a + pg - 1) / pg * pg, b1 = (a + (uintptr_t)n) / pg * pg;
    if (b1 > b0) madvise((void *)b0, b1 - b0, MADV_DONTNEED);
}

uint64_t lgg__key_offset(const lgg_file *f, const char *key, size_t len) {
    int64_t i = lgg_find_key(f, key, len);
    return i < 0 ? LGG_NO_OFFSET : f->kv[i].offset;
}
