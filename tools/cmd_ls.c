/* cmd_ls.c -- `gguf ls hf://OWNER/REPO[@REV]`: a Hugging Face repository's
 * files with their sizes, from the hub's API (lgg_hub_list), then its GGUF
 * files grouped into shard sets with the quantization their names carry;
 * with --fit/--fit-device, which of them fit a budget, from their headers
 * alone (range requests, no download) through the estimator. */
#include "tool.h"

#include "libgguf_remote.h"

#include <stdlib.h>
#include <string.h>

#include "spec_ls.h" /* from tools/spec/ls.txt (scripts/cli-spec.awk) */

typedef struct ls_opts {
    int json;
    uint64_t fit, fit_device; /* budgets; 0: none given (several devices: in p.device_free) */
    lgg_estimate_params p;
} ls_opts;

/* --fit-device A,B,...: one budget per device, as 'gguf estimate' takes them */
static int device_budgets(ls_opts *o, const char *v, char *why, size_t cap) {
    uint32_t n = 0;
    for (const char *s = v;; n++) {
        char word[64];
        size_t len = strcspn(s, ",");
        if (n == LGG_ESTIMATE_MAX_DEVICES || !len || len >= sizeof word)
            return cli_why(why, cap, "--fit-device takes up to %d byte counts such as 24G,24G, not '%s'",
                           LGG_ESTIMATE_MAX_DEVICES, v);
        memcpy(word, s, len);
        word[len] = 0;
        if (!cli_size_option("ls", "--fit-device", word, 1, &o->p.device_free[n]) || !o->p.device_free[n])
            return cli_why(why, cap, "--fit-device: '%s' is not a byte count above 0 such as 24G", word);
        if (!s[len]) break;
        s += len + 1;
    }
    o->p.n_devices = n + 1;
    o->fit_device = o->p.device_free[0];
    return 0;
}

static int on_opt(void *ud, int id, const char *v, char *why, size_t cap) {
    ls_opts *o = ud;
    uint64_t n;
    switch (id) {
    case 'j': o->json = 1; return 0;
    case 'd':
        if (strchr(v, ',')) return device_budgets(o, v, why, cap);
        /* fall through */
    case 'f': {
        const char *name = id == 'f' ? "--fit" : "--fit-device";
        if (!cli_size_option("ls", name, v, 1, id == 'f' ? &o->fit : &o->fit_device) || !(id == 'f' ? o->fit : o->fit_device))
            return cli_why(why, cap, "%s must be a byte count above 0 such as 16G, 16GiB or 16GB, not '%s'", name, v);
        return 0;
    }
    case 'T':
        if (!strcmp(v, "master")) o->p.target = LGG_ESTIMATE_MASTER;
        else if (!strcmp(v, "b4747")) o->p.target = LGG_ESTIMATE_B4747;
        else return cli_why(why, cap, "--target must be b4747 or master, not '%s'", v);
        return 0;
    default:
        if (!cli_parse_u64(v, &n) || n > UINT32_MAX)
            return cli_why(why, cap, "%s must be a whole number below 2^32, not '%s'", id == 'c' ? "-c" : "-ngl", v);
        if (id == 'c') o->p.n_ctx = (uint32_t)n;
        else o->p.n_gpu_layers = (uint32_t)n;
        return 0;
    }
}

/* A shard's set: the name before "-NNNNN-of-MMMMM.gguf" and MMMMM. */
typedef struct shard {
    const char *path;
    size_t pre, i;
    uint32_t count;
} shard;

/* By set, then by place in the listing: each set's first file leads its run. */
static int by_set(const void *a, const void *b) {
    const shard *x = a, *y = b;
    int c = memcmp(x->path, y->path, x->pre < y->pre ? x->pre : y->pre);
    if (c) return c;
    if (x->pre != y->pre) return x->pre < y->pre ? -1 : 1;
    if (x->count != y->count) return x->count < y->count ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Each file's group into group[]: the index of its set's first file in the
 * listing (itself when it is not a shard), so that a set's shards share
 * one.  Sorting, not a search per file: 2,000 shard names took 98 s when
 * every file looked for its set's first, for every group (O(n^3)). */
static int group_all(const lgg_hub_repo *r, size_t *group) {
    size_t n = lgg_hub_file_count(r), k = 0;
    shard *s = malloc((n + 1) * sizeof *s);
    if (!s) return -1;
    for (size_t i = 0; i < n; i++) {
        const char *p = lgg_hub_file_at(r, i)->path;
        size_t pre = 0;
        uint32_t no, count;
        group[i] = i;
        if (lgg_split_name_parse(p, strlen(p), &no, &count, &pre)) s[k++] = (shard){p, pre, i, count};
    }
    qsort(s, k, sizeof *s, by_set);
    for (size_t j = 1; j < k; j++)
        if (s[j].pre == s[j - 1].pre && s[j].count == s[j - 1].count && !memcmp(s[j].path, s[j - 1].path, s[j].pre))
            group[s[j].i] = group[s[j - 1].i];
    free(s);
    return 0;
}

static int is_gguf(const char *p) {
    size_t l = strlen(p);
    return l > 5 && !strcmp(p + l - 5, ".gguf");
}

static void print_files(const lgg_hub_repo *r, int json) {
    size_t n = lgg_hub_file_count(r);
    if (json) printf("{\"files\": [");
    for (size_t i = 0; i < n; i++) {
        const lgg_hub_file *f = lgg_hub_file_at(r, i);
        if (json) {
            printf("%s{\"path\": ", i ? ", " : "");
            cli_json_str(stdout, f->path, strlen(f->path));
            printf(", \"size\": %llu, \"sha256\": \"%s\"}", (unsigned long long)f->size, f->sha256);
        } else {
            printf("%14llu  %s\n", (unsigned long long)f->size, f->path);
        }
    }
    printf(json ? "], \"gguf\": [" : "");
}

/* One fit row: the set whose first file is `first`, read by its headers. */
typedef struct fit_row {
    lgg_estimate e;     /* at -c */
    uint32_t max_ctx;   /* the largest context that fits (up to the training context), 0: none */
    int fits;           /* -c's totals within the budgets */
    char why[512];      /* the header or the estimate failed: why ("" otherwise) */
} fit_row;

static void fit_one(const ls_opts *o, const char *repo, const char *rev, const char *first, fit_row *r) {
    memset(r, 0, sizeof *r);
    char name[4400];
    snprintf(name, sizeof name, "hf://%s/%s%s%s", repo, first, rev ? "@" : "", rev ? rev : "");
    cli_shards m;
    if (cli_shards_header("ls", name, &m) != CLI_OK) { /* its diagnostic names the file */
        snprintf(r->why, sizeof r->why, "its header cannot be read");
        return;
    }
    const lgg_file *const *files = (const lgg_file *const *)m.files;
    lgg_error err;
    memset(&err, 0, sizeof err);
    if (lgg_estimate_model(files, m.n, &o->p, &r->e, &err) != LGG_OK) {
        snprintf(r->why, sizeof r->why, "%s", err.message);
    } else {
        const uint64_t host = o->fit ? o->fit : UINT64_MAX;
        const est_budgets b = cli_estimate_budgets(&o->p, o->fit, o->fit_device);
        r->fits = cli_estimate_fits(&r->e, &b);
        lgg_status st = lgg_estimate_fit_ctx_max(files, m.n, &o->p, host, o->fit_device, r->e.n_ctx_train, &r->max_ctx, &err);
        if (st != LGG_OK) r->max_ctx = 0;
    }
    cli_shards_close(&m);
}

static void fit_json(const char *q, const char *first, const fit_row *r, int comma) {
    printf("%s{\"quantization\": \"%s\", \"first\": ", comma ? ", " : "", q);
    cli_json_str(stdout, first, strlen(first));
    if (*r->why) {
        printf(", \"error\": ");
        cli_json_str(stdout, r->why, strlen(r->why));
        printf("}");
        return;
    }
    const lgg_estimate *e = &r->e;
    printf(", \"arch\": ");
    cli_json_str(stdout, e->arch, strlen(e->arch));
    printf(", \"n_ctx\": %u, \"weights\": %llu, \"kv_cache\": {\"k\": %llu, \"v\": %llu}, \"total\": %llu, "
           "\"device_total\": %llu, \"max_ctx\": ", e->n_ctx, (unsigned long long)e->all.weights,
           (unsigned long long)e->all.kv_k, (unsigned long long)e->all.kv_v, (unsigned long long)e->host.total,
           (unsigned long long)e->device.total);
    if (r->max_ctx) printf("%u", r->max_ctx);
    else printf("null");
    if (e->n_devices > 1) { /* added: each device's total */
        printf(", \"device_totals\": [");
        for (uint32_t d = 0; d < e->n_devices; d++) printf("%s%llu", d ? ", " : "", (unsigned long long)e->devices[d].total);
        printf("]");
    }
    printf(", \"fits\": %s}", r->fits ? "true" : "false");
}

static void fit_text(const char *q, const fit_row *r) {
    if (*r->why) {
        printf("  %-8s %s\n", *q ? q : "-", r->why);
        return;
    }
    const lgg_estimate *e = &r->e;
    char ctx[16] = "-";
    if (r->max_ctx) snprintf(ctx, sizeof ctx, "%u", r->max_ctx);
    printf("  %-8s %14llu %14llu %14llu %11s  %s\n", *q ? q : "-", (unsigned long long)e->all.weights,
           (unsigned long long)(e->all.kv_k + e->all.kv_v), (unsigned long long)e->host.total, ctx,
           r->fits ? "yes" : "no");
}

/* The budgets, as a heading line. */
static void fit_heading(const ls_opts *o) {
    char h[32] = "", d[16 * 24] = "";
    if (o->fit) snprintf(h, sizeof h, "host %.2f GiB", (double)o->fit / 1073741824.0);
    if (o->fit_device && o->p.n_devices < 2)
        snprintf(d, sizeof d, "%sdevice %.2f GiB", o->fit ? ", " : "", (double)o->fit_device / 1073741824.0);
    for (uint32_t i = 0, k = 0; o->p.n_devices > 1 && i < o->p.n_devices && k < sizeof d; i++) {
        int w = snprintf(d + k, sizeof d - k, "%s%s%.2f GiB", o->fit || i ? ", " : "", i ? "" : "devices ",
                         (double)o->p.device_free[i] / 1073741824.0);
        if (w > 0) k += (size_t)w;
    }
    printf("\nFit (%s%s; -c %u%s, -ngl %u, target %s; bytes; largest context up to the training context):\n", h, d,
           o->p.n_ctx, o->p.n_ctx ? "" : " (the model's)", o->p.n_gpu_layers,
           o->p.target == LGG_ESTIMATE_MASTER ? "master" : "b4747");
    printf("  %-8s %14s %14s %14s %11s  %s\n", "quant", "weights", "KV cache", "host total", "max context", "fits");
}

/* The files, then the GGUF files by set (in the order of each set's first
 * file), then with a budget the fit of each set; -1 when out of memory, 1
 * when a set's header could not be read or estimated. */
static int print(const lgg_hub_repo *r, const ls_opts *o, const char *repo, const char *rev) {
    const int json = o->json, fit = o->fit || o->fit_device;
    size_t n = lgg_hub_file_count(r);
    size_t *group = malloc((n + 1) * sizeof *group);
    uint64_t *total = calloc(n + 1, sizeof *total), *count = calloc(n + 1, sizeof *count);
    if (!group || !total || !count || group_all(r, group)) {
        free(group), free(total), free(count);
        return -1;
    }
    for (size_t j = 0; j < n; j++)
        if (is_gguf(lgg_hub_file_at(r, j)->path)) total[group[j]] += lgg_hub_file_at(r, j)->size, count[group[j]]++;
    print_files(r, json);
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const lgg_hub_file *f = lgg_hub_file_at(r, i);
        if (!is_gguf(f->path) || group[i] != i) continue;
        char q[64];
        lgg_hub_quant_name(f->path, q, sizeof q);
        if (json) {
            printf("%s{\"quantization\": \"%s\", \"first\": ", any ? ", " : "", q);
            cli_json_str(stdout, f->path, strlen(f->path));
            printf(", \"files\": %llu, \"size\": %llu}", (unsigned long long)count[i], (unsigned long long)total[i]);
        } else {
            if (!any) printf("\nGGUF files (quantization, files, size, first file):\n");
            printf("  %-8s %3llu %14llu  %s\n", *q ? q : "-", (unsigned long long)count[i], (unsigned long long)total[i],
                   f->path);
        }
        any = 1;
    }
    if (json) printf("]");
    int bad = 0, rows = 0;
    if (fit && json) {
        printf(", \"fit\": {\"host_budget\": %llu, \"device_budget\": %llu, ", (unsigned long long)o->fit,
               (unsigned long long)(o->p.n_devices > 1 ? 0 : o->fit_device));
        if (o->p.n_devices > 1) { /* added: one budget per device */
            printf("\"device_budgets\": [");
            for (uint32_t i = 0; i < o->p.n_devices; i++)
                printf("%s%llu", i ? ", " : "", (unsigned long long)o->p.device_free[i]);
            printf("], ");
        }
        printf("\"rows\": [");
    }
    if (fit && !json) fit_heading(o);
    for (size_t i = 0; fit && i < n; i++) {
        const lgg_hub_file *f = lgg_hub_file_at(r, i);
        if (!is_gguf(f->path) || group[i] != i) continue;
        char q[64];
        lgg_hub_quant_name(f->path, q, sizeof q);
        fit_row row;
        fit_one(o, repo, rev, f->path, &row);
        bad |= *row.why != 0;
        if (json) fit_json(q, f->path, &row, rows++);
        else fit_text(q, &row);
    }
    if (fit && json) printf("]}");
    if (json) printf("}\n");
    free(group), free(total), free(count);
    return bad;
}

int cmd_ls(int argc, char **argv) {
    ls_opts o = {0};
    lgg_estimate_params_init(&o.p);
    int np = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &o, &np);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const char *name = argv[1];
    if (!lgg_hub_is_repo_name(name) || strchr(name + 5, ':'))
        return cli_usage_error("ls", SPEC.usage, "'%s' is not an hf://OWNER/REPO[@REV] name", name);
    char repo[1024];
    const char *rev;
    lgg_hub_repo *r = cli_hub_list("ls", name, repo, sizeof repo, &rev);
    if (!r) return CLI_FAIL;
    int printed = print(r, &o, repo, rev);
    lgg_hub_free(r);
    if (printed < 0) cli_err("ls", name, "out of memory");
    return printed ? CLI_FAIL : CLI_OK;
}
