/* cmd_download.c -- `gguf download URL|hf://... [-o OUT]`: a remote model,
 * or every shard of a set given its first shard, to disk, safely.
 *
 * lgg_remote_download_file does the work (OUT.part, locked and never
 * followed through a symlink; resuming by ETag; the magic checked on the
 * first bytes; the hub's sha256 and size checked); here the complete file
 * must also open as GGUF before the rename, and the user is told whether
 * the sha256 was verified.  A failure leaves OUT as it was; OUT.part stays
 * only when it can be resumed. */
#include "tool.h"

#include "libgguf_remote.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct dopts {
    const char *out;
    int quiet;
    const char *inc[64], *exc[64]; /* a repository's --include / --exclude */
    size_t ni, ne;
} dopts;

#include "spec_download.h" /* from tools/spec/download.txt (scripts/cli-spec.awk) */

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

/* The last path segment of a URL, without its query; of an hf:// name,
 * the path's last segment as written (not percent-encoded), without the
 * revision. */
static char *url_basename(const char *url) {
    const char *at = strncmp(url, "hf://", 5) ? NULL : strrchr(url, '@');
    size_t n = at && strchr(url + 5, '/') < at ? (size_t)(at - url) : strcspn(url, "?#");
    const char *s = url + n;
    while (s > url && s[-1] != '/') s--;
    return strndup(s, (size_t)(url + n - s));
}

/* The complete file must open as GGUF before it replaces OUT. */
static bool gguf_ok(void *ud, const char *partial, char *why, size_t cap) {
    (void)ud;
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_open_file(partial, NULL, &f, &e) != LGG_OK) {
        snprintf(why, cap, "the downloaded file is not valid GGUF: %s", e.message);
        return false;
    }
    lgg_close(f);
    return true;
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
    cli_progress pr;
    cli_progress_init(&pr, "download", o->quiet ? 0 : lgg_remote_size(r));
    pr.bytes = 1;
    lgg_remote_download_options dop = {sizeof dop, progress, &pr, gguf_ok, NULL, false};
    lgg_remote_download_info info;
    lgg_status s = lgg_remote_download_file(r, out, &dop, &info, &e);
    cli_progress_end(&pr);
    int rc = CLI_OK;
    if (s) {
        cli_err("download", NULL, "%s", e.message);
        if (info.resumable)
            cli_err("download", out, "the partial download is kept in %s.part: run the same command to resume", out);
        rc = CLI_FAIL;
    } else if (info.sha256_checked) {
        cli_err("download", out, "sha256 %s verified (the server named it)", info.sha256);
    } else {
        cli_err("download", out, "sha256 %s not verified: the server named none", info.sha256);
    }
    lgg_remote_free(r);
    return rc;
}

/* OUT, or DIR/NAME when OUT is a directory (or ends in '/'): NAME is the
 * URL's last segment. */
static char *out_path(const char *opt, const char *name) {
    char *base = url_basename(name);
    if (!opt || !base) return base;
    struct stat st;
    size_t n = strlen(opt);
    if ((n && opt[n - 1] == '/') || (stat(opt, &st) == 0 && S_ISDIR(st.st_mode))) {
        char *p = NULL;
        if (*base && asprintf(&p, "%s%s%s", opt, n && opt[n - 1] == '/' ? "" : "/", base) < 0) p = NULL;
        if (!*base) p = strdup(""); /* no name to give it: the caller says so */
        free(base);
        return p;
    }
    free(base);
    return strdup(opt);
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
    char why[96] = "too long";
    if (!n || n >= sizeof resolved) {
        lgg_remote_name_check(name, why, sizeof why);
        return cli_usage_error("download", SPEC.usage, "'%s': %s", name, why);
    }
    char *out = out_path(o.out, name);
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
    if (cli_remote_shard_limit("download", resolved, count) != CLI_OK) {
        free(out);
        return CLI_FAIL;
    }
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
