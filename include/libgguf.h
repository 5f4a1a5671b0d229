/*
 * libgguf.h -- read, validate, write and convert GGUF model files.
 *
 * This header is the manual. Every function says what it returns, which
 * errors it reports, who owns what, and whether it may be called from several
 * threads at once.
 *
 * Conventions that hold everywhere unless a function says otherwise:
 *
 *  - Names.  Every public name starts with `lgg_` (functions, types) or `LGG_`
 *    (macros, enum constants).  None equals a name of ggml's, so a program can
 *    include and link both libraries.
 *
 *  - Errors.  Fallible functions return an `lgg_status`: LGG_OK (0) on success,
 *    a stable non-zero code otherwise.  Codes are never renumbered or reused.
 *    Functions that take an `lgg_error *err` also fill it with the code, the
 *    byte offset in the file the problem was found at (LGG_NO_OFFSET if none)
 *    and a one-line message, e.g.
 *      "string length 9223372036854775813 at offset 24 exceeds the 11 bytes
 *       left in the file".
 *    `err` may be NULL.  The library never prints, never aborts, never exits.
 *
 *  - Strings.  GGUF strings are not NUL-terminated.  The library hands them out
 *    as `lgg_str` (pointer + length) views into the file's bytes.  They may
 *    contain any bytes, NUL included.  Functions that take a key or a tensor
 *    name take pointer + length too; the `*_cstr` conveniences take a C string.
 *
 *  - Ownership.  Views (lgg_str, lgg_value, const lgg_kv *, const lgg_tensor *)
 *    point into memory owned by the `lgg_file` they came from and stay valid
 *    until that file is closed.  Every `*_open*`/`*_create` has a matching
 *    `*_close`/`*_free` that accepts NULL.
 *
 *  - Threads.  No hidden global state.  A `lgg_file` is immutable after it is
 *    opened: every read-only function on it may be called from any number of
 *    threads at once.  Writers and reports are single-threaded objects.
 *
 *  - Untrusted input.  Every file is untrusted.  Every count, length, offset and
 *    product read from a file is checked against the bytes that remain, with
 *    overflow-checked arithmetic, before it is used; nothing is allocated from a
 *    size the file claims.  Opening allocates O(number of keys + number of
 *    tensors) small records and copies no strings or arrays.
 */
#ifndef LIBGGUF_H
#define LIBGGUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(LGG_BUILD_SHARED)
#define LGG_API __declspec(dllexport)
#elif defined(__GNUC__)
#define LGG_API __attribute__((visibility("default")))
#else
#define LGG_API
#endif
#if defined(__GNUC__)
#define LGG_FORMAT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LGG_FORMAT_PRINTF(f, a)
#endif

#define LGG_VERSION_MAJOR 0
#define LGG_VERSION_MINOR 1
#define LGG_VERSION_PATCH 0
/* The three numbers above are the only place the version is written: the
 * string, the Makefile's VERSION (shared library name, pkg-config) and
 * the tool's --version come from them; a test checks the man page. */
#define LGG__VSTR(x) #x
#define LGG__VXSTR(x) LGG__VSTR(x)
#define LGG_VERSION_STRING                                                                                    \
    LGG__VXSTR(LGG_VERSION_MAJOR) "." LGG__VXSTR(LGG_VERSION_MINOR) "." LGG__VXSTR(LGG_VERSION_PATCH)

/* The library's version string, e.g. "0.1.0".  Static storage; thread-safe. */
LGG_API const char *lgg_version(void);

/* ======================================================================== */
/* Status codes and errors                                                   */
/* ======================================================================== */

/* Stable codes: values are part of the ABI and are never reused. */
typedef enum lgg_status {
    LGG_OK = 0,
    /* Environment and caller. */
    LGG_ERR_IO = 1,            /* open/stat/mmap/read/write failed (errno in the message) */
    LGG_ERR_NOMEM = 2,         /* an allocation failed */
    LGG_ERR_ARG = 3,           /* a caller passed an invalid argument */
    /* Structural: the file cannot be trusted at all (open fails). */
    LGG_ERR_MAGIC = 4,         /* the first four bytes are not "GGUF"; GGUF's predecessors are named:
                                  "legacy pre-GGUF format (ggjt v3), not GGUF" (ggml unversioned, ggmf
                                  vN, ggjt vN, the magic in either byte order) */
    LGG_ERR_VERSION = 5,       /* version is not 1, 2 or 3 (in either byte order) */
    LGG_ERR_TRUNCATED = 6,     /* a field, string, array or tensor's data runs past the end of the file */
    LGG_ERR_LIMIT = 7,         /* a configured cap (lgg_limits) was exceeded */
    LGG_ERR_VALUE_TYPE = 8,    /* unknown metadata value type */
    LGG_ERR_NESTING = 9,       /* arrays nested deeper than lgg_limits.max_depth */
    LGG_ERR_ALIGNMENT = 10,    /* general.alignment is not a non-zero power of two */
    LGG_ERR_TENSOR_DUP = 11,   /* two tensors have the same name */
    LGG_ERR_TENSOR_NDIMS = 12, /* n_dims greater than 4 (or lgg_limits.max_dims) */
    LGG_ERR_TENSOR_DIMS = 13,  /* a negative dimension, or an element count or byte size that overflows */
    LGG_ERR_TENSOR_BLOCK = 14, /* ne[0] is not a multiple of the type's block size */
    LGG_ERR_TENSOR_ALIGN = 15, /* a tensor's data offset is not a multiple of the alignment */
    LGG_ERR_TENSOR_BOUNDS = 16,/* a tensor's data offset lies beyond any possible file (offset + size overflows);
                                  data that merely runs past the end is LGG_ERR_TRUNCATED */
    LGG_ERR_TENSOR_OVERLAP = 17,/* two tensors' data overlap */
    /* Access. */
    LGG_ERR_NOT_FOUND = 18,    /* no such key or tensor */
    LGG_ERR_TYPE = 19,         /* the value has another type than the one asked for */
    LGG_ERR_RANGE = 20,        /* index or value out of range */
    LGG_ERR_UNSUPPORTED = 21,  /* the operation is not defined for this type/version/option */
    LGG_ERR_INVALID = 22,      /* invalid data (e.g. NaN or Inf in quantized output, bad value text) */
    LGG_ERR_EXISTS = 23,       /* the output is one of the inputs, or already exists when it must not */
    LGG_ERR_NEEDS_IMATRIX = 24,/* this type cannot be quantized without an importance matrix */
    LGG_ERR_NO_DATA = 25       /* the tensor's data is not in memory: the file was opened header-only
                                  (lgg_open_source); lgg_file_load_tensor reads it */
} lgg_status;

/* Offset value meaning "no particular byte offset". */
#define LGG_NO_OFFSET UINT64_MAX

typedef struct lgg_error {
    lgg_status code;
    uint64_t offset;      /* absolute byte offset in the file, or LGG_NO_OFFSET */
    char message[320];    /* NUL-terminated, one line, no trailing newline */
} lgg_error;

/* Short stable name of a code, e.g. "truncated", "tensor-overlap".  Never NULL
 * (unknown codes give "unknown").  Thread-safe. */
LGG_API const char *lgg_status_name(lgg_status code);

/* ======================================================================== */
/* Allocation hook and limits                                                */
/* ======================================================================== */

/* Every allocation the library makes goes through one of these.  `ud` is passed
 * back unchanged.  alloc returns NULL on failure; free(NULL) must be a no-op.
 * realloc may be NULL, in which case the library uses alloc+copy+free.
 * A NULL allocator pointer anywhere means malloc/realloc/free. */
typedef struct lgg_allocator {
    void *(*alloc)(void *ud, size_t size);
    void *(*realloc)(void *ud, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ud, void *ptr);
    void *ud;
} lgg_allocator;

/* Caps applied while parsing.  A file that exceeds one fails to open with
 * LGG_ERR_LIMIT.  Zero in a field means "use the default". */
typedef struct lgg_limits {
    uint64_t max_string_len; /* default 1 GiB: longest string (key, value or tensor name) */
    uint64_t max_array_len;  /* default 2^32: most elements in one array */
    uint32_t max_depth;      /* default 16: deepest array nesting (an array of scalars is depth 1) */
    uint64_t max_kv;         /* default 2^24: most metadata pairs */
    uint64_t max_tensors;    /* default 2^24: most tensors */
    uint32_t max_dims;       /* default 4 (also the maximum): most dimensions of a tensor */
} lgg_limits;

#define LGG_DEFAULT_MAX_STRING_LEN (UINT64_C(1) << 30)
#define LGG_DEFAULT_MAX_ARRAY_LEN (UINT64_C(1) << 32)
#define LGG_DEFAULT_MAX_DEPTH 16u
#define LGG_DEFAULT_MAX_KV (UINT64_C(1) << 24)
#define LGG_DEFAULT_MAX_TENSORS (UINT64_C(1) << 24)
#define LGG_MAX_DIMS 4u

/* Open flags. */
#define LGG_OPEN_ALLOW_MISSING_DATA 0x1u /* a tensor whose data lies past the end of the file
                                            does not fail open: its `data` is NULL and
                                            `data_available` false (for inspecting partial
                                            downloads).  A metadata-only file (tensor infos,
                                            no data section: ggml's gguf_write_to_file with
                                            only_meta) opens too, its data offset past the
                                            end (lgg_file_metadata_only).  Other structural
                                            checks still apply. */
#define LGG_OPEN_ALLOW_BAD_LAYOUT 0x2u   /* a file whose tensor table is bad only in where
                                            the data lies (overlapping tensors, data outside
                                            any file, a misaligned offset) opens for
                                            inspecting its header: no tensor's data is
                                            available (lgg_file_load_tensor fails too) and
                                            lgg_file_layout_error gives the error lgg_open
                                            would have failed with.  Every other check
                                            still applies. */

/* Options structs.  Every struct of options a caller fills (lgg_*_options,
 * lgg_estimate_params) begins with `size`, so that fields can be added
 * without a new function or soname:
 *  - set size to sizeof the struct: its LGG_*_INIT macro and its _init
 *    function do (they also set the defaults);
 *  - or leave it 0, as `= {0}` and designated initializers do: 0 stands for
 *    the first layout, the one of libgguf 0.1 (every field there is now), so
 *    such callers keep working when fields are added;
 *  - the library reads only the fields a size covers and takes zero (the
 *    field's documented default) for the rest; a size larger than the
 *    struct the library knows is accepted when the bytes it does not know
 *    are zero, and fails with LGG_ERR_UNSUPPORTED otherwise (an option this
 *    version cannot honour); a size above 0 but below the first layout is
 *    LGG_ERR_ARG.
 * New fields are added at the end, zero meaning the behaviour before them,
 * and never in the tail padding of the struct before them (an older
 * caller's size covers that padding, whose bytes are not set). */

/* The rule above, for libraries built on libgguf whose options follow it:
 * copy the caller's struct `src` (its first member a size_t size; NULL:
 * all zeros) into `dst` (`dst_size` bytes, the struct this code knows, whose
 * first layout is `first_size` bytes), zero-filling what the caller's size
 * does not cover, and set dst's size to dst_size.  Returns LGG_OK,
 * LGG_ERR_ARG or LGG_ERR_UNSUPPORTED (with err filled, naming `what`). */
LGG_API lgg_status lgg_options_copy(void *dst, size_t dst_size, size_t first_size, const void *src,
                                    const char *what, lgg_error *err);

typedef struct lgg_open_options {
    size_t size;                    /* sizeof(lgg_open_options), or 0 (see above) */
    const lgg_allocator *allocator; /* NULL: malloc/free */
    lgg_limits limits;              /* zeros: defaults */
    uint32_t flags;                 /* LGG_OPEN_* */
} lgg_open_options;
#define LGG_OPEN_OPTIONS_INIT {.size = sizeof(lgg_open_options)}

/* Fill `o` with the defaults (NULL allocator, default limits, no flags). */
LGG_API void lgg_open_options_init(lgg_open_options *o);

/* ======================================================================== */
/* Tensor types: one table for every ggml type id                            */
/* ======================================================================== */

/* ggml's type ids, as stored in GGUF tensor infos.  Removed ids (4, 5, 31-33,
 * 36-38) are known to the table as removed. */
typedef enum lgg_type {
    LGG_TYPE_F32 = 0,
    LGG_TYPE_F16 = 1,
    LGG_TYPE_Q4_0 = 2,
    LGG_TYPE_Q4_1 = 3,
    LGG_TYPE_Q5_0 = 6,
    LGG_TYPE_Q5_1 = 7,
    LGG_TYPE_Q8_0 = 8,
    LGG_TYPE_Q8_1 = 9,
    LGG_TYPE_Q2_K = 10,
    LGG_TYPE_Q3_K = 11,
    LGG_TYPE_Q4_K = 12,
    LGG_TYPE_Q5_K = 13,
    LGG_TYPE_Q6_K = 14,
    LGG_TYPE_Q8_K = 15,
    LGG_TYPE_IQ2_XXS = 16,
    LGG_TYPE_IQ2_XS = 17,
    LGG_TYPE_IQ3_XXS = 18,
    LGG_TYPE_IQ1_S = 19,
    LGG_TYPE_IQ4_NL = 20,
    LGG_TYPE_IQ3_S = 21,
    LGG_TYPE_IQ2_S = 22,
    LGG_TYPE_IQ4_XS = 23,
    LGG_TYPE_I8 = 24,
    LGG_TYPE_I16 = 25,
    LGG_TYPE_I32 = 26,
    LGG_TYPE_I64 = 27,
    LGG_TYPE_F64 = 28,
    LGG_TYPE_IQ1_M = 29,
    LGG_TYPE_BF16 = 30,
    LGG_TYPE_TQ1_0 = 34,
    LGG_TYPE_TQ2_0 = 35,
    LGG_TYPE_MXFP4 = 39,
    LGG_TYPE_NVFP4 = 40,
    LGG_TYPE_Q1_0 = 41,
    LGG_TYPE_Q2_0 = 42,
    LGG_TYPE_COUNT = 43 /* one past the highest id the table knows */
} lgg_type;

/* A multi-byte field inside a block: `count` consecutive `width`-byte values
 * starting at byte `offset` of the block.  Byte-order conversion swaps these
 * and nothing else. */
typedef struct lgg_field {
    uint16_t offset;
    uint8_t width; /* 2, 4 or 8 */
    uint8_t count;
} lgg_field;

#define LGG_MAX_FIELDS 3

typedef struct lgg_type_info {
    uint32_t id;
    const char *name;       /* upper-case, as llama.cpp prints it: "F32", "Q4_K", "IQ2_XXS" */
    uint32_t block_size;    /* elements per block (1 for plain types); 0 for removed ids */
    uint32_t type_size;     /* bytes per block; 0 for removed ids */
    bool quantized;         /* a block format (not F32/F16/BF16/F64/I8..I64) */
    bool removed;           /* an id ggml once used and removed */
    uint8_t n_fields;       /* multi-byte fields per block (see lgg_field) */
    lgg_field fields[LGG_MAX_FIELDS];
} lgg_type_info;

/* The table entry for `id`, or NULL if `id` >= LGG_TYPE_COUNT.  Removed ids
 * return an entry with `removed` set.  Static storage; thread-safe. */
LGG_API const lgg_type_info *lgg_type_get(uint32_t id);

/* Name of `id` ("Q4_K"); for removed ids the name ggml last gave them
 * ("Q4_2", "Q4_0_4_4"); NULL for ids the table does not know. */
LGG_API const char *lgg_type_name(uint32_t id);

/* Find a type by name, case-insensitively ("q4_k", "Q4_K", "bf16").  Returns
 * LGG_OK and sets *id, or LGG_ERR_NOT_FOUND.  Removed types are not found. */
LGG_API lgg_status lgg_type_from_name(const char *name, size_t len, uint32_t *id);

/* True if `id` names a live (not removed, known) type. */
LGG_API bool lgg_type_is_valid(uint32_t id);

/* Bytes that `n` elements of `id` occupy.  LGG_ERR_ARG if the type is unknown
 * or removed, LGG_ERR_RANGE if n is not a multiple of the block size,
 * LGG_ERR_TENSOR_DIMS if the result overflows uint64_t. */
LGG_API lgg_status lgg_type_nbytes(uint32_t id, uint64_t n, uint64_t *bytes);

/* ======================================================================== */
/* Reading                                                                   */
/* ======================================================================== */

typedef struct lgg_file lgg_file;

typedef enum lgg_endian { LGG_LITTLE_ENDIAN = 0, LGG_BIG_ENDIAN = 1 } lgg_endian;

/* Metadata value types, with GGUF's ids. */
typedef enum lgg_vtype {
    LGG_VT_U8 = 0,
    LGG_VT_I8 = 1,
    LGG_VT_U16 = 2,
    LGG_VT_I16 = 3,
    LGG_VT_U32 = 4,
    LGG_VT_I32 = 5,
    LGG_VT_F32 = 6,
    LGG_VT_BOOL = 7,
    LGG_VT_STRING = 8,
    LGG_VT_ARRAY = 9,
    LGG_VT_U64 = 10,
    LGG_VT_I64 = 11,
    LGG_VT_F64 = 12,
    LGG_VT_COUNT = 13
} lgg_vtype;

/* Name of a value type as the dump JSON spells it ("u8", "string", "array"...),
 * or NULL for an unknown id. */
LGG_API const char *lgg_vtype_name(uint32_t vt);

/* Find a value type by name: the dump names plus ggml's long names
 * ("uint8", "int32", "float32", "bool", "str"...).  LGG_ERR_NOT_FOUND if none. */
LGG_API lgg_status lgg_vtype_from_name(const char *name, size_t len, uint32_t *vt);

/* Size in bytes of a scalar value type (1, 2, 4 or 8), 0 for string/array/unknown. */
LGG_API size_t lgg_vtype_size(uint32_t vt);

typedef struct lgg_str {
    const char *ptr; /* not NUL-terminated; may be NULL when len is 0 */
    uint64_t len;
} lgg_str;

/* A view of one metadata value.  Read it through the lgg_value_* functions,
 * which convert from the file's byte order to the host's.  The fields are
 * public so that a view can be copied and passed by value cheaply. */
typedef struct lgg_value {
    uint32_t type;        /* lgg_vtype */
    uint32_t elem_type;   /* arrays: element lgg_vtype; otherwise 0 */
    uint64_t count;       /* arrays: elements; strings: bytes; scalars: 1 */
    const uint8_t *data;  /* scalars: the value's bytes; strings: the characters;
                             arrays: the first element */
    uint64_t size;        /* bytes `data` spans */
    uint64_t offset;      /* absolute file offset of `data` */
    uint8_t swap;         /* 1 if multi-byte values are stored in the other byte order */
    uint8_t len_width;    /* 4 in GGUF v1 (32-bit lengths and counts), else 8 */
} lgg_value;

typedef struct lgg_kv {
    lgg_str key;
    lgg_value value;
    uint64_t offset;     /* absolute file offset where the pair starts (its key length) */
} lgg_kv;

typedef struct lgg_tensor {
    lgg_str name;
    uint32_t n_dims;     /* as stored (0..4) */
    int64_t ne[LGG_MAX_DIMS]; /* dimensions, ne[0] innermost; unused ones are 1 */
    uint32_t type;       /* ggml type id as stored */
    bool type_known;     /* false: the id is unknown or removed; size is 0, data NULL */
    bool data_available; /* false only with LGG_OPEN_ALLOW_MISSING_DATA */
    uint64_t n_elements;
    uint64_t offset;     /* relative to the data section, as stored */
    uint64_t file_offset;/* absolute: data_offset + offset */
    uint64_t size;       /* bytes of data */
    const void *data;    /* the data, in the file's byte order; NULL if unknown/missing */
    uint64_t info_offset;/* absolute file offset of this tensor's info (its name length) */
} lgg_tensor;

/* Open a GGUF file read-only through mmap (zero-copy) and parse and check its
 * whole structure: header, every metadata pair, every tensor info, the
 * alignment, and every tensor's data range against the file's size.
 *
 * Returns LGG_OK and sets *out, or a structural error code (LGG_ERR_MAGIC ...
 * LGG_ERR_TENSOR_OVERLAP, LGG_ERR_LIMIT), LGG_ERR_IO or LGG_ERR_NOMEM with
 * *out set to NULL and `err` filled.  `opts` may be NULL for defaults.
 * The caller owns *out and releases it with lgg_close().
 * Thread-safe (opens nothing shared). */
LGG_API lgg_status lgg_open_file(const char *path, const lgg_open_options *opts,
                                 lgg_file **out, lgg_error *err);

/* As lgg_open_file, from an open file descriptor (mapped, not closed; the
 * caller may close fd after this returns). */
LGG_API lgg_status lgg_open_fd(int fd, const lgg_open_options *opts, lgg_file **out,
                               lgg_error *err);

/* As lgg_open_file, over `size` bytes at `data`.  Nothing is copied: the buffer
 * must stay valid and unchanged until lgg_close(). */
LGG_API lgg_status lgg_open_memory(const void *data, size_t size, const lgg_open_options *opts,
                                   lgg_file **out, lgg_error *err);

/* Fill err (when not NULL) with code, offset (LGG_NO_OFFSET for none) and a
 * printf-style message, cut to fit; returns code.  For code outside the
 * library that reports through an lgg_error: an lgg_source's read
 * callback, a companion library. */
LGG_API lgg_status lgg_error_set(lgg_error *err, lgg_status code, uint64_t offset, const char *fmt, ...)
    LGG_FORMAT_PRINTF(4, 5);

/* A file read through a callback instead of a mapping: a remote file (HTTP
 * ranges), a compressed one, a file inside another.  The library knows
 * nothing of where the bytes come from. */
typedef struct lgg_source {
    /* Read exactly n bytes at `offset` (offset + n <= size) into dst.
     * Returns LGG_OK, or a status with a message in err (which may be
     * NULL).  Called by lgg_open_source and lgg_file_load_tensor, on the
     * calling thread. */
    lgg_status (*read)(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err);
    void *ud;
    uint64_t size;       /* the file's size in bytes */
    uint64_t first_read; /* bytes read first (0: 256 KiB); the prefix then doubles until the
                            whole header is in */
    uint64_t max_header; /* give up with LGG_ERR_LIMIT past this many header bytes (0: 1 GiB) */
} lgg_source;

/* Open the header of the file behind `src`: every key/value pair and every
 * tensor info, read as one growing prefix (first_read bytes, then twice as
 * many each time the header does not fit: a header of H bytes costs at most
 * max(first_read, 2H) bytes in log2(H / first_read) + 1 reads).  Tensor
 * data is not read: each tensor's placement is checked against src->size,
 * its `data` is NULL and `data_available` false until lgg_file_load_tensor
 * reads it; lgg_file_header_only() is true.  Validation checks everything
 * but the padding bytes between tensors, which are not read.
 * Returns as lgg_open_file, plus the source's own statuses; a header that
 * needs more than max_header bytes gives LGG_ERR_LIMIT.  *out owns a copy
 * of *src (the `ud` it points to must outlive *out). */
LGG_API lgg_status lgg_open_source(const lgg_source *src, const lgg_open_options *opts, lgg_file **out,
                                   lgg_error *err);

/* True when f was opened by lgg_open_source (its tensor data stays at the
 * source until loaded).  False for NULL. */
LGG_API bool lgg_file_header_only(const lgg_file *f);

/* Read tensor `index`'s data through f's source into memory owned by f
 * (freed by lgg_close); afterwards its `data` and `data_available` are set
 * as for a mapped file.  LGG_OK at once when the data is already there.
 * Errors: LGG_ERR_ARG (no such tensor), LGG_ERR_NO_DATA (its data lies past
 * the end of the file, or the file has no source), LGG_ERR_NOMEM, or the
 * source's status.  Not thread-safe on one file: load before sharing f
 * among readers. */
LGG_API lgg_status lgg_file_load_tensor(lgg_file *f, uint64_t index, lgg_error *err);

/* Copy n bytes of the file at `offset` into dst: from memory, or for bytes
 * of a header-only file that are not there, through its source.
 * Errors: LGG_ERR_ARG (NULL), LGG_ERR_RANGE (past the file's end, or past
 * what a file opened with LGG_OPEN_ALLOW_MISSING_DATA holds), the source's
 * status.  Thread-safe for files in memory; for a header-only file, as
 * thread-safe as its source's read. */
LGG_API lgg_status lgg_file_read(const lgg_file *f, uint64_t offset, void *dst, size_t n, lgg_error *err);

/* Unmap and free.  NULL is a no-op.  Invalidates every view from `f`. */
LGG_API void lgg_close(lgg_file *f);

/* File properties.  All are O(1), thread-safe, and never fail on an open file. */
LGG_API uint32_t lgg_file_version(const lgg_file *f);       /* 1, 2 or 3 */
LGG_API lgg_endian lgg_file_endian(const lgg_file *f);      /* byte order of the file */
LGG_API uint64_t lgg_file_alignment(const lgg_file *f);     /* general.alignment or 32 */
LGG_API uint64_t lgg_file_data_offset(const lgg_file *f);   /* absolute start of the data section (the
                                                               header's end in a file without tensors;
                                                               past the end of a metadata-only file) */
LGG_API uint64_t lgg_file_header_size(const lgg_file *f);   /* end of the tensor infos (before padding) */
LGG_API uint64_t lgg_file_size(const lgg_file *f);          /* bytes in the file */
LGG_API const uint8_t *lgg_file_bytes(const lgg_file *f);   /* the whole file, read-only */
LGG_API uint64_t lgg_kv_count(const lgg_file *f);
LGG_API uint64_t lgg_tensor_count(const lgg_file *f);
/* End of the last tensor's data (max of file_offset+size), or data_offset when
 * there are no tensors.  Bytes after it are trailing bytes. */
LGG_API uint64_t lgg_file_data_end(const lgg_file *f);
/* Bytes the file would have with all its tensor data: the data offset plus
 * the end of the last tensor's data (without its trailing padding), or the
 * data offset (the end of the header) when there are no tensors.  Tensors of
 * unknown type count as empty.  Equals lgg_file_data_end unless the file was
 * opened with LGG_OPEN_ALLOW_MISSING_DATA and some data is missing; a
 * truncated download lacks (expected size - lgg_file_size) bytes. */
LGG_API uint64_t lgg_file_expected_size(const lgg_file *f);
/* True when the file has tensor infos but ends at or before the start of the
 * data section, so no tensor data at all is present (ggml's
 * gguf_write_to_file(..., only_meta = true) writes such files; they open
 * only with LGG_OPEN_ALLOW_MISSING_DATA).  False for NULL, for a file
 * without tensors, and when the tensors are all empty and the padding is
 * there. */
LGG_API bool lgg_file_metadata_only(const lgg_file *f);

/* True when f was opened with LGG_OPEN_ALLOW_BAD_LAYOUT and its tensor
 * table is bad; *out (unless NULL) gets the first problem, as the open
 * without the flag reports it.  False for NULL and for a sound table. */
LGG_API bool lgg_file_layout_error(const lgg_file *f, lgg_error *out);

/* The i-th metadata pair in file order, or NULL if i >= lgg_kv_count(f). */
LGG_API const lgg_kv *lgg_kv_at(const lgg_file *f, uint64_t i);

/* Index of the first pair whose key equals (key, len), or -1.  O(1) expected
 * (hash index built at open).  Thread-safe. */
LGG_API int64_t lgg_find_key(const lgg_file *f, const char *key, size_t len);
LGG_API int64_t lgg_find_key_cstr(const lgg_file *f, const char *key);

/* The value of `key` (C string).  LGG_ERR_NOT_FOUND if absent. */
LGG_API lgg_status lgg_get(const lgg_file *f, const char *key, lgg_value *out);

/* The i-th tensor in file (info) order, or NULL if out of range. */
LGG_API const lgg_tensor *lgg_tensor_at(const lgg_file *f, uint64_t i);

/* Index of the tensor named (name, len), or -1.  O(1) expected. */
LGG_API int64_t lgg_find_tensor(const lgg_file *f, const char *name, size_t len);
LGG_API int64_t lgg_find_tensor_cstr(const lgg_file *f, const char *name);

/* ---- Typed, checked value accessors --------------------------------------
 * Each returns LGG_OK and stores the value in host byte order, LGG_ERR_TYPE if
 * the value has another type (nothing is stored), or LGG_ERR_ARG on NULL. */
LGG_API lgg_status lgg_value_u8(const lgg_value *v, uint8_t *out);
LGG_API lgg_status lgg_value_i8(const lgg_value *v, int8_t *out);
LGG_API lgg_status lgg_value_u16(const lgg_value *v, uint16_t *out);
LGG_API lgg_status lgg_value_i16(const lgg_value *v, int16_t *out);
LGG_API lgg_status lgg_value_u32(const lgg_value *v, uint32_t *out);
LGG_API lgg_status lgg_value_i32(const lgg_value *v, int32_t *out);
LGG_API lgg_status lgg_value_u64(const lgg_value *v, uint64_t *out);
LGG_API lgg_status lgg_value_i64(const lgg_value *v, int64_t *out);
LGG_API lgg_status lgg_value_f32(const lgg_value *v, float *out);
LGG_API lgg_status lgg_value_f64(const lgg_value *v, double *out);
/* bool: any non-zero byte reads as true (validation reports bytes other than 0/1). */
LGG_API lgg_status lgg_value_bool(const lgg_value *v, bool *out);
LGG_API lgg_status lgg_value_string(const lgg_value *v, lgg_str *out);

/* Widening accessors.  lgg_value_uint accepts any integer type whose value is
 * >= 0 (LGG_ERR_RANGE for a negative one); lgg_value_int accepts any integer
 * type whose value fits int64_t; lgg_value_float accepts f32, f64 and integers.
 * LGG_ERR_TYPE for other types. */
LGG_API lgg_status lgg_value_uint(const lgg_value *v, uint64_t *out);
LGG_API lgg_status lgg_value_int(const lgg_value *v, int64_t *out);
LGG_API lgg_status lgg_value_float(const lgg_value *v, double *out);

/* ---- Arrays ---------------------------------------------------------------
 * lgg_array_get: the i-th element of an array value.  O(1) when the element
 * type is a scalar; O(i) for arrays of strings or arrays (use an iterator to
 * walk them).  LGG_ERR_TYPE if `arr` is not an array, LGG_ERR_RANGE if
 * i >= count. */
LGG_API lgg_status lgg_array_get(const lgg_value *arr, uint64_t i, lgg_value *elem);

/* Iterator over an array's elements, in order.  Cheap to copy; holds no
 * resources.  Initialise with lgg_array_iter(); each lgg_iter_next() call
 * stores the next element and returns true, or returns false at the end (or if
 * `arr` is not an array).  The array was checked at open, so iteration cannot
 * fail. */
typedef struct lgg_iter {
    lgg_value arr;
    uint64_t index;
    uint64_t pos; /* byte position of the next element relative to arr.data */
} lgg_iter;
LGG_API void lgg_array_iter(const lgg_value *arr, lgg_iter *it);
LGG_API bool lgg_iter_next(lgg_iter *it, lgg_value *elem);

/* ======================================================================== */
/* Validation                                                                */
/* ======================================================================== */

typedef enum lgg_severity {
    LGG_SEV_ERROR = 0,   /* violates the spec: `gguf validate` fails */
    LGG_SEV_WARNING = 1, /* allowed but suspicious */
    LGG_SEV_NOTE = 2     /* compatibility: valid GGUF that ggml/llama.cpp would refuse */
} lgg_severity;

/* What a finding is about.  Stable values. */
typedef enum lgg_check {
    LGG_CHECK_STRUCTURE = 0,         /* a structural error (the file did not open) */
    LGG_CHECK_KEY_SYNTAX = 1,        /* key not ASCII lower_snake_case segments joined by '.' */
    LGG_CHECK_KEY_LENGTH = 2,        /* key longer than 65535 bytes */
    LGG_CHECK_KEY_DUPLICATE = 3,
    LGG_CHECK_TENSOR_NAME_LENGTH = 4,/* tensor name longer than 64 bytes */
    LGG_CHECK_BOOL_VALUE = 5,        /* a bool byte that is neither 0 nor 1 */
    LGG_CHECK_UTF8 = 6,              /* a string that is not valid UTF-8 */
    LGG_CHECK_ALIGNMENT_KEY = 7,     /* general.alignment not a u32, or not a multiple of 8 */
    LGG_CHECK_ARCHITECTURE = 8,      /* general.architecture missing or not a string */
    LGG_CHECK_QUANT_VERSION = 9,     /* general.quantization_version missing with quantized tensors */
    LGG_CHECK_KEY_TYPE = 10,         /* a standardized key with the wrong type */
    LGG_CHECK_REQUIRED_KEY = 11,     /* a key the spec requires for the architecture is missing */
    LGG_CHECK_TOKENIZER = 12,        /* tokenizer arrays disagree, special ids out of range */
    LGG_CHECK_TENSOR_TYPE = 13,      /* unknown or removed tensor type */
    LGG_CHECK_TRAILING_BYTES = 14,
    LGG_CHECK_PADDING = 15,          /* non-zero padding bytes */
    LGG_CHECK_ARCH_NAME = 16,        /* architecture name outside [a-z0-9]+ */
    LGG_CHECK_FILE_NAME = 17,        /* file name does not follow the naming convention, or disagrees with the
                                        split keys: always a warning (LGG_VALIDATE_STRICT does not make it an
                                        error: a name is no part of the file), offset LGG_NO_OFFSET */
    LGG_CHECK_COMPAT = 18,           /* something llama.cpp/ggml refuses */
    LGG_CHECK_TENSOR_NDIMS = 19,     /* n_dims 0 */
    LGG_CHECK_MISSING_DATA = 20      /* tensor data past the end (only with LGG_OPEN_ALLOW_MISSING_DATA): one
                                        finding per file, an error "truncated: N bytes missing (...)", or for
                                        a metadata-only file the warning "metadata only: no tensor data" */
} lgg_check;

typedef struct lgg_finding {
    lgg_severity severity;
    lgg_check check;
    uint64_t offset;      /* absolute byte offset, or LGG_NO_OFFSET */
    char message[320];
} lgg_finding;

typedef struct lgg_report lgg_report;

/* Validation options. */
#define LGG_VALIDATE_STRICT 0x1u /* every deviation from the letter of the spec is an error
                                    (warnings become errors, except file-name findings; notes
                                    stay notes) */
typedef struct lgg_validate_options {
    size_t size;             /* sizeof(lgg_validate_options), or 0 (see lgg_open_options) */
    uint32_t flags;          /* LGG_VALIDATE_* */
    const char *file_name;   /* base name (no directory) to check against the naming convention, or
                                NULL to skip the check (stdin, pipes).  A name passes when it matches
                                the spec's expression (lgg_name_parse), or its prose: a missing
                                Version means v1.0, and BaseName may hold '.' and '_' as gguf-py
                                writes it ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf"); or when it is
                                exactly lgg_recommended_name(f).  The convention is advice: the
                                warning is given under LGG_VALIDATE_STRICT, or when the name tries
                                the convention (a SizeLabel such as "8B" after its first part) and
                                gets it wrong; not for "model.gguf" or "ggml-model-Q4_K_M.gguf" */
    const lgg_allocator *allocator; /* NULL: malloc/free */
} lgg_validate_options;
#define LGG_VALIDATE_OPTIONS_INIT {.size = sizeof(lgg_validate_options)}

/* Check an open file against the spec and collect every finding, in file
 * order within each pass.  Returns LGG_OK and sets *out (even when findings are
 * errors: validation itself succeeded), or LGG_ERR_NOMEM/LGG_ERR_ARG.  `opts`
 * may be NULL.  The caller frees *out with lgg_report_free().  Reads `f` only:
 * several threads may validate one file at once.
 * A report lists at most LGG_REPORT_MAX_PER_CHECK findings of each lgg_check;
 * past that, one last finding of that check (offset LGG_NO_OFFSET, the most
 * severe severity among them) says how many more there were.  So a report's
 * size is bounded whatever the file holds. */
#define LGG_REPORT_MAX_PER_CHECK 1000u
LGG_API lgg_status lgg_validate(const lgg_file *f, const lgg_validate_options *opts,
                                lgg_report **out);

/* Build a report that holds one structural finding for a file that failed to
 * open (so tools can print it the same way).  NULL on allocation failure. */
LGG_API lgg_report *lgg_report_from_error(const lgg_error *err, const lgg_allocator *a);

LGG_API size_t lgg_report_count(const lgg_report *r);
LGG_API const lgg_finding *lgg_report_at(const lgg_report *r, size_t i); /* NULL if out of range */
LGG_API size_t lgg_report_count_severity(const lgg_report *r, lgg_severity s);
LGG_API void lgg_report_free(lgg_report *r); /* NULL is a no-op */

/* Name of a severity: "error", "warning", "note". */
LGG_API const char *lgg_severity_name(lgg_severity s);

/* True if (key, len) follows the key-name rule lgg_validate applies
 * (LGG_CHECK_KEY_SYNTAX, LGG_CHECK_KEY_LENGTH): 1 to 65535 bytes of ASCII
 * lower_snake_case segments ([a-z0-9_]+) joined by '.', none empty.
 * lgg_validate also accepts a first segment equal to the file's
 * general.architecture whatever its characters ("command-r.context_length"
 * is judged by the architecture-name rule instead): a caller that knows the
 * architecture checks the rest of the key.  False for NULL.  Thread-safe. */
LGG_API bool lgg_key_name_ok(const char *key, size_t len);

/* The type of a standardized key: general.* and tokenizer.* keys of the
 * spec, and "<arch>.<name>" for the spec's per-architecture keys with any
 * architecture segment ("llama.context_length", "qwen2.rope.freq_base").
 * The type is the one writers use and llama.cpp's loader requires (it
 * accepts exactly one type per key): LGG_VT_U32 for the counts the spec
 * lists as uint64 (context_length, embedding_length, block_count,
 * feed_forward_length, attention.head_count[_kv], rope.dimension_count),
 * which gguf-py writes as u32; LGG_VT_F32 for rope.freq_base, the norm
 * epsilons...; LGG_VT_ARRAY for array keys (tokenizer.ggml.tokens...).
 * lgg_validate reports a standardized key of another type as an error
 * (a u64 count too: the spec lists it as uint64, but llama.cpp will not
 * load it).
 * Returns LGG_OK and sets *vtype, LGG_ERR_NOT_FOUND for other keys,
 * LGG_ERR_ARG for NULL.  Thread-safe. */
LGG_API lgg_status lgg_standard_key_type(const char *key, size_t len, uint32_t *vtype);

/* ======================================================================== */
/* Model facts derived from metadata and tensors                             */
/* ======================================================================== */

/* Total elements of all tensors whose type is known (what llama.cpp calls the
 * parameter count). */
LGG_API uint64_t lgg_parameter_count(const lgg_file *f);

/* Size label as the naming convention computes it (the way gguf-py does):
 * the count scaled to T/B/M/K with at least two significant digits: "13B",
 * "1.1B", "840M".  With expert_count > 1, n_params is the count along one
 * expert's path (shared weights plus one expert's) and the label reads
 * "<experts>x<count>", e.g. "8x7.0B".  Writes a NUL-terminated string into buf
 * (32 bytes are always enough); returns its length, or the length needed if
 * buf is too small (then buf holds ""). */
LGG_API size_t lgg_size_label(uint64_t n_params, uint32_t expert_count, char *buf, size_t cap);

/* Name of a general.file_type value as llama.cpp prints it ("MOSTLY_Q4_K_M"),
 * or NULL if unknown. */
LGG_API const char *lgg_file_type_name(uint32_t file_type);

/* ======================================================================== */
/* Writing                                                                   */
/* ======================================================================== */

/* A writer is an in-memory description of a GGUF file to be written: ordered
 * metadata pairs and ordered tensor infos, each tensor with a data source.
 * Nothing is written until lgg_writer_write_fd / lgg_writer_write_file.
 *
 * Layout written (ggml's canonical one, what gguf.cpp writes): header,
 * metadata in the writer's order, tensor infos in the writer's order, zero
 * padding to the alignment, then each tensor's data zero-padded to the
 * alignment, offsets increasing in info order.  n_dims is written as ggml
 * does: trailing dimensions of 1 dropped, at least 1.
 *
 * Ownership: every setter copies what it is given (keys, names, values); the
 * writer never keeps caller pointers except tensor data buffers, read
 * callbacks and open files, which must stay valid until the writer is freed.
 * Threads: a writer is a single-threaded object. */
typedef struct lgg_writer lgg_writer;

/* A metadata value given by the caller, in host byte order.
 *  - scalars: `data` points to one value of the type's size (bool: one byte);
 *  - LGG_VT_STRING: `data` points to `count` bytes (any bytes, NUL included);
 *  - LGG_VT_ARRAY: `elem_type` says what `data` holds: `count` host-order
 *    scalars packed; or `count` lgg_str (strings); or `count` lgg_wvalue
 *    (nested arrays, each with type LGG_VT_ARRAY). */
typedef struct lgg_wvalue {
    uint32_t type;      /* lgg_vtype */
    uint32_t elem_type; /* arrays only */
    uint64_t count;     /* arrays: elements; strings: bytes; scalars: ignored */
    const void *data;
} lgg_wvalue;

/* Would lgg_validate accept value v at key (key, len) in a file whose
 * general.architecture is (arch, arch_len) (arch_len 0: none)?  The same
 * table and rules lgg_validate applies (not strict): a standardized key
 * (general.*, tokenizer.*, and <arch>.* for that architecture only) of the
 * spec's type, general.architecture a string, general.alignment a u32 that
 * is a power of two and a multiple of 8.  Other keys pass.  Returns LGG_OK,
 * LGG_ERR_INVALID with the validator's message in err ("'llama.context_length'
 * is string, expected u32 ..."), LGG_ERR_ALIGNMENT for a u32 alignment that
 * is not a power of two (which no file can have: lgg_writer_set refuses it
 * too), LGG_ERR_ARG for NULL.  Thread-safe. */
LGG_API lgg_status lgg_standard_key_check(const char *key, size_t len, const char *arch, size_t arch_len,
                                          const lgg_wvalue *v, lgg_error *err);

/* Reads `n` bytes of a tensor's data starting at byte `offset` of that
 * tensor into `dst`.  Return LGG_OK, or any error code with a message in
 * err (lgg_error_set; err is never NULL): the write stops and reports that
 * code and message as they are (a code without a message: the writer says
 * which tensor and offset failed).  Called in increasing offset order with
 * n <= 4 MiB. */
typedef lgg_status (*lgg_read_fn)(void *ud, uint64_t offset, void *dst, size_t n, lgg_error *err);

/* Replaces write(2) for every byte the writer writes (tests inject faults
 * with it): same contract as write(2), returning -1 with errno set on error. */
typedef long (*lgg_write_fn)(void *ud, int fd, const void *buf, size_t n);

typedef struct lgg_write_options {
    size_t size;            /* sizeof(lgg_write_options), or 0 (see lgg_open_options) */
    uint32_t version;       /* 0 or 3: GGUF v3; 2; 1 (32-bit lengths: every length, count and
                               dimension must fit 32 bits, else LGG_ERR_RANGE) */
    lgg_endian endian;      /* byte order of the whole output file (metadata, infos, tensor data) */
    uint64_t alignment;     /* 0: general.alignment of the metadata, or 32 (a metadata alignment
                               beyond 32 bits is refused with LGG_ERR_RANGE).  Otherwise a power of
                               two below 2^32; general.alignment is then set to it (u32) when it
                               would differ */
    const lgg_allocator *allocator; /* NULL: malloc/free (temporary buffers) */
    lgg_write_fn write_fn;  /* NULL: write(2).  When set, copy_file_range is not used */
    void *write_ud;
    uint32_t flags;         /* LGG_WRITE_* */
    /* NULL, or told about every temporary file a safe write makes (so that a
     * tool can remove it when SIGINT/SIGTERM ends the process mid-write):
     * called with created = 2 and tmp_path NULL just before the file is
     * created (a tool may block its signals until the next call), with
     * created = 1 right after it is created (tmp_path, a path in the
     * target's directory, stays valid until the next call), and with
     * created = 0 just after it is renamed into place or removed, or, with
     * tmp_path NULL, when it could not be created.  Before the rename it is
     * called with created = 2 and tmp_path NULL again, and, once the rename
     * succeeded, with created = 3 and tmp_path the target's path (a finished
     * output: a tool writing several files can remove the ones already in
     * place when a signal ends the run), both before the created = 0 call.
     * Called on the writing thread; must not call back into the writer. */
    void (*temp_fn)(void *temp_ud, const char *tmp_path, int created);
    void *temp_ud;
} lgg_write_options;
#define LGG_WRITE_OPTIONS_INIT {.size = sizeof(lgg_write_options)}

/* The file w describes, without tensor data: its metadata and tensor infos
 * as lgg_writer_write_* encodes them with the default options, opened in
 * memory (lgg_file_metadata_only is true; the file does not refer to w;
 * lgg_close it).  The quantize plan (lgg_quant_plan_create) and the split
 * plan (lgg_split_plan_make, lgg_split_shard_writer) take it as they take
 * a file on disk, for an output whose data a caller supplies later (the
 * converter's fused path); writing a tensor taken from it fails with
 * LGG_ERR_NO_DATA.  Errors: LGG_ERR_ARG, LGG_ERR_NOMEM, those of encoding
 * the header (LGG_ERR_RANGE, LGG_ERR_ALIGNMENT). */
LGG_API lgg_status lgg_writer_describe(const lgg_writer *w, lgg_file **out, lgg_error *err);

/* lgg_writer_write_file / lgg_writer_update_file without fsync: the
 * replacement is still atomic for readers (write beside, then rename), but a
 * power loss soon after may leave an empty or partial file.  Without this
 * flag the data is synced before the rename (and write-back is started as
 * the data is written, so the final wait is short). */
#define LGG_WRITE_NO_SYNC 0x1u

/* A file with no tensors ends right after its metadata, with no alignment
 * padding, as gguf-py writes one (ggml pads it; without this flag, so do
 * we).  Tensors present: no effect. */
#define LGG_WRITE_NO_EMPTY_PAD 0x2u

/* Fill `o` with the defaults: v3, little-endian, alignment from metadata. */
LGG_API void lgg_write_options_init(lgg_write_options *o);

/* Create an empty writer (allocator NULL: malloc/free; the writer keeps a copy
 * of *allocator).  Returns LGG_OK and sets *out, or LGG_ERR_ARG/LGG_ERR_NOMEM.
 * Free with lgg_writer_free(). */
LGG_API lgg_status lgg_writer_create(const lgg_allocator *allocator, lgg_writer **out, lgg_error *err);
LGG_API void lgg_writer_free(lgg_writer *w); /* NULL is a no-op */

/* Start a writer from an open file: every metadata pair in file order and
 * every tensor info, each tensor's data copied from `f` (converted to the
 * output byte order as needed).  A key that occurs more than once keeps only
 * its first occurrence (the one lookups return: ggml refuses a file with
 * duplicate keys); lgg_writer_dropped_count/_at tell which were left out.
 * `fd` is -1 or a descriptor open for reading on the same file: with it, the
 * writer can copy data with copy_file_range and refuses (LGG_ERR_EXISTS) to
 * write onto that file.  `f` (and fd) must stay open until the writer is
 * freed.
 * `flags`: 0 or LGG_FROM_FILE_* (below).
 * Errors: LGG_ERR_ARG (an unknown flag too), LGG_ERR_NOMEM, LGG_ERR_UNSUPPORTED (a tensor of an
 * unknown or removed type, whose size cannot be known). */
#define LGG_FROM_FILE_KEEP_DUPLICATES 0x1u /* keep every pair, later occurrences of a key
                                              included, as the file has them (forensic copies) */
LGG_API lgg_status lgg_writer_from_file(const lgg_file *f, int fd, const lgg_allocator *allocator, uint32_t flags,
                                        lgg_writer **out, lgg_error *err);

/* The pairs of the source file that lgg_writer_from_file left out because
 * their key occurred before: how many (0 for a writer not started from a
 * file, or with LGG_FROM_FILE_KEEP_DUPLICATES), and the i-th in file order
 * as a view into the source file (its key, value and offset; valid while
 * that file is open), or NULL when i is out of range. */
LGG_API uint64_t lgg_writer_dropped_count(const lgg_writer *w);
LGG_API const lgg_kv *lgg_writer_dropped_at(const lgg_writer *w, uint64_t i);

/* ---- metadata ----
 * lgg_writer_set: set key (key, klen) to *v.  An existing key is replaced in
 * place (keeps its position; the first one if the key is duplicated); a new
 * key is appended.  Errors: LGG_ERR_ARG (NULL, unknown type, array of a bad
 * element type or nested array whose element is not an array), LGG_ERR_NOMEM,
 * LGG_ERR_RANGE (sizes overflow), LGG_ERR_NESTING (deeper than 64). */
LGG_API lgg_status lgg_writer_set(lgg_writer *w, const char *key, size_t klen, const lgg_wvalue *v, lgg_error *err);
/* Set a key to a value read from an open file (any version and byte order). */
LGG_API lgg_status lgg_writer_set_value(lgg_writer *w, const char *key, size_t klen, const lgg_value *v,
                                        lgg_error *err);
/* Conveniences over lgg_writer_set with a C-string key. */
LGG_API lgg_status lgg_writer_set_u32(lgg_writer *w, const char *key, uint32_t v, lgg_error *err);
LGG_API lgg_status lgg_writer_set_u64(lgg_writer *w, const char *key, uint64_t v, lgg_error *err);
LGG_API lgg_status lgg_writer_set_i64(lgg_writer *w, const char *key, int64_t v, lgg_error *err);
LGG_API lgg_status lgg_writer_set_f32(lgg_writer *w, const char *key, float v, lgg_error *err);
LGG_API lgg_status lgg_writer_set_bool(lgg_writer *w, const char *key, bool v, lgg_error *err);
LGG_API lgg_status lgg_writer_set_str(lgg_writer *w, const char *key, const char *s, lgg_error *err);
/* Remove every pair with this key.  LGG_ERR_NOT_FOUND if there is none. */
LGG_API lgg_status lgg_writer_remove(lgg_writer *w, const char *key, size_t klen, lgg_error *err);
/* Rename every pair `from` to `to`, keeping positions.  LGG_ERR_NOT_FOUND if
 * `from` is absent, LGG_ERR_EXISTS if `to` is present (and differs). */
LGG_API lgg_status lgg_writer_rename(lgg_writer *w, const char *from, size_t flen, const char *to, size_t tlen,
                                     lgg_error *err);
LGG_API uint64_t lgg_writer_kv_count(const lgg_writer *w);
/* The type of the (first) pair `key` holds in the writer now, and for an
 * array its element type (0 otherwise); either pointer may be NULL.
 * LGG_ERR_NOT_FOUND if absent, LGG_ERR_ARG on NULL w or key. */
LGG_API lgg_status lgg_writer_key_type(const lgg_writer *w, const char *key, size_t klen, uint32_t *type,
                                       uint32_t *elem_type);

/* ---- tensors ----
 * Each adds one tensor info (name, n_dims <= 4 dimensions ne[0..n_dims),
 * ggml type id) with its data, `endian` being the byte order the data is in.
 * The data size is the type's size for the element count.
 *  - _buffer: `data` holds `size` bytes (must equal the tensor's size);
 *  - _callback: `read` supplies the bytes when the file is written.
 * Errors: LGG_ERR_ARG, LGG_ERR_NOMEM, LGG_ERR_TENSOR_DUP (name taken),
 * LGG_ERR_TENSOR_NDIMS, LGG_ERR_TENSOR_DIMS (negative or overflowing),
 * LGG_ERR_TENSOR_BLOCK, LGG_ERR_UNSUPPORTED (unknown/removed type),
 * LGG_ERR_RANGE (buffer size differs). */
LGG_API lgg_status lgg_writer_add_tensor_buffer(lgg_writer *w, const char *name, size_t nlen, uint32_t n_dims,
                                                const int64_t *ne, uint32_t type, const void *data, uint64_t size,
                                                lgg_endian endian, lgg_error *err);
LGG_API lgg_status lgg_writer_add_tensor_callback(lgg_writer *w, const char *name, size_t nlen, uint32_t n_dims,
                                                  const int64_t *ne, uint32_t type, lgg_read_fn read, void *ud,
                                                  lgg_endian endian, lgg_error *err);
/* Copy tensor `index` of `f` (its info and data).  `fd` as in lgg_writer_from_file. */
LGG_API lgg_status lgg_writer_add_tensor_from_file(lgg_writer *w, const lgg_file *f, int fd, uint64_t index,
                                                   lgg_error *err);
LGG_API uint64_t lgg_writer_tensor_count(const lgg_writer *w);
/* Write tensor `index` (in adding order) with exactly n_dims dimensions,
 * trailing ones of 1 included, as gguf-py writes a numpy shape, instead of
 * ggml's rule (trailing 1s dropped).  Errors: LGG_ERR_ARG (no such tensor),
 * LGG_ERR_RANGE (n_dims above 4 or below the last dimension that is not 1). */
LGG_API lgg_status lgg_writer_set_tensor_n_dims(lgg_writer *w, uint64_t index, uint32_t n_dims, lgg_error *err);

/* ---- output ----
 * lgg_writer_write_fd: write the file sequentially to `fd` (a regular file,
 * pipe or socket) from its current position.  Errors: LGG_ERR_ARG (bad
 * options), LGG_ERR_RANGE (v1 and a value beyond 32 bits; an alignment
 * beyond 32 bits from the metadata), LGG_ERR_IO,
 * LGG_ERR_NOMEM, or a read callback's code.  On error the fd holds a partial
 * file.  *written (may be NULL) gets the bytes written. */
LGG_API lgg_status lgg_writer_write_fd(const lgg_writer *w, int fd, const lgg_write_options *opts,
                                       uint64_t *written, lgg_error *err);

/* lgg_writer_write_file: write `path` safely: into a new temporary file in
 * the same directory (O_EXCL; the mode of the file it replaces, else
 * 0666 & ~umask), fsync, rename over `path`, fsync the directory.  On any
 * error the temporary file is removed and `path` is untouched.
 * LGG_ERR_EXISTS if `path` is the same file (st_dev and st_ino) as a file the
 * writer reads tensor data from (known through the fd given with it).
 * Other errors as lgg_writer_write_fd. */
LGG_API lgg_status lgg_writer_write_file(const lgg_writer *w, const char *path, const lgg_write_options *opts,
                                         lgg_error *err);

/* Bytes of the whole file the writer would write with `opts` (NULL: the
 * defaults): the padded header and every tensor's data padded to the
 * alignment.  Errors as lgg_writer_write_fd, LGG_ERR_RANGE on overflow. */
LGG_API lgg_status lgg_writer_file_size(const lgg_writer *w, const lgg_write_options *opts, uint64_t *size,
                                        lgg_error *err);

/* Bytes of the header (metadata and tensor infos, before the padding) the
 * writer would write with `opts`.  Errors as lgg_writer_write_fd. */
LGG_API lgg_status lgg_writer_header_size(const lgg_writer *w, const lgg_write_options *opts, uint64_t *size,
                                          lgg_error *err);

/* ---- editing a file in place ----
 * Replace the file at `path` by what `w` describes, where `w` was started
 * with lgg_writer_from_file(f, fd, ...) on that same file and keeps its
 * tensors (same infos, same order; metadata may differ).  When the new
 * header pads to exactly the old data offset with the same alignment, byte
 * order and version, only the header is rewritten: one pwrite of the header
 * and its zero padding, then fsync; the tensor data is not touched.
 * (Readers find the data at the padded end of the header, so a header that
 * shrinks or grows past the padding moves the data.)  Otherwise the whole
 * file is rewritten safely as lgg_writer_write_file does.  *in_place (may be
 * NULL) tells which happened.  `opts` may be NULL (keep the file's version
 * and byte order; opts->version 0 means the same).
 * Errors: LGG_ERR_ARG (w not started from a file, tensors changed), others as
 * lgg_writer_write_file.  On error the file is either untouched or (only for
 * a failed single-pwrite) reported with LGG_ERR_IO. */
LGG_API lgg_status lgg_writer_update_file(const lgg_writer *w, const char *path, const lgg_write_options *opts,
                                          bool *in_place, lgg_error *err);

/* Whether lgg_writer_update_file with the same options would rewrite only
 * the header in place (*in_place true) or write the whole file beside the
 * original and rename it (false), without writing anything; a caller can
 * say so, or check the free space (lgg_writer_file_size), first.
 * Errors: LGG_ERR_ARG (not started from a file), as lgg_writer_write_fd. */
LGG_API lgg_status lgg_writer_update_in_place(const lgg_writer *w, const lgg_write_options *opts, bool *in_place,
                                              lgg_error *err);

/* The topics beyond the format, each in its own header (docs/library.md):
 * including libgguf.h includes them all, inside its extern "C". */
#include "libgguf/support.h" /* what the companion parts share */
#include "libgguf/names.h" /* file names */
#include "libgguf/split.h" /* shard sets */
#include "libgguf/quant.h" /* tensor data */
#include "libgguf/model.h" /* whole models */
#include "libgguf/estimate.h" /* the memory estimate */
#include "libgguf/loadcheck.h" /* would llama.cpp master load the file */

#ifdef __cplusplus
}
#endif

#endif /* LIBGGUF_H */
