/* httpd.c -- a small HTTP/1.1 server for the remote tests, on 127.0.0.1 and
 * a free port, one thread per connection, in the test runner.  The first
 * segment of a request's path says how to (mis)behave; the rest names a
 * file under the root:
 *   /plain/F     ranges as asked (206 with Content-Range), ETag
 *   /norange/F   ignores Range: 200 and the whole body
 *   /trunc/F     every response but the first read's (bytes 0 to 256 KiB)
 *                sends half of the body it announces, then closes (a
 *                download that cannot finish)
 *   /bait/F      the file to every other request, the /html/ answer to the
 *                rest (GGUF at first, then not)
 *   /keep/F      as plain, and the connection kept for the next request
 *                (keep-alive, as real servers do)
 *   /flaky/F     503 to every other request
 *   /cut/F       every other response sends half of the body it announces,
 *                then closes
 *   /stall/F     every other response sends half of its body, then nothing
 *                until the client gives up (closes)
 *   /slow/F      the body trickled: 40 pieces 75 ms apart (3 s in all),
 *                never a second without a byte
 *   /html/F      a 200 whose body is "<html>..." without end, announced as
 *                10^18 bytes (a server that lies)
 *   /endless/F   a 200 without a length: "[" and then spaces, 256 MiB in all
 *                (F need not exist: a listing that never ends)
 *   /auth/F      401 without "Authorization: Bearer secret"
 *   /lie/F       a Content-Range one byte off the range asked for
 *   /redirect/F  302 to /plain/F on the server `other` (another origin)
 *   /hub/MODE/F  302 to /MODE/F on `other`, as the Hugging Face hub answers:
 *                X-Linked-Etag and X-Linked-Size (when the test sets them)
 *                on the redirect, none on the file's answer
 *   /hf/...      the Hugging Face hub's shape over per-repository folders
 *                ROOT/OWNER/REPO/REV/...: /hf/api/models/OWNER/REPO/tree/REV
 *                (?recursive=true) lists them as the hub's JSON (LFS files,
 *                *.safetensors *.gguf *.bin *.model, with their sha256 as
 *                lfs.oid); /hf/OWNER/REPO/resolve/REV/PATH serves a git
 *                file itself and answers an LFS file with 302 to /plain/ on
 *                `other` with X-Linked-Etag (its sha256) and X-Linked-Size
 *                (or to /MODE/, httpd_set_cdn_mode: the CDN misbehaving)
 *                (httpd_set_page: pages of N entries, each linking to the
 *                next with Link: <...>; rel="next", as the hub paginates);
 *                ROOT/OWNER/REPO/REV.json, when there is one, is the
 *                listing instead (names and sizes no folder holds)
 * MODE+noetag (e.g. /trunc+noetag/F) answers without an ETag.
 * httpd_set_change: a file that changes on the server mid-run (its ETag).
 * /hf/ resolve answers carry X-Repo-Commit, which httpd_set_commit_after
 * changes after N of them (the repository changed mid-run).
 * It counts requests, body bytes sent, requests that carried an
 * Authorization header, and the most connections open at once. */
#include "httpd.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <poll.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct httpd {
    int fd, port;
    char root[1024];
    pthread_t th;
    pthread_mutex_t mu;
    _Atomic int stop;
    httpd *other;
    char linked_sha[65];
    long long linked_size; /* -1: the file's own size */
    char cdn_mode[32];     /* the MODE /hf/'s LFS redirects go to ("" : plain) */
    char change[256];      /* a file (path suffix) that changes after change_after of its answers */
    unsigned long change_after, change_seen;
    size_t page;           /* entries per page of the /hf/ listing (0: one page) */
    unsigned long commit_after, commit_seen; /* /hf/ resolve answers before the commit changes (0: never) */
    unsigned long requests, with_auth, flaky_n;
    unsigned long long sent;
    unsigned open_conns, peak_conns; /* connections being served, and the most at once */
    pthread_cond_t idle;             /* open_conns dropped to 0 */
};

static void say(int c, const char *s, size_t n) {
    while (n) {
        ssize_t w = send(c, s, n, MSG_NOSIGNAL);
        if (w <= 0) return;
        s += w, n -= (size_t)w;
    }
}

static int simple(int c, int status, const char *text, const char *extra) {
    char h[2048];
    int n = snprintf(h, sizeof h, "HTTP/1.1 %d %s\r\nContent-Length: 0\r\nConnection: close\r\n%s\r\n", status, text,
                     extra ? extra : "");
    say(c, h, (size_t)n);
    return 0;
}

static void nap_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

/* Wait until the client closes the connection (or the server stops, or
 * 30 s pass): a stall. */
static void wait_for_close(httpd *h, int c) {
    char b[256];
    for (int i = 0; i < 300 && !h->stop; i++) {
        struct pollfd p = {c, POLLIN, 0};
        if (poll(&p, 1, 100) > 0 && recv(c, b, sizeof b, 0) <= 0) return;
    }
}

/* The value of header `name` in the request head, into out. */
static int header(const char *head, const char *name, char *out, size_t cap) {
    size_t k = strlen(name);
    for (const char *p = strstr(head, "\r\n"); p; p = strstr(p + 2, "\r\n")) {
        const char *l = p + 2;
        if (!strncasecmp(l, name, k) && l[k] == ':') {
            l += k + 1;
            while (*l == ' ') l++;
            size_t n = strcspn(l, "\r\n");
            if (n >= cap) n = cap - 1;
            memcpy(out, l, n);
            out[n] = 0;
            return 1;
        }
    }
    return 0;
}

enum { WHOLE, HALF_THEN_CLOSE, HALF_THEN_STALL, TRICKLE };

static void count_sent(httpd *h, unsigned long long n) {
    pthread_mutex_lock(&h->mu);
    h->sent += n;
    pthread_mutex_unlock(&h->mu);
}

static void send_file(httpd *h, int c, FILE *f, unsigned long long from, unsigned long long n, int how) {
    char b[65536];
    unsigned long long left = how == HALF_THEN_CLOSE || how == HALF_THEN_STALL ? n / 2 : n;
    const unsigned long long piece = how == TRICKLE ? n / 40 + 1 : sizeof b;
    if (fseek(f, (long)from, SEEK_SET) != 0) return;
    while (left && !h->stop) {
        size_t want = left < piece ? (size_t)left : (size_t)piece;
        size_t k = fread(b, 1, want < sizeof b ? want : sizeof b, f);
        if (!k) break;
        ssize_t w = send(c, b, k, MSG_NOSIGNAL);
        if (w <= 0) break;
        count_sent(h, (unsigned long long)w);
        left -= (unsigned long long)w;
        if (how == TRICKLE && left) nap_ms(75);
    }
    if (how == HALF_THEN_STALL) wait_for_close(h, c);
}

/* `first`, then `fill` over and over, until the client closes or `cap`
 * bytes are sent. */
static void send_endless(httpd *h, int c, const char *first, const char *fill, unsigned long long cap) {
    char b[16384];
    size_t fl = strlen(fill);
    for (size_t i = 0; i < sizeof b; i++) b[i] = fill[i % fl];
    say(c, first, strlen(first));
    for (unsigned long long total = 0; !h->stop && total < cap;) {
        ssize_t w = send(c, b, sizeof b, MSG_NOSIGNAL);
        if (w <= 0) return;
        count_sent(h, (unsigned long long)w);
        total += (unsigned long long)w;
    }
}

#ifndef LGG_TEST_NO_GOLDEN_LIBS
#include <dirent.h>
#include <jansson.h>
void sha256_hex(const void *p, size_t n, char out[65]);   /* sha256.c */
unsigned char *read_file(const char *path, size_t *size); /* util.c */

static int hub_lfs(const char *path) {
    static const char *const ext[] = {".safetensors", ".gguf", ".bin", ".model"};
    size_t l = strlen(path);
    for (size_t i = 0; i < 4; i++)
        if (l > strlen(ext[i]) && !strcmp(path + l - strlen(ext[i]), ext[i])) return 1;
    return 0;
}

/* The entries under dir (rel: their path in the repository), appended to
 * the JSON text j. */
static void hub_walk(const char *dir, const char *rel, char **j, size_t *n, size_t *cap) {
    struct dirent **names = NULL;
    int count = scandir(dir, &names, NULL, alphasort); /* the listing in a stable order */
    for (int i = 0; i < count; i++) {
        struct dirent *e = names[i];
        if (e->d_name[0] == '.') continue;
        char full[3000], path[2048], sha[65] = "";
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        snprintf(path, sizeof path, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        struct stat st;
        if (stat(full, &st) != 0) continue;
        if (*n + 4096 > *cap && !(*j = realloc(*j, *cap = *cap * 2 + 8192))) return;
        int dir_ = S_ISDIR(st.st_mode), lfs = !dir_ && hub_lfs(path);
        if (lfs) {
            size_t len = 0;
            unsigned char *b = read_file(full, &len);
            if (b) sha256_hex(b, len, sha);
            free(b);
        }
        *n += (size_t)snprintf(*j + *n, *cap - *n, "%s{\"type\":\"%s\",\"oid\":\"0123\",\"size\":%lld,\"path\":\"%s\"",
                               *n > 1 ? "," : "", dir_ ? "directory" : "file", dir_ ? 0LL : (long long)st.st_size, path);
        if (lfs)
            *n += (size_t)snprintf(*j + *n, *cap - *n, ",\"lfs\":{\"oid\":\"%s\",\"size\":%lld,\"pointerSize\":134}", sha,
                                   (long long)st.st_size);
        *n += (size_t)snprintf(*j + *n, *cap - *n, "}");
        if (dir_) hub_walk(full, path, j, n, cap);
    }
    for (int i = 0; i < count; i++) free(names[i]);
    free(names);
}

/* The X-Repo-Commit header of a /hf/ resolve answer: one commit, another
 * one after commit_after answers (the repository changed). */
static void hub_commit(httpd *h, char *out, size_t cap) {
    pthread_mutex_lock(&h->mu);
    const int later = h->commit_after && h->commit_seen++ >= h->commit_after;
    pthread_mutex_unlock(&h->mu);
    snprintf(out, cap, "X-Repo-Commit: %s\r\n", later ? "c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1"
                                                     : "c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0");
}

/* /hub/...: 1 when answered here, 0 with `file` set to serve as /plain/. */
/* The listing's entries [from, from + page) of the JSON array j (page 0:
 * all), and in link the Link header to the rest, as the hub paginates. */
static char *hub_page(httpd *h, char *j, size_t *n, const char *query, const char *rest, char *link, size_t cap) {
    pthread_mutex_lock(&h->mu);
    size_t page = h->page;
    pthread_mutex_unlock(&h->mu);
    link[0] = 0;
    if (!page) return j;
    const char *cur = strstr(query, "cursor=");
    size_t from = cur ? strtoul(cur + 7, NULL, 10) : 0;
    json_t *all = json_loadb(j, *n, 0, NULL), *part = json_array();
    for (size_t i = from; i < from + page && i < json_array_size(all); i++) json_array_append(part, json_array_get(all, i));
    if (from + page < json_array_size(all))
        snprintf(link, cap, "Link: <http://127.0.0.1:%d/hf%s?recursive=true&cursor=%zu>; rel=\"next\"\r\n", h->port,
                 rest, from + page);
    free(j);
    j = json_dumps(part, JSON_COMPACT);
    *n = j ? strlen(j) : 0;
    json_decref(all), json_decref(part);
    return j;
}

static int hub(httpd *h, int c, const char *rest, const char *query, char *file, size_t cap, char *commit,
               size_t commit_cap) {
    char o[256], r[256], rev[256], p[1024];
    if (sscanf(rest, "/api/models/%255[^/]/%255[^/]/tree/%255[^?]", o, r, rev) == 3) {
        char dir[2048];
        snprintf(dir, sizeof dir, "%s/%s/%s/%s", h->root, o, r, rev);
        struct stat st;
        if (stat(dir, &st) != 0) return simple(c, 404, "Not Found", "X-Error-Code: RepoNotFound\r\n"), 1;
        char fixed[2100];
        snprintf(fixed, sizeof fixed, "%s.json", dir);
        size_t n = 1, cap2 = 8192;
        char *j = (char *)read_file(fixed, &n); /* a listing no folder can hold: the test's own */
        if (!j && (j = malloc(cap2))) {
            n = 1, j[0] = '[';
            hub_walk(dir, "", &j, &n, &cap2);
            if (j) j[n++] = ']';
        }
        if (!j) return simple(c, 500, "Internal Server Error", NULL), 1;
        char hd[2600], link[2048];
        if (!(j = hub_page(h, j, &n, query, rest, link, sizeof link))) return simple(c, 500, "Internal Server Error", NULL), 1;
        int k = snprintf(hd, sizeof hd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
                                        "%sConnection: close\r\n\r\n", n, link);
        say(c, hd, (size_t)k);
        say(c, j, n);
        free(j);
        return 1;
    }
    if (sscanf(rest, "/%255[^/]/%255[^/]/resolve/%255[^/]/%1023s", o, r, rev, p) != 4) return simple(c, 404, "Not Found", NULL), 1;
    snprintf(file, cap, "/%s/%s/%s/%s", o, r, rev, p);
    hub_commit(h, commit, commit_cap);
    if (!hub_lfs(p) || !h->other) return 0;
    char full[3200], sha[65] = "", loc[4400];
    snprintf(full, sizeof full, "%s%s", h->root, file);
    size_t len = 0;
    unsigned char *b = read_file(full, &len);
    if (!b) return simple(c, 404, "Not Found", "X-Error-Code: EntryNotFound\r\n"), 1;
    sha256_hex(b, len, sha);
    free(b);
    pthread_mutex_lock(&h->mu);
    char mode[32];
    snprintf(mode, sizeof mode, "%s", h->cdn_mode[0] ? h->cdn_mode : "plain");
    pthread_mutex_unlock(&h->mu);
    snprintf(loc, sizeof loc, "Location: http://127.0.0.1:%d/%s%s\r\nX-Linked-Etag: \"%s\"\r\nX-Linked-Size: %zu\r\n%s",
             h->other->port, mode, file, sha, len, commit);
    simple(c, 302, "Found", loc);
    return 1;
}
#endif

/* One request on connection c; 1 when the connection stays open for the
 * next one. */
static int serve(httpd *h, int c) {
    char head[16384];
    size_t n = 0;
    head[0] = 0;
    while (n + 1 < sizeof head) {
        struct pollfd pf = {c, POLLIN, 0};
        if (h->stop) return 0;
        if (poll(&pf, 1, 100) == 0) continue; /* an idle kept connection: see stop */
        ssize_t r = recv(c, head + n, sizeof head - 1 - n, 0);
        if (r <= 0) return 0;
        n += (size_t)r;
        head[n] = 0;
        if (strstr(head, "\r\n\r\n")) break;
    }
    char path[2048] = "", mode[32] = "", auth[512] = "", range[128] = "";
    if (sscanf(head, "GET %2047s", path) != 1 || path[0] != '/') return simple(c, 400, "Bad Request", NULL);
    char *query = strchr(path, '?'); /* a static server: the query names no file (the web tests pass one) */
    if (query) *query = 0;
    for (char *r = path, *w = path; (*w = *r); r++, w++) /* %XX decoded, as servers do */
        if (r[0] == '%' && isxdigit((unsigned char)r[1]) && isxdigit((unsigned char)r[2])) {
            char hx[3] = {r[1], r[2], 0};
            *w = (char)strtol(hx, NULL, 16);
            r += 2;
        }
    const int has_auth = header(head, "Authorization", auth, sizeof auth);
    pthread_mutex_lock(&h->mu);
    h->requests++;
    h->with_auth += has_auth;
    const unsigned long flaky = h->flaky_n++;
    char linked_sha[65];
    memcpy(linked_sha, h->linked_sha, sizeof linked_sha);
    const long long linked_size = h->linked_size;
    pthread_mutex_unlock(&h->mu);
    const char *rest = strchr(path + 1, '/');
    if (!rest || (size_t)(rest - path - 1) >= sizeof mode) return simple(c, 404, "Not Found", NULL);
    memcpy(mode, path + 1, (size_t)(rest - path - 1));
#ifndef LGG_TEST_NO_GOLDEN_LIBS
    char hubfile[2048], commit[128] = "";
    if (!strcmp(mode, "hf")) { /* the hub's API and resolve URLs */
        if (hub(h, c, rest, query ? query + 1 : "", hubfile, sizeof hubfile, commit, sizeof commit)) return 0;
        rest = hubfile, snprintf(mode, sizeof mode, "plain");
    }
#endif
    char *plus = strstr(mode, "+noetag");
    const int noetag = plus != NULL;
    if (plus) *plus = 0;
    if ((!strcmp(mode, "redirect") || !strcmp(mode, "hub")) && h->other) {
        char loc[2600];
        int k = snprintf(loc, sizeof loc, "Location: http://127.0.0.1:%d%s%s\r\n", h->other->port,
                         !strcmp(mode, "hub") ? "" : "/plain", rest);
        if (!strcmp(mode, "hub") && linked_sha[0]) {
            /* the hub: the LFS object's sha256 and size on the redirect */
            char file[3200];
            struct stat st;
            const char *name = strchr(rest + 1, '/');
            snprintf(file, sizeof file, "%s%s", h->root, name ? name : "/");
            long long size = linked_size >= 0 ? linked_size : stat(file, &st) == 0 ? (long long)st.st_size : 0;
            snprintf(loc + k, sizeof loc - (size_t)k, "X-Linked-Etag: \"%s\"\r\nX-Linked-Size: %lld\r\nETag: \"%s\"\r\n",
                     linked_sha, size, linked_sha);
        }
        return simple(c, 302, "Found", loc);
    }
    if (!strcmp(mode, "flaky") && flaky % 2 == 0) return simple(c, 503, "Service Unavailable", NULL);
    if (!strcmp(mode, "auth") && strcmp(auth, "Bearer secret")) return simple(c, 401, "Unauthorized", NULL);
    if (!strcmp(mode, "html") || (!strcmp(mode, "bait") && flaky % 2)) {
        static const char hd[] = "HTTP/1.1 200 OK\r\nContent-Length: 1000000000000000000\r\nETag: \"html\"\r\n"
                                 "Connection: close\r\n\r\n";
        say(c, hd, sizeof hd - 1);
        send_endless(h, c, "", "<html><body>Please log in</body></html>\n", 1ull << 32);
        return 0;
    }
    if (!strcmp(mode, "endless")) {
        static const char hd[] = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n";
        say(c, hd, sizeof hd - 1);
        send_endless(h, c, "[", " ", 256ull << 20);
        return 0;
    }
    char file[3200];
    snprintf(file, sizeof file, "%s%s", h->root, rest);
    struct stat st;
    FILE *f = strstr(rest, "/../") ? NULL : fopen(file, "rb");
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        if (f) fclose(f);
        return simple(c, 404, "Not Found", NULL);
    }
    const unsigned long long size = (unsigned long long)st.st_size;
    unsigned long long a = 0, b = size ? size - 1 : 0;
    int ranged = strcmp(mode, "norange") && header(head, "Range", range, sizeof range);
    if (ranged) {
        char *dash;
        a = strtoull(range + 6, &dash, 10);
        if (strncmp(range, "bytes=", 6) || *dash != '-') ranged = 0;
        else if (dash[1]) b = strtoull(dash + 1, NULL, 10);
        if (ranged && (a >= size || b < a)) {
            fclose(f);
            char cr[128];
            snprintf(cr, sizeof cr, "Content-Range: bytes */%llu\r\n", size);
            return simple(c, 416, "Range Not Satisfiable", cr);
        }
        if (b >= size) b = size - 1;
    }
    const int keep = !strcmp(mode, "keep");
    char hd[1200], etag[200] = "";
    pthread_mutex_lock(&h->mu); /* the file that changes: another version (ETag) after change_after answers */
    size_t cl = strlen(h->change), rl = strlen(rest);
    const int changed = cl && rl >= cl && !strcmp(rest + rl - cl, h->change) && h->change_seen++ >= h->change_after;
    pthread_mutex_unlock(&h->mu);
    if (!noetag) snprintf(etag, sizeof etag, "ETag: \"etag-%llu%s\"\r\n", size, changed ? "-v2" : "");
#ifndef LGG_TEST_NO_GOLDEN_LIBS
    strcat(etag, commit); /* a git file the hub serves itself: the commit it is from */
#endif
    const char *conn = keep ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    const unsigned long long len = ranged ? b - a + 1 : size;
    int k;
    if (ranged) {
        const int lie = !strcmp(mode, "lie");
        k = snprintf(hd, sizeof hd,
                     "HTTP/1.1 206 Partial Content\r\nContent-Length: %llu\r\nContent-Range: bytes %llu-%llu/%llu\r\n"
                     "%s%s\r\n",
                     len, a + lie, b + lie, size, etag, conn);
    } else {
        a = 0;
        k = snprintf(hd, sizeof hd, "HTTP/1.1 200 OK\r\nContent-Length: %llu\r\n%s%s\r\n", len, etag, conn);
    }
    say(c, hd, (size_t)k);
    const int odd = flaky % 2 == 0;
    int how = (!strcmp(mode, "cut") && odd) || (!strcmp(mode, "trunc") && (a > 0 || len > (256u << 10))) ? HALF_THEN_CLOSE : !strcmp(mode, "stall") && odd ? HALF_THEN_STALL
            : !strcmp(mode, "slow") ? TRICKLE : WHOLE;
    send_file(h, c, f, a, len, how);
    fclose(f);
    return keep;
}

typedef struct conn {
    httpd *h;
    int c;
} conn;

static void *conn_main(void *p) {
    conn *k = p;
    httpd *h = k->h;
    while (!h->stop && serve(h, k->c)) {
    }
    shutdown(k->c, SHUT_RDWR);
    close(k->c);
    free(k);
    pthread_mutex_lock(&h->mu);
    if (--h->open_conns == 0) pthread_cond_broadcast(&h->idle);
    pthread_mutex_unlock(&h->mu);
    return NULL;
}

static void *loop(void *p) {
    httpd *h = p;
    while (!h->stop) {
        int c = accept(h->fd, NULL, NULL);
        if (c < 0) {
            if (errno == EINTR) continue;
            break;
        }
        conn *k = malloc(sizeof *k);
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        pthread_mutex_lock(&h->mu);
        if (++h->open_conns > h->peak_conns) h->peak_conns = h->open_conns;
        pthread_mutex_unlock(&h->mu);
        if (k) *k = (conn){h, c};
        if (!k || pthread_create(&th, &at, conn_main, k) != 0) {
            free(k);
            close(c);
            pthread_mutex_lock(&h->mu);
            h->open_conns--;
            pthread_mutex_unlock(&h->mu);
        }
        pthread_attr_destroy(&at);
    }
    return NULL;
}

httpd *httpd_start(const char *root) {
    httpd *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    snprintf(h->root, sizeof h->root, "%s", root);
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->idle, NULL);
    h->linked_size = -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    h->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (h->fd < 0 || bind(h->fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(h->fd, 64) != 0 ||
        getsockname(h->fd, (struct sockaddr *)&a, &al) != 0 || pthread_create(&h->th, NULL, loop, h) != 0) {
        if (h->fd >= 0) close(h->fd);
        free(h);
        return NULL;
    }
    h->port = ntohs(a.sin_port);
    return h;
}

void httpd_stop(httpd *h) {
    if (!h) return;
    h->stop = 1;
    shutdown(h->fd, SHUT_RDWR); /* wakes accept */
    pthread_join(h->th, NULL);
    pthread_mutex_lock(&h->mu); /* the connections see stop and end */
    while (h->open_conns) pthread_cond_wait(&h->idle, &h->mu);
    pthread_mutex_unlock(&h->mu);
    close(h->fd);
    pthread_cond_destroy(&h->idle);
    pthread_mutex_destroy(&h->mu);
    free(h);
}

int httpd_port(const httpd *h) { return h->port; }
void httpd_set_other(httpd *h, httpd *other) { h->other = other; }
void httpd_set_linked(httpd *h, const char *sha, long long size) {
    pthread_mutex_lock(&h->mu);
    snprintf(h->linked_sha, sizeof h->linked_sha, "%s", sha);
    h->linked_size = size;
    pthread_mutex_unlock(&h->mu);
}

void httpd_set_cdn_mode(httpd *h, const char *mode) {
    pthread_mutex_lock(&h->mu);
    snprintf(h->cdn_mode, sizeof h->cdn_mode, "%s", mode ? mode : "");
    pthread_mutex_unlock(&h->mu);
}

void httpd_set_change(httpd *h, const char *suffix, unsigned long after) {
    pthread_mutex_lock(&h->mu);
    snprintf(h->change, sizeof h->change, "%s", suffix ? suffix : "");
    h->change_after = after, h->change_seen = 0;
    pthread_mutex_unlock(&h->mu);
}

void httpd_set_commit_after(httpd *h, unsigned long answers) {
    pthread_mutex_lock(&h->mu);
    h->commit_after = answers, h->commit_seen = 0;
    pthread_mutex_unlock(&h->mu);
}

void httpd_set_page(httpd *h, size_t entries) {
    pthread_mutex_lock(&h->mu);
    h->page = entries;
    pthread_mutex_unlock(&h->mu);
}

httpd_counts httpd_take_counts(httpd *h) {
    pthread_mutex_lock(&h->mu);
    httpd_counts c = {h->requests, h->with_auth, h->sent, h->peak_conns};
    h->requests = h->with_auth = 0;
    h->sent = 0;
    h->peak_conns = h->open_conns;
    h->flaky_n = 0;
    pthread_mutex_unlock(&h->mu);
    return c;
}
