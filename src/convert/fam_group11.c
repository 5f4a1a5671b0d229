/* fam_group11.c -- what issue 25's group-11 families do in code (the rest
 * of each is a row of families.c): CodeShell's output matrix copied from
 * the token embeddings when the checkpoint has none, Chameleon's dropped
 * image tokenizer, its per-head q/k norms rebuilt from the first head and
 * its swin_norm key, Refact's computed feed-forward width, split kv and
 * gate_up matrices. */
#include "cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CodeShell: token_embd.weight is also written as output.weight, right
 * after it, unless a tensor is named lm_head.weight or output.weight. */
static lgg_status codeshell_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strcmp(t->name, "token_embd.weight")) return LGG_OK;
    for (size_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            const char *n = lgg_st_at(c->shards[s], i)->name.ptr;
            if (!strcmp(n, "lm_head.weight") || !strcmp(n, "output.weight")) return LGG_OK;
        }
    return lgg__cv_dup_tensor(c, (size_t)(t - c->t), "output.weight", err);
}

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
    const uint8_t *p = lgg_st_bytes(c->shards[t->shard]) + s->offset;
    size_t es = s->dtype == LGG_TYPE_F32 ? 4 : 2;
    lgg_dequantize(s->dtype, p, (size_t)hd * es, LGG_LITTLE_ENDIAN, row, (uint64_t)hd); /* exact widening */
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

/* Refact's feed-forward width: 2/3 of 4 * n_embd, rounded up to 256. */
static int64_t refact_ff(const lgg_convert *c) {
    int64_t h = lgg__cv_hparam_int(c, "n_embd", 0), hidden = (int64_t)(2.0 * (double)(4 * h) / 3.0);
    return 256 * ((hidden + 255) / 256);
}

/* The values its table reads that config.json does not hold: stored under
 * "lgg." names (nothing else reads config.json's unknown keys). */
static lgg_status refact_init(lgg_convert *c, lgg_error *err) {
    int64_t h = lgg__cv_hparam_int(c, "n_embd", 0), nh = lgg__cv_hparam_int(c, "n_head", 0);
    if (h <= 0 || h > (1 << 24) || nh <= 0 || h % nh)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'n_embd' or 'n_head' is missing or not a count",
                            c->dir);
    if (json_object_set_new(c->config, "lgg.ff_dim", json_integer(refact_ff(c))) ||
        json_object_set_new(c->config, "lgg.one", json_integer(1)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* Rows [0, first) stay in t; rows [first, all) become `second`. */
static lgg_status split_rows(lgg_convert *c, cv_tensor *t, uint64_t first, const char *second, lgg_error *err) {
    const lgg_st_tensor *s = t->src;
    if (s->n_dims != 2 || s->shape[0] <= first)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': fewer than %llu rows to split (config.json)",
                            c->dir, c->shard_names[t->shard], s->name.ptr, (unsigned long long)first + 1);
    uint64_t rows = s->shape[0];
    char name[160];
    t->ne[1] = (int64_t)first, t->n_units = first;
    const char *dot = strchr(t->name, '.'), *dot2 = dot ? strchr(dot + 1, '.') : NULL; /* blk.N. */
    snprintf(name, sizeof name, "%.*s%s.weight", dot2 ? (int)(dot2 - t->name + 1) : 0, t->name, second);
    lgg_status st = lgg__cv_dup_tensor(c, (size_t)(t - c->t), name, err); /* t moves */
    if (st) return st;
    cv_tensor *v = &c->t[c->n_t - 1];
    v->row_skip = first, v->ne[1] = (int64_t)(rows - first), v->n_units = rows - first;
    return LGG_OK;
}

/* kv: the first n_head_kv (1) * head_dim rows are k, the rest v; gate_up:
 * the first ff_dim rows are gate, the rest up. */
static lgg_status refact_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strstr(t->name, ".attn_k.weight"))
        return split_rows(c, t, (uint64_t)(lgg__cv_hparam_int(c, "n_embd", 0) / lgg__cv_hparam_int(c, "n_head", 1)),
                          "attn_v", err);
    if (strstr(t->name, ".ffn_gate.weight")) return split_rows(c, t, (uint64_t)refact_ff(c), "ffn_up", err);
    return LGG_OK;
}

/* The BPE vocabulary.  The reference then sets the fill-in-the-middle ids
 * prefix 1, suffix 3, middle 2, which b4747's writer has no handler for
 * (skipped with a warning), and an end-of-turn id from the tokenizer files
 * (eot_token, eot_token_id), which is refused here. */
static lgg_status refact_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if ((tc && json_object_get(tc, "eot_token")) || json_object_get(c->config, "eot_token_id"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: an end-of-turn token ('%s') is not supported for Refact",
                            c->dir, tc && json_object_get(tc, "eot_token") ? "eot_token" : "eot_token_id");
    return lgg__cv_bpe(c, tc, o, err);
}

const cv_hooks *lgg__cv_group11_hooks(const char *hf_arch) {
    static const cv_hooks REFACT = {refact_init, NULL, refact_tensor, NULL, refact_vocab};
    static const cv_hooks CODESHELL = {NULL, NULL, codeshell_tensor, NULL, NULL};
    static const cv_hooks CHAMELEON = {NULL, chameleon_name, chameleon_tensor, chameleon_meta, NULL};
    if (!strcmp(hf_arch, "CodeShellForCausalLM")) return &CODESHELL;
    if (!strcmp(hf_arch, "GPTRefactForCausalLM")) return &REFACT;
    if (!strcmp(hf_arch, "ChameleonForConditionalGeneration") || !strcmp(hf_arch, "ChameleonForCausalLM"))
        return &CHAMELEON;
    return NULL;
}
