/* fuzz_hub_listing.c -- the hub's repository listing (src/remote/hub.c):
 * the JSON of GET /api/models/OWNER/REPO/tree/REV?recursive=true, which the
 * server controls entirely, parsed page by page as lgg_hub_list parses what
 * it fetches (lgg__hub_parse_page, no HTTP).  The input is split at NUL
 * bytes: the first part is the quantization tag for lgg_hub_select (at most
 * 64 bytes; empty: Q4_K_M), each further part one page (at most 8).
 * Invariants: a page that fails says why in one line of printable bytes; the
 * files kept have a path that is relative, with no empty, "." or ".."
 * segment, no control character, '?', '#' or backslash, and a sha256 that is
 * "" or 64 lowercase hex digits; every path's quantization name fits and is
 * printable; lgg_hub_select picks a *.gguf file whose path holds the tag
 * (case-insensitively), or says why not. */
#include "fuzz.h"
#include "remote/http.h"

#include <string.h>
#include <strings.h>

static void printable(const char *m) {
    for (; *m; m++) FUZZ_ASSERT((unsigned char)*m >= 0x20 && *m != 0x7f);
}

static void check_path(const char *p) {
    FUZZ_ASSERT(p && *p && *p != '/');
    for (const char *s = p; *s; s++)
        FUZZ_ASSERT((unsigned char)*s >= 0x20 && *s != 0x7f && *s != '?' && *s != '#' && *s != '\\');
    for (const char *seg = p;;) {
        const char *e = strchr(seg, '/');
        size_t l = e ? (size_t)(e - seg) : strlen(seg);
        FUZZ_ASSERT(l && !(l == 1 && seg[0] == '.') && !(l == 2 && seg[0] == '.' && seg[1] == '.'));
        if (!e) break;
        seg = e + 1;
    }
}

static int contains_nocase(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n)) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *p = (const char *)data, *end = p + size;
    const char *z = memchr(p, 0, size);
    char tag[65];
    size_t tl = (size_t)((z ? z : end) - p);
    snprintf(tag, sizeof tag, "%.*s", (int)(tl < 64 ? tl : 64), p);
    lgg_hub_repo *r = NULL;
    lgg_error err;
    lgg_status st = LGG_OK;
    for (int page = 0; z && page < 8 && st == LGG_OK; page++) {
        const char *b = z + 1;
        z = memchr(b, 0, (size_t)(end - b));
        size_t n = (size_t)((z ? z : end) - b);
        char *body = malloc(n ? n : 1); /* exactly sized: an over-read is caught */
        FUZZ_ASSERT(body != NULL);
        memcpy(body, b, n);
        size_t before = lgg_hub_file_count(r);
        memset(&err, 0, sizeof err);
        st = lgg__hub_parse_page("https://hub.test/api/models/o/r/tree/main", body, n, &r, &err);
        free(body);
        FUZZ_ASSERT(r != NULL && lgg_hub_file_count(r) >= before);
        if (st != LGG_OK) {
            FUZZ_ASSERT(st == LGG_ERR_INVALID && err.message[0]);
            printable(err.message);
        }
    }
    for (size_t i = 0; i < lgg_hub_file_count(r); i++) {
        const lgg_hub_file *f = lgg_hub_file_at(r, i);
        FUZZ_ASSERT(f != NULL);
        check_path(f->path);
        size_t hl = strlen(f->sha256);
        FUZZ_ASSERT(hl == 0 || (hl == 64 && strspn(f->sha256, "0123456789abcdef") == 64));
        char q[32];
        size_t ql = lgg_hub_quant_name(f->path, q, sizeof q);
        FUZZ_ASSERT(ql < sizeof q && strlen(q) == ql);
        printable(q);
    }
    FUZZ_ASSERT(lgg_hub_file_at(r, lgg_hub_file_count(r)) == NULL);
    if (r && st == LGG_OK) {
        size_t idx = SIZE_MAX;
        memset(&err, 0, sizeof err);
        if (lgg_hub_select(r, tag, &idx, &err) == LGG_OK) {
            FUZZ_ASSERT(idx < lgg_hub_file_count(r));
            const char *path = lgg_hub_file_at(r, idx)->path;
            size_t l = strlen(path);
            FUZZ_ASSERT(l > 5 && !strcmp(path + l - 5, ".gguf") && contains_nocase(path, tag[0] ? tag : "Q4_K_M"));
        } else {
            FUZZ_ASSERT(err.message[0]);
            printable(err.message);
        }
    }
    lgg_hub_free(r);
    return 0;
}
