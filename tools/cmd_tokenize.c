/* cmd_tokenize.c -- `gguf tokenize [--ids | --json] [--no-bos]
 * [--no-parse-special] MODEL (TEXT | -f FILE | -)`: the token ids of a text
 * as llama.cpp b4747 gives them for MODEL's vocabulary (libgguf-tokenize),
 * printed as llama-tokenize prints them. */
#include "tool.h"
#include "libgguf_tokenize.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_IDS = 'i', OPT_JSON = 'j', OPT_NO_BOS = 'b', OPT_NO_PARSE = 'p', OPT_FILE = 'f', OPT_COMPARE = 'c' };

#include "spec_tokenize.h" /* from tools/spec/tokenize.txt (scripts/cli-spec.awk) */

typedef struct args {
    int flag[256];
    const char *file;
} args;

static int on_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    args *a = ud;
    if (id == OPT_FILE) {
        if (a->file) return cli_why(why, cap, "-f given twice");
        a->file = val;
        return 0;
    }
    return cli_flag_opt(a->flag, id, val, why, cap);
}

lgg_tokenizer *cli_tokenizer_open(const char *cmd, const char *model) {
    struct stat st;
    if (!cli_is_remote(model) && !cli_is_stdin(model) && stat(model, &st) == 0 && S_ISDIR(st.st_mode)) {
        lgg_tokenizer *t = NULL; /* a checkpoint folder: tokenizer.json and its config */
        lgg_error e;
        memset(&e, 0, sizeof e);
        if (lgg_tokenizer_open_dir(model, 0, &t, &e) != LGG_OK) cli_err_lgg(cmd, model, &e);
        return t;
    }
    lgg_file *f = cli_open(cmd, model, CLI_OPEN_META);
    if (!f) return NULL;
    lgg_tokenizer *t = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_tokenizer_open_gguf(f, &t, &e) != LGG_OK) cli_err_lgg(cmd, model, &e);
    lgg_close(f);
    return t;
}

/* llama-tokenize prints a piece with printf("%s"): up to its first NUL */
static void print_piece(const char *p, size_t n) {
    const char *z = memchr(p, 0, n);
    fwrite(p, 1, z ? (size_t)(z - p) : n, stdout);
}

/* The sink of the stream: prints each id as it comes; --json keeps the ids
 * in a scratch file for the pieces printed after them, so memory stays flat. */
typedef struct printer {
    const lgg_tokenizer *t;
    const args *a;
    int64_t n;
    FILE *scratch;
    int opened; /* the list's opening printed: only once there is output, so a failure prints nothing */
} printer;

static void print_open(printer *pr) {
    if (!pr->opened) fputs(pr->a->flag[OPT_JSON] ? "{\"ids\": [" : pr->a->flag[OPT_IDS] ? "[" : "", stdout);
    pr->opened = 1;
}

static void print_piece_of(const lgg_tokenizer *t, int32_t id, int json) {
    size_t len = 0;
    const char *p = lgg_token_piece(t, id, &len);
    if (!json) {
        printf("%6d -> '", (int)id);
        if (p) print_piece(p, len);
        fputs("'\n", stdout);
    } else if (p) {
        cli_json_str(stdout, p, len);
    } else {
        fputs("null", stdout); /* RWKV's unknown id, -1 */
    }
}

static int print_ids(void *user, const int32_t *ids, size_t n) {
    printer *pr = user;
    int list = pr->a->flag[OPT_IDS] || pr->a->flag[OPT_JSON];
    print_open(pr);
    for (size_t i = 0; i < n; i++, pr->n++) {
        if (!list) print_piece_of(pr->t, ids[i], 0);
        else printf("%s%d", pr->n ? ", " : "", (int)ids[i]);
    }
    if (pr->scratch && fwrite(ids, sizeof *ids, n, pr->scratch) != n) return -1;
    return ferror(stdout) ? -1 : 0;
}

static int print_end(printer *pr) {
    print_open(pr);
    if (!pr->a->flag[OPT_IDS] && !pr->a->flag[OPT_JSON]) return 0;
    if (!pr->a->flag[OPT_JSON]) {
        fputs("]\n", stdout);
        return 0;
    }
    fputs("], \"pieces\": [", stdout);
    rewind(pr->scratch);
    int32_t id;
    for (int64_t i = 0; i < pr->n; i++) {
        if (fread(&id, sizeof id, 1, pr->scratch) != 1) return -1;
        if (i) fputs(", ", stdout);
        print_piece_of(pr->t, id, 1);
    }
    fputs("]}\n", stdout);
    return 0;
}

/* the text through a stream: TEXT at once, a file or standard input a
 * block at a time */
static int tokenize_stream(const lgg_tokenizer *t, const args *a, unsigned flags, const char *src, int from_file) {
    printer pr = {t, a, 0, NULL, 0};
    lgg_error e;
    memset(&e, 0, sizeof e);
    FILE *in = NULL;
    if (from_file && !(in = cli_is_stdin(src) ? stdin : fopen(src, "rb"))) {
        cli_err("tokenize", cli_display_name(src), "%s", strerror(errno));
        return CLI_FAIL;
    }
    if (a->flag[OPT_JSON] && !(pr.scratch = tmpfile())) {
        cli_err("tokenize", "scratch file", "%s", strerror(errno));
        if (in && in != stdin) fclose(in);
        return CLI_FAIL;
    }
    lgg_tokenize_stream *s = NULL;
    lgg_status st = lgg_tokenize_stream_new(t, flags, 0, print_ids, &pr, &s, &e);
    int read_failed = 0;
    if (!st && !from_file) st = lgg_tokenize_stream_feed(s, src, strlen(src), &e);
    static char block[1 << 16];
    while (!st && in) {
        size_t r = fread(block, 1, sizeof block, in);
        if (r) st = lgg_tokenize_stream_feed(s, block, r, &e);
        if (r < sizeof block) {
            read_failed = ferror(in);
            break;
        }
    }
    if (read_failed) {
        cli_err("tokenize", cli_display_name(src), "read failed: %s", strerror(errno));
    } else if (!st) {
        st = lgg_tokenize_stream_finish(s, &e);
    }
    int rc = CLI_OK;
    if (read_failed) {
        rc = CLI_FAIL;
    } else if (st) {
        /* the offset is in the text, not in MODEL: say so */
        cli_err("tokenize", from_file ? cli_display_name(src) : "TEXT", "%s", e.message);
        rc = CLI_FAIL;
    } else if (print_end(&pr)) {
        cli_err("tokenize", "scratch file", "read failed");
        rc = CLI_FAIL;
    }
    lgg_tokenize_stream_free(s);
    if (pr.scratch) fclose(pr.scratch);
    if (in && in != stdin) fclose(in);
    return rc;
}

/* The built-in texts of --compare: scripts, emoji, whitespace, digits,
 * code and contractions, one a line. */
static const char *const COMPARE_TEXTS[] = {
    "Hello world",
    " Hello World!",
    "I've been 'told he's there, 'RE you sure? 'M not sure I'll make it",
    "нещо на Български, Ελληνικά, עברית, العربية, हिन्दी, ไทย, ខ្មែរ",
    "我想在apple工作1314151天～ 日本語のテキスト、カタカナ。한국어 텍스트",
    "🚀 (normal) 😶‍🌫️ (multiple emojis concatenated) ✅ 👩🏽‍💻 🇫🇷",
    "3 33 333 3333 33333 333333 3333333 3.3 3..3 3...3",
    "    indented\t\ttabs   and   spaces   ",
    "def f(x):\treturn x**2  # comment",
    "{\"key\": [1, 2.5, null]} a->b[i] != c; i++",
    "```````""""......!!!!!!??????",
    "Ünïcödé ÀÉÎÕÜ ﬁ ß ẞ İ ı",
    "------======= ___ *** ###",
    "www.example.com/path?q=1&r=2#frag mail@example.org",
};

static int64_t ids_of(const lgg_tokenizer *t, const char *s, size_t n, int32_t **ids, lgg_error *e) {
    unsigned flags = LGG_TOKENIZE_ADD_SPECIAL | LGG_TOKENIZE_PARSE_SPECIAL;
    int64_t k = lgg_tokenize(t, s, n, flags, NULL, 0, e);
    *ids = k >= 0 ? malloc(((size_t)k + 1) * sizeof **ids) : NULL;
    if (k >= 0 && (!*ids || lgg_tokenize(t, s, n, flags, *ids, (size_t)k, e) != k)) {
        snprintf(e->message, sizeof e->message, "out of memory");
        k = -1;
    }
    return k;
}

/* ids from the first difference (a few before it), marked there */
static void print_from(const char *label, const int32_t *ids, int64_t n, int64_t at) {
    int64_t from = at > 3 ? at - 3 : 0;
    printf("  %-10s %s[", label, from ? "... " : "");
    for (int64_t i = from; i < n && i < at + 8; i++) printf("%s%s%d", i > from ? ", " : "", i == at ? ">" : "", (int)ids[i]);
    if (at >= n) printf("%s>(end)", n > from ? ", " : "");
    printf("%s]\n", n > at + 8 ? ", ..." : "");
}

static int compare(const char *dir, const char *gguf, const char *file) {
    lgg_tokenizer *hf = cli_tokenizer_open("tokenize", dir), *gg = hf ? cli_tokenizer_open("tokenize", gguf) : NULL;
    char *text = NULL;
    size_t len = 0;
    if (hf && gg && file) {
        char why[256];
        text = cli_slurp(cli_is_stdin(file) ? "/dev/stdin" : file, &len, why, sizeof why);
        if (!text) cli_err("tokenize", cli_display_name(file), "%s", why);
    }
    if (!hf || !gg || (file && !text)) {
        lgg_tokenizer_free(hf);
        lgg_tokenizer_free(gg);
        return CLI_FAIL;
    }
    size_t n_texts = 0, agree = 0, shown = 0;
    int rc = CLI_OK;
    size_t n_builtin = sizeof COMPARE_TEXTS / sizeof *COMPARE_TEXTS;
    for (size_t off = 0, i = 0; file ? off < len : i < n_builtin; i++) {
        const char *s = file ? text + off : COMPARE_TEXTS[i];
        size_t n = file ? (size_t)((const char *)(memchr(s, '\n', len - off) ? memchr(s, '\n', len - off) : text + len) - s)
                        : strlen(s);
        if (file) off += n + 1;
        int32_t *a = NULL, *b = NULL;
        lgg_error ea, eb;
        memset(&ea, 0, sizeof ea), memset(&eb, 0, sizeof eb);
        int64_t na = ids_of(hf, s, n, &a, &ea), nb = ids_of(gg, s, n, &b, &eb);
        n_texts++;
        int64_t at = 0;
        while (na >= 0 && nb >= 0 && at < na && at < nb && a[at] == b[at]) at++;
        if (na >= 0 && nb >= 0 && na == nb && at == na) {
            agree++;
        } else if (!shown++) {
            printf("text %zu: ", n_texts);
            cli_json_str(stdout, s, n);
            printf("\n");
            if (na < 0 || nb < 0) {
                printf("  %-10s %s\n", "checkpoint", na < 0 ? ea.message : "ok");
                printf("  %-10s %s\n", "gguf", nb < 0 ? eb.message : "ok");
            } else {
                printf("  first difference at token %lld\n", (long long)at);
                print_from("checkpoint", a, na, at);
                print_from("gguf", b, nb, at);
            }
        }
        free(a);
        free(b);
    }
    printf("%zu of %zu texts agree\n", agree, n_texts);
    if (agree != n_texts) rc = CLI_FAIL;
    free(text);
    lgg_tokenizer_free(hf);
    lgg_tokenizer_free(gg);
    return rc;
}

int cmd_tokenize(int argc, char **argv) {
    args a;
    memset(&a, 0, sizeof a);
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &a, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    if (a.flag[OPT_IDS] && a.flag[OPT_JSON])
        return cli_usage_error("tokenize", SPEC.usage, "--ids and --json exclude each other");
    if (a.flag[OPT_COMPARE]) {
        if (n != 2 || a.flag[OPT_IDS] || a.flag[OPT_JSON] || a.flag[OPT_NO_BOS] || a.flag[OPT_NO_PARSE])
            return cli_usage_error("tokenize", SPEC.usage, "--compare takes MODEL_DIR FILE.gguf and -f TEXTS only");
        return compare(argv[1], argv[2], a.file);
    }
    if ((n == 2) == (a.file != NULL))
        return cli_usage_error("tokenize", SPEC.usage, "give the text as TEXT, -f FILE or - (one of them)");
    const char *model = argv[1];
    const char *src = a.file ? a.file : argv[2];
    lgg_tokenizer *t = cli_tokenizer_open("tokenize", model);
    if (!t) return CLI_FAIL;
    unsigned flags = (a.flag[OPT_NO_BOS] ? 0 : LGG_TOKENIZE_ADD_SPECIAL) |
                     (a.flag[OPT_NO_PARSE] ? 0 : LGG_TOKENIZE_PARSE_SPECIAL);
    rc = tokenize_stream(t, &a, flags, src, a.file || cli_is_stdin(src));
    lgg_tokenizer_free(t);
    return rc;
}
