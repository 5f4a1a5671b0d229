/* test_convert_granitemoe.c -- GraniteMoE (GraniteMoeForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_granitemoe tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

/* GraniteMoE: llama's attention, tied output, E stacked experts with
 * gate and up in one matrix, a router. */
static size_t granitemoe_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(2 * FF, H, "model.layers.%llu.block_sparse_moe.input_linear.weight", b);
        t[n - 1].lead = E;
        ADD(H, FF, "model.layers.%llu.block_sparse_moe.output_linear.weight", b);
        t[n - 1].lead = E;
        ADD(E, H, "model.layers.%llu.block_sparse_moe.router.layer.weight", b);
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"

static const cv_fcase CASES[] = {
    /* GraniteMoE (granite-3.0-1b-a400m's config): multipliers, tied output, 4 experts of width 32 */
    {"granite-moe-tiny-instruct",
     "{\"architectures\":[\"GraniteMoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.1,\"attention_"
     "multiplier\":0.015625,\"bos_token_id\":1,\"embedding_multiplier\":12.0,\"eos_token_id\":2,\"hidden_act\":\"silu\""
     ",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":32,\"logits_scaling\":6.0,\"max_position_e"
     "mbeddings\":4096,\"model_type\":\"granitemoe\",\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_"
     "layers\":2,\"num_key_value_heads\":2,\"num_local_experts\":4,\"output_router_logits\":false,\"pad_token_id\":0,\"r"
     "esidual_multiplier\":0.22,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":10000,\"router_aux_loss_coef"
     "\":0.001,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"vocab_size\":32000}",
     "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json", granitemoe_shapes, 0, 32, 2, 4, 2, 32000,
     LGG_TYPE_BF16, {"be12349620ad90a5689b6e0694b64573e333edce9dab8d6ef4e5916d9f0355b7", "df56a5051df584e551431525f23c6fe2c44eeaa1f2647e236cf04672f7c1b688", "36c1f57385179777c0bb99fa184c33cedd1330bd9e6ba6f76a899028b6cff344", "79c58196170ec4fad20685535c633ff2012bcbb60d8a95768c676a642ff78ed2", "36c1f57385179777c0bb99fa184c33cedd1330bd9e6ba6f76a899028b6cff344"}},
};

TEST(convert_granitemoe) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("GraniteMoeForCausalLM");
}

#endif
