/* tok_stream.c -- tokenizing a text of any length with bounded memory
 * (lgg_tokenize_stream_*): the text is buffered, cut at points where the
 * whole-text call provably gives the same ids on both sides, and each piece
 * before a cut is tokenized and handed to the sink.
 *
 * A cut at byte p is safe when both hold:
 *  1. no special token's text occurs touching or crossing a window around p
 *     (so splitting the text at the special tokens, longest first with
 *     lstrip/rstrip, gives the same fragments on both sides as on the whole:
 *     every pass is a left-to-right scan that no match crosses p in);
 *  2. the vocabulary's algorithm on the text fragment around p cannot join
 *     across p:
 *     - BPE: every pre-tokenizer of llama.cpp b4747 ends a word at p and
 *       decides nothing before p by looking past it, for two shapes of text:
 *       "X\nY" (X a non-space ASCII character, Y an ASCII letter or digit,
 *       p before Y) and "a b" (ASCII letters, p before the space).  Why, per
 *       expression family: the letter, digit and punctuation runs stop at the
 *       newline or the space either way; `[\r\n]*` after punctuation takes
 *       the newline and stops at Y as it stops at the end; `\s*[\r\n]+` takes
 *       the lone newline before `\s+(?!\S)` is tried (and GPT-2's matcher
 *       makes a one-character run a word of its own whether something
 *       follows or not, which is why the run must be exactly one newline);
 *       the optional prefixes (` ?`, `[^\r\n\p{L}\p{N}]?`, `\s?`) attach the
 *       space to the word after it, never to the one before; contractions
 *       need a letter after the apostrophe; the `[\r\n]` expressions of
 *       deepseek and chameleon's `[\t\n]` cut at p themselves; `\s+$` sees
 *       its `$` only at fragment ends those make; expressions that cannot
 *       match there (digits, CJK, sentinels) leave a gap the next expression
 *       splits the same way.  These are the spots between lines and words of
 *       ordinary text.  The names only llama.cpp master knows get no cut
 *       (exaone-moe joins words across single spaces, AFMoE's digit groups
 *       join the text before a run): held whole, as UGM.
 *     - SPM: no merge crosses p when no token of the vocabulary is a
 *       substring of the escaped text crossing p (checked for every
 *       substring up to the longest token), so both sides merge as they
 *       would in the whole; p is before a space whose three preceding bytes
 *       are ASCII, so p starts a symbol however the bytes before it group.
 *     - WPM: after an ASCII whitespace byte, where the reference ends a word.
 *     - RWKV: no token is a substring crossing p, so the greedy match lands on
 *       p and takes the same tokens on both sides.
 *     - UGM and tokenizer.json tokenizers: no cut (the Viterbi search's
 *       float sums and the normalizers' state run over the whole text); the
 *       text is held whole, as lgg_tokenize holds it.
 * Where a text has no safe point (one line of punctuation, say) the buffer
 * grows until one comes: memory is bounded by the longest stretch without
 * one, not by the text. */
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

#define DEFAULT_CHUNK ((size_t)1 << 20)

struct lgg_tokenize_stream {
    const lgg_tokenizer *t;
    unsigned flags;
    size_t chunk, margin, max_special;
    lgg_token_sink sink;
    void *user;
    tok_buf buf;      /* text not tokenized yet */
    size_t consumed;  /* the text's offset of buf.p[0] */
    size_t scan_low;  /* no safe cut at or below this offset of buf (already looked) */
    int started;      /* a piece has been tokenized (BOS given, the text continues) */
    int can_cut;      /* the vocabulary type has safe cuts */
    int finished;
    lgg_status failed;
    tok_ids ids;
};

static int active_special(const lgg_tokenize_stream *s, int32_t id) {
    return (s->flags & LGG_TOKENIZE_PARSE_SPECIAL) || !(s->t->tok[id].attr & (TOK_ATTR_CONTROL | TOK_ATTR_UNKNOWN));
}

/* 1: no special token's text occurs touching [p - r, p + r] */
static int special_clear(const lgg_tokenize_stream *s, const char *b, size_t n, size_t p, size_t r) {
    const lgg_tokenizer *t = s->t;
    for (int32_t k = 0; k < t->n_special; k++) {
        int32_t id = t->special[k];
        size_t len = t->tok[id].len;
        if (!len || !active_special(s, id)) continue;
        size_t lo = p > r + len ? p - r - len : 0, hi = p + r + len < n ? p + r + len : n;
        if (hi - lo >= len && memmem(b + lo, hi - lo, t->tok[id].text, len)) return 0;
    }
    return 1;
}

static int ascii_ws(uint8_t c) {
    return c < 0x80 && (lgg__tok_cpt_flags(c) & CPT_WHITESPACE);
}
static int ascii_letter(uint8_t c) {
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}
static int ascii_digit(uint8_t c) {
    return c >= '0' && c <= '9';
}

/* SPM: a token of the vocabulary among the substrings of the escaped text
 * b[p - r, p + r) that cross p (1 also when out of memory: no cut then) */
static int spm_crossed(const lgg_tokenizer *t, const char *b, size_t n, size_t p, size_t r) {
    size_t lo = p - r, hi = p + r < n ? p + r : n, w = 0, at = 0;
    char *win = malloc(3 * (hi - lo) + 1);
    if (!win) return 1;
    for (size_t i = lo; i < hi; i++) {
        if (i == p) at = w;
        if (b[i] == ' ') memcpy(win + w, "\xe2\x96\x81", 3), w += 3;
        else win[w++] = b[i];
    }
    size_t maxlen = (size_t)t->max_token_len;
    int crossed = 0;
    for (size_t i = at > maxlen ? at - maxlen : 0; i < at && !crossed; i++)
        for (size_t j = at + 1; j <= w && j - i <= maxlen && !crossed; j++)
            crossed = lgg__tok_map_get(&t->text_to_id, win + i, j - i) >= 0;
    free(win);
    return crossed;
}

/* RWKV: a token (its unescaped bytes) among the substrings of b crossing p */
static int rwkv_crossed(const lgg_tokenizer *t, const char *b, size_t n, size_t p) {
    size_t maxlen = (size_t)t->max_token_len;
    for (size_t i = p > maxlen ? p - maxlen : 0; i < p; i++) {
        uint32_t node = 0;
        for (size_t j = i; j < n; j++) {
            node = lgg__tok_trie_next(&t->rwkv, node, (uint8_t)b[j]);
            if (!node) break;
            if (j + 1 > p && t->rwkv.nodes[node].value >= 0) return 1;
        }
    }
    return 0;
}

/* 1 when the text may be cut before b[p] (p + margin <= n, so every check
 * sees all it needs) */
static int safe_cut(const lgg_tokenize_stream *s, const char *b, size_t n, size_t p) {
    const lgg_tokenizer *t = s->t;
    const uint8_t *u = (const uint8_t *)b;
    size_t r = (size_t)t->max_token_len + 1;
    switch (t->type) {
    case LGG_VOCAB_BPE:
        if (p < 2 || t->pre_master) return 0;
        if (u[p - 1] == '\n' && (ascii_letter(u[p]) || ascii_digit(u[p])) && u[p - 2] < 0x80 && !ascii_ws(u[p - 2]))
            return special_clear(s, b, n, p, 2);
        if (u[p] == ' ' && ascii_letter(u[p - 1]) && ascii_letter(u[p + 1])) return special_clear(s, b, n, p, 2);
        return 0;
    case LGG_VOCAB_SPM:
        if (p < r + 4 || u[p] != ' ' || u[p - 1] == ' ' || u[p - 1] >= 0x80 || u[p - 2] >= 0x80 || u[p - 3] >= 0x80)
            return 0;
        return special_clear(s, b, n, p, r + 1) && !spm_crossed(t, b, n, p, r);
    case LGG_VOCAB_WPM: return p > 0 && ascii_ws(u[p - 1]) && special_clear(s, b, n, p, 1);
    case LGG_VOCAB_RWKV:
        if (p < 1 || !(u[p] == ' ' || u[p - 1] == '\n')) return 0;
        return special_clear(s, b, n, p, 1) && !rwkv_crossed(t, b, n, p);
    default: return 0;
    }
}

static lgg_status dead(lgg_tokenize_stream *s, const char *fn, lgg_error *err) {
    if (s->finished) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%s: the stream is finished", fn);
    return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "%s: the stream failed before (%s)", fn,
                         lgg_status_name(s->failed));
}

static lgg_status fail(lgg_tokenize_stream *s, lgg_status st) {
    s->failed = st;
    return st;
}

/* tokenize buf[0, p) and hand its ids to the sink */
static lgg_status emit(lgg_tokenize_stream *s, size_t p, int last, lgg_error *err) {
    const lgg_tokenizer *t = s->t;
    s->ids.n = 0;
    int rc;
    if (t->hf) {
        rc = lgg__tok_hf_encode(t, s->buf.p, p, (s->flags & LGG_TOKENIZE_ADD_SPECIAL) != 0,
                                (s->flags & LGG_TOKENIZE_PARSE_SPECIAL) != 0, &s->ids, err);
    } else {
        rc = lgg__tok_encode_piece(t, s->buf.p, p, s->consumed, s->flags, !s->started, last, s->started, &s->ids, err);
    }
    if (rc) return fail(s, (lgg_status)-rc);
    s->started = 1;
    if (s->ids.n && s->sink(s->user, s->ids.p, s->ids.n)) {
        lgg_error_set(err, LGG_ERR_IO, LGG_NO_OFFSET, "the token sink stopped the stream");
        return fail(s, LGG_ERR_IO);
    }
    if (p) memmove(s->buf.p, s->buf.p + p, s->buf.n - p); /* (an empty text has no buffer) */
    s->buf.n -= p;
    s->consumed += p;
    return LGG_OK;
}

/* tokenize what lies before the last safe cut, while the buffer is full */
static lgg_status drain(lgg_tokenize_stream *s, lgg_error *err) {
    while (s->can_cut && s->buf.n >= s->chunk + s->margin) {
        size_t target = s->buf.n - s->margin, p = target;
        while (p > s->scan_low && !safe_cut(s, s->buf.p, s->buf.n, p)) p--;
        if (p <= s->scan_low) { /* none yet: wait for more text */
            s->scan_low = target;
            return LGG_OK;
        }
        s->scan_low = target - p;
        lgg_status st = emit(s, p, 0, err);
        if (st) return st;
    }
    return LGG_OK;
}

lgg_status lgg_tokenize_stream_new(const lgg_tokenizer *t, unsigned flags, size_t chunk, lgg_token_sink sink,
                                   void *user, lgg_tokenize_stream **out, lgg_error *err) {
    if (!t || !sink || !out) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenize_stream_new: NULL argument");
    *out = NULL;
    lgg_tokenize_stream *s = calloc(1, sizeof *s);
    if (!s) return lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    s->t = t, s->flags = flags, s->sink = sink, s->user = user;
    s->chunk = chunk ? chunk : DEFAULT_CHUNK;
    for (int32_t k = 0; k < t->n_special; k++) {
        int32_t id = t->special[k];
        if (active_special(s, id) && t->tok[id].len > s->max_special) s->max_special = t->tok[id].len;
    }
    /* what a check at p may read past p: a special token's text and the
     * window around p, with room to spare */
    s->margin = s->max_special + 2 * ((size_t)t->max_token_len + 2) + 16;
    s->can_cut = !t->hf && t->type != LGG_VOCAB_UGM;
    *out = s;
    return LGG_OK;
}

lgg_status lgg_tokenize_stream_feed(lgg_tokenize_stream *s, const char *text, size_t len, lgg_error *err) {
    if (!s || (!text && len)) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenize_stream_feed: NULL argument");
    if (s->failed || s->finished) return dead(s, "lgg_tokenize_stream_feed", err);
    while (len) {
        /* at most a chunk at a time, so a large call does not grow the buffer */
        size_t take = len < s->chunk ? len : s->chunk;
        if (lgg__tok_buf_put(&s->buf, text, take)) {
            lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory buffering the text");
            return fail(s, LGG_ERR_NOMEM);
        }
        text += take, len -= take;
        lgg_status st = drain(s, err);
        if (st) return st;
    }
    return LGG_OK;
}

lgg_status lgg_tokenize_stream_finish(lgg_tokenize_stream *s, lgg_error *err) {
    if (!s) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenize_stream_finish: NULL argument");
    if (s->failed || s->finished) return dead(s, "lgg_tokenize_stream_finish", err);
    lgg_status st = emit(s, s->buf.n, 1, err);
    s->finished = 1;
    return st;
}

void lgg_tokenize_stream_free(lgg_tokenize_stream *s) {
    if (!s) return;
    lgg__tok_buf_free(&s->buf);
    lgg__tok_ids_free(&s->ids);
    free(s);
}
