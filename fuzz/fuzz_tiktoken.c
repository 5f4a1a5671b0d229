/* fuzz_tiktoken.c -- Qwen (v1)'s vocabulary file (src/convert/families/qwen.c):
 * the input after its first byte is qwen.tiktoken ("BASE64 RANK" lines) of
 * a tiny QWenLMHeadModel folder (config.json, tokenizer_config.json, three
 * small tensors) converted with lgg_convert_open and written to /dev/null.
 * The first byte picks config.json's vocab_size (low two bits: 300, 1100,
 * 151650 with the first special tokens, 70000), bit 2 --pre qwen2 (else the
 * pre-tokenizer is named from the reference's check hash: a tokenizer.json is
 * built from the file's tokens and merges and tokenizes the check text, so
 * that path runs too) and bit 3 a tokenizer_config.json naming special
 * tokens by content.  Invariants: an open that fails says why in one line
 * of printable bytes (never "out of memory": the inputs are small); one that
 * opens writes without error, with vocab_size tokens and types, fewer
 * merges, and every special id below vocab_size -- or <|endoftext|>'s
 * 151643, which the reference writes for bos, eos and unk whatever
 * vocab_size is (gguf-py's SpecialVocab there has no n_vocab to check
 * against; llama.cpp then warns of a bad special token and keeps its
 * default). */
#include "fuzz.h"
#include "libgguf_convert.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static void put(const char *name, const void *p, size_t n) { fuzz_put(dir, name, p, n); }

static void cleanup(void) {
    static const char *const all[] = {"config.json", "tokenizer_config.json", "model.safetensors", "qwen.tiktoken"};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) put(all[i], NULL, 0);
    rmdir(dir);
}

static void setup(void) {
    snprintf(dir, sizeof dir, "/tmp/fuzz_tiktoken.XXXXXX");
    if (!mkdtemp(dir)) abort();
    atexit(cleanup);
    static const char hdr[] =
        "{\"transformer.wte.weight\": {\"dtype\": \"F16\", \"shape\": [4, 8], \"data_offsets\": [0, 64]},"
        " \"lm_head.weight\": {\"dtype\": \"F32\", \"shape\": [4, 8], \"data_offsets\": [64, 192]},"
        " \"transformer.ln_f.weight\": {\"dtype\": \"F32\", \"shape\": [8], \"data_offsets\": [192, 224]}}";
    uint8_t st[8 + sizeof hdr + 224];
    uint64_t hl = sizeof hdr - 1;
    for (int i = 0; i < 8; i++) st[i] = (uint8_t)(hl >> (8 * i));
    memcpy(st + 8, hdr, hl);
    for (size_t i = 0; i < 224; i++) st[8 + hl + i] = (uint8_t)(i * 13 + 5);
    put("model.safetensors", st, 8 + hl + 224);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!dir[0]) setup();
    if (!size) return 0;
    static const unsigned VOCAB[4] = {300, 1100, 151650, 70000};
    unsigned n_vocab = VOCAB[data[0] & 3];
    char cfg[1024];
    snprintf(cfg, sizeof cfg,
             "{\"architectures\": [\"QWenLMHeadModel\"], \"model_type\": \"qwen\", \"hidden_size\": 8,"
             " \"intermediate_size\": 32, \"num_attention_heads\": 2, \"num_hidden_layers\": 1, \"kv_channels\": 4,"
             " \"layer_norm_epsilon\": 1e-06, \"max_position_embeddings\": 64, \"rotary_emb_base\": 10000,"
             " \"seq_length\": 64, \"vocab_size\": %u}",
             n_vocab);
    put("config.json", cfg, strlen(cfg));
    static const char TC_PLAIN[] = "{\"model_max_length\": 8192, \"tokenizer_class\": \"QWenTokenizer\"}";
    static const char TC_SPECIAL[] = "{\"tokenizer_class\": \"QWenTokenizer\", \"bos_token\": \"<|endoftext|>\","
                                     " \"eos_token\": \"<|im_end|>\", \"pad_token\": \"!\", \"unk_token\": \"ab\","
                                     " \"add_bos_token\": true}";
    const char *tc = data[0] & 8 ? TC_SPECIAL : TC_PLAIN;
    put("tokenizer_config.json", tc, strlen(tc));
    put("qwen.tiktoken", data + 1, size - 1);

    lgg_convert_options o;
    lgg_convert_options_init(&o);
    o.pre = data[0] & 4 ? "qwen2" : NULL;
    lgg_convert *c = NULL;
    lgg_error err;
    memset(&err, 0, sizeof err);
    lgg_status st = lgg_convert_open(dir, &o, &c, &err);
    if (st != LGG_OK) {
        FUZZ_ASSERT(c == NULL && err.message[0]);
        FUZZ_ASSERT(st != LGG_ERR_NOMEM); /* a few KiB never run out: a misreported failure */
        for (const char *m = err.message; *m; m++) FUZZ_ASSERT((unsigned char)*m >= 0x20 && *m != 0x7f);
        return 0;
    }
    lgg_writer *w = lgg_convert_writer(c);
    int fd = open("/dev/null", O_WRONLY);
    FUZZ_ASSERT(fd >= 0);
    FUZZ_ASSERT(lgg_writer_write_fd(w, fd, NULL, NULL, &err) == LGG_OK);
    close(fd);
    lgg_file *f = NULL;
    FUZZ_ASSERT(lgg_writer_describe(w, &f, &err) == LGG_OK);
    lgg_value v;
    FUZZ_ASSERT(lgg_get(f, "tokenizer.ggml.tokens", &v) == LGG_OK && v.type == LGG_VT_ARRAY && v.count == n_vocab);
    FUZZ_ASSERT(lgg_get(f, "tokenizer.ggml.token_type", &v) == LGG_OK && v.count == n_vocab);
    FUZZ_ASSERT(lgg_get(f, "tokenizer.ggml.merges", &v) == LGG_OK && v.count < n_vocab);
    static const char *const IDS[] = {"tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id",
                                      "tokenizer.ggml.unknown_token_id", "tokenizer.ggml.padding_token_id"};
    for (size_t i = 0; i < sizeof IDS / sizeof *IDS; i++) {
        uint64_t id;
        if (lgg_get(f, IDS[i], &v) == LGG_OK)
            FUZZ_ASSERT(lgg_value_uint(&v, &id) == LGG_OK && (id < n_vocab || id == 151643));
    }
    lgg_close(f);
    lgg_convert_free(c);
    return 0;
}
