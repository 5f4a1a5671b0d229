/* cmd_rm.c -- `gguf rm FILE KEY... [-o OUT]`. */
#include "cli.h"

#include <string.h>

static const char USAGE[] = "gguf rm FILE KEY... [-o OUT]";

static void help(void) {
    printf("usage: %s\n\n"
           "Remove metadata keys (every pair with that key).  A missing key is an error\n"
           "and nothing is written.\n\n"
           "  -o OUT   write the result to OUT; FILE is not touched\n\n"
           "Without -o, FILE is replaced safely (see gguf set --help).\n"
           "Exit status: 0 success, 1 failure (missing key, bad file), 2 usage error.\n",
           USAGE);
}

int cmd_rm(int argc, char **argv) {
    const char *file = NULL, *out = NULL;
    int nkeys = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return CLI_OK;
        }
        if (!strcmp(a, "-o")) {
            if (i + 1 >= argc) return cli_usage_error("rm", USAGE, "-o needs a value");
            out = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("rm", USAGE, "unknown option '%s'", a);
        } else if (!file) {
            file = a;
        } else {
            nkeys++;
        }
    }
    if (!file || !nkeys) return cli_usage_error("rm", USAGE, "FILE and at least one KEY are required");
    cli_edit e;
    if (cli_edit_open("rm", file, &e)) return CLI_FAIL;
    int rc = CLI_OK;
    bool seen_file = false;
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        if (!strcmp(argv[i], "-o")) {
            i++;
            continue;
        }
        if (!seen_file) {
            seen_file = true;
            continue;
        }
        lgg_error err;
        memset(&err, 0, sizeof err);
        if (lgg_writer_remove(e.w, argv[i], strlen(argv[i]), &err)) {
            fprintf(stderr, "gguf rm: %s: %s\n", file, err.message);
            rc = CLI_FAIL;
        }
    }
    if (rc == CLI_OK) rc = cli_edit_commit("rm", &e, out);
    cli_edit_close(&e);
    return rc;
}
