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

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* The multimodal tensors dropped; every "language_model." taken out (ModelBase.filter_tensors);
 * EmbeddingGemma's "layers.N...", "embed_tokens" and "norm" (which gguf-py maps as the
 * "model." ones) given the prefix the shared map knows them by. */
static int gemma3_name(const char *hf, char *out, size_t cap) {
    if (lgg__cv_master_multimodal(hf)) return 0;
    static const char *const BARE[] = {"layers.", "embed_tokens.", "norm."};
    size_t o = 0;
    for (size_t i = 0; i < 3; i++)
        if (starts(hf, BARE[i])) o = (size_t)snprintf(out, cap, "model.");
    for (const char *p = hf; *p && o < cap;) {
        if (starts(p, "language_model.")) {
            p += 15;
            continue;
        }
        out[o++] = *p++;
    }
    if (o >= cap) return 0;
    out[o] = 0;
    return 1;
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

/* EmbeddingGemma: Gemma 3's parameters, then config.json's own sliding
 * window (required) and the pooling type. */
static lgg_status embedding_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = gemma3_meta(c, err);
    if (st) return st;
    const json_t *sw = json_object_get(c->config, "sliding_window");
    if (!sw || json_is_null(sw))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window' is missing (EmbeddingGemma needs it)",
                            c->dir);
    st = put_num(c, "attention.sliding_window", "sliding_window", 0, 0, err);
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
const cv_hooks lgg__cv_hooks_gemma_embedding = {gemma3_init, gemma3_name, gemma3_tensor, embedding_meta, gemma3_vocab, NULL};
