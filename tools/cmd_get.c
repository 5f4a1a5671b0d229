/* cmd_get.c -- `gguf get FILE KEY [--json]`: one value on stdout. */
#include "cli.h"

#include <string.h>

static const char USAGE[] = "gguf get FILE KEY [--json]";

static void help(void) {
    printf("usage: %s\n\n"
           "Print the value of KEY: strings raw (their exact bytes, then a newline),\n"
           "integers in decimal, floats as the shortest decimal that reads back the\n"
           "same, bools as true/false, arrays as [a, b, ...].\n\n"
           "  --json   print the value as JSON (arrays as {\"type\", \"items\"})\n\n"
           "Exit status: 0 success, 1 missing key or bad file, 2 usage error.\n",
           USAGE);
}

int cmd_get(int argc, char **argv) {
    const char *file = NULL, *key = NULL;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return CLI_OK;
        }
        if (!strcmp(a, "--json")) json = true;
        else if (a[0] == '-' && a[1]) return cli_usage_error("get", USAGE, "unknown option '%s'", a);
        else if (!file) file = a;
        else if (!key) key = a;
        else return cli_usage_error("get", USAGE, "unexpected argument '%s'", a);
    }
    if (!file || !key) return cli_usage_error("get", USAGE, "FILE and KEY are required");
    lgg_file *f = cli_open("get", file);
    if (!f) return CLI_FAIL;
    int64_t i = lgg_find_key(f, key, strlen(key));
    if (i < 0) {
        fprintf(stderr, "gguf get: %s: no key '%s'\n", file, key);
        lgg_close(f);
        return CLI_FAIL;
    }
    const lgg_value *v = &lgg_kv_at(f, (uint64_t)i)->value;
    if (json) cli_json_value(stdout, v);
    else if (v->type == LGG_VT_STRING) fwrite(v->data, 1, (size_t)v->count, stdout);
    else cli_text_value(stdout, v, 0, 0);
    fputc('\n', stdout);
    lgg_close(f);
    return fflush(stdout) == 0 ? CLI_OK : CLI_FAIL;
}
