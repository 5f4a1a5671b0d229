/* cmd_estimate.c -- `gguf estimate MODEL [options] [--json]`: the memory
 * llama.cpp (b4747) allocates to run MODEL, from its header alone
 * (lgg_estimate_model), with llama.cpp's option names and defaults. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char USAGE[] = "gguf estimate MODEL [-c N] [-b N] [-ub N] [-np N] [-ctk TYPE] [-ctv TYPE] [-fa] "
                            "[--no-mmap] [-ngl N] [--fit BYTES] [--fit-device BYTES] [--json]";

static void help(void) {
    printf("usage: %s\n\n"
           "Estimate the memory llama.cpp (b4747) allocates to run MODEL (a file, or the first\n"
           "shard of a set: PREFIX-00001-of-0000N.gguf), from the header alone: the weights\n"
           "(mapped, or read into memory with --no-mmap), the KV cache (K and V), the output\n"
           "buffer, the compute buffer and the total.  Options as llama.cpp's, with its defaults:\n"
           "  -c, --ctx-size N         context size (default 4096; 0 = the model's)\n"
           "  -b, --batch-size N       logical batch (default 2048)\n"
           "  -ub, --ubatch-size N     physical batch (default 512)\n"
           "  -np, --parallel N        parallel sequences, sharing the context (default 1)\n"
           "  -ctk, --cache-type-k T   K cache type: f32 f16 bf16 q8_0 q4_0 q4_1 iq4_nl q5_0 q5_1\n"
           "  -ctv, --cache-type-v T   V cache type (quantized needs -fa) (default f16)\n"
           "  -fa, --flash-attn        flash attention (pads the context to 256, not 32)\n"
           "  --no-mmap                weights read into host memory\n"
           "  -ngl, --n-gpu-layers N   offload N layers to one device, counted from the last;\n"
           "                           above the layer count the output layer too (default 0)\n"
           "  --fit BYTES              also print the largest context whose host total fits\n"
           "  --fit-device BYTES       also print the largest -ngl whose device total fits\n"
           "                           (with both, the context is fitted at that -ngl)\n"
           "  --json                   every figure in bytes as JSON\n"
           "BYTES: an integer with an optional K, M, G or T suffix (powers of 1024).\n"
           "Weights, KV cache and output are exact; the compute buffer is estimated\n"
           "(docs/estimate.md).  Exit status: 0 success, 1 failure, 2 usage error.\n",
           USAGE);
}

typedef struct opts {
    const char *path;
    lgg_estimate_params p;
    uint64_t fit, fit_device;
    bool want_fit, want_fit_device, json;
} opts;

static int parse_u32(const char *s, uint32_t *v) {
    char *end;
    if (!s || !*s || *s == '-') return 0;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x > UINT32_MAX) return 0;
    *v = (uint32_t)x;
    return 1;
}

static int parse_bytes(const char *s, uint64_t *v) {
    char *end;
    if (!s || !*s || *s == '-') return 0;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s) return 0;
    int shift = 0;
    if (*end) {
        const char *u = strchr("KMGT", end[0] & ~0x20);
        if (!u || end[1]) return 0;
        shift = 10 * (int)(u - "KMGT" + 1);
    }
    if (shift && x > (UINT64_MAX >> shift)) return 0;
    *v = (uint64_t)x << shift;
    return 1;
}

static int parse_type(const char *s, uint32_t *t) {
    return s && lgg_type_from_name(s, strlen(s), t) == LGG_OK;
}

static bool is(const char *a, const char *short_name, const char *long_name) {
    return (short_name && !strcmp(a, short_name)) || (long_name && !strcmp(a, long_name));
}

/* One option with a value; returns 1 if consumed, 0 if not this kind, or a
 * usage error (< 0). */
static int value_option(opts *o, const char *a, const char *v) {
    lgg_estimate_params *p = &o->p;
    int ok;
    if (is(a, "-c", "--ctx-size")) ok = parse_u32(v, &p->n_ctx);
    else if (is(a, "-b", "--batch-size")) ok = parse_u32(v, &p->n_batch);
    else if (is(a, "-ub", "--ubatch-size")) ok = parse_u32(v, &p->n_ubatch);
    else if (is(a, "-np", "--parallel")) ok = parse_u32(v, &p->n_seq_max);
    else if (is(a, "-ngl", "--n-gpu-layers") || is(a, "--gpu-layers", NULL)) ok = parse_u32(v, &p->n_gpu_layers);
    else if (is(a, "-ctk", "--cache-type-k")) ok = parse_type(v, &p->type_k);
    else if (is(a, "-ctv", "--cache-type-v")) ok = parse_type(v, &p->type_v);
    else if (is(a, "--fit", NULL)) ok = o->want_fit = parse_bytes(v, &o->fit);
    else if (is(a, "--fit-device", NULL)) ok = o->want_fit_device = parse_bytes(v, &o->fit_device);
    else return 0;
    if (!v) return -cli_usage_error("estimate", USAGE, "%s needs a value", a);
    if (!ok) return -cli_usage_error("estimate", USAGE, "bad value '%s' for %s", v, a);
    return 1;
}

static int parse_args(int argc, char **argv, opts *o) {
    memset(o, 0, sizeof *o);
    lgg_estimate_params_init(&o->p);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (cli_is_help(a)) {
            help();
            return -1;
        }
        int r = value_option(o, a, i + 1 < argc ? argv[i + 1] : NULL);
        if (r < 0) return -r;
        if (r > 0) {
            i++;
            continue;
        }
        if (is(a, "-fa", "--flash-attn")) o->p.flash_attn = true;
        else if (is(a, "--no-mmap", NULL)) o->p.no_mmap = true;
        else if (is(a, "--json", NULL)) o->json = true;
        else if (a[0] == '-' && a[1]) return cli_usage_error("estimate", USAGE, "unknown option '%s'", a);
        else if (o->path) return cli_usage_error("estimate", USAGE, "unexpected argument '%s'", a);
        else o->path = a;
    }
    if (!o->path) return cli_usage_error("estimate", USAGE, "MODEL is required");
    return 0;
}

/* ---- opening a file or a shard set ---- */

typedef struct model {
    lgg_file **files;
    uint32_t n;
} model;

static void model_close(model *m) {
    for (uint32_t i = 0; i < m->n; i++) lgg_close(m->files[i]);
    free(m->files);
}

static lgg_file *open_one(const char *path) {
    lgg_open_options oo;
    lgg_open_options_init(&oo);
    oo.flags = LGG_OPEN_ALLOW_MISSING_DATA; /* only the header is needed */
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    if (lgg_open_file(path, &oo, &f, &e) != LGG_OK) {
        fprintf(stderr, "gguf estimate: %s: %s [%s]\n", path, e.message, lgg_status_name(e.code));
        return NULL;
    }
    return f;
}

static int model_open(const char *path, model *m) {
    memset(m, 0, sizeof *m);
    lgg_file *f0 = open_one(path);
    if (!f0) return CLI_FAIL;
    lgg_value v;
    uint64_t count = 1;
    if (lgg_get(f0, "split.count", &v) == LGG_OK && (lgg_value_uint(&v, &count) != LGG_OK || count == 0 ||
                                                      count > 65535))
        count = 0;
    uint32_t idx, cnt;
    size_t plen = 0;
    if (count != 1 && (!lgg_split_name_parse(path, strlen(path), &idx, &cnt, &plen) || idx != 0 || cnt != count)) {
        fprintf(stderr, "gguf estimate: %s: a shard set is read from its first shard, named PREFIX-00001-of-%05llu.gguf\n",
                path, (unsigned long long)count);
        lgg_close(f0);
        return CLI_FAIL;
    }
    m->files = calloc(count, sizeof *m->files);
    char *name = malloc(plen + 32), *prefix = malloc(plen + 1);
    int rc = CLI_FAIL;
    if (!m->files || !name || !prefix) {
        fprintf(stderr, "gguf estimate: out of memory\n");
        lgg_close(f0);
        goto out;
    }
    m->files[m->n++] = f0;
    memcpy(prefix, path, plen);
    prefix[plen] = 0;
    for (uint32_t i = 1; i < count; i++) {
        lgg_split_path(name, plen + 32, prefix, i, (uint32_t)count);
        if (!(m->files[m->n] = open_one(name))) goto out;
        m->n++;
    }
    rc = CLI_OK;
out:
    free(name);
    free(prefix);
    return rc;
}

/* ---- output ---- */

static const char *type_lower(uint32_t t, char *buf, size_t cap) {
    const char *n = lgg_type_name(t);
    size_t i = 0;
    for (; n && n[i] && i + 1 < cap; i++) buf[i] = (char)(n[i] >= 'A' && n[i] <= 'Z' ? n[i] + 32 : n[i]);
    buf[i] = 0;
    return buf;
}

static void json_part(FILE *o, const lgg_estimate_part *p) {
    fprintf(o, "\"weights\": %llu, \"kv_cache\": {\"k\": %llu, \"v\": %llu}, \"output\": %llu, \"compute\": %llu, "
               "\"total\": %llu",
            (unsigned long long)p->weights, (unsigned long long)p->kv_k, (unsigned long long)p->kv_v,
            (unsigned long long)p->output, (unsigned long long)p->compute, (unsigned long long)p->total);
}

static void json_settings(FILE *o, const lgg_estimate *e) {
    char tk[16], tv[16];
    fprintf(o, "\"settings\": {\"n_ctx\": %u, \"n_ctx_train\": %u, \"n_batch\": %u, \"n_ubatch\": %u, "
               "\"n_seq_max\": %u, \"kv_size\": %u, \"type_k\": \"%s\", \"type_v\": \"%s\", \"flash_attn\": %s, "
               "\"mmap\": %s, \"n_gpu_layers\": %u, \"n_layer\": %u, \"n_vocab\": %llu}",
            e->n_ctx, e->n_ctx_train, e->n_batch, e->n_ubatch, e->n_seq_max, e->kv_size,
            type_lower(e->type_k, tk, sizeof tk), type_lower(e->type_v, tv, sizeof tv),
            e->flash_attn ? "true" : "false", e->mmap ? "true" : "false", e->n_gpu_layers, e->n_layer,
            (unsigned long long)e->n_vocab);
}

typedef struct fit_result {
    bool has_ctx, has_ngl;
    uint32_t ctx, ngl;
} fit_result;

/* Why a figure deserves a remark (for both the text and the JSON). */
static size_t notes(const lgg_estimate *e, const lgg_estimate_params *p, const char *out[4]) {
    size_t n = 0;
    if (p->flash_attn && !e->flash_attn && !e->recurrent)
        out[n++] = "flash attention forced off: the K and V head sizes differ (as llama.cpp does)";
    if (e->repack_q4_0)
        out[n++] = "Q4_0 matrices on the host may be repacked into a CPU_AARCH64 buffer on some CPUs "
                   "(x86 with AVX2); the weights count them once";
    if (e->n_gpu_layers)
        out[n++] = "the split between host and device compute buffers is modelled without a GPU reference";
    if (e->recurrent) out[n++] = "recurrent model: the cache holds one state per sequence, whatever the context";
    return n;
}

static void print_json(const opts *o, const lgg_estimate *e, const fit_result *fr) {
    printf("{\"model\": ");
    cli_json_str(stdout, o->path, strlen(o->path));
    printf(", \"arch\": ");
    cli_json_str(stdout, e->arch, strlen(e->arch));
    printf(", ");
    json_part(stdout, &e->all);
    printf(", ");
    json_settings(stdout, e);
    printf(", \"devices\": [");
    if (e->n_gpu_layers) {
        printf("{\"name\": \"host\", \"layers\": %u, \"output_layer\": %s, ", e->n_layer - (e->n_gpu_layers > e->n_layer ? e->n_layer : e->n_gpu_layers),
               e->output_offloaded ? "false" : "true");
        json_part(stdout, &e->host);
        printf("}, {\"name\": \"device\", \"layers\": %u, \"output_layer\": %s, ",
               e->n_gpu_layers > e->n_layer ? e->n_layer : e->n_gpu_layers, e->output_offloaded ? "true" : "false");
        json_part(stdout, &e->device);
        printf("}");
    }
    printf("], \"fit\": {\"ctx\": ");
    if (fr->has_ctx) printf("%u", fr->ctx);
    else printf("null");
    printf(", \"n_gpu_layers\": ");
    if (fr->has_ngl) printf("%u", fr->ngl);
    else printf("null");
    printf("}, \"notes\": [");
    const char *nt[4];
    size_t n = notes(e, &o->p, nt);
    for (size_t i = 0; i < n; i++) {
        if (i) printf(", ");
        cli_json_str(stdout, nt[i], strlen(nt[i]));
    }
    printf("]}\n");
}

static void row(const char *name, const uint64_t *v, int nv) {
    printf("%-9s", name);
    for (int i = 0; i < nv; i++) printf(" %15llu %11.2f", (unsigned long long)v[i], (double)v[i] / 1048576.0);
    printf("\n");
}

static void print_text(const opts *o, const lgg_estimate *e, const fit_result *fr) {
    char tk[16], tv[16];
    printf("model     %s (%s, %u layers, context %u)\n", o->path, e->arch, e->n_layer, e->n_ctx_train);
    printf("settings  n_ctx %u, n_batch %u, n_ubatch %u, n_seq_max %u, kv_size %u, K %s, V %s,\n"
           "          flash_attn %s, mmap %s, n_gpu_layers %u\n\n",
           e->n_ctx, e->n_batch, e->n_ubatch, e->n_seq_max, e->kv_size, type_lower(e->type_k, tk, sizeof tk),
           type_lower(e->type_v, tv, sizeof tv), e->flash_attn ? "on" : "off", e->mmap ? "on" : "off",
           e->n_gpu_layers);
    const lgg_estimate_part *parts[3] = {&e->all, &e->host, &e->device};
    int nv = e->n_gpu_layers ? 3 : 1;
    if (nv == 1) printf("%-9s %15s %11s\n", "", "bytes", "MiB");
    else printf("%-9s %27s %27s %27s\n", "", "host + device (bytes, MiB)", "host", "device");
    static const char *const names[6] = {"weights", "kv k", "kv v", "output", "compute", "total"};
    for (int r = 0; r < 6; r++) {
        uint64_t v[3];
        for (int i = 0; i < nv; i++) {
            const lgg_estimate_part *p = parts[i];
            const uint64_t f[6] = {p->weights, p->kv_k, p->kv_v, p->output, p->compute, p->total};
            v[i] = f[r];
        }
        row(names[r], v, nv);
    }
    if (fr->has_ngl) printf("\nfit: -ngl %u (the most layers whose device total fits %llu bytes)\n", fr->ngl,
                            (unsigned long long)o->fit_device);
    if (fr->has_ctx) printf("%sfit: -c %u (the largest context whose host total fits %llu bytes)\n",
                            fr->has_ngl ? "" : "\n", fr->ctx, (unsigned long long)o->fit);
    const char *nt[4];
    size_t n = notes(e, &o->p, nt);
    for (size_t i = 0; i < n; i++) printf("%snote: %s\n", i ? "" : "\n", nt[i]);
}

static int fail(const opts *o, const lgg_error *e) {
    fprintf(stderr, "gguf estimate: %s: %s [%s]\n", o->path, e->message, lgg_status_name(e->code));
    return CLI_FAIL;
}

/* An architecture the estimator does not know: the weights, then the error. */
static int unknown_arch(const opts *o, const lgg_estimate *e, const lgg_error *err) {
    if (o->json) {
        printf("{\"model\": ");
        cli_json_str(stdout, o->path, strlen(o->path));
        printf(", \"arch\": ");
        cli_json_str(stdout, e->arch, strlen(e->arch));
        printf(", \"weights\": %llu, \"kv_cache\": null, \"output\": null, \"compute\": null, \"total\": null}\n",
               (unsigned long long)e->all.weights);
    } else {
        printf("model     %s (%s)\n", o->path, e->arch);
        printf("weights   %llu bytes (%.2f MiB, %s)\n", (unsigned long long)e->all.weights,
               (double)e->all.weights / 1048576.0, e->mmap ? "mapped" : "--no-mmap");
    }
    return fail(o, err);
}

static int run_fits(const opts *o, const model *m, lgg_estimate_params *p, fit_result *fr, lgg_error *err) {
    const lgg_file *const *files = (const lgg_file *const *)m->files;
    if (o->want_fit_device) {
        if (lgg_estimate_fit_gpu_layers(files, m->n, p, o->fit_device, &fr->ngl, err) != LGG_OK) return CLI_FAIL;
        fr->has_ngl = true;
        p->n_gpu_layers = fr->ngl;
    }
    if (o->want_fit) {
        if (lgg_estimate_fit_ctx(files, m->n, p, o->fit, o->want_fit_device ? o->fit_device : 0, &fr->ctx, err) !=
            LGG_OK)
            return CLI_FAIL;
        fr->has_ctx = true;
    }
    return CLI_OK;
}

int cmd_estimate(int argc, char **argv) {
    opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? CLI_OK : rc;
    model m;
    if (model_open(o.path, &m) != CLI_OK) {
        model_close(&m);
        return CLI_FAIL;
    }
    lgg_error err;
    memset(&err, 0, sizeof err);
    lgg_estimate e;
    fit_result fr = {false, false, 0, 0};
    lgg_estimate_params p = o.p;
    lgg_status st = lgg_estimate_model((const lgg_file *const *)m.files, m.n, &p, &e, &err);
    if (st == LGG_ERR_UNSUPPORTED && !e.arch_known && e.arch[0]) {
        rc = unknown_arch(&o, &e, &err);
    } else if (st != LGG_OK || run_fits(&o, &m, &p, &fr, &err) != CLI_OK) {
        rc = fail(&o, &err);
    } else {
        if (o.json) print_json(&o, &e, &fr);
        else print_text(&o, &e, &fr);
        rc = CLI_OK;
    }
    model_close(&m);
    return rc;
}
