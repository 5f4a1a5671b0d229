/* cli_data.c -- helpers shared by the commands that read tensor data (cat,
 * stats, diff): chunked dequantization with bounded memory, and a progress
 * line on stderr that only a person at a terminal ever sees. */
#include "cli.h"

#include <signal.h>
#include <sys/ioctl.h>

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

/* SIGWINCH only raises a flag; the next redraw asks the terminal its width. */
static volatile sig_atomic_t winch = 1;
static void on_winch(int sig) {
    (void)sig;
    winch = 1;
}

static int term_cols(void) {
    static int cols = 80;
    if (winch) {
        winch = 0;
        struct winsize ws;
        if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) cols = ws.ws_col;
    }
    return cols;
}

void cli_progress_init(cli_progress *p, const char *cmd, uint64_t total) {
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->total = total;
    p->on = isatty(2) && total > 0;
    p->t0 = p->last = now_seconds();
    if (p->on) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_winch;
        sa.sa_flags = SA_RESTART;
        sigaction(SIGWINCH, &sa, NULL);
    }
}

void cli_progress_items(cli_progress *p, uint64_t done, uint64_t total, const char *unit) {
    p->items = done;
    p->items_total = total;
    p->unit = unit;
}

/* "gguf CMD [=====>    ]  42%  12/100 tensors  ETA 0:12", cut to the
 * terminal's width: the bar takes what the figures leave.  The percentage
 * and the time left both come from bytes done, and the count is of items
 * finished, so the three agree. */
static void draw(cli_progress *p, double t) {
    uint64_t done = p->done > p->total ? p->total : p->done;
    unsigned pct = (unsigned)(done * 100 / p->total);
    char tail[192];
    int k = snprintf(tail, sizeof tail, " %3u%%", pct);
    if (p->unit) k += snprintf(tail + k, sizeof tail - (size_t)k, "  %llu/%llu %s", (unsigned long long)p->items,
                               (unsigned long long)p->items_total, p->unit);
    const double el = t - p->t0;
    if (p->bytes) { /* a download: "1.2 GiB/4.5 GiB  48.3 MiB/s" */
        char a[32], b[32], r[32];
        cli_fmt_bytes(a, sizeof a, done);
        cli_fmt_bytes(b, sizeof b, p->total);
        cli_fmt_bytes(r, sizeof r, el > 0 ? (uint64_t)((double)done / el) : 0);
        k += snprintf(tail + k, sizeof tail - (size_t)k, "  %s/%s  %s/s", a, b, r);
    }
    if (done > 0 && done < p->total && el > 0.5) {
        double eta = el * (double)(p->total - done) / (double)done;
        if (eta < 360000) snprintf(tail + k, sizeof tail - (size_t)k, "  ETA %d:%02d", (int)eta / 60, (int)eta % 60);
    }
    int cols = term_cols() - 1, head = (int)strlen(p->cmd) + 6, width = cols - head - (int)strlen(tail) - 3;
    char bar[512];
    if (width >= 10) {
        if (width > 200) width = 200;
        int fill = (int)((uint64_t)width * done / p->total);
        for (int i = 0; i < width; i++) bar[i] = i < fill ? '=' : i == fill ? '>' : ' ';
        bar[width] = 0;
        fprintf(stderr, "\rgguf %s [%s]%s\033[K", p->cmd, bar, tail);
    } else {
        fprintf(stderr, "\rgguf %s:%.*s\033[K", p->cmd, cols - head > 0 ? cols - head : 0, tail);
    }
    fflush(stderr);
    p->shown = 1;
}

void cli_progress_add(cli_progress *p, uint64_t n) { cli_progress_set(p, p->done + n); }

void cli_progress_set(cli_progress *p, uint64_t done) {
    p->done = done;
    if (!p->on) return;
    double t = now_seconds();
    /* Redrawing more than a few times a second only costs time. */
    if (t - p->last < 0.2 && !winch) return;
    p->last = t;
    draw(p, t);
}

/* Clears the bar (before other output, or at the end); the next update
 * draws it again at once, so a bar cleared between items stays in view. */
void cli_progress_end(cli_progress *p) {
    if (p->on && p->shown) {
        fprintf(stderr, "\r\033[K");
        fflush(stderr);
    }
    p->shown = 0;
    p->last = 0;
}

void cli_text_name(FILE *o, lgg_str s) { cli_put_escaped(o, s.ptr, s.len); }
