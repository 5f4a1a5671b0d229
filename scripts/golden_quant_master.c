/* golden_quant_master.c -- reference vectors from llama.cpp master's ggml
 * (docs/reference.md, "Quantization reference: master").  Not part of the
 * library or its tests: scripts/golden-quant-master.sh builds it against
 * ggml-base, outside the repository, and stores only sha256 sums.
 *
 *   golden_quant_master INPUT_DIR OUT_DIR TYPE...
 *
 * INPUT_DIR holds the shared golden inputs input.<case>.f32 (8 rows of 512
 * floats) and input.<case>.imatrix.f32 (512 weights).  For every TYPE
 * (ggml's lower-case name) and case this writes to OUT_DIR
 *
 *   quant.<type>.<case>[.imatrix].bin    ggml_quantize_chunk(type, x, y, 0, 8, 512, imatrix or NULL)
 *   dequant.<type>.<case>[.imatrix].f32  the type's to_float on that
 *   random.<type>.bin                    8 x 512 elements' worth of splitmix64 bytes (below)
 *   dequant.<type>.random.f32            their to_float
 *
 * and prints one line per output file: type, case, imatrix (yes/no/-),
 * kind (quant/dequant), bytes, valid-row mask (hex; bit r set when
 * ggml_validate_row_data accepts quantized row r; "-" for dequant), file.
 *
 * Two inputs are made here, so no file is needed for them:
 *
 *   random   bytes from splitmix64 seeded with the type id: state = id;
 *            each step adds 0x9E3779B97F4A7C15 to the state and mixes it
 *            (z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27;
 *            z *= 0x94D049BB133111EB; z ^= z >> 31); each output word is
 *            written as 8 little-endian bytes, the last one cut short.
 *   special  8 rows of 512 floats from splitmix64 seeded with
 *            0x5350454349414C21 ("SPECIAL!"), one value per step (see
 *            special_value): non-finite values, extremes, subnormals, values
 *            next to powers of two and on the FP4 rounding midpoints.  It is
 *            quantized without an imatrix. */
#include "ggml.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NROWS 8
#define NPR 512

#include "../tests/quant_master_inputs.h"

static void *read_all(const char *path, size_t want) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        exit(1);
    }
    void *p = malloc(want + 1);
    size_t n = fread(p, 1, want + 1, f);
    fclose(f);
    if (n != want) {
        fprintf(stderr, "%s: %zu bytes, want %zu\n", path, n, want);
        exit(1);
    }
    return p;
}

static void write_all(const char *dir, const char *name, const void *p, size_t n) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write\n", path);
        exit(1);
    }
}

static enum ggml_type type_by_name(const char *name) {
    for (int t = 0; t < GGML_TYPE_COUNT; t++) {
        const char *n = ggml_type_name((enum ggml_type)t);
        if (n && ggml_get_type_traits((enum ggml_type)t)->blck_size > 0 && strcmp(n, name) == 0)
            return (enum ggml_type)t;
    }
    fprintf(stderr, "unknown type %s\n", name);
    exit(2);
}

/* Quantize (the inputs: 8 x 512 floats), dequantize, write both, print. */
static void run_case(const char *out, enum ggml_type t, const char *cas, const float *x, const float *imx) {
    const char *tn = ggml_type_name(t), *sfx = imx ? ".imatrix" : "";
    const size_t row = ggml_row_size(t, NPR), qbytes = row * NROWS;
    uint8_t *q = calloc(1, qbytes);
    float *y = malloc(sizeof(float) * NROWS * NPR);
    const size_t got = ggml_quantize_chunk(t, x, q, 0, NROWS, NPR, imx);
    if (got != qbytes) {
        fprintf(stderr, "%s %s: ggml_quantize_chunk wrote %zu, want %zu\n", tn, cas, got, qbytes);
        exit(1);
    }
    unsigned mask = 0;
    for (int r = 0; r < NROWS; r++)
        if (ggml_validate_row_data(t, q + r * row, row)) mask |= 1u << r;
    ggml_get_type_traits(t)->to_float(q, y, (int64_t)NROWS * NPR);
    char name[256];
    snprintf(name, sizeof name, "quant.%s.%s%s.bin", tn, cas, sfx);
    write_all(out, name, q, qbytes);
    printf("%s\t%s\t%s\tquant\t%zu\t%02x\t%s\n", tn, cas, imx ? "yes" : "no", qbytes, mask, name);
    snprintf(name, sizeof name, "dequant.%s.%s%s.f32", tn, cas, sfx);
    write_all(out, name, y, sizeof(float) * NROWS * NPR);
    printf("%s\t%s\t%s\tdequant\t%zu\t-\t%s\n", tn, cas, imx ? "yes" : "no", sizeof(float) * NROWS * NPR, name);
    free(q);
    free(y);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s INPUT_DIR OUT_DIR TYPE...\n", argv[0]);
        return 2;
    }
    static const char *cases[] = {"gauss", "weights", "uniform", "edge"};
    const char *in = argv[1], *out = argv[2];
    float *special = malloc(sizeof(float) * NROWS * NPR);
    uint64_t s = UINT64_C(0x5350454349414C21);
    for (int r = 0; r < NROWS; r++)
        for (int i = 0; i < NPR; i++) special[r * NPR + i] = special_value(r, splitmix64(&s));
    for (int a = 3; a < argc; a++) {
        const enum ggml_type t = type_by_name(argv[a]);
        const char *tn = ggml_type_name(t);
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/input.%s.f32", in, cases[c]);
            float *x = read_all(path, sizeof(float) * NROWS * NPR);
            snprintf(path, sizeof path, "%s/input.%s.imatrix.f32", in, cases[c]);
            float *w = read_all(path, sizeof(float) * NPR);
            if (!ggml_quantize_requires_imatrix(t)) run_case(out, t, cases[c], x, NULL);
            run_case(out, t, cases[c], x, w);
            free(x);
            free(w);
        }
        if (!ggml_quantize_requires_imatrix(t)) run_case(out, t, "special", special, NULL);
        /* random blocks */
        const size_t bytes = ggml_row_size(t, NPR) * NROWS;
        uint8_t *q = malloc(bytes + 8);
        uint64_t st = (uint64_t)t;
        for (size_t i = 0; i < bytes; i += 8) {
            const uint64_t v = splitmix64(&st);
            for (int k = 0; k < 8; k++) q[i + k] = (uint8_t)(v >> (8 * k));
        }
        float *y = malloc(sizeof(float) * NROWS * NPR);
        ggml_get_type_traits(t)->to_float(q, y, (int64_t)NROWS * NPR);
        char name[256];
        snprintf(name, sizeof name, "random.%s.bin", tn);
        write_all(out, name, q, bytes);
        snprintf(name, sizeof name, "dequant.%s.random.f32", tn);
        write_all(out, name, y, sizeof(float) * NROWS * NPR);
        printf("%s\trandom\t-\tdequant\t%zu\t-\t%s\n", tn, sizeof(float) * NROWS * NPR, name);
        free(q);
        free(y);
    }
    free(special);
    return 0;
}
