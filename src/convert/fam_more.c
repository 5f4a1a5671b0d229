/* fam_more.c -- what the smaller families of issue 25's last group do in
 * code in the reference converter: Qwen2-VL's text part (the vision
 * tower's tensors skipped, its multimodal rope sections) and BLOOM (its
 * keys, the fused q/k/v regrouped, the embeddings written again as the
 * output when the checkpoint has no head), MPT (its keys), Baichuan (its
 * packed q/k/v split), DBRX (its keys, expert layout and output types). */
#include "cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vision tower (visual.*) is not part of the text model. */
static int qwen2vl_name(const char *hf, char *out, size_t cap) {
    if (!strncmp(hf, "visual.", 7)) return 0;
    snprintf(out, cap, "%s", hf);
    return strlen(hf) < cap;
}

/* rope_scaling.mrope_section, padded with zeros to four entries (INT32). */
static lgg_status qwen2vl_meta(lgg_convert *c, lgg_error *err) {
    const json_t *ms = json_object_get(json_object_get(c->config, "rope_scaling"), "mrope_section");
    size_t n = json_array_size(ms), i;
    if (!json_is_array(ms) || n > 64)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.mrope_section' is missing or not a short list",
                            c->dir);
    int32_t v[64] = {0};
    const json_t *e;
    json_array_foreach(ms, i, e) {
        if (!json_is_integer(e) || json_integer_value(e) < INT32_MIN || json_integer_value(e) > INT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rope_scaling.mrope_section[%zu] is not a 32-bit integer",
                                c->dir, i);
        v[i] = (int32_t)json_integer_value(e);
    }
    char key[96];
    snprintf(key, sizeof key, "%s.rope.dimension_sections", c->fam->arch);
    lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_I32, n < 4 ? 4 : n, v};
    return lgg_writer_set(c->w, key, strlen(key), &arr, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

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

/* The fused q/k/v, per head (q, k, v) in the checkpoint, becomes all
 * heads' q, then k, then v (data.c's CV_X_QKV_BY_HEAD row order); the
 * embeddings are also the output when no lm_head.weight or output.weight
 * is in the checkpoint. */
static lgg_status bloom_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strstr(t->name, ".attn_qkv.")) {
        int64_t nh = lgg__cv_hparam_int(c, "n_head", lgg__cv_hparam_int(c, "num_attention_heads", 0));
        if (t->n_dims == 1) t->unit = 1, t->n_units = (uint64_t)t->ne[0];
        if (!lgg__cv_heads_ok(nh) || t->n_units % (3 * (uint64_t)nh))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %llu rows are not 3 x n_head (config.json) parts",
                                c->dir, t->src_name, (unsigned long long)t->n_units);
        t->heads = (uint64_t)nh;
        t->xform |= CV_X_QKV_BY_HEAD;
    }
    if (strcmp(t->name, "token_embd.weight") || has_tensor(c, "lm_head.weight") || has_tensor(c, "output.weight"))
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
    static const uint32_t FILE_TYPES[] = {0, 1, 32, 7}; /* meta.c's: F32, F16, BF16, Q8_0 */
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
        lgg_writer_set_u32(c->w, "general.file_type", FILE_TYPES[c->outtype], NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    return LGG_OK;
}

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

/* Baichuan's W_pack (q, k and v stacked) becomes attn_q and attn_k, each
 * with llama's row permutation (k's heads: num_attention_heads /
 * num_key_value_heads when they differ, as the reference divides), and
 * attn_v: three views of the one source tensor, one after another. */
static lgg_status baichuan_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strstr(t->name, ".attn_qkv.weight")) return LGG_OK;
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", 0), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", nh);
    if (!lgg__cv_heads_ok(nh) || (nkv != nh && !lgg__cv_heads_ok(nkv))) nh = nkv = 0; /* refused below */
    uint64_t r = t->n_units / 3, heads[3] = {(uint64_t)nh, (uint64_t)(nkv > 0 && nkv != nh ? nh / nkv : nh), 1};
    for (int k = 0; k < 2; k++)
        if (t->n_dims != 2 || t->n_units % 3 || heads[k] == 0 || r % (2 * heads[k]))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %llu rows cannot be split in three and permuted for %llu heads",
                                c->dir, t->src_name, (unsigned long long)t->n_units, (unsigned long long)heads[k]);
    static const char *const part[3] = {"attn_q", "attn_k", "attn_v"};
    static const unsigned perm[3] = {CV_X_PERM_Q, CV_X_PERM_K, 0};
    const char *dot = strstr(t->name, ".attn_qkv.weight");
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%.*s", (int)(dot - t->name), t->name);
    cv_tensor base = *t;
    free(t->name);
    c->n_t--; /* t's slot is the first of the three */
    for (int k = 0; k < 3; k++) {
        cv_tensor *o = lgg__cv_new_tensor(c, err);
        if (!o) return LGG_ERR_NOMEM;
        *o = base;
        o->name = malloc(strlen(prefix) + 16);
        if (!o->name) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        sprintf(o->name, "%s.%s.weight", prefix, part[k]);
        o->ne[1] = (int64_t)r, o->n_units = r, o->row_skip = r * (uint64_t)k;
        o->xform |= perm[k], o->heads = heads[k];
        c->n_t++;
    }
    return LGG_OK;
}

/* DBRX: every tensor of more than one dimension (norms aside) takes the
 * output type, the router and the experts too (the reference's
 * tensor_force_quant); the experts (E x n_ff rows of d_model, no .weight)
 * become 3-D, w2 with each expert transposed. */
static lgg_status dbrx_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    static const uint32_t TYPES[] = {LGG_TYPE_F32, LGG_TYPE_F16, LGG_TYPE_BF16, LGG_TYPE_Q8_0};
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
        t->type = TYPES[c->outtype];
        if (t->type == LGG_TYPE_Q8_0 && t->ne[0] % 32) t->type = LGG_TYPE_F16;
    }
    return LGG_OK;
}

static lgg_status dbrx_meta(lgg_convert *c, lgg_error *err) {
    static const uint32_t FILE_TYPES[] = {0, 1, 32, 7}; /* meta.c's: F32, F16, BF16, Q8_0 */
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
    if (lgg_writer_set_f32(c->w, key, 1e-5f, NULL) || lgg_writer_set_u32(c->w, "general.file_type", FILE_TYPES[c->outtype], NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_qwen2vl = {NULL, qwen2vl_name, NULL, qwen2vl_meta, NULL};
const cv_hooks lgg__cv_hooks_bloom = {NULL, bloom_name, bloom_tensor, bloom_meta, NULL};
const cv_hooks lgg__cv_hooks_mpt = {NULL, NULL, NULL, mpt_meta, NULL};
const cv_hooks lgg__cv_hooks_baichuan = {NULL, NULL, baichuan_tensor, NULL, NULL};
const cv_hooks lgg__cv_hooks_dbrx = {NULL, NULL, dbrx_tensor, dbrx_meta, NULL};
