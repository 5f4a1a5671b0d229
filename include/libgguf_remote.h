/* libgguf_remote.h -- the remote part of libgguf: GGUF files read where they
 * live, over HTTP(S) with byte ranges, and `hf://` names on the Hugging Face
 * hub.
 *
 * This part lives in its own library, libgguf-remote.a, because it talks
 * HTTP through libcurl: a program that embeds only the reader (libgguf.a)
 * links nothing new, and the reader itself knows nothing of HTTP: a remote
 * file is an lgg_source (see lgg_open_source in libgguf.h).  Link order:
 * -lgguf-remote -lgguf -lcurl -lpthread (pkg-config libgguf-remote).
 *
 * Everything a server says is untrusted: the status, Content-Range (checked
 * against the range asked for and the size first seen), Content-Length, the
 * redirect targets, the body's length.  A server that ignores Range and
 * sends the whole body is read up to the bytes needed and the transfer is
 * then dropped.  5xx, 429 and dropped connections are retried with bounded
 * backoff, asking only for the bytes still missing.  A bearer token is sent
 * to the origin (scheme, host, port) of the name it was given for and never
 * to another one, whatever the redirects.  The functions never print, abort
 * or exit. */
#ifndef LIBGGUF_REMOTE_H
#define LIBGGUF_REMOTE_H

#include "libgguf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lgg_remote lgg_remote;

typedef struct lgg_remote_options {
    size_t size;          /* sizeof(lgg_remote_options), or 0 (see lgg_open_options in libgguf.h) */
    const char *token;    /* bearer token (HF_TOKEN) for the name's own origin; NULL: none */
    const char *endpoint; /* for hf:// names; NULL: $HF_ENDPOINT, else https://huggingface.co */
    long timeout_ms;      /* connecting, and a stall (no byte for this long, counted in whole
                             seconds), each retried; never a transfer that progresses; 0: 60000 */
    int max_redirects;    /* per request; 0: 10 */
    int max_retries;      /* per read, after 5xx, 429 or a dropped connection; 0: 5 (-1: none) */
    long backoff_ms;      /* the first retry's wait, doubling up to 8 s; 0: 250 */
    uint64_t first_read;  /* bytes asked for first (the header prefix); 0: 256 KiB */
} lgg_remote_options;
#define LGG_REMOTE_OPTIONS_INIT {.size = sizeof(lgg_remote_options)}

/* Fill `o` with the defaults (all zeros and NULLs). */
LGG_API void lgg_remote_options_init(lgg_remote_options *o);

/* True for "http://...", "https://..." and "hf://...". */
LGG_API bool lgg_remote_is_url(const char *name);

/* Whether `name` can be requested: a URL, or an hf:// name whose owner,
 * repository, path and revision are each made of non-empty segments other
 * than "." and "..", with no '?', '#', backslash or control character.
 * When it cannot, why (if not NULL) gets the reason.  No request is made. */
LGG_API bool lgg_remote_name_check(const char *name, char *why, size_t cap);

/* The URL an hf://OWNER/REPO/PATH[@REVISION] name stands for:
 * ENDPOINT/OWNER/REPO/resolve/REVISION/PATH (REVISION "main" by default,
 * ENDPOINT as in lgg_remote_options), into buf (NUL-terminated), each part
 * percent-encoded as huggingface_hub does (the revision as one segment:
 * refs/pr/1 gives refs%2Fpr%2F1; the revision is what follows the last '@'
 * of the path).  Other URLs are copied.  Returns the length it needs
 * (without the NUL) or 0 for a name lgg_remote_name_check refuses. */
LGG_API size_t lgg_remote_resolve(const char *name, const char *endpoint, char *buf, size_t cap);

/* Open a remote file: resolve the name, ask for its first `first_read`
 * bytes (which also tells its size, from Content-Range) and keep them.
 * Errors (in err, with the URL and, for an HTTP answer, the status):
 * LGG_ERR_ARG (malformed name), LGG_ERR_NOT_FOUND (404, 410), LGG_ERR_IO
 * (401, 403, 416, other statuses, a connection refused, an unknown host, a
 * timeout, too many redirects, a Content-Range that is not what was asked
 * for), LGG_ERR_NOMEM.  *out is freed with lgg_remote_free. */
LGG_API lgg_status lgg_remote_open(const char *name, const lgg_remote_options *opts, lgg_remote **out,
                                   lgg_error *err);
LGG_API void lgg_remote_free(lgg_remote *r); /* NULL is a no-op */

/* r will not be read for a while: close its connection and free the first
 * read's bytes it keeps (a later read opens a new connection).  A program
 * that holds many remote files (a shard set) keeps its descriptors and
 * memory bounded this way.  NULL is a no-op. */
LGG_API void lgg_remote_idle(lgg_remote *r);

/* The file as an lgg_source for lgg_open_source: its reads are range
 * requests (the first one's bytes are served from memory).  The source
 * points into r, which must outlive the lgg_file opened from it. */
LGG_API void lgg_remote_source(lgg_remote *r, lgg_source *src);

/* Read n bytes at offset (offset + n <= the size) into dst; as the
 * source's callback.  An answer whose ETag differs from the first read's
 * is another version of the file: LGG_ERR_IO, "the file changed on the
 * server while it was read" (lgg_remote_stream too). */
LGG_API lgg_status lgg_remote_read(lgg_remote *r, uint64_t offset, void *dst, size_t n, lgg_error *err);

/* Bytes [offset, offset + n) handed to fn in order, in one request (a
 * dropped or stalled connection is resumed where it stopped): one pass over
 * the file, also on a server that ignores Range (where each
 * lgg_remote_read costs a request from byte 0).  fn returns false to stop
 * (then LGG_ERR_INVALID).  Errors as lgg_remote_read. */
LGG_API lgg_status lgg_remote_stream(lgg_remote *r, uint64_t offset, uint64_t n,
                                     bool (*fn)(void *ud, const void *p, size_t n), void *ud, lgg_error *err);

/* The file's size; the URL it was opened as (after hf:// resolution); the
 * ETag and the sha256 the server gave (X-Linked-Etag, the hub's LFS oid:
 * 64 lowercase hex digits, or "" when there was none; the hub sends it on
 * its redirect, so every hop's answer counts). */
LGG_API uint64_t lgg_remote_size(const lgg_remote *r);
LGG_API const char *lgg_remote_url(const lgg_remote *r);
LGG_API const char *lgg_remote_etag(const lgg_remote *r);
LGG_API const char *lgg_remote_sha256(const lgg_remote *r);
/* The repository commit the hub's first answer named (X-Repo-Commit: 40 or
 * 64 lowercase hex digits), or "": files of one repository opened at
 * different times come from the same commit when these are equal. */
LGG_API const char *lgg_remote_commit(const lgg_remote *r);
/* True when the server named the size (X-Linked-Size) and it matched the
 * file's (a mismatch fails lgg_remote_open). */
LGG_API bool lgg_remote_size_checked(const lgg_remote *r);
/* True when the server answered the first ranged read with the whole file
 * (200): each later read then costs a request from byte 0; read such a
 * file in one pass with lgg_remote_stream. */
LGG_API bool lgg_remote_ignores_ranges(const lgg_remote *r);

/* Requests made and body bytes received so far (retries included). */
LGG_API uint64_t lgg_remote_requests(const lgg_remote *r);
LGG_API uint64_t lgg_remote_bytes(const lgg_remote *r);

/* The URL of shard `index` (0-based) of `count` for a first shard's URL
 * ".../NAME-00001-of-0000N.gguf[?query]", into buf; 0 when url does not end
 * that way (lgg_split_name_parse's rule), else the length it needs. */
LGG_API size_t lgg_remote_shard_url(const char *url, uint32_t index, uint32_t count, char *buf, size_t cap);

/* ---- downloading --------------------------------------------------------- */

/* Progress: bytes on disk and the total, after each chunk. */
typedef void (*lgg_remote_progress_fn)(void *ud, uint64_t done, uint64_t total);

typedef struct lgg_remote_download_options {
    size_t size;                     /* sizeof(lgg_remote_download_options), or 0 (see lgg_open_options in libgguf.h) */
    lgg_remote_progress_fn progress; /* NULL: none */
    void *ud;
    /* Called on the complete, hash-checked partial file before it is renamed
     * over OUT; false (with a reason in why) refuses it.  NULL: none. */
    bool (*check)(void *ud, const char *partial, char *why, size_t cap);
    void *check_ud;
    bool any_bytes; /* false: the bytes must be GGUF (LGG_ERR_MAGIC at the first four otherwise);
                       true: any file (a repository's config.json, safetensors shards) */
} lgg_remote_download_options;
#define LGG_REMOTE_DOWNLOAD_OPTIONS_INIT {.size = sizeof(lgg_remote_download_options)}

/* What a download found. */
typedef struct lgg_remote_download_info {
    char sha256[65];     /* of the whole file, 64 lowercase hex digits */
    bool sha256_checked; /* the server named a sha256 (the hub's X-Linked-Etag) and it matched */
    bool size_checked;   /* the server named the size (X-Linked-Size) and it matched */
    bool resumable;      /* on failure: OUT.part was kept, and running again resumes it */
} lgg_remote_download_info;

/* Download the whole file r stands for to `out`.  The bytes go to
 * `out`.part (resumed from its length when it holds the start of the same
 * file: the server's ETag must match the one recorded in `out`.part.etag,
 * else the download starts over).  Both are opened without following
 * symlinks and must be regular files of this user with one link (else
 * LGG_ERR_IO, nothing written); new ones are created with O_EXCL.
 * `out`.part is locked (flock) until the end: a second download to the same
 * `out` fails at once (LGG_ERR_IO, "another download ... is running").
 * Unless o->any_bytes, the first four bytes must be "GGUF" (LGG_ERR_MAGIC, the
 * transfer stopped there); the whole file must match the sha256 and size the server named
 * (LGG_ERR_INVALID on a mismatch), and pass o->check; it is then synced and
 * renamed over `out`.  On failure `out` is untouched and `out`.part is kept
 * only when it can be resumed (info->resumable: the server sent an ETag; not
 * when the rename failed: `out` is a folder, say).
 * Errors as lgg_remote_read, and LGG_ERR_IO for local files. */
LGG_API lgg_status lgg_remote_download_file(lgg_remote *r, const char *out, const lgg_remote_download_options *o,
                                            lgg_remote_download_info *info, lgg_error *err);

/* ---- the hub's repositories --------------------------------------------- */

/* One file of a repository: its path in the repository, its size, and the
 * sha256 the hub names for an LFS file (64 lowercase hex digits; "" for a
 * file kept in git). */
typedef struct lgg_hub_file {
    const char *path;
    uint64_t size;
    const char *sha256;
} lgg_hub_file;

typedef struct lgg_hub_repo lgg_hub_repo;

/* List repository `repo` ("OWNER/REPO") at `revision` (NULL: "main"):
 * GET ENDPOINT/api/models/OWNER/REPO/tree/REVISION?recursive=true, with o's
 * endpoint, token, redirect and retry rules (as lgg_remote_open).  Only
 * files are kept, in the listing's order.  A paginated listing (the hub's
 * `Link: <URL>; rel="next"` header) is followed page by page, up to 10000
 * pages and 64 MiB of JSON in all; a next page on another server than the
 * endpoint is refused (LGG_ERR_INVALID: the token would go there).  Errors: LGG_ERR_ARG (not
 * OWNER/REPO, an empty revision or one with '/'), those of lgg_remote_open
 * for the request, LGG_ERR_INVALID (not a JSON array; an entry without a
 * path or a size; a path that is absolute, has a "." or ".." segment, a
 * control character, '?', '#' or a backslash), LGG_ERR_LIMIT (a listing over
 * 64 MiB or 10000 pages), LGG_ERR_NOMEM.
 * Free with lgg_hub_free. */
LGG_API lgg_status lgg_hub_list(const char *repo, const char *revision, const lgg_remote_options *o,
                                lgg_hub_repo **out, lgg_error *err);
LGG_API void lgg_hub_free(lgg_hub_repo *r); /* NULL is a no-op */
LGG_API size_t lgg_hub_file_count(const lgg_hub_repo *r);
LGG_API const lgg_hub_file *lgg_hub_file_at(const lgg_hub_repo *r, size_t i); /* NULL past the end */

/* The quantization a GGUF file name carries: the longest preset name of
 * lgg_quant_preset_at (or F32) standing alone in the last path component,
 * case-insensitively, in the preset's spelling ("Q4_K_M", "IQ4_XS",
 * "BF16"), into buf; snprintf's contract ("" and 0: none). */
LGG_API size_t lgg_hub_quant_name(const char *path, char *buf, size_t cap);

/* llama.cpp's -hf OWNER/REPO:QUANT: the *.gguf file of r whose path
 * contains `tag` case-insensitively (tag NULL or "": "Q4_K_M"), or, for a
 * shard set, its first shard (the set must be complete); its index into
 * *index.  Errors: LGG_ERR_NOT_FOUND (no match, or a shard set with a
 * shard missing: the message lists the quantizations the repository has),
 * LGG_ERR_INVALID (several matches that are not one shard set: the message
 * lists them). */
LGG_API lgg_status lgg_hub_select(const lgg_hub_repo *r, const char *tag, size_t *index, lgg_error *err);

/* True for "hf://OWNER/REPO[:QUANT][@REVISION]" (no path in the repository). */
LGG_API bool lgg_hub_is_repo_name(const char *name);

/* Such a name to the hf://OWNER/REPO/PATH[@REVISION] name of the file
 * lgg_hub_select picks (the first shard of a set), into buf.  Errors: those
 * of lgg_hub_list and lgg_hub_select (lgg_hub_select's message after "hf://OWNER/REPO: "),
 * LGG_ERR_ARG (a malformed name), LGG_ERR_RANGE (buf too small). */
LGG_API lgg_status lgg_hub_pick(const char *name, const lgg_remote_options *o, char *buf, size_t cap,
                                lgg_error *err);

#ifdef __cplusplus
}
#endif

#endif