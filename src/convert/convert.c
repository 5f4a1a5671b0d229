/* convert.c -- a Hugging Face model directory to a GGUF writer: shards,
 * tensor names and types, metadata, in the reference converter's order. */
#include "cvint.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lgg_convert_options_init(lgg_convert_options *o) {
    if (o) *o = (lgg_convert_options)LGG_CONVERT_OPTIONS_INIT;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* model*.safetensors in the directory, sorted by name (bytes). */
static lgg_status list_shards(lgg_convert *c, lgg_error *err) {
    DIR *d = c->has_io ? NULL : opendir(c->dir);
    if (!d && !c->has_io) return lgg__cv_fail(err, LGG_ERR_IO, "%s: %s", c->dir, strerror(errno));
    size_t cap = 0;
    struct dirent *e;
    const char *name;
    uint64_t size;
    lgg_status st = LGG_OK;
    for (size_t i = 0; st == LGG_OK && (name = d ? ((e = readdir(d)) ? e->d_name : NULL) : c->io.file_at(c->io.ud, i, &size));
         i++) {
        if (strncmp(name, "model", 5) || !lgg__cv_ends_with(name, ".safetensors")) continue;
        if (c->n_shards == cap) {
            cap = cap ? 2 * cap : 8;
            char **v = realloc(c->shard_names, cap * sizeof *v);
            if (!v) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
            else c->shard_names = v;
        }
        if (st == LGG_OK && !(c->shard_names[c->n_shards++] = strdup(name)))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    if (d) closedir(d);
    if (st) return st;
    if (!c->n_shards) return lgg__cv_fail(err, LGG_ERR_IO, "%s: no model*.safetensors file", c->dir);
    qsort(c->shard_names, c->n_shards, sizeof *c->shard_names, cmp_str);
    return LGG_OK;
}

lgg_status lgg__cv_open_shards(lgg_convert *c, lgg_error *err) {
    c->shards = calloc(c->n_shards, sizeof *c->shards);
    if (!c->shards) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < c->n_shards; i++) {
        char *p = lgg__cv_path(c->dir, c->shard_names[i]);
        if (!p) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        lgg_status st = c->has_io ? lgg__cv_st_open_io(c, c->shard_names[i], &c->shards[i], err)
                                  : lgg_st_open(p, &c->shards[i], err);
        if (!st) st = lgg__cv_note_input(c, p, err);
        free(p);
        if (st) return st;
    }
    return LGG_OK;
}

static int cmp_name(const void *a, const void *b) {
    const lgg_str *x = a, *y = b;
    int c = memcmp(x->ptr, y->ptr, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The index's weight_map must name exactly the tensors the shards hold; a
 * tensor it places in a file that is absent means a missing shard.  The
 * shards' names are sorted once and each index entry found by bisection:
 * a MoE checkpoint has tens of thousands of tensors. */
static lgg_status check_index(lgg_convert *c, lgg_error *err) {
    json_t *idx;
    lgg_status st = lgg__cv_json(c, "model.safetensors.index.json", 0, &idx, err);
    if (st || !idx) return st;
    json_t *wm = json_object_get(idx, "weight_map");
    size_t total = 0, n = 0;
    for (size_t s = 0; s < c->n_shards; s++) total += lgg_st_count(c->shards[s]);
    lgg_str *names = NULL;
    if (!json_is_object(wm)) {
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/model.safetensors.index.json: no 'weight_map' object", c->dir);
    } else if (!(names = malloc((total ? total : 1) * sizeof *names))) {
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    } else {
        for (size_t s = 0; s < c->n_shards; s++)
            for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) names[n++] = lgg_st_at(c->shards[s], i)->name;
        qsort(names, n, sizeof *names, cmp_name);
        const char *k;
        json_t *v;
        n = 0;
        json_object_foreach(wm, k, v) {
            n++;
            lgg_str key = {k, strlen(k)};
            if (st == LGG_OK && !bsearch(&key, names, total, sizeof *names, cmp_name)) {
                const char *f = json_is_string(v) ? json_string_value(v) : "?";
                st = lgg__cv_fail(err, LGG_ERR_IO, "%s/%s: missing or incomplete shard (tensor '%s' is not found)",
                                  c->dir, f, k);
            }
        }
    }
    free(names);
    if (st == LGG_OK && total != n)
        st = lgg__cv_fail(err, LGG_ERR_INVALID,
                          "%s/model.safetensors.index.json: weight_map names %zu tensors but the shards hold %zu", c->dir,
                          n, total);
    json_decref(idx);
    return st;
}

/* Tensors the reference keeps in F32 whatever the output type. */
static int keep_f32(const char *name, uint32_t hf_dims) {
    static const char *const suffixes[] = {
        ".ffn_gate_inp.weight", "position_embd.weight", "token_types.weight", ".ssm_conv1d.weight",
        ".time_mix_first.weight", ".time_mix_w1.weight", ".time_mix_w2.weight", ".time_mix_decay_w1.weight",
        ".time_mix_decay_w2.weight", ".time_mix_lerp_fused.weight", ".norm1.weight", ".norm2.weight",
        ".shortconv.conv.weight"};
    if (hf_dims <= 1 || lgg__cv_ends_with(name, "_norm.weight") || !lgg__cv_ends_with(name, ".weight")) return 1;
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (lgg__cv_ends_with(name, suffixes[i])) return 1;
    return 0;
}

static uint32_t out_type(const lgg_convert *c, const char *name, const lgg_st_tensor *s, uint64_t ne0) {
    if (keep_f32(name, s->n_dims)) return LGG_TYPE_F32;
    if (c->master && (lgg__cv_ends_with(name, ".ffn_gate_inp_shexp.weight") ||
                      lgg__cv_ends_with(name, ".altup_correct_coef.weight") ||
                      lgg__cv_ends_with(name, ".altup_predict_coef.weight") ||
                      lgg__cv_ends_with(name, ".indexer.proj.weight") || lgg__cv_ends_with(name, ".ssm_conv1d_q.weight") ||
                      lgg__cv_ends_with(name, ".ssm_conv1d_k.weight") || lgg__cv_ends_with(name, ".ssm_conv1d_v.weight")))
        return LGG_TYPE_F32; /* master's list has them */
    int ternary = c->outtype == LGG_CONVERT_TQ1_0 || c->outtype == LGG_CONVERT_TQ2_0;
    if (ternary && (!strcmp(name, "token_embd.weight") || !strcmp(name, "output.weight")))
        return LGG_TYPE_F16; /* the reference keeps the embeddings and the output head 16-bit */
    if (ternary && c->master &&
        (!strcmp(name, "per_layer_token_embd.weight") || lgg__cv_ends_with(name, ".altup_router.weight") ||
         lgg__cv_ends_with(name, ".laurel_l.weight") || lgg__cv_ends_with(name, ".laurel_r.weight")))
        return LGG_TYPE_F16; /* and master Gemma 3n's per-layer embeddings, AltUp router and Laurel */
    return lgg__cv_matrix_type(c, ne0);
}

lgg_status lgg__cv_add_tensor(lgg_convert *c, uint32_t shard, const lgg_st_tensor *s, const char *gguf, unsigned xform,
                             lgg_error *err) {
    const char *file = c->shard_names[shard];
    if (s->n_dims > 4)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: tensor '%s': %u dimensions (GGUF holds at most 4)", c->dir,
                            file, s->name.ptr, s->n_dims);
    if (s->dtype != LGG_TYPE_F32 && s->dtype != LGG_TYPE_F16 && s->dtype != LGG_TYPE_BF16 && s->dtype != LGG_ST_F8_E4M3)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: tensor '%s': only F32, F16, BF16 and (block-scaled) "
                            "F8_E4M3 tensors are converted", c->dir, file, s->name.ptr);
    const cv_fp8 *fp8 = NULL;
    if (s->dtype == LGG_ST_F8_E4M3 && c->hooks && c->hooks->tensor)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: tensor '%s': FP8 matrices of %s checkpoints are not "
                            "converted (its tensors go through code of their own)", c->dir, file, s->name.ptr, c->fam->arch);
    if (s->dtype == LGG_ST_F8_E4M3 && (xform & CV_X_TRANSPOSE))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: tensor '%s': a transposed FP8 matrix is not converted",
                            c->dir, file, s->name.ptr);
    lgg_status fst = lgg__cv_fp8_scales(c, shard, s, &fp8, err);
    if (fst) return fst;
    cv_tensor *t = lgg__cv_new_tensor(c, err);
    if (!t) return LGG_ERR_NOMEM;
    t->shard = shard, t->src = s, t->src_name = s->name.ptr, t->xform = xform, t->fp8 = fp8;
    t->work = s->dtype == LGG_TYPE_F16 ? LGG_TYPE_F16 : LGG_TYPE_F32;
    t->n_dims = s->n_dims ? s->n_dims : 1;
    uint64_t total = 1;
    for (uint32_t d = 0; d < 4; d++) t->ne[d] = 1;
    for (uint32_t d = 0; d < s->n_dims; d++) t->ne[d] = (int64_t)s->shape[s->n_dims - 1 - d], total *= s->shape[d];
    if ((xform & CV_X_TRANSPOSE) && s->n_dims == 2) t->ne[0] = (int64_t)s->shape[0], t->ne[1] = (int64_t)s->shape[1];
    t->unit = (uint64_t)t->ne[0];
    if (xform & (CV_X_PERM_Q | CV_X_PERM_K)) {
        int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", 0), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", nh);
        int64_t h = (xform & CV_X_PERM_K) ? nkv : nh;
        t->heads = lgg__cv_heads_ok(h) ? (uint64_t)h : 0;
        if (s->n_dims == 1) t->unit = 1;
        uint64_t rows = s->n_dims ? s->shape[0] : 1;
        if (t->heads == 0 || rows % (2 * t->heads))
            return lgg__cv_fail(err, LGG_ERR_INVALID,
                                "%s/%s: tensor '%s': %llu rows cannot be permuted for %lld heads (config.json)", c->dir,
                                file, s->name.ptr, (unsigned long long)rows, (long long)h);
    }
    if (total == 0) t->unit = 1;
    t->n_units = total / t->unit;
    t->type = out_type(c, gguf, s, (uint64_t)t->ne[0]);
    if (fp8 && c->fp8_as_q8) /* master's tensor_force_quant: Q8_0 (F16 where its blocks do not divide the rows) */
        t->type = t->ne[0] % 32 ? LGG_TYPE_F16 : LGG_TYPE_Q8_0;
    if (!(t->name = strdup(gguf))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->n_t++;
    return LGG_OK;
}

/* One tensor stacked from n sources of equal shape and dtype, in index
 * order: expert matrices into a 3-D tensor, head norms into a 2-D one. */
static lgg_status add_stack(lgg_convert *c, const cv_src *v, uint32_t n, const char *name, const char *what,
                            lgg_error *err) {
    const lgg_st_tensor *t0 = v[0].t;
    for (uint32_t x = 0; x < n; x++) {
        const lgg_st_tensor *s = v[x].t;
        int same = s->n_dims == t0->n_dims && s->dtype == t0->dtype;
        for (uint32_t d = 0; same && d < s->n_dims; d++) same = s->shape[d] == t0->shape[d];
        if (!same)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': %s of one block differ in shape or dtype",
                                c->dir, c->shard_names[v[x].shard], s->name.ptr, what);
    }
    lgg_status st = lgg__cv_add_tensor(c, v[0].shard, t0, name, 0, err);
    if (st) return st;
    cv_tensor *t = &c->t[c->n_t - 1];
    if (!(t->stack = malloc(n * sizeof *t->stack)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s/%s: out of memory", c->dir, c->shard_names[v[0].shard]);
    memcpy(t->stack, v, n * sizeof *t->stack);
    t->n_stack = n;
    t->stack[0].fp8 = t->fp8; /* each source's own scales (the first's were read with the tensor) */
    for (uint32_t x = 1; x < n; x++) {
        lgg_status fst = lgg__cv_fp8_scales(c, v[x].shard, v[x].t, &t->stack[x].fp8, err);
        if (fst) return fst;
    }
    t->ne[t->n_dims++] = (int64_t)n;
    t->n_units *= n; /* its type is one source's: a 2-D .weight as the 3-D one, a norm as the stacked norms */
    return LGG_OK;
}

/* A stacked expert tensor from the block's pending matrices of one slot. */
static lgg_status add_stacked(lgg_convert *c, const struct cv_egroup *g, uint64_t bid, unsigned slot, lgg_error *err) {
    const cv_src *v = g->src + (bid * 3 + slot) * g->n;
    if (v[0].t->n_dims != 2)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': an expert's matrix is not 2-D", c->dir,
                            c->shard_names[v[0].shard], v[0].t->name.ptr);
    char name[128];
    lgg__cv_stacked_name(name, sizeof name, g->gguf[slot], bid);
    return add_stack(c, v, g->n, name, "experts", err);
}

/* master's --fuse-gate-up-exps: each expert's gate rows then its up rows,
 * stacked as one [experts, 2 x ff, n] ffn_gate_up_exps. */
static lgg_status add_gate_up(lgg_convert *c, const struct cv_egroup *eg, uint64_t bid, unsigned gate, unsigned up,
                              lgg_error *err) {
    const cv_src *g = eg->src + (bid * 3 + gate) * eg->n, *u = eg->src + (bid * 3 + up) * eg->n;
    cv_src *v = malloc(2 * (size_t)eg->n * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint32_t x = 0; x < eg->n; x++) v[2 * x] = g[x], v[2 * x + 1] = u[x];
    char name[128];
    lgg__cv_stacked_name(name, sizeof name, "blk.#.ffn_gate_up_exps", bid);
    lgg_status st = g[0].t->n_dims != 2 ? lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': an expert's matrix is not 2-D",
                                                        c->dir, c->shard_names[g[0].shard], g[0].t->name.ptr)
                                        : add_stack(c, v, 2 * eg->n, name, "experts", err);
    free(v);
    if (st) return st;
    cv_tensor *t = &c->t[c->n_t - 1];
    t->ne[1] *= 2, t->ne[2] = (int64_t)eg->n;
    return LGG_OK;
}

/* A group's storage, its count from config.json's `key`. */
static lgg_status expert_group_init(lgg_convert *c, struct cv_egroup *g, const char *key, lgg_error *err) {
    int64_t n = lgg__cv_hparam_int(c, key, 0);
    if (n <= 0 || n > 4096 || c->block_count > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' missing or out of range", c->dir, key);
    g->n = (uint32_t)n;
    g->src = calloc(c->block_count * 3 * g->n, sizeof *g->src);
    g->pending = calloc(c->block_count ? c->block_count : 1, sizeof *g->pending);
    return !g->src || !g->pending ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* Hold one expert's matrix until its block has all of them (3 per expert);
 * then stack each of the three kinds, in table order. */
static lgg_status add_expert(lgg_convert *c, uint32_t shard, const lgg_st_tensor *t, long bid, long xid,
                             const cv_tmap *row, lgg_error *err) {
    unsigned slot = CV_X_SLOT_OF(row->xform);
    struct cv_egroup *g = &c->eg[(row->xform & CV_X_EXPERTS2) ? 1 : 0];
    if (!g->src) {
        const char *key = g == &c->eg[1] ? "lgg.experts2" : c->fam->experts_key ? c->fam->experts_key : "num_local_experts";
        lgg_status st = expert_group_init(c, g, key, err);
        if (st) return st;
    }
    if (bid < 0 || xid < 0 || (uint64_t)xid >= g->n || slot > 2)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': expert number beyond the %u experts",
                            c->dir, c->shard_names[shard], t->name.ptr, g->n);
    g->gguf[slot] = row->gguf;
    cv_src *e = &g->src[((uint64_t)bid * 3 + slot) * g->n + (uint64_t)xid];
    if (!e->t) g->pending[bid]++;
    e->shard = shard, e->t = t;
    if (g->pending[bid] < 3 * g->n) return LGG_OK;
    int gate = -1, up = -1; /* --fuse-gate-up-exps: their slots, written as one where the later of them comes */
    for (int k = 0; c->fuse_gate_up && k < 3; k++) {
        if (strstr(g->gguf[k], ".ffn_gate_exps")) gate = k;
        if (strstr(g->gguf[k], ".ffn_up_exps")) up = k;
    }
    for (int k = 0; k < 3; k++) {
        int fused = gate >= 0 && up >= 0 && (k == gate || k == up);
        lgg_status st = !fused ? add_stacked(c, g, (uint64_t)bid, (unsigned)k, err)
                        : k == (gate > up ? gate : up) ? add_gate_up(c, g, (uint64_t)bid, (unsigned)gate, (unsigned)up, err)
                                                       : LGG_OK;
        if (st) return st;
    }
    g->pending[bid] = 0;
    return LGG_OK;
}

/* The per-head norm stacks' storage, sized from config.json's head counts. */
static lgg_status head_norms_init(lgg_convert *c, lgg_error *err) {
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", 0), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", nh);
    if (!lgg__cv_heads_ok(nh) || !lgg__cv_heads_ok(nkv) || c->block_count > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: num_attention_heads or num_key_value_heads missing or "
                            "out of range", c->dir);
    c->n_heads[0] = (uint32_t)nh, c->n_heads[1] = (uint32_t)nkv;
    c->head_slots = (uint32_t)(nh > nkv ? nh : nkv);
    uint64_t blocks = c->block_count ? c->block_count : 1;
    c->head_norms = calloc(blocks * 2 * c->head_slots, sizeof *c->head_norms);
    c->n_head_pending = calloc(blocks * 2, sizeof *c->n_head_pending);
    if (!c->head_norms || !c->n_head_pending) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* Hold one head's norm vector until its block has all of the slot's heads
 * (as the reference does for StableLM 2 12B), then stack them in head order. */
static lgg_status add_head_norm(lgg_convert *c, uint32_t shard, const lgg_st_tensor *t, long bid, long head,
                                const cv_tmap *row, const char *gguf, lgg_error *err) {
    unsigned slot = CV_X_SLOT_OF(row->xform) & 1;
    if (!c->head_norms) {
        lgg_status st = head_norms_init(c, err);
        if (st) return st;
    }
    if (bid < 0 || head < 0 || (uint64_t)head >= c->n_heads[slot] || t->n_dims != 1)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': not one of the %u heads' norm vectors", c->dir,
                            c->shard_names[shard], t->name.ptr, c->n_heads[slot]);
    uint64_t at = (uint64_t)bid * 2 + slot;
    cv_src *v = c->head_norms + at * c->head_slots;
    if (!v[head].t) c->n_head_pending[at]++;
    v[head].shard = shard, v[head].t = t;
    if (c->n_head_pending[at] < c->n_heads[slot]) return LGG_OK;
    c->n_head_pending[at] = 0;
    return add_stack(c, v, c->n_heads[slot], gguf, "head norms", err); /* gguf: the row's name for this block */
}

/* A block whose experts or head norms did not all arrive. */
static lgg_status check_pending(const lgg_convert *c, lgg_error *err) {
    for (int k = 0; k < 2; k++)
        for (uint64_t b = 0; c->eg[k].pending && b < c->block_count; b++)
            if (c->eg[k].pending[b])
                return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: block %llu has %u of its %u expert tensors (missing shard?)",
                                    c->dir, (unsigned long long)b, c->eg[k].pending[b], 3 * c->eg[k].n);
    for (uint64_t k = 0; c->n_head_pending && k < c->block_count * 2; k++)
        if (c->n_head_pending[k])
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: block %llu has %u of its %u %s norm vectors (missing shard?)",
                                c->dir, (unsigned long long)(k / 2), c->n_head_pending[k], c->n_heads[k & 1],
                                k & 1 ? "key head" : "query head");
    return LGG_OK;
}

/* What master's --mtp keeps besides the next-token-prediction blocks: the embeddings (Ling 3.0's are
 * word_embeddings), the output norm and the head, by name.  Qwen's MTP mixin matches after removing every
 * "language_model." (its multimodal checkpoints' text), and the names without "model." too. */
static int mtp_shared(const lgg_convert *c, const char *name) {
    static const char *const KEEP[] = {"model.embed_tokens.weight", "model.norm.weight", "lm_head.weight",
                                       "model.word_embeddings.weight"};
    static const char *const QWEN_KEEP[] = {"model.embed_tokens.weight", "model.norm.weight", "lm_head.weight",
                                            "embed_tokens.weight", "norm.weight"};
    int qwen = (c->fam->flags & CV_F_QWEN_MTP) != 0;
    char plain[512];
    if (qwen) {
        size_t o = 0;
        for (const char *p = name; *p && o + 1 < sizeof plain;)
            if (!strncmp(p, "language_model.", 15)) p += 15;
            else plain[o++] = *p++;
        plain[o] = 0;
        name = plain;
    }
    for (size_t i = 0; i < (qwen ? 5 : 4); i++)
        if (!strcmp(name, qwen ? QWEN_KEEP[i] : KEEP[i])) return 1;
    return 0;
}

int lgg__cv_skipped(const lgg_convert *c, const char *name) {
    char mtp_name[512];
    if (c->fam->flags & CV_F_QWEN_MTP) name = lgg__cv_qwen_mtp_name(c, name, mtp_name, sizeof mtp_name);
    int layer = !strncmp(name, "model.layers.", 13) && name[13] >= '0' && name[13] <= '9';
    if ((c->fam->flags & CV_F_SKIP_PAST_LAYERS) && layer && strtoull(name + 13, NULL, 10) >= c->block_count)
        return 1;
    if (c->mtp) { /* master's --no-mtp drops the next-token-prediction blocks; --mtp keeps them and what they share */
        int mtp = layer && strtoull(name + 13, NULL, 10) >= c->mtp_main;
        if (c->mtp == LGG_CONVERT_MTP_NONE ? mtp : !mtp && !mtp_shared(c, name)) return 1;
    }
    if (lgg__cv_fp8_skipped(c, name)) return 1; /* consumed by the dequantization */
    if (lgg__cv_nvfp4_skipped(c, name)) return 1; /* written by nvfp4.c, or dropped */
    return lgg__cv_ends_with(name, ".attention.masked_bias") || lgg__cv_ends_with(name, ".attention.bias") ||
           lgg__cv_ends_with(name, ".rotary_emb.inv_freq");
}

/* Every source tensor in the reference's order: shards by file name, names
 * within a shard in byte order. */
static lgg_status plan(lgg_convert *c, lgg_error *err) {
    lgg_status gst = lgg__cv_nvfp4_plan(c, err);
    if (!gst) gst = lgg__cv_generated(c, err);
    for (size_t i = 0; !gst && i < c->n_extra_t; i++)
        gst = lgg__cv_add_tensor(c, c->extra_t[i].shard, c->extra_t[i].t, c->extra_t[i].name, 0, err);
    if (gst) return gst;
    for (uint32_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            const lgg_st_tensor *t = lgg_st_at(c->shards[s], i);
            if (lgg__cv_skipped(c, t->name.ptr)) continue;
            char out[512], renamed[512];
            const char *hf = t->name.ptr;
            unsigned xform = 0;
            long bid = -1, xid = -1;
            char mtp[512];
            if (c->fam->flags & CV_F_QWEN_MTP) hf = lgg__cv_qwen_mtp_name(c, hf, mtp, sizeof mtp);
            if (c->fam->flags & CV_F_JAMBA_NAMES) hf = lgg__cv_jamba_name(c, hf, mtp, sizeof mtp);
            if (c->hooks && c->hooks->hf_name) { /* the family's own renames and drops */
                if (!c->hooks->hf_name(hf, renamed, sizeof renamed)) continue;
                hf = renamed;
            }
            const cv_tmap *row = lgg__cv_map_name(c->fam, hf, out, sizeof out, &xform, &bid, &xid);
            if (!row ||
                (bid >= 0 && (uint64_t)bid >= c->block_count))
                return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': no GGUF name for it in the %s table",
                                    c->dir, c->shard_names[s], t->name.ptr, c->fam->arch);
            if (xform & CV_X_SKIP) continue;
            int stacked = (xform & (CV_X_EXPERT | CV_X_HEAD_NORM)) != 0;
            lgg_status st = (xform & CV_X_EXPERT)      ? add_expert(c, s, t, bid, xid, row, err)
                            : (xform & CV_X_HEAD_NORM) ? add_head_norm(c, s, t, bid, xid, row, out, err)
                                                       : lgg__cv_add_tensor(c, s, t, out, xform, err);
            if (!st && !stacked && c->hooks && c->hooks->tensor) st = c->hooks->tensor(c, &c->t[c->n_t - 1], err);
            if (st) return st;
        }
    return check_pending(c, err);
}

lgg_status lgg__cv_load_config(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_json(c, "config.json", 1, &c->config, err);
    if (st) return st;
    json_t *archs = json_object_get(c->config, "architectures");
    json_t *a0 = json_array_get(archs, 0);
    if (!json_is_string(a0))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'architectures' is missing or not a list of names",
                            c->dir);
    const char *why = lgg__cv_family_not_yet(json_string_value(a0));
    if (why)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: architecture '%.60s' is not converted: %s (docs/convert.md)",
                            c->dir, json_string_value(a0), why);
    if (!(c->fam = lgg__cv_family_find(json_string_value(a0)))) {
        char list[200]; /* what fits in a message; lgg_convert_supported_models has them all */
        lgg__cv_family_list(list, sizeof list);
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: architecture '%.60s' is not supported (supported: %s)",
                            c->dir, json_string_value(a0), list);
    }
    int master_only = (c->fam->flags & CV_F_MASTER) != 0;
    if (master_only && c->target == LGG_CONVERT_TARGET_B4747)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: architecture '%.60s' is not converted by llama.cpp b4747 (only master "
                            "converts it): it has no b4747 output to follow; use target master (docs/convert.md)",
                            c->dir, json_string_value(a0));
    c->master = c->target == LGG_CONVERT_TARGET_MASTER || (master_only && c->target == LGG_CONVERT_TARGET_DEFAULT);
    if (c->master) c->fam = lgg__cv_family_master(c->fam, json_string_value(a0));
    if (c->mtp && (!c->master || !(c->fam->flags & CV_F_MTP)))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: --%s (lgg_convert_options.mtp) is not taken for architecture '%.60s': "
                            "llama.cpp %s refuses it (docs/convert.md)", c->dir, c->mtp == LGG_CONVERT_MTP_ONLY ? "mtp" : "no-mtp",
                            json_string_value(a0), c->master ? "master" : "b4747");
    /* master fuses only for architectures whose tensor list has ffn_gate_up_exps (qwen3next, qwen35moe,
     * gemma4, cohere2moe, mistral4, granite_swa: CV_F_GATE_UP_EXPS); for the others its converter stops
     * ("Missing FFN_GATE_UP_EXP for MODEL_TENSORS of ...") */
    if (c->fuse_gate_up && !(c->master && (c->fam->flags & CV_F_GATE_UP_EXPS)))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: --fuse-gate-up-exps: llama.cpp %s has no "
                            "ffn_gate_up_exps for architecture '%s' and refuses it", c->dir,
                            c->master ? "master" : "b4747", c->fam->arch);
    c->hooks = c->fam->hooks;
    if ((st = lgg__cv_fp8_init(c, err)) != LGG_OK || (st = lgg__cv_nvfp4_init(c, err)) != LGG_OK) return st;
    if (c->hooks && c->hooks->init && (st = c->hooks->init(c, err)) != LGG_OK) return st;
    static const char *const bc[] = {"n_layers", "num_hidden_layers", "n_layer", "num_layers"};
    for (size_t i = 0; i < 4; i++) {
        json_t *v = json_object_get(c->config, bc[i]);
        if (!v) continue;
        if (!json_is_integer(v) || json_integer_value(v) < 0)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a count", c->dir, bc[i]);
        c->block_count = (uint64_t)json_integer_value(v);
        return LGG_OK;
    }
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_hidden_layers' is missing", c->dir);
}

/* Master's --outtype auto: the first tensor of two or more dimensions in
 * F16 or BF16 (the family's dropped ones not looked at) names it, else f16. */
static uint32_t master_auto(const lgg_convert *c) {
    char renamed[512];
    for (size_t s = 0; s < c->n_shards; s++)
        for (size_t i = 0; i < lgg_st_count(c->shards[s]); i++) {
            const lgg_st_tensor *t = lgg_st_at(c->shards[s], i);
            if (t->n_dims < 2 || (c->hooks && c->hooks->hf_name && !c->hooks->hf_name(t->name.ptr, renamed, sizeof renamed)))
                continue;
            if (t->dtype == LGG_TYPE_BF16) return LGG_CONVERT_BF16;
            if (t->dtype == LGG_TYPE_F16) return LGG_CONVERT_F16;
        }
    return LGG_CONVERT_F16;
}

/* --outtype auto: f16 when the first tensor read is f16, else bf16 (b4747);
 * master_auto's for target master. */
static void resolve_outtype(lgg_convert *c, uint32_t outtype) {
    c->outtype = outtype;
    if (outtype != LGG_CONVERT_AUTO) return;
    if (c->master && !c->lora) {
        c->outtype = master_auto(c);
        return;
    }
    const lgg_st_tensor *first = NULL;
    for (size_t s = 0; s < c->n_shards && !first; s++) first = lgg_st_at(c->shards[s], 0);
    c->outtype = first && first->dtype == LGG_TYPE_F16 ? LGG_CONVERT_F16 : LGG_CONVERT_BF16;
}

lgg_status lgg__cv_new(const char *dir, const lgg_convert_options *o, lgg_convert_options *copy, lgg_convert **out,
                      lgg_error *err) {
    *out = NULL;
    /* the caller's struct as this version knows it (libgguf.h: options
     * that can grow; the first layout is the whole struct) */
    lgg_status cst = o ? lgg_options_copy(copy, sizeof *copy, offsetof(lgg_convert_options, io), o, "lgg_convert_options", err)
                       : LGG_OK;
    if (cst != LGG_OK) return cst;
    if (!o) lgg_convert_options_init(copy);
    if (copy->outtype > LGG_CONVERT_TQ2_0)
        return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_open: bad outtype %u", copy->outtype);
    if (copy->target > LGG_CONVERT_TARGET_MASTER)
        return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_open: bad target %u", copy->target);
    if (copy->mtp > LGG_CONVERT_MTP_NONE)
        return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_open: bad mtp %llu", (unsigned long long)copy->mtp);
    lgg_convert *c = calloc(1, sizeof *c);
    if (!c || !(c->dir = strdup(dir))) {
        free(c);
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    lgg_status st0 = LGG_OK;
    /* <= 0: one per CPU, asked once here (not at every chunk) */
    c->n_threads = copy->n_threads > 0 ? copy->n_threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
    c->vocab_only = copy->vocab_only;
    c->max_json = copy->max_json_size;
    c->target = copy->target;
    c->mtp = (uint32_t)copy->mtp;
    c->fp8_as_q8 = copy->fp8_as_q8;
    c->fuse_gate_up = copy->fuse_gate_up_exps;
    c->st_dense = copy->sentence_transformers_dense_modules;
    if (copy->io && !(st0 = lgg_options_copy(&c->io, sizeof c->io, sizeof c->io, copy->io, "lgg_convert_io", err))) {
        c->has_io = 1;
        if (!c->io.file_at || !c->io.read) st0 = lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_open: io without callbacks");
    }
    if (st0) {
        lgg_convert_free(c);
        return st0;
    }
    *out = c;
    return LGG_OK;
}

lgg_status lgg__cv_finish(lgg_convert *c, const lgg_convert_options *o, lgg_status st, lgg_convert **out,
                         lgg_error *err) {
    if (!st && lgg_writer_create(NULL, &c->w, NULL)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) st = lgg__cv_metadata(c, o, err);
    if (!st) st = lgg__cv_add_tensors(c, err);
    if (st) {
        lgg_convert_free(c);
        return st;
    }
    *out = c;
    return LGG_OK;
}

lgg_status lgg_convert_open(const char *dir, const lgg_convert_options *o, lgg_convert **out, lgg_error *err) {
    if (!dir || !out) return lgg__cv_fail(err, LGG_ERR_ARG, "lgg_convert_open: NULL argument");
    lgg_convert_options copy;
    lgg_convert *c;
    lgg_status st = lgg__cv_new(dir, o, &copy, &c, err);
    if (st) return st;
    st = lgg__cv_load_config(c, err);
    if (!st) st = list_shards(c, err);
    if (!st) st = lgg__cv_open_shards(c, err);
    if (!st) st = check_index(c, err);
    if (!st) {
        resolve_outtype(c, copy.outtype);
        if (!copy.vocab_only) st = plan(c, err);
    }
    return lgg__cv_finish(c, &copy, st, out, err);
}

void lgg_convert_free(lgg_convert *c) {
    if (!c) return;
    lgg_convert_unshare(c);
    lgg_writer_free(c->w);
    for (size_t i = 0; i < c->n_t; i++) free(c->t[i].name), free(c->t[i].stack), free(c->t[i].gen);
    for (int k = 0; k < 2; k++) free(c->eg[k].src), free(c->eg[k].pending);
    free(c->head_norms);
    free(c->n_head_pending);
    lgg__cv_fp8_free(c);
    free(c->t);
    for (size_t i = 0; i < c->n_shards + c->n_extra; i++) {
        if (c->shards) lgg_st_close(c->shards[i]);
        free(c->shard_names[i]);
    }
    free(c->shards);
    free(c->shard_names);
    free(c->extra_t);
    lgg__cv_windows_free(c);
    json_decref(c->config);
    json_decref(c->card_config);
    free(c->default_name);
    free(c->scratch);
    free(c->row);
    for (int i = 0; i < c->n_early; i++) free(c->early[i].v);
    for (size_t i = 0; i < c->n_inputs; i++) free(c->inputs[i]);
    free(c->inputs);
    free(c->dir);
    free(c);
}

const char *lgg_convert_input(const lgg_convert *c, size_t i) { return c && i < c->n_inputs ? c->inputs[i] : NULL; }

lgg_writer *lgg_convert_writer(lgg_convert *c) { return c ? c->w : NULL; }

size_t lgg_convert_default_name(const lgg_convert *c, char *buf, size_t cap) {
    return (size_t)snprintf(buf, cap, "%s", c && c->default_name ? c->default_name : "ggml-model.gguf");
}

const char *lgg_convert_ftype_name(const lgg_convert *c) { return c ? lgg__cv_outtype_name(c) : ""; }

size_t lgg_convert_tensor_count(const lgg_convert *c) { return c ? c->n_t : 0; }

lgg_status lgg_convert_tensor_at(const lgg_convert *c, size_t i, lgg_convert_tensor *out) {
    if (!c || !out || i >= c->n_t) return LGG_ERR_RANGE;
    const cv_tensor *t = &c->t[i];
    out->name = t->name;
    out->source = t->src_name;
    out->file = t->gen ? "" : c->shard_names[t->shard];
    out->type = t->type;
    out->n_dims = t->n_dims;
    memcpy(out->ne, t->ne, sizeof out->ne);
    return LGG_OK;
}

void lgg_convert_set_progress(lgg_convert *c, lgg_convert_progress_fn fn, void *ud) {
    if (!c) return;
    c->progress = fn;
    c->progress_ud = ud;
}

uint64_t lgg_convert_total_bytes(const lgg_convert *c) { return c ? c->total : 0; }

