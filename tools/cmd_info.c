/* cmd_info.c -- `gguf info FILE`: a human summary of a model file. */
#include "cli.h"

#include <string.h>

static const char USAGE[] = "gguf info FILE";

static void print_str_key(lgg_file *f, const char *label, const char *key) {
    lgg_value v;
    lgg_str s;
    if (lgg_get(f, key, &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK) {
        printf("%-16s", label);
        cli_text_str(stdout, s.ptr, s.len, 120);
        putchar('\n');
    }
}

static bool has_sub(lgg_str s, const char *sub) {
    size_t n = strlen(sub);
    for (uint64_t i = 0; i + n <= s.len; i++)
        if (!memcmp(s.ptr + i, sub, n)) return true;
    return false;
}

int cmd_info(int argc, char **argv) {
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            printf("usage: %s\n\nSummarise FILE: version, byte order, alignment, architecture, name,\n"
                   "parameter count and size label, file type, bits per weight, tensors by\n"
                   "type, and data size.\n",
                   USAGE);
            return CLI_OK;
        }
        if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("info", USAGE, "unknown option '%s'", argv[i]);
        if (path) return cli_usage_error("info", USAGE, "more than one FILE");
        path = argv[i];
    }
    if (!path) return cli_usage_error("info", USAGE, "no FILE given");
    lgg_file *f = cli_open("info", path);
    if (!f) return CLI_FAIL;

    char b[64];
    printf("%-16s%s\n", "file:", path);
    printf("%-16s%u\n", "version:", lgg_file_version(f));
    printf("%-16s%s\n", "byte order:", lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big-endian" : "little-endian");
    printf("%-16s%llu\n", "alignment:", (unsigned long long)lgg_file_alignment(f));
    print_str_key(f, "architecture:", "general.architecture");
    print_str_key(f, "name:", "general.name");

    /* parameters; with experts, the label counts one expert's path */
    uint64_t params = lgg_parameter_count(f), expert_params = 0, data = 0;
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        if (t->type_known && has_sub(t->name, "_exps.")) expert_params += t->n_elements;
        data += t->size;
    }
    uint32_t experts = 0;
    lgg_value v;
    lgg_str arch = {NULL, 0};
    if (lgg_get(f, "general.architecture", &v) == LGG_OK) lgg_value_string(&v, &arch);
    if (arch.len && arch.len < 200) {
        char key[256];
        snprintf(key, sizeof key, "%.*s.expert_count", (int)arch.len, arch.ptr);
        uint64_t e;
        if (lgg_get(f, key, &v) == LGG_OK && lgg_value_uint(&v, &e) == LGG_OK && e < UINT32_MAX) experts = (uint32_t)e;
    }
    uint64_t path_params = experts > 1 ? params - expert_params + expert_params / experts : params;
    lgg_size_label(path_params, experts, b, sizeof b);
    printf("%-16s%llu\n", "parameters:", (unsigned long long)params);
    if (params) printf("%-16s%s\n", "size label:", b);
    print_str_key(f, "label in file:", "general.size_label");

    uint64_t ft;
    if (lgg_get(f, "general.file_type", &v) == LGG_OK && lgg_value_uint(&v, &ft) == LGG_OK) {
        const char *n = ft <= UINT32_MAX ? lgg_file_type_name((uint32_t)ft) : NULL;
        printf("%-16s%s (%llu)\n", "file type:", n ? n : "unknown", (unsigned long long)ft);
    }
    if (params) printf("%-16s%.2f\n", "bits/weight:", (double)data * 8.0 / (double)params);

    /* tensors by type, in type-id order */
    printf("%-16s%llu", "tensors:", (unsigned long long)lgg_tensor_count(f));
    uint64_t count[LGG_TYPE_COUNT + 1];
    memset(count, 0, sizeof count);
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        uint32_t t = lgg_tensor_at(f, i)->type;
        count[t < LGG_TYPE_COUNT ? t : LGG_TYPE_COUNT]++;
    }
    int first = 1;
    for (uint32_t t = 0; t <= LGG_TYPE_COUNT; t++) {
        if (!count[t]) continue;
        printf("%s%s: %llu", first ? " (" : ", ", t < LGG_TYPE_COUNT ? lgg_type_name(t) : "unknown",
               (unsigned long long)count[t]);
        first = 0;
    }
    printf("%s\n", first ? "" : ")");
    cli_fmt_bytes(b, sizeof b, data);
    printf("%-16s%s (%llu bytes)\n", "data size:", b, (unsigned long long)data);
    cli_fmt_bytes(b, sizeof b, lgg_file_size(f));
    printf("%-16s%s (%llu bytes)\n", "file size:", b, (unsigned long long)lgg_file_size(f));
    printf("%-16s%llu\n", "metadata:", (unsigned long long)lgg_kv_count(f));
    lgg_close(f);
    return CLI_OK;
}
