/* test_layout.c -- the tracked files keep to the project's layout: every
 * path `git ls-files` lists is allowed by scripts/layout.txt (top-level
 * files, patterns and directories) and no tracked file is larger than its
 * max-bytes, so a build output or a model committed by mistake fails here. */
#include "test.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define LAYOUT_FILE "scripts/layout.txt"

typedef struct {
    char *text;        /* the file, lines split in place */
    const char *entry[128];
    size_t n;
    long long max_bytes;
} layout;

static bool layout_load(layout *l, const char *path) {
    size_t sz;
    memset(l, 0, sizeof *l);
    l->max_bytes = -1;
    unsigned char *b = read_file(path, &sz);
    if (!b) return false;
    l->text = realloc(b, sz + 1);
    l->text[sz] = 0;
    for (char *line = strtok(l->text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0]) continue;
        if (sscanf(line, "max-bytes %lld", &l->max_bytes) == 1) continue;
        if (l->n < sizeof l->entry / sizeof l->entry[0]) l->entry[l->n++] = line;
    }
    return true;
}

/* True when PATH (relative to the root) is allowed by one of the entries. */
static bool layout_allows(const layout *l, const char *path) {
    const char *slash = strchr(path, '/');
    const size_t top = slash ? (size_t)(slash - path) + 1 : strlen(path);
    char first[1024];
    snprintf(first, sizeof first, "%.*s", (int)top, path);
    for (size_t i = 0; i < l->n; i++) {
        const size_t el = strlen(l->entry[i]);
        const bool dir = el && l->entry[i][el - 1] == '/';
        if (dir == (slash != NULL) && fnmatch(l->entry[i], first, 0) == 0) return true;
    }
    return false;
}

/* The matcher itself: what it must let through and what it must catch. */
TEST(layout_rules_catch_a_stray_file) {
    layout l;
    REQUIRE(layout_load(&l, LAYOUT_FILE));
    CHECK(l.n >= 10);
    CHECK(l.max_bytes > 0);
    CHECK(layout_allows(&l, "src/base/reader.c"));
    CHECK(layout_allows(&l, "Makefile"));
    CHECK(layout_allows(&l, "LICENSE"));
    CHECK(!layout_allows(&l, "out.gguf"));
    CHECK(!layout_allows(&l, "Makefile/x"));   /* a file entry is not a directory */
    CHECK(!layout_allows(&l, "src"));          /* nor a directory entry a file */
    CHECK(!layout_allows(&l, "build/gguf"));
    free(l.text);
}

/* git ls-files -z, or NULL (and the test skipped with the reason). */
static char *tracked_files(size_t *len) {
    struct stat st;
    if (stat(".git", &st) != 0) {
        test_skip("not a git checkout (no .git): the tracked files cannot be listed");
        return NULL;
    }
    char *argv[] = {"/bin/sh", "-c", "exec git ls-files -z", NULL}, *out = NULL, *err = NULL;
    size_t el;
    int status;
    if (run_capture(argv, &out, len, &err, &el, &status) != 0 || status != 0) {
        test_skip("git ls-files did not run (status %d): %.200s", status, err ? err : "");
        free(out);
        free(err);
        return NULL;
    }
    free(err);
    return out;
}

TEST(layout_tracked_files_follow_layout_txt) {
    layout l;
    REQUIRE(layout_load(&l, LAYOUT_FILE));
    size_t len;
    char *list = tracked_files(&len);
    if (!list) {
        free(l.text);
        return;
    }
    size_t files = 0;
    for (const char *p = list; p < list + len; p += strlen(p) + 1) {
        struct stat st;
        files++;
        CHECKF(layout_allows(&l, p), "%s: tracked outside the layout (%s)", p, LAYOUT_FILE);
        if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
            CHECKF(st.st_size <= l.max_bytes, "%s: %lld bytes, over the %lld of %s", p, (long long)st.st_size,
                   l.max_bytes, LAYOUT_FILE);
    }
    CHECK(files > 100);
    free(list);
    free(l.text);
}
