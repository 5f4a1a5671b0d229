/* types.c -- the one table of ggml tensor types.
 *
 * Block sizes and field offsets come from blocks.h, where each block's
 * layout is composed and checked once.  `fields` lists
 * the multi-byte values inside a block (half-precision scales, 16-bit grid
 * indices, int16 sums, 32-bit high-bit words); byte-order conversion and
 * big-endian dequantization swap exactly these. */
#include "base/internal.h"
#include "base/blocks.h"

#define QK_K LGG__QK_K

#define F(o, w, c) {(o), (w), (c)}
#define PLAIN(id_, nm, ts, ...) [id_] = {id_, nm, 1, ts, false, false, __VA_ARGS__}
#define QUANT(id_, nm, bs, ts, ...) [id_] = {id_, nm, bs, ts, true, false, __VA_ARGS__}
#define GONE(id_, nm) [id_] = {id_, nm, 0, 0, false, true, 0, {F(0, 0, 0)}}

static const lgg_type_info TYPES[LGG_TYPE_COUNT] = {
    PLAIN(LGG_TYPE_F32, "F32", 4, 1, {F(0, 4, 1)}),
    PLAIN(LGG_TYPE_F16, "F16", 2, 1, {F(0, 2, 1)}),
    QUANT(LGG_TYPE_Q4_0, "Q4_0", 32, LGG__TS_Q4_0, 1, {F(0, 2, 1)}),
    QUANT(LGG_TYPE_Q4_1, "Q4_1", 32, LGG__TS_Q4_1, 1, {F(0, 2, 2)}),
    GONE(4, "Q4_2"),
    GONE(5, "Q4_3"),
    /* qh is four bytes that ggml reads and writes as one host-order uint32 */
    QUANT(LGG_TYPE_Q5_0, "Q5_0", 32, LGG__TS_Q5_0, 2, {F(0, 2, 1), F(2, 4, 1)}),
    QUANT(LGG_TYPE_Q5_1, "Q5_1", 32, LGG__TS_Q5_1, 2, {F(0, 2, 2), F(4, 4, 1)}),
    QUANT(LGG_TYPE_Q8_0, "Q8_0", 32, LGG__TS_Q8_0, 1, {F(0, 2, 1)}),
    QUANT(LGG_TYPE_Q8_1, "Q8_1", 32, LGG__TS_Q8_1, 1, {F(0, 2, 2)}),
    QUANT(LGG_TYPE_Q2_K, "Q2_K", QK_K, LGG__TS_Q2_K, 1, {F(LGG__Q2_K_D, 2, 2)}),
    QUANT(LGG_TYPE_Q3_K, "Q3_K", QK_K, LGG__TS_Q3_K, 1, {F(LGG__Q3_K_D, 2, 1)}),
    QUANT(LGG_TYPE_Q4_K, "Q4_K", QK_K, LGG__TS_Q4_K, 1, {F(0, 2, 2)}),
    QUANT(LGG_TYPE_Q5_K, "Q5_K", QK_K, LGG__TS_Q5_K, 1, {F(0, 2, 2)}),
    QUANT(LGG_TYPE_Q6_K, "Q6_K", QK_K, LGG__TS_Q6_K, 1, {F(LGG__Q6_K_D, 2, 1)}),
    QUANT(LGG_TYPE_Q8_K, "Q8_K", QK_K, LGG__TS_Q8_K, 2, {F(0, 4, 1), F(LGG__Q8_K_BSUMS, 2, 16)}),
    QUANT(LGG_TYPE_IQ2_XXS, "IQ2_XXS", QK_K, LGG__TS_IQ2_XXS, 1, {F(0, 2, 33)}),
    QUANT(LGG_TYPE_IQ2_XS, "IQ2_XS", QK_K, LGG__TS_IQ2_XS, 1, {F(0, 2, 33)}),
    /* the last 32 bytes of qs are eight host-order uint32 scale+sign words */
    QUANT(LGG_TYPE_IQ3_XXS, "IQ3_XXS", QK_K, LGG__TS_IQ3_XXS, 2, {F(0, 2, 1), F(LGG__IQ3_XXS_SIGNS, 4, 8)}),
    QUANT(LGG_TYPE_IQ1_S, "IQ1_S", QK_K, LGG__TS_IQ1_S, 2, {F(0, 2, 1), F(LGG__IQ1_S_QH, 2, 8)}),
    QUANT(LGG_TYPE_IQ4_NL, "IQ4_NL", 32, LGG__TS_IQ4_NL, 1, {F(0, 2, 1)}),
    QUANT(LGG_TYPE_IQ3_S, "IQ3_S", QK_K, LGG__TS_IQ3_S, 1, {F(0, 2, 1)}),
    QUANT(LGG_TYPE_IQ2_S, "IQ2_S", QK_K, LGG__TS_IQ2_S, 1, {F(0, 2, 1)}),
    QUANT(LGG_TYPE_IQ4_XS, "IQ4_XS", QK_K, LGG__TS_IQ4_XS, 1, {F(0, 2, 2)}),
    PLAIN(LGG_TYPE_I8, "I8", 1, 0, {F(0, 0, 0)}),
    PLAIN(LGG_TYPE_I16, "I16", 2, 1, {F(0, 2, 1)}),
    PLAIN(LGG_TYPE_I32, "I32", 4, 1, {F(0, 4, 1)}),
    PLAIN(LGG_TYPE_I64, "I64", 8, 1, {F(0, 8, 1)}),
    PLAIN(LGG_TYPE_F64, "F64", 8, 1, {F(0, 8, 1)}),
    /* scales are read by ggml as four host-order uint16 */
    QUANT(LGG_TYPE_IQ1_M, "IQ1_M", QK_K, LGG__TS_IQ1_M, 1, {F(LGG__IQ1_M_SCALES, 2, 4)}),
    PLAIN(LGG_TYPE_BF16, "BF16", 2, 1, {F(0, 2, 1)}),
    GONE(31, "Q4_0_4_4"),
    GONE(32, "Q4_0_4_8"),
    GONE(33, "Q4_0_8_8"),
    QUANT(LGG_TYPE_TQ1_0, "TQ1_0", QK_K, LGG__TS_TQ1_0, 1, {F(LGG__TQ1_0_D, 2, 1)}),
    QUANT(LGG_TYPE_TQ2_0, "TQ2_0", QK_K, LGG__TS_TQ2_0, 1, {F(LGG__TQ2_0_D, 2, 1)}),
    GONE(36, "IQ4_NL_4_4"),
    GONE(37, "IQ4_NL_4_8"),
    GONE(38, "IQ4_NL_8_8"),
    QUANT(LGG_TYPE_MXFP4, "MXFP4", 32, LGG__TS_MXFP4, 0, {F(0, 0, 0)}),
    QUANT(LGG_TYPE_NVFP4, "NVFP4", 64, LGG__TS_NVFP4, 0, {F(0, 0, 0)}),
    QUANT(LGG_TYPE_Q1_0, "Q1_0", 128, LGG__TS_Q1_0, 1, {F(0, 2, 1)}),
    QUANT(LGG_TYPE_Q2_0, "Q2_0", 64, LGG__TS_Q2_0, 1, {F(0, 2, 1)}),
};

_Static_assert(sizeof TYPES / sizeof TYPES[0] == LGG_TYPE_COUNT, "one entry per id");
_Static_assert(LGG_TYPE_COUNT == 43, "ggml defines ids 0..42");

const lgg_type_info *lgg_type_get(uint32_t id) { return id < LGG_TYPE_COUNT ? &TYPES[id] : NULL; }

const char *lgg_type_name(uint32_t id) { return id < LGG_TYPE_COUNT ? TYPES[id].name : NULL; }

bool lgg_type_is_valid(uint32_t id) { return id < LGG_TYPE_COUNT && !TYPES[id].removed; }

lgg_status lgg_type_from_name(const char *name, size_t len, uint32_t *id) {
    if (!name || !id) return LGG_ERR_ARG;
    for (uint32_t i = 0; i < LGG_TYPE_COUNT; i++) {
        const char *n = TYPES[i].name;
        if (TYPES[i].removed || strlen(n) != len) continue;
        size_t k = 0;
        for (; k < len; k++) {
            char a = name[k], b = n[k];
            if (a >= 'a' && a <= 'z') a = (char)(a - 32);
            if (a != b) break;
        }
        if (k == len) {
            *id = i;
            return LGG_OK;
        }
    }
    return LGG_ERR_NOT_FOUND;
}

lgg_status lgg_type_nbytes(uint32_t id, uint64_t n, uint64_t *bytes) {
    if (!lgg_type_is_valid(id)) return LGG_ERR_ARG;
    const lgg_type_info *t = &TYPES[id];
    if (n % t->block_size) return LGG_ERR_RANGE;
    uint64_t r;
    if (lgg__mul_ovf(n / t->block_size, t->type_size, &r)) return LGG_ERR_TENSOR_DIMS;
    if (bytes) *bytes = r;
    return LGG_OK;
}
