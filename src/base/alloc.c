/* alloc.c -- every allocation goes through the caller's hook (or libc). */
#include "base/internal.h"

#include <stdlib.h>

void *lgg__alloc(const lgg_allocator *a, size_t size) {
    if (size == 0) size = 1; /* a non-NULL result always means success */
    if (a && a->alloc) return a->alloc(a->ud, size);
    return malloc(size);
}

void *lgg__calloc(const lgg_allocator *a, size_t n, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(n, size, &total)) return NULL;
    void *p = lgg__alloc(a, total);
    if (p) memset(p, 0, total);
    return p;
}

void *lgg__realloc(const lgg_allocator *a, void *p, size_t old_size, size_t new_size) {
    if (new_size == 0) new_size = 1;
    if (!a || !a->alloc) return realloc(p, new_size);
    if (a->realloc) return a->realloc(a->ud, p, old_size, new_size);
    void *q = a->alloc(a->ud, new_size);
    if (!q) return NULL;
    if (p) {
        memcpy(q, p, old_size < new_size ? old_size : new_size);
        a->free(a->ud, p);
    }
    return q;
}

void lgg__free(const lgg_allocator *a, void *p) {
    if (!p) return;
    if (a && a->alloc) {
        a->free(a->ud, p);
        return;
    }
    free(p);
}

bool lgg__grow(const lgg_allocator *a, void **p, size_t *cap, size_t need, size_t elem, size_t first) {
    if (need <= *cap) return true;
    size_t c = *cap ? *cap : (first ? first : 1);
    while (c < need) c = c > SIZE_MAX / 2 ? need : c * 2; /* doubling, or exactly enough near the top */
    size_t old_bytes, new_bytes;
    if (__builtin_mul_overflow(*cap, elem, &old_bytes) || __builtin_mul_overflow(c, elem, &new_bytes)) return false;
    void *q = lgg__realloc(a, *p, old_bytes, new_bytes);
    if (!q) return false;
    *p = q;
    *cap = c;
    return true;
}
