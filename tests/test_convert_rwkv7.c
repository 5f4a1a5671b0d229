/* test_convert_rwkv7.c -- RWKV-7 (RWKV7ForCausalLM, Rwkv7ForCausalLM:
 * rwkv7), which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with
 * fla-hub/rwkv7-1.5B-world's config.json fields (head_dim, norm_eps, the
 * four low-rank sizes) and tensor names: the token shifts x_r..x_g as
 * (1, 1, hidden), k_k, k_a, r_k per head, r/k/v/o projections, the w, a, v
 * and g LoRAs as fla's lora.0/lora.2 (no v LoRA in block 0: master writes
 * a's there), g_norm, attn_norm/ffn_norm, block 0's pre_norm, the channel
 * mix's x_k, key and value, its own head; and a world vocabulary in
 * rwkv_vocab_v20230424.txt's form written here (seeded pieces: str and
 * bytes literals).  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

enum { R_DECAY = 8, R_A = 8, R_V = 8, R_G = 16, FF = 256 };

static size_t rwkv7_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H;
    size_t n = 0;
    char p[40];
    snprintf(p, sizeof p, "model.layers.%llu", b % 100);
    static const char *const X[] = {"x_r", "x_w", "x_k", "x_v", "x_a", "x_g"};
    for (int k = 0; k < 6; k++) ADD(1, H, "%s.attn.%s", p, X[k]), t[n - 1].lead = 1;
    ADD(H, 0, "%s.attn.k_k", p);
    ADD(H, 0, "%s.attn.k_a", p);
    ADD(m->nh, H / m->nh, "%s.attn.r_k", p);
    static const char *const PROJ[] = {"r_proj", "k_proj", "v_proj", "o_proj"};
    for (int k = 0; k < 4; k++) ADD(H, H, "%s.attn.%s.weight", p, PROJ[k]);
    const struct { const char *name; uint64_t r; int bias; } LORA[] = {{"w", R_DECAY, 1}, {"a", R_A, 1}, {"v", R_V, 1}, {"g", R_G, 0}};
    for (int k = 0; k < 4; k++) {
        if (b == 0 && k == 2) continue; /* block 0 has no value-residual LoRA */
        ADD(LORA[k].r, H, "%s.attn.%s_lora.lora.0.weight", p, LORA[k].name);
        ADD(H, LORA[k].r, "%s.attn.%s_lora.lora.2.weight", p, LORA[k].name);
        if (LORA[k].bias) ADD(H, 0, "%s.attn.%s_lora.lora.2.bias", p, LORA[k].name);
    }
    static const char *const NORMS[] = {"attn.g_norm", "attn_norm", "ffn_norm"};
    for (int k = 0; k < 3; k++) ADD(H, 0, "%s.%s.weight", p, NORMS[k]), ADD(H, 0, "%s.%s.bias", p, NORMS[k]);
    if (b == 0) ADD(H, 0, "%s.pre_norm.weight", p), ADD(H, 0, "%s.pre_norm.bias", p);
    ADD(1, H, "%s.ffn.x_k", p), t[n - 1].lead = 1;
    ADD(FF, H, "%s.ffn.key.weight", p);
    ADD(H, FF, "%s.ffn.value.weight", p);
    return n;
}

static size_t rwkv7_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embeddings.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    ADD(m->H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) n += rwkv7_block(t + n, m, b);
    return cv_case_sort(t, n);
}

/* fla-hub/rwkv7-1.5B-world's config.json at a tiny size. */
#define RWKV7_CONFIG                                                                                                     \
    "{\"a_low_rank_dim\":8,\"architectures\":[\"RWKV7ForCausalLM\"],\"attn\":null,\"attn_mode\":\"chunk\",\"bos_token_i" \
    "d\":0,\"decay_low_rank_dim\":8,\"eos_token_id\":0,\"fuse_cross_entropy\":true,\"fuse_norm\":false,\"gate_low_rank_d" \
    "im\":16,\"head_dim\":16,\"hidden_act\":\"sqrelu\",\"hidden_ratio\":4.0,\"hidden_size\":64,\"initializer_range\":0.0" \
    "06,\"intermediate_size\":256,\"max_position_embeddings\":2048,\"model_type\":\"rwkv7\",\"norm_bias\":true,\"norm_ep" \
    "s\":1e-05,\"norm_first\":true,\"num_heads\":4,\"num_hidden_layers\":2,\"tie_word_embeddings\":false,\"torch_dtype\"" \
    ":\"bfloat16\",\"transformers_version\":\"4.48.0\",\"use_cache\":true,\"v_low_rank_dim\":8,\"vocab_size\":320}"

#define RWKV7_TC                                                                                                          \
    "{\"add_bos_token\":false,\"add_eos_token\":false,\"bos_token\":\"<s>\",\"clean_up_tokenization_spaces\":false,\"eo" \
    "s_token\":\"<s>\",\"model_max_length\":1000000000000000019884624838656,\"pad_token\":\"<s>\",\"tokenizer_class\":\"R" \
    "wkv6Tokenizer\",\"unk_token\":\"<s>\"}"

static const char *const FILES[][2] = {{"tokenizer_config.json", RWKV7_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* rwkv_vocab_v20230424.txt's form: "id literal length", the 256 single bytes (as str literals where printable
 * ASCII, else bytes ones) then seeded pieces of several bytes. */
static int write_vocab(const char *dir) {
    static const char *const PIECES[] = {"the", " of", "\\u3042", "\\xe9t\\xe9", "\\n\\n", "ing", "\\\\", "\\'s"};
    static const int LEN[] = {3, 3, 3, 5, 2, 3, 1, 2};
    char path[4300];
    snprintf(path, sizeof path, "%s/rwkv_vocab_v20230424.txt", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    int id = 1;
    for (int ch = 0; ch < 256; ch++, id++) {
        if (ch >= 0x20 && ch < 0x7f && ch != '\'' && ch != '\\') fprintf(f, "%d '%c' 1\n", id, ch);
        else fprintf(f, "%d b'\\x%02x' 1\n", id, ch);
    }
    uint64_t z = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < 40; i++, id++) {
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        int a = (int)(z >> 60) % 8, b = (int)(z >> 56) % 8;
        fprintf(f, "%d '%s%s%d' %d\n", id, PIECES[a], PIECES[b], i, LEN[a] + LEN[b] + (i > 9 ? 2 : 1));
    }
    return fclose(f) == 0;
}

static const cv_fcase CASES[] = {
    {"RWKV7-Tiny-Test", RWKV7_CONFIG, "", "", rwkv7_shapes, 0, 64, 2, 4, 4, 320, LGG_TYPE_BF16,
     {"2330a195f5ed4498c7a81ea4bf7c897a33c0c9db7f12283b887d152b3553b8b6", "b8151bc65061cf8f885ed73991446371542401a592bb18f43465610e82163c8d",
      "c4fa12cacb6129e4b4ce648bd061c6741614728013a8797e2b3335da5c1dfc37", "e21644599c24c58d7e0b7ad9b492360d15f0f5e214ab5fbaadf60875e1a63a4e",
      "c4fa12cacb6129e4b4ce648bd061c6741614728013a8797e2b3335da5c1dfc37"}},
};

TEST(convert_rwkv7) {
    static const char *const ARCHS[] = {"RWKV7ForCausalLM", "Rwkv7ForCausalLM", NULL};
    const char *dir = cv_fcase_run_named(CASES, sizeof CASES / sizeof CASES[0], FILES, write_vocab, ARCHS);
    if (!dir) return;
    cv_case_refused(dir, CASES[0].config, "\"intermediate_size\":256,", "'intermediate_size'");
    cv_case_refused(dir, CASES[0].config, "\"norm_eps\":1e-05,", "'norm_eps'");
}

#endif
