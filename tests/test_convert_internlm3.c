/* test_convert_internlm3.c -- InternLM3 (InternLM3ForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_internlm3 tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

/* InternLM3: llama's names and shapes, head_dim given. */
static size_t internlm3_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        n += cv_fcase_llama_attn(t + n, m, hd, b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

/* InternLM3's: special chat tokens, a user-defined one with a SentencePiece space. */
#define INTERNLM3_TC                                                                                                   \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"add_prefix_space\":false,\"added_tokens_decoder\":{\"0\":{\"conte" \
    "nt\":\"<unk>\",\"special\":true},\"1\":{\"content\":\"<s>\",\"special\":true},\"2\":{\"content\":\"</s>\",\"spe" \
    "cial\":true},\"31997\":{\"content\":\"\\u2581hello\",\"special\":false},\"31998\":{\"content\":\"<|im_start|>\",\"s" \
    "pecial\":true},\"31999\":{\"content\":\"<|im_end|>\",\"special\":true}},\"bos_token\":\"<s>\",\"chat_template\":\"" \
    "{{ bos_token }}{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_" \
    "end|>\\n'}}{% endfor %}\",\"eos_token\":\"</s>\",\"pad_token\":\"</s>\",\"spaces_between_special_tokens\":false,\"to" \
    "kenizer_class\":\"InternLM3Tokenizer\",\"unk_token\":\"<unk>\"}"

static const char *const FILES[][2] = {{"tokenizer_config.json", INTERNLM3_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"

static const cv_fcase CASES[] = {
    /* InternLM3 (internlm3-8b-instruct's config, rope_scaling named by rope_type as "linear"): llama's
     * tensors and permutation, add_prefix_space false, eos becomes the special <|im_end|> */
    {"internlm3-tiny-instruct",
     "{\"architectures\":[\"InternLM3ForCausalLM\"],\"attention_dropout\":0.0,\"bias\":false,\"bos_token_id\":1,\"eos"
     "_token_id\":2,\"head_dim\":8,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediat"
     "e_size\":64,\"max_position_embeddings\":32768,\"model_type\":\"internlm3\",\"num_attention_heads\":4,\"num_hidden"
     "_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":2,\"qkv_bias\":false,\"rms_norm_eps\":1e-05,\"rope_scaling"
     "\":{\"factor\":6.0,\"rope_type\":\"linear\"},\"rope_theta\":50000000,\"tie_word_embeddings\":false,\"torch_dtype\""
     ":\"bfloat16\",\"use_cache\":true,\"vocab_size\":32000}",
     "TinyLlama-2-Test-2x32", "tokenizer.model", internlm3_shapes, 0, 32, 2, 4, 2, 32000, LGG_TYPE_BF16, {"a5b413cbaf9c049e2856e9bc0fd013c5c7c6dd5c241a07922d9ce41862acf46b", "982fd81ece9c98d187875de09ec5b2536ebb2fe839a92cb7df0b2f1a18d04f10", "f19bef5f641e0a4005c00081fa4189663ba90f8243620b8a27248187f7f4a23c", "408dc29964b1a499fdcf6fa520dcc8a5e87572ad728ce366a46642c787cb5566", "f19bef5f641e0a4005c00081fa4189663ba90f8243620b8a27248187f7f4a23c"}},
};

TEST(convert_internlm3) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, NULL);
    cv_case_supported("InternLM3ForCausalLM");
}

#endif
