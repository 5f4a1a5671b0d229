/* cmd_stats.c -- `gguf stats FILE [TENSOR...] [--json]`: value statistics of
 * each tensor after dequantization.
 *
 * min, max, mean, std and absmax are taken over the finite values only (NaN
 * and infinities are counted apart), so one bad value does not hide the
 * shape of the rest.  Two passes in double: the sum (hence the mean) first,
 * then the squared deviations from it together with the histogram, which
 * needs the final min and max anyway.  Both passes run in element order, so
 * the figures do not depend on the chunk size; the data is converted a second
 * time only when the tensor does not fit in one chunk. */
#include "tool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NBINS 10
#define BAR_WIDTH 40

typedef struct tstats {
    uint64_t n, nan, inf, zeros, finite;
    double min, max, absmax, sum, mean, m2;
    uint64_t hist[NBINS];
    const char *error; /* why the values could not be read, or NULL */
} tstats;

#include "spec_stats.h" /* from tools/spec/stats.txt (scripts/cli-spec.awk) */
_Static_assert(NBINS == 10, "the help text says 10 bins");

/* Pass 1: counts, extremes and the running sum, element by element in file
 * order, so the result does not depend on how the data was chunked. */
static void accumulate(tstats *s, const float *x, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        double v = x[i];
        if (v == 0) s->zeros++;
        if (isnan(v)) {
            s->nan++;
            continue;
        }
        if (isinf(v)) {
            s->inf++;
            continue;
        }
        if (!s->finite || v < s->min) s->min = v;
        if (!s->finite || v > s->max) s->max = v;
        if (fabs(v) > s->absmax) s->absmax = fabs(v);
        s->sum += v;
        s->finite++;
    }
    s->n += n;
}

/* Pass 2: squared deviations from the final mean, and the histogram. */
static void second_pass(tstats *s, const float *x, uint64_t n) {
    const double w = s->max - s->min;
    for (uint64_t i = 0; i < n; i++) {
        double v = x[i];
        if (!isfinite(v)) continue;
        s->m2 += (v - s->mean) * (v - s->mean);
        int b = w > 0 ? (int)((v - s->min) / w * NBINS) : 0;
        if (b >= NBINS) b = NBINS - 1;
        if (b < 0) b = 0;
        s->hist[b]++;
    }
}

static uint64_t chunk_of(const lgg_tensor *t) {
    const uint64_t chunk = cli_chunk_elems(t->ne[0] > 0 ? (uint64_t)t->ne[0] : 0, cli_block_size(t), cli_chunk_floats());
    return chunk < t->n_elements ? chunk : t->n_elements;
}

/* Elements converted for t: twice its size when it takes two passes. */
static uint64_t work_of(const lgg_tensor *t) { return chunk_of(t) < t->n_elements ? 2 * t->n_elements : t->n_elements; }

static void compute(lgg_file *f, const lgg_tensor *t, tstats *s, cli_progress *pr) {
    memset(s, 0, sizeof *s);
    s->error = cli_data_fetch(f, t);
    if (!s->error) s->error = cli_data_problem(t);
    if (s->error) return;
    const uint64_t cap = chunk_of(t);
    float *buf = malloc((size_t)(cap ? cap : 1) * sizeof *buf);
    if (!buf) {
        s->error = "cannot be read: out of memory";
        return;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (uint64_t first = 0; first < t->n_elements; first += cap) {
            uint64_t n = t->n_elements - first < cap ? t->n_elements - first : cap;
            /* One chunk: the buffer still holds it, no need to convert again. */
            if (pass == 0 || cap < t->n_elements) {
                if (cli_dequant_range(f, t, first, n, buf) != LGG_OK) {
                    s->error = "could not be dequantized";
                    free(buf);
                    return;
                }
            }
            if (pass == 0) accumulate(s, buf, n);
            else second_pass(s, buf, n);
            if (pass == 0 || cap < t->n_elements) cli_progress_add(pr, n);
        }
        if (!s->finite) break;
        if (pass == 0) s->mean = s->sum / (double)s->finite;
    }
    free(buf);
}

static double stdev(const tstats *s) { return s->finite ? sqrt(s->m2 / (double)s->finite) : 0; }

static void print_json(const lgg_tensor *t, const tstats *s, int first) {
    FILE *o = stdout;
    fputs(first ? "\n  {\"name\": " : ",\n  {\"name\": ", o);
    cli_json_str(o, t->name.ptr, t->name.len);
    fprintf(o, ", \"type\": \"%s\", \"shape\": ", cli_type_name(t->type));
    cli_json_shape(o, t);
    if (s->error) {
        fputs(", \"error\": ", o);
        cli_json_str(o, s->error, strlen(s->error));
        fputc('}', o);
        return;
    }
    fprintf(o, ", \"n\": %llu", (unsigned long long)s->n);
    const char *names[5] = {"min", "max", "mean", "std", "absmax"};
    const double vals[5] = {s->min, s->max, s->mean, stdev(s), s->absmax};
    for (int i = 0; i < 5; i++) {
        fprintf(o, ", \"%s\": ", names[i]);
        if (s->finite) cli_json_f64(o, vals[i]);
        else fputs("null", o);
    }
    fprintf(o, ", \"nan\": %llu, \"inf\": %llu, \"zeros\": ", (unsigned long long)s->nan, (unsigned long long)s->inf);
    cli_json_f64(o, s->n ? (double)s->zeros / (double)s->n : 0);
    fputs(", \"histogram\": ", o);
    if (!s->finite) {
        fputs("null}", o);
        return;
    }
    fputs("{\"min\": ", o);
    cli_json_f64(o, s->min);
    fputs(", \"max\": ", o);
    cli_json_f64(o, s->max);
    fputs(", \"counts\": [", o);
    for (int b = 0; b < NBINS; b++) fprintf(o, "%s%llu", b ? ", " : "", (unsigned long long)s->hist[b]);
    fputs("]}}", o);
}

/* A bar of up to BAR_WIDTH cells in eighths of a cell. */
static void bar(FILE *o, uint64_t count, uint64_t most) {
    static const char *const PART[8] = {"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589"};
    uint64_t eighths = most ? (count * BAR_WIDTH * 8 + most / 2) / most : 0;
    if (count && !eighths) eighths = 1; /* a non-empty bin never looks empty */
    int cells = 0;
    for (uint64_t i = 0; i < eighths / 8; i++, cells++) fputs("\u2588", o);
    if (eighths % 8) fputs(PART[eighths % 8], o), cells++;
    for (; cells < BAR_WIDTH; cells++) fputc(' ', o);
}

static void print_text(const lgg_tensor *t, const tstats *s, int first) {
    FILE *o = stdout;
    char shape[128];
    cli_fmt_shape(shape, sizeof shape, t);
    if (!first) fputc('\n', o);
    cli_text_name(o, t->name);
    fprintf(o, "  %s %s", cli_type_name(t->type), shape);
    if (s->error) {
        fprintf(o, "  %s\n", s->error);
        return;
    }
    fprintf(o, "  %llu values\n", (unsigned long long)s->n);
    if (s->finite)
        fprintf(o, "  min %.6g  max %.6g  mean %.6g  std %.6g  absmax %.6g\n", s->min, s->max, s->mean, stdev(s),
                s->absmax);
    else fputs("  no finite values\n", o);
    fprintf(o, "  nan %llu  inf %llu  zeros %.4g%%\n", (unsigned long long)s->nan, (unsigned long long)s->inf,
            s->n ? 100.0 * (double)s->zeros / (double)s->n : 0.0);
    if (!s->finite) return;
    uint64_t most = 0;
    for (int b = 0; b < NBINS; b++)
        if (s->hist[b] > most) most = s->hist[b];
    const double w = (s->max - s->min) / NBINS;
    for (int b = 0; b < NBINS; b++) {
        char lo[32], hi[32];
        snprintf(lo, sizeof lo, "%.4g", s->min + w * b);
        snprintf(hi, sizeof hi, "%.4g", b == NBINS - 1 ? s->max : s->min + w * (b + 1));
        fprintf(o, "  %11s .. %-11s ", lo, hi);
        bar(o, s->hist[b], most);
        fprintf(o, " %llu\n", (unsigned long long)s->hist[b]);
        if (w == 0) break; /* every finite value is the same: one bin says it all */
    }
}

int cmd_stats(int argc, char **argv) {
    int flags[256] = {0}, np = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &np);
    if (rc) return rc == CLI_HELP ? CLI_OK : rc;
    const int json = flags['j'], nnames = np - 1;
    const char *path = argv[1];
    char **names = argv + 2;
    lgg_file *f = cli_open("stats", path, CLI_OPEN_DATA);
    if (!f) return CLI_FAIL;
    /* Check every name before any output, so a typo costs no work. */
    const uint64_t nt = nnames ? (uint64_t)nnames : lgg_tensor_count(f);
    const lgg_tensor **sel = calloc(nt ? nt : 1, sizeof *sel);
    if (!sel) {
        lgg_close(f);
        return CLI_FAIL;
    }
    uint64_t total = 0;
    for (uint64_t i = 0; i < nt; i++) {
        if (nnames) {
            int64_t k = lgg_find_tensor(f, names[i], strlen(names[i]));
            if (k < 0) {
                cli_err_no_tensor("stats", path, f, names[i]);
                rc = CLI_FAIL;
                continue;
            }
            sel[i] = lgg_tensor_at(f, (uint64_t)k);
        } else sel[i] = lgg_tensor_at(f, i);
        if (!cli_data_problem(sel[i]) || lgg_file_header_only(f)) total += work_of(sel[i]);
    }
    if (rc == CLI_OK) {
        cli_progress pr;
        cli_progress_init(&pr, "stats", total);
        if (json) fputc('[', stdout);
        for (uint64_t i = 0; i < nt; i++) {
            tstats s;
            compute(f, sel[i], &s, &pr);
            if (s.error) rc = CLI_FAIL;
            cli_progress_end(&pr);
            if (json) print_json(sel[i], &s, i == 0);
            else print_text(sel[i], &s, i == 0);
            if (s.error) {
                fprintf(stderr, "gguf stats: %s: tensor '", path);
                cli_text_name(stderr, sel[i]->name);
                fprintf(stderr, "' %s\n", s.error);
            }
        }
        if (json) fputs(nt ? "\n]\n" : "]\n", stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            cli_err("stats", NULL, "write error on stdout");
            rc = CLI_FAIL;
        }
    }
    free(sel);
    lgg_close(f);
    return rc;
}
