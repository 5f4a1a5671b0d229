/* test_convert_famC.c -- state-space and RNN families of issue 25 (Mamba,
 * Falcon Mamba, RWKV-6, RWKV6Qwen2), Qwen2-VL's text part, BLOOM, MPT, Baichuan and DBRX, checked against llama.cpp's convert_hf_to_gguf.py b4747
 * run outside the repo (../shared/golden/convert/reference/README.md) on
 * checkpoints this test makes again byte for byte: config.json fields of
 * the real models named (state-spaces/mamba-130m with the architecture
 * name added, mamba-130m-hf, falcon-mamba-7b, RWKV/v6-Finch-1B6-HF, QRWKV6, Qwen2-VL-2B-Instruct, bloom-560m, mpt-7b, Baichuan2-7B-Chat, dbrx-instruct), the
 * golden models' tokenizer files, a world vocabulary written here, and
 * weights from a counter-based generator (splitmix64 of the element's
 * index across the tensors in name order, scaled by 2^-29; A_log by
 * 2^-22, so its exp spans [e^-2, e^2], where torch's exp and glibc's
 * differ in about one value in twelve).  The sha256 of each
 * reference output is recorded here; remake them with
 * LGG_REF_TEST=convert_famC_families tests/convert_reference.sh. */
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

static float value(uint64_t i) {
    uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)((int64_t)(z >> 40) - (1 << 23)) * 0x1p-29f;
}

typedef struct stensor {
    char name[96];
    uint64_t d[3]; /* outermost first; 0 ends the shape */
} stensor;

static int by_name(const void *a, const void *b) { return strcmp(((const stensor *)a)->name, ((const stensor *)b)->name); }

#define T3(a, b, c, ...) (snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__), t[n].d[0] = (a), t[n].d[1] = (b), t[n].d[2] = (c), n++)

typedef struct scase {
    const char *name, *tokdir, *tokfiles, *config;
    uint64_t H, L, N, R, V; /* d_model, layers, d_state, dt_rank, embedding rows */
    int head;               /* 0: no lm_head; 1: lm_head equal to the embeddings; 2: its own values; 3: RWKV-6;
                               4: RWKV6Qwen2 (R: the MLP's width, N: key/value heads); 5: Qwen2-VL (the same);
                               6: BLOOM; 7: MPT; 8: Baichuan; 9: DBRX (N experts of R) */
    const char *embed;      /* the embeddings' name */
    uint32_t dtype;
    const char *sha[5];     /* the reference's output for f32, f16, bf16, q8_0, auto */
    const char *files[2][2]; /* files written as given (name, text) */
} scase;

static size_t mamba_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H, D = 2 * H, N = m->N, R = m->R;
    size_t n = 0;
    T3(m->V, H, 0, "%s.weight", m->embed);
    T3(H, 0, 0, "backbone.norm_f.weight");
    if (m->head) T3(m->V, H, 0, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        T3(H, 0, 0, "backbone.layers.%llu.norm.weight", b);
        T3(2 * D, H, 0, "backbone.layers.%llu.mixer.in_proj.weight", b);
        T3(D, 1, 4, "backbone.layers.%llu.mixer.conv1d.weight", b);
        T3(D, 0, 0, "backbone.layers.%llu.mixer.conv1d.bias", b);
        T3(R + 2 * N, D, 0, "backbone.layers.%llu.mixer.x_proj.weight", b);
        T3(D, R, 0, "backbone.layers.%llu.mixer.dt_proj.weight", b);
        T3(D, 0, 0, "backbone.layers.%llu.mixer.dt_proj.bias", b);
        T3(D, N, 0, "backbone.layers.%llu.mixer.A_log", b);
        T3(D, 0, 0, "backbone.layers.%llu.mixer.D", b);
        T3(H, D, 0, "backbone.layers.%llu.mixer.out_proj.weight", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* RWKV-6 (Hugging Face's names): H wide, N heads of H / N, FF the channel
 * mix's width, the time-mix low-rank sizes 32 and 64. */
static size_t rwkv_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H, FF = m->R, V = m->V;
    size_t n = 0;
    T3(V, H, 0, "rwkv.embeddings.weight");
    T3(V, H, 0, "head.weight");
    T3(H, 0, 0, "rwkv.blocks.0.pre_ln.weight");
    T3(H, 0, 0, "rwkv.blocks.0.pre_ln.bias");
    T3(H, 0, 0, "rwkv.ln_out.weight");
    T3(H, 0, 0, "rwkv.ln_out.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        static const char *const vec[] = {"attention.time_maa_x", "attention.time_maa_w", "attention.time_maa_k",
                                          "attention.time_maa_v", "attention.time_maa_r", "attention.time_maa_g",
                                          "attention.time_decay", "feed_forward.time_maa_k", "feed_forward.time_maa_r"};
        static const char *const norm[] = {"ln1", "ln2", "attention.ln_x"};
        static const char *const mat[] = {"key", "value", "receptance", "gate", "output"};
        for (size_t k = 0; k < 9; k++) T3(1, 1, H, "rwkv.blocks.%llu.%s", b, vec[k]);
        for (size_t k = 0; k < 3; k++) T3(H, 0, 0, "rwkv.blocks.%llu.%s.weight", b, norm[k]), T3(H, 0, 0, "rwkv.blocks.%llu.%s.bias", b, norm[k]);
        for (size_t k = 0; k < 5; k++) T3(H, H, 0, "rwkv.blocks.%llu.attention.%s.weight", b, mat[k]);
        T3(H, 5 * 32, 0, "rwkv.blocks.%llu.attention.time_maa_w1", b);
        T3(5, 32, H, "rwkv.blocks.%llu.attention.time_maa_w2", b);
        T3(H, 64, 0, "rwkv.blocks.%llu.attention.time_decay_w1", b);
        T3(64, H, 0, "rwkv.blocks.%llu.attention.time_decay_w2", b);
        T3(m->N, H / m->N, 0, "rwkv.blocks.%llu.attention.time_faaaa", b);
        T3(FF, H, 0, "rwkv.blocks.%llu.feed_forward.key.weight", b);
        T3(H, H, 0, "rwkv.blocks.%llu.feed_forward.receptance.weight", b);
        T3(H, FF, 0, "rwkv.blocks.%llu.feed_forward.value.weight", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* RWKV6Qwen2: Qwen2's blocks (biased q/k/v, grouped keys and values, its
 * MLP) with RWKV-6's time mix in place of attention. */
static size_t rwkv_qwen2_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H, FF = m->R, kv = m->N * (H / 4);
    size_t n = 0;
    T3(m->V, H, 0, "model.embed_tokens.weight");
    T3(m->V, H, 0, "lm_head.weight");
    T3(H, 0, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        static const char *const vec[] = {"time_maa_x", "time_maa_w", "time_maa_k", "time_maa_v", "time_maa_r", "time_maa_g",
                                          "time_decay"};
        for (size_t k = 0; k < 7; k++) T3(1, 1, H, "model.layers.%llu.self_attn.%s", b, vec[k]);
        T3(H, 0, 0, "model.layers.%llu.input_layernorm.weight", b);
        T3(H, 0, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        T3(H, H, 0, "model.layers.%llu.self_attn.q_proj.weight", b);
        T3(H, 0, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
        T3(kv, H, 0, "model.layers.%llu.self_attn.k_proj.weight", b);
        T3(kv, 0, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
        T3(kv, H, 0, "model.layers.%llu.self_attn.v_proj.weight", b);
        T3(kv, 0, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
        T3(H, H, 0, "model.layers.%llu.self_attn.o_proj.weight", b);
        T3(H, H, 0, "model.layers.%llu.self_attn.gate.weight", b);
        T3(H, 5 * 32, 0, "model.layers.%llu.self_attn.time_maa_w1", b);
        T3(5, 32, H, "model.layers.%llu.self_attn.time_maa_w2", b);
        T3(H, 64, 0, "model.layers.%llu.self_attn.time_decay_w1", b);
        T3(64, H, 0, "model.layers.%llu.self_attn.time_decay_w2", b);
        T3(FF, H, 0, "model.layers.%llu.mlp.gate_proj.weight", b);
        T3(FF, H, 0, "model.layers.%llu.mlp.up_proj.weight", b);
        T3(H, FF, 0, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* Qwen2-VL: Qwen2's text blocks (tied output) and a vision tower the
 * reference skips. */
static size_t qwen2vl_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H, FF = m->R, kv = m->N * (H / 4);
    size_t n = 0;
    T3(m->V, H, 0, "model.embed_tokens.weight");
    T3(H, 0, 0, "model.norm.weight");
    T3(3 * 48, 48, 0, "visual.blocks.0.attn.qkv.weight");
    T3(48, 0, 0, "visual.merger.ln_q.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        static const char *const p[3] = {"q", "k", "v"};
        for (int k = 0; k < 3; k++) {
            T3(k ? kv : H, H, 0, "model.layers.%llu.self_attn.%s_proj.weight", b, p[k]);
            T3(k ? kv : H, 0, 0, "model.layers.%llu.self_attn.%s_proj.bias", b, p[k]);
        }
        T3(H, H, 0, "model.layers.%llu.self_attn.o_proj.weight", b);
        T3(H, 0, 0, "model.layers.%llu.input_layernorm.weight", b);
        T3(H, 0, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        T3(FF, H, 0, "model.layers.%llu.mlp.gate_proj.weight", b);
        T3(FF, H, 0, "model.layers.%llu.mlp.up_proj.weight", b);
        T3(H, FF, 0, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* BLOOM under "transformer." (which the reference strips), no lm_head:
 * biased layer norms and projections, the fused q/k/v per head. */
static size_t bloom_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    T3(m->V, H, 0, "transformer.word_embeddings.weight");
    static const char *const ln[] = {"transformer.word_embeddings_layernorm", "transformer.ln_f"};
    for (int k = 0; k < 2; k++) T3(H, 0, 0, "%s.weight", ln[k]), T3(H, 0, 0, "%s.bias", ln[k]);
    for (unsigned long long b = 0; b < m->L; b++) {
        static const char *const nm[] = {"input_layernorm", "post_attention_layernorm"};
        static const char *const mat[] = {"self_attention.query_key_value", "self_attention.dense", "mlp.dense_h_to_4h",
                                          "mlp.dense_4h_to_h"};
        const uint64_t rows[] = {3 * H, H, 4 * H, H}, cols[] = {H, H, H, 4 * H};
        for (int k = 0; k < 2; k++)
            T3(H, 0, 0, "transformer.h.%llu.%s.weight", b, nm[k]), T3(H, 0, 0, "transformer.h.%llu.%s.bias", b, nm[k]);
        for (int k = 0; k < 4; k++)
            T3(rows[k], cols[k], 0, "transformer.h.%llu.%s.weight", b, mat[k]),
                T3(rows[k], 0, 0, "transformer.h.%llu.%s.bias", b, mat[k]);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* MPT (mpt-7b's layout): tied, no biases, the fused q/k/v. */
static size_t mpt_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    T3(m->V, H, 0, "transformer.wte.weight");
    T3(H, 0, 0, "transformer.norm_f.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        T3(H, 0, 0, "transformer.blocks.%llu.norm_1.weight", b);
        T3(H, 0, 0, "transformer.blocks.%llu.norm_2.weight", b);
        T3(3 * H, H, 0, "transformer.blocks.%llu.attn.Wqkv.weight", b);
        T3(H, H, 0, "transformer.blocks.%llu.attn.out_proj.weight", b);
        T3(4 * H, H, 0, "transformer.blocks.%llu.ffn.up_proj.weight", b);
        T3(H, 4 * H, 0, "transformer.blocks.%llu.ffn.down_proj.weight", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* Baichuan: llama's blocks with q, k and v packed in W_pack. */
static size_t baichuan_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H, FF = m->R;
    size_t n = 0;
    T3(m->V, H, 0, "model.embed_tokens.weight");
    T3(m->V, H, 0, "lm_head.weight");
    T3(H, 0, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        T3(H, 0, 0, "model.layers.%llu.input_layernorm.weight", b);
        T3(H, 0, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        T3(3 * H, H, 0, "model.layers.%llu.self_attn.W_pack.weight", b);
        T3(H, H, 0, "model.layers.%llu.self_attn.o_proj.weight", b);
        T3(FF, H, 0, "model.layers.%llu.mlp.gate_proj.weight", b);
        T3(FF, H, 0, "model.layers.%llu.mlp.up_proj.weight", b);
        T3(H, FF, 0, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* DBRX: fused q/k/v (4 heads, 2 KV heads), a router, each block's experts
 * in three tensors without .weight. */
static size_t dbrx_tensors(stensor *t, const scase *m) {
    uint64_t H = m->H, E = m->N, FF = m->R;
    size_t n = 0;
    T3(m->V, H, 0, "transformer.wte.weight");
    T3(m->V, H, 0, "lm_head.weight");
    T3(H, 0, 0, "transformer.norm_f.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        T3(H, 0, 0, "transformer.blocks.%llu.norm_attn_norm.norm_1.weight", b);
        T3(H, 0, 0, "transformer.blocks.%llu.norm_attn_norm.norm_2.weight", b);
        T3(2 * H, H, 0, "transformer.blocks.%llu.norm_attn_norm.attn.Wqkv.weight", b);
        T3(H, H, 0, "transformer.blocks.%llu.norm_attn_norm.attn.out_proj.weight", b);
        T3(E, H, 0, "transformer.blocks.%llu.ffn.router.layer.weight", b);
        T3(E * FF, H, 0, "transformer.blocks.%llu.ffn.experts.mlp.w1", b);
        T3(E * FF, H, 0, "transformer.blocks.%llu.ffn.experts.mlp.v1", b);
        T3(E * FF, H, 0, "transformer.blocks.%llu.ffn.experts.mlp.w2", b);
    }
    qsort(t, n, sizeof *t, by_name);
    return n;
}

static uint64_t elems(const stensor *t) {
    uint64_t e = 1;
    for (int k = 0; k < 3 && t->d[k]; k++) e *= t->d[k];
    return e;
}

/* model.safetensors with every tensor in dtype; the head equal to the
 * embeddings when m->head is 1. */
static int write_weights(const char *dir, const scase *m, const stensor *t, size_t n) {
    size_t es = m->dtype == LGG_TYPE_F32 ? 4 : 2, cap = 64 + n * 200, hl = 0;
    char *h = malloc(cap);
    uint64_t off = 0;
    if (!h) return 0;
    hl += (size_t)snprintf(h + hl, cap - hl, "{");
    for (size_t i = 0; i < n; i++) {
        char shape[80] = "";
        for (int k = 0; k < 3 && t[i].d[k]; k++)
            snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%llu", k ? ", " : "", (unsigned long long)t[i].d[k]);
        uint64_t b = elems(&t[i]) * es;
        hl += (size_t)snprintf(h + hl, cap - hl, "%s\"%s\": {\"dtype\": \"%s\", \"shape\": [%s], \"data_offsets\": [%llu, %llu]}",
                               i ? ", " : "", t[i].name, lgg_type_name(m->dtype), shape, (unsigned long long)off,
                               (unsigned long long)(off + b));
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
    uint64_t k = 0, embed_k = 0;
    for (size_t i = 0; i < n; i++) {
        int alog = strstr(t[i].name, ".A_log") != NULL, same = m->head == 1 && !strcmp(t[i].name, "lm_head.weight");
        if (!strncmp(t[i].name, m->embed, strlen(m->embed))) embed_k = k;
        for (uint64_t e = 0; e < elems(&t[i]); e++, k++) {
            float v = value(same ? embed_k + e : k) * (alog ? 0x1p7f : 1.0f);
            uint16_t u = m->dtype == LGG_TYPE_F16 ? lgg_f32_to_f16(v) : lgg_f32_to_bf16(v);
            if (m->dtype == LGG_TYPE_F32) fwrite(&v, 4, 1, f);
            else fwrite(&u, 2, 1, f);
        }
    }
    return fclose(f) == 0;
}

static int copy_file(const char *from, const char *to) {
    size_t n = 0;
    unsigned char *b = read_file(from, &n);
    FILE *f = b ? fopen(to, "wb") : NULL;
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f) ok &= fclose(f) == 0;
    free(b);
    return ok;
}

/* A world vocabulary (rwkv_vocab_v20230424.txt's form: id, a Python str or bytes literal, its
 * length in bytes) with the literal forms the real file has and a few more: escapes, both
 * quotes, spaces, raw UTF-8, \\u and \\U, octal, bytes beyond ASCII. */
#define WORLD_VOCAB                                                                                          \
    "1 '\\x00' 1\n2 '\\x01' 1\n3 '\\t' 1\n4 '\\n' 1\n5 ' ' 1\n6 '!' 1\n7 '\"' 1\n8 \"'\" 1\n9 '\\\\' 1\n" \
    "10 'a' 1\n11 ' the' 4\n12 'a b' 3\n13 '\\'\"' 2\n14 '\\u3000' 3\n15 '\xe4\xbd\xa0\xe5\xa5\xbd' 6\n"        \
    "16 b'\\x80' 1\n17 b'\\xe4\\xbd' 2\n18 b\"'\" 1\n19 '\\r\\n' 2\n20 '\\x7f' 1\n21 '\xc3\xa9' 2\n"        \
    "22 '\\U0001f600' 4\n23 b'a\\\\b' 3\n24 '\\101' 1\n"

/* RWKV/v6-Finch-1B6-HF's config.json, shrunk; its tokenizer_config.json with MORE fields. */
#define RWKV6_TINY_CONFIG                                                                                             \
    "{\"architectures\":[\"Rwkv6ForCausalLM\"],\"attention_hidden_size\":64,\"bos_token_id\":0,\"eos_token_id\":0,"  \
    "\"head_size\":16,\"head_size_divisor\":8,\"hidden_size\":64,\"intermediate_size\":null,\"layer_norm_epsilon\":1e-05," \
    "\"model_type\":\"rwkv6\",\"num_attention_heads\":4,\"num_hidden_layers\":3,\"rescale_every\":2,"                   \
    "\"tie_word_embeddings\":false,\"transformers_version\":\"4.34.0\",\"use_cache\":true,\"vocab_size\":96}"
#define RWKV6_TC(MORE)                                                                                                \
    "{\"add_bos_token\":false,\"add_prefix_space\":false,\"bos_token\":\"<s>\",\"eos_token\":\"<s>\",\"unk_token\":\"<s>\","   \
    "\"tokenizer_class\":\"Rwkv6Tokenizer\"" MORE "}"

static const scase CASES[] = {
    /* state-spaces/mamba-130m's config (no architectures there: users add it), its names
     * (backbone.embedding), its head equal to the embeddings (dropped), a vocabulary padded from
     * 31995 to 32000 (SentencePiece), d_inner and dt_rank from their defaults */
    {"mamba-tiny-ssm", "TinyLlama-2-Test-2x32", "tokenizer.model",
     "{\"architectures\":[\"MambaLMHeadModel\"],\"d_model\":32,\"n_layer\":2,\"vocab_size\":31995,\"ssm_cfg\":{},"
     "\"rms_norm\":true,\"residual_in_fp32\":true,\"fused_add_norm\":true,\"pad_vocab_size_multiple\":8}",
     32, 2, 16, 2, 32000, 1, "backbone.embedding", LGG_TYPE_F32, 
     {"b950ce386a1480e6f429776225f7f3986f380cea4843832f9646e415e7421e09", "01d3c1e9abc697ddfcb490925a1cd83f17dda3f6cd02c508355f218f19f7f9f6", "ef48d2c5ce80b0caf3b0e286d28d329b5bd101b4b18ca8947448a0244f7dc829", "768c6bac7ecdf96c8eb0836ebd1fa9ef7827be8498f78bc75feb501b9e33920d", "ef48d2c5ce80b0caf3b0e286d28d329b5bd101b4b18ca8947448a0244f7dc829"}, {{NULL, NULL}, {NULL, NULL}}},
    /* mamba-130m-hf's config.json: tied (no lm_head in the checkpoint), BPE vocabulary */
    {"mamba-tiny-hf", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"MambaForCausalLM\"],\"bos_token_id\":0,\"conv_kernel\":4,\"eos_token_id\":0,\"expand\":2,"
     "\"fused_add_norm\":true,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.1,\"intermediate_size\":64,"
     "\"layer_norm_epsilon\":1e-05,\"model_type\":\"mamba\",\"n_layer\":2,\"num_hidden_layers\":2,\"pad_token_id\":0,"
     "\"pad_vocab_size_multiple\":8,\"rescale_prenorm_residual\":false,\"residual_in_fp32\":true,\"rms_norm\":true,"
     "\"state_size\":8,\"time_step_floor\":0.0001,\"time_step_init_scheme\":\"random\",\"time_step_max\":0.1,"
     "\"time_step_min\":0.001,\"time_step_rank\":4,\"time_step_scale\":1.0,\"torch_dtype\":\"float32\","
     "\"transformers_version\":\"4.39.0.dev0\",\"use_bias\":false,\"use_cache\":true,\"use_conv_bias\":true,"
     "\"vocab_size\":151936}",
     32, 2, 8, 4, 151936, 0, "backbone.embeddings", LGG_TYPE_F32, 
     {"f602d1944845867f03e2e33fcac55a92eaf7063c3087c652e831625ab30fbabf", "facddf1c18735c22ab9675d4c9644d705bf5ad78527c99248d02bf6a0727d1d4", "5692cde39bcb5173902c4802c635382a042167f321dd43d7caef4538775a0fe2", "65d8095d3f7a77b95674741e2f12adac62f3a343849792402ee83a0c1a67bd74", "5692cde39bcb5173902c4802c635382a042167f321dd43d7caef4538775a0fe2"}, {{NULL, NULL}, {NULL, NULL}}},
    /* falcon-mamba-7b's config.json: B/C/dt norms, its own head, bf16 */
    {"falcon-mamba-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"FalconMambaForCausalLM\"],\"bos_token_id\":0,\"conv_kernel\":4,\"eos_token_id\":11,\"expand\":16,"
     "\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.1,\"intermediate_size\":64,\"layer_norm_epsilon\":1e-05,"
     "\"mixer_rms_eps\":1e-06,\"model_type\":\"falcon_mamba\",\"num_hidden_layers\":2,\"pad_token_id\":11,"
     "\"rescale_prenorm_residual\":false,\"residual_in_fp32\":true,\"state_size\":16,\"tie_word_embeddings\":false,"
     "\"time_step_floor\":0.0001,\"time_step_init_scheme\":\"random\",\"time_step_max\":0.1,\"time_step_min\":0.001,"
     "\"time_step_rank\":2,\"time_step_scale\":1.0,\"torch_dtype\":\"bfloat16\",\"use_bias\":false,\"use_cache\":true,"
     "\"use_conv_bias\":true,\"vocab_size\":151936}",
     32, 2, 16, 2, 151936, 2, "backbone.embeddings", LGG_TYPE_BF16, 
     {"f91ad6c631a2ae9b572b1d3b96a9e715f6132ca1fedff4cdc4efc914019b8a54", "d534f3543a11b755be1492986517f0bbb0f93d9e13a7773a85588ac8a3a1fe28", "c492b9e95f3d8ea015ab57e31b1d113071224c52b4172acde5eb1db0c36913ea", "51a2ec30812a7bed8353d7d200618f87abe088ef7920a6198afe3bedf08a5465", "c492b9e95f3d8ea015ab57e31b1d113071224c52b4172acde5eb1db0c36913ea"}, {{NULL, NULL}, {NULL, NULL}}},
    /* RWKV/v6-Finch-1B6-HF's config.json (intermediate_size null: the reference's 3.5 x hidden_size, in
     * multiples of 32), three blocks with rescale_every 2 (the third block's output and value halved),
     * the world vocabulary above, a chat template and add_bos_token the reference puts after its eot */
    {"rwkv6-tiny-world", "TinyLlama-2-Test-2x32", "",
     RWKV6_TINY_CONFIG,
     64, 3, 4, 224, 96, 3, "rwkv.embeddings", LGG_TYPE_BF16,
     {"6df92c99c4d0d3a59af4d94ce3aabec5d2512f254690172dd9679f4157de3c5b", "08e01a6fb86eabcadd99ec03643d28529c138177edfd07b31e9eaf534738eb74", "2c29af384d12aa42a2bad0c4c93d223271e3b8b68f9311e67b6566df038d8fb0", "e08df4966bedeaa43854700b92cc67d23fae93da3cffefb8d2be70ebab0c23ee", "2c29af384d12aa42a2bad0c4c93d223271e3b8b68f9311e67b6566df038d8fb0"},
     {{"rwkv_vocab_v20230424.txt", WORLD_VOCAB},
      {"tokenizer_config.json", RWKV6_TC(",\"chat_template\":\"{{ messages }}\"")}}},
    /* the same without a chat template: b4747 writes "rwkv-world", master its llama-cpp-rwkv-world.jinja */
    {"rwkv6-tiny-world-no-template", "TinyLlama-2-Test-2x32", "",
     RWKV6_TINY_CONFIG,
     64, 3, 4, 224, 96, 3, "rwkv.embeddings", LGG_TYPE_BF16,
     {"fac77cac0143df3cb62a7f9ca587b31ff08450c21d85dd96c6c700bd65ab9adb", "6f2016790a2053808a02fcca954f2e6246b64f011a801cda7e4dd6c523e4fbc1", "d428681385df6c8a46b4b3ea0408deec21abf1a745624720d0293fcf6ab4dc3c", "b5b56bad29a0f34c4083ae4c9e98c07714c45a30d5ca8b29f33a6932a6923f9e", "d428681385df6c8a46b4b3ea0408deec21abf1a745624720d0293fcf6ab4dc3c"},
     {{"rwkv_vocab_v20230424.txt", WORLD_VOCAB},
      {"tokenizer_config.json", RWKV6_TC("")}}},
    /* recursal's QRWKV6 config.json fields (no rescale_every: nothing divided), Qwen2.5's BPE vocabulary;
     * w1 and w2 reordered r, k, v, w, g */
    {"QRWKV6-tiny-Instruct", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"RWKV6Qwen2ForCausalLM\"],\"attention_bias\":true,\"attention_output_bias\":false,"
     "\"bos_token_id\":151643,\"eos_token_id\":151645,\"gate_rank_type\":1,\"head_size\":8,\"hidden_act\":\"silu\","
     "\"hidden_size\":32,\"intermediate_size\":128,\"lora_rank_decay\":64,\"lora_rank_tokenshift\":32,"
     "\"max_position_embeddings\":32768,\"model_type\":\"rwkv6qwen2\",\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
     "\"use_cache\":true,\"vocab_size\":151936}",
     32, 2, 2, 128, 151936, 4, "model.embed_tokens", LGG_TYPE_BF16,
     {"f601624749805625646e9b2573ab95cc7ac48bdd969b317c43b8298c201c7fda", "7decf033c0c7bd34c17ce6e10bf2f22255b1e65336621640a6beddbe0ba69417", "2e1750e5a5b2b7b1d013f20fb07b27058fb8a109dc782e9d050ce523c25e182f", "ae671770beed3534304d967fd7f2c48283303773d0e170eae691e1f1f26f1f12", "2e1750e5a5b2b7b1d013f20fb07b27058fb8a109dc782e9d050ce523c25e182f"},
     {{NULL, NULL}, {NULL, NULL}}},
    /* Qwen2-VL-2B-Instruct's config.json (tied, multimodal rope sections padded to four), its vision
     * tower skipped */
    {"Qwen2-VL-tiny-Instruct", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"Qwen2VLForConditionalGeneration\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,"
     "\"eos_token_id\":151645,\"vision_start_token_id\":151652,\"vision_end_token_id\":151653,\"vision_token_id\":151654,"
     "\"image_token_id\":151655,\"video_token_id\":151656,\"hidden_act\":\"silu\",\"hidden_size\":32,"
     "\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":32768,\"max_window_layers\":28,"
     "\"model_type\":\"qwen2_vl\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,"
     "\"rms_norm_eps\":1e-06,\"rope_theta\":1000000.0,\"sliding_window\":32768,\"tie_word_embeddings\":true,"
     "\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.41.2\",\"use_cache\":true,\"use_sliding_window\":false,"
     "\"vision_config\":{\"depth\":32,\"embed_dim\":1280,\"mlp_ratio\":4,\"num_heads\":16,\"in_chans\":3,"
     "\"hidden_size\":1536,\"patch_size\":14,\"spatial_merge_size\":2,\"spatial_patch_size\":14,\"temporal_patch_size\":2},"
     "\"rope_scaling\":{\"type\":\"mrope\",\"mrope_section\":[1,1,2]},\"vocab_size\":151936}",
     32, 2, 2, 64, 151936, 5, "model.embed_tokens", LGG_TYPE_BF16,
     {"d002b3e6e8f8db5d924b966249716cbc4087c42b559293c9be5d757759f62ac8", "014e715e048126a716d94916e365d1e7580297e2088f6c5f4f08a9806ad12e49", "447e2015fa67eca5d29a472527098d8176a05b896ade9a92e3d2c8c9b1c9283b", "f8bf478274a1404317ee1463306f631f57f2a1e36c0f6b42910b8642b4a7ba1c", "447e2015fa67eca5d29a472527098d8176a05b896ade9a92e3d2c8c9b1c9283b"},
     {{NULL, NULL}, {NULL, NULL}}},
    /* bloom-560m's config.json (no seq_length: the context is the width, as the reference writes it;
     * f16), "transformer." names, no lm_head: the embeddings written again as the output */
    {"bloom-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json",
     "{\"apply_residual_connection_post_layernorm\":false,\"architectures\":[\"BloomForCausalLM\"],\"attention_dropout\":0.0,"
     "\"attention_softmax_in_fp32\":true,\"bias_dropout_fusion\":true,\"bos_token_id\":1,\"eos_token_id\":2,"
     "\"hidden_dropout\":0.0,\"hidden_size\":32,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,"
     "\"masked_softmax_fusion\":true,\"model_type\":\"bloom\",\"n_head\":4,\"n_inner\":null,\"n_layer\":2,"
     "\"offset_alibi\":100,\"pad_token_id\":3,\"pretraining_tp\":1,\"skip_bias_add\":true,\"skip_bias_add_qkv\":false,"
     "\"slow_but_exact\":false,\"torch_dtype\":\"float16\",\"transformers_version\":\"4.21.0\",\"unk_token_id\":0,"
     "\"use_cache\":true,\"vocab_size\":151936}",
     32, 2, 0, 0, 151936, 6, "transformer.word_embeddings", LGG_TYPE_F16,
     {"d204a30225330c809885ec0607bf94427e7cc3008364e01cbbd7af6695be248b", "e1ed2c6602620c156b8cf15682b4d67c91b246ac44c179578835a67d2e6fcfb4", "ecba9c1f980fa29e02d473275804fcae45cc9a8cb6747135dfa7e44c5d5b4345", "2eea70f53dbdc45fdfc68e0ee502d0d0728daada787cdf4b0c3c478faa0e15ad", "e1ed2c6602620c156b8cf15682b4d67c91b246ac44c179578835a67d2e6fcfb4"},
     {{NULL, NULL}, {NULL, NULL}}},
    /* mpt-7b's config.json with clip_qkv set (written as attention.clamp_kqv), ALiBi's maximum bias, no
     * kv_n_heads; no general.file_type (the reference's MPT writes none) */
    {"mpt-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"MPTForCausalLM\"],\"attn_config\":{\"alibi\":true,\"alibi_bias_max\":8,\"attn_impl\":\"torch\","
     "\"attn_pdrop\":0,\"attn_type\":\"multihead_attention\",\"attn_uses_sequence_id\":false,\"clip_qkv\":6.0,"
     "\"prefix_lm\":false,\"qk_ln\":false,\"softmax_scale\":null},\"d_model\":32,\"emb_pdrop\":0,\"embedding_fraction\":1.0,"
     "\"expansion_ratio\":4,\"init_device\":\"cpu\",\"learned_pos_emb\":true,\"logit_scale\":null,\"max_seq_len\":2048,"
     "\"model_type\":\"mpt\",\"n_heads\":4,\"n_layers\":2,\"no_bias\":true,\"norm_type\":\"low_precision_layernorm\","
     "\"resid_pdrop\":0,\"tokenizer_name\":\"EleutherAI/gpt-neox-20b\",\"torch_dtype\":\"bfloat16\","
     "\"transformers_version\":\"4.28.1\",\"use_cache\":false,\"verbose\":0,\"vocab_size\":151936}",
     32, 2, 0, 0, 151936, 7, "transformer.wte", LGG_TYPE_BF16,
     {"1e9a1d8ee81038cec30e17c597ee6ecc10f2e28b98cf4db3c2d3f2df1dcde7aa", "bdefd7aecdcf85a27cc048f45b19ac20a0094ccae7fc8d69aff80dddd5bd15c8", "b8eb1cd454a4c0aa19f5130d4ef66e46aa369ef9afaf6c64a84472733dbb4b00", "ed04c85ad0c9bbf2c169f9b65a83c5f103012e2670b66063a5e551a1e573ff83", "b8eb1cd454a4c0aa19f5130d4ef66e46aa369ef9afaf6c64a84472733dbb4b00"},
     {{NULL, NULL}, {NULL, NULL}}},
    /* Baichuan2-7B-Chat's config.json (the context from model_max_length), SentencePiece */
    {"Baichuan2-tiny-Chat", "TinyLlama-2-Test-2x32", "tokenizer.model",
     "{\"architectures\":[\"BaichuanForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_act\":\"silu\","
     "\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"model_max_length\":4096,"
     "\"model_type\":\"baichuan\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"pad_token_id\":0,"
     "\"rms_norm_eps\":1e-06,\"tie_word_embeddings\":false,\"tokenizer_class\":\"BaichuanTokenizer\","
     "\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.29.2\",\"use_cache\":true,\"vocab_size\":32000,"
     "\"z_loss_weight\":0}",
     32, 2, 0, 64, 32000, 8, "model.embed_tokens", LGG_TYPE_BF16,
     {"47249516ea0073d12b50027e7101865bb7177194a229f5e05461c10bdd176e27", "12a27d721544525daec5cc23e7e836c473ffeb815b55e40e4eaa4cd79e92e72f", "c537861f987a5d2c58e77687adfa5f674898dc900fdf0ece5922c2a816f42706", "d03c79f80dbbdd25d1c93652ff07fb06c4ad3be20004713bbeb8e85bcc5e26aa", "c537861f987a5d2c58e77687adfa5f674898dc900fdf0ece5922c2a816f42706"},
     {{NULL, NULL}, {NULL, NULL}}},
    /* dbrx-instruct's config.json: 4 experts of 64 (2 used), clip_qkv, rope_theta */
    {"dbrx-tiny-instruct", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"DbrxForCausalLM\"],\"attn_config\":{\"clip_qkv\":8,\"kv_n_heads\":2,\"model_type\":\"\","
     "\"rope_theta\":500000},\"d_model\":32,\"emb_pdrop\":0.0,\"ffn_config\":{\"ffn_hidden_size\":64,\"model_type\":\"\","
     "\"moe_jitter_eps\":0,\"moe_loss_weight\":0.05,\"moe_num_experts\":4,\"moe_top_k\":2},\"initializer_range\":0.02,"
     "\"max_seq_len\":32768,\"model_type\":\"dbrx\",\"n_heads\":4,\"n_layers\":2,\"output_router_logits\":false,"
     "\"resid_pdrop\":0.0,\"router_aux_loss_coef\":0.05,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
     "\"transformers_version\":\"4.38.2\",\"use_cache\":true,\"vocab_size\":151936}",
     32, 2, 4, 64, 151936, 9, "transformer.wte", LGG_TYPE_BF16,
     {"e9179e5899935a77564c88c4a92461041d385cd34df4c9547b47ff63298c6908", "9fbae8c7a75f2b8509b67d1db8c394a95cd50e9016e89e5a8d436ceec1ce627c", "d292f9b2047e5af7c08a2e302e15453382716fdaf44d37f296139566a536f9d4", "f27770f1a0aeea59d240cdd61aa9241faae8572a86057739a78c80b5282b548e", "d292f9b2047e5af7c08a2e302e15453382716fdaf44d37f296139566a536f9d4"},
     {{NULL, NULL}, {NULL, NULL}}}
};

/* The checkpoint in scratch_dir()/more/NAME (what tests/convert_reference.sh reads); its path or NULL. */
static const char *make_case(const scase *m, const char *config) {
    static char dir[4096];
    char from[4300], to[4300], files[256];
    snprintf(dir, sizeof dir, "%s/more", scratch_dir());
    mkdir(dir, 0755);
    snprintf(dir, sizeof dir, "%s/more/%s", scratch_dir(), m->name);
    mkdir(dir, 0755);
    snprintf(files, sizeof files, "%s", m->tokfiles);
    for (char *save = NULL, *f = strtok_r(files, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        snprintf(from, sizeof from, "%s/%s/%s", shared_path("golden/convert"), m->tokdir, f);
        snprintf(to, sizeof to, "%s/%s", dir, f);
        if (!copy_file(from, to)) return NULL;
    }
    for (int k = -1; k < 2; k++) {
        const char *name = k < 0 ? "config.json" : m->files[k][0], *text = k < 0 ? config : m->files[k][1];
        if (!name) continue;
        snprintf(to, sizeof to, "%s/%s", dir, name);
        FILE *c = fopen(to, "w");
        if (!c) return NULL;
        fputs(text, c);
        fclose(c);
    }
    static stensor t[256];
    size_t n = m->head == 9   ? dbrx_tensors(t, m)
               : m->head == 8 ? baichuan_tensors(t, m)
               : m->head == 7 ? mpt_tensors(t, m)
               : m->head == 6 ? bloom_tensors(t, m)
               : m->head == 5 ? qwen2vl_tensors(t, m)
               : m->head == 4 ? rwkv_qwen2_tensors(t, m)
               : m->head == 3 ? rwkv_tensors(t, m)
                              : mamba_tensors(t, m);
    return write_weights(dir, m, t, n) ? dir : NULL;
}

TEST(convert_famC_families) {
    if (!cv_case_material("TinyLlama-2-Test-2x32/tokenizer.model")) return; /* reference material absent */
    int same = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        same += cv_case_run(make_case(&CASES[i], CASES[i].config), CASES[i].name, CASES[i].sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes() * (int)(sizeof CASES / sizeof CASES[0]), "%d of %d byte-identical to the reference", same,
           cv_case_outtypes() * (int)(sizeof CASES / sizeof CASES[0]));
}

/* A config without what the family needs names the field; no tokenizer
 * file names the reference's fallback that is not here. */
TEST(convert_famC_refusals) {
    if (!cv_case_material("TinyLlama-2-Test-2x32/tokenizer.model")) return;
    static const struct {
        const char *config, *want;
    } BAD[] = {
        {"{\"architectures\":[\"MambaForCausalLM\"],\"num_hidden_layers\":2,\"vocab_size\":32000}", "'hidden_size'"},
        {"{\"architectures\":[\"MambaForCausalLM\"],\"hidden_size\":32,\"num_hidden_layers\":2}", "'vocab_size'"},
        {"{\"architectures\":[\"MambaForCausalLM\"],\"hidden_size\":32,\"intermediate_size\":96,\"num_hidden_layers\":2,"
         "\"vocab_size\":32000}",
         "'intermediate_size' 96 is not 2 * hidden_size"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        const char *dir = make_case(&CASES[0], BAD[i].config);
        CHECK(dir != NULL);
        lgg_convert *c = NULL;
        lgg_error err;
        CHECK(dir && lgg_convert_open(dir, NULL, &c, &err) != LGG_OK && c == NULL);
        CHECKF(dir && strstr(err.message, BAD[i].want), "message '%s' lacks %s", err.message, BAD[i].want);
    }
    const scase *rwkv = &CASES[3];
    const char *rdir = make_case(rwkv, "{\"architectures\":[\"Rwkv6ForCausalLM\"],\"hidden_size\":64,\"num_hidden_layers\":3,"
                                       "\"layer_norm_epsilon\":1e-05,\"rescale_every\":2,\"intermediate_size\":null}");
    lgg_convert *rc = NULL;
    lgg_error rerr;
    CHECK(rdir && lgg_convert_open(rdir, NULL, &rc, &rerr) == LGG_ERR_INVALID && rc == NULL);
    CHECKF(strstr(rerr.message, "key 'head_size' is missing"), "message: %s", rerr.message);
    char path[4300];
    rdir = make_case(rwkv, rwkv->config);
    snprintf(path, sizeof path, "%s/rwkv_vocab_v20230424.txt", rdir ? rdir : "");
    unlink(path);
    CHECK(rdir && lgg_convert_open(rdir, NULL, &rc, &rerr) == LGG_ERR_IO && rc == NULL);
    CHECKF(strstr(rerr.message, "rwkv_vocab_v20230424.txt: no such file"), "message: %s", rerr.message);
    const char *dir = make_case(&CASES[0], CASES[0].config);
    snprintf(path, sizeof path, "%s/tokenizer.model", dir ? dir : "");
    unlink(path);
    lgg_convert *c = NULL;
    lgg_error err;
    CHECK(dir && lgg_convert_open(dir, NULL, &c, &err) == LGG_ERR_UNSUPPORTED);
    CHECKF(strstr(err.message, "no tokenizer.json or tokenizer.model"), "message: %s", err.message);
}

#endif
