/* cmd_estimate.c -- `gguf estimate [options] MODEL`: the memory llama.cpp
 * (b4747) allocates to run MODEL, from its header alone
 * (lgg_estimate_model), with llama.cpp's option names and defaults. */
#include "tool.h"

#include <stdlib.h>
#include <string.h>

/* llama.cpp's spellings, so a llama-cli command line can be pasted. */
#include "spec_estimate.h" /* from tools/spec/estimate.txt (scripts/cli-spec.awk) */

enum { MAX_DEV = LGG_ESTIMATE_MAX_DEVICES, MAX_OT = 512, NAME_CAP = 32, MAX_ADAPTERS = 64 };

typedef struct opts {
    const char *path;
    lgg_estimate_params p;
    uint64_t fit, fit_device;
    bool want_fit, want_fit_device, json, beyond;
    /* several devices: how many each option says (0: it was not given) */
    uint32_t n_ts, n_budgets, n_names;
    uint64_t budgets[MAX_DEV];
    char names[MAX_DEV][NAME_CAP]; /* -dev: the devices' names (else GPU0, GPU1, ...) */
    bool no_devices;               /* -dev none */
    char rpc[MAX_DEV][NAME_CAP];   /* --rpc: the servers' HOST:PORT, devices RPC0, RPC1, ... */
    uint32_t n_rpc;
    /* -ot, --cpu-moe, --n-cpu-moe in order; a device named by -ot is resolved once all are read */
    lgg_estimate_override ot[MAX_OT];
    char *ot_pattern[MAX_OT], *ot_buffer[MAX_OT];
    uint32_t n_ot;
    /* --lora, --control-vector: the files as given (opened header-only after the options) */
    const char *lora_path[MAX_ADAPTERS], *cvec_path[MAX_ADAPTERS];
    uint32_t n_lora, n_cvec;
    lgg_file *lora[MAX_ADAPTERS], *cvec[MAX_ADAPTERS];
    char *lists[2 * MAX_ADAPTERS]; /* copies of the options' values, cut into the names above */
    uint32_t n_lists;
    const char *draft_path; /* -md (its header opened after the options) */
    bool draft_ctx_asked;   /* -cd was given (b4747's option) */
    const char *mmproj_path; /* --mmproj (its header opened after the options) */
    lgg_file *mmproj;
} opts;

/* llama.cpp's pattern for experts' matrices (common.h's LLM_FFN_EXPS_REGEX), of every layer or of one */
#define EXPS_PATTERN "\\.ffn_(up|down|gate|gate_up)_(ch|)exps"

/* The option's first spelling, for a usage error. */
static const char *opt_name(int id, char *buf, size_t cap) {
    for (const cli_opt *o = OPTS; o->names; o++)
        if (o->id == id) {
            snprintf(buf, cap, "%.*s", (int)strcspn(o->names, "|"), o->names);
            break;
        }
    return buf;
}

/* One tensor placement rule; buffer NULL: the host. */
static int add_rule(opts *o, const char *pattern, size_t len, const char *buffer, char *why, size_t cap) {
    if (o->n_ot == MAX_OT) return cli_why(why, cap, "more than %d tensor overrides", MAX_OT);
    char *pat = strndup(pattern, len), *buf = buffer ? strdup(buffer) : NULL;
    if (!pat || (buffer && !buf)) {
        free(pat);
        return cli_why(why, cap, "out of memory");
    }
    o->ot_pattern[o->n_ot] = pat;
    o->ot_buffer[o->n_ot] = buf;
    o->ot[o->n_ot] = (lgg_estimate_override){pat, -1};
    o->n_ot++;
    return 0;
}

/* -ot PATTERN=BUFFER[,PATTERN=BUFFER...], split as llama.cpp splits it */
static int on_override(opts *o, const char *v, char *why, size_t cap) {
    for (const char *s = v;;) {
        size_t len = strcspn(s, ",");
        const char *eq = memchr(s, '=', len);
        if (!eq || eq == s || eq + 1 == s + len)
            return cli_why(why, cap, "--override-tensor takes PATTERN=BUFFER[,...] (BUFFER: CPU or a device), not '%s'", v);
        char buffer[NAME_CAP];
        snprintf(buffer, sizeof buffer, "%.*s", (int)(s + len - eq - 1), eq + 1);
        int rc = add_rule(o, s, (size_t)(eq - s), strcmp(buffer, "CPU") ? buffer : NULL, why, cap);
        if (rc) return rc;
        if (!s[len]) return 0;
        s += len + 1;
    }
}

/* A list of up to MAX_DEV words split on ',' (and '/' when slash): each passed to one(). */
static int each_word(const char *v, bool slash, const char *opt, int (*one)(opts *, uint32_t, const char *, size_t),
                     opts *o, uint32_t *count, char *why, size_t cap) {
    uint32_t n = 0;
    for (const char *s = v;; n++) {
        size_t len = strcspn(s, slash ? ",/" : ",");
        if (n == MAX_DEV) return cli_why(why, cap, "%s: more than %d devices", opt, MAX_DEV);
        if (!len || one(o, n, s, len)) return cli_why(why, cap, "%s: '%.*s' in '%s' is not valid", opt, (int)len, s, v);
        if (!s[len]) break;
        s += len + 1;
    }
    *count = n + 1;
    return 0;
}

static int one_share(opts *o, uint32_t i, const char *s, size_t len) {
    char buf[64], *end;
    if (len >= sizeof buf) return 1;
    memcpy(buf, s, len);
    buf[len] = 0;
    float f = strtof(buf, &end);
    o->p.tensor_split[i] = f;
    return *end || !(f >= 0.0f && f <= 1e30f);
}

static int one_budget(opts *o, uint32_t i, const char *s, size_t len) {
    char buf[64];
    if (len >= sizeof buf) return 1;
    memcpy(buf, s, len);
    buf[len] = 0;
    return !cli_size_option("estimate", "--fit-device", buf, 1, &o->budgets[i]) || !o->budgets[i];
}

static int one_name(opts *o, uint32_t i, const char *s, size_t len) {
    if (len >= NAME_CAP) return 1;
    snprintf(o->names[i], NAME_CAP, "%.*s", (int)len, s);
    return !strcmp(o->names[i], "none") || !strcmp(o->names[i], "CPU");
}

/* HOST:PORT of an RPC server: a host without ':' (or a bracketed IPv6 one) and a port 1-65535. */
static int one_server(opts *o, uint32_t i, const char *s, size_t len) {
    const char *colon = NULL;
    for (size_t k = 0; k < len; k++) colon = s[k] == ':' ? s + k : colon;
    uint64_t port = 0;
    char num[8];
    size_t nl = colon ? (size_t)(s + len - colon - 1) : 0;
    if (!colon || colon == s || len >= NAME_CAP || !nl || nl >= sizeof num) return 1;
    snprintf(num, sizeof num, "%.*s", (int)nl, colon + 1);
    if (!cli_parse_u64(num, &port) || !port || port > 65535) return 1;
    if (memchr(s, ':', (size_t)(colon - s)) && !(s[0] == '[' && colon[-1] == ']')) return 1;
    snprintf(o->rpc[i], NAME_CAP, "%.*s", (int)len, s);
    return 0;
}

/* on_placement's answer for an option that is not one of them (1 is a bad value's) */
enum { NOT_PLACEMENT = -2 };

/* The placement options (-ts, -sm, -mg, -nkvo, -ot, -cmoe, -ncmoe, -dev, --rpc); NOT_PLACEMENT: not one of them. */
static int on_placement(opts *o, int id, const char *v, char *why, size_t cap) {
    lgg_estimate_params *p = &o->p;
    uint64_t n;
    switch (id) {
    case 's': return each_word(v, true, "--tensor-split", one_share, o, &o->n_ts, why, cap);
    case 'D':
        if (!strcmp(v, "none")) return o->no_devices = true, 0;
        return each_word(v, false, "--device", one_name, o, &o->n_names, why, cap);
    case 'M':
        if (!strcmp(v, "none")) p->split_mode = LGG_SPLIT_NONE;
        else if (!strcmp(v, "layer")) p->split_mode = LGG_SPLIT_LAYER;
        else if (!strcmp(v, "row")) p->split_mode = LGG_SPLIT_ROW;
        else return cli_why(why, cap, "--split-mode must be none, layer or row, not '%s'", v);
        return 0;
    case 'r': return each_word(v, false, "--rpc", one_server, o, &o->n_rpc, why, cap);
    case 'K': p->no_kv_offload = true; return 0;
    case 'o': return on_override(o, v, why, cap);
    case 'E': return add_rule(o, EXPS_PATTERN, strlen(EXPS_PATTERN), NULL, why, cap);
    case 'G':
    case 'N':
        if (!cli_parse_u64(v, &n) || n >= (id == 'G' ? MAX_DEV : 100000))
            return cli_why(why, cap, "%s must be a whole number below %d, not '%s'",
                           id == 'G' ? "--main-gpu" : "--n-cpu-moe", id == 'G' ? MAX_DEV : 100000, v);
        if (id == 'G') return p->main_gpu = (uint32_t)n, 0;
        for (uint64_t il = 0; il < n; il++) {
            char pat[64];
            int len = snprintf(pat, sizeof pat, "blk\\.%llu%s", (unsigned long long)il, EXPS_PATTERN);
            int rc = add_rule(o, pat, (size_t)len, NULL, why, cap);
            if (rc) return rc;
        }
        return 0;
    default: return NOT_PLACEMENT;
    }
}

/* The device an -ot BUFFER names: one of -dev's names, else NAME<index> as
 * llama.cpp's backends name their buffers (CUDA0, Vulkan1, GPU2); -1: none. */
static int device_named(const opts *o, uint32_t n, const char *name) {
    for (uint32_t i = 0; i < n; i++) {
        char rpc_buffer[2 * NAME_CAP + 2]; /* an RPC device's buffer type: RPC<i>[HOST:PORT] */
        uint64_t k = UINT64_MAX;
        if (!strncmp(o->names[i], "RPC", 3) && cli_parse_u64(o->names[i] + 3, &k) && k < o->n_rpc)
            snprintf(rpc_buffer, sizeof rpc_buffer, "%s[%s]", o->names[i], o->rpc[k]);
        if (!strcmp(o->names[i], name) || (k < o->n_rpc && !strcmp(rpc_buffer, name))) return (int)i;
    }
    size_t k = strlen(name);
    while (k && name[k - 1] >= '0' && name[k - 1] <= '9') k--;
    uint64_t i;
    if (!k || !name[k] || !cli_parse_u64(name + k, &i) || i >= n) return -1;
    return (int)i;
}

/* After the options: the number of devices they agree on, names for them,
 * the budgets and the -ot devices. */
static int settle_devices(opts *o) {
    static const char *const what[3] = {"--tensor-split", "--fit-device", "--device"};
    const uint32_t counts[3] = {o->n_ts, o->n_budgets, o->n_names};
    uint32_t n = 0, from = 0;
    for (uint32_t i = 0; i < 3; i++) {
        if (counts[i] && n && counts[i] != n)
            return cli_usage_error("estimate", SPEC.usage, "%s gives %u devices but %s %u", what[from], n, what[i],
                                   counts[i]);
        if (counts[i]) n = counts[i], from = i;
    }
    if (!n) n = o->n_rpc ? o->n_rpc : 1;
    if (o->no_devices && (o->n_ts || o->n_budgets || o->n_names || o->n_rpc))
        return cli_usage_error("estimate", SPEC.usage, "--device none leaves no device for %s",
                               o->n_rpc && !(o->n_ts || o->n_budgets || o->n_names) ? "--rpc" : what[from]);
    if (!o->n_names && n < o->n_rpc)
        return cli_usage_error("estimate", SPEC.usage, "%s gives %u devices but --rpc %u servers", what[from], n, o->n_rpc);
    for (uint32_t i = 0; i < o->n_names; i++) { /* an RPC device -dev names must be a server's */
        uint64_t k;
        if (!strncmp(o->names[i], "RPC", 3) && cli_parse_u64(o->names[i] + 3, &k) && k >= o->n_rpc)
            return cli_usage_error("estimate", SPEC.usage, "--device: %s is not one of the %u --rpc servers", o->names[i],
                                   o->n_rpc);
    }
    /* llama.cpp puts the RPC servers first, then the local devices */
    for (uint32_t i = 0; i < n && !o->n_names; i++)
        if (i < o->n_rpc) snprintf(o->names[i], NAME_CAP, "RPC%u", i);
        else snprintf(o->names[i], NAME_CAP, n == 1 ? "device" : "GPU%u", i - o->n_rpc);
    for (uint32_t r = 0; r < o->n_ot; r++) {
        if (!o->ot_buffer[r]) continue;
        int d = o->no_devices ? -1 : device_named(o, n, o->ot_buffer[r]);
        if (d < 0)
            return cli_usage_error("estimate", SPEC.usage, "--override-tensor: no buffer '%s' (CPU, or one of the %u "
                                   "device%s: %s%s, or NAME<index>)", o->ot_buffer[r], n, n == 1 ? "" : "s",
                                   o->names[0], n > 1 ? ", ..." : "");
        o->ot[r].device = d;
    }
    o->p.n_devices = n;
    for (uint32_t i = 0; i < n && n > 1 && o->want_fit_device; i++)
        o->p.device_free[i] = o->n_budgets ? o->budgets[i] : o->fit_device;
    if (o->no_devices) o->p.n_gpu_layers = 0;
    o->p.overrides = o->ot;
    o->p.n_overrides = o->n_ot;
    return CLI_OK;
}

static void free_rules(opts *o) {
    for (uint32_t r = 0; r < o->n_ot; r++) free(o->ot_pattern[r]), free(o->ot_buffer[r]);
}

/* Whether all of s is a number strtof reads (a scale: it needs no memory, so only its form is checked). */
static bool is_number(const char *s) {
    char *end;
    strtof(s, &end);
    return end != s && !*end;
}

/* --lora FILE[,FILE...] or --lora-scaled FILE:SCALE[,...] (and the control-vector pair), split as llama.cpp
 * splits them (a comma list; FILE:SCALE split at its one ':'); the scales need no memory. */
static int on_adapter(opts *o, int id, const char *v, char *why, size_t cap) {
    bool lora = id == 'L' || id == 'l', scaled = id == 'l' || id == 'W';
    const char **paths = lora ? o->lora_path : o->cvec_path;
    uint32_t *n = lora ? &o->n_lora : &o->n_cvec;
    if (o->n_lists == 2 * MAX_ADAPTERS) return cli_why(why, cap, "more than %d adapters", 2 * MAX_ADAPTERS);
    char *copy = strdup(v);
    if (!copy) return cli_why(why, cap, "out of memory");
    o->lists[o->n_lists++] = copy;
    for (char *s = copy;;) {
        char *end = strchr(s, ','), *colon;
        if (end) *end = 0;
        if (scaled) {
            colon = strchr(s, ':');
            if (!colon || !is_number(colon + 1))
                return cli_why(why, cap, "%s takes FILE:SCALE[,...], not '%s'", lora ? "--lora-scaled" : "--control-vector-scaled", s);
            *colon = 0;
        }
        if (!*s) return cli_why(why, cap, "%s: an empty file name", lora ? "--lora" : "--control-vector");
        if (*n == MAX_ADAPTERS) return cli_why(why, cap, "more than %d adapters of one kind", MAX_ADAPTERS);
        paths[(*n)++] = s;
        if (!end) return 0;
        s = end + 1;
    }
}

/* The adapters' headers; CLI_FAIL after the diagnostic. */
static int open_adapters(opts *o) {
    for (uint32_t k = 0; k < o->n_lora; k++)
        if (!(o->lora[k] = cli_open("estimate", o->lora_path[k], CLI_OPEN_META | CLI_OPEN_HEADER))) return CLI_FAIL;
    for (uint32_t k = 0; k < o->n_cvec; k++)
        if (!(o->cvec[k] = cli_open("estimate", o->cvec_path[k], CLI_OPEN_META | CLI_OPEN_HEADER))) return CLI_FAIL;
    o->p.loras = (const lgg_file *const *)o->lora, o->p.n_loras = o->n_lora;
    o->p.control_vectors = (const lgg_file *const *)o->cvec, o->p.n_control_vectors = o->n_cvec;
    return CLI_OK;
}

static void close_adapters(opts *o) {
    for (uint32_t k = 0; k < o->n_lora; k++) lgg_close(o->lora[k]);
    for (uint32_t k = 0; k < o->n_cvec; k++) lgg_close(o->cvec[k]);
    for (uint32_t k = 0; k < o->n_lists; k++) free(o->lists[k]);
}

/* --embedding, --pooling TYPE, --reranking, as llama.cpp's common arguments set them (--pooling alone
 * leaves a plain context: a note says so). */
static int on_embedding(opts *o, int id, const char *v, char *why, size_t cap) {
    static const char *const NAMES[] = {"none", "mean", "cls", "last", "rank"};
    lgg_estimate_params *p = &o->p;
    if (id == 'e') return p->embeddings = true, 0;
    if (id == 'X') return p->embeddings = true, p->pooling = LGG_POOLING_RANK, 0;
    for (uint32_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (!strcmp(v, NAMES[i])) return p->pooling = LGG_POOLING_NONE + i, 0;
    return cli_why(why, cap, "--pooling must be none, mean, cls, last or rank, not '%s'", v);
}

static int on_opt(void *ud, int id, const char *v, char *why, size_t cap) {
    opts *o = ud;
    lgg_estimate_params *p = &o->p;
    char name[32] = "";
    uint64_t n;
    int rc = on_placement(o, id, v, why, cap);
    if (rc != NOT_PLACEMENT) return rc;
    switch (id) {
    case 'a':
        if (v && !strcmp(v, "off")) p->flash_attn = false, p->no_flash_attn = true;
        else if (!v || !strcmp(v, "on")) p->flash_attn = true, p->no_flash_attn = false;
        else if (!strcmp(v, "auto")) p->flash_attn = false, p->no_flash_attn = false;
        else return cli_why(why, cap, "--flash-attn must be off, on or auto, not '%s'", v);
        return 0;
    case 'm': p->no_mmap = true; return 0;
    case 'j': o->json = true; return 0;
    case 'L':
    case 'l':
    case 'V':
    case 'W': return on_adapter(o, id, v, why, cap);
    case 'e':
    case 'O':
    case 'X': return on_embedding(o, id, v, why, cap);
    case 'F': o->draft_path = v; return 0;
    case 'I': o->mmproj_path = v; return 0;
    case 'J': p->no_mmproj_offload = true; return 0;
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
        if (!cli_size_option("estimate", opt_name(id, name, sizeof name), v, 1, &o->fit))
            return cli_why(why, cap, "%s must be a byte count such as 16G, 16GiB or 16GB, not '%s'",
                           opt_name(id, name, sizeof name), v);
        o->want_fit = true;
        return 0;
    case 'd':
        if (strchr(v, ',')) {
            if ((rc = each_word(v, false, "--fit-device", one_budget, o, &o->n_budgets, why, cap))) return rc;
        } else if (!cli_size_option("estimate", "--fit-device", v, 1, &o->fit_device)) {
            return cli_why(why, cap, "--fit-device must be a byte count such as 16G, 16GiB or 16GB (one per device, "
                                     "comma-separated), not '%s'", v);
        }
        o->want_fit_device = true;
        return 0;
    default:
        if (!cli_parse_u64(v, &n) || n > UINT32_MAX)
            return cli_why(why, cap, "%s must be a whole number below 2^32, not '%s'", opt_name(id, name, sizeof name), v);
        if (id == 'c') p->n_ctx = (uint32_t)n;
        else if (id == 'b') p->n_batch = (uint32_t)n;
        else if (id == 'u') p->n_ubatch = (uint32_t)n;
        else if (id == 'p') p->n_seq_max = (uint32_t)n;
        else if (id == 'Y') p->draft_n_gpu_layers = (uint32_t)n;
        else if (id == 'Z') p->draft_n_ctx = (uint32_t)n, o->draft_ctx_asked = true;
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
    /* added: recurrent and hybrid models' states (in kv_cache's k and v) */
    if (e->n_recurrent_layers)
        fprintf(o, ", \"recurrent_layers\": %u, \"rs_size\": %u, \"state_r\": %llu, \"state_s\": %llu",
                e->n_recurrent_layers, e->rs_size, (unsigned long long)e->state_r, (unsigned long long)e->state_s);
    fputc('}', o);
}

typedef struct fit_result {
    bool has_plan;      /* --fit-device: the flags that realise the budgets */
    est_plan plan;
    lgg_estimate at_plan;
    bool has_ctx, has_ngl;
    bool none;          /* --fit: even the smallest context does not fit */
    bool capped;        /* --fit stopped at the limit: a larger context would fit */
    uint32_t ctx, ngl;
    uint32_t limit;     /* the context the search stopped at (0: none) */
    uint64_t device_at; /* -ngl without --fit-device: the device's total at ctx, unchecked */
} fit_result;

enum { MAX_NOTES = 13, NOTE_CAP = 160 };

/* An LGG_POOLING_* as llama.cpp's --pooling spells it. */
static const char *pooling_name(uint32_t pooling) {
    static const char *const NAMES[] = {"model", "none", "mean", "cls", "last", "rank"};
    return pooling < sizeof NAMES / sizeof NAMES[0] ? NAMES[pooling] : "?";
}

static const char *gib(uint64_t bytes, char *buf, size_t cap);

/* Why a figure deserves a remark (for both the text and the JSON). */
static size_t notes(const lgg_estimate *e, const lgg_estimate_params *p, bool fitted, char out[MAX_NOTES][NOTE_CAP]) {
    size_t n = 0;
    char size[32];
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
        snprintf(out[n++], NOTE_CAP, "with offloading, the compute buffers of the host and the devices are modelled, not replayed (docs/estimate.md)");
    uint64_t adapters = e->adapters_host;
    for (uint32_t d = 0; d < e->n_devices; d++) adapters += e->adapters_devices[d];
    if (p->n_loras || p->n_control_vectors)
        snprintf(out[n++], NOTE_CAP, "%.2f MiB of the weights are the adapters (LoRA files %u, control-vector files %u): "
                 "%.2f MiB on the host", (double)adapters / 1048576.0, p->n_loras, p->n_control_vectors,
                 (double)e->adapters_host / 1048576.0);
    if (e->has_mmproj)
        snprintf(out[n++], NOTE_CAP, "the projector is counted apart (\"+ model\": everything); its compute buffer is "
                 "modelled, not replayed");
    if (e->has_draft)
        snprintf(out[n++], NOTE_CAP, "the draft model is counted apart (\"+ model\": both); --fit and --fit-device check "
                 "both together");
    if (e->embeddings)
        snprintf(out[n++], NOTE_CAP, "embedding context (pooling %s): the output buffer holds %s of embeddings%s",
                 pooling_name(e->pooling), gib(e->output_embd, size, sizeof size),
                 e->target == LGG_ESTIMATE_MASTER ? " beside the logits" : " and no logits");
    else if (p->pooling)
        snprintf(out[n++], NOTE_CAP, "--pooling without --embedding changes nothing (as in llama.cpp)");
    if (e->recurrent)
        snprintf(out[n++], NOTE_CAP, "recurrent model: the cache holds one state per sequence, whatever the context");
    else if (e->n_recurrent_layers)
        snprintf(out[n++], NOTE_CAP, "hybrid model: K and V include the recurrent states of %u layers (%.2f MiB, one "
                 "per sequence, whatever the context)", e->n_recurrent_layers,
                 (double)(e->state_r + e->state_s) / 1048576.0);
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

/* Whether anything is placed on a device (else the host holds it all). */
static bool has_devices(const lgg_estimate *e) {
    return e->n_gpu_layers || e->device.total || e->draft_n_gpu_layers || e->draft_device.total;
}

/* The host's layers: those no device holds. */
static uint32_t host_layers(const lgg_estimate *e) {
    uint32_t n = e->n_layer;
    for (uint32_t d = 0; d < e->n_devices; d++) n -= e->device_layers[d];
    return n;
}

/* {"name": "host", ...}, then one object per device ("device" alone, else the devices' names). */
static void json_devices(const opts *o, const lgg_estimate *e) {
    printf("{\"name\": \"host\", \"layers\": %u, \"output_layer\": %s, ", host_layers(e),
           e->output_device < 0 ? "true" : "false");
    json_part(stdout, &e->host);
    for (uint32_t d = 0; d < e->n_devices; d++) {
        printf("}, {\"name\": ");
        cli_json_str(stdout, o->names[d], strlen(o->names[d]));
        printf(", \"layers\": %u, \"output_layer\": %s, ", e->device_layers[d],
               e->output_device == (int32_t)d ? "true" : "false");
        json_part(stdout, e->n_devices == 1 ? &e->device : &e->devices[d]);
    }
    printf("}");
}

/* Added with -md: "draft": the draft model's settings and figures (its own "devices"), and the totals of
 * the model and the draft together. */
static void json_draft(const opts *o, const lgg_estimate *e) {
    printf(", \"draft\": {\"model\": ");
    cli_json_str(stdout, cli_display_name(o->draft_path), strlen(cli_display_name(o->draft_path)));
    printf(", \"arch\": ");
    cli_json_str(stdout, e->draft_arch, strnlen(e->draft_arch, sizeof e->draft_arch));
    printf(", \"contexts\": %u, \"settings\": {\"n_ctx\": %u, \"n_batch\": %u, \"n_ubatch\": %u, \"n_seq_max\": %u, "
           "\"type_k\": \"f16\", \"type_v\": \"f16\", \"n_gpu_layers\": %u, \"n_layer\": %u}, ",
           e->draft_contexts, e->draft_n_ctx, e->draft_n_batch, e->draft_n_ubatch, e->draft_n_seq_max,
           e->draft_n_gpu_layers, e->draft_n_layer);
    json_part(stdout, &e->draft_all);
    printf(", \"compute_exact\": %s, \"devices\": [", e->draft_compute_exact ? "true" : "false");
    if (has_devices(e)) {
        printf("{\"name\": \"host\", ");
        json_part(stdout, &e->draft_host);
        for (uint32_t d = 0; d < e->n_devices; d++) {
            printf("}, {\"name\": ");
            cli_json_str(stdout, o->names[d], strlen(o->names[d]));
            printf(", ");
            json_part(stdout, e->n_devices == 1 ? &e->draft_device : &e->draft_devices[d]);
        }
        printf("}");
    }
    printf("], \"total_with_model\": %llu}", (unsigned long long)(e->all.total + e->draft_all.total));
}

/* Where the projector is: "host" or its device's name. */
static const char *mmproj_place(const opts *o, const lgg_estimate *e) {
    return e->mmproj_device < 0 ? "host" : o->names[e->mmproj_device];
}

/* Added with --mmproj: "mmproj", the projector's shape, place and figures. */
static void json_mmproj(const opts *o, const lgg_estimate *e) {
    printf(", \"mmproj\": {\"model\": ");
    cli_json_str(stdout, cli_display_name(o->mmproj_path), strlen(cli_display_name(o->mmproj_path)));
    printf(", \"projector\": ");
    cli_json_str(stdout, e->mmproj_type, strnlen(e->mmproj_type, sizeof e->mmproj_type));
    printf(", \"place\": ");
    cli_json_str(stdout, mmproj_place(o, e), strlen(mmproj_place(o, e)));
    printf(", \"n_layer\": %u, \"n_embd\": %u, \"image_size\": %u, \"patch_size\": %u, \"n_patches\": %u, "
           "\"weights\": %llu, \"compute\": %llu, \"total\": %llu, \"compute_exact\": false}", e->mmproj_n_layer,
           e->mmproj_n_embd, e->mmproj_image_size, e->mmproj_patch_size, e->mmproj_n_patches,
           (unsigned long long)e->mmproj_weights, (unsigned long long)e->mmproj_compute,
           (unsigned long long)(e->mmproj_weights + e->mmproj_compute));
}

/* Added to "fit": "plan", the flags --fit-device's budgets call for (null without it). */
static void json_plan(const fit_result *fr) {
    printf(", \"plan\": ");
    if (!fr->has_plan) {
        printf("null");
        return;
    }
    const est_plan *pl = &fr->plan;
    const lgg_estimate *e = &fr->at_plan;
    printf("{\"fits\": %s, \"flags\": ", pl->found ? "true" : "false");
    cli_json_str(stdout, pl->flags, strlen(pl->flags));
    printf(", \"steps\": [");
    for (int i = 0; i < pl->n_steps; i++) {
        printf("%s", i ? ", " : "");
        cli_json_str(stdout, pl->steps[i], strlen(pl->steps[i]));
    }
    printf("], \"n_gpu_layers\": %u, \"n_cpu_moe\": %u, \"cache_type\": \"%s\", \"host_total\": %llu, "
           "\"device_totals\": [", e->n_gpu_layers, pl->n_cpu_moe, pl->quant_cache ? "q8_0" : "as asked",
           (unsigned long long)e->host.total);
    for (uint32_t d = 0; d < e->n_devices; d++)
        printf("%s%llu", d ? ", " : "",
               (unsigned long long)(e->n_devices == 1 ? e->device.total : e->devices[d].total));
    printf("]}");
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
    if (o->n_lora || o->n_cvec) { /* added with adapters (the output without them is unchanged) */
        printf(", \"adapters\": {\"host\": %llu, \"devices\": [", (unsigned long long)e->adapters_host);
        for (uint32_t d = 0; has_devices(e) && d < e->n_devices; d++)
            printf("%s%llu", d ? ", " : "", (unsigned long long)e->adapters_devices[d]);
        printf("]}");
    }
    if (e->embeddings) /* added with --embedding */
        printf(", \"embeddings\": {\"pooling\": \"%s\", \"output\": %llu}", pooling_name(e->pooling),
               (unsigned long long)e->output_embd);
    printf(", \"devices\": [");
    if (has_devices(e)) json_devices(o, e);
    printf("]");
    if (e->has_draft) json_draft(o, e);
    if (e->has_mmproj) json_mmproj(o, e);
    printf(", \"fit\": {\"ctx\": ");
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
    if (o->want_fit_device && e->n_devices == 1) printf("%llu", (unsigned long long)o->fit_device);
    else printf("null");
    if (e->n_devices > 1) { /* added: one budget per device */
        printf(", \"device_budgets\": [");
        for (uint32_t d = 0; d < e->n_devices; d++)
            if (o->want_fit_device) printf("%s%llu", d ? ", " : "", (unsigned long long)o->p.device_free[d]);
            else printf("%snull", d ? ", " : "");
        printf("]");
    }
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
    json_plan(fr);
    printf("}, \"compute_exact\": %s, \"notes\": [", e->compute_exact ? "true" : "false");
    char nt[MAX_NOTES][NOTE_CAP];
    size_t n = notes(e, &o->p, fr->has_ctx || fr->has_ngl, nt);
    for (size_t i = 0; i < n; i++) {
        if (i) printf(", ");
        cli_json_str(stdout, nt[i], strlen(nt[i]));
    }
    printf("]}\n");
}

/* The layers row of the table with several devices ("+ out": the output layer). */
static void print_layers(const lgg_estimate *e) {
    char cell[32];
    printf("%-9s %27s", "layers", "");
    snprintf(cell, sizeof cell, "%u%s", host_layers(e), e->output_device < 0 ? " + out" : "");
    printf(" %27s", cell);
    for (uint32_t d = 0; d < e->n_devices; d++) {
        snprintf(cell, sizeof cell, "%u%s", e->device_layers[d], e->output_device == (int32_t)d ? " + out" : "");
        printf(" %27s", cell);
    }
    printf("\n");
}

static void row(const char *name, const uint64_t *v, int nv) {
    printf("%-9s", name);
    for (int i = 0; i < nv; i++) printf(" %15llu %11.2f", (unsigned long long)v[i], (double)v[i] / 1048576.0);
    printf("\n");
}

/* The flags the budgets call for, and the steps that led there. */
static void print_plan(const fit_result *fr) {
    const est_plan *pl = &fr->plan;
    printf("\nplan: %s", pl->found ? "" : "nothing fits the budgets; ");
    for (int i = 0; i < pl->n_steps; i++) printf("%s%s", i ? "; then " : "", pl->steps[i]);
    printf("\nplan: llama.cpp flags: %s\n", pl->flags);
}

/* The figure rows of a table, one column per part. */
static void figure_rows(const lgg_estimate_part *const *parts, int nv) {
    static const char *const names[6] = {"weights", "kv k", "kv v", "output", "compute", "total"};
    for (int r = 0; r < 6; r++) {
        uint64_t v[2 + MAX_DEV];
        for (int i = 0; i < nv; i++) {
            const lgg_estimate_part *p = parts[i];
            const uint64_t f[6] = {p->weights, p->kv_k, p->kv_v, p->output, p->compute, p->total};
            v[i] = f[r];
        }
        row(names[r], v, nv);
    }
}

/* -md: the draft model's settings, its figures in the model's columns, and both totals together. */
static void print_draft(const opts *o, const lgg_estimate *e, const lgg_estimate_part *const *model, int nv) {
    printf("\ndraft     %s (%.*s, %u layers)\n", cli_display_name(o->draft_path), (int)sizeof e->draft_arch,
           e->draft_arch, e->draft_n_layer);
    printf("settings  n_ctx %u, n_batch %u, n_ubatch %u, n_seq_max %u, K f16, V f16, n_gpu_layers %u;\n"
           "          %u context%s\n\n", e->draft_n_ctx, e->draft_n_batch, e->draft_n_ubatch, e->draft_n_seq_max,
           e->draft_n_gpu_layers, e->draft_contexts, e->draft_contexts == 1 ? "" : "s (one per sequence)");
    const lgg_estimate_part *parts[2 + MAX_DEV] = {&e->draft_all, &e->draft_host, &e->draft_device};
    for (uint32_t d = 0; d < e->n_devices && e->n_devices > 1; d++) parts[2 + d] = &e->draft_devices[d];
    figure_rows(parts, nv);
    uint64_t both[2 + MAX_DEV];
    for (int i = 0; i < nv; i++) both[i] = model[i]->total + parts[i]->total;
    row("+ model", both, nv);
}

/* --mmproj: the projector's shape, its weights and compute buffer in its place's column (and the first), and
 * the totals of everything in each column. */
static void print_mmproj(const opts *o, const lgg_estimate *e, const lgg_estimate_part *const *model, int nv) {
    printf("\nmmproj    %s (%.*s, %u layers, n_embd %u, %u px images, %u positions), on the %s\n\n",
           cli_display_name(o->mmproj_path), (int)sizeof e->mmproj_type, e->mmproj_type, e->mmproj_n_layer,
           e->mmproj_n_embd, e->mmproj_image_size, e->mmproj_n_patches, mmproj_place(o, e));
    const int col = nv == 1 ? 0 : e->mmproj_device < 0 ? 1 : 2 + (e->n_devices > 1 ? e->mmproj_device : 0);
    uint64_t w[2 + MAX_DEV] = {0}, c[2 + MAX_DEV] = {0}, t[2 + MAX_DEV] = {0}, all[2 + MAX_DEV];
    w[0] = w[col] = e->mmproj_weights, c[0] = c[col] = e->mmproj_compute;
    t[0] = t[col] = e->mmproj_weights + e->mmproj_compute;
    const lgg_estimate_part *draft[2 + MAX_DEV] = {&e->draft_all, &e->draft_host, &e->draft_device};
    for (uint32_t d = 0; d < e->n_devices && e->n_devices > 1; d++) draft[2 + d] = &e->draft_devices[d];
    for (int i = 0; i < nv; i++) all[i] = model[i]->total + draft[i]->total + t[i];
    row("weights", w, nv);
    row("compute", c, nv);
    row("total", t, nv);
    row("+ model", all, nv);
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
    const lgg_estimate_part *parts[2 + MAX_DEV] = {&e->all, &e->host, &e->device};
    int nv = !has_devices(e) ? 1 : e->n_devices == 1 ? 3 : 2 + (int)e->n_devices;
    for (uint32_t d = 0; d < e->n_devices && e->n_devices > 1; d++) parts[2 + d] = &e->devices[d];
    if (nv == 1) printf("%-9s %15s %11s\n", "", "bytes", "MiB");
    else if (nv == 3) printf("%-9s %27s %27s %27s\n", "", "host + device (bytes, MiB)", "host", "device");
    else {
        printf("%-9s %27s %27s", "", "host + devices (bytes, MiB)", "host");
        for (uint32_t d = 0; d < e->n_devices; d++) printf(" %27s", o->names[d]);
        printf("\n");
        print_layers(e);
    }
    figure_rows(parts, nv);
    if (e->has_draft) print_draft(o, e, parts, nv);
    if (e->has_mmproj) print_mmproj(o, e, parts, nv);
    char b1[32], b2[32];
    if (fr->has_ngl && e->n_devices > 1) {
        printf("\nfit: -ngl %u (the most layers whose totals fit each device's budget:", fr->ngl);
        for (uint32_t d = 0; d < e->n_devices; d++)
            printf("%s %s %s", d ? "," : "", o->names[d], gib(o->p.device_free[d], b1, sizeof b1));
        printf(")\n");
    } else if (fr->has_ngl) {
        printf("\nfit: -ngl %u (the most layers whose device (GPU) total fits %s)\n", fr->ngl,
               gib(o->fit_device, b1, sizeof b1));
    }
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
    if (fr->has_plan) print_plan(fr);
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
        const est_budgets b = cli_estimate_budgets(p, o->want_fit ? o->fit : 0, o->fit_device);
        if (cli_estimate_plan(m, p, &b, &fr->plan, &fr->at_plan, err) != CLI_OK) return CLI_FAIL;
        fr->has_plan = true;
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
    const est_budgets b = cli_estimate_budgets(p, o->fit, o->want_fit_device ? o->fit_device : 0);
    lgg_estimate x;
    /* did the limit stop the search?  the next padding step would fit */
    if (fr->limit && fr->ctx < UINT32_MAX - 512 && at_ctx(m, p, fr->ctx + 1, &x, err) == LGG_OK &&
        cli_estimate_fits(&x, &b))
        fr->capped = true;
    if (p->n_gpu_layers && !o->want_fit_device) {
        if (at_ctx(m, p, fr->ctx, &x, err) != LGG_OK) return CLI_FAIL;
        /* with a draft model and a projector there, all */
        fr->device_at = x.device.total + x.draft_device.total +
                        (x.has_mmproj && x.mmproj_device == 0 ? x.mmproj_weights + x.mmproj_compute : 0);
    }
    return CLI_OK;
}

/* The figures at the fitted context and -ngl (p holds the fitted -ngl). */
static int fitted_figures(const cli_shards *m, const lgg_estimate_params *p, const fit_result *fr, lgg_estimate *fit,
                          lgg_error *err) {
    if (!fr->has_ctx && !fr->has_ngl) return CLI_OK;
    return at_ctx(m, p, fr->has_ctx ? fr->ctx : p->n_ctx, fit, err) == LGG_OK ? CLI_OK : CLI_FAIL;
}

/* --mmproj's header, and -md's (and its shards'); CLI_FAIL after the diagnostic.  -ngld and -cd need -md,
 * -cd b4747. */
static int open_draft(opts *o, cli_shards *dm) {
    if (!o->draft_path && (o->p.draft_n_gpu_layers || o->draft_ctx_asked))
        return cli_usage_error("estimate", SPEC.usage, "%s needs a draft model (-md FILE)",
                               o->draft_ctx_asked ? "--ctx-size-draft" : "--gpu-layers-draft");
    if (o->draft_ctx_asked && o->p.target == LGG_ESTIMATE_MASTER)
        return cli_usage_error("estimate", SPEC.usage, "--ctx-size-draft is b4747's: master gives the draft context "
                               "the target's size");
    if (o->mmproj_path) {
        if (!(o->mmproj = cli_open("estimate", o->mmproj_path, CLI_OPEN_META | CLI_OPEN_HEADER))) return CLI_FAIL;
        o->p.mmproj = o->mmproj;
    }
    if (!o->draft_path) return CLI_OK;
    if (cli_shards_header("estimate", o->draft_path, dm) != CLI_OK) return CLI_FAIL;
    o->p.draft_files = (const lgg_file *const *)dm->files, o->p.n_draft_files = dm->n;
    return CLI_OK;
}

static void close_draft(const opts *o, cli_shards *dm) {
    if (o->draft_path && dm->files) cli_shards_close(dm);
    lgg_close(o->mmproj);
}

int cmd_estimate(int argc, char **argv) {
    opts o;
    memset(&o, 0, sizeof o);
    lgg_estimate_params_init(&o.p);
    int np = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &o, &np);
    if (!rc) rc = settle_devices(&o);
    if (rc) {
        close_adapters(&o);
        free_rules(&o);
        return rc == CLI_HELP ? CLI_OK : rc;
    }
    o.path = argv[1];
    cli_shards m, dm = {0};
    if (open_adapters(&o) != CLI_OK || (rc = open_draft(&o, &dm)) != CLI_OK)
        return close_draft(&o, &dm), close_adapters(&o), free_rules(&o), rc ? rc : CLI_FAIL;
    if (cli_shards_header("estimate", o.path, &m) != CLI_OK)
        return close_draft(&o, &dm), close_adapters(&o), free_rules(&o), CLI_FAIL;
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
    close_draft(&o, &dm);
    close_adapters(&o);
    free_rules(&o);
    return rc;
}
