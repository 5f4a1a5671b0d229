/* test_convert_arctic.c -- Arctic (ArcticForCausalLM) against llama.cpp
 * b4747's convert_hf_to_gguf.py: snowflake-arctic-instruct's config and its
 * tokenizer_config.json amendments at a tiny size (Arctic's reference run
 * through convert_reference_nodup.py: b4747's parameter count fails on its
 * 1-D ffn_norm_exps), written again byte for byte by convert_cases.c; the
 * sha256s of the reference's outputs are recorded here
 * (LGG_REF_TEST=convert_arctic tests/convert_reference.sh remakes them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#define SPM_DIR "TinyLlama-2-Test-2x32"

typedef struct gcase {
    const char *name, *config;
    uint64_t H, L, nh, nkv, hd, ff, E, V;
    uint32_t dtype;
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
} gcase;

/* Arctic: llama's attention, a residual MLP of width ff beside E experts of width ff. */
static size_t arctic_shapes(tspec *t, const gcase *m) {
    uint64_t H = m->H;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *p = "model.layers";
        ADD(m->nh * m->hd, H, "%s.%llu.self_attn.q_proj.weight", p, b);
        ADD(m->nkv * m->hd, H, "%s.%llu.self_attn.k_proj.weight", p, b);
        ADD(m->nkv * m->hd, H, "%s.%llu.self_attn.v_proj.weight", p, b);
        ADD(H, m->nh * m->hd, "%s.%llu.self_attn.o_proj.weight", p, b);
        ADD(H, 0, "%s.%llu.input_layernorm.weight", p, b);
        ADD(H, 0, "%s.%llu.post_attention_layernorm.weight", p, b);
        ADD(H, 0, "%s.%llu.residual_layernorm.weight", p, b);
        ADD(m->ff, H, "%s.%llu.residual_mlp.w1.weight", p, b);
        ADD(H, m->ff, "%s.%llu.residual_mlp.w2.weight", p, b);
        ADD(m->ff, H, "%s.%llu.residual_mlp.w3.weight", p, b);
        ADD(m->E, H, "%s.%llu.block_sparse_moe.gate.weight", p, b);
        for (unsigned long long x = 0; x < m->E; x++) {
            ADD(m->ff, H, "%s.%llu.block_sparse_moe.experts.%llu.w1.weight", p, b, x);
            ADD(H, m->ff, "%s.%llu.block_sparse_moe.experts.%llu.w2.weight", p, b, x);
            ADD(m->ff, H, "%s.%llu.block_sparse_moe.experts.%llu.w3.weight", p, b, x);
        }
    }
    return cv_case_sort(t, n);
}

/* snowflake-arctic-instruct's config at a tiny size (bos and eos are the
 * redefined pieces 31998 and 31999). */
#define ARCTIC_CONFIG                                                                                                     \
    "{\"architectures\":[\"ArcticForCausalLM\"],\"attention_dropout\":0,\"bos_token_id\":31998,\"enable_expert_tensor_p" \
    "arallelism\":false,\"eos_token_id\":31999,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"i" \
    "ntermediate_size\":64,\"max_position_embeddings\":4096,\"model_type\":\"arctic\",\"moe_layer_frequency\":1,\"moe_t" \
    "oken_dropping\":true,\"num_attention_heads\":4,\"num_experts_per_tok\":2,\"num_hidden_layers\":2,\"num_key_value_he" \
    "ads\":2,\"num_local_experts\":4,\"parallel_attn_mlp_res\":true,\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"rou" \
    "ter_aux_loss_coef\":0.001,\"sliding_window\":null,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"use" \
    "_residual\":true,\"vocab_size\":32000}"

/* Its tokenizer_config.json: the redefined pieces (special), the unknown
 * token, one user-defined token with a SentencePiece space (kept as
 * written) and one past vocab_size (ignored). */
#define ARCTIC_TC                                                                                                         \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"added_tokens_decoder\":{\"0\":{\"content\":\"<unk>\",\"lstrip\"" \
    ":false,\"normalized\":false,\"rstrip\":false,\"single_word\":false,\"special\":true},\"1\":{\"content\":\"<s>\",\"s" \
    "pecial\":true},\"2\":{\"content\":\"</s>\",\"special\":true},\"31997\":{\"content\":\"\\u2581snow\",\"special\":f" \
    "alse},\"31998\":{\"content\":\"<|im_start|>\",\"special\":true},\"31999\":{\"content\":\"<|im_end|>\",\"special\"" \
    ":true},\"32004\":{\"content\":\"<|extra|>\",\"special\":true}},\"bos_token\":\"<|im_start|>\",\"chat_template\":\"" \
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% " \
    "endfor %}\",\"clean_up_tokenization_spaces\":false,\"eos_token\":\"<|im_end|>\",\"legacy\":true,\"pad_token\":null," \
    "\"sp_model_kwargs\":{},\"spaces_between_special_tokens\":false,\"tokenizer_class\":\"LlamaTokenizer\",\"unk_token\":\"<u" \
    "nk>\",\"use_default_system_prompt\":false}"

static const gcase CASE = {"snowflake-arctic-tiny-instruct", ARCTIC_CONFIG, 32, 2, 4, 2, 8, 64, 4, 32000, LGG_TYPE_BF16, {"7c49d63b7d8258a2d73727f559e3dd48d74041a290f6d386873bac6cc6867439", "638e5814579b26be6ae5f8107a8325c6d3e168182182236360540bbd1223dea5", "5cba711f9c378a43febc9d5a0b26016fe28efff7236d46fa96de5ad8fb8795a6", "7a2a66d6121506e59bf6c626a6893ab29fef70309f805ceec68548e1193fa5ce", "5cba711f9c378a43febc9d5a0b26016fe28efff7236d46fa96de5ad8fb8795a6"}};

/* The checkpoint made, or NULL. */
static const char *make_case(void) {
    static const char *const files[][2] = {{"tokenizer_config.json", ARCTIC_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *dir = cv_case_dir(CASE.name, SPM_DIR, "tokenizer.model", CASE.config, files);
    static tspec t[256];
    return dir && cv_case_weights(dir, t, arctic_shapes(t, &CASE), CASE.dtype) ? dir : NULL;
}

TEST(convert_arctic) {
    if (!cv_case_material(SPM_DIR "/tokenizer.model")) return; /* reference material absent */
    int same = cv_case_run(make_case(), CASE.name, CASE.sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes(), "%d of %d byte-identical to the reference", same, cv_case_outtypes());
    cv_case_supported("ArcticForCausalLM");
    const char *dir = make_case();
    if (dir) cv_case_refused(dir, CASE.config, ",\"vocab_size\":32000", "'vocab_size'");
}

#endif
