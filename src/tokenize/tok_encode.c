/* tok_encode.c -- text to ids and back, as llama.cpp b4747's llama_tokenize
 * and llama_detokenize do it: special tokens split out first, then each
 * vocabulary type's algorithm on the text between them (SPM's score-ordered
 * merges with byte fallback, BPE's rank-ordered merges on pre-tokenized,
 * byte-encoded words, WPM's greedy longest match, UGM's Viterbi search over
 * the normalized text, RWKV's greedy trie match). */
#include <ctype.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

#define ESCAPED_SPACE "\xe2\x96\x81" /* U+2581, SentencePiece's space */

static int oom(lgg_error *err) {
    lgg_error_set(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory tokenizing");
    return -LGG_ERR_NOMEM;
}

static int32_t lookup(const lgg_tokenizer *t, const char *s, size_t n) {
    return lgg__tok_map_get(&t->text_to_id, s, n);
}

/* SPM and UGM: the token of one byte, "<0xXX>" or else the byte itself */
static int32_t byte_token(const lgg_tokenizer *t, uint8_t c) {
    static const char hex[] = "0123456789ABCDEF";
    char b[6] = {'<', '0', 'x', hex[c >> 4], hex[c & 15], '>'};
    int32_t id = lookup(t, b, 6);
    return id >= 0 ? id : lookup(t, (const char *)&c, 1);
}

/* ---- symbols and a binary heap of candidate merges, shared by SPM and BPE ---- */

typedef struct sym {
    size_t off, n;
    int prev, next;
} sym;

typedef struct bigram {
    int left, right;
    double key;     /* SPM: -score; BPE: rank (lower first either way) */
    size_t ln, rn;  /* the sizes when queued: a stale entry no longer matches */
} bigram;

typedef struct heap {
    bigram *p;
    size_t n, cap;
} heap;

static int before(const bigram *a, const bigram *b) {
    return a->key < b->key || (a->key == b->key && a->left < b->left);
}

static int heap_push(heap *h, bigram b) {
    if (lgg__tok_grow((void **)&h->p, &h->cap, h->n + 1, sizeof *h->p)) return -1;
    size_t i = h->n++;
    while (i > 0 && before(&b, &h->p[(i - 1) / 2])) {
        h->p[i] = h->p[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->p[i] = b;
    return 0;
}

static bigram heap_pop(heap *h) {
    bigram top = h->p[0], last = h->p[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && before(&h->p[c + 1], &h->p[c])) c++;
        if (!before(&h->p[c], &last)) break;
        h->p[i] = h->p[c];
        i = c;
    }
    if (h->n) h->p[i] = last;
    return top;
}

typedef struct syms {
    sym *p;
    size_t n, cap;
} syms;

/* one symbol per UTF-8 sequence (its length from the first byte, cut at the end) */
static int split_chars(syms *s, const char *w, size_t n) {
    s->n = 0;
    for (size_t off = 0; off < n;) {
        size_t k = lgg__tok_utf8_len((uint8_t)w[off]);
        if (k > n - off) k = n - off;
        if (lgg__tok_grow((void **)&s->p, &s->cap, s->n + 1, sizeof *s->p)) return -1;
        s->p[s->n] = (sym){off, k, (int)s->n - 1, off + k == n ? -1 : (int)s->n + 1};
        s->n++;
        off += k;
    }
    return 0;
}

static void merge_into_left(syms *s, int l, int r) {
    s->p[l].n += s->p[r].n;
    s->p[r].n = 0;
    s->p[l].next = s->p[r].next;
    if (s->p[r].next >= 0) s->p[s->p[r].next].prev = l;
}

/* ---- SPM ---- */

static int spm_bigram(const lgg_tokenizer *t, const char *w, syms *s, heap *h, int l, int r) {
    if (l < 0 || r < 0) return 0;
    int32_t id = lookup(t, w + s->p[l].off, s->p[l].n + s->p[r].n);
    if (id < 0) return 0;
    return heap_push(h, (bigram){l, r, -(double)t->tok[id].score, s->p[l].n, s->p[r].n});
}

static int spm_encode(const lgg_tokenizer *t, const char *w, size_t n, tok_ids *out, lgg_error *err) {
    syms s = {0};
    heap h = {0};
    int rc = 0;
    if (split_chars(&s, w, n)) goto nomem;
    for (size_t i = 1; i < s.n; i++)
        if (spm_bigram(t, w, &s, &h, (int)i - 1, (int)i)) goto nomem;
    while (h.n) {
        bigram b = heap_pop(&h);
        sym *L = &s.p[b.left], *R = &s.p[b.right];
        /* the reference's staleness test: either side gone, or the sizes moved */
        if (!L->n || !R->n || L->n + R->n != b.ln + b.rn) continue;
        merge_into_left(&s, b.left, b.right);
        if (spm_bigram(t, w, &s, &h, s.p[b.left].prev, b.left) || spm_bigram(t, w, &s, &h, b.left, s.p[b.left].next))
            goto nomem;
    }
    /* a merged symbol is always a token; a single character that is not one
     * falls back to its bytes */
    for (int i = s.n ? 0 : -1; i != -1; i = s.p[i].next) {
        int32_t id = lookup(t, w + s.p[i].off, s.p[i].n);
        if (id >= 0) {
            if (lgg__tok_ids_push(out, id)) goto nomem;
            continue;
        }
        for (size_t j = 0; j < s.p[i].n; j++) {
            uint8_t c = (uint8_t)w[s.p[i].off + j];
            id = byte_token(t, c);
            if (id < 0) {
                lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                              "the vocabulary has no token for byte 0x%02X (llama.cpp throws here)", c);
                rc = -LGG_ERR_INVALID;
                goto done;
            }
            if (lgg__tok_ids_push(out, id)) goto nomem;
        }
    }
    goto done;
nomem:
    rc = oom(err);
done:
    free(s.p);
    free(h.p);
    return rc;
}

/* ---- BPE ---- */

static int bpe_bigram(const lgg_tokenizer *t, const char *w, syms *s, heap *h, tok_buf *key, int l, int r) {
    if (l < 0 || r < 0) return 0;
    key->n = 0;
    if (lgg__tok_buf_put(key, w + s->p[l].off, s->p[l].n) || lgg__tok_buf_put(key, " ", 1) ||
        lgg__tok_buf_put(key, w + s->p[r].off, s->p[r].n))
        return -1;
    int32_t rank = lgg__tok_map_get(&t->merges, key->p, key->n);
    if (rank < 0) return 0;
    return heap_push(h, (bigram){l, r, (double)rank, s->p[l].n, s->p[r].n});
}

/* A piece no token spells, byte by byte: the bytes that are tokens (raw BPE: the <0xXX> ones), the others dropped. */
static int bpe_bytes(const lgg_tokenizer *t, const char *p, size_t n, tok_ids *out) {
    static const char HEX[] = "0123456789ABCDEF";
    for (size_t j = 0; j < n; j++) {
        uint8_t c = (uint8_t)p[j];
        char b[6] = {'<', '0', 'x', HEX[c >> 4], HEX[c & 15], '>'};
        int32_t id = t->raw_bpe ? lookup(t, b, 6) : lookup(t, p + j, 1);
        if (id >= 0 && lgg__tok_ids_push(out, id)) return -1;
    }
    return 0;
}

/* one pre-tokenized word, already byte-encoded (raw BPE: as it is) */
static int bpe_word(const lgg_tokenizer *t, const char *w, size_t n, syms *s, heap *h, tok_buf *key, tok_ids *out) {
    if (t->ignore_merges || (t->nl_words && w[0] == '\n')) { /* a newline run is a whole word of newlines */
        int32_t id = lookup(t, w, n);
        if (id >= 0) return lgg__tok_ids_push(out, id);
    }
    h->n = 0;
    if (split_chars(s, w, n)) return -1;
    for (size_t i = 1; i < s->n; i++)
        if (bpe_bigram(t, w, s, h, key, (int)i - 1, (int)i)) return -1;
    while (h->n) {
        bigram b = heap_pop(h);
        if (!s->p[b.left].n || !s->p[b.right].n || s->p[b.left].n != b.ln || s->p[b.right].n != b.rn) continue;
        merge_into_left(s, b.left, b.right);
        if (bpe_bigram(t, w, s, h, key, s->p[b.left].prev, b.left) ||
            bpe_bigram(t, w, s, h, key, b.left, s->p[b.left].next))
            return -1;
    }
    for (size_t i = 0; i < s->n; i++) {
        if (!s->p[i].n) continue;
        int32_t id = lookup(t, w + s->p[i].off, s->p[i].n);
        if (id >= 0) {
            if (lgg__tok_ids_push(out, id)) return -1;
            continue;
        }
        if (bpe_bytes(t, w + s->p[i].off, s->p[i].n, out)) return -1;
    }
    return 0;
}

/* the code points of a fragment (bad sequences as U+FFFD) and where each starts */
static int decode_all(const char *text, size_t len, uint32_t **cpts, size_t **pos, size_t *n) {
    *cpts = malloc((len + 1) * sizeof **cpts);
    *pos = malloc((len + 1) * sizeof **pos);
    if (!*cpts || !*pos) return -1;
    size_t k = 0;
    for (size_t p = 0; p < len; k++) {
        (*pos)[k] = p;
        (*cpts)[k] = lgg__tok_utf8_decode(text, len, &p);
    }
    *n = k;
    return 0;
}

static int too_big(lgg_error *err, size_t at, uint32_t c) {
    lgg_error_set(err, LGG_ERR_INVALID, at,
                  "byte %zu: a 4-byte UTF-8 form of 0x%X, above U+10FFFF, which llama.cpp cannot tokenize", at,
                  (unsigned)c);
    return -LGG_ERR_INVALID;
}

static int bpe_encode(const lgg_tokenizer *t, const char *text, size_t len, size_t base, tok_ids *out,
                      lgg_error *err) {
    uint32_t *cpts = NULL;
    size_t *pos = NULL, *lens = NULL, n = 0, nl = 0;
    syms s = {0};
    heap h = {0};
    tok_buf word = {0}, key = {0};
    int rc = 0;
    if (decode_all(text, len, &cpts, &pos, &n) || lgg__tok_split(t->splitter, cpts, n, &lens, &nl)) goto nomem;
    for (size_t w = 0, start = 0; w < nl; start += lens[w++]) {
        word.n = 0;
        for (size_t i = start; i < start + lens[w]; i++) {
            tok_buf u = {0};
            if (cpts[i] > 0x10FFFF) {
                rc = too_big(err, base + pos[i], cpts[i]);
                goto done;
            }
            if (lgg__tok_utf8_put(t->raw_bpe ? &word : &u, cpts[i])) goto nomem;
            for (size_t j = 0; j < u.n; j++) {
                if (lgg__tok_utf8_put(&word, lgg__tok_byte_to_cpt((uint8_t)u.p[j]))) {
                    lgg__tok_buf_free(&u);
                    goto nomem;
                }
            }
            lgg__tok_buf_free(&u);
        }
        if (word.n && bpe_word(t, word.p, word.n, &s, &h, &key, out)) goto nomem;
    }
    goto done;
nomem:
    rc = oom(err);
done:
    free(cpts);
    free(pos);
    free(lens);
    free(s.p);
    free(h.p);
    lgg__tok_buf_free(&word);
    lgg__tok_buf_free(&key);
    return rc;
}

/* ---- WPM ---- */

static int chinese(uint32_t c) {
    /* the reference's ranges (0x2B920 as Hugging Face's code has it) */
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

static int wpm_word(const lgg_tokenizer *t, const char *w, size_t n, tok_ids *out) {
    size_t mark = out->n;
    for (size_t i = 0; i < n; i++) {
        size_t j = i + (size_t)t->max_token_len + 1 < n ? i + (size_t)t->max_token_len + 1 : n;
        int matched = 0;
        for (; j > i; j--) {
            int32_t id = lookup(t, w + i, j - i);
            if (id >= 0) {
                if (lgg__tok_ids_push(out, id)) return -1;
                matched = 1;
                i = j - 1;
                break;
            }
        }
        if (!matched) { /* the whole word becomes unknown */
            out->n = mark;
            break;
        }
    }
    return out->n == mark ? lgg__tok_ids_push(out, t->unk) : 0;
}

/* the word collected so far (after its U+2581) tokenized, and a new one begun */
static int wpm_flush(const lgg_tokenizer *t, tok_buf *word, tok_ids *out) {
    int rc = word->n > 3 ? wpm_word(t, word->p, word->n, out) : 0;
    word->n = 3;
    return rc;
}

static int wpm_encode(const lgg_tokenizer *t, const char *text, size_t len, size_t base, tok_ids *out,
                      lgg_error *err) {
    uint32_t *cpts = NULL;
    size_t *pos = NULL, n = 0;
    tok_buf word = {0};
    int rc = 0;
    if (decode_all(text, len, &cpts, &pos, &n) || lgg__tok_buf_put(&word, ESCAPED_SPACE, 3)) goto nomem;
    /* words split at whitespace; punctuation, ASCII symbols and CJK
     * characters are words of their own; each word gets a leading U+2581 */
    for (size_t i = 0; i < n; i++) {
        uint32_t c = lgg__tok_cpt_nfd_first(cpts[i]);
        unsigned f = lgg__tok_cpt_flags(c);
        if (f & CPT_WHITESPACE) {
            if (wpm_flush(t, &word, out)) goto nomem;
            continue;
        }
        if (c == 0 || c == 0xFFFD || (f & CPT_CONTROL)) continue;
        uint32_t lc = lgg__tok_cpt_lower(c);
        if (lc > 0x10FFFF) {
            rc = too_big(err, base + pos[i], lc);
            goto done;
        }
        int alone = (f & CPT_PUNCT) || (c < 0x7F && (f & CPT_SYMBOL)) || chinese(c);
        if ((alone && wpm_flush(t, &word, out)) || lgg__tok_utf8_put(&word, lc) || (alone && wpm_flush(t, &word, out)))
            goto nomem;
    }
    if (wpm_flush(t, &word, out)) goto nomem;
    goto done;
nomem:
    rc = oom(err);
done:
    free(cpts);
    free(pos);
    lgg__tok_buf_free(&word);
    return rc;
}

/* ---- UGM ---- */

/* the length of a well-formed (as the reference's decoder judges) UTF-8
 * sequence at p[0..n), or 0 */
static size_t utf8_shape(const char *p, size_t n) {
    size_t pos = 0;
    uint32_t c = lgg__tok_utf8_decode(p, n, &pos);
    if (c != 0xFFFD) return pos;
    return pos == 3 && (uint8_t)p[0] == 0xEF ? 3 : 0; /* a real U+FFFD */
}

static uint32_t xcda_node(const lgg_tokenizer *t, size_t i, int *bad) {
    if (i >= t->xcda_n) {
        *bad = 1;
        return 0;
    }
    return t->xcda[i];
}

/* one normalized unit at in[off..]: its replacement (or the input itself)
 * and how many input bytes it consumes; -1 for a charsmap whose replacement
 * offset is out of bounds (the reference throws) */
static int ugm_prefix(const lgg_tokenizer *t, const char *in, size_t len, size_t off, const char **rep, size_t *rep_n,
                      size_t *used) {
    /* a user-defined token's text, as far as the trie goes */
    size_t depth = 0;
    for (uint32_t node = 0; off + depth < len;) {
        node = lgg__tok_trie_next(&t->ugm_user, node, (uint8_t)in[off + depth]);
        if (!node) break;
        depth++;
    }
    if (depth) {
        *rep = in + off, *rep_n = *used = depth;
        return 0;
    }
    size_t best_len = 0, best_off = 0;
    if (t->xcda_n) {
        int bad = 0;
        size_t node = 0;
        uint32_t v = xcda_node(t, 0, &bad);
        node = (v >> 10) << ((v & (1u << 9)) >> 6);
        for (size_t p = off; p < len && !bad; p++) {
            uint8_t c = (uint8_t)in[p];
            if (!c) break;
            node ^= c;
            v = xcda_node(t, node, &bad);
            if (bad || (v & ((1u << 31) | 0xFF)) != c) break;
            int leaf = (v >> 8) & 1;
            node ^= (v >> 10) << ((v & (1u << 9)) >> 6);
            if (leaf) {
                v = xcda_node(t, node, &bad);
                if (bad) break;
                best_len = p - off + 1;
                best_off = v & ((1u << 31) - 1);
            }
        }
    }
    if (best_len) {
        if (best_off >= t->repl_n) return -1;
        const char *r = t->repl + best_off;
        const char *z = memchr(r, 0, t->repl_n - best_off);
        *rep = r, *rep_n = z ? (size_t)(z - r) : t->repl_n - best_off, *used = best_len;
        return 0;
    }
    size_t k = utf8_shape(in + off, len - off);
    if (k) {
        *rep = in + off, *rep_n = *used = k;
    } else {
        *rep = "\xEF\xBF\xBD", *rep_n = 3, *used = 1;
    }
    return 0;
}

static int ugm_normalize(const lgg_tokenizer *t, const char *in, size_t len, tok_buf *out) {
    const char *space = t->escape_ws ? ESCAPED_SPACE : " ";
    size_t space_n = strlen(space);
    int prepend = !t->ws_suffix && t->add_space_prefix, append = t->ws_suffix && t->add_space_prefix;
    int merge = t->remove_extra_ws, prepended = 0, in_word = 0;
    for (size_t off = 0; off < len;) {
        const char *rep;
        size_t rep_n, used;
        if (ugm_prefix(t, in, len, off, &rep, &rep_n, &used)) return -2;
        for (size_t i = 0; i < rep_n; i++) {
            if (rep[i] != ' ') {
                if (!in_word) {
                    in_word = 1;
                    if (((prepend && !prepended) || merge) && lgg__tok_buf_put(out, space, space_n)) return -1;
                    if ((prepend && !prepended) || merge) prepended = 1;
                }
                if (lgg__tok_buf_put(out, rep + i, 1)) return -1;
            } else {
                in_word = 0;
                if (!merge && lgg__tok_buf_put(out, space, space_n)) return -1;
            }
        }
        off += used;
    }
    return append ? lgg__tok_buf_put(out, space, space_n) : 0;
}

typedef struct best {
    int32_t id;
    size_t from;
    float score;
} best;

static int ugm_encode(const lgg_tokenizer *t, const char *text, size_t len, tok_ids *out, lgg_error *err) {
    tok_buf nb = {0};
    best *b = NULL;
    int rc = ugm_normalize(t, text, len, &nb);
    if (rc == -2) {
        lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                      "tokenizer.ggml.precompiled_charsmap: a replacement offset past its end");
        lgg__tok_buf_free(&nb); /* what was normalized before the bad offset */
        return -LGG_ERR_INVALID;
    }
    if (rc) goto nomem;
    size_t n = nb.n;
    const char *s = nb.p;
    if (!n) return 0;
    if (!(b = malloc((n + 1) * sizeof *b))) goto nomem;
    for (size_t i = 0; i <= n; i++) b[i] = (best){t->unk, 0, -FLT_MAX};
    b[0].score = 0;
    for (size_t off = 0; off < n;) {
        size_t units = lgg__tok_utf8_len((uint8_t)s[off]);
        if (units > n - off) units = n - off;
        int single = 0;
        best cur = b[off];
        uint32_t node = lgg__tok_trie_next(&t->ugm_tokens, 0, (uint8_t)s[off]);
        for (size_t p = off + 1; node; p++) {
            int32_t id = t->ugm_tokens.nodes[node].value;
            if (id >= 0) {
                if (p - off == units) single = 1;
                double score = (double)cur.score + ((t->tok[id].attr & TOK_ATTR_USER_DEFINED) ? 0.0 : (double)t->tok[id].score);
                if (score > (double)b[p].score) b[p] = (best){id, off, (float)score};
            }
            if (p >= n) break;
            node = lgg__tok_trie_next(&t->ugm_tokens, node, (uint8_t)s[p]);
        }
        if (!single) {
            float score = cur.score + t->ugm_unk_score;
            if ((double)score > (double)b[off + units].score) b[off + units] = (best){t->unk, off, score};
        }
        off += units;
    }
    /* back from the end; runs of unknowns become one */
    size_t mark = out->n;
    int prev_unk = 0;
    for (best cur = b[n];; cur = b[cur.from]) {
        int unk = cur.id == t->unk;
        if (!(prev_unk && unk) && lgg__tok_ids_push(out, cur.id)) goto nomem;
        if (cur.from == 0) break;
        prev_unk = unk;
    }
    for (size_t i = mark, j = out->n - 1; i < j; i++, j--) {
        int32_t x = out->p[i];
        out->p[i] = out->p[j];
        out->p[j] = x;
    }
    rc = 0;
    goto done;
nomem:
    rc = oom(err);
done:
    lgg__tok_buf_free(&nb);
    free(b);
    return rc;
}

/* ---- RWKV ---- */

static int rwkv_encode(const lgg_tokenizer *t, const char *s, size_t n, size_t base, tok_ids *out, lgg_error *err) {
    for (size_t pos = 0; pos < n;) {
        uint32_t node = lgg__tok_trie_next(&t->rwkv, 0, (uint8_t)s[pos]);
        if (!node) { /* no token starts with this byte: the unknown id (-1 for RWKV) */
            if (lgg__tok_ids_push(out, t->unk)) return oom(err);
            pos++;
            continue;
        }
        int32_t id = -1;
        size_t end = 0;
        for (size_t p = pos; node;) {
            if (t->rwkv.nodes[node].value >= 0) id = t->rwkv.nodes[node].value, end = p + 1;
            if (++p >= n) break;
            node = lgg__tok_trie_next(&t->rwkv, node, (uint8_t)s[p]);
        }
        if (id < 0) { /* the reference restarts from the text's start here, forever */
            lgg_error_set(err, LGG_ERR_INVALID, base + pos,
                          "byte %zu: no token matches here and llama.cpp would loop forever", base + pos);
            return -LGG_ERR_INVALID;
        }
        if (lgg__tok_ids_push(out, id)) return oom(err);
        pos = end;
    }
    return 0;
}

/* ---- special tokens, then the fragments between them ---- */

typedef struct frag {
    int32_t id; /* -1: text */
    size_t off, len;
} frag;

typedef struct frags {
    frag *p;
    size_t n, cap;
} frags;

static int frags_push(frags *v, frag f) {
    if (lgg__tok_grow((void **)&v->p, &v->cap, v->n + 1, sizeof *v->p)) return -1;
    v->p[v->n++] = f;
    return 0;
}

/* Split the text at every special token's text, longest tokens first; with
 * lstrip/rstrip the whitespace beside a match goes too. */
static int partition(const lgg_tokenizer *t, const char *text, size_t len, int parse_special, frags *cur) {
    frags next = {0};
    cur->n = 0;
    if (len && frags_push(cur, (frag){-1, 0, len})) return -1;
    for (int32_t k = 0; k < t->n_special; k++) {
        int32_t id = t->special[k];
        const tok_token *tk = &t->tok[id];
        if (!parse_special && (tk->attr & (TOK_ATTR_CONTROL | TOK_ATTR_UNKNOWN))) continue;
        next.n = 0;
        for (size_t i = 0; i < cur->n; i++) {
            frag f = cur->p[i];
            if (f.id >= 0) {
                if (frags_push(&next, f)) goto nomem;
                continue;
            }
            size_t off = f.off, n = f.len;
            while (n) {
                const char *m = tk->len <= n ? memmem(text + off, n, tk->text, tk->len) : NULL;
                if (!m) break;
                size_t at = (size_t)(m - text), left = at - off;
                if (tk->attr & TOK_ATTR_LSTRIP)
                    while (left && isspace((unsigned char)text[off + left - 1])) left--;
                if (left && frags_push(&next, (frag){-1, off, left})) goto nomem;
                if (frags_push(&next, (frag){id, 0, 0})) goto nomem;
                size_t roff = at + tk->len, rn = off + n - roff;
                if (tk->attr & TOK_ATTR_RSTRIP)
                    while (rn && isspace((unsigned char)text[roff])) roff++, rn--;
                off = roff, n = rn;
            }
            if (n && frags_push(&next, (frag){-1, off, n})) goto nomem;
        }
        frags tmp = *cur;
        *cur = next;
        next = tmp;
    }
    free(next.p);
    return 0;
nomem:
    free(next.p);
    return -1;
}

/* The ids of one piece of a text (see tok.h): the whole text is the piece
 * with first, last and !cont. */
int lgg__tok_encode_piece(const lgg_tokenizer *t, const char *text, size_t len, size_t base, unsigned flags,
                          int first, int last, int cont, tok_ids *out, lgg_error *err) {
    int add = (flags & LGG_TOKENIZE_ADD_SPECIAL) != 0;
    frags fr = {0};
    tok_buf sp = {0};
    size_t mark = out->n;
    int rc = 0;
    if (partition(t, text, len, (flags & LGG_TOKENIZE_PARSE_SPECIAL) != 0, &fr)) goto nomem;
    int bos = (t->type == LGG_VOCAB_WPM) ? add : add && t->add_bos && t->type != LGG_VOCAB_RWKV;
    int eos = (t->type == LGG_VOCAB_WPM || t->type == LGG_VOCAB_RWKV) ? 0 : add && t->add_eos;
    if (bos && first) {
        if (t->bos < 0) {
            lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "the vocabulary asks for a BOS token but has none");
            rc = -LGG_ERR_INVALID;
            goto done;
        }
        if (lgg__tok_ids_push(out, t->bos)) goto nomem;
    }
    int prev_special = !cont; /* SPM: a space before the first text and after each special token */
    for (size_t i = 0; i < fr.n && !rc; i++) {
        frag f = fr.p[i];
        if (f.id >= 0) {
            if (lgg__tok_ids_push(out, f.id)) goto nomem;
            prev_special = !t->spm_legacy_off;
            continue;
        }
        const char *s = text + f.off;
        size_t at = base + f.off;
        switch (t->type) {
        case LGG_VOCAB_SPM:
            sp.n = 0;
            if (t->add_space_prefix && prev_special && lgg__tok_buf_put(&sp, ESCAPED_SPACE, 3)) goto nomem;
            for (size_t j = 0; j < f.len; j++)
                if (s[j] == ' ' ? lgg__tok_buf_put(&sp, ESCAPED_SPACE, 3) : lgg__tok_buf_put(&sp, s + j, 1)) goto nomem;
            rc = spm_encode(t, sp.p, sp.n, out, err);
            break;
        case LGG_VOCAB_BPE:
            if (!t->raw_bpe) {
                rc = bpe_encode(t, s, f.len, at, out, err);
                break;
            }
            sp.n = 0; /* master's SPM-style BPE: every space escaped first */
            for (size_t j = 0; j < f.len; j++)
                if (s[j] == ' ' ? lgg__tok_buf_put(&sp, ESCAPED_SPACE, 3) : lgg__tok_buf_put(&sp, s + j, 1)) goto nomem;
            rc = sp.n ? bpe_encode(t, sp.p, sp.n, at, out, err) : 0;
            break;
        case LGG_VOCAB_WPM: rc = wpm_encode(t, s, f.len, at, out, err); break;
        case LGG_VOCAB_UGM: rc = ugm_encode(t, s, f.len, out, err); break;
        case LGG_VOCAB_RWKV: rc = rwkv_encode(t, s, f.len, at, out, err); break;
        }
        prev_special = 0;
    }
    if (rc || !last) goto done;
    int32_t fin = t->type == LGG_VOCAB_WPM ? (add ? t->sep : -2) : eos ? t->eos : -2;
    if (fin != -2) {
        if (fin < 0) {
            lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "the vocabulary asks for an %s token but has none",
                          t->type == LGG_VOCAB_WPM ? "SEP" : "EOS");
            rc = -LGG_ERR_INVALID;
            goto done;
        }
        if (lgg__tok_ids_push(out, fin)) goto nomem;
    }
    goto done;
nomem:
    rc = oom(err);
done:
    /* an unknown piece where the vocabulary has no unknown token (a WPM,
     * UGM or RWKV vocabulary without one, or whose default id is past its
     * end): llama.cpp hands out an id outside the vocabulary, here an error */
    for (size_t i = mark; !rc && i < out->n; i++)
        if (out->p[i] < 0 || out->p[i] >= t->n) {
            lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                          "the text has a piece the vocabulary does not hold and it has no unknown token");
            rc = -LGG_ERR_INVALID;
        }
    free(fr.p);
    lgg__tok_buf_free(&sp);
    return rc;
}

int64_t lgg_tokenize(const lgg_tokenizer *t, const char *text, size_t len, unsigned flags, int32_t *ids, size_t cap,
                     lgg_error *err) {
    if (!t || (!text && len) || (!ids && cap)) {
        lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_tokenize: NULL argument");
        return -LGG_ERR_ARG;
    }
    tok_ids out = {0};
    int rc;
    if (t->hf) {
        rc = lgg__tok_hf_encode(t, text, len, (flags & LGG_TOKENIZE_ADD_SPECIAL) != 0,
                                (flags & LGG_TOKENIZE_PARSE_SPECIAL) != 0, &out, err);
    } else {
        rc = lgg__tok_encode_piece(t, text, len, 0, flags, 1, 1, 0, &out, err);
    }
    if (!rc && out.n > INT64_MAX) rc = oom(err);
    if (rc) {
        lgg__tok_ids_free(&out);
        return rc;
    }
    int64_t n = (int64_t)out.n;
    if (ids && out.n) memcpy(ids, out.p, (out.n < cap ? out.n : cap) * sizeof *ids);
    lgg__tok_ids_free(&out);
    return n;
}

/* ---- pieces and detokenizing ---- */

/* A SentencePiece-style token's piece: a normal one with U+2581 as spaces, a <0xXX> byte as that byte. */
static int spm_style_piece(const tok_token *k, uint32_t a, tok_buf *b) {
    if (a & TOK_ATTR_NORMAL) {
        for (size_t i = 0; i < k->len; i++) {
            int sp = i + 3 <= k->len && !memcmp(k->text + i, ESCAPED_SPACE, 3);
            if (lgg__tok_buf_put(b, sp ? " " : k->text + i, 1)) return -2;
            i += sp ? 2 : 0;
        }
        return 0;
    }
    if (a & TOK_ATTR_BYTE) {
        char hex[3] = {0};
        if (k->len >= 3) memcpy(hex, k->text + 3, k->len >= 5 ? 2 : k->len - 3);
        char c = (char)strtol(hex, NULL, 16);
        return lgg__tok_buf_put(b, &c, 1) ? -2 : 0;
    }
    return 0;
}

int lgg__tok_piece_for_cache(const lgg_tokenizer *t, int32_t id, tok_buf *b) {
    const tok_token *k = &t->tok[id];
    uint32_t a = k->attr;
    const uint32_t as_is = TOK_ATTR_UNKNOWN | TOK_ATTR_CONTROL | TOK_ATTR_USER_DEFINED;
    switch (t->type) {
    case LGG_VOCAB_SPM:
    case LGG_VOCAB_WPM:
    case LGG_VOCAB_UGM:
        if (a & as_is) return lgg__tok_buf_put(b, k->text, k->len) ? -2 : 0;
        return spm_style_piece(k, a, b);
    case LGG_VOCAB_BPE:
        if (a & as_is) return lgg__tok_buf_put(b, k->text, k->len) ? -2 : 0;
        if (t->raw_bpe && (a & (TOK_ATTR_NORMAL | TOK_ATTR_BYTE))) return spm_style_piece(k, a, b);
        if (a & TOK_ATTR_NORMAL) {
            for (size_t p = 0; p < k->len;) {
                uint32_t c = lgg__tok_utf8_decode(k->text, k->len, &p);
                int byte = lgg__tok_cpt_to_byte(c);
                if (byte >= 0) {
                    char ch = (char)byte;
                    if (lgg__tok_buf_put(b, &ch, 1)) return -2;
                    continue;
                }
                /* not one of GPT-2's 256: the reference spells it out */
                tok_buf u = {0};
                if (lgg__tok_utf8_put(&u, c)) {
                    lgg__tok_buf_free(&u);
                    return -1;
                }
                int bad = lgg__tok_buf_put(b, "[UNK_BYTE_0x", 12);
                for (size_t j = 0; j < u.n && !bad; j++) {
                    char h[3];
                    snprintf(h, sizeof h, "%02x", (unsigned)(uint8_t)u.p[j]);
                    bad = lgg__tok_buf_put(b, h, 2);
                }
                lgg__tok_buf_free(&u);
                if (bad || lgg__tok_buf_put(b, k->text, k->len) || lgg__tok_buf_put(b, "]", 1)) return -2;
            }
        }
        return 0;
    case LGG_VOCAB_RWKV: {
        /* escapes shrink: the unescaped text fits in len bytes */
        char *tmp = malloc(k->len + 1);
        int rc = !tmp || lgg__tok_buf_put(b, tmp, lgg__tok_rwkv_unescape(k->text, k->len, tmp)) ? -2 : 0;
        free(tmp);
        return rc;
    }
    }
    return 0;
}

/* clean_up_tokenization_spaces, the reference's three passes in place */
static size_t clean_spaces(char *s, size_t total) {
    size_t t1 = total;
    total = total ? 1 : 0;
    for (size_t i = 1; i < t1; i++) { /* " ?", " !", " .", " ," */
        char x = s[i];
        if (s[i - 1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',')) total--;
        s[total++] = x;
    }
    size_t t2 = total;
    total = total ? 1 : 0;
    for (size_t i = 1; i < t2; i++) { /* " ' " */
        char x = s[i];
        if (x == '\'' && i + 1 < t2 && s[i - 1] == ' ' && s[i + 1] == ' ') {
            total--;
            s[++i] = 0;
        }
        s[total++] = x;
    }
    size_t t3 = total;
    total = total ? 1 : 0;
    for (size_t i = 1; i < t3; i++) { /* " 's", " 'm", " 're", " 've" */
        char x = s[i];
        if (s[i - 1] == ' ' && x == '\'' && i + 1 < t3) {
            char x1 = s[i + 1];
            if (x1 == 's' || x1 == 'm') total--;
            else if (i + 2 < t3 && ((x1 == 'r' && s[i + 2] == 'e') || (x1 == 'v' && s[i + 2] == 'e'))) total--;
        }
        s[total++] = x;
    }
    return total;
}

int64_t lgg_detokenize(const lgg_tokenizer *t, const int32_t *ids, size_t n, unsigned flags, char *buf, size_t cap,
                       lgg_error *err) {
    if (!t || (!ids && n) || (!buf && cap)) {
        lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_detokenize: NULL argument");
        return -LGG_ERR_ARG;
    }
    int remove_space = t->add_space_prefix;
    if ((flags & LGG_DETOKENIZE_REMOVE_SPECIAL) && t->add_bos && n > 0 && ids[0] == t->bos) {
        remove_space = 0;
        n--, ids++;
    }
    if ((flags & LGG_DETOKENIZE_REMOVE_SPECIAL) && t->add_eos && n > 0 && ids[n - 1] == t->eos) n--;
    tok_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (ids[i] >= 0 && ids[i] < t->n) continue;
        lgg_error_set(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "token id %d is outside the vocabulary (0..%d)", (int)ids[i],
                      (int)t->n - 1);
        return -LGG_ERR_RANGE;
    }
    if (t->hf) {
        if (lgg__tok_hf_decode(t, ids, n, (flags & LGG_DETOKENIZE_REMOVE_SPECIAL) != 0, &b)) return oom(err);
        n = 0; /* the decoders did it all */
    }
    for (size_t i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= t->n) {
            lgg__tok_buf_free(&b);
            lgg_error_set(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "token id %d is outside the vocabulary (0..%d)", (int)ids[i],
                          (int)t->n - 1);
            return -LGG_ERR_RANGE;
        }
        const char *p = t->piece[ids[i]];
        size_t pn = t->piece_len[ids[i]];
        if (!(flags & LGG_DETOKENIZE_UNPARSE_SPECIAL) && (t->tok[ids[i]].attr & (TOK_ATTR_UNKNOWN | TOK_ATTR_CONTROL)))
            pn = 0;
        if (remove_space && pn && *p == ' ') p++, pn--;
        remove_space = 0; /* after the first token, whatever it gave */
        if (lgg__tok_buf_put(&b, p, pn)) {
            lgg__tok_buf_free(&b);
            return oom(err);
        }
    }
    size_t total = t->clean_spaces ? clean_spaces(b.p, b.n) : b.n;
    if (buf && total) memcpy(buf, b.p, total < cap ? total : cap);
    lgg__tok_buf_free(&b);
    return (int64_t)total;
}
