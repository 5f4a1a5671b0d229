/* cmd_convert.c -- `gguf convert [options] MODEL_DIR [-o OUT]`: a Hugging
 * Face checkpoint to GGUF, the bytes llama.cpp's convert_hf_to_gguf.py
 * (b4747) writes.  The conversion itself is libgguf-convert's. */
#include "cli.h"
#include "libgguf_convert.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const cli_opt OPTS[] = {
    {'t', "--outtype", "TYPE", "f32, f16 (default), bf16, q8_0 or auto (f16 if the first\n"
                               "tensor is f16, else bf16); or any preset of 'gguf quantize'\n"
                               "(Q4_K_M, IQ4_XS, ...; Q8_0 in capitals): the bytes of\n"
                               "--outtype auto followed by 'gguf quantize', in one pass\n"
                               "with no intermediate file"},
    {'o', "-o|--outfile|--output", "OUT", "output file (default: the reference converter's name,\nin the current directory)"},
    {'i', "--imatrix", "FILE", "importance matrix for a preset (as 'gguf quantize')"},
    {'j', "--threads", "N", "threads converting rows (default: one per CPU)"},
    {'m', "--metadata", "KEY=TYPE:VALUE", "set a metadata key in the output (any TYPE of\n'gguf set'; may repeat)"},
    {'p', "--pre", "NAME", "tokenizer.ggml.pre for a BPE tokenizer.json whose\npre-tokenizer is not recognised"},
    {'s', "--split-max-size", "N[K|M|G]", "write shards OUT-0000i-of-0000n.gguf of at most N bytes\n"
                                          "of tensor data each (llama-gguf-split's layout)"},
    {'n', "--split-max-tensors", "N", "shards of at most N tensors"},
    {'v', "--vocab-only", NULL, "metadata and vocabulary only, no tensors"},
    {'d', "--dry-run", NULL, "print each tensor's source, GGUF name, type and shape\non stdout; write nothing"},
    {'L', "--print-supported-models", NULL, "print every Hugging Face architecture name that\nconverts, one per line, and exit"},
    {'F', "--no-fsync", NULL, "do not sync OUT before renaming it into place"},
    {'J', "--max-json-size", "N[K|M|G]", "read JSON inputs of up to N bytes each (binary units;\n"
                                         "default: config.json 4M, tokenizer.json 128M, the\n"
                                         "others 64M)"},
    {'q', "-q|--quiet", NULL, "no progress, and no closing line saying what was written"},
    {0},
};
static const cli_spec SPEC = {
    "convert",
    "gguf convert [options] MODEL_DIR [-o OUT]",
    "Convert a Hugging Face model directory (config.json, model.safetensors or a\n"
    "sharded set with model.safetensors.index.json, tokenizer files) to GGUF, with\n"
    "the same bytes as llama.cpp's convert_hf_to_gguf.py (b4747).  The shards are\n"
    "memory-mapped and converted as the output is written; the output goes to a\n"
    "temporary file renamed over OUT at the end.\n\n"
    "Inputs are bounded (SECURITY.md): each JSON file by its size (--max-json-size),\n"
    "README.md's front matter by 4 MiB and 64 levels of nesting.  OUT is never one\n"
    "of the files read (exit 1, nothing written); a new OUT takes the permission\n"
    "bits of the first safetensors file.  Unless -q, a closing line on stderr says\n"
    "what was written: the path, its size and the time.\n",
    OPTS,
    NULL, /* the architectures, from the converter's table, then EPILOG_END */
    0, 1, NULL, /* MODEL_DIR checked after the options: --print-supported-models needs none */
    0,
};

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
        PUT("  %-9s", arch);
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

typedef struct copts {
    const char *dir, *out, *imatrix;
    const lgg_quant_preset *preset; /* --outtype PRESET */
    int threads;
    lgg_split_options split;
    lgg_convert_options o;
    const char *meta[256];
    size_t n_meta;
    bool dry_run, quiet, no_fsync, print_models;
} copts;

static int parse_outtype(const char *s, uint32_t *t) {
    static const char *const names[] = {"f32", "f16", "bf16", "q8_0", "auto"};
    for (uint32_t i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) return *t = i, 1;
    return 0;
}

static int on_opt(void *ud, int id, const char *v, char *why, size_t cap) {
    copts *c = ud;
    uint64_t n = 0;
    switch (id) {
    case 't':
        c->preset = NULL;
        if (parse_outtype(v, &c->o.outtype)) break;
        if (!(c->preset = lgg_quant_preset_find(v)))
            return cli_why(why, cap, "unknown --outtype '%s' (f32, f16, bf16, q8_0, auto, or a quantize preset)", v);
        c->o.outtype = LGG_CONVERT_AUTO;
        break;
    case 'o': c->out = v; break;
    case 'i': c->imatrix = v; break;
    case 'j':
        if (!cli_parse_u64(v, &n) || n < 1 || n > 1024) return cli_why(why, cap, "--threads wants 1 to 1024, not '%s'", v);
        c->threads = c->o.n_threads = (int)n;
        break;
    case 'm':
        if (c->n_meta == sizeof c->meta / sizeof c->meta[0]) return cli_why(why, cap, "too many --metadata");
        c->meta[c->n_meta++] = v;
        break;
    case 'p': c->o.pre = v; break;
    case 's':
        if (!cli_size_option("convert", "--split-max-size", v, 0, &c->split.max_size) || !c->split.max_size)
            return cli_why(why, cap, "--split-max-size must be a positive N, NK, NM, NG, NGB or NGiB, not '%s'", v);
        break;
    case 'n':
        if (!cli_parse_u64(v, &c->split.max_tensors) || !c->split.max_tensors)
            return cli_why(why, cap, "--split-max-tensors must be a positive number, not '%s'", v);
        break;
    case 'v': c->o.vocab_only = true; break;
    case 'd': c->dry_run = true; break;
    case 'F': c->no_fsync = true; break;
    case 'L': c->print_models = true; break;
    case 'q': c->quiet = true; break;
    case 'J':
        if (!cli_parse_size(v, 1, &c->o.max_json_size) || !c->o.max_json_size)
            return cli_why(why, cap, "--max-json-size must be a positive N, NK, NM or NG, not '%s'", v);
        break;
    default: break;
    }
    return 0;
}

/* Option combinations cli_parse cannot see. */
static int check_args(const copts *c) {
    if (c->imatrix && !c->preset) return cli_usage_error("convert", SPEC.usage, "--imatrix needs --outtype PRESET");
    if (c->split.max_size && c->split.max_tensors)
        return cli_usage_error("convert", SPEC.usage, "--split-max-size and --split-max-tensors exclude each other");
    if (c->preset && c->o.vocab_only)
        return cli_usage_error("convert", SPEC.usage, "--vocab-only writes no tensors to quantize");
    return CLI_OK;
}

static int apply_metadata(const copts *c, lgg_convert *cv) {
    for (size_t i = 0; i < c->n_meta; i++) {
        const char *eq = strchr(c->meta[i], '=');
        char why[300];
        cli_val v;
        if (!eq || eq == c->meta[i]) {
            cli_err("convert", NULL, "--metadata '%s': expected KEY=TYPE:VALUE", c->meta[i]);
            return CLI_USAGE;
        }
        if (!cli_val_parse(eq + 1, &v, why, sizeof why)) {
            cli_err("convert", NULL, "--metadata '%s': %s", c->meta[i], why);
            return CLI_USAGE;
        }
        lgg_error err;
        lgg_status st = lgg_writer_set(lgg_convert_writer(cv), c->meta[i], (size_t)(eq - c->meta[i]), &v.v, &err);
        cli_val_free(&v);
        if (st) {
            cli_err("convert", NULL, "--metadata '%s': %s", c->meta[i], err.message);
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

/* OUT without its .gguf: the shard set's prefix. */
static void split_prefix(const char *out, char *prefix, size_t cap) {
    size_t l = strlen(out);
    if (l >= 5 && !strcmp(out + l - 5, ".gguf")) l -= 5;
    snprintf(prefix, cap, "%.*s", (int)l, out);
}

/* --outtype PRESET: the quantize step fused into the conversion. */
static lgg_status write_preset(const copts *c, lgg_convert *cv, const char *out, lgg_error *err) {
    lgg_quant_options qo;
    lgg_quant_options_init(&qo);
    qo.preset = c->preset;
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

/* The closing line: what was written, its size, the time. */
static void say_written(const char *dir, const char *out, const char *prefix, double t0) {
    size_t n = 0;
    uint64_t bytes = 0;
    struct stat st;
    if (prefix) cli_outputs_stat(&n, &bytes);
    else if (stat(out, &st) == 0) bytes = (uint64_t)st.st_size;
    char size[32];
    cli_fmt_bytes(size, sizeof size, bytes);
    if (prefix)
        fprintf(stderr, "gguf convert: %s -> %s-*-of-%05zu.gguf (%zu shards): %s in %.2f s\n", dir, prefix, n, n, size,
                now_s() - t0);
    else fprintf(stderr, "gguf convert: %s -> %s: %s in %.2f s\n", dir, out, size, now_s() - t0);
}

int cmd_convert(int argc, char **argv) {
    copts c;
    memset(&c, 0, sizeof c);
    lgg_convert_options_init(&c.o);
    lgg_split_options_init(&c.split);
    int np = 0;
    cli_spec spec = SPEC;
    spec.epilog = epilog();
    int rc = cli_parse(&spec, argc, argv, on_opt, &c, &np);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    if (c.print_models) {
        char list[8192];
        if (lgg_convert_supported_models(list, sizeof list) >= sizeof list) {
            cli_err("convert", NULL, "the list of architectures outgrew its buffer");
            return CLI_FAIL;
        }
        fputs(list, stdout);
        return CLI_OK;
    }
    if (np < 1) return cli_usage_error("convert", SPEC.usage, "MODEL_DIR is required");
    c.dir = argv[1];
    if ((rc = check_args(&c)) != CLI_OK) return rc;
    lgg_convert *cv = NULL;
    lgg_error err;
    const double t0 = now_s();
    if (lgg_convert_open(c.dir, &c.o, &cv, &err)) {
        cli_err("convert", NULL, "%s", err.message); /* the message names the file */
        return CLI_FAIL;
    }
    note_inputs(cv, c.imatrix);
    if ((rc = apply_metadata(&c, cv)) != CLI_OK || c.dry_run) {
        if (c.dry_run && rc == CLI_OK) dry_run(cv);
        lgg_convert_free(cv);
        return rc;
    }
    char name[4096];
    const char *out = c.out;
    if (!out) {
        lgg_convert_default_name(cv, name, sizeof name);
        out = name;
        /* a preset names the encoding instead of the intermediate F16/BF16 */
        char *dash = strrchr(name, '-');
        if (c.preset && dash) snprintf(dash, sizeof name - (size_t)(dash - name), "-%s.gguf", c.preset->name);
    }
    const bool split = c.split.max_size || c.split.max_tensors;
    char prefix[4096];
    split_prefix(out, prefix, sizeof prefix);
    if ((split ? cli_output_check_set("convert", prefix) : cli_output_check("convert", out)) != CLI_OK) {
        lgg_convert_free(cv);
        return CLI_FAIL;
    }
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    if (c.no_fsync) wo.flags |= LGG_WRITE_NO_SYNC;
    wo.temp_fn = cli_temp_note; /* the split shards' temporary files too */
    cli_progress prog;
    cli_progress_init(&prog, "convert", lgg_convert_total_bytes(cv));
    if (!c.quiet) lgg_convert_set_progress(cv, on_progress, &prog);
    if (split) cli_outputs_begin(); /* a signal takes back the shards already written */
    lgg_status st;
    if (c.preset) st = write_preset(&c, cv, out, &err);
    else if (split) st = lgg_convert_write_split(cv, prefix, &c.split, &wo, &err);
    else st = cli_write_file(lgg_convert_writer(cv), out, &wo, &err);
    cli_progress_end(&prog);
    if (st) {
        cli_err("convert", out, "%s", err.message); /* a conversion's failure in its own words */
        rc = CLI_FAIL;
        cli_outputs_remove("convert"); /* the library removed its shards: a no-op unless one stayed */
    } else if (!c.quiet) {
        say_written(c.dir, out, split ? prefix : NULL, t0);
    }
    cli_outputs_keep();
    lgg_convert_free(cv);
    return rc;
}
