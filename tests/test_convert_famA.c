/* test_convert_famA.c -- GPT-2, GPT-NeoX and Falcon (issue 25) against
 * llama.cpp b4747's convert_hf_to_gguf.py: tiny checkpoints with the
 * config.json fields and tensor names the families' real checkpoints have
 * (GPT-2's causal-mask buffers, GPT-NeoX's BOOL mask, 0-d masked_bias and
 * rotary inv_freq, which the reference drops), written again byte for byte
 * by convert_cases.c; the sha256s of the reference's outputs are recorded
 * here (LGG_REF_TEST=convert_famA tests/convert_reference.sh remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <unistd.h>

enum { GPT2, NEOX, FALCON, PHIMOE, GRANITEMOE, EXAONE, INTERNLM2, INTERNLM3, STARCODER };

typedef struct fcase {
    const char *name, *config, *tokdir, *tokfiles;
    int kind, prefix;      /* prefix: GPT-2's names under "transformer." */
    uint64_t H, L, nh, nkv, V;
    uint32_t dtype;
    const char *sha[5];    /* the reference's output for f32, f16, bf16, q8_0, auto */
} fcase;

static size_t gpt2_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H;
    const char *p = m->prefix ? "transformer." : "";
    size_t n = 0;
    ADD(m->V, H, "%swte.weight", p);
    ADD(64, H, "%swpe.weight", p);
    ADD(H, 0, "%sln_f.weight", p);
    ADD(H, 0, "%sln_f.bias", p);
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(8, 8, "%sh.%llu.attn.bias", p, b);
        t[n - 1].ones = 2;
        ADD(0, 0, "%sh.%llu.attn.masked_bias", p, b);
        t[n - 1].scalar = 1;
        ADD(H, 3 * H, "%sh.%llu.attn.c_attn.weight", p, b);
        ADD(3 * H, 0, "%sh.%llu.attn.c_attn.bias", p, b);
        ADD(H, H, "%sh.%llu.attn.c_proj.weight", p, b);
        ADD(H, 0, "%sh.%llu.attn.c_proj.bias", p, b);
        const char *ln[2] = {"ln_1", "ln_2"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "%sh.%llu.%s.weight", p, b, ln[k]);
            ADD(H, 0, "%sh.%llu.%s.bias", p, b, ln[k]);
        }
        ADD(H, 4 * H, "%sh.%llu.mlp.c_fc.weight", p, b);
        ADD(4 * H, 0, "%sh.%llu.mlp.c_fc.bias", p, b);
        ADD(4 * H, H, "%sh.%llu.mlp.c_proj.weight", p, b);
        ADD(H, 0, "%sh.%llu.mlp.c_proj.bias", p, b);
    }
    return cv_case_sort(t, n);
}

static size_t neox_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "gpt_neox.embed_in.weight");
    ADD(m->V, H, "embed_out.weight");
    ADD(H, 0, "gpt_neox.final_layer_norm.weight");
    ADD(H, 0, "gpt_neox.final_layer_norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(8, 8, "gpt_neox.layers.%llu.attention.bias", b);
        t[n - 1].ones = 2, t[n - 1].dtype = "BOOL";
        ADD(0, 0, "gpt_neox.layers.%llu.attention.masked_bias", b);
        t[n - 1].scalar = 1;
        ADD(H / m->nh / 2, 0, "gpt_neox.layers.%llu.attention.rotary_emb.inv_freq", b);
        t[n - 1].dtype = "F32";
        ADD(3 * H, H, "gpt_neox.layers.%llu.attention.query_key_value.weight", b);
        ADD(3 * H, 0, "gpt_neox.layers.%llu.attention.query_key_value.bias", b);
        ADD(H, H, "gpt_neox.layers.%llu.attention.dense.weight", b);
        ADD(H, 0, "gpt_neox.layers.%llu.attention.dense.bias", b);
        const char *ln[2] = {"input_layernorm", "post_attention_layernorm"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "gpt_neox.layers.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "gpt_neox.layers.%llu.%s.bias", b, ln[k]);
        }
        ADD(4 * H, H, "gpt_neox.layers.%llu.mlp.dense_h_to_4h.weight", b);
        ADD(4 * H, 0, "gpt_neox.layers.%llu.mlp.dense_h_to_4h.bias", b);
        ADD(H, 4 * H, "gpt_neox.layers.%llu.mlp.dense_4h_to_h.weight", b);
        ADD(H, 0, "gpt_neox.layers.%llu.mlp.dense_4h_to_h.bias", b);
    }
    return cv_case_sort(t, n);
}

/* StarCoder (GPTBigCode): GPT-2's names as torch Linear layers (out, in),
 * multi-query attention (q, then one key and one value head), the output
 * tied to the embeddings (not in the file). */
static size_t starcoder_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh;
    size_t n = 0;
    ADD(m->V, H, "transformer.wte.weight");
    ADD(64, H, "transformer.wpe.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    ADD(H, 0, "transformer.ln_f.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *ln[2] = {"ln_1", "ln_2"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "transformer.h.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "transformer.h.%llu.%s.bias", b, ln[k]);
        }
        ADD(H + 2 * hd, H, "transformer.h.%llu.attn.c_attn.weight", b);
        ADD(H + 2 * hd, 0, "transformer.h.%llu.attn.c_attn.bias", b);
        ADD(H, H, "transformer.h.%llu.attn.c_proj.weight", b);
        ADD(H, 0, "transformer.h.%llu.attn.c_proj.bias", b);
        ADD(4 * H, H, "transformer.h.%llu.mlp.c_fc.weight", b);
        ADD(4 * H, 0, "transformer.h.%llu.mlp.c_fc.bias", b);
        ADD(H, 4 * H, "transformer.h.%llu.mlp.c_proj.weight", b);
        ADD(H, 0, "transformer.h.%llu.mlp.c_proj.bias", b);
    }
    return cv_case_sort(t, n);
}

/* Falcon 40B's layout (two norms per block, nkv key/value heads) or 7B's
 * (one norm, nkv 0: multi-query, no count in config.json). */
static size_t falcon_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, kv = m->nkv ? m->nkv : 1;
    size_t n = 0;
    ADD(m->V, H, "transformer.word_embeddings.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    ADD(H, 0, "transformer.ln_f.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *ln[2] = {m->nkv ? "ln_attn" : "input_layernorm", "ln_mlp"};
        for (int k = 0; k < (m->nkv ? 2 : 1); k++) {
            ADD(H, 0, "transformer.h.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "transformer.h.%llu.%s.bias", b, ln[k]);
        }
        ADD((m->nh + 2 * kv) * hd, H, "transformer.h.%llu.self_attention.query_key_value.weight", b);
        ADD(H, H, "transformer.h.%llu.self_attention.dense.weight", b);
        ADD(4 * H, H, "transformer.h.%llu.mlp.dense_h_to_4h.weight", b);
        ADD(H, 4 * H, "transformer.h.%llu.mlp.dense_4h_to_h.weight", b);
    }
    return cv_case_sort(t, n);
}

/* PhiMoE: biased norms, projections and output, E experts of width FF. */
static size_t phimoe_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, E = 4, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(m->V, 0, "lm_head.bias");
    ADD(H, 0, "model.norm.weight");
    ADD(H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *ln[2] = {"input_layernorm", "post_attention_layernorm"};
        for (int k = 0; k < 2; k++) {
            ADD(H, 0, "model.layers.%llu.%s.weight", b, ln[k]);
            ADD(H, 0, "model.layers.%llu.%s.bias", b, ln[k]);
        }
        const char *proj[4] = {"q", "k", "v", "o"};
        uint64_t rows[4] = {m->nh * hd, m->nkv * hd, m->nkv * hd, H}, cols[4] = {H, H, H, m->nh * hd};
        for (int k = 0; k < 4; k++) {
            ADD(rows[k], cols[k], "model.layers.%llu.self_attn.%s_proj.weight", b, proj[k]);
            ADD(rows[k], 0, "model.layers.%llu.self_attn.%s_proj.bias", b, proj[k]);
        }
        ADD(E, H, "model.layers.%llu.block_sparse_moe.gate.weight", b);
        for (unsigned long long x = 0; x < E; x++) {
            ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%llu.w1.weight", b, x);
            ADD(H, FF, "model.layers.%llu.block_sparse_moe.experts.%llu.w2.weight", b, x);
            ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%llu.w3.weight", b, x);
        }
    }
    return cv_case_sort(t, n);
}

/* GraniteMoE: llama's attention, tied output, E stacked experts with
 * gate and up in one matrix, a router. */
static size_t granitemoe_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, E = 4, FF = 32;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.block_sparse_moe.input_linear.weight", b);
        t[n - 1].lead = E;
        ADD(H, FF, "model.layers.%llu.block_sparse_moe.output_linear.weight", b);
        t[n - 1].lead = E;
        ADD(E, H, "model.layers.%llu.block_sparse_moe.router.layer.weight", b);
    }
    return cv_case_sort(t, n);
}

/* Exaone: GPT-2's outer names, llama's blocks under other names. */
static size_t exaone_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "transformer.wte.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "transformer.h.%llu.ln_1.weight", b);
        ADD(H, 0, "transformer.h.%llu.ln_2.weight", b);
        ADD(m->nh * hd, H, "transformer.h.%llu.attn.attention.q_proj.weight", b);
        ADD(m->nkv * hd, H, "transformer.h.%llu.attn.attention.k_proj.weight", b);
        ADD(m->nkv * hd, H, "transformer.h.%llu.attn.attention.v_proj.weight", b);
        ADD(H, m->nh * hd, "transformer.h.%llu.attn.attention.out_proj.weight", b);
        ADD(FF, H, "transformer.h.%llu.mlp.c_fc_0.weight", b);
        ADD(FF, H, "transformer.h.%llu.mlp.c_fc_1.weight", b);
        ADD(H, FF, "transformer.h.%llu.mlp.c_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

/* InternLM2: fused wqkv grouped per key/value head, w1/w3/w2. */
static size_t internlm2_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.tok_embeddings.weight");
    ADD(m->V, H, "output.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.attention_norm.weight", b);
        ADD(H, 0, "model.layers.%llu.ffn_norm.weight", b);
        ADD((m->nh + 2 * m->nkv) * hd, H, "model.layers.%llu.attention.wqkv.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.attention.wo.weight", b);
        ADD(FF, H, "model.layers.%llu.feed_forward.w1.weight", b);
        ADD(FF, H, "model.layers.%llu.feed_forward.w3.weight", b);
        ADD(H, FF, "model.layers.%llu.feed_forward.w2.weight", b);
    }
    return cv_case_sort(t, n);
}

/* InternLM2's tokenizer.model has a NUL piece and [UNUSED...] pieces: the
 * copied llama 2 model with its first one-letter piece made NUL and the
 * first 12-character ASCII piece made "[UNUSED-----" (same lengths, so
 * the protobuf stays valid). */
static int internlm2_pieces(const char *dir) {
    char path[4300];
    snprintf(path, sizeof path, "%s/tokenizer.model", dir);
    size_t n = 0;
    unsigned char *b = read_file(path, &n);
    int nul = 0, unused = 0;
    for (size_t i = 0; b && i + 16 < n && !(nul && unused); i++) {
        if (!nul && b[i] == 0x0a && b[i + 1] == 1 && b[i + 2] >= 'a' && b[i + 2] <= 'z' && b[i + 3] == 0x15)
            b[i + 2] = 0, nul = 1;
        int ascii = !unused && b[i] == 0x0a && b[i + 1] == 12 && b[i + 14] == 0x15;
        for (size_t k = 0; ascii && k < 12; k++) ascii = b[i + 2 + k] > 0x20 && b[i + 2 + k] < 0x7f;
        if (ascii) memcpy(b + i + 2, "[UNUSED", 7), unused = 1;
    }
    FILE *f = nul && unused ? fopen(path, "wb") : NULL;
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f) ok &= fclose(f) == 0;
    free(b);
    return ok;
}

/* InternLM3: llama's names and shapes, head_dim given. */
static size_t internlm3_shapes(tspec *t, const fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"
#define QWEN TOKDIR, TOKFILES

static const fcase CASES[] = {
    /* GPT-2 as on the hub: names without "transformer.", F32, the mask buffers kept in the file */
    {"gpt2-tiny",
     "{\"activation_function\":\"gelu_new\",\"architectures\":[\"GPT2LMHeadModel\"],\"attn_pdrop\":0.1,\"bos_token_id\":"
     "151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type"
     "\":\"gpt2\",\"n_ctx\":64,\"n_embd\":32,\"n_head\":4,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":0.1,\"summary_act"
     "ivation\":null,\"summary_first_dropout\":0.1,\"summary_proj_to_labels\":true,\"summary_type\":\"cls_index\",\"summary_"
     "use_proj\":true,\"vocab_size\":151936}",
     QWEN, GPT2, 0, 32, 2, 4, 4, 151936, LGG_TYPE_F32, {"cca14fe7388134e86bdddb4fd55cf29be4f45f004f961b62434126ab8810a5dc", "7e58deef4a0e5ccd904102a192304d95d2b480af01279901316ee6fc1dee49e0", "9ee295d53d3105519447f8ebdfa04033300c64a58cd580448d3e12041970e5d8", "77e1e73af76010a9496ae3ed14a4f9e38ada29d946d41cf5c7279d64641c6782", "9ee295d53d3105519447f8ebdfa04033300c64a58cd580448d3e12041970e5d8"}},
    /* GPT-2 saved by transformers: names under "transformer.", F16 */
    {"gpt2-tiny-transformer",
     "{\"activation_function\":\"gelu_new\",\"architectures\":[\"GPT2LMHeadModel\"],\"attn_pdrop\":0.1,\"bos_token_id\":"
     "151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type"
     "\":\"gpt2\",\"n_ctx\":64,\"n_embd\":32,\"n_head\":4,\"n_inner\":null,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":"
     "0.1,\"torch_dtype\":\"float16\",\"vocab_size\":151936}",
     QWEN, GPT2, 1, 32, 2, 4, 4, 151936, LGG_TYPE_F16, {"1234318727ae0dab3e97187ed501ff69059c3c9b5ef0816ff23bf4ee8b7db3ee", "a1e3bc0f8c0b7485a9b0f39c0d9e53d6d3fc833141cf40e707818e05f7ca4cc1", "c29816090b95e90d8729db1b0b2b7d08a1ae0f9f5adc36b98fd30108f3331a9b", "5d927ec1c177ce4c345563c3b67aa2cd88cc52e853b80a63d11cf2824c9846e7", "a1e3bc0f8c0b7485a9b0f39c0d9e53d6d3fc833141cf40e707818e05f7ca4cc1"}},
    /* GPT-NeoX (Pythia's config): F16 weights, the BOOL mask, the 0-d masked_bias and inv_freq */
    {"pythia-tiny",
     "{\"architectures\":[\"GPTNeoXForCausalLM\"],\"bos_token_id\":0,\"eos_token_id\":0,\"hidden_act\":\"gelu\",\"hidden_"
     "size\":32,\"initializer_range\":0.02,\"intermediate_size\":128,\"layer_norm_eps\":1e-05,\"max_position_embeddings\":2"
     "048,\"model_type\":\"gpt_neox\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"rotary_emb_base\":10000,\"rotary_"
     "pct\":0.25,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"use_cache\":true,\"use_parallel_residual\":true"
     ",\"vocab_size\":151936}",
     QWEN, NEOX, 0, 32, 2, 4, 4, 151936, LGG_TYPE_F16, {"9457ec98cb71ecc2983b4c72b483d487cbb8229fcb03847c761f8e43026ce959", "9e35d39836f980d4755ed1875aafe8949968eb2037c0159617cfff5a2565abe8", "cdb6b249ddc40d0d50bd7a1e151fac1c3796d0142d020886a09bad1edc7958e3", "5c3698186380a33b9137044e857fdebcb350b5ebd2eb3e72ecfb970ddb45c7dc", "9e35d39836f980d4755ed1875aafe8949968eb2037c0159617cfff5a2565abe8"}},
    /* Falcon 40B's layout: 2 key/value heads for 4 heads, ln_attn and ln_mlp, BF16 */
    {"falcon-tiny-40b",
     "{\"alibi\":false,\"apply_residual_connection_post_layernorm\":false,\"architectures\":[\"FalconForCausalLM\"],\"atten"
     "tion_dropout\":0.0,\"bias\":false,\"bos_token_id\":151643,\"eos_token_id\":151643,\"hidden_dropout\":0.0,\"hidden_size"
     "\":32,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type\":\"falcon\",\"new_decoder_architecture\":t"
     "rue,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_kv_heads\":2,\"parallel_attn\":true,\"torch_dtype\":\"bflo"
     "at16\",\"vocab_size\":151936}",
     QWEN, FALCON, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16, {"dbbb61bf0eb6966f8b00755f6ef360857822d27bfda36d02e5c067b56ac317fc", "3d03b654a607925700814d5be9cb14f5935efeb1657526f2db3cf0026d964299", "bca5b2871a49ba0c8246573dad9e309750c389493268111b140e0eb48ca6669e", "07a359d20f92176f3b38b6a9b2ae07d4f16152ac2acd81faa10b59e20ea32e42", "bca5b2871a49ba0c8246573dad9e309750c389493268111b140e0eb48ca6669e"}},
    /* Falcon 7B's: multi-query (no key/value head count: 1), one norm per block, the old RW name, F32 */
    {"falcon-tiny-7b",
     "{\"alibi\":false,\"apply_residual_connection_post_layernorm\":false,\"architectures\":[\"RWForCausalLM\"],\"attention"
     "_dropout\":0.0,\"bias\":false,\"bos_token_id\":151643,\"eos_token_id\":151643,\"hidden_dropout\":0.0,\"hidden_size\":32"
     ",\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type\":\"falcon\",\"multi_query\":true,\"new_decoder_a"
     "rchitecture\":false,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"parallel_attn\":true,\"torch_dtype\":\"float32"
     "\",\"vocab_size\":151936}",
     QWEN, FALCON, 0, 32, 2, 4, 0, 151936, LGG_TYPE_F32, {"7507109171f58c80bc168fc0c949d797b631889f5a635fe3840679ad029016b1", "8c7886c17900ea75820dfa3a3e9ef4bb69ddd04e1dcff9e0b8946844adcd7f3f", "95d7f1d23126ad2f86d5b97a8a3da5420d93128596b6dba2289dbe259ed9f4fe", "f47e55c577f7fcf893173d741c21522dde2168e226ba683cea8afa4206726bec", "95d7f1d23126ad2f86d5b97a8a3da5420d93128596b6dba2289dbe259ed9f4fe"}},
    /* PhiMoE (Phi-3.5-MoE's config): longrope factors, 4 experts, a SentencePiece vocabulary padded to vocab_size */
    {"Phi-3.5-MoE-tiny-instruct",
     "{\"architectures\":[\"PhiMoEForCausalLM\"],\"attention_bias\":true,\"attention_dropout\":0.0,\"bos_token_id\":1,"
     "\"eos_token_id\":32000,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"input_jitter_n"
     "oise\":0.01,\"intermediate_size\":64,\"lm_head_bias\":true,\"max_position_embeddings\":131072,\"model_type\":\"p"
     "himoe\",\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"n"
     "um_local_experts\":4,\"original_max_position_embeddings\":4096,\"output_router_logits\":false,\"rms_norm_eps\":1e"
     "-05,\"rope_scaling\":{\"long_factor\":[1.0199999809265137,1.5,3.140000104904175,12.5],\"long_mscale\":1.243163121"
     "016122,\"original_max_position_embeddings\":4096,\"short_factor\":[1.0,1.0399999618530273,1.25,1.9900000095367432],"
     "\"short_mscale\":1.243163121016122,\"type\":\"longrope\"},\"rope_theta\":10000.0,\"router_aux_loss_coef\":0.0,\"r"
     "outer_jitter_noise\":0.01,\"sliding_window\":131072,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"v"
     "ocab_size\":32064}",
     "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json", PHIMOE, 0, 32, 2, 4, 2, 32064,
     LGG_TYPE_BF16, {"01ea4f71b22d5f226cba93f6342c61461df61d4a8e2c07d79015338e78d5c75b", "344183f8cc614a88a46fa746060308ec70e8cf9170918b05aaad63eef17b2c45", "adeca0e8a11ff53ccf09d2b300ec618e523f693326149cceb943e4a39321049d", "31ba32850d97bc4e5a4a442bdd6c83cd84518087e1235e48936efb4d5eb62c73", "adeca0e8a11ff53ccf09d2b300ec618e523f693326149cceb943e4a39321049d"}},

    /* GraniteMoE (granite-3.0-1b-a400m's config): multipliers, tied output, 4 experts of width 32 */
    {"granite-moe-tiny-instruct",
     "{\"architectures\":[\"GraniteMoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.1,\"attention_"
     "multiplier\":0.015625,\"bos_token_id\":1,\"embedding_multiplier\":12.0,\"eos_token_id\":2,\"hidden_act\":\"silu\""
     ",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":32,\"logits_scaling\":6.0,\"max_position_e"
     "mbeddings\":4096,\"model_type\":\"granitemoe\",\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_"
     "layers\":2,\"num_key_value_heads\":2,\"num_local_experts\":4,\"output_router_logits\":false,\"pad_token_id\":0,\"r"
     "esidual_multiplier\":0.22,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":10000,\"router_aux_loss_coef"
     "\":0.001,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"vocab_size\":32000}",
     "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json", GRANITEMOE, 0, 32, 2, 4, 2, 32000,
     LGG_TYPE_BF16, {"be12349620ad90a5689b6e0694b64573e333edce9dab8d6ef4e5916d9f0355b7", "df56a5051df584e551431525f23c6fe2c44eeaa1f2647e236cf04672f7c1b688", "36c1f57385179777c0bb99fa184c33cedd1330bd9e6ba6f76a899028b6cff344", "79c58196170ec4fad20685535c633ff2012bcbb60d8a95768c676a642ff78ed2", "36c1f57385179777c0bb99fa184c33cedd1330bd9e6ba6f76a899028b6cff344"}},
    /* Exaone (EXAONE 3.5's config): llama 3's rope scaling (rope_freqs), head_dim, F16 */
    {"EXAONE-3.5-tiny-Instruct",
     "{\"activation_function\":\"silu\",\"architectures\":[\"ExaoneForCausalLM\"],\"attention_dropout\":0.0,\"bos_toke"
     "n_id\":151643,\"embed_dropout\":0.0,\"eos_token_id\":151645,\"head_dim\":8,\"hidden_size\":32,\"initializer_range"
     "\":0.02,\"intermediate_size\":64,\"layer_norm_epsilon\":1e-05,\"max_position_embeddings\":32768,\"model_type\":\""
     "exaone\",\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_layers\":2,\"pad_token_id\":0,\"rope_scaling\""
     ":{\"factor\":8.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_t"
     "ype\":\"llama3\"},\"rope_theta\":1000000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"use_cache"
     "\":true,\"vocab_size\":151936}",
     QWEN, EXAONE, 0, 32, 2, 4, 2, 151936, LGG_TYPE_F16, {"352efb24f1d2565dab49ba7e1a665f16f8e18e96f394860fef058a0124acf5b1", "33d0c020ace8ac4cb494870523d00e2a7452396d150ef8bb593a8861a7f38ba2", "305b6c7a9348fb59f80f4264a87b4420bf23b6562193170e090ca7aa9fccd034", "12635f7a43e46777c179bb750f6ea77c4c1faa116ddddea74bd1397fb83049b8", "33d0c020ace8ac4cb494870523d00e2a7452396d150ef8bb593a8861a7f38ba2"}},
    /* InternLM2 (internlm2-chat-1_8b's config): wqkv split and permuted, the chat tokens among the pieces
     * (eos becomes <|im_end|>, <unk> a control token), a NUL piece, rope_scaling "dynamic" (not written) */
    {"internlm2-chat-tiny",
     "{\"architectures\":[\"InternLM2ForCausalLM\"],\"attn_implementation\":\"eager\",\"bias\":false,\"bos_token_"
     "id\":1,\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermedia"
     "te_size\":64,\"max_position_embeddings\":32768,\"model_type\":\"internlm2\",\"num_attention_heads\":4,\"num_hid"
     "den_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":2,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\""
     ":2.0,\"type\":\"dynamic\"},\"rope_theta\":1000000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"u"
     "se_cache\":true,\"vocab_size\":32000}",
     "TinyLlama-2-Test-2x32", "tokenizer.model", INTERNLM2, 0, 32, 2, 4, 2, 32000, LGG_TYPE_BF16, {"eb358ea4de59641e7b983e0ae1e8b041f72786c7bfacbc2aeac6432462f51e56", "f86fcc0ce7a486d0b1d138db2572d6fbbda015a36bbd4fe45613be7b81f73b10", "0ac051fd5e24889a54d86160cf63436e1253caadf1949dc27766e90bb4824a74", "f3b5f352a97aec0140f4427f0bb6ebab2067b2a3820f2236f5c40f3e0817e802", "0ac051fd5e24889a54d86160cf63436e1253caadf1949dc27766e90bb4824a74"}},
    /* InternLM3 (internlm3-8b-instruct's config, rope_scaling named by rope_type as "linear"): llama's
     * tensors and permutation, add_prefix_space false, eos becomes the special <|im_end|> */
    {"internlm3-tiny-instruct",
     "{\"architectures\":[\"InternLM3ForCausalLM\"],\"attention_dropout\":0.0,\"bias\":false,\"bos_token_id\":1,\"eos"
     "_token_id\":2,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediat"
     "e_size\":64,\"max_position_embeddings\":32768,\"model_type\":\"internlm3\",\"num_attention_heads\":4,\"num_hidden"
     "_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":2,\"qkv_bias\":false,\"rms_norm_eps\":1e-05,\"rope_scaling"
     "\":{\"factor\":6.0,\"rope_type\":\"linear\"},\"rope_theta\":50000000,\"tie_word_embeddings\":false,\"torch_dtype\""
     ":\"bfloat16\",\"use_cache\":true,\"vocab_size\":32000}",
     "TinyLlama-2-Test-2x32", "tokenizer.model", INTERNLM3, 0, 32, 2, 4, 2, 32000, LGG_TYPE_BF16, {"a5b413cbaf9c049e2856e9bc0fd013c5c7c6dd5c241a07922d9ce41862acf46b", "982fd81ece9c98d187875de09ec5b2536ebb2fe839a92cb7df0b2f1a18d04f10", "f19bef5f641e0a4005c00081fa4189663ba90f8243620b8a27248187f7f4a23c", "408dc29964b1a499fdcf6fa520dcc8a5e87572ad728ce366a46642c787cb5566", "f19bef5f641e0a4005c00081fa4189663ba90f8243620b8a27248187f7f4a23c"}},
    /* StarCoder (GPTBigCode, bigcode's tiny_starcoder layout): multi-query, tied output, F16 */
    {"tiny_starcoder",
     "{\"activation_function\":\"gelu_pytorch_tanh\",\"architectures\":[\"GPTBigCodeForCausalLM\"],\"attention_softmax_in_fp32\""
     ":true,\"attn_pdrop\":0.1,\"bos_token_id\":151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,"
     "\"layer_norm_epsilon\":1e-05,\"model_type\":\"gpt_bigcode\",\"multi_query\":true,\"n_embd\":32,\"n_head\":4,\"n_inner\""
     ":128,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":0.1,\"scale_attention_softmax_in_fp32\":true,\"scale_attn_weights\""
     ":true,\"torch_dtype\":\"float16\",\"use_cache\":true,\"vocab_size\":151936}",
     QWEN, STARCODER, 0, 32, 2, 4, 1, 151936, LGG_TYPE_F16, {"fe25fa429372c8fc70d8e37bc30925bdd34af5648b787bbc8f3c7e7f1a28834d", "12dd2e6d3353ba4e5694a5cb61ee67629911e2abe12233a534e575c931fcad6b", "eb6e0d30078db277f1f1c7468522c26ab6ad859a4e3c04ce897bb52fc88115cb", "877c8d9e2d443a8df126603fffefea4d1cf4eef1c378c1183042073ec5dbf2d7", "12dd2e6d3353ba4e5694a5cb61ee67629911e2abe12233a534e575c931fcad6b"}},
};

/* InternLM2's tokenizer_config.json: the chat tokens over the last pieces
 * (one not special), a chat template. */
#define INTERNLM2_TC                                                                                                   \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"added_tokens_decoder\":{\"0\":{\"content\":\"<unk>\",\"lstrip\":fa" \
    "lse,\"normalized\":false,\"rstrip\":false,\"single_word\":false,\"special\":true},\"1\":{\"content\":\"<s>\",\"spec" \
    "ial\":true},\"2\":{\"content\":\"</s>\",\"special\":true},\"31997\":{\"content\":\"<|action_start|>\",\"special\":" \
    "false},\"31998\":{\"content\":\"<|im_start|>\",\"special\":true},\"31999\":{\"content\":\"<|im_end|>\",\"special\"" \
    ":true}},\"additional_special_tokens\":[\"<|im_start|>\",\"<|im_end|>\"],\"bos_token\":\"<s>\",\"chat_template\":\"{{" \
    " bos_token }}{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_en" \
    "d|>' + '\\n'}}{% endfor %}\",\"clean_up_tokenization_spaces\":false,\"decode_with_prefix_space\":false,\"eos_token\":" \
    "\"</s>\",\"pad_token\":\"</s>\",\"sp_model_kwargs\":null,\"tokenizer_class\":\"InternLM2Tokenizer\",\"unk_token\":\"<" \
    "unk>\"}"

/* InternLM3's: special chat tokens, a user-defined one with a SentencePiece space. */
#define INTERNLM3_TC                                                                                                   \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"add_prefix_space\":false,\"added_tokens_decoder\":{\"0\":{\"conte" \
    "nt\":\"<unk>\",\"special\":true},\"1\":{\"content\":\"<s>\",\"special\":true},\"2\":{\"content\":\"</s>\",\"spe" \
    "cial\":true},\"31997\":{\"content\":\"\\u2581hello\",\"special\":false},\"31998\":{\"content\":\"<|im_start|>\",\"s" \
    "pecial\":true},\"31999\":{\"content\":\"<|im_end|>\",\"special\":true}},\"bos_token\":\"<s>\",\"chat_template\":\"" \
    "{{ bos_token }}{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_" \
    "end|>\\n'}}{% endfor %}\",\"eos_token\":\"</s>\",\"pad_token\":\"</s>\",\"spaces_between_special_tokens\":false,\"to" \
    "kenizer_class\":\"InternLM3Tokenizer\",\"unk_token\":\"<unk>\"}"

static const char *make_case(const fcase *m) {
    static const char *const internlm2_files[][2] = {{"tokenizer_config.json", INTERNLM2_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    static const char *const internlm3_files[][2] = {{"tokenizer_config.json", INTERNLM3_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *dir = cv_case_dir(m->name, m->tokdir, m->tokfiles, m->config,
                                  m->kind == INTERNLM2 ? internlm2_files : m->kind == INTERNLM3 ? internlm3_files : NULL);
    static tspec t[512];
    if (!dir || (m->kind == INTERNLM2 && !internlm2_pieces(dir))) return NULL;
    size_t n = m->kind == GPT2     ? gpt2_shapes(t, m)
               : m->kind == NEOX   ? neox_shapes(t, m)
               : m->kind == FALCON ? falcon_shapes(t, m)
               : m->kind == STARCODER ? starcoder_shapes(t, m)
               : m->kind == PHIMOE ? phimoe_shapes(t, m)
               : m->kind == EXAONE ? exaone_shapes(t, m)
               : m->kind == INTERNLM2 ? internlm2_shapes(t, m)
               : m->kind == INTERNLM3 ? internlm3_shapes(t, m)
                                   : granitemoe_shapes(t, m);
    return cv_case_weights(dir, t, n, m->dtype) ? dir : NULL;
}

TEST(convert_famA) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    int same = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        same += cv_case_run(make_case(&CASES[i]), CASES[i].name, CASES[i].sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes() * (int)(sizeof CASES / sizeof CASES[0]), "%d of %d byte-identical to the reference", same,
           cv_case_outtypes() * (int)(sizeof CASES / sizeof CASES[0]));
    static const char *const names[] = {"GPT2LMHeadModel", "GPTNeoXForCausalLM", "FalconForCausalLM", "RWForCausalLM",
                                        "PhiMoEForCausalLM", "GraniteMoeForCausalLM", "ExaoneForCausalLM",
                                        "InternLM2ForCausalLM", "InternLM3ForCausalLM", "GPTBigCodeForCausalLM"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) cv_case_supported(names[i]);
    const char *dir = make_case(&CASES[0]);
    if (dir) cv_case_refused(dir, CASES[0].config, "\"n_ctx\":64,", "'n_ctx'");
    if ((dir = make_case(&CASES[2]))) cv_case_refused(dir, CASES[2].config, "\"rotary_pct\":0.25,", "'rotary_pct'");
    if ((dir = make_case(&CASES[3]))) cv_case_refused(dir, CASES[3].config, "\"layer_norm_epsilon\":1e-05,", "'layer_norm_epsilon'");
    /* without num_kv_heads Falcon has one key/value head: the fused matrix does not fit, named */
    if ((dir = make_case(&CASES[3])))
        cv_case_refused(dir, CASES[3].config, "\"num_kv_heads\":2,", "'transformer.h.0.self_attention.query_key_value.weight'");
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) /* StarCoder's context */
        if (CASES[i].kind == STARCODER && (dir = make_case(&CASES[i])))
            cv_case_refused(dir, CASES[i].config, "\"n_positions\":64,", "'n_positions'");
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) /* InternLM2's and Exaone's required keys */
        if ((CASES[i].kind == INTERNLM2 || CASES[i].kind == EXAONE) && (dir = make_case(&CASES[i])))
            cv_case_refused(dir, CASES[i].config, CASES[i].kind == EXAONE ? "\"num_layers\":2," : "\"rope_theta\":1000000,",
                    CASES[i].kind == EXAONE ? "'num_hidden_layers'" : "'rope_theta'");
}

#endif
