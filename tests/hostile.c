/* hostile.c -- the crafted files of the hostile-input suite (see hostile.h).
 *
 * Each builder writes one small file that carries one attack; the table says
 * what opening it must return.  Sources are GitHub issues and pull requests
 * (owner/repo#N) describing the crash or advisory class in another reader;
 * GHSA-* are ggml's published advisories as those threads cite them. */
#include "hostile.h"

#include <stdlib.h>

#define U64(x) UINT64_C(x)

/* ---- helpers ---- */

/* header + general.architecture, then one tensor info; the data section is
 * padded to 32 and holds data_len zero bytes */
static void one_tensor(buf *b, uint32_t n_dims, const uint64_t *ne, uint32_t type, uint64_t offset,
                       size_t data_len) {
    gen_header(b, 3, 1, 1);
    gen_key(b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(b, 3, "x");
    gen_tensor(b, 3, "w", n_dims, ne, type, offset);
    buf_pad(b, 32);
    for (size_t i = 0; i < data_len; i++) buf_u8(b, 0);
}

/* one metadata pair whose value is an array header (elem type, count) and
 * `tail` bytes of elements */
static void one_array(buf *b, uint32_t et, uint64_t count, size_t tail) {
    gen_header(b, 3, 0, 1);
    gen_key(b, 3, "k", LGG_VT_ARRAY);
    buf_u32(b, et);
    buf_u64(b, count);
    for (size_t i = 0; i < tail; i++) buf_u8(b, 0);
}

static void nested(buf *b, int depth) {
    gen_header(b, 3, 0, 1);
    gen_key(b, 3, "k", LGG_VT_ARRAY);
    for (int i = 0; i < depth; i++) {
        buf_u32(b, LGG_VT_ARRAY);
        buf_u64(b, 1);
    }
    buf_u32(b, LGG_VT_U8);
    buf_u64(b, 0);
}

/* general.alignment of the given type and raw 8-byte value, then one F32
 * tensor of 8 elements at offset 0 (if with_tensor) */
static void alignment(buf *b, uint32_t vt, uint64_t value, bool with_tensor) {
    gen_header(b, 3, with_tensor ? 1 : 0, 1);
    gen_key(b, 3, "general.alignment", vt);
    switch (lgg_vtype_size(vt)) {
    case 1: buf_u8(b, (uint8_t)value); break;
    case 2: buf_u16(b, (uint16_t)value); break;
    case 4: buf_u32(b, (uint32_t)value); break;
    case 8: buf_u64(b, value); break;
    default: gen_str(b, 3, "32"); break;
    }
    if (with_tensor) {
        uint64_t ne[1] = {8};
        gen_tensor(b, 3, "w", 1, ne, LGG_TYPE_F32, 0);
        buf_pad(b, 64);
        for (int i = 0; i < 32; i++) buf_u8(b, 0);
    }
}

/* ---- counts ---- */

/* ggml-org/ggml#709 (integer overflows in counts, then heap overflows);
 * 1bit-MONSTER/1bit-MONSTER#1187 (loop bounds from unchecked counts) */
static void b_count_kv_2_62(buf *b) { gen_header(b, 3, 0, U64(1) << 62); }
static void b_count_both_huge(buf *b) { gen_header(b, 3, U64(0x0FFFFFFFFFFFFFFF), U64(0x1FFFFFFFFFFFFFFF)); }
/* n_kv * 13 (the least bytes a pair takes) wraps to 10 */
static void b_count_kv_wraps(buf *b) { gen_header(b, 3, 0, U64(1418980313362273202)); }
/* n_tensors * 24 wraps to 8 */
static void b_count_tensors_wraps(buf *b) { gen_header(b, 3, U64(768614336404564651), 0); }
static void b_count_v1(buf *b) { gen_header(b, 1, 0xffffffffu, 0xffffffffu); }
/* counts the file could hold, but it ends: truncated, refused before allocating */
static void b_count_kv_2_24(buf *b) {
    gen_header(b, 3, 0, U64(1) << 24);
    gen_key(b, 3, "a", LGG_VT_U8);
    buf_u8(b, 1);
}

/* ---- string lengths ---- */

/* leejet/stable-diffusion.cpp#1397 (a 32-byte file with a huge key length
 * aborts in operator new); antirez/gguf-tools#25 (OOB reads walking metadata:
 * gguf-tools segfaults on such a 32-byte file) */
static void b_gguf_tools_32_bytes(buf *b) {
    gen_header(b, 3, 0, 1);
    buf_u64(b, U64(0xFFFFFFFFFFFF));
}
/* key length 2^64-1 (ollama/ollama#14489: lengths > MaxInt64 turn negative) */
static void b_key_len_max(buf *b) {
    gen_header(b, 3, 0, 1);
    buf_u64(b, UINT64_MAX);
    buf_put(b, "general.architecture", 20);
}
/* key length that makes position + length wrap to exactly 0 */
static void b_key_len_wraps(buf *b) {
    gen_header(b, 3, 0, 1);
    buf_u64(b, (uint64_t)0 - 32); /* read at offset 24: 32 + (2^64 - 32) = 0 */
    buf_put(b, "abcdefgh", 8);
}
static void b_string_len_huge(buf *b) {
    gen_header(b, 3, 0, 1);
    gen_key(b, 3, "general.name", LGG_VT_STRING);
    buf_u64(b, U64(9223372036854775813));
    buf_put(b, "abc", 3);
}
/* ggml-org/ggml#1516 (a ~160-byte file makes the reader allocate 1 GiB for a
 * claimed string) */
static void b_string_len_1gib(buf *b) {
    gen_header(b, 3, 0, 1);
    gen_key(b, 3, "general.name", LGG_VT_STRING);
    buf_u64(b, U64(1) << 30);
    buf_put(b, "abc", 3);
}
/* v1: 32-bit string length past the end */
static void b_string_len_v1(buf *b) {
    gen_header(b, 1, 0, 1);
    gen_len(b, 1, 0xfffffff0u);
    buf_put(b, "k", 1);
}

/* ---- arrays ---- */

/* 1bit-MONSTER/1bit-MONSTER#1295 (vocab.resize(count) from the file) */
static void b_array_u64_wraps(buf *b) { one_array(b, LGG_VT_U64, U64(1) << 61, 16); } /* count*8 = 2^64 */
static void b_array_u32_wraps(buf *b) { one_array(b, LGG_VT_U32, U64(1) << 62, 16); } /* count*4 = 2^64 */
static void b_array_u8_huge(buf *b) { one_array(b, LGG_VT_U8, U64(1) << 63, 16); }
static void b_array_strings_wraps(buf *b) { one_array(b, LGG_VT_STRING, U64(1) << 61, 16); }
/* arrays of arrays: count * 12 wraps to 4 */
static void b_array_arrays_wraps(buf *b) { one_array(b, LGG_VT_ARRAY, U64(1537228672809129302), 16); }
/* a string array whose count fits the file but whose strings run past it */
static void b_array_string_past_end(buf *b) {
    gen_header(b, 3, 0, 1);
    gen_key(b, 3, "tokenizer.ggml.tokens", LGG_VT_ARRAY);
    buf_u32(b, LGG_VT_STRING);
    buf_u64(b, 2);
    gen_str(b, 3, "a");
    buf_u64(b, 1000);
    buf_put(b, "bcd", 3);
}
/* huggingface/huggingface.js#2028 (an invalid array element type made the
 * reader return undefined and crash) */
static void b_array_elem_type_13(buf *b) { one_array(b, 13, 1, 16); }
static void b_array_elem_type_max(buf *b) { one_array(b, 0xffffffffu, 1, 16); }
static void b_value_type_max(buf *b) {
    gen_header(b, 3, 0, 1);
    gen_key(b, 3, "k", 0xffffffffu);
    buf_u64(b, 0);
}
/* huggingface/huggingface.js#2028 (arrays of arrays recursed without bound:
 * stack overflow) */
static void b_nested_20(buf *b) { nested(b, 20); }
static void b_nested_200000(buf *b) { nested(b, 200000); }

/* ---- tensor infos ---- */

/* ggml-org/ggml#709 (n_dims > 4 overflowed ne[]); antirez/gguf-tools#25
 * (n_dims > 8: out-of-bounds write) */
static void b_ndims_5(buf *b) {
    uint64_t ne[5] = {32, 1, 1, 1, 1};
    one_tensor(b, 5, ne, LGG_TYPE_F32, 0, 128);
}
static void b_ndims_9(buf *b) {
    uint64_t ne[9] = {32, 1, 1, 1, 1, 1, 1, 1, 1};
    one_tensor(b, 9, ne, LGG_TYPE_F32, 0, 128);
}
/* huggingface/huggingface.js#2028 (nDims = 0xFFFFFFFF: billions of iterations);
 * ggml-org/llama.cpp#25378 (gguf-py: n_dims = 1000000 reads megabytes) */
static void b_ndims_max(buf *b) {
    gen_header(b, 3, 1, 0);
    gen_str(b, 3, "w");
    buf_u32(b, 0xffffffffu);
    for (int i = 0; i < 8; i++) buf_u64(b, 1);
}
static void b_ndims_1000000(buf *b) {
    gen_header(b, 3, 1, 0);
    gen_str(b, 3, "w");
    buf_u32(b, 1000000);
    for (int i = 0; i < 8; i++) buf_u64(b, 1);
}
static void b_dim_negative(buf *b) {
    uint64_t ne[2] = {32, (uint64_t)-1};
    one_tensor(b, 2, ne, LGG_TYPE_F32, 0, 128);
}
static void b_elems_2_64(buf *b) {
    uint64_t ne[2] = {U64(1) << 32, U64(1) << 32};
    one_tensor(b, 2, ne, LGG_TYPE_F32, 0, 0);
}
static void b_elems_2_63(buf *b) {
    uint64_t ne[2] = {U64(1) << 31, U64(1) << 32};
    one_tensor(b, 2, ne, LGG_TYPE_F32, 0, 0);
}
/* ggml-org/llama.cpp#25378 (gguf-py: np.prod over uint64 wraps these dims to 4) */
static void b_elems_wrap_to_4(buf *b) {
    uint64_t ne[3] = {4194305, 4194305, U64(211106198978564)};
    one_tensor(b, 3, ne, LGG_TYPE_F32, 0, 16);
}
/* GHSA-96jg-mvhq-q7q7 (nelements x type_size overflows), as cited in
 * ggml-org/llama.cpp#24759 */
static void b_bytes_2_64(buf *b) {
    uint64_t ne[1] = {U64(1) << 62};
    one_tensor(b, 1, ne, LGG_TYPE_F32, 0, 0);
}
/* ggml-org/llama.cpp#26978 (F32 [4, 2^30-1, 2^30+1]: 2^64-16 bytes, padded
 * to 0) */
static void b_pad_wraps_to_0(buf *b) {
    uint64_t ne[3] = {4, (U64(1) << 30) - 1, (U64(1) << 30) + 1};
    one_tensor(b, 3, ne, LGG_TYPE_F32, 0, 64);
}
/* ggml-org/llama.cpp#24759 (GGML_PAD(SIZE_MAX-3) wraps: F32 ne0 = SIZE_MAX/4) */
static void b_pad_size_max(buf *b) {
    uint64_t ne[1] = {UINT64_MAX / 4};
    one_tensor(b, 1, ne, LGG_TYPE_F32, 0, 64);
}
/* a block type whose byte size fits but lies beyond any file */
static void b_bytes_beyond_files(buf *b) {
    uint64_t ne[1] = {(U64(1) << 63) - 32};
    one_tensor(b, 1, ne, LGG_TYPE_Q4_0, 0, 64);
}
/* GHSA-vgg9-87g3-85w8 (the sum of tensor sizes overflows), as cited in
 * ggml-org/llama.cpp#24759: sizes are never summed here, each is checked */
static void b_size_sum(buf *b) {
    uint64_t ne[1] = {U64(1) << 59}; /* 2^61 bytes each */
    gen_header(b, 3, 4, 0);
    for (int i = 0; i < 4; i++) {
        char n[16];
        snprintf(n, sizeof n, "t%d", i);
        gen_tensor(b, 3, n, 1, ne, LGG_TYPE_F32, (uint64_t)i << 61);
    }
    buf_pad(b, 32);
}
/* whisper.cpp#3864 = llama.cpp#24263, ggml-org/llama.cpp#26946,
 * ggml-org/ggml#1517 (a zero dimension: INT64_MAX / 0, SIGFPE);
 * gpustack/gguf-parser-go#46 (dim - 1 underflows for a zero dimension) */
static void b_zero_dim(buf *b) {
    uint64_t ne[2] = {4, 0};
    one_tensor(b, 2, ne, LGG_TYPE_F32, 0, 0);
}
static void b_zero_dim_first(buf *b) {
    uint64_t ne[3] = {0, 5, 7};
    one_tensor(b, 3, ne, LGG_TYPE_Q4_0, 0, 0);
}
/* an empty tensor whose row alone would overflow (found by fuzz_open:
 * lgg_dequantize_tensor refused it with LGG_ERR_RANGE) */
static void b_zero_dim_huge_ne0(buf *b) {
    uint64_t ne[2] = {(uint64_t)INT64_MAX, 0};
    one_tensor(b, 2, ne, LGG_TYPE_F32, 0, 0);
}
/* ggml-org/llama.cpp#19005 (zero-size tensor: NULL data dereferenced) */
static void b_zero_dims_all(buf *b) {
    uint64_t ne[4] = {0, 0, 0, 0};
    one_tensor(b, 4, ne, LGG_TYPE_Q8_0, 0, 0);
}
/* ggml-org/ggml#709 (an unchecked type id indexes the type table) */
static void b_type_max(buf *b) {
    uint64_t ne[1] = {8};
    one_tensor(b, 1, ne, 0xffffffffu, 0, 32);
}
static void b_type_removed(buf *b) {
    uint64_t ne[1] = {32};
    one_tensor(b, 1, ne, 4 /* Q4_2 */, 0, 32);
}
static void b_ne0_not_block(buf *b) {
    uint64_t ne[1] = {33};
    one_tensor(b, 1, ne, LGG_TYPE_Q4_K, 0, 256);
}

/* ---- tensor data ---- */

/* ggml-org/llama.cpp#6774, Luce-Org/lucebox#438 (lying dimensions or a
 * truncated download: data past the end of the mapping) */
static void b_data_past_end(buf *b) {
    uint64_t ne[1] = {1024};
    one_tensor(b, 1, ne, LGG_TYPE_F32, 0, 64);
}
/* ml-explore/mlx#4136 (offset 1<<40 read outside the mapping) */
static void b_offset_2_40(buf *b) {
    uint64_t ne[1] = {8};
    one_tensor(b, 1, ne, LGG_TYPE_F32, U64(1) << 40, 64);
}
static void b_offset_wraps(buf *b) {
    uint64_t ne[1] = {8};
    one_tensor(b, 1, ne, LGG_TYPE_F32, (uint64_t)0 - 32, 64);
}
/* offset + size wraps around (Luce-Org/lucebox#459: the sum wraps and
 * passes a naive check): data_offset + offset = 2^64 - 32, size 64 */
static void b_offset_plus_size_wraps(buf *b) {
    uint64_t ne[1] = {16};
    gen_header(b, 3, 1, 0);
    gen_tensor(b, 3, "w", 1, ne, LGG_TYPE_F32, 0);
    size_t at = b->n - 8;
    uint64_t data_offset = (b->n + 31) / 32 * 32;
    uint64_t off = (uint64_t)0 - data_offset - 32;
    if (b->big) off = __builtin_bswap64(off);
    memcpy(b->p + at, &off, 8);
    buf_pad(b, 32);
    for (int i = 0; i < 64; i++) buf_u8(b, 0);
}
static void b_offset_misaligned(buf *b) {
    uint64_t ne[1] = {8};
    one_tensor(b, 1, ne, LGG_TYPE_F32, 16, 64);
}
static void b_overlap(buf *b) {
    uint64_t a[1] = {16}, c[1] = {8};
    gen_header(b, 3, 2, 0);
    gen_tensor(b, 3, "a", 1, a, LGG_TYPE_F32, 0);
    gen_tensor(b, 3, "b", 1, c, LGG_TYPE_F32, 32);
    buf_pad(b, 32);
    for (int i = 0; i < 64; i++) buf_u8(b, 0);
}
static void b_duplicate(buf *b) {
    uint64_t a[1] = {8};
    gen_header(b, 3, 2, 0);
    gen_tensor(b, 3, "w", 1, a, LGG_TYPE_F32, 0);
    gen_tensor(b, 3, "w", 1, a, LGG_TYPE_F32, 32);
    buf_pad(b, 32);
    for (int i = 0; i < 64; i++) buf_u8(b, 0);
}

/* ---- alignment ---- */

/* antirez/gguf-tools#27 (general.alignment = 0: offset % 0, SIGFPE) */
static void b_align_zero(buf *b) { alignment(b, LGG_VT_U32, 0, true); }
static void b_align_3(buf *b) { alignment(b, LGG_VT_U32, 3, true); }
/* ggml-org/ggml#1516 (alignment 2^30: multi-GiB padding from a tiny file) */
static void b_align_2_31(buf *b) { alignment(b, LGG_VT_U32, U64(1) << 31, true); }
/* padding to an alignment near 2^63 */
static void b_align_2_63(buf *b) { alignment(b, LGG_VT_U64, U64(1) << 63, true); }
static void b_align_2_63_no_tensors(buf *b) { alignment(b, LGG_VT_U64, U64(1) << 63, false); }
static void b_align_2_63_plus_1(buf *b) { alignment(b, LGG_VT_U64, (U64(1) << 63) + 1, true); }
/* ggml-org/llama.cpp#26318 (general.alignment stored as INT32 hit an assertion) */
static void b_align_i32_negative(buf *b) { alignment(b, LGG_VT_I32, (uint32_t)-64, true); }
static void b_align_i64_min(buf *b) { alignment(b, LGG_VT_I64, U64(1) << 63, true); }
static void b_align_i32_64(buf *b) { alignment(b, LGG_VT_I32, 64, true); }
static void b_align_string(buf *b) { alignment(b, LGG_VT_STRING, 0, true); }

/* ---- metadata that consumers trip on (open succeeds; the test checks the
 * accessors refuse the wrong reading and validation reports it) ---- */

/* ggml-org/llama.cpp#24446, #24884 (an empty key aborts ggml's loader) */
static void b_empty_key(buf *b) {
    gen_header(b, 3, 0, 2);
    gen_key(b, 3, "", LGG_VT_U32);
    buf_u32(b, 1);
    gen_key(b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(b, 3, "llama");
}
/* ggml-org/llama.cpp#26690 (tokenizer.ggml.scores stored as UINT8 but read
 * as float: out-of-bounds read) */
static void b_scores_u8(buf *b) {
    gen_header(b, 3, 0, 3);
    gen_key(b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(b, 3, "llama");
    gen_key(b, 3, "tokenizer.ggml.tokens", LGG_VT_ARRAY);
    buf_u32(b, LGG_VT_STRING);
    buf_u64(b, 3);
    gen_str(b, 3, "a");
    gen_str(b, 3, "b");
    gen_str(b, 3, "c");
    gen_key(b, 3, "tokenizer.ggml.scores", LGG_VT_ARRAY);
    buf_u32(b, LGG_VT_U8);
    buf_u64(b, 3);
    buf_u8(b, 1);
    buf_u8(b, 2);
    buf_u8(b, 3);
}
/* gpustack/gguf-parser-go#46 (general.file_type as a string: panic);
 * gpustack/gpustack#1686 (an array where a number is expected: panic) */
static void b_file_type_string(buf *b) {
    gen_header(b, 3, 0, 3);
    gen_key(b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(b, 3, "llama");
    gen_key(b, 3, "general.file_type", LGG_VT_STRING);
    gen_str(b, 3, "MOSTLY_Q4_0");
    gen_key(b, 3, "llama.block_count", LGG_VT_ARRAY);
    buf_u32(b, LGG_VT_U32);
    buf_u64(b, 1);
    buf_u32(b, 32);
}
/* ServeurpersoCom/acestep.cpp#98, 1bit-MONSTER/1bit-MONSTER#455 (a layer or
 * head count from metadata used unchecked: 0 divides, huge overflows arrays);
 * the library reports it as a value, the caller must bound it */
static void b_block_count_huge(buf *b) {
    gen_header(b, 3, 0, 3);
    gen_key(b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(b, 3, "llama");
    gen_key(b, 3, "llama.block_count", LGG_VT_U32);
    buf_u32(b, 0xffffffffu);
    gen_key(b, 3, "llama.attention.head_count", LGG_VT_U32);
    buf_u32(b, 0);
}

/* ---- header ---- */

static void b_version_max(buf *b) { gen_header(b, 0xffffffffu, 0, 0); }
static void b_short_header(buf *b) {
    gen_header(b, 3, 0, 0);
    b->n = 23;
}
/* big-endian: the same huge key length, byte-swapped */
static void b_be_key_len_max(buf *b) {
    b->big = true;
    gen_header(b, 3, 0, 1);
    buf_u64(b, UINT64_MAX);
    buf_put(b, "k", 1);
}
/* big-endian array count that only wraps when read in the right order */
static void b_be_array_wraps(buf *b) {
    b->big = true;
    one_array(b, LGG_VT_U64, U64(1) << 61, 16);
}

void hostile_huge_counts(buf *b) { gen_header(b, 3, U64(1) << 62, U64(1) << 62); }
static void b_huge_counts(buf *b) { hostile_huge_counts(b); }

static const hostile_case CASES[] = {
    /* counts */
    {"count-kv-2^62", b_count_kv_2_62, LGG_ERR_TRUNCATED, "ggml-org/ggml#709", false},
    {"count-both-huge", b_count_both_huge, LGG_ERR_TRUNCATED, "ggml-org/ggml#709", false},
    {"count-kv-mul-wraps", b_count_kv_wraps, LGG_ERR_TRUNCATED, "ggml-org/ggml#709", false},
    {"count-tensors-mul-wraps", b_count_tensors_wraps, LGG_ERR_TRUNCATED, "ggml-org/ggml#709", false},
    {"count-v1-max", b_count_v1, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#1187", false},
    {"count-kv-2^24-truncated", b_count_kv_2_24, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#1187", false},
    {"counts-2^62-each", b_huge_counts, LGG_ERR_TRUNCATED, "ollama/ollama#16494", false},
    /* string lengths */
    {"gguf-tools-32-bytes", b_gguf_tools_32_bytes, LGG_ERR_TRUNCATED,
     "antirez/gguf-tools#25, leejet/stable-diffusion.cpp#1397", false},
    {"key-len-2^64-1", b_key_len_max, LGG_ERR_TRUNCATED, "ollama/ollama#14489", false},
    {"key-len-wraps-to-0", b_key_len_wraps, LGG_ERR_TRUNCATED, "ollama/ollama#14489", false},
    {"string-len-2^63", b_string_len_huge, LGG_ERR_TRUNCATED, "ollama/ollama#14489", false},
    {"string-len-1GiB", b_string_len_1gib, LGG_ERR_TRUNCATED, "ggml-org/ggml#1516", false},
    {"string-len-v1", b_string_len_v1, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#752", false},
    /* arrays */
    {"array-u64-count-wraps", b_array_u64_wraps, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#1295", false},
    {"array-u32-count-wraps", b_array_u32_wraps, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#1295", false},
    {"array-u8-count-2^63", b_array_u8_huge, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#1295", false},
    {"array-strings-count-wraps", b_array_strings_wraps, LGG_ERR_TRUNCATED, "ollama/ollama#16494", false},
    {"array-arrays-count-wraps", b_array_arrays_wraps, LGG_ERR_TRUNCATED, "ollama/ollama#16494", false},
    {"array-string-past-end", b_array_string_past_end, LGG_ERR_TRUNCATED, "ollama/ollama#16494", false},
    {"array-elem-type-13", b_array_elem_type_13, LGG_ERR_VALUE_TYPE, "huggingface/huggingface.js#2028", false},
    {"array-elem-type-max", b_array_elem_type_max, LGG_ERR_VALUE_TYPE, "huggingface/huggingface.js#2028", false},
    {"value-type-max", b_value_type_max, LGG_ERR_VALUE_TYPE, "1bit-MONSTER/1bit-MONSTER#1187", false},
    {"nested-20", b_nested_20, LGG_ERR_NESTING, "huggingface/huggingface.js#2028", false},
    {"nested-200000", b_nested_200000, LGG_ERR_NESTING, "huggingface/huggingface.js#2028", true},
    /* tensor infos */
    {"ndims-5", b_ndims_5, LGG_ERR_TENSOR_NDIMS, "ggml-org/ggml#709", false},
    {"ndims-9", b_ndims_9, LGG_ERR_TENSOR_NDIMS, "antirez/gguf-tools#25", false},
    {"ndims-2^32-1", b_ndims_max, LGG_ERR_TENSOR_NDIMS, "huggingface/huggingface.js#2028", false},
    {"ndims-1000000", b_ndims_1000000, LGG_ERR_TENSOR_NDIMS, "ggml-org/llama.cpp#25378", false},
    {"dim-negative", b_dim_negative, LGG_ERR_TENSOR_DIMS, "ggml-org/ggml#709", false},
    {"elements-2^64", b_elems_2_64, LGG_ERR_TENSOR_DIMS, "ggml-org/ggml#709", false},
    {"elements-2^63", b_elems_2_63, LGG_ERR_TENSOR_DIMS, "ggml-org/ggml#709", false},
    {"elements-wrap-to-4", b_elems_wrap_to_4, LGG_ERR_TENSOR_DIMS, "ggml-org/llama.cpp#25378", false},
    {"bytes-2^64", b_bytes_2_64, LGG_ERR_TENSOR_DIMS, "GHSA-96jg-mvhq-q7q7 via ggml-org/llama.cpp#24759", false},
    {"pad-wraps-to-0", b_pad_wraps_to_0, LGG_ERR_TENSOR_BOUNDS, "ggml-org/llama.cpp#26978", false},
    {"pad-size-max", b_pad_size_max, LGG_ERR_TENSOR_BOUNDS, "ggml-org/llama.cpp#24759", false},
    {"bytes-beyond-any-file", b_bytes_beyond_files, LGG_ERR_TENSOR_BOUNDS, "ggml-org/llama.cpp#18674", false},
    {"size-sum-2^63", b_size_sum, LGG_ERR_TRUNCATED, "GHSA-vgg9-87g3-85w8 via ggml-org/llama.cpp#24759", false},
    {"zero-dim", b_zero_dim, LGG_OK, "ggml-org/whisper.cpp#3864, ggml-org/llama.cpp#26946", false},
    {"zero-dim-first", b_zero_dim_first, LGG_OK, "ggml-org/ggml#1517, gpustack/gguf-parser-go#46", false},
    {"zero-dims-all", b_zero_dims_all, LGG_OK, "ggml-org/llama.cpp#19005", false},
    {"zero-dim-huge-ne0", b_zero_dim_huge_ne0, LGG_OK, "fuzz/regressions/fuzz_open/empty-tensor-huge-ne0", false},
    {"type-2^32-1", b_type_max, LGG_OK, "ggml-org/ggml#709", false},
    {"type-removed", b_type_removed, LGG_OK, "ggml-org/ggml#709", false},
    {"ne0-not-block-multiple", b_ne0_not_block, LGG_ERR_TENSOR_BLOCK, "ggml-org/ggml#709", false},
    /* tensor data */
    {"data-past-end", b_data_past_end, LGG_ERR_TRUNCATED, "ggml-org/llama.cpp#6774, Luce-Org/lucebox#438", false},
    {"offset-2^40", b_offset_2_40, LGG_ERR_TRUNCATED, "ml-explore/mlx#4136", false},
    {"offset-wraps", b_offset_wraps, LGG_ERR_TENSOR_BOUNDS, "ml-explore/mlx#4136", false},
    {"offset-plus-size-wraps", b_offset_plus_size_wraps, LGG_ERR_TENSOR_BOUNDS, "Luce-Org/lucebox#459", false},
    {"offset-misaligned", b_offset_misaligned, LGG_ERR_TENSOR_ALIGN, "ggml-org/llama.cpp#26978", false},
    {"tensors-overlap", b_overlap, LGG_ERR_TENSOR_OVERLAP, "ggml-org/llama.cpp#26318", false},
    {"tensors-duplicate", b_duplicate, LGG_ERR_TENSOR_DUP, "ggml-org/ggml#709", false},
    /* alignment */
    {"align-0", b_align_zero, LGG_ERR_ALIGNMENT, "antirez/gguf-tools#27", false},
    {"align-3", b_align_3, LGG_ERR_ALIGNMENT, "antirez/gguf-tools#27", false},
    {"align-2^31", b_align_2_31, LGG_ERR_TRUNCATED, "ggml-org/ggml#1516", false},
    {"align-2^63", b_align_2_63, LGG_ERR_TRUNCATED, "ggml-org/ggml#1516", false},
    {"align-2^63-no-tensors", b_align_2_63_no_tensors, LGG_OK, "ggml-org/ggml#1516", false},
    {"align-2^63+1", b_align_2_63_plus_1, LGG_ERR_ALIGNMENT, "ggml-org/ggml#1516", false},
    {"align-i32-negative", b_align_i32_negative, LGG_ERR_ALIGNMENT, "ggml-org/llama.cpp#26318", false},
    {"align-i64-min", b_align_i64_min, LGG_ERR_ALIGNMENT, "ggml-org/llama.cpp#26318", false},
    {"align-i32-64", b_align_i32_64, LGG_OK, "ggml-org/llama.cpp#26318", false},
    {"align-string", b_align_string, LGG_OK, "ggml-org/llama.cpp#26318", false},
    /* metadata consumers trip on */
    {"key-empty", b_empty_key, LGG_OK, "ggml-org/llama.cpp#24446, ggml-org/llama.cpp#24884", false},
    {"scores-as-u8", b_scores_u8, LGG_OK, "ggml-org/llama.cpp#26690", false},
    {"file-type-string", b_file_type_string, LGG_OK, "gpustack/gguf-parser-go#46, gpustack/gpustack#1686", false},
    {"block-count-huge", b_block_count_huge, LGG_OK, "ServeurpersoCom/acestep.cpp#98, 1bit-MONSTER/1bit-MONSTER#455",
     false},
    /* header */
    {"version-max", b_version_max, LGG_ERR_VERSION, "huggingface/huggingface.js#2028", false},
    {"header-23-bytes", b_short_header, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#1187", false},
    {"be-key-len-max", b_be_key_len_max, LGG_ERR_TRUNCATED, "ollama/ollama#14489", false},
    {"be-array-count-wraps", b_be_array_wraps, LGG_ERR_TRUNCATED, "1bit-MONSTER/1bit-MONSTER#1295", false},
};

size_t hostile_count(void) { return sizeof CASES / sizeof CASES[0]; }
const hostile_case *hostile_get(size_t i) { return i < hostile_count() ? &CASES[i] : NULL; }
const hostile_case *hostile_find(const char *name) {
    for (size_t i = 0; i < hostile_count(); i++)
        if (strcmp(CASES[i].name, name) == 0) return &CASES[i];
    return NULL;
}
