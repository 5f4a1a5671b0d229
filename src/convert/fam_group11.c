/* fam_group11.c -- what issue 25's group-11 families do in code (the rest
 * of each is a row of families.c): CodeShell's output matrix copied from
 * the token embeddings when the checkpoint has none, Chameleon's dropped
 * image tokenizer, its per-head q/k norms rebuilt from the first head and
 * its swin_norm key, Refact's computed feed-forward width, split kv and
 * gate_up matrices, Xverse's k permutation and vocabulary, Jais's scales
 * and max_alibi_bias, OpenELM's per-layer keys and split feed-forward. */
#include "cvint.h"

#include <math.h>
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

/* Xverse undoes HF's k permutation with num_attention_heads //
 * num_key_value_heads heads when the two differ (not the kv head count). */
static lgg_status xverse_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", 0), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", nh);
    if (!(t->xform & CV_X_PERM_K) || nkv == nh) return LGG_OK;
    t->heads = lgg__cv_heads_ok(nh) && lgg__cv_heads_ok(nkv) ? (uint64_t)(nh / nkv) : 0;
    uint64_t rows = t->n_units * t->unit / (uint64_t)t->ne[0];
    if (!t->heads || rows % (2 * t->heads))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': %llu rows cannot be permuted for %llu heads (config.json)",
                            c->dir, c->shard_names[t->shard], t->src_name, (unsigned long long)rows,
                            (unsigned long long)t->heads);
    return LGG_OK;
}

/* One token of Xverse's vocabulary: its text (NUL becomes "<b'\x00'>", as
 * Python formats the bytes) and type: byte (NUL, <0xNN>), control or
 * user-defined for an added token (special or not), else normal. */
static int32_t xverse_type(const char *tok, size_t len, const json_t *added, int *nul) {
    *nul = len == 1 && tok[0] == 0;
    int hex = len == 6 && !memcmp(tok, "<0x", 3) && tok[5] == '>' && strspn(tok + 3, "0123456789abcdefABCDEF") >= 2;
    if (*nul || hex) return 6;
    const json_t *a = json_object_getn(added, tok, len);
    return a ? (json_is_true(a) ? 3 : 4) : 1;
}

/* Xverse's vocabulary (its set_vocab): tokenizer.json's tokens by id for
 * ids 0 .. vocab_size - 1 (every one must exist), tokenizer.ggml.model
 * "llama", pre "default", types from the added tokens (special flags from
 * tokenizer.json, then tokenizer_config.json's added_tokens_decoder), no
 * scores and no merges; then the special token ids. */
static lgg_status xverse_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    const json_t *vocab = json_object_get(json_object_get(tj, "model"), "vocab"), *at = json_object_get(tj, "added_tokens");
    json_t *added = json_object(), *byid = json_object(); /* content -> special; "id" -> content */
    size_t n = 0, i;
    int64_t max_id = -1;
    const char *k;
    json_t *v, *e;
    if (!json_is_object(vocab)) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: key 'model.vocab' is missing", c->dir);
    if (!added || !byid) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    char idk[32];
    json_object_foreach((json_t *)vocab, k, v) {
        if (st || !json_is_integer(v)) continue;
        snprintf(idk, sizeof idk, "%lld", (long long)json_integer_value(v));
        json_object_set_new(byid, idk, json_string(k));
        if (json_integer_value(v) > max_id) max_id = json_integer_value(v);
    }
    json_array_foreach(at, i, e) {
        const json_t *id = json_object_get(e, "id"), *ct = json_object_get(e, "content");
        if (st || !json_is_integer(id) || !json_is_string(ct)) continue;
        snprintf(idk, sizeof idk, "%lld", (long long)json_integer_value(id));
        const json_t *dec = json_object_get(json_object_get(tc, "added_tokens_decoder"), idk);
        const json_t *sp = json_equal(json_object_get(dec, "content"), (json_t *)ct) && json_object_get(dec, "special")
                               ? json_object_get(dec, "special")
                               : json_object_get(e, "special");
        json_object_set_new(added, json_string_value(ct), json_boolean(json_is_true(sp)));
        json_object_set(byid, idk, (json_t *)ct);
        if (json_integer_value(id) > max_id) max_id = json_integer_value(id);
    }
    int64_t vs = lgg__cv_hparam_int(c, "vocab_size", max_id + 1);
    if (!st && (vs <= 0 || vs > (16 << 20) || max_id >= vs))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: token id %lld is not under vocab_size %lld", c->dir,
                          (long long)max_id, (long long)vs);
    n = st ? 0 : (size_t)vs;
    lgg_str *toks = calloc(n + 1, sizeof *toks);
    int32_t *types = calloc(n + 1, sizeof *types);
    if (!st && (!toks || !types)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (i = 0; !st && i < n; i++) {
        snprintf(idk, sizeof idk, "%zu", i);
        const json_t *t = json_object_get(byid, idk);
        if (!t) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: no token has id %zu (vocab_size %zu)", c->dir, i, n);
            break;
        }
        int nul;
        types[i] = xverse_type(json_string_value(t), json_string_length(t), added, &nul);
        toks[i].ptr = nul ? "<b'\\x00'>" : json_string_value(t);
        toks[i].len = nul ? 9 : json_string_length(t);
    }
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, toks}, yv = {LGG_VT_ARRAY, LGG_VT_I32, n, types};
    if (!st && (lgg_writer_set_str(c->w, "tokenizer.ggml.model", "llama", NULL) ||
                lgg_writer_set_str(c->w, "tokenizer.ggml.pre", "default", NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tv, NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &yv, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's keys");
    free(toks), free(types);
    json_decref(added), json_decref(byid), json_decref(tj);
    return st ? st : lgg__cv_special_vocab(c, tc, n, err);
}

/* Jais: SwiGLU and ALiBi asserted; the embeddings scale
 * (mup_embeddings_scale, else embeddings_scale) and the output's
 * (mup_output_alpha * mup_width_scale, else width_scale), each required. */
static lgg_status jais_scales(lgg_convert *c, double *embd, double *width, lgg_error *err) {
    static const char *const NEED[][2] = {{"activation_function", "swiglu"}, {"position_embedding_type", "alibi"}};
    for (size_t i = 0; i < 2; i++) {
        const char *v = json_string_value(json_object_get(c->config, NEED[i][0]));
        if (!v || strcmp(v, NEED[i][1]))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not \"%s\" (the reference asserts it)",
                                c->dir, NEED[i][0], NEED[i][1]);
    }
    char which[64];
    const json_t *e = lgg__cv_first_key(c->config, "mup_embeddings_scale|embeddings_scale", which, sizeof which);
    const json_t *a = json_object_get(c->config, "mup_output_alpha"), *ws = json_object_get(c->config, "mup_width_scale");
    const json_t *w = json_object_get(c->config, "width_scale");
    if (!json_is_number(e))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'mup_embeddings_scale' is missing (and embeddings_scale too)",
                            c->dir);
    if (a ? !json_is_number(a) || !json_is_number(ws) : !json_is_number(w))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a number", c->dir,
                            a ? "mup_width_scale" : "mup_output_alpha");
    *embd = json_number_value(e);
    *width = a ? json_number_value(a) * json_number_value(ws) : json_number_value(w);
    return LGG_OK;
}

static lgg_status jais_init(lgg_convert *c, lgg_error *err) {
    double e, w;
    return jais_scales(c, &e, &w, err);
}

/* The causal-mask buffers and the ALiBi slopes are not written. */
static int jais_name(const char *hf, char *out, size_t cap) {
    size_t l = strlen(hf);
    if (l >= cap || (l >= 10 && !strcmp(hf + l - 10, ".attn.bias")) || (l >= 18 && !strcmp(hf + l - 18, "relative_pe.slopes")))
        return 0;
    memcpy(out, hf, l + 1);
    return 1;
}

/* The scales, and max_alibi_bias from the slopes' first value (8 without
 * them): -round(log2(slope0) * 2^floor(log2(n_head))). */
static lgg_status jais_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    double e, w;
    int embd = !strcmp(t->name, "token_embd.weight");
    if (!embd && strcmp(t->name, "output.weight")) return LGG_OK;
    lgg_status st = jais_scales(c, &e, &w, err);
    if (st) return st;
    /* torch multiplies an f16 tensor by the scale cast to f16 (in f32, then rounded) */
    t->scale = (float)(embd ? e : w);
    if (t->work == LGG_TYPE_F16) t->scale = lgg_f16_to_f32(lgg__cv_f32_to_f16(t->scale));
    if (!embd) return LGG_OK;
    c->has_max_alibi_bias = 1, c->max_alibi_bias = 8.0f;
    for (size_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            const lgg_st_tensor *x = lgg_st_at(c->shards[s], i);
            size_t l = x->name.len;
            if (l < 18 || strcmp(x->name.ptr + l - 18, "relative_pe.slopes") || !x->size) continue;
            float v;
            void *owned;
            const uint8_t *p;
            if ((st = lgg__cv_src_bytes(c, (uint32_t)s, x, &p, &owned, err)) != LGG_OK) return st;
            lgg_dequantize(x->dtype, p, x->dtype == LGG_TYPE_F32 ? 4 : 2, LGG_LITTLE_ENDIAN, &v, 1);
            free(owned);
            int64_t nh = lgg__cv_hparam_int(c, "n_head", 0);
            if (!(v > 0) || nh <= 0)
                return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': the first slope is not positive (or no n_head)",
                                    c->dir, c->shard_names[s], x->name.ptr);
            double closest = exp2(floor(log2((double)nh)));
            c->max_alibi_bias = (float)-(long long)nearbyint(log2((double)v) * closest); /* Python's round: ties to even */
        }
    return LGG_OK;
}

/* OpenELM: per-layer head counts and feed-forward widths. */
static lgg_status openelm_arrays(const lgg_convert *c, json_t **nq, json_t **nkv, int64_t *ff, size_t cap, lgg_error *err) {
    const json_t *mul = json_object_get(c->config, "ffn_multipliers");
    *nq = json_object_get(c->config, "num_query_heads"), *nkv = json_object_get(c->config, "num_kv_heads");
    int64_t div = lgg__cv_hparam_int(c, "ffn_dim_divisor", 0), d = lgg__cv_hparam_int(c, "model_dim", 0);
    size_t n = c->block_count;
    const char *bad = !json_is_array(mul) || json_array_size(mul) != n ? "ffn_multipliers"
                      : !json_is_array(*nq) || json_array_size(*nq) != n ? "num_query_heads"
                      : !json_is_array(*nkv) || json_array_size(*nkv) != n ? "num_kv_heads"
                      : div <= 0 ? "ffn_dim_divisor" : d <= 0 ? "model_dim" : n > cap ? "num_transformer_layers" : NULL;
    for (size_t i = 0; !bad && i < n; i++) {
        const json_t *m = json_array_get(mul, i);
        if (!json_is_number(m) || json_number_value(m) < 0 || json_number_value(m) > 1e6) bad = "ffn_multipliers";
        else if (!json_is_integer(json_array_get(*nq, i)) || !json_is_integer(json_array_get(*nkv, i))) bad = "num_query_heads";
        else { /* the reference's _make_divisible(multiplier * model_dim, divisor) */
            double v = json_number_value(m) * (double)d;
            int64_t r = (int64_t)(v + (double)div / 2) / div * div;
            if (r < div) r = div;
            if ((double)r < 0.9 * v) r += div;
            ff[i] = r;
        }
    }
    if (bad)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or does not have one entry per layer",
                            c->dir, bad);
    return LGG_OK;
}

/* block_count from num_transformer_layers (the reference's find_hparam
 * override), stored as num_hidden_layers before the converter reads it. */
static lgg_status openelm_init(lgg_convert *c, lgg_error *err) {
    json_t *l = json_object_get(c->config, "num_transformer_layers");
    if (!json_is_integer(l) || json_integer_value(l) < 0 || json_integer_value(l) > 4096)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_transformer_layers' is missing or not a count", c->dir);
    return json_object_set(c->config, "num_hidden_layers", l) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* ffn.proj_1 of block N: its first ffn_dims[N] rows are the gate, the rest up. */
static lgg_status openelm_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strstr(t->name, ".ffn_gate.weight")) return LGG_OK;
    json_t *nq, *nkv;
    int64_t ff[4096];
    lgg_status st = openelm_arrays(c, &nq, &nkv, ff, 4096, err);
    uint64_t bid = strtoull(t->name + 4, NULL, 10); /* "blk.N." */
    return st ? st : split_rows(c, t, (uint64_t)ff[bid < c->block_count ? bid : 0], "ffn_up", err);
}

/* Its keys, all written here: per-layer arrays (INT32, as gguf-py types a
 * list of ints) for the feed-forward widths and the head counts. */
static lgg_status openelm_meta(lgg_convert *c, lgg_error *err) {
    static const uint32_t FILE_TYPES[] = {0, 1, 32, 7}; /* meta.c's: F32, F16, BF16, Q8_0 */
    json_t *nq, *nkv;
    int64_t ff[4096];
    lgg_status st = openelm_arrays(c, &nq, &nkv, ff, 4096, err);
    int64_t hd = lgg__cv_hparam_int(c, "head_dim", -1), ctx = lgg__cv_hparam_int(c, "max_context_length", -1);
    const json_t *base = json_object_get(c->config, "rope_freq_constant");
    if (!st && (hd < 0 || hd > UINT32_MAX || ctx < 0 || ctx > UINT32_MAX || !json_is_number(base)))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or out of range", c->dir,
                          hd < 0 || hd > UINT32_MAX ? "head_dim" : !json_is_number(base) ? "rope_freq_constant" : "max_context_length");
    if (st) return st;
    size_t n = c->block_count;
    int32_t a[3][4096];
    for (size_t i = 0; i < n; i++)
        a[0][i] = (int32_t)ff[i], a[1][i] = (int32_t)json_integer_value(json_array_get(nq, i)),
        a[2][i] = (int32_t)json_integer_value(json_array_get(nkv, i));
    lgg_writer *w = c->w;
    lgg_wvalue ffv = {LGG_VT_ARRAY, LGG_VT_I32, n, a[0]}, qv = {LGG_VT_ARRAY, LGG_VT_I32, n, a[1]},
               kv = {LGG_VT_ARRAY, LGG_VT_I32, n, a[2]};
#define K(name) "openelm." name, strlen("openelm." name)
    if (lgg_writer_set_u32(w, "openelm.block_count", (uint32_t)n, NULL) ||
        lgg_writer_set_u32(w, "openelm.context_length", (uint32_t)ctx, NULL) ||
        lgg_writer_set_u32(w, "openelm.embedding_length", (uint32_t)lgg__cv_hparam_int(c, "model_dim", 0), NULL) ||
        lgg_writer_set(w, K("feed_forward_length"), &ffv, NULL) || lgg_writer_set(w, K("attention.head_count"), &qv, NULL) ||
        lgg_writer_set(w, K("attention.head_count_kv"), &kv, NULL) ||
        lgg_writer_set_f32(w, "openelm.rope.freq_base", (float)json_number_value(base), NULL) ||
        lgg_writer_set_f32(w, "openelm.attention.layer_norm_rms_epsilon", 1e-6f, NULL) ||
        lgg_writer_set_u32(w, "openelm.rope.dimension_count", (uint32_t)hd, NULL) ||
        lgg_writer_set_u32(w, "openelm.attention.key_length", (uint32_t)hd, NULL) ||
        lgg_writer_set_u32(w, "openelm.attention.value_length", (uint32_t)hd, NULL) ||
        lgg_writer_set_u32(w, "general.file_type", FILE_TYPES[c->outtype], NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set OpenELM's keys");
#undef K
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_jais = {jais_init, jais_name, jais_tensor, NULL, NULL};
const cv_hooks lgg__cv_hooks_openelm = {openelm_init, NULL, openelm_tensor, openelm_meta, NULL};
const cv_hooks lgg__cv_hooks_xverse = {NULL, NULL, xverse_tensor, NULL, xverse_vocab};
const cv_hooks lgg__cv_hooks_refact = {refact_init, NULL, refact_tensor, NULL, refact_vocab};
const cv_hooks lgg__cv_hooks_codeshell = {NULL, NULL, codeshell_tensor, NULL, NULL};
const cv_hooks lgg__cv_hooks_chameleon = {NULL, chameleon_name, chameleon_tensor, chameleon_meta, NULL};
