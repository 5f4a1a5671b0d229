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
    uint64_t size;
    void *map;          /* mmap'd region to unmap at close, or NULL */
    size_t map_len;
    void *owned;        /* buffer read from a non-mappable fd, or NULL */

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

#endif
