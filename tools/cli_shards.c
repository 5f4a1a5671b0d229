/* cli_shards.c -- open a gguf-split shard set from its first shard's name
 * (merge and hash).  Only the headers are mapped; the data stays on disk
 * (or, for a set on a server, at the server: each shard's header is read). */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_shards_close(cli_shards *s) {
    for (uint32_t i = 0; i < s->n; i++) {
        if (i != s->borrowed) lgg_close(s->files[i]);
        if (s->fds && s->fds[i] >= 0) close(s->fds[i]);
    }
    free(s->files);
    free(s->fds);
    memset(s, 0, sizeof *s);
}

/* open + lgg_open_fd with the diagnostic (none when cmd is NULL); the fd is
 * closed on failure.  CLI_OPEN_META reads headers of truncated and
 * metadata-only files too.  k > 0 names a later shard (k of n). */
static int open_one(const char *cmd, const char *path, int how, int *fd, lgg_file **f, uint32_t k, uint32_t n) {
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (cli_is_remote(path)) { /* a shard on a server: its header, through HTTP ranges */
        lgg_open_options o;
        lgg_open_options_init(&o);
        if (how & CLI_OPEN_META) o.flags |= LGG_OPEN_ALLOW_MISSING_DATA;
        *fd = -1;
        *f = cmd ? cli_open_remote(cmd, path, &o) : NULL;
        int net;
        if (!cmd && cli_remote_open_file(path, &o, f, &e, &net) != LGG_OK) *f = NULL;
        return *f ? CLI_OK : CLI_FAIL;
    }
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0 && cmd && k) cli_err(cmd, path, "%s (shard %u of %u)", strerror(errno), k + 1, n);
    else if (*fd < 0 && cmd) cli_err(cmd, path, "%s", strerror(errno));
    if (*fd < 0) return CLI_FAIL;
    cli_input_add(path, *fd, 1);
    lgg_open_options o;
    lgg_open_options_init(&o);
    if (how & CLI_OPEN_META) o.flags |= LGG_OPEN_ALLOW_MISSING_DATA;
    bool header;
    if (cli_open_local(*fd, &o, how, f, &e, &header) != LGG_OK) {
        if (cmd) cli_err_lgg(cmd, path, &e);
        close(*fd);
        *fd = -1;
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_remote_shard_limit(const char *cmd, const char *first, uint64_t count) {
    if (!cli_is_remote(first) || count <= cli_remote_max_shards()) return CLI_OK;
    cli_err(cmd ? cmd : cli_remote_command_name(), first,
            "a set of %llu shards on a server: refused, more than %u (set GGUF_MAX_SHARDS, up to 65535, to allow more)",
            (unsigned long long)count, cli_remote_max_shards());
    return CLI_FAIL;
}

int cli_shards_by_name(const char *cmd, const char *prefix, uint32_t n, int how, lgg_file *have, uint32_t at,
                       cli_shards *s) {
    memset(s, 0, sizeof *s);
    s->borrowed = have ? at : UINT32_MAX;
    size_t cap = strlen(prefix) + 32;
    char *name = malloc(cap);
    s->files = calloc(n ? n : 1, sizeof *s->files);
    s->fds = malloc((n ? n : 1) * sizeof *s->fds);
    if (!name || !s->files || !s->fds) {
        if (cmd) cli_err(cmd, NULL, "out of memory");
        free(name);
        cli_shards_close(s);
        return CLI_FAIL;
    }
    lgg_split_path(name, cap, prefix, 0, n);
    if (cli_remote_shard_limit(cmd, name, n) != CLI_OK) { /* a hostile server's 65535 */
        free(name);
        cli_shards_close(s);
        return CLI_FAIL;
    }
    for (; s->n < n; s->n++) {
        s->fds[s->n] = -1;
        if (have && s->n == at) {
            s->files[s->n] = have;
            continue;
        }
        lgg_split_path(name, cap, prefix, s->n, n);
        if (open_one(cmd, name, how, &s->fds[s->n], &s->files[s->n], s->n, n) != CLI_OK) {
            free(name);
            cli_shards_close(s);
            return CLI_FAIL;
        }
    }
    free(name);
    return CLI_OK;
}

int cli_shards_around(const char *path, const lgg_file *f, cli_shards *s) {
    memset(s, 0, sizeof *s);
    lgg_value v;
    uint64_t count = 0, no = 0;
    uint32_t idx, cnt;
    size_t plen;
    if (cli_is_stdin(path) || lgg_get(f, "split.count", &v) != LGG_OK || lgg_value_uint(&v, &count) != LGG_OK ||
        count < 2 || count > 65535 || lgg_get(f, "split.no", &v) != LGG_OK || lgg_value_uint(&v, &no) != LGG_OK ||
        !lgg_split_name_parse(path, strlen(path), &idx, &cnt, &plen) || cnt != count || idx != no)
        return CLI_FAIL;
    char *prefix = strndup(path, plen);
    if (!prefix) return CLI_FAIL;
    /* f stays the caller's: borrowed, not closed with the set */
    int rc = cli_shards_by_name(NULL, prefix, (uint32_t)count, CLI_OPEN_META, (lgg_file *)f, idx, s);
    free(prefix);
    return rc;
}

/* The set's size from the first shard, checked against its name. */
static int set_count(const char *cmd, const char *first, const lgg_file *f0, uint32_t *n, size_t *plen) {
    lgg_value v;
    uint64_t count;
    if (lgg_get(f0, "split.count", &v) != LGG_OK || lgg_value_uint(&v, &count) != LGG_OK || count == 0 ||
        count > 65535) {
        cli_err(cmd, first, "not a shard (no valid split.count)");
        return CLI_FAIL;
    }
    uint32_t idx, cnt;
    if (!lgg_split_name_parse(first, strlen(first), &idx, &cnt, plen)) {
        cli_err(cmd, first, "a first shard's name ends in -00001-of-%05llu.gguf", (unsigned long long)count);
        return CLI_FAIL;
    }
    if (idx != 0 || cnt != count) {
        cli_err(cmd, first, "a first shard's name ends in -00001-of-%05llu.gguf (its split.count is %llu)",
                (unsigned long long)count, (unsigned long long)count);
        return CLI_FAIL;
    }
    *n = (uint32_t)count;
    return CLI_OK;
}

int cli_shards_open(const char *cmd, const char *first, cli_shards *s) {
    memset(s, 0, sizeof *s);
    int fd0;
    lgg_file *f0 = NULL;
    if (open_one(cmd, first, CLI_OPEN_DATA, &fd0, &f0, 0, 1) != CLI_OK) return CLI_FAIL;
    uint32_t n = 0;
    size_t plen = 0;
    char *prefix = NULL;
    if (set_count(cmd, first, f0, &n, &plen) != CLI_OK || !(prefix = strndup(first, plen)) ||
        cli_shards_by_name(cmd, prefix, n, CLI_OPEN_DATA, f0, 0, s) != CLI_OK) {
        if (!prefix && n) cli_err(cmd, NULL, "out of memory");
        free(prefix);
        lgg_close(f0);
        close(fd0);
        return CLI_FAIL;
    }
    free(prefix);
    s->fds[0] = fd0; /* the set owns the first shard from here on */
    s->borrowed = UINT32_MAX;
    return CLI_OK;
}

int cli_shards_single(const char *cmd, const char *path, cli_shards *s) {
    memset(s, 0, sizeof *s);
    s->files = calloc(1, sizeof *s->files);
    s->fds = malloc(sizeof *s->fds);
    if (!s->files || !s->fds) {
        cli_err(cmd, NULL, "out of memory");
        cli_shards_close(s);
        return CLI_FAIL;
    }
    s->borrowed = UINT32_MAX;
    s->fds[0] = -1;
    if (open_one(cmd, path, CLI_OPEN_DATA, &s->fds[0], &s->files[0], 0, 1) != CLI_OK) {
        cli_shards_close(s);
        return CLI_FAIL;
    }
    s->n = 1;
    return CLI_OK;
}

/* A model's headers: one file, or the set whose first shard PATH is (the
 * others found by name beside it; standard input holds one file).  The set
 * owns every file. */
int cli_shards_header(const char *cmd, const char *path, cli_shards *m) {
    memset(m, 0, sizeof *m);
    lgg_file *f0 = cli_open(cmd, path, CLI_OPEN_META | CLI_OPEN_HEADER); /* the header is all it needs */
    if (!f0) return CLI_FAIL;
    lgg_value v;
    uint64_t count = 1;
    if (lgg_get(f0, "split.count", &v) == LGG_OK && (lgg_value_uint(&v, &count) != LGG_OK || count == 0 ||
                                                      count > 65535)) {
        cli_err(cmd, path, "split.count is not a shard count from 1 to 65535");
        lgg_close(f0);
        return CLI_FAIL;
    }
    uint32_t idx, cnt;
    size_t plen = 0;
    if (count != 1 && (cli_is_stdin(path) || !lgg_split_name_parse(path, strlen(path), &idx, &cnt, &plen) ||
                       idx != 0 || cnt != count)) {
        cli_err(cmd, path, "one shard of a set of %llu: give the first shard's file, named "
                "PREFIX-00001-of-%05llu.gguf", (unsigned long long)count, (unsigned long long)count);
        lgg_close(f0);
        return CLI_FAIL;
    }
    char *prefix = strndup(path, plen);
    if (!prefix || cli_shards_by_name(cmd, prefix, (uint32_t)count, CLI_OPEN_META | CLI_OPEN_HEADER, f0, 0, m) != CLI_OK) {
        if (!prefix) cli_err(cmd, NULL, "out of memory");
        free(prefix);
        lgg_close(f0);
        return CLI_FAIL;
    }
    free(prefix);
    m->borrowed = UINT32_MAX; /* f0 belongs to the set now */
    return CLI_OK;
}
