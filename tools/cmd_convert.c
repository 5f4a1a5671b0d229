/* cmd_convert.c -- `gguf convert [options] MODEL_DIR [-o OUT]`: a Hugging
 * Face checkpoint to GGUF, the bytes llama.cpp's convert_hf_to_gguf.py
 * (b4747) writes.  The conversion itself is libgguf-convert's. */
#include "tool.h"
#include "libgguf_convert.h"
#include "libgguf_tokenize.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "spec_convert.h" /* from tools/spec/convert.txt (scripts/cli-spec.awk) */

#define EPILOG_END                                                       \
    "SentencePiece (tokenizer.model) and byte-level BPE (tokenizer.json)\n" \
    "vocabularies.\n"                                                     \
    "Exit status: 0 success, 1 failure (bad or missing input, write error),\n" \
    "2 usage error.\n"

/* The help's epilog: each family the converter knows (config.json's
 * "architectures" names, wrapped, after the GGUF architecture), read from
 * its table so that the help never lags behind it. */
static const char *epilog(void) {
    static char buf[8192];
    size_t n = 0;
#define PUT(...) (n += n < sizeof buf ? (size_t)snprintf(buf + n, sizeof buf - n, __VA_ARGS__) : 0)
    PUT("Architectures (general.architecture: config.json \"architectures\"):\n");
    const char *arch, *names;
    for (size_t i = 0; (names = lgg_convert_family_at(i, &arch)); i++) {
        /* the names line up in column 13; a longer architecture has them on the next line */
        if (strlen(arch) > 9) PUT("  %s\n%11s", arch, "");
        else PUT("  %-9s", arch);
        size_t col = 11;
        for (const char *p = names; *p; p += p[strcspn(p, "|")] ? strcspn(p, "|") + 1 : strcspn(p, "|")) {
            size_t len = strcspn(p, "|");
            if (col + 1 + len > 78) PUT("\n%11s", ""), col = 11;
            PUT(" %.*s", (int)len, p);
            col += 1 + len;
        }
        PUT("\n");
    }
    PUT("%s", EPILOG_END);
#undef PUT
    return buf;
}

enum { MAX_OUTTYPES = 7 }; /* cli_write.c keeps 16 temporary files for the signal handler: each staged, each being written */

typedef struct outtype {
    uint32_t type;                  /* lgg_convert_outtype */
    const lgg_quant_preset *preset; /* or a quantize preset (type AUTO) */
} outtype;

typedef struct copts {
    const char *dir, *out, *imatrix;
    const char *lora, *base;        /* --lora ADAPTER_DIR --base BASE_DIR */
    outtype ot[MAX_OUTTYPES];       /* --outtype's list */
    size_t n_ot;
    int threads;
    lgg_split_options split;
    lgg_convert_options o;
    const char *meta[256];          /* --set */
    size_t n_meta;
    bool dry_run, quiet, no_fsync, print_models, bigendian;
    bool card;                      /* --model-card[=card_path] */
    const char *card_path;
} copts;

static int parse_outtype(const char *s, uint32_t *t) {
    static const char *const names[] = {"f32", "f16", "bf16", "q8_0", "auto", "tq1_0", "tq2_0"}; /* by lgg_convert_outtype */
    for (uint32_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) return *t = i, 1;
    return 0;
}

/* --outtype's comma-separated list (the last --outtype given wins). */
static int parse_outtypes(copts *c, const char *v, char *why, size_t cap) {
    c->n_ot = 0;
    for (const char *p = v;; p++) {
        char one[64];
        size_t len = strcspn(p, ",");
        if (c->n_ot == MAX_OUTTYPES) return cli_why(why, cap, "--outtype takes at most %d types", MAX_OUTTYPES);
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), p);
        outtype *o = &c->ot[c->n_ot++];
        o->preset = NULL;
        if (len >= sizeof one || (!parse_outtype(one, &o->type) && !(o->preset = lgg_quant_preset_find(one))))
            return cli_why(why, cap, "unknown --outtype '%.*s' (f32, f16, bf16, q8_0, tq1_0, tq2_0, auto, or a quantize preset)",
                           (int)len, p);
        if (o->preset) o->type = LGG_CONVERT_AUTO;
        p += len;
        if (!*p) return 0;
    }
}

/* --pre NAME: a tokenizer.ggml.pre llama.cpp knows (else `gguf tokenize`
 * and llama.cpp refuse the output), or why not with the names it knows. */
static int check_pre(const char *v, char *why, size_t cap) {
    size_t n, at;
    const char *p;
    for (size_t i = 0; (p = lgg_tokenizer_pre_name(i, &n)); i++)
        if (strlen(v) == n && !memcmp(v, p, n)) return 0;
    at = (size_t)snprintf(why, cap, "--pre '%.64s' is not a pre-tokenizer llama.cpp knows; one of:", v);
    for (size_t i = 0; at < cap && (p = lgg_tokenizer_pre_name(i, &n)); i++) {
        if (at + n + 5 >= cap) { /* whole names only */
            snprintf(why + at, cap - at, " ...");
            break;
        }
        at += (size_t)snprintf(why + at, cap - at, " %.*s", (int)n, p);
    }
    return 1;
}

static int on_opt(void *ud, int id, const char *v, char *why, size_t cap) {
    copts *c = ud;
    uint64_t n = 0;
    switch (id) {
    case 't': return parse_outtypes(c, v, why, cap);
    case 'o': c->out = v; break;
    case 'i': c->imatrix = v; break;
    case 'j':
        if (!cli_parse_u64(v, &n) || n < 1 || n > 1024) return cli_why(why, cap, "--threads wants 1 to 1024, not '%s'", v);
        c->threads = c->o.n_threads = (int)n;
        break;
    case 'S':
        if (c->n_meta == sizeof c->meta / sizeof c->meta[0]) return cli_why(why, cap, "too many --set");
        c->meta[c->n_meta++] = v;
        break;
    case 'm': /* the old --metadata KEY=TYPE:VALUE, unless such a file exists */
        if (access(v, F_OK) != 0 && strchr(v, '=') && strchr(strchr(v, '='), ':'))
            return cli_why(why, cap, "--metadata takes a JSON file (the reference's override file); "
                                     "'%s' is a key to set: use --set", v);
        c->o.metadata_override = v;
        break;
    case 'N': c->o.model_name = v; break;
    case 'E': c->bigendian = true; break;
    case 'T': c->split.flags |= LGG_SPLIT_NO_TENSOR_FIRST; break;
    case 'U': case 'Z': case 'V': break; /* the reference's memory and logging switches: nothing to do here */
    case 'p':
        if (check_pre(v, why, cap)) return 1;
        c->o.pre = v;
        break;
    case 'R':
        if (!strcmp(v, "master")) c->o.target = LGG_CONVERT_TARGET_MASTER;
        else if (!strcmp(v, "b4747")) c->o.target = LGG_CONVERT_TARGET_B4747;
        else return cli_why(why, cap, "--target wants master or b4747, not '%s'", v);
        break;
    case 'P':
    case 'X':
        if (c->o.mtp && c->o.mtp != (id == 'P' ? LGG_CONVERT_MTP_ONLY : LGG_CONVERT_MTP_NONE))
            return cli_why(why, cap, "--mtp and --no-mtp are mutually exclusive");
        c->o.mtp = id == 'P' ? LGG_CONVERT_MTP_ONLY : LGG_CONVERT_MTP_NONE;
        break;
    case 's':
        if (!cli_size_option("convert", "--split-max-size", v, 0, &c->split.max_size) || !c->split.max_size)
            return cli_why(why, cap, "--split-max-size must be a positive N, NK, NM, NG, NGB or NGiB, not '%s'", v);
        break;
    case 'n':
        if (!cli_parse_u64(v, &c->split.max_tensors) || !c->split.max_tensors)
            return cli_why(why, cap, "--split-max-tensors must be a positive number, not '%s'", v);
        break;
    case 'v': c->o.vocab_only = true; break;
    case '8': c->o.fp8_as_q8 = true; break;
    case 'D': c->o.sentence_transformers_dense_modules = true; break;
    case 'G': c->o.fuse_gate_up_exps = true; break;
    case 'd': c->dry_run = true; break;
    case 'F': c->no_fsync = true; break;
    case 'L': c->print_models = true; break;
    case 'q': c->quiet = true; break;
    case 'A': c->lora = v; break;
    case 'B': c->base = v; break;
    case 'M': c->card = true, c->card_path = v; break;
    case 'J':
        if (!cli_parse_size(v, 1, &c->o.max_json_size) || !c->o.max_json_size)
            return cli_why(why, cap, "--max-json-size must be a positive N, NK, NM or NG, not '%s'", v);
        break;
    default: break;
    }
    return 0;
}

/* Whether OUT names an existing directory (the reference's is_dir()). */
static int is_dir(const char *path) {
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Whether OUT's file name (not its directories, as in the reference) holds
 * one of the reference's type templates. */
static int templated(const char *out) {
    static const char *const keys[] = {"{}", "{0}", "{ftype}", "{outtype}", "{FTYPE}", "{OUTTYPE}"};
    const char *base = out && strrchr(out, '/') ? strrchr(out, '/') + 1 : out;
    for (size_t i = 0; base && i < sizeof keys / sizeof keys[0]; i++)
        if (strstr(base, keys[i])) return 1;
    return 0;
}

/* -o OUT for several --outtype types: {ftype} in it, or a directory that
 * exists ("DIR/" that does not: said so). */
static int check_several_out(const copts *c) {
    if (c->n_ot < 2 || !c->out || templated(c->out) || is_dir(c->out)) return CLI_OK;
    const size_t n = strlen(c->out);
    if (n && c->out[n - 1] == '/')
        return cli_usage_error("convert", SPEC.usage,
                               "-o %s: no such directory (several --outtype types are written into one that "
                               "exists, or to an OUT with {ftype})", c->out);
    return cli_usage_error("convert", SPEC.usage,
                           "several --outtype types need {ftype} in -o, or a directory as -o, not '%s'", c->out);
}

/* Option combinations cli_parse cannot see. */
static int check_args(const copts *c) {
    int preset = 0;
    for (size_t i = 0; i < c->n_ot; i++) preset |= c->ot[i].preset != NULL;
    if (c->imatrix && !preset) return cli_usage_error("convert", SPEC.usage, "--imatrix needs --outtype PRESET");
    if (!c->lora != !c->base) return cli_usage_error("convert", SPEC.usage, "--lora and --base go together");
    if (c->lora && (preset || c->o.vocab_only))
        return cli_usage_error("convert", SPEC.usage, "--lora takes no quantize preset and no --vocab-only");
    if (c->split.max_size && c->split.max_tensors)
        return cli_usage_error("convert", SPEC.usage, "--split-max-size and --split-max-tensors exclude each other");
    if (preset && c->o.vocab_only)
        return cli_usage_error("convert", SPEC.usage, "--vocab-only writes no tensors to quantize");
    if (c->card && (c->split.max_size || c->split.max_tensors || c->dry_run))
        return cli_usage_error("convert", SPEC.usage, "--model-card takes no --split-max-* or --dry-run");
    if (c->bigendian && (preset || c->lora))
        return cli_usage_error("convert", SPEC.usage, "--bigendian takes no quantize preset and no --lora");
    if (c->n_ot > 1 && (c->split.max_size || c->split.max_tensors || c->dry_run))
        return cli_usage_error("convert", SPEC.usage, "several --outtype types take no --split-max-* or --dry-run");
    return check_several_out(c);
}

/* OUT with the reference's templates filled in (gguf-py's
 * fill_templated_filename, applied to the last path component as the
 * reference applies it to fname_out.name): {ftype} and {outtype} (and the
 * positional {} / {0}) lower-case, {FTYPE} and {OUTTYPE} upper-case. */
static void fill_template(const char *out, const char *ftype, char *buf, size_t cap) {
    static const struct { const char *key; int upper; } K[] = {{"{}", 0},      {"{0}", 0},       {"{ftype}", 0},
                                                               {"{outtype}", 0}, {"{FTYPE}", 1}, {"{OUTTYPE}", 1}};
    const char *slash = strrchr(out, '/'), *base = slash ? slash + 1 : out;
    size_t n = 0;
    for (const char *p = out; *p && n + 1 < cap;) {
        size_t k = 0;
        while (p >= base && k < sizeof K / sizeof K[0] && strncmp(p, K[k].key, strlen(K[k].key))) k++;
        if (p < base || k == sizeof K / sizeof K[0]) {
            buf[n++] = *p++;
            continue;
        }
        for (const char *f = ftype; *f && n + 1 < cap; f++)
            buf[n++] = (char)(K[k].upper ? toupper((unsigned char)*f) : tolower((unsigned char)*f));
        p += strlen(K[k].key);
    }
    buf[n] = 0;
}

static int apply_metadata(const copts *c, lgg_convert *cv) {
    for (size_t i = 0; i < c->n_meta; i++) {
        const char *eq = strchr(c->meta[i], '=');
        char why[300];
        cli_val v;
        if (!eq || eq == c->meta[i]) {
            cli_err("convert", NULL, "--set '%s': expected KEY=TYPE:VALUE", c->meta[i]);
            return CLI_USAGE;
        }
        if (!cli_val_parse(eq + 1, &v, why, sizeof why)) {
            cli_err("convert", NULL, "--set '%s': %s", c->meta[i], why);
            return CLI_USAGE;
        }
        lgg_error err;
        lgg_status st = lgg_writer_set(lgg_convert_writer(cv), c->meta[i], (size_t)(eq - c->meta[i]), &v.v, &err);
        cli_val_free(&v);
        if (st) {
            cli_err("convert", NULL, "--set '%s': %s", c->meta[i], err.message);
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}

static void dry_run(lgg_convert *cv) {
    for (size_t i = 0; i < lgg_convert_tensor_count(cv); i++) {
        lgg_convert_tensor t;
        lgg_convert_tensor_at(cv, i, &t);
        printf("%s%s%s -> %s %s [", t.file, *t.file ? "/" : "", t.source, t.name, cli_type_name(t.type));
        for (uint32_t d = 0; d < t.n_dims; d++) printf("%s%lld", d ? ", " : "", (long long)t.ne[d]);
        printf("]\n");
    }
}

static void on_progress(void *ud, uint64_t done, uint64_t total) {
    cli_progress *p = ud;
    p->total = total;
    cli_progress_add(p, done - p->done);
}

/* OUT without its suffix (.gguf, or any other: Python's Path.stem, as the
 * reference names its shards): the shard set's prefix. */
static void split_prefix(const char *out, char *prefix, size_t cap) {
    size_t l = strlen(out);
    const char *base = strrchr(out, '/');
    base = base ? base + 1 : out;
    const char *dot = strrchr(base, '.');
    if (dot && dot > base && dot[1]) l = (size_t)(dot - out);
    snprintf(prefix, cap, "%.*s", (int)l, out);
}

/* --outtype PRESET: the quantize step fused into the conversion. */
static lgg_status write_preset(const copts *c, const lgg_quant_preset *preset, lgg_convert *cv, const char *out,
                               lgg_error *err) {
    lgg_quant_options qo;
    lgg_quant_options_init(&qo);
    qo.preset = preset;
    lgg_imatrix *im = NULL;
    if (c->imatrix) {
        lgg_status st = lgg_imatrix_load_file(c->imatrix, NULL, &im, err);
        if (st) return st;
        qo.imatrix = im;
    }
    lgg_quant_write_options qw;
    lgg_quant_write_options_init(&qw);
    qw.n_threads = c->threads;
    qw.imatrix_file = c->imatrix;
    if (c->no_fsync) qw.write_flags |= LGG_WRITE_NO_SYNC;
    qw.temp_fn = cli_temp_note; /* a signal removes the temporary file */
    lgg_status st;
    if (c->split.max_size || c->split.max_tensors) {
        char prefix[4096];
        split_prefix(out, prefix, sizeof prefix);
        st = lgg_convert_write_quantized_split(cv, &qo, &qw, prefix, &c->split, err);
    } else {
        st = lgg_convert_write_quantized(cv, &qo, &qw, out, err);
    }
    lgg_imatrix_free(im);
    return st;
}

/* The checkpoint's files are inputs: OUT must be none of them, and a new
 * OUT takes the first safetensors file's permission bits (the weights are
 * what the output is a copy of). */
static void note_inputs(const lgg_convert *cv, const char *imatrix) {
    for (size_t i = 0; lgg_convert_input(cv, i); i++) {
        const char *p = lgg_convert_input(cv, i);
        size_t l = strlen(p);
        if (l > 12 && !strcmp(p + l - 12, ".safetensors")) cli_input_add(p, -1, 1);
    }
    for (size_t i = 0; lgg_convert_input(cv, i); i++) cli_input_add(lgg_convert_input(cv, i), -1, 0);
    if (imatrix) cli_input_add(imatrix, -1, 0);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The closing line: what was written (shown; its bytes are at path, which
 * differs while several outputs wait to be renamed), its size, the time. */
static void say_written(const char *dir, const char *shown, const char *path, const char *prefix, double t0) {
    size_t n = 0;
    uint64_t bytes = 0;
    struct stat st;
    if (prefix) cli_outputs_stat(&n, &bytes);
    else if (stat(path, &st) == 0) bytes = (uint64_t)st.st_size;
    char size[32];
    cli_fmt_bytes(size, sizeof size, bytes);
    /* cli_err for its shape and its escaping: the names may hold control bytes */
    if (prefix && n == 1) /* what fits one shard is not split (the reference's rule) */
        cli_err("convert", NULL, "%s -> %s.gguf: %s in %.2f s", dir, prefix, size, now_s() - t0);
    else if (prefix)
        cli_err("convert", NULL, "%s -> %s-*-of-%05zu.gguf (%zu shards): %s in %.2f s", dir, prefix, n, n, size,
                now_s() - t0);
    else cli_err("convert", NULL, "%s -> %s: %s in %.2f s", dir, shown, size, now_s() - t0);
}

/* Where the output goes: OUT with its templates filled in, the default
 * name inside OUT when OUT is a directory, else the default name (a preset
 * names the encoding instead of the intermediate F16/BF16). */
static void out_path(const copts *c, const lgg_quant_preset *preset, const lgg_convert *cv, char *buf, size_t cap) {
    const char *ftype = preset ? preset->name : lgg_convert_ftype_name(cv);
    if (c->out && !is_dir(c->out)) {
        fill_template(c->out, ftype, buf, cap);
        return;
    }
    char name[4096];
    lgg_convert_default_name(cv, name, sizeof name);
    char *dash = strrchr(name, '-');
    if (preset && dash) snprintf(dash, sizeof name - (size_t)(dash - name), "-%s.gguf", preset->name);
    size_t l = c->out ? strlen(c->out) : 0;
    if (l && c->out[l - 1] == '/') l--;
    if ((size_t)snprintf(buf, cap, "%.*s%s%s", (int)l, c->out ? c->out : "", c->out ? "/" : "", name) >= cap)
        buf[0] = 0; /* too long: the write fails naming no file */
}

/* One output of --outtype, from its converter to its closing line. */
typedef struct output {
    copts *c;
    size_t k;
    const lgg_quant_preset *preset;
    lgg_convert *cv;
    const char *path;      /* where it is written: its final name, or the staged one */
    char prefix[4096];     /* with --split-max-*: the shard set's */
    double t0;
    lgg_status st;
    lgg_error err;
    struct progress *prog; /* several outputs at once: their shared progress bar */
} output;

/* Output k: its converter opened and its path chosen, final[k] (the name
 * it gets), or with several outputs staged, a temporary name beside it
 * that the caller renames once every output is written.  CLI_OK with
 * o->cv NULL: nothing to write (--dry-run). */
static int prepare_one(copts *c, size_t k, char (*final)[4096], char *staged, size_t cap, int *lock, output *o) {
    memset(o, 0, sizeof *o);
    o->c = c, o->k = k, o->preset = c->ot[k].preset;
    c->o.outtype = c->ot[k].type;
    lgg_convert *cv = NULL;
    lgg_error err;
    o->t0 = now_s();
    if (c->lora ? lgg_convert_open_lora(c->lora, c->base, &c->o, &cv, &err) : lgg_convert_open(c->dir, &c->o, &cv, &err)) {
        cli_err("convert", NULL, "%s", err.message); /* the message names the file */
        return CLI_FAIL;
    }
    note_inputs(c->o.io ? NULL : cv, c->imatrix); /* the hub's files are no local file */
    if (!c->o.io) cli_input_add_dir(c->dir, ".gguf"); /* every file of the folder but earlier outputs */
    if (!c->o.io && c->base) cli_input_add_dir(c->base, ".gguf");
    int rc = apply_metadata(c, cv);
    if (rc != CLI_OK || c->dry_run) {
        if (c->dry_run && rc == CLI_OK) dry_run(cv);
        lgg_convert_free(cv);
        return rc;
    }
    out_path(c, o->preset, cv, final[k], sizeof final[k]);
    o->path = final[k];
    for (size_t j = 0; j < k; j++)
        if (!strcmp(final[j], final[k])) {
            cli_err("convert", final[k], "two of the --outtype types would both be written here");
            lgg_convert_free(cv);
            return CLI_FAIL;
        }
    const bool split = c->split.max_size || c->split.max_tensors;
    split_prefix(final[k], o->prefix, sizeof o->prefix);
    char single[4200]; /* a set of one shard is this plain file */
    snprintf(single, sizeof single, "%s.gguf", o->prefix);
    if ((split ? cli_output_check_set("convert", o->prefix) != CLI_OK || cli_output_check("convert", single) != CLI_OK
               : cli_output_check("convert", final[k]) != CLI_OK)) {
        lgg_convert_free(cv);
        return CLI_FAIL;
    }
    if (staged) {
        if (cli_stage_begin("convert", final[k], staged, cap, lock) != CLI_OK) {
            lgg_convert_free(cv);
            return CLI_FAIL;
        }
        o->path = staged;
    } else {
        cli_stage_sweep(final[k]); /* what a killed run of several outputs left */
    }
    o->cv = cv;
    return CLI_OK;
}

/* The conversion written (o->st, o->err say how it went). */
static void write_one(output *o) {
    const copts *c = o->c;
    const bool split = c->split.max_size || c->split.max_tensors;
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    if (c->no_fsync) wo.flags |= LGG_WRITE_NO_SYNC;
    if (c->o.vocab_only) wo.flags |= LGG_WRITE_NO_EMPTY_PAD; /* the reference's gguf-py does not pad an empty data section */
    if (c->bigendian) wo.endian = LGG_BIG_ENDIAN;
    wo.temp_fn = cli_temp_note; /* the split shards' temporary files too */
    if (split) cli_outputs_begin(); /* a signal takes back the shards already written */
    if (o->preset) o->st = write_preset(c, o->preset, o->cv, o->path, &o->err);
    else if (split) o->st = lgg_convert_write_split(o->cv, o->prefix, &c->split, &wo, &o->err);
    else o->st = cli_write_file(lgg_convert_writer(o->cv), o->path, &wo, &o->err);
}

/* Its failure in the converter's words, or its closing line. */
static int finish_one(output *o, const char *final) {
    const bool split = o->c->split.max_size || o->c->split.max_tensors;
    int rc = CLI_OK;
    if (o->st) {
        cli_err("convert", final, "%s", o->err.message); /* a conversion's failure in its own words */
        rc = CLI_FAIL;
        cli_outputs_remove("convert"); /* the library removed its shards: a no-op unless one stayed */
    } else if (!o->c->quiet) {
        say_written(o->c->dir, final, o->path, split ? o->prefix : NULL, o->t0);
    }
    cli_outputs_keep();
    return rc;
}

/* The one output: converted and written to final[0]. */
static int convert_one(copts *c, char (*final)[4096]) {
    output o;
    int rc = prepare_one(c, 0, final, NULL, 0, NULL, &o);
    if (rc != CLI_OK || !o.cv) return rc;
    cli_progress prog;
    cli_progress_init(&prog, "convert", lgg_convert_total_bytes(o.cv));
    if (!c->quiet) lgg_convert_set_progress(o.cv, on_progress, &prog);
    write_one(&o);
    cli_progress_end(&prog);
    rc = finish_one(&o, final[0]);
    lgg_convert_free(o.cv);
    return rc;
}

/* Several outputs' progress as one bar: the sum of their bytes. */
typedef struct progress {
    pthread_mutex_t mu;
    cli_progress bar;
    uint64_t done[MAX_OUTTYPES], total[MAX_OUTTYPES];
    size_t n, finished;
} progress;

static void on_progress_of(void *ud, uint64_t done, uint64_t total) {
    output *o = ud;
    progress *p = o->prog;
    pthread_mutex_lock(&p->mu);
    p->total[o->k] = total;
    p->bar.total = 0;
    for (size_t k = 0; k < p->n; k++) p->bar.total += p->total[k];
    if (done >= p->done[o->k]) cli_progress_add(&p->bar, done - p->done[o->k]);
    p->done[o->k] = done; /* a preset's count starts again with its plan */
    pthread_mutex_unlock(&p->mu);
}

static void *write_thread(void *arg) {
    output *o = arg;
    write_one(o);
    lgg_convert_unshare(o->cv); /* the others no longer wait for it */
    pthread_mutex_lock(&o->prog->mu);
    o->prog->finished++;
    pthread_mutex_unlock(&o->prog->mu);
    return NULL;
}

static int all_finished(void *ud) {
    progress *p = ud;
    pthread_mutex_lock(&p->mu);
    int all = p->finished == p->n;
    pthread_mutex_unlock(&p->mu);
    return all;
}

/* Several outputs from one read of the checkpoint: each opened, then all
 * written at once to their staged names, one thread each, sharing the
 * source rows (lgg_convert_share). */
static int convert_several(copts *c, char (*final)[4096], char (*staged)[4096], int *lock) {
    static output o[MAX_OUTTYPES];
    static progress p;
    memset(&p, 0, sizeof p);
    size_t n = 0;
    int rc = CLI_OK;
    for (; rc == CLI_OK && n < c->n_ot; n++) rc = prepare_one(c, n, final, staged[n], sizeof staged[n], &lock[n], &o[n]);
    lgg_convert *cv[MAX_OUTTYPES];
    for (size_t k = 0; k < n; k++) cv[k] = o[k].cv;
    if (rc != CLI_OK) {
        for (size_t k = 0; k < n; k++) lgg_convert_free(cv[k]);
        return rc;
    }
    lgg_error err;
    lgg_convert_share(cv, n, &err); /* should it fail, each reads its own rows: the same bytes, slower */
    for (size_t k = 0; k < n; k++) cli_temp_note(NULL, staged[k], 1); /* a signal removes them until renamed */
    pthread_mutex_init(&p.mu, NULL);
    p.n = n;
    uint64_t total = 0;
    for (size_t k = 0; k < n; k++) total += p.total[k] = lgg_convert_total_bytes(cv[k]);
    cli_progress_init(&p.bar, "convert", total);
    sigset_t mask;
    cli_parallel_begin(&mask);
    pthread_t tid[MAX_OUTTYPES];
    int started[MAX_OUTTYPES] = {0};
    for (size_t k = 0; k < n; k++) {
        o[k].prog = &p;
        if (!c->quiet) lgg_convert_set_progress(cv[k], on_progress_of, &o[k]);
        started[k] = pthread_create(&tid[k], NULL, write_thread, &o[k]) == 0;
        if (!started[k]) write_thread(&o[k]); /* no thread: here, after the others started */
    }
    cli_parallel_wait(all_finished, &p);
    for (size_t k = 0; k < n; k++)
        if (started[k]) pthread_join(tid[k], NULL);
    cli_parallel_end(&mask);
    cli_progress_end(&p.bar);
    for (size_t k = 0; k < n; k++) {
        if (finish_one(&o[k], final[k]) != CLI_OK) rc = CLI_FAIL;
        lgg_convert_free(cv[k]);
    }
    pthread_mutex_destroy(&p.mu);
    return rc;
}

/* Several outputs: all of them renamed into place, or none (a rename that
 * fails takes back the ones already made); then their locks let go. */
static int commit(size_t n, char (*final)[4096], char (*staged)[4096], const int *lock, int rc) {
    size_t k = 0;
    for (; rc == CLI_OK && k < n; k++)
        if (rename(staged[k], final[k]) != 0) {
            cli_err("convert", final[k], "cannot rename %s into place: %s", staged[k], strerror(errno));
            rc = CLI_FAIL;
            for (size_t j = 0; j < k; j++) unlink(final[j]);
            break;
        } else {
            cli_temp_note(NULL, staged[k], 0);
        }
    for (; rc != CLI_OK && k < n; k++)
        if (staged[k][0]) unlink(staged[k]), cli_temp_note(NULL, staged[k], 0);
    for (k = 0; k < n; k++) cli_stage_end(staged[k], lock[k]);
    return rc;
}

/* MODEL_DIR on disk must be a checkpoint folder: a directory with config.json. */
static int check_model_dir(const char *dir) {
    const int k = cli_path_kind(dir);
    if (k == CLI_PATH_CHECKPOINT) return CLI_OK;
    if (k == CLI_PATH_MISSING) cli_err("convert", dir, "%s", strerror(errno));
    else if (k == CLI_PATH_DIR) cli_err("convert", NULL, "%s is not a checkpoint folder: it has no config.json", dir);
    else if (!cli_hint_convert("convert", dir, "a checkpoint folder"))
        cli_err("convert", NULL, "%s is not a checkpoint folder (a directory with config.json and the model's "
                                 "safetensors files)", dir);
    return CLI_FAIL;
}

int cmd_convert(int argc, char **argv) {
    static copts c;
    memset(&c, 0, sizeof c);
    lgg_convert_options_init(&c.o);
    lgg_split_options_init(&c.split);
    c.split.flags = LGG_SPLIT_GGUF_PY; /* the reference converter's shard layout */
    int np = 0;
    cli_spec spec = SPEC;
    spec.epilog = epilog();
    int rc = cli_parse(&spec, argc, argv, on_opt, &c, &np);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    if (c.print_models) {
        size_t need = lgg_convert_supported_models(NULL, 0); /* as snprintf: the length, then the list */
        char *list = malloc(need + 1);
        if (!list) {
            cli_err("convert", NULL, "out of memory");
            return CLI_FAIL;
        }
        lgg_convert_supported_models(list, need + 1);
        fputs(list, stdout);
        free(list);
        return CLI_OK;
    }
    if (np != !c.lora) return cli_usage_error("convert", SPEC.usage, c.lora ? "--lora takes no MODEL_DIR" : "MODEL_DIR is required");
    c.dir = c.lora ? c.lora : argv[1];
    if (!c.n_ot) c.ot[c.n_ot++] = (outtype){c.o.outtype, NULL};
    if ((rc = check_args(&c)) != CLI_OK) return rc;
    if (!c.lora && (rc = cli_hubconv_open(argv[1], (int)c.n_ot, &c.o.io, &c.dir)) != CLI_OK) return rc; /* hf://OWNER/REPO: read on the hub */
    if (!c.lora && !c.o.io && (rc = check_model_dir(c.dir)) != CLI_OK) return rc;
    static char final[MAX_OUTTYPES][4096], staged[MAX_OUTTYPES][4096];
    int lock[MAX_OUTTYPES];
    memset(staged, 0, sizeof staged);
    for (size_t k = 0; k < MAX_OUTTYPES; k++) lock[k] = -1;
    if (c.n_ot > 1) /* all at once, from one read (from the hub, its spool holds the bytes fetched) */
        rc = commit(c.n_ot, final, staged, lock, convert_several(&c, final, staged, lock));
    else
        rc = convert_one(&c, final);
    if (rc == CLI_OK && c.card) rc = cli_model_card(c.card_path, final, c.n_ot);
    cli_hubconv_close();
    return rc;
}
