/* test_convert_more.c -- families beyond ../shared/golden/convert (mixtral,
 * llama 3's rope_freqs, gemma, qwen2moe with its shared expert), checked
 * against llama.cpp's convert_hf_to_gguf.py (b4747) run outside the repo
 * (golden/convert/reference/README.md) on checkpoints this test makes again
 * byte for byte: the golden models' tokenizer files, the config below, and
 * weights from a counter-based generator (splitmix64 of the element's
 * index across the tensors in name order, scaled by 2^-29: exact in any
 * float type).  The sha256 of each reference output is recorded here;
 * tests/convert_reference.sh makes them again (issue 25's families too:
 * DeepSeek, Cohere, StarCoder2, OLMo, Granite, StableLM). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

/* The embeddings, the output norm and (unless tied) the output matrix. */
static size_t outer(tspec *t, uint64_t H, uint64_t V, int tied) {
    size_t n = 0;
    ADD(V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    if (!tied) ADD(V, H, "lm_head.weight");
    return n;
}

/* A block's two norms. */
static size_t norms(tspec *t, uint64_t H, unsigned long long b) {
    size_t n = 0;
    ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
    ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
    return n;
}

static size_t sorted(tspec *t, size_t n) { return cv_case_sort(t, n); }

/* The llama-shaped tensors of a config (experts > 0: mixtral's). */
static size_t shapes(tspec *t, uint64_t H, uint64_t L, uint64_t FF, uint64_t V, uint64_t nh, uint64_t nkv, uint64_t hd,
                     int experts, int gemma) {
    size_t n = outer(t, H, V, gemma);
    for (uint64_t l = 0; l < L; l++) {
        n += norms(t + n, H, (unsigned long long)l);
        ADD(nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", (unsigned long long)l);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", (unsigned long long)l);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", (unsigned long long)l);
        ADD(H, nh * hd, "model.layers.%llu.self_attn.o_proj.weight", (unsigned long long)l);
        if (experts) {
            ADD((uint64_t)experts, H, "model.layers.%llu.block_sparse_moe.gate.weight", (unsigned long long)l);
            for (int x = 0; x < experts; x++) {
                ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%d.w1.weight", (unsigned long long)l, x);
                ADD(H, FF, "model.layers.%llu.block_sparse_moe.experts.%d.w2.weight", (unsigned long long)l, x);
                ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%d.w3.weight", (unsigned long long)l, x);
            }
        } else {
            ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", (unsigned long long)l);
            ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", (unsigned long long)l);
            ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", (unsigned long long)l);
        }
    }
    return sorted(t, n);
}

/* Qwen2-MoE's tensors: biased attention, E experts of width MF, a shared
 * expert of width SF and its gate. */
static size_t qwen_moe_shapes(tspec *t, uint64_t H, uint64_t L, uint64_t V, uint64_t nh, uint64_t nkv, uint64_t E,
                              uint64_t MF, uint64_t SF) {
    uint64_t hd = H / nh;
    size_t n = outer(t, H, V, 0);
    for (uint64_t l = 0; l < L; l++) {
        unsigned long long b = (unsigned long long)l;
        n += norms(t + n, H, b);
        ADD(nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(nh * hd, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(nkv * hd, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(nkv * hd, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
        ADD(H, nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
        for (uint64_t x = 0; x < E; x++) {
            ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.gate_proj.weight", b, (unsigned long long)x);
            ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.up_proj.weight", b, (unsigned long long)x);
            ADD(H, MF, "model.layers.%llu.mlp.experts.%llu.down_proj.weight", b, (unsigned long long)x);
        }
        ADD(SF, H, "model.layers.%llu.mlp.shared_expert.gate_proj.weight", b);
        ADD(SF, H, "model.layers.%llu.mlp.shared_expert.up_proj.weight", b);
        ADD(H, SF, "model.layers.%llu.mlp.shared_expert.down_proj.weight", b);
        ADD(1, H, "model.layers.%llu.mlp.shared_expert_gate.weight", b);
    }
    return sorted(t, n);
}

/* Phi-3's tensors: a fused q/k/v projection and a fused gate/up one. */
static size_t phi3_shapes(tspec *t, uint64_t H, uint64_t L, uint64_t FF, uint64_t V, uint64_t nh, uint64_t nkv) {
    uint64_t hd = H / nh;
    size_t n = outer(t, H, V, 0);
    for (uint64_t l = 0; l < L; l++) {
        unsigned long long b = (unsigned long long)l;
        n += norms(t + n, H, b);
        ADD((nh + 2 * nkv) * hd, H, "model.layers.%llu.self_attn.qkv_proj.weight", b);
        ADD(H, nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.mlp.gate_up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return sorted(t, n);
}

/* Phi-3's tokenizer files: added tokens that are not special (one looks
 * special, one has SentencePiece spaces), added tokens in tokenizer.json
 * only, an added_tokens.json entry beyond the vocabulary. */
#define PHI_TC "{\"add_bos_token\":true,\"add_eos_token\":false,\"added_tokens_decoder\":{" \
    "\"0\":{\"content\":\"<unk>\",\"special\":true},\"1\":{\"content\":\"<s>\",\"special\":true}," \
    "\"2\":{\"content\":\"</s>\",\"special\":false},\"32000\":{\"content\":\"<|endoftext|>\",\"special\":true}," \
    "\"32001\":{\"content\":\"<|assistant|>\",\"special\":true},\"32002\":{\"content\":\"<|placeholder1|>\",\"special\":false}," \
    "\"32003\":{\"content\":\"\\u2581hello\\u2581world\",\"special\":false}}," \
    "\"bos_token\":\"<s>\",\"eos_token\":\"<|endoftext|>\",\"pad_token\":\"<|endoftext|>\",\"unk_token\":\"<unk>\"," \
    "\"chat_template\":\"{% for m in messages %}{{'<|' + m['role'] + '|>\\\\n' + m['content'] + '<|end|>\\\\n'}}{% endfor %}\"," \
    "\"tokenizer_class\":\"LlamaTokenizer\"}"
#define PHI_TJ "{\"version\":\"1.0\",\"added_tokens\":[{\"id\":0,\"content\":\"<unk>\",\"special\":true}," \
    "{\"id\":1,\"content\":\"<s>\",\"special\":true},{\"id\":2,\"content\":\"</s>\",\"special\":true}," \
    "{\"id\":32000,\"content\":\"<|endoftext|>\",\"special\":true},{\"id\":32010,\"content\":\"<|end|>\",\"special\":true}," \
    "{\"id\":32011,\"content\":\"<|user|>\",\"special\":false}],\"model\":{\"type\":\"BPE\",\"vocab\":{},\"merges\":[]}}"
#define PHI_AT "{\"<|system|>\":32006,\"<|toolong|>\":40000}"

/* A model card (README.md's front matter) exercising what the reference
 * takes from it: names (model_name, model_creator, a null version before
 * model_version), a description, licenses, base models as an id, a
 * Hugging Face URL, another URL and a mapping, a dataset as one string,
 * tags with pipeline_tag, languages with language, and a body after the
 * front matter with "---" in it.  CRLF line ends, as Python reads them. */
#define CARD                                                                                               \
    "---\r\nlicense: [apache-2.0, mit]\r\nlicense_name: tiny-license\r\nlicense_link: https://example.com/l\r\n" \
    "language:\r\n- en\r\n- fr\r\nlanguages: de\r\nlibrary_name: transformers\r\npipeline_tag: text-generation\r\n" \
    "tags:\r\n- chat\r\n- \"llama\"\r\n- 'yes'\r\nbase_model:\r\n- meta-llama/Llama-3.2-1B-Instruct\r\n"           \
    "- https://huggingface.co/Qwen/Qwen2.5-0.5B\r\n- https://example.com/some/model\r\n"                       \
    "- {name: Custom Base, author: Someone, repo_url: 'https://example.com/x', extra: 5}\r\n"                \
    "datasets: HuggingFaceH4/ultrachat_200k\r\nmodel_name: Tiny Card Model\r\nmodel_creator: Tiny Makers\r\n"   \
    "description: \"A tiny model: for tests\"\r\nversion: ~\r\nmodel_version: v2.1\r\nurl: https://example.com/tiny\r\n" \
    "---\r\n\r\n# Tiny card\r\n\r\ntext --- and more\r\n---\r\n"

typedef struct mcase {
    const char *name, *tokdir, *tokfiles, *config;
    uint64_t H, L, FF, V, nh, nkv, hd;
    int experts, gemma; /* gemma 2: qwen2moe (experts of width FF/2, a shared one of width FF); 3: phi3;
                           4: deepseek2 (V2), 5: deepseek2 (V3), 6: deepseek (V1); 7: cohere; 8: starcoder2;
                           9, 10, 11: olmo, olmo2, olmoe; 12: stablelm; 13: phi2;
                           14: stablelm 2 12b */
    uint32_t dtype;
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
    const char *files[4][2]; /* files written as given (name, text), after the copies */
} mcase;

/* config.json's integer `key` in the case's text (0 when absent or null). */
static uint64_t cfg(const char *config, const char *key) {
    char pat[80];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(config, pat);
    return p ? strtoull(p + strlen(pat), NULL, 10) : 0;
}

/* DeepSeek's FFN of block b: dense before first_k_dense_replace, then a
 * router (V3: with its selection bias), E experts and the shared ones. */
static size_t deepseek_ffn(tspec *t, const char *c, uint64_t H, unsigned long long b, int v3) {
    uint64_t E = cfg(c, "n_routed_experts"), MF = cfg(c, "moe_intermediate_size"), FF = cfg(c, "intermediate_size");
    uint64_t SF = MF * cfg(c, "n_shared_experts");
    size_t n = 0;
    if (b < cfg(c, "first_k_dense_replace")) {
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
        return n;
    }
    ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
    if (v3) ADD(E, 0, "model.layers.%llu.mlp.gate.e_score_correction_bias", b);
    for (unsigned long long x = 0; x < E; x++) {
        ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.gate_proj.weight", b, x);
        ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.up_proj.weight", b, x);
        ADD(H, MF, "model.layers.%llu.mlp.experts.%llu.down_proj.weight", b, x);
    }
    ADD(SF, H, "model.layers.%llu.mlp.shared_experts.gate_proj.weight", b);
    ADD(SF, H, "model.layers.%llu.mlp.shared_experts.up_proj.weight", b);
    ADD(H, SF, "model.layers.%llu.mlp.shared_experts.down_proj.weight", b);
    return n;
}

/* DeepSeek V2/V3 (latent attention, q_lora_rank 0: a plain q_proj) and V1
 * (llama's attention); V3 with a multi-token prediction layer past the
 * last block, which the reference drops. */
static size_t deepseek_shapes(tspec *t, const mcase *m, int version) {
    const char *c = m->config;
    uint64_t H = m->H, nh = m->nh, qr = cfg(c, "q_lora_rank"), kvr = cfg(c, "kv_lora_rank");
    uint64_t nope = cfg(c, "qk_nope_head_dim"), rope = cfg(c, "qk_rope_head_dim"), vd = cfg(c, "v_head_dim");
    size_t n = outer(t, H, m->V, 0);
    for (unsigned long long b = 0; b < m->L; b++) {
        n += norms(t + n, H, b);
        if (version == 1) {
            ADD(nh * m->hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
            ADD(m->nkv * m->hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
            ADD(m->nkv * m->hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
            ADD(H, nh * m->hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        } else {
            if (qr) {
                ADD(qr, H, "model.layers.%llu.self_attn.q_a_proj.weight", b);
                ADD(qr, 0, "model.layers.%llu.self_attn.q_a_layernorm.weight", b);
                ADD(nh * (nope + rope), qr, "model.layers.%llu.self_attn.q_b_proj.weight", b);
            } else {
                ADD(nh * (nope + rope), H, "model.layers.%llu.self_attn.q_proj.weight", b);
            }
            ADD(kvr + rope, H, "model.layers.%llu.self_attn.kv_a_proj_with_mqa.weight", b);
            ADD(kvr, 0, "model.layers.%llu.self_attn.kv_a_layernorm.weight", b);
            ADD(nh * (nope + vd), kvr, "model.layers.%llu.self_attn.kv_b_proj.weight", b);
            ADD(H, nh * vd, "model.layers.%llu.self_attn.o_proj.weight", b);
        }
        n += deepseek_ffn(t + n, c, H, b, version == 3);
    }
    if (version == 3) {
        unsigned long long b = m->L;
        ADD(H, 0, "model.layers.%llu.enorm.weight", b);
        ADD(H, 0, "model.layers.%llu.hnorm.weight", b);
        ADD(H, 2 * H, "model.layers.%llu.eh_proj.weight", b);
        ADD(H, 0, "model.layers.%llu.shared_head.norm.weight", b);
        n += norms(t + n, H, b);
        n += deepseek_ffn(t + n, c, H, b, 1);
    }
    return sorted(t, n);
}

/* OLMo (version 1: no norm weights), OLMo 2 (norms after attention and
 * after the FFN, QK norms) and OLMoE (QK norms, experts of width FF). */
static size_t olmo_shapes(tspec *t, const mcase *m, int version) {
    uint64_t H = m->H, hd = m->hd, E = (uint64_t)m->experts;
    size_t n = 0;
    if (version == 1) {
        ADD(m->V, H, "model.embed_tokens.weight");
        ADD(m->V, H, "lm_head.weight");
    } else {
        n = outer(t, H, m->V, 0);
    }
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        if (version != 1) {
            ADD(m->nh * hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
            ADD(m->nkv * hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        }
        if (version == 2) {
            ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
            ADD(H, 0, "model.layers.%llu.post_feedforward_layernorm.weight", b);
        }
        if (version == 3) {
            n += norms(t + n, H, b);
            ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
        }
        for (uint64_t x = 0; x < (version == 3 ? E : 1); x++) {
            char ex[48] = "";
            if (version == 3) snprintf(ex, sizeof ex, "experts.%llu.", (unsigned long long)x);
            ADD(m->FF, H, "model.layers.%llu.mlp.%sgate_proj.weight", b, ex);
            ADD(m->FF, H, "model.layers.%llu.mlp.%sup_proj.weight", b, ex);
            ADD(H, m->FF, "model.layers.%llu.mlp.%sdown_proj.weight", b, ex);
        }
    }
    return sorted(t, n);
}

/* StableLM: biased layer norms and q/k/v projections. */
static size_t stablelm_shapes(tspec *t, const mcase *m) {
    uint64_t H = m->H, hd = m->hd;
    size_t n = outer(t, H, m->V, 0);
    ADD(H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += norms(t + n, H, b);
        ADD(H, 0, "model.layers.%llu.input_layernorm.bias", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.bias", b);
        const char *proj[3] = {"q", "k", "v"};
        uint64_t rows[3] = {m->nh * hd, m->nkv * hd, m->nkv * hd};
        for (int k = 0; k < 3; k++) {
            ADD(rows[k], H, "model.layers.%llu.self_attn.%s_proj.weight", b, proj[k]);
            ADD(rows[k], 0, "model.layers.%llu.self_attn.%s_proj.bias", b, proj[k]);
        }
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(m->FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(m->FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, m->FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return sorted(t, n);
}

/* StableLM 2 12B: parallel residual (no post-attention norm), unbiased
 * q/k/v, and q/k layer norms that are one vector per head (norms.10 sorts
 * before norms.2: the stacks complete in the checkpoint's name order). */
static size_t stablelm_12b_shapes(tspec *t, const mcase *m) {
    uint64_t H = m->H, hd = m->hd;
    size_t n = outer(t, H, m->V, 0);
    ADD(H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.input_layernorm.bias", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        for (unsigned long long h = 0; h < m->nh; h++)
            ADD(hd, 0, "model.layers.%llu.self_attn.q_layernorm.norms.%llu.weight", b, h);
        for (unsigned long long h = 0; h < m->nkv; h++)
            ADD(hd, 0, "model.layers.%llu.self_attn.k_layernorm.norms.%llu.weight", b, h);
        ADD(m->FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(m->FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, m->FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return sorted(t, n);
}

/* Phi-2: biases on every matrix and norm, dense, fc1 and fc2. */
static size_t phi2_shapes(tspec *t, const mcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(m->V, 0, "lm_head.bias");
    ADD(H, 0, "model.final_layernorm.weight");
    ADD(H, 0, "model.final_layernorm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.input_layernorm.bias", b);
        const char *proj[4] = {"q_proj", "k_proj", "v_proj", "dense"};
        for (int k = 0; k < 4; k++) {
            ADD(H, H, "model.layers.%llu.self_attn.%s.weight", b, proj[k]);
            ADD(H, 0, "model.layers.%llu.self_attn.%s.bias", b, proj[k]);
        }
        ADD(m->FF, H, "model.layers.%llu.mlp.fc1.weight", b);
        ADD(m->FF, 0, "model.layers.%llu.mlp.fc1.bias", b);
        ADD(H, m->FF, "model.layers.%llu.mlp.fc2.weight", b);
        ADD(H, 0, "model.layers.%llu.mlp.fc2.bias", b);
    }
    return sorted(t, n);
}

/* Cohere (tied output, one norm per block; Command-R's per-head q/k norms
 * when use_qk_norm) and StarCoder2 (biases everywhere, c_fc and c_proj). */
static size_t cohere_starcoder_shapes(tspec *t, const mcase *m, int starcoder) {
    uint64_t H = m->H, hd = m->hd;
    size_t n = outer(t, H, m->V, 1);
    if (starcoder) ADD(H, 0, "model.norm.bias");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *proj[4] = {"q", "k", "v", "o"};
        uint64_t rows[4] = {m->nh * hd, m->nkv * hd, m->nkv * hd, H}, cols[4] = {H, H, H, m->nh * hd};
        for (int k = 0; k < 4; k++) {
            ADD(rows[k], cols[k], "model.layers.%llu.self_attn.%s_proj.weight", b, proj[k]);
            if (starcoder) ADD(rows[k], 0, "model.layers.%llu.self_attn.%s_proj.bias", b, proj[k]);
        }
        if (starcoder) {
            n += norms(t + n, H, b);
            ADD(H, 0, "model.layers.%llu.input_layernorm.bias", b);
            ADD(H, 0, "model.layers.%llu.post_attention_layernorm.bias", b);
            ADD(m->FF, H, "model.layers.%llu.mlp.c_fc.weight", b);
            ADD(m->FF, 0, "model.layers.%llu.mlp.c_fc.bias", b);
            ADD(H, m->FF, "model.layers.%llu.mlp.c_proj.weight", b);
            ADD(H, 0, "model.layers.%llu.mlp.c_proj.bias", b);
            continue;
        }
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        if (strstr(m->config, "\"use_qk_norm\":true")) {
            ADD(hd, m->nh, "model.layers.%llu.self_attn.q_norm.weight", b);
            ADD(hd, m->nkv, "model.layers.%llu.self_attn.k_norm.weight", b);
        }
        ADD(m->FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(m->FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, m->FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return sorted(t, n);
}

/* Phi-2's config.json (two cases). */
#define PHI2_CONFIG \
    "{\"architectures\":[\"PhiForCausalLM\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,\"embd_pdr" \
    "op\":0.0,\"eos_token_id\":151643,\"hidden_act\":\"gelu_new\",\"hidden_size\":32,\"initializer_range\"" \
    ":0.02,\"intermediate_size\":96,\"layer_norm_eps\":1e-05,\"max_position_embeddings\":2048,\"model_typ" \
    "e\":\"phi\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":4,\"partial_ro" \
    "tary_factor\":0.4,\"qk_layernorm\":false,\"resid_pdrop\":0.1,\"rope_scaling\":null,\"rope_theta\":10" \
    "000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"vocab_size\":151936}"

static const mcase CASES[] = {
    {"Mixtral-Tiny-4x32-Test", "TinyLlama-2-Test-2x32",
     "tokenizer.model tokenizer_config.json special_tokens_map.json tokenizer.json generation_config.json",
     "{\"architectures\":[\"MixtralForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1,"
     "\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,"
     "\"max_position_embeddings\":4096,\"model_type\":\"llama\",\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":1,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":10000.0,"
     "\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"transformers_version\":\"4.38.2\",\"use_cache\":true,"
     "\"vocab_size\":32000,\"num_local_experts\":4,\"num_experts_per_tok\":2}",
     32, 2, 64, 32000, 4, 1, 8, 4, 0, LGG_TYPE_BF16,
     {"63fbbe8fa176105cc34f1db592e72e8d973bed2d87618ed2e506a13ba91c20bd", "5df0e5840396473a45bbb05f271aa790c1e57f8c7430fd3b96b8e7d2e4092dbf", "410631939addc3b23a184ae525b979805d99052a1ec826f002cca35d6719ef9b", "d4c36b6c787623e150fc99ee39307ce8d23f325878b788c4270f7131f9c1f5a1", "410631939addc3b23a184ae525b979805d99052a1ec826f002cca35d6719ef9b"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    {"Llama-3-Tiny-Test-Instruct", "TinyLlama-2-Test-2x32",
     "tokenizer.model tokenizer_config.json special_tokens_map.json tokenizer.json generation_config.json",
     "{\"architectures\":[\"LlamaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1,"
     "\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":64,"
     "\"max_position_embeddings\":4096,\"model_type\":\"llama\",\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":2,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\":32.0,"
     "\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_type\":\"llama3\"},"
     "\"rope_theta\":500000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"transformers_version\":\"4.38.2\","
     "\"use_cache\":true,\"vocab_size\":32000}",
     64, 2, 64, 32000, 4, 2, 16, 0, 0, LGG_TYPE_BF16,
     {"e27448a1e20018de734184fe7468f68bd9906f61a8fe8642f80bcb51b85bbcbc", "761bb80cd10a0a98de3252062ab39467d728edd79fe25276b9fc4a9ed87ce22d", "e8a7789e8a90c79b52f73a89098bd6e81baefdc248152f4177597bb1e7db9a61", "55a90319fa21fcadd57357eb6eb52946dbb897d5606d287b76b791e980f23e7c", "e8a7789e8a90c79b52f73a89098bd6e81baefdc248152f4177597bb1e7db9a61"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    {"gemma-tiny-3L-test", "gemma-2-tiny-12L-test", "tokenizer.model tokenizer_config.json generation_config.json",
     "{\"architectures\":[\"GemmaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":2,"
     "\"eos_token_id\":[1,107],\"head_dim\":16,\"hidden_act\":\"gelu_pytorch_tanh\",\"hidden_activation\":\"gelu_pytorch_tanh\","
     "\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":8192,"
     "\"model_type\":\"gemma2\",\"num_attention_heads\":4,\"num_hidden_layers\":3,\"num_key_value_heads\":2,"
     "\"pad_token_id\":0,\"rms_norm_eps\":1e-06,\"rope_theta\":10000.0,\"torch_dtype\":\"float32\","
     "\"transformers_version\":\"4.42.4\",\"use_cache\":true,\"vocab_size\":2000}",
     64, 3, 96, 2000, 4, 2, 16, 0, 1, LGG_TYPE_F16,
     {"cbb87e9440979183b387b795e3cc3846142fbe8423e987fac1833481dd99ff60", "f1325930da235602c6f47ce4a5f8c7018e7babb44f6ac18589e9b7235c3ffea1", "1f99a73c0b13254ae47112d4a1da3bc957711bfe7c067b39dda3e89e7a7dc32c", "099ac53c949e8add2e0c142f2e90fc9d6a01c154b64c14dec8980087136787bd", "f1325930da235602c6f47ce4a5f8c7018e7babb44f6ac18589e9b7235c3ffea1"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    {"Qwen1.5-MoE-Tiny-Test-Chat", "Qwen2.5-Tiny-Test-Instruct",
     "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"Qwen2MoeForCausalLM\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,"
     "\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,"
     "\"intermediate_size\":64,\"max_position_embeddings\":32768,\"max_window_layers\":2,\"model_type\":\"qwen2_moe\","
     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,"
     "\"rope_theta\":1000000.0,\"sliding_window\":32768,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
     "\"transformers_version\":\"4.43.1\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936,"
     "\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\"shared_expert_intermediate_size\":64}",
     32, 2, 64, 151936, 4, 2, 8, 4, 2, LGG_TYPE_BF16,
     {"e7b78ba3fcb2f9f8f315a15f3117bb23839354fd27b3b91c2ff76fc4a588a3d7", "2cd55989983a3b528de190baa585c0556b7a05c492d15328432c519ea46ac51c", "d7a92bcdff8448f725384397faced16bbc9d811802a228db7ac10c0e348cdccd", "cb457293f36c70d5dc0d49d32663a89857cde992d604248fbe5184e6c96d3a0a", "d7a92bcdff8448f725384397faced16bbc9d811802a228db7ac10c0e348cdccd"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    {"Phi-3-tiny-4k-instruct", "TinyLlama-2-Test-2x32", "tokenizer.model",
     "{\"architectures\":[\"Phi3ForCausalLM\"],\"attention_dropout\":0.0,\"bos_token_id\":1,\"eos_token_id\":32000,"
     "\"hidden_act\":\"silu\",\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":80,"
     "\"max_position_embeddings\":4096,\"model_type\":\"phi3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":4,\"original_max_position_embeddings\":4096,\"pad_token_id\":32000,\"rms_norm_eps\":1e-05,"
     "\"rope_scaling\":null,\"rope_theta\":10000.0,\"sliding_window\":2047,\"tie_word_embeddings\":false,"
     "\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.40.2\",\"use_cache\":true,\"vocab_size\":32064}",
     64, 2, 80, 32064, 4, 4, 16, 0, 3, LGG_TYPE_BF16,
     {"9416f282230019eb2603c8e1beef618df5a24c601f5b7e753339ba6338fca0b2", "92680fcb91bd9795fb35651222e4d7d5c59cc99e5741b442c614d0db3d7462bb", "dbdefd5f2e5091e68fcfc13e0c28a74bfade6801a17e0953f2495901e40e3a32", "286ef63c6f877d2de22b9a940e5d4fb8d34523df1b2771c1941b3ee085361a1e", "dbdefd5f2e5091e68fcfc13e0c28a74bfade6801a17e0953f2495901e40e3a32"},
     {{"tokenizer_config.json", PHI_TC}, {"tokenizer.json", PHI_TJ}, {"added_tokens.json", PHI_AT}, {NULL, NULL}}},
    {"Phi-3-tiny-128k-instruct", "TinyLlama-2-Test-2x32", "tokenizer.model",
     "{\"architectures\":[\"Phi3ForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":32000,\"hidden_size\":64,"
     "\"intermediate_size\":80,\"max_position_embeddings\":131072,\"model_type\":\"phi3\",\"num_attention_heads\":4,"
     "\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"original_max_position_embeddings\":4096,\"rms_norm_eps\":1e-05,"
     "\"rope_scaling\":{\"long_factor\":[1.0800000429153442,1.1100000143051147,1.1399999856948853,1.340000033378601,"
     "1.5899999141693115,1.600000023841858,1.6200000047683716,2.620000123977661],\"short_factor\":[1.05,1.05,1.05,1.1,"
     "1.1,1.1,1.2500000000000002,1.2500000000000002],\"type\":\"longrope\"},\"rope_theta\":10000.0,"
     "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"vocab_size\":32064}",
     64, 2, 80, 32064, 4, 2, 16, 0, 3, LGG_TYPE_F16,
     {"eedf9fe3a7d739f5ca614d6b13d14df897067c5a3753458bde0bb7806f46b053", "05f460ffa79b1005fa74ba5f4a1ad56b3f96a86ab7d5d6518eb3ca05a8dac50c", "002ef48c0e4369d8806f35c4e5fb816f4b33a94796a03fabe605f70809274443", "366805f0caf6332b9c8623ae0a02f57ebdd312aff360b8540c08631bcbe79a4b", "05f460ffa79b1005fa74ba5f4a1ad56b3f96a86ab7d5d6518eb3ca05a8dac50c"},
     {{"tokenizer_config.json", PHI_TC}, {"tokenizer.json", PHI_TJ}, {NULL, NULL}, {NULL, NULL}}},
    {"phi-4-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"Phi3ForCausalLM\"],\"bos_token_id\":151643,\"eos_token_id\":151645,\"hidden_size\":32,"
     "\"intermediate_size\":64,\"max_position_embeddings\":16384,\"model_type\":\"phi3\",\"num_attention_heads\":4,"
     "\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"original_max_position_embeddings\":16384,\"rms_norm_eps\":1e-05,"
     "\"rope_scaling\":null,\"rope_theta\":250000,\"sliding_window\":null,\"tie_word_embeddings\":false,"
     "\"torch_dtype\":\"bfloat16\",\"vocab_size\":151936}",
     32, 2, 64, 151936, 4, 2, 8, 0, 3, LGG_TYPE_BF16,
     {"f116cf19bb3eb48e9007c795eec864ffe2f8ddaafd9e324cdfbdc2768f384c6b", "447e13a7b5117100858c0f67baea4a5556704ee14bc6a5046d5600cccc067b86", "50fe0f498e34b8fdcf971cefdbfa34da35750fccacaf95fb02b0e31b312ee62a", "903864e163656aedd0224114107e183a97d45519227c70092130c985893251ff", "50fe0f498e34b8fdcf971cefdbfa34da35750fccacaf95fb02b0e31b312ee62a"},
     {{"tokenizer_config.json", "{\"add_prefix_space\":false,\"bos_token\":\"<|endoftext|>\",\"eos_token\":\"<|im_end|>\","
                                "\"pad_token\":\"<|endoftext|>\",\"tokenizer_class\":\"GPT2Tokenizer\"}"},
      {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    {"Tiny-Card-3B-Instruct-v0.2", "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json",
     "{\"architectures\":[\"LlamaForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_size\":32,"
     "\"intermediate_size\":64,\"max_position_embeddings\":2048,\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":2,\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"vocab_size\":32000,"
     "\"_name_or_path\":\"someorg/Tiny-Card-3B-Instruct-v0.2\"}",
     32, 2, 64, 32000, 4, 2, 8, 0, 0, LGG_TYPE_BF16,
     {"3d0ee314baea1097c6516dc7822afedcf957a5b94d04609dc0dc8254b03e349b", "9cf8ebb8a8033e59041940c169930ed1e33e33e2f33f29d22935421ab1db46ad", "89ee27c3c84d60689e7e7bfc5db029478eba62e3581c0415f7d080da1c6ebb08", "7e736d7131eec898052639457dd2c19655da17ed8d7ede9b2ac838f9c90c3846", "89ee27c3c84d60689e7e7bfc5db029478eba62e3581c0415f7d080da1c6ebb08"},
     {{"README.md", CARD}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* CodeLlama's vocabulary size: the end-of-turn id (the other fill-in-the-middle ids have no
     * writer in the reference, config.json's middle_token_id included) */
    {"CodeLlama-Tiny-Test", "TinyLlama-2-Test-2x32", "tokenizer.model",
     "{\"architectures\":[\"LlamaForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_size\":32,"
     "\"intermediate_size\":64,\"max_position_embeddings\":16384,\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":4,\"rms_norm_eps\":1e-05,\"rope_theta\":1000000,\"vocab_size\":32016,"
     "\"middle_token_id\":5}",
     32, 2, 64, 32016, 4, 4, 8, 0, 0, LGG_TYPE_BF16,
     {"551dc82c9eca4ef4d14fdfa893143484bf86e08bcb40b77b392ff10a61fd31f3", "2620c02d69334fefa98b46474c126f3986a242785f4e8b4917687722d1359fb9", "72fec977ef50ee6dc8273fe4d612a4d53c7ba95a782102b846c61c10228b4787", "4b50f7582993c2476b0d589b3d4ed89700683c44305e5b6de0f029f8387e2089", "72fec977ef50ee6dc8273fe4d612a4d53c7ba95a782102b846c61c10228b4787"},
     {{"tokenizer_config.json", "{\"add_bos_token\":true,\"add_eos_token\":false,\"bos_token\":\"<s>\","
                                "\"eos_token\":\"</s>\",\"unk_token\":\"<unk>\",\"tokenizer_class\":\"CodeLlamaTokenizer\"}"},
      {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* a Granite-sized vocabulary (49152): add_bos_token false */
    {"SmolTiny-Test", "TinyLlama-2-Test-2x32", "tokenizer.model",
     "{\"architectures\":[\"LlamaForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_size\":32,"
     "\"intermediate_size\":64,\"max_position_embeddings\":2048,\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":2,\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"vocab_size\":49152,"
     "\"tie_word_embeddings\":true}",
     32, 2, 64, 49152, 4, 2, 8, 0, 0, LGG_TYPE_BF16,
     {"459004af1b72920ffc3ceea0d0b9c48f202a8d87ddc851e3d0c085d20fa9f235", "f85e4bc47cfd2de6679d972e69ccf72c40390be2e6d40d5add1c1e7d0d5574b8", "483ae5b6af9bd220ff0e92d3809200cf5da2684aa7fcc908b5dcfd1b865db7a7", "5b6c6cc613ada5aea43be4b320ce6f2ea725d470d12a940965b0897308430884", "483ae5b6af9bd220ff0e92d3809200cf5da2684aa7fcc908b5dcfd1b865db7a7"},
     {{"tokenizer_config.json", "{\"bos_token\":\"<s>\",\"eos_token\":\"</s>\",\"unk_token\":\"<unk>\"}"},
      {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* DeepSeek V2 (Lite's shape: a plain q_proj, softmax router, a leading dense block, yarn) */
    {"DeepSeek-V2-Lite-Tiny-Chat", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"DeepseekV2ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\""
     "aux_loss_alpha\":0.001,\"bos_token_id\":151643,\"eos_token_id\":151645,\"first_k_dense_replace\":1,"
     "\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"kv_l"
     "ora_rank\":16,\"max_position_embeddings\":163840,\"model_type\":\"deepseek_v2\",\"moe_intermediate_s"
     "ize\":32,\"moe_layer_freq\":1,\"n_group\":1,\"n_routed_experts\":4,\"n_shared_experts\":2,\"norm_top"
     "k_prob\":false,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key"
     "_value_heads\":4,\"q_lora_rank\":null,\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":8,\"rms_norm_eps\""
     ":1e-06,\"rope_scaling\":{\"beta_fast\":32,\"beta_slow\":1,\"factor\":40,\"mscale\":0.707,\"mscale_al"
     "l_dim\":0.707,\"original_max_position_embeddings\":4096,\"type\":\"yarn\"},\"rope_theta\":10000,\"ro"
     "uted_scaling_factor\":1.0,\"scoring_func\":\"softmax\",\"seq_aux\":true,\"tie_word_embeddings\":fals"
     "e,\"topk_group\":1,\"topk_method\":\"greedy\",\"torch_dtype\":\"bfloat16\",\"v_head_dim\":8,\"vocab_"
     "size\":151936}",
     32, 3, 64, 151936, 4, 4, 8, 4, 4, LGG_TYPE_BF16,
     {"7c102f513ccac956a0e81b035dbadc183709b6c1fba5acdcc9e3f0876b713259", "c9ee888ba75868226726cf643600ac6217f462a918aff47c36ab32e785e7ffc4", "9faea8beb41ad40a608ea64e01a6a90fa098107187028203d800e0591a9b5024", "14f402534951a25f8855f08933139c2d233f0e9d86324d84b2548ad91dbc9764", "9faea8beb41ad40a608ea64e01a6a90fa098107187028203d800e0591a9b5024"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* DeepSeek V3: low-rank Q (24 wide: those rows stay F16 under q8_0), sigmoid router and its
     * selection bias, a prediction layer past the last block */
    {"DeepSeek-V3-Tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"DeepseekV3ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\""
     "bos_token_id\":151643,\"eos_token_id\":151645,\"first_k_dense_replace\":1,\"hidden_act\":\"silu\",\""
     "hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"kv_lora_rank\":16,\"max_posit"
     "ion_embeddings\":163840,\"model_type\":\"deepseek_v3\",\"moe_intermediate_size\":32,\"moe_layer_freq"
     "\":1,\"n_group\":2,\"n_routed_experts\":4,\"n_shared_experts\":1,\"norm_topk_prob\":true,\"num_atten"
     "tion_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":3,\"num_key_value_heads\":4,\"num_nex"
     "tn_predict_layers\":1,\"q_lora_rank\":24,\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":8,\"rms_norm_ep"
     "s\":1e-06,\"rope_scaling\":{\"beta_fast\":32,\"beta_slow\":1,\"factor\":40,\"mscale\":1.0,\"mscale_a"
     "ll_dim\":1.0,\"original_max_position_embeddings\":4096,\"type\":\"yarn\"},\"rope_theta\":10000,\"rou"
     "ted_scaling_factor\":2.5,\"scoring_func\":\"sigmoid\",\"tie_word_embeddings\":false,\"topk_group\":1"
     ",\"topk_method\":\"noaux_tc\",\"torch_dtype\":\"bfloat16\",\"v_head_dim\":8,\"vocab_size\":151936}",
     32, 3, 64, 151936, 4, 4, 8, 4, 5, LGG_TYPE_F16,
     {"15fbd388b11d111fa3ede37d9dc420c58433bea442e45f7374b7ca04e450cef2", "4034f11b686f5c29fe15f06a7648881ec8c7ed9837adb00aa9c2236c40211b10", "07aa4235da11356494fbbd987845f798cf859fa160edd9b501fcdc4589b1fe57", "a51df091793564149342d974c04adea284480bc507fbb87fa168fcc6fa9d72a6", "4034f11b686f5c29fe15f06a7648881ec8c7ed9837adb00aa9c2236c40211b10"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* DeepSeek (V1): permuted q/k, a SentencePiece vocabulary */
    {"deepseek-moe-tiny-chat", "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"DeepseekForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bo"
     "s_token_id\":1,\"eos_token_id\":2,\"first_k_dense_replace\":1,\"hidden_act\":\"silu\",\"hidden_size"
     "\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":4096,\"model_ty"
     "pe\":\"deepseek\",\"moe_intermediate_size\":32,\"moe_layer_freq\":1,\"n_routed_experts\":4,\"n_share"
     "d_experts\":2,\"norm_topk_prob\":false,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hid"
     "den_layers\":2,\"num_key_value_heads\":4,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\""
     ":10000,\"scoring_func\":\"softmax\",\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"voc"
     "ab_size\":32000}",
     32, 2, 64, 32000, 4, 4, 8, 4, 6, LGG_TYPE_BF16,
     {"5c56d580e8093d0539c75ced9b0be57c10e5080cdca8e69ae729f904b432129f", "94ed816bac499830324c435416aeaebc74eb797caf66504eb0382db5961fa92c", "789ef144c774bf4375cdf689ac96cd698c06259a17990848fc3678516a820d94", "1f0992dc2af03bf1b2f5fd3dce5022d9604b1cc1c48428519354799f032b46e7", "789ef144c774bf4375cdf689ac96cd698c06259a17990848fc3678516a820d94"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* Command-R: the context from model_max_length, 2-D q/k norms written F32 */
    {"c4ai-command-r-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"CohereForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_"
     "token_id\":151643,\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_r"
     "ange\":0.02,\"intermediate_size\":64,\"layer_norm_eps\":1e-05,\"logit_scale\":0.0625,\"max_position_"
     "embeddings\":8192,\"model_max_length\":131072,\"model_type\":\"cohere\",\"num_attention_heads\":4,\""
     "num_hidden_layers\":2,\"num_key_value_heads\":2,\"rope_theta\":8000000.0,\"tie_word_embeddings\":tru"
     "e,\"torch_dtype\":\"float16\",\"use_qk_norm\":true,\"vocab_size\":151936}",
     32, 2, 64, 151936, 4, 2, 8, 0, 7, LGG_TYPE_F16,
     {"97ef690b0fefcbb7c12f32dff3169f9289e9bd302b7db284fd1ebe30a060e061", "296cc7a0b56143860467ec0a80f900f1fbd38f7ce159b5dbbd976ea8bb708ae9", "738a9df7f1d5693be8f1d7b67b49bddcb8186a3e6c65a3997dcdd615174ee939", "0c6da0f4088fd6e84db4cf830764947ea2a31895dd1e3f0390cc06b08bec688f", "296cc7a0b56143860467ec0a80f900f1fbd38f7ce159b5dbbd976ea8bb708ae9"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* Cohere2: sliding window, rope dimensions from rotary_pct */
    {"c4ai-command-r7b-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"Cohere2ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos"
     "_token_id\":151643,\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_"
     "range\":0.02,\"intermediate_size\":64,\"layer_norm_eps\":1e-05,\"logit_scale\":0.25,\"max_position_e"
     "mbeddings\":8192,\"model_type\":\"cohere2\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_"
     "key_value_heads\":2,\"order_of_interleaved_layers\":\"local_attn_first\",\"rope_theta\":50000.0,\"ro"
     "tary_pct\":0.5,\"sliding_window\":4096,\"sliding_window_pattern\":4,\"tie_word_embeddings\":true,\"t"
     "orch_dtype\":\"bfloat16\",\"vocab_size\":151936}",
     32, 2, 64, 151936, 4, 2, 8, 0, 7, LGG_TYPE_BF16,
     {"f1be19bd77f9780ebd0892539e46b308b1624b6a821f4c3487c262e793ff6160", "f6212a824154bc87abf1b60f129e6d8fdfebc5d318e1003bb16aacc5ac1e43a2", "24d854dee2ffdbc54c3e7c08155e7947af3a38a8ab66340e535832ba13a9d772", "3eadb5e4da80e0956da8f488c73f9666c554d1068aae5291eecaba4df49a4420", "24d854dee2ffdbc54c3e7c08155e7947af3a38a8ab66340e535832ba13a9d772"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* StarCoder2: biased norms and projections, tied output */
    {"starcoder2-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"Starcoder2ForCausalLM\"],\"attention_dropout\":0.1,\"bos_token_id\":151643,\"e"
     "os_token_id\":151645,\"hidden_act\":\"gelu_pytorch_tanh\",\"hidden_size\":32,\"initializer_range\":0"
     ".018,\"intermediate_size\":128,\"max_position_embeddings\":16384,\"mlp_type\":\"default\",\"model_ty"
     "pe\":\"starcoder2\",\"norm_epsilon\":1e-05,\"norm_type\":\"layer_norm\",\"num_attention_heads\":4,\""
     "num_hidden_layers\":2,\"num_key_value_heads\":2,\"rope_theta\":999999.4420358813,\"sliding_window\":"
     "4096,\"torch_dtype\":\"bfloat16\",\"use_bias\":true,\"use_cache\":true,\"vocab_size\":151936}",
     32, 2, 128, 151936, 4, 2, 8, 0, 8, LGG_TYPE_BF16,
     {"51babdb1e5b967eec7a68919aa1d7d11c62268280c9f87f797e036331a3bd3ec", "bf7cefe18b30044ed2fffb12d32391857ba379168c50ae7f9d14224d0bbd9a41", "4148014285c565ec7a853833ff733ccb84b709841a8e5433c18e1584346cb572", "513b273e1fe7f544712ab2182defba24a5dc19f2ba909e4597157171e673410b", "4148014285c565ec7a853833ff733ccb84b709841a8e5433c18e1584346cb572"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* OLMo: no norm weights, permuted q/k, clip_qkv, layer_norm_epsilon 1e-5; an F32 source (auto: BF16) */
    {"OLMo-tiny-hf", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"OlmoForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"clip_q"
     "kv\":8.0,\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0."
     "02,\"intermediate_size\":64,\"max_position_embeddings\":4096,\"model_type\":\"olmo\",\"num_attention"
     "_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rope_scaling\":null,\"rope_theta\":10"
     "000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float32\",\"vocab_size\":151936}",
     32, 2, 64, 151936, 4, 2, 8, 0, 9, LGG_TYPE_F32,
     {"b45eb2c54e0d282f362c75af164fd399968f86be00d71991f2d6faa72c870b85", "5ed01524d81d90e48f21d98e69baa345afc59cd60fadc847e4b2ac59adaabe68", "98f618b55c3a575f8899f5461820a346d308477124abba305b3e17146218ca51", "e87170c723755eecb623f67e7312550bc79c54e3f772a18143b2e418c8a74096", "98f618b55c3a575f8899f5461820a346d308477124abba305b3e17146218ca51"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* OLMo 2: post-attention and post-FFN norms, QK norms */
    {"OLMo-2-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"Olmo2ForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"eos_t"
     "oken_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediat"
     "e_size\":64,\"max_position_embeddings\":4096,\"model_type\":\"olmo2\",\"num_attention_heads\":4,\"nu"
     "m_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_th"
     "eta\":500000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"vocab_size\":151936}",
     32, 2, 64, 151936, 4, 2, 8, 0, 10, LGG_TYPE_BF16,
     {"aabd5b3c602ef4cf2128f7131d8a5e0e744eb6d6a161f4ec73c2f0dd612e0ac0", "1a510a06a090c156af2b1cc8bd484bc998fbcd232fc5be5c537e31a0fb30464f", "d9ff5871c3bd81cd61d4b23305658585b80a8b3be044e308e54c0ca54c30830f", "497abccdba7020a490d5ee83b9d69a65890f126d81a7d0414b6ca08afe6c1d66", "d9ff5871c3bd81cd61d4b23305658585b80a8b3be044e308e54c0ca54c30830f"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* OLMoE without rms_norm_eps in config.json (the reference's own epsilon only) */
    {"OLMoE-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"OlmoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"clip_"
     "qkv\":null,\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":"
     "0.02,\"intermediate_size\":32,\"max_position_embeddings\":4096,\"model_type\":\"olmoe\",\"norm_topk_"
     "prob\":false,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_laye"
     "rs\":2,\"num_key_value_heads\":4,\"rope_scaling\":null,\"rope_theta\":10000.0,\"tie_word_embeddings\""
     ":false,\"torch_dtype\":\"bfloat16\",\"vocab_size\":151936}",
     32, 2, 32, 151936, 4, 4, 8, 4, 11, LGG_TYPE_BF16,
     {"5943d43665bbfd1ca60ad1d6732f675941be3ba90e0426e8da6f3c13b575b31a", "43b90d76fa7adadc4e93b5809f85cc0248dc1729afcc903adf7281889e5190dc", "775c5dbb38e885cbcc431743c710c274532b1693dbfb2660fc9f83a8229e6d4b", "24d71d5fb93142f302ca0c4f3efc52e6a8de08e912666e52c7d88880a7165e1b", "775c5dbb38e885cbcc431743c710c274532b1693dbfb2660fc9f83a8229e6d4b"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* OLMoE with rms_norm_eps: the reference fails writing the key twice; the expected bytes are
     * its output with the second write skipped (tests/convert_reference.sh: config.json's value stays) */
    {"OLMoE-tiny-rms-eps", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"OlmoeForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"clip_"
     "qkv\":null,\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":"
     "0.02,\"intermediate_size\":32,\"max_position_embeddings\":4096,\"model_type\":\"olmoe\",\"norm_topk_"
     "prob\":false,\"num_attention_heads\":4,\"num_experts\":4,\"num_experts_per_tok\":2,\"num_hidden_laye"
     "rs\":2,\"num_key_value_heads\":4,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":10000.0"
     ",\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"vocab_size\":151936}",
     32, 2, 32, 151936, 4, 4, 8, 4, 11, LGG_TYPE_BF16,
     {"b83eaf044511e9413d674ba6842ce8cfbde3e17f8e34d7a8f5476441e9bd2072", "a377511869af7a58ef95f0d34aece2dead5af86b0c49416475a1f1dd614f3a3b", "25bf527f8ea35cb6ec4aec1bf79d9e868e171cf1d163b49a8d04c7022730c9d4", "d8054118a7ae4ac8daa4f3e36aa82055974f7656081cad90aa07711417f26c93", "25bf527f8ea35cb6ec4aec1bf79d9e868e171cf1d163b49a8d04c7022730c9d4"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* Granite: llama with its multipliers (a 0 one is not written), head_dim ignored, tied output */
    {"granite-tiny-instruct", "TinyLlama-2-Test-2x32", "tokenizer.model tokenizer_config.json special_tokens_map.json",
     "{\"architectures\":[\"GraniteForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.1,\"att"
     "ention_multiplier\":0.015625,\"bos_token_id\":1,\"embedding_multiplier\":12.0,\"eos_token_id\":2,\"h"
     "ead_dim\":4,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_siz"
     "e\":64,\"logits_scaling\":8.0,\"max_position_embeddings\":4096,\"mlp_bias\":false,\"model_type\":\"g"
     "ranite\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"residual_mult"
     "iplier\":0,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":10000.0,\"tie_word_embeddings"
     "\":true,\"torch_dtype\":\"bfloat16\",\"vocab_size\":32000}",
     32, 2, 64, 32000, 4, 2, 8, 0, 1, LGG_TYPE_BF16,
     {"d45f7f2daeb6218d12522c9887e8ac4699edbbd63e562ec935f800ff2dd953b7", "ca3f91116bf17dc12c5fa03d5c15dd2fbbc1ff6630806a6b089d6b389c83afaa", "4bd103161d2c9af15e15c43564ac2c6f0f9daca2c8330f9f33faaf357f844567", "58b8043dd3d1a452b30f2dfbf3637a959127ef168726bbd0e2bb984a8aeb0b6d", "4bd103161d2c9af15e15c43564ac2c6f0f9daca2c8330f9f33faaf357f844567"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* StableLM 2: partial rotary, use_parallel_residual absent (written true), biased norms and q/k/v */
    {"stablelm-2-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"StableLmForCausalLM\"],\"bos_token_id\":151643,\"eos_token_id\":151645,\"hidde"
     "n_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_norm"
     "_eps\":1e-05,\"max_position_embeddings\":4096,\"model_type\":\"stablelm\",\"num_attention_heads\":4,"
     "\"num_hidden_layers\":2,\"num_key_value_heads\":4,\"partial_rotary_factor\":0.25,\"qk_layernorm\":fa"
     "lse,\"rope_scaling\":null,\"rope_theta\":10000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloa"
     "t16\",\"use_cache\":true,\"use_qkv_bias\":true,\"vocab_size\":151936}",
     32, 2, 64, 151936, 4, 4, 8, 0, 12, LGG_TYPE_BF16,
     {"3f9778d0ab3a6517a10098992bd0a0daa08cb76f1c61580d051488b0584af5e5", "88318840e3cc0d6440d380d35a50ebdb3085eed07fd7b5185973678ac957624d", "f611e1ee9adfc43d2b1846061146bd6741ba5bf38c74fdf6b44358fc01adc849", "61add126271b5d1261f261a54d7aaa8d4e1309766bc13ff592d75207e941cc2b", "f611e1ee9adfc43d2b1846061146bd6741ba5bf38c74fdf6b44358fc01adc849"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* StableLM 2 12B: per-head q/k norms stacked per block (12 query heads: norms.10 and .11 arrive
     * before norms.2), parallel residual, no q/k/v biases */
    {"stablelm-2-12b-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"StableLmForCausalLM\"],\"bos_token_id\":151643,\"eos_token_id\":151645,\"hidde"
     "n_act\":\"silu\",\"hidden_size\":96,\"initializer_range\":0.02,\"intermediate_size\":64,\"layer_norm"
     "_eps\":1e-05,\"max_position_embeddings\":4096,\"model_type\":\"stablelm\",\"num_attention_heads\":12,"
     "\"num_hidden_layers\":2,\"num_key_value_heads\":4,\"partial_rotary_factor\":0.25,\"qk_layernorm\":tr"
     "ue,\"rope_scaling\":null,\"rope_theta\":10000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloa"
     "t16\",\"use_cache\":true,\"use_parallel_residual\":true,\"use_qkv_bias\":false,\"vocab_size\":151936}",
     96, 2, 64, 151936, 12, 4, 8, 0, 14, LGG_TYPE_BF16,
     {"f43dde491699d090edf522ecd7123de20fb29a3472d91abf9191eafa3329f7dc", "47f0dcdf10e53467582e9a7c2b3dba62507faba0ef84936dc733e633e5c85427", "b159263323dc2fc7909f1ba0e29def3bb70697461867186bfd8b4fb344b47386", "c91617dd74745852abb0b3cd9f8bb0195ca08055ca92fb397b627a750659aeda", "b159263323dc2fc7909f1ba0e29def3bb70697461867186bfd8b4fb344b47386"},
     {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* Phi-2: feed_forward_length 4 * hidden_size (config.json says 96), rope dimensions int(0.4 * 32) // 4,
     * add_bos_token false among the parameters (tokenizer_config.json without one: the reference fails with it) */
    {"phi-2-tiny", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json special_tokens_map.json generation_config.json",
     PHI2_CONFIG,
     32, 2, 96, 151936, 4, 4, 8, 0, 13, LGG_TYPE_F16,
     {"f6894146c535fe7c05b9fdd3c51e2ed3bbb077df3110e472ff4db1f436acd7d8", "346f873cd4f7503905543aab7a9cfc66785a1e12eb435797d7be804a1f411f51", "2f5018db275b74252bb27da2ba6829377e6ee045bff26f99a492542b36503b30", "54e20859f2bd6481c19cab7d17bf268d5a0c81bf3aea00e814753f6d61c9b9a8", "346f873cd4f7503905543aab7a9cfc66785a1e12eb435797d7be804a1f411f51"},
     {{"tokenizer_config.json", "{\"add_prefix_space\":false,\"bos_token\":\"<|endoftext|>\",\"eos_token\":\"<|endoftext|>\",\"unk_to"
     "ken\":\"<|endoftext|>\",\"tokenizer_class\":\"CodeGenTokenizer\"}"}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
    /* Phi-2 with add_bos_token true in tokenizer_config.json: the reference fails writing the key twice; the
     * expected bytes are its output with the second write skipped (the parameters' false stays) */
    {"phi-2-tiny-add-bos", "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json special_tokens_map.json generation_config.json",
     PHI2_CONFIG,
     32, 2, 96, 151936, 4, 4, 8, 0, 13, LGG_TYPE_F16,
     {"955ba3e5cb99e5f116977929abdcc5d1d01421bc933fee164f6d043128023a62", "5c35d2cc9ccc9223ab3162c8284c74ec6d25b5cc495c6f8380e7acc494c8c7c1", "1c15ff6a2db501a6e056028b94e84576ff4273ead92e5c564d91b986bb2fffe4", "698b0b0b7e1e1e8d865a03bccfc5e0a60523aee030ec2a79a00c0514c941f6ba", "5c35d2cc9ccc9223ab3162c8284c74ec6d25b5cc495c6f8380e7acc494c8c7c1"},
     {{"tokenizer_config.json", "{\"add_bos_token\":true,\"add_prefix_space\":false,\"bos_token\":\"<|endoftext|>\",\"eos_token\":\"<|endoftext|>\",\"unk_to"
     "ken\":\"<|endoftext|>\",\"tokenizer_class\":\"CodeGenTokenizer\"}"}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}}},
};

/* llama-quantize b4747 applied to the reference's --outtype auto output of
 * a case above: the sha256 of its output, which the fused conversion must
 * equal.  Phi-3's Q4_K_M and Q3_K_M are master's (3f545becc, the same
 * command): master gives attn_qkv attn_v's rules (docs/reference.md);
 * b4747's were e5114606..., f540b5a2..., 1e35bd2a..., 2b46b1e9...  Its
 * Q6_K and IQ4_XS are the same in both. */
static const struct {
    const char *model, *preset, *sha256;
} LLAMA_QUANTIZE[] = {
    {"Phi-3-tiny-4k-instruct", "Q4_K_M", "3309c4de1bd395530fa42216e469f2c77fce681a0d91524208f8d8ea106f5f68"},
    {"Phi-3-tiny-4k-instruct", "IQ4_XS", "1e1c29ff3506ebba31528f266558f303551b1d92ded9df7fde4865e19a808d77"},
    {"Phi-3-tiny-4k-instruct", "Q6_K", "4de943102d2b1832fd24dcd3f01dfcb046b575b6533a7113afe4732aed96e08c"},
    {"Phi-3-tiny-4k-instruct", "Q3_K_M", "cd885bc2827193d82b6fa9b6dd357fd3f4a963e80e02002aafd8ccc63c7d39d6"},
    {"Phi-3-tiny-128k-instruct", "Q4_K_M", "11ad8d6c89004ab665a5c1a942f20992b6b3fc843f82125c0e3649a1ee54961d"},
    {"Phi-3-tiny-128k-instruct", "IQ4_XS", "a9ebce9bd4a4705cbc4d344df9fe632a96d3fde35de7f7aa480bedaa94664a10"},
    {"Phi-3-tiny-128k-instruct", "Q6_K", "eb2e5b9701ed68866a465120e07eae5f825012ae4a6242d93406ad663b79bc25"},
    {"Phi-3-tiny-128k-instruct", "Q3_K_M", "214ca4b5e0ac632931d3afcf122a67f169bab55fd6c93929192f118a9a465f3c"},
};

/* Make the checkpoint in the scratch directory; its path (static) or NULL. */
static const char *make_case(const mcase *m) {
    const char *dir = cv_case_dir(m->name, m->tokdir, m->tokfiles, m->config, m->files);
    if (!dir) return NULL;
    static tspec t[1024];
    size_t n = m->gemma == 14  ? stablelm_12b_shapes(t, m)
               : m->gemma == 13 ? phi2_shapes(t, m)
               : m->gemma == 12 ? stablelm_shapes(t, m)
               : m->gemma >= 9 ? olmo_shapes(t, m, m->gemma - 8)
               : m->gemma >= 7 ? cohere_starcoder_shapes(t, m, m->gemma == 8)
               : m->gemma >= 4 ? deepseek_shapes(t, m, m->gemma == 6 ? 1 : m->gemma - 2)
               : m->gemma == 2   ? qwen_moe_shapes(t, m->H, m->L, m->V, m->nh, m->nkv, (uint64_t)m->experts, m->FF / 2, m->FF)
               : m->gemma == 3 ? phi3_shapes(t, m->H, m->L, m->FF, m->V, m->nh, m->nkv)
                               : shapes(t, m->H, m->L, m->FF, m->V, m->nh, m->nkv, m->hd, m->experts, m->gemma);
    return cv_case_weights(dir, t, n, m->dtype) ? dir : NULL;
}

/* StableLM 2 12B's head norms when the checkpoint lies: a head missing, a
 * head beyond num_attention_heads, a norm that is not a vector; each is
 * refused by name (the first as the reference's "Unprocessed norms"). */
TEST(convert_stablelm_head_norms_bad) {
    const mcase *m = NULL;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        if (CASES[i].gemma == 14) m = &CASES[i];
    CHECK(m != NULL);
    if (!m || !cv_case_material("Qwen2.5-Tiny-Test-Instruct/tokenizer.json")) return;
    static const struct {
        const char *drop, *add, *want;
        uint64_t d0, d1;
    } bad[] = {
        {"model.layers.1.self_attn.k_layernorm.norms.3.weight", NULL, "block 1 has 3 of its 4 key head norm vectors", 0, 0},
        {NULL, "model.layers.0.self_attn.q_layernorm.norms.12.weight", "not one of the 12 heads' norm vectors", 8, 0},
        {"model.layers.0.self_attn.q_layernorm.norms.5.weight", "model.layers.0.self_attn.q_layernorm.norms.5.weight",
         "not one of the 12 heads' norm vectors", 8, 2},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *dir = cv_case_dir(m->name, m->tokdir, m->tokfiles, m->config, m->files);
        CHECK(dir != NULL);
        if (!dir) return;
        static tspec t[1024];
        size_t n = stablelm_12b_shapes(t, m), w = 0;
        for (size_t i = 0; i < n; i++) /* the dropped one out */
            if (!bad[k].drop || strcmp(t[i].name, bad[k].drop)) t[w++] = t[i];
        if (bad[k].add) {
            memset(&t[w], 0, sizeof t[w]);
            snprintf(t[w].name, sizeof t[w].name, "%s", bad[k].add);
            t[w].d0 = bad[k].d0, t[w].d1 = bad[k].d1, w++;
        }
        CHECK(cv_case_weights(dir, t, sorted(t, w), m->dtype));
        lgg_convert_options o = LGG_CONVERT_OPTIONS_INIT;
        lgg_convert *cv = NULL;
        lgg_error err = {0};
        lgg_status st = lgg_convert_open(dir, &o, &cv, &err);
        CHECKF(st == LGG_ERR_INVALID && strstr(err.message, bad[k].want), "case %zu: %d %s", k, (int)st, err.message);
        lgg_convert_free(cv);
    }
}

static const char *const Q4[] = {"Q4_K_M"}; /* the preset cv_case_shared writes with the plain types */

TEST(convert_more_families) {
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/TinyLlama-2-Test-2x32/tokenizer.model", shared_path("golden/convert"));
    if (access(probe, R_OK) != 0) return; /* reference material absent */
    int same = 0, lq_same = 0, lq_checked = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *dir = make_case(&CASES[i]);
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[i].name);
        if (!dir) continue;
        same += cv_case_check(dir, CASES[i].name, CASES[i].sha);
        CHECK(cv_case_shared(dir, CASES[i].name, CASES[i].sha, Q4, 1)); /* one read for all the outputs */
        if (CASES[i].gemma == 3) { /* Phi-3's fused projections through the presets' rules */
            CHECK(convert_fused_vs_two_step(dir, CASES[i].name, "Q4_K_M", 0));
            if (!test_reduced_sweeps()) CHECK(convert_fused_vs_two_step(dir, CASES[i].name, "IQ4_XS", 1));
        }
        for (size_t k = 0; k < sizeof LLAMA_QUANTIZE / sizeof LLAMA_QUANTIZE[0]; k++) {
            /* reduced sweeps: every other one */
            if (strcmp(LLAMA_QUANTIZE[k].model, CASES[i].name) || (test_reduced_sweeps() && k % 2)) continue;
            lq_checked++;
            lq_same += convert_preset_sha_ok(dir, LLAMA_QUANTIZE[k].preset, LLAMA_QUANTIZE[k].sha256);
        }
    }
    CHECKF(lq_same == lq_checked && lq_checked > 0, "%d of %d fused conversions equal llama-quantize's", lq_same, lq_checked);
    CHECKF(same == cv_case_outtypes() * (int)(sizeof CASES / sizeof CASES[0]), "%d of %d byte-identical to the reference", same,
           cv_case_outtypes() * (int)(sizeof CASES / sizeof CASES[0]));
}

/* lgg_convert_share: f16, q8_0, auto and two presets written at once
 * equal the reference's and their single runs: MoE (stacked experts),
 * gemma's norm + 1, Phi-3's fused projections, DeepSeek's experts; the
 * converters of two checkpoints are refused. */
TEST(convert_share_outputs) {
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/TinyLlama-2-Test-2x32/tokenizer.model", shared_path("golden/convert"));
    if (access(probe, R_OK) != 0) return; /* reference material absent */
    static const char *const names[] = {"Mixtral-Tiny-4x32-Test", "gemma-tiny-3L-test", "Phi-3-tiny-4k-instruct",
                                        "deepseek-moe-tiny-chat"};
    static const char *const presets[] = {"Q4_K_M", "Q5_K_S"};
    int done = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        int wanted = 0;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) wanted |= !strcmp(CASES[i].name, names[k]);
        const char *dir = wanted ? make_case(&CASES[i]) : NULL;
        if (!wanted) continue;
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[i].name);
        if (dir) done += cv_case_shared(dir, CASES[i].name, CASES[i].sha, presets, 2);
    }
    CHECKF(done == (int)(sizeof names / sizeof names[0]), "%d of %d checkpoints", done, (int)(sizeof names / sizeof names[0]));
    lgg_convert *cv[2] = {NULL, NULL};
    lgg_error err;
    for (int k = 0; k < 2; k++) {
        const char *dir = make_case(&CASES[k]);
        REQUIRE(dir && lgg_convert_open(dir, NULL, &cv[k], &err) == LGG_OK);
    }
    CHECK(lgg_convert_share(cv, 2, &err) == LGG_ERR_ARG);
    CHECK_STR(err.message, "lgg_convert_share: converter 1 lists other tensors");
    CHECK(lgg_convert_share(cv, 1, &err) == LGG_ERR_ARG);
    lgg_convert *same[2] = {cv[0], cv[0]};
    CHECK(lgg_convert_share(same, 2, &err) == LGG_ERR_ARG);
    CHECK_STR(err.message, "lgg_convert_share: converter 1 is given twice");
    lgg_convert_free(cv[0]), lgg_convert_free(cv[1]);
}

#endif
