/* test_symbols.c -- libgguf and ggml can live in one program: no exported
 * symbol, public macro, enum constant, type or header name of ours equals one
 * of ggml's (../shared/ggml-public-names.txt, copied to tests/data/), and every exported symbol has
 * our prefix. */
#include "test.h"

#include <ctype.h>
#include <glob.h>
#include <stdlib.h>

static unsigned char *names_buf;
static char **load_names(size_t *n) {
    size_t sz;
    free(names_buf);
    unsigned char *b = read_file("tests/data/ggml-public-names.txt", &sz) /* ../shared/ggml-public-names.txt, copied */;
    if (!b) return NULL;
    names_buf = b;
    char **v = malloc(sizeof *v * (sz / 2 + 1));
    size_t k = 0;
    char *s = (char *)b;
    s[sz - 1] = s[sz - 1] == '\n' ? 0 : s[sz - 1];
    for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] && line[0] != '#') v[k++] = line;
    *n = k;
    return v;
}

static bool in_list(char **v, size_t n, const char *s) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i], s)) return true;
    return false;
}

TEST(symbols_exported_names_do_not_clash_with_ggml) {
    size_t n;
    char **names = load_names(&n);
    REQUIRE(names != NULL && n > 1000);
    char lib[1024], *argv[] = {"/usr/bin/nm", "-D", "--defined-only", lib, NULL};
    snprintf(lib, sizeof lib, "%s/libgguf.so", build_dir());
    char *out, *err;
    size_t ol, el;
    int status;
    REQUIRE(run_capture(argv, &out, &ol, &err, &el, &status) == 0);
    REQUIRE(status == 0);
    int exported = 0;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
        char *sym = strrchr(line, ' ');
        if (!sym) continue;
        sym++;
        char kind = line[strlen(line) - strlen(sym) - 2];
        if (kind != 'T' && kind != 'D' && kind != 'B' && kind != 'R') continue;
        exported++;
        CHECKF(!in_list(names, n, sym), "exported symbol %s is a ggml name", sym);
        CHECKF(!strncmp(sym, "lgg_", 4), "exported symbol %s lacks the lgg_ prefix", sym);
    }
    CHECK(exported > 50);
    free(out);
    free(err);
    free(names);
    free(names_buf);
    names_buf = NULL;
}

/* Every identifier of ours in one header: none may be a ggml name (ggml
 * names mentioned in comments would be words inside comments; we check all
 * identifiers, so a header must not even mention them as code). */
static int header_ids(char **names, size_t n, const char *path) {
    size_t sz;
    unsigned char *h = read_file(path, &sz);
    CHECKF(h != NULL, "%s: cannot read it", path);
    if (!h) return 0;
    int ids = 0;
    for (size_t i = 0; i < sz;) {
        if (isalpha(h[i]) || h[i] == '_') {
            size_t j = i;
            while (j < sz && (isalnum(h[j]) || h[j] == '_')) j++;
            char id[256];
            size_t l = j - i < 255 ? j - i : 255;
            memcpy(id, h + i, l);
            id[l] = 0;
            if (!strncmp(id, "lgg_", 4) || !strncmp(id, "LGG_", 4)) {
                ids++;
                CHECKF(!in_list(names, n, id), "%s defines ggml name %s", path, id);
            }
            i = j;
        } else {
            i++;
        }
    }
    free(h);
    return ids;
}

/* Every public header (the headers in include/ and the core's topic headers in
 * include/libgguf/): its name and its identifiers. */
TEST(symbols_header_names_do_not_clash_with_ggml) {
    size_t n;
    char **names = load_names(&n);
    REQUIRE(names != NULL);
    glob_t g;
    REQUIRE(glob("include/*.h", 0, NULL, &g) == 0);
    REQUIRE(glob("include/libgguf/*.h", GLOB_APPEND, NULL, &g) == 0);
    int ids = 0, core = 0;
    for (size_t k = 0; k < g.gl_pathc; k++) {
        const char *path = g.gl_pathv[k], *base = strrchr(path, '/') + 1;
        CHECKF(!in_list(names, n, base), "header name %s is ggml's", base);
        int m = header_ids(names, n, path);
        CHECKF(m > 0, "%s: no lgg_ identifier read", path);
        ids += m;
        core += !strcmp(path, "include/libgguf.h");
    }
    CHECK(core == 1);
    CHECKF(g.gl_pathc >= 10, "%zu public headers read (the 4 parts' and the core's topic headers)", g.gl_pathc);
    CHECK(ids > 100);
    globfree(&g);
    free(names);
    free(names_buf);
    names_buf = NULL;
}

/* Sorted names of one kind: the lines of abi/libX.sym (comments out), or
 * the defined dynamic symbols of build/libX.so. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
static size_t split_sorted(char *text, char ***out, bool nm_output) {
    size_t n = 0, cap = 64;
    char **v = malloc(sizeof *v * cap);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (nm_output) {
            char *sym = strrchr(line, ' ');
            if (!sym || sym - line < 2 || !strchr("TDBRVW", sym[-1])) continue;
            line = sym + 1;
        } else if (!line[0] || line[0] == '#') {
            continue;
        }
        if (n == cap) v = realloc(v, sizeof *v * (cap *= 2));
        v[n++] = line;
    }
    qsort(v, n, sizeof *v, cmp_str);
    *out = v;
    return n;
}

/* Every shared library the build made exports exactly the symbols its
 * abi/libNAME.sym lists: one added or removed without that file changing
 * in the same commit fails here (the ABI is reviewed, not drifted into). */
TEST(symbols_abi_lists_match_the_libraries) {
    static const char *libs[] = {"gguf", "gguf-convert", "gguf-remote", "gguf-tokenize"};
    int checked = 0;
    for (size_t k = 0; k < sizeof libs / sizeof *libs; k++) {
        char lib[1024], sym[256];
        snprintf(lib, sizeof lib, "%s/lib%s.so", build_dir(), libs[k]);
        snprintf(sym, sizeof sym, "abi/lib%s.sym", libs[k]);
        FILE *f = fopen(lib, "rb");
        if (!f) {
            /* a companion `make` skipped (its libraries are missing); the core never is */
            CHECKF(k > 0, "%s was not built", lib);
            continue;
        }
        fclose(f);
        size_t sz;
        char *listed = (char *)read_file(sym, &sz);
        CHECKF(listed != NULL, "%s is built but %s is missing: list its exported symbols there", lib, sym);
        if (!listed) continue;
        listed = realloc(listed, sz + 1);
        listed[sz] = 0;
        char *argv[] = {"/usr/bin/nm", "-D", "--defined-only", lib, NULL}, *out, *err;
        size_t ol, el;
        int status;
        REQUIRE(run_capture(argv, &out, &ol, &err, &el, &status) == 0 && status == 0);
        char **a, **b;
        size_t na = split_sorted(listed, &a, false), nb = split_sorted(out, &b, true);
        size_t i = 0, j = 0;
        while (i < na || j < nb) {
            int c = i == na ? 1 : j == nb ? -1 : strcmp(a[i], b[j]);
            CHECKF(c >= 0, "%s lists %s, which lib%s.so does not export", sym, a[i], libs[k]);
            CHECKF(c <= 0, "lib%s.so exports %s, which %s does not list", libs[k], b[j], sym);
            i += c <= 0;
            j += c >= 0;
        }
        CHECKF(na > 10, "%s lists only %zu symbols", sym, na);
        checked++;
        free(a);
        free(b);
        free(listed);
        free(out);
        free(err);
    }
    CHECK(checked >= 1);
}
