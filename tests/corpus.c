/* corpus.c -- the corpus, from ../shared or its compact copy (corpus.h). */
#include "corpus.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define CORPUS_DATA "tests/data/golden"

static bool parse_row(const char *line, corpus_row *r) {
    char data[8], both[8], v[24], nt[24], nkv[24]; /* "-": none */
    memset(r, 0, sizeof *r);
    if (sscanf(line, "%255s %llu %64s %llu %7s %23s %23s %23s %7s", r->path, &r->bytes, r->sha256, &r->head_bytes, data,
               v, nt, nkv, both) != 9)
        return false; /* the heading */
    r->version = (unsigned)strtoul(v, NULL, 10);
    r->n_tensors = strtoull(nt, NULL, 10);
    r->n_kv = strtoull(nkv, NULL, 10);
    snprintf(r->data, sizeof r->data, "%s", data);
    r->both_accept = strcmp(both, "yes") == 0;
    return true;
}

int corpus_index(const corpus_row **rows) {
    static corpus_row *table;
    static int n;
    if (!table) {
        size_t len = 0;
        char *t = (char *)read_file(CORPUS_DATA "/corpus.tsv", &len);
        if (!t) {
            *rows = NULL;
            return 0;
        }
        int cap = 1;
        for (size_t i = 0; i < len; i++) cap += t[i] == '\n';
        table = calloc((size_t)cap, sizeof *table);
        unsigned long long at = 0;
        char *save = NULL;
        for (char *line = strtok_r(t, "\n", &save); table && line && n < cap; line = strtok_r(NULL, "\n", &save)) {
            if (!parse_row(line, &table[n])) continue;
            table[n].head_at = at;
            at += table[n++].head_bytes;
        }
        free(t);
    }
    *rows = table;
    return n;
}

bool need_corpus(void) {
    if (shared_present()) return true;
    const corpus_row *rows;
    if (corpus_index(&rows) > 0) return true;
    test_skip("neither the reference material (%s) nor %s/corpus.tsv is there", shared_path(""), CORPUS_DATA);
    return false;
}

/* mkdir -p of PATH's directory. */
static bool make_parents(char *path) {
    for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        const bool ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        *s = '/';
        if (!ok) return false;
    }
    return true;
}

/* Write row R's file to TO (through a temporary name: workers share the
 * scratch directory) from its prefix in corpus.heads. */
static bool rebuild(const corpus_row *r, char *to) {
    FILE *h = fopen(CORPUS_DATA "/corpus.heads", "rb");
    unsigned char *b = h ? calloc(1, r->bytes + 1) : NULL;
    bool ok = b && r->head_bytes <= r->bytes && fseek(h, (long)r->head_at, SEEK_SET) == 0 &&
              fread(b, 1, r->head_bytes, h) == r->head_bytes;
    if (h) fclose(h);
    if (ok && !strcmp(r->data, "whole")) {
        char got[65];
        sha256_hex(b, r->bytes, got);
        CHECKF(strcmp(got, r->sha256) == 0, "%s: rebuilt with sha256 %s, the reference's is %s", r->path, got,
               r->sha256);
        ok = strcmp(got, r->sha256) == 0;
    }
    char tmp[1700];
    snprintf(tmp, sizeof tmp, "%s.%ld", to, (long)getpid());
    ok = ok && make_parents(to);
    FILE *out = ok ? fopen(tmp, "wb") : NULL;
    ok = out && fwrite(b, 1, r->bytes, out) == r->bytes;
    if (out) ok = (fclose(out) == 0) && ok && rename(tmp, to) == 0;
    CHECKF(ok, "%s: cannot rebuild it from %s/corpus.heads", r->path, CORPUS_DATA);
    free(b);
    return ok;
}

const char *corpus_path(const char *rel) {
    static char p[8][1600];
    static int k;
    k = (k + 1) % 8;
    if (shared_present()) {
        snprintf(p[k], sizeof p[k], "%scorpus/%s", shared_path(""), rel);
        return p[k];
    }
    const corpus_row *rows;
    const int n = corpus_index(&rows);
    for (int i = 0; i < n; i++) {
        if (strcmp(rows[i].path, rel) != 0) continue;
        snprintf(p[k], sizeof p[k], "%s/corpus/%s", scratch_dir(), rel);
        return access(p[k], R_OK) == 0 || rebuild(&rows[i], p[k]) ? p[k] : NULL;
    }
    return NULL;
}
