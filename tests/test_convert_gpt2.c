/* test_convert_gpt2.c -- GPT-2 (GPT2LMHeadModel) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_gpt2 tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

static size_t gpt2_shapes(tspec *t, const cv_fcase *m) {
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

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"
#define QWEN TOKDIR, TOKFILES

static const cv_fcase CASES[] = {
    /* GPT-2 as on the hub: names without "transformer.", F32, the mask buffers kept in the file */
    {"gpt2-tiny",
     "{\"activation_function\":\"gelu_new\",\"architectures\":[\"GPT2LMHeadModel\"],\"attn_pdrop\":0.1,\"bos_token_id\":"
     "151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type"
     "\":\"gpt2\",\"n_ctx\":64,\"n_embd\":32,\"n_head\":4,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":0.1,\"summary_act"
     "ivation\":null,\"summary_first_dropout\":0.1,\"summary_proj_to_labels\":true,\"summary_type\":\"cls_index\",\"summary_"
     "use_proj\":true,\"vocab_size\":151936}",
     QWEN, gpt2_shapes, 0, 32, 2, 4, 4, 151936, LGG_TYPE_F32, {"cca14fe7388134e86bdddb4fd55cf29be4f45f004f961b62434126ab8810a5dc", "7e58deef4a0e5ccd904102a192304d95d2b480af01279901316ee6fc1dee49e0", "9ee295d53d3105519447f8ebdfa04033300c64a58cd580448d3e12041970e5d8", "77e1e73af76010a9496ae3ed14a4f9e38ada29d946d41cf5c7279d64641c6782", "9ee295d53d3105519447f8ebdfa04033300c64a58cd580448d3e12041970e5d8"}},
    /* GPT-2 saved by transformers: names under "transformer.", F16 */
    {"gpt2-tiny-transformer",
     "{\"activation_function\":\"gelu_new\",\"architectures\":[\"GPT2LMHeadModel\"],\"attn_pdrop\":0.1,\"bos_token_id\":"
     "151643,\"embd_pdrop\":0.1,\"eos_token_id\":151643,\"initializer_range\":0.02,\"layer_norm_epsilon\":1e-05,\"model_type"
     "\":\"gpt2\",\"n_ctx\":64,\"n_embd\":32,\"n_head\":4,\"n_inner\":null,\"n_layer\":2,\"n_positions\":64,\"resid_pdrop\":"
     "0.1,\"torch_dtype\":\"float16\",\"vocab_size\":151936}",
     QWEN, gpt2_shapes, 1, 32, 2, 4, 4, 151936, LGG_TYPE_F16, {"1234318727ae0dab3e97187ed501ff69059c3c9b5ef0816ff23bf4ee8b7db3ee", "a1e3bc0f8c0b7485a9b0f39c0d9e53d6d3fc833141cf40e707818e05f7ca4cc1", "c29816090b95e90d8729db1b0b2b7d08a1ae0f9f5adc36b98fd30108f3331a9b", "5d927ec1c177ce4c345563c3b67aa2cd88cc52e853b80a63d11cf2824c9846e7", "a1e3bc0f8c0b7485a9b0f39c0d9e53d6d3fc833141cf40e707818e05f7ca4cc1"}},
};

TEST(convert_gpt2) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("GPT2LMHeadModel");
    const char *dir;
    if ((dir = cv_fcase_make(&CASES[0], NULL, NULL))) cv_case_refused(dir, CASES[0].config, "\"n_ctx\":64,", "'n_ctx'");
}

#endif
