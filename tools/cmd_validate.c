/* cmd_validate.c -- `gguf validate [--strict] [--json] [-q] FILE...`: one
 * finding per line, "FILE: offset N: error|warning|note: message", and
 * "FILE: ok" for a file without errors.  Exit 0 when no file has errors, 1
 * when any has (structural ones included), 2 for a usage error. */
#include "tool.h"

#include <string.h>
#include <sys/stat.h>

#include "spec_validate.h" /* from tools/spec/validate.txt (scripts/cli-spec.awk) */

static void print_text(const char *path, const lgg_report *r, int quiet) {
    for (size_t i = 0; i < lgg_report_count(r); i++) {
        const lgg_finding *f = lgg_report_at(r, i);
        if (f->offset == LGG_NO_OFFSET) printf("%s: %s: %s\n", path, lgg_severity_name(f->severity), f->message);
        else
            printf("%s: offset %llu: %s: %s\n", path, (unsigned long long)f->offset, lgg_severity_name(f->severity),
                   f->message);
    }
    if (!quiet && !lgg_report_count_severity(r, LGG_SEV_ERROR)) printf("%s: ok\n", path);
}

static void print_json(const char *path, const lgg_report *r) {
    size_t ne = lgg_report_count_severity(r, LGG_SEV_ERROR);
    fputs("{\"file\": ", stdout);
    cli_json_str(stdout, path, strlen(path));
    printf(", \"ok\": %s, \"errors\": %zu, \"warnings\": %zu, \"notes\": %zu, \"findings\": [", ne ? "false" : "true", ne,
           lgg_report_count_severity(r, LGG_SEV_WARNING), lgg_report_count_severity(r, LGG_SEV_NOTE));
    for (size_t i = 0; i < lgg_report_count(r); i++) {
        const lgg_finding *f = lgg_report_at(r, i);
        printf("%s{\"severity\": \"%s\", \"offset\": ", i ? ", " : "", lgg_severity_name(f->severity));
        if (f->offset == LGG_NO_OFFSET) fputs("null", stdout);
        else printf("%llu", (unsigned long long)f->offset);
        fputs(", \"message\": ", stdout);
        cli_json_str(stdout, f->message, strlen(f->message));
        fputc('}', stdout);
    }
    fputs("]}\n", stdout);
}

/* The name to hold to the naming convention: a regular file's base name;
 * none for standard input, pipes and devices, whose names are not chosen. */
static const char *checked_name(const char *path) {
    if (cli_is_remote(path)) { /* the URL's last segment, without a query */
        static char name[1024];
        size_t n = strcspn(path, "?#");
        const char *s = path + n;
        while (s > path && s[-1] != '/') s--;
        snprintf(name, sizeof name, "%.*s", (int)(path + n - s), s);
        return name;
    }
    struct stat st;
    if (cli_is_stdin(path) || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
    const char *base = strrchr(path, '/');
    return base ? base + 1 : path;
}

/* Validate one file: CLI_OK, or CLI_FAIL when it has errors or cannot be read. */
static int validate_one(const char *path, const int *flags) {
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_report *r = NULL;
    lgg_open_options oo;
    lgg_open_options_init(&oo);
    oo.flags |= LGG_OPEN_ALLOW_MISSING_DATA; /* report every finding, missing bytes included */
    int net = 0;
    lgg_status st = cli_is_remote(path) ? cli_remote_open_file(path, &oo, &f, &e, &net)
                                         : cli_open_path(path, &oo, CLI_OPEN_META, &f, &e);
    if (st != LGG_OK) {
        if (net || e.code == LGG_ERR_IO || e.code == LGG_ERR_NOMEM) {
            cli_err("validate", net ? NULL : path, "%s", e.message);
            return CLI_FAIL;
        }
        lgg_error said = e; /* a header cut short: said to be truncated, as the other commands say it */
        snprintf(said.message, sizeof said.message, "%s%.*s", cli_truncated_lead(&e), (int)sizeof e.message - 1,
                 e.message);
        r = lgg_report_from_error(&said, NULL);
    } else {
        lgg_validate_options o = {.flags = flags['s'] ? LGG_VALIDATE_STRICT : 0, .file_name = checked_name(path)};
        if (lgg_validate(f, &o, &r) != LGG_OK) r = NULL;
    }
    int rc = CLI_OK;
    if (!r) {
        cli_err("validate", path, "out of memory");
        rc = CLI_FAIL;
    } else {
        if (flags['j']) print_json(cli_display_name(path), r);
        else print_text(cli_display_name(path), r, flags['q']);
        if (lgg_report_count_severity(r, LGG_SEV_ERROR)) rc = CLI_FAIL;
    }
    lgg_report_free(r);
    lgg_close(f);
    return rc;
}

int cmd_validate(int argc, char **argv) {
    int flags[256] = {0}, n = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    for (int i = 1; i <= n; i++)
        if (validate_one(argv[i], flags) != CLI_OK) rc = CLI_FAIL;
    return rc;
}
