/* cmd_convert.c -- `gguf convert [options] MODEL_DIR [-o OUT]`: a Hugging
 * Face checkpoint to GGUF, the bytes llama.cpp's convert_hf_to_gguf.py
 * (b4747) writes.  The conversion itself is libgguf-convert's. */
#include "cli.h"
#include "libgguf_convert.h"

#include <stdlib.h>
#include <string.h>

static const char USAGE[] = "gguf convert [options] MODEL_DIR [-o OUT]";

static void help(void) {
    printf("usage: %s\n\n"
           "Convert a Hugging Face model directory (config.json, model.safetensors or a\n"
           "sharded set with model.safetensors.index.json, tokenizer files) to GGUF, with\n"
           "the same bytes as llama.cpp's convert_hf_to_gguf.py (b4747).  The shards are\n"
           "memory-mapped and converted as the output is written; the output goes to a\n"
           "temporary file renamed over OUT at the end.\n\n"
           "  --outtype T          f32, f16 (default), bf16, q8_0 or auto (f16 if the\n"
           "                       first tensor is f16, else bf16); or any preset of\n"
           "                       'gguf quantize' (Q4_K_M, IQ4_XS, ...; Q8_0 in capitals):\n"
           "                       the bytes of --outtype auto followed by 'gguf quantize',\n"
           "                       in one pass with no intermediate file\n"
           "  --imatrix FILE       importance matrix for a preset (as 'gguf quantize')\n"
           "  --threads N          threads converting rows (default: one per CPU)\n"
           "  -o, --outfile OUT    output file (default: the reference converter's name,\n"
           "                       in the current directory)\n"
           "  --metadata KEY=TYPE:VALUE  set a metadata key in the output (any TYPE of\n"
           "                       'gguf set'; may repeat)\n"
           "  --pre NAME           tokenizer.ggml.pre for a BPE tokenizer.json whose\n"
           "                       pre-tokenizer is not recognised\n"
           "  --split-max-size N[K|M|G]  write shards OUT-0000i-of-0000n.gguf of at most\n"
           "                       N bytes of tensor data each (llama-gguf-split's layout)\n"
           "  --split-max-tensors N      shards of at most N tensors\n"
           "  --vocab-only         metadata and vocabulary only, no tensors\n"
           "  --dry-run            print each tensor's source, GGUF name, type and shape\n"
           "                       on stdout; write nothing\n"
           "  --no-fsync           do not sync OUT before renaming it into place\n"
           "  -q, --quiet          no progress\n\n"
           "Architectures: LlamaForCausalLM (and LLaMA, Mistral), Qwen2ForCausalLM,\n"
           "Gemma2ForCausalLM; SentencePiece (tokenizer.model) and byte-level BPE\n"
           "(tokenizer.json) vocabularies.\n"
           "Exit status: 0 success, 1 failure (bad or missing input, write error),\n"
           "2 usage error.\n",
           USAGE);
}

typedef struct copts {
    const char *dir, *out, *imatrix;
    const lgg_quant_preset *preset; /* --outtype PRESET */
    int threads;
    lgg_split_options split;
    lgg_convert_options o;
    const char *meta[256];
    size_t n_meta;
    bool dry_run, quiet, no_fsync;
} copts;

static int parse_outtype(const char *s, uint32_t *t) {
    static const char *const names[] = {"f32", "f16", "bf16", "q8_0", "auto"};
    for (uint32_t i = 0; i < 5; i++)
        if (!strcmp(s, names[i])) return *t = i, 1;
    return 0;
}

/* N, NK, NM or NG in llama.cpp's decimal units (as gguf split). */
static int parse_size(const char *s, uint64_t *v) {
    char *end;
    if (*s < '0' || *s > '9') return 0;
    unsigned long long x = strtoull(s, &end, 10);
    uint64_t mul = *end == 'K' ? 1000 : *end == 'M' ? 1000000 : *end == 'G' ? 1000000000 : 1;
    if (mul > 1) end++;
    return !*end && x && !__builtin_mul_overflow((uint64_t)x, mul, v);
}

static int parse_args(int argc, char **argv, copts *c) {
    memset(c, 0, sizeof *c);
    lgg_convert_options_init(&c->o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_next = i + 1 < argc;
        if (!strcmp(a, "--outtype") && has_next) {
            c->preset = NULL;
            if (!parse_outtype(argv[++i], &c->o.outtype)) {
                if (!(c->preset = lgg_quant_preset_find(argv[i])))
                    return cli_usage_error("convert", USAGE,
                                           "unknown --outtype '%s' (f32, f16, bf16, q8_0, auto, or a quantize preset)", argv[i]);
                c->o.outtype = LGG_CONVERT_AUTO;
            }
        } else if (!strcmp(a, "--imatrix") && has_next) {
            c->imatrix = argv[++i];
        } else if (!strcmp(a, "--threads") && has_next) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || n < 1 || n > 1024)
                return cli_usage_error("convert", USAGE, "--threads wants a number from 1 to 1024, not '%s'", argv[i]);
            c->threads = c->o.n_threads = (int)n;
        } else if ((!strcmp(a, "-o") || !strcmp(a, "--outfile")) && has_next) {
            c->out = argv[++i];
        } else if (!strcmp(a, "--metadata") && has_next) {
            if (c->n_meta == sizeof c->meta / sizeof c->meta[0]) return cli_usage_error("convert", USAGE, "too many --metadata");
            c->meta[c->n_meta++] = argv[++i];
        } else if (!strcmp(a, "--pre") && has_next) {
            c->o.pre = argv[++i];
        } else if (!strcmp(a, "--split-max-size") && has_next) {
            if (!parse_size(argv[++i], &c->split.max_size))
                return cli_usage_error("convert", USAGE, "bad --split-max-size '%s' (N, NK, NM or NG)", argv[i]);
        } else if (!strcmp(a, "--split-max-tensors") && has_next) {
            char *end;
            unsigned long long n = strtoull(argv[++i], &end, 10);
            if (*end || end == argv[i] || n == 0)
                return cli_usage_error("convert", USAGE, "bad --split-max-tensors '%s'", argv[i]);
            c->split.max_tensors = n;
        } else if (!strcmp(a, "--vocab-only")) {
            c->o.vocab_only = true;
        } else if (!strcmp(a, "--dry-run")) {
            c->dry_run = true;
        } else if (!strcmp(a, "--no-fsync")) {
            c->no_fsync = true;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            c->quiet = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("convert", USAGE, "unknown option or missing value: %s", a);
        } else if (!c->dir) {
            c->dir = a;
        } else {
            return cli_usage_error("convert", USAGE, "unexpected argument '%s'", a);
        }
    }
    if (!c->dir) return cli_usage_error("convert", USAGE, "missing MODEL_DIR");
    if (c->imatrix && !c->preset) return cli_usage_error("convert", USAGE, "--imatrix needs --outtype PRESET");
    if (c->split.max_size && c->split.max_tensors)
        return cli_usage_error("convert", USAGE, "--split-max-size and --split-max-tensors exclude each other");
    if ((c->split.max_size || c->split.max_tensors) && c->preset)
        return cli_usage_error("convert", USAGE, "splitting a --outtype PRESET output is not supported");
    if (c->preset && c->o.vocab_only) return cli_usage_error("convert", USAGE, "--vocab-only writes no tensors to quantize");
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
    lgg_status st = lgg_convert_write_quantized(cv, &qo, &qw, out, err);
    lgg_imatrix_free(im);
    return st;
}

int cmd_convert(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (cli_is_help(argv[i])) return help(), CLI_OK;
    copts c;
    int rc = parse_args(argc, argv, &c);
    if (rc != CLI_OK) return rc;
    lgg_convert *cv = NULL;
    lgg_error err;
    if (lgg_convert_open(c.dir, &c.o, &cv, &err)) {
        fprintf(stderr, "gguf convert: %s\n", err.message);
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
    cli_progress prog;
    cli_progress_init(&prog, "convert", lgg_convert_total_bytes(cv));
    if (!c.quiet) lgg_convert_set_progress(cv, on_progress, &prog);
    lgg_status st;
    if (c.preset) {
        st = write_preset(&c, cv, out, &err);
    } else if (c.split.max_size || c.split.max_tensors) {
        char prefix[4096];
        size_t l = strlen(out);
        if (l >= 5 && !strcmp(out + l - 5, ".gguf")) l -= 5;
        snprintf(prefix, sizeof prefix, "%.*s", (int)l, out);
        st = lgg_convert_write_split(cv, prefix, &c.split, &wo, &err);
    } else {
        st = lgg_writer_write_file(lgg_convert_writer(cv), out, &wo, &err);
    }
    cli_progress_end(&prog);
    if (st) {
        const char *why = lgg_convert_last_error(cv);
        fprintf(stderr, "gguf convert: %s: %s\n", out, why ? why : err.message);
        rc = CLI_FAIL;
    }
    lgg_convert_free(cv);
    return rc;
}
