/* cmd_merge.c -- `gguf merge FIRST_SHARD OUT`: put a shard set back into one
 * file, identical to the file before the split (llama.cpp leaves the split
 * keys in; we remove them).  Memory stays bounded: the shards are mapped,
 * not read, and the data is copied with copy_file_range. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cli_opt OPTS[] = {
    {'m', "--merge", NULL, NULL}, /* llama-gguf-split's mode flag, for scripts */
    {0},
};
static const cli_spec SPEC = {
    "merge",
    "gguf merge FIRST_SHARD OUT",
    "Merge the shard set whose first shard is FIRST_SHARD (PREFIX-00001-of-0000N.gguf)\n"
    "into OUT.  The other shards are found by name; the set is checked first: the\n"
    "count, each shard's split.no, split.count and split.tensors.count, metadata\n"
    "only in the first shard, each tensor in exactly one shard.  OUT gets the\n"
    "first shard's metadata without the split.* keys and every tensor in order.\n"
    "--merge is accepted (and ignored), as llama-gguf-split spells the command.\n\n"
    "OUT is written to a temporary file in its directory and renamed into place.\n"
    "Writing onto a shard (even through another name or a link) is refused.\n",
    OPTS,
    "Exit status: 0 success, 1 failure, 2 usage error.\n",
    2, 2, "FIRST_SHARD and OUT are required",
    0,
};

int cmd_merge(int argc, char **argv) {
    int flags[256] = {0}, np = 0;
    int prc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &np);
    if (prc) return prc == CLI_HELP ? CLI_OK : prc;
    const char *first = argv[1], *out = argv[2];
    int rc = CLI_FAIL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_file **files = NULL;
    int *fds = NULL;
    char *name = NULL, *prefix = NULL;
    uint32_t n = 0, opened = 0;
    lgg_writer *w = NULL;

    int fd0 = open(first, O_RDONLY | O_CLOEXEC);
    lgg_file *f0 = NULL;
    if (fd0 < 0) {
        cli_err("merge", first, "%s", strerror(errno));
        return CLI_FAIL;
    }
    if (lgg_open_fd(fd0, NULL, &f0, &e) != LGG_OK) {
        cli_err_lgg("merge", first, &e);
        close(fd0);
        return CLI_FAIL;
    }
    lgg_value v;
    uint64_t count;
    if (lgg_get(f0, "split.count", &v) != LGG_OK || lgg_value_uint(&v, &count) != LGG_OK || count == 0 ||
        count > 65535) {
        cli_err("merge", first, "not a shard (no valid split.count)");
        goto out;
    }
    uint32_t idx, cnt;
    size_t plen;
    if (!lgg_split_name_parse(first, strlen(first), &idx, &cnt, &plen)) {
        cli_err("merge", first, "a first shard's name ends in -00001-of-%05llu.gguf", (unsigned long long)count);
        goto out;
    }
    if (idx != 0 || cnt != count) {
        cli_err("merge", first, "a first shard's name ends in -00001-of-%05llu.gguf (its split.count is %llu)",
                (unsigned long long)count, (unsigned long long)count);
        goto out;
    }
    n = (uint32_t)count;
    files = calloc(n, sizeof *files);
    fds = calloc(n, sizeof *fds);
    prefix = malloc(plen + 1);
    name = malloc(plen + 32);
    if (!files || !fds || !prefix || !name) {
        cli_err("merge", NULL, "out of memory");
        goto out;
    }
    memcpy(prefix, first, plen);
    prefix[plen] = 0;
    files[0] = f0;
    fds[0] = fd0;
    f0 = NULL;
    opened = 1;
    for (; opened < n; opened++) {
        lgg_split_path(name, plen + 32, prefix, opened, n);
        fds[opened] = open(name, O_RDONLY | O_CLOEXEC);
        if (fds[opened] < 0) {
            cli_err("merge", name, "%s (shard %u of %u)", strerror(errno), opened + 1, n);
            goto out;
        }
        if (lgg_open_fd(fds[opened], NULL, &files[opened], &e) != LGG_OK) {
            cli_err_lgg("merge", name, &e);
            close(fds[opened]);
            goto out;
        }
    }
    if (lgg_merge_writer((const lgg_file *const *)files, fds, n, NULL, &w, &e) != LGG_OK) {
        cli_err("merge", first, "%s", e.message); /* about the set: an offset would name no one file */
        goto out;
    }
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.endian = lgg_file_endian(files[0]);
    if (cli_write_file(w, out, &wo, &e) != LGG_OK) {
        cli_err_lgg("merge", out, &e);
        goto out;
    }
    rc = CLI_OK;
out:
    lgg_writer_free(w);
    for (uint32_t i = 0; i < opened; i++) {
        lgg_close(files[i]);
        close(fds[i]);
    }
    if (f0) {
        lgg_close(f0);
        close(fd0);
    }
    free(files);
    free(fds);
    free(prefix);
    free(name);
    return rc;
}
