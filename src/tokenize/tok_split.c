/* lgg__tok_split.c -- llama.cpp's BPE pre-tokenizer: a list of regular
 * expressions applied one after the other, each splitting the pieces the
 * previous ones left.
 *
 * llama.cpp runs two of them (GPT-2's and Llama 3's) through hand-written
 * matchers, and the others through std::regex on a "collapsed" text: every
 * code point at or above 128 replaced by one byte standing for its category
 * (0xD1 number, 0xD2 letter, 0xD3 punctuation, 0xD4 mark, 0xD5 symbol, 0x0B
 * whitespace, 0xD0 anything else), with \p{X} in the expression replaced by
 * that byte plus X's ASCII members.  Expressions without \p{X} run on the
 * code points themselves (non-ASCII whitespace turned into 0x0B).  The same
 * is done here: the two matchers follow llama.cpp's (their edge cases are
 * the reference's answers), and the rest run through Oniguruma (a
 * backtracking engine with the same leftmost-first alternation as
 * ECMAScript), on the same collapsed text. */
#include <oniguruma.h>
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

enum { SPLIT_GPT2, SPLIT_LLAMA3, SPLIT_COLLAPSED, SPLIT_WIDE };

/* Compiled expressions are kept in a pool: Oniguruma's regex_t is not
 * documented as safe to search from two threads at once, so each call takes
 * a set of its own (compiled when the pool is empty) and gives it back. */
typedef struct regset {
    struct regset *next;
    regex_t *re[];
} regset;

struct tok_splitter {
    size_t n;
    int *kind;
    char **pattern; /* as given to Oniguruma */
    pthread_mutex_t lock;
    regset *pool;
};

const char lgg__tok_re_gpt2[] = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";
static const char LLAMA3_RE_I[] =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";
const char lgg__tok_re_llama3[] = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
                                "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/* the categories llama.cpp collapses, their byte and their ASCII members */
static const struct {
    char cat;
    unsigned char byte;
    const char *ascii;
} UCAT[] = {
    {'N', 0xD1, "0-9"},
    {'L', 0xD2, "A-Za-z"},
    {'P', 0xD3, "!-#%-*,-/:-;?-@\\[-\\]_\\{\\}"},
    {'M', 0xD4, ""},
    {'S', 0xD5, "\\$\\+<->^`\\|"},
};

static int ucat_at(const char *re, size_t i, size_t n) {
    if (i + 4 >= n || re[i] != '\\' || re[i + 1] != 'p' || re[i + 2] != '{' || re[i + 4] != '}') return -1;
    for (int k = 0; k < 5; k++)
        if (re[i + 3] == UCAT[k].cat) return k;
    return -1;
}

static int has_ucat(const char *re) {
    size_t n = strlen(re);
    for (size_t i = 0; i < n; i++)
        if (ucat_at(re, i, n) >= 0) return 1;
    return 0;
}

static unsigned char collapse_cpt(uint32_t c) {
    if (c < 128) return (unsigned char)c;
    unsigned f = lgg__tok_cpt_flags(c);
    if (f & CPT_WHITESPACE) return 0x0B;
    switch (f & CPT_CATEGORIES) {
    case CPT_NUMBER: return 0xD1;
    case CPT_LETTER: return 0xD2;
    case CPT_PUNCT: return 0xD3;
    case CPT_MARK: return 0xD4;
    case CPT_SYMBOL: return 0xD5;
    default: return 0xD0;
    }
}

/* The expression as Oniguruma must see it: \p{X} collapsed (when asked),
 * and ECMAScript's `$` (the end of the input only) spelled \z. */
static char *rewrite(const char *re, int collapse) {
    size_t n = strlen(re);
    tok_buf b = {0};
    int inside = 0, fail = 0;
    for (size_t i = 0; i < n && !fail; i++) {
        char c = re[i];
        int k = collapse ? ucat_at(re, i, n) : -1;
        if (k >= 0) {
            char one = (char)UCAT[k].byte;
            fail |= !inside && lgg__tok_buf_put(&b, "[", 1);
            fail |= lgg__tok_buf_put(&b, &one, 1) | lgg__tok_buf_put(&b, UCAT[k].ascii, strlen(UCAT[k].ascii));
            fail |= !inside && lgg__tok_buf_put(&b, "]", 1);
            i += 4;
        } else if (c == '\\' && i + 1 < n) {
            fail |= lgg__tok_buf_put(&b, re + i, 2);
            i++;
        } else if (c == '[' && !inside) {
            inside = 1;
            fail |= lgg__tok_buf_put(&b, "[", 1);
        } else if (c == ']' && inside) {
            inside = 0;
            fail |= lgg__tok_buf_put(&b, "]", 1);
        } else if (c == '$' && !inside) {
            fail |= lgg__tok_buf_put(&b, "\\z", 2);
        } else {
            fail |= lgg__tok_buf_put(&b, &c, 1);
        }
    }
    if (fail || !b.p) {
        lgg__tok_buf_free(&b);
        return NULL;
    }
    return b.p;
}

static pthread_once_t onig_once = PTHREAD_ONCE_INIT;
static void onig_init_once(void) {
    OnigEncoding enc[2] = {ONIG_ENCODING_ASCII, ONIG_ENCODING_UTF8};
    onig_initialize(enc, 2);
}

static regset *regset_compile(const tok_splitter *s, lgg_error *err) {
    regset *r = calloc(1, sizeof *r + s->n * sizeof(regex_t *));
    if (!r) {
        lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory compiling the pre-tokenizer");
        return NULL;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (s->kind[i] == SPLIT_GPT2 || s->kind[i] == SPLIT_LLAMA3) continue;
        OnigErrorInfo einfo;
        const UChar *p = (const UChar *)s->pattern[i];
        int rc = onig_new(&r->re[i], p, p + strlen(s->pattern[i]), ONIG_OPTION_NONE,
                          s->kind[i] == SPLIT_COLLAPSED ? ONIG_ENCODING_ASCII : ONIG_ENCODING_UTF8,
                          ONIG_SYNTAX_PERL, &einfo);
        if (rc != ONIG_NORMAL) {
            UChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
            onig_error_code_to_str(msg, rc, &einfo);
            lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "pre-tokenizer expression %zu: %s", i, (char *)msg);
            r->re[i] = NULL;
            for (size_t j = 0; j < i; j++)
                if (r->re[j]) onig_free(r->re[j]);
            free(r);
            return NULL;
        }
    }
    return r;
}

static void regset_free(const tok_splitter *s, regset *r) {
    for (size_t i = 0; i < s->n; i++)
        if (r->re[i]) onig_free(r->re[i]);
    free(r);
}

lgg_status lgg__tok_splitter_new(const char *const *exprs, tok_splitter **out, lgg_error *err) {
    pthread_once(&onig_once, onig_init_once);
    tok_splitter *s = calloc(1, sizeof *s);
    size_t n = 0;
    while (exprs[n]) n++;
    if (!s || !(s->kind = calloc(n + 1, sizeof *s->kind)) || !(s->pattern = calloc(n + 1, sizeof *s->pattern))) {
        if (s) free(s->kind);
        free(s);
        return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory building the pre-tokenizer");
    }
    s->n = n;
    pthread_mutex_init(&s->lock, NULL);
    /* llama.cpp collapses the text when any expression of the list uses \p{X} */
    int collapse = 0;
    for (size_t i = 0; i < n; i++) collapse |= has_ucat(exprs[i]);
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(exprs[i], lgg__tok_re_gpt2)) s->kind[i] = SPLIT_GPT2;
        else if (!strcmp(exprs[i], lgg__tok_re_llama3) || !strcmp(exprs[i], LLAMA3_RE_I)) s->kind[i] = SPLIT_LLAMA3;
        else s->kind[i] = collapse && has_ucat(exprs[i]) ? SPLIT_COLLAPSED : SPLIT_WIDE;
        if (s->kind[i] == SPLIT_COLLAPSED || s->kind[i] == SPLIT_WIDE) {
            s->pattern[i] = rewrite(exprs[i], s->kind[i] == SPLIT_COLLAPSED);
            if (!s->pattern[i]) {
                lgg__tok_splitter_free(s);
                return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory building the pre-tokenizer");
            }
        }
    }
    /* compile once now so that a bad expression fails the open */
    regset *r = regset_compile(s, err);
    if (!r) {
        lgg__tok_splitter_free(s);
        return err ? err->code : LGG_ERR_INVALID;
    }
    s->pool = r;
    *out = s;
    return LGG_OK;
}

void lgg__tok_splitter_free(tok_splitter *s) {
    if (!s) return;
    while (s->pool) {
        regset *r = s->pool;
        s->pool = r->next;
        regset_free(s, r);
    }
    for (size_t i = 0; i < s->n; i++) free(s->pattern[i]);
    free(s->pattern);
    free(s->kind);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* ---- the split itself ---- */

typedef struct lens {
    size_t *p, n, cap;
} lens;

static int lens_push(lens *l, size_t v) {
    if (lgg__tok_grow((void **)&l->p, &l->cap, l->n + 1, sizeof *l->p)) return -1;
    l->p[l->n++] = v;
    return 0;
}

/* One segment [ini, end) of the code points, walked by a matcher. */
typedef struct seg {
    const uint32_t *cpts;
    size_t ini, end, prev;
    lens *out;
    int fail;
} seg;

#define OUT_OF_RANGE 0xFFFFFFFFu
static uint32_t cpt_at(const seg *g, size_t pos) {
    return pos >= g->ini && pos < g->end ? g->cpts[pos] : OUT_OF_RANGE;
}
static unsigned flags_at(const seg *g, size_t pos) {
    return pos >= g->ini && pos < g->end ? lgg__tok_cpt_flags(g->cpts[pos]) : 0;
}
/* end the current word at `end`; returns its length */
static size_t cut(seg *g, size_t end) {
    size_t len = end - g->prev;
    if (len > 0 && lens_push(g->out, len)) g->fail = 1;
    g->prev = end;
    return len;
}

#define IS(f, m) (((f) & (m)) != 0)
#define WLN (CPT_WHITESPACE | CPT_LETTER | CPT_NUMBER)

/* 's|'t|'re|'ve|'m|'ll|'d (case-folded when `fold`) at pos: its length or 0 */
static size_t contraction(const seg *g, size_t pos, int fold) {
    if (cpt_at(g, pos) != '\'' || pos + 1 >= g->end) return 0;
    uint32_t a = cpt_at(g, pos + 1);
    if (fold) a = lgg__tok_cpt_lower(a);
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    if (pos + 2 >= g->end) return 0;
    uint32_t b = cpt_at(g, pos + 2);
    if (fold) b = lgg__tok_cpt_lower(b);
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
    return 0;
}

/* whitespace at the end of a piece: \s+(?!\S) leaves the last one to the
 * next piece when something follows, else \s+ takes the run */
static void ws_run(seg *g, size_t *pos, size_t n_ws) {
    if (n_ws > 1 && cpt_at(g, *pos + n_ws) != OUT_OF_RANGE) {
        *pos += n_ws - 1;
        cut(g, *pos);
    } else if (n_ws > 0) {
        *pos += n_ws;
        cut(g, *pos);
    } else {
        cut(g, ++*pos);
    }
}

/* GPT-2: 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S), as llama.cpp's matcher */
static void split_gpt2(seg *g) {
    for (size_t pos = g->ini; pos < g->end;) {
        uint32_t c = cpt_at(g, pos);
        size_t k = contraction(g, pos, 0);
        if (k) {
            pos += cut(g, pos + k);
            continue;
        }
        unsigned f2 = c == ' ' ? flags_at(g, pos + 1) : flags_at(g, pos);
        unsigned want = IS(f2, CPT_LETTER) ? CPT_LETTER : IS(f2, CPT_NUMBER) ? CPT_NUMBER : 0;
        if (want) {
            pos += c == ' ';
            while (IS(flags_at(g, pos), want)) pos++;
            cut(g, pos);
            continue;
        }
        if (!IS(f2, WLN) && f2) {
            pos += c == ' ';
            for (unsigned f = f2; !IS(f, WLN) && f; f = flags_at(g, ++pos)) {}
            cut(g, pos);
            continue;
        }
        size_t n_ws = 0;
        while (IS(flags_at(g, pos + n_ws), CPT_WHITESPACE)) n_ws++;
        ws_run(g, &pos, n_ws);
    }
}

/* Llama 3: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
 * \s*[\r\n]+|\s+(?!\S)|\s+, as llama.cpp's matcher */
static void split_llama3(seg *g) {
    for (size_t pos = g->ini; pos < g->end;) {
        uint32_t c = cpt_at(g, pos);
        unsigned f = flags_at(g, pos);
        size_t k = contraction(g, pos, 1);
        if (k) {
            pos += cut(g, pos + k);
            continue;
        }
        if (!(c == '\r' || c == '\n' || IS(f, CPT_NUMBER)) &&
            (IS(f, CPT_LETTER) || IS(flags_at(g, pos + 1), CPT_LETTER))) {
            pos++;
            while (IS(flags_at(g, pos), CPT_LETTER)) pos++;
            cut(g, pos);
            continue;
        }
        if (IS(f, CPT_NUMBER)) {
            size_t ini = pos;
            while (IS(flags_at(g, pos), CPT_NUMBER)) {
                if (++pos - ini >= 3) {
                    cut(g, pos);
                    ini = pos;
                }
            }
            cut(g, pos);
            continue;
        }
        unsigned f2 = c == ' ' ? flags_at(g, pos + 1) : f;
        if (!IS(f2, WLN) && f) { /* f, not f2: as the reference tests it */
            pos += c == ' ';
            while (!IS(f2, WLN) && f2) f2 = flags_at(g, ++pos);
            for (uint32_t c2 = cpt_at(g, pos); c2 == '\r' || c2 == '\n'; c2 = cpt_at(g, ++pos)) {}
            cut(g, pos);
            continue;
        }
        size_t n_ws = 0, last_nl = 0;
        while (IS(flags_at(g, pos + n_ws), CPT_WHITESPACE)) {
            uint32_t c2 = cpt_at(g, pos + n_ws);
            if (c2 == '\r' || c2 == '\n') last_nl = pos + n_ws + 1;
            n_ws++;
        }
        if (last_nl > 0) {
            pos = last_nl;
            cut(g, pos);
            continue;
        }
        ws_run(g, &pos, n_ws);
    }
}

/* the code point whose UTF-8 starts at byte b (matches end on boundaries) */
static size_t cpt_index(const size_t *off, size_t lo, size_t hi, size_t b) {
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (off[mid] < b) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Oniguruma over one segment: matches and the gaps between them become
 * pieces, as std::regex_iterator walks it in llama.cpp.  `text` holds one
 * byte per code point (collapsed) or UTF-8 with off[i] the byte offset of
 * code point i (wide). */
static int split_onig(regex_t *re, const unsigned char *text, const size_t *off, size_t ini, size_t end, lens *out,
                      OnigRegion *region) {
    const unsigned char *s = text + (off ? off[ini] : ini), *e = text + (off ? off[end] : end);
    size_t at = 0, done = 0; /* byte offsets in the segment */
    size_t n_cpts = end - ini;
    /* byte offset -> code point count in the segment */
#define CPTS(b) (off ? cpt_index(off, ini, end, (b) + off[ini]) - ini : (b))
    while (s + at <= e) {
        onig_region_clear(region);
        int r = onig_search(re, s, e, s + at, e, region, ONIG_OPTION_NONE);
        if (r == ONIG_MISMATCH) break;
        if (r < 0) return -1;
        size_t mb = (size_t)region->beg[0], me = (size_t)region->end[0];
        size_t cb = CPTS(mb), ce = CPTS(me), cd = CPTS(done);
        if (cb > cd && lens_push(out, cb - cd)) return -1;
        if (ce > cb && lens_push(out, ce - cb)) return -1;
        done = me;
        if (me == mb) { /* an empty match: step over one code point */
            if (me >= (size_t)(e - s)) break;
            at = off ? off[ini + CPTS(me) + 1] - off[ini] : me + 1;
        } else {
            at = me;
        }
    }
    size_t cd = CPTS(done);
    if (cd < n_cpts && lens_push(out, n_cpts - cd)) return -1;
#undef CPTS
    return 0;
}

static regset *acquire(tok_splitter *sp) {
    pthread_mutex_lock(&sp->lock);
    regset *r = sp->pool;
    if (r) sp->pool = r->next;
    pthread_mutex_unlock(&sp->lock);
    return r ? r : regset_compile(sp, NULL);
}

static void release(tok_splitter *sp, regset *r) {
    pthread_mutex_lock(&sp->lock);
    r->next = sp->pool;
    sp->pool = r;
    pthread_mutex_unlock(&sp->lock);
}

int lgg__tok_split(const tok_splitter *csp, const uint32_t *cpts, size_t n, size_t **out_lens, size_t *n_lens) {
    tok_splitter *sp = (tok_splitter *)csp; /* the pool is the one mutable part, behind its lock */
    lens cur = {0}, next = {0};
    unsigned char *text = NULL; /* collapsed, or UTF-8 of the wide text */
    size_t *off = NULL;
    int kind_text = -1, rc = -1;
    regset *rs = NULL;
    OnigRegion *region = onig_region_new();
    if (!region || (n && lens_push(&cur, n))) goto done;
    for (size_t k = 0; k < sp->n; k++) {
        int kind = sp->kind[k];
        if ((kind == SPLIT_COLLAPSED || kind == SPLIT_WIDE) && kind != kind_text) {
            free(text);
            free(off);
            off = NULL;
            if (kind == SPLIT_COLLAPSED) {
                if (!(text = malloc(n + 1))) goto done;
                for (size_t i = 0; i < n; i++) text[i] = collapse_cpt(cpts[i]);
            } else {
                tok_buf b = {0};
                if (!(off = malloc((n + 1) * sizeof *off))) goto done;
                for (size_t i = 0; i < n; i++) {
                    uint32_t c = cpts[i];
                    if (c > 0x7F && (lgg__tok_cpt_flags(c) & CPT_WHITESPACE)) c = 0x0B;
                    off[i] = b.n;
                    /* above U+10FFFF cannot be spelled; the encoder refuses it later */
                    if (lgg__tok_utf8_put(&b, c > 0x10FFFF ? 0xFFFD : c)) {
                        lgg__tok_buf_free(&b);
                        goto done;
                    }
                }
                off[n] = b.n;
                text = (unsigned char *)(b.p ? b.p : calloc(1, 1));
                if (!text) goto done;
            }
            kind_text = kind;
        }
        if (!rs && (kind == SPLIT_COLLAPSED || kind == SPLIT_WIDE) && !(rs = acquire(sp))) goto done;
        next.n = 0;
        size_t start = 0;
        for (size_t i = 0; i < cur.n; i++) {
            size_t len = cur.p[i];
            if (kind == SPLIT_GPT2 || kind == SPLIT_LLAMA3) {
                seg g = {cpts, start, start + len, start, &next, 0};
                if (kind == SPLIT_GPT2) split_gpt2(&g);
                else split_llama3(&g);
                if (g.fail) goto done;
            } else if (split_onig(rs->re[k], text, off, start, start + len, &next, region)) {
                goto done;
            }
            start += len;
        }
        lens t = cur;
        cur = next;
        next = t;
    }
    *out_lens = cur.p;
    *n_lens = cur.n;
    cur.p = NULL;
    rc = 0;
done:
    if (rs) release(sp, rs);
    if (region) onig_region_free(region, 1);
    free(cur.p);
    free(next.p);
    free(text);
    free(off);
    return rc;
}
