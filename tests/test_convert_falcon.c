/* test_convert_falcon.c -- Falcon (FalconForCausalLM, RWForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_falcon tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

/* Falcon 40B's layout (two norms per block, nkv key/value heads) or 7B's
 * (one norm, nkv 0: multi-query, no count in config.json). */
static size_t falcon_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, kv = m->nkv ? m->nkv : 1;
    size_t n = 0;
    ADD(m->V, H, "transformer.word_embeddings.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    ADD(H, 0, "transformer.ln_f.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *ln[2] = {m->nkv ? "ln_attn" : "input_layernorm", "ln_mlp"};
        for (int k = 0; k < (m->nkv ? 2 : 1); k++) {
            ADD(H, 0, "transformer.h.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "transformer.h.%llu.%s.bias", b, ln[k]);
        }
        ADD((m->nh + 2 * kv) * hd, H, "transformer.h.%llu.self_attention.query_key_value.weight", b);
        ADD(H, H, "transformer.h.%llu.self_attention.dense.weight", b);
        ADD(4 * H, H, "transformer.h.%llu.mlp.dense_h_to_4h.weight", b);
        ADD(H, 4 * H, "transformer.h.%llu.mlp.dense_4h_to_h.weight", b);
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"
#define QWEN TOKDIR, TOKFILES

static const cv_fcase CASES[] = {
    /* Falcon 40B's layout: 2 key/value heads for 4 heads, ln_attn and ln_mlp, BF16 */
    {"falcon-tiny-40b",
     "{\"alibi\":false,\"apply_residual_connection_post_layernorm\":false,\"architectures\":[\"FalconForCausalLM\"],\"atten"
     "tion_dropout\":0.0,\"bias\":false,\"bos_token_id\":151643,\"eos_token_id\":151643,\"hidden_dropout\":0.0,\"hidden_size"
     "\":32,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type\":\"falcon\",\"new_decoder_architecture\":t"
     "rue,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_kv_heads\":2,\"parallel_attn\":true,\"torch_dtype\":\"bflo"
     "at16\",\"vocab_size\":151936}",
     QWEN, falcon_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"dbbb61bf0eb6966f8b00755f6ef360857822d27bfda36d02e5c067b56ac317fc", "3d03b654a607925700814d5be9cb14f5935efeb1657526f2db3cf0026d964299", "bca5b2871a49ba0c8246573dad9e309750c389493268111b140e0eb48ca6669e", "07a359d20f92176f3b38b6a9b2ae07d4f16152ac2acd81faa10b59e20ea32e42", "bca5b2871a49ba0c8246573dad9e309750c389493268111b140e0eb48ca6669e"}},
    /* Falcon 7B's: multi-query (no key/value head count: 1), one norm per block, the old RW name, F32 */
    {"falcon-tiny-7b",
     "{\"alibi\":false,\"apply_residual_connection_post_layernorm\":false,\"architectures\":[\"RWForCausalLM\"],\"attention"
     "_dropout\":0.0,\"bias\":false,\"bos_token_id\":151643,\"eos_token_id\":151643,\"hidden_dropout\":0.0,\"hidden_size\":32"
     ",\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type\":\"falcon\",\"multi_query\":true,\"new_decoder_a"
     "rchitecture\":false,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"parallel_attn\":true,\"torch_dtype\":\"float32"
     "\",\"vocab_size\":151936}",
     QWEN, falcon_shapes, 0, 32, 2, 4, 0, 151936, LGG_TYPE_F32, {"7507109171f58c80bc168fc0c949d797b631889f5a635fe3840679ad029016b1", "8c7886c17900ea75820dfa3a3e9ef4bb69ddd04e1dcff9e0b8946844adcd7f3f", "95d7f1d23126ad2f86d5b97a8a3da5420d93128596b6dba2289dbe259ed9f4fe", "f47e55c577f7fcf893173d741c21522dde2168e226ba683cea8afa4206726bec", "95d7f1d23126ad2f86d5b97a8a3da5420d93128596b6dba2289dbe259ed9f4fe"}},
};

TEST(convert_falcon) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("FalconForCausalLM");
    cv_case_supported("RWForCausalLM");
    const char *dir;
    if ((dir = cv_fcase_make(&CASES[0], NULL, NULL))) cv_case_refused(dir, CASES[0].config, "\"layer_norm_epsilon\":1e-05,", "'layer_norm_epsilon'");
    /* without num_kv_heads Falcon has one key/value head: the fused matrix does not fit, named */
    if ((dir = cv_fcase_make(&CASES[0], NULL, NULL))) cv_case_refused(dir, CASES[0].config, "\"num_kv_heads\":2,", "'transformer.h.0.self_attention.query_key_value.weight'");
}

#endif
