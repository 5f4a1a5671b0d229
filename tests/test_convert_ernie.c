/* test_convert_ernie.c -- ERNIE 4.5 (Ernie4_5ForCausalLM, ernie4_5) and
 * ERNIE 4.5 MoE (Ernie4_5_MoeForCausalLM, ernie4_5-moe), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields and tensor names of ERNIE-4.5-0.3B-PT (head_dim wider than
 * hidden_size / heads, tied embeddings), the same with the fused names of
 * the older "ernie." checkpoints (qkv_proj, up_gate_proj: master splits
 * them) and ERNIE-4.5-21B-A3B-PT (a dense first block, 4 experts of which 2
 * are used, 2 shared experts as one, the router's F32 score correction in
 * moe_statics, the next-token-prediction tensors master leaves out); and
 * PaddleOCR-VL's text (PaddleOCRVLForConditionalGeneration, paddleocr: the
 * dense model's, its vision tower and projector beside it).  The
 * tokenizer is SentencePiece, as ERNIE's: ../shared's Llama 2
 * tokenizer.model (skipped without it) with an ERNIE-style
 * tokenizer_config.json (add_prefix_space false, which master writes as
 * tokenizer.ggml.add_space_prefix) and ERNIE's generation_config.json.  The
 * sha256s are master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>

#define ERNIE_GEN                                                                                                       \
    "{\"do_sample\":true,\"top_p\":0.8,\"temperature\":0.8,\"repetition_penalty\":1.0,\"frequency_penalty\":0.0,\"pre" \
    "sence_penalty\":0.0,\"bos_token_id\":1,\"eos_token_id\":2,\"pad_token_id\":0}"
#define ERNIE_TC                                                                                                        \
    "{\"add_prefix_space\":false,\"bos_token\":\"<s>\",\"eos_token\":\"</s>\",\"pad_token\":\"<unk>\",\"unk_token\":\"" \
    "<unk>\",\"chat_template\":\"{%- for m in messages %}{{ m['role'] + ': ' + m['content'] + '\\n' }}{%- endfor %}\"," \
    "\"model_max_length\":131072,\"padding_side\":\"right\",\"split_special_tokens\":false,\"tokenizer_class\":\"Ernie4" \
    "_5_Tokenizer\"}"

static const char *const FILES[][2] = {
    {"generation_config.json", ERNIE_GEN}, {"tokenizer_config.json", ERNIE_TC}, {NULL, NULL}, {NULL, NULL}};

/* One block's attention at `blk` (its names' prefix, "model.layers.0."):
 * q/k/v/o with 16-wide heads (fused: one qkv_proj), its two norms. */
static size_t ernie_attn(tspec *t, const cv_fcase *m, const char *blk, int fused) {
    uint64_t H = m->H, hd = 16;
    size_t n = 0;
    ADD(H, 0, "%sinput_layernorm.weight", blk);
    ADD(H, 0, "%spost_attention_layernorm.weight", blk);
    if (fused) {
        ADD((m->nh + 2 * m->nkv) * hd, H, "%sself_attn.qkv_proj.weight", blk);
    } else {
        ADD(m->nh * hd, H, "%sself_attn.q_proj.weight", blk);
        ADD(m->nkv * hd, H, "%sself_attn.k_proj.weight", blk);
        ADD(m->nkv * hd, H, "%sself_attn.v_proj.weight", blk);
    }
    ADD(H, m->nh * hd, "%sself_attn.o_proj.weight", blk);
    return n;
}

/* Block b's prefix under `pre` ("model." or "ernie."). */
static const char *block(const char *pre, unsigned long long b) {
    static char s[64];
    snprintf(s, sizeof s, "%slayers.%llu.", pre, b);
    return s;
}

/* A SwiGLU feed-forward FF wide at `at` (fused: up_gate_proj, gate rows first). */
static size_t ernie_mlp(tspec *t, uint64_t H, uint64_t FF, int fused, const char *at, unsigned long long b) {
    size_t n = 0;
    if (fused) {
        ADD(2 * FF, H, at, b, "up_gate_proj");
    } else {
        ADD(FF, H, at, b, "gate_proj");
        ADD(FF, H, at, b, "up_proj");
    }
    ADD(H, FF, at, b, "down_proj");
    return n;
}

static size_t ernie_dense(tspec *t, const cv_fcase *m, int fused) {
    const char *pre = fused ? "ernie." : "model.", *at = fused ? "ernie.layers.%llu.mlp.%s.weight" : "model.layers.%llu.mlp.%s.weight";
    size_t n = 0;
    ADD(m->V, m->H, "%sembed_tokens.weight", pre);
    ADD(m->H, 0, "%snorm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) {
        n += ernie_attn(t + n, m, block(pre, b), fused);
        n += ernie_mlp(t + n, m->H, 96, fused, at, b);
    }
    return cv_case_sort(t, n);
}

static size_t ernie_plain(tspec *t, const cv_fcase *m) { return ernie_dense(t, m, 0); }
static size_t ernie_fused(tspec *t, const cv_fcase *m) { return ernie_dense(t, m, 1); }

/* ERNIE-4.5-21B-A3B: block 0 dense, the others a router with its score
 * correction, 4 experts and the shared experts; the MTP block's tensors. */
static size_t ernie_moe(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, E = 4;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += ernie_attn(t + n, m, block("model.", b), 0);
        if (b == 0) {
            n += ernie_mlp(t + n, H, 96, 0, "model.layers.%llu.mlp.%s.weight", b);
            continue;
        }
        ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
        ADD(1, E, "model.layers.%llu.mlp.moe_statics.e_score_correction_bias", b);
        t[n - 1].dtype = "F32";
        n += ernie_mlp(t + n, H, 64, 0, "model.layers.%llu.mlp.shared_experts.%s.weight", b);
        static const char *const W[3] = {"gate_proj", "up_proj", "down_proj"};
        n += cv_fcase_experts(t + n, "model.layers.%llu.mlp.experts.%llu.%s.weight", b, E, 32, H, W, 2);
    }
    n += ernie_attn(t + n, m, "model.mtp_block.0.", 0);
    n += ernie_mlp(t + n, H, 96, 0, "model.mtp_block.%llu.mlp.%s.weight", 0);
    ADD(H, 0, "model.mtp_emb_norm.0.weight");
    ADD(H, 0, "model.mtp_hidden_norm.0.weight");
    ADD(H, 2 * H, "model.mtp_linear_proj.0.weight");
    return cv_case_sort(t, n);
}

/* PaddleOCR-VL: ERNIE 4.5's dense text under model. with its own head, the vision tower under
 * visual.vision_model. (one block) and the projector under mlp_AR. beside it. */
static size_t paddleocr(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, VH = 16;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += ernie_attn(t + n, m, block("model.", b), 0);
        n += ernie_mlp(t + n, H, 96, 0, "model.layers.%llu.mlp.%s.weight", b);
    }
    ADD(VH, 3 * 14 * 14, "visual.vision_model.embeddings.patch_embedding.weight");
    ADD(16, VH, "visual.vision_model.embeddings.packing_position_embedding.weight");
    ADD(3 * VH, VH, "visual.vision_model.encoder.layers.0.self_attn.qkv.weight");
    ADD(VH, 0, "visual.vision_model.encoder.layers.0.layer_norm1.weight");
    ADD(VH, 0, "visual.vision_model.post_layernorm.weight");
    ADD(VH, 0, "mlp_AR.pre_norm.weight");
    ADD(H, VH, "mlp_AR.linear_1.weight");
    ADD(H, H, "mlp_AR.linear_2.weight");
    return cv_case_sort(t, n);
}

#define TOKDIR "TinyLlama-2-Test-2x32"
#define SPM TOKDIR, "tokenizer.model"

#define ERNIE_DENSE_CONFIG(ARCH)                                                                                        \
    "{\"architectures\":[\"" ARCH "\"],\"bos_token_id\":1,\"eos_token_id\":2,\"head_dim\":16,\"hidden_act\":\"silu\",\"h" \
    "idden_size\":32,\"intermediate_size\":96,\"max_position_embeddings\":131072,\"model_type\":\"ernie4_5\",\"num_atte" \
    "ntion_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":0,\"rms_norm_eps\":1e-05,\"use_" \
    "cache\":false,\"vocab_size\":32000,\"rope_theta\":500000,\"use_bias\":false,\"tie_word_embeddings\":true,\"torch_d" \
    "type\":\"bfloat16\"}"

static const cv_fcase CASES[] = {
    {"ERNIE-4.5-Tiny-PT", ERNIE_DENSE_CONFIG("Ernie4_5ForCausalLM"), SPM, ernie_plain, 0, 32, 2, 4, 2, 32000,
     LGG_TYPE_BF16, {"d7c144c0d8c815559fbf7a967959de96ec899741eafcdcde30478d2184897ebb", "c7d17586a6d7d5e1170326d21b62d6f3ddf0af29948844b1665d0e5652f8256c", "3e9a2eb56c7ae064d9af66f4cae29c179d89078284b3502af0ffef5b32be23f9", "3d366b69cf2b3df1d0c955215aada6c3e2a5f747d84c8cbf9be2be3722f1c8cb", "3e9a2eb56c7ae064d9af66f4cae29c179d89078284b3502af0ffef5b32be23f9"}},
    {"ERNIE-4.5-Tiny-Fused", ERNIE_DENSE_CONFIG("Ernie4_5_ForCausalLM"), SPM, ernie_fused, 0, 32, 2, 4, 2, 32000,
     LGG_TYPE_BF16, {"2b785042d31f0c2e0cdeb690a97a2f35b088f58287c324371d17a03dcb2683e6", "ce3007722bbe787ba82c19c14c95abb348753ed2fe6f51c60d0096be601c28c3", "74eef7b633d97203d1d5bd8d1b0770b5cfb90b778de7db7fd6e6cbcf3719c35a", "f347bef5b248af7031afb6028ac11ac87b1978eaedf174775be45128e8652891", "74eef7b633d97203d1d5bd8d1b0770b5cfb90b778de7db7fd6e6cbcf3719c35a"}},
    {"ERNIE-4.5-Tiny-A3B-PT",
     "{\"architectures\":[\"Ernie4_5_MoeForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"head_dim\":16,\"hidden_"
     "act\":\"silu\",\"hidden_size\":32,\"intermediate_size\":96,\"max_position_embeddings\":131072,\"model_type\":\"ern"
     "ie4_5_moe\",\"moe_capacity\":[4,4,4],\"moe_gate\":\"topk\",\"moe_intermediate_size\":32,\"moe_k\":2,\"moe_layer_en"
     "d_index\":1,\"moe_layer_interval\":1,\"moe_layer_start_index\":1,\"moe_num_experts\":4,\"moe_num_shared_experts\":"
     "2,\"moe_use_aux_free\":true,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_nextn"
     "_predict_layers\":1,\"pad_token_id\":0,\"rms_norm_eps\":1e-05,\"rope_theta\":500000,\"router_aux_loss_coef\":0.001,"
     "\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"use_bias\":false,\"use_cache\":true,\"vocab_size\":3200"
     "0}",
     SPM, ernie_moe, 0, 32, 2, 4, 2, 32000, LGG_TYPE_BF16, {"3045a791cdce0768a057006c1d04ae89aeb68eb4a5d5dc88f6a98d3baf6861f2", "ab470b81036fc0ad2dfa17e5b3b8e713513a551fd94cd863f31adc4862061df8", "357e477417ea7b24933d8433af8c4bd669f82de89eab1a239f9a749cb7f41c9b", "84bbd97e3968f50aebc62bed1505d74f8f64f09a8ba25a69c49e81e3d6079f05", "357e477417ea7b24933d8433af8c4bd669f82de89eab1a239f9a749cb7f41c9b"}},
};

TEST(convert_ernie) {
    if (!cv_case_material(TOKDIR "/tokenizer.model")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, NULL);
    cv_case_supported("Ernie4_5ForCausalLM");
    cv_case_supported("Ernie4_5_ForCausalLM");
    cv_case_supported("Ernie4_5_MoeForCausalLM");
}

/* PaddleOCR-VL's text (PaddleOCRVLForConditionalGeneration, paddleocr): PaddlePaddle/PaddleOCR-VL's config.json
 * fields (M-RoPE sections in rope_scaling, its vision_config beside the text keys, an untied head). */
static const cv_fcase PADDLEOCR[] = {
    {"PaddleOCR-VL-Tiny",
     "{\"architectures\":[\"PaddleOCRVLForConditionalGeneration\"],\"compression_ratio\":1.0,\"head_dim\":16,\"hidd"
     "en_act\":\"silu\",\"hidden_dropout_prob\":0.0,\"hidden_size\":32,\"ignored_index\":-100,\"image_token_id\":100"
     "295,\"intermediate_size\":96,\"max_position_embeddings\":131072,\"max_sequence_length\":null,\"model_type\":\"p"
     "addleocr_vl\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":0,\"r"
     "ms_norm_eps\":1e-05,\"rope_is_neox_style\":true,\"rope_scaling\":{\"mrope_section\":[2,3,3],\"rope_type\":\"defa"
     "ult\",\"type\":\"default\"},\"rope_theta\":500000,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch"
     "_dtype\":\"bfloat16\",\"use_3d_rope\":true,\"use_bias\":false,\"use_cache\":false,\"use_flash_attention\":false,"
     "\"video_token_id\":101307,\"vision_config\":{\"architectures\":[\"SiglipVisionModel\"],\"hidden_size\":16,\"ima"
     "ge_size\":384,\"intermediate_size\":64,\"model_type\":\"paddleocr_vl\",\"num_attention_heads\":2,\"num_hidden_la"
     "yers\":1,\"patch_size\":14,\"spatial_merge_size\":2},\"vision_start_token_id\":101305,\"vocab_size\":32000,\"wei"
     "ght_share_add_bias\":true}",
     SPM, paddleocr, 0, 32, 2, 4, 2, 32000, LGG_TYPE_BF16, {"1e8a7af1c0a4923c0fdbd27306d3bc396e3c9be3eeb64b91c3b2b96e9a5322cc", "ffc37c39b74148e2f5adbf1e1dd7a5d916024bff1c44d24d04bae573369b0f5b", "a37dcda84fda465be228c91ac4cf90e6d63b8a7418e54518a616137ed9d0edfc", "02eac72b8038a9a3d185277bc78f4dd2827427f785c59eb0833f67aba16f5491", "a37dcda84fda465be228c91ac4cf90e6d63b8a7418e54518a616137ed9d0edfc"}},
};

TEST(convert_paddleocr) {
    static const char *const ARCHS[] = {"PaddleOCRVLForConditionalGeneration", NULL};
    if (!cv_case_material(TOKDIR "/tokenizer.model")) return; /* reference material absent */
    const char *dir = cv_fcase_run_named(PADDLEOCR, 1, FILES, NULL, ARCHS);
    if (dir) cv_case_refused(dir, PADDLEOCR[0].config, "\"num_hidden_layers\":2,", "num_hidden_layers");
}

/* What master needs and would stop on: the MoE's counts (KeyError there),
 * a fused qkv_proj whose rows are not the heads' (its split would not
 * give q, k and v), and the MoE's own fused names, which master does not
 * split (no GGUF name there). */
TEST(convert_ernie_refused) {
    if (!cv_case_material(TOKDIR "/tokenizer.model")) return;
    const char *dir = cv_fcase_make(&CASES[2], FILES, NULL);
    REQUIRE(dir != NULL);
    cv_case_refused(dir, CASES[2].config, "\"moe_k\":2,", "'moe_k'");
    cv_case_refused(dir, CASES[2].config, "\"moe_layer_interval\":1,", "'moe_layer_interval'");
    dir = cv_fcase_make(&CASES[1], FILES, NULL);
    REQUIRE(dir != NULL);
    cv_case_refused(dir, CASES[1].config, "\"num_key_value_heads\":2,", "qkv_proj");
    cv_case_refused(dir, CASES[1].config, "\"head_dim\":16,", "qkv_proj"); /* hidden_size / heads: 8 */
    char moe[2048]; /* the fused checkpoint named the MoE */
    snprintf(moe, sizeof moe, "{\"architectures\":[\"Ernie4_5_MoeForCausalLM\"],\"moe_num_experts\":4,\"moe_k\":2,"
             "\"moe_layer_interval\":1,\"moe_layer_start_index\":1,%s", strchr(CASES[1].config, ']') + 2);
    cv_case_refused(dir, moe, "\"use_cache\":false,", "no GGUF name");
}

#endif
