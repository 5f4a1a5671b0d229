/* libgguf/model.h -- whole models: importance matrices, llama-quantize's
 * presets and per-tensor plan, the quantized-model writer. Part of libgguf's
 * public API, included by libgguf.h (only that one is included directly; its
 * conventions hold here). */
#ifndef LIBGGUF_MODEL_H
#define LIBGGUF_MODEL_H

#ifndef LIBGGUF_H
#error "include libgguf.h, which includes this header (inside its extern \"C\")"
#endif

/* ======================================================================== */
/* Importance matrices (llama.cpp's imatrix files)                           */
/* ======================================================================== */

/* An importance matrix: per tensor name, a vector of weights (one per
 * column, times the number of experts for 3-D expert tensors), as
 * llama-quantize uses them: the legacy format's sums are divided by their
 * call count, the GGUF format's `<name>.in_sum2` by `<name>.counts` (a
 * slice with count 0 gets weights 1).
 *
 * Both formats are read: the legacy `.dat` (i32 entry count; per entry an
 * i32 name length, the name, i32 call count, i32 value count, the f32
 * values; then optionally the i32 chunk count, an i32 dataset name length
 * and the name) and the GGUF one (general.type "imatrix", imatrix.datasets,
 * imatrix.chunk_count, imatrix.chunk_size, tensors `<name>.in_sum2` [ne0,
 * ne1] f32 and `<name>.counts` [ne1] f32).  A file that starts with "GGUF"
 * is read as GGUF; anything else as legacy.  Files are untrusted: every
 * length and count is checked against the bytes present.
 * A name met twice keeps its last vector (as llama.cpp's map does).
 * Not thread-safe while being filtered; read-only use is. */
typedef struct lgg_imatrix lgg_imatrix;

#define LGG_IMATRIX_LEGACY 1
#define LGG_IMATRIX_GGUF 2

/* Read an importance matrix from `size` bytes at `data` (copied: the buffer
 * may be released after the call) or from the file at `path`.
 * Errors: LGG_ERR_ARG, LGG_ERR_IO, LGG_ERR_NOMEM, LGG_ERR_TRUNCATED (the
 * data ends inside a field), LGG_ERR_INVALID (no entries, a negative or zero
 * count, a GGUF imatrix missing its keys or with a sums tensor without
 * counts, tensors that are not f32, trailing bytes), or a GGUF open error.
 * Free with lgg_imatrix_free(). */
LGG_API lgg_status lgg_imatrix_load_memory(const void *data, size_t size, const lgg_allocator *allocator,
                                           lgg_imatrix **out, lgg_error *err);
LGG_API lgg_status lgg_imatrix_load_file(const char *path, const lgg_allocator *allocator, lgg_imatrix **out,
                                         lgg_error *err);
LGG_API void lgg_imatrix_free(lgg_imatrix *m); /* NULL is a no-op */

/* LGG_IMATRIX_LEGACY or LGG_IMATRIX_GGUF. */
LGG_API int lgg_imatrix_format(const lgg_imatrix *m);
/* Number of entries (distinct names), what llama-quantize stores as
 * quantize.imatrix.entries_count. */
LGG_API size_t lgg_imatrix_count(const lgg_imatrix *m);
/* The i-th entry (i < count): its name (NUL-terminated, owned by m) and
 * values (*n_values of them).  NULL if out of range. */
LGG_API const char *lgg_imatrix_entry(const lgg_imatrix *m, size_t i, const float **values, uint64_t *n_values);
/* The values of the entry named (name, len), or NULL. */
LGG_API const float *lgg_imatrix_find(const lgg_imatrix *m, const char *name, size_t len, uint64_t *n_values);
/* Chunks the matrix was computed on (legacy: the trailing count, 0 if the
 * file has none; GGUF: imatrix.chunk_count). */
LGG_API int64_t lgg_imatrix_chunks(const lgg_imatrix *m);
/* The (first) dataset name; len 0 and false if the file names none. */
LGG_API bool lgg_imatrix_dataset(const lgg_imatrix *m, lgg_str *out);
/* Keep only what llama-quantize keeps with --exclude-weights and
 * --include-weights: first every entry whose name contains one of
 * `exclude` is dropped, then, when n_include > 0, only entries whose name
 * contains one of `include` stay. */
LGG_API void lgg_imatrix_filter(lgg_imatrix *m, const char *const *include, size_t n_include,
                                const char *const *exclude, size_t n_exclude);

/* ======================================================================== */
/* Quantizing a model: presets, the per-tensor plan, the output file         */
/* ======================================================================== */

/* A llama-quantize preset ("Q4_K_M").  `ftype` is llama.cpp's LLAMA_FTYPE
 * value (what general.file_type records); `type` the default tensor type
 * (LGG_TYPE_COUNT for COPY, which copies every tensor). */
typedef struct lgg_quant_preset {
    const char *name;
    uint32_t ftype;
    uint32_t type;
    const char *desc;
} lgg_quant_preset;

/* The presets in llama-quantize's order (aliases Q3_K, Q4_K, Q5_K included;
 * plus MXFP4_MOE).  lgg_quant_preset_at returns NULL past the end. */
LGG_API size_t lgg_quant_preset_count(void);
LGG_API const lgg_quant_preset *lgg_quant_preset_at(size_t i);
/* By name (case-insensitive) or by ftype id in decimal ("15"); the first
 * match in list order (so "0" is F32, not COPY).  NULL if none. */
LGG_API const lgg_quant_preset *lgg_quant_preset_find(const char *name_or_id);

/* --tensor-type PATTERN=TYPE: a POSIX extended regular expression searched
 * in each tensor name; the last matching rule wins. */
typedef struct lgg_tensor_type_rule {
    const char *pattern;
    uint32_t type;
} lgg_tensor_type_rule;

typedef struct lgg_quant_options {
    size_t size;                     /* sizeof(lgg_quant_options), or 0 (see lgg_open_options) */
    const lgg_quant_preset *preset;  /* required */
    bool allow_requantize;           /* quantized inputs may be converted again */
    bool leave_output_tensor;        /* output.weight is copied as it is */
    bool pure;                       /* no per-tensor mixture: every quantized tensor gets the preset's type */
    bool keep_split;                 /* keep the input's splits: tensors in split and file order (which the
                                        mixture rules' layer counters follow), one output per split */
    uint32_t output_tensor_type;     /* LGG_TYPE_COUNT: the preset's rules */
    uint32_t token_embedding_type;   /* LGG_TYPE_COUNT: the preset's rules */
    const lgg_tensor_type_rule *tensor_types;
    size_t n_tensor_types;
    const lgg_imatrix *imatrix;      /* NULL, or already filtered; one without entries counts as none */
    const lgg_allocator *allocator;  /* NULL: malloc/free */
    /* llama-quantize --prune-layers (master): the layers left out (sorted,
     * distinct, none negative); the others' "blk.N." renumbered in order,
     * ARCH.block_count set to the count kept; the imatrix is looked up by
     * the original names */
    const int32_t *prune_layers;
    size_t n_prune_layers;
} lgg_quant_options;
#define LGG_QUANT_OPTIONS_INIT \
    {.size = sizeof(lgg_quant_options), .output_tensor_type = LGG_TYPE_COUNT, .token_embedding_type = LGG_TYPE_COUNT}

/* Fill `o` with the defaults: no preset, no options, no imatrix. */
LGG_API void lgg_quant_options_init(lgg_quant_options *o);

/* One output tensor of a plan, in output order. */
typedef struct lgg_quant_item {
    uint32_t file;          /* index of the input file (split) it comes from */
    uint64_t tensor;        /* its index in that file */
    const lgg_tensor *t;    /* the input tensor */
    uint32_t type;          /* output type */
    bool convert;           /* converted (else its bytes are copied) */
    bool fallback;          /* the rules' type did not divide the row length; a fallback was used */
    const float *imatrix;   /* weights used (ne[0]*ne[2]), or NULL */
    uint64_t size;          /* output bytes */
    lgg_str name;           /* output name: t's, or with --prune-layers its renumbered layer */
} lgg_quant_item;

typedef struct lgg_quant_plan lgg_quant_plan;

/* Decide every tensor's output type exactly as llama-quantize (llama.cpp
 * master 3f545becc; b4747 where master did not change it) does:
 * tensor order (by layer number, then name), which tensors are quantized
 * (2-D/3-D weights; not norms, expert gates, position embeddings...), the
 * preset's rules by architecture, layer, grouped-query attention, expert
 * count, output and embedding tensors, the fallbacks for row lengths the
 * block size does not divide, and the refusals.  `files` are the input's
 * splits in order (one file for an unsplit model); metadata comes from
 * files[0].  The plan keeps pointers into the files and the imatrix: they
 * must outlive it.
 * Errors: LGG_ERR_ARG, LGG_ERR_NOMEM, LGG_ERR_NEEDS_IMATRIX (a very-low-bit
 * type for a tensor the imatrix does not cover; the message names it),
 * LGG_ERR_UNSUPPORTED (requantizing without allow_requantize, a type that
 * cannot be converted), LGG_ERR_INVALID (imatrix with a non-finite value or
 * of the wrong size, bad regular expression, bad layer in a tensor name),
 * LGG_ERR_RANGE (a forced type that does not divide a row). */
LGG_API lgg_status lgg_quant_plan_create(const lgg_file *const *files, size_t n_files, const lgg_quant_options *o,
                                         lgg_quant_plan **out, lgg_error *err);
LGG_API void lgg_quant_plan_free(lgg_quant_plan *p); /* NULL is a no-op */
LGG_API size_t lgg_quant_plan_count(const lgg_quant_plan *p);
LGG_API const lgg_quant_item *lgg_quant_plan_at(const lgg_quant_plan *p, size_t i);
/* The general.file_type the output gets (the preset's; COPY keeps the
 * input's, or guesses it from the most common tensor type as llama.cpp). */
LGG_API uint32_t lgg_quant_plan_file_type(const lgg_quant_plan *p);
/* Fallbacks used. */
LGG_API size_t lgg_quant_plan_fallbacks(const lgg_quant_plan *p);

/* Progress of lgg_quant_plan_write: called on the writing thread after
 * each piece of output, with the item being written (index of count) and
 * the tensor bytes written so far out of the total. */
typedef void (*lgg_quant_progress_fn)(void *ud, size_t item, size_t n_items, uint64_t bytes_done,
                                      uint64_t bytes_total);

/* A metadata key set on the output (--override-kv): removed where it was
 * and appended, as llama-quantize's gguf_set_val does. */
typedef struct lgg_quant_kv {
    const char *key;
    lgg_wvalue value;
} lgg_quant_kv;

typedef struct lgg_quant_write_options {
    size_t size;                    /* sizeof(lgg_quant_write_options), or 0 (see lgg_open_options) */
    int n_threads;                  /* <= 0: one per CPU */
    const lgg_quant_kv *overrides;  /* applied in order after general.file_type */
    size_t n_overrides;
    const char *imatrix_file;       /* the name recorded as quantize.imatrix.file (first 127 bytes) */
    const int *input_fds;           /* NULL, or one descriptor per input file (read-only): tensors that are
                                       copied use copy_file_range, and an output that is one of the
                                       inputs is refused with LGG_ERR_EXISTS */
    lgg_quant_progress_fn progress;
    void *progress_ud;
    uint32_t write_flags;           /* LGG_WRITE_* (LGG_WRITE_NO_SYNC: skip the fsyncs) */
    /* as in lgg_write_options: told about each output's temporary file */
    void (*temp_fn)(void *temp_ud, const char *tmp_path, int created);
    void *temp_ud;
} lgg_quant_write_options;
#define LGG_QUANT_WRITE_OPTIONS_INIT {.size = sizeof(lgg_quant_write_options)}

LGG_API void lgg_quant_write_options_init(lgg_quant_write_options *o);

/* Write the quantized model to `path` (when the plan keeps splits, `path`
 * minus a trailing ".gguf" is the prefix of the split names
 * PREFIX-00001-of-0000N.gguf; split 0 gets the metadata, every split
 * split.no, split.count and split.tensors.count), through
 * lgg_writer_write_file: sequential, atomic (temporary file, fsync,
 * rename).  Metadata: every pair of files[0] in order, then
 * general.quantization_version (u32 2) and general.file_type (u32), split.*
 * removed, the overrides, then, when the plan uses an imatrix,
 * quantize.imatrix.file (when imatrix_file is set) and .dataset (when the
 * matrix names one; strings), .entries_count and .chunks_count (when > 0;
 * u32 as llama.cpp master writes them; b4747 wrote i32), exactly as
 * llama-quantize writes them.  Rows are converted by
 * n_threads threads ahead of the writer through a bounded ring of buffers,
 * so memory stays at a few MiB per thread whatever the model's size; the
 * caller's thread writes and is one of the n_threads (n_threads - 1 are
 * started).  The bytes are the same for every n_threads.
 * Errors: those of lgg_writer_write_file and lgg_quantize_rows (the
 * message names the tensor); LGG_ERR_EXISTS when input_fds are given and
 * an output path is one of the inputs.  On error the file being written
 * is not left behind (splits completed before it stay). */
LGG_API lgg_status lgg_quant_plan_write(const lgg_quant_plan *p, const char *path, const lgg_quant_write_options *o,
                                        lgg_error *err);

/* Set on `w` the metadata lgg_quant_plan_write gives its (first) output,
 * in the same order: every pair of files[0], general.quantization_version
 * and general.file_type appended, split.* removed, o's overrides, the
 * quantize.imatrix.* keys.  For a writer that produces the plan's tensors
 * itself (a converter that quantizes as it reads another format).
 * Errors: LGG_ERR_ARG (NULL, an override without a key), those of
 * lgg_writer_set. */
LGG_API lgg_status lgg_quant_plan_set_metadata(const lgg_quant_plan *p, const lgg_quant_write_options *o,
                                               lgg_writer *w, lgg_error *err);

/* Bytes the output file(s) of lgg_quant_plan_write would have, in total. */
LGG_API lgg_status lgg_quant_plan_output_size(const lgg_quant_plan *p, const lgg_quant_write_options *o,
                                              uint64_t *size, lgg_error *err);

#endif /* LIBGGUF_MODEL_H */
