/* tok_unicode.c -- code points as llama.cpp sees them: its UTF-8 decoder
 * (lenient, U+FFFD for a bad sequence), its category flags (from utf8proc's
 * general categories and the White_Space property), simple lowercase, the
 * first code point of NFD, and GPT-2's byte <-> code point map. */
#include <utf8proc.h>

#include "tokenize/tok.h"

unsigned lgg__tok_cpt_flags(uint32_t cpt) {
    if (cpt > 0x10FFFF) return CPT_UNDEFINED; /* past llama.cpp's table */
    unsigned f;
    switch (utf8proc_category((utf8proc_int32_t)cpt)) {
    case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL: case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM: case UTF8PROC_CATEGORY_LO:
        f = CPT_LETTER; break;
    case UTF8PROC_CATEGORY_MN: case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
        f = CPT_MARK; break;
    case UTF8PROC_CATEGORY_ND: case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
        f = CPT_NUMBER; break;
    case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE: case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO:
        f = CPT_PUNCT; break;
    case UTF8PROC_CATEGORY_SM: case UTF8PROC_CATEGORY_SC: case UTF8PROC_CATEGORY_SK:
    case UTF8PROC_CATEGORY_SO:
        f = CPT_SYMBOL; break;
    case UTF8PROC_CATEGORY_ZS: case UTF8PROC_CATEGORY_ZL: case UTF8PROC_CATEGORY_ZP:
        f = CPT_SEPARATOR; break;
    case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF: case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
        f = CPT_CONTROL; break;
    default:
        f = CPT_UNDEFINED; break;
    }
    /* White_Space (PropList.txt), the set llama.cpp's \s stands for */
    if ((cpt >= 0x09 && cpt <= 0x0D) || cpt == 0x20 || cpt == 0x85 || cpt == 0xA0 || cpt == 0x1680 ||
        (cpt >= 0x2000 && cpt <= 0x200A) || cpt == 0x2028 || cpt == 0x2029 || cpt == 0x202F || cpt == 0x205F ||
        cpt == 0x3000)
        f |= CPT_WHITESPACE;
    return f;
}

uint32_t lgg__tok_cpt_lower(uint32_t cpt) {
    return cpt > 0x10FFFF ? cpt : (uint32_t)utf8proc_tolower((utf8proc_int32_t)cpt);
}

uint32_t lgg__tok_cpt_nfd_first(uint32_t cpt) {
    if (cpt > 0x10FFFF) return cpt;
    utf8proc_int32_t out[32];
    int last = 0;
    utf8proc_ssize_t n = utf8proc_decompose_char((utf8proc_int32_t)cpt, out, 32, UTF8PROC_DECOMPOSE, &last);
    return n >= 1 && n <= 32 ? (uint32_t)out[0] : cpt;
}

size_t lgg__tok_utf8_len(uint8_t c) {
    static const uint8_t len[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    return len[c >> 4];
}

uint32_t lgg__tok_utf8_decode(const char *p, size_t n, size_t *pos) {
    const uint8_t *s = (const uint8_t *)p + *pos;
    size_t left = n - *pos;
    uint8_t c = s[0];
    size_t k;
    uint32_t v;
    if (c < 0x80) {
        *pos += 1;
        return c;
    }
    if (!(c & 0x40)) goto bad;
    if (!(c & 0x20)) k = 2, v = c & 0x1F;
    else if (!(c & 0x10)) k = 3, v = c & 0x0F;
    else if (!(c & 0x08)) k = 4, v = c & 0x07;
    else goto bad;
    if (left < k) goto bad;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) goto bad;
        v = (v << 6) | (s[i] & 0x3F);
    }
    *pos += k;
    return v;
bad:
    *pos += 1;
    return 0xFFFD;
}

int lgg__tok_utf8_put(tok_buf *b, uint32_t c) {
    char u[4];
    size_t k;
    if (c < 0x80) u[0] = (char)c, k = 1;
    else if (c < 0x800) u[0] = (char)(0xC0 | (c >> 6)), u[1] = (char)(0x80 | (c & 0x3F)), k = 2;
    else if (c < 0x10000)
        u[0] = (char)(0xE0 | (c >> 12)), u[1] = (char)(0x80 | ((c >> 6) & 0x3F)), u[2] = (char)(0x80 | (c & 0x3F)),
        k = 3;
    else if (c <= 0x10FFFF)
        u[0] = (char)(0xF0 | (c >> 18)), u[1] = (char)(0x80 | ((c >> 12) & 0x3F)),
        u[2] = (char)(0x80 | ((c >> 6) & 0x3F)), u[3] = (char)(0x80 | (c & 0x3F)), k = 4;
    else
        return -1;
    return lgg__tok_buf_put(b, u, k);
}

/* GPT-2: the printable bytes stand for themselves, the other 68 take the
 * code points from U+0100 up, in byte order */
static int printable(unsigned b) {
    return (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

uint32_t lgg__tok_byte_to_cpt(uint8_t b) {
    if (printable(b)) return b;
    if (b <= 0x20) return 0x100 + b;            /* 33 controls and space */
    if (b <= 0xA0) return 0x121 + (b - 0x7F);   /* DEL, C1 controls, NBSP */
    return 0x143;                               /* soft hyphen, 0xAD */
}

int lgg__tok_cpt_to_byte(uint32_t cpt) {
    if (cpt < 0x100) return printable(cpt) ? (int)cpt : -1;
    if (cpt <= 0x120) return (int)(cpt - 0x100);
    if (cpt <= 0x142) return (int)(cpt - 0x121 + 0x7F);
    return cpt == 0x143 ? 0xAD : -1;
}

/* RWKV's escapes (\t \n \r \xHH, \c for c) undone as the reference does:
 * a hex digit is a-f or else c - '0' */
size_t lgg__tok_rwkv_unescape(const char *s, size_t n, char *out) {
    size_t k = 0;
    int esc = 0, hex = 0;
    unsigned acc = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (hex) {
            acc = (acc << 4) + (unsigned)(uint8_t)(c >= 'a' ? c - 'a' + 10 : c - '0');
            if (--hex == 0) out[k++] = (char)acc, acc = 0;
        } else if (esc) {
            esc = 0;
            if (c == 't') out[k++] = '\t';
            else if (c == 'n') out[k++] = '\n';
            else if (c == 'r') out[k++] = '\r';
            else if (c == 'x') hex = 2;
            else out[k++] = c;
        } else if (c == '\\') {
            esc = 1;
        } else {
            out[k++] = c;
        }
    }
    return k;
}
