/* remote.c -- a remote GGUF file: names (URLs, hf://), redirects, retries,
 * and the reads behind its lgg_source.
 *
 * Redirects are followed here, one request at a time, so the token goes
 * only to the origin of the name it was given for (the hub answers with a
 * redirect to its CDN, which must not see it).  The last redirect's target
 * is kept for the next reads, which then skip the hop.  A read that fails
 * in a way that may pass (5xx, 429, a dropped or cut connection) is retried
 * after a doubling wait, asking only for the bytes still missing. */
#include "remote/http.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FIRST_READ (UINT64_C(256) << 10)

struct lgg_remote {
    CURL *curl;
    lgg_remote_options o;
    char *token;       /* a copy of o.token */
    char *url;         /* the resolved name */
    char *origin;      /* scheme://host:port of url, lowercase: where the token may go */
    char *effective;   /* where the last read was answered from (after redirects) */
    uint64_t size;
    uint8_t *head;     /* the first `head_n` bytes, from the open */
    size_t head_n;
    char etag[128], sha256[65], commit[65];
    bool size_checked; /* X-Linked-Size named the size */
    bool no_ranges;    /* the first read's answer was a 200: the server ignores Range */
    uint64_t requests, bytes;
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static void curl_init_once(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

#define fail(err, code, ...) lgg_error_set((err), (code), LGG_NO_OFFSET, __VA_ARGS__)

void lgg_remote_options_init(lgg_remote_options *o) {
    if (o) *o = (lgg_remote_options)LGG_REMOTE_OPTIONS_INIT;
}

bool lgg_remote_is_url(const char *s) {
    return s && (!strncmp(s, "http://", 7) || !strncmp(s, "https://", 8) || !strncmp(s, "hf://", 5));
}

/* hf:// names are checked, and turned into URLs, by the core's one checker
 * (lgg_hf_name_check, lgg_hf_resolve, lgg_hf_tree_url: src/format/hfname.c),
 * which the GGUF Editor (web/) applies too. */
static const char *endpoint_env(const char *endpoint) {
    if (!endpoint || !*endpoint) endpoint = getenv("HF_ENDPOINT");
    return endpoint && *endpoint ? endpoint : NULL;
}

bool lgg_remote_name_check(const char *name, char *why, size_t cap) {
    if (lgg_remote_is_url(name) && !strncmp(name, "hf://", 5)) return lgg_hf_name_check(name, why, cap);
    if (lgg_remote_is_url(name)) return true;
    if (why && cap) snprintf(why, cap, "%s", "not a URL or an hf://OWNER/REPO/PATH[@REVISION] name");
    return false;
}

size_t lgg_remote_resolve(const char *name, const char *endpoint, char *buf, size_t cap) {
    if (!name || !lgg_remote_name_check(name, NULL, 0)) return 0;
    if (strncmp(name, "hf://", 5)) {
        int n = snprintf(buf, buf ? cap : 0, "%s", name);
        return n < 0 ? 0 : (size_t)n;
    }
    return lgg_hf_resolve(name, endpoint_env(endpoint), buf, cap);
}

/* scheme://host:port, lowercase, with the scheme's default port made
 * explicit, so that two spellings of one origin compare equal. */
static char *origin_of(const char *url) {
    CURLU *u = curl_url();
    char *scheme = NULL, *host = NULL, *port = NULL, *out = NULL;
    if (u && !curl_url_set(u, CURLUPART_URL, url, 0) && !curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) &&
        !curl_url_get(u, CURLUPART_HOST, &host, 0) && !curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT)) {
        if (asprintf(&out, "%s://%s:%s", scheme, host, port) < 0) out = NULL;
        for (char *c = out; c && *c; c++)
            if (*c >= 'A' && *c <= 'Z') *c = (char)(*c - 'A' + 'a');
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    return out;
}

static bool same_origin(const lgg_remote *r, const char *url) {
    char *o = origin_of(url);
    bool same = o && r->origin && !strcmp(o, r->origin);
    free(o);
    return same;
}

static const char *reason(long st) {
    switch (st) {
    case 401: return " Unauthorized";
    case 403: return " Forbidden";
    case 404: return " Not Found";
    case 410: return " Gone";
    case 416: return " Range Not Satisfiable";
    case 429: return " Too Many Requests";
    case 500: return " Internal Server Error";
    case 502: return " Bad Gateway";
    case 503: return " Service Unavailable";
    case 504: return " Gateway Timeout";
    default: return "";
    }
}

static bool retryable_status(long st) { return st == 429 || (st >= 500 && st <= 599); }

/* A connection dropped, cut short, or stalled (no byte for the timeout). */
static bool retryable_curl(int rc) {
    return rc == CURLE_RECV_ERROR || rc == CURLE_SEND_ERROR || rc == CURLE_PARTIAL_FILE || rc == CURLE_GOT_NOTHING ||
           rc == CURLE_OPERATION_TIMEDOUT;
}

static long timeout_ms(const lgg_remote *r) { return r->o.timeout_ms > 0 ? r->o.timeout_ms : 60000; }

/* One request, redirects followed (up to max_redirects); the token only to
 * the name's own origin.  Leaves q's results; returns the CURLcode, or -1
 * after too many redirects or one without a target (message in err). */
static int request(lgg_remote *r, lgg__http_req *q, lgg_error *err) {
    if (!r->curl && !(r->curl = curl_easy_init())) { /* after lgg_remote_idle */
        fail(err, LGG_ERR_NOMEM, "out of memory");
        return -1;
    }
    char *url = strdup(r->effective ? r->effective : r->url);
    const int max = r->o.max_redirects > 0 ? r->o.max_redirects : 10;
    int rc = CURLE_OUT_OF_MEMORY;
    for (int hop = 0; url; hop++) {
        q->url = url;
        q->auth = same_origin(r, url);
        r->requests++;
        rc = lgg__http_perform(r->curl, q, r->token, timeout_ms(r));
        r->bytes += q->received;
        if (!q->hop_sha256[0] && q->resp.sha256[0]) memcpy(q->hop_sha256, q->resp.sha256, sizeof q->hop_sha256);
        if (!q->hop_commit[0] && q->resp.commit[0]) memcpy(q->hop_commit, q->resp.commit, sizeof q->hop_commit);
        if (!q->hop_has_size && q->resp.has_linked_size) q->hop_has_size = true, q->hop_size = q->resp.linked_size;
        long st = q->resp.status;
        if (rc != CURLE_OK || st < 300 || st > 399 || st == 304) break;
        char *next = NULL;
        if (curl_easy_getinfo(r->curl, CURLINFO_REDIRECT_URL, &next) != CURLE_OK || !next || !*next) {
            fail(err, LGG_ERR_IO, "%s: HTTP %ld redirect without a target", url, st);
            rc = -1;
            break;
        }
        if (hop + 1 > max) {
            fail(err, LGG_ERR_IO, "%s: more than %d redirects", r->url, max);
            rc = -1;
            break;
        }
        char *copy = strdup(next);
        free(url);
        url = copy;
    }
    if (url && rc == CURLE_OK && q->resp.status >= 200 && q->resp.status < 300) {
        free(r->effective);
        r->effective = url; /* the next reads go straight there */
    } else {
        free(url);
    }
    return rc;
}

/* What a failed request means for the user: the URL and the HTTP status
 * or the connection's trouble. */
static lgg_status request_error(const lgg_remote *r, const lgg__http_req *q, int rc, lgg_error *err) {
    long st = q->resp.status;
    if (rc == CURLE_OK || q->enough) {
        if (q->bad_range)
            return fail(err, LGG_ERR_IO, "%s: the server answered bytes %llu-%llu to a request for bytes %llu-%llu",
                        r->url, (unsigned long long)q->resp.range_start, (unsigned long long)q->resp.range_end,
                        (unsigned long long)q->from, (unsigned long long)(q->from + q->want - 1));
        if (st == 404 || st == 410) return fail(err, LGG_ERR_NOT_FOUND, "%s: HTTP %ld%s", r->url, st, reason(st));
        return fail(err, LGG_ERR_IO, "%s: HTTP %ld%s", r->url, st, reason(st));
    }
    if (rc == -1) return err ? err->code : LGG_ERR_IO;
    if (q->bad_range)
        return fail(err, LGG_ERR_IO, "%s: the server answered bytes %llu-%llu to a request for bytes %llu-%llu",
                    r->url, (unsigned long long)q->resp.range_start, (unsigned long long)q->resp.range_end,
                    (unsigned long long)q->from, (unsigned long long)(q->from + q->want - 1));
    if (q->write_failed) return fail(err, LGG_ERR_IO, "cannot write: %s", strerror(errno));
    if (rc == CURLE_OPERATION_TIMEDOUT)
        return fail(err, LGG_ERR_IO, "%s: timed out (no connection or no byte received for %ld s)", r->url,
                    (timeout_ms(r) + 999) / 1000);
    if (rc == CURLE_COULDNT_CONNECT) return fail(err, LGG_ERR_IO, "%s: cannot connect (connection refused)", r->url);
    if (rc == CURLE_COULDNT_RESOLVE_HOST) return fail(err, LGG_ERR_IO, "%s: unknown host", r->url);
    return fail(err, LGG_ERR_IO, "%s: %s", r->url, curl_easy_strerror((CURLcode)rc));
}

static void wait_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

/* Fetch [q->from, q->from + q->want) with retries; q->got is what arrived
 * in all (the caller's sink grows with it). */
lgg_status lgg__remote_fetch(lgg_remote *r, lgg__http_req *q, lgg_error *err) {
    const int retries = r->o.max_retries < 0 ? 0 : r->o.max_retries ? r->o.max_retries : 5;
    long backoff = r->o.backoff_ms > 0 ? r->o.backoff_ms : 250;
    const uint64_t from = q->from, want = q->want;
    uint8_t *dst = q->dst;
    uint64_t have = 0;
    for (int attempt = 0;; attempt++) {
        q->from = from + have;
        q->want = want - have;
        q->dst = dst ? dst + have : NULL;
        int rc = request(r, q, err);
        have += q->got;
        if (q->refused) { /* the caller's sink said stop: its reason, not ours */
            q->from = from, q->want = want, q->dst = dst, q->got = have;
            return LGG_ERR_INVALID;
        }
        const long st = q->resp.status;
        const bool ok = (rc == CURLE_OK || q->enough) && !q->bad_range && (st == 200 || st == 206);
        if (ok && have == want) break;
        /* a 206 shorter than asked where the file ends, or a whole 200 body
         * that ended, is the file's end */
        if (ok && st == 206 && q->resp.range_end + 1 == q->resp.range_total) break;
        if (ok && st == 200 && rc == CURLE_OK && !q->enough) break;
        const bool again = (!ok && (retryable_status(st) || retryable_curl(rc))) || (ok && q->got > 0);
        if (!again || attempt >= retries) {
            q->from = from, q->want = want, q->dst = dst, q->got = have;
            if (ok) return fail(err, LGG_ERR_IO, "%s: the server sent %llu of %llu bytes", r->url,
                                (unsigned long long)have, (unsigned long long)want);
            return request_error(r, q, rc, err);
        }
        wait_ms(backoff);
        if (backoff < 8000) backoff *= 2;
    }
    q->from = from, q->want = want, q->dst = dst, q->got = have;
    return LGG_OK;
}

void lgg_remote_idle(lgg_remote *r) {
    if (!r) return;
    if (r->curl) curl_easy_cleanup(r->curl); /* its connection with it */
    r->curl = NULL;
    free(r->head);
    r->head = NULL;
    r->head_n = 0;
}

void lgg_remote_free(lgg_remote *r) {
    if (!r) return;
    if (r->curl) curl_easy_cleanup(r->curl);
    free(r->token);
    free(r->url);
    free(r->origin);
    free(r->effective);
    free(r->head);
    free(r);
}

/* The first read: its bytes, and the file's size from Content-Range (or,
 * from a server that ignores ranges, Content-Length). */
static lgg_status first_read(lgg_remote *r, lgg_error *err) {
    uint64_t want = r->o.first_read ? r->o.first_read : FIRST_READ;
    if (want > SIZE_MAX) want = SIZE_MAX;
    if (!(r->head = malloc((size_t)want))) return fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg__http_req q;
    memset(&q, 0, sizeof q);
    q.from = 0, q.want = want, q.dst = r->head;
    lgg_status s = lgg__remote_fetch(r, &q, err);
    if (s) return s;
    const lgg__http_resp *h = &q.resp;
    if (h->status == 206 && h->has_range && h->range_total != UINT64_MAX) r->size = h->range_total;
    else if (h->status == 200 && h->has_length) r->size = h->length;
    else return fail(err, LGG_ERR_IO, "%s: the server does not say how large the file is", r->url);
    if (q.got < want && q.got != r->size)
        return fail(err, LGG_ERR_IO, "%s: the server sent %llu bytes of a %llu-byte file", r->url,
                    (unsigned long long)q.got, (unsigned long long)r->size);
    r->head_n = (size_t)q.got;
    uint8_t *fit = realloc(r->head, r->head_n ? r->head_n : 1); /* a shard set keeps many of these */
    if (fit) r->head = fit;
    snprintf(r->etag, sizeof r->etag, "%s", h->etag);
    /* the hub says these on its redirect, the CDN's answer does not */
    snprintf(r->sha256, sizeof r->sha256, "%s", q.hop_sha256);
    snprintf(r->commit, sizeof r->commit, "%s", q.hop_commit);
    if (q.hop_has_size && q.hop_size != r->size)
        return fail(err, LGG_ERR_IO, "%s: the hub says the file has %llu bytes (X-Linked-Size), the server %llu",
                    r->url, (unsigned long long)q.hop_size, (unsigned long long)r->size);
    r->size_checked = q.hop_has_size;
    r->no_ranges = h->status == 200;
    return LGG_OK;
}

/* The handle for `name` without a request yet (lgg_remote_open's first
 * half; hub.c asks the hub's API with it). */
lgg_status lgg__remote_new(const char *name, const lgg_remote_options *opts, lgg_remote **out, lgg_error *err) {
    if (!out) return fail(err, LGG_ERR_ARG, "out is NULL");
    *out = NULL;
    pthread_once(&curl_once, curl_init_once);
    lgg_remote *r = calloc(1, sizeof *r);
    if (!r) return fail(err, LGG_ERR_NOMEM, "out of memory");
    /* the caller's struct as this version knows it (libgguf.h: options
     * that can grow; the first layout is the whole struct) */
    lgg_status st = lgg_options_copy(&r->o, sizeof r->o, sizeof r->o, opts, "lgg_remote_options", err);
    if (st != LGG_OK) {
        free(r);
        return st;
    }
    size_t n = lgg_remote_resolve(name, r->o.endpoint, NULL, 0);
    if (!n) {
        char why[96] = "not a URL";
        lgg_remote_name_check(name, why, sizeof why);
        lgg_remote_free(r);
        return fail(err, LGG_ERR_ARG, "%s: %s", name ? name : "", why);
    }
    r->url = malloc(n + 1);
    r->token = r->o.token ? strdup(r->o.token) : NULL;
    r->curl = curl_easy_init();
    if (!r->url || !r->curl || (r->o.token && !r->token)) {
        lgg_remote_free(r);
        return fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    lgg_remote_resolve(name, r->o.endpoint, r->url, n + 1);
    r->o.token = NULL;
    r->o.endpoint = NULL;
    r->origin = origin_of(r->url);
    if (!r->origin) {
        lgg_status s = fail(err, LGG_ERR_ARG, "%s: not a URL that can be read", r->url);
        lgg_remote_free(r);
        return s;
    }
    *out = r;
    return LGG_OK;
}

lgg_status lgg_remote_open(const char *name, const lgg_remote_options *opts, lgg_remote **out, lgg_error *err) {
    lgg_status s = lgg__remote_new(name, opts, out, err);
    if (!s && (s = first_read(*out, err))) {
        lgg_remote_free(*out);
        *out = NULL;
    }
    return s;
}

/* A later answer with another ETag than the first read's is another
 * version of the file: its bytes would not fit with those already read. */
static lgg_status same_version(const lgg_remote *r, const lgg__http_req *q, lgg_error *err) {
    if (!r->etag[0] || !q->resp.etag[0] || !strcmp(r->etag, q->resp.etag)) return LGG_OK;
    return fail(err, LGG_ERR_IO, "%s: the file changed on the server while it was read (ETag %s at first, then %s)",
                r->url, r->etag, q->resp.etag);
}

lgg_status lgg_remote_read(lgg_remote *r, uint64_t off, void *dst, size_t n, lgg_error *err) {
    if (!r || (!dst && n) || off > r->size || n > r->size - off)
        return fail(err, LGG_ERR_ARG, "read of %zu bytes at %llu outside the file", n, (unsigned long long)off);
    uint8_t *d = dst;
    if (off < r->head_n) { /* the first read's bytes are kept */
        size_t k = r->head_n - off < n ? (size_t)(r->head_n - off) : n;
        memcpy(d, r->head + off, k);
        d += k, off += k, n -= k;
    }
    if (!n) return LGG_OK;
    lgg__http_req q;
    memset(&q, 0, sizeof q);
    q.from = off, q.want = n, q.dst = d;
    lgg_status s = lgg__remote_fetch(r, &q, err);
    if (!s) s = same_version(r, &q, err);
    if (!s && q.got != n)
        s = fail(err, LGG_ERR_IO, "%s: the file ended at %llu bytes, not %llu", r->url,
                 (unsigned long long)(off + q.got), (unsigned long long)r->size);
    return s;
}

lgg_status lgg_remote_stream(lgg_remote *r, uint64_t off, uint64_t n, bool (*fn)(void *ud, const void *p, size_t n),
                             void *ud, lgg_error *err) {
    if (!r || !fn || off > r->size || n > r->size - off)
        return fail(err, LGG_ERR_ARG, "stream of %llu bytes at %llu outside the file", (unsigned long long)n,
                    (unsigned long long)off);
    if (!n) return LGG_OK;
    lgg__http_req q;
    memset(&q, 0, sizeof q);
    q.from = off, q.want = n, q.on_bytes = fn, q.ud = ud;
    lgg_status s = lgg__remote_fetch(r, &q, err);
    if (s == LGG_ERR_INVALID && q.refused) return fail(err, LGG_ERR_INVALID, "%s: the reader stopped", r->url);
    if (!s) s = same_version(r, &q, err);
    if (!s && q.got != n)
        s = fail(err, LGG_ERR_IO, "%s: the file ended at %llu bytes, not %llu", r->url,
                 (unsigned long long)(off + q.got), (unsigned long long)r->size);
    return s;
}

static lgg_status source_read(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    return lgg_remote_read(ud, off, dst, n, err);
}

void lgg_remote_source(lgg_remote *r, lgg_source *src) {
    memset(src, 0, sizeof *src);
    src->read = source_read;
    src->ud = r;
    src->size = r ? r->size : 0;
    src->first_read = r ? (r->head_n ? r->head_n : 1) : 0;
}

uint64_t lgg_remote_size(const lgg_remote *r) { return r ? r->size : 0; }
const char *lgg_remote_url(const lgg_remote *r) { return r ? r->url : ""; }
const char *lgg_remote_etag(const lgg_remote *r) { return r ? r->etag : ""; }
const char *lgg_remote_sha256(const lgg_remote *r) { return r ? r->sha256 : ""; }
const char *lgg_remote_commit(const lgg_remote *r) { return r ? r->commit : ""; }
bool lgg_remote_size_checked(const lgg_remote *r) { return r && r->size_checked; }
bool lgg_remote_ignores_ranges(const lgg_remote *r) { return r && r->no_ranges; }
uint64_t lgg_remote_requests(const lgg_remote *r) { return r ? r->requests : 0; }
uint64_t lgg_remote_bytes(const lgg_remote *r) { return r ? r->bytes : 0; }

size_t lgg_remote_shard_url(const char *url, uint32_t index, uint32_t count, char *buf, size_t cap) {
    if (!url || index >= count) return 0;
    size_t len = strcspn(url, "?#"); /* a signed URL's query stays after the name */
    uint32_t no, cnt;
    size_t prefix;
    if (!lgg_split_name_parse(url, len, &no, &cnt, &prefix) || no != 0 || cnt != count) return 0;
    int n = snprintf(buf, buf ? cap : 0, "%.*s-%05u-of-%05u.gguf%s", (int)prefix, url, index + 1, count, url + len);
    return n < 0 ? 0 : (size_t)n;
}
