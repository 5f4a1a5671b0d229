/* libgguf/quant.h -- tensor data: dequantization and quantization, row by row,
 * byte-identical to ggml. Part of libgguf's public API, included by libgguf.h
 * (only that one is included directly; its conventions hold here). */
#ifndef LIBGGUF_QUANT_H
#define LIBGGUF_QUANT_H

#ifndef LIBGGUF_H
#error "include libgguf.h, which includes this header (inside its extern \"C\")"
#endif

/* ======================================================================== */
/* Dequantization: every type that holds data to f32                         */
/* ======================================================================== */

/* Convert `n` elements of type `type`, stored at `src` in byte order `endian`,
 * to f32 at `dst` (n floats).  Bit-identical to ggml's to_float for every
 * type, NaN and infinite scales included.
 * Errors: LGG_ERR_ARG (NULL pointer), LGG_ERR_UNSUPPORTED (unknown or removed
 * type), LGG_ERR_RANGE (n not a multiple of the block size, or src_size smaller
 * than the bytes n elements need).  Thread-safe; uses the best SIMD path the
 * CPU has, which gives the same bits as the scalar reference.  Host-order
 * outputs of 8 MiB or more of the quantized types and I8 are written with
 * non-temporal (cache-bypassing) stores on the AVX2 path: faster for data
 * that does not fit the caches, and they leave the caches to the caller. */
LGG_API lgg_status lgg_dequantize(uint32_t type, const void *src, size_t src_size,
                                  lgg_endian endian, float *dst, uint64_t n);

/* The scalar reference implementation behind lgg_dequantize (same contract).
 * Exists so that tests and benchmarks can compare the two paths. */
LGG_API lgg_status lgg_dequantize_ref(uint32_t type, const void *src, size_t src_size,
                                      lgg_endian endian, float *dst, uint64_t n);

/* Rows [row_begin, row_end) of tensor `t` of open file `f` (a row is ne[0]
 * elements) into `dst`, which holds at least (row_end-row_begin)*ne[0] floats
 * (`dst_count`).  Callers split work across threads by row ranges.
 * Errors as lgg_dequantize, plus LGG_ERR_RANGE for a bad row range or a small
 * dst, LGG_ERR_UNSUPPORTED when the data is unavailable.  Thread-safe. */
LGG_API lgg_status lgg_dequantize_rows(const lgg_file *f, const lgg_tensor *t,
                                       uint64_t row_begin, uint64_t row_end,
                                       float *dst, uint64_t dst_count);

/* The whole tensor with up to `n_threads` threads (<= 0: one per CPU).  Same
 * result for any thread count.  dst holds at least t->n_elements floats. */
LGG_API lgg_status lgg_dequantize_tensor(const lgg_file *f, const lgg_tensor *t,
                                         float *dst, uint64_t dst_count, int n_threads);

/* The SIMD path lgg_dequantize uses on this CPU, one of exactly three:
 * "avx2" (x86-64 with AVX2 and F16C, detected at run time), "neon"
 * (AArch64) or "scalar" (the portable reference, everywhere else).  There is
 * no AVX-512 path: AVX-512 CPUs use "avx2".  Static storage; thread-safe. */
LGG_API const char *lgg_simd_name(void);

/* Decode one UTF-8 character at `data` (len bytes available).  Returns the
 * bytes consumed (0 only when len is 0) and stores the code point in *cp
 * (cp may be NULL).  Ill-formed input stores LGG_UTF8_INVALID and consumes
 * the maximal subpart of a well-formed sequence (at least one byte), as
 * Unicode recommends (chapter 3, "U+FFFD Substitution of Maximal Subparts"),
 * so a caller that writes one U+FFFD per error replaces each ill-formed
 * subsequence once.  Overlongs, surrogates and code points above U+10FFFF are
 * ill-formed.  Thread-safe. */
#define LGG_UTF8_INVALID 0xFFFFFFFFu
LGG_API size_t lgg_utf8_decode(const void *data, size_t len, uint32_t *cp);

/* ======================================================================== */
/* Quantization: f32 rows to ggml types, byte-identical to ggml              */
/* ======================================================================== */

/* True if lgg_quantize can produce `type`. */
LGG_API bool lgg_type_can_quantize(uint32_t type);
/* True if `type` cannot be quantized without an importance matrix
 * (IQ2_XXS, IQ2_XS, IQ1_S, exactly ggml's list; IQ1_M quantizes without
 * one, as in ggml). */
LGG_API bool lgg_type_needs_imatrix(uint32_t type);

/* Quantize `nrows` rows of `n_per_row` f32 values at `src` into `type`,
 * writing little-endian blocks to `dst` (dst_size bytes available).  `imatrix`
 * is NULL or n_per_row importance weights (one per column).  Byte-identical to
 * ggml_quantize_chunk(type, src, dst, 0, nrows, n_per_row, imatrix) on every
 * code path.  Each output row is checked for NaN/Inf before it is accepted.
 * Stores the bytes written in *written (may be NULL).
 * Errors: LGG_ERR_ARG, LGG_ERR_UNSUPPORTED (type cannot be quantized),
 * LGG_ERR_RANGE (n_per_row not a multiple of the block size, dst too small),
 * LGG_ERR_NEEDS_IMATRIX, LGG_ERR_INVALID (NaN/Inf in the output row),
 * LGG_ERR_NOMEM.  Thread-safe (callers split rows across threads). */
LGG_API lgg_status lgg_quantize(uint32_t type, const float *src, void *dst, size_t dst_size,
                                int64_t nrows, int64_t n_per_row, const float *imatrix,
                                size_t *written);


/* Quantize rows [row_begin, row_end) of tensor `t` of open file `f` (any
 * type lgg_dequantize reads, in either byte order: F32, F16, BF16 or an
 * already quantized type) to `type`: each row is converted to f32 and then
 * quantized exactly as lgg_quantize does.  A row is ne[0] elements; rows run
 * over all higher dimensions, so `imatrix`, when not NULL, holds
 * ne[0]*ne[2] weights: one vector of ne[0] per ne[2] slice (an expert), the
 * layout llama.cpp's importance matrices use for 3-D expert tensors.
 * `scratch` holds `scratch_count` floats of working memory, at least one row;
 * more rows per call amortize overheads.  Output goes to `dst` (dst_size
 * bytes, at least (row_end-row_begin) rows of `type`).
 * Errors: LGG_ERR_ARG, LGG_ERR_RANGE (bad row range, small buffers, ne[0]
 * not a multiple of the type's block size), LGG_ERR_UNSUPPORTED (unknown
 * input type, data unavailable, type not quantizable),
 * LGG_ERR_NEEDS_IMATRIX, LGG_ERR_INVALID (NaN/Inf in an output row).
 * Thread-safe: threads split a tensor by row ranges, and every row comes out
 * the same whatever the split. */
LGG_API lgg_status lgg_quantize_rows(const lgg_file *f, const lgg_tensor *t, uint32_t type, const float *imatrix,
                                     uint64_t row_begin, uint64_t row_end, void *dst, size_t dst_size,
                                     float *scratch, size_t scratch_count);

/* The whole tensor with up to `n_threads` threads (<= 0: one per CPU) into
 * dst (at least the tensor's size in `type`).  Memory used besides dst: a
 * bounded f32 scratch per thread, from the allocator f was opened with.
 * Same bytes for any thread count.  Errors
 * as lgg_quantize_rows, plus LGG_ERR_NOMEM. */
LGG_API lgg_status lgg_quantize_tensor(const lgg_file *f, const lgg_tensor *t, uint32_t type, const float *imatrix,
                                       void *dst, size_t dst_size, int n_threads);

#endif /* LIBGGUF_QUANT_H */
