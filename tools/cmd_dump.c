/* cmd_dump.c -- `gguf dump FILE [--json] [--no-tensors] [--full]`: all
 * metadata in file order, then the tensor list.  The JSON shape is a
 * contract (docs/json.md): fields may be added, never changed. */
#include "cli.h"

#include <string.h>

static const char USAGE[] = "gguf dump [--json] [--no-tensors] [--full] FILE";

void cli_tensor_json(FILE *o, const lgg_tensor *t);

static void dump_json(lgg_file *f, int tensors) {
    FILE *o = stdout;
    fprintf(o, "{\"version\": %u, \"endian\": \"%s\", \"alignment\": %llu, \"data_offset\": %llu, \"metadata\": [",
            lgg_file_version(f), lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big" : "little",
            (unsigned long long)lgg_file_alignment(f), (unsigned long long)lgg_file_data_offset(f));
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        fputs(i ? ",\n  {\"key\": " : "\n  {\"key\": ", o);
        cli_json_str(o, kv->key.ptr, kv->key.len);
        fprintf(o, ", \"type\": \"%s\", \"value\": ", lgg_vtype_name(kv->value.type));
        cli_json_value(o, &kv->value);
        fputc('}', o);
    }
    fputs(lgg_kv_count(f) ? "\n], \"tensors\": [" : "], \"tensors\": [", o);
    uint64_t n = tensors ? lgg_tensor_count(f) : 0;
    for (uint64_t i = 0; i < n; i++) {
        fputs(i ? ",\n  " : "\n  ", o);
        cli_tensor_json(o, lgg_tensor_at(f, i));
    }
    fputs(n ? "\n]}\n" : "]}\n", o);
}

static void dump_text(const char *path, lgg_file *f, int tensors, int full) {
    FILE *o = stdout;
    fprintf(o, "file: %s\n", path);
    fprintf(o, "version: %u, %s-endian, alignment %llu, data offset %llu\n", lgg_file_version(f),
            lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big" : "little", (unsigned long long)lgg_file_alignment(f),
            (unsigned long long)lgg_file_data_offset(f));
    fprintf(o, "metadata: %llu\n", (unsigned long long)lgg_kv_count(f));
    for (uint64_t i = 0; i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        fputs("  ", o);
        /* keys are ASCII in valid files; escape anything else */
        for (uint64_t j = 0; j < kv->key.len; j++) {
            unsigned char c = (unsigned char)kv->key.ptr[j];
            if (c < 0x20 || c >= 0x7f) fprintf(o, "\\x%02x", c);
            else fputc(c, o);
        }
        if (kv->value.type == LGG_VT_ARRAY)
            fprintf(o, ": array[%s] (%llu) = ", lgg_vtype_name(kv->value.elem_type), (unsigned long long)kv->value.count);
        else fprintf(o, ": %s = ", lgg_vtype_name(kv->value.type));
        cli_text_value(o, &kv->value, full ? 0 : 8, full ? 0 : 200);
        fputc('\n', o);
    }
    if (!tensors) return;
    fprintf(o, "tensors: %llu\n", (unsigned long long)lgg_tensor_count(f));
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        char shape[128];
        cli_fmt_shape(shape, sizeof shape, t);
        fputs("  ", o);
        cli_text_str(o, t->name.ptr, t->name.len, 0);
        fprintf(o, " %s %s offset %llu size %llu\n", cli_type_name(t->type), shape, (unsigned long long)t->offset,
                (unsigned long long)t->size);
    }
}

int cmd_dump(int argc, char **argv) {
    int json = 0, tensors = 1, full = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (cli_is_help(argv[i])) {
            printf("usage: %s\n\nPrint all metadata in file order, then the tensor list.\n\n"
                   "  --json        complete JSON (see gguf(1) for the shape)\n"
                   "  --no-tensors  leave out the tensor list\n"
                   "  --full        do not shorten long arrays and strings in the text form\n",
                   USAGE);
            return CLI_OK;
        }
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (!strcmp(argv[i], "--no-tensors")) tensors = 0;
        else if (!strcmp(argv[i], "--full")) full = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_usage_error("dump", USAGE, "unknown option '%s'", argv[i]);
        else if (path) return cli_usage_error("dump", USAGE, "more than one FILE");
        else path = argv[i];
    }
    if (!path) return cli_usage_error("dump", USAGE, "no FILE given");
    lgg_file *f = cli_open("dump", path);
    if (!f) return CLI_FAIL;
    if (json) dump_json(f, tensors);
    else dump_text(path, f, tensors, full);
    lgg_close(f);
    return CLI_OK;
}
