/* fileio.c -- replacing files safely.
 *
 * A new file is written beside its target under a temporary name and only
 * renamed over the target once every byte is on disk, so a crash or a
 * failed write leaves either the old file or the complete new one, never a
 * mix.  Header-only edits that keep the data section where it is skip the
 * copy and rewrite the header with a single write. */
#include "format/writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

bool lgg__fd_is(int fd, const struct stat *st) {
    struct stat s;
    return fd >= 0 && fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino;
}

/* True if `st` is a file the writer reads tensor data from. */
static bool is_input(const lgg_writer *w, const struct stat *st) {
    int last = -2;
    for (uint64_t i = 0; i <= w->n_t; i++) {
        int fd = i < w->n_t ? (w->t[i].src == LGG__SRC_FILE ? w->t[i].fd : -1) : w->src_fd;
        if (fd < 0 || fd == last) continue;
        last = fd;
        if (lgg__fd_is(fd, st)) return true;
    }
    for (uint32_t i = 0; i < w->n_in_fds; i++)
        if (lgg__fd_is(w->in_fds[i], st)) return true;
    return false;
}

/* A new temporary file beside path (tmp: its name, mode: the target's),
 * created exclusively under a random name; -1 with errno on failure.  The
 * caller that removes temporary files on a signal hears of it first ("about
 * to create": it holds its signals until it has the name, so there is no
 * window where the file exists and nobody knows of it) and then its name. */
static int create_temp(const char *path, const lgg__wopts *o, char *tmp, size_t cap, mode_t mode) {
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    const char *base = slash ? slash + 1 : path;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t seed = (uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)getpid() << 20 ^ (uint64_t)ts.tv_sec;
    int fd = -1;
    if (o->temp_fn) o->temp_fn(o->temp_ud, NULL, 2);
    for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        snprintf(tmp, cap, "%.*s%s.%s.tmp%06llx", (int)dlen, path, slash ? "/" : "", base,
                 (unsigned long long)(seed >> 40));
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int e = errno;
        if (o->temp_fn) o->temp_fn(o->temp_ud, NULL, 0);
        errno = e;
    } else if (o->temp_fn) {
        o->temp_fn(o->temp_ud, tmp, 1); /* the caller can remove it if a signal ends the process */
    }
    return fd;
}

/* The bytes into fd, flushed and closed (fd is closed either way). */
static lgg_status fill_temp(const lgg_writer *w, const lgg__wopts *o, int fd, const char *tmp, bool exists,
                            mode_t mode, lgg_error *err) {
    lgg_status s = LGG_OK;
    /* open() applied the umask; a replaced file keeps its exact mode */
    if (exists && fchmod(fd, mode) != 0) s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "fchmod %s: %s", tmp, strerror(errno));
    lgg__wopts wo = *o;
    wo.writeback = !(o->flags & LGG_WRITE_NO_SYNC);
    if (!s) s = lgg__write_stream(w, &wo, fd, true, NULL, err);
    if (!s && !(o->flags & LGG_WRITE_NO_SYNC) && fsync(fd) != 0)
        s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "fsync %s: %s", tmp, strerror(errno));
    if (close(fd) != 0 && !s) s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "close %s: %s", tmp, strerror(errno));
    return s;
}

/* The rename itself is durable only once the directory is synced. */
static lgg_status sync_dir(const char *dir, const lgg__wopts *o, lgg_error *err) {
    if (o->flags & LGG_WRITE_NO_SYNC) return LGG_OK;
    lgg_status s = LGG_OK;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        if (fsync(dfd) != 0 && errno != EINVAL)
            s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "fsync %s: %s (the new file is in place)", dir,
                          strerror(errno));
        close(dfd);
    }
    return s;
}

static lgg_status safe_write(const lgg_writer *w, const char *path, const lgg__wopts *o, bool replacing_input,
                             lgg_error *err) {
    struct stat st;
    mode_t mode = 0666;
    bool exists = stat(path, &st) == 0;
    if (exists) {
        if (!replacing_input && is_input(w, &st))
            return lgg__fail(err, LGG_ERR_EXISTS, LGG_NO_OFFSET, "%s is one of the input files", path);
        if (!S_ISREG(st.st_mode)) return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s is not a regular file", path);
        mode = st.st_mode & 07777;
    }
    size_t cap = strlen(path) + 40;
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    char *tmp = lgg__alloc(o->alloc, cap), *dir = lgg__alloc(o->alloc, dlen + 2);
    if (!tmp || !dir) {
        lgg__free(o->alloc, tmp);
        lgg__free(o->alloc, dir);
        return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    }
    if (slash) {
        memcpy(dir, path, dlen ? dlen : 1);
        dir[dlen ? dlen : 1] = 0;
    } else {
        strcpy(dir, ".");
    }
    int fd = create_temp(path, o, tmp, cap, mode);
    lgg_status s = LGG_OK;
    if (fd < 0) {
        s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "cannot create a temporary file in %s: %s", dir, strerror(errno));
    } else {
        s = fill_temp(w, o, fd, tmp, exists, mode, err);
        if (!s) {
            /* the rename and the caller's record of the finished file are one
             * step for a caller that holds its signals from here */
            if (o->temp_fn) o->temp_fn(o->temp_ud, NULL, 2);
            if (rename(tmp, path) != 0)
                s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "rename to %s: %s", path, strerror(errno));
            else if (o->temp_fn) o->temp_fn(o->temp_ud, path, 3);
        }
        if (s) unlink(tmp);
        if (o->temp_fn) o->temp_fn(o->temp_ud, tmp, 0);
        if (!s) s = sync_dir(dir, o, err);
    }
    lgg__free(o->alloc, tmp);
    lgg__free(o->alloc, dir);
    return s;
}

lgg_status lgg_writer_write_file(const lgg_writer *w, const char *path, const lgg_write_options *opts,
                                 lgg_error *err) {
    if (!w || !path || !*path) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    LGG__OPTIONS_IN(lgg_write_options, opts, err)
    lgg__wopts o;
    lgg_status s = lgg__wopts_resolve(w, opts, &o, err);
    if (s) return s;
    return safe_write(w, path, &o, false, err);
}

/* True if the writer's tensors are exactly its source file's, in order. */
static bool same_tensors(const lgg_writer *w) {
    if (!w->src || w->n_t != lgg_tensor_count(w->src)) return false;
    for (uint64_t i = 0; i < w->n_t; i++)
        if (w->t[i].src != LGG__SRC_FILE || w->t[i].f != w->src || w->t[i].index != i) return false;
    return true;
}

/* The options update_file writes with (the source's version, and its byte
 * order when none are given), and the header to write in place, or *h NULL
 * when the whole file must be rewritten. */
static lgg_status update_header(const lgg_writer *w, const lgg_write_options *opts, lgg__wopts *o, uint8_t **h,
                                uint64_t *hn, lgg_error *err) {
    *h = NULL;
    if (!w || !w->src) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "the writer was not started from a file");
    lgg_write_options def;
    lgg_write_options_init(&def);
    if (opts) def = *opts;
    if (!def.version) def.version = lgg_file_version(w->src);
    if (!opts) def.endian = lgg_file_endian(w->src);
    lgg_status s = lgg__wopts_resolve(w, &def, o, err);
    if (s) return s;
    const lgg_file *f = w->src;
    if (!same_tensors(w) || lgg_tensor_count(f) == 0 || o->version != lgg_file_version(f) ||
        o->endian != lgg_file_endian(f) || o->alignment != lgg_file_alignment(f))
        return LGG_OK;
    uint64_t un;
    if ((s = lgg__encode_header(w, o, true, h, hn, &un, err))) return s;
    if (*hn != lgg_file_data_offset(f)) { /* the header no longer fits its padded size */
        lgg__free(o->alloc, *h);
        *h = NULL;
    }
    return LGG_OK;
}

lgg_status lgg_writer_update_in_place(const lgg_writer *w, const lgg_write_options *opts, bool *in_place,
                                      lgg_error *err) {
    if (!in_place) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    LGG__OPTIONS_IN(lgg_write_options, opts, err)
    lgg__wopts o;
    uint8_t *h;
    uint64_t hn;
    lgg_status s = update_header(w, opts, &o, &h, &hn, err);
    *in_place = !s && h;
    if (h) lgg__free(o.alloc, h);
    return s;
}

lgg_status lgg_writer_update_file(const lgg_writer *w, const char *path, const lgg_write_options *opts,
                                  bool *in_place, lgg_error *err) {
    LGG__OPTIONS_IN(lgg_write_options, opts, err)
    if (in_place) *in_place = false;
    if (!path) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL path");
    lgg__wopts o;
    uint8_t *h;
    uint64_t hn;
    lgg_status s = update_header(w, opts, &o, &h, &hn, err);
    if (s) return s;
    if (!h) return safe_write(w, path, &o, true, err);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        lgg__free(o.alloc, h);
        return lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "cannot open %s: %s", path, strerror(errno));
    }
    struct stat a;
    /* the path must still name the file the header was computed from */
    bool same = w->src_fd < 0 || (fstat(fd, &a) == 0 && lgg__fd_is(w->src_fd, &a));
    if (!same) s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s was replaced while being edited", path);
    else if (lseek(fd, 0, SEEK_SET) != 0) s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "lseek: %s", strerror(errno));
    else if (!(s = lgg__write_all(&o, fd, h, hn, err)) && !(o.flags & LGG_WRITE_NO_SYNC) && fsync(fd) != 0)
        s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "fsync %s: %s", path, strerror(errno));
    if (close(fd) != 0 && !s) s = lgg__fail(err, LGG_ERR_IO, LGG_NO_OFFSET, "close %s: %s", path, strerror(errno));
    lgg__free(o.alloc, h);
    if (!s && in_place) *in_place = true;
    return s;
}
