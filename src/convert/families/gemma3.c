/* gemma3.c -- Gemma 3 as llama.cpp master (3f545becc) converts it
 * (conversion/gemma.py's Gemma3Model and EmbeddingGemma): the text part of
 * Gemma3ForConditionalGeneration (text_config over the top level, the
 * vision tower and projector dropped, "language_model." taken out of the
 * names), EmbeddingGemma's names without "model.", the token embedding cut
 * to the tokenizer's size, Gemma 3's parameters written over master's base
 * ones (with its defaults where config.json has none), the vocabulary from
 * tokenizer.model when there is one (else tokenizer.json's BPE), and
 * EmbeddingGemma's sliding window and pooling. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Master's TextModel: hparams = {**config, **config["text_config"]};
 * Gemma3Model asserts attn_logit_softcapping is None. */
static lgg_status gemma3_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    if (st) return st;
    const json_t *cap = json_object_get(c->config, "attn_logit_softcapping");
    if (cap && !json_is_null(cap))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: attn_logit_softcapping is set, which Gemma 3 does not have (llama.cpp "
                            "master refuses it)", c->dir);
    return LGG_OK;
}

/* The multimodal tensors dropped; every "language_model." taken out (ModelBase.filter_tensors);
 * EmbeddingGemma's "layers.N...", "embed_tokens" and "norm" (which gguf-py maps as the
 * "model." ones) given the prefix the shared map knows them by. */
static int gemma3_name(const char *hf, char *out, size_t cap) {
    if (lgg__cv_master_multimodal(hf)) return 0;
    static const char *const BARE[] = {"layers.", "embed_tokens.", "norm."};
    size_t o = 0;
    for (size_t i = 0; i < 3; i++)
        if (!strncmp(hf, BARE[i], strlen(BARE[i]))) o = (size_t)snprintf(out, cap, "model.");
    return lgg__cv_master_strip(hf, "language_model.", out, o, cap) != 0;
}

/* The tokenizer's size master cuts the token embedding to: tokenizer.model's
 * vocabulary (vocab_size_per_layer_input or vocab_size, else its pieces),
 * else tokenizer.json's vocab and added tokens together. */
static lgg_status real_vocab(lgg_convert *c, uint64_t *n, lgg_error *err) {
    if (lgg__cv_exists(c, "tokenizer.model", NULL)) {
        char which[64];
        const json_t *v = lgg__cv_first_key(c->config, "vocab_size_per_layer_input|vocab_size", which, sizeof which);
        if (json_is_integer(v) && json_integer_value(v) > 0) {
            *n = (uint64_t)json_integer_value(v);
            return LGG_OK;
        }
        void *map = NULL;
        size_t size = 0;
        lgg_spm *spm = NULL;
        lgg_error e;
        lgg_status st = lgg__cv_map_file(c, "tokenizer.model", &map, &size, err);
        if (!st && (st = lgg_spm_parse(map, size, &spm, &e)) != LGG_OK) st = lgg__cv_fail(err, st, "%s/%s", c->dir, e.message);
        if (!st) *n = lgg_spm_count(spm);
        lgg_spm_free(spm);
        free(map);
        return st;
    }
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    const json_t *vocab = json_object_get(json_object_get(tj, "model"), "vocab");
    *n = (json_is_object(vocab) ? json_object_size(vocab) : json_array_size(vocab)) +
         json_array_size(json_object_get(tj, "added_tokens"));
    json_decref(tj);
    return LGG_OK;
}

/* The token embedding without the rows past the tokenizer's ("out of vocabulary"). */
static lgg_status gemma3_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strstr(t->src_name, "embed_tokens.weight") || t->n_dims != 2) return LGG_OK;
    uint64_t n = 0;
    lgg_status st = real_vocab(c, &n, err);
    if (!st && n < t->n_units) t->ne[1] = (int64_t)n, t->n_units = n;
    return st;
}

/* config.json's `field` (the default when absent) as <arch>.KEY, a u32 or
 * an f32; a null or a value of another kind is refused (master fails on it). */
static lgg_status put_num(lgg_convert *c, const char *key, const char *field, double dflt, int f32, lgg_error *err) {
    const json_t *v = json_object_get(c->config, field);
    double x = v ? json_number_value(v) : dflt;
    char k[160];
    snprintf(k, sizeof k, "%s.%s", c->fam->arch, key);
    if (v && (!json_is_number(v) || (!f32 && (!json_is_integer(v) || x < 0 || x > 4294967295.0))))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a %s", c->dir, field,
                            f32 ? "number" : "32-bit count");
    lgg_status st = f32 ? lgg_writer_set_f32(c->w, k, (float)x, NULL) : lgg_writer_set_u32(c->w, k, (uint32_t)x, NULL);
    return st ? lgg__cv_fail(err, st, "cannot set metadata key '%s'", k) : LGG_OK;
}

/* Gemma3Model.set_gguf_parameters after master's base: its values written
 * over the base's (in place) or after them, in its order. */
static lgg_status gemma3_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = put_num(c, "context_length", "max_position_embeddings", 131072, 0, err);
    if (!st) st = put_num(c, "attention.head_count", "num_attention_heads", 8, 0, err);
    if (!st) st = put_num(c, "attention.layer_norm_rms_epsilon", "rms_norm_eps", 1e-6, 1, err);
    if (!st) st = put_num(c, "attention.key_length", "head_dim", 256, 0, err);
    if (!st) st = put_num(c, "attention.value_length", "head_dim", 256, 0, err);
    const json_t *theta = NULL;
    if (!st && lgg__cv_master_theta(c, 0, &theta) && !json_is_number(theta))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the rope theta is not a number", c->dir);
    char key[160];
    snprintf(key, sizeof key, "%s.rope.freq_base", c->fam->arch);
    if (!st && lgg_writer_set_f32(c->w, key, theta ? (float)json_number_value(theta) : 1e6f, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key);
    const json_t *soft = json_object_get(c->config, "final_logit_softcapping");
    if (!st && soft && !json_is_null(soft) && !(json_is_number(soft) && json_number_value(soft) == 0))
        st = put_num(c, "final_logit_softcapping", "final_logit_softcapping", 0, 1, err);
    const json_t *pat = json_object_get(c->config, "sliding_window_pattern");
    if (!st && !(json_is_number(pat) && json_number_value(pat) == 1)) {
        if (!json_is_integer(json_object_get(c->config, "sliding_window")))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window' is missing or not a count", c->dir);
        st = put_num(c, "attention.sliding_window", "sliding_window", 0, 0, err);
    }
    if (!st) st = put_num(c, "attention.head_count_kv", "num_key_value_heads", 4, 0, err);
    return st;
}

/* ---- sentence-transformers' Dense modules (lgg_convert_options.sentence_transformers_dense_modules) ---- */

/* One Dense module: its folder and the prefix master names its tensors and keys with. */
typedef struct dense_mod {
    char path[200];
    const char *prefix;                /* "dense_2" for 2_Dense, "dense_3" for any other */
} dense_mod;

/* modules.json's Dense modules whose folder holds a model.safetensors, in its order (at most 8). */
static lgg_status dense_modules(lgg_convert *c, dense_mod *out, size_t *n, lgg_error *err) {
    json_t *mods = NULL;
    lgg_status st = lgg__cv_json_value(c, "modules.json", 0, &mods, err);
    size_t i;
    const json_t *m;
    *n = 0;
    json_array_foreach(st ? NULL : mods, i, m) {
        const char *ty = json_string_value(json_object_get(m, "type")), *path = json_string_value(json_object_get(m, "path"));
        size_t k = ty ? strlen(ty) : 0;
        char file[300];
        if (k < 5 || strcmp(ty + k - 5, "Dense") || !path) continue;
        if (path[0] == '/' || strstr(path, "..") || strlen(path) >= sizeof out->path || *n == 8) {
            st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/modules.json: the Dense module's path '%.100s' is not a "
                              "folder of the checkpoint (or there are more than 8)", c->dir, path);
            break;
        }
        snprintf(file, sizeof file, "%s/model.safetensors", path);
        if (!lgg__cv_exists(c, file, NULL)) continue; /* master skips a module without its weights */
        snprintf(out[*n].path, sizeof out->path, "%s", path);
        out[(*n)++].prefix = !strcmp(path, "2_Dense") ? "dense_2" : "dense_3";
    }
    json_decref(mods);
    return st;
}

/* The GGUF name of a Dense module's tensor `name` ("linear" replaced by the
 * prefix everywhere, as master does): PREFIX.weight or PREFIX_out.weight. */
static int dense_name(const char *name, const char *prefix, char *out, size_t cap) {
    char orig[256];
    size_t o = 0;
    for (const char *p = name; *p && o + 16 < sizeof orig;)
        if (!strncmp(p, "linear", 6)) o += (size_t)snprintf(orig + o, sizeof orig - o, "%s", prefix), p += 6;
        else orig[o++] = *p++;
    orig[o] = 0;
    snprintf(out, cap, "%s.weight", prefix);
    if (!strcmp(orig, out)) return 1;
    char alt[64];
    snprintf(alt, sizeof alt, "%s_out.weight", prefix);
    return !strcmp(orig, alt);
}

/* t of extra shard sh, to be added as `name` (plan adds them in order). */
static lgg_status extra(lgg_convert *c, uint32_t sh, const lgg_st_tensor *t, const char *name, lgg_error *err) {
    cv_extra *v = c->n_extra_t < 64 ? realloc(c->extra_t, (c->n_extra_t + 1) * sizeof *v) : NULL;
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory (or more than 64 module tensors)");
    c->extra_t = v;
    v[c->n_extra_t].shard = sh, v[c->n_extra_t].t = t;
    snprintf(v[c->n_extra_t++].name, sizeof v->name, "%s", name);
    return LGG_OK;
}

/* Master's generate_extra_tensors for EmbeddingGemma: each module's
 * *.weight tensors, before the model's. */
static lgg_status dense_tensors(lgg_convert *c, lgg_error *err) {
    dense_mod mods[8];
    size_t n = 0;
    lgg_status st = c->st_dense ? dense_modules(c, mods, &n, err) : LGG_OK;
    for (size_t i = 0; !st && i < n; i++) {
        char file[300], gguf[64];
        uint32_t sh = 0;
        snprintf(file, sizeof file, "%.199s/model.safetensors", mods[i].path);
        st = lgg__cv_open_extra_shard(c, file, &sh, err);
        for (size_t k = 0; !st && k < lgg_st_count(c->shards[sh]); k++) {
            const lgg_st_tensor *t = lgg_st_at(c->shards[sh], k);
            if (!lgg__cv_ends_with(t->name.ptr, ".weight")) continue;
            if (!dense_name(t->name.ptr, mods[i].prefix, gguf, sizeof gguf))
                st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': no GGUF name for it (a Dense module's "
                                  "linear.weight)", c->dir, file, t->name.ptr);
            else st = extra(c, sh, t, gguf, err);
        }
    }
    return st;
}

/* <arch>.PREFIX_feat_in and _feat_out from each module's config.json
 * (in_features, out_features; skipped when either is null or it has no
 * config.json), a later module of the same prefix giving the values. */
static lgg_status dense_dims(lgg_convert *c, lgg_error *err) {
    dense_mod mods[8];
    size_t n = 0, nd = 0;
    json_int_t dim[8][2];
    const char *pre[8];
    lgg_status st = c->st_dense ? dense_modules(c, mods, &n, err) : LGG_OK;
    for (size_t i = 0; !st && i < n; i++) {
        char file[300];
        json_t *mc = NULL;
        snprintf(file, sizeof file, "%.199s/config.json", mods[i].path);
        if (!lgg__cv_exists(c, file, NULL)) continue;
        if ((st = lgg__cv_json(c, file, 1, &mc, err))) break;
        const json_t *in = json_object_get(mc, "in_features"), *out = json_object_get(mc, "out_features");
        if (!in || !out || (!json_is_null(in) && !json_is_integer(in)) || (!json_is_null(out) && !json_is_integer(out)) ||
            (json_is_integer(in) && (json_integer_value(in) < 0 || json_integer_value(in) > UINT32_MAX)) ||
            (json_is_integer(out) && (json_integer_value(out) < 0 || json_integer_value(out) > UINT32_MAX)))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: in_features and out_features must be counts or null", c->dir, file);
        else if (json_is_integer(in) && json_is_integer(out)) {
            size_t k = 0;
            while (k < nd && strcmp(pre[k], mods[i].prefix)) k++;
            pre[k] = mods[i].prefix, dim[k][0] = json_integer_value(in), dim[k][1] = json_integer_value(out);
            nd += k == nd;
        }
        json_decref(mc);
    }
    for (size_t k = 0; !st && k < nd; k++)
        for (int j = 0; j < 2 && !st; j++) {
            char key[160];
            snprintf(key, sizeof key, "%s.%s_feat_%s", c->fam->arch, pre[k], j ? "out" : "in");
            if (lgg_writer_set_u32(c->w, key, (uint32_t)dim[k][j], NULL))
                st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key);
        }
    return st;
}

/* EmbeddingGemma: Gemma 3's parameters, then config.json's own sliding
 * window (required), the Dense modules' sizes and the pooling type. */
static lgg_status embedding_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = gemma3_meta(c, err);
    if (st) return st;
    const json_t *sw = json_object_get(c->config, "sliding_window");
    if (!sw || json_is_null(sw))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window' is missing (EmbeddingGemma needs it)",
                            c->dir);
    st = put_num(c, "attention.sliding_window", "sliding_window", 0, 0, err);
    if (!st) st = dense_dims(c, err);
    return st ? st : lgg__cv_master_pooling(c, err);
}

/* tokenizer.model (SentencePiece, no space prefix) when there is one, else tokenizer.json's BPE. */
static lgg_status gemma3_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (!lgg__cv_exists(c, "tokenizer.model", NULL)) return lgg__cv_bpe(c, tc, o, err);
    lgg_status st = lgg__cv_spm(c, tc, err);
    if (!st && lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", false, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_space_prefix");
    return st;
}

const cv_hooks lgg__cv_hooks_gemma3 = {gemma3_init, gemma3_name, gemma3_tensor, gemma3_meta, gemma3_vocab, NULL};
const cv_hooks lgg__cv_hooks_gemma_embedding = {gemma3_init, gemma3_name, gemma3_tensor, embedding_meta, gemma3_vocab,
                                                dense_tensors};
