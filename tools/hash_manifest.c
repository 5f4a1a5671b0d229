/* hash_manifest.c -- llama-gguf-hash's manifest format, indexed so that a
 * check is O(log n) per line rather than a rescan of the file per tensor. */
#include "tool.h"
#include "hash.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
    const char *p;
    size_t n;
} span;

typedef struct entry {
    span type, hash, name;
    size_t line;
} entry;

struct hash_manifest {
    char *text;
    entry *e;
    size_t n;
    unsigned types;
};

/* The separators of C++'s operator>> in the "C" locale. */
static int is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

static span next_word(const char **p, const char *end) {
    const char *s = *p;
    while (s < end && is_ws(*s)) s++;
    const char *w = s;
    while (s < end && !is_ws(*s)) s++;
    *p = s;
    return (span){w, (size_t)(s - w)};
}

static int span_eq(span a, const char *s, size_t n) { return a.n == n && !memcmp(a.p, s, n); }

static int span_cmp(span a, span b) {
    int c = memcmp(a.p, b.p, a.n < b.n ? a.n : b.n);
    return c ? c : (a.n > b.n) - (a.n < b.n);
}

static int entry_cmp(const void *x, const void *y) {
    const entry *a = x, *b = y;
    int c = span_cmp(a->type, b->type);
    if (!c) c = span_cmp(a->name, b->name);
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

static unsigned type_bit(span t) {
    if (span_eq(t, "sha256", 6)) return HASH_SHA256;
    if (span_eq(t, "sha1", 4)) return HASH_SHA1;
    if (span_eq(t, "xxh64", 5)) return HASH_XXH64;
    if (span_eq(t, "uuid", 4)) return HASH_UUID;
    return 0;
}

int hash_manifest_load(const char *path, hash_manifest **out, char *why, size_t cap) {
    *out = NULL;
    hash_manifest *m = calloc(1, sizeof *m);
    size_t len = 0, lines = 1;
    if (!m || !(m->text = cli_slurp(path, &len, why, cap))) {
        if (!m) snprintf(why, cap, "out of memory");
        free(m);
        return -1;
    }
    cli_input_add(path, -1, 0);
    for (size_t i = 0; i < len; i++) lines += m->text[i] == '\n';
    if (!(m->e = malloc(lines * sizeof *m->e))) {
        snprintf(why, cap, "out of memory");
        hash_manifest_free(m);
        return -1;
    }
    const char *p = m->text, *end = m->text + len;
    for (size_t line = 0; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
        entry e = {next_word(&p, eol), {0}, {0}, line};
        m->types |= type_bit(e.type);
        e.hash = next_word(&p, eol);
        e.name = next_word(&p, eol);
        if (e.name.n) m->e[m->n++] = e;
        p = nl ? nl + 1 : end;
    }
    qsort(m->e, m->n, sizeof *m->e, entry_cmp);
    *out = m;
    return 0;
}

unsigned hash_manifest_types(const hash_manifest *m) { return m->types; }

int hash_manifest_verify(const hash_manifest *m, const char *type, const char *hash, const char *name,
                         size_t name_len) {
    entry key = {{type, strlen(type)}, {0}, {name, name_len}, 0};
    size_t lo = 0, hi = m->n; /* the first entry not before (type, name, line 0) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entry_cmp(&m->e[mid], &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo == m->n || span_cmp(m->e[lo].type, key.type) || span_cmp(m->e[lo].name, key.name)) return HASH_NOT_FOUND;
    return span_eq(m->e[lo].hash, hash, strlen(hash)) ? HASH_MATCH : HASH_MISMATCH;
}

void hash_manifest_free(hash_manifest *m) {
    if (!m) return;
    free(m->text);
    free(m->e);
    free(m);
}

const char *hash_verdict_name(int v) { return v == HASH_MATCH ? "Ok" : v == HASH_MISMATCH ? "Mismatch" : "Not Found"; }
