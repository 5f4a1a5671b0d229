/* glm4.c -- GLM-4.5/4.6 (llama.cpp master's Glm4MoeModel) and GLM-4 0414
 * (its Glm4Model), which only master converts.  Both write a partial
 * rotary dimension: int(head_dim * partial_rotary_factor), the factor from
 * rope_parameters (else rope_scaling), where master mirrors config.json's
 * own partial_rotary_factor, 0.5 when none.  GLM-4.5's block count holds
 * its next-token-prediction blocks (num_nextn_predict_layers, appended
 * after num_hidden_layers: master writes them by default and takes neither
 * --mtp nor --no-mtp for this architecture).  Their vocabularies are the
 * byte-level BPE reader's with special ids named by added token, set where
 * the files gave none (master's _set_special_token): GLM-4.5 bos [gMASK],
 * eot <|user|>, unk <|endoftext|>, eom <|observation|>; GLM-4 eos, eot,
 * unk, bos from <|endoftext|> and <|user|>.  An M-RoPE checkpoint
 * (rope_parameters' mrope_section: GLM-4V's) is refused: master permutes its
 * q/k rows and writes the sections. */
#include "../cvint.h"

#include <stdio.h>
#include <string.h>

/* The rope parameters master reads (rope_parameters, else rope_scaling; a
 * null one is none). */
static const json_t *rope_params(const lgg_convert *c) {
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!rp) rp = json_object_get(c->config, "rope_scaling");
    return json_is_object(rp) ? rp : NULL;
}

/* config.json's lgg.rope_dim: the partial rotary dimension (GLM4MOE_META
 * and GLM4_META write it); an M-RoPE checkpoint refused. */
static lgg_status rope_dim(lgg_convert *c, lgg_error *err) {
    const json_t *rp = rope_params(c);
    if (json_object_get(rp, "mrope_section"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: rope 'mrope_section' (M-RoPE, GLM-4V's): llama.cpp master permutes its q/k "
                            "rows and writes the sections, which this converter does not yet", c->dir);
    char which[64];
    const json_t *p = json_object_get(rp, "partial_rotary_factor");
    if (!p && !json_object_get(rp, "full_attention") && !json_object_get(rp, "sliding_attention"))
        p = lgg__cv_first_key(c->config, "partial_rotary_factor|rope_pct|rope_percent", which, sizeof which);
    if (p && (!json_is_number(p) || json_number_value(p) < 0 || json_number_value(p) > 1))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: partial_rotary_factor is not a number from 0 to 1", c->dir);
    double f = p ? json_number_value(p) : 0.5;
    int64_t dim = lgg__cv_hparam_int(c, "head_dim", -1);
    if (!json_object_get(c->config, "head_dim") || json_is_null(json_object_get(c->config, "head_dim"))) {
        int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1), n = lgg__cv_hparam_int(c, "num_attention_heads", -1);
        dim = h >= 0 && lgg__cv_heads_ok(n) ? h / n : -1;
    }
    if (dim < 0 || dim > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: key 'head_dim' (or hidden_size and num_attention_heads) missing or not a count", c->dir);
    json_t *v = json_integer((json_int_t)((double)dim * f));
    if (!v || json_object_set_new(c->config, "lgg.rope_dim", v))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* GLM-4.5: the next-token-prediction blocks counted in num_hidden_layers
 * (the block count and the tensors' bound), the rope dimension. */
static lgg_status glm4moe_init(lgg_convert *c, lgg_error *err) {
    const json_t *nl = json_object_get(c->config, "num_hidden_layers"), *nx = json_object_get(c->config, "num_nextn_predict_layers");
    if (!json_is_integer(nl) || json_integer_value(nl) < 0 || json_integer_value(nl) > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_hidden_layers' is missing or not a count", c->dir);
    if (nx && (!json_is_integer(nx) || json_integer_value(nx) < 0 || json_integer_value(nx) > (1 << 20)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_nextn_predict_layers' is not a count", c->dir);
    json_t *sum = json_integer(json_integer_value(nl) + (nx ? json_integer_value(nx) : 0));
    if (!sum || json_object_set_new(c->config, "num_hidden_layers", sum))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return rope_dim(c, err);
}

static lgg_status glm4_init(lgg_convert *c, lgg_error *err) { return rope_dim(c, err); }

/* The special ids `n` pairs (type, added token) name, set where the files
 * gave none, then the byte-level BPE vocabulary. */
static lgg_status named_specials(lgg_convert *c, json_t *tc, const lgg_convert_options *o, const char *const (*sp)[2], int n,
                                 lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    for (int k = 0; k < n; k++) {
        int64_t id = lgg__cv_added_id(tj, sp[k][1]);
        if (id < 0) {
            json_decref(tj);
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: no added token '%s' (GLM's %s token)", c->dir,
                                sp[k][1], sp[k][0]);
        }
        c->late_special[k].type = sp[k][0], c->late_special[k].id = id, c->late_special[k].if_none = 0;
    }
    json_decref(tj);
    c->n_late_special = n;
    return lgg__cv_bpe(c, tc, o, err);
}

static lgg_status glm4moe_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const char *const SP[4][2] = {
        {"bos", "[gMASK]"}, {"eot", "<|user|>"}, {"unk", "<|endoftext|>"}, {"eom", "<|observation|>"}};
    return named_specials(c, tc, o, SP, 4, err);
}

static lgg_status glm4_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const char *const SP[4][2] = {
        {"eos", "<|endoftext|>"}, {"eot", "<|user|>"}, {"unk", "<|endoftext|>"}, {"bos", "<|endoftext|>"}};
    return named_specials(c, tc, o, SP, 4, err);
}

const cv_hooks lgg__cv_hooks_glm4moe = {glm4moe_init, NULL, NULL, NULL, glm4moe_vocab, NULL};
const cv_hooks lgg__cv_hooks_glm4 = {glm4_init, NULL, NULL, NULL, glm4_vocab, NULL};
