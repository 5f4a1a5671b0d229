/* cli.h -- the CLI's part (tools/common/): argument tables, diagnostics,
 * opening files, value renderings, tensor data, inputs and outputs, edits.
 * The gguf tool (tools/), the web editor (web/) and the fuzz targets (fuzz/)
 * build on it; it uses only libgguf's public API.  Remote names reach it
 * through hooks the tool sets (cli_remote_hooks_set), so it does not depend
 * on libgguf-remote. */
#ifndef LGG_CLI_H
#define LGG_CLI_H

#include "libgguf.h"

#include <signal.h>
#include <stdio.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* ---- arguments (cli_args.c) ----
 * Each command describes its options in one table and calls cli_parse once:
 * options and operands in any order, "--name=value" or "--name value",
 * "--" ends the options, "-" is an operand (standard input), --help/-h
 * anywhere prints the help (generated from the table) and exits 0. */
enum { CLI_HELP = -1 };
typedef struct cli_opt {
    int id;            /* passed to the command's handler */
    const char *names; /* spellings separated by '|': "-o|--output" */
    const char *arg;   /* the value's name ("OUT"), or NULL for a flag; "[=OUT]": an
                          optional value, given only as --name=OUT (else NULL);
                          "[on|off]": optional, as --name=VALUE or as the next
                          argument when that is one of the words (llama.cpp's -fa) */
    const char *help;  /* help text (lines after the first are indented);
                          NULL: an alias accepted for scripts, not listed */
} cli_opt;
typedef struct cli_spec {
    const char *cmd;     /* "info" */
    const char *usage;   /* "gguf info [--json] FILE..." */
    const char *about;   /* paragraph(s) after the usage line, ending in \n */
    const cli_opt *opts; /* ends with a {0} row */
    const char *epilog;  /* after the options: exit status and notes */
    int min_pos, max_pos;/* operands allowed (max -1: any number) */
    const char *missing; /* the usage error when there are too few operands */
    int operands_to_fn;  /* also pass each operand to the handler, as id
                            CLI_OPERAND, in order among the options */
} cli_spec;
enum { CLI_OPERAND = 0 };
/* Called once per option, in command-line order: 0 to go on, or non-zero
 * with a reason in `why` for a usage error. */
typedef int (*cli_opt_fn)(void *ud, int id, const char *val, char *why, size_t cap);
/* CLI_OK with the operands moved to argv[1..*n_pos], CLI_HELP after printing
 * the help (the command returns CLI_OK), or CLI_USAGE after printing the
 * usage error. */
int cli_parse(const cli_spec *s, int argc, char **argv, cli_opt_fn fn, void *ud, int *n_pos);
void cli_help(const cli_spec *s);
/* gguf(1) is written from the same tables (gguf help --man TEMPLATE): while
 * a part is set, a command's --help prints that part of its entry in roff
 * (its ".SS" heading and synopsis, or its options as ".TP" items) and
 * cli_parse returns CLI_USAGE, so the command prints nothing else. */
enum { CLI_MAN_OFF = 0, CLI_MAN_SYNOPSIS, CLI_MAN_OPTIONS };
void cli_man_mode(int part);
void cli_man_common_options(void); /* --token, --timeout */
void cli_roff_text(const char *s);  /* text with roff's escapes, to stdout */
/* A handler for commands whose options are all flags: sets ((int *)ud)[id]
 * (ids below 256). */
int cli_flag_opt(void *ud, int id, const char *val, char *why, size_t cap);
/* snprintf into why; returns 1 (the handler's usage-error result). */
int cli_why(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "Did you mean": the candidate nearest to a mistyped name (commands,
 * options, presets, tensor names), by edit distance with a swap of two
 * neighbours as one edit and ASCII case ignored; on a tie, the one nearer
 * with '-', '_' and '.' left out.  Near enough: one edit (when the name has
 * two bytes or more), or two for a name of five bytes or more.  best is
 * NULL when no candidate is; cli_near_hint is "; did you mean 'X'?" or "". */
typedef struct cli_near {
    const char *name;
    const char *best;
    size_t best_len, d, d2;
    char hint[160];
} cli_near;
void cli_near_init(cli_near *n, const char *name);
void cli_near_add(cli_near *n, const char *cand, size_t len);
const char *cli_near_hint(cli_near *n);
/* "no tensor named 'X'" for a name f does not have, with the hint. */
void cli_err_no_tensor(const char *cmd, const char *path, const lgg_file *f, const char *name);
/* Decimal unsigned; 0 if s is not one. */
int cli_parse_u64(const char *s, uint64_t *v);
/* The one size parser: N, NK NM NG NT (either case) in the command's unit,
 * powers of 1000 (binary == 0) or 1024; NKB..NTB always powers of 1000,
 * NKiB..NTiB always powers of 1024.  1, or 0 when s is not a size. */
int cli_parse_size(const char *s, int binary, uint64_t *v);
/* The same for option `opt` of `cmd`: a bare K/M/G/T gets a note on stderr
 * saying which unit it meant and how to write the other. */
int cli_size_option(const char *cmd, const char *opt, const char *s, int binary, uint64_t *v);

/* ---- diagnostics: one shape, "gguf CMD: FILE: message" ---- */
void cli_err(const char *cmd, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A library error: its message, and the byte offset where it has one. */
void cli_err_lgg(const char *cmd, const char *file, const lgg_error *e);
/* "the file is truncated: " for an error that says a file ends too soon
 * (LGG_ERR_TRUNCATED) without saying "truncated", else "". */
const char *cli_truncated_lead(const lgg_error *e);
/* Print a usage error for `cmd` to stderr; returns CLI_USAGE. */
int cli_usage_error(const char *cmd, const char *usage, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "-" is standard input, shown as "<stdin>". */
int cli_is_stdin(const char *path);
const char *cli_display_name(const char *path);

/* ---- opening ---- */
/* Metadata commands open truncated and metadata-only files (one warning on
 * stderr says what is missing); data commands need every byte.  Inspection
 * commands (dump, info, tensors) also open a file whose tensor table is bad
 * only in where the data lies: the error goes to stderr, the header is
 * shown, and the command exits 1 (cli_open_status).  The values are flags:
 * CLI_OPEN_HEADER reads only the header of a local file, with pread
 * (estimate: no whole-file mapping); CLI_OPEN_INSPECT includes META. */
enum { CLI_OPEN_DATA = 0, CLI_OPEN_META = 1, CLI_OPEN_HEADER = 2, CLI_OPEN_INSPECT = 4 | CLI_OPEN_META };
/* CLI_FAIL when f, opened for inspection, has a bad tensor table, else CLI_OK. */
int cli_open_status(const lgg_file *f);
/* Open FILE ("-": standard input) for a command; on failure print
 * "gguf CMD: FILE: message" and return NULL. */
lgg_file *cli_open(const char *cmd, const char *path, int how);
/* lgg_open_fd for a command: the header alone through pread when `how` has
 * CLI_OPEN_HEADER, or when mapping the whole file fails (ulimit -v...); then
 * *header is true, fd must stay open while *f is, and a command reads a
 * tensor's data through cli_data_fetch. */
lgg_status cli_open_local(int fd, const lgg_open_options *o, int how, lgg_file **f, lgg_error *e, bool *header);
/* The same for a path ("-": standard input), without a message. */
lgg_status cli_open_path(const char *path, const lgg_open_options *o, int how, lgg_file **f, lgg_error *e);
/* What a local path is, for pointing between `gguf convert` and the GGUF
 * readers: CLI_PATH_CHECKPOINT a directory holding config.json (a Hugging
 * Face checkpoint folder), CLI_PATH_SAFETENSORS a safetensors file (an
 * 8-byte header size, then '{'), CLI_PATH_DIR another directory,
 * CLI_PATH_OTHER anything else (CLI_PATH_MISSING: stat failed, errno set). */
enum { CLI_PATH_MISSING, CLI_PATH_OTHER, CLI_PATH_DIR, CLI_PATH_CHECKPOINT, CLI_PATH_SAFETENSORS };
int cli_path_kind(const char *path);
/* For a checkpoint folder or a safetensors file: "gguf CMD: PATH is ...,
 * not a GGUF file: convert it with `gguf convert DIR`" (`what`: "a GGUF
 * file", or what else the command wanted) and 1; else 0, nothing printed. */
int cli_hint_convert(const char *cmd, const char *path, const char *what);
/* ---- remote files, through the tool's hooks ----
 * The tool sets these once, before any command runs (cli_remote.c): then
 * cli_open takes URLs and hf:// names (is_remote says which names are;
 * open opens one for a command, printing why it failed), cli_parse takes
 * --token and --timeout (option: 1 taken, -1 a bad value with the reason in
 * why) and turns hf://OWNER/REPO:QUANT operands into a file's name (pick: 0,
 * or -1 with why).  Without hooks (the web editor, the fuzz targets) every
 * name is a local file and --token and --timeout are unknown options. */
typedef struct cli_remote_hooks {
    int (*is_remote)(const char *path);
    lgg_file *(*open)(const char *cmd, const char *path, const lgg_open_options *o);
    int (*option)(const char *name, size_t len, const char *val, char *why, size_t cap);
    int (*pick)(char **arg, char *why, size_t cap);
} cli_remote_hooks;
void cli_remote_hooks_set(const cli_remote_hooks *h);
/* The hooks set, or NULL. */
const cli_remote_hooks *cli_remote_hooks_get(void);
/* Whether path is a name the hooks read remotely (0 without hooks). */
int cli_is_remote(const char *path);
/* A read-only descriptor for path ("-": a duplicate of standard input), or
 * -1 after printing "gguf CMD: FILE: reason". */
int cli_open_fd(const char *cmd, const char *path);

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
/* numpy's str of a float64 (or of a float32 when single): an exponent for
 * values below 1e-4 rather than 1e-5. */
void cli_fmt_numpy(char *buf, size_t cap, double x, bool single);
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

/* A progress bar on stderr, only when stderr is a terminal: fitted to the
 * terminal's width (redrawn after SIGWINCH), at most five redraws a second,
 * the percentage and the time left from bytes done, and optionally a count
 * of finished items ("12/100 tensors"). */
typedef struct cli_progress {
    const char *cmd, *unit;
    uint64_t total, done, items, items_total;
    double t0, last;
    int on, shown;
    int bytes; /* the figures are bytes: show done/total and the rate too */
} cli_progress;
void cli_progress_init(cli_progress *p, const char *cmd, uint64_t total);
void cli_progress_items(cli_progress *p, uint64_t done, uint64_t total, const char *unit);
void cli_progress_add(cli_progress *p, uint64_t n);
void cli_progress_set(cli_progress *p, uint64_t done);
void cli_progress_end(cli_progress *p);
/* A double as JSON: shortest round-trip, "nan"/"inf"/"-inf" as strings. */
void cli_json_f64(FILE *o, double x);
/* {"name", "type", "shape", "offset", "size"} of one tensor. */
void cli_tensor_json(FILE *o, const lgg_tensor *t);
/* A tensor's shape as a JSON array. */
void cli_json_shape(FILE *o, const lgg_tensor *t);
/* A tensor name or key for text output, control bytes as \xNN. */
void cli_text_name(FILE *o, lgg_str s);
/* n bytes of s, control bytes as \xNN: the one escaping of names in text
 * output and in every diagnostic (cli_err, cli_usage_error). */
void cli_put_escaped(FILE *o, const char *s, uint64_t n);

/* ---- inputs (cli_inputs.c) ----
 * Every file the run reads, noted when it is opened (by fd when fd >= 0,
 * else by stat of path): cli_open, cli_open_fd and the shard-set openers do
 * it themselves; a command notes what it reads otherwise (str@FILE values,
 * manifests, imatrix files, a checkpoint's files).  main_input: the file
 * whose permission bits new outputs take (the first one noted so wins).
 * Outputs are checked against them by device and inode before anything is
 * written, with one message for every command:
 *   gguf CMD: OUT: refusing to write over the input IN (the same file); nothing written
 * cli_output_check prints it and returns CLI_FAIL (CLI_OK: not an input);
 * cli_output_check_lgg puts it in *e (LGG_ERR_EXISTS), for the callers
 * that print lgg errors; cli_output_check_set checks every file that is
 * named as a shard of PREFIX (PREFIX-0000i-of-0000n.gguf) now, for writers
 * that learn the shard count only as they write. */
void cli_input_add(const char *path, int fd, int main_input);
/* Every file in the folder dir (not below it) but those whose names end in
 * `except` (NULL: none), as inputs: a checkpoint folder, all of whose files
 * a converter may read. */
void cli_input_add_dir(const char *dir, const char *except);
const char *cli_input_same(const char *out);
int cli_output_check(const char *cmd, const char *out);
lgg_status cli_output_check_lgg(const char *out, lgg_error *e);
int cli_output_check_set(const char *cmd, const char *prefix);
/* The main input's permission bits (1), or 0 when none was noted. */
int cli_input_mode(unsigned *mode);

/* ---- writing (cli_write.c) ---- */
/* lgg_writer_write_file, refused when OUT is an input (cli_output_check_lgg),
 * with the temporary file removed on SIGINT/SIGTERM/SIGHUP. */
lgg_status cli_write_file(const lgg_writer *w, const char *out, const lgg_write_options *o, lgg_error *e);
/* The temp_fn for any other library write (lgg_write_options,
 * lgg_quant_write_options): keeps the temporary file's path for the signal
 * handler that removes it, gives a new file the main input's permission
 * bits (cli_input_mode, less the umask, as cp does; a file that is replaced
 * keeps its own), and records each finished file while an output set is
 * open (below). */
void cli_temp_note(void *ud, const char *path, int created);
/* Several files written at once, one thread each (convert's outputs):
 * cli_parallel_begin blocks the fatal signals in the caller (and so in the
 * threads it starts next) and makes cli_temp_note safe for them;
 * cli_parallel_wait takes the signals until done(ud), removing the
 * temporary files on one before dying of it; cli_parallel_end, after the
 * threads are joined, restores the caller's mask.  (Not for output sets:
 * a file renamed into place there is recorded by cli_outputs_add.) */
void cli_parallel_begin(sigset_t *old);
void cli_parallel_wait(int (*done)(void *), void *ud);
void cli_parallel_end(const sigset_t *old);
/* A staged output: *staged gets ".NAME.PID.part" beside `final` (NAME its
 * base name), to be written and renamed into place by the caller, and
 * *lock_fd an flock held on ".NAME.PID.part.lock" until cli_stage_end
 * (after the rename, or the staged file's removal).  First the staged
 * files of NAME that a dead run left (SIGKILL) are removed: those whose
 * lock file it can lock; a live run's are kept.  CLI_FAIL after saying
 * why (a path too long, a lock file that cannot be made). */
int cli_stage_begin(const char *cmd, const char *final, char *staged, size_t cap, int *lock_fd);
void cli_stage_end(const char *staged, int lock_fd);
/* Only the removal of a dead run's staged files of `final`: for a run that
 * writes `final` without staging it. */
void cli_stage_sweep(const char *final);
/* An output set: a command that writes several files (split, convert or
 * quantize into shards, a download of a shard set) opens one before its
 * first file; from then on each finished file (renamed into place by a
 * write whose temp_fn is cli_temp_note, or given to cli_outputs_add by a
 * writer of its own) belongs to the set.  SIGINT, SIGTERM or SIGHUP remove
 * every file of the set (and the temporary file being written) before the
 * process dies of the signal; cli_outputs_remove removes them on a failure
 * (printing "gguf CMD: removed PATH" for each); cli_outputs_keep closes the
 * set, keeping its files, once it is complete. */
void cli_outputs_begin(void);
void cli_outputs_add(const char *path);
void cli_outputs_remove(const char *cmd);
void cli_outputs_keep(void);
/* The open set's files so far and their bytes. */
void cli_outputs_stat(size_t *n, uint64_t *bytes);
/* ---- editing (cli_edit.c) ---- */
typedef struct cli_edit {
    const char *path;
    int fd;
    lgg_file *f;
    lgg_writer *w; /* started from f: edit it, then commit */
} cli_edit;
/* Open PATH and start a writer from it (keep_dups: as --keep-duplicates);
 * prints a diagnostic and returns CLI_FAIL on failure. */
int cli_edit_open(const char *cmd, const char *path, int keep_dups, cli_edit *e);
/* Every writer that starts from a file starts here: a writer from f (open
 * from path, on fd or -1) with every pair of a repeated key when keep_dups,
 * else only the first (ggml refuses repeats), each pair left out named on
 * stderr; NULL with err set on failure. */
lgg_writer *cli_writer_from_file(const char *cmd, const char *path, const lgg_file *f, int fd, int keep_dups,
                                 lgg_error *err);
/* "gguf CMD: FILE: warning: left out a repeated key 'K' (at byte N)", and
 * "; --keep-duplicates keeps it" when the command can. */
void cli_warn_repeated(const char *cmd, const char *path, const lgg_kv *kv, int can_keep);
/* The --keep-duplicates option's help, shared by every command that takes it. */
#define CLI_KEEP_DUPS_HELP                                                                                             \
    "keep every pair of a repeated key (forensic copies; ggml\n"                                                     \
    "refuses such a file); by default only the first, the one\n"                                                    \
    "lookups return, is kept and the others are named on stderr"
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
/* 1 on success; 0 with a reason in why.  The generic int and float become
 * i32 and f32. */
int cli_val_parse(const char *text, cli_val *v, char *why, size_t cap);
/* As cli_val_parse for a key that holds a value of type `existing` (for an
 * array, elements of `existing_elem`), or CLI_NO_TYPE: the generic int and
 * float keep an existing integer or float type (range-checked). */
#define CLI_NO_TYPE 0xFFFFFFFFu
/* A text without a TYPE: (nor arr[TYPE]:, str@) is a bare VALUE: for a key
 * of a known type (existing not CLI_NO_TYPE) it is read with that type,
 * as the web editor keeps a key's type; cli_val_typed tells them apart. */
bool cli_val_typed(const char *text);
int cli_val_parse_for(const char *text, uint32_t existing, uint32_t existing_elem, cli_val *v, char *why, size_t cap);
void cli_val_free(cli_val *v);
/* True if `gguf set` writes the key (key, len) in f without --force: the
 * spec's naming rule (lgg_key_name_ok), after a first segment that names
 * f's own architecture. */
bool cli_key_ok(const lgg_file *f, const char *key, size_t len);

/* ---- memory (cli.c) ----
 * The tool's one growable array: make *p (*cap elements of `elem` bytes,
 * malloc'd) hold at least `need` elements, doubling from `first`; false
 * when out of memory (then *p and *cap are unchanged).  cli_slurp: a whole
 * file, malloc'd (*len bytes), or NULL with the reason in why. */
bool cli_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first);
char *cli_slurp(const char *path, size_t *len, char *why, size_t cap);
/* The same for the rest of an open stream (standard input), left open. */
char *cli_slurp_stream(FILE *f, size_t *len, char *why, size_t cap);

#endif
