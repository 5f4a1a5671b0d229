/* dump_markdown.c -- `gguf dump --markdown`: the metadata and tensor tables
 * as gguf-py's gguf_dump.py --markdown (llama.cpp b4747) prints them, byte
 * for byte: its header rows for the version and counts, its types, value
 * shortening and inline-code escaping, its tensor groups, human-readable
 * names, rounded counts and column padding (in code points, as Python
 * counts).  One difference: control characters other than tab and newline
 * are shown as \xNN (gguf_dump.py prints them raw, terminal escapes
 * included). */
#include "tool.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growable string ---- */
typedef struct sb {
    char *p;
    size_t n, cap;
    bool oom;
} sb;

static void sb_put(sb *b, const char *s, size_t n) {
    if (b->oom || !cli_grow((void **)&b->p, &b->cap, b->n + n + 1, 1, 256)) {
        b->oom = true;
        return;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void sb_puts(sb *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *b, const char *fmt, ...) {
    char t[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    if (k > 0) sb_put(b, t, (size_t)k < sizeof t ? (size_t)k : sizeof t - 1);
}
static void sb_pad(sb *b, size_t n, char c) {
    while (n--) sb_put(b, &c, 1);
}

/* Code points in valid UTF-8 (what Python's len counts). */
static size_t cps(const char *s, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) k += ((unsigned char)s[i] & 0xC0) != 0x80;
    return k;
}
/* Byte offset of code point i. */
static size_t cp_at(const char *s, size_t n, size_t i) {
    size_t at = 0;
    for (; at < n; at++)
        if (((unsigned char)s[at] & 0xC0) != 0x80 && i-- == 0) break;
    return at;
}

/* Untrusted bytes as the text Python would decode: ill-formed UTF-8 as
 * U+FFFD, control characters but tab and newline as \xNN. */
static void clean(sb *o, const char *s, uint64_t n) {
    uint64_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) sb_printf(o, "\\x%02x", c);
            else sb_put(o, (const char *)&c, 1);
            i++;
            continue;
        }
        uint32_t cp;
        size_t k = lgg_utf8_decode(s + i, n - i > SIZE_MAX ? SIZE_MAX : (size_t)(n - i), &cp);
        if (cp == LGG_UTF8_INVALID) sb_puts(o, "\xEF\xBF\xBD");
        else sb_put(o, s + i, k);
        i += k;
    }
}

/* escape_markdown_inline_code: fenced by one backtick more than the longest
 * run inside, spaced when it starts or ends with one. */
static void inline_code(sb *o, const char *s, size_t n) {
    size_t run = 0, best = 0;
    for (size_t i = 0; i < n; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        if (run > best) best = run;
    }
    const bool space = n && (s[0] == '`' || s[n - 1] == '`');
    sb_pad(o, best + 1, '`');
    if (space) sb_puts(o, " ");
    sb_put(o, s, n);
    if (space) sb_puts(o, " ");
    sb_pad(o, best + 1, '`');
}

/* A string value: longer than `limit` code points, its first and last
 * limit/2 as two code spans around "...". */
static void str_value(sb *o, const char *s, uint64_t n, size_t limit) {
    sb t = {0};
    clean(&t, s, n);
    const size_t len = cps(t.p ? t.p : "", t.n);
    if (len > limit) {
        size_t h = cp_at(t.p, t.n, limit / 2), tl = cp_at(t.p, t.n, len - limit / 2);
        inline_code(o, t.p, h);
        sb_puts(o, "...");
        inline_code(o, t.p + tl, t.n - tl);
    } else {
        inline_code(o, t.p ? t.p : "", t.n);
    }
    free(t.p);
}

/* numpy's str of a scalar. */
static void num_value(sb *o, const lgg_value *v) {
    char b[64];
    int64_t i;
    uint64_t u;
    double d;
    bool x;
    switch (v->type) {
    case LGG_VT_F32:
    case LGG_VT_F64:
        lgg_value_float(v, &d);
        cli_fmt_numpy(b, sizeof b, d, v->type == LGG_VT_F32);
        sb_puts(o, b);
        return;
    case LGG_VT_BOOL: lgg_value_bool(v, &x), sb_puts(o, x ? "True" : "False"); return;
    case LGG_VT_U64: lgg_value_u64(v, &u), sb_printf(o, "%llu", (unsigned long long)u); return;
    default: lgg_value_int(v, &i), sb_printf(o, "%lld", (long long)i); return;
    }
}

static const char *py_type(uint32_t t) {
    static const char *const N[] = {"UINT8", "INT8",   "UINT16", "INT16", "UINT32", "INT32", "FLOAT32",
                                    "BOOL",  "STRING", "ARRAY",  "UINT64", "INT64", "FLOAT64"};
    return t < sizeof N / sizeof N[0] ? N[t] : "N/A";
}

/* ---- tables (markdown_table_with_alignment_support) ---- */
typedef struct table {
    int ncols;
    const char *const *head;
    const char *right; /* per column: 'r' right, else left */
    sb cells;          /* every cell, NUL-terminated, row by row */
    size_t *at;        /* where each cell starts */
    size_t n, cap;
} table;

static void cell_end(table *t, size_t start) {
    if (!cli_grow((void **)&t->at, &t->cap, t->n + 1, sizeof *t->at, 64)) {
        t->cells.oom = true;
        return;
    }
    t->at[t->n++] = start;
    sb_put(&t->cells, "", 1);
}

static void cell(table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cell(table *t, const char *fmt, ...) {
    size_t start = t->cells.n;
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (k > 0) sb_put(&t->cells, b, (size_t)k < sizeof b ? (size_t)k : sizeof b - 1);
    cell_end(t, start);
}

static void table_print(FILE *o, table *t) {
    size_t w[8];
    const size_t rows = t->cells.oom ? 0 : t->n / (size_t)t->ncols;
    for (int c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->head[c]) + 2;
        for (size_t r = 0; r < rows; r++) {
            const char *s = t->cells.p + t->at[r * (size_t)t->ncols + (size_t)c];
            size_t l = cps(s, strlen(s)) + 2;
            if (l > w[c]) w[c] = l;
        }
    }
    for (size_t r = 0; r < rows + 2; r++) {
        for (int c = 0; c < t->ncols; c++) {
            fputc('|', o);
            const bool right = t->right[c] == 'r';
            if (r == 1) { /* dashAlign */
                if (!right) fputc(':', o);
                for (size_t k = 0; k + 1 < w[c]; k++) fputc('-', o);
                if (right) fputc(':', o);
                continue;
            }
            const char *s = r == 0 ? t->head[c] : t->cells.p + t->at[(r - 2) * (size_t)t->ncols + (size_t)c];
            size_t l = cps(s, strlen(s)), gap = w[c] - 1 > l ? w[c] - 1 - l : 0;
            if (right) fprintf(o, "%*s%s ", (int)gap, "", s);
            else fprintf(o, " %s%*s", s, (int)gap, "");
        }
        fputs("|\n", o);
    }
    if (t->cells.oom) fputs("(out of memory)\n", o);
}

static void table_free(table *t) {
    free(t->cells.p);
    free(t->at);
}

/* ---- metadata ---- */

/* gguf-py's field.types: the value's type, then, for an array that has
 * elements, its first element's types; and len(field.data): 1 for a
 * scalar, the scalars at the leaves for an array. */
static int value_types(const lgg_value *v, uint32_t *types, int cap) {
    int n = 0;
    lgg_value cur = *v, e;
    for (;;) {
        types[n++] = cur.type;
        if (cur.type != LGG_VT_ARRAY || n == cap) return n;
        lgg_iter it;
        lgg_array_iter(&cur, &it);
        if (!lgg_iter_next(&it, &e)) return n;
        cur = e;
    }
}

static uint64_t leaves(const lgg_value *v) {
    if (v->type != LGG_VT_ARRAY) return 1;
    if (v->elem_type != LGG_VT_ARRAY) return v->count;
    lgg_iter st[72];
    int sp = 0;
    uint64_t n = 0;
    lgg_value e;
    lgg_array_iter(v, &st[sp++]);
    while (sp) {
        if (!lgg_iter_next(&st[sp - 1], &e)) {
            sp--;
            continue;
        }
        if (e.type != LGG_VT_ARRAY) n++;
        else if (e.elem_type != LGG_VT_ARRAY) n += e.count;
        else if (sp < 72) lgg_array_iter(&e, &st[sp++]);
    }
    return n;
}

static void kv_value(sb *o, const lgg_value *v, const uint32_t *types, int nt, uint64_t total) {
    if (nt == 1) {
        if (v->type == LGG_VT_STRING) str_value(o, (const char *)v->data, v->count, 60);
        else if (v->type != LGG_VT_ARRAY) num_value(o, v);
        return;
    }
    /* the first 5 strings or 7 numbers of an array; nothing of an array of arrays */
    const uint32_t et = types[1];
    const uint64_t show = et == LGG_VT_STRING ? 5 : et == LGG_VT_ARRAY ? 0 : 7;
    sb_puts(o, "[ ");
    lgg_iter it;
    lgg_value e;
    lgg_array_iter(v, &it);
    uint64_t shown = 0;
    while (shown < show && lgg_iter_next(&it, &e)) {
        if (shown++) sb_puts(o, ", ");
        if (et == LGG_VT_STRING) str_value(o, (const char *)e.data, e.count, 30);
        else num_value(o, &e);
    }
    sb_puts(o, total > shown ? ", ... ]" : " ]");
}

static void kv_table(FILE *o, const lgg_file *f) {
    static const char *const head[] = {"POS", "TYPE", "Count", "Key", "Value"};
    table t = {5, head, "rlrll", {0}, NULL, 0, 0};
    /* the reader's fields for the header come first */
    cell(&t, "1"), cell(&t, "UINT32"), cell(&t, "1"), cell(&t, "GGUF.version"), cell(&t, "%u", lgg_file_version(f));
    cell(&t, "2"), cell(&t, "UINT64"), cell(&t, "1"), cell(&t, "GGUF.tensor_count");
    cell(&t, "%llu", (unsigned long long)lgg_tensor_count(f));
    cell(&t, "3"), cell(&t, "UINT64"), cell(&t, "1"), cell(&t, "GGUF.kv_count");
    cell(&t, "%llu", (unsigned long long)lgg_kv_count(f));
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        uint32_t types[72];
        const int nt = value_types(&kv->value, types, 72);
        const uint64_t total = leaves(&kv->value);
        cell(&t, "%llu", (unsigned long long)i + 4);
        size_t start = t.cells.n;
        if (types[0] == LGG_VT_ARRAY) {
            sb_pad(&t.cells, (size_t)nt - 1, '[');
            sb_puts(&t.cells, py_type(types[nt - 1]));
            sb_pad(&t.cells, (size_t)nt - 1, ']');
        } else {
            sb_puts(&t.cells, py_type(types[0]));
        }
        cell_end(&t, start);
        cell(&t, "%llu", (unsigned long long)total);
        start = t.cells.n;
        clean(&t.cells, kv->key.ptr, kv->key.len); /* a repeated key too: the field's own name */
        cell_end(&t, start);
        start = t.cells.n;
        kv_value(&t.cells, &kv->value, types, nt, total);
        cell_end(&t, start);
    }
    table_print(o, &t);
    table_free(&t);
}

/* ---- tensors ---- */

/* element_count_rounded_notation */
static void rounded(char *b, size_t cap, uint64_t count) {
    static const struct {
        double at, scale;
        const char *suffix;
    } S[] = {{1e15, 1e-15, "Q"}, {1e12, 1e-12, "T"}, {1e9, 1e-9, "B"}, {1e6, 1e-6, "M"}, {1e3, 1e-3, "K"}};
    const double c = (double)count;
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++)
        if (c > S[i].at) {
            snprintf(b, cap, "~%.0f%s", nearbyint(c * S[i].scale), S[i].suffix); /* round half to even */
            return;
        }
    snprintf(b, cap, "%llu", (unsigned long long)count);
}

/* Python's str.title() on ASCII: a letter after a letter is lowered, any
 * other letter raised (bytes of other characters count as letters). */
static void title(sb *o, const char *s, size_t n) {
    bool prev = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (letter) c = (unsigned char)(prev ? c | 0x20 : c & ~0x20);
        prev = letter || c >= 0x80;
        sb_put(o, (const char *)&c, 1);
    }
}

/* translate_tensor_name: each dot-separated word, abbreviations spelt out. */
static void translate(sb *o, const char *s, size_t n) {
    static const char *const ABBR[][2] = {
        {"token_embd", "Token embedding"},
        {"pos_embd", "Position embedding"},
        {"output_norm", "Output normalization"},
        {"output", "Output"},
        {"attn_norm", "Attention normalization"},
        {"attn_norm_2", "Attention normalization"},
        {"attn_qkv", "Attention query-key-value"},
        {"attn_q", "Attention query"},
        {"attn_k", "Attention key"},
        {"attn_v", "Attention value"},
        {"attn_output", "Attention output"},
        {"ffn_norm", "Feed-forward network normalization"},
        {"ffn_up", "Feed-forward network \"up\""},
        {"ffn_gate", "Feed-forward network \"gate\""},
        {"ffn_down", "Feed-forward network \"down\""},
        {"ffn_gate_inp", "Expert-routing layer for the Feed-forward network in Mixture of Expert models"},
        {"ffn_gate_exp", "Feed-forward network \"gate\" layer per expert in Mixture of Expert models"},
        {"ffn_down_exp", "Feed-forward network \"down\" layer per expert in Mixture of Expert models"},
        {"ffn_up_exp", "Feed-forward network \"up\" layer per expert in Mixture of Expert models"},
        {"ssm_in", "State space model input projections"},
        {"ssm_conv1d", "State space model rolling/shift"},
        {"ssm_x", "State space model selective parametrization"},
        {"ssm_a", "State space model state compression"},
        {"ssm_d", "State space model skip connection"},
        {"ssm_dt", "State space model time step"},
        {"ssm_out", "State space model output projection"},
        {"blk", "Block"},
        {"enc", "Encoder"},
        {"dec", "Decoder"},
    };
    size_t i = 0;
    for (bool first = true;; first = false) {
        size_t j = i;
        while (j < n && s[j] != '.') j++;
        if (!first) sb_puts(o, " ");
        /* the word stripped of white space and lowered, for the lookup */
        size_t a = i, b = j;
        while (a < b && strchr(" \t\n\r\v\f", s[a])) a++;
        while (b > a && strchr(" \t\n\r\v\f", s[b - 1])) b--;
        const char *full = NULL;
        for (size_t k = 0; k < sizeof ABBR / sizeof ABBR[0] && !full; k++) {
            size_t l = strlen(ABBR[k][0]);
            bool eq = l == b - a;
            for (size_t m = 0; eq && m < l; m++)
                eq = (s[a + m] >= 'A' && s[a + m] <= 'Z' ? s[a + m] | 0x20 : s[a + m]) == ABBR[k][0][m];
            if (eq) full = ABBR[k][1];
        }
        if (full) title(o, full, strlen(full));
        else title(o, s + i, j - i);
        if (j >= n) return;
        i = j + 1;
    }
}

/* The group gguf_dump.py puts a tensor in: blk.N, enc.blk.N, dec.blk.N,
 * enc, dec, or base; its length in name (or 0 for "base"). */
static size_t group_len(const char *s, size_t n) {
    size_t d[3], k = 0;
    for (size_t i = 0; i < n && k < 3; i++)
        if (s[i] == '.') d[k++] = i;
    size_t w0 = k ? d[0] : n;
    if (w0 == 3 && !memcmp(s, "blk", 3)) return k > 1 ? d[1] : n;
    if (w0 == 3 && (!memcmp(s, "enc", 3) || !memcmp(s, "dec", 3))) {
        if (k >= 1 && (k > 1 ? d[1] : n) - d[0] - 1 == 3 && !memcmp(s + d[0] + 1, "blk", 3)) return k > 2 ? d[2] : n;
        return 3;
    }
    return 0;
}

typedef struct tkey {
    const char *p; /* the group's name: a prefix of the cleaned tensor name, or "base" */
    size_t n;
} tkey;

static int cmp_key(const void *a, const void *b, void *ctx) {
    const tkey *k = ctx;
    const uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    const size_t l = k[i].n < k[j].n ? k[i].n : k[j].n;
    int c = memcmp(k[i].p, k[j].p, l);
    if (!c) c = k[i].n < k[j].n ? -1 : k[i].n > k[j].n;
    return c ? c : i < j ? -1 : 1;
}

/* A group: its members are ord[start, start + n), in file order. */
typedef struct group {
    size_t start, n;
    uint32_t first;
    uint64_t elements;
} group;

static int cmp_first(const void *a, const void *b) {
    const group *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

static void anchor(FILE *o, const tkey *k) {
    for (size_t i = 0; i < k->n; i++) fputc(k->p[i] == '.' ? '_' : k->p[i], o);
}

static void group_table(FILE *o, const lgg_file *f, const sb *names, const uint32_t *ord, const group *g) {
    static const char *const head[] = {"T_ID", "Tensor Layer Name", "Human Friendly Tensor Layer Name", "Elements",
                                       "Shape", "Type"};
    table t = {6, head, "rlllll", {0}, NULL, 0, 0};
    int west = 1, wn = 1, wd[4] = {1, 1, 1, 1};
    char b[64];
    for (size_t k = 0; k < g->n; k++) {
        const lgg_tensor *x = lgg_tensor_at(f, ord[g->start + k]);
        rounded(b, sizeof b, x->n_elements);
        if ((int)strlen(b) > west) west = (int)strlen(b);
        int l = snprintf(b, sizeof b, "%llu", (unsigned long long)x->n_elements);
        if (l > wn) wn = l;
        for (int d = 0; d < 4; d++)
            if ((l = snprintf(b, sizeof b, "%lld", (long long)x->ne[d])) > wd[d]) wd[d] = l;
    }
    for (size_t k = 0; k < g->n; k++) {
        const uint32_t i = ord[g->start + k];
        const lgg_tensor *x = lgg_tensor_at(f, i);
        const sb *nm = &names[i];
        cell(&t, "%u", i);
        size_t start = t.cells.n;
        sb_put(&t.cells, nm->p, nm->n);
        cell_end(&t, start);
        /* translate_tensor_name(name.replace(".weight", ".(W)").replace(".bias", ".(B)")) */
        sb h = {0}, h2 = {0};
        for (size_t j = 0; j < nm->n;)
            if (nm->n - j >= 7 && !memcmp(nm->p + j, ".weight", 7)) sb_puts(&h, ".(W)"), j += 7;
            else sb_put(&h, nm->p + j++, 1);
        for (size_t j = 0; j < h.n;)
            if (h.n - j >= 5 && !memcmp(h.p + j, ".bias", 5)) sb_puts(&h2, ".(B)"), j += 5;
            else sb_put(&h2, h.p + j++, 1);
        start = t.cells.n;
        translate(&t.cells, h2.p ? h2.p : "", h2.n);
        cell_end(&t, start);
        free(h.p);
        free(h2.p);
        rounded(b, sizeof b, x->n_elements);
        cell(&t, "(%*s) %*llu", west, b, wn, (unsigned long long)x->n_elements);
        cell(&t, "%*lld x %*lld x %*lld x %*lld", wd[0], (long long)x->ne[0], wd[1], (long long)x->ne[1], wd[2],
             (long long)x->ne[2], wd[3], (long long)x->ne[3]);
        cell(&t, "%s", cli_type_name(x->type));
    }
    table_print(o, &t);
    table_free(&t);
}

static int tensor_tables(FILE *o, const lgg_file *f) {
    const uint64_t n = lgg_tensor_count(f);
    sb *names = calloc(n ? n : 1, sizeof *names);
    tkey *keys = calloc(n ? n : 1, sizeof *keys);
    uint32_t *ord = calloc(n ? n : 1, sizeof *ord);
    group *gs = calloc(n ? n : 1, sizeof *gs);
    int rc = names && keys && ord && gs ? CLI_OK : CLI_FAIL;
    uint64_t total = 0;
    size_t ng = 0;
    for (uint64_t i = 0; i < n && !rc; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        clean(&names[i], t->name.ptr, t->name.len);
        if (names[i].oom) rc = CLI_FAIL;
        const char *p = names[i].p ? names[i].p : "";
        size_t gl = group_len(p, names[i].n);
        keys[i] = gl ? (tkey){p, gl} : (tkey){"base", 4};
        ord[i] = (uint32_t)i;
        total += t->n_elements;
    }
    if (!rc) {
        qsort_r(ord, n, sizeof *ord, cmp_key, keys);
        for (size_t k = 0; k < n; k++) {
            const tkey *a = &keys[ord[k]], *b = k ? &keys[ord[k - 1]] : NULL;
            if (!b || a->n != b->n || memcmp(a->p, b->p, a->n)) gs[ng++] = (group){k, 0, ord[k], 0};
            gs[ng - 1].n++;
            gs[ng - 1].elements += lgg_tensor_at(f, ord[k])->n_elements;
        }
        qsort(gs, ng, sizeof *gs, cmp_first);
    }
    char b[64];
    rounded(b, sizeof b, total);
    fprintf(o, "## Tensors Overview %s Elements\n\n", b);
    fprintf(o, "Total number of elements in all tensors: %llu Elements\n\n", (unsigned long long)total);
    for (size_t g = 0; g < ng; g++) {
        const tkey *k = &keys[gs[g].first];
        sb tr = {0};
        translate(&tr, k->p, k->n);
        rounded(b, sizeof b, gs[g].elements);
        fprintf(o, "- [%s Tensor Group - %s Elements](#", tr.p ? tr.p : "", b);
        anchor(o, k);
        fputs(")\n", o);
        free(tr.p);
    }
    fputs("\n### Tensor Data Offset\n\nThis table contains the offset and data segment relative to start of file\n\n",
          o);
    static const char *const head[] = {"T_ID", "Tensor Layer Name", "Data Offset (B)", "Data Size (B)"};
    table t = {4, head, "rlrr", {0}, NULL, 0, 0};
    for (uint64_t i = 0; i < n && !rc; i++) {
        const lgg_tensor *x = lgg_tensor_at(f, i);
        char off[32], size[32];
        snprintf(off, sizeof off, "0x%llx", (unsigned long long)(lgg_file_data_offset(f) + x->offset));
        snprintf(size, sizeof size, "0x%llx", (unsigned long long)x->size);
        cell(&t, "%llu", (unsigned long long)i);
        size_t start = t.cells.n;
        sb_put(&t.cells, names[i].p ? names[i].p : "", names[i].n);
        cell_end(&t, start);
        cell(&t, "%16s", off); /* '{0:#16x}' */
        cell(&t, "%16s", size);
    }
    table_print(o, &t);
    table_free(&t);
    fputc('\n', o);
    for (size_t g = 0; g < ng; g++) {
        const tkey *k = &keys[gs[g].first];
        sb tr = {0};
        translate(&tr, k->p, k->n);
        rounded(b, sizeof b, gs[g].elements);
        fputs("### <a name=\"", o);
        anchor(o, k);
        fprintf(o, "\">%s Tensor Group : %s Elements</a>\n\n", tr.p ? tr.p : "", b);
        free(tr.p);
        group_table(o, f, names, ord, &gs[g]);
        fputs("\n- Total elements in ", o);
        fwrite(k->p, 1, k->n, o);
        fprintf(o, ": (%4s) %llu\n", b, (unsigned long long)gs[g].elements);
        /* gguf_dump.py divides by zero when every tensor is empty */
        fprintf(o, "- Percentage of total elements: %.2f%%\n\n\n",
                total ? (double)gs[g].elements / (double)total * 100 : 0.0);
    }
    for (uint64_t i = 0; names && i < n; i++) free(names[i].p);
    free(names);
    free(keys);
    free(ord);
    free(gs);
    return rc;
}

int cli_dump_markdown(FILE *o, const char *path, const lgg_file *f, int tensors) {
    sb title = {0};
    clean(&title, path, strlen(path));
    fprintf(o, "# %s - GGUF Internal File Dump\n\n", title.p ? title.p : "");
    free(title.p);
    fprintf(o, "- Endian: %s endian\n\n", lgg_file_endian(f) == LGG_BIG_ENDIAN ? "BIG" : "LITTLE");
    fprintf(o, "## Key Value Metadata Store\n\nThere are %llu key-value pairs in this file\n\n",
            (unsigned long long)lgg_kv_count(f) + 3);
    kv_table(o, f);
    fputc('\n', o);
    int rc = tensors ? tensor_tables(o, f) : CLI_OK;
    fputc('\n', o); /* print() ends the text with a newline */
    return rc;
}
