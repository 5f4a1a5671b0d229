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

static const char USAGE[] = "gguf merge FIRST_SHARD OUT";

static void help(void) {
    printf("usage: %s\n\n"
           "Merge the shard set whose first shard is FIRST_SHARD (PREFIX-00001-of-0000N.gguf)\n"
           "into OUT.  The other shards are found by name; the set is checked first: the\n"
           "count, each shard's split.no, split.count and split.tensors.count, metadata\n"
           "only in the first shard, each tensor in exactly one shard.  OUT gets the\n"
           "first shard's metadata without the split.* keys and every tensor in order.\n\n"
           "OUT is written to a temporary file in its directory and renamed into place.\n"
           "Writing onto a shard (even through another name or a link) is refused.\n"
           "Exit status: 0 success, 1 failure, 2 usage error.\n",
           USAGE);
}

int cmd_merge(int argc, char **argv) {
    const char *first = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return CLI_OK;
        }
        if (a[0] == '-' && a[1]) return cli_usage_error("merge", USAGE, "unknown option '%s'", a);
        if (!first) first = a;
        else if (!out) out = a;
        else return cli_usage_error("merge", USAGE, "unexpected argument '%s'", a);
    }
    if (!first || !out) return cli_usage_error("merge", USAGE, "FIRST_SHARD and OUT are required");

    int rc = CLI_FAIL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_writer *w = NULL;
    cli_shards set;
    if (cli_shards_open("merge", first, &set) != CLI_OK) return CLI_FAIL;
    lgg_file **files = set.files;
    int *fds = set.fds;
    uint32_t n = set.n;
    if (lgg_merge_writer((const lgg_file *const *)files, fds, n, NULL, &w, &e) != LGG_OK) {
        fprintf(stderr, "gguf merge: %s: %s [%s]\n", first, e.message, lgg_status_name(e.code));
        goto out;
    }
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.endian = lgg_file_endian(files[0]);
    if (lgg_writer_write_file(w, out, &wo, &e) != LGG_OK) {
        fprintf(stderr, "gguf merge: %s: %s [%s]\n", out, e.message, lgg_status_name(e.code));
        goto out;
    }
    rc = CLI_OK;
out:
    lgg_writer_free(w);
    cli_shards_close(&set);
    return rc;
}
