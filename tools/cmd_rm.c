/* cmd_rm.c -- `gguf rm [-o OUT] FILE KEY...`. */
#include "tool.h"

#include <string.h>

#include "spec_rm.h" /* from tools/spec/rm.txt (scripts/cli-spec.awk) */

typedef struct rmopts {
    const char *out;
    int keep_dups;
} rmopts;

static int on_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    (void)why, (void)cap;
    rmopts *r = ud;
    if (id == 'o') r->out = val;
    else r->keep_dups = 1;
    return 0;
}

int cmd_rm(int argc, char **argv) {
    rmopts r = {NULL, 0};
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &r, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *file = argv[1];
    cli_edit e;
    if (cli_edit_open("rm", file, r.keep_dups, &e)) return CLI_FAIL;
    for (int i = 2; i <= n && rc == CLI_OK; i++) {
        lgg_error err;
        memset(&err, 0, sizeof err);
        if (lgg_writer_remove(e.w, argv[i], strlen(argv[i]), &err) != LGG_OK) {
            cli_err("rm", file, "%s", err.message);
            rc = CLI_FAIL;
        }
    }
    if (rc == CLI_OK) rc = cli_edit_commit("rm", &e, r.out);
    cli_edit_close(&e);
    return rc;
}
