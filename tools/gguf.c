/* gguf.c -- the command-line tool's entry point: dispatches to one file per
 * subcommand.  Uses only the public API (libgguf.h). */
#include "tool.h"

#include <errno.h>
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
    {"get", "print metadata values (arrays by index too)", cmd_get},
    {"set", "add or change metadata values (in place when possible)", cmd_set},
    {"rm", "remove metadata keys", cmd_rm},
    {"copy", "write a canonical copy, optionally in another byte order or version", cmd_copy},
    {"split", "split a model into shards as llama.cpp's gguf-split does", cmd_split},
    {"merge", "merge a shard set back into one file", cmd_merge},
    {"name", "print the file name the naming convention recommends", cmd_name},
    {"quantize", "quantize a model with llama-quantize's presets (same bytes)", cmd_quantize},
    {"hash", "hash tensors and the model as llama-gguf-hash does; --check a manifest", cmd_hash},
    {"verify", "check that downloaded files are complete (and their sha256)", cmd_verify},
    {"convert", "convert a Hugging Face checkpoint to GGUF (same bytes as convert_hf_to_gguf.py)", cmd_convert},
    {"estimate", "memory llama.cpp needs to run a model: weights, KV cache, buffers", cmd_estimate},
    {"download", "download a model (or a shard set) over HTTP or from hf://, resumably", cmd_download},
    {"tokenize", "token ids of a text as llama.cpp gives them for the model's vocabulary", cmd_tokenize},
    {"detokenize", "the text token ids stand for", cmd_detokenize},
    {"ls", "list a Hugging Face repository's files and its GGUF quantizations", cmd_ls},
    {NULL, NULL, NULL},
};

static void usage(FILE *out) {
    fprintf(out, "usage: gguf <command> [options] FILE...\n\ncommands:\n");
    for (const cli_command *c = COMMANDS; c->name; c++) fprintf(out, "  %-10s %s\n", c->name, c->summary);
    fprintf(out, "\nRun 'gguf <command> --help' for a command's options.\n"
                 "Exit status: 0 success, 1 failure (bad file, missing key, findings with errors), 2 usage error;\n"
                 "'gguf diff' follows diff(1): 0 identical, 1 different, 2 trouble.\n");
}

static const cli_command *find(const char *name) {
    for (const cli_command *c = COMMANDS; c->name; c++)
        if (!strcmp(name, c->name)) return c;
    return NULL;
}

static int unknown(const char *name) {
    cli_near n;
    cli_near_init(&n, name);
    for (const cli_command *c = COMMANDS; c->name; c++) cli_near_add(&n, c->name, strlen(c->name));
    if (n.best) fprintf(stderr, "gguf: unknown command '%s'; did you mean '%s'? (gguf --help lists them)\n", name, n.best);
    else fprintf(stderr, "gguf: unknown command '%s' (gguf --help lists the commands)\n", name);
    return CLI_USAGE;
}

/* gguf help --man TEMPLATE: gguf(1) on stdout, from TEMPLATE (docs/gguf.1.in)
 * and the commands' option tables.  TEMPLATE is roff; a line "@command NAME"
 * becomes NAME's section heading and synopsis (its usage), "@options NAME"
 * its options (its table), "@common-options" --token and --timeout, and
 * "@VERSION@" the library's version.  Every command must have its two lines:
 * a command the page leaves out, or a name that is no command, fails. */
static int man_page(const char *template) {
    FILE *f = fopen(template, "r");
    if (!f) {
        cli_err("help", template, "cannot open: %s", strerror(errno));
        return CLI_FAIL;
    }
    enum { N = sizeof COMMANDS / sizeof COMMANDS[0] };
    int seen[N][2] = {{0}}, rc = CLI_OK;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\n");
        line[len] = 0;
        int part = !strncmp(line, "@command ", 9) ? CLI_MAN_SYNOPSIS : !strncmp(line, "@options ", 9) ? CLI_MAN_OPTIONS : 0;
        if (part) {
            const cli_command *c = find(line + 9);
            if (!c) {
                cli_err("help", template, "'%s': no such command", line);
                rc = CLI_FAIL;
                continue;
            }
            seen[c - COMMANDS][part - 1]++;
            char *args[] = {(char *)c->name, (char *)"--help", NULL};
            fflush(stdout);
            cli_man_mode(part);
            c->run(2, args);
            cli_man_mode(CLI_MAN_OFF);
            continue;
        }
        if (!strcmp(line, "@common-options")) {
            cli_man_common_options();
            continue;
        }
        char *v = strstr(line, "@VERSION@");
        if (v) {
            *v = 0;
            printf("%s%s%s\n", line, lgg_version(), v + 9);
            continue;
        }
        puts(line);
    }
    fclose(f);
    for (const cli_command *c = COMMANDS; c->name; c++)
        for (int k = 0; k < 2; k++)
            if (seen[c - COMMANDS][k] != 1) {
                cli_err("help", template, "'@%s %s' is there %d times, not once", k ? "options" : "command", c->name,
                        seen[c - COMMANDS][k]);
                rc = CLI_FAIL;
            }
    return rc;
}

int main(int argc, char **argv) {
    cli_remote_install();
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || (!strcmp(argv[1], "help") && argc == 2)) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("gguf %s\n", lgg_version());
        return 0;
    }
    if (!strcmp(argv[1], "help") && !strcmp(argv[2], "--man")) { /* not advertised: writes docs/gguf.1 */
        if (argc != 4) {
            fprintf(stderr, "usage: gguf help --man TEMPLATE (docs/gguf.1.in; scripts/make-man.sh)\n");
            return CLI_USAGE;
        }
        return man_page(argv[3]);
    }
    if (!strcmp(argv[1], "help")) { /* gguf help CMD is gguf CMD --help */
        const cli_command *c = find(argv[2]);
        if (!c) return unknown(argv[2]);
        char *args[] = {argv[2], (char *)"--help", NULL};
        return c->run(2, args);
    }
    const cli_command *c = find(argv[1]);
    return c ? c->run(argc - 1, argv + 1) : unknown(argv[1]);
}
