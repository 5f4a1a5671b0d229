/* cli.c -- helpers shared by the subcommands: opening with a diagnostic,
 * usage errors, and the JSON and text renderings of values. */
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

lgg_file *cli_open(const char *cmd, const char *path) {
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_open_file(path, NULL, &f, &e) != LGG_OK) {
        if (e.offset != LGG_NO_OFFSET)
            fprintf(stderr, "gguf %s: %s: %s [%s]\n", cmd, path, e.message, lgg_status_name(e.code));
        else
            fprintf(stderr, "gguf %s: %s: %s [%s]\n", cmd, path, e.message, lgg_status_name(e.code));
        return NULL;
    }
    return f;
}

int cli_is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gguf %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nusage: %s\n", usage);
    va_end(ap);
    return CLI_USAGE;
}

/* Shortest "%.*g" that reads back to the same value at the given width. */
static void fmt_shortest(char *buf, size_t cap, double x, bool single) {
    if (isnan(x)) {
        snprintf(buf, cap, "nan");
        return;
    }
    if (isinf(x)) {
        snprintf(buf, cap, x < 0 ? "-inf" : "inf");
        return;
    }
    for (int p = 1; p <= (single ? 9 : 17); p++) {
        snprintf(buf, cap, "%.*g", p, x);
        if (single ? strtof(buf, NULL) == (float)x : strtod(buf, NULL) == x) return;
    }
}

void cli_fmt_f32(char *buf, size_t cap, float x) { fmt_shortest(buf, cap, x, true); }
void cli_fmt_f64(char *buf, size_t cap, double x) { fmt_shortest(buf, cap, x, false); }

void cli_fmt_bytes(char *buf, size_t cap, uint64_t n) {
    static const char *const U[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 5) v /= 1024, u++;
    if (u == 0) snprintf(buf, cap, "%llu B", (unsigned long long)n);
    else snprintf(buf, cap, "%.2f %s", v, U[u]);
}

void cli_fmt_shape(char *buf, size_t cap, const lgg_tensor *t) {
    size_t o = 0;
    o += (size_t)snprintf(buf + o, cap - o, "[");
    uint32_t nd = t->n_dims ? t->n_dims : 1;
    for (uint32_t d = 0; d < nd && o < cap; d++)
        o += (size_t)snprintf(buf + o, cap - o, "%s%lld", d ? ", " : "", (long long)t->ne[d]);
    if (o < cap) snprintf(buf + o, cap - o, "]");
}

const char *cli_type_name(uint32_t type) {
    static __thread char b[32];
    const lgg_type_info *ti = lgg_type_get(type);
    if (ti) return ti->name;
    snprintf(b, sizeof b, "TYPE_%u", type);
    return b;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if invalid. */
static int utf8_seq(const unsigned char *s, uint64_t n) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    int need;
    uint32_t cp, min;
    if (c >= 0xC2 && c <= 0xDF) need = 1, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) need = 2, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, cp = c & 0x07, min = 0x10000;
    else return 0;
    if ((uint64_t)need >= n) return 0;
    for (int k = 1; k <= need; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return need + 1;
}

void cli_json_str(FILE *o, const char *str, uint64_t n) {
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', o);
    uint64_t i = 0, run = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
            i++;
            continue;
        }
        if (i > run) fwrite(s + run, 1, i - run, o);
        if (c == '"') fputs("\\\"", o), i++;
        else if (c == '\\') fputs("\\\\", o), i++;
        else if (c == '\n') fputs("\\n", o), i++;
        else if (c == '\t') fputs("\\t", o), i++;
        else if (c == '\r') fputs("\\r", o), i++;
        else if (c < 0x20) fprintf(o, "\\u%04x", c), i++;
        else {
            int k = utf8_seq(s + i, n - i);
            if (k) fwrite(s + i, 1, (size_t)k, o), i += (uint64_t)k;
            else fputs("\xEF\xBF\xBD", o), i++;
        }
        run = i;
    }
    if (i > run) fwrite(s + run, 1, i - run, o);
    fputc('"', o);
}

static void json_scalar(FILE *o, const lgg_value *v) {
    char b[64];
    switch (v->type) {
    case LGG_VT_F32: {
        float x;
        lgg_value_f32(v, &x);
        cli_fmt_f32(b, sizeof b, x);
        if (isnan(x) || isinf(x)) fprintf(o, "\"%s\"", b);
        else fputs(b, o);
        return;
    }
    case LGG_VT_F64: {
        double x;
        lgg_value_f64(v, &x);
        cli_fmt_f64(b, sizeof b, x);
        if (isnan(x) || isinf(x)) fprintf(o, "\"%s\"", b);
        else fputs(b, o);
        return;
    }
    case LGG_VT_BOOL: {
        bool x;
        lgg_value_bool(v, &x);
        fputs(x ? "true" : "false", o);
        return;
    }
    case LGG_VT_STRING: cli_json_str(o, (const char *)v->data, v->count); return;
    case LGG_VT_U64: {
        uint64_t x;
        lgg_value_u64(v, &x);
        fprintf(o, "%llu", (unsigned long long)x);
        return;
    }
    default: {
        int64_t x = 0;
        lgg_value_int(v, &x);
        fprintf(o, "%lld", (long long)x);
        return;
    }
    }
}

void cli_json_value(FILE *o, const lgg_value *v) {
    if (v->type != LGG_VT_ARRAY) {
        json_scalar(o, v);
        return;
    }
    /* arrays of arrays, walked with an explicit stack */
    lgg_iter st[72];
    int sp = 0;
    fprintf(o, "{\"type\": \"%s\", \"items\": [", lgg_vtype_name(v->elem_type));
    lgg_array_iter(v, &st[sp++]);
    lgg_value e;
    while (sp) {
        if (!lgg_iter_next(&st[sp - 1], &e)) {
            fputs("]}", o);
            sp--;
            continue;
        }
        if (st[sp - 1].index > 1) fputs(", ", o);
        if (e.type == LGG_VT_ARRAY && sp < 72) {
            fprintf(o, "{\"type\": \"%s\", \"items\": [", lgg_vtype_name(e.elem_type));
            lgg_array_iter(&e, &st[sp++]);
        } else {
            json_scalar(o, &e);
        }
    }
}

void cli_text_str(FILE *o, const char *str, uint64_t n, uint64_t max) {
    const unsigned char *s = (const unsigned char *)str;
    uint64_t lim = max && n > max ? max : n;
    fputc('"', o);
    for (uint64_t i = 0; i < lim; i++) {
        unsigned char c = s[i];
        if (c == '"') fputs("\\\"", o);
        else if (c == '\\') fputs("\\\\", o);
        else if (c == '\n') fputs("\\n", o);
        else if (c == '\t') fputs("\\t", o);
        else if (c == '\r') fputs("\\r", o);
        else if (c < 0x20 || c == 0x7f) fprintf(o, "\\x%02x", c);
        else fputc(c, o);
    }
    fputc('"', o);
    if (lim < n) fprintf(o, "... (%llu bytes)", (unsigned long long)n);
}

static void text_scalar(FILE *o, const lgg_value *v, uint64_t max_str) {
    if (v->type == LGG_VT_STRING) {
        cli_text_str(o, (const char *)v->data, v->count, max_str);
        return;
    }
    if (v->type == LGG_VT_F32 || v->type == LGG_VT_F64) {
        char b[64];
        double d;
        lgg_value_float(v, &d);
        if (v->type == LGG_VT_F32) cli_fmt_f32(b, sizeof b, (float)d);
        else cli_fmt_f64(b, sizeof b, d);
        fputs(b, o);
        return;
    }
    json_scalar(o, v);
}

void cli_text_value(FILE *o, const lgg_value *v, uint64_t max_items, uint64_t max_str) {
    if (v->type != LGG_VT_ARRAY) {
        text_scalar(o, v, max_str);
        return;
    }
    lgg_iter it;
    lgg_value e;
    lgg_array_iter(v, &it);
    fputc('[', o);
    uint64_t shown = 0;
    while (lgg_iter_next(&it, &e)) {
        if (max_items && shown == max_items) {
            fprintf(o, ", ... %llu more", (unsigned long long)(v->count - shown));
            break;
        }
        if (shown) fputs(", ", o);
        cli_text_value(o, &e, max_items, max_str);
        shown++;
    }
    fputc(']', o);
}
