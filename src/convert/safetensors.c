/* safetensors.c -- bounded reader for the safetensors format: an 8-byte
 * little-endian header length, a JSON header mapping tensor names to
 * {dtype, shape, data_offsets}, then the data.  Nothing the header claims is
 * trusted before it is checked against the real file size. */
#include "cv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A header larger than this is refused before it is parsed: real headers
 * are a few hundred bytes per tensor, and jansson builds a tree from it. */

struct lgg_safetensors {
    const uint8_t *bytes;
    uint64_t size;
    void *map; /* set when lgg_st_open mapped the file */
    uint8_t *head; /* lgg__st_parse_head's buffer: the header alone (owned) */
    size_t n;
    lgg_st_tensor *t;
    char *names; /* the names, NUL-terminated, one block */
};

static int dtype_of(const char *s, uint32_t *type, uint32_t *esize) {
    if (!strcmp(s, "F32")) *type = LGG_TYPE_F32, *esize = 4;
    else if (!strcmp(s, "F16")) *type = LGG_TYPE_F16, *esize = 2;
    else if (!strcmp(s, "BF16")) *type = LGG_TYPE_BF16, *esize = 2;
    else if (!strcmp(s, "BOOL")) *type = LGG_TYPE_I8, *esize = 1; /* read only to be skipped (GPT-NeoX's mask) */
    else if (!strcmp(s, "U8")) *type = LGG_TYPE_I8, *esize = 1;   /* bytes: gpt-oss's MXFP4 blocks and scales */
    else if (!strcmp(s, "I64")) *type = LGG_TYPE_I64, *esize = 8; /* read only to be skipped (Gemma 4 assistants' token ordering) */
    else if (!strcmp(s, "F8_E4M3")) *type = LGG_ST_F8_E4M3, *esize = 1; /* block-scaled FP8 checkpoints (fp8.c) */
    else return 0;
    return 1;
}

static int by_name(const void *a, const void *b) {
    const lgg_st_tensor *x = a, *y = b;
    size_t n = x->name.len < y->name.len ? x->name.len : y->name.len;
    int c = memcmp(x->name.ptr, y->name.ptr, n);
    if (c) return c;
    return (x->name.len > y->name.len) - (x->name.len < y->name.len);
}

static int by_offset(const void *a, const void *b) {
    const lgg_st_tensor *x = *(const lgg_st_tensor *const *)a, *y = *(const lgg_st_tensor *const *)b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

static int u64_of(const json_t *v, uint64_t *out) {
    if (!json_is_integer(v) || json_integer_value(v) < 0) return 0;
    *out = (uint64_t)json_integer_value(v);
    return 1;
}

/* One header entry into *t; `data_size` bounds the offsets, which become
 * absolute with `base`. */
static lgg_status entry(const char *label, const char *name, const json_t *e, uint64_t base, uint64_t data_size,
                        lgg_st_tensor *t, lgg_error *err) {
    const json_t *dt = json_object_get(e, "dtype"), *sh = json_object_get(e, "shape"),
                 *off = json_object_get(e, "data_offsets");
    if (!json_is_object(e) || !json_is_string(dt) || !json_is_array(sh) || !json_is_array(off) ||
        json_array_size(off) != 2)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': header entry needs dtype, shape and two data_offsets",
                            label, name);
    uint32_t esize = 0;
    if (!dtype_of(json_string_value(dt), &t->dtype, &esize))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': unsupported dtype '%s' (F32, F16, BF16, F8_E4M3, BOOL and U8 are read)",
                            label, name, json_string_value(dt));
    if (json_array_size(sh) > LGG_ST_MAX_DIMS)
        return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: tensor '%s': %zu dimensions (at most %d)", label, name,
                            json_array_size(sh), LGG_ST_MAX_DIMS);
    t->n_dims = (uint32_t)json_array_size(sh);
    uint64_t bytes = esize;
    for (uint32_t d = 0; d < t->n_dims; d++) {
        if (!u64_of(json_array_get(sh, d), &t->shape[d]))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': shape[%u] is not a non-negative integer", label,
                                name, d);
        if (t->shape[d] && bytes > UINT64_MAX / t->shape[d])
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': shape overflows", label, name);
        bytes *= t->shape[d];
    }
    uint64_t b, e2;
    if (!u64_of(json_array_get(off, 0), &b) || !u64_of(json_array_get(off, 1), &e2) || b > e2)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': bad data_offsets", label, name);
    if (e2 > data_size)
        return lgg__cv_fail(err, LGG_ERR_TENSOR_BOUNDS,
                            "%s: tensor '%s': data_offsets [%llu, %llu) lie outside the %llu data bytes", label, name,
                            (unsigned long long)b, (unsigned long long)e2, (unsigned long long)data_size);
    if (e2 - b != bytes)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %llu data bytes, but dtype x shape needs %llu",
                            label, name, (unsigned long long)(e2 - b), (unsigned long long)bytes);
    t->offset = base + b;
    t->size = bytes;
    return LGG_OK;
}

static lgg_status check_overlap(const char *label, lgg_safetensors *s, lgg_error *err) {
    if (s->n < 2) return LGG_OK;
    const lgg_st_tensor **v = malloc(s->n * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", label);
    for (size_t i = 0; i < s->n; i++) v[i] = &s->t[i];
    qsort(v, s->n, sizeof *v, by_offset);
    lgg_status st = LGG_OK;
    for (size_t i = 1; i < s->n && st == LGG_OK; i++)
        if (v[i]->offset < v[i - 1]->offset + v[i - 1]->size)
            st = lgg__cv_fail(err, LGG_ERR_TENSOR_OVERLAP, "%s: tensors '%.*s' and '%.*s' overlap", label,
                              (int)v[i - 1]->name.len, v[i - 1]->name.ptr, (int)v[i]->name.len, v[i]->name.ptr);
    free(v);
    return st;
}

static lgg_status fill(lgg_safetensors *s, const char *label, json_t *root, uint64_t base, lgg_error *err) {
    size_t n = 0, nbytes = 0;
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) {
        if (strcmp(k, "__metadata__")) n++, nbytes += strlen(k) + 1;
    }
    s->t = calloc(n ? n : 1, sizeof *s->t);
    s->names = malloc(nbytes ? nbytes : 1);
    if (!s->t || !s->names) return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", label);
    char *p = s->names;
    json_object_foreach(root, k, v) {
        if (!strcmp(k, "__metadata__")) continue;
        lgg_st_tensor *t = &s->t[s->n];
        lgg_status st = entry(label, k, v, base, s->size - base, t, err);
        if (st) return st;
        size_t l = strlen(k);
        memcpy(p, k, l + 1);
        t->name.ptr = p;
        t->name.len = l;
        p += l + 1;
        s->n++;
    }
    qsort(s->t, s->n, sizeof *s->t, by_name);
    for (size_t i = 1; i < s->n; i++)
        if (!by_name(&s->t[i - 1], &s->t[i]))
            return lgg__cv_fail(err, LGG_ERR_TENSOR_DUP, "%s: tensor '%s' appears twice", label, s->t[i].name.ptr);
    return check_overlap(label, s, err);
}

static lgg_status parse_into(lgg_safetensors *s, const char *label, lgg_error *err) {
    if (s->size < 8) return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "%s: %llu bytes, shorter than the 8-byte header length",
                                         label, (unsigned long long)s->size);
    uint64_t hl = 0;
    for (int i = 7; i >= 0; i--) hl = hl << 8 | s->bytes[i];
    if (hl > s->size - 8)
        return lgg__cv_fail(err, LGG_ERR_TRUNCATED, "%s: header length %llu runs past the end of the file (%llu bytes)",
                            label, (unsigned long long)hl, (unsigned long long)s->size);
    if (hl > ST_MAX_HEADER)
        return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: header of %llu bytes is larger than %u", label,
                            (unsigned long long)hl, ST_MAX_HEADER);
    json_error_t je;
    json_t *root = json_loadb((const char *)s->bytes + 8, (size_t)hl, JSON_REJECT_DUPLICATES, &je);
    if (!root) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: header: malformed JSON at byte %d: %s", label,
                                   je.position, je.text);
    lgg_status st = json_is_object(root) ? fill(s, label, root, 8 + hl, err)
                                         : lgg__cv_fail(err, LGG_ERR_INVALID, "%s: header is not a JSON object", label);
    json_decref(root);
    return st;
}

lgg_status lgg_st_parse(const void *data, uint64_t size, const char *label, lgg_safetensors **out, lgg_error *err) {
    if (!out || (!data && size)) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_st_parse: NULL argument");
    *out = NULL;
    lgg_safetensors *s = calloc(1, sizeof *s);
    if (!s) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    s->bytes = data;
    s->size = size;
    lgg_status st = parse_into(s, label ? label : "safetensors", err);
    if (st) {
        lgg_st_close(s);
        return st;
    }
    *out = s;
    return LGG_OK;
}

lgg_status lgg__st_parse_head(uint8_t *head, uint64_t file_size, const char *label, lgg_safetensors **out,
                              lgg_error *err) {
    *out = NULL;
    lgg_safetensors *s = calloc(1, sizeof *s);
    if (!s) {
        free(head);
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    s->bytes = s->head = head;
    s->size = file_size; /* parse_into reads no byte past the header it checked against this size */
    lgg_status st = parse_into(s, label, err);
    if (st) {
        lgg_st_close(s);
        return st;
    }
    *out = s;
    return LGG_OK;
}

lgg_status lgg_st_open(const char *path, lgg_safetensors **out, lgg_error *err) {
    if (!path || !out) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_st_open: NULL argument");
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return lgg__cv_fail(err, LGG_ERR_IO, "%s: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return lgg__cv_fail(err, LGG_ERR_IO, "%s: not a regular file", path);
    }
    void *map = NULL;
    if (sb.st_size > 0) {
        map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map == MAP_FAILED) {
            close(fd);
            return lgg__cv_fail(err, LGG_ERR_IO, "%s: mmap: %s", path, strerror(errno));
        }
        madvise(map, (size_t)sb.st_size, MADV_SEQUENTIAL); /* read once, front to back: more readahead */
    }
    close(fd);
    lgg_status st = lgg_st_parse(map, (uint64_t)sb.st_size, path, out, err);
    if (st) {
        if (map) munmap(map, (size_t)sb.st_size);
        return st;
    }
    (*out)->map = map;
    return LGG_OK;
}

void lgg_st_close(lgg_safetensors *s) {
    if (!s) return;
    if (s->map) munmap(s->map, (size_t)s->size);
    free(s->head);
    free(s->t);
    free(s->names);
    free(s);
}

size_t lgg_st_count(const lgg_safetensors *s) { return s ? s->n : 0; }
const lgg_st_tensor *lgg_st_at(const lgg_safetensors *s, size_t i) { return s && i < s->n ? &s->t[i] : NULL; }
const uint8_t *lgg_st_bytes(const lgg_safetensors *s) { return s ? s->bytes : NULL; }
