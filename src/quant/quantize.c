/* quantize.c -- lgg_quantize: argument checks, dispatch to the row
 * quantizer of each type, and the NaN/Inf check of every output row.
 *
 * Dispatch mirrors ggml_quantize_chunk: every row is quantized on its own
 * (blocks never span rows, so this equals ggml's whole-chunk reference calls),
 * with the same imatrix (one weight per column) for every row.  Each row
 * quantizer picks ggml's reference path when the imatrix is NULL and the
 * weighted path otherwise, exactly where ggml does.
 *
 * Row validation follows ggml_validate_row_data (llama.cpp runs it on every
 * quantized tensor): the f16 scales of each block (d, and m / dmin where the
 * type has them) must be finite, MXFP4's E8M0 exponent must not be 0xFF,
 * F16/BF16/F32 values must be finite; NVFP4 has nothing to check.  Q8_1,
 * which ggml's validator does not know, has its d checked; its s = d*sum(q)
 * may overflow to Inf for finite data and ggml writes it so (golden edge
 * case), so it is not checked.
 *
 * NaN inputs: ggml's max searches skip a NaN (`a > amax` is false) or, in
 * the MAX(amax, |x|) form, keep it only when it is the last value of the
 * block, so a NaN often yields finite scales and is accepted, as in ggml. */
#include "quant/kernels.h"

/* A type can be quantized when its kernel row has a quantizer. */
static const lgg__kernel_row *entry(uint32_t type) {
    const lgg__kernel_row *k = lgg__kernel(type);
    return k && (k->q || k->qchk || k->qpath) ? k : NULL;
}

bool lgg_type_can_quantize(uint32_t type) { return entry(type) != NULL; }

bool lgg_type_needs_imatrix(uint32_t type) {
    /* exactly ggml_quantize_requires_imatrix: IQ1_M is not on it (its
     * quantizer falls back to x^2 weights), IQ2_S/IQ3 never were */
    return type == LGG_TYPE_IQ2_XXS || type == LGG_TYPE_IQ2_XS || type == LGG_TYPE_IQ1_S;
}

/* An f16 is Inf or NaN when its exponent bits are all ones, and only then
 * does adding one to the exponent carry into bit 15: OR-ing these over a
 * row checks it without a branch per block (with one, the check took a
 * seventh of the time of Q4_0's quantizer, perf). */
static inline unsigned f16_carry(uint16_t h) { return (h & 0x7c00u) + 0x0400u; }
static inline bool f16_finite(uint16_t h) { return !(f16_carry(h) & 0x8000u); }

/* A whole row of 16-bit floats, four at a time: `bias` added to each
 * value's low 15 bits carries into its bit 15 exactly when the value is Inf
 * or NaN (f16: bias 0x0400 on the exponent bits; bf16: 0x0080 on the
 * magnitude, >= 0x7f80), and never across lanes (the sums stay below
 * 0x10000).  Kept in the core's C: gcc at -O2 does not vectorize the
 * one-by-one loop, which took 44% of an f16 conversion (perf). */
static bool halves_finite(const uint8_t *row, uint64_t n, uint16_t keep, uint16_t bias) {
    const uint64_t K = 0x0001000100010001ull * keep, B = 0x0001000100010001ull * bias;
    uint64_t acc = 0, i = 0;
    for (; i + 4 <= n; i += 4) {
        uint64_t v;
        memcpy(&v, row + 2 * i, 8); /* little-endian halves; the lanes' order does not matter */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v);
#endif
        acc |= (v & K) + B;
    }
    for (; i < n; i++) acc |= (uint64_t)((lgg__get16(row + 2 * i) & keep) + bias);
    return !(acc & 0x8000800080008000ull);
}

static bool row_valid(const lgg__kernel_row *e, const lgg_type_info *ti, const uint8_t *row, uint64_t nblocks) {
    const size_t ts = ti->type_size;
    switch (e->check) {
    case LGG__CHK_F16S: {
        if (ts == 2) return halves_finite(row, nblocks, 0x7c00, 0x0400); /* a row of f16 */
        unsigned acc = 0;
        for (uint64_t i = 0; i < nblocks; i++)
            for (int k = 0; k < e->n16; k++) acc |= f16_carry(lgg__get16(row + i * ts + e->off + 2 * k));
        return !(acc & 0x8000u);
    }
    case LGG__CHK_E8M0:
        for (uint64_t i = 0; i < nblocks; i++)
            if (row[i * ts] == 0xFF) return false;
        return true;
    case LGG__CHK_IQ1M:
        for (uint64_t i = 0; i < nblocks; i++) {
            const uint8_t *sc = row + i * ts + LGG__IQ1_M_SCALES;
            const uint16_t s = (uint16_t)((lgg__get16(sc) >> 12) | ((lgg__get16(sc + 2) >> 8) & 0x00f0) |
                                          ((lgg__get16(sc + 4) >> 4) & 0x0f00) | (lgg__get16(sc + 6) & 0xf000));
            if (!f16_finite(s)) return false;
        }
        return true;
    case LGG__CHK_F32:
        for (uint64_t i = 0; i < nblocks; i++) {
            uint32_t u = (uint32_t)row[4 * i] | (uint32_t)row[4 * i + 1] << 8 | (uint32_t)row[4 * i + 2] << 16 |
                         (uint32_t)row[4 * i + 3] << 24;
            if ((u & 0x7f800000u) == 0x7f800000u) return false;
        }
        return true;
    case LGG__CHK_BF16:
        return halves_finite(row, nblocks, 0x7fff, 0x0080);
    default:
        return true;
    }
}

lgg_status lgg_quantize(uint32_t type, const float *src, void *dst, size_t dst_size, int64_t nrows,
                        int64_t n_per_row, const float *imatrix, size_t *written) {
    return lgg__quantize_path(type, src, dst, dst_size, nrows, n_per_row, imatrix, written, true);
}

lgg_status lgg__quantize_path(uint32_t type, const float *src, void *dst, size_t dst_size, int64_t nrows,
                              int64_t n_per_row, const float *imatrix, size_t *written, bool simd) {
    if (written) *written = 0;
    if (nrows < 0 || n_per_row <= 0 || (nrows > 0 && (!src || !dst))) return LGG_ERR_ARG;
    const lgg__kernel_row *e = entry(type);
    if (!e) return LGG_ERR_UNSUPPORTED;
    if (e->needs_imatrix && !imatrix) return LGG_ERR_NEEDS_IMATRIX;
    const lgg_type_info *ti = lgg_type_get(type);
    if ((uint64_t)n_per_row % ti->block_size != 0) return LGG_ERR_RANGE;
    const uint64_t nblocks = (uint64_t)n_per_row / ti->block_size;
    uint64_t row_size, total;
    if (lgg__mul_ovf(nblocks, ti->type_size, &row_size) || lgg__mul_ovf(row_size, (uint64_t)nrows, &total) ||
        total > dst_size)
        return LGG_ERR_RANGE;
    if (!lgg__iq_init(type)) return LGG_ERR_NOMEM;

    const float *x = src;
    uint8_t *y = dst;
    for (int64_t r = 0; r < nrows; r++) {
        if (e->qpath) e->qpath(x, y, n_per_row, imatrix, simd);
        else if (e->q) e->q(x, y, n_per_row, imatrix);
        else if (!e->qchk(x, y, n_per_row, imatrix)) return LGG_ERR_INVALID;
        if (!row_valid(e, ti, y, ti->quantized ? nblocks : (uint64_t)n_per_row)) return LGG_ERR_INVALID;
        if (written) *written += (size_t)row_size;
        x += n_per_row;
        y += row_size;
    }
    return LGG_OK;
}
