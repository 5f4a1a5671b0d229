/* sha256.c -- the golden tests' sha256 (libcrypto), one place for all. */
#include "test.h"

#include <stdlib.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS
#include <openssl/evp.h>

void sha256_hex(const void *p, size_t n, char out[65]) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(p, n, md, &len, EVP_sha256(), NULL);
    for (unsigned i = 0; i < len && i < 32; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
    out[64] = 0;
}

bool file_sha256(const char *path, char out[65]) {
    size_t n = 0;
    unsigned char *b = read_file(path, &n);
    out[0] = 0;
    if (b) sha256_hex(b, n, out);
    free(b);
    return b != NULL;
}
#endif
