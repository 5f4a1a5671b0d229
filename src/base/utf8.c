/* utf8.c -- UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF).  Vocabularies are mostly ASCII, so eight bytes at a time
 * are skipped while their high bits are clear. */
#include "base/internal.h"

#if defined(__x86_64__) || defined(__i386__)
LGG_HIDDEN bool lgg__utf8_valid_avx2(const uint8_t *s, uint64_t len);
#endif

LGG_HIDDEN bool lgg__utf8_valid_scalar(const uint8_t *s, uint64_t len, uint64_t *bad_at);

bool lgg__utf8_valid(const uint8_t *s, uint64_t len, uint64_t *bad_at) {
#if defined(__x86_64__) || defined(__i386__)
    /* long runs go through the vector validator; only a failure (rare) pays
     * for the scalar pass that finds the first bad byte */
    if (len >= 64 && (lgg__cpu_features() & LGG__CPU_AVX2)) {
        if (lgg__utf8_valid_avx2(s, len)) return true;
    }
#endif
    return lgg__utf8_valid_scalar(s, len, bad_at);
}

/* Unicode's table 3-7: the range of the byte after each lead byte.  Only the
 * second byte's range depends on the lead (it rules out overlongs,
 * surrogates and code points above U+10FFFF); later ones are 80..BF. */
size_t lgg_utf8_decode(const void *data, size_t len, uint32_t *cp) {
    const uint8_t *s = data;
    if (!len) return 0;
    uint8_t c = s[0];
    if (c < 0x80) {
        if (cp) *cp = c;
        return 1;
    }
    uint32_t need, v;
    uint8_t lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) need = 1, v = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) need = 2, v = c & 0x0F, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) need = 3, v = c & 0x07, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else {
        if (cp) *cp = LGG_UTF8_INVALID;
        return 1;
    }
    size_t k = 1;
    for (; k <= need; k++) {
        if (k >= len || s[k] < lo || s[k] > hi) {
            /* the maximal subpart of a well-formed sequence is one error */
            if (cp) *cp = LGG_UTF8_INVALID;
            return k;
        }
        v = (v << 6) | (s[k] & 0x3F);
        lo = 0x80, hi = 0xBF;
    }
    if (cp) *cp = v;
    return k;
}

bool lgg__utf8_valid_scalar(const uint8_t *s, uint64_t len, uint64_t *bad_at) {
    uint64_t i = 0;
    while (i < len) {
        while (i + 8 <= len) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & UINT64_C(0x8080808080808080)) break;
            i += 8;
        }
        if (i >= len) break;
        uint32_t cp;
        size_t rest = len - i > SIZE_MAX ? SIZE_MAX : (size_t)(len - i);
        size_t k = lgg_utf8_decode(s + i, rest, &cp);
        if (cp == LGG_UTF8_INVALID) {
            if (bad_at) *bad_at = i;
            return false;
        }
        i += k;
    }
    return true;
}
