/* cvio.c -- small helpers of the converter part: paths, JSON files,
 * half-precision rounding as numpy does it. */
#include "cvint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int lgg__cv_exists(const char *dir, const char *name) {
    char *p = lgg__cv_path(dir, name);
    struct stat sb;
    int ok = p && stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
    free(p);
    return ok;
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
    if (json_is_real(v) && json_real_value(v) == (double)(int64_t)json_real_value(v)) return (int64_t)json_real_value(v);
    return dflt;
}

lgg_status lgg__cv_tokenizer_json(lgg_convert *c, int required, json_t **out, lgg_error *err) {
    *out = NULL;
    if (!c->tokenizer_json_read) {
        lgg_status st = lgg__cv_json(c->dir, "tokenizer.json", required, &c->tokenizer_json, err);
        if (st) return st;
        c->tokenizer_json_read = 1;
    }
    if (!c->tokenizer_json && required) return lgg__cv_json(c->dir, "tokenizer.json", 1, out, err); /* its error */
    *out = json_incref(c->tokenizer_json);
    return LGG_OK;
}

/* Python's json module reads integers of any size; jansson refuses those
 * beyond 64 bits (tokenizer_config.json's model_max_length is 1e30), so such
 * a file is read again with every integer as a real. */
lgg_status lgg__cv_json(const char *dir, const char *name, int required, json_t **out, lgg_error *err) {
    lgg_status st = lgg__cv_json_value(dir, name, required, out, err);
    if (st || !*out || json_is_object(*out)) return st;
    json_decref(*out);
    *out = NULL;
    char *p = lgg__cv_path(dir, name);
    st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: not a JSON object", p ? p : name);
    free(p);
    return st;
}

lgg_status lgg__cv_json_value(const char *dir, const char *name, int required, json_t **out, lgg_error *err) {
    *out = NULL;
    if (!lgg__cv_exists(dir, name)) {
        if (!required) return LGG_OK;
        char *p = lgg__cv_path(dir, name);
        lgg_status st = lgg__cv_fail(err, LGG_ERR_IO, "%s: %s", p ? p : name, strerror(ENOENT));
        free(p);
        return st;
    }
    char *p = lgg__cv_path(dir, name);
    if (!p) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_error_t je;
    json_t *j = json_load_file(p, 0, &je);
    if (!j && strstr(je.text, "too big")) j = json_load_file(p, JSON_DECODE_INT_AS_REAL, &je);
    lgg_status st = LGG_OK;
    if (!j)
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: malformed JSON at line %d, column %d: %s", p, je.line, je.column,
                          je.text);
    free(p);
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
