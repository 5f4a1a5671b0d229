/* file.h -- the reader's handle, shared by parse.c, access.c, validate.c. */
#ifndef LGG_FILE_H
#define LGG_FILE_H

#include "base/internal.h"
#include "base/nameidx.h"

struct lgg_file {
    lgg_allocator alloc_copy; /* the caller's hooks, copied */
    const lgg_allocator *alloc; /* &alloc_copy, or NULL for libc */
    lgg_limits limits;
    uint32_t flags;

    const uint8_t *base;
    uint64_t size;      /* the file's size */
    uint64_t mem_size;  /* bytes at base: size, or the header prefix of a source */
    void *map;          /* mmap'd region to unmap at close, or NULL */
    size_t map_len;
    void *owned;        /* buffer read from a non-mappable fd, or NULL */
    bool described;     /* lgg_writer_describe's: tensor infos of data supplied later (the quantize
                           and split plans take it; its tensors' data cannot be written) */

    bool has_src;       /* opened by lgg_open_source */
    lgg_source src;
    void **loaded;      /* per tensor: data read through the source, or NULL */

    uint32_t version;
    lgg_endian endian;
    bool swap;
    uint8_t lw;

    uint64_t alignment;
    int64_t alignment_kv; /* index of the general.alignment pair, or -1 */
    uint64_t header_size; /* end of tensor infos */
    uint64_t data_offset;
    uint64_t data_end;
    uint64_t expected_end; /* data_end as if every tensor's data were present */
    /* LGG_OPEN_ALLOW_BAD_LAYOUT: the first problem in where the tensors'
     * data lies (then no tensor's data is available) */
    bool layout_bad;
    lgg_error layout_err;

    uint64_t n_kv;
    lgg_kv *kv;
    uint64_t n_tensors;
    lgg_tensor *tensors;

    /* name -> first index, keyed per open so that a file cannot choose
     * colliding names (nameidx.h) */
    lgg__nameidx kv_idx;
    lgg__nameidx t_idx;
};


/* The name of key / tensor i of the lgg_file `ctx`, for the name indexes
 * (access.c; parse.c builds the indexes with them). */
LGG_HIDDEN void lgg__file_kv_name(const void *ctx, uint64_t i, const char **name, uint64_t *len);
LGG_HIDDEN void lgg__file_tensor_name(const void *ctx, uint64_t i, const char **name, uint64_t *len);

/* A hint that bytes [p, p + n) of f's mapping will not be read again soon
 * (access.c): the whole pages inside are unmapped from this process
 * (MADV_DONTNEED: a read-only file mapping refaults the same bytes from the
 * page cache if they are read after all).  Nothing for a file that is not
 * mapped (read into memory: dropping would zero it) or a range outside the
 * mapping. */
LGG_HIDDEN void lgg__file_release(const lgg_file *f, const void *p, uint64_t n);

/* Where a finding about metadata key `key` (C string) of f points: the
 * start of its pair, the key's length field (lgg_kv.offset), since the key
 * and the type that precede the value are what the finding judges;
 * LGG_NO_OFFSET when the key is absent.  lgg_validate and lgg_estimate both
 * use it, so one key has one offset (access.c). */
LGG_HIDDEN uint64_t lgg__key_offset(const lgg_file *f, const char *key, size_t len);

/* naming.c: the file-name check's reading of the naming convention: the
 * spec's expression, or its prose (a missing Version means v1.0; '.' and
 * '_' in BaseName, as gguf-py writes general.basename). */
LGG_HIDDEN bool lgg__name_parse_lenient(const char *name, size_t len);
/* Does the name look like an attempt at the convention (a SizeLabel after
 * its first part)?  The not-following-it warning is given only then, or
 * when strict: the convention is advice. */
LGG_HIDDEN bool lgg__name_attempted(const char *name, size_t len);

/* Opening in steps (parse.c), for the opens in source.c: a new handle with
 * the options applied; the header parsed from base[0, mem_size) (a prefix
 * too short for it gives LGG_ERR_TRUNCATED); then the tensors' places and
 * the indexes, which set *out or close f. */
LGG_HIDDEN lgg_file *lgg__file_new(const lgg_open_options *opts);
/* Open the n bytes at p (allocated with a) as a file that owns them from
 * here on, metadata-only files allowed (lgg_writer_describe). */
LGG_HIDDEN lgg_status lgg__open_owned(const lgg_allocator *a, void *p, uint64_t n, lgg_file **out, lgg_error *err);
LGG_HIDDEN lgg_status lgg__parse_header(lgg_file *f, lgg_error *err);
LGG_HIDDEN lgg_status lgg__finish_checks(lgg_file *f, lgg_file **out, lgg_error *err);

/* A tensor of known type whose data lies inside the file, whether or not
 * it is in memory (a source's tensors are placed but not present). */
static inline bool lgg__tensor_in_file(const lgg_file *f, const lgg_tensor *t) {
    return t->type_known && t->file_offset >= f->data_offset && t->file_offset != 0 && t->size <= f->size &&
           t->file_offset <= f->size - t->size;
}

#endif
