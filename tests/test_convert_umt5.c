/* test_convert_umt5.c -- UMT5Model, which only llama.cpp master converts
 * (its default target; master reads it with its T5 class), against master's
 * convert_hf_to_gguf.py (3f545becc): umt5-small's config.json fields, the
 * encoder and decoder without an LM head, a relative attention bias in every
 * block (UMT5's, where T5 has one in block 0), tests/data's Unigram model as
 * spiece.model (umt5's own is 256k pieces).  The sha256s are master's
 * outputs for f32, f16, bf16, q8_0 and auto (tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

/* Encoder and decoder blocks (heads of 16, gated feed-forward of 96), each
 * with its own relative attention bias (32 buckets). */
static size_t umt5_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, in = m->nh * 16, ff = 96;
    size_t n = 0;
    ADD(m->V, H, "shared.weight");
    for (int side = 0; side < 2; side++) {
        const char *sd = side ? "decoder" : "encoder", *att[2] = {"SelfAttention", "EncDecAttention"};
        int ffl = side ? 2 : 1;
        ADD(H, 0, "%s.final_layer_norm.weight", sd);
        for (unsigned long long b = 0; b < m->L; b++) {
            for (int a = 0; a <= side; a++) {
                ADD(in, H, "%s.block.%llu.layer.%d.%s.q.weight", sd, b, a, att[a]);
                ADD(in, H, "%s.block.%llu.layer.%d.%s.k.weight", sd, b, a, att[a]);
                ADD(in, H, "%s.block.%llu.layer.%d.%s.v.weight", sd, b, a, att[a]);
                ADD(H, in, "%s.block.%llu.layer.%d.%s.o.weight", sd, b, a, att[a]);
                ADD(H, 0, "%s.block.%llu.layer.%d.layer_norm.weight", sd, b, a);
            }
            ADD(32, m->nh, "%s.block.%llu.layer.0.SelfAttention.relative_attention_bias.weight", sd, b);
            ADD(ff, H, "%s.block.%llu.layer.%d.DenseReluDense.wi_0.weight", sd, b, ffl);
            ADD(ff, H, "%s.block.%llu.layer.%d.DenseReluDense.wi_1.weight", sd, b, ffl);
            ADD(H, ff, "%s.block.%llu.layer.%d.DenseReluDense.wo.weight", sd, b, ffl);
            ADD(H, 0, "%s.block.%llu.layer.%d.layer_norm.weight", sd, b, ffl);
        }
    }
    return cv_case_sort(t, n);
}

#define UMT5_CONFIG                                                                                                     \
    "{\"architectures\":[\"UMT5Model\"],\"classifier_dropout\":0.0,\"d_ff\":96,\"d_kv\":16,\"d_model\":64,\"decoder_st" \
    "art_token_id\":0,\"dense_act_fn\":\"gelu_new\",\"dropout_rate\":0.1,\"eos_token_id\":1,\"feed_forward_proj\":\"gat" \
    "ed-gelu\",\"initializer_factor\":1.0,\"is_encoder_decoder\":true,\"is_gated_act\":true,\"layer_norm_epsilon\":1e-0" \
    "6,\"model_type\":\"umt5\",\"num_decoder_layers\":2,\"num_heads\":4,\"num_layers\":2,\"output_past\":true,\"pad_tok" \
    "en_id\":0,\"relative_attention_max_distance\":128,\"relative_attention_num_buckets\":32,\"scalable_attention\":tr" \
    "ue,\"tie_word_embeddings\":false,\"tokenizer_class\":\"T5Tokenizer\",\"torch_dtype\":\"float32\",\"transformers_v" \
    "ersion\":\"4.31.0\",\"use_cache\":true,\"vocab_size\":416}"

static const cv_fcase UMT5[] = {
    {"UMT5-Tiny-Test", UMT5_CONFIG, "", "", umt5_shapes, 0, 64, 2, 4, 4, 416, LGG_TYPE_F32, {"1f965d079ec1fc02a305088d24a36fba698a93d60b381eaf44bb04991c5f948c", "19642f34b4d28a0da1ed3e61b79e2baa162de43720c75d8c04751b84b7171576", "ed81467118f3e135b87ea653f65e8a0c7a8c14b57296de5e59f5cf75df2d2598", "4d81543c0c7e807440c95bac7274fc0c9241d1cbbc0b4aac8184a73fd7fb3037", "19642f34b4d28a0da1ed3e61b79e2baa162de43720c75d8c04751b84b7171576"}},
};

/* tests/data's Unigram model as spiece.model, T5's tokenizer_config.json. */
static int prepare(const char *dir) {
    char to[4300];
    snprintf(to, sizeof to, "%s/spiece.model", dir);
    return cv_case_copy("tests/data/unigram-nmt-nfkc.model", to) &&
           put_text(dir, "tokenizer_config.json",
                    "{\"additional_special_tokens\":[],\"eos_token\":\"</s>\",\"extra_ids\":0,\"model_max_length\":512,"
                    "\"pad_token\":\"<pad>\",\"tokenizer_class\":\"T5Tokenizer\",\"unk_token\":\"<unk>\"}");
}

TEST(convert_umt5) {
    cv_fcase_run(UMT5, 1, NULL, prepare);
    cv_case_supported("UMT5Model");
}

#endif
