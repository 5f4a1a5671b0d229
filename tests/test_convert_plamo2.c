/* test_convert_plamo2.c -- PLaMo 2 (Plamo2ForCausalLM, plamo2) and PLaMo 3 (below), which only
 * llama.cpp master converts, against master's convert_hf_to_gguf.py
 * (3f545becc): a tiny checkpoint with pfnet/plamo-2-1b's config.json fields
 * (mamba_step 2: blocks 0 and 2 Mamba, 1 and 3 attention; mamba_num_heads,
 * hidden_size_per_head, tied embeddings) and its tensor names under
 * model.layers.layers (the Mamba mixer's in_proj, conv1d, bcdt_proj,
 * dt_proj, dt_bias, A_log, D and its dt/B/C norm weights; the attention's
 * qkv_proj, q_weight, k_weight and o_proj; the four norms of every block,
 * gate_up_proj and down_proj).  PLaMo's tokenizer.jsonl has no public copy
 * here, so the test writes one in its format: a [token, score, type, ...]
 * list a line, <|plamo:...|> control tokens first (one typed NORMAL, which
 * master makes CONTROL by its name), the 256 BYTE tokens <0x00>..<0xFF>,
 * then seeded pieces (ASCII with U+2581, Japanese, JSON escapes; one
 * without a type, one with CRLF, a blank line), padded by master to
 * vocab_size with [PADn].  sha256s from tests/convert_master_reference.sh. */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS

/* A Mamba block's mixer (mamba_num_heads 4 of hidden_size_per_head 8: d_inner 32; d_state 8; d_conv 4; dt_dim
 * max(64, hidden_size / 16)). */
static size_t mamba_mixer(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, DI = 32, DS = 8, NH = 4, DT = 64;
    const char *p = "model.layers.layers";
    size_t n = 0;
    ADD(2 * DI, H, "%s.%llu.mixer.in_proj.weight", p, b);
    ADD(DI, 1, "%s.%llu.mixer.conv1d.weight", p, b);
    t[n - 1].lead = DI, t[n - 1].d0 = 1, t[n - 1].d1 = 4; /* (d_inner, 1, d_conv) */
    ADD(DT + 2 * DS, DI, "%s.%llu.mixer.bcdt_proj.weight", p, b);
    ADD(NH, DT, "%s.%llu.mixer.dt_proj.weight", p, b);
    ADD(NH, 0, "%s.%llu.mixer.dt_bias", p, b);
    ADD(NH, 0, "%s.%llu.mixer.A_log", p, b);
    ADD(NH, 0, "%s.%llu.mixer.D", p, b);
    ADD(DT, 0, "%s.%llu.mixer.dt_norm_weight", p, b);
    ADD(DS, 0, "%s.%llu.mixer.B_norm_weight", p, b);
    ADD(DS, 0, "%s.%llu.mixer.C_norm_weight", p, b);
    ADD(H, DI, "%s.%llu.mixer.out_proj.weight", p, b);
    return n;
}

static size_t plamo2_block(tspec *t, const cv_fcase *m, unsigned long long b) {
    uint64_t H = m->H, hd = 8, FF = 48;
    const char *p = "model.layers.layers";
    size_t n = 0;
    static const char *const NORMS[] = {"pre_mixer_norm", "post_mixer_norm", "pre_mlp_norm", "post_mlp_norm"};
    for (int k = 0; k < 4; k++) ADD(H, 0, "%s.%llu.%s.weight", p, b, NORMS[k]);
    ADD(2 * FF, H, "%s.%llu.mlp.gate_up_proj.weight", p, b);
    ADD(H, FF, "%s.%llu.mlp.down_proj.weight", p, b);
    if (b % 2 == 0) return n + mamba_mixer(t + n, m, b);
    ADD((m->nh + 2 * m->nkv) * hd, H, "%s.%llu.mixer.qkv_proj.weight", p, b);
    ADD(m->nh, hd, "%s.%llu.mixer.q_weight", p, b);
    ADD(m->nkv, hd, "%s.%llu.mixer.k_weight", p, b);
    ADD(H, m->nh * hd, "%s.%llu.mixer.o_proj.weight", p, b);
    return n;
}

static size_t plamo2_shapes(tspec *t, const cv_fcase *m) {
    size_t n = 0;
    ADD(m->V, m->H, "model.embed_tokens.weight");
    ADD(m->H, 0, "model.norm.weight");
    if (strstr(m->config, "\"tie_word_embeddings\":false")) ADD(m->V, m->H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) n += plamo2_block(t + n, m, b);
    return cv_case_sort(t, n);
}

/* pfnet/plamo-2-1b's config.json at a tiny size. */
#define PLAMO2_CONFIG                                                                                                    \
    "{\"architectures\":[\"Plamo2ForCausalLM\"],\"attention_window_size\":2048,\"auto_map\":{\"AutoConfig\":\"modeling" \
    "_plamo.Plamo2Config\",\"AutoModelForCausalLM\":\"modeling_plamo.Plamo2ForCausalLM\"},\"bos_token_id\":1,\"eos_tok" \
    "en_id\":2,\"eval_attention_n_bit\":null,\"eval_mlp_n_bit\":null,\"fp8_accum_dim\":null,\"full_attention_idx\":[]," \
    "\"hidden_size\":32,\"hidden_size_per_head\":8,\"image_feature_size\":null,\"image_proj_type\":\"linear\",\"image_t" \
    "oken_id\":null,\"intermediate_size\":48,\"linear_type\":\"normal\",\"mamba_chunk_size\":256,\"mamba_d_conv\":4,\"m" \
    "amba_d_state\":8,\"mamba_enabled\":true,\"mamba_num_heads\":4,\"mamba_step\":2,\"max_position_embeddings\":10485" \
    "760,\"model_type\":\"plamo2\",\"num_attention_heads\":4,\"num_hidden_layers\":4,\"num_key_value_heads\":1,\"pad_to" \
    "ken_id\":3,\"rms_norm_eps\":1e-06,\"shared_intermediate_size\":null,\"sliding_window\":2048,\"tie_word_embedding" \
    "s\":true,\"tokenizer_class\":\"Plamo2Tokenizer\",\"torch_dtype\":\"bfloat16\",\"transformers_version\":\"4.44.2\"" \
    ",\"use_cache\":true,\"use_predefined_initial_state\":false,\"vocab_size\":384}"

/* The same with 2 blocks, mamba_step 4 (fewer blocks than half a step: attention in the last block only), its
 * own output head, in float32 (master's torch here has no float16 exp for A_log). */
#define PLAMO2_STEP4_CONFIG                                                                                              \
    "{\"architectures\":[\"PLaMo2ForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_size\":32,\"hidden_s" \
    "ize_per_head\":8,\"intermediate_size\":48,\"mamba_d_conv\":4,\"mamba_d_state\":8,\"mamba_enabled\":true,\"mamb" \
    "a_num_heads\":4,\"mamba_step\":4,\"max_position_embeddings\":4096,\"model_type\":\"plamo2\",\"num_attention_he" \
    "ads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pad_token_id\":3,\"rms_norm_eps\":1e-06,\"rope_th" \
    "eta\":1000000,\"tie_word_embeddings\":false,\"torch_dtype\":\"float32\",\"vocab_size\":320}"

/* Its tokenizer_config.json (Plamo2Tokenizer's special tokens). */
#define PLAMO2_TC                                                                                                         \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"auto_map\":{\"AutoTokenizer\":[\"tokenization_plamo.Plamo2Tok" \
    "enizer\",null]},\"bos_token\":\"<|plamo:bos|>\",\"clean_up_tokenization_spaces\":false,\"cls_token\":null,\"eos_" \
    "token\":\"<|plamo:eos|>\",\"local_file_only\":true,\"mask_token\":null,\"model_max_length\":1000000000000000019" \
    "884624838656,\"pad_token\":\"<|plamo:pad|>\",\"sep_token\":null,\"tokenizer_class\":\"Plamo2Tokenizer\",\"unk_to" \
    "ken\":\"<|plamo:unk|>\"}"

static const char *const FILES[][2] = {{"tokenizer_config.json", PLAMO2_TC}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

/* The seeded pieces' characters: ASCII letters, U+2581, hiragana and kanji (UTF-8), JSON escapes. */
static const char *const CHARS[] = {"a", "e", "i", "o", "n", "s", "t", "\\u2581", "\xe3\x81\x82", "\xe3\x81\xae",
                                    "\xe6\x97\xa5", "\xe6\x9c\xac", "\\\"", "\\\\", "\\t", "\\u00e9"};

/* tokenizer.jsonl: 5 control tokens, 256 bytes, 59 seeded pieces (320 lines; vocab_size pads to 384). */
static int write_jsonl(const char *dir) {
    static const char *const CTRL[][2] = {{"<|plamo:unk|>", "UNKNOWN"}, {"<|plamo:bos|>", "CONTROL"},
                                          {"<|plamo:eos|>", "CONTROL"}, {"<|plamo:pad|>", "CONTROL"},
                                          {"<|plamo:op|>", "NORMAL"}};
    char p[4300];
    snprintf(p, sizeof p, "%s/tokenizer.jsonl", dir);
    FILE *f = fopen(p, "wb");
    if (!f) return 0;
    for (int i = 0; i < 5; i++) fprintf(f, "[\"%s\",0.0,\"%s\",0,0,0,0]\n", CTRL[i][0], CTRL[i][1]);
    for (int i = 0; i < 256; i++) fprintf(f, "[\"<0x%02X>\",0.0,\"BYTE\",1,0,0,0]\n", i);
    uint64_t z = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 59; i++) {
        char tok[64] = "";
        z = z * 6364136223846793005ull + 1442695040888963407ull;
        for (unsigned k = 0, len = 1 + (unsigned)(z >> 61); k < len; k++)
            strcat(tok, CHARS[(z >> (8 + 4 * k)) % (sizeof CHARS / sizeof CHARS[0])]);
        double score = -(double)((z >> 33) % 100000) / 1000.0;
        if (i == 10) fprintf(f, "[\"%s%d\",%.3f]\n", tok, i, score); /* no type: NORMAL */
        else fprintf(f, "[\"%s%d\",%.3f,\"NORMAL\",%u,0,0,0]%s", tok, i, score, 1 + (unsigned)(z >> 61), i == 20 ? "\r\n" : "\n");
        if (i == 30) fputs("\n", f); /* a blank line */
    }
    return fclose(f) == 0;
}

static const cv_fcase CASES[] = {
    {"PLaMo-2-Tiny-Test", PLAMO2_CONFIG, "", "", plamo2_shapes, 0, 32, 4, 4, 1, 384, LGG_TYPE_BF16,
     {"50fb23a1d28b68723d32042e1f095b69b4233b2c83f9798f3c6ff3dfafb3efe4", "7508508ae7b972f4960479ea3f12145e2bfa7f9b8ad15c87891ec84e4ab66ab6",
      "a260b3c0af5e908d3a47511ef158e6e15f9eb0cdcdcbb96fff4d661ebc8e9a77", "9c68bb8fb79c645298e305b536c0c9494f20914467cf364a39985b6ae730eb88",
      "a260b3c0af5e908d3a47511ef158e6e15f9eb0cdcdcbb96fff4d661ebc8e9a77"}},
    {"PLaMo-2-Step4-Tiny-Test", PLAMO2_STEP4_CONFIG, "", "", plamo2_shapes, 0, 32, 2, 4, 2, 320, LGG_TYPE_F32,
     {"0edda856e4087dc8b012b9832321f9ee015232ae6495101a320083b44f8e7f41", "7d6016b4ca50fd0016416d11aaa1f7bbe1b1d11fd125cb38e1ca3d6877bed763",
      "c74f6641137580122d81f33e1c7375a5fb38518b1b1199bd04f74915bff74d2b", "5835e0dca5a4161814b62fb1d64019fba7d1aed821043c821a06647be9d06579",
      "7d6016b4ca50fd0016416d11aaa1f7bbe1b1d11fd125cb38e1ca3d6877bed763"}},
};

TEST(convert_plamo2) {
    static const char *const ARCHS[] = {"Plamo2ForCausalLM", "PLaMo2ForCausalLM", NULL};
    const char *dir = cv_fcase_run_named(CASES, sizeof CASES / sizeof CASES[0], FILES, write_jsonl, ARCHS);
    if (!dir) return;
    cv_case_refused_edit(dir, CASES[0].config, "\"mamba_step\":2", "\"mamba_step\":0", "mamba_step");
    cv_case_refused_edit(dir, CASES[0].config, "\"vocab_size\":384", "\"vocab_size\":-1", "'vocab_size'");
    /* a line that is not a [token, score, ...] list, and a special token tokenizer.jsonl lacks */
    static const char *const BAD[][2] = {{"[\"<|plamo:unk|>\",0.0]\n{\"a\":1}\n", "line 2"},
                                         {"[\"<|plamo:unk|>\",0.0]\n", "'<|plamo:bos|>' is not in tokenizer.jsonl"}};
    char p[4300], msg[512];
    snprintf(p, sizeof p, "%s/tokenizer.jsonl", dir);
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        FILE *f = fopen(p, "wb");
        CHECK(f != NULL);
        if (!f) return;
        fputs(BAD[i][0], f);
        fclose(f);
        int st = cv_case_open(dir, 0, 0, msg, sizeof msg);
        CHECKF(st != LGG_OK && strstr(msg, BAD[i][1]), "bad tokenizer.jsonl %zu: status %d, '%s'", i, st, msg);
    }
}

/* ---- PLaMo 3 (Plamo3ForCausalLM, plamo3): attention in every block, the same vocabulary and norm offsets (its q/k
 * norms + 1 too), master's base parameters and the sliding window; the chat template from chat_template.jinja over
 * tokenizer_config.json's. ---- */

static size_t plamo3_shapes(tspec *t, const cv_fcase *m) {
    uint64_t H = m->H, hd = 8, FF = 48;
    const char *p = "model.layers.layers";
    static const char *const NORMS[] = {"pre_mixer_norm", "post_mixer_norm", "pre_mlp_norm", "post_mlp_norm"};
    size_t n = 0;
    ADD(m->V, H, "model.embed_tokens.weight");
    ADD(H, 0, "model.norm.weight");
    if (strstr(m->config, "\"tie_word_embeddings\":false")) ADD(m->V, H, "lm_head.weight");
    for (unsigned long long b = 0; b < m->L; b++) {
        for (int k = 0; k < 4; k++) ADD(H, 0, "%s.%llu.%s.weight", p, b, NORMS[k]);
        ADD((m->nh + 2 * m->nkv) * hd, H, "%s.%llu.mixer.qkv_proj.weight", p, b);
        ADD(hd, 0, "%s.%llu.mixer.q_norm.weight", p, b);
        ADD(hd, 0, "%s.%llu.mixer.k_norm.weight", p, b);
        ADD(H, m->nh * hd, "%s.%llu.mixer.o_proj.weight", p, b);
        ADD(2 * FF, H, "%s.%llu.mlp.gate_up_proj.weight", p, b);
        ADD(H, FF, "%s.%llu.mlp.down_proj.weight", p, b);
    }
    return cv_case_sort(t, n);
}

/* pfnet/plamo-3-nict-2b-base's kind of config.json at a tiny size: window_size with a period of 8, a local rope
 * base. */
#define PLAMO3_CONFIG                                                                                                    \
    "{\"architectures\":[\"Plamo3ForCausalLM\"],\"auto_map\":{\"AutoConfig\":\"modeling_plamo3.Plamo3Config\",\"AutoMo" \
    "delForCausalLM\":\"modeling_plamo3.Plamo3ForCausalLM\"},\"bos_token_id\":1,\"eos_token_id\":1,\"head_dim\":8,\"hi" \
    "dden_size\":32,\"image_feature_size\":null,\"image_proj_type\":\"linear\",\"image_token_id\":null,\"intermediate_s" \
    "ize\":48,\"max_position_embeddings\":4096,\"model_type\":\"plamo3\",\"num_attention_heads\":4,\"num_hidden_layers" \
    "\":2,\"num_key_value_heads\":2,\"pad_token_id\":3,\"rms_norm_eps\":1e-06,\"rope_local_theta\":10000,\"rope_theta\"" \
    ":1000000,\"sliding_window_pattern\":8,\"tie_word_embeddings\":true,\"torch_dtype\":\"bfloat16\",\"transformers_v" \
    "ersion\":\"4.57.1\",\"use_cache\":true,\"vocab_size\":384,\"window_size\":2048}"

/* The same under PLaMo3ForCausalLM with sliding_window, a pattern list, an output head, in float16. */
#define PLAMO3_LIST_CONFIG                                                                                               \
    "{\"architectures\":[\"PLaMo3ForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":1,\"head_dim\":8,\"hidden_size\":3" \
    "2,\"intermediate_size\":48,\"max_position_embeddings\":4096,\"model_type\":\"plamo3\",\"num_attention_heads\":4,\"" \
    "num_hidden_layers\":2,\"num_key_value_heads\":1,\"rms_norm_eps\":1e-06,\"rope_theta\":1000000,\"sliding_window\":" \
    "1024,\"sliding_window_pattern\":[true,false],\"tie_word_embeddings\":false,\"torch_dtype\":\"float16\",\"vocab_s" \
    "ize\":320}"

#define PLAMO3_TC(TEMPLATE)                                                                                              \
    "{\"add_bos_token\":true,\"add_eos_token\":false,\"bos_token\":\"<|plamo:bos|>\",\"chat_template\":\"" TEMPLATE "\"," \
    "\"clean_up_tokenization_spaces\":false,\"eos_token\":\"<|plamo:eos|>\",\"pad_token\":\"<|plamo:pad|>\",\"tokeniz" \
    "er_class\":\"Plamo3Tokenizer\",\"unk_token\":\"<|plamo:unk|>\"}"

/* chat_template.jinja (CRLF line ends, which master reads as "\n"), and tokenizer_config.json's own template,
 * which it replaces. */
static const char *const JINJA_FILES[][2] = {
    {"tokenizer_config.json", PLAMO3_TC("{{ 'not this one' }}")},
    {"chat_template.jinja", "{%- for message in messages -%}\r\n<|plamo:msg|>{{ message['role'] }}\r\n{{ message['co"
                            "ntent'] }}<|plamo:eos|>\r\n{%- endfor -%}\r\n{%- if add_generation_prompt -%}<|plamo:msg|>a"
                            "ssistant\r\n{%- endif -%}\r\n"},
    {NULL, NULL},
    {NULL, NULL}};
static const char *const TC_FILES[][2] = {
    {"tokenizer_config.json", PLAMO3_TC("{% for m in messages %}{{ m['content'] }}<|plamo:eos|>{% endfor %}")},
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL}};

static const cv_fcase PLAMO3[] = {
    {"PLaMo-3-Tiny-Test", PLAMO3_CONFIG, "", "", plamo3_shapes, 0, 32, 2, 4, 2, 384, LGG_TYPE_BF16,
     {"ea842fa03578676031ae4c0257a14cd1c156d0ada62274050b334bdaf64ecbfc", "41bb71abd991368384599be7ea019deed9752c32bc5735c53dd01b1474b386e5",
      "f57b89cbe64a58db22c30f2c74c60f247b5a20d386d4912e38fd3f1f4516abf9", "316cc8e429df9009ce06467e4e83b383fc120a286139a983abed1c584ca1883b",
      "f57b89cbe64a58db22c30f2c74c60f247b5a20d386d4912e38fd3f1f4516abf9"}},
    {"PLaMo-3-List-Tiny-Test", PLAMO3_LIST_CONFIG, "", "", plamo3_shapes, 0, 32, 2, 4, 1, 320, LGG_TYPE_F16,
     {"52ef0348514e22c6ad365518a568a528babb52b580a916791929877c90e5c449", "1337bb32137e21ac721a254b4131e13e337fe2a5063c1846ddae5ad050c8c3ec",
      "579f147848859140c1e24b2147a6c8322c8a29b9930b865775c8a056225c6436", "35d2206bab5113bacbbea93a209e93daea1d69f3bc9e66cf30ebbf78286be06b",
      "1337bb32137e21ac721a254b4131e13e337fe2a5063c1846ddae5ad050c8c3ec"}},
};

TEST(convert_plamo3) {
    int same = cv_case_run(cv_fcase_make(&PLAMO3[0], JINJA_FILES, write_jsonl), PLAMO3[0].name, PLAMO3[0].sha, cv_case_q4km, 1);
    same += cv_case_run(cv_fcase_make(&PLAMO3[1], TC_FILES, write_jsonl), PLAMO3[1].name, PLAMO3[1].sha, cv_case_q4km, 1);
    CHECKF(same == 2 * cv_case_outtypes(), "%d of %d byte-identical to the reference", same, 2 * cv_case_outtypes());
    cv_case_supported("Plamo3ForCausalLM");
    cv_case_supported("PLaMo3ForCausalLM");
    const char *dir = cv_fcase_make(&PLAMO3[0], JINJA_FILES, write_jsonl);
    CHECK(dir != NULL);
    if (!dir) return;
    cv_case_refused_edit(dir, PLAMO3[0].config, "\"sliding_window_pattern\":8", "\"sliding_window_pattern\":\"8\"",
                         "'sliding_window_pattern'");
    cv_case_refused(dir, PLAMO3[0].config, "\"vocab_size\":384,", "'vocab_size'");
}

#endif
