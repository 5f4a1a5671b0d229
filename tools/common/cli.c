/* cli.c -- helpers shared by the subcommands: opening with a diagnostic,
 * usage errors, and the JSON and text renderings of values. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_open_fd(const char *cmd, const char *path) {
    int fd = cli_is_stdin(path) ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) cli_err(cmd, path, "%s", strerror(errno));
    else cli_input_add(path, fd, 1);
    return fd;
}

/* A regular file read with pread, for lgg_open_source. */
static lgg_status pread_all(void *ud, uint64_t off, void *dst, size_t n, lgg_error *e) {
    const int fd = (int)(intptr_t)ud;
    for (size_t done = 0; done < n;) {
        ssize_t r = pread(fd, (char *)dst + done, n - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0)
            return lgg_error_set(e, LGG_ERR_IO, off + done, "read: %s", r < 0 ? strerror(errno) : "the file shrank");
        done += (size_t)r;
    }
    return LGG_OK;
}

lgg_status cli_open_local(int fd, const lgg_open_options *o, int how, lgg_file **f, lgg_error *e, bool *header) {
    struct stat st;
    const bool reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    *header = false;
    if (!(how & CLI_OPEN_HEADER) || !reg) {
        lgg_status s = lgg_open_fd(fd, o, f, e);
        /* mapping the whole file failed (ulimit -v, a 32-bit address space):
         * the header is enough for a read-only command */
        if (s != LGG_ERR_IO || !reg) return s;
    }
    lgg_source src = {pread_all, (void *)(intptr_t)fd, (uint64_t)st.st_size, 0, 0};
    *header = true;
    return lgg_open_source(&src, o, f, e);
}

lgg_status cli_open_path(const char *path, const lgg_open_options *o, int how, lgg_file **f, lgg_error *e) {
    int fd = cli_is_stdin(path) ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return lgg_error_set(e, LGG_ERR_IO, LGG_NO_OFFSET, "cannot open: %s", strerror(errno));
    bool header = false;
    lgg_status st = cli_open_local(fd, o, how, f, e, &header);
    /* a file read through pread keeps its descriptor until the program
     * ends (its tensors are read when a command asks for them) */
    if (st != LGG_OK || !header) close(fd);
    return st;
}

/* A safetensors file: a little-endian u64 header size that fits, then '{'. */
static int is_safetensors(const char *path, uint64_t size) {
    unsigned char b[9];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    const int ok = pread(fd, b, sizeof b, 0) == (ssize_t)sizeof b;
    close(fd);
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = n << 8 | b[i];
    return ok && b[8] == '{' && n >= 2 && n <= size - 8;
}

int cli_path_kind(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return CLI_PATH_MISSING;
    if (S_ISDIR(st.st_mode)) {
        char cfg[4200];
        snprintf(cfg, sizeof cfg, "%s/config.json", path);
        return access(cfg, F_OK) == 0 ? CLI_PATH_CHECKPOINT : CLI_PATH_DIR;
    }
    return S_ISREG(st.st_mode) && st.st_size > 9 && is_safetensors(path, (uint64_t)st.st_size) ? CLI_PATH_SAFETENSORS
                                                                                           : CLI_PATH_OTHER;
}

int cli_hint_convert(const char *cmd, const char *path, const char *what) {
    const int k = cli_is_stdin(path) || cli_is_remote(path) ? CLI_PATH_OTHER : cli_path_kind(path);
    if (k == CLI_PATH_CHECKPOINT)
        cli_err(cmd, NULL, "%s is a Hugging Face checkpoint folder, not %s: convert it with `gguf convert %s`", path,
                what, path);
    if (k != CLI_PATH_SAFETENSORS) return k == CLI_PATH_CHECKPOINT;
    const char *slash = strrchr(path, '/');
    const int n = !slash ? 1 : slash == path ? 1 : (int)(slash - path);
    cli_err(cmd, NULL, "%s is a safetensors file, not %s: convert its checkpoint folder with `gguf convert %.*s`",
            path, what, n, slash ? path : ".");
    return 1;
}

/* The warnings for a file whose tensor data is short, the same for a file
 * on disk and one on a server. */
static void warn_short(const char *cmd, const char *path, lgg_file *f) {
    uint64_t want = lgg_file_expected_size(f), have = lgg_file_size(f);
    if (!lgg_tensor_count(f) || want <= have) return;
    if (lgg_file_metadata_only(f))
        cli_err(cmd, path, "warning: metadata only: no tensor data (a complete file has %llu bytes)",
                (unsigned long long)want);
    else
        cli_err(cmd, path, "warning: truncated: %llu bytes of %llu (%llu missing); tensor data is incomplete",
                (unsigned long long)have, (unsigned long long)want, (unsigned long long)(want - have));
}

lgg_file *cli_open(const char *cmd, const char *path, int how) {
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_open_options o;
    lgg_open_options_init(&o);
    if (how & CLI_OPEN_META) o.flags |= LGG_OPEN_ALLOW_MISSING_DATA;
    if ((how & CLI_OPEN_INSPECT) == CLI_OPEN_INSPECT) o.flags |= LGG_OPEN_ALLOW_BAD_LAYOUT;
    if (cli_is_remote(path)) {
        f = cli_remote_hooks_get()->open(cmd, path, &o);
    } else if (cli_open_path(path, &o, how, &f, &e) != LGG_OK) {
        if (!cli_hint_convert(cmd, path, "a GGUF file")) cli_err_lgg(cmd, path, &e);
        return NULL;
    }
    if (!cli_is_remote(path)) cli_input_add(path, cli_is_stdin(path) ? 0 : -1, 1);
    /* the header is shown; the error is what a data command fails with */
    if (f && lgg_file_layout_error(f, &e)) cli_err_lgg(cmd, path, &e);
    if (f && (how & CLI_OPEN_META)) warn_short(cmd, path, f);
    return f;
}

int cli_open_status(const lgg_file *f) { return lgg_file_layout_error(f, NULL) ? CLI_FAIL : CLI_OK; }

/* The shortest decimal that reads back to the same value (as Python's repr
 * and JavaScript find it), written without an exponent for magnitudes in
 * [1e-5, 1e16) and with ".0" on integral values, so a float never reads as
 * an integer; -0.0 keeps its sign.  numpy: without an exponent when the
 * value itself lies in [1e-4, 1e16) (so float32 1e-4, just below, is
 * "1e-04"). */
static void fmt_shortest(char *buf, size_t cap, double x, bool single, bool numpy) {
    if (isnan(x)) {
        snprintf(buf, cap, "nan");
        return;
    }
    if (isinf(x)) {
        snprintf(buf, cap, x < 0 ? "-inf" : "inf");
        return;
    }
    if (x == 0) {
        snprintf(buf, cap, signbit(x) ? "-0.0" : "0.0");
        return;
    }
    char e[64];
    for (int p = 1; p <= (single ? 9 : 17); p++) {
        snprintf(e, sizeof e, "%.*e", p - 1, x);
        if (single ? strtof(e, NULL) == (float)x : strtod(e, NULL) == x) break;
    }
    /* e is "-d.ddde+XX": split into sign, digits and exponent */
    const char *m = e;
    int neg = *m == '-';
    if (neg) m++;
    char dig[32];
    int nd = 0;
    for (; *m && *m != 'e'; m++)
        if (*m != '.' && nd < 31) dig[nd++] = *m;
    while (nd > 1 && dig[nd - 1] == '0') nd--;
    dig[nd] = 0;
    int ex = atoi(m + 1);
    size_t o = 0;
    char out[64];
    if (neg) out[o++] = '-';
    if (numpy ? fabs(x) < 1e-4 || fabs(x) >= 1e16 : ex < -5 || ex >= 16) {
        out[o++] = dig[0];
        if (nd > 1) {
            out[o++] = '.';
            for (int i = 1; i < nd; i++) out[o++] = dig[i];
        }
        snprintf(out + o, sizeof out - o, "e%c%02d", ex < 0 ? '-' : '+', ex < 0 ? -ex : ex);
    } else if (ex < 0) {
        out[o++] = '0', out[o++] = '.';
        for (int i = -1; i > ex; i--) out[o++] = '0';
        for (int i = 0; i < nd; i++) out[o++] = dig[i];
        out[o] = 0;
    } else {
        for (int i = 0; i <= ex; i++) out[o++] = i < nd ? dig[i] : '0';
        out[o++] = '.';
        if (nd > ex + 1)
            for (int i = ex + 1; i < nd; i++) out[o++] = dig[i];
        else out[o++] = '0';
        out[o] = 0;
    }
    snprintf(buf, cap, "%s", out);
}

void cli_fmt_f32(char *buf, size_t cap, float x) { fmt_shortest(buf, cap, x, true, false); }
void cli_fmt_f64(char *buf, size_t cap, double x) { fmt_shortest(buf, cap, x, false, false); }
void cli_fmt_numpy(char *buf, size_t cap, double x, bool single) { fmt_shortest(buf, cap, x, single, true); }

void cli_json_f64(FILE *o, double x) {
    char b[64];
    cli_fmt_f64(b, sizeof b, x);
    if (isnan(x) || isinf(x)) fprintf(o, "\"%s\"", b);
    else fputs(b, o);
}

void cli_json_shape(FILE *o, const lgg_tensor *t) {
    fputc('[', o);
    uint32_t nd = t->n_dims ? t->n_dims : 1;
    for (uint32_t d = 0; d < nd; d++) fprintf(o, "%s%lld", d ? ", " : "", (long long)t->ne[d]);
    fputc(']', o);
}

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
            uint32_t cp;
            size_t k = lgg_utf8_decode(s + i, n - i > SIZE_MAX ? SIZE_MAX : (size_t)(n - i), &cp);
            if (cp != LGG_UTF8_INVALID) fwrite(s + i, 1, k, o);
            else fputs("\xEF\xBF\xBD", o);
            i += k;
        }
        run = i;
    }
    if (i > run) fwrite(s + run, 1, i - run, o);
    fputc('"', o);
}

static void json_scalar(FILE *o, const lgg_value *v) {
    char b[64];
    switch (v->type) {
    case LGG_VT_F32:
    case LGG_VT_F64: {
        /* each width has its own shortest text; NaN and infinities are strings */
        double x;
        lgg_value_float(v, &x);
        if (v->type == LGG_VT_F32) cli_fmt_f32(b, sizeof b, (float)x);
        else cli_fmt_f64(b, sizeof b, x);
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

void cli_tensor_json(FILE *o, const lgg_tensor *t) {
    fputs("{\"name\": ", o);
    cli_json_str(o, t->name.ptr, t->name.len);
    fprintf(o, ", \"type\": \"%s\", \"shape\": ", cli_type_name(t->type));
    cli_json_shape(o, t);
    fprintf(o, ", \"offset\": %llu, \"size\": %llu}", (unsigned long long)t->offset, (unsigned long long)t->size);
}

int cli_flag_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    (void)val, (void)why, (void)cap;
    int *flags = ud;
    flags[id & 0xff] = 1;
    return 0;
}
