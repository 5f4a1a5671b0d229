/* cli_remote.c -- files that live on a server: every read-only command
 * opens `http(s)://...` and `hf://OWNER/REPO/PATH[@REV]` as it opens a file
 * on disk, through libgguf-remote (HTTP ranges) and lgg_open_source (the
 * header only; a tensor's bytes when a command reads them).
 *
 * --token and --timeout are understood by every command (cli_parse hands
 * them here); the token defaults to $HF_TOKEN.  The remote handles live
 * until the program ends: an lgg_file opened from one reads through it.
 * A shard set from a server may name thousands of shards: at most
 * LIVE handles keep a connection (the least recently read is idled), and
 * a set of more than $GGUF_MAX_SHARDS (default 4096) is refused. */
#include "tool.h"

#include "libgguf_remote.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LIVE 2 /* connections kept open at once: diff reads two files, hash a set one shard at a time */

static struct {
    const char *token, *cmd;
    long timeout_ms;
    lgg_remote **open;
    const lgg_file **files; /* the file opened from each */
    size_t n, cap, files_cap;
    lgg_remote *live[LIVE]; /* most recently read first */
    int registered;
} R;

static void close_all(void) {
    for (size_t i = 0; i < R.n; i++) lgg_remote_free(R.open[i]);
    free(R.open);
    free(R.files);
    R.open = NULL;
    R.files = NULL;
    R.n = R.cap = R.files_cap = 0;
}

/* r is being read: first in the live list; the one pushed off the end
 * closes its connection. */
static void touch(lgg_remote *r) {
    if (R.live[0] == r) return;
    int k = 0;
    while (k < LIVE - 1 && R.live[k] != r) k++;
    if (R.live[k] != r) lgg_remote_idle(R.live[k]); /* not in the list: the last one leaves (NULL: none) */
    memmove(R.live + 1, R.live, (size_t)k * sizeof *R.live);
    R.live[0] = r;
}

static lgg_status live_read(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    touch(ud);
    return lgg_remote_read(ud, off, dst, n, err);
}

unsigned cli_remote_max_shards(void) {
    const char *v = getenv("GGUF_MAX_SHARDS");
    char *end;
    errno = 0;
    unsigned long x = v && *v >= '0' && *v <= '9' ? strtoul(v, &end, 10) : 0;
    return x >= 1 && x <= 65535 && !errno && !*end ? (unsigned)x : 4096;
}

const char *cli_remote_command_name(void) { return R.cmd ? R.cmd : "open"; }

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

void cli_remote_command(const char *cmd) {
    if (cmd) R.cmd = cmd;
}

static int is_url(const char *path) { return lgg_remote_is_url(path); }

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
    lgg_remote_idle(R.live[LIVE - 1]); /* the new one's connection takes its place */
    R.live[LIVE - 1] = NULL;
    lgg_status st = lgg_remote_open(path, &ro, &r, e);
    if (st != LGG_OK) return st;
    if (!cli_grow((void **)&R.open, &R.cap, R.n + 1, sizeof *R.open, 8) ||
        !cli_grow((void **)&R.files, &R.files_cap, R.n + 1, sizeof *R.files, 8)) {
        lgg_remote_free(r);
        snprintf(e->message, sizeof e->message, "out of memory");
        return e->code = LGG_ERR_NOMEM;
    }
    R.files[R.n] = NULL;
    R.open[R.n++] = r;
    if (!R.registered) R.registered = !atexit(close_all);
    touch(r);
    lgg_source src;
    lgg_remote_source(r, &src);
    src.read = live_read;
    *net = 0;
    st = lgg_open_source(&src, o, f, e);
    R.files[R.n - 1] = *f;
    /* a read of the header that failed is the network's doing too */
    if (st == LGG_ERR_IO || st == LGG_ERR_NOT_FOUND) *net = 1;
    return st;
}

typedef struct pass {
    int (*push)(void *ud, const void *p, size_t n);
    void *ud;
} pass;

static bool pass_on(void *ud, const void *p, size_t n) {
    const pass *k = ud;
    return k->push(k->ud, p, n) == 0;
}

int cli_remote_stream(const lgg_file *f, uint64_t from, uint64_t to, int (*push)(void *ud, const void *p, size_t n),
                      void *ud, char *why, size_t cap) {
    lgg_remote *r = NULL;
    for (size_t i = 0; i < R.n && !r; i++)
        if (R.files[i] == f) r = R.open[i];
    if (!r) {
        snprintf(why, cap, "not a file on a server");
        return -1;
    }
    touch(r);
    lgg_error e;
    memset(&e, 0, sizeof e);
    pass k = {push, ud};
    if (lgg_remote_stream(r, from, to - from, pass_on, &k, &e) == LGG_OK) return 0;
    snprintf(why, cap, "%s", e.message);
    return -1;
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

lgg_file *cli_open_remote(const char *cmd, const char *path, const lgg_open_options *o) {
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    int net = 0;
    cli_remote_command(cmd);
    if (cli_remote_open_file(path, o, &f, &e, &net) != LGG_OK) {
        if (net) cli_err(cmd, NULL, "%s", e.message); /* the message names the URL */
        else cli_err_lgg(cmd, path, &e);
        return NULL;
    }
    return f;
}

void cli_remote_install(void) {
    static const cli_remote_hooks hooks = {is_url, cli_open_remote, cli_remote_option, cli_remote_pick};
    cli_remote_hooks_set(&hooks);
}
