/* laguna.c -- Laguna (LagunaForCausalLM: poolside/Laguna-XS.2) as llama.cpp
 * master (3f545becc) converts it (conversion/laguna.py), which only master
 * does:
 *   init    as lgg.* for families.c's LAGUNA_TAIL: the heads of each layer
 *           (num_attention_heads_per_layer, else num_attention_heads for
 *           every layer; its length must be the block count), the leading
 *           dense blocks (mlp_layer_types' leading "dense"), the rope
 *           dimensions int(head_dim x partial_rotary_factor) of
 *           rope_parameters' full_attention (required) and sliding_attention;
 *           each layer's attention gate (gating_types, else gating: a
 *           per-element gate needs gating "per-element") checked as master
 *           checks it
 *   meta    attention.head_count as the per-layer list (master's
 *           add_head_count over the base's, in its place), then the tail
 *   tensor  g_proj's rows checked against the gate (heads, or heads x
 *           head_dim per element)
 *   vocab   byte-level BPE with </assistant> typed CONTROL, chat_template.jinja
 *           over tokenizer_config.json's template, and the first of
 *           config.json's eos_token_id list other than bos_token_id as EOT. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lgg_status nomem(lgg_error *err) { return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory"); }

static lgg_status bad(const lgg_convert *c, const char *what, lgg_error *err) {
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: %s (llama.cpp master's Laguna stops on it)", c->dir, what);
}

/* master's _norm of a gate type: "-" as "_", one of per_element / per_head (1 / 0), else -1. */
static int gate_kind(const json_t *v) {
    if (!json_is_string(v)) return -1;
    char s[32];
    snprintf(s, sizeof s, "%s", json_string_value(v));
    for (char *p = s; *p; p++) *p = *p == '-' ? '_' : *p;
    return !strcmp(s, "per_element") ? 1 : !strcmp(s, "per_head") ? 0 : -1;
}

/* Each layer's gate (1: per element) into lgg.gate_elem, as master's _attn_gate_types decides it. */
static lgg_status gate_types(lgg_convert *c, int64_t n, lgg_error *err) {
    const json_t *types = json_object_get(c->config, "gating_types"), *gating = json_object_get(c->config, "gating");
    json_t *out = json_array();
    int any_elem = 0;
    for (int64_t i = 0; out && i < n; i++) {
        int k = lgg__cv_py_truthy(types) ? (json_is_array(types) && json_array_size(types) == (size_t)n ? gate_kind(json_array_get(types, (size_t)i)) : -2)
                : json_is_string(gating) ? gate_kind(gating) : json_is_true(gating) ? 0 : -3;
        if (k < 0) {
            json_decref(out);
            return bad(c, k == -2 ? "gating_types is not one entry a layer" : k == -3 ? "no attention gate type (gating, gating_types)"
                                                                             : "an attention gate type that is neither per-head nor per-element", err);
        }
        any_elem |= k;
        if (json_array_append_new(out, json_boolean(k))) json_decref(out), out = NULL;
    }
    if (out && any_elem && gate_kind(gating) != 1) {
        json_decref(out);
        return bad(c, "a per-element attention gate with gating not the string \"per-element\"", err);
    }
    return !out || json_object_set_new(c->config, "lgg.gate_elem", out) ? nomem(err) : LGG_OK;
}

/* int(head_dim x float(partial_rotary_factor)) of rope_parameters' `part` (1.0 without one) as `key`. */
static lgg_status rope_dim(lgg_convert *c, const json_t *rp, const char *part, const char *key, int64_t hd, lgg_error *err) {
    const json_t *sub = json_object_get(rp, part), *f = json_object_get(sub, "partial_rotary_factor");
    if (f && !json_is_number(f)) return bad(c, "a partial_rotary_factor that is not a number", err);
    double d = (double)hd * (f ? json_number_value(f) : 1.0);
    if (!(d >= 0 && d <= UINT32_MAX)) return bad(c, "a rope dimension out of range", err);
    json_t *v = json_integer((json_int_t)d);
    return !v || json_object_set_new(c->config, key, v) ? nomem(err) : LGG_OK;
}

static lgg_status laguna_init(lgg_convert *c, lgg_error *err) {
    int64_t n = lgg__cv_hparam_int(c, "num_hidden_layers", -1), hd = lgg__cv_hparam_int(c, "head_dim", -1);
    if (n < 0 || n > (1 << 20) || hd < 0 || hd > (1 << 20)) return bad(c, "num_hidden_layers or head_dim missing", err);
    const json_t *per = json_object_get(c->config, "num_attention_heads_per_layer");
    json_t *heads = lgg__cv_py_truthy(per) ? json_deep_copy(per) : json_array();
    for (int64_t i = 0; heads && !lgg__cv_py_truthy(per) && i < n; i++)
        if (json_array_append(heads, json_object_get(c->config, "num_attention_heads"))) json_decref(heads), heads = NULL;
    if (!heads) return nomem(err);
    int ok = json_is_array(heads) && json_array_size(heads) == (size_t)n;
    for (size_t i = 0; ok && i < json_array_size(heads); i++) {
        const json_t *h = json_array_get(heads, i);
        ok = json_is_integer(h) && json_integer_value(h) >= 0 && json_integer_value(h) <= INT32_MAX;
    }
    if (!ok || json_object_set_new(c->config, "lgg.heads", heads))
        return ok ? nomem(err) : bad(c, "num_attention_heads_per_layer (or num_attention_heads) is not one count a layer", err);
    const json_t *types = json_object_get(c->config, "mlp_layer_types");
    if (!json_is_array(types)) return bad(c, "mlp_layer_types is missing", err);
    size_t lead = 0;
    while (lead < json_array_size(types) && json_is_string(json_array_get(types, lead)) &&
           !strcmp(json_string_value(json_array_get(types, lead)), "dense"))
        lead++;
    const json_t *rp = lgg__cv_master_rope_params(c);
    if (!json_is_object(json_object_get(rp, "full_attention"))) return bad(c, "rope_parameters has no full_attention", err);
    lgg_status st = json_object_set_new(c->config, "lgg.leading", json_integer((json_int_t)lead)) ? nomem(err) : LGG_OK;
    if (!st) st = rope_dim(c, rp, "full_attention", "lgg.rope_dim", hd, err);
    if (!st && json_is_object(json_object_get(rp, "sliding_attention"))) st = rope_dim(c, rp, "sliding_attention", "lgg.rope_dim_swa", hd, err);
    if (!st && json_object_set_new(c->config, "lgg.norm", json_true())) st = nomem(err);
    return st ? st : gate_types(c, n, err);
}

/* set_gguf_parameters' keys after the heads of each layer (lgg.*: laguna_init's values). */
static const cv_mkey LAGUNA_TAIL[] = {
    {"attention.sliding_window", "sliding_window", CV_M_U32, CV_M_NONZERO},
    {"expert_feed_forward_length", "moe_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_shared_feed_forward_length", "shared_expert_intermediate_size", CV_M_U32, CV_M_REQUIRED},
    {"expert_weights_norm", "lgg.norm", CV_M_BOOL, CV_M_REQUIRED},
    {"expert_weights_scale", "moe_routed_scaling_factor", CV_M_F32, CV_M_REQUIRED},
    {"expert_gating_func", "2", CV_M_U32_CONST, 0},
    {"leading_dense_block_count", "lgg.leading", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count", "lgg.rope_dim", CV_M_U32, CV_M_REQUIRED},
    {"rope.dimension_count_swa", "lgg.rope_dim_swa", CV_M_U32, 0},
    {NULL, NULL, 0, 0},
};

/* After vocab_size: the heads of each layer over the base's count, then LAGUNA_TAIL. */
static lgg_status laguna_meta(lgg_convert *c, lgg_error *err) {
    const json_t *heads = json_object_get(c->config, "lgg.heads");
    size_t n = json_array_size(heads);
    int32_t *v = malloc(n ? n * sizeof *v : 1);
    if (!v) return nomem(err);
    for (size_t i = 0; i < n; i++) v[i] = (int32_t)json_integer_value(json_array_get(heads, i));
    char key[96];
    snprintf(key, sizeof key, "%s.attention.head_count", c->fam->arch);
    lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_I32, n, v};
    lgg_status st = lgg_writer_set(c->w, key, strlen(key), &a, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set '%s'", key) : LGG_OK;
    free(v);
    return st ? st : lgg__cv_meta_keys(c, LAGUNA_TAIL, err);
}

/* g_proj's rows: the layer's heads (per-head gate) or heads x head_dim (per element), as master checks them. */
static lgg_status laguna_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!lgg__cv_ends_with(t->src_name, "self_attn.g_proj.weight") || strncmp(t->name, "blk.", 4)) return LGG_OK;
    size_t bid = (size_t)strtoull(t->name + 4, NULL, 10);
    const json_t *h = json_array_get(json_object_get(c->config, "lgg.heads"), bid);
    int64_t rows = json_integer_value(h) * (json_is_true(json_array_get(json_object_get(c->config, "lgg.gate_elem"), bid))
                                                ? lgg__cv_hparam_int(c, "head_dim", 0) : 1);
    if (!h || t->n_dims != 2 || t->n_units != (uint64_t)rows)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': its rows contradict the declared attention gate (config.json)",
                            c->dir, t->src_name);
    return LGG_OK;
}

/* The first eos_token_id of config.json's list that is not bos_token_id, as tokenizer.ggml.eot_token_id. */
static lgg_status eot_from_eos(lgg_convert *c, lgg_error *err) {
    const json_t *eos = json_object_get(c->config, "eos_token_id"), *bos = json_object_get(c->config, "bos_token_id");
    for (size_t i = 0; json_is_array(eos) && i < json_array_size(eos); i++) {
        const json_t *e = json_array_get(eos, i);
        if (json_equal(e, bos)) continue;
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > UINT32_MAX)
            return bad(c, "an eos_token_id that is not a token id", err);
        return lgg_writer_set_u32(c->w, "tokenizer.ggml.eot_token_id", (uint32_t)json_integer_value(e), NULL) ? nomem(err) : LGG_OK;
    }
    return LGG_OK;
}

static lgg_status laguna_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const cv_vocab_style LAGUNA = {"gpt2", NULL, 0, 0, "</assistant>"};
    lgg_status st = lgg__cv_vocab_json(c, tc, o, &LAGUNA, err);
    if (!st && lgg__cv_exists(c, "chat_template.jinja", NULL)) {
        json_t *t = NULL;
        st = lgg__cv_text_file(c, "chat_template.jinja", &t, err);
        if (!st && lgg_writer_set_str(c->w, "tokenizer.chat_template", json_string_value(t), NULL)) st = nomem(err);
        json_decref(t);
    }
    return st ? st : eot_from_eos(c, err);
}

const cv_hooks lgg__cv_hooks_laguna = {laguna_init, lgg__cv_master_text_name, laguna_tensor, laguna_meta, laguna_vocab, NULL};
