/* refact.c -- what Refact does in code in the reference converter:
 * its computed feed-forward width, its split kv and gate_up matrices, its
 * vocabulary. */
#include "../cvint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* kv: the first n_head_kv (1) * head_dim rows are k, the rest v; gate_up:
 * the first ff_dim rows are gate, the rest up. */
static lgg_status refact_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strstr(t->name, ".attn_k.weight"))
        return lgg__cv_split_rows(c, t, (uint64_t)(lgg__cv_hparam_int(c, "n_embd", 0) / lgg__cv_hparam_int(c, "n_head", 1)),
                          "attn_v", err);
    if (strstr(t->name, ".ffn_gate.weight")) return lgg__cv_split_rows(c, t, (uint64_t)refact_ff(c), "ffn_up", err);
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

const cv_hooks lgg__cv_hooks_refact = {refact_init, NULL, refact_tensor, NULL, refact_vocab, NULL};
