/* test_convert_famD.c -- issue 25's group 11 (OpenELM, Orion, Xverse,
 * Refact, CodeShell, Jais, Chameleon: convert_famD_families, against
 * convert_hf_to_gguf.py; `LGG_REF_TEST=convert_famD_families
 * tests/convert_reference.sh`, with LGG_REF_ARGS=--no-lazy for Chameleon),
 * and LoRA adapters (gguf convert --lora ADAPTER --base
 * BASE) against llama.cpp b4747's convert_lora_to_gguf.py, run outside the
 * repo on the adapters this test writes (tests/convert_lora_reference.sh
 * remakes the file names and sha256s recorded here), and the adapter
 * errors.  The adapters are tiny and random: a llama one with q/v targets
 * (f16; B's rows follow llama's q permutation) and a Qwen2 one targeting
 * every projection, the token embedding (lora_embedding_A/B) and carrying
 * norms and a base_layer weight as mergekit-extract-lora writes them (bf16,
 * one pair with an f32 A, a model card). */
#include "libgguf_convert.h"
#include "convert_cases.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

typedef struct lt {
    char name[128];
    uint32_t dtype;
    uint64_t d0, d1; /* d1 == 0: 1-D */
    float fixed;     /* not 0: every value (Jais's ALiBi slopes must be positive) */
} lt;

/* A xorshift stream: values k/2^12 for |k| < 2^11, exact in f16 and bf16
 * after the one rounding of the generator's own conversion. */
static float next_value(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return (float)((int64_t)(*s >> 52) - 2048) / 4096.0f;
}

/* DIR/FILE holding t[0..n) in that order (the header unsorted: the
 * converter sorts by name as the reference's reader does). */
static int write_st(const char *dir, const char *file, const lt *t, size_t n) {
    buf h = {0}, d = {0};
    uint64_t s = 0x2545f4914f6cdd1dull;
    buf_put(&h, "{", 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t cnt = t[i].d0 * (t[i].d1 ? t[i].d1 : 1), start = d.n;
        for (uint64_t e = 0; e < cnt; e++) {
            float v = next_value(&s);
            if (t[i].fixed != 0) v = t[i].fixed;
            uint16_t u = t[i].dtype == LGG_TYPE_F16 ? lgg_f32_to_f16(v) : lgg_f32_to_bf16(v);
            if (t[i].dtype == LGG_TYPE_F32) buf_put(&d, &v, 4);
            else buf_put(&d, &u, 2);
        }
        char e[400], shape[48];
        if (t[i].d1) snprintf(shape, sizeof shape, "%llu,%llu", (unsigned long long)t[i].d0, (unsigned long long)t[i].d1);
        else snprintf(shape, sizeof shape, "%llu", (unsigned long long)t[i].d0);
        snprintf(e, sizeof e, "%s\"%s\":{\"dtype\":\"%s\",\"shape\":[%s],\"data_offsets\":[%zu,%zu]}", i ? "," : "",
                 t[i].name, lgg_type_name(t[i].dtype), shape, (size_t)start, d.n);
        buf_put(&h, e, strlen(e));
    }
    buf_put(&h, "}", 1);
    char path[4300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    uint64_t hl = h.n;
    int ok = f && fwrite(&hl, 8, 1, f) == 1 && fwrite(h.p, 1, h.n, f) == h.n && fwrite(d.p, 1, d.n, f) == d.n;
    if (f) ok &= fclose(f) == 0;
    buf_free(&h);
    buf_free(&d);
    return ok;
}

#define PEFT(n) "base_model.model.model." n
#define T(DT, A, B, ...) \
    (snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__), t[n].dtype = (DT), t[n].d0 = (A), t[n].d1 = (B), t[n].fixed = 0, n++)

/* One LoRA pair of rank r on a matrix of `out` rows and `in` columns. */
static size_t pair(lt *t, const char *target, uint64_t out, uint64_t in, uint64_t r, uint32_t dta, uint32_t dtb) {
    size_t n = 0;
    T(dta, r, in, "%s.lora_A.weight", target);
    T(dtb, out, r, "%s.lora_B.weight", target);
    return n;
}

static size_t llama_qv(lt *t) {
    size_t n = 0;
    char target[96];
    for (int l = 1; l >= 0; l--) { /* written in reverse: the order comes from the names */
        snprintf(target, sizeof target, PEFT("layers.%d.self_attn.v_proj"), l);
        n += pair(t + n, target, 32, 64, 8, LGG_TYPE_F16, LGG_TYPE_F16);
        snprintf(target, sizeof target, PEFT("layers.%d.self_attn.q_proj"), l);
        n += pair(t + n, target, 64, 64, 8, LGG_TYPE_F16, LGG_TYPE_F16);
    }
    return n;
}

static size_t qwen2_all(lt *t) {
    static const struct { const char *m; uint64_t out, in; } P[] = {
        {"self_attn.q_proj", 64, 64}, {"self_attn.k_proj", 32, 64}, {"self_attn.v_proj", 32, 64},
        {"self_attn.o_proj", 64, 64}, {"mlp.gate_proj", 96, 64},    {"mlp.up_proj", 96, 64},
        {"mlp.down_proj", 64, 96}};
    size_t n = 0;
    T(LGG_TYPE_BF16, 4, 128, PEFT("embed_tokens.lora_embedding_A"));
    T(LGG_TYPE_BF16, 64, 4, PEFT("embed_tokens.lora_embedding_B"));
    T(LGG_TYPE_BF16, 64, 0, PEFT("norm.weight"));
    T(LGG_TYPE_BF16, 64, 64, PEFT("layers.0.self_attn.q_proj.base_layer.weight"));
    for (int l = 0; l < 2; l++) {
        T(LGG_TYPE_BF16, 64, 0, PEFT("layers.%d.input_layernorm.weight"), l);
        for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
            char target[96];
            snprintf(target, sizeof target, PEFT("layers.%d.%s"), l, P[k].m);
            int mixed = l == 1 && k == 3; /* o_proj of block 1: an f32 A with a bf16 B */
            n += pair(t + n, target, P[k].out, P[k].in, 4, mixed ? LGG_TYPE_F32 : LGG_TYPE_BF16, LGG_TYPE_BF16);
        }
    }
    return n;
}

typedef struct lcase {
    const char *name, *adapter, *base_config, *adapter_config, *card;
    size_t (*tensors)(lt *t);
    const char *ref_name[5], *sha[5]; /* the reference's default file name and output, per outtype */
} lcase;

static const lcase LORA_CASES[] = {
    {"llama-qv", "Llama-2-7b-chat-qv-lora",
     "{\"architectures\":[\"LlamaForCausalLM\"],\"hidden_size\":64,\"intermediate_size\":128,\"num_attention_heads\":4,"
     "\"num_key_value_heads\":2,\"num_hidden_layers\":2,\"rms_norm_eps\":1e-05,\"vocab_size\":96,"
     "\"max_position_embeddings\":256,\"rope_theta\":10000.0,\"torch_dtype\":\"float16\"}",
     "{\"base_model_name_or_path\":\"meta-llama/Llama-2-7b-chat-hf\",\"bias\":\"none\",\"lora_alpha\":16,"
     "\"lora_dropout\":0.05,\"peft_type\":\"LORA\",\"r\":8,\"target_modules\":[\"q_proj\",\"v_proj\"],"
     "\"task_type\":\"CAUSAL_LM\"}",
     NULL, llama_qv,
     {"Llama-2-7B-chat-qv-F32-LoRA.gguf", "Llama-2-7B-chat-qv-F16-LoRA.gguf", "Llama-2-7B-chat-qv-BF16-LoRA.gguf", "Llama-2-7B-chat-qv-Q8_0-LoRA.gguf", "Llama-2-7B-chat-qv-F16-LoRA.gguf"},
     {"f5ef15c7a6a29aa6fe3bb894cfdbd3f2fecfd388277612efcc5eb469f93fadd1", "f5ef15c7a6a29aa6fe3bb894cfdbd3f2fecfd388277612efcc5eb469f93fadd1", "f5ef15c7a6a29aa6fe3bb894cfdbd3f2fecfd388277612efcc5eb469f93fadd1", "f5ef15c7a6a29aa6fe3bb894cfdbd3f2fecfd388277612efcc5eb469f93fadd1", "f5ef15c7a6a29aa6fe3bb894cfdbd3f2fecfd388277612efcc5eb469f93fadd1"}},
    {"qwen2-all", "qwen2-extract",
     "{\"architectures\":[\"Qwen2ForCausalLM\"],\"hidden_size\":64,\"intermediate_size\":96,\"num_attention_heads\":4,"
     "\"num_key_value_heads\":2,\"num_hidden_layers\":2,\"rms_norm_eps\":1e-06,\"vocab_size\":128,"
     "\"max_position_embeddings\":512,\"rope_theta\":1000000.0,\"tie_word_embeddings\":true}",
     "{\"base_model_name_or_path\":\"Qwen/Qwen2-0.5B\",\"lora_alpha\":8.5,\"peft_type\":\"LORA\",\"r\":4,"
     "\"target_modules\":[\"q_proj\",\"k_proj\",\"v_proj\",\"o_proj\",\"gate_proj\",\"up_proj\",\"down_proj\","
     "\"embed_tokens\"]}",
     "---\nbase_model: Qwen/Qwen2-0.5B\nlibrary_name: peft\n---\n\n# An extracted adapter\n", qwen2_all,
     {"Qwen2-Extract-F32-LoRA.gguf", "Qwen2-Extract-F16-LoRA.gguf", "Qwen2-Extract-BF16-LoRA.gguf", "Qwen2-Extract-Q8_0-LoRA.gguf", "Qwen2-Extract-BF16-LoRA.gguf"},
     {"310b529f8001b0f2a10a6d147143df669787716cd832a077f61744beb9fb3e8b", "310b529f8001b0f2a10a6d147143df669787716cd832a077f61744beb9fb3e8b", "310b529f8001b0f2a10a6d147143df669787716cd832a077f61744beb9fb3e8b", "310b529f8001b0f2a10a6d147143df669787716cd832a077f61744beb9fb3e8b", "310b529f8001b0f2a10a6d147143df669787716cd832a077f61744beb9fb3e8b"}},
};

/* scratch/lora/NAME/base (config.json) and scratch/lora/NAME/ADAPTER. */
static int make_lora(const lcase *m, char *base, char *adapter, size_t cap) {
    char top[4200];
    snprintf(top, sizeof top, "%s/lora", scratch_dir());
    mkdir(top, 0755);
    snprintf(top, sizeof top, "%s/lora/%s", scratch_dir(), m->name);
    snprintf(base, cap, "%s/base", top);
    snprintf(adapter, cap, "%s/%s", top, m->adapter);
    if ((mkdir(top, 0755) && access(top, W_OK)) || (mkdir(base, 0755) && access(base, W_OK)) ||
        (mkdir(adapter, 0755) && access(adapter, W_OK)))
        return 0;
    lt t[64];
    size_t n = m->tensors(t);
    return put_text(base, "config.json", m->base_config) && put_text(adapter, "adapter_config.json", m->adapter_config) &&
           (!m->card || put_text(adapter, "README.md", m->card)) && write_st(adapter, "adapter_model.safetensors", t, n);
}

TEST(convert_famD_lora) {
    static const uint32_t types[5] = {LGG_CONVERT_F32, LGG_CONVERT_F16, LGG_CONVERT_BF16, LGG_CONVERT_Q8_0, LGG_CONVERT_AUTO};
    int same = 0;
    for (size_t i = 0; i < sizeof LORA_CASES / sizeof LORA_CASES[0]; i++) {
        const lcase *m = &LORA_CASES[i];
        char base[4300], adapter[4300];
        CHECKF(make_lora(m, base, adapter, sizeof base), "%s: cannot write the adapter", m->name);
        for (int k = 0; k < 5; k++) {
            lgg_convert_options o;
            lgg_convert_options_init(&o);
            o.outtype = types[k];
            lgg_convert *c = NULL;
            lgg_error err;
            char out[4400], name[256] = "";
            snprintf(out, sizeof out, "%s/../out.%d.gguf", adapter, k);
            lgg_status st = lgg_convert_open_lora(adapter, base, &o, &c, &err);
            if (st == LGG_OK) lgg_convert_default_name(c, name, sizeof name);
            if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
            lgg_convert_free(c);
            CHECKF(st == LGG_OK, "%s: %s", m->name, err.message);
            CHECKF(!strcmp(name, m->ref_name[k]), "%s outtype %d: default name %s, reference %s", m->name, k, name,
                   m->ref_name[k]);
            size_t n = 0;
            unsigned char *b = st == LGG_OK ? read_file(out, &n) : NULL;
            char hex[65] = "";
            if (b) sha256_hex(b, n, hex);
            CHECKF(!strcmp(hex, m->sha[k]), "%s outtype %d: sha256 %s, reference %s", m->name, k, hex, m->sha[k]);
            same += !strcmp(hex, m->sha[k]) && !strcmp(name, m->ref_name[k]);
            free(b);
            unlink(out);
        }
    }
    CHECKF(same == 10, "%d of 10 byte-identical to the reference", same);
}

/* An adapter with one thing wrong: the library's message names the file
 * and the key or tensor; the tool exits 1 and leaves no output. */
static void bad_adapter(const char *what, const char *config, const lt *t, size_t n, const char *expect) {
    char base[4300], adapter[4300], out[4400];
    snprintf(base, sizeof base, "%s/lora-bad-%s/base", scratch_dir(), what);
    snprintf(adapter, sizeof adapter, "%s/lora-bad-%s/adapter", scratch_dir(), what);
    snprintf(out, sizeof out, "%s/lora-bad-%s/out.gguf", scratch_dir(), what);
    char top[4300];
    snprintf(top, sizeof top, "%s/lora-bad-%s", scratch_dir(), what);
    mkdir(top, 0755), mkdir(base, 0755), mkdir(adapter, 0755);
    CHECK(put_text(base, "config.json", LORA_CASES[0].base_config) && put_text(adapter, "adapter_config.json", config) &&
          write_st(adapter, "adapter_model.safetensors", t, n));
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open_lora(adapter, base, NULL, &c, &err);
    CHECKF(st == LGG_ERR_INVALID && c == NULL, "%s: status %d", what, (int)st);
    CHECKF(st != LGG_OK && strstr(err.message, expect) && strstr(err.message, adapter), "%s: message '%s' lacks '%s'",
           what, st ? err.message : "", expect);
    char *so = NULL, *se = NULL;
    int rc = run_gguf_capture(&so, &se, "convert", "-q", "--lora", adapter, "--base", base, "-o", out, NULL);
    CHECKF(rc == 1 && so && !*so && se && strstr(se, expect), "%s: exit %d, stderr '%s'", what, rc, se ? se : "");
    CHECKF(access(out, F_OK) != 0, "%s: %s was left behind", what, out);
    free(so), free(se);
}

TEST(convert_famD_lora_errors) {
    const char *ok_config = LORA_CASES[0].adapter_config;
    lt t[8];
    size_t n = pair(t, PEFT("layers.0.self_attn.q_proj"), 64, 64, 8, LGG_TYPE_F16, LGG_TYPE_F16);
    bad_adapter("alpha", "{\"r\":8,\"peft_type\":\"LORA\"}", t, n, "adapter_config.json: key 'lora_alpha' is missing");
    t[1].d1 = 4; /* B of rank 4 after an A of rank 8 */
    bad_adapter("rank", ok_config, t, n, "tensor '" PEFT("layers.0.self_attn.q_proj.lora_B.weight") "': rank mismatch");
    n = pair(t, PEFT("layers.0.self_attn.qq_proj"), 64, 64, 8, LGG_TYPE_F16, LGG_TYPE_F16);
    bad_adapter("target", ok_config, t, n, "target 'model.layers.0.self_attn.qq_proj.weight' has no GGUF name");
    /* usage: --lora needs --base, and takes no MODEL_DIR */
    char *so = NULL, *se = NULL;
    CHECK(run_gguf_capture(&so, &se, "convert", "--lora", scratch_dir(), NULL) == 2 && se &&
          strstr(se, "--lora and --base go together"));
    free(so), free(se);
}

/* ---- group 11 of issue 25: families checked against convert_hf_to_gguf.py ---- */

/* Orion: llama's names, LayerNorms with biases. */
static size_t orion(lt *t) {
    static const struct { const char *m; uint64_t d0, d1; } B[] = {
        {"input_layernorm.weight", 64, 0},  {"input_layernorm.bias", 64, 0},   {"post_attention_layernorm.weight", 64, 0},
        {"post_attention_layernorm.bias", 64, 0}, {"self_attn.q_proj.weight", 64, 64}, {"self_attn.k_proj.weight", 64, 64},
        {"self_attn.v_proj.weight", 64, 64}, {"self_attn.o_proj.weight", 64, 64}, {"mlp.gate_proj.weight", 128, 64},
        {"mlp.up_proj.weight", 128, 64},   {"mlp.down_proj.weight", 64, 128}};
    size_t n = 0;
    T(LGG_TYPE_BF16, 32000, 64, "model.embed_tokens.weight");
    T(LGG_TYPE_BF16, 32000, 64, "lm_head.weight");
    T(LGG_TYPE_BF16, 64, 0, "model.norm.weight");
    T(LGG_TYPE_BF16, 64, 0, "model.norm.bias");
    for (int l = 0; l < 2; l++)
        for (size_t k = 0; k < sizeof B / sizeof B[0]; k++)
            T(LGG_TYPE_BF16, B[k].d0, B[k].d1, "model.layers.%d.%s", l, B[k].m);
    return n;
}

/* One block's tensors from a list of (suffix, rows, columns), under PREFIX.N. */
typedef struct bt {
    const char *m;
    uint64_t d0, d1;
} bt;
static size_t blocks(lt *t, uint32_t dtype, const char *prefix, int L, const bt *b, size_t nb) {
    size_t n = 0;
    for (int l = 0; l < L; l++)
        for (size_t k = 0; k < nb; k++) T(dtype, b[k].d0, b[k].d1, "%s.%d.%s", prefix, l, b[k].m);
    return n;
}

/* CodeShell: GPT-2 names, a fused qkv (4 heads of 8, 2 kv groups), no
 * lm_head (the reference copies the embeddings to output). */
static size_t codeshell(lt *t) {
    static const bt B[] = {{"ln_1.weight", 32, 0},       {"ln_1.bias", 32, 0},        {"attn.c_attn.weight", 64, 32},
                           {"attn.c_attn.bias", 64, 0},  {"attn.c_proj.weight", 32, 32}, {"attn.c_proj.bias", 32, 0},
                           {"ln_2.weight", 32, 0},       {"ln_2.bias", 32, 0},        {"mlp.c_fc.weight", 128, 32},
                           {"mlp.c_fc.bias", 128, 0},    {"mlp.c_proj.weight", 32, 128}, {"mlp.c_proj.bias", 32, 0}};
    size_t n = 0;
    T(LGG_TYPE_F16, 151936, 32, "transformer.wte.weight");
    T(LGG_TYPE_F16, 32, 0, "transformer.ln_f.weight");
    T(LGG_TYPE_F16, 32, 0, "transformer.ln_f.bias");
    return n + blocks(t + n, LGG_TYPE_F16, "transformer.h", 2, B, sizeof B / sizeof B[0]);
}

/* Chameleon: llama's layout with per-head q/k norms (weight and bias), an
 * image tokenizer the reference drops.  As many kv heads as heads, as in
 * the real checkpoints: the reference's k-norm rebuild takes hidden_size /
 * num_key_value_heads as the head size and fails on any other. */
static size_t chameleon(lt *t) {
    static const bt B[] = {{"input_layernorm.weight", 32, 0}, {"post_attention_layernorm.weight", 32, 0},
                           {"self_attn.q_proj.weight", 32, 32}, {"self_attn.k_proj.weight", 32, 32},
                           {"self_attn.v_proj.weight", 32, 32}, {"self_attn.o_proj.weight", 32, 32},
                           {"self_attn.q_norm.weight", 4, 8},   {"self_attn.q_norm.bias", 4, 8},
                           {"self_attn.k_norm.weight", 4, 8},   {"self_attn.k_norm.bias", 4, 8},
                           {"mlp.gate_proj.weight", 64, 32},    {"mlp.up_proj.weight", 64, 32},
                           {"mlp.down_proj.weight", 32, 64}};
    size_t n = 0;
    T(LGG_TYPE_BF16, 151936, 32, "model.embed_tokens.weight");
    T(LGG_TYPE_BF16, 151936, 32, "lm_head.weight");
    T(LGG_TYPE_BF16, 32, 0, "model.norm.weight");
    T(LGG_TYPE_BF16, 16, 8, "model.vqmodel.quantize.embedding.weight");
    T(LGG_TYPE_BF16, 8, 0, "model.vqmodel.encoder.norm_out.weight");
    return n + blocks(t + n, LGG_TYPE_BF16, "model.layers", 2, B, sizeof B / sizeof B[0]);
}

/* Refact: a q projection, a fused kv (one head of 8) and a fused gate_up
 * (2 x 256: 2/3 of 4 * 32 rounded up to 256); f32. */
static size_t refact(lt *t) {
    static const bt B[] = {{"ln_1.weight", 32, 0},          {"attn.q.weight", 32, 32},
                           {"attn.kv.weight", 16, 32},      {"attn.c_proj.weight", 32, 32},
                           {"ln_2.weight", 32, 0},          {"mlp.gate_up_proj.weight", 512, 32},
                           {"mlp.c_proj.weight", 32, 256}};
    size_t n = 0;
    T(LGG_TYPE_F32, 151936, 32, "transformer.wte.weight");
    T(LGG_TYPE_F32, 151936, 32, "lm_head.weight");
    T(LGG_TYPE_F32, 32, 0, "transformer.ln_f.weight");
    return n + blocks(t + n, LGG_TYPE_F32, "transformer.h", 2, B, sizeof B / sizeof B[0]);
}

/* Xverse: llama's layout, 8 heads and 2 kv heads (the reference's k
 * permutation then uses 8 / 2 = 4 heads); f16. */
static size_t xverse(lt *t) {
    static const bt B[] = {{"input_layernorm.weight", 64, 0},    {"post_attention_layernorm.weight", 64, 0},
                           {"self_attn.q_proj.weight", 64, 64}, {"self_attn.k_proj.weight", 16, 64},
                           {"self_attn.v_proj.weight", 16, 64}, {"self_attn.o_proj.weight", 64, 64},
                           {"mlp.gate_proj.weight", 128, 64},   {"mlp.up_proj.weight", 128, 64},
                           {"mlp.down_proj.weight", 64, 128}};
    size_t n = 0;
    T(LGG_TYPE_F16, 32000, 64, "model.embed_tokens.weight");
    T(LGG_TYPE_F16, 32000, 64, "lm_head.weight");
    T(LGG_TYPE_F16, 64, 0, "model.norm.weight");
    return n + blocks(t + n, LGG_TYPE_F16, "model.layers", 2, B, sizeof B / sizeof B[0]);
}

/* Jais: GPT-2's Conv1D matrices (in x out), a SwiGLU c_fc2, biases, a
 * causal-mask buffer, ALiBi slopes of 1/8 (max_alibi_bias 12 with 4
 * heads); f16 (the scales are applied in f16, as torch does). */
static size_t jais(lt *t) {
    static const bt B[] = {{"ln_1.weight", 32, 0},        {"ln_1.bias", 32, 0},          {"attn.c_attn.weight", 32, 96},
                           {"attn.c_attn.bias", 96, 0},   {"attn.c_proj.weight", 32, 32}, {"attn.c_proj.bias", 32, 0},
                           {"attn.bias", 4, 4},           {"ln_2.weight", 32, 0},        {"ln_2.bias", 32, 0},
                           {"mlp.c_fc.weight", 32, 64},   {"mlp.c_fc.bias", 64, 0},      {"mlp.c_fc2.weight", 32, 64},
                           {"mlp.c_fc2.bias", 64, 0},     {"mlp.c_proj.weight", 64, 32}, {"mlp.c_proj.bias", 32, 0}};
    size_t n = 0;
    T(LGG_TYPE_F16, 151936, 32, "transformer.wte.weight");
    T(LGG_TYPE_F16, 151936, 32, "lm_head.weight");
    T(LGG_TYPE_F16, 32, 0, "transformer.ln_f.weight");
    T(LGG_TYPE_F16, 32, 0, "transformer.ln_f.bias");
    T(LGG_TYPE_F16, 4, 0, "transformer.relative_pe.slopes");
    t[n - 1].fixed = 0.125f;
    return n + blocks(t + n, LGG_TYPE_F16, "transformer.h", 2, B, sizeof B / sizeof B[0]);
}

/* OpenELM: per-layer heads (4 query heads; 1, then 2 kv heads of 16), per-layer
 * feed-forward widths (32, 64: proj_1 holds gate and up), QK norms, shared
 * embeddings; f32. */
static size_t openelm(lt *t) {
    size_t n = 0;
    T(LGG_TYPE_F32, 32000, 64, "transformer.token_embeddings.weight");
    T(LGG_TYPE_F32, 64, 0, "transformer.norm.weight");
    for (int l = 0; l < 2; l++) {
        uint64_t kv = l ? 2 : 1, ff = l ? 64 : 32;
        T(LGG_TYPE_F32, 64, 0, "transformer.layers.%d.attn_norm.weight", l);
        T(LGG_TYPE_F32, (4 + 2 * kv) * 16, 64, "transformer.layers.%d.attn.qkv_proj.weight", l);
        T(LGG_TYPE_F32, 16, 0, "transformer.layers.%d.attn.q_norm.weight", l);
        T(LGG_TYPE_F32, 16, 0, "transformer.layers.%d.attn.k_norm.weight", l);
        T(LGG_TYPE_F32, 64, 64, "transformer.layers.%d.attn.out_proj.weight", l);
        T(LGG_TYPE_F32, 64, 0, "transformer.layers.%d.ffn_norm.weight", l);
        T(LGG_TYPE_F32, 2 * ff, 64, "transformer.layers.%d.ffn.proj_1.weight", l);
        T(LGG_TYPE_F32, 64, ff, "transformer.layers.%d.ffn.proj_2.weight", l);
    }
    return n;
}

#define QWEN_TOK "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"

typedef struct fcase {
    const char *name, *tokdir, *tokfiles, *config, *tok_config; /* tok_config: tokenizer_config.json's text, or NULL */
    size_t (*tensors)(lt *t);
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
} fcase;

static const fcase FAM_CASES[] = {
    {"Orion-Tiny-Test", "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"OrionForCausalLM\"],\"hidden_size\":64,\"intermediate_size\":128,\"num_attention_heads\":4,"
     "\"num_key_value_heads\":4,\"num_hidden_layers\":2,\"rms_norm_eps\":1e-05,\"vocab_size\":32000,"
     "\"max_position_embeddings\":256,\"max_sequence_length\":512,\"model_type\":\"orion\",\"rope_theta\":10000.0,"
     "\"torch_dtype\":\"bfloat16\",\"tie_word_embeddings\":false}",
     NULL, orion,
     {"fbac437c7c054cb4772d51e4f06947ec619793317c6e491529b22b8c7b396889",
      "035ba1b815ed97b9af8d814eef6e9ed50d556845628af694791114ca091d2c52",
      "f5afc2b552678bec156e718c8125c984fb66d53d6218ed9a1500d92e182353d1",
      "e27eea1640e981dc34173f11a37f97d54ee36c95d6991fd0213596f7482d3f4e",
      "f5afc2b552678bec156e718c8125c984fb66d53d6218ed9a1500d92e182353d1"}},
    {"CodeShell-Tiny-Test", "Qwen2.5-Tiny-Test-Instruct", QWEN_TOK,
     "{\"architectures\":[\"CodeShellForCausalLM\"],\"n_embd\":32,\"n_head\":4,\"num_query_groups\":2,"
     "\"group_query_attention\":true,\"n_layer\":2,\"n_inner\":128,\"n_positions\":512,\"layer_norm_epsilon\":1e-05,"
     "\"position_embedding_type\":\"rope\",\"rope_scaling\":null,\"vocab_size\":151936,\"model_type\":\"codeshell\","
     "\"torch_dtype\":\"float16\"}",
     NULL, codeshell,
     {"92ed434edf7953a8f28bf9769c9c48c15781602f36d399bce67df692054d2163",
      "35499961d5b9c18c8c7f7c17c266f107a82b37674086576d78a4396386ecbdbc",
      "860ce77dff2dee687ad83c93f69ce4ff0356bfe308ee34ae0295b5bf98265b96",
      "055e12fe7ce636b6a4aab14c5cf160ca7799e3ae3b62de1a141d9b6022829e5e",
      "35499961d5b9c18c8c7f7c17c266f107a82b37674086576d78a4396386ecbdbc"}},
    {"chameleon-tiny-test", "Qwen2.5-Tiny-Test-Instruct", QWEN_TOK,
     "{\"architectures\":[\"ChameleonForConditionalGeneration\"],\"hidden_size\":32,\"intermediate_size\":64,"
     "\"num_attention_heads\":4,\"num_key_value_heads\":4,\"num_hidden_layers\":2,\"max_position_embeddings\":4096,"
     "\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"vocab_size\":151936,\"model_type\":\"chameleon\","
     "\"swin_norm\":false,\"attention_bias\":false,\"torch_dtype\":\"bfloat16\"}",
     NULL, chameleon,
     {"677b9b4a576f1c0179269d8c0ae5feaa29f9a1306aa5f10e74bc88871dcde64a",
      "2505e04f294a47fe9db2a57f4270ccbd31d52c164c05c92c02437f541941d1f2",
      "58709a8b83c700dc6e56e76c9377c5d4ab042ebcce80b114483f35990e8f4c4f",
      "fa0d325bfee89c84e1974fb8f2613fcd6ee6219b8f9f415e4c2f6523b1fe5b1e",
      "58709a8b83c700dc6e56e76c9377c5d4ab042ebcce80b114483f35990e8f4c4f"}},
    {"XVERSE-Tiny-Chat", "TinyLlama-2-Test-2x32", "tokenizer.json tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"XverseForCausalLM\"],\"hidden_size\":64,\"intermediate_size\":128,\"num_attention_heads\":8,"
     "\"num_key_value_heads\":2,\"num_hidden_layers\":2,\"rms_norm_eps\":1e-06,\"vocab_size\":32000,"
     "\"max_position_embeddings\":4096,\"max_tokenizer_truncation\":6144,\"model_type\":\"xverse\","
     "\"rope_theta\":500000,\"torch_dtype\":\"float16\"}",
     NULL, xverse,
     {"e4e826f228230695026e64acdc9cc319c7964ff87abf5e27ff04c4dbc7f92d22",
      "404a1c28f0d3e3309bdd4ca0dfc76990207d9f6f60154d89787aabc9a6581e4c",
      "3c4723369d2835b55606d0d50c9d61bf3b66211986506aa71996cb2d6a6eaa63",
      "6eb4b697f8df607b9f46267a243b5838c8981972ef72db6ad55c00a1c6fee6fb",
      "404a1c28f0d3e3309bdd4ca0dfc76990207d9f6f60154d89787aabc9a6581e4c"}},
    {"jais-tiny-chat", "Qwen2.5-Tiny-Test-Instruct", QWEN_TOK,
     "{\"architectures\":[\"JAISLMHeadModel\"],\"activation_function\":\"swiglu\",\"position_embedding_type\":\"alibi\","
     "\"n_embd\":32,\"n_head\":4,\"n_inner\":64,\"n_layer\":2,\"n_positions\":2048,\"layer_norm_epsilon\":1e-05,"
     "\"vocab_size\":151936,\"mup_embeddings_scale\":14.6,\"mup_output_alpha\":2.22,\"mup_width_scale\":0.0625,"
     "\"scale_attn_weights\":true,\"model_type\":\"jais\",\"torch_dtype\":\"float16\"}",
     NULL, jais,
     {"766094ad4766243337cb1cca7bf2727d02876df1107d7516e60df7f531c77eff",
      "0b633f91f42213a3d6c4065fe79649af2bc86c719bca4cf787c3093c82727414",
      "1a1381cc6c37213a3e4b0d0aac51cee7b7c510e9722f0387e8f685093531c1bd",
      "661d0f9fe6c25aef5d17dbd9a0a2f3fb78ee351d8602851de545a1d6e54fdd89",
      "0b633f91f42213a3d6c4065fe79649af2bc86c719bca4cf787c3093c82727414"}},
    {"OpenELM-Tiny-Instruct", "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"OpenELMForCausalLM\"],\"model_dim\":64,\"head_dim\":16,\"num_transformer_layers\":2,"
     "\"num_query_heads\":[4,4],\"num_kv_heads\":[1,2],\"ffn_multipliers\":[0.5,1.0],\"ffn_dim_divisor\":32,"
     "\"max_context_length\":2048,\"rope_freq_constant\":10000,\"vocab_size\":32000,\"share_input_output_layers\":true,"
     "\"normalize_qk_projections\":true,\"model_type\":\"openelm\",\"torch_dtype\":\"float32\"}",
     NULL, openelm,
     {"dc5fb4d1182e71ea240bac21fd292f208cdbcb16cfdbecc18f641072f5f37936",
      "24c627d68dd734001f7cceafa1aa8e772c3d4485f6689bd3ed52d2109297db32",
      "ce51ee49ea9942227b40c09613409122a2573e998a17f7ad98975ddb2a685b22",
      "0e9c6de20ea81f1ffb04eb9311fed0bea26b4810e3e15810c50acd97444bb588",
      "ce51ee49ea9942227b40c09613409122a2573e998a17f7ad98975ddb2a685b22"}},
    /* Refact's own tokenizer_config.json names no add_bos_token (the reference writes the
       special vocabulary twice for Refact and would stop at such a duplicate key) */
    {"Refact-Tiny-fim", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json",
     "{\"architectures\":[\"GPTRefactForCausalLM\"],\"n_embd\":32,\"n_head\":4,\"n_layer\":2,\"n_positions\":4096,"
     "\"layer_norm_epsilon\":1e-05,\"vocab_size\":151936,\"model_type\":\"gpt_refact\",\"multi_query\":true,"
     "\"torch_dtype\":\"float32\"}",
     "{\"bos_token\":\"<|endoftext|>\",\"eos_token\":\"<|endoftext|>\",\"unk_token\":\"<|endoftext|>\","
     "\"model_max_length\":4096,\"tokenizer_class\":\"GPT2Tokenizer\"}",
     refact,
     {"0abad0902620f846748f7d5c68d73d5e6724cf47ad2f61917ec2313c4adb100f",
      "8f5287ff819074d5c0303684b374089fc092cee35733fa6bb1c0028f36348560",
      "8afa0a54a817600c7b1429c1e834b43f5c908a8635b58a89846f6de712601024",
      "e20a6885379f723fe75d83445ea0f15864f5f7cf378693fe07ee7ecdf5fcae5e",
      "8afa0a54a817600c7b1429c1e834b43f5c908a8635b58a89846f6de712601024"}},
};

/* scratch/more/NAME: the golden folder's tokenizer files, config.json, the weights. */
static const char *make_family(const fcase *m) {
    static char dir[4300];
    char from[4300], to[4400];
    snprintf(from, sizeof from, "%s/more", scratch_dir());
    mkdir(from, 0755);
    snprintf(dir, sizeof dir, "%s/more/%s", scratch_dir(), m->name);
    if (mkdir(dir, 0755) && access(dir, W_OK)) return NULL;
    for (const char *p = m->tokfiles; *p;) {
        size_t l = strcspn(p, " ");
        snprintf(from, sizeof from, "%s/%s/%.*s", shared_path("golden/convert"), m->tokdir, (int)l, p);
        snprintf(to, sizeof to, "%s/%.*s", dir, (int)l, p);
        if (!file_copy(from, to)) return NULL;
        p += l + (p[l] == ' ');
    }
    static lt t[256];
    size_t n = m->tensors(t);
    if (m->tok_config && !put_text(dir, "tokenizer_config.json", m->tok_config)) return NULL;
    return put_text(dir, "config.json", m->config) && write_st(dir, "model.safetensors", t, n) ? dir : NULL;
}

TEST(convert_famD_families) {
    if (!cv_case_material("TinyLlama-2-Test-2x32/tokenizer.model")) return; /* reference material absent */
    int same = 0;
    const int total = cv_case_outtypes() * (int)(sizeof FAM_CASES / sizeof FAM_CASES[0]);
    for (size_t i = 0; i < sizeof FAM_CASES / sizeof FAM_CASES[0]; i++)
        same += cv_case_run(make_family(&FAM_CASES[i]), FAM_CASES[i].name, FAM_CASES[i].sha, cv_case_q4km, 1);
    CHECKF(same == total, "%d of %d byte-identical to the reference", same, total);
}

/* A config.json without a field the family needs: the message names it. */
TEST(convert_famD_missing_field) {
    if (!cv_case_material("TinyLlama-2-Test-2x32/tokenizer.model")) return;
    static const struct { size_t i; const char *key; } M[] = {{0, "intermediate_size"}, {1, "num_query_groups"}, {3, "rms_norm_eps"}, {4, "mup_embeddings_scale"}, {6, "n_positions"}, {5, "num_transformer_layers"}};
    for (size_t k = 0; k < sizeof M / sizeof M[0]; k++) {
        const char *dir = make_family(&FAM_CASES[M[k].i]);
        CHECK(dir != NULL);
        if (!dir) continue;
        char pat[80];
        snprintf(pat, sizeof pat, "\"%s\":", M[k].key);
        char *cfg = text_replace(FAM_CASES[M[k].i].config, pat, "\"unused\":");
        CHECK(put_text(dir, "config.json", cfg));
        free(cfg);
        lgg_convert *c = NULL;
        lgg_error err;
        lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
        snprintf(pat, sizeof pat, "config.json: key '%s' is missing", M[k].key);
        CHECKF(st == LGG_ERR_INVALID && strstr(err.message, pat), "%s: status %d, '%s'", FAM_CASES[M[k].i].name, (int)st,
               st ? err.message : "");
        lgg_convert_free(c);
    }
}

#endif
