/* glm4.c -- GLM-4.5/4.6 (llama.cpp master's Glm4MoeModel), GLM-4 0414
 * (its Glm4Model) and GLM-4.7-Flash (Glm4MoeLiteModel: master's DeepSeek V2
 * with GLM's vocabulary and master's --mtp / --no-mtp), which only master
 * converts; master's DeepSeek V2 itself is DeepSeek V2/V3's target master
 * (its latent attention split the same way, no next-token-prediction
 * layers, the byte-level BPE vocabulary).  Both GLMs write a partial
 * rotary dimension: int(head_dim * partial_rotary_factor), the factor from
 * rope_parameters (else rope_scaling), where master mirrors config.json's
 * own partial_rotary_factor, 0.5 when none.  GLM-4.5's block count holds
 * its next-token-prediction blocks (num_nextn_predict_layers, appended
 * after num_hidden_layers: master writes them by default and takes neither
 * --mtp nor --no-mtp for this architecture).  Their vocabularies are the
 * byte-level BPE reader's with special ids named by added token, set where
 * the files gave none (master's _set_special_token): GLM-4.5 bos [gMASK],
 * eot <|user|>, unk <|endoftext|>, eom <|observation|>; GLM-4 eos, eot,
 * unk, bos from <|endoftext|> and <|user|>.  An M-RoPE Glm4ForCausalLM
 * checkpoint (rope_parameters' mrope_section) is refused; the text of GLM-4V,
 * GLM-OCR and GLM-4.5V (their ...ForConditionalGeneration) converts, the
 * dense ones' q/k rows in NeoX order under M-RoPE as master puts them. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* config.json's lgg.rope_dim: the partial rotary dimension (GLM4MOE_META
 * and GLM4_META write it; dflt the factor without one: GLM 0.5, Qwen3-Next
 * 0.25). */
/* GLM's: an M-RoPE checkpoint refused (GLM-4V's own hooks take it). */
static lgg_status glm_rope_dim(lgg_convert *c, lgg_error *err) {
    if (json_object_get(lgg__cv_master_rope_params(c), "mrope_section"))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                            "%s/config.json: rope 'mrope_section' (M-RoPE, GLM-4V's): llama.cpp master permutes its q/k "
                            "rows and writes the sections, which this converter does not yet", c->dir);
    return lgg__cv_master_rope_dim(c, err);
}

/* GLM-4.5: the next-token-prediction blocks counted in num_hidden_layers
 * (the block count and the tensors' bound), the rope dimension. */
static lgg_status glm4moe_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_nextn_blocks(c, err);
    return st ? st : glm_rope_dim(c, err);
}

static lgg_status glm4_init(lgg_convert *c, lgg_error *err) { return glm_rope_dim(c, err); }

/* The special ids `n` pairs (type, added token) name, set where the files
 * gave none, then the byte-level BPE vocabulary. */
static lgg_status named_specials(lgg_convert *c, json_t *tc, const lgg_convert_options *o, const char *const (*sp)[2], int n,
                                 lgg_error *err) {
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    for (int k = 0; k < n; k++) {
        int64_t id = lgg__cv_added_id(tj, sp[k][1]);
        if (id < 0) {
            json_decref(tj);
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: no added token '%s' (the %s token master reads by name)", c->dir,
                                sp[k][1], sp[k][0]);
        }
        c->late_special[k].type = sp[k][0], c->late_special[k].id = id, c->late_special[k].if_none = 0;
    }
    json_decref(tj);
    c->n_late_special = n;
    return lgg__cv_bpe(c, tc, o, err);
}

lgg_status lgg__cv_glm_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const char *const SP[4][2] = {
        {"bos", "[gMASK]"}, {"eot", "<|user|>"}, {"unk", "<|endoftext|>"}, {"eom", "<|observation|>"}};
    return named_specials(c, tc, o, SP, 4, err);
}

/* Solar Open (master's SolarOpenModel over Glm4MoeModel): its own four named special tokens. */
static lgg_status solar_open_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const char *const SP[4][2] = {
        {"eos", "<|endoftext|>"}, {"eot", "<|endoftext|>"}, {"unk", "<unk>"}, {"bos", "<|startoftext|>"}};
    return named_specials(c, tc, o, SP, 4, err);
}

static lgg_status glm4_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    static const char *const SP[4][2] = {
        {"eos", "<|endoftext|>"}, {"eot", "<|user|>"}, {"unk", "<|endoftext|>"}, {"bos", "<|endoftext|>"}};
    return named_specials(c, tc, o, SP, 4, err);
}

/* A count of config.json (absent: dflt; null or another type: -2). */
static int64_t count_or(const lgg_convert *c, const char *key, int64_t dflt) {
    const json_t *v = json_object_get(c->config, key);
    if (!v) return dflt;
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 30) ? json_integer_value(v) : -2;
}

static lgg_status set_value(lgg_convert *c, const char *key, json_t *v, lgg_error *err) {
    return !v || json_object_set_new(c->config, key, v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* GLM-4.7-Flash and DeepSeek V2/V3 (target master): master's DeepseekV2Model reads these hparams with
 * defaults (lgg.*: GLM4MOELITE_META's), sets the kv heads to 1 (MLA as MQA;
 * the split of kv_b uses config.json's, kept as lgg.kv_heads), and counts
 * the next-token-prediction blocks unless --no-mtp (or none); nextn 2:
 * DeepSeek-OCR's (no latent attention: its kv heads and kv_lora_rank as
 * they are, no next-token-prediction blocks). */
static lgg_status mla_init(lgg_convert *c, int nextn, lgg_error *err) {
    int ocr = nextn == 2;
    int64_t nl = count_or(c, "num_hidden_layers", -1), nx = count_or(c, "num_nextn_predict_layers", 0);
    int64_t kvh = count_or(c, "num_key_value_heads", -1), kvr = count_or(c, "kv_lora_rank", 512);
    const char *bad = nl < 0 ? "num_hidden_layers" : nx < 0 ? "num_nextn_predict_layers" : kvh <= 0 ? "num_key_value_heads"
                      : kvr < 0 && !ocr ? "kv_lora_rank" : NULL;
    if (bad) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, bad);
    const json_t *fk = json_object_get(c->config, "first_k_dense_replace"), *moe = json_object_get(c->config, "n_routed_experts");
    int64_t lead = !fk || json_is_null(fk) ? (moe && !json_is_null(moe) ? 0 : nl) : count_or(c, "first_k_dense_replace", -1);
    if (lead < 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'first_k_dense_replace' is not a count", c->dir);
    lgg_status st = set_value(c, "lgg.kv_heads", json_integer(kvh), err);
    if (!st && !ocr) st = set_value(c, "num_key_value_heads", json_integer(1), err);
    if (!st && !ocr) st = set_value(c, "kv_lora_rank", json_integer(kvr), err);
    if (!st) st = set_value(c, "lgg.leading", json_integer(lead), err);
    if (!st && !json_object_get(c->config, "rms_norm_eps")) st = set_value(c, "rms_norm_eps", json_real(1e-6), err);
    if (!st && json_is_true(json_object_get(c->config, "norm_topk_prob"))) st = set_value(c, "lgg.norm_topk", json_true(), err);
    const json_t *ms = json_object_get(lgg__cv_master_rope_params(c), "mscale_all_dim");
    if (!st && json_is_number(ms)) st = set_value(c, "lgg.yarn_log_mul", json_real(0.1 * json_number_value(ms)), err);
    c->mtp_main = (uint64_t)nl;
    if (!st && nextn == 1 && c->mtp != LGG_CONVERT_MTP_NONE && nx > 0) {
        st = set_value(c, "num_hidden_layers", json_integer(nl + nx), err);
        if (!st) st = set_value(c, "lgg.nextn", json_integer(nx), err);
    }
    return st;
}

static lgg_status glm4moelite_init(lgg_convert *c, lgg_error *err) { return mla_init(c, 1, err); }

/* DeepSeek V2/V3 with target master: the same, its next-token-prediction
 * layers always dropped (master's DeepseekV2Model skips them).  Without
 * tokenizer.json master runs the checkpoint's own tokenizer code (Kimi-K2's
 * tiktoken TikTokenTokenizer): refused by name. */
static lgg_status deepseek2_init(lgg_convert *c, lgg_error *err) {
    if (!lgg__cv_exists(c, "tokenizer.json", NULL) && lgg__cv_exists(c, "tiktoken.model", NULL))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: a tiktoken tokenizer without tokenizer.json (Kimi-K2's): llama.cpp "
                            "master reads it by running the checkpoint's tokenizer code (trust_remote_code); this converter "
                            "does not", c->dir);
    return mla_init(c, 0, err);
}

/* v_b's row u: head u / v's value rows follow its nope key rows (row_arg[1]
 * v, row_arg[2] nope). */
static uint64_t vb_row(const cv_tensor *t, uint64_t u) {
    uint64_t v = t->row_arg[1], nope = t->row_arg[2];
    return u / v * (nope + v) + nope + u % v;
}

static void q8_rule(const lgg_convert *c, cv_tensor *t) {
    if (c->outtype == LGG_CONVERT_Q8_0) t->type = t->ne[0] % 32 ? LGG_TYPE_F16 : LGG_TYPE_Q8_0;
}

/* kv_b ([heads x (nope + v)] rows of kv_lora_rank) split as master does for
 * MLA's absorption: attn_k_b, each head's nope rows transposed (nope x
 * kv_lora_rank x heads), and attn_v_b, each head's v rows (kv_lora_rank x v
 * x heads), in kv_b's place; lm_head dropped with tie_word_embeddings. */
static lgg_status glm4moelite_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!strcmp(t->name, "output.weight") && json_is_true(json_object_get(c->config, "tie_word_embeddings"))) {
        free(t->name); /* master drops lm_head when the embeddings are tied (the last tensor added) */
        c->n_t--;
        return LGG_OK;
    }
    size_t l = strlen(t->name);
    if (l < 16 || strcmp(t->name + l - 16, "attn_kv_b.weight")) return LGG_OK;
    int64_t nkv = count_or(c, "lgg.kv_heads", -1), nope = count_or(c, "qk_nope_head_dim", -1), v = count_or(c, "v_head_dim", -1);
    if (nkv <= 0 || nope <= 0 || v <= 0 || t->n_dims != 2 || (uint64_t)t->ne[1] != (uint64_t)nkv * (uint64_t)(nope + v))
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s: tensor '%s': not num_key_value_heads x (qk_nope_head_dim + v_head_dim) rows (config.json)",
                            c->dir, t->src_name);
    char name[160];
    snprintf(name, sizeof name, "%.*sattn_v_b.weight", (int)(l - 16), t->name);
    size_t i = (size_t)(t - c->t);
    lgg_status st = lgg__cv_dup_tensor(c, i, name, err); /* c->t may move */
    if (st) return st;
    cv_tensor *k = &c->t[i], *vb = &c->t[c->n_t - 1];
    int64_t kvr = k->ne[0];
    memcpy(k->name + l - 16, "attn_k_b.weight", 16);
    k->n_dims = 3, k->ne[0] = nope, k->ne[1] = kvr, k->ne[2] = nkv;
    k->unit = (uint64_t)nope, k->n_units = (uint64_t)(kvr * nkv);
    k->xform |= CV_X_EXPERT_T, k->row_arg[3] = (uint64_t)(nope + v);
    vb->n_dims = 3, vb->ne[0] = kvr, vb->ne[1] = v, vb->ne[2] = nkv;
    vb->unit = (uint64_t)kvr, vb->n_units = (uint64_t)(v * nkv);
    vb->row_of = vb_row, vb->row_arg[1] = (uint64_t)v, vb->row_arg[2] = (uint64_t)nope;
    q8_rule(c, k), q8_rule(c, vb);
    return LGG_OK;
}

/* What master's DeepSeek V3.2, Kimi and Youtu classes share with DeepSeek V2 (families/deepseek.c). */
lgg_status lgg__cv_mla_init(lgg_convert *c, int nextn, lgg_error *err) { return mla_init(c, nextn, err); }
lgg_status lgg__cv_mla_kv_b(lgg_convert *c, cv_tensor *t, lgg_error *err) { return glm4moelite_tensor(c, t, err); }

/* GLM-4V, GLM-4.5V and GLM-OCR (master's Glm4Model, Glm4MoeModel,
 * GlmOCRModel for their ...ForConditionalGeneration): the text_config over
 * the top level, M-RoPE taken (master writes the sections with its base
 * parameters); the dense models' q/k rows then permuted (lgg.mrope_hd: the
 * head size), GLM-4.5V's are already in NeoX order. */
static lgg_status glm4v_text(lgg_convert *c, int dense, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    if (st || !dense || !json_object_get(lgg__cv_master_rope_params(c), "mrope_section")) return st;
    const json_t *hd = json_object_get(c->config, "head_dim");
    int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1), n = lgg__cv_hparam_int(c, "num_attention_heads", -1);
    int64_t d = hd ? lgg__cv_hparam_int(c, "head_dim", -1) : h >= 0 && lgg__cv_heads_ok(n) ? h / n : -1;
    if (d <= 0 || d > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'head_dim' (or hidden_size and num_attention_heads) "
                            "missing or not a count", c->dir);
    return set_value(c, "lgg.mrope_hd", json_integer(d), err);
}

static lgg_status glm4v_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = glm4v_text(c, 1, err);
    return st ? st : lgg__cv_master_rope_dim(c, err);
}

static lgg_status glmocr_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = glm4v_text(c, 1, err);
    if (!st) st = lgg__cv_master_nextn_blocks(c, err);
    return st ? st : lgg__cv_master_rope_dim(c, err);
}

static lgg_status glm4vmoe_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = glm4v_text(c, 0, err);
    if (!st) st = lgg__cv_master_nextn_blocks(c, err);
    return st ? st : lgg__cv_master_rope_dim(c, err);
}

/* Master's normal_to_neox: in each head (row_arg[0] rows) the first
 * row_arg[1] (the rotary ones) as their even rows, then their odd ones. */
static uint64_t neox_row(const cv_tensor *t, uint64_t u) {
    uint64_t hd = t->row_arg[0], rot = t->row_arg[1], h = u / hd, r = u % hd;
    if (r < rot) r = r < rot / 2 ? 2 * r : 2 * (r - rot / 2) + 1;
    return h * hd + r;
}

/* With M-RoPE, q_proj's and k_proj's weights and biases in NeoX order
 * (llama.cpp's M-RoPE takes only that): q of num_attention_heads heads, k
 * of those or num_key_value_heads; an even rotary part. */
static lgg_status glm4v_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const json_t *hdj = json_object_get(c->config, "lgg.mrope_hd");
    const char *s = t->src_name;
    int q = lgg__cv_ends_with(s, "q_proj.weight") || lgg__cv_ends_with(s, "q_proj.bias");
    int k = lgg__cv_ends_with(s, "k_proj.weight") || lgg__cv_ends_with(s, "k_proj.bias");
    if (!hdj || (!q && !k)) return LGG_OK;
    uint64_t hd = (uint64_t)json_integer_value(hdj), rot = (uint64_t)lgg__cv_hparam_int(c, "lgg.rope_dim", 0);
    uint64_t rows = t->src->n_dims ? t->src->shape[0] : 0, heads = rows / hd;
    int64_t nh = lgg__cv_hparam_int(c, "num_attention_heads", -1), nkv = lgg__cv_hparam_int(c, "num_key_value_heads", -1);
    if (t->src->n_dims < 1 || t->src->n_dims > 2 || rows % hd || rot % 2 ||
        ((int64_t)heads != nh && (q || (int64_t)heads != nkv)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not %s heads of %llu rows with an even rotary part "
                            "(M-RoPE's NeoX reordering)", c->dir, s, q ? "num_attention_heads" : "the attention's or the "
                            "key/value", (unsigned long long)hd);
    if (t->src->n_dims == 1) t->unit = 1, t->n_units = rows;
    t->row_of = neox_row, t->row_arg[0] = hd, t->row_arg[1] = rot;
    return LGG_OK;
}

const cv_hooks lgg__cv_hooks_glm4moe = {glm4moe_init, NULL, NULL, NULL, lgg__cv_glm_vocab, NULL};
const cv_hooks lgg__cv_hooks_solar_open = {glm4moe_init, NULL, NULL, NULL, solar_open_vocab, NULL};
const cv_hooks lgg__cv_hooks_glm4v = {glm4v_init, lgg__cv_master_text_name, glm4v_tensor, NULL, glm4_vocab, NULL};
const cv_hooks lgg__cv_hooks_glmocr = {glmocr_init, lgg__cv_master_text_name, glm4v_tensor, NULL, glm4_vocab, NULL};
const cv_hooks lgg__cv_hooks_glm4vmoe = {glm4vmoe_init, lgg__cv_master_text_name, NULL, NULL, lgg__cv_glm_vocab, NULL};
const cv_hooks lgg__cv_hooks_glm4moelite = {glm4moelite_init, NULL, glm4moelite_tensor, NULL, lgg__cv_glm_vocab, NULL};
const cv_hooks lgg__cv_hooks_deepseek2_master = {deepseek2_init, NULL, glm4moelite_tensor, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_glm4 = {glm4_init, NULL, NULL, NULL, glm4_vocab, NULL};
