/* bloom.c -- what BLOOM does in code in the reference converter:
 * its keys, its fused q/k/v regrouped, the embeddings written again as the
 * output when the checkpoint has no head. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "transformer." removed wherever it is (the reference's re.sub). */
static int bloom_name(const char *hf, char *out, size_t cap) {
    size_t o = 0;
    for (const char *p = hf; *p && o + 1 < cap;) {
        if (!strncmp(p, "transformer.", 12)) {
            p += 12;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = 0;
    return 1;
}

static int has_tensor(const lgg_convert *c, const char *name) {
    for (size_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++)
            if (!strcmp(lgg_st_at(c->shards[s], i)->name.ptr, name)) return 1;
    return 0;
}

/* Output row u of the fused matrix: part p of head h sits at source rows
 * (h * 3 + p) * hd (row_arg[0]: the heads). */
static uint64_t bloom_row(const cv_tensor *t, uint64_t u) {
    uint64_t n = t->n_units / 3, hd = n / t->row_arg[0], p = u / n, w = u % n;
    return (w / hd * 3 + p) * hd + w % hd;
}

/* The fused q/k/v, per head (q, k, v) in the checkpoint, becomes all
 * heads' q, then k, then v (bloom_row, a row map); the
 * embeddings are also the output when no lm_head.weight or output.weight
 * is in the checkpoint (b4747; master writes no copy). */
static lgg_status bloom_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strstr(t->name, ".attn_qkv.")) {
        int64_t nh = lgg__cv_hparam_int(c, "n_head", lgg__cv_hparam_int(c, "num_attention_heads", 0));
        if (t->n_dims == 1) t->unit = 1, t->n_units = (uint64_t)t->ne[0];
        if (!lgg__cv_heads_ok(nh) || t->n_units % (3 * (uint64_t)nh))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %llu rows are not 3 x n_head (config.json) parts",
                                c->dir, t->src_name, (unsigned long long)t->n_units);
        t->row_of = bloom_row, t->row_arg[0] = (uint64_t)nh;
    }
    if (c->master || strcmp(t->name, "token_embd.weight") || has_tensor(c, "lm_head.weight") ||
        has_tensor(c, "output.weight"))
        return LGG_OK;
    cv_tensor copy = *t;
    cv_tensor *o = lgg__cv_new_tensor(c, err); /* may move the list: t is not used after this */
    if (!o) return LGG_ERR_NOMEM;
    *o = copy;
    if (!(o->name = strdup("output.weight"))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->n_t++;
    return LGG_OK;
}

static lgg_status bloom_meta(lgg_convert *c, lgg_error *err) {
    const json_t *embd = json_object_get(c->config, "hidden_size"), *nh = json_object_get(c->config, "n_head");
    const json_t *ctx = json_object_get(c->config, "seq_length"), *nl = json_object_get(c->config, "n_layer");
    const json_t *eps = json_object_get(c->config, "layer_norm_epsilon");
    if (!embd) embd = json_object_get(c->config, "n_embed");
    if (!nh) nh = json_object_get(c->config, "num_attention_heads");
    if (!ctx) ctx = embd; /* the reference's default: the width */
    const char *bad = !json_is_integer(embd) || json_integer_value(embd) < 0 || json_integer_value(embd) > UINT32_MAX / 4 ? "hidden_size"
                      : !json_is_integer(nh) || json_integer_value(nh) < 0 || json_integer_value(nh) > UINT32_MAX ? "n_head"
                      : !json_is_integer(ctx) || json_integer_value(ctx) < 0 || json_integer_value(ctx) > UINT32_MAX ? "seq_length"
                      : !json_is_integer(nl) || json_integer_value(nl) < 0 || json_integer_value(nl) > UINT32_MAX ? "n_layer"
                      : !json_is_number(eps) ? "layer_norm_epsilon"
                                              : NULL;
    if (bad) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, bad);
    uint32_t e = (uint32_t)json_integer_value(embd), h = (uint32_t)json_integer_value(nh);
    const struct {
        const char *k;
        uint32_t v;
    } keys[] = {{"context_length", (uint32_t)json_integer_value(ctx)}, {"embedding_length", e}, {"feed_forward_length", 4 * e},
                {"block_count", (uint32_t)json_integer_value(nl)},      {"attention.head_count", h}, {"attention.head_count_kv", h}};
    char key[96];
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        snprintf(key, sizeof key, "%s.%s", c->fam->arch, keys[i].k);
        if (lgg_writer_set_u32(c->w, key, keys[i].v, NULL)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    }
    snprintf(key, sizeof key, "%s.attention.layer_norm_epsilon", c->fam->arch);
    if (lgg_writer_set_f32(c->w, key, (float)json_number_value(eps), NULL) ||
        lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_bloom = {NULL, bloom_name, bloom_tensor, bloom_meta, NULL, NULL};
