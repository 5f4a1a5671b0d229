/* cmd_tensors.c -- `gguf tensors FILE [--json]`: name, type, shape, offset
 * and size of each tensor. */
#include "cli.h"

#include <string.h>

static const char USAGE[] = "gguf tensors [--json] FILE";

void cli_tensor_json(FILE *o, const lgg_tensor *t);
void cli_tensor_json(FILE *o, const lgg_tensor *t) {
    fputs("{\"name\": ", o);
    cli_json_str(o, t->name.ptr, t->name.len);
    fprintf(o, ", \"type\": \"%s\", \"shape\": [", cli_type_name(t->type));
    uint32_t nd = t->n_dims ? t->n_dims : 1;
    for (uint32_t d = 0; d < nd; d++) fprintf(o, "%s%lld", d ? ", " : "", (long long)t->ne[d]);
    fprintf(o, "], \"offset\": %llu, \"size\": %llu}", (unsigned long long)t->offset, (unsigned long long)t->size);
}

int cmd_tensors(int argc, char **argv) {
    int json = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            printf("usage: %s\n\nList each tensor: name, type, shape, offset (relative to the data\n"
                   "section) and size in bytes.\n\n  --json   one JSON array of {name, type, shape, offset, size}\n",
                   USAGE);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("tensors", USAGE, "unknown option '%s'", argv[i]);
        else if (path) return cli_usage_error("tensors", USAGE, "more than one FILE");
        else path = argv[i];
    }
    if (!path) return cli_usage_error("tensors", USAGE, "no FILE given");
    lgg_file *f = cli_open("tensors", path);
    if (!f) return CLI_FAIL;
    uint64_t n = lgg_tensor_count(f);
    if (json) {
        fputc('[', stdout);
        for (uint64_t i = 0; i < n; i++) {
            if (i) fputs(", ", stdout);
            cli_tensor_json(stdout, lgg_tensor_at(f, i));
        }
        fputs("]\n", stdout);
    } else {
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
    lgg_close(f);
    return CLI_OK;
}
