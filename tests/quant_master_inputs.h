/* quant_master_inputs.h -- the generated inputs of the master quantization
 * references: splitmix64 and the "special" floats.  Included by the harness
 * that makes the references (scripts/golden_quant_master.c, against ggml)
 * and by the test that checks libgguf against them
 * (tests/test_quant_master.c), so both make the same inputs. */
#ifndef LGG_QUANT_MASTER_INPUTS_H
#define LGG_QUANT_MASTER_INPUTS_H

#include <stdint.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static float from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Value `i` of row `row` of the special input, from one splitmix64 word r:
 *   row 0  any finite bit pattern (every exponent, subnormals included)
 *   row 1  uniform in [-1, 1) (24-bit), one in 32 a NaN (random payload and sign)
 *   row 2  uniform in [-1, 1), one in 64 an infinity (random sign)
 *   row 3  subnormals and signed zeros
 *   row 4  +-2^e * (1 - k 2^-24), k in 0..3, e in -30..30 (next to powers of two)
 *   row 5  +-(j/4) 2^e, j in 0..63, e in -8..8 (the FP4 levels and midpoints)
 *   row 6  +-[2^100, FLT_MAX] in magnitude
 *   row 7  one of NaN, +Inf, -Inf, 0, -0, a subnormal, a huge and a normal
 *          value, by r % 8 */
static float special_value(int row, uint64_t r) {
    const uint32_t lo = (uint32_t)r, hi = (uint32_t)(r >> 32), sign = hi & 0x80000000u;
    const float unit = (float)(int32_t)(lo >> 8) / 8388608.0f - 1.0f; /* [-1, 1) */
    switch (row) {
    case 0: {
        uint32_t u = lo;
        if ((u & 0x7F800000u) == 0x7F800000u) u &= 0xBFFFFFFFu;
        return from_bits(u);
    }
    case 1: return hi % 32 == 0 ? from_bits(sign | 0x7F800000u | 0x00400000u | (lo & 0x003FFFFFu)) : unit;
    case 2: return hi % 64 == 0 ? from_bits(sign | 0x7F800000u) : unit;
    case 3: return from_bits(sign | (lo % 4 == 0 ? 0u : (lo & 0x007FFFFFu)));
    case 4: {
        const int e = (int)(hi % 61) - 30, k = (int)((hi >> 8) % 4);
        return from_bits(sign | (uint32_t)(127 + e) << 23) * (1.0f - (float)k * 0x1p-24f);
    }
    case 5: {
        const int e = (int)(hi % 17) - 8, j = (int)((hi >> 8) % 64);
        return from_bits(sign | (uint32_t)(127 + e) << 23) * ((float)j / 4.0f);
    }
    case 6: return from_bits(sign | (uint32_t)(127 + 100 + lo % 28) << 23 | (lo >> 9));
    default:
        switch (r % 8) {
        case 0: return from_bits(0x7FC00000u | sign | (lo & 0x3FFF00u));
        case 1: return from_bits(0x7F800000u);
        case 2: return from_bits(0xFF800000u);
        case 3: return 0.0f;
        case 4: return -0.0f;
        case 5: return from_bits(sign | (lo & 0x007FFFFFu));
        case 6: return from_bits(sign | 0x7F000000u | (lo & 0x007FFFFFu));
        default: return unit * 3.0f;
        }
    }
}

#endif
