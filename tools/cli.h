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

/* ---- tensor data (cli_data.c) ---- */
/* Why a tensor's values cannot be read ("has an unknown or removed type"),
 * or NULL when they can. */
const char *cli_data_problem(const lgg_tensor *t);
/* Elements per block of the tensor's type (1 for plain and unknown types). */
uint64_t cli_block_size(const lgg_tensor *t);
/* Elements to convert at a time: whole rows of row_len when they fit in cap,
 * else a multiple of unit (a block size) no larger than cap, at least unit. */
uint64_t cli_chunk_elems(uint64_t row_len, uint64_t unit, uint64_t cap);
/* Elements [first, first+n) of t as f32; first and n are multiples of the
 * block size. */
lgg_status cli_dequant_range(const lgg_file *f, const lgg_tensor *t, uint64_t first, uint64_t n, float *dst);
/* Floats converted per chunk: 16 MiB of output, or LGG_CHUNK_FLOATS from
 * the environment (a smaller memory bound; the tests use it to reach the
 * multi-chunk and part-of-a-row paths with small files). */
uint64_t cli_chunk_floats(void);

/* A percentage on stderr, redrawn at most five times a second, only when
 * stderr is a terminal. */
typedef struct cli_progress {
    const char *cmd;
    uint64_t total, done;
    double last;
    int on, shown;
} cli_progress;
void cli_progress_init(cli_progress *p, const char *cmd, uint64_t total);
void cli_progress_add(cli_progress *p, uint64_t n);
void cli_progress_end(cli_progress *p);
/* A double as JSON: shortest round-trip, "nan"/"inf"/"-inf" as strings. */
void cli_json_f64(FILE *o, double x);
/* A tensor's shape as a JSON array. */
void cli_json_shape(FILE *o, const lgg_tensor *t);
/* A tensor name or key for text output, control bytes as \xNN. */
void cli_text_name(FILE *o, lgg_str s);

int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_tensors(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_cat(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_copy(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_rm(int argc, char **argv);
int cmd_split(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_name(int argc, char **argv);
int cmd_quantize(int argc, char **argv);
int cmd_estimate(int argc, char **argv);

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
