/* nemotron.c -- what Nemotron does in code in the reference converter:
 * its layer norms are stored as w - 1 (layernorm1p), so the reference adds
 * 1 to every tensor named "...norm.weight" (in f16 when the source is f16:
 * data.c's CV_X_ADD1); its rope scaling type; the pad and unk ids it
 * hard-codes after the SentencePiece vocabulary. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static lgg_status put_u32(lgg_convert *c, const char *key, uint32_t v, lgg_error *err) {
    return lgg_writer_set_u32(c->w, key, v, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

/* The layer norm epsilon is required (the table writes it unless the
 * common keys did). */
static lgg_status nemotron_init(lgg_convert *c, lgg_error *err) {
    char which[64];
    if (!lgg__cv_first_key(c->config, "layer_norm_eps|layer_norm_epsilon|norm_epsilon|norm_eps", which, sizeof which))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'norm_eps' is missing", c->dir);
    return LGG_OK;
}

/* The reference's test is on the Hugging Face name: "norm.weight" at the
 * end, the biases untouched. */
static lgg_status nemotron_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)c, (void)err;
    size_t l = strlen(t->src_name);
    if (l >= 11 && !strcmp(t->src_name + l - 11, "norm.weight")) t->xform |= CV_X_ADD1;
    return LGG_OK;
}

/* No rope_scaling (or null): type "none"; else linear with config.json's
 * top-level "factor" (the key the reference reads). */
static lgg_status nemotron_meta(lgg_convert *c, lgg_error *err) {
    const json_t *rs = json_object_get(c->config, "rope_scaling"), *f = json_object_get(c->config, "factor");
    int linear = rs && !json_is_null(rs);
    lgg_status st = lgg__cv_put_arch_str(c, "rope.scaling.type", linear ? "linear" : "none", err);
    if (st || !linear) return st;
    if (!json_is_number(f))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'factor' is missing or not a number (with rope_scaling)", c->dir);
    return lgg__cv_put_arch_f32(c, "rope.scaling.factor", (float)json_number_value(f), err);
}

/* The SentencePiece vocabulary, then pad 0 and unk 1 (where the
 * special-token step has written either already, an id in config.json:
 * lgg__cv_may_write). */
static lgg_status nemotron_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    lgg_status st = lgg__cv_spm(c, tc, err);
    static const char *const keys[2] = {"tokenizer.ggml.padding_token_id", "tokenizer.ggml.unknown_token_id"};
    for (uint32_t i = 0; i < 2 && !st; i++)
        if (lgg__cv_may_write(c, keys[i])) st = put_u32(c, keys[i], i, err);
    return st;
}

const cv_hooks lgg__cv_hooks_nemotron = {nemotron_init, NULL, nemotron_tensor, nemotron_meta, nemotron_vocab, NULL};


