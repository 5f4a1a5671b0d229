/* cmd_merge.c -- `gguf merge FIRST_SHARD OUT`: put a shard set back into one
 * file, identical to the file before the split (llama.cpp leaves the split
 * keys in; we remove them).  Memory stays bounded: the shards are mapped,
 * not read, and the data is copied with copy_file_range. */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec_merge.h" /* from tools/spec/merge.txt (scripts/cli-spec.awk) */

int cmd_merge(int argc, char **argv) {
    int flags[256] = {0}, np = 0;
    int prc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &np);
    if (prc) return prc == CLI_HELP ? CLI_OK : prc;
    const char *first = argv[1], *out = argv[2];
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
    cli_shards_close(&set);
    return rc;
}
