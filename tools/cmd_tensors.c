/* cmd_tensors.c -- `gguf tensors [--json] FILE...`: name, type, shape,
 * offset and size of each tensor. */
#include "tool.h"

#include <string.h>

#include "spec_tensors.h" /* from tools/spec/tensors.txt (scripts/cli-spec.awk) */

static void print_json(const lgg_file *f) {
    uint64_t n = lgg_tensor_count(f);
    fputc('[', stdout);
    for (uint64_t i = 0; i < n; i++) {
        if (i) fputs(", ", stdout);
        cli_tensor_json(stdout, lgg_tensor_at(f, i));
    }
    fputs("]\n", stdout);
}

static void print_text(const lgg_file *f) {
    uint64_t n = lgg_tensor_count(f);
    size_t w = 4;
    for (uint64_t i = 0; i < n; i++)
        if (lgg_tensor_at(f, i)->name.len > w) w = (size_t)lgg_tensor_at(f, i)->name.len;
    if (w > 64) w = 64;
    printf("%-*s  %-8s  %-24s  %12s  %12s\n", (int)w, "name", "type", "shape", "offset", "size");
    for (uint64_t i = 0; i < n; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        char shape[128];
        cli_fmt_shape(shape, sizeof shape, t);
        char name[300];
        size_t k = 0;
        for (uint64_t j = 0; j < t->name.len && k + 5 < sizeof name; j++) {
            unsigned char c = (unsigned char)t->name.ptr[j];
            if (c < 0x20 || c == 0x7f) k += (size_t)snprintf(name + k, sizeof name - k, "\\x%02x", c);
            else name[k++] = (char)c;
        }
        name[k] = 0;
        printf("%-*s  %-8s  %-24s  %12llu  %12llu\n", (int)w, name, cli_type_name(t->type), shape,
               (unsigned long long)t->offset, (unsigned long long)t->size);
    }
}

int cmd_tensors(int argc, char **argv) {
    int flags[256] = {0}, n = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    for (int i = 1; i <= n; i++) {
        lgg_file *f = cli_open("tensors", argv[i], CLI_OPEN_INSPECT);
        if (!f) {
            rc = CLI_FAIL;
            continue;
        }
        if (flags['j']) print_json(f);
        else {
            if (n > 1) printf("%s%s:\n", i > 1 ? "\n" : "", cli_display_name(argv[i]));
            print_text(f);
        }
        if (cli_open_status(f)) rc = CLI_FAIL;
        lgg_close(f);
    }
    return rc;
}
