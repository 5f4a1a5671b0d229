/* plamo.c -- what PLaMo does in code in the reference converter: its
 * q rows and its attention output's columns are shuffled so that ggml's
 * broadcast of the key/value heads over the query heads finds PLaMo's
 * grouping.  PLaMo-13B's query head g * 5 + k (g of 8 groups) attends with
 * key/value head k; the reference views the heads as (8, 5, 128) and swaps
 * the first two axes, for the q rows and the output's columns alike.  It
 * asserts 5120 x 5120 matrices and writes those constants: any other shape
 * is refused here, as it fails there. */
#include "../cvint.h"

#include <stdio.h>
#include <string.h>

/* The reference's reshape: (groups, kv heads, head dim) of one 5120 side. */
enum { PLAMO_GROUPS = 8, PLAMO_KV = 5, PLAMO_HEAD_DIM = 128, PLAMO_SIDE = PLAMO_GROUPS * PLAMO_KV * PLAMO_HEAD_DIM };

/* Output head h (of kv * groups) is source head (h % groups) * kv + h / groups. */
static uint64_t src_head(const cv_tensor *t, uint64_t h) {
    uint64_t groups = t->row_arg[0], kv = t->row_arg[1];
    return h % groups * kv + h / groups;
}

static uint64_t plamo_row(const cv_tensor *t, uint64_t u) {
    uint64_t hd = t->row_arg[2];
    return src_head(t, u / hd) * hd + u % hd;
}

static int ends(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static lgg_status plamo_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int q = ends(t->name, "attn_q.weight"), o = ends(t->name, "attn_output.weight");
    if (!q && !o) return LGG_OK;
    const lgg_st_tensor *s = t->src;
    if (s->n_dims != 2 || s->shape[0] != PLAMO_SIDE || s->shape[1] != PLAMO_SIDE) {
        char dims[64] = "";
        for (uint32_t d = 0, k = 0; d < s->n_dims && d < 4; d++)
            k += (unsigned)snprintf(dims + k, sizeof dims - k, "%s%llu", d ? " x " : "", (unsigned long long)s->shape[d]);
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/%s: tensor '%s': shape %s; PLaMo's %s shuffle (as the reference's) takes 5120 x 5120 "
                            "only (PLaMo-13B's 40 heads of 128 in 8 groups of 5)",
                            c->dir, c->shard_names[t->shard], t->src_name, dims[0] ? dims : "()", q ? "q" : "output");
    }
    t->row_arg[0] = PLAMO_GROUPS, t->row_arg[1] = PLAMO_KV, t->row_arg[2] = PLAMO_HEAD_DIM;
    if (q) t->row_of = plamo_row;
    else t->col_of = src_head, t->col_block = PLAMO_HEAD_DIM;
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_plamo = {NULL, NULL, plamo_tensor, NULL, NULL, NULL};
