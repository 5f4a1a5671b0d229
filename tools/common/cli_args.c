/* cli_args.c -- the one argument parser every subcommand uses: an option
 * table per command (as curl's aliases[]), parsed once, in any order, with
 * the same usage errors and the same --help shape everywhere. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const cli_remote_hooks *hooks; /* set once by the tool, before any command */

void cli_remote_hooks_set(const cli_remote_hooks *h) { hooks = h; }
const cli_remote_hooks *cli_remote_hooks_get(void) { return hooks; }
int cli_is_remote(const char *path) { return hooks && hooks->is_remote(path); }

/* Does `arg` (up to len bytes) equal one of the '|'-separated spellings? */
static int spelled(const char *names, const char *arg, size_t len) {
    for (const char *p = names; *p;) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && !memcmp(p, arg, len)) return 1;
        if (!bar) break;
        p = bar + 1;
    }
    return 0;
}

static const cli_opt *find_opt(const cli_opt *opts, const char *arg, size_t len) {
    for (const cli_opt *o = opts; o && o->names; o++)
        if (spelled(o->names, arg, len)) return o;
    return NULL;
}

/* "-o, --output OUT": the spellings joined, then the value's name. */
static size_t opt_label(const cli_opt *o, char *buf, size_t cap) {
    size_t k = 0;
    for (const char *p = o->names; *p && k + 3 < cap; p++) {
        if (*p == '|') buf[k++] = ',', buf[k++] = ' ';
        else buf[k++] = *p;
    }
    buf[k] = 0;
    if (o->arg) k += (size_t)snprintf(buf + k, cap - k, !strncmp(o->arg, "[=", 2) ? "%s" : " %s", o->arg); /* "[=FILE]": optional */
    return k < cap ? k : cap - 1;
}

static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + 32) : c; }

/* Optimal string alignment distance (a swap of neighbours is one edit),
 * ASCII case ignored; SIZE_MAX beyond 255 bytes.  skip_seps: '-', '_' and
 * '.' left out of both. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb, bool skip_seps) {
    char x[256], y[256];
    size_t n = 0, m = 0, r[3][257];
    if (la > 255 || lb > 255) return SIZE_MAX;
    for (size_t i = 0; i < la; i++)
        if (!skip_seps || !strchr("-_.", a[i])) x[n++] = lower(a[i]);
    for (size_t j = 0; j < lb; j++)
        if (!skip_seps || !strchr("-_.", b[j])) y[m++] = lower(b[j]);
    for (size_t j = 0; j <= m; j++) r[0][j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t *c = r[i % 3], *p = r[(i + 2) % 3], *pp = r[(i + 1) % 3];
        c[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t best = p[j - 1] + (x[i - 1] != y[j - 1]);
            if (p[j] + 1 < best) best = p[j] + 1;
            if (c[j - 1] + 1 < best) best = c[j - 1] + 1;
            if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1] && pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            c[j] = best;
        }
    }
    return r[n % 3][m];
}

void cli_near_init(cli_near *n, const char *name) {
    memset(n, 0, sizeof *n);
    n->name = name;
    n->d = n->d2 = SIZE_MAX;
}

void cli_near_add(cli_near *n, const char *cand, size_t len) {
    const size_t l = strlen(n->name), d = distance(n->name, l, cand, len, false);
    if (d > 2 || (d == 2 && l < 5) || (d == 1 && l < 2) || d > n->d) return;
    const size_t d2 = distance(n->name, l, cand, len, true);
    if (d == n->d && d2 >= n->d2) return; /* a tie: the first stays unless this one is nearer */
    n->best = cand, n->best_len = len, n->d = d, n->d2 = d2;
}

const char *cli_near_hint(cli_near *n) {
    n->hint[0] = 0;
    if (n->best) snprintf(n->hint, sizeof n->hint, "; did you mean '%.*s'?", (int)(n->best_len < 120 ? n->best_len : 120), n->best);
    return n->hint;
}

void cli_err_no_tensor(const char *cmd, const char *path, const lgg_file *f, const char *name) {
    cli_near n;
    cli_near_init(&n, name);
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        cli_near_add(&n, t->name.ptr, (size_t)t->name.len);
    }
    cli_err(cmd, path, "no tensor named '%s'%s", name, cli_near_hint(&n));
}

/* Every command takes these (cli_parse hands them to the tool's remote hooks). */
static const cli_opt COMMON[] = {
    {0, "--token", "TOKEN", "bearer token for a file on a server, sent to its own\nhost only (default: $HF_TOKEN)"},
    {0, "--timeout", "SECONDS", "network timeout, 1 to 86400 (docs/remote.md)"},
    {0},
};

static void print_opts(const char *heading, const cli_opt *opts) {
    int any = 0;
    for (const cli_opt *o = opts; o && o->names; o++) {
        if (!o->help) continue; /* aliases kept for scripts, not advertised */
        if (!any) printf("\n%s:\n", heading);
        any = 1;
        char label[128];
        size_t n = opt_label(o, label, sizeof label);
        printf("  %s", label);
        /* the help text may span lines: each goes under the first one */
        const char *h = o->help;
        int col = n + 2 < 26 ? 26 - (int)n - 2 : 0;
        if (n + 2 >= 26) printf("\n%26s", "");
        else printf("%*s", col, "");
        for (; *h; h++) {
            putchar(*h);
            if (*h == '\n' && h[1]) printf("%26s", "");
        }
        putchar('\n');
    }
}

/* ---- gguf(1) from the same tables (gguf help --man, gguf.c) ---- */
static int man_part; /* CLI_MAN_*: what --help prints while the page is written */

void cli_man_mode(int part) { man_part = part; }

/* Text for roff: '-' as "\-", a backslash as "\e", a line that would start
 * with '.' or '\'' made text with "\&". */
void cli_roff_text(const char *s) {
    for (const char *p = s; *p; p++) {
        if ((p == s || p[-1] == '\n') && (*p == '.' || *p == '\'')) fputs("\\&", stdout);
        if (*p == '-') fputs("\\-", stdout);
        else if (*p == '\\') fputs("\\e", stdout);
        else putchar(*p);
    }
}

/* A synopsis or an option's value in roff's fonts: punctuation ([ ] | ( ) { } ...)
 * roman, placeholders (FILE, MODEL_DIR; "options") italic, literal text
 * (--json, hf://, little) bold. */
static void roff_syntax(const char *s, size_t n) {
    int font = 'R';
    for (size_t i = 0; i < n;) {
        int want;
        size_t len = 1;
        char c = s[i];
        if (strchr(" []|(){}", c) || !strncmp(s + i, "...", 3)) {
            want = 'R';
            if (c == '.') len = 3;
        } else if (c >= 'A' && c <= 'Z') {
            want = 'I';
            while (i + len < n && ((s[i + len] >= 'A' && s[i + len] <= 'Z') || s[i + len] == '_' ||
                                   (s[i + len] >= '0' && s[i + len] <= '9')))
                len++;
        } else if (!strncmp(s + i, "options", 7) && (i + 7 == n || s[i + 7] == ']')) {
            want = 'I', len = 7;
        } else {
            want = 'B';
        }
        if (want != font) printf("\\f%c", want), font = want;
        for (size_t k = 0; k < len; k++) {
            if (s[i + k] == '-') fputs("\\-", stdout);
            else if (s[i + k] == '\\') fputs("\\e", stdout);
            else putchar(s[i + k]);
        }
        i += len;
    }
    if (font != 'R') fputs("\\fR", stdout);
}

static void man_opts(const cli_opt *opts) {
    for (const cli_opt *o = opts; o && o->names; o++) {
        if (!o->help) continue;
        fputs(".TP\n", stdout);
        for (const char *p = o->names; *p;) {
            size_t n = strcspn(p, "|");
            if (p != o->names) fputs(", ", stdout);
            roff_syntax(p, n);
            p += n + (p[n] == '|');
        }
        if (o->arg) {
            if (o->arg[0] != '[') putchar(' ');
            roff_syntax(o->arg, strlen(o->arg));
        }
        putchar('\n');
        cli_roff_text(o->help);
        putchar('\n');
    }
}

void cli_man_common_options(void) { man_opts(COMMON); }

/* The command's section heading and synopsis, one line per form (a form's
 * continuation lines joined to it), then a new paragraph. */
static void man_synopsis(const cli_spec *s) {
    printf(".SS %s\n", s->cmd);
    int first = 1;
    for (const char *p = s->usage; *p;) {
        while (*p == ' ' || *p == '\n') p++;
        if (!*p) break;
        if (!strncmp(p, "gguf ", 5)) {
            if (!first) fputs("\n.br\n", stdout);
            first = 0;
            p += 5;
            size_t n = strcspn(p, " \n");
            printf("\\fBgguf %.*s\\fR", (int)n, p); /* the command's name */
            p += n;
        } else {
            putchar(' ');
        }
        size_t n = strcspn(p, "\n");
        roff_syntax(p, n);
        p += n;
    }
    fputs("\n.PP\n", stdout);
}

void cli_help(const cli_spec *s) {
    if (man_part == CLI_MAN_SYNOPSIS) {
        man_synopsis(s);
        return;
    }
    if (man_part == CLI_MAN_OPTIONS) {
        man_opts(s->opts);
        return;
    }
    printf("usage: %s\n\n%s", s->usage, s->about);
    print_opts("options", s->opts);
    print_opts("options for files on a server (http://, https://, hf://)", COMMON);
    if (s->epilog) printf("\n%s", s->epilog);
}

void cli_put_escaped(FILE *o, const char *s, uint64_t n) {
    for (uint64_t j = 0; j < n; j++) {
        unsigned char c = (unsigned char)s[j];
        if (c < 0x20 || c == 0x7f) fprintf(o, "\\x%02x", c);
        else fputc(c, o);
    }
}

/* A diagnostic's text, its control bytes escaped: the names in it (a
 * tensor's, a key's, an argument) come from files and command lines. */
static void vput_escaped(FILE *o, const char *fmt, va_list ap) {
    char small[1024], *b = small;
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(small, sizeof small, fmt, aq);
    va_end(aq);
    if (n < 0) return;
    if ((size_t)n >= sizeof small && (b = malloc((size_t)n + 1)) != NULL) vsnprintf(b, (size_t)n + 1, fmt, ap);
    if (!b) b = small, n = (int)sizeof small - 1; /* out of memory: the message cut */
    cli_put_escaped(o, b, (uint64_t)n);
    if (b != small) free(b);
}

int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gguf %s: ", cmd);
    vput_escaped(stderr, fmt, ap);
    fprintf(stderr, "\nusage: %s\n", usage);
    va_end(ap);
    return CLI_USAGE;
}

/* Each long spelling ("--json", not "-j") of opts as a candidate. */
static void near_opts(cli_near *n, const cli_opt *opts) {
    for (const cli_opt *o = opts; o && o->names; o++)
        for (const char *p = o->names; *p;) {
            const size_t len = strcspn(p, "|");
            if (len > 2) cli_near_add(n, p, len);
            p += len + (p[len] == '|');
        }
}

static int unknown_option(const cli_spec *s, const char *a, size_t len) {
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(len < 255 ? len : 255), a);
    cli_near n;
    cli_near_init(&n, name);
    near_opts(&n, s->opts);
    near_opts(&n, COMMON);
    cli_near_add(&n, "--help", 6);
    return cli_usage_error(s->cmd, s->usage, "unknown option '%.*s'%s", (int)len, a, cli_near_hint(&n));
}

/* Whether w is one of the words of list ("on|off|auto]"), which ends at ']'. */
static int is_word_of(const char *list, const char *w) {
    size_t n = strlen(w);
    for (const char *p = list; *p && *p != ']';) {
        size_t k = strcspn(p, "|]");
        if (k == n && !strncmp(p, w, n)) return 1;
        p += k + (p[k] == '|');
    }
    return 0;
}

int cli_parse(const cli_spec *s, int argc, char **argv, cli_opt_fn fn, void *ud, int *n_pos) {
    const cli_remote_hooks *remote = cli_remote_hooks_get();
    /* --help anywhere (before "--") wins over every other argument */
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_help(s);
            /* writing the man page: the command stops without output of its own */
            return man_part ? CLI_USAGE : CLI_HELP;
        }
    int np = 0, only_pos = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_pos || a[0] != '-' || !a[1]) {
            argv[1 + np++] = a; /* positionals packed in order; never overtakes i */
            char why[512] = "";
            if (s->operands_to_fn && fn && fn(ud, CLI_OPERAND, a, why, sizeof why) != 0)
                return cli_usage_error(s->cmd, s->usage, "%s", why[0] ? why : "bad argument");
            continue;
        }
        if (!strcmp(a, "--")) {
            only_pos = 1;
            continue;
        }
        /* --name=value for long options */
        const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const cli_opt *o = find_opt(s->opts, a, len);
        if (!o && remote && (!strncmp(a, "--token", len) || !strncmp(a, "--timeout", len)) && (len == 7 || len == 9)) {
            /* every command's: how to reach a remote file (the tool's hooks) */
            const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
            if (!v) return cli_usage_error(s->cmd, s->usage, "%.*s needs a value", (int)len, a);
            char why[256] = "";
            if (remote->option(a, len, v, why, sizeof why) < 0)
                return cli_usage_error(s->cmd, s->usage, "%s", why);
            continue;
        }
        if (!o) return unknown_option(s, a, len);
        const char *val = NULL;
        if (o->arg && o->arg[0] == '[') { /* an optional value: --name=VALUE, or for "[A|B]" the next argument when it is A or B */
            val = eq ? eq + 1 : NULL;
            if (!eq && o->arg[1] != '=' && i + 1 < argc && is_word_of(o->arg + 1, argv[i + 1])) val = argv[++i];
        } else if (o->arg) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return cli_usage_error(s->cmd, s->usage, "%s needs a value (%s)", a, o->arg);
        } else if (eq) {
            return cli_usage_error(s->cmd, s->usage, "%.*s takes no value", (int)len, a);
        }
        char why[512] = "";
        if (fn && fn(ud, o->id, val, why, sizeof why) != 0)
            return cli_usage_error(s->cmd, s->usage, "%s", why[0] ? why : "bad option");
    }
    if (np < s->min_pos)
        return cli_usage_error(s->cmd, s->usage, "%s", s->missing ? s->missing : "missing arguments");
    if (s->max_pos >= 0 && np > s->max_pos)
        return cli_usage_error(s->cmd, s->usage, "unexpected argument '%s'", argv[1 + s->max_pos]);
    /* hf://OWNER/REPO[:QUANT]: the repository's file by its quantization,
     * for every command (after --token and --timeout are known); not for
     * ls, which lists the repository itself, convert, whose source is a
     * checkpoint repository, nor download without :QUANT (a snapshot) */
    for (int k = 1; remote && k <= np && strcmp(s->cmd, "ls") && strcmp(s->cmd, "convert"); k++) {
        if (!strcmp(s->cmd, "download") && !strncmp(argv[k], "hf://", 5) && !strchr(argv[k] + 5, ':')) continue;
        char why2[1024];
        if (remote->pick(&argv[k], why2, sizeof why2) < 0) {
            cli_err(s->cmd, NULL, "%s", why2);
            return CLI_FAIL;
        }
    }
    *n_pos = np;
    return CLI_OK;
}

int cli_why(char *why, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
    return 1;
}

void cli_err(const char *cmd, const char *file, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "gguf %s: ", cmd);
    if (file) {
        const char *d = cli_display_name(file);
        cli_put_escaped(stderr, d, strlen(d));
        fputs(": ", stderr);
    }
    vput_escaped(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Whether message m already says "offset OFF". */
static bool says_offset(const char *m, uint64_t off) {
    char tag[32];
    const int n = snprintf(tag, sizeof tag, "offset %llu", (unsigned long long)off);
    for (const char *p = strstr(m, tag); p; p = strstr(p + 1, tag))
        if (p[n] < '0' || p[n] > '9') return true;
    return false;
}

const char *cli_truncated_lead(const lgg_error *e) {
    return e->code == LGG_ERR_TRUNCATED && !strstr(e->message, "truncated") ? "the file is truncated: " : "";
}

void cli_err_lgg(const char *cmd, const char *file, const lgg_error *e) {
    /* the line names the file once: "X is one of the inputs" after "X: "
     * reads "this file is one of the inputs", "X: reason" just "reason";
     * and the offset once */
    const char *m = e->message;
    size_t fl = file ? strlen(file) : 0;
    const char *lead = cli_truncated_lead(e);
    if (fl && !strncmp(m, file, fl) && m[fl] == ' ') m += fl + 1, lead = "this file ";
    else if (fl && !strncmp(m, file, fl) && m[fl] == ':' && m[fl + 1] == ' ') m += fl + 2;
    if (e->offset != LGG_NO_OFFSET && !says_offset(m, e->offset))
        cli_err(cmd, file, "%s%s (at byte %llu)", lead, m, (unsigned long long)e->offset);
    else cli_err(cmd, file, "%s%s", lead, m);
}

const char *cli_display_name(const char *path) { return cli_is_stdin(path) ? "<stdin>" : path; }

int cli_is_stdin(const char *path) { return path && path[0] == '-' && !path[1]; }

int cli_parse_u64(const char *s, uint64_t *v) {
    char *end;
    if (*s < '0' || *s > '9') return 0;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (*end || errno) return 0;
    *v = x;
    return 1;
}

/* N, or N with a unit: K M G T (either case) alone take the command's
 * default (binary or not; *bare says so), KB..TB are powers of 1000 and
 * KiB..TiB powers of 1024 ('b' for 'B' too). */
static int parse_size(const char *s, int binary, uint64_t *v, char *bare) {
    char *end;
    *bare = 0;
    if (*s < '0' || *s > '9') return 0;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno) return 0;
    static const char UNITS[] = "kmgt";
    const char *u = *end ? strchr(UNITS, *end | 0x20) : NULL;
    uint64_t mul = 1;
    if (u) {
        char letter = *end++;
        int bin = binary;
        if (*end == 'i' && (end[1] == 'B' || end[1] == 'b')) bin = 1, end += 2;
        else if (*end == 'B' || *end == 'b') bin = 0, end++;
        else *bare = letter;
        for (const char *k = UNITS; k <= u; k++) mul *= bin ? 1024 : 1000;
    } else if (*end == 'B' || *end == 'b') {
        end++;
    }
    if (*end || __builtin_mul_overflow((uint64_t)x, mul, v)) return 0;
    return 1;
}

int cli_parse_size(const char *s, int binary, uint64_t *v) {
    char bare;
    return parse_size(s, binary, v, &bare);
}

int cli_size_option(const char *cmd, const char *opt, const char *s, int binary, uint64_t *v) {
    static bool noted; /* the note is said once a run, however many sizes it reads */
    char bare;
    if (!parse_size(s, binary, v, &bare)) return 0;
    if (bare && !noted) {
        noted = true;
        /* say which a bare letter meant, and how to write the other */
        char u = (char)(bare & ~0x20);
        uint64_t other;
        size_t n = strlen(s) - 1;
        char alt[64];
        snprintf(alt, sizeof alt, "%.*s%c%s", (int)(n < 40 ? n : 40), s, u, binary ? "B" : "iB");
        if (parse_size(alt, binary, &other, &bare))
            fprintf(stderr, "gguf %s: note: %s %s is %llu bytes (%c%s, powers of %d); %s is %llu\n", cmd, opt, s,
                    (unsigned long long)*v, u, binary ? "iB" : "B", binary ? 1024 : 1000, alt,
                    (unsigned long long)other);
        else
            fprintf(stderr, "gguf %s: note: %s %s is %llu bytes (%c%s, powers of %d)\n", cmd, opt, s,
                    (unsigned long long)*v, u, binary ? "iB" : "B", binary ? 1024 : 1000);
    }
    return 1;
}
