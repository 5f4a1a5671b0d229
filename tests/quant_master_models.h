/* quant_master_models.h -- the tiny models (and their importance matrices)
 * that llama.cpp master's llama-quantize and `gguf quantize` are compared on:
 * made from seeds by the harness that records master's outputs
 * (scripts/quantize_master_models.c, run by scripts/golden-quantize-master.sh)
 * and by the test that checks ours (tests/test_quant_master.c), so both
 * quantize the same files.  Static functions over libgguf's writer; a change
 * here changes every reference in tests/data/quantize-master.tsv. */
#ifndef LGG_QUANT_MASTER_MODELS_H
#define LGG_QUANT_MASTER_MODELS_H
#include "libgguf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct qmm_model {
    const char *name; /* file name stem */
    const char *arch;
    int n_layer, n_embd, n_ff, n_head, n_head_kv, n_vocab, n_expert;
    int fused_qkv; /* attn_qkv.weight instead of attn_q/k/v */
    int tied;      /* no output.weight */
} qmm_model;

/* dense llama with grouped-query attention; rows of 192 (Q1_0 refuses,
 * the K-types fall back) and tied embeddings; a llama MoE; phi3's fused
 * attn_qkv; then the rules that look at more than names: falcon's (its
 * output always Q8_0, its own attn_v/ffn_down steps), eight experts or more
 * (attn_k/attn_v raised), and llama's 70B (80 layers with grouped-query
 * attention) */
static const qmm_model QMM_MODELS[] = {
    {"dense", "llama", 4, 256, 256, 4, 1, 32, 0, 0, 0},
    {"odd", "llama", 2, 192, 320, 3, 3, 32, 0, 0, 1},
    {"moe", "llama", 2, 256, 128, 4, 1, 32, 4, 0, 0},
    {"fused", "phi3", 3, 256, 256, 4, 4, 32, 0, 1, 0},
    {"falcon", "falcon", 3, 256, 256, 4, 1, 32, 0, 1, 0},
    {"moe8", "llama", 2, 256, 128, 4, 1, 32, 8, 0, 0},
    {"llama70", "llama", 80, 256, 256, 8, 1, 32, 0, 0, 0},
};
#define QMM_N_MODELS (sizeof QMM_MODELS / sizeof QMM_MODELS[0])

static inline uint64_t qmm_mix(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static inline uint64_t qmm_seed(const char *name) {
    uint64_t s = UINT64_C(0xcbf29ce484222325);
    for (const char *p = name; *p; p++) s = (s ^ (uint8_t)*p) * UINT64_C(0x100000001b3);
    return s;
}

/* n values from the name's seed: a sum of three uniforms (roughly normal),
 * scaled by 0.02, with one value in 97 ten times larger (outliers) */
static float *qmm_values(const char *name, size_t n) {
    float *x = malloc(n * sizeof *x + 1);
    if (!x) return NULL;
    uint64_t s = qmm_seed(name);
    for (size_t i = 0; i < n; i++) {
        double u = 0;
        for (int k = 0; k < 3; k++) u += (double)(qmm_mix(&s) >> 11) / 9007199254740992.0 - 0.5;
        x[i] = (float)(u * 0.02 * (qmm_mix(&s) % 97 == 0 ? 10.0 : 1.0));
    }
    return x;
}

#define QMM_MAX_TENSORS 1024 /* llama70's 80 layers hold 723 */
typedef struct qmm_tensor {
    char name[64];
    int64_t ne[3];
} qmm_tensor;

/* The model's tensors, in the order written; returns the count (<= cap). */
static inline int qmm_tensors(const qmm_model *m, qmm_tensor *t, int cap) {
    int n = 0;
    const int64_t e = m->n_embd, hd = m->n_embd / m->n_head, kv = hd * m->n_head_kv;
#define QMM_T(nm, a, b, c)                                                                                       \
    do {                                                                                                         \
        if (n < cap) {                                                                                           \
            snprintf(t[n].name, sizeof t[n].name, "%s", nm);                                                     \
            t[n].ne[0] = (a), t[n].ne[1] = (b), t[n].ne[2] = (c);                                                \
            n++;                                                                                                 \
        }                                                                                                        \
    } while (0)
    QMM_T("token_embd.weight", e, m->n_vocab, 1);
    QMM_T("output_norm.weight", e, 1, 1);
    if (!m->tied) QMM_T("output.weight", e, m->n_vocab, 1);
    for (int l = 0; l < m->n_layer; l++) {
        char b[64];
#define QMM_L(suffix, a, bb, c)                                                                                  \
    do {                                                                                                         \
        snprintf(b, sizeof b, "blk.%d.%s", l, suffix);                                                           \
        QMM_T(b, a, bb, c);                                                                                      \
    } while (0)
        QMM_L("attn_norm.weight", e, 1, 1);
        if (m->fused_qkv) {
            QMM_L("attn_qkv.weight", e, e + 2 * kv, 1);
        } else {
            QMM_L("attn_q.weight", e, e, 1);
            QMM_L("attn_k.weight", e, kv, 1);
            QMM_L("attn_v.weight", e, kv, 1);
        }
        QMM_L("attn_output.weight", e, e, 1);
        QMM_L("ffn_norm.weight", e, 1, 1);
        if (m->n_expert > 1) {
            QMM_L("ffn_gate_inp.weight", e, m->n_expert, 1);
            QMM_L("ffn_gate_exps.weight", e, m->n_ff, m->n_expert);
            QMM_L("ffn_up_exps.weight", e, m->n_ff, m->n_expert);
            QMM_L("ffn_down_exps.weight", m->n_ff, e, m->n_expert);
        } else if (m->fused_qkv) { /* phi3: gate and up fused too */
            QMM_L("ffn_up.weight", e, 2 * m->n_ff, 1);
            QMM_L("ffn_down.weight", m->n_ff, e, 1);
        } else {
            QMM_L("ffn_gate.weight", e, m->n_ff, 1);
            QMM_L("ffn_up.weight", e, m->n_ff, 1);
            QMM_L("ffn_down.weight", m->n_ff, e, 1);
        }
#undef QMM_L
    }
#undef QMM_T
    return n;
}

static inline int qmm_set_u32(lgg_writer *w, const qmm_model *m, const char *suffix, uint32_t v) {
    char key[96];
    snprintf(key, sizeof key, "%s.%s", m->arch, suffix);
    return lgg_writer_set_u32(w, key, v, NULL) == LGG_OK;
}

/* Write model m (f32 tensors) to path; 1 on success. */
static inline int qmm_write_model(const qmm_model *m, const char *path) {
    lgg_writer *w = NULL;
    if (lgg_writer_create(NULL, &w, NULL) != LGG_OK) return 0;
    char key[96]; /* falcon's norms are layer norms: its loader reads layer_norm_epsilon */
    snprintf(key, sizeof key, "%s.attention.%s", m->arch, strcmp(m->arch, "falcon") ? "layer_norm_rms_epsilon" : "layer_norm_epsilon");
    int ok = lgg_writer_set_str(w, "general.architecture", m->arch, NULL) == LGG_OK &&
             lgg_writer_set_str(w, "general.name", m->name, NULL) == LGG_OK &&
             qmm_set_u32(w, m, "context_length", 256) && qmm_set_u32(w, m, "embedding_length", (uint32_t)m->n_embd) &&
             qmm_set_u32(w, m, "feed_forward_length", (uint32_t)m->n_ff) &&
             qmm_set_u32(w, m, "block_count", (uint32_t)m->n_layer) &&
             qmm_set_u32(w, m, "attention.head_count", (uint32_t)m->n_head) &&
             qmm_set_u32(w, m, "attention.head_count_kv", (uint32_t)m->n_head_kv) &&
             qmm_set_u32(w, m, "rope.dimension_count", (uint32_t)(m->n_embd / m->n_head)) &&
             qmm_set_u32(w, m, "vocab_size", (uint32_t)m->n_vocab) &&
             lgg_writer_set_f32(w, key, 1e-5f, NULL) == LGG_OK;
    if (ok && m->n_expert > 1)
        ok = qmm_set_u32(w, m, "expert_count", (uint32_t)m->n_expert) && qmm_set_u32(w, m, "expert_used_count", 2);
    qmm_tensor *t = calloc(QMM_MAX_TENSORS, sizeof *t);
    float **bufs = calloc(QMM_MAX_TENSORS, sizeof *bufs);
    const int n = t && bufs ? qmm_tensors(m, t, QMM_MAX_TENSORS) : 0;
    ok = ok && t && bufs;
    for (int i = 0; ok && i < n; i++) {
        const size_t ne = (size_t)(t[i].ne[0] * t[i].ne[1] * t[i].ne[2]);
        bufs[i] = qmm_values(t[i].name, ne);
        const uint32_t nd = t[i].ne[2] > 1 ? 3 : t[i].ne[1] > 1 ? 2 : 1;
        ok = bufs[i] && lgg_writer_add_tensor_buffer(w, t[i].name, strlen(t[i].name), nd, t[i].ne, LGG_TYPE_F32,
                                                     bufs[i], ne * sizeof(float), LGG_LITTLE_ENDIAN, NULL) == LGG_OK;
    }
    lgg_write_options wo;
    lgg_write_options_init(&wo);
    wo.flags |= LGG_WRITE_NO_SYNC;
    ok = ok && lgg_writer_write_file(w, path, &wo, NULL) == LGG_OK;
    for (int i = 0; i < n; i++) free(bufs[i]);
    free(bufs), free(t);
    lgg_writer_free(w);
    return ok;
}

static inline void qmm_put_i32(FILE *f, int32_t v) { fwrite(&v, 4, 1, f); }

/* Write model m's importance matrix (llama.cpp's legacy .dat: every 2-d and
 * 3-d matrix but token_embd, positive values from the name's seed, 10 calls,
 * 10 chunks, dataset "qmm") to path; 1 on success. */
static inline int qmm_write_imatrix(const qmm_model *m, const char *path) {
    qmm_tensor *t = calloc(QMM_MAX_TENSORS, sizeof *t);
    const int n = t ? qmm_tensors(m, t, QMM_MAX_TENSORS) : 0;
    int k = 0;
    for (int i = 0; i < n; i++) k += t[i].ne[1] > 1 && strcmp(t[i].name, "token_embd.weight") != 0;
    FILE *f = t ? fopen(path, "wb") : NULL;
    if (!f) return free(t), 0;
    qmm_put_i32(f, k);
    for (int i = 0; i < n; i++) {
        if (t[i].ne[1] <= 1 || !strcmp(t[i].name, "token_embd.weight")) continue;
        const int32_t nv = (int32_t)(t[i].ne[0] * t[i].ne[2]);
        char nm[96];
        snprintf(nm, sizeof nm, "imatrix.%.63s", t[i].name);
        float *v = qmm_values(nm, (size_t)nv);
        if (!v) break;
        for (int j = 0; j < nv; j++) v[j] = v[j] * v[j] * 1e4f + 0.01f; /* positive, spread */
        qmm_put_i32(f, (int32_t)strlen(t[i].name));
        fwrite(t[i].name, 1, strlen(t[i].name), f);
        qmm_put_i32(f, 10);
        qmm_put_i32(f, nv);
        fwrite(v, sizeof(float), (size_t)nv, f);
        free(v);
    }
    qmm_put_i32(f, 10);
    qmm_put_i32(f, 3);
    fwrite("qmm", 1, 3, f);
    free(t);
    return fclose(f) == 0;
}
#endif
