/* test_convert_famB.c -- issue 25's Nemotron, MiniCPM, MiniCPM 3, ChatGLM/GLM-4, T5 and T5Encoder,
 * checked against llama.cpp's convert_hf_to_gguf.py b4747 run outside the
 * repo (../shared/golden/convert/reference/README.md) on checkpoints this
 * test makes again byte for byte: the golden TinyLlama's SentencePiece
 * files (T5: tests/data's Unigram model as spiece.model; GLM-4: Qwen2.5's
 * tokenizer.json with GLM's <|user|> added), the config.json fields of the
 * real models (Minitron-4B, MiniCPM-2B, MiniCPM3-4B, glm-4-9b-chat and its
 * -hf form, flan-t5-small, t5-v1_1's encoder), and weights from a counter-based
 * hash (each a multiple of 2^-10 below 2^-3 in magnitude: exact in every
 * float type; in an F16 checkpoint finer values below 2^-7, so Nemotron's
 * +1, done in f16, rounds).  The sha256
 * of each reference output for f32, f16, bf16, q8_0 and auto is recorded
 * here; `LGG_REF_TEST=convert_famB tests/convert_reference.sh LLAMA_CPP
 * NODE_DIR` makes them again (a name ending in -pad-id runs the reference
 * without its duplicate-key failure). */
#include "libgguf_convert.h"
#include "convert_cases.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

/* fine: finer bits, below f16's resolution near 1 (an f16 checkpoint's
 * norm + 1 then rounds, as the reference's f16 arithmetic does). */
static float weight(uint64_t k, int fine) {
    uint64_t z = (k + 7) * 0x9e3779b97f4a7c15ull;
    z ^= z >> 31;
    z *= 0xbf58476d1ce4e5b9ull;
    return fine ? (float)(int16_t)(z >> 48) * 0x1p-22f : (float)(int8_t)(z >> 56) * 0x1p-10f;
}

typedef struct ftensor {
    char name[112];
    uint64_t d0, d1; /* d1 == 0: 1-D */
} ftensor;

static int by_name(const void *a, const void *b) { return strcmp(((const ftensor *)a)->name, ((const ftensor *)b)->name); }

#define T(a, b, ...) (snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__), t[n].d0 = (a), t[n].d1 = (b), n++)

enum { NEMOTRON, MINICPM, MINICPM3, GLM, CHATGLM, T5, T5_ENCODER };

typedef struct fcase {
    const char *name, *tokfiles, *config;
    int kind;
    uint64_t H, L, FF, V, nh, nkv, tied;
    uint32_t dtype;
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
    const char *bf16_name; /* the reference's default file name for bf16 (NULL: it fails) */
    const char *files[2][2]; /* more files (name, text); T5's also get spiece.model */
} fcase;

/* config.json's integer `key` in the case's text (0 when absent). */
static uint64_t cfg(const char *config, const char *key) {
    char pat[80];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(config, pat);
    return p ? strtoull(p + strlen(pat), NULL, 10) : 0;
}

/* T5's blocks (gated: wi_0/wi_1, else wi; the relative attention biases
 * in block 0), the decoder's with cross-attention; T5Encoder's embeddings
 * stored twice. */
static size_t t5_tensors(ftensor *t, const fcase *m) {
    uint64_t H = m->H, in = m->nh * cfg(m->config, "d_kv"), nb = cfg(m->config, "relative_attention_num_buckets");
    int gated = strstr(m->config, "gated") != NULL;
    size_t n = 0;
    T(m->V, H, "shared.weight");
    if (m->kind == T5_ENCODER) T(m->V, H, "encoder.embed_tokens.weight");
    if (!m->tied) T(m->V, H, "lm_head.weight");
    for (int side = 0; side < (m->kind == T5 ? 2 : 1); side++) {
        const char *sd = side ? "decoder" : "encoder";
        int ffl = side ? 2 : 1;
        T(H, 0, "%s.final_layer_norm.weight", sd);
        for (unsigned long long b = 0; b < m->L; b++) {
            const char *att[2] = {"SelfAttention", "EncDecAttention"};
            for (int a = 0; a <= side; a++) {
                T(in, H, "%s.block.%llu.layer.%d.%s.q.weight", sd, b, a, att[a]);
                T(in, H, "%s.block.%llu.layer.%d.%s.k.weight", sd, b, a, att[a]);
                T(in, H, "%s.block.%llu.layer.%d.%s.v.weight", sd, b, a, att[a]);
                T(H, in, "%s.block.%llu.layer.%d.%s.o.weight", sd, b, a, att[a]);
                T(H, 0, "%s.block.%llu.layer.%d.layer_norm.weight", sd, b, a);
            }
            if (b == 0) T(nb, m->nh, "%s.block.0.layer.0.SelfAttention.relative_attention_bias.weight", sd);
            if (gated) {
                T(m->FF, H, "%s.block.%llu.layer.%d.DenseReluDense.wi_0.weight", sd, b, ffl);
                T(m->FF, H, "%s.block.%llu.layer.%d.DenseReluDense.wi_1.weight", sd, b, ffl);
            } else {
                T(m->FF, H, "%s.block.%llu.layer.%d.DenseReluDense.wi.weight", sd, b, ffl);
            }
            T(H, m->FF, "%s.block.%llu.layer.%d.DenseReluDense.wo.weight", sd, b, ffl);
            T(H, 0, "%s.block.%llu.layer.%d.layer_norm.weight", sd, b, ffl);
        }
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* GLM-4 in Hugging Face's layout (biased q/k/v, a fused gate/up) or
 * ChatGLM's own (fused, biased q/k/v under "transformer.", its rotary
 * frequencies, which the reference drops). */
static size_t glm_tensors(ftensor *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, qkv = (m->nh + 2 * m->nkv) * hd;
    size_t n = 0;
    int own = m->kind == CHATGLM;
    T(m->V, H, own ? "transformer.embedding.word_embeddings.weight" : "model.embed_tokens.weight");
    T(m->V, H, own ? "transformer.output_layer.weight" : "lm_head.weight");
    T(H, 0, own ? "transformer.encoder.final_layernorm.weight" : "model.norm.weight");
    if (own) T(hd / 4, 0, "transformer.rotary_pos_emb.inv_freq");
    const char *pre = own ? "transformer.encoder" : "model";
    for (unsigned long long b = 0; b < m->L; b++) {
        T(H, 0, "%s.layers.%llu.input_layernorm.weight", pre, b);
        T(H, 0, "%s.layers.%llu.post_attention_layernorm.weight", pre, b);
        if (own) {
            T(qkv, H, "%s.layers.%llu.self_attention.query_key_value.weight", pre, b);
            T(qkv, 0, "%s.layers.%llu.self_attention.query_key_value.bias", pre, b);
            T(H, m->nh * hd, "%s.layers.%llu.self_attention.dense.weight", pre, b);
            T(2 * m->FF, H, "%s.layers.%llu.mlp.dense_h_to_4h.weight", pre, b);
            T(H, m->FF, "%s.layers.%llu.mlp.dense_4h_to_h.weight", pre, b);
            continue;
        }
        const char *proj[3] = {"q", "k", "v"};
        uint64_t rows[3] = {m->nh * hd, m->nkv * hd, m->nkv * hd};
        for (int k = 0; k < 3; k++) {
            T(rows[k], H, "%s.layers.%llu.self_attn.%s_proj.weight", pre, b, proj[k]);
            T(rows[k], 0, "%s.layers.%llu.self_attn.%s_proj.bias", pre, b, proj[k]);
        }
        T(H, m->nh * hd, "%s.layers.%llu.self_attn.o_proj.weight", pre, b);
        T(2 * m->FF, H, "%s.layers.%llu.mlp.gate_up_proj.weight", pre, b);
        T(H, m->FF, "%s.layers.%llu.mlp.down_proj.weight", pre, b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

static size_t tensors(ftensor *t, const fcase *m) {
    if (m->kind >= T5) return t5_tensors(t, m);
    if (m->kind == GLM || m->kind == CHATGLM) return glm_tensors(t, m);
    uint64_t H = m->H, hd = H / m->nh;
    size_t n = 0;
    T(m->V, H, "model.embed_tokens.weight");
    T(H, 0, "model.norm.weight");
    if (!m->tied) T(m->V, H, "lm_head.weight");
    if (m->kind == NEMOTRON) T(H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        T(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        T(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        if (m->kind == NEMOTRON) {
            T(H, 0, "model.layers.%llu.input_layernorm.bias", b);
            T(H, 0, "model.layers.%llu.post_attention_layernorm.bias", b);
        }
        if (m->kind == MINICPM3) {
            const char *c = m->config;
            uint64_t qr = cfg(c, "q_lora_rank"), kvr = cfg(c, "kv_lora_rank"), nope = cfg(c, "qk_nope_head_dim");
            uint64_t rope = cfg(c, "qk_rope_head_dim"), nh = m->nh;
            T(qr, H, "model.layers.%llu.self_attn.q_a_proj.weight", b);
            T(qr, 0, "model.layers.%llu.self_attn.q_a_layernorm.weight", b);
            T(nh * (nope + rope), qr, "model.layers.%llu.self_attn.q_b_proj.weight", b);
            T(kvr + rope, H, "model.layers.%llu.self_attn.kv_a_proj_with_mqa.weight", b);
            T(kvr, 0, "model.layers.%llu.self_attn.kv_a_layernorm.weight", b);
            T(nh * (nope + nope), kvr, "model.layers.%llu.self_attn.kv_b_proj.weight", b);
            T(H, nh * nope, "model.layers.%llu.self_attn.o_proj.weight", b);
        } else {
            T(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
            T(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
            T(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
            T(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        }
        if (m->kind != NEMOTRON) T(m->FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        T(m->FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        T(H, m->FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* model.safetensors with every tensor in dtype. */
static int write_weights(const char *dir, const ftensor *t, size_t n, uint32_t dtype) {
    size_t es = dtype == LGG_TYPE_F32 ? 4 : 2, cap = 64 + n * 200, hl = 0;
    char *h = malloc(cap);
    if (!h) return 0;
    uint64_t off = 0;
    hl += (size_t)snprintf(h, cap, "{");
    for (size_t i = 0; i < n; i++) {
        uint64_t b = t[i].d0 * (t[i].d1 ? t[i].d1 : 1) * es;
        char shape[64];
        if (t[i].d1) snprintf(shape, sizeof shape, "%llu, %llu", (unsigned long long)t[i].d0, (unsigned long long)t[i].d1);
        else snprintf(shape, sizeof shape, "%llu", (unsigned long long)t[i].d0);
        hl += (size_t)snprintf(h + hl, cap - hl, "%s\"%s\": {\"dtype\": \"%s\", \"shape\": [%s], \"data_offsets\": [%llu, %llu]}",
                               i ? ", " : "", t[i].name, lgg_type_name(dtype), shape, (unsigned long long)off,
                               (unsigned long long)(off + b));
        off += b;
    }
    hl += (size_t)snprintf(h + hl, cap - hl, "}");
    char path[4300];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "wb");
    uint64_t hl64 = hl;
    int ok = f && fwrite(&hl64, 8, 1, f) == 1 && fwrite(h, 1, hl, f) == hl;
    free(h);
    for (uint64_t i = 0, k = 0; ok && i < n; i++)
        for (uint64_t e = 0; e < t[i].d0 * (t[i].d1 ? t[i].d1 : 1); e++, k++) {
            float v = weight(k, dtype == LGG_TYPE_F16);
            uint16_t u = dtype == LGG_TYPE_F16 ? lgg_f32_to_f16(v) : lgg_f32_to_bf16(v);
            ok = dtype == LGG_TYPE_F32 ? fwrite(&v, 4, 1, f) == 1 : fwrite(&u, 2, 1, f) == 1;
        }
    if (f) ok &= fclose(f) == 0;
    return ok;
}

static int put(const char *path, const void *b, size_t n) {
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f) ok &= fclose(f) == 0;
    return ok;
}

/* Nemotron's config.json (Minitron-4B's fields); EXTRA goes after "architectures". */
#define NEMOTRON_CONFIG(EXTRA)                                                                                      \
    "{\"architectures\":[\"NemotronForCausalLM\"]," EXTRA "\"attention_bias\":false,\"attention_dropout\":0.0,"     \
    "\"bos_token_id\":1,\"eos_token_id\":2,\"head_dim\":8,\"hidden_act\":\"relu2\",\"hidden_size\":64,"          \
    "\"initializer_range\":0.0134,\"intermediate_size\":96,\"max_position_embeddings\":4096,\"mlp_bias\":false," \
    "\"model_type\":\"nemotron\",\"norm_eps\":1e-05,\"num_attention_heads\":8,\"num_hidden_layers\":2,"          \
    "\"num_key_value_heads\":2,\"partial_rotary_factor\":0.5,\"rope_scaling\":null,\"rope_theta\":10000,"        \
    "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.44.0.dev0\","       \
    "\"use_cache\":true,\"vocab_size\":32000}"

/* after the last added token (ids stay in order: Hugging Face's tokenizer numbers them as listed) */
#define GLM_USER                                                                                                \
    ",{\"id\": 151665, \"content\": \"<|user|>\", \"single_word\": false, \"lstrip\": false, "                  \
    "\"rstrip\": false, \"normalized\": false, \"special\": true}\n  ],\n  \"normalizer\""
/* GLM-4's tokenizer_config.json (no add_bos_token: the reference writes that key among the parameters) */
#define GLM_TC                                                                                                  \
    "{\"clean_up_tokenization_spaces\":false,\"do_lower_case\":false,\"eos_token\":\"<|endoftext|>\","           \
    "\"model_max_length\":128000,\"pad_token\":\"<|endoftext|>\",\"padding_side\":\"left\",\"remove_space\":false," \
    "\"tokenizer_class\":\"PreTrainedTokenizer\"}"

static const fcase CASES[] = {
    /* f16 weights: the +1 on the norms rounds in f16 */
    {"Minitron-tiny-Base", "tokenizer.model tokenizer_config.json", NEMOTRON_CONFIG(""), NEMOTRON, 64, 2, 96, 32000, 8, 2,
     0, LGG_TYPE_F16,
     {"d95c213020ba5a7b459cd8c4a885b8090837609f557d23ab4e1aed51b9c75367", "300b9ba2c14056bf272d2b5d9b78c65947bfbaae9fc62f351e788f4ba607f9f7", "ac2758b2e9fdd5be72b11cb5badcbcde6cde854bbca0da44826863586532c366", "2c853db854615222a1cf57dc21f91fac3fa2a5e2050630a0211685f3566a7dd5", "300b9ba2c14056bf272d2b5d9b78c65947bfbaae9fc62f351e788f4ba607f9f7"},
     "Minitron-Tiny-Base-4.1M-BF16.gguf", {{NULL, NULL}, {NULL, NULL}}},
    /* a pad id in config.json (with tokenizer.json, the unk id too): the reference fails writing pad and
     * unk a second time; the expected bytes are its output with the second writes skipped */
    {"Minitron-tiny-pad-id", "tokenizer.model tokenizer_config.json tokenizer.json special_tokens_map.json",
     NEMOTRON_CONFIG("\"pad_token_id\":5,"), NEMOTRON, 64, 2, 96, 32000, 8, 2, 0, LGG_TYPE_BF16,
     {"b07e951fc5aecc91487a4964d874d43352203a90c235495a29115d0acbd054ee", "499c6ce825cd2a3ef0c5a16e8bd121d6437fc55c79b49490443c8c23bfc5f56e", "78ceaed43196060b793e70efb50e1e02103e62b56e1bc3a3788c68e22fa965f3", "0b11af99e3692a2187e5a0e96b5a46cf60403673e445992d174b0d61fd17cfd2", "78ceaed43196060b793e70efb50e1e02103e62b56e1bc3a3788c68e22fa965f3"},
     NULL, {{NULL, NULL}, {NULL, NULL}}},
    /* MiniCPM-2B's fields: the name from _name_or_path, tied output */
    {"minicpm-tiny", "tokenizer.model tokenizer_config.json special_tokens_map.json",
     "{\"_name_or_path\":\"openbmb/CPM-2B\",\"architectures\":[\"MiniCPMForCausalLM\"],\"auto_map\":{\"AutoConfig\":"
     "\"configuration_minicpm.MiniCPMConfig\",\"AutoModel\":\"modeling_minicpm.MiniCPMModel\",\"AutoModelForCausalLM\":"
     "\"modeling_minicpm.MiniCPMForCausalLM\"},\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_act\":\"silu\","
     "\"hidden_size\":64,\"initializer_range\":0.1,\"intermediate_size\":160,\"max_position_embeddings\":2048,"
     "\"num_attention_heads\":4,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-05,"
     "\"rope_scaling\":null,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.36.0\",\"use_cache\":true,"
     "\"vocab_size\":32000,\"scale_emb\":12,\"dim_model_base\":256,\"scale_depth\":1.4}",
     MINICPM, 64, 3, 160, 32000, 4, 2, 1, LGG_TYPE_BF16,
     {"51792ea34537f200ca768c0b7ace5cad36a7048559d9f69bb1e3f3d2df654ae7", "ca9f7329f8f56e229693775f882cea2e951a017fe7c095859d84be467915c0bd", "84a866bfcf66e6e3ee5e52053d476cfa39e8ff9d960cee4f4756554cbf7a0640", "376ae1a83fcdf98ca24a4a1de1cfb3b13c27a9138bcc50c9887ece50e5abbe7c", "84a866bfcf66e6e3ee5e52053d476cfa39e8ff9d960cee4f4756554cbf7a0640"},
     "CPM-2.2M-2b-BF16.gguf", {{NULL, NULL}, {NULL, NULL}}},
    /* MiniCPM3-4B's fields: latent attention, longrope factors */
    {"MiniCPM3-tiny", "tokenizer.model tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"MiniCPM3ForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":[2,0],\"hidden_act\":\"silu\","
     "\"initializer_range\":0.1,\"hidden_size\":64,\"num_hidden_layers\":2,\"intermediate_size\":96,"
     "\"max_position_embeddings\":32768,\"num_attention_heads\":4,\"num_key_value_heads\":4,\"qk_nope_head_dim\":16,"
     "\"qk_rope_head_dim\":8,\"q_lora_rank\":48,\"kv_lora_rank\":32,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"type\":"
     "\"longrope\",\"long_factor\":[1.0591234137867171,1.1241891283591912,1.2596935748670968,1.5380380402321725],"
     "\"short_factor\":[1.0591234137867171,1.1241891283591912,1.2596935748670968,1.5380380402321725],"
     "\"original_max_position_embeddings\":32768},\"torch_dtype\":\"bfloat16\",\"vocab_size\":32000,\"scale_emb\":12,"
     "\"dim_model_base\":256,\"scale_depth\":1.4,\"use_cache\":true}",
     MINICPM3, 64, 2, 96, 32000, 4, 4, 0, LGG_TYPE_F32,
     {"538e4cd2cb9c4ff39e078083e3f14a8dd2ac4563fc05cdf46037a4c11376becb", "77d84fe790f1a0f3f2eb21d6e612d901401dd4f81610978b07a926028ee98359", "53884aa8390b6f0a9658f8880cc7e5312b3f433ab1a7a7e7c20bbac8dd19e42f", "af8c1178602a273625df6c559320b7098bcd54d24425c2fd6038a3d57b1233ad", "53884aa8390b6f0a9658f8880cc7e5312b3f433ab1a7a7e7c20bbac8dd19e42f"},
     "MiniCPM3-Tiny-4.2M-BF16.gguf", {{NULL, NULL}, {NULL, NULL}}},
    /* glm-4-9b-chat-hf's fields (GlmForCausalLM): no seq_length (the context is hidden_size), rms_norm_eps
     * not read (1e-5), a tokenizer.json */
    {"glm-4-tiny-chat-hf", "tokenizer.json",
     "{\"architectures\":[\"GlmForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.0,"
     "\"eos_token_id\":[151329,151336,151338],\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,"
     "\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":131072,\"model_type\":\"glm\","
     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":151329,"
     "\"partial_rotary_factor\":0.5,\"rms_norm_eps\":1.5625e-07,\"rope_theta\":10000.0,\"tie_word_embeddings\":false,"
     "\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.46.0.dev0\",\"use_cache\":true,\"vocab_size\":151936}",
     GLM, 32, 2, 64, 151936, 4, 2, 0, LGG_TYPE_BF16,
     {"f7efc58247f4533d63f9a50afa8f0d338afcc5d31e2eec595bc66ca1a1c6891c", "684707b44d8330c788f1239d1f2c5db08e208ffffe34693c0bdf899b3c69a60d", "96094bcf8c2249d38e47b9e2db47405da250ec628331fb839471a1f23851f3ac", "5d98d9d4407323d168ce027a05a2ed69e3b4bff659dc31005059012b15567009", "96094bcf8c2249d38e47b9e2db47405da250ec628331fb839471a1f23851f3ac"},
     "glm-4-tiny-10M-chat-hf-BF16.gguf", {{"tokenizer_config.json", GLM_TC}, {NULL, NULL}}},
    /* glm-4-9b-chat's own layout (ChatGLMModel): fused q/k/v, seq_length, rope_ratio, padded_vocab_size, its
     * rotary frequencies; a tokenizer.json and no tokenizer code */
    {"glm-4-tiny-chat", "tokenizer.json",
     "{\"_name_or_path\":\"THUDM/glm-4-9b-chat\",\"add_bias_linear\":false,\"add_qkv_bias\":true,"
     "\"apply_query_key_layer_scaling\":true,\"apply_residual_connection_post_layernorm\":false,"
     "\"architectures\":[\"ChatGLMModel\"],\"attention_dropout\":0.0,\"attention_softmax_in_fp32\":true,"
     "\"bias_dropout_fusion\":true,\"eos_token_id\":[151329,151336,151338],\"ffn_hidden_size\":48,"
     "\"fp32_residual_connection\":false,\"hidden_dropout\":0.0,\"hidden_size\":32,\"kv_channels\":8,"
     "\"layernorm_epsilon\":1.5625e-07,\"model_type\":\"chatglm\",\"multi_query_attention\":true,"
     "\"multi_query_group_num\":2,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_layers\":2,"
     "\"original_rope\":true,\"pad_token_id\":151329,\"padded_vocab_size\":151936,\"vocab_size\":151936,\"post_layer_norm\":true,"
     "\"rmsnorm\":true,\"rope_ratio\":500,\"seq_length\":131072,\"tie_word_embeddings\":false,"
     "\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.40.2\",\"use_cache\":true}",
     CHATGLM, 32, 2, 48, 151936, 4, 2, 0, LGG_TYPE_BF16,
     {"3fc72ab9db1d504da4287ded1dfad87fc2a65f667e6b446ea9249cd59ea936fe", "20b2818d5601515454139dce8ad8645dd76c360d5854e15ceaa13184c64f4e5d", "813ffbbd491c6506b123fe0f2c537e9dc30cae72896167170d7d2edc487529ca", "6054cce442035e393ae0b757e9a7cee31402d920272bd3a3794c05b532add828", "813ffbbd491c6506b123fe0f2c537e9dc30cae72896167170d7d2edc487529ca"},
     "glm-4-10M-9b-chat-BF16.gguf", {{"tokenizer_config.json", GLM_TC}, {NULL, NULL}}},
    /* flan-t5-small's fields: gated feed-forwards, its own lm_head; T5's tokenizer_config.json, an
     * added_tokens.json (one id beyond vocab_size, ignored) */
    {"flan-t5-tiny", "",
     "{\"architectures\":[\"T5ForConditionalGeneration\"],\"d_ff\":96,\"d_kv\":16,\"d_model\":64,"
     "\"decoder_start_token_id\":0,\"dense_act_fn\":\"gelu_new\",\"dropout_rate\":0.1,\"eos_token_id\":2,"
     "\"feed_forward_proj\":\"gated-gelu\",\"initializer_factor\":1.0,\"is_encoder_decoder\":true,"
     "\"is_gated_act\":true,\"layer_norm_epsilon\":1e-06,\"model_type\":\"t5\",\"n_positions\":512,"
     "\"num_decoder_layers\":2,\"num_heads\":4,\"num_layers\":2,\"output_past\":true,\"pad_token_id\":0,"
     "\"relative_attention_max_distance\":128,\"relative_attention_num_buckets\":32,\"tie_word_embeddings\":false,"
     "\"torch_dtype\":\"float32\",\"transformers_version\":\"4.23.1\",\"use_cache\":true,\"vocab_size\":416}",
     T5, 64, 2, 96, 416, 4, 4, 0, LGG_TYPE_F32,
     {"9ecc76a8d4bd503694a092d86b1255434e841c3441a91b321ff6907bd167754a", "ac44e03e30e77be04a49e9a197fe5000e18d1d43b8854887d8902c5761d555c2", "6d9e12c63c8c069377576d8e96229dca8c4bc6f45c52e8228a1d3aa71c1dcfc9", "a5c9cef67292cc27519604b00a1b792a7db9d59d8887183fe2d70b799700f87f", "6d9e12c63c8c069377576d8e96229dca8c4bc6f45c52e8228a1d3aa71c1dcfc9"},
     "Flan-T5-Tiny-226K-BF16.gguf",
     {{"tokenizer_config.json", "{\"additional_special_tokens\":[],\"eos_token\":\"</s>\",\"extra_ids\":0,"
       "\"model_max_length\":512,\"pad_token\":\"<pad>\",\"tokenizer_class\":\"T5Tokenizer\",\"unk_token\":\"<unk>\"}"},
      {"added_tokens.json", "{\"<extra_id_0>\":415,\"<extra_id_1>\":414,\"<extra_id_9>\":420,\"<sep>\":7}"}}},
    /* t5-v1_1's encoder alone (T5EncoderModel): plain wi, no n_positions (512), the embeddings as shared.weight
     * and encoder.embed_tokens.weight */
    {"t5-encoder-tiny", "",
     "{\"architectures\":[\"T5EncoderModel\"],\"d_ff\":64,\"d_kv\":8,\"d_model\":32,\"decoder_start_token_id\":0,"
     "\"dropout_rate\":0.1,\"eos_token_id\":2,\"feed_forward_proj\":\"relu\",\"initializer_factor\":1.0,"
     "\"is_encoder_decoder\":true,\"layer_norm_epsilon\":1e-06,\"model_type\":\"t5\",\"num_heads\":4,"
     "\"num_layers\":2,\"pad_token_id\":0,\"relative_attention_max_distance\":128,"
     "\"relative_attention_num_buckets\":32,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
     "\"transformers_version\":\"4.40.0\",\"use_cache\":true,\"vocab_size\":400}",
     T5_ENCODER, 32, 2, 64, 400, 4, 4, 1, LGG_TYPE_BF16,
     {"a35addd42ef42b837e1297e8e2a1c7e01b46ae0874664e058a49384f537f0d79", "d3506fd33d07ece9f66dff622f173061529f121af7722275cf87344abfd07931", "fac8173349ba677361428306a0c39ca4c0c24165453677ec58187542865e7d7b", "51058eabf68a2977aed20d285b5759e88da8282e8ce73f243d99f452947e9b0c", "fac8173349ba677361428306a0c39ca4c0c24165453677ec58187542865e7d7b"},
     "T5-Encoder-Tiny-29K-BF16.gguf", {{NULL, NULL}, {NULL, NULL}}},
};

/* The case with config.json's text `from` replaced by `to` (NULL: as it is). */
static const char *make_case_edit(const fcase *m, const char *from, const char *to);
static const char *make_case(const fcase *m) { return make_case_edit(m, NULL, NULL); }

static const char *make_case_edit(const fcase *m, const char *cfrom, const char *cto) {
    static char dir[4096];
    char from[4300], to[4300], files[256];
    /* more/ holds what tests/convert_reference.sh converts: the broken ones go elsewhere */
    snprintf(from, sizeof from, "%s/%s", scratch_dir(), cfrom ? "bad" : "more");
    mkdir(from, 0755);
    snprintf(dir, sizeof dir, "%s/%s", from, m->name);
    mkdir(dir, 0755);
    snprintf(files, sizeof files, "%s", m->tokfiles);
    for (char *save = NULL, *f = strtok_r(files, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        size_t n = 0;
        int glm = m->kind == GLM || m->kind == CHATGLM;
        snprintf(from, sizeof from, "%s/%s/%s", shared_path("golden/convert"),
                 glm ? "Qwen2.5-Tiny-Test-Instruct" : "TinyLlama-2-Test-2x32", f);
        snprintf(to, sizeof to, "%s/%s", dir, f);
        unsigned char *b = read_file(from, &n);
        if (b && glm && !strcmp(f, "tokenizer.json")) { /* GLM-4's <|user|> (its end-of-turn) added to Qwen's */
            unsigned char *z = realloc(b, n + 1); /* read_file's text is not NUL-terminated */
            char *t2 = z ? (z[n] = 0, text_replace((const char *)z, "\n  ],\n  \"normalizer\"", GLM_USER)) : NULL;
            free(z ? z : b);
            b = (unsigned char *)t2, n = t2 ? strlen(t2) : 0;
        }
        int ok = b && put(to, b, n);
        free(b);
        if (!ok) return NULL;
    }
    for (int k = -1; k < 2; k++) {
        const char *name = k < 0 ? (m->kind >= T5 ? "spiece.model" : NULL) : m->files[k][0];
        if (!name) continue;
        size_t n = 0;
        unsigned char *b = k < 0 ? read_file("tests/data/unigram-nmt-nfkc.model", &n) : (unsigned char *)strdup(m->files[k][1]);
        snprintf(to, sizeof to, "%s/%s", dir, name);
        int ok = b && put(to, b, k < 0 ? n : strlen((char *)b));
        free(b);
        if (!ok) return NULL;
    }
    snprintf(to, sizeof to, "%s/config.json", dir);
    char *config = cfrom ? text_replace(m->config, cfrom, cto) : strdup(m->config);
    int ok = config && put(to, config, strlen(config));
    free(config);
    if (!ok) return NULL;
    static ftensor t[256];
    return write_weights(dir, t, tensors(t, m), m->dtype) ? dir : NULL;
}

static const char *const Q4[] = {"Q4_K_M"}; /* the preset cv_case_shared writes with the plain types */

TEST(convert_famB_families) {
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/TinyLlama-2-Test-2x32/tokenizer.model", shared_path("golden/convert"));
    if (access(probe, R_OK) != 0) return; /* reference material absent */
    static const uint32_t types[5] = {LGG_CONVERT_F32, LGG_CONVERT_F16, LGG_CONVERT_BF16, LGG_CONVERT_Q8_0, LGG_CONVERT_AUTO};
    int same = 0, checked = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *dir = make_case(&CASES[i]);
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[i].name);
        for (int k = 0; dir && k < 5; k++) {
            /* reduced sweeps: one outtype a case, and bf16 where its default name is checked */
            if (test_reduced_sweeps() && k != (int)(i % 5) && !(k == 2 && CASES[i].bf16_name)) continue;
            checked++;
            lgg_convert_options o;
            lgg_convert_options_init(&o);
            o.outtype = types[k];
            lgg_convert *c = NULL;
            lgg_error err;
            char out[4300], hex[65] = "";
            snprintf(out, sizeof out, "%s.%d.gguf", dir, k);
            lgg_status st = lgg_convert_open(dir, &o, &c, &err);
            if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
            char dflt[256] = "";
            if (st == LGG_OK) lgg_convert_default_name(c, dflt, sizeof dflt);
            if (k == 2 && CASES[i].bf16_name)
                CHECKF(!strcmp(dflt, CASES[i].bf16_name), "%s: default name %s, reference %s", CASES[i].name, dflt, CASES[i].bf16_name);
            lgg_convert_free(c);
            CHECKF(st == LGG_OK, "%s: %s", CASES[i].name, err.message);
            size_t n = 0;
            unsigned char *b = st == LGG_OK ? read_file(out, &n) : NULL;
            if (b) sha256_hex(b, n, hex);
            const char *want = CASES[i].sha[k] ? CASES[i].sha[k] : "(none)";
            CHECKF(!strcmp(hex, want), "%s outtype %d: sha256 %s, reference %s", CASES[i].name, k, hex, want);
            same += !strcmp(hex, want);
            free(b);
            unlink(out);
        }
        if (dir) CHECK(cv_case_shared(dir, CASES[i].name, CASES[i].sha, Q4, 1)); /* one read for all the outputs */
        if (dir) cv_case_master_sweep(dir, CASES[i].name);
    }
    CHECKF(same == checked && checked >= (int)(sizeof CASES / sizeof CASES[0]), "%d of %d byte-identical to the reference",
           same, checked);
}

/* Nothing but . and .. in dir. */
static int empty_dir(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return d && !n;
}

/* A config.json without a key the family needs: exit 1, the key named,
 * nothing written. */
TEST(convert_famB_missing_keys) {
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/TinyLlama-2-Test-2x32/tokenizer.model", shared_path("golden/convert"));
    if (access(probe, R_OK) != 0) return;
    static const struct {
        size_t i;
        const char *from, *to, *key;
    } BAD[] = {
        {0, "\"norm_eps\":1e-05,", "", "'norm_eps'"},
        {2, "\"scale_emb\":12,", "", "'scale_emb'"},
        {2, "\"dim_model_base\":256,", "", "'dim_model_base'"},
        {3, "\"kv_lora_rank\":32,", "", "'kv_lora_rank'"},
        {3, "\"short_factor\"", "\"short_factors\"", "'rope_scaling.short_factor'"},
        {4, "\"vocab_size\":151936", "\"vocab_size\":1000", "vocabulary size 1000"},
        {5, "\"vocab_size\":151936,", "", "'vocab_size'"},
        {5, "\"num_hidden_layers\":2,\"num_layers\":2,", "", "'num_hidden_layers'"},
        {6, "\"decoder_start_token_id\":0,", "", "'decoder_start_token_id'"},
        {7, "\"relative_attention_num_buckets\":32,", "", "'relative_attention_num_buckets'"},
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        const char *dir = make_case_edit(&CASES[BAD[k].i], BAD[k].from, BAD[k].to);
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[BAD[k].i].name);
        if (!dir) continue;
        char outdir[4300], out[4400];
        snprintf(outdir, sizeof outdir, "%s-out", dir);
        mkdir(outdir, 0755);
        snprintf(out, sizeof out, "%s/x.gguf", outdir);
        char *err = NULL;
        int rc = run_gguf_capture(NULL, &err, "convert", dir, "-o", out, (char *)NULL);
        CHECKF(rc == 1, "%s without %s: exit %d", CASES[BAD[k].i].name, BAD[k].key, rc);
        CHECKF(err && strstr(err, BAD[k].key) && strstr(err, ".json"), "%s: message '%s' does not name %s",
               CASES[BAD[k].i].name, err ? err : "", BAD[k].key);
        CHECKF(empty_dir(outdir), "%s: something left in %s", CASES[BAD[k].i].name, outdir);
        free(err);
    }
}

#endif
