/* llada.c -- LLaDA (LLaDAModelLM: GSAI-ML's diffusion model on OLMo's
 * layout), which only llama.cpp master converts (its LLaDAModel): the head
 * counts under OLMo's names (n_heads, n_kv_heads) for llama's q/k
 * permutation, its sizes' keys after the base parameters (each with
 * master's default), bidirectional attention, logits not shifted, and a
 * BPE vocabulary that always adds BOS. */
#include "../cvint.h"

#include <string.h>

/* config.json's `name` as a count, dflt when absent (null is not a count). */
static lgg_status count_or(lgg_convert *c, const char *name, uint32_t dflt, uint32_t *out, lgg_error *err) {
    const json_t *v = json_object_get(c->config, name);
    *out = dflt;
    if (!v) return LGG_OK;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a 32-bit count", c->dir, name);
    *out = (uint32_t)json_integer_value(v);
    return LGG_OK;
}

/* num_attention_heads / num_key_value_heads from OLMo's names where absent
 * (the permutation reads them; master takes either). */
static lgg_status llada_init(lgg_convert *c, lgg_error *err) {
    static const char *const TO[2] = {"num_attention_heads", "num_key_value_heads"}, *const FROM[2] = {"n_heads", "n_kv_heads"};
    for (int k = 0; k < 2; k++) {
        const json_t *have = json_object_get(c->config, TO[k]), *v = json_object_get(c->config, FROM[k]);
        if ((have && !json_is_null(have)) || !v || json_is_null(v)) continue;
        if (json_object_set_new(c->config, TO[k], json_deep_copy(v))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    if (lgg__cv_hparam_int(c, "num_attention_heads", 0) <= 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_attention_heads' (or n_heads) is missing or not a count", c->dir);
    return LGG_OK;
}

static lgg_status set_false(lgg_convert *c, const char *key, lgg_error *err) {
    return lgg_writer_set_bool(c->w, key, false, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key) : LGG_OK;
}

/* After the table's keys: the rope dimension (head_dim, else the width over
 * the heads), the context, width and feed-forward length with master's
 * defaults (the context written over the base parameters' in its place). */
static lgg_status llada_meta(lgg_convert *c, lgg_error *err) {
    uint32_t rope = 0, width = 0, heads = (uint32_t)lgg__cv_hparam_int(c, "num_attention_heads", 0), ctx, embd, ff;
    const json_t *hd = json_object_get(c->config, "head_dim");
    lgg_status st = LGG_OK;
    if (hd && !json_is_null(hd)) st = count_or(c, "head_dim", 0, &rope, err);
    else {
        st = count_or(c, json_object_get(c->config, "hidden_size") ? "hidden_size" : "d_model", 0, &width, err);
        if (!st && !json_object_get(c->config, "hidden_size") && !json_object_get(c->config, "d_model"))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'd_model' (or hidden_size, head_dim) is missing", c->dir);
        rope = heads ? width / heads : 0;
    }
    if (!st) st = count_or(c, "max_sequence_length", 4096, &ctx, err);
    if (!st) st = count_or(c, "d_model", 4096, &embd, err);
    if (!st) st = count_or(c, "mlp_hidden_size", 12288, &ff, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "rope.dimension_count", rope, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "context_length", ctx, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "embedding_length", embd, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "feed_forward_length", ff, err);
    if (!st) st = lgg__cv_put_arch_bool(c, "attention.causal", 0, err);
    return st ? st : set_false(c, "diffusion.shift_logits", err);
}

/* master's _set_vocab_gpt2 through LLaDA's get_vocab_base (added tokens
 * by their special flag alone), then add_bos_token true (over the
 * tokenizer's, in its place). */
static lgg_status llada_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    lgg_status st = lgg__cv_bpe_flagged(c, tc, o, err);
    if (!st && lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", true, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key 'tokenizer.ggml.add_bos_token'");
    return st;
}

const cv_hooks lgg__cv_hooks_llada = {llada_init, NULL, NULL, llada_meta, llada_vocab, NULL};
