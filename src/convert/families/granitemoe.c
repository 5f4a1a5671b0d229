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

/* t's GGUF name with `from` (a part of it) replaced by `to`. */
static lgg_status rename_part(cv_tensor *t, const char *from, const char *to, lgg_error *err) {
    const char *at = strstr(t->name, from);
    char name[128];
    if (!at) return LGG_OK;
    snprintf(name, sizeof name, "%.*s%s%s", (int)(at - t->name), t->name, to, at + strlen(from));
    char *n = strdup(name);
    if (!n) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    free(t->name);
    t->name = n;
    return LGG_OK;
}

/* t (one fused matrix of 2 * ff rows per expert, or of one shared MLP)
 * becomes its gate half, named `gate`, and a copy its up half, `up`. */
static lgg_status split_halves(lgg_convert *c, cv_tensor *t, const char *key, const char *gate, const char *up,
                               lgg_error *err) {
    int64_t ff = lgg__cv_hparam_int(c, key, 0);
    uint32_t d = t->src->n_dims;
    const char *g = strstr(t->name, gate);
    if (!g || d < 2 || d > 3 || ff <= 0 || t->src->shape[d - 2] % 2 || t->src->shape[d - 2] / 2 != (uint64_t)ff)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': needs 2 * %s (config.json) rows%s", c->dir,
                            c->shard_names[t->shard], t->src_name, key, d == 3 ? " per expert" : "");
    t->ne[1] = ff, t->n_units /= 2, t->row_of = half_row, t->row_arg[0] = (uint64_t)ff, t->row_arg[1] = 0;
    char name[128];
    snprintf(name, sizeof name, "%.*s%s%s", (int)(g - t->name), t->name, up, g + strlen(gate));
    lgg_status st = lgg__cv_dup_tensor(c, (size_t)(t - c->t), name, err); /* t moves */
    if (st) return st;
    c->t[c->n_t - 1].row_arg[1] = 1;
    return LGG_OK;
}

/* The experts' input_linear as ffn_gate_exps and ffn_up_exps; master's
 * GraniteMoeShared and hybrids: the shared MLP's input_linear as
 * ffn_gate_shexp and ffn_up_shexp (its output_linear ffn_down_shexp), or as
 * a plain ffn_gate, ffn_up and ffn_down without experts. */
lgg_status lgg__cv_granitemoe_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (ends(t->src_name, ".block_sparse_moe.input_linear.weight"))
        return split_halves(c, t, "intermediate_size", "ffn_gate_exps", "ffn_up_exps", err);
    int experts = lgg__cv_hparam_int(c, "num_local_experts", 0) != 0;
    if (ends(t->src_name, ".shared_mlp.output_linear.weight") && !experts)
        return rename_part(t, "ffn_down_shexp", "ffn_down", err);
    if (!ends(t->src_name, ".shared_mlp.input_linear.weight")) return LGG_OK;
    lgg_status st = experts ? LGG_OK : rename_part(t, "ffn_gate_shexp", "ffn_gate", err);
    if (st) return st;
    return experts ? split_halves(c, t, "shared_intermediate_size", "ffn_gate_shexp", "ffn_up_shexp", err)
                   : split_halves(c, t, "shared_intermediate_size", "ffn_gate", "ffn_up", err);
}

const cv_hooks lgg__cv_hooks_granitemoe = {NULL, NULL, lgg__cv_granitemoe_tensor, NULL, NULL, NULL};
