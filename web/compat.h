/* compat.h -- what Emscripten 3.1.6's libc (musl 1.2.2) lacks and the core
 * uses: glibc's qsort_r (musl has it from 1.2.3), and the declared but
 * missing copy_file_range and sync_file_range.  Force-included into the
 * WebAssembly build only (-include web/compat.h). */
#ifndef LGG_WEB_COMPAT_H
#define LGG_WEB_COMPAT_H
#include <stddef.h>
void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *arg);
#endif
