/* error.c -- status names and error messages. */
#include "base/internal.h"

#include <stdio.h>

const char *lgg_version(void) { return LGG_VERSION_STRING; }

const char *lgg_status_name(lgg_status code) {
    switch (code) {
    case LGG_OK: return "ok";
    case LGG_ERR_IO: return "io";
    case LGG_ERR_NOMEM: return "out-of-memory";
    case LGG_ERR_ARG: return "invalid-argument";
    case LGG_ERR_MAGIC: return "bad-magic";
    case LGG_ERR_VERSION: return "bad-version";
    case LGG_ERR_TRUNCATED: return "truncated";
    case LGG_ERR_LIMIT: return "limit";
    case LGG_ERR_VALUE_TYPE: return "bad-value-type";
    case LGG_ERR_NESTING: return "nesting";
    case LGG_ERR_ALIGNMENT: return "bad-alignment";
    case LGG_ERR_TENSOR_DUP: return "duplicate-tensor";
    case LGG_ERR_TENSOR_NDIMS: return "tensor-ndims";
    case LGG_ERR_TENSOR_DIMS: return "tensor-dims";
    case LGG_ERR_TENSOR_BLOCK: return "tensor-block";
    case LGG_ERR_TENSOR_ALIGN: return "tensor-misaligned";
    case LGG_ERR_TENSOR_BOUNDS: return "tensor-bounds";
    case LGG_ERR_TENSOR_OVERLAP: return "tensor-overlap";
    case LGG_ERR_NOT_FOUND: return "not-found";
    case LGG_ERR_TYPE: return "wrong-type";
    case LGG_ERR_RANGE: return "range";
    case LGG_ERR_UNSUPPORTED: return "unsupported";
    case LGG_ERR_INVALID: return "invalid";
    case LGG_ERR_EXISTS: return "exists";
    case LGG_ERR_NEEDS_IMATRIX: return "needs-imatrix";
    case LGG_ERR_NO_DATA: return "no-data";
    }
    return "unknown";
}

/* The message is one line whatever the names in it hold: a control byte
 * of a tensor name, a key or a path (a file's, an archive's) is written
 * \xNN, as the tool writes names, so that no message can move the
 * terminal's cursor or forge a line. */
static void set_error(lgg_error *err, lgg_status code, uint64_t offset, const char *fmt, va_list ap) {
    static const char hex[] = "0123456789abcdef";
    char raw[sizeof err->message];
    err->code = code;
    err->offset = offset;
    vsnprintf(raw, sizeof raw, fmt, ap);
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p; p++) {
        bool ctl = *p < 0x20 || *p == 0x7f;
        if (o + (ctl ? 4 : 1) >= sizeof err->message) break;
        if (!ctl) {
            err->message[o++] = (char)*p;
            continue;
        }
        err->message[o++] = '\\', err->message[o++] = 'x';
        err->message[o++] = hex[*p >> 4], err->message[o++] = hex[*p & 15];
    }
    err->message[o] = 0;
}

lgg_status lgg__fail(lgg_error *err, lgg_status code, uint64_t offset, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        set_error(err, code, offset, fmt, ap);
        va_end(ap);
    }
    return code;
}

lgg_status lgg_error_set(lgg_error *err, lgg_status code, uint64_t offset, const char *fmt, ...) {
    if (err && fmt) {
        va_list ap;
        va_start(ap, fmt);
        set_error(err, code, offset, fmt, ap);
        va_end(ap);
    }
    return code;
}

void lgg__quote(char *dst, size_t cap, const char *s, uint64_t len, size_t max) {
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    if (cap == 0) return;
    uint64_t n = len < max ? len : max;
    for (uint64_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
            if (o + 1 >= cap) break;
            dst[o++] = (char)c;
        } else {
            if (o + 4 >= cap) break;
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[c >> 4];
            dst[o++] = hex[c & 15];
        }
    }
    if (len > n && o + 3 < cap) {
        dst[o++] = '.';
        dst[o++] = '.';
        dst[o++] = '.';
    }
    dst[o] = 0;
}
