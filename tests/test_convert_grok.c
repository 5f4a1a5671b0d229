/* test_convert_grok.c -- Grok (GrokForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: a tiny checkpoint with the config.json fields of
 * grok-1's Hugging Face port (the architecture name the reference
 * registers, and num_local_experts, which its expert stacking reads) and
 * the reference's tensor names (each expert's linear, linear_1 and
 * linear_v matrices), written again byte for byte by convert_cases.c; the
 * sha256s of the reference's outputs are recorded here
 * (LGG_REF_TEST=convert_grok tests/convert_reference.sh remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#define SPM_DIR "TinyLlama-2-Test-2x32"
#define SPM_FILES "tokenizer.model tokenizer_config.json special_tokens_map.json"

typedef struct gcase {
    const char *name, *config;
    uint64_t H, L, nh, nkv, hd, ff, E, V;
    uint32_t dtype;
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
} gcase;

static size_t grok_shapes(tspec *t, const gcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "transformer.in_out_embed.weight");
    ADD(H, 0, "transformer.rms_norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *p = "transformer.decoder_layer";
        ADD(m->nh * m->hd, H, "%s.%llu.multi_head_attention.query.weight", p, b);
        ADD(m->nkv * m->hd, H, "%s.%llu.multi_head_attention.key.weight", p, b);
        ADD(m->nkv * m->hd, H, "%s.%llu.multi_head_attention.value.weight", p, b);
        ADD(H, m->nh * m->hd, "%s.%llu.multi_head_attention.linear.weight", p, b);
        ADD(H, 0, "%s.%llu.rms_norm.weight", p, b);
        for (int k = 1; k <= 3; k++) ADD(H, 0, "%s.%llu.rms_norm_%d.weight", p, b, k);
        ADD(m->E, H, "%s.%llu.router.weight", p, b);
        for (unsigned long long x = 0; x < m->E; x++) {
            ADD(m->ff, H, "%s.%llu.moe.%llu.linear.weight", p, b, x);
            ADD(H, m->ff, "%s.%llu.moe.%llu.linear_1.weight", p, b, x);
            ADD(m->ff, H, "%s.%llu.moe.%llu.linear_v.weight", p, b, x);
        }
    }
    return cv_case_sort(t, n);
}

/* grok-1's config (hpcai-tech/grok-1) at a tiny size, named as the
 * reference registers it. */
#define GROK_CONFIG                                                                                                       \
    "{\"architectures\":[\"GrokForCausalLM\"],\"attn_output_multiplier\":0.08838834764831845,\"bos_token_id\":1,\"embedd" \
    "ing_multiplier_scale\":78.38367176906169,\"eos_token_id\":2,\"hidden_size\":32,\"intermediate_size\":64,\"max_attn_va" \
    "lue\":30.0,\"max_position_embeddings\":8192,\"model_type\":\"grok-1\",\"num_attention_heads\":4,\"num_experts\":4,\"n" \
    "um_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_local_experts\":4,\"output_multiplier" \
    "_scale\":0.5773502691896257,\"pad_token_id\":0,\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"tie_word_embeddings\":t" \
    "rue,\"torch_dtype\":\"bfloat16\",\"vocab_size\":32000}"

static const gcase CASE = {"grok-1-tiny", GROK_CONFIG, 32, 2, 4, 2, 8, 64, 4, 32000, LGG_TYPE_BF16, {"c39e3bb53a65fc283fc70e8fc63a8508f275a60034f989ce218b134f684fd6b5", "e1aea26b022d9f5a983545cb5d2d7f44b1e4cad22bc417901612238ad728098d", "da16405ad9da51d69a2fa52cf2e164347a5c69532357eaf8f186c6e4603c3e01", "e51c217071b1a1bd024333496e46b584c7690104b9720f8787b829e8496af2c7", "da16405ad9da51d69a2fa52cf2e164347a5c69532357eaf8f186c6e4603c3e01"}};

/* The checkpoint made, or NULL. */
static const char *make_case(void) {
    const char *dir = cv_case_dir(CASE.name, SPM_DIR, SPM_FILES, CASE.config, NULL);
    static tspec t[256];
    return dir && cv_case_weights(dir, t, grok_shapes(t, &CASE), CASE.dtype) ? dir : NULL;
}

TEST(convert_grok) {
    if (!cv_case_material(SPM_DIR "/tokenizer.model")) return; /* reference material absent */
    int same = cv_case_run(make_case(), CASE.name, CASE.sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes(), "%d of %d byte-identical to the reference", same, cv_case_outtypes());
    cv_case_supported("GrokForCausalLM");
    const char *dir = make_case();
    if (dir) cv_case_refused(dir, CASE.config, "\"num_local_experts\":4,", "'num_local_experts'");
    if ((dir = make_case())) cv_case_refused(dir, CASE.config, "\"num_hidden_layers\":2,", "'num_hidden_layers'");
}

#endif
