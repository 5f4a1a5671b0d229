/* cmd_get.c -- `gguf get [--json] FILE KEY...`: values on stdout, one per
 * line; KEY may index into arrays, as tokenizer.ggml.tokens[5]. */
#include "tool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spec_get.h" /* from tools/spec/get.txt (scripts/cli-spec.awk) */

/* Split "name[3][-1]" into the key and its indices; 0 if the text after the
 * key is not a list of [integer]. */
static int parse_path(const char *text, size_t *key_len, long long *idx, int *n_idx) {
    const char *b = strchr(text, '[');
    *key_len = b ? (size_t)(b - text) : strlen(text);
    *n_idx = 0;
    while (b && *b) {
        char *end;
        if (*b != '[' || *n_idx == 8) return 0;
        errno = 0;
        idx[(*n_idx)++] = strtoll(b + 1, &end, 10);
        if (end == b + 1 || *end != ']' || errno) return 0;
        b = end + 1;
    }
    return 1;
}

/* The value KEY names in f; prints why not and returns 0 if it has none. */
static int lookup(const lgg_file *f, const char *path, const char *text, lgg_value *out) {
    size_t kl;
    long long idx[8];
    int ni;
    if (!parse_path(text, &kl, idx, &ni)) {
        cli_err("get", path, "'%s': an index is written [N]", text);
        return 0;
    }
    int64_t k = lgg_find_key(f, text, kl);
    if (k < 0) {
        cli_err("get", path, "no key '%.*s'", (int)kl, text);
        return 0;
    }
    *out = lgg_kv_at(f, (uint64_t)k)->value;
    for (int i = 0; i < ni; i++) {
        if (out->type != LGG_VT_ARRAY) {
            cli_err("get", path, "'%s': not an array at index %d", text, i + 1);
            return 0;
        }
        long long j = idx[i] < 0 ? (long long)out->count + idx[i] : idx[i];
        lgg_value e;
        if (j < 0 || (uint64_t)j >= out->count || lgg_array_get(out, (uint64_t)j, &e) != LGG_OK) {
            cli_err("get", path, "'%s': index %lld out of range (%llu elements)", text, idx[i],
                    (unsigned long long)out->count);
            return 0;
        }
        *out = e;
    }
    return 1;
}

int cmd_get(int argc, char **argv) {
    int flags[256] = {0}, n = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *path = argv[1];
    lgg_file *f = cli_open("get", path, CLI_OPEN_META);
    if (!f) return CLI_FAIL;
    const int json = flags['j'], object = json && n > 2;
    if (object) fputc('{', stdout);
    for (int i = 2; i <= n; i++) {
        lgg_value v;
        if (!lookup(f, path, argv[i], &v)) {
            rc = CLI_FAIL;
            continue;
        }
        if (object) {
            fputs(i > 2 ? ", " : "", stdout);
            cli_json_str(stdout, argv[i], strlen(argv[i]));
            fputs(": ", stdout);
        }
        if (json) cli_json_value(stdout, &v);
        else if (v.type == LGG_VT_STRING) fwrite(v.data, 1, (size_t)v.count, stdout);
        else cli_text_value(stdout, &v, 0, 0);
        if (!object) fputc('\n', stdout);
    }
    if (object) fputs("}\n", stdout);
    lgg_close(f);
    if (fflush(stdout) != 0) rc = CLI_FAIL;
    return rc;
}
