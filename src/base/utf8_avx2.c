/* utf8_avx2.c -- UTF-8 validation 32 bytes at a time (AVX2).
 *
 * The method is Keiser and Lemire's "lookup" validator ("Validating UTF-8 In
 * Less Than One Instruction Per Byte", 2021): every error in a two-byte window
 * is recognised by AND-ing three 16-entry table lookups (the high nibble of
 * the previous byte, its low nibble, and the high nibble of the current byte);
 * each bit of the result names one error class.  Three- and four-byte
 * sequences additionally need the continuation bytes two and three places
 * after a lead byte, which a saturating subtraction finds.  Only the yes/no
 * answer comes from here; the caller locates the first bad byte with the
 * scalar validator. */
#include "base/internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* error classes, one bit each */
#define TOO_SHORT (1 << 0)  /* a lead byte not followed by a continuation */
#define TOO_LONG (1 << 1)   /* a continuation after an ASCII byte */
#define OVERLONG_3 (1 << 2) /* E0 followed by 80..9F */
#define TOO_LARGE (1 << 3)  /* above U+10FFFF */
#define SURROGATE (1 << 4)  /* ED followed by A0..BF */
#define OVERLONG_2 (1 << 5) /* C0 or C1 */
#define TOO_LARGE_1000 (1 << 6)
#define OVERLONG_4 (1 << 6) /* F0 followed by 80..8F */
#define TWO_CONTS (1 << 7)  /* two continuations in a row (checked against must23) */
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)

static inline __m256i tbl(__m256i idx, int8_t a0, int8_t a1, int8_t a2, int8_t a3, int8_t a4, int8_t a5, int8_t a6,
                          int8_t a7, int8_t a8, int8_t a9, int8_t a10, int8_t a11, int8_t a12, int8_t a13,
                          int8_t a14, int8_t a15) {
    __m256i t = _mm256_setr_epi8(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a0, a1, a2,
                                 a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15);
    return _mm256_shuffle_epi8(t, idx);
}

/* The 32 bytes ending `n` bytes before the start of `cur`, given the previous block. */
#define PREV(cur, prev, n) _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (n))

__attribute__((target("avx2"))) static __m256i block_errors(__m256i in, __m256i prev_in) {
    const __m256i nib = _mm256_set1_epi8(0x0F);
    __m256i prev1 = PREV(in, prev_in, 1);
    __m256i b1h = tbl(_mm256_and_si256(_mm256_srli_epi16(prev1, 4), nib), TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
                      TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, (int8_t)TWO_CONTS, (int8_t)TWO_CONTS, (int8_t)TWO_CONTS, (int8_t)TWO_CONTS,
                      TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
                      (int8_t)(TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4));
    __m256i b1l = tbl(_mm256_and_si256(prev1, nib), (int8_t)(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4),
                      (int8_t)(CARRY | OVERLONG_2), (int8_t)CARRY, (int8_t)CARRY, (int8_t)(CARRY | TOO_LARGE),
                      (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000), (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000),
                      (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000), (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000),
                      (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000), (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000),
                      (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000), (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000),
                      (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE),
                      (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000), (int8_t)(CARRY | TOO_LARGE | TOO_LARGE_1000));
    __m256i b2h = tbl(_mm256_and_si256(_mm256_srli_epi16(in, 4), nib), TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
                      TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
                      (int8_t)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4),
                      (int8_t)(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE),
                      (int8_t)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE),
                      (int8_t)(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE), TOO_SHORT, TOO_SHORT,
                      TOO_SHORT, TOO_SHORT);
    __m256i special = _mm256_and_si256(_mm256_and_si256(b1h, b1l), b2h);
    /* bytes that must be the 2nd continuation of a 3/4-byte sequence or the 3rd of a 4-byte one */
    __m256i prev2 = PREV(in, prev_in, 2), prev3 = PREV(in, prev_in, 3);
    __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
    __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(must23, special);
}

/* Nonzero where the last bytes of a block start a sequence the block cannot finish. */
__attribute__((target("avx2"))) static __m256i incomplete(__m256i in) {
    const __m256i max = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, (char)(0xF0 - 1), (char)(0xE0 - 1),
                                         (char)(0xC0 - 1));
    return _mm256_subs_epu8(in, max);
}

__attribute__((target("avx2"))) LGG_HIDDEN bool lgg__utf8_valid_avx2(const uint8_t *s, uint64_t len);
__attribute__((target("avx2"))) bool lgg__utf8_valid_avx2(const uint8_t *s, uint64_t len) {
    __m256i err = _mm256_setzero_si256(), prev = _mm256_setzero_si256(), prev_inc = _mm256_setzero_si256();
    uint64_t i = 0;
    for (; i + 32 <= len; i += 32) {
        __m256i in = _mm256_loadu_si256((const __m256i *)(s + i));
        if (_mm256_movemask_epi8(in) == 0) {
            /* all ASCII: only a sequence left open by the previous block can be wrong */
            err = _mm256_or_si256(err, prev_inc);
        } else {
            err = _mm256_or_si256(err, block_errors(in, prev));
            prev_inc = incomplete(in);
        }
        if (_mm256_movemask_epi8(in) == 0) prev_inc = _mm256_setzero_si256();
        prev = in;
    }
    /* the tail, zero-padded: a zero byte (ASCII) after an open sequence is an error */
    uint8_t tail[32];
    memset(tail, 0, sizeof tail);
    memcpy(tail, s + i, (size_t)(len - i));
    __m256i in = _mm256_loadu_si256((const __m256i *)tail);
    err = _mm256_or_si256(err, block_errors(in, prev));
    err = _mm256_or_si256(err, incomplete(in));
    return _mm256_testz_si256(err, err);
}
#endif
