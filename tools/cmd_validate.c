/* cmd_validate.c -- `gguf validate [--strict] [--load] [--json] [-q] FILE...`:
 * one finding per line, "FILE: offset N: error|warning|note: message", and
 * "FILE: ok" for a file without errors; with --load, whether llama.cpp
 * master would load it (lgg_load_check_file), one line per problem.  Exit 0
 * when no file has errors, 1 when any has (structural ones included, or
 * master would refuse it), 2 for a usage error, 3 when --load has no table
 * for an architecture (and nothing else failed). */
#include "tool.h"

#include <stdlib.h>
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

/* Exit status 3: --load has no table for the file's architecture. */
#define RC_NO_TABLE 3

static const char *const VERDICTS[] = {"loads", "refused", "no table"};

static void print_load_text(const char *path, const lgg_load_check *c) {
    if (c->verdict == LGG_LOAD_NO_TABLE) {
        printf("%s: load: not checked: no table for architecture '%s' (docs/validation.md lists the covered ones)\n",
               path, c->arch);
        return;
    }
    for (uint32_t i = 0; i < c->n_issues && i < LGG_LOAD_MAX_ISSUES; i++) {
        const lgg_load_issue *is = &c->issues[i];
        printf("%s: load: %s %s '%s'", path, lgg_load_problem_name(is->problem), is->tensor ? "tensor" : "key",
               is->name);
        if (is->expected[0]) printf(": expected %s", is->expected);
        if (is->found[0]) printf("%s found %s", is->expected[0] ? "," : ":", is->found);
        putchar('\n');
    }
    if (c->n_issues > LGG_LOAD_MAX_ISSUES)
        printf("%s: load: ... and %u more problems\n", path, c->n_issues - LGG_LOAD_MAX_ISSUES);
    if (c->verdict == LGG_LOAD_LOADS)
        printf("%s: load: ok (%s, %llu tensors)\n", path, c->arch, (unsigned long long)c->n_tensors_expected);
    else printf("%s: load: refused (%u problem%s)\n", path, c->n_issues, c->n_issues == 1 ? "" : "s");
}

static void json_field(const char *name, const char *s) {
    printf(", \"%s\": ", name);
    cli_json_str(stdout, s, strlen(s));
}

/* The "load" member; c NULL: not checked (the file has format errors). */
static void print_load_json(const lgg_load_check *c) {
    if (!c) {
        fputs(", \"load\": {\"verdict\": \"not checked\"}", stdout);
        return;
    }
    printf(", \"load\": {\"verdict\": \"%s\"", VERDICTS[c->verdict]);
    json_field("arch", c->arch);
    printf(", \"tensors_expected\": %llu, \"issues_total\": %u, \"issues\": [",
           (unsigned long long)c->n_tensors_expected, c->n_issues);
    for (uint32_t i = 0; i < c->n_issues && i < LGG_LOAD_MAX_ISSUES; i++) {
        const lgg_load_issue *is = &c->issues[i];
        printf("%s{\"kind\": \"%s\"", i ? ", " : "", is->tensor ? "tensor" : "key");
        json_field("name", is->name);
        json_field("problem", lgg_load_problem_name(is->problem));
        json_field("expected", is->expected);
        json_field("found", is->found);
        putchar('}');
    }
    fputs("]}", stdout);
}

static void print_json(const char *path, const lgg_report *r, bool load, const lgg_load_check *c) {
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
    fputc(']', stdout);
    if (load) print_load_json(c);
    fputs("}\n", stdout);
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

/* Print the findings (and with --load the load check of a file without errors): the exit status. */
static int report(const char *path, const lgg_file *f, const lgg_report *r, const int *flags) {
    const bool errors = lgg_report_count_severity(r, LGG_SEV_ERROR) > 0;
    lgg_load_check *c = NULL;
    int rc = errors ? CLI_FAIL : CLI_OK;
    if (flags['l'] && !errors && f) {
        lgg_error e;
        c = malloc(sizeof *c);
        if (!c || lgg_load_check_file(f, c, &e) != LGG_OK) {
            cli_err("validate", path, "%s", c ? e.message : "out of memory");
            free(c);
            return CLI_FAIL;
        }
        rc = c->verdict == LGG_LOAD_REFUSED ? CLI_FAIL : c->verdict == LGG_LOAD_NO_TABLE ? RC_NO_TABLE : CLI_OK;
    }
    if (flags['j']) {
        print_json(cli_display_name(path), r, flags['l'], c);
    } else {
        print_text(cli_display_name(path), r, flags['q'] || c);
        if (c) print_load_text(cli_display_name(path), c);
    }
    free(c);
    return rc;
}

/* Validate one file: CLI_OK, CLI_FAIL when it has errors, cannot be read or (--load) master would refuse it,
 * RC_NO_TABLE when --load has no table for it. */
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
        rc = report(path, f, r, flags);
    }
    lgg_report_free(r);
    lgg_close(f);
    return rc;
}

int cmd_validate(int argc, char **argv) {
    int flags[256] = {0}, n = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    for (int i = 1; i <= n; i++) {
        int one = validate_one(argv[i], flags);
        if (one == CLI_FAIL || (one == RC_NO_TABLE && rc == CLI_OK)) rc = one;
    }
    return rc;
}
