/* utf8.c -- UTF-8 validation (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF).  Vocabularies are mostly ASCII, so eight bytes at a time
 * are skipped while their high bits are clear. */
#include "internal.h"

#if defined(__x86_64__) || defined(__i386__)
LGG_HIDDEN bool lgg__utf8_valid_avx2(const uint8_t *s, uint64_t len);
#endif

LGG_HIDDEN bool lgg__utf8_valid_scalar(const uint8_t *s, uint64_t len, uint64_t *bad_at);

bool lgg__utf8_valid(const uint8_t *s, uint64_t len, uint64_t *bad_at) {
#if defined(__x86_64__) || defined(__i386__)
    /* long runs go through the vector validator; only a failure (rare) pays
     * for the scalar pass that finds the first bad byte */
    if (len >= 64 && __builtin_cpu_supports("avx2")) {
        if (lgg__utf8_valid_avx2(s, len)) return true;
    }
#endif
    return lgg__utf8_valid_scalar(s, len, bad_at);
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
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        uint32_t need, cp;
        uint32_t min;
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1, cp = c & 0x1F, min = 0x80;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2, cp = c & 0x0F, min = 0x800;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3, cp = c & 0x07, min = 0x10000;
        } else {
            if (bad_at) *bad_at = i;
            return false;
        }
        if (len - i <= need) {
            if (bad_at) *bad_at = i;
            return false;
        }
        for (uint32_t k = 1; k <= need; k++) {
            uint8_t d = s[i + k];
            if ((d & 0xC0) != 0x80) {
                if (bad_at) *bad_at = i;
                return false;
            }
            cp = (cp << 6) | (d & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            if (bad_at) *bad_at = i;
            return false;
        }
        i += need + 1;
    }
    return true;
}
