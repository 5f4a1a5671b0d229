/* fuzz_name.c -- lgg_name_parse (the naming convention) on arbitrary bytes,
 * plus the other by-name look-ups that take untrusted text
 * (lgg_type_from_name, lgg_vtype_from_name), and the UTF-8 validator that
 * validation runs on every string: its AVX2 path must agree with the scalar
 * one on every input (and both must stay inside it).
 *
 * The input is passed as pointer + length with no terminating NUL, from an
 * exactly-sized buffer.  On a match every part must be NULL/0 or lie inside
 * the stem (the name before ".gguf"), parts must come in order without
 * overlapping, and the answer must not depend on whether `out` is given. */
#include "fuzz.h"
#include "base/internal.h"
#include "libgguf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool lgg__utf8_valid_scalar(const uint8_t *s, uint64_t len, uint64_t *bad_at); /* src/utf8.c */
#if defined(__x86_64__) || defined(__i386__)
bool lgg__utf8_valid_avx2(const uint8_t *s, uint64_t len); /* src/utf8_avx2.c */
#endif

static void utf8_agree(const uint8_t *data, size_t size) {
    uint64_t bad = UINT64_MAX;
    bool sc = lgg__utf8_valid_scalar(data, size, &bad);
    if (!sc) FUZZ_ASSERT(bad < size);
    uint64_t bad2 = UINT64_MAX;
    FUZZ_ASSERT(lgg__utf8_valid(data, size, &bad2) == sc);
    if (!sc) FUZZ_ASSERT(bad2 == bad);
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_cpu_supports("avx2")) FUZZ_ASSERT(lgg__utf8_valid_avx2(data, size) == sc);
#endif
}

static void part_ok(const char *name, size_t stem, const lgg_str *p, const char **after) {
    if (p->ptr == NULL) {
        FUZZ_ASSERT(p->len == 0);
        return;
    }
    FUZZ_ASSERT(p->ptr >= name && p->ptr <= name + stem);
    FUZZ_ASSERT(p->len <= (uint64_t)(name + stem - p->ptr));
    FUZZ_ASSERT(p->ptr >= *after); /* in order, no overlap */
    *after = p->ptr + p->len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *name = (const char *)data;
    utf8_agree(data, size);
    lgg_name_parts parts;
    memset(&parts, 0xa5, sizeof parts);
    bool ok = lgg_name_parse(size ? name : NULL, size, &parts);
    FUZZ_ASSERT(lgg_name_parse(size ? name : NULL, size, NULL) == ok);
    if (ok) {
        FUZZ_ASSERT(size >= 5 && memcmp(name + size - 5, ".gguf", 5) == 0);
        const size_t stem = size - 5;
        const char *after = name;
        const lgg_str *order[] = {&parts.base_name, &parts.size_label, &parts.fine_tune, &parts.version,
                                  &parts.encoding,  &parts.type,       &parts.shard};
        for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) part_ok(name, stem, order[i], &after);
        FUZZ_ASSERT(parts.base_name.ptr == name);
        FUZZ_ASSERT(parts.version.len >= 2 && parts.version.ptr[0] == 'v');
        if (parts.shard.ptr) FUZZ_ASSERT(parts.shard.len == 14);
        /* the same answer again (the matcher keeps no state) */
        lgg_name_parts again;
        FUZZ_ASSERT(lgg_name_parse(name, size, &again) && memcmp(&again, &parts, sizeof parts) == 0);
    }

    /* shard names: a match rebuilds to the same bytes, and a convention match
     * with a shard part agrees with it */
    uint32_t sidx = 0, scnt = 0;
    size_t spl = 0;
    if (lgg_split_name_parse(size ? name : NULL, size, &sidx, &scnt, &spl)) {
        FUZZ_ASSERT(spl + 20 == size && sidx < scnt && scnt <= 99999);
        char *prefix = malloc(spl + 1), rebuilt[32];
        FUZZ_ASSERT(prefix != NULL);
        memcpy(prefix, name, spl);
        prefix[spl] = 0;
        size_t need = lgg_split_path(NULL, 0, prefix, sidx, scnt);
        FUZZ_ASSERT(need == strlen(prefix) + 20);
        lgg_split_path(rebuilt, sizeof rebuilt, "", sidx, scnt);
        FUZZ_ASSERT(memcmp(rebuilt, name + spl, 20) == 0);
        free(prefix);
        if (ok && parts.shard.ptr) FUZZ_ASSERT(parts.shard.ptr == name + spl + 1);
    }

    /* type and value-type names: a hit names a live type, case-insensitively */
    uint32_t id = 12345;
    if (lgg_type_from_name(size ? name : NULL, size, &id) == LGG_OK) {
        FUZZ_ASSERT(lgg_type_is_valid(id));
        const char *tn = lgg_type_name(id);
        FUZZ_ASSERT(tn && strlen(tn) == size);
        for (size_t i = 0; i < size; i++) FUZZ_ASSERT(toupper((unsigned char)name[i]) == toupper((unsigned char)tn[i]));
    }
    uint32_t vt = 12345;
    if (size && lgg_vtype_from_name(name, size, &vt) == LGG_OK) FUZZ_ASSERT(lgg_vtype_name(vt) != NULL);
    return 0;
}
