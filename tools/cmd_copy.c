/* cmd_copy.c -- `gguf copy IN OUT [--endian little|big] [--version N]
 * [--alignment N]`: rewrite a file in ggml's canonical layout, optionally in
 * another byte order, version or alignment.  OUT is replaced safely (a
 * temporary file renamed over it); OUT may not be IN under any name. */
#include "cli.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char USAGE[] = "gguf copy IN OUT [--endian little|big] [--version 1|2|3] [--alignment N]";

static void help(void) {
    printf("usage: %s\n\n"
           "Write a canonical copy of IN to OUT: metadata and tensor infos in IN's order,\n"
           "tensor data padded to the alignment, as ggml writes files.\n\n"
           "  --endian little|big  byte order of OUT (default: little); metadata, tensor\n"
           "                       infos and every tensor's data are converted\n"
           "  --version N          GGUF version of OUT: 3 (default), 2, or 1 (fails if a\n"
           "                       length, count or dimension needs more than 32 bits)\n"
           "  --alignment N        data alignment (a power of two); sets general.alignment\n\n"
           "OUT is written to a temporary file in its directory and renamed into place,\n"
           "so it is either left as it was or completely written.  Writing onto IN\n"
           "(even through another name or a hard link) is refused.\n"
           "Exit status: 0 success, 1 failure, 2 usage error.\n",
           USAGE);
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    if (!*s || *s == '-') return 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end) return 0;
    *v = x;
    return 1;
}

int cmd_copy(int argc, char **argv) {
    const char *in = NULL, *out = NULL;
    lgg_write_options o;
    lgg_write_options_init(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return CLI_OK;
        }
        if (!strcmp(a, "--endian") || !strcmp(a, "--version") || !strcmp(a, "--alignment")) {
            if (i + 1 >= argc) return cli_usage_error("copy", USAGE, "%s needs a value", a);
            const char *v = argv[++i];
            uint64_t n;
            if (!strcmp(a, "--endian")) {
                if (!strcmp(v, "little")) o.endian = LGG_LITTLE_ENDIAN;
                else if (!strcmp(v, "big")) o.endian = LGG_BIG_ENDIAN;
                else return cli_usage_error("copy", USAGE, "--endian must be little or big, not '%s'", v);
            } else if (!strcmp(a, "--version")) {
                if (!parse_u64(v, &n) || n < 1 || n > 3)
                    return cli_usage_error("copy", USAGE, "--version must be 1, 2 or 3, not '%s'", v);
                o.version = (uint32_t)n;
            } else {
                if (!parse_u64(v, &n) || n == 0 || (n & (n - 1)) || n > UINT32_MAX)
                    return cli_usage_error("copy", USAGE, "--alignment must be a power of two, not '%s'", v);
                o.alignment = n;
            }
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("copy", USAGE, "unknown option '%s'", a);
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            return cli_usage_error("copy", USAGE, "unexpected argument '%s'", a);
        }
    }
    if (!in || !out) return cli_usage_error("copy", USAGE, "IN and OUT are required");
    int fd = open(in, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        perror("gguf copy: open");
        return CLI_FAIL;
    }
    lgg_file *f = NULL;
    lgg_writer *w = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    int rc = CLI_FAIL;
    if (lgg_open_fd(fd, NULL, &f, &e) != LGG_OK)
        fprintf(stderr, "gguf copy: %s: %s [%s]\n", in, e.message, lgg_status_name(e.code));
    else if (lgg_writer_from_file(f, fd, NULL, &w, &e) != LGG_OK)
        fprintf(stderr, "gguf copy: %s: %s [%s]\n", in, e.message, lgg_status_name(e.code));
    else if (lgg_writer_write_file(w, out, &o, &e) != LGG_OK)
        fprintf(stderr, "gguf copy: %s: %s [%s]\n", out, e.message, lgg_status_name(e.code));
    else
        rc = CLI_OK;
    lgg_writer_free(w);
    lgg_close(f);
    close(fd);
    return rc;
}
