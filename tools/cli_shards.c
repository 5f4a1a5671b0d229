/* cli_shards.c -- open a gguf-split shard set from its first shard's name
 * (merge and hash).  Only the headers are mapped; the data stays on disk. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_shards_close(cli_shards *s) {
    for (uint32_t i = 0; i < s->n; i++) {
        lgg_close(s->files[i]);
        if (s->fds[i] >= 0) close(s->fds[i]);
    }
    free(s->files);
    free(s->fds);
    memset(s, 0, sizeof *s);
}

/* open + lgg_open_fd with the diagnostic; the fd is closed on failure.
 * k > 0 names a later shard (k of n) when the file cannot be opened. */
static int open_one(const char *cmd, const char *path, int *fd, lgg_file **f, uint32_t k, uint32_t n) {
    lgg_error e;
    memset(&e, 0, sizeof e);
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0 && k) cli_err(cmd, path, "%s (shard %u of %u)", strerror(errno), k + 1, n);
    else if (*fd < 0) cli_err(cmd, path, "%s", strerror(errno));
    if (*fd < 0) return CLI_FAIL;
    if (lgg_open_fd(*fd, NULL, f, &e) != LGG_OK) {
        cli_err_lgg(cmd, path, &e);
        close(*fd);
        *fd = -1;
        return CLI_FAIL;
    }
    return CLI_OK;
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
    if (open_one(cmd, first, &fd0, &f0, 0, 1) != CLI_OK) return CLI_FAIL;
    uint32_t n = 0;
    size_t plen = 0;
    char *name = NULL, *prefix = NULL;
    if (set_count(cmd, first, f0, &n, &plen) != CLI_OK) goto fail0;
    s->files = calloc(n, sizeof *s->files);
    s->fds = malloc(n * sizeof *s->fds);
    name = malloc(plen + 32);
    prefix = malloc(plen + 1);
    if (!s->files || !s->fds || !name || !prefix) {
        cli_err(cmd, NULL, "out of memory");
        goto fail0;
    }
    memcpy(prefix, first, plen);
    prefix[plen] = 0;
    s->files[0] = f0, s->fds[0] = fd0, s->n = 1;
    for (; s->n < n; s->n++) {
        lgg_split_path(name, plen + 32, prefix, s->n, n);
        if (open_one(cmd, name, &s->fds[s->n], &s->files[s->n], s->n, n) != CLI_OK) goto fail;
    }
    free(name);
    free(prefix);
    return CLI_OK;
fail0:
    if (!s->n) {
        lgg_close(f0);
        close(fd0);
    }
fail:
    free(name);
    free(prefix);
    cli_shards_close(s);
    return CLI_FAIL;
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
    if (open_one(cmd, path, &s->fds[0], &s->files[0], 0, 1) != CLI_OK) {
        cli_shards_close(s);
        return CLI_FAIL;
    }
    s->n = 1;
    return CLI_OK;
}
