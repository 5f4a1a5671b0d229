/* tok_util.c -- the tokenizer part's containers: a growable byte string and
 * id list, a string hash map and a byte trie. */
#include <stdlib.h>
#include <string.h>

#include "tokenize/tok.h"

int lgg__tok_grow(void **p, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 16;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem) return -1;
        c *= 2;
    }
    void *q = realloc(*p, c * elem);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

int lgg__tok_buf_put(tok_buf *b, const void *p, size_t n) {
    if (n > SIZE_MAX - b->n - 1 || lgg__tok_grow((void **)&b->p, &b->cap, b->n + n + 1, 1)) return -1;
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
    b->p[b->n] = 0;
    return 0;
}

void lgg__tok_buf_free(tok_buf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}

int lgg__tok_ids_push(tok_ids *v, int32_t id) {
    if (lgg__tok_grow((void **)&v->p, &v->cap, v->n + 1, sizeof *v->p)) return -1;
    v->p[v->n++] = id;
    return 0;
}

void lgg__tok_ids_free(tok_ids *v) {
    free(v->p);
    memset(v, 0, sizeof *v);
}

static int map_rehash(tok_map *m) {
    size_t cap = m->slots ? (m->mask + 1) * 2 : 64;
    tok_map_slot *s = calloc(cap, sizeof *s);
    if (!s) return -1;
    if (!m->slots) lgg_hash_key_new(m->key, m);
    for (size_t i = 0; m->slots && i <= m->mask; i++) {
        if (!m->slots[i].key) continue;
        size_t j = lgg_hash_keyed(m->key, m->slots[i].key, m->slots[i].len) & (cap - 1);
        while (s[j].key) j = (j + 1) & (cap - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->mask = cap - 1;
    return 0;
}

int lgg__tok_map_put(tok_map *m, const char *key, size_t len, int32_t val, int replace) {
    if (len > UINT32_MAX) return -1;
    if ((!m->slots || (m->n + 1) * 4 > (m->mask + 1) * 3) && map_rehash(m)) return -1;
    size_t j = lgg_hash_keyed(m->key, key, len) & m->mask;
    for (; m->slots[j].key; j = (j + 1) & m->mask) {
        if (m->slots[j].len == len && !memcmp(m->slots[j].key, key, len)) {
            if (replace) m->slots[j].val = val;
            return 1;
        }
    }
    /* an empty key needs a non-NULL pointer to mark the slot used */
    m->slots[j].key = len ? key : "";
    m->slots[j].len = (uint32_t)len;
    m->slots[j].val = val;
    m->n++;
    return 0;
}

int32_t lgg__tok_map_get(const tok_map *m, const char *key, size_t len) {
    if (!m->slots || len > UINT32_MAX) return -1;
    for (size_t j = lgg_hash_keyed(m->key, key, len) & m->mask; m->slots[j].key; j = (j + 1) & m->mask)
        if (m->slots[j].len == len && !memcmp(m->slots[j].key, key, len)) return m->slots[j].val;
    return -1;
}

void lgg__tok_map_free(tok_map *m) {
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* a new node's index (0 only for the root, which comes first), or 0 when
 * memory runs out */
static uint32_t trie_node_new(tok_trie *t, uint8_t byte) {
    size_t cap = t->cap;
    if (t->n == UINT32_MAX || lgg__tok_grow((void **)&t->nodes, &cap, (size_t)t->n + 1, sizeof *t->nodes)) return 0;
    t->cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    t->nodes[t->n] = (tok_trie_node){0, 0, -1, byte};
    return t->n++;
}

int lgg__tok_trie_add(tok_trie *t, const char *key, size_t len, int32_t value) {
    if (!t->n) {
        (void)trie_node_new(t, 0); /* the root: index 0 */
        if (!t->n) return -1;
    }
    uint32_t node = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = (uint8_t)key[i];
        uint32_t next = lgg__tok_trie_next(t, node, c);
        if (!next) {
            next = trie_node_new(t, c);
            if (!next) return -1;
            if (node == 0) {
                t->root[c] = next;
            } else {
                t->nodes[next].sibling = t->nodes[node].child;
                t->nodes[node].child = next;
            }
        }
        node = next;
    }
    t->nodes[node].value = value;
    return 0;
}

uint32_t lgg__tok_trie_next(const tok_trie *t, uint32_t node, uint8_t c) {
    if (!t->nodes) return 0;
    if (node == 0) return t->root[c];
    for (uint32_t k = t->nodes[node].child; k; k = t->nodes[k].sibling)
        if (t->nodes[k].byte == c) return k;
    return 0;
}

void lgg__tok_trie_free(tok_trie *t) {
    free(t->nodes);
    memset(t, 0, sizeof *t);
}
