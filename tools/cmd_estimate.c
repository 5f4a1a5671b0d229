/* cmd_estimate.c -- `gguf estimate [options] MODEL`: the memory llama.cpp
 * (b4747) allocates to run MODEL, from its header alone
 * (lgg_estimate_model), with llama.cpp's option names and defaults. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

/* llama.cpp's spellings, so a llama-cli command line can be pasted. */
#include "spec_estimate.h" /* from tools/spec/estimate.txt (scripts/cli-spec.awk) */

typedef struct opts {
    const char *path;
    lgg_estimate_params p;
    uint64_t fit, fit_device;
    bool want_fit, want_fit_device, json, beyond;
} opts;

/* The option's first spelling, for a usage error. */
static const char *opt_name(int id, char *buf, size_t cap) {
    for (const cli_opt *o = OPTS; o->names; o++)
        if (o->id == id) {
            snprintf(buf, cap, "%.*s", (int)strcspn(o->names, "|"), o->names);
            break;
        }
    return buf;
}

static int on_opt(void *ud, int id, const char *v, char *why, size_t cap) {
    opts *o = ud;
    lgg_estimate_params *p = &o->p;
    char name[32] = "";
    uint64_t n;
    switch (id) {
    case 'a':
        if (v && !strcmp(v, "off")) p->flash_attn = false, p->no_flash_attn = true;
        else if (!v || !strcmp(v, "on")) p->flash_attn = true, p->no_flash_attn = false;
        else if (!strcmp(v, "auto")) p->flash_attn = false, p->no_flash_attn = false;
        else return cli_why(why, cap, "--flash-attn must be off, on or auto, not '%s'", v);
        return 0;
    case 'm': p->no_mmap = true; return 0;
    case 'j': o->json = true; return 0;
    case 'R': p->repack = LGG_REPACK_NONE; return 0;
    case 'P': p->repack = LGG_REPACK_AVX512; return 0;
    case 'S': p->swa_full = true; return 0;
    case 'T':
        if (!strcmp(v, "master")) p->target = LGG_ESTIMATE_MASTER;
        else if (!strcmp(v, "b4747")) p->target = LGG_ESTIMATE_B4747;
        else return cli_why(why, cap, "--target must be b4747 or master, not '%s'", v);
        return 0;
    case 't': o->beyond = true; return 0;
    case 'k':
    case 'v':
        if (lgg_type_from_name(v, strlen(v), id == 'k' ? &p->type_k : &p->type_v) != LGG_OK)
            return cli_why(why, cap, "%s must be a tensor type such as f16 or q8_0, not '%s'",
                           opt_name(id, name, sizeof name), v);
        return 0;
    case 'f':
    case 'd':
        if (!cli_size_option("estimate", opt_name(id, name, sizeof name), v, 1, id == 'f' ? &o->fit : &o->fit_device))
            return cli_why(why, cap, "%s must be a byte count such as 16G, 16GiB or 16GB, not '%s'",
                           opt_name(id, name, sizeof name), v);
        if (id == 'f') o->want_fit = true;
        else o->want_fit_device = true;
        return 0;
    default:
        if (!cli_parse_u64(v, &n) || n > UINT32_MAX)
            return cli_why(why, cap, "%s must be a whole number below 2^32, not '%s'", opt_name(id, name, sizeof name), v);
        if (id == 'c') p->n_ctx = (uint32_t)n;
        else if (id == 'b') p->n_batch = (uint32_t)n;
        else if (id == 'u') p->n_ubatch = (uint32_t)n;
        else if (id == 'p') p->n_seq_max = (uint32_t)n;
        else p->n_gpu_layers = (uint32_t)n;
        return 0;
    }
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
               "\"mmap\": %s, \"n_gpu_layers\": %u, \"n_layer\": %u, \"n_vocab\": %llu",
            e->n_ctx, e->n_ctx_train, e->n_batch, e->n_ubatch, e->n_seq_max, e->kv_size,
            type_lower(e->type_k, tk, sizeof tk), type_lower(e->type_v, tv, sizeof tv),
            e->flash_attn ? "true" : "false", e->mmap ? "true" : "false", e->n_gpu_layers, e->n_layer,
            (unsigned long long)e->n_vocab);
    /* added with --target master (b4747's output is unchanged) */
    if (e->target == LGG_ESTIMATE_MASTER)
        fprintf(o, ", \"target\": \"master\", \"repack\": %llu, \"kv_size_swa\": %u, \"n_swa_layers\": %u",
                (unsigned long long)e->repack, e->kv_size_swa, e->n_swa_layers);
    fputc('}', o);
}

typedef struct fit_result {
    bool has_ctx, has_ngl;
    bool none;          /* --fit: even the smallest context does not fit */
    bool capped;        /* --fit stopped at the limit: a larger context would fit */
    uint32_t ctx, ngl;
    uint32_t limit;     /* the context the search stopped at (0: none) */
    uint64_t device_at; /* -ngl without --fit-device: the device's total at ctx, unchecked */
} fit_result;

enum { MAX_NOTES = 8, NOTE_CAP = 160 };

/* Why a figure deserves a remark (for both the text and the JSON). */
static size_t notes(const lgg_estimate *e, const lgg_estimate_params *p, bool fitted, char out[MAX_NOTES][NOTE_CAP]) {
    size_t n = 0;
    if (p->flash_attn && !e->flash_attn && !e->recurrent)
        snprintf(out[n++], NOTE_CAP, "flash attention forced off: the K and V head sizes differ (as llama.cpp does)");
    if (e->repack_q4_0)
        snprintf(out[n++], NOTE_CAP, "Q4_0 matrices on the host may be repacked into a CPU_AARCH64 buffer on some CPUs "
                                     "(x86 with AVX2); the weights count them once");
    if (e->repack)
        snprintf(out[n++], NOTE_CAP, "%.2f MiB of the weights are master's CPU_REPACK copy (%s; --no-repack: none)",
                 (double)e->repack / 1048576.0, e->repack_isa == LGG_REPACK_AVX512 ? "x86 AVX-512" : "x86 AVX2");
    if (e->n_swa_layers)
        snprintf(out[n++], NOTE_CAP, "%u sliding-window layers cache %u cells, the others %u (--swa-full: all %u)",
                 e->n_swa_layers, e->kv_size_swa, e->kv_size, e->kv_size);
    if (e->target == LGG_ESTIMATE_MASTER && e->arch_known && !e->recurrent)
        snprintf(out[n++], NOTE_CAP, "the compute buffer is an estimate: llama.cpp master's graph is not replayed");
    if (e->n_gpu_layers)
        snprintf(out[n++], NOTE_CAP, "the split between host and device compute buffers is modelled without a GPU reference");
    if (e->recurrent)
        snprintf(out[n++], NOTE_CAP, "recurrent model: the cache holds one state per sequence, whatever the context");
    /* the context asked for (a fitted one has its own note) */
    if (!fitted && e->n_ctx_train && e->n_ctx > e->n_ctx_train)
        snprintf(out[n++], NOTE_CAP, "-c %u is past the model's training context (%u): llama.cpp runs it, the model was "
                                     "not trained for it", e->n_ctx, e->n_ctx_train);
    return n;
}

/* A budget as people write it: GiB with two decimals (MiB below 1 GiB,
 * bytes below 1 MiB). */
static const char *gib(uint64_t bytes, char *buf, size_t cap) {
    if (bytes >= (1u << 30)) snprintf(buf, cap, "%.2f GiB", (double)bytes / 1073741824.0);
    else if (bytes >= (1u << 20)) snprintf(buf, cap, "%.2f MiB", (double)bytes / 1048576.0);
    else snprintf(buf, cap, "%llu bytes", (unsigned long long)bytes);
    return buf;
}

/* at_fit: the figures at the fitted answer (NULL: no answer). */
static void print_json(const opts *o, const lgg_estimate *e, const fit_result *fr, const lgg_estimate *at_fit) {
    printf("{\"model\": ");
    cli_json_str(stdout, cli_display_name(o->path), strlen(cli_display_name(o->path)));
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
    /* added fields: what was checked against what */
    printf(", \"host_budget\": ");
    if (o->want_fit) printf("%llu", (unsigned long long)o->fit);
    else printf("null");
    printf(", \"device_budget\": ");
    if (o->want_fit_device) printf("%llu", (unsigned long long)o->fit_device);
    else printf("null");
    printf(", \"ctx_limit\": ");
    if (fr->limit) printf("%u", fr->limit);
    else printf("null");
    printf(", \"device_at_ctx\": ");
    if (fr->has_ctx && e->n_gpu_layers && !o->want_fit_device) printf("%llu", (unsigned long long)fr->device_at);
    else printf("null");
    /* added: every figure at the answer (the top level keeps the settings asked for) */
    printf(", \"at_fit\": ");
    if (at_fit) {
        printf("{\"n_ctx\": %u, \"n_gpu_layers\": %u, ", at_fit->n_ctx, at_fit->n_gpu_layers);
        json_part(stdout, &at_fit->all);
        printf("}");
    } else {
        printf("null");
    }
    printf("}, \"compute_exact\": %s, \"notes\": [", e->compute_exact ? "true" : "false");
    char nt[MAX_NOTES][NOTE_CAP];
    size_t n = notes(e, &o->p, fr->has_ctx || fr->has_ngl, nt);
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

/* e: the figures to show (at the fitted answer when there is one). */
static void print_text(const opts *o, const lgg_estimate *e, const fit_result *fr) {
    char tk[16], tv[16];
    printf("model     %s (%s, %u layers, context %u)\n", cli_display_name(o->path), e->arch, e->n_layer, e->n_ctx_train);
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
    char b1[32], b2[32];
    if (fr->has_ngl)
        printf("\nfit: -ngl %u (the most layers whose device (GPU) total fits %s)\n", fr->ngl,
               gib(o->fit_device, b1, sizeof b1));
    if (o->want_fit) printf("%s", fr->has_ngl ? "" : "\n");
    if (fr->capped)
        printf("fit: -c %u (the model's training context; its host (RAM) total fits %s; larger contexts\n"
               "     were not searched: --fit-beyond-train)\n",
               fr->ctx, gib(o->fit, b1, sizeof b1));
    else if (fr->has_ctx)
        printf("fit: -c %u (the largest context whose host (RAM) total fits %s)\n", fr->ctx, gib(o->fit, b1, sizeof b1));
    else if (fr->none)
        printf("fit: none (even the smallest context, %u, needs more than %s on the host (RAM)%s)\n", e->n_ctx,
               gib(o->fit, b1, sizeof b1), o->want_fit_device ? " or the device (GPU)" : "");
    if (fr->has_ctx && e->n_gpu_layers && !o->want_fit_device)
        printf("fit: the device was not checked: at -c %u it needs %s (--fit-device BYTES checks it)\n",
               fr->ctx, gib(fr->device_at, b2, sizeof b2));
    if (fr->has_ctx || fr->has_ngl) printf("fit: the table above shows the figures at the answer\n");
    if (fr->has_ctx && fr->ctx > e->n_ctx_train && e->n_ctx_train)
        printf("fit: note: -c %u is past the model's training context (%u): llama.cpp runs it, the model was\n"
               "     not trained for it\n", fr->ctx, e->n_ctx_train);
    char nt[MAX_NOTES][NOTE_CAP];
    size_t n = notes(e, &o->p, fr->has_ctx || fr->has_ngl, nt);
    for (size_t i = 0; i < n; i++) printf("%snote: %s\n", i ? "" : "\n", nt[i]);
}

static int fail(const opts *o, const lgg_error *e) {
    cli_err_lgg("estimate", o->path, e);
    return CLI_FAIL;
}

/* An architecture the estimator does not know: the weights, then the error. */
static int unknown_arch(const opts *o, const lgg_estimate *e, const lgg_error *err) {
    if (o->json) {
        printf("{\"model\": ");
        cli_json_str(stdout, cli_display_name(o->path), strlen(cli_display_name(o->path)));
        printf(", \"arch\": ");
        cli_json_str(stdout, e->arch, strlen(e->arch));
        printf(", \"weights\": %llu, \"kv_cache\": null, \"output\": null, \"compute\": null, \"total\": null}\n",
               (unsigned long long)e->all.weights);
    } else {
        printf("model     %s (%s)\n", cli_display_name(o->path), e->arch);
        printf("weights   %llu bytes (%.2f MiB, %s)\n", (unsigned long long)e->all.weights,
               (double)e->all.weights / 1048576.0, e->mmap ? "mapped" : "--no-mmap");
    }
    return fail(o, err);
}

/* The estimate at context n_ctx (other settings from p). */
static lgg_status at_ctx(const cli_shards *m, const lgg_estimate_params *p, uint32_t n_ctx, lgg_estimate *e,
                         lgg_error *err) {
    lgg_estimate_params q = *p;
    q.n_ctx = n_ctx;
    return lgg_estimate_model((const lgg_file *const *)m->files, m->n, &q, e, err);
}

/* --fit-device, then --fit up to the training context (or past it).  When
 * no context fits, *e becomes the estimate at the smallest one, fr->none is
 * set and the reason is in err. */
static int run_fits(const opts *o, const cli_shards *m, lgg_estimate_params *p, lgg_estimate *e, fit_result *fr,
                    lgg_error *err) {
    const lgg_file *const *files = (const lgg_file *const *)m->files;
    if (o->want_fit_device) {
        if (lgg_estimate_fit_gpu_layers(files, m->n, p, o->fit_device, &fr->ngl, err) != LGG_OK) return CLI_FAIL;
        fr->has_ngl = true;
        p->n_gpu_layers = fr->ngl;
    }
    if (!o->want_fit) return CLI_OK;
    const uint64_t dev = o->want_fit_device ? o->fit_device : 0;
    fr->limit = o->beyond ? 0 : e->n_ctx_train;
    lgg_status st = lgg_estimate_fit_ctx_max(files, m->n, p, o->fit, dev, fr->limit, &fr->ctx, err);
    if (st == LGG_ERR_RANGE) { /* nothing fits: the figures at the smallest context */
        lgg_error e2;
        if (at_ctx(m, p, 1, e, &e2) != LGG_OK) return CLI_FAIL;
        fr->none = true;
        return CLI_OK;
    }
    if (st != LGG_OK) return CLI_FAIL;
    fr->has_ctx = true;
    lgg_estimate x;
    /* did the limit stop the search?  the next padding step would fit */
    if (fr->limit && fr->ctx < UINT32_MAX - 512 && at_ctx(m, p, fr->ctx + 1, &x, err) == LGG_OK &&
        x.host.total <= o->fit && (!dev || x.device.total <= dev))
        fr->capped = true;
    if (p->n_gpu_layers && !o->want_fit_device) {
        if (at_ctx(m, p, fr->ctx, &x, err) != LGG_OK) return CLI_FAIL;
        fr->device_at = x.device.total;
    }
    return CLI_OK;
}

/* The figures at the fitted context and -ngl (p holds the fitted -ngl). */
static int fitted_figures(const cli_shards *m, const lgg_estimate_params *p, const fit_result *fr, lgg_estimate *fit,
                          lgg_error *err) {
    if (!fr->has_ctx && !fr->has_ngl) return CLI_OK;
    return at_ctx(m, p, fr->has_ctx ? fr->ctx : p->n_ctx, fit, err) == LGG_OK ? CLI_OK : CLI_FAIL;
}

int cmd_estimate(int argc, char **argv) {
    opts o;
    memset(&o, 0, sizeof o);
    lgg_estimate_params_init(&o.p);
    int np = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &o, &np);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    o.path = argv[1];
    cli_shards m;
    if (cli_shards_header("estimate", o.path, &m) != CLI_OK) return CLI_FAIL;
    lgg_error err;
    memset(&err, 0, sizeof err);
    lgg_estimate e, fit;
    fit_result fr;
    memset(&fr, 0, sizeof fr);
    lgg_estimate_params p = o.p;
    lgg_status st = lgg_estimate_model((const lgg_file *const *)m.files, m.n, &p, &e, &err);
    if (st == LGG_ERR_UNSUPPORTED && !e.arch_known && e.arch[0]) {
        rc = unknown_arch(&o, &e, &err);
    } else if (st != LGG_OK || run_fits(&o, &m, &p, &e, &fr, &err) != CLI_OK) {
        rc = fail(&o, &err);
    } else if (fitted_figures(&m, &p, &fr, &fit, &err) != CLI_OK) {
        rc = fail(&o, &err);
    } else {
        const bool at = fr.has_ctx || fr.has_ngl;
        if (o.json) print_json(&o, &e, &fr, at ? &fit : NULL);
        else print_text(&o, at ? &fit : &e, &fr);
        rc = fr.none ? fail(&o, &err) : CLI_OK;
    }
    cli_shards_close(&m);
    return rc;
}
