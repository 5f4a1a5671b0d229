/* libgguf_convert.h -- the converter part of libgguf: Hugging Face checkpoints
 * (config.json, safetensors, SentencePiece / tokenizer.json vocabularies) to
 * GGUF, with the bytes llama.cpp's convert_hf_to_gguf.py (b4747) writes.
 *
 * This part lives in its own library, libgguf-convert.a, because it reads
 * JSON with jansson: a program that embeds only the reader and writer
 * (libgguf.a) links nothing new.  Link order: -lgguf-convert -lgguf -ljansson
 * -lpthread -lm (pkg-config libgguf-convert).
 *
 * Every input is untrusted: lengths, offsets and counts are checked against
 * the real file size before use.  Errors come back in an lgg_error whose
 * message names the file and the tensor or key at fault.  The functions
 * never print, abort or exit. */
#ifndef LIBGGUF_CONVERT_H
#define LIBGGUF_CONVERT_H

#include "libgguf.h"
#include "libgguf_tokenize.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* safetensors                                                               */
/* ======================================================================== */

/* One tensor of a safetensors file.  `dtype` is the lgg_type of the data
 * (LGG_TYPE_F32, LGG_TYPE_F16 or LGG_TYPE_BF16; LGG_TYPE_I8 for U8 and BOOL
 * bytes; LGG_ST_F8_E4M3 for float8 e4m3fn, which has no ggml type; other
 * dtypes are refused);
 * `shape` in the file's (row-major, outermost first) order; `offset` is the
 * absolute byte offset of the data in the file and `size` its length. */
#define LGG_ST_MAX_DIMS 8
#define LGG_ST_F8_E4M3 0x10000u /* a safetensors dtype outside the lgg_type ids */
typedef struct lgg_st_tensor {
    lgg_str name;
    uint32_t dtype;
    uint32_t n_dims;
    uint64_t shape[LGG_ST_MAX_DIMS];
    uint64_t offset, size;
} lgg_st_tensor;

typedef struct lgg_safetensors lgg_safetensors;

/* Parse a whole safetensors file held in memory (`data`, `size` bytes; the
 * memory must outlive the handle).  Checks: the 8-byte header length against
 * the file, the header as a JSON object, every entry's dtype, shape and
 * data_offsets, dtype size x element count == byte length (overflow-safe),
 * offsets inside the data section and no two tensors overlapping.
 * `label` (may be NULL) names the file in error messages.
 * Errors: LGG_ERR_ARG, LGG_ERR_NOMEM, LGG_ERR_TRUNCATED (header length beyond
 * the file), LGG_ERR_INVALID (malformed JSON or entry, size mismatch),
 * LGG_ERR_UNSUPPORTED (unknown dtype), LGG_ERR_TENSOR_BOUNDS,
 * LGG_ERR_TENSOR_OVERLAP, LGG_ERR_TENSOR_DUP, LGG_ERR_LIMIT (more than 8
 * dimensions).  Free with lgg_st_close. */
LGG_API lgg_status lgg_st_parse(const void *data, uint64_t size, const char *label, lgg_safetensors **out,
                                lgg_error *err);
/* Open and memory-map `path`, then parse it as lgg_st_parse does (the mapping
 * is released by lgg_st_close).  Errors: LGG_ERR_IO and those of lgg_st_parse. */
LGG_API lgg_status lgg_st_open(const char *path, lgg_safetensors **out, lgg_error *err);
LGG_API void lgg_st_close(lgg_safetensors *s); /* NULL is a no-op */
/* Tensors sorted by name (byte order, as the reference converter reads them). */
LGG_API size_t lgg_st_count(const lgg_safetensors *s);
LGG_API const lgg_st_tensor *lgg_st_at(const lgg_safetensors *s, size_t i); /* NULL past the end */
/* The file's bytes (the tensor offsets index into them). */
LGG_API const uint8_t *lgg_st_bytes(const lgg_safetensors *s);

/* SentencePiece models (tokenizer.model): lgg_spm_parse and the rest are
 * libgguf-tokenize's (libgguf_tokenize.h), the one reader both parts use. */

/* ======================================================================== */
/* Conversion                                                                */
/* ======================================================================== */

/* Output types of --outtype: the reference converter's. */
typedef enum lgg_convert_outtype {
    LGG_CONVERT_F32 = 0,
    LGG_CONVERT_F16 = 1,
    LGG_CONVERT_BF16 = 2,
    LGG_CONVERT_Q8_0 = 3,
    LGG_CONVERT_AUTO = 4, /* f16 if the first tensor is f16, else bf16 */
    LGG_CONVERT_TQ1_0 = 5, /* ternary, as the reference's tq1_0: matrices whose rows are a multiple of
                              256 (else f16); token_embd and output f16 */
    LGG_CONVERT_TQ2_0 = 6  /* the same with TQ2_0 */
} lgg_convert_outtype;

/* Where lgg_convert_open reads a checkpoint that is not a local folder (a
 * repository on a server, say): the caller lists the folder's files and
 * reads their bytes.  The converter asks for config.json, the tokenizer
 * files and README.md whole, the safetensors headers by range, then the
 * tensor data in ranges of LGG_CONVERT_IO_CHUNK bytes or more, in the
 * order the output needs it (the files' order for a checkpoint saved by
 * the safetensors library): each byte about once.  All calls come from the
 * thread that called lgg_convert_open or the write function, one at a time.
 * The callbacks' strings and errors are the caller's; the converter only
 * passes an error on (its message should name the file). */
typedef struct lgg_convert_io {
    size_t size; /* sizeof(lgg_convert_io), or 0 (see lgg_open_options in libgguf.h) */
    void *ud;
    /* File i of the folder (a name without '/'; its size in *size), for i
     * from 0 until NULL.  The names must stay valid until lgg_convert_free. */
    const char *(*file_at)(void *ud, size_t i, uint64_t *size);
    /* Exactly n bytes of file `name` (one file_at gave) at `offset` into dst
     * (offset + n <= its size); LGG_OK, or an error set in err. */
    lgg_status (*read)(void *ud, const char *name, uint64_t offset, void *dst, size_t n, lgg_error *err);
} lgg_convert_io;
/* The least a read of tensor data through lgg_convert_io asks for (less at a
 * file's end); the converter holds about this much per shard it reads. */
#define LGG_CONVERT_IO_CHUNK (64ull << 20)

/* The reference a conversion reproduces (lgg_convert_options.target):
 * DEFAULT is llama.cpp b4747's convert_hf_to_gguf.py for the architectures
 * b4747 knows and master's for those only master knows (Qwen3, ...);
 * B4747 refuses an architecture b4747 did not convert; MASTER writes what
 * llama.cpp master (3f545becc) writes: general.sampling.* from
 * generation_config.json, general.quantization_version before the
 * tokenizer keys, tokenizer.ggml.add_sep_token from tokenizer.json's
 * post-processor (docs/convert.md). */
typedef enum lgg_convert_target {
    LGG_CONVERT_TARGET_DEFAULT = 0,
    LGG_CONVERT_TARGET_B4747 = 1,
    LGG_CONVERT_TARGET_MASTER = 2,
} lgg_convert_target;

typedef struct lgg_convert_options {
    size_t size;          /* sizeof(lgg_convert_options), or 0 (see lgg_open_options in libgguf.h) */
    uint32_t outtype;     /* lgg_convert_outtype */
    const char *pre;      /* NULL, or tokenizer.ggml.pre for a BPE tokenizer the converter does not know */
    bool vocab_only;      /* metadata and vocabulary, no tensors */
    int n_threads;        /* threads converting rows while the output is written (<= 0: one per CPU) */
    uint64_t max_json_size; /* 0: each JSON input bounded by its LGG_CONVERT_MAX_*_JSON; else by this
                               many bytes (a larger one is LGG_ERR_LIMIT) */
    const lgg_convert_io *io; /* NULL: read the local folder `dir`; else the files come
                                 through io (copied; its ud must outlive the lgg_convert), and
                                 `dir` only names the folder: in messages ("dir/config.json"),
                                 in lgg_convert_input and for the default output name */
    const char *metadata_override; /* NULL, or a JSON file as convert_hf_to_gguf.py's --metadata
                                      reads it: its "general.*" keys replace what the model card,
                                      config.json and the folder's name give (the default output
                                      name follows); bounded as the "others" below */
    const char *model_name; /* NULL, or general.name (and the default name's name), over all else */
    uint32_t target;        /* lgg_convert_target: whose converter the output follows byte for byte */
    uint64_t mtp;           /* lgg_convert_mtp: the next-token-prediction (MTP, NextN) layers, as
                               convert_hf_to_gguf.py's --mtp / --no-mtp (master only; a family master
                               does not take them for is refused with the reason).  64 bits: the 4
                               bytes after target are the older struct's tail padding */
    bool fp8_as_q8;         /* master's --fp8-as-q8: a block-scaled FP8 checkpoint's matrices (quant_method
                               "fp8", dequantized as master does) are written as Q8_0 whatever the outtype */
    bool fuse_gate_up_exps; /* master's --fuse-gate-up-exps (gate and up experts as one ffn_gate_up_exps):
                               master takes it only for architectures not converted here yet (qwen3next,
                               qwen35moe, gemma4, ...) and stops on the others; refused with that reason */
    bool sentence_transformers_dense_modules; /* master's option: an EmbeddingGemma checkpoint's
                               sentence-transformers Dense modules (modules.json; each folder's
                               model.safetensors and config.json) written as dense_2 / dense_3 with
                               their feature sizes; other families ignore it, as master does */
} lgg_convert_options;
/* lgg_convert_options.mtp: KEEP writes what the checkpoint has (master's
 * default); ONLY writes the MTP layers alone, with the embeddings, output
 * norm and head they share (a draft model for speculative decoding: --mtp);
 * NONE leaves them out (--no-mtp). */
typedef enum lgg_convert_mtp {
    LGG_CONVERT_MTP_KEEP = 0,
    LGG_CONVERT_MTP_ONLY = 1,
    LGG_CONVERT_MTP_NONE = 2,
} lgg_convert_mtp;

#define LGG_CONVERT_OPTIONS_INIT {.size = sizeof(lgg_convert_options), .outtype = LGG_CONVERT_F16}

/* The default bounds of the JSON inputs, in bytes (jansson holds about
 * twenty times a file's size in memory): config.json; tokenizer.json;
 * every other (tokenizer_config.json, model.safetensors.index.json,
 * added_tokens.json).  README.md's YAML front matter is bounded by size and
 * nesting depth (LGG_CONVERT_MAX_CARD bytes, LGG_CONVERT_MAX_CARD_DEPTH
 * levels), checked before it is parsed. */
#define LGG_CONVERT_MAX_CONFIG_JSON (4ull << 20)
#define LGG_CONVERT_MAX_TOKENIZER_JSON (128ull << 20)
#define LGG_CONVERT_MAX_OTHER_JSON (64ull << 20)
#define LGG_CONVERT_MAX_CARD (4ull << 20)
#define LGG_CONVERT_MAX_CARD_DEPTH 64

LGG_API void lgg_convert_options_init(lgg_convert_options *o); /* f16, no --pre */

/* The model families lgg_convert_open knows, for i from 0 until NULL: the
 * config.json "architectures" names of family i joined by '|'
 * ("LLaMAForCausalLM|LlamaForCausalLM|..."), and in *gguf_arch (when not
 * NULL) the general.architecture written for them ("llama"). */
LGG_API const char *lgg_convert_family_at(size_t i, const char **gguf_arch);

/* Every Hugging Face architecture name (config.json's "architectures")
 * that converts, one per line, into buf (NUL-terminated, cut to cap);
 * returns the length of the whole list, as snprintf. */
LGG_API size_t lgg_convert_supported_models(char *buf, size_t cap);

typedef struct lgg_convert lgg_convert;

/* Read the model directory `dir` (or o->io's files): config.json, the safetensors shards
 * (model.safetensors, or every model*.safetensors with
 * model.safetensors.index.json checked against them), the tokenizer files;
 * decide every output tensor (name, type, shape, source) and every metadata
 * pair, as the reference converter does.  No tensor data is read yet (the
 * shards are memory-mapped).  On success *out holds a writer ready to write
 * (lgg_convert_writer); its tensor data comes from callbacks that convert
 * the shards' data as the writer asks for it.
 * Errors: LGG_ERR_IO (a missing file), LGG_ERR_INVALID (malformed JSON, a
 * bad value, a tokenizer that disagrees with vocab_size, a tensor that
 * cannot be mapped), LGG_ERR_UNSUPPORTED (unknown architecture: the message
 * lists the supported ones, as many as fit; unrecognised BPE pre-tokenizer), and those of
 * lgg_st_open, the errors o->io->read returns, LGG_ERR_LIMIT (a JSON input or the model card's front matter
 * beyond its bound above), LGG_ERR_NOMEM (out of memory reading one); the
 * message names the file and the tensor or key (control bytes as \xNN).
 * Free with lgg_convert_free. */
LGG_API lgg_status lgg_convert_open(const char *dir, const lgg_convert_options *o, lgg_convert **out,
                                    lgg_error *err);
LGG_API void lgg_convert_free(lgg_convert *c); /* NULL is a no-op */

/* A PEFT LoRA adapter, as llama.cpp's convert_lora_to_gguf.py (b4747)
 * converts it: `adapter_dir` holds adapter_config.json (its lora_alpha
 * becomes adapter.lora.alpha) and adapter_model.safetensors; `base_dir`
 * holds the base model's config.json (only it is read: it names the family
 * whose table maps each target).  Each lora_A / lora_B pair becomes
 * NAME.lora_a / NAME.lora_b, F32 whatever the outtype (the reference's type
 * rules; the outtype names the file, "...-F16-LoRA.gguf"), B's rows
 * transformed as the base matrix's (llama's q/k permutation), the token
 * embedding's A transposed; norms in the adapter (mergekit-extract-lora)
 * are written first, as the base converter writes them.  The names and the
 * model card come from adapter_dir.  The handle is used as one from
 * lgg_convert_open (writer, default name, tensors, split writes; not
 * lgg_convert_write_quantized).  o->vocab_only is refused (LGG_ERR_ARG).
 * Errors as lgg_convert_open, with the message naming the file and key or
 * tensor: LGG_ERR_INVALID for a missing or non-numeric lora_alpha, a pair
 * without its partner or of mismatched ranks, a target the family's table
 * does not name, a tensor that is neither lora_A, lora_B nor a norm, an
 * lm_head the base model drops (tied embeddings); LGG_ERR_UNSUPPORTED for
 * a pair on an expert matrix or a norm, or a family converted with code
 * (BERT's and issue 25's group 11: src/convert/families/); LGG_ERR_IO when adapter_model.safetensors is missing (a
 * PyTorch adapter_model.bin is not read). */
LGG_API lgg_status lgg_convert_open_lora(const char *adapter_dir, const char *base_dir, const lgg_convert_options *o,
                                         lgg_convert **out, lgg_error *err);

/* The files lgg_convert_open read, as DIR/NAME, in the order it read them
 * (config.json, the shards, the index, tokenizer files, README.md); NULL
 * past the end.  A tool must not write its output over one of them. */
LGG_API const char *lgg_convert_input(const lgg_convert *c, size_t i);

/* The writer describing the output (owned by c; valid until
 * lgg_convert_free).  Metadata may be changed with lgg_writer_set before
 * writing; write it with lgg_writer_write_file (atomic) or _write_fd.
 * Callback errors (a failed conversion, a failed lgg_convert_io read, whose
 * error comes back as the reader set it) come back from the write call. */
LGG_API lgg_writer *lgg_convert_writer(lgg_convert *c);

/* The file name the reference converter would choose (no directory), e.g.
 * "TinyLlama-2-Test-2.1M-2x32-F16.gguf"; snprintf's contract. */
LGG_API size_t lgg_convert_default_name(const lgg_convert *c, char *buf, size_t cap);

/* The encoding the reference names the output by: "F32", "F16", "BF16" or
 * "Q8_0" (LGG_CONVERT_AUTO resolved; "MXFP4_MOE" for the first three of a
 * checkpoint whose quant_method is mxfp4, gpt-oss's, as llama.cpp master
 * names it), the text --outfile's {ftype} stands for (lower-cased there);
 * "" for NULL. */
LGG_API const char *lgg_convert_ftype_name(const lgg_convert *c);

/* The output tensors, in output order, for --dry-run. */
typedef struct lgg_convert_tensor {
    const char *name;      /* GGUF name */
    const char *source;    /* Hugging Face name of the (first) source, or "(generated)" */
    const char *file;      /* its shard's file name, or "" */
    uint32_t type;         /* output lgg_type */
    uint32_t n_dims;
    int64_t ne[4];         /* ggml order */
} lgg_convert_tensor;
LGG_API size_t lgg_convert_tensor_count(const lgg_convert *c);
LGG_API lgg_status lgg_convert_tensor_at(const lgg_convert *c, size_t i, lgg_convert_tensor *out);

/* Called from the data callbacks with the output bytes produced so far and
 * the total (for a progress display).  NULL: none. */
typedef void (*lgg_convert_progress_fn)(void *ud, uint64_t done, uint64_t total);
LGG_API void lgg_convert_set_progress(lgg_convert *c, lgg_convert_progress_fn fn, void *ud);
/* Bytes of tensor data the output holds (the progress total). */
LGG_API uint64_t lgg_convert_total_bytes(const lgg_convert *c);

/* Several outputs of one checkpoint written at once (gguf convert --outtype
 * f16,q8_0,Q4_K_M): cv[0..n), 2 <= n <= 32, opened from the same source
 * with the same options but the outtype, each then written by its own
 * thread (lgg_writer_write_file, lgg_convert_write_quantized; not the
 * split forms).  Each source row is then read and converted to f32 once
 * for all of them (per order of tensors: a quantize plan's and the
 * checkpoint's), and rounded to the `auto` type once for all the presets;
 * each output's bytes are those it writes alone.  The rows go through a
 * bounded cache (3n + 2 blocks of 2 MiB, twice that for the presets'
 * rounded rows), so the fastest output waits for the slowest a few blocks
 * ahead: every one must be written, and a thread whose write returns (done
 * or failed) calls lgg_convert_unshare so that the others stop waiting for
 * it (lgg_convert_free does too).  Converters reading through an
 * lgg_convert_io call its read from their writing threads, at once: it
 * must be safe to call from several threads (each converter holds its own
 * read window, 64 MiB per shard it reads, until it is unshared).
 * LGG_ERR_ARG when the converters list different tensors or rows;
 * LGG_ERR_NOMEM. */
LGG_API lgg_status lgg_convert_share(lgg_convert *const *cv, size_t n, lgg_error *err);
LGG_API void lgg_convert_unshare(lgg_convert *c); /* NULL or not shared: a no-op */

/* --outtype PRESET: write to `path` what `convert --outtype auto` followed
 * by lgg_quant_plan_write with `qo` and `qw` would give, byte for byte, in
 * one pass with no intermediate file.  `c` must have been opened with
 * LGG_CONVERT_AUTO (the intermediate type); its writer's metadata (with any
 * lgg_writer_set made on it) is the quantizer's input metadata.  The plan
 * is llama-quantize's (lgg_quant_plan_create); qw->n_threads threads
 * convert rows; qw->write_flags apply; qw->input_fds is ignored.  The write
 * is atomic (temporary file, rename).
 * Errors: those of lgg_quant_plan_create and lgg_writer_write_file; a failed
 * row conversion is reported in err in its own words (shard, tensor, row). */
LGG_API lgg_status lgg_convert_write_quantized(lgg_convert *c, const lgg_quant_options *qo,
                                               const lgg_quant_write_options *qw, const char *path, lgg_error *err);

/* --split-max-size / --split-max-tensors: write the output as a shard set
 * PREFIX-00001-of-0000N.gguf ... in llama-gguf-split's layout
 * (lgg_split_plan_make's rule and keys), each shard atomically; merging the
 * set gives the unsplit output.  On error no shard of the set is left.
 * With LGG_SPLIT_GGUF_PY in so->flags the set is the one the reference
 * converter writes (its keys' order and size rule), and a set that would
 * have one shard is, as there, the plain output PREFIX.gguf without split
 * keys (unless LGG_SPLIT_NO_TENSOR_FIRST, which always makes two or more).
 * Errors: those of lgg_split_plan_make and lgg_writer_write_file. */
LGG_API lgg_status lgg_convert_write_split(lgg_convert *c, const char *prefix, const lgg_split_options *so,
                                           const lgg_write_options *wo, lgg_error *err);

/* Both at once: the quantized output of lgg_convert_write_quantized written
 * as a shard set by lgg_convert_write_split's rule, applied to the
 * quantized tensors' sizes (merging the set gives the unsplit quantized
 * output).  The write flags and temporary-file hook come from qw.  On error
 * no shard of the set is left.
 * Errors: those of lgg_convert_write_quantized and lgg_convert_write_split. */
LGG_API lgg_status lgg_convert_write_quantized_split(lgg_convert *c, const lgg_quant_options *qo,
                                                     const lgg_quant_write_options *qw, const char *prefix,
                                                     const lgg_split_options *so, lgg_error *err);

/* The name llama.cpp's convert_hf_to_gguf.py (b4747) gives the byte-level
 * BPE pre-tokenizer of checkpoint folder `dir` (tokenizer.ggml.pre): the
 * checkpoint's tokenizer (libgguf-tokenize: tokenizer.json with
 * tokenizer_config.json's rules) encodes the reference's check text, and
 * the sha256 of the ids as Python prints the list is looked up in the
 * reference's table (a later entry of a hash wins).  *pre points to a
 * static string; hash (65 bytes, may be NULL) receives the hash in hex.
 * Errors: LGG_ERR_UNSUPPORTED (a hash not in the table -- the reference
 * refuses the tokenizer -- or a tokenizer.json the tokenizer part does not
 * take), LGG_ERR_NOT_FOUND (no tokenizer.json), LGG_ERR_INVALID, LGG_ERR_IO,
 * LGG_ERR_NOMEM. */
LGG_API lgg_status lgg_convert_bpe_pre(const char *dir, const char **pre, char hash[65], lgg_error *err);

#ifdef __cplusplus
}
#endif
#endif
