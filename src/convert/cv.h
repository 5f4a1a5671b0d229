/* cv.h -- internal to the converter part (src/convert/). */
#ifndef LGG_CV_H
#define LGG_CV_H

#include "libgguf.h"
#include "libgguf_convert.h"

#include <jansson.h>
#include <stdarg.h>

/* Fill *err (may be NULL) with code and a printf message; returns code.
 * The public error setter, with no byte offset: the converter uses only
 * the core's public API. */
#define lgg__cv_fail(err, code, ...) lgg_error_set((err), (code), LGG_NO_OFFSET, __VA_ARGS__)

/* ---- per-family tables (families.c) ---- */
enum {
    CV_X_PERM_Q = 1, /* llama's q row permutation (num_attention_heads) */
    CV_X_PERM_K = 2, /* the same with num_key_value_heads */
    CV_X_ADD1 = 4,   /* gemma's norm + 1 */
    CV_X_SKIP = 8,   /* the tensor is dropped */
    CV_X_EXPERT = 16, /* one expert's matrix ('*' in the name is the expert): stacked with the
                         others of its block into one 3-D tensor, emitted when the block's last
                         expert tensor arrives */
    CV_X_TRANSPOSE = 32, /* a 2-D matrix written transposed (GPT-2's Conv1D weights) */
    CV_X_HEAD_NORM = 64, /* one attention head's norm vector ('*' is the head): stacked with the
                            block's others into one [heads, dim] tensor when its last head arrives;
                            slot 0 counts num_attention_heads, slot 1 num_key_value_heads (StableLM 2 12B) */
    CV_X_NEG_EXP = 4096, /* Mamba's A = -exp(A_log), torch's exp (families/mamba.c); high bits, clear of
                           the other family files' */
    CV_X_EXPERT_T = 16384,   /* each expert's matrix transposed: output row u of expert u / ne[1] is a
                                column of the source (DBRX's w2; gpt-oss's every other column); row_arg:
                                load_row's (the source rows' length, the column step and first, the
                                experts' source rows apart: MLA's k_b, families/glm4.c) */
    CV_X_TERNARY = 1u << 20  /* BitNet's weights made ternary with the tensor's scale (families/bitnet.c) */
};
/* A CV_X_EXPERT row's place among its block's three stacked tensors (they
 * are written in slot order). */
/* CV_X_NO_NAME: a family's row for a shared name its reference does not
 * map (BitNet's lm_head): the tensor has no GGUF name. */
#define CV_X_NO_NAME (1u << 27)
/* CV_X_EXPERTS2: a CV_X_EXPERT row of the block's second set of experts (GroveMoE's chunk experts),
 * stacked apart from the first, config.json's lgg.experts2 of them (the family's init sets it). */
#define CV_X_EXPERTS2 (1u << 26)
#define CV_X_SLOT(k) ((unsigned)(k) << 28)
#define CV_X_SLOT_OF(x) (((x) >> 28) & 3u)
/* A Hugging Face tensor name (without .weight/.bias; '#' stands for the block
 * number, '*' for an expert number) and the GGUF name it becomes ('#'
 * replaced by the same number).  The rows every family shares are
 * namemap.c's; a family's own (cv_family.tensors) hold only where it
 * differs, and are tried first. */
typedef struct cv_tmap {
    const char *hf, *gguf;
    unsigned xform;
} cv_tmap;

/* CV_M_ROPE_SCALING: when config.json's rope_scaling has a factor and its
 * "type" is `from` ("linear", "yarn"): rope.scaling.type and .factor, and
 * for yarn .original_context_length. */
/* CV_M_ROPE_DIM: head_dim, else hidden_size / num_attention_heads;
 * CV_M_ROPE_DIM_HEADS: always the latter. */
/* CV_M_ROPE_SCALING with `from` "linear+rope_type": linear scaling named by
 * "type" or "rope_type" (InternLM3). */
/* CV_M_BOOL: a JSON boolean.  CV_M_SUM: `from` is "a+b", the sum of two
 * counts, or "a*N", a count times N (a: the first present of '|'
 * separated keys).  CV_M_STR / CV_M_F32_CONST: `from` is the value itself (the
 * reference's hard-coded values).  CV_M_ENUM: `from` is
 * "key=name:value,name:value", a string mapped to a U32 (any other string
 * is an error).  CV_M_ROPE_PCT: int(P * (hidden_size //
 * num_attention_heads)), P the first of `from` present.  CV_M_ROPE_SCALING with `from` "yarn+log": yarn's
 * keys and then yarn_log_multiplier = 0.1 * mscale_all_dim. */
enum {
    CV_M_U32,
    CV_M_F32,
    CV_M_ROPE_DIM,
    CV_M_FILE_TYPE,
    CV_M_ROPE_SCALING,
    CV_M_ROPE_DIM_HEADS,
    CV_M_BOOL,
    CV_M_SUM,
    CV_M_STR,
    CV_M_F32_CONST,
    CV_M_ENUM,
    CV_M_ROPE_PCT,
    CV_M_ROPE_PCT_EMBD, /* int(P * hidden_size) // num_attention_heads (Phi-2) */
    CV_M_FALSE,         /* the boolean false */
    CV_M_U32_CONST,     /* `from` is the count itself (Falcon's context length) */
    CV_M_MASTER_THETA,  /* master's rope theta (lgg__cv_master_theta): `from` "full" or "swa" */
    CV_M_POOLING,       /* master's _try_set_pooling_type (lgg__cv_master_pooling): `key` unused */
    CV_M_SWA_LAYERS     /* a bool array, one per entry of the list `from` ("KEY" or "KEY=VALUE"): whether
                           it is VALUE, "sliding_attention" without one (master's add_sliding_window_pattern
                           of layer_types, GLM-DSA's indexer types) */
};
/* CV_M_ZERO_IF_ABSENT: a U32 written as 0 when config.json lacks it (or
 * has null). */
/* CV_M_UNLESS_WRITTEN: skipped when an earlier entry wrote the key (where
 * b4747 writes a key twice and fails: OLMo's and OLMoE's epsilons after the
 * base class wrote config.json's); with target master, written over it in
 * its place, as master's writer does. */
/* CV_M_NONZERO: written only when present and not 0 (Python's truth test). */
/* CV_M_TRUE_IF_ABSENT: a CV_M_BOOL written true when config.json lacks it. */
enum {
    CV_M_OPTIONAL = 0,
    CV_M_REQUIRED = 1,
    CV_M_ZERO_IF_ABSENT = 2,
    CV_M_UNLESS_WRITTEN = 3,
    CV_M_NONZERO = 4,
    CV_M_TRUE_IF_ABSENT = 5
};
/* One metadata pair written in set_gguf_parameters order: `key` is appended
 * to "<arch>." (a key starting with "general.", "tokenizer." or "diffusion."
 * is used as it is); `from`
 * lists the config.json keys to try, '|' separated, the first present wins. */
typedef struct cv_mkey {
    const char *key, *from;
    unsigned kind, required;
} cv_mkey;

/* set_gguf_parameters of the reference's base class: every key optional
 * except the block count. */
#define BASE_PARAMS BASE_PARAMS_CTX("max_position_embeddings|n_ctx", 0)
/* The same with the context length from CTX ('|' separated). */
#define BASE_PARAMS_CTX(CTX, REQ)                                                            \
    {"block_count", "n_layers|num_hidden_layers|n_layer|num_layers", CV_M_U32, CV_M_REQUIRED}, \
    {"context_length", CTX, CV_M_U32, REQ},                                                  \
    {"embedding_length", "hidden_size|n_embd", CV_M_U32, 0},                                 \
    {"feed_forward_length", "intermediate_size|n_inner", CV_M_U32, 0},                       \
    {"attention.head_count", "num_attention_heads|n_head", CV_M_U32, 0},                     \
    {"attention.head_count_kv", "num_key_value_heads", CV_M_U32, 0},                         \
    {"rope.freq_base", "rope_theta", CV_M_F32, 0},                                           \
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, 0},                       \
    {"attention.layer_norm_epsilon", "layer_norm_eps|layer_norm_epsilon|norm_epsilon", CV_M_F32, 0}, \
    {"expert_count", "num_local_experts", CV_M_U32, 0},                                      \
    {"expert_used_count", "num_experts_per_tok", CV_M_U32, 0},                               \
    {"attention.key_length", "head_dim", CV_M_U32, 0},                                       \
    {"attention.value_length", "head_dim", CV_M_U32, 0},                                     \
    {"general.file_type", "", CV_M_FILE_TYPE, 0}

/* llama.cpp master's TextModel.set_gguf_parameters, for the families only
 * master converts (in its order; key_length/value_length from head_dim,
 * general.file_type last). */
#define MASTER_BASE_PARAMS                                                                                       \
    {"block_count", "n_layers|num_hidden_layers|n_layer|num_layers", CV_M_U32, CV_M_REQUIRED},                    \
    {"context_length", "max_position_embeddings|n_ctx|n_positions|max_length|max_sequence_length|model_max_length", \
     CV_M_U32, 0},                                                                                                \
    {"embedding_length", "hidden_size|n_embd|dim", CV_M_U32, 0},                                                  \
    {"feed_forward_length", "prefix_dense_intermediate_size|dense_intermediate_size|intermediate_size|n_inner|hidden_dim", \
     CV_M_U32, 0},                                                                                                \
    {"attention.head_count", "num_attention_heads|n_head|n_heads", CV_M_U32, 0},                                 \
    {"attention.head_count_kv", "num_key_value_heads|n_kv_heads", CV_M_U32, 0},                                  \
    {"rope.scaling", "master", CV_M_ROPE_SCALING, 0},                                                            \
    {"rope.freq_base", "full", CV_M_MASTER_THETA, 0},                                                            \
    {"rope.freq_base_swa", "swa", CV_M_MASTER_THETA, 0},                                                         \
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps|norm_eps", CV_M_F32, 0},                                   \
    {"attention.layer_norm_epsilon", "layer_norm_eps|layer_norm_epsilon|norm_epsilon", CV_M_F32, 0},              \
    {"expert_count", "num_local_experts|num_experts|n_routed_experts", CV_M_U32, 0},                              \
    {"expert_used_count", "num_experts_per_tok|num_experts_per_token|top_k_experts", CV_M_U32, 0},                \
    {"expert_group_count", "n_group", CV_M_U32, 0},                                                               \
    {"expert_group_used_count", "topk_group", CV_M_U32, 0},                                                       \
    {"expert_gating_func", "score_function|scoring_func|score_func|moe_router_activation|moe_router_activation_func|" \
     "expert_selection_fn=softmax:1,sigmoid:2,sqrtsoftplus:4", CV_M_ENUM, 0},                                     \
    {"attention.key_length", "head_dim", CV_M_U32, 0},                                                            \
    {"attention.value_length", "head_dim", CV_M_U32, 0},                                                          \
    {"general.file_type", "", CV_M_FILE_TYPE, 0}

enum { CV_V_SPM = 1, CV_V_BPE = 2 };
/* CV_F_EOT_107: CodeGemma's end-of-turn token id (107 unless the tokenizer
 * files name one), which the reference writes for every Gemma. */
/* CV_F_PHI3_VOCAB: Phi-3's SentencePiece amendments (added_tokens_decoder
 * taken as written, no "looks special" rule and no space un-escaping, then
 * tokenizer.json's added tokens the same way); and a BPE vocabulary instead
 * when tokenizer_config.json's tokenizer_class is GPT2Tokenizer (Phi-4). */
/* CV_F_LLAMA_VOCAB_SIZES: the reference's LlamaModel.set_vocab: without a
 * tokenizer.model, a byte-fallback BPE tokenizer.json is read as gguf-py's
 * LlamaHfVocab reads it (hfvocab.c) before the BPE reading; then its rules
 * keyed on vocab_size: 32016 (CodeLlama) adds the end-of-turn id of its
 * fill-in-the-middle tokens, 49152 (Granite's small models) add_bos_token
 * false. */
enum {
    CV_F_SPACE_PREFIX_FALSE = 1,
    CV_F_PREFIX_SPACE_FROM_CONFIG = 2,
    CV_F_EOT_107 = 4,
    CV_F_PHI3_VOCAB = 8,
    CV_F_LLAMA_VOCAB_SIZES = 16,
    CV_F_SKIP_PAST_LAYERS = 32, /* "model.layers.N..." with N >= the block count is dropped (DeepSeek V3's
                                   multi-token prediction layer) */
    CV_F_NO_HEAD_DIM = 64,      /* config.json's head_dim is ignored (Granite) */
    CV_F_LLAMA_ROPE_FREQS = 128, /* llama 3's rope_freqs generated from rope_scaling (LlamaModel and its subclasses) */
    CV_F_INTERNLM2_VOCAB = 256,  /* InternLM2's SentencePiece amendments (vocab.c): a NUL piece written as U+1F409,
                                    "[UNUSED" pieces unused, every added token as written, the space prefix
                                    from tokenizer.model, eos replaced by <|im_end|> */
    CV_F_INTERNLM3_VOCAB = 512,  /* InternLM3's: the space prefix from tokenizer_config.json before the special
                                    tokens, eos replaced by a special <|im_end|> */
    CV_F_PERMUTE_QK = 2048,      /* q_proj and k_proj permuted as the reference's LlamaModel does (namemap.c) */
    CV_F_NORM_ADD1 = 4096,       /* Gemma's: 1 added to every tensor whose name ends in "norm" (namemap.c) */
    CV_F_CONV1D = 8192,          /* GPT-2's Conv1D matrices (c_attn, c_proj, c_fc, c_fc2) written transposed */
    CV_F_MASTER = 16384,         /* only llama.cpp master converts it: its default target is master, b4747 refused */
    CV_F_MTP = 32768,            /* master takes --mtp / --no-mtp for it (lgg_convert_options.mtp; refused otherwise) */
    CV_F_QWEN_MTP = 131072,      /* master's _QwenMtpMixin: mtp.* names read as blocks past num_hidden_layers
                                    (lgg__cv_qwen_mtp_name, before the hf_name hook) */
    CV_F_GATE_UP_EXPS = 262144,  /* its tensor list has ffn_gate_up_exps: master's --fuse-gate-up-exps is taken */
    CV_F_JAMBA_NAMES = 524288,   /* Jamba's renames by the config's MoE layers (lgg__cv_jamba_name, before the
                                    hf_name hook) */
    CV_F_MTP_PLAIN_NAME = 1048576, /* master's --mtp keeps the default file name (no "mtp-", the size label of the
                                    tensors written: DeepSeek V3.2's) */
    CV_F_MASTER_TWIN = 65536,    /* target master's row for names an earlier row converts as b4747 does
                                    (lgg__cv_family_master); not found, listed or counted by name itself */
    CV_F_ARCTIC_VOCAB = 1024     /* Arctic's (vocab.c): no added_tokens.json; added_tokens_decoder as written, ids
                                    past vocab_size ignored, special ones CONTROL (UNKNOWN when unk_token) with
                                    score 0, the others USER_DEFINED with -10000 */
};
struct lgg_convert;
struct lgg_convert_options;
struct cv_tensor;
/* What a family does in code (its row's hooks): each hook may be NULL. */
typedef struct cv_hooks {
    /* The reference's __init__: checks config.json and amends it as the
     * reference amends its hparams (before anything is read from it). */
    lgg_status (*init)(struct lgg_convert *c, lgg_error *err);
    /* The reference's modify_tensors renames before the table lookup: 0
     * drops the tensor, 1 keeps it under the name written to out. */
    int (*hf_name)(const char *hf, char *out, size_t cap);
    /* A tensor just added from the checkpoint (its rows may be cut). */
    lgg_status (*tensor)(struct lgg_convert *c, struct cv_tensor *t, lgg_error *err);
    /* Keys written after the table's (set_gguf_parameters' tail). */
    lgg_status (*meta)(struct lgg_convert *c, lgg_error *err);
    /* The vocabulary, instead of the SPM/BPE choice (tc: tokenizer_config.json or NULL). */
    lgg_status (*vocab)(struct lgg_convert *c, json_t *tc, const struct lgg_convert_options *o, lgg_error *err);
    /* Tensors the family computes, added before the others (instead of
     * llama 3's rope_freqs, generated.c). */
    lgg_status (*generated)(struct lgg_convert *c, lgg_error *err);
} cv_hooks;
/* families/mamba.c: torch's float32 exp. */
float lgg__cv_torch_expf(float x);
/* families/mamba.c: torch's squeeze() of a tensor's shape (every dimension of 1 out). */
void lgg__cv_squeeze(struct cv_tensor *t);
/* families/mamba.c: Mamba 2's dimensions as llama.cpp master's Mamba2Model
 * finds them (the hybrids built on it share them), its tensor shapes and its
 * ssm.* keys. */
typedef struct cv_mamba2 {
    uint32_t d_model, expand, d_inner, n_group, head_dim, d_conv, d_state;
} cv_mamba2;
lgg_status lgg__cv_mamba2_dims(struct lgg_convert *c, cv_mamba2 *d, lgg_error *err);
lgg_status lgg__cv_mamba2_tensor(struct lgg_convert *c, struct cv_tensor *t, const cv_mamba2 *d, lgg_error *err);
lgg_status lgg__cv_mamba2_ssm_keys(struct lgg_convert *c, const cv_mamba2 *d, lgg_error *err);
lgg_status lgg__cv_mamba2_vocab(struct lgg_convert *c, json_t *tc, const struct lgg_convert_options *o, lgg_error *err);
int lgg__cv_mamba2_hf_name(const char *hf, char *out, size_t cap);
/* find_hparam(keys) or dflt (keys '|'-separated; dflt < 0: required), as a
 * 32-bit count; the vocabulary padded to a multiple; the state-space
 * families' norm epsilon (layer_norm_epsilon, rms_norm_eps, or 1e-5);
 * whether name is blk.N.WHAT exactly. */
lgg_status lgg__cv_find_count(struct lgg_convert *c, const char *keys, int64_t dflt, uint32_t *out, lgg_error *err);
lgg_status lgg__cv_pad_vocab(struct lgg_convert *c, int64_t pad, lgg_error *err);
lgg_status lgg__cv_mamba_eps(struct lgg_convert *c, float *eps, lgg_error *err);
int lgg__cv_block_name_is(const char *name, const char *what);
/* families/granitemoe.c: GraniteMoE's fused expert and shared matrices split
 * as master splits them (gate rows, then up rows). */
lgg_status lgg__cv_granitemoe_tensor(struct lgg_convert *c, struct cv_tensor *t, lgg_error *err);
/* families/bitnet.c: the same for BitNet; torch 1.13's float32 sum of the |x|
 * of n source values (dtype F32, F16 or BF16) with `lanes` floats per
 * vector (8 or 16) on `threads` threads; a row made ternary by iscale,
 * rounded to `work` (F32 or F16). */
float lgg__cv_torch_abs_sum(const void *src, uint32_t dtype, uint64_t n, int lanes, int threads);
/* The same sum of the values themselves when signed_sum (Sarvam's expert-bias mean, families/bailingmoe.c). */
float lgg__cv_torch_sum(const void *src, uint32_t dtype, uint64_t n, int lanes, int threads, int signed_sum);
void lgg__cv_ternary_row(float *x, uint64_t n, float iscale, uint32_t work);

typedef struct cv_family {
    const char *hf_archs; /* config.json "architectures" names, '|' separated */
    const char *arch;     /* general.architecture */
    const cv_mkey *meta;
    const cv_tmap *tensors;  /* its own tensor names (where it differs from namemap.c's), or NULL */
    const char *kinds;       /* the GGUF names (space-separated, "blk.#.attn_q") it takes from namemap.c */
    unsigned vocab;       /* CV_V_*: tried in order SPM then BPE when both bits are set */
    unsigned flags;       /* CV_F_* */
    const char *experts_key; /* config.json's expert count for CV_X_EXPERT tensors, or NULL */
    const cv_hooks *hooks;   /* what the family does in code (its file under families/), or NULL */
} cv_family;

const cv_family *lgg__cv_family_find(const char *hf_arch);
/* The row target master converts hf_arch with: its CV_F_MASTER_TWIN row, else f. */
const cv_family *lgg__cv_family_master(const cv_family *f, const char *hf_arch);
/* "LlamaForCausalLM, ..." for messages, cut to cap (> 20) with " and N more". */
void lgg__cv_family_list(char *buf, size_t cap);
/* Why a class the reference converts is not converted here yet, or NULL. */
const char *lgg__cv_family_not_yet(const char *hf_arch);

/* ---- naming heuristics (naming.c) ---- */
typedef struct cv_names {
    char *name, *org, *basename, *finetune, *version, *size_label;
} cv_names;
/* gguf-py's reading of a model id ("org/Name-7B-Instruct-v1"). */
void lgg__cv_model_id(const char *id, int64_t total_params, cv_names *out);
char *lgg__cv_id_to_title(const char *s);
void lgg__cv_names_free(cv_names *n);

/* ---- numbers (convert.c) ---- */
uint16_t lgg__cv_f32_to_f16(float f); /* numpy's astype(float16) */

/* safetensors.c: the largest header read; a file's header alone (`head`,
 * 8 + its length bytes, taken over) parsed against the file's size. */
#define ST_MAX_HEADER (256u << 20)
lgg_status lgg__st_parse_head(uint8_t *head, uint64_t file_size, const char *label, lgg_safetensors **out,
                              lgg_error *err);

#endif
