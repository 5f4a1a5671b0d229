/* cmd_tokenize.c -- `gguf tokenize [--ids | --json] [--no-bos]
 * [--no-parse-special] MODEL (TEXT | -f FILE | -)`: the token ids of a text
 * as llama.cpp b4747 gives them for MODEL's vocabulary (libgguf-tokenize),
 * printed as llama-tokenize prints them. */
#include "cli.h"
#include "libgguf_tokenize.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_IDS = 'i', OPT_JSON = 'j', OPT_NO_BOS = 'b', OPT_NO_PARSE = 'p', OPT_FILE = 'f' };

static const cli_opt OPTS[] = {
    {OPT_IDS, "--ids", NULL, "print the ids only, as [1, 15043, 3186]"},
    {OPT_JSON, "--json", NULL, "print {\"ids\": [...], \"pieces\": [...]}"},
    {OPT_NO_BOS, "--no-bos", NULL, "add no BOS/EOS (llama_tokenize's add_special = false)"},
    {OPT_NO_PARSE, "--no-parse-special", NULL, "take control tokens' texts as plain text"},
    {OPT_FILE, "-f|--file", "FILE", "read the text from FILE (bytes exactly)"},
    {0},
};

static const cli_spec SPEC = {
    "tokenize",
    "gguf tokenize [--ids | --json] [--no-bos] [--no-parse-special] MODEL (TEXT | -f FILE | -)",
    "Print the tokens llama.cpp b4747's llama_tokenize gives for the text with\n"
    "MODEL's vocabulary (a GGUF file, URL or hf:// name): add_special unless\n"
    "--no-bos (BOS and EOS as the file's add_bos/add_eos ask), parse_special\n"
    "unless --no-parse-special.  For a checkpoint folder, the ids transformers'\n"
    "AutoTokenizer gives (tokenizer.json and tokenizer_config.json's rules).\n"
    "TEXT is taken byte for byte, with no escape processing; -f FILE and -\n"
    "(standard input) read bytes exactly.  By default one line per token,\n"
    "`id -> 'piece'`, as llama-tokenize prints them.\n",
    OPTS,
    "Exit status: 0 success, 1 failure (no vocabulary, a text llama.cpp cannot take), 2 usage error.\n",
    1, 2, "MODEL is required",
    0,
};

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

static void print_tokens(const lgg_tokenizer *t, const int32_t *ids, int64_t n, const args *a) {
    if (a->flag[OPT_IDS] || a->flag[OPT_JSON]) {
        fputs(a->flag[OPT_JSON] ? "{\"ids\": [" : "[", stdout);
        for (int64_t i = 0; i < n; i++) printf("%s%d", i ? ", " : "", (int)ids[i]);
        if (!a->flag[OPT_JSON]) {
            fputs("]\n", stdout);
            return;
        }
        fputs("], \"pieces\": [", stdout);
        for (int64_t i = 0; i < n; i++) {
            size_t len = 0;
            const char *p = lgg_token_piece(t, ids[i], &len);
            if (i) fputs(", ", stdout);
            if (p) cli_json_str(stdout, p, len);
            else fputs("null", stdout); /* RWKV's unknown id, -1 */
        }
        fputs("]}\n", stdout);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        size_t len = 0;
        const char *p = lgg_token_piece(t, ids[i], &len);
        printf("%6d -> '", (int)ids[i]);
        if (p) print_piece(p, len);
        fputs("'\n", stdout);
    }
}

int cmd_tokenize(int argc, char **argv) {
    args a;
    memset(&a, 0, sizeof a);
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &a, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    if (a.flag[OPT_IDS] && a.flag[OPT_JSON])
        return cli_usage_error("tokenize", SPEC.usage, "--ids and --json exclude each other");
    if ((n == 2) == (a.file != NULL))
        return cli_usage_error("tokenize", SPEC.usage, "give the text as TEXT, -f FILE or - (one of them)");
    const char *model = argv[1];
    char *text = NULL;
    size_t len = 0;
    const char *src = a.file ? a.file : argv[2];
    if (a.file || cli_is_stdin(src)) {
        char why[256];
        text = cli_slurp(cli_is_stdin(src) ? "/dev/stdin" : src, &len, why, sizeof why);
        if (!text) {
            cli_err("tokenize", cli_display_name(src), "%s", why);
            return CLI_FAIL;
        }
    }
    const char *s = text ? text : src;
    if (!text) len = strlen(s);
    lgg_tokenizer *t = cli_tokenizer_open("tokenize", model);
    if (!t) {
        free(text);
        return CLI_FAIL;
    }
    unsigned flags = (a.flag[OPT_NO_BOS] ? 0 : LGG_TOKENIZE_ADD_SPECIAL) |
                     (a.flag[OPT_NO_PARSE] ? 0 : LGG_TOKENIZE_PARSE_SPECIAL);
    lgg_error e;
    memset(&e, 0, sizeof e);
    int64_t k = lgg_tokenize(t, s, len, flags, NULL, 0, &e);
    int32_t *ids = k > 0 ? malloc((size_t)k * sizeof *ids) : NULL;
    if (k > 0 && (!ids || lgg_tokenize(t, s, len, flags, ids, (size_t)k, &e) != k)) {
        if (!ids) snprintf(e.message, sizeof e.message, "out of memory");
        k = -1;
    }
    if (k < 0) {
        /* the offset is in the text, not in MODEL: say so */
        cli_err("tokenize", a.file || text ? cli_display_name(src) : "TEXT", "%s", e.message);
        rc = CLI_FAIL;
    } else {
        print_tokens(t, ids, k, &a);
    }
    free(ids);
    free(text);
    lgg_tokenizer_free(t);
    return rc;
}
