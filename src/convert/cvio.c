/* cvio.c -- small helpers of the converter part: paths, JSON files,
 * half-precision rounding as numpy does it. */
#include "cvint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

char *lgg__cv_path(const char *dir, const char *name) {
    size_t a = strlen(dir), b = strlen(name);
    char *p = malloc(a + b + 2);
    if (!p) return NULL;
    memcpy(p, dir, a);
    size_t n = a;
    if (n && p[n - 1] != '/') p[n++] = '/';
    memcpy(p + n, name, b + 1);
    return p;
}

int lgg__cv_exists(const lgg_convert *c, const char *name, uint64_t *size) {
    uint64_t sz = 0;
    int ok = 0;
    if (c->has_io) {
        const char *f;
        for (size_t i = 0; !ok && (f = c->io.file_at(c->io.ud, i, &sz)) != NULL; i++) ok = !strcmp(f, name);
    } else {
        char *p = lgg__cv_path(c->dir, name);
        struct stat sb;
        ok = p && stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
        sz = ok ? (uint64_t)sb.st_size : 0;
        free(p);
    }
    if (size) *size = sz;
    return ok;
}

lgg_status lgg__cv_pread(lgg_convert *c, const char *name, uint64_t off, void *dst, size_t n, lgg_error *err) {
    if (c->has_io) return c->io.read(c->io.ud, name, off, dst, n, err);
    char *p = lgg__cv_path(c->dir, name);
    if (!p) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    lgg_status st = fd < 0 ? lgg__cv_fail(err, LGG_ERR_IO, "%s: %s", p, strerror(errno)) : LGG_OK;
    for (size_t got = 0; !st && got < n;) { /* jansson's own reader of a descriptor makes a call per byte */
        ssize_t r = pread(fd, (char *)dst + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) st = lgg__cv_fail(err, LGG_ERR_IO, "%s: %s", p, r < 0 ? strerror(errno) : "changed while read");
        else got += (size_t)r;
    }
    if (fd >= 0) close(fd);
    free(p);
    return st;
}

lgg_status lgg__cv_load(lgg_convert *c, const char *name, uint64_t max, char **out, size_t *n, lgg_error *err) {
    uint64_t size = 0;
    *out = NULL;
    if (!lgg__cv_exists(c, name, &size)) {
        char *p = lgg__cv_path(c->dir, name);
        lgg_status st = lgg__cv_fail(err, LGG_ERR_IO, "%s: %s", p ? p : name, strerror(ENOENT));
        free(p);
        return st;
    }
    *n = (size_t)size;
    if (size > max || size > SIZE_MAX - 1) return LGG_OK;
    char *b = malloc((size_t)size + 1);
    if (!b) {
        char *p = lgg__cv_path(c->dir, name);
        lgg_status st = lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory reading its %llu bytes", p ? p : name,
                                     (unsigned long long)size);
        free(p);
        return st;
    }
    lgg_status st = lgg__cv_pread(c, name, 0, b, (size_t)size, err);
    if (st) {
        free(b);
        return st;
    }
    b[size] = 0;
    *out = b;
    return LGG_OK;
}

json_t *lgg__cv_first_key(const json_t *obj, const char *keys, char *which, size_t cap) {
    for (const char *p = keys; *p;) {
        const char *bar = strchr(p, '|');
        size_t l = bar ? (size_t)(bar - p) : strlen(p);
        snprintf(which, cap, "%.*s", (int)l, p);
        json_t *v = json_object_getn(obj, p, l);
        if (v && !json_is_null(v)) return v;
        p += l + (bar != NULL);
    }
    return NULL;
}

int64_t lgg__cv_hparam_int(const lgg_convert *c, const char *key, int64_t dflt) {
    json_t *v = json_object_get(c->config, key);
    if (json_is_integer(v)) return json_integer_value(v);
    /* an integral real within int64_t's range (casting one beyond it is undefined) */
    if (json_is_real(v) && json_real_value(v) >= -9.2e18 && json_real_value(v) <= 9.2e18 &&
        json_real_value(v) == (double)(int64_t)json_real_value(v))
        return (int64_t)json_real_value(v);
    return dflt;
}

static lgg_status json_value(lgg_convert *c, const char *name, int required, json_t **out, int *as_reals,
                             lgg_error *err);
static lgg_status json_object_of(lgg_convert *c, const char *name, int required, json_t **out, int *as_reals,
                                 lgg_error *err);

lgg_status lgg__cv_json(lgg_convert *c, const char *name, int required, json_t **out, lgg_error *err) {
    return json_object_of(c, name, required, out, NULL, err);
}

lgg_status lgg__cv_tokenizer_json(lgg_convert *c, int required, json_t **out, lgg_error *err) {
    *out = NULL;
    if (!c->tokenizer_json_read) {
        lgg_status st = json_object_of(c, "tokenizer.json", required, &c->tokenizer_json, &c->tokenizer_json_reals, err);
        if (st) return st;
        c->tokenizer_json_read = 1;
    }
    if (!c->tokenizer_json && required) return lgg__cv_json(c, "tokenizer.json", 1, out, err); /* its error */
    *out = json_incref(c->tokenizer_json);
    return LGG_OK;
}

lgg_status lgg__cv_note_input(lgg_convert *c, const char *path, lgg_error *err) {
    char **v = realloc(c->inputs, (c->n_inputs + 1) * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->inputs = v;
    if (!(v[c->n_inputs] = strdup(path))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->n_inputs++;
    return LGG_OK;
}

/* The most bytes DIR/NAME may have: jansson takes about twenty times a
 * file's size in memory, so each JSON input is bounded (docs/convert.md,
 * SECURITY.md); the caller's max_json_size replaces every default. */
static uint64_t json_cap(const lgg_convert *c, const char *name) {
    if (c->max_json) return c->max_json;
    if (!strcmp(name, "config.json")) return LGG_CONVERT_MAX_CONFIG_JSON;
    if (!strcmp(name, "tokenizer.json")) return LGG_CONVERT_MAX_TOKENIZER_JSON;
    return LGG_CONVERT_MAX_OTHER_JSON; /* tokenizer_config.json, the index, added_tokens.json */
}

/* lgg__cv_json, with json_value's as_reals */
static lgg_status json_object_of(lgg_convert *c, const char *name, int required, json_t **out, int *as_reals,
                                 lgg_error *err) {
    lgg_status st = json_value(c, name, required, out, as_reals, err);
    if (st || !*out || json_is_object(*out)) return st;
    json_decref(*out);
    *out = NULL;
    char *p = lgg__cv_path(c->dir, name);
    st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: not a JSON object", p ? p : name);
    free(p);
    return st;
}

/* Python's json module reads integers of any size; jansson refuses those
 * beyond 64 bits (tokenizer_config.json's model_max_length is 1e30), so such
 * a file is read again with every integer as a real. */
lgg_status lgg__cv_json_value(lgg_convert *c, const char *name, int required, json_t **out, lgg_error *err) {
    return json_value(c, name, required, out, NULL, err);
}

/* As lgg__cv_json_value; *as_reals (when not NULL) says the file was read
 * the second way, every integer a real. */
static lgg_status json_value(lgg_convert *c, const char *name, int required, json_t **out, int *as_reals,
                             lgg_error *err) {
    *out = NULL;
    if (as_reals) *as_reals = 0;
    if (!required && !lgg__cv_exists(c, name, NULL)) return LGG_OK;
    char *p = lgg__cv_path(c->dir, name), *text = NULL;
    if (!p) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    size_t size = 0;
    json_t *j = NULL;
    lgg_status st = lgg__cv_load(c, name, json_cap(c, name), &text, &size, err);
    if (!st && !text) {
        st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: %llu bytes, more than the %llu this file may have (--max-json-size)",
                          p, (unsigned long long)size, (unsigned long long)json_cap(c, name));
    } else if (!st && !(st = lgg__cv_note_input(c, p, err))) {
        json_error_t je;
        j = json_loadb(text, size, 0, &je);
        if (!j && strstr(je.text, "too big")) {
            j = json_loadb(text, size, JSON_DECODE_INT_AS_REAL, &je);
            if (as_reals) *as_reals = 1;
        }
        /* jansson leaves the error as it began (line -1, no text) when an
         * allocation fails while it builds a value */
        if (!j && (json_error_code(&je) == json_error_out_of_memory || (je.line == -1 && !je.text[0])))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory reading its %llu bytes of JSON", p,
                              (unsigned long long)size);
        else if (!j)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: malformed JSON at line %d, column %d: %s", p, je.line,
                              je.column, je.text);
    }
    free(p);
    free(text);
    if (st) {
        json_decref(j);
        return st;
    }
    *out = j;
    return LGG_OK;
}

/* numpy's float32 -> float16: round to nearest even; a NaN keeps the top
 * bits of its payload (at least one set), unlike ggml's fixed quiet NaN. */
uint16_t lgg__cv_f32_to_f16(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        uint16_t h = (uint16_t)(0x7c00u + ((u & 0x007fffffu) >> 13));
        if (h == 0x7c00u) h++;
        return (uint16_t)(((u >> 16) & 0x8000u) | h);
    }
    return lgg_f32_to_f16(f);
}

lgg_status lgg__cv_src_bytes(struct lgg_convert *c, uint32_t s, const lgg_st_tensor *src, const uint8_t **p, void **owned,
                             lgg_error *err) {
    *owned = NULL, *p = NULL;
    if (!c->has_io) return *p = lgg_st_bytes(c->shards[s]) + src->offset, LGG_OK;
    if (src->size > SIZE_MAX || !(*owned = malloc(src->size ? (size_t)src->size : 1)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory reading '%s'", c->shard_names[s], src->name.ptr);
    lgg_status st = lgg__cv_pread(c, c->shard_names[s], src->offset, *owned, (size_t)src->size, err);
    if (st) free(*owned), *owned = NULL;
    else *p = *owned;
    return st;
}

/* A shard read through the io: its header alone (lgg__st_parse_head), its
 * tensors' data later, by data.c's windows. */
lgg_status lgg__cv_st_open_io(lgg_convert *c, const char *name, lgg_safetensors **out, lgg_error *err) {
    uint64_t size = 0, hl = 0;
    uint8_t len[8];
    char *label = lgg__cv_path(c->dir, name);
    if (!label) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg__cv_exists(c, name, &size);
    lgg_status st = size >= 8 ? lgg__cv_pread(c, name, 0, len, 8, err) : LGG_OK;
    for (int i = 7; i >= 0 && size >= 8; i--) hl = hl << 8 | len[i];
    /* only a header that parse_into will accept is read; it refuses the others by their length */
    uint64_t take = size >= 8 && hl <= size - 8 && hl <= ST_MAX_HEADER ? 8 + hl : 8;
    uint8_t *head = st ? NULL : malloc((size_t)take);
    if (!st && !head) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", label);
    if (!st) memcpy(head, len, size >= 8 ? 8 : 0);
    if (!st && take > 8) st = lgg__cv_pread(c, name, 8, head + 8, (size_t)(take - 8), err);
    if (!st) st = lgg__st_parse_head(head, size, label, out, err);
    else free(head);
    free(label);
    return st;
}

lgg_status lgg__cv_open_extra_shard(lgg_convert *c, const char *name, uint32_t *index, lgg_error *err) {
    size_t n = c->n_shards + c->n_extra;
    char **names = n < UINT32_MAX ? realloc(c->shard_names, (n + 1) * sizeof *names) : NULL;
    if (names) c->shard_names = names;
    lgg_safetensors **sh = names ? realloc(c->shards, (n + 1) * sizeof *sh) : NULL;
    if (sh) c->shards = sh;
    if (!sh || !(c->shard_names[n] = strdup(name))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->shards[n] = NULL;
    c->n_extra++; /* freed with the others from here on */
    char *p = lgg__cv_path(c->dir, name);
    if (!p) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_status st = c->has_io ? lgg__cv_st_open_io(c, name, &c->shards[n], err) : lgg_st_open(p, &c->shards[n], err);
    if (!st) st = lgg__cv_note_input(c, p, err);
    free(p);
    *index = (uint32_t)n;
    return st;
}

lgg_status lgg__cv_span(struct lgg_convert *c, uint32_t sh, const lgg_st_tensor *src, uint64_t off, uint64_t n,
                        uint8_t **buf, const uint8_t **p, lgg_error *err) {
    if (!c->has_io) return *p = lgg_st_bytes(c->shards[sh]) + src->offset + off, LGG_OK;
    uint8_t *b = n <= SIZE_MAX ? realloc(*buf, n ? (size_t)n : 1) : NULL;
    if (!b) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory reading %s", c->shard_names[sh]);
    *buf = b, *p = b;
    return lgg__cv_pread(c, c->shard_names[sh], src->offset + off, b, (size_t)n, err);
}

int lgg__cv_may_write(const lgg_convert *c, const char *key) {
    uint32_t have;
    return c->master || lgg_writer_key_type(c->w, key, strlen(key), &have, NULL) != LGG_OK;
}

/* The family's own keys, <arch>.NAME: one writer for every family (a name
 * too long for the key buffer is refused, never cut). */
lgg_status lgg__cv_put_arch(lgg_convert *c, const char *name, const lgg_wvalue *v, lgg_error *err) {
    char key[192];
    int n = snprintf(key, sizeof key, "%s.%s", c->fam->arch, name);
    if (n < 0 || (size_t)n >= sizeof key) return lgg__cv_fail(err, LGG_ERR_LIMIT, "metadata key '%s.%s' is too long", c->fam->arch, name);
    if (lgg_writer_set(c->w, key, (size_t)n, v, NULL)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key);
    return LGG_OK;
}

lgg_status lgg__cv_put_arch_u32(lgg_convert *c, const char *name, uint32_t v, lgg_error *err) {
    lgg_wvalue w = {LGG_VT_U32, 0, 1, &v};
    return lgg__cv_put_arch(c, name, &w, err);
}

lgg_status lgg__cv_put_arch_f32(lgg_convert *c, const char *name, double v, lgg_error *err) {
    float f = (float)v;
    lgg_wvalue w = {LGG_VT_F32, 0, 1, &f};
    return lgg__cv_put_arch(c, name, &w, err);
}

lgg_status lgg__cv_put_arch_array(lgg_convert *c, const char *name, uint32_t elem_type, const void *v, size_t n,
                                  lgg_error *err) {
    lgg_wvalue w = {LGG_VT_ARRAY, elem_type, n, v};
    return lgg__cv_put_arch(c, name, &w, err);
}

lgg_status lgg__cv_put_arch_bool(lgg_convert *c, const char *name, int v, lgg_error *err) {
    uint8_t b = v != 0;
    lgg_wvalue w = {LGG_VT_BOOL, 0, 1, &b};
    return lgg__cv_put_arch(c, name, &w, err);
}

lgg_status lgg__cv_put_arch_str(lgg_convert *c, const char *name, const char *v, lgg_error *err) {
    lgg_wvalue w = {LGG_VT_STRING, 0, strlen(v), v};
    return lgg__cv_put_arch(c, name, &w, err);
}
