/* cli_mem.c -- the tool's memory helpers, below every other part of it:
 * one growable array and one whole-file reader. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char *cli_slurp(const char *path, size_t *len, char *why, size_t cap) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, cap, "%s", strerror(errno));
        return NULL;
    }
    char *b = cli_slurp_stream(f, len, why, cap);
    fclose(f);
    return b;
}

char *cli_slurp_stream(FILE *f, size_t *len, char *why, size_t cap) {
    size_t n = 0, c = 0;
    char *b = NULL;
    bool oom = false;
    for (;;) {
        if (n == c && !cli_grow((void **)&b, &c, n + 1, 1, 1 << 16)) {
            oom = true;
            break;
        }
        size_t r = fread(b + n, 1, c - n, f);
        if (!r) break;
        n += r;
    }
    const bool bad = ferror(f);
    if (oom || bad) {
        snprintf(why, cap, "%s", oom ? "out of memory" : "read error");
        free(b);
        return NULL;
    }
    *len = n;
    return b;
}

bool cli_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first) {
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : (first ? first : 1);
    while (c < need) c = c > SIZE_MAX / 2 ? need : c * 2;
    size_t bytes;
    if (__builtin_mul_overflow(c, elem, &bytes)) return false;
    void *q = realloc(*p, bytes);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}
