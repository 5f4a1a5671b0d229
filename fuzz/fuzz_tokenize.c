/* fuzz_tokenize.c -- the GGUF side of the tokenizer on any text: the first
 * byte picks a small vocabulary (SPM, WPM, UGM, RWKV, or BPE with one of
 * llama.cpp's pre-tokenizer names, so every expression set runs), the
 * second the flags, the rest is the text.  Invariants: the count is the same
 * on a second call, every id is in the vocabulary, detokenizing them works,
 * and an error is only the one the reference throws (invalid text). */
#include "fuzz.h"
#include "libgguf_tokenize.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const PRE[] = {
    "default", "llama-bpe", "deepseek-llm", "deepseek-coder", "deepseek-v3", "falcon", "mpt", "starcoder", "gpt-2",
    "refact", "command-r", "qwen2", "stablelm2", "olmo", "dbrx", "smaug-bpe", "poro-chat", "chatglm-bpe", "viking",
    "jais", "tekken", "smollm", "codeshell", "bloom", "gpt3-finnish", "exaone", "chameleon", "minerva-7b", "megrez"};
#define N_PRE (sizeof PRE / sizeof *PRE)
enum { V_SPM = N_PRE, V_WPM, V_UGM, V_RWKV, N_VOCABS };

static lgg_tokenizer *vocabs[N_VOCABS];

/* the token texts of each kind: the 256 bytes in the kind's spelling, then a few words */
static size_t texts(int kind, char (*t)[16], int32_t *type, float *score) {
    size_t n = 0;
    static const char *const WORDS[] = {"the", "an", "ab", "he", "llo", "hello", ("\xe2\x96\x81" "a"), "12", "\xe4\xb8\xad"};
    if (kind == V_WPM) {
        for (int i = 0; i < 104; i++) snprintf(t[n], 16, "[unused%d]", i), type[n] = 1, score[n++] = 0;
        snprintf(t[100], 16, "[UNK]"), snprintf(t[101], 16, "[CLS]"), snprintf(t[102], 16, "[SEP]");
        type[100] = 2, type[101] = type[102] = 3;
    } else if (kind == V_SPM || kind == V_UGM) {
        snprintf(t[n], 16, "<unk>"), type[n] = 2, score[n++] = 0;
        snprintf(t[n], 16, "<s>"), type[n] = 3, score[n++] = 0;
        snprintf(t[n], 16, "</s>"), type[n] = 3, score[n++] = 0;
    }
    for (int b = 0; b < 256; b++, n++) {
        type[n] = 1, score[n] = -(float)b;
        if (kind == V_SPM || kind == V_UGM) snprintf(t[n], 16, "<0x%02X>", b), type[n] = 6;
        else if (kind == V_RWKV) snprintf(t[n], 16, "\\x%02x", b);
        else if (kind == V_WPM) snprintf(t[n], 16, "%c%c", 'a' + b / 26 % 26, 'a' + b % 26);
        else { /* GPT-2's printable code point of the byte */
            unsigned c = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE) ? (unsigned)b
                         : b <= 0x20 ? 0x100u + (unsigned)b : b <= 0xA0 ? 0x121u + (unsigned)(b - 0x7F) : 0x143u;
            if (c < 0x80) snprintf(t[n], 16, "%c", c);
            else snprintf(t[n], 16, "%c%c", 0xC0 | (c >> 6), 0x80 | (c & 0x3F));
        }
    }
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++, n++)
        snprintf(t[n], 16, "%s", WORDS[i]), type[n] = 1, score[n] = -1.5f * (float)i;
    snprintf(t[n], 16, "<|end|>"), type[n] = 3, score[n++] = 0;
    snprintf(t[n], 16, "<user>"), type[n] = 4, score[n++] = 0;
    return n;
}

static lgg_tokenizer *build(int kind) {
    static char t[400][16];
    int32_t type[400];
    float score[400];
    size_t n = texts(kind, t, type, score);
    lgg_str s[400];
    for (size_t i = 0; i < n; i++) s[i].ptr = t[i], s[i].len = strlen(t[i]);
    lgg_writer *w = NULL;
    if (lgg_writer_create(NULL, &w, NULL)) abort();
    const char *model = kind < (int)N_PRE ? "gpt2" : kind == V_SPM ? "llama" : kind == V_WPM ? "bert" : kind == V_UGM ? "t5" : "rwkv";
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, s}, ty = {LGG_VT_ARRAY, LGG_VT_I32, n, type},
               sc = {LGG_VT_ARRAY, LGG_VT_F32, n, score};
    lgg_writer_set_str(w, "tokenizer.ggml.model", model, NULL);
    lgg_writer_set(w, "tokenizer.ggml.tokens", 21, &tv, NULL);
    lgg_writer_set(w, "tokenizer.ggml.token_type", 25, &ty, NULL);
    lgg_writer_set(w, "tokenizer.ggml.scores", 21, &sc, NULL);
    if (kind < (int)N_PRE) {
        /* merges of the words' byte-level pieces */
        static const lgg_str M[] = {{"t h", 3}, {"th e", 4}, {"a n", 3}, {"a b", 3}, {"h e", 3}, {"l l", 3},
                                    {"ll o", 4}, {"he llo", 6}, {"1 2", 3}};
        lgg_wvalue mv = {LGG_VT_ARRAY, LGG_VT_STRING, sizeof M / sizeof *M, M};
        lgg_writer_set(w, "tokenizer.ggml.merges", 21, &mv, NULL);
        lgg_writer_set_str(w, "tokenizer.ggml.pre", PRE[kind], NULL);
        lgg_writer_set_u32(w, "tokenizer.ggml.bos_token_id", (uint32_t)n - 2, NULL);
        lgg_writer_set_u32(w, "tokenizer.ggml.eos_token_id", (uint32_t)n - 2, NULL);
    }
    if (kind == V_RWKV) lgg_writer_set_u32(w, "tokenizer.ggml.unknown_token_id", 0, NULL);
    char path[64];
    snprintf(path, sizeof path, "/tmp/fuzz_tokenize_%d_%d.gguf", (int)getpid(), kind);
    if (lgg_writer_write_file(w, path, NULL, NULL)) abort();
    lgg_writer_free(w);
    lgg_file *f = NULL;
    lgg_tokenizer *tok = NULL;
    lgg_error err;
    if (lgg_open_file(path, NULL, &f, &err)) abort();
    if (lgg_tokenizer_open_gguf(f, &tok, &err)) {
        fprintf(stderr, "vocabulary %d: %s\n", kind, err.message);
        abort();
    }
    lgg_close(f);
    unlink(path);
    return tok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    int kind = data[0] % N_VOCABS;
    if (!vocabs[kind]) vocabs[kind] = build(kind);
    const lgg_tokenizer *t = vocabs[kind];
    unsigned flags = data[1] & 3;
    const char *text = (const char *)data + 2;
    size_t len = size - 2;
    lgg_error err;
    int64_t n = lgg_tokenize(t, text, len, flags, NULL, 0, &err);
    if (n < 0) { /* only what the reference throws on */
        FUZZ_ASSERT(n == -LGG_ERR_INVALID);
        return 0;
    }
    int32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
    FUZZ_ASSERT(ids != NULL);
    FUZZ_ASSERT(lgg_tokenize(t, text, len, flags, ids, (size_t)n, &err) == n);
    for (int64_t i = 0; i < n; i++)
        FUZZ_ASSERT(ids[i] >= -1 && ids[i] < lgg_tokenizer_n_tokens(t)); /* RWKV's unknown is -1 */
    int rwkv_unknown = 0;
    for (int64_t i = 0; i < n; i++) rwkv_unknown |= ids[i] < 0;
    if (!rwkv_unknown) {
        int64_t k = lgg_detokenize(t, ids, (size_t)n, LGG_DETOKENIZE_UNPARSE_SPECIAL, NULL, 0, &err);
        FUZZ_ASSERT(k >= 0);
        char *buf = malloc((size_t)k + 1);
        FUZZ_ASSERT(buf && lgg_detokenize(t, ids, (size_t)n, LGG_DETOKENIZE_UNPARSE_SPECIAL, buf, (size_t)k, &err) == k);
        free(buf);
    }
    free(ids);
    return 0;
}
