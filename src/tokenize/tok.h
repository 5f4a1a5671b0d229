/* tok.h -- what the tokenizer part's files share (internal). */
#ifndef LGG_TOK_H
#define LGG_TOK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "libgguf_tokenize.h"

/* Token attributes, as llama.cpp derives them from tokenizer.ggml.token_type. */
enum {
    TOK_ATTR_UNDEFINED = 0,
    TOK_ATTR_UNKNOWN = 1 << 0,
    TOK_ATTR_UNUSED = 1 << 1,
    TOK_ATTR_NORMAL = 1 << 2,
    TOK_ATTR_CONTROL = 1 << 3,
    TOK_ATTR_USER_DEFINED = 1 << 4,
    TOK_ATTR_BYTE = 1 << 5,
    TOK_ATTR_LSTRIP = 1 << 7,
    TOK_ATTR_RSTRIP = 1 << 8,
};

/* ---- growable arrays (tok_util.c) ---- */
/* make room for `need` elements of `elem` bytes in *p (capacity *cap, doubled); 0 ok, -1 no memory */
int lgg__tok_grow(void **p, size_t *cap, size_t need, size_t elem);
typedef struct tok_buf {
    char *p;
    size_t n, cap;
} tok_buf;
int lgg__tok_buf_put(tok_buf *b, const void *p, size_t n); /* 0 ok, -1 no memory */
void lgg__tok_buf_free(tok_buf *b);

typedef struct tok_ids {
    int32_t *p;
    size_t n, cap;
} tok_ids;
int lgg__tok_ids_push(tok_ids *v, int32_t id);
void lgg__tok_ids_free(tok_ids *v);

/* ---- string -> int32 hash map, open addressing; keys point into memory the
 * owner keeps alive ---- */
typedef struct tok_map_slot {
    const char *key;
    uint32_t len;
    int32_t val;
} tok_map_slot;
/* Keyed (lgg_hash_keyed, the key drawn when the first slots are made): a
 * vocabulary cannot choose tokens that share a run of slots. */
typedef struct tok_map {
    tok_map_slot *slots;
    size_t mask, n;
    uint64_t key[2];
} tok_map;
/* Insert (0), or find the key there already (1) and overwrite its value when
 * replace != 0; -1 no memory. */
int lgg__tok_map_put(tok_map *m, const char *key, size_t len, int32_t val, int replace);
/* The value, or -1. */
int32_t lgg__tok_map_get(const tok_map *m, const char *key, size_t len);
void lgg__tok_map_free(tok_map *m);

/* ---- byte trie (UGM, RWKV): node 0 is the root; children in sibling
 * lists, the root's in a direct table ---- */
typedef struct tok_trie_node {
    uint32_t child, sibling;
    int32_t value; /* -1: no token ends here */
    uint8_t byte;
} tok_trie_node;
typedef struct tok_trie {
    tok_trie_node *nodes;
    uint32_t n, cap;
    uint32_t root[256];
} tok_trie;
/* Insert (a later value for the same key replaces the earlier). 0 ok, -1 no memory. */
int lgg__tok_trie_add(tok_trie *t, const char *key, size_t len, int32_t value);
/* The child of node by byte c, or 0 when there is none. */
uint32_t lgg__tok_trie_next(const tok_trie *t, uint32_t node, uint8_t c);
void lgg__tok_trie_free(tok_trie *t);

/* ---- Unicode (tok_unicode.c) ---- */
enum {
    CPT_UNDEFINED = 0x0001,
    CPT_NUMBER = 0x0002,
    CPT_LETTER = 0x0004,
    CPT_SEPARATOR = 0x0008,
    CPT_MARK = 0x0010,
    CPT_PUNCT = 0x0020,
    CPT_SYMBOL = 0x0040,
    CPT_CONTROL = 0x0080,
    CPT_CATEGORIES = 0x00FF,
    CPT_WHITESPACE = 0x0100,
};
/* llama.cpp's flags of a code point (its category, from utf8proc, and the
 * White_Space property); CPT_UNDEFINED past U+10FFFF. */
unsigned lgg__tok_cpt_flags(uint32_t cpt);
uint32_t lgg__tok_cpt_lower(uint32_t cpt);
uint32_t lgg__tok_cpt_nfd_first(uint32_t cpt);
/* Bytes of a UTF-8 sequence from its first byte, as llama.cpp's table says
 * (1 for continuation bytes). */
size_t lgg__tok_utf8_len(uint8_t c);
/* llama.cpp's decoder: the code point at p[*pos], advancing *pos; an invalid
 * sequence consumes one byte and gives U+FFFD.  No range checks beyond the
 * sequence shape (so values above U+10FFFF come out of F5..F7 leads). */
uint32_t lgg__tok_utf8_decode(const char *p, size_t n, size_t *pos);
/* Append cpt as UTF-8; -1 when cpt > U+10FFFF (llama.cpp throws there). */
int lgg__tok_utf8_put(tok_buf *b, uint32_t cpt);
/* GPT-2's byte <-> printable code point map. */
uint32_t lgg__tok_byte_to_cpt(uint8_t b);
int lgg__tok_cpt_to_byte(uint32_t cpt); /* -1 when not one of the 256 */

/* RWKV: unescape n bytes of s into out (at most n bytes); the length */
size_t lgg__tok_rwkv_unescape(const char *s, size_t n, char *out);

/* ---- pre-tokenizer (lgg__tok_split.c) ---- */
/* GPT-2's and Llama 3's expressions, which llama.cpp matches by hand */
extern const char lgg__tok_re_gpt2[], lgg__tok_re_llama3[];
typedef struct tok_splitter tok_splitter;
/* Build the splitter for a list of llama.cpp regex strings (NULL-terminated),
 * run as b4747 runs them, or (master != 0) as llama.cpp master does. */
lgg_status lgg__tok_splitter_new(const char *const *exprs, int master, tok_splitter **out, lgg_error *err);
void lgg__tok_splitter_free(tok_splitter *s);
/* Split code points cpts[0..n) into words; stores each word's code point
 * count in *lens (malloc'd, *n_lens entries).  0 ok, -1 no memory. */
int lgg__tok_split(const tok_splitter *s, const uint32_t *cpts, size_t n, size_t **lens, size_t *n_lens);

/* ---- the tokenizer ---- */
typedef struct tok_token {
    const char *text; /* into the arena, NUL-terminated */
    uint32_t len;
    float score;
    uint32_t attr;
} tok_token;

struct lgg_tokenizer {
    lgg_vocab_type type;
    int pre;                  /* index into the pre-tokenizer table (tok_vocab.c) */
    int pre_master;           /* a name only llama.cpp master knows: master's engine, no stream cuts */
    char pre_name[48];
    int32_t n;
    tok_token *tok;
    char *arena;              /* token texts */
    tok_map text_to_id;       /* later duplicates win, as in llama.cpp */
    tok_map merges;           /* "left right" -> rank (first one wins) */
    char *merge_arena;
    char *piece_arena;        /* token_to_piece(special = true) of every id */
    const char **piece;
    uint32_t *piece_len;
    int32_t *special;         /* control, user-defined and unknown ids, longest text first */
    int32_t n_special;
    int max_token_len;
    int32_t bos, eos, unk, sep, pad;
    int add_space_prefix, add_bos, add_eos, ignore_merges, clean_spaces;
    int remove_extra_ws, escape_ws, ws_suffix;
    int raw_bpe;              /* master's SPM-style BPE (gemma4, sarvam-moe): spaces escaped as U+2581, words
                                 merged on raw UTF-8, byte fallback and detokenizing through <0xXX> tokens */
    int nl_words;             /* gemma4's: a word of newlines is one token when the vocabulary has it */
    int spm_legacy_off;       /* transformers' LlamaTokenizer with legacy false: SPM's space prefix
                                 only at the text's start, not after special tokens */
    tok_splitter *splitter;   /* BPE */
    /* UGM */
    char *charsmap;
    size_t charsmap_size;
    const uint32_t *xcda;     /* into charsmap (aligned copy) */
    size_t xcda_n;
    const char *repl;
    size_t repl_n;
    tok_trie ugm_tokens, ugm_user;
    float ugm_unk_score;      /* float: the reference adds it in float */
    /* RWKV */
    tok_trie rwkv;
    /* a Hugging Face tokenizer.json (tok_hf.c), or NULL for a GGUF vocabulary */
    struct tok_hf *hf;
};

/* ---- Hugging Face (tok_hf.c) ---- */
/* Load tokenizer.json (and tokenizer_config.json's rules when config is not
 * NULL) into t: tokens, text_to_id and t->hf. */
lgg_status lgg__tok_hf_load(lgg_tokenizer *t, const char *json, size_t len, const char *config, size_t config_len,
                            lgg_error *err);
/* The same from tokenizer.json already parsed: takes over one reference to
 * root (released before it returns) and only reads it. */
lgg_status lgg__tok_hf_load_root(lgg_tokenizer *t, struct json_t *root, const char *config, size_t config_len,
                                 lgg_error *err);
void lgg__tok_hf_free(struct tok_hf *h);
/* encode (add_special: the post-processor's tokens; parse_special: special
 * added tokens split out); 0 ok, else minus the status set in err (no
 * memory; LGG_ERR_LIMIT: a regex backtracked past its bound) */
int lgg__tok_hf_encode(const lgg_tokenizer *t, const char *text, size_t len, int add_special, int parse_special,
                       tok_ids *out, lgg_error *err);
/* the decoder chain over the ids' texts (skip_special: leave special added
 * tokens out); 0 ok, -1 no memory */
int lgg__tok_hf_decode(const lgg_tokenizer *t, const int32_t *ids, size_t n, int skip_special, tok_buf *out);

/* ---- Hugging Face models and the Precompiled normalizer (tok_hf_models.c) ---- */
typedef struct tok_wordpiece {
    const tok_map *vocab; /* model.vocab only */
    const char *prefix;   /* continuing_subword_prefix */
    size_t prefix_n, max_chars;
    size_t max_len;       /* the longest token's bytes */
    int32_t unk;          /* checked at load: in the vocabulary */
} tok_wordpiece;
int lgg__tok_wordpiece(const tok_wordpiece *w, const char *s, size_t n, tok_ids *out);
typedef struct tok_unigram {
    const tok_map *vocab; /* piece -> id, a later duplicate winning */
    tok_trie trie;        /* every piece */
    double *score, min_score;
    int32_t unk;          /* required at load */
    int byte_fallback;
} tok_unigram;
/* 0 ok, -1 no memory */
int lgg__tok_unigram(const tok_unigram *u, const char *s, size_t n, tok_ids *out);
typedef struct tok_charsmap {
    uint32_t *units;      /* the double array */
    size_t n_units;
    const char *norm;     /* into the caller's bytes */
    size_t norm_n;
} tok_charsmap;
/* 0 ok, -1 too short or no memory, -2 strings not UTF-8 */
int lgg__tok_charsmap_parse(const uint8_t *b, size_t n, tok_charsmap *m);
int lgg__tok_precompiled(const tok_charsmap *m, const char *s, size_t n, tok_buf *out);
int lgg__tok_base64(const char *s, size_t n, tok_buf *out);
int lgg__tok_wp_cleanup(tok_buf *b);

/* The ids of one piece of a text into out (tok_encode.c): the special
 * tokens split out, BOS (when `first`) and EOS/SEP (when `last`) as flags ask,
 * SPM's space prefix on the first text fragment only when !cont (the piece
 * starts a text rather than continuing one cut in the middle); base is the
 * piece's offset in the whole text, for error offsets.  GGUF vocabularies
 * only.  0 ok, else -(lgg_status) with err set. */
int lgg__tok_encode_piece(const lgg_tokenizer *t, const char *text, size_t len, size_t base, unsigned flags,
                          int first, int last, int cont, tok_ids *out, lgg_error *err);

/* token_to_piece(special = true) into b */
int lgg__tok_piece_for_cache(const lgg_tokenizer *t, int32_t id, tok_buf *b);

#endif
