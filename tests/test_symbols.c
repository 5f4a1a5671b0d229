/* test_symbols.c -- libgguf and ggml can live in one program: no exported
 * symbol, public macro, enum constant, type or header name of ours equals one
 * of ggml's (../shared/ggml-public-names.txt), and every exported symbol has
 * our prefix. */
#include "test.h"

#include <ctype.h>
#include <stdlib.h>

static unsigned char *names_buf;
static char **load_names(size_t *n) {
    size_t sz;
    free(names_buf);
    unsigned char *b = read_file(shared_path("ggml-public-names.txt"), &sz);
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
    if (!need_shared()) return;
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

TEST(symbols_header_names_do_not_clash_with_ggml) {
    if (!need_shared()) return;
    size_t n;
    char **names = load_names(&n);
    REQUIRE(names != NULL);
    CHECK(!in_list(names, n, "libgguf.h"));
    size_t sz;
    unsigned char *h = read_file("include/libgguf.h", &sz);
    REQUIRE(h != NULL);
    /* every identifier in the header: none may be a ggml name */
    int ids = 0;
    for (size_t i = 0; i < sz;) {
        if (isalpha(h[i]) || h[i] == '_') {
            size_t j = i;
            while (j < sz && (isalnum(h[j]) || h[j] == '_')) j++;
            char id[256];
            size_t l = j - i < 255 ? j - i : 255;
            memcpy(id, h + i, l);
            id[l] = 0;
            /* ggml names mentioned in comments would be words inside comments; we
               check all identifiers, so the header must not even mention them as code */
            if (!strncmp(id, "lgg_", 4) || !strncmp(id, "LGG_", 4)) {
                ids++;
                CHECKF(!in_list(names, n, id), "header defines ggml name %s", id);
            }
            i = j;
        } else {
            i++;
        }
    }
    CHECK(ids > 100);
    free(h);
    free(names);
    free(names_buf);
    names_buf = NULL;
}
