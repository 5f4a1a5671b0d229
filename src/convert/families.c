/* families.c -- what differs per model family, as data: config.json keys
 * to GGUF keys (in the order the reference converter writes them), Hugging
 * Face tensor names to GGUF names, and each tensor's transform.  Adding a
 * family is adding a table here. */
#include "cv.h"

#include <string.h>

static const cv_mkey LLAMA_META[] = {
    BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"rope.scaling", "linear", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};

/* Granite: llama's keys (head_dim ignored) and its multipliers, each
 * written when present and not 0. */
static const cv_mkey GRANITE_META[] = {
    BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"rope.scaling", "linear", CV_M_ROPE_SCALING, 0},
    {"attention.scale", "attention_multiplier", CV_M_F32, CV_M_NONZERO},
    {"embedding_scale", "embedding_multiplier", CV_M_F32, CV_M_NONZERO},
    {"residual_scale", "residual_multiplier", CV_M_F32, CV_M_NONZERO},
    {"logit_scale", "logits_scaling", CV_M_F32, CV_M_NONZERO},
    {NULL, NULL, 0, 0},
};

static const cv_mkey QWEN2_META[] = {BASE_PARAMS, {"rope.scaling", "yarn", CV_M_ROPE_SCALING, 0}, {NULL, NULL, 0, 0}};

static const cv_mkey QWEN2MOE_META[] = {
    BASE_PARAMS,
    {"expert_count", "num_experts", CV_M_U32, 0},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_shared_feed_forward_length", "shared_expert_intermediate_size", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* Qwen3 and Qwen3-MoE (llama.cpp master's Qwen3Model, Qwen3MoeModel):
 * master's base parameters (OLMo 3's and Seed-OSS's too); the MoE's expert
 * widths after them. */
static const cv_mkey QWEN3_META[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};

static const cv_mkey QWEN3MOE_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_shared_feed_forward_length", "shared_expert_intermediate_size", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* SmolLM3 (master's LlamaModel with its own architecture name): master's
 * base parameters, then llama's vocab_size and rope dimension (Mistral 3's
 * Arcee's and Apertus's too, before their hooks' keys). */
/* Maincoder (master's MaincoderModel): master's base parameters, then the
 * rope dimension from head_dim when there is one. */
static const cv_mkey MAINCODER_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "head_dim", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* PLM (master's PLMModel): master's base parameters, then its latent
 * attention's. */
static const cv_mkey PLM_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.kv_lora_rank", "kv_lora_rank", CV_M_U32, CV_M_REQUIRED},
    {"attention.key_length", "qk_nope_head_dim+qk_rope_head_dim", CV_M_SUM, CV_M_REQUIRED},
    {"attention.value_length", "v_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "qk_rope_head_dim", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* openPangu-Embedded (master's PanguEmbeddedModel): master's base
 * parameters, vocab_size, the rope dimension, and without head_dim the key
 * and value lengths (families/pangu.c's lgg.head_dim). */
static const cv_mkey PANGU_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"attention.key_length", "lgg.head_dim", CV_M_U32, 0},
    {"attention.value_length", "lgg.head_dim", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

static const cv_mkey SMOLLM3_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* GLM-4.5/4.6 (master's Glm4MoeModel): master's base parameters (block_count
 * counts the next-token-prediction layers, lgg.rope_dim the partial rotary
 * dimension: families/glm4.c's init), then its expert keys in master's
 * order, the gating function always sigmoid.  GLM-4 0414 (Glm4Model): the
 * base parameters and the rope dimension. */
static const cv_mkey GLM4MOE_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "lgg.rope_dim", CV_M_U32, CV_M_REQUIRED},
    {"expert_count", "n_routed_experts", CV_M_U32, 0},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_shared_count", "n_shared_experts", CV_M_U32, 0},
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, 0},
    {"expert_gating_func", "2", CV_M_U32_CONST, 0},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, 0},
    {"expert_weights_norm", "norm_topk_prob", CV_M_BOOL, 0},
    {"nextn_predict_layers", "num_nextn_predict_layers", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* GLM-4.7-Flash (master's Glm4MoeLiteModel over its DeepseekV2Model):
 * master's base parameters (head_count_kv 1: MLA as MQA), then DeepSeek V2's
 * in master's order (the lgg.* values from families/glm4.c's init: master's
 * defaults and its --no-mtp), the next-token-prediction count last. */
#define MLA_PARAMS \
    MASTER_BASE_PARAMS, \
    {"leading_dense_block_count", "lgg.leading", CV_M_U32, CV_M_REQUIRED}, \
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED}, \
    {"attention.q_lora_rank", "q_lora_rank", CV_M_U32, 0}, \
    {"attention.kv_lora_rank", "kv_lora_rank", CV_M_U32, CV_M_REQUIRED}, \
    {"attention.key_length", "kv_lora_rank+qk_rope_head_dim", CV_M_SUM, CV_M_REQUIRED}, \
    {"attention.value_length", "kv_lora_rank", CV_M_U32, CV_M_REQUIRED}, \
    {"attention.key_length_mla", "qk_nope_head_dim+qk_rope_head_dim", CV_M_SUM, CV_M_REQUIRED}, \
    {"attention.value_length_mla", "v_head_dim", CV_M_U32, CV_M_REQUIRED}, \
    {"expert_feed_forward_length", "moe_intermediate_size|intermediate_size", CV_M_U32, CV_M_REQUIRED}, \
    {"expert_count", "n_routed_experts", CV_M_U32, 0}, \
    {"expert_shared_count", "n_shared_experts", CV_M_U32, CV_M_ZERO_IF_ABSENT}, \
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, 0}, \
    {"expert_weights_norm", "lgg.norm_topk", CV_M_BOOL, 0}, \
    {"rope.dimension_count", "qk_rope_head_dim", CV_M_U32, CV_M_REQUIRED}, \
    {"rope.scaling.yarn_log_multiplier", "lgg.yarn_log_mul", CV_M_F32, 0}, \
    {"nextn_predict_layers", "lgg.nextn", CV_M_U32, 0}
static const cv_mkey GLM4MOELITE_META[] = {MLA_PARAMS, {NULL, NULL, 0, 0}};
/* DeepSeek-OCR (master's DeepseekV2Model as deepseek2-ocr): DeepSeek V2's without the latent attention's keys,
   with the sliding window */
static const cv_mkey DEEPSEEK2OCR_META[] = {
    MASTER_BASE_PARAMS,
    {"leading_dense_block_count", "lgg.leading", CV_M_U32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.q_lora_rank", "q_lora_rank", CV_M_U32, 0},
    {"expert_feed_forward_length", "moe_intermediate_size|intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_count", "n_routed_experts", CV_M_U32, 0},
    {"expert_shared_count", "n_shared_experts", CV_M_U32, CV_M_ZERO_IF_ABSENT},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, 0},
    {"expert_weights_norm", "lgg.norm_topk", CV_M_BOOL, 0},
    {"rope.dimension_count", "qk_rope_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"attention.sliding_window", "lgg.sliding_window", CV_M_U32, 0},
    {"rope.scaling.yarn_log_multiplier", "lgg.yarn_log_mul", CV_M_F32, 0},
    {NULL, NULL, 0, 0},
};
/* DeepSeek V3.2 (master's DeepseekV32Model): DeepSeek V2's, then its sparse attention's indexer */
/* The sparse attention's indexer keys (DeepSeek V3.2's, GLM-DSA's). */
#define DSA_INDEXER_KEYS                                                             \
    {"attention.indexer.head_count", "index_n_heads", CV_M_U32, CV_M_REQUIRED},      \
    {"attention.indexer.key_length", "index_head_dim", CV_M_U32, CV_M_REQUIRED},     \
    {"attention.indexer.top_k", "index_topk", CV_M_U32, CV_M_REQUIRED}
static const cv_mkey DEEPSEEK32_META[] = {MLA_PARAMS, DSA_INDEXER_KEYS, {NULL, NULL, 0, 0}};
/* GLM-DSA (master's GlmMoeDsaModel): DeepSeek V3.2's, the rope dimension over it in place (families/deepseek.c's
 * lgg.dsa_rope), then the indexer's keys and which layers' indexers are "full". */
static const cv_mkey GLMDSA_META[] = {
    MLA_PARAMS,
    {"rope.dimension_count", "lgg.dsa_rope", CV_M_U32, CV_M_REQUIRED},
    DSA_INDEXER_KEYS,
    {"attention.indexer.types", "indexer_types=full", CV_M_SWA_LAYERS, 0},
    {NULL, NULL, 0, 0},
};

/* Llama 4 (master's Llama4Model): llama's, then the MoE interleave step and
 * the experts' width (families/llama4.c's init keeps intermediate_size as
 * intermediate_size_moe and puts intermediate_size_mlp in its place). */
static const cv_mkey LLAMA4_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"interleave_moe_layer_step", "interleave_moe_layer_step", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "intermediate_size_moe", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

static const cv_mkey GLM4_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "lgg.rope_dim", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* GLM-OCR (master's GlmOCRModel): GLM-4's, then its next-token-prediction layers. */
static const cv_mkey GLMOCR_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "lgg.rope_dim", CV_M_U32, CV_M_REQUIRED},
    {"nextn_predict_layers", "num_nextn_predict_layers", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* Qwen3-Next (master's Qwen3NextModel): Qwen3-MoE's keys, the MTP blocks
 * (lgg.nextn: families/qwen3next.c), the linear attention's sizes, the
 * full-attention interval and the partial rotary dimension. */
static const cv_mkey QWEN3NEXT_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_shared_feed_forward_length", "shared_expert_intermediate_size", CV_M_U32, 0},
    {"nextn_predict_layers", "lgg.nextn", CV_M_U32, 0},
    {"ssm.conv_kernel", "linear_conv_kernel_dim", CV_M_U32, CV_M_REQUIRED},
    {"ssm.state_size", "linear_key_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"ssm.group_count", "linear_num_key_heads", CV_M_U32, CV_M_REQUIRED},
    {"ssm.time_step_rank", "linear_num_value_heads", CV_M_U32, CV_M_REQUIRED},
    {"ssm.inner_size", "lgg.inner", CV_M_U32, CV_M_REQUIRED},
    {"full_attention_interval", "lgg.interval", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "lgg.rope_dim", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* Gemma 3 and EmbeddingGemma (master's Gemma3Model): master's base
 * parameters, then Gemma 3's own written over them (families/gemma3.c). */
static const cv_mkey GEMMA3_META[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};

/* gpt-oss (master's GptOssModel): master's base parameters, then the
 * sliding window and the experts' width. */
static const cv_mkey GPTOSS_META[] = {
    MASTER_BASE_PARAMS,
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* ERNIE 4.5 (master's Ernie4_5Model): master's base parameters; ERNIE 4.5
 * MoE's expert keys after them in master's order (the shared experts'
 * width from families/ernie.c's init). */
static const cv_mkey ERNIE_META[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};

static const cv_mkey ERNIEMOE_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_count", "moe_num_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_used_count", "moe_k", CV_M_U32, CV_M_REQUIRED},
    {"interleave_moe_layer_step", "moe_layer_interval", CV_M_U32, CV_M_REQUIRED},
    {"leading_dense_block_count", "moe_layer_start_index", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_shared_count", "moe_num_shared_experts", CV_M_U32, 0},
    {"expert_shared_feed_forward_length", "lgg.shexp_ff", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* EXAONE 4 (master's Exaone4Model): master's base parameters, vocab_size, the
 * sliding window (its per-layer pattern from families/exaone.c's meta). */
static const cv_mkey EXAONE4_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.sliding_window", "sliding_window", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* dots.llm1 (master's Dots1Model over its Qwen2MoeModel): master's base
 * parameters, Qwen2-MoE's expert widths, then its own. */
static const cv_mkey DOTS1_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_shared_feed_forward_length", "shared_expert_intermediate_size", CV_M_U32, 0},
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_count", "n_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, CV_M_REQUIRED},
    {"expert_weights_norm", "norm_topk_prob", CV_M_BOOL, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* MiniMax-M2 (master's MiniMaxM2Model): master's base parameters, the
 * experts' width (intermediate_size) and the rotary dimension. */
static const cv_mkey MINIMAXM2_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "rotary_dim", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* MiniMax-M3 (master's MiniMaxM3Model over its MiniMaxM2Model): M2's keys, then its shared experts, routed
 * scale and norm, the indexer's (from sparse_attention_config) and the leading dense blocks (families/minimax.c's
 * lgg.* keys). */
static const cv_mkey MINIMAXM3_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "rotary_dim", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_count", "n_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, CV_M_REQUIRED},
    {"expert_weights_norm", "lgg.true", CV_M_BOOL, CV_M_REQUIRED},
    {"attention.indexer.head_count", "lgg.index_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.indexer.key_length", "lgg.index_dim", CV_M_U32, CV_M_REQUIRED},
    {"attention.indexer.top_k", "lgg.index_top_k", CV_M_U32, CV_M_REQUIRED},
    {"attention.indexer.block_size", "lgg.index_block", CV_M_U32, CV_M_REQUIRED},
    {"attention.indexer.local_blocks", "lgg.index_local", CV_M_U32, CV_M_REQUIRED},
    {"leading_dense_block_count", "lgg.dense_blocks", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* Ling 2.0 (master's BailingMoeV2Model): master's base parameters (the
 * next-token-prediction blocks in block_count), then its own in master's
 * order (the rope dimension and shared width from families/bailingmoe.c). */
static const cv_mkey BAILINGMOE2_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "lgg.rope_dim", CV_M_U32, CV_M_REQUIRED},
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_feed_forward_length", "lgg.shexp_ff", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, CV_M_REQUIRED},
    {"expert_shared_count", "num_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_norm", "norm_topk_prob", CV_M_BOOL, CV_M_REQUIRED},
    {"nextn_predict_layers", "num_nextn_predict_layers", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* Ling 3.0 (master's BailingMoeV3Model): master's base parameters (the
 * next-token-prediction blocks in block_count, one key/value head, as master
 * sets it, written over by families/bailingmoe.c's per-layer list with the
 * rest of its keys). */
static const cv_mkey BAILINGMOE3_META[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};

/* SmallThinker (master's SmallThinkerModel): master's base parameters, then
 * its MoE keys (the feed-forward length is the experts'), the gating
 * function and sliding window from families/smallthinker.c. */
static const cv_mkey SMALLTHINKER_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_count", "moe_num_primary_experts", CV_M_U32, 0},
    {"expert_used_count", "moe_num_active_primary_experts", CV_M_U32, 0},
    {"expert_feed_forward_length", "moe_ffn_hidden_size", CV_M_U32, 0},
    {"feed_forward_length", "moe_ffn_hidden_size", CV_M_U32, 0},
    {"expert_gating_func", "lgg.gating", CV_M_U32, CV_M_REQUIRED},
    {"attention.sliding_window", "lgg.swa", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* AFMoE (master's AfmoeModel over its LlamaModel): SmolLM3's keys, then its
 * MoE keys, each when present, in master's order. */
static const cv_mkey AFMOE_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"expert_shared_count", "num_shared_experts", CV_M_U32, 0},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"leading_dense_block_count", "num_dense_layers", CV_M_U32, 0},
    {"expert_weights_norm", "route_norm", CV_M_BOOL, 0},
    {"expert_weights_scale", "route_scale", CV_M_F32, 0},
    {"attention.sliding_window", "sliding_window", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* Bailing MoE (master's BailingMoeModel): master's base parameters, then
 * its own in master's order (the experts' weights scale always 1). */
static const cv_mkey BAILINGMOE_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "1.0", CV_M_F32_CONST, 0},
    {"expert_shared_count", "num_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_norm", "norm_topk_prob", CV_M_BOOL, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* Jamba (master's JambaModel, no base parameters): these counts, then
 * families/jamba.c's keys. */
static const cv_mkey JAMBA_META[] = {
    {"block_count", "n_layers|num_hidden_layers|n_layer|num_layers", CV_M_U32, CV_M_REQUIRED},
    {"context_length", "max_position_embeddings|n_ctx", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size|mamba_d_model", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* HY V3 (master's HYV3Model): master's base parameters, then the experts'
 * (families/hunyuan.c's lgg.* values), sigmoid gating, the MTP count. */
static const cv_mkey HYV3_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_feed_forward_length", "lgg.shexp_ff", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_norm", "lgg.route_norm", CV_M_BOOL, CV_M_REQUIRED},
    {"expert_weights_scale", "lgg.route_scale", CV_M_F32, CV_M_REQUIRED},
    {"expert_gating_func", "2", CV_M_U32_CONST, 0},
    {"nextn_predict_layers", "lgg.nextn", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* RND1 (master's RND1Model over its Qwen2MoeModel): Qwen3-MoE's keys, then
 * bidirectional attention and the mask token. */
static const cv_mkey RND1_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_shared_feed_forward_length", "shared_expert_intermediate_size", CV_M_U32, 0},
    {"attention.causal", "", CV_M_FALSE, 0},
    {"tokenizer.ggml.mask_token_id", "mask_token_id", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* Jais 2 (master's Jais2Model): master's base parameters and the rope dimension. */
static const cv_mkey JAIS2_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* GroveMoE (master's GroveMoeModel): master's base parameters, the experts'
 * width, then the chunk experts' (families/grovemoe.c) and the two values
 * master hard-codes. */
static const cv_mkey GROVEMOE_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, 0},
    {"expert_chunk_feed_forward_length", "lgg.chunk_ff", CV_M_U32, CV_M_REQUIRED},
    {"experts_per_group", "2", CV_M_U32_CONST, 0},
    {"expert_group_scale", "0.05", CV_M_F32_CONST, 0},
    {NULL, NULL, 0, 0},
};

/* Dream (master's DreamModel): master's base parameters, the pooling type,
 * bidirectional attention and the mask token. */
static const cv_mkey DREAM_META[] = {
    MASTER_BASE_PARAMS,
    {"pooling_type", "", CV_M_POOLING, 0},
    {"attention.causal", "", CV_M_FALSE, 0},
    {"tokenizer.ggml.mask_token_id", "mask_token_id", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* LLaDA (master's LLaDAModel): master's base parameters, the pooling type
 * and vocab_size; the rest from families/llada.c. */
static const cv_mkey LLADA_META[] = {
    MASTER_BASE_PARAMS,
    {"pooling_type", "", CV_M_POOLING, 0},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* LLaDA-MoE (master's LLaDAMoEModel): master's base parameters, the
 * experts' width, master's hard-coded mask token, bidirectional attention,
 * logits not shifted. */
static const cv_mkey LLADA_MOE_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "expert_intermediate_size", CV_M_U32, 0},
    {"tokenizer.ggml.mask_token_id", "156895", CV_M_U32_CONST, 0},
    {"attention.causal", "", CV_M_FALSE, 0},
    {"diffusion.shift_logits", "", CV_M_FALSE, 0},
    {NULL, NULL, 0, 0},
};

/* Gemma's parameters; Gemma 2 appends its own after general.file_type. */
#define GEMMA_PARAMS                                                                              \
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},                      \
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},                                \
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},                               \
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},                       \
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},                    \
    {"attention.head_count_kv", "num_key_value_heads|num_attention_heads", CV_M_U32, CV_M_REQUIRED}, \
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},               \
    {"attention.key_length", "head_dim", CV_M_U32, CV_M_REQUIRED},                               \
    {"attention.value_length", "head_dim", CV_M_U32, CV_M_REQUIRED},                             \
    {"general.file_type", "", CV_M_FILE_TYPE, 0}

static const cv_mkey GEMMA_META[] = {GEMMA_PARAMS, {NULL, NULL, 0, 0}};

static const cv_mkey GEMMA2_META[] = {
    GEMMA_PARAMS,
    {"attn_logit_softcapping", "attn_logit_softcapping", CV_M_F32, CV_M_REQUIRED},
    {"final_logit_softcapping", "final_logit_softcapping", CV_M_F32, CV_M_REQUIRED},
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* Phi-3 writes its own parameters, all required but the sliding window. */
static const cv_mkey PHI3_META[] = {
    {"context_length", "n_positions|max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"rope.scaling.original_context_length", "original_max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size|n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers|n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads|n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads|n_head_kv", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"rope.dimension_count", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {"rope.freq_base", "rope_theta", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_ZERO_IF_ABSENT},
    {NULL, NULL, 0, 0},
};

/* PhiMoE: Phi-3's parameters, then the expert counts. */
static const cv_mkey PHIMOE_META[] = {
    {"context_length", "n_positions|max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"rope.scaling.original_context_length", "original_max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size|n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers|n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads|n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads|n_head_kv", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"rope.dimension_count", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {"rope.freq_base", "rope_theta", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_ZERO_IF_ABSENT},
    {"expert_used_count", "num_experts_per_tok", CV_M_U32, CV_M_REQUIRED},
    {"expert_count", "num_local_experts", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* DeepSeek (V1): llama's attention, leading dense blocks, routed and
 * shared experts. */
static const cv_mkey DEEPSEEK_META[] = {
    BASE_PARAMS,
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"rope.scaling.type", "none", CV_M_STR, 0},
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "1.0", CV_M_F32_CONST, 0},
    {"expert_count", "n_routed_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_count", "n_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* DeepSeek V2 and V3: latent attention (an optional low-rank Q), the
 * router's scoring function, yarn with its log multiplier. */
static const cv_mkey DEEPSEEK2_META[] = {
    BASE_PARAMS,
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.q_lora_rank", "q_lora_rank", CV_M_U32, 0},
    {"attention.kv_lora_rank", "kv_lora_rank", CV_M_U32, CV_M_REQUIRED},
    {"attention.key_length", "qk_nope_head_dim+qk_rope_head_dim", CV_M_SUM, CV_M_REQUIRED},
    {"attention.value_length", "v_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_count", "n_routed_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_count", "n_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "routed_scaling_factor", CV_M_F32, CV_M_REQUIRED},
    {"expert_weights_norm", "norm_topk_prob", CV_M_BOOL, CV_M_REQUIRED},
    {"expert_gating_func", "scoring_func=softmax:1,sigmoid:2", CV_M_ENUM, CV_M_REQUIRED},
    {"rope.dimension_count", "qk_rope_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"rope.scaling", "yarn+log", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};

/* Command-R: the context from model_max_length (the trained one). */
static const cv_mkey COMMAND_R_META[] = {
    BASE_PARAMS_CTX("model_max_length|max_position_embeddings", CV_M_REQUIRED),
    {"logit_scale", "logit_scale", CV_M_F32, CV_M_REQUIRED},
    {"rope.scaling.type", "none", CV_M_STR, 0},
    {NULL, NULL, 0, 0},
};

static const cv_mkey COHERE2_META[] = {
    BASE_PARAMS,
    {"logit_scale", "logit_scale", CV_M_F32, CV_M_REQUIRED},
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "rotary_pct", CV_M_ROPE_PCT, CV_M_REQUIRED},
    {"rope.scaling.type", "none", CV_M_STR, 0},
    {NULL, NULL, 0, 0},
};

/* Cohere2 MoE (master's Cohere2MoeModel): master's base parameters, then
 * its own in master's order (families/cohere2moe.c's lgg.* values). */
static const cv_mkey COHERE2MOE_META[] = {
    MASTER_BASE_PARAMS,
    {"logit_scale", "logit_scale", CV_M_F32, CV_M_REQUIRED},
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_REQUIRED},
    {"attention.sliding_window_pattern", "layer_types", CV_M_SWA_LAYERS, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"leading_dense_block_count", "lgg.leading", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_norm", "lgg.topk_norm", CV_M_BOOL, CV_M_REQUIRED},
    {"expert_shared_count", "lgg.shexp_n", CV_M_U32, 0},
    {"expert_shared_feed_forward_length", "lgg.shexp_ff", CV_M_U32, 0},
    {"nextn_predict_layers", "num_nextn_predict_layers", CV_M_U32, CV_M_NONZERO},
    {"rope.dimension_count", "head_dim", CV_M_U32, CV_M_REQUIRED},
    {"rope.scaling.type", "none", CV_M_STR, 0},
    {NULL, NULL, 0, 0},
};

static const cv_mkey BASE_META[] = {BASE_PARAMS, {NULL, NULL, 0, 0}};
/* Laguna (master's LagunaModel): the base's and vocab_size; families/laguna.c writes the rest */
static const cv_mkey LAGUNA_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};
/* master's TextModel.set_gguf_parameters alone (ruGPT-3 XL) */
static const cv_mkey MASTER_BASE_META[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};
/* Talkie (master's TalkieModel): the base's, then the rms epsilon master hard-codes, float32's
 * torch.finfo eps (2^-23), over config.json's (its talkie.logit_scale: families/talkie.c) */
static const cv_mkey TALKIE_META[] = {
    MASTER_BASE_PARAMS,
    {"attention.layer_norm_rms_epsilon", "1.1920928955078125e-07", CV_M_F32_CONST, 0},
    {NULL, NULL, 0, 0},
};

/* Xverse: Orion's context keys, llama's rope dimensions and scaling. */
static const cv_mkey XVERSE_META[] = {
    {"tensor_data_layout", "Meta AI original pth", CV_M_STR, 0},
    {"context_length", "max_sequence_length|max_position_embeddings|model_max_length", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads|num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"rope.scaling", "linear", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};

/* Jais: the GPT-2 keys it writes (no head_count_kv). */
static const cv_mkey JAIS_META[] = {
    {"block_count", "n_layer", CV_M_U32, CV_M_REQUIRED},
    {"context_length", "n_positions", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "n_inner", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};
/* StableLM 2 12B's q/k layer norms are one vector per head, stacked per block. */
static const cv_tmap STABLELM_TENSORS[] = {
    {"model.layers.#.self_attn.q_layernorm.norms.*", "blk.#.attn_q_norm", CV_X_HEAD_NORM | CV_X_SLOT(0)},
    {"model.layers.#.self_attn.k_layernorm.norms.*", "blk.#.attn_k_norm", CV_X_HEAD_NORM | CV_X_SLOT(1)},
    {NULL, NULL, 0},
};

/* OpenELM: every key written by families/openelm.c (per-layer arrays). */
static const cv_mkey OPENELM_META[] = {{NULL, NULL, 0, 0}};

/* Refact: the feed-forward width and the single kv head computed by
 * families/openelm.c's init (stored as lgg.ff_dim and lgg.one). */
static const cv_mkey REFACT_META[] = {
    {"context_length", "n_positions", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "lgg.ff_dim", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "lgg.one", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};

/* CodeShell: 4 * n_embd as the feed-forward length, the rope values the
 * reference hard-codes. */
static const cv_mkey CODESHELL_META[] = {
    {"context_length", "n_positions", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "n_embd*4", CV_M_SUM, CV_M_REQUIRED},
    {"block_count", "n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_query_groups", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"rope.freq_base", "10000.0", CV_M_F32_CONST, 0},
    {"rope.scaling.type", "linear", CV_M_STR, 0},
    {"rope.scaling.factor", "1.0", CV_M_F32_CONST, 0},
    {NULL, NULL, 0, 0},
};

/* Orion writes its own keys: the file type first, the tensor layout the
 * reference hard-codes, the context from the first of three keys, and
 * rms_norm_eps as the layer-norm epsilon (its norms are LayerNorms). */
static const cv_mkey ORION_META[] = {
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"tensor_data_layout", "Meta AI original pth", CV_M_STR, 0},
    {"context_length", "max_sequence_length|max_position_embeddings|model_max_length", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads|num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* Phi-2: the feed-forward length is 4 * hidden_size whatever config.json
 * says; add_bos_token false among the parameters. */
static const cv_mkey PHI2_META[] = {
    {"context_length", "n_positions|max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size|n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "hidden_size|n_embd*4", CV_M_SUM, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers|n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads|n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_attention_heads|n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "layer_norm_epsilon|layer_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"rope.dimension_count", "partial_rotary_factor", CV_M_ROPE_PCT_EMBD, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"tokenizer.ggml.add_bos_token", "", CV_M_FALSE, 0},
    {NULL, NULL, 0, 0},
};

/* StableLM writes its own keys. */
static const cv_mkey STABLELM_META[] = {
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "partial_rotary_factor|rope_pct", CV_M_ROPE_PCT, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads", CV_M_U32, CV_M_REQUIRED},
    {"use_parallel_residual", "use_parallel_residual", CV_M_BOOL, CV_M_TRUE_IF_ABSENT},
    {"attention.layer_norm_epsilon", "layer_norm_eps|norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};

static const cv_mkey OLMO_META[] = {
    BASE_PARAMS,
    {"attention.layer_norm_epsilon", "1e-5", CV_M_F32_CONST, CV_M_UNLESS_WRITTEN},
    {"attention.clamp_kqv", "clip_qkv", CV_M_F32, 0},
    {NULL, NULL, 0, 0},
};

static const cv_mkey OLMOE_META[] = {
    BASE_PARAMS,
    {"attention.layer_norm_rms_epsilon", "1e-5", CV_M_F32_CONST, CV_M_UNLESS_WRITTEN},
    {"expert_count", "num_experts", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* Nemotron: the common keys, then its own (families/nemotron.c adds the
 * rope scaling type); the epsilon is skipped where the common keys wrote
 * it (the reference writes it twice and fails). */
static const cv_mkey NEMOTRON_META[] = {
    BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "layer_norm_eps|layer_norm_epsilon|norm_epsilon|norm_eps", CV_M_F32, CV_M_UNLESS_WRITTEN},
    {"rope.dimension_count", "partial_rotary_factor|rope_pct|rope_percent", CV_M_ROPE_PCT_EMBD, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* MiniCPM 3 writes its own keys, the file type first. */
static const cv_mkey MINICPM3_META[] = {
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.q_lora_rank", "q_lora_rank", CV_M_U32, 0},
    {"attention.kv_lora_rank", "kv_lora_rank", CV_M_U32, CV_M_REQUIRED},
    {"attention.key_length", "qk_nope_head_dim+qk_rope_head_dim", CV_M_SUM, CV_M_REQUIRED},
    {"rope.dimension_count", "qk_rope_head_dim", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* T5 writes its own keys; T5Encoder the same but the decoder's start id
 * (families/t5.c makes n_positions 512 when absent). */
#define T5_PARAMS_HEAD                                                                           \
    {"context_length", "n_positions", CV_M_U32, CV_M_REQUIRED},                                  \
    {"embedding_length", "d_model", CV_M_U32, CV_M_REQUIRED},                                    \
    {"feed_forward_length", "d_ff", CV_M_U32, CV_M_REQUIRED},                                    \
    {"block_count", "num_layers", CV_M_U32, CV_M_REQUIRED}
#define T5_PARAMS_TAIL                                                                           \
    {"attention.head_count", "num_heads", CV_M_U32, CV_M_REQUIRED},                              \
    {"attention.key_length", "d_kv", CV_M_U32, CV_M_REQUIRED},                                   \
    {"attention.value_length", "d_kv", CV_M_U32, CV_M_REQUIRED},                                 \
    {"attention.layer_norm_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},             \
    {"attention.relative_buckets_count", "relative_attention_num_buckets", CV_M_U32, CV_M_REQUIRED}, \
    {"attention.layer_norm_rms_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED}
#define T5_PARAMS T5_PARAMS_HEAD, T5_PARAMS_TAIL

static const cv_mkey T5_META[] = {
    T5_PARAMS,
    {"decoder_start_token_id", "decoder_start_token_id", CV_M_U32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};

/* Master's T5 (UMT5Model, and the b4747 names under target master): the
 * decoder's block count after the encoder's. */
static const cv_mkey UMT5_META[] = {
    T5_PARAMS_HEAD,
    {"decoder_block_count", "num_decoder_layers", CV_M_U32, 0},
    T5_PARAMS_TAIL,
    {"decoder_start_token_id", "decoder_start_token_id", CV_M_U32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};
static const cv_mkey T5ENCODER_META[] = {T5_PARAMS, {"general.file_type", "", CV_M_FILE_TYPE, 0}, {NULL, NULL, 0, 0}};

/* ChatGLM / GLM-4: its own keys with fallbacks (families/chatglm.c fills in
 * the feed-forward width and the epsilon, then adds the rope keys). */
static const cv_mkey CHATGLM_META[] = {
    {"context_length", "seq_length|hidden_size|n_embed", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size|n_embed", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "ffn_hidden_size|intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_layers|num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "n_head|num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "multi_query_group_num|num_key_value_heads|n_head|num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "layernorm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};




/* PLaMo 2 (master's Plamo2Model, no base parameters): every key is
 * families/plamo2.c's. */
static const cv_mkey PLAMO2_META[] = {{NULL, NULL, 0, 0}};
/* PLaMo 3 (master's Plamo3Model): master's base parameters and vocab_size; its sliding window is
 * families/plamo2.c's. */
static const cv_mkey PLAMO3_META[] = {MASTER_BASE_PARAMS, {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED}, {NULL, NULL, 0, 0}};

/* PLaMo: its own keys only, with the context (4096) and the key/value head
 * count (5, PLaMo-13B's; config.json's is not it) hard-coded as the
 * reference writes them; the q and output shuffles are in families/plamo.c. */
static const cv_mkey PLAMO_META[] = {
    {"context_length", "4096", CV_M_U32_CONST, 0},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "5", CV_M_U32_CONST, 0},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};


/* GPT-2: its own keys, the feed-forward length 4 * n_embd. */
static const cv_mkey GPT2_META[] = {
    {"block_count", "n_layer", CV_M_U32, CV_M_REQUIRED},
    {"context_length", "n_ctx", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "n_embd*4", CV_M_SUM, CV_M_REQUIRED},
    {"attention.head_count", "n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};

/* StarCoder (GPTBigCode): multi-query attention (one key/value head, a
 * constant), the feed-forward length 4 * n_embd; CodeShell's names. */
static const cv_mkey STARCODER_META[] = {
    {"context_length", "n_positions", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "n_embd", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "n_embd*4", CV_M_SUM, CV_M_REQUIRED},
    {"block_count", "n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "1", CV_M_U32_CONST, 0},
    {"attention.layer_norm_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};

/* GPT-NeoX: partial rotary, parallel residual (true when absent), and no
 * general.file_type (the reference does not write it). */
static const cv_mkey GPTNEOX_META[] = {
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "rotary_pct", CV_M_ROPE_PCT, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"use_parallel_residual", "use_parallel_residual", CV_M_BOOL, CV_M_TRUE_IF_ABSENT},
    {"attention.layer_norm_epsilon", "layer_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* Falcon: the context fixed at 2048 (config.json has none), the QKV
 * layout families/fused_qkv.c makes, the feed-forward length 4 * hidden_size; the
 * key/value head count defaults to 1 (families/fused_qkv.c). */
static const cv_mkey FALCON_META[] = {
    {"context_length", "2048", CV_M_U32_CONST, 0},
    {"tensor_data_layout", "jploski", CV_M_STR, 0},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "hidden_size*4", CV_M_SUM, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers|n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads|n_head", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_kv_heads|n_head_kv", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};

/* Exaone: its own order; the norms' epsilon from layer_norm_epsilon,
 * written as the RMS one (families/exaone.c fills the defaults). */
static const cv_mkey EXAONE_META[] = {
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads|num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_layers", CV_M_U32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"rope.freq_base", "rope_theta", CV_M_F32, 0},
    {"rope.dimension_count", "partial_rotary_factor|rope_pct", CV_M_ROPE_PCT, CV_M_REQUIRED},
    {"rope.scaling", "linear", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};

/* InternLM2: its own order, every key required but the rope scaling. */
static const cv_mkey INTERNLM2_META[] = {
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.freq_base", "rope_theta", CV_M_F32, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads", CV_M_U32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"rope.scaling", "linear", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};

/* InternLM3: the base keys, the vocabulary size, the rope dimensions. */
static const cv_mkey INTERNLM3_META[] = {
    BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"rope.scaling", "linear+rope_type", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};


/* Target master's keys for b4747's families where master's differ (the
 * CV_F_MASTER_TWIN rows): master's base parameters, then what the family's
 * class adds (an epsilon written again overwrites the base's in its place). */
static const cv_mkey OLMOE_MASTER_META[] = {
    MASTER_BASE_PARAMS,
    {"attention.layer_norm_rms_epsilon", "1e-5", CV_M_F32_CONST, 0},
    {NULL, NULL, 0, 0},
};

static const cv_mkey DEEPSEEK_MASTER_META[] = {
    MASTER_BASE_PARAMS,
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED},
    {"rope.scaling.type", "none", CV_M_STR, 0},
    {"leading_dense_block_count", "first_k_dense_replace", CV_M_U32, CV_M_REQUIRED},
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_scale", "1.0", CV_M_F32_CONST, 0},
    {"expert_count", "n_routed_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_count", "n_shared_experts", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

static const cv_mkey NEMOTRON_MASTER_META[] = {
    MASTER_BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_epsilon", "layer_norm_eps|layer_norm_epsilon|norm_epsilon|norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"rope.dimension_count", "partial_rotary_factor|rope_pct|rope_percent", CV_M_ROPE_PCT_EMBD, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

static const cv_mkey XVERSE_MASTER_META[] = {
    MASTER_BASE_PARAMS,
    {"tensor_data_layout", "Meta AI original pth", CV_M_STR, 0},
    {"rope.dimension_count", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* BERT's names after families/bert.c's renames ("bert." dropped, .gamma/.beta made
 * .weight/.bias); its keys are the common ones, families/bert.c adds the rest. */
static const cv_mkey BERT_META[] = {BASE_PARAMS, {NULL, NULL, 0, 0}};
/* The BERT names only master converts: master's base parameters; DistilBERT's
 * epsilon (which its config.json does not hold) first. */
static const cv_mkey BERT_MASTER_META[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};
static const cv_mkey DISTILBERT_META[] = {
    {"attention.layer_norm_epsilon", "1e-12", CV_M_F32_CONST, 0}, MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};


/* Mamba and RWKV-6: every key is written by families/mamba.c / families/rwkv6.c; A_log, the output head and the
 * vocabulary are its too.  Both naming schemes the reference maps. */
static const cv_mkey MAMBA_META[] = {{NULL, NULL, 0, 0}};

/* Qwen (v1): its own keys, all required (rope base rotary_emb_base, the
 * rope dimension hidden_size / num_attention_heads); families/qwen.c reads its
 * vocabulary. */
static const cv_mkey QWEN_META[] = {
    {"context_length", "max_position_embeddings", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.freq_base", "rotary_emb_base", CV_M_F32, CV_M_REQUIRED},
    {"rope.dimension_count", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "layer_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {NULL, NULL, 0, 0},
};

/* Baichuan: llama's keys its own way (the data layout named first, the
 * context from the first of three keys). */
static const cv_mkey BAICHUAN_META[] = {
    {"tensor_data_layout", "Meta AI original pth", CV_M_STR, 0},
    {"context_length", "max_sequence_length|max_position_embeddings|model_max_length", CV_M_U32, CV_M_REQUIRED},
    {"embedding_length", "hidden_size", CV_M_U32, CV_M_REQUIRED},
    {"block_count", "num_hidden_layers", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {"attention.head_count", "num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.head_count_kv", "num_key_value_heads|num_attention_heads", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "rms_norm_eps", CV_M_F32, CV_M_REQUIRED},
    {"general.file_type", "", CV_M_FILE_TYPE, 0},
    {"rope.scaling", "linear", CV_M_ROPE_SCALING, 0},
    {NULL, NULL, 0, 0},
};

/* BitNet b1.58: the base keys, linear rope scaling of factor 1; llama's
 * names (nothing permuted, no output head) and the two sub-norms. */
static const cv_mkey BITNET_META[] = {
    BASE_PARAMS,
    {"rope.scaling.type", "linear", CV_M_STR, 0},
    {"rope.scaling.factor", "1.0", CV_M_F32_CONST, 0},
    {NULL, NULL, 0, 0},
};

/* Arctic: llama's attention (permuted), a dense residual MLP beside the
 * experts; its norm names are the reference's Arctic-only mapping. */
static const cv_mkey ARCTIC_META[] = {
    BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "", CV_M_ROPE_DIM_HEADS, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* WavTokenizer's decoder: the base keys, then its own; posnet.n_embd and
 * the others are config.json's nested values (families/wavtokenizer.c). */
static const cv_mkey WAVTOKENIZER_META[] = {
    BASE_PARAMS,
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED},
    {"features_length", "n_embd_features", CV_M_U32, CV_M_REQUIRED},
    {"feed_forward_length", "n_ff", CV_M_U32, CV_M_REQUIRED},
    {"attention.group_norm_epsilon", "group_norm_epsilon", CV_M_F32, CV_M_REQUIRED},
    {"attention.group_norm_groups", "group_norm_groups", CV_M_U32, CV_M_REQUIRED},
    {"posnet.embedding_length", "posnet.n_embd", CV_M_U32, CV_M_REQUIRED},
    {"posnet.block_count", "posnet.n_layer", CV_M_U32, CV_M_REQUIRED},
    {"convnext.embedding_length", "convnext.n_embd", CV_M_U32, CV_M_REQUIRED},
    {"convnext.block_count", "convnext.n_layer", CV_M_U32, CV_M_REQUIRED},
    {"attention.causal", "", CV_M_FALSE, 0},
    {NULL, NULL, 0, 0},
};

/* Granite 4 hybrids and Bamba (master's GraniteHybridModel over its
 * GraniteMoeModel) and GraniteMoeShared: master's base parameters, llama's
 * vocab_size and rope dimension (head_dim ignored), Granite's multipliers,
 * the shared experts' width; the hybrids' ssm.* and per-block keys follow
 * (families/granite_hybrid.c). */
#define GRANITE_MASTER_PARAMS \
    MASTER_BASE_PARAMS, \
    {"vocab_size", "vocab_size", CV_M_U32, CV_M_REQUIRED}, \
    {"rope.dimension_count", "head_dim", CV_M_ROPE_DIM, CV_M_REQUIRED}, \
    {"attention.scale", "attention_multiplier", CV_M_F32, CV_M_NONZERO}, \
    {"embedding_scale", "embedding_multiplier", CV_M_F32, CV_M_NONZERO}, \
    {"residual_scale", "residual_multiplier", CV_M_F32, CV_M_NONZERO}, \
    {"logit_scale", "logits_scaling", CV_M_F32, CV_M_NONZERO}
static const cv_mkey GRANITE_MASTER_META[] = {
    GRANITE_MASTER_PARAMS,
    {"expert_shared_feed_forward_length", "shared_intermediate_size", CV_M_U32, CV_M_NONZERO},
    {NULL, NULL, 0, 0},
};

/* Granite SWA and MoE SWA (master's GraniteSWAModel, GraniteMoeSWAModel): Granite 4's keys without the
 * shared width, which the MoE form writes after the window keys (families/granite_swa.c). */
static const cv_mkey GRANITE_SWA_META[] = {GRANITE_MASTER_PARAMS, {NULL, NULL, 0, 0}};

/* LFM2 (master's LFM2Model): master's base parameters; families/lfm2.c
 * writes its own over some of them and adds the rest. */
static const cv_mkey LFM2_META[] = {MASTER_BASE_PARAMS, {NULL, NULL, 0, 0}};
static const cv_mkey LFM2MOE_META[] = {
    MASTER_BASE_PARAMS,
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"leading_dense_block_count", "num_dense_layers", CV_M_U32, CV_M_REQUIRED},
    {"expert_gating_func", "2", CV_M_U32_CONST, 0},
    {NULL, NULL, 0, 0},
};

/* DeciLM: every key written by families/deci.c, from its own tables. */
static const cv_mkey NO_META[] = {{NULL, NULL, 0, 0}};
/* What the families with code do (families/NAME.c): the rows' hooks. */
extern const cv_hooks lgg__cv_hooks_apertus;
extern const cv_hooks lgg__cv_hooks_arcee;
extern const cv_hooks lgg__cv_hooks_baichuan;
extern const cv_hooks lgg__cv_hooks_bert;
extern const cv_hooks lgg__cv_hooks_distilbert;
extern const cv_hooks lgg__cv_hooks_modern_bert;
extern const cv_hooks lgg__cv_hooks_neo_bert;
extern const cv_hooks lgg__cv_hooks_eurobert;
extern const cv_hooks lgg__cv_hooks_lfm2_embed;
extern const cv_hooks lgg__cv_hooks_llama_embed;
extern const cv_hooks lgg__cv_hooks_bitnet;
extern const cv_hooks lgg__cv_hooks_bloom;
extern const cv_hooks lgg__cv_hooks_chameleon;
extern const cv_hooks lgg__cv_hooks_chatglm;
extern const cv_hooks lgg__cv_hooks_codeshell;
extern const cv_hooks lgg__cv_hooks_dbrx;
extern const cv_hooks lgg__cv_hooks_deci;
extern const cv_hooks lgg__cv_hooks_grok;
extern const cv_hooks lgg__cv_hooks_minimax01;
extern const cv_hooks lgg__cv_hooks_minimaxm3;
extern const cv_hooks lgg__cv_hooks_mimo2;
extern const cv_hooks lgg__cv_hooks_exaone;
extern const cv_hooks lgg__cv_hooks_falcon;
extern const cv_hooks lgg__cv_hooks_falcon_h1;
extern const cv_hooks lgg__cv_hooks_glm4;
extern const cv_hooks lgg__cv_hooks_glm4moe;
extern const cv_hooks lgg__cv_hooks_glm4moelite;
extern const cv_hooks lgg__cv_hooks_gemma3;
extern const cv_hooks lgg__cv_hooks_gemma_embedding;
extern const cv_hooks lgg__cv_hooks_gpt2;
extern const cv_hooks lgg__cv_hooks_gptneox;
extern const cv_hooks lgg__cv_hooks_granitemoe;
extern const cv_hooks lgg__cv_hooks_granite_hybrid;
extern const cv_hooks lgg__cv_hooks_internlm2;
extern const cv_hooks lgg__cv_hooks_jais;
extern const cv_hooks lgg__cv_hooks_jina_bert;
extern const cv_hooks lgg__cv_hooks_llama4;
extern const cv_hooks lgg__cv_hooks_llama_bare;
extern const cv_hooks lgg__cv_hooks_llama_master;
extern const cv_hooks lgg__cv_hooks_lfm2;
extern const cv_hooks lgg__cv_hooks_lfm2moe;
extern const cv_hooks lgg__cv_hooks_mamba;
extern const cv_hooks lgg__cv_hooks_mamba2;
extern const cv_hooks lgg__cv_hooks_gptoss;
extern const cv_hooks lgg__cv_hooks_mellum;
extern const cv_hooks lgg__cv_hooks_minicpm;
extern const cv_hooks lgg__cv_hooks_minicpm3;
extern const cv_hooks lgg__cv_hooks_mistral3;
extern const cv_hooks lgg__cv_hooks_mpt;
extern const cv_hooks lgg__cv_hooks_nanbeige;
extern const cv_hooks lgg__cv_hooks_nemotron;
extern const cv_hooks lgg__cv_hooks_nemotron_h;
extern const cv_hooks lgg__cv_hooks_nomic_bert;
extern const cv_hooks lgg__cv_hooks_olmo3;
extern const cv_hooks lgg__cv_hooks_openelm;
extern const cv_hooks lgg__cv_hooks_pangu;
extern const cv_hooks lgg__cv_hooks_phi3;
extern const cv_hooks lgg__cv_hooks_phi4v;
extern const cv_hooks lgg__cv_hooks_plamo;
extern const cv_hooks lgg__cv_hooks_plamo2;
extern const cv_hooks lgg__cv_hooks_granite_swa;
extern const cv_hooks lgg__cv_hooks_granite_moe_swa;
extern const cv_hooks lgg__cv_hooks_granite_switch;
extern const cv_hooks lgg__cv_hooks_plamo3;
extern const cv_hooks lgg__cv_hooks_qwen;
extern const cv_hooks lgg__cv_hooks_qwen3;
extern const cv_hooks lgg__cv_hooks_qwen2model;
extern const cv_hooks lgg__cv_hooks_deepseek2_master;
extern const cv_hooks lgg__cv_hooks_qwen3next;
extern const cv_hooks lgg__cv_hooks_qwen35;
extern const cv_hooks lgg__cv_hooks_qwen35_vl;
extern const cv_hooks lgg__cv_hooks_minicpmv46;
extern const cv_hooks lgg__cv_hooks_qwen3vl;
extern const cv_hooks lgg__cv_hooks_qwen3vlmoe;
extern const cv_hooks lgg__cv_hooks_qwen3omni;
extern const cv_hooks lgg__cv_hooks_qwen3asr;
extern const cv_hooks lgg__cv_hooks_qwen2vl_master;
extern const cv_hooks lgg__cv_hooks_glm4v;
extern const cv_hooks lgg__cv_hooks_glmocr;
extern const cv_hooks lgg__cv_hooks_glm4vmoe;
extern const cv_hooks lgg__cv_hooks_sarashina2;
extern const cv_hooks lgg__cv_hooks_qwen2vl;
extern const cv_hooks lgg__cv_hooks_refact;
extern const cv_hooks lgg__cv_hooks_roberta;
extern const cv_hooks lgg__cv_hooks_rwkv6;
extern const cv_hooks lgg__cv_hooks_rwkv6qwen2;
extern const cv_hooks lgg__cv_hooks_rwkv7;
extern const cv_hooks lgg__cv_hooks_arwkv7;
extern const cv_hooks lgg__cv_hooks_t5;
extern const cv_hooks lgg__cv_hooks_wavtokenizer;
extern const cv_hooks lgg__cv_hooks_xlmr;
extern const cv_hooks lgg__cv_hooks_xverse;
extern const cv_hooks lgg__cv_hooks_ernie;
extern const cv_hooks lgg__cv_hooks_paddleocr;
extern const cv_hooks lgg__cv_hooks_ernie_moe;
extern const cv_hooks lgg__cv_hooks_exaone4;
extern const cv_hooks lgg__cv_hooks_bailingmoe2;
extern const cv_hooks lgg__cv_hooks_bailingmoe3;
extern const cv_hooks lgg__cv_hooks_bailingmoe;
extern const cv_hooks lgg__cv_hooks_grovemoe;
extern const cv_hooks lgg__cv_hooks_smallthinker;
extern const cv_hooks lgg__cv_hooks_exaonemoe;
extern const cv_hooks lgg__cv_hooks_exaone45;
extern const cv_hooks lgg__cv_hooks_step_vl;
extern const cv_hooks lgg__cv_hooks_step35;
extern const cv_hooks lgg__cv_hooks_gemma3n;
extern const cv_hooks lgg__cv_hooks_llada;
extern const cv_hooks lgg__cv_hooks_dream;
extern const cv_hooks lgg__cv_hooks_hunyuan;
extern const cv_hooks lgg__cv_hooks_hy_v3;
extern const cv_hooks lgg__cv_hooks_cohere2moe;
extern const cv_hooks lgg__cv_hooks_rugpt3xl;
extern const cv_hooks lgg__cv_hooks_talkie;
extern const cv_hooks lgg__cv_hooks_cogvlm;
extern const cv_hooks lgg__cv_hooks_sarvam;
extern const cv_hooks lgg__cv_hooks_laguna;
extern const cv_hooks lgg__cv_hooks_solar_open;
extern const cv_hooks lgg__cv_hooks_glm_dsa;
extern const cv_hooks lgg__cv_hooks_jamba;
extern const cv_hooks lgg__cv_hooks_deepseek32;
extern const cv_hooks lgg__cv_hooks_youtu;
extern const cv_hooks lgg__cv_hooks_deepseek_ocr;
extern const cv_hooks lgg__cv_hooks_gemma4;
extern const cv_hooks lgg__cv_hooks_gemma4_assistant;
extern const cv_hooks lgg__cv_hooks_gemma4_unified;

/* The families' own tensor names: only where a family's differ from the
 * shared map (namemap.c), tried before it; the transforms the reference
 * makes by name are the rows' flags (CV_F_PERMUTE_QK, CV_F_NORM_ADD1,
 * CV_F_CONV1D). */
/* gpt-oss's names (families/gpt_oss.c renames the sinks and the experts'
 * biases first; gate_up's bias is split into gate and up there). */
static const cv_tmap GPTOSS_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {"model.layers.#.self_attn.sinks", "blk.#.attn_sinks", 0},
    {"model.layers.#.mlp.router", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.mlp.experts.gate_up_proj", "blk.#.ffn_gate_exps", 0},
    {"model.layers.#.mlp.experts.gate_proj", "blk.#.ffn_gate_exps", 0},
    {"model.layers.#.mlp.experts.up_proj", "blk.#.ffn_up_exps", 0},
    {"model.layers.#.mlp.experts.down_proj", "blk.#.ffn_down_exps", 0},
    {NULL, NULL, 0},
};

/* Qwen3-VL-MoE's stacked experts (families/qwen3vl.c names gate_up_proj's gate part gate_proj). */
/* MiMo V2: its experts stacked gate, up, down (master's loop), its attention sinks (named with ".weight" by
 * families/mimo.c). */
static const cv_tmap MIMO2_TENSORS[] = {
    {"model.layers.#.mlp.experts.*.gate_proj", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.mlp.experts.*.up_proj", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.mlp.experts.*.down_proj", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    {"model.layers.#.self_attn.attention_sink_bias", "blk.#.attn_sinks", 0},
    {NULL, NULL, 0},
};

static const cv_tmap QWEN3VLMOE_TENSORS[] = {
    {"model.layers.#.mlp.experts.gate_proj", "blk.#.ffn_gate_exps", 0},
    {"model.layers.#.mlp.experts.down_proj", "blk.#.ffn_down_exps", 0},
    {NULL, NULL, 0},
};

static const cv_tmap GEMMA_TENSORS[] = {
    {"lm_head", "", CV_X_SKIP}, /* tied to the embeddings */
    {NULL, NULL, 0},
};
static const cv_tmap GEMMA2_TENSORS[] = {
    {"lm_head", "", CV_X_SKIP},
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {NULL, NULL, 0},
};
/* OLMo 2 and Gemma 3: norms after attention and after the FFN. */
/* Qwen3-Next: post_attention_layernorm as the norm after attention (its
 * tensor list has no ffn_norm), in_proj_qkvz as attn_qkv (split by
 * families/qwen3next.c). */
static const cv_tmap QWEN3NEXT_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {"model.layers.#.linear_attn.in_proj_qkvz", "blk.#.attn_qkv", 0},
    {NULL, NULL, 0},
};

static const cv_tmap OLMO2_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {NULL, NULL, 0},
};
/* Arctic: the reference's Arctic-only name of the experts' norm (residual_layernorm is ffn_norm). */
static const cv_tmap ARCTIC_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.ffn_norm_exps", 0},
    {NULL, NULL, 0},
};
/* BitNet: no output head (the reference's stops on an lm_head). */
static const cv_tmap BITNET_TENSORS[] = {
    {"lm_head", "", CV_X_NO_NAME},
    {NULL, NULL, 0},
};
/* GLM-4.5: the norm after attention is its own (not ffn_norm); GLM-4 0414:
 * norms after attention and after the MLP as well. */
static const cv_tmap GLM4MOE_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {NULL, NULL, 0},
};
static const cv_tmap GLM4_TENSORS[] = {
    {"model.layers.#.post_self_attn_layernorm", "blk.#.post_attention_norm", 0},
    {"model.layers.#.post_mlp_layernorm", "blk.#.post_ffw_norm", 0},
    {NULL, NULL, 0},
};
/* ERNIE 4.5: the fused matrices of the "ernie." checkpoints arrive whole as
 * their first part (families/ernie.c splits them); the MoE's experts
 * stacked gate, up, down (master's loop). */
static const cv_tmap ERNIE_TENSORS[] = {
    {"model.layers.#.self_attn.qkv_proj", "blk.#.attn_q", 0},
    {"model.layers.#.mlp.up_gate_proj", "blk.#.ffn_gate", 0},
    {NULL, NULL, 0},
};
static const cv_tmap ERNIEMOE_TENSORS[] = {
    {"model.layers.#.mlp.experts.*.gate_proj", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.mlp.experts.*.up_proj", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.mlp.experts.*.down_proj", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    {NULL, NULL, 0},
};
/* The MTP block of EXAONE MoE and EXAONE 4.5: its layer's attention and MLP as block N of mtp.layers.N, the
 * shared tensors as mtp.*; families/exaone.c moves both past the main blocks. */
#define EXAONE_MTP_ROWS \
    {"mtp.layers.#.self_attn.q_proj", "blk.#.attn_q", 0}, \
    {"mtp.layers.#.self_attn.k_proj", "blk.#.attn_k", 0}, \
    {"mtp.layers.#.self_attn.v_proj", "blk.#.attn_v", 0}, \
    {"mtp.layers.#.self_attn.o_proj", "blk.#.attn_output", 0}, \
    {"mtp.layers.#.self_attn.q_norm", "blk.#.attn_q_norm", 0}, \
    {"mtp.layers.#.self_attn.k_norm", "blk.#.attn_k_norm", 0}, \
    {"mtp.layers.#.mlp.gate_proj", "blk.#.ffn_gate", 0}, \
    {"mtp.layers.#.mlp.up_proj", "blk.#.ffn_up", 0}, \
    {"mtp.layers.#.mlp.down_proj", "blk.#.ffn_down", 0}, \
    {"mtp.fc", "mtp.eh_proj", 0}, \
    {"mtp.pre_fc_norm_embedding", "mtp.enorm", 0}, \
    {"mtp.pre_fc_norm_hidden", "mtp.hnorm", 0}, \
    {"mtp.norm", "mtp.shared_head_norm", 0}
/* EXAONE MoE's: pre-norm blocks. */
static const cv_tmap EXAONEMOE_TENSORS[] = {
    {"mtp.layers.#.input_layernorm", "blk.#.attn_norm", 0},
    {"mtp.layers.#.post_attention_layernorm", "blk.#.ffn_norm", 0},
    EXAONE_MTP_ROWS,
    {NULL, NULL, 0},
};
/* EXAONE 4.5's text: EXAONE 4's post-norm names, in its MTP block too. */
static const cv_tmap EXAONE45_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {"mtp.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {"mtp.layers.#.post_feedforward_layernorm", "blk.#.post_ffw_norm", 0},
    EXAONE_MTP_ROWS,
    {NULL, NULL, 0},
};
/* PLaMo 2 and 3: every block's names under model.layers.layers
 * (families/plamo2.c renames the post norms to ..._weight, and PLaMo 2's
 * dt_bias); master's map holds the post norms, PLaMo 2's dt/B/C norms, A_log
 * and D whole, so they have no suffix; PLaMo 2's q/k norms (q_weight,
 * k_weight) end in .weight. */
#define PLAMO_ROWS \
    {"model.layers.layers.#.pre_mixer_norm", "blk.#.attn_norm", 0}, \
    {"model.layers.layers.#.post_mixer_norm_weight", "blk.#.post_attention_norm", 0}, \
    {"model.layers.layers.#.pre_mlp_norm", "blk.#.ffn_norm", 0}, \
    {"model.layers.layers.#.post_mlp_norm_weight", "blk.#.post_ffw_norm", 0}, \
    {"model.layers.layers.#.mixer.qkv_proj", "blk.#.attn_qkv", 0}, \
    {"model.layers.layers.#.mixer.q_norm", "blk.#.attn_q_norm", 0}, \
    {"model.layers.layers.#.mixer.k_norm", "blk.#.attn_k_norm", 0}, \
    {"model.layers.layers.#.mixer.o_proj", "blk.#.attn_output", 0}, \
    {"model.layers.layers.#.mlp.gate_up_proj", "blk.#.ffn_up", 0}, \
    {"model.layers.layers.#.mlp.down_proj", "blk.#.ffn_down", 0}
static const cv_tmap PLAMO3_TENSORS[] = {PLAMO_ROWS, {NULL, NULL, 0}};
static const cv_tmap PLAMO2_TENSORS[] = {
    PLAMO_ROWS,
    {"model.layers.layers.#.mixer.q_weight", "blk.#.attn_q_norm.weight", 0},
    {"model.layers.layers.#.mixer.k_weight", "blk.#.attn_k_norm.weight", 0},
    {"model.layers.layers.#.mixer.in_proj", "blk.#.ssm_in", 0},
    {"model.layers.layers.#.mixer.conv1d", "blk.#.ssm_conv1d", 0},
    {"model.layers.layers.#.mixer.bcdt_proj", "blk.#.ssm_x", 0},
    {"model.layers.layers.#.mixer.dt_proj", "blk.#.ssm_dt", 0},
    {"model.layers.layers.#.mixer.dt_norm_weight", "blk.#.ssm_dt_norm", 0},
    {"model.layers.layers.#.mixer.B_norm_weight", "blk.#.ssm_b_norm", 0},
    {"model.layers.layers.#.mixer.C_norm_weight", "blk.#.ssm_c_norm", 0},
    {"model.layers.layers.#.mixer.A_log", "blk.#.ssm_a", 0},
    {"model.layers.layers.#.mixer.D", "blk.#.ssm_d", 0},
    {"model.layers.layers.#.mixer.out_proj", "blk.#.ssm_out", 0},
    {NULL, NULL, 0},
};
/* Granite SWA: its attention sinks (families/granite_swa.c reads them as sinks.weight). The MoE form: the
 * experts' gate and up kept in one matrix (experts.gate_up_proj, with no suffix, or input_linear), the shared
 * MLP's likewise in ffn_up_shexp. */
#define GRANITE_SWA_SINKS {"model.layers.#.self_attn.sinks", "blk.#.attn_sinks", 0}
static const cv_tmap GRANITE_SWA_TENSORS[] = {GRANITE_SWA_SINKS, {NULL, NULL, 0}};
static const cv_tmap GRANITE_MOE_SWA_TENSORS[] = {
    GRANITE_SWA_SINKS,
    {"model.layers.#.block_sparse_moe.experts.gate_up_proj", "blk.#.ffn_gate_up_exps.weight", 0},
    {"model.layers.#.block_sparse_moe.experts.down_proj", "blk.#.ffn_down_exps.weight", 0},
    {"model.layers.#.block_sparse_moe.input_linear", "blk.#.ffn_gate_up_exps", 0},
    {"model.layers.#.shared_mlp.input_linear", "blk.#.ffn_up_shexp", 0},
    {"model.layers.#.shared_mlp.output_linear", "blk.#.ffn_down_shexp", 0},
    {NULL, NULL, 0},
};
/* Granite Switch: each projection's base weight and its adapters' stacked factors (A and B: lora_A, lora_B, and
 * the fused projections' slices by the part they feed) as master names them; families/granite_switch.c adds the
 * zero adapter, the permutations and the gate/up split. */
#define SWITCH_LORA(HF, GGUF) {HF ".lora_A", GGUF ".lora_a", 0}, {HF ".lora_B", GGUF ".lora_b", 0}
#define SWITCH_SLICE(HF, K, GGUF) \
    {HF ".lora_A_slices." #K, GGUF ".lora_a", 0}, {HF ".lora_B_slices." #K, GGUF ".lora_b", 0}
static const cv_tmap GRANITE_SWITCH_TENSORS[] = {
    {"model.layers.#.self_attn.qkv_proj.base_layer", "blk.#.attn_qkv", 0},
    SWITCH_SLICE("model.layers.#.self_attn.qkv_proj", 0, "blk.#.attn_q"),
    SWITCH_SLICE("model.layers.#.self_attn.qkv_proj", 1, "blk.#.attn_k"),
    SWITCH_SLICE("model.layers.#.self_attn.qkv_proj", 2, "blk.#.attn_v"),
    {"model.layers.#.self_attn.o_proj.base_layer", "blk.#.attn_output", 0},
    SWITCH_LORA("model.layers.#.self_attn.o_proj", "blk.#.attn_output"),
    {"model.layers.#.shared_mlp.input_linear.base_layer", "blk.#.ffn_gate", 0},
    SWITCH_SLICE("model.layers.#.shared_mlp.input_linear", 0, "blk.#.ffn_gate"),
    SWITCH_SLICE("model.layers.#.shared_mlp.input_linear", 1, "blk.#.ffn_up"),
    {"model.layers.#.shared_mlp.output_linear.base_layer", "blk.#.ffn_down", 0},
    SWITCH_LORA("model.layers.#.shared_mlp.output_linear", "blk.#.ffn_down"),
    {NULL, NULL, 0},
};
/* RWKV-7: master's names after its renames (families/rwkv6.c: attention, feed_forward, ln2, ln_x, fla-hub's LoRA
 * factors as w1/w2/w0); the token shifts under names of their own until families/rwkv6.c stacks them. */
#define RWKV7_ATT(HF, GGUF) {"model.layers.#.attention." HF, "blk.#.time_mix_" GGUF, 0}
static const cv_tmap RWKV7_TENSORS[] = {
    {"model.embeddings", "token_embd", 0},
    {"model.layers.0.pre_norm", "token_embd_norm", 0},
    {"model.pre_ln", "token_embd_norm", 0},
    {"model.ln_out", "output_norm", 0},
    {"model.layers.#.attention_norm", "blk.#.attn_norm", 0},
    {"model.layers.#.ln1", "blk.#.attn_norm", 0},
    {"model.layers.#.ln2", "blk.#.attn_norm_2", 0},
    RWKV7_ATT("x_r", "lerp_r"), RWKV7_ATT("x_w", "lerp_w"), RWKV7_ATT("x_k", "lerp_k"),
    RWKV7_ATT("x_v", "lerp_v"), RWKV7_ATT("x_a", "lerp_a"), RWKV7_ATT("x_g", "lerp_g"),
    RWKV7_ATT("x_x", "lerp_fused.weight"),
    RWKV7_ATT("w0", "w0"), RWKV7_ATT("w1", "w1"), RWKV7_ATT("w2", "w2"),
    RWKV7_ATT("a0", "a0"), RWKV7_ATT("a1", "a1"), RWKV7_ATT("a2", "a2"),
    RWKV7_ATT("v0", "v0"), RWKV7_ATT("v1", "v1"), RWKV7_ATT("v2", "v2"),
    RWKV7_ATT("g1", "g1"), RWKV7_ATT("g2", "g2"),
    RWKV7_ATT("k_k", "k_k"), RWKV7_ATT("k_a", "k_a"), RWKV7_ATT("r_k", "r_k"),
    RWKV7_ATT("key", "key"), RWKV7_ATT("k_proj", "key"), RWKV7_ATT("value", "value"), RWKV7_ATT("v_proj", "value"),
    RWKV7_ATT("receptance", "receptance"), RWKV7_ATT("r_proj", "receptance"), RWKV7_ATT("ln_x", "ln"),
    RWKV7_ATT("output", "output"), RWKV7_ATT("o_proj", "output"),
    {"model.layers.#.feed_forward.x_k", "blk.#.channel_mix_lerp_k", 0},
    {"model.layers.#.feed_forward.key", "blk.#.channel_mix_key", 0},
    {"model.layers.#.feed_forward.value", "blk.#.channel_mix_value", 0},
    {NULL, NULL, 0},
};
/* Falcon-H1: the norm before the MLP as master maps it, by its whole name
 * (families/falcon_h1.c renames it first): no suffix. */
static const cv_tmap FALCON_H1_TENSORS[] = {
    {"model.layers.#.pre_ff_layernorm_weight", "blk.#.ffn_norm", 0},
    {NULL, NULL, 0},
};
/* RWKV6Qwen2: RWKV-6's time mix in Qwen2's names. */
static const cv_tmap RWKV6QWEN2_TENSORS[] = {
    {"model.layers.#.self_attn.k_proj", "blk.#.time_mix_key", 0},
    {"model.layers.#.self_attn.v_proj", "blk.#.time_mix_value", 0},
    {"model.layers.#.self_attn.q_proj", "blk.#.time_mix_receptance", 0},
    {"model.layers.#.self_attn.o_proj", "blk.#.time_mix_output", 0},
    {NULL, NULL, 0},
};

/* ruGPT-3 XL: q, k and v each mapped as the fused attn_qkv (families/gpt2.c fuses them), the learned
 * position embeddings. */
static const cv_tmap RUGPT3XL_TENSORS[] = {
    {"model.layers.#.self_attn.q_proj", "blk.#.attn_qkv", 0},
    {"model.layers.#.self_attn.k_proj", "blk.#.attn_qkv", 0},
    {"model.layers.#.self_attn.v_proj", "blk.#.attn_qkv", 0},
    {"model.embed_positions", "position_embd", 0},
    {NULL, NULL, 0},
};

/* Talkie: its own names (families/talkie.c adds ".weight" as master does), the per-head query gain as the
 * q norm, the attention and MLP output gains as .scale tensors, the embedding skip gain as the layer
 * output scale; lm_head_gain becomes talkie.logit_scale (named here only to reach the tensor hook). */
static const cv_tmap TALKIE_TENSORS[] = {
    {"model.embed", "token_embd", 0},
    {"model.blocks.#.attn.attn_query", "blk.#.attn_q", 0},
    {"model.blocks.#.attn.attn_key", "blk.#.attn_k", 0},
    {"model.blocks.#.attn.attn_value", "blk.#.attn_v", 0},
    {"model.blocks.#.attn.attn_resid", "blk.#.attn_output", 0},
    {"model.blocks.#.attn.head_gain.head_g", "blk.#.attn_q_norm", 0},
    {"model.blocks.#.attn_gain.a_g", "blk.#.attn_output.scale", 0},
    {"model.blocks.#.mlp_gain.a_g", "blk.#.ffn_down.scale", 0},
    {"model.blocks.#.embed_skip.a_g", "blk.#.layer_output_scale", 0},
    {"model.blocks.#.mlp.mlp_gate", "blk.#.ffn_gate", 0},
    {"model.blocks.#.mlp.mlp_linear", "blk.#.ffn_up", 0},
    {"model.blocks.#.mlp.mlp_resid", "blk.#.ffn_down", 0},
    {"lm_head_gain.w_g", "lm_head_gain", 0},
    {NULL, NULL, 0},
};

/* CogVLM's text: the language expert's attention and MLP (the vision expert's are dropped by master's
 * multimodal filter). */
static const cv_tmap COGVLM_TENSORS[] = {
    {"model.layers.#.self_attn.language_expert_query_key_value", "blk.#.attn_qkv", 0},
    {"model.layers.#.self_attn.language_expert_dense", "blk.#.attn_output", 0},
    {"model.layers.#.mlp.language_mlp.gate_proj", "blk.#.ffn_gate", 0},
    {"model.layers.#.mlp.language_mlp.up_proj", "blk.#.ffn_up", 0},
    {"model.layers.#.mlp.language_mlp.down_proj", "blk.#.ffn_down", 0},
    {NULL, NULL, 0},
};

/* Ling 3.0: the KDA layers' projections, convolutions, gates, A_log, dt_proj (dt_bias renamed) and output
 * norm, the latent-attention layers' under attention. (g_proj is KDA's gate here, the attention gate on a
 * latent-attention block: families/bailingmoe.c). */
static const cv_tmap BAILINGMOE3_TENSORS[] = {
    {"model.layers.#.attention.q_proj", "blk.#.attn_q", 0},
    {"model.layers.#.attention.k_proj", "blk.#.attn_k", 0},
    {"model.layers.#.attention.v_proj", "blk.#.attn_v", 0},
    {"model.layers.#.attention.o_proj", "blk.#.attn_output", 0},
    {"model.layers.#.attention.q_conv1d", "blk.#.ssm_conv1d_q", 0},
    {"model.layers.#.attention.k_conv1d", "blk.#.ssm_conv1d_k", 0},
    {"model.layers.#.attention.v_conv1d", "blk.#.ssm_conv1d_v", 0},
    {"model.layers.#.attention.f_proj", "blk.#.ssm_f_a", 0},
    {"model.layers.#.attention.g_proj", "blk.#.ssm_g_a", 0},
    {"model.layers.#.attention.b_proj", "blk.#.ssm_beta", 0},
    {"model.layers.#.attention.A_log", "blk.#.ssm_a", CV_X_NEG_EXP},
    {"model.layers.#.attention.dt_proj", "blk.#.ssm_dt", 0},
    {"model.layers.#.attention.o_norm", "blk.#.ssm_norm", 0},
    {"model.layers.#.attention.q_a_proj", "blk.#.attn_q_a", 0},
    {"model.layers.#.attention.q_a_layernorm", "blk.#.attn_q_a_norm", 0},
    {"model.layers.#.attention.q_b_proj", "blk.#.attn_q_b", 0},
    {"model.layers.#.attention.kv_a_proj_with_mqa", "blk.#.attn_kv_a_mqa", 0},
    {"model.layers.#.attention.kv_a_layernorm", "blk.#.attn_kv_a_norm", 0},
    {"model.layers.#.attention.kv_b_proj", "blk.#.attn_kv_b", 0},
    {NULL, NULL, 0},
};

/* Gemma 4's assistants: OLMo 2's (Gemma 4's) rows, then the projections from the backbone's embedding and
 * state and back to its width. */
static const cv_tmap GEMMA4_ASSISTANT_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {"pre_projection", "nextn.pre_projection", 0},
    {"post_projection", "nextn.post_projection", 0},
    {NULL, NULL, 0},
};

/* Laguna: the attention gate g_proj, experts stacked gate, up, down, the router's score correction under
 * mlp.experts (the shared expert, router and q/k norms are namemap.c's). */
static const cv_tmap LAGUNA_TENSORS[] = {
    {"model.layers.#.self_attn.g_proj", "blk.#.attn_gate", 0},
    {"model.layers.#.mlp.experts.*.gate_proj", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.mlp.experts.*.up_proj", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.mlp.experts.*.down_proj", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    {"model.layers.#.mlp.experts.e_score_correction_bias", "blk.#.exp_probs_b.bias", 0},
    {NULL, NULL, 0},
};

/* HY V3 (Hy3): the router under mlp.router, its expert_bias (no suffix,
 * as master names it), an MTP block's final_layernorm. */
static const cv_tmap HYV3_TENSORS[] = {
    {"model.layers.#.mlp.router.gate", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.mlp.expert_bias", "blk.#.exp_probs_b", 0},
    {"model.layers.#.final_layernorm", "blk.#.nextn.shared_head_norm", 0},
    {NULL, NULL, 0},
};

/* AFMoE: four norms a block (post_attention_layernorm after attention,
 * pre/post_mlp_layernorm around the MLP), a gate on the attention output,
 * the router under mlp.router, experts stacked gate, up, down. */
static const cv_tmap AFMOE_TENSORS[] = {
    {"model.layers.#.post_attention_layernorm", "blk.#.post_attention_norm", 0},
    {"model.layers.#.pre_mlp_layernorm", "blk.#.ffn_norm", 0},
    {"model.layers.#.post_mlp_layernorm", "blk.#.post_ffw_norm", 0},
    {"model.layers.#.self_attn.gate_proj", "blk.#.attn_gate", 0},
    {"model.layers.#.mlp.router.gate", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.mlp.expert_bias", "blk.#.exp_probs_b.bias", 0},
    {"model.layers.#.mlp.experts.*.gate_proj", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.mlp.experts.*.up_proj", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.mlp.experts.*.down_proj", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    {NULL, NULL, 0},
};

/* Bailing MoE: the fused query_key_value arrives as attn_q (families/bailingmoe.c splits it). */
static const cv_tmap BAILINGMOE_TENSORS[] = {
    {"model.layers.#.attention.query_key_value", "blk.#.attn_q", 0},
    {NULL, NULL, 0},
};

/* KORMo (master's Qwen2Model): its norms' names. */
static const cv_tmap KORMO_TENSORS[] = {
    {"model.layers.#.pre_attention_layernorm", "blk.#.attn_norm", 0},
    {"model.layers.#.pre_mlp_layernorm", "blk.#.ffn_norm", 0},
    {NULL, NULL, 0},
};

/* GroveMoE: the unused router expert_bias dropped, the chunk experts stacked down, gate, up apart from
 * the experts (CV_X_EXPERTS2). */
static const cv_tmap GROVEMOE_TENSORS[] = {
    {"model.layers.#.mlp.expert_bias", "", CV_X_SKIP},
    {"model.layers.#.mlp.chunk_experts.*.down_proj", "blk.#.ffn_down_chexps", CV_X_EXPERT | CV_X_EXPERTS2 | CV_X_SLOT(0)},
    {"model.layers.#.mlp.chunk_experts.*.gate_proj", "blk.#.ffn_gate_chexps", CV_X_EXPERT | CV_X_EXPERTS2 | CV_X_SLOT(1)},
    {"model.layers.#.mlp.chunk_experts.*.up_proj", "blk.#.ffn_up_chexps", CV_X_EXPERT | CV_X_EXPERTS2 | CV_X_SLOT(2)},
    {NULL, NULL, 0},
};

/* What each family writes: the GGUF tensor names its reference maps (gguf-py's MODEL_TENSORS for
 * the architecture), so that a name of the shared map (namemap.c) that another family uses is not
 * taken (a Llama checkpoint's stray q_norm stays "no GGUF name", as the reference refuses it). */
#define KINDS_T5 \
    "dec.blk.#.attn_k dec.blk.#.attn_norm dec.blk.#.attn_o dec.blk.#.attn_q dec.blk.#.attn_rel_b " \
    "dec.blk.#.attn_v dec.blk.#.cross_attn_k dec.blk.#.cross_attn_norm dec.blk.#.cross_attn_o " \
    "dec.blk.#.cross_attn_q dec.blk.#.cross_attn_rel_b dec.blk.#.cross_attn_v dec.blk.#.ffn_down " \
    "dec.blk.#.ffn_gate dec.blk.#.ffn_norm dec.blk.#.ffn_up dec.output_norm enc.blk.#.attn_k " \
    "enc.blk.#.attn_norm enc.blk.#.attn_o enc.blk.#.attn_q enc.blk.#.attn_rel_b enc.blk.#.attn_v " \
    "enc.blk.#.ffn_down enc.blk.#.ffn_gate enc.blk.#.ffn_norm enc.blk.#.ffn_up enc.output_norm output " \
    "token_embd "
#define KINDS_LLAMA \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_down_exps blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm " \
    "blk.#.ffn_up blk.#.ffn_up_exps output output_norm token_embd "
#define KINDS_LLAMA4 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp " \
    "blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps blk.#.ffn_up_shexp output " \
    "output_norm token_embd "
#define KINDS_SEED_OSS \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate " \
    "blk.#.ffn_up blk.#.post_attention_norm output output_norm token_embd "
#define KINDS_ARCEE \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_norm " \
    "blk.#.ffn_up output output_norm token_embd "
#define KINDS_APERTUS \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_MAINCODER \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_MELLUM \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_exps " \
    "output output_norm token_embd "
#define KINDS_PLM \
    "blk.#.attn_kv_a_mqa blk.#.attn_kv_a_norm blk.#.attn_kv_b blk.#.attn_norm blk.#.attn_output blk.#.attn_q " \
    "blk.#.ffn_down blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_QWEN2 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_QWEN2MOE \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down_exps " \
    "blk.#.ffn_down_shexp blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_inp_shexp " \
    "blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up_exps blk.#.ffn_up_shexp output output_norm " \
    "token_embd "
#define KINDS_QWEN3 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_QWEN3MOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate_exps blk.#.ffn_gate_inp " \
    "blk.#.ffn_gate_inp_shexp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up_exps blk.#.ffn_up_shexp " \
    "output output_norm token_embd "
#define KINDS_QWEN3VLMOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_exps " \
    "output output_norm token_embd "
#define KINDS_GLM4MOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp " \
    "blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_up " \
    "blk.#.ffn_up_exps blk.#.ffn_up_shexp blk.#.nextn.eh_proj blk.#.nextn.embed_tokens " \
    "blk.#.nextn.enorm blk.#.nextn.hnorm blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm " \
    "blk.#.post_attention_norm output output_norm token_embd "
#define KINDS_GLM4MOELITE \
    "blk.#.attn_k_b blk.#.attn_kv_a_mqa blk.#.attn_kv_a_norm blk.#.attn_kv_b blk.#.attn_norm " \
    "blk.#.attn_output blk.#.attn_q blk.#.attn_q_a blk.#.attn_q_a_norm blk.#.attn_q_b blk.#.attn_v_b " \
    "blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up " \
    "blk.#.ffn_up_exps blk.#.ffn_up_shexp blk.#.nextn.eh_proj blk.#.nextn.embed_tokens " \
    "blk.#.nextn.enorm blk.#.nextn.hnorm blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm " \
    "output output_norm token_embd "
#define KINDS_DEEPSEEK32 KINDS_GLM4MOELITE \
    "blk.#.indexer.attn_k blk.#.indexer.attn_q_b blk.#.indexer.k_norm blk.#.indexer.proj "
#define KINDS_DEEPSEEK2OCR KINDS_GLM4MOELITE "blk.#.attn_k blk.#.attn_v "
#define KINDS_GLM4 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_norm blk.#.ffn_up blk.#.post_attention_norm blk.#.post_ffw_norm output output_norm " \
    "token_embd "
#define KINDS_GLMOCR KINDS_GLM4 \
    "blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm blk.#.nextn.hnorm blk.#.nextn.shared_head_head " \
    "blk.#.nextn.shared_head_norm "
#define KINDS_GPTOSS \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v output output_norm token_embd "
#define KINDS_ERNIEMOE \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.exp_probs_b.bias " \
    "blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps " \
    "blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps " \
    "blk.#.ffn_up_shexp output output_norm token_embd "
#define KINDS_EXAONE4 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v " \
    "blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_up blk.#.post_attention_norm blk.#.post_ffw_norm output " \
    "output_norm token_embd "
#define KINDS_DOTS1 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp " \
    "blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up " \
    "blk.#.ffn_up_exps blk.#.ffn_up_shexp output output_norm token_embd "
#define KINDS_MINIMAXM2 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.exp_probs_b.bias blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp " \
    "blk.#.ffn_norm blk.#.ffn_up_exps output output_norm token_embd "
#define KINDS_MINIMAX01 \
    "blk.#.attn_gate blk.#.attn_k blk.#.attn_norm blk.#.attn_norm_2 blk.#.attn_output blk.#.attn_q blk.#.attn_qkv " \
    "blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_exps output " \
    "output_norm token_embd "
#define KINDS_MINIMAXM3 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v " \
    "blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps " \
    "blk.#.ffn_up_shexp blk.#.indexer.k_norm blk.#.indexer.k_proj blk.#.indexer.q_norm blk.#.indexer.q_proj output " \
    "output_norm token_embd "
#define KINDS_MIMO2 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_qkv blk.#.attn_sinks blk.#.attn_v " \
    "blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp " \
    "blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps blk.#.layer_output_norm blk.#.nextn.eh_proj " \
    "blk.#.nextn.embed_tokens blk.#.nextn.enorm blk.#.nextn.hnorm blk.#.nextn.shared_head_head " \
    "blk.#.nextn.shared_head_norm output output_norm token_embd "
#define KINDS_STEP35 \
    "blk.#.attn_gate blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.exp_probs_b blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps " \
    "blk.#.ffn_up_shexp blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm blk.#.nextn.hnorm " \
    "blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm output output_norm token_embd "
#define KINDS_BAILINGMOE2 \
    "blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q_norm blk.#.attn_qkv " \
    "blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps " \
    "blk.#.ffn_up_shexp blk.#.layer_output_norm blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm " \
    "blk.#.nextn.hnorm blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm output output_norm token_embd "
#define KINDS_BAILINGMOE3 \
    "blk.#.attn_norm blk.#.attn_output blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps " \
    "blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm " \
    "blk.#.ffn_up blk.#.ffn_up_exps blk.#.ffn_up_shexp blk.#.layer_output_norm blk.#.nextn.eh_proj " \
    "blk.#.nextn.enorm blk.#.nextn.hnorm output output_norm token_embd "
#define KINDS_ARWKV7 \
    "blk.#.attn_norm blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_SMALLTHINKER \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_down_exps blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up " \
    "blk.#.ffn_up_exps output output_norm token_embd "
#define KINDS_EXAONEMOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp " \
    "blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up " \
    "blk.#.ffn_up_exps blk.#.ffn_up_shexp blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm " \
    "blk.#.nextn.hnorm blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm output output_norm token_embd "
#define KINDS_QWEN3NEXT \
    "blk.#.attn_gate blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q " \
    "blk.#.attn_q_norm blk.#.attn_qkv blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate_exps " \
    "blk.#.ffn_gate_inp blk.#.ffn_gate_inp_shexp blk.#.ffn_gate_shexp blk.#.ffn_up_exps blk.#.ffn_up_shexp " \
    "blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm blk.#.nextn.hnorm blk.#.nextn.shared_head_head " \
    "blk.#.nextn.shared_head_norm blk.#.post_attention_norm blk.#.ssm_a blk.#.ssm_ba blk.#.ssm_conv1d blk.#.ssm_dt " \
    "blk.#.ssm_norm blk.#.ssm_out output output_norm token_embd "
#define QWEN35_COMMON \
    "blk.#.attn_gate blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q " \
    "blk.#.attn_q_norm blk.#.attn_qkv blk.#.attn_v blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm " \
    "blk.#.nextn.hnorm blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm blk.#.post_attention_norm " \
    "blk.#.ssm_a blk.#.ssm_alpha blk.#.ssm_beta blk.#.ssm_conv1d blk.#.ssm_dt blk.#.ssm_norm blk.#.ssm_out output " \
    "output_norm token_embd "
#define KINDS_QWEN35 QWEN35_COMMON "blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_up "
#define KINDS_QWEN35MOE \
    QWEN35_COMMON "blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate_exps blk.#.ffn_gate_inp " \
    "blk.#.ffn_gate_inp_shexp blk.#.ffn_gate_shexp blk.#.ffn_up_exps blk.#.ffn_up_shexp "
#define KINDS_GEMMA \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up output_norm token_embd "
#define KINDS_GEMMA2 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up blk.#.post_attention_norm blk.#.post_ffw_norm " \
    "output_norm token_embd "
#define KINDS_GEMMA3 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up blk.#.post_attention_norm " \
    "blk.#.post_ffw_norm output output_norm token_embd "
#define KINDS_PHI3 \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_norm blk.#.ffn_up output " \
    "output_norm token_embd "
#define KINDS_PHIMOE \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down_exps " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_exps output output_norm " \
    "token_embd "
#define KINDS_PLAMO2 "output output_norm token_embd "
#define KINDS_PLAMO \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_gate blk.#.ffn_up output output_norm token_embd "
#define KINDS_DEEPSEEK \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.exp_probs_b.bias " \
    "blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps " \
    "blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps " \
    "blk.#.ffn_up_shexp output output_norm token_embd "
#define KINDS_DEEPSEEK2 \
    "blk.#.attn_kv_a_mqa blk.#.attn_kv_a_norm blk.#.attn_kv_b blk.#.attn_norm blk.#.attn_output " \
    "blk.#.attn_q blk.#.attn_q_a blk.#.attn_q_a_norm blk.#.attn_q_b blk.#.exp_probs_b.bias " \
    "blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps " \
    "blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps " \
    "blk.#.ffn_up_shexp output output_norm token_embd "
#define KINDS_COMMAND_R \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_up output_norm token_embd "
#define KINDS_COHERE2MOE \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_down_exps " \
    "blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_up " \
    "blk.#.ffn_up_exps blk.#.ffn_up_shexp blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm " \
    "blk.#.nextn.hnorm blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm output output_norm token_embd "
#define KINDS_TALKIE \
    "blk.#.attn_k blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate " \
    "blk.#.ffn_up blk.#.layer_output_scale output token_embd "
#define KINDS_COGVLM \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up " \
    "output output_norm token_embd "
#define KINDS_LAGUNA \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v " \
    "blk.#.ffn_down blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm " \
    "blk.#.ffn_up blk.#.ffn_up_shexp output output_norm token_embd "
#define KINDS_STARCODER2 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_OLMO \
    "blk.#.attn_k blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_up " \
    "output token_embd "
#define KINDS_OLMO2 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v " \
    "blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_up blk.#.post_attention_norm blk.#.post_ffw_norm output " \
    "output_norm token_embd "
#define KINDS_OLMOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm " \
    "blk.#.ffn_up_exps output output_norm token_embd "
#define KINDS_PHI2 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_up output output_norm token_embd "
#define KINDS_GPT2 \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_norm blk.#.ffn_up output " \
    "output_norm position_embd token_embd "
#define KINDS_FALCON \
    "blk.#.attn_norm blk.#.attn_norm_2 blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_up " \
    "output output_norm token_embd "
#define KINDS_INTERNLM2 \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm " \
    "blk.#.ffn_up output output_norm token_embd "
#define KINDS_GRANITEMOE \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down_exps " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm output output_norm token_embd "
#define KINDS_CHATGLM \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_qkv blk.#.attn_v " \
    "blk.#.ffn_down blk.#.ffn_norm blk.#.ffn_up output output_norm token_embd "
#define KINDS_JAIS \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm " \
    "blk.#.ffn_up output output_norm token_embd "
#define KINDS_OPENELM \
    "blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q_norm blk.#.attn_qkv blk.#.ffn_down " \
    "blk.#.ffn_gate blk.#.ffn_norm output output_norm token_embd "
#define KINDS_REFACT \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.ffn_down blk.#.ffn_gate " \
    "blk.#.ffn_norm output output_norm token_embd "
#define KINDS_CHAMELEON \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up output output_norm " \
    "token_embd "
#define KINDS_BERT \
    "blk.#.attn_k blk.#.attn_output blk.#.attn_output_norm blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_up blk.#.layer_output_norm cls cls.output position_embd token_embd token_embd_norm " \
    "token_types "
#define KINDS_MODERN_BERT \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_norm blk.#.ffn_up cls cls.norm " \
    "cls.output output_norm token_embd token_embd_norm "
#define KINDS_NEO_BERT \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_norm blk.#.ffn_up cls cls.output " \
    "enc.output_norm token_embd "
#define KINDS_EUROBERT \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate " \
    "blk.#.ffn_norm blk.#.ffn_up output_norm token_embd "
#define KINDS_NOMIC_BERT \
    "blk.#.attn_output blk.#.attn_output_norm blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_up " \
    "blk.#.layer_output_norm token_embd token_embd_norm token_types "
#define KINDS_JINA_BERT_V2 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm_2 blk.#.attn_output blk.#.attn_output_norm " \
    "blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_up " \
    "blk.#.layer_output_norm cls token_embd token_embd_norm token_types "
#define KINDS_MAMBA \
    "blk.#.attn_norm blk.#.ssm_a blk.#.ssm_conv1d blk.#.ssm_d blk.#.ssm_dt blk.#.ssm_in blk.#.ssm_out " \
    "blk.#.ssm_x output output_norm token_embd "
#define KINDS_MAMBA2 \
    "blk.#.attn_norm blk.#.ssm_a blk.#.ssm_conv1d blk.#.ssm_d blk.#.ssm_dt blk.#.ssm_in blk.#.ssm_norm blk.#.ssm_out " \
    "output output_norm token_embd "
#define KINDS_GRANITEHYBRID \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_down_exps " \
    "blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm " \
    "blk.#.ffn_up blk.#.ffn_up_exps blk.#.ffn_up_shexp blk.#.ssm_a blk.#.ssm_conv1d blk.#.ssm_d blk.#.ssm_dt " \
    "blk.#.ssm_in blk.#.ssm_norm blk.#.ssm_out output output_norm token_embd "
#define KINDS_GRANITEMOE_SHARED \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down_exps " \
    "blk.#.ffn_down_shexp blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm " \
    "blk.#.ffn_up_exps blk.#.ffn_up_shexp output output_norm token_embd "
#define KINDS_LFM2 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v " \
    "blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up blk.#.shortconv.conv blk.#.shortconv.in_proj " \
    "blk.#.shortconv.out_proj output token_embd token_embd_norm "
#define KINDS_NEMOTRON_H \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_up " \
    "blk.#.ssm_a blk.#.ssm_conv1d blk.#.ssm_d blk.#.ssm_dt blk.#.ssm_in blk.#.ssm_norm blk.#.ssm_out output " \
    "output_norm token_embd "
#define KINDS_LFM2MOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm blk.#.attn_v " \
    "blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp " \
    "blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps blk.#.shortconv.conv blk.#.shortconv.in_proj " \
    "blk.#.shortconv.out_proj output token_embd token_embd_norm "
#define KINDS_FALCON_H1 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate " \
    "blk.#.ffn_norm blk.#.ffn_up blk.#.ssm_a blk.#.ssm_conv1d blk.#.ssm_d blk.#.ssm_dt blk.#.ssm_in blk.#.ssm_norm " \
    "blk.#.ssm_out output output_norm token_embd "
#define KINDS_RWKV6 \
    "blk.#.attn_norm blk.#.attn_norm_2 blk.#.channel_mix_key blk.#.channel_mix_lerp_k " \
    "blk.#.channel_mix_lerp_r blk.#.channel_mix_receptance blk.#.channel_mix_value blk.#.time_mix_decay " \
    "blk.#.time_mix_decay_w1 blk.#.time_mix_decay_w2 blk.#.time_mix_first blk.#.time_mix_gate " \
    "blk.#.time_mix_key blk.#.time_mix_lerp_g blk.#.time_mix_lerp_k blk.#.time_mix_lerp_r " \
    "blk.#.time_mix_lerp_v blk.#.time_mix_lerp_w blk.#.time_mix_lerp_x blk.#.time_mix_ln " \
    "blk.#.time_mix_output blk.#.time_mix_receptance blk.#.time_mix_value blk.#.time_mix_w1 " \
    "blk.#.time_mix_w2 output output_norm token_embd token_embd_norm "
#define KINDS_DBRX \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_output_norm blk.#.attn_qkv blk.#.ffn_down_exps " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_up_exps output output_norm token_embd "
#define KINDS_BITNET \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_sub_norm blk.#.attn_v " \
    "blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_sub_norm blk.#.ffn_up output_norm token_embd "
#define KINDS_GROK \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_output_norm blk.#.attn_q blk.#.attn_v " \
    "blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_exps " \
    "blk.#.layer_output_norm output output_norm token_embd "
#define KINDS_ARCTIC \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down " \
    "blk.#.ffn_down_exps blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm " \
    "blk.#.ffn_norm_exps blk.#.ffn_up blk.#.ffn_up_exps output output_norm token_embd "
#define KINDS_BLOOM \
    "blk.#.attn_norm blk.#.attn_output blk.#.attn_qkv blk.#.ffn_down blk.#.ffn_norm blk.#.ffn_up output " \
    "output_norm token_embd token_embd_norm "
#define KINDS_RWKV6QWEN2 \
    "blk.#.attn_norm blk.#.ffn_down blk.#.ffn_gate blk.#.ffn_norm blk.#.ffn_up blk.#.time_mix_decay " \
    "blk.#.time_mix_decay_w1 blk.#.time_mix_decay_w2 blk.#.time_mix_gate blk.#.time_mix_key " \
    "blk.#.time_mix_lerp_g blk.#.time_mix_lerp_k blk.#.time_mix_lerp_r blk.#.time_mix_lerp_v " \
    "blk.#.time_mix_lerp_w blk.#.time_mix_lerp_x blk.#.time_mix_output blk.#.time_mix_receptance " \
    "blk.#.time_mix_value blk.#.time_mix_w1 blk.#.time_mix_w2 output output_norm token_embd "
#define KINDS_WAVTOKENIZER_DEC \
    "conv1d convnext.#.dw convnext.#.gamma convnext.#.norm convnext.#.pw1 convnext.#.pw2 output " \
    "output_norm posnet.#.attn_k posnet.#.attn_norm posnet.#.attn_output posnet.#.attn_q posnet.#.attn_v " \
    "posnet.#.conv1 posnet.#.conv2 posnet.#.norm1 posnet.#.norm2 token_embd token_embd_norm "

/* Gemma 3n: Gemma 3's, its per-layer embeddings, AltUp and Laurel (namemap.c's gemma3n rows) */
#define KINDS_GEMMA3N KINDS_GEMMA3 \
    "per_layer_token_embd per_layer_model_proj per_layer_proj_norm altup_proj altup_unembd_proj blk.#.inp_gate " \
    "blk.#.proj blk.#.post_norm blk.#.altup_correct_coef blk.#.altup_correct_scale blk.#.altup_predict_coef " \
    "blk.#.altup_router blk.#.altup_router_norm blk.#.laurel_l blk.#.laurel_r blk.#.laurel_post_norm "
/* Gemma 4: Gemma 3's, the per-layer embeddings, the layer scalar, the MoE block (namemap.c's gemma4 rows) */
#define KINDS_GEMMA4 KINDS_GEMMA3 \
    "per_layer_token_embd per_layer_model_proj per_layer_proj_norm blk.#.inp_gate blk.#.proj " \
    "blk.#.post_norm blk.#.layer_output_scale blk.#.pre_ffw_norm_2 blk.#.post_ffw_norm_1 blk.#.post_ffw_norm_2 " \
    "blk.#.ffn_gate_inp blk.#.ffn_gate_inp.scale blk.#.ffn_gate_up_exps blk.#.ffn_down_exps blk.#.ffn_down_exps.scale "
#define KINDS_AFMOE \
    "blk.#.attn_gate blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q " \
    "blk.#.attn_q_norm blk.#.attn_v blk.#.exp_probs_b.bias blk.#.ffn_down blk.#.ffn_down_exps " \
    "blk.#.ffn_down_shexp blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp " \
    "blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps blk.#.ffn_up_shexp blk.#.post_attention_norm " \
    "blk.#.post_ffw_norm output output_norm token_embd "

#define KINDS_BAILINGMOE \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down_exps " \
    "blk.#.ffn_down_shexp blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm " \
    "blk.#.ffn_up_exps blk.#.ffn_up_shexp output output_norm token_embd "

#define KINDS_RND1 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_exps " \
    "output output_norm token_embd "

#define KINDS_JAIS2 \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_norm " \
    "blk.#.ffn_up output output_norm token_embd "

#define KINDS_GROVEMOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down_chexps blk.#.ffn_down_exps blk.#.ffn_gate_chexps blk.#.ffn_gate_exps " \
    "blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_chexps blk.#.ffn_up_exps output output_norm token_embd "

#define KINDS_DREAM \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_gate " \
    "blk.#.ffn_norm blk.#.ffn_up output output_norm rope_freqs token_embd "

#define KINDS_LLADA_MOE \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.ffn_down_exps blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up_exps " \
    "output output_norm token_embd "
#define KINDS_JAMBA \
    "blk.#.attn_k blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_v blk.#.ffn_down blk.#.ffn_down_exps " \
    "blk.#.ffn_gate blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps blk.#.ssm_a " \
    "blk.#.ssm_b_norm blk.#.ssm_c_norm blk.#.ssm_conv1d blk.#.ssm_d blk.#.ssm_dt blk.#.ssm_dt_norm blk.#.ssm_in " \
    "blk.#.ssm_out blk.#.ssm_x output output_norm token_embd "
#define KINDS_HYV3 \
    "blk.#.attn_k blk.#.attn_k_norm blk.#.attn_norm blk.#.attn_output blk.#.attn_q blk.#.attn_q_norm " \
    "blk.#.attn_v blk.#.exp_probs_b blk.#.ffn_down blk.#.ffn_down_exps blk.#.ffn_down_shexp blk.#.ffn_gate " \
    "blk.#.ffn_gate_exps blk.#.ffn_gate_inp blk.#.ffn_gate_shexp blk.#.ffn_norm blk.#.ffn_up blk.#.ffn_up_exps " \
    "blk.#.ffn_up_shexp blk.#.nextn.eh_proj blk.#.nextn.embed_tokens blk.#.nextn.enorm blk.#.nextn.hnorm " \
    "blk.#.nextn.shared_head_head blk.#.nextn.shared_head_norm output output_norm token_embd "

static const cv_family FAMILIES[] = {
    {"LLaMAForCausalLM|LlamaForCausalLM|MistralForCausalLM|MixtralForCausalLM", "llama", LLAMA_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK, "num_local_experts", NULL},
    {"Qwen2ForCausalLM", "qwen2", QWEN2_META, NULL, KINDS_QWEN2, CV_V_SPM | CV_V_BPE, 0, NULL, NULL},
    {"Qwen2MoeForCausalLM", "qwen2moe", QWEN2MOE_META, NULL, KINDS_QWEN2MOE, CV_V_BPE, 0, "num_experts", NULL},
    {"GemmaForCausalLM", "gemma", GEMMA_META, GEMMA_TENSORS, KINDS_GEMMA, CV_V_SPM, CV_F_SPACE_PREFIX_FALSE | CV_F_EOT_107 | CV_F_NORM_ADD1, NULL, NULL},
    {"Gemma2ForCausalLM", "gemma2", GEMMA2_META, GEMMA2_TENSORS, KINDS_GEMMA2, CV_V_SPM, CV_F_SPACE_PREFIX_FALSE | CV_F_NORM_ADD1, NULL, NULL},
    {"Phi3ForCausalLM", "phi3", PHI3_META, NULL, KINDS_PHI3, CV_V_SPM | CV_V_BPE, CV_F_PHI3_VOCAB, NULL, &lgg__cv_hooks_phi3},
    /* Phi-4-reasoning-vision's text: Phi-3's, which only master converts under this name (families/phi3.c) */
    {"Phi4ForCausalLMV", "phi3", PHI3_META, NULL, KINDS_PHI3, CV_V_SPM | CV_V_BPE, CV_F_PHI3_VOCAB | CV_F_MASTER, NULL,
     &lgg__cv_hooks_phi4v},
    {"PhiMoEForCausalLM", "phimoe", PHIMOE_META, NULL, KINDS_PHIMOE, CV_V_SPM | CV_V_BPE, CV_F_PHI3_VOCAB, "num_local_experts", &lgg__cv_hooks_phi3},
    {"PlamoForCausalLM", "plamo", PLAMO_META, NULL, KINDS_PLAMO, CV_V_SPM, 0, NULL, &lgg__cv_hooks_plamo},
    {"DeepseekForCausalLM", "deepseek", DEEPSEEK_META, NULL, KINDS_DEEPSEEK, CV_V_SPM | CV_V_BPE, CV_F_PERMUTE_QK, "n_routed_experts", NULL},
    {"DeepseekV2ForCausalLM|DeepseekV3ForCausalLM", "deepseek2", DEEPSEEK2_META, NULL, KINDS_DEEPSEEK2, CV_V_BPE,
     CV_F_SKIP_PAST_LAYERS, "n_routed_experts", NULL},
    {"CohereForCausalLM", "command-r", COMMAND_R_META, NULL, KINDS_COMMAND_R, CV_V_BPE, 0, NULL, NULL},
    {"Cohere2ForCausalLM", "cohere2", COHERE2_META, NULL, KINDS_COMMAND_R, CV_V_BPE, 0, NULL, NULL},
    /* Cohere2 MoE (North-Mini-Code): Cohere2's parallel block with leading dense blocks, routed experts stacked
       down, gate, up, optional shared experts, zero biases dropped (families/cohere2moe.c) */
    {"Cohere2MoeForCausalLM", "cohere2moe", COHERE2MOE_META, NULL, KINDS_COHERE2MOE, CV_V_BPE, CV_F_MASTER, "num_experts",
     &lgg__cv_hooks_cohere2moe},
    {"Starcoder2ForCausalLM", "starcoder2", BASE_META, NULL, KINDS_STARCODER2, CV_V_BPE, 0, NULL, NULL},
    {"OlmoForCausalLM|OLMoForCausalLM", "olmo", OLMO_META, NULL, KINDS_OLMO, CV_V_BPE, CV_F_PERMUTE_QK, NULL, NULL},
    {"Olmo2ForCausalLM", "olmo2", BASE_META, OLMO2_TENSORS, KINDS_OLMO2, CV_V_BPE, 0, NULL, NULL},
    {"OlmoeForCausalLM", "olmoe", OLMOE_META, NULL, KINDS_OLMOE, CV_V_BPE, 0, "num_experts", NULL},
    {"StableLmForCausalLM|StableLMEpochForCausalLM|LlavaStableLMEpochForCausalLM", "stablelm", STABLELM_META,
     STABLELM_TENSORS, KINDS_QWEN2, CV_V_BPE, 0, NULL, NULL},
    {"PhiForCausalLM", "phi2", PHI2_META, NULL, KINDS_PHI2, CV_V_BPE, 0, NULL, NULL},
    {"GPT2LMHeadModel", "gpt2", GPT2_META, NULL, KINDS_GPT2, CV_V_BPE, CV_F_CONV1D, NULL, &lgg__cv_hooks_gpt2},
    /* ruGPT-3 XL: GPT-2's tensors under llama's names, q/k/v fused (families/gpt2.c), master's base keys */
    {"RuGPT3XLForCausalLM", "gpt2", MASTER_BASE_META, RUGPT3XL_TENSORS, KINDS_GPT2, CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_rugpt3xl},
    {"GPTNeoXForCausalLM", "gptneox", GPTNEOX_META, NULL, KINDS_PHI3, CV_V_BPE, 0, NULL, &lgg__cv_hooks_gptneox},
    {"FalconForCausalLM|RWForCausalLM", "falcon", FALCON_META, NULL, KINDS_FALCON, CV_V_BPE, 0, NULL, &lgg__cv_hooks_falcon},
    {"GraniteForCausalLM", "granite", GRANITE_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_NO_HEAD_DIM | CV_F_PERMUTE_QK, "num_local_experts", NULL},
    {"ExaoneForCausalLM", "exaone", EXAONE_META, NULL, KINDS_QWEN2, CV_V_BPE, CV_F_LLAMA_ROPE_FREQS, NULL, &lgg__cv_hooks_exaone},
    {"InternLM2ForCausalLM", "internlm2", INTERNLM2_META, NULL, KINDS_INTERNLM2, CV_V_SPM, CV_F_INTERNLM2_VOCAB, NULL, &lgg__cv_hooks_internlm2},
    {"InternLM3ForCausalLM", "llama", INTERNLM3_META, NULL, KINDS_LLAMA, CV_V_SPM, CV_F_INTERNLM3_VOCAB | CV_F_PERMUTE_QK, NULL, NULL},
    {"GraniteMoeForCausalLM", "granitemoe", GRANITE_META, NULL, KINDS_GRANITEMOE, CV_V_SPM | CV_V_BPE,
     CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_NO_HEAD_DIM | CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_granitemoe},
    /* ChatGLM / GLM-4: hooks in families/chatglm.c */
    {"GlmForCausalLM|ChatGLMModel|ChatGLMForConditionalGeneration", "chatglm", CHATGLM_META, NULL, KINDS_CHATGLM, 0, 0, NULL, &lgg__cv_hooks_chatglm},
    /* Nemotron: qwen2's names (biased norms, no gate_proj), +1 on the norm weights (families/nemotron.c) */
    {"NemotronForCausalLM", "nemotron", NEMOTRON_META, NULL, KINDS_QWEN2, CV_V_SPM, 0, NULL, &lgg__cv_hooks_nemotron},
    /* MiniCPM: base keys, then its scale factors (families/minicpm.c) */
    {"MiniCPMForCausalLM", "minicpm", BASE_META, NULL, KINDS_LLAMA, CV_V_SPM, CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_minicpm},
    /* MiniCPM 3: DeepSeek V2's latent attention names, a dense MLP, nothing permuted */
    {"MiniCPM3ForCausalLM", "minicpm3", MINICPM3_META, NULL, KINDS_DEEPSEEK2, CV_V_SPM, 0, NULL, &lgg__cv_hooks_minicpm3},
    /* T5: tensors and vocabulary from families/t5.c and ugm.c */
    {"T5WithLMHeadModel|T5ForConditionalGeneration|MT5ForConditionalGeneration|UMT5ForConditionalGeneration", "t5",
     T5_META, NULL, KINDS_T5, 0, 0, NULL, &lgg__cv_hooks_t5},
    {"T5EncoderModel", "t5encoder", T5ENCODER_META, NULL, KINDS_T5, 0, 0, NULL, &lgg__cv_hooks_t5},
    {"OrionForCausalLM", "orion", ORION_META, NULL, KINDS_QWEN2, CV_V_SPM, 0, NULL, NULL}, /* norms with biases, no permutation */
    {"XverseForCausalLM", "xverse", XVERSE_META, NULL, KINDS_LLAMA, 0, CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_xverse}, /* vocabulary: families/xverse.c */
    {"JAISLMHeadModel", "jais", JAIS_META, NULL, KINDS_JAIS, CV_V_BPE, CV_F_CONV1D, NULL, &lgg__cv_hooks_jais},
    {"OpenELMForCausalLM", "openelm", OPENELM_META, NULL, KINDS_OPENELM, CV_V_SPM, 0, NULL, &lgg__cv_hooks_openelm},
    {"GPTRefactForCausalLM", "refact", REFACT_META, NULL, KINDS_REFACT, CV_V_BPE, 0, NULL, &lgg__cv_hooks_refact},
    {"CodeShellForCausalLM", "codeshell", CODESHELL_META, NULL, KINDS_GPT2, CV_V_BPE, 0, NULL, &lgg__cv_hooks_codeshell},
    {"GPTBigCodeForCausalLM", "starcoder", STARCODER_META, NULL, KINDS_GPT2, CV_V_BPE, 0, NULL, NULL},
    {"ChameleonForConditionalGeneration|ChameleonForCausalLM", "chameleon", BASE_META, NULL, KINDS_CHAMELEON, CV_V_BPE, CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_chameleon},
    {"BertModel|BertForMaskedLM|CamembertModel", "bert", BERT_META, NULL, KINDS_BERT, 0, 0, NULL, &lgg__cv_hooks_bert},
    {"RobertaModel", "bert", BERT_META, NULL, KINDS_BERT, 0, 0, NULL, &lgg__cv_hooks_roberta},
    {"NomicBertModel", "nomic-bert", BERT_META, NULL, KINDS_NOMIC_BERT, 0, 0, NULL, &lgg__cv_hooks_nomic_bert},
    {"XLMRobertaModel|XLMRobertaForSequenceClassification", "bert", BERT_META, NULL, KINDS_BERT, 0, 0, NULL, &lgg__cv_hooks_xlmr},
    {"JinaBertModel|JinaBertForMaskedLM", "jina-bert-v2", BERT_META, NULL, KINDS_JINA_BERT_V2, 0, 0, NULL, &lgg__cv_hooks_jina_bert},
    {"MambaForCausalLM|MambaLMHeadModel|FalconMambaForCausalLM", "mamba", MAMBA_META, NULL, KINDS_MAMBA, 0, 0, NULL, &lgg__cv_hooks_mamba},
    {"Rwkv6ForCausalLM", "rwkv6", MAMBA_META, NULL, KINDS_RWKV6, 0, 0, NULL, &lgg__cv_hooks_rwkv6},
    {"BaichuanForCausalLM|BaiChuanForCausalLM", "baichuan", BAICHUAN_META, NULL, KINDS_JAIS, CV_V_SPM, 0, NULL, &lgg__cv_hooks_baichuan},
    {"DbrxForCausalLM", "dbrx", MAMBA_META, NULL, KINDS_DBRX, CV_V_BPE, 0, NULL, &lgg__cv_hooks_dbrx},
    {"DeciLMForCausalLM", "deci", NO_META, NULL, KINDS_QWEN2, CV_V_BPE, CV_F_LLAMA_ROPE_FREQS, NULL, &lgg__cv_hooks_deci},
    {"BitnetForCausalLM", "bitnet", BITNET_META, BITNET_TENSORS, KINDS_BITNET, CV_V_SPM, 0, NULL, &lgg__cv_hooks_bitnet}, /* ternary weights: families/bitnet.c */
    {"GrokForCausalLM", "grok", BASE_META, NULL, KINDS_GROK, CV_V_SPM, 0, "num_local_experts", NULL},
    {"ArcticForCausalLM", "arctic", ARCTIC_META, ARCTIC_TENSORS, KINDS_ARCTIC, CV_V_SPM, CV_F_ARCTIC_VOCAB | CV_F_PERMUTE_QK, "num_local_experts", NULL},
    {"MPTForCausalLM", "mpt", MAMBA_META, NULL, KINDS_PHI3, CV_V_BPE, 0, NULL, &lgg__cv_hooks_mpt},
    {"BloomForCausalLM|BloomModel", "bloom", MAMBA_META, NULL, KINDS_BLOOM, CV_V_BPE, 0, NULL, &lgg__cv_hooks_bloom},
    {"Qwen2VLForConditionalGeneration", "qwen2vl", BASE_META, NULL, KINDS_QWEN2, CV_V_SPM | CV_V_BPE, 0, NULL, &lgg__cv_hooks_qwen2vl},
    {"RWKV6Qwen2ForCausalLM", "rwkv6qwen2", MAMBA_META, RWKV6QWEN2_TENSORS, KINDS_RWKV6QWEN2, CV_V_SPM | CV_V_BPE, 0, NULL, &lgg__cv_hooks_rwkv6qwen2},
    {"WavTokenizerDec", "wavtokenizer-dec", WAVTOKENIZER_META, NULL, KINDS_WAVTOKENIZER_DEC, 0, 0, NULL, &lgg__cv_hooks_wavtokenizer}, /* families/wavtokenizer.c */
    {"QWenLMHeadModel", "qwen", QWEN_META, NULL, KINDS_JAIS, 0, 0, NULL, &lgg__cv_hooks_qwen},
    /* The families only llama.cpp master converts (CV_F_MASTER: its target by default). */
    /* Qwen3 and Qwen3-MoE: Qwen2's and Qwen2-MoE's names with q_norm/k_norm; a Qwen3 reranker refused
       (families/qwen3.c) */
    {"Qwen3ForCausalLM|Qwen3Model", "qwen3", QWEN3_META, NULL, KINDS_QWEN3, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_qwen3},
    /* Step 3.5 and Step 3.7's text: full and sliding blocks, head-wise gates, stacked experts, MTP blocks past the
       main ones (families/step3.c) */
    {"Step3p5ForCausalLM|Step3p7ForConditionalGeneration", "step35", QWEN3_META, NULL, KINDS_STEP35, CV_V_BPE, CV_F_MASTER,
     NULL, &lgg__cv_hooks_step35},
    /* Step3-VL's text: master's Qwen3Model over its text_config, the vision tower out (families/qwen3.c) */
    {"StepVLForConditionalGeneration", "qwen3", QWEN3_META, NULL, KINDS_QWEN3, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_step_vl},
    {"Qwen3MoeForCausalLM", "qwen3moe", QWEN3MOE_META, NULL, KINDS_QWEN3MOE, CV_V_BPE, CV_F_MASTER, "num_experts", NULL},
    /* SmolLM3: llama's names, permutation and vocabulary rules */
    {"SmolLM3ForCausalLM", "smollm3", SMOLLM3_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK, NULL, NULL},
    /* GLM-4.5/4.6 with its next-token-prediction block, GLM-4 0414: families/glm4.c */
    {"Glm4MoeForCausalLM", "glm4moe", GLM4MOE_META, GLM4MOE_TENSORS, KINDS_GLM4MOE, 0, CV_F_MASTER, "n_routed_experts",
     &lgg__cv_hooks_glm4moe},
    /* Solar Open: GLM-4.5's, with its own special tokens (families/glm4.c) */
    {"SolarOpenForCausalLM", "glm4moe", GLM4MOE_META, GLM4MOE_TENSORS, KINDS_GLM4MOE, 0, CV_F_MASTER, "n_routed_experts",
     &lgg__cv_hooks_solar_open},
    {"Glm4ForCausalLM", "glm4", GLM4_META, GLM4_TENSORS, KINDS_GLM4, 0, CV_F_MASTER, NULL, &lgg__cv_hooks_glm4},
    /* GLM-4.7-Flash: DeepSeek V2's latent attention as master writes it (kv_b split into k_b and v_b),
       master's --mtp and --no-mtp */
    {"Glm4MoeLiteForCausalLM", "deepseek2", GLM4MOELITE_META, NULL, KINDS_GLM4MOELITE, 0, CV_F_MASTER | CV_F_MTP,
     "n_routed_experts", &lgg__cv_hooks_glm4moelite},
    /* Gemma 3 (the text part of the multimodal checkpoint too) and EmbeddingGemma: norms + 1, q/k norms,
       the token embedding cut to the tokenizer, Gemma 3's parameters and vocabulary (families/gemma3.c) */
    {"Gemma3ForCausalLM|Gemma3ForConditionalGeneration", "gemma3", GEMMA3_META, OLMO2_TENSORS, KINDS_GEMMA3, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_NORM_ADD1, NULL, &lgg__cv_hooks_gemma3},
    {"Gemma3TextModel", "gemma-embedding", GEMMA3_META, OLMO2_TENSORS, KINDS_GEMMA3, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_NORM_ADD1,
     NULL, &lgg__cv_hooks_gemma_embedding},
    /* gpt-oss: MXFP4 experts written as MXFP4, sinks, the interleaved gate_up split (families/gpt_oss.c) */
    {"GptOssForCausalLM", "gpt-oss", GPTOSS_META, GPTOSS_TENSORS, KINDS_GPTOSS, CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_gptoss},
    /* ERNIE 4.5 and ERNIE 4.5 MoE: SentencePiece with add_space_prefix from tokenizer_config.json, "ernie."
       names, the fused matrices split, the MTP tensors left out (families/ernie.c) */
    {"Ernie4_5ForCausalLM|Ernie4_5_ForCausalLM", "ernie4_5", ERNIE_META, ERNIE_TENSORS, KINDS_QWEN2, CV_V_SPM,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG, NULL, &lgg__cv_hooks_ernie},
    /* PaddleOCR-VL's text: ERNIE 4.5's as "paddleocr" (M-RoPE sections from the base parameters), its vision parts
       left out (families/ernie.c) */
    {"PaddleOCRVLForConditionalGeneration", "paddleocr", ERNIE_META, ERNIE_TENSORS, KINDS_QWEN2, CV_V_SPM,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG, NULL, &lgg__cv_hooks_paddleocr},
    {"Ernie4_5_MoeForCausalLM", "ernie4_5-moe", ERNIEMOE_META, ERNIEMOE_TENSORS, KINDS_ERNIEMOE, CV_V_SPM,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG, "moe_num_experts", &lgg__cv_hooks_ernie_moe},
    /* EXAONE 4: norms after attention and the MLP only, q/k norms, llama 3's rope factors, the per-layer
       sliding-window pattern (families/exaone.c) */
    {"Exaone4ForCausalLM", "exaone4", EXAONE4_META, OLMO2_TENSORS, KINDS_EXAONE4, CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_exaone4},
    /* dots.llm1: DeepSeek-style MoE in Qwen2-MoE's names (experts stacked down, gate, up), q/k norms */
    {"Dots1ForCausalLM", "dots1", DOTS1_META, NULL, KINDS_DOTS1, CV_V_BPE, CV_F_MASTER, "n_routed_experts", NULL},
    /* MiniMax-M2: Mixtral's experts (w1, w2, w3), q/k norms over all heads, the router's score correction */
    {"MiniMaxM2ForCausalLM", "minimax-m2", MINIMAXM2_META, NULL, KINDS_MINIMAXM2, CV_V_BPE, CV_F_MASTER, NULL, NULL},
    /* MiniMax-Text-01 and -M1: lightning-attention blocks (qkv_proj, output_gate, out_proj, norm) and softmax ones,
       Mixtral's experts; suppressed zero embeddings, the residual scale and the template (families/minimax.c) */
    {"MiniMaxText01ForCausalLM|MiniMaxM1ForCausalLM", "minimax-01", QWEN3_META, NULL, KINDS_MINIMAX01, CV_V_BPE, CV_F_MASTER,
     "num_local_experts", &lgg__cv_hooks_minimax01},
    /* MiniMax-M3 (and its ...ForConditionalGeneration's text): M2's names, dense blocks, shared experts, the sparse
       attention's indexer; Gemma-style norms (families/minimax.c) */
    {"MiniMaxM3SparseForCausalLM|MiniMaxM3SparseForConditionalGeneration", "minimax-m3", MINIMAXM3_META, NULL,
     KINDS_MINIMAXM3, CV_V_BPE, CV_F_MASTER, "num_local_experts", &lgg__cv_hooks_minimaxm3},
    /* MiMo-V2-Flash and MiMo-V2.5's text: full and sliding-window attention, sinks, routed experts, three MTP
       blocks; master's base keys, then its own (families/mimo.c) */
    {"MiMoV2FlashForCausalLM|MiMoV2ForCausalLM", "mimo2", QWEN3_META, MIMO2_TENSORS, KINDS_MIMO2, CV_V_BPE,
     CV_F_MASTER | CV_F_QWEN_MTP, "n_routed_experts", &lgg__cv_hooks_mimo2},
    /* Ling 2.0: the fused qkv kept, q/k norms, experts stacked down, gate, up, the router's expert_bias, MTP
       blocks (families/bailingmoe.c) */
    {"BailingMoeV2ForCausalLM", "bailingmoe2", BAILINGMOE2_META, NULL, KINDS_BAILINGMOE2, CV_V_BPE, CV_F_MASTER,
     "num_experts", &lgg__cv_hooks_bailingmoe2},
    /* Ling 3.0: KDA linear attention with latent attention every layer_group_size layers, Ling 2.0's MoE and
       next-token-prediction blocks (--mtp, --no-mtp; families/bailingmoe.c) */
    {"BailingMoeV3ForCausalLM", "bailingmoe3", BAILINGMOE3_META, BAILINGMOE3_TENSORS, KINDS_BAILINGMOE3, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP, "num_experts", &lgg__cv_hooks_bailingmoe3},
    /* Sarvam-MoE: Ling 2.0's, the full head as the rope dimension, the expert_bias made zero-mean
       (families/bailingmoe.c) */
    {"SarvamMoEForCausalLM|modeling_sarvam_moe.SarvamMoEForCausalLM", "bailingmoe2", BAILINGMOE2_META, NULL,
     KINDS_BAILINGMOE2, CV_V_BPE, CV_F_MASTER, "num_experts", &lgg__cv_hooks_sarvam},
    /* SmallThinker: a primary router, experts up/gate/down stacked down, gate, up (families/smallthinker.c) */
    {"SmallThinkerForCausalLM", "smallthinker", SMALLTHINKER_META, NULL, KINDS_SMALLTHINKER, CV_V_BPE, CV_F_MASTER,
     "moe_num_primary_experts", &lgg__cv_hooks_smallthinker},
    /* EXAONE MoE: EXAONE 4's keys and rope factors, pre-norm blocks with DeepSeek-style experts, the mtp.*
       block renamed after the main ones (families/exaone.c) */
    /* EXAONE 4.5's text: EXAONE 4 with its text_config, vision tower out, one MTP block (families/exaone.c) */
    {"Exaone4_5_ForConditionalGeneration", "exaone4", EXAONE4_META, EXAONE45_TENSORS, KINDS_EXAONE4, CV_V_BPE, CV_F_MASTER,
     NULL, &lgg__cv_hooks_exaone45},
    {"ExaoneMoEForCausalLM|ExaoneMoeForCausalLM", "exaone-moe", EXAONE4_META, EXAONEMOE_TENSORS, KINDS_EXAONEMOE, CV_V_BPE,
     CV_F_MASTER, "num_experts", &lgg__cv_hooks_exaonemoe},
    /* Mistral 3 / Ministral 3: master's LlamaModel (SmolLM3's keys) as mistral3, the multimodal checkpoint's
       text part, ministral3's yarn keys (families/mistral3.c) */
    {"Ministral3ForCausalLM|Mistral3ForConditionalGeneration", "mistral3", SMOLLM3_META, NULL, KINDS_LLAMA,
     CV_V_SPM | CV_V_BPE, CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS |
     CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_mistral3},
    /* Llama 4: dense and MoE blocks, a shared expert, experts stored (experts, in, out) (families/llama4.c) */
    {"Llama4ForCausalLM|Llama4ForConditionalGeneration", "llama4", LLAMA4_META, NULL, KINDS_LLAMA4, CV_V_BPE,
     CV_F_MASTER | CV_F_LLAMA_ROPE_FREQS, NULL, &lgg__cv_hooks_llama4},
    /* OLMo 3: OLMo 2's tensors, master's base parameters, the sliding window and its layers (families/olmo3.c) */
    {"Olmo3ForCausalLM", "olmo2", QWEN3_META, OLMO2_TENSORS, KINDS_OLMO2, CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_olmo3},
    /* Seed-OSS: a row (master's base parameters, post_attention_layernorm as post_attention_norm) */
    {"SeedOssForCausalLM", "seed_oss", QWEN3_META, OLMO2_TENSORS, KINDS_SEED_OSS, CV_V_BPE, CV_F_MASTER, NULL, NULL},
    /* Arcee (AFM): master's LlamaModel without a gate, its pooling type (families/arcee.c) */
    {"ArceeForCausalLM", "arcee", SMOLLM3_META, NULL, KINDS_ARCEE, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK, NULL,
     &lgg__cv_hooks_arcee},
    /* Apertus: master's LlamaModel unpermuted, q/k norms, no gate, its xIELU scalars as xielu.* arrays
       (families/apertus.c) */
    {"ApertusForCausalLM", "apertus", SMOLLM3_META, NULL, KINDS_APERTUS, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS, NULL, &lgg__cv_hooks_apertus},
    /* master's LlamaModel as llama for names b4747 does not know: IQuestCoder, LLaVA's text part, the bare
       LlamaModel (its names get "model.") (families/llama.c) */
    {"IQuestCoderForCausalLM|LlavaForConditionalGeneration", "llama", SMOLLM3_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK,
     "num_local_experts", &lgg__cv_hooks_llama_master},
    /* CogVLM's text: master's LlamaModel as cogvlm, the language expert's tensors (families/llama.c) */
    {"CogVLMForCausalLM", "cogvlm", SMOLLM3_META, COGVLM_TENSORS, KINDS_COGVLM, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK, NULL,
     &lgg__cv_hooks_cogvlm},
    {"LlamaModel", "llama", SMOLLM3_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK,
     "num_local_experts", &lgg__cv_hooks_llama_bare},
    /* Maincoder: a row (master's base parameters, the rope dimension from head_dim, q/k norms) */
    {"MaincoderForCausalLM", "maincoder", MAINCODER_META, NULL, KINDS_MAINCODER, CV_V_BPE, CV_F_MASTER, NULL, NULL},
    /* Nanbeige: master's LlamaModel, then its loop keys (families/nanbeige.c) */
    {"NanbeigeForCausalLM", "nanbeige", SMOLLM3_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK, NULL,
     &lgg__cv_hooks_nanbeige},
    /* Mellum: q/k norms, experts stacked down, gate, up, its sliding window (families/mellum.c) */
    /* PLM: a row (DeepSeek V2's latent attention names without q_lora, no gate; its own MLA keys) */
    {"PLMForCausalLM", "plm", PLM_META, NULL, KINDS_PLM, CV_V_BPE, CV_F_MASTER, NULL, NULL},
    /* openPangu-Embedded: SentencePiece, the tied lm_head dropped (families/pangu.c) */
    {"PanguEmbeddedForCausalLM", "pangu-embedded", PANGU_META, NULL, KINDS_QWEN2, CV_V_SPM,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG, NULL, &lgg__cv_hooks_pangu},
    {"MellumForCausalLM", "mellum", QWEN3_META, NULL, KINDS_MELLUM, CV_V_BPE, CV_F_MASTER, "lgg.experts",
     &lgg__cv_hooks_mellum},
    /* Mamba 2: Mamba's names, conv1d squeezed, A and D (n, 1), the gated norm by groups (families/mamba.c) */
    {"Mamba2ForCausalLM", "mamba2", MAMBA_META, NULL, KINDS_MAMBA2, 0, CV_F_MASTER, NULL, &lgg__cv_hooks_mamba2},
    /* Granite 4 hybrids and Bamba: Mamba 2 and attention blocks, GraniteMoE's experts, a shared MLP
       (families/granite_hybrid.c); GraniteMoeShared: GraniteMoE with the shared MLP */
    {"GraniteMoeHybridForCausalLM|BambaForCausalLM", "granitehybrid", GRANITE_MASTER_META, NULL, KINDS_GRANITEHYBRID, 0,
     CV_F_MASTER | CV_F_NO_HEAD_DIM | CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_granite_hybrid},
    /* LFM2: short-convolution and attention blocks (families/lfm2.c) */
    {"LFM2ForCausalLM|Lfm2ForCausalLM", "lfm2", LFM2_META, NULL, KINDS_LFM2, CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_lfm2},
    {"Lfm2MoeForCausalLM", "lfm2moe", LFM2MOE_META, NULL, KINDS_LFM2MOE, CV_V_BPE, CV_F_MASTER, "num_experts",
     &lgg__cv_hooks_lfm2moe},
    /* Nemotron-H (dense): the Granite hybrid's code with its block pattern (families/granite_hybrid.c) */
    {"NemotronHForCausalLM", "nemotron_h", GRANITE_MASTER_META, NULL, KINDS_NEMOTRON_H, 0,
     CV_F_MASTER | CV_F_NO_HEAD_DIM | CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_nemotron_h},
    /* Falcon-H1: Mamba 2, attention and an MLP in every block, its multipliers applied (families/falcon_h1.c) */
    {"FalconH1ForCausalLM", "falcon-h1", MAMBA_META, FALCON_H1_TENSORS, KINDS_FALCON_H1, CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_falcon_h1},
    {"GraniteMoeSharedForCausalLM", "granitemoe", GRANITE_MASTER_META, NULL, KINDS_GRANITEMOE_SHARED, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_NO_HEAD_DIM | CV_F_PERMUTE_QK, NULL,
     &lgg__cv_hooks_granitemoe},
    /* Qwen2Model (gte-Qwen2's kind of encoder): Qwen2's names under "model.", master's base parameters and the
       pooling type (families/qwen3.c) */
    {"Qwen2Model", "qwen2", QWEN3_META, NULL, KINDS_QWEN2, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_qwen2model},
    /* DeepSeek V2 and V3 with target master: GLM-4.7-Flash's DeepSeek V2 (kv_b split, head_count_kv 1, master's
       base parameters) without its next-token-prediction layers, the byte-level BPE vocabulary (families/glm4.c) */
    {"DeepseekV2ForCausalLM|DeepseekV3ForCausalLM", "deepseek2", GLM4MOELITE_META, NULL, KINDS_GLM4MOELITE, CV_V_BPE,
     CV_F_MASTER_TWIN | CV_F_SKIP_PAST_LAYERS, "n_routed_experts", &lgg__cv_hooks_deepseek2_master},
    /* b4747's families with target master where master's keys differ: its base parameters (their order, the
       expert count among them, the epsilon from norm_eps), then the family's own (llama.cpp master's
       conversion/ modules; tests/data/convert-master-sweep.tsv holds master's bytes for each old checkpoint) */
    {"Qwen2MoeForCausalLM", "qwen2moe", QWEN3MOE_META, NULL, KINDS_QWEN2MOE, CV_V_BPE, CV_F_MASTER_TWIN, "num_experts", NULL},
    {"DeepseekForCausalLM", "deepseek", DEEPSEEK_MASTER_META, NULL, KINDS_DEEPSEEK, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER_TWIN | CV_F_PERMUTE_QK, "n_routed_experts", NULL},
    {"OlmoeForCausalLM", "olmoe", OLMOE_MASTER_META, NULL, KINDS_OLMOE, CV_V_BPE, CV_F_MASTER_TWIN, "num_experts", NULL},
    {"InternLM2ForCausalLM", "internlm2", QWEN3_META, NULL, KINDS_INTERNLM2, CV_V_SPM,
     CV_F_MASTER_TWIN | CV_F_INTERNLM2_VOCAB, NULL, &lgg__cv_hooks_internlm2},
    {"InternLM3ForCausalLM", "llama", SMOLLM3_META, NULL, KINDS_LLAMA, CV_V_SPM,
     CV_F_MASTER_TWIN | CV_F_INTERNLM3_VOCAB | CV_F_PERMUTE_QK, NULL, NULL},
    {"NemotronForCausalLM", "nemotron", NEMOTRON_MASTER_META, NULL, KINDS_QWEN2, CV_V_SPM, CV_F_MASTER_TWIN, NULL,
     &lgg__cv_hooks_nemotron},
    {"XverseForCausalLM", "xverse", XVERSE_MASTER_META, NULL, KINDS_LLAMA, 0, CV_F_MASTER_TWIN | CV_F_PERMUTE_QK, NULL,
     &lgg__cv_hooks_xverse},
    /* Qwen3-Next: linear attention, gated attention, MoE with a shared expert, its MTP block (families/qwen3next.c) */
    {"Qwen3NextForCausalLM", "qwen3next", QWEN3NEXT_META, QWEN3NEXT_TENSORS, KINDS_QWEN3NEXT, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_QWEN_MTP | CV_F_NORM_ADD1 | CV_F_GATE_UP_EXPS, "num_experts", &lgg__cv_hooks_qwen3next},
    /* Qwen3.5 and Qwen3.5-MoE: Qwen3-Next's with separate q/k/v, z, beta, alpha projections and tiled value heads */
    {"Qwen3_5ForCausalLM", "qwen35", QWEN3NEXT_META, QWEN3NEXT_TENSORS, KINDS_QWEN35, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_QWEN_MTP | CV_F_NORM_ADD1, NULL, &lgg__cv_hooks_qwen35},
    {"Qwen3_5MoeForCausalLM", "qwen35moe", QWEN3NEXT_META, QWEN3NEXT_TENSORS, KINDS_QWEN35MOE, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_QWEN_MTP | CV_F_NORM_ADD1 | CV_F_GATE_UP_EXPS, "num_experts", &lgg__cv_hooks_qwen35},
    /* their multimodal checkpoints' text (text_config, language_model., the vision tower dropped) */
    {"Qwen3_5ForConditionalGeneration", "qwen35", QWEN3NEXT_META, QWEN3NEXT_TENSORS, KINDS_QWEN35, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_QWEN_MTP | CV_F_NORM_ADD1, NULL, &lgg__cv_hooks_qwen35_vl},
    /* MiniCPM-V 4.6's text: Qwen3.5's multimodal checkpoint without its merger and MTP tensors, the MTP blocks still
       counted (--mtp, --no-mtp; families/qwen3next.c) */
    {"MiniCPMV4_6ForConditionalGeneration", "qwen35", QWEN3NEXT_META, QWEN3NEXT_TENSORS, KINDS_QWEN35, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_QWEN_MTP | CV_F_NORM_ADD1, NULL, &lgg__cv_hooks_minicpmv46},
    {"Qwen3_5MoeForConditionalGeneration", "qwen35moe", QWEN3NEXT_META, QWEN3NEXT_TENSORS, KINDS_QWEN35MOE, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_QWEN_MTP | CV_F_NORM_ADD1 | CV_F_GATE_UP_EXPS, "num_experts", &lgg__cv_hooks_qwen35_vl},
    /* Gemma 3n (the text of the multimodal checkpoint too): Gemma 3's without norm + 1, AltUp's projections
       stacked, the embeddings padded to vocab_size, its keys (families/gemma3n.c) */
    {"Gemma3nForCausalLM|Gemma3nForConditionalGeneration", "gemma3n", GEMMA3_META, OLMO2_TENSORS, KINDS_GEMMA3N,
     CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_gemma3n},
    /* Qwen3-VL, Qwen3-VL-MoE, Qwen3-Omni and Qwen3-ASR: the text as Qwen3's and Qwen3-MoE's, deepstack count (families/qwen3vl.c) */
    {"Qwen3VLForConditionalGeneration", "qwen3vl", QWEN3_META, NULL, KINDS_QWEN3, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_qwen3vl},
    {"Qwen3VLMoeForConditionalGeneration", "qwen3vlmoe", QWEN3MOE_META, QWEN3VLMOE_TENSORS, KINDS_QWEN3VLMOE, CV_V_BPE,
     CV_F_MASTER, "num_experts", &lgg__cv_hooks_qwen3vlmoe},
    {"Qwen3OmniMoeForConditionalGeneration", "qwen3vlmoe", QWEN3MOE_META, QWEN3VLMOE_TENSORS, KINDS_QWEN3VLMOE, CV_V_BPE,
     CV_F_MASTER, "num_experts", &lgg__cv_hooks_qwen3omni},
    {"Qwen3ASRForConditionalGeneration", "qwen3vl", QWEN3_META, NULL, KINDS_QWEN3, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_qwen3asr},
    /* Qwen2.5-VL, the bare Qwen2VLModel, Qwen2.5-Omni's thinker, and Qwen2-VL with target master: master's base
       parameters (the mrope sections among them) over the text_config (families/qwen2vl.c) */
    {"Qwen2_5_VLForConditionalGeneration|Qwen2VLModel|Qwen2_5OmniModel", "qwen2vl", QWEN3_META, NULL, KINDS_QWEN2,
     CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_qwen2vl_master},
    {"Qwen2VLForConditionalGeneration", "qwen2vl", QWEN3_META, NULL, KINDS_QWEN2, CV_V_SPM | CV_V_BPE, CV_F_MASTER_TWIN, NULL,
     &lgg__cv_hooks_qwen2vl_master},
    /* GLM-4V and GLM-OCR (their q/k rows in NeoX order under M-RoPE), GLM-4.5V: the text as GLM-4's and GLM-4.5's */
    {"Glm4vForConditionalGeneration", "glm4", GLM4_META, GLM4_TENSORS, KINDS_GLM4, 0, CV_F_MASTER, NULL, &lgg__cv_hooks_glm4v},
    {"GlmOcrForConditionalGeneration", "glm4", GLMOCR_META, GLM4_TENSORS, KINDS_GLMOCR, 0, CV_F_MASTER, NULL,
     &lgg__cv_hooks_glmocr},
    {"Glm4vMoeForConditionalGeneration", "glm4moe", GLM4MOE_META, GLM4MOE_TENSORS, KINDS_GLM4MOE, 0, CV_F_MASTER,
     "n_routed_experts", &lgg__cv_hooks_glm4vmoe},
    /* Sarashina2-Vision's text: master's LlamaModel under "llm." (families/sarashina2.c) */
    {"Sarashina2VisionForCausalLM", "llama", SMOLLM3_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK,
     "num_local_experts", &lgg__cv_hooks_sarashina2},
    /* BERT's and RoBERTa's sequence classifiers (id2label as classifier.output_labels, the single projection as
       cls.output), DistilBERT ("distilbert." and its masked-LM head dropped): families/bert.c */
    {"BertForSequenceClassification", "bert", BERT_MASTER_META, NULL, KINDS_BERT, 0, CV_F_MASTER, NULL, &lgg__cv_hooks_bert},
    {"RobertaForSequenceClassification", "bert", BERT_MASTER_META, NULL, KINDS_BERT, 0, CV_F_MASTER, NULL, &lgg__cv_hooks_roberta},
    {"DistilBertModel|DistilBertForMaskedLM|DistilBertForSequenceClassification", "bert", DISTILBERT_META, NULL, KINDS_BERT, 0,
     CV_F_MASTER, NULL, &lgg__cv_hooks_distilbert},
    /* ModernBERT (fused qkv, a GLU pair as ffn_up, its local attention window), NeoBERT (SwiGLU, RMS norms, rope),
       EuroBERT and Jina v5 (Llama's names, not causal): families/bert.c */
    {"ModernBertModel|ModernBertForMaskedLM|ModernBertForSequenceClassification", "modern-bert", BERT_MASTER_META, NULL,
     KINDS_MODERN_BERT, 0, CV_F_MASTER, NULL, &lgg__cv_hooks_modern_bert},
    {"NeoBERT|NeoBERTLMHead|NeoBERTForSequenceClassification", "neo-bert", BERT_MASTER_META, NULL, KINDS_NEO_BERT, 0,
     CV_F_MASTER, NULL, &lgg__cv_hooks_neo_bert},
    {"EuroBertModel|JinaEmbeddingsV5Model", "eurobert", BERT_MASTER_META, NULL, KINDS_EUROBERT, 0, CV_F_MASTER, NULL,
     &lgg__cv_hooks_eurobert},
    /* LFM2's ColBERT and embedding models (bare names, master's pooling; the bidirectional one not causal) and
       llama-embed (master's LlamaModel under its own architecture name): families/lfm2.c, families/llama.c */
    {"Lfm2Model|Lfm2BidirectionalModel", "lfm2", LFM2_META, NULL, KINDS_LFM2, CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_lfm2_embed},
    {"LlamaBidirectionalModel", "llama-embed", SMOLLM3_META, NULL, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_PERMUTE_QK, "num_local_experts",
     &lgg__cv_hooks_llama_embed},
    /* UMT5Model: master's T5 (families/t5.c) */
    {"UMT5Model", "t5", UMT5_META, NULL, KINDS_T5, 0, CV_F_MASTER, NULL, &lgg__cv_hooks_t5},
    {"T5WithLMHeadModel|T5ForConditionalGeneration|MT5ForConditionalGeneration|UMT5ForConditionalGeneration", "t5",
     UMT5_META, NULL, KINDS_T5, 0, CV_F_MASTER_TWIN, NULL, &lgg__cv_hooks_t5},
    /* Grok: master's base keys, then its softcapping and scales (families/grok.c); Grok1ForCausalLM
       (Grok 2's name) the same class */
    {"GrokForCausalLM", "grok", QWEN3_META, NULL, KINDS_GROK, CV_V_SPM | CV_V_BPE, CV_F_MASTER_TWIN, "num_local_experts",
     &lgg__cv_hooks_grok},
    {"Grok1ForCausalLM", "grok", QWEN3_META, NULL, KINDS_GROK, CV_V_SPM | CV_V_BPE, CV_F_MASTER, "num_local_experts",
     &lgg__cv_hooks_grok},
    /* AFMoE (Trinity): master's LlamaModel unpermuted with gated attention, four norms, experts stacked
       gate, up, down, the router's expert_bias (a row) */
    {"AfmoeForCausalLM", "afmoe", AFMOE_META, AFMOE_TENSORS, KINDS_AFMOE, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS, "num_experts", NULL},
    /* Bailing MoE (Ling-lite, Ling-plus): query_key_value split and q/k permuted, experts stacked down, gate, up,
       norm_head refused (families/bailingmoe.c) */
    {"BailingMoeForCausalLM", "bailingmoe", BAILINGMOE_META, BAILINGMOE_TENSORS, KINDS_BAILINGMOE, CV_V_BPE, CV_F_MASTER,
     "num_experts", &lgg__cv_hooks_bailingmoe},
    /* KORMo: master's Qwen2Model (master's base parameters, the pooling type) with its norms' names */
    {"KORMoForCausalLM", "qwen2", QWEN3_META, KORMO_TENSORS, KINDS_QWEN2, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_arcee},
    /* RND1: Qwen3-MoE's tensors and keys, bidirectional attention, the mask token (a row) */
    {"RND1", "rnd1", RND1_META, NULL, KINDS_RND1, CV_V_BPE, CV_F_MASTER, "num_experts", NULL},
    /* Jais 2: llama's names with biases and LayerNorms, an MLP without a gate (a row) */
    {"Jais2ForCausalLM", "jais2", JAIS2_META, NULL, KINDS_JAIS2, CV_V_BPE, CV_F_MASTER, NULL, NULL},
    /* GroveMoE: Qwen3-MoE's tensors with a second set of experts, the chunk experts (families/grovemoe.c) */
    {"GroveMoeForCausalLM|modeling_grove_moe.GroveMoeForCausalLM", "grovemoe", GROVEMOE_META, GROVEMOE_TENSORS,
     KINDS_GROVEMOE, CV_V_BPE, CV_F_MASTER, "num_experts", &lgg__cv_hooks_grovemoe},
    /* Dream: Qwen2's names, bidirectional attention, the mask token, its own BPE reading (families/dream.c) */
    {"DreamModel", "dream", DREAM_META, NULL, KINDS_DREAM, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_dream},
    /* LLaDA: OLMo-style names, q/k permuted as llama's, its own sizes' keys (families/llada.c) */
    {"LLaDAModelLM", "llada", LLADA_META, NULL, KINDS_DREAM, CV_V_BPE, CV_F_MASTER | CV_F_PERMUTE_QK, NULL,
     &lgg__cv_hooks_llada},
    /* LLaDA-MoE: Qwen3-MoE's tensors (experts stacked down, gate, up), the diffusion keys (a row) */
    {"LLaDAMoEModel|LLaDAMoEModelLM", "llada-moe", LLADA_MOE_META, NULL, KINDS_LLADA_MOE, CV_V_BPE, CV_F_MASTER,
     "num_experts", NULL},
    /* BitNet under master's second name: b4747's BitNet (families/bitnet.c), master's by default */
    {"BitNetForCausalLM", "bitnet", BITNET_META, BITNET_TENSORS, KINDS_BITNET, CV_V_SPM, CV_F_MASTER, NULL, &lgg__cv_hooks_bitnet},
    /* Hunyuan dense V1 and HunyuanOCR/HunyuanVL's text: Qwen3's tensors (q/k norms named query/key_layernorm),
       NTK-alpha rope, eod/eot ids, tokenizer.json only (families/hunyuan.c) */
    {"HunYuanDenseV1ForCausalLM", "hunyuan-dense", QWEN3_META, NULL, KINDS_QWEN3, CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_hunyuan},
    {"HunYuanVLForConditionalGeneration", "hunyuan_vl", QWEN3_META, NULL, KINDS_QWEN3, CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_hunyuan},
    /* Talkie: parameter-free norms, gains as tensors and the logit scale, q/k rows signed (families/talkie.c) */
    {"TalkieForCausalLM", "talkie", TALKIE_META, TALKIE_TENSORS, KINDS_TALKIE, CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_talkie},
    /* Laguna: per-layer heads, a head-wise attention gate, experts stacked gate, up, down, a shared expert,
       </assistant> as CONTROL (families/laguna.c) */
    {"LagunaForCausalLM", "laguna", LAGUNA_META, LAGUNA_TENSORS, KINDS_LAGUNA, CV_V_BPE, CV_F_MASTER, "num_experts",
     &lgg__cv_hooks_laguna},
    /* HY V3 (Hy3): Qwen3-MoE-like with a dense first block, the router's bias, shared experts under
       mlp.shared_mlp, sigmoid gating, next-token-prediction blocks (--mtp, --no-mtp; families/hunyuan.c) */
    {"HYV3ForCausalLM", "hy_v3", HYV3_META, HYV3_TENSORS, KINDS_HYV3, CV_V_BPE, CV_F_MASTER | CV_F_MTP, "num_experts",
     &lgg__cv_hooks_hy_v3},
    /* Granite SWA, dense and MoE: Granite with a sliding window, sinks, fused experts (families/granite_swa.c) */
    {"GraniteSWAForCausalLM", "granite_swa", GRANITE_SWA_META, GRANITE_SWA_TENSORS, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_NO_HEAD_DIM |
     CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_granite_swa},
    {"GraniteMoeSWAForCausalLM", "granite_swa", GRANITE_SWA_META, GRANITE_MOE_SWA_TENSORS, KINDS_LLAMA, CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_LLAMA_ROPE_FREQS | CV_F_NO_HEAD_DIM |
     CV_F_PERMUTE_QK, NULL, &lgg__cv_hooks_granite_moe_swa},
    /* Granite Switch: dense Granite with embedded LoRA adapters (families/granite_switch.c) */
    {"GraniteSwitchForCausalLM", "graniteswitch", GRANITE_MASTER_META, GRANITE_SWITCH_TENSORS,
     "blk.#.attn_norm blk.#.ffn_norm output_norm token_embd ", CV_V_SPM | CV_V_BPE,
     CV_F_MASTER | CV_F_PREFIX_SPACE_FROM_CONFIG | CV_F_LLAMA_VOCAB_SIZES | CV_F_NO_HEAD_DIM, NULL,
     &lgg__cv_hooks_granite_switch},
    /* RWKV-7: its time and channel mixes, the world vocabulary (families/rwkv6.c) */
    {"RWKV7ForCausalLM|Rwkv7ForCausalLM", "rwkv7", MAMBA_META, RWKV7_TENSORS, "output output_norm ", 0, CV_F_MASTER, NULL,
     &lgg__cv_hooks_rwkv7},
    /* ARWKV-7: RWKV-7's time mixes in Qwen2.5's blocks (its MLP and RMS norms), Qwen's BPE (families/rwkv6.c) */
    {"RwkvHybridForCausalLM", "arwkv7", MAMBA_META, RWKV7_TENSORS, KINDS_ARWKV7, CV_V_SPM | CV_V_BPE, CV_F_MASTER, NULL,
     &lgg__cv_hooks_arwkv7},
    /* PLaMo 2: Mamba and attention blocks, tokenizer.jsonl (families/plamo2.c) */
    {"PLaMo2ForCausalLM|Plamo2ForCausalLM", "plamo2", PLAMO2_META, PLAMO2_TENSORS, KINDS_PLAMO2, 0, CV_F_MASTER, NULL,
     &lgg__cv_hooks_plamo2},
    /* PLaMo 3: attention only (sliding window), PLaMo's vocabulary and norm offsets (families/plamo2.c) */
    {"PLaMo3ForCausalLM|Plamo3ForCausalLM", "plamo3", PLAMO3_META, PLAMO3_TENSORS, KINDS_PLAMO2, 0, CV_F_MASTER, NULL,
     &lgg__cv_hooks_plamo3},
    /* Jamba: Mamba and attention blocks, dense and MoE feed-forwards (families/jamba.c) */
    {"JambaForCausalLM", "jamba", JAMBA_META, NULL, KINDS_JAMBA, CV_V_SPM, CV_F_MASTER | CV_F_JAMBA_NAMES, "lgg.experts",
     &lgg__cv_hooks_jamba},
    /* DeepSeek V3.2: DeepSeek V3's with the indexer of its sparse attention and the next-token-prediction
       blocks kept (families/deepseek.c) */
    {"DeepseekV32ForCausalLM", "deepseek32", DEEPSEEK32_META, NULL, KINDS_DEEPSEEK32, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_MTP_PLAIN_NAME, "n_routed_experts", &lgg__cv_hooks_deepseek32},
    /* GLM-DSA (GLM-5.2): DeepSeek V3.2's with GLM's special tokens, its rope dimension and indexer types
       (families/deepseek.c) */
    {"GlmMoeDsaForCausalLM", "glm-dsa", GLMDSA_META, NULL, KINDS_DEEPSEEK32, CV_V_BPE,
     CV_F_MASTER | CV_F_MTP | CV_F_MTP_PLAIN_NAME, "n_routed_experts", &lgg__cv_hooks_glm_dsa},
    /* Youtu-LLM and Youtu-VL's text: master's DeepSeek V2 (latent attention split, dense blocks, tied embeddings;
       families/deepseek.c) */
    {"YoutuForCausalLM|YoutuVLForConditionalGeneration", "deepseek2", GLM4MOELITE_META, NULL, KINDS_GLM4MOELITE, CV_V_BPE,
     CV_F_MASTER | CV_F_SKIP_PAST_LAYERS, "n_routed_experts", &lgg__cv_hooks_youtu},
    /* DeepSeek-OCR and Unlimited-OCR's text: master's DeepSeek V2 as deepseek2-ocr (plain attention, its default chat
       template first; families/deepseek.c) */
    {"DeepseekOCRForCausalLM|UnlimitedOCRForCausalLM", "deepseek2-ocr", DEEPSEEK2OCR_META, NULL, KINDS_DEEPSEEK2OCR, CV_V_BPE,
     CV_F_MASTER | CV_F_SKIP_PAST_LAYERS, "n_routed_experts", &lgg__cv_hooks_deepseek_ocr},
    /* Gemma 4 (the text of the multimodal checkpoints too): Gemma 3's without norm + 1, rope_freqs for the
       full layers' proportional rope, per-layer embeddings, the MoE block's fused experts and scales, LlamaHfVocab
       as tokenizer model "gemma4" (families/gemma4.c) */
    {"Gemma4ForCausalLM|Gemma4ForConditionalGeneration", "gemma4", GEMMA3_META, OLMO2_TENSORS, KINDS_GEMMA4, CV_V_BPE,
     CV_F_MASTER | CV_F_GATE_UP_EXPS, NULL, &lgg__cv_hooks_gemma4},
    /* Gemma 4's drafting assistants: Gemma 4's blocks (q projections alone), the projections from and to the
       backbone, the masked embedding left out (families/gemma4.c) */
    {"Gemma4AssistantForCausalLM|Gemma4UnifiedAssistantForCausalLM", "gemma4-assistant", GEMMA3_META,
     GEMMA4_ASSISTANT_TENSORS, KINDS_GEMMA4, CV_V_BPE, CV_F_MASTER, NULL, &lgg__cv_hooks_gemma4_assistant},
    {"Gemma4UnifiedForConditionalGeneration", "gemma4", GEMMA3_META, OLMO2_TENSORS, KINDS_GEMMA4, CV_V_BPE,
     CV_F_MASTER | CV_F_GATE_UP_EXPS, NULL, &lgg__cv_hooks_gemma4_unified},
};

/* Classes the reference registers that are not converted, each with why
 * (docs/convert.md says more): refused by name rather than as unknown.
 * Every class of b4747 converts; these are the ones llama.cpp master
 * (3f545becc) registers beyond them, by the module of master's
 * conversion/ package that converts them (tests/data/master-architectures.tsv,
 * made by scripts/master-architectures.py, is the reference's list;
 * convert_master_archs_named fails on a name of it that is neither here nor
 * converted).  A row leaves when its family converts. */
#define MASTER_HAS(MODULE) "llama.cpp master (3f545becc) converts it with conversion/" MODULE ".py; this converter does not yet"
#define PROJECTOR(MODULE)                                                                           \
    "a vision or audio projector, which llama.cpp master (3f545becc) converts with --mmproj " \
    "(conversion/" MODULE ".py); this converter does not yet"
static const struct {
    const char *hf_archs, *why;
} NOT_YET[] = {
    {"DeepseekV4ForCausalLM", MASTER_HAS("deepseek")},
    {"DeepseekV4DSparkModel", "a draft model of DeepSeek V4: llama.cpp master (3f545becc) converts it with "
     "conversion/deepseek.py only with --target-model-dir (the target's tokenizer), and DeepSeek V4 itself is not "
     "converted here yet"},
    {"KimiK25ForConditionalGeneration|KimiVLForConditionalGeneration",
     "its text is DeepSeek V3's, but its tokenizer is tiktoken (tiktoken.model and the checkpoint's "
     "tokenization code, no tokenizer.json): llama.cpp master (3f545becc, conversion/deepseek.py) reads it by "
     "running that code (trust_remote_code) and checking the encoding's hash (kimi-k2); this converter does not yet"},
    {"Dots3NoteForCausalLM|Dots3NoteForConditionalGeneration|Dots3NoteTextForCausalLM", MASTER_HAS("dots3")},
    {"GraniteSpeechForConditionalGeneration|GraniteSpeechPlusForConditionalGeneration", MASTER_HAS("granite")},
    {"HunYuanMoEV1ForCausalLM",
     "llama.cpp master (3f545becc) reads Hunyuan-A13B's hy.tiktoken vocabulary only through the checkpoint's own "
     "tokenization_hy.py (trust_remote_code), which is not reproduced here"},
    {"JanusForConditionalGeneration", MASTER_HAS("januspro")},
    {"KimiK3ForConditionalGeneration", MASTER_HAS("kimi_k3")},
    {"KimiLinearForCausalLM|KimiLinearModel", MASTER_HAS("kimi_linear")},
    {"Lfm25AudioTokenizer", MASTER_HAS("lfm2")},
    {"Eagle3DraftModel|Eagle3LlamaForCausalLM|"
     "Eagle3Speculator|"
     "LlamaForCausalLMEagle3|VLlama3ForCausalLM|"
     "VoxtralForConditionalGeneration", MASTER_HAS("llama")},
    {"MuseGlimmerAssistantModel|MuseGlimmerForConditionalGeneration", MASTER_HAS("muse_glimmer")},
    {"PocketTTSModel", MASTER_HAS("pockettts")},
    {"AudioFlamingo3ForConditionalGeneration|DFlashDraftModel|DSparkDraftModel|"
     "DSparkSpeculator|DotsOCRForCausalLM|Lfm2DSparkDraftModel|"
     "LingDSparkModel|Qwen2AudioForConditionalGeneration|Qwen3DSparkModel", MASTER_HAS("qwen")},
    {"Qwen3TTSForConditionalGeneration", MASTER_HAS("qwen3tts")},
    {"UltravoxModel", MASTER_HAS("ultravox")},
    {"DeepseekOCR2ForCausalLM", PROJECTOR("deepseek")},
    {"PaddleOCRVisionModel", PROJECTOR("ernie")},
    {"Granite4VisionForConditionalGeneration", PROJECTOR("granite")},
    {"InternVisionModel", PROJECTOR("internvl")},
    {"Glm5vForConditionalGeneration", PROJECTOR("kimivl")},
    {"Lfm2AudioForConditionalGeneration|Lfm2VlForConditionalGeneration", PROJECTOR("lfm2")},
    {"LightOnOCRForConditionalGeneration", PROJECTOR("lighton_ocr")},
    {"NemotronH_Nano_VL_V2|RADIOModel", PROJECTOR("nemotron")},
    {"Idefics3ForConditionalGeneration|SmolVLMForConditionalGeneration", PROJECTOR("smolvlm")},
    {"GlmasrModel|MERaLiON2ForConditionalGeneration", PROJECTOR("ultravox")},
    {NULL, NULL},
};

static int in_list(const char *list, const char *name);

const char *lgg__cv_family_not_yet(const char *hf_arch) {
    for (size_t i = 0; NOT_YET[i].hf_archs; i++)
        if (in_list(NOT_YET[i].hf_archs, hf_arch)) return NOT_YET[i].why;
    return NULL;
}

static int in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *bar = strchr(p, '|');
        size_t l = bar ? (size_t)(bar - p) : strlen(p);
        if (l == n && !memcmp(p, name, n)) return 1;
        p += l + (bar != NULL);
    }
    return 0;
}


#define N_FAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])
#define IS_TWIN(i) ((FAMILIES[i].flags & CV_F_MASTER_TWIN) != 0)

const cv_family *lgg__cv_family_find(const char *hf_arch) {
    for (size_t i = 0; i < N_FAMILIES; i++)
        if (!IS_TWIN(i) && in_list(FAMILIES[i].hf_archs, hf_arch)) return &FAMILIES[i];
    return NULL;
}

const cv_family *lgg__cv_family_master(const cv_family *f, const char *hf_arch) {
    for (size_t i = 0; i < N_FAMILIES; i++)
        if (IS_TWIN(i) && in_list(FAMILIES[i].hf_archs, hf_arch)) return &FAMILIES[i];
    return f;
}

const char *lgg_convert_family_at(size_t i, const char **gguf_arch) {
    for (size_t k = 0; k < N_FAMILIES; k++) {
        if (IS_TWIN(k) || i--) continue;
        if (gguf_arch) *gguf_arch = FAMILIES[k].arch;
        return FAMILIES[k].hf_archs;
    }
    return NULL;
}

/* Calls fn for every architecture name of the table, in table order. */
static void each_name(void (*fn)(const char *name, size_t len, void *ud), void *ud) {
    for (size_t i = 0; i < N_FAMILIES; i++)
        for (const char *p = IS_TWIN(i) ? "" : FAMILIES[i].hf_archs; *p;) {
            size_t l = strcspn(p, "|");
            fn(p, l, ud);
            p += l + (p[l] == '|');
        }
}

typedef struct names_buf {
    char *buf;
    size_t cap, len, left; /* len: what the whole list needs; left: names that did not fit (the short list) */
} names_buf;

static void put_line(const char *name, size_t len, void *ud) {
    names_buf *b = ud;
    for (size_t i = 0; i <= len; i++, b->len++)
        if (b->len + 1 < b->cap) b->buf[b->len] = i < len ? name[i] : '\n';
}

size_t lgg_convert_supported_models(char *buf, size_t cap) {
    names_buf b = {buf, cap, 0, 0};
    each_name(put_line, &b);
    if (cap) buf[b.len < cap ? b.len : cap - 1] = 0;
    return b.len;
}

/* ", " separated; a name that does not fit (with room kept for the count)
 * is counted in `left` instead. */
static void put_short(const char *name, size_t len, void *ud) {
    names_buf *b = ud;
    size_t sep = b->len ? 2 : 0;
    if (b->left || b->len + sep + len + 20 >= b->cap) {
        b->left++;
        return;
    }
    memcpy(b->buf + b->len, ", ", sep);
    memcpy(b->buf + b->len + sep, name, len);
    b->len += sep + len;
    b->buf[b->len] = 0;
}

void lgg__cv_family_list(char *buf, size_t cap) {
    names_buf b = {buf, cap, 0, 0};
    buf[0] = 0;
    each_name(put_short, &b);
    if (b.left) snprintf(buf + b.len, cap - b.len, " and %zu more", b.left);
}
