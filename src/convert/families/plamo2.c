/* plamo2.c -- PLaMo 2 (Plamo2ForCausalLM, plamo2) and PLaMo 3
 * (Plamo3ForCausalLM, plamo3) as llama.cpp master (3f545becc,
 * conversion/plamo.py's Plamo2Model and Plamo3Model) converts them.  PLaMo 2:
 *   vocab   tokenizer.jsonl, one [token, score, type, ...] list a line
 *           (master's _set_vocab_plamo): a "<|plamo:...|>" token without a
 *           type of its own is CONTROL, the list padded to vocab_size with
 *           [PADn] (UNUSED, -1000); tokenizer.ggml.model "plamo2"; the
 *           special ids of tokenizer_config.json's *_token texts, the end of
 *           turn id 4 (<|plamo:op|>), no space prefix
 *   meta    master's own list (no base parameters): the attention's head
 *           counts per block as INT32 arrays (0 in a Mamba block: every
 *           block but mamba_step / 2 of each mamba_step), the ssm.* sizes
 *           from the mamba_* keys, group count 0
 *   names   dt_bias as dt_proj's bias; the post-mixer and post-MLP norms, the
 *           dt/B/C norms, A_log and D without a suffix (the names master's
 *           map holds whole, families.c's PLAMO2_TENSORS)
 *   tensor  A = -exp(A_log), conv1d squeezed to (d_inner, d_conv), and the
 *           norms' offsets the checkpoint leaves out: pre-mixer, pre-MLP and
 *           the final norm + 1, post-mixer + 1/5, post-MLP + 5^-1.5 (an
 *           f16 source's offset rounded to f16 first, as torch does).
 * PLaMo 3: attention only; the same vocabulary, then the chat template
 * (chat_template.jinja over tokenizer_config.json's); the same names and
 * offsets, its q/k norms + 1; master's base parameters (families.c's
 * table), vocab_size, the sliding window and its pattern. */
#include "../cvint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* hparams.get(key, dflt) as a count: absent gives dflt; anything but a
 * 32-bit count (null too) is refused, where master's writer fails. */
static lgg_status get_count(lgg_convert *c, const char *key, uint32_t dflt, uint32_t *out, lgg_error *err) {
    const json_t *v = json_object_get(c->config, key);
    if (!v) {
        *out = dflt;
        return LGG_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a 32-bit count", c->dir, key);
    *out = (uint32_t)json_integer_value(v);
    return LGG_OK;
}

/* hparams.get(key, dflt) as a number. */
static lgg_status get_number(lgg_convert *c, const char *key, double dflt, double *out, lgg_error *err) {
    const json_t *v = json_object_get(c->config, key);
    if (v && !json_is_number(v)) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a number", c->dir, key);
    *out = v ? json_number_value(v) : dflt;
    return LGG_OK;
}

/* ---- the vocabulary ---- */

enum { TT_NORMAL = 1, TT_UNKNOWN = 2, TT_CONTROL = 3, TT_UNUSED = 5, TT_BYTE = 6 };

typedef struct pvocab {
    lgg_str *tok;
    float *score;
    int32_t *type;
    size_t n, cap;
} pvocab;

static void pvocab_free(pvocab *v) {
    for (size_t i = 0; i < v->n; i++) free((void *)v->tok[i].ptr);
    free(v->tok), free(v->score), free(v->type);
}

/* Appends a copy of text (len bytes). */
static int pvocab_add(pvocab *v, const char *text, size_t len, float score, int32_t type) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        lgg_str *t = realloc(v->tok, cap * sizeof *t);
        if (t) v->tok = t;
        float *s = realloc(v->score, cap * sizeof *s);
        if (s) v->score = s;
        int32_t *y = realloc(v->type, cap * sizeof *y);
        if (y) v->type = y;
        if (!t || !s || !y) return 0;
        v->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy) return 0;
    memcpy(copy, text, len);
    copy[len] = 0;
    v->tok[v->n] = (lgg_str){copy, len};
    v->score[v->n] = score, v->type[v->n] = type;
    v->n++;
    return 1;
}

static int is_plamo_control(const char *s, size_t n) {
    return n >= 10 && !memcmp(s, "<|plamo:", 8) && !memcmp(s + n - 2, "|>", 2);
}

/* A token's type: its third entry's name, else CONTROL for "<|plamo:...|>", else NORMAL. */
static int32_t token_type(const json_t *row, const char *text, size_t len) {
    const char *t = json_string_value(json_array_get(row, 2));
    if (t && !strcmp(t, "UNKNOWN")) return TT_UNKNOWN;
    if (t && !strcmp(t, "CONTROL")) return TT_CONTROL;
    if (t && !strcmp(t, "BYTE")) return TT_BYTE;
    return is_plamo_control(text, len) ? TT_CONTROL : TT_NORMAL;
}

/* Whether line [p, p + n) is blank (Python's strip() leaves nothing: ASCII whitespace here). */
static int blank(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\v\f\x1c\x1d\x1e\x1f", p[i])) return 0;
    return 1;
}

/* One line of tokenizer.jsonl (number `ln`, from 1) into v. */
static lgg_status read_line(lgg_convert *c, const char *p, size_t n, size_t ln, pvocab *v, lgg_error *err) {
    json_error_t je;
    json_t *row = json_loadb(p, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    const json_t *tok = json_array_get(row, 0), *score = json_array_get(row, 1);
    lgg_status st = LGG_OK;
    if (!row)
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.jsonl: line %zu: %s", c->dir, ln, je.text);
    else if (!json_is_string(tok) || !json_is_number(score))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer.jsonl: line %zu is not a [token, score, ...] list", c->dir, ln);
    else if (!pvocab_add(v, json_string_value(tok), json_string_length(tok), (float)json_number_value(score),
                         token_type(row, json_string_value(tok), json_string_length(tok))))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_decref(row);
    return st;
}

/* tokenizer.jsonl's lines (Python's universal newlines: "\n", "\r\n", "\r"), the blank ones skipped. */
static lgg_status read_jsonl(lgg_convert *c, pvocab *v, lgg_error *err) {
    uint64_t cap = c->max_json ? c->max_json : LGG_CONVERT_MAX_TOKENIZER_JSON;
    char *b = NULL, *path = lgg__cv_path(c->dir, "tokenizer.jsonl");
    size_t n = 0;
    lgg_status st = path ? lgg__cv_load(c, "tokenizer.jsonl", cap, &b, &n, err) : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st && !b)
        st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: %zu bytes, more than the %llu a tokenizer file may have (--max-json-size)",
                          path, n, (unsigned long long)cap);
    if (!st) st = lgg__cv_note_input(c, path, err);
    size_t ln = 0;
    for (size_t i = 0; !st && i < n; ln++) {
        size_t e = i;
        while (e < n && b[e] != '\n' && b[e] != '\r') e++;
        if (!blank(b + i, e - i)) st = read_line(c, b + i, e - i, ln + 1, v, err);
        i = e + (e < n && b[e] == '\r' && e + 1 < n && b[e + 1] == '\n') + 1;
    }
    free(b);
    free(path);
    return st;
}

/* [PAD1] ... up to vocab_size (required, as master reads it). */
static lgg_status pad(lgg_convert *c, pvocab *v, lgg_error *err) {
    const json_t *vs = json_object_get(c->config, "vocab_size");
    if (!json_is_integer(vs) || json_integer_value(vs) < 0 || json_integer_value(vs) > (1 << 24))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'vocab_size' is missing or not a count up to 2^24",
                            c->dir);
    for (size_t i = 1; v->n < (size_t)json_integer_value(vs); i++) {
        char name[32];
        int len = snprintf(name, sizeof name, "[PAD%zu]", i);
        if (!pvocab_add(v, name, (size_t)len, -1000.0f, TT_UNUSED)) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    return LGG_OK;
}

/* tokenizer_config.json's `key` (a text, when set and not null) as the id of its first token in v. */
static lgg_status special_id(lgg_convert *c, json_t *tc, const pvocab *v, const char *key, const char *gguf, lgg_error *err) {
    const json_t *s = json_object_get(tc, key);
    if (!s || json_is_null(s)) return LGG_OK;
    if (!json_is_string(s))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/tokenizer_config.json: %s is not a text (master reads it as one)",
                            c->dir, key);
    for (size_t i = 0; i < v->n; i++)
        if (v->tok[i].len == json_string_length(s) && !memcmp(v->tok[i].ptr, json_string_value(s), v->tok[i].len))
            return lgg_writer_set_u32(c->w, gguf, (uint32_t)i, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", gguf)
                                                                      : LGG_OK;
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer_config.json: %s '%s' is not in tokenizer.jsonl", c->dir, key,
                        json_string_value(s));
}

static lgg_status write_vocab(lgg_convert *c, json_t *tc, const pvocab *v, lgg_error *err) {
    static const char *const SPECIAL[][2] = {
        {"bos_token", "tokenizer.ggml.bos_token_id"},       {"eos_token", "tokenizer.ggml.eos_token_id"},
        {"pad_token", "tokenizer.ggml.padding_token_id"},   {"sep_token", "tokenizer.ggml.seperator_token_id"},
        {"unk_token", "tokenizer.ggml.unknown_token_id"}};
    lgg_status st = lgg__cv_model_tokens(c, "plamo2", v->n, v->tok, v->score, v->type, err);
    for (size_t i = 0; !st && i < sizeof SPECIAL / sizeof SPECIAL[0]; i++) st = special_id(c, tc, v, SPECIAL[i][0], SPECIAL[i][1], err);
    if (!st && (lgg_writer_set_u32(c->w, "tokenizer.ggml.eot_token_id", 4, NULL) || /* <|plamo:op|>, as master sets it */
                lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", false, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return st;
}

/* Master's _set_vocab_plamo (PLaMo 2's and 3's): tokenizer_config.json is required. */
static lgg_status plamo_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    if (!lgg__cv_exists(c, "tokenizer.jsonl", NULL))
        return lgg__cv_fail(err, LGG_ERR_IO, "%s/tokenizer.jsonl: no such file (PLaMo's tokenizer)", c->dir);
    if (!tc) return lgg__cv_fail(err, LGG_ERR_IO, "%s/tokenizer_config.json: no such file (master reads it)", c->dir);
    pvocab v = {0};
    lgg_status st = read_jsonl(c, &v, err);
    if (!st) st = pad(c, &v, err);
    if (!st) st = write_vocab(c, tc, &v, err);
    pvocab_free(&v);
    return st;
}

/* ---- the tensors ---- */

/* Master's renames: dt_bias is dt_proj's bias; the post-mixer and post-MLP norms
 * are named whole in its map (no suffix), as ..._weight for families.c's rows. */
static int plamo2_hf_name(const char *hf, char *out, size_t cap) {
    static const char *const WHOLE[] = {".post_mixer_norm.weight", ".post_mlp_norm.weight"};
    size_t l = strlen(hf);
    int n;
    if (lgg__cv_ends_with(hf, ".dt_bias")) n = snprintf(out, cap, "%.*s.dt_proj.bias", (int)(l - 8), hf);
    else n = snprintf(out, cap, "%s", hf);
    for (size_t i = 0; i < 2 && n > 0 && (size_t)n < cap; i++)
        if (lgg__cv_ends_with(out, WHOLE[i])) out[strlen(out) - 7] = '_';
    return n > 0 && (size_t)n < cap ? 1 : (snprintf(out, cap, "%s", hf), 1);
}

/* The constant master adds to a norm (the first of its name tests that matches), 0: none;
 * PLaMo 3's q/k norms + 1 too. */
static float norm_offset(const char *hf, int qk_norms) {
    if (qk_norms && (lgg__cv_ends_with(hf, ".mixer.q_norm.weight") || lgg__cv_ends_with(hf, ".mixer.k_norm.weight"))) return 1.0f;
    if (lgg__cv_ends_with(hf, ".pre_mixer_norm.weight") || lgg__cv_ends_with(hf, ".pre_mlp_norm.weight")) return 1.0f;
    if (lgg__cv_ends_with(hf, ".post_mixer_norm.weight")) return (float)(1.0 / 5);
    if (lgg__cv_ends_with(hf, ".post_mlp_norm.weight")) return (float)(1.0 / pow(5.0, 1.5));
    return lgg__cv_ends_with(hf, ".norm.weight") ? 1.0f : 0.0f;
}

/* The offset as torch adds it; an adapter's factors are not the norm itself: no offset applies there (master's
 * LoRA tensor has no +=). */
static lgg_status offset_checked(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    /* torch adds a Python number to a float16 tensor as a float16 scalar: the offset rounded first */
    if (t->work == LGG_TYPE_F16) t->add = lgg_f16_to_f32(lgg__cv_f32_to_f16(t->add));
    if (t->add && c->lora)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': a norm offset is not applied to a LoRA adapter", c->dir,
                            t->src_name);
    return LGG_OK;
}

static lgg_status plamo2_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const char *n = t->src_name;
    if (!n) return LGG_OK;
    if (lgg__cv_ends_with(n, ".A_log")) {
        t->xform |= CV_X_NEG_EXP;
    } else if (lgg__cv_ends_with(n, ".conv1d.weight")) {
        lgg__cv_squeeze(t);
        if (t->n_dims != 2) /* master asserts it */
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %u dimensions once squeezed, not 2", c->dir, n,
                                t->n_dims);
    } else {
        t->add = norm_offset(n, 0);
    }
    return offset_checked(c, t, err);
}

/* PLaMo 3: the norms' offsets alone. */
static lgg_status plamo3_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (t->src_name) t->add = norm_offset(t->src_name, 1);
    return offset_checked(c, t, err);
}

/* ---- the metadata ---- */

/* Per block: num_key_value_heads (default 4) and num_attention_heads (32) in
 * attention blocks, 0 in Mamba ones; none written when Mamba is disabled. */
static lgg_status head_counts(lgg_convert *c, lgg_error *err) {
    uint32_t step, kv, heads;
    lgg_status st = get_count(c, "mamba_step", 2, &step, err);
    if (!st) st = get_count(c, "num_key_value_heads", 4, &kv, err);
    if (!st) st = get_count(c, "num_attention_heads", 32, &heads, err);
    const json_t *on = json_object_get(c->config, "mamba_enabled");
    if (st || (on && !lgg__cv_py_truthy(on)) || !c->block_count) return st;
    if (!step) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: mamba_step is 0 (master divides by it)", c->dir);
    if (kv > INT32_MAX || heads > INT32_MAX || c->block_count > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: head counts or the block count out of range", c->dir);
    int32_t *h[2] = {calloc(c->block_count, sizeof(int32_t)), calloc(c->block_count, sizeof(int32_t))};
    if (!h[0] || !h[1]) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; !st && i < c->block_count; i++) {
        /* fewer blocks than half a step: attention in the last one only */
        int mamba = c->block_count <= step / 2 ? i != c->block_count - 1 : i % step != step / 2;
        h[0][i] = mamba ? 0 : (int32_t)kv, h[1][i] = mamba ? 0 : (int32_t)heads;
    }
    lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_I32, c->block_count, h[0]}, b = {LGG_VT_ARRAY, LGG_VT_I32, c->block_count, h[1]};
    if (!st) st = lgg__cv_put_arch(c, "attention.head_count_kv", &a, err);
    if (!st) st = lgg__cv_put_arch(c, "attention.head_count", &b, err);
    free(h[0]), free(h[1]);
    return st;
}

/* rope_parameters' (or rope_scaling's) rope_theta, the top-level one mirrored into it, else 10000. */
static double rope_theta(const lgg_convert *c) {
    const json_t *rp = json_object_get(c->config, "rope_parameters"), *v = NULL;
    if (!rp) rp = json_object_get(c->config, "rope_scaling");
    if (json_is_object(rp) && (json_object_get(rp, "full_attention") || json_object_get(rp, "sliding_attention")))
        v = json_object_get(rp, "rope_theta");
    else if (!lgg__cv_master_theta(c, 0, &v))
        v = NULL;
    return json_is_number(v) ? json_number_value(v) : 10000.0;
}

static lgg_status plamo2_meta(lgg_convert *c, lgg_error *err) {
    uint32_t vocab = 0, ctx = 0, embd = 0, head = 0, d_state = 0, d_conv = 0, mheads = 0, ff = 0;
    double eps = 0;
    lgg_status st = get_count(c, "vocab_size", 0, &vocab, err);
    if (!st && !json_object_get(c->config, "vocab_size"))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'vocab_size' is missing", c->dir);
    if (!st) st = lgg__cv_put_arch_u32(c, "vocab_size", vocab, err);
    if (!st) st = head_counts(c, err);
    if (!st) st = get_count(c, "max_position_embeddings", 2048, &ctx, err);
    if (!st) st = get_count(c, "hidden_size", 4096, &embd, err);
    if (!st) st = get_count(c, "hidden_size_per_head", 128, &head, err);
    if (!st) st = get_number(c, "rms_norm_eps", 1e-6, &eps, err);
    if (!st) st = get_count(c, "mamba_d_state", 64, &d_state, err);
    if (!st) st = get_count(c, "mamba_d_conv", 4, &d_conv, err);
    if (!st) st = get_count(c, "mamba_num_heads", 64, &mheads, err);
    if (!st) st = get_count(c, "intermediate_size", 13312, &ff, err);
    if (st) return st;
    if (c->block_count > UINT32_MAX || (uint64_t)mheads * head > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the block count or the SSM inner size is beyond 32 bits", c->dir);
    const struct {
        const char *name;
        uint32_t v;
    } before[] = {{"context_length", ctx}, {"embedding_length", embd}, {"attention.key_length", head},
                  {"attention.value_length", head}, {"block_count", (uint32_t)c->block_count}},
      after[] = {{"ssm.state_size", d_state}, {"ssm.conv_kernel", d_conv}, {"ssm.time_step_rank", mheads},
                 {"ssm.inner_size", mheads * head}, {"ssm.group_count", 0}, {"feed_forward_length", ff}};
    for (size_t i = 0; !st && i < sizeof before / sizeof before[0]; i++) st = lgg__cv_put_arch_u32(c, before[i].name, before[i].v, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "attention.layer_norm_rms_epsilon", eps, err);
    if (!st) st = lgg__cv_put_arch_f32(c, "rope.freq_base", rope_theta(c), err);
    for (size_t i = 0; !st && i < sizeof after / sizeof after[0]; i++) st = lgg__cv_put_arch_u32(c, after[i].name, after[i].v, err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    return st;
}

/* PLaMo 3's keys after master's base parameters and vocab_size: the sliding window (window_size, else
 * sliding_window, when not null) with sliding_window_pattern (required then: a count, or a list of booleans). */
static lgg_status plamo3_meta(lgg_convert *c, lgg_error *err) {
    const char *key = json_object_get(c->config, "window_size") ? "window_size" : "sliding_window";
    const json_t *w = json_object_get(c->config, key), *pat = json_object_get(c->config, "sliding_window_pattern");
    if (!w || json_is_null(w)) return LGG_OK;
    if (!json_is_integer(w) || json_integer_value(w) < 0 || json_integer_value(w) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a 32-bit count", c->dir, key);
    lgg_status st = lgg__cv_put_arch_u32(c, "attention.sliding_window", (uint32_t)json_integer_value(w), err);
    if (st) return st;
    if (json_is_integer(pat) && json_integer_value(pat) >= 0 && json_integer_value(pat) <= UINT32_MAX)
        return lgg__cv_put_arch_u32(c, "attention.sliding_window_pattern", (uint32_t)json_integer_value(pat), err);
    size_t n = json_array_size(pat), i;
    const json_t *b;
    json_array_foreach(pat, i, b) if (!json_is_boolean(b)) n = 0;
    if (!n || n > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'sliding_window_pattern' is missing, or not a count "
                            "nor a list of booleans (master reads it with the window)", c->dir);
    uint8_t *v = malloc(n);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_array_foreach(pat, i, b) v[i] = json_is_true(b);
    lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_BOOL, n, v};
    st = lgg__cv_put_arch(c, "attention.sliding_window_pattern", &arr, err);
    free(v);
    return st;
}

/* PLaMo 3's vocabulary: PLaMo 2's, then the chat template (chat_template.jinja first). */
static lgg_status plamo3_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    lgg_status st = plamo_vocab(c, tc, o, err);
    return st ? st : lgg__cv_chat_template_jinja_first(c, tc, err);
}

const cv_hooks lgg__cv_hooks_plamo3 = {NULL, plamo2_hf_name, plamo3_tensor, plamo3_meta, plamo3_vocab, NULL};

const cv_hooks lgg__cv_hooks_plamo2 = {NULL, plamo2_hf_name, plamo2_tensor, plamo2_meta, plamo_vocab, NULL};
