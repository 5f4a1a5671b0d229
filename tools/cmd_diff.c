/* cmd_diff.c -- `gguf diff A B [--json]`: what differs between two model
 * files, in their metadata and in their tensors, and how far apart the
 * values of the tensors they share are.
 *
 * The comparison is about content, not layout: byte order, alignment, the
 * order of keys and tensors and where the data lies are not compared, so a
 * big-endian copy of a file is identical to it.  Values are compared after
 * dequantization to f32, bit for bit; the error figures are accumulated in
 * double over the pairs where both values are finite. */
#include "tool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spec_diff.h" /* from tools/spec/diff.txt (scripts/cli-spec.awk) */

/* diff(1)'s convention: 0 same, 1 different, 2 trouble. */
enum { SAME = 0, DIFFERENT = 1, TROUBLE = 2 };

/* ---- metadata ---------------------------------------------------------- */

/* Scalars compare by their bytes in host order, so byte order does not
 * matter and floats compare bit for bit (NaN equals the same NaN). */
static int scalar_eq(const lgg_value *a, const lgg_value *b) {
    size_t w = lgg_vtype_size(a->type);
    if (a->type == LGG_VT_STRING) return a->count == b->count && (!a->count || !memcmp(a->data, b->data, a->count));
    uint8_t x[8], y[8];
    if (!w || w > 8) return 0;
    for (size_t i = 0; i < w; i++) {
        x[i] = a->data[a->swap ? w - 1 - i : i];
        y[i] = b->data[b->swap ? w - 1 - i : i];
    }
    return !memcmp(x, y, w);
}

static int value_eq(const lgg_value *a, const lgg_value *b) {
    if (a->type != b->type) return 0;
    if (a->type != LGG_VT_ARRAY) return scalar_eq(a, b);
    if (a->elem_type != b->elem_type || a->count != b->count) return 0;
    size_t w = lgg_vtype_size(a->elem_type);
    if (w == 1 || (w && a->swap == b->swap)) return !a->size || (a->size == b->size && !memcmp(a->data, b->data, a->size));
    lgg_iter ia, ib;
    lgg_value ea, eb;
    lgg_array_iter(a, &ia);
    lgg_array_iter(b, &ib);
    while (lgg_iter_next(&ia, &ea)) {
        if (!lgg_iter_next(&ib, &eb) || !value_eq(&ea, &eb)) return 0;
    }
    return 1;
}

static void text_type(FILE *o, const lgg_value *v) {
    if (v->type == LGG_VT_ARRAY)
        fprintf(o, "array[%s] (%llu)", lgg_vtype_name(v->elem_type), (unsigned long long)v->count);
    else fputs(lgg_vtype_name(v->type), o);
}

/* "M KEY: " for a metadata line marked M, then a value's "TYPE<sep>VALUE". */
static void text_key(FILE *o, char mark, lgg_str key) {
    fprintf(o, "%c ", mark);
    cli_text_name(o, key);
    fputs(": ", o);
}
static void text_typed(FILE *o, const lgg_value *v, const char *sep) {
    text_type(o, v);
    fputs(sep, o);
    cli_text_value(o, v, 8, 60);
}

static void text_kv(FILE *o, char mark, const lgg_kv *kv) {
    text_key(o, mark, kv->key);
    text_typed(o, &kv->value, " = ");
    fputc('\n', o);
}

static void json_kv(FILE *o, const lgg_kv *kv, int *first) {
    fputs(*first ? "\n    {\"key\": " : ",\n    {\"key\": ", o);
    *first = 0;
    cli_json_str(o, kv->key.ptr, kv->key.len);
    fprintf(o, ", \"type\": \"%s\", \"value\": ", lgg_vtype_name(kv->value.type));
    cli_json_value(o, &kv->value);
    fputc('}', o);
}

typedef struct counts {
    uint64_t kv_removed, kv_added, kv_changed, t_removed, t_added, t_changed;
} counts;

/* Text: print as differences are found; the "--- A/+++ B" header goes out
 * before the first one so that identical files print nothing. */
typedef struct textout {
    const char *a, *b;
    int header, section;
} textout;

static void text_section(textout *t, int section, const char *title) {
    if (!t->header) printf("--- %s\n+++ %s\n", t->a, t->b), t->header = 1;
    if (t->section != section) printf("%s:\n", title), t->section = section;
}

/* The pairs of X whose key Y lacks ('-': removed from A, '+': added in
 * B), counted in *n; 1 when there were none (JSON: still the first). */
static int kv_only_in(const lgg_file *X, const lgg_file *Y, char mark, int json, textout *tx, uint64_t *n) {
    int first = 1;
    for (uint64_t i = 0; i < lgg_kv_count(X); i++) {
        const lgg_kv *kv = lgg_kv_at(X, i);
        if (lgg_find_key(Y, kv->key.ptr, (size_t)kv->key.len) >= 0) continue;
        (*n)++;
        if (json) json_kv(stdout, kv, &first);
        else text_section(tx, 1, "metadata"), text_kv(stdout, mark, kv);
    }
    return first;
}

static void diff_metadata(const lgg_file *A, const lgg_file *B, int json, textout *tx, counts *c) {
    FILE *o = stdout;
    int first;
    if (json) fputs(",\n  \"metadata\": {\"removed\": [", o);
    first = kv_only_in(A, B, '-', json, tx, &c->kv_removed);
    if (json) fputs(first ? "], \"added\": [" : "\n  ], \"added\": [", o);
    first = kv_only_in(B, A, '+', json, tx, &c->kv_added);
    if (json) fputs(first ? "], \"changed\": [" : "\n  ], \"changed\": [", o);
    first = 1;
    for (uint64_t i = 0; i < lgg_kv_count(A); i++) {
        const lgg_kv *ka = lgg_kv_at(A, i);
        int64_t j = lgg_find_key(B, ka->key.ptr, (size_t)ka->key.len);
        if (j < 0) continue;
        const lgg_kv *kb = lgg_kv_at(B, (uint64_t)j);
        if (value_eq(&ka->value, &kb->value)) continue;
        c->kv_changed++;
        if (json) {
            fputs(first ? "\n    {\"key\": " : ",\n    {\"key\": ", o);
            first = 0;
            cli_json_str(o, ka->key.ptr, ka->key.len);
            fprintf(o, ", \"old_type\": \"%s\", \"old\": ", lgg_vtype_name(ka->value.type));
            cli_json_value(o, &ka->value);
            fprintf(o, ", \"new_type\": \"%s\", \"new\": ", lgg_vtype_name(kb->value.type));
            cli_json_value(o, &kb->value);
            fputc('}', o);
        } else {
            text_section(tx, 1, "metadata");
            text_key(o, '~', ka->key);
            text_typed(o, &ka->value, " ");
            fputs(" -> ", o);
            text_typed(o, &kb->value, " ");
            fputc('\n', o);
        }
    }
    if (json) fputs(first ? "]}" : "\n  ]}", o);
}

/* ---- tensor values ----------------------------------------------------- */

typedef struct figures {
    uint64_t n_differ, n_pairs;
    double max_abs, sum_d2, sum_aa, sum_bb, sum_ab;
    const char *error;
} figures;

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t r = a % b;
        a = b, b = r;
    }
    return a;
}

static void compare_values(lgg_file *A, const lgg_tensor *ta, lgg_file *B, const lgg_tensor *tb, figures *g,
                           cli_progress *pr) {
    memset(g, 0, sizeof *g);
    const char *fa = cli_data_fetch(A, ta), *fb = cli_data_fetch(B, tb);
    if (fa || fb) {
        g->error = fa ? fa : fb;
        return;
    }
    const char *pa = cli_data_problem(ta), *pb = cli_data_problem(tb);
    if (pa || pb) {
        /* Values of an unknown type cannot be compared, only its bytes. */
        if (ta->type_known || tb->type_known || ta->type != tb->type) g->error = pa ? pa : pb;
        else if (!ta->data_available || !tb->data_available) g->error = "has no data in the file";
        else g->n_differ = ta->size != tb->size || (ta->size && memcmp(ta->data, tb->data, ta->size));
        return;
    }
    const uint64_t n = ta->n_elements;
    const uint64_t ba = cli_block_size(ta), bb = cli_block_size(tb);
    const uint64_t unit = ba / gcd64(ba, bb) * bb;
    const uint64_t row = ta->ne[0] == tb->ne[0] && ta->ne[0] > 0 ? (uint64_t)ta->ne[0] : 0;
    const uint64_t chunk = cli_chunk_elems(row, unit, cli_chunk_floats() / 2);
    const uint64_t cap = chunk < n ? chunk : n;
    float *xa = malloc((size_t)(cap ? cap : 1) * 2 * sizeof *xa);
    if (!xa) {
        g->error = "out of memory";
        return;
    }
    float *xb = xa + cap;
    for (uint64_t first = 0; first < n; first += cap) {
        const uint64_t k = n - first < cap ? n - first : cap;
        if (cli_dequant_range(A, ta, first, k, xa) != LGG_OK || cli_dequant_range(B, tb, first, k, xb) != LGG_OK) {
            g->error = "could not be dequantized";
            break;
        }
        for (uint64_t i = 0; i < k; i++) {
            uint32_t ua, ub;
            memcpy(&ua, &xa[i], 4);
            memcpy(&ub, &xb[i], 4);
            if (ua != ub) g->n_differ++;
            if (!isfinite(xa[i]) || !isfinite(xb[i])) continue;
            const double a = xa[i], b = xb[i], d = a - b;
            if (fabs(d) > g->max_abs) g->max_abs = fabs(d);
            g->sum_d2 += d * d;
            g->sum_aa += a * a;
            g->sum_bb += b * b;
            g->sum_ab += a * b;
            g->n_pairs++;
        }
        cli_progress_add(pr, k);
    }
    free(xa);
}

static double rmse(const figures *g) { return g->n_pairs ? sqrt(g->sum_d2 / (double)g->n_pairs) : 0; }

/* Zero vectors point nowhere: two of them count as the same direction, one
 * against a non-zero vector as orthogonal. */
static double cosine(const figures *g) {
    if (g->sum_aa == 0 && g->sum_bb == 0) return 1;
    if (g->sum_aa == 0 || g->sum_bb == 0) return 0;
    /* sqrt of the product, not the product of sqrts: equal vectors give
     * exactly 1.  The squares of floats cannot overflow a double. */
    double c = g->sum_ab / sqrt(g->sum_aa * g->sum_bb);
    return c > 1 ? 1 : c < -1 ? -1 : c;
}

static int same_shape(const lgg_tensor *a, const lgg_tensor *b) {
    uint32_t na = a->n_dims ? a->n_dims : 1, nb = b->n_dims ? b->n_dims : 1;
    if (na != nb) return 0;
    for (uint32_t d = 0; d < na; d++)
        if (a->ne[d] != b->ne[d]) return 0;
    return 1;
}

static void json_tensor_brief(FILE *o, const lgg_tensor *t, int *first) {
    fputs(*first ? "\n    {\"name\": " : ",\n    {\"name\": ", o);
    *first = 0;
    cli_json_str(o, t->name.ptr, t->name.len);
    fprintf(o, ", \"type\": \"%s\", \"shape\": ", cli_type_name(t->type));
    cli_json_shape(o, t);
    fputc('}', o);
}

static void text_tensor_brief(FILE *o, char mark, const lgg_tensor *t) {
    char shape[128];
    cli_fmt_shape(shape, sizeof shape, t);
    fprintf(o, "%c ", mark);
    cli_text_name(o, t->name);
    fprintf(o, "  %s %s\n", cli_type_name(t->type), shape);
}

/* The tensors of `from` that `other` lacks, marked `mark` (removed: '-',
 * added: '+'); returns how many. */
static uint64_t one_sided(lgg_file *from, lgg_file *other, char mark, int json, textout *tx) {
    FILE *o = stdout;
    int first = 1;
    uint64_t n = 0;
    for (uint64_t i = 0; i < lgg_tensor_count(from); i++) {
        const lgg_tensor *t = lgg_tensor_at(from, i);
        if (lgg_find_tensor(other, t->name.ptr, (size_t)t->name.len) >= 0) continue;
        n++;
        if (json) json_tensor_brief(o, t, &first);
        else text_section(tx, 2, "tensors"), text_tensor_brief(o, mark, t);
    }
    if (json && !first) fputs("\n  ", o);
    return n;
}

static void json_common(FILE *o, const lgg_tensor *ta, const lgg_tensor *tb, int same, int comparable,
                        const figures *g, int *first) {
    fputs(*first ? "\n    {\"name\": " : ",\n    {\"name\": ", o);
    *first = 0;
    cli_json_str(o, ta->name.ptr, ta->name.len);
    fprintf(o, ", \"type_a\": \"%s\", \"type_b\": \"%s\", \"shape_a\": ", cli_type_name(ta->type),
            cli_type_name(tb->type));
    cli_json_shape(o, ta);
    fputs(", \"shape_b\": ", o);
    cli_json_shape(o, tb);
    fprintf(o, ", \"identical\": %s", same ? "true" : "false");
    if (g->error) {
        fputs(", \"error\": ", o);
        cli_json_str(o, g->error, strlen(g->error));
    } else if (comparable && cli_data_problem(ta)) {
        fprintf(o, ", \"differ\": %s", g->n_differ ? "true" : "false");
    } else if (comparable) {
        fputs(", \"max_abs_err\": ", o);
        cli_json_f64(o, g->max_abs);
        fputs(", \"rmse\": ", o);
        cli_json_f64(o, rmse(g));
        fputs(", \"cos\": ", o);
        cli_json_f64(o, cosine(g));
        fprintf(o, ", \"differ\": %llu", (unsigned long long)g->n_differ);
    }
    fputc('}', o);
}

static void text_changed(FILE *o, const lgg_tensor *ta, const lgg_tensor *tb, int comparable, const figures *g) {
    fputs("~ ", o);
    cli_text_name(o, ta->name);
    char sa[128], sb[128];
    cli_fmt_shape(sa, sizeof sa, ta);
    cli_fmt_shape(sb, sizeof sb, tb);
    if (ta->type != tb->type) fprintf(o, "  %s -> %s", cli_type_name(ta->type), cli_type_name(tb->type));
    else fprintf(o, "  %s", cli_type_name(ta->type));
    if (!same_shape(ta, tb)) fprintf(o, " %s -> %s", sa, sb);
    else fprintf(o, " %s", sa);
    if (g->error) fprintf(o, "  values: %s", g->error);
    else if (comparable && cli_data_problem(ta)) fprintf(o, "  bytes %s", g->n_differ ? "differ" : "equal");
    else if (comparable)
        fprintf(o, "  max_abs_err %.4g  rmse %.4g  cos %.9f  differ %llu", g->max_abs, rmse(g), cosine(g),
                (unsigned long long)g->n_differ);
    fputc('\n', o);
}

/* The elements the common tensors of the same count hold (the progress bar's total). */
static uint64_t common_elements(lgg_file *A, lgg_file *B) {
    uint64_t total = 0;
    for (uint64_t i = 0; i < lgg_tensor_count(A); i++) {
        const lgg_tensor *ta = lgg_tensor_at(A, i);
        int64_t j = lgg_find_tensor(B, ta->name.ptr, (size_t)ta->name.len);
        if (j >= 0 && lgg_tensor_at(B, (uint64_t)j)->n_elements == ta->n_elements) total += ta->n_elements;
    }
    return total;
}

/* The tensors both files hold: compared value by value where their counts agree. */
static int diff_common(lgg_file *A, lgg_file *B, int json, textout *tx, counts *c) {
    FILE *o = stdout;
    int first = 1, trouble = 0;
    cli_progress pr;
    cli_progress_init(&pr, "diff", common_elements(A, B));
    for (uint64_t i = 0; i < lgg_tensor_count(A); i++) {
        const lgg_tensor *ta = lgg_tensor_at(A, i);
        int64_t j = lgg_find_tensor(B, ta->name.ptr, (size_t)ta->name.len);
        if (j < 0) continue;
        const lgg_tensor *tb = lgg_tensor_at(B, (uint64_t)j);
        const int comparable = ta->n_elements == tb->n_elements;
        figures g;
        memset(&g, 0, sizeof g);
        if (comparable) compare_values(A, ta, B, tb, &g, &pr);
        if (g.error) trouble = 1;
        const int same = ta->type == tb->type && same_shape(ta, tb) && comparable && !g.n_differ && !g.error;
        if (!same) c->t_changed++;
        if (json) {
            json_common(o, ta, tb, same, comparable, &g, &first);
        } else if (!same) {
            cli_progress_end(&pr);
            text_section(tx, 2, "tensors");
            text_changed(o, ta, tb, comparable, &g);
        }
    }
    cli_progress_end(&pr);
    if (json && !first) fputs("\n  ", o);
    return trouble;
}

static int diff_tensors(lgg_file *A, lgg_file *B, int json, textout *tx, counts *c) {
    if (json) fputs(",\n  \"tensors\": {\"removed\": [", stdout);
    c->t_removed += one_sided(A, B, '-', json, tx);
    if (json) fputs("], \"added\": [", stdout);
    c->t_added += one_sided(B, A, '+', json, tx);
    if (json) fputs("], \"common\": [", stdout);
    int trouble = diff_common(A, B, json, tx, c);
    if (json) fputs("]}", stdout);
    return trouble;
}

int cmd_diff(int argc, char **argv) {
    int flags[256] = {0}, n = 0;
    int rc = cli_parse(&SPEC, argc, argv, cli_flag_opt, flags, &n);
    if (rc) return rc == CLI_HELP ? SAME : TROUBLE;
    const int json = flags['j'], meta_only = flags['m'];
    const char *pa = argv[1], *pb = argv[2];
    if (cli_is_stdin(pa) && cli_is_stdin(pb)) return cli_usage_error("diff", SPEC.usage, "only one file can be \"-\"");
    const int how = meta_only ? CLI_OPEN_META : CLI_OPEN_DATA;
    lgg_file *A = cli_open("diff", pa, how);
    if (!A) return TROUBLE;
    lgg_file *B = cli_open("diff", pb, how);
    if (!B) {
        lgg_close(A);
        return TROUBLE;
    }
    counts c;
    memset(&c, 0, sizeof c);
    textout tx = {cli_display_name(pa), cli_display_name(pb), 0, 0};
    /* Output is streamed as differences are found, so "identical" is only
     * known, and written, at the end. */
    if (json) {
        fputs("{\"a\": ", stdout);
        cli_json_str(stdout, tx.a, strlen(tx.a));
        fputs(", \"b\": ", stdout);
        cli_json_str(stdout, tx.b, strlen(tx.b));
    }
    diff_metadata(A, B, json, &tx, &c);
    int trouble = meta_only ? 0 : diff_tensors(A, B, json, &tx, &c);
    if (json && meta_only) fputs(",\n  \"tensors\": null", stdout);
    const int differ = c.kv_removed || c.kv_added || c.kv_changed || c.t_removed || c.t_added || c.t_changed;
    if (json) printf(",\n  \"identical\": %s}\n", differ ? "false" : "true");
    else if (differ && meta_only)
        printf("summary: metadata %llu removed, %llu added, %llu changed\n", (unsigned long long)c.kv_removed,
               (unsigned long long)c.kv_added, (unsigned long long)c.kv_changed);
    else if (differ)
        printf("summary: metadata %llu removed, %llu added, %llu changed; tensors %llu removed, %llu added, %llu "
               "changed\n",
               (unsigned long long)c.kv_removed, (unsigned long long)c.kv_added, (unsigned long long)c.kv_changed,
               (unsigned long long)c.t_removed, (unsigned long long)c.t_added, (unsigned long long)c.t_changed);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_err("diff", NULL, "write error on stdout");
        trouble = 1;
    }
    lgg_close(A);
    lgg_close(B);
    return trouble ? TROUBLE : differ ? DIFFERENT : SAME;
}
