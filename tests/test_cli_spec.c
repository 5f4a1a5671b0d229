/* test_cli_spec.c -- scripts/cli-spec.awk, which turns a command's spec
 * (tools/spec/NAME.txt) into its C tables: a good spec's text comes out as
 * C literals with \ and " escaped, and a malformed one stops the build with
 * "FILE:LINE: message". */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>

/* Write text as scratch file NAME.txt and run the generator on it: its exit
 * status, stdout and stderr (malloc'd). */
static int gen(const char *name, const char *text, char **out, char **err) {
    char file[64];
    snprintf(file, sizeof file, "%s.txt", name);
    const char *path = scratch_path(file);
    FILE *f = fopen(path, "w");
    if (!f) return -2;
    fputs(text, f);
    fclose(f);
    char *argv[] = {"/bin/sh", "-c", "exec awk -f scripts/cli-spec.awk \"$0\"", (char *)path, NULL};
    size_t ol, el;
    int status;
    if (run_capture(argv, out, &ol, err, &el, &status) != 0) return -2;
    return status;
}

#define HEAD "command demo\nusage gguf demo [-j] FILE\nusage        gguf demo --other\noperands 1 any\n"

TEST(cli_spec_generates_escaped_tables) {
    char *out = NULL, *err = NULL;
    int st = gen("demo",
                 "# a comment\n" HEAD "missing no FILE given\n"
                 "about\nSay \"hi\" to C:\\path.\n\n  indented?\?!\n.\n"
                 "option j -j|--json\nJSON \"out\"\nsecond line\n.\n"
                 "option LONG_ID --level [=N]\n.\n"
                 "alias q --quiet\n"
                 "epilog\nExit status: 0.\n.\n",
                 &out, &err);
    CHECKF(st == 0, "status %d: %s", st, err ? err : "");
    REQUIRE(out != NULL);
    CHECK(strstr(out, "{'j', \"-j|--json\", NULL,\n     \"JSON \\\"out\\\"\\n\"\n     \"second line\"},") != NULL);
    CHECK(strstr(out, "{LONG_ID, \"--level\", \"[=N]\",\n     \"\"},") != NULL);
    CHECK(strstr(out, "{'q', \"--quiet\", NULL,\n     NULL},") != NULL);
    CHECK(strstr(out, "\"gguf demo [-j] FILE\\n\"\n    \"       gguf demo --other\",") != NULL);
    CHECK(strstr(out, "\"Say \\\"hi\\\" to C:\\\\path.\\n\"\n    \"\\n\"\n    \"  indented?\\?!\\n\",") != NULL);
    CHECK(strstr(out, "    1, -1, \"no FILE given\",\n    0,\n};") != NULL);
    free(out);
    free(err);
}

TEST(cli_spec_rejects_malformed) {
    static const struct {
        const char *text, *err;
    } bad[] = {
        {HEAD "flag\n", "demo.txt:5: unknown directive 'flag'\n"},
        {HEAD "option --json\nhelp\n.\n", "demo.txt:5: option: ID and NAMES required"},
        {HEAD "option\n", "demo.txt:5: option: ID and NAMES required"},
        {HEAD "option j --json\na\n.\noption j --jobs N\nb\n.\n", "demo.txt:8: option: id 'j' already used on line 5\n"},
        {HEAD "option j --json\na\n.\noption k --json\nb\n.\n", "demo.txt:8: option: --json already spelled on line 5\n"},
        {HEAD "option 1x --json\n.\n", "demo.txt:5: option: ID '1x' is neither one character nor a C name"},
        {HEAD "about\ntext without its end\n", "demo.txt:6: the about text has no closing '.' line\n"},
        {HEAD "operands 0 1\n", "demo.txt:5: 'operands' given twice\n"},
        {"command other\n", "demo.txt:1: command 'other' in a file named demo.txt\n"},
        {"command demo\noperands 1 any\n", "demo.txt:2: no 'usage' line\n"},
        {"command demo\nusage gguf demo\noperands 2 1\n", "demo.txt:3: operands: MAX below MIN\n"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *out = NULL, *err = NULL;
        int st = gen("demo", bad[i].text, &out, &err);
        CHECKF(st == 1, "case %zu: status %d", i, st);
        const char *at = err ? strstr(err, "/demo.txt:") : NULL;
        CHECKF(at && !strncmp(at + 1, bad[i].err, strlen(bad[i].err)), "case %zu: stderr '%s', want '%s'", i,
               err ? err : "", bad[i].err);
        free(out);
        free(err);
    }
}
