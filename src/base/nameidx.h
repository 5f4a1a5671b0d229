/* nameidx.h -- a keyed hash index from names to positions, shared by the
 * reader (built once at open) and the writer (grown as pairs and tensors are
 * added, rebuilt lazily after a removal or a rename).
 *
 * The hash is SipHash-1-3 under a key drawn afresh for every index.  An
 * unkeyed hash lets a file choose names that all land in one run of slots:
 * with FNV-1a, 50,000 such keys (a 1.5 MB file, found in seconds) made opening
 * take 11 s, growing quadratically.  Results never depend on the key: the
 * index maps each distinct name to its first occurrence. */
#ifndef LGG_NAMEIDX_H
#define LGG_NAMEIDX_H

#include "base/internal.h"

/* The name of entry i of the indexed collection. */
typedef void (*lgg__name_fn)(const void *ctx, uint64_t i, const char **name, uint64_t *len);

typedef struct lgg__nameidx {
    uint32_t *slots; /* open addressing, linear probing: entry index + 1, 0 = empty */
    uint64_t mask;   /* slot count - 1 (slots != NULL) */
    uint64_t used;   /* distinct names held */
    uint64_t key[2];
} lgg__nameidx;

/* Largest collection an index can hold (slots store index + 1 in 32 bits). */
#define LGG__NAMEIDX_MAX (UINT64_C(0xFFFFFFFE))

LGG_HIDDEN uint64_t lgg__hash(const uint64_t key[2], const char *s, uint64_t len);
/* Empty index with a fresh key; `handle` only salts the fallback key. */
LGG_HIDDEN void lgg__nameidx_init(lgg__nameidx *x, const void *handle);
LGG_HIDDEN void lgg__nameidx_free(lgg__nameidx *x, const lgg_allocator *a);
/* Index entries 0..n-1 from scratch.  dup_at (may be NULL) gets the first
 * entry whose name repeats an earlier one, or -1.  Returns false when out of
 * memory or n > LGG__NAMEIDX_MAX (the index is then empty). */
LGG_HIDDEN bool lgg__nameidx_build(lgg__nameidx *x, const lgg_allocator *a, uint64_t n, lgg__name_fn name_of,
                                   const void *ctx, int64_t *dup_at);
/* Add entry i (growing the table to keep it at most half full).  Returns the
 * entry already indexed under an equal name (i is then not added), -1 when
 * added, or -2 when out of memory or i > LGG__NAMEIDX_MAX (the index is then
 * empty: rebuild it before the next lookup). */
LGG_HIDDEN int64_t lgg__nameidx_add(lgg__nameidx *x, const lgg_allocator *a, lgg__name_fn name_of,
                                    const void *ctx, uint64_t i);
/* The first entry named (name, len), or -1. */
LGG_HIDDEN int64_t lgg__nameidx_find(const lgg__nameidx *x, lgg__name_fn name_of, const void *ctx,
                                     const char *name, uint64_t len);

#endif
