/* libgguf/split.h -- shard sets: split and merge as llama.cpp's gguf-split.
 * Part of libgguf's public API, included by libgguf.h (only that one is
 * included directly; its conventions hold here). */
#ifndef LIBGGUF_SPLIT_H
#define LIBGGUF_SPLIT_H

#ifndef LIBGGUF_H
#error "include libgguf.h, which includes this header (inside its extern \"C\")"
#endif

/* ======================================================================== */
/* Split and merge: shard sets as llama.cpp's gguf-split makes them          */
/* ======================================================================== */

/* A shard set splits one file's tensors, in order, across files named
 * PREFIX-00001-of-0000N.gguf ... (lgg_split_path).  The first shard holds
 * every metadata pair; every shard ends its metadata with split.no (u16,
 * 0-based), split.tensors.count (i32, the set's tensors) and split.count
 * (u16), as gguf-split writes them.  Shards are GGUF v3 in the input's byte
 * order and alignment; a later shard carries general.alignment only when the
 * alignment is not the default 32 (its data could not be found otherwise).
 * For a little-endian v3 input with the default alignment the shards are
 * byte-identical to `llama-gguf-split --split`'s, and merging them gives the
 * canonical copy of the input (lgg_writer_from_file), split keys removed. */

/* Write "PREFIX-%05u-of-%05u.gguf" (index is 0-based; the name shows index+1)
 * into buf with snprintf's contract: returns the length the name needs, and
 * buf (if cap > 0) is always NUL-terminated.  prefix NULL is "". */
LGG_API size_t lgg_split_path(char *buf, size_t cap, const char *prefix, uint32_t index, uint32_t count);

/* If path[0..len) ends in "-NNNNN-of-MMMMM.gguf" with 1 <= NNNNN <= MMMMM,
 * return true with *index = NNNNN-1, *count = MMMMM and *prefix_len the
 * length before that ending (any pointer may be NULL); false otherwise. */
LGG_API bool lgg_split_name_parse(const char *path, size_t len, uint32_t *index, uint32_t *count,
                                  size_t *prefix_len);

/* Exactly one of max_tensors and max_size is non-zero.
 *  - max_tensors: at most this many tensors per shard.
 *  - max_size: gguf-split's rule: tensors join the current shard while the sum
 *    of their data sizes, each padded to the alignment, stays <= max_size
 *    (metadata is not counted); a tensor larger than max_size gets a shard of
 *    its own (a shard never starts empty). */
typedef struct lgg_split_options {
    size_t size; /* sizeof(lgg_split_options), or 0 (see lgg_open_options) */
    uint64_t max_tensors;
    uint64_t max_size;
    const lgg_allocator *allocator; /* NULL: malloc/free */
    uint32_t flags;                 /* LGG_SPLIT_* */
} lgg_split_options;
#define LGG_SPLIT_OPTIONS_INIT {.size = sizeof(lgg_split_options)}

/* The first shard holds the metadata and no tensor (llama-gguf-split's
 * --no-tensor-first-split); the tensors are split over the shards after it. */
#define LGG_SPLIT_NO_TENSOR_FIRST 0x1u
/* gguf-py's layout (convert_hf_to_gguf.py's --split-max-*) instead of
 * gguf-split's: the split keys in the order split.no, split.count,
 * split.tensors.count, and max_size compares the tensors' data sizes
 * without their alignment padding (a tensor that would take the sum past
 * max_size starts a new shard).  The shards hold the same tensors in the
 * same order; only the metadata's order and the cut points can differ. */
#define LGG_SPLIT_GGUF_PY 0x2u

LGG_API void lgg_split_options_init(lgg_split_options *o); /* all zero */

typedef struct lgg_shard {
    uint64_t first_tensor; /* index in the input of the shard's first tensor */
    uint64_t n_tensors;
    uint64_t size;         /* bytes of the shard file */
} lgg_shard;

typedef struct lgg_split_plan lgg_split_plan;

/* Decide the shards of `f`.  A file without tensors makes one shard.
 * Errors: LGG_ERR_ARG (NULL, or not exactly one limit), LGG_ERR_NOMEM,
 * LGG_ERR_LIMIT (more than 65535 shards: split.count is a u16),
 * LGG_ERR_RANGE (more than INT32_MAX tensors; alignment beyond 32 bits),
 * LGG_ERR_UNSUPPORTED (a tensor of unknown type or without data).
 * Free with lgg_split_plan_free.  The plan does not keep `f`. */
LGG_API lgg_status lgg_split_plan_make(const lgg_file *f, const lgg_split_options *opts, lgg_split_plan **out,
                                       lgg_error *err);
LGG_API uint32_t lgg_split_plan_count(const lgg_split_plan *p);
/* Shard i (0-based), or NULL when out of range.  Owned by the plan. */
LGG_API const lgg_shard *lgg_split_plan_shard(const lgg_split_plan *p, uint32_t i);
LGG_API void lgg_split_plan_free(lgg_split_plan *p); /* NULL is a no-op */

/* A writer for shard `index` of plan `p` made for `f` (write it with
 * lgg_writer_write_file or _write_fd, with options whose endian is
 * lgg_file_endian(f) to keep the input's byte order; the plan's sizes assume
 * that).  `fd` as in
 * lgg_writer_from_file: with it, data is copied with copy_file_range and a
 * shard can never be written onto the input.  `f` and `fd` must stay open
 * until the writer is freed.  Errors: LGG_ERR_ARG, LGG_ERR_RANGE (index),
 * LGG_ERR_NOMEM. */
LGG_API lgg_status lgg_split_shard_writer(const lgg_file *f, int fd, const lgg_split_plan *p, uint32_t index,
                                          lgg_writer **out, lgg_error *err);

/* Check that shards[0..n) (in order) form one complete set: split.count of
 * the first equals n; in every shard split.no is its index, split.count and
 * split.tensors.count agree with the first's (integers of any width are
 * accepted); the same byte order throughout; no metadata in later shards
 * but the split keys and general.alignment; each tensor name in one shard
 * only; the tensor total equals split.tensors.count.  Errors:
 * LGG_ERR_ARG, LGG_ERR_INVALID (the set is inconsistent; the message says
 * which shard, 1-based, and how), LGG_ERR_TENSOR_DUP, LGG_ERR_UNSUPPORTED (a
 * tensor whose data cannot be copied). */
LGG_API lgg_status lgg_merge_check(const lgg_file *const *shards, uint32_t n, lgg_error *err);

/* lgg_merge_check, then a writer for the merged file: the first shard's
 * metadata without the split keys, then every shard's tensors in order.
 * fds (NULL, or n descriptors, -1 allowed) as in lgg_writer_from_file: with
 * them the data is copied with copy_file_range (memory stays bounded
 * whatever the model size) and lgg_writer_write_file refuses (LGG_ERR_EXISTS)
 * to write onto any shard, whatever name it is given under.  The shards and
 * fds must stay open until the writer is freed.  Write it with options whose
 * endian is the shards' to give back the file before the split. */
LGG_API lgg_status lgg_merge_writer(const lgg_file *const *shards, const int *fds, uint32_t n,
                                    const lgg_allocator *allocator, lgg_writer **out, lgg_error *err);

#endif /* LIBGGUF_SPLIT_H */
