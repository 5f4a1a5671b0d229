/* options.c -- options structs that can grow (the rule is in libgguf.h,
 * above lgg_open_options): a caller's struct is copied into the one this
 * library knows, so the code behind reads every field without asking
 * which ones the caller's size covers. */
#include "base/internal.h"

lgg_status lgg_options_copy(void *dst, size_t dst_size, size_t first_size, const void *src, const char *what,
                            lgg_error *err) {
    if (!dst || dst_size < sizeof(size_t) || first_size < sizeof(size_t) || first_size > dst_size)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_options_copy: bad sizes");
    memset(dst, 0, dst_size);
    if (src) {
        size_t size;
        memcpy(&size, src, sizeof size);
        if (size == 0) size = first_size; /* the first layout: callers of `= {0}` */
        if (size < first_size)
            return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%s: size %zu is smaller than its first layout (%zu)",
                             what ? what : "options", size, first_size);
        /* a newer caller's fields this library does not know must be unset */
        for (size_t i = dst_size; i < size; i++)
            if (((const unsigned char *)src)[i])
                return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                                 "%s: a field at byte %zu is set, which this version (%s) does not know",
                                 what ? what : "options", i, LGG_VERSION_STRING);
        memcpy(dst, src, size < dst_size ? size : dst_size);
    }
    memcpy(dst, &dst_size, sizeof dst_size);
    return LGG_OK;
}
