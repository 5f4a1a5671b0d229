/* hunyuan.c -- Hunyuan dense V1 (HunYuanDenseV1ForCausalLM, hunyuan-dense)
 * and the text of HunyuanOCR/HunyuanVL (HunYuanVLForConditionalGeneration,
 * hunyuan_vl) as llama.cpp master (3f545becc) converts them
 * (conversion/hunyuan.py's HunYuanModel and HunyuanVLTextModel):
 *   init    num_experts left out of the base parameters (master pops it);
 *           pad_token_id < 0: no padding token read at all; transformers
 *           5.13's "dynamic" rope with mrope_section read as xdrope
 *   meta    NTK-alpha rope ("dynamic", "xdrope"): freq_base
 *           theta * alpha^(head_dim / (head_dim - 2)), scaling type none,
 *           factor 1, and for "dynamic" a 256k context (master asserts theta
 *           10000 and a 32k or 256k max_position_embeddings); HunyuanVL's
 *           xdrope then the theta itself, alpha, factor, the context and the
 *           xdrope sections
 *   vocab   tokenizer.json's BPE, then config.json's eod_token_id as the EOS
 *           and generation_config.json's first eos_token_id (of two or
 *           more) as the EOT; the hy.tiktoken path (the checkpoint's own
 *           tokenization_hy.py) is refused
 *   tensor  lm_head dropped when tie_word_embeddings.
 * And HY V3 (HYV3ForCausalLM, hy_v3: conversion/hunyuan.py's HYV3Model): the
 * next-token-prediction blocks past num_hidden_layers counted in the block
 * count unless --no-mtp, their final_layernorm the shared head's norm; the
 * expert keys' values (shared width moe_intermediate_size x
 * num_shared_experts, route_norm default true, router_scaling_factor
 * default 1) as lgg.* for families.c's HYV3_META. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_vl(const lgg_convert *c) { return !strcmp(c->fam->arch, "hunyuan_vl"); }

/* master's rope_parameters' rope_type (its "type" mirrored when absent): "" when none. */
static const char *rope_type(const lgg_convert *c) {
    char which[32];
    const json_t *ty = lgg__cv_first_key(lgg__cv_master_rope_params(c), "rope_type|type", which, sizeof which);
    return json_is_string(ty) ? json_string_value(ty) : "";
}

static int ntk_rope(const lgg_convert *c) { return !strcmp(rope_type(c), "dynamic") || !strcmp(rope_type(c), "xdrope"); }

static lgg_status oom(lgg_error *err) { return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory"); }

/* HunyuanVLTextModel.__init__: "dynamic" with mrope_section is xdrope, its
 * sections a copy of mrope_section. */
static lgg_status vl_xdrope(lgg_convert *c, lgg_error *err) {
    json_t *rp = (json_t *)lgg__cv_master_rope_params(c);
    json_t *ms = rp ? json_object_get(rp, "mrope_section") : NULL;
    if (!ms || strcmp(rope_type(c), "dynamic")) return LGG_OK;
    json_t *copy = json_deep_copy(ms);
    if (!copy || json_object_set_new(rp, "xdrope_section", copy) || json_object_set_new(rp, "rope_type", json_string("xdrope")) ||
        json_object_set_new(rp, "type", json_string("xdrope")))
        return oom(err);
    return LGG_OK;
}

static lgg_status hunyuan_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = is_vl(c) ? vl_xdrope(c, err) : LGG_OK;
    if (st) return st;
    json_object_del(c->config, "num_experts"); /* popped before the base parameters; a MoE's is never read again */
    const json_t *pad = json_object_get(c->config, "pad_token_id");
    if (json_is_integer(pad) && json_integer_value(pad) < 0) c->no_pad_special = 1;
    if (!ntk_rope(c)) return LGG_OK;
    const json_t *hd = json_object_get(c->config, "head_dim");
    if (!json_is_integer(hd) || json_integer_value(hd) < 3 || json_integer_value(hd) > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'head_dim' is missing or not a count above 2 (NTK-alpha rope)",
                            c->dir);
    const json_t *th, *alpha = json_object_get(lgg__cv_master_rope_params(c), "alpha");
    if ((lgg__cv_master_theta(c, 0, &th) && !json_is_number(th)) || (alpha && !json_is_number(alpha)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the rope's 'rope_theta' or 'alpha' is not a number", c->dir);
    if (strcmp(rope_type(c), "dynamic")) return LGG_OK;
    const json_t *ctx = json_object_get(c->config, "max_position_embeddings");
    json_int_t n = json_is_integer(ctx) ? json_integer_value(ctx) : 0;
    if ((th && json_number_value(th) != 10000.0) || (n != 32 * 1024 && n != 256 * 1024))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: Hunyuan's dynamic (NTK-alpha) rope is converted for rope_theta 10000 and "
                            "max_position_embeddings 32768 or 262144 only (llama.cpp master's assumptions)",
                            c->dir);
    return LGG_OK;
}


static lgg_status scaling_none(lgg_convert *c, lgg_error *err) {
    return lgg__cv_put_arch_str(c, "rope.scaling.type", "none", err);
}

/* HunyuanVLTextModel's xdrope keys (over those HunYuanModel wrote). */
static lgg_status vl_meta(lgg_convert *c, lgg_error *err) {
    const json_t *rp = lgg__cv_master_rope_params(c), *th;
    const json_t *alpha = json_object_get(rp, "alpha"), *f = json_object_get(rp, "factor"), *sec = json_object_get(rp, "xdrope_section");
    const json_t *ctx = json_object_get(c->config, "max_position_embeddings");
    int32_t s[16];
    size_t ns = json_array_size(sec);
    for (size_t i = 0; i < ns && i < 16; i++) {
        const json_t *e = json_array_get(sec, i);
        s[i] = json_is_integer(e) && json_integer_value(e) >= INT32_MIN && json_integer_value(e) <= INT32_MAX ? (int32_t)json_integer_value(e) : 0;
        if (!json_is_integer(e) || (json_int_t)s[i] != json_integer_value(e)) ns = 0;
    }
    if (!lgg__cv_master_theta(c, 0, &th) || !json_is_number(alpha) || (f && !json_is_number(f)) || !ns || ns > 16 ||
        !json_is_integer(ctx) || json_integer_value(ctx) < 0 || json_integer_value(ctx) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: HunyuanVL's xdrope needs rope_theta, alpha, a list of at most 16 integer "
                            "xdrope_section, a number factor and a max_position_embeddings count",
                            c->dir);
    uint32_t n = (uint32_t)json_integer_value(ctx);
    lgg_status st = lgg__cv_put_arch_f32(c, "rope.freq_base", json_number_value(th), err);
    if (!st) st = lgg__cv_put_arch_f32(c, "rope.scaling.alpha", json_number_value(alpha), err);
    if (!st) st = scaling_none(c, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "rope.scaling.factor", f ? json_number_value(f) : 1.0, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "rope.scaling.original_context_length", n, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "context_length", n, err);
    char key[64];
    int kl = snprintf(key, sizeof key, "%s.rope.dimension_sections", c->fam->arch);
    lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_I32, ns, s};
    if (!st && lgg_writer_set(c->w, key, (size_t)kl, &a, NULL)) st = oom(err);
    return st;
}

static lgg_status hunyuan_meta(lgg_convert *c, lgg_error *err) {
    if (!ntk_rope(c)) return LGG_OK;
    const json_t *th, *alpha = json_object_get(lgg__cv_master_rope_params(c), "alpha");
    double base = lgg__cv_master_theta(c, 0, &th) ? json_number_value(th) : 10000.0;
    double a = alpha ? json_number_value(alpha) : 50.0, dim = (double)json_integer_value(json_object_get(c->config, "head_dim"));
    lgg_status st = lgg__cv_put_arch_f32(c, "rope.freq_base", base * pow(a, dim / (dim - 2)), err);
    if (!st) st = scaling_none(c, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "rope.scaling.factor", 1.0, err);
    if (!st && !strcmp(rope_type(c), "dynamic")) {
        st = lgg__cv_put_arch_u32(c, "rope.scaling.original_context_length", 256 * 1024, err);
        if (!st) st = lgg__cv_put_arch_u32(c, "context_length", 256 * 1024, err);
    }
    return !st && is_vl(c) && !strcmp(rope_type(c), "xdrope") ? vl_meta(c, err) : st;
}

static lgg_status set_id(lgg_convert *c, const char *key, const json_t *v, const char *where, lgg_error *err) {
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: a token id is not a count", c->dir, where);
    if (lgg_writer_set_u32(c->w, key, (uint32_t)json_integer_value(v), NULL)) return oom(err);
    return LGG_OK;
}

/* HunYuanModel._fix_special_tokens: eod_token_id as the EOS, the first of
 * generation_config.json's eos_token_id list (two or more) as the EOT. */
static lgg_status fix_special(lgg_convert *c, lgg_error *err) {
    const json_t *eod = json_object_get(c->config, "eod_token_id");
    lgg_status st = eod && !json_is_null(eod) ? set_id(c, "tokenizer.ggml.eos_token_id", eod, "config.json", err) : LGG_OK;
    json_t *g = NULL;
    if (!st) st = lgg__cv_json(c, "generation_config.json", 0, &g, err);
    const json_t *eos = json_object_get(g, "eos_token_id");
    if (!st && json_is_array(eos) && json_array_size(eos) >= 2)
        st = set_id(c, "tokenizer.ggml.eot_token_id", json_array_get(eos, 0), "generation_config.json", err);
    json_decref(g);
    return st;
}

static lgg_status hunyuan_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (!lgg__cv_exists(c, "tokenizer.json", NULL))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s: no tokenizer.json: Hunyuan's hy.tiktoken vocabulary is read by llama.cpp master through the "
                            "checkpoint's own tokenization_hy.py (trust_remote_code), which is not reproduced here",
                            c->dir);
    lgg_status st = lgg__cv_bpe(c, tc, o, err);
    return st ? st : fix_special(c, err);
}

/* A config.json integer >= 0 (dflt when absent or null), -1 when it is not one. */
static int64_t count_or(const lgg_convert *c, const char *key, int64_t dflt) {
    const json_t *v = json_object_get(c->config, key);
    if (!v || json_is_null(v)) return dflt;
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= UINT32_MAX ? json_integer_value(v) : -1;
}

static lgg_status set_value(lgg_convert *c, const char *key, json_t *v) {
    return v && !json_object_set_new(c->config, key, v) ? LGG_OK : LGG_ERR_NOMEM;
}

static lgg_status hyv3_init(lgg_convert *c, lgg_error *err) {
    int64_t nl = count_or(c, "num_hidden_layers", -1), nx = count_or(c, "num_nextn_predict_layers", 0);
    int64_t ff = count_or(c, "moe_intermediate_size", -1), sh = count_or(c, "num_shared_experts", 1);
    const json_t *scale = json_object_get(c->config, "router_scaling_factor");
    const char *bad = nl < 0 || nl > (1 << 20) ? "num_hidden_layers" : nx < 0 || nx > (1 << 20) ? "num_nextn_predict_layers"
                      : ff < 0 ? "moe_intermediate_size" : sh < 0 || (uint64_t)ff * (uint64_t)sh > UINT32_MAX ? "num_shared_experts"
                      : scale && !json_is_number(scale) ? "router_scaling_factor" : NULL;
    if (bad) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or out of range", c->dir, bad);
    const json_t *norm = json_object_get(c->config, "route_norm");
    lgg_status st = set_value(c, "lgg.shexp_ff", json_integer(ff * sh));
    if (!st) st = set_value(c, "lgg.route_norm", json_boolean(!norm || lgg__cv_py_truthy(norm)));
    if (!st) st = set_value(c, "lgg.route_scale", json_real(scale ? json_number_value(scale) : 1.0));
    c->mtp_main = (uint64_t)nl;
    if (!st && nx > 0 && c->mtp != LGG_CONVERT_MTP_NONE) {
        st = set_value(c, "num_hidden_layers", json_integer(nl + nx));
        if (!st) st = set_value(c, "lgg.nextn", json_integer(nx));
    }
    return st ? oom(err) : LGG_OK;
}

/* final_layernorm is a next-token-prediction block's (the shared head's norm); master cannot name a main block's. */
static lgg_status hyv3_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const char *at = strstr(t->src_name, ".final_layernorm.");
    if (!at || strncmp(t->src_name, "model.layers.", 13) || strtoull(t->src_name + 13, NULL, 10) >= c->mtp_main) return LGG_OK;
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': a final_layernorm in a block before num_hidden_layers has no GGUF name",
                        c->dir, t->src_name);
}

const cv_hooks lgg__cv_hooks_hy_v3 = {hyv3_init, lgg__cv_master_text_name, hyv3_tensor, NULL, NULL, NULL};

const cv_hooks lgg__cv_hooks_hunyuan = {hunyuan_init, lgg__cv_master_text_name, lgg__cv_drop_tied_head, hunyuan_meta, hunyuan_vocab, NULL};
