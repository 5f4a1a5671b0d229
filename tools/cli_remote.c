/* cli_remote.c -- files that live on a server: every read-only command
 * opens `http(s)://...` and `hf://OWNER/REPO/PATH[@REV]` as it opens a file
 * on disk, through libgguf-remote (HTTP ranges) and lgg_open_source (the
 * header only; a tensor's bytes when a command reads them).
 *
 * --token and --timeout are understood by every command (cli_parse hands
 * them here); the token defaults to $HF_TOKEN.  The remote handles live
 * until the program ends: an lgg_file opened from one reads through it. */
#include "cli.h"

#include "libgguf_remote.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct {
    const char *token;
    long timeout_ms;
    lgg_remote **open;
    size_t n, cap;
    int registered;
} R;

static void close_all(void) {
    for (size_t i = 0; i < R.n; i++) lgg_remote_free(R.open[i]);
    free(R.open);
    R.open = NULL;
    R.n = R.cap = 0;
}

int cli_remote_option(const char *name, size_t len, const char *val, char *why, size_t cap) {
    if (len == 7 && !memcmp(name, "--token", 7)) {
        R.token = val;
        return 1;
    }
    if (len == 9 && !memcmp(name, "--timeout", 9)) {
        char *end;
        errno = 0;
        unsigned long s = strtoul(val, &end, 10);
        if (errno || end == val || *end || val[0] == '-' || s == 0 || s > 86400) {
            snprintf(why, cap, "--timeout must be a number of seconds from 1 to 86400, not '%s'", val);
            return -1;
        }
        R.timeout_ms = (long)s * 1000;
        return 1;
    }
    return 0;
}

int cli_is_remote(const char *path) { return lgg_remote_is_url(path); }

void cli_remote_fill(lgg_remote_options *ro) {
    if (R.token) ro->token = R.token;
    ro->timeout_ms = R.timeout_ms;
    const char *b = getenv("GGUF_RETRY_MS"); /* tests shorten the waits between retries */
    if (b && *b) ro->backoff_ms = atol(b);
}

void cli_remote_defaults(lgg_remote_options *ro) {
    lgg_remote_options_init(ro);
    ro->token = getenv("HF_TOKEN");
    cli_remote_fill(ro);
}

lgg_status cli_remote_open_file(const char *path, const lgg_open_options *o, lgg_file **f, lgg_error *e, int *net) {
    lgg_remote_options ro;
    cli_remote_defaults(&ro);
    lgg_remote *r = NULL;
    *f = NULL;
    *net = 1;
    lgg_status st = lgg_remote_open(path, &ro, &r, e);
    if (st != LGG_OK) return st;
    if (!cli_grow((void **)&R.open, &R.cap, R.n + 1, sizeof *R.open, 8)) {
        lgg_remote_free(r);
        snprintf(e->message, sizeof e->message, "out of memory");
        return e->code = LGG_ERR_NOMEM;
    }
    R.open[R.n++] = r;
    if (!R.registered) R.registered = !atexit(close_all);
    lgg_source src;
    lgg_remote_source(r, &src);
    *net = 0;
    st = lgg_open_source(&src, o, f, e);
    /* a read of the header that failed is the network's doing too */
    if (st == LGG_ERR_IO || st == LGG_ERR_NOT_FOUND) *net = 1;
    return st;
}

int cli_remote_pick(char **arg, char *why, size_t cap) {
    if (!lgg_hub_is_repo_name(*arg)) return 0;
    lgg_remote_options ro;
    cli_remote_defaults(&ro);
    char name[8192];
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_hub_pick(*arg, &ro, name, sizeof name, &e) != LGG_OK) {
        snprintf(why, cap, "%s", e.message); /* it names the repository */
        return -1;
    }
    char *copy = strdup(name); /* argv's strings live until the program ends */
    if (!copy) return snprintf(why, cap, "out of memory"), -1;
    *arg = copy;
    return 0;
}

const char *cli_data_fetch(lgg_file *f, const lgg_tensor *t) {
    static char why[600];
    if (t->data_available || !lgg_file_header_only(f) || !t->type_known) return NULL;
    const lgg_tensor *first = lgg_tensor_at(f, 0);
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_file_load_tensor(f, (uint64_t)(t - first), &e) == LGG_OK) return NULL;
    snprintf(why, sizeof why, "cannot be read: %s", e.message);
    return why;
}
