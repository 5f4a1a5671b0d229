/* test_convert_gptneox.c -- GPT-NeoX (GPTNeoXForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_gptneox tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

static size_t neox_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "gpt_neox.embed_in.weight");
    ADD(m->V, H, "embed_out.weight");
    ADD(H, 0, "gpt_neox.final_layer_norm.weight");
    ADD(H, 0, "gpt_neox.final_layer_norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(8, 8, "gpt_neox.layers.%llu.attention.bias", b);
        t[n - 1].ones = 2, t[n - 1].dtype = "BOOL";
        ADD(0, 0, "gpt_neox.layers.%llu.attention.masked_bias", b);
        t[n - 1].scalar = 1;
        ADD(H / m->nh / 2, 0, "gpt_neox.layers.%llu.attention.rotary_emb.inv_freq", b);
        t[n - 1].dtype = "F32";
        ADD(3 * H, H, "gpt_neox.layers.%llu.attention.query_key_value.weight", b);
        ADD(3 * H, 0, "gpt_neox.layers.%llu.attention.query_key_value.bias", b);
        ADD(H, H, "gpt_neox.layers.%llu.attention.dense.weight", b);
        ADD(H, 0, "gpt_neox.layers.%llu.attention.dense.bias", b);
        const char *ln[2] = {"input_layernorm", "post_attention_layernorm"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "gpt_neox.layers.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "gpt_neox.layers.%llu.%s.bias", b, ln[k]);
        }
        ADD(4 * H, H, "gpt_neox.layers.%llu.mlp.dense_h_to_4h.weight", b);
        ADD(4 * H, 0, "gpt_neox.layers.%llu.mlp.dense_h_to_4h.bias", b);
        ADD(H, 4 * H, "gpt_neox.layers.%llu.mlp.dense_4h_to_h.weight", b);
        ADD(H, 0, "gpt_neox.layers.%llu.mlp.dense_4h_to_h.bias", b);
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"
#define QWEN TOKDIR, TOKFILES

static const cv_fcase CASES[] = {
    /* GPT-NeoX (Pythia's config): F16 weights, the BOOL mask, the 0-d masked_bias and inv_freq */
    {"pythia-tiny",
     "{\"architectures\":[\"GPTNeoXForCausalLM\"],\"bos_token_id\":0,\"eos_token_id\":0,\"hidden_act\":\"gelu\",\"hidden_"
     "size\":32,\"initializer_range\":0.02,\"intermediate_size\":128,\"layer_norm_eps\":1e-05,\"max_position_embeddings\":2"
     "048,\"model_type\":\"gpt_neox\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"rotary_emb_base\":10000,\"rotary_"
     "pct\":0.25,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"use_cache\":true,\"use_parallel_residual\":true"
     ",\"vocab_size\":151936}",
     QWEN, neox_shapes, 0, 32, 2, 4, 4, 151936, LGG_TYPE_F16, {"9457ec98cb71ecc2983b4c72b483d487cbb8229fcb03847c761f8e43026ce959", "9e35d39836f980d4755ed1875aafe8949968eb2037c0159617cfff5a2565abe8", "cdb6b249ddc40d0d50bd7a1e151fac1c3796d0142d020886a09bad1edc7958e3", "5c3698186380a33b9137044e857fdebcb350b5ebd2eb3e72ecfb970ddb45c7dc", "9e35d39836f980d4755ed1875aafe8949968eb2037c0159617cfff5a2565abe8"}},
};

TEST(convert_gptneox) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("GPTNeoXForCausalLM");
    const char *dir;
    if ((dir = cv_fcase_make(&CASES[0], NULL, NULL))) cv_case_refused(dir, CASES[0].config, "\"rotary_pct\":0.25,", "'rotary_pct'");
}

#endif
