/* httpd.h -- the remote tests' HTTP server (httpd.c): 127.0.0.1, a free
 * port, threads of the test runner, misbehaving on request (see httpd.c). */
#ifndef LGG_TEST_HTTPD_H
#define LGG_TEST_HTTPD_H

#include <stddef.h>

typedef struct httpd httpd;
typedef struct httpd_counts {
    unsigned long requests, with_auth; /* requests; those that carried Authorization */
    unsigned long long sent;           /* body bytes written to sockets */
    unsigned peak_conns;               /* the most connections open at once */
} httpd_counts;

/* Serve the files under root; NULL if it cannot listen. */
httpd *httpd_start(const char *root);
void httpd_stop(httpd *h);
int httpd_port(const httpd *h);
/* /redirect/F goes to /plain/F on `other`. */
void httpd_set_other(httpd *h, httpd *other);
/* X-Linked-Etag ("" for none) and X-Linked-Size (-1: the file's size) on
 * every /hub/ redirect. */
void httpd_set_linked(httpd *h, const char *sha, long long size);
/* The MODE (e.g. "cut", "flaky"; NULL or "": plain) the /hf/ hub's LFS
 * redirects send to on `other`: the CDN's faults during a whole run. */
void httpd_set_cdn_mode(httpd *h, const char *mode);
/* A file whose path ends with `suffix` (NULL: none) changes after `after`
 * answers: the later ones carry another ETag, as a file replaced on the
 * server. */
void httpd_set_change(httpd *h, const char *suffix, unsigned long after);
/* The /hf/ listing in pages of `entries` entries (0: one page), each
 * naming the next in a Link header, as the hub's tree endpoint does. */
void httpd_set_page(httpd *h, size_t entries);
/* /hf/ resolve answers name one commit (X-Repo-Commit), then, after
 * `answers` of them, another (0: never). */
void httpd_set_commit_after(httpd *h, unsigned long answers);
/* The counts since the last call, which resets them. */
httpd_counts httpd_take_counts(httpd *h);

#endif
