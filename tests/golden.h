/* golden.h -- ggml's quantization vectors in their compact, committed form
 * (tests/data/golden/quant.tsv and quant/, made by
 * scripts/make-golden-index.py; docs/reference.md): the inputs as files, the
 * outputs as sha256 and per-row hash prefixes. */
#ifndef LGG_TEST_GOLDEN_H
#define LGG_TEST_GOLDEN_H
#include "test.h"

typedef struct golden_vec {
    char kind[16], type[32], cas[32], input[96], output[128];
    unsigned type_id;
    long nrows, n_per_row;
    bool imatrix;
    size_t bytes;
    char sha256[65], rows[128]; /* rows: the first 8 hex digits of each row's sha256, comma-separated */
} golden_vec;

/* The rows of quant.tsv whose kind is KIND ("quantize" or "dequantize");
 * returns how many (0 when unreadable). */
int golden_index(const char *kind, golden_vec *rows, int cap);
/* A committed input (input.<case>[.imatrix].f32, random.<type>.bin), or NULL. */
unsigned char *golden_input(const char *name, size_t *size);
/* The bytes a dequantize row reads: its random.* input, or the quant.* file
 * rebuilt by lgg_quantize from the committed input and checked against the
 * reference's sha256 (a test failure when it differs).  NULL if neither. */
unsigned char *golden_quant_bytes(const char *name, size_t *size);
/* True when GOT (N bytes) is the reference output of V; else fails the test,
 * naming the first row that differs (and the first byte, when ../shared
 * holds the file). */
bool golden_check(const golden_vec *v, const void *got, size_t n, const char *label);
#endif
