/* quant_legacy.c -- the 32-element block formats (Q4_0, Q4_1, Q5_0, Q5_1,
 * Q8_0, Q8_1) and the plain F16 / BF16 / F32 rows.
 *
 * Without importance weights each block is quantized from its own min/max
 * (the "reference" quantizers ggml uses for model files); with them, Q4_0 and
 * Q5_0 search a scale with lgg__make_qx_quants, Q4_1 and Q5_1 a scale and
 * offset with lgg__make_qkx3_quants, weighting each value by
 * imatrix * sqrt(sigma^2 + x^2).  Q8_0 ignores the weights, as ggml does. */
#include "quant/quant_internal.h"

#include <float.h>

#define QK 32

void lgg__qrow_f32(const float *x, uint8_t *y, int64_t n, const float *qw) {
    (void)qw;
    if (!lgg__host_is_big()) {
        memcpy(y, x, (size_t)n * sizeof(float));
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], 4);
        lgg__put32(y + 4 * i, u);
    }
}

#if defined(LGG__QX86)
/* Whether the AVX2 kernels may run: asked for, and this CPU has them. */
static bool use_simd(bool simd) { return simd && lgg__cpu_avx2_f16c(); }
#endif

void lgg__qrow_f16_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    (void)qw;
#if defined(LGG__QX86)
    if (use_simd(simd) && !lgg__host_is_big()) {
        lgg__f32_to_f16_avx2(x, y, n);
        return;
    }
#endif
    (void)simd;
    for (int64_t i = 0; i < n; i++) lgg__put16(y + 2 * i, lgg_f32_to_f16(x[i]));
}

void lgg__qrow_bf16_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    (void)qw;
#if defined(LGG__QX86)
    if (use_simd(simd) && !lgg__host_is_big()) {
        lgg__f32_to_bf16_avx2(x, y, n);
        return;
    }
#endif
    (void)simd;
    for (int64_t i = 0; i < n; i++) lgg__put16(y + 2 * i, lgg_f32_to_bf16(x[i]));
}

/* mean of x^2 over the whole row: the sigma^2 of the imatrix weighting */
static float row_sigma2(const float *x, int64_t n) {
    float s = 0;
    for (int64_t j = 0; j < n; j++) s += x[j] * x[j];
    return s / (float)n;
}

static void imatrix_weights(const float *xb, const float *qw, float sigma2, float *w) {
    for (int j = 0; j < QK; j++) w[j] = qw[j] * sqrtf(sigma2 + xb[j] * xb[j]);
}

/* value of largest magnitude (the first one if several tie) */
static float signed_absmax(const float *xb) {
    float amax = 0.0f, max = 0.0f;
    for (int j = 0; j < QK; j++) {
        const float a = fabsf(xb[j]);
        if (amax < a) {
            amax = a;
            max = xb[j];
        }
    }
    return max;
}

static void min_max(const float *xb, float *pmin, float *pmax) {
    float mn = FLT_MAX, mx = -FLT_MAX;
    for (int j = 0; j < QK; j++) {
        if (xb[j] < mn) mn = xb[j];
        if (xb[j] > mx) mx = xb[j];
    }
    *pmin = mn;
    *pmax = mx;
}

/* ---- Q4_0: d (f16), 16 bytes of nibbles; value = (q - 8) * d ---- */
static void q4_0_block_ref(const float *xb, uint8_t *b) {
    const float max = signed_absmax(xb);
    const float d = max / -8;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    lgg__put_f16(b, d);
    for (int j = 0; j < QK / 2; j++) {
        int8_t lo = (int8_t)lgg__f2i(xb[j] * id + 8.5f);
        int8_t hi = (int8_t)lgg__f2i(xb[j + QK / 2] * id + 8.5f);
        uint8_t a = (uint8_t)(lo < 15 ? lo : 15), c = (uint8_t)(hi < 15 ? hi : 15);
        b[2 + j] = (uint8_t)(a | (c << 4));
    }
}


/* ---- Q4_1: d, m (f16), 16 bytes of nibbles; value = q * d + m ---- */
static void q4_1_block_ref(const float *xb, uint8_t *b) {
    float mn, mx;
    min_max(xb, &mn, &mx);
    const float d = (mx - mn) / 15;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    lgg__put_f16(b, d);
    lgg__put_f16(b + 2, mn);
    for (int j = 0; j < QK / 2; j++) {
        int8_t lo = (int8_t)lgg__f2i((xb[j] - mn) * id + 0.5f);
        int8_t hi = (int8_t)lgg__f2i((xb[j + QK / 2] - mn) * id + 0.5f);
        uint8_t a = (uint8_t)(lo < 15 ? lo : 15), c = (uint8_t)(hi < 15 ? hi : 15);
        b[4 + j] = (uint8_t)(a | (c << 4));
    }
}


/* 5-bit codes: low nibbles packed as in Q4, the fifth bits in a 32-bit word */
static void pack5(const uint8_t *q, uint8_t *qh_out, uint8_t *qs) {
    uint32_t qh = 0;
    for (int j = 0; j < 16; j++) {
        const uint8_t a = q[j], c = q[j + 16];
        qs[j] = (uint8_t)((a & 0x0F) | ((c & 0x0F) << 4));
        qh |= (uint32_t)((a & 0x10u) >> 4) << j;
        qh |= (uint32_t)((c & 0x10u) >> 4) << (j + 16);
    }
    lgg__put32(qh_out, qh);
}

/* ---- Q5_0: d, qh[4], qs[16]; value = (q - 16) * d ---- */
static void q5_0_block_ref(const float *xb, uint8_t *b) {
    const float max = signed_absmax(xb);
    const float d = max / -16;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    lgg__put_f16(b, d);
    uint8_t q[QK];
    for (int j = 0; j < QK; j++) {
        int8_t v = (int8_t)lgg__f2i(xb[j] * id + 16.5f);
        q[j] = (uint8_t)(v < 31 ? v : 31);
    }
    pack5(q, b + 2, b + 6);
}


/* ---- Q5_1: d, m, qh[4], qs[16]; value = q * d + m ---- */
static void q5_1_block_ref(const float *xb, uint8_t *b) {
    float mn, mx;
    min_max(xb, &mn, &mx);
    const float d = (mx - mn) / 31;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    lgg__put_f16(b, d);
    lgg__put_f16(b + 2, mn);
    uint8_t q[QK];
    for (int j = 0; j < QK; j++) q[j] = (uint8_t)lgg__f2i((xb[j] - mn) * id + 0.5f);
    pack5(q, b + 4, b + 8);
}



/* The four formats share one row driver.  Without an importance matrix each
 * block goes through its reference quantizer; with one, the block's weights
 * feed a scale search (symmetric formats: make_qx_quants with codes 0..2^b-1
 * around 2^(b-1); formats with a minimum: make_qkx3_quants), and the codes are
 * packed after the f16 header (d, or d and -min) as 4 or 5 bits. */
static void qrow_legacy(const float *x, uint8_t *y, int64_t n, const float *qw,
                        void (*block_ref)(const float *, uint8_t *), size_t block_bytes, int bits, bool with_min,
                        bool simd) {
    const int64_t nb = n / QK;
    if (!qw) {
#if defined(LGG__QX86)
        if (use_simd(simd)) {
            if (with_min) lgg__qx_1_avx2(x, y, nb, bits);
            else lgg__qx_0_avx2(x, y, nb, bits);
            return;
        }
#endif
        (void)simd;
        for (int64_t ib = 0; ib < nb; ib++) block_ref(x + ib * QK, y + (size_t)ib * block_bytes);
        return;
    }
    const float sigma2 = row_sigma2(x, n);
    const size_t hdr = with_min ? 4 : 2;
    float w[8 * QK], d[8], mn[8];
    uint8_t L[8 * QK];
    int8_t Ls[8 * QK];
    /* 8 blocks at a time: the searches run in SIMD lanes where available */
    for (int64_t ib = 0; ib < nb; ib += 8) {
        const int k = nb - ib < 8 ? (int)(nb - ib) : 8;
        for (int j = 0; j < k; j++) imatrix_weights(x + (ib + j) * QK, qw + (ib + j) * QK, sigma2, w + j * QK);
        if (with_min) lgg__qkx3_batch(k, QK, (1 << bits) - 1, x + ib * QK, w, L, d, mn, simd);
        else lgg__qx1_batch(k, QK, 1 << (bits - 1), x + ib * QK, w, Ls, d, simd);
        for (int j = 0; j < k; j++) {
            uint8_t *b = y + (size_t)(ib + j) * block_bytes, *Lj = L + j * QK;
            lgg__put_f16(b, d[j]);
            if (with_min) lgg__put_f16(b + 2, -mn[j]);
            else
                for (int i = 0; i < QK; i++) Lj[i] = (uint8_t)Ls[j * QK + i];
            if (bits == 4)
                for (int i = 0; i < 16; i++) b[hdr + i] = (uint8_t)(Lj[i] | (Lj[i + 16] << 4));
            else
                pack5(Lj, b + hdr, b + hdr + 4);
        }
    }
}

void lgg__qrow_q4_0_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    qrow_legacy(x, y, n, qw, q4_0_block_ref, 18, 4, false, simd);
}
void lgg__qrow_q4_1_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    qrow_legacy(x, y, n, qw, q4_1_block_ref, 20, 4, true, simd);
}
void lgg__qrow_q5_0_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    qrow_legacy(x, y, n, qw, q5_0_block_ref, 22, 5, false, simd);
}
void lgg__qrow_q5_1_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    qrow_legacy(x, y, n, qw, q5_1_block_ref, 24, 5, true, simd);
}

/* ---- Q8_0: d, 32 signed bytes; value = q * d.  Weights unused. ---- */
static float absmax_q8(const float *xb) {
    float amax = 0.0f;
    for (int j = 0; j < QK; j++) {
        const float a = fabsf(xb[j]);
        amax = amax > a ? amax : a;
    }
    return amax;
}

/* one Q8_0 block (sum = false) or Q8_1 block (sum = true: s = d * sum(q) after d) */
static void q8_block_ref(const float *xb, uint8_t *b, bool sum) {
    const float d = absmax_q8(xb) / 127;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    lgg__put_f16(b, d);
    uint8_t *qs = b + (sum ? 4 : 2);
    int isum = 0;
    for (int j = 0; j < QK; j++) {
        const int8_t q = (int8_t)lgg__f2i(roundf(xb[j] * id));
        qs[j] = (uint8_t)q;
        isum += q;
    }
    if (sum) lgg__put_f16(b + 2, (float)isum * d);
}

static void qrow_q8(const float *x, uint8_t *y, int64_t n, bool sum, bool simd) {
    const int64_t nb = n / QK;
    const size_t bs = sum ? LGG__TS_Q8_1 : LGG__TS_Q8_0;
    int64_t ib = 0;
#if defined(LGG__QX86)
    /* the kernel stops before a block that holds a NaN: the scalar
     * quantizer takes that one, and the kernel the rest */
    if (use_simd(simd))
        while ((ib += lgg__q8_avx2(x + ib * QK, y + ib * bs, nb - ib, sum)) < nb) {
            q8_block_ref(x + ib * QK, y + ib * bs, sum);
            ib++;
        }
#endif
    (void)simd;
    for (; ib < nb; ib++) q8_block_ref(x + ib * QK, y + ib * bs, sum);
}

void lgg__qrow_q8_0_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    (void)qw;
    qrow_q8(x, y, n, false, simd);
}

void lgg__qrow_q8_1_path(const float *x, uint8_t *y, int64_t n, const float *qw, bool simd) {
    (void)qw;
    qrow_q8(x, y, n, true, simd);
}
