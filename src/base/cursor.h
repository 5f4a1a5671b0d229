/* cursor.h -- a bounds-checked reader over the file's bytes.
 *
 * Every load checks the bytes left first and fails with LGG_ERR_TRUNCATED and a
 * message naming the field and its offset.  Loads convert from the file's byte
 * order.  GGUF v1 stores lengths and counts as 32 bits, v2/v3 as 64: `lw`
 * is that width. */
#ifndef LGG_CURSOR_H
#define LGG_CURSOR_H

#include "base/internal.h"

typedef struct lgg_cursor {
    const uint8_t *base;
    uint64_t size;
    uint64_t pos;
    bool swap;
    uint8_t lw; /* 4 (v1) or 8 */
    lgg_error *err;
} lgg_cursor;

static inline uint64_t lgg__cur_left(const lgg_cursor *c) { return c->size - c->pos; }

LGG_HIDDEN lgg_status lgg__cur_short(lgg_cursor *c, uint64_t need, const char *what);

static inline lgg_status lgg__cur_u32(lgg_cursor *c, uint32_t *v, const char *what) {
    if (LGG_UNLIKELY(lgg__cur_left(c) < 4)) {
        *v = 0;
        return lgg__cur_short(c, 4, what);
    }
    *v = lgg__ld32(c->base + c->pos, c->swap);
    c->pos += 4;
    return LGG_OK;
}

static inline lgg_status lgg__cur_u64(lgg_cursor *c, uint64_t *v, const char *what) {
    if (LGG_UNLIKELY(lgg__cur_left(c) < 8)) {
        *v = 0;
        return lgg__cur_short(c, 8, what);
    }
    *v = lgg__ld64(c->base + c->pos, c->swap);
    c->pos += 8;
    return LGG_OK;
}

/* A length or count: 32 bits in v1, 64 bits after. */
static inline lgg_status lgg__cur_len(lgg_cursor *c, uint64_t *v, const char *what) {
    if (c->lw == 4) {
        uint32_t x = 0;
        lgg_status s = lgg__cur_u32(c, &x, what);
        *v = x;
        return s;
    }
    return lgg__cur_u64(c, v, what);
}

#endif
