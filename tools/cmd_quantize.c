/* cmd_quantize.c -- `gguf quantize [options] IN OUT PRESET [THREADS]`:
 * llama-quantize's presets and options, the same bytes. */
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "spec_quantize.h" /* from tools/spec/quantize.txt (scripts/cli-spec.awk) */

static void help_presets(void) {
    printf("\nPresets (name or id):\n");
    for (size_t i = 0; i < lgg_quant_preset_count(); i++) {
        const lgg_quant_preset *p = lgg_quant_preset_at(i);
        if (p->type != LGG_TYPE_COUNT && !lgg_type_can_quantize(p->type)) continue; /* not offered here */
        if (p->type != LGG_TYPE_COUNT) printf("  %2u  or  ", p->ftype);
        else printf("          ");
        printf("%-9s : %s\n", p->name, p->desc);
    }
    printf("\nProgress goes to stderr: a bar with the time left when stderr is a terminal,\n"
           "otherwise one line per tensor.\n"
           "Exit status: 0 success, 1 failure (unreadable input, a refused preset or\n"
           "tensor, write error, OUT is IN), 2 usage error.\n");
}

typedef struct qopts {
    const char *imatrix;
    const char *include[256], *exclude[256];
    size_t n_include, n_exclude;
    lgg_tensor_type_rule rules[256];
    char *rule_text[256];
    size_t n_rules;
    int32_t prune[4096];
    size_t n_prune;
    lgg_quant_kv kv[256];
    cli_val kv_val[256];
    char *kv_key[256];
    void *kv_store[256];
    size_t n_kv;
    bool dry_run, quiet, no_fsync, json, force;
    lgg_quant_options *o;
} qopts;

static void qopts_free(qopts *q) {
    for (size_t i = 0; i < q->n_rules; i++) free(q->rule_text[i]);
    /* one past the last too: a failed --override-kv may have left its value */
    for (size_t i = 0; i <= q->n_kv && i < sizeof q->kv / sizeof q->kv[0]; i++) {
        cli_val_free(&q->kv_val[i]);
        free(q->kv_key[i]);
        free(q->kv_store[i]);
    }
}

static int parse_type(const char *s, uint32_t *out) {
    return lgg_type_from_name(s, strlen(s), out) == LGG_OK && lgg_type_get(*out)->block_size != 0;
}

/* llama-quantize's own spellings: int (u32 of its absolute value, as
 * master writes it; b4747 wrote i32), float (f32 from a
 * double), bool (true/false), str (at most 127 bytes).  1 with the value's
 * bytes in buf, 0 after an error in why, -1 for another spelling. */
static int llama_override(const char *tv, const char *text, lgg_wvalue *v, uint8_t buf[8], char *why, size_t cap) {
    char *end;
    if (!strncmp(tv, "int:", 4)) {
        errno = 0;
        long long x = strtoll(tv + 4, &end, 10);
        if (errno || end == tv + 4 || *end || x == LLONG_MIN)
            return snprintf(why, cap, "invalid int value for KV override '%s'", text), 0;
        /* master writes (uint32_t)abs(value) (b4747: i32) */
        const uint32_t u = (uint32_t)(unsigned long long)(x < 0 ? -x : x);
        memcpy(buf, &u, 4);
        *v = (lgg_wvalue){LGG_VT_U32, 0, 1, NULL};
    } else if (!strncmp(tv, "float:", 6)) {
        double x = strtod(tv + 6, &end);
        if (end == tv + 6 || *end) return snprintf(why, cap, "invalid float value for KV override '%s'", text), 0;
        const float f = (float)x;
        memcpy(buf, &f, 4);
        *v = (lgg_wvalue){LGG_VT_F32, 0, 1, NULL};
    } else if (!strncmp(tv, "bool:", 5)) {
        if (strcmp(tv + 5, "true") && strcmp(tv + 5, "false"))
            return snprintf(why, cap, "invalid boolean value for KV override '%s'", text), 0;
        buf[0] = !strcmp(tv + 5, "true");
        *v = (lgg_wvalue){LGG_VT_BOOL, 0, 1, NULL};
    } else if (!strncmp(tv, "str:", 4)) {
        if (strlen(tv + 4) > 127)
            return snprintf(why, cap, "malformed KV override '%s', value cannot exceed 127 chars", text), 0;
        *v = (lgg_wvalue){LGG_VT_STRING, 0, strlen(tv + 4), tv + 4};
    } else {
        return -1;
    }
    return 1;
}

static int parse_override(qopts *q, const char *text, char *why, size_t cap) {
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || eq - text >= 128) {
        snprintf(why, cap, "malformed KV override '%s'", text);
        return 0;
    }
    if (q->n_kv == sizeof q->kv / sizeof q->kv[0]) {
        snprintf(why, cap, "too many --override-kv");
        return 0;
    }
    const size_t i = q->n_kv;
    const char *tv = eq + 1;
    lgg_wvalue v;
    uint8_t buf[8];
    int r = llama_override(tv, text, &v, buf, why, cap);
    if (r == 0) return 0;
    if (r < 0) { /* everything `gguf set` accepts */
        char inner[300];
        if (!cli_val_parse(tv, &q->kv_val[i], inner, sizeof inner)) {
            snprintf(why, cap, "invalid KV override '%s': %s", text, inner);
            return 0;
        }
        v = q->kv_val[i].v;
    } else if (v.type != LGG_VT_STRING) {
        const size_t n = lgg_vtype_size(v.type);
        if (!(q->kv_store[i] = malloc(n))) return snprintf(why, cap, "out of memory"), 0;
        memcpy(q->kv_store[i], buf, n);
        v.data = q->kv_store[i];
    }
    if (!(q->kv_key[i] = strndup(text, (size_t)(eq - text)))) return snprintf(why, cap, "out of memory"), 0;
    q->kv[i] = (lgg_quant_kv){q->kv_key[i], v};
    q->n_kv++;
    return 1;
}

static int parse_rule(qopts *q, const char *text, char *why, size_t cap) {
    const char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(why, cap, "malformed tensor type '%s'", text);
        return 0;
    }
    if (eq == text) {
        snprintf(why, cap, "missing tensor name in '%s'", text);
        return 0;
    }
    if (!eq[1]) {
        snprintf(why, cap, "missing quantization type in '%s'", text);
        return 0;
    }
    if (q->n_rules == sizeof q->rules / sizeof q->rules[0]) {
        snprintf(why, cap, "too many --tensor-type");
        return 0;
    }
    uint32_t ty;
    if (!parse_type(eq + 1, &ty)) {
        snprintf(why, cap, "invalid quantization type '%s'", eq + 1);
        return 0;
    }
    char *pat = strndup(text, (size_t)(eq - text));
    for (char *c = pat; *c; c++)
        if (*c >= 'A' && *c <= 'Z') *c = (char)(*c + 32);
    regex_t re;
    int rc = regcomp(&re, pat, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[160];
        regerror(rc, &re, msg, sizeof msg);
        snprintf(why, cap, "bad regular expression '%s' in --tensor-type: %s", pat, msg);
        free(pat);
        return 0;
    }
    regfree(&re);
    q->rule_text[q->n_rules] = pat;
    q->rules[q->n_rules++] = (lgg_tensor_type_rule){pat, ty};
    return 1;
}

/* --tensor-type-file: each word of the file, as llama-quantize reads it
 * (std::ifstream >> std::string), a --tensor-type */
static int parse_rule_file(qopts *q, const char *path, char *why, size_t cap) {
    FILE *f = fopen(path, "r");
    if (!f) return snprintf(why, cap, "failed to open file '%s': %s", path, strerror(errno)), 0;
    char word[4096];
    int ok = 1;
    while (ok && fscanf(f, "%4095s", word) == 1) ok = parse_rule(q, word, why, cap);
    fclose(f);
    return ok;
}

static int cmp_i32(const void *a, const void *b) {
    const int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* --prune-layers 3,1,2: master's parse_layer_prune (std::stoi of each
 * comma-separated id; a negative or unreadable one is refused), sorted,
 * duplicates dropped; repeated options add up */
static int parse_prune(qopts *q, const char *list, char *why, size_t cap) {
    const char *p = list;
    for (;;) {
        const char *e = strchr(p, ',');
        const size_t n = e ? (size_t)(e - p) : strlen(p);
        char id[64];
        snprintf(id, sizeof id, "%.*s", (int)(n < 63 ? n : 63), p);
        char *end;
        errno = 0;
        const long v = strtol(id, &end, 10);
        if (end == id || errno || v < 0 || v > INT32_MAX)
            return snprintf(why, cap, "invalid layer id '%s'", id), 0;
        if (q->n_prune == sizeof q->prune / sizeof q->prune[0]) return snprintf(why, cap, "too many layer ids"), 0;
        q->prune[q->n_prune++] = (int32_t)v;
        if (!e) break;
        p = e + 1;
    }
    qsort(q->prune, q->n_prune, sizeof q->prune[0], cmp_i32);
    size_t k = 0;
    for (size_t i = 0; i < q->n_prune; i++)
        if (!k || q->prune[k - 1] != q->prune[i]) q->prune[k++] = q->prune[i];
    q->n_prune = k;
    return 1;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct prog {
    const lgg_quant_plan *plan;
    bool tty, quiet;
    size_t printed; /* items finished so far */
    uint64_t *ends; /* cumulative output bytes at the end of each item */
    double t0;
    cli_progress bar;
} prog;

static void print_item(FILE *o, const lgg_quant_plan *plan, size_t i, size_t n) {
    const lgg_quant_item *it = lgg_quant_plan_at(plan, i);
    char shape[128], a[32], b[32];
    cli_fmt_shape(shape, sizeof shape, it->t);
    cli_fmt_bytes(a, sizeof a, it->t->size);
    cli_fmt_bytes(b, sizeof b, it->size);
    fprintf(o, "[%4zu/%4zu] ", i + 1, n);
    cli_text_name(o, it->name);
    fprintf(o, " %s %s -> %s%s, %s -> %s\n", shape, cli_type_name(it->t->type), cli_type_name(it->type),
            it->convert ? "" : " (copied)", a, b);
    if (it->fallback) fprintf(o, "           (fallback: the row length is not a multiple of the block size)\n");
}

static void print_json(const lgg_quant_plan *plan, const lgg_quant_preset *pr, uint64_t fsize) {
    const size_t n = lgg_quant_plan_count(plan);
    printf("{\"preset\": \"%s\", \"file_type\": %u, \"file_size\": %llu, \"fallbacks\": %zu, \"tensors\": [", pr->name,
           lgg_quant_plan_file_type(plan), (unsigned long long)fsize, lgg_quant_plan_fallbacks(plan));
    for (size_t i = 0; i < n; i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(plan, i);
        printf("%s\n  {\"name\": ", i ? "," : "");
        cli_json_str(stdout, it->name.ptr, it->name.len);
        printf(", \"shape\": ");
        cli_json_shape(stdout, it->t);
        printf(", \"type\": \"%s\", \"new_type\": \"%s\", \"converted\": %s, \"fallback\": %s, \"size\": %llu, "
               "\"new_size\": %llu, \"imatrix\": %s}",
               cli_type_name(it->t->type), cli_type_name(it->type), it->convert ? "true" : "false",
               it->fallback ? "true" : "false", (unsigned long long)it->t->size, (unsigned long long)it->size,
               it->imatrix ? "true" : "false");
    }
    printf("\n]}\n");
}

static void on_progress(void *ud, size_t item, size_t n_items, uint64_t done, uint64_t total) {
    prog *p = ud;
    (void)item, (void)total;
    if (p->quiet) return;
    while (p->printed < n_items && p->ends[p->printed] <= done) {
        if (!p->tty) print_item(stderr, p->plan, p->printed, n_items);
        p->printed++;
    }
    if (p->tty) {
        cli_progress_items(&p->bar, p->printed, n_items, "tensors");
        cli_progress_set(&p->bar, done);
    }
}

/* The other splits of IN: IN is PREFIX-00001-of-0000N.gguf (llama_split_prefix). */
static int open_splits(const char *in, lgg_file **files, int *fds, size_t *n_files, size_t cap) {
    lgg_value v;
    uint64_t count = 1, no = 0;
    if (lgg_get(files[0], "split.count", &v) == LGG_OK) lgg_value_uint(&v, &count);
    if (count <= 1) return CLI_OK;
    if (lgg_get(files[0], "split.no", &v) == LGG_OK) lgg_value_uint(&v, &no);
    char tail[64];
    snprintf(tail, sizeof tail, "-%05d-of-%05d.gguf", 1, (int)count);
    size_t l = strlen(in), tl = strlen(tail);
    if (no != 0 || count > cap || l < tl || strcmp(in + l - tl, tail) != 0) {
        cli_err("quantize", in, "split %llu of %llu; give the first split, named PREFIX%s",
                (unsigned long long)no + 1, (unsigned long long)count, tail);
        return CLI_FAIL;
    }
    for (uint64_t s = 1; s < count; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%.*s-%05d-of-%05d.gguf", (int)(l - tl), in, (int)s + 1, (int)count);
        fds[s] = open(path, O_RDONLY | O_CLOEXEC);
        lgg_error err;
        memset(&err, 0, sizeof err);
        if (fds[s] < 0) {
            cli_err("quantize", path, "%s", strerror(errno));
            return CLI_FAIL;
        }
        *n_files = (size_t)s + 1;
        cli_input_add(path, fds[s], 1);
        if (lgg_open_fd(fds[s], NULL, &files[s], &err) != LGG_OK) {
            cli_err_lgg("quantize", path, &err);
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

static int on_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    qopts *q = ud;
    lgg_quant_options *o = q->o;
    uint32_t ty;
    switch (id) {
    case 'R': o->allow_requantize = true; return 0;
    case 'L': o->leave_output_tensor = true; return 0;
    case 'P': o->pure = true; return 0;
    case 'S': o->keep_split = true; return 0;
    case 'D': q->dry_run = true; return 0;
    case 'F': q->no_fsync = true; return 0;
    case 'j': q->json = true; return 0;
    case 'q': q->quiet = true; return 0;
    case 'f': q->force = true; return 0;
    case 'i': q->imatrix = val; return 0;
    case 'I':
    case 'X': {
        size_t *n = id == 'I' ? &q->n_include : &q->n_exclude;
        if (*n == 256) return cli_why(why, cap, "too many %s", id == 'I' ? "--include-weights" : "--exclude-weights");
        (id == 'I' ? q->include : q->exclude)[(*n)++] = val;
        return 0;
    }
    case 'O':
    case 'E':
        if (!parse_type(val, &ty))
            return cli_why(why, cap, "invalid type '%s' for %s", val,
                           id == 'O' ? "--output-tensor-type" : "--token-embedding-type");
        if (id == 'O') o->output_tensor_type = ty;
        else o->token_embedding_type = ty;
        return 0;
    case 'T': return !parse_rule(q, val, why, cap);
    case 'Y': return !parse_rule_file(q, val, why, cap);
    case 'Z': return !parse_prune(q, val, why, cap);
    default: return !parse_override(q, val, why, cap);
    }
}

/* One run: what the command line asked for, and what is open. */
typedef struct qrun {
    qopts *q;
    lgg_quant_options *o;
    const char *in, *out; /* out NULL: the default name, auto_out */
    char *auto_out;
    int threads;
    lgg_error err;
    lgg_imatrix *im;
    lgg_file *files[256];
    int fds[256];
    size_t n_files;
    lgg_quant_plan *plan;
} qrun;

/* A PRESET that is none, with the nearest preset's name; `last`: the last
 * operand, which names a file (OUT) when it ends in .gguf and is near no
 * preset: then the preset is missing. */
static int bad_preset(const char *name, bool last) {
    cli_near n;
    cli_near_init(&n, name);
    for (size_t i = 0; i < lgg_quant_preset_count(); i++)
        cli_near_add(&n, lgg_quant_preset_at(i)->name, strlen(lgg_quant_preset_at(i)->name));
    const size_t l = strlen(name);
    if (last && !n.best && l > 5 && !strcmp(name + l - 5, ".gguf"))
        return cli_usage_error("quantize", SPEC.usage, "PRESET is missing ('%s' is OUT; gguf quantize --help lists the "
                               "presets)", name);
    return cli_usage_error("quantize", SPEC.usage, "unknown preset '%s'%s (see gguf quantize --help)", name,
                           cli_near_hint(&n));
}

/* The operands, as llama-quantize reads them: IN [OUT] PRESET [THREADS],
 * OUT being optional when the second operand is a preset. */
static int parse_operands(qrun *r, char **argv, int n_pos) {
    const qopts *q = r->q;
    if (q->json && !q->dry_run) return cli_usage_error("quantize", SPEC.usage, "--json goes with --dry-run");
    if (q->n_include && q->n_exclude)
        return cli_usage_error("quantize", SPEC.usage, "--include-weights and --exclude-weights cannot be used together");
    const bool no_out = lgg_quant_preset_find(argv[2]) != NULL && n_pos <= 3;
    const char *preset = argv[no_out ? 2 : 3], *thr = n_pos == (no_out ? 3 : 4) ? argv[n_pos] : NULL;
    r->in = argv[1];
    if (!no_out && n_pos < 3) return bad_preset(argv[2], true);
    r->o->preset = lgg_quant_preset_find(preset);
    if (!r->o->preset) return bad_preset(preset, false);
    r->out = no_out ? NULL : argv[2];
    if (thr) {
        char *end;
        long t = strtol(thr, &end, 10);
        if (*end || end == thr || t < 1 || t > 1024)
            return cli_usage_error("quantize", SPEC.usage, "invalid thread count '%s'", thr);
        r->threads = (int)t;
    }
    return CLI_OK;
}

/* The importance matrix, the input (and its other shards), the plan. */
static int open_and_plan(qrun *r) {
    const qopts *q = r->q;
    if (q->imatrix) {
        if (lgg_imatrix_load_file(q->imatrix, NULL, &r->im, &r->err) != LGG_OK) {
            cli_err_lgg("quantize", q->imatrix, &r->err);
            return CLI_FAIL;
        }
        cli_input_add(q->imatrix, -1, 0);
        lgg_imatrix_filter(r->im, q->include, q->n_include, q->exclude, q->n_exclude);
        r->o->imatrix = r->im;
    }
    if ((r->fds[0] = cli_open_fd("quantize", r->in)) < 0) return CLI_FAIL;
    if (lgg_open_fd(r->fds[0], NULL, &r->files[0], &r->err) != LGG_OK) {
        cli_err_lgg("quantize", r->in, &r->err);
        return CLI_FAIL;
    }
    /* the output keeps a repeated key's first pair, as every writer does */
    for (uint64_t i = 0; i < lgg_kv_count(r->files[0]); i++) {
        const lgg_kv *kv = lgg_kv_at(r->files[0], i);
        if (lgg_find_key(r->files[0], kv->key.ptr, kv->key.len) != (int64_t)i)
            cli_warn_repeated("quantize", r->in, kv, 0);
    }
    r->n_files = 1;
    int rc = open_splits(r->in, r->files, r->fds, &r->n_files, 256);
    if (rc != CLI_OK) return rc;
    r->o->tensor_types = q->rules;
    r->o->n_tensor_types = q->n_rules;
    r->o->prune_layers = q->n_prune ? q->prune : NULL;
    r->o->n_prune_layers = q->n_prune;
    if (lgg_quant_plan_create((const lgg_file *const *)r->files, r->n_files, r->o, &r->plan, &r->err) != LGG_OK) {
        if (r->err.code == LGG_ERR_UNSUPPORTED && !r->o->allow_requantize && strstr(r->err.message, "requantiz"))
            cli_err("quantize", r->in, "%s; --allow-requantize converts it anyway (at a loss of quality)", r->err.message);
        else cli_err("quantize", r->in, "%s", r->err.message);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* --dry-run: the plan, per tensor, and its totals. */
static int print_plan(qrun *r, const lgg_quant_write_options *wo, const char *a, const char *b) {
    uint64_t fsize = 0;
    const size_t n = lgg_quant_plan_count(r->plan);
    if (lgg_quant_plan_output_size(r->plan, wo, &fsize, &r->err) != LGG_OK) {
        cli_err("quantize", r->in, "%s", r->err.message);
        return CLI_FAIL;
    }
    if (r->q->json) {
        print_json(r->plan, r->o->preset, fsize);
        return CLI_OK;
    }
    for (size_t i = 0; i < n; i++) print_item(stdout, r->plan, i, n);
    printf("preset %s (file type %u), %zu tensors, %zu fallbacks\n", r->o->preset->name,
           lgg_quant_plan_file_type(r->plan), n, lgg_quant_plan_fallbacks(r->plan));
    printf("tensor data %s -> %s, output file %llu bytes\n", a, b, (unsigned long long)fsize);
    return CLI_OK;
}

/* The write, with progress and the closing line. */
static int run_write(qrun *r, lgg_quant_write_options *wo, const char *a, const char *b) {
    const size_t n = lgg_quant_plan_count(r->plan);
    uint64_t *ends = calloc(n ? n : 1, sizeof *ends);
    if (!ends) {
        cli_err("quantize", NULL, "out of memory");
        return CLI_FAIL;
    }
    for (size_t i = 0; i < n; i++) ends[i] = (i ? ends[i - 1] : 0) + lgg_quant_plan_at(r->plan, i)->size;
    prog pr = {r->plan, isatty(2) != 0, r->q->quiet, 0, ends, now_s(), {0}};
    cli_progress_init(&pr.bar, "quantize", n ? ends[n - 1] : 0);
    wo->progress = on_progress;
    wo->progress_ud = &pr;
    if (r->o->keep_split) cli_outputs_begin(); /* several files: a signal takes them all back */
    lgg_status st = lgg_quant_plan_write(r->plan, r->out, wo, &r->err);
    cli_progress_end(&pr.bar);
    free(ends);
    if (st != LGG_OK) cli_err_lgg("quantize", r->out, &r->err);
    if (st != LGG_OK) cli_outputs_remove("quantize"); /* the shards written before the failure */
    cli_outputs_keep();
    if (st != LGG_OK) return CLI_FAIL;
    if (!r->q->quiet)
        fprintf(stderr, "gguf quantize: %s -> %s as %s: tensor data %s -> %s in %.2f s\n", r->in, r->out,
                r->o->preset->name, a, b, now_s() - pr.t0);
    return CLI_OK;
}

static lgg_status no_data(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)ud, (void)off, (void)dst, (void)n;
    return lgg_error_set(err, LGG_ERR_NO_DATA, LGG_NO_OFFSET, "a description has no data");
}

/* The output's header as the plan writes it (lgg_quant_plan_set_metadata,
 * the tensors with their new types), described in memory; NULL on error. */
static lgg_file *describe_output(qrun *r, const lgg_quant_write_options *wo) {
    lgg_writer *w = NULL;
    lgg_file *d = NULL;
    lgg_status st = lgg_writer_create(NULL, &w, &r->err);
    if (st == LGG_OK) st = lgg_quant_plan_set_metadata(r->plan, wo, w, &r->err);
    for (size_t i = 0; st == LGG_OK && i < lgg_quant_plan_count(r->plan); i++) {
        const lgg_quant_item *it = lgg_quant_plan_at(r->plan, i);
        st = lgg_writer_add_tensor_callback(w, it->name.ptr, (size_t)it->name.len, it->t->n_dims, it->t->ne, it->type,
                                            no_data, NULL, LGG_LITTLE_ENDIAN, &r->err);
    }
    if (st == LGG_OK) lgg_writer_describe(w, &d, &r->err);
    lgg_writer_free(w);
    return d;
}

/* Without OUT: the name `gguf name` gives the output (the naming convention,
 * as `gguf convert` names its outputs), in IN's directory. */
static int default_out(qrun *r, const lgg_quant_write_options *wo) {
    lgg_file *d = describe_output(r, wo);
    if (!d) {
        cli_err_lgg("quantize", r->in, &r->err);
        return CLI_FAIL;
    }
    const char *slash = strrchr(r->in, '/');
    const size_t dl = slash ? (size_t)(slash - r->in) + 1 : 0, n = lgg_recommended_name(d, NULL, 0);
    if ((r->auto_out = malloc(dl + n + 1)) != NULL) {
        memcpy(r->auto_out, r->in, dl);
        lgg_recommended_name(d, r->auto_out + dl, n + 1);
    }
    lgg_close(d);
    r->out = r->auto_out;
    if (!r->auto_out) cli_err("quantize", NULL, "out of memory");
    return r->auto_out ? CLI_OK : CLI_FAIL;
}

/* A default name (no OUT) never replaces a file without -f: OUT, or with
 * --keep-split each of its shards. */
static int refuse_existing(const qrun *r) {
    const size_t n = r->o->keep_split ? r->n_files : 1, l = strlen(r->out);
    struct stat st;
    for (size_t i = 0; !r->q->force && r->auto_out && i < n; i++) {
        char path[4200];
        if (r->o->keep_split) snprintf(path, sizeof path, "%.*s-%05zu-of-%05zu.gguf", (int)(l >= 5 ? l - 5 : l), r->out, i + 1, n);
        else snprintf(path, sizeof path, "%s", r->out);
        if (lstat(path, &st) == 0) {
            cli_err("quantize", path, "exists (the default output name): -f replaces it, or give OUT");
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

/* OUT, or with --keep-split every shard of its set, must not be an input. */
static int check_outputs(const qrun *r) {
    if (!r->o->keep_split) return cli_output_check("quantize", r->out);
    size_t pl = 0;
    char prefix[4096];
    if (!lgg_split_name_parse(r->out, strlen(r->out), NULL, NULL, &pl)) {
        pl = strlen(r->out);
        if (pl >= 5 && !strcmp(r->out + pl - 5, ".gguf")) pl -= 5;
    }
    snprintf(prefix, sizeof prefix, "%.*s", (int)pl, r->out);
    return cli_output_check_set("quantize", prefix) || cli_output_check("quantize", r->out) ? CLI_FAIL : CLI_OK;
}

static int plan_and_write(qrun *r) {
    int rc = open_and_plan(r);
    if (rc != CLI_OK) return rc;
    lgg_quant_write_options wo;
    lgg_quant_write_options_init(&wo);
    wo.n_threads = r->threads;
    wo.overrides = r->q->kv;
    wo.n_overrides = r->q->n_kv;
    wo.imatrix_file = r->q->imatrix;
    wo.input_fds = r->fds;
    wo.write_flags = r->q->no_fsync ? LGG_WRITE_NO_SYNC : 0;
    wo.temp_fn = cli_temp_note;
    if (!r->q->dry_run && !r->out && (rc = default_out(r, &wo)) != CLI_OK) return rc;
    if (!r->q->dry_run && ((rc = refuse_existing(r)) != CLI_OK || (rc = check_outputs(r)) != CLI_OK)) return rc;
    uint64_t in_bytes = 0, out_bytes = 0;
    for (size_t i = 0; i < lgg_quant_plan_count(r->plan); i++) {
        in_bytes += lgg_quant_plan_at(r->plan, i)->t->size;
        out_bytes += lgg_quant_plan_at(r->plan, i)->size;
    }
    char a[32], b[32];
    cli_fmt_bytes(a, sizeof a, in_bytes);
    cli_fmt_bytes(b, sizeof b, out_bytes);
    return r->q->dry_run ? print_plan(r, &wo, a, b) : run_write(r, &wo, a, b);
}

int cmd_quantize(int argc, char **argv) {
    static qopts q; /* large arrays: not on the stack */
    memset(&q, 0, sizeof q);
    lgg_quant_options o;
    lgg_quant_options_init(&o);
    q.o = &o;
    static qrun r;
    memset(&r, 0, sizeof r);
    r.q = &q;
    r.o = &o;
    for (int i = 0; i < 256; i++) r.fds[i] = -1;
    int n_pos = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &q, &n_pos);
    if (rc == CLI_HELP) help_presets();
    if (rc) rc = rc == CLI_HELP ? CLI_OK : rc;
    else if ((rc = parse_operands(&r, argv, n_pos)) == CLI_OK) rc = plan_and_write(&r);
    lgg_quant_plan_free(r.plan);
    for (size_t i = 0; i < 256; i++) {
        lgg_close(r.files[i]);
        if (r.fds[i] >= 0) close(r.fds[i]);
    }
    lgg_imatrix_free(r.im);
    free(r.auto_out);
    qopts_free(&q);
    return rc;
}
