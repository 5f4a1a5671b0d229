/* cmd_cat.c -- `gguf cat FILE TENSOR [--as raw|f32] [-o OUT]`: one tensor's
 * stored bytes, or its values as little-endian f32, to stdout or OUT.
 *
 * Memory stays bounded whatever the tensor's size: raw bytes are written
 * straight from the mapping and values are converted 16 MiB of output at a
 * time.  OUT is replaced atomically (temporary file in the same directory,
 * flushed to disk, renamed), so a failure never leaves a half-written OUT. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char USAGE[] = "gguf cat [--as raw|f32] [-o OUT] FILE TENSOR";

static void help(void) {
    printf("usage: %s\n\n"
           "Write one tensor's data to stdout (or OUT).\n\n"
           "  --as raw   the bytes as stored in the file (default; big-endian files\n"
           "             give big-endian bytes)\n"
           "  --as f32   the values, dequantized, as little-endian 32-bit floats\n"
           "  -o OUT     write to OUT instead: a temporary file next to it is renamed\n"
           "             over OUT once complete; OUT may not be FILE itself\n\n"
           "Exit status: 0 success, 1 failure (no such tensor, unreadable data,\n"
           "write error), 2 usage error.\n",
           USAGE);
}

typedef struct output {
    FILE *fp;
    char *tmp;        /* temporary path when writing to a file, else NULL */
    const char *path; /* OUT, or NULL for stdout */
} output;

static int host_is_big_endian(void) {
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 0;
}

static int open_output(output *o, const char *out, const char *in) {
    memset(o, 0, sizeof *o);
    if (!out) {
        o->fp = stdout;
        return 0;
    }
    struct stat so, si;
    int exists = stat(out, &so) == 0;
    if (exists && stat(in, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
        fprintf(stderr, "gguf cat: %s: output is the input file\n", out);
        return -1;
    }
    if (exists && S_ISDIR(so.st_mode)) {
        fprintf(stderr, "gguf cat: %s: is a directory\n", out);
        return -1;
    }
    /* The temporary file must live in OUT's directory so that rename() is an
     * atomic replacement on one file system. */
    const char *slash = strrchr(out, '/');
    size_t dlen = slash ? (size_t)(slash - out) + 1 : 0;
    const char *base = slash ? slash + 1 : out;
    size_t cap = dlen + strlen(base) + 16;
    o->tmp = malloc(cap);
    if (!o->tmp) {
        fprintf(stderr, "gguf cat: out of memory\n");
        return -1;
    }
    snprintf(o->tmp, cap, "%.*s.%s.XXXXXX", (int)dlen, out, base);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        fprintf(stderr, "gguf cat: %s: cannot create a temporary file: %s\n", out, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    /* mkstemp gives 0600; the result should look like any new file (or keep
     * the mode of the file it replaces). */
    mode_t mode;
    if (exists) mode = so.st_mode & 07777;
    else {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    (void)fchmod(fd, mode); /* failure is not fatal: the data is what matters */
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        fprintf(stderr, "gguf cat: %s: %s\n", out, strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    o->path = out;
    return 0;
}

/* Finish the output: 0 on success.  On failure (ok == 0 or a late write
 * error) the temporary file is removed and OUT is left as it was. */
static int close_output(output *o, int ok) {
    const char *name = o->path ? o->path : "stdout";
    int err = 0;
    if (fflush(o->fp) != 0 || ferror(o->fp)) err = errno ? errno : EIO;
    if (!o->path) {
        if (ok && err) fprintf(stderr, "gguf cat: write error on stdout: %s\n", strerror(err));
        return ok && !err ? 0 : -1;
    }
    if (!err && ok && fsync(fileno(o->fp)) != 0) err = errno;
    if (fclose(o->fp) != 0 && !err) err = errno ? errno : EIO;
    if (ok && !err && rename(o->tmp, o->path) != 0) err = errno;
    if (ok && err) fprintf(stderr, "gguf cat: %s: %s\n", name, strerror(err));
    if (!ok || err) unlink(o->tmp);
    free(o->tmp);
    return ok && !err ? 0 : -1;
}

static int write_raw(FILE *fp, const lgg_tensor *t) {
    const uint8_t *p = t->data;
    const uint64_t step = cli_chunk_floats() * 4;
    cli_progress pr;
    cli_progress_init(&pr, "cat", t->size);
    for (uint64_t done = 0; done < t->size;) {
        uint64_t n = t->size - done < step ? t->size - done : step;
        if (fwrite(p + done, 1, (size_t)n, fp) != n) {
            cli_progress_end(&pr);
            fprintf(stderr, "gguf cat: write error: %s\n", strerror(errno));
            return -1;
        }
        done += n;
        cli_progress_add(&pr, n);
    }
    cli_progress_end(&pr);
    return 0;
}

static int write_f32(FILE *fp, const lgg_file *f, const lgg_tensor *t) {
    const uint64_t chunk = cli_chunk_elems(t->ne[0] > 0 ? (uint64_t)t->ne[0] : 0, cli_block_size(t), cli_chunk_floats());
    const uint64_t cap = chunk < t->n_elements ? chunk : t->n_elements;
    float *buf = malloc((size_t)(cap ? cap : 1) * sizeof *buf);
    if (!buf) {
        fprintf(stderr, "gguf cat: out of memory\n");
        return -1;
    }
    const int swap = host_is_big_endian();
    int rc = 0;
    cli_progress pr;
    cli_progress_init(&pr, "cat", t->n_elements);
    for (uint64_t first = 0; first < t->n_elements; first += cap) {
        uint64_t n = t->n_elements - first < cap ? t->n_elements - first : cap;
        lgg_status st = cli_dequant_range(f, t, first, n, buf);
        if (st != LGG_OK) {
            fprintf(stderr, "gguf cat: cannot dequantize: %s\n", lgg_status_name(st));
            rc = -1;
            break;
        }
        if (swap)
            for (uint64_t i = 0; i < n; i++) {
                uint32_t u;
                memcpy(&u, &buf[i], 4);
                u = __builtin_bswap32(u);
                memcpy(&buf[i], &u, 4);
            }
        if (fwrite(buf, sizeof *buf, (size_t)n, fp) != n) {
            fprintf(stderr, "gguf cat: write error: %s\n", strerror(errno));
            rc = -1;
            break;
        }
        cli_progress_add(&pr, n);
    }
    cli_progress_end(&pr);
    free(buf);
    return rc;
}

int cmd_cat(int argc, char **argv) {
    const char *path = NULL, *name = NULL, *out = NULL, *as = "raw";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return CLI_OK;
        }
        if (!strcmp(a, "--as") || !strcmp(a, "-o") || !strcmp(a, "--output")) {
            if (i + 1 >= argc) return cli_usage_error("cat", USAGE, "%s needs a value", a);
            if (a[1] == '-' && a[2] == 'a') as = argv[++i];
            else out = argv[++i];
        } else if (!strncmp(a, "--as=", 5)) as = a + 5;
        else if (!strncmp(a, "--output=", 9)) out = a + 9;
        else if (a[0] == '-' && a[1]) return cli_usage_error("cat", USAGE, "unknown option '%s'", a);
        else if (!path) path = a;
        else if (!name) name = a;
        else return cli_usage_error("cat", USAGE, "too many arguments");
    }
    if (strcmp(as, "raw") && strcmp(as, "f32"))
        return cli_usage_error("cat", USAGE, "--as takes raw or f32, not '%s'", as);
    if (!path) return cli_usage_error("cat", USAGE, "no FILE given");
    if (!name) return cli_usage_error("cat", USAGE, "no TENSOR given");
    if (out && !strcmp(out, "-")) out = NULL;
    if (out && !*out) return cli_usage_error("cat", USAGE, "empty OUT");

    lgg_file *f = cli_open("cat", path);
    if (!f) return CLI_FAIL;
    int64_t idx = lgg_find_tensor(f, name, strlen(name));
    if (idx < 0) {
        fprintf(stderr, "gguf cat: %s: no tensor named '%s'\n", path, name);
        lgg_close(f);
        return CLI_FAIL;
    }
    const lgg_tensor *t = lgg_tensor_at(f, (uint64_t)idx);
    const char *problem = cli_data_problem(t);
    if (problem) {
        fprintf(stderr, "gguf cat: %s: tensor '%s' %s\n", path, name, problem);
        lgg_close(f);
        return CLI_FAIL;
    }
    output o;
    if (open_output(&o, out, path) != 0) {
        lgg_close(f);
        return CLI_FAIL;
    }
    int ok = (!strcmp(as, "raw") ? write_raw(o.fp, t) : write_f32(o.fp, f, t)) == 0;
    int rc = close_output(&o, ok);
    lgg_close(f);
    return rc == 0 ? CLI_OK : CLI_FAIL;
}
