/* test_convert_errors.c -- bad checkpoints for `gguf convert`: a tiny
 * llama (SentencePiece vocabulary, one layer) written by hand, then broken
 * one way at a time.  Each must exit 1 with a message naming the file and
 * the tensor or key, and leave nothing in the output directory. */
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <dirent.h>
/* Paths are built from the scratch directory in fixed buffers; a cut path
 * would only make a test fail. */
#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void put_file(const char *dir, const char *name, const void *p, size_t n) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(p, 1, n, f);
    fclose(f);
}
static void put_text(const char *dir, const char *name, const char *s) { put_file(dir, name, s, strlen(s)); }

static void pb_varint(buf *b, uint64_t v) {
    while (v >= 0x80) buf_u8(b, (uint8_t)(v | 0x80)), v >>= 7;
    buf_u8(b, (uint8_t)v);
}

/* A ModelProto with pieces (text, score, type). */
static void spm_model(buf *b, size_t n, const char *const *text, const float *score, const int *type) {
    for (size_t i = 0; i < n; i++) {
        buf p = {0};
        buf_u8(&p, 0x0a);
        pb_varint(&p, strlen(text[i]));
        buf_put(&p, text[i], strlen(text[i]));
        buf_u8(&p, 0x15);
        uint32_t u;
        memcpy(&u, &score[i], 4);
        buf_u32(&p, u);
        buf_u8(&p, 0x18);
        pb_varint(&p, (uint64_t)type[i]);
        buf_u8(b, 0x0a);
        pb_varint(b, p.n);
        buf_put(b, p.p, p.n);
        buf_free(&p);
    }
    /* a trainer_spec-like field the reader must skip */
    buf_u8(b, 0x12);
    pb_varint(b, 2);
    buf_u8(b, 0x08);
    buf_u8(b, 0x01);
}

/* A safetensors file: header text as given, then `data` zero bytes. */
static void st_file(const char *dir, const char *name, const char *header, size_t data, uint64_t claimed_len) {
    buf b = {0};
    buf_u64(&b, claimed_len ? claimed_len : strlen(header));
    buf_put(&b, header, strlen(header));
    for (size_t i = 0; i < data; i++) buf_u8(&b, (uint8_t)(i * 7));
    put_file(dir, name, b.p, b.n);
    buf_free(&b);
}

#define CONFIG_FMT                                                                                          \
    "{\"architectures\": [\"%s\"], \"hidden_size\": 8, \"num_attention_heads\": 2, \"num_key_value_heads\": 1," \
    " \"num_hidden_layers\": 1, \"intermediate_size\": 16, \"vocab_size\": %d, \"rms_norm_eps\": 1e-5,"       \
    " \"max_position_embeddings\": 64, \"bos_token_id\": 1, \"eos_token_id\": 2}"

static const char GOOD_HEADER[] =
    "{\"__metadata__\": {\"format\": \"pt\"},"
    " \"lm_head.weight\": {\"dtype\": \"F16\", \"shape\": [4, 8], \"data_offsets\": [0, 64]},"
    " \"model.embed_tokens.weight\": {\"dtype\": \"F32\", \"shape\": [4, 8], \"data_offsets\": [64, 192]},"
    " \"model.layers.0.self_attn.q_proj.weight\": {\"dtype\": \"BF16\", \"shape\": [8, 8], \"data_offsets\": [192, 320]},"
    " \"model.norm.weight\": {\"dtype\": \"F32\", \"shape\": [8], \"data_offsets\": [320, 352]}}";

/* A fresh model directory with the good files; returns its path (static). */
static const char *make_model(const char *tag) {
    static char dir[4200];
    snprintf(dir, sizeof dir, "%s/model-%s", scratch_dir(), tag);
    mkdir(dir, 0755);
    char cfg[1024];
    snprintf(cfg, sizeof cfg, CONFIG_FMT, "LlamaForCausalLM", 4);
    put_text(dir, "config.json", cfg);
    static const char *const text[] = {"<unk>", "<s>", "</s>", ("\xe2\x96\x81" "a")}; /* U+2581 then "a" (one piece) */
    static const float score[] = {0.0f, 0.0f, -0.0f, -1.5f};
    static const int type[] = {2, 3, 3, 1};
    buf b = {0};
    spm_model(&b, 4, text, score, type);
    put_file(dir, "tokenizer.model", b.p, b.n);
    buf_free(&b);
    st_file(dir, "model.safetensors", GOOD_HEADER, 352, 0);
    return dir;
}

/* Run `gguf convert DIR -o OUTDIR/out.gguf`; expect exit `want`, each of
 * `needles` in stderr, and (on failure) an empty OUTDIR. */
static void expect_args(const char *dir, const char *extra, int want, const char *const *needles) {
    char outdir[4300], out[4400], tool[4200];
    snprintf(outdir, sizeof outdir, "%s.out", dir);
    mkdir(outdir, 0755);
    snprintf(out, sizeof out, "%s/out.gguf", outdir);
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    char *argv[] = {tool, "convert", "-q", "--no-fsync", (char *)dir, "-o", out, extra ? "--pre" : NULL, (char *)extra, NULL};
    char *so = NULL, *se = NULL;
    size_t sl, el;
    int status = -1;
    REQUIRE(run_capture(argv, &so, &sl, &se, &el, &status) == 0);
    CHECKF(status == want, "%s: exit %d, want %d; stderr: %s", dir, status, want, se);
    for (size_t i = 0; needles && needles[i]; i++)
        CHECKF(strstr(se, needles[i]) != NULL, "%s: stderr lacks \"%s\": %s", dir, needles[i], se);
    if (want != 0) {
        DIR *d = opendir(outdir);
        int n = 0;
        for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
        if (d) closedir(d);
        CHECKF(n == 0, "%s: %d file(s) left in the output directory", dir, n);
    } else {
        lgg_file *f = NULL;
        CHECK(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
        if (f) {
            CHECK_EQ_U(lgg_tensor_count(f), 4);
            CHECK(lgg_find_key_cstr(f, "tokenizer.ggml.tokens") >= 0);
        }
        lgg_close(f);
        unlink(out);
    }
    free(so);
    free(se);
}

static void expect(const char *dir, int want, const char *const *needles) { expect_args(dir, NULL, want, needles); }

TEST(convert_tiny_model_ok) {
    const char *d = make_model("ok");
    expect(d, 0, NULL);
}

TEST(convert_bad_safetensors) {
    const char *d = make_model("trunc");
    char path[4300];
    snprintf(path, sizeof path, "%s/model.safetensors", d);
    REQUIRE(truncate(path, (off_t)(8 + strlen(GOOD_HEADER) + 340)) == 0);
    expect(d, 1, (const char *const[]){"model.safetensors", "model.norm.weight", "outside", NULL});

    d = make_model("hlen");
    st_file(d, "model.safetensors", GOOD_HEADER, 352, 1u << 30);
    expect(d, 1, (const char *const[]){"model.safetensors", "header length", NULL});

    d = make_model("overlap");
    char h[2048];
    snprintf(h, sizeof h, "%s", GOOD_HEADER);
    memcpy(strstr(h, "[64, 192]"), "[32, 160]", 9);
    st_file(d, "model.safetensors", h, 352, 0);
    expect(d, 1, (const char *const[]){"model.safetensors", "lm_head.weight", "model.embed_tokens.weight", "overlap", NULL});

    d = make_model("size");
    snprintf(h, sizeof h, "%s", GOOD_HEADER);
    memcpy(strstr(h, "[320, 352]"), "[320, 348]", 10);
    st_file(d, "model.safetensors", h, 352, 0);
    expect(d, 1, (const char *const[]){"model.safetensors", "model.norm.weight", "dtype x shape", NULL});

    d = make_model("dtype");
    snprintf(h, sizeof h, "%s", GOOD_HEADER);
    memcpy(strstr(h, "\"F32\", \"shape\": [8]"), "\"I32\"", 5);
    st_file(d, "model.safetensors", h, 352, 0);
    expect(d, 1, (const char *const[]){"model.safetensors", "model.norm.weight", "dtype 'I32'", NULL});

    d = make_model("json");
    st_file(d, "model.safetensors", "{\"a\": [1, 2", 0, 0);
    expect(d, 1, (const char *const[]){"model.safetensors", "malformed JSON", NULL});

    d = make_model("unmapped");
    snprintf(h, sizeof h, "%s", GOOD_HEADER);
    memcpy(strstr(h, "model.norm.weight"), "model.xxxx.weight", 17);
    st_file(d, "model.safetensors", h, 352, 0);
    expect(d, 1, (const char *const[]){"model.safetensors", "model.xxxx.weight", NULL});
}

TEST(convert_bad_config_and_vocab) {
    const char *d = make_model("cfgjson");
    put_text(d, "config.json", "{\"architectures\": [\"LlamaForCausalLM\"], ");
    expect(d, 1, (const char *const[]){"config.json", "malformed JSON", NULL});

    d = make_model("arch");
    char cfg[1024];
    snprintf(cfg, sizeof cfg, CONFIG_FMT, "FooForCausalLM", 4);
    put_text(d, "config.json", cfg);
    expect(d, 1, (const char *const[]){"config.json", "'FooForCausalLM' is not supported", "LlamaForCausalLM", "Gemma2ForCausalLM",
                                       "Gemma2ForCausalLM, Phi3ForCausalLM and ", " more)", NULL});

    /* a family's required fields are named when missing or unusable */
    static const struct {
        const char *config, *needle;
    } need[] = {
        {"{\"architectures\":[\"DeepseekV2ForCausalLM\"],\"num_hidden_layers\":1}", "key 'first_k_dense_replace' is missing"},
        {"{\"architectures\":[\"DeepseekV2ForCausalLM\"],\"num_hidden_layers\":1,\"first_k_dense_replace\":0,"
         "\"vocab_size\":4,\"kv_lora_rank\":8,\"qk_nope_head_dim\":2}",
         "key 'qk_rope_head_dim' is missing"},
        {"{\"architectures\":[\"DeepseekV2ForCausalLM\"],\"num_hidden_layers\":1,\"first_k_dense_replace\":0,"
         "\"vocab_size\":4,\"kv_lora_rank\":8,\"qk_nope_head_dim\":2,\"qk_rope_head_dim\":2,\"v_head_dim\":2,"
         "\"moe_intermediate_size\":8,\"n_routed_experts\":2,\"n_shared_experts\":1,\"routed_scaling_factor\":1,"
         "\"norm_topk_prob\":\"yes\"}",
         "key 'norm_topk_prob' is not true or false"},
        {"{\"architectures\":[\"DeepseekV2ForCausalLM\"],\"num_hidden_layers\":1,\"first_k_dense_replace\":0,"
         "\"vocab_size\":4,\"kv_lora_rank\":8,\"qk_nope_head_dim\":2,\"qk_rope_head_dim\":2,\"v_head_dim\":2,"
         "\"moe_intermediate_size\":8,\"n_routed_experts\":2,\"n_shared_experts\":1,\"routed_scaling_factor\":1,"
         "\"norm_topk_prob\":true,\"scoring_func\":\"relu\"}",
         "key 'scoring_func' is missing or has a value not supported (softmax:1,sigmoid:2)"},
        {"{\"architectures\":[\"CohereForCausalLM\"],\"num_hidden_layers\":1}", "key 'model_max_length|max_position_embeddings' is missing"},
        {"{\"architectures\":[\"Cohere2ForCausalLM\"],\"num_hidden_layers\":1,\"logit_scale\":1,\"sliding_window\":4,"
         "\"vocab_size\":4,\"hidden_size\":8,\"num_attention_heads\":2}",
         "key 'rotary_pct'"},
    };
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        char tag[32];
        snprintf(tag, sizeof tag, "need%zu", i);
        d = make_model(tag);
        put_text(d, "config.json", need[i].config);
        if (strstr(need[i].config, "Cohere")) /* no lm_head: Cohere's output is tied, a head has no name */
            st_file(d, "model.safetensors", "{\"model.norm.weight\": {\"dtype\": \"F32\", \"shape\": [8], \"data_offsets\": [0, 32]}}",
                    32, 0);
        expect(d, 1, (const char *const[]){"config.json", need[i].needle, NULL});
    }

    d = make_model("vocab");
    snprintf(cfg, sizeof cfg, CONFIG_FMT, "LlamaForCausalLM", 3);
    put_text(d, "config.json", cfg);
    expect(d, 1, (const char *const[]){"tokenizer.model", "4 pieces", "vocab_size 3", NULL});

    d = make_model("tokjson");
    put_text(d, "tokenizer.json", "{\"added_tokens\": [}");
    expect(d, 1, (const char *const[]){"tokenizer.json", "malformed JSON", NULL});

    d = make_model("tokmodel");
    put_text(d, "tokenizer.model", "\x0a\x7f\x0a");
    expect(d, 1, (const char *const[]){"tokenizer.model", NULL});

    d = make_model("missing");
    char cpath[4300];
    snprintf(cpath, sizeof cpath, "%s/config.json", d);
    unlink(cpath);
    expect(d, 1, (const char *const[]){"config.json", NULL});
}

/* The model card's front matter: YAML that libyaml refuses, a value the
 * reference cannot write as a string, and a card that expands its aliases
 * past any reason are errors naming README.md; a card that is not a
 * mapping, or a README without front matter, is no card (as for the
 * reference). */
TEST(convert_model_card) {
    const char *d = make_model("card-yaml");
    put_text(d, "README.md", "---\nlicense: [mit\ntags: x\n---\n");
    expect(d, 1, (const char *const[]){"README.md", "front matter", NULL});

    d = make_model("card-type");
    put_text(d, "README.md", "---\nmodel_name: 12\n---\n");
    expect(d, 1, (const char *const[]){"README.md", "'model_name' is not a string", NULL});

    d = make_model("card-tags");
    put_text(d, "README.md", "---\ntags: [chat, 2024-01-01]\n---\n");
    expect(d, 1, (const char *const[]){"README.md", "'tags': item 1 is not a string", NULL});

    d = make_model("card-base");
    put_text(d, "README.md", "---\nbase_model: [{name: yes}]\n---\n");
    expect(d, 1, (const char *const[]){"README.md", "'base_model': item 0: 'name' is not a string", NULL});

    d = make_model("card-laughs");
    char lol[2048] = "---\na: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 9; i++) {
        char line[128];
        snprintf(line, sizeof line, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", 'a' + i, 'a' + i,
                 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1, 'a' + i - 1,
                 'a' + i - 1, 'a' + i - 1);
        strcat(lol, line);
    }
    strcat(lol, "---\n");
    put_text(d, "README.md", lol);
    expect(d, 1, (const char *const[]){"README.md", "more than 1000000 values", NULL});

    d = make_model("card-list");
    put_text(d, "README.md", "---\n- a\n- b\n---\n");
    expect(d, 0, NULL);
    d = make_model("card-none");
    put_text(d, "README.md", "# A model\n---\nlicense: 5\n---\n");
    expect(d, 0, NULL);
    d = make_model("card-empty");
    put_text(d, "README.md", "---\n---\n");
    expect(d, 0, NULL);
}

TEST(convert_missing_shard) {
    const char *d = make_model("shard");
    char path[4300];
    snprintf(path, sizeof path, "%s/model.safetensors", d);
    unlink(path);
    st_file(d, "model-00001-of-00002.safetensors", GOOD_HEADER, 352, 0);
    put_text(d, "model.safetensors.index.json",
             "{\"metadata\": {}, \"weight_map\": {\"lm_head.weight\": \"model-00001-of-00002.safetensors\","
             " \"model.extra.weight\": \"model-00002-of-00002.safetensors\"}}");
    expect(d, 1, (const char *const[]){"model-00002-of-00002.safetensors", "model.extra.weight", NULL});
}

/* A qwen2 layout with a byte-level BPE tokenizer.json nobody knows. */
TEST(convert_bpe_pre) {
    const char *d = make_model("bpe");
    char cfg[1024], path[4300];
    snprintf(cfg, sizeof cfg, CONFIG_FMT, "Qwen2ForCausalLM", 4);
    put_text(d, "config.json", cfg);
    snprintf(path, sizeof path, "%s/tokenizer.model", d);
    unlink(path);
    put_text(d, "tokenizer.json",
             "{\"normalizer\": null, \"pre_tokenizer\": {\"type\": \"ByteLevel\"}, \"model\": {\"type\": \"BPE\","
             " \"vocab\": {\"a\": 0, \"b\": 1, \"ab\": 2}, \"merges\": [[\"a\", \"b\"]]},"
             " \"added_tokens\": [{\"id\": 3, \"content\": \"<|end|>\", \"special\": true}]}");
    expect(d, 1, (const char *const[]){"tokenizer.json", "not recognised", "--pre", NULL});
    /* the model's tensors are llama's names, which qwen2 shares */
    expect_args(d, "qwen2", 0, NULL);
    put_text(d, "tokenizer.json",
             "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, \"merges\": []},"
             " \"added_tokens\": [{\"id\": 7, \"content\": \"<|end|>\", \"special\": true}]}");
    expect_args(d, "qwen2", 1, (const char *const[]){"tokenizer.json", "'<|end|>'", "vocab_size 4", NULL});
}

/* The reader's checks, in memory. */
TEST(convert_safetensors_reader) {
    buf b = {0};
    buf_u64(&b, strlen(GOOD_HEADER));
    buf_put(&b, GOOD_HEADER, strlen(GOOD_HEADER));
    for (int i = 0; i < 352; i++) buf_u8(&b, 0);
    lgg_safetensors *s = NULL;
    lgg_error err;
    REQUIRE(lgg_st_parse(b.p, b.n, "x", &s, &err) == LGG_OK);
    CHECK_EQ_U(lgg_st_count(s), 4);
    const lgg_st_tensor *t = lgg_st_at(s, 2);
    REQUIRE(t);
    CHECK_STR(t->name.ptr, "model.layers.0.self_attn.q_proj.weight");
    CHECK_EQ_U(t->dtype, LGG_TYPE_BF16);
    CHECK_EQ_U(t->offset, 8 + strlen(GOOD_HEADER) + 192);
    CHECK(lgg_st_at(s, 4) == NULL);
    lgg_st_close(s);
    for (size_t cut = 0; cut < b.n; cut += 37) /* every prefix is refused, none crashes */
        CHECK(lgg_st_parse(b.p, cut, "x", &s, &err) != LGG_OK);
    buf_free(&b);
}

TEST(convert_spm_reader) {
    static const char *const text[] = {"<unk>", "x", "<user>"};
    static const float score[] = {0.0f, -0.0f, -2.0f};
    static const int type[] = {2, 1, 4};
    buf b = {0};
    spm_model(&b, 3, text, score, type);
    lgg_spm *s = NULL;
    lgg_error err;
    REQUIRE(lgg_spm_parse(b.p, b.n, &s, &err) == LGG_OK);
    CHECK_EQ_U(lgg_spm_count(s), 3);
    const lgg_spm_piece *p = lgg_spm_at(s, 1);
    REQUIRE(p);
    CHECK(p->piece.len == 1 && p->piece.ptr[0] == 'x');
    uint32_t bits;
    memcpy(&bits, &p->score, 4);
    CHECK_EQ_U(bits, 0x80000000u); /* -0.0 stays -0.0 */
    CHECK_EQ_U(lgg_spm_at(s, 2)->type, 1); /* user-defined reads as normal */
    lgg_spm_free(s);
    for (size_t cut = 1; cut + 4 < b.n; cut++) { /* a cut inside a piece is an error, not a crash */
        lgg_status st = lgg_spm_parse(b.p, cut, &s, &err);
        if (st == LGG_OK) lgg_spm_free(s);
    }
    CHECK(lgg_spm_parse(b.p, 3, &s, &err) != LGG_OK);
    buf_free(&b);
}

#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* NaN, infinities, overflow, -0 and underflow take the scalar path and come
 * out as numpy writes them (f16 keeps a NaN's top payload bits; bf16 quiets). */
static void special_values(uint32_t outtype, const uint16_t *want) {
    const char *d = make_model(outtype == LGG_CONVERT_F16 ? "special16" : "special-bf16");
    static const uint32_t in[8] = {0x7f800001u, 0x7fc00000u, 0x7f800000u, 0x47c35000u /* 1e5 */,
                                   0x477ff000u /* 65520 */, 0x80000000u, 0x322bcc77u /* 1e-8 */, 0x3f800000u};
    buf b = {0};
    buf_u64(&b, strlen(GOOD_HEADER));
    buf_put(&b, GOOD_HEADER, strlen(GOOD_HEADER));
    for (int i = 0; i < 352; i++) buf_u8(&b, 0);
    memcpy(b.p + 8 + strlen(GOOD_HEADER) + 64, in, sizeof in); /* model.embed_tokens.weight, row 0 */
    put_file(d, "model.safetensors", b.p, b.n);
    buf_free(&b);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = outtype;
    lgg_convert *c = NULL;
    lgg_error err;
    REQUIRE(lgg_convert_open(d, &o, &c, &err) == LGG_OK);
    char out[4300];
    snprintf(out, sizeof out, "%s/special.gguf", d);
    CHECK(lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err) == LGG_OK);
    lgg_convert_free(c);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(out, NULL, &f, &err) == LGG_OK);
    int64_t ti = lgg_find_tensor_cstr(f, "token_embd.weight");
    REQUIRE(ti >= 0);
    const lgg_tensor *t = lgg_tensor_at(f, (uint64_t)ti);
    const uint8_t *data = lgg_file_bytes(f) + lgg_file_data_offset(f) + t->offset;
    for (int i = 0; i < 8; i++) {
        uint16_t h;
        memcpy(&h, data + 2 * i, 2);
        CHECKF(h == want[i], "outtype %u, value %d: 0x%04x, want 0x%04x", outtype, i, h, want[i]);
    }
    lgg_close(f);
}

TEST(convert_special_values) {
    static const uint16_t f16[8] = {0x7c01, 0x7e00, 0x7c00, 0x7c00, 0x7c00, 0x8000, 0x0000, 0x3c00};
    static const uint16_t bf16[8] = {0x7fc0, 0x7fc0, 0x7f80, 0x47c3, 0x4780, 0x8000, 0x322c, 0x3f80};
    special_values(LGG_CONVERT_F16, f16);
    special_values(LGG_CONVERT_BF16, bf16);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Write c's output into DIR/NAME, free c, and open the result (NULL on
 * failure, recorded). */
static lgg_file *write_and_open(lgg_convert *c, const char *dir, const char *name) {
    char out[4300];
    lgg_error err;
    lgg_file *f = NULL;
    snprintf(out, sizeof out, "%s/%s", dir, name);
    lgg_status st = lgg_writer_write_file(lgg_convert_writer(c), out, NULL, &err);
    lgg_convert_free(c);
    if (st == LGG_OK) st = lgg_open_file(out, NULL, &f, &err);
    CHECKF(st == LGG_OK, "%s: %s", out, err.message);
    return f;
}

/* Gemma (1): the gemma table (lm_head dropped, norms + 1), the end-of-turn
 * id 107 and no space prefix. */
TEST(convert_gemma1_table) {
    const char *d = make_model("gemma1");
    put_text(d, "config.json",
             "{\"architectures\": [\"GemmaForCausalLM\"], \"hidden_size\": 8, \"num_attention_heads\": 2,"
             " \"num_hidden_layers\": 1, \"intermediate_size\": 16, \"vocab_size\": 4, \"rms_norm_eps\": 1e-6,"
             " \"head_dim\": 4, \"max_position_embeddings\": 64, \"bos_token_id\": 1}");
    lgg_convert *c = NULL;
    lgg_error err;
    REQUIRE(lgg_convert_open(d, NULL, &c, &err) == LGG_OK);
    CHECK_EQ_U(lgg_convert_tensor_count(c), 3);
    lgg_file *f = write_and_open(c, d, "g.gguf");
    REQUIRE(f);
    lgg_value v;
    uint32_t u = 0;
    bool b = true;
    CHECK(lgg_get(f, "tokenizer.ggml.eot_token_id", &v) == LGG_OK && lgg_value_u32(&v, &u) == LGG_OK && u == 107);
    CHECK(lgg_get(f, "tokenizer.ggml.add_space_prefix", &v) == LGG_OK && lgg_value_bool(&v, &b) == LGG_OK && !b);
    CHECK(lgg_get(f, "gemma.attention.key_length", &v) == LGG_OK && lgg_value_u32(&v, &u) == LGG_OK && u == 4);
    CHECK(lgg_find_tensor_cstr(f, "output.weight") < 0);
    int64_t ti = lgg_find_tensor_cstr(f, "output_norm.weight");
    REQUIRE(ti >= 0);
    const lgg_tensor *t = lgg_tensor_at(f, (uint64_t)ti);
    float x;
    memcpy(&x, lgg_file_bytes(f) + lgg_file_data_offset(f) + t->offset, 4);
    /* the source's first norm value, from the bytes make_model wrote (i * 7), plus one */
    uint8_t raw[4] = {(uint8_t)(320 * 7), (uint8_t)(321 * 7), (uint8_t)(322 * 7), (uint8_t)(323 * 7)};
    float src;
    memcpy(&src, raw, 4);
    CHECK(x == src + 1.0f || (x != x && src != src));
    lgg_close(f);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Mixtral: each block's experts stacked into one 3-D tensor per kind, where
 * the last of them arrives; the data is expert 0's rows, then expert 1's. */
TEST(convert_mixtral_experts) {
    const char *d = make_model("mixtral");
    put_text(d, "config.json",
             "{\"architectures\": [\"MixtralForCausalLM\"], \"hidden_size\": 8, \"num_attention_heads\": 2,"
             " \"num_key_value_heads\": 1, \"num_hidden_layers\": 1, \"intermediate_size\": 4, \"vocab_size\": 4,"
             " \"rms_norm_eps\": 1e-5, \"num_local_experts\": 2, \"num_experts_per_tok\": 1}");
    char h[4096];
    size_t off = 0, n = 0;
    n += (size_t)snprintf(h + n, sizeof h - n, "{\"model.layers.0.block_sparse_moe.gate.weight\": {\"dtype\": \"F32\", "
                                                "\"shape\": [2, 8], \"data_offsets\": [0, 64]}");
    off = 64;
    for (int x = 0; x < 2; x++)
        for (int w = 1; w <= 3; w++) {
            int rows = w == 2 ? 8 : 4, cols = w == 2 ? 4 : 8;
            n += (size_t)snprintf(h + n, sizeof h - n,
                                  ", \"model.layers.0.block_sparse_moe.experts.%d.w%d.weight\": {\"dtype\": \"F32\", "
                                  "\"shape\": [%d, %d], \"data_offsets\": [%zu, %zu]}",
                                  x, w, rows, cols, off, off + 128);
            off += 128;
        }
    snprintf(h + n, sizeof h - n, "}");
    st_file(d, "model.safetensors", h, off, 0);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = LGG_CONVERT_F32;
    lgg_convert *c = NULL;
    lgg_error err;
    REQUIRE(lgg_convert_open(d, &o, &c, &err) == LGG_OK);
    REQUIRE(lgg_convert_tensor_count(c) == 4);
    lgg_convert_tensor t;
    static const char *const want[4] = {"blk.0.ffn_gate_exps.weight", "blk.0.ffn_down_exps.weight",
                                        "blk.0.ffn_up_exps.weight", "blk.0.ffn_gate_inp.weight"};
    for (size_t i = 0; i < 4; i++) {
        REQUIRE(lgg_convert_tensor_at(c, i, &t) == LGG_OK);
        CHECK_STR(t.name, want[i]);
    }
    lgg_convert_tensor_at(c, 1, &t);
    CHECK(t.n_dims == 3 && t.ne[0] == 4 && t.ne[1] == 8 && t.ne[2] == 2);
    lgg_file *f = write_and_open(c, d, "m.gguf");
    REQUIRE(f);
    const lgg_tensor *gt = lgg_tensor_at(f, 1);
    const uint8_t *data = lgg_file_bytes(f) + lgg_file_data_offset(f) + gt->offset;
    /* w2 of expert 0 is at [64+128, 64+256) of the data, of expert 1 at [64+512, 64+640) */
    int ok = 1;
    for (size_t i = 0; i < 256; i++) {
        size_t src = i < 128 ? 64 + 128 + i : 64 + 512 + (i - 128);
        ok &= data[i] == (uint8_t)(src * 7);
    }
    CHECK(ok);
    lgg_value v;
    lgg_str sl;
    CHECK(lgg_get(f, "general.size_label", &v) == LGG_OK && lgg_value_string(&v, &sl) == LGG_OK && sl.len > 2 &&
          !memcmp(sl.ptr, "2x", 2));
    lgg_close(f);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
static int run_tool(char **argv_tail, char **so, char **se) {
    char tool[4200];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    char *argv[16] = {tool, "convert"};
    int n = 2;
    for (int i = 0; argv_tail[i] && n < 15; i++) argv[n++] = argv_tail[i];
    argv[n] = NULL;
    size_t sl, el;
    int status = -1;
    if (run_capture(argv, so, &sl, se, &el, &status) != 0) return -1;
    return status;
}

/* --metadata sets a key; --dry-run prints the plan and writes nothing;
 * a preset the tiny rows cannot take fails and leaves nothing; usage
 * errors are status 2. */
TEST(convert_cli_options) {
    const char *d = make_model("cli");
    char out[4300], *so = NULL, *se = NULL;
    snprintf(out, sizeof out, "%s/o.gguf", d);
    int st = run_tool((char *[]){(char *)d, "-q", "--no-fsync", "--metadata", "general.name=str:Renamed", "-o", out, NULL},
                      &so, &se);
    CHECKF(st == 0, "status %d: %s", st, se);
    lgg_file *f = NULL;
    lgg_value v;
    lgg_str s;
    REQUIRE(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
    CHECK(lgg_get(f, "general.name", &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK && s.len == 7 &&
          !memcmp(s.ptr, "Renamed", 7));
    lgg_close(f);
    unlink(out);
    free(so), free(se);

    st = run_tool((char *[]){(char *)d, "--dry-run", "--outtype", "q8_0", "-o", out, NULL}, &so, &se);
    CHECK(st == 0);
    CHECK(so && strstr(so, "model.safetensors/model.layers.0.self_attn.q_proj.weight -> blk.0.attn_q.weight F16 [8, 8]"));
    CHECK(so && strstr(so, "model.safetensors/model.norm.weight -> output_norm.weight F32 [8]"));
    CHECK(access(out, F_OK) != 0);
    free(so), free(se);

    st = run_tool((char *[]){(char *)d, "-q", "--outtype", "Q4_K_M", "-o", out, NULL}, &so, &se);
    CHECKF(st == 1 && se && strstr(se, "o.gguf: output.weight: 8 columns"), "status %d: %s", st, se);
    DIR *dd = opendir(d);
    int n = 0;
    for (struct dirent *e; dd && (e = readdir(dd));) n += e->d_name[0] != '.';
    if (dd) closedir(dd);
    CHECKF(n == 3, "%d files in the model directory after a refused preset (want the 3 inputs)", n);
    free(so), free(se);

    st = run_tool((char *[]){(char *)d, "--outtype", "q9_9", NULL}, &so, &se);
    CHECK(st == 2 && se && strstr(se, "q9_9"));
    free(so), free(se);
    st = run_tool((char *[]){(char *)d, "--imatrix", "x.dat", NULL}, &so, &se);
    CHECK(st == 2);
    free(so), free(se);
    st = run_tool((char *[]){"--help", NULL}, &so, &se);
    CHECK(st == 0 && so && strstr(so, "usage: gguf convert"));
    free(so), free(se);
    /* every architecture name of the table, one per line, nothing else; no MODEL_DIR needed */
    st = run_tool((char *[]){"--print-supported-models", NULL}, &so, &se);
    CHECKF(st == 0 && se && !*se, "status %d: %s", st, se);
    CHECK(so && !strncmp(so, "LLaMAForCausalLM\nLlamaForCausalLM\n", 34) && strstr(so, "\nDeepseekV3ForCausalLM\n") &&
          strstr(so, "\nCohere2ForCausalLM\n") && strlen(so) > 2 && so[strlen(so) - 1] == '\n');
    char list[4096];
    CHECK(so && lgg_convert_supported_models(list, sizeof list) == strlen(so) && !strcmp(list, so));
    CHECK(lgg_convert_supported_models(list, 5) == strlen(so) && !strcmp(list, "LLaM"));
    free(so), free(se);
    st = run_tool((char *[]){"-q", NULL}, &so, &se);
    CHECK(st == 2 && se && strstr(se, "MODEL_DIR is required"));
    free(so), free(se);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Every safetensors file of the corpus (../shared/corpus: candle, ollama,
 * safetensors' own test files) opens, or fails with a message. */
TEST(convert_corpus_safetensors) {
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "find '%s' -name '*.safetensors' 2>/dev/null | sort", shared_path("corpus"));
    FILE *p = popen(cmd, "r");
    REQUIRE(p);
    char line[4096];
    int n = 0, ok = 0;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = 0;
        lgg_safetensors *s = NULL;
        lgg_error err;
        memset(&err, 0, sizeof err);
        lgg_status st = lgg_st_open(line, &s, &err);
        CHECKF(st == LGG_OK || (s == NULL && strstr(err.message, line)), "%s: status %d without a message naming it",
               line, st);
        ok += st == LGG_OK;
        n++;
        lgg_st_close(s);
    }
    pclose(p);
    CHECKF(n == 0 || ok > 0, "none of %d corpus safetensors files opened", n);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Qwen2-MoE as a table: experts stacked down, gate, up; shared experts and
 * their gate mapped; its expert keys after the base parameters. */
TEST(convert_qwen2moe_table) {
    const char *d = make_model("qwen2moe");
    char path[4300];
    snprintf(path, sizeof path, "%s/tokenizer.model", d);
    unlink(path);
    put_text(d, "tokenizer.json",
             "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0, \"b\": 1, \"ab\": 2}, \"merges\": [\"a b\"]},"
             " \"added_tokens\": [{\"id\": 3, \"content\": \"<|endoftext|>\", \"special\": true}]}");
    put_text(d, "config.json",
             "{\"architectures\": [\"Qwen2MoeForCausalLM\"], \"hidden_size\": 8, \"num_attention_heads\": 2,"
             " \"num_key_value_heads\": 1, \"num_hidden_layers\": 1, \"intermediate_size\": 16, \"vocab_size\": 4,"
             " \"rms_norm_eps\": 1e-6, \"num_experts\": 2, \"num_experts_per_tok\": 1, \"moe_intermediate_size\": 4,"
             " \"shared_expert_intermediate_size\": 8}");
    char h[4096];
    size_t off = 0, n = 0;
    static const char *const kinds[3] = {"down_proj", "gate_proj", "up_proj"};
    n += (size_t)snprintf(h + n, sizeof h - n, "{\"model.layers.0.mlp.gate.weight\": {\"dtype\": \"BF16\", \"shape\": [2, 8],"
                                                " \"data_offsets\": [0, 32]}");
    off = 32;
    for (int x = 0; x < 2; x++)
        for (int k = 0; k < 3; k++) {
            n += (size_t)snprintf(h + n, sizeof h - n,
                                  ", \"model.layers.0.mlp.experts.%d.%s.weight\": {\"dtype\": \"BF16\", \"shape\": [%d, %d],"
                                  " \"data_offsets\": [%zu, %zu]}",
                                  x, kinds[k], k == 0 ? 8 : 4, k == 0 ? 4 : 8, off, off + 64);
            off += 64;
        }
    for (int k = 0; k < 3; k++) {
        n += (size_t)snprintf(h + n, sizeof h - n,
                              ", \"model.layers.0.mlp.shared_expert.%s.weight\": {\"dtype\": \"BF16\", \"shape\": [8, 8],"
                              " \"data_offsets\": [%zu, %zu]}",
                              kinds[k], off, off + 128);
        off += 128;
    }
    n += (size_t)snprintf(h + n, sizeof h - n, ", \"model.layers.0.mlp.shared_expert_gate.weight\": {\"dtype\": \"BF16\","
                                                " \"shape\": [1, 8], \"data_offsets\": [%zu, %zu]}}", off, off + 16);
    off += 16;
    st_file(d, "model.safetensors", h, off, 0);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.pre = "qwen2";
    lgg_convert *c = NULL;
    lgg_error err;
    REQUIRE(lgg_convert_open(d, &o, &c, &err) == LGG_OK);
    static const char *const want[8] = {"blk.0.ffn_down_exps.weight",  "blk.0.ffn_gate_exps.weight",
                                        "blk.0.ffn_up_exps.weight",    "blk.0.ffn_gate_inp.weight",
                                        "blk.0.ffn_down_shexp.weight", "blk.0.ffn_gate_shexp.weight",
                                        "blk.0.ffn_up_shexp.weight",   "blk.0.ffn_gate_inp_shexp.weight"};
    REQUIRE(lgg_convert_tensor_count(c) == 8);
    lgg_convert_tensor t;
    for (size_t i = 0; i < 8; i++) {
        REQUIRE(lgg_convert_tensor_at(c, i, &t) == LGG_OK);
        CHECK_STR(t.name, want[i]);
    }
    lgg_convert_tensor_at(c, 0, &t);
    CHECK(t.n_dims == 3 && t.ne[0] == 4 && t.ne[1] == 8 && t.ne[2] == 2 && t.type == LGG_TYPE_F16);
    lgg_convert_tensor_at(c, 3, &t);
    CHECK(t.type == LGG_TYPE_F32);
    lgg_file *f = write_and_open(c, d, "q.gguf");
    REQUIRE(f);
    lgg_value v;
    uint32_t u = 0;
    CHECK(lgg_get(f, "qwen2moe.expert_count", &v) == LGG_OK && lgg_value_u32(&v, &u) == LGG_OK && u == 2);
    CHECK(lgg_get(f, "qwen2moe.expert_shared_feed_forward_length", &v) == LGG_OK && lgg_value_u32(&v, &u) == LGG_OK &&
          u == 8);
    int64_t a = lgg_find_key_cstr(f, "qwen2moe.expert_used_count"), b = lgg_find_key_cstr(f, "qwen2moe.expert_count");
    CHECK(a >= 0 && b > a);
    lgg_close(f);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Linear rope scaling (llama) and llama 3's rope_freqs, generated first. */
TEST(convert_rope_scaling) {
    const char *d = make_model("rope");
    char cfg[2048];
    snprintf(cfg, sizeof cfg,
             "{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": 8, \"num_attention_heads\": 2,"
             " \"num_key_value_heads\": 1, \"num_hidden_layers\": 1, \"intermediate_size\": 16, \"vocab_size\": 4,"
             " \"rms_norm_eps\": 1e-5, \"rope_scaling\": {\"type\": \"linear\", \"factor\": 2.5}}");
    put_text(d, "config.json", cfg);
    lgg_convert *c = NULL;
    lgg_error err;
    REQUIRE(lgg_convert_open(d, NULL, &c, &err) == LGG_OK);
    lgg_file *f = write_and_open(c, d, "r.gguf");
    REQUIRE(f);
    lgg_value v;
    lgg_str s;
    float x = 0;
    CHECK(lgg_get(f, "llama.rope.scaling.type", &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK && s.len == 6);
    CHECK(lgg_get(f, "llama.rope.scaling.factor", &v) == LGG_OK && lgg_value_f32(&v, &x) == LGG_OK && x == 2.5f);
    CHECK(lgg_find_key_cstr(f, "llama.rope.scaling.factor") == lgg_find_key_cstr(f, "llama.rope.dimension_count") + 2);
    CHECK(lgg_find_tensor_cstr(f, "rope_freqs.weight") < 0);
    lgg_close(f);

    /* llama 3: head dim 4, two factors: wavelengths 2*pi and 2*pi*sqrt(500000) against 8192/4 and 8192/1 */
    put_text(d, "config.json",
             "{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": 8, \"num_attention_heads\": 2,"
             " \"num_key_value_heads\": 1, \"num_hidden_layers\": 1, \"intermediate_size\": 16, \"vocab_size\": 4,"
             " \"rms_norm_eps\": 1e-5, \"rope_theta\": 500000.0, \"rope_scaling\": {\"rope_type\": \"llama3\","
             " \"factor\": 32.0, \"low_freq_factor\": 1.0, \"high_freq_factor\": 4.0,"
             " \"original_max_position_embeddings\": 8192}}");
    REQUIRE(lgg_convert_open(d, NULL, &c, &err) == LGG_OK);
    lgg_convert_tensor t;
    REQUIRE(lgg_convert_tensor_at(c, 0, &t) == LGG_OK);
    CHECK_STR(t.name, "rope_freqs.weight");
    CHECK(t.type == LGG_TYPE_F32 && t.n_dims == 1 && t.ne[0] == 2);
    f = write_and_open(c, d, "r3.gguf");
    REQUIRE(f);
    const lgg_tensor *rt = lgg_tensor_at(f, 0);
    float fr[2];
    memcpy(fr, lgg_file_bytes(f) + lgg_file_data_offset(f) + rt->offset, sizeof fr);
    CHECK(fr[0] == 1.0f && fr[1] > 1.0f && fr[1] < 32.0f); /* high frequency kept; 2*pi*707 lies between: smoothed */
    lgg_close(f);
}
#endif
