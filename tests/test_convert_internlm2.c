/* test_convert_internlm2.c -- InternLM2 (InternLM2ForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_internlm2 tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* InternLM2: fused wqkv grouped per key/value head, w1/w3/w2. */
static size_t internlm2_shapes(tspec *t, const cv_fcase *m) {
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

static const char *const FILES[][2] = {{"tokenizer_config.json", INTERNLM2_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"

static const cv_fcase CASES[] = {
    /* InternLM2 (internlm2-chat-1_8b's config): wqkv split and permuted, the chat tokens among the pieces
     * (eos becomes <|im_end|>, <unk> a control token), a NUL piece, rope_scaling "dynamic" (not written) */
    {"internlm2-chat-tiny",
     "{\"architectures\":[\"InternLM2ForCausalLM\"],\"attn_implementation\":\"eager\",\"bias\":false,\"bos_token_"
     "id\":1,\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermedia"
     "te_size\":64,\"max_position_embeddings\":32768,\"model_type\":\"internlm2\",\"num_attention_heads\":4,\"num_hid"
     "den_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":2,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\""
     ":2.0,\"type\":\"dynamic\"},\"rope_theta\":1000000,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"u"
     "se_cache\":true,\"vocab_size\":32000}",
     "TinyLlama-2-Test-2x32", "tokenizer.model", internlm2_shapes, 0, 32, 2, 4, 2, 32000, LGG_TYPE_BF16, {"eb358ea4de59641e7b983e0ae1e8b041f72786c7bfacbc2aeac6432462f51e56", "f86fcc0ce7a486d0b1d138db2572d6fbbda015a36bbd4fe45613be7b81f73b10", "0ac051fd5e24889a54d86160cf63436e1253caadf1949dc27766e90bb4824a74", "f3b5f352a97aec0140f4427f0bb6ebab2067b2a3820f2236f5c40f3e0817e802", "0ac051fd5e24889a54d86160cf63436e1253caadf1949dc27766e90bb4824a74"}},
};

TEST(convert_internlm2) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], FILES, internlm2_pieces);
    cv_case_supported("InternLM2ForCausalLM");
    const char *dir;
    if ((dir = cv_fcase_make(&CASES[0], FILES, internlm2_pieces))) cv_case_refused(dir, CASES[0].config, "\"rope_theta\":1000000,", "'rope_theta'");
}

#endif
