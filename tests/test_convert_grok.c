/* test_convert_grok.c -- Grok (GrokForCausalLM) against llama.cpp b4747's
 * convert_hf_to_gguf.py: a tiny checkpoint with the config.json fields of
 * grok-1's Hugging Face port (the architecture name the reference
 * registers, and num_local_experts, which its expert stacking reads) and
 * the reference's tensor names (each expert's linear, linear_1 and
 * linear_v matrices), written again byte for byte by convert_cases.c; the
 * sha256s of the reference's outputs are recorded here
 * (LGG_REF_TEST=convert_grok tests/convert_reference.sh remakes them).
 * Under --target master the same checkpoint is held to master's bytes
 * (tests/data/convert-master-sweep.tsv); convert_grok_master converts
 * Grok1ForCausalLM, the other name of master's GrokModel, with the keys
 * its class reads beyond Grok-1's (final softcapping, experts' width, yarn
 * from top-level keys, attention temperature; no attn_output_multiplier,
 * so head size^-0.5) against master's converter
 * (LGG_REF_TEST=convert_grok_master tests/convert_master_reference.sh). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdio.h>
#include <unistd.h>

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

#define GROK1_CONFIG                                                                                                      \
    "{\"architectures\":[\"Grok1ForCausalLM\"],\"attn_factor\":1.0,\"attn_logit_softcapping\":30.0,\"attn_temperature_l" \
    "en\":1024,\"beta_fast\":8,\"beta_slow\":1,\"bos_token_id\":1,\"embedding_multiplier_scale\":90.50966799187809,\"e" \
    "os_token_id\":2,\"extrapolation_factor\":1.0,\"final_logit_softcapping\":50.0,\"hidden_size\":32,\"intermediat" \
    "e_size\":64,\"max_position_embeddings\":131072,\"model_type\":\"git\",\"moe_intermediate_size\":64,\"num_atte" \
    "ntion_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_local_expe" \
    "rts\":4,\"original_max_position_embeddings\":8192,\"output_multiplier_scale\":0.5,\"pad_token_id\":0,\"rms_no" \
    "rm_eps\":1e-05,\"rope_theta\":208533496,\"rope_type\":\"original\",\"router_logit_softcapping\":30.0,\"scaling" \
    "_factor\":16.0,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"vocab_size\":32000}"

static const gcase GROK1 = {"grok1-keys-tiny", GROK1_CONFIG, 32, 2, 4, 2, 8, 64, 4, 32000, LGG_TYPE_BF16, {"e5db4ec05b703f955f89ca5c62c0e57dbb9a24ff6ab036f1ce9dc058cbfa1d9e", "11cb0adbc27a7ff2c695c4bf53486952cd37203fae454906444ebb598c1d4abc", "e9997de2280541edfb4ffd63014aa29a2a1aa32e5da925db6b9c1e4eb5b5ff92", "50be9969a1c56652e13a7596599fefd18e50c64c8f6281e86421981a45d20991", "e9997de2280541edfb4ffd63014aa29a2a1aa32e5da925db6b9c1e4eb5b5ff92"}};

/* Case m's checkpoint made, or NULL. */
static const char *make(const gcase *m) {
    const char *dir = cv_case_dir(m->name, SPM_DIR, SPM_FILES, m->config, NULL);
    static tspec t[256];
    return dir && cv_case_weights(dir, t, grok_shapes(t, m), m->dtype) ? dir : NULL;
}

static const char *make_case(void) { return make(&CASE); }

TEST(convert_grok) {
    if (!cv_case_material(SPM_DIR "/tokenizer.model")) return; /* reference material absent */
    int same = cv_case_run(make_case(), CASE.name, CASE.sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes(), "%d of %d byte-identical to the reference", same, cv_case_outtypes());
    cv_case_supported("GrokForCausalLM");
    const char *dir = make_case();
    if (dir) cv_case_refused(dir, CASE.config, "\"num_local_experts\":4,", "'num_local_experts'");
    if ((dir = make_case())) cv_case_refused(dir, CASE.config, "\"num_hidden_layers\":2,", "'num_hidden_layers'");
}

TEST(convert_grok_master) {
    if (!cv_case_material(SPM_DIR "/tokenizer.model")) return; /* reference material absent */
    int same = cv_case_run(make(&GROK1), GROK1.name, GROK1.sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes(), "%d of %d byte-identical to the reference", same, cv_case_outtypes());
    cv_case_supported("Grok1ForCausalLM");
    const char *dir = make(&GROK1);
    if (dir) cv_case_refused(dir, GROK1.config, "\"embedding_multiplier_scale\":90.50966799187809,", "'embedding_multiplier_scale'");
    if ((dir = make(&GROK1))) cv_case_refused(dir, GROK1.config, "\"beta_fast\":8,", "'beta_fast'");
    if ((dir = make(&GROK1)))
        cv_case_refused_edit(dir, GROK1.config, "\"attn_temperature_len\":1024", "\"attn_temperature_len\":-1", "'attn_temperature_len'");
    /* no tokenizer.model: master wants tokenizer.json and chat_template.jinja */
    char p[4300];
    gcase bare = GROK1;
    bare.name = "grok1-no-tokenizer-tiny"; /* its own folder: the references are made from grok1-keys-tiny's */
    if ((dir = make(&bare))) {
        snprintf(p, sizeof p, "%s/tokenizer.model", dir);
        unlink(p);
        cv_case_refused(dir, GROK1.config, "", "nor tokenizer.json with chat_template.jinja");
    }
}

#endif
