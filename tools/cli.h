/* cli.h -- shared by the gguf tool's subcommands (tools/). */
#ifndef LGG_CLI_H
#define LGG_CLI_H

#include "libgguf.h"

#include <stdio.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

#endif
