/* gguf.c -- the command-line tool's entry point: dispatches to one file per
 * subcommand.  Uses only the public API (libgguf.h). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const cli_command COMMANDS[] = {
    {"info", "summarise a model file", cmd_info},
    {"dump", "print all metadata and the tensor list (text or --json)", cmd_dump},
    {"tensors", "list tensors: name, type, shape, offset, size", cmd_tensors},
    {"validate", "check files against the GGUF specification", cmd_validate},
    {"cat", "write one tensor's bytes or f32 values", cmd_cat},
    {"stats", "per-tensor value statistics and histogram", cmd_stats},
    {"diff", "compare two files: metadata, tensors, value errors", cmd_diff},
    {"get", "print one metadata value", cmd_get},
    {"set", "add or change metadata values (in place when possible)", cmd_set},
    {"rm", "remove metadata keys", cmd_rm},
    {"copy", "write a canonical copy, optionally in another byte order or version", cmd_copy},
    {"split", "split a model into shards as llama.cpp's gguf-split does", cmd_split},
    {"merge", "merge a shard set back into one file", cmd_merge},
    {"name", "print the file name the naming convention recommends", cmd_name},
    {"quantize", "quantize a model with llama-quantize's presets (same bytes)", cmd_quantize},
    {"estimate", "memory llama.cpp needs to run a model: weights, KV cache, buffers", cmd_estimate},
    {NULL, NULL, NULL},
};

static void usage(FILE *out) {
    fprintf(out, "usage: gguf <command> [options] FILE...\n\ncommands:\n");
    for (const cli_command *c = COMMANDS; c->name; c++) fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\nRun 'gguf <command> --help' for a command's options.\n"
                 "Exit status: 0 success, 1 failure (bad file, missing key, findings with errors), 2 usage error;\n"
                 "'gguf diff' follows diff(1): 0 identical, 1 different, 2 trouble.\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("gguf %s\n", lgg_version());
        return 0;
    }
    for (const cli_command *c = COMMANDS; c->name; c++)
        if (!strcmp(argv[1], c->name)) return c->run(argc - 1, argv + 1);
    fprintf(stderr, "gguf: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
