/* gguf_web.c -- the C side of the GGUF Editor (web/): what the page calls in
 * the WebAssembly module.  Only the public API (libgguf.h) and the CLI's
 * value text and JSON renderings (tools/common/cli.c, cli_edit.c), so the
 * page parses, validates, edits and writes exactly as `gguf set`/`gguf rm`.
 *
 * A document is the header prefix of a file the page read (a local Blob or
 * a URL's first bytes), opened with lgg_open_source; a prefix that is too
 * short fails with the bytes wanted (web_need), and the page reads more and
 * opens again.  Edits go to a writer built from that header; after them,
 * web_commit encodes the new header (the tensor data is never in memory:
 * each tensor's read callback stops the write once the header is out) and
 * opens and validates it as the view the page shows.  Saving is the new
 * header plus the original tensor bytes, placed by web_plan_json. */
#include "cli.h"
#include "libgguf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#define WEB_API EMSCRIPTEN_KEEPALIVE
#else
#define WEB_API
#endif

#include "gguf_web.h"

/* Bytes of a file read so far, as an lgg_source. */
typedef struct prefix {
    uint8_t *p;
    uint64_t len;
    uint64_t need; /* the most a read asked for */
    uint64_t cap;  /* bytes allocated at p (capture grows it by doubling) */
} prefix;

struct web_doc {
    prefix orig_bytes;
    lgg_file *orig;
    lgg_writer *w;   /* NULL when the file cannot be edited (edit_error says why) */
    lgg_error edit_error;
    prefix hdr;      /* the header web_commit wrote */
    lgg_file *view;  /* that header opened: what the page shows */
    lgg_report *rep; /* its validation */
    uint64_t new_size;
    char name[256];  /* the file's base name, for the naming check */
};

static lgg_error last_err;
static uint64_t last_need;
static char *json_out;

static lgg_status prefix_read(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    prefix *p = ud;
    if (off + n <= p->len) {
        memcpy(dst, p->p + off, n);
        return LGG_OK;
    }
    if (off + n > p->need) p->need = off + n;
    return lgg_error_set(err, LGG_ERR_NO_DATA, off, "bytes %llu..%llu have not been read yet", (unsigned long long)off,
                         (unsigned long long)(off + n));
}

static lgg_status open_prefix(prefix *p, uint64_t size, lgg_file **out, lgg_error *err) {
    lgg_source src = {prefix_read, p, size, p->len ? p->len : 1, 0};
    p->need = 0;
    return lgg_open_source(&src, NULL, out, err);
}

/* Tensor data is never read: asking for it ends the header-only write. */
static lgg_status no_data(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)ud, (void)dst, (void)n;
    return lgg_error_set(err, LGG_ERR_NO_DATA, off, "tensor data is not read: only the header is written");
}

/* A size, offset or index from JavaScript: a double that may be anything
 * (NaN, negative, fractional); converting those to an integer is undefined
 * in C, so they become 0 (and the too large, UINT64_MAX). */
static uint64_t u64_of(double x) {
    if (!(x > 0)) return 0;
    return x >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)x;
}

static long capture(void *ud, int fd, const void *buf, size_t n) {
    (void)fd;
    prefix *p = ud;
    if (p->len + n > p->cap) { /* doubling: a header of a million small writes is not a million reallocs */
        uint64_t cap = p->cap ? p->cap : 4096;
        while (cap < p->len + n) cap *= 2;
        uint8_t *q = realloc(p->p, (size_t)cap);
        if (!q) return -1;
        p->p = q;
        p->cap = cap;
    }
    memcpy(p->p + p->len, buf, n);
    p->len += n;
    return (long)n;
}

static void fail(lgg_status code, const char *fmt, const char *a, size_t alen) {
    lgg_error_set(&last_err, code, LGG_NO_OFFSET, fmt, (int)alen, a);
}

/* Output options of `gguf set -o`: the input's version and byte order. */
static void out_opts(const web_doc *d, lgg_write_options *o) {
    lgg_write_options_init(o);
    o->version = lgg_file_version(d->orig);
    o->endian = lgg_file_endian(d->orig);
}

/* The header parsed, nothing more: web_open's first step, which the page
 * takes alone so that it can paint between the steps (web_reset, then
 * web_commit) of a large header. */
WEB_API web_doc *web_open_header(uint8_t *bytes, double len, double size, const char *name) {
    memset(&last_err, 0, sizeof last_err);
    last_need = 0;
    web_doc *d = calloc(1, sizeof *d);
    if (!d) {
        free(bytes);
        lgg_error_set(&last_err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        return NULL;
    }
    d->orig_bytes = (prefix){bytes, u64_of(len), 0, u64_of(len)};
    snprintf(d->name, sizeof d->name, "%s", name ? name : "");
    if (open_prefix(&d->orig_bytes, u64_of(size), &d->orig, &last_err) != LGG_OK) {
        if (d->orig_bytes.need > d->orig_bytes.len) last_need = d->orig_bytes.need;
        web_close(d);
        return NULL;
    }
    return d;
}

WEB_API web_doc *web_open(uint8_t *bytes, double len, double size, const char *name) {
    web_doc *d = web_open_header(bytes, len, size, name);
    if (!d) return NULL;
    web_reset(d);
    if (web_commit(d) != 0) {
        web_close(d);
        return NULL;
    }
    return d;
}

WEB_API double web_need(void) { return (double)last_need; }

WEB_API void web_close(web_doc *d) {
    if (!d) return;
    lgg_report_free(d->rep);
    lgg_close(d->view);
    free(d->hdr.p);
    lgg_writer_free(d->w);
    lgg_close(d->orig);
    free(d->orig_bytes.p);
    free(d);
}

/* The writer `gguf set` starts from (lgg_writer_from_file), built from the
 * header alone: every first occurrence of a key, every tensor info. */
WEB_API int web_reset(web_doc *d) {
    lgg_writer_free(d->w);
    d->w = NULL;
    lgg_writer *w;
    lgg_error *e = &d->edit_error;
    memset(e, 0, sizeof *e);
    if (lgg_writer_create(NULL, &w, e) != LGG_OK) return 1;
    const lgg_file *f = d->orig;
    lgg_status s = LGG_OK;
    for (uint64_t i = 0; i < lgg_kv_count(f) && !s; i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        if ((uint64_t)lgg_find_key(f, kv->key.ptr, (size_t)kv->key.len) == i)
            s = lgg_writer_set_value(w, kv->key.ptr, (size_t)kv->key.len, &kv->value, e);
    }
    for (uint64_t i = 0; i < lgg_tensor_count(f) && !s; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        s = lgg_writer_add_tensor_callback(w, t->name.ptr, (size_t)t->name.len, LGG_MAX_DIMS, t->ne, t->type, no_data,
                                           NULL, lgg_file_endian(f), e);
    }
    if (s) {
        lgg_writer_free(w);
        return 1;
    }
    d->w = w;
    return 0;
}

static int edit_check(web_doc *d) {
    memset(&last_err, 0, sizeof last_err);
    if (d->w) return 1;
    last_err = d->edit_error;
    return 0;
}

/* A key `gguf set` writes without --force. */
static int key_allowed(const web_doc *d, const char *key, size_t len) {
    if (cli_key_ok(d->orig, key, len)) return 1;
    fail(LGG_ERR_ARG, "'%.*s' is not a valid key (lower_snake_case segments separated by dots)", key, len);
    return 0;
}

/* KEY=TEXT as `gguf set FILE KEY=TEXT` applies it (TEXT is TYPE:VALUE or
 * arr[TYPE]:A,B,C).  0 on success, else 1 with the reason in web_error. */
WEB_API int web_set(web_doc *d, const char *key, const char *text) {
    if (!edit_check(d)) return 1;
    size_t kl = strlen(key);
    if (!key_allowed(d, key, kl)) return 1;
    uint32_t have = CLI_NO_TYPE, have_elem = CLI_NO_TYPE, std;
    if (lgg_writer_key_type(d->w, key, kl, &have, &have_elem) != LGG_OK && lgg_standard_key_type(key, kl, &std) == LGG_OK)
        have = std;
    cli_val v;
    char why[400];
    if (!cli_val_parse_for(text, have, have_elem, &v, why, sizeof why)) {
        fail(LGG_ERR_INVALID, "%.*s", why, strlen(why));
        return 1;
    }
    int rc = lgg_writer_set(d->w, key, kl, &v.v, &last_err) != LGG_OK;
    cli_val_free(&v);
    return rc;
}

WEB_API int web_remove(web_doc *d, const char *key) {
    if (!edit_check(d)) return 1;
    return lgg_writer_remove(d->w, key, strlen(key), &last_err) != LGG_OK;
}

WEB_API int web_rename(web_doc *d, const char *from, const char *to) {
    if (!edit_check(d) || !key_allowed(d, to, strlen(to))) return 1;
    return lgg_writer_rename(d->w, from, strlen(from), to, strlen(to), &last_err) != LGG_OK;
}

/* A type as `gguf set` spells it: u8 ... f64, bool, str, arr[TYPE]. */
static const char *set_name(uint32_t vt) { return vt == LGG_VT_STRING ? "str" : lgg_vtype_name(vt); }

/* Item `index` of array KEY set to TEXT (TYPE:VALUE, TYPE the array's
 * element type), as `gguf set KEY=arr[TYPE]:...` with every other item as
 * it is: the array is read from the view, so the page commits before
 * replaying such an edit.  Arrays of arrays are not edited item by item. */
WEB_API int web_set_item(web_doc *d, const char *key, double index, const char *text) {
    if (!edit_check(d)) return 1;
    size_t kl = strlen(key);
    int64_t k = d->view ? lgg_find_key(d->view, key, kl) : -1;
    const lgg_kv *kv = k >= 0 ? lgg_kv_at(d->view, (uint64_t)k) : NULL;
    if (!kv || kv->value.type != LGG_VT_ARRAY || kv->value.elem_type == LGG_VT_ARRAY) {
        fail(LGG_ERR_ARG, "%.*s: not an array of scalars or strings", key, kl);
        return 1;
    }
    const lgg_value *arr = &kv->value;
    uint64_t at = u64_of(index), n = arr->count;
    if (at >= n || !(index >= 0) || index != (double)at) {
        lgg_error_set(&last_err, LGG_ERR_RANGE, LGG_NO_OFFSET, "%.*s has %llu items: no item %.0f", (int)kl, key,
                      (unsigned long long)n, index);
        return 1;
    }
    cli_val item;
    char why[400];
    if (!cli_val_parse_for(text, arr->elem_type, CLI_NO_TYPE, &item, why, sizeof why)) {
        fail(LGG_ERR_INVALID, "%.*s", why, strlen(why));
        return 1;
    }
    if (item.v.type != arr->elem_type) {
        cli_val_free(&item);
        fail(LGG_ERR_INVALID, "the item must be a %.*s", set_name(arr->elem_type), strlen(set_name(arr->elem_type)));
        return 1;
    }
    int str = arr->elem_type == LGG_VT_STRING;
    size_t es = str ? sizeof(lgg_str) : lgg_vtype_size(arr->elem_type);
    uint8_t *data = malloc((size_t)(n ? n : 1) * es);
    if (!data) {
        cli_val_free(&item);
        lgg_error_set(&last_err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        return 1;
    }
    lgg_iter it;
    lgg_value e;
    lgg_array_iter(arr, &it);
    for (uint64_t i = 0; i < n && lgg_iter_next(&it, &e); i++) {
        uint8_t *dst = data + i * es;
        if (i == at) {
            if (str) *(lgg_str *)dst = (lgg_str){item.v.data, item.v.count};
            else memcpy(dst, item.v.data, es);
        } else if (str) {
            *(lgg_str *)dst = (lgg_str){(const char *)e.data, e.count};
        } else { /* host byte order, as lgg_wvalue holds it */
            for (size_t b = 0; b < es; b++) dst[b] = e.swap ? e.data[es - 1 - b] : e.data[b];
        }
    }
    lgg_wvalue wv = {LGG_VT_ARRAY, arr->elem_type, n, data};
    int rc = lgg_writer_set(d->w, key, kl, &wv, &last_err) != LGG_OK;
    free(data);
    cli_val_free(&item);
    return rc;
}

/* Encode the writer's header, open it as the view and validate it. */
WEB_API int web_commit(web_doc *d) {
    memset(&last_err, 0, sizeof last_err);
    lgg_report_free(d->rep);
    lgg_close(d->view);
    free(d->hdr.p);
    d->rep = NULL;
    d->view = NULL;
    d->hdr = (prefix){NULL, 0, 0, 0};
    if (!d->w) { /* not editable: show the file as it is */
        lgg_validate_options vo = {.size = sizeof vo, .file_name = d->name[0] ? d->name : NULL};
        if (open_prefix(&d->orig_bytes, lgg_file_size(d->orig), &d->view, &last_err) != LGG_OK) return 1;
        return lgg_validate(d->view, &vo, &d->rep) != LGG_OK;
    }
    lgg_write_options o;
    out_opts(d, &o);
    o.write_fn = capture;
    o.write_ud = &d->hdr;
    if (lgg_writer_file_size(d->w, &o, &d->new_size, &last_err) != LGG_OK) return 1;
    /* fd 1 is only a valid descriptor for the call: every byte goes to capture() */
    lgg_status s = lgg_writer_write_fd(d->w, 1, &o, NULL, &last_err);
    if (s != LGG_OK && !(s == LGG_ERR_NO_DATA && lgg_writer_tensor_count(d->w))) return 1;
    memset(&last_err, 0, sizeof last_err);
    if (open_prefix(&d->hdr, d->new_size, &d->view, &last_err) != LGG_OK) return 1;
    if (lgg_file_data_offset(d->view) != d->hdr.len && lgg_tensor_count(d->view)) {
        lgg_error_set(&last_err, LGG_ERR_IO, LGG_NO_OFFSET, "the header write stopped at %llu bytes, not at the data",
                      (unsigned long long)d->hdr.len);
        return 1;
    }
    lgg_validate_options vo = {.size = sizeof vo, .file_name = d->name[0] ? d->name : NULL};
    return lgg_validate(d->view, &vo, &d->rep) != LGG_OK;
}

/* ---- JSON for the page ---- */

static FILE *json_begin(void) {
    free(json_out);
    json_out = NULL;
    static size_t n;
    return open_memstream(&json_out, &n);
}

static const char *json_end(FILE *o) {
    fclose(o);
    return json_out ? json_out : "null";
}

WEB_API const char *web_error_json(void) {
    FILE *o = json_begin();
    fprintf(o, "{\"code\": %d, \"status\": \"%s\", \"offset\": ", (int)last_err.code, lgg_status_name(last_err.code));
    if (last_err.offset == LGG_NO_OFFSET) fputs("null", o);
    else fprintf(o, "%llu", (unsigned long long)last_err.offset);
    fputs(", \"message\": ", o);
    cli_json_str(o, last_err.message, strlen(last_err.message));
    fprintf(o, ", \"need\": %llu}", (unsigned long long)last_need);
    return json_end(o);
}


static void type_text(FILE *o, const lgg_value *v) {
    if (v->type == LGG_VT_ARRAY) fprintf(o, "\"arr[%s]\"", set_name(v->elem_type));
    else fprintf(o, "\"%s\"", set_name(v->type));
}

/* Items [first, first + n) of an array, as a JSON list. */
static void items(FILE *o, const lgg_value *arr, uint64_t first, uint64_t n) {
    lgg_iter it;
    lgg_value e;
    lgg_array_iter(arr, &it);
    fputc('[', o);
    for (uint64_t i = 0; i < first + n && lgg_iter_next(&it, &e); i++) {
        if (i < first) continue;
        if (i > first) fputs(", ", o);
        cli_json_value(o, &e);
    }
    fputc(']', o);
}

#define PREVIEW_ITEMS 16

/* Metadata pairs [first, first + n) as JSON rows (the page asks for the
 * rows it shows: a header of a million keys is never one JSON text). */
static void kv_rows(FILE *o, const lgg_file *f, uint64_t first, uint64_t n) {
    fputs("[", o);
    for (uint64_t i = first; i < lgg_kv_count(f) && i - first < n; i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        fprintf(o, "%s{\"index\": %llu, \"key\": ", i > first ? ",\n" : "", (unsigned long long)i);
        cli_json_str(o, kv->key.ptr, kv->key.len);
        fputs(", \"type\": ", o);
        type_text(o, &kv->value);
        fprintf(o, ", \"offset\": %llu, ", (unsigned long long)kv->offset);
        if (kv->value.type == LGG_VT_ARRAY) {
            fprintf(o, "\"count\": %llu, \"items\": ", (unsigned long long)kv->value.count);
            items(o, &kv->value, 0, PREVIEW_ITEMS);
        } else {
            fputs("\"value\": ", o);
            cli_json_value(o, &kv->value);
        }
        fputc('}', o);
    }
    fputs("]", o);
}

static void findings_json(FILE *o, const lgg_report *r) {
    fputs("[", o);
    for (size_t i = 0; i < lgg_report_count(r); i++) {
        const lgg_finding *g = lgg_report_at(r, i);
        fprintf(o, "%s{\"severity\": \"%s\", \"check\": %d, \"offset\": ", i ? ",\n" : "", lgg_severity_name(g->severity),
                (int)g->check);
        if (g->offset == LGG_NO_OFFSET) fputs("null", o);
        else fprintf(o, "%llu", (unsigned long long)g->offset);
        fputs(", \"message\": ", o);
        cli_json_str(o, g->message, strlen(g->message));
        fputc('}', o);
    }
    fputs("]", o);
}

static lgg_str str_of(const lgg_file *f, const char *key) {
    lgg_value v;
    lgg_str s = {NULL, 0};
    if (lgg_get(f, key, &v) == LGG_OK) lgg_value_string(&v, &s);
    return s;
}

static void json_str_or_null(FILE *o, lgg_str s) {
    if (s.ptr) cli_json_str(o, s.ptr, s.len);
    else fputs("null", o);
}

/* The summary: format, architecture, name, parameters and size label,
 * file type, data size, and as hyperparameters every scalar "<arch>." key. */
static void info_json(FILE *o, const lgg_file *f) {
    lgg_str arch = str_of(f, "general.architecture");
    uint64_t params = lgg_parameter_count(f), data = 0, ft = 0;
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) data += lgg_tensor_at(f, i)->size;
    char label[64] = "";
    if (params) lgg_size_label(params, 0, label, sizeof label);
    fprintf(o, "{\"version\": %u, \"endian\": \"%s\", \"alignment\": %llu, \"architecture\": ", lgg_file_version(f),
            lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big" : "little", (unsigned long long)lgg_file_alignment(f));
    json_str_or_null(o, arch);
    fputs(", \"name\": ", o);
    json_str_or_null(o, str_of(f, "general.name"));
    fprintf(o, ", \"parameters\": %llu, \"size_label\": \"%s\", \"file_type\": ", (unsigned long long)params, label);
    lgg_value v;
    const char *ftn = NULL;
    if (lgg_get(f, "general.file_type", &v) == LGG_OK && lgg_value_uint(&v, &ft) == LGG_OK && ft <= UINT32_MAX)
        ftn = lgg_file_type_name((uint32_t)ft);
    if (ftn) fprintf(o, "\"%s (%llu)\"", ftn, (unsigned long long)ft);
    else fputs("null", o);
    fprintf(o, ", \"tensors\": %llu, \"data_size\": %llu, \"metadata\": %llu, \"hyperparameters\": {",
            (unsigned long long)lgg_tensor_count(f), (unsigned long long)data, (unsigned long long)lgg_kv_count(f));
    int first = 1;
    for (uint64_t i = 0; arch.len && i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        if (kv->value.type == LGG_VT_ARRAY || kv->value.type == LGG_VT_STRING || kv->key.len <= arch.len + 1 ||
            memcmp(kv->key.ptr, arch.ptr, arch.len) || kv->key.ptr[arch.len] != '.')
            continue;
        if (!first) fputs(", ", o);
        cli_json_str(o, kv->key.ptr + arch.len + 1, kv->key.len - arch.len - 1);
        fputs(": ", o);
        cli_json_value(o, &kv->value);
        first = 0;
    }
    fputs("}}", o);
}

/* Everything the page shows of the current state. */
WEB_API const char *web_view_json(web_doc *d) {
    const lgg_file *f = d->view;
    FILE *o = json_begin();
    fprintf(o, "{\"size\": %llu, \"data_offset\": %llu, \"editable\": %s, \"edit_error\": ",
            (unsigned long long)lgg_file_size(f), (unsigned long long)lgg_file_data_offset(f), d->w ? "true" : "false");
    cli_json_str(o, d->edit_error.message, strlen(d->edit_error.message));
    fputs(",\n\"info\": ", o);
    info_json(o, f);
    fprintf(o, ",\n\"metadata_count\": %llu", (unsigned long long)lgg_kv_count(f));
    fputs(",\n\"tensors\": [", o);
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        if (i) fputs(",\n", o);
        cli_tensor_json(o, lgg_tensor_at(f, i));
    }
    fputs("],\n\"findings\": ", o);
    findings_json(o, d->rep);
    fputs("}", o);
    return json_end(o);
}

/* Rows [first, first + n) of the metadata table (kv_rows). */
WEB_API const char *web_kv_rows(web_doc *d, double first, double n) {
    FILE *o = json_begin();
    kv_rows(o, d->view, u64_of(first), u64_of(n));
    return json_end(o);
}

/* The index of `key` in the view (its first occurrence), or -1. */
WEB_API double web_kv_find(web_doc *d, const char *key) {
    int64_t i = lgg_find_key(d->view, key, strlen(key));
    return i < 0 ? -1 : (double)i;
}

/* The pairs whose key contains `q` (case-insensitively for ASCII letters):
 * their count; web_kv_filter_indices() has their indices (uint32, in file
 * order) until the next call. */
static uint32_t *filter_idx;
WEB_API double web_kv_filter(web_doc *d, const char *q) {
    uint64_t n = lgg_kv_count(d->view), hits = 0;
    size_t ql = strlen(q);
    free(filter_idx);
    filter_idx = malloc((size_t)(n ? n : 1) * sizeof *filter_idx);
    if (!filter_idx || n > UINT32_MAX) return 0;
    for (uint64_t i = 0; i < n; i++) {
        const lgg_kv *kv = lgg_kv_at(d->view, i);
        int found = ql == 0;
        for (uint64_t a = 0; !found && a + ql <= kv->key.len; a++) {
            size_t k = 0;
            while (k < ql) {
                unsigned char x = (unsigned char)kv->key.ptr[a + k], y = (unsigned char)q[k];
                if (x >= 'A' && x <= 'Z') x = (unsigned char)(x - 'A' + 'a');
                if (y >= 'A' && y <= 'Z') y = (unsigned char)(y - 'A' + 'a');
                if (x != y) break;
                k++;
            }
            found = k == ql;
        }
        if (found) filter_idx[hits++] = (uint32_t)i;
    }
    return (double)hits;
}
WEB_API const uint32_t *web_kv_filter_indices(void) { return filter_idx; }

/* Items [first, first + n) of metadata pair `index`'s array (the paged view). */
WEB_API const char *web_array_page(web_doc *d, double index, double first, double n) {
    const lgg_kv *kv = lgg_kv_at(d->view, u64_of(index));
    FILE *o = json_begin();
    uint64_t at = u64_of(first), k = u64_of(n);
    if (kv && kv->value.type == LGG_VT_ARRAY && at < kv->value.count)
        items(o, &kv->value, at, k < kv->value.count - at ? k : kv->value.count - at);
    else fputs("[]", o);
    return json_end(o);
}

/* ---- hf:// names: the core's one checker, as the CLI applies it ---- */

/* {"url": URL} for hf://OWNER/REPO/PATH[@REVISION] at endpoint (lgg_hf_resolve,
 * the URL the CLI would fetch), or {"error": why} (lgg_hf_name_check). */
/* {"url": url} (n bytes), or {"error": why} when there is none (url NULL). */
static const char *url_or_error(const char *url, size_t n, const char *why) {
    FILE *o = json_begin();
    if (url) {
        fputs("{\"url\": ", o);
        cli_json_str(o, url, n);
    } else {
        const char *w = why && why[0] ? why : "out of memory";
        fputs("{\"error\": ", o);
        cli_json_str(o, w, strlen(w));
    }
    fputc('}', o);
    return json_end(o);
}

WEB_API const char *web_hf_url(const char *name, const char *endpoint) {
    char why[256] = "";
    size_t n = lgg_hf_name_check(name, why, sizeof why) ? lgg_hf_resolve(name, endpoint, NULL, 0) : 0;
    char *url = n ? malloc(n + 1) : NULL;
    if (url) lgg_hf_resolve(name, endpoint, url, n + 1);
    const char *r = url_or_error(url, n, why);
    free(url);
    return r;
}

/* The same for a repository's listing (hf://OWNER/REPO:QUANT):
 * lgg_hf_tree_url of repo ("OWNER/REPO") at revision ("" : main). */
WEB_API const char *web_hf_tree_url(const char *repo, const char *revision, const char *endpoint) {
    char why[256] = "";
    const char *rev = revision && *revision ? revision : NULL;
    size_t n = lgg_hf_tree_url(repo, rev, endpoint, NULL, 0, why, sizeof why);
    char *url = n ? malloc(n + 1) : NULL;
    if (url) lgg_hf_tree_url(repo, rev, endpoint, url, n + 1, NULL, 0);
    const char *r = url_or_error(url, n, why);
    free(url);
    return r;
}

/* hf://OWNER/REPO:QUANT: the file of a repository's listing that the CLI
 * picks (lgg_hf_select): `paths` the listing's file paths, one a line;
 * `has` what a missing match's message says the repository has.
 * {"index": I} or {"error": message}. */
WEB_API const char *web_hf_select(const char *paths, const char *tag, const char *has) {
    size_t n = 0, cap = 16;
    const char **v = malloc(cap * sizeof *v);
    char *copy = strdup(paths ? paths : "");
    FILE *o = json_begin();
    lgg_error e = {0};
    size_t idx = 0;
    lgg_status st = v && copy ? LGG_OK : lgg_error_set(&e, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    for (char *p = copy, *nl; !st && p && *p; p = nl ? nl + 1 : NULL) {
        if ((nl = strchr(p, '\n')) != NULL) *nl = 0;
        if (n == cap) {
            const char **g = realloc(v, (cap *= 2) * sizeof *v);
            if (!g) {
                st = lgg_error_set(&e, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
                break;
            }
            v = g;
        }
        v[n++] = p;
    }
    if (!st) st = lgg_hf_select(v, n, tag, has && *has ? has : NULL, &idx, &e);
    if (st) {
        fputs("{\"error\": ", o);
        cli_json_str(o, e.message, strlen(e.message));
        fputc('}', o);
    } else {
        fprintf(o, "{\"index\": %zu}", idx);
    }
    free(v);
    free(copy);
    return json_end(o);
}

/* ---- saving ---- */

WEB_API const uint8_t *web_header(web_doc *d) { return d->hdr.p; }
WEB_API double web_header_len(web_doc *d) { return (double)d->hdr.len; }

/* Where each tensor's bytes go: {"size": bytes of the new file, "pieces":
 * [[new offset, original offset, bytes], ...]} in new-offset order (the
 * writer keeps the tensors' order).  The gaps are zero padding. */
WEB_API const char *web_plan_json(web_doc *d) {
    FILE *o = json_begin();
    fprintf(o, "{\"size\": %llu, \"pieces\": [", (unsigned long long)lgg_file_size(d->view));
    for (uint64_t i = 0; d->w && i < lgg_tensor_count(d->view); i++) {
        const lgg_tensor *t = lgg_tensor_at(d->view, i), *s = lgg_tensor_at(d->orig, i);
        fprintf(o, "%s[%llu, %llu, %llu]", i ? ", " : "", (unsigned long long)t->file_offset,
                (unsigned long long)s->file_offset, (unsigned long long)t->size);
    }
    fputs("]}", o);
    return json_end(o);
}
