/* tok_hf.c -- a Hugging Face checkpoint's tokenizer.json, tokenized as the
 * tokenizers library does: added tokens split out of the raw text (then of
 * each normalized piece), the normalizer on each piece, the pre-tokenizer,
 * the BPE model, the post-processor; and tokenizer_config.json's rules the
 * way transformers' AutoTokenizer applies them (LlamaTokenizerFast and
 * GemmaTokenizerFast rebuild the post-processor from add_bos_token and
 * add_eos_token).  Components it does not implement are refused by name.
 * Each component is checked against the npm tokenizers on its own
 * (tests/tokenize/make_hf_json.py) and on real checkpoints' files. */
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <oniguruma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "tokenize/tok.h"

enum { N_NFC, N_NFD, N_NFKC, N_NFKD, N_REPLACE, N_PREPEND, N_STRIP, N_LOWER, N_STRIP_ACCENTS, N_BERT, N_PRECOMPILED };
enum { P_SPLIT, P_BYTELEVEL, P_METASPACE };
enum { B_REMOVED, B_ISOLATED, B_MERGED_PREV, B_MERGED_NEXT, B_CONTIGUOUS };
enum { D_BYTELEVEL, D_REPLACE, D_BYTEFALLBACK, D_FUSE, D_STRIP, D_WORDPIECE, D_METASPACE, D_CTC };
enum { M_BPE, M_WORDPIECE, M_UNIGRAM };

typedef struct hf_step {
    int kind;
    char *a, *b;      /* Replace: pattern, content; Prepend: a; Split: a (a string pattern) */
    size_t an, bn;
    regex_t *re;      /* a Regex pattern */
    int behavior, invert, add_prefix_space, use_regex, left, right;
    tok_charsmap cm;  /* Precompiled: its double array over a (the charsmap's bytes) */
} hf_step;

typedef struct hf_added {
    int32_t id;
    char *s;
    size_t n;
    int lstrip, rstrip, single_word, normalized, special;
    char *dec;        /* a normalized token's normalized content, what decode gives for it (NULL: s) */
    size_t dec_n;
} hf_added;

typedef struct pairmap {
    uint64_t *key; /* (a << 32 | b) + 1; 0 empty */
    uint64_t *val; /* rank << 32 | new id */
    size_t mask;
} pairmap;

struct tok_hf {
    int model;                    /* M_BPE, M_WORDPIECE, M_UNIGRAM */
    tok_map vocab;                /* model.vocab alone: the model looks up only its own tokens */
    tok_wordpiece wp;
    char *wp_prefix;
    tok_unigram ug;
    hf_step *norm, *pre, *dec;
    size_t n_norm, n_pre, n_dec;
    pairmap merges;
    int byte_fallback, ignore_merges, fuse_unk;
    int32_t unk;
    hf_added *added;
    size_t n_added;
    int32_t *added_of;            /* per id: its last entry in added (what decoding takes), or -1 */
    tok_trie trie_raw, trie_norm; /* values: index into added */
    int32_t *prefix, *suffix;     /* the post-processor's ids around the text */
    size_t n_prefix, n_suffix;
    pthread_mutex_t re_lock;      /* Oniguruma searches on shared regexes, one at a time */
    OnigMatchParam *mp;           /* the searches' backtracking limits (under re_lock) */
    regex_t *bytelevel_re;
};

/* What the encoder's steps return besides 0 and -1 (no memory): a regex
 * that backtracked past its budget (or failed otherwise inside
 * Oniguruma).  The text has no ids then: fewer matches would change them. */
#define RE_GAVE_UP (-2)

/* Oniguruma backtracks without bound ((a|a)*b doubles its work with each
 * 'a'), and the library's own limit, 10^7 steps a match, lets 920 bytes
 * take 30 s.  So the regexes get a budget of backtracking steps for each
 * text they tokenize: RE_STEPS_BASE, and RE_STEPS_PER_BYTE more for each
 * byte a pattern is run over.  A search starts with a small limit and is
 * run again with four times the limit while it runs out; every limit tried
 * is charged in full, so the work done is never more than the budget, and
 * a search that would need more is an error.  The usual patterns take a few
 * steps a byte: the budget is far above what a real tokenizer needs. */
enum { RE_STEPS_PER_BYTE = 256, RE_FIRST_LIMIT = 256 };
#define RE_STEPS_BASE (1ul << 20)

static const char BYTELEVEL_RE[] = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/* ---- the id-pair map of merges ---- */

static int pair_put(pairmap *m, uint32_t a, uint32_t b, uint64_t v, size_t *n) {
    if (!m->key || (*n + 1) * 2 > m->mask + 1) {
        size_t cap = m->key ? (m->mask + 1) * 2 : 1024;
        uint64_t *k = calloc(cap, 8), *w = calloc(cap, 8);
        if (!k || !w) {
            free(k), free(w);
            return -1;
        }
        for (size_t i = 0; m->key && i <= m->mask; i++) {
            if (!m->key[i]) continue;
            size_t j = (size_t)(m->key[i] * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
            while (k[j]) j = (j + 1) & (cap - 1);
            k[j] = m->key[i], w[j] = m->val[i];
        }
        free(m->key), free(m->val);
        m->key = k, m->val = w, m->mask = cap - 1;
    }
    uint64_t key = ((uint64_t)a << 32 | b) + 1;
    size_t j = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & m->mask;
    for (; m->key[j]; j = (j + 1) & m->mask)
        if (m->key[j] == key) return 0; /* the first merge of a pair wins */
    m->key[j] = key, m->val[j] = v;
    (*n)++;
    return 0;
}

static int pair_get(const pairmap *m, uint32_t a, uint32_t b, uint64_t *v) {
    if (!m->key) return 0;
    uint64_t key = ((uint64_t)a << 32 | b) + 1;
    for (size_t j = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & m->mask; m->key[j]; j = (j + 1) & m->mask)
        if (m->key[j] == key) return *v = m->val[j], 1;
    return 0;
}

/* ---- loading ---- */

static int normalize(struct tok_hf *h, const char *s, size_t n, tok_buf *out, unsigned long *budget);

static lgg_status bad(lgg_error *err, const char *path, const char *fmt, const char *what) {
    char msg[200];
    snprintf(msg, sizeof msg, fmt, what ? what : "");
    return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "tokenizer.json: %s: %s", path, msg);
}

static lgg_status nomem(lgg_error *err) { return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory"); }

static lgg_status regex_gave_up(lgg_error *err, const char *where);

static lgg_status unsupported(lgg_error *err, const char *path, const char *type) {
    return lgg_error_set(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET, "tokenizer.json: %s: type '%s' is not supported", path,
                         type ? type : "(none)");
}

static char *dup_n(const char *s, size_t n) {
    char *p = malloc(n + 1);
    if (p) memcpy(p, s, n), p[n] = 0;
    return p;
}

static pthread_once_t onig_once = PTHREAD_ONCE_INIT;
static void onig_init_once(void) {
    OnigEncoding enc[1] = {ONIG_ENCODING_UTF8};
    onig_initialize(enc, 1);
}

/* Hugging Face compiles with the onig crate's defaults: Ruby syntax, no options */
static lgg_status compile(const char *pat, size_t n, regex_t **re, const char *path, lgg_error *err) {
    pthread_once(&onig_once, onig_init_once);
    OnigErrorInfo einfo;
    int rc = onig_new(re, (const UChar *)pat, (const UChar *)pat + n, ONIG_OPTION_NONE, ONIG_ENCODING_UTF8,
                      ONIG_SYNTAX_RUBY, &einfo);
    if (rc != ONIG_NORMAL) {
        UChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
        onig_error_code_to_str(msg, rc, &einfo);
        *re = NULL;
        return bad(err, path, "bad regex: %s", (const char *)msg);
    }
    return LGG_OK;
}

/* {"String": s} or {"Regex": r} */
static lgg_status pattern(json_t *p, hf_step *s, const char *path, lgg_error *err) {
    json_t *str = json_object_get(p, "String"), *rx = json_object_get(p, "Regex");
    if (json_is_string(str)) {
        s->an = json_string_length(str);
        if (!(s->a = dup_n(json_string_value(str), s->an))) return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        return s->an ? LGG_OK : bad(err, path, "an empty pattern%s", NULL);
    }
    if (json_is_string(rx)) return compile(json_string_value(rx), json_string_length(rx), &s->re, path, err);
    return bad(err, path, "pattern is neither {\"String\"} nor {\"Regex\"}%s", NULL);
}

static const char *type_of(json_t *o) { return json_string_value(json_object_get(o, "type")); }

static int is_type(json_t *o, const char *t) {
    const char *x = type_of(o);
    return x && !strcmp(x, t);
}

static lgg_status add_step(hf_step **v, size_t *n, hf_step s, lgg_error *err) {
    hf_step *q = realloc(*v, (*n + 1) * sizeof *q);
    if (!q) return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    q[(*n)++] = s;
    *v = q;
    return LGG_OK;
}

static lgg_status load_normalizer(struct tok_hf *h, json_t *n, const char *path, lgg_error *err) {
    if (json_is_null(n) || !n) return LGG_OK;
    if (!json_is_object(n)) return bad(err, path, "not an object%s", NULL);
    const char *t = type_of(n);
    hf_step s = {0};
    if (is_type(n, "Sequence")) {
        json_t *list = json_object_get(n, "normalizers"), *e;
        size_t i;
        char sub[128];
        if (!json_is_array(list)) return bad(err, path, "Sequence without normalizers%s", NULL);
        json_array_foreach(list, i, e) {
            snprintf(sub, sizeof sub, "%s.normalizers[%zu]", path, i);
            lgg_status st = load_normalizer(h, e, sub, err);
            if (st) return st;
        }
        return LGG_OK;
    } else if (t && !strcmp(t, "NFC")) s.kind = N_NFC;
    else if (t && !strcmp(t, "NFD")) s.kind = N_NFD;
    else if (t && !strcmp(t, "NFKC")) s.kind = N_NFKC;
    else if (t && !strcmp(t, "NFKD")) s.kind = N_NFKD;
    else if (t && !strcmp(t, "Replace")) {
        s.kind = N_REPLACE;
        json_t *c = json_object_get(n, "content");
        if (!json_is_string(c)) return bad(err, path, "Replace without content%s", NULL);
        lgg_status st = pattern(json_object_get(n, "pattern"), &s, path, err);
        if (st) return st;
        s.bn = json_string_length(c);
        s.b = dup_n(json_string_value(c), s.bn);
    } else if (t && !strcmp(t, "Prepend")) {
        s.kind = N_PREPEND;
        json_t *p = json_object_get(n, "prepend");
        if (!json_is_string(p)) return bad(err, path, "Prepend without prepend%s", NULL);
        s.an = json_string_length(p);
        s.a = dup_n(json_string_value(p), s.an);
    } else if (t && !strcmp(t, "Lowercase")) {
        s.kind = N_LOWER;
    } else if (t && !strcmp(t, "StripAccents")) {
        s.kind = N_STRIP_ACCENTS;
    } else if (t && !strcmp(t, "BertNormalizer")) {
        /* clean_text, handle_chinese_chars, strip_accents (null: as lowercase), lowercase; true by default */
        json_t *c = json_object_get(n, "clean_text"), *h2 = json_object_get(n, "handle_chinese_chars"),
               *sa = json_object_get(n, "strip_accents"), *lc = json_object_get(n, "lowercase");
        s.kind = N_BERT;
        s.left = c ? json_is_true(c) : 1;             /* clean_text */
        s.right = h2 ? json_is_true(h2) : 1;          /* handle_chinese_chars */
        s.use_regex = lc ? json_is_true(lc) : 1;      /* lowercase */
        s.invert = json_is_boolean(sa) ? json_is_true(sa) : s.use_regex; /* strip_accents */
    } else if (t && !strcmp(t, "Precompiled")) { /* sentencepiece's charsmap, base64 */
        json_t *c = json_object_get(n, "precompiled_charsmap");
        tok_buf b = {0};
        if (!json_is_string(c) || lgg__tok_base64(json_string_value(c), json_string_length(c), &b))
            return lgg__tok_buf_free(&b), bad(err, path, "precompiled_charsmap is not base64%s", NULL);
        s.kind = N_PRECOMPILED, s.a = b.p, s.an = b.n;
        int r = lgg__tok_charsmap_parse((const uint8_t *)s.a, s.an, &s.cm);
        if (r) {
            free(s.a), free(s.cm.units);
            return r == -2 ? bad(err, path, "the precompiled_charsmap's strings are not UTF-8%s", NULL)
                           : bad(err, path, "the precompiled_charsmap is shorter than its trie%s", NULL);
        }
    } else if (t && !strcmp(t, "Strip")) {
        s.kind = N_STRIP;
        s.left = json_is_true(json_object_get(n, "strip_left"));
        s.right = json_is_true(json_object_get(n, "strip_right"));
    } else {
        return unsupported(err, path, t);
    }
    return add_step(&h->norm, &h->n_norm, s, err);
}

static lgg_status load_pre(struct tok_hf *h, json_t *n, const char *path, lgg_error *err) {
    if (json_is_null(n) || !n) return LGG_OK;
    if (!json_is_object(n)) return bad(err, path, "not an object%s", NULL);
    const char *t = type_of(n);
    hf_step s = {0};
    if (is_type(n, "Sequence")) {
        json_t *list = json_object_get(n, "pretokenizers"), *e;
        size_t i;
        char sub[128];
        if (!json_is_array(list)) return bad(err, path, "Sequence without pretokenizers%s", NULL);
        json_array_foreach(list, i, e) {
            snprintf(sub, sizeof sub, "%s.pretokenizers[%zu]", path, i);
            lgg_status st = load_pre(h, e, sub, err);
            if (st) return st;
        }
        return LGG_OK;
    } else if (t && !strcmp(t, "Split")) {
        s.kind = P_SPLIT;
        static const char *const B[] = {"Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"};
        const char *b = json_string_value(json_object_get(n, "behavior"));
        s.behavior = -1;
        for (int i = 0; b && i < 5; i++)
            if (!strcmp(b, B[i])) s.behavior = i;
        if (s.behavior < 0) return bad(err, path, "unknown behavior '%s'", b);
        s.invert = json_is_true(json_object_get(n, "invert"));
        lgg_status st = pattern(json_object_get(n, "pattern"), &s, path, err);
        if (st) return st;
    } else if (t && (!strcmp(t, "Whitespace") || !strcmp(t, "WhitespaceSplit") || !strcmp(t, "Digits") ||
                     !strcmp(t, "Punctuation") || !strcmp(t, "BertPreTokenizer"))) {
        /* the library's character-class splitters, as Split steps: each
         * matching character is a match of its own, as its char predicates make it */
        static const char PUNCT[] = "[\\p{P}!-/:-@\\[-`{-~]";
        const char *pat = NULL;
        int behavior = B_ISOLATED, invert = 0;
        if (!strcmp(t, "Whitespace")) pat = "\\w+|[^\\w\\s]+", behavior = B_REMOVED, invert = 1;
        else if (!strcmp(t, "WhitespaceSplit")) pat = "\\s", behavior = B_REMOVED;
        else if (!strcmp(t, "Digits"))
            pat = "\\p{N}", behavior = json_is_true(json_object_get(n, "individual_digits")) ? B_ISOLATED : B_CONTIGUOUS;
        else if (!strcmp(t, "Punctuation")) {
            static const char *const B[] = {"Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous"};
            const char *b = json_string_value(json_object_get(n, "behavior"));
            pat = PUNCT;
            for (int i = 0; b && i < 5; i++)
                if (!strcmp(b, B[i])) behavior = i;
        } else { /* BertPreTokenizer: whitespace removed, then punctuation isolated */
            hf_step w = {0};
            w.kind = P_SPLIT, w.behavior = B_REMOVED;
            lgg_status st = compile("\\s", 2, &w.re, path, err);
            if (st || (st = add_step(&h->pre, &h->n_pre, w, err))) return st;
            pat = PUNCT;
        }
        s.kind = P_SPLIT, s.behavior = behavior, s.invert = invert;
        lgg_status st = compile(pat, strlen(pat), &s.re, path, err);
        if (st) return st;
    } else if (t && !strcmp(t, "Metaspace")) {
        /* behavior: prepend 0 never, 1 always, 2 first; use_regex: split */
        json_t *r = json_object_get(n, "replacement"), *ps = json_object_get(n, "prepend_scheme"),
               *ap = json_object_get(n, "add_prefix_space"), *sp = json_object_get(n, "split");
        const char *scheme = json_string_value(ps);
        s.kind = P_METASPACE;
        s.an = json_is_string(r) ? json_string_length(r) : 3;
        s.a = dup_n(json_is_string(r) ? json_string_value(r) : "\xe2\x96\x81", s.an);
        if (!s.a || !s.an) return bad(err, path, "Metaspace needs a replacement%s", NULL);
        s.behavior = scheme ? (!strcmp(scheme, "always") ? 1 : !strcmp(scheme, "first") ? 2 : 0)
                            : (ap ? json_is_true(ap) : 1);
        s.use_regex = sp ? json_is_true(sp) : 1;
    } else if (t && !strcmp(t, "ByteLevel")) {
        s.kind = P_BYTELEVEL;
        json_t *u = json_object_get(n, "use_regex");
        s.add_prefix_space = json_is_true(json_object_get(n, "add_prefix_space"));
        s.use_regex = u ? json_is_true(u) : 1;
        if (s.use_regex && !h->bytelevel_re) {
            lgg_status st = compile(BYTELEVEL_RE, strlen(BYTELEVEL_RE), &h->bytelevel_re, path, err);
            if (st) return st;
        }
    } else {
        return unsupported(err, path, t);
    }
    return add_step(&h->pre, &h->n_pre, s, err);
}

static lgg_status load_decoder(struct tok_hf *h, json_t *n, const char *path, lgg_error *err) {
    if (json_is_null(n) || !n) return LGG_OK;
    const char *t = type_of(n);
    hf_step s = {0};
    if (is_type(n, "Sequence")) {
        json_t *list = json_object_get(n, "decoders"), *e;
        size_t i;
        char sub[128];
        if (!json_is_array(list)) return bad(err, path, "Sequence without decoders%s", NULL);
        json_array_foreach(list, i, e) {
            snprintf(sub, sizeof sub, "%s.decoders[%zu]", path, i);
            lgg_status st = load_decoder(h, e, sub, err);
            if (st) return st;
        }
        return LGG_OK;
    } else if (t && !strcmp(t, "ByteLevel")) s.kind = D_BYTELEVEL;
    else if (t && !strcmp(t, "ByteFallback")) s.kind = D_BYTEFALLBACK;
    else if (t && !strcmp(t, "Fuse")) s.kind = D_FUSE;
    else if (t && !strcmp(t, "Replace")) {
        s.kind = D_REPLACE;
        json_t *c = json_object_get(n, "content"), *p = json_object_get(json_object_get(n, "pattern"), "String");
        if (!json_is_string(c) || !json_is_string(p) || !json_string_length(p))
            return bad(err, path, "Replace needs a String pattern and a content%s", NULL);
        s.an = json_string_length(p), s.a = dup_n(json_string_value(p), s.an);
        s.bn = json_string_length(c), s.b = dup_n(json_string_value(c), s.bn);
    } else if (t && !strcmp(t, "Strip")) {
        s.kind = D_STRIP;
        json_t *c = json_object_get(n, "content");
        if (!json_is_string(c)) return bad(err, path, "Strip without content%s", NULL);
        s.an = json_string_length(c), s.a = dup_n(json_string_value(c), s.an);
        s.left = (int)json_integer_value(json_object_get(n, "start"));
        s.right = (int)json_integer_value(json_object_get(n, "stop"));
    } else if (t && (!strcmp(t, "WordPiece") || !strcmp(t, "CTC"))) {
        /* WordPiece: a = prefix; CTC: a = pad_token, b = word_delimiter_token; left = cleanup */
        int wp = !strcmp(t, "WordPiece");
        json_t *a = json_object_get(n, wp ? "prefix" : "pad_token"), *b = json_object_get(n, "word_delimiter_token"),
               *c = json_object_get(n, "cleanup");
        s.kind = wp ? D_WORDPIECE : D_CTC;
        s.an = json_is_string(a) ? json_string_length(a) : wp ? 2 : 5;
        s.a = dup_n(json_is_string(a) ? json_string_value(a) : wp ? "##" : "<pad>", s.an);
        s.bn = json_is_string(b) ? json_string_length(b) : 1;
        s.b = dup_n(json_is_string(b) ? json_string_value(b) : "|", s.bn);
        s.left = c ? json_is_true(c) : 1;
        if (!s.a || !s.b) return nomem(err);
    } else if (t && !strcmp(t, "Metaspace")) { /* a = the replacement character; behavior 0: prepend_scheme never */
        json_t *r = json_object_get(n, "replacement"), *ps = json_object_get(n, "prepend_scheme"),
               *ap = json_object_get(n, "add_prefix_space");
        const char *scheme = json_string_value(ps);
        s.kind = D_METASPACE;
        s.an = json_is_string(r) ? json_string_length(r) : 3;
        s.a = dup_n(json_is_string(r) ? json_string_value(r) : "\xe2\x96\x81", s.an);
        if (!s.a || !s.an || lgg__tok_utf8_len((uint8_t)s.a[0]) != s.an)
            return free(s.a), bad(err, path, "Metaspace's replacement is not one character%s", NULL);
        s.behavior = scheme ? strcmp(scheme, "never") != 0 : (ap ? json_is_true(ap) : 1);
    } else {
        return unsupported(err, path, t);
    }
    return add_step(&h->dec, &h->n_dec, s, err);
}

static int32_t id_of(const lgg_tokenizer *t, const char *s, size_t n) { return lgg__tok_map_get(&t->text_to_id, s, n); }
/* the model's own vocabulary (the added tokens are not in it) */
static int32_t model_id(const lgg_tokenizer *t, const char *s, size_t n) { return lgg__tok_map_get(&t->hf->vocab, s, n); }

static lgg_status push_ids(int32_t **v, size_t *n, json_t *ids, lgg_error *err) {
    size_t i;
    json_t *e;
    json_array_foreach(ids, i, e) {
        if (!json_is_integer(e)) return bad(err, "post_processor", "a special token id is not an integer%s", NULL);
        int32_t *q = realloc(*v, (*n + 1) * sizeof *q);
        if (!q) return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        q[(*n)++] = (int32_t)json_integer_value(e);
        *v = q;
    }
    return LGG_OK;
}

static lgg_status load_post(lgg_tokenizer *t, json_t *n, const char *path, lgg_error *err) {
    struct tok_hf *h = t->hf;
    if (json_is_null(n) || !n) return LGG_OK;
    const char *ty = type_of(n);
    if (is_type(n, "Sequence")) {
        json_t *list = json_object_get(n, "processors"), *e;
        size_t i;
        char sub[128];
        json_array_foreach(list, i, e) {
            snprintf(sub, sizeof sub, "%s.processors[%zu]", path, i);
            lgg_status st = load_post(t, e, sub, err);
            if (st) return st;
        }
        return LGG_OK;
    }
    if (ty && !strcmp(ty, "ByteLevel")) return LGG_OK; /* offsets only */
    if (ty && !strcmp(ty, "TemplateProcessing")) {
        json_t *single = json_object_get(n, "single"), *sp = json_object_get(n, "special_tokens"), *e;
        size_t i;
        int after = 0;
        if (!json_is_array(single)) return bad(err, path, "TemplateProcessing without single%s", NULL);
        json_array_foreach(single, i, e) {
            json_t *st = json_object_get(e, "SpecialToken");
            if (json_object_get(e, "Sequence")) {
                after = 1;
                continue;
            }
            const char *name = json_string_value(json_object_get(st, "id"));
            json_t *ids = json_object_get(json_object_get(sp, name ? name : ""), "ids");
            if (!name || !json_is_array(ids)) return bad(err, path, "special token '%s' without ids", name);
            lgg_status r = after ? push_ids(&h->suffix, &h->n_suffix, ids, err) : push_ids(&h->prefix, &h->n_prefix, ids, err);
            if (r) return r;
        }
        return LGG_OK;
    }
    if (ty && (!strcmp(ty, "BertProcessing") || !strcmp(ty, "RobertaProcessing"))) {
        json_t *cls = json_array_get(json_object_get(n, "cls"), 1), *sep = json_array_get(json_object_get(n, "sep"), 1);
        if (!json_is_integer(cls) || !json_is_integer(sep)) return bad(err, path, "cls/sep without ids%s", NULL);
        json_t *a = json_pack("[O]", cls), *b = json_pack("[O]", sep);
        lgg_status r = push_ids(&h->prefix, &h->n_prefix, a, err);
        if (!r) r = push_ids(&h->suffix, &h->n_suffix, b, err);
        json_decref(a), json_decref(b);
        return r;
    }
    return unsupported(err, path, ty);
}

/* ids are dense in real vocabularies; a bound keeps a hostile file from
 * sizing the id table (2^26, as the converter bounds vocab_size) */
#define MAX_ID (1 << 26)

/* model.vocab's entry i: {"piece": id} (BPE, WordPiece) or [["piece", score], ...] (Unigram: the id is the position) */
static int vocab_entry(json_t *vocab, void **it, size_t i, const char **k, size_t *kn, int64_t *id, double *score) {
    if (json_is_array(vocab)) {
        json_t *e = json_array_get(vocab, i), *p = json_array_get(e, 0), *sc = json_array_get(e, 1);
        if (!e) return 0;
        if (json_array_size(e) != 2 || !json_is_string(p) || !json_is_number(sc)) return -1;
        *k = json_string_value(p), *kn = json_string_length(p), *id = (int64_t)i, *score = json_number_value(sc);
        return 1;
    }
    if (!*it) return 0;
    json_t *v = json_object_iter_value(*it);
    *k = json_object_iter_key(*it), *kn = strlen(*k), *score = 0;
    *id = json_is_integer(v) ? json_integer_value(v) : -1;
    *it = json_object_iter_next(vocab, *it);
    return 1;
}

/* WordPiece: unk_token, continuing_subword_prefix, max_input_chars_per_word */
static lgg_status load_wordpiece(lgg_tokenizer *t, json_t *m, lgg_error *err) {
    struct tok_hf *h = t->hf;
    json_t *pf = json_object_get(m, "continuing_subword_prefix"), *mx = json_object_get(m, "max_input_chars_per_word"),
           *unk = json_object_get(m, "unk_token");
    const char *u = json_is_string(unk) ? json_string_value(unk) : "[UNK]";
    h->wp_prefix = dup_n(json_is_string(pf) ? json_string_value(pf) : "##", json_is_string(pf) ? json_string_length(pf) : 2);
    if (!h->wp_prefix) return nomem(err);
    h->wp = (tok_wordpiece){&h->vocab, h->wp_prefix, strlen(h->wp_prefix),
                            json_is_integer(mx) && json_integer_value(mx) >= 0 ? (size_t)json_integer_value(mx) : 100, 0,
                            lgg__tok_map_get(&h->vocab, u, strlen(u))};
    for (size_t i = 0; h->vocab.slots && i <= h->vocab.mask; i++)
        if (h->vocab.slots[i].key && h->vocab.slots[i].len > h->wp.max_len) h->wp.max_len = h->vocab.slots[i].len;
    /* the library fails at the first unknown word instead; refused here, up front */
    if (h->wp.unk < 0) return bad(err, "model.unk_token", "'%s' is not in the vocabulary", u);
    h->unk = h->wp.unk;
    return LGG_OK;
}

/* Unigram: unk_id (or null), byte_fallback; every piece in a trie */
static lgg_status load_unigram(lgg_tokenizer *t, json_t *m, json_t *vocab, lgg_error *err) {
    struct tok_hf *h = t->hf;
    json_t *unk = json_object_get(m, "unk_id");
    tok_unigram *u = &h->ug;
    u->vocab = &h->vocab, u->unk = -1, u->min_score = INFINITY;
    u->byte_fallback = json_is_true(json_object_get(m, "byte_fallback"));
    /* without unk_id the library fails on the first character no piece starts with: refused up front */
    if (!json_is_integer(unk)) return unsupported(err, "model.unk_id", "Unigram without unk_id");
    if (json_integer_value(unk) < 0 || json_integer_value(unk) >= (json_int_t)json_array_size(vocab))
        return bad(err, "model.unk_id", "outside the vocabulary%s", NULL);
    u->unk = (int32_t)json_integer_value(unk);
    if (!(u->score = calloc((size_t)t->n + 1, sizeof *u->score))) return nomem(err);
    for (size_t i = 0; i < json_array_size(vocab); i++) { /* the pieces, not the added tokens */
        json_t *e = json_array_get(json_array_get(vocab, i), 0);
        const char *k = json_string_value(e);
        size_t kn = json_string_length(e);
        u->score[i] = json_number_value(json_array_get(json_array_get(vocab, i), 1));
        if (u->score[i] < u->min_score) u->min_score = u->score[i];
        if (kn && lgg__tok_trie_add(&u->trie, k, kn, lgg__tok_map_get(&h->vocab, k, kn))) return nomem(err);
    }
    h->unk = u->unk;
    return LGG_OK;
}

/* model.vocab and added_tokens -> the tokens; then the model's own fields */
/* The model's type and vocabulary's container checked; h->model set. */
/* A model without "type" (older files): Hugging Face's library tries each
 * model in turn and takes the first whose required fields are all there:
 * BPE (vocab object, merges), WordPiece (vocab object, unk_token,
 * continuing_subword_prefix, max_input_chars_per_word), WordLevel (vocab
 * object, unk_token), Unigram (vocab array). */
static const char *model_type(json_t *m) {
    const char *t = type_of(m);
    json_t *vocab = json_object_get(m, "vocab");
    if (t || !vocab) return t;
    if (json_is_object(vocab) && json_is_array(json_object_get(m, "merges"))) return "BPE";
    int unk = json_is_string(json_object_get(m, "unk_token"));
    if (json_is_object(vocab) && unk && json_is_string(json_object_get(m, "continuing_subword_prefix")) &&
        json_is_integer(json_object_get(m, "max_input_chars_per_word")))
        return "WordPiece";
    if (json_is_object(vocab) && unk) return "WordLevel";
    return json_is_array(vocab) ? "Unigram" : NULL;
}

static lgg_status model_kind(struct tok_hf *h, json_t *m, const json_t *vocab, lgg_error *err) {
    if (!json_is_object(m)) return bad(err, "model", "missing%s", NULL);
    const char *t = model_type(m);
    if (t && !strcmp(t, "BPE")) h->model = M_BPE;
    else if (t && !strcmp(t, "WordPiece")) h->model = M_WORDPIECE;
    else if (t && !strcmp(t, "Unigram")) h->model = M_UNIGRAM;
    else return unsupported(err, "model", t);
    if (h->model == M_UNIGRAM ? !json_is_array(vocab) : !json_is_object(vocab))
        return bad(err, "model.vocab", h->model == M_UNIGRAM ? "not an array%s" : "not an object%s", NULL);
    if (h->model == M_UNIGRAM && json_array_size(vocab) >= MAX_ID) return bad(err, "model.vocab", "more than 2^26 pieces%s", NULL);
    return LGG_OK;
}

/* Every id of the vocabulary and the added tokens checked; the largest in
 * *max, the bytes their texts need (each with a NUL, and one more) in *total. */
static lgg_status count_ids(json_t *vocab, const json_t *added, int64_t *max, size_t *total, lgg_error *err) {
    const char *k;
    size_t i, kn;
    int64_t id;
    double score;
    json_t *v;
    *max = -1, *total = 1;
    void *it = json_object_iter(vocab);
    for (i = 0; (it || json_is_array(vocab)); i++) {
        int r = vocab_entry(vocab, &it, i, &k, &kn, &id, &score);
        if (!r) break;
        if (r < 0) return bad(err, "model.vocab", "an entry is not [\"piece\", score]%s", NULL);
        if (id < 0 || id >= MAX_ID) return bad(err, "model.vocab", "id of '%s' is not a token id (0..2^26)", k);
        if (id > *max) *max = id;
        *total += kn + 1;
    }
    json_array_foreach(added, i, v) {
        json_t *jid = json_object_get(v, "id");
        if (!json_is_integer(jid) || json_integer_value(jid) < 0 || json_integer_value(jid) >= MAX_ID ||
            !json_is_string(json_object_get(v, "content")))
            return bad(err, "added_tokens", "an entry without id or content%s", NULL);
        if (json_integer_value(jid) > *max) *max = json_integer_value(jid);
        *total += json_string_length(json_object_get(v, "content")) + 1;
    }
    return LGG_OK;
}

/* The vocabulary's pieces into t->tok, the arena and the maps; *p moves on. */
static lgg_status fill_vocab(lgg_tokenizer *t, json_t *vocab, char **p, lgg_error *err) {
    struct tok_hf *h = t->hf;
    const char *k;
    size_t kn;
    int64_t id;
    double score;
    void *it = json_object_iter(vocab);
    for (size_t i = 0; vocab_entry(vocab, &it, i, &k, &kn, &id, &score) > 0; i++) {
        memcpy(*p, k, kn), (*p)[kn] = 0;
        t->tok[id] = (tok_token){*p, (uint32_t)kn, (float)score, TOK_ATTR_NORMAL};
        if (lgg__tok_map_put(&t->text_to_id, *p, kn, (int32_t)id, 1) < 0 || lgg__tok_map_put(&h->vocab, *p, kn, (int32_t)id, 1) < 0)
            return nomem(err);
        *p += kn + 1;
    }
    return LGG_OK;
}

/* The added tokens over the vocabulary (the last entry of an id wins,
 * through added_of); *p moves on. */
static lgg_status fill_added(lgg_tokenizer *t, const json_t *added, char **p, lgg_error *err) {
    struct tok_hf *h = t->hf;
    size_t i;
    json_t *v;
    json_array_foreach(added, i, v) {
        int32_t aid = (int32_t)json_integer_value(json_object_get(v, "id"));
        json_t *c = json_object_get(v, "content");
        size_t n = json_string_length(c);
        memcpy(*p, json_string_value(c), n), (*p)[n] = 0;
        hf_added *a = &h->added[h->n_added++];
        *a = (hf_added){aid, *p, n, json_is_true(json_object_get(v, "lstrip")), json_is_true(json_object_get(v, "rstrip")),
                        json_is_true(json_object_get(v, "single_word")), json_is_true(json_object_get(v, "normalized")),
                        json_is_true(json_object_get(v, "special")), NULL, 0};
        t->tok[aid] = (tok_token){*p, (uint32_t)n, 0, a->special ? TOK_ATTR_CONTROL : TOK_ATTR_USER_DEFINED};
        h->added_of[aid] = (int32_t)(h->n_added - 1);
        if (lgg__tok_map_put(&t->text_to_id, *p, n, aid, 1) < 0 ||
            (!a->normalized && lgg__tok_trie_add(&h->trie_raw, *p, n, (int32_t)(h->n_added - 1))))
            return nomem(err);
        *p += n + 1;
    }
    return LGG_OK;
}

/* One merge, "a b" or [a, b], as the ids of a, b and ab. */
static lgg_status merge_ids(const lgg_tokenizer *t, const json_t *v, size_t i, int32_t ids[3], lgg_error *err) {
    const char *a, *b;
    size_t an, bn;
    char path[64];
    snprintf(path, sizeof path, "model.merges[%zu]", i);
    if (json_is_string(v)) { /* "a b": exactly one space */
        const char *s = json_string_value(v), *sp = strchr(s, ' ');
        if (!sp || strchr(sp + 1, ' ')) return bad(err, path, "'%s' is not two tokens", s);
        a = s, an = (size_t)(sp - s), b = sp + 1, bn = strlen(b);
    } else if (json_is_array(v) && json_array_size(v) == 2 && json_is_string(json_array_get(v, 0)) &&
               json_is_string(json_array_get(v, 1))) {
        a = json_string_value(json_array_get(v, 0)), an = json_string_length(json_array_get(v, 0));
        b = json_string_value(json_array_get(v, 1)), bn = json_string_length(json_array_get(v, 1));
    } else {
        return bad(err, path, "neither \"a b\" nor [a, b]%s", NULL);
    }
    ids[0] = model_id(t, a, an), ids[1] = model_id(t, b, bn);
    char *ab = malloc(an + bn + 1);
    if (!ab) return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    memcpy(ab, a, an), memcpy(ab + an, b, bn);
    ids[2] = model_id(t, ab, an + bn);
    free(ab);
    if (ids[0] < 0 || ids[1] < 0 || ids[2] < 0) return bad(err, path, "a token of the merge is not in the vocabulary%s", NULL);
    return LGG_OK;
}

/* A BPE model's options and merges. */
static lgg_status load_bpe(lgg_tokenizer *t, json_t *m, lgg_error *err) {
    struct tok_hf *h = t->hf;
    if (json_is_true(json_object_get(m, "dropout")) || json_is_real(json_object_get(m, "dropout")))
        if (json_number_value(json_object_get(m, "dropout")) > 0) return unsupported(err, "model.dropout", "BPE with dropout");
    const char *prefix = json_string_value(json_object_get(m, "continuing_subword_prefix"));
    const char *suffix = json_string_value(json_object_get(m, "end_of_word_suffix"));
    if ((prefix && *prefix) || (suffix && *suffix))
        return unsupported(err, "model", "BPE with continuing_subword_prefix or end_of_word_suffix");
    h->byte_fallback = json_is_true(json_object_get(m, "byte_fallback"));
    h->ignore_merges = json_is_true(json_object_get(m, "ignore_merges"));
    h->fuse_unk = json_is_true(json_object_get(m, "fuse_unk"));
    const char *unk = json_string_value(json_object_get(m, "unk_token"));
    h->unk = unk ? model_id(t, unk, strlen(unk)) : -1;
    size_t i, n_merges = 0;
    json_t *v;
    json_array_foreach(json_object_get(m, "merges"), i, v) {
        int32_t ids[3] = {-1, -1, -1};
        lgg_status st = merge_ids(t, v, i, ids, err);
        if (st) return st;
        if (pair_put(&h->merges, (uint32_t)ids[0], (uint32_t)ids[1], (uint64_t)i << 32 | (uint32_t)ids[2], &n_merges))
            return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    }
    return LGG_OK;
}

static lgg_status load_model(lgg_tokenizer *t, json_t *root, lgg_error *err) {
    struct tok_hf *h = t->hf;
    json_t *m = json_object_get(root, "model"), *vocab = json_object_get(m, "vocab"), *added = json_object_get(root, "added_tokens");
    int64_t max;
    size_t total;
    lgg_status st = model_kind(h, m, vocab, err);
    if (!st) st = count_ids(vocab, added, &max, &total, err);
    if (st) return st;
    t->n = (int32_t)(max + 1);
    t->tok = calloc((size_t)t->n + 1, sizeof *t->tok);
    t->arena = malloc(total);
    h->added = calloc(json_array_size(added) + 1, sizeof *h->added);
    h->added_of = malloc(((size_t)t->n + 1) * sizeof *h->added_of);
    if (!t->tok || !t->arena || !h->added || !h->added_of) return nomem(err);
    memset(h->added_of, 0xff, ((size_t)t->n + 1) * sizeof *h->added_of); /* -1: none */
    char *p = t->arena;
    *p++ = 0;
    for (int32_t j = 0; j < t->n; j++) t->tok[j].text = t->arena, t->tok[j].attr = TOK_ATTR_UNDEFINED;
    if ((st = fill_vocab(t, vocab, &p, err)) || (st = fill_added(t, added, &p, err))) return st;
    if (h->model == M_WORDPIECE) return load_wordpiece(t, m, err);
    if (h->model == M_UNIGRAM) return load_unigram(t, m, vocab, err);
    return load_bpe(t, m, err);
}

/* tokenizer_config.json: LlamaTokenizer(Fast) and GemmaTokenizer(Fast)
 * replace the post-processor with BOS (add_bos_token, true by default) and
 * EOS (add_eos_token, false by default) around the text. */
static lgg_status apply_config(lgg_tokenizer *t, json_t *cfg, lgg_error *err) {
    struct tok_hf *h = t->hf;
    const char *cls = json_string_value(json_object_get(cfg, "tokenizer_class"));
    if (!cls) return LGG_OK;
    static const char *const REBUILD[] = {"LlamaTokenizer", "LlamaTokenizerFast", "CodeLlamaTokenizer",
                                          "CodeLlamaTokenizerFast", "GemmaTokenizer", "GemmaTokenizerFast", NULL};
    int rebuild = 0;
    for (int i = 0; REBUILD[i]; i++) rebuild |= !strcmp(cls, REBUILD[i]);
    if (!rebuild) return LGG_OK;
    int gemma = !strncmp(cls, "Gemma", 5);
    json_t *ab = json_object_get(cfg, "add_bos_token"), *ae = json_object_get(cfg, "add_eos_token");
    int add_bos = ab ? json_is_true(ab) : 1, add_eos = ae ? json_is_true(ae) : 0;
    int32_t ids[2];
    const char *names[2] = {"bos_token", "eos_token"}, *defaults[2][2] = {{"<s>", "</s>"}, {"<bos>", "<eos>"}};
    for (int k = 0; k < 2; k++) {
        json_t *v = json_object_get(cfg, names[k]);
        const char *s = json_is_string(v) ? json_string_value(v) : json_string_value(json_object_get(v, "content"));
        if (!s) s = defaults[gemma][k];
        ids[k] = id_of(t, s, strlen(s));
        if (ids[k] < 0 && (k ? add_eos : add_bos))
            return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "tokenizer_config.json: %s '%s' is not a token",
                                 names[k], s);
    }
    h->n_prefix = h->n_suffix = 0;
    if (add_bos) {
        if (!(h->prefix = realloc(h->prefix, sizeof *h->prefix))) return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        h->prefix[h->n_prefix++] = ids[0];
    }
    if (add_eos) {
        if (!(h->suffix = realloc(h->suffix, sizeof *h->suffix))) return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        h->suffix[h->n_suffix++] = ids[1];
    }
    return LGG_OK;
}

void lgg__tok_hf_free(struct tok_hf *h) {
    if (!h) return;
    hf_step *lists[3] = {h->norm, h->pre, h->dec};
    size_t ns[3] = {h->n_norm, h->n_pre, h->n_dec};
    for (int l = 0; l < 3; l++) {
        for (size_t i = 0; i < ns[l]; i++) {
            free(lists[l][i].a), free(lists[l][i].b), free(lists[l][i].cm.units);
            if (lists[l][i].re) onig_free(lists[l][i].re);
        }
        free(lists[l]);
    }
    if (h->bytelevel_re) onig_free(h->bytelevel_re);
    if (h->mp) onig_free_match_param(h->mp);
    free(h->merges.key), free(h->merges.val);
    for (size_t i = 0; h->added && i < h->n_added; i++) free(h->added[i].dec);
    free(h->added), free(h->added_of), free(h->prefix), free(h->suffix), free(h->wp_prefix), free(h->ug.score);
    lgg__tok_map_free(&h->vocab), lgg__tok_trie_free(&h->ug.trie);
    lgg__tok_trie_free(&h->trie_raw), lgg__tok_trie_free(&h->trie_norm);
    pthread_mutex_destroy(&h->re_lock);
    free(h);
}

lgg_status lgg__tok_hf_load(lgg_tokenizer *t, const char *json, size_t len, const char *config, size_t config_len,
                            lgg_error *err) {
    json_error_t je;
    json_t *root = json_loadb(json, len, JSON_ALLOW_NUL, &je);
    if (!root) return lgg_error_set(err, LGG_ERR_INVALID, (uint64_t)je.position, "tokenizer.json: line %d: %s", je.line, je.text);
    return lgg__tok_hf_load_root(t, root, config, config_len, err);
}

lgg_status lgg__tok_hf_load_root(lgg_tokenizer *t, json_t *root, const char *config, size_t config_len, lgg_error *err) {
    json_error_t je;
    struct tok_hf *h = calloc(1, sizeof *h);
    lgg_status st = LGG_OK;
    if (!h) {
        json_decref(root);
        return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    }
    pthread_mutex_init(&h->re_lock, NULL);
    t->hf = h;
    t->type = LGG_VOCAB_BPE;
    t->bos = t->eos = t->unk = t->sep = t->pad = -1;
    snprintf(t->pre_name, sizeof t->pre_name, "tokenizer.json");
    pthread_once(&onig_once, onig_init_once);
    if (!(h->mp = onig_new_match_param())) st = nomem(err);
    else if (!json_is_object(root)) st = bad(err, "(root)", "not an object%s", NULL);
    if (!st) st = load_model(t, root, err);
    if (!st) t->type = h->model == M_WORDPIECE ? LGG_VOCAB_WPM : h->model == M_UNIGRAM ? LGG_VOCAB_UGM : LGG_VOCAB_BPE;
    if (!st) st = load_normalizer(h, json_object_get(root, "normalizer"), "normalizer", err);
    if (!st) st = load_pre(h, json_object_get(root, "pre_tokenizer"), "pre_tokenizer", err);
    if (!st) st = load_post(t, json_object_get(root, "post_processor"), "post_processor", err);
    if (!st) st = load_decoder(h, json_object_get(root, "decoder"), "decoder", err);
    json_decref(root);
    /* normalized added tokens are found by their normalized content, as the library builds its trie */
    unsigned long budget = RE_STEPS_BASE; /* one for all of them */
    for (size_t i = 0; !st && i < h->n_added; i++) {
        if (!h->added[i].normalized) continue;
        tok_buf nb = {0};
        int rc = normalize(h, h->added[i].s, h->added[i].n, &nb, &budget);
        if (rc == RE_GAVE_UP) st = regex_gave_up(err, "added_tokens");
        else if (rc || (nb.n && lgg__tok_trie_add(&h->trie_norm, nb.p, nb.n, (int32_t)i)))
            st = lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        if (!st && (nb.n != h->added[i].n || memcmp(nb.p, h->added[i].s, nb.n))) {
            h->added[i].dec = nb.p ? nb.p : dup_n("", 0), h->added[i].dec_n = nb.n;
            if (!h->added[i].dec) st = nomem(err);
            nb.p = NULL;
        }
        lgg__tok_buf_free(&nb);
    }
    if (!st && config) {
        json_t *cfg = json_loadb(config, config_len, JSON_DECODE_INT_AS_REAL, &je); /* model_max_length: 1e30 */
        if (!cfg) return lgg_error_set(err, LGG_ERR_INVALID, (uint64_t)je.position, "tokenizer_config.json: line %d: %s", je.line, je.text);
        st = apply_config(t, cfg, err);
        json_decref(cfg);
    }
    for (size_t i = 0; !st && i < h->n_prefix + h->n_suffix; i++) {
        int32_t id = i < h->n_prefix ? h->prefix[i] : h->suffix[i - h->n_prefix];
        if (id < 0 || id >= t->n) st = bad(err, "post_processor", "a special token id outside the vocabulary%s", NULL);
    }
    if (!st) {
        t->add_bos = h->n_prefix > 0, t->add_eos = h->n_suffix > 0;
        t->bos = h->n_prefix ? h->prefix[0] : -1, t->eos = h->n_suffix ? h->suffix[h->n_suffix - 1] : -1;
    }
    return st;
}

/* ---- encoding ---- */

typedef struct piece {
    char *s;
    size_t n;
    int start; /* begins at offset 0 of the original text (Metaspace's prepend_scheme "first") */
} piece;

typedef struct pieces {
    piece *p;
    size_t n, cap;
} pieces;

static int pieces_push(pieces *v, const char *s, size_t n) {
    if (!n) return 0; /* empty pieces vanish */
    if (lgg__tok_grow((void **)&v->p, &v->cap, v->n + 1, sizeof *v->p)) return -1;
    char *c = dup_n(s, n);
    if (!c) return -1;
    v->p[v->n++] = (piece){c, n, 0};
    return 0;
}

static void pieces_free(pieces *v) {
    for (size_t i = 0; i < v->n; i++) free(v->p[i].s);
    free(v->p);
    memset(v, 0, sizeof *v);
}

static void budget_add(unsigned long *budget, size_t n) {
    unsigned long more = n < ULONG_MAX / RE_STEPS_PER_BYTE ? (unsigned long)n * RE_STEPS_PER_BYTE : ULONG_MAX;
    *budget = *budget < ULONG_MAX - more ? *budget + more : ULONG_MAX;
}

static lgg_status regex_gave_up(lgg_error *err, const char *where) {
    return lgg_error_set(err, LGG_ERR_LIMIT, LGG_NO_OFFSET,
                         "tokenizer.json: %s: a regex backtracked past its bound (%lu steps and %d a byte of the text) "
                         "and gave up: the pattern backtracks catastrophically on this text",
                         where, RE_STEPS_BASE, RE_STEPS_PER_BYTE);
}

/* onig_search from at, within *budget steps (less what it was charged);
 * its result, or RE_GAVE_UP */
static int search_bounded(regex_t *re, OnigMatchParam *mp, const UChar *b, const UChar *e, const UChar *at, OnigRegion *r,
                          unsigned long *budget) {
    for (unsigned long lim = RE_FIRST_LIMIT; *budget; lim = lim <= ULONG_MAX / 4 ? lim * 4 : ULONG_MAX) {
        if (lim > *budget) lim = *budget; /* never 0, which Oniguruma reads as no limit */
        onig_set_retry_limit_in_match_of_match_param(mp, lim);
        onig_set_retry_limit_in_search_of_match_param(mp, lim);
        int k = onig_search_with_param(re, b, e, at, e, r, ONIG_OPTION_NONE, mp);
        *budget -= lim;
        if (k != ONIGERR_RETRY_LIMIT_IN_MATCH_OVER && k != ONIGERR_RETRY_LIMIT_IN_SEARCH_OVER) return k;
    }
    return RE_GAVE_UP;
}

/* the matches of a literal string in s */
static int find_literal(const hf_step *st, const char *s, size_t n, size_t **m, size_t *nm) {
    size_t cap = 0;
    for (size_t at = 0; at + st->an <= n;) {
        const char *f = memmem(s + at, n - at, st->a, st->an);
        if (!f) break;
        if (lgg__tok_grow((void **)m, &cap, *nm + 2, sizeof **m)) {
            free(*m), *m = NULL, *nm = 0;
            return -1;
        }
        (*m)[(*nm)++] = (size_t)(f - s), (*m)[(*nm)++] = (size_t)(f - s) + st->an;
        at = (size_t)(f - s) + st->an;
    }
    *nm /= 2;
    return 0;
}

/* the matches of a step's pattern in s: (start, end) pairs, non-overlapping,
 * left to right; 0, or -1 (no memory) or RE_GAVE_UP with none kept */
static int find_all(struct tok_hf *h, const hf_step *st, regex_t *re, const char *s, size_t n, size_t **m, size_t *nm,
                    unsigned long *budget) {
    size_t cap = 0;
    *m = NULL, *nm = 0;
    if (!re) return find_literal(st, s, n, m, nm);
    OnigRegion *r = onig_region_new();
    if (!r) return -1;
    const UChar *b = (const UChar *)s, *e = b + n;
    budget_add(budget, n);
    int rc = 0;
    pthread_mutex_lock(&h->re_lock);
    for (size_t at = 0; at <= n;) {
        int k = search_bounded(re, h->mp, b, e, b + at, r, budget);
        if (k == ONIG_MISMATCH) break;
        if (k < 0) { /* an error is not the end of the matches */
            rc = k == ONIGERR_MEMORY ? -1 : RE_GAVE_UP;
            break;
        }
        size_t ms = (size_t)r->beg[0], me = (size_t)r->end[0];
        if (lgg__tok_grow((void **)m, &cap, *nm + 2, sizeof **m)) {
            rc = -1;
            break;
        }
        (*m)[(*nm)++] = ms, (*m)[(*nm)++] = me;
        if (me > ms) at = me;
        else { /* an empty match: on to the next character */
            if (ms >= n) break;
            at = ms + lgg__tok_utf8_len((uint8_t)s[ms]);
        }
    }
    pthread_mutex_unlock(&h->re_lock);
    onig_region_free(r, 1);
    *nm /= 2;
    if (rc) free(*m), *m = NULL, *nm = 0; /* no matches to free on failure */
    return rc;
}

/* Split's behaviors over the (start, end, matched) list covering s */
static int split_piece(struct tok_hf *h, const hf_step *st, regex_t *re, int behavior, int invert, const char *s, size_t n,
                       int start, pieces *out, unsigned long *budget) {
    size_t *m = NULL, nm = 0;
    int found = find_all(h, st, re, s, n, &m, &nm, budget);
    if (found) return found;
    /* the covering list: gaps are unmatched */
    size_t cap = 0, k = 0, prev = 0;
    struct seg { size_t a, b; int match; } *seg = NULL;
    int fail = 0;
    for (size_t i = 0; i <= nm && !fail; i++) {
        size_t a = i < nm ? m[2 * i] : n, b = i < nm ? m[2 * i + 1] : n;
        if (lgg__tok_grow((void **)&seg, &cap, k + 2, sizeof *seg)) fail = 1;
        else {
            if (a > prev) seg[k++] = (struct seg){prev, a, invert};
            if (i < nm) seg[k++] = (struct seg){a, b, !invert};
            prev = b;
        }
    }
    free(m);
    /* group by behavior into (a, b) spans */
    size_t ng = 0;
    struct seg *g = fail ? NULL : malloc((k + 1) * sizeof *g);
    if (!g) fail = 1;
    int prev_match = 0;
    if (!fail && behavior == B_MERGED_NEXT) {
        for (size_t i = k; i-- > 0;) {
            if (seg[i].match && !prev_match && ng) g[ng - 1].a = seg[i].a;
            else g[ng++] = seg[i];
            prev_match = seg[i].match;
        }
        for (size_t i = 0; i < ng / 2; i++) {
            struct seg x = g[i];
            g[i] = g[ng - 1 - i], g[ng - 1 - i] = x;
        }
    } else if (!fail) {
        for (size_t i = 0; i < k; i++) {
            int merge = behavior == B_MERGED_PREV ? seg[i].match && !prev_match && ng
                        : behavior == B_CONTIGUOUS ? seg[i].match == prev_match && ng
                                                   : 0;
            if (behavior == B_REMOVED && seg[i].match) {
                prev_match = 1;
                continue;
            }
            if (merge) g[ng - 1].b = seg[i].b;
            else g[ng++] = seg[i];
            prev_match = seg[i].match;
        }
    }
    for (size_t i = 0; !fail && i < ng; i++) {
        size_t before = out->n;
        fail = pieces_push(out, s + g[i].a, g[i].b - g[i].a) != 0;
        if (!fail && out->n > before) out->p[out->n - 1].start = start && g[i].a == 0;
    }
    free(seg);
    free(g);
    return fail ? -1 : 0;
}

/* ByteLevel: the prefix space, GPT-2's split, then every byte as its printable code point */
static int bytelevel(struct tok_hf *h, const hf_step *st, const char *s, size_t n, int start, pieces *out,
                     unsigned long *budget) {
    tok_buf b = {0};
    pieces parts = {0};
    int rc = 0;
    if (st->add_prefix_space && (n == 0 || s[0] != ' ')) rc |= lgg__tok_buf_put(&b, " ", 1);
    rc |= lgg__tok_buf_put(&b, s, n);
    if (!rc && st->use_regex) rc = split_piece(h, st, h->bytelevel_re, B_ISOLATED, 0, b.p, b.n, start, &parts, budget);
    else if (!rc) rc = pieces_push(&parts, b.p, b.n);
    for (size_t i = 0; !rc && i < parts.n; i++) {
        tok_buf e = {0};
        for (size_t j = 0; j < parts.p[i].n && !rc; j++) rc = lgg__tok_utf8_put(&e, lgg__tok_byte_to_cpt((uint8_t)parts.p[i].s[j]));
        size_t before = out->n;
        if (!rc) rc = pieces_push(out, e.p, e.n);
        if (!rc && out->n > before) out->p[out->n - 1].start = start && i == 0;
        lgg__tok_buf_free(&e);
    }
    pieces_free(&parts);
    lgg__tok_buf_free(&b);
    return rc;
}

/* Rust's char::to_lowercase: the simple mapping, and İ's unconditional
 * two-character one from SpecialCasing.txt */
static int put_lower(tok_buf *b, uint32_t c) {
    if (c == 0x130) return lgg__tok_utf8_put(b, 'i') || lgg__tok_utf8_put(b, 0x307);
    return lgg__tok_utf8_put(b, (uint32_t)utf8proc_tolower((utf8proc_int32_t)c));
}

static int chinese_char(uint32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

/* NFD of s, or s itself */
static int nfd(const char *s, size_t n, tok_buf *out) {
    utf8proc_uint8_t *r = NULL;
    utf8proc_ssize_t k = n ? utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)n, &r,
                                          (utf8proc_option_t)(UTF8PROC_STABLE | UTF8PROC_DECOMPOSE)) : 0;
    int rc = k < 0 ? -1 : lgg__tok_buf_put(out, r, (size_t)k);
    free(r);
    return rc;
}

/* Lowercase, StripAccents (drop marks) and BertNormalizer, character by character */
static int char_map(const hf_step *st, const char *s, size_t n, tok_buf *out) {
    tok_buf tmp = {0};
    int strip = st->kind == N_STRIP_ACCENTS || (st->kind == N_BERT && st->invert);
    int lower = st->kind == N_LOWER || (st->kind == N_BERT && st->use_regex);
    int rc = 0;
    if (st->kind == N_BERT && (st->left || st->right)) { /* clean_text, then the CJK spacing */
        for (size_t p = 0; p < n && !rc;) {
            uint32_t c = lgg__tok_utf8_decode(s, n, &p);
            if (st->left) {
                int ws = c == '\t' || c == '\n' || c == '\r' || (lgg__tok_cpt_flags(c) & CPT_WHITESPACE);
                utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)c);
                int other = cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF || cat == UTF8PROC_CATEGORY_CS ||
                            cat == UTF8PROC_CATEGORY_CO || cat == UTF8PROC_CATEGORY_CN;
                if (c == 0 || c == 0xFFFD || (other && c != '\t' && c != '\n' && c != '\r')) continue;
                if (ws) c = ' ';
            }
            if (st->right && chinese_char(c))
                rc = lgg__tok_utf8_put(&tmp, ' ') || lgg__tok_utf8_put(&tmp, c) || lgg__tok_utf8_put(&tmp, ' ');
            else
                rc = lgg__tok_utf8_put(&tmp, c);
        }
        s = tmp.p ? tmp.p : "", n = tmp.n;
    }
    tok_buf d = {0};
    if (!rc && strip) { /* StripAccents is applied on NFD text: BertNormalizer decomposes first */
        if (st->kind == N_BERT) rc = nfd(s, n, &d), s = d.p ? d.p : "", n = d.n;
    }
    for (size_t p = 0; p < n && !rc;) {
        uint32_t c = lgg__tok_utf8_decode(s, n, &p);
        utf8proc_category_t cat = utf8proc_category((utf8proc_int32_t)c);
        /* StripAccents drops any mark (Mn, Mc, Me), BertNormalizer only Mn, as the library does */
        if (strip && (cat == UTF8PROC_CATEGORY_MN ||
                      (st->kind == N_STRIP_ACCENTS && (cat == UTF8PROC_CATEGORY_MC || cat == UTF8PROC_CATEGORY_ME))))
            continue;
        rc = lower ? put_lower(out, c) : lgg__tok_utf8_put(out, c);
    }
    lgg__tok_buf_free(&tmp);
    lgg__tok_buf_free(&d);
    return rc;
}

static int normalize(struct tok_hf *h, const char *s, size_t n, tok_buf *out, unsigned long *budget) {
    tok_buf cur = {0};
    if (lgg__tok_buf_put(&cur, s, n)) return -1;
    for (size_t i = 0; i < h->n_norm; i++) {
        const hf_step *st = &h->norm[i];
        tok_buf nx = {0};
        int rc = 0;
        switch (st->kind) {
        case N_NFC: case N_NFD: case N_NFKC: case N_NFKD: {
            static const int OPT[4] = {UTF8PROC_COMPOSE, UTF8PROC_DECOMPOSE, UTF8PROC_COMPOSE | UTF8PROC_COMPAT,
                                       UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT};
            utf8proc_uint8_t *r = NULL;
            /* the text is valid UTF-8 here: Hugging Face takes &str */
            utf8proc_ssize_t k = cur.n ? utf8proc_map((const utf8proc_uint8_t *)cur.p, (utf8proc_ssize_t)cur.n, &r,
                                                      (utf8proc_option_t)(UTF8PROC_STABLE | OPT[st->kind])) : 0;
            rc = k < 0 ? -1 : lgg__tok_buf_put(&nx, r, (size_t)k);
            free(r);
            break;
        }
        case N_PRECOMPILED:
            rc = lgg__tok_precompiled(&st->cm, cur.p, cur.n, &nx);
            break;
        case N_LOWER:
        case N_STRIP_ACCENTS:
        case N_BERT:
            rc = char_map(st, cur.p, cur.n, &nx);
            break;
        case N_PREPEND:
            if (cur.n) rc = lgg__tok_buf_put(&nx, st->a, st->an);
            rc |= lgg__tok_buf_put(&nx, cur.p, cur.n);
            break;
        case N_STRIP: {
            size_t a = 0, b = cur.n;
            while (st->left && a < b) {
                size_t p = a;
                uint32_t c = lgg__tok_utf8_decode(cur.p, b, &p);
                if (!(lgg__tok_cpt_flags(c) & CPT_WHITESPACE)) break;
                a = p;
            }
            while (st->right && b > a) {
                size_t p = b - 1;
                while (p > a && ((uint8_t)cur.p[p] & 0xC0) == 0x80) p--;
                size_t q = p;
                uint32_t c = lgg__tok_utf8_decode(cur.p, b, &q);
                if (!(lgg__tok_cpt_flags(c) & CPT_WHITESPACE)) break;
                b = p;
            }
            rc = lgg__tok_buf_put(&nx, cur.p + a, b - a);
            break;
        }
        case N_REPLACE: {
            size_t *m = NULL, nm = 0, at = 0;
            rc = find_all(h, st, st->re, cur.p, cur.n, &m, &nm, budget);
            for (size_t j = 0; !rc && j < nm; j++) {
                rc = lgg__tok_buf_put(&nx, cur.p + at, m[2 * j] - at) || lgg__tok_buf_put(&nx, st->b, st->bn);
                at = m[2 * j + 1];
            }
            if (!rc) rc = lgg__tok_buf_put(&nx, cur.p + at, cur.n - at);
            free(m);
            break;
        }
        }
        lgg__tok_buf_free(&cur);
        if (rc) {
            lgg__tok_buf_free(&nx);
            return rc == RE_GAVE_UP ? rc : -1;
        }
        cur = nx;
        if (!cur.p && lgg__tok_buf_put(&cur, "", 0)) return -1;
    }
    *out = cur;
    return 0;
}

/* the BPE model on one pre-token */
/* ---- BPE: symbols linked in a list, merged by rank then leftmost ---- */
typedef struct bpe_sym {
    int32_t id;
    int prev, next, len; /* len 0: merged into its left neighbour */
} bpe_sym;
typedef struct bpe_merge {
    uint32_t rank;
    int pos;    /* the left symbol */
    int32_t id; /* what the pair becomes */
} bpe_merge;
typedef struct bpe_heap {
    bpe_merge *q;
    size_t n, cap;
} bpe_heap;

static int merge_less(bpe_merge x, bpe_merge y) { return x.rank < y.rank || (x.rank == y.rank && x.pos < y.pos); }

static void heap_push(bpe_heap *h, bpe_merge m) {
    if (h->n == h->cap) return; /* cannot happen: each merge adds at most two (cap 3 per symbol) */
    size_t i = h->n++;
    while (i > 0 && merge_less(m, h->q[(i - 1) / 2])) h->q[i] = h->q[(i - 1) / 2], i = (i - 1) / 2;
    h->q[i] = m;
}

static bpe_merge heap_pop(bpe_heap *h) {
    bpe_merge top = h->q[0], last = h->q[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && merge_less(h->q[c + 1], h->q[c])) c++;
        if (!merge_less(h->q[c], last)) break;
        h->q[i] = h->q[c], i = c;
    }
    if (h->n) h->q[i] = last;
    return top;
}

/* The pair (sy[pos], sy[sy[pos].next]) onto the heap when it merges. */
static void push_pair(const struct tok_hf *hf, const bpe_sym *sy, int pos, bpe_heap *h) {
    uint64_t v;
    if (pos >= 0 && sy[pos].next >= 0 && pair_get(&hf->merges, (uint32_t)sy[pos].id, (uint32_t)sy[sy[pos].next].id, &v))
        heap_push(h, (bpe_merge){(uint32_t)(v >> 32), pos, (int32_t)(uint32_t)v});
}

/* The symbols of s: one per character in the vocabulary, else its bytes'
 * <0xXX> tokens (byte_fallback), else unk (fused when fuse_unk); at most
 * one per byte of s.  Returns how many. */
static int bpe_symbols(const lgg_tokenizer *t, const char *s, size_t n, bpe_sym *sy) {
    const struct tok_hf *h = t->hf;
    int ns = 0, last_unk = 0;
    for (size_t p = 0; p < n;) {
        size_t k = lgg__tok_utf8_len((uint8_t)s[p]);
        if (k > n - p) k = n - p;
        int32_t id = model_id(t, s + p, k), bid[4];
        int ok = h->byte_fallback && id < 0;
        for (size_t j = 0; j < k && ok; j++) {
            char b[8];
            snprintf(b, sizeof b, "<0x%02X>", (unsigned)(uint8_t)s[p + j]);
            ok = (bid[j] = model_id(t, b, 6)) >= 0;
        }
        if (id >= 0) {
            sy[ns++] = (bpe_sym){id, 0, 0, 1};
            last_unk = 0;
        } else if (ok) {
            for (size_t j = 0; j < k; j++) sy[ns++] = (bpe_sym){bid[j], 0, 0, 1};
            last_unk = 0;
        } else if (h->unk >= 0) {
            if (!(h->fuse_unk && last_unk)) sy[ns++] = (bpe_sym){h->unk, 0, 0, 1};
            last_unk = 1;
        }
        p += k;
    }
    for (int i = 0; i < ns; i++) sy[i].prev = i - 1, sy[i].next = i + 1 < ns ? i + 1 : -1;
    return ns;
}

/* Merge by rank, then leftmost, until no pair merges. */
static void bpe_merge_all(const struct tok_hf *hf, bpe_sym *sy, int ns, bpe_heap *h) {
    for (int i = 0; i + 1 < ns; i++) push_pair(hf, sy, i, h);
    while (h->n) {
        bpe_merge top = heap_pop(h);
        bpe_sym *L = &sy[top.pos];
        if (!L->len || L->next < 0) continue;
        bpe_sym *R = &sy[L->next];
        uint64_t v;
        if (!pair_get(&hf->merges, (uint32_t)L->id, (uint32_t)R->id, &v) || (int32_t)(uint32_t)v != top.id) continue;
        L->id = top.id, L->len += R->len, L->next = R->next, R->len = 0;
        if (L->next >= 0) sy[L->next].prev = top.pos;
        push_pair(hf, sy, L->prev, h);
        push_pair(hf, sy, top.pos, h);
    }
}

static int bpe(const lgg_tokenizer *t, const char *s, size_t n, tok_ids *out) {
    const struct tok_hf *hf = t->hf;
    if (hf->ignore_merges) {
        int32_t id = model_id(t, s, n);
        if (id >= 0) return lgg__tok_ids_push(out, id);
    }
    if (n > INT_MAX / 4) return -1; /* symbol positions are ints */
    bpe_sym *sy = malloc((n + 1) * sizeof *sy); /* at most one symbol per byte */
    if (!sy) return -1;
    const int ns = bpe_symbols(t, s, n, sy);
    bpe_heap h = {malloc(((size_t)ns * 3 + 1) * sizeof *h.q), 0, (size_t)ns * 3 + 1};
    int rc = h.q ? 0 : -1;
    if (!rc) bpe_merge_all(hf, sy, ns, &h);
    for (int i = ns ? 0 : -1; i >= 0 && !rc; i = sy[i].next) rc = lgg__tok_ids_push(out, sy[i].id);
    free(h.q);
    free(sy);
    return rc;
}

/* added tokens in s (leftmost-longest), with single_word, lstrip and rstrip */
typedef struct span {
    size_t a, b;
    int32_t id; /* -1: text */
} span;

static int ends_word(const char *s, size_t n) {
    if (!n) return 0;
    size_t p = n - 1;
    while (p > 0 && ((uint8_t)s[p] & 0xC0) == 0x80) p--;
    size_t q = p;
    unsigned f = lgg__tok_cpt_flags(lgg__tok_utf8_decode(s, n, &q));
    return (f & (CPT_LETTER | CPT_NUMBER)) != 0;
}

static int find_added(const struct tok_hf *h, const tok_trie *tr, int parse_special, const char *s, size_t n, span **out,
                      size_t *nout) {
    size_t cap = 0, start = 0;
    *out = NULL, *nout = 0;
    for (size_t i = 0; tr->n && i < n;) {
        size_t best = 0;
        int32_t which = -1;
        uint32_t node = 0;
        for (size_t j = i; j < n; j++) {
            node = lgg__tok_trie_next(tr, node, (uint8_t)s[j]);
            if (!node) break;
            if (tr->nodes[node].value >= 0) best = j + 1 - i, which = tr->nodes[node].value;
        }
        if (which < 0) {
            i++;
            continue;
        }
        const hf_added *a = &h->added[which];
        size_t ms = i, me = i + best;
        if (!parse_special && a->special) { /* tokenizers' encode_special_tokens */
            i++;
            continue;
        }
        if (a->single_word) {
            size_t q = me;
            int after_word = me < n && (lgg__tok_cpt_flags(lgg__tok_utf8_decode(s, n, &q)) & (CPT_LETTER | CPT_NUMBER));
            if (ends_word(s, ms) || after_word) {
                i++;
                continue;
            }
        }
        if (a->lstrip) {
            size_t p = ms;
            while (p > start) {
                size_t b = p - 1;
                while (b > start && ((uint8_t)s[b] & 0xC0) == 0x80) b--;
                size_t q = b;
                if (!(lgg__tok_cpt_flags(lgg__tok_utf8_decode(s, n, &q)) & CPT_WHITESPACE)) break;
                p = b;
            }
            ms = p;
        }
        if (a->rstrip) {
            while (me < n) {
                size_t q = me;
                if (!(lgg__tok_cpt_flags(lgg__tok_utf8_decode(s, n, &q)) & CPT_WHITESPACE)) break;
                me = q;
            }
        }
        if (lgg__tok_grow((void **)out, &cap, *nout + 2, sizeof **out)) return -1;
        if (start < ms) (*out)[(*nout)++] = (span){start, ms, -1};
        (*out)[(*nout)++] = (span){ms, me, a->id};
        start = me;
        i = i + best > me ? i + best : me;
    }
    if (lgg__tok_grow((void **)out, &cap, *nout + 1, sizeof **out)) return -1;
    if (start < n || !*nout) (*out)[(*nout)++] = (span){start, n, -1};
    return 0;
}

/* Metaspace: spaces become the replacement, which is prepended (always, or
 * "first": only at the start of the original text), then split before each
 * replacement (MergedWithNext) when asked */
static int metaspace(struct tok_hf *h, const hf_step *st, const char *s, size_t n, int start, pieces *out,
                     unsigned long *budget) {
    tok_buf r = {0}, b = {0};
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) rc = s[i] == ' ' ? lgg__tok_buf_put(&r, st->a, st->an) : lgg__tok_buf_put(&r, s + i, 1);
    /* the prefix is checked on the replaced text, as the library does */
    int pre = st->behavior == 1 || (st->behavior == 2 && start);
    if (!rc && pre && !(r.n >= st->an && !memcmp(r.p, st->a, st->an))) rc = lgg__tok_buf_put(&b, st->a, st->an);
    if (!rc) rc = lgg__tok_buf_put(&b, r.p ? r.p : "", r.n);
    lgg__tok_buf_free(&r);
    if (!rc && st->use_regex) {
        hf_step lit = *st; /* the replacement as a literal pattern */
        lit.re = NULL;
        rc = split_piece(h, &lit, NULL, B_MERGED_NEXT, 0, b.p ? b.p : "", b.n, start, out, budget);
    } else if (!rc) {
        size_t before = out->n;
        rc = pieces_push(out, b.p ? b.p : "", b.n);
        if (!rc && out->n > before) out->p[out->n - 1].start = start;
    }
    lgg__tok_buf_free(&b);
    return rc;
}

/* one piece of normalized text without added tokens: pre-tokenize, then BPE */
static int encode_plain(const lgg_tokenizer *t, const char *s, size_t n, int start, tok_ids *out, unsigned long *budget) {
    struct tok_hf *h = t->hf;
    pieces cur = {0}, nx = {0};
    int rc = pieces_push(&cur, s, n);
    if (!rc && cur.n) cur.p[0].start = start;
    for (size_t k = 0; !rc && k < h->n_pre; k++) {
        const hf_step *st = &h->pre[k];
        for (size_t i = 0; !rc && i < cur.n; i++)
            rc = st->kind == P_SPLIT       ? split_piece(h, st, st->re, st->behavior, st->invert, cur.p[i].s, cur.p[i].n,
                                                         cur.p[i].start, &nx, budget)
                 : st->kind == P_METASPACE ? metaspace(h, st, cur.p[i].s, cur.p[i].n, cur.p[i].start, &nx, budget)
                                           : bytelevel(h, st, cur.p[i].s, cur.p[i].n, cur.p[i].start, &nx, budget);
        pieces_free(&cur);
        cur = nx;
        memset(&nx, 0, sizeof nx);
    }
    for (size_t i = 0; !rc && i < cur.n; i++)
        rc = h->model == M_WORDPIECE ? lgg__tok_wordpiece(&h->wp, cur.p[i].s, cur.p[i].n, out)
             : h->model == M_UNIGRAM ? lgg__tok_unigram(&h->ug, cur.p[i].s, cur.p[i].n, out)
                                     : bpe(t, cur.p[i].s, cur.p[i].n, out);
    pieces_free(&cur);
    pieces_free(&nx);
    return rc;
}

int lgg__tok_hf_encode(const lgg_tokenizer *t, const char *text, size_t len, int add_special, int parse_special,
                       tok_ids *out, lgg_error *err) {
    struct tok_hf *h = t->hf;
    span *raw = NULL, *nsp = NULL;
    size_t nraw = 0, nn = 0;
    unsigned long budget = RE_STEPS_BASE; /* the regexes' backtracking over this text */
    int rc = 0;
    for (size_t i = 0; add_special && !rc && i < h->n_prefix; i++) rc = lgg__tok_ids_push(out, h->prefix[i]);
    if (!rc) rc = find_added(h, &h->trie_raw, parse_special, text, len, &raw, &nraw);
    for (size_t i = 0; !rc && i < nraw; i++) {
        if (raw[i].id >= 0) {
            rc = lgg__tok_ids_push(out, raw[i].id);
            continue;
        }
        tok_buf nb = {0};
        rc = normalize(h, text + raw[i].a, raw[i].b - raw[i].a, &nb, &budget);
        if (!rc) rc = find_added(h, &h->trie_norm, parse_special, nb.p, nb.n, &nsp, &nn);
        for (size_t j = 0; !rc && j < nn; j++)
            rc = nsp[j].id >= 0 ? lgg__tok_ids_push(out, nsp[j].id)
                                : encode_plain(t, nb.p + nsp[j].a, nsp[j].b - nsp[j].a, raw[i].a == 0 && nsp[j].a == 0, out,
                                               &budget);
        free(nsp);
        nsp = NULL;
        lgg__tok_buf_free(&nb);
    }
    for (size_t i = 0; add_special && !rc && i < h->n_suffix; i++) rc = lgg__tok_ids_push(out, h->suffix[i]);
    free(raw);
    if (rc == RE_GAVE_UP) return -(int)regex_gave_up(err, "a Split or Replace pattern");
    if (rc) return -(int)lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory tokenizing");
    return 0;
}

/* ---- decoding: the decoder chain over the tokens' texts ---- */

/* ---- decoding: the decoder's steps, each over the pieces ----
 * A step reads piece *i of cur (and may take the pieces after it, moving
 * *i to the last it took), appends to nx, or to acc for the steps that
 * join every piece first (ByteLevel, Fuse); b is its scratch buffer.
 * Returns 0, or -1 out of memory. */
typedef int (*dec_step_fn)(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b);

/* every character in the byte map: its bytes, else the token as it is;
 * joined, then read as UTF-8 */
static int dec_bytelevel(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)st, (void)nx;
    const char *s = cur->p[*i].s;
    size_t sn = cur->p[*i].n;
    int all = 1, rc = 0;
    for (size_t p = 0; p < sn && all && !rc;) {
        int byte = lgg__tok_cpt_to_byte(lgg__tok_utf8_decode(s, sn, &p));
        char c = (char)byte;
        if (byte < 0) all = 0;
        else rc = lgg__tok_buf_put(b, &c, 1);
    }
    if (!all) b->n = 0, rc = lgg__tok_buf_put(b, s, sn);
    return rc ? rc : lgg__tok_buf_put(acc, b->p, b->n);
}

static int dec_replace(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)acc;
    const char *s = cur->p[*i].s;
    size_t sn = cur->p[*i].n;
    int rc = 0;
    for (size_t p = 0; p < sn && !rc;) {
        if (p + st->an <= sn && !memcmp(s + p, st->a, st->an)) rc = lgg__tok_buf_put(b, st->b, st->bn), p += st->an;
        else rc = lgg__tok_buf_put(b, s + p, 1), p++;
    }
    return rc ? rc : pieces_push(nx, b->p ? b->p : "", b->n);
}

/* a run of <0xXX> tokens becomes its bytes when they are UTF-8, else one
 * U+FFFD per byte */
static int dec_bytefallback(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)st, (void)acc;
    size_t j = *i;
    tok_buf bytes = {0};
    int rc = 0;
    while (j < cur->n && cur->p[j].n == 6 && !memcmp(cur->p[j].s, "<0x", 3) && cur->p[j].s[5] == '>') {
        char hx[3] = {cur->p[j].s[3], cur->p[j].s[4], 0}, *e;
        long v = strtol(hx, &e, 16);
        if (*e) break;
        char c = (char)v;
        rc |= lgg__tok_buf_put(&bytes, &c, 1);
        j++;
    }
    if (j == *i) {
        rc |= pieces_push(nx, cur->p[*i].s, cur->p[*i].n);
    } else {
        int ok = utf8proc_decompose((const utf8proc_uint8_t *)bytes.p, (utf8proc_ssize_t)bytes.n, NULL, 0, 0) >= 0;
        if (ok) rc |= pieces_push(nx, bytes.p, bytes.n);
        else
            for (size_t q = 0; q < bytes.n && !rc; q++) rc |= lgg__tok_buf_put(b, "\xEF\xBF\xBD", 3);
        if (!ok && !rc) rc = pieces_push(nx, b->p, b->n);
        *i = j - 1;
    }
    lgg__tok_buf_free(&bytes);
    return rc;
}

/* the prefix off, or a space before; then the cleanup */
static int dec_wordpiece(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)acc;
    const char *s = cur->p[*i].s;
    size_t sn = cur->p[*i].n;
    int rc = 0;
    if (*i && sn >= st->an && !memcmp(s, st->a, st->an)) s += st->an, sn -= st->an;
    else if (*i) rc = lgg__tok_buf_put(b, " ", 1);
    rc |= lgg__tok_buf_put(b, s, sn);
    if (!rc && st->left) rc = lgg__tok_wp_cleanup(b);
    return rc ? rc : pieces_push(nx, b->p ? b->p : "", b->n);
}

/* the replacement becomes a space, dropped in the first token (behavior) */
static int dec_metaspace(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)acc;
    const char *s = cur->p[*i].s;
    size_t sn = cur->p[*i].n;
    int rc = 0;
    for (size_t p = 0; p < sn && !rc; p++) {
        if (p + st->an <= sn && !memcmp(s + p, st->a, st->an)) {
            if (*i || !st->behavior) rc = lgg__tok_buf_put(b, " ", 1);
            p += st->an - 1;
        } else {
            rc = lgg__tok_buf_put(b, s + p, 1);
        }
    }
    return rc ? rc : pieces_push(nx, b->p ? b->p : "", b->n);
}

/* repeats dropped, pad removed, cleanup, delimiter as a space */
static int dec_ctc(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)acc;
    const char *s = cur->p[*i].s;
    size_t sn = cur->p[*i].n;
    if (*i && cur->p[*i - 1].n == sn && !memcmp(cur->p[*i - 1].s, s, sn)) return 0;
    int rc = 0;
    for (size_t p = 0; p < sn && !rc;) {
        if (st->an && p + st->an <= sn && !memcmp(s + p, st->a, st->an)) p += st->an;
        else rc = lgg__tok_buf_put(b, s + p, 1), p++;
    }
    if (!rc && st->left) {
        tok_buf c = {0};
        rc = lgg__tok_wp_cleanup(b);
        for (size_t p = 0; p < b->n && !rc;) {
            if (st->bn && p + st->bn <= b->n && !memcmp(b->p + p, st->b, st->bn)) rc = lgg__tok_buf_put(&c, " ", 1), p += st->bn;
            else rc = lgg__tok_buf_put(&c, b->p + p, 1), p++;
        }
        lgg__tok_buf_free(b);
        *b = c;
    }
    return rc ? rc : pieces_push(nx, b->p ? b->p : "", b->n);
}

static int dec_fuse(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)st, (void)nx, (void)b;
    return lgg__tok_buf_put(acc, cur->p[*i].s, cur->p[*i].n);
}

/* up to `left` copies of the content off the front, `right` off the back */
static int dec_strip(const hf_step *st, const pieces *cur, size_t *i, pieces *nx, tok_buf *acc, tok_buf *b) {
    (void)acc, (void)b;
    const char *s = cur->p[*i].s;
    size_t a = 0, z = cur->p[*i].n;
    for (int c = 0; c < st->left && a + st->an <= z && !memcmp(s + a, st->a, st->an); c++) a += st->an;
    for (int c = 0; c < st->right && z >= a + st->an && !memcmp(s + z - st->an, st->a, st->an); c++) z -= st->an;
    return pieces_push(nx, s + a, z - a);
}

/* by hf_step kind (the D_* order) */
static const dec_step_fn DEC_STEP[] = {
    [D_BYTELEVEL] = dec_bytelevel, [D_REPLACE] = dec_replace,     [D_BYTEFALLBACK] = dec_bytefallback,
    [D_FUSE] = dec_fuse,           [D_STRIP] = dec_strip,         [D_WORDPIECE] = dec_wordpiece,
    [D_METASPACE] = dec_metaspace, [D_CTC] = dec_ctc,
};

/* The ids' texts (an added token's decoded content where it has one; the
 * last entry of an id wins, through an index) as the first pieces. */
static int id_pieces(const lgg_tokenizer *t, const int32_t *ids, size_t n, int skip_special, pieces *cur) {
    const struct tok_hf *h = t->hf;
    for (size_t i = 0; i < n; i++) {
        if (skip_special && (t->tok[ids[i]].attr & TOK_ATTR_CONTROL)) continue;
        const char *text = t->tok[ids[i]].text;
        size_t tn = t->tok[ids[i]].len;
        int32_t a = h->added_of[ids[i]];
        if (a >= 0 && h->added[a].dec) text = h->added[a].dec, tn = h->added[a].dec_n;
        if (lgg__tok_grow((void **)&cur->p, &cur->cap, cur->n + 1, sizeof *cur->p)) return -1;
        char *c = dup_n(text, tn);
        if (!c) return -1;
        cur->p[cur->n++] = (piece){c, tn, 0}; /* kept even when empty, unlike pieces_push */
    }
    return 0;
}

/* One decoder step over every piece: the next pieces in *cur. */
static int decode_step(const hf_step *st, pieces *cur) {
    pieces nx = {0};
    tok_buf acc = {0};
    int rc = 0;
    for (size_t i = 0; !rc && i < cur->n; i++) {
        tok_buf b = {0};
        rc = DEC_STEP[st->kind](st, cur, &i, &nx, &acc, &b);
        lgg__tok_buf_free(&b);
    }
    if (st->kind == D_BYTELEVEL || st->kind == D_FUSE) rc |= pieces_push(&nx, acc.p ? acc.p : "", acc.n);
    lgg__tok_buf_free(&acc);
    pieces_free(cur);
    *cur = nx;
    return rc;
}

int lgg__tok_hf_decode(const lgg_tokenizer *t, const int32_t *ids, size_t n, int skip_special, tok_buf *out) {
    const struct tok_hf *h = t->hf;
    pieces cur = {0};
    int rc = id_pieces(t, ids, n, skip_special, &cur);
    for (size_t k = 0; !rc && k < h->n_dec; k++) rc = decode_step(&h->dec[k], &cur);
    /* without a decoder the library joins the tokens with spaces */
    for (size_t i = 0; !rc && i < cur.n; i++)
        rc = (i && !h->n_dec ? lgg__tok_buf_put(out, " ", 1) : 0) || lgg__tok_buf_put(out, cur.p[i].s, cur.p[i].n);
    pieces_free(&cur);
    return rc;
}
