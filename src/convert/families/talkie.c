/* talkie.c -- Talkie (TalkieForCausalLM: lewtun/talkie-1930-13b-it-hf) as
 * llama.cpp master (3f545becc) converts it (conversion/talkie.py), which only
 * master does:
 *   hf_name  TextModel's filter, then ".weight" added to every name without
 *            it but the attention and MLP output gains (attn_gain.a_g,
 *            mlp_gain.a_g: the table names them blk.N.attn_output.scale and
 *            blk.N.ffn_down.scale) and lm_head_gain.w_g, as master names them
 *   tensor   lm_head_gain.w_g's one value as talkie.logit_scale (master sets
 *            it while it reads the tensors: right after
 *            general.architecture), not written as a tensor; attn_query's
 *            and attn_key's rows in the second half of each head (head_dim)
 *            negated (master's absorbed inverse rope); the per-head query
 *            gain [n_head] written [n_head, 1] (master's unsqueeze).
 * The rms epsilon master hard-codes (float32's) is families.c's TALKIE_META. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int talkie_name(const char *hf, char *out, size_t cap) {
    if (!lgg__cv_master_text_name(hf, out, cap)) return 0;
    static const char *const AS_IS[] = {".attn_gain.a_g", ".mlp_gain.a_g"};
    int as_is = !strcmp(out, "lm_head_gain.w_g") || lgg__cv_ends_with(out, ".weight");
    for (size_t i = 0; i < 2; i++) as_is |= !strncmp(out, "model.blocks.", 13) && lgg__cv_ends_with(out, AS_IS[i]);
    size_t l = strlen(out);
    if (as_is) return 1;
    if (l + 8 > cap) return 0;
    memcpy(out + l, ".weight", 8);
    return 1;
}

/* -1 for row u of a query or key matrix in the second half of its head (row_arg[0] = head_dim), else 1. */
static float head_half_sign(const cv_tensor *t, uint64_t u) { return u % t->row_arg[0] >= t->row_arg[0] / 2 ? -1.0f : 1.0f; }

/* lm_head_gain.w_g (t, the last added) read as talkie.logit_scale and taken out. */
static lgg_status logit_scale(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const lgg_st_tensor *s = t->src;
    uint64_t n = 1;
    for (uint32_t d = 0; d < s->n_dims; d++) n *= s->shape[d];
    if (n != 1 || c->n_early >= (int)(sizeof c->early / sizeof c->early[0]))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' is not one value (master reads it with .item())", c->dir,
                            t->src_name);
    const uint8_t *p;
    void *owned = NULL;
    float *v = malloc(sizeof *v);
    lgg_status st = v ? lgg__cv_src_bytes(c, t->shard, s, &p, &owned, err) : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (st) return free(v), st;
    lgg_dequantize(s->dtype, p, s->dtype == LGG_TYPE_F32 ? 4 : 2, LGG_LITTLE_ENDIAN, v, 1); /* exact widening */
    free(owned);
    int i = c->n_early++;
    snprintf(c->early[i].key, sizeof c->early[i].key, "%s.logit_scale", c->fam->arch);
    c->early[i].v = v, c->early[i].n = 1, c->early[i].scalar = 1;
    free(t->name);
    c->n_t--;
    return LGG_OK;
}

static lgg_status talkie_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strcmp(t->src_name, "lm_head_gain.w_g")) return logit_scale(c, t, err);
    if (lgg__cv_block_name_is(t->name, "attn_q_norm.weight")) { /* [n_head] as [n_head, 1] */
        if (t->n_dims != 1) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' is not one gain a head", c->dir, t->src_name);
        t->n_dims = 2, t->ne[1] = t->ne[0], t->ne[0] = 1, t->unit = 1, t->n_units = (uint64_t)t->ne[1];
        return LGG_OK;
    }
    if (!lgg__cv_block_name_is(t->name, "attn_q.weight") && !lgg__cv_block_name_is(t->name, "attn_k.weight")) return LGG_OK;
    int64_t hd = lgg__cv_hparam_int(c, "head_dim", -1);
    if (hd <= 0 || hd > (1 << 20) || t->n_dims != 2 || t->n_units % (uint64_t)hd)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': its rows are not heads of head_dim (config.json)", c->dir,
                            t->src_name);
    t->row_arg[0] = (uint64_t)hd, t->row_scale = head_half_sign;
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_talkie = {NULL, talkie_name, talkie_tensor, NULL, NULL, NULL};
