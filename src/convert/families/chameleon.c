/* chameleon.c -- what Chameleon does in code in the reference
 * converter: its dropped image tokenizer, its per-head q/k norms rebuilt
 * from the first head and its swin_norm key. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chameleon: the VQ image tokenizer (model.vqmodel.*) is not converted. */
static int chameleon_name(const char *hf, char *out, size_t cap) {
    if (!strncmp(hf, "model.vqmodel", 13)) return 0;
    size_t l = strlen(hf);
    if (l >= cap) return 0;
    memcpy(out, hf, l + 1);
    return 1;
}

/* Chameleon's q_norm / k_norm (heads x head_dim): the reference takes the
 * first head's row, interleaves its two halves (view(2, hd/2).t()) and
 * repeats it for every head (heads: num_attention_heads for q,
 * num_key_value_heads for k). */
static lgg_status chameleon_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    size_t l = strlen(t->name);
    int q = strstr(t->name, ".attn_q_norm.") != NULL, k = strstr(t->name, ".attn_k_norm.") != NULL;
    if ((!q && !k) || l < 5) return LGG_OK;
    int64_t heads = lgg__cv_hparam_int(c, q ? "num_attention_heads" : "num_key_value_heads", 0);
    int64_t hidden = lgg__cv_hparam_int(c, "hidden_size", 0);
    const lgg_st_tensor *s = t->src;
    int64_t hd = heads > 0 ? hidden / heads : 0;
    if (s->n_dims != 2 || hd <= 0 || hd % 2 || (int64_t)s->shape[0] != heads || (int64_t)s->shape[1] != hd)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/%s: tensor '%s': not (%s, hidden_size / heads) as config.json gives (%lld x %lld)",
                            c->dir, c->shard_names[t->shard], s->name.ptr, q ? "num_attention_heads" : "num_key_value_heads",
                            (long long)heads, (long long)hd);
    float *row = malloc((size_t)hd * sizeof *row), *v = malloc((size_t)(heads * hd) * sizeof *v);
    if (!row || !v) {
        free(row), free(v);
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    void *owned;
    const uint8_t *p;
    lgg_status st = lgg__cv_src_bytes(c, t->shard, s, &p, &owned, err);
    if (st) return free(row), free(v), st;
    size_t es = s->dtype == LGG_TYPE_F32 ? 4 : 2;
    lgg_dequantize(s->dtype, p, (size_t)hd * es, LGG_LITTLE_ENDIAN, row, (uint64_t)hd); /* exact widening */
    free(owned);
    for (int64_t j = 0; j < hd / 2; j++) v[2 * j] = row[j], v[2 * j + 1] = row[hd / 2 + j];
    for (int64_t h = 1; h < heads; h++) memcpy(v + h * hd, v, (size_t)hd * sizeof *v);
    free(row);
    t->gen = v;
    return LGG_OK;
}

/* swin_norm: config.json's, false when absent. */
static lgg_status chameleon_meta(lgg_convert *c, lgg_error *err) {
    json_t *v = json_object_get(c->config, "swin_norm");
    if (v && !json_is_boolean(v))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'swin_norm' is not true or false", c->dir);
    return lgg_writer_set_bool(c->w, "chameleon.swin_norm", json_is_true(v), NULL)
               ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set chameleon.swin_norm")
               : LGG_OK;
}

const cv_hooks lgg__cv_hooks_chameleon = {NULL, chameleon_name, chameleon_tensor, chameleon_meta, NULL, NULL};
