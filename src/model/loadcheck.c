/* loadcheck.c -- would llama.cpp master (3f545becc) load this file: its
 * llama_model_load_from_file replayed on the header, in master's order
 * (llama-model.cpp's load_hparams, llama-vocab.cpp's load, then each
 * architecture's load_arch_tensors in src/models/NAME.cpp and
 * llama-model-loader.cpp's create_tensor, check_tensor_dims and
 * done_getting_tensors).  The per-architecture part is a table: one row per
 * architecture, its keys and what its tensor list has beyond the common
 * llama-like layer. */
#include "base/internal.h"
#include "format/file.h"

#include <stddef.h>
#include <stdio.h>

#define MAX_LAYERS 512u  /* LLAMA_MAX_LAYERS */
#define MAX_EXPERTS 512u /* LLAMA_MAX_EXPERTS */

/* create_tensor's flags */
#define OPT 1u  /* TENSOR_NOT_REQUIRED */
#define DUP 2u  /* TENSOR_DUPLICATED: not counted as created */
#define DUP1 4u /* TENSOR_DUPLICATED on every layer but the first (rope factors) */

/* A dimension, from the hyperparameters as LLAMA_LOAD_LOCALS has them (layer 0's head counts and FFN size). */
enum {
    D_NONE, D_E /* n_embd */, D_V /* the vocabulary's tokens */, D_F /* n_ff */, D_F2 /* 2 n_ff */,
    D_Q /* head_k n_head */, D_KG /* head_k n_head_kv */, D_VG /* head_v n_head_kv */, D_HK /* head_k */,
    D_X /* n_expert */, D_FX /* expert_feed_forward_length, else n_ff / n_expert_used */,
    D_FS /* expert_shared_feed_forward_length, else n_ff */, D_ROT2 /* n_rot / 2 */, D_CLS /* classifier outputs */,
    D_KN /* n_head_kv (n_embd / n_head) */, D_FXS /* expert_shared_feed_forward_length */, D_H /* n_head */,
    D_HKV /* n_head_kv */, D_Q2 /* 2 head_k n_head: Q and its gate */, D_E2 /* 2 n_embd */,
    /* gated delta-net (qwen35): head size ssm.state_size, ssm.group_count K heads, ssm.time_step_rank V heads */
    D_GDN_QKV /* 2 d_state n_group + d_state dt_rank */, D_GDN_V /* d_state dt_rank */, D_CONV /* ssm.conv_kernel */,
    D_DTR /* ssm.time_step_rank */, D_DS /* ssm.state_size */, D_HALF_HEAD /* (n_embd / n_head) / 2 */,
    D_FXR /* expert_feed_forward_length as read */, D_FXS2 /* n_ff_exp expert_shared_count */,
    D_E2G /* n_embd + 2 head_v n_head_kv: a fused Q/K/V whose Q is n_embd wide */, D_CTX /* context_length */,
    D_TT /* tokenizer.ggml.token_type_count */, D_ONE /* 1 */, D_D2 /* dense_2_feat_out */, D_D3 /* dense_3_feat_in */,
    /* gemma3n's fixed sizes (llama_hparams' defaults, no key): AltUp's 4 inputs, LAuReL's rank 64, per-layer
     * inputs of 256 */
    D_ALTUP, D_ALTUP1 /* 3 */, D_ALTUP2 /* 16 */, D_LAUREL, D_PLE1 /* 256 */, D_PLE /* 256 n_layer */,
    D_KGL /* head_k n_head_kv(il): this layer's */, D_SC /* shortconv.l_cache */, D_E3 /* 3 n_embd */,
    D_QL /* attention.q_lora_rank */, D_KL /* attention.kv_lora_rank */, D_KLR /* kv_lora_rank + n_rot */,
    D_KVB /* n_head (head_k - n_rot + head_v) */, D_HV /* head_v n_head */,
    D_FUP /* jina-bert-v2's ffn_up: 2 n_ff when the file's is, else n_ff (master asserts one or the other) */,
    D_FXG /* grok's experts: expert_feed_forward_length, else n_ff */,
    D_QR /* n_head n_rot (gpt-oss sizes its heads by the rotary dimension) */, D_KVR /* n_head_kv n_rot */,
    D_FXSH /* D_FX expert_shared_count: glm4moe's shared experts */,
    /* deepseek2's heads: key_length_mla and value_length_mla when both are there (MLA), else key/value_length */
    D_QM /* n_head head_k_mla */, D_NOPE /* head_k_mla - n_rot */, D_VM /* head_v_mla */,
    D_KVBM /* n_head (head_k_mla - n_rot + head_v_mla) */, D_OM /* n_head head_v_mla */,
    /* Mamba: ssm.inner_size, its double, dt_rank + 2 d_state; Mamba-2: d_inner + 2 n_group d_state (the
     * convolved part), that + d_inner + dt_rank (the input projection), d_inner / n_group, n_group */
    D_DI, D_DI2, D_MX, D_M2CONV, D_M2IN, D_DIG, D_NG,
    D_QKVZ /* qwen3next's legacy ssm_in: 2 d_state n_group + 2 d_state dt_rank */, D_DTR2 /* 2 ssm.time_step_rank */,
    D_EOUT /* embedding_length_out, else n_embd */,
    D_FXSB /* (expert_shared_feed_forward_length, else expert_feed_forward_length) expert_shared_count */,
    D_FXSE /* expert_shared_feed_forward_length, else expert_feed_forward_length */,
    /* RWKV: wkv.head_size, n_embd / it, time_mix_extra_dim (and 5 times it), time_decay_extra_dim, the RWKV-7
     * LoRA ranks (attention.decay/iclr/value_residual_mix/gate_lora_rank), the fused lerps' 5 (RWKV-6) and 6 */
    D_WKV, D_EWKV, D_TMX, D_TMX5, D_TDX, D_LDECAY, D_LICLR, D_LVRES, D_LGATE, D_FIVE, D_SIX,
    D_VGL /* head_v n_head_kv(il) */, D_FL /* n_ff(il): this layer's */, D_ME /* moe_latent_size, else n_embd */,
    D_RKV /* rwkv6qwen2's K/V: n_embd, or n_head_kv wkv.head_size when that is not n_embd / wkv.head_size heads */,
    D_FH /* n_ff / 2 (qwen's FFN: its converter writes the intermediate size doubled) */,
    /* this layer's head counts and FFN size (openelm, plamo3): head_k n_head(il), head_v n_head(il), head_k
     * (n_head(il) + 2 n_head_kv(il)), head_k n_head(il) + (head_k + head_v) n_head_kv(il), 2 n_ff(il) */
    D_QHL, D_VHL, D_QKKL, D_QKVL, D_F2L,
    D_FXS2X /* 2 expert_shared_feed_forward_length: granite_swa's shared gate and up in one */,
    /* grovemoe's chunk experts: expert_chunk_feed_forward_length (else head_k), expert_count / experts_per_group */
    D_FCH, D_XCH,
    D_FSHC /* expert_shared_feed_forward_length, else expert_feed_forward_length expert_shared_count (laguna) */,
    D_FSHG /* expert_shared_feed_forward_length, else D_FXG expert_shared_count (cohere2moe) */
};

/* What a row does. */
enum {
    OP_T,      /* create_tensor(name, dims, flags) */
    OP_QKV,    /* create_tensor_qkv(n_embd, d[0], d[1], d[2], flags): a fused attn_qkv, else Q, K, V (+ biases) */
    OP_OUTPUT, /* output.weight optional; absent, token_embd.weight is reused (TENSOR_DUPLICATED) */
    OP_EXPERTS, /* master throws unless expert_count and expert_used_count are above 0 */
    OP_GATE_UP_EXPS, /* create_tensor_gate_up_exps: a fused ffn_gate_up_exps when present, else gate and up (of
                      * d[0], D_FX when 0; the row's flags) */
    OP_TOKEN_TYPES,  /* BERT's loaders throw without tokenizer.ggml.token_type_count */
    OP_POST_NORM,    /* grok: layer_output_norm when present, else post_ffw_norm */
    OP_MAMBA_EXPAND, /* mamba: master throws unless ssm.inner_size is 2 n_embd */
    OP_RWKV6_LERP,   /* rwkv6: master asserts the layer has time_mix_lerp_fused or time_mix_lerp_w */
    OP_LERP_6_OR_5,  /* arwkv7: time_mix_lerp_fused of [n_embd, 1, 1, 6], failing that of 5 */
    OP_GROUPS,       /* grovemoe: master asserts experts_per_group above 0 */
    OP_HEAD_GATE     /* laguna: attn_gate as wide as the file's, n_head(il) or head_k n_head(il) (else master aborts);
                      * n_head(il) when absent */
};
/* When a row applies. */
enum { C_ALL, C_DENSE /* expert_count 0 */, C_MOE /* expert_count > 0 */, C_SHEXP /* n_ff_shexp > 0 */,
       C_LONGROPE, C_NOT_LONGROPE, C_L64 /* block_count >= 64 (command-r's Q/K norms) */,
       C_RECR /* a recurrent layer (hparams.is_recr) */, C_NOT_RECR /* an attention layer, or an MTP one */,
       C_MTP /* one of the last nextn_predict_layers layers */,
       C_LEAD /* one of the leading_dense_block_count layers */, C_NOT_LEAD, C_FIRST /* layer 0 */, C_NOT_FIRST,
       C_MOE_EVERY /* il % moe_every_n_layers == 1 */, C_NOT_MOE_EVERY,
       C_MOE_STEP /* interleave_moe_layer_step > 0 and (il + 1) a multiple of it (llama4) */, C_NOT_MOE_STEP,
       C_TRUNK /* not one of the last nextn_predict_layers layers */,
       C_MOE_SHARED /* C_NOT_LEAD with expert_shared_count > 0 */,
       C_QLORA /* attention.q_lora_rank > 0 */, C_NO_QLORA, C_MLA /* deepseek2's split K/V (is_mla) */, C_NOT_MLA,
       C_HAS_ROUTER /* the file has this layer's ffn_gate_inp.weight (jamba's experts) */, C_NO_ROUTER,
       C_NOT_LEAD_SHEXP /* C_NOT_LEAD with expert_shared_feed_forward_length > 0 (ernie4_5-moe) */,
       C_LEAD_OR_MTP /* a leading dense layer or an MTP one (exaone-moe's dense FFN) */,
       C_NOT_LEAD_TRUNK /* neither (exaone-moe's experts) */,
       /* nemotron_h's trunk layers that are not recurrent: attention where n_ff(il) is 0, else an FFN (experts
        * with expert_count, dense without) */
       C_ATTN_FF0, C_FFN_MOE, C_FFN_DENSE,
       /* deci's layers by their own head counts and FFN size: attention reduced to a linear map (n_head_kv(il) 0,
        * n_head(il) not), attention (n_head_kv(il) > 0), an FFN (n_ff(il) > 0) */
       C_LINEAR_ATTN, C_ATTN_KV, C_FF };

typedef struct tspec {
    uint8_t op, cond, flags;
    uint8_t d[4]; /* the fourth only for RWKV's fused lerps */
    const char *name; /* a layer's: "attn_norm.weight" for blk.N.attn_norm.weight */
} tspec;

#define T(name, f, a, b, c) {OP_T, C_ALL, f, {a, b, c}, name}
#define T4(name, f, a, b, c, e) {OP_T, C_ALL, f, {a, b, c, e}, name}
#define TC(cond, name, f, a, b, c) {OP_T, cond, f, {a, b, c}, name}
#define QKV(q, k, v, f) {OP_QKV, C_ALL, f, {q, k, v}, NULL}
#define QKVC(cond, q, k, v, f) {OP_QKV, cond, f, {q, k, v}, NULL}
#define END {0, 0, 0, {0, 0, 0}, NULL}

/* the global tensors */
static const tspec G_TIED[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                               {OP_OUTPUT, C_ALL, 0, {0, 0, 0}, NULL}, END};
static const tspec G_QWEN2[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                {OP_OUTPUT, C_ALL, 0, {0, 0, 0}, NULL}, T("output.bias", OPT, D_V, 0, 0), END};
static const tspec G_QWEN3[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                {OP_OUTPUT, C_ALL, 0, {0, 0, 0}, NULL}, T("cls.output.weight", OPT, D_E, D_CLS, 0),
                                END};
static const tspec G_UNTIED[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                 T("output.weight", 0, D_E, D_V, 0), END};
static const tspec G_NO_OUTPUT[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0), END};

/* the layers */
/* the rope factors: long and short with longrope, else rope_freqs (each optional, layer 0's counted) */
#define ROPE_FACTORS                                                                                           \
    TC(C_LONGROPE, "rope_factors_long.weight", OPT | DUP1, D_ROT2, 0, 0),                                      \
        TC(C_LONGROPE, "rope_factors_short.weight", OPT | DUP1, D_ROT2, 0, 0),                                 \
        TC(C_NOT_LONGROPE, "rope_freqs.weight", OPT | DUP1, D_ROT2, 0, 0)
/* llama's FFN without experts, its biases optional */
#define DENSE_FFN_OPT_B                                                                                        \
    TC(C_DENSE, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_DENSE, "ffn_down.weight", 0, D_F, D_E, 0),            \
        TC(C_DENSE, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_DENSE, "ffn_gate.bias", OPT, D_F, 0, 0),            \
        TC(C_DENSE, "ffn_down.bias", OPT, D_E, 0, 0), TC(C_DENSE, "ffn_up.bias", OPT, D_F, 0, 0)
static const tspec L_LLAMA[] = { /* llama, mistral3, granite: llama's optional biases and experts */
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_output.bias", OPT, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    ROPE_FACTORS, DENSE_FFN_OPT_B,
    TC(C_MOE, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_MOE, "ffn_gate_exps.weight", OPT, D_E, D_F, D_X),
    TC(C_MOE, "ffn_down_exps.weight", 0, D_F, D_E, D_X), TC(C_MOE, "ffn_up_exps.weight", 0, D_E, D_F, D_X),
    TC(C_SHEXP, "ffn_gate_shexp.weight", 0, D_E, D_FXS, 0), TC(C_SHEXP, "ffn_up_shexp.weight", 0, D_E, D_FXS, 0),
    TC(C_SHEXP, "ffn_down_shexp.weight", 0, D_FXS, D_E, 0), END};
#define DENSE_FFN T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0), \
                  T("ffn_up.weight", 0, D_E, D_F, 0)
static const tspec L_QWEN2[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN,
                                END};
static const tspec L_QWEN3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
                                T("attn_q_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN,
                                END};
#define EXPERTS(ff) T("ffn_gate_inp.weight", 0, D_E, D_X, 0), {OP_EXPERTS, C_ALL, 0, {0, 0, 0}, NULL}, \
    T("ffn_gate_exps.weight", 0, D_E, ff, D_X), T("ffn_down_exps.weight", 0, ff, D_E, D_X),             \
    T("ffn_up_exps.weight", 0, D_E, ff, D_X)
static const tspec L_QWEN3MOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0),
                                   T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
                                   T("attn_q_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                   EXPERTS(D_FX), END};
static const tspec L_QWEN2MOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                   T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                   EXPERTS(D_FX), T("ffn_gate_inp_shexp.weight", 0, D_E, 0, 0),
                                   T("ffn_gate_shexp.weight", 0, D_E, D_FS, 0),
                                   T("ffn_down_shexp.weight", 0, D_FS, D_E, 0),
                                   T("ffn_up_shexp.weight", 0, D_E, D_FS, 0), END};
static const tspec L_OLMOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_E, D_E, 0), T("attn_q_norm.weight", 0, D_E, 0, 0),
                                T("attn_k_norm.weight", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                EXPERTS(D_F), END};
#define GEMMA_FFN T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_F, 0), \
    T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0), T("post_ffw_norm.weight", 0, D_E, 0, 0)
static const tspec L_GEMMA2[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                 T("attn_output.weight", 0, D_Q, D_E, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
                                 GEMMA_FFN, END};
static const tspec L_GEMMA3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                 T("attn_output.weight", 0, D_Q, D_E, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
                                 T("attn_k_norm.weight", 0, D_HK, 0, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0),
                                 GEMMA_FFN, END};
static const tspec L_SMOLLM3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                  T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN,
                                  END};
static const tspec L_PHI3[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, OPT),
                               T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                               T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_up.weight", 0, D_E, D_F2, 0),
                               T("rope_factors_long.weight", OPT | DUP1, D_ROT2, 0, 0),
                               T("rope_factors_short.weight", OPT | DUP1, D_ROT2, 0, 0), END};
static const tspec L_OLMO2[] = {QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
                                T("attn_q_norm.weight", 0, D_E, 0, 0), T("attn_k_norm.weight", 0, D_KN, 0, 0),
                                T("post_attention_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_F, 0),
                                T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0),
                                T("post_ffw_norm.weight", 0, D_E, 0, 0), END};

#define ROPE_FREQS T("rope_freqs.weight", OPT | DUP1, D_ROT2, 0, 0)
static const tspec L_EXAONE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                 T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                 ROPE_FREQS, DENSE_FFN, END};
static const tspec L_ARCEE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                ROPE_FREQS, T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                                END};
static const tspec L_COMMAND_R[] = {T("attn_norm.weight", 0, D_E, 0, 0),
                                    TC(C_L64, "attn_q_norm.weight", 0, D_HK, D_H, 0),
                                    TC(C_L64, "attn_k_norm.weight", 0, D_HK, D_HKV, 0), QKV(D_E, D_VG, D_VG, 0),
                                    T("attn_output.weight", 0, D_E, D_E, 0), DENSE_FFN, END};
static const tspec L_SEED_OSS[] = {QKV(D_Q, D_KG, D_KG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
                                   T("attn_norm.weight", 0, D_E, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
                                   T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                                   T("ffn_down.weight", 0, D_F, D_E, 0), END};
static const tspec L_GEMMA[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                                T("ffn_down.weight", 0, D_F, D_E, 0), END};
static const tspec L_ERNIE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),
                                T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN, END};
static const tspec G_COMMAND_R[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                    T("token_embd.weight", DUP, D_E, D_V, 0), END};

/* Qwen3-VL's text model: qwen3's layer; with experts, qwen3moe's */
#define L_QWEN3VL L_QWEN3
#define L_QWEN3VLMOE L_QWEN3MOE
/* Qwen3.5: gated delta-net layers and attention ones (Q with its gate), post-attention norm as the FFN's input
 * norm, the multi-token-prediction layers last (an attention layer and nextn's tensors) */
#define QWEN35_MIXER                                                                                             \
    T("attn_norm.weight", 0, D_E, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),                          \
        QKVC(C_NOT_RECR, D_Q2, D_KG, D_VG, 0), TC(C_NOT_RECR, "attn_output.weight", 0, D_Q, D_E, 0),           \
        TC(C_NOT_RECR, "attn_q_norm.weight", 0, D_HK, 0, 0), TC(C_NOT_RECR, "attn_k_norm.weight", 0, D_HK, 0, 0), \
        TC(C_RECR, "attn_qkv.weight", OPT, D_E, D_GDN_QKV, 0), TC(C_RECR, "attn_gate.weight", OPT, D_E, D_GDN_V, 0), \
        TC(C_RECR, "ssm_conv1d.weight", 0, D_CONV, D_GDN_QKV, 0), TC(C_RECR, "ssm_dt.bias", 0, D_DTR, 0, 0),       \
        TC(C_RECR, "ssm_a", 0, D_DTR, 0, 0), TC(C_RECR, "ssm_beta.weight", 0, D_E, D_DTR, 0),                     \
        TC(C_RECR, "ssm_alpha.weight", 0, D_E, D_DTR, 0), TC(C_RECR, "ssm_norm.weight", 0, D_DS, 0, 0),           \
        TC(C_RECR, "ssm_out.weight", 0, D_GDN_V, D_E, 0)
#define NEXTN                                                                                                    \
    TC(C_MTP, "nextn.eh_proj.weight", 0, D_E2, D_E, 0), TC(C_MTP, "nextn.enorm.weight", 0, D_E, 0, 0),           \
        TC(C_MTP, "nextn.hnorm.weight", 0, D_E, 0, 0), TC(C_MTP, "nextn.embed_tokens.weight", OPT, D_E, D_V, 0),  \
        TC(C_MTP, "nextn.shared_head_head.weight", OPT, D_E, D_V, 0),                                            \
        TC(C_MTP, "nextn.shared_head_norm.weight", OPT, D_E, 0, 0)
static const tspec L_QWEN35[] = {QWEN35_MIXER, DENSE_FFN, NEXTN, END};
static const tspec L_QWEN35MOE[] = {QWEN35_MIXER, T("ffn_gate_inp.weight", 0, D_E, D_X, 0),
                                    T("ffn_down_exps.weight", 0, D_FX, D_E, D_X), {OP_GATE_UP_EXPS, C_ALL, 0, {0}, NULL},
                                    T("ffn_gate_inp_shexp.weight", 0, D_E, 0, 0),
                                    T("ffn_gate_shexp.weight", 0, D_E, D_FS, 0), T("ffn_up_shexp.weight", 0, D_E, D_FS, 0),
                                    T("ffn_down_shexp.weight", 0, D_FS, D_E, 0), NEXTN, END};

/* Command R7B: one norm before attention and FFN (run in parallel); no output matrix of its own */
static const tspec L_COHERE2[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                  T("attn_output.weight", 0, D_E, D_E, 0), DENSE_FFN, END};
/* Phi-3.5-MoE: layer norms with biases, biases on the attention, experts of n_ff, the rope factors */
static const tspec G_PHIMOE[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                 T("output_norm.bias", 0, D_E, 0, 0), T("output.weight", 0, D_E, D_V, 0),
                                 T("output.bias", 0, D_V, 0, 0), END};
static const tspec L_PHIMOE[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("attn_norm.bias", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
    T("attn_output.weight", 0, D_E, D_E, 0), T("attn_output.bias", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    T("ffn_norm.bias", 0, D_E, 0, 0), T("ffn_gate_inp.weight", 0, D_E, D_X, 0),
    T("ffn_gate_exps.weight", 0, D_E, D_F, D_X), T("ffn_down_exps.weight", 0, D_F, D_E, D_X),
    T("ffn_up_exps.weight", 0, D_E, D_F, D_X), T("rope_factors_long.weight", OPT | DUP1, D_HALF_HEAD, 0, 0),
    T("rope_factors_short.weight", OPT | DUP1, D_HALF_HEAD, 0, 0), END};
/* DeepSeek-MoE (V1): the leading dense layers, then experts and the shared ones */
static const tspec L_DEEPSEEK[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
    T("ffn_norm.weight", 0, D_E, 0, 0), TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0),
    TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0), TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0),
    TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0), {OP_EXPERTS, C_NOT_LEAD, 0, {0}, NULL},
    TC(C_NOT_LEAD, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_gate_shexp.weight", 0, D_E, D_FXS2, 0),
    TC(C_NOT_LEAD, "ffn_down_shexp.weight", 0, D_FXS2, D_E, 0), TC(C_NOT_LEAD, "ffn_up_shexp.weight", 0, D_E, D_FXS2, 0),
    END};

/* Plain dense families of master's (src/models/NAME.cpp) */
#define NORM_B(name) T(name ".weight", 0, D_E, 0, 0), T(name ".bias", 0, D_E, 0, 0)
static const tspec L_BAICHUAN[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                   T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                   DENSE_FFN, END};
static const tspec G_STABLELM[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.bias", 0, D_E, 0, 0),
                                   T("output_norm.weight", 0, D_E, 0, 0), T("output.weight", 0, D_E, D_V, 0), END};
static const tspec L_STABLELM[] = {NORM_B("attn_norm"), QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
                                   T("attn_q_norm.weight", OPT, D_HK, D_H, 0), T("attn_k_norm.weight", OPT, D_HK, D_HKV, 0),
                                   T("ffn_norm.weight", OPT, D_E, 0, 0), T("ffn_norm.bias", OPT, D_E, 0, 0), DENSE_FFN,
                                   END};
/* starcoder, bloom, codeshell: layer norms and every projection with a bias, a plain FFN */
#define BIASED_BLOCK(qkv)                                                                                      \
    NORM_B("attn_norm"), qkv, T("attn_output.weight", 0, D_E, D_E, 0), T("attn_output.bias", 0, D_E, 0, 0),       \
        NORM_B("ffn_norm"), T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_down.bias", 0, D_E, 0, 0),              \
        T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_up.bias", 0, D_F, 0, 0)
#define FUSED_QKV_B T("attn_qkv.weight", 0, D_E, D_E2G, 0), T("attn_qkv.bias", 0, D_E2G, 0, 0)
static const tspec G_STARCODER[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("position_embd.weight", 0, D_E, D_CTX, 0),
                                    NORM_B("output_norm"), {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec L_STARCODER[] = {BIASED_BLOCK(FUSED_QKV_B), END};
static const tspec G_BLOOM[] = {T("token_embd.weight", 0, D_E, D_V, 0), NORM_B("token_embd_norm"),
                                NORM_B("output_norm"), {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec G_CODESHELL[] = {T("token_embd.weight", OPT, D_E, D_V, 0), NORM_B("output_norm"),
                                    T("output.weight", 0, D_E, D_V, 0), END};
static const tspec L_CODESHELL[] = {BIASED_BLOCK(QKV(D_E, D_VG, D_VG, 0)), END};
static const tspec G_MPT[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("position_embd.weight", OPT, D_E, D_CTX, 0),
                              T("output_norm.weight", 0, D_E, 0, 0), T("output_norm.bias", OPT, D_E, 0, 0),
                              {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec L_MPT[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("attn_norm.bias", OPT, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_E2G, 0),
    T("attn_qkv.bias", OPT, D_E2G, 0, 0), T("attn_output.weight", 0, D_E, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),
    T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_norm.bias", OPT, D_E, 0, 0), T("ffn_down.weight", 0, D_F, D_E, 0),
    T("ffn_down.bias", OPT, D_E, 0, 0), T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_up.bias", OPT, D_F, 0, 0),
    T("attn_q_norm.weight", OPT, D_E, 0, 0), T("attn_q_norm.bias", OPT, D_E, 0, 0), T("attn_k_norm.weight", OPT, D_E, 0, 0),
    T("attn_k_norm.bias", OPT, D_E, 0, 0), T("ffn.act.scales", OPT, D_F, 0, 0), END};
/* OLMo: norms without weights */
static const tspec G_OLMO[] = {T("token_embd.weight", 0, D_E, D_V, 0), {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec L_OLMO[] = {QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0), DENSE_FFN, END};
static const tspec G_ORION[] = {T("token_embd.weight", 0, D_E, D_V, 0), NORM_B("output_norm"),
                                T("output.weight", 0, D_E, D_V, 0), END};
static const tspec L_ORION[] = {NORM_B("attn_norm"), QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
                                NORM_B("ffn_norm"), DENSE_FFN, END};
/* ChatGLM / GLM-4 (0414's predecessor): gate and up in one matrix */
static const tspec L_CHATGLM[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
                                  T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                  T("ffn_up.weight", 0, D_E, D_F2, 0), T("ffn_down.weight", 0, D_F, D_E, 0), END};

/* BERT and nomic-bert (one loader in master): token types, the embedding norm, norms after attention and FFN */
static const tspec G_BERT[] = {{OP_TOKEN_TYPES, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
                               T("token_types.weight", OPT, D_E, D_TT, 0), T("position_embd.weight", 0, D_E, D_CTX, 0),
                               T("cls.weight", OPT, D_E, D_E, 0), T("cls.bias", OPT, D_E, 0, 0),
                               T("cls.output.weight", OPT, D_E, D_CLS, 0), T("cls.output.bias", OPT, D_CLS, 0, 0),
                               NORM_B("token_embd_norm"), END};
static const tspec G_NOMIC[] = {{OP_TOKEN_TYPES, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
                                T("token_types.weight", OPT, D_E, D_TT, 0), NORM_B("token_embd_norm"), END};
#define BERT_BLOCK                                                                                             \
    QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),     \
        NORM_B("attn_output_norm"), T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_up.bias", OPT, D_F, 0, 0),        \
        T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_down.bias", OPT, D_E, 0, 0)
static const tspec L_BERT[] = {BERT_BLOCK, NORM_B("layer_output_norm"), END};
static const tspec L_NOMIC[] = {BERT_BLOCK, T("ffn_gate.weight", 0, D_E, D_F, 0), NORM_B("layer_output_norm"), END};

/* EmbeddingGemma: gemma3's layer; its optional dense projections after pooling */
static const tspec G_GEMMA_EMBD[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                     {OP_OUTPUT, C_ALL, 0, {0}, NULL}, T("dense_2.weight", OPT, D_E, D_D2, 0),
                                     T("dense_3.weight", OPT, D_D3, D_E, 0), END};
static const tspec L_GEMMA_EMBD[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("post_attention_norm.weight", 0, D_E, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
    T("attn_q_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_F, 0),
    T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0), T("post_ffw_norm.weight", 0, D_E, 0, 0),
    END};
/* Jais: ALiBi, every projection with a bias, a gated FFN */
static const tspec G_JAIS[] = {T("token_embd.weight", 0, D_E, D_V, 0), NORM_B("output_norm"),
                               T("output.weight", 0, D_E, D_V, 0), END};
static const tspec L_JAIS[] = {NORM_B("attn_norm"), FUSED_QKV_B, T("attn_output.weight", 0, D_E, D_E, 0),
                               T("attn_output.bias", 0, D_E, 0, 0), NORM_B("ffn_norm"), T("ffn_down.weight", 0, D_F, D_E, 0),
                               T("ffn_down.bias", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_F, 0),
                               T("ffn_gate.bias", 0, D_F, 0, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                               T("ffn_up.bias", 0, D_F, 0, 0), END};
/* BitNet b1.58: norms inside attention and FFN, optional per-matrix scales */
#define SCALED(name, a, b) T(name ".weight", 0, a, b, 0), T(name ".scale", OPT, D_ONE, 0, 0)
static const tspec L_BITNET[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("attn_sub_norm.weight", 0, D_E, 0, 0), SCALED("attn_q", D_E, D_E),
    SCALED("attn_k", D_E, D_VG), SCALED("attn_v", D_E, D_VG), SCALED("attn_output", D_E, D_E),
    T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_sub_norm.weight", 0, D_F, 0, 0), SCALED("ffn_gate", D_E, D_F),
    SCALED("ffn_down", D_F, D_E), SCALED("ffn_up", D_E, D_F), END};

/* Gemma 3n: AltUp (4 inputs), LAuReL (rank 64), per-layer inputs of 256: master's fixed sizes */
static const tspec G_GEMMA3N[] = {
    {OP_OUTPUT, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
    T("altup_proj.weight", 0, D_E, D_E, D_ALTUP1), T("altup_unembd_proj.weight", 0, D_E, D_E, D_ALTUP1),
    T("per_layer_token_embd.weight", 0, D_PLE, D_V, 0), T("per_layer_model_proj.weight", 0, D_E, D_PLE, 0),
    T("per_layer_proj_norm.weight", 0, D_PLE1, 0, 0), T("output_norm.weight", 0, D_E, 0, 0), END};
static const tspec L_GEMMA3N[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_q_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
    T("post_attention_norm.weight", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_down.weight", 0, D_F, D_E, 0),
    T("post_ffw_norm.weight", 0, D_E, 0, 0), T("inp_gate.weight", 0, D_E, D_PLE1, 0),
    T("proj.weight", 0, D_PLE1, D_E, 0), T("post_norm.weight", 0, D_E, 0, 0),
    T("altup_correct_coef.weight", 0, D_ALTUP, D_ALTUP, 0), T("altup_correct_scale.weight", 0, D_E, 0, 0),
    T("altup_predict_coef.weight", 0, D_ALTUP, D_ALTUP2, 0), T("altup_router.weight", 0, D_E, D_ALTUP, 0),
    T("altup_router_norm.weight", 0, D_E, 0, 0), T("laurel_l.weight", 0, D_E, D_LAUREL, 0),
    T("laurel_r.weight", 0, D_LAUREL, D_E, 0), T("laurel_post_norm.weight", 0, D_E, 0, 0), END};

/* LFM2-MoE: the FFN first (dense, then experts with a selection bias), attention where head_count_kv is not 0,
 * a short convolution elsewhere; the output norm named token_embd_norm */
static const tspec G_LFM2MOE[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("token_embd_norm.weight", 0, D_E, 0, 0),
                                  {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec L_LFM2MOE[] = {
    T("ffn_norm.weight", 0, D_E, 0, 0), TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_NOT_LEAD, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "exp_probs_b.bias", 0, D_X, 0, 0),
    TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), T("attn_norm.weight", 0, D_E, 0, 0),
    TC(C_NOT_RECR, "attn_q_norm.weight", 0, D_HK, 0, 0), TC(C_NOT_RECR, "attn_k_norm.weight", 0, D_HK, 0, 0),
    QKVC(C_NOT_RECR, D_E, D_KGL, D_KGL, 0), TC(C_NOT_RECR, "attn_output.weight", 0, D_E, D_E, 0),
    TC(C_RECR, "shortconv.conv.weight", 0, D_SC, D_E, 0), TC(C_RECR, "shortconv.in_proj.weight", 0, D_E, D_E3, 0),
    TC(C_RECR, "shortconv.out_proj.weight", 0, D_E, D_E, 0), END};

/* MiniCPM3: latent Q and KV projections (the rotary part rope.dimension_count of the K head) */
static const tspec L_MINICPM3[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("attn_q_a_norm.weight", 0, D_QL, 0, 0), T("attn_kv_a_norm.weight", 0, D_KL, 0, 0),
    T("attn_q_a.weight", 0, D_E, D_QL, 0), T("attn_q_b.weight", 0, D_QL, D_Q, 0), T("attn_kv_a_mqa.weight", 0, D_E, D_KLR, 0),
    T("attn_kv_b.weight", 0, D_KL, D_KVB, 0), T("attn_output.weight", 0, D_HV, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    DENSE_FFN, T("rope_factors_long.weight", OPT | DUP1, D_ROT2, 0, 0),
    T("rope_factors_short.weight", OPT | DUP1, D_ROT2, 0, 0), END};

/* jina-bert-v2: ALiBi, optional Q/K norms and a second attention norm, a gated FFN whose up is n_ff or 2 n_ff */
static const tspec G_JINA2[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("token_types.weight", 0, D_E, D_TT, 0),
                                NORM_B("token_embd_norm"), T("cls.weight", OPT, D_E, D_ONE, 0),
                                T("cls.bias", OPT, D_ONE, 0, 0), END};
static const tspec L_JINA2[] = {
    QKV(D_E, D_VG, D_VG, 0), T("attn_q_norm.weight", OPT, D_E, 0, 0), T("attn_q_norm.bias", OPT, D_E, 0, 0),
    T("attn_k_norm.weight", OPT, D_E, 0, 0), T("attn_k_norm.bias", OPT, D_E, 0, 0), T("attn_output.weight", 0, D_E, D_E, 0),
    T("attn_output.bias", 0, D_E, 0, 0), NORM_B("attn_output_norm"), T("attn_norm_2.weight", OPT, D_E, 0, 0),
    T("attn_norm_2.bias", OPT, D_E, 0, 0), T("ffn_gate.weight", OPT, D_E, D_F, 0), T("ffn_up.weight", 0, D_E, D_FUP, 0),
    T("ffn_up.bias", OPT, D_FUP, 0, 0), T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_down.bias", 0, D_E, 0, 0),
    NORM_B("layer_output_norm"), END};
/* ModernBERT: no attention norm in layer 0 (optional there), fused Q/K/V, gate and up in one matrix */
static const tspec G_MODERN[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("token_embd_norm.weight", 0, D_E, 0, 0),
                                 T("output_norm.weight", 0, D_E, 0, 0), T("cls.output.weight", OPT, D_E, D_CLS, 0),
                                 T("cls.output.bias", OPT, D_CLS, 0, 0), T("cls.weight", OPT, D_E, D_E, 0),
                                 T("cls.norm.weight", OPT, D_E, 0, 0), END};
static const tspec L_MODERN[] = {TC(C_FIRST, "attn_norm.weight", OPT, D_E, 0, 0), TC(C_NOT_FIRST, "attn_norm.weight", 0, D_E, 0, 0),
                                 T("attn_qkv.weight", 0, D_E, D_E3, 0), T("attn_output.weight", 0, D_E, D_E, 0),
                                 T("ffn_up.weight", 0, D_E, D_F2, 0), T("ffn_down.weight", 0, D_F, D_E, 0),
                                 T("ffn_norm.weight", 0, D_E, 0, 0), END};

/* NeoBERT: fused Q/K/V, SwiGLU's gate and up in one matrix, the encoder's output norm */
static const tspec G_NEOBERT[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("cls.weight", OPT, D_E, D_E, 0),
                                  T("cls.bias", OPT, D_E, 0, 0), T("cls.output.weight", OPT, D_E, D_CLS, 0),
                                  T("cls.output.bias", OPT, D_CLS, 0, 0), T("enc.output_norm.weight", 0, D_E, 0, 0), END};
static const tspec L_NEOBERT[] = {T("attn_norm.weight", 0, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_E2G, 0),
                                  T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                  T("ffn_up.weight", 0, D_E, D_F2, 0), T("ffn_down.weight", 0, D_F, D_E, 0), END};
/* EuroBERT: a llama-like layer, gate, up, down in that order */
static const tspec L_EUROBERT[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                   T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                   T("ffn_gate.weight", 0, D_E, D_F, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                                   T("ffn_down.weight", 0, D_F, D_E, 0), END};
/* LLaDA: separate Q, K, V (no fused form), llama's optional biases and rope frequencies */
static const tspec L_LLADA[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("attn_q.weight", 0, D_E, D_Q, 0), T("attn_k.weight", 0, D_E, D_KG, 0),
    T("attn_v.weight", 0, D_E, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),
    T("ffn_norm.weight", 0, D_E, 0, 0), ROPE_FREQS, T("ffn_gate.weight", 0, D_E, D_F, 0),
    T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_gate.bias", OPT, D_F, 0, 0),
    T("ffn_down.bias", OPT, D_E, 0, 0), T("ffn_up.bias", OPT, D_F, 0, 0), END};

/* nomic-bert-moe: experts (up, down, router) on the layers il % moe_every_n_layers == 1, else up and down */
static const tspec G_NOMIC_MOE[] = {{OP_TOKEN_TYPES, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
                                    T("token_types.weight", OPT, D_E, D_TT, 0), NORM_B("token_embd_norm"), END};
static const tspec L_NOMIC_MOE[] = {
    QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),
    NORM_B("attn_output_norm"), TC(C_MOE_EVERY, "ffn_up_exps.weight", 0, D_E, D_F, D_X),
    TC(C_MOE_EVERY, "ffn_down_exps.weight", 0, D_F, D_E, D_X), TC(C_MOE_EVERY, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_NOT_MOE_EVERY, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_NOT_MOE_EVERY, "ffn_up.bias", OPT, D_F, 0, 0),
    TC(C_NOT_MOE_EVERY, "ffn_down.weight", 0, D_F, D_E, 0), TC(C_NOT_MOE_EVERY, "ffn_down.bias", OPT, D_E, 0, 0),
    NORM_B("layer_output_norm"), END};

/* DBRX: fused Q/K/V, a norm after attention, experts of n_ff (master throws without experts) */
static const tspec G_DBRX[] = {{OP_EXPERTS, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
                               T("output_norm.weight", 0, D_E, 0, 0), T("output.weight", 0, D_E, D_V, 0), END};
static const tspec L_DBRX[] = {T("attn_norm.weight", 0, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_E2G, 0),
                               T("attn_output.weight", 0, D_E, D_E, 0), T("attn_output_norm.weight", 0, D_E, 0, 0),
                               T("ffn_gate_inp.weight", 0, D_E, D_X, 0), T("ffn_gate_exps.weight", 0, D_E, D_F, D_X),
                               T("ffn_down_exps.weight", 0, D_F, D_E, D_X), T("ffn_up_exps.weight", 0, D_E, D_F, D_X), END};
/* Grok: optional dense FFN beside the experts (of expert_feed_forward_length, else n_ff), a post-FFN norm named
 * layer_output_norm or post_ffw_norm */
static const tspec G_GROK[] = {{OP_EXPERTS, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
                               T("output_norm.weight", 0, D_E, 0, 0), {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec L_GROK[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
    T("attn_output_norm.weight", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", OPT, D_E, D_F, 0),
    T("ffn_down.weight", OPT, D_F, D_E, 0), T("ffn_up.weight", OPT, D_E, D_F, 0), T("ffn_gate_inp.weight", 0, D_E, D_X, 0),
    T("ffn_gate_exps.weight", OPT, D_E, D_FXG, D_X), T("ffn_down_exps.weight", 0, D_FXG, D_E, D_X),
    T("ffn_up_exps.weight", 0, D_E, D_FXG, D_X), {OP_POST_NORM, C_ALL, 0, {0}, NULL}, END};

/* GPT-NeoX, Phi-2, StarCoder2, Nemotron: layer norms with biases, a plain FFN */
static const tspec G_PHI2[] = {T("token_embd.weight", 0, D_E, D_V, 0), NORM_B("output_norm"),
                               T("output.weight", 0, D_E, D_V, 0), T("output.bias", 0, D_V, 0, 0), END};
static const tspec L_PHI2[] = {NORM_B("attn_norm"), QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
                               T("attn_output.bias", 0, D_E, 0, 0), T("ffn_down.weight", 0, D_F, D_E, 0),
                               T("ffn_down.bias", 0, D_E, 0, 0), T("ffn_up.weight", 0, D_E, D_F, 0),
                               T("ffn_up.bias", 0, D_F, 0, 0), END};
static const tspec G_STARCODER2[] = {T("token_embd.weight", 0, D_E, D_V, 0), NORM_B("output_norm"),
                                     {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
/* StarCoder2 and Nemotron (whose output and FFN biases are optional) */
#define SC2_BLOCK(f)                                                                                           \
    NORM_B("attn_norm"), QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),                      \
        T("attn_output.bias", f, D_E, 0, 0), NORM_B("ffn_norm"), T("ffn_down.weight", 0, D_F, D_E, 0),           \
        T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_down.bias", f, D_E, 0, 0), T("ffn_up.bias", f, D_F, 0, 0)
static const tspec L_STARCODER2[] = {SC2_BLOCK(0), END};
/* Falcon: an optional second attention norm (the 40B's), fused Q/K/V, no biases, no FFN norm */
static const tspec L_FALCON[] = {NORM_B("attn_norm"), T("attn_norm_2.weight", OPT, D_E, 0, 0),
                                 T("attn_norm_2.bias", OPT, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_E2G, 0),
                                 T("attn_output.weight", 0, D_E, D_E, 0), T("ffn_down.weight", 0, D_F, D_E, 0),
                                 T("ffn_up.weight", 0, D_E, D_F, 0), END};
static const tspec L_NEMOTRON[] = {SC2_BLOCK(OPT), END};
/* gpt-oss: heads of rope.dimension_count, attention sinks, every expert matrix with a bias, the router's too */
static const tspec L_GPT_OSS[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0), QKV(D_QR, D_KVR, D_KVR, 0),
    T("attn_output.weight", 0, D_QR, D_E, 0), T("attn_sinks.weight", 0, D_H, 0, 0),
    T("ffn_gate_inp.weight", 0, D_E, D_X, 0), T("ffn_gate_exps.weight", 0, D_E, D_FXR, D_X),
    T("ffn_down_exps.weight", 0, D_FXR, D_E, D_X), T("ffn_up_exps.weight", 0, D_E, D_FXR, D_X),
    T("attn_output.bias", 0, D_E, 0, 0), T("ffn_gate_inp.bias", 0, D_X, 0, 0),
    T("ffn_gate_exps.bias", 0, D_FXR, D_X, 0), T("ffn_down_exps.bias", 0, D_E, D_X, 0),
    T("ffn_up_exps.bias", 0, D_FXR, D_X, 0), END};

/* G_TIED after master's check for experts (llama4, glm4moe) */
static const tspec G_TIED_EXPERTS[] = {{OP_EXPERTS, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
                                       T("output_norm.weight", 0, D_E, 0, 0), {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
/* Llama 4: experts with a shared one every interleave_moe_layer_step-th layer, a dense FFN elsewhere */
static const tspec L_LLAMA4[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
    T("attn_output.weight", 0, D_Q, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0), ROPE_FREQS,
    TC(C_MOE_STEP, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_MOE_STEP, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X),
    TC(C_MOE_STEP, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X), TC(C_MOE_STEP, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X),
    TC(C_MOE_STEP, "ffn_gate_shexp.weight", 0, D_E, D_FXR, 0), TC(C_MOE_STEP, "ffn_down_shexp.weight", 0, D_FXR, D_E, 0),
    TC(C_MOE_STEP, "ffn_up_shexp.weight", 0, D_E, D_FXR, 0), TC(C_NOT_MOE_STEP, "ffn_gate.weight", 0, D_E, D_F, 0),
    TC(C_NOT_MOE_STEP, "ffn_down.weight", 0, D_F, D_E, 0), TC(C_NOT_MOE_STEP, "ffn_up.weight", 0, D_E, D_F, 0), END};
/* GLM-4.5: the leading dense layers, then experts with a selection bias and shared ones; the MTP layers last
 * (master creates their tensors but skips them: their Q/K/V optional) */
static const tspec L_GLM4MOE[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKVC(C_TRUNK, D_Q, D_KG, D_VG, 0),
    QKVC(C_MTP, D_Q, D_KG, D_VG, OPT), T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_q_norm.weight", OPT, D_HK, 0, 0),
    T("attn_k_norm.weight", OPT, D_HK, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_NOT_LEAD, "exp_probs_b.bias", 0, D_X, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_exps.weight", 0, D_E, D_FX, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FX, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FX, D_X), TC(C_MOE_SHARED, "ffn_gate_shexp.weight", 0, D_E, D_FXSH, 0),
    TC(C_MOE_SHARED, "ffn_down_shexp.weight", 0, D_FXSH, D_E, 0), TC(C_MOE_SHARED, "ffn_up_shexp.weight", 0, D_E, D_FXSH, 0),
    TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), NEXTN, END};

/* DeepSeek-V2/V3: latent Q (or a plain one without q_lora_rank) and KV, K and V split when the file is MLA's
 * (key_length_mla), the leading dense layers, experts with an optional selection bias and shared ones */
static const tspec L_DEEPSEEK2[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), TC(C_QLORA, "attn_q_a_norm.weight", 0, D_QL, 0, 0),
    T("attn_kv_a_norm.weight", 0, D_KL, 0, 0), TC(C_QLORA, "attn_q_a.weight", 0, D_E, D_QL, 0),
    TC(C_QLORA, "attn_q_b.weight", 0, D_QL, D_QM, 0), TC(C_NO_QLORA, "attn_q.weight", 0, D_E, D_QM, 0),
    T("attn_kv_a_mqa.weight", 0, D_E, D_KLR, 0), TC(C_MLA, "attn_k_b.weight", 0, D_NOPE, D_KL, D_H),
    TC(C_MLA, "attn_v_b.weight", 0, D_KL, D_VM, D_H), TC(C_NOT_MLA, "attn_kv_b.weight", 0, D_KL, D_KVBM, 0),
    T("attn_output.weight", 0, D_OM, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_NOT_LEAD, "exp_probs_b.bias", OPT, D_X, 0, 0), {OP_EXPERTS, C_NOT_LEAD, 0, {0}, NULL},
    TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X), {OP_GATE_UP_EXPS, C_NOT_LEAD, 0, {0}, NULL},
    TC(C_NOT_LEAD, "ffn_gate_shexp.weight", 0, D_E, D_FXS2, 0), TC(C_NOT_LEAD, "ffn_down_shexp.weight", 0, D_FXS2, D_E, 0),
    TC(C_NOT_LEAD, "ffn_up_shexp.weight", 0, D_E, D_FXS2, 0), NEXTN, END};

/* GLM-4 (0414): post-attention and post-FFN norms, gate and up in one matrix; the MTP layers (GLM-OCR's) last,
 * skipped by master, their Q/K/V optional */
static const tspec L_GLM4[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKVC(C_TRUNK, D_Q, D_KG, D_VG, 0),
                               QKVC(C_MTP, D_Q, D_KG, D_VG, OPT), T("attn_output.weight", 0, D_Q, D_E, 0),
                               T("post_attention_norm.weight", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                               T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_up.weight", 0, D_E, D_F2, 0),
                               T("post_ffw_norm.weight", 0, D_E, 0, 0), NEXTN, END};
/* Mamba and Mamba-2: a selective state-space layer only */
static const tspec G_MAMBA[] = {{OP_MAMBA_EXPAND, C_ALL, 0, {0}, NULL}, T("token_embd.weight", 0, D_E, D_V, 0),
                                T("output_norm.weight", 0, D_E, 0, 0), {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec L_MAMBA[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("ssm_in.weight", 0, D_E, D_DI2, 0), T("ssm_conv1d.weight", 0, D_CONV, D_DI, 0),
    T("ssm_conv1d.bias", 0, D_DI, 0, 0), T("ssm_x.weight", 0, D_DI, D_MX, 0), T("ssm_dt.weight", 0, D_DTR, D_DI, 0),
    T("ssm_dt.bias", 0, D_DI, 0, 0), T("ssm_a", 0, D_DS, D_DI, 0), T("ssm_d", 0, D_DI, 0, 0),
    T("ssm_out.weight", 0, D_DI, D_E, 0), END};
static const tspec L_MAMBA2[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("ssm_in.weight", 0, D_E, D_M2IN, 0),
    T("ssm_conv1d.weight", 0, D_CONV, D_M2CONV, 0), T("ssm_conv1d.bias", 0, D_M2CONV, 0, 0),
    T("ssm_dt.bias", 0, D_DTR, 0, 0), T("ssm_a", 0, D_ONE, D_DTR, 0), T("ssm_d", 0, D_ONE, D_DTR, 0),
    T("ssm_norm.weight", 0, D_DIG, D_NG, 0), T("ssm_out.weight", 0, D_DI, D_E, 0), END};

/* Qwen3-Next: qwen35moe's layers with beta and alpha in one ssm_ba and the legacy fused ssm_in optional */
static const tspec L_QWEN3NEXT[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
    QKVC(C_NOT_RECR, D_Q2, D_KG, D_VG, 0), TC(C_NOT_RECR, "attn_output.weight", 0, D_Q, D_E, 0),
    TC(C_NOT_RECR, "attn_q_norm.weight", 0, D_HK, 0, 0), TC(C_NOT_RECR, "attn_k_norm.weight", 0, D_HK, 0, 0),
    TC(C_RECR, "ssm_in.weight", OPT, D_E, D_QKVZ, 0), TC(C_RECR, "attn_qkv.weight", OPT, D_E, D_GDN_QKV, 0),
    TC(C_RECR, "attn_gate.weight", OPT, D_E, D_GDN_V, 0), TC(C_RECR, "ssm_conv1d.weight", 0, D_CONV, D_GDN_QKV, 0),
    TC(C_RECR, "ssm_dt.bias", 0, D_DTR, 0, 0), TC(C_RECR, "ssm_a", 0, D_DTR, 0, 0),
    TC(C_RECR, "ssm_ba.weight", 0, D_E, D_DTR2, 0), TC(C_RECR, "ssm_norm.weight", 0, D_DS, 0, 0),
    TC(C_RECR, "ssm_out.weight", 0, D_GDN_V, D_E, 0), T("ffn_gate_inp.weight", 0, D_E, D_X, 0),
    T("ffn_down_exps.weight", 0, D_FX, D_E, D_X), {OP_GATE_UP_EXPS, C_ALL, 0, {0}, NULL},
    T("ffn_gate_inp_shexp.weight", 0, D_E, 0, 0), T("ffn_gate_shexp.weight", 0, D_E, D_FS, 0),
    T("ffn_up_shexp.weight", 0, D_E, D_FS, 0), T("ffn_down_shexp.weight", 0, D_FS, D_E, 0),
    TC(C_MTP, "nextn.eh_proj.weight", 0, D_E2, D_E, 0), TC(C_MTP, "nextn.enorm.weight", 0, D_E, 0, 0),
    TC(C_MTP, "nextn.hnorm.weight", 0, D_E, 0, 0), TC(C_MTP, "nextn.embed_tokens.weight", OPT, D_E, D_V, 0),
    TC(C_MTP, "nextn.shared_head_head.weight", OPT, D_E, D_V, 0),
    TC(C_MTP, "nextn.shared_head_norm.weight", OPT, D_E, 0, 0), END};

/* LFM2: lfm2moe's layer with a dense FFN on every layer (master sets n_layer_dense_lead to n_layer); the
 * optional dense_2 projection of LFM2-ColBert (master creates it after the layers) */
static const tspec G_LFM2[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("token_embd_norm.weight", 0, D_E, 0, 0),
                               {OP_OUTPUT, C_ALL, 0, {0}, NULL}, T("dense_2_out.weight", OPT, D_E, D_EOUT, 0),
                               T("dense_2_out.bias", OPT, D_EOUT, 0, 0), END};
static const tspec L_LFM2[] = {
    T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN, T("attn_norm.weight", 0, D_E, 0, 0),
    TC(C_NOT_RECR, "attn_q_norm.weight", 0, D_HK, 0, 0), TC(C_NOT_RECR, "attn_k_norm.weight", 0, D_HK, 0, 0),
    QKVC(C_NOT_RECR, D_E, D_KGL, D_KGL, 0), TC(C_NOT_RECR, "attn_output.weight", 0, D_E, D_E, 0),
    TC(C_RECR, "shortconv.conv.weight", 0, D_SC, D_E, 0), TC(C_RECR, "shortconv.in_proj.weight", 0, D_E, D_E3, 0),
    TC(C_RECR, "shortconv.out_proj.weight", 0, D_E, D_E, 0), END};

/* Jamba: Mamba layers (with norms on dt, B and C) where head_count_kv is 0, attention elsewhere; experts of n_ff
 * where the file has the layer's router (optional to master), a dense FFN where not */
static const tspec L_JAMBA[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), TC(C_RECR, "ssm_in.weight", 0, D_E, D_DI2, 0),
    TC(C_RECR, "ssm_conv1d.weight", 0, D_CONV, D_DI, 0), TC(C_RECR, "ssm_conv1d.bias", 0, D_DI, 0, 0),
    TC(C_RECR, "ssm_x.weight", 0, D_DI, D_MX, 0), TC(C_RECR, "ssm_dt_norm.weight", 0, D_DTR, 0, 0),
    TC(C_RECR, "ssm_dt.weight", 0, D_DTR, D_DI, 0), TC(C_RECR, "ssm_dt.bias", 0, D_DI, 0, 0),
    TC(C_RECR, "ssm_b_norm.weight", 0, D_DS, 0, 0), TC(C_RECR, "ssm_c_norm.weight", 0, D_DS, 0, 0),
    TC(C_RECR, "ssm_a", 0, D_DS, D_DI, 0), TC(C_RECR, "ssm_d", 0, D_DI, 0, 0), TC(C_RECR, "ssm_out.weight", 0, D_DI, D_E, 0),
    QKVC(C_NOT_RECR, D_E, D_KGL, D_KGL, 0), TC(C_NOT_RECR, "attn_output.weight", 0, D_E, D_E, 0),
    T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_gate_inp.weight", OPT, D_E, D_X, 0),
    TC(C_HAS_ROUTER, "ffn_gate_exps.weight", 0, D_E, D_F, D_X), TC(C_HAS_ROUTER, "ffn_down_exps.weight", 0, D_F, D_E, D_X),
    TC(C_HAS_ROUTER, "ffn_up_exps.weight", 0, D_E, D_F, D_X), TC(C_NO_ROUTER, "ffn_gate.weight", 0, D_E, D_F, 0),
    TC(C_NO_ROUTER, "ffn_down.weight", 0, D_F, D_E, 0), TC(C_NO_ROUTER, "ffn_up.weight", 0, D_E, D_F, 0), END};

/* Granite 4.0 hybrid: Mamba-2 layers where head_count_kv is 0 (the conv bias optional), attention with an
 * optional output bias elsewhere; llama's FFN (experts of n_ff with optional shared ones, else dense with
 * optional biases) */
static const tspec L_GRANITEHYBRID[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), TC(C_RECR, "ssm_in.weight", 0, D_E, D_M2IN, 0),
    TC(C_RECR, "ssm_conv1d.weight", 0, D_CONV, D_M2CONV, 0), TC(C_RECR, "ssm_conv1d.bias", OPT, D_M2CONV, 0, 0),
    TC(C_RECR, "ssm_dt.bias", 0, D_DTR, 0, 0), TC(C_RECR, "ssm_a", 0, D_ONE, D_DTR, 0),
    TC(C_RECR, "ssm_d", 0, D_ONE, D_DTR, 0), TC(C_RECR, "ssm_norm.weight", 0, D_DIG, D_NG, 0),
    TC(C_RECR, "ssm_out.weight", 0, D_DI, D_E, 0), QKVC(C_NOT_RECR, D_Q, D_KGL, D_KGL, 0),
    TC(C_NOT_RECR, "attn_output.weight", 0, D_Q, D_E, 0), TC(C_NOT_RECR, "attn_output.bias", OPT, D_E, 0, 0),
    T("ffn_norm.weight", 0, D_E, 0, 0), ROPE_FREQS, TC(C_MOE, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_MOE, "ffn_gate_exps.weight", OPT, D_E, D_F, D_X), TC(C_MOE, "ffn_down_exps.weight", 0, D_F, D_E, D_X),
    TC(C_MOE, "ffn_up_exps.weight", 0, D_E, D_F, D_X), TC(C_SHEXP, "ffn_gate_shexp.weight", 0, D_E, D_FXS, 0),
    TC(C_SHEXP, "ffn_up_shexp.weight", 0, D_E, D_FXS, 0), TC(C_SHEXP, "ffn_down_shexp.weight", 0, D_FXS, D_E, 0),
    TC(C_DENSE, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_DENSE, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_DENSE, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_DENSE, "ffn_gate.bias", OPT, D_F, 0, 0),
    TC(C_DENSE, "ffn_down.bias", OPT, D_E, 0, 0), TC(C_DENSE, "ffn_up.bias", OPT, D_F, 0, 0), END};

/* Falcon-H1: a Mamba-2 mixer and attention side by side in every layer (layer 0's head counts and n_ff), the
 * FFN norm named without ".weight" (master's tn(FFN_NORM, il)), optional biases */
static const tspec G_FALCON_H1[] = {T("token_embd.weight", 0, D_E, D_V, 0), {OP_OUTPUT, C_ALL, 0, {0}, NULL},
                                    T("output_norm.weight", 0, D_E, 0, 0), END};
static const tspec L_FALCON_H1[] = {
    T("ssm_in.weight", 0, D_E, D_M2IN, 0), T("ssm_conv1d.weight", 0, D_CONV, D_M2CONV, 0),
    T("ssm_conv1d.bias", OPT, D_M2CONV, 0, 0), T("ssm_dt.bias", 0, D_DTR, 0, 0), T("ssm_a", 0, D_ONE, D_DTR, 0),
    T("ssm_d", 0, D_ONE, D_DTR, 0), T("ssm_norm.weight", OPT, D_DIG, D_NG, 0), T("ssm_out.weight", 0, D_DI, D_E, 0),
    QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),
    T("attn_norm.weight", 0, D_E, 0, 0), T("ffn_norm", 0, D_E, 0, 0), ROPE_FREQS, DENSE_FFN,
    T("ffn_gate.bias", OPT, D_F, 0, 0), T("ffn_down.bias", OPT, D_E, 0, 0), T("ffn_up.bias", OPT, D_F, 0, 0), END};

/* EXAONE 4: Q/K norms, norms after attention and FFN only, an n_embd-wide output projection; the MTP layers last
 * (master creates and skips them: their Q/K/V optional) */
static const tspec L_EXAONE4[] = {
    QKVC(C_TRUNK, D_Q, D_KG, D_VG, 0), QKVC(C_MTP, D_Q, D_KG, D_VG, OPT), T("attn_output.weight", 0, D_E, D_E, 0),
    TC(C_TRUNK, "rope_freqs.weight", OPT | DUP1, D_ROT2, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0),
    T("attn_q_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0), DENSE_FFN,
    T("post_ffw_norm.weight", 0, D_E, 0, 0), TC(C_MTP, "nextn.eh_proj.weight", 0, D_E2, D_E, 0),
    TC(C_MTP, "nextn.enorm.weight", 0, D_E, 0, 0), TC(C_MTP, "nextn.hnorm.weight", 0, D_E, 0, 0),
    TC(C_MTP, "nextn.shared_head_norm.weight", OPT, D_E, 0, 0), END};
/* Hunyuan (dense: master's hunyuan-vl loader; MoE): Q/K norms, K before Q; the MoE's experts of n_ff and shared
 * ones of expert_shared_feed_forward_length, else n_ff */
#define HUNYUAN_ATTN                                                                                           \
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),      \
        T("attn_k_norm.weight", 0, D_HK, 0, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0),                          \
        T("ffn_norm.weight", 0, D_E, 0, 0)
static const tspec L_HUNYUAN_DENSE[] = {HUNYUAN_ATTN, DENSE_FFN, END};
static const tspec L_HUNYUAN_MOE[] = {
    HUNYUAN_ATTN, T("ffn_gate_inp.weight", 0, D_E, D_X, 0), T("ffn_gate_exps.weight", 0, D_E, D_F, D_X),
    T("ffn_down_exps.weight", 0, D_F, D_E, D_X), T("ffn_up_exps.weight", 0, D_E, D_F, D_X),
    T("ffn_gate_shexp.weight", 0, D_E, D_FS, 0), T("ffn_up_shexp.weight", 0, D_E, D_FS, 0),
    T("ffn_down_shexp.weight", 0, D_FS, D_E, 0), END};
/* Apertus: xIELU's up and down only, Q/K norms with optional biases */
static const tspec L_APERTUS[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), TC(C_LONGROPE, "rope_factors_long.weight", OPT | DUP1, D_ROT2, 0, 0),
    TC(C_LONGROPE, "rope_factors_short.weight", OPT | DUP1, D_ROT2, 0, 0),
    TC(C_NOT_LONGROPE, "rope_freqs.weight", OPT | DUP1, D_ROT2, 0, 0), QKV(D_Q, D_VG, D_VG, 0),
    T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_up.weight", 0, D_E, D_F, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0),
    T("attn_q_norm.bias", OPT, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.bias", OPT, D_HK, 0, 0),
    END};
/* dots.llm1: K and V as wide as Q, Q/K norms, the leading dense layers, then experts (an optional selection bias)
 * with expert_shared_count shared ones */
static const tspec L_DOTS1[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_Q, D_Q, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_k_norm.weight", 0, D_HK, 0, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_NOT_LEAD, "exp_probs_b.bias", OPT, D_X, 0, 0), {OP_EXPERTS, C_NOT_LEAD, 0, {0}, NULL},
    TC(C_NOT_LEAD, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_gate_shexp.weight", 0, D_E, D_FXS2, 0),
    TC(C_NOT_LEAD, "ffn_down_shexp.weight", 0, D_FXS2, D_E, 0), TC(C_NOT_LEAD, "ffn_up_shexp.weight", 0, D_E, D_FXS2, 0),
    END};
/* ERNIE 4.5 MoE: ernie4_5's layer; past the leading dense layers experts (gate and selection bias optional) and,
 * with expert_shared_feed_forward_length, shared ones */
static const tspec L_ERNIE_MOE[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_output.bias", OPT, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_NOT_LEAD, "exp_probs_b.bias", OPT, D_X, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_exps.weight", OPT, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD_SHEXP, "ffn_gate_shexp.weight", 0, D_E, D_FXS, 0),
    TC(C_NOT_LEAD_SHEXP, "ffn_down_shexp.weight", 0, D_FXS, D_E, 0),
    TC(C_NOT_LEAD_SHEXP, "ffn_up_shexp.weight", 0, D_E, D_FXS, 0), TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0),
    TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0), TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), END};
/* MiniMax-M2: Q/K norms over all heads, experts of n_ff with a required selection bias */
static const tspec L_MINIMAX_M2[] = {
    QKV(D_Q, D_VG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_norm.weight", 0, D_E, 0, 0),
    T("attn_q_norm.weight", 0, D_Q, 0, 0), T("attn_k_norm.weight", 0, D_KG, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    T("ffn_gate_inp.weight", 0, D_E, D_X, 0), T("ffn_gate_exps.weight", 0, D_E, D_F, D_X),
    T("ffn_down_exps.weight", 0, D_F, D_E, D_X), T("ffn_up_exps.weight", 0, D_E, D_F, D_X),
    T("exp_probs_b.bias", 0, D_X, 0, 0), END};
/* SmallThinker: master asserts experts in every layer (expert_feed_forward_length wide) */
static const tspec L_SMALLTHINKER[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("ffn_norm.weight", 0, D_E, 0, 0), {OP_EXPERTS, C_ALL, 0, {0}, NULL}, T("ffn_gate_inp.weight", 0, D_E, D_X, 0),
    T("ffn_gate_exps.weight", 0, D_E, D_FXR, D_X), T("ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    T("ffn_up_exps.weight", 0, D_E, D_FXR, D_X), END};
/* Ling 2.0 (bailingmoe2): master asserts experts before the layers; a fused Q/K/V, Q/K norms, the leading dense
 * layers, then experts with shared ones; the MTP layers last (nextn's tensors and a layer_output_norm) */
static const tspec G_BAILINGMOE2[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                      T("output.weight", 0, D_E, D_V, 0), {OP_EXPERTS, C_ALL, 0, {0}, NULL}, END};
static const tspec L_BAILINGMOE2[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_E2G, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_q_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_NOT_LEAD, "exp_probs_b.bias", OPT, D_X, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_gate_shexp.weight", 0, D_E, D_FXSB, 0),
    TC(C_NOT_LEAD, "ffn_down_shexp.weight", 0, D_FXSB, D_E, 0), TC(C_NOT_LEAD, "ffn_up_shexp.weight", 0, D_E, D_FXSB, 0),
    TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_MTP, "nextn.eh_proj.weight", 0, D_E2, D_E, 0),
    TC(C_MTP, "nextn.embed_tokens.weight", OPT, D_E, D_V, 0), TC(C_MTP, "nextn.enorm.weight", 0, D_E, 0, 0),
    TC(C_MTP, "nextn.hnorm.weight", 0, D_E, 0, 0), TC(C_MTP, "nextn.shared_head_head.weight", OPT, D_E, D_V, 0),
    TC(C_MTP, "nextn.shared_head_norm.weight", OPT, D_E, 0, 0), TC(C_MTP, "layer_output_norm.weight", 0, D_E, 0, 0),
    END};
/* K-EXAONE (exaone-moe): Q/K norms; a dense FFN on the leading and the MTP layers, experts (master throws
 * without them) with shared ones elsewhere; the MTP layers' Q/K/V optional as master skips them */
static const tspec L_EXAONE_MOE[] = {
    QKVC(C_TRUNK, D_Q, D_KG, D_KG, 0), QKVC(C_MTP, D_Q, D_KG, D_KG, OPT), T("attn_output.weight", 0, D_Q, D_E, 0),
    ROPE_FREQS, T("attn_norm.weight", 0, D_E, 0, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0),
    T("attn_k_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    TC(C_LEAD_OR_MTP, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD_OR_MTP, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD_OR_MTP, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_NOT_LEAD_TRUNK, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_NOT_LEAD_TRUNK, "exp_probs_b.bias", OPT, D_X, 0, 0), {OP_EXPERTS, C_NOT_LEAD_TRUNK, 0, {0}, NULL},
    TC(C_NOT_LEAD_TRUNK, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X),
    TC(C_NOT_LEAD_TRUNK, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD_TRUNK, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X),
    TC(C_NOT_LEAD_TRUNK, "ffn_gate_shexp.weight", 0, D_E, D_FXSE, 0),
    TC(C_NOT_LEAD_TRUNK, "ffn_down_shexp.weight", 0, D_FXSE, D_E, 0),
    TC(C_NOT_LEAD_TRUNK, "ffn_up_shexp.weight", 0, D_E, D_FXSE, 0), TC(C_MTP, "nextn.eh_proj.weight", 0, D_E2, D_E, 0),
    TC(C_MTP, "nextn.enorm.weight", 0, D_E, 0, 0), TC(C_MTP, "nextn.hnorm.weight", 0, D_E, 0, 0),
    TC(C_MTP, "nextn.shared_head_norm.weight", OPT, D_E, 0, 0), TC(C_MTP, "nextn.embed_tokens.weight", OPT, D_E, D_V, 0),
    TC(C_MTP, "nextn.shared_head_head.weight", OPT, D_E, D_V, 0), END};

/* RWKV-6 and RWKV-7: the embedding's layer norm (LN0), biased norms, an output of its own; time mixing (a fused
 * lerp of 5 or 6, [n_embd, 1, 1, N]) and channel mixing of n_ff */
static const tspec G_RWKV[] = {T("token_embd.weight", 0, D_E, D_V, 0), NORM_B("token_embd_norm"), NORM_B("output_norm"),
                               T("output.weight", 0, D_E, D_V, 0), END};
#define LERP(name, f) T(name, f, D_E, D_ONE, D_ONE)
static const tspec L_RWKV6[] = {
    NORM_B("attn_norm"), NORM_B("attn_norm_2"), T("time_mix_w1.weight", 0, D_E, D_TMX5, 0),
    T("time_mix_w2.weight", 0, D_TMX, D_E, D_FIVE), LERP("time_mix_lerp_x.weight", 0), LERP("time_mix_lerp_w.weight", OPT),
    LERP("time_mix_lerp_k.weight", OPT), LERP("time_mix_lerp_v.weight", OPT), LERP("time_mix_lerp_r.weight", OPT),
    LERP("time_mix_lerp_g.weight", OPT), T4("time_mix_lerp_fused.weight", OPT, D_E, D_ONE, D_ONE, D_FIVE),
    {OP_RWKV6_LERP, C_ALL, 0, {0}, NULL}, T("time_mix_first.weight", 0, D_WKV, D_EWKV, 0),
    T("time_mix_decay.weight", 0, D_E, 0, 0), T("time_mix_decay_w1.weight", 0, D_E, D_TDX, 0),
    T("time_mix_decay_w2.weight", 0, D_TDX, D_E, 0), T("time_mix_key.weight", 0, D_E, D_E, 0),
    T("time_mix_value.weight", 0, D_E, D_E, 0), T("time_mix_receptance.weight", 0, D_E, D_E, 0),
    T("time_mix_gate.weight", 0, D_E, D_E, 0), NORM_B("time_mix_ln"), T("time_mix_output.weight", 0, D_E, D_E, 0),
    LERP("channel_mix_lerp_k.weight", 0), LERP("channel_mix_lerp_r.weight", 0), T("channel_mix_key.weight", 0, D_E, D_F, 0),
    T("channel_mix_value.weight", 0, D_F, D_E, 0), T("channel_mix_receptance.weight", 0, D_E, D_E, 0), END};
/* RWKV-7: LoRAs of the decay (w), in-context learning rate (a), value residual mix (v: layer 0's of the iclr rank,
 * master's "actually not used") and gate (g) */
static const tspec L_RWKV7[] = {
    NORM_B("attn_norm"), NORM_B("attn_norm_2"), T("time_mix_w0.weight", 0, D_E, 0, 0),
    T("time_mix_w1.weight", 0, D_E, D_LDECAY, 0), T("time_mix_w2.weight", 0, D_LDECAY, D_E, 0),
    T("time_mix_a0.weight", 0, D_E, 0, 0), T("time_mix_a1.weight", 0, D_E, D_LICLR, 0),
    T("time_mix_a2.weight", 0, D_LICLR, D_E, 0), T("time_mix_v0.weight", 0, D_E, 0, 0),
    TC(C_FIRST, "time_mix_v1.weight", 0, D_E, D_LICLR, 0), TC(C_FIRST, "time_mix_v2.weight", 0, D_LICLR, D_E, 0),
    TC(C_NOT_FIRST, "time_mix_v1.weight", 0, D_E, D_LVRES, 0), TC(C_NOT_FIRST, "time_mix_v2.weight", 0, D_LVRES, D_E, 0),
    T("time_mix_g1.weight", 0, D_E, D_LGATE, 0), T("time_mix_g2.weight", 0, D_LGATE, D_E, 0),
    T4("time_mix_lerp_fused.weight", 0, D_E, D_ONE, D_ONE, D_SIX), T("time_mix_k_k.weight", 0, D_E, 0, 0),
    T("time_mix_k_a.weight", 0, D_E, 0, 0), T("time_mix_r_k.weight", 0, D_E, 0, 0), T("time_mix_key.weight", 0, D_E, D_E, 0),
    T("time_mix_value.weight", 0, D_E, D_E, 0), T("time_mix_receptance.weight", 0, D_E, D_E, 0), NORM_B("time_mix_ln"),
    T("time_mix_output.weight", 0, D_E, D_E, 0), LERP("channel_mix_lerp_k.weight", 0),
    T("channel_mix_key.weight", 0, D_E, D_F, 0), T("channel_mix_value.weight", 0, D_F, D_E, 0), END};

/* RWKV-6 with Qwen2's FFN (rwkv6qwen2): no LN0, RMS norms, K/V of the KV heads, optional biases */
static const tspec G_RWKV6QWEN2[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                     T("output_norm.bias", OPT, D_E, 0, 0), T("output.weight", 0, D_E, D_V, 0), END};
static const tspec L_RWKV6QWEN2[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("time_mix_w1.weight", 0, D_E, D_TMX5, 0),
    T("time_mix_w2.weight", 0, D_TMX, D_E, D_FIVE), LERP("time_mix_lerp_x.weight", 0),
    T4("time_mix_lerp_fused.weight", 0, D_E, D_ONE, D_ONE, D_FIVE), T("time_mix_first.weight", OPT, D_WKV, D_EWKV, 0),
    T("time_mix_decay.weight", 0, D_E, 0, 0), T("time_mix_decay_w1.weight", 0, D_E, D_TDX, 0),
    T("time_mix_decay_w2.weight", 0, D_TDX, D_E, 0), T("time_mix_key.weight", 0, D_E, D_RKV, 0),
    T("time_mix_value.weight", 0, D_E, D_RKV, 0), T("time_mix_receptance.weight", 0, D_E, D_E, 0),
    T("time_mix_gate.weight", 0, D_E, D_E, 0), T("time_mix_key.bias", OPT, D_RKV, 0, 0),
    T("time_mix_value.bias", OPT, D_RKV, 0, 0), T("time_mix_receptance.bias", OPT, D_E, 0, 0),
    T("time_mix_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN, END};
/* RWKV-7 with a transformer FFN (arwkv7): no LN0, the gate LoRA and time_mix_ln optional, a fused lerp of 6 or 5 */
static const tspec L_ARWKV7[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("time_mix_w0.weight", 0, D_E, 0, 0),
    T("time_mix_w1.weight", 0, D_E, D_LDECAY, 0), T("time_mix_w2.weight", 0, D_LDECAY, D_E, 0),
    T("time_mix_a0.weight", 0, D_E, 0, 0), T("time_mix_a1.weight", 0, D_E, D_LICLR, 0),
    T("time_mix_a2.weight", 0, D_LICLR, D_E, 0), T("time_mix_v0.weight", 0, D_E, 0, 0),
    TC(C_FIRST, "time_mix_v1.weight", 0, D_E, D_LICLR, 0), TC(C_FIRST, "time_mix_v2.weight", 0, D_LICLR, D_E, 0),
    TC(C_NOT_FIRST, "time_mix_v1.weight", 0, D_E, D_LVRES, 0), TC(C_NOT_FIRST, "time_mix_v2.weight", 0, D_LVRES, D_E, 0),
    T("time_mix_g1.weight", OPT, D_E, D_LGATE, 0), T("time_mix_g2.weight", OPT, D_LGATE, D_E, 0),
    {OP_LERP_6_OR_5, C_ALL, 0, {0}, NULL}, T("time_mix_k_k.weight", 0, D_E, 0, 0), T("time_mix_k_a.weight", 0, D_E, 0, 0),
    T("time_mix_r_k.weight", 0, D_E, 0, 0), T("time_mix_key.weight", 0, D_E, D_E, 0),
    T("time_mix_value.weight", 0, D_E, D_E, 0), T("time_mix_receptance.weight", 0, D_E, D_E, 0),
    T("time_mix_ln.weight", OPT, D_E, 0, 0), T("time_mix_ln.bias", OPT, D_E, 0, 0),
    T("time_mix_output.weight", 0, D_E, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0), DENSE_FFN, END};

/* Nemotron-H: Mamba-2 layers where head_count_kv and feed_forward_length are both 0, attention where only
 * feed_forward_length is, an FFN elsewhere (up and down: dense of the layer's n_ff, or experts of
 * moe_latent_size with shared ones and a required selection bias); the MTP layers last, an attention and an expert
 * sub-layer each (master skips them: their Q/K/V optional) */
static const tspec L_NEMOTRON_H[] = {
    TC(C_TRUNK, "attn_norm.weight", 0, D_E, 0, 0), TC(C_RECR, "ssm_in.weight", 0, D_E, D_M2IN, 0),
    TC(C_RECR, "ssm_conv1d.weight", 0, D_CONV, D_M2CONV, 0), TC(C_RECR, "ssm_conv1d.bias", OPT, D_M2CONV, 0, 0),
    TC(C_RECR, "ssm_dt.bias", 0, D_DTR, 0, 0), TC(C_RECR, "ssm_a", 0, D_ONE, D_DTR, 0),
    TC(C_RECR, "ssm_d", 0, D_ONE, D_DTR, 0), TC(C_RECR, "ssm_norm.weight", 0, D_DIG, D_NG, 0),
    TC(C_RECR, "ssm_out.weight", 0, D_DI, D_E, 0), QKVC(C_ATTN_FF0, D_Q, D_KGL, D_VGL, 0),
    TC(C_ATTN_FF0, "attn_output.weight", 0, D_Q, D_E, 0), TC(C_ATTN_FF0, "attn_output.bias", OPT, D_E, 0, 0),
    TC(C_FFN_MOE, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_FFN_MOE, "exp_probs_b.bias", 0, D_X, 0, 0),
    TC(C_FFN_MOE, "ffn_latent_down.weight", OPT, D_E, D_ME, 0), TC(C_FFN_MOE, "ffn_latent_up.weight", OPT, D_ME, D_E, 0),
    TC(C_FFN_MOE, "ffn_down_exps.weight", 0, D_FX, D_ME, D_X), TC(C_FFN_MOE, "ffn_up_exps.weight", 0, D_ME, D_FX, D_X),
    TC(C_FFN_MOE, "ffn_down_shexp.weight", 0, D_FXS, D_E, 0), TC(C_FFN_MOE, "ffn_up_shexp.weight", 0, D_E, D_FXS, 0),
    TC(C_FFN_DENSE, "ffn_down.weight", 0, D_FL, D_E, 0), TC(C_FFN_DENSE, "ffn_up.weight", 0, D_E, D_FL, 0),
    TC(C_FFN_DENSE, "ffn_down.bias", OPT, D_E, 0, 0), TC(C_FFN_DENSE, "ffn_up.bias", OPT, D_FL, 0, 0),
    TC(C_MTP, "nextn.enorm.weight", 0, D_E, 0, 0), TC(C_MTP, "nextn.hnorm.weight", 0, D_E, 0, 0),
    TC(C_MTP, "nextn.eh_proj.weight", 0, D_E2, D_E, 0), TC(C_MTP, "nextn.shared_head_norm.weight", 0, D_E, 0, 0),
    TC(C_MTP, "attn_norm.weight", 0, D_E, 0, 0), QKVC(C_MTP, D_Q, D_KGL, D_VGL, OPT),
    TC(C_MTP, "attn_output.weight", 0, D_Q, D_E, 0), TC(C_MTP, "attn_output.bias", OPT, D_E, 0, 0),
    TC(C_MTP, "post_attention_norm.weight", 0, D_E, 0, 0), TC(C_MTP, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_MTP, "exp_probs_b.bias", 0, D_X, 0, 0), TC(C_MTP, "ffn_down_exps.weight", 0, D_FX, D_ME, D_X),
    TC(C_MTP, "ffn_up_exps.weight", 0, D_ME, D_FX, D_X), TC(C_MTP, "ffn_down_shexp.weight", 0, D_FXS, D_E, 0),
    TC(C_MTP, "ffn_up_shexp.weight", 0, D_E, D_FXS, 0), END};

/* Qwen (1): a fused Q/K/V with its bias, the FFN of n_ff / 2 */
static const tspec L_QWEN[] = {T("attn_norm.weight", 0, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_E3, 0),
                               T("attn_qkv.bias", 0, D_E3, 0, 0), T("attn_output.weight", 0, D_E, D_E, 0),
                               T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_FH, 0),
                               T("ffn_down.weight", 0, D_FH, D_E, 0), T("ffn_up.weight", 0, D_E, D_FH, 0), END};
/* PLaMo (1): attention and FFN in parallel from one norm, Q n_embd wide */
static const tspec L_PLAMO[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                T("attn_output.weight", 0, D_E, D_E, 0), DENSE_FFN, END};
/* openPangu-Embedded: a required attention output bias, the rope factors */
static const tspec L_PANGU[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_output.bias", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    ROPE_FACTORS, DENSE_FFN, END};
/* Jais-2: layer norms with biases, separate Q/K/V (no fused form) whose biases are n_embd wide, a plain FFN */
static const tspec G_JAIS2[] = {T("token_embd.weight", 0, D_E, D_V, 0), NORM_B("output_norm"),
                                {OP_OUTPUT, C_ALL, 0, {0}, NULL}, END};
static const tspec L_JAIS2[] = {
    NORM_B("attn_norm"), T("attn_q.weight", 0, D_E, D_Q, 0), T("attn_k.weight", 0, D_E, D_KG, 0),
    T("attn_v.weight", 0, D_E, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_q.bias", 0, D_E, 0, 0),
    T("attn_k.bias", 0, D_E, 0, 0), T("attn_v.bias", 0, D_E, 0, 0), T("attn_output.bias", 0, D_E, 0, 0),
    NORM_B("ffn_norm"), T("ffn_up.weight", 0, D_E, D_F, 0), T("ffn_up.bias", 0, D_F, 0, 0),
    T("ffn_down.weight", 0, D_F, D_E, 0), T("ffn_down.bias", 0, D_E, 0, 0), END};
/* LLaDA-MoE: master asserts experts before the layers; Q n_embd wide, Q/K norms, experts of D_FX */
static const tspec L_LLADA_MOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0),
                                    T("attn_output.weight", 0, D_E, D_E, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0),
                                    T("attn_k_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                    T("ffn_gate_inp.weight", 0, D_E, D_X, 0), T("ffn_gate_exps.weight", 0, D_E, D_FX, D_X),
                                    T("ffn_down_exps.weight", 0, D_FX, D_E, D_X), T("ffn_up_exps.weight", 0, D_E, D_FX, D_X),
                                    END};
static const tspec G_UNTIED_EXPERTS[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                         T("output.weight", 0, D_E, D_V, 0), {OP_EXPERTS, C_ALL, 0, {0}, NULL}, END};

/* Ling (bailingmoe): heads of the rotary dimension, experts asserted in the first layer, shared ones of
 * expert_feed_forward_length expert_shared_count */
static const tspec L_BAILINGMOE[] = {T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_QR, D_KVR, D_KVR, 0),
                                     T("attn_output.weight", 0, D_QR, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                     EXPERTS(D_FXR), T("ffn_gate_shexp.weight", 0, D_E, D_FXS2, 0),
                                     T("ffn_down_shexp.weight", 0, D_FXS2, D_E, 0),
                                     T("ffn_up_shexp.weight", 0, D_E, D_FXS2, 0), END};
/* Snowflake Arctic: a dense FFN of n_embd beside experts of n_ff with their own norm */
static const tspec L_ARCTIC[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_E, D_VG, D_VG, 0), T("attn_output.weight", 0, D_E, D_E, 0),
    T("ffn_norm.weight", 0, D_E, 0, 0), T("ffn_gate.weight", 0, D_E, D_E, 0), T("ffn_down.weight", 0, D_E, D_E, 0),
    T("ffn_up.weight", 0, D_E, D_E, 0), T("ffn_gate_inp.weight", 0, D_E, D_X, 0), T("ffn_norm_exps.weight", 0, D_E, 0, 0),
    T("ffn_gate_exps.weight", 0, D_E, D_F, D_X), T("ffn_down_exps.weight", 0, D_F, D_E, D_X),
    T("ffn_up_exps.weight", 0, D_E, D_F, D_X), END};
/* OpenELM: each layer its own head counts and FFN size; one fused Q/K/V (no split form), Q/K norms */
static const tspec G_OPENELM[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                  T("token_embd.weight", DUP, D_E, D_V, 0), END};
static const tspec L_OPENELM[] = {T("attn_norm.weight", 0, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_QKKL, 0),
                                  T("attn_q_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
                                  T("attn_output.weight", 0, D_QHL, D_E, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
                                  T("ffn_gate.weight", 0, D_E, D_FL, 0), T("ffn_down.weight", 0, D_FL, D_E, 0),
                                  T("ffn_up.weight", 0, D_E, D_FL, 0), END};
/* PLaMo 3: one fused Q/K/V of the layer's heads, Q/K norms, post-norms named without ".weight" as master names
 * them, gate and up in one */
static const tspec L_PLAMO3[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("attn_qkv.weight", 0, D_E, D_QKVL, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0),
    T("attn_k_norm.weight", 0, D_HK, 0, 0), T("attn_output.weight", 0, D_VHL, D_E, 0),
    T("post_attention_norm", 0, D_E, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0), T("post_ffw_norm", 0, D_E, 0, 0),
    T("ffn_up.weight", 0, D_E, D_F2L, 0), T("ffn_down.weight", 0, D_FL, D_E, 0), END};
/* Granite 4 with sliding-window attention: per-layer sinks; llama's FFN or experts of n_ff with a shared gate/up */
static const tspec L_GRANITE_SWA[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_output.bias", OPT, D_E, 0, 0), T("attn_sinks.weight", 0, D_H, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    ROPE_FACTORS, DENSE_FFN_OPT_B,
    TC(C_MOE, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_MOE, "ffn_down_exps.weight", 0, D_F, D_E, D_X),
    {OP_GATE_UP_EXPS, C_MOE, 0, {D_F}, NULL}, TC(C_SHEXP, "ffn_up_shexp.weight", 0, D_E, D_FXS2X, 0),
    TC(C_SHEXP, "ffn_down_shexp.weight", 0, D_FXS, D_E, 0), END};

/* AFMoE (Trinity): post-norms, Q/K norms, a gate on the attention output; the leading dense layers, then experts
 * with a required selection bias and shared ones of n_ff_exp expert_shared_count */
static const tspec L_AFMOE[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), T("post_attention_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0),
    T("attn_output.weight", 0, D_Q, D_E, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0),
    T("attn_gate.weight", 0, D_E, D_Q, 0), T("ffn_norm.weight", 0, D_E, 0, 0), T("post_ffw_norm.weight", 0, D_E, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0), TC(C_NOT_LEAD, "exp_probs_b.bias", 0, D_X, 0, 0),
    TC(C_NOT_LEAD, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X), TC(C_MOE_SHARED, "ffn_gate_shexp.weight", 0, D_E, D_FXS2, 0),
    TC(C_MOE_SHARED, "ffn_down_shexp.weight", 0, D_FXS2, D_E, 0), TC(C_MOE_SHARED, "ffn_up_shexp.weight", 0, D_E, D_FXS2, 0),
    TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), END};
/* GroveMoE: experts and, per group of experts_per_group, chunk experts; the asserts before the layers */
static const tspec G_GROVEMOE[] = {T("token_embd.weight", 0, D_E, D_V, 0), T("output_norm.weight", 0, D_E, 0, 0),
                                   {OP_OUTPUT, C_ALL, 0, {0}, NULL}, {OP_EXPERTS, C_ALL, 0, {0}, NULL},
                                   {OP_GROUPS, C_ALL, 0, {0}, NULL}, END};
static const tspec L_GROVEMOE[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_k_norm.weight", 0, D_HK, 0, 0), T("attn_q_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    T("ffn_gate_inp.weight", 0, D_E, D_X, 0), T("ffn_gate_exps.weight", 0, D_E, D_FX, D_X),
    T("ffn_down_exps.weight", 0, D_FX, D_E, D_X), T("ffn_up_exps.weight", 0, D_E, D_FX, D_X),
    T("ffn_gate_chexps.weight", 0, D_E, D_FCH, D_XCH), T("ffn_down_chexps.weight", 0, D_FCH, D_E, D_XCH),
    T("ffn_up_chexps.weight", 0, D_E, D_FCH, D_XCH), END};
/* DeciLM (Nemotron-NAS): each layer's heads and FFN size decide what it has: a linear map for attention, attention,
 * none; an FFN or none; the biases optional */
static const tspec L_DECI[] = {
    TC(C_LINEAR_ATTN, "attn_norm.weight", 0, D_E, 0, 0), TC(C_LINEAR_ATTN, "attn_output.weight", 0, D_E, D_E, 0),
    TC(C_ATTN_KV, "attn_norm.weight", 0, D_E, 0, 0), QKVC(C_ATTN_KV, D_QHL, D_KGL, D_VGL, 0),
    TC(C_ATTN_KV, "attn_output.weight", 0, D_QHL, D_E, 0), T("attn_output.bias", OPT, D_E, 0, 0),
    TC(C_FF, "ffn_norm.weight", 0, D_E, 0, 0), ROPE_FACTORS, TC(C_FF, "ffn_gate.weight", 0, D_E, D_FL, 0),
    TC(C_FF, "ffn_down.weight", 0, D_FL, D_E, 0), TC(C_FF, "ffn_up.weight", 0, D_E, D_FL, 0),
    T("ffn_gate.bias", OPT, D_FL, 0, 0), T("ffn_down.bias", OPT, D_E, 0, 0), T("ffn_up.bias", OPT, D_FL, 0, 0), END};

/* Hy3 (hy_v3): Q/K norms; every FFN tensor optional (a dense FFN, experts with a selection bias named without
 * ".weight", shared ones of expert_shared_feed_forward_length, else expert_feed_forward_length); the MTP layers
 * last with nextn's tensors */
static const tspec L_HY_V3[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_KG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    T("attn_q_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0), T("ffn_norm.weight", 0, D_E, 0, 0),
    T("ffn_gate.weight", OPT, D_E, D_F, 0), T("ffn_down.weight", OPT, D_F, D_E, 0), T("ffn_up.weight", OPT, D_E, D_F, 0),
    T("ffn_gate_inp.weight", OPT, D_E, D_X, 0), T("exp_probs_b", OPT, D_X, 0, 0),
    T("ffn_down_exps.weight", OPT, D_FX, D_E, D_X), {OP_GATE_UP_EXPS, C_ALL, OPT, {0}, NULL},
    T("ffn_gate_shexp.weight", OPT, D_E, D_FXSE, 0), T("ffn_up_shexp.weight", OPT, D_E, D_FXSE, 0),
    T("ffn_down_shexp.weight", OPT, D_FXSE, D_E, 0), NEXTN, END};

/* Laguna: the layer's own head counts, Q/K norms, an attention gate a head or an element; the leading dense layers,
 * then experts with a required selection bias and shared ones */
static const tspec L_LAGUNA[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_QHL, D_KGL, D_VGL, 0), T("attn_output.weight", 0, D_QHL, D_E, 0),
    T("attn_q_norm.weight", 0, D_HK, 0, 0), T("attn_k_norm.weight", 0, D_HK, 0, 0), {OP_HEAD_GATE, C_ALL, 0, {0}, NULL},
    T("ffn_norm.weight", 0, D_E, 0, 0), TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_NOT_LEAD, "exp_probs_b.bias", 0, D_X, 0, 0), TC(C_NOT_LEAD, "ffn_gate_exps.weight", 0, D_E, D_FXR, D_X),
    TC(C_NOT_LEAD, "ffn_up_exps.weight", 0, D_E, D_FXR, D_X), TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXR, D_E, D_X),
    TC(C_NOT_LEAD, "ffn_gate_shexp.weight", 0, D_E, D_FSHC, 0), TC(C_NOT_LEAD, "ffn_up_shexp.weight", 0, D_E, D_FSHC, 0),
    TC(C_NOT_LEAD, "ffn_down_shexp.weight", 0, D_FSHC, D_E, 0), TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0), END};

/* Cohere2 MoE: one norm before attention and FFN, the leading dense layers, then experts of n_ff_exp (else n_ff)
 * and shared ones; experts checked before the layers; the MTP layers last with nextn's tensors */
static const tspec L_COHERE2MOE[] = {
    T("attn_norm.weight", 0, D_E, 0, 0), QKV(D_Q, D_VG, D_VG, 0), T("attn_output.weight", 0, D_Q, D_E, 0),
    TC(C_LEAD, "ffn_gate.weight", 0, D_E, D_F, 0), TC(C_LEAD, "ffn_down.weight", 0, D_F, D_E, 0),
    TC(C_LEAD, "ffn_up.weight", 0, D_E, D_F, 0), TC(C_NOT_LEAD, "ffn_gate_inp.weight", 0, D_E, D_X, 0),
    TC(C_NOT_LEAD, "ffn_down_exps.weight", 0, D_FXG, D_E, D_X), {OP_GATE_UP_EXPS, C_NOT_LEAD, 0, {D_FXG}, NULL},
    TC(C_MOE_SHARED, "ffn_gate_shexp.weight", 0, D_E, D_FSHG, 0), TC(C_MOE_SHARED, "ffn_down_shexp.weight", 0, D_FSHG, D_E, 0),
    TC(C_MOE_SHARED, "ffn_up_shexp.weight", 0, D_E, D_FSHG, 0), NEXTN, END};

/* A key an architecture reads in its load_arch_hparams (after the common ones). */
typedef struct arch_key {
    const char *suffix; /* after "<arch>." */
    uint8_t type;       /* LGG_VT_*; LGG_VT_COUNT: a u32 or an array (get_key_or_arr, optional); KT_*: below */
    bool required;
} arch_key;

/* get_key_or_arr(key, rope_sections, 4, ...): an array of 4 (u)int32, or one int32 for all four */
#define KT_SECTIONS (LGG_VT_COUNT + 1)
/* get_key_or_arr(key, is_recr, n_layer, false): which layers are recurrent, one element a layer */
#define KT_LAYER_FLAGS (LGG_VT_COUNT + 2)
/* not a key read: the recurrent layers (C_RECR) are those whose head_count_kv is 0 (lfm2moe), not qwen35's */
#define KT_RECR_KV0 (LGG_VT_COUNT + 3)
/* a u32 required unless the model is a "lite" one (deepseek2's q_lora_rank: 26 or 27 layers, or 48 with a
 * vocabulary of 128256, from <arch>.vocab_size else the token list) */
#define KT_U32_UNLESS_LITE (LGG_VT_COUNT + 4)
/* get_key_or_arr(key, float array, n_layer), required: one f32, or an array of n_layer f32 (apertus' xIELU);
 * the suffix is the key's whole name (master's xielu.* keys have no architecture prefix) */
#define KT_F32_LAYERS (LGG_VT_COUNT + 5)
/* the layer-norm epsilon or the RMS one, either optional but not both absent (cohere2moe); the suffix is the first */
#define KT_EPS_EITHER (LGG_VT_COUNT + 9)
/* a u32 whose default is 1, not 0 (laguna's expert_shared_count) */
#define KT_U32_DEFAULT1 (LGG_VT_COUNT + 8)
/* not a key read: as KT_RECR_KV0, and the layer's feed_forward_length 0 too (nemotron_h) */
#define KT_RECR_KV0_FF0 (LGG_VT_COUNT + 6)
/* get_arr into a per-layer array: an array (of bool, u32 or i32), at most 512 long (granite_swa's window pattern) */
#define KT_LAYER_ARRAY (LGG_VT_COUNT + 7)

#define RMS_EPS {"attention.layer_norm_rms_epsilon", LGG_VT_F32, true}
#define NORM_EPS {"attention.layer_norm_epsilon", LGG_VT_F32, true}
#define K_FF_EXP {"expert_feed_forward_length", LGG_VT_U32, false}
#define K_FF_SHEXP {"expert_shared_feed_forward_length", LGG_VT_U32, false}
#define K_SWA {"attention.sliding_window", LGG_VT_U32, false}
#define K_SWA_PATTERN {"attention.sliding_window_pattern", LGG_VT_COUNT, false}
#define K_SWA_BASE {"rope.freq_base_swa", LGG_VT_F32, false}
#define K_SECTIONS {"rope.dimension_sections", KT_SECTIONS, true}
/* the sliding-window families whose window is required: pattern, base, window */
#define K_SWA_REQUIRED K_SWA_PATTERN, K_SWA_BASE, {"attention.sliding_window", LGG_VT_U32, true}
#define K_DEEPSTACK {"n_deepstack_layers", LGG_VT_U32, false}
#define K_GDN {"ssm.conv_kernel", LGG_VT_U32, true}, {"ssm.inner_size", LGG_VT_U32, true},                     \
    {"ssm.state_size", LGG_VT_U32, true}, {"ssm.time_step_rank", LGG_VT_U32, true},                              \
    {"ssm.group_count", LGG_VT_U32, true}, {"nextn_predict_layers", LGG_VT_U32, false},                          \
    {"attention.recurrent_layers", KT_LAYER_FLAGS, false}, {"full_attention_interval", LGG_VT_U32, false}

/* granite's and granitemoe's: the epsilon, the logit scale (required), the other scales */
#define K_GRANITE RMS_EPS, {"logit_scale", LGG_VT_F32, true}, {"residual_scale", LGG_VT_F32, false},          \
    {"embedding_scale", LGG_VT_F32, false}, {"attention.scale", LGG_VT_F32, false}

/* RWKV-6's and RWKV-7's (and their hybrids'): both epsilons optional, the head size and LoRA sizes required */
#define K_RWKV_EPS {"attention.layer_norm_epsilon", LGG_VT_F32, false}, {"attention.layer_norm_rms_epsilon", LGG_VT_F32, false}
#define K_RWKV6 K_RWKV_EPS, {"wkv.head_size", LGG_VT_U32, true}, {"time_mix_extra_dim", LGG_VT_U32, true},          \
    {"time_decay_extra_dim", LGG_VT_U32, true}, {"rescale_every_n_layers", LGG_VT_U32, false},                   \
    {"token_shift_count", LGG_VT_U32, false}
#define K_RWKV7 K_RWKV_EPS, {"wkv.head_size", LGG_VT_U32, true}, {"attention.decay_lora_rank", LGG_VT_U32, true},   \
    {"attention.iclr_lora_rank", LGG_VT_U32, true}, {"attention.value_residual_mix_lora_rank", LGG_VT_U32, true}, \
    {"attention.gate_lora_rank", LGG_VT_U32, false}, {"token_shift_count", LGG_VT_U32, false}

/* a Mamba layer's sizes, each required */
#define K_SSM {"ssm.conv_kernel", LGG_VT_U32, true}, {"ssm.inner_size", LGG_VT_U32, true},                     \
    {"ssm.state_size", LGG_VT_U32, true}, {"ssm.time_step_rank", LGG_VT_U32, true}

typedef struct arch_table {
    const char *name;
    const tspec *globals, *layer;
    bool rot_check; /* llama: rope.dimension_count must be the head size */
    arch_key keys[16];
} arch_table;

/* From master's src/models/NAME.cpp: load_arch_hparams' keys in its order, load_arch_tensors' tensors. */
static const arch_table TABLES[] = {
    {"llama", G_TIED, L_LLAMA, true, {{"vocab_size", LGG_VT_U32, false}, RMS_EPS}},
    {"qwen2", G_QWEN2, L_QWEN2, false, {RMS_EPS}},
    {"qwen3", G_QWEN3, L_QWEN3, false, {RMS_EPS}},
    {"qwen3moe", G_TIED, L_QWEN3MOE, false, {K_FF_EXP, RMS_EPS}},
    {"qwen2moe", G_UNTIED, L_QWEN2MOE, false, {K_FF_EXP, K_FF_SHEXP, RMS_EPS}},
    {"olmoe", G_UNTIED, L_OLMOE, false, {RMS_EPS}},
    {"gemma2", G_NO_OUTPUT, L_GEMMA2, false,
     {K_SWA_PATTERN, K_SWA_BASE, K_SWA, RMS_EPS, {"attn_logit_softcapping", LGG_VT_F32, false},
      {"final_logit_softcapping", LGG_VT_F32, false}}},
    {"gemma3", G_TIED, L_GEMMA3, false,
     {K_SWA, K_SWA_PATTERN, K_SWA_BASE, {"final_logit_softcapping", LGG_VT_F32, false}, RMS_EPS}},
    {"smollm3", G_TIED, L_SMOLLM3, false, {RMS_EPS}},
    {"mistral3", G_TIED, L_LLAMA, false,
     {RMS_EPS, {"attention.temperature_scale", LGG_VT_F32, false}, {"rope.scaling.yarn_beta_fast", LGG_VT_F32, false},
      {"rope.scaling.yarn_beta_slow", LGG_VT_F32, false}, {"rope.scaling.yarn_log_multiplier", LGG_VT_F32, false}}},
    {"granite", G_TIED, L_LLAMA, false, {K_GRANITE, {"rope.scaling.finetuned", LGG_VT_BOOL, false}, K_FF_SHEXP}},
    {"phi3", G_TIED, L_PHI3, false, {RMS_EPS, K_SWA}},
    {"olmo2", G_UNTIED, L_OLMO2, false, {RMS_EPS, K_SWA, K_SWA_PATTERN, K_SWA_BASE}},
    {"exaone", G_TIED, L_EXAONE, false, {RMS_EPS}},
    {"internlm2", G_UNTIED, L_QWEN2, false, {RMS_EPS}},
    {"minicpm", G_TIED, L_LLAMA, false,
     {RMS_EPS, {"embedding_scale", LGG_VT_F32, false}, {"residual_scale", LGG_VT_F32, false},
      {"logit_scale", LGG_VT_F32, false}}},
    {"command-r", G_COMMAND_R, L_COMMAND_R, false,
     {{"logit_scale", LGG_VT_F32, false}, {"attention.layer_norm_epsilon", LGG_VT_F32, true}}},
    {"arcee", G_TIED, L_ARCEE, false, {RMS_EPS}},
    {"seed_oss", G_TIED, L_SEED_OSS, false, {RMS_EPS}},
    {"gemma", G_NO_OUTPUT, L_GEMMA, false, {RMS_EPS}},
    {"ernie4_5", G_TIED, L_ERNIE, false, {RMS_EPS}},
    {"qwen2vl", G_QWEN2, L_QWEN2, false, {K_SECTIONS}},
    {"bert", G_BERT, L_BERT, false, {NORM_EPS}},
    {"gptneox", G_ORION, L_STARCODER, false, {NORM_EPS, {"use_parallel_residual", LGG_VT_BOOL, true}}},
    {"phi2", G_PHI2, L_PHI2, false, {NORM_EPS}},
    {"starcoder2", G_STARCODER2, L_STARCODER2, false, {NORM_EPS}},
    {"falcon", G_STARCODER2, L_FALCON, false, {NORM_EPS}},
    {"nemotron", G_ORION, L_NEMOTRON, false, {NORM_EPS}},
    /* llama4: the window's pattern and base are read only when attention.sliding_window is absent or not 0 */
    {"llama4", G_TIED_EXPERTS, L_LLAMA4, false,
     {RMS_EPS, {"expert_feed_forward_length", LGG_VT_U32, true}, {"interleave_moe_layer_step", LGG_VT_U32, true},
      K_SWA, K_SWA_PATTERN, K_SWA_BASE}},
    {"glm4moe", G_TIED_EXPERTS, L_GLM4MOE, false,
     {{"expert_feed_forward_length", LGG_VT_U32, true}, RMS_EPS, {"rope.dimension_sections", KT_SECTIONS, false},
      {"expert_shared_count", LGG_VT_U32, true}, {"leading_dense_block_count", LGG_VT_U32, false},
      {"expert_weights_scale", LGG_VT_F32, false}, {"expert_weights_norm", LGG_VT_BOOL, false},
      {"expert_gating_func", LGG_VT_U32, false}, {"nextn_predict_layers", LGG_VT_U32, false}}},
    {"deepseek2", G_TIED, L_DEEPSEEK2, false,
     {RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, false}, {"attention.q_lora_rank", KT_U32_UNLESS_LITE, true},
      {"attention.kv_lora_rank", LGG_VT_U32, true}, {"attention.key_length_mla", LGG_VT_U32, false},
      {"attention.value_length_mla", LGG_VT_U32, false}, {"expert_feed_forward_length", LGG_VT_U32, true},
      {"expert_shared_count", LGG_VT_U32, true}, {"expert_weights_scale", LGG_VT_F32, false},
      {"expert_weights_norm", LGG_VT_BOOL, false}, {"expert_gating_func", LGG_VT_U32, false},
      {"rope.scaling.yarn_log_multiplier", LGG_VT_F32, false}, {"nextn_predict_layers", LGG_VT_U32, false},
      {"attention.temperature_scale", LGG_VT_F32, false}, {"attention.temperature_length", LGG_VT_U32, false}}},
    {"glm4", G_TIED, L_GLM4, false,
     {RMS_EPS, {"rope.dimension_sections", KT_SECTIONS, false}, {"nextn_predict_layers", LGG_VT_U32, false}}},
    {"mamba", G_MAMBA, L_MAMBA, false,
     {K_SSM, {"ssm.dt_b_c_rms", LGG_VT_BOOL, false}, RMS_EPS}},
    {"mamba2", G_TIED, L_MAMBA2, false, {K_SSM, {"ssm.group_count", LGG_VT_U32, true}, RMS_EPS}},
    {"qwen3next", G_TIED_EXPERTS, L_QWEN3NEXT, false, {K_FF_EXP, K_FF_SHEXP, RMS_EPS, K_GDN}},
    {"lfm2", G_LFM2, L_LFM2, false,
     {{"shortconv.l_cache", LGG_VT_U32, true}, RMS_EPS, {"attention.head_count_kv", KT_RECR_KV0, false}, K_SWA}},
    {"jamba", G_MAMBA, L_JAMBA, false, {K_SSM, RMS_EPS, {"attention.head_count_kv", KT_RECR_KV0, false}}},
    {"granitehybrid", G_MAMBA, L_GRANITEHYBRID, false,
     {RMS_EPS, {"logit_scale", LGG_VT_F32, false}, {"residual_scale", LGG_VT_F32, false},
      {"embedding_scale", LGG_VT_F32, false}, {"attention.scale", LGG_VT_F32, false}, K_SSM,
      {"ssm.group_count", LGG_VT_U32, true}, {"attention.head_count_kv", KT_RECR_KV0, false}, K_FF_SHEXP}},
    {"falcon-h1", G_FALCON_H1, L_FALCON_H1, false, {RMS_EPS, K_SSM, {"ssm.group_count", LGG_VT_U32, true}}},
    {"gpt-oss", G_UNTIED, L_GPT_OSS, false,
     {RMS_EPS, {"expert_feed_forward_length", LGG_VT_U32, true}, {"attention.sliding_window", LGG_VT_U32, true},
      K_SWA_PATTERN, K_SWA_BASE}},
    {"dbrx", G_DBRX, L_DBRX, false, {NORM_EPS, {"attention.clamp_kqv", LGG_VT_F32, true}}},
    {"grok", G_GROK, L_GROK, false,
     {RMS_EPS, K_FF_EXP, {"logit_scale", LGG_VT_F32, false}, {"embedding_scale", LGG_VT_F32, false},
      {"attention.output_scale", LGG_VT_F32, false}, {"attn_logit_softcapping", LGG_VT_F32, false},
      {"router_logit_softcapping", LGG_VT_F32, false}, {"final_logit_softcapping", LGG_VT_F32, false},
      {"attention.temperature_length", LGG_VT_U32, false}, {"rope.scaling.yarn_ext_factor", LGG_VT_F32, false},
      {"rope.scaling.yarn_attn_factor", LGG_VT_F32, false}, {"rope.scaling.yarn_beta_fast", LGG_VT_F32, false},
      {"rope.scaling.yarn_beta_slow", LGG_VT_F32, false}}},
    {"nomic-bert-moe", G_NOMIC_MOE, L_NOMIC_MOE, false, {NORM_EPS, {"moe_every_n_layers", LGG_VT_U32, false}}},
    /* jina-bert-v3: the same loader, no experts (moe_every_n_layers not read) */
    {"jina-bert-v3", G_NOMIC_MOE, L_NOMIC_MOE, false, {NORM_EPS}},
    {"llama-embed", G_TIED, L_LLAMA, true, {{"vocab_size", LGG_VT_U32, false}, RMS_EPS}},
    {"neo-bert", G_NEOBERT, L_NEOBERT, false, {RMS_EPS}},
    {"eurobert", G_NO_OUTPUT, L_EUROBERT, false, {RMS_EPS}},
    {"dream", G_QWEN2, L_QWEN2, false, {RMS_EPS}},
    {"llada", G_TIED, L_LLADA, false, {RMS_EPS}},
    {"jina-bert-v2", G_JINA2, L_JINA2, false, {NORM_EPS}},
    {"modern-bert", G_MODERN, L_MODERN, false,
     {{"attention.sliding_window", LGG_VT_U32, false}, K_SWA_BASE, K_SWA_PATTERN, NORM_EPS,
      {"hidden_activation", LGG_VT_STRING, false}}},
    {"minicpm3", G_TIED, L_MINICPM3, false,
     {RMS_EPS, {"attention.q_lora_rank", LGG_VT_U32, true}, {"attention.kv_lora_rank", LGG_VT_U32, true}}},
    {"lfm2moe", G_LFM2MOE, L_LFM2MOE, false,
     {{"shortconv.l_cache", LGG_VT_U32, true}, RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, false},
      {"expert_feed_forward_length", LGG_VT_U32, true}, {"expert_gating_func", LGG_VT_U32, true},
      {"attention.head_count_kv", KT_RECR_KV0, false}}},
    {"gemma3n", G_GEMMA3N, L_GEMMA3N, false,
     {K_SWA_REQUIRED,
      RMS_EPS}},
    {"gemma-embedding", G_GEMMA_EMBD, L_GEMMA_EMBD, false,
     {K_SWA_REQUIRED,
      RMS_EPS, {"dense_2_feat_in", LGG_VT_U32, false}, {"dense_2_feat_out", LGG_VT_U32, false},
      {"dense_3_feat_in", LGG_VT_U32, false}, {"dense_3_feat_out", LGG_VT_U32, false}}},
    {"jais", G_JAIS, L_JAIS, false, {NORM_EPS, {"attention.max_alibi_bias", LGG_VT_F32, false}}},
    {"bitnet", G_NO_OUTPUT, L_BITNET, false, {RMS_EPS}},
    {"nomic-bert", G_NOMIC, L_NOMIC, false, {NORM_EPS, {"moe_every_n_layers", LGG_VT_U32, false}}},
    {"baichuan", G_UNTIED, L_BAICHUAN, false, {RMS_EPS}},
    {"stablelm", G_STABLELM, L_STABLELM, false, {NORM_EPS}},
    {"starcoder", G_STARCODER, L_STARCODER, false, {NORM_EPS}},
    {"gpt2", G_STARCODER, L_STARCODER, false, {NORM_EPS}}, /* starcoder's loader, as master's gpt2.cpp */
    {"refact", G_TIED, L_LLAMA, false, {RMS_EPS}},
    {"bloom", G_BLOOM, L_STARCODER, false, {NORM_EPS}},
    {"mpt", G_MPT, L_MPT, false,
     {NORM_EPS, {"attention.clamp_kqv", LGG_VT_F32, false}, {"attention.max_alibi_bias", LGG_VT_F32, false}}},
    {"olmo", G_OLMO, L_OLMO, false, {NORM_EPS, {"attention.clamp_kqv", LGG_VT_F32, false}}},
    {"orion", G_ORION, L_ORION, false, {NORM_EPS}},
    {"xverse", G_UNTIED, L_BAICHUAN, false, {RMS_EPS}},
    {"codeshell", G_CODESHELL, L_CODESHELL, false, {NORM_EPS}},
    {"chatglm", G_TIED, L_CHATGLM, false, {RMS_EPS}},
    {"cohere2", G_COMMAND_R, L_COHERE2, false,
     {K_SWA_REQUIRED,
      {"logit_scale", LGG_VT_F32, true}, {"attention.layer_norm_epsilon", LGG_VT_F32, true}}},
    {"phimoe", G_PHIMOE, L_PHIMOE, false, {RMS_EPS}},
    {"deepseek", G_TIED, L_DEEPSEEK, false,
     {RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, false}, {"expert_feed_forward_length", LGG_VT_U32, true},
      {"expert_shared_count", LGG_VT_U32, true}, {"expert_weights_scale", LGG_VT_F32, false}}},
    {"qwen3vl", G_QWEN3, L_QWEN3VL, false, {K_DEEPSTACK, K_SECTIONS, RMS_EPS}},
    {"qwen3vlmoe", G_TIED, L_QWEN3VLMOE, false, {K_DEEPSTACK, K_SECTIONS, K_FF_EXP, RMS_EPS}},
    {"qwen35", G_TIED, L_QWEN35, false, {RMS_EPS, K_SECTIONS, K_GDN}},
    {"qwen35moe", G_TIED, L_QWEN35MOE, false, {K_FF_EXP, K_FF_SHEXP, RMS_EPS, K_SECTIONS, K_GDN}},
    {"granitemoe", G_TIED, L_LLAMA, false, {K_GRANITE, K_FF_SHEXP}},
    /* exaone4: the window's pattern and base are read only with 64 layers (checked whatever the count) */
    {"exaone4", G_TIED, L_EXAONE4, false,
     {{"nextn_predict_layers", LGG_VT_U32, false}, K_SWA_PATTERN, K_SWA_BASE, K_SWA, RMS_EPS}},
    {"hunyuan-dense", G_TIED, L_HUNYUAN_DENSE, false, {RMS_EPS, {"rope.dimension_sections", KT_SECTIONS, false}}},
    {"hunyuan-moe", G_TIED, L_HUNYUAN_MOE, false, {RMS_EPS, {"expert_feed_forward_length", LGG_VT_U32, true}, K_FF_SHEXP}},
    {"apertus", G_UNTIED, L_APERTUS, false,
     {RMS_EPS, {"xielu.alpha_n", KT_F32_LAYERS, true}, {"xielu.alpha_p", KT_F32_LAYERS, true},
      {"xielu.beta", KT_F32_LAYERS, true}, {"xielu.eps", KT_F32_LAYERS, true}}},
    {"dots1", G_UNTIED, L_DOTS1, false,
     {RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, false}, {"expert_feed_forward_length", LGG_VT_U32, true},
      {"expert_shared_count", LGG_VT_U32, true}, {"expert_weights_scale", LGG_VT_F32, false},
      {"expert_weights_norm", LGG_VT_BOOL, false}, {"expert_gating_func", LGG_VT_U32, false}}},
    {"ernie4_5-moe", G_TIED, L_ERNIE_MOE, false,
     {{"rope.dimension_sections", KT_SECTIONS, false}, RMS_EPS, {"expert_feed_forward_length", LGG_VT_U32, true},
      K_FF_SHEXP, {"interleave_moe_layer_step", LGG_VT_U32, true}, {"leading_dense_block_count", LGG_VT_U32, false}}},
    {"minimax-m2", G_UNTIED, L_MINIMAX_M2, false,
     {RMS_EPS, {"expert_feed_forward_length", LGG_VT_U32, true}, {"expert_gating_func", LGG_VT_U32, false}}},
    /* smallthinker: the window's pattern and base are read only when attention.sliding_window is above 0 */
    {"smallthinker", G_TIED, L_SMALLTHINKER, false,
     {K_SWA, K_SWA_PATTERN, K_SWA_BASE, K_FF_EXP, RMS_EPS, {"expert_gating_func", LGG_VT_U32, false}}},
    {"bailingmoe2", G_BAILINGMOE2, L_BAILINGMOE2, false,
     {RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, false}, {"expert_feed_forward_length", LGG_VT_U32, true},
      K_FF_SHEXP, {"expert_shared_count", LGG_VT_U32, true}, {"expert_weights_scale", LGG_VT_F32, false},
      {"expert_weights_norm", LGG_VT_BOOL, false}, {"expert_gating_func", LGG_VT_U32, true},
      {"nextn_predict_layers", LGG_VT_U32, false}}},
    {"rwkv6", G_RWKV, L_RWKV6, false,
     {K_RWKV6}},
    {"rwkv7", G_RWKV, L_RWKV7, false,
     {K_RWKV7}},
    {"rwkv6qwen2", G_RWKV6QWEN2, L_RWKV6QWEN2, false,
     {K_RWKV6}},
    {"arwkv7", G_UNTIED, L_ARWKV7, false,
     {K_RWKV7}},
    {"nemotron_h", G_TIED, L_NEMOTRON_H, false,
     {K_SSM, {"ssm.group_count", LGG_VT_U32, true}, {"nextn_predict_layers", LGG_VT_U32, false},
      {"attention.head_count_kv", KT_RECR_KV0_FF0, false}, RMS_EPS, NORM_EPS, K_FF_EXP, K_FF_SHEXP,
      {"expert_shared_count", LGG_VT_U32, false}, {"expert_weights_norm", LGG_VT_BOOL, false},
      {"expert_weights_scale", LGG_VT_F32, false}, {"moe_latent_size", LGG_VT_U32, false}}},
    {"exaone-moe", G_UNTIED, L_EXAONE_MOE, false,
     {K_SWA_PATTERN, K_SWA_BASE, {"attention.sliding_window", LGG_VT_U32, true}, RMS_EPS,
      {"expert_shared_count", LGG_VT_U32, false}, {"expert_feed_forward_length", LGG_VT_U32, true},
      K_FF_SHEXP, {"expert_gating_func", LGG_VT_U32, true}, {"expert_weights_scale", LGG_VT_F32, false},
      {"expert_weights_norm", LGG_VT_BOOL, false}, {"leading_dense_block_count", LGG_VT_U32, false},
      {"nextn_predict_layers", LGG_VT_U32, false}}},
    /* qwen3's and qwen3moe's loaders under other names (maincoder; rnd1, mellum: qwen3moe's with the window) */
    {"maincoder", G_TIED, L_QWEN3, false, {RMS_EPS}},
    {"rnd1", G_TIED, L_QWEN3MOE, false, {K_FF_EXP, RMS_EPS}},
    /* mellum: the window's pattern and base are read only when attention.sliding_window is above 0 */
    {"mellum", G_UNTIED, L_QWEN3MOE, false,
     {RMS_EPS, {"expert_feed_forward_length", LGG_VT_U32, true}, K_SWA, K_SWA_PATTERN, K_SWA_BASE}},
    {"hunyuan_vl", G_TIED, L_HUNYUAN_DENSE, false, {RMS_EPS, {"rope.dimension_sections", KT_SECTIONS, false}}},
    {"qwen", G_UNTIED, L_QWEN, false, {RMS_EPS}},
    {"plamo", G_UNTIED, L_PLAMO, false, {RMS_EPS}},
    {"pangu-embedded", G_TIED, L_PANGU, false, {RMS_EPS}},
    /* nanbeige: exaone's tensors (master creates rope_freqs before the FFN norm), the layers looped num_loops times */
    {"nanbeige", G_TIED, L_EXAONE, false,
     {RMS_EPS, {"num_loops", LGG_VT_U32, false}, {"skip_loop_final_norm", LGG_VT_BOOL, false}}},
    {"jais2", G_JAIS2, L_JAIS2, false, {NORM_EPS}},
    {"llada-moe", G_UNTIED_EXPERTS, L_LLADA_MOE, false, {K_FF_EXP, RMS_EPS}},
    {"bailingmoe", G_UNTIED, L_BAILINGMOE, false,
     {RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, false}, {"expert_feed_forward_length", LGG_VT_U32, true},
      {"expert_shared_count", LGG_VT_U32, true}, {"expert_weights_scale", LGG_VT_F32, false},
      {"expert_weights_norm", LGG_VT_BOOL, false}}},
    {"arctic", G_TIED, L_ARCTIC, false, {RMS_EPS}},
    {"openelm", G_OPENELM, L_OPENELM, false, {RMS_EPS}},
    /* plamo3: the window's base and pattern are read only when attention.sliding_window is above 0 */
    {"plamo3", G_TIED, L_PLAMO3, false, {RMS_EPS, K_SWA, K_SWA_BASE, K_SWA_PATTERN}},
    {"granite_swa", G_TIED, L_GRANITE_SWA, false,
     {K_GRANITE, {"attention.sliding_window_pattern", KT_LAYER_ARRAY, true},
      {"attention.sliding_window", LGG_VT_U32, true}, K_FF_SHEXP}},
    /* afmoe: the window's pattern and base are read only when attention.sliding_window is above 0 */
    {"afmoe", G_TIED, L_AFMOE, false,
     {RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, false}, {"expert_feed_forward_length", LGG_VT_U32, true},
      {"expert_shared_count", LGG_VT_U32, true}, {"expert_gating_func", LGG_VT_U32, false},
      {"expert_weights_scale", LGG_VT_F32, false}, {"expert_weights_norm", LGG_VT_BOOL, false}, K_SWA, K_SWA_PATTERN,
      K_SWA_BASE}},
    {"grovemoe", G_GROVEMOE, L_GROVEMOE, false,
     {{"expert_feed_forward_length", LGG_VT_U32, true}, {"expert_chunk_feed_forward_length", LGG_VT_U32, false},
      {"expert_group_scale", LGG_VT_F32, true}, {"experts_per_group", LGG_VT_U32, true}, RMS_EPS}},
    {"deci", G_TIED, L_DECI, false, {RMS_EPS}},
    {"hy_v3", G_TIED, L_HY_V3, false,
     {RMS_EPS, {"expert_feed_forward_length", LGG_VT_U32, true}, K_FF_SHEXP, {"expert_gating_func", LGG_VT_U32, false},
      {"expert_weights_scale", LGG_VT_F32, false}, {"expert_weights_norm", LGG_VT_BOOL, false},
      {"nextn_predict_layers", LGG_VT_U32, false}}},
    /* laguna: the window's pattern and base are read only when attention.sliding_window is above 0 */
    {"laguna", G_TIED, L_LAGUNA, false,
     {RMS_EPS, {"leading_dense_block_count", LGG_VT_U32, true}, {"expert_feed_forward_length", LGG_VT_U32, true},
      {"expert_gating_func", LGG_VT_U32, false}, {"expert_weights_scale", LGG_VT_F32, false},
      {"expert_weights_norm", LGG_VT_BOOL, false}, {"expert_shared_count", KT_U32_DEFAULT1, false}, K_FF_SHEXP, K_SWA,
      K_SWA_PATTERN, K_SWA_BASE}},
    {"cohere2moe", G_TIED_EXPERTS, L_COHERE2MOE, false,
     {{"attention.layer_norm_epsilon", KT_EPS_EITHER, false}, {"attention.sliding_window", LGG_VT_U32, true},
      {"logit_scale", LGG_VT_F32, true}, {"leading_dense_block_count", LGG_VT_U32, true},
      {"expert_feed_forward_length", LGG_VT_U32, true}, K_FF_SHEXP, {"expert_shared_count", LGG_VT_U32, false},
      {"expert_weights_norm", LGG_VT_BOOL, false}, {"expert_weights_scale", LGG_VT_F32, false},
      {"expert_gating_func", LGG_VT_U32, false}, {"nextn_predict_layers", LGG_VT_U32, false}, K_SWA_PATTERN,
      K_SWA_BASE}},
};

/* One check: the file, what master computed so far, the findings. */
typedef struct lc {
    const lgg_file *f;
    const arch_table *t;
    lgg_load_check *out;
    uint8_t *seen; /* per tensor of the file: created by master */
    uint32_t n_layer, n_embd, n_head, n_head_kv, n_ff, head_k, head_v, n_rot, n_expert, n_expert_used;
    uint32_t n_ff_exp, n_ff_shexp, n_cls_out;
    uint32_t ssm_conv, ssm_state, ssm_dtr, ssm_group, n_nextn, attn_interval; /* qwen35's gated delta-net */
    uint32_t n_dense_lead, n_expert_shared, n_ctx_train, n_token_types, dense_2_out, dense_3_in, l_cache;
    uint32_t q_lora, kv_lora, moe_every, moe_step, k_mla, v_mla, ssm_inner, n_embd_out;
    uint32_t wkv, tmx, tdx, lora_decay, lora_iclr, lora_vres, lora_gate; /* RWKV's sizes */
    uint32_t moe_latent, n_ff_chexp, n_group_experts;
    lgg_value recr;  /* attention.recurrent_layers (has_recr) */
    bool has_recr;
    lgg_value head_kv; /* attention.head_count_kv, one element a layer (has_head_kv) */
    bool has_head_kv, recr_kv0, recr_ff0;
    lgg_value head; /* attention.head_count, one element a layer (has_head) */
    bool has_head;
    lgg_value ff; /* feed_forward_length, one element a layer (has_ff) */
    bool has_ff;
    int64_t il;        /* the layer whose rows are being checked (-1: the globals) */
    uint64_t n_vocab;
    bool longrope;
} lc;

const char *lgg_load_problem_name(uint32_t problem) {
    static const char *const names[] = {NULL, "missing", "wrong type", "wrong shape", "unexpected", "bad value", "no data"};
    return problem < sizeof names / sizeof names[0] ? names[problem] : NULL;
}

/* Printable ASCII of n bytes at s into dst (cut to fit). */
static void printable(char *dst, size_t cap, const char *s, size_t n) {
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) dst[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    dst[k] = 0;
}

static void issue(lc *c, bool tensor, uint32_t problem, const char *name, const char *expected, const char *found) {
    lgg_load_check *o = c->out;
    if (o->n_issues < LGG_LOAD_MAX_ISSUES) {
        lgg_load_issue *i = &o->issues[o->n_issues];
        i->tensor = tensor;
        i->problem = problem;
        printable(i->name, sizeof i->name, name, strlen(name));
        snprintf(i->expected, sizeof i->expected, "%s", expected ? expected : "");
        snprintf(i->found, sizeof i->found, "%s", found ? found : "");
    }
    o->n_issues++;
}

static const char *vt_name(uint32_t vt) {
    const char *n = lgg_vtype_name(vt);
    return n ? n : "?";
}

/* ---- keys ------------------------------------------------------------------ */

/* Key KEY as master's get_key reads it: of exactly type VT.  Absent: false (an issue when required);
 * present with another type: an issue and false. */
static bool key_of(lc *c, const char *key, uint32_t vt, bool required, lgg_value *v) {
    if (lgg_get(c->f, key, v) != LGG_OK) {
        if (required) issue(c, false, LGG_LOAD_MISSING, key, vt_name(vt), "");
        return false;
    }
    if (v->type != vt) {
        char found[64];
        snprintf(found, sizeof found, "%s", vt_name(v->type));
        if (v->type == LGG_VT_ARRAY) snprintf(found, sizeof found, "array of %s", vt_name(v->elem_type));
        issue(c, false, LGG_LOAD_WRONG_TYPE, key, vt_name(vt), found);
        return false;
    }
    return true;
}

static const char *akey(const lc *c, const char *suffix, char *buf, size_t cap) {
    snprintf(buf, cap, "%s.%s", c->out->arch, suffix);
    return buf;
}

static bool arch_u32(lc *c, const char *suffix, bool required, uint32_t *x) {
    char k[160];
    lgg_value v;
    uint64_t u;
    if (!key_of(c, akey(c, suffix, k, sizeof k), LGG_VT_U32, required, &v) || lgg_value_uint(&v, &u) != LGG_OK)
        return false;
    *x = (uint32_t)u;
    return true;
}

static void arch_typed(lc *c, const char *suffix, uint32_t vt, bool required) {
    char k[160];
    lgg_value v;
    key_of(c, akey(c, suffix, k, sizeof k), vt, required, &v);
}

/* An array key of COUNT elements where master wants N (get_key_or_arr's "wrong array length"). */
static void wrong_length(lc *c, const char *key, uint32_t n, uint64_t count) {
    char want[32], got[32];
    snprintf(want, sizeof want, "%u elements", n);
    snprintf(got, sizeof got, "%llu elements", (unsigned long long)count);
    issue(c, false, LGG_LOAD_BAD_VALUE, key, want, got);
}

/* get_key_or_arr into a per-layer array: a u32, or an array of n_layer u32/i32 (bool too); *x its
 * first element.  required false throughout in load_hparams. */
static void layer_key(lc *c, const char *suffix, uint32_t *x) {
    char k[160], got[64];
    lgg_value v, e;
    uint64_t u;
    akey(c, suffix, k, sizeof k);
    if (lgg_get(c->f, k, &v) != LGG_OK) return;
    if (v.type != LGG_VT_ARRAY) {
        if (key_of(c, k, LGG_VT_U32, false, &v) && lgg_value_uint(&v, &u) == LGG_OK) *x = (uint32_t)u;
        return;
    }
    if (v.count != c->n_layer) {
        wrong_length(c, k, c->n_layer, v.count);
        return;
    }
    if (v.elem_type != LGG_VT_U32 && v.elem_type != LGG_VT_I32 && v.elem_type != LGG_VT_BOOL) {
        snprintf(got, sizeof got, "array of %s", vt_name(v.elem_type));
        issue(c, false, LGG_LOAD_WRONG_TYPE, k, "u32 or array of u32/i32", got);
        return;
    }
    if (v.count && lgg_array_get(&v, 0, &e) == LGG_OK) {
        if (e.type == LGG_VT_BOOL) *x = e.data[0] != 0;
        else if (lgg_value_uint(&e, &u) == LGG_OK) *x = (uint32_t)u;
        else *x = 0; /* a negative i32 read as uint32_t: not a size master can use */
    }
}

static void bad_value(lc *c, const char *key, const char *expected, uint64_t found) {
    char got[32];
    snprintf(got, sizeof got, "%llu", (unsigned long long)found);
    issue(c, false, LGG_LOAD_BAD_VALUE, key, expected, got);
}

/* The expert counts and master's asserts on them. */
static void expert_keys(lc *c) {
    uint32_t groups = 0, group_used = 0;
    char k[160];
    arch_u32(c, "expert_count", false, &c->n_expert);
    arch_u32(c, "expert_used_count", false, &c->n_expert_used);
    arch_u32(c, "expert_group_count", false, &groups);
    arch_u32(c, "expert_group_used_count", false, &group_used);
    if (c->n_expert > MAX_EXPERTS) bad_value(c, akey(c, "expert_count", k, sizeof k), "at most 512", c->n_expert);
    else if (c->n_expert_used > c->n_expert)
        bad_value(c, akey(c, "expert_used_count", k, sizeof k), "at most expert_count", c->n_expert_used);
    else if (c->n_expert > 0 && c->n_expert_used == 0)
        bad_value(c, akey(c, "expert_used_count", k, sizeof k), "above 0 with experts", 0);
    else if (c->n_expert > 0 && groups >= c->n_expert)
        bad_value(c, akey(c, "expert_group_count", k, sizeof k), "below expert_count", groups);
    else if (c->n_expert > 0 && groups > 1 && (c->n_expert % groups || !group_used || group_used >= groups))
        bad_value(c, akey(c, "expert_group_used_count", k, sizeof k), "in 1..expert_group_count-1", group_used);
    else if (c->n_expert == 0 && groups)
        bad_value(c, akey(c, "expert_group_count", k, sizeof k), "0 without experts", groups);
}

/* rope.scaling.type: a name master knows (else its GGML_ASSERT). */
static void rope_keys(lc *c) {
    static const char *const types[] = {"none", "linear", "yarn", "longrope"};
    char k[160];
    lgg_value v;
    lgg_str s;
    arch_typed(c, "rope.scaling.finetuned", LGG_VT_BOOL, false);
    arch_typed(c, "rope.scaling.original_context_length", LGG_VT_U32, false);
    arch_typed(c, "rope.freq_base", LGG_VT_F32, false);
    if (key_of(c, akey(c, "rope.scaling.type", k, sizeof k), LGG_VT_STRING, false, &v) &&
        lgg_value_string(&v, &s) == LGG_OK) {
        bool known = false;
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            known |= s.len == strlen(types[i]) && !memcmp(s.ptr, types[i], s.len);
        c->longrope = s.len == 8 && !memcmp(s.ptr, "longrope", 8);
        char got[64];
        printable(got, sizeof got, s.ptr, (size_t)s.len);
        if (!known) issue(c, false, LGG_LOAD_BAD_VALUE, k, "none, linear, yarn or longrope", got);
    }
    if (lgg_get(c->f, akey(c, "rope.scaling.factor", k, sizeof k), &v) == LGG_OK)
        arch_typed(c, "rope.scaling.factor", LGG_VT_F32, false);
    else arch_typed(c, "rope.scale_linear", LGG_VT_F32, false);
    arch_typed(c, "rope.scaling.attn_factor", LGG_VT_F32, false);
    arch_typed(c, "rope.scaling.alpha", LGG_VT_F32, false);
}

/* Head sizes and rotary dimensions (n_head > 0), llama's n_rot check, the SWA variants. */
static void head_keys(lc *c) {
    char k[160];
    if (c->n_head > 0) {
        c->head_k = c->head_v = c->n_embd / c->n_head;
        arch_u32(c, "attention.key_length", false, &c->head_k);
        arch_u32(c, "attention.value_length", false, &c->head_v);
        c->n_rot = c->head_k;
        arch_u32(c, "rope.dimension_count", false, &c->n_rot);
        if (c->t->rot_check && c->n_rot != c->head_k) {
            char want[32];
            snprintf(want, sizeof want, "%u (the head size)", c->head_k);
            bad_value(c, akey(c, "rope.dimension_count", k, sizeof k), want, c->n_rot);
        }
    }
    arch_typed(c, "attention.key_length_swa", LGG_VT_U32, false);
    arch_typed(c, "attention.value_length_swa", LGG_VT_U32, false);
    arch_typed(c, "rope.dimension_count_swa", LGG_VT_U32, false);
}

/* Where a u32 key's value is kept (NULL: read and checked, not kept). */
static uint32_t *key_slot(lc *c, const char *suffix) {
    static const struct {
        const char *suffix;
        size_t at;
    } slots[] = {{"expert_feed_forward_length", offsetof(lc, n_ff_exp)},
                 {"expert_shared_feed_forward_length", offsetof(lc, n_ff_shexp)},
                 {"ssm.conv_kernel", offsetof(lc, ssm_conv)},
                 {"ssm.state_size", offsetof(lc, ssm_state)},
                 {"ssm.time_step_rank", offsetof(lc, ssm_dtr)},
                 {"ssm.group_count", offsetof(lc, ssm_group)},
                 {"nextn_predict_layers", offsetof(lc, n_nextn)},
                 {"full_attention_interval", offsetof(lc, attn_interval)},
                 {"leading_dense_block_count", offsetof(lc, n_dense_lead)},
                 {"expert_shared_count", offsetof(lc, n_expert_shared)},
                 {"dense_2_feat_out", offsetof(lc, dense_2_out)},
                 {"dense_3_feat_in", offsetof(lc, dense_3_in)},
                 {"shortconv.l_cache", offsetof(lc, l_cache)},
                 {"attention.q_lora_rank", offsetof(lc, q_lora)},
                 {"attention.kv_lora_rank", offsetof(lc, kv_lora)},
                 {"moe_every_n_layers", offsetof(lc, moe_every)},
                 {"interleave_moe_layer_step", offsetof(lc, moe_step)},
                 {"attention.key_length_mla", offsetof(lc, k_mla)},
                 {"attention.value_length_mla", offsetof(lc, v_mla)},
                 {"ssm.inner_size", offsetof(lc, ssm_inner)},
                 {"wkv.head_size", offsetof(lc, wkv)},
                 {"time_mix_extra_dim", offsetof(lc, tmx)},
                 {"time_decay_extra_dim", offsetof(lc, tdx)},
                 {"attention.decay_lora_rank", offsetof(lc, lora_decay)},
                 {"attention.iclr_lora_rank", offsetof(lc, lora_iclr)},
                 {"attention.value_residual_mix_lora_rank", offsetof(lc, lora_vres)},
                 {"attention.gate_lora_rank", offsetof(lc, lora_gate)},
                 {"moe_latent_size", offsetof(lc, moe_latent)},
                 {"expert_chunk_feed_forward_length", offsetof(lc, n_ff_chexp)},
                 {"experts_per_group", offsetof(lc, n_group_experts)}};
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        if (!strcmp(slots[i].suffix, suffix)) return (uint32_t *)((char *)c + slots[i].at);
    return NULL;
}

/* get_key_or_arr into an array of n: an array of n (u)int32 elements, or one int32. */
static void sections_key(lc *c, const arch_key *ak, uint32_t n) {
    char k[160], got[64];
    lgg_value v;
    akey(c, ak->suffix, k, sizeof k);
    if (lgg_get(c->f, k, &v) != LGG_OK) {
        if (ak->required) issue(c, false, LGG_LOAD_MISSING, k, "array of i32", "");
        return;
    }
    if (v.type != LGG_VT_ARRAY) {
        key_of(c, k, LGG_VT_I32, ak->required, &v);
        return;
    }
    if (v.count != n) {
        wrong_length(c, k, n, v.count);
    } else if (v.elem_type != LGG_VT_I32 && v.elem_type != LGG_VT_U32) {
        snprintf(got, sizeof got, "array of %s", vt_name(v.elem_type));
        issue(c, false, LGG_LOAD_WRONG_TYPE, k, "array of i32", got);
    }
}

/* get_key_or_arr into an array of n_layer floats, required: one f32, or an array of n_layer f32; the key named
 * as it is, without the architecture's prefix. */
static void f32_layers_key(lc *c, const arch_key *ak) {
    char k[160], got[64];
    lgg_value v;
    snprintf(k, sizeof k, "%s", ak->suffix);
    if (lgg_get(c->f, k, &v) == LGG_OK && v.type == LGG_VT_ARRAY) {
        if (v.count != c->n_layer) {
            wrong_length(c, k, c->n_layer, v.count);
        } else if (v.elem_type != LGG_VT_F32) {
            snprintf(got, sizeof got, "array of %s", vt_name(v.elem_type));
            issue(c, false, LGG_LOAD_WRONG_TYPE, k, "f32 or array of f32", got);
        }
        return;
    }
    key_of(c, k, LGG_VT_F32, ak->required, &v);
}

/* cohere2moe: attention.layer_norm_epsilon (SUFFIX) or the RMS one, at least one of them (else master throws) */
static void either_eps(lc *c, const char *suffix) {
    char k[160], rms[160];
    lgg_value v;
    akey(c, "attention.layer_norm_rms_epsilon", rms, sizeof rms);
    bool norm = key_of(c, akey(c, suffix, k, sizeof k), LGG_VT_F32, false, &v);
    bool rms_found = key_of(c, rms, LGG_VT_F32, false, &v);
    if (!norm && !rms_found && lgg_get(c->f, k, &v) != LGG_OK && lgg_get(c->f, rms, &v) != LGG_OK)
        issue(c, false, LGG_LOAD_MISSING, k, "f32 (or the RMS epsilon)", "");
}

/* get_arr into a per-layer array (std::array of 512): an array of bool, u32 or i32 elements, at most 512 */
static void layer_array_key(lc *c, const arch_key *ak) {
    char k[160], got[64];
    lgg_value v;
    akey(c, ak->suffix, k, sizeof k);
    if (lgg_get(c->f, k, &v) != LGG_OK || v.type != LGG_VT_ARRAY) {
        if (ak->required) issue(c, false, LGG_LOAD_MISSING, k, "array of u32", "");
        return;
    }
    if (v.elem_type != LGG_VT_BOOL && v.elem_type != LGG_VT_U32 && v.elem_type != LGG_VT_I32) {
        snprintf(got, sizeof got, "array of %s", vt_name(v.elem_type));
        issue(c, false, LGG_LOAD_WRONG_TYPE, k, "array of bool, u32 or i32", got);
    } else if (v.count > MAX_LAYERS) {
        wrong_length(c, k, MAX_LAYERS, v.count);
    }
}

/* deepseek2's is_lite: 26 or 27 layers, or 48 with 128256 tokens (vocab_size, else the token list's length) */
static bool lite(lc *c) {
    char k[160];
    lgg_value v;
    uint64_t n = 0;
    if (lgg_get(c->f, akey(c, "vocab_size", k, sizeof k), &v) == LGG_OK && v.type == LGG_VT_U32)
        lgg_value_uint(&v, &n);
    else if (lgg_get(c->f, "tokenizer.ggml.tokens", &v) == LGG_OK && v.type == LGG_VT_ARRAY)
        n = v.count;
    return c->n_layer == 26 || c->n_layer == 27 || (c->n_layer == 48 && n == 128256);
}

static void arch_keys(lc *c) {
    for (size_t i = 0; i < sizeof c->t->keys / sizeof c->t->keys[0] && c->t->keys[i].suffix; i++) {
        const arch_key *ak = &c->t->keys[i];
        uint32_t x = 0, *slot = key_slot(c, ak->suffix);
        if (ak->type == KT_RECR_KV0 || ak->type == KT_RECR_KV0_FF0) {
            c->recr_kv0 = true;
            c->recr_ff0 = ak->type == KT_RECR_KV0_FF0;
        } else if (ak->type == KT_U32_UNLESS_LITE) {
            arch_u32(c, ak->suffix, !lite(c), slot ? slot : &x);
        } else if (ak->type == KT_SECTIONS) {
            sections_key(c, ak, 4);
        } else if (ak->type == KT_F32_LAYERS) {
            f32_layers_key(c, ak);
        } else if (ak->type == KT_EPS_EITHER) {
            either_eps(c, ak->suffix);
        } else if (ak->type == KT_U32_DEFAULT1) {
            if (slot) *slot = 1;
            arch_u32(c, ak->suffix, ak->required, slot ? slot : &x);
        } else if (ak->type == KT_LAYER_ARRAY) {
            layer_array_key(c, ak);
        } else if (ak->type == KT_LAYER_FLAGS) {
            char k[160];
            c->has_recr = lgg_get(c->f, akey(c, ak->suffix, k, sizeof k), &c->recr) == LGG_OK &&
                          c->recr.type == LGG_VT_ARRAY && c->recr.count >= c->n_layer;
        } else if (ak->type == LGG_VT_COUNT) {
            char k[160];
            lgg_value v;
            /* get_key_or_arr into one uint32_t: an array is skipped (it is optional) */
            if (lgg_get(c->f, akey(c, ak->suffix, k, sizeof k), &v) == LGG_OK && v.type != LGG_VT_ARRAY)
                key_of(c, k, LGG_VT_U32, false, &v);
        } else if (slot) {
            arch_u32(c, ak->suffix, ak->required, slot);
        } else if (ak->type == LGG_VT_U32) {
            arch_u32(c, ak->suffix, ak->required, &x);
        } else {
            arch_typed(c, ak->suffix, ak->type, ak->required);
        }
    }
}

/* llama_model::load_hparams: the common keys, then the architecture's. */
static void hparams(lc *c) {
    char k[160];
    lgg_value v;
    uint32_t ignored;
    key_of(c, "general.name", LGG_VT_STRING, false, &v);
    arch_u32(c, "context_length", true, &c->n_ctx_train);
    arch_u32(c, "embedding_length", true, &c->n_embd);
    arch_u32(c, "embedding_length_out", false, &c->n_embd_out);
    arch_typed(c, "attention.causal", LGG_VT_BOOL, false);
    arch_u32(c, "pooling_type", false, &ignored);
    if (arch_u32(c, "block_count", true, &c->n_layer) && (c->n_layer == 0 || c->n_layer > MAX_LAYERS))
        bad_value(c, akey(c, "block_count", k, sizeof k), "1..512", c->n_layer);
    if (c->n_layer == 0 || c->n_layer > MAX_LAYERS) return; /* master asserts here */
    expert_keys(c);
    layer_key(c, "feed_forward_length", &c->n_ff);
    layer_key(c, "attention.head_count", &c->n_head);
    c->n_head_kv = c->n_head;
    layer_key(c, "attention.head_count_kv", &c->n_head_kv);
    c->has_head_kv = lgg_get(c->f, akey(c, "attention.head_count_kv", k, sizeof k), &c->head_kv) == LGG_OK &&
                     c->head_kv.type == LGG_VT_ARRAY && c->head_kv.count == c->n_layer;
    c->has_head = lgg_get(c->f, akey(c, "attention.head_count", k, sizeof k), &c->head) == LGG_OK &&
                  c->head.type == LGG_VT_ARRAY && c->head.count == c->n_layer;
    c->has_ff = lgg_get(c->f, akey(c, "feed_forward_length", k, sizeof k), &c->ff) == LGG_OK &&
                c->ff.type == LGG_VT_ARRAY && c->ff.count == c->n_layer;
    rope_keys(c);
    head_keys(c);
    if (lgg_get(c->f, akey(c, "classifier.output_labels", k, sizeof k), &v) == LGG_OK && v.type == LGG_VT_ARRAY) {
        if (v.elem_type != LGG_VT_STRING) {
            char got[64];
            snprintf(got, sizeof got, "array of %s", vt_name(v.elem_type));
            issue(c, false, LGG_LOAD_WRONG_TYPE, k, "array of string", got);
        } else if (v.count) {
            c->n_cls_out = v.count > UINT32_MAX ? UINT32_MAX : (uint32_t)v.count;
        }
    }
    c->attn_interval = 4;
    arch_keys(c);
    if (c->n_nextn >= c->n_layer) /* master's GGML_ASSERT */
        bad_value(c, akey(c, "nextn_predict_layers", k, sizeof k), "below block_count", c->n_nextn);
    if (c->attn_interval == 0) bad_value(c, akey(c, "full_attention_interval", k, sizeof k), "above 0", 0);
}

/* ---- vocabulary (llama_vocab::impl::load) ------------------------------------ */

static bool str_is(const lgg_str *s, const char *z) { return s->len == strlen(z) && !memcmp(s->ptr, z, s->len); }

/* The token list and the arrays as long as it. */
static void vocab_arrays(lc *c) {
    lgg_value v;
    char want[64], got[64];
    if (lgg_get(c->f, "tokenizer.ggml.tokens", &v) != LGG_OK) {
        issue(c, false, LGG_LOAD_MISSING, "tokenizer.ggml.tokens", "array of string", "");
        return;
    }
    if (v.type != LGG_VT_ARRAY || v.elem_type != LGG_VT_STRING) {
        issue(c, false, LGG_LOAD_WRONG_TYPE, "tokenizer.ggml.tokens", "array of string", vt_name(v.type));
        return;
    }
    c->n_vocab = v.count;
    static const char *const arrays[] = {"tokenizer.ggml.scores", "tokenizer.ggml.token_type"};
    for (size_t i = 0; i < 2; i++) {
        if (lgg_get(c->f, arrays[i], &v) != LGG_OK) continue;
        bool ok = v.type == LGG_VT_ARRAY && (v.elem_type == LGG_VT_I32 || (i == 0 && v.elem_type == LGG_VT_F32));
        if (!ok) {
            snprintf(got, sizeof got, v.type == LGG_VT_ARRAY ? "array of %s" : "%s",
                     vt_name(v.type == LGG_VT_ARRAY ? v.elem_type : v.type));
            issue(c, false, LGG_LOAD_WRONG_TYPE, arrays[i], i ? "array of i32" : "array of f32 or i32", got);
        } else if (v.count < c->n_vocab) {
            snprintf(want, sizeof want, "at least %llu elements", (unsigned long long)c->n_vocab);
            snprintf(got, sizeof got, "%llu elements", (unsigned long long)v.count);
            issue(c, false, LGG_LOAD_BAD_VALUE, arrays[i], want, got);
        }
    }
}

/* The pre-tokenizer names master's BPE vocabularies know (llama-vocab.cpp at 3f545becc, its
 * `tokenizer_pre == "..."` tests; another name: "unknown pre-tokenizer type"; none: the default). */
static const char *const PRE_NAMES[] = {
    "a.x-4.0", "afmoe", "bailingmoe", "bailingmoe2", "bloom", "chameleon", "chatglm-bpe", "codeshell",
    "cohere2moe", "command-r", "dbrx", "deepseek-coder", "deepseek-llm", "deepseek-r1-qwen", "deepseek-v3",
    "default", "exaone", "exaone-moe", "exaone4", "f2llmv2", "falcon", "falcon-h1", "falcon3", "gemma4",
    "gigachat", "glm4", "gpt-2", "gpt-4o", "gpt3-finnish", "granite-docling", "granite-embed-multi-311m",
    "granite-embed-multi-97m", "grok-2", "hunyuan", "hunyuan-dense", "jais", "jais-2", "jina-de", "jina-es",
    "jina-v1-en", "jina-v2-code", "jina-v2-de", "jina-v2-es", "jina-v5-nano", "joyai-llm", "kanana2", "kimi-k2",
    "kormo", "laguna", "lfm2", "llada-moe", "llama-bpe", "llama-v3", "llama3", "llama4", "megrez", "mellum",
    "mellum2", "midm-2.0", "minerva-7b", "minicpm5", "minimax-m2", "modern-bert", "mpt", "olmo", "phi-2",
    "pixtral", "poro-chat", "qwen2", "qwen35", "refact", "roberta-bpe", "sarvam-moe", "seed-coder", "smaug-bpe",
    "smollm", "solar-open", "stablelm2", "starcoder", "superbpe", "talkie", "tekken", "tiny_aya", "trillion",
    "viking", "whitespace", "youtu"};

/* A BPE vocabulary: its merges (but kimi-k2's), its pre-tokenizer a name master knows. */
static void bpe_keys(lc *c, const lgg_str *pre) {
    lgg_value v;
    if (!str_is(pre, "kimi-k2")) {
        if (lgg_get(c->f, "tokenizer.ggml.merges", &v) != LGG_OK)
            issue(c, false, LGG_LOAD_MISSING, "tokenizer.ggml.merges", "array of string", "");
        else if (v.type != LGG_VT_ARRAY || v.elem_type != LGG_VT_STRING)
            issue(c, false, LGG_LOAD_WRONG_TYPE, "tokenizer.ggml.merges", "array of string", vt_name(v.type));
    }
    bool known = pre->len == 0;
    for (size_t i = 0; i < sizeof PRE_NAMES / sizeof PRE_NAMES[0] && !known; i++) known = str_is(pre, PRE_NAMES[i]);
    if (!known) {
        char got[64];
        printable(got, sizeof got, pre->ptr, (size_t)pre->len);
        issue(c, false, LGG_LOAD_BAD_VALUE, "tokenizer.ggml.pre", "a pre-tokenizer master knows", got);
    }
}

static void vocab(lc *c) {
    static const char *const models[] = {"llama", "bert", "gpt2", "hybriddna", "whitespace",
                                         "t5", "rwkv", "plamo2", "gemma4"};
    static const char *const ids[] = {"bos", "eos", "eot", "eom", "unk", "sep", "pad", "mask", "fim_pre",
                                      "fim_suf", "fim_mid", "fim_pad", "fim_rep", "fim_sep", "prefix", "suffix",
                                      "middle"};
    lgg_value v, pre;
    lgg_str m, p = {0};
    if (!key_of(c, "tokenizer.ggml.model", LGG_VT_STRING, true, &v) || lgg_value_string(&v, &m) != LGG_OK) return;
    if (key_of(c, "tokenizer.ggml.pre", LGG_VT_STRING, false, &pre)) lgg_value_string(&pre, &p);
    uint64_t tt = 0;
    if (key_of(c, "tokenizer.ggml.token_type_count", LGG_VT_U32, false, &v) && lgg_value_uint(&v, &tt) == LGG_OK)
        c->n_token_types = (uint32_t)tt;
    if (str_is(&m, "no_vocab") || str_is(&m, "none")) { /* <arch>.vocab_size dummy tokens */
        uint64_t n = 0;
        if (key_of(c, akey(c, "vocab_size", (char[160]){0}, 160), LGG_VT_U32, false, &v) &&
            lgg_value_uint(&v, &n) == LGG_OK)
            c->n_vocab = n;
        return;
    }
    bool known = false;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) known |= str_is(&m, models[i]);
    if (!known) {
        char got[64];
        printable(got, sizeof got, m.ptr, (size_t)m.len);
        issue(c, false, LGG_LOAD_BAD_VALUE, "tokenizer.ggml.model", "a tokenizer master knows", got);
        return;
    }
    if (str_is(&m, "gpt2") || str_is(&m, "hybriddna") || str_is(&m, "whitespace")) bpe_keys(c, &p);
    key_of(c, "tokenizer.ggml.add_space_prefix", LGG_VT_BOOL, false, &v);
    key_of(c, "tokenizer.ggml.remove_extra_whitespaces", LGG_VT_BOOL, false, &v);
    vocab_arrays(c);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        char k[64];
        snprintf(k, sizeof k, "tokenizer.ggml.%s_token_id", ids[i]);
        key_of(c, k, LGG_VT_U32, false, &v);
    }
    key_of(c, "tokenizer.ggml.add_bos_token", LGG_VT_BOOL, false, &v);
    key_of(c, "tokenizer.ggml.add_eos_token", LGG_VT_BOOL, false, &v);
    key_of(c, "tokenizer.ggml.add_sep_token", LGG_VT_BOOL, false, &v);
}

/* ---- tensors ----------------------------------------------------------------- */

static void shape_text(char *buf, size_t cap, const int64_t *ne, uint32_t nd) {
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (uint32_t i = 0; i < nd && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? ", " : "", (long long)ne[i]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* create_tensor(NAME, {ne0[, ne1[, ne2[, ne3]]]}, flags): true when the tensor is there (whatever its shape). */
static bool want4(lc *c, unsigned flags, const char *name, const int64_t ne[4]) {
    const uint32_t nd = ne[3] ? 4 : ne[2] ? 3 : ne[1] ? 2 : 1;
    int64_t id = lgg_find_tensor_cstr(c->f, name);
    char exp[96], got[96];
    shape_text(exp, sizeof exp, ne, nd);
    if (id < 0) {
        if (!(flags & OPT)) issue(c, true, LGG_LOAD_MISSING, name, exp, "");
        return false;
    }
    const lgg_tensor *t = lgg_tensor_at(c->f, (uint64_t)id);
    bool ok = true;
    for (uint32_t i = 0; i < LGG_MAX_DIMS; i++) ok &= t->ne[i] == (i < nd ? ne[i] : 1);
    if (!ok) {
        shape_text(got, sizeof got, t->ne, t->n_dims ? t->n_dims : 1);
        issue(c, true, LGG_LOAD_WRONG_SHAPE, name, exp, got);
    }
    if (!(flags & DUP) && !c->seen[id]) {
        c->seen[id] = 1;
        c->out->n_tensors_expected++;
    }
    return true;
}

static bool want(lc *c, unsigned flags, const char *name, int64_t ne0, int64_t ne1, int64_t ne2) {
    const int64_t ne[4] = {ne0, ne1, ne2, 0};
    return want4(c, flags, name, ne);
}

/* arwkv7: master tries time_mix_lerp_fused of [n_embd, 1, 1, 6] and, when that throws, of 5 */
static void lerp_6_or_5(lc *c, int64_t il) {
    char n[64];
    snprintf(n, sizeof n, "blk.%lld.time_mix_lerp_fused.weight", (long long)il);
    int64_t id = lgg_find_tensor_cstr(c->f, n);
    const lgg_tensor *t = id >= 0 ? lgg_tensor_at(c->f, (uint64_t)id) : NULL;
    const int64_t six[4] = {c->n_embd, 1, 1, 6}, five[4] = {c->n_embd, 1, 1, 5};
    want4(c, 0, n, t && t->ne[0] == six[0] && t->ne[1] == 1 && t->ne[2] == 1 && t->ne[3] == 6 ? six : five);
}

/* rwkv6: master's GGML_ASSERT that layer il has a fused lerp or time_mix_lerp_w */
static bool rwkv6_lerp(lc *c, int64_t il) {
    char fused[64], w[64];
    snprintf(fused, sizeof fused, "blk.%lld.time_mix_lerp_fused.weight", (long long)il);
    snprintf(w, sizeof w, "blk.%lld.time_mix_lerp_w.weight", (long long)il);
    if (lgg_find_tensor_cstr(c->f, fused) >= 0 || lgg_find_tensor_cstr(c->f, w) >= 0) return true;
    issue(c, true, LGG_LOAD_BAD_VALUE, fused, "it or time_mix_lerp_w (master asserts)", "neither");
    return false;
}

/* Layer il's element of a per-layer key (an array of n_layer, when HAS), else the scalar ALL. */
static uint32_t per_layer(const lgg_value *arr, bool has, uint32_t all, int64_t il) {
    lgg_value e;
    uint64_t x = 0;
    if (!has || il < 0) return all;
    if (lgg_array_get(arr, (uint64_t)il, &e) != LGG_OK || lgg_value_uint(&e, &x) != LGG_OK) return 0;
    return (uint32_t)x;
}

/* Layer il's head_count_kv (hparams.n_head_kv(il)). */
static uint32_t layer_head_kv(const lc *c, int64_t il) { return per_layer(&c->head_kv, c->has_head_kv, c->n_head_kv, il); }

/* Layer il's head_count (hparams.n_head(il)). */
static uint32_t layer_head(const lc *c, int64_t il) { return per_layer(&c->head, c->has_head, c->n_head, il); }

/* Layer il's feed_forward_length (hparams.n_ff(il)). */
static uint32_t layer_ff(const lc *c, int64_t il) { return per_layer(&c->ff, c->has_ff, c->n_ff, il); }

/* laguna's attn_gate: one gate a head or one an element, the file's width deciding; another width aborts */
static bool head_gate(lc *c, int64_t il) {
    char n[64];
    snprintf(n, sizeof n, "blk.%lld.attn_gate.weight", (long long)il);
    int64_t id = lgg_find_tensor_cstr(c->f, n);
    const int64_t heads = layer_head(c, il), per_elem = (int64_t)c->head_k * heads;
    int64_t width = heads;
    if (id >= 0) {
        width = lgg_tensor_at(c->f, (uint64_t)id)->ne[1];
        if (width != heads && width != per_elem) {
            char want_w[64], got[32];
            snprintf(want_w, sizeof want_w, "width %lld or %lld (master aborts)", (long long)heads, (long long)per_elem);
            snprintf(got, sizeof got, "%lld", (long long)width);
            issue(c, true, LGG_LOAD_BAD_VALUE, n, want_w, got);
            return false;
        }
    }
    want(c, 0, n, c->n_embd, width, 0);
    return true;
}

/* jina-bert-v2 sizes ffn_up by the file's: 2 n_ff when it is that wide, else n_ff. */
static int64_t up_width(const lc *c) {
    char n[64];
    snprintf(n, sizeof n, "blk.%lld.ffn_up.weight", (long long)c->il);
    int64_t id = lgg_find_tensor_cstr(c->f, n);
    const int64_t F = c->n_ff;
    return id >= 0 && lgg_tensor_at(c->f, (uint64_t)id)->ne[1] == 2 * F ? 2 * F : F;
}

/* hparams.is_mla(): both MLA head sizes given */
static bool is_mla(const lc *c) { return c->k_mla && c->v_mla; }
static int64_t head_k_mla(const lc *c) { return is_mla(c) ? c->k_mla : c->head_k; }
static int64_t head_v_mla(const lc *c) { return is_mla(c) ? c->v_mla : c->head_v; }

static int64_t dim(const lc *c, uint8_t d) {
    const int64_t hk = c->head_k, hv = c->head_v, F = c->n_ff;
    switch (d) {
    case D_E: return c->n_embd;
    case D_V: return (int64_t)c->n_vocab;
    case D_F: return F;
    case D_F2: return 2 * F;
    case D_Q: return hk * c->n_head;
    case D_KG: return hk * c->n_head_kv;
    case D_VG: return hv * c->n_head_kv;
    case D_HK: return hk;
    case D_X: return c->n_expert;
    case D_FX: return c->n_ff_exp ? c->n_ff_exp : c->n_expert_used ? F / c->n_expert_used : 0;
    case D_FS: return c->n_ff_shexp ? c->n_ff_shexp : F;
    case D_FXS: return c->n_ff_shexp;
    case D_ROT2: return c->n_rot / 2;
    case D_CLS: return c->n_cls_out;
    case D_KN: return c->n_head ? (int64_t)c->n_head_kv * (c->n_embd / c->n_head) : 0;
    case D_H: return c->n_head;
    case D_HKV: return c->n_head_kv;
    case D_Q2: return 2 * hk * c->n_head;
    case D_E2: return 2 * (int64_t)c->n_embd;
    case D_GDN_QKV: return 2 * (int64_t)c->ssm_state * c->ssm_group + (int64_t)c->ssm_state * c->ssm_dtr;
    case D_GDN_V: return (int64_t)c->ssm_state * c->ssm_dtr;
    case D_CONV: return c->ssm_conv;
    case D_DTR: return c->ssm_dtr;
    case D_DS: return c->ssm_state;
    case D_HALF_HEAD: return c->n_head ? (int64_t)(c->n_embd / c->n_head) / 2 : 0;
    case D_FXR: return c->n_ff_exp;
    case D_E2G: return (int64_t)c->n_embd + 2 * hv * c->n_head_kv;
    case D_CTX: return c->n_ctx_train;
    case D_TT: return c->n_token_types;
    case D_KGL: return hk * layer_head_kv(c, c->il);
    case D_FUP: return up_width(c);
    case D_FXG: return c->n_ff_exp ? c->n_ff_exp : F;
    case D_QL: return c->q_lora;
    case D_KL: return c->kv_lora;
    case D_KLR: return (int64_t)c->kv_lora + c->n_rot;
    case D_KVB: return (int64_t)c->n_head * (hk - c->n_rot + hv);
    case D_HV: return hv * c->n_head;
    case D_SC: return c->l_cache;
    case D_E3: return 3 * (int64_t)c->n_embd;
    case D_ALTUP: return 4;
    case D_ALTUP1: return 3;
    case D_ALTUP2: return 16;
    case D_LAUREL: return 64;
    case D_PLE1: return 256;
    case D_PLE: return 256 * (int64_t)c->n_layer;
    case D_ONE: return 1;
    case D_D2: return c->dense_2_out;
    case D_D3: return c->dense_3_in;
    case D_FXS2: return (int64_t)c->n_ff_exp * c->n_expert_shared;
    case D_QR: return (int64_t)c->n_head * c->n_rot;
    case D_KVR: return (int64_t)c->n_head_kv * c->n_rot;
    case D_FXSH: return dim(c, D_FX) * c->n_expert_shared;
    case D_DI: return c->ssm_inner;
    case D_DI2: return 2 * (int64_t)c->ssm_inner;
    case D_MX: return (int64_t)c->ssm_dtr + 2 * (int64_t)c->ssm_state;
    case D_M2CONV: return (int64_t)c->ssm_inner + 2 * (int64_t)c->ssm_group * c->ssm_state;
    case D_M2IN: return (int64_t)c->ssm_inner + dim(c, D_M2CONV) + c->ssm_dtr;
    case D_DIG: return c->ssm_group ? c->ssm_inner / c->ssm_group : 0;
    case D_NG: return c->ssm_group;
    case D_QKVZ: return 2 * (int64_t)c->ssm_state * c->ssm_group + 2 * (int64_t)c->ssm_state * c->ssm_dtr;
    case D_DTR2: return 2 * (int64_t)c->ssm_dtr;
    case D_EOUT: return c->n_embd_out ? c->n_embd_out : c->n_embd;
    case D_FXSB: return (int64_t)(c->n_ff_shexp ? c->n_ff_shexp : c->n_ff_exp) * c->n_expert_shared;
    case D_FXSE: return c->n_ff_shexp ? c->n_ff_shexp : c->n_ff_exp;
    case D_WKV: return c->wkv;
    case D_EWKV: return c->wkv ? c->n_embd / c->wkv : 0;
    case D_TMX: return c->tmx;
    case D_TMX5: return 5 * (int64_t)c->tmx;
    case D_TDX: return c->tdx;
    case D_LDECAY: return c->lora_decay;
    case D_LICLR: return c->lora_iclr;
    case D_LVRES: return c->lora_vres;
    case D_LGATE: return c->lora_gate;
    case D_FIVE: return 5;
    case D_SIX: return 6;
    case D_VGL: return hv * layer_head_kv(c, c->il);
    case D_FL: return layer_ff(c, c->il);
    case D_ME: return c->moe_latent ? c->moe_latent : c->n_embd;
    case D_RKV:
        if (c->n_head_kv == 0 || (c->wkv && c->n_embd / c->wkv == c->n_head_kv)) return c->n_embd;
        return (int64_t)c->n_head_kv * c->wkv;
    case D_FH: return F / 2;
    case D_QHL: return hk * layer_head(c, c->il);
    case D_VHL: return hv * layer_head(c, c->il);
    case D_QKKL: return hk * (layer_head(c, c->il) + 2 * (int64_t)layer_head_kv(c, c->il));
    case D_QKVL: return hk * layer_head(c, c->il) + (hk + hv) * layer_head_kv(c, c->il);
    case D_F2L: return 2 * (int64_t)layer_ff(c, c->il);
    case D_FXS2X: return 2 * (int64_t)c->n_ff_shexp;
    case D_FSHG: return c->n_ff_shexp ? c->n_ff_shexp : dim(c, D_FXG) * c->n_expert_shared;
    case D_FSHC: return c->n_ff_shexp ? c->n_ff_shexp : (int64_t)c->n_ff_exp * c->n_expert_shared;
    case D_FCH: return c->n_ff_chexp ? c->n_ff_chexp : hk;
    case D_XCH: return c->n_group_experts ? c->n_expert / c->n_group_experts : 0;
    case D_QM: return (int64_t)c->n_head * head_k_mla(c);
    case D_NOPE: return head_k_mla(c) - c->n_rot;
    case D_VM: return head_v_mla(c);
    case D_KVBM: return (int64_t)c->n_head * (head_k_mla(c) - c->n_rot + head_v_mla(c));
    case D_OM: return (int64_t)c->n_head * head_v_mla(c);
    default: return 0;
    }
}

/* The name of a row: blk.N.NAME for a layer's (il >= 0), NAME for a global one. */
static const char *row_name(char *buf, size_t cap, int64_t il, const char *name) {
    if (il < 0) snprintf(buf, cap, "%s", name);
    else if (!strncmp(name, "rope_", 5)) snprintf(buf, cap, "%s", name); /* rope factors: no layer number */
    else snprintf(buf, cap, "blk.%lld.%s", (long long)il, name);
    return buf;
}

/* create_tensor_qkv: a fused attn_qkv when present, else Q, K and V with optional biases. */
static void qkv(lc *c, int64_t il, const tspec *r) {
    char n[96], w[64];
    const int64_t E = c->n_embd, q = dim(c, r->d[0]), k = dim(c, r->d[1]), v = dim(c, r->d[2]);
    static const char *const part[] = {"attn_q", "attn_k", "attn_v"};
    const int64_t size[] = {q, k, v};
    if (want(c, OPT, row_name(n, sizeof n, il, "attn_qkv.weight"), E, q + k + v, 0)) {
        want(c, OPT, row_name(n, sizeof n, il, "attn_qkv.bias"), q + k + v, 0, 0);
        return;
    }
    for (int i = 0; i < 3; i++) {
        snprintf(w, sizeof w, "%s.weight", part[i]);
        want(c, r->flags, row_name(n, sizeof n, il, w), E, size[i], 0);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(w, sizeof w, "%s.bias", part[i]);
        want(c, OPT, row_name(n, sizeof n, il, w), size[i], 0, 0);
    }
}

/* Layer il is recurrent (qwen35's is_recr): as attention.recurrent_layers says, else all but every
 * full_attention_interval-th layer; the MTP layers never. */
static bool recurrent(const lc *c, int64_t il) {
    if (il < 0 || (uint64_t)il >= (uint64_t)c->n_layer - c->n_nextn) return false;
    if (c->recr_kv0) return layer_head_kv(c, il) == 0 && (!c->recr_ff0 || layer_ff(c, il) == 0);
    if (!c->has_recr) return c->attn_interval && ((uint64_t)il + 1) % c->attn_interval != 0;
    lgg_value e;
    uint64_t x = 0;
    if (lgg_array_get(&c->recr, (uint64_t)il, &e) != LGG_OK) return false;
    if (e.type == LGG_VT_BOOL) return e.data[0] != 0;
    return lgg_value_uint(&e, &x) == LGG_OK && x != 0;
}

/* jamba: layer il's ffn_gate_inp.weight is in the file (master then creates its experts) */
static bool has_router(const lc *c, int64_t il) {
    char n[64];
    snprintf(n, sizeof n, "blk.%lld.ffn_gate_inp.weight", (long long)il);
    return il >= 0 && lgg_find_tensor_cstr(c->f, n) >= 0;
}

static bool applies(const lc *c, uint8_t cond, int64_t il) {
    switch (cond) {
    case C_RECR: return recurrent(c, il);
    case C_NOT_RECR: return !recurrent(c, il);
    case C_MOE_EVERY: return c->moe_every > 0 && il % c->moe_every == 1;
    case C_NOT_MOE_EVERY: return !(c->moe_every > 0 && il % c->moe_every == 1);
    case C_MOE_STEP: return c->moe_step > 0 && (il + 1) % c->moe_step == 0;
    case C_NOT_MOE_STEP: return !(c->moe_step > 0 && (il + 1) % c->moe_step == 0);
    case C_TRUNK: return il >= 0 && (uint64_t)il < (uint64_t)c->n_layer - c->n_nextn;
    case C_MOE_SHARED: return il >= 0 && (uint64_t)il >= c->n_dense_lead && c->n_expert_shared > 0;
    case C_HAS_ROUTER: return has_router(c, il);
    case C_NO_ROUTER: return !has_router(c, il);
    case C_QLORA: return c->q_lora > 0;
    case C_NO_QLORA: return c->q_lora == 0;
    case C_MLA: return is_mla(c);
    case C_NOT_MLA: return !is_mla(c);
    case C_FIRST: return il == 0;
    case C_NOT_FIRST: return il > 0;
    case C_LEAD: return il >= 0 && (uint64_t)il < c->n_dense_lead;
    case C_ATTN_FF0: return applies(c, C_TRUNK, il) && !recurrent(c, il) && layer_ff(c, il) == 0;
    case C_FFN_MOE: return applies(c, C_TRUNK, il) && !recurrent(c, il) && layer_ff(c, il) != 0 && c->n_expert;
    case C_FFN_DENSE: return applies(c, C_TRUNK, il) && !recurrent(c, il) && layer_ff(c, il) != 0 && !c->n_expert;
    case C_NOT_LEAD_SHEXP: return il >= 0 && (uint64_t)il >= c->n_dense_lead && c->n_ff_shexp > 0;
    case C_LEAD_OR_MTP: return applies(c, C_LEAD, il) || applies(c, C_MTP, il);
    case C_NOT_LEAD_TRUNK: return !applies(c, C_LEAD_OR_MTP, il);
    case C_LINEAR_ATTN: return layer_head_kv(c, il) == 0 && layer_head(c, il) > 0;
    case C_ATTN_KV: return layer_head_kv(c, il) > 0;
    case C_FF: return layer_ff(c, il) > 0;
    case C_NOT_LEAD: return il >= 0 && (uint64_t)il >= c->n_dense_lead;
    case C_MTP: return il >= 0 && (uint64_t)il >= (uint64_t)c->n_layer - c->n_nextn;
    case C_DENSE: return c->n_expert == 0;
    case C_MOE: return c->n_expert > 0;
    case C_SHEXP: return c->n_expert > 0 && c->n_ff_shexp > 0;
    case C_LONGROPE: return c->longrope;
    case C_NOT_LONGROPE: return !c->longrope;
    case C_L64: return c->n_layer >= 64;
    default: return true;
    }
}

/* One table's rows, for layer il (or the globals: il -1); false when master throws. */
static bool rows(lc *c, const tspec *r, int64_t il) {
    char n[96], k[160];
    c->il = il;
    for (; r->op || r->name; r++) {
        if (!applies(c, r->cond, il)) continue;
        if (r->op == OP_QKV) {
            qkv(c, il, r);
        } else if (r->op == OP_OUTPUT) {
            if (!want(c, OPT, "output.weight", c->n_embd, (int64_t)c->n_vocab, 0))
                want(c, DUP, "token_embd.weight", c->n_embd, (int64_t)c->n_vocab, 0);
        } else if (r->op == OP_GATE_UP_EXPS) {
            const int64_t E = c->n_embd, F = dim(c, r->d[0] ? r->d[0] : D_FX), X = c->n_expert;
            if (!want(c, OPT, row_name(n, sizeof n, il, "ffn_gate_up_exps.weight"), E, 2 * F, X)) {
                want(c, r->flags, row_name(n, sizeof n, il, "ffn_gate_exps.weight"), E, F, X);
                want(c, r->flags, row_name(n, sizeof n, il, "ffn_up_exps.weight"), E, F, X);
            }
        } else if (r->op == OP_POST_NORM) {
            if (!want(c, OPT, row_name(n, sizeof n, il, "layer_output_norm.weight"), c->n_embd, 0, 0))
                want(c, 0, row_name(n, sizeof n, il, "post_ffw_norm.weight"), c->n_embd, 0, 0);
        } else if (r->op == OP_LERP_6_OR_5) {
            lerp_6_or_5(c, il);
        } else if (r->op == OP_HEAD_GATE) {
            if (!head_gate(c, il)) return false;
        } else if (r->op == OP_GROUPS) {
            if (c->n_group_experts) continue;
            bad_value(c, akey(c, "experts_per_group", k, sizeof k), "above 0", 0);
            return false;
        } else if (r->op == OP_RWKV6_LERP) {
            if (!rwkv6_lerp(c, il)) return false;
        } else if (r->op == OP_MAMBA_EXPAND) {
            if (c->ssm_inner == 2 * (uint64_t)c->n_embd) continue;
            bad_value(c, akey(c, "ssm.inner_size", k, sizeof k), "2 embedding_length", c->ssm_inner);
            return false;
        } else if (r->op == OP_TOKEN_TYPES) {
            if (c->n_token_types) continue;
            issue(c, false, LGG_LOAD_MISSING, "tokenizer.ggml.token_type_count", "above 0", "");
            return false;
        } else if (r->op == OP_EXPERTS) {
            if (c->n_expert && c->n_expert_used) continue;
            issue(c, false, LGG_LOAD_BAD_VALUE,
                  akey(c, c->n_expert ? "expert_used_count" : "expert_count", k, sizeof k), "above 0", "0");
            return false;
        } else {
            unsigned f = r->flags & (OPT | DUP);
            if ((r->flags & DUP1) && il > 0) f |= DUP;
            const int64_t ne[4] = {dim(c, r->d[0]), dim(c, r->d[1]), dim(c, r->d[2]), dim(c, r->d[3])};
            want4(c, f, row_name(n, sizeof n, il, r->name), ne);
        }
    }
    return true;
}

static void tensors(lc *c) {
    if (!rows(c, c->t->globals, -1)) return;
    for (uint32_t il = 0; il < c->n_layer; il++)
        if (!rows(c, c->t->layer, il)) return;
    /* done_getting_tensors: every tensor of the file must have been created */
    for (uint64_t i = 0; i < c->f->n_tensors; i++) {
        if (c->seen[i]) continue;
        const lgg_tensor *t = lgg_tensor_at(c->f, i);
        char name[96], got[96];
        printable(name, sizeof name, t->name.ptr, (size_t)t->name.len);
        shape_text(got, sizeof got, t->ne, t->n_dims ? t->n_dims : 1);
        issue(c, true, LGG_LOAD_UNEXPECTED, name, "", got);
    }
}

/* ---- the check ----------------------------------------------------------------- */

/* llama_model_loader's constructor: every tensor's data within the file ("data is not within the file
 * bounds"), before anything else is read. */
static void data_present(lc *c) {
    for (uint64_t i = 0; i < c->f->n_tensors; i++) {
        const lgg_tensor *t = lgg_tensor_at(c->f, i);
        if (t->data_available) continue;
        char name[96];
        printable(name, sizeof name, t->name.ptr, (size_t)t->name.len);
        issue(c, true, LGG_LOAD_NO_DATA, name, "data within the file", "past its end");
    }
}

lgg_status lgg_load_check_file(const lgg_file *f, lgg_load_check *out, lgg_error *err) {
    if (!f || !out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "file or out is NULL");
    memset(out, 0, sizeof *out);
    lc c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.out = out;
    c.n_cls_out = 1;
    lgg_value v;
    lgg_str s;
    data_present(&c);
    if (out->n_issues) {
        out->verdict = LGG_LOAD_REFUSED;
        if (lgg_get(f, "general.architecture", &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK)
            printable(out->arch, sizeof out->arch, s.ptr, (size_t)s.len);
        return LGG_OK;
    }
    if (!key_of(&c, "general.architecture", LGG_VT_STRING, true, &v) || lgg_value_string(&v, &s) != LGG_OK) {
        out->verdict = LGG_LOAD_REFUSED;
        return LGG_OK;
    }
    printable(out->arch, sizeof out->arch, s.ptr, (size_t)s.len);
    for (size_t i = 0; i < sizeof TABLES / sizeof TABLES[0]; i++)
        if (str_is(&s, TABLES[i].name)) c.t = &TABLES[i];
    if (!c.t) {
        out->verdict = LGG_LOAD_NO_TABLE;
        return LGG_OK;
    }
    hparams(&c);
    if (!out->n_issues) vocab(&c);
    if (!out->n_issues) {
        c.seen = lgg__calloc(f->alloc, f->n_tensors ? f->n_tensors : 1, 1);
        if (!c.seen) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        tensors(&c);
        lgg__free(f->alloc, c.seen);
    }
    out->verdict = out->n_issues ? LGG_LOAD_REFUSED : LGG_LOAD_LOADS;
    return LGG_OK;
}
