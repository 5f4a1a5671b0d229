/* cmd_validate.c -- `gguf validate [--strict] FILE...`: one finding per line,
 * "FILE: offset N: error|warning|note: message".  Exit 0 when no file has
 * errors, 1 when any has (structural ones included), 2 for a usage error. */
#include "cli.h"

#include <string.h>

static const char USAGE[] = "gguf validate [--strict] FILE...";

static void help(void) {
    printf("usage: %s\n\n"
           "Check each FILE against the GGUF specification and print every finding:\n"
           "  FILE: offset N: error|warning|note: message\n\n"
           "  --strict   treat every deviation from the letter of the spec as an error\n\n"
           "Errors break the spec; warnings are allowed but suspicious; notes say what\n"
           "llama.cpp would refuse in a valid file.  Exit status: 0 no file has errors,\n"
           "1 some file has errors (or cannot be opened), 2 usage error.\n",
           USAGE);
}

static void print_report(const char *path, const lgg_report *r) {
    for (size_t i = 0; i < lgg_report_count(r); i++) {
        const lgg_finding *f = lgg_report_at(r, i);
        printf("%s: offset %llu: %s: %s\n", path,
               (unsigned long long)(f->offset == LGG_NO_OFFSET ? 0 : f->offset), lgg_severity_name(f->severity),
               f->message);
    }
}

int cmd_validate(int argc, char **argv) {
    uint32_t flags = 0;
    int first = 0, nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            help();
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--strict")) flags |= LGG_VALIDATE_STRICT;
        else if (!strcmp(argv[i], "--")) {
            if (!first && i + 1 < argc) first = i + 1;
            nfiles += argc - i - 1;
            break;
        } else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("validate", USAGE, "unknown option '%s'", argv[i]);
        else {
            if (!first) first = i;
            nfiles++;
        }
    }
    if (!nfiles) return cli_usage_error("validate", USAGE, "no FILE given");
    int status = CLI_OK;
    for (int i = first; i < argc; i++) {
        if (!strcmp(argv[i], "--strict") || !strcmp(argv[i], "--")) continue;
        const char *path = argv[i];
        lgg_file *f = NULL;
        lgg_error e;
        memset(&e, 0, sizeof e);
        lgg_report *r = NULL;
        if (lgg_open_file(path, NULL, &f, &e) != LGG_OK) {
            if (e.code == LGG_ERR_IO || e.code == LGG_ERR_NOMEM) {
                fprintf(stderr, "gguf validate: %s: %s\n", path, e.message);
                status = CLI_FAIL;
                continue;
            }
            r = lgg_report_from_error(&e, NULL);
        } else {
            const char *base = strrchr(path, '/');
            lgg_validate_options o = {flags, base ? base + 1 : path, NULL};
            if (lgg_validate(f, &o, &r) != LGG_OK) r = NULL;
        }
        if (!r) {
            fprintf(stderr, "gguf validate: %s: out of memory\n", path);
            status = CLI_FAIL;
        } else {
            print_report(path, r);
            if (lgg_report_count_severity(r, LGG_SEV_ERROR)) status = CLI_FAIL;
        }
        lgg_report_free(r);
        lgg_close(f);
    }
    return status;
}
