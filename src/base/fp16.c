/* fp16.c -- half precision <-> single precision, bit-identical to ggml's
 * scalar reference (the golden vectors were made without F16C).
 *
 *   f16:  s eeeee mmmmmmmmmm        bf16: s eeeeeeee mmmmmmm
 *
 * f16 -> f32 uses exponent re-biasing through float multiplication so that
 * subnormals come out exact; f32 -> f16 lets the FPU do the round-to-nearest-
 * even by adding a power of two that aligns the mantissa.  The constants are
 * powers of two, so the arithmetic is exact except for the one intended
 * rounding; -ffp-contract=off keeps the compiler from fusing it. */
#include "base/internal.h"

static inline float bits_f32(uint32_t w) {
    float f;
    memcpy(&f, &w, 4);
    return f;
}
static inline uint32_t f32_bits(float f) {
    uint32_t w;
    memcpy(&w, &f, 4);
    return w;
}

float lgg_f16_to_f32(uint16_t h) {
    const uint32_t w = (uint32_t)h << 16;
    const uint32_t sign = w & UINT32_C(0x80000000);
    const uint32_t two_w = w + w;
    /* normal (and inf/NaN): move the exponent field into place, then rescale by 2^-112 */
    const float normalized = bits_f32((two_w >> 4) + (UINT32_C(0xE0) << 23)) * 0x1.0p-112f;
    /* subnormal: mantissa as the low bits of a float in [0.5, 1), minus 0.5 */
    const float denormalized = bits_f32((two_w >> 17) | (UINT32_C(126) << 23)) - 0.5f;
    const uint32_t r = sign | (two_w < (UINT32_C(1) << 27) ? f32_bits(denormalized) : f32_bits(normalized));
    return bits_f32(r);
}

uint16_t lgg_f32_to_f16(float f) {
    float base = (__builtin_fabsf(f) * 0x1.0p+112f) * 0x1.0p-110f;
    const uint32_t w = f32_bits(f);
    const uint32_t shl1_w = w + w;
    const uint32_t sign = w & UINT32_C(0x80000000);
    uint32_t bias = shl1_w & UINT32_C(0xFF000000);
    if (bias < UINT32_C(0x71000000)) bias = UINT32_C(0x71000000);
    base = bits_f32((bias >> 1) + UINT32_C(0x07800000)) + base;
    const uint32_t bits = f32_bits(base);
    const uint32_t exp_bits = (bits >> 13) & UINT32_C(0x00007C00);
    const uint32_t mantissa_bits = bits & UINT32_C(0x00000FFF);
    const uint32_t nonsign = exp_bits + mantissa_bits;
    return (uint16_t)((sign >> 16) | (shl1_w > UINT32_C(0xFF000000) ? UINT16_C(0x7E00) : nonsign));
}

float lgg_bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }

uint16_t lgg_f32_to_bf16(float f) {
    const uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 64); /* NaN: keep it quiet */
    return (uint16_t)((u + (0x7fffu + ((u >> 16) & 1))) >> 16);
}
