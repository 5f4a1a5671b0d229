/* baichuan.c -- what Baichuan does in code in the reference converter:
 * its packed q/k/v (W_pack) split. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Baichuan's W_pack (q, k and v stacked) becomes attn_q and attn_k, each
 * with llama's row permutation (k's heads: num_attention_heads /
 * num_key_value_heads when they differ, as the reference divides), and
 * attn_v: three views of the one source tensor, one after another. */
static lgg_status baichuan_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strstr(t->name, ".attn_qkv.weight")) return LGG_OK;
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", 0), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", nh);
    if (!lgg__cv_heads_ok(nh) || (nkv != nh && !lgg__cv_heads_ok(nkv))) nh = nkv = 0; /* refused below */
    uint64_t r = t->n_units / 3, heads[3] = {(uint64_t)nh, (uint64_t)(nkv > 0 && nkv != nh ? nh / nkv : nh), 1};
    for (int k = 0; k < 2; k++)
        if (t->n_dims != 2 || t->n_units % 3 || heads[k] == 0 || r % (2 * heads[k]))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %llu rows cannot be split in three and permuted for %llu heads",
                                c->dir, t->src_name, (unsigned long long)t->n_units, (unsigned long long)heads[k]);
    static const char *const part[3] = {"attn_q", "attn_k", "attn_v"};
    static const unsigned perm[3] = {CV_X_PERM_Q, CV_X_PERM_K, 0};
    const char *dot = strstr(t->name, ".attn_qkv.weight");
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(dot - t->name), t->name);
    cv_tensor base = *t;
    free(t->name);
    c->n_t--; /* t's slot is the first of the three */
    for (int k = 0; k < 3; k++) {
        cv_tensor *o = lgg__cv_new_tensor(c, err);
        if (!o) return LGG_ERR_NOMEM;
        *o = base;
        o->name = malloc(strlen(prefix) + 16);
        if (!o->name) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        sprintf(o->name, "%s.%s.weight", prefix, part[k]);
        o->ne[1] = (int64_t)r, o->n_units = r, o->row_skip = r * (uint64_t)k;
        o->xform |= perm[k], o->heads = heads[k];
        c->n_t++;
    }
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_baichuan = {NULL, NULL, baichuan_tensor, NULL, NULL, NULL};
