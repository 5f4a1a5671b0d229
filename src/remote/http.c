/* http.c -- one HTTP request through libcurl, and the parsing of the
 * response's headers.
 *
 * Redirects are not followed here (remote.c follows them, so that it
 * decides where the token goes).  The body is delivered for the range
 * asked for whatever the server does: a 206 must start where the range
 * starts (else bad_range, and the transfer stops); a 200 to a ranged
 * request carries the whole file, so its first `from` bytes are dropped;
 * once everything asked for is in, the transfer is stopped (the body may
 * be 20 GB).  The body goes to memory (dst), a file (fp) and/or a callback
 * (on_bytes), which may stop it. */
#include "remote/http.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void lgg__http_resp_reset(lgg__http_resp *h) {
    memset(h, 0, sizeof *h);
    h->range_total = UINT64_MAX;
}

/* Decimal digits at s[0..n) into *v: false if none, or on overflow. */
static bool dec(const char *s, size_t n, size_t *used, uint64_t *v) {
    uint64_t x = 0;
    size_t i = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (x > (UINT64_MAX - 9) / 10) return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *used = i;
    *v = x;
    return i > 0;
}

static bool name_is(const char *line, size_t n, const char *name) {
    size_t k = strlen(name);
    return n > k && line[k] == ':' && strncasecmp(line, name, k) == 0;
}

/* The value after "Name:", spaces trimmed both ends. */
static void value_of(const char *line, size_t n, size_t name_len, const char **v, size_t *vn) {
    size_t a = name_len + 1, b = n;
    while (a < b && (line[a] == ' ' || line[a] == '\t')) a++;
    while (b > a && (line[b - 1] == ' ' || line[b - 1] == '\t' || line[b - 1] == '\r' || line[b - 1] == '\n')) b--;
    *v = line + a;
    *vn = b - a;
}

/* "bytes START-END/TOTAL", or with "*" for an unknown total */
static void content_range(lgg__http_resp *h, const char *v, size_t n) {
    size_t u;
    uint64_t s, e, t = UINT64_MAX;
    if (n < 6 || strncasecmp(v, "bytes ", 6)) return;
    v += 6, n -= 6;
    if (!dec(v, n, &u, &s) || u >= n || v[u] != '-') return;
    v += u + 1, n -= u + 1;
    if (!dec(v, n, &u, &e) || u >= n || v[u] != '/') return;
    v += u + 1, n -= u + 1;
    if (n == 1 && v[0] == '*') t = UINT64_MAX;
    else if (!dec(v, n, &u, &t) || u != n || e >= t) return;
    if (e < s) return;
    h->has_range = true;
    h->range_start = s, h->range_end = e, h->range_total = t;
}

static void copy_value(char *dst, size_t cap, const char *v, size_t n) {
    if (n >= cap) {
        dst[0] = 0; /* too long to be one we can use: as if absent */
        return;
    }
    memcpy(dst, v, n);
    dst[n] = 0;
}

/* RFC 8288's Link: <URL>; rel="next", <URL2>; rel="prev": the URL whose
 * parameters (up to the next ',' outside <>) hold rel="next" or rel=next. */
static void link_next(lgg__http_resp *h, const char *v, size_t n) {
    for (size_t i = 0; i < n;) {
        const char *lt = memchr(v + i, '<', n - i);
        if (!lt) return;
        const char *gt = memchr(lt, '>', (size_t)(v + n - lt));
        if (!gt) return;
        const char *end = memchr(gt, ',', (size_t)(v + n - gt));
        size_t pl = (size_t)((end ? end : v + n) - gt);
        for (size_t k = 0; k + 8 <= pl; k++)
            if ((pl - k >= 10 && !strncasecmp(gt + k, "rel=\"next\"", 10)) || !strncasecmp(gt + k, "rel=next", 8)) {
                size_t ul = (size_t)(gt - lt - 1);
                h->next_too_long = ul >= sizeof h->next;
                copy_value(h->next, sizeof h->next, lt + 1, ul);
                return;
            }
        i = (size_t)((end ? end + 1 : v + n) - v);
    }
}

void lgg__http_header_line(lgg__http_resp *h, const char *line, size_t n) {
    const char *v;
    size_t vn;
    if (n >= 5 && !memcmp(line, "HTTP/", 5)) {
        lgg__http_resp_reset(h);
        size_t i = 5;
        while (i < n && line[i] != ' ') i++;
        while (i < n && line[i] == ' ') i++;
        uint64_t st;
        size_t u;
        if (i < n && dec(line + i, n - i, &u, &st) && u == 3) h->status = (long)st;
        return;
    }
    if (name_is(line, n, "Content-Range")) {
        value_of(line, n, 13, &v, &vn);
        content_range(h, v, vn);
    } else if (name_is(line, n, "Content-Length")) {
        value_of(line, n, 14, &v, &vn);
        size_t u;
        uint64_t x;
        if (dec(v, vn, &u, &x) && u == vn) h->has_length = true, h->length = x;
    } else if (name_is(line, n, "ETag")) {
        value_of(line, n, 4, &v, &vn);
        copy_value(h->etag, sizeof h->etag, v, vn);
    } else if (name_is(line, n, "X-Linked-Etag")) {
        value_of(line, n, 13, &v, &vn);
        if (vn >= 2 && v[0] == '"' && v[vn - 1] == '"') v++, vn -= 2;
        if (vn != 64) return;
        for (size_t i = 0; i < 64; i++) /* all of it checked before any is kept */
            if (!isxdigit((unsigned char)v[i])) return;
        for (size_t i = 0; i < 64; i++) h->sha256[i] = (char)tolower((unsigned char)v[i]);
        h->sha256[64] = 0;
    } else if (name_is(line, n, "X-Repo-Commit")) { /* the hub's: the commit the answer is from */
        value_of(line, n, 13, &v, &vn);
        if (vn != 40 && vn != 64) return;
        for (size_t i = 0; i < vn; i++) /* all of it checked before any is kept */
            if (!isxdigit((unsigned char)v[i])) return;
        for (size_t i = 0; i < vn; i++) h->commit[i] = (char)tolower((unsigned char)v[i]);
        h->commit[vn] = 0;
    } else if (name_is(line, n, "X-Linked-Size")) {
        value_of(line, n, 13, &v, &vn);
        size_t u;
        uint64_t x;
        if (dec(v, vn, &u, &x) && u == vn) h->has_linked_size = true, h->linked_size = x;
    } else if (name_is(line, n, "Location")) {
        value_of(line, n, 8, &v, &vn);
        copy_value(h->location, sizeof h->location, v, vn);
    } else if (name_is(line, n, "Link")) {
        value_of(line, n, 4, &v, &vn);
        link_next(h, v, vn);
    }
}

static size_t on_header(char *p, size_t sz, size_t nm, void *ud) {
    lgg__http_req *q = ud;
    lgg__http_header_line(&q->resp, p, sz * nm);
    return sz * nm;
}

/* The first body byte of a 2xx: check the range, or plan to drop the head
 * of a whole body. */
static bool start_body(lgg__http_req *q) {
    q->started = true;
    if (q->resp.status == 206) {
        if (!q->resp.has_range || q->resp.range_start != q->from ||
            (q->want != UINT64_MAX && q->resp.range_end - q->resp.range_start + 1 > q->want)) {
            q->bad_range = true;
            return false;
        }
        return true;
    }
    /* 200: the whole file.  With If-Range it means "changed: start over",
     * which the caller does from an empty file. */
    if (q->if_range && q->from) {
        q->restarted = true;
        return false;
    }
    q->skip = q->from;
    return true;
}

static size_t on_body(char *p, size_t sz, size_t nm, void *ud) {
    lgg__http_req *q = ud;
    size_t n = sz * nm;
    q->received += n;
    if (q->resp.status < 200 || q->resp.status >= 300) return n; /* an error page or a redirect: not data */
    if (!q->started && !start_body(q)) return 0;
    if (q->skip) {
        size_t k = q->skip < n ? (size_t)q->skip : n;
        q->skip -= k, p += k, n -= k;
        if (!n) return sz * nm;
    }
    size_t take = n;
    if (q->want != UINT64_MAX && take > q->want - q->got) take = (size_t)(q->want - q->got);
    if (q->fp && fwrite(p, 1, take, q->fp) != take) {
        q->write_failed = true;
        return 0;
    }
    if (q->dst) memcpy(q->dst + q->got, p, take);
    if (q->on_bytes && !q->on_bytes(q->ud, p, take)) {
        q->refused = true;
        return 0;
    }
    q->got += take;
    if (q->want != UINT64_MAX && q->got == q->want) {
        q->enough = true; /* stop: the rest (maybe a whole 20 GB body) is not wanted */
        return take == n ? (q->resp.status == 206 ? sz * nm : 0) : 0;
    }
    return sz * nm;
}

int lgg__http_perform(void *curl, lgg__http_req *q, const char *token, long timeout_ms) {
    CURL *c = curl;
    char range[96], auth[4096 + 32], ifr[160];
    struct curl_slist *hs = NULL, *t;
    lgg__http_resp_reset(&q->resp);
    q->got = q->skip = q->received = 0;
    q->bad_range = q->restarted = q->write_failed = q->refused = q->started = q->enough = false;
    if (q->want == UINT64_MAX) snprintf(range, sizeof range, "Range: bytes=%llu-", (unsigned long long)q->from);
    else snprintf(range, sizeof range, "Range: bytes=%llu-%llu", (unsigned long long)q->from,
                  (unsigned long long)(q->from + q->want - 1));
    if (!(t = curl_slist_append(hs, range))) goto oom;
    hs = t;
    if (q->auth && token && *token) {
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", token);
        if (!(t = curl_slist_append(hs, auth))) goto oom;
        hs = t;
    }
    if (q->if_range) {
        snprintf(ifr, sizeof ifr, "If-Range: %s", q->if_range);
        if (!(t = curl_slist_append(hs, ifr))) goto oom;
        hs = t;
    }
    curl_easy_reset(c);
    curl_easy_setopt(c, CURLOPT_URL, q->url);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hs);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "gguf/" LGG_VERSION_STRING);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, q);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, q);
    /* no CURLOPT_TIMEOUT: a 20 GB transfer that progresses may take hours;
     * what is bounded is connecting, and a stall: under 1 byte/s over the
     * timeout (whole seconds, libcurl's unit), i.e. nothing for that long */
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (timeout_ms + 999) / 1000);
    CURLcode rc = curl_easy_perform(c);
    curl_slist_free_all(hs);
    return (int)rc;
oom:
    curl_slist_free_all(hs);
    return (int)CURLE_OUT_OF_MEMORY;
}
