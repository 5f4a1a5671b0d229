/* download.c -- a whole remote file to disk, resumable, checked, and safe
 * against what may already lie beside the output.
 *
 * The bytes go to OUT.part; OUT.part.etag records the ETag of the file it
 * is a prefix of.  A resumed download asks for the rest with If-Range: that
 * ETag, so a file that changed on the server comes back whole (200) and the
 * download starts over instead of splicing two versions.  The sha256 covers
 * the bytes already on disk (read back) and the new ones as they arrive.
 *
 * OUT.part and its .etag sit in a directory others may write to (a shared
 * download folder, /tmp): they are opened with O_NOFOLLOW, must be regular
 * files of ours with one link (else refused, never written through), and
 * are created with O_EXCL.  OUT.part is locked (flock) from its open to the
 * rename over OUT, so a second download to the same OUT refuses at once
 * instead of interleaving its bytes with the first one's. */
#include "remote/http.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct dl {
    EVP_MD_CTX *md;
    lgg_remote_progress_fn progress;
    void *ud;
    uint64_t done, total;
    uint8_t magic[4]; /* the file's first bytes, as they arrive */
    bool gguf_only;   /* stop at the first four when they are not "GGUF" */
} dl;

#define fail(err, code, ...) lgg_error_set((err), (code), LGG_NO_OFFSET, __VA_ARGS__)

static lgg_status io_fail(lgg_error *err, const char *what, const char *path) {
    return fail(err, LGG_ERR_IO, "%s: %s: %s", path, what, strerror(errno));
}

static bool is_gguf(const uint8_t *m) { return !memcmp(m, "GGUF", 4); }

/* Bytes as they arrive: hashed, counted, and the first four checked: a body
 * that is not GGUF (an HTML error page, a lying server's endless stream) is
 * stopped at once. */
static bool on_bytes(void *ud, const void *p, size_t n) {
    dl *d = ud;
    for (size_t i = 0; d->done + i < 4 && i < n; i++) d->magic[d->done + i] = ((const uint8_t *)p)[i];
    if (d->gguf_only && d->done < 4 && d->done + n >= 4 && !is_gguf(d->magic)) return false;
    if (d->md) EVP_DigestUpdate(d->md, p, n);
    d->done += n;
    if (d->progress) d->progress(d->ud, d->done, d->total);
    return true;
}

/* Open `path` for reading and writing without following a symlink, creating
 * it (O_EXCL) when absent; an existing one must be a regular file of ours
 * with a single link.  -1 with err set otherwise. */
static int open_own(const char *path, int flags, lgg_error *err) {
    int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (errno == ELOOP)
            fail(err, LGG_ERR_IO, "%s: is a symbolic link: refused (remove it to download)", path);
        else
            io_fail(err, "cannot open", path);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
        fail(err, LGG_ERR_IO, "%s: not a regular file of this user with a single link: refused (remove it to download)",
             path);
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

/* OUT.part, opened as above and locked.  The lock must be on the file the
 * name still stands for: another download may have renamed it over OUT
 * between our open and our lock; then open again. */
static int open_part(const char *partial, lgg_error *err) {
    for (int tries = 0; tries < 8; tries++) {
        int fd = open_own(partial, O_RDWR, err);
        if (fd < 0) return -1;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK)
                fail(err, LGG_ERR_IO, "%s: another download to the same file is running (its partial file is locked)",
                     partial);
            else
                io_fail(err, "cannot lock", partial);
            close(fd);
            return -1;
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && lstat(partial, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            return fd;
        close(fd);
    }
    fail(err, LGG_ERR_IO, "%s: keeps being replaced while it is opened", partial);
    return -1;
}

/* The ETag recorded beside the partial file, or "" (none, unreadable, or
 * not a regular file of ours: then it is not trusted). */
static void read_etag(const char *tag_path, char *out, size_t cap) {
    out[0] = 0;
    int fd = open(tag_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_nlink == 1 &&
        st.st_size < (off_t)cap)
        n = read(fd, out, cap - 1);
    out[n > 0 ? n : 0] = 0;
    close(fd);
}

/* Record the ETag: the old file removed (unlink never follows a link), a
 * new one created with O_EXCL. */
static void write_etag(const char *tag_path, const char *etag) {
    unlink(tag_path);
    int fd = open(tag_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) return; /* without it, the next run starts over: safe */
    size_t n = strlen(etag);
    if (write(fd, etag, n) != (ssize_t)n) {
        close(fd);
        unlink(tag_path);
        return;
    }
    close(fd);
}

/* Hash what is already in the partial file (resuming). */
static bool hash_existing(FILE *f, dl *d) {
    uint8_t b[1 << 16];
    size_t n;
    rewind(f);
    while ((n = fread(b, 1, sizeof b, f)) > 0)
        if (!on_bytes(d, b, n)) return false;
    return !ferror(f) && fseek(f, 0, SEEK_END) == 0;
}

static void hex(const unsigned char *m, unsigned n, char *out) {
    static const char H[] = "0123456789abcdef";
    for (unsigned i = 0; i < n; i++) out[2 * i] = H[m[i] >> 4], out[2 * i + 1] = H[m[i] & 15];
    out[2 * n] = 0;
}

static lgg_status not_gguf(const dl *d, lgg_remote *r, lgg_error *err) {
    return lgg_error_set(err, LGG_ERR_MAGIC, 0,
                         "%s: not a GGUF file: it starts with %02x %02x %02x %02x, not \"GGUF\" (refused after %llu bytes "
                         "received)",
                         lgg_remote_url(r), d->magic[0], d->magic[1], d->magic[2], d->magic[3],
                         (unsigned long long)lgg_remote_bytes(r));
}

/* One attempt from what the partial file holds (or from empty when
 * `fresh`).  f is the locked partial file. */
static lgg_status attempt(lgg_remote *r, FILE *f, const char *partial, const char *tag_path, bool fresh, dl *d,
                          bool *restarted, lgg_error *err) {
    char etag[128];
    read_etag(tag_path, etag, sizeof etag);
    const bool resume = !fresh && etag[0] && !strcmp(etag, lgg_remote_etag(r));
    d->done = 0;
    memset(d->magic, 0, sizeof d->magic);
    if (d->md) EVP_DigestInit_ex(d->md, EVP_sha256(), NULL);
    bool start_over = !resume;
    if (resume && !hash_existing(f, d)) {
        if (ferror(f)) return io_fail(err, "cannot read back", partial);
        start_over = true; /* what is there does not start like GGUF: not kept */
    }
    long at = start_over ? 0 : ftell(f);
    if (at < 0 || (uint64_t)at > lgg_remote_size(r)) at = 0; /* longer than the file: not a prefix of it */
    if (at == 0) {
        d->done = 0;
        memset(d->magic, 0, sizeof d->magic);
        if (d->md) EVP_DigestInit_ex(d->md, EVP_sha256(), NULL);
        if (ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0) return io_fail(err, "cannot truncate", partial);
    }
    if (lgg_remote_etag(r)[0]) write_etag(tag_path, lgg_remote_etag(r)); /* the ETag these bytes belong to */
    else unlink(tag_path);
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
        if (q.refused) s = not_gguf(d, r, err);
        else if (!s && d->done != lgg_remote_size(r))
            s = fail(err, LGG_ERR_IO, "%s: the server sent %llu of %llu bytes", lgg_remote_url(r),
                     (unsigned long long)d->done, (unsigned long long)lgg_remote_size(r));
    }
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) s = s ? s : io_fail(err, "cannot write", partial);
    return s;
}

/* The directory entry of a rename survives a crash. */
static void sync_dir_of(const char *path) {
    char *copy = strdup(path);
    int dfd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(copy);
}

lgg_status lgg_remote_download_file(lgg_remote *r, const char *out, const lgg_remote_download_options *o,
                                    lgg_remote_download_info *info, lgg_error *err) {
    if (!r || !out || !info) return fail(err, LGG_ERR_ARG, "NULL argument");
    memset(info, 0, sizeof *info);
    lgg_remote_download_options opts;
    lgg_status s = lgg_options_copy(&opts, sizeof opts, sizeof opts, o, "lgg_remote_download_options", err);
    if (s) return s;
    o = &opts;
    dl d = {EVP_MD_CTX_new(), o->progress, o->ud, 0, lgg_remote_size(r), {0}, !o->any_bytes};
    /* the bytes the open read already: not GGUF, nothing is created */
    if (d.gguf_only) s = lgg_remote_read(r, 0, d.magic, lgg_remote_size(r) < 4 ? (size_t)lgg_remote_size(r) : 4, err);
    if (!s && d.gguf_only && (lgg_remote_size(r) < 4 || !is_gguf(d.magic))) {
        s = not_gguf(&d, r, err);
    }
    char *partial = malloc(strlen(out) + 6), *tag = malloc(strlen(out) + 11);
    if (!s && (!d.md || !partial || !tag)) s = fail(err, LGG_ERR_NOMEM, "out of memory");
    int fd = -1;
    FILE *f = NULL;
    if (!s) {
        sprintf(partial, "%s.part", out);
        sprintf(tag, "%s.etag", partial);
        fd = open_part(partial, err);
        if (fd < 0) s = err ? err->code : LGG_ERR_IO;
        else if (!(f = fdopen(fd, "r+b"))) s = io_fail(err, "cannot open", partial);
    }
    bool restarted = false;
    if (!s) {
        s = attempt(r, f, partial, tag, false, &d, &restarted, err);
        if (s && restarted) s = attempt(r, f, partial, tag, true, &d, &restarted, err);
    }
    if (!s) {
        unsigned char m[EVP_MAX_MD_SIZE];
        unsigned mn = 0;
        EVP_DigestFinal_ex(d.md, m, &mn);
        hex(m, mn, info->sha256);
        const char *want = lgg_remote_sha256(r);
        info->sha256_checked = want[0] != 0;
        info->size_checked = lgg_remote_size_checked(r);
        if (want[0] && strcmp(want, info->sha256))
            s = fail(err, LGG_ERR_INVALID, "%s: sha256 mismatch: the server says %s, the bytes give %s",
                     lgg_remote_url(r), want, info->sha256);
    }
    char why[400] = "";
    if (!s && o && o->check && !o->check(o->check_ud, partial, why, sizeof why))
        s = fail(err, LGG_ERR_INVALID, "%s", why);
    if (!s) { /* still locked: nobody else writes it between the checks and the rename */
        if (rename(partial, out) != 0) { /* a folder there, say: no later run gets further, so nothing is kept */
            s = io_fail(err, "cannot rename the partial file over it", out);
            unlink(partial);
        } else {
            sync_dir_of(out);
        }
        unlink(tag);
    } else if (f) {
        /* kept only when it can be resumed: the server named its version (ETag)
         * and the bytes were not refused */
        info->resumable = lgg_remote_etag(r)[0] && s != LGG_ERR_INVALID && s != LGG_ERR_MAGIC;
        if (!info->resumable) unlink(partial), unlink(tag);
    }
    if (f) fclose(f); /* releases the lock */
    else if (fd >= 0) close(fd);
    EVP_MD_CTX_free(d.md);
    free(partial);
    free(tag);
    return s;
}
