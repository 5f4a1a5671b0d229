/* chatglm.c -- what ChatGLM / GLM-4 does in code in the reference
 * converter: its parameters' fallbacks (the context is the embedding width
 * when config.json has no seq_length), the "transformer." prefix dropped,
 * GLM-4's rope (a partial rotary dimension count, base 10000 * rope_ratio),
 * and its vocabulary.  The reference reads the tokenizer with
 * AutoTokenizer(trust_remote_code=True).  ChatGLM3 (_name_or_path naming
 * THUDM/chatglm3-6b) runs the checkpoint's tokenization_chatglm.py, a
 * SentencePiece model with nine special tokens after its pieces: that is
 * glm3_vocab below.  Another checkpoint whose tokenizer is its own Python
 * code (auto_map, or no tokenizer.json: glm-4-9b-chat's tiktoken file) is
 * refused; with a tokenizer.json alone it is the byte-level BPE reader's,
 * then eos, eot and unk from the added tokens <|endoftext|> and <|user|>
 * where the files gave none. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lgg_status refuse(const lgg_convert *c, const char *why, lgg_error *err) {
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s: %s: the reference reads ChatGLM's tokenizer by running the checkpoint's own Python code "
                        "(trust_remote_code), which is not reproduced here (docs/convert.md)",
                        c->dir, why);
}

static lgg_status set_default(lgg_convert *c, const char *keys, const char *key, json_t *v, lgg_error *err) {
    char which[64];
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (lgg__cv_first_key(c->config, keys, which, sizeof which)) return json_decref(v), LGG_OK;
    return json_object_set_new(c->config, key, v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* The reference's fallbacks, as config.json keys the table reads. */
static lgg_status glm_init(lgg_convert *c, lgg_error *err) {
    int64_t embd = lgg__cv_hparam_int(c, "hidden_size", lgg__cv_hparam_int(c, "n_embed", -1));
    if (embd < 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'hidden_size' is missing", c->dir);
    if (!json_object_get(c->config, "num_hidden_layers")) /* read even beside num_layers (ChatGLM3-6B has only that) */
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_hidden_layers' is missing", c->dir);
    lgg_status st = set_default(c, "ffn_hidden_size|intermediate_size", "ffn_hidden_size", json_integer(4 * embd), err);
    if (!st) st = set_default(c, "layernorm_epsilon", "layernorm_epsilon", json_real(1e-5), err);
    return st;
}

static int glm_name(const char *hf, char *out, size_t cap) {
    size_t l = strlen(hf);
    if ((l >= 24 && !strcmp(hf + l - 24, ".rotary_pos_emb.inv_freq")) || !strncmp(hf, "model.vision.", 13)) return 0;
    if (!strncmp(hf, "transformer.", 12)) hf += 12;
    snprintf(out, cap, "%s", hf);
    return 1;
}

/* After the table's keys: the rope dimensions, add_bos_token false, the
 * rope base. */
static lgg_status glm_meta(lgg_convert *c, lgg_error *err) {
    int64_t dim = lgg__cv_hparam_int(c, "attention_dim", -1);
    if (!json_object_get(c->config, "attention_dim")) {
        int64_t h = lgg__cv_hparam_int(c, "hidden_size", -1), n = lgg__cv_hparam_int(c, "num_attention_heads", -1);
        if (h < 0 || n <= 0)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'num_attention_heads' (or hidden_size) is missing", c->dir);
        dim = h / n;
    }
    const json_t *prf = json_object_get(c->config, "partial_rotary_factor"), *ratio = json_object_get(c->config, "rope_ratio");
    if ((prf && !json_is_number(prf)) || (ratio && !json_is_number(ratio)) || dim < 0 || dim > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: keys 'attention_dim', 'partial_rotary_factor' and 'rope_ratio' must be numbers",
                            c->dir);
    double rd = (double)dim * (prf ? json_number_value(prf) : 0.5), base = 10000.0 * (ratio ? json_number_value(ratio) : 1.0);
    char key[96];
    snprintf(key, sizeof key, "%s.rope.dimension_count", c->fam->arch);
    if (rd < 0 || rd > UINT32_MAX || lgg_writer_set_u32(c->w, key, (uint32_t)rd, NULL) ||
        lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", false, NULL))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: cannot write %s", c->dir, key);
    snprintf(key, sizeof key, "%s.rope.freq_base", c->fam->arch);
    return lgg_writer_set_f32(c->w, key, (float)base, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

int64_t lgg__cv_added_id(const json_t *tj, const char *content) {
    int64_t id = -1;
    size_t i;
    json_t *at;
    json_array_foreach(json_object_get(tj, "added_tokens"), i, at) {
        const char *ct = json_string_value(json_object_get(at, "content"));
        if (ct && !strcmp(ct, content) && json_is_integer(json_object_get(at, "id")))
            id = json_integer_value(json_object_get(at, "id"));
    }
    return id;
}

static int same(lgg_str a, lgg_str b) { return a.len == b.len && !memcmp(a.ptr, b.ptr, a.len); }

/* ChatGLM3's tokenization_chatglm.py as the reference reads it: the
 * pieces of tokenizer.model (those of ids 0, 1 and 2 renamed <unk>, <bos>,
 * <eos>; scores and types from the model, a user-defined piece NORMAL), then
 * the nine special tokens (CONTROL, score 0), then [PADi] (UNUSED, score 0)
 * up to padded_vocab_size; pre-tokenizer "chatglm-spm", then SpecialVocab's
 * keys (config.json's, tokenizer_config.json's). */
static lgg_status glm3_vocab(lgg_convert *c, json_t *tc, lgg_error *err) {
    static const char *const SPECIAL[] = {"[MASK]", "[gMASK]", "[sMASK]", "sop", "eop", "<|system|>", "<|user|>", "<|assistant|>", "<|observation|>"};
    enum { N_SPECIAL = sizeof SPECIAL / sizeof SPECIAL[0] };
    int64_t vs = lgg__cv_hparam_int(c, "padded_vocab_size", -1);
    if (vs < 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'padded_vocab_size' is missing", c->dir);
    if (vs > (64 << 20)) return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/config.json: padded_vocab_size %lld is too large", c->dir, (long long)vs);
    void *map = NULL;
    size_t msize = 0, n = (size_t)vs;
    lgg_spm *spm = NULL;
    lgg_error e2;
    lgg_status st = lgg__cv_map_file(c, "tokenizer.model", &map, &msize, err);
    if (!st && (st = lgg_spm_parse(map, msize, &spm, &e2)) != LGG_OK) st = lgg__cv_fail(err, st, "%s/%s", c->dir, e2.message);
    const lgg_spm_specs *sp = lgg_spm_get_specs(spm);
    size_t np = spm ? lgg_spm_count(spm) : 0;
    if (!st && (np < 3 || n < np + N_SPECIAL))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: padded_vocab_size %zu does not hold tokenizer.model's %zu pieces and the %d special tokens",
                          c->dir, n, np, (int)N_SPECIAL);
    lgg_str *tok = st ? NULL : calloc(n, sizeof *tok);
    float *score = st ? NULL : calloc(n, sizeof *score);
    int32_t *type = st ? NULL : calloc(n, sizeof *type);
    char *pads = st ? NULL : malloc((n - np - N_SPECIAL) * 16 + 1);
    if (!st && (!tok || !score || !type || !pads)) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    static const char *const RENAMED[3] = {"<unk>", "<bos>", "<eos>"};
    for (size_t i = 0; !st && i < n; i++) {
        if (i < np) {
            const lgg_spm_piece *p = lgg_spm_at(spm, i);
            /* the code gives "" for SentencePiece's unk, bos and eos (bos and eos: the control pieces
             * trainer_spec names): score 0 unless the id is one of those renamed */
            int blank = p->type == 2 || (p->type == 3 && (same(p->piece, sp->bos_piece) || same(p->piece, sp->eos_piece)));
            tok[i] = i < 3 ? (lgg_str){RENAMED[i], strlen(RENAMED[i])} : blank ? (lgg_str){"", 0} : p->piece;
            score[i] = i < 3 || !blank ? p->score : 0.0f;
            type[i] = p->type == 4 ? 1 : p->type; /* USER_DEFINED is read as NORMAL */
        } else if (i < np + N_SPECIAL) {
            tok[i] = (lgg_str){SPECIAL[i - np], strlen(SPECIAL[i - np])}, type[i] = 3;
        } else {
            char *pad = pads + 16 * (i - np - N_SPECIAL);
            tok[i] = (lgg_str){pad, (size_t)snprintf(pad, 16, "[PAD%zu]", i)}, type[i] = 5;
        }
    }
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, tok}, sv = {LGG_VT_ARRAY, LGG_VT_F32, n, score},
               yv = {LGG_VT_ARRAY, LGG_VT_I32, n, type};
    if (!st && (lgg_writer_set_str(c->w, "tokenizer.ggml.model", "llama", NULL) ||
                lgg_writer_set_str(c->w, "tokenizer.ggml.pre", "chatglm-spm", NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tv, NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.scores", 21, &sv, NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &yv, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    free(tok), free(score), free(type), free(pads);
    lgg_spm_free(spm);
    free(map);
    return st ? st : lgg__cv_special_vocab(c, tc, n, err);
}

static lgg_status glm_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    const char *nop = json_string_value(json_object_get(c->config, "_name_or_path"));
    if (nop && strstr(nop, "THUDM/chatglm3-6b")) return glm3_vocab(c, tc, err);
    const json_t *am = json_object_get(json_object_get(tc, "auto_map"), "AutoTokenizer");
    if (am) return refuse(c, "tokenizer_config.json names a tokenizer class in auto_map", err);
    if (!lgg__cv_exists(c, "tokenizer.json", NULL)) return refuse(c, "no tokenizer.json", err);
    json_t *tj = NULL;
    lgg_status st = lgg__cv_tokenizer_json(c, 1, &tj, err);
    if (st) return st;
    int64_t eos = lgg__cv_added_id(tj, "<|endoftext|>"), user = lgg__cv_added_id(tj, "<|user|>"), max = -1;
    const char *k;
    json_t *v;
    size_t i;
    json_object_foreach(json_object_get(json_object_get(tj, "model"), "vocab"), k, v)
        if (json_is_integer(v) && json_integer_value(v) > max) max = json_integer_value(v);
    json_array_foreach(json_object_get(tj, "added_tokens"), i, v)
        if (json_is_integer(json_object_get(v, "id")) && json_integer_value(json_object_get(v, "id")) > max)
            max = json_integer_value(json_object_get(v, "id"));
    json_decref(tj);
    /* vocab_size is required even beside padded_vocab_size (the reference reads both) */
    int64_t vs = lgg__cv_hparam_int(c, "vocab_size", -1);
    if (vs < 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'vocab_size' is missing", c->dir);
    vs = lgg__cv_hparam_int(c, "padded_vocab_size", vs);
    if (max >= vs)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: token id %lld is not below config.json's vocabulary size %lld",
                            c->dir, (long long)max, (long long)vs);
    if (eos < 0 || user < 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.json: no added token '%s'", c->dir, eos < 0 ? "<|endoftext|>" : "<|user|>");
    c->late_special[0].type = "eos", c->late_special[0].id = eos;
    c->late_special[1].type = "eot", c->late_special[1].id = user;
    c->late_special[2].type = "unk", c->late_special[2].id = eos;
    c->n_late_special = 3;
    return lgg__cv_bpe(c, tc, o, err);
}

const cv_hooks lgg__cv_hooks_chatglm = {glm_init, glm_name, NULL, glm_meta, glm_vocab, NULL};
