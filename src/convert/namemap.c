/* namemap.c -- the one Hugging Face -> GGUF tensor-name map every family
 * shares (as gguf-py's TensorNameMap is one table), its index, and the
 * lookup: a family's own rows (cv_family.tensors: only where it differs)
 * first, then this map; the family's flags add the transforms the
 * reference makes by name (CV_F_PERMUTE_QK, CV_F_NORM_ADD1, CV_F_CONV1D). */
#include "cvint.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Rows grouped by the checkpoints whose names they are (a name after the
 * family's hf_name hook); each Hugging Face pattern once.  '#' is the block
 * number, '*' an expert number; experts are stacked in the order of their
 * CV_X_SLOT (the reference's loop over w1, w2, w3 for Mixtral, over down,
 * gate, up for Qwen2-MoE and DeepSeek, over linear, linear_1, linear_v for
 * Grok). */
static const cv_tmap NAMEMAP[] = {
    /* Llama's and Mistral's, shared by most (Mixtral's experts stacked w1, w2, w3) */
    {"model.embed_tokens", "token_embd", 0},
    {"lm_head", "output", 0},
    {"model.norm", "output_norm", 0},
    {"model.layers.#.input_layernorm", "blk.#.attn_norm", 0},
    {"model.layers.#.post_attention_layernorm", "blk.#.ffn_norm", 0},
    {"model.layers.#.self_attn.q_proj", "blk.#.attn_q", 0},
    {"model.layers.#.self_attn.k_proj", "blk.#.attn_k", 0},
    {"model.layers.#.self_attn.v_proj", "blk.#.attn_v", 0},
    {"model.layers.#.self_attn.o_proj", "blk.#.attn_output", 0},
    {"model.layers.#.mlp.gate_proj", "blk.#.ffn_gate", 0},
    {"model.layers.#.mlp.up_proj", "blk.#.ffn_up", 0},
    {"model.layers.#.mlp.down_proj", "blk.#.ffn_down", 0},
    {"model.layers.#.block_sparse_moe.gate", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.block_sparse_moe.experts.*.w1", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.block_sparse_moe.experts.*.w2", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.block_sparse_moe.experts.*.w3", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    /* first needed by granitemoe */
    {"model.layers.#.block_sparse_moe.router.layer", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.block_sparse_moe.input_linear", "blk.#.ffn_gate_exps", 0},
    {"model.layers.#.block_sparse_moe.output_linear", "blk.#.ffn_down_exps", 0},
    /* first needed by gemma2 */
    {"model.layers.#.pre_feedforward_layernorm", "blk.#.ffn_norm", 0},
    {"model.layers.#.post_feedforward_layernorm", "blk.#.post_ffw_norm", 0},
    /* Qwen2-MoE's, DeepSeek's and OLMoE's MoE (experts stacked down, gate, up) */
    {"model.layers.#.mlp.gate", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.mlp.shared_expert_gate", "blk.#.ffn_gate_inp_shexp", 0},
    {"model.layers.#.mlp.shared_expert.gate_proj", "blk.#.ffn_gate_shexp", 0},
    {"model.layers.#.mlp.shared_expert.up_proj", "blk.#.ffn_up_shexp", 0},
    {"model.layers.#.mlp.shared_expert.down_proj", "blk.#.ffn_down_shexp", 0},
    {"model.layers.#.mlp.experts.*.down_proj", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.mlp.experts.*.gate_proj", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.mlp.experts.*.up_proj", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    /* first needed by phi3 */
    {"model.layers.#.self_attn.qkv_proj", "blk.#.attn_qkv", 0},
    {"model.layers.#.mlp.gate_up_proj", "blk.#.ffn_up", 0},
    /* first needed by plamo */
    {"model.layers.layers.#.norm", "blk.#.attn_norm", 0},
    {"model.layers.layers.#.self_attn.q_proj", "blk.#.attn_q", 0},
    {"model.layers.layers.#.self_attn.k_proj", "blk.#.attn_k", 0},
    {"model.layers.layers.#.self_attn.v_proj", "blk.#.attn_v", 0},
    {"model.layers.layers.#.self_attn.o_proj", "blk.#.attn_output", 0},
    {"model.layers.layers.#.mlp.gate_proj", "blk.#.ffn_gate", 0},
    {"model.layers.layers.#.mlp.up_proj", "blk.#.ffn_up", 0},
    {"model.layers.layers.#.mlp.down_proj", "blk.#.ffn_down", 0},
    /* first needed by deepseek */
    {"model.layers.#.mlp.gate.e_score_correction_bias", "blk.#.exp_probs_b.bias", 0},
    {"model.layers.#.mlp.shared_experts.gate_proj", "blk.#.ffn_gate_shexp", 0},
    {"model.layers.#.mlp.shared_experts.up_proj", "blk.#.ffn_up_shexp", 0},
    {"model.layers.#.mlp.shared_experts.down_proj", "blk.#.ffn_down_shexp", 0},
    /* first needed by deepseek2 */
    {"model.layers.#.self_attn.q_a_proj", "blk.#.attn_q_a", 0},
    {"model.layers.#.self_attn.q_a_layernorm", "blk.#.attn_q_a_norm", 0},
    {"model.layers.#.self_attn.q_b_proj", "blk.#.attn_q_b", 0},
    {"model.layers.#.self_attn.kv_a_proj_with_mqa", "blk.#.attn_kv_a_mqa", 0},
    {"model.layers.#.self_attn.kv_a_layernorm", "blk.#.attn_kv_a_norm", 0},
    {"model.layers.#.self_attn.kv_b_proj", "blk.#.attn_kv_b", 0},
    /* the next-token-prediction (NextN, MTP) block's own (GLM-4.5's, DeepSeek V3's) */
    {"model.layers.#.eh_proj", "blk.#.nextn.eh_proj", 0},
    {"model.layers.#.embed_tokens", "blk.#.nextn.embed_tokens", 0},
    {"model.layers.#.enorm", "blk.#.nextn.enorm", 0},
    {"model.layers.#.hnorm", "blk.#.nextn.hnorm", 0},
    {"model.layers.#.shared_head.head", "blk.#.nextn.shared_head_head", 0},
    {"model.layers.#.shared_head.norm", "blk.#.nextn.shared_head_norm", 0},
    /* first needed by cohere */
    {"model.layers.#.self_attn.q_norm", "blk.#.attn_q_norm", 0},
    {"model.layers.#.self_attn.k_norm", "blk.#.attn_k_norm", 0},
    /* first needed by starcoder2 */
    {"model.layers.#.mlp.c_fc", "blk.#.ffn_up", 0},
    {"model.layers.#.mlp.c_proj", "blk.#.ffn_down", 0},
    /* first needed by phi2 */
    {"model.final_layernorm", "output_norm", 0},
    {"model.layers.#.self_attn.dense", "blk.#.attn_output", 0},
    {"model.layers.#.mlp.fc1", "blk.#.ffn_up", 0},
    {"model.layers.#.mlp.fc2", "blk.#.ffn_down", 0},
    /* GPT-2's, without "transformer." (families/gpt2.c drops it) */
    {"wte", "token_embd", 0},
    {"wpe", "position_embd", 0},
    {"ln_f", "output_norm", 0},
    {"h.#.ln_1", "blk.#.attn_norm", 0},
    {"h.#.ln_2", "blk.#.ffn_norm", 0},
    {"h.#.attn.c_attn", "blk.#.attn_qkv", 0},
    {"h.#.attn.c_proj", "blk.#.attn_output", 0},
    {"h.#.mlp.c_fc", "blk.#.ffn_up", 0},
    {"h.#.mlp.c_proj", "blk.#.ffn_down", 0},
    /* first needed by gptneox */
    {"gpt_neox.embed_in", "token_embd", 0},
    {"embed_out", "output", 0},
    {"gpt_neox.final_layer_norm", "output_norm", 0},
    {"gpt_neox.layers.#.input_layernorm", "blk.#.attn_norm", 0},
    {"gpt_neox.layers.#.post_attention_layernorm", "blk.#.ffn_norm", 0},
    {"gpt_neox.layers.#.attention.query_key_value", "blk.#.attn_qkv", 0},
    {"gpt_neox.layers.#.attention.dense", "blk.#.attn_output", 0},
    {"gpt_neox.layers.#.mlp.dense_h_to_4h", "blk.#.ffn_up", 0},
    {"gpt_neox.layers.#.mlp.dense_4h_to_h", "blk.#.ffn_down", 0},
    /* Falcon's: 7B's one norm per block, 40B's two (ln_mlp the first) */
    {"transformer.word_embeddings", "token_embd", 0},
    {"transformer.ln_f", "output_norm", 0},
    {"transformer.h.#.input_layernorm", "blk.#.attn_norm", 0},
    {"transformer.h.#.ln_mlp", "blk.#.attn_norm", 0},
    {"transformer.h.#.ln_attn", "blk.#.attn_norm_2", 0},
    {"transformer.h.#.self_attention.query_key_value", "blk.#.attn_qkv", 0},
    {"transformer.h.#.self_attention.dense", "blk.#.attn_output", 0},
    {"transformer.h.#.mlp.dense_h_to_4h", "blk.#.ffn_up", 0},
    {"transformer.h.#.mlp.dense_4h_to_h", "blk.#.ffn_down", 0},
    /* first needed by exaone */
    {"transformer.wte", "token_embd", 0},
    {"transformer.h.#.ln_1", "blk.#.attn_norm", 0},
    {"transformer.h.#.ln_2", "blk.#.ffn_norm", 0},
    {"transformer.h.#.attn.attention.q_proj", "blk.#.attn_q", 0},
    {"transformer.h.#.attn.attention.k_proj", "blk.#.attn_k", 0},
    {"transformer.h.#.attn.attention.v_proj", "blk.#.attn_v", 0},
    {"transformer.h.#.attn.attention.out_proj", "blk.#.attn_output", 0},
    {"transformer.h.#.mlp.c_fc_0", "blk.#.ffn_gate", 0},
    {"transformer.h.#.mlp.c_fc_1", "blk.#.ffn_up", 0},
    {"transformer.h.#.mlp.c_proj", "blk.#.ffn_down", 0},
    /* InternLM2's (its fused wqkv split by families/fused_qkv.c) */
    {"model.tok_embeddings", "token_embd", 0},
    {"output", "output", 0},
    {"model.layers.#.attention_norm", "blk.#.attn_norm", 0},
    {"model.layers.#.attention.wqkv", "blk.#.attn_q", 0},
    {"model.layers.#.attention.wo", "blk.#.attn_output", 0},
    {"model.layers.#.ffn_norm", "blk.#.ffn_norm", 0},
    {"model.layers.#.feed_forward.w1", "blk.#.ffn_gate", 0},
    {"model.layers.#.feed_forward.w3", "blk.#.ffn_up", 0},
    {"model.layers.#.feed_forward.w2", "blk.#.ffn_down", 0},
    /* T5's encoder and decoder blocks (gated wi_0/wi_1 or plain wi) */
    {"shared", "token_embd", 0},
    {"encoder.embed_tokens", "token_embd", 0},
    {"decoder.embed_tokens", "token_embd", 0},
    {"encoder.block.#.layer.0.layer_norm", "enc.blk.#.attn_norm", 0},
    {"encoder.block.#.layer.0.SelfAttention.q", "enc.blk.#.attn_q", 0},
    {"encoder.block.#.layer.0.SelfAttention.k", "enc.blk.#.attn_k", 0},
    {"encoder.block.#.layer.0.SelfAttention.v", "enc.blk.#.attn_v", 0},
    {"encoder.block.#.layer.0.SelfAttention.o", "enc.blk.#.attn_o", 0},
    {"encoder.block.#.layer.0.SelfAttention.relative_attention_bias", "enc.blk.#.attn_rel_b", 0},
    {"encoder.block.#.layer.1.layer_norm", "enc.blk.#.ffn_norm", 0},
    {"encoder.block.#.layer.1.DenseReluDense.wi_0", "enc.blk.#.ffn_gate", 0},
    {"encoder.block.#.layer.1.DenseReluDense.wi", "enc.blk.#.ffn_up", 0},
    {"encoder.block.#.layer.1.DenseReluDense.wi_1", "enc.blk.#.ffn_up", 0},
    {"encoder.block.#.layer.1.DenseReluDense.wo", "enc.blk.#.ffn_down", 0},
    {"encoder.final_layer_norm", "enc.output_norm", 0},
    {"decoder.block.#.layer.0.layer_norm", "dec.blk.#.attn_norm", 0},
    {"decoder.block.#.layer.0.SelfAttention.q", "dec.blk.#.attn_q", 0},
    {"decoder.block.#.layer.0.SelfAttention.k", "dec.blk.#.attn_k", 0},
    {"decoder.block.#.layer.0.SelfAttention.v", "dec.blk.#.attn_v", 0},
    {"decoder.block.#.layer.0.SelfAttention.o", "dec.blk.#.attn_o", 0},
    {"decoder.block.#.layer.0.SelfAttention.relative_attention_bias", "dec.blk.#.attn_rel_b", 0},
    {"decoder.block.#.layer.2.layer_norm", "dec.blk.#.ffn_norm", 0},
    {"decoder.block.#.layer.2.DenseReluDense.wi_0", "dec.blk.#.ffn_gate", 0},
    {"decoder.block.#.layer.2.DenseReluDense.wi", "dec.blk.#.ffn_up", 0},
    {"decoder.block.#.layer.2.DenseReluDense.wi_1", "dec.blk.#.ffn_up", 0},
    {"decoder.block.#.layer.2.DenseReluDense.wo", "dec.blk.#.ffn_down", 0},
    {"decoder.final_layer_norm", "dec.output_norm", 0},
    {"decoder.block.#.layer.1.layer_norm", "dec.blk.#.cross_attn_norm", 0},
    {"decoder.block.#.layer.1.EncDecAttention.q", "dec.blk.#.cross_attn_q", 0},
    {"decoder.block.#.layer.1.EncDecAttention.k", "dec.blk.#.cross_attn_k", 0},
    {"decoder.block.#.layer.1.EncDecAttention.v", "dec.blk.#.cross_attn_v", 0},
    {"decoder.block.#.layer.1.EncDecAttention.o", "dec.blk.#.cross_attn_o", 0},
    {"decoder.block.#.layer.1.EncDecAttention.relative_attention_bias", "dec.blk.#.cross_attn_rel_b", 0},
    /* ChatGLM's, without "transformer." (families/chatglm.c drops it) */
    {"embedding.word_embeddings", "token_embd", 0},
    {"output_layer", "output", 0},
    {"encoder.final_layernorm", "output_norm", 0},
    {"encoder.layers.#.input_layernorm", "blk.#.attn_norm", 0},
    {"encoder.layers.#.self_attention.query_key_value", "blk.#.attn_qkv", 0},
    {"encoder.layers.#.self_attention.dense", "blk.#.attn_output", 0},
    {"encoder.layers.#.post_attention_layernorm", "blk.#.ffn_norm", 0},
    {"encoder.layers.#.mlp.dense_h_to_4h", "blk.#.ffn_up", 0},
    {"encoder.layers.#.mlp.dense_4h_to_h", "blk.#.ffn_down", 0},
    /* first needed by bert */
    {"embeddings.word_embeddings", "token_embd", 0},
    {"embeddings.token_type_embeddings", "token_types", 0},
    {"embeddings.LayerNorm", "token_embd_norm", 0},
    {"encoder.layer.#.attention.self.query", "blk.#.attn_q", 0},
    {"encoder.layer.#.attention.self.key", "blk.#.attn_k", 0},
    {"encoder.layer.#.attention.self.value", "blk.#.attn_v", 0},
    {"encoder.layer.#.attention.output.dense", "blk.#.attn_output", 0},
    {"encoder.layer.#.attention.output.LayerNorm", "blk.#.attn_output_norm", 0},
    {"classifier", "cls", 0},
    {"embeddings.position_embeddings", "position_embd", 0},
    {"encoder.layer.#.intermediate.dense", "blk.#.ffn_up", 0},
    {"encoder.layer.#.output.dense", "blk.#.ffn_down", 0},
    {"encoder.layer.#.output.LayerNorm", "blk.#.layer_output_norm", 0},
    {"classifier.dense", "cls", 0},
    {"classifier.out_proj", "cls.output", 0},
    /* first needed by jina-bert */
    {"encoder.layer.#.mlp.gated_layers", "blk.#.ffn_gate", 0},
    {"encoder.layer.#.mlp.up_gated_layer", "blk.#.ffn_up", 0},
    {"encoder.layer.#.mlp.wo", "blk.#.ffn_down", 0},
    {"encoder.layer.#.mlp.down_layer", "blk.#.ffn_down", 0},
    {"encoder.layer.#.mlp.layernorm", "blk.#.layer_output_norm", 0},
    {"encoder.layer.#.layer_norm_1", "blk.#.attn_norm_2", 0},
    {"encoder.layer.#.layer_norm_2", "blk.#.layer_output_norm", 0},
    {"encoder.layer.#.attention.self.layer_norm_q", "blk.#.attn_q_norm", 0},
    {"encoder.layer.#.attention.self.layer_norm_k", "blk.#.attn_k_norm", 0},
    /* first needed by nomic-bert */
    {"emb_ln", "token_embd_norm", 0},
    {"encoder.layers.#.attn.Wqkv", "blk.#.attn_qkv", 0},
    {"encoder.layers.#.attn.out_proj", "blk.#.attn_output", 0},
    {"encoder.layers.#.norm1", "blk.#.attn_output_norm", 0},
    {"encoder.layers.#.mlp.fc11", "blk.#.ffn_up", 0},
    {"encoder.layers.#.mlp.fc12", "blk.#.ffn_gate", 0},
    {"encoder.layers.#.mlp.fc2", "blk.#.ffn_down", 0},
    {"encoder.layers.#.norm2", "blk.#.layer_output_norm", 0},
    /* Mamba's: both naming schemes the reference maps */
    {"backbone.embeddings", "token_embd", 0},
    {"backbone.embedding", "token_embd", 0},
    {"model.embedding", "token_embd", 0},
    {"backbone.norm_f", "output_norm", 0},
    {"model.norm_f", "output_norm", 0},
    {"backbone.layers.#.norm", "blk.#.attn_norm", 0},
    {"model.layers.#.norm", "blk.#.attn_norm", 0},
    {"backbone.layers.#.mixer.in_proj", "blk.#.ssm_in", 0},
    {"backbone.layers.#.mixer.conv1d", "blk.#.ssm_conv1d", 0},
    {"backbone.layers.#.mixer.x_proj", "blk.#.ssm_x", 0},
    {"backbone.layers.#.mixer.dt_proj", "blk.#.ssm_dt", 0},
    {"backbone.layers.#.mixer.A_log", "blk.#.ssm_a", 0},
    {"backbone.layers.#.mixer.D", "blk.#.ssm_d", 0},
    {"backbone.layers.#.mixer.out_proj", "blk.#.ssm_out", 0},
    {"model.layers.#.in_proj", "blk.#.ssm_in", 0},
    {"model.layers.#.conv1d", "blk.#.ssm_conv1d", 0},
    {"model.layers.#.x_proj", "blk.#.ssm_x", 0},
    {"model.layers.#.dt_proj", "blk.#.ssm_dt", 0},
    {"model.layers.#.A_log", "blk.#.ssm_a", 0},
    {"model.layers.#.D", "blk.#.ssm_d", 0},
    {"model.layers.#.out_proj", "blk.#.ssm_out", 0},
    /* Qwen3-Next's linear attention (its in_proj_qkvz is the family's: split in two) */
    {"model.layers.#.linear_attn.in_proj_ba", "blk.#.ssm_ba", 0},
    {"model.layers.#.linear_attn.conv1d", "blk.#.ssm_conv1d", 0},
    {"model.layers.#.linear_attn.dt_proj", "blk.#.ssm_dt", 0},
    {"model.layers.#.linear_attn.A_log", "blk.#.ssm_a", 0},
    {"model.layers.#.linear_attn.norm", "blk.#.ssm_norm", 0},
    {"model.layers.#.linear_attn.out_proj", "blk.#.ssm_out", 0},
    /* Qwen3.5's: q/k/v, the gate, beta and alpha as separate projections */
    {"model.layers.#.linear_attn.in_proj_qkv", "blk.#.attn_qkv", 0},
    {"model.layers.#.linear_attn.in_proj_z", "blk.#.attn_gate", 0},
    {"model.layers.#.linear_attn.in_proj_b", "blk.#.ssm_beta", 0},
    {"model.layers.#.linear_attn.in_proj_a", "blk.#.ssm_alpha", 0},
    /* first needed by rwkv6 */
    {"rwkv.embeddings", "token_embd", 0},
    {"rwkv.blocks.0.pre_ln", "token_embd_norm", 0},
    {"rwkv.ln_out", "output_norm", 0},
    {"head", "output", 0},
    {"rwkv.blocks.#.ln1", "blk.#.attn_norm", 0},
    {"rwkv.blocks.#.ln2", "blk.#.attn_norm_2", 0},
    {"rwkv.blocks.#.attention.time_maa_w1", "blk.#.time_mix_w1", 0},
    {"rwkv.blocks.#.attention.time_maa_w2", "blk.#.time_mix_w2", 0},
    {"rwkv.blocks.#.attention.time_maa_x", "blk.#.time_mix_lerp_x", 0},
    {"rwkv.blocks.#.attention.time_maa_k", "blk.#.time_mix_lerp_k", 0},
    {"rwkv.blocks.#.attention.time_maa_v", "blk.#.time_mix_lerp_v", 0},
    {"rwkv.blocks.#.attention.time_maa_r", "blk.#.time_mix_lerp_r", 0},
    {"rwkv.blocks.#.attention.time_maa_g", "blk.#.time_mix_lerp_g", 0},
    {"rwkv.blocks.#.attention.time_maa_w", "blk.#.time_mix_lerp_w", 0},
    {"rwkv.blocks.#.attention.time_faaaa", "blk.#.time_mix_first", 0},
    {"rwkv.blocks.#.attention.time_decay", "blk.#.time_mix_decay", 0},
    {"rwkv.blocks.#.attention.time_decay_w1", "blk.#.time_mix_decay_w1", 0},
    {"rwkv.blocks.#.attention.time_decay_w2", "blk.#.time_mix_decay_w2", 0},
    {"rwkv.blocks.#.attention.key", "blk.#.time_mix_key", 0},
    {"rwkv.blocks.#.attention.value", "blk.#.time_mix_value", 0},
    {"rwkv.blocks.#.attention.receptance", "blk.#.time_mix_receptance", 0},
    {"rwkv.blocks.#.attention.gate", "blk.#.time_mix_gate", 0},
    {"rwkv.blocks.#.attention.ln_x", "blk.#.time_mix_ln", 0},
    {"rwkv.blocks.#.attention.output", "blk.#.time_mix_output", 0},
    {"rwkv.blocks.#.feed_forward.time_maa_k", "blk.#.channel_mix_lerp_k", 0},
    {"rwkv.blocks.#.feed_forward.time_maa_r", "blk.#.channel_mix_lerp_r", 0},
    {"rwkv.blocks.#.feed_forward.key", "blk.#.channel_mix_key", 0},
    {"rwkv.blocks.#.feed_forward.receptance", "blk.#.channel_mix_receptance", 0},
    {"rwkv.blocks.#.feed_forward.value", "blk.#.channel_mix_value", 0},
    /* first needed by rwkv6qwen2 */
    {"model.layers.#.self_attn.time_maa_w1", "blk.#.time_mix_w1", 0},
    {"model.layers.#.self_attn.time_maa_w2", "blk.#.time_mix_w2", 0},
    {"model.layers.#.self_attn.time_maa_x", "blk.#.time_mix_lerp_x", 0},
    {"model.layers.#.self_attn.time_maa_k", "blk.#.time_mix_lerp_k", 0},
    {"model.layers.#.self_attn.time_maa_v", "blk.#.time_mix_lerp_v", 0},
    {"model.layers.#.self_attn.time_maa_r", "blk.#.time_mix_lerp_r", 0},
    {"model.layers.#.self_attn.time_maa_g", "blk.#.time_mix_lerp_g", 0},
    {"model.layers.#.self_attn.time_maa_w", "blk.#.time_mix_lerp_w", 0},
    {"model.layers.#.self_attn.time_decay", "blk.#.time_mix_decay", 0},
    {"model.layers.#.self_attn.time_decay_w1", "blk.#.time_mix_decay_w1", 0},
    {"model.layers.#.self_attn.time_decay_w2", "blk.#.time_mix_decay_w2", 0},
    {"model.layers.#.self_attn.gate", "blk.#.time_mix_gate", 0},
    /* BLOOM's, without "transformer." (families/bloom.c drops it) */
    {"word_embeddings", "token_embd", 0},
    {"word_embeddings_layernorm", "token_embd_norm", 0},
    {"h.#.input_layernorm", "blk.#.attn_norm", 0},
    {"h.#.self_attention.query_key_value", "blk.#.attn_qkv", 0},
    {"h.#.self_attention.dense", "blk.#.attn_output", 0},
    {"h.#.post_attention_layernorm", "blk.#.ffn_norm", 0},
    {"h.#.mlp.dense_h_to_4h", "blk.#.ffn_up", 0},
    {"h.#.mlp.dense_4h_to_h", "blk.#.ffn_down", 0},
    /* first needed by qwen */
    {"transformer.h.#.attn.c_attn", "blk.#.attn_qkv", 0},
    {"transformer.h.#.attn.c_proj", "blk.#.attn_output", 0},
    {"transformer.h.#.mlp.w1", "blk.#.ffn_up", 0},
    {"transformer.h.#.mlp.w2", "blk.#.ffn_gate", 0},
    /* first needed by codeshell */
    {"transformer.wpe", "position_embd", 0},
    {"transformer.h.#.mlp.c_fc", "blk.#.ffn_up", 0},
    /* first needed by refact */
    {"transformer.h.#.attn.q", "blk.#.attn_q", 0},
    {"transformer.h.#.attn.kv", "blk.#.attn_k", 0},
    {"transformer.h.#.mlp.gate_up_proj", "blk.#.ffn_gate", 0},
    /* first needed by jais */
    {"transformer.h.#.mlp.c_fc2", "blk.#.ffn_gate", 0},
    /* first needed by openelm */
    {"transformer.token_embeddings", "token_embd", 0},
    {"transformer.norm", "output_norm", 0},
    {"transformer.layers.#.attn_norm", "blk.#.attn_norm", 0},
    {"transformer.layers.#.attn.qkv_proj", "blk.#.attn_qkv", 0},
    {"transformer.layers.#.attn.q_norm", "blk.#.attn_q_norm", 0},
    {"transformer.layers.#.attn.k_norm", "blk.#.attn_k_norm", 0},
    {"transformer.layers.#.attn.out_proj", "blk.#.attn_output", 0},
    {"transformer.layers.#.ffn_norm", "blk.#.ffn_norm", 0},
    {"transformer.layers.#.ffn.proj_1", "blk.#.ffn_gate", 0},
    {"transformer.layers.#.ffn.proj_2", "blk.#.ffn_down", 0},
    /* first needed by mpt */
    {"transformer.norm_f", "output_norm", 0},
    {"transformer.blocks.#.norm_1", "blk.#.attn_norm", 0},
    {"transformer.blocks.#.attn.Wqkv", "blk.#.attn_qkv", 0},
    {"transformer.blocks.#.attn.out_proj", "blk.#.attn_output", 0},
    {"transformer.blocks.#.norm_2", "blk.#.ffn_norm", 0},
    {"transformer.blocks.#.ffn.up_proj", "blk.#.ffn_up", 0},
    {"transformer.blocks.#.ffn.down_proj", "blk.#.ffn_down", 0},
    /* first needed by baichuan */
    {"model.layers.#.self_attn.W_pack", "blk.#.attn_qkv", 0},
    /* first needed by dbrx */
    {"transformer.blocks.#.norm_attn_norm.norm_1", "blk.#.attn_norm", 0},
    {"transformer.blocks.#.norm_attn_norm.attn.Wqkv", "blk.#.attn_qkv", 0},
    {"transformer.blocks.#.norm_attn_norm.attn.out_proj", "blk.#.attn_output", 0},
    {"transformer.blocks.#.norm_attn_norm.norm_2", "blk.#.attn_output_norm", 0},
    {"transformer.blocks.#.ffn.router.layer", "blk.#.ffn_gate_inp", 0},
    {"transformer.blocks.#.ffn.experts.mlp.w1", "blk.#.ffn_gate_exps", 0},
    {"transformer.blocks.#.ffn.experts.mlp.v1", "blk.#.ffn_up_exps", 0},
    {"transformer.blocks.#.ffn.experts.mlp.w2", "blk.#.ffn_down_exps", 0},
    /* first needed by bitnet */
    {"model.layers.#.self_attn.inner_attn_ln", "blk.#.attn_sub_norm", 0},
    {"model.layers.#.mlp.ffn_layernorm", "blk.#.ffn_sub_norm", 0},
    /* Grok's (experts stacked linear, linear_1, linear_v) */
    {"transformer.in_out_embed", "token_embd", 0},
    {"transformer.rms_norm", "output_norm", 0},
    {"transformer.decoder_layer.#.rms_norm", "blk.#.attn_norm", 0},
    {"transformer.decoder_layer.#.multi_head_attention.query", "blk.#.attn_q", 0},
    {"transformer.decoder_layer.#.multi_head_attention.key", "blk.#.attn_k", 0},
    {"transformer.decoder_layer.#.multi_head_attention.value", "blk.#.attn_v", 0},
    {"transformer.decoder_layer.#.multi_head_attention.linear", "blk.#.attn_output", 0},
    {"transformer.decoder_layer.#.rms_norm_1", "blk.#.attn_output_norm", 0},
    {"transformer.decoder_layer.#.rms_norm_2", "blk.#.ffn_norm", 0},
    {"transformer.decoder_layer.#.rms_norm_3", "blk.#.layer_output_norm", 0},
    {"transformer.decoder_layer.#.router", "blk.#.ffn_gate_inp", 0},
    {"transformer.decoder_layer.#.moe.*.linear", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"transformer.decoder_layer.#.moe.*.linear_1", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"transformer.decoder_layer.#.moe.*.linear_v", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    /* first needed by arctic */
    {"model.layers.#.residual_layernorm", "blk.#.ffn_norm", 0},
    {"model.layers.#.residual_mlp.w1", "blk.#.ffn_gate", 0},
    {"model.layers.#.residual_mlp.w2", "blk.#.ffn_down", 0},
    {"model.layers.#.residual_mlp.w3", "blk.#.ffn_up", 0},
    /* WavTokenizer's decoder, as llama.cpp's examples/tts/convert_pt_to_hf.py names it (a posnet block's "norm" is attn_norm) */
    {"backbone.embed", "conv1d", 0},
    {"backbone.norm", "token_embd_norm", 0},
    {"backbone.final_layer_norm", "output_norm", 0},
    {"head.out", "output", 0},
    {"backbone.convnext.#.dwconv", "convnext.#.dw", 0},
    {"backbone.convnext.#.norm", "convnext.#.norm", 0},
    {"backbone.convnext.#.pwconv1", "convnext.#.pw1", 0},
    {"backbone.convnext.#.pwconv2", "convnext.#.pw2", 0},
    {"backbone.convnext.#.gamma", "convnext.#.gamma", 0},
    {"backbone.posnet.#.conv1", "posnet.#.conv1", 0},
    {"backbone.posnet.#.conv2", "posnet.#.conv2", 0},
    {"backbone.posnet.#.norm1", "posnet.#.norm1", 0},
    {"backbone.posnet.#.norm2", "posnet.#.norm2", 0},
    {"backbone.posnet.#.norm", "posnet.#.attn_norm", 0},
    {"backbone.posnet.#.q", "posnet.#.attn_q", 0},
    {"backbone.posnet.#.k", "posnet.#.attn_k", 0},
    {"backbone.posnet.#.v", "posnet.#.attn_v", 0},
    {"backbone.posnet.#.proj_out", "posnet.#.attn_output", 0},
    /* DeciLM's (Nemotron-51B's linear-attention layers have one matrix for attention) */
    {"model.layers.#.self_attn.linear_attn", "blk.#.attn_output", 0},
    /* first needed by ernie4_5-moe (ERNIE-4.5-21B-A3B-PT) */
    {"model.layers.#.mlp.moe_statics.e_score_correction_bias", "blk.#.exp_probs_b.bias", 0},
    /* first needed by minimax-m2 (MiniMax-M2) */
    {"model.layers.#.block_sparse_moe.e_score_correction_bias", "blk.#.exp_probs_b.bias", 0},
    /* first needed by minimax-01 (MiniMax-Text-01's lightning attention: its norm and output gate) */
    {"model.layers.#.self_attn.norm", "blk.#.attn_norm_2", 0},
    {"model.layers.#.self_attn.output_gate", "blk.#.attn_gate", 0},
    /* first needed by minimax-m3 (MiniMax-M3's sparse attention indexer and shared experts) */
    {"model.layers.#.self_attn.index_q_proj", "blk.#.indexer.q_proj", 0},
    {"model.layers.#.self_attn.index_k_proj", "blk.#.indexer.k_proj", 0},
    {"model.layers.#.self_attn.index_q_norm", "blk.#.indexer.q_norm", 0},
    {"model.layers.#.self_attn.index_k_norm", "blk.#.indexer.k_norm", 0},
    {"model.layers.#.block_sparse_moe.shared_experts.gate_proj", "blk.#.ffn_gate_shexp", 0},
    {"model.layers.#.block_sparse_moe.shared_experts.up_proj", "blk.#.ffn_up_shexp", 0},
    {"model.layers.#.block_sparse_moe.shared_experts.down_proj", "blk.#.ffn_down_shexp", 0},
    /* first needed by step35 (Step 3.5: head-wise gate, router and its bias, stacked experts, shared expert) */
    {"model.layers.#.self_attn.g_proj", "blk.#.attn_gate", 0},
    {"model.layers.#.moe.gate", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.moe.router_bias", "blk.#.exp_probs_b", 0},
    {"model.layers.#.moe.gate_proj", "blk.#.ffn_gate_exps", 0},
    {"model.layers.#.moe.up_proj", "blk.#.ffn_up_exps", 0},
    {"model.layers.#.moe.down_proj", "blk.#.ffn_down_exps", 0},
    {"model.layers.#.share_expert.gate_proj", "blk.#.ffn_gate_shexp", 0},
    {"model.layers.#.share_expert.up_proj", "blk.#.ffn_up_shexp", 0},
    {"model.layers.#.share_expert.down_proj", "blk.#.ffn_down_shexp", 0},
    /* first needed by bailingmoe2 (Ling 2.0) */
    {"model.word_embeddings", "token_embd", 0},
    {"model.layers.#.attention.query_key_value", "blk.#.attn_qkv", 0},
    {"model.layers.#.attention.dense", "blk.#.attn_output", 0},
    {"model.layers.#.attention.query_layernorm", "blk.#.attn_q_norm", 0},
    {"model.layers.#.attention.key_layernorm", "blk.#.attn_k_norm", 0},
    {"model.layers.#.mlp.gate.expert_bias", "blk.#.exp_probs_b.bias", 0},
    {"model.layers.#.final_layernorm", "blk.#.layer_output_norm", 0},
    /* first needed by smallthinker (SmallThinker-4BA0.6B; experts stacked down, gate, up) */
    {"model.layers.#.block_sparse_moe.primary_router", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.block_sparse_moe.experts.*.down", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.block_sparse_moe.experts.*.gate", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.block_sparse_moe.experts.*.up", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    /* first needed by exaone-moe (K-EXAONE) */
    {"model.layers.#.mlp.e_score_correction_bias", "blk.#.exp_probs_b.bias", 0},
    /* Llama 4's feed_forward: the router, the stacked experts (after families/llama4.c's renames), the shared
       expert, a dense block's MLP */
    {"model.layers.#.feed_forward.router", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.feed_forward.experts.gate_proj", "blk.#.ffn_gate_exps", 0},
    {"model.layers.#.feed_forward.experts.up_proj", "blk.#.ffn_up_exps", 0},
    {"model.layers.#.feed_forward.experts.down_proj", "blk.#.ffn_down_exps", 0},
    {"model.layers.#.feed_forward.shared_expert.gate_proj", "blk.#.ffn_gate_shexp", 0},
    {"model.layers.#.feed_forward.shared_expert.up_proj", "blk.#.ffn_up_shexp", 0},
    {"model.layers.#.feed_forward.shared_expert.down_proj", "blk.#.ffn_down_shexp", 0},
    {"model.layers.#.feed_forward.gate_proj", "blk.#.ffn_gate", 0},
    {"model.layers.#.feed_forward.up_proj", "blk.#.ffn_up", 0},
    {"model.layers.#.feed_forward.down_proj", "blk.#.ffn_down", 0},
    /* Apertus's norms */
    {"model.layers.#.attention_layernorm", "blk.#.attn_norm", 0},
    {"model.layers.#.feedforward_layernorm", "blk.#.ffn_norm", 0},
    /* Mamba 2's gated norm; the hybrids' (Bamba, Granite 4, Falcon-H1, Jamba) mamba layers */
    {"backbone.layers.#.mixer.norm", "blk.#.ssm_norm", 0},
    {"model.layers.#.mamba.in_proj", "blk.#.ssm_in", 0},
    {"model.layers.#.mamba.conv1d", "blk.#.ssm_conv1d", 0},
    {"model.layers.#.mamba.dt_proj", "blk.#.ssm_dt", 0},
    {"model.layers.#.mamba.A_log", "blk.#.ssm_a", 0},
    {"model.layers.#.mamba.D", "blk.#.ssm_d", 0},
    {"model.layers.#.mamba.norm", "blk.#.ssm_norm", 0},
    {"model.layers.#.mamba.out_proj", "blk.#.ssm_out", 0},
    /* Granite 4's and GraniteMoeShared's shared MLP (input_linear split by families/granitemoe.c) */
    {"model.layers.#.shared_mlp.input_linear", "blk.#.ffn_gate_shexp", 0},
    {"model.layers.#.shared_mlp.output_linear", "blk.#.ffn_down_shexp", 0},
    /* Bamba's (and Jamba's) norm before the feed-forward (its feed_forward.* rows: Llama 4's above) */
    {"model.layers.#.pre_ff_layernorm", "blk.#.ffn_norm", 0},
    /* LFM2's short-convolution blocks, norms and attention output */
    {"model.embedding_norm", "token_embd_norm", 0},
    {"model.layers.#.operator_norm", "blk.#.attn_norm", 0},
    {"model.layers.#.conv.conv", "blk.#.shortconv.conv", 0},
    {"model.layers.#.conv.in_proj", "blk.#.shortconv.in_proj", 0},
    {"model.layers.#.conv.out_proj", "blk.#.shortconv.out_proj", 0},
    {"model.layers.#.self_attn.out_proj", "blk.#.attn_output", 0},
    {"model.layers.#.self_attn.q_layernorm", "blk.#.attn_q_norm", 0},
    {"model.layers.#.self_attn.k_layernorm", "blk.#.attn_k_norm", 0},
    /* LFM2-MoE's router, expert bias and experts */
    {"model.layers.#.feed_forward.gate", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.feed_forward.expert_bias", "blk.#.exp_probs_b.bias", 0},
    {"model.layers.#.feed_forward.experts.*.w1", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.feed_forward.experts.*.w2", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.feed_forward.experts.*.w3", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    /* Nemotron-H's attention and MLP blocks (their mixer) */
    {"backbone.layers.#.mixer.q_proj", "blk.#.attn_q", 0},
    {"backbone.layers.#.mixer.k_proj", "blk.#.attn_k", 0},
    {"backbone.layers.#.mixer.v_proj", "blk.#.attn_v", 0},
    {"backbone.layers.#.mixer.o_proj", "blk.#.attn_output", 0},
    {"backbone.layers.#.mixer.up_proj", "blk.#.ffn_up", 0},
    {"backbone.layers.#.mixer.down_proj", "blk.#.ffn_down", 0},
    /* Gemma 3n's per-layer embeddings, AltUp (projections stacked by families/gemma3n.c) and Laurel */
    {"model.embed_tokens_per_layer", "per_layer_token_embd", 0},
    {"model.per_layer_model_projection", "per_layer_model_proj", 0},
    {"model.per_layer_projection_norm", "per_layer_proj_norm", 0},
    {"model.altup_projections", "altup_proj", 0},
    {"model.altup_unembed_projections", "altup_unembd_proj", 0},
    {"model.layers.#.per_layer_input_gate", "blk.#.inp_gate", 0},
    {"model.layers.#.per_layer_projection", "blk.#.proj", 0},
    {"model.layers.#.post_per_layer_input_norm", "blk.#.post_norm", 0},
    {"model.layers.#.altup.correction_coefs", "blk.#.altup_correct_coef", 0},
    {"model.layers.#.altup.correct_output_scale", "blk.#.altup_correct_scale", 0},
    {"model.layers.#.altup.prediction_coefs", "blk.#.altup_predict_coef", 0},
    {"model.layers.#.altup.modality_router", "blk.#.altup_router", 0},
    {"model.layers.#.altup.router_norm", "blk.#.altup_router_norm", 0},
    {"model.layers.#.laurel.linear_left", "blk.#.laurel_l", 0},
    {"model.layers.#.laurel.linear_right", "blk.#.laurel_r", 0},
    {"model.layers.#.laurel.post_laurel_norm", "blk.#.laurel_post_norm", 0},
    /* Gemma 4's layer scalar, second feed-forward norms and MoE block (router scales: families/gemma4.c) */
    {"model.layers.#.layer_scalar", "blk.#.layer_output_scale", 0},
    {"model.layers.#.pre_feedforward_layernorm_2", "blk.#.pre_ffw_norm_2", 0},
    {"model.layers.#.post_feedforward_layernorm_1", "blk.#.post_ffw_norm_1", 0},
    {"model.layers.#.post_feedforward_layernorm_2", "blk.#.post_ffw_norm_2", 0},
    {"model.layers.#.router.proj", "blk.#.ffn_gate_inp", 0},
    {"model.layers.#.router.scale", "blk.#.ffn_gate_inp.scale", 0},
    {"model.layers.#.router.per_expert_scale", "blk.#.ffn_down_exps.scale", 0},
    {"model.layers.#.experts.gate_up_proj", "blk.#.ffn_gate_up_exps", 0},
    {"model.layers.#.experts.down_proj", "blk.#.ffn_down_exps", 0},
    /* DistilBERT's (after "distilbert." is dropped) */
    {"transformer.layer.#.attention.q_lin", "blk.#.attn_q", 0},
    {"transformer.layer.#.attention.k_lin", "blk.#.attn_k", 0},
    {"transformer.layer.#.attention.v_lin", "blk.#.attn_v", 0},
    {"transformer.layer.#.attention.out_lin", "blk.#.attn_output", 0},
    {"transformer.layer.#.sa_layer_norm", "blk.#.attn_output_norm", 0},
    {"transformer.layer.#.ffn.lin1", "blk.#.ffn_up", 0},
    {"transformer.layer.#.ffn.lin2", "blk.#.ffn_down", 0},
    {"transformer.layer.#.output_layer_norm", "blk.#.layer_output_norm", 0},
    {"pre_classifier", "cls", 0},
    /* ModernBERT's (after "model." is dropped) */
    {"embeddings.tok_embeddings", "token_embd", 0},
    {"embeddings.norm", "token_embd_norm", 0},
    {"layers.#.attn_norm", "blk.#.attn_norm", 0},
    {"layers.#.attn.Wqkv", "blk.#.attn_qkv", 0},
    {"layers.#.attn.Wo", "blk.#.attn_output", 0},
    {"layers.#.mlp_norm", "blk.#.ffn_norm", 0},
    {"layers.#.mlp.Wi", "blk.#.ffn_up", 0},
    {"layers.#.mlp.Wo", "blk.#.ffn_down", 0},
    {"final_norm", "output_norm", 0},
    {"head.dense", "cls", 0},
    {"head.norm", "cls.norm", 0},
    /* NeoBERT's (after "model." is dropped); its classifier's dense layer */
    {"encoder", "token_embd", 0},
    {"transformer_encoder.#.qkv", "blk.#.attn_qkv", 0},
    {"transformer_encoder.#.wo", "blk.#.attn_output", 0},
    {"transformer_encoder.#.attention_norm", "blk.#.attn_norm", 0},
    {"transformer_encoder.#.ffn_norm", "blk.#.ffn_norm", 0},
    {"transformer_encoder.#.ffn.w12", "blk.#.ffn_up", 0},
    {"transformer_encoder.#.ffn.w3", "blk.#.ffn_down", 0},
    {"layer_norm", "enc.output_norm", 0},
    {"dense", "cls", 0},
    /* LLaDA's (OLMo's layout under model.transformer.: ff_proj the gate, ff_out the down projection) */
    {"model.transformer.wte", "token_embd", 0},
    {"model.transformer.ln_f", "output_norm", 0},
    {"model.transformer.ff_out", "output", 0},
    {"model.transformer.blocks.#.attn_norm", "blk.#.attn_norm", 0},
    {"model.transformer.blocks.#.q_proj", "blk.#.attn_q", 0},
    {"model.transformer.blocks.#.k_proj", "blk.#.attn_k", 0},
    {"model.transformer.blocks.#.v_proj", "blk.#.attn_v", 0},
    {"model.transformer.blocks.#.attn_out", "blk.#.attn_output", 0},
    {"model.transformer.blocks.#.ff_norm", "blk.#.ffn_norm", 0},
    {"model.transformer.blocks.#.ff_proj", "blk.#.ffn_gate", 0},
    {"model.transformer.blocks.#.up_proj", "blk.#.ffn_up", 0},
    {"model.transformer.blocks.#.ff_out", "blk.#.ffn_down", 0},
    /* Hunyuan's q/k norms (dense V1, A13B, HunyuanOCR) */
    {"model.layers.#.self_attn.query_layernorm", "blk.#.attn_q_norm", 0},
    {"model.layers.#.self_attn.key_layernorm", "blk.#.attn_k_norm", 0},
    /* Jamba's Mamba blocks and experts (stacked down, gate, up) */
    {"model.layers.#.mamba.x_proj", "blk.#.ssm_x", 0},
    {"model.layers.#.mamba.dt_layernorm", "blk.#.ssm_dt_norm", 0},
    {"model.layers.#.mamba.b_layernorm", "blk.#.ssm_b_norm", 0},
    {"model.layers.#.mamba.c_layernorm", "blk.#.ssm_c_norm", 0},
    {"model.layers.#.feed_forward.experts.*.down_proj", "blk.#.ffn_down_exps", CV_X_EXPERT | CV_X_SLOT(0)},
    {"model.layers.#.feed_forward.experts.*.gate_proj", "blk.#.ffn_gate_exps", CV_X_EXPERT | CV_X_SLOT(1)},
    {"model.layers.#.feed_forward.experts.*.up_proj", "blk.#.ffn_up_exps", CV_X_EXPERT | CV_X_SLOT(2)},
    /* Hunyuan's shared expert (A13B, Hy3) */
    {"model.layers.#.mlp.shared_mlp.gate_proj", "blk.#.ffn_gate_shexp", 0},
    {"model.layers.#.mlp.shared_mlp.up_proj", "blk.#.ffn_up_shexp", 0},
    {"model.layers.#.mlp.shared_mlp.down_proj", "blk.#.ffn_down_shexp", 0},
    /* DeepSeek V3.2's sparse-attention indexer */
    {"model.layers.#.self_attn.indexer.wq_b", "blk.#.indexer.attn_q_b", 0},
    {"model.layers.#.self_attn.indexer.wk", "blk.#.indexer.attn_k", 0},
    {"model.layers.#.self_attn.indexer.k_norm", "blk.#.indexer.k_norm", 0},
    {"model.layers.#.self_attn.indexer.weights_proj", "blk.#.indexer.proj", 0},
};

enum { N_MAP = sizeof NAMEMAP / sizeof NAMEMAP[0], KEY_CAP = 128 };

/* A name's key: every dot-separated segment that is a number, '#' or '*'
 * becomes '#' (so a name and the patterns that may match it share a key);
 * 0 when it does not fit. */
static int name_key(const char *s, char *key, size_t cap) {
    size_t o = 0;
    while (*s) {
        size_t l = strcspn(s, "."), d = strspn(s, "0123456789");
        int num = (l && d == l) || (l == 1 && (*s == '#' || *s == '*'));
        if (o + (num ? 1 : l) + 2 > cap) return 0;
        if (num) key[o++] = '#';
        else memcpy(key + o, s, l), o += l;
        s += l;
        if (*s == '.') key[o++] = '.', s++;
    }
    key[o] = 0;
    return 1;
}

/* The map's rows by key, in table order among equal keys: built once. */
static char KEYS[N_MAP][KEY_CAP];
static unsigned short ORDER[N_MAP];
static pthread_once_t INDEX_ONCE = PTHREAD_ONCE_INIT;

static int cmp_row(const void *a, const void *b) {
    unsigned short i = *(const unsigned short *)a, j = *(const unsigned short *)b;
    int r = strcmp(KEYS[i], KEYS[j]);
    return r ? r : (i > j) - (i < j);
}

static void build_index(void) {
    for (unsigned short i = 0; i < N_MAP; i++) {
        if (!name_key(NAMEMAP[i].hf, KEYS[i], KEY_CAP)) KEYS[i][0] = 0; /* never: the rows are short */
        ORDER[i] = i;
    }
    qsort(ORDER, N_MAP, sizeof ORDER[0], cmp_row);
}

/* Match a Hugging Face base name against a pattern; on a match write the
 * GGUF name (with the same block number) and the suffix into out. */
static int match(const char *pat, const char *gguf, const char *name, const char *suffix, char *out, size_t cap,
                 long *bid, long *xid) {
    const char *p = pat, *s = name, *num = NULL;
    size_t nlen = 0;
    while (*p) {
        if (*p == '*') { /* an expert number */
            if (*s < '0' || *s > '9') return 0;
            const char *x = s;
            while (*s >= '0' && *s <= '9') s++;
            *xid = s - x > 9 ? LONG_MAX : strtol(x, NULL, 10);
            p++;
        } else if (*p == '#') {
            if (*s < '0' || *s > '9') return 0;
            num = s;
            while (*s >= '0' && *s <= '9') s++;
            nlen = (size_t)(s - num);
            p++;
        } else if (*p++ != *s++) {
            return 0;
        }
    }
    if (*s) return 0;
    size_t o = 0;
    for (const char *g = gguf; *g && o + 1 < cap; g++) {
        if (*g == '#' && num) {
            for (size_t i = 0; i < nlen && o + 1 < cap; i++) out[o++] = num[i];
        } else {
            out[o++] = *g;
        }
    }
    out[o] = 0;
    if (strlen(out) + strlen(suffix) + 1 > cap) return 0;
    strcat(out, suffix);
    *bid = num ? (nlen > 9 ? LONG_MAX : strtol(num, NULL, 10)) : -1;
    return 1;
}

/* The map's row for base (its key in key), or NULL. */
static const cv_tmap *shared_row(const char *base, const char *key, const char *suffix, char *out, size_t cap, long *bid,
                                 long *xid) {
    pthread_once(&INDEX_ONCE, build_index);
    size_t lo = 0, hi = N_MAP;
    while (lo < hi) { /* the first row whose key is not below key */
        size_t mid = (lo + hi) / 2;
        if (strcmp(KEYS[ORDER[mid]], key) < 0) lo = mid + 1;
        else hi = mid;
    }
    for (; lo < N_MAP && !strcmp(KEYS[ORDER[lo]], key); lo++) {
        const cv_tmap *m = &NAMEMAP[ORDER[lo]];
        if (match(m->hf, m->gguf, base, suffix, out, cap, bid, xid)) return m;
    }
    return NULL;
}

/* The transforms the reference makes by name for a family (its flags). */
static unsigned family_xform(const cv_family *f, const char *base) {
    unsigned x = 0;
    if (f->flags & CV_F_PERMUTE_QK) /* LlamaModel's permute of q_proj and k_proj */
        x |= lgg__cv_ends_with(base, ".q_proj") ? CV_X_PERM_Q : lgg__cv_ends_with(base, ".k_proj") ? CV_X_PERM_K : 0;
    if ((f->flags & CV_F_NORM_ADD1) && lgg__cv_ends_with(base, "norm")) x |= CV_X_ADD1; /* Gemma's norm + 1 */
    if (f->flags & CV_F_CONV1D) { /* GPT-2's Conv1D matrices, stored (in, out) */
        static const char *const conv[] = {".attn.c_attn", ".attn.c_proj", ".mlp.c_fc", ".mlp.c_fc2", ".mlp.c_proj"};
        for (size_t i = 0; i < sizeof conv / sizeof conv[0]; i++)
            if (lgg__cv_ends_with(base, conv[i])) x |= CV_X_TRANSPOSE;
    }
    return x;
}

/* Whether family f writes GGUF name `gguf` ("blk.#.attn_q"): a word of its kinds. */
static int takes_kind(const cv_family *f, const char *gguf) {
    size_t n = strlen(gguf);
    for (const char *p = f->kinds; p && *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && !memcmp(p, gguf, n)) return 1;
        p += k + (p[k] == ' ');
    }
    return !f->kinds;
}

const cv_tmap *lgg__cv_map_name(const cv_family *f, const char *hf, char *out, size_t cap, unsigned *xform, long *bid,
                                long *xid) {
    char base[512], key[512];
    const char *suffix = "";
    size_t l = strlen(hf);
    if (l >= sizeof base) return NULL;
    memcpy(base, hf, l + 1);
    if (lgg__cv_ends_with(base, ".weight")) suffix = ".weight", base[l - 7] = 0;
    else if (lgg__cv_ends_with(base, ".bias")) suffix = ".bias", base[l - 5] = 0;
    const cv_tmap *m = NULL;
    for (const cv_tmap *o = f->tensors; o && o->hf && !m; o++)
        if (match(o->hf, o->gguf, base, suffix, out, cap, bid, xid)) m = o;
    if (!m && name_key(base, key, sizeof key < KEY_CAP ? sizeof key : KEY_CAP)) {
        m = shared_row(base, key, suffix, out, cap, bid, xid);
        if (m && m->gguf && !takes_kind(f, m->gguf)) return NULL; /* another family's name */
    }
    if (m && (m->xform & CV_X_NO_NAME)) return NULL; /* a name the family's reference does not map */
    if (m) *xform = m->xform | family_xform(f, base);
    return m;
}

size_t lgg__cv_namemap_rows(const cv_tmap **rows) {
    *rows = NAMEMAP;
    return N_MAP;
}
