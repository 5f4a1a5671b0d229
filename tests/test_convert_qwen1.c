/* test_convert_qwen1.c -- Qwen (v1) (QWenLMHeadModel) against llama.cpp
 * b4747's convert_hf_to_gguf.py: a tiny checkpoint with Qwen-7B's
 * config.json fields and tensor names (transformer.h.N.attn.c_attn with its
 * bias, mlp.w1/w2/c_proj), its tokenizer_config.json (auto_map naming
 * tokenization_qwen.QWenTokenizer) and a qwen.tiktoken made from the Qwen2.5
 * tokenizer.json of golden/convert (Qwen2 kept Qwen (v1)'s first 151643
 * tokens: each id's byte-level text decoded to bytes, base64, rank = id;
 * the same bytes as Qwen-7B's own qwen.tiktoken).  The reference ran with
 * Qwen-7B's tokenization_qwen.py put beside (LGG_REF_QWEN_PY; see
 * tests/ref-shims/README.md); the sha256s of its outputs are recorded here
 * (LGG_REF_TEST=convert_qwen1_families tests/convert_reference.sh remakes
 * them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define QWEN2_DIR "Qwen2.5-Tiny-Test-Instruct"
#define N_BPE 151643

/* Qwen-7B's config (Qwen/Qwen-7B) at a tiny size; EXTRA is spliced in. */
#define QWEN_CONFIG(EXTRA)                                                                                                \
    "{\"architectures\":[\"QWenLMHeadModel\"],\"auto_map\":{\"AutoConfig\":\"configuration_qwen.QWenConfig\",\"AutoMod" \
    "elForCausalLM\":\"modeling_qwen.QWenLMHeadModel\"},\"attn_dropout_prob\":0.0,\"bf16\":false,\"emb_dropout_prob\":0" \
    ".0,\"fp16\":false,\"fp32\":false,\"hidden_size\":32,\"intermediate_size\":128,\"initializer_range\":0.02,\"kv_chan" \
    "nels\":8,\"layer_norm_epsilon\":1e-06,\"max_position_embeddings\":8192,\"model_type\":\"qwen\",\"no_bias\":true,\"n" \
    "um_attention_heads\":4,\"num_hidden_layers\":2,\"onnx_safe\":null,\"rotary_emb_base\":10000,\"rotary_pct\":1.0,\"s" \
    "cale_attn_weights\":true,\"seq_length\":8192,\"tie_word_embeddings\":false,\"tokenizer_class\":\"QWenTokenizer\"," \
    "\"transformers_version\":\"4.32.0\",\"use_cache\":true,\"use_dynamic_ntk\":true,\"use_flash_attn\":\"auto\",\"use" \
    "_logn_attn\":true," EXTRA "\"vocab_size\":151936}"

/* Qwen-7B's tokenizer_config.json, as it is written there. */
#define QWEN_TC                                                                                                           \
    "{\n    \"model_max_length\": 8192,\n    \"tokenizer_class\": \"QWenTokenizer\",\n    \"auto_map\": {\n      \"AutoT" \
    "okenizer\": [\n        \"tokenization_qwen.QWenTokenizer\",\n        null\n        ]\n    }\n  }\n  "

typedef struct qcase {
    const char *name, *config;
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
} qcase;

static const qcase CASES[] = {
    /* no special id in the files: bos, eos and unk <|endoftext|> */
    {"qwen-7b-tiny", QWEN_CONFIG(""), {"f57b327afbd83a84886079fa88b0ef40daa9601435725a1284a4dfa864a42362", "a5f01feada49a7bfecb41125978292de3f8654f4e2242e794dbd1384de2900de", "1da05109f197a5ca47a15d102d7a917a95f6f0678eb3b3e43a1f505bb3639c9f", "5f8da1ea5d7b630d05ce4a889843ba68f39a0655a40eb1ad0ca1411ba56efd70", "1da05109f197a5ca47a15d102d7a917a95f6f0678eb3b3e43a1f505bb3639c9f"}},
    /* config.json's eos: bos unset, unk <|endoftext|> */
    {"qwen-7b-tiny-eos", QWEN_CONFIG("\"eos_token_id\":151643,"), {"382d86bb196bf59e390e35982acc12e885e6b027ffd554436ffea0a02e773d0c", "5cdb0f528b86545f78c80a8622f2f46b9ac58b41c3f8d464dc14235778c2c25d", "eff8874318d819b2500f450f71bdb63a09ec8dfe8d127571ff8a6eaee1110ae2", "edc826568161cd14c8e0b82e32f8740e90c430d81a9a4d03ae38cd2c5f749443", "eff8874318d819b2500f450f71bdb63a09ec8dfe8d127571ff8a6eaee1110ae2"}},
};

/* GPT-2's byte-level text back to bytes (bytes_to_unicode reversed); -1 on
 * a character outside it. */
static int unlevel(const char *s, unsigned char *out) {
    int rev[324];
    unsigned extra = 0;
    for (unsigned b = 0; b < 324; b++) rev[b] = -1;
    for (unsigned b = 0; b < 256; b++) {
        int keep = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
        rev[keep ? b : 256 + extra++] = (int)b;
    }
    int n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned cp = *p < 0x80 ? *p++ : ((*p & 0x1f) << 6 | (p[1] & 0x3f));
        if (cp >= 0x80) p += 2;
        if (cp >= 324 || rev[cp] < 0) return -1;
        out[n++] = (unsigned char)rev[cp];
    }
    return n;
}

static void b64(const unsigned char *b, int n, char *out) {
    static const char A[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int o = 0;
    for (int i = 0; i < n; i += 3) {
        unsigned w = (unsigned)b[i] << 16 | (i + 1 < n ? (unsigned)b[i + 1] << 8 : 0) | (i + 2 < n ? b[i + 2] : 0);
        out[o++] = A[w >> 18], out[o++] = A[(w >> 12) & 63];
        out[o++] = i + 1 < n ? A[(w >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? A[w & 63] : '=';
    }
    out[o] = 0;
}

/* dir/qwen.tiktoken from the Qwen2.5 tokenizer.json's ids below 151643. */
static int write_tiktoken(const char *dir) {
    char path[4300];
    snprintf(path, sizeof path, "%s/" QWEN2_DIR "/tokenizer.json", shared_path("golden/convert"));
    json_t *tj = json_load_file(path, 0, NULL);
    const json_t *vocab = json_object_get(json_object_get(tj, "model"), "vocab");
    const char **by = calloc(N_BPE, sizeof *by);
    const char *k;
    json_t *v;
    int ok = tj && by;
    json_object_foreach((json_t *)vocab, k, v)
        if (ok && json_integer_value(v) >= 0 && json_integer_value(v) < N_BPE) by[json_integer_value(v)] = k;
    snprintf(path, sizeof path, "%s/qwen.tiktoken", dir);
    FILE *f = ok ? fopen(path, "w") : NULL;
    for (int i = 0; f && ok && i < N_BPE; i++) {
        unsigned char b[512];
        char e[700];
        int n = by[i] && strlen(by[i]) < 512 ? unlevel(by[i], b) : -1;
        if (n <= 0) ok = 0;
        else b64(b, n, e), fprintf(f, "%s %d\n", e, i);
    }
    if (!f || fclose(f)) ok = 0;
    free(by);
    json_decref(tj);
    return ok;
}

static size_t shapes(tspec *t) {
    const uint64_t H = 32, ff = 128 / 2, V = 151936;
    size_t n = 0;
    ADD(V, H, "transformer.wte.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    ADD(V, H, "lm_head.weight");
    for (unsigned b = 0; b < 2; b++) {
        ADD(H, 0, "transformer.h.%u.ln_1.weight", b);
        ADD(3 * H, H, "transformer.h.%u.attn.c_attn.weight", b);
        ADD(3 * H, 0, "transformer.h.%u.attn.c_attn.bias", b);
        ADD(H, H, "transformer.h.%u.attn.c_proj.weight", b);
        ADD(H, 0, "transformer.h.%u.ln_2.weight", b);
        ADD(ff, H, "transformer.h.%u.mlp.w1.weight", b);
        ADD(ff, H, "transformer.h.%u.mlp.w2.weight", b);
        ADD(H, ff, "transformer.h.%u.mlp.c_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

static const char *make_case(const qcase *m) {
    static const char *const files[][2] = {{"tokenizer_config.json", QWEN_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *dir = cv_case_dir(m->name, QWEN2_DIR, "", m->config, files);
    static tspec t[64];
    if (!dir || !write_tiktoken(dir)) return NULL;
    return cv_case_weights(dir, t, shapes(t), LGG_TYPE_BF16) ? dir : NULL;
}

/* dir's qwen.tiktoken with line 3 replaced by `line`: the open fails naming
 * the file and `named`. */
static void bad_tiktoken(const char *dir, const char *line, const char *named) {
    char path[4300];
    snprintf(path, sizeof path, "%s/qwen.tiktoken", dir);
    FILE *f = fopen(path, "w");
    if (f) fprintf(f, "IQ== 0\nIg== 1\n%s\nIyI= 3\n", line), fclose(f);
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = f ? lgg_convert_open(dir, NULL, &c, &err) : LGG_OK;
    lgg_convert_free(c);
    CHECKF(st != LGG_OK && strstr(err.message, "qwen.tiktoken") && strstr(err.message, named), "'%s': status %d, '%s'", line,
           (int)st, st ? err.message : "");
}

TEST(convert_qwen1_families) {
    if (!cv_case_material(QWEN2_DIR "/tokenizer.json")) return; /* reference material absent */
    int same = 0;
    const size_t nc = sizeof CASES / sizeof CASES[0];
    for (size_t i = 0; i < nc; i++) same += cv_case_run(make_case(&CASES[i]), CASES[i].name, CASES[i].sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes() * (int)nc, "%d of %d byte-identical to the reference", same, cv_case_outtypes() * (int)nc);
    cv_case_supported("QWenLMHeadModel");
    const char *dir = make_case(&CASES[0]);
    if (dir) cv_case_refused(dir, CASES[0].config, "\"rotary_emb_base\":10000,", "'rotary_emb_base'");
    if (dir) cv_case_refused(dir, CASES[0].config, ",\"vocab_size\":151936", "'vocab_size'");
    if (dir) bad_tiktoken(dir, "Iw==", "line 3");
    if (dir) bad_tiktoken(dir, "I*== 2", "line 3");
    if (dir) bad_tiktoken(dir, "IyI= 999999999", "line 3");
    static char long_tok[1000];
    memset(long_tok, 'A', 684), memcpy(long_tok + 684, " 2", 3); /* 513 bytes */
    if (dir) bad_tiktoken(dir, long_tok, "line 3");
    if (dir) bad_tiktoken(dir, "Ig== 2", "listed twice");
    if (dir) bad_tiktoken(dir, "ISIj 2", "not two tokens");
    CHECKF(make_case(&CASES[0]) != NULL, "cannot write the checkpoint back"); /* as convert_reference.sh keeps it */
}

/* ---- issue 38: tokens chosen to collide in the table's hash ---- */

#define FNV_PRIME 1099511628211ull

/* The hash qwen.tiktoken's table had: FNV-1a, its low bits the slot. */
static uint64_t old_hash(const unsigned char *b, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

/* dir/qwen.tiktoken of n 7-byte tokens whose old hash has the same low
 * bits for a table of `slots` (a power of two): a 4-byte counter, then 3
 * bytes found by meeting in the middle (FNV-1a's low bits depend on low
 * bits alone, and the prime is invertible).  1 when all were written. */
static int colliding_tiktoken(const char *dir, size_t n, uint64_t slots) {
    const uint64_t M = slots - 1, target = 12345 & M;
    uint64_t inv = FNV_PRIME; /* Newton: FNV_PRIME * inv == 1 mod 2^64 */
    for (int i = 0; i < 6; i++) inv *= 2 - FNV_PRIME * inv;
    uint32_t *tail = calloc(slots, sizeof *tail); /* state -> (b2, b3) + 1 reaching target */
    char path[4300];
    snprintf(path, sizeof path, "%s/qwen.tiktoken", dir);
    FILE *f = tail ? fopen(path, "w") : NULL;
    int ok = f != NULL;
    for (unsigned b3 = 0; ok && b3 < 256; b3++)
        for (unsigned b2 = 0; b2 < 256; b2++) {
            uint64_t s2 = ((target * inv) & M) ^ b3, s1 = ((s2 * inv) & M) ^ b2;
            tail[s1] = (b2 << 8 | b3) + 1;
        }
    for (size_t i = 0, written = 0; ok && written < n; i++) {
        unsigned char t[7] = {(unsigned char)(i >> 24), (unsigned char)(i >> 16), (unsigned char)(i >> 8), (unsigned char)i};
        uint64_t s0 = old_hash(t, 4);
        for (unsigned b1 = 0; b1 < 256; b1++) {
            uint32_t k = tail[((s0 ^ b1) * FNV_PRIME) & M];
            if (!k) continue;
            t[4] = (unsigned char)b1, t[5] = (unsigned char)((k - 1) >> 8), t[6] = (unsigned char)(k - 1);
            ok = (old_hash(t, 7) & M) == target; /* the construction's own check */
            char e[16];
            b64(t, 7, e);
            fprintf(f, "%s %zu\n", e, written++);
            break;
        }
    }
    if (f && fclose(f)) ok = 0;
    free(tail);
    return ok;
}

/* Before: 200,000 such tokens (the table's 2^19 slots) took 35.8 s of
 * processor time to load, growing quadratically; the keyed hash spreads
 * them.  The load then stops at the first token, which no merge of lower
 * ranks makes. */
TEST(convert_qwen1_colliding_tokens_load_in_linear_time) {
    const char *dir = scratch_path("qwen1-collide");
    mkdir(dir, 0755);
    static tspec t[4];
    size_t n = 0;
    ADD(4, 32, "transformer.wte.weight");
    char *config = text_replace(QWEN_CONFIG(""), "151936", "262144");
    int wrote = config && put_text(dir, "config.json", config);
    free(config);
    REQUIRE(wrote);
    REQUIRE(cv_case_weights(dir, t, n, LGG_TYPE_BF16));
    REQUIRE(colliding_tiktoken(dir, 200000, 1u << 19));
    clock_t c0 = clock();
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    double took = (double)(clock() - c0) / CLOCKS_PER_SEC;
    lgg_convert_free(c);
    CHECKF(took < 5.0, "lgg_convert_open took %.1f s of processor time", took);
    CHECKF(st == LGG_ERR_INVALID && strstr(err.message, "qwen.tiktoken: token of rank 0 is not two tokens"), "status %d: %s",
           (int)st, st ? err.message : "");
}

#endif
