/* rwkv6.c -- RWKV-7 (below: Rwkv7ForCausalLM as llama.cpp master converts
 * it, fla-hub's names or RWKV's, the token shifts stacked, block 0's value
 * mix a copy of its a mix; ARWKV-7, Qwen2.5's blocks with its time mixes) and what RWKV-6 (Rwkv6ForCausalLM, and
 * RWKV6Qwen2ForCausalLM with Qwen2's attention sizes and vocabulary) does
 * in code in the reference converter: its hyperparameters, the time-mix tensors
 * reshaped (the low-rank matrices transposed, the 1x1xN vectors squeezed,
 * the five token-shift interpolations stacked into one), the output and
 * value matrices divided by 2^(block / rescale_every), and the RWKV "world"
 * vocabulary (rwkv_vocab_v20230424.txt: one Python string or bytes literal
 * per line). */
#include "../cvint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ends(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !memcmp(s + a - b, suf, b);
}

/* Element i of t's source bytes p, widened to float. */
static float src_at(const uint8_t *p, const cv_tensor *t, uint64_t i) {
    uint16_t h;
    float f;
    if (t->src->dtype == LGG_TYPE_F32) return memcpy(&f, p + i * 4, 4), f;
    memcpy(&h, p + i * 2, 2);
    return t->src->dtype == LGG_TYPE_F16 ? lgg_f16_to_f32(h) : lgg_bf16_to_f32(h);
}

/* t's values in memory as an F32 tensor of shape ne (innermost first),
 * element k of the output taken from source element from[k] (NULL: k). */
static lgg_status regen(lgg_convert *c, cv_tensor *t, uint32_t n_dims, const int64_t ne[4], const uint64_t *from,
                        lgg_error *err) {
    uint64_t n = (uint64_t)(ne[0] * ne[1] * ne[2] * ne[3]);
    float *v = malloc((n ? n : 1) * sizeof *v);
    const uint8_t *p;
    void *owned;
    lgg_status st = v ? lgg__cv_src_bytes(c, t->shard, t->src, &p, &owned, err) : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (st) return free(v), st;
    for (uint64_t k = 0; k < n; k++) v[k] = src_at(p, t, from ? from[k] : k);
    free(owned);
    free(t->gen);
    t->gen = v;
    t->n_dims = n_dims;
    memcpy(t->ne, ne, sizeof t->ne);
    t->unit = ne[0] ? (uint64_t)ne[0] : 1;
    t->n_units = n / t->unit;
    t->type = t->work = LGG_TYPE_F32;
    return LGG_OK;
}

/* A matrix (rows x cols, or A blocks of them) with each block's two last
 * axes swapped: the reference's transpose(0, 1) and permute(0, 2, 1). */
static lgg_status swap_last(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    uint32_t nd = t->src->n_dims;
    uint64_t a = nd == 3 ? t->src->shape[0] : 1, r = t->src->shape[nd - 2], q = t->src->shape[nd - 1];
    uint64_t cnt = a * r * q, *from = malloc((cnt ? cnt : 1) * sizeof *from);
    if (!from) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t b = 0; b < a; b++)
        for (uint64_t j = 0; j < q; j++) /* output row j of block b is source column j */
            for (uint64_t i = 0; i < r; i++) from[(b * q + j) * r + i] = (b * r + i) * q + j;
    int64_t ne[4] = {(int64_t)r, (int64_t)q, (int64_t)a, 1};
    lgg_status st = regen(c, t, nd, ne, from, err);
    free(from);
    return st;
}

/* RWKV6Qwen2's w1 and w2 (after swap_last): the five fifths of the
 * outermost axis in its order r, k, v, w, g where RWKV-6 has w, k, v, r, g. */
static lgg_status qwen2_order(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    static const int FROM[5] = {3, 1, 2, 0, 4};
    uint64_t n = t->unit * t->n_units, part = n / 5;
    if (n % 5 || (t->n_dims == 3 && t->ne[2] != 5) || (t->n_dims == 2 && t->ne[1] % 5))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not five parts along its first axis", c->dir, t->src_name);
    float *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (int k = 0; k < 5; k++) memcpy(v + (uint64_t)k * part, t->gen + (uint64_t)FROM[k] * part, part * sizeof *v);
    free(t->gen);
    t->gen = v;
    return LGG_OK;
}

static void drop(lgg_convert *c, size_t i) {
    free(c->t[i].name);
    free(c->t[i].gen);
    memmove(&c->t[i], &c->t[i + 1], (c->n_t - i - 1) * sizeof *c->t);
    c->n_t--;
}

/* blk.N.time_mix_lerp_{w,k,v,r,g}: when the block has all five, they
 * become one {n, 1, 1, 5} tensor (in that order) where the last one was. */
static lgg_status fuse_lerps(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    static const char ORDER[5] = {'w', 'k', 'v', 'r', 'g'};
    const char *tail = strstr(t->name, ".time_mix_lerp_");
    size_t pre = (size_t)(tail - t->name);
    size_t at[5], found = 0;
    for (int k = 0; k < 5; k++)
        for (size_t i = 0; i < c->n_t; i++) {
            const char *n = c->t[i].name;
            if (!strncmp(n, t->name, pre) && !strncmp(n + pre, ".time_mix_lerp_", 15) && n[pre + 15] == ORDER[k] &&
                !strcmp(n + pre + 16, ".weight")) {
                at[k] = i, found++;
                break;
            }
        }
    if (found < 5) return LGG_OK;
    uint64_t n = 0;
    for (int k = 0; k < 5; k++) n += c->t[at[k]].n_units * c->t[at[k]].unit;
    if (n % 5 || c->t[at[0]].unit * c->t[at[0]].n_units != n / 5)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': the block's time_maa vectors differ in size", c->dir,
                            t->src_name);
    float *v = malloc(n * sizeof *v);
    char *name = malloc(pre + 32);
    if (!v || !name) return free(v), free(name), lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (int k = 0; k < 5; k++) {
        const uint8_t *p;
        void *owned;
        lgg_status st = lgg__cv_src_bytes(c, c->t[at[k]].shard, c->t[at[k]].src, &p, &owned, err);
        if (st) return free(v), free(name), st;
        for (uint64_t e = 0; e < n / 5; e++) v[k * (n / 5) + e] = src_at(p, &c->t[at[k]], e);
        free(owned);
    }
    snprintf(name, pre + 32, "%.*s.time_mix_lerp_fused.weight", (int)pre, t->name);
    cv_tensor *last = &c->t[c->n_t - 1];
    free(last->name);
    free(last->gen);
    last->name = name, last->gen = v;
    last->n_dims = 4;
    last->ne[0] = (int64_t)(n / 5), last->ne[1] = last->ne[2] = 1, last->ne[3] = 5;
    last->unit = n / 5, last->n_units = 5;
    last->type = last->work = LGG_TYPE_F32;
    for (size_t i = c->n_t - 1; i-- > 0;) /* the other four, from the back so indices stay valid */
        for (int k = 0; k < 5; k++)
            if (at[k] == i) drop(c, i);
    return LGG_OK;
}

static lgg_status rwkv_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (!ends(t->name, ".weight") && !ends(t->name, ".bias")) { /* parameters without a suffix get ".weight" */
        size_t l = strlen(t->name);
        char *n = realloc(t->name, l + 8);
        if (!n) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        memcpy(n + l, ".weight", 8);
        t->name = n;
    }
    const lgg_st_tensor *s = t->src;
    if (ends(t->name, "time_mix_w1.weight") || ends(t->name, "time_mix_decay_w1.weight") ||
        ends(t->name, "time_mix_decay_w2.weight") || ends(t->name, "time_mix_w2.weight")) {
        if (s->n_dims != (ends(t->name, "time_mix_w2.weight") ? 3u : 2u))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %u dimensions, not the reference's", c->dir,
                                t->src_name, s->n_dims);
        lgg_status st = swap_last(c, t, err);
        if (!st && !strcmp(c->fam->arch, "rwkv6qwen2") && !strstr(t->name, "decay")) st = qwen2_order(c, t, err);
        if (st) return st;
    }
    if (ends(t->name, "time_mix_decay.weight") || strstr(t->name, "lerp")) { /* squeeze(): the dimensions of 1 go */
        int64_t ne[4] = {1, 1, 1, 1};
        uint32_t nd = 0;
        for (uint32_t d = 0; d < 4; d++)
            if (t->ne[d] != 1) ne[nd++] = t->ne[d];
        memcpy(t->ne, ne, sizeof ne);
        t->n_dims = nd ? nd : 1; /* a 0-d result is written as the reference's 1-element array */
        t->unit = (uint64_t)ne[0];
        t->n_units = (uint64_t)(ne[1] * ne[2] * ne[3]);
    }
    int64_t every = lgg__cv_hparam_int(c, "rescale_every", 0);
    const char *num = strchr(t->name, '.');
    if (every > 0 && num && (ends(t->name, "time_mix_output.weight") || ends(t->name, "channel_mix_value.weight"))) {
        long bid = strtol(num + 1, NULL, 10), k = bid / (long)every;
        if (k > 126) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rescale_every divides past float's range", c->dir);
        t->scale = ldexpf(1.0f, (int)-k); /* x * 2^-k is x / 2^k, rounded alike */
    }
    if (strstr(t->name, "time_mix_lerp_") && !strstr(t->name, "time_mix_lerp_x")) return fuse_lerps(c, t, err);
    return LGG_OK;
}

/* The reference's required keys. */
static lgg_status need(lgg_convert *c, const char *key, const json_t **v, lgg_error *err) {
    *v = json_object_get(c->config, key);
    return *v ? LGG_OK : lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing", c->dir, key);
}

/* a key of the table: F32 or UINT32 (the value a double either way) */
static lgg_status put(lgg_convert *c, const char *name, int f32, double v, lgg_error *err) {
    return f32 ? lgg__cv_put_arch_f32(c, name, v, err) : lgg__cv_put_arch_u32(c, name, (uint32_t)v, err);
}

static lgg_status rwkv_meta(lgg_convert *c, lgg_error *err) {
    const json_t *hs, *hd, *eps, *every, *ff;
    lgg_status st = need(c, "head_size", &hs, err);
    if (!st) st = need(c, "hidden_size", &hd, err);
    if (!st) st = need(c, "layer_norm_epsilon", &eps, err);
    if (!st) st = need(c, "rescale_every", &every, err);
    if (!st) st = need(c, "intermediate_size", &ff, err);
    if (st) return st;
    json_int_t h = json_integer_value(hd);
    if (!json_is_integer(hs) || json_integer_value(hs) < 0 || json_integer_value(hs) > UINT32_MAX || !json_is_integer(hd) ||
        h <= 0 || h > UINT32_MAX / 4 || !json_is_number(eps) || !json_is_integer(every) || json_integer_value(every) < 0 ||
        json_integer_value(every) > UINT32_MAX || !(json_is_null(ff) || (json_is_integer(ff) && json_integer_value(ff) >= 0 &&
                                                                           json_integer_value(ff) <= UINT32_MAX)))
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: head_size, hidden_size, layer_norm_epsilon, rescale_every or intermediate_size "
                            "is not a count (a number for the epsilon)",
                            c->dir);
    double ffn = json_is_null(ff) ? (double)((h * 7 / 2) / 32 * 32) : (double)json_integer_value(ff); /* int(h * 3.5 // 32 * 32) */
    struct {
        const char *k;
        int f32;
        double v;
    } keys[] = {{"context_length", 0, 1048576},
                {"embedding_length", 0, (double)h},
                {"block_count", 0, (double)c->block_count},
                {"attention.layer_norm_epsilon", 1, json_number_value(eps)},
                {"rescale_every_n_layers", 0, (double)json_integer_value(every)},
                {"wkv.head_size", 0, (double)json_integer_value(hs)},
                {"time_mix_extra_dim", 0, h == 4096 ? 64 : 32},
                {"time_decay_extra_dim", 0, h == 4096 ? 128 : 64},
                {"feed_forward_length", 0, ffn}};
    for (size_t i = 0; !st && i < sizeof keys / sizeof keys[0]; i++) st = put(c, keys[i].k, keys[i].f32, keys[i].v, err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    if (!st) st = put(c, "attention.head_count", 0, 0, err);
    return st;
}

/* RWKV6Qwen2: Qwen2's attention sizes, RMS norms, one token shift. */
static lgg_status qwen2_meta(lgg_convert *c, lgg_error *err) {
    static const char *const need_keys[] = {"num_attention_heads", "num_key_value_heads", "hidden_size", "rms_norm_eps",
                                            "intermediate_size"};
    const json_t *v[5];
    lgg_status st = LGG_OK;
    for (int k = 0; k < 5 && !st; k++) st = need(c, need_keys[k], &v[k], err);
    if (st) return st;
    for (int k = 0; k < 5; k++)
        if (k == 3 ? !json_is_number(v[k])
                   : !json_is_integer(v[k]) || json_integer_value(v[k]) < (k == 0) || json_integer_value(v[k]) > UINT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a %s", c->dir, need_keys[k],
                                k == 3 ? "number" : "32-bit count");
    json_int_t h = json_integer_value(v[2]);
    struct {
        const char *k;
        int f32;
        double v;
    } keys[] = {{"context_length", 0, 1048576},
                {"embedding_length", 0, (double)h},
                {"block_count", 0, (double)c->block_count},
                {"wkv.head_size", 0, (double)(h / json_integer_value(v[0]))},
                {"time_mix_extra_dim", 0, h >= 4096 ? 64 : 32},
                {"time_decay_extra_dim", 0, h >= 4096 ? 128 : 64},
                {"feed_forward_length", 0, (double)json_integer_value(v[4])}};
    for (size_t i = 0; !st && i < sizeof keys / sizeof keys[0]; i++) st = put(c, keys[i].k, keys[i].f32, keys[i].v, err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    if (!st) st = put(c, "attention.layer_norm_rms_epsilon", 1, json_number_value(v[3]), err);
    if (!st) st = put(c, "token_shift_count", 0, 1, err);
    if (!st) st = put(c, "attention.head_count_kv", 0, (double)json_integer_value(v[1]), err);
    if (!st) st = put(c, "attention.head_count", 0, 0, err);
    return st;
}

/* ---- the world vocabulary ---- */

static int hexval(int ch) {
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

static size_t put_utf8(uint32_t cp, uint8_t *o) {
    if (cp < 0x80) return o[0] = (uint8_t)cp, 1;
    if (cp < 0x800) return o[0] = (uint8_t)(0xc0 | cp >> 6), o[1] = (uint8_t)(0x80 | (cp & 0x3f)), 2;
    if (cp < 0x10000)
        return o[0] = (uint8_t)(0xe0 | cp >> 12), o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f)), o[2] = (uint8_t)(0x80 | (cp & 0x3f)), 3;
    return o[0] = (uint8_t)(0xf0 | cp >> 18), o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3f)),
           o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3f)), o[3] = (uint8_t)(0x80 | (cp & 0x3f)), 4;
}

/* A Python string or bytes literal s[0..n) (as ast.literal_eval reads it)
 * into out (at least n bytes: no escape grows): a str as its UTF-8
 * bytes.  Returns the length, or -1 for what is not such a literal (or
 * a str with a surrogate, which does not encode). */
static long py_literal(const char *s, size_t n, uint8_t *out) {
    int bytes = n && (s[0] == 'b' || s[0] == 'B');
    if (bytes) s++, n--;
    if (n < 2 || (s[0] != '\'' && s[0] != '"') || s[n - 1] != s[0]) return -1;
    char q = s[0];
    size_t o = 0;
    for (size_t i = 1; i < n - 1; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == (unsigned char)q || ch == '\n') return -1; /* an unescaped quote ends the literal early */
        if (ch != '\\') {
            if (bytes && ch >= 0x80) return -1;
            out[o++] = ch;
            continue;
        }
        if (++i >= n - 1) return -1;
        char e = s[i];
        uint32_t cp = 0;
        int digits = 0;
        switch (e) {
        case '\n': continue;
        case '\\': case '\'': case '"': out[o++] = (uint8_t)e; continue;
        case 'a': out[o++] = 7; continue;
        case 'b': out[o++] = 8; continue;
        case 'f': out[o++] = 12; continue;
        case 'n': out[o++] = 10; continue;
        case 'r': out[o++] = 13; continue;
        case 't': out[o++] = 9; continue;
        case 'v': out[o++] = 11; continue;
        case 'x': digits = 2; break;
        case 'u': digits = bytes ? 0 : 4; break;
        case 'U': digits = bytes ? 0 : 8; break;
        default:
            if (e >= '0' && e <= '7') { /* up to three octal digits */
                int k = 0;
                for (; k < 3 && i < n - 1 && s[i] >= '0' && s[i] <= '7'; k++, i++) cp = cp * 8 + (uint32_t)(s[i] - '0');
                i--;
                if (bytes || cp < 0x80) out[o++] = (uint8_t)cp;
                else o += put_utf8(cp, out + o);
                continue;
            }
            if (e == 'N' && !bytes) return -1; /* named characters: not in the vocabulary files */
            out[o++] = '\\', out[o++] = (uint8_t)e; /* an unknown escape stays as it is */
            continue;
        }
        if (!digits) { /* \u or \U in bytes: kept as written */
            out[o++] = '\\', out[o++] = (uint8_t)e;
            continue;
        }
        for (int k = 0; k < digits; k++) {
            int h = i + 1 + (size_t)k < n - 1 ? hexval(s[i + 1 + (size_t)k]) : -1;
            if (h < 0) return -1;
            cp = cp * 16 + (uint32_t)h;
        }
        i += (size_t)digits;
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return -1;
        if (bytes || (e == 'x' && cp < 0x80)) out[o++] = (uint8_t)cp;
        else o += put_utf8(cp, out + o);
    }
    return (long)o;
}

/* llama.cpp master's models/templates/llama-cpp-rwkv-world.jinja (3f545becc), the
 * template master writes for an RWKV World vocabulary whose checkpoint has none. */
static const char RWKV_WORLD_TEMPLATE[] =
    "{%- if not add_generation_prompt is defined -%}\n"
    "    {%- set add_generation_prompt = true -%}\n"
    "{%- endif -%}\n"
    "{%- set ns = namespace(system_prompt='') -%}\n"
    "{%- for message in messages -%}\n"
    "    {%- if message['role'] == 'system' -%}\n"
    "        {%- set ns.system_prompt = message['content'] -%}\n"
    "    {%- endif -%}\n"
    "{%- endfor -%}\n"
    "{{bos_token}}\n"
    "{%- if ns.system_prompt != '' -%}\n"
    "{{- 'System: ' + ns.system_prompt + '\\n\\n' -}}\n"
    "{%- endif -%}\n"
    "{%- for message in messages -%}\n"
    "    {%- if message['role'] == 'user' -%}\n"
    "        {{- 'User: ' + message['content']|trim + '\\n\\n' -}}\n"
    "    {%- endif -%}\n"
    "    {%- if message['role'] == 'assistant' and message['content'] is  not none -%}\n"
    "        {%- set content = message['content'] -%}\n"
    "        {%- if '</think>' in content -%}\n"
    "            {%- set content = content.split('</think>')[-1] -%}\n"
    "        {%- endif -%}\n"
    "        {{- 'Assistant: ' + content|trim + '\\n\\n' -}}\n"
    "    {%- endif -%}\n"
    "{%- endfor -%}\n"
    "{%- if add_generation_prompt -%}\n"
    "    {{- 'Assistant:' -}}\n"
    "    {%- if enable_thinking is defined and enable_thinking is false %}\n"
    "        {{- ' <think>\\n</think>' }}\n"
    "    {%- endif %}\n"
    "    {%- if enable_thinking is defined and enable_thinking is true %}\n"
    "        {{- ' <think>' }}\n"
    "    {%- endif %}\n"
    "{%- endif -%}";

/* b4747 writes "rwkv-world" in place of any template; master keeps the
 * checkpoint's (SpecialVocab) and writes its own file's when there is none. */
static lgg_status world_template(lgg_convert *c, json_t *tc, lgg_error *err) {
    uint32_t have;
    lgg_status st = c->master ? lgg__cv_chat_template(c, tc, err) : LGG_OK;
    if (st || (c->master && lgg_writer_key_type(c->w, "tokenizer.chat_template", 23, &have, NULL) == LGG_OK)) return st;
    if (lgg_writer_set_str(c->w, "tokenizer.chat_template", c->master ? RWKV_WORLD_TEMPLATE : "rwkv-world", NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.chat_template");
    return LGG_OK;
}
/* repr(b)[2:-1]: Python's text of a bytes value without b'' (at most 4
 * characters a byte). */
static size_t py_bytes_repr(const uint8_t *b, size_t n, char *out) {
    int sq = memchr(b, '\'', n) != NULL, dq = memchr(b, '"', n) != NULL;
    char q = sq && !dq ? '"' : '\'';
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t ch = b[i];
        if (ch == (uint8_t)q || ch == '\\') out[o++] = '\\', out[o++] = (char)ch;
        else if (ch == '\t') out[o++] = '\\', out[o++] = 't';
        else if (ch == '\n') out[o++] = '\\', out[o++] = 'n';
        else if (ch == '\r') out[o++] = '\\', out[o++] = 'r';
        else if (ch < 0x20 || ch >= 0x7f) o += (size_t)sprintf(out + o, "\\x%02x", ch);
        else out[o++] = (char)ch;
    }
    out[o] = 0;
    return o;
}

static lgg_status world_tokens(lgg_convert *c, const char *text, size_t size, lgg_str *tok, int32_t *type, char **owned,
                               size_t n_vocab, size_t *n_out, lgg_error *err) {
    size_t n = 0, line = 0;
    tok[n].ptr = "<s>", tok[n].len = 3, type[n++] = 3; /* CONTROL */
    for (size_t p = 0; p < size; line++) {
        const char *nl = memchr(text + p, '\n', size - p), *s = text + p;
        size_t len = nl ? (size_t)(nl - s) : size - p;
        p += len + (nl != NULL);
        /* "ID LITERAL LENGTH": the literal is what lies between the first and the last space */
        const char *sp1 = memchr(s, ' ', len), *sp2 = s + len;
        while (sp2 > s && sp2[-1] != ' ') sp2--;
        if (!sp1 || sp2 - 1 <= sp1)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/rwkv_vocab_v20230424.txt: line %zu: not 'ID LITERAL LENGTH'", c->dir,
                                line + 1);
        if (n >= n_vocab)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/rwkv_vocab_v20230424.txt: more tokens than vocab_size %zu", c->dir,
                                n_vocab);
        size_t lit = (size_t)(sp2 - 1 - (sp1 + 1));
        uint8_t *b = malloc(lit + 1);
        char *r = b ? malloc(4 * lit + 1) : NULL;
        long bl = r ? py_literal(sp1 + 1, lit, b) : -1;
        char *end;
        unsigned long want = strtoul(sp2, &end, 10);
        if (r && (bl < 0 || (unsigned long)bl != want)) {
            free(b), free(r);
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/rwkv_vocab_v20230424.txt: line %zu: %s", c->dir, line + 1,
                                bl < 0 ? "not a Python string or bytes literal" : "the length does not match the token");
        }
        if (!r) return free(b), lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        tok[n].len = py_bytes_repr(b, (size_t)bl, r);
        free(b);
        tok[n].ptr = owned[n] = r;
        type[n++] = 1; /* NORMAL */
    }
    *n_out = n;
    return LGG_OK;
}

static lgg_status rwkv_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    void *map = NULL;
    size_t size = 0;
    int64_t nv = lgg__cv_hparam_int(c, "vocab_size", 65536);
    if (nv < 1 || nv > (1 << 24))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: vocab_size %lld is out of range", c->dir, (long long)nv);
    if (!lgg__cv_exists(c, "rwkv_vocab_v20230424.txt", NULL))
        return lgg__cv_fail(err, LGG_ERR_IO, "%s/rwkv_vocab_v20230424.txt: no such file (RWKV's world vocabulary)", c->dir);
    lgg_status st = lgg__cv_map_file(c, "rwkv_vocab_v20230424.txt", &map, &size, err);
    if (st) {
        free(map);
        return st;
    }
    size_t n = (size_t)nv, got = 0;
    lgg_str *tok = calloc(n, sizeof *tok);
    int32_t *type = calloc(n, sizeof *type);
    char **owned = calloc(n, sizeof *owned);
    if (!tok || !type || !owned) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) st = world_tokens(c, map, size, tok, type, owned, n, &got, err);
    free(map);
    for (size_t i = got; !st && i < n; i++) { /* [PADi], unused */
        char pad[32];
        int l = snprintf(pad, sizeof pad, "[PAD%zu]", i);
        if (!(owned[i] = strdup(pad))) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        tok[i].ptr = owned[i], tok[i].len = (size_t)l, type[i] = 5;
    }
    lgg_wvalue tv = {LGG_VT_ARRAY, LGG_VT_STRING, n, tok}, yv = {LGG_VT_ARRAY, LGG_VT_I32, n, type};
    if (!st && (lgg_writer_set_str(c->w, "tokenizer.ggml.model", "rwkv", NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tv, NULL) ||
                lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &yv, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    for (size_t i = 0; owned && i < n; i++) free(owned[i]);
    free(owned), free(tok), free(type);
    if (st) return st;
    /* SpecialVocab with no size bound, then the reference's end-of-turn id
     * ("\n\n", 261), the add_* flags, and the chat template (world_template) */
    json_t *ids = tc ? json_deep_copy(tc) : json_object();
    if (!ids) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_object_del(ids, "chat_template");
    json_object_del(ids, "add_bos_token");
    json_object_del(ids, "add_eos_token");
    st = lgg__cv_special_vocab(c, ids, SIZE_MAX, err);
    json_decref(ids);
    if (!st && lgg_writer_set_u32(c->w, "tokenizer.ggml.eot_token_id", 261, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.ggml.eot_token_id");
    static const char *const ADD[2][2] = {{"add_bos_token", "tokenizer.ggml.add_bos_token"},
                                          {"add_eos_token", "tokenizer.ggml.add_eos_token"}};
    for (int k = 0; k < 2 && !st; k++) {
        const json_t *a = tc ? json_object_get(tc, ADD[k][0]) : NULL;
        if (json_is_boolean(a) && lgg_writer_set_bool(c->w, ADD[k][1], json_is_true(a), NULL))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", ADD[k][1]);
    }
    return st ? st : world_template(c, tc, err);
}

/* ---- RWKV-7 (Rwkv7ForCausalLM, RWKV7ForCausalLM: master's Rwkv7Model) ---- */

/* s with every `from` replaced by `to` (Python's str.replace), in place (out holds cap bytes); 0 when too long. */
static int replace_all(char *s, size_t cap, const char *from, const char *to) {
    char tmp[512];
    size_t lf = strlen(from), lt = strlen(to), o = 0;
    for (const char *p = s; *p;) {
        const char *put = strncmp(p, from, lf) ? NULL : to;
        size_t len = put ? lt : 1;
        if (o + len >= sizeof tmp) return 0;
        memcpy(tmp + o, put ? put : p, len);
        o += len, p += put ? lf : 1;
    }
    if (o >= cap) return 0;
    memcpy(s, tmp, o), s[o] = 0;
    return 1;
}

/* Master's unified names (blocks as layers, attn as attention, ffn as feed_forward, g_norm as ln_x, the norm before
 * the feed-forward as ln2) and fla-hub's LoRA names as w1/w2/w0; block 0's v0/v1/v2 dropped (its value mix is a
 * copy of a's). */
static int rwkv7_hf_name(const char *hf, char *out, size_t cap) {
    static const char *const R[][2] = {{"blocks", "layers"}, {"ffn", "feed_forward"}, {"self_attn", "attention"},
                                       {"attn", "attention"}, {"time_mixer.", ""}, {"feed_forward_norm", "ln2"},
                                       {"g_norm", "ln_x"}, {"_lora.lora.0.weight", "1.weight"},
                                       {"_lora.lora.2.weight", "2.weight"}, {"_lora.lora.2.bias", "0.weight"}};
    snprintf(out, cap, "%s", hf);
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++)
        if (!replace_all(out, cap, R[i][0], R[i][1])) return snprintf(out, cap, "%s", hf), 1; /* too long: unmapped */
    const char *num = strpbrk(out, "0123456789");
    int block0 = num && num[0] == '0' && !(num[1] >= '0' && num[1] <= '9');
    return !(block0 && strstr(out, "attention.v") && !strstr(out, "attention.v_proj") && !strstr(out, "attention.value"));
}

/* The token shifts x_r, x_w, x_k, x_v, x_a and x_g (x_g only with wkv_has_gate, the default) stacked in that
 * order into blk.N.time_mix_lerp_fused when the block's last one arrives, where it was; their own shape kept. */
static lgg_status rwkv7_fuse(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const json_t *gate = json_object_get(c->config, "wkv_has_gate");
    const char *order = !gate || lgg__cv_py_truthy(gate) ? "rwkvag" : "rwkva";
    size_t k = strlen(order), at[6], found = 0, pre = (size_t)(strstr(t->name, ".time_mix_lerp_") - t->name);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < c->n_t; i++) {
            const char *n = c->t[i].name;
            if (!strncmp(n, t->name, pre) && !strncmp(n + pre, ".time_mix_lerp_", 15) && n[pre + 15] == order[j] && !n[pre + 16]) {
                at[j] = i, found++;
                break;
            }
        }
    if (found < k) return LGG_OK;
    uint64_t each = c->t[at[0]].unit * c->t[at[0]].n_units;
    for (size_t j = 0; j < k; j++)
        if (c->t[at[j]].unit * c->t[at[j]].n_units != each || c->t[at[j]].n_dims != c->t[at[0]].n_dims)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': the block's token shifts differ in shape", c->dir, t->src_name);
    float *v = malloc((each && k ? each * k : 1) * sizeof *v);
    char *name = malloc(pre + 32);
    if (!v || !name) return free(v), free(name), lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t j = 0; j < k; j++) {
        const uint8_t *p;
        void *owned;
        lgg_status st = lgg__cv_src_bytes(c, c->t[at[j]].shard, c->t[at[j]].src, &p, &owned, err);
        if (st) return free(v), free(name), st;
        for (uint64_t e = 0; e < each; e++) v[j * each + e] = src_at(p, &c->t[at[j]], e);
        free(owned);
    }
    snprintf(name, pre + 32, "%.*s.time_mix_lerp_fused.weight", (int)pre, t->name);
    cv_tensor *last = &c->t[c->n_t - 1];
    uint32_t nd = last->n_dims;
    if (nd > 3) return free(v), free(name), lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': more than 3 dimensions", c->dir, t->src_name);
    free(last->name);
    free(last->gen);
    last->name = name, last->gen = v;
    last->ne[nd] = (int64_t)k, last->n_dims = nd + 1;
    last->n_units *= k;
    last->type = last->work = LGG_TYPE_F32;
    for (size_t i = c->n_t - 1; i-- > 0;)
        for (size_t j = 0; j < k; j++)
            if (at[j] == i) drop(c, i);
    return LGG_OK;
}

/* Output row u of a flattened or squeezed tensor: the shape changes, the rows do not. */
static void reshape(cv_tensor *t, uint32_t nd, const int64_t ne[4]) {
    memcpy(t->ne, ne, 4 * sizeof *ne);
    t->n_dims = nd ? nd : 1;
    uint64_t total = t->unit * t->n_units;
    t->unit = (uint64_t)ne[0], t->n_units = t->unit ? total / t->unit : 0;
    if (t->n_dims == 1) t->type = LGG_TYPE_F32; /* master keeps 1-D tensors F32 */
}

/* Whether a "_lora.lora" name (fla-hub's) came before t or is t: master's LoRA factors stay as they are from then on. */
static int fla_lora_seen(const lgg_convert *c, const cv_tensor *t) {
    for (const cv_tensor *x = c->t; x <= t; x++)
        if (x->src_name && strstr(x->src_name, "_lora.lora")) return 1;
    return 0;
}

static lgg_status rwkv7_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (strstr(t->name, ".time_mix_lerp_") && !strstr(t->name, "lerp_fused")) return rwkv7_fuse(c, t, err);
    if (ends(t->name, ".time_mix_lerp_fused.weight")) { /* x_x, already stacked: (parts, 1, 1, n / parts) */
        const json_t *gate = json_object_get(c->config, "wkv_has_gate");
        int64_t k = !gate || lgg__cv_py_truthy(gate) ? 6 : 5, n = (int64_t)(t->unit * t->n_units);
        if (n % k) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not %lld token shifts", c->dir, t->src_name, (long long)k);
        int64_t ne[4] = {n / k, 1, 1, k};
        reshape(t, 4, ne);
        t->type = LGG_TYPE_F32;
        return LGG_OK;
    }
    if (!ends(t->name, ".weight") && !ends(t->name, ".bias")) {
        size_t l = strlen(t->name);
        char *n = realloc(t->name, l + 8);
        if (!n) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        memcpy(n + l, ".weight", 8);
        t->name = n;
    }
    int64_t ne[4] = {1, 1, 1, 1};
    uint32_t nd = 0;
    for (uint32_t d = 0; d < t->n_dims; d++) /* squeeze() */
        if (t->ne[d] != 1) ne[nd++] = t->ne[d];
    reshape(t, nd, ne);
    static const char *const LORA[] = {"time_mix_w1.weight", "time_mix_w2.weight", "time_mix_a1.weight", "time_mix_a2.weight",
                                       "time_mix_v1.weight", "time_mix_v2.weight", "time_mix_g1.weight", "time_mix_g2.weight"};
    for (size_t i = 0; i < 8 && !fla_lora_seen(c, t); i++)
        if (ends(t->name, LORA[i])) {
            if (t->n_dims != 2) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not a matrix", c->dir, t->src_name);
            uint32_t type = i < 2 ? LGG_TYPE_F32 : lgg__cv_matrix_type(c, (uint64_t)t->ne[1]);
            lgg_status st = swap_last(c, t, err);
            if (st) return st;
            t->type = type;
            break;
        }
    if (strstr(t->name, "r_k")) { /* flatten() */
        int64_t flat[4] = {(int64_t)(t->unit * t->n_units), 1, 1, 1};
        reshape(t, 1, flat);
    }
    const char *a = strstr(t->name, ".time_mix_a");
    if (a && !strncmp(t->name, "blk.0.", 6)) { /* block 0: a copy as time_mix_v*, written first */
        size_t i = (size_t)(t - c->t), at = (size_t)(a - t->name) + 10; /* t moves with the copy */
        lgg_status st = lgg__cv_dup_tensor(c, i, t->name, err);
        if (st) return st;
        c->t[i].name[at] = 'v'; /* ".time_mix_a" -> ".time_mix_v" */
        if (c->t[i].gen) { /* the copy owns its own values */
            uint64_t n = c->t[i].unit * c->t[i].n_units;
            float *g = malloc((n ? n : 1) * sizeof *g);
            if (!g) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
            memcpy(g, c->t[i].gen, n * sizeof *g);
            c->t[c->n_t - 1].gen = g;
        }
    }
    return LGG_OK;
}

/* hparams[a] when present (null: dflt), else hparams[b] (KeyError when absent; null: dflt), as master reads them. */
static lgg_status either(lgg_convert *c, const char *a, const char *b, double dflt, int number, double *out, lgg_error *err) {
    const char *k = json_object_get(c->config, a) ? a : b;
    const json_t *v = json_object_get(c->config, k);
    if (!v) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' (or '%s') is missing", c->dir, a, b);
    if (json_is_null(v) && dflt >= 0) return *out = dflt, LGG_OK;
    if (number ? !json_is_number(v) : !json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > UINT32_MAX)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a %s", c->dir, k, number ? "number" : "32-bit count");
    *out = json_number_value(v);
    return LGG_OK;
}

/* max(1, round(h^exponent * multiplier / 32)) * 32 (Python's round: half to even). */
static double lora_rank(double h, double exponent, double multiplier) {
    double r = nearbyint(pow(h, exponent) * multiplier / 32);
    return (r < 1 ? 1 : r) * 32;
}

static lgg_status rwkv7_meta(lgg_convert *c, lgg_error *err) {
    double hs = 0, eps = 0, h = 0, ff = 0, r[4] = {0};
    int named = json_object_get(c->config, "head_size") && json_object_get(c->config, "layer_norm_epsilon");
    lgg_status st = either(c, named ? "head_size" : "head_dim", "head_dim", -1, 0, &hs, err);
    if (!st) st = either(c, named ? "layer_norm_epsilon" : "norm_eps", "norm_eps", -1, 1, &eps, err);
    if (!st) st = either(c, "hidden_size", "hidden_size", -1, 0, &h, err);
    if (!st) st = either(c, "intermediate_size", "intermediate_size", h * 4, 0, &ff, err);
    static const char *const RANK[2][4] = {{"lora_rank_decay", "lora_rank_iclr", "lora_rank_value_residual_mix", "lora_rank_gate"},
                                           {"decay_low_rank_dim", "a_low_rank_dim", "v_low_rank_dim", "gate_low_rank_dim"}};
    const double dflt[4] = {lora_rank(h, 0.5, 1.8), lora_rank(h, 0.5, 1.8), lora_rank(h, 0.5, 1.3), lora_rank(h, 0.8, 0.6)};
    int set = 1; /* the first set when all four of its keys are there (master's KeyError falls to the second) */
    for (int i = 0; i < 4; i++) set &= json_object_get(c->config, RANK[0][i]) != NULL;
    for (int i = 0; !st && i < 4; i++) st = either(c, RANK[!set][i], RANK[!set][i], dflt[i], 0, &r[i], err);
    if (st) return st;
    struct {
        const char *k;
        int f32;
        double v;
    } keys[] = {{"context_length", 0, 1048576}, {"embedding_length", 0, h}, {"block_count", 0, (double)c->block_count},
                {"attention.layer_norm_epsilon", 1, eps}, {"wkv.head_size", 0, hs}, {"attention.decay_lora_rank", 0, r[0]},
                {"attention.iclr_lora_rank", 0, r[1]}, {"attention.value_residual_mix_lora_rank", 0, r[2]},
                {"attention.gate_lora_rank", 0, r[3]}, {"feed_forward_length", 0, ff}};
    for (size_t i = 0; !st && i < sizeof keys / sizeof keys[0]; i++) {
        if (!keys[i].f32 && keys[i].v > UINT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: %s is beyond 32 bits", c->dir, keys[i].k);
        st = put(c, keys[i].k, keys[i].f32, keys[i].v, err);
    }
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    if (!st) st = put(c, "attention.head_count", 0, 0, err);
    return st;
}

const cv_hooks lgg__cv_hooks_rwkv7 = {NULL, rwkv7_hf_name, rwkv7_tensor, rwkv7_meta, rwkv_vocab, NULL};

/* ---- ARWKV-7 (RwkvHybridForCausalLM: master's ARwkv7Model over Rwkv7Model; RWKV-Red-Team/ARWKV-7B-Preview-0.1) ----
 * Qwen2.5's blocks with RWKV-7 time mixes (self_attn.time_mixer.*) for attention: RWKV-7's tensors and renames, a
 * Qwen-style MLP and RMS norms, Qwen's BPE vocabulary (SentencePiece first when the folder has one). */

/* Without the gate (wkv_has_gate false) the token shift x_g, which the checkpoint still holds, is not stacked:
 * master leaves it unwritten. */
static lgg_status arwkv7_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    const json_t *gate = json_object_get(c->config, "wkv_has_gate");
    if (ends(t->name, ".time_mix_lerp_g") && gate && !lgg__cv_py_truthy(gate)) {
        drop(c, (size_t)(t - c->t));
        return LGG_OK;
    }
    return rwkv7_tensor(c, t, err);
}

/* Master's keys: the LoRA ranks its own (64, 64, 32, and 128 with the gate, else 0), RMS epsilon, one token shift. */
static lgg_status arwkv7_meta(lgg_convert *c, lgg_error *err) {
    static const char *const COUNT[] = {"hidden_size", "head_size", "intermediate_size"};
    for (size_t i = 0; i < 3; i++) {
        int64_t v = lgg__cv_hparam_int(c, COUNT[i], -1);
        if (v < 0 || v > UINT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, COUNT[i]);
    }
    const json_t *eps = json_object_get(c->config, "rms_norm_eps"), *gate = json_object_get(c->config, "wkv_has_gate");
    if (!json_is_number(eps) || !gate)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing%s", c->dir,
                            gate ? "rms_norm_eps" : "wkv_has_gate", gate ? " or not a number" : "");
    if (lgg__cv_hparam_int(c, "wkv_version", -1) != 7)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: wkv_version is not 7 (llama.cpp master's ARWKV-7 "
                            "asserts it)", c->dir);
    struct {
        const char *k;
        int f32;
        double v;
    } keys[] = {{"context_length", 0, 1048576}, {"embedding_length", 0, (double)lgg__cv_hparam_int(c, "hidden_size", 0)},
                {"block_count", 0, (double)c->block_count}, {"attention.layer_norm_rms_epsilon", 1, json_number_value(eps)},
                {"wkv.head_size", 0, (double)lgg__cv_hparam_int(c, "head_size", 0)}, {"attention.decay_lora_rank", 0, 64},
                {"attention.iclr_lora_rank", 0, 64}, {"attention.value_residual_mix_lora_rank", 0, 32},
                {"attention.gate_lora_rank", 0, lgg__cv_py_truthy(gate) ? 128 : 0},
                {"feed_forward_length", 0, (double)lgg__cv_hparam_int(c, "intermediate_size", 0)}};
    lgg_status st = LGG_OK;
    for (size_t i = 0; !st && i < sizeof keys / sizeof keys[0]; i++) st = put(c, keys[i].k, keys[i].f32, keys[i].v, err);
    if (!st && lgg_writer_set_u32(c->w, "general.file_type", lgg__cv_file_type(c), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set general.file_type");
    if (!st) st = put(c, "token_shift_count", 0, 1, err);
    if (!st) st = put(c, "attention.head_count", 0, 0, err);
    return st;
}

const cv_hooks lgg__cv_hooks_arwkv7 = {NULL, rwkv7_hf_name, arwkv7_tensor, arwkv7_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_rwkv6 = {NULL, NULL, rwkv_tensor, rwkv_meta, rwkv_vocab, NULL};
const cv_hooks lgg__cv_hooks_rwkv6qwen2 = {NULL, NULL, rwkv_tensor, qwen2_meta, NULL, NULL}; /* SentencePiece, else BPE */
