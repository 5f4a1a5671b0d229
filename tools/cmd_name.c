/* cmd_name.c -- `gguf name FILE`: the file name the GGUF naming convention
 * recommends for FILE, built from its metadata as gguf-py builds it. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char USAGE[] = "gguf name FILE";

static void help(void) {
    printf("usage: %s\n\n"
           "Print the file name the GGUF naming convention recommends for FILE:\n"
           "  <BaseName>-<SizeLabel>-<FineTune>-<Version>-<Encoding>-<Type>-<Shard>.gguf\n"
           "from general.basename (or general.name), general.size_label (or the size\n"
           "computed from the parameter count), general.finetune, general.version,\n"
           "general.file_type, general.type and split.no/split.count; absent parts are\n"
           "left out, as gguf-py does.\n"
           "Exit status: 0 success, 1 failure, 2 usage error.\n",
           USAGE);
}

int cmd_name(int argc, char **argv) {
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return CLI_OK;
        }
        if (a[0] == '-' && a[1]) return cli_usage_error("name", USAGE, "unknown option '%s'", a);
        if (path) return cli_usage_error("name", USAGE, "unexpected argument '%s'", a);
        path = a;
    }
    if (!path) return cli_usage_error("name", USAGE, "FILE is required");
    lgg_file *f = cli_open("name", path);
    if (!f) return CLI_FAIL;
    size_t n = lgg_recommended_name(f, NULL, 0);
    char *buf = malloc(n + 1);
    if (!buf) {
        fprintf(stderr, "gguf name: out of memory\n");
        lgg_close(f);
        return CLI_FAIL;
    }
    lgg_recommended_name(f, buf, n + 1);
    fwrite(buf, 1, n, stdout);
    putchar('\n');
    free(buf);
    lgg_close(f);
    return CLI_OK;
}
