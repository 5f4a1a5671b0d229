/* fam_gpt.c -- what GPT-2, GPT-NeoX and Falcon do in code in the reference
 * converter: GPT-2's dropped attention buffers and its output matrix (a
 * copy of the embeddings), and the fused QKV matrices that GPT-NeoX and
 * Falcon reorder into all queries, then all keys, then all values. */
#include "cvint.h"

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
    cv_tensor copy = *t;
    cv_tensor *o = lgg__cv_new_tensor(c, err); /* may move c->t: t is not used after this */
    if (!o) return LGG_ERR_NOMEM;
    *o = copy;
    if (!(o->name = strdup("output.weight"))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->n_t++;
    return LGG_OK;
}

/* GPT-NeoX's fused rows are grouped per head as (q, k, v), each head_dim
 * rows; the output has every head's q, then every k, then every v. */
static uint64_t neox_row(const cv_tensor *t, uint64_t u) {
    uint64_t embd = t->n_units / 3, hd = embd / t->heads, j = u / embd, h = (u % embd) / hd;
    return h * 3 * hd + j * hd + u % hd;
}

/* Falcon's are grouped per key/value head: its g = heads/kv_heads queries,
 * then its key, then its value. */
static uint64_t falcon_row(const cv_tensor *t, uint64_t u) {
    uint64_t g = t->heads / t->kv_heads, hd = t->n_units / (t->heads + 2 * t->kv_heads), d = u % hd, r = u / hd;
    if (r < t->heads) return ((r / g) * (g + 2) + r % g) * hd + d;
    r -= t->heads;
    if (r < t->kv_heads) return (r * (g + 2) + g) * hd + d;
    return ((r - t->kv_heads) * (g + 2) + g + 1) * hd + d;
}

/* config.json's count `keys` (the first present), or dflt when none is. */
static int64_t count_of(const lgg_convert *c, const char *keys, int64_t dflt) {
    char which[64];
    const json_t *v = lgg__cv_first_key(c->config, keys, which, sizeof which);
    return !v ? dflt : json_is_integer(v) ? json_integer_value(v) : -1;
}

static lgg_status fused_qkv(lgg_convert *c, cv_tensor *t, int falcon, lgg_error *err) {
    if (!strstr(t->src_name, "query_key_value")) return LGG_OK;
    int64_t nh = count_of(c, falcon ? "num_attention_heads|n_head" : "n_head|num_attention_heads", 0), embd = count_of(c, "hidden_size|n_embed", 0);
    int64_t nkv = falcon ? count_of(c, "num_kv_heads|n_head_kv", 1) : nh;
    if (t->src->n_dims == 1) t->unit = 1, t->n_units = t->src->shape[0]; /* a bias: reordered element by element */
    uint64_t rows = t->n_units, cols = t->src->n_dims == 2 ? t->src->shape[1] : 0;
    int ok = nh > 0 && nkv > 0 && embd > 0 && embd % nh == 0 && nh % nkv == 0;
    uint64_t hd = ok ? (uint64_t)(embd / nh) : 0;
    if (falcon) /* the reference views the matrix as (kv_heads, heads/kv_heads + 2, head_dim, hidden_size) */
        ok = ok && t->src->n_dims == 2 && cols == (uint64_t)embd && rows == (uint64_t)(nh + 2 * nkv) * hd;
    else
        ok = ok && rows == 3 * (uint64_t)embd && (t->src->n_dims == 1 || cols == (uint64_t)embd);
    if (!ok)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/%s: tensor '%s': its shape does not fit the heads and hidden_size of config.json", c->dir,
                            c->shard_names[t->shard], t->src_name);
    t->heads = (uint64_t)nh, t->kv_heads = (uint64_t)nkv;
    t->row_of = falcon ? falcon_row : neox_row;
    return LGG_OK;
}

static lgg_status neox_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) { return fused_qkv(c, t, 0, err); }
static lgg_status falcon_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) { return fused_qkv(c, t, 1, err); }

/* Falcon's key/value head count: num_kv_heads, else n_head_kv, else 1. */
static lgg_status falcon_init(lgg_convert *c, lgg_error *err) {
    if (lgg__cv_first_key(c->config, "num_kv_heads|n_head_kv", NULL, 0)) return LGG_OK;
    return json_object_set_new(c->config, "n_head_kv", json_integer(1)) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
                                                                        : LGG_OK;
}

const cv_hooks *lgg__cv_gpt_hooks(const char *hf_arch) {
    static const cv_hooks GPT2 = {NULL, gpt2_name, gpt2_tensor, NULL, NULL};
    static const cv_hooks NEOX = {NULL, NULL, neox_tensor, NULL, NULL};
    static const cv_hooks FALCON = {falcon_init, NULL, falcon_tensor, NULL, NULL};
    if (!strcmp(hf_arch, "GPT2LMHeadModel")) return &GPT2;
    if (!strcmp(hf_arch, "GPTNeoXForCausalLM")) return &NEOX;
    if (!strcmp(hf_arch, "FalconForCausalLM") || !strcmp(hf_arch, "RWForCausalLM")) return &FALCON;
    return NULL;
}
