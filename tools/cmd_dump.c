/* cmd_dump.c -- `gguf dump FILE [--json] [--no-tensors] [--full]`: all
 * metadata in file order, then the tensor list.  The JSON shape is a
 * contract (docs/json.md): fields may be added, never changed. */
#include "tool.h"

#include <string.h>

#include "spec_dump.h" /* from tools/spec/dump.txt (scripts/cli-spec.awk) */

/* Where the data section starts.  A file without tensors may end at its
 * header, but ggml and our writer put the data section at the next multiple
 * of the alignment, so that is what a reader is told. */
static uint64_t data_offset(const lgg_file *f) {
    uint64_t off = lgg_file_data_offset(f), a = lgg_file_alignment(f), d;
    if (lgg_tensor_count(f) || !a) return off;
    return __builtin_add_overflow(off, (a - off % a) % a, &d) ? off : d;
}

static void dump_json(lgg_file *f, int tensors) {
    FILE *o = stdout;
    fprintf(o, "{\"version\": %u, \"endian\": \"%s\", \"alignment\": %llu, \"data_offset\": %llu, \"metadata\": [",
            lgg_file_version(f), lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big" : "little",
            (unsigned long long)lgg_file_alignment(f), (unsigned long long)data_offset(f));
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
            (unsigned long long)data_offset(f));
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
    int flags[256] = {0}, n = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    if (flags['j'] && flags['m'])
        return cli_usage_error("dump", SPEC.usage, "--json and --markdown exclude each other");
    lgg_file *f = cli_open("dump", argv[1], CLI_OPEN_INSPECT);
    if (!f) return CLI_FAIL;
    rc = CLI_OK;
    if (flags['j']) dump_json(f, !flags['n']);
    else if (flags['m']) rc = cli_dump_markdown(stdout, argv[1], f, !flags['n']);
    else dump_text(cli_display_name(argv[1]), f, !flags['n'], flags['f']);
    if (!rc) rc = cli_open_status(f);
    lgg_close(f);
    return rc;
}
