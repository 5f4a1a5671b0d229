/* test_convert_ternary.c -- --outtype tq1_0 and tq2_0 (the reference
 * converter's ternary outtypes, b4747's and master's alike): a Llama
 * checkpoint whose attention and gate/up rows are 256 wide (TQ1_0/TQ2_0)
 * and whose down rows are 320 (not a multiple of 256: the reference's F16
 * fallback), token_embd and output kept F16.  The sha256s are llama.cpp's
 * outputs on the checkpoint this test writes: b4747's with
 * `LGG_REF_TEST=convert_ternary LGG_REF_TYPES="tq1_0 tq2_0"
 * tests/convert_reference.sh`, master's (3f545becc) with the same
 * variables and tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TOKDIR "TinyLlama-2-Test-2x32"
#define H 256
#define FF 320
#define NH 4
#define NKV 2
#define V 32000

static const char CONFIG[] =
    "{\"architectures\":[\"LlamaForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidde"
    "n_size\":256,\"intermediate_size\":320,\"max_position_embeddings\":2048,\"model_type\":\"llama\",\"num_attention_h"
    "eads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-05,\"rope_theta\":10000.0,\"tie_wor"
    "d_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"vocab_size\":32000}";

static size_t ternary_shapes(tspec *t) {
    size_t n = 0;
    ADD(V, H, "model.embed_tokens.weight");
    ADD(V, H, "lm_head.weight");
    ADD(H, 0, "model.norm.weight");
    for (unsigned long long b = 0; b < 2; b++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(H, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(H / NH * NKV, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(H / NH * NKV, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(H, H, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", b);
        ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", b);
        ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", b);
    }
    return cv_case_sort(t, n);
}

/* dir converted with outtype and target: its sha256 in hex (0 on failure). */
static int convert_sha(const char *dir, uint32_t outtype, uint32_t target, char hex[65], lgg_convert_tensor *down,
                       char name[256]) {
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = outtype, o.target = target;
    lgg_convert *c = NULL;
    lgg_error err;
    char out[4300];
    snprintf(out, sizeof out, "%s.ternary.gguf", dir);
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    if (st == LGG_OK) lgg_convert_default_name(c, name, 256);
    for (size_t i = 0; st == LGG_OK && i < lgg_convert_tensor_count(c); i++) {
        lgg_convert_tensor ti;
        if (lgg_convert_tensor_at(c, i, &ti) == LGG_OK && !strcmp(ti.name, "blk.0.ffn_down.weight")) *down = ti;
    }
    if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_OK, "outtype %u: %s", outtype, err.message);
    size_t n = 0;
    unsigned char *b = st == LGG_OK ? read_file(out, &n) : NULL;
    if (b) sha256_hex(b, n, hex);
    free(b);
    unlink(out);
    return b != NULL;
}

TEST(convert_ternary) {
    if (!cv_case_material(TOKDIR "/tokenizer.model")) return;
    const char *dir = cv_case_dir("Llama-ternary-tiny", TOKDIR,
                                  "tokenizer.model tokenizer_config.json special_tokens_map.json generation_config.json",
                                  CONFIG, NULL);
    static tspec t[64];
    CHECK(dir && cv_case_weights(dir, t, ternary_shapes(t), LGG_TYPE_BF16));
    if (!dir) return;
    static const struct {
        uint32_t outtype, target;
        const char *sha256, *ftype;
    } want[] = {
        {LGG_CONVERT_TQ1_0, LGG_CONVERT_TARGET_B4747, "6646cca8aa2ed3ee644e67a51cfd0736c33f3855db427ad70aab2948522350e7", "TQ1_0"},
        {LGG_CONVERT_TQ2_0, LGG_CONVERT_TARGET_B4747, "2f8cf467bfbddca4da77ac39b7e84514a92c0b5e5316f0d970c7a4808ef7a9fc", "TQ2_0"},
        {LGG_CONVERT_TQ1_0, LGG_CONVERT_TARGET_MASTER, "e74f273d64fa97ad7ef2fc41e83995e99c383ad1ebf81deb20a9419d64242ef6", "TQ1_0"},
        {LGG_CONVERT_TQ2_0, LGG_CONVERT_TARGET_MASTER, "46faf39efbeda6ba468f88bec9643bef546bfc3ab655564f29189379a8fb6be8", "TQ2_0"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        char hex[65] = "";
        lgg_convert_tensor down = {0};
        char name[256] = "", word[32];
        if (!convert_sha(dir, want[k].outtype, want[k].target, hex, &down, name)) continue;
        snprintf(word, sizeof word, "-%s.gguf", want[k].ftype);
        CHECKF(strstr(name, word) != NULL, "case %zu: default name %s, not the reference's ...%s", k, name, word);
        CHECKF(!strcmp(hex, want[k].sha256), "case %zu: sha256 %s, reference %s", k, hex, want[k].sha256);
        CHECKF(down.type == LGG_TYPE_F16, "case %zu: ffn_down (320 wide) is %s, not the reference's F16 fallback", k,
               lgg_type_name(down.type));
    }
    /* the adapter converter has no ternary outtypes */
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = LGG_CONVERT_TQ1_0;
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open_lora(dir, dir, &o, &c, &err);
    CHECKF(st == LGG_ERR_ARG && c == NULL && strstr(err.message, "not tq1_0"), "%d %s", (int)st, err.message);
}

#endif
