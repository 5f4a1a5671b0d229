/* granitemoe.c -- what GraniteMoE does in code in the reference
 * converter: its gate and up experts split from one matrix (a row map,
 * cv_tensor.row_of, so the data is still read row by row). */
#include "../cvint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int ends(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* GraniteMoE's experts hold their gate rows and then their up rows in one
 * matrix (input_linear, 2 * intermediate_size rows each): the gate half,
 * then the up half as a second tensor. */
static uint64_t half_row(const cv_tensor *t, uint64_t u) {
    uint64_t ff = t->row_arg[0];
    return u / ff * 2 * ff + t->row_arg[1] * ff + u % ff;
}

static lgg_status granitemoe_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!ends(t->src_name, ".block_sparse_moe.input_linear.weight")) return LGG_OK;
    int64_t ff = lgg__cv_hparam_int(c, "intermediate_size", 0);
    const char *gate = strstr(t->name, "ffn_gate_exps");
    if (!gate || t->src->n_dims != 3 || ff <= 0 || t->src->shape[1] % 2 || t->src->shape[1] / 2 != (uint64_t)ff)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': needs 2 * intermediate_size (config.json) rows per expert",
                            c->dir, c->shard_names[t->shard], t->src_name);
    t->ne[1] = ff, t->n_units /= 2, t->row_of = half_row, t->row_arg[0] = (uint64_t)ff, t->row_arg[1] = 0;
    char name[128];
    snprintf(name, sizeof name, "%.*sffn_up_exps%s", (int)(gate - t->name), t->name, gate + 13);
    lgg_status st = lgg__cv_dup_tensor(c, (size_t)(t - c->t), name, err); /* t moves */
    if (st) return st;
    c->t[c->n_t - 1].row_arg[1] = 1;
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_granitemoe = {NULL, NULL, granitemoe_tensor, NULL, NULL, NULL};
