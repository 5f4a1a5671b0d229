/* tensors.c -- the conversion's list of output tensors: a new entry, and
 * the generated ones (generated.c computes their values; convert.c adds
 * the ones read from the checkpoint). */
#include "cvint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cv_tensor *lgg__cv_new_tensor(lgg_convert *c, lgg_error *err) {
    if (c->n_t == c->cap_t) { /* doubling from 64; the count is bounded by the checkpoint's tensors */
        size_t cap = c->cap_t ? c->cap_t * 2 : 64;
        cv_tensor *v = cap <= SIZE_MAX / sizeof *v ? realloc(c->t, cap * sizeof *v) : NULL;
        if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory"), NULL;
        c->t = v;
        c->cap_t = cap;
    }
    cv_tensor *t = &c->t[c->n_t];
    memset(t, 0, sizeof *t);
    t->c = c;
    return t;
}

lgg_status lgg__cv_add_generated(lgg_convert *c, const char *name, float *values, uint64_t n, lgg_error *err) {
    cv_tensor *t = lgg__cv_new_tensor(c, err);
    if (!t) return LGG_ERR_NOMEM;
    if (!(t->name = strdup(name))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    t->src_name = "(generated)";
    t->gen = values;
    t->type = t->work = LGG_TYPE_F32;
    t->n_dims = 1;
    t->ne[0] = (int64_t)n, t->ne[1] = t->ne[2] = t->ne[3] = 1;
    t->unit = n ? n : 1;
    t->n_units = n ? 1 : 0;
    c->n_t++;
    return LGG_OK;
}

lgg_status lgg__cv_dup_tensor(lgg_convert *c, size_t i, const char *name, lgg_error *err) {
    cv_tensor *t = lgg__cv_new_tensor(c, err); /* c->t may move: entry i is read after */
    if (!t) return LGG_ERR_NOMEM;
    char *n = strdup(name);
    if (!n) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    *t = c->t[i];
    t->name = n, t->gen = NULL, t->stack = NULL, t->n_stack = 0;
    c->n_t++;
    return LGG_OK;
}

/* Rows [0, first) of t's rows stay in t; the rest become `second` (t may
 * be the second part of an earlier split: its rows start at row_skip). */
lgg_status lgg__cv_split_rows(lgg_convert *c, cv_tensor *t, uint64_t first, const char *second, lgg_error *err) {
    const lgg_st_tensor *s = t->src;
    if (s->n_dims != 2 || t->n_units <= first)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': fewer than %llu rows to split (config.json)",
                            c->dir, c->shard_names[t->shard], s->name.ptr, (unsigned long long)first + 1);
    uint64_t rows = t->n_units, skip = t->row_skip;
    char name[160];
    t->ne[1] = (int64_t)first, t->n_units = first;
    const char *dot = strchr(t->name, '.'), *dot2 = dot ? strchr(dot + 1, '.') : NULL; /* blk.N. */
    snprintf(name, sizeof name, "%.*s%s.weight", dot2 ? (int)(dot2 - t->name + 1) : 0, t->name, second);
    lgg_status st = lgg__cv_dup_tensor(c, (size_t)(t - c->t), name, err); /* t moves */
    if (st) return st;
    cv_tensor *v = &c->t[c->n_t - 1];
    v->row_skip = skip + first, v->ne[1] = (int64_t)(rows - first), v->n_units = rows - first;
    return LGG_OK;
}

/* A stacked tensor (experts) named by its map row's pattern with the block number. */
void lgg__cv_stacked_name(char *name, size_t cap, const char *g, uint64_t bid) {
    const char *hash = strchr(g, '#');
    snprintf(name, cap, "%.*s%llu%s.weight", (int)(hash - g), g, (unsigned long long)bid, hash + 1);
}

/* Stacked experts stored (experts, in, out): each expert's matrix
 * transposed, `parts` output matrices side by side in a row (their first
 * columns row_arg[2] apart: the caller sets it for the others), each taking
 * every step-th column; q8_0 falls back to f16 on the new row length as
 * master's quantizer does. */
lgg_status lgg__cv_expert_t(lgg_convert *c, cv_tensor *t, uint64_t step, uint64_t parts, lgg_error *err) {
    const lgg_st_tensor *s = t->src;
    if (s->n_dims != 3 || !s->shape[0] || !s->shape[1] || !s->shape[2] || s->shape[2] % parts)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': not (experts, in, out)%s", c->dir,
                            c->shard_names[t->shard], s->name.ptr, parts == 2 ? " with an even out" : "");
    t->xform |= CV_X_EXPERT_T;
    t->ne[0] = (int64_t)s->shape[1], t->ne[1] = (int64_t)(s->shape[2] / parts), t->ne[2] = (int64_t)s->shape[0];
    t->unit = s->shape[1], t->n_units = s->shape[0] * (s->shape[2] / parts);
    t->row_arg[0] = s->shape[2], t->row_arg[1] = step, t->row_arg[2] = 0;
    if (c->outtype == LGG_CONVERT_Q8_0) t->type = t->ne[0] % 32 ? LGG_TYPE_F16 : LGG_TYPE_Q8_0;
    return LGG_OK;
}

lgg_status lgg__cv_up_name(lgg_convert *c, const cv_tensor *t, char *up, size_t cap, lgg_error *err) {
    const char *g = strstr(t->name, "ffn_gate_exps");
    if (!g) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: '%s' is not a gate tensor", c->dir, t->name);
    snprintf(up, cap, "%.*sffn_up_exps%s", (int)(g - t->name), t->name, g + strlen("ffn_gate_exps"));
    return LGG_OK;
}

lgg_status lgg__cv_expert_gate_up(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    char up[160];
    lgg_status st;
    if ((st = lgg__cv_expert_t(c, t, 1, 2, err)) || (st = lgg__cv_up_name(c, t, up, sizeof up, err))) return st;
    uint64_t half = (uint64_t)t->ne[1];
    if (!(st = lgg__cv_dup_tensor(c, (size_t)(t - c->t), up, err))) c->t[c->n_t - 1].row_arg[2] = half; /* t moves */
    return st;
}
