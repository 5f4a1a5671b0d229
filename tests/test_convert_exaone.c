/* test_convert_exaone.c -- EXAONE (ExaoneForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: tiny checkpoints with the config.json fields and
 * tensor names the family's real checkpoints have, written again byte for
 * byte by convert_cases.c; the sha256s of the reference's outputs are
 * recorded here (LGG_REF_TEST=convert_exaone tests/convert_reference.sh
 * remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdio.h>
#include <string.h>

/* Exaone: GPT-2's outer names, llama's blocks under other names. */
static size_t exaone_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "transformer.wte.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "transformer.ln_f.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "transformer.h.%llu.ln_1.weight", b);
        ADD(H, 0, "transformer.h.%llu.ln_2.weight", b);
        ADD(m->nh * hd, H, "transformer.h.%llu.attn.attention.q_proj.weight", b);
        ADD(m->nkv * hd, H, "transformer.h.%llu.attn.attention.k_proj.weight", b);
        ADD(m->nkv * hd, H, "transformer.h.%llu.attn.attention.v_proj.weight", b);
        ADD(H, m->nh * hd, "transformer.h.%llu.attn.attention.out_proj.weight", b);
        ADD(FF, H, "transformer.h.%llu.mlp.c_fc_0.weight", b);
        ADD(FF, H, "transformer.h.%llu.mlp.c_fc_1.weight", b);
        ADD(H, FF, "transformer.h.%llu.mlp.c_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

#define TOKDIR "Qwen2.5-Tiny-Test-Instruct"
#define TOKFILES "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json"
#define QWEN TOKDIR, TOKFILES

static const cv_fcase CASES[] = {
    /* Exaone (EXAONE 3.5's config): llama 3's rope scaling (rope_freqs), head_dim, F16 */
    {"EXAONE-3.5-tiny-Instruct",
     "{\"activation_function\":\"silu\",\"architectures\":[\"ExaoneForCausalLM\"],\"attention_dropout\":0.0,\"bos_toke"
     "n_id\":151643,\"embed_dropout\":0.0,\"eos_token_id\":151645,\"head_dim\":8,\"hidden_size\":32,\"initializer_range"
     "\":0.02,\"intermediate_size\":64,\"layer_norm_epsilon\":1e-05,\"max_position_embeddings\":32768,\"model_type\":\""
     "exaone\",\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_layers\":2,\"pad_token_id\":0,\"rope_scaling\""
     ":{\"factor\":8.0,\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_t"
     "ype\":\"llama3\"},\"rope_theta\":1000000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"use_cache"
     "\":true,\"vocab_size\":151936}",
     QWEN, exaone_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_F16, {"352efb24f1d2565dab49ba7e1a665f16f8e18e96f394860fef058a0124acf5b1", "33d0c020ace8ac4cb494870523d00e2a7452396d150ef8bb593a8861a7f38ba2", "305b6c7a9348fb59f80f4264a87b4420bf23b6562193170e090ca7aa9fccd034", "12635f7a43e46777c179bb750f6ea77c4c1faa116ddddea74bd1397fb83049b8", "33d0c020ace8ac4cb494870523d00e2a7452396d150ef8bb593a8861a7f38ba2"}},
};

TEST(convert_exaone) {
    if (!cv_case_material(TOKDIR "/tokenizer.json")) return; /* reference material absent */
    cv_fcase_run(CASES, sizeof CASES / sizeof CASES[0], NULL, NULL);
    cv_case_supported("ExaoneForCausalLM");
    const char *dir;
    if ((dir = cv_fcase_make(&CASES[0], NULL, NULL))) cv_case_refused(dir, CASES[0].config, "\"num_layers\":2,", "'num_hidden_layers'");
}

#endif
