/* cmd_set.c -- `gguf set FILE KEY=TYPE:VALUE... [--rename OLD=NEW]... [-o OUT]`. */
#include "cli.h"

#include <string.h>

static const char USAGE[] = "gguf set FILE KEY=TYPE:VALUE... [--rename OLD=NEW]... [-o OUT]";

static void help(void) {
    printf("usage: %s\n\n"
           "Add or change metadata values.  An existing key keeps its position; a new key\n"
           "is appended.  Assignments apply left to right.\n\n"
           "  KEY=TYPE:VALUE        TYPE is u8 i8 u16 i16 u32 i32 u64 i64 f32 f64 bool str,\n"
           "                        or llama.cpp's --override-kv spellings int (i64),\n"
           "                        float (f64), bool.  Integers are range-checked (decimal,\n"
           "                        or 0x hex); bools are true/false/1/0.\n"
           "  KEY=str@PATH          a string with the bytes of the file PATH\n"
           "  KEY=arr[TYPE]:A,B,C   an array; in string arrays write \\, for a comma and\n"
           "                        \\\\ for a backslash; arr[TYPE]: is an empty array\n"
           "  --rename OLD=NEW      rename a key (keeps its position and value)\n"
           "  -o OUT                write the result to OUT; FILE is not touched\n\n"
           "Without -o, FILE is edited safely: when the header keeps its padded size\n"
           "only the header is rewritten (one write, then fsync); otherwise a complete\n"
           "new file is written beside it and renamed over it.\n"
           "Exit status: 0 success, 1 failure, 2 usage error (bad assignment text).\n",
           USAGE);
}

int cmd_set(int argc, char **argv) {
    const char *file = NULL, *out = NULL;
    int n_assign = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            help();
            return CLI_OK;
        }
    }
    /* check every argument before touching anything */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") || !strcmp(a, "--rename")) {
            if (i + 1 >= argc) return cli_usage_error("set", USAGE, "%s needs a value", a);
            if (!strcmp(a, "-o")) out = argv[i + 1];
            else if (!strchr(argv[i + 1], '=')) return cli_usage_error("set", USAGE, "--rename takes OLD=NEW");
            n_assign += a[1] == '-';
            i++;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("set", USAGE, "unknown option '%s'", a);
        } else if (!file) {
            file = a;
        } else {
            const char *eq = strchr(a, '=');
            if (!eq || eq == a) return cli_usage_error("set", USAGE, "expected KEY=TYPE:VALUE, got '%s'", a);
            cli_val v;
            char why[256];
            if (!cli_val_parse(eq + 1, &v, why, sizeof why))
                return cli_usage_error("set", USAGE, "%.*s: %s", (int)(eq - a), a, why);
            cli_val_free(&v);
            n_assign++;
        }
    }
    if (!file) return cli_usage_error("set", USAGE, "no FILE given");
    if (!n_assign) return cli_usage_error("set", USAGE, "nothing to set");
    cli_edit e;
    if (cli_edit_open("set", file, &e)) return CLI_FAIL;
    int rc = CLI_OK;
    for (int i = 2; i < argc && rc == CLI_OK; i++) {
        const char *a = argv[i];
        lgg_error err;
        memset(&err, 0, sizeof err);
        if (!strcmp(a, "-o")) {
            i++;
            continue;
        }
        if (!strcmp(a, "--rename")) {
            const char *arg = argv[++i], *eq = strchr(arg, '=');
            if (lgg_writer_rename(e.w, arg, (size_t)(eq - arg), eq + 1, strlen(eq + 1), &err)) {
                fprintf(stderr, "gguf set: %s: %s\n", file, err.message);
                rc = CLI_FAIL;
            }
            continue;
        }
        if (a == file) continue;
        const char *eq = strchr(a, '=');
        cli_val v;
        char why[256];
        cli_val_parse(eq + 1, &v, why, sizeof why);
        if (lgg_writer_set(e.w, a, (size_t)(eq - a), &v.v, &err)) {
            fprintf(stderr, "gguf set: %.*s: %s\n", (int)(eq - a), a, err.message);
            rc = CLI_FAIL;
        }
        cli_val_free(&v);
    }
    if (rc == CLI_OK) rc = cli_edit_commit("set", &e, out);
    cli_edit_close(&e);
    return rc;
}
