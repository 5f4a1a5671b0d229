/* cmd_convert.c -- `gguf convert [options] MODEL_DIR [-o OUT]`: a Hugging
 * Face checkpoint to GGUF, the bytes llama.cpp's convert_hf_to_gguf.py
 * (b4747) writes.  The conversion itself is libgguf-convert's. */
#include "cli.h"
#include "libgguf_convert.h"

#include <stdlib.h>
#include <string.h>

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
    {'q', "-q|--quiet", NULL, "no progress"},
    {0},
};
static const cli_spec SPEC = {
    "convert",
    "gguf convert [options] MODEL_DIR [-o OUT]",
    "Convert a Hugging Face model directory (config.json, model.safetensors or a\n"
    "sharded set with model.safetensors.index.json, tokenizer files) to GGUF, with\n"
    "the same bytes as llama.cpp's convert_hf_to_gguf.py (b4747).  The shards are\n"
    "memory-mapped and converted as the output is written; the output goes to a\n"
    "temporary file renamed over OUT at the end.\n",
    OPTS,
    "Architectures: see --print-supported-models; SentencePiece (tokenizer.model)\n"
    "and byte-level BPE (tokenizer.json) vocabularies.\n"
    "Exit status: 0 success, 1 failure (bad or missing input, write error),\n"
    "2 usage error.\n",
    0, 1, NULL, /* MODEL_DIR checked after the options: --print-supported-models needs none */
    0,
};

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
        if (!cli_parse_size(v, 0, &c->split.max_size) || !c->split.max_size)
            return cli_why(why, cap, "--split-max-size must be a positive N, NK, NM or NG, not '%s'", v);
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
            fprintf(stderr, "gguf convert: --metadata '%s': expected KEY=TYPE:VALUE\n", c->meta[i]);
            return CLI_USAGE;
        }
        if (!cli_val_parse(eq + 1, &v, why, sizeof why)) {
            fprintf(stderr, "gguf convert: --metadata '%s': %s\n", c->meta[i], why);
            return CLI_USAGE;
        }
        lgg_error err;
        lgg_status st = lgg_writer_set(lgg_convert_writer(cv), c->meta[i], (size_t)(eq - c->meta[i]), &v.v, &err);
        cli_val_free(&v);
        if (st) {
            fprintf(stderr, "gguf convert: --metadata '%s': %s\n", c->meta[i], err.message);
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

int cmd_convert(int argc, char **argv) {
    copts c;
    memset(&c, 0, sizeof c);
    lgg_convert_options_init(&c.o);
    lgg_split_options_init(&c.split);
    int np = 0;
    int rc = cli_parse(&SPEC, argc, argv, on_opt, &c, &np);
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
    if (lgg_convert_open(c.dir, &c.o, &cv, &err)) {
        cli_err("convert", NULL, "%s", err.message); /* the message names the file */
        return CLI_FAIL;
    }
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
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    if (c.no_fsync) wo.flags |= LGG_WRITE_NO_SYNC;
    wo.temp_fn = cli_temp_note; /* the split shards' temporary files too */
    cli_progress prog;
    cli_progress_init(&prog, "convert", lgg_convert_total_bytes(cv));
    if (!c.quiet) lgg_convert_set_progress(cv, on_progress, &prog);
    lgg_status st;
    if (c.preset) {
        st = write_preset(&c, cv, out, &err);
    } else if (c.split.max_size || c.split.max_tensors) {
        char prefix[4096];
        split_prefix(out, prefix, sizeof prefix);
        st = lgg_convert_write_split(cv, prefix, &c.split, &wo, &err);
    } else {
        st = cli_write_file(lgg_convert_writer(cv), out, &wo, &err);
    }
    cli_progress_end(&prog);
    if (st) {
        const char *why = lgg_convert_last_error(cv);
        cli_err("convert", out, "%s", why ? why : err.message);
        rc = CLI_FAIL;
    }
    lgg_convert_free(cv);
    return rc;
}
