/* cmd_split.c -- `gguf split (--max-tensors N | --max-size N[K|M|G][B|iB])
 * [--dry-run] IN PREFIX`: cut a model into PREFIX-00001-of-0000N.gguf...
 * exactly as llama.cpp's gguf-split does, so its loader and `gguf merge`
 * take them back. */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spec_split.h" /* from tools/spec/split.txt (scripts/cli-spec.awk) */

typedef struct sopts {
    lgg_split_options so;
    int dry;
} sopts;

static int on_opt(void *ud, int id, const char *v, char *why, size_t cap) {
    sopts *o = ud;
    if ((id == 't' || id == 's') && (o->so.max_tensors || o->so.max_size))
        return cli_why(why, cap, "give one of --max-tensors and --max-size, once");
    if (id == 't' && (!cli_parse_u64(v, &o->so.max_tensors) || !o->so.max_tensors))
        return cli_why(why, cap, "--max-tensors must be a positive number, not '%s'", v);
    if (id == 's' && (!cli_size_option("split", "--max-size", v, 0, &o->so.max_size) || !o->so.max_size))
        return cli_why(why, cap, "--max-size must be a positive N, NK, NM, NG, NGB or NGiB, not '%s'", v);
    if (id == 'f') o->so.flags |= LGG_SPLIT_NO_TENSOR_FIRST;
    if (id == 'd') o->dry = 1;
    return 0;
}

int cmd_split(int argc, char **argv) {
    sopts opt;
    memset(&opt, 0, sizeof opt);
    lgg_split_options_init(&opt.so);
    int np = 0;
    int prc = cli_parse(&SPEC, argc, argv, on_opt, &opt, &np);
    if (prc) return prc == CLI_HELP ? CLI_OK : prc;
    lgg_split_options so = opt.so;
    const int dry = opt.dry;
    const char *in = argv[1], *prefix = argv[2];
    if (!so.max_tensors && !so.max_size) so.max_tensors = 128; /* llama-gguf-split's default */
    int fd = cli_open_fd("split", in);
    if (fd < 0) return CLI_FAIL;
    lgg_file *f = NULL;
    lgg_split_plan *p = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    int rc = CLI_FAIL;
    size_t cap = strlen(prefix) + 32;
    char *name = malloc(cap);
    if (!name) {
        cli_err("split", NULL, "out of memory");
        goto out;
    }
    if (lgg_open_fd(fd, NULL, &f, &e) != LGG_OK || lgg_split_plan_make(f, &so, &p, &e) != LGG_OK) {
        cli_err_lgg("split", in, &e);
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
    for (uint32_t i = 0; i < n; i++) { /* refused before anything is written */
        lgg_split_path(name, cap, prefix, i, n);
        if (cli_output_check("split", name) != CLI_OK) goto out;
    }
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.endian = lgg_file_endian(f);
    uint32_t done = 0;
    cli_outputs_begin(); /* a signal takes back the shards this run wrote */
    for (; done < n; done++) {
        lgg_writer *w = NULL;
        lgg_split_path(name, cap, prefix, done, n);
        lgg_status st = lgg_split_shard_writer(f, fd, p, done, &w, &e);
        if (!st) st = cli_write_file(w, name, &wo, &e);
        lgg_writer_free(w);
        if (st) {
            cli_err_lgg("split", name, &e);
            break;
        }
        printf("%s\n", name);
        fflush(stdout);
    }
    /* an incomplete set is of no use: take back the shards this run wrote */
    if (done == n) cli_outputs_keep(), rc = CLI_OK;
    else cli_outputs_remove("split");
out:
    free(name);
    lgg_split_plan_free(p);
    lgg_close(f);
    close(fd);
    return rc;
}
