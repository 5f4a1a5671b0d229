/* mpt.c -- what MPT does in code in the reference converter: its keys. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MPT: no general.file_type (the reference's MPT writes none), its
 * attention settings from attn_config. */
static lgg_status mpt_meta(lgg_convert *c, lgg_error *err) {
    const json_t *ac = json_object_get(c->config, "attn_config");
    static const char *const need_keys[] = {"max_seq_len", "d_model", "n_layers", "n_heads"};
    uint32_t v[4];
    for (int k = 0; k < 4; k++) {
        const json_t *x = json_object_get(c->config, need_keys[k]);
        if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > (k == 1 ? UINT32_MAX / 4 : UINT32_MAX))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, need_keys[k]);
        v[k] = (uint32_t)json_integer_value(x);
    }
    const json_t *kv = json_object_get(ac, "kv_n_heads"), *clip = json_object_get(ac, "clip_qkv");
    const json_t *alibi = json_object_get(ac, "alibi"), *amax = json_object_get(ac, "alibi_bias_max");
    if (!json_is_object(ac) || !json_object_get(ac, "clip_qkv") || !alibi)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'attn_config' (with clip_qkv and alibi) is missing", c->dir);
    if ((kv && !json_is_null(kv) && !json_is_integer(kv)) || (!json_is_null(clip) && !json_is_number(clip)) ||
        (json_is_true(alibi) && !json_is_number(amax)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: attn_config's kv_n_heads, clip_qkv or alibi_bias_max is not a number",
                            c->dir);
    const struct {
        const char *k;
        int f32; /* 0 u32, 1 f32, 2 skipped */
        double x;
    } keys[] = {{"context_length", 0, v[0]},
                {"embedding_length", 0, v[1]},
                {"block_count", 0, v[2]},
                {"feed_forward_length", 0, 4.0 * v[1]},
                {"attention.head_count", 0, v[3]},
                {"attention.head_count_kv", json_integer_value(kv) ? 0 : 2, (double)json_integer_value(kv)},
                {"attention.layer_norm_epsilon", 1, 1e-5},
                {"attention.clamp_kqv", json_is_null(clip) ? 2 : 1, json_number_value(clip)},
                {"attention.max_alibi_bias", 1, json_is_true(alibi) ? json_number_value(amax) : 0.0}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char key[96];
        snprintf(key, sizeof key, "%s.%s", c->fam->arch, keys[i].k);
        if (keys[i].f32 == 2) continue;
        if (keys[i].f32 ? lgg_writer_set_f32(c->w, key, (float)keys[i].x, NULL)
                        : lgg_writer_set_u32(c->w, key, (uint32_t)keys[i].x, NULL))
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    }
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_mpt = {NULL, NULL, NULL, mpt_meta, NULL, NULL};
