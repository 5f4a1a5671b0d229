/* cmd_name.c -- `gguf name FILE...`: the file name the GGUF naming
 * convention recommends for each FILE, built from its metadata as gguf-py
 * builds it; every shard of a set gets the set's name. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

#include "spec_name.h" /* from tools/spec/name.txt (scripts/cli-spec.awk) */

static int name_one(const char *path, bool label) {
    lgg_file *f = cli_open("name", path, CLI_OPEN_META);
    if (!f) return CLI_FAIL;
    /* a shard with its set beside it: the set's name, this shard's number */
    cli_shards set;
    const bool in_set = cli_shards_around(path, f, &set) == CLI_OK;
    const lgg_file *const *files = in_set ? (const lgg_file *const *)set.files : NULL;
    size_t n = in_set ? lgg_recommended_shard_name(files, set.n, set.borrowed, NULL, 0) : lgg_recommended_name(f, NULL, 0);
    char *buf = malloc(n + 1);
    int rc = CLI_OK;
    if (!buf) {
        cli_err("name", path, "out of memory");
        rc = CLI_FAIL;
    } else {
        if (in_set) lgg_recommended_shard_name(files, set.n, set.borrowed, buf, n + 1);
        else lgg_recommended_name(f, buf, n + 1);
        if (label) printf("%s: ", cli_display_name(path)); /* several files: say which is which */
        fwrite(buf, 1, n, stdout);
        putchar('\n');
    }
    free(buf);
    if (in_set) cli_shards_close(&set);
    lgg_close(f);
    return rc;
}

int cmd_name(int argc, char **argv) {
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, NULL, NULL, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    for (int i = 1; i <= n; i++)
        if (name_one(argv[i], n > 1) != CLI_OK) rc = CLI_FAIL;
    return rc;
}
