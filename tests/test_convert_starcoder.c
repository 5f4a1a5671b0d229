/* test_convert_starcoder.c -- StarCoder (GPTBigCodeForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_starcoder tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

/* StarCoder (GPTBigCode): GPT-2's names as torch Linear layers (out, in),
 * multi-query attention (q, then one key and one value head), the output
 * tied to the embeddings (not in the file). */
static size_t starcoder_shapes(tspec *t, const cv_fcase *m) {
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

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"
#define QWEN TOKDIR, TOKFILES

static const cv_fcase CASES[] = {
    /* StarCoder (GPTBigCode, bigcode's tiny_starcoder layout): multi-query, tied output, F16 */
    {"tiny_starcoder",
     "{\"activation_function\":\"gelu_pytorch_tanh\",\"architectures\":[\"GPTBigCodeForCausalLM\"],\"attention_softmax_in_fp32\""
     ":true,\"attn_pdrop\":0.1,\"bos_token_id\":151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,"
     "\"layer_norm_epsilon\":1e-05,\"model_type\":\"gpt_bigcode\",\"multi_query\":true,\"n_embd\":32,\"n_head\":4,\"n_inner\""
     ":128,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":0.1,\"scale_attention_softmax_in_fp32\":true,\"scale_attn_weights\""
     ":true,\"torch_dtype\":\"float16\",\"use_cache\":true,\"vocab_size\":151936}",
     QWEN, starcoder_shapes, 0, 32, 2, 4, 1, 151936, LGG_TYPE_F16, {"fe25fa429372c8fc70d8e37bc30925bdd34af5648b787bbc8f3c7e7f1a28834d", "12dd2e6d3353ba4e5694a5cb61ee67629911e2abe12233a534e575c931fcad6b", "eb6e0d30078db277f1f1c7468522c26ab6ad859a4e3c04ce897bb52fc88115cb", "877c8d9e2d443a8df126603fffefea4d1cf4eef1c378c1183042073ec5dbf2d7", "12dd2e6d3353ba4e5694a5cb61ee67629911e2abe12233a534e575c931fcad6b"}},
};

TEST(convert_starcoder) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("GPTBigCodeForCausalLM");
    const char *dir;
    if ((dir = cv_fcase_make(&CASES[0], NULL, NULL))) cv_case_refused(dir, CASES[0].config, "\"n_positions\":64,", "'n_positions'");
}

#endif
