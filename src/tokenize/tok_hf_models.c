/* tok_hf_models.c -- the tokenizers library's WordPiece and Unigram models,
 * its Precompiled normalizer (sentencepiece's precompiled_charsmap, read as
 * the spm_precompiled crate reads it) and the WordPiece decoder's cleanup,
 * for tok_hf.c.  Each follows the library's code step by step, including
 * its odd corners (Precompiled replaces a whole grapheme by the value of
 * its shortest matching prefix), because the ids must be the library's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "tokenize/tok.h"

/* ---- WordPiece: greedy longest match from the left, "##" before each
 * piece after the first; a word with a piece that matches nothing, or longer
 * than max_chars characters, is one unk ---- */
int lgg__tok_wordpiece(const tok_wordpiece *w, const char *s, size_t n, tok_ids *out) {
    size_t chars = 0, mark = 0;
    for (size_t p = 0; p < n; p++) chars += ((uint8_t)s[p] & 0xC0) != 0x80;
    if (chars > w->max_chars) return lgg__tok_ids_push(out, w->unk);
    char *buf = malloc(w->prefix_n + n + 1);
    if (!buf) return -1;
    memcpy(buf, w->prefix, w->prefix_n);
    mark = out->n;
    int rc = 0;
    for (size_t start = 0; start < n && !rc;) {
        /* no key is longer than the longest token: the same answer, without
         * trying every end of a long word (its characters are whole) */
        size_t end = n - start > w->max_len ? start + w->max_len : n;
        while (end > start && end < n && ((uint8_t)s[end] & 0xC0) == 0x80) end--;
        int32_t id = -1;
        while (start < end) {
            const char *key = s + start;
            size_t kn = end - start;
            if (start > 0) memcpy(buf + w->prefix_n, s + start, kn), key = buf, kn += w->prefix_n;
            if ((id = lgg__tok_map_get(w->vocab, key, kn)) >= 0) break;
            do end--; /* the last character off */
            while (end > start && ((uint8_t)s[end] & 0xC0) == 0x80);
        }
        if (id < 0) { /* the whole word is unknown */
            out->n = mark;
            rc = lgg__tok_ids_push(out, w->unk);
            break;
        }
        rc = lgg__tok_ids_push(out, id);
        start = end;
    }
    free(buf);
    return rc;
}

/* ---- Unigram: the library's encode_optimized (sentencepiece's Viterbi
 * over the pieces that start at each character, an unknown character
 * scored min_score - 10), adjacent unknowns fused, then each piece's id,
 * its bytes' <0xXX> tokens (byte_fallback) or unk ---- */
static int unigram_piece(const tok_unigram *u, const char *s, size_t n, tok_ids *out) {
    int32_t id = lgg__tok_map_get(u->vocab, s, n);
    if (id >= 0) return lgg__tok_ids_push(out, id);
    if (u->byte_fallback) {
        size_t mark = out->n;
        int ok = 1;
        for (size_t i = 0; i < n && ok; i++) {
            char b[8];
            snprintf(b, sizeof b, "<0x%02X>", (unsigned)(uint8_t)s[i]);
            int32_t bid = lgg__tok_map_get(u->vocab, b, 6);
            ok = bid >= 0;
            if (ok && lgg__tok_ids_push(out, bid)) return -1;
        }
        if (ok) return 0;
        out->n = mark;
    }
    return lgg__tok_ids_push(out, u->unk);
}

int lgg__tok_unigram(const tok_unigram *u, const char *s, size_t n, tok_ids *out) {
    if (!n) return 0;
    struct node { double score; size_t from; int32_t id; int set; } *best = calloc(n + 1, sizeof *best);
    if (!best) return -1;
    double unk_score = u->min_score - 10.0;
    for (size_t at = 0; at < n;) {
        double here = best[at].score;
        size_t mblen = lgg__tok_utf8_len((uint8_t)s[at]);
        if (mblen > n - at) mblen = n - at;
        int single = 0;
        uint32_t node = 0;
        for (size_t j = at; j < n; j++) { /* every vocabulary piece starting here, shortest first */
            if (!(node = lgg__tok_trie_next(&u->trie, node, (uint8_t)s[j]))) break;
            int32_t id = u->trie.nodes[node].value;
            if (id < 0) continue;
            struct node *t = &best[j + 1];
            double cand = u->score[id] + here;
            if (!t->set || cand > t->score) *t = (struct node){cand, at, id, 1};
            if (j + 1 - at == mblen) single = 1;
        }
        if (!single) {
            struct node *t = &best[at + mblen];
            double cand = unk_score + here;
            if (!t->set || cand > t->score) *t = (struct node){cand, at, u->unk, 1};
        }
        at += mblen;
    }
    /* back from the end: each piece's end, last first; then forward, a run
     * of unknowns fused into one piece */
    size_t *cut = malloc((n + 1) * sizeof *cut), nc = 0;
    int rc = cut ? 0 : -1;
    for (size_t end = n; end > 0 && !rc; end = best[end].from) cut[nc++] = end;
    for (size_t k = nc; k-- > 0 && !rc;) {
        size_t end = cut[k], from = best[end].from;
        if (best[end].id == u->unk)
            while (k > 0 && best[cut[k - 1]].id == u->unk) end = cut[--k];
        rc = unigram_piece(u, s + from, end - from, out);
    }
    free(cut);
    free(best);
    return rc;
}

/* ---- Precompiled: [u32 trie size][trie units][normalized strings, NUL
 * separated]; Darts' double array, bounds-checked (the crate would panic) ---- */
int lgg__tok_charsmap_parse(const uint8_t *b, size_t n, tok_charsmap *m) {
    if (n < 4) return -1;
    uint32_t size = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    size_t units = size / 4;
    if (units > (n - 4) / 4) return -1;
    m->units = malloc((units ? units : 1) * sizeof *m->units);
    if (!m->units) return -1;
    for (size_t i = 0; i < units; i++) {
        const uint8_t *q = b + 4 + 4 * i;
        m->units[i] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    }
    m->n_units = units;
    m->norm = (const char *)b + 4 + 4 * units;
    m->norm_n = n - 4 - 4 * units;
    /* the strings must be UTF-8 (the crate refuses the file otherwise) */
    return utf8proc_decompose((const utf8proc_uint8_t *)m->norm, (utf8proc_ssize_t)m->norm_n, NULL, 0, 0) < 0 ? -2 : 0;
}

/* the value of the shortest key that is a prefix of s, as an offset into norm; -1 none */
static int64_t shortest_prefix(const tok_charsmap *m, const char *s, size_t n) {
    if (!m->n_units) return -1;
#define OFFSET(u) ((size_t)((u) >> 10) << (((u) & (1u << 9)) >> 6))
    size_t pos = OFFSET(m->units[0]);
    for (size_t i = 0; i < n && s[i]; i++) {
        uint8_t c = (uint8_t)s[i];
        pos ^= c;
        if (pos >= m->n_units) return -1;
        uint32_t unit = m->units[pos];
        if ((unit & (0x80000000u | 0xFF)) != c) return -1;
        pos ^= OFFSET(unit);
        if ((unit >> 8) & 1) return pos < m->n_units ? (int64_t)(m->units[pos] & 0x7FFFFFFFu) : -1;
    }
#undef OFFSET
    return -1;
}

/* the replacement of a chunk, or 0 when it has none */
static int transform(const tok_charsmap *m, const char *s, size_t n, const char **r, size_t *rn) {
    int64_t at = shortest_prefix(m, s, n);
    if (at < 0 || (size_t)at > m->norm_n) return 0;
    if ((size_t)at < m->norm_n && ((uint8_t)m->norm[at] & 0xC0) == 0x80) return 0; /* not at a character */
    const char *e = memchr(m->norm + at, 0, m->norm_n - (size_t)at);
    *r = m->norm + at, *rn = e ? (size_t)(e - *r) : m->norm_n - (size_t)at;
    return 1;
}

/* each extended grapheme cluster shorter than 6 bytes is replaced whole when
 * it has a replacement, else each of its characters that has one */
static int precompiled_cluster(const tok_charsmap *m, const char *s, size_t n, tok_buf *out) {
    const char *r;
    size_t rn;
    if (n < 6 && transform(m, s, n, &r, &rn)) return lgg__tok_buf_put(out, r, rn);
    int rc = 0;
    for (size_t p = 0; p < n && !rc;) {
        size_t k = lgg__tok_utf8_len((uint8_t)s[p]);
        if (k > n - p) k = n - p;
        rc = transform(m, s + p, k, &r, &rn) ? lgg__tok_buf_put(out, r, rn) : lgg__tok_buf_put(out, s + p, k);
        p += k;
    }
    return rc;
}

int lgg__tok_precompiled(const tok_charsmap *m, const char *s, size_t n, tok_buf *out) {
    utf8proc_int32_t state = 0, prev = 0, c;
    size_t g = 0, p = 0;
    int rc = 0;
    while (p < n && !rc) {
        utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + p, (utf8proc_ssize_t)(n - p), &c);
        if (k <= 0) k = 1, c = 0xFFFD; /* the text is UTF-8 here: a guard only */
        if (p > 0 && utf8proc_grapheme_break_stateful(prev, c, &state)) rc = precompiled_cluster(m, s + g, p - g, out), g = p;
        prev = c, p += (size_t)k;
    }
    if (!rc && g < n) rc = precompiled_cluster(m, s + g, n - g, out);
    return rc;
}

/* ---- base64 (the charsmap in tokenizer.json); -1 on a bad character ---- */
int lgg__tok_base64(const char *s, size_t n, tok_buf *out) {
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (uint8_t)s[i], v;
        if (c == '=') break;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        else return -1;
        acc = acc << 6 | (uint32_t)v, bits += 6;
        if (bits >= 8) {
            char b = (char)(acc >> (bits - 8));
            bits -= 8;
            if (lgg__tok_buf_put(out, &b, 1)) return -1;
        }
    }
    return 0;
}

/* ---- the WordPiece decoder's cleanup: these replacements, in order, each
 * over the whole string ---- */
int lgg__tok_wp_cleanup(tok_buf *b) {
    static const char *const R[][2] = {{" .", "."},     {" ?", "?"},   {" !", "!"},           {" ,", ","},
                                       {" ' ", "'"},    {" n't", "n't"}, {" 'm", "'m"},       {" do not", " don't"},
                                       {" 's", "'s"},   {" 've", "'ve"}, {" 're", "'re"}};
    for (size_t r = 0; r < sizeof R / sizeof *R; r++) {
        size_t fn = strlen(R[r][0]), tn = strlen(R[r][1]);
        tok_buf nx = {0};
        int rc = 0;
        for (size_t p = 0; p < b->n && !rc;) {
            if (p + fn <= b->n && !memcmp(b->p + p, R[r][0], fn)) rc = lgg__tok_buf_put(&nx, R[r][1], tn), p += fn;
            else rc = lgg__tok_buf_put(&nx, b->p + p, 1), p++;
        }
        if (rc) return lgg__tok_buf_free(&nx), -1;
        lgg__tok_buf_free(b);
        *b = nx;
    }
    return 0;
}
