/* libgguf_tokenize.h -- the tokenizer part of libgguf: text to token ids and
 * back, as the model does it.
 *
 * A tokenizer opened from a GGUF file gives the ids llama.cpp b4747's
 * llama_tokenize gives for that file's vocabulary (tokenizer.ggml.*): the
 * SPM, BPE (every pre-tokenizer type of b4747, with its regular expressions
 * and special cases), WPM, UGM (with the precompiled charsmap) and RWKV
 * vocabularies, special-token parsing and the file's add_bos/add_eos.  One
 * opened from a checkpoint folder gives the ids Hugging Face's transformers
 * gives (lgg_tokenizer_open_dir).
 *
 * This part lives in its own library, libgguf-tokenize.a, because it uses
 * Oniguruma (regular expressions) and utf8proc (Unicode categories and
 * normalization), and jansson for tokenizer.json.  It uses only libgguf's
 * public API.  Link order: -lgguf-tokenize -lgguf -lc -lonig -lutf8proc
 * -ljansson -lpthread; -lc comes before -lonig because libonig.so also
 * exports POSIX regcomp/regexec/regfree with its own regex_t, which would
 * otherwise replace glibc's in the whole program.
 *
 * Threads: a tokenizer is immutable after it is opened; every call below
 * may run on any number of threads at once on the same tokenizer.  The
 * functions never print, abort or exit. */
#ifndef LIBGGUF_TOKENIZE_H
#define LIBGGUF_TOKENIZE_H

#include "libgguf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lgg_tokenizer lgg_tokenizer;

/* Vocabulary types, as llama.cpp names them. */
typedef enum lgg_vocab_type {
    LGG_VOCAB_SPM = 1,  /* tokenizer.ggml.model "llama": SentencePiece BPE with byte fallback */
    LGG_VOCAB_BPE = 2,  /* "gpt2": byte-level BPE with a pre-tokenizer (tokenizer.ggml.pre) */
    LGG_VOCAB_WPM = 3,  /* "bert": WordPiece */
    LGG_VOCAB_UGM = 4,  /* "t5": Unigram with the precompiled charsmap */
    LGG_VOCAB_RWKV = 5  /* "rwkv": greedy longest match over escaped byte strings */
} lgg_vocab_type;

/* Open the tokenizer of a GGUF file's vocabulary.  Everything it needs is
 * copied: the file may be closed afterwards.
 * Errors (in err, naming the key at fault): LGG_ERR_ARG (NULL argument),
 * LGG_ERR_NOT_FOUND (no tokenizer.ggml.model or tokenizer.ggml.tokens, a BPE
 * vocabulary without tokenizer.ggml.merges), LGG_ERR_UNSUPPORTED (a
 * tokenizer.ggml.model or tokenizer.ggml.pre llama.cpp b4747 does not know,
 * or "no_vocab"), LGG_ERR_TYPE (a key of the wrong type), LGG_ERR_INVALID
 * (score/type arrays whose length is not the token count, a malformed
 * precompiled charsmap), LGG_ERR_LIMIT (more than 2^31-1 tokens),
 * LGG_ERR_NOMEM.  Free *out with lgg_tokenizer_free. */
LGG_API lgg_status lgg_tokenizer_open_gguf(const lgg_file *f, lgg_tokenizer **out, lgg_error *err);

/* Open a Hugging Face checkpoint folder's tokenizer: DIR/tokenizer.json,
 * with DIR/tokenizer_config.json's rules as transformers' AutoTokenizer
 * applies them (LlamaTokenizerFast and GemmaTokenizerFast put BOS, when
 * add_bos_token (default true), and EOS, when add_eos_token, around the
 * text in place of the file's post-processor), unless flags has
 * LGG_TOKENIZER_JSON_ONLY (then the tokenizers library's answer for the
 * file alone).  Supported: the BPE model (byte fallback, ignore_merges,
 * merges as "a b" or [a, b]); normalizers NFC, NFD, NFKC, NFKD, Lowercase,
 * Replace, Prepend, Strip, StripAccents, BertNormalizer, Sequence;
 * pre-tokenizers Split (string or regex, every behavior, invert), ByteLevel,
 * Metaspace, Whitespace, WhitespaceSplit, Digits, Punctuation, BertPreTokenizer,
 * Sequence; post-processors
 * TemplateProcessing, ByteLevel, BertProcessing, RobertaProcessing,
 * Sequence; decoders ByteLevel, Replace, ByteFallback, Fuse, Strip,
 * Sequence; added tokens with lstrip, rstrip, normalized, single_word and
 * special.  Anything else is refused by name (LGG_ERR_UNSUPPORTED) with its
 * JSON path.  Errors: LGG_ERR_NOT_FOUND (no tokenizer.json), LGG_ERR_IO,
 * LGG_ERR_INVALID (malformed JSON: the byte offset; a bad entry: its JSON
 * path), LGG_ERR_UNSUPPORTED, LGG_ERR_NOMEM.
 * A folder with no tokenizer.json but a SentencePiece tokenizer.model gives
 * what sentencepiece's encode gives for it, with transformers'
 * LlamaTokenizer's BOS (add_bos_token, default true), EOS (add_eos_token,
 * default false) and legacy (false: no space prefix after special tokens):
 * a BPE model with the identity normalizer through llama.cpp's SPM
 * algorithm, a Unigram model (with its precompiled charsmap) through its UGM
 * one; other model types and normalizers are LGG_ERR_UNSUPPORTED, a
 * malformed model LGG_ERR_INVALID with the byte offset. */
#define LGG_TOKENIZER_JSON_ONLY 1u
/* The largest files lgg_tokenizer_open_dir reads (a larger one is
 * LGG_ERR_LIMIT, naming it): tokenizer.json as the converter bounds it
 * (jansson holds about 30 times a file's size), tokenizer_config.json, and
 * tokenizer.model (real ones hold a few MB). */
#define LGG_TOKENIZER_MAX_JSON ((size_t)128 << 20)
#define LGG_TOKENIZER_MAX_CONFIG ((size_t)64 << 20)
#define LGG_TOKENIZER_MAX_MODEL ((size_t)64 << 20)
LGG_API lgg_status lgg_tokenizer_open_dir(const char *dir, unsigned flags, lgg_tokenizer **out, lgg_error *err);

/* The same from memory: tokenizer.json's `len` bytes and, when `config` is
 * not NULL, tokenizer_config.json's `config_len` bytes (both copied). */
LGG_API lgg_status lgg_tokenizer_open_json(const char *json, size_t len, const char *config, size_t config_len,
                                           lgg_tokenizer **out, lgg_error *err);

/* The same from a tokenizer.json the caller has already parsed with jansson
 * (json_loadb with flags 0 or JSON_ALLOW_NUL: with JSON_DECODE_INT_AS_REAL
 * the ids would be reals, and are refused), so that a program that reads the
 * file itself does not parse it twice: a large vocabulary's JSON takes half
 * a second.  `root` is only read and stays the caller's; `config` is
 * tokenizer_config.json's text, as above. */
struct json_t;
LGG_API lgg_status lgg_tokenizer_open_jansson(const struct json_t *root, const char *config, size_t config_len,
                                              lgg_tokenizer **out, lgg_error *err);

/* NULL is a no-op. */
LGG_API void lgg_tokenizer_free(lgg_tokenizer *t);

/* Flags of lgg_tokenize. */
#define LGG_TOKENIZE_ADD_SPECIAL 1u   /* add BOS/EOS as the vocabulary asks (llama.cpp's add_special) */
#define LGG_TOKENIZE_PARSE_SPECIAL 2u /* control and unknown tokens' texts become those tokens
                                         (user-defined tokens always do) */

/* Tokenize `len` bytes of `text` (any bytes; NUL is a byte like any other).
 * Stores up to `cap` ids in `ids` (which may be NULL when cap is 0) and
 * returns how many ids the text gives: when that exceeds cap, call again with
 * a larger array.  A negative return is -(lgg_status): -LGG_ERR_ARG (NULL
 * tokenizer, NULL text with len > 0), -LGG_ERR_NOMEM, -LGG_ERR_INVALID (the
 * text holds a sequence llama.cpp cannot take: a 4-byte UTF-8 form above
 * U+10FFFF, on which it throws; or an SPM/UGM byte with no byte token),
 * -LGG_ERR_LIMIT (a tokenizer.json's Split or Replace regex backtracked past
 * its budget on this text: 2^20 steps and 256 a byte it runs over).  When
 * `err` is not NULL it receives the message and, for invalid text, the byte
 * offset in `text`. */
LGG_API int64_t lgg_tokenize(const lgg_tokenizer *t, const char *text, size_t len, unsigned flags, int32_t *ids,
                             size_t cap, lgg_error *err);

/* Streaming: the ids of a text of any length, with memory bounded by the
 * chunk size rather than the text (GGUF vocabularies of type SPM, BPE, WPM
 * and RWKV).  The text is buffered and cut only where the whole-text call
 * provably gives the same ids on both sides (between lines and words of
 * ordinary text; docs/tokenize.md says where for each type), so the ids
 * handed to the sink, concatenated, are exactly lgg_tokenize's for the whole
 * text with the same flags.  A stretch of text with no such point is held
 * until one comes; UGM vocabularies and tokenizer.json tokenizers have no
 * cut points and are held whole (their ids come at finish).
 *
 * The sink receives each piece's ids (the array is the stream's, valid
 * during the call); a non-zero return stops the stream: the feed or finish
 * call returns LGG_ERR_IO. */
typedef struct lgg_tokenize_stream lgg_tokenize_stream;
typedef int (*lgg_token_sink)(void *user, const int32_t *ids, size_t n);

/* Start a stream over t (which must outlive it) with lgg_tokenize's flags;
 * chunk: the bytes to gather before looking for a cut (0: 1 MiB; any value
 * works, small ones make many cuts).  Errors: LGG_ERR_ARG (NULL t, sink or
 * out), LGG_ERR_NOMEM.  Free *out with lgg_tokenize_stream_free. */
LGG_API lgg_status lgg_tokenize_stream_new(const lgg_tokenizer *t, unsigned flags, size_t chunk, lgg_token_sink sink,
                                           void *user, lgg_tokenize_stream **out, lgg_error *err);
/* Add len bytes of text (copied); ids before the last safe cut go to the
 * sink.  Errors: as lgg_tokenize's (LGG_ERR_INVALID with the byte offset in
 * the whole text), LGG_ERR_IO (the sink stopped), LGG_ERR_ARG (NULL
 * arguments, or a stream that failed or finished before).  After an error
 * the stream takes nothing more. */
LGG_API lgg_status lgg_tokenize_stream_feed(lgg_tokenize_stream *s, const char *text, size_t len, lgg_error *err);
/* The end of the text: the remaining ids (and EOS) go to the sink.  Errors as
 * feed's. */
LGG_API lgg_status lgg_tokenize_stream_finish(lgg_tokenize_stream *s, lgg_error *err);
/* NULL is a no-op. */
LGG_API void lgg_tokenize_stream_free(lgg_tokenize_stream *s);

/* Flags of lgg_detokenize. */
#define LGG_DETOKENIZE_REMOVE_SPECIAL 1u  /* drop a leading BOS / trailing EOS the vocabulary adds */
#define LGG_DETOKENIZE_UNPARSE_SPECIAL 2u /* control and unknown tokens give their text (else nothing) */

/* The text `n` ids give (llama.cpp's llama_detokenize), into buf (up to cap
 * bytes, not NUL-terminated).  Returns the bytes the text needs (call again
 * with a larger buffer when that exceeds cap), or -LGG_ERR_ARG (NULL
 * arguments) or -LGG_ERR_RANGE (an id outside the vocabulary; err says
 * which). */
LGG_API int64_t lgg_detokenize(const lgg_tokenizer *t, const int32_t *ids, size_t n, unsigned flags, char *buf,
                               size_t cap, lgg_error *err);

/* The piece of one id: the bytes it stands for in text (llama.cpp's
 * token_to_piece with special = true: control tokens give their text, byte
 * tokens their byte).  Returns a pointer into the tokenizer (valid until it
 * is freed; not NUL-terminated) and stores its length in *len; NULL for an
 * id outside the vocabulary. */
LGG_API const char *lgg_token_piece(const lgg_tokenizer *t, int32_t id, size_t *len);

/* The token's text as the vocabulary stores it (tokenizer.ggml.tokens[id]),
 * NULL for an id outside the vocabulary. */
LGG_API const char *lgg_token_text(const lgg_tokenizer *t, int32_t id, size_t *len);

/* The vocabulary: its type, its size, its BOS and EOS ids (-1 when none),
 * whether lgg_tokenize adds them with LGG_TOKENIZE_ADD_SPECIAL, and the name
 * of its pre-tokenizer as llama.cpp spells tokenizer.ggml.pre ("default" for
 * non-BPE vocabularies). */
LGG_API lgg_vocab_type lgg_tokenizer_type(const lgg_tokenizer *t);
LGG_API int32_t lgg_tokenizer_n_tokens(const lgg_tokenizer *t);
LGG_API int32_t lgg_tokenizer_bos(const lgg_tokenizer *t);
LGG_API int32_t lgg_tokenizer_eos(const lgg_tokenizer *t);
LGG_API bool lgg_tokenizer_add_bos(const lgg_tokenizer *t);
LGG_API bool lgg_tokenizer_add_eos(const lgg_tokenizer *t);
LGG_API const char *lgg_tokenizer_pre(const lgg_tokenizer *t);

/* The i-th tokenizer.ggml.pre name llama.cpp knows (every spelling: b4747's
 * 42, "default", "llama3", "llama-bpe", ..., in its order, then the 44 only
 * master 3f545becc knows, "minicpm5", ..., "mellum2", "gemma4", ..., "sarvam-moe"), from i = 0 until it
 * returns NULL: a pointer to static text (not NUL-terminated) whose length
 * is stored in *len (when len is not NULL).  A BPE vocabulary with another
 * name does not open.  Thread-safe. */
LGG_API const char *lgg_tokenizer_pre_name(size_t i, size_t *len);


/* ======================================================================== */
/* SentencePiece models (tokenizer.model)                                    */
/* ======================================================================== */

/* The one reader of a serialized SentencePiece ModelProto, for this part
 * (lgg_tokenizer_open_dir) and for the converter (libgguf-convert): only
 * the protobuf wire format is decoded, on a bounded cursor, without
 * protobuf's library.  A piece as the reference converter sees it: `type`
 * is 1 normal, 2 unknown, 3 control, 5 unused, 6 byte (user-defined pieces
 * count as normal, as SentencePieceProcessor's Is* queries report them);
 * `proto_type` is the type as the model stores it (4 for user-defined). */
typedef struct lgg_spm_piece {
    lgg_str piece;
    float score;
    int32_t type;
    int32_t proto_type;
} lgg_spm_piece;

/* The model's trainer_spec and normalizer_spec fields a vocabulary needs,
 * with the proto's defaults where a field is absent.  Strings and the
 * charsmap point into the caller's buffer. */
typedef struct lgg_spm_specs {
    int32_t model_type;     /* trainer_spec.model_type: 1 UNIGRAM (default), 2 BPE, 3 WORD, 4 CHAR */
    int32_t unk_id, bos_id, eos_id; /* trainer_spec's (defaults 0, 1, 2; -1: none) */
    bool byte_fallback, treat_whitespace_as_suffix; /* trainer_spec's (default false) */
    lgg_str bos_piece, eos_piece; /* trainer_spec's, else "<s>" and "</s>" */
    lgg_str normalizer_name;      /* normalizer_spec.name ("" when absent) */
    const uint8_t *charsmap;      /* normalizer_spec.precompiled_charsmap, or NULL */
    size_t charsmap_len;
    bool add_dummy_prefix, remove_extra_whitespaces, escape_whitespaces; /* normalizer_spec's (default true) */
} lgg_spm_specs;

typedef struct lgg_spm lgg_spm;

/* Read the pieces (field 1; fields 1-3 of each) and the specs (fields 2
 * and 3) of a serialized ModelProto (`data` must outlive the handle);
 * every other field is skipped by its wire type.  Errors: LGG_ERR_ARG,
 * LGG_ERR_NOMEM, LGG_ERR_TRUNCATED (a length or varint past the end),
 * LGG_ERR_INVALID (bad wire type, piece type outside 1-6, no pieces),
 * LGG_ERR_LIMIT (more than 2^31-1 pieces).  Free with lgg_spm_free. */
LGG_API lgg_status lgg_spm_parse(const void *data, size_t size, lgg_spm **out, lgg_error *err);
LGG_API void lgg_spm_free(lgg_spm *s); /* NULL is a no-op */
LGG_API size_t lgg_spm_count(const lgg_spm *s);
LGG_API const lgg_spm_piece *lgg_spm_at(const lgg_spm *s, size_t i); /* NULL past the end */
LGG_API const lgg_spm_specs *lgg_spm_get_specs(const lgg_spm *s); /* NULL for NULL */

#ifdef __cplusplus
}
#endif

#endif
