/* test_cli.c -- the gguf tool, end to end: every case in tests/cli/ runs the
 * built binary and compares stdout, stderr and the exit status exactly.
 *
 * A case NAME has NAME.cmd (the arguments, one per line), NAME.out, NAME.err
 * and NAME.status.  "@SHARED@" in any of them stands for the shared reference
 * directory.  Run with GGUF_CLI_REGEN=1 to rewrite the expectations from the
 * current tool (then read the diff before committing it). */
#include "test.h"

#include <dirent.h>
#include <stdlib.h>

static char *subst(const char *s, const char *from, const char *to) {
    size_t fl = strlen(from), tl = strlen(to), n = 0;
    for (const char *p = s; (p = strstr(p, from)); p += fl) n++;
    char *r = malloc(strlen(s) + n * tl + 1), *o = r;
    for (const char *p = s;;) {
        const char *q = strstr(p, from);
        if (!q) {
            strcpy(o, p);
            break;
        }
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        memcpy(o, to, tl);
        o += tl;
        p = q + fl;
    }
    return r;
}

static char *load_text(const char *path) {
    size_t n;
    unsigned char *b = read_file(path, &n);
    if (!b) return NULL;
    char *s = malloc(n + 1);
    memcpy(s, b, n);
    s[n] = 0;
    free(b);
    return s;
}

static void save_text(const char *path, const char *s) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(s, f);
        fclose(f);
    }
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

TEST(cli_cases) {
    char shared[4096];
    snprintf(shared, sizeof shared, "%s", shared_path(""));
    if (shared[0] && shared[strlen(shared) - 1] == '/') shared[strlen(shared) - 1] = 0;
    char tool[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    bool regen = getenv("GGUF_CLI_REGEN") != NULL;

    DIR *d = opendir("tests/cli");
    REQUIRE(d != NULL);
    char *names[512];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".cmd")) names[n++] = strndup(e->d_name, l - 4);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    CHECK(n >= 15);
    for (int i = 0; i < n; i++) {
        char p[1024];
        snprintf(p, sizeof p, "tests/cli/%s.cmd", names[i]);
        char *cmd_raw = load_text(p);
        REQUIRE(cmd_raw != NULL);
        char *cmd = subst(cmd_raw, "@SHARED@", shared);
        char *argv[64];
        int argc = 0;
        argv[argc++] = tool;
        for (char *line = strtok(cmd, "\n"); line && argc < 63; line = strtok(NULL, "\n")) argv[argc++] = line;
        argv[argc] = NULL;
        char *out, *err;
        size_t ol, el;
        int status;
        REQUIRE(run_capture(argv, &out, &ol, &err, &el, &status) == 0);
        char *out_t = subst(out, shared, "@SHARED@"), *err_t = subst(err, shared, "@SHARED@");
        char st[16];
        snprintf(st, sizeof st, "%d\n", status);
        const char *ext[3] = {"out", "err", "status"};
        const char *got[3] = {out_t, err_t, st};
        for (int k = 0; k < 3; k++) {
            snprintf(p, sizeof p, "tests/cli/%s.%s", names[i], ext[k]);
            if (regen) {
                save_text(p, got[k]);
                continue;
            }
            char *want = load_text(p);
            CHECKF(want != NULL, "%s: missing", p);
            if (want && strcmp(want, got[k]) != 0) {
                size_t j = 0;
                while (want[j] && want[j] == got[k][j]) j++;
                test_fail(__FILE__, __LINE__, "%s differs at byte %zu: want \"%.40s\" got \"%.40s\"", p, j, want + j,
                          got[k] + j);
            }
            free(want);
        }
        free(out_t);
        free(err_t);
        free(out);
        free(err);
        free(cmd);
        free(cmd_raw);
        free(names[i]);
    }
}
