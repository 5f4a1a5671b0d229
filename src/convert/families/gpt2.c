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

/* ruGPT-3 XL (RuGPT3XLForCausalLM; llama.cpp master's RuGPT3XLModel, gpt2):
 * llama-style names, its separate q, k and v projections (weights and
 * biases) fused into attn_qkv as master concatenates them: q's rows, k's,
 * v's, written where the last of the three (v) comes. */

/* The q/k/v part of block `hf`'s name: its position in "q_proj" in it, or NULL. */
static char *qkv_part(char *hf) {
    char *p = strstr(hf, ".self_attn.");
    return p && (p[11] == 'q' || p[11] == 'k' || p[11] == 'v') && !strncmp(p + 12, "_proj.", 6) ? p + 11 : NULL;
}

/* q and k (mapped as attn_qkv) taken out; v becomes the stack of all three. */
static lgg_status rugpt3xl_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    char name[512];
    size_t len = strlen(t->src_name);
    if (len >= sizeof name || strncmp(t->name, "blk.", 4) || !strstr(t->name, ".attn_qkv.")) return LGG_OK;
    memcpy(name, t->src_name, len + 1);
    char *part = qkv_part(name);
    if (!part) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' is not a q, k or v projection", c->dir, t->src_name);
    if (*part != 'v') { /* read again with v; master stops on a part left without it */
        uint32_t sh;
        *part = 'v';
        if (!lgg__cv_find_tensor(c, name, &sh))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' has no '%s' to be fused with", c->dir, t->src_name,
                                name);
        free(t->name);
        c->n_t--;
        return LGG_OK;
    }
    cv_src *v = malloc(3 * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    static const char QKV[3] = {'q', 'k', 'v'};
    for (int k = 0; k < 3; k++) {
        *part = QKV[k];
        v[k].fp8 = NULL;
        const lgg_st_tensor *s = v[k].t = lgg__cv_find_tensor(c, name, &v[k].shard);
        int same = s && s->n_dims == t->src->n_dims && s->dtype == t->src->dtype && s->dtype != LGG_ST_F8_E4M3;
        for (uint32_t d = 0; same && d < s->n_dims; d++) same = s->shape[d] == t->src->shape[d];
        if (!same) {
            free(v);
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': no '%s' of its shape and dtype to be fused with",
                                c->dir, t->src_name, name);
        }
    }
    t->stack = v, t->n_stack = 3;
    t->src = v[0].t, t->shard = v[0].shard, t->src_name = t->src->name.ptr;
    t->ne[t->n_dims - 1] *= 3, t->n_units *= 3; /* q's rows, then k's, then v's */
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_rugpt3xl = {NULL, lgg__cv_master_text_name, rugpt3xl_tensor, NULL, NULL, NULL};
