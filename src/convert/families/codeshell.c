/* codeshell.c -- what CodeShell does in code in the reference
 * converter (b4747): its output matrix copied from the token embeddings when the
 * checkpoint has none. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CodeShell: token_embd.weight is also written as output.weight, right
 * after it, unless a tensor is named lm_head.weight or output.weight
 * (b4747; master writes no copy: its loader takes the embeddings). */
static lgg_status codeshell_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (c->master || strcmp(t->name, "token_embd.weight")) return LGG_OK;
    for (size_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            const char *n = lgg_st_at(c->shards[s], i)->name.ptr;
            if (!strcmp(n, "lm_head.weight") || !strcmp(n, "output.weight")) return LGG_OK;
        }
    return lgg__cv_dup_tensor(c, (size_t)(t - c->t), "output.weight", err);
}

const cv_hooks lgg__cv_hooks_codeshell = {NULL, NULL, codeshell_tensor, NULL, NULL, NULL};
