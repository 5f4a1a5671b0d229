/* cmd_cat.c -- `gguf cat [--as raw|f32|npy] [-o OUT] FILE TENSOR`: one
 * tensor's stored bytes, its values as little-endian f32, or a NumPy .npy
 * file, to stdout or OUT.
 *
 * Memory stays bounded whatever the tensor's size: raw bytes are written
 * straight from the mapping and values are converted 16 MiB of output at a
 * time.  OUT is replaced atomically (temporary file in the same directory,
 * flushed to disk, renamed), so a failure never leaves a half-written OUT. */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "spec_cat.h" /* from tools/spec/cat.txt (scripts/cli-spec.awk) */

typedef struct catopts {
    const char *as, *out;
    int force;
} catopts;

static int on_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    catopts *c = ud;
    if (id == 'a') {
        if (strcmp(val, "raw") && strcmp(val, "f32") && strcmp(val, "npy"))
            return cli_why(why, cap, "--as takes raw, f32 or npy, not '%s'", val);
        c->as = val;
    } else if (id == 'o') {
        if (!*val) return cli_why(why, cap, "empty OUT");
        c->out = val;
    } else c->force = 1;
    return 0;
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

static int open_output(output *o, const char *out) {
    memset(o, 0, sizeof *o);
    if (!out) {
        o->fp = stdout;
        return 0;
    }
    struct stat so;
    int exists = stat(out, &so) == 0;
    if (cli_output_check("cat", out) != CLI_OK) return -1;
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
    cli_temp_note(NULL, NULL, 2);
    int fd = mkstemp(o->tmp);
    cli_temp_note(NULL, fd >= 0 ? o->tmp : NULL, fd >= 0); /* removed if a signal ends the run */
    if (fd < 0) {
        fprintf(stderr, "gguf cat: %s: cannot create a temporary file: %s\n", out, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return -1;
    }
    /* mkstemp gives 0600; the result keeps the mode of the file it
     * replaces, or takes the input's, as cp's copy does. */
    mode_t mode;
    if (exists) mode = so.st_mode & 07777;
    else {
        unsigned m = 0666;
        cli_input_mode(&m);
        mode_t um = umask(0);
        umask(um);
        mode = (mode_t)m & ~um & 07777;
    }
    (void)fchmod(fd, mode); /* failure is not fatal: the data is what matters */
    o->fp = fdopen(fd, "wb");
    if (!o->fp) {
        fprintf(stderr, "gguf cat: %s: %s\n", out, strerror(errno));
        close(fd);
        unlink(o->tmp);
        cli_temp_note(NULL, o->tmp, 0);
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
    cli_temp_note(NULL, o->tmp, 0);
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

/* NumPy's dtype for the stored bytes of t, or NULL to write f32 values. */
static const char *npy_descr(const lgg_file *f, const lgg_tensor *t) {
    const int big = lgg_file_endian(f) == LGG_BIG_ENDIAN;
    switch (t->type) {
    case LGG_TYPE_F32: return big ? ">f4" : "<f4";
    case LGG_TYPE_F16: return big ? ">f2" : "<f2";
    case LGG_TYPE_F64: return big ? ">f8" : "<f8";
    case LGG_TYPE_I8: return "|i1";
    case LGG_TYPE_I16: return big ? ">i2" : "<i2";
    case LGG_TYPE_I32: return big ? ">i4" : "<i4";
    case LGG_TYPE_I64: return big ? ">i8" : "<i8";
    default: return NULL;
    }
}

/* The .npy v1.0 header: magic, version, length, then a Python dict literal
 * padded with spaces to a multiple of 64 bytes and ended by a newline. */
static int write_npy_header(FILE *fp, const char *descr, const lgg_tensor *t) {
    char dict[512];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    uint32_t nd = t->n_dims ? t->n_dims : 1;
    for (uint32_t d = nd; d-- > 0;)
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%lld%s", (long long)t->ne[d], nd == 1 ? "," : d ? ", " : "");
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    size_t total = 10 + (size_t)n + 1, padded = (total + 63) / 64 * 64;
    uint16_t hlen = (uint16_t)(padded - 10);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    if (fwrite(pre, 1, 10, fp) != 10 || fwrite(dict, 1, (size_t)n, fp) != (size_t)n) return -1;
    for (size_t k = total; k < padded; k++)
        if (fputc(' ', fp) == EOF) return -1;
    return fputc('\n', fp) == EOF ? -1 : 0;
}

static int write_npy(FILE *fp, const lgg_file *f, const lgg_tensor *t) {
    const char *descr = npy_descr(f, t);
    if (write_npy_header(fp, descr ? descr : "<f4", t) != 0) {
        fprintf(stderr, "gguf cat: write error: %s\n", strerror(errno));
        return -1;
    }
    return descr ? write_raw(fp, t) : write_f32(fp, f, t);
}

int cmd_cat(int argc, char **argv) {
    catopts c = {"raw", NULL, 0};
    int n = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &c, &n);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *path = argv[1], *name = argv[2], *out = c.out;
    if (out && !strcmp(out, "-")) out = NULL;
    if (!out && !c.force && isatty(1)) {
        cli_err("cat", NULL, "refusing to write binary data to a terminal (use -o OUT, a pipe, or --force)");
        return CLI_FAIL;
    }
    /* a truncated file still serves the tensors whose bytes are all there */
    lgg_file *f = cli_open("cat", path, CLI_OPEN_META);
    if (!f) return CLI_FAIL;
    int64_t idx = lgg_find_tensor(f, name, strlen(name));
    if (idx < 0) {
        cli_err_no_tensor("cat", path, f, name);
        lgg_close(f);
        return CLI_FAIL;
    }
    const lgg_tensor *t = lgg_tensor_at(f, (uint64_t)idx);
    const uint64_t end = lgg_file_size(f);
    if (t->type_known && t->file_offset + t->size > end) {
        cli_err("cat", path, "tensor '%s' is incomplete: its data runs from byte %llu to %llu, the file ends at %llu",
                name, (unsigned long long)t->file_offset, (unsigned long long)(t->file_offset + t->size),
                (unsigned long long)end);
        lgg_close(f);
        return CLI_FAIL;
    }
    const char *problem = cli_data_fetch(f, t);
    if (!problem) problem = cli_data_problem(t);
    if (problem) {
        cli_err("cat", path, "tensor '%s' %s", name, problem);
        lgg_close(f);
        return CLI_FAIL;
    }
    output o;
    if (open_output(&o, out) != 0) {
        lgg_close(f);
        return CLI_FAIL;
    }
    int ok = (!strcmp(c.as, "raw")   ? write_raw(o.fp, t)
              : !strcmp(c.as, "f32") ? write_f32(o.fp, f, t)
                                     : write_npy(o.fp, f, t)) == 0;
    rc = close_output(&o, ok);
    lgg_close(f);
    return rc == 0 ? CLI_OK : CLI_FAIL;
}
