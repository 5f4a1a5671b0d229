/* mimo.c -- MiMo-V2-Flash and the text of MiMo-V2.5 (llama.cpp master's
 * MimoV2Model, mimo2), which only master converts: softmax attention on full
 * and sliding-window blocks (hybrid_layer_pattern: 1 a sliding one, with its
 * own key/value head count), attention sinks, DeepSeek-V3-style routed
 * experts, and three next-token-prediction blocks (model.mtp.layers.J, read
 * as blocks num_hidden_layers + J, CV_F_QWEN_MTP's renaming), which master
 * counts whether the checkpoint has them or not.  Beyond the shared tables:
 * - master's assertions: the sliding blocks' head size, head count and value
 *   head size the full ones', topk_method "noaux_tc";
 * - the key/value head count per block (the sliding ones' for the MTP
 *   blocks too) over the base key, the sliding window and its pattern (the
 *   config's list and three 1s), then the value head size, the experts, the
 *   rotary dimension, the norm epsilon (layernorm_epsilon, 1e-5 without),
 *   the value scale and the MTP block count;
 * - the attention sinks' names given the ".weight" they lack.
 * FP8 checkpoints (the published ones) are refused: master dequantizes their
 * fused qkv_proj by its tensor-parallel layout, not reproduced here. */
#include "../cvint.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MIMO_NEXTN = 3 }; /* master's: every published MiMo V2 has 3 MTP blocks, which config.json does not count */

static lgg_status set_int(lgg_convert *c, const char *key, json_int_t v, lgg_error *err) {
    return json_object_set_new(c->config, key, json_integer(v)) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* config.json's a and b, required and equal (Python's ==; strings or numbers). */
static lgg_status same(lgg_convert *c, const char *a, const char *b, lgg_error *err) {
    const json_t *x = json_object_get(c->config, a), *y = json_object_get(c->config, b);
    if (!x || !y) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing", c->dir, x ? b : a);
    int eq = json_is_number(x) && json_is_number(y) ? json_number_value(x) == json_number_value(y) : json_equal(x, y);
    return eq ? LGG_OK
              : lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: '%s' differs from '%s' (llama.cpp master (3f545becc) "
                             "requires them equal)", c->dir, a, b);
}

/* hybrid_layer_pattern: a list of integers (master writes it as an i32 array). */
static lgg_status pattern(lgg_convert *c, const json_t **p, lgg_error *err) {
    *p = json_object_get(c->config, "hybrid_layer_pattern");
    size_t i;
    const json_t *v;
    int ok = json_is_array(*p) && json_array_size(*p) > 0;
    json_array_foreach(ok ? *p : NULL, i, v) ok &= json_is_integer(v) && json_integer_value(v) >= INT32_MIN &&
                                                   json_integer_value(v) <= INT32_MAX;
    return ok ? LGG_OK : lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'hybrid_layer_pattern' is not a list of integers", c->dir);
}

/* Whether master's rope parameters have partial_rotary_factor (MiMo requires it): theirs, else, without
 * per-attention entries, config.json's own mirrored into them. */
static int has_partial_factor(const lgg_convert *c) {
    const json_t *rp = lgg__cv_master_rope_params(c);
    if (json_object_get(rp, "partial_rotary_factor")) return 1;
    if (json_object_get(rp, "full_attention") || json_object_get(rp, "sliding_attention")) return 0;
    char which[32];
    return lgg__cv_first_key(c->config, "partial_rotary_factor|rope_pct|rope_percent", which, sizeof which) != NULL;
}

static lgg_status mimo2_init(lgg_convert *c, lgg_error *err) {
    const json_t *qc = json_object_get(c->config, "quantization_config"), *p;
    const char *qm = json_string_value(json_object_get(qc, "quant_method"));
    if (qm && !strcmp(qm, "fp8"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s: an FP8 MiMo V2 checkpoint: llama.cpp master (3f545becc) dequantizes its fused qkv_proj by "
                            "the tensor-parallel layout it was saved in (conversion/mimo.py), which this converter does not "
                            "reproduce", c->dir);
    lgg_status st = lgg__cv_master_text_config(c, err);
    if (!st) st = same(c, "swa_head_dim", "head_dim", err);
    if (!st) st = same(c, "swa_num_attention_heads", "num_attention_heads", err);
    if (!st) st = same(c, "swa_v_head_dim", "v_head_dim", err);
    const json_t *tm = json_object_get(c->config, "topk_method");
    if (!st && !(json_is_string(tm) && !strcmp(json_string_value(tm), "noaux_tc")))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: topk_method is not \"noaux_tc\" (llama.cpp master "
                          "(3f545becc) requires it)", c->dir);
    if (!st) st = pattern(c, &p, err);
    if (!st && !has_partial_factor(c))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'partial_rotary_factor' is missing", c->dir);
    if (!st) st = lgg__cv_partial_rope_dim(c, 1.0, err);
    int64_t nl = lgg__cv_hparam_int(c, "num_hidden_layers", -1);
    if (!st && (nl < 0 || nl > (1 << 20)))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_hidden_layers' is missing or not a count", c->dir);
    if (!st) st = set_int(c, "lgg.main_layers", nl, err);
    if (!st) st = set_int(c, "num_hidden_layers", nl + MIMO_NEXTN, err);
    if (!st) st = set_int(c, "lgg.nextn", MIMO_NEXTN, err);
    const json_t *eps = json_object_get(c->config, "layernorm_epsilon");
    if (!st && json_object_set_new(c->config, "lgg.eps", eps && !json_is_null(eps) ? json_incref((json_t *)eps) : json_real(1e-5)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return st;
}

/* MiMo's filter_tensors: the attention sinks' ".weight", then master's TextModel filter (V2.5's vision and
 * audio out, language_model. off). */
static int mimo2_hf_name(const char *hf, char *out, size_t cap) {
    char tmp[512];
    int n = snprintf(tmp, sizeof tmp, "%s%s", hf, strstr(hf, "attention_sink") && !lgg__cv_ends_with(hf, ".weight") ? ".weight" : "");
    return n > 0 && (size_t)n < sizeof tmp && lgg__cv_master_text_name(tmp, out, cap);
}

static const cv_mkey MIMO2_TAIL[] = {
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};
static const cv_mkey MIMO2_TAIL2[] = {
    {"attention.value_length", "v_head_dim", CV_M_U32, CV_M_REQUIRED},
    {"expert_count", "n_routed_experts", CV_M_U32, CV_M_REQUIRED},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "lgg.rope_dim", CV_M_U32, CV_M_REQUIRED},
    {"attention.layer_norm_rms_epsilon", "lgg.eps", CV_M_F32, CV_M_REQUIRED},
    {"attention.value_scale", "attention_value_scale", CV_M_F32, 0},
    {"nextn_predict_layers", "lgg.nextn", CV_M_U32, CV_M_REQUIRED},
    {NULL, NULL, 0, 0},
};

/* The per-block key/value head counts (in the base key's place), the sliding window and its pattern, then
 * the rest in master's order. */
static lgg_status mimo2_meta(lgg_convert *c, lgg_error *err) {
    const json_t *p = json_object_get(c->config, "hybrid_layer_pattern");
    int64_t kv = lgg__cv_hparam_int(c, "num_key_value_heads", -1), kv_swa = lgg__cv_hparam_int(c, "swa_num_key_value_heads", -1);
    if (kv < 0 || kv > INT32_MAX || kv_swa < 0 || kv_swa > INT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: num_key_value_heads or swa_num_key_value_heads is missing "
                            "or not a count", c->dir);
    size_t n = json_array_size(p) + MIMO_NEXTN;
    int32_t *pat = malloc(n * sizeof *pat), *heads = malloc(n * sizeof *heads);
    lgg_status st = pat && heads ? LGG_OK : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; !st && i < n; i++) {
        pat[i] = i < json_array_size(p) ? (int32_t)json_integer_value(json_array_get(p, i)) : 1;
        heads[i] = (int32_t)(pat[i] == 1 ? kv_swa : kv);
    }
    if (!st) st = lgg__cv_put_arch_array(c, "attention.head_count_kv", LGG_VT_I32, heads, n, err);
    if (!st) st = lgg__cv_meta_keys(c, MIMO2_TAIL, err);
    if (!st) st = lgg__cv_put_arch_array(c, "attention.sliding_window_pattern", LGG_VT_I32, pat, n, err);
    if (!st) st = lgg__cv_meta_keys(c, MIMO2_TAIL2, err);
    free(pat);
    free(heads);
    return st;
}

const cv_hooks lgg__cv_hooks_mimo2 = {mimo2_init, mimo2_hf_name, NULL, mimo2_meta, NULL, NULL};
