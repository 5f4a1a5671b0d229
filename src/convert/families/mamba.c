/* mamba.c -- what the Mamba family (MambaForCausalLM, MambaLMHeadModel,
 * FalconMambaForCausalLM) does in code in the reference converter: its
 * vocabulary size padded to a multiple, its own hyperparameters with their
 * defaults, A = -exp(A_log) computed as torch computes it, and the output
 * head dropped when it equals the embeddings. */
#include "../cvint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 2^q for q in the normal exponent range. */
static float pow2i(int q) {
    uint32_t b = (uint32_t)(q + 0x7f) << 23;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* torch's float32 exp on x86 (torch 1.13's Vectorized<float>::exp is
 * SLEEF 3.5's expf_u10 in its AVX2 and AVX-512 builds, both with fused
 * multiply-adds): the same operations in scalar form, so the bytes do not
 * depend on the CPU.  It differs from glibc's expf in about 1 value in 12.
 * Checked equal to torch.exp on 4.2 million random floats of [-120, 120]
 * and 2 million evenly spaced ones of [-12, 12]. */
float lgg__cv_torch_expf(float d) {
    if (isnan(d)) return d;
    if (d < -104) return 0;
    if (d > 100) return INFINITY;
    int q = (int)rintf(d * 1.442695040888963407359924681001892137426645954152985934135449406931f);
    float s = fmaf((float)q, -0.693145751953125f, d);
    s = fmaf((float)q, -1.428606765330187045e-06f, s);
    float u = 0.000198527617612853646278381f;
    u = fmaf(u, s, 0.00139304355252534151077271f);
    u = fmaf(u, s, 0.00833336077630519866943359f);
    u = fmaf(u, s, 0.0416664853692054748535156f);
    u = fmaf(u, s, 0.166666671633720397949219f);
    u = fmaf(u, s, 0.5f);
    u = 1.0f + fmaf(s * s, u, s);
    return u * pow2i(q >> 1) * pow2i(q - (q >> 1)); /* SLEEF's ldexp in two steps */
}

/* Python's truth of a JSON value (the reference's `x or default`). */
static int truthy(const json_t *v) {
    return json_is_true(v) || (json_is_integer(v) && json_integer_value(v)) || (json_is_real(v) && json_real_value(v)) ||
           (json_is_string(v) && json_string_length(v));
}

/* find_hparam(keys) or dflt: the first of keys ('|'-separated) present,
 * when true. */
lgg_status lgg__cv_find_count(lgg_convert *c, const char *keys, int64_t dflt, uint32_t *out, lgg_error *err) {
    char key[48] = "";
    const json_t *v = NULL;
    for (const char *p = keys; *p && !v;) {
        size_t l = strcspn(p, "|");
        snprintf(key, sizeof key, "%.*s", (int)l, p);
        v = json_object_get(c->config, key);
        p += l + (p[l] == '|');
    }
    if (!v) snprintf(key, sizeof key, "%.*s", (int)strcspn(keys, "|"), keys);
    if (!truthy(v)) {
        *out = (uint32_t)dflt;
        if (dflt < 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or 0", c->dir, key);
        return dflt > UINT32_MAX
                   ? lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: default of key '%s' out of range", c->dir, key)
                   : LGG_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a 32-bit count", c->dir, key);
    *out = (uint32_t)json_integer_value(v);
    return LGG_OK;
}

/* find_hparam(["layer_norm_epsilon", "rms_norm_eps"]) or 1e-5. */
lgg_status lgg__cv_mamba_eps(lgg_convert *c, float *eps, lgg_error *err) {
    const char *ek = json_object_get(c->config, "layer_norm_epsilon") ? "layer_norm_epsilon" : "rms_norm_eps";
    const json_t *v = json_object_get(c->config, ek);
    if (truthy(v) && !json_is_number(v))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a number", c->dir, ek);
    *eps = truthy(v) ? (float)json_number_value(v) : 1e-5f;
    return LGG_OK;
}

/* The vocabulary size rounded up to a multiple of pad, which the reference
 * writes back into its hyperparameters. */
lgg_status lgg__cv_pad_vocab(lgg_convert *c, int64_t pad, lgg_error *err) {
    const json_t *vs = json_object_get(c->config, "vocab_size");
    if (!json_is_integer(vs) || json_integer_value(vs) < 0 || json_integer_value(vs) > (1 << 30))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'vocab_size' is missing or not a count", c->dir);
    if (pad <= 0 || pad > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'pad_vocab_size_multiple' is not a positive count", c->dir);
    int64_t n = (json_integer_value(vs) + pad - 1) / pad * pad;
    return json_object_set_new(c->config, "vocab_size", json_integer(n)) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
                                                                        : LGG_OK;
}

/* pad_vocab_size_multiple, else dflt. */
static lgg_status pad_vocab(lgg_convert *c, int64_t dflt, lgg_error *err) {
    const json_t *pm = json_object_get(c->config, "pad_vocab_size_multiple");
    return lgg__cv_pad_vocab(c, pm ? (json_is_integer(pm) ? json_integer_value(pm) : 0) : dflt, err);
}

static lgg_status mamba_init(lgg_convert *c, lgg_error *err) { return pad_vocab(c, 8, err); }

static int same_bytes_as_values(const cv_tensor *a, const cv_tensor *b, const uint8_t *pa, const uint8_t *pb) {
    uint64_t n = a->unit * a->n_units;
    for (uint64_t i = 0; i < n; i++) {
        float x[2];
        const cv_tensor *t[2] = {a, b};
        const uint8_t *p[2] = {pa, pb};
        for (int k = 0; k < 2; k++) {
            uint16_t h;
            if (t[k]->src->dtype == LGG_TYPE_F32) memcpy(&x[k], p[k] + i * 4, 4);
            else memcpy(&h, p[k] + i * 2, 2), x[k] = t[k]->src->dtype == LGG_TYPE_F16 ? lgg_f16_to_f32(h) : lgg_bf16_to_f32(h);
        }
        if (!(x[0] == x[1])) return 0; /* torch.equal: values, NaN unequal */
    }
    return 1;
}

/* 1 equal, 0 not, -(status) when a source cannot be read */
static int same_values(lgg_convert *c, const cv_tensor *a, const cv_tensor *b, lgg_error *err) {
    if (a->n_dims != b->n_dims || memcmp(a->ne, b->ne, sizeof a->ne)) return 0;
    const uint8_t *pa, *pb;
    void *oa = NULL, *ob = NULL;
    lgg_status st = lgg__cv_src_bytes(c, a->shard, a->src, &pa, &oa, err);
    if (!st) st = lgg__cv_src_bytes(c, b->shard, b->src, &pb, &ob, err);
    if (st) return free(oa), -(int)st;
    int same = same_bytes_as_values(a, b, pa, pb);
    free(oa), free(ob);
    return same;
}

/* torch's squeeze(): every dimension of 1 goes (the bytes stay). */
void lgg__cv_squeeze(cv_tensor *t) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->n_dims; i++)
        if (t->ne[i] != 1) t->ne[k++] = t->ne[i];
    t->n_dims = k ? k : 1;
    for (uint32_t i = k; i < 4; i++) t->ne[i] = 1;
}

/* A_log becomes -exp(A_log) (with target master the conv1d weights are
 * squeezed, as master's MambaModel does; b4747 kept the (d_inner, 1,
 * d_conv) shape); the output head equal (torch.equal) to the
 * embeddings read before it is dropped. */
static lgg_status mamba_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (t->src_name && strlen(t->src_name) >= 6 && !strcmp(t->src_name + strlen(t->src_name) - 6, ".A_log"))
        t->xform |= CV_X_NEG_EXP;
    if (c->master && lgg__cv_ends_with(t->name, ".ssm_conv1d.weight")) lgg__cv_squeeze(t);
    if (strcmp(t->name, "output.weight")) return LGG_OK;
    for (size_t i = 0; i + 1 < c->n_t; i++) {
        int same = strcmp(c->t[i].name, "token_embd.weight") ? 0 : same_values(c, &c->t[i], t, err);
        if (same < 0) return (lgg_status)-same;
        if (same) {
            free(t->name); /* the last entry: taken back */
            memset(t, 0, sizeof *t);
            c->n_t--;
            break;
        }
    }
    return LGG_OK;
}

static lgg_status mamba_meta(lgg_convert *c, lgg_error *err) {
    uint32_t d_model, d_conv, d_inner, d_state, dt_rank;
    lgg_status st = lgg__cv_find_count(c, "hidden_size|d_model", -1, &d_model, err);
    if (st || !d_model)
        return st ? st : lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'hidden_size' (or d_model) is missing", c->dir);
    if (!st) st = lgg__cv_find_count(c, "conv_kernel|d_conv", 4, &d_conv, err);
    if (!st) st = lgg__cv_find_count(c, "intermediate_size|d_inner", 2 * (int64_t)d_model, &d_inner, err);
    if (!st) st = lgg__cv_find_count(c, "state_size|d_state", 16, &d_state, err);
    if (!st) st = lgg__cv_find_count(c, "time_step_rank|dt_rank", (d_model + 15) / 16, &dt_rank, err);
    if (st) return st;
    if (d_inner != 2 * (uint64_t)d_model) /* the reference asserts it */
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: key 'intermediate_size' %u is not 2 * hidden_size", c->dir,
                            d_inner);
    float eps;
    const json_t *mt = json_object_get(c->config, "model_type");
    if ((st = lgg__cv_mamba_eps(c, &eps, err)) != LGG_OK) return st;
    const struct {
        const char *name;
        uint32_t v;
    } counts[] = {{"context_length", 1u << 20}, {"embedding_length", d_model}, {"feed_forward_length", 0},
                  {"attention.head_count", 0},   {"block_count", (uint32_t)c->block_count}, {"ssm.conv_kernel", d_conv},
                  {"ssm.inner_size", d_inner},   {"ssm.state_size", d_state},    {"ssm.time_step_rank", dt_rank}};
    if (c->block_count > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the block count is beyond 32 bits", c->dir);
    for (size_t i = 0; !st && i < sizeof counts / sizeof counts[0]; i++) st = lgg__cv_put_arch_u32(c, counts[i].name, counts[i].v, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "attention.layer_norm_rms_epsilon", eps, err);
    /* Falcon Mamba norms B, C and dt */
    int falcon = json_is_string(mt) && !strcmp(json_string_value(mt), "falcon_mamba");
    if (!st) st = lgg__cv_put_arch_bool(c, "ssm.dt_b_c_rms", falcon, err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    return st;
}

/* tokenizer.json (BPE), else tokenizer.model; the reference's last resort,
 * its own copy of GPT-NeoX's vocabulary, is not part of this tool. */
static lgg_status mamba_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (lgg__cv_exists(c, "tokenizer.json", NULL)) return lgg__cv_bpe(c, tc, o, err);
    if (lgg__cv_exists(c, "tokenizer.model", NULL)) return lgg__cv_spm(c, tc, err);
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s: no tokenizer.json or tokenizer.model (the reference falls back to its bundled GPT-NeoX "
                        "vocabulary, which is not part of this tool)",
                        c->dir);
}

const cv_hooks lgg__cv_hooks_mamba = {mamba_init, NULL, mamba_tensor, mamba_meta, mamba_vocab, NULL};

/* Mamba 2 (llama.cpp master's Mamba2Model): d_model, d_inner (expand *
 * d_model unless given), the group count and the head size, as master
 * finds them; checked as master asserts them. */
lgg_status lgg__cv_mamba2_dims(lgg_convert *c, cv_mamba2 *d, lgg_error *err) {
    uint32_t expand;
    lgg_status st = lgg__cv_find_count(c, "hidden_size|d_model|dim", -1, &d->d_model, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_expand|expand", 2, &expand, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_ssm|intermediate_size|d_inner", (int64_t)expand * d->d_model, &d->d_inner, err);
    if (!st) st = lgg__cv_find_count(c, "n_groups", 1, &d->n_group, err);
    if (!st) st = lgg__cv_find_count(c, "mamba_d_head|head_dim", 64, &d->head_dim, err);
    if (!st) st = lgg__cv_find_count(c, "conv_kernel|d_conv", 4, &d->d_conv, err);
    if (!st) st = lgg__cv_find_count(c, "state_size|d_state", 128, &d->d_state, err);
    if (st) return st;
    if (!d->d_model || !d->d_inner || !d->head_dim || d->d_inner % d->head_dim || d->d_inner % d->n_group)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: d_inner %u is not a multiple of the head size %u and the group count %u "
                            "(hidden_size %u)", c->dir, d->d_inner, d->head_dim, d->n_group, d->d_model);
    d->expand = expand;
    return LGG_OK;
}

/* Master's Mamba2Model.set_vocab: the vocabulary padded to a multiple of 16. */
static lgg_status mamba2_init(lgg_convert *c, lgg_error *err) {
    cv_mamba2 d;
    lgg_status st = lgg__cv_mamba2_dims(c, &d, err);
    if (st) return st;
    if (d.d_inner != (uint64_t)d.expand * d.d_model) /* master asserts it */
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: d_inner %u is not expand %u * hidden_size %u", c->dir,
                            d.d_inner, d.expand, d.d_model);
    return pad_vocab(c, 16, err);
}

/* Codestral's model.backbone. and model.lm_head names without "model.";
 * dt_bias as dt_proj's bias. */
int lgg__cv_mamba2_hf_name(const char *hf, char *out, size_t cap) {
    if (!strncmp(hf, "model.backbone", 14) || !strncmp(hf, "model.lm_head", 13)) hf += 6;
    size_t l = strlen(hf);
    if (lgg__cv_ends_with(hf, ".dt_bias")) snprintf(out, cap, "%.*s.dt_proj.bias", (int)(l - 8), hf);
    else snprintf(out, cap, "%s", hf);
    return 1;
}

/* Whether name is blk.N.WHAT exactly (no suffix). */
int lgg__cv_block_name_is(const char *name, const char *what) {
    if (strncmp(name, "blk.", 4)) return 0;
    const char *p = name + 4;
    while (*p >= '0' && *p <= '9') p++;
    return p > name + 4 && *p == '.' && !strcmp(p + 1, what);
}

/* Master's Mamba 2 tensors: conv1d squeezed, A and D given a trailing 1
 * (A = -exp(A_log)), the gated norm as (groups, d_inner / groups). */
lgg_status lgg__cv_mamba2_tensor(lgg_convert *c, cv_tensor *t, const cv_mamba2 *d, lgg_error *err) {
    if (lgg__cv_ends_with(t->src_name, ".A_log")) t->xform |= CV_X_NEG_EXP;
    if (lgg__cv_ends_with(t->name, ".ssm_conv1d.weight")) {
        lgg__cv_squeeze(t);
    } else if (lgg__cv_block_name_is(t->name, "ssm_a") || lgg__cv_block_name_is(t->name, "ssm_d")) {
        if (t->n_dims == 4)
            return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': 4 dimensions and a trailing 1 are more than GGUF holds",
                                c->dir, t->src_name);
        memmove(t->ne + 1, t->ne, 3 * sizeof t->ne[0]);
        t->ne[0] = 1, t->n_dims++;
    } else if (lgg__cv_ends_with(t->name, ".ssm_norm.weight")) {
        uint64_t n = (uint64_t)t->ne[0] * (uint64_t)t->ne[1] * (uint64_t)t->ne[2] * (uint64_t)t->ne[3];
        if (!d->n_group || d->d_inner % d->n_group)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': d_inner %u is not a multiple of the group count %u "
                                "(config.json)", c->dir, t->src_name, d->d_inner, d->n_group);
        if (n != d->d_inner)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %llu values, not d_inner %u (config.json)", c->dir,
                                t->src_name, (unsigned long long)n, d->d_inner);
        t->ne[0] = d->d_inner / d->n_group, t->ne[1] = d->n_group, t->ne[2] = t->ne[3] = 1, t->n_dims = 2;
    }
    return LGG_OK;
}

static lgg_status mamba2_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    cv_mamba2 d;
    lgg_status st = lgg__cv_mamba2_dims(c, &d, err);
    return st ? st : lgg__cv_mamba2_tensor(c, t, &d, err);
}

/* The ssm.* keys master's Mamba2Model writes (the hybrids write them too). */
lgg_status lgg__cv_mamba2_ssm_keys(lgg_convert *c, const cv_mamba2 *d, lgg_error *err) {
    const struct {
        const char *name;
        uint32_t v;
    } counts[] = {{"ssm.conv_kernel", d->d_conv},
                  {"ssm.inner_size", d->d_inner},
                  {"ssm.state_size", d->d_state},
                  {"ssm.time_step_rank", d->d_inner / d->head_dim},
                  {"ssm.group_count", d->n_group}};
    lgg_status st = LGG_OK;
    for (size_t i = 0; !st && i < sizeof counts / sizeof counts[0]; i++) st = lgg__cv_put_arch_u32(c, counts[i].name, counts[i].v, err);
    return st;
}

static lgg_status mamba2_meta(lgg_convert *c, lgg_error *err) {
    cv_mamba2 d;
    float eps;
    lgg_status st = lgg__cv_mamba2_dims(c, &d, err);
    if (!st) st = lgg__cv_mamba_eps(c, &eps, err);
    if (st) return st;
    if (c->block_count > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the block count is beyond 32 bits", c->dir);
    const struct {
        const char *name;
        uint32_t v;
    } counts[] = {{"context_length", 1u << 20}, {"embedding_length", d.d_model}, {"feed_forward_length", 0},
                  {"attention.head_count", 0},   {"block_count", (uint32_t)c->block_count}};
    for (size_t i = 0; !st && i < sizeof counts / sizeof counts[0]; i++) st = lgg__cv_put_arch_u32(c, counts[i].name, counts[i].v, err);
    if (!st) st = lgg__cv_mamba2_ssm_keys(c, &d, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "attention.layer_norm_rms_epsilon", eps, err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    return st;
}

/* tokenizer.model (SentencePiece), tokenizer.json (BPE); Codestral's
 * tokenizer.model.v3 master asks to rename; master's bundled GPT-NeoX
 * vocabulary is not part of this tool. */
lgg_status lgg__cv_mamba2_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (lgg__cv_exists(c, "tokenizer.model", NULL)) return lgg__cv_spm(c, tc, err);
    if (lgg__cv_exists(c, "tokenizer.model.v3", NULL))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tokenizer.model.v3: rename it to tokenizer.model (llama.cpp master "
                            "stops with the same request)", c->dir);
    if (lgg__cv_exists(c, "tokenizer.json", NULL)) return lgg__cv_bpe(c, tc, o, err);
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s: no tokenizer.model or tokenizer.json (llama.cpp master falls back to its bundled GPT-NeoX "
                        "vocabulary, which is not part of this tool)", c->dir);
}

const cv_hooks lgg__cv_hooks_mamba2 = {mamba2_init, lgg__cv_mamba2_hf_name, mamba2_tensor, mamba2_meta, lgg__cv_mamba2_vocab, NULL};
