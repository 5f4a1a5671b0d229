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

/* Open FILE for a command; on failure print "gguf CMD: FILE: message (offset N)"
 * to stderr and return NULL. */
lgg_file *cli_open(const char *cmd, const char *path);

/* True if argv[i] is --help/-h. */
int cli_is_help(const char *arg);

/* Print a usage error for `cmd` to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- output helpers (cli.c) ---- */
/* JSON string with escapes; invalid UTF-8 becomes U+FFFD. */
void cli_json_str(FILE *o, const char *s, uint64_t n);
/* A value as JSON: numbers exact, floats shortest round-trip, nan/inf as strings. */
void cli_json_value(FILE *o, const lgg_value *v);
/* Text form: strings quoted and escaped (cut at max bytes unless max==0). */
void cli_text_str(FILE *o, const char *s, uint64_t n, uint64_t max);
/* Text form of a value; arrays show the first `max_items` (0 = all). */
void cli_text_value(FILE *o, const lgg_value *v, uint64_t max_items, uint64_t max_str);
/* Shortest decimal that reads back as the same float/double. */
void cli_fmt_f32(char *buf, size_t cap, float x);
void cli_fmt_f64(char *buf, size_t cap, double x);
/* Human byte count: "1.50 GiB". */
void cli_fmt_bytes(char *buf, size_t cap, uint64_t n);
/* Shape "[4096, 32000]". */
void cli_fmt_shape(char *buf, size_t cap, const lgg_tensor *t);
/* Name of a tensor type, "TYPE_<n>" for unknown ids (buffer static per thread). */
const char *cli_type_name(uint32_t type);

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_tensors(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_copy(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_rm(int argc, char **argv);

/* ---- editing (cli_edit.c) ---- */
typedef struct cli_edit {
    const char *path;
    int fd;
    lgg_file *f;
    lgg_writer *w; /* started from f: edit it, then commit */
} cli_edit;
/* Open PATH and start a writer from it; prints a diagnostic and returns
 * CLI_FAIL on failure. */
int cli_edit_open(const char *cmd, const char *path, cli_edit *e);
/* Write the edit: to OUT (never touching PATH), or back into PATH safely
 * (in place when the header keeps its size).  CLI_OK or CLI_FAIL. */
int cli_edit_commit(const char *cmd, cli_edit *e, const char *out);
void cli_edit_close(cli_edit *e);

/* A value parsed from TYPE:VALUE, str@FILE or arr[TYPE]:v1,v2,... text. */
typedef struct cli_val {
    lgg_wvalue v;
    void *store;
    lgg_str *strs;
} cli_val;
/* 1 on success; 0 with a reason in why. */
int cli_val_parse(const char *text, cli_val *v, char *why, size_t cap);
void cli_val_free(cli_val *v);

#endif
