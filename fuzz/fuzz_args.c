/* fuzz_args.c -- the tool's argument handling: the option-table parser every
 * subcommand uses (cli_parse), the TYPE:VALUE text of `gguf set` and
 * `--override-kv` (cli_val_parse_for against every existing type), and the
 * number and size parsers.
 *
 * The input is split at NUL bytes into at most 60 arguments.  Invariants:
 * on success the operands are the input's non-option arguments in order
 * (each one of the original pointers), the handler saw options and operands
 * in command-line order and never more than there are arguments, a value
 * parsed from TYPE:VALUE has the type asked for or implied, and a size
 * without a unit equals the number. */
#include "cli.h"
#include "fuzz.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static const cli_opt OPTS[] = {
    {'f', "-f|--flag", NULL, "a flag"},
    {'v', "-o|--value", "V", "a value"},
    {'a', "--alias", NULL, NULL},
    {'s', "--size", "N", "a size"},
    {0},
};
static const cli_spec SPEC = {"fuzz", "gguf fuzz [options] A [B...]", "about\n", OPTS, "epilog\n", 1, 4, "no A", 1};

typedef struct seen {
    int n;
    const char *args[64];
} seen;

static int on_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    seen *s = ud;
    FUZZ_ASSERT(s->n < 64);
    s->args[s->n++] = val;
    if (id == 's') {
        uint64_t v;
        if (!cli_parse_size(val, 0, &v)) return cli_why(why, cap, "bad size '%s'", val);
    }
    return id == 'v' && val && !strcmp(val, "reject") ? cli_why(why, cap, "rejected") : 0;
}

static void values(const char *text) {
    static const uint32_t TYPES[] = {CLI_NO_TYPE, LGG_VT_U8, LGG_VT_I8, LGG_VT_U16, LGG_VT_I32, LGG_VT_F32,
                                     LGG_VT_U64, LGG_VT_I64, LGG_VT_F64, LGG_VT_STRING, LGG_VT_ARRAY};
    for (size_t i = 0; i < sizeof TYPES / sizeof TYPES[0]; i++) {
        cli_val v;
        char why[256];
        if (!strncmp(text, "str@", 4)) return; /* reads a file: not from fuzz input */
        if (cli_val_parse_for(text, TYPES[i], LGG_VT_I16, &v, why, sizeof why)) {
            FUZZ_ASSERT(v.v.type < LGG_VT_COUNT);
            if (!strncmp(text, "int:", 4) && TYPES[i] != CLI_NO_TYPE && TYPES[i] <= LGG_VT_I32 && TYPES[i] != LGG_VT_F32)
                FUZZ_ASSERT(v.v.type == TYPES[i]);
            cli_val_free(&v);
        } else {
            FUZZ_ASSERT(why[0] != 0);
        }
    }
    uint64_t a, b;
    if (cli_parse_u64(text, &a)) {
        FUZZ_ASSERT(cli_parse_size(text, 0, &b) && a == b);
        FUZZ_ASSERT(cli_parse_size(text, 1, &b) && a == b);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf = malloc(size + 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[64], *orig[64];
    int argc = 0;
    argv[argc++] = (char *)"gguf-fuzz";
    for (char *p = buf; p <= buf + size && argc < 61; p += strlen(p) + 1) argv[argc++] = p;
    argv[argc] = NULL;
    memcpy(orig, argv, sizeof argv);
    for (int i = 1; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        values(eq ? eq + 1 : argv[i]);
    }
    seen s;
    memset(&s, 0, sizeof s);
    int n = -1;
    /* help and usage errors are the parser's output, not the fuzzer's: they
     * go to /dev/null, and the replay's own report still reaches stdout */
    fflush(stdout), fflush(stderr);
    int o1 = dup(1), o2 = dup(2), dn = open("/dev/null", O_WRONLY);
    if (dn >= 0) dup2(dn, 1), dup2(dn, 2), close(dn);
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &s, &n);
    fflush(stdout), fflush(stderr);
    if (o1 >= 0) dup2(o1, 1), close(o1);
    if (o2 >= 0) dup2(o2, 2), close(o2);
    FUZZ_ASSERT(rc == CLI_OK || rc == CLI_HELP || rc == CLI_USAGE);
    FUZZ_ASSERT(s.n <= argc - 1);
    if (rc == CLI_OK) {
        FUZZ_ASSERT(n >= SPEC.min_pos && n <= SPEC.max_pos);
        /* the operands are original arguments, in their order */
        int j = 1;
        for (int k = 1; k <= n; k++) {
            while (j < argc && orig[j] != argv[k]) j++;
            FUZZ_ASSERT(j < argc);
            j++;
        }
    }
    free(buf);
    return 0;
}
