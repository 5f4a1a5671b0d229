/* cmd_download.c -- `gguf download URL|hf://... [-o OUT]`: a remote model,
 * or every shard of a set given its first shard, to disk, safely.
 *
 * The bytes go to OUT.part, beside OUT; a dropped connection is retried
 * from the bytes received, and an interrupted run resumes from OUT.part
 * next time (its ETag, kept in OUT.part.etag, must still be the server's,
 * else it starts over).  Once complete, OUT.part must open as a GGUF file
 * and, when the server gives one (the hub's X-Linked-Etag: the LFS sha256),
 * match the sha256; only then is it flushed and renamed over OUT.  A
 * failure leaves OUT as it was; OUT.part stays only when it can be
 * resumed. */
#include "cli.h"

#include "libgguf_remote.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct dopts {
    const char *out;
    int quiet;
    const char *inc[64], *exc[64]; /* a repository's --include / --exclude */
    size_t ni, ne;
} dopts;

static const cli_opt OPTS[] = {
    {'o', "-o|--output", "OUT", "where to put it (default: the URL's file name, in the current\n"
                                "directory); for a shard set, the first shard's name"},
    {'q', "-q|--quiet", NULL, "no progress"},
    {'I', "--include", "GLOB", "a repository: only the files whose path matches (may repeat)"},
    {'X', "--exclude", "GLOB", "a repository: not the files whose path matches (may repeat)"},
    {0},
};
static const cli_spec SPEC = {
    "download",
    "gguf download [-o OUT] [--token TOKEN] [--timeout SECONDS] URL|hf://OWNER/REPO/PATH[@REV]|hf://OWNER/REPO:QUANT\n"
    "       gguf download [-o DIR] [--include GLOB]... [--exclude GLOB]... hf://OWNER/REPO[@REV]",
    "Download a GGUF file, or every shard of a set given its first shard\n"
    "(NAME-00001-of-0000N.gguf), to OUT.  The bytes go to OUT.part first; a\n"
    "dropped connection is resumed, and so is an interrupted run (run the same\n"
    "command again).  The file must open as GGUF and match the sha256 the server\n"
    "gives (the Hugging Face hub does) before it is renamed to OUT.\n"
    "--token (or $HF_TOKEN) is sent to the URL's own host only; hf:// names use\n"
    "$HF_ENDPOINT (default https://huggingface.co).\n"
    "hf://OWNER/REPO without a path or :QUANT downloads the whole repository into\n"
    "DIR (default ./REPO), keeping its folders: each file checked against the\n"
    "sha256 the hub lists for it, an interrupted file resumed, a complete one (same\n"
    "size and sha256) not fetched again; --include/--exclude take shell globs on\n"
    "the path, as huggingface-cli's do.\n",
    OPTS,
    "Exit status: 0 success, 1 failure (OUT is left as it was), 2 usage error.\n",
    1, 1, "a URL or hf:// name is required",
    0,
};

static int on_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    dopts *o = ud;
    if (id == 'o') o->out = val;
    if (id == 'q') o->quiet = 1;
    if ((id == 'I' && o->ni == 64) || (id == 'X' && o->ne == 64)) return snprintf(why, cap, "at most 64 globs each"), 1;
    if (id == 'I') o->inc[o->ni++] = val;
    if (id == 'X') o->exc[o->ne++] = val;
    return 0;
}

static void progress(void *ud, uint64_t done, uint64_t total) {
    (void)total;
    cli_progress_set(ud, done);
}

/* The last path segment of a URL, without its query. */
static char *url_basename(const char *url) {
    size_t n = strcspn(url, "?#");
    const char *s = url + n;
    while (s > url && s[-1] != '/') s--;
    return strndup(s, (size_t)(url + n - s));
}

static int finish(const char *part, const char *out, const char *want_sha, const char *got_sha) {
    if (want_sha[0] && strcmp(want_sha, got_sha)) {
        cli_err("download", out, "sha256 mismatch: the server says %s, the bytes give %s", want_sha, got_sha);
        unlink(part);
        return CLI_FAIL;
    }
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_open_file(part, NULL, &f, &e) != LGG_OK) {
        cli_err("download", out, "the downloaded file is not valid GGUF: %s", e.message);
        unlink(part);
        return CLI_FAIL;
    }
    lgg_close(f);
    if (rename(part, out) != 0) {
        cli_err("download", out, "cannot rename %s: %s", part, strerror(errno));
        return CLI_FAIL;
    }
    char *dcopy = strdup(out);
    int dfd = dcopy ? open(dirname(dcopy), O_RDONLY | O_DIRECTORY) : -1;
    if (dfd >= 0) { /* the rename itself survives a crash */
        fsync(dfd);
        close(dfd);
    }
    free(dcopy);
    return CLI_OK;
}

static int download_one(const char *name, const char *out, const dopts *o) {
    lgg_remote_options ro;
    lgg_remote_options_init(&ro);
    ro.token = getenv("HF_TOKEN");
    cli_remote_fill(&ro);
    lgg_remote *r = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_remote_open(name, &ro, &r, &e) != LGG_OK) {
        cli_err("download", NULL, "%s", e.message);
        return CLI_FAIL;
    }
    char *part = malloc(strlen(out) + 6);
    if (!part) {
        lgg_remote_free(r);
        return CLI_FAIL;
    }
    sprintf(part, "%s.part", out);
    cli_progress pr;
    cli_progress_init(&pr, "download", o->quiet ? 0 : lgg_remote_size(r));
    pr.bytes = 1;
    char sha[65] = "";
    lgg_status s = lgg_remote_download(r, part, progress, &pr, sha, &e);
    cli_progress_end(&pr);
    int rc;
    if (s) {
        cli_err("download", NULL, "%s", e.message);
        if (access(part, F_OK) == 0)
            cli_err("download", out, "the partial download is kept in %s: run the same command to resume", part);
        rc = CLI_FAIL;
    } else {
        rc = finish(part, out, lgg_remote_sha256(r), sha);
    }
    free(part);
    lgg_remote_free(r);
    return rc;
}

int cmd_download(int argc, char **argv) {
    dopts o = {0};
    int np = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &o, &np);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *name = argv[1];
    if (lgg_hub_is_repo_name(name)) /* no :QUANT: the whole repository */
        return cli_download_repo(name, o.out, o.inc, o.ni, o.exc, o.ne, o.quiet);
    if (o.ni || o.ne) return cli_usage_error("download", SPEC.usage, "--include and --exclude take hf://OWNER/REPO");
    char resolved[8192];
    size_t n = lgg_remote_resolve(name, NULL, resolved, sizeof resolved);
    if (!n || n >= sizeof resolved)
        return cli_usage_error("download", SPEC.usage, "'%s' is not a URL or an hf://OWNER/REPO/PATH name", name);
    char *out = o.out ? strdup(o.out) : url_basename(resolved);
    if (!out || !*out) {
        free(out);
        return cli_usage_error("download", SPEC.usage, "cannot name the output after '%s': give -o OUT", name);
    }
    uint32_t idx, count;
    size_t prefix;
    const size_t un = strcspn(resolved, "?#");
    if (!lgg_split_name_parse(resolved, un, &idx, &count, &prefix) || idx != 0 || count < 2) {
        rc = download_one(resolved, out, &o);
        free(out);
        return rc;
    }
    /* a shard set: each shard's URL and output from the first one's */
    uint32_t oi, oc;
    size_t op;
    if (!lgg_split_name_parse(out, strlen(out), &oi, &oc, &op) || oi != 0 || oc != count) {
        free(out);
        return cli_usage_error("download", SPEC.usage, "a set of %u shards needs an OUT named like its first shard "
                               "(NAME-00001-of-%05u.gguf)", count, count);
    }
    rc = CLI_OK;
    for (uint32_t k = 0; k < count && rc == CLI_OK; k++) {
        char u[8300], p[4200];
        lgg_remote_shard_url(resolved, k, count, u, sizeof u);
        snprintf(p, sizeof p, "%.*s-%05u-of-%05u.gguf", (int)op, out, k + 1, count);
        rc = download_one(u, p, &o);
    }
    free(out);
    return rc;
}
