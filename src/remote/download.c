/* download.c -- a whole remote file to a partial file, resumable.
 *
 * The partial file keeps what arrived; `partial`.etag records the ETag of
 * the file it is a prefix of.  A resumed download asks for the rest with
 * If-Range: that ETag, so a file that changed on the server comes back
 * whole (200) and the download starts over instead of splicing two
 * versions.  The sha256 covers the bytes already on disk (read back) and
 * the new ones as they arrive. */
#include "remote/http.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct dl {
    EVP_MD_CTX *md;
    lgg_remote_progress_fn progress;
    void *ud;
    uint64_t done, total;
} dl;

static void on_bytes(void *ud, const void *p, size_t n) {
    dl *d = ud;
    if (d->md) EVP_DigestUpdate(d->md, p, n);
    d->done += n;
    if (d->progress) d->progress(d->ud, d->done, d->total);
}

static lgg_status io_fail(lgg_error *err, const char *what, const char *path) {
    return lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s: %s: %s", path, what, strerror(errno));
}

/* The ETag recorded for `partial`, or "" */
static void read_etag(const char *tag_path, char *out, size_t cap) {
    out[0] = 0;
    FILE *f = fopen(tag_path, "rb");
    if (!f) return;
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    fclose(f);
}

/* Hash what is already in the partial file (resuming). */
static bool hash_existing(FILE *f, dl *d) {
    char b[1 << 16];
    size_t n;
    rewind(f);
    while ((n = fread(b, 1, sizeof b, f)) > 0)
        if (d->md) EVP_DigestUpdate(d->md, b, n);
    return !ferror(f) && fseek(f, 0, SEEK_END) == 0;
}

static void hex(const unsigned char *m, unsigned n, char *out) {
    for (unsigned i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", m[i]);
}

/* One attempt from what `partial` holds (or from empty when `fresh`). */
static lgg_status attempt(lgg_remote *r, const char *partial, const char *tag_path, bool fresh, dl *d,
                          bool *restarted, lgg_error *err) {
    char etag[128];
    read_etag(tag_path, etag, sizeof etag);
    const bool resume = !fresh && etag[0] && !strcmp(etag, lgg_remote_etag(r));
    FILE *f = fopen(partial, resume ? "a+b" : "w+b");
    if (!f) return io_fail(err, "cannot open", partial);
    if (d->md) EVP_DigestInit_ex(d->md, EVP_sha256(), NULL);
    if (resume && !hash_existing(f, d)) {
        fclose(f);
        return io_fail(err, "cannot read back", partial);
    }
    long at = ftell(f);
    if (at < 0 || (uint64_t)at > lgg_remote_size(r)) at = 0; /* longer than the file: not a prefix of it */
    if (at == 0 && resume && ftruncate(fileno(f), 0) != 0) {
        fclose(f);
        return io_fail(err, "cannot truncate", partial);
    }
    FILE *t = fopen(tag_path, "wb"); /* the ETag this partial file belongs to */
    if (t) {
        fputs(lgg_remote_etag(r), t);
        fclose(t);
    }
    d->done = (uint64_t)at;
    lgg_status s = LGG_OK;
    if ((uint64_t)at < lgg_remote_size(r)) {
        lgg__http_req q;
        memset(&q, 0, sizeof q);
        q.from = (uint64_t)at;
        q.want = lgg_remote_size(r) - (uint64_t)at;
        q.fp = f;
        q.on_bytes = on_bytes;
        q.ud = d;
        q.if_range = at && lgg_remote_etag(r)[0] ? lgg_remote_etag(r) : NULL;
        s = lgg__remote_fetch(r, &q, err);
        *restarted = q.restarted;
    }
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) s = s ? s : io_fail(err, "cannot write", partial);
    if (fclose(f) != 0 && !s) s = io_fail(err, "cannot write", partial);
    return s;
}

lgg_status lgg_remote_download(lgg_remote *r, const char *partial, lgg_remote_progress_fn progress, void *ud,
                               char sha256_out[65], lgg_error *err) {
    if (!r || !partial) return LGG_ERR_ARG;
    char *tag_path = malloc(strlen(partial) + 6);
    if (!tag_path) return LGG_ERR_NOMEM;
    sprintf(tag_path, "%s.etag", partial);
    dl d = {sha256_out ? EVP_MD_CTX_new() : NULL, progress, ud, 0, lgg_remote_size(r)};
    if (sha256_out && !d.md) {
        free(tag_path);
        return LGG_ERR_NOMEM;
    }
    bool restarted = false;
    lgg_status s = attempt(r, partial, tag_path, false, &d, &restarted, err);
    if (s && restarted) s = attempt(r, partial, tag_path, true, &d, &restarted, err);
    if (!s && d.md) {
        unsigned char m[EVP_MAX_MD_SIZE];
        unsigned mn = 0;
        EVP_DigestFinal_ex(d.md, m, &mn);
        hex(m, mn, sha256_out);
    }
    if (!s) unlink(tag_path);
    EVP_MD_CTX_free(d.md);
    free(tag_path);
    return s;
}
