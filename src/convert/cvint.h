/* cvint.h -- the converter's shared state (src/convert/). */
#ifndef LGG_CVINT_H
#define LGG_CVINT_H

#include "cv.h"

#include <string.h>

struct lgg_convert;

char *lgg__cv_path(const char *dir, const char *name);
/* The checkpoint's files, from the local folder or lgg_convert_io: whether
 * NAME is a regular file (its size into *size, may be NULL); n bytes of it
 * at off (a short file is LGG_ERR_IO "changed while read"); the whole file
 * in a new buffer (free it) when it has at most `max` bytes (else *out
 * NULL, *n its size: the caller says why it is too large). */
int lgg__cv_exists(const struct lgg_convert *c, const char *name, uint64_t *size);
lgg_status lgg__cv_pread(struct lgg_convert *c, const char *name, uint64_t off, void *dst, size_t n, lgg_error *err);
lgg_status lgg__cv_load(struct lgg_convert *c, const char *name, uint64_t max, char **out, size_t *n, lgg_error *err);
/* Load DIR/NAME as a JSON object, no larger than its cap (LGG_ERR_LIMIT),
 * running out of memory reported as such; a missing file is *out = NULL
 * (LGG_OK) unless required.  The file is noted as an input. */
lgg_status lgg__cv_json(struct lgg_convert *c, const char *name, int required, json_t **out, lgg_error *err);
/* path is a file the conversion reads (lgg_convert_input). */
lgg_status lgg__cv_note_input(struct lgg_convert *c, const char *path, lgg_error *err);
/* The same for any JSON value (modules.json is a list). */
lgg_status lgg__cv_json_value(struct lgg_convert *c, const char *name, int required, json_t **out, lgg_error *err);
/* The first of `keys` ('|' separated) present in obj and not null (as the
 * reference's "is not None" tests); `which` gets its name. */
json_t *lgg__cv_first_key(const json_t *obj, const char *keys, char *which, size_t cap);
/* config.json's integer `key` (an integral real too), else dflt. */
int64_t lgg__cv_hparam_int(const struct lgg_convert *c, const char *key, int64_t dflt);
/* The most heads (attention or key/value) a permutation or split takes:
 * a head count from config.json is used in sizes and divisions only when
 * it is in 1..LGG_CV_MAX_HEADS (a negative one would wrap to a huge
 * unsigned count, and twice 2^63 to a divisor of 0). */
#define LGG_CV_MAX_HEADS (1 << 20)
static inline int lgg__cv_heads_ok(int64_t h) { return h > 0 && h <= LGG_CV_MAX_HEADS; }
/* tokenizer.json, parsed once for the whole vocabulary step (lgg__cv_vocab
 * releases it): a new reference, NULL when the file is absent and not
 * required. */
lgg_status lgg__cv_tokenizer_json(struct lgg_convert *c, int required, json_t **out, lgg_error *err);

/* Whether s ends with suf (tensor-name suffixes). */
static inline int lgg__cv_ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !memcmp(s + a - b, suf, b);
}

/* The output types (lgg_convert_outtype, resolved: never AUTO): */
uint32_t lgg__cv_file_type(const struct lgg_convert *c);    /* general.file_type's value */
/* Whether a key may be written now: b4747's writer fails on a key written
 * twice (the value written first is kept here), master's overwrites it in
 * its place. */
int lgg__cv_may_write(const struct lgg_convert *c, const char *key);
/* cvio.c: <arch>.NAME = v, the family's own keys (refused, not cut, when too long) */
lgg_status lgg__cv_put_arch(struct lgg_convert *c, const char *name, const lgg_wvalue *v, lgg_error *err);
lgg_status lgg__cv_put_arch_u32(struct lgg_convert *c, const char *name, uint32_t v, lgg_error *err);
lgg_status lgg__cv_put_arch_f32(struct lgg_convert *c, const char *name, double v, lgg_error *err);
/* an array of n packed scalars of elem_type (lgg_vtype) */
lgg_status lgg__cv_put_arch_array(struct lgg_convert *c, const char *name, uint32_t elem_type, const void *v, size_t n,
                                  lgg_error *err);
lgg_status lgg__cv_put_arch_bool(struct lgg_convert *c, const char *name, int v, lgg_error *err);
lgg_status lgg__cv_put_arch_str(struct lgg_convert *c, const char *name, const char *v, lgg_error *err);
const char *lgg__cv_outtype_name(const struct lgg_convert *c); /* "F16", "TQ1_0": the default file name's */
/* the type of a matrix that takes the outtype, rows of ne0 (F16 where its blocks do not divide them) */
uint32_t lgg__cv_matrix_type(const struct lgg_convert *c, uint64_t ne0);

/* families/chatglm.c: the id of tokenizer.json's (tj) added token
 * `content` (the last such entry, as a dict built by id keeps it), or -1. */
int64_t lgg__cv_added_id(const json_t *tj, const char *content);

/* A block-scaled FP8 matrix's scales (fp8.c): element (r, j) is e4m3(r, j) x
 * scale[(r / bs0) * cols + j / bs1], as master's dequant_simple computes it. */
typedef struct cv_fp8 {
    float *scale;
    uint64_t rows, cols;     /* the scale matrix's */
    uint64_t bs0, bs1;       /* quantization_config.weight_block_size */
} cv_fp8;

/* One source matrix of a stacked (expert) tensor. */
typedef struct cv_src {
    uint32_t shard;
    const lgg_st_tensor *t;
    const cv_fp8 *fp8;       /* its scales when it is FP8, else NULL */
} cv_src;

/* fp8.c: config.json's quantization_config "fp8" (master's dequantization) */
lgg_status lgg__cv_fp8_init(struct lgg_convert *c, lgg_error *err);
/* the scale tensors the dequantization consumes (and the unused activation scales) */
int lgg__cv_fp8_skipped(const struct lgg_convert *c, const char *name);
/* src's scales (NULL when src is not FP8) in *out; an FP8 tensor without its scales is an error */
lgg_status lgg__cv_fp8_scales(struct lgg_convert *c, uint32_t shard, const lgg_st_tensor *src, const cv_fp8 **out,
                              lgg_error *err);
/* row r of src (n bytes of e4m3 at p) dequantized into x */
void lgg__cv_fp8_row(const cv_fp8 *f, uint64_t r, const uint8_t *p, uint64_t n, float *x);
void lgg__cv_fp8_free(struct lgg_convert *c);
/* The source tensor `name` in any shard (each sorted by name) and its shard, or NULL. */
const lgg_st_tensor *lgg__cv_find_tensor(const struct lgg_convert *c, const char *name, uint32_t *shard);

/* nvfp4.c: NVFP4 checkpoints (ModelOpt's, compressed-tensors'), repacked as master does: detected from
 * config.json's quantization_config (or hf_quant_config.json); the names the repacking consumes; the NVFP4
 * tensors and their scales added before every other tensor. */
lgg_status lgg__cv_nvfp4_init(struct lgg_convert *c, lgg_error *err);
int lgg__cv_nvfp4_skipped(const struct lgg_convert *c, const char *name);
lgg_status lgg__cv_nvfp4_plan(struct lgg_convert *c, lgg_error *err);
/* A stacked tensor's GGUF name: a map row's pattern (its '#' the block) with block bid, ".weight". */
void lgg__cv_stacked_name(char *name, size_t cap, const char *pattern, uint64_t bid);

typedef struct cv_tensor {
    char *name;              /* GGUF name */
    const char *src_name;    /* Hugging Face name (points into the shard) */
    uint32_t shard;
    const lgg_st_tensor *src;
    cv_src *stack;           /* stacked experts (n_stack of them), or NULL */
    const cv_fp8 *fp8;       /* src's scales when src is FP8 (else NULL) */
    float *gen;              /* a generated tensor's values (owned), or NULL */
    uint32_t n_stack;
    uint32_t type;           /* output lgg_type */
    uint32_t work;           /* LGG_TYPE_F32 or LGG_TYPE_F16: the reference's working dtype */
    unsigned xform;          /* CV_X_* */
    uint64_t heads;          /* for the permutation */
    /* The source row of output row u when a family reorders rows or takes
     * some of them (a fused matrix's heads or halves, families/fused_qkv.c), or
     * NULL; row_arg holds its parameters. */
    uint64_t (*row_of)(const struct cv_tensor *t, uint64_t u);
    uint64_t row_arg[4];
    /* The source block of output column block j (blocks of col_block
     * elements of a row) when a family reorders a row's columns (PLaMo's
     * attention output, families/plamo.c), or NULL; its parameters in row_arg. */
    uint64_t (*col_of)(const struct cv_tensor *t, uint64_t j);
    uint64_t col_block;
    uint32_t n_dims;
    int64_t ne[4];
    uint64_t unit, n_units;  /* conversion unit: elements per source row, and rows */
    uint64_t row_skip;       /* source rows before the first one converted (RoBERTa's position offset) */
    uint64_t zero_from;      /* output rows from this one on are zeros, past the source's (Gemma 3n's embeddings
                                padded to vocab_size); 0: none */
    uint64_t zero_first;     /* output rows before this one are zeros, output row u >= it is row u - zero_first as
                                read without them (Granite Switch's zero adapter slot); 0: none */
    uint32_t qtype;          /* fused quantization: the type `type` is requantized to (0: none) */
    const float *imatrix;    /* its importance weights (ne[0] per ne[2] slice), or NULL */
    float scale;             /* source values multiplied by it (RWKV's rescale_every division, Jais's embedding and output multipliers), 0: none */
    /* then by a second factor, the same for every row (scale2) or row u's
     * (row_scale, when not NULL): Falcon-H1's multipliers applied one after
     * the other, as master's torch multiplies them; 0: none */
    float scale2;
    float (*row_scale)(const struct cv_tensor *t, uint64_t u);
    float iscale;            /* CV_X_TERNARY: 1 / the tensor's scale (families/bitnet.c) */
    float add;               /* a constant added to every value after the source's transforms, in float (an f16
                                source's sum rounded to f16; PLaMo's norm offsets: families/plamo2.c), 0: none */
    /* A tensor whose output bytes its family makes itself, not from float
     * rows (gpt-oss's MXFP4 experts repacked: families/gpt_oss.c): units
     * [u0, u1) into out, lgg__cv_out_bytes(t) each; else NULL.  src2 (in
     * shard2) is a second source tensor it reads (the scales). */
    lgg_status (*raw)(struct lgg_convert *c, const struct cv_tensor *t, uint64_t u0, uint64_t u1, uint8_t *out,
                      lgg_error *err);
    const lgg_st_tensor *src2;
    uint32_t shard2;
    struct lgg_convert *c;
} cv_tensor;

/* A tensor of an extra shard under its GGUF name (lgg_convert.extra_t). */
typedef struct cv_extra {
    uint32_t shard;
    const lgg_st_tensor *t;
    char name[64];
} cv_extra;

typedef struct lgg_convert lgg_convert;
struct lgg_convert {
    char *dir;
    json_t *config;
    const cv_family *fam;
    const cv_hooks *hooks;   /* its row's hooks (families/NAME.c), or NULL */
    lgg_safetensors **shards;
    char **shard_names;
    size_t n_shards;         /* the model*.safetensors files; then n_extra others (a module's, lgg__cv_open_extra_shard) */
    size_t n_extra;
    struct cv_extra *extra_t; /* tensors of the extra shards a family's generated hook names (plan adds them
                                 after its generated ones, before the checkpoint's) */
    size_t n_extra_t;
    cv_tensor *t;
    size_t n_t, cap_t;
    uint32_t outtype;        /* resolved: never AUTO */
    uint64_t block_count;
    lgg_writer *w;
    /* Pending expert matrices, per group: 0 the family's experts (experts_key), 1 a second set
     * (CV_X_EXPERTS2 rows: GroveMoE's chunk experts, counted by config.json's lgg.experts2). */
    struct cv_egroup {
        cv_src *src;             /* [block][3 * n] */
        uint32_t *pending;       /* per block */
        uint32_t n;
        const char *gguf[3];     /* the GGUF pattern of each expert slot (its map row's) */
    } eg[2];
    int fp8;                 /* quantization_config.quant_method "fp8": FP8 matrices dequantized */
    int fp8_as_q8;           /* lgg_convert_options.fp8_as_q8 (master's --fp8-as-q8) */
    int fuse_gate_up;        /* lgg_convert_options.fuse_gate_up_exps (master's --fuse-gate-up-exps) */
    int st_dense;            /* lgg_convert_options.sentence_transformers_dense_modules */
    uint64_t fp8_bs[2];      /* weight_block_size (0, 0: one scale per tensor or row) */
    cv_fp8 **fp8s;           /* the scales read (owned) */
    size_t n_fp8s;
    cv_src *head_norms;      /* pending per-head norm vectors: [block][2][head_slots] (CV_X_HEAD_NORM) */
    uint32_t *n_head_pending; /* per block and slot */
    uint32_t head_slots, n_heads[2]; /* num_attention_heads, num_key_value_heads */
    char *default_name;
    uint8_t *scratch;
    size_t scratch_cap;
    float *row;
    size_t row_cap;
    lgg_convert_progress_fn progress;
    void *progress_ud;
    uint64_t done, total;
    int vocab_only;          /* no tensors; the default name ends in -vocab */
    int n_threads;           /* threads converting rows in a callback (<= 0: one per CPU) */
    json_t *tokenizer_json;  /* lgg__cv_tokenizer_json's copy, during the vocabulary step */
    int tokenizer_json_read;
    int tokenizer_json_reals; /* it was read with every integer a real (an integer beyond 64 bits) */
    int has_chat_eos;        /* InternLM2: eos becomes <|im_end|>'s id, chat_eos */
    uint32_t chat_eos;
    float attn_factor;       /* <arch>.rope.scaling.attn_factor, written after general.architecture */
    int has_attn_factor;     /* (the reference sets it while making the generated tensors) */
    uint64_t max_json;       /* lgg_convert_options.max_json_size */
    uint32_t target;         /* lgg_convert_options.target as asked */
    int master;              /* the output follows llama.cpp master (the target resolved for the family) */
    char **inputs;           /* the files read, as DIR/NAME (lgg_convert_input) */
    size_t n_inputs;
    struct {
        const char *type;    /* "eos", "eot", ...: set after the files' ids, where still unset (ChatGLM's) */
        int64_t id;
        int if_none;         /* only when the files gave no special id at all (Qwen (v1)'s bos and eos) */
    } late_special[4];
    int n_late_special;
    int no_pad_special;      /* no padding token read from the files (Hunyuan's pad_token_id < 0) */
    int lora;                /* a LoRA adapter (lora.c): dir is the adapter's, config the base's */
    float lora_alpha;        /* adapter_config.json's lora_alpha */
    json_t *card_config;     /* the adapter folder's own config.json (its _name_or_path names it), or NULL */
    float max_alibi_bias;    /* <arch>.attention.max_alibi_bias, written after general.architecture */
    int has_max_alibi_bias;  /* (Jais: the reference sets it after its tensors) */
    lgg_convert_io io;       /* the caller's files (lgg_convert_options.io), when has_io */
    int has_io;
    struct cv_window *win;   /* has_io: per shard, the bytes of it held (data.c) */
    struct cv_piece *pieces; /* has_io: the source tensors by shard and offset, each with the one the
                                output reads after it (data.c's read-ahead), made with win */
    size_t n_pieces;
    struct cv_share *share;  /* rows shared with other outputs written at once (share.c), or NULL */
    uint32_t share_id;       /* this output's number among them */
    uint64_t share_order;    /* the order it writes its tensors in: 0 the checkpoint's, else a hash of the
                                quantize plan's (outputs of one order share blocks) */
    uint32_t *share_pos;     /* each tensor's place in the quantize plan's order, or NULL (the checkpoint's) */
    uint32_t mtp;            /* lgg_convert_options.mtp (only for a CV_F_MTP family, target master) */
    uint64_t mtp_main;       /* with mtp: the blocks before the next-token-prediction ones (the family's init) */
    int mxfp4;               /* config.json's quantization_config.quant_method is "mxfp4" (gpt-oss): master's file
                                type is MOSTLY_MXFP4_MOE for f32, f16 and bf16 */
    int nvfp4;               /* an NVFP4 checkpoint (nvfp4.c): master's file type is MOSTLY_NVFP4 for f32, f16, bf16 */
    int nvfp4_ct;            /* compressed-tensors' names (weight_packed, ..._global_scale) */
    /* F32 keys the reference sets while it reads the tensors (before general.type), written right after
       general.architecture in this order: arrays of n (Apertus's xielu.*: families/apertus.c), or v[0] alone
       when `scalar` (Talkie's logit_scale: families/talkie.c); v owned */
    struct {
        char key[48];
        float *v;
        uint64_t n;
        int scalar;
    } early[4];
    int n_early, early_done;
    const char *early_template; /* tokenizer.chat_template set right after general.architecture (the family's
                                   default, replaced in place by tokenizer_config.json's: DeepSeek-OCR's), or NULL */
};

void lgg__cv_windows_free(struct lgg_convert *c);
/* cvio.c: source tensor src of shard s, all of its bytes: in the shard's
 * map (*owned NULL), or read through the io into a new buffer (*owned, free
 * it).  For what a family reads while planning (a head compared, a norm
 * rebuilt) into *p. */
lgg_status lgg__cv_src_bytes(struct lgg_convert *c, uint32_t s, const lgg_st_tensor *src, const uint8_t **p, void **owned,
                             lgg_error *err);
/* Bytes [off, off + n) of src (shard sh) into *p: in the map, or read through the io into *buf (grown; the
 * caller frees it).  For the families that repack a checkpoint's bytes row by row (gpt-oss's MXFP4, NVFP4). */
lgg_status lgg__cv_span(struct lgg_convert *c, uint32_t sh, const lgg_st_tensor *src, uint64_t off, uint64_t n,
                        uint8_t **buf, const uint8_t **p, lgg_error *err);

/* convert.c, shared with lora.c: a new converter for dir with the caller's
 * options copied into *copy; config.json read (the family found, the block
 * count); the shards c->shard_names opened; a HF tensor name mapped by the
 * family's table (1 mapped); a source tensor added under a GGUF name; the
 * names the reference drops before mapping; the writer, metadata and
 * tensors made and *out set when st is LGG_OK, else c freed. */
lgg_status lgg__cv_new(const char *dir, const lgg_convert_options *o, lgg_convert_options *copy, struct lgg_convert **out,
                      lgg_error *err);
lgg_status lgg__cv_load_config(struct lgg_convert *c, lgg_error *err);
lgg_status lgg__cv_open_shards(struct lgg_convert *c, lgg_error *err);
/* Another safetensors file of the checkpoint (a sentence-transformers module's), opened as shard *index
 * after the model's: its tensors are read like theirs but not planned with them. */
lgg_status lgg__cv_open_extra_shard(struct lgg_convert *c, const char *name, uint32_t *index, lgg_error *err);
/* A shard read through the io: its header alone (its tensors' data later, by data.c's windows). */
lgg_status lgg__cv_st_open_io(struct lgg_convert *c, const char *name, lgg_safetensors **out, lgg_error *err);
/* namemap.c: a HF tensor name mapped (the family's rows, then the shared
 * map): its row, or NULL; *xform its transforms with the family's; *bid
 * the block number (-1: none), *xid an expert's number. */
const cv_tmap *lgg__cv_map_name(const cv_family *f, const char *hf, char *out, size_t cap, unsigned *xform, long *bid,
                                long *xid);
/* The shared map's rows (*rows) and their count. */
size_t lgg__cv_namemap_rows(const cv_tmap **rows);
lgg_status lgg__cv_add_tensor(struct lgg_convert *c, uint32_t shard, const lgg_st_tensor *s, const char *gguf,
                              unsigned xform, lgg_error *err);
int lgg__cv_skipped(const struct lgg_convert *c, const char *name);
lgg_status lgg__cv_finish(struct lgg_convert *c, const lgg_convert_options *o, lgg_status st, struct lgg_convert **out,
                         lgg_error *err);

/* Tokenizer metadata (tokenizer.c); a SentencePiece vocabulary (vocab.c). */
lgg_status lgg__cv_vocab(struct lgg_convert *c, const lgg_convert_options *o, lgg_error *err);
lgg_status lgg__cv_spm(struct lgg_convert *c, json_t *tc, lgg_error *err);
/* Data callback for the writer (data.c). */
lgg_status lgg__cv_read(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err);
uint64_t lgg__cv_out_bytes(const cv_tensor *t);
/* share.c: the block of t's rows holding row u, shared by the outputs
 * written at once; *first and *n say which rows.  Whoever fills a block
 * calls fill->load (rows [first, first + n) as f32, transformed, into x),
 * and for `rounded` rows fill->round (those rows rounded to t's auto type
 * and widened back, as fused quantization reads them, in place).  Blocks
 * this output has moved past are let go.  NULL with err set on failure. */
typedef struct cv_share_fill {
    lgg_status (*load)(struct lgg_convert *c, const cv_tensor *t, uint64_t first, uint64_t n, float *x, lgg_error *err);
    lgg_status (*round)(const cv_tensor *t, float *x, uint64_t n, lgg_error *err);
} cv_share_fill;
extern uint64_t lgg__cv_share_block; /* a block's floats */
/* share.c: 1 when no other output still writing reads c's order of
 * tensors (or may: one whose order is not known yet), so none would read
 * the blocks c fills: c then reads its rows itself, on all its threads, as
 * when written alone (and lets go of its blocks).  Once alone, always. */
int lgg__cv_share_alone(struct lgg_convert *c);
/* share.c: c, which is shared, leaves the share (lgg_convert_unshare, in
 * data.c, which also lets go of c's io windows). */
void lgg__cv_share_leave(struct lgg_convert *c);
const float *lgg__cv_share_rows(struct lgg_convert *c, const cv_tensor *t, uint64_t u, int rounded,
                                const cv_share_fill *fill, uint64_t *first, uint64_t *n, lgg_error *err);

/* vocab.c */
/* DIR/NAME read whole (*size > 0; free it). */
lgg_status lgg__cv_map_file(struct lgg_convert *c, const char *name, void **map, size_t *size, lgg_error *err);
int lgg__cv_looks_special(const char *t);
char *lgg__cv_unspace(const char *s); /* U+2581 -> ' ', malloc'd */
/* SpecialVocab: ids, add_* flags, chat template; n_vocab bounds the ids. */
lgg_status lgg__cv_special_vocab(struct lgg_convert *c, json_t *tc, size_t n_vocab, lgg_error *err);
/* hfvocab.c: whether tokenizer.json is what gguf-py's LlamaHfVocab reads (a
 * byte-fallback BPE with a Sequence decoder), and that reading of it. */
int lgg__cv_llama_hf_applies(struct lgg_convert *c);
lgg_status lgg__cv_llama_hf_vocab(struct lgg_convert *c, json_t *tc, lgg_error *err);
/* The same reading as a family's set_vocab writes it: tokenizer.ggml.model
 * `model` ("llama" also writes pre "default"; another name no pre), the
 * tokens listed in user_defined (NULL-ended, or NULL) typed USER_DEFINED,
 * tokenizer.json's merges when `merges` (SpecialVocab's load_merges). */
typedef struct cv_hf_vocab {
    const char *model;
    const char *const *user_defined;
    int merges;
} cv_hf_vocab;
lgg_status lgg__cv_llama_hf_vocab_as(struct lgg_convert *c, json_t *tc, const cv_hf_vocab *how, lgg_error *err);
/* chattemplate.c: tokenizer_config.json's chat_template (with target master, else
 * chat_template.jinja or .json): a string, or a list of named ones (the
 * default as tokenizer.chat_template, the others as tokenizer.chat_template.NAME). */
lgg_status lgg__cv_chat_template(struct lgg_convert *c, json_t *tc, lgg_error *err);
/* chattemplate.c: NAME read as Python reads text: UTF-8 (anything else fails, as master does) with universal
 * newlines ("\r\n" and "\r" become "\n"), no larger than a JSON file other than config.json and
 * tokenizer.json may be; a new JSON string in *out. */
lgg_status lgg__cv_text_file(struct lgg_convert *c, const char *name, json_t **out, lgg_error *err);
/* The same as master's Plamo3Model reads it: chat_template.jinja's text, else tokenizer_config.json's
 * chat_template, written when it is not empty (no chat_template.json, no named companions). */
lgg_status lgg__cv_chat_template_jinja_first(struct lgg_convert *c, json_t *tc, lgg_error *err);
/* tokenizer.ggml.model "llama" (lgg__cv_model_tokens: `model`), pre "default", then the n tokens, scores and types. */
lgg_status lgg__cv_model_tokens(struct lgg_convert *c, const char *model, size_t n, const lgg_str *tok, const float *score,
                                const int32_t *type, lgg_error *err);
lgg_status lgg__cv_llama_tokens(struct lgg_convert *c, size_t n, const lgg_str *tok, const float *score, const int32_t *type,
                                lgg_error *err);
/* vocab.c: a merge rule as the reference writes it, "a b" (pairs, the newer
 * format, with their spaces written as U+0120; malloc'd, NULL if malformed);
 * tokenizer.json's model.merges as tokenizer.ggml.merges (gguf-py's
 * SpecialVocab with load_merges; none written when it has none). */
char *lgg__cv_merge_text(const json_t *m);
lgg_status lgg__cv_write_merges(struct lgg_convert *c, const json_t *model, lgg_error *err);
/* bpe.c: a BPE tokenizer.json vocabulary; *n_vocab gets its size. */
lgg_status lgg__cv_bpe(struct lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err);
/* The same with the added tokens typed by their "special" flag alone and
 * kept as written (Dream's and LLaDA's own get_vocab_base in master). */
lgg_status lgg__cv_bpe_flagged(struct lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err);
/* bpe.c: the reference's check hash of the ids t gives its check text; the
 * pre-tokenizer its table names for a hash (NULL: none). */
struct lgg_tokenizer;
lgg_status lgg__cv_check_hash(const struct lgg_tokenizer *t, const char *dir, char hex[65], lgg_error *err);
const char *lgg__cv_ref_pre(const char *hex);
/* The same reading of tokenizer.json for another tokenizer.ggml.model
 * (BERT's WordPiece, wpm.c): each token through rewrite (the same pointer
 * back: unchanged; else malloc'd, NULL when out of memory); bound_ids: the
 * special token ids are checked against the vocabulary's size. */
typedef struct cv_vocab_style {
    const char *model;
    char *(*rewrite)(const char *tok, size_t len, int32_t type);
    int bound_ids;
    int flagged; /* added tokens typed by their "special" flag alone, as written (Dream's and LLaDA's get_vocab_base) */
    const char *control; /* a token typed CONTROL whatever its flags (Laguna's </assistant>), or NULL */
} cv_vocab_style;
lgg_status lgg__cv_vocab_json(struct lgg_convert *c, json_t *tc, const lgg_convert_options *o, const cv_vocab_style *vs,
                              lgg_error *err);
/* ugm.c: tokenizer.ggml.token_type_count (type_vocab_size, else 1); the
 * Unigram vocabulary of XLM-RoBERTa's sentencepiece.bpe.model. */
lgg_status lgg__cv_token_type_count(struct lgg_convert *c, lgg_error *err);
lgg_status lgg__cv_ugm_xlmr(struct lgg_convert *c, json_t *tc, lgg_error *err);
/* T5's: tokenizer.model (else spiece.model) by id in vocab_size slots,
 * added_tokens.json over them, no BOS, EOS added; a BPE tokenizer.model is
 * read as SentencePiece (lgg__cv_spm). */
lgg_status lgg__cv_ugm_t5(struct lgg_convert *c, json_t *tc, lgg_error *err);
/* wpm.c: a WordPiece tokenizer.json vocabulary (tokenizer.ggml.model "bert"). */
lgg_status lgg__cv_wpm(struct lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err);

/* generated.c: tensors the reference computes, added before the others. */
lgg_status lgg__cv_generated(struct lgg_convert *c, lgg_error *err);
/* llama 3's rope factors (rope_freqs: *n of them, malloc'd into *out) for the
 * scaling parameters rs (low/high_freq_factor), the theta base, factor and
 * original context `old` (each family reads these from its own places). */
lgg_status lgg__cv_llama3_freqs(struct lgg_convert *c, const json_t *rs, double base, double factor, double old, float **out,
                                uint64_t *n, lgg_error *err);
/* config.json's rope_scaling.NAME: n numbers, as float32 (malloc'd); the
 * long and short factors of a rope_scaling that is not null, dims / 2 each,
 * added as rope_factors_long and rope_factors_short. */
lgg_status lgg__cv_factor_list(struct lgg_convert *c, const json_t *rs, const char *name, uint64_t n, float **out, lgg_error *err);
lgg_status lgg__cv_long_short(struct lgg_convert *c, int64_t dims, lgg_error *err);
/* tensors.c: a new zeroed entry at the end of c's tensor list (NULL when
 * out of memory, with err set); add a generated 1-D F32 tensor, which
 * takes `values` on success. */
cv_tensor *lgg__cv_new_tensor(struct lgg_convert *c, lgg_error *err);
lgg_status lgg__cv_add_generated(struct lgg_convert *c, const char *name, float *values, uint64_t n, lgg_error *err);
/* A copy of entry i (a plain tensor read from the checkpoint) under another
 * name, at the end of the list (what a family writes twice or splits). */
lgg_status lgg__cv_dup_tensor(struct lgg_convert *c, size_t i, const char *name, lgg_error *err);
/* Rows [0, first) of the 2-D t stay in it; rows [first, all) become a copy
 * named `second` (t's "blk.N." kept) at the end of the list; t moves. */
lgg_status lgg__cv_split_rows(struct lgg_convert *c, cv_tensor *t, uint64_t first, const char *second, lgg_error *err);
/* Stacked experts stored (experts, in, out) (gpt-oss's and Llama 4's bf16
 * experts): t made each expert transposed, `parts` outputs side by side in
 * a source row, every step-th column (row_arg[2], the first, 0: set it for
 * the others); t's GGUF name with ffn_gate_exps made ffn_up_exps into up. */
lgg_status lgg__cv_expert_t(struct lgg_convert *c, cv_tensor *t, uint64_t step, uint64_t parts, lgg_error *err);
lgg_status lgg__cv_up_name(struct lgg_convert *c, const cv_tensor *t, char *up, size_t cap, lgg_error *err);
/* Stacked (experts, hidden, 2 ff) gate_up (Llama 4's, Qwen3-VL-MoE's): t
 * the gate (the first ff columns, each expert transposed), a copy after it
 * the up (the rest). */
lgg_status lgg__cv_expert_gate_up(struct lgg_convert *c, cv_tensor *t, lgg_error *err);

/* modelcard.c: README.md's YAML front matter (*out NULL: none), and the
 * general.* values the reference takes from it: names into n (fields still
 * NULL), the rest into c (free with lgg__cv_card_free). */
typedef struct cv_card {
    char *author, *description, *quantized_by, *license, *license_name, *license_link;
    char *url, *doi, *uuid, *repo_url; /* only from the metadata override file */
    char *source_url, *source_doi, *source_uuid, *source_repo_url;
    json_t *base_models, *datasets; /* arrays of objects of strings, or NULL (none given) */
    json_t *tags, *languages;       /* arrays of strings, or NULL */
} cv_card;
lgg_status lgg__cv_model_card(struct lgg_convert *c, json_t **out, lgg_error *err);
lgg_status lgg__cv_card_meta(const json_t *card, const char *where, int64_t total, cv_names *n, cv_card *c,
                             lgg_error *err);
void lgg__cv_card_free(cv_card *c);
/* The keys of a base model or dataset entry, in the order they are written. */
extern const char *const LGG__CV_SOURCE_KEYS[];

/* master.c: general.sampling.* from generation_config.json; master's
 * rope scaling keys (CV_M_ROPE_SCALING "master"). */
lgg_status lgg__cv_master_sampling(struct lgg_convert *c, lgg_error *err);
/* Python's truth of a config.json value (None, 0, 0.0, "", [], {} and false are false). */
int lgg__cv_py_truthy(const json_t *v);
lgg_status lgg__cv_master_rope(struct lgg_convert *c, lgg_error *err);
/* The rope theta master's rope_parameters hold for the global layers
 * (swa 0) or the sliding-window ones (swa 1): 1 with *v (a number, or
 * another JSON value the caller refuses) when there is one, else 0;
 * CV_M_MASTER_THETA writes it as <arch>.rope.freq_base(_swa). */
int lgg__cv_master_theta(const struct lgg_convert *c, int swa, const json_t **v);
lgg_status lgg__cv_master_theta_key(struct lgg_convert *c, const char *key, int swa, lgg_error *err);
/* Master's TextModel: text_config's keys over config.json's top level;
 * its filter_tensors' multimodal parts (1: the tensor is not the text
 * model's); hf copied to out from out[o] on without every `part`
 * (ModelBase's "language_model."): the length, 0 when it does not fit. */
lgg_status lgg__cv_master_text_config(struct lgg_convert *c, lgg_error *err);
int lgg__cv_master_multimodal(const char *hf);
size_t lgg__cv_master_strip(const char *hf, const char *part, char *out, size_t o, size_t cap);
/* Master's _try_set_pooling_type: sentence-transformers' pooling module
 * (modules.json's *Pooling entry, inside the checkpoint) as <arch>.pooling_type. */
lgg_status lgg__cv_master_pooling(struct lgg_convert *c, lgg_error *err);
/* Master's LlamaModel.filter_tensors (an hf_name hook): "text_model." out, then
 * TextModel's multimodal filter, then "language_model." out. */
int lgg__cv_master_llama_name(const char *hf, char *out, size_t cap);
/* TextModel's filter_tensors (an hf_name hook): the multimodal parts out, then
 * ModelBase's "language_model." out (GLM-4V's text, Hunyuan). */
int lgg__cv_master_text_name(const char *hf, char *out, size_t cap);
/* families/pangu.c (a tensor hook): a mapped lm_head taken out when tie_word_embeddings is true in Python's sense. */
lgg_status lgg__cv_drop_tied_head(struct lgg_convert *c, struct cv_tensor *t, lgg_error *err);
/* The add_{bos,eos,sep}_token flags (k = 0, 1, 2) in the order they were
 * first set, with their values. */
typedef struct cv_master_add {
    int val[3], order[3], n;
} cv_master_add;
/* master's reading of tokenizer.json's post-processor (RobertaProcessing,
 * TemplateProcessing) into *a, before tokenizer_config.json's add_*_token
 * flags: tc (a copy of tokenizer_config.json, or NULL) gets the bos, cls,
 * eos, sep tokens the templates name, and eot_token (*eot set) when an EOS
 * other than tokenizer_config.json's ends the single template. */
void lgg__cv_master_post(const json_t *tj, json_t *tc, cv_master_add *a, int *eot);
/* master's partial rotary dimension, int(head_dim (else hidden_size //
 * heads) x partial_rotary_factor of its rope parameters, which mirror
 * config.json's own; 0.5 without one), as config.json's lgg.rope_dim (GLM-4,
 * Bailing V2).  The next-token-prediction blocks (num_nextn_predict_layers)
 * added to num_hidden_layers (the block count and the tensors' bound). */
/* The rope parameters master reads: rope_parameters, else rope_scaling (a
 * null or non-object one is none). */
const json_t *lgg__cv_master_rope_params(const struct lgg_convert *c);
lgg_status lgg__cv_master_rope_dim(struct lgg_convert *c, lgg_error *err);
lgg_status lgg__cv_master_nextn_blocks(struct lgg_convert *c, lgg_error *err);
/* master.c: config.json's lgg.rope_dim = int(head_dim (else hidden_size / num_attention_heads) x
 * the partial rotary factor master reads (rope_parameters, rope_scaling, then the config's own; dflt
 * without one). */
lgg_status lgg__cv_partial_rope_dim(struct lgg_convert *c, double dflt, lgg_error *err);
/* families/qwen3next.c: master's _QwenMtpMixin names: mtp.* (and model.mtp.*) as blocks past
 * num_hidden_layers (lgg.main_layers) into out; hf itself when it is not one (CV_F_QWEN_MTP). */
const char *lgg__cv_qwen_mtp_name(const struct lgg_convert *c, const char *hf, char *out, size_t cap);
/* families/jamba.c: master's JambaModel renames (".moe." as ".feed_forward.", a dense block's
 * ".experts.0." out), into out (hf itself when it does not fit; hf and out may not overlap). */
const char *lgg__cv_jamba_name(const struct lgg_convert *c, const char *hf, char *out, size_t cap);

/* families/glm4.c: master's DeepseekV2Model __init__ and hparams (nextn 1: count the next-token-prediction
 * blocks unless --no-mtp; 2: DeepSeek-OCR's, without latent attention), and its kv_b_proj split into attn_k_b and attn_v_b (a tensor hook). */
lgg_status lgg__cv_mla_init(struct lgg_convert *c, int nextn, lgg_error *err);
lgg_status lgg__cv_mla_kv_b(struct lgg_convert *c, struct cv_tensor *t, lgg_error *err);
/* families/glm4.c: GLM-4.5's vocabulary (the byte-level BPE reader's, then bos [gMASK], eot <|user|>, unk
 * <|endoftext|>, eom <|observation|> by added token where the files named none; GLM-DSA's too). */
lgg_status lgg__cv_glm_vocab(struct lgg_convert *c, json_t *tc, const struct lgg_convert_options *o, lgg_error *err);
/* meta.c */
lgg_status lgg__cv_metadata(struct lgg_convert *c, const lgg_convert_options *o, lgg_error *err);
/* The keys of table m in its order (a family hook writing its keys around its own). */
lgg_status lgg__cv_meta_keys(struct lgg_convert *c, const cv_mkey *m, lgg_error *err);
lgg_status lgg__cv_add_tensors(struct lgg_convert *c, lgg_error *err);
lgg_status lgg__cv_writer_add(lgg_writer *w, cv_tensor *t, uint32_t type, int keep_dims, lgg_error *err);

#endif
