/* test_convert_more.c -- families beyond ../shared/golden/convert (mixtral,
 * llama 3's rope_freqs, gemma, qwen2moe with its shared expert), checked
 * against llama.cpp's convert_hf_to_gguf.py (b4747) run outside the repo
 * (golden/convert/reference/README.md) on checkpoints this test makes again
 * byte for byte: the golden models' tokenizer files, the config below, and
 * weights from a counter-based generator (splitmix64 of the element's
 * index across the tensors in name order, scaled by 2^-29: exact in any
 * float type).  The sha256 of each reference output is recorded here. */
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation" /* paths in fixed buffers: a cut one fails the test */
#endif

static float value(uint64_t i) {
    uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)((int64_t)(z >> 40) - (1 << 23)) * 0x1p-29f;
}

typedef struct tspec {
    char name[96];
    uint64_t d0, d1; /* d1 == 0: 1-D */
} tspec;

static int by_name(const void *a, const void *b) { return strcmp(((const tspec *)a)->name, ((const tspec *)b)->name); }

/* The llama-shaped tensors of a config (experts > 0: mixtral's). */
static size_t shapes(tspec *t, uint64_t H, uint64_t L, uint64_t FF, uint64_t V, uint64_t nh, uint64_t nkv, uint64_t hd,
                     int experts, int gemma) {
    size_t n = 0;
#define ADD(a, b, ...) (snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__), t[n].d0 = (a), t[n].d1 = (b), n++)
    ADD(V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    if (!gemma) ADD(V, H, "lm_head.weight");
    for (uint64_t l = 0; l < L; l++) {
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", (unsigned long long)l);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", (unsigned long long)l);
        ADD(nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", (unsigned long long)l);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", (unsigned long long)l);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", (unsigned long long)l);
        ADD(H, nh * hd, "model.layers.%llu.self_attn.o_proj.weight", (unsigned long long)l);
        if (experts) {
            ADD((uint64_t)experts, H, "model.layers.%llu.block_sparse_moe.gate.weight", (unsigned long long)l);
            for (int x = 0; x < experts; x++) {
                ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%d.w1.weight", (unsigned long long)l, x);
                ADD(H, FF, "model.layers.%llu.block_sparse_moe.experts.%d.w2.weight", (unsigned long long)l, x);
                ADD(FF, H, "model.layers.%llu.block_sparse_moe.experts.%d.w3.weight", (unsigned long long)l, x);
            }
        } else {
            ADD(FF, H, "model.layers.%llu.mlp.gate_proj.weight", (unsigned long long)l);
            ADD(FF, H, "model.layers.%llu.mlp.up_proj.weight", (unsigned long long)l);
            ADD(H, FF, "model.layers.%llu.mlp.down_proj.weight", (unsigned long long)l);
        }
    }
#undef ADD
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* Qwen2-MoE's tensors: biased attention, E experts of width MF, a shared
 * expert of width SF and its gate. */
static size_t qwen_moe_shapes(tspec *t, uint64_t H, uint64_t L, uint64_t V, uint64_t nh, uint64_t nkv, uint64_t E,
                              uint64_t MF, uint64_t SF) {
    size_t n = 0;
    uint64_t hd = H / nh;
#define ADD(a, b, ...) (snprintf(t[n].name, sizeof t[n].name, __VA_ARGS__), t[n].d0 = (a), t[n].d1 = (b), n++)
    ADD(V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    ADD(V, H, "lm_head.weight");
    for (uint64_t l = 0; l < L; l++) {
        unsigned long long b = (unsigned long long)l;
        ADD(H, 0, "model.layers.%llu.input_layernorm.weight", b);
        ADD(H, 0, "model.layers.%llu.post_attention_layernorm.weight", b);
        ADD(nh * hd, H, "model.layers.%llu.self_attn.q_proj.weight", b);
        ADD(nh * hd, 0, "model.layers.%llu.self_attn.q_proj.bias", b);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.k_proj.weight", b);
        ADD(nkv * hd, 0, "model.layers.%llu.self_attn.k_proj.bias", b);
        ADD(nkv * hd, H, "model.layers.%llu.self_attn.v_proj.weight", b);
        ADD(nkv * hd, 0, "model.layers.%llu.self_attn.v_proj.bias", b);
        ADD(H, nh * hd, "model.layers.%llu.self_attn.o_proj.weight", b);
        ADD(E, H, "model.layers.%llu.mlp.gate.weight", b);
        for (uint64_t x = 0; x < E; x++) {
            ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.gate_proj.weight", b, (unsigned long long)x);
            ADD(MF, H, "model.layers.%llu.mlp.experts.%llu.up_proj.weight", b, (unsigned long long)x);
            ADD(H, MF, "model.layers.%llu.mlp.experts.%llu.down_proj.weight", b, (unsigned long long)x);
        }
        ADD(SF, H, "model.layers.%llu.mlp.shared_expert.gate_proj.weight", b);
        ADD(SF, H, "model.layers.%llu.mlp.shared_expert.up_proj.weight", b);
        ADD(H, SF, "model.layers.%llu.mlp.shared_expert.down_proj.weight", b);
        ADD(1, H, "model.layers.%llu.mlp.shared_expert_gate.weight", b);
    }
#undef ADD
    qsort(t, n, sizeof *t, by_name);
    return n;
}

/* model.safetensors with every tensor in dtype (F32, F16 or BF16). */
static int write_weights(const char *dir, const tspec *t, size_t n, uint32_t dtype) {
    size_t es = dtype == LGG_TYPE_F32 ? 4 : 2, cap = 64 + n * 200, hl = 0;
    char *h = malloc(cap);
    uint64_t off = 0;
    hl += (size_t)snprintf(h + hl, cap - hl, "{");
    for (size_t i = 0; i < n; i++) {
        uint64_t b = t[i].d0 * (t[i].d1 ? t[i].d1 : 1) * es;
        char shape[64];
        if (t[i].d1) snprintf(shape, sizeof shape, "%llu, %llu", (unsigned long long)t[i].d0, (unsigned long long)t[i].d1);
        else snprintf(shape, sizeof shape, "%llu", (unsigned long long)t[i].d0);
        hl += (size_t)snprintf(h + hl, cap - hl, "%s\"%s\": {\"dtype\": \"%s\", \"shape\": [%s], \"data_offsets\": [%llu, %llu]}",
                               i ? ", " : "", t[i].name, lgg_type_name(dtype), shape, (unsigned long long)off,
                               (unsigned long long)(off + b));
        off += b;
    }
    hl += (size_t)snprintf(h + hl, cap - hl, "}");
    char path[4300];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    FILE *f = fopen(path, "wb");
    if (!f) return free(h), 0;
    uint64_t hl64 = hl;
    fwrite(&hl64, 8, 1, f);
    fwrite(h, 1, hl, f);
    free(h);
    uint64_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (uint64_t e = 0; e < t[i].d0 * (t[i].d1 ? t[i].d1 : 1); e++, k++) {
            float v = value(k);
            uint16_t u = dtype == LGG_TYPE_F16 ? lgg_f32_to_f16(v) : lgg_f32_to_bf16(v);
            if (dtype == LGG_TYPE_F32) fwrite(&v, 4, 1, f);
            else fwrite(&u, 2, 1, f);
        }
    return fclose(f) == 0;
}

static int copy_file(const char *from, const char *to) {
    size_t n = 0;
    unsigned char *b = read_file(from, &n);
    FILE *f = b ? fopen(to, "wb") : NULL;
    int ok = f && fwrite(b, 1, n, f) == n;
    if (f) ok &= fclose(f) == 0;
    free(b);
    return ok;
}

typedef struct mcase {
    const char *name, *tokdir, *tokfiles, *config;
    uint64_t H, L, FF, V, nh, nkv, hd;
    int experts, gemma; /* gemma 2: qwen2moe (experts of width FF/2, a shared one of width FF) */
    uint32_t dtype;
    const char *sha[4]; /* the reference's output for f32, f16, bf16, q8_0 */
} mcase;

static const mcase CASES[] = {
    {"Mixtral-Tiny-4x32-Test", "TinyLlama-2-Test-2x32",
     "tokenizer.model tokenizer_config.json special_tokens_map.json tokenizer.json generation_config.json",
     "{\"architectures\":[\"MixtralForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1,"
     "\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,"
     "\"max_position_embeddings\":4096,\"model_type\":\"llama\",\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":1,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":10000.0,"
     "\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"transformers_version\":\"4.38.2\",\"use_cache\":true,"
     "\"vocab_size\":32000,\"num_local_experts\":4,\"num_experts_per_tok\":2}",
     32, 2, 64, 32000, 4, 1, 8, 4, 0, LGG_TYPE_BF16,
     {"63fbbe8fa176105cc34f1db592e72e8d973bed2d87618ed2e506a13ba91c20bd",
      "5df0e5840396473a45bbb05f271aa790c1e57f8c7430fd3b96b8e7d2e4092dbf",
      "410631939addc3b23a184ae525b979805d99052a1ec826f002cca35d6719ef9b",
      "d4c36b6c787623e150fc99ee39307ce8d23f325878b788c4270f7131f9c1f5a1"}},
    {"Llama-3-Tiny-Test-Instruct", "TinyLlama-2-Test-2x32",
     "tokenizer.model tokenizer_config.json special_tokens_map.json tokenizer.json generation_config.json",
     "{\"architectures\":[\"LlamaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":1,"
     "\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":64,"
     "\"max_position_embeddings\":4096,\"model_type\":\"llama\",\"num_attention_heads\":4,\"num_hidden_layers\":2,"
     "\"num_key_value_heads\":2,\"pretraining_tp\":1,\"rms_norm_eps\":1e-05,\"rope_scaling\":{\"factor\":32.0,"
     "\"high_freq_factor\":4.0,\"low_freq_factor\":1.0,\"original_max_position_embeddings\":8192,\"rope_type\":\"llama3\"},"
     "\"rope_theta\":500000.0,\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"transformers_version\":\"4.38.2\","
     "\"use_cache\":true,\"vocab_size\":32000}",
     64, 2, 64, 32000, 4, 2, 16, 0, 0, LGG_TYPE_BF16,
     {"e27448a1e20018de734184fe7468f68bd9906f61a8fe8642f80bcb51b85bbcbc",
      "761bb80cd10a0a98de3252062ab39467d728edd79fe25276b9fc4a9ed87ce22d",
      "e8a7789e8a90c79b52f73a89098bd6e81baefdc248152f4177597bb1e7db9a61",
      "55a90319fa21fcadd57357eb6eb52946dbb897d5606d287b76b791e980f23e7c"}},
    {"gemma-tiny-3L-test", "gemma-2-tiny-12L-test", "tokenizer.model tokenizer_config.json generation_config.json",
     "{\"architectures\":[\"GemmaForCausalLM\"],\"attention_bias\":false,\"attention_dropout\":0.0,\"bos_token_id\":2,"
     "\"eos_token_id\":[1,107],\"head_dim\":16,\"hidden_act\":\"gelu_pytorch_tanh\",\"hidden_activation\":\"gelu_pytorch_tanh\","
     "\"hidden_size\":64,\"initializer_range\":0.02,\"intermediate_size\":96,\"max_position_embeddings\":8192,"
     "\"model_type\":\"gemma2\",\"num_attention_heads\":4,\"num_hidden_layers\":3,\"num_key_value_heads\":2,"
     "\"pad_token_id\":0,\"rms_norm_eps\":1e-06,\"rope_theta\":10000.0,\"torch_dtype\":\"float32\","
     "\"transformers_version\":\"4.42.4\",\"use_cache\":true,\"vocab_size\":2000}",
     64, 3, 96, 2000, 4, 2, 16, 0, 1, LGG_TYPE_F16,
     {"cbb87e9440979183b387b795e3cc3846142fbe8423e987fac1833481dd99ff60",
      "f1325930da235602c6f47ce4a5f8c7018e7babb44f6ac18589e9b7235c3ffea1",
      "1f99a73c0b13254ae47112d4a1da3bc957711bfe7c067b39dda3e89e7a7dc32c",
      "099ac53c949e8add2e0c142f2e90fc9d6a01c154b64c14dec8980087136787bd"}},
    {"Qwen1.5-MoE-Tiny-Test-Chat", "Qwen2.5-Tiny-Test-Instruct",
     "tokenizer.json tokenizer_config.json special_tokens_map.json generation_config.json",
     "{\"architectures\":[\"Qwen2MoeForCausalLM\"],\"attention_dropout\":0.0,\"bos_token_id\":151643,"
     "\"eos_token_id\":151645,\"hidden_act\":\"silu\",\"hidden_size\":32,\"initializer_range\":0.02,"
     "\"intermediate_size\":64,\"max_position_embeddings\":32768,\"max_window_layers\":2,\"model_type\":\"qwen2_moe\","
     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"rms_norm_eps\":1e-06,"
     "\"rope_theta\":1000000.0,\"sliding_window\":32768,\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\","
     "\"transformers_version\":\"4.43.1\",\"use_cache\":true,\"use_sliding_window\":false,\"vocab_size\":151936,"
     "\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\"shared_expert_intermediate_size\":64}",
     32, 2, 64, 151936, 4, 2, 8, 4, 2, LGG_TYPE_BF16,
     {"e7b78ba3fcb2f9f8f315a15f3117bb23839354fd27b3b91c2ff76fc4a588a3d7",
      "2cd55989983a3b528de190baa585c0556b7a05c492d15328432c519ea46ac51c",
      "d7a92bcdff8448f725384397faced16bbc9d811802a228db7ac10c0e348cdccd",
      "cb457293f36c70d5dc0d49d32663a89857cde992d604248fbe5184e6c96d3a0a"}},
};

/* Make the checkpoint in the scratch directory; its path (static) or NULL. */
static const char *make_case(const mcase *m) {
    static char dir[4096];
    char from[4300], to[4300], files[256];
    snprintf(dir, sizeof dir, "%s/more/%s", scratch_dir(), m->name);
    snprintf(from, sizeof from, "%s/more", scratch_dir());
    mkdir(from, 0755);
    mkdir(dir, 0755);
    snprintf(files, sizeof files, "%s", m->tokfiles);
    for (char *save = NULL, *f = strtok_r(files, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        snprintf(from, sizeof from, "%s/%s/%s", shared_path("golden/convert"), m->tokdir, f);
        snprintf(to, sizeof to, "%s/%s", dir, f);
        if (!copy_file(from, to)) return NULL;
    }
    snprintf(to, sizeof to, "%s/config.json", dir);
    FILE *c = fopen(to, "w");
    if (!c) return NULL;
    fputs(m->config, c);
    fclose(c);
    static tspec t[512];
    size_t n = m->gemma == 2 ? qwen_moe_shapes(t, m->H, m->L, m->V, m->nh, m->nkv, (uint64_t)m->experts, m->FF / 2, m->FF)
                             : shapes(t, m->H, m->L, m->FF, m->V, m->nh, m->nkv, m->hd, m->experts, m->gemma);
    return write_weights(dir, t, n, m->dtype) ? dir : NULL;
}

TEST(convert_more_families) {
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/TinyLlama-2-Test-2x32/tokenizer.model", shared_path("golden/convert"));
    if (access(probe, R_OK) != 0) return; /* reference material absent */
    static const uint32_t types[4] = {LGG_CONVERT_F32, LGG_CONVERT_F16, LGG_CONVERT_BF16, LGG_CONVERT_Q8_0};
    int same = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const char *dir = make_case(&CASES[i]);
        CHECKF(dir != NULL, "%s: cannot make the checkpoint", CASES[i].name);
        if (!dir) continue;
        for (int k = 0; k < 4; k++) {
            lgg_convert_options o;
            lgg_convert_options_init(&o);
            o.outtype = types[k];
            lgg_convert *c = NULL;
            lgg_error err;
            char out[4300];
            snprintf(out, sizeof out, "%s.%d.gguf", dir, k);
            lgg_status st = lgg_convert_open(dir, &o, &c, &err);
            if (st == LGG_OK) st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
            lgg_convert_free(c);
            CHECKF(st == LGG_OK, "%s: %s", CASES[i].name, err.message);
            size_t n = 0;
            unsigned char *b = st == LGG_OK ? read_file(out, &n) : NULL;
            char hex[65] = "";
            if (b) sha256_hex(b, n, hex);
            CHECKF(!strcmp(hex, CASES[i].sha[k]), "%s outtype %d: sha256 %s, reference %s", CASES[i].name, k, hex,
                   CASES[i].sha[k]);
            same += !strcmp(hex, CASES[i].sha[k]);
            free(b);
            unlink(out);
        }
    }
    CHECKF(same == 16, "%d of 16 byte-identical to the reference", same);
}

#endif
