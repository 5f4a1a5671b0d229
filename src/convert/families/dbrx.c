/* dbrx.c -- what DBRX does in code in the reference converter: its
 * keys, its expert layout and its output types. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DBRX: every tensor of more than one dimension (norms aside) takes the
 * output type, the router and the experts too (the reference's
 * tensor_force_quant); the experts (E x n_ff rows of d_model, no .weight)
 * become 3-D, w2 with each expert transposed. */
static lgg_status dbrx_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    size_t l = strlen(t->name);
    if (strstr(t->name, "_exps")) {
        const json_t *fc = json_object_get(c->config, "ffn_config");
        int64_t e = json_integer_value(json_object_get(fc, "moe_num_experts")), ff = json_integer_value(json_object_get(fc, "ffn_hidden_size"));
        if (t->n_dims != 2 || e <= 0 || ff <= 0 || (uint64_t)t->ne[1] != (uint64_t)e * (uint64_t)ff)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not ffn_config's moe_num_experts x ffn_hidden_size rows",
                                c->dir, t->src_name);
        char *n = realloc(t->name, l + 8);
        if (!n) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        memcpy(n + l, ".weight", 8);
        t->name = n;
        int64_t embd = t->ne[0];
        t->n_dims = 3, t->ne[2] = e, t->ne[1] = ff;
        if (strstr(t->name, "ffn_down_exps")) { /* (E, n_ff, n_embd) -> (E, n_embd, n_ff) */
            t->ne[0] = ff, t->ne[1] = embd;
            t->unit = (uint64_t)ff, t->n_units = (uint64_t)(e * embd);
            t->xform |= CV_X_EXPERT_T;
        }
    }
    if (t->n_dims > 1 && !(l >= 12 && !strcmp(t->name + l - 12, "_norm.weight"))) {
        t->type = lgg__cv_matrix_type(c, (uint64_t)t->ne[0]); /* forced: not even token_embd kept 16-bit */
    }
    return LGG_OK;
}

static lgg_status dbrx_meta(lgg_convert *c, lgg_error *err) {
    const json_t *fc = json_object_get(c->config, "ffn_config"), *ac = json_object_get(c->config, "attn_config");
    static const struct {
        const char *key, *from; /* from: "obj.key" or a key of config.json */
        int f32;
    } KEYS[] = {{"block_count", "n_layers", 0},
                {"context_length", "max_seq_len", 0},
                {"embedding_length", "d_model", 0},
                {"feed_forward_length", "ffn_config.ffn_hidden_size", 0},
                {"attention.head_count", "n_heads", 0},
                {"attention.head_count_kv", "attn_config.kv_n_heads", 0},
                {"rope.freq_base", "attn_config.rope_theta", 1},
                {"attention.clamp_kqv", "attn_config.clip_qkv", 1},
                {"expert_count", "ffn_config.moe_num_experts", 0},
                {"expert_used_count", "ffn_config.moe_top_k", 0}};
    char key[96];
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++) {
        const char *f = KEYS[i].from;
        const json_t *v = !strncmp(f, "ffn_config.", 11) ? json_object_get(fc, f + 11)
                          : !strncmp(f, "attn_config.", 12) ? json_object_get(ac, f + 12)
                                                             : json_object_get(c->config, f);
        if (KEYS[i].f32 ? !json_is_number(v) : (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a %s", c->dir, f,
                                KEYS[i].f32 ? "number" : "count");
        snprintf(key, sizeof key, "%s.%s", c->fam->arch, KEYS[i].key);
        if (KEYS[i].f32 ? lgg_writer_set_f32(c->w, key, (float)json_number_value(v), NULL)
                        : lgg_writer_set_u32(c->w, key, (uint32_t)json_integer_value(v), NULL))
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    }
    snprintf(key, sizeof key, "%s.attention.layer_norm_epsilon", c->fam->arch);
    if (lgg_writer_set_f32(c->w, key, 1e-5f, NULL) || lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_dbrx = {NULL, NULL, dbrx_tensor, dbrx_meta, NULL, NULL};
