/* gen_corpus.c -- writes the seed inputs of fuzz/corpus/<target>/ (make
 * fuzz-corpus; run from the project root).
 *
 *  fuzz_open, fuzz_dump:
 *    shared-*   every GGUF file under 64 KiB in ../shared/corpus (MANIFEST.tsv
 *               format "GGUF": real models, vocabularies, and other parsers'
 *               fuzzer crash inputs) and ../shared/golden/ggml-types
 *    gen-*      hand-built files: valid ones in every version and byte order,
 *               every value type, a tensor of every live type, and one corrupt
 *               file per structural class (tests/hostile.c builds them)
 *  fuzz_dequant: [type id, byte order, blocks]: the first blocks of
 *               ../shared/golden/quant/random.<type>.bin (every bit pattern,
 *               NaN and infinite scales included) in both byte orders, plus
 *               refused ids and byte orders
 *  fuzz_name:   file names, following the naming convention and not
 *
 * Files are named after what they hold, so rerunning overwrites them; inputs
 * that libFuzzer added (named by their SHA-1) are left alone. */
#include "gen.h"
#include "hostile.h"
#include "libgguf.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

static int n_written;

static void mkdirs(const char *dir) {
    char p[1024];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

static void put(const char *target, const char *name, const void *data, size_t n) {
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "fuzz/corpus/%s", target);
    mkdirs(dir);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0) {
        fprintf(stderr, "gen_corpus: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    n_written++;
}

/* A GGUF seed goes to both targets that open files. */
static void put_gguf(const char *name, const void *data, size_t n) {
    put("fuzz_open", name, data, n);
    put("fuzz_dump", name, data, n);
}

static void put_buf(const char *name, buf *b) {
    put_gguf(name, b->p, b->n);
    buf_free(b);
}

/* ---- copies of ../shared ---- */

static void sanitize(char *dst, size_t cap, const char *prefix, const char *src) {
    size_t o = (size_t)snprintf(dst, cap, "%s", prefix);
    for (; *src && o + 1 < cap; src++) {
        char c = *src;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == '-' || c == '@';
        dst[o++] = ok ? c : '_';
    }
    dst[o] = 0;
}

static void copy_shared(void) {
    FILE *m = fopen(shared_path("corpus/MANIFEST.tsv"), "r");
    if (!m) {
        fprintf(stderr, "gen_corpus: no %s; shared seeds skipped\n", shared_path("corpus/MANIFEST.tsv"));
        return;
    }
    char line[8192];
    if (!fgets(line, sizeof line, m)) line[0] = 0;
    while (fgets(line, sizeof line, m)) {
        /* path origin license bytes sha256 format ... */
        char *f[8];
        int nf = 0;
        f[nf++] = line;
        for (char *s = line; *s && nf < 8; s++)
            if (*s == '\t') {
                *s = 0;
                f[nf++] = s + 1;
            }
        if (nf < 7 || strcmp(f[5], "GGUF") != 0 || strtoull(f[3], NULL, 10) >= 65536) continue;
        char rel[1024], name[600];
        snprintf(rel, sizeof rel, "corpus/%s", f[0]);
        size_t n = 0;
        unsigned char *p = read_file(shared_path(rel), &n);
        if (!p) continue;
        sanitize(name, sizeof name, "shared-", f[0]);
        put_gguf(name, p, n);
        free(p);
    }
    fclose(m);
    DIR *d = opendir(shared_path("golden/ggml-types"));
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 5, ".gguf") != 0) continue;
        char rel[600];
        snprintf(rel, sizeof rel, "golden/ggml-types/%s", e->d_name);
        size_t n = 0;
        unsigned char *p = read_file(shared_path(rel), &n);
        if (!p) continue;
        if (n < 65536) {
            char name[700];
            sanitize(name, sizeof name, "shared-golden-", e->d_name);
            put_gguf(name, p, n);
        }
        free(p);
    }
    closedir(d);
}

/* ---- hand-built GGUF files ---- */

static uint32_t rng = 12345;
static uint8_t rnd8(void) {
    rng = rng * 1103515245u + 12345u;
    return (uint8_t)(rng >> 16);
}

/* Every value type, empty and nested arrays, in version `v` and byte order. */
static void gen_all_values(uint32_t v, bool big, const char *name) {
    buf b = {0};
    b.big = big;
    gen_header(&b, v, 1, 16);
    gen_key(&b, v, "general.architecture", LGG_VT_STRING); gen_str(&b, v, "llama");
    gen_key(&b, v, "general.alignment", LGG_VT_U32); buf_u32(&b, 16);
    gen_key(&b, v, "t.u8", LGG_VT_U8); buf_u8(&b, 200);
    gen_key(&b, v, "t.i8", LGG_VT_I8); buf_u8(&b, 0x80);
    gen_key(&b, v, "t.u16", LGG_VT_U16); buf_u16(&b, 65535);
    gen_key(&b, v, "t.i16", LGG_VT_I16); buf_u16(&b, 0x8000);
    gen_key(&b, v, "t.i32", LGG_VT_I32); buf_u32(&b, 0xffffffffu);
    gen_key(&b, v, "t.f32", LGG_VT_F32); buf_u32(&b, 0x7fc00001u); /* NaN */
    gen_key(&b, v, "t.bool", LGG_VT_BOOL); buf_u8(&b, 2);
    gen_key(&b, v, "t.u64", LGG_VT_U64); buf_u64(&b, UINT64_MAX);
    gen_key(&b, v, "t.i64", LGG_VT_I64); buf_u64(&b, UINT64_C(1) << 63);
    gen_key(&b, v, "t.f64", LGG_VT_F64); buf_u64(&b, UINT64_C(0x7ff0000000000000)); /* inf */
    gen_key(&b, v, "t.str", LGG_VT_STRING); gen_str(&b, v, "caf\xc3\xa9 \"q\" \\ \x01 \xff\xfe");
    gen_key(&b, v, "tokenizer.ggml.tokens", LGG_VT_ARRAY);
    buf_u32(&b, LGG_VT_STRING); gen_len(&b, v, 4);
    gen_str(&b, v, "<s>"); gen_str(&b, v, ""); gen_str(&b, v, "\xe2\x96\x81the"); gen_str(&b, v, "\xc0\x80");
    gen_key(&b, v, "t.nested", LGG_VT_ARRAY); /* [[1,2],[],[["x"]]] */
    buf_u32(&b, LGG_VT_ARRAY); gen_len(&b, v, 3);
    buf_u32(&b, LGG_VT_I16); gen_len(&b, v, 2); buf_u16(&b, 1); buf_u16(&b, 2);
    buf_u32(&b, LGG_VT_F64); gen_len(&b, v, 0);
    buf_u32(&b, LGG_VT_ARRAY); gen_len(&b, v, 1);
    buf_u32(&b, LGG_VT_STRING); gen_len(&b, v, 1); gen_str(&b, v, "x");
    gen_key(&b, v, "t.bools", LGG_VT_ARRAY);
    buf_u32(&b, LGG_VT_BOOL); gen_len(&b, v, 3); buf_u8(&b, 0); buf_u8(&b, 1); buf_u8(&b, 7);
    uint64_t ne[2] = {4, 2};
    gen_tensor(&b, v, "w", 2, ne, LGG_TYPE_F32, 0);
    buf_pad(&b, 16);
    for (int i = 0; i < 8; i++) {
        float x = (float)i - 3.5f;
        uint32_t u;
        memcpy(&u, &x, 4);
        buf_u32(&b, u);
    }
    put_buf(name, &b);
}

/* One tensor of every live type, each one block of pseudo-random bytes (NaN
 * and infinite scales included), so opening walks every dequantizer. */
static void gen_every_type(bool big, const char *name) {
    buf b = {0};
    b.big = big;
    uint32_t n = 0;
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) n += lgg_type_is_valid(t);
    gen_header(&b, 3, n, 2);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING); gen_str(&b, 3, "test");
    gen_key(&b, 3, "general.quantization_version", LGG_VT_U32); buf_u32(&b, 2);
    uint64_t off = 0;
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_is_valid(t)) continue;
        const lgg_type_info *ti = lgg_type_get(t);
        char nm[32];
        snprintf(nm, sizeof nm, "blk.0.%s.weight", ti->name);
        uint64_t ne[2] = {ti->block_size, 2};
        gen_tensor(&b, 3, nm, 2, ne, t, off);
        off += (2 * (uint64_t)ti->type_size + 31) / 32 * 32;
    }
    buf_pad(&b, 32);
    size_t start = b.n;
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_is_valid(t)) continue;
        const lgg_type_info *ti = lgg_type_get(t);
        for (uint32_t i = 0; i < 2 * ti->type_size; i++) buf_u8(&b, rnd8());
        while ((b.n - start) % 32) buf_u8(&b, 0);
    }
    put_buf(name, &b);
}

static void gen_files(void) {
    buf b = {0};
    gen_small_model(&b);
    put_buf("gen-small-v3.gguf", &b);
    gen_all_values(3, false, "gen-values-v3.gguf");
    gen_all_values(2, false, "gen-values-v2.gguf");
    gen_all_values(1, false, "gen-values-v1.gguf");
    gen_all_values(3, true, "gen-values-v3-be.gguf");
    gen_all_values(1, true, "gen-values-v1-be.gguf");
    gen_every_type(false, "gen-every-type.gguf");
    gen_every_type(true, "gen-every-type-be.gguf");
    /* the hostile suite's crafted files, one per advisory class */
    for (size_t i = 0; i < hostile_count(); i++) {
        const hostile_case *h = hostile_get(i);
        if (h->huge) continue; /* files made large on purpose stay out of the corpus */
        buf hb = {0};
        h->build(&hb);
        char name[160];
        snprintf(name, sizeof name, "gen-hostile-%s.gguf", h->name);
        put_buf(name, &hb);
    }
}

/* ---- dequantization seeds ---- */

static void gen_dequant(void) {
    for (uint32_t t = 0; t < LGG_TYPE_COUNT; t++) {
        if (!lgg_type_is_valid(t)) continue;
        const lgg_type_info *ti = lgg_type_get(t);
        char lower[32], rel[128];
        size_t k = 0;
        for (; ti->name[k] && k + 1 < sizeof lower; k++) {
            char c = ti->name[k];
            lower[k] = (c >= 'A' && c <= 'Z' && !(c == 'K' && k > 0 && ti->name[k - 1] == '_')) ? (char)(c + 32) : c;
        }
        lower[k] = 0;
        snprintf(rel, sizeof rel, "golden/quant/random.%s.bin", lower);
        size_t n = 0;
        unsigned char *p = read_file(shared_path(rel), &n);
        unsigned char seed[2 + 2048 + 1];
        memset(seed, 0xA5, sizeof seed); /* deterministic stray byte after the blocks */
        size_t nb = 0;
        if (p) {
            nb = 2048 / ti->type_size;
            if (nb > 16) nb = 16;
            if (nb * ti->type_size > n) nb = n / ti->type_size;
            memcpy(seed + 2, p, nb * ti->type_size);
            free(p);
        } else { /* no golden bytes (plain types): pseudo-random ones */
            nb = 64 / ti->type_size + 3;
            for (size_t i = 0; i < nb * ti->type_size; i++) seed[2 + i] = rnd8();
        }
        for (int e = 0; e < 2; e++) {
            seed[0] = (unsigned char)t;
            seed[1] = (unsigned char)e;
            char name[64];
            snprintf(name, sizeof name, "gen-%s-%s", lower, e ? "be" : "le");
            put("fuzz_dequant", name, seed, 2 + nb * ti->type_size + (e ? 1 : 0)); /* BE: a stray byte */
        }
    }
    static const unsigned char refused[][6] = {
        {4, 0, 1, 2, 3, 4},   /* removed id */
        {43, 0, 1, 2, 3, 4},  /* past the table */
        {255, 1, 0, 0, 0, 0}, /* far past */
        {0, 2, 0, 0, 128, 63},/* not a byte order */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "gen-refused-%zu", i);
        put("fuzz_dequant", name, refused[i], sizeof refused[i]);
    }
}

/* ---- names ---- */

static void gen_names(void) {
    static const char *const names[] = {
        "Mixtral-8x7B-v0.1-KQ2.gguf",
        "Grok-100B-v1.0-Q4_0-00003-of-00009.gguf",
        "Hermes-2-Pro-Llama-3-8B-F16.gguf",
        "Phi-3-mini-3.8B-ContextLength4k-instruct-v1.0.gguf",
        "not-a-known-arrangement.gguf",
        "Llama-3-8B-Instruct-v1.0-Q4_K_M-LoRA.gguf",
        "Llama-3-vocab.gguf",
        "Base--v1.gguf",
        "Mixtral-8x7B-Instruct-v0.1-Q4_K_M-00001-of-00003.gguf",
        "a-1.5B-v1.2.3.4-IQ2_XXS-vocab-00001-of-00002.gguf",
        ".gguf",
        "-----------------------------------------------------------------------v1.gguf",
        "x-7B-v1.GGUF",
        "smol 135M-v2.gguf",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char fn[32];
        snprintf(fn, sizeof fn, "gen-name-%02zu", i);
        put("fuzz_name", fn, names[i], strlen(names[i]));
    }
    /* UTF-8 for the validator: long valid text, and each kind of error near a 32-byte boundary */
    static const char *const text[] = {
        "\xe2\x96\x81the \xe2\x96\x81quick \xf0\x9f\xa6\x8a jumps \xc3\xa9\xc3\xa8 \xe4\xb8\xad\xe6\x96\x87 "
        "\xf4\x8f\xbf\xbf end of a long valid line of text....",
        "0123456789012345678901234567890\xe2\x82\xac" "0123456789012345678901234567890123456789",
        "01234567890123456789012345678901234567890123456789012345678901\xed\xa0\x80 surrogate",
        "0123456789012345678901234567890123456789012345678901234567890\xc0\x80 overlong",
        "0123456789012345678901234567890123456789012345678901234567890\xf4\x90\x80\x80 too large",
        "012345678901234567890123456789012345678901234567890123456789012345678901234567890\xe2\x82",
    };
    for (size_t i = 0; i < sizeof text / sizeof text[0]; i++) {
        char fn[32];
        snprintf(fn, sizeof fn, "gen-utf8-%zu", i);
        put("fuzz_name", fn, text[i], strlen(text[i]));
    }
    static const char *const types[] = {"q4_k", "IQ2_xxs", "bf16", "Q4_2", "uint8", "str", "float64"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char fn[32];
        snprintf(fn, sizeof fn, "gen-typename-%zu", i);
        put("fuzz_name", fn, types[i], strlen(types[i]));
    }
}

int main(void) {
    copy_shared();
    gen_files();
    gen_dequant();
    gen_names();
    printf("gen_corpus: %d files written under fuzz/corpus/\n", n_written);
    return 0;
}
