/* tok_vocab.c -- a GGUF file's vocabulary, loaded as llama.cpp b4747's
 * llama_vocab::load reads it: the type and pre-tokenizer, the tokens and
 * their attributes, the special ids and flags, the tokens whose texts it
 * marks as control, the special-token list and the piece of every id. */
#include <jansson.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

/* ---- the pre-tokenizers: their expressions are the reference's (format
 * data, llama-vocab.cpp b4747) ---- */
static const char *const RE_DEEPSEEK_LLM[] = {
    "[\r\n]",
    "\\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+",
    "\\s?[!-/:-~！-／：-～‘-‟　-。]+",
    "\\s+$",
    "[一-龥ࠀ-一가-퟿]+",
    "\\p{N}+",
    NULL};
static const char *const RE_DEEPSEEK3[] = {
    "\\p{N}{1,3}",
    "[一-龥぀-ゟ゠-ヿ]+",
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_LLAMA3[] = {lgg__tok_re_llama3, NULL};
static const char *const RE_DEEPSEEK_CODER[] = {"[\r\n]", "\\s?\\p{L}+", "\\s?\\p{P}+", "[一-龥ࠀ-一가-퟿]+", "\\p{N}", NULL};
static const char *const RE_FALCON[] = {"[\\p{P}\\$\\+<=>\\^~\\|`]+", lgg__tok_re_gpt2, "[0-9][0-9][0-9]", NULL};
static const char *const RE_STARCODER[] = {"\\p{N}", lgg__tok_re_gpt2, NULL};
static const char *const RE_GPT2[] = {lgg__tok_re_gpt2, NULL};
#define QWEN2_RE                                                                                                    \
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"
static const char *const RE_QWEN2[] = {QWEN2_RE, NULL};
static const char *const RE_PORO[] = {" ?[^(\\s|.,!?…。，、।۔،)]+", NULL};
static const char *const RE_VIKING[] = {" ?[^(\\s|.,!?…。，、।۔،)]+", "\\p{N}", NULL};
static const char *const RE_TEKKEN[] = {
    "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))*((?=[\\p{L}])([^A-Z]))+|[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))+((?=[\\p{L}])([^A-Z]))*|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_CHAMELEON[] = {
    "<sentinel:[0-9]+>", "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z", "([\\t\\n]|    |  )", "\\p{N}",
    "[\\p{P}!-/:-@\\[-`{-~]", lgg__tok_re_gpt2, NULL};
/* llama.cpp master's (3f545becc) expressions for the names b4747 did not know */
static const char *const RE_QWEN35[] = {
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?[\\p{L}\\p{M}]+|\\p{N}| ?[^\\s\\p{L}\\p{M}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_JAIS2[] = {
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s{512}(?!\\S)|\\s{256}(?!\\S)|\\s{128}(?!\\S)|\\s{64}(?!\\S)|\\s{32}(?!\\S)|\\s{16}(?!\\S)|\\s{8}(?!\\S)|\\s{4}(?!\\S)|\\s{1,2}(?!\\S)|\\s{1}",
    NULL};
static const char *const RE_YOUTU[] = {
    "[가-힣ㄱ-ㆎ]+|[！…“”‘’—：；，、-〿︰-﹏]+|[ㄅ-ㄯ]+|[一-龥぀-ゟ゠-ヿ]+",
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_GPT4O[] = {
    "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))*((?=[\\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}])([^a-z]))+((?=[\\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_GRANITE_EMB[] = {
    "[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}\\p{M}])([^a-z]))*((?=[\\p{L}\\p{M}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?((?=[\\p{L}\\p{M}])([^a-z]))+((?=[\\p{L}\\p{M}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_TINY_AYA[] = {
    "\\d{1,3}(?=(?:\\d{3})*\\b)",
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_KIMI_K2[] = {"\\p{Han}+", NULL};
static const char *const RE_SUPERBPE[] = {"\\p{N}+", "(?=(\\d{3})+(?!\\d))", NULL};
static const char *const RE_BAILINGMOE[] = {
    "'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_SEED_CODER[] = {
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1}| ?[^\\s\\p{L}\\p{N}\\r\\n]+|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_AFMOE[] = {
    "\\p{AFMoE_digits}",
    "[一-鿿㐀-䶿豈-﫿぀-ゟ゠-ヿ･-ﾟ⼀-⿟เ-๿຀-໿ក-៿က-႟ꩠ-ꩿꧠ-꧿가-힯ᄀ-ᇿ]+",
    "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\\r\\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_LAGUNA[] = {"[^\\n]+|[\\n]+", QWEN2_RE, NULL};
static const char *const RE_EXAONE_MOE[] = {
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?(?:\\p{L}\\p{M}*(?: \\p{L}\\p{M}*)*)+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]?|\\s*[\\r\\n]|\\s+(?!\\S)|\\s+",
    NULL};
static const char *const RE_MINICPM5[] = {
    "\\p{N}{1,3}",
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}+| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
    NULL};
/* master's SPM-style BPE (gemma4, sarvam-moe): lines and runs of newlines */
static const char *const RE_LINES[] = {"[^\\n]+|[\\n]+", NULL};
static const char *const RE_DEFAULT[] = {"[\\p{P}\\$\\+<=>\\^~\\|]+", lgg__tok_re_gpt2, "\\p{N}+", "[0-9][0-9][0-9]", NULL};

/* tokenizer.ggml.pre names, in llama.cpp's order, with what each sets */
enum { KEEP_CLEAN = 0, NO_CLEAN = 1, IGNORE_MERGES = 2, ADD_BOS = 4, NO_BOS_ID = 8, MASTER = 16, RAW_BPE = 32,
       NL_WORDS = 64, FORCE_BOS = 128 };
static const struct pre_type {
    const char *names; /* '|'-separated */
    const char *const *re;
    unsigned set;
} PRE[] = {
    {"default", RE_DEFAULT, 0},
    {"llama3|llama-v3|llama-bpe|falcon3", RE_LLAMA3, IGNORE_MERGES | ADD_BOS},
    {"deepseek-llm", RE_DEEPSEEK_LLM, NO_CLEAN},
    {"deepseek-coder", RE_DEEPSEEK_CODER, NO_CLEAN},
    {"deepseek-v3", RE_DEEPSEEK3, NO_CLEAN},
    {"falcon", RE_FALCON, 0},
    {"mpt", RE_GPT2, 0},
    {"starcoder", RE_STARCODER, 0},
    {"gpt-2|phi-2|jina-es|jina-de|gigachat|jina-v1-en|jina-v2-es|jina-v2-de|jina-v2-code|roberta-bpe", RE_GPT2, 0},
    {"refact", RE_STARCODER, 0},
    {"command-r", RE_STARCODER, NO_CLEAN},
    {"qwen2|deepseek-r1-qwen", RE_QWEN2, NO_CLEAN},
    {"stablelm2", RE_QWEN2, 0},
    {"olmo", RE_GPT2, 0},
    {"dbrx", RE_LLAMA3, 0},
    {"smaug-bpe", RE_LLAMA3, 0},
    {"poro-chat", RE_PORO, NO_CLEAN},
    {"chatglm-bpe", RE_LLAMA3, NO_BOS_ID},
    {"viking", RE_VIKING, NO_CLEAN},
    {"jais", RE_GPT2, 0},
    {"tekken", RE_TEKKEN, NO_CLEAN | IGNORE_MERGES | ADD_BOS},
    {"smollm", RE_STARCODER, NO_CLEAN},
    {"codeshell", RE_STARCODER, 0},
    {"bloom", RE_PORO, 0},
    {"gpt3-finnish", RE_PORO, 0},
    {"exaone", RE_STARCODER, 0},
    {"chameleon", RE_CHAMELEON, ADD_BOS | NO_CLEAN},
    {"minerva-7b", RE_STARCODER, 0},
    {"megrez", RE_QWEN2, 0},
    /* the names only llama.cpp master (3f545becc) knows, run by its engine */
    {"minicpm5", RE_MINICPM5, MASTER | IGNORE_MERGES},
    {"falcon-h1|pixtral|midm-2.0|lfm2|jina-v5-nano", RE_LLAMA3, MASTER | IGNORE_MERGES | ADD_BOS},
    {"youtu", RE_YOUTU, MASTER | NO_CLEAN | IGNORE_MERGES},
    {"a.x-4.0|mellum|modern-bert|exaone4", RE_GPT2, MASTER},
    {"jais-2", RE_JAIS2, MASTER},
    {"kormo|f2llmv2", RE_QWEN2, MASTER | NO_CLEAN},
    {"qwen35", RE_QWEN35, MASTER | NO_CLEAN},
    {"glm4", RE_LLAMA3, MASTER | NO_BOS_ID},
    {"exaone-moe", RE_EXAONE_MOE, MASTER},
    {"gpt-4o|llama4|kanana2|talkie|minimax-m2", RE_GPT4O, MASTER | NO_CLEAN},
    {"granite-embed-multi-97m", RE_GRANITE_EMB, MASTER | NO_CLEAN | IGNORE_MERGES},
    {"tiny_aya|cohere2moe", RE_TINY_AYA, MASTER | NO_CLEAN},
    {"superbpe", RE_SUPERBPE, MASTER | NO_CLEAN},
    {"trillion|granite-docling", RE_GPT2, MASTER | NO_CLEAN},
    {"bailingmoe|bailingmoe2|llada-moe", RE_BAILINGMOE, MASTER | NO_CLEAN},
    {"seed-coder", RE_SEED_CODER, MASTER | NO_CLEAN},
    {"hunyuan|grok-2|solar-open", RE_QWEN2, MASTER | NO_CLEAN},
    {"hunyuan-dense|joyai-llm", RE_DEEPSEEK3, MASTER | NO_CLEAN},
    {"kimi-k2", RE_KIMI_K2, MASTER | NO_CLEAN},
    {"afmoe", RE_AFMOE, MASTER | NO_CLEAN},
    {"laguna", RE_LAGUNA, MASTER | NO_CLEAN},
    {"mellum2", RE_STARCODER, MASTER},
    /* BPE on raw UTF-8 with spaces escaped (no byte-level encoding); gemma4's newline words and forced BOS */
    {"gemma4|granite-embed-multi-311m", RE_LINES, MASTER | RAW_BPE | NL_WORDS | FORCE_BOS},
    {"sarvam-moe", RE_LINES, MASTER | RAW_BPE | NO_CLEAN},
};

/* The i-th name of PRE (aliases flattened, in order): its len bytes, and
 * the row in *row; NULL past the last. */
static const char *pre_at(size_t i, size_t *len, int *row) {
    for (size_t r = 0; r < sizeof PRE / sizeof *PRE; r++) {
        for (const char *p = PRE[r].names; *p;) {
            const char *e = strchr(p, '|');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            if (i-- == 0) {
                *len = n;
                *row = (int)r;
                return p;
            }
            p += n + (e != NULL);
        }
    }
    return NULL;
}

static int pre_find(const char *name, size_t len) {
    size_t n;
    int row;
    for (size_t i = 0;; i++) {
        const char *p = pre_at(i, &n, &row);
        if (!p) return -1;
        if (n == len && !memcmp(p, name, n)) return row;
    }
}

/* master's name for its whitespace tokenizer model's pre-tokenizer: known, refused by name */
static int pre_refused(const char *name, size_t len) {
    static const char *const NAMES[] = {"whitespace"};
    for (size_t i = 0; i < sizeof NAMES / sizeof *NAMES; i++)
        if (strlen(NAMES[i]) == len && !memcmp(NAMES[i], name, len)) return 1;
    return 0;
}

const char *lgg_tokenizer_pre_name(size_t i, size_t *len) {
    size_t n;
    int row;
    const char *p = pre_at(i, &n, &row);
    if (p && len) *len = n;
    return p;
}

/* ---- reading the keys ---- */

static lgg_status get_opt(const lgg_file *f, const char *key, lgg_value *v, int *present) {
    lgg_status st = lgg_get(f, key, v);
    *present = st == LGG_OK;
    return st == LGG_ERR_NOT_FOUND ? LGG_OK : st;
}

static lgg_status key_bool(const lgg_file *f, const char *key, int *out, lgg_error *err) {
    lgg_value v;
    int present;
    lgg_status st = get_opt(f, key, &v, &present);
    bool b;
    if (st == LGG_OK && present && (st = lgg_value_bool(&v, &b)) == LGG_OK) *out = b;
    return st ? lgg_error_set(err, st, LGG_NO_OFFSET, "%s: %s (expected a bool)", key, lgg_status_name(st)) : LGG_OK;
}

/* a special id: kept when absent, and (as llama.cpp warns and does) when out of range */
static lgg_status key_id(const lgg_file *f, const char *key, int32_t n_tokens, int32_t *id, int *set,
                         lgg_error *err) {
    lgg_value v;
    int present;
    uint64_t u;
    lgg_status st = get_opt(f, key, &v, &present);
    if (st == LGG_OK && present && (st = lgg_value_uint(&v, &u)) == LGG_OK && u < (uint64_t)n_tokens) {
        *id = (int32_t)u;
        if (set) *set = 1;
    }
    return st ? lgg_error_set(err, st, LGG_NO_OFFSET, "%s: %s (expected a token id)", key, lgg_status_name(st))
              : LGG_OK;
}

static lgg_status key_array(const lgg_file *f, const char *key, uint32_t elem, uint64_t n, lgg_value *v, int *present,
                            lgg_error *err) {
    lgg_status st = get_opt(f, key, v, present);
    if (st) return lgg_error_set(err, st, LGG_NO_OFFSET, "%s: %s", key, lgg_status_name(st));
    if (!*present) return LGG_OK;
    if (v->type != LGG_VT_ARRAY || v->elem_type != elem)
        return lgg_error_set(err, LGG_ERR_TYPE, LGG_NO_OFFSET, "%s: expected an array of %s", key, lgg_vtype_name(elem));
    if (n != UINT64_MAX && v->count != n)
        return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s: %llu entries for %llu tokens", key,
                             (unsigned long long)v->count, (unsigned long long)n);
    return LGG_OK;
}

/* ---- the tokens' texts marked control by name (llama.cpp does it by text
 * until converters write these ids) ---- */

static void mark_control(lgg_tokenizer *t, int32_t id) {
    /* a token not already control becomes control only, as in llama.cpp */
    if (id >= 0 && !(t->tok[id].attr & TOK_ATTR_CONTROL)) t->tok[id].attr = TOK_ATTR_CONTROL;
}

/* One special slot found by text when its key is absent.  llama.cpp takes the
 * first candidate its hash map yields; with one candidate present (the usual
 * case) that one is marked, with several the order is the hash map's, and
 * only the ones the end-of-generation list marks anyway are certain. */
static void slot_by_text(lgg_tokenizer *t, int key_set, const char *const *cand) {
    if (key_set) return;
    int32_t found = -1, n_found = 0;
    for (size_t i = 0; cand[i]; i++) {
        int32_t id = lgg__tok_map_get(&t->text_to_id, cand[i], strlen(cand[i]));
        if (id >= 0) found = id, n_found++;
    }
    if (n_found == 1) mark_control(t, found);
}

static const char *const EOG_TEXTS_MASTER[] = {
    "<|eot_id|>", "<|im_end|>",      "<|end|>",          "<|return|>", "<|call|>",          "<|flush|>",
    "<|calls|>",  "<end_of_turn>",   "<|endoftext|>",    "</s>",       "<|eom_id|>",        "<EOT>",
    "_<EOT>",     "[EOT]",           "[EOS]",            "<|end_of_text|>", "<end_of_utterance>", "<eos>",
    "<turn|>",    "<|tool_response>", "<｜end▁of▁sentence｜>", "[e~[", NULL};
static const char *const EOG_TEXTS[] = {"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
                                        "<|eom_id|>", "<EOT>", NULL};

static int by_length_desc(const void *a, const void *b, void *ctx) {
    const lgg_tokenizer *t = ctx;
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    if (t->tok[x].len != t->tok[y].len) return t->tok[x].len > t->tok[y].len ? -1 : 1;
    return x < y ? -1 : x > y;
}

static int contains(const char *s, const char *const *subs) {
    for (size_t i = 0; subs[i]; i++)
        if (strstr(s, subs[i])) return 1;
    return 0;
}

static lgg_status set_attr_by_text(lgg_tokenizer *t, const char *text, uint32_t attr, int on, lgg_error *err) {
    int32_t id = lgg__tok_map_get(&t->text_to_id, text, strlen(text));
    if (id < 0) /* llama.cpp's token_to_id.at() throws: the model does not load */
        return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                             "tokenizer.ggml.tokens: no token '%s', which llama.cpp requires for this model", text);
    if (on) t->tok[id].attr |= attr;
    else t->tok[id].attr &= ~attr;
    return LGG_OK;
}

/* The attributes llama.cpp sets by model and pre-tokenizer name. */
static lgg_status attrs_by_name(lgg_tokenizer *t, const lgg_file *f, lgg_error *err) {
    char name[256] = "";
    lgg_value v;
    lgg_str s;
    if (lgg_get(f, "general.name", &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK) {
        size_t n = s.len < sizeof name - 1 ? s.len : sizeof name - 1;
        for (size_t i = 0; i < n; i++) name[i] = (char)tolower((unsigned char)s.ptr[i]);
        name[n] = 0;
    }
    static const char *const JINA[] = {"jina-v2-de", "jina-v2-es", "jina-v2-code", NULL};
    static const char *const PHI3[] = {"phi-3", "phi3", NULL};
    if (contains(t->pre_name, JINA)) return set_attr_by_text(t, "<mask>", TOK_ATTR_LSTRIP, 1, err);
    if (!contains(name, PHI3)) return LGG_OK;
    for (int32_t i = 0; i < t->n_special; i++) t->tok[t->special[i]].attr |= TOK_ATTR_RSTRIP;
    lgg_status st = set_attr_by_text(t, "</s>", TOK_ATTR_RSTRIP, 1, err);
    static const char *const OFF[] = {"<unk>", "<s>", "<|endoftext|>"};
    for (size_t i = 0; !st && i < 3; i++) st = set_attr_by_text(t, OFF[i], TOK_ATTR_RSTRIP, 0, err);
    return st;
}

static lgg_status nomem(lgg_error *err) {
    return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory loading the vocabulary");
}

/* tokens, scores, types and the text -> id map */
static lgg_status load_tokens(lgg_tokenizer *t, const lgg_file *f, lgg_error *err) {
    lgg_value toks, scores, types;
    int have, have_scores, have_types;
    lgg_status st = key_array(f, "tokenizer.ggml.tokens", LGG_VT_STRING, UINT64_MAX, &toks, &have, err);
    if (st) return st;
    if (!have) return lgg_error_set(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "no tokenizer.ggml.tokens: the file has no vocabulary");
    if (toks.count > INT32_MAX - 1)
        return lgg_error_set(err, LGG_ERR_LIMIT, LGG_NO_OFFSET, "tokenizer.ggml.tokens: %llu tokens",
                             (unsigned long long)toks.count);
    uint64_t n = toks.count;
    if ((st = key_array(f, "tokenizer.ggml.scores", LGG_VT_F32, n, &scores, &have_scores, err)) ||
        (st = key_array(f, "tokenizer.ggml.token_type", LGG_VT_I32, n, &types, &have_types, err)))
        return st;
    t->n = (int32_t)n;
    t->tok = calloc(n ? n : 1, sizeof *t->tok);
    if (!t->tok) return nomem(err);
    /* the arena: every text plus NUL, "[EMPTY_i]" for empty ones */
    size_t total = 0;
    lgg_iter it;
    lgg_value e;
    lgg_str s;
    lgg_array_iter(&toks, &it);
    while (lgg_iter_next(&it, &e)) {
        lgg_value_string(&e, &s);
        total += (s.len ? s.len : 24) + 1;
    }
    if (!(t->arena = malloc(total ? total : 1))) return nomem(err);
    char *p = t->arena;
    lgg_array_iter(&toks, &it);
    for (int32_t i = 0; lgg_iter_next(&it, &e); i++) {
        lgg_value_string(&e, &s);
        tok_token *k = &t->tok[i];
        k->text = p;
        if (s.len) {
            memcpy(p, s.ptr, s.len);
            k->len = (uint32_t)s.len;
        } else { /* llama.cpp names an empty token so */
            k->len = (uint32_t)snprintf(p, 25, "[EMPTY_%d]", (int)i);
        }
        p[k->len] = 0;
        p += k->len + 1;
        if (have_scores) {
            lgg_value sv;
            float sc = 0;
            lgg_array_get(&scores, (uint64_t)i, &sv);
            lgg_value_f32(&sv, &sc);
            k->score = sc;
        }
        k->attr = TOK_ATTR_NORMAL;
        if (have_types) {
            lgg_value tv;
            int32_t ty = 0;
            lgg_array_get(&types, (uint64_t)i, &tv);
            lgg_value_i32(&tv, &ty);
            /* token types 1..6: normal, unknown, control, user-defined, unused, byte */
            static const uint32_t ATTR[7] = {TOK_ATTR_UNDEFINED, TOK_ATTR_NORMAL,       TOK_ATTR_UNKNOWN, TOK_ATTR_CONTROL,
                                             TOK_ATTR_USER_DEFINED, TOK_ATTR_UNUSED, TOK_ATTR_BYTE};
            k->attr = ty >= 0 && ty <= 6 ? ATTR[ty] : TOK_ATTR_UNDEFINED;
        }
        if ((int)k->len > t->max_token_len) t->max_token_len = (int)k->len;
        int put = lgg__tok_map_put(&t->text_to_id, k->text, k->len, i, 1);
        if (put < 0) return nomem(err);
        if (put > 0) /* llama.cpp asserts that every text is a different token */
            return lgg_error_set(err, LGG_ERR_INVALID, e.offset,
                                 "tokenizer.ggml.tokens[%d] repeats an earlier token's text, which llama.cpp refuses",
                                 (int)i);
    }
    return LGG_OK;
}

static lgg_status load_merges(lgg_tokenizer *t, const lgg_file *f, lgg_error *err) {
    lgg_value m;
    int have;
    lgg_status st = key_array(f, "tokenizer.ggml.merges", LGG_VT_STRING, UINT64_MAX, &m, &have, err);
    if (st) return st;
    if (!have) return lgg_error_set(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "no tokenizer.ggml.merges in a BPE vocabulary");
    if (m.count > INT32_MAX) return lgg_error_set(err, LGG_ERR_LIMIT, LGG_NO_OFFSET, "tokenizer.ggml.merges: too many");
    size_t total = 0;
    lgg_iter it;
    lgg_value e;
    lgg_str s;
    lgg_array_iter(&m, &it);
    while (lgg_iter_next(&it, &e)) lgg_value_string(&e, &s), total += s.len + 1;
    if (!(t->merge_arena = malloc(total ? total : 1))) return nomem(err);
    char *p = t->merge_arena;
    lgg_array_iter(&m, &it);
    for (int32_t i = 0; lgg_iter_next(&it, &e); i++) {
        lgg_value_string(&e, &s);
        /* llama.cpp splits at the first space after the first byte; a merge
         * without one is stored as the pair ("", ""), which no lookup asks for */
        const char *sp = s.len > 1 ? memchr(s.ptr + 1, ' ', s.len - 1) : NULL;
        if (!sp) continue;
        memcpy(p, s.ptr, s.len);
        if (lgg__tok_map_put(&t->merges, p, s.len, i, 0) < 0) return nomem(err);
        p += s.len;
    }
    return LGG_OK;
}

/* UGM: the charsmap (a 4-byte size, the XCDA entries, then the NUL-terminated
 * replacements) and the token tries */
static lgg_status load_ugm(lgg_tokenizer *t, const lgg_file *f, lgg_error *err) {
    lgg_value v;
    int have;
    lgg_status st = get_opt(f, "tokenizer.ggml.precompiled_charsmap", &v, &have);
    if (st) return lgg_error_set(err, st, LGG_NO_OFFSET, "tokenizer.ggml.precompiled_charsmap: %s", lgg_status_name(st));
    if (have && v.count > 0) {
        if (v.type != LGG_VT_ARRAY || (v.elem_type != LGG_VT_U8 && v.elem_type != LGG_VT_I8))
            return lgg_error_set(err, LGG_ERR_TYPE, LGG_NO_OFFSET,
                                 "tokenizer.ggml.precompiled_charsmap: expected an array of bytes");
        size_t n = (size_t)v.count;
        /* a uint32 copy keeps the XCDA entries aligned */
        uint32_t *buf = calloc(n / 4 + 2, 4);
        if (!buf) return nomem(err);
        memcpy(buf, v.data, n);
        t->charsmap = (char *)buf;
        t->charsmap_size = n;
        uint32_t xsize;
        if (n < 4) goto bad;
        memcpy(&xsize, buf, 4);
        if (v.swap) xsize = __builtin_bswap32(xsize);
        if ((uint64_t)xsize + 4 >= n) goto bad;
        uint32_t *x = buf + 1;
        t->xcda = x;
        t->xcda_n = xsize / 4;
        /* the file's byte order: entries are little-endian words in the blob */
        if (v.swap)
            for (size_t i = 0; i < t->xcda_n; i++) x[i] = __builtin_bswap32(x[i]);
        t->repl = t->charsmap + 4 + xsize;
        t->repl_n = n - 4 - xsize;
    }
    float min_score = 3.4e38f, max_score = -3.4e38f;
    for (int32_t i = 0; i < t->n; i++) {
        uint32_t a = t->tok[i].attr;
        if (a & TOK_ATTR_NORMAL) {
            if (t->tok[i].score < min_score) min_score = t->tok[i].score;
            if (t->tok[i].score > max_score) max_score = t->tok[i].score;
        }
        if ((a & (TOK_ATTR_NORMAL | TOK_ATTR_USER_DEFINED | TOK_ATTR_UNUSED)) &&
            lgg__tok_trie_add(&t->ugm_tokens, t->tok[i].text, t->tok[i].len, i))
            return nomem(err);
        if ((a & TOK_ATTR_USER_DEFINED) && lgg__tok_trie_add(&t->ugm_user, t->tok[i].text, t->tok[i].len, i)) return nomem(err);
    }
    t->ugm_unk_score = min_score - 10.0f;
    return LGG_OK;
bad:
    return lgg_error_set(err, LGG_ERR_INVALID, v.offset,
                         "tokenizer.ggml.precompiled_charsmap: the XCDA size runs past the charsmap");
}

/* RWKV: the tokens' escaped texts unescaped, in a trie */
static lgg_status load_rwkv(lgg_tokenizer *t, lgg_error *err) {
    char *buf = malloc((size_t)t->max_token_len + 1);
    if (!buf) return nomem(err);
    for (int32_t i = 0; i < t->n; i++) {
        size_t k = lgg__tok_rwkv_unescape(t->tok[i].text, t->tok[i].len, buf);
        if (lgg__tok_trie_add(&t->rwkv, buf, k, i)) {
            free(buf);
            return nomem(err);
        }
    }
    free(buf);
    return LGG_OK;
}

static lgg_status load_type(lgg_tokenizer *t, const lgg_file *f, lgg_error *err) {
    lgg_value v;
    lgg_str model = {0}, pre = {0};
    lgg_status st = lgg_get(f, "tokenizer.ggml.model", &v);
    if (st == LGG_ERR_NOT_FOUND)
        return lgg_error_set(err, st, LGG_NO_OFFSET, "no tokenizer.ggml.model: the file has no vocabulary");
    if (st || (st = lgg_value_string(&v, &model)))
        return lgg_error_set(err, st, LGG_NO_OFFSET, "tokenizer.ggml.model: %s", lgg_status_name(st));
    int have;
    if ((st = get_opt(f, "tokenizer.ggml.pre", &v, &have)) || (have && (st = lgg_value_string(&v, &pre))))
        return lgg_error_set(err, st, LGG_NO_OFFSET, "tokenizer.ggml.pre: %s", lgg_status_name(st));
#define IS_MODEL(s) (model.len == strlen(s) && !memcmp(model.ptr, s, model.len))
    /* defaults by type: bos, eos, unk, sep, pad */
    if (IS_MODEL("llama")) t->type = LGG_VOCAB_SPM, t->bos = 1, t->eos = 2, t->unk = 0, t->sep = -1, t->pad = -1;
    else if (IS_MODEL("bert")) t->type = LGG_VOCAB_WPM, t->bos = 101, t->eos = -1, t->unk = 100, t->sep = 102, t->pad = 0;
    else if (IS_MODEL("gpt2")) t->type = LGG_VOCAB_BPE, t->bos = 11, t->eos = 11, t->unk = -1, t->sep = -1, t->pad = -1;
    else if (IS_MODEL("gemma4")) /* master's: BPE with pre-tokenizer gemma4 whatever the file says, no default ids */
        t->type = LGG_VOCAB_BPE, t->bos = t->eos = t->unk = t->sep = t->pad = -1, pre.ptr = "gemma4", pre.len = 6;
    else if (IS_MODEL("t5")) t->type = LGG_VOCAB_UGM, t->bos = -1, t->eos = 1, t->unk = 2, t->sep = -1, t->pad = 0;
    else if (IS_MODEL("rwkv")) t->type = LGG_VOCAB_RWKV, t->bos = t->eos = t->unk = t->sep = t->pad = -1;
    else if (IS_MODEL("no_vocab") || IS_MODEL("none"))
        return lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "tokenizer.ggml.model '%.*s': the file has no vocabulary",
                             (int)model.len, model.ptr);
    else
        return lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "tokenizer.ggml.model: unknown tokenizer '%.*s'",
                             (int)(model.len > 64 ? 64 : model.len), model.ptr);
#undef IS_MODEL
    t->escape_ws = 1;
    strcpy(t->pre_name, "default");
    switch (t->type) {
    case LGG_VOCAB_BPE: {
        t->clean_spaces = 1;
        int k = 0;
        if (pre.len) {
            k = pre_find(pre.ptr, (size_t)pre.len);
            if (k < 0 && pre_refused(pre.ptr, (size_t)pre.len))
                return lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                                     "tokenizer.ggml.pre '%.*s': llama.cpp master's pre-tokenizer of its whitespace "
                                     "tokenizer model (no byte-level encoding) is not supported",
                                     (int)pre.len, pre.ptr);
            if (k < 0)
                return lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                                     "tokenizer.ggml.pre: unknown pre-tokenizer type '%.*s'",
                                     (int)(pre.len > 64 ? 64 : pre.len), pre.ptr);
            snprintf(t->pre_name, sizeof t->pre_name, "%.*s", (int)pre.len, pre.ptr);
        }
        t->pre = k;
        unsigned set = PRE[k].set;
        if (set & NO_CLEAN) t->clean_spaces = 0;
        if (set & IGNORE_MERGES) t->ignore_merges = 1;
        if (set & ADD_BOS) t->add_bos = 1;
        if (set & NO_BOS_ID) t->bos = -1;
        t->raw_bpe = (set & RAW_BPE) != 0, t->nl_words = (set & NL_WORDS) != 0;
        t->pre_master = (set & MASTER) != 0;
        break;
    }
    case LGG_VOCAB_SPM: t->add_space_prefix = 1, t->add_bos = 1; break;
    case LGG_VOCAB_WPM: t->clean_spaces = 1, t->add_bos = 1; break;
    case LGG_VOCAB_UGM: t->add_eos = 1; break;
    default: break;
    }
    if ((st = key_bool(f, "tokenizer.ggml.add_space_prefix", &t->add_space_prefix, err)) ||
        (st = key_bool(f, "tokenizer.ggml.remove_extra_whitespaces", &t->remove_extra_ws, err)))
        return st;
    return LGG_OK;
}

/* the piece of every id, kept for lgg_token_piece and detokenizing */
static lgg_status build_pieces(lgg_tokenizer *t, lgg_error *err) {
    tok_buf all = {0};
    size_t *offs = malloc(((size_t)t->n + 1) * sizeof *offs);
    if (!offs) return nomem(err);
    for (int32_t i = 0; i < t->n; i++) {
        offs[i] = all.n;
        if (t->hf ? lgg__tok_hf_decode(t, &i, 1, 0, &all) : lgg__tok_piece_for_cache(t, i, &all)) {
            free(offs);
            lgg__tok_buf_free(&all);
            return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                                 "tokenizer.ggml.tokens[%d]: a code point above U+10FFFF, which llama.cpp cannot load", (int)i);
        }
    }
    offs[t->n] = all.n;
    t->piece_arena = all.p ? all.p : calloc(1, 1);
    t->piece = malloc(((size_t)t->n + 1) * sizeof *t->piece);
    t->piece_len = malloc(((size_t)t->n + 1) * sizeof *t->piece_len);
    if (!t->piece_arena || !t->piece || !t->piece_len) {
        free(offs);
        return nomem(err);
    }
    for (int32_t i = 0; i < t->n; i++) {
        t->piece[i] = t->piece_arena + offs[i];
        t->piece_len[i] = (uint32_t)(offs[i + 1] - offs[i]);
    }
    free(offs);
    return LGG_OK;
}

static lgg_status load(lgg_tokenizer *t, const lgg_file *f, lgg_error *err) {
    lgg_status st;
    if ((st = load_type(t, f, err)) || (st = load_tokens(t, f, err))) return st;
    if (t->type == LGG_VOCAB_BPE) {
        if ((st = load_merges(t, f, err)) || (st = lgg__tok_splitter_new(PRE[t->pre].re, t->pre_master, &t->splitter, err))) return st;
    } else if (t->type == LGG_VOCAB_UGM) {
        if ((st = load_ugm(t, f, err))) return st;
    } else if (t->type == LGG_VOCAB_RWKV) {
        if ((st = load_rwkv(t, err))) return st;
    }
    /* the special ids; an eot/eom/fim key stops the search by text */
    int set[8] = {0};
    static const char *const FIM_KEYS[][2] = {
        {"tokenizer.ggml.fim_pre_token_id", "tokenizer.ggml.prefix_token_id"},
        {"tokenizer.ggml.fim_suf_token_id", "tokenizer.ggml.suffix_token_id"},
        {"tokenizer.ggml.fim_mid_token_id", "tokenizer.ggml.middle_token_id"},
        {"tokenizer.ggml.fim_pad_token_id", NULL},
        {"tokenizer.ggml.fim_rep_token_id", NULL},
        {"tokenizer.ggml.fim_sep_token_id", NULL},
    };
    int32_t scratch = -1;
    if ((st = key_id(f, "tokenizer.ggml.bos_token_id", t->n, &t->bos, NULL, err)) ||
        (st = key_id(f, "tokenizer.ggml.eos_token_id", t->n, &t->eos, NULL, err)) ||
        (st = key_id(f, "tokenizer.ggml.eot_token_id", t->n, &scratch, &set[0], err)) ||
        (st = key_id(f, "tokenizer.ggml.eom_token_id", t->n, &scratch, &set[1], err)) ||
        (st = key_id(f, "tokenizer.ggml.unknown_token_id", t->n, &t->unk, NULL, err)) ||
        (st = key_id(f, "tokenizer.ggml.seperator_token_id", t->n, &t->sep, NULL, err)) ||
        (st = key_id(f, "tokenizer.ggml.padding_token_id", t->n, &t->pad, NULL, err)))
        return st;
    /* a default id past the end of a small vocabulary is none (llama.cpp
     * would hand it out: BOS 1 of a one-token SPM vocabulary, BERT's UNK 100) */
    int32_t *const DEFAULTED[] = {&t->bos, &t->eos, &t->unk, &t->sep, &t->pad};
    for (size_t i = 0; i < sizeof DEFAULTED / sizeof *DEFAULTED; i++)
        if (*DEFAULTED[i] >= t->n) *DEFAULTED[i] = -1;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 2; j++)
            if (FIM_KEYS[i][j] && (st = key_id(f, FIM_KEYS[i][j], t->n, &scratch, &set[2 + i], err))) return st;
    if ((st = key_bool(f, "tokenizer.ggml.add_bos_token", &t->add_bos, err)) ||
        (st = key_bool(f, "tokenizer.ggml.add_eos_token", &t->add_eos, err)))
        return st;
    if (t->type == LGG_VOCAB_BPE && (PRE[t->pre].set & FORCE_BOS)) t->add_bos = 1; /* master's Gemma 4 workaround */
    static const char *const EOT[] = {"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<EOT>",
                                      "<｜end▁of▁sentence｜>", NULL};
    static const char *const EOM[] = {"<|eom_id|>", NULL};
    static const char *const FIM[6][5] = {
        {"<|fim_prefix|>", "<fim-prefix>", "<｜fim▁begin｜>", "<PRE>", NULL},
        {"<|fim_suffix|>", "<fim-suffix>", "<｜fim▁hole｜>", "<SUF>", NULL},
        {"<|fim_middle|>", "<fim-middle>", "<｜fim▁end｜>", "<MID>", NULL},
        {"<|fim_pad|>", "<fim-pad>", "<PAD>", NULL},
        {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", NULL},
        {"<|file_sep|>", NULL},
    };
    /* master (for the names only it knows) looks for more texts */
    static const char *const EOT_MASTER[] = {"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
                                             "<|end_of_text|>", "<EOT>", "_<EOT>", "[EOT]", "<｜end▁of▁sentence｜>",
                                             "<end_of_utterance>", NULL};
    slot_by_text(t, set[0], t->pre_master ? EOT_MASTER : EOT);
    slot_by_text(t, set[1], EOM);
    for (int i = 0; i < 6; i++) slot_by_text(t, set[2 + i], FIM[i]);
    for (const char *const *e = t->pre_master ? EOG_TEXTS_MASTER : EOG_TEXTS; *e; e++)
        mark_control(t, lgg__tok_map_get(&t->text_to_id, *e, strlen(*e)));
    /* the special tokens, longest first (llama.cpp's sort leaves ties to its
     * introsort; here shorter ids first) */
    if (!(t->special = malloc(((size_t)t->n + 1) * sizeof *t->special))) return nomem(err);
    for (int32_t i = 0; i < t->n; i++)
        if (t->tok[i].attr & (TOK_ATTR_CONTROL | TOK_ATTR_USER_DEFINED | TOK_ATTR_UNKNOWN)) t->special[t->n_special++] = i;
    qsort_r(t->special, (size_t)t->n_special, sizeof *t->special, by_length_desc, t);
    lgg_status st2 = build_pieces(t, err);
    if (st2) return st2;
    return attrs_by_name(t, f, err);
}

lgg_status lgg_tokenizer_open_gguf(const lgg_file *f, lgg_tokenizer **out, lgg_error *err) {
    if (!f || !out) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenizer_open_gguf: NULL argument");
    *out = NULL;
    lgg_tokenizer *t = calloc(1, sizeof *t);
    if (!t) return nomem(err);
    lgg_status st = load(t, f, err);
    if (st) {
        lgg_tokenizer_free(t);
        return st;
    }
    *out = t;
    return LGG_OK;
}

void lgg_tokenizer_free(lgg_tokenizer *t) {
    if (!t) return;
    free(t->tok);
    free(t->arena);
    lgg__tok_map_free(&t->text_to_id);
    lgg__tok_map_free(&t->merges);
    free(t->merge_arena);
    free(t->piece_arena);
    free(t->piece);
    free(t->piece_len);
    free(t->special);
    lgg__tok_splitter_free(t->splitter);
    lgg__tok_hf_free(t->hf);
    free(t->charsmap);
    lgg__tok_trie_free(&t->ugm_tokens);
    lgg__tok_trie_free(&t->ugm_user);
    lgg__tok_trie_free(&t->rwkv);
    free(t);
}

const char *lgg_token_piece(const lgg_tokenizer *t, int32_t id, size_t *len) {
    if (!t || id < 0 || id >= t->n) return NULL;
    if (len) *len = t->piece_len[id];
    return t->piece[id];
}

const char *lgg_token_text(const lgg_tokenizer *t, int32_t id, size_t *len) {
    if (!t || id < 0 || id >= t->n) return NULL;
    if (len) *len = t->tok[id].len;
    return t->tok[id].text;
}

/* t's pieces once tok_hf has loaded it (or its status, t freed) */
static lgg_status finish_hf(lgg_tokenizer *t, lgg_status st, lgg_tokenizer **out, lgg_error *err) {
    if (!st) st = build_pieces(t, err);
    if (st) {
        lgg_tokenizer_free(t);
        return st;
    }
    *out = t;
    return LGG_OK;
}

lgg_status lgg_tokenizer_open_json(const char *json, size_t len, const char *config, size_t config_len,
                                   lgg_tokenizer **out, lgg_error *err) {
    if (!json || !out) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenizer_open_json: NULL argument");
    *out = NULL;
    lgg_tokenizer *t = calloc(1, sizeof *t);
    if (!t) return nomem(err);
    return finish_hf(t, lgg__tok_hf_load(t, json, len, config, config_len, err), out, err);
}

lgg_status lgg_tokenizer_open_jansson(const struct json_t *root, const char *config, size_t config_len,
                                      lgg_tokenizer **out, lgg_error *err) {
    if (!root || !out) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenizer_open_jansson: NULL argument");
    *out = NULL;
    lgg_tokenizer *t = calloc(1, sizeof *t);
    if (!t) return nomem(err);
    /* read only: the reference taken here is the one the loader releases */
    json_t *r = json_incref((json_t *)root);
    return finish_hf(t, lgg__tok_hf_load_root(t, r, config, config_len, err), out, err);
}

lgg_vocab_type lgg_tokenizer_type(const lgg_tokenizer *t) { return t ? t->type : (lgg_vocab_type)0; }
int32_t lgg_tokenizer_n_tokens(const lgg_tokenizer *t) { return t ? t->n : 0; }
int32_t lgg_tokenizer_bos(const lgg_tokenizer *t) { return t ? t->bos : -1; }
int32_t lgg_tokenizer_eos(const lgg_tokenizer *t) { return t ? t->eos : -1; }
bool lgg_tokenizer_add_bos(const lgg_tokenizer *t) { return t && t->add_bos; }
bool lgg_tokenizer_add_eos(const lgg_tokenizer *t) { return t && t->add_eos; }
const char *lgg_tokenizer_pre(const lgg_tokenizer *t) { return t ? t->pre_name : NULL; }
