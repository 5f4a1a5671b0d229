/* cli_snapshot.c -- `gguf download hf://OWNER/REPO[@REV] [-o DIR]
 * [--include GLOB]... [--exclude GLOB]...`: a whole repository (a
 * safetensors checkpoint, say) into DIR, keeping its folders.
 *
 * The files come from the hub's listing (lgg_hub_list).  Each goes to
 * DIR/PATH.part first (resumed by lgg_remote_download when a run was cut
 * short), is checked against the sha256 the listing names for an LFS
 * file, then renamed to DIR/PATH.  A file already there with the listed
 * size (and sha256, for an LFS file) is not fetched again, so a second run
 * of the same command fetches only the listing.  The globs are
 * huggingface-cli's: fnmatch on the path, '*' crossing '/'. */
#include "tool.h"

#include "libgguf_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int wanted(const char *path, const char *const *inc, size_t ni, const char *const *exc, size_t ne) {
    int in = ni == 0;
    for (size_t i = 0; i < ni && !in; i++) in = fnmatch(inc[i], path, 0) == 0;
    for (size_t i = 0; i < ne && in; i++) in = fnmatch(exc[i], path, 0) != 0;
    return in;
}

/* The sha256 of a local file as 64 hex digits; 0 when it cannot be read. */
static int file_sha256(const char *path, char out[65]) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = fd >= 0 && ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    static unsigned char buf[1 << 20];
    ssize_t n;
    while (ok && (n = read(fd, buf, sizeof buf)) != 0) ok = n > 0 && EVP_DigestUpdate(ctx, buf, (size_t)n);
    unsigned char md[32];
    unsigned len = 0;
    ok = ok && EVP_DigestFinal_ex(ctx, md, &len) && len == 32;
    for (unsigned i = 0; ok && i < 32; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
    EVP_MD_CTX_free(ctx);
    if (fd >= 0) close(fd);
    return ok;
}

/* Whether `path` already holds the listed file. */
static int complete(const char *path, const lgg_hub_file *f) {
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != f->size) return 0;
    char sha[65];
    return !f->sha256[0] || (file_sha256(path, sha) && !strcmp(sha, f->sha256));
}

/* DIR/PATH's folders, made as needed.  DIR, the first dir_len bytes, is
 * the user's own path: its symlinks are followed, as cp follows them; the
 * listing's folders under it are the hub's names: no symlink there is
 * followed into. */
static int make_dirs(char *path, size_t dir_len) {
    for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
        *p = 0;
        struct stat st;
        int got = (size_t)(p - path) <= dir_len ? stat(path, &st) : lstat(path, &st);
        int ok = (got == 0 && S_ISDIR(st.st_mode)) || mkdir(path, 0755) == 0;
        *p = '/';
        if (!ok) return 0;
    }
    return 1;
}

static int fetch(const char *name, const char *out, const lgg_hub_file *f, int quiet) {
    lgg_remote_options ro;
    cli_remote_defaults(&ro);
    /* the first answer names the size: asking for one byte more than the
     * listing's, a longer file costs that much before it is refused */
    ro.first_read = f->size < (256u << 10) ? f->size + 1 : 256u << 10;
    lgg_remote *r = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_remote_open(name, &ro, &r, &e) != LGG_OK) return cli_err("download", NULL, "%s", e.message), CLI_FAIL;
    if (lgg_remote_size(r) != f->size) {
        cli_err("download", out, "%llu bytes, the listing says %llu", (unsigned long long)lgg_remote_size(r),
                (unsigned long long)f->size);
        lgg_remote_free(r);
        return CLI_FAIL;
    }
    if (!quiet) fprintf(stderr, "gguf download: %s\n", out);
    /* OUT.part, resumable, checked against the hub's own sha256 and size
     * (X-Linked-Etag and X-Linked-Size) before the rename; then against the
     * listing's */
    lgg_remote_download_options o = LGG_REMOTE_DOWNLOAD_OPTIONS_INIT;
    o.any_bytes = true;
    lgg_remote_download_info info;
    int rc = CLI_OK;
    if (lgg_remote_download_file(r, out, &o, &info, &e) != LGG_OK) {
        cli_err("download", NULL, "%s", e.message);
        rc = CLI_FAIL;
    } else if (f->sha256[0] && strcmp(info.sha256, f->sha256)) {
        cli_err("download", out, "sha256 mismatch: the hub lists %s, the bytes give %s", f->sha256, info.sha256);
        unlink(out);
        rc = CLI_FAIL;
    }
    lgg_remote_free(r);
    return rc;
}

/* ---- names the listing makes clash --------------------------------------
 *
 * Each listed file PATH makes DIR/PATH, its temporary files PATH.part and
 * PATH.part.etag (lgg_remote_download_file's), and the folders on its way.
 * Two listed files needing one name (x.txt.part listed beside x.txt, whose
 * temporary file it is; a file `a` beside `a/b`) would overwrite each other
 * or fail half way, so such a listing is refused before anything is
 * fetched. */

static const char *const MADE_SUFFIX[] = {"", ".part", ".part.etag"};
static const char *const MADE_KIND[] = {"the file", "the temporary file of", "the temporary file of", "a folder of"};

typedef struct made {
    const char *path; /* the listed file */
    size_t len;       /* the name: path[0..len) then MADE_SUFFIX[kind] (none for a folder) */
    int kind;         /* 0 the file, 1 and 2 its temporary files, 3 a folder on its path */
} made;

static char made_at(const made *m, size_t i) {
    return i < m->len ? m->path[i] : m->kind < 3 ? MADE_SUFFIX[m->kind][i - m->len] : 0;
}

static size_t made_len(const made *m) { return m->len + (m->kind < 3 ? strlen(MADE_SUFFIX[m->kind]) : 0); }

static int made_cmp(const void *pa, const void *pb) {
    const made *a = pa, *b = pb;
    size_t la = made_len(a), lb = made_len(b);
    for (size_t i = 0; i < la && i < lb; i++)
        if (made_at(a, i) != made_at(b, i)) return (unsigned char)made_at(a, i) < (unsigned char)made_at(b, i) ? -1 : 1;
    return la != lb ? (la < lb ? -1 : 1) : 0;
}

/* By name, then (for a message that names them in one order) kind and path. */
static int made_order(const void *pa, const void *pb) {
    const made *a = pa, *b = pb;
    int c = made_cmp(a, b);
    return c ? c : a->kind != b->kind ? a->kind - b->kind : strcmp(a->path, b->path);
}

/* Every name the n files make, sorted; NULL when out of memory. */
static made *names_made(const char *const *path, size_t n, size_t *count) {
    made *m = NULL;
    size_t cap = 0, k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0, l = strlen(path[i]); j <= l; j++) {
            const int kinds = j == l ? 3 : path[i][j] == '/';
            if (!kinds) continue;
            if (!cli_grow((void **)&m, &cap, k + 3, sizeof *m, 256)) return free(m), NULL;
            for (int t = 0; t < kinds; t++) m[k++] = (made){path[i], j, j == l ? t : 3};
        }
    if (k) qsort(m, k, sizeof *m, made_order);
    *count = k;
    return m;
}

/* CLI_OK, or CLI_FAIL after naming two listed files that need one name. */
static int no_clash(const char *repo_name, const char *const *path, size_t n) {
    size_t k = 0;
    made *m = names_made(path, n, &k);
    if (!m && n) return cli_err("download", repo_name, "out of memory"), CLI_FAIL;
    int rc = CLI_OK;
    for (size_t i = 1; rc == CLI_OK && i < k; i++) {
        const made *a = &m[i - 1], *b = &m[i];
        if (made_cmp(a, b) || (a->kind == 3 && b->kind == 3)) continue;
        char name[8192];
        size_t l = made_len(a) < sizeof name ? made_len(a) : sizeof name - 1;
        for (size_t j = 0; j < l; j++) name[j] = made_at(a, j);
        name[l] = 0;
        cli_err("download", repo_name, "'%s' would be both %s '%s' and %s '%s': nothing fetched", name, MADE_KIND[a->kind],
                a->path, MADE_KIND[b->kind], b->path);
        rc = CLI_FAIL;
    }
    free(m);
    return rc;
}

lgg_hub_repo *cli_hub_list(const char *cmd, const char *name, char *repo, size_t cap, const char **rev) {
    const char *at = strrchr(name + 5, '@');
    snprintf(repo, cap, "%.*s", (int)(at ? (size_t)(at - name - 5) : strlen(name + 5)), name + 5);
    *rev = at ? at + 1 : NULL;
    lgg_remote_options ro;
    cli_remote_defaults(&ro);
    lgg_hub_repo *r = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_hub_list(repo, *rev, &ro, &r, &e) != LGG_OK) {
        cli_err(cmd, NULL, "%s", e.message); /* it names the URL */
        return NULL;
    }
    return r;
}

int cli_download_repo(const char *name, const char *dir, const char *const *inc, size_t ni, const char *const *exc,
                      size_t ne, int quiet) {
    char repo[1024];
    const char *at;
    lgg_hub_repo *r = cli_hub_list("download", name, repo, sizeof repo, &at);
    if (!r) return CLI_FAIL;
    const char *slash = strchr(repo, '/');
    char *dflt = strdup(slash + 1); /* default DIR: ./REPO */
    if (!dir) dir = dflt;
    int rc = dflt ? CLI_OK : CLI_FAIL;
    const size_t n = lgg_hub_file_count(r);
    const char **want = calloc(n ? n : 1, sizeof *want); /* the wanted files' paths */
    size_t nw = 0;
    for (size_t i = 0; want && i < n; i++)
        if (wanted(lgg_hub_file_at(r, i)->path, inc, ni, exc, ne)) want[nw++] = lgg_hub_file_at(r, i)->path;
    if (!want) rc = CLI_FAIL, cli_err("download", name, "out of memory");
    else if (rc == CLI_OK) rc = no_clash(name, want, nw);
    size_t fetched = 0, kept = 0;
    for (size_t i = 0; rc == CLI_OK && i < n; i++) {
        const lgg_hub_file *f = lgg_hub_file_at(r, i);
        if (!wanted(f->path, inc, ni, exc, ne)) continue;
        char out[4200], src[8300];
        snprintf(out, sizeof out, "%s/%s", dir, f->path);
        snprintf(src, sizeof src, "hf://%s/%s@%s", repo, f->path, at ? at : "main");
        if (!make_dirs(out, strlen(dir))) {
            cli_err("download", out, "cannot make its folder: %s", strerror(errno));
            rc = CLI_FAIL;
        } else if (complete(out, f)) {
            kept++;
        } else {
            rc = fetch(src, out, f, quiet);
            fetched++;
        }
    }
    if (rc == CLI_OK && !quiet)
        fprintf(stderr, "gguf download: %s: %zu files fetched, %zu already complete\n", dir, fetched, kept);
    free(dflt), free(want);
    lgg_hub_free(r);
    return rc;
}
