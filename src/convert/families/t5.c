/* t5.c -- what T5 and T5Encoder do in code in the reference converter:
 * a context of 512 when config.json has no n_positions, one token
 * embedding from whichever of the shared copies comes first, and the
 * Unigram vocabulary of ugm.c. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lgg_status t5_init(lgg_convert *c, lgg_error *err) {
    if (json_object_get(c->config, "n_positions")) return LGG_OK;
    return json_object_set_new(c->config, "n_positions", json_integer(512)) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
                                                                           : LGG_OK;
}

static int shared_embedding(const char *name) {
    return !strcmp(name, "decoder.embed_tokens.weight") || !strcmp(name, "encoder.embed_tokens.weight") ||
           !strcmp(name, "shared.weight");
}

/* The embeddings are stored as shared.weight, encoder.embed_tokens.weight
 * or decoder.embed_tokens.weight, sometimes several of them: the first one
 * read is token_embd, the others are dropped. */
static lgg_status t5_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    (void)err;
    if (!shared_embedding(t->src_name)) return LGG_OK;
    for (cv_tensor *e = c->t; e < t; e++)
        if (e->src_name && shared_embedding(e->src_name)) {
            free(t->name);
            memset(t, 0, sizeof *t);
            c->n_t--;
            break;
        }
    return LGG_OK;
}

static lgg_status t5_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    return lgg__cv_ugm_t5(c, tc, err);
}

const cv_hooks lgg__cv_hooks_t5 = {t5_init, NULL, t5_tensor, NULL, t5_vocab, NULL};
