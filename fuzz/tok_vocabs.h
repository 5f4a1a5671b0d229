/* tok_vocabs.h -- small GGUF vocabularies written with libgguf's writer,
 * one per kind: BPE under each of llama.cpp b4747's pre-tokenizer names
 * and one name of each row master added (0..N_PRE-1), SPM, WPM, UGM and RWKV.  Deterministic bytes: the fuzz
 * target tokenizes with them, and the tests compare their ids with what
 * llama-tokenize gives on the same files (tests/tokenize/expect/synth-*). */
#ifndef LGG_TOK_VOCABS_H
#define LGG_TOK_VOCABS_H

#include "libgguf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const PRE[] = {
    "default", "llama-bpe", "deepseek-llm", "deepseek-coder", "deepseek-v3", "falcon", "mpt", "starcoder", "gpt-2",
    "refact", "command-r", "qwen2", "stablelm2", "olmo", "dbrx", "smaug-bpe", "poro-chat", "chatglm-bpe", "viking",
    "jais", "tekken", "smollm", "codeshell", "bloom", "gpt3-finnish", "exaone", "chameleon", "minerva-7b", "megrez",
    /* one name of each row only llama.cpp master knows (its engine: tok_split.c) */
    "minicpm5", "falcon-h1", "youtu", "a.x-4.0", "jais-2", "kormo", "qwen35", "glm4", "exaone-moe", "gpt-4o",
    "granite-embed-multi-97m", "tiny_aya", "superbpe", "trillion", "bailingmoe", "seed-coder", "hunyuan",
    "hunyuan-dense", "kimi-k2", "afmoe", "laguna", "mellum2"};
#define N_PRE (sizeof PRE / sizeof *PRE)
enum { V_SPM = N_PRE, V_WPM, V_UGM, V_RWKV, N_VOCABS };

/* the token texts of each kind: the 256 bytes in the kind's spelling, then a few words */
static inline size_t tok_vocab_texts(int kind, char (*t)[24], int32_t *type, float *score) {
    size_t n = 0;
    static const char *const WORDS[] = {"the", "an", "ab", "he", "llo", "hello", ("\xe2\x96\x81" "a"), "12", "\xe4\xb8\xad"};
    if (kind == V_WPM) {
        for (int i = 0; i < 104; i++) snprintf(t[n], 24, "[unused%d]", i), type[n] = 1, score[n++] = 0;
        snprintf(t[100], 24, "[UNK]"), snprintf(t[101], 24, "[CLS]"), snprintf(t[102], 24, "[SEP]");
        type[100] = 2, type[101] = type[102] = 3;
    } else if (kind == V_SPM || kind == V_UGM) {
        snprintf(t[n], 24, "<unk>"), type[n] = 2, score[n++] = 0;
        snprintf(t[n], 24, "<s>"), type[n] = 3, score[n++] = 0;
        snprintf(t[n], 24, "</s>"), type[n] = 3, score[n++] = 0;
    }
    for (int b = 0; b < 256; b++, n++) {
        type[n] = 1, score[n] = -(float)b;
        if (kind == V_SPM || kind == V_UGM) snprintf(t[n], 24, "<0x%02X>", b), type[n] = 6;
        else if (kind == V_RWKV) snprintf(t[n], 24, "\\x%02x", b);
        else if (kind == V_WPM) snprintf(t[n], 24, "%c%c", 'A' + b / 26 % 26, 'A' + b % 26); /* unique: no word is upper case */
        else { /* GPT-2's printable code point of the byte */
            unsigned c = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE) ? (unsigned)b
                         : b <= 0x20 ? 0x100u + (unsigned)b : b <= 0xA0 ? 0x121u + (unsigned)(b - 0x7F) : 0x143u;
            if (c < 0x80) snprintf(t[n], 24, "%c", c);
            else snprintf(t[n], 24, "%c%c", 0xC0 | (c >> 6), 0x80 | (c & 0x3F));
        }
    }
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++, n++)
        snprintf(t[n], 24, "%s", WORDS[i]), type[n] = 1, score[n] = -1.5f * (float)i;
    snprintf(t[n], 24, "<|end|>"), type[n] = 3, score[n++] = 0;
    snprintf(t[n], 24, "<user>"), type[n] = 4, score[n++] = 0;
    return n;
}

static inline int tok_vocab_write(int kind, const char *path) {
    static char t[400][24];
    int32_t type[400];
    float score[400];
    size_t n = tok_vocab_texts(kind, t, type, score);
    lgg_str s[400];
    for (size_t i = 0; i < n; i++) s[i].ptr = t[i], s[i].len = strlen(t[i]);
    lgg_writer *w = NULL;
    if (lgg_writer_create(NULL, &w, NULL)) abort();
    const char *model = kind < (int)N_PRE ? "gpt2" : kind == V_SPM ? "llama" : kind == V_WPM ? "bert" : kind == V_UGM ? "t5" : "rwkv";
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, s}, ty = {LGG_VT_ARRAY, LGG_VT_I32, n, type},
               sc = {LGG_VT_ARRAY, LGG_VT_F32, n, score};
    lgg_writer_set_str(w, "general.architecture", "llama", NULL); /* llama.cpp loads nothing without one */
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
    int rc = lgg_writer_write_file(w, path, NULL, NULL) == LGG_OK ? 0 : -1;
    lgg_writer_free(w);
    return rc;
}

/* the file name of a kind: synth-<pre> or synth-spm/wpm/ugm/rwkv */
static inline void tok_vocab_name(int kind, char *out, size_t cap) {
    static const char *const OTHER[] = {"spm", "wpm", "ugm", "rwkv"};
    snprintf(out, cap, "synth-%s", kind < (int)N_PRE ? PRE[kind] : OTHER[kind - (int)N_PRE]);
}

#endif
