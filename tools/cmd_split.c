/* cmd_split.c -- `gguf split (--max-tensors N | --max-size N[K|M|G])
 * [--dry-run] IN PREFIX`: cut a model into PREFIX-00001-of-0000N.gguf...
 * exactly as llama.cpp's gguf-split does, so its loader and `gguf merge`
 * take them back. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char USAGE[] = "gguf split (--max-tensors N | --max-size N[K|M|G]) [--dry-run] IN PREFIX";

static void help(void) {
    printf("usage: %s\n\n"
           "Split IN into shards PREFIX-00001-of-0000N.gguf ... as llama.cpp's\n"
           "llama-gguf-split --split does (same bytes): all metadata in the first shard,\n"
           "split.no, split.tensors.count and split.count in every shard, tensors in\n"
           "IN's order.\n\n"
           "  --max-tensors N      at most N tensors per shard\n"
           "  --max-size N[K|M|G]  at most N bytes of tensor data per shard (each tensor\n"
           "                       padded to the alignment; metadata not counted), in\n"
           "                       decimal units as llama.cpp: K=1000, M=1000^2,\n"
           "                       G=1000^3; a tensor larger than N gets its own shard\n"
           "  --dry-run            print the plan (shard, tensors, first tensor, bytes)\n"
           "                       and write nothing\n\n"
           "Prints each shard's name as it is written.  Shards are written safely (a\n"
           "temporary file renamed into place); a shard can never replace IN.\n"
           "Exit status: 0 success, 1 failure, 2 usage error.\n",
           USAGE);
}

/* N, NK, NM or NG in llama.cpp's decimal units. */
static int parse_size(const char *s, uint64_t *v) {
    char *end;
    if (*s < '0' || *s > '9') return 0;
    unsigned long long x = strtoull(s, &end, 10);
    uint64_t mul = 1;
    if (*end == 'K') mul = 1000, end++;
    else if (*end == 'M') mul = 1000 * 1000, end++;
    else if (*end == 'G') mul = 1000 * 1000 * 1000, end++;
    if (*end || x == 0 || __builtin_mul_overflow((uint64_t)x, mul, v)) return 0;
    return 1;
}

int cmd_split(int argc, char **argv) {
    const char *in = NULL, *prefix = NULL;
    lgg_split_options so;
    lgg_split_options_init(&so);
    int dry = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return CLI_OK;
        }
        if (!strcmp(a, "--max-tensors") || !strcmp(a, "--max-size")) {
            if (i + 1 >= argc) return cli_usage_error("split", USAGE, "%s needs a value", a);
            if (so.max_tensors || so.max_size)
                return cli_usage_error("split", USAGE, "give one of --max-tensors and --max-size, once");
            const char *v = argv[++i];
            if (!strcmp(a, "--max-tensors")) {
                char *end;
                unsigned long long n = v[0] >= '0' && v[0] <= '9' ? strtoull(v, &end, 10) : 0;
                if (!n || *end) return cli_usage_error("split", USAGE, "--max-tensors must be a positive number, not '%s'", v);
                so.max_tensors = n;
            } else if (!parse_size(v, &so.max_size)) {
                return cli_usage_error("split", USAGE, "--max-size must be a positive N, NK, NM or NG, not '%s'", v);
            }
        } else if (!strcmp(a, "--dry-run")) {
            dry = 1;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("split", USAGE, "unknown option '%s'", a);
        } else if (!in) {
            in = a;
        } else if (!prefix) {
            prefix = a;
        } else {
            return cli_usage_error("split", USAGE, "unexpected argument '%s'", a);
        }
    }
    if (!so.max_tensors && !so.max_size) return cli_usage_error("split", USAGE, "--max-tensors or --max-size is required");
    if (!in || !prefix) return cli_usage_error("split", USAGE, "IN and PREFIX are required");
    int fd = open(in, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "gguf split: %s: %s\n", in, strerror(errno));
        return CLI_FAIL;
    }
    lgg_file *f = NULL;
    lgg_split_plan *p = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    int rc = CLI_FAIL;
    size_t cap = strlen(prefix) + 32;
    char *name = malloc(cap);
    if (!name) {
        fprintf(stderr, "gguf split: out of memory\n");
        goto out;
    }
    if (lgg_open_fd(fd, NULL, &f, &e) != LGG_OK || lgg_split_plan_make(f, &so, &p, &e) != LGG_OK) {
        fprintf(stderr, "gguf split: %s: %s [%s]\n", in, e.message, lgg_status_name(e.code));
        goto out;
    }
    uint32_t n = lgg_split_plan_count(p);
    if (dry) {
        printf("%u shards, %llu tensors\n", n, (unsigned long long)lgg_tensor_count(f));
        for (uint32_t i = 0; i < n; i++) {
            const lgg_shard *s = lgg_split_plan_shard(p, i);
            lgg_split_path(name, cap, prefix, i, n);
            printf("%s: %llu tensors", name, (unsigned long long)s->n_tensors);
            if (s->n_tensors) {
                printf(" from ");
                cli_text_name(stdout, lgg_tensor_at(f, s->first_tensor)->name);
            }
            printf(", %llu bytes\n", (unsigned long long)s->size);
        }
        rc = CLI_OK;
        goto out;
    }
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.endian = lgg_file_endian(f);
    uint32_t done = 0;
    for (; done < n; done++) {
        lgg_writer *w = NULL;
        lgg_split_path(name, cap, prefix, done, n);
        lgg_status st = lgg_split_shard_writer(f, fd, p, done, &w, &e);
        if (!st) st = lgg_writer_write_file(w, name, &wo, &e);
        lgg_writer_free(w);
        if (st) {
            fprintf(stderr, "gguf split: %s: %s [%s]\n", name, e.message, lgg_status_name(e.code));
            break;
        }
        printf("%s\n", name);
        fflush(stdout);
    }
    if (done == n) {
        rc = CLI_OK;
    } else {
        /* an incomplete set is of no use: take back the shards this run wrote */
        for (uint32_t i = 0; i < done; i++) {
            lgg_split_path(name, cap, prefix, i, n);
            if (unlink(name) == 0) fprintf(stderr, "gguf split: removed %s\n", name);
        }
    }
out:
    free(name);
    lgg_split_plan_free(p);
    lgg_close(f);
    close(fd);
    return rc;
}
