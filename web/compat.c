/* compat.c -- the libc functions the WebAssembly build lacks (compat.h). */
#include "compat.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>

/* The module runs single-threaded, so the comparison and its argument can
 * wait in statics while qsort runs; nested calls restore the outer pair. */

static int (*cur_cmp)(const void *, const void *, void *);
static void *cur_arg;

static int trampoline(const void *a, const void *b) { return cur_cmp(a, b, cur_arg); }

void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *arg) {
    int (*old_cmp)(const void *, const void *, void *) = cur_cmp;
    void *old_arg = cur_arg;
    cur_cmp = cmp;
    cur_arg = arg;
    qsort(base, n, size, trampoline);
    cur_cmp = old_cmp;
    cur_arg = old_arg;
}

/* No such system call here: the writer copies with write() instead, and
 * write-back hints are only hints. */
ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t n, unsigned flags) {
    (void)in, (void)in_off, (void)out, (void)out_off, (void)n, (void)flags;
    errno = ENOSYS;
    return -1;
}

int sync_file_range(int fd, off_t off, off_t n, unsigned flags) {
    (void)fd, (void)off, (void)n, (void)flags;
    return 0;
}
