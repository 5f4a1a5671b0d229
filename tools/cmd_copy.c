/* cmd_copy.c -- `gguf copy IN OUT [--endian little|big] [--version N]
 * [--alignment N]`: rewrite a file in ggml's canonical layout, optionally in
 * another byte order, version or alignment.  OUT is replaced safely (a
 * temporary file renamed over it); OUT may not be IN under any name. */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec_copy.h" /* from tools/spec/copy.txt (scripts/cli-spec.awk) */

typedef struct copts {
    lgg_write_options o;
    int endian_set, keep_dups;
} copts;

static int on_opt(void *ud, int id, const char *v, char *why, size_t cap) {
    copts *c = ud;
    uint64_t n;
    switch (id) {
    case 'e':
        if (!strcmp(v, "little")) c->o.endian = LGG_LITTLE_ENDIAN;
        else if (!strcmp(v, "big")) c->o.endian = LGG_BIG_ENDIAN;
        else return cli_why(why, cap, "--endian must be little or big, not '%s'", v);
        c->endian_set = 1;
        return 0;
    case 'v':
        if (!cli_parse_u64(v, &n) || n < 1 || n > 3) return cli_why(why, cap, "--version must be 1, 2 or 3, not '%s'", v);
        c->o.version = (uint32_t)n;
        return 0;
    case 'a':
        if (!cli_parse_u64(v, &n) || n == 0 || (n & (n - 1)) || n > UINT32_MAX)
            return cli_why(why, cap, "--alignment must be a power of two, not '%s'", v);
        c->o.alignment = n;
        return 0;
    default: c->keep_dups = 1; return 0;
    }
}

int cmd_copy(int argc, char **argv) {
    copts c;
    memset(&c, 0, sizeof c);
    lgg_write_options_init(&c.o);
    c.o.version = 0;
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &c, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *in = argv[1], *out = argv[2];
    int fd = cli_open_fd("copy", in);
    if (fd < 0) return CLI_FAIL;
    lgg_file *f = NULL;
    lgg_writer *w = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    rc = CLI_FAIL;
    if (lgg_open_fd(fd, NULL, &f, &e) != LGG_OK || !(w = cli_writer_from_file("copy", in, f, fd, c.keep_dups, &e))) {
        cli_err_lgg("copy", in, &e);
    } else {
        /* a canonical copy keeps what it was not asked to change */
        if (!c.o.version) c.o.version = lgg_file_version(f);
        if (!c.endian_set) c.o.endian = lgg_file_endian(f);
        if (cli_write_file(w, out, &c.o, &e) != LGG_OK) cli_err_lgg("copy", out, &e);
        else rc = CLI_OK;
    }
    lgg_writer_free(w);
    lgg_close(f);
    close(fd);
    return rc;
}
