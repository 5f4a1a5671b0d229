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
 * ECMAScript), on the same collapsed text.
 *
 * For the names only llama.cpp master knows, master's engine: it also
 * matches Qwen2's and Qwen3.5's expressions, Kimi K2's (spelled \p{Han}+),
 * AFMoE's and Tiny Aya's digit groups and [^\n]+|[\n]+ by hand, and collapses
 * \p{Lu} \p{Ll} \p{Lt} \p{Lm} \p{Lo} (each as the whole letter category) and
 * counts ASCII `~` in \p{S}.  Every hand-written matcher only moves forward
 * and looks at most three code points ahead: linear in the text. */
#include <oniguruma.h>
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

/* the hand-written matchers first, then the two Oniguruma kinds */
enum { SPLIT_GPT2, SPLIT_LLAMA3, SPLIT_QWEN2, SPLIT_QWEN35, SPLIT_KIMI, SPLIT_DIGITS, SPLIT_THREES, SPLIT_NEWLINES, SPLIT_COLLAPSED, SPLIT_WIDE };
#define HAND_WRITTEN(kind) ((kind) < SPLIT_COLLAPSED)

/* Compiled expressions are kept in a pool: Oniguruma's regex_t is not
 * documented as safe to search from two threads at once, so each call takes
 * a set of its own (compiled when the pool is empty) and gives it back. */
typedef struct regset {
    struct regset *next;
    regex_t *re[];
} regset;

struct tok_splitter {
    size_t n;
    int master; /* llama.cpp master's engine (tok_split.c's header) */
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

/* the categories llama.cpp collapses, their byte and their ASCII members;
 * master also knows the letter subcategories (each standing for every
 * letter, A-Za-z included) and counts `~` among the symbols */
typedef struct ucat {
    const char *name; /* what follows \p{ */
    unsigned char byte;
    const char *ascii;
} ucat;
static const ucat UCAT_B4747[] = {
    {"N}", 0xD1, "0-9"},
    {"L}", 0xD2, "A-Za-z"},
    {"P}", 0xD3, "!-#%-*,-/:-;?-@\\[-\\]_\\{\\}"},
    {"M}", 0xD4, ""},
    {"S}", 0xD5, "\\$\\+<->^`\\|"},
    {NULL, 0, NULL},
};
static const ucat UCAT_MASTER[] = {
    {"N}", 0xD1, "0-9"},
    {"L}", 0xD2, "A-Za-z"},
    {"P}", 0xD3, "!-#%-*,-/:-;?-@\\[-\\]_\\{\\}"},
    {"M}", 0xD4, ""},
    {"S}", 0xD5, "\\$\\+<->^`\\|\\~"},
    {"Lu}", 0xD2, "A-Za-z"},
    {"Ll}", 0xD2, "A-Za-z"},
    {"Lt}", 0xD2, "A-Za-z"},
    {"Lm}", 0xD2, "A-Za-z"},
    {"Lo}", 0xD2, "A-Za-z"},
    {NULL, 0, NULL},
};

/* the category spelled at re[i] (\p{X} or, for master, \p{Xy}): its row, or NULL */
static const ucat *ucat_at(const ucat *tab, const char *re, size_t i, size_t n) {
    if (i + 4 >= n || re[i] != '\\' || re[i + 1] != 'p' || re[i + 2] != '{') return NULL;
    for (const ucat *u = tab; u->name; u++) {
        size_t k = strlen(u->name);
        if (i + 3 + k <= n && !memcmp(re + i + 3, u->name, k)) return u;
    }
    return NULL;
}

static int has_ucat(const ucat *tab, const char *re) {
    size_t n = strlen(re);
    for (size_t i = 0; i < n; i++)
        if (ucat_at(tab, re, i, n)) return 1;
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
static char *rewrite(const char *re, const ucat *tab) {
    size_t n = strlen(re);
    tok_buf b = {0};
    int inside = 0, fail = 0;
    for (size_t i = 0; i < n && !fail; i++) {
        char c = re[i];
        const ucat *u = tab ? ucat_at(tab, re, i, n) : NULL;
        if (u) {
            char one = (char)u->byte;
            fail |= !inside && lgg__tok_buf_put(&b, "[", 1);
            fail |= lgg__tok_buf_put(&b, &one, 1) | lgg__tok_buf_put(&b, u->ascii, strlen(u->ascii));
            fail |= !inside && lgg__tok_buf_put(&b, "]", 1);
            i += 2 + strlen(u->name);
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
        if (HAND_WRITTEN(s->kind[i])) continue;
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

/* the expressions master matches by hand (besides GPT-2's and Llama 3's) */
static const struct {
    const char *re;
    int kind;
} MASTER_HAND[] = {
    {"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+"
     "[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
     SPLIT_QWEN2},
    {"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?[\\p{L}\\p{M}]+|\\p{N}| ?[^\\s\\p{L}"
     "\\p{M}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
     SPLIT_QWEN35},
    {"\\p{Han}+", SPLIT_KIMI},
    {"\\p{AFMoE_digits}", SPLIT_DIGITS},
    {"\\d{1,3}(?=(?:\\d{3})*\\b)", SPLIT_DIGITS},
    {"[^\\n]+|[\\n]+", SPLIT_NEWLINES},
    /* master runs this one through std::wregex (quadratic on a digit run): matched here by hand */
    {"(?=(\\d{3})+(?!\\d))", SPLIT_THREES},
};

static int expr_kind(const char *re, int master, int collapse, const ucat *tab) {
    if (!strcmp(re, lgg__tok_re_gpt2)) return SPLIT_GPT2;
    if (!strcmp(re, lgg__tok_re_llama3) || !strcmp(re, LLAMA3_RE_I)) return SPLIT_LLAMA3;
    for (size_t i = 0; master && i < sizeof MASTER_HAND / sizeof *MASTER_HAND; i++)
        if (!strcmp(re, MASTER_HAND[i].re)) return MASTER_HAND[i].kind;
    return collapse && has_ucat(tab, re) ? SPLIT_COLLAPSED : SPLIT_WIDE;
}

lgg_status lgg__tok_splitter_new(const char *const *exprs, int master, tok_splitter **out, lgg_error *err) {
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
    s->master = master;
    pthread_mutex_init(&s->lock, NULL);
    /* llama.cpp collapses the text when any expression of the list uses \p{X} */
    const ucat *tab = master ? UCAT_MASTER : UCAT_B4747;
    int collapse = 0;
    for (size_t i = 0; i < n; i++) collapse |= has_ucat(tab, exprs[i]);
    for (size_t i = 0; i < n; i++) {
        s->kind[i] = expr_kind(exprs[i], master, collapse, tab);
        if (!HAND_WRITTEN(s->kind[i])) {
            s->pattern[i] = rewrite(exprs[i], s->kind[i] == SPLIT_COLLAPSED ? tab : NULL);
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

/* the whitespace alternatives \s*[\r\n]+|\s+(?!\S)|\s+ at pos */
static void ws_tail(seg *g, size_t *pos) {
    size_t n_ws = 0, last_nl = 0;
    while (IS(flags_at(g, *pos + n_ws), CPT_WHITESPACE)) {
        uint32_t c2 = cpt_at(g, *pos + n_ws);
        if (c2 == '\r' || c2 == '\n') last_nl = *pos + n_ws + 1;
        n_ws++;
    }
    if (last_nl > 0) {
        *pos = last_nl;
        cut(g, *pos);
        return;
    }
    ws_run(g, pos, n_ws);
}

/* \p{N}{1,max}: the digit run at pos cut every max code points */
static void digit_groups(seg *g, size_t *pos, size_t max) {
    size_t ini = *pos;
    while (IS(flags_at(g, *pos), CPT_NUMBER)) {
        if (++*pos - ini >= max) {
            cut(g, *pos);
            ini = *pos;
        }
    }
    cut(g, *pos);
}

/* Llama 3: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
 * \s*[\r\n]+|\s+(?!\S)|\s+, as llama.cpp's matcher; master's Qwen2 matcher is
 * the same with \p{N} (max_digits 1), its Qwen3.5 one also puts \p{M} with
 * the letters (letter = CPT_LETTER | CPT_MARK) */
static void split_llama3(seg *g, size_t max_digits, unsigned letter) {
    for (size_t pos = g->ini; pos < g->end;) {
        uint32_t c = cpt_at(g, pos);
        unsigned f = flags_at(g, pos);
        size_t k = contraction(g, pos, 1);
        if (k) {
            pos += cut(g, pos + k);
            continue;
        }
        if (!(c == '\r' || c == '\n' || IS(f, CPT_NUMBER)) && (IS(f, letter) || IS(flags_at(g, pos + 1), letter))) {
            pos++;
            while (IS(flags_at(g, pos), letter)) pos++;
            cut(g, pos);
            continue;
        }
        if (IS(f, CPT_NUMBER)) {
            digit_groups(g, &pos, max_digits);
            continue;
        }
        unsigned f2 = c == ' ' ? flags_at(g, pos + 1) : f;
        if (!IS(f2, WLN | letter) && f) { /* f, not f2: as the reference tests it */
            pos += c == ' ';
            while (!IS(f2, WLN | letter) && f2) f2 = flags_at(g, ++pos);
            for (uint32_t c2 = cpt_at(g, pos); c2 == '\r' || c2 == '\n'; c2 = cpt_at(g, ++pos)) {}
            cut(g, pos);
            continue;
        }
        ws_tail(g, &pos);
    }
}

/* master's \p{Han}: the CJK ideograph blocks it lists */
static int is_han(uint32_t c) {
    static const uint32_t R[][2] = {{0x4E00, 0x9FFF},   {0x3400, 0x4DBF},   {0x20000, 0x2A6DF}, {0x2A700, 0x2B73F},
                                    {0x2B740, 0x2B81F}, {0x2B820, 0x2CEAF}, {0x2CEB0, 0x2EBEF}, {0xF900, 0xFAFF},
                                    {0x2F800, 0x2FA1F}};
    for (size_t i = 0; i < sizeof R / sizeof *R; i++)
        if (c >= R[i][0] && c <= R[i][1]) return 1;
    return 0;
}

static int letter_not_han(const seg *g, size_t pos) {
    return IS(flags_at(g, pos), CPT_LETTER) && !is_han(cpt_at(g, pos));
}

/* Kimi K2 (master): [\p{Han}]+ | letter words without Han, an optional
 * non-letter non-digit before them and an optional contraction after |
 * \p{N}{1,3} |  ?[^\s\p{L}\p{N}]+[\r\n]* | the whitespace alternatives;
 * master's matcher tests the punctuation run on the next code point's
 * flags, unlike Llama 3's */
static void split_kimi(seg *g) {
    for (size_t pos = g->ini; pos < g->end;) {
        uint32_t c = cpt_at(g, pos);
        unsigned f = flags_at(g, pos);
        if (is_han(c)) {
            while (is_han(cpt_at(g, pos))) pos++;
            cut(g, pos);
            continue;
        }
        int lead = !(c == '\r' || c == '\n' || IS(f, CPT_LETTER | CPT_NUMBER));
        if (letter_not_han(g, pos) || (lead && letter_not_han(g, pos + 1))) {
            pos += lead;
            while (letter_not_han(g, pos)) pos++;
            if (cpt_at(g, pos) == '\'') pos += contraction(g, pos, 1);
            cut(g, pos);
            continue;
        }
        if (IS(f, CPT_NUMBER)) {
            digit_groups(g, &pos, 3);
            continue;
        }
        unsigned f2 = c == ' ' ? flags_at(g, pos + 1) : f;
        if (!IS(f2, WLN) && f2) {
            pos += c == ' ';
            while (!IS(f2, WLN) && f2) f2 = flags_at(g, ++pos);
            for (uint32_t c2 = cpt_at(g, pos); c2 == '\r' || c2 == '\n'; c2 = cpt_at(g, ++pos)) {}
            cut(g, pos);
            continue;
        }
        ws_tail(g, &pos);
    }
}

/* AFMoE's digits (master; also Tiny Aya's \d{1,3}(?=(?:\d{3})*\b)): a digit
 * run cut in threes from its end.  Master's matcher does not end the piece
 * before the run, so the text since the last cut joins the run's first
 * group ("ab1234" gives "ab1", "234"); what follows the last run is one piece. */
static void split_digits(seg *g) {
    for (size_t pos = g->ini; pos < g->end;) {
        if (!IS(flags_at(g, pos), CPT_NUMBER)) {
            pos++;
            continue;
        }
        size_t ini = pos;
        while (IS(flags_at(g, pos), CPT_NUMBER)) pos++;
        size_t at = ini + (pos - ini) % 3;
        if (at > ini) cut(g, at);
        for (; at < pos; at += 3) cut(g, at + 3);
    }
    cut(g, g->end);
}

/* SuperBPE's (?=(\d{3})+(?!\d)) as std::wregex walks it: an empty match
 * wherever the ASCII digits from there to the end of their run are a
 * positive multiple of three, and each match cuts the piece there */
static void split_threes(seg *g) {
    for (size_t pos = g->ini; pos < g->end;) {
        uint32_t c = g->cpts[pos];
        if (c < '0' || c > '9') {
            pos++;
            continue;
        }
        size_t ini = pos;
        while (pos < g->end && g->cpts[pos] >= '0' && g->cpts[pos] <= '9') pos++;
        for (size_t at = ini + (pos - ini) % 3; at + 3 <= pos; at += 3) cut(g, at);
    }
    cut(g, g->end);
}

/* [^\n]+|[\n]+ (master): runs of newlines and of everything else */
static void split_newlines(seg *g) {
    for (size_t pos = g->ini; pos < g->end;) {
        int nl = g->cpts[pos] == '\n';
        while (pos < g->end && (g->cpts[pos] == '\n') == nl) pos++;
        cut(g, pos);
    }
}

static void split_hand(seg *g, int kind) {
    switch (kind) {
    case SPLIT_GPT2: split_gpt2(g); break;
    case SPLIT_LLAMA3: split_llama3(g, 3, CPT_LETTER); break;
    case SPLIT_QWEN2: split_llama3(g, 1, CPT_LETTER); break;
    case SPLIT_QWEN35: split_llama3(g, 1, CPT_LETTER | CPT_MARK); break;
    case SPLIT_KIMI: split_kimi(g); break;
    case SPLIT_DIGITS: split_digits(g); break;
    case SPLIT_THREES: split_threes(g); break;
    default: split_newlines(g); break;
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
            if (HAND_WRITTEN(kind)) {
                seg g = {cpts, start, start + len, start, &next, 0};
                split_hand(&g, kind);
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
