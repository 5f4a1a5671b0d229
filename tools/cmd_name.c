/* cmd_name.c -- `gguf name FILE...`: the file name the GGUF naming
 * convention recommends for each FILE, built from its metadata as gguf-py
 * builds it; every shard of a set gets the set's name. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const cli_spec SPEC = {
    "name",
    "gguf name FILE...",
    "Print the file name the GGUF naming convention recommends for each FILE:\n"
    "  <BaseName>-<SizeLabel>-<FineTune>-<Version>-<Encoding>-<Type>-<Shard>.gguf\n"
    "from general.basename (or general.name), general.size_label (or the size\n"
    "computed from the parameter count), general.finetune, general.version,\n"
    "general.file_type, general.type and split.no/split.count; absent parts are\n"
    "left out, as gguf-py does.  For a shard whose set lies beside it, the name\n"
    "comes from the first shard's metadata and the whole set's parameters, so\n"
    "every shard gets the same base name.\n",
    NULL,
    "Exit status: 0 success, 1 failure, 2 usage error.\n",
    1, -1, "FILE is required",
    0,
};

/* Open every shard of the set `path` belongs to (set[0] is the first); 0 when
 * path is not a shard or a shard is missing. */
static size_t open_set(const char *path, const lgg_file *f, lgg_file **set, size_t cap) {
    lgg_value v;
    uint64_t count = 0;
    size_t plen;
    uint32_t idx, cnt;
    if (lgg_get(f, "split.count", &v) != LGG_OK || lgg_value_uint(&v, &count) != LGG_OK || count < 2 || count > cap ||
        cli_is_stdin(path) || !lgg_split_name_parse(path, strlen(path), &idx, &cnt, &plen) || cnt != count)
        return 0;
    char *prefix = strndup(path, plen);
    size_t n = 0;
    for (; prefix && n < count; n++) {
        char p[4096];
        lgg_split_path(p, sizeof p, prefix, (uint32_t)n, (uint32_t)count);
        lgg_open_options o;
        lgg_open_options_init(&o);
        o.flags |= LGG_OPEN_ALLOW_MISSING_DATA;
        if (lgg_open_file(p, &o, &set[n], NULL) != LGG_OK) break;
    }
    free(prefix);
    if (n == count) return n;
    while (n) lgg_close(set[--n]);
    return 0;
}

static int name_one(const char *path) {
    lgg_file *f = cli_open("name", path, CLI_OPEN_META);
    if (!f) return CLI_FAIL;
    lgg_file *set[512];
    size_t n_set = open_set(path, f, set, 512);
    uint64_t no = 0;
    lgg_value v;
    if (n_set && (lgg_get(f, "split.no", &v) != LGG_OK || lgg_value_uint(&v, &no) != LGG_OK || no >= n_set)) no = 0;
    size_t n = n_set ? lgg_recommended_shard_name((const lgg_file *const *)set, n_set, (uint32_t)no, NULL, 0)
                     : lgg_recommended_name(f, NULL, 0);
    char *buf = malloc(n + 1);
    int rc = CLI_OK;
    if (!buf) {
        cli_err("name", path, "out of memory");
        rc = CLI_FAIL;
    } else {
        if (n_set) lgg_recommended_shard_name((const lgg_file *const *)set, n_set, (uint32_t)no, buf, n + 1);
        else lgg_recommended_name(f, buf, n + 1);
        fwrite(buf, 1, n, stdout);
        putchar('\n');
    }
    free(buf);
    while (n_set) lgg_close(set[--n_set]);
    lgg_close(f);
    return rc;
}

int cmd_name(int argc, char **argv) {
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, NULL, NULL, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    for (int i = 1; i <= n; i++)
        if (name_one(argv[i]) != CLI_OK) rc = CLI_FAIL;
    return rc;
}
