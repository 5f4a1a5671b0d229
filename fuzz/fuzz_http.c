/* fuzz_http.c -- the parsing of HTTP response headers (src/remote/http.c),
 * which a server controls entirely: every line of the input is one header
 * line, as libcurl hands them over (no NUL, CRLF or not).
 *
 * Whatever the lines, the parsed response must be consistent: a
 * Content-Range only with start <= end < total (or an unknown total), a
 * status of three digits or none, the strings NUL-terminated within their
 * buffers, the sha256 64 lowercase hex digits or empty. */
#include "fuzz.h"
#include "remote/http.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    lgg__http_resp h;
    lgg__http_resp_reset(&h);
    for (size_t i = 0; i < size;) {
        size_t j = i;
        while (j < size && data[j] != '\n') j++;
        size_t n = j < size ? j + 1 - i : j - i;
        char *line = malloc(n ? n : 1); /* exactly sized: an over-read is caught */
        FUZZ_ASSERT(line != NULL);
        memcpy(line, data + i, n);
        lgg__http_header_line(&h, line, n);
        free(line);
        FUZZ_ASSERT(h.status == 0 || (h.status >= 0 && h.status <= 999));
        if (h.has_range)
            FUZZ_ASSERT(h.range_start <= h.range_end &&
                        (h.range_total == UINT64_MAX || h.range_end < h.range_total));
        FUZZ_ASSERT(memchr(h.etag, 0, sizeof h.etag) && memchr(h.location, 0, sizeof h.location));
        FUZZ_ASSERT(h.sha256[0] == 0 || strlen(h.sha256) == 64);
        for (size_t k = 0; h.sha256[0] && k < 64; k++)
            FUZZ_ASSERT((h.sha256[k] >= '0' && h.sha256[k] <= '9') || (h.sha256[k] >= 'a' && h.sha256[k] <= 'f'));
        i = j + 1;
    }
    return 0;
}
