/* test_simd_name.c -- lgg_simd_name's documentation lists exactly the names
 * the library can return: the quoted names in the header's comment over it
 * equal the names dequant.c assigns to its choice of path. */
#include "test.h"
#include "libgguf.h"

#include <stdlib.h>

/* The quoted words in text[0..n), as "a|b|c|" in order of appearance. */
static void quoted(const char *text, size_t n, char *out, size_t cap) {
    out[0] = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] != '"') continue;
        const char *end = memchr(text + i + 1, '"', n - i - 1);
        if (!end) break;
        size_t len = (size_t)(end - text - i - 1), used = strlen(out);
        if (used + len + 2 < cap) {
            memcpy(out + used, text + i + 1, len);
            out[used + len] = '|';
            out[used + len + 1] = 0;
        }
        i = (size_t)(end - text);
    }
}

/* Every word of the list x ("a|b|") is in the list y. */
static bool all_in(const char *x, const char *y) {
    char yy[512];
    snprintf(yy, sizeof yy, "|%s", y);
    for (const char *p = x; *p;) {
        const char *bar = strchr(p, '|');
        char w[64];
        snprintf(w, sizeof w, "|%.*s|", (int)(bar - p), p);
        if (!strstr(yy, w)) return false;
        p = bar + 1;
    }
    return true;
}

TEST(simd_name_documentation_is_true) {
    size_t hn = 0, sn = 0;
    char *h = (char *)read_file("include/libgguf/quant.h", &hn), *s = (char *)read_file("src/quant/dequant.c", &sn);
    REQUIRE(h && s);
    h = realloc(h, hn + 1);
    s = realloc(s, sn + 1);
    h[hn] = s[sn] = 0;
    const char *decl = strstr(h, "lgg_simd_name(void)");
    REQUIRE(decl != NULL);
    const char *open = decl;
    while (open > h && memcmp(open, "/*", 2) != 0) open--;
    char doc[256], src[256];
    quoted(open, (size_t)(decl - open), doc, sizeof doc);
    /* "scalar" is the initial value; the others are assigned when a path is chosen */
    char assigned[256] = "";
    const char *init = strstr(s, "best_name = \"");
    REQUIRE(init != NULL);
    for (const char *p = s; (p = strstr(p, "best_name = \"")); p++) {
        const char *q = p + strlen("best_name = ");
        const char *end = strchr(q, ';');
        quoted(q, (size_t)(end - q), src, sizeof src);
        strncat(assigned, src, sizeof assigned - strlen(assigned) - 1);
    }
    CHECKF(all_in(doc, assigned) && all_in(assigned, doc), "header lists %s, the source assigns %s", doc, assigned);
    free(h);
    free(s);
}
