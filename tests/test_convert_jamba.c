/* test_convert_jamba.c -- Jamba (JambaForCausalLM, jamba), which only
 * llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with Jamba-v0.1's config.json fields
 * (attention every attn_layer_period blocks from attn_layer_offset, MoE
 * every expert_layer_period from expert_layer_offset, Mamba blocks with
 * x_proj, dt/B/C layer norms, conv1d and dt_proj biases) and tensor names:
 * block 0 a Mamba block with a dense feed-forward, block 2 the same with
 * its feed-forward as a single expert (feed_forward.experts.0.*, the older
 * layout master reads as dense), blocks 1 and 3 attention with 4 experts
 * and the router.  Jamba's tokenizer is SentencePiece, as ../shared's
 * TinyLlama-2-Test-2x32 tokenizer.model (with its tokenizer.json and
 * tokenizer_config.json; skipped without ../shared), and the same without
 * tokenizer.model (master's LlamaHfVocab over tokenizer.json, then
 * add_space_prefix false).  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};

/* A Mamba block's mixer (d_inner 64, d_state 8, dt_rank 4, d_conv 4). */
static size_t jamba_mamba(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, DI = 64, DS = 8, R = 4;
    size_t n = 0;
    ADD(2 * DI, H, "model.layers.%llu.mamba.in_proj.weight", b);
    ADD(DI, 1, "model.layers.%llu.mamba.conv1d.weight", b);
    t[n - 1].lead = DI, t[n - 1].d0 = 1, t[n - 1].d1 = 4; /* (d_inner, 1, d_conv) */
    ADD(DI, 0, "model.layers.%llu.mamba.conv1d.bias", b);
    ADD(R + 2 * DS, DI, "model.layers.%llu.mamba.x_proj.weight", b);
    ADD(DI, R, "model.layers.%llu.mamba.dt_proj.weight", b);
    ADD(DI, 0, "model.layers.%llu.mamba.dt_proj.bias", b);
    ADD(DI, DS, "model.layers.%llu.mamba.A_log", b);
    ADD(DI, 0, "model.layers.%llu.mamba.D", b);
    ADD(H, DI, "model.layers.%llu.mamba.out_proj.weight", b);
    ADD(R, 0, "model.layers.%llu.mamba.dt_layernorm.weight", b);
    ADD(DS, 0, "model.layers.%llu.mamba.b_layernorm.weight", b);
    ADD(DS, 0, "model.layers.%llu.mamba.c_layernorm.weight", b);
    return n;
}

static size_t jamba_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, hd = H / m->nh, FF = 48;
    size_t n = 0;
    ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(H, 0, "model.layers.%llu.pre_ff_layernorm.weight", b);
    if (b % 2 == 0) {
        n += jamba_mamba(t + n, m, b);
        const char *pre = b == 0 ? "" : "experts.0.";
        for (int k = 0; k < 3; k++)
            ADD(k == 2 ? H : FF, k == 2 ? FF : H, "model.layers.%llu.feed_forward.%s%s.weight", b, pre, W[k]);
        return n;
    }
    ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
    ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
    ADD(4, H, "model.layers.%llu.feed_forward.router.weight", b);
    return n + cv_fcase_experts(t + n, "model.layers.%llu.feed_forward.experts.%llu.%s.weight", b, 4, FF, H, W, 2);
}

static size_t jamba_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.final_layernorm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += jamba_block(t + n, m, b);
    return cv_case_sort(t, n);
}

#define JAMBA_CONFIG \
    "{\"architectures\":[\"JambaForCausalLM\"],\"attention_dropout\":0.0,\"attn_layer_offset\":1,\"attn_layer_period\":2" \
    ",\"bos_token_id\":1,\"eos_token_id\":2,\"expert_layer_offset\":1,\"expert_layer_period\":2,\"hidden_act\":\"silu\",\"h" \
    "idden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":48,\"mamba_conv_bias\":true,\"mamba_d_conv\":4,\"ma" \
    "mba_d_state\":8,\"mamba_dt_rank\":4,\"mamba_expand\":2,\"mamba_proj_bias\":false,\"max_position_embeddings\":262144," \
    "\"model_type\":\"jamba\",\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":4" \
    ",\"num_key_value_heads\":2,\"num_logits_to_keep\":1,\"output_router_logits\":false,\"pad_token_id\":0,\"rms_norm_eps" \
    "\":1e-06,\"router_aux_loss_coef\":0.001,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\"bflo" \
    "at16\",\"transformers_version\":\"4.40.0.dev0\",\"use_cache\":true,\"use_mamba_kernels\":true,\"vocab_size\":32000}"

static const cv_fcase CASES[] = {
    {"Jamba-Tiny-Test",
     JAMBA_CONFIG,
     "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer.json tokenizer_config.json special_tokens_map.json", jamba_shapes, 0,
     32, 4, 4, 2, 32000, LGG_TYPE_BF16, {"06f3a07628b327927f22800ca892aa51e9492cc6b65a18fb2d7fc629e0a92035", "dbf2f2e00508bc5139462154621cc1b3edd790d74ab3c9a074b34c0c1a407c66",
      "03dd19b74981b1cd9025e325ae496e7a8f1fc7bd6c3d8ccaffa4dca8c1bf86b9", "820bc388eef0a144d9fa17d8d66997b6a7bafe0116ff6aacc48206b76d7faf5c",
      "03dd19b74981b1cd9025e325ae496e7a8f1fc7bd6c3d8ccaffa4dca8c1bf86b9"}},
    {"Jamba-HfVocab-Tiny-Test",
     JAMBA_CONFIG,
     "TinyLlama-2-Test-2x32", "tokenizer.json tokenizer_config.json special_tokens_map.json", jamba_shapes, 0,
     32, 4, 4, 2, 32000, LGG_TYPE_BF16, {"2113d9220a9bbaf40d70a2ec17cc3ee08abe6f143460cf8defbc96b6e869ac65", "57166b5ae8af9fd78053242de071e3d588ed8a90db81266aac7834e1c86f16c5",
      "cd28802e7ae9bad03dc064722b72b1c38003649df05af8ef1bf06aa074f68a15", "7f39fbd6de4c1b30557119e72013ed27b2bbaaf37c27edce8ae6e6dacef82362",
      "cd28802e7ae9bad03dc064722b72b1c38003649df05af8ef1bf06aa074f68a15"}},
};

TEST(convert_jamba) {
    if (!cv_case_material("TinyLlama-2-Test-2x32/tokenizer.model")) return;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("JambaForCausalLM");
    const char *dir = cv_fcase_make(&CASES[0], NULL, NULL);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused(dir, CASES[0].config, "\"mamba_expand\":2,", "'mamba_expand'");
    cv_case_refused_edit(dir, CASES[0].config, "\"attn_layer_period\":2", "\"attn_layer_period\":0", "'attn_layer_period'");
    cv_case_refused_edit(dir, CASES[0].config, "\"expert_layer_period\":2", "\"expert_layer_period\":0", "'expert_layer_period'");
}

#endif
