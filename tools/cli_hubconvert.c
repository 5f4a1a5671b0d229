/* cli_hubconvert.c -- `gguf convert hf://OWNER/REPO[@REV]`: a checkpoint
 * converted where it lives, with no local copy.
 *
 * libgguf-convert reads through an lgg_convert_io (it knows nothing of
 * HTTP); this file implements one with libgguf-remote's public API.  The
 * folder is the repository's listing (lgg_hub_list: sizes, LFS sha256s),
 * its top level only, as a local folder's files.  Each file is opened when
 * first read (one request: its first 256 KiB, which holds a safetensors
 * header) and checked against the listing: a size or sha256 that differs
 * means the file changed on the hub since the listing, an error naming it;
 * so does an ETag that changes between two reads of it (lgg_remote_read).
 * Files other than the shards (config.json, tokenizer.json, README.md) are
 * kept whole once read, since the converter reads some of them twice; the
 * shards' data is read in the large ranges the converter asks for.  The
 * token goes to the hub's origin only (libgguf-remote's rule), never to
 * the CDN its redirects name. */
#include "cli.h"

#include "libgguf_convert.h"
#include "libgguf_remote.h"

#include <stdlib.h>
#include <string.h>

#define LIVE 2 /* connections kept open at once (a MoE block's experts may span two shards) */

typedef struct hub_file {
    const lgg_hub_file *f;
    lgg_remote *r;
    char *whole; /* a small file's bytes, once read */
} hub_file;

static struct {
    lgg_hub_repo *repo;
    char name[1024]; /* OWNER/REPO */
    const char *rev;
    char label[256]; /* REPO: the folder a download would make */
    hub_file *f;     /* the top-level files */
    size_t n;
    lgg_remote *live[LIVE];
    lgg_convert_io io;
} H;

static const char *file_at(void *ud, size_t i, uint64_t *size) {
    (void)ud;
    if (i >= H.n) return NULL;
    *size = H.f[i].f->size;
    return H.f[i].f->path;
}

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* r is being read: first in the live list; the one pushed off the end
 * closes its connection (a later read opens another). */
static void touch(lgg_remote *r) {
    int k = 0;
    while (k < LIVE - 1 && H.live[k] != r) k++;
    if (H.live[k] != r && H.live[k]) lgg_remote_idle(H.live[k]);
    memmove(H.live + 1, H.live, (size_t)k * sizeof *H.live);
    H.live[0] = r;
}

static lgg_status changed(const hub_file *h, lgg_error *err, const char *what, const char *listed, const char *now) {
    return lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET,
                         "%s/%s: the file changed on the hub during the conversion (the listing says %s %s, the file "
                         "now %s)", H.label, h->f->path, what, listed, now);
}

/* h opened: one request, its answer checked against the listing. */
static lgg_status open_file(hub_file *h, lgg_error *err) {
    char name[4096];
    if ((size_t)snprintf(name, sizeof name, "hf://%s/%s@%s", H.name, h->f->path, H.rev ? H.rev : "main") >= sizeof name)
        return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%s/%s: name too long", H.label, h->f->path);
    lgg_remote_options ro;
    cli_remote_defaults(&ro);
    /* a shard's connection takes the place of the least recently read
     * one's (a small file's is closed once it is read whole) */
    const int shard = ends_with(h->f->path, ".safetensors");
    if (shard && H.live[LIVE - 1]) lgg_remote_idle(H.live[LIVE - 1]), H.live[LIVE - 1] = NULL;
    lgg_status st = lgg_remote_open(name, &ro, &h->r, err);
    if (st) return st;
    if (shard) touch(h->r);
    char a[32], b[32];
    if (lgg_remote_size(h->r) != h->f->size) {
        snprintf(a, sizeof a, "%llu", (unsigned long long)h->f->size);
        snprintf(b, sizeof b, "%llu", (unsigned long long)lgg_remote_size(h->r));
        return changed(h, err, "size", a, b);
    }
    const char *sha = lgg_remote_sha256(h->r);
    if (h->f->sha256[0] && sha[0] && strcmp(sha, h->f->sha256)) return changed(h, err, "sha256", h->f->sha256, sha);
    return LGG_OK;
}

static lgg_status read_fn(void *ud, const char *name, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)ud;
    hub_file *h = NULL;
    for (size_t i = 0; i < H.n && !h; i++)
        if (!strcmp(H.f[i].f->path, name)) h = &H.f[i];
    if (!h || off > h->f->size || n > h->f->size - off)
        return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%s/%s: read outside the file", H.label, name);
    if (!n) return LGG_OK;
    lgg_status st = h->r || h->whole ? LGG_OK : open_file(h, err);
    if (st) return st;
    if (!h->whole && !ends_with(name, ".safetensors")) { /* small: kept whole, read once, its connection closed */
        if (h->f->size > SIZE_MAX || !(h->whole = malloc((size_t)h->f->size)))
            return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "%s/%s: out of memory", H.label, name);
        st = lgg_remote_read(h->r, 0, h->whole, (size_t)h->f->size, err);
        lgg_remote_free(h->r);
        h->r = NULL;
        if (st) {
            free(h->whole);
            h->whole = NULL;
            return st;
        }
    }
    if (h->whole) {
        memcpy(dst, h->whole + off, n);
        return LGG_OK;
    }
    touch(h->r);
    return lgg_remote_read(h->r, off, dst, n, err);
}

void cli_hubconv_close(void) {
    for (size_t i = 0; i < H.n; i++) lgg_remote_free(H.f[i].r), free(H.f[i].whole);
    free(H.f);
    lgg_hub_free(H.repo);
    memset(&H, 0, sizeof H);
}

int cli_hubconv_open(const char *name, const lgg_convert_io **io, const char **dir) {
    *io = NULL;
    if (!lgg_hub_is_repo_name(name)) return CLI_OK; /* a local folder */
    cli_hubconv_close();
    if (strchr(name + 5, ':'))
        return cli_usage_error("convert", "gguf convert [options] hf://OWNER/REPO[@REVISION] [-o OUT]",
                               "%s: convert reads a safetensors repository, not a GGUF file by its quantization", name);
    if (!(H.repo = cli_hub_list("convert", name, H.name, sizeof H.name, &H.rev))) return CLI_FAIL;
    const char *slash = strchr(H.name, '/');
    snprintf(H.label, sizeof H.label, "%s", slash + 1);
    size_t n = lgg_hub_file_count(H.repo);
    if (!(H.f = calloc(n ? n : 1, sizeof *H.f))) {
        cli_err("convert", NULL, "out of memory");
        cli_hubconv_close();
        return CLI_FAIL;
    }
    for (size_t i = 0; i < n; i++) /* the top level, as a folder's files */
        if (!strchr(lgg_hub_file_at(H.repo, i)->path, '/')) H.f[H.n++].f = lgg_hub_file_at(H.repo, i);
    H.io = (lgg_convert_io){.size = sizeof H.io, .file_at = file_at, .read = read_fn};
    *dir = H.label;
    *io = &H.io;
    return CLI_OK;
}
