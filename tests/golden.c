/* golden.c -- ggml's quantization vectors from their committed, compact form
 * (golden.h). */
#include "golden.h"
#include "libgguf.h"

#include <stdlib.h>

#define GOLDEN_DIR "tests/data/golden"

int golden_index(const char *kind, golden_vec *rows, int cap) {
    size_t n = 0;
    char *txt = (char *)read_file(GOLDEN_DIR "/quant.tsv", &n);
    if (!txt) return 0;
    txt = realloc(txt, n + 1);
    txt[n] = 0;
    int count = 0;
    char *save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        golden_vec r;
        char imx[8];
        memset(&r, 0, sizeof r);
        if (sscanf(line, "%15s %u %31s %31s %ld %ld %7s %95s %127s %zu %64s %127s", r.kind, &r.type_id, r.type, r.cas,
                   &r.nrows, &r.n_per_row, imx, r.input, r.output, &r.bytes, r.sha256, r.rows) != 12)
            continue;
        if (strcmp(r.kind, kind) != 0) continue;
        r.imatrix = strcmp(imx, "yes") == 0;
        if (count < cap) rows[count++] = r;
    }
    free(txt);
    return count;
}

unsigned char *golden_input(const char *name, size_t *size) {
    char p[512];
    snprintf(p, sizeof p, GOLDEN_DIR "/quant/%s", name);
    return read_file(p, size);
}

/* Index of the first row of GOT whose hash prefix differs from V's, or -1. */
static long first_bad_row(const golden_vec *v, const unsigned char *got) {
    const size_t rs = v->bytes / (size_t)v->nrows;
    const char *want = v->rows;
    for (long r = 0; r < v->nrows; r++, want += 9) {
        char h[65];
        sha256_hex(got + (size_t)r * rs, rs, h);
        if (strncmp(h, want, 8) != 0) return r;
    }
    return -1;
}

bool golden_check(const golden_vec *v, const void *got, size_t n, const char *label) {
    char h[65];
    sha256_hex(got, n, h);
    if (n == v->bytes && strcmp(h, v->sha256) == 0) return true;
    if (n != v->bytes) {
        test_fail(__FILE__, __LINE__, "%s: %s: %zu bytes, want %zu", label, v->output, n, v->bytes);
        return false;
    }
    const long row = first_bad_row(v, got);
    char rel[256];
    snprintf(rel, sizeof rel, "golden/quant/%s", v->output);
    size_t gn = 0, k = 0;
    unsigned char *gold = read_file(shared_path(rel), &gn); /* the whole reference, when it is there */
    while (gold && k < n && k < gn && ((const unsigned char *)got)[k] == gold[k]) k++;
    if (gold)
        test_fail(__FILE__, __LINE__, "%s: %s: sha256 differs, first at row %ld, byte %zu", label, v->output, row, k);
    else
        test_fail(__FILE__, __LINE__, "%s: %s: sha256 differs, first at row %ld of %ld", label, v->output, row,
                  v->nrows);
    free(gold);
    return false;
}

/* Quantize row V from the committed inputs; the bytes, or NULL. */
static unsigned char *quantize_row(const golden_vec *v) {
    char name[128];
    size_t in_n = 0, imx_n = 0, written = 0;
    unsigned char *in = golden_input(v->input, &in_n), *imx = NULL;
    snprintf(name, sizeof name, "input.%s.imatrix.f32", v->cas);
    if (v->imatrix) imx = golden_input(name, &imx_n);
    unsigned char *out = malloc(v->bytes);
    const bool ok = in && out && (!v->imatrix || imx) &&
                    in_n == (size_t)(v->nrows * v->n_per_row) * sizeof(float) &&
                    lgg_quantize(v->type_id, (const float *)in, out, v->bytes, v->nrows, v->n_per_row,
                                 (const float *)imx, &written) == LGG_OK &&
                    written == v->bytes;
    free(in);
    free(imx);
    if (!ok) free(out);
    return ok ? out : NULL;
}

unsigned char *golden_quant_bytes(const char *name, size_t *size) {
    if (strncmp(name, "quant.", 6) != 0) return golden_input(name, size);
    static golden_vec rows[512];
    const int n = golden_index("quantize", rows, 512);
    for (int i = 0; i < n; i++) {
        if (strcmp(rows[i].output, name) != 0) continue;
        unsigned char *q = quantize_row(&rows[i]);
        if (q && !golden_check(&rows[i], q, rows[i].bytes, "rebuilding a dequantization input")) {
            free(q);
            q = NULL;
        }
        *size = q ? rows[i].bytes : 0;
        return q;
    }
    return NULL;
}
