/* tool.h -- shared by the gguf tool's own files (tools/): its commands and
 * what only the tool does (remote files, shard sets, downloads, hub
 * conversions, Markdown dumps), over the CLI's part (common/cli.h). */
#ifndef LGG_TOOL_H
#define LGG_TOOL_H

#include "common/cli.h"

typedef struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

/* ---- remote files (cli_remote.c) ----
 * A name the remote part reads (http://, https://, hf://); opening one
 * (the header only) with options o; the common options --token and
 * --timeout (1: taken, 0: not one of them, -1: a bad value, reason in why);
 * the data of tensor t of a header-only file, read before a command uses
 * it: NULL, or why it cannot be read. */
lgg_file *cli_open_remote(const char *cmd, const char *path, const lgg_open_options *o);
/* Set the CLI part's hooks to these (once, from main). */
void cli_remote_install(void);
/* The same without a message: *net is 1 when the failure is the network's
 * (the message then names the URL), 0 when it is the file's. */
lgg_status cli_remote_open_file(const char *path, const lgg_open_options *o, lgg_file **f, lgg_error *e, int *net);
int cli_remote_option(const char *name, size_t len, const char *val, char *why, size_t cap);
const char *cli_data_fetch(lgg_file *f, const lgg_tensor *t);
/* --token and --timeout (and the tests' GGUF_RETRY_MS) into remote options. */
struct lgg_remote_options;
void cli_remote_fill(struct lgg_remote_options *ro);
/* The command that opens remote files (for messages that have no other). */
void cli_remote_command(const char *cmd);
/* ... and its name ("open" before any). */
const char *cli_remote_command_name(void);
/* The most shards a set on a server may have ($GGUF_MAX_SHARDS, 1 to
 * 65535, default 4096), and the check (cli_shards.c): CLI_OK for a set on
 * disk or within the limit, else CLI_FAIL after "gguf CMD: FIRST: a set of
 * N shards on a server: refused". */
unsigned cli_remote_max_shards(void);
int cli_remote_shard_limit(const char *cmd, const char *first, uint64_t count);
/* Bytes [from, to) of a file opened from a server, pushed to push(ud, ...)
 * in one request (push returns -1 to stop): 0, or -1 with why. */
int cli_remote_stream(const lgg_file *f, uint64_t from, uint64_t to, int (*push)(void *ud, const void *p, size_t n),
                      void *ud, char *why, size_t cap);
/* Defaults, $HF_TOKEN, then cli_remote_fill. */
void cli_remote_defaults(struct lgg_remote_options *ro);
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
int cmd_hash(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_download(int argc, char **argv);
int cmd_tokenize(int argc, char **argv);
int cmd_detokenize(int argc, char **argv);
/* MODEL's tokenizer (cmd_tokenize.c), or NULL after printing why. */
struct lgg_tokenizer;
struct lgg_tokenizer *cli_tokenizer_open(const char *cmd, const char *model);
int cmd_ls(int argc, char **argv);

/* ---- gguf dump --markdown (dump_markdown.c) ---- */
/* gguf_dump.py --markdown's text for f, opened from path (the tensor
 * tables unless tensors is 0); CLI_FAIL when out of memory. */
int cli_dump_markdown(FILE *o, const char *path, const lgg_file *f, int tensors);

/* hf://OWNER/REPO[:QUANT][@REV] in *arg becomes the hf:// name of the file
 * (or shard set's first file) lgg_hub_pick chooses; other names are left
 * alone.  0, or -1 with the reason in why (it lists the candidates or the
 * repository's quantizations). */
int cli_remote_pick(char **arg, char *why, size_t cap);
/* `gguf download hf://OWNER/REPO[@REV]`: the repository's files matching
 * the globs (none: all; then none of exc) into dir (NULL: ./REPO), each
 * checked and renamed into place; complete ones are kept (cli_snapshot.c). */
/* hf://OWNER/REPO[@REV]'s listing, or NULL after the message; repo gets
 * OWNER/REPO, *rev the revision (NULL: main).  In cli_snapshot.c. */
struct lgg_hub_repo *cli_hub_list(const char *cmd, const char *name, char *repo, size_t cap, const char **rev);
/* ---- convert hf://OWNER/REPO[@REV] (cli_hubconvert.c) ----
 * For a repository name, *io reads its files from the hub (valid until
 * cli_hubconv_close) and *dir is REPO, the folder a download would make;
 * for anything else *io is NULL (a local folder).  outputs > 1: the shards'
 * bytes are spooled, fetched once for all the outputs.  CLI_FAIL after saying
 * why (the listing failed); CLI_USAGE for hf://OWNER/REPO:QUANT. */
struct lgg_convert_io;
int cli_hubconv_open(const char *name, int outputs, const struct lgg_convert_io **io, const char **dir);
void cli_hubconv_close(void);
/* --model-card[=PATH]: README.md (PATH NULL: beside files[0]) for the n
 * written files, atomically, never over an input; the repository's name
 * from cli_hubconv_open (before cli_hubconv_close).  CLI_OK or CLI_FAIL. */
int cli_model_card(const char *path, char (*files)[4096], size_t n);
int cli_download_repo(const char *name, const char *dir, const char *const *inc, size_t ni, const char *const *exc,
                      size_t ne, int quiet);
int cmd_convert(int argc, char **argv);

/* ---- shard sets (cli_shards.c) ---- */
typedef struct cli_shards {
    lgg_file **files; /* in set order */
    int *fds;         /* -1 where the caller's file was lent (or none kept) */
    uint32_t n;
    uint32_t borrowed; /* index of a file the caller lent and keeps, or UINT32_MAX */
} cli_shards;

/* Open the set whose first shard is FIRST (the others found by name); print
 * the diagnostic and return CLI_FAIL if a shard is missing or unreadable.
 * The set's consistency is left to lgg_merge_check. */
int cli_shards_open(const char *cmd, const char *first, cli_shards *s);
/* One file as a set of one (the same diagnostics). */
int cli_shards_single(const char *cmd, const char *path, cli_shards *s);
/* The n shards PREFIX-0000k-of-n by name, opened as `how` (CLI_OPEN_META:
 * headers, missing data allowed); `have`, when not NULL, is shard `at`,
 * lent by the caller (not opened again, not closed).  Diagnostics name cmd,
 * or none when cmd is NULL. */
int cli_shards_by_name(const char *cmd, const char *prefix, uint32_t n, int how, lgg_file *have, uint32_t at,
                       cli_shards *s);
/* The whole set that f, open from path, is one shard of (any shard), its
 * headers only, f lent; CLI_FAIL, quietly, when f is not a shard or another
 * shard is not beside it. */
int cli_shards_around(const char *path, const lgg_file *f, cli_shards *s);
void cli_shards_close(cli_shards *s);
/* A model's headers (estimate, ls --fit): PATH one file, or the first shard
 * of a set (PREFIX-00001-of-0000N.gguf) whose others are found by name;
 * CLI_FAIL after the diagnostic. */
int cli_shards_header(const char *cmd, const char *path, cli_shards *m);

/* ---- gguf estimate --fit-device: the flags that realise the budgets (estimate_plan.c) ---- */
typedef struct est_budgets {
    uint64_t host;                               /* UINT64_MAX: unchecked */
    uint64_t device[LGG_ESTIMATE_MAX_DEVICES];   /* one per device (one device: [0]); UINT64_MAX: unchecked */
} est_budgets;
/* Whether the host and every device of e fit their budgets (estimate, its plan, ls --fit). */
bool cli_estimate_fits(const lgg_estimate *e, const est_budgets *b);
/* The budgets of --fit HOST (0: none) and --fit-device: `device` for one device (0: none), else
 * p->device_free[d] for each of p->n_devices (0: unchecked). */
est_budgets cli_estimate_budgets(const lgg_estimate_params *p, uint64_t host, uint64_t device);
typedef struct est_plan {
    bool found;        /* false: even the fewest layers do not fit */
    uint32_t n_cpu_moe;
    bool quant_cache;  /* q8_0 K and V, flash attention on */
    char steps[4][96]; /* the steps taken, in words */
    int n_steps;
    char flags[256];   /* llama.cpp's flags: -ngl, -ts, --n-cpu-moe, -c, -fa -ctk -ctv */
} est_plan;
/* Every layer on the devices; then experts to the host; then a q8_0 cache; then
 * fewer layers, at the settings p (its -ngl ignored; p->device_free holds the
 * budgets of several devices).  *e: the figures at the answer.  CLI_OK, or
 * CLI_FAIL with err set. */
int cli_estimate_plan(const cli_shards *m, const lgg_estimate_params *p, const est_budgets *b, est_plan *out,
                      lgg_estimate *e, lgg_error *err);

#endif
