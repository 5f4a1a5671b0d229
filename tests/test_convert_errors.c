/* test_convert_errors.c -- bad checkpoints for `gguf convert`: a tiny
 * llama (SentencePiece vocabulary, one layer) written by hand, then broken
 * one way at a time.  Each must exit 1 with a message naming the file and
 * the tensor or key, and leave nothing in the output directory. */
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
/* Paths are built from the scratch directory in fixed buffers; a cut path
 * would only make a test fail. */
#if defined(__GNUC__) && !defined(__clang__) /* gcc alone has this warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
#include <jansson.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* scratch/KIND-TAG with config.json naming `arch` (static path). */
static const char *config_dir(const char *kind, const char *tag, const char *arch) {
    static char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s-%s", scratch_dir(), kind, tag);
    mkdir(dir, 0755);
    char cfg[1024];
    snprintf(cfg, sizeof cfg, CONFIG_FMT, arch, 4);
    put_text(dir, "config.json", cfg);
    return dir;
}

/* A fresh model directory with the good files; returns its path (static). */
static const char *make_model(const char *tag) {
    const char *dir = config_dir("model", tag, "LlamaForCausalLM");
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

/* Every Hugging Face architecture name convert_hf_to_gguf.py b4747
 * registers (its @Model.register lines: facts read from its source) either
 * converts here (in lgg_convert_supported_models) or is refused by name
 * with the reason, never as an unknown architecture. */
static const char *const REFERENCE_ARCHS[] = {
    "GPTNeoXForCausalLM", "BloomForCausalLM", "BloomModel", "MPTForCausalLM", "OrionForCausalLM",
    "BaichuanForCausalLM", "BaiChuanForCausalLM", "XverseForCausalLM", "FalconForCausalLM", "RWForCausalLM",
    "GPTBigCodeForCausalLM", "GPTRefactForCausalLM", "StableLmForCausalLM", "StableLMEpochForCausalLM",
    "LlavaStableLMEpochForCausalLM", "LLaMAForCausalLM", "LlamaForCausalLM", "MistralForCausalLM",
    "MixtralForCausalLM", "DeciLMForCausalLM", "BitnetForCausalLM", "GrokForCausalLM", "DbrxForCausalLM",
    "MiniCPMForCausalLM", "MiniCPM3ForCausalLM", "QWenLMHeadModel", "Qwen2ForCausalLM",
    "Qwen2VLForConditionalGeneration", "WavTokenizerDec", "Qwen2MoeForCausalLM", "GPT2LMHeadModel",
    "PhiForCausalLM", "Phi3ForCausalLM", "PhiMoEForCausalLM", "PlamoForCausalLM", "CodeShellForCausalLM",
    "InternLM2ForCausalLM", "InternLM3ForCausalLM", "BertModel", "BertForMaskedLM", "CamembertModel",
    "RobertaModel", "NomicBertModel", "XLMRobertaModel", "XLMRobertaForSequenceClassification", "GemmaForCausalLM",
    "Gemma2ForCausalLM", "Starcoder2ForCausalLM", "Rwkv6ForCausalLM", "RWKV6Qwen2ForCausalLM", "MambaForCausalLM",
    "MambaLMHeadModel", "FalconMambaForCausalLM", "CohereForCausalLM", "Cohere2ForCausalLM", "OlmoForCausalLM",
    "OLMoForCausalLM", "Olmo2ForCausalLM", "OlmoeForCausalLM", "JinaBertModel", "JinaBertForMaskedLM",
    "OpenELMForCausalLM", "ArcticForCausalLM", "DeepseekForCausalLM", "DeepseekV2ForCausalLM",
    "DeepseekV3ForCausalLM", "T5WithLMHeadModel", "T5ForConditionalGeneration", "MT5ForConditionalGeneration",
    "UMT5ForConditionalGeneration", "T5EncoderModel", "JAISLMHeadModel", "GlmForCausalLM", "ChatGLMModel",
    "ChatGLMForConditionalGeneration", "NemotronForCausalLM", "ExaoneForCausalLM", "GraniteForCausalLM",
    "GraniteMoeForCausalLM", "ChameleonForConditionalGeneration", "ChameleonForCausalLM",
};

/* True when NAME converts (it is in LIST, lgg_convert_supported_models'
 * lines); else checks that a config.json naming it is refused by name with a
 * reason ("is not converted: ..."), never as an unknown architecture. */
static bool converts_or_refused_by_name(const char *list, const char *name) {
    char line[160];
    snprintf(line, sizeof line, "\n%s\n", name);
    if (strstr(list, line) || !strncmp(list, line + 1, strlen(line) - 1)) return true;
    char dir[4200], path[4300];
    snprintf(dir, sizeof dir, "%s/archs", scratch_dir());
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/config.json", dir);
    FILE *f = fopen(path, "w");
    if (f) fprintf(f, "{\"architectures\": [\"%s\"]}", name), fclose(f);
    lgg_convert *c = NULL;
    lgg_error err;
    lgg_status st = lgg_convert_open(dir, NULL, &c, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_ERR_UNSUPPORTED && strstr(err.message, name) && strstr(err.message, "is not converted:"),
           "%s: neither converted nor refused by name (%d, '%s')", name, (int)st, st ? err.message : "");
    return false;
}

static const char *supported_list(void) {
    static char list[8192];
    size_t need = lgg_convert_supported_models(list, sizeof list);
    CHECK(need < sizeof list);
    return list;
}

TEST(convert_reference_archs_named) {
    const char *list = supported_list();
    size_t converts = 0;
    for (size_t i = 0; i < sizeof REFERENCE_ARCHS / sizeof REFERENCE_ARCHS[0]; i++)
        converts += converts_or_refused_by_name(list, REFERENCE_ARCHS[i]);
    CHECKF(converts == 81, "only %zu of the reference's %zu names convert", converts,
           sizeof REFERENCE_ARCHS / sizeof REFERENCE_ARCHS[0]);
}

/* Every architecture name llama.cpp master registers (text models and
 * projectors: tests/data/master-architectures.tsv, from its conversion/
 * package by scripts/master-architectures.py) converts or is refused by
 * name with a reason; and every name that converts is one master knows. */
TEST(convert_master_archs_named) {
    size_t n = 0;
    char *tsv = (char *)read_file("tests/data/master-architectures.tsv", &n);
    REQUIRE(tsv != NULL);
    const char *list = supported_list();
    size_t text = 0, converts = 0, projectors = 0;
    for (char *save = NULL, *row = strtok_r(tsv, "\n", &save); row; row = strtok_r(NULL, "\n", &save)) {
        if (row[0] == '#') continue;
        char *kind = strchr(row, '\t');
        REQUIRE(kind != NULL);
        *kind++ = 0;
        const bool is_text = !strncmp(kind, "text\t", 5);
        text += is_text, projectors += !is_text;
        const bool ok = converts_or_refused_by_name(list, row);
        converts += ok && is_text; /* a name may be both: counted once */
    }
    CHECKF(text == 258 && projectors == 62, "the list has %zu text names and %zu projectors (master: 258, 62)", text, projectors);
    size_t ours = 0;
    for (const char *p = list; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) ours++;
    CHECKF(converts == ours, "%zu names convert, %zu of them in master's list", ours, converts);
    free(tsv);
}

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
    expect(d, 1, (const char *const[]){"README.md", "its aliases expand to more than 64 MiB", NULL});

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

/* --set sets a key; --dry-run prints the plan and writes nothing;
 * a preset the tiny rows cannot take fails and leaves nothing; usage
 * errors are status 2. */
TEST(convert_cli_options) {
    const char *d = make_model("cli");
    char out[4300], *so = NULL, *se = NULL;
    snprintf(out, sizeof out, "%s/o.gguf", d);
    int st = run_tool((char *[]){(char *)d, "-q", "--no-fsync", "--set", "general.name=str:Renamed", "-o", out, NULL},
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
    /* sized as snprintf: a first call with no room says how much (the list outgrew 4096 bytes at 207 names) */
    size_t need = lgg_convert_supported_models(NULL, 0);
    char *list = malloc(need + 1);
    CHECK(so && list && lgg_convert_supported_models(list, need + 1) == strlen(so) && !strcmp(list, so));
    CHECK(list && lgg_convert_supported_models(list, 5) == need && !strcmp(list, "LLaM"));
    free(list), free(so), free(se);
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

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* ---- issue 22: inputs that must not be overwritten or cost too much ---- */

/* No file in dir whose name has ".tmp" in it. */
static int temps_in(const char *dir) {
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".tmp") != NULL;
    if (d) closedir(d);
    return n;
}

/* `gguf convert ARGS` must refuse to write OUT, which is the input IN: the
 * one message, exit 1, OUT's bytes untouched, no temporary file left. */
static void refused(char **args, const char *dir, const char *out, const char *in) {
    size_t n0 = 0, n1 = 0;
    unsigned char *before = read_file(out, &n0);
    char *so = NULL, *se = NULL, want[9000];
    int st = run_tool(args, &so, &se);
    snprintf(want, sizeof want, "gguf convert: %s: refusing to write over the input %s (the same file); nothing written\n",
             out, in);
    CHECKF(st == 1, "%s: status %d", out, st);
    CHECK_STR(se, want);
    unsigned char *after = read_file(out, &n1);
    CHECKF(before && after && n0 == n1 && !memcmp(before, after, n0), "%s was changed", out);
    CHECK_EQ_U(temps_in(dir), 0);
    free(before), free(after), free(so), free(se);
}

/* ---- the review of DeciLM, WavTokenizerDec and PLaMo ---- */

/* A DeciLM-7B-style directory: GOOD_HEADER's weights and a byte-fallback
 * BPE tokenizer.json (what gguf-py's LlamaHfVocab reads). */
static const char *make_deci(const char *tag) {
    const char *dir = config_dir("deci", tag, "DeciLMForCausalLM");
    put_text(dir, "tokenizer.json",
             "{\"model\": {\"type\": \"BPE\", \"byte_fallback\": true, \"vocab\": {\"<unk>\": 0, \"<s>\": 1, \"</s>\": 2, \"a\": 3},"
             " \"merges\": []}, \"decoder\": {\"type\": \"Sequence\", \"decoders\": []}, \"added_tokens\": []}");
    st_file(dir, "model.safetensors", GOOD_HEADER, 352, 0);
    return dir;
}

/* 40000 additional special tokens named by tokenizer_config.json, none in
 * the vocabulary, and 40000 added tokens: each name was looked for by a
 * scan of added_tokens (1.6e9 comparisons, minutes); one look-up each now. */
TEST(convert_deci_many_special_names) {
    const char *d = make_deci("many-special");
    enum { N = 40000 };
    buf tc = {0}, tj = {0};
    static const char TC0[] = "{\"additional_special_tokens\": [",
                      TJ0[] = "{\"model\": {\"type\": \"BPE\", \"byte_fallback\": true, \"vocab\": {\"<unk>\": 0, \"<s>\": 1,"
                              " \"</s>\": 2, \"a\": 3}, \"merges\": []}, \"decoder\": {\"type\": \"Sequence\"}, \"added_tokens\": [";
    buf_put(&tc, TC0, strlen(TC0));
    buf_put(&tj, TJ0, strlen(TJ0));
    for (int i = 0; i < N; i++) {
        char e[64];
        int l = snprintf(e, sizeof e, "%s\"q%d\"", i ? "," : "", i);
        buf_put(&tc, e, (size_t)l);
        l = snprintf(e, sizeof e, "%s{\"id\": 3, \"content\": \"z%d\"}", i ? "," : "", i);
        buf_put(&tj, e, (size_t)l);
    }
    buf_put(&tc, "]}", 2);
    buf_put(&tj, "]}", 2);
    put_file(d, "tokenizer_config.json", tc.p, tc.n);
    put_file(d, "tokenizer.json", tj.p, tj.n);
    buf_free(&tc), buf_free(&tj);
    double t0 = children_cpu_s();
    expect(d, 0, NULL);
    double s = children_cpu_s() - t0;
    CHECKF(s < 5.0, "%.1f s of processor time for 40000 special names", s);
}

/* Both num_key_value_heads_per_layer and block_configs: the reference's keys
 * are block_configs' (its DeciModel.set_gguf_parameters tests that first):
 * 2 / 1 = 2 KV heads, 2 heads, int(2 * 1.5 * 8 / 3) = 8 rounded up to 256;
 * they were the per-layer list's 1 and a width of -1. */
TEST(convert_deci_both_layer_lists) {
    const char *d = make_deci("both-lists");
    put_text(d, "config.json",
             "{\"architectures\": [\"DeciLMForCausalLM\"], \"hidden_size\": 8, \"num_attention_heads\": 2,"
             " \"num_hidden_layers\": 1, \"vocab_size\": 4, \"rms_norm_eps\": 1e-5, \"max_position_embeddings\": 64,"
             " \"num_key_value_heads_per_layer\": [1],"
             " \"block_configs\": [{\"attention\": {\"n_heads_in_group\": 1}, \"ffn\": {\"ffn_mult\": 1.5}}]}");
    lgg_convert *c = NULL;
    lgg_error err;
    REQUIRE(lgg_convert_open(d, NULL, &c, &err) == LGG_OK);
    lgg_file *f = write_and_open(c, d, "both.gguf");
    REQUIRE(f);
    static const struct {
        const char *key;
        int32_t want;
    } K[] = {{"deci.attention.head_count_kv", 2}, {"deci.attention.head_count", 2}, {"deci.feed_forward_length", 256}};
    for (size_t i = 0; i < 3; i++) {
        lgg_value v, e;
        int32_t x = -7;
        CHECKF(lgg_get(f, K[i].key, &v) == LGG_OK && v.count == 1 && lgg_array_get(&v, 0, &e) == LGG_OK &&
                   lgg_value_i32(&e, &x) == LGG_OK && x == K[i].want,
               "%s: %d, want %d", K[i].key, (int)x, (int)K[i].want);
    }
    lgg_close(f);
}

/* convert DIR -o DIR/X for every file the conversion reads, through a
 * symlink and a hard link too; --imatrix FILE -o FILE; a shard name that
 * is a hard link to an input. */
TEST(convert_never_writes_over_an_input) {
    const char *d = make_model("self");
    put_text(d, "tokenizer.json", "{\"added_tokens\": []}");
    put_text(d, "tokenizer_config.json", "{\"add_bos_token\": true}");
    put_text(d, "README.md", "---\nlicense: mit\n---\n# card\n");
    put_text(d, "model.safetensors.index.json",
             "{\"weight_map\": {\"lm_head.weight\": \"model.safetensors\", \"model.embed_tokens.weight\": "
             "\"model.safetensors\", \"model.layers.0.self_attn.q_proj.weight\": \"model.safetensors\", "
             "\"model.norm.weight\": \"model.safetensors\"}}");
    char *so = NULL, *se = NULL, out[4400], in[4400];
    snprintf(out, sizeof out, "%s.ok.gguf", d);
    CHECKF(run_tool((char *[]){(char *)d, "-q", "--no-fsync", "-o", out, NULL}, &so, &se) == 0, "%s", se);
    free(so), free(se);
    static const char *const names[] = {"config.json", "model.safetensors", "tokenizer.model", "tokenizer.json",
                                        "tokenizer_config.json", "README.md", "model.safetensors.index.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(out, sizeof out, "%s/%s", d, names[i]);
        refused((char *[]){(char *)d, "-q", "--no-fsync", "-o", out, NULL}, d, out, out);
    }
    snprintf(in, sizeof in, "%s/model.safetensors", d);
    snprintf(out, sizeof out, "%s/soft.gguf", d);
    REQUIRE(symlink("model.safetensors", out) == 0);
    refused((char *[]){(char *)d, "-q", "-o", out, NULL}, d, out, in);
    snprintf(out, sizeof out, "%s/hard.gguf", d);
    REQUIRE(link(in, out) == 0);
    refused((char *[]){(char *)d, "-q", "--outtype", "Q8_0", "-o", out, NULL}, d, out, in);
    /* a shard of the set this run would write */
    snprintf(in, sizeof in, "%s/config.json", d);
    snprintf(out, sizeof out, "%s/sh-00002-of-00004.gguf", d);
    REQUIRE(link(in, out) == 0);
    char prefix[4400];
    snprintf(prefix, sizeof prefix, "%s/sh.gguf", d);
    refused((char *[]){(char *)d, "-q", "--split-max-tensors", "1", "-o", prefix, NULL}, d, out, in);
    snprintf(prefix, sizeof prefix, "%s/sh-00001-of-00004.gguf", d);
    CHECK(access(prefix, F_OK) != 0);
    /* the importance matrix (read before anything is written) */
    char im[4400];
    snprintf(im, sizeof im, "%s.im.dat", d);
    put_text(scratch_dir(), strrchr(im, '/') + 1, "not read before the check");
    refused((char *[]){(char *)d, "-q", "--outtype", "Q8_0", "--imatrix", im, "-o", im, NULL}, scratch_dir(), im, im);
}

/* Every file of the checkpoint folder is an input, the ones this model's
 * converter does not read too (generation_config.json, notes): -o naming
 * one is refused; a .gguf there (an earlier output) is replaced. */
TEST(convert_never_writes_over_a_checkpoint_file) {
    const char *d = make_model("folder");
    put_text(d, "generation_config.json", "{\"bos_token_id\": 1}");
    put_text(d, "notes.txt", "mine");
    char out[4400];
    static const char *const names[] = {"generation_config.json", "notes.txt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(out, sizeof out, "%s/%s", d, names[i]);
        refused((char *[]){(char *)d, "-q", "--no-fsync", "-o", out, NULL}, d, out, out);
    }
    snprintf(out, sizeof out, "%s/old.gguf", d);
    put_text(d, "old.gguf", "an earlier output");
    char *so = NULL, *se = NULL;
    CHECKF(run_tool((char *[]){(char *)d, "-q", "--no-fsync", "-o", out, NULL}, &so, &se) == 0, "%s", se);
    lgg_file *f = NULL;
    CHECK(lgg_open_file(out, NULL, &f, NULL) == LGG_OK);
    lgg_close(f);
    free(so), free(se);
}

/* A model card whose front matter nests 100,000 levels (flow and block
 * style) or is 10 MB fails at once, naming README.md: the front matter is
 * bounded before libyaml loads it (it took 36 s and minutes). */
TEST(convert_model_card_bounds) {
    const char *d = make_model("card-deep");
    char path[4300];
    snprintf(path, sizeof path, "%s/README.md", d);
    static const struct {
        const char *head, *open, *close, *tail, *want;
        size_t reps;
    } cases[] = {
        {"x: ", "[", "]", "", "front matter nested deeper than 64 levels", 100000},
        {"", "- ", "", "x", "front matter nested deeper than 64 levels", 100000},
        {"x: ", "{a: ", "}", "b", "front matter nested deeper than 64 levels", 100000},
        {"", "k: v0123456789\n", "", "", "front matter larger than 4 MiB", 10 << 20 >> 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        FILE *f = fopen(path, "wb");
        REQUIRE(f);
        fprintf(f, "---\n%s", cases[i].head);
        for (size_t k = 0; k < cases[i].reps; k++) fputs(cases[i].open, f);
        fputs(cases[i].tail, f);
        for (size_t k = 0; k < cases[i].reps && *cases[i].close; k++) fputs(cases[i].close, f);
        fputs("\n---\n", f);
        fclose(f);
        const double t0 = children_cpu_s();
        expect(d, 1, (const char *const[]){"README.md", cases[i].want, NULL});
        const double dt = children_cpu_s() - t0;
        CHECKF(dt < 5.0, "case %zu took %.2f s", i, dt);
        printf("    %s: refused in %.2f s of processor time\n", cases[i].want, dt);
    }
    /* a long card whose front matter is short is a card */
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    fputs("---\nlicense: mit\n---\n", f);
    for (int k = 0; k < (12 << 20) / 16; k++) fputs("long body text.\n", f);
    fclose(f);
    expect(d, 0, NULL);
}

/* model.safetensors.index.json with 80,000 entries is checked at once (it
 * was quadratic: 12.8 s), and a missing tensor is still named. */
TEST(convert_index_check_many_tensors) {
    const char *d = make_model("bigindex");
    enum { N = 80000 };
    buf h = {0}, ix = {0};
    buf_put(&h, "{", 1);
    buf_put(&ix, "{\"weight_map\": {", 16);
    char e[200];
    for (int i = 0; i < N; i++) {
        int l = snprintf(e, sizeof e, "%s\"x.%d.weight\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [%d, %d]}",
                         i ? ", " : "", i, 4 * i, 4 * i + 4);
        buf_put(&h, e, (size_t)l);
        l = snprintf(e, sizeof e, "%s\"x.%d.weight\": \"model.safetensors\"", i ? ", " : "", N - 1 - i);
        buf_put(&ix, e, (size_t)l);
    }
    buf_put(&h, "}", 2); /* with the NUL, for st_file */
    buf_put(&ix, "}}", 2);
    st_file(d, "model.safetensors", (const char *)h.p, 4 * N, 0);
    put_file(d, "model.safetensors.index.json", ix.p, ix.n);
    lgg_convert *c = NULL;
    lgg_error err;
    /* processor time, not wall time: the machine may be shared */
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    CHECK(lgg_convert_open(d, NULL, &c, &err) != LGG_OK);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    double dt = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
    printf("    80,000 index entries checked in %.2f s of processor time\n", dt);
    /* past the index: the tensors have no llama names */
    CHECKF(strstr(err.message, "'x.") && strstr(err.message, "no GGUF name"), "%s", err.message);
    /* linear, not quadratic (which takes minutes); the sanitizer builds (reduced sweeps) run 2-4 times slower */
    const double bound = test_reduced_sweeps() ? 15.0 : 5.0;
    CHECKF(dt < bound, "80,000 index entries took %.2f s (bound %.0f s)", dt, bound);
    /* one entry the shards lack */
    memcpy(strstr((char *)ix.p, "\"x.0.weight\": \"model"), "\"y", 2);
    put_file(d, "model.safetensors.index.json", ix.p, ix.n);
    CHECK(lgg_convert_open(d, NULL, &c, &err) == LGG_ERR_IO);
    CHECKF(strstr(err.message, "tensor 'y.0.weight' is not found"), "%s", err.message);
    buf_free(&h), buf_free(&ix);
}

/* jansson's allocations fail past a budget (json_set_alloc_funcs). */
static size_t json_budget;
static void *budget_malloc(size_t n) {
    if (n > json_budget) return NULL;
    json_budget -= n;
    return malloc(n);
}

/* Each JSON input is bounded (the defaults, or --max-json-size), and
 * running out of memory is reported as such, naming the file. */
TEST(convert_json_bounds) {
    const char *d = make_model("jsoncap");
    char big[5000];
    memset(big, ' ', sizeof big);
    memcpy(big, "{\"added_tokens\": []", 19);
    big[sizeof big - 2] = '}', big[sizeof big - 1] = 0;
    put_text(d, "tokenizer.json", big);
    char *so = NULL, *se = NULL, out[4400], want[9000];
    snprintf(out, sizeof out, "%s.out.gguf", d);
    int st = run_tool((char *[]){(char *)d, "-q", "--max-json-size", "4K", "-o", out, NULL}, &so, &se);
    snprintf(want, sizeof want, "gguf convert: %s/tokenizer.json: 4999 bytes, more than the 4096 this file may have "
             "(--max-json-size)\n", d);
    CHECK_EQ_U(st, 1);
    CHECK_STR(se, want);
    free(so), free(se);
    CHECK_EQ_U(run_tool((char *[]){(char *)d, "-q", "--max-json-size", "5K", "-o", out, NULL}, &so, &se), 0);
    free(so), free(se);
    CHECK_EQ_U(run_tool((char *[]){(char *)d, "--max-json-size", "0", NULL}, &so, &se), 2);
    free(so), free(se);
    /* the default bound of config.json: 4 MiB */
    FILE *f = fopen(strcat(strcpy(out, d), "/config.json"), "ab");
    REQUIRE(f);
    for (int i = 0; i < (4 << 20) / 64 + 1; i++) fprintf(f, "%63s\n", "");
    fclose(f);
    lgg_convert *c = NULL;
    lgg_error err;
    CHECK(lgg_convert_open(d, NULL, &c, &err) == LGG_ERR_LIMIT);
    CHECKF(strstr(err.message, "config.json") && strstr(err.message, "more than the 4194304"), "%s", err.message);
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.max_json_size = 8 << 20;
    CHECK(lgg_convert_open(d, &o, &c, &err) == LGG_OK);
    lgg_convert_free(c);
    /* out of memory while reading tokenizer.json (100 KB of JSON), not a
     * "malformed JSON at line -1" */
    buf t = {0};
    buf_put(&t, "{\"added_tokens\": [", 18);
    for (int i = 0; i < 20000; i++) buf_put(&t, i ? ",1" : "1", i ? 2 : 1);
    buf_put(&t, "]}", 2);
    put_file(d, "tokenizer.json", t.p, t.n);
    buf_free(&t);
    json_budget = 64 << 10;
    json_set_alloc_funcs(budget_malloc, free);
    lgg_status s = lgg_convert_open(d, &o, &c, &err);
    json_set_alloc_funcs(malloc, free);
    CHECK(s == LGG_ERR_NOMEM);
    CHECKF(strstr(err.message, "tokenizer.json: out of memory"), "%s", err.message);
}

/* Control bytes of a tensor name are escaped in the message. */
TEST(convert_escapes_names) {
    const char *d = make_model("ctl");
    char h[2048];
    snprintf(h, sizeof h, "%s", GOOD_HEADER);
    memcpy(strstr(h, "model.norm.weight"), "mode\\u001b[2J.w\\n", 17); /* the same length in JSON */
    st_file(d, "model.safetensors", h, 352, 0);
    char *so = NULL, *se = NULL, out[4400];
    snprintf(out, sizeof out, "%s.out.gguf", d);
    CHECK_EQ_U(run_tool((char *[]){(char *)d, "-q", "-o", out, NULL}, &so, &se), 1);
    CHECKF(se && strstr(se, "tensor 'mode\\x1b[2J.w\\x0a': no GGUF name"), "%s", se);
    CHECKF(se && !strchr(se, 0x1b) && strchr(se, '\n') == se + strlen(se) - 1, "raw control bytes: %s", se);
    free(so), free(se);
}

/* A model card's name with control bytes (a newline, an escape, a C1 CSI)
 * names the default output without them; the closing line escapes the
 * control bytes of the paths it shows. */
TEST(convert_card_name_printable) {
    const char *d = make_model("card\x1b");
    put_text(d, "README.md", "---\nmodel_name: \"a\\nb\\u001b[31mRED\\u009bX/y\"\n---\n");
    char outdir[4400], want[9000], *so = NULL, *se = NULL;
    snprintf(outdir, sizeof outdir, "%s.outdir", d);
    REQUIRE(mkdir(outdir, 0755) == 0);
    CHECK_EQ_U(run_tool((char *[]){(char *)d, "--no-fsync", "-o", outdir, NULL}, &so, &se), 0);
    CHECK(has_entry(outdir, "ab[31mREDX-y-0.14K-F16.gguf"));
    char *shown = text_replace(d, "\x1b", "\\x1b"), *shown_out = text_replace(outdir, "\x1b", "\\x1b");
    snprintf(want, sizeof want, "gguf convert: %s -> %s/ab[31mREDX-y-0.14K-F16.gguf: ", shown, shown_out);
    CHECKF(se && !strncmp(se, want, strlen(want)) && !strchr(se, 0x1b), "%s", se);
    free(shown), free(shown_out), free(so), free(se);
}

/* Without -q, a closing line says what was written: path, size, time;
 * a new output takes the first safetensors file's permission bits. */
TEST(convert_says_what_it_wrote) {
    const char *d = make_model("said");
    char *so = NULL, *se = NULL, out[4400], st_path[4400];
    snprintf(out, sizeof out, "%s.out.gguf", d);
    snprintf(st_path, sizeof st_path, "%s/model.safetensors", d);
    REQUIRE(chmod(st_path, 0600) == 0);
    CHECK_EQ_U(run_tool((char *[]){(char *)d, "--no-fsync", "-o", out, NULL}, &so, &se), 0);
    struct stat sb;
    REQUIRE(stat(out, &sb) == 0);
    CHECK_EQ_U(sb.st_mode & 0777, 0600);
    char want[9000], size[64];
    snprintf(size, sizeof size, "%.2f KiB", sb.st_size / 1024.0);
    snprintf(want, sizeof want, "gguf convert: %s -> %s: %s in ", d, out, size);
    CHECKF(se && !strncmp(se, want, strlen(want)) && strstr(se, " s\n"), "%s", se);
    free(so), free(se);
    unlink(out);
    CHECK_EQ_U(run_tool((char *[]){(char *)d, "-q", "--no-fsync", "-o", out, NULL}, &so, &se), 0);
    CHECK_STR(se, "");
    free(so), free(se);
    /* shards: the set's name and the shard count */
    CHECK_EQ_U(run_tool((char *[]){(char *)d, "--no-fsync", "--split-max-tensors", "2", "-o", out, NULL}, &so, &se), 0);
    snprintf(want, sizeof want, "gguf convert: %s -> %s.out-*-of-00002.gguf (2 shards): ", d, d);
    CHECKF(se && !strncmp(se, want, strlen(want)), "%s", se);
    free(so), free(se);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* Ctrl-C during `convert --split-max-tensors 1` removes the shards already
 * written (a checkpoint of 400 layers: 403 shards, each synced). */
TEST(convert_split_signal_leaves_nothing) {
    const char *d = make_model("sigsplit");
    enum { L = 400 };
    char cfg[1024], more[1100];
    snprintf(cfg, sizeof cfg, CONFIG_FMT, "LlamaForCausalLM", 4);
    char *at = strstr(cfg, "\"num_hidden_layers\": 1,") + 21;
    snprintf(more, sizeof more, "%.*s%d%s", (int)(at - cfg), cfg, L, at + 1);
    put_text(d, "config.json", more);
    buf h = {0};
    buf_put(&h, GOOD_HEADER, strlen(GOOD_HEADER) - 1);
    char e[200];
    for (int i = 1; i < L; i++) {
        int l = snprintf(e, sizeof e,
                         ", \"model.layers.%d.self_attn.q_proj.weight\": {\"dtype\": \"BF16\", \"shape\": [8, 8], "
                         "\"data_offsets\": [%d, %d]}",
                         i, 352 + 128 * (i - 1), 352 + 128 * i);
        buf_put(&h, e, (size_t)l);
    }
    buf_put(&h, "}", 2);
    st_file(d, "model.safetensors", (const char *)h.p, 352 + 128 * (L - 1), 0);
    buf_free(&h);
    char outdir[4300], out[4400];
    snprintf(outdir, sizeof outdir, "%s.sig", d);
    mkdir(outdir, 0755);
    snprintf(out, sizeof out, "%s/x.gguf", outdir);
    int st = signal_mid_run((char *[]){"convert", "-q", "--split-max-tensors", "1", (char *)d, "-o", out, NULL}, outdir,
                            "x-00001-of-", SIGINT);
    CHECKF(st >= 0, "convert: %s", st == -2 ? "no shard appeared" : "not started");
    CHECKF(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "convert: wait status %#x", st);
    DIR *dd = opendir(outdir);
    int n = 0;
    for (struct dirent *de; dd && (de = readdir(dd));) n += de->d_name[0] != '.' || strstr(de->d_name, ".tmp");
    if (dd) closedir(dd);
    CHECKF(n == 0, "%d file(s) left after SIGINT", n);
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* A model whose conversion to f16,q8_0,Q4_K_M takes a while: six 2048 x
 * 2048 bf16 matrices of finite values, so Q4_K_M is still running when the
 * first temporary file shows. */
static const char *slow_model(const char *tag) {
    const char *d = make_model(tag);
    enum { H = 2048, L = 6 };
    char cfg[1024];
    snprintf(cfg, sizeof cfg,
             "{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": %d, \"num_attention_heads\": 2,"
             " \"num_key_value_heads\": 2, \"num_hidden_layers\": %d, \"intermediate_size\": 16, \"vocab_size\": 4,"
             " \"rms_norm_eps\": 1e-5, \"max_position_embeddings\": 64, \"bos_token_id\": 1, \"eos_token_id\": 2}",
             H, L);
    put_text(d, "config.json", cfg);
    buf h = {0}, data = {0};
    char e[300];
    uint64_t off = 0;
    const struct { const char *name, *dtype; uint64_t rows, es; } outer[] = {
        {"lm_head.weight", "F16", 4, 2}, {"model.embed_tokens.weight", "F32", 4, 4}, {"model.norm.weight", "F32", 0, 4}};
    const char *meta = "{\"__metadata__\": {\"format\": \"pt\"}";
    buf_put(&h, meta, strlen(meta));
    for (int i = 0; i < 3 + L; i++) {
        int l;
        uint64_t n;
        if (i < 3) {
            n = (outer[i].rows ? outer[i].rows : 1) * H * outer[i].es;
            l = outer[i].rows ? snprintf(e, sizeof e, ", \"%s\": {\"dtype\": \"%s\", \"shape\": [%llu, %d], \"data_offsets\": [%llu, %llu]}",
                                         outer[i].name, outer[i].dtype, (unsigned long long)outer[i].rows, H,
                                         (unsigned long long)off, (unsigned long long)(off + n))
                              : snprintf(e, sizeof e, ", \"%s\": {\"dtype\": \"%s\", \"shape\": [%d], \"data_offsets\": [%llu, %llu]}",
                                         outer[i].name, outer[i].dtype, H, (unsigned long long)off, (unsigned long long)(off + n));
            for (uint64_t k = 0; k < n; k++) buf_u8(&data, 0); /* zeros: finite in every type */
        } else {
            n = (uint64_t)H * H * 2;
            l = snprintf(e, sizeof e, ", \"model.layers.%d.self_attn.q_proj.weight\": {\"dtype\": \"BF16\", \"shape\": [%d, %d], "
                         "\"data_offsets\": [%llu, %llu]}", i - 3, H, H, (unsigned long long)off, (unsigned long long)(off + n));
            for (uint64_t k = 0; k < n / 2; k++) buf_u8(&data, (uint8_t)(k * 7)), buf_u8(&data, (uint8_t)(0x3c + k % 3)); /* about 0.01 to 1 */
        }
        buf_put(&h, e, (size_t)l);
        off += n;
    }
    buf_put(&h, "}", 1);
    buf f = {0};
    buf_u64(&f, h.n);
    buf_put(&f, h.p, h.n);
    buf_put(&f, data.p, data.n);
    put_file(d, "model.safetensors", f.p, f.n);
    buf_free(&h), buf_free(&data), buf_free(&f);
    return d;
}

/* Ctrl-C while several outtypes are written at once (one thread each, the
 * signal taken by the main thread) leaves nothing: no temporary file, no
 * staged output, no final one. */
TEST(convert_outtypes_signal_leaves_nothing) {
    const char *d = slow_model("sigmulti");
    char outdir[4300], out[4400];
    snprintf(outdir, sizeof outdir, "%s.sig", d);
    mkdir(outdir, 0755);
    snprintf(out, sizeof out, "%s/M-{ftype}.gguf", outdir);
    /* the library's temporary file beside a staged output: "." + ".M-f16.gguf.PID.part" + ".tmp..." */
    int st = signal_mid_run((char *[]){"convert", "-q", "--outtype", "f16,q8_0,Q4_K_M", (char *)d, "-o", out, NULL},
                            outdir, "..M-", SIGINT);
    CHECKF(st >= 0, "convert: %s", st == -2 ? "no temporary file appeared" : "not started");
    CHECKF(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "convert: wait status %#x", st);
    int n = entries_in(outdir);
    CHECKF(n == 0, "%d file(s) left after SIGINT", n);
}

/* SIGKILL runs no handler: the staged outputs and the library's temporary
 * files stay.  The next run staging the same names removes them, as their
 * lock files are no longer locked; a live run's (its lock held, here by
 * this process) are kept, until it is gone. */
TEST(convert_outtypes_sigkill_swept) {
    const char *d = slow_model("sigkill");
    char outdir[4300], out[4400], live[4500], live_lock[4600];
    snprintf(outdir, sizeof outdir, "%s.kill", d);
    REQUIRE(mkdir(outdir, 0755) == 0);
    snprintf(out, sizeof out, "%s/M-{ftype}.gguf", outdir);
    snprintf(live, sizeof live, "%s/.M-f16.gguf.77.part", outdir);
    snprintf(live_lock, sizeof live_lock, "%s.lock", live);
    put_text(outdir, ".M-f16.gguf.77.part", "live");
    int lk = open(live_lock, O_WRONLY | O_CREAT | O_EXCL, 0600);
    REQUIRE(lk >= 0 && flock(lk, LOCK_EX) == 0);
    char *args[] = {"convert", "-q", "--no-fsync", "--outtype", "f16,q8_0,Q4_K_M", (char *)d, "-o", out, NULL};
    int st = signal_mid_run(args, outdir, "..M-", SIGKILL);
    CHECKF(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "convert: wait status %#x", st);
    CHECKF(entries_in(outdir) > 2, "%d entries: the killed run left nothing", entries_in(outdir));
    char *so = NULL, *se = NULL;
    CHECK_EQ_U(run_tool(args + 1, &so, &se), 0);
    CHECK_STR(se, "");
    free(so), free(se);
    CHECKF(entries_in(outdir) == 5, "%d entries, not 3 outputs and the live run's 2", entries_in(outdir));
    CHECK(access(live, F_OK) == 0 && access(live_lock, F_OK) == 0);
    close(lk); /* the live run is gone: the next run writing its name removes its files */
    char *again[] = {(char *)d, "-q", "--no-fsync", "--outtype", "f16", "-o", out, NULL};
    CHECK_EQ_U(run_tool(again, &so, &se), 0);
    free(so), free(se);
    CHECKF(entries_in(outdir) == 3, "%d entries, not the 3 outputs", entries_in(outdir));
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* ---- issue 38: hostile checkpoints, round two ---- */

/* config.json of make_model's LLaMA with `extra` (",\"key\": value") added. */
static void config_with(const char *dir, const char *heads, const char *kv_heads, const char *extra) {
    char *cfg = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&cfg, &n);
    if (!f) return;
    fprintf(f,
            "{\"architectures\": [\"LlamaForCausalLM\"], \"hidden_size\": 8, \"num_attention_heads\": %s,"
            " \"num_key_value_heads\": %s, \"num_hidden_layers\": 1, \"intermediate_size\": 16, \"vocab_size\": 4,"
            " \"rms_norm_eps\": 1e-5, \"max_position_embeddings\": 64, \"bos_token_id\": 1, \"eos_token_id\": 2%s}",
            heads, kv_heads, extra ? extra : "");
    fclose(f);
    put_text(dir, "config.json", cfg);
    free(cfg);
}

/* d converts (exit 0) within `seconds` of processor time with `extra` in
 * its config.json, or with a model card whose base_model is `base_model`
 * (quoted; the card is removed afterwards). */
static void converts_within(const char *d, const char *extra, const char *base_model, double seconds) {
    config_with(d, "2", "1", extra);
    char path[4300];
    snprintf(path, sizeof path, "%s/README.md", d);
    if (base_model) {
        FILE *f = fopen(path, "wb");
        REQUIRE(f);
        fprintf(f, "---\nbase_model: \"%s\"\n---\n", base_model);
        fclose(f);
    }
    const double t0 = children_cpu_s();
    expect(d, 0, NULL);
    CHECKF(children_cpu_s() - t0 < seconds, "took %.2f s", children_cpu_s() - t0);
    if (base_model) unlink(path);
}

/* A model name of 600,000 words like "v1": each word's version test took
 * a copy on the stack (strndupa in a loop), so a 1.8 MB name overflowed it
 * (SIGSEGV), from config.json's _name_or_path and from the model card's
 * base_model alike.  Now: converted, in bounded time. */
TEST(convert_long_name_of_version_words) {
    const char *d = make_model("vwords");
    size_t reps = 600000;
    char *words = malloc(reps * 3 + 64);
    REQUIRE(words);
    char *w = words;
    for (size_t i = 0; i < reps; i++) w += sprintf(w, i ? " v1" : "v1");
    char *extra = malloc(reps * 3 + 64);
    REQUIRE(extra);
    snprintf(extra, reps * 3 + 64, ", \"_name_or_path\": \"%s\"", words);
    converts_within(d, extra, NULL, 10.0);
    converts_within(d, NULL, words, 10.0); /* the same words as the model card's base_model */
    free(words), free(extra);
}

/* A model id of 100,000 size-label parts near the checkpoint's parameter
 * count ("0.1K" for its 140) was joined by a quadratic dedup and strcat
 * (7.8 s here; 20 s for "2M" parts of a 2M model); an id longer than any
 * real one is kept whole. */
TEST(convert_long_model_id_is_linear) {
    const char *d = make_model("longid");
    size_t reps = 100000;
    char *extra = malloc(reps * 5 + 64), *w = extra;
    REQUIRE(extra);
    w += sprintf(w, ", \"_name_or_path\": \"org/");
    for (size_t i = 0; i < reps; i++) w += sprintf(w, "0.1K-");
    sprintf(w, "x\"");
    converts_within(d, extra, NULL, 2.0);
    *strrchr(extra, '"') = 0; /* the same id as the model card's base_model */
    converts_within(d, NULL, extra + strlen(", \"_name_or_path\": \""), 2.0);
    free(extra);
}

/* Head counts that are negative, zero or beyond any model's: refused naming
 * config.json (INT64_MIN times 2 wrapped to a divisor of 0: SIGFPE). */
TEST(convert_head_counts_out_of_range) {
    static const char *const cases[][2] = {
        {"-9223372036854775808", "1"}, {"2", "-9223372036854775808"}, {"0", "1"},
        {"9223372036854775807", "1"},   {"2", "4611686018427387904"},
        {"2", "-1"},                   {"2.5e300", "1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char tag[32];
        snprintf(tag, sizeof tag, "heads%zu", i);
        const char *d = make_model(tag);
        config_with(d, cases[i][0], cases[i][1], NULL);
        expect(d, 1, (const char *const[]){"config.json", NULL});
    }
}
#endif

#ifndef LGG_TEST_NO_GOLDEN_LIBS
/* The peak RSS (KiB) and processor time of `argv` run alone, from wait4 on
 * that child (RUSAGE_CHILDREN takes the largest of every child a worker
 * reaped: CI's run failed once with 1119364 KiB).  A fork()ed child counts
 * the worker's pages until its exec (a worker runs many tests: 785556 KiB
 * measured in one); posix_spawn's shares them and on Linux 6.18 counts
 * none, and the caller's baseline covers a kernel that does. */
static int spawn_peak(char *const argv[], long *peak_kib, double *cpu_s) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    extern char **environ;
    int bad = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int st;
    struct rusage ru;
    if (bad || wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st)) return -1;
    *peak_kib = ru.ru_maxrss;
    *cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    return 0;
}

/* A model card whose anchors are referenced over and over: three levels of
 * 300 aliases to a list of 300 strings of 1,000 bytes (a 1 MB card) took
 * 24.6 s and 1.15 GB as copies were made; the expansion is bounded in bytes
 * now and the message names the aliases. */
TEST(convert_model_card_alias_bomb) {
    const char *d = make_model("aliases");
    char path[4300];
    snprintf(path, sizeof path, "%s/README.md", d);
    FILE *f = fopen(path, "wb");
    REQUIRE(f);
    fputs("---\na: &a [", f);
    for (int i = 0; i < 300; i++) {
        fputs(i ? ", \"" : "\"", f);
        for (int k = 0; k < 1000; k++) fputc('x', f);
        fputc('"', f);
    }
    fputs("]\n", f);
    for (int level = 0; level < 2; level++) {
        fprintf(f, "%c: &%c [", 'b' + level, 'b' + level);
        for (int i = 0; i < 300; i++) fprintf(f, "%s*%c", i ? ", " : "", 'a' + level);
        fputs("]\n", f);
    }
    fputs("---\n", f);
    fclose(f);
    expect(d, 1, (const char *const[]){"README.md", "its aliases expand to more than 64 MiB", NULL});
    char tool[4200], out[4400];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    snprintf(out, sizeof out, "%s.out/out.gguf", d);
    char *convert[] = {tool, "convert", "-q", "--no-fsync", (char *)d, "-o", out, NULL};
    char *version[] = {tool, "--version", NULL};
    long peak_kib, base_kib;
    double cpu_s, base_s;
    REQUIRE(spawn_peak(version, &base_kib, &base_s) == 0);
    REQUIRE(spawn_peak(convert, &peak_kib, &cpu_s) == 0);
    CHECKF(cpu_s < 5.0, "refused after %.2f s", cpu_s);
    /* the bomb took 1.15 GB before the bound */
    CHECKF(peak_kib < base_kib + 512 * 1024, "peak RSS %ld KiB (gguf --version: %ld KiB)", peak_kib, base_kib);
    fprintf(stderr, "    alias bomb refused: peak RSS %ld KiB (gguf --version: %ld KiB), %.2f s of processor time\n",
            peak_kib, base_kib, cpu_s);
    unlink(path);
    /* the same anchors used a few times are a card */
    f = fopen(path, "wb");
    REQUIRE(f);
    fputs("---\nlicense: &l mit\ntags: [*l, *l]\nbase_model: &b org/Base-7B\nbase_model_relation: quantized\n---\n", f);
    fclose(f);
    expect(d, 0, NULL);
    unlink(path);
}
#endif
