/* bench_open.c -- open (and fully validate) a file N times.
 *
 *   bench_open [FILE] [N]
 *
 * Prints microseconds per open, per open+validate (UTF-8 of every string
 * included), and MB/s of metadata (the bytes before the data section).  The
 * baseline, run in the same process, is one pass that merely sums those bytes:
 * the ratio says how far the parser is from touching the bytes once. */
#include "libgguf.h"
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "../shared/corpus/llama.cpp/ggml-vocab-deepseek-llm@5d66091c.gguf";
    int n = argc > 2 ? atoi(argv[2]) : 200;
    lgg_file *f;
    lgg_error e;
    if (lgg_open_file(path, NULL, &f, &e) != LGG_OK) {
        fprintf(stderr, "bench_open: %s: %s\n", path, e.message);
        return 1;
    }
    uint64_t meta = lgg_file_data_offset(f);
    const uint8_t *bytes = lgg_file_bytes(f);

    /* baseline: sum the metadata bytes once per iteration */
    volatile uint64_t sink = 0;
    double t0 = bench_now();
    for (int i = 0; i < n; i++) {
        uint64_t s = 0;
        for (uint64_t k = 0; k < meta; k++) s += bytes[k];
        sink += s;
    }
    double base = (bench_now() - t0) / n;
    lgg_close(f);

    double best_open = 1e9, best_val = 1e9;
    for (int i = 0; i < n; i++) {
        double a = bench_now();
        if (lgg_open_file(path, NULL, &f, &e) != LGG_OK) return 1;
        double b = bench_now();
        lgg_report *r = NULL;
        if (lgg_validate(f, NULL, &r) != LGG_OK) return 1;
        double c = bench_now();
        lgg_report_free(r);
        lgg_close(f);
        if (b - a < best_open) best_open = b - a;
        if (c - a < best_val) best_val = c - a;
    }
    printf("file: %s\n", path);
    printf("metadata: %.2f MB, %d runs (best of)\n", (double)meta / 1e6, n);
    printf("open:            %8.1f us  %8.0f MB/s\n", best_open * 1e6, (double)meta / best_open / 1e6);
    printf("open+validate:   %8.1f us  %8.0f MB/s\n", best_val * 1e6, (double)meta / best_val / 1e6);
    printf("baseline (sum):  %8.1f us  %8.0f MB/s\n", base * 1e6, (double)meta / base / 1e6);
    printf("ratio open+validate / baseline: %.2fx\n", best_val / base);
    return (int)(sink & 0);
}
