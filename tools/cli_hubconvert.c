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
 * kept whole once read (up to 128 MiB), since the converter reads some of
 * them twice; the
 * shards' data is read in the large ranges the converter asks for.  The
 * token goes to the hub's origin only (libgguf-remote's rule), never to
 * the CDN its redirects name.
 *
 * Several outputs (--outtype A,B,...) are made by one converter each,
 * written at once and sharing the rows they read (lgg_convert_share); the
 * outputs of other orders (the quantize presets write in the plan's order)
 * and the converters' own read windows ask for some ranges again, so the
 * shards' bytes fetched are kept in a spool (one unlinked temporary file
 * per shard in $TMPDIR, and the ranges it holds): each byte is fetched
 * once however many outputs there are.
 *
 * --model-card writes README.md for the outputs as GGUF-my-repo does: the
 * front matter (base_model, the source card's license and language, tags),
 * a table of the files, how to run them with llama.cpp. */
#include "tool.h"

#include "libgguf_convert.h"
#include "libgguf_remote.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LIVE 2 /* connections kept open at once (a MoE block's experts may span two shards) */

typedef struct span {
    uint64_t lo, hi;
} span;

typedef struct hub_file {
    const lgg_hub_file *f;
    lgg_remote *r;
    char *whole; /* a small file's bytes, once read */
    int spool;   /* several outputs: the shard's bytes fetched so far, at their offsets (-1: none yet) */
    span *held;  /* the spool's ranges, sorted, disjoint, not touching */
    size_t n_held, cap_held;
} hub_file;

static struct {
    lgg_hub_repo *repo;
    char name[1024]; /* OWNER/REPO */
    const char *rev;
    char label[256]; /* REPO: the folder a download would make */
    hub_file *f;     /* the top-level files */
    size_t n;
    lgg_remote *live[LIVE];
    char commit[65]; /* the first file's X-Repo-Commit: every file's must be it */
    int spooling;    /* several outputs read the shards: keep what is fetched */
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
    const char *commit = lgg_remote_commit(h->r);
    if (commit[0] && !H.commit[0]) snprintf(H.commit, sizeof H.commit, "%s", commit);
    if (commit[0] && strcmp(commit, H.commit))
        return lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET,
                             "%s/%s: the repository changed on the hub during the conversion (commit %s, then %s for "
                             "this file)", H.label, h->f->path, H.commit, commit);
    const char *sha = lgg_remote_sha256(h->r);
    if (h->f->sha256[0] && sha[0] && strcmp(sha, h->f->sha256)) return changed(h, err, "sha256", h->f->sha256, sha);
    return LGG_OK;
}

/* The held range at `at` (its end into *hi), else 0 and *hi the next held
 * range's start (or UINT64_MAX). */
static int held_at(const hub_file *h, uint64_t at, uint64_t *hi) {
    *hi = UINT64_MAX;
    for (size_t i = 0; i < h->n_held; i++) {
        if (h->held[i].lo <= at && at < h->held[i].hi) return *hi = h->held[i].hi, 1;
        if (h->held[i].lo > at) return *hi = h->held[i].lo, 0;
    }
    return 0;
}

/* [lo, hi) is now in the spool: merged with the ranges it meets. */
static int hold(hub_file *h, uint64_t lo, uint64_t hi) {
    size_t k = 0;
    while (k < h->n_held && h->held[k].hi < lo) k++;
    size_t j = k;
    while (j < h->n_held && h->held[j].lo <= hi) {
        if (h->held[j].lo < lo) lo = h->held[j].lo;
        if (h->held[j].hi > hi) hi = h->held[j].hi;
        j++;
    }
    if (j == k && !cli_grow((void **)&h->held, &h->cap_held, h->n_held + 1, sizeof *h->held, 16)) return 0;
    if (j == k) memmove(h->held + k + 1, h->held + k, (h->n_held - k) * sizeof *h->held), h->n_held++;
    else memmove(h->held + k + 1, h->held + j, (h->n_held - j) * sizeof *h->held), h->n_held -= j - k - 1;
    h->held[k] = (span){lo, hi};
    return 1;
}

/* An unlinked temporary file in $TMPDIR (nothing left behind, whatever
 * ends the run). */
static int spool_file(void) {
    const char *t = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/gguf-hub-XXXXXX", t && *t ? t : "/tmp");
    int fd = mkstemp(path);
    if (fd >= 0) unlink(path);
    return fd;
}

static lgg_status spool_io(const hub_file *h, int put, uint64_t off, void *p, size_t n, lgg_error *err) {
    for (size_t done = 0; done < n;) {
        ssize_t k = put ? pwrite(h->spool, (const char *)p + done, n - done, (off_t)(off + done))
                        : pread(h->spool, (char *)p + done, n - done, (off_t)(off + done));
        if (k <= 0)
            return lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s/%s: %s the spool in $TMPDIR: %s", H.label, h->f->path,
                                 put ? "writing" : "reading", k < 0 ? strerror(errno) : "short");
        done += (size_t)k;
    }
    return LGG_OK;
}

/* A shard's range: the parts the spool holds read from it, the others
 * fetched (and spooled when several outputs will read them). */
static lgg_status read_shard(hub_file *h, uint64_t off, void *dst, size_t n, lgg_error *err) {
    lgg_status st = LGG_OK;
    for (uint64_t at = off, end = off + n, to; !st && at < end; at = to) {
        int have = held_at(h, at, &to);
        if (to > end) to = end;
        char *p = (char *)dst + (at - off);
        if (have) {
            st = spool_io(h, 0, at, p, (size_t)(to - at), err);
            continue;
        }
        touch(h->r);
        if ((st = lgg_remote_read(h->r, at, p, (size_t)(to - at), err)) != LGG_OK || !H.spooling) continue;
        if (h->spool < 0 && (h->spool = spool_file()) < 0)
            return lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s/%s: a spool in $TMPDIR: %s", H.label, h->f->path,
                                 strerror(errno));
        if (!(st = spool_io(h, 1, at, p, (size_t)(to - at), err)) && !hold(h, at, to))
            st = lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    }
    return st;
}

static lgg_status read_unlocked(const char *name, uint64_t off, void *dst, size_t n, lgg_error *err) {
    hub_file *h = NULL;
    for (size_t i = 0; i < H.n && !h; i++)
        if (!strcmp(H.f[i].f->path, name)) h = &H.f[i];
    if (!h || off > h->f->size || n > h->f->size - off)
        return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%s/%s: read outside the file", H.label, name);
    if (!n) return LGG_OK;
    lgg_status st = h->r || h->whole ? LGG_OK : open_file(h, err);
    if (st) return st;
    /* a small file: kept whole, read once, its connection closed (the
     * largest the converter parses whole is tokenizer.json, 128 MiB; a
     * larger one, say a README.md of which the converter reads a prefix,
     * is read by range) */
    if (!h->whole && !ends_with(name, ".safetensors") && h->f->size <= LGG_CONVERT_MAX_TOKENIZER_JSON) {
        if (!(h->whole = malloc(h->f->size ? (size_t)h->f->size : 1)))
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
    return read_shard(h, off, dst, n, err);
}

/* Several outputs are written by a thread each (convert_several), and
 * whichever needs a block first reads it: one read at a time, since the
 * files, their connections and the spool are shared. */
static pthread_mutex_t read_lock = PTHREAD_MUTEX_INITIALIZER;

static lgg_status read_fn(void *ud, const char *name, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)ud;
    pthread_mutex_lock(&read_lock);
    lgg_status st = read_unlocked(name, off, dst, n, err);
    pthread_mutex_unlock(&read_lock);
    return st;
}

void cli_hubconv_close(void) {
    for (size_t i = 0; i < H.n; i++) {
        lgg_remote_free(H.f[i].r), free(H.f[i].whole), free(H.f[i].held);
        if (H.f[i].spool >= 0) close(H.f[i].spool);
    }
    free(H.f);
    lgg_hub_free(H.repo);
    memset(&H, 0, sizeof H);
}

int cli_hubconv_open(const char *name, int outputs, const lgg_convert_io **io, const char **dir) {
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
        if (!strchr(lgg_hub_file_at(H.repo, i)->path, '/')) H.f[H.n].spool = -1, H.f[H.n++].f = lgg_hub_file_at(H.repo, i);
    H.spooling = outputs > 1;
    H.io = (lgg_convert_io){.size = sizeof H.io, .file_at = file_at, .read = read_fn};
    *dir = H.label;
    *io = &H.io;
    return CLI_OK;
}

/* ---- --model-card ------------------------------------------------------ */

/* s as a YAML double-quoted scalar (the values come from a card and a
 * file: anything may be in them). */
static void yaml_str(FILE *f, const char *s, size_t n) {
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20 || c == 0x7f) fprintf(f, "\\x%02x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

/* The string pair `key` of f, or NULL (its length in *n). */
static const char *kv_str(const lgg_file *f, const char *key, size_t *n) {
    int64_t i = lgg_find_key_cstr(f, key);
    const lgg_kv *kv = i >= 0 ? lgg_kv_at(f, (uint64_t)i) : NULL;
    if (!kv || kv->value.type != LGG_VT_STRING) return NULL;
    *n = (size_t)kv->value.count;
    return (const char *)kv->value.data;
}

/* The array of strings `key` of f as YAML list items (skip: one to leave
 * out; out NULL: none written); how many there are. */
static int yaml_list(FILE *out, const lgg_file *f, const char *key, const char *skip) {
    int64_t i = lgg_find_key_cstr(f, key);
    const lgg_kv *kv = i >= 0 ? lgg_kv_at(f, (uint64_t)i) : NULL;
    if (!kv || kv->value.type != LGG_VT_ARRAY || kv->value.elem_type != LGG_VT_STRING) return 0;
    lgg_iter it;
    lgg_value v;
    int k = 0;
    lgg_array_iter(&kv->value, &it);
    while (lgg_iter_next(&it, &v)) {
        if (skip && v.count == strlen(skip) && !memcmp(v.data, skip, v.count)) continue;
        if (out) fputs("- ", out), yaml_str(out, (const char *)v.data, (size_t)v.count), fputc('\n', out);
        k++;
    }
    return k;
}

/* The quantization a written file holds: general.file_type's name without
 * llama.cpp's MOSTLY_/ALL_ ("Q4_K_M", "F16"). */
static const char *quant_of(const lgg_file *f) {
    int64_t i = lgg_find_key_cstr(f, "general.file_type");
    uint32_t ft = 0;
    const char *name = i >= 0 && !lgg_value_u32(&lgg_kv_at(f, (uint64_t)i)->value, &ft) ? lgg_file_type_name(ft) : NULL;
    if (!name) return "?";
    return !strncmp(name, "MOSTLY_", 7) ? name + 7 : !strncmp(name, "ALL_", 4) ? name + 4 : name;
}

/* The card's text for the n written files into out (files[0] open as f0). */
static void card_text(FILE *out, const lgg_file *f0, char (*files)[4096], size_t n) {
    const char *repo = H.repo ? H.name : NULL, *slash = repo ? strchr(repo, '/') : NULL;
    size_t ln = 0;
    const char *lic = kv_str(f0, "general.license", &ln);
    fputs("---\n", out);
    if (repo) fputs("base_model: ", out), yaml_str(out, repo, strlen(repo)), fputc('\n', out);
    if (lic) fputs("license: ", out), yaml_str(out, lic, ln), fputc('\n', out);
    if (yaml_list(NULL, f0, "general.languages", NULL)) fputs("language:\n", out), yaml_list(out, f0, "general.languages", NULL);
    fputs("tags:\n- gguf\n- llama-cpp\n", out);
    yaml_list(out, f0, "general.tags", "gguf");
    fputs("---\n\n", out);
    size_t nl = 0;
    const char *name = kv_str(f0, "general.name", &nl);
    if (repo) fprintf(out, "# %s-GGUF\n\nGGUF files of [%s](https://huggingface.co/%s)", slash + 1, repo, repo);
    else fprintf(out, "# %.*s GGUF\n\nGGUF files of %.*s", (int)nl, name ? name : "", (int)nl, name ? name : "the model");
    fputs(", converted with `gguf convert`: the bytes llama.cpp's\n`convert_hf_to_gguf.py` (b4747) and "
          "`llama-quantize` write.\n\n| File | Quantization | Size |\n| --- | --- | --- |\n", out);
    for (size_t k = 0; k < n; k++) {
        lgg_file *f = NULL;
        lgg_error e;
        const char *base = strrchr(files[k], '/') ? strrchr(files[k], '/') + 1 : files[k];
        char size[32] = "?";
        if (lgg_open_file(files[k], NULL, &f, &e) == LGG_OK) cli_fmt_bytes(size, sizeof size, lgg_file_size(f));
        fprintf(out, "| [%s](%s) | %s | %s |\n", base, base, f ? quant_of(f) : "?", size);
        lgg_close(f);
    }
    const char *first = strrchr(files[0], '/') ? strrchr(files[0], '/') + 1 : files[0];
    fprintf(out, "\n## Use with llama.cpp\n\n```sh\nllama-cli -m %s -p \"The meaning of life is\"\n"
                 "llama-server -m %s -c 2048\n```\n\n"
                 "Once these files are a repository on the hub (`huggingface-cli upload YOU/%s-GGUF .`),\n"
                 "llama.cpp fetches one by its quantization:\n\n```sh\nllama-cli -hf YOU/%s-GGUF:%s -p \"The "
                 "meaning of life is\"\n```\n",
            first, first, repo ? slash + 1 : "MODEL", repo ? slash + 1 : "MODEL", quant_of(f0));
}

int cli_model_card(const char *path, char (*files)[4096], size_t n) {
    char dflt[4200], tmp[4300];
    if (!path) { /* README.md beside the first output */
        const char *slash = strrchr(files[0], '/');
        snprintf(dflt, sizeof dflt, "%.*sREADME.md", slash ? (int)(slash - files[0] + 1) : 0, files[0]);
        path = dflt;
    }
    if (cli_output_check("convert", path) != CLI_OK) return CLI_FAIL; /* never over the model's own card */
    lgg_file *f0 = NULL;
    lgg_error e;
    if (lgg_open_file(files[0], NULL, &f0, &e) != LGG_OK) {
        cli_err("convert", files[0], "%s", e.message);
        return CLI_FAIL;
    }
    const char *slash = strrchr(path, '/');
    snprintf(tmp, sizeof tmp, "%.*s.README.md.XXXXXX", slash ? (int)(slash - path + 1) : 0, path);
    int fd = mkstemp(tmp);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (out) cli_temp_note(NULL, tmp, 1); /* a signal removes it */
    if (out) card_text(out, f0, files, n);
    int ok = out && fflush(out) == 0 && fchmod(fd, 0644) == 0 && fsync(fd) == 0;
    if (out ? fclose(out) != 0 : (fd >= 0 && close(fd) != 0)) ok = 0;
    if (ok && rename(tmp, path) != 0) ok = 0;
    if (!ok) {
        cli_err("convert", path, "cannot write the model card: %s", strerror(errno));
        if (fd >= 0) unlink(tmp);
    }
    if (fd >= 0) cli_temp_note(NULL, tmp, 0);
    lgg_close(f0);
    return ok ? CLI_OK : CLI_FAIL;
}
