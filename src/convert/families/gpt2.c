/* gpt2.c -- what GPT-2 does in code in the reference converter:
 * its names with or without "transformer.", its dropped attention buffers
 * and its output matrix (a copy of the embeddings); its transposed Conv1D
 * weights are the table's CV_X_TRANSPOSE. */
#include "../cvint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static int ends(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* GPT-2's names with or without "transformer." (the reference maps both);
 * its causal-mask buffers are dropped. */
static int gpt2_name(const char *hf, char *out, size_t cap) {
    if (ends(hf, ".attn.bias") || ends(hf, ".attn.masked_bias")) return 0;
    if (starts(hf, "transformer.")) hf += 12;
    size_t l = strlen(hf);
    if (l >= cap) return 0;
    memcpy(out, hf, l + 1);
    return 1;
}

/* GPT-2's output matrix is its embeddings: written again, right after them. */
static lgg_status gpt2_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strcmp(t->name, "token_embd.weight")) return LGG_OK;
    return lgg__cv_dup_tensor(c, (size_t)(t - c->t), "output.weight", err);
}

const cv_hooks lgg__cv_hooks_gpt2 = {NULL, gpt2_name, gpt2_tensor, NULL, NULL, NULL};
