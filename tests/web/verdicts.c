/* verdicts.c -- the hostile-file replay of the WebAssembly build: built
 * natively and with emcc (run in node), it prints one line per input with
 * what the page's C side (web/gguf_web.c) makes of it, and
 * tests/web/run.sh requires the two outputs to be identical.
 *
 * Inputs: every crafted case of tests/hostile.c (built in memory; the line
 * also says whether the status is the one the case expects), then every file named on the command line (directories are
 * walked, in sorted order).  Each is opened the way the page opens it: a
 * prefix of min(size, 256 KiB) bytes, grown to what the library asks for
 * until it opens or fails.  An open file is summarised (counts, findings
 * by severity, the first error), then edited as the page edits (a rename
 * of general.name, one key set, one removed) and its new header written
 * and validated; the line ends with the header's length and FNV-1a hash. */
#include "../../web/gguf_web.h"
#include "hostile.h"
#include "libgguf.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int count_of(const char *json, const char *what) {
    int n = 0;
    for (const char *p = json; (p = strstr(p, what)); p++) n++;
    return n;
}

/* A JSON text from `key` to its end, on one line. */
static void print_from(const char *json, const char *key) {
    const char *p = strstr(json, key);
    putchar(' ');
    for (; p && *p; p++) putchar(*p == '\n' ? ' ' : *p);
}

static uint64_t fnv(const uint8_t *p, uint64_t n) {
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static void replay(const char *name, const uint8_t *data, uint64_t size) {
    uint64_t len = size < (256u << 10) ? size : (256u << 10);
    web_doc *d = NULL;
    const char *base = strrchr(name, '/'); /* the page knows the base name only */
    base = base ? base + 1 : name;
    for (;;) {
        uint8_t *p = malloc(len ? len : 1);
        if (!p) return;
        memcpy(p, data, len);
        d = web_open(p, (double)len, (double)size, base);
        uint64_t need = (uint64_t)web_need();
        if (d || need <= len || need > size) break;
        len = need;
    }
    printf("%s:", name);
    if (!d) {
        printf(" %s\n", web_error_json());
        return;
    }
    const char *v = web_view_json(d);
    printf(" ok errors=%d warnings=%d notes=%d", count_of(v, "\"severity\": \"error\""),
           count_of(v, "\"severity\": \"warning\""), count_of(v, "\"severity\": \"note\""));
    print_from(v, "\"findings\": ");
    int e = web_rename(d, "general.name", "general.basename");
    e = e * 2 + web_set(d, "general.description", "str:edited in the browser");
    e = e * 2 + web_remove(d, "general.architecture");
    e = e * 2 + web_commit(d);
    printf(" edits=%d header=%.0f fnv=%016llx\n", e, web_header_len(d),
           (unsigned long long)fnv(web_header(d), (uint64_t)web_header_len(d)));
    web_close(d);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void replay_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *dir = opendir(path);
        if (!dir) return;
        char **names = NULL;
        size_t n = 0;
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.') continue;
            char **q = realloc(names, (n + 1) * sizeof *names);
            if (!q) break;
            names = q;
            names[n] = malloc(strlen(path) + strlen(e->d_name) + 2);
            if (names[n]) sprintf(names[n++], "%s/%s", path, e->d_name);
        }
        closedir(dir);
        qsort(names, n, sizeof *names, by_name);
        for (size_t i = 0; i < n; i++) {
            replay_path(names[i]);
            free(names[i]);
        }
        free(names);
        return;
    }
    FILE *f = fopen(path, "rb");
    if (!f) return;
    uint8_t *p = malloc((size_t)st.st_size + 1);
    if (p && fread(p, 1, (size_t)st.st_size, f) == (size_t)st.st_size) replay(path, p, (uint64_t)st.st_size);
    free(p);
    fclose(f);
}

int main(int argc, char **argv) {
    for (size_t i = 0; i < hostile_count(); i++) {
        const hostile_case *h = hostile_get(i);
        buf b;
        memset(&b, 0, sizeof b);
        h->build(&b);
        lgg_file *f = NULL;
        lgg_status s = lgg_open_memory(b.p, b.n, NULL, &f, NULL);
        lgg_close(f);
        printf("hostile %s expect=%s got=%s ", h->name, lgg_status_name(h->expect), lgg_status_name(s));
        replay(h->name, b.p, b.n);
        buf_free(&b);
    }
    for (int i = 1; i < argc; i++) replay_path(argv[i]);
    return 0;
}
