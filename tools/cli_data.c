/* cli_data.c -- helpers shared by the commands that read tensor data (cat,
 * stats, diff): chunked dequantization with bounded memory, and a progress
 * line on stderr that only a person at a terminal ever sees. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *cli_data_problem(const lgg_tensor *t) {
    if (!t->type_known || !lgg_type_is_valid(t->type)) return "has an unknown or removed type";
    if (!t->data_available || !t->data) return "has no data in the file";
    return NULL;
}

uint64_t cli_block_size(const lgg_tensor *t) {
    const lgg_type_info *ti = lgg_type_get(t->type);
    return ti && ti->block_size ? ti->block_size : 1;
}

uint64_t cli_chunk_floats(void) {
    const char *e = getenv("LGG_CHUNK_FLOATS");
    if (e && *e) {
        char *end;
        unsigned long long v = strtoull(e, &end, 10);
        if (!*end && v > 0 && v <= (UINT64_C(1) << 40)) return v;
    }
    return UINT64_C(4) << 20;
}

uint64_t cli_chunk_elems(uint64_t row_len, uint64_t unit, uint64_t cap) {
    if (unit == 0) unit = 1;
    /* Whole rows when they fit: the row API is the library's stable way in. */
    if (row_len && row_len % unit == 0 && row_len <= cap) return cap / row_len * row_len;
    uint64_t n = cap / unit * unit;
    return n ? n : unit;
}

lgg_status cli_dequant_range(const lgg_file *f, const lgg_tensor *t, uint64_t first, uint64_t n, float *dst) {
    if (n == 0) return LGG_OK;
    if (cli_data_problem(t)) return LGG_ERR_UNSUPPORTED;
    const uint64_t row_len = t->ne[0] > 0 ? (uint64_t)t->ne[0] : 0;
    if (row_len && first % row_len == 0 && n % row_len == 0)
        return lgg_dequantize_rows(f, t, first / row_len, (first + n) / row_len, dst, n);
    /* A row longer than the chunk: rows are contiguous runs of blocks, so any
     * block-aligned element range maps to one byte range. */
    const lgg_type_info *ti = lgg_type_get(t->type);
    if (!ti || !ti->block_size || first % ti->block_size || first > t->n_elements) return LGG_ERR_RANGE;
    const uint64_t off = first / ti->block_size * ti->type_size;
    if (off > t->size) return LGG_ERR_RANGE;
    uint64_t left = t->size - off;
    if (left > SIZE_MAX) left = SIZE_MAX;
    return lgg_dequantize(t->type, (const uint8_t *)t->data + off, (size_t)left, lgg_file_endian(f), dst, n);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p, const char *cmd, uint64_t total) {
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->total = total;
    p->on = isatty(2) && total > 0;
    p->last = now_seconds();
}

void cli_progress_add(cli_progress *p, uint64_t n) {
    p->done += n;
    if (!p->on) return;
    double t = now_seconds();
    /* Redrawing more than a few times a second only costs time. */
    if (t - p->last < 0.2) return;
    p->last = t;
    p->shown = 1;
    uint64_t done = p->done > p->total ? p->total : p->done;
    fprintf(stderr, "\rgguf %s: %3u%%", p->cmd, (unsigned)(done * 100 / p->total));
    fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
    if (p->on && p->shown) {
        fprintf(stderr, "\r%*s\r", (int)strlen(p->cmd) + 12, "");
        fflush(stderr);
    }
    p->shown = 0;
}

void cli_json_f64(FILE *o, double x) {
    char b[64];
    cli_fmt_f64(b, sizeof b, x);
    if (isnan(x) || isinf(x)) fprintf(o, "\"%s\"", b);
    else fputs(b, o);
}

void cli_json_shape(FILE *o, const lgg_tensor *t) {
    fputc('[', o);
    uint32_t nd = t->n_dims ? t->n_dims : 1;
    for (uint32_t d = 0; d < nd; d++) fprintf(o, "%s%lld", d ? ", " : "", (long long)t->ne[d]);
    fputc(']', o);
}

void cli_text_name(FILE *o, lgg_str s) {
    for (uint64_t j = 0; j < s.len; j++) {
        unsigned char c = (unsigned char)s.ptr[j];
        if (c < 0x20 || c == 0x7f) fprintf(o, "\\x%02x", c);
        else fputc(c, o);
    }
}
