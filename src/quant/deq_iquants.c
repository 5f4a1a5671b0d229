/* deq_iquants.c -- the importance-matrix "IQ" formats.
 *
 * Most of these store indices into fixed codebooks (iq_tables.c): a grid
 * entry is 8 (or 4) unsigned byte magnitudes packed in a u64 (u32), byte j
 * being lane j; signs come separately as 7 stored bits whose 8th (parity) bit
 * is implied (lgg__ksigns_iq2xs).  A sign is applied after the scale
 * multiply, as a negation (see signed_by). */
#include "quant/deq.h"
#include "quant/iq_tables.h"

static inline uint8_t grid_byte64(const uint64_t *grid, unsigned idx, int j) {
    return (uint8_t)(grid[idx] >> (8 * j));
}
static inline uint8_t grid_byte32(const uint32_t *grid, unsigned idx, int j) {
    return (uint8_t)(grid[idx] >> (8 * j));
}
/* ggml writes the sign as a multiply by (bit ? -1.f : 1.f), which its
 * compiler turns into a negation: for a NaN scale the two differ (x86's
 * multiply passes the NaN through, a negation flips its sign bit), so the
 * sign is applied here as a negation of the bits, without a branch. */
static inline float signed_by(float x, uint8_t signs, int j) {
    uint32_t u;
    memcpy(&u, &x, 4);
    u ^= (uint32_t)((signs >> j) & 1) << 31;
    memcpy(&x, &u, 4);
    return x;
}

/* IQ2_XXS, 66 bytes:  d (f16) | 8 groups of 8 bytes, one per 32 values:
 *   bytes 0-3   grid indices (lgg__iq2xxs_grid) for the four 8-value lanes
 *   bytes 4-7   u32 w: bits 7l..7l+6 sign index of lane l, bits 28-31 scale
 * Scale: d * (0.5 + s) * 0.25. */
void lgg__deq_iq2_xxs(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ2_XXS) {
        const float d = lgg__half(src);
        for (int ib = 0; ib < 8; ib++) {
            const uint8_t *g = src + 2 + 8 * ib;
            const uint32_t w = lgg__h32(g + 4);
            const float db = d * (0.5f + (float)(w >> 28)) * 0.25f;
            for (int l = 0; l < 4; l++, dst += 8) {
                const uint8_t signs = lgg__ksigns_iq2xs[(w >> (7 * l)) & 127];
                for (int j = 0; j < 8; j++)
                    dst[j] = signed_by(db * (float)grid_byte64(lgg__iq2xxs_grid, g[l], j), signs, j);
            }
        }
    }
}

/* IQ2_XS, 74 bytes:  d (f16) | qs[32] u16 | scales[8]
 * Each u16: low 9 bits grid index (lgg__iq2xs_grid), high 7 bits sign index.
 * scales byte per 32 values: low nibble for the first 16, high for the last. */
void lgg__deq_iq2_xs(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ2_XS) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *scales = src + 66;
        for (int ib = 0; ib < 8; ib++) {
            float db[2];
            db[0] = d * (0.5f + (float)(scales[ib] & 0xF)) * 0.25f;
            db[1] = d * (0.5f + (float)(scales[ib] >> 4)) * 0.25f;
            for (int l = 0; l < 4; l++, dst += 8) {
                const uint16_t v = lgg__h16(qs + 2 * (4 * ib + l));
                const uint8_t signs = lgg__ksigns_iq2xs[v >> 9];
                for (int j = 0; j < 8; j++)
                    dst[j] = signed_by(db[l / 2] * (float)grid_byte64(lgg__iq2xs_grid, v & 511, j), signs, j);
            }
        }
    }
}

/* IQ2_S, 82 bytes:
 *   d (f16) | qs[32] low 8 bits of grid indices | signs[32] (explicit, one
 *   byte per 8 values) | qh[8] index bits 8-9, two per lane | scales[8] as
 *   IQ2_XS.  Grid: lgg__iq2s_grid. */
void lgg__deq_iq2_s(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ2_S) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *signs = src + 34, *qh = src + 66, *scales = src + 74;
        for (int ib = 0; ib < 8; ib++, qs += 4, signs += 4) {
            float db[2];
            db[0] = d * (0.5f + (float)(scales[ib] & 0xF)) * 0.25f;
            db[1] = d * (0.5f + (float)(scales[ib] >> 4)) * 0.25f;
            for (int l = 0; l < 4; l++, dst += 8) {
                const float dl = db[l / 2];
                const unsigned idx = qs[l] | (((unsigned)qh[ib] << (8 - 2 * l)) & 0x300);
                for (int j = 0; j < 8; j++)
                    dst[j] = signed_by(dl * (float)grid_byte64(lgg__iq2s_grid, idx, j), signs[l], j);
            }
        }
    }
}

/* IQ3_XXS, 98 bytes:  d (f16) | qs[64] grid indices (lgg__iq3xxs_grid, 4
 * values each) | 8 u32 words, one per 32 values: bits 7l..7l+6 sign index of
 * 8-value lane l, bits 28-31 scale.  Scale: d * (0.5 + s) * 0.5. */
void lgg__deq_iq3_xxs(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ3_XXS) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *ss = src + LGG__IQ3_XXS_SIGNS;
        for (int ib = 0; ib < 8; ib++, qs += 8) {
            const uint32_t w = lgg__h32(ss + 4 * ib);
            const float db = d * (0.5f + (float)(w >> 28)) * 0.5f;
            for (int l = 0; l < 4; l++, dst += 8) {
                const uint8_t signs = lgg__ksigns_iq2xs[(w >> (7 * l)) & 127];
                for (int j = 0; j < 4; j++) {
                    dst[j] = signed_by(db * (float)grid_byte32(lgg__iq3xxs_grid, qs[2 * l], j), signs, j);
                    dst[j + 4] = signed_by(db * (float)grid_byte32(lgg__iq3xxs_grid, qs[2 * l + 1], j), signs, j + 4);
                }
            }
        }
    }
}

/* IQ3_S, 110 bytes:
 *   d (f16) | qs[64] low 8 index bits | qh[8] 9th index bit, one per
 *   4-value half-lane (bit 2l and 2l+1 of qh[ib]) | signs[32] explicit |
 *   scales[4] two 4-bit scales per 64 values.  Scale: d * (1 + 2s). */
void lgg__deq_iq3_s(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ3_S) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2, *qh = src + 66, *signs = src + 74, *scales = src + 106;
        for (int ib = 0; ib < 8; ib++, qs += 8, signs += 4) {
            const int s = ib % 2 ? scales[ib / 2] >> 4 : scales[ib / 2] & 0xF;
            const float db = d * (float)(1 + 2 * s);
            for (int l = 0; l < 4; l++, dst += 8) {
                const unsigned i1 = qs[2 * l] | (((unsigned)qh[ib] << (8 - 2 * l)) & 256);
                const unsigned i2 = qs[2 * l + 1] | (((unsigned)qh[ib] << (7 - 2 * l)) & 256);
                for (int j = 0; j < 4; j++) {
                    dst[j] = signed_by(db * (float)grid_byte32(lgg__iq3s_grid, i1, j), signs[l], j);
                    dst[j + 4] = signed_by(db * (float)grid_byte32(lgg__iq3s_grid, i2, j), signs[l], j + 4);
                }
            }
        }
    }
}

/* IQ1_S, 50 bytes:  d (f16) | qs[32] low 8 index bits | qh[8] u16, one per
 * 32 values: bits 3l..3l+2 index bits 8-10 of lane l, bits 12-14 scale s,
 * bit 15 sign of the shift delta.  Grid entries are int8 in {-1,0,1}.
 * Value: (d * (2s + 1)) * (grid + delta). */
void lgg__deq_iq1_s(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ1_S) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2;
        for (int ib = 0; ib < 8; ib++, qs += 4) {
            const uint16_t h = lgg__h16(src + LGG__IQ1_S_QH + 2 * ib);
            const float dl = d * (float)(2 * ((h >> 12) & 7) + 1);
            const float delta = h & 0x8000 ? -LGG__IQ1S_DELTA : LGG__IQ1S_DELTA;
            for (int l = 0; l < 4; l++, dst += 8) {
                const unsigned idx = qs[l] | (((unsigned)(h >> (3 * l)) & 7) << 8);
                for (int j = 0; j < 8; j++)
                    dst[j] = dl * ((float)(int8_t)grid_byte64(lgg__iq1s_grid, idx, j) + delta);
            }
        }
    }
}

/* IQ1_M, 56 bytes:
 *   qs[32]      low 8 index bits per 8-value lane
 *   qh[16]      per lane pair: low nibble = index bits 8-10 of the even lane
 *               + delta sign (bit 3), high nibble the same for the odd lane
 *   scales[8]   four u16 words sc[0..3]: 3-bit lane-pair scales in bits
 *               0-11 (four per word), and the f16 super-scale split into
 *               the top nibbles: sc[0]>>12 bits 0-3 ... sc[3]>>12 bits 12-15 */
void lgg__deq_iq1_m(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ1_M) {
        const uint8_t *qs = src, *qh = src + 32;
        uint16_t sc[4];
        for (int k = 0; k < 4; k++) sc[k] = lgg__h16(src + LGG__IQ1_M_SCALES + 2 * k);
        const uint16_t dbits = (uint16_t)((sc[0] >> 12) | ((sc[1] >> 8) & 0x00F0) | ((sc[2] >> 4) & 0x0F00) |
                                          (sc[3] & 0xF000));
        const float d = lgg_f16_to_f32(dbits);
        for (int ib = 0; ib < 8; ib++, qs += 4, qh += 2) {
            const float dl1 = d * (float)(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 0)) & 7) + 1);
            const float dl2 = d * (float)(2 * ((sc[ib / 2] >> (6 * (ib % 2) + 3)) & 7) + 1);
            for (int l = 0; l < 4; l++, dst += 8) {
                const uint8_t h = qh[l / 2];
                const unsigned nib = l % 2 ? (unsigned)(h >> 4) : (unsigned)(h & 0xF);
                const unsigned idx = qs[l] | ((nib & 7) << 8);
                const float delta = nib & 8 ? -LGG__IQ1M_DELTA : LGG__IQ1M_DELTA;
                const float dl = l < 2 ? dl1 : dl2;
                for (int j = 0; j < 8; j++)
                    dst[j] = dl * ((float)(int8_t)grid_byte64(lgg__iq1s_grid, idx, j) + delta);
            }
        }
    }
}

/* IQ4_NL, 18 bytes:  d (f16) | qs[16], nibbles as Q4_0, each an index into
 * the 16 non-linear levels lgg__kvalues_iq4nl. */
void lgg__deq_iq4_nl(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ4_NL, dst += 32) {
        const float d = lgg__half(src);
        const uint8_t *qs = src + 2;
        for (int j = 0; j < 16; j++) {
            dst[j] = d * (float)lgg__kvalues_iq4nl[qs[j] & 0xF];
            dst[j + 16] = d * (float)lgg__kvalues_iq4nl[qs[j] >> 4];
        }
    }
}

/* IQ4_XS, 136 bytes:  d (f16) | scales_h (u16: 2 high bits per 32 values) |
 * scales_l[4] (4 low bits per 32 values, low nibble first) | qs[128] as
 * eight IQ4_NL payloads.  Sub-block scale: d * (ls - 32). */
void lgg__deq_iq4_xs(const uint8_t *restrict src, float *restrict dst, size_t nb) {
    for (size_t i = 0; i < nb; i++, src += LGG__TS_IQ4_XS) {
        const float d = lgg__half(src);
        const uint16_t sh = lgg__h16(src + 2);
        const uint8_t *sl = src + 4, *qs = src + 8;
        for (int ib = 0; ib < 8; ib++, qs += 16, dst += 32) {
            const int ls = ((sl[ib / 2] >> (4 * (ib % 2))) & 0xF) | (((sh >> (2 * ib)) & 3) << 4);
            const float dl = d * (float)(ls - 32);
            for (int j = 0; j < 16; j++) {
                dst[j] = dl * (float)lgg__kvalues_iq4nl[qs[j] & 0xF];
                dst[j + 16] = dl * (float)lgg__kvalues_iq4nl[qs[j] >> 4];
            }
        }
    }
}
