/* bert.c -- what the BERT family (BertModel and the names registered with
 * it) does in code in the reference converter: its tensor renames and
 * drops, the keys it writes after the common ones (attention not causal,
 * the sentence-transformers pooling type), and its vocabulary (the token
 * type count, then WordPiece, wpm.c). */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* "bert." dropped, old-style LayerNorm names (.gamma/.beta) made
 * .weight/.bias; the pooler and the pre-training heads are not used for
 * embeddings and are dropped. */
static int bert_name(const char *hf, char *out, size_t cap) {
    if (starts(hf, "bert.")) hf += 5;
    size_t l = strlen(hf);
    if (l >= cap) l = cap - 1;
    int n = snprintf(out, cap, "%.*s", (int)l, hf);
    if (n >= 6 && !strcmp(out + n - 6, ".gamma")) snprintf(out + n - 6, cap - (size_t)(n - 6), ".weight");
    else if (n >= 5 && !strcmp(out + n - 5, ".beta")) snprintf(out + n - 5, cap - (size_t)(n - 5), ".bias");
    return strcmp(out, "embeddings.position_ids") && strcmp(out, "pooler.dense.weight") &&
           strcmp(out, "pooler.dense.bias") && !starts(out, "cls.predictions") && !starts(out, "cls.seq_relationship");
}

/* Python's truth of a JSON value (the reference tests the flags with `if`). */
static int truthy(const json_t *v) {
    return json_is_true(v) || (json_is_integer(v) && json_integer_value(v)) || (json_is_real(v) && json_real_value(v)) ||
           (json_is_string(v) && json_string_length(v)) || (json_is_array(v) && json_array_size(v)) ||
           (json_is_object(v) && json_object_size(v));
}

/* modules.json's first sentence_transformers Pooling module: its
 * config.json gives MEAN (1) or CLS (2); *type 0 when there is none. */
static lgg_status pooling(lgg_convert *c, uint32_t *type, lgg_error *err) {
    json_t *mods = NULL, *pc = NULL;
    *type = 0;
    lgg_status st = lgg__cv_json_value(c, "modules.json", 0, &mods, err);
    if (st || !mods) return st;
    const char *path = NULL;
    size_t i;
    json_t *m;
    json_array_foreach(mods, i, m) {
        const char *ty = json_string_value(json_object_get(m, "type"));
        if (ty && !strcmp(ty, "sentence_transformers.models.Pooling")) {
            path = json_string_value(json_object_get(m, "path"));
            if (!path) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/modules.json: the Pooling module has no 'path'", c->dir);
            break;
        }
    }
    char name[512];
    if (!st && path) { /* a folder of the model, not a path out of it */
        if (path[0] == '/' || strstr(path, "..") || strlen(path) > 400)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/modules.json: Pooling path '%.60s' is not a folder of the model",
                              c->dir, path);
        else
            snprintf(name, sizeof name, "%s/config.json", path), st = lgg__cv_json(c, name, 1, &pc, err);
    }
    if (!st && pc) {
        const json_t *mean = json_object_get(pc, "pooling_mode_mean_tokens"), *cls = json_object_get(pc, "pooling_mode_cls_token");
        if (!mean || (!truthy(mean) && !cls))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: key '%s' is missing", c->dir, name,
                              mean ? "pooling_mode_cls_token" : "pooling_mode_mean_tokens");
        else if (truthy(mean)) *type = 1;
        else if (truthy(cls)) *type = 2;
        else st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: only MEAN and CLS pooling are supported", c->dir, name);
    }
    json_decref(pc);
    json_decref(mods);
    return st;
}

/* config.json's id2label as master reads it (transformers' config: keys
 * as numbers): *labels (malloc'd) the labels in key order, *n how many; *n 0
 * when there are none or they are the two placeholders transformers adds
 * (LABEL_0, LABEL_1). */
static lgg_status cls_labels(const lgg_convert *c, lgg_str **labels, size_t *n, lgg_error *err) {
    const json_t *m = json_object_get(c->config, "id2label");
    size_t k = json_object_size(m);
    *n = 0, *labels = NULL;
    if (!m) return LGG_OK;
    if (!json_is_object(m) || k > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'id2label' is not an object of labels", c->dir);
    if (!k) return LGG_OK;
    lgg_str *l = calloc(k, sizeof *l);
    if (!l) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)m, key, v) {
        char *end = NULL;
        unsigned long id = strtoul(key, &end, 10);
        if (!*key || *end || id >= k || l[id].ptr || !json_is_string(v)) {
            free(l);
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'id2label' is not labels 0 to %zu", c->dir, k - 1);
        }
        l[id].ptr = json_string_value(v), l[id].len = json_string_length(v);
    }
    if (k == 2 && !strcmp(l[0].ptr, "LABEL_0")) return free(l), LGG_OK;
    *labels = l, *n = k;
    return LGG_OK;
}

static lgg_status bert_meta(lgg_convert *c, lgg_error *err) {
    char key[96];
    snprintf(key, sizeof key, "%s.attention.causal", c->fam->arch);
    if (lgg_writer_set_bool(c->w, key, false, NULL)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    if (c->master) { /* master's pooling rule, then the classifier's labels */
        lgg_str *labels = NULL;
        size_t n = 0;
        lgg_status st = lgg__cv_master_pooling(c, err);
        if (!st) st = cls_labels(c, &labels, &n, err);
        lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_STRING, n, labels};
        snprintf(key, sizeof key, "%s.classifier.output_labels", c->fam->arch);
        if (!st && n && lgg_writer_set(c->w, key, strlen(key), &arr, NULL)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
        free(labels);
        return st;
    }
    uint32_t type;
    lgg_status st = pooling(c, &type, err);
    if (st || !type) return st;
    snprintf(key, sizeof key, "%s.pooling_type", c->fam->arch);
    return lgg_writer_set_u32(c->w, key, type, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

/* Target master: with labels, a sequence classifier's single projection
 * (classifier.weight, .bias) is the output projection (cls.output). */
static lgg_status cls_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!c->master || (strcmp(t->src_name, "classifier.weight") && strcmp(t->src_name, "classifier.bias"))) return LGG_OK;
    lgg_str *labels = NULL;
    size_t n = 0;
    lgg_status st = cls_labels(c, &labels, &n, err);
    free(labels);
    if (st || !n) return st;
    char *name = strdup(strstr(t->src_name, ".bias") ? "cls.output.bias" : "cls.output.weight");
    if (!name) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    free(t->name);
    t->name = name;
    return LGG_OK;
}

/* The token type count, then the WordPiece vocabulary. */
static lgg_status bert_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    lgg_status st = lgg__cv_token_type_count(c, err);
    return st ? st : lgg__cv_wpm(c, tc, o, err);
}

/* RoBERTa: position embeddings start after the padding id, so the
 * reference drops the first pad_token_id + 1 rows and shortens the
 * context by as much (when config.json has a pad_token_id). */
static int64_t position_offset(const lgg_convert *c) {
    const json_t *pad = json_object_get(c->config, "pad_token_id");
    return json_is_integer(pad) ? json_integer_value(pad) + 1 : -1;
}

static lgg_status roberta_init(lgg_convert *c, lgg_error *err) {
    int64_t off = position_offset(c);
    json_t *ctx = json_object_get(c->config, "max_position_embeddings");
    if (off < 0 || !ctx) return LGG_OK;
    if (off > (1 << 30) || !json_is_integer(ctx))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: keys 'pad_token_id' and 'max_position_embeddings' must be counts",
                            c->dir);
    if (json_object_set_new(c->config, "max_position_embeddings", json_integer(json_integer_value(ctx) - off)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

static int roberta_name(const char *hf, char *out, size_t cap) {
    return bert_name(starts(hf, "roberta.") ? hf + 8 : hf, out, cap);
}

static lgg_status roberta_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int64_t off = position_offset(c);
    if (off < 0 || strcmp(t->name, "position_embd.weight")) return cls_tensor(c, t, err);
    if (t->n_dims != 2 || (uint64_t)off > (uint64_t)t->ne[1])
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': fewer rows than pad_token_id + 1 (config.json)", c->dir,
                            t->src_name);
    t->ne[1] -= off, t->n_units -= (uint64_t)off, t->row_skip = (uint64_t)off;
    return LGG_OK;
}

/* tokenizer.json's BPE vocabulary, which adds BOS and EOS, then the token
 * type count; without tokenizer.json, BERT's WordPiece. */
static lgg_status roberta_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (!lgg__cv_exists(c, "tokenizer.json", NULL)) return bert_vocab(c, tc, o, err);
    lgg_status st = lgg__cv_bpe(c, tc, o, err);
    if (st) return st;
    if (!c->master && (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", true, NULL) || /* b4747's; not master's */
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_eos_token", true, NULL)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
    return lgg__cv_token_type_count(c, err);
}

/* XLM-RoBERTa: sentencepiece.bpe.model's Unigram vocabulary (ugm.c). */
static lgg_status xlmr_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    return lgg__cv_ugm_xlmr(c, tc, err);
}

/* Jina: the fused feed-forward matrix (2 * intermediate_size rows) as two
 * tensors, its first half under the table's name and its second half
 * under the other of ffn_gate/ffn_up, in that order. */
static lgg_status jina_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strstr(t->src_name, "gated_layer")) return LGG_OK;
    int64_t ff = lgg__cv_hparam_int(c, "intermediate_size", -1);
    if (t->n_dims != 2 || ff <= 0 || t->ne[1] != 2 * ff)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not 2 x intermediate_size (config.json) rows", c->dir,
                            t->src_name);
    t->ne[1] = ff, t->n_units = (uint64_t)ff;
    const char *gate = strstr(t->name, "ffn_gate"), *up = strstr(t->name, "ffn_up");
    const char *at = gate ? gate : up;
    char name[160];
    if (!at || snprintf(name, sizeof name, "%.*s%s%s", (int)(at - t->name), t->name, gate ? "ffn_up" : "ffn_gate",
                        at + (gate ? 8 : 6)) >= (int)sizeof name)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': cannot name its second half", c->dir, t->src_name);
    cv_tensor first = *t; /* t moves when the list grows */
    cv_tensor *second = lgg__cv_new_tensor(c, err);
    if (!second) return LGG_ERR_NOMEM;
    *second = first;
    second->row_skip = (uint64_t)ff;
    if (!(second->name = strdup(name))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->n_t++;
    return LGG_OK;
}

/* The tokenizer tokenizer_config.json names: BERT's WordPiece, or a BPE
 * with two token types; BOS and EOS added either way. */
static lgg_status jina_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    const char *cls = json_string_value(json_object_get(tc, "tokenizer_class"));
    lgg_status st;
    if (!cls) {
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer_config.json: %s", c->dir,
                            tc ? "key 'tokenizer_class' is missing" : "no such file");
    } else if (!strcmp(cls, "BertTokenizer")) {
        st = bert_vocab(c, tc, o, err);
    } else if (!strcmp(cls, "RobertaTokenizer")) {
        st = lgg__cv_bpe(c, tc, o, err);
        if (!st && lgg_writer_set_u32(c->w, "tokenizer.ggml.token_type_count", 2, NULL))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.token_type_count");
    } else {
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/tokenizer_config.json: tokenizer_class '%.60s' is not supported for JinaBertModel",
                            c->dir, cls);
    }
    if (!st && (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", true, NULL) ||
                lgg_writer_set_bool(c->w, "tokenizer.ggml.add_eos_token", true, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
    return st;
}

/* config.json's `key` must be the JSON value `want` ("swiglu", false,
 * 1.0, null): the reference asserts the model is the variant it reads. */
static lgg_status expect(const lgg_convert *c, const char *key, json_t *want, lgg_error *err) {
    const json_t *v = json_object_get(c->config, key);
    int ok = v && (json_equal(v, want) || (json_is_number(v) && json_is_number(want) &&
                                           json_number_value(v) == json_number_value(want)));
    json_decref(want);
    return ok ? LGG_OK
              : lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: key '%s' is %s; only the value the reference reads is supported",
                             c->dir, key, v ? "another value" : "missing");
}

/* Nomic: the variant the reference reads (SwiGLU, no biases, post-norm,
 * plain rotary positions), and a 2048 context whatever config.json says
 * (its 8192 needs rope scaling). */
static lgg_status nomic_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = expect(c, "activation_function", json_string("swiglu"), err);
    static const char *const off[] = {"causal", "qkv_proj_bias", "mlp_fc1_bias", "mlp_fc2_bias", "prenorm",
                                      "rotary_emb_interleaved"};
    for (size_t i = 0; !st && i < sizeof off / sizeof off[0]; i++) st = expect(c, off[i], json_false(), err);
    if (!st) st = expect(c, "rotary_emb_fraction", json_real(1.0), err);
    if (!st) st = expect(c, "rotary_emb_scale_base", json_null(), err);
    if (!st && json_object_set_new(c->config, "n_ctx", json_integer(2048))) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return st;
}

/* BERT's keys, then the rotary base. */
static lgg_status nomic_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = bert_meta(c, err);
    if (st) return st;
    const json_t *base = json_object_get(c->config, "rotary_emb_base");
    if (!json_is_number(base))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rotary_emb_base' is missing or not a number", c->dir);
    char key[96];
    snprintf(key, sizeof key, "%s.rope.freq_base", c->fam->arch);
    return lgg_writer_set_f32(c->w, key, (float)json_number_value(base), NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key)
                                                                                : LGG_OK;
}

/* DistilBERT: "distilbert." dropped, the masked-LM head (vocab_*) too, then BERT's. */
static int distil_name(const char *hf, char *out, size_t cap) {
    if (starts(hf, "distilbert.")) hf += 11;
    return !starts(hf, "vocab_") && bert_name(hf, out, cap);
}

/* ---- the encoders master's conversion/bert.py adds: ModernBERT, NeoBERT, EuroBERT ---- */

static lgg_status set_key(lgg_convert *c, const char *suffix, char type, const void *v, lgg_error *err) {
    return type == 'u'   ? lgg__cv_put_arch_u32(c, suffix, *(const uint32_t *)v, err)
           : type == 'f' ? lgg__cv_put_arch_f32(c, suffix, *(const float *)v, err)
                         : lgg__cv_put_arch_str(c, suffix, (const char *)v, err);
}

/* config.json's count `name` (required: a missing one is refused). */
static lgg_status count(lgg_convert *c, const char *name, uint32_t *v, lgg_error *err) {
    const json_t *j = json_object_get(c->config, name);
    if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, name);
    *v = (uint32_t)json_integer_value(j);
    return LGG_OK;
}

/* "model." dropped, then BERT's renames. */
static int modern_name(const char *hf, char *out, size_t cap) { return bert_name(starts(hf, "model.") ? hf + 6 : hf, out, cap); }

/* BERT's keys, then the local attention window and its period, no rope
 * scaling, the vocabulary size and the activation (GeGLU or SwiGLU). */
static lgg_status modern_meta(lgg_convert *c, lgg_error *err) {
    uint32_t win, pat, vocab;
    lgg_status st = bert_meta(c, err);
    if (!st) st = count(c, "local_attention", &win, err);
    if (!st) st = set_key(c, "attention.sliding_window", 'u', &win, err);
    if (!st && json_object_get(c->config, "global_attn_every_n_layers") &&
        !json_is_null(json_object_get(c->config, "global_attn_every_n_layers"))) {
        st = count(c, "global_attn_every_n_layers", &pat, err);
        if (!st) st = set_key(c, "attention.sliding_window_pattern", 'u', &pat, err);
    }
    if (!st) st = set_key(c, "rope.scaling.type", 's', "none", err);
    if (!st) st = count(c, "vocab_size", &vocab, err);
    if (!st) st = set_key(c, "vocab_size", 'u', &vocab, err);
    const json_t *act = json_object_get(c->config, "hidden_activation");
    if (!st && json_is_string(act) && json_string_length(act)) st = set_key(c, "hidden_activation", 's', json_string_value(act), err);
    return st;
}

/* add_bos_token, add_eos_token and add_sep_token true, then tokenizer.json's
 * BPE vocabulary (its own flags written over them). */
static lgg_status modern_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", true, NULL) ||
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_eos_token", true, NULL) ||
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_sep_token", true, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
    return lgg__cv_bpe(c, tc, o, err);
}

/* NeoBERT: its decoder (the masked-LM head) dropped, "model." too. */
static int neo_name(const char *hf, char *out, size_t cap) { return !starts(hf, "decoder.") && modern_name(hf, out, cap); }

/* BERT's keys, then NeoBERT's: the SwiGLU width int(2 x intermediate_size / 3)
 * over the base's, rope base 10000, no rope scaling, norm_eps (1e-6 without
 * it) as the RMS epsilon, CLS pooling. */
static lgg_status neo_meta(lgg_convert *c, lgg_error *err) {
    uint32_t ff = 0, cls = 2;
    float base = 10000.0f, eps = 1e-6f;
    lgg_status st = bert_meta(c, err);
    if (!st) st = count(c, "intermediate_size", &ff, err);
    ff = (uint32_t)(2.0 * ff / 3.0);
    if (!st) st = set_key(c, "feed_forward_length", 'u', &ff, err);
    if (!st) st = set_key(c, "rope.freq_base", 'f', &base, err);
    if (!st) st = set_key(c, "rope.scaling.type", 's', "none", err);
    const json_t *e = json_object_get(c->config, "norm_eps");
    if (!st && e && !json_is_number(e)) st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'norm_eps' is not a number", c->dir);
    if (json_is_number(e)) eps = (float)json_number_value(e);
    if (!st) st = set_key(c, "attention.layer_norm_rms_epsilon", 'f', &eps, err);
    if (!st) st = set_key(c, "pooling_type", 'u', &cls, err);
    return st;
}

/* EuroBERT: Llama's names ("model." kept or added), not permuted. */
static int euro_name(const char *hf, char *out, size_t cap) {
    if (starts(hf, "model.")) hf += 6;
    return snprintf(out, cap, "model.%s", hf) < (int)cap;
}

/* Not causal, no rope scaling, master's pooling. */
static lgg_status euro_meta(lgg_convert *c, lgg_error *err) {
    char key[96];
    snprintf(key, sizeof key, "%s.attention.causal", c->fam->arch);
    if (lgg_writer_set_bool(c->w, key, false, NULL)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
    lgg_status st = set_key(c, "rope.scaling.type", 's', "none", err);
    return st ? st : lgg__cv_master_pooling(c, err);
}

/* add_bos_token false, then tokenizer.json's BPE vocabulary. */
static lgg_status euro_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    if (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", false, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.add_bos_token");
    return lgg__cv_bpe(c, tc, o, err);
}

const cv_hooks lgg__cv_hooks_modern_bert = {NULL, modern_name, cls_tensor, modern_meta, modern_vocab, NULL};
const cv_hooks lgg__cv_hooks_neo_bert = {NULL, neo_name, cls_tensor, neo_meta, bert_vocab, NULL};
const cv_hooks lgg__cv_hooks_eurobert = {NULL, euro_name, NULL, euro_meta, euro_vocab, NULL};

const cv_hooks lgg__cv_hooks_bert = {NULL, bert_name, cls_tensor, bert_meta, bert_vocab, NULL};
const cv_hooks lgg__cv_hooks_distilbert = {NULL, distil_name, cls_tensor, bert_meta, bert_vocab, NULL};
const cv_hooks lgg__cv_hooks_roberta = {roberta_init, roberta_name, roberta_tensor, bert_meta, roberta_vocab, NULL};
const cv_hooks lgg__cv_hooks_nomic_bert = {nomic_init, bert_name, NULL, nomic_meta, bert_vocab, NULL};
const cv_hooks lgg__cv_hooks_jina_bert = {NULL, bert_name, jina_tensor, bert_meta, jina_vocab, NULL};
const cv_hooks lgg__cv_hooks_xlmr = {roberta_init, roberta_name, roberta_tensor, bert_meta, xlmr_vocab, NULL};
