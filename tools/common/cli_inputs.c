/* cli_inputs.c -- the files this run reads, so that no command writes over
 * one of them, and whose permission bits its outputs take.
 *
 * Every file a command reads is noted as it is opened (cli_open,
 * cli_open_fd, the shards of a set, str@FILE values, manifests, imatrix
 * files, a checkpoint's files), by device and inode: a symlink or a hard
 * link to an input is that input.  Every output is checked against them
 * before anything is written (cli_output_check), with one message for all
 * commands.  The library keeps its own check of the files a writer reads
 * from (LGG_ERR_EXISTS); this one also knows the files it never sees. */
#include "cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct input {
    dev_t dev;
    ino_t ino;
    mode_t mode;
    char *path;
} input;
static input *inputs;
static size_t n_inputs;
static int mode_from = -1; /* the input whose permission bits a new output takes */

static void note(const char *path, const struct stat *st, int main_input) {
    if (!S_ISREG(st->st_mode)) return; /* a pipe or a terminal cannot be an output file */
    for (size_t i = 0; i < n_inputs; i++)
        if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino) {
            if (main_input && mode_from < 0) mode_from = (int)i;
            return;
        }
    input *v = realloc(inputs, (n_inputs + 1) * sizeof *v);
    char *p = strdup(cli_display_name(path));
    if (!v || !p) { /* out of memory: the library's own check of its inputs remains */
        free(p);
        if (v) inputs = v;
        return;
    }
    inputs = v;
    if (main_input && mode_from < 0) mode_from = (int)n_inputs;
    inputs[n_inputs++] = (input){st->st_dev, st->st_ino, st->st_mode & 07777, p};
}

void cli_input_add(const char *path, int fd, int main_input) {
    struct stat st;
    if (fd >= 0 ? fstat(fd, &st) == 0 : path && stat(path, &st) == 0) note(path ? path : "-", &st, main_input);
}

void cli_input_add_dir(const char *dir, const char *except) {
    DIR *d = opendir(dir);
    const size_t dl = strlen(dir), el = except ? strlen(except) : 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        const size_t nl = strlen(e->d_name);
        if (el && nl >= el && !strcmp(e->d_name + nl - el, except)) continue;
        char *path = malloc(dl + nl + 2);
        if (!path) break; /* out of memory: the files the run reads stay noted */
        snprintf(path, dl + nl + 2, "%s/%s", dir, e->d_name);
        cli_input_add(path, -1, 0); /* regular files only (and what links lead to) */
        free(path);
    }
    if (d) closedir(d);
}

const char *cli_input_same(const char *out) {
    struct stat st;
    if (!out || stat(out, &st) != 0) return NULL;
    for (size_t i = 0; i < n_inputs; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) return inputs[i].path;
    return NULL;
}

#define REFUSAL "refusing to write over the input %s (the same file); nothing written"

int cli_output_check(const char *cmd, const char *out) {
    const char *in = cli_input_same(out);
    if (!in) return CLI_OK;
    cli_err(cmd, out, REFUSAL, in);
    return CLI_FAIL;
}

lgg_status cli_output_check_lgg(const char *out, lgg_error *e) {
    const char *in = cli_input_same(out);
    return in ? lgg_error_set(e, LGG_ERR_EXISTS, LGG_NO_OFFSET, REFUSAL, in) : LGG_OK;
}

int cli_output_check_set(const char *cmd, const char *prefix) {
    const char *slash = strrchr(prefix, '/');
    size_t dl = slash ? (size_t)(slash - prefix) : 0, pl = strlen(prefix);
    char *dir = slash ? strndup(prefix, dl ? dl : 1) : strdup(".");
    DIR *d = dir ? opendir(dir) : NULL;
    int rc = CLI_OK;
    for (struct dirent *e; d && rc == CLI_OK && (e = readdir(d));) {
        size_t nl = strlen(e->d_name), plen = 0;
        char *path = malloc(dl + nl + 2);
        if (!path) break;
        snprintf(path, dl + nl + 2, "%.*s%s%s", (int)dl, prefix, slash ? "/" : "", e->d_name);
        if (lgg_split_name_parse(path, strlen(path), NULL, NULL, &plen) && plen == pl && !strncmp(path, prefix, pl))
            rc = cli_output_check(cmd, path);
        free(path);
    }
    if (d) closedir(d);
    free(dir);
    return rc;
}

int cli_input_mode(unsigned *mode) {
    if (mode_from < 0) return 0;
    *mode = inputs[mode_from].mode;
    return 1;
}
