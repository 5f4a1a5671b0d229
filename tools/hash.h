/* hash.h -- streaming digests of file ranges for `gguf hash` and `gguf verify`.
 * hash_stream.c is the only part of the tool that links libcrypto (SHA-1,
 * SHA-256) and libxxhash; the library stays dependency-free. */
#ifndef LGG_HASH_H
#define LGG_HASH_H

#include "libgguf.h"

#include <stddef.h>
#include <stdint.h>

enum { HASH_XXH64 = 1u, HASH_SHA1 = 2u, HASH_SHA256 = 4u, HASH_UUID = 8u };

/* Digests of one range (or of all ranges in a row).  xxh64 is in canonical
 * (big-endian) byte order, as its hex is printed.  uuid is llama.cpp's UUIDv5:
 * SHA-1 over its namespace bytes, then the data, version and variant bits set. */
typedef struct hash_digest {
    uint8_t xxh64[8], sha1[20], sha256[32], uuid[16];
} hash_digest;

/* One item to hash: `size` bytes at `offset` of descriptor `fd`, or, when
 * fd is -1, of `file` (read with lgg_file_read: a file on a server). */
typedef struct hash_range {
    int fd;
    uint64_t offset, size;
    const lgg_file *file;
} hash_range;

/* Called from the calling thread for each item, in order, as soon as its
 * digests are final; `d` is valid during the call. */
typedef void (*hash_item_fn)(void *ud, size_t index, const hash_digest *d);
/* Bytes read so far (for a progress line); called from the calling thread. */
typedef void (*hash_progress_fn)(void *ud, uint64_t bytes);

/* A one-pass read: the bytes [from, to) of the file items share, pushed
 * in order to push(push_ud, ...), which returns -1 to stop.  Returns 0, or
 * -1 with a message in why. */
typedef int (*hash_push_fn)(void *push_ud, const void *p, size_t n);
typedef int (*hash_stream_fn)(void *ud, const hash_range *item, uint64_t from, uint64_t to, hash_push_fn push,
                              void *push_ud, char *why, size_t cap);

typedef struct hash_job {
    const hash_range *items;
    size_t n_items;
    unsigned item_algos;  /* HASH_XXH64|HASH_SHA1|HASH_SHA256 per item (0: none) */
    unsigned total_algos; /* the same plus HASH_UUID over all items' bytes in order */
    unsigned threads;     /* hashing threads; 1 runs everything in the calling thread */
    hash_item_fn on_item;
    hash_progress_fn on_progress;
    void *ud;
    /* NULL: each item read at its offset.  Else every run of items of one
     * file (in file order, not overlapping) is read in one pass through it:
     * a pipe, or a server where a read at an offset costs a request. */
    hash_stream_fn stream;
    void *stream_ud;
} hash_job;

/* Read every item once, in order, through a bounded ring of buffers (8 MiB
 * whatever the sizes) and compute the digests; *total gets the
 * whole-stream ones.  Returns 0, or -1 with a message in why (a read error,
 * a file shorter than a range, out of memory). */
int hash_stream(const hash_job *job, hash_digest *total, char *why, size_t cap);

/* Lower-case hex of n bytes into out (2n+1 bytes). */
void hash_hex(char *out, const uint8_t *p, size_t n);
/* llama.cpp's UUID text form of 16 bytes (37 bytes with the NUL). */
void hash_uuid_text(char *out, const uint8_t uuid[16]);

/* Incremental digests over bytes in memory (HASH_XXH64|HASH_SHA1|HASH_SHA256|
 * HASH_UUID): new (NULL when out of memory), update, final (fills the fields
 * of the algorithms asked for), free (NULL is a no-op). */
typedef struct hash_ctx hash_ctx;
hash_ctx *hash_ctx_new(unsigned algos);
void hash_ctx_update(hash_ctx *c, const void *p, size_t n);
void hash_ctx_final(hash_ctx *c, hash_digest *d);
void hash_ctx_free(hash_ctx *c);

#endif

/* ---- llama-gguf-hash manifests (hash_manifest.c) ----
 * Lines "TYPE  HASH  NAME" (any whitespace between the three words; other
 * lines are skipped), read the way llama-gguf-hash reads them: the first line
 * with the same TYPE and NAME decides. */
typedef struct hash_manifest hash_manifest;
enum { HASH_NOT_FOUND = 0, HASH_MISMATCH = 1, HASH_MATCH = 2 };
/* 0 and *out, or -1 with why (cannot be read, out of memory). */
int hash_manifest_load(const char *path, hash_manifest **out, char *why, size_t cap);
/* HASH_XXH64|SHA1|SHA256|UUID for the known types that begin some line. */
unsigned hash_manifest_types(const hash_manifest *m);
/* HASH_NOT_FOUND, HASH_MISMATCH or HASH_MATCH for (type, hash, name). */
int hash_manifest_verify(const hash_manifest *m, const char *type, const char *hash, const char *name,
                         size_t name_len);
void hash_manifest_free(hash_manifest *m);
/* The verdict as llama-gguf-hash prints it: "Not Found", "Mismatch", "Ok". */
const char *hash_verdict_name(int v);

/* ---- the canonical metadata encoding (hash_meta.c, docs/hash.md) ----
 * Feed the metadata of a file (n == 1) or of a shard set seen as its merged
 * file (n > 1: the first shard's pairs without split.*, every shard's tensor
 * infos in order) into c.  The bytes do not depend on the file's byte order,
 * version or alignment.  0, or -1 when out of memory. */
struct lgg_file;
int hash_metadata(struct lgg_file *const *files, unsigned n, hash_ctx *c);
