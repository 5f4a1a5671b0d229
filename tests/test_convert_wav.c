/* test_convert_wav.c -- WavTokenizerDec (issue 25) against llama.cpp b4747's
 * convert_hf_to_gguf.py: a tiny checkpoint laid out as llama.cpp's
 * examples/tts/convert_pt_to_hf.py writes WavTokenizer-large-speech-75token
 * (its config.json with the nested posnet and convnext objects, index.json,
 * and its tensor names and shapes: the 3-D embed/posnet/dwconv convolutions,
 * the posnet norms and biases as [C, 1] columns, the codebook's embed renamed
 * backbone.embedding and its cluster_size, embed_avg and inited buffers
 * kept), in f32 as the real one; written again byte for byte by
 * convert_cases.c; the sha256s of the reference's outputs are recorded here
 * (LGG_REF_TEST=convert_wav_families tests/convert_reference.sh remakes
 * them). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <stdlib.h>
#include <unistd.h>

typedef struct wcase {
    const char *name, *config;
    uint64_t C, F, FF, V, H, L; /* posnet/convnext width, features, feed-forward, codebook, head rows, convnext blocks */
    uint32_t dtype;
    const char *sha[5]; /* the reference's output for f32, f16, bf16, q8_0, auto */
} wcase;

/* A tensor of dimensions [a, b, k] (k == 0: [a, b]). */
#define ADD3(a, b, k, ...) (ADD(b, k, __VA_ARGS__), t[n - 1].lead = (a))

static size_t wav_shapes(tspec *t, const wcase *m) {
    uint64_t C = m->C;
    size_t n = 0;
    const char *cb = "feature_extractor.encodec.quantizer.vq.layers.0._codebook";
    ADD(m->V, 0, "%s.cluster_size", cb);
    ADD(m->V, m->F, "%s.embed_avg", cb);
    ADD(1, 0, "%s.inited", cb);
    ADD(m->V, m->F, "backbone.embedding.weight");
    ADD3(C, m->F, 7, "backbone.embed.weight");
    ADD(C, 1, "backbone.embed.bias");
    ADD(C, 0, "backbone.norm.weight");
    ADD(C, 0, "backbone.norm.bias");
    /* posnet: resnet blocks 0, 1, 3, 4; attention block 2; a group norm 5 */
    for (int b = 0; b < 6; b++) {
        const char *p = "backbone.posnet";
        if (b == 2) {
            static const char *const qkvo[] = {"q", "k", "v", "proj_out"};
            for (int k = 0; k < 4; k++) {
                ADD3(C, C, 1, "%s.%d.%s.weight", p, b, qkvo[k]);
                ADD(C, 1, "%s.%d.%s.bias", p, b, qkvo[k]);
            }
        }
        if (b == 2 || b == 5) {
            ADD(C, 1, "%s.%d.norm.weight", p, b);
            ADD(C, 1, "%s.%d.norm.bias", p, b);
            continue;
        }
        for (int k = 1; k <= 2; k++) {
            ADD(C, 1, "%s.%d.norm%d.weight", p, b, k);
            ADD(C, 1, "%s.%d.norm%d.bias", p, b, k);
            ADD3(C, C, 3, "%s.%d.conv%d.weight", p, b, k);
            ADD(C, 1, "%s.%d.conv%d.bias", p, b, k);
        }
    }
    for (unsigned long long b = 0; b < m->L; b++) {
        const char *p = "backbone.convnext";
        ADD3(C, 1, 7, "%s.%llu.dwconv.weight", p, b);
        ADD(C, 1, "%s.%llu.dwconv.bias", p, b);
        ADD(C, 0, "%s.%llu.norm.weight", p, b);
        ADD(C, 0, "%s.%llu.norm.bias", p, b);
        ADD(m->FF, C, "%s.%llu.pwconv1.weight", p, b);
        ADD(m->FF, 0, "%s.%llu.pwconv1.bias", p, b);
        ADD(C, m->FF, "%s.%llu.pwconv2.weight", p, b);
        ADD(C, 0, "%s.%llu.pwconv2.bias", p, b);
        ADD(C, 0, "%s.%llu.gamma.weight", p, b);
    }
    ADD(C, 0, "backbone.final_layer_norm.weight");
    ADD(C, 0, "backbone.final_layer_norm.bias");
    ADD(m->H, C, "head.out.weight");
    ADD(m->H, 0, "head.out.bias");
    return cv_case_sort(t, n);
}

/* convert_pt_to_hf.py's config.json at a tiny size: hidden_size is the
 * head's n_fft + 2 rows, n_layer the convnext block count. */
#define WAV_CONFIG                                                                                                        \
    "{\n    \"architectures\": [\n        \"WavTokenizerDec\"\n    ],\n    \"hidden_size\": 34,\n    \"n_embd_features\": " \
    "64,\n    \"n_ff\": 96,\n    \"vocab_size\": 128,\n    \"n_head\": 1,\n    \"layer_norm_epsilon\": 1e-06,\n    \"gro" \
    "up_norm_epsilon\": 1e-06,\n    \"group_norm_groups\": 32,\n    \"max_position_embeddings\": 8192,\n    \"n_layer\": 6" \
    ",\n    \"posnet\": {\n        \"n_embd\": 32,\n        \"n_layer\": 6\n    },\n    \"convnext\": {\n        \"n_embd\": " \
    "32,\n        \"n_layer\": 6\n    }\n}"

/* What convert_pt_to_hf.py writes beside it (neither converter reads it). */
#define WAV_INDEX "{\n    \"total_size\": 1,\n    \"weight_map\": {\n        \"model.safetensors\": [\n            \"*\"\n        ]\n    }\n}"

static const wcase CASES[] = {
    {"WavTokenizer-tiny-speech-75token", WAV_CONFIG, 32, 64, 96, 128, 34, 6, LGG_TYPE_F32, {"e08f84448c50498386830efbe6d8051f8786d178eed05fd0f5d8a02ec2c21ee9", "47a298b4c73de4cd14191be409d6a228de2514d40593772c3ba42594bffc4fee", "2716d1c39690f9b7c5fda8065175d96d2d0e4e65a66520d147fe2ac1e5052d84", "e639f703320473ad48a5cde27f51a4f07101400a2b57b7d5fabb11055142398a", "2716d1c39690f9b7c5fda8065175d96d2d0e4e65a66520d147fe2ac1e5052d84"}},
    /* the same saved in f16: auto follows it, the conversions start from f16 */
    {"WavTokenizer-tiny-f16", WAV_CONFIG, 32, 64, 96, 128, 34, 6, LGG_TYPE_F16, {"ddcd1aba0499fe3348aaeae87b9723c65b1e3d0d68440b0f8790e2f0a719c83e", "e96cf06e0cffabcf4174227819732b604171aec72c816ddea72e3045c6535386", "109f7a3dc6487dbbeffb070981ffed71165b9c330fa7e3c451e756e464cc826c", "a6f9a2ccc737cfcba890cc7206b6975f99c476c389455b9eb50f8f41894b6d50", "e96cf06e0cffabcf4174227819732b604171aec72c816ddea72e3045c6535386"}},
};

static const char *make_case(const wcase *m) {
    static const char *const files[][2] = {{"index.json", WAV_INDEX}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *dir = cv_case_dir(m->name, "", "", m->config, files);
    static tspec t[256];
    if (!dir) return NULL;
    size_t n = wav_shapes(t, m);
    return cv_case_weights(dir, t, n, m->dtype) ? dir : NULL;
}

/* dir converted as `outtype` (vocab_only: the vocabulary alone): the
 * reference's default file name and, when want_sha, its sha256. */
static void wav_output(const char *dir, uint32_t outtype, int vocab_only, const char *want_name, const char *want_sha) {
    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.outtype = outtype, o.vocab_only = vocab_only;
    lgg_convert *c = NULL;
    lgg_error err;
    char out[4300], name[256] = "";
    snprintf(out, sizeof out, "%s.v.gguf", dir);
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    if (st == LGG_OK) lgg_convert_default_name(c, name, sizeof name);
    lgg_write_options wo = LGG_WRITE_OPTIONS_INIT;
    if (vocab_only) wo.flags = LGG_WRITE_NO_EMPTY_PAD; /* as gguf convert --vocab-only writes it */
    if (st == LGG_OK && want_sha) st = lgg_writer_write_file(lgg_convert_writer(c), out, &wo, &err);
    lgg_convert_free(c);
    CHECKF(st == LGG_OK, "%s: %s", dir, st ? err.message : "");
    CHECKF(!strcmp(name, want_name), "default name %s, reference %s", name, want_name);
    if (!want_sha || st) return;
    size_t n = 0;
    unsigned char *b = read_file(out, &n);
    char hex[65] = "";
    if (b) sha256_hex(b, n, hex);
    CHECKF(!strcmp(hex, want_sha), "%s: sha256 %s, reference %s", want_name, hex, want_sha);
    free(b);
    unlink(out);
}

TEST(convert_wav_families) {
    int same = 0;
    const size_t nc = sizeof CASES / sizeof CASES[0];
    for (size_t i = 0; i < nc; i++) same += cv_case_run(make_case(&CASES[i]), CASES[i].name, CASES[i].sha, cv_case_q4km, 1);
    CHECKF(same == cv_case_outtypes() * (int)nc, "%d of %d byte-identical to the reference", same, cv_case_outtypes() * (int)nc);
    const char *dir = make_case(&CASES[0]);
    if (dir) wav_output(dir, LGG_CONVERT_Q8_0, 0, "WavTokenizer-tiny-speech-93K-75token-Q8_0.gguf", NULL);
    if (dir) wav_output(dir, LGG_CONVERT_F16, 1, "WavTokenizer-tiny-speech-75token-vocab.gguf",
                        "a7996a1672b497776cd61eeb2152e742b5985850ca24c838a11b8d7a9dc2944d");
    if ((dir = make_case(&CASES[1]))) wav_output(dir, LGG_CONVERT_AUTO, 0, "WavTokenizer-Tiny-F16-93K-F16.gguf", NULL);
    cv_case_supported("WavTokenizerDec");
    /* a config without a value the reference reads names it (a nested one by its path) */
    static const char *const DROPS[][2] = {
        {"\n        \"n_embd\": 32,", "'posnet.n_embd'"}, /* the first: posnet's */
        {"\n    \"n_ff\": 96,", "'n_ff'"},
        {"\n    \"group_norm_groups\": 32,", "'group_norm_groups'"},
    };
    for (size_t i = 0; i < sizeof DROPS / sizeof DROPS[0]; i++)
        if ((dir = make_case(&CASES[0]))) cv_case_refused(dir, CASES[0].config, DROPS[i][0], DROPS[i][1]);
}

#endif
