/* qwen.c -- Qwen (v1)'s vocabulary as the reference converter
 * (convert_hf_to_gguf.py b4747, _set_vocab_qwen) writes it.  The reference
 * runs the checkpoint's own tokenization_qwen.py (a tiktoken encoding over
 * qwen.tiktoken: "BASE64 RANK" lines, then the special tokens that file
 * defines from id 151643); the same is done here from the data:
 *   tokens     each rank's bytes as GPT-2 byte-level text, the special
 *              tokens (CONTROL) at their ids, [PADi] (UNUSED) elsewhere
 *   merges     rebuilt as the reference rebuilds them: a token's bytes
 *              merged by BPE with the ranks below its own, which must end
 *              in two parts
 *   pre        the reference's check hash of what the tiktoken encoding
 *              gives its check text (the same BPE, as a tokenizer.json of
 *              these merges with tokenization_qwen.py's pattern encodes)
 *   specials   bos and eos <|endoftext|> when the files give no special id,
 *              unk <|endoftext|> where unset. */
#include "../cvint.h"
#include "libgguf_tokenize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* tokenization_qwen.py's constants (format data of Qwen-7B's tokenizer). */
#define QWEN_SPECIAL_START 151643u
#define QWEN_EXTRAS 205u
#define QWEN_N_SPECIAL (3u + QWEN_EXTRAS)
static const char PAT_STR[] = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|"
                              "\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
#define MAX_RANK (1u << 26)
/* The longest token read: Qwen-7B's is 128 bytes; the merge rebuild costs
 * the square of a token's length. */
#define MAX_TOKEN_BYTES 512

typedef struct rtok {
    const uint8_t *b; /* the token's bytes (in the decoded buffer) */
    uint32_t len, rank;
} rtok;

typedef struct qvocab {
    rtok *t;          /* in file order */
    size_t n;
    uint8_t *bytes;   /* every token's decoded bytes */
    uint32_t *slot;   /* hash table of index + 1 into t, 0 empty */
    size_t mask;
    uint64_t key[2]; /* the hash's key (random; see hash_bytes) */
} qvocab;

static int b64_val(int ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

/* Standard base64 with its padding into out; the byte count or -1. */
static long b64_decode(const char *s, size_t n, uint8_t *out) {
    if (n % 4) return -1;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            v[k] = s[i + k] == '=' && i + 4 == n && k >= 2 ? (pad++, 0) : b64_val((unsigned char)s[i + k]);
            if (v[k] < 0 || (pad && s[i + k] != '=')) return -1;
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        out[o++] = (uint8_t)(w >> 16);
        if (pad < 2) out[o++] = (uint8_t)(w >> 8);
        if (pad < 1) out[o++] = (uint8_t)w;
    }
    return (long)o;
}

/* The table's hash is keyed (lgg_hash_keyed, a key drawn per table): with
 * FNV-1a a file could choose tokens that all fall in one run of slots
 * (200,000 of them took 240 s to load). */
static size_t hash_bytes(const qvocab *v, const uint8_t *b, size_t n) { return (size_t)lgg_hash_keyed(v->key, b, n) & v->mask; }

/* The index + 1 of token bytes b[0..n), or 0 (with *at the empty slot). */
static uint32_t find(const qvocab *v, const uint8_t *b, size_t n, size_t *at) {
    size_t i = hash_bytes(v, b, n);
    for (; v->slot[i]; i = (i + 1) & v->mask) {
        const rtok *t = &v->t[v->slot[i] - 1];
        if (t->len == n && !memcmp(t->b, b, n)) break;
    }
    if (at) *at = i;
    return v->slot[i];
}

static int is_ws(int ch) { return ch == ' ' || ch == '\t' || ch == '\v' || ch == '\f'; }

/* qwen.tiktoken: non-empty lines of two whitespace-separated fields, the
 * token's base64 and its rank (what tokenization_qwen.py reads). */
static lgg_status parse(lgg_convert *c, const char *text, size_t size, qvocab *v, lgg_error *err) {
    size_t lines = 1;
    for (size_t i = 0; i < size; i++) lines += text[i] == '\n' || text[i] == '\r';
    if (!(v->t = calloc(lines, sizeof *v->t)) || !(v->bytes = malloc(size / 4 * 3 + 3)))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    size_t used = 0, line = 0;
    for (size_t p = 0; p < size;) {
        const char *l = text + p; /* lines end as Python's splitlines ends them: \n, \r or \r\n */
        size_t ll = 0;
        while (p + ll < size && l[ll] != '\n' && l[ll] != '\r') ll++;
        p += ll + 1 + (p + ll + 1 < size && l[ll] == '\r' && l[ll + 1] == '\n'), line++;
        const char *f[3] = {0}, *e = l + ll;
        size_t fl[3] = {0};
        int nf = 0;
        for (const char *q = l; q < e && nf < 3;) {
            while (q < e && is_ws(*q)) q++;
            if (q == e) break;
            f[nf] = q;
            while (q < e && !is_ws(*q)) q++;
            fl[nf] = (size_t)(q - f[nf]), nf++;
        }
        if (!nf) continue;
        unsigned long long rank = 0;
        long n = nf == 2 && fl[1] <= 9 && fl[0] <= MAX_TOKEN_BYTES / 3 * 4 ? b64_decode(f[0], fl[0], v->bytes + used) : -1;
        for (size_t k = 0; n >= 0 && k < fl[1]; k++)
            if (f[1][k] < '0' || f[1][k] > '9') n = -1;
            else rank = rank * 10 + (unsigned)(f[1][k] - '0');
        if (n <= 0 || rank >= MAX_RANK)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/qwen.tiktoken: line %zu: not a token's base64 (at most %u bytes) "
                                "and its rank (below %u)", c->dir, line, MAX_TOKEN_BYTES / 3 * 3, MAX_RANK);
        v->t[v->n++] = (rtok){v->bytes + used, (uint32_t)n, (uint32_t)rank};
        used += (size_t)n;
    }
    for (v->mask = 2; v->mask < 2 * v->n + 2; v->mask <<= 1) continue;
    if (!(v->slot = calloc(v->mask, sizeof *v->slot))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    v->mask--;
    lgg_hash_key_new(v->key, v);
    for (size_t i = 0; i < v->n; i++) {
        size_t at;
        if (find(v, v->t[i].b, v->t[i].len, &at))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/qwen.tiktoken: token of rank %u is listed twice", c->dir, v->t[i].rank);
        v->slot[at] = (uint32_t)i + 1;
    }
    return LGG_OK;
}

static uint32_t pair_rank(const qvocab *v, const rtok *t, const uint32_t *cut, size_t i) {
    uint32_t k = find(v, t->b + cut[i], cut[i + 2] - cut[i], NULL);
    return k ? v->t[k - 1].rank : UINT32_MAX;
}

/* The reference's QwenModel.bpe(ranks, token, max_rank=rank): the token's
 * bytes merged pairwise, lowest rank first (the leftmost of equals), while
 * that rank is below the token's own; the parts' boundaries go to cut
 * (len + 1 entries), each adjacent pair's rank kept in pr (len entries) so
 * that a merge looks up its two new pairs only; the parts' count returned. */
static size_t bpe_parts(const qvocab *v, const rtok *t, uint32_t *cut, uint32_t *pr) {
    size_t n = t->len;
    for (size_t i = 0; i <= n; i++) cut[i] = (uint32_t)i;
    for (size_t i = 0; i + 1 < n; i++) pr[i] = pair_rank(v, t, cut, i);
    while (n > 1) {
        size_t best = 0;
        for (size_t i = 1; i + 1 < n; i++)
            if (pr[i] < pr[best]) best = i;
        if (pr[best] == UINT32_MAX || pr[best] >= t->rank) break;
        memmove(cut + best + 1, cut + best + 2, (n - best - 1) * sizeof *cut);
        if (best + 3 < n) memmove(pr + best + 1, pr + best + 2, (n - best - 3) * sizeof *pr);
        n--;
        if (best + 1 < n) pr[best] = pair_rank(v, t, cut, best);
        if (best > 0) pr[best - 1] = pair_rank(v, t, cut, best - 1);
    }
    return n;
}

/* GPT-2's bytes_to_unicode: byte -> UTF-8 of its printable character. */
static void byte_table(char tab[256][3]) {
    unsigned extra = 0;
    for (unsigned b = 0; b < 256; b++) {
        int keep = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174;
        unsigned cp = keep ? b : 256 + extra++;
        tab[b][0] = cp < 0x80 ? (char)cp : (char)(0xc0 | cp >> 6);
        tab[b][1] = cp < 0x80 ? 0 : (char)(0x80 | (cp & 0x3f));
        tab[b][2] = 0;
    }
}

/* bytes as byte-level text appended at *w (up to 2 bytes per byte). */
static void level(const char tab[256][3], const uint8_t *b, size_t n, char **w) {
    for (size_t i = 0; i < n; i++)
        for (const char *s = tab[b[i]]; *s; s++) *(*w)++ = *s;
}

typedef struct qout {
    lgg_str *tok, *merges;
    int32_t *type;
    char *text;       /* the token and merge texts */
    size_t n, n_merges;
} qout;

/* Tokens by id, types and merges in the reference's order. */
static lgg_status build(lgg_convert *c, const qvocab *v, size_t n_vocab, qout *o, lgg_error *err) {
    char tab[256][3];
    byte_table(tab);
    size_t total = 0, maxlen = 1;
    for (size_t i = 0; i < v->n; i++) total += v->t[i].len, maxlen = v->t[i].len > maxlen ? v->t[i].len : maxlen;
    uint32_t *cut = malloc(2 * (maxlen + 1) * sizeof *cut);
    o->n = n_vocab;
    o->tok = calloc(n_vocab + 1, sizeof *o->tok), o->type = calloc(n_vocab + 1, sizeof *o->type);
    o->merges = calloc(v->n + 1, sizeof *o->merges);
    /* per token: its text (2 bytes per byte), its merge (2 per byte + 1); the specials and pads */
    o->text = malloc(5 * total + v->n + 24 * n_vocab + 32 * QWEN_N_SPECIAL);
    if (!cut || !o->tok || !o->type || !o->merges || !o->text) return free(cut), lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    char *w = o->text;
    lgg_status st = LGG_OK;
    for (size_t i = 0; i < v->n && !st; i++) {
        const rtok *t = &v->t[i];
        if (t->rank < n_vocab) {
            o->tok[t->rank].ptr = w;
            level(tab, t->b, t->len, &w);
            o->tok[t->rank].len = (uint64_t)(w - o->tok[t->rank].ptr), o->type[t->rank] = 1;
        }
        if (t->len == 1) continue;
        if (bpe_parts(v, t, cut, cut + maxlen + 1) != 2) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/qwen.tiktoken: token of rank %u is not two tokens of lower rank merged "
                                                    "(the reference's merge rebuild fails on it)", c->dir, t->rank);
            break;
        }
        lgg_str *m = &o->merges[o->n_merges++];
        m->ptr = w;
        level(tab, t->b, cut[1], &w);
        *w++ = ' ';
        level(tab, t->b + cut[1], t->len - cut[1], &w);
        m->len = (uint64_t)(w - m->ptr);
    }
    free(cut);
    for (uint32_t k = 0; k < QWEN_N_SPECIAL && !st; k++) { /* the special tokens win an id they share */
        size_t id = QWEN_SPECIAL_START + k;
        if (id >= n_vocab) break;
        int l = k < 3 ? sprintf(w, "%s", k == 0 ? "<|endoftext|>" : k == 1 ? "<|im_start|>" : "<|im_end|>")
                      : sprintf(w, "<|extra_%u|>", k - 3);
        o->tok[id] = (lgg_str){w, (uint64_t)l}, o->type[id] = 3;
        w += l;
    }
    for (size_t i = 0; i < n_vocab && !st; i++) {
        if (o->tok[i].ptr) continue;
        int l = sprintf(w, "[PAD%zu]", i);
        o->tok[i] = (lgg_str){w, (uint64_t)l}, o->type[i] = 5;
        w += l;
    }
    return st;
}

/* The check hash: these merges and byte-level tokens as a tokenizer.json
 * with tokenization_qwen.py's pattern (NFC, as its tokenize normalizes). */
static lgg_status pre_hash(lgg_convert *c, const qout *o, const qvocab *v, char hex[65], lgg_error *err) {
    json_t *vocab = json_object(), *merges = json_array(), *added = json_array();
    int bad = !vocab || !merges || !added;
    for (size_t i = 0; i < v->n && !bad; i++) {
        uint32_t r = v->t[i].rank;
        if (r < o->n && o->type[r] == 1) bad |= json_object_setn_new_nocheck(vocab, o->tok[r].ptr, o->tok[r].len, json_integer(r));
    }
    for (size_t i = 0; i < o->n_merges && !bad; i++)
        bad |= json_array_append_new(merges, json_stringn_nocheck(o->merges[i].ptr, o->merges[i].len));
    for (size_t id = QWEN_SPECIAL_START; id < o->n && id < QWEN_SPECIAL_START + QWEN_N_SPECIAL && !bad; id++)
        bad |= json_array_append_new(added, json_pack("{s:I,s:s%,s:b,s:b,s:b,s:b,s:b}", "id", (json_int_t)id, "content",
                                                      o->tok[id].ptr, (size_t)o->tok[id].len, "single_word", 0, "lstrip", 0,
                                                      "rstrip", 0, "normalized", 0, "special", 1));
    json_t *bl = bad ? NULL : json_pack("{s:s,s:b,s:b,s:b}", "type", "ByteLevel", "add_prefix_space", 0, "trim_offsets", 0, "use_regex", 0);
    json_t *tj = bl ? json_pack("{s:o,s:{s:s},s:{s:s,s:[{s:s,s:{s:s},s:s,s:b},O]},s:O,s:{s:s,s:o,s:o,s:b,s:b,s:b}}",
                                "added_tokens", added, "normalizer", "type", "NFC", "pre_tokenizer", "type", "Sequence",
                                "pretokenizers", "type", "Split", "pattern", "Regex", PAT_STR, "behavior", "Isolated", "invert", 0,
                                bl, "decoder", bl, "model", "type", "BPE", "vocab", vocab, "merges", merges, "fuse_unk", 0,
                                "byte_fallback", 0, "ignore_merges", 0)
                    : NULL;
    if (!tj) {
        if (!bl) json_decref(added), json_decref(vocab), json_decref(merges);
        json_decref(bl);
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    json_decref(bl);
    char *text = json_dumps(tj, JSON_COMPACT);
    json_decref(tj);
    if (!text) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_tokenizer *t = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    lgg_status st = lgg_tokenizer_open_json(text, strlen(text), NULL, 0, &t, &e);
    free(text);
    if (st) return lgg__cv_fail(err, e.code, "%s/qwen.tiktoken: cannot make its tokenizer to name the pre-tokenizer (%s); name it with --pre NAME",
                                c->dir, e.message);
    st = lgg__cv_check_hash(t, c->dir, hex, err);
    lgg_tokenizer_free(t);
    return st;
}

static lgg_status write_vocab(lgg_convert *c, const qout *o, const char *pre, lgg_error *err) {
    lgg_wvalue tok = {LGG_VT_ARRAY, LGG_VT_STRING, o->n, o->tok};
    lgg_wvalue ty = {LGG_VT_ARRAY, LGG_VT_I32, o->n, o->type};
    lgg_wvalue mg = {LGG_VT_ARRAY, LGG_VT_STRING, o->n_merges, o->merges};
    if (lgg_writer_set_str(c->w, "tokenizer.ggml.model", "gpt2", NULL) ||
        lgg_writer_set_str(c->w, "tokenizer.ggml.pre", pre, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.tokens", 21, &tok, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.token_type", 25, &ty, NULL) ||
        lgg_writer_set(c->w, "tokenizer.ggml.merges", 21, &mg, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's metadata");
    return LGG_OK;
}

static lgg_status qwen_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *opt, lgg_error *err) {
    int64_t n_vocab = lgg__cv_hparam_int(c, "vocab_size", -1);
    if (n_vocab < 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'vocab_size' is missing", c->dir);
    if (n_vocab > (int64_t)MAX_RANK) return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/config.json: vocab_size %lld is too large", c->dir, (long long)n_vocab);
    if (!lgg__cv_exists(c, "qwen.tiktoken", NULL))
        return lgg__cv_fail(err, LGG_ERR_NOT_FOUND, "%s: no qwen.tiktoken (Qwen (v1)'s vocabulary)", c->dir);
    char *text = NULL;
    size_t size = 0;
    lgg_status st = lgg__cv_load(c, "qwen.tiktoken", c->max_json ? c->max_json : LGG_CONVERT_MAX_TOKENIZER_JSON, &text, &size, err);
    if (!st && !text) st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/qwen.tiktoken is too large", c->dir);
    qvocab v = {0};
    qout o = {0};
    if (!st) st = parse(c, text, size, &v, err);
    for (size_t i = 0; !st && i < v.n; i++)
        if (v.t[i].rank >= (uint64_t)n_vocab)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/qwen.tiktoken: rank %u is not below config.json's vocab_size %lld", c->dir,
                              v.t[i].rank, (long long)n_vocab);
    if (!st) st = build(c, &v, (size_t)n_vocab, &o, err);
    char hex[65];
    const char *pre = opt->pre;
    if (!st && !pre && !(st = pre_hash(c, &o, &v, hex, err)) && !(pre = lgg__cv_ref_pre(hex)))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/qwen.tiktoken: BPE pre-tokenizer not recognised (the reference's check hash "
                                                    "%s is not in its table: it refuses this tokenizer); name it with --pre NAME",
                          c->dir, hex);
    if (!st) st = write_vocab(c, &o, pre, err);
    static const char *const TYPES[3] = {"bos", "eos", "unk"};
    for (int k = 0; k < 3; k++)
        c->late_special[k].type = TYPES[k], c->late_special[k].id = QWEN_SPECIAL_START, c->late_special[k].if_none = k < 2;
    c->n_late_special = 3;
    if (!st) st = lgg__cv_special_vocab(c, tc, SIZE_MAX, err);
    free(text), free(v.t), free(v.bytes), free(v.slot);
    free(o.tok), free(o.type), free(o.merges), free(o.text);
    return st;
}

const cv_hooks lgg__cv_hooks_qwen = {NULL, NULL, NULL, NULL, qwen_vocab, NULL};
