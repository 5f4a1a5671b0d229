/* pangu.c -- openPangu-Embedded (PanguEmbeddedForCausalLM) as llama.cpp
 * master (3f545becc) converts it (conversion/pangu.py): master's base
 * parameters, vocab_size, the rope dimension (head_dim, else hidden_size /
 * heads) and, without head_dim, key and value lengths of that size
 * (families.c); the vocabulary tokenizer.model's, then
 * tokenizer_config.json's add_prefix_space; an lm_head dropped when
 * tie_word_embeddings is true. */
#include "../cvint.h"

#include <stdlib.h>
#include <string.h>

/* The mapped lm_head (the last tensor added) taken out again when tied
 * (master's `if self.hparams.get("tie_word_embeddings", False)`). */
lgg_status lgg__cv_drop_tied_head(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)err;
    if (strcmp(t->src_name, "lm_head.weight") || !lgg__cv_py_truthy(json_object_get(c->config, "tie_word_embeddings"))) return LGG_OK;
    free(t->name);
    c->n_t--;
    return LGG_OK;
}

/* Without head_dim: key_length and value_length are the rope dimension (as lgg.head_dim). */
static lgg_status pangu_init(lgg_convert *c, lgg_error *err) {
    if (json_object_get(c->config, "head_dim")) return LGG_OK;
    json_int_t hs = json_integer_value(json_object_get(c->config, "hidden_size"));
    json_int_t nh = json_integer_value(json_object_get(c->config, "num_attention_heads"));
    if (!json_is_integer(json_object_get(c->config, "hidden_size")) || nh <= 0 || hs < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'hidden_size' or 'num_attention_heads' missing", c->dir);
    if (json_object_set_new(c->config, "lgg.head_dim", json_integer(hs / nh))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_pangu = {pangu_init, NULL, lgg__cv_drop_tied_head, NULL, NULL, NULL};
