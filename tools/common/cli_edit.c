/* cli_edit.c -- shared by the editing subcommands (set, rm): open a file for
 * editing, parse TYPE:VALUE text into a metadata value, and commit the edit
 * (in place, or to -o OUT). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

void cli_warn_repeated(const char *cmd, const char *path, const lgg_kv *kv, int can_keep) {
    fprintf(stderr, "gguf %s: %s: warning: left out a repeated key '", cmd, cli_display_name(path));
    cli_text_name(stderr, kv->key);
    fprintf(stderr, "' (at byte %llu)%s\n", (unsigned long long)kv->offset,
            can_keep ? "; --keep-duplicates keeps it" : "");
}

lgg_writer *cli_writer_from_file(const char *cmd, const char *path, const lgg_file *f, int fd, int keep_dups,
                                 lgg_error *err) {
    lgg_writer *w = NULL;
    if (lgg_writer_from_file(f, fd, NULL, keep_dups ? LGG_FROM_FILE_KEEP_DUPLICATES : 0, &w, err) != LGG_OK)
        return NULL;
    /* ggml refuses a file with a repeated key: the output keeps the first */
    for (uint64_t i = 0; i < lgg_writer_dropped_count(w); i++)
        cli_warn_repeated(cmd, path, lgg_writer_dropped_at(w, i), 1);
    return w;
}

int cli_edit_open(const char *cmd, const char *path, int keep_dups, cli_edit *e) {
    memset(e, 0, sizeof *e);
    e->path = path;
    e->fd = cli_open_fd(cmd, path);
    if (e->fd < 0) return CLI_FAIL;
    lgg_error err;
    memset(&err, 0, sizeof err);
    if (lgg_open_fd(e->fd, NULL, &e->f, &err) != LGG_OK ||
        !(e->w = cli_writer_from_file(cmd, path, e->f, e->fd, keep_dups, &err))) {
        cli_err_lgg(cmd, path, &err);
        cli_edit_close(e);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* Bytes written so far by a whole-file rewrite, for its progress bar. */
typedef struct rewrite_progress {
    cli_progress bar;
} rewrite_progress;

static long counting_write(void *ud, int fd, const void *buf, size_t n) {
    rewrite_progress *p = ud;
    ssize_t r = write(fd, buf, n);
    if (r > 0) cli_progress_add(&p->bar, (uint64_t)r);
    return (long)r;
}

/* Free bytes on the file system that holds path's directory, or UINT64_MAX
 * when it cannot be told. */
static uint64_t free_space(const char *path) {
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    struct statvfs st;
    if (statvfs(dir, &st) != 0) return UINT64_MAX;
    return (uint64_t)st.f_bavail * st.f_frsize;
}

/* Write the edit back into e->path: in place when the library can (the
 * header keeps its padded size); otherwise the whole file is rewritten
 * beside it, which is said, checked against the free space first, and shown
 * on a terminal. */
static lgg_status cli_update_file(const char *cmd, cli_edit *e, lgg_error *err) {
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.version = lgg_file_version(e->f);
    o.endian = lgg_file_endian(e->f);
    o.temp_fn = cli_temp_note;
    bool in_place = false;
    lgg_status s = lgg_writer_update_in_place(e->w, &o, &in_place, err);
    if (s != LGG_OK) return s;
    rewrite_progress rp;
    memset(&rp, 0, sizeof rp);
    if (!in_place) {
        uint64_t need = 0, avail = free_space(e->path);
        if ((s = lgg_writer_file_size(e->w, &o, &need, err)) != LGG_OK) return s;
        char nb[32], ab[32];
        cli_fmt_bytes(nb, sizeof nb, need);
        if (avail != UINT64_MAX && avail < need) {
            cli_fmt_bytes(ab, sizeof ab, avail);
            err->code = LGG_ERR_IO;
            err->offset = LGG_NO_OFFSET;
            snprintf(err->message, sizeof err->message,
                     "the header no longer fits its padding and the whole file must be rewritten beside it (%s), "
                     "but only %s are free there; nothing was changed",
                     nb, ab);
            return LGG_ERR_IO;
        }
        /* a file without tensors is always written anew, and is small: nothing to say */
        if (lgg_tensor_count(e->f) > 0)
            cli_err(cmd, e->path, "the header no longer fits its padding: rewriting the whole file (%s)", nb);
        cli_progress_init(&rp.bar, cmd, need);
        if (rp.bar.on) {
            o.write_fn = counting_write; /* only on a terminal: it costs copy_file_range */
            o.write_ud = &rp;
        }
    }
    s = lgg_writer_update_file(e->w, e->path, &o, NULL, err);
    cli_progress_end(&rp.bar);
    return s;
}

int cli_edit_commit(const char *cmd, cli_edit *e, const char *out) {
    lgg_error err;
    memset(&err, 0, sizeof err);
    lgg_status s;
    if (!out && cli_is_stdin(e->path)) {
        cli_err(cmd, NULL, "standard input cannot be edited in place; give -o OUT");
        return CLI_FAIL;
    }
    if (out) {
        /* a separate output keeps the input's version and byte order */
        lgg_write_options o;
        lgg_write_options_init(&o);
        o.version = lgg_file_version(e->f);
        o.endian = lgg_file_endian(e->f);
        s = cli_write_file(e->w, out, &o, &err);
    } else {
        s = cli_update_file(cmd, e, &err);
    }
    if (s != LGG_OK) {
        cli_err_lgg(cmd, out ? out : e->path, &err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

void cli_edit_close(cli_edit *e) {
    lgg_writer_free(e->w);
    lgg_close(e->f);
    if (e->fd >= 0) close(e->fd);
    e->w = NULL;
    e->f = NULL;
    e->fd = -1;
}

/* As the validator does, a first segment naming the file's own
 * architecture ("command-r.") is taken as it is and only the rest is held
 * to the rule. */
bool cli_key_ok(const lgg_file *f, const char *key, size_t len) {
    if (lgg_key_name_ok(key, len)) return true;
    lgg_value v;
    lgg_str arch;
    return lgg_get(f, "general.architecture", &v) == LGG_OK && lgg_value_string(&v, &arch) == LGG_OK &&
           arch.len + 1 < len && !memcmp(key, arch.ptr, arch.len) && key[arch.len] == '.' &&
           lgg_key_name_ok(key + arch.len + 1, len - arch.len - 1);
}

/* ---- value text ---- */

/* The type TYPE names.  The generic int and float (llama.cpp's --override-kv
 * spellings) take `existing`'s type when it is of the same kind, so an edit
 * never changes a key's type behind the user's back, and otherwise i32 and
 * f32, as llama-quantize writes overrides. */
static uint32_t type_of(const char *name, size_t len, uint32_t existing, bool *ok) {
    uint32_t vt = 0;
    *ok = true;
    const bool ex_int = existing <= LGG_VT_I32 || existing == LGG_VT_U64 || existing == LGG_VT_I64;
    if (len == 3 && !memcmp(name, "int", 3)) return ex_int ? existing : LGG_VT_I32;
    if (len == 5 && !memcmp(name, "float", 5))
        return existing == LGG_VT_F32 || existing == LGG_VT_F64 ? existing : LGG_VT_F32;
    if (len == 3 && !memcmp(name, "str", 3)) return LGG_VT_STRING;
    if (lgg_vtype_from_name(name, len, &vt) == LGG_OK && vt != LGG_VT_ARRAY) return vt;
    *ok = false;
    return 0;
}

static bool parse_scalar(uint32_t vt, const char *s, uint8_t out[8], char *why, size_t cap) {
    char *end = NULL;
    errno = 0;
    switch (vt) {
    case LGG_VT_BOOL:
        if (!strcmp(s, "true") || !strcmp(s, "1")) out[0] = 1;
        else if (!strcmp(s, "false") || !strcmp(s, "0")) out[0] = 0;
        else {
            snprintf(why, cap, "'%s' is not a bool (true, false, 1, 0)", s);
            return false;
        }
        return true;
    case LGG_VT_F32:
    case LGG_VT_F64: {
        double d = strtod(s, &end);
        if (!*s || *end) {
            snprintf(why, cap, "'%s' is not a number", s);
            return false;
        }
        if (vt == LGG_VT_F32) {
            float f = strtof(s, NULL);
            if (isinf(f) && !isinf(d)) {
                snprintf(why, cap, "%s is out of range for f32", s);
                return false;
            }
            memcpy(out, &f, 4);
        } else {
            if (errno == ERANGE && isinf(d)) {
                snprintf(why, cap, "%s is out of range for f64", s);
                return false;
            }
            memcpy(out, &d, 8);
        }
        return true;
    }
    case LGG_VT_U8:
    case LGG_VT_U16:
    case LGG_VT_U32:
    case LGG_VT_U64: {
        const char *p = s;
        while (*p == ' ') p++;
        unsigned long long u = strtoull(s, &end, 0);
        uint64_t max = vt == LGG_VT_U8 ? 0xff : vt == LGG_VT_U16 ? 0xffff : vt == LGG_VT_U32 ? 0xffffffffu : UINT64_MAX;
        if (!*s || *end || *p == '-') {
            snprintf(why, cap, "'%s' is not an unsigned integer", s);
            return false;
        }
        if (errno == ERANGE || u > max) {
            snprintf(why, cap, "%s is out of range for %s (0..%llu)", s, lgg_vtype_name(vt), (unsigned long long)max);
            return false;
        }
        if (vt == LGG_VT_U8) out[0] = (uint8_t)u;
        else if (vt == LGG_VT_U16) { uint16_t x = (uint16_t)u; memcpy(out, &x, 2); }
        else if (vt == LGG_VT_U32) { uint32_t x = (uint32_t)u; memcpy(out, &x, 4); }
        else { uint64_t x = u; memcpy(out, &x, 8); }
        return true;
    }
    default: { /* signed */
        long long v = strtoll(s, &end, 0);
        long long lo = vt == LGG_VT_I8 ? -128 : vt == LGG_VT_I16 ? -32768 : vt == LGG_VT_I32 ? -2147483647LL - 1 : INT64_MIN;
        long long hi = vt == LGG_VT_I8 ? 127 : vt == LGG_VT_I16 ? 32767 : vt == LGG_VT_I32 ? 2147483647LL : INT64_MAX;
        if (!*s || *end) {
            snprintf(why, cap, "'%s' is not an integer", s);
            return false;
        }
        if (errno == ERANGE || v < lo || v > hi) {
            snprintf(why, cap, "%s is out of range for %s (%lld..%lld)", s, lgg_vtype_name(vt), lo, hi);
            return false;
        }
        if (vt == LGG_VT_I8) { int8_t x = (int8_t)v; memcpy(out, &x, 1); }
        else if (vt == LGG_VT_I16) { int16_t x = (int16_t)v; memcpy(out, &x, 2); }
        else if (vt == LGG_VT_I32) { int32_t x = (int32_t)v; memcpy(out, &x, 4); }
        else { int64_t x = v; memcpy(out, &x, 8); }
        return true;
    }
    }
}

void cli_val_free(cli_val *v) {
    free(v->store);
    free(v->strs);
    memset(v, 0, sizeof *v);
}

int cli_val_parse(const char *text, cli_val *v, char *why, size_t cap) {
    return cli_val_parse_for(text, CLI_NO_TYPE, CLI_NO_TYPE, v, why, cap);
}

/* arr[TYPE]:v1,v2,... (TYPE as for a scalar; "\," is a comma and "\\" a
 * backslash inside an item). */
static int parse_array(const char *text, uint32_t existing, uint32_t existing_elem, cli_val *v, char *why,
                       size_t cap) {
    const char *close = strchr(text + 4, ']');
    if (!close || close[1] != ':') {
        snprintf(why, cap, "array values are written arr[TYPE]:v1,v2,...");
        return 0;
    }
    bool ok;
    uint32_t et = type_of(text + 4, (size_t)(close - text - 4), existing == LGG_VT_ARRAY ? existing_elem : CLI_NO_TYPE, &ok);
    if (!ok) {
        snprintf(why, cap, "unknown element type '%.*s'", (int)(close - text - 4), text + 4);
        return 0;
    }
    const char *body = close + 2;
    size_t blen = strlen(body);
    char *un = malloc(blen + 1);
    uint64_t count = 0;
    /* n commas make n + 1 items, and starts[] gets one entry past the last */
    size_t *starts = malloc((blen + 2) * sizeof *starts), *lens = malloc((blen + 2) * sizeof *lens);
    if (!un || !starts || !lens) {
        free(un), free(starts), free(lens);
        snprintf(why, cap, "out of memory");
        return 0;
    }
    size_t o = 0;
    if (blen) {
        starts[0] = 0;
        for (size_t i = 0; i <= blen; i++) {
            char c = body[i];
            if (c == '\\' && (body[i + 1] == ',' || body[i + 1] == '\\')) {
                un[o++] = body[++i];
            } else if (c == ',' || c == 0) {
                lens[count] = o - starts[count];
                un[o++] = 0;
                count++;
                starts[count] = o;
            } else {
                un[o++] = c;
            }
        }
    }
    size_t esz = lgg_vtype_size(et);
    v->v.type = LGG_VT_ARRAY;
    v->v.elem_type = et;
    v->v.count = count;
    int rc = 1;
    if (esz) {
        v->store = malloc(count * esz + 1);
        for (uint64_t i = 0; rc && i < count; i++) {
            uint8_t tmp[8];
            if (!parse_scalar(et, un + starts[i], tmp, why, cap)) rc = 0;
            else memcpy((char *)v->store + i * esz, tmp, esz);
        }
        free(un);
        v->v.data = v->store;
    } else {
        v->strs = malloc((count + 1) * sizeof *v->strs);
        for (uint64_t i = 0; i < count; i++) {
            v->strs[i].ptr = un + starts[i];
            v->strs[i].len = lens[i];
        }
        v->store = un;
        v->v.data = v->strs;
    }
    free(starts);
    free(lens);
    if (!rc) cli_val_free(v);
    return rc;
}

/* str@FILE: the value is the file's bytes. */
static int parse_from_file(const char *file, cli_val *v, char *why, size_t cap) {
    size_t n = 0;
    char reason[256];
    char *p = cli_slurp(file, &n, reason, sizeof reason);
    if (!p) {
        snprintf(why, cap, "%s: %s", file, reason);
        return 0;
    }
    cli_input_add(file, -1, 0); /* an output must not replace it */
    v->store = p;
    v->v = (lgg_wvalue){LGG_VT_STRING, 0, n, p};
    return 1;
}

bool cli_val_typed(const char *text) {
    if (!strncmp(text, "arr[", 4)) return true;
    const size_t n = strcspn(text, ":@");
    bool ok = false;
    if (text[n]) type_of(text, n, CLI_NO_TYPE, &ok);
    return ok;
}

/* A bare VALUE for a key of type `existing`: read as "TYPE:VALUE" (an array
 * as "arr[TYPE]:VALUE") with the key's own type. */
static int parse_bare(const char *text, uint32_t existing, uint32_t existing_elem, cli_val *v, char *why, size_t cap) {
    const bool arr = existing == LGG_VT_ARRAY;
    const char *tn = lgg_vtype_name(arr ? existing_elem : existing);
    size_t n = strlen(text) + strlen(tn) + 8;
    char *typed = malloc(n);
    if (!typed) {
        snprintf(why, cap, "out of memory");
        return 0;
    }
    snprintf(typed, n, "%s%s%s:%s", arr ? "arr[" : "", tn, arr ? "]" : "", text);
    int rc = cli_val_typed(typed) ? cli_val_parse_for(typed, existing, existing_elem, v, why, cap) : 0;
    if (!rc && !cli_val_typed(typed)) snprintf(why, cap, "a value of type %s has no TYPE: form", tn);
    if (rc && v->v.type == LGG_VT_STRING && !v->store) { /* it points into typed: keep a copy */
        v->store = strdup((const char *)v->v.data);
        v->v.data = v->store;
        if (!v->store) rc = 0, snprintf(why, cap, "out of memory");
    }
    free(typed);
    return rc;
}

int cli_val_parse_for(const char *text, uint32_t existing, uint32_t existing_elem, cli_val *v, char *why, size_t cap) {
    memset(v, 0, sizeof *v);
    if (existing != CLI_NO_TYPE && !cli_val_typed(text)) return parse_bare(text, existing, existing_elem, v, why, cap);
    if (!strncmp(text, "arr[", 4)) return parse_array(text, existing, existing_elem, v, why, cap);
    const char *colon = strchr(text, ':'), *at = strchr(text, '@');
    const char *sep = colon && (!at || colon < at) ? colon : at;
    if (!sep) {
        snprintf(why, cap, "expected TYPE:VALUE (or str@FILE), got '%s'", text);
        return 0;
    }
    bool ok;
    uint32_t vt = type_of(text, (size_t)(sep - text), existing, &ok);
    if (!ok) {
        snprintf(why, cap, "unknown type '%.*s'", (int)(sep - text), text);
        return 0;
    }
    if (*sep == '@') {
        if (vt == LGG_VT_STRING) return parse_from_file(sep + 1, v, why, cap);
        snprintf(why, cap, "only str takes its value from a file (str@FILE)");
        return 0;
    }
    const char *val = sep + 1;
    if (vt == LGG_VT_STRING) {
        v->v = (lgg_wvalue){LGG_VT_STRING, 0, strlen(val), val};
        return 1;
    }
    v->store = malloc(8);
    if (!v->store || !parse_scalar(vt, val, v->store, why, cap)) {
        cli_val_free(v);
        return 0;
    }
    v->v = (lgg_wvalue){vt, 0, 1, v->store};
    return 1;
}
