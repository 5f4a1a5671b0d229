/* test_convert_phi4v.c -- Phi-4-reasoning-vision's text (Phi4ForCausalLMV:
 * phi3), which only llama.cpp master converts (its Phi3MiniModel), against
 * master's convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the
 * config.json fields of microsoft/Phi-4-reasoning-vision-15B (Phi-4's text
 * keys at the top level, the SigLIP2 NaFlex tower's and mlp2x_gelu
 * projector's beside them) and its tensor names: Phi-3's fused qkv_proj and
 * gate_up_proj under model., the tower under model.vision_tower.vision_tower.
 * and the projector under model.mm_projector. (both left out of the text
 * model).  Phi-4's GPT2Tokenizer class over ../shared's Qwen2.5 tokenizer, as
 * test_convert_more.c's phi-4-tiny.  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

/* The SigLIP2 tower (one block, patches of 4) and the two-layer projector. */
static size_t vision(tspec *t, uint64_t H) {
    const uint64_t VH = 16, P = 3 * 4 * 4;
    size_t n = 0;
    const char *tower = "model.vision_tower.vision_tower.vision_model.";
    ADD(VH, P, "%sembeddings.patch_embedding.weight", tower);
    ADD(VH, 0, "%sembeddings.patch_embedding.bias", tower);
    ADD(16, VH, "%sembeddings.position_embedding.weight", tower);
    static const char *const PROJ[] = {"q_proj", "k_proj", "v_proj", "out_proj"};
    for (int k = 0; k < 4; k++) {
        ADD(VH, VH, "%sencoder.layers.0.self_attn.%s.weight", tower, PROJ[k]);
        ADD(VH, 0, "%sencoder.layers.0.self_attn.%s.bias", tower, PROJ[k]);
    }
    ADD(VH, 0, "%sencoder.layers.0.layer_norm1.weight", tower);
    ADD(VH, 0, "%sencoder.layers.0.layer_norm2.weight", tower);
    ADD(2 * VH, VH, "%sencoder.layers.0.mlp.fc1.weight", tower);
    ADD(VH, 2 * VH, "%sencoder.layers.0.mlp.fc2.weight", tower);
    ADD(VH, 0, "%spost_layernorm.weight", tower);
    ADD(H, VH, "model.mm_projector.0.weight");
    ADD(H, 0, "model.mm_projector.0.bias");
    ADD(H, H, "model.mm_projector.2.weight");
    ADD(H, 0, "model.mm_projector.2.bias");
    return n;
}

static size_t phi4v_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = H / m->nh, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD((m->nh + 2 * m->nkv) * hd, H, "model.layers.%llu.self_attn.qkv_proj.weight", b);
        ADD(H, m->nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(2 * FF, H, "model.layers.%llu.mlp.gate_up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    n += vision(t + n, H);
    return cv_case_sort(t, n);
}

static const char *const FILES[][2] = {
    {"tokenizer_config.json", "{\"add_prefix_space\":false,\"bos_token\":\"<|endoftext|>\",\"eos_token\":\"<|im_end|>\","
                              "\"pad_token\":\"<|endoftext|>\",\"tokenizer_class\":\"GPT2Tokenizer\"}"},
    {"preprocessor_config.json", "{\"image_processor_type\":\"Siglip2ImageProcessorNoUpscale\",\"max_num_patches\":3600,"
                                 "\"min_num_patches\":256,\"patch_size\":16}"},
    {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"Phi-4-reasoning-vision-mini",
     "{\"architectures\":[\"Phi4ForCausalLMV\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":151643,"
     "\"embd_pdrop\":0.0,\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"int"
     "ermediate_size\":64,\"max_num_patches\":3600,\"max_position_embeddings\":32768,\"min_num_patches\":256,\"mm_hidden_si"
     "ze\":16,\"mm_projector_type\":\"mlp2x_gelu\",\"mm_vision_select_layer\":-2,\"mm_vision_tower\":\"google/siglip2-so400m-"
     "patch16-naflex\",\"model_type\":\"phi4-siglip\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_head"
     "s\":2,\"original_max_position_embeddings\":32768,\"pad_token_id\":151643,\"resid_pdrop\":0.0,\"rms_norm_eps\":1e-05,\"r"
     "ope_scaling\":null,\"rope_theta\":500000,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat1"
     "6\",\"transformers_version\":\"4.51.3\",\"use_cache\":true,\"vocab_size\":151936}",
     "Qwen2.5-Tiny-Test-Instruct", "tokenizer.json special_tokens_map.json generation_config.json", phi4v_shapes, 0, 32, 2, 4,
     2, 151936, LGG_TYPE_BF16, {"e41bd092e467c4c98ed1b6c312a8bbc7d44d1209b4f57d75d6b600b0384e0abc", "5f05859e2f4f54b367f36f8e3bbf73564639028af257f4c4e7b623ac20e80319", "fd7b898935ec8c64a780f27404cbb0f1d03e5345920fcbf511bfa5a51c85563e", "618baa1dea5a50abda52e82db37dba95b1de86405d5bec24bc2e06b8a8c46dc5", "fd7b898935ec8c64a780f27404cbb0f1d03e5345920fcbf511bfa5a51c85563e"}},
};

TEST(convert_phi4v) {
    static const char *const ARCHS[] = {"Phi4ForCausalLMV", NULL};
    const char *dir = cv_fcase_run_named(CASES, 1, FILES, NULL, ARCHS);
    if (!dir) return; /* failed */
    cv_case_refused(dir, CASES[0].config, "\"hidden_size\":32,", "hidden_size");
}

#endif
