/* nameidx.c -- keyed name indexes (see nameidx.h for why keyed). */
#include "base/nameidx.h"
#include "base/cursor.h"

#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

#define ROTL64(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                                                                  \
    do {                                                                                                          \
        v0 += v1;                                                                                                 \
        v1 = ROTL64(v1, 13);                                                                                      \
        v1 ^= v0;                                                                                                 \
        v0 = ROTL64(v0, 32);                                                                                      \
        v2 += v3;                                                                                                 \
        v3 = ROTL64(v3, 16);                                                                                      \
        v3 ^= v2;                                                                                                 \
        v0 += v3;                                                                                                 \
        v3 = ROTL64(v3, 21);                                                                                      \
        v3 ^= v0;                                                                                                 \
        v2 += v1;                                                                                                 \
        v1 = ROTL64(v1, 17);                                                                                      \
        v1 ^= v2;                                                                                                 \
        v2 = ROTL64(v2, 32);                                                                                      \
    } while (0)

uint64_t lgg__hash(const uint64_t key[2], const char *s, uint64_t len) {
    const uint8_t *p = (const uint8_t *)s;
    uint64_t v0 = key[0] ^ UINT64_C(0x736f6d6570736575), v1 = key[1] ^ UINT64_C(0x646f72616e646f6d);
    uint64_t v2 = key[0] ^ UINT64_C(0x6c7967656e657261), v3 = key[1] ^ UINT64_C(0x7465646279746573);
    uint64_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t m = lgg__ld64(p + i, lgg__host_is_big()); /* little-endian words */
        v3 ^= m;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = len << 56;
    for (unsigned k = 0; i < len; i++, k += 8) b |= (uint64_t)p[i] << k;
    v3 ^= b;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A fresh hash key: the kernel's random bytes, or (if they cannot be had
 * without blocking) a mix of the time, the handle's address and the pid. */
static void hash_key_init(uint64_t key[2], const void *handle) {
#if defined(__linux__)
    if (getrandom(key, 2 * sizeof key[0], GRND_NONBLOCK) == (ssize_t)(2 * sizeof key[0])) return;
#endif
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * UINT64_C(1000000007) ^ (uint64_t)ts.tv_nsec ^
                 (uint64_t)(uintptr_t)handle << 16 ^ (uint64_t)getpid() << 40;
    key[0] = splitmix64(&x);
    key[1] = splitmix64(&x);
}

uint64_t lgg_hash_keyed(const uint64_t key[2], const void *p, size_t n) { return lgg__hash(key, (const char *)p, n); }

void lgg_hash_key_new(uint64_t key[2], const void *salt) {
    if (key) hash_key_init(key, salt);
}

void lgg__nameidx_init(lgg__nameidx *x, const void *handle) {
    memset(x, 0, sizeof *x);
    hash_key_init(x->key, handle);
}

void lgg__nameidx_free(lgg__nameidx *x, const lgg_allocator *a) {
    lgg__free(a, x->slots);
    x->slots = NULL;
    x->mask = 0;
    x->used = 0;
}

static uint64_t table_size(uint64_t n) {
    uint64_t s = 16;
    while (s < n * 2) s <<= 1;
    return s;
}

/* Place entry i, or return the entry already there under an equal name. */
static int64_t place(lgg__nameidx *x, lgg__name_fn name_of, const void *ctx, uint64_t i) {
    const char *n;
    uint64_t len;
    name_of(ctx, i, &n, &len);
    uint64_t h = lgg__hash(x->key, n, len) & x->mask;
    for (;;) {
        uint32_t s = x->slots[h];
        if (!s) {
            x->slots[h] = (uint32_t)(i + 1);
            x->used++;
            return -1;
        }
        const char *o;
        uint64_t olen;
        name_of(ctx, s - 1, &o, &olen);
        if (olen == len && (len == 0 || memcmp(o, n, len) == 0)) return (int64_t)(s - 1);
        h = (h + 1) & x->mask;
    }
}

/* Index entries 0..n-1 in a table sized for `room` entries. */
static bool rebuild(lgg__nameidx *x, const lgg_allocator *a, uint64_t n, uint64_t room, lgg__name_fn name_of,
                    const void *ctx, int64_t *dup_at) {
    if (dup_at) *dup_at = -1;
    lgg__nameidx_free(x, a);
    if (room > LGG__NAMEIDX_MAX) return false;
    uint64_t size = table_size(room);
    x->slots = lgg__calloc(a, size, sizeof *x->slots);
    if (!x->slots) return false;
    x->mask = size - 1;
    for (uint64_t i = 0; i < n; i++)
        if (place(x, name_of, ctx, i) >= 0 && dup_at && *dup_at < 0) *dup_at = (int64_t)i;
    return true;
}

bool lgg__nameidx_build(lgg__nameidx *x, const lgg_allocator *a, uint64_t n, lgg__name_fn name_of,
                        const void *ctx, int64_t *dup_at) {
    return rebuild(x, a, n, n, name_of, ctx, dup_at);
}

int64_t lgg__nameidx_add(lgg__nameidx *x, const lgg_allocator *a, lgg__name_fn name_of, const void *ctx,
                         uint64_t i) {
    /* grow (re-placing entries 0..i-1) to keep the table at most half full */
    if (!x->slots || (x->used + 1) * 2 > x->mask + 1) {
        if (!rebuild(x, a, i, i < UINT64_MAX / 2 ? 2 * (i + 1) : i, name_of, ctx, NULL)) {
            lgg__nameidx_free(x, a);
            return -2;
        }
    }
    return place(x, name_of, ctx, i);
}

int64_t lgg__nameidx_find(const lgg__nameidx *x, lgg__name_fn name_of, const void *ctx, const char *name,
                          uint64_t len) {
    if (!x->slots) return -1;
    uint64_t h = lgg__hash(x->key, name, len) & x->mask;
    for (;;) {
        uint32_t s = x->slots[h];
        if (!s) return -1;
        const char *o;
        uint64_t olen;
        name_of(ctx, s - 1, &o, &olen);
        if (olen == len && (len == 0 || memcmp(o, name, len) == 0)) return (int64_t)(s - 1);
        h = (h + 1) & x->mask;
    }
}
