/* lora.c -- a PEFT LoRA adapter (adapter_config.json and
 * adapter_model.safetensors) to GGUF, as llama.cpp's convert_lora_to_gguf.py
 * (b4747) writes it: the base model's config.json gives the family, whose
 * table names each target; every pair lora_A / lora_B becomes NAME.lora_a /
 * NAME.lora_b in F32 (their names do not end in ".weight", so the
 * reference's type rules keep them F32 whatever the outtype), B with the
 * rows of the base matrix's transform (llama's q/k permutation moves B's
 * rows, A is unchanged).  Norms an adapter carries (mergekit-extract-lora)
 * come first, as plain tensors. */
#include "cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference's get_base_tensor_name: every "base_model.model." removed
 * and the LoRA suffixes made ".weight"; *kind is 'A', 'B', or 0 for a
 * tensor that is neither. */
static int base_name(const char *name, char *out, size_t cap, int *kind) {
    static const struct { const char *suffix; int kind; } S[] = {
        {".lora_A.weight", 'A'}, {".lora_B.weight", 'B'}, {".lora_embedding_A", 'A'}, {".lora_embedding_B", 'B'}};
    size_t o = 0;
    *kind = 0;
    for (const char *p = name; *p;) {
        size_t k = 0;
        if (!strncmp(p, "base_model.model.", 17)) {
            p += 17;
            continue;
        }
        while (k < 4 && strncmp(p, S[k].suffix, strlen(S[k].suffix))) k++;
        const char *rep = k < 4 ? ".weight" : NULL;
        if (rep && o + 7 < cap) {
            memcpy(out + o, rep, 7), o += 7, p += strlen(S[k].suffix);
            *kind = *kind ? *kind : S[k].kind;
        } else if (o + 1 < cap) {
            out[o++] = *p++;
        } else {
            return 0;
        }
    }
    out[o] = 0;
    return 1;
}

typedef struct pair {
    char base[512];
    const lgg_st_tensor *a, *b;
} pair;

/* One pair: NAME.lora_a (A, transposed for the token embeddings) and
 * NAME.lora_b (B with the table's row transform). */
static lgg_status add_pair(lgg_convert *c, const pair *p, lgg_error *err) {
    const char *file = c->shard_names[0];
    const lgg_st_tensor *miss = p->a ? p->a : p->b;
    if (!p->a || !p->b)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s' has no lora_%c partner", c->dir, file,
                            miss->name.ptr, p->a ? 'B' : 'A');
    if (p->a->n_dims != 2 || p->b->n_dims != 2 || p->a->shape[0] != p->b->shape[1])
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/%s: tensor '%s': rank mismatch (lora_A is %u-D with %llu rows, lora_B %u-D with %llu "
                            "columns; both must be 2-D, of the same rank)",
                            c->dir, file, p->b->name.ptr, p->a->n_dims, (unsigned long long)p->a->shape[0],
                            p->b->n_dims, (unsigned long long)(p->b->n_dims == 2 ? p->b->shape[1] : 0));
    char hf[512], out[512];
    const char *name = p->base;
    if (c->hooks && c->hooks->hf_name) {
        if (!c->hooks->hf_name(name, hf, sizeof hf)) return LGG_OK;
        name = hf;
    }
    unsigned xform = 0;
    long bid = -1, xid = -1;
    if (!lgg__cv_map_name(c->fam, name, out, sizeof out - 8, &xform, &bid, &xid) ||
        (bid >= 0 && (uint64_t)bid >= c->block_count))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': target '%s' has no GGUF name in the %s table",
                            c->dir, file, p->a->name.ptr, p->base, c->fam->arch);
    if (xform & CV_X_SKIP) {
        if (!strcmp(p->base, "lm_head.weight")) /* tied embeddings: llama-export-lora could not apply it */
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': lm_head is in the adapter, but the base model ignores it",
                                c->dir, file, p->a->name.ptr);
        return LGG_OK;
    }
    if (xform & (CV_X_EXPERT | CV_X_ADD1))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: tensor '%s': a LoRA pair on %s is not supported", c->dir,
                            file, p->a->name.ptr, (xform & CV_X_EXPERT) ? "an expert matrix" : "a norm");
    size_t l = strlen(out);
    int embd = strstr(out, "token_embd.weight") != NULL;
    memcpy(out + l, ".lora_a", 8);
    lgg_status st = lgg__cv_add_tensor(c, 0, p->a, out, embd ? CV_X_TRANSPOSE : 0, err);
    memcpy(out + l, ".lora_b", 8);
    if (!st) st = lgg__cv_add_tensor(c, 0, p->b, out, xform & (CV_X_PERM_Q | CV_X_PERM_K), err);
    return st;
}

/* A plain tensor of the adapter (a norm): mapped and added as the base
 * converter would. */
static lgg_status add_plain(lgg_convert *c, const lgg_st_tensor *t, const char *base, lgg_error *err) {
    char hf[512], out[512];
    const char *name = base;
    if (lgg__cv_skipped(c, base)) return LGG_OK;
    if (c->hooks && c->hooks->hf_name) {
        if (!c->hooks->hf_name(name, hf, sizeof hf)) return LGG_OK;
        name = hf;
    }
    unsigned xform = 0;
    long bid = -1, xid = -1;
    if (!lgg__cv_map_name(c->fam, name, out, sizeof out, &xform, &bid, &xid) ||
        (bid >= 0 && (uint64_t)bid >= c->block_count))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': no GGUF name for it in the %s table", c->dir,
                            c->shard_names[0], t->name.ptr, c->fam->arch);
    if (xform & CV_X_SKIP) return LGG_OK;
    if ((xform & CV_X_EXPERT) || !strstr(out, "_norm"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: tensor '%s': only norms are taken besides LoRA pairs",
                            c->dir, c->shard_names[0], t->name.ptr);
    return lgg__cv_add_tensor(c, 0, t, out, xform, err);
}

/* The reference's get_tensors: plain tensors as they come (names in byte
 * order), then the pairs in the order their first tensor came. */
static lgg_status plan(lgg_convert *c, const lgg_st_tensor **first, lgg_error *err) {
    const lgg_safetensors *s = c->shards[0];
    size_t n = lgg_st_count(s), np = 0;
    pair *v = calloc(n ? n : 1, sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_status st = LGG_OK;
    *first = NULL;
    for (size_t i = 0; i < n && !st; i++) {
        const lgg_st_tensor *t = lgg_st_at(s, i);
        char base[512];
        int kind;
        if (!base_name(t->name.ptr, base, sizeof base, &kind)) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor name '%.80s...' is too long", c->dir,
                              c->shard_names[0], t->name.ptr);
        } else if (!kind) {
            if (strstr(t->name.ptr, ".base_layer.weight")) continue;
            if (strstr(t->name.ptr, "_layernorm") || strstr(t->name.ptr, ".norm")) {
                if (!*first) *first = t;
                st = add_plain(c, t, base, err);
                continue;
            }
            st = lgg__cv_fail(err, LGG_ERR_INVALID,
                              "%s/%s: tensor '%s' is not a lora_A or lora_B tensor%s", c->dir, c->shard_names[0],
                              t->name.ptr,
                              strstr(t->name.ptr, ".embed_tokens.weight") || strstr(t->name.ptr, ".lm_head.weight")
                                  ? " (embeddings in an adapter: tokens added while fine-tuning?)"
                                  : "");
        } else {
            size_t k = 0;
            while (k < np && strcmp(v[k].base, base)) k++;
            if (k == np) snprintf(v[np++].base, sizeof v->base, "%s", base);
            if (kind == 'A') v[k].a = t;
            else v[k].b = t;
        }
    }
    for (size_t k = 0; k < np && !st; k++) st = add_pair(c, &v[k], err);
    if (!*first && np) *first = v[0].a && v[0].b && v[0].a->dtype != v[0].b->dtype ? NULL : v[0].a ? v[0].a : v[0].b;
    free(v);
    return st;
}

static lgg_status adapter_config(lgg_convert *c, lgg_error *err) {
    json_t *ac = NULL;
    lgg_status st = lgg__cv_json(c, "adapter_config.json", 1, &ac, err);
    if (st) return st;
    json_t *alpha = json_object_get(ac, "lora_alpha");
    if (!json_is_number(alpha))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/adapter_config.json: key 'lora_alpha' is %s", c->dir,
                          alpha ? "not a number" : "missing");
    else c->lora_alpha = (float)json_number_value(alpha);
    json_decref(ac);
    return st;
}

lgg_status lgg_convert_open_lora(const char *adapter_dir, const char *base_dir, const lgg_convert_options *o,
                                 lgg_convert **out, lgg_error *err) {
    if (!adapter_dir || !base_dir || !out) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_open_lora: NULL argument");
    lgg_convert_options copy;
    lgg_convert *c;
    lgg_status st = lgg__cv_new(base_dir, o, &copy, &c, err);
    if (st) return st;
    if (copy.vocab_only) st = lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_open_lora: an adapter has no vocabulary");
    if (!st && copy.outtype > LGG_CONVERT_AUTO) /* the reference's convert_lora_to_gguf.py has no tq1_0/tq2_0 */
        st = lgg__cv_fail(err, LGG_ERR_ARG, "a LoRA adapter converts to f32, f16, bf16, q8_0 or auto, not %s",
                          copy.outtype == LGG_CONVERT_TQ1_0 ? "tq1_0" : "tq2_0");
    if (!st) st = lgg__cv_load_config(c, err); /* the base's: its messages name the base folder */
    if (!st && c->hooks && c->hooks->tensor)
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: LoRA adapters of %s models are not supported",
                          c->dir, c->fam->arch);
    char *dir = st ? NULL : strdup(adapter_dir);
    if (!st && !dir) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) free(c->dir), c->dir = dir, c->lora = 1;
    if (!st) st = adapter_config(c, err);
    if (!st) st = lgg__cv_json(c, "config.json", 0, &c->card_config, err); /* the adapter's own, for its name */
    if (!st && !lgg__cv_exists(c, "adapter_model.safetensors", NULL))
        st = lgg__cv_fail(err, LGG_ERR_IO, "%s/adapter_model.safetensors: no such file%s", c->dir,
                          lgg__cv_exists(c, "adapter_model.bin", NULL) ? " (adapter_model.bin, a PyTorch pickle, is not read)"
                                                                      : "");
    if (!st && (!(c->shard_names = calloc(1, sizeof *c->shard_names)) ||
                !(c->shard_names[0] = strdup("adapter_model.safetensors"))))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) c->n_shards = 1, st = lgg__cv_open_shards(c, err);
    const lgg_st_tensor *first = NULL;
    if (!st) st = plan(c, &first, err);
    if (!st) { /* auto: f16 when the first tensor the reference reads is f16 (a pair of two dtypes is f32) */
        c->outtype = copy.outtype;
        if (copy.outtype == LGG_CONVERT_AUTO)
            c->outtype = first && first->dtype == LGG_TYPE_F16 ? LGG_CONVERT_F16 : LGG_CONVERT_BF16;
    }
    return lgg__cv_finish(c, &copy, st, out, err);
}
