/* http.h -- what the remote part shares between its files: one HTTP
 * response's headers as parsed (untrusted text in, checked numbers out),
 * and one request through libcurl. */
#ifndef LGG_REMOTE_HTTP_H
#define LGG_REMOTE_HTTP_H

#include "libgguf_remote.h"

#include <stdio.h>

#define LGG_HIDDEN_RM __attribute__((visibility("hidden")))

/* The headers of one response (the last one after 1xx and redirects). */
typedef struct lgg__http_resp {
    long status;             /* 0 until a status line was seen */
    bool has_range;          /* Content-Range: bytes START-END/TOTAL, checked END >= START */
    uint64_t range_start, range_end, range_total; /* range_total UINT64_MAX for "*" */
    bool has_length;
    uint64_t length;         /* Content-Length */
    char etag[128];          /* ETag as sent (quotes kept), "" if none or too long */
    char sha256[65];         /* X-Linked-Etag when it is a sha256 (64 hex digits), lowercased */
    char commit[65];         /* X-Repo-Commit when it is 40 or 64 hex digits, lowercased */
    bool has_linked_size;
    uint64_t linked_size;    /* X-Linked-Size */
    char location[2048];     /* Location, "" if none or too long */
    char next[2048];         /* Link: <URL>; rel="next" (the hub's paginated listing), "" if none */
    bool next_too_long;      /* there is one, longer than next holds */
} lgg__http_resp;

/* A new status line starts a new response (a redirect, a 100 Continue). */
LGG_HIDDEN_RM void lgg__http_resp_reset(lgg__http_resp *h);
/* One header line as received (CRLF included or not); never reads past
 * len, accepts anything. */
LGG_HIDDEN_RM void lgg__http_header_line(lgg__http_resp *h, const char *line, size_t len);

/* Where a request's body goes: bytes [from, from + want) of the file into
 * dst, or from `from` to the end into fp (want UINT64_MAX). */
typedef struct lgg__http_req {
    const char *url;
    uint64_t from, want;
    const char *if_range;    /* an ETag for If-Range, or NULL */
    bool auth;               /* send the token */
    uint8_t *dst;
    FILE *fp;
    /* every body byte of [from, ...) in order, after fp got it (when fp is
     * set); false stops the transfer (refused is then set) */
    bool (*on_bytes)(void *ud, const void *p, size_t n);
    void *ud;
    /* results */
    lgg__http_resp resp;
    char hop_sha256[65];     /* X-Linked-Etag and X-Linked-Size of the first hop that sent them */
    char hop_commit[65];     /* X-Repo-Commit of the first hop that sent one */
    bool hop_has_size;       /* (the hub puts them on its redirect, not on the CDN's file) */
    uint64_t hop_size;
    uint64_t got;            /* body bytes delivered for [from, ...) */
    bool bad_range;          /* a 206 whose Content-Range is not what was asked */
    bool restarted;          /* a 200 to a request with If-Range: the body is the whole file from 0 */
    bool write_failed;       /* fp refused bytes */
    bool refused;            /* on_bytes stopped the transfer */
    uint64_t skip;           /* body bytes still to drop (a 200 that ignored Range) */
    bool started;            /* the first body byte's handling was decided */
    bool enough;             /* the transfer was stopped on purpose: everything asked for is in */
    uint64_t received;       /* body bytes received, wanted or not */
} lgg__http_req;

/* One request (no redirects followed); returns the CURLcode.  timeout_ms
 * bounds connecting and a stall (no byte for that long), never a transfer
 * that makes progress. */
LGG_HIDDEN_RM int lgg__http_perform(void *curl, lgg__http_req *q, const char *token, long timeout_ms);

/* A range with retries (remote.c): into q->dst or appended to q->fp;
 * q->got is what arrived in all. */
LGG_HIDDEN_RM lgg_status lgg__remote_fetch(lgg_remote *r, lgg__http_req *q, lgg_error *err);

/* One page of the hub's tree listing (JSON) appended to *r, which is
 * allocated when NULL (hub.c; the caller frees it with lgg_hub_free, also
 * after an error): what lgg_hub_list does with each page it fetches. */
LGG_HIDDEN_RM lgg_status lgg__hub_parse_page(const char *url, const char *body, size_t len, lgg_hub_repo **r,
                                             lgg_error *err);
/* An lgg_remote for `name` with no request made yet (remote.c). */
LGG_HIDDEN_RM lgg_status lgg__remote_new(const char *name, const lgg_remote_options *opts, lgg_remote **out,
                                         lgg_error *err);

#endif
