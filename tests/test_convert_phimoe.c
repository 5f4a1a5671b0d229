/* test_convert_phimoe.c -- PhiMoE (PhiMoEForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_phimoe tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

/* PhiMoE: biased norms, projections and output, E experts of width FF. */
static size_t phimoe_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, E = 4, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(m->V, 0, "lm_head.bias");
    ADD(H, 0, "model.norm.weight");
    ADD(H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *ln[2] = {"input_layernorm", "post_attention_layernorm"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "model.layers.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "model.layers.%llu.%s.bias", b, ln[k]);
        }
        const char *proj[4] = {"q", "k", "v", "o"};
        uint64_t rows[4] = {m->nh * hd, m->nkv * hd, m->nkv * hd, H}, cols[4] = {H, H, H, m->nh * hd};
        for (int k = 0; k < 4; k++) {
            ADD(rows[k], cols[k], "model.layers.%llu.self_attn.%s_proj.weight", b, proj[k]);
            ADD(rows[k], 0, "model.layers.%llu.self_attn.%s_proj.bias", b, proj[k]);
        }
        ADD(E, H, "model.layers.%llu.block_sparse_moe.gate.weight", b);
        for (unsigned long long x = 0; x < E; x++) {
            ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%llu.w1.weight", b, x);
            ADD(H, FF, "model.layers.%llu.block_sparse_moe.experts.%llu.w2.weight", b, x);
            ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%llu.w3.weight", b, x);
        }
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"

static const cv_fcase CASES[] = {
    /* PhiMoE (Phi-3.5-MoE's config): longrope factors, 4 experts, a SentencePiece vocabulary padded to vocab_size */
    {"Phi-3.5-MoE-tiny-instruct",
     "{\"architectures\":[\"PhiMoEForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.0,\"bos_token_id\":1,"
     "\"eos_token_id\":32000,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"input_jitter_n"
     "oise\":0.01,\"intermediate_size\":64,\"lm_head_bias\":true,\"max_position_embeddings\":131072,\"model_type\":\"p"
     "himoe\",\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"n"
     "um_local_experts\":4,\"original_max_position_embeddings\":4096,\"output_router_logits\":false,\"rms_norm_eps\":1e"
     "-05,\"rope_scaling\":{\"long_factor\":[1.0199999809265137,1.5,3.140000104904175,12.5],\"long_mscale\":1.243163121"
     "016122,\"original_max_position_embeddings\":4096,\"short_factor\":[1.0,1.0399999618530273,1.25,1.9900000095367432],"
     "\"short_mscale\":1.243163121016122,\"type\":\"longrope\"},\"rope_theta\":10000.0,\"router_aux_loss_coef\":0.0,\"r"
     "outer_jitter_noise\":0.01,\"sliding_window\":131072,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"v"
     "ocab_size\":32064}",
     "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json", phimoe_shapes, 0, 32, 2, 4, 2, 32064,
     LGG_TYPE_BF16, {"01ea4f71b22d5f226cba93f6342c61461df61d4a8e2c07d79015338e78d5c75b", "344183f8cc614a88a46fa746060308ec70e8cf9170918b05aaad63eef17b2c45", "adeca0e8a11ff53ccf09d2b300ec618e523f693326149cceb943e4a39321049d", "31ba32850d97bc4e5a4a442bdd6c83cd84518087e1235e48936efb4d5eb62c73", "adeca0e8a11ff53ccf09d2b300ec618e523f693326149cceb943e4a39321049d"}},
};

TEST(convert_phimoe) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("PhiMoEForCausalLM");
}

#endif
