/* writer.h -- the writer's handle, shared by write.c (building, encoding) and
 * fileio.c (safe replacement, in-place header rewrites). */
#ifndef LGG_WRITER_H
#define LGG_WRITER_H

#include "base/internal.h"
#include "base/nameidx.h"

typedef struct lgg__wkv {
    char *key;
    uint64_t klen;
    uint32_t vt, et;
    uint64_t count;
    uint8_t *body; /* the value's bytes in GGUF v3 layout, host byte order */
    uint64_t blen;
} lgg__wkv;

enum { LGG__SRC_BUF, LGG__SRC_CB, LGG__SRC_FILE, LGG__SRC_VIEW };

/* A source that lends its own memory instead of copying into the writer's
 * (so a producer's buffers go to write() as they are): *p gets the tensor's
 * bytes from `offset` on, *n how many (at least 1, at most what is left),
 * valid until the next call for the same tensor.  The writer asks in
 * increasing order and ends each tensor with offset == size (*n ignored), so
 * the source can take back what it lent. */
typedef lgg_status (*lgg__view_fn)(void *ud, uint64_t offset, const void **p, size_t *n);

typedef struct lgg__wtensor {
    char *name;
    uint64_t nlen;
    uint32_t n_dims; /* as written: trailing 1s dropped, at least 1 */
    int64_t ne[LGG_MAX_DIMS];
    uint32_t type;
    uint64_t size;
    int src;
    const void *buf;
    lgg_read_fn read;
    lgg__view_fn view;
    void *ud;
    const lgg_file *f;
    int fd;
    uint64_t index;
    lgg_endian endian;
} lgg__wtensor;

struct lgg_writer {
    lgg_allocator alloc_copy;
    const lgg_allocator *alloc;
    lgg__wkv *kv;
    uint64_t n_kv, cap_kv;
    lgg__wtensor *t;
    uint64_t n_t, cap_t;
    const lgg_file *src; /* set by lgg_writer_from_file */
    int src_fd;
    /* indices in src of the repeated keys lgg_writer_from_file left out */
    uint64_t *dropped;
    uint64_t n_dropped;
    /* more files the output must not be (merge inputs that add no tensor) */
    int *in_fds;
    uint32_t n_in_fds;
    /* name -> first position, so that building a writer of n pairs or
     * tensors costs O(n), not O(n^2).  An index is dropped (and rebuilt on
     * the next lookup) after a removal or a rename, or when memory for it
     * runs out; lookups then fall back to a scan, never to an error. */
    lgg__nameidx kv_idx, t_idx;
    bool kv_idx_ok, t_idx_ok;
};

/* Resolved output options. */
typedef struct lgg__wopts {
    uint32_t version;
    lgg_endian endian;
    uint64_t alignment;
    bool set_alignment; /* general.alignment must be written as u32 `alignment` */
    lgg_write_fn write_fn;
    void *write_ud;
    void (*temp_fn)(void *temp_ud, const char *tmp_path, int created);
    void *temp_ud;
    const lgg_allocator *alloc;
    uint32_t flags;  /* LGG_WRITE_* */
    bool writeback;  /* start write-back of what is written as it goes (a file that will be synced) */
} lgg__wopts;

/* True if the open file fd is the file `st` describes (device and inode):
 * the one test of "the output is an input" (fileio.c, qmodel.c). */
struct stat;
LGG_HIDDEN bool lgg__fd_is(int fd, const struct stat *st);

LGG_HIDDEN lgg_status lgg__wopts_resolve(const lgg_writer *w, const lgg_write_options *o, lgg__wopts *r,
                                         lgg_error *err);
/* The header, its zero padding to the alignment included, in a new buffer
 * (*out, *size; free with lgg__free(w->alloc, ...)); *unpadded gets the
 * header's length before the padding.  keep_offsets: write the source file's
 * relative tensor offsets instead of the canonical ones. */
LGG_HIDDEN lgg_status lgg__encode_header(const lgg_writer *w, const lgg__wopts *o, bool keep_offsets, uint8_t **out,
                                         uint64_t *size, uint64_t *unpadded, lgg_error *err);
/* Append a pair even when the key is already there (copying a file's
 * metadata as it is, duplicates included). */
LGG_HIDDEN lgg_status lgg__writer_append_value(lgg_writer *w, const char *key, uint64_t klen, const lgg_value *v,
                                               lgg_error *err);
/* lgg_writer_add_tensor_callback with a lending source (see lgg__view_fn). */
LGG_HIDDEN lgg_status lgg__writer_add_tensor_view(lgg_writer *w, const char *name, size_t nlen, uint32_t n_dims,
                                                  const int64_t *ne, uint32_t type, lgg__view_fn view, void *ud,
                                                  lgg_endian endian, lgg_error *err);
LGG_HIDDEN lgg_status lgg__write_all(const lgg__wopts *o, int fd, const void *p, uint64_t n, lgg_error *err);
LGG_HIDDEN lgg_status lgg__write_stream(const lgg_writer *w, const lgg__wopts *o, int fd, bool regular,
                                        uint64_t *written, lgg_error *err);

#endif
