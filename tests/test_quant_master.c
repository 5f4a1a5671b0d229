/* test_quant_master.c -- quantization and dequantization against llama.cpp
 * master's ggml (3f545becc), by sha256: tests/data/quant-master.tsv, made by
 * scripts/golden-quant-master.sh (docs/reference.md).
 *
 * The index lists, per type and input case (with and without an importance
 * matrix): the sha256 of ggml_quantize_chunk's bytes, of the type's to_float
 * on them, and a mask of the rows ggml_validate_row_data accepts; and the
 * sha256 of to_float on random blocks.  The gauss/weights/uniform/edge inputs
 * are the shared golden inputs (master_input: the one place that says where
 * they are); the `special` input and the random blocks are generated here
 * with the harness's splitmix64, so those rows run without ../shared. */
#include "test.h"
#include "standin.h"
#include "libgguf.h"

#include <stdlib.h>

#ifndef LGG_TEST_NO_GOLDEN_LIBS
#include "quant/kernels.h"

#define NROWS 8
#define NPR 512
#define INDEX "tests/data/quant-master.tsv"

/* the generated inputs, as the harness makes them */
#include "quant_master_inputs.h"

/* Case `cas`'s 8 x 512 inputs, or its 512 importance weights (imatrix); NULL
 * when the file is not there.  The shared golden inputs are read from
 * ../shared/golden/quant (GGUF_SHARED); repoint here when they move. */
static float *master_input(const char *cas, bool imatrix) {
    const size_t want = imatrix ? NPR : (size_t)NROWS * NPR;
    if (strcmp(cas, "special") == 0) {
        if (imatrix) return NULL;
        float *x = malloc(want * sizeof(float));
        uint64_t s = UINT64_C(0x5350454349414C21);
        for (int r = 0; r < NROWS; r++)
            for (int i = 0; i < NPR; i++) x[r * NPR + i] = special_value(r, splitmix64(&s));
        return x;
    }
    char rel[128];
    snprintf(rel, sizeof rel, "golden/quant/input.%s%s.f32", cas, imatrix ? ".imatrix" : "");
    size_t n = 0;
    unsigned char *p = read_file(ref_path(rel), &n); /* the committed copy without ../shared (standin.h) */
    if (p && n != want * sizeof(float)) {
        free(p);
        return NULL;
    }
    return (float *)p;
}

/* The random blocks of `type`: bytes of splitmix64 seeded with the type id. */
static uint8_t *random_blocks(uint32_t type, size_t bytes) {
    uint8_t *q = malloc(bytes + 8);
    uint64_t s = type;
    for (size_t i = 0; i < bytes; i += 8) {
        const uint64_t v = splitmix64(&s);
        for (int k = 0; k < 8; k++) q[i + k] = (uint8_t)(v >> (8 * k));
    }
    return q;
}

/* ---- the index ------------------------------------------------------------- */

typedef struct {
    char type[16], cas[16], imx[4], kind[8], sha[65];
    size_t bytes;
    unsigned mask;
    uint32_t id;
} master_row;

static size_t load_master(master_row *rows, size_t cap) {
    size_t n = 0, sz = 0;
    char *txt = (char *)read_file(INDEX, &sz);
    if (!txt) return 0;
    txt = realloc(txt, sz + 1);
    txt[sz] = 0;
    char *save = NULL;
    for (char *line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        master_row r;
        char mask[8];
        memset(&r, 0, sizeof r);
        if (line[0] == '#' || strncmp(line, "type\t", 5) == 0) continue;
        if (sscanf(line, "%15s %15s %3s %7s %zu %7s %64s", r.type, r.cas, r.imx, r.kind, &r.bytes, mask, r.sha) != 7 ||
            lgg_type_from_name(r.type, strlen(r.type), &r.id) != LGG_OK) {
            test_fail(__FILE__, __LINE__, INDEX ": bad line: %s", line);
            continue;
        }
        r.mask = strcmp(mask, "-") == 0 ? 0 : (unsigned)strtoul(mask, NULL, 16);
        if (n < cap) rows[n++] = r;
    }
    free(txt);
    return n;
}

/* Per type: files compared and matched. */
typedef struct {
    uint32_t id;
    int compared, matched;
} tally;

static void count(tally *t, size_t *nt, uint32_t id, bool ok) {
    size_t i = 0;
    while (i < *nt && t[i].id != id) i++;
    if (i == *nt) t[(*nt)++] = (tally){id, 0, 0};
    t[i].compared++;
    t[i].matched += ok;
}

static void report(const char *what, const tally *t, size_t nt) {
    for (size_t i = 0; i < nt; i++)
        printf("    master %s %-6s %d files compared, %d match\n", what, lgg_type_name(t[i].id), t[i].compared,
               t[i].matched);
}

static bool sha_is(const void *p, size_t n, const char *want) {
    char got[65];
    sha256_hex(p, n, got);
    return strcmp(got, want) == 0;
}

/* ggml's bytes for one index row: every row quantized by the kernel's own
 * row function (no validation, so rows ggml writes with non-finite scales
 * are compared too), on the scalar path or the SIMD one. */
static void quantize_raw(const lgg__kernel_row *k, const float *x, const float *imx, uint8_t *y, size_t row, bool simd) {
    for (int r = 0; r < NROWS; r++) {
        if (k->qpath) k->qpath(x + r * NPR, y + r * row, NPR, imx, simd);
        else if (k->q) k->q(x + r * NPR, y + r * row, NPR, imx);
        else (void)k->qchk(x + r * NPR, y + r * row, NPR, imx);
    }
}

/* Quantize one index row's input and compare; the bytes (ggml's when they
 * match) are left in *out for the dequantization rows. */
static bool check_quant(const master_row *m, const float *x, const float *imx, uint8_t **out) {
    const lgg__kernel_row *k = lgg__kernel(m->id);
    const size_t row = m->bytes / NROWS;
    if (!k || !lgg_type_can_quantize(m->id)) {
        test_fail(__FILE__, __LINE__, "%s: cannot be quantized", m->type);
        return false;
    }
    uint8_t *y = malloc(m->bytes), *z = malloc(m->bytes + 16);
    bool ok = true;
    for (int simd = 0; simd < 2; simd++) {
        quantize_raw(k, x, imx, y, row, simd);
        const bool same = sha_is(y, m->bytes, m->sha);
        CHECKF(same, "%s %s imatrix=%s (%s): quantized bytes differ from master's", m->type, m->cas, m->imx,
               simd ? "simd" : "scalar");
        ok = ok && same;
    }
    /* the API: a row is refused exactly when ggml_validate_row_data refuses it */
    for (int r = 0; r < NROWS; r++) {
        memset(z, 0xA5, row + 16);
        const lgg_status st = lgg_quantize(m->id, x + r * NPR, z, row + 16, 1, NPR, imx, NULL);
        const bool valid = (m->mask >> r) & 1;
        CHECKF(st == (valid ? LGG_OK : LGG_ERR_INVALID), "%s %s imatrix=%s row %d: status %d, ggml %s it", m->type,
               m->cas, m->imx, r, (int)st, valid ? "accepts" : "refuses");
        ok = ok && st == (valid ? LGG_OK : LGG_ERR_INVALID);
        if (st == LGG_OK) {
            CHECKF(memcmp(z, y + r * row, row) == 0, "%s %s row %d: lgg_quantize differs", m->type, m->cas, r);
            ok = ok && memcmp(z, y + r * row, row) == 0;
        }
        CHECK(z[row] == 0xA5);
    }
    if (m->mask == (1u << NROWS) - 1) {
        size_t w = 0;
        CHECK(lgg_quantize(m->id, x, z, m->bytes, NROWS, NPR, imx, &w) == LGG_OK && w == m->bytes);
        CHECK(memcmp(z, y, m->bytes) == 0);
    }
    free(z);
    *out = y;
    return ok;
}

/* Dequantize `q` on both paths and compare. */
static bool check_dequant(const master_row *m, const uint8_t *q, size_t qbytes) {
    float *y = malloc(m->bytes);
    bool ok = true;
    for (int ref = 0; ref < 2; ref++) {
        memset(y, 0x5A, m->bytes);
        const lgg_status st = (ref ? lgg_dequantize_ref : lgg_dequantize)(m->id, q, qbytes, LGG_LITTLE_ENDIAN, y,
                                                                          m->bytes / sizeof(float));
        const bool same = st == LGG_OK && sha_is(y, m->bytes, m->sha);
        CHECKF(same, "%s %s imatrix=%s (%s): dequantized floats differ from master's", m->type, m->cas, m->imx,
               ref ? "scalar" : "dispatched");
        ok = ok && same;
    }
    free(y);
    return ok;
}

static void run_master(bool quant) {
    static master_row rows[512];
    const size_t n = load_master(rows, 512);
    REQUIRE(n > 0);
    tally t[64];
    size_t nt = 0;
    int skipped = 0;
    uint8_t *q = NULL; /* the last quantized bytes: each dequant row follows its quant row */
    size_t qbytes = 0;
    for (size_t i = 0; i < n; i++) {
        const master_row *m = &rows[i];
        const bool is_quant = strcmp(m->kind, "quant") == 0, random = strcmp(m->cas, "random") == 0;
        if (random) {
            if (quant) continue;
            const lgg_type_info *ti = lgg_type_get(m->id);
            const size_t bytes = (size_t)NROWS * NPR / ti->block_size * ti->type_size;
            uint8_t *blocks = random_blocks(m->id, bytes);
            count(t, &nt, m->id, check_dequant(m, blocks, bytes));
            free(blocks);
            continue;
        }
        if (is_quant) {
            free(q);
            q = NULL;
            float *x = master_input(m->cas, false), *imx = strcmp(m->imx, "yes") == 0 ? master_input(m->cas, true) : NULL;
            if (!x || (strcmp(m->imx, "yes") == 0 && !imx)) {
                skipped++;
                free(x);
                free(imx);
                continue;
            }
            const bool ok = check_quant(m, x, imx, &q);
            qbytes = m->bytes;
            if (quant) count(t, &nt, m->id, ok);
            free(x);
            free(imx);
        } else if (!quant && q) {
            count(t, &nt, m->id, check_dequant(m, q, qbytes));
        } else if (!quant) {
            skipped++;
        }
    }
    free(q);
    report(quant ? "quantize" : "dequantize", t, nt);
    if (skipped) {
        const bool have = need_shared(); /* marks the test skipped, with the reason, when ../shared is missing */
        CHECKF(!have, "%d index rows had no input", skipped);
    }
}

TEST(quant_master_golden) { run_master(true); }
TEST(dequant_master_golden) { run_master(false); }

#endif
