/* cursor.c -- the slow path of the byte cursor: describing a short read. */
#include "base/cursor.h"

lgg_status lgg__cur_short(lgg_cursor *c, uint64_t need, const char *what) {
    return lgg__fail(c->err, LGG_ERR_TRUNCATED, c->pos,
                     "%s at offset %llu needs %llu bytes but the file has %llu left", what,
                     (unsigned long long)c->pos, (unsigned long long)need,
                     (unsigned long long)lgg__cur_left(c));
}
