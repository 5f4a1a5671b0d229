/* cmd_detokenize.c -- `gguf detokenize MODEL (ID... | -)`: the text token ids
 * stand for, as llama.cpp b4747's llama_detokenize gives it (special tokens
 * spelled out, nothing removed). */
#include "tool.h"
#include "libgguf_tokenize.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spec_detokenize.h" /* from tools/spec/detokenize.txt (scripts/cli-spec.awk) */

/* the ids of one operand ("15043", "[1,", "2]", "3,4") or of standard
 * input's text appended to v */
static int parse_ids(const char *s, int32_t **v, size_t *n, size_t *cap) {
    while (*s) {
        if (strchr("[], \t\n\r", *s)) {
            s++;
            continue;
        }
        char *end;
        errno = 0;
        long x = strtol(s, &end, 10);
        if (end == s || errno || x < INT32_MIN || x > INT32_MAX) return -1;
        if (!cli_grow((void **)v, cap, *n + 1, sizeof **v, 64)) return -2;
        (*v)[(*n)++] = (int32_t)x;
        s = end;
    }
    return 0;
}

/* "-": the ids of standard input's text (-3: not ids, -4: unreadable). */
static int parse_stdin(int32_t **v, size_t *n, size_t *cap) {
    size_t len = 0;
    char why[256];
    char *text = cli_slurp_stream(stdin, &len, why, sizeof why);
    if (!text) {
        cli_err("detokenize", "-", "%s", why);
        return -4;
    }
    char *z = realloc(text, len + 1);
    if (!z) {
        free(text);
        return -2;
    }
    z[len] = 0;
    int r = strlen(z) != len ? -1 : parse_ids(z, v, n, cap);
    free(z);
    return r == -1 ? -3 : r;
}

int cmd_detokenize(int argc, char **argv) {
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, NULL, NULL, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    int32_t *ids = NULL;
    size_t n_ids = 0, cap = 0;
    for (int i = 2; i <= n; i++) {
        int r = cli_is_stdin(argv[i]) ? parse_stdin(&ids, &n_ids, &cap) : parse_ids(argv[i], &ids, &n_ids, &cap);
        if (r == -1) {
            free(ids);
            return cli_usage_error("detokenize", SPEC.usage, "'%s' is not a token id", argv[i]);
        }
        if (r == -3) {
            free(ids);
            return cli_usage_error("detokenize", SPEC.usage, "standard input holds something other than token ids");
        }
        if (r == -4) {
            free(ids);
            return CLI_FAIL; /* said why */
        }
        if (r == -2) {
            free(ids);
            cli_err("detokenize", NULL, "out of memory");
            return CLI_FAIL;
        }
    }
    lgg_tokenizer *t = cli_tokenizer_open("detokenize", argv[1]);
    if (!t) {
        free(ids);
        return CLI_FAIL;
    }
    lgg_error e;
    memset(&e, 0, sizeof e);
    int64_t k = lgg_detokenize(t, ids, n_ids, LGG_DETOKENIZE_UNPARSE_SPECIAL, NULL, 0, &e);
    char *text = k > 0 ? malloc((size_t)k) : NULL;
    if (k > 0 && (!text || lgg_detokenize(t, ids, n_ids, LGG_DETOKENIZE_UNPARSE_SPECIAL, text, (size_t)k, &e) != k)) {
        if (!text) snprintf(e.message, sizeof e.message, "out of memory");
        k = -1;
    }
    if (k < 0) {
        cli_err("detokenize", cli_display_name(argv[1]), "%s", e.message);
        rc = CLI_FAIL;
    } else {
        fwrite(text, 1, (size_t)k, stdout);
        putchar('\n');
    }
    free(text);
    free(ids);
    lgg_tokenizer_free(t);
    return rc;
}
