/* wavtokenizer.c -- what WavTokenizerDec (an audio decoder: convnext and posnet
 * blocks) does in code in the reference converter: its nested posnet and
 * convnext widths and depths, the codebook's training buffers dropped, and
 * no vocabulary (tokenizer.ggml.model "none").  Its keys and tensor names
 * are data in families.c. */
#include "../cvint.h"

#include <stdio.h>
#include <string.h>

/* config.json's posnet.{n_embd,n_layer} and convnext.{n_embd,n_layer}
 * copied to top-level keys named by their path ("posnet.n_embd"), which
 * the table reads (and names when one is missing). */
static lgg_status wav_init(lgg_convert *c, lgg_error *err) {
    static const char *const PATHS[][2] = {
        {"posnet", "n_embd"}, {"posnet", "n_layer"}, {"convnext", "n_embd"}, {"convnext", "n_layer"}};
    for (size_t i = 0; i < sizeof PATHS / sizeof PATHS[0]; i++) {
        json_t *v = json_object_get(json_object_get(c->config, PATHS[i][0]), PATHS[i][1]);
        char key[32];
        snprintf(key, sizeof key, "%s.%s", PATHS[i][0], PATHS[i][1]);
        /* a top-level key of that name is not the reference's: it reads only the nested one */
        if (v ? json_object_set(c->config, key, v) != 0 : (json_object_del(c->config, key), 0))
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    return LGG_OK;
}

/* The vector quantizer's k-means state is not part of the decoder. */
static int wav_name(const char *hf, char *out, size_t cap) {
    static const char *const SKIP[] = {"codebook.cluster_size", "codebook.embed_avg", "codebook.inited"};
    size_t l = strlen(hf);
    for (size_t i = 0; i < sizeof SKIP / sizeof SKIP[0]; i++)
        if (l >= strlen(SKIP[i]) && !strcmp(hf + l - strlen(SKIP[i]), SKIP[i])) return 0;
    snprintf(out, cap, "%s", hf);
    return l < cap;
}

static lgg_status wav_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)tc, (void)o;
    return lgg_writer_set_str(c->w, "tokenizer.ggml.model", "none", NULL)
               ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.model")
               : LGG_OK;
}

const cv_hooks lgg__cv_hooks_wavtokenizer = {wav_init, wav_name, NULL, NULL, wav_vocab, NULL};
