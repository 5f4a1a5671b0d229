/* apertus.c -- Apertus (ApertusForCausalLM) as llama.cpp master (3f545becc)
 * converts it (conversion/llama.py's ApertusModel): llama's keys and
 * vocabulary, no q/k permutation, and its xIELU activation's per-layer
 * scalars (mlp.act_fn.alpha_n, alpha_p, beta, eps) not written as tensors
 * but as the float arrays xielu.alpha_n, ... (no architecture prefix), one
 * value per layer in layer order.  Master sets each key while reading the
 * tensors, when the last layer's value of its kind arrives (so before
 * general.type, in the order the kinds complete); a kind some layer lacks
 * is not written. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const KIND[] = {"alpha_n", "alpha_p", "beta", "eps"};

static int apertus_name(const char *hf, char *out, size_t cap) {
    if (strstr(hf, ".mlp.act_fn.")) return 0;
    size_t n = strlen(hf);
    if (n >= cap) return 0;
    memcpy(out, hf, n + 1);
    return 1;
}

/* Layer b's value of kind k (a one-element tensor) into *v: 1 found, 0 absent. */
static lgg_status one_value(lgg_convert *c, uint64_t b, int k, float *v, uint32_t *shard, const char **name, int *found,
                            lgg_error *err) {
    char want[160];
    snprintf(want, sizeof want, "model.layers.%llu.mlp.act_fn.%s", (unsigned long long)b, KIND[k]);
    *found = 0;
    for (uint32_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            const lgg_st_tensor *x = lgg_st_at(c->shards[s], i);
            if (strcmp(x->name.ptr, want)) continue;
            uint64_t es = x->dtype == LGG_TYPE_F32 ? 4 : 2;
            if ((x->dtype != LGG_TYPE_F32 && x->dtype != LGG_TYPE_F16 && x->dtype != LGG_TYPE_BF16) || x->size != es)
                return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': not one F32, F16 or BF16 value", c->dir,
                                    c->shard_names[s], want);
            const uint8_t *p;
            void *owned;
            lgg_status st = lgg__cv_src_bytes(c, s, x, &p, &owned, err);
            if (st) return st;
            lgg_dequantize(x->dtype, p, (size_t)es, LGG_LITTLE_ENDIAN, v, 1);
            free(owned);
            *found = 1, *shard = s, *name = x->name.ptr;
            return LGG_OK;
        }
    return LGG_OK;
}

/* Kind k's values (all layers: *done 1) and where its last one is read. */
static lgg_status kind_values(lgg_convert *c, int k, float *v, int *done, uint32_t *last_shard, const char **last_name,
                              lgg_error *err) {
    *done = 1, *last_name = NULL;
    for (uint64_t b = 0; b < c->block_count; b++) {
        uint32_t s = 0;
        const char *name = NULL;
        int found;
        lgg_status st = one_value(c, b, k, &v[b], &s, &name, &found, err);
        if (st) return st;
        if (!found) *done = 0;
        else if (!*last_name || s > *last_shard || (s == *last_shard && strcmp(name, *last_name) > 0))
            *last_shard = s, *last_name = name;
    }
    return LGG_OK;
}

/* Once, at the first tensor added: the complete kinds' arrays as early
 * keys (c->early), in the order they complete. */
static lgg_status apertus_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)t;
    if (c->early_done) return LGG_OK;
    c->early_done = 1;
    if (c->block_count > (1u << 20)) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: too many layers", c->dir);
    if (!c->block_count) return LGG_OK;
    int done[4], order[4], m = 0;
    uint32_t shard[4] = {0};
    const char *last[4];
    float *v[4] = {NULL, NULL, NULL, NULL};
    lgg_status st = LGG_OK;
    for (int k = 0; k < 4 && !st; k++) {
        if (!(v[k] = malloc((size_t)c->block_count * sizeof *v[k]))) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        if (!st) st = kind_values(c, k, v[k], &done[k], &shard[k], &last[k], err);
    }
    for (int k = 0; k < 4 && !st; k++) /* the complete kinds in the order they complete (each key set at its last value) */
        if (done[k]) {
            int j = m++;
            for (; j > 0 && (shard[order[j - 1]] > shard[k] || (shard[order[j - 1]] == shard[k] && strcmp(last[order[j - 1]], last[k]) > 0)); j--)
                order[j] = order[j - 1];
            order[j] = k;
        }
    for (int i = 0; i < m && !st; i++) {
        int k = order[i];
        snprintf(c->early[i].key, sizeof c->early[i].key, "xielu.%s", KIND[k]);
        c->early[i].v = v[k], c->early[i].n = c->block_count, v[k] = NULL;
        c->n_early = i + 1;
    }
    for (int k = 0; k < 4; k++) free(v[k]);
    return st;
}

const cv_hooks lgg__cv_hooks_apertus = {NULL, apertus_name, apertus_tensor, NULL, NULL, NULL};
