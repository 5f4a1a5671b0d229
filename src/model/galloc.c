/* galloc.c -- ggml-alloc's measuring allocator, replayed on a graph
 * description (galloc.h).  The rules are ggml's (b4747):
 *
 * - leaves without data (the graph's inputs) are allocated first, in the
 *   order the graph found them; then each node in order, after which a
 *   source whose last consumer has run is freed (a view's memory when the
 *   last view of it and its own consumers are done);
 * - an operation that may work in place takes over the memory of its first
 *   source that is the compute buffer's own, has the same layout, and has
 *   no other consumer left and no view;
 * - memory comes from the best-fitting free block but the last one, else
 *   from the end; freed blocks merge with their neighbours; the buffer is
 *   the highest end ever reached. */
#include "model/galloc.h"

#include <stdlib.h>

#define G_ALIGN 32u

void lgg__g_init(g_graph *g, const lgg_allocator *a) {
    memset(g, 0, sizeof *g);
    g->a = a;
}

void lgg__g_free(g_graph *g) {
    const lgg_allocator *a = g->a;
    lgg__free(a, g->t);
    lgg__free(a, g->kind_of);
    lgg__free(a, g->nodes);
    lgg__free(a, g->leafs);
    lgg__free(a, g->stack);
    memset(g, 0, sizeof *g);
}

/* Room for one more tensor in every per-tensor array. */
static bool grow(g_graph *g) {
    size_t cap = g->cap ? g->cap * 2 : 1024;
    if (cap > INT32_MAX / 2) return false;
    const lgg_allocator *a = g->a;
    g_tensor *t = lgg__realloc(a, g->t, g->cap * sizeof *t, cap * sizeof *t);
    if (t) g->t = t;
    uint8_t *k = lgg__realloc(a, g->kind_of, g->cap, cap);
    if (k) g->kind_of = k, memset(k + g->cap, 0, cap - g->cap);
    int32_t *nodes = lgg__realloc(a, g->nodes, g->cap * sizeof *nodes, cap * sizeof *nodes);
    if (nodes) g->nodes = nodes;
    int32_t *leafs = lgg__realloc(a, g->leafs, g->cap * sizeof *leafs, cap * sizeof *leafs);
    if (leafs) g->leafs = leafs;
    /* g_expand's: a tensor and its next source */
    int32_t *stack = lgg__realloc(a, g->stack, 2 * g->cap * sizeof *stack, 2 * cap * sizeof *stack);
    if (stack) g->stack = stack;
    if (!t || !k || !nodes || !leafs || !stack) return g->nomem = true, false;
    g->cap = cap;
    return true;
}

static int32_t g_new(g_graph *g) {
    if (g->failed) return -1;
    if (g->n == g->cap && !grow(g)) {
        g->failed = true;
        return -1;
    }
    g_tensor *t = &g->t[g->n];
    memset(t, 0, sizeof *t);
    t->src[0] = t->src[1] = t->src[2] = t->src[3] = -1;
    t->view_src = -1;
    for (int d = 0; d < 4; d++) t->ne[d] = 1;
    return (int32_t)g->n++;
}

static void contiguous(g_graph *g, g_tensor *t) {
    t->nb[0] = lgg_type_get(t->type)->type_size; /* the graph's types: F32, F16, I32 */
    for (int d = 1; d < 4; d++)
        if (lgg__mul_ovf(t->nb[d - 1], (uint64_t)t->ne[d - 1], &t->nb[d])) g->failed = true;
}

int32_t lgg__g_external(g_graph *g) {
    int32_t i = g_new(g);
    if (i >= 0) g->t[i].external = 1, g->t[i].type = LGG_TYPE_F32, contiguous(g, &g->t[i]);
    return i;
}

int32_t lgg__g_input(g_graph *g, uint32_t type, int64_t ne0, int64_t ne1) {
    int32_t i = g_new(g);
    if (i < 0) return -1;
    g_tensor *t = &g->t[i];
    t->type = type, t->ne[0] = ne0, t->ne[1] = ne1, t->input = 1, t->kind = G_LEAF;
    contiguous(g, t);
    return i;
}

int32_t lgg__g_op(g_graph *g, uint8_t kind, uint32_t type, const int64_t ne[4], int32_t s0, int32_t s1, int32_t s2,
                  int32_t s3) {
    int64_t shape[4]; /* ne may point into g->t, which g_new may move */
    memcpy(shape, ne, sizeof shape);
    int32_t i = g_new(g);
    if (i < 0) return -1;
    g_tensor *t = &g->t[i];
    t->kind = kind, t->type = type;
    memcpy(t->ne, shape, sizeof t->ne);
    t->src[0] = s0, t->src[1] = s1, t->src[2] = s2, t->src[3] = s3;
    contiguous(g, t);
    return i;
}

int32_t lgg__g_view(g_graph *g, int32_t src, uint32_t type, const int64_t ne[4], const uint64_t *nb) {
    if (src < 0) return g->failed = true, -1;
    int64_t shape[4]; /* ne and nb may point into g->t, which g_new may move */
    uint64_t strides[4] = {0, 0, 0, 0};
    memcpy(shape, ne, sizeof shape);
    if (nb) memcpy(strides, nb, sizeof strides);
    int32_t i = g_new(g);
    if (i < 0) return -1;
    g_tensor *t = &g->t[i];
    t->kind = G_VIEW, t->type = type, t->src[0] = src;
    memcpy(t->ne, shape, sizeof t->ne);
    if (nb) memcpy(t->nb, strides, sizeof t->nb);
    else contiguous(g, t);
    /* ggml resolves a view of a view to the tensor that owns the memory */
    t->view_src = g->t[src].view_src >= 0 ? g->t[src].view_src : src;
    return i;
}

/* ggml_visit_parents without recursion (graphs of hundreds of layers are
 * chains thousands of tensors deep). */
void lgg__g_expand(g_graph *g, int32_t root) {
    if (g->failed || root < 0) return;
    int32_t *stack = g->stack; /* each tensor is pushed once at most: 2 * n entries */
    size_t sp = 0;
    if (g->kind_of[root] == 0) stack[sp++] = root, stack[sp++] = 0;
    while (sp) {
        int32_t t = stack[sp - 2], s = stack[sp - 1];
        if (s == 0 && g->kind_of[t] == 0) g->kind_of[t] = 3; /* entered: ggml's hash insert */
        if (s < 4) {
            stack[sp - 1] = s + 1;
            int32_t p = g->t[t].src[s];
            if (p >= 0 && g->kind_of[p] == 0) stack[sp++] = p, stack[sp++] = 0;
            continue;
        }
        sp -= 2;
        if (g->t[t].kind == G_LEAF) g->kind_of[t] = 2, g->leafs[g->n_leafs++] = t;
        else g->kind_of[t] = 1, g->nodes[g->n_nodes++] = t;
    }
}

/* ---- the allocator (ggml_dyn_tallocr) ------------------------------------ */

typedef struct g_block {
    uint64_t offset, size;
} g_block;

typedef struct g_alloc {
    const lgg_allocator *al;
    g_block *b;
    size_t n, cap;
    uint64_t max_size;
    bool failed;
    bool nomem; /* failed for want of memory, not of room */
} g_alloc;

static uint64_t aligned(uint64_t size) { return (size + G_ALIGN - 1) / G_ALIGN * G_ALIGN; }

static uint64_t a_alloc(g_alloc *a, uint64_t size) {
    size = aligned(size);
    size_t best = a->n - 1;
    uint64_t best_size = UINT64_MAX;
    bool found = false;
    for (size_t i = 0; i + 1 < a->n; i++) /* the best fit among all but the last block */
        if (a->b[i].size >= size && a->b[i].size <= best_size) best = i, best_size = a->b[i].size, found = true;
    if (!found && a->b[a->n - 1].size < size) { /* the last block is (almost) unbounded */
        a->failed = true;
        return 0;
    }
    g_block *blk = &a->b[best];
    uint64_t offset = blk->offset;
    blk->offset += size;
    blk->size -= size;
    if (blk->size == 0) {
        memmove(blk, blk + 1, (a->n - best - 1) * sizeof *blk);
        a->n--;
    }
    if (offset + size > a->max_size) a->max_size = offset + size;
    return offset;
}

static void a_free(g_alloc *a, uint64_t offset, uint64_t size) {
    size = aligned(size);
    for (size_t i = 0; i < a->n; i++) {
        g_block *blk = &a->b[i];
        if (blk->offset + blk->size == offset) { /* at the end of a free block */
            blk->size += size;
            if (i + 1 < a->n && blk->offset + blk->size == a->b[i + 1].offset) {
                blk->size += a->b[i + 1].size;
                memmove(&a->b[i + 1], &a->b[i + 2], (a->n - i - 2) * sizeof *blk);
                a->n--;
            }
            return;
        }
        if (offset + size == blk->offset) { /* at the start of one */
            blk->offset = offset;
            blk->size += size;
            if (i > 0 && a->b[i - 1].offset + a->b[i - 1].size == blk->offset) {
                a->b[i - 1].size += blk->size;
                memmove(&a->b[i], &a->b[i + 1], (a->n - i - 1) * sizeof *blk);
                a->n--;
            }
            return;
        }
    }
    if (a->n == a->cap) {
        size_t cap = a->cap * 2;
        g_block *b = lgg__realloc(a->al, a->b, a->cap * sizeof *b, cap * sizeof *b);
        if (!b) {
            a->failed = a->nomem = true;
            return;
        }
        a->b = b, a->cap = cap;
    }
    size_t at = 0;
    while (at < a->n && a->b[at].offset < offset) at++;
    memmove(&a->b[at + 1], &a->b[at], (a->n - at) * sizeof *a->b);
    a->b[at].offset = offset, a->b[at].size = size;
    a->n++;
}

/* ---- the graph pass (ggml_gallocr_alloc_graph_impl) ----------------------- */

typedef struct g_hash {
    int32_t n_children, n_views;
    bool allocated;
    uint64_t offset;
} g_hash;

typedef struct g_pass {
    g_graph *g;
    g_hash *h;
    g_alloc a;
} g_pass;

static uint64_t nbytes(const g_tensor *t) {
    uint64_t n = t->nb[3];
    return lgg__mul_ovf(n, (uint64_t)t->ne[3], &n) ? UINT64_MAX : n; /* contiguous: nb[3] * ne[3] */
}

static bool same_layout(const g_tensor *a, const g_tensor *b) {
    return a->type == b->type && !memcmp(a->ne, b->ne, sizeof a->ne) && !memcmp(a->nb, b->nb, sizeof a->nb);
}

static bool is_allocated(const g_pass *p, int32_t i) { return p->g->t[i].external || p->h[i].allocated; }

/* Take over a source's memory when ggml would; true when done.  A view is
 * never the compute buffer's own (ggml marks only the tensors it allocates),
 * so only a plain source qualifies. */
static bool reuse_parent(g_pass *p, int32_t i) {
    const g_tensor *t = &p->g->t[i];
    for (int s = 0; s < 4; s++) {
        int32_t q = t->src[s];
        if (q < 0 || !p->h[q].allocated || !same_layout(t, &p->g->t[q])) continue;
        if (p->h[q].n_children != 1 || p->h[q].n_views != 0) continue;
        p->h[i].offset = p->h[q].offset;
        p->h[q].allocated = false; /* the parent is not freed: its memory is the node's now */
        return true;
    }
    return false;
}

static void allocate(g_pass *p, int32_t i) {
    const g_tensor *t = &p->g->t[i];
    if (is_allocated(p, i) || t->view_src >= 0) return;
    p->h[i].allocated = true;
    if (t->kind == G_INPLACE && reuse_parent(p, i)) return;
    uint64_t size = nbytes(t);
    if (size > UINT64_MAX / 4) {
        p->a.failed = true;
        return;
    }
    p->h[i].offset = a_alloc(&p->a, size);
}

static void release(g_pass *p, int32_t i) {
    a_free(&p->a, p->h[i].offset, nbytes(&p->g->t[i]));
    p->h[i].allocated = false;
}

/* After node i has run: free what it was the last reader of. */
static void update_parents(g_pass *p, int32_t i) {
    for (int s = 0; s < 4; s++) {
        int32_t q = p->g->t[i].src[s];
        if (q < 0) continue;
        g_hash *ph = &p->h[q];
        ph->n_children--;
        if (ph->n_children != 0 || ph->n_views != 0) continue;
        int32_t vs = p->g->t[q].view_src;
        if (vs >= 0) {
            g_hash *vh = &p->h[vs];
            vh->n_views--;
            if (vh->n_views == 0 && vh->n_children == 0 && vh->allocated) release(p, vs);
        } else if (ph->allocated) {
            release(p, q);
        }
    }
}

lgg_status lgg__g_reserve(g_graph *g, uint64_t *size) {
    *size = 0;
    if (g->failed) return g->nomem ? LGG_ERR_NOMEM : LGG_ERR_RANGE;
    g_pass p = {g, lgg__calloc(g->a, g->n ? g->n : 1, sizeof *p.h), {g->a, NULL, 1, 64, 0, false, false}};
    p.a.b = lgg__alloc(g->a, p.a.cap * sizeof *p.a.b);
    if (!p.h || !p.a.b) {
        lgg__free(g->a, p.h), lgg__free(g->a, p.a.b);
        return LGG_ERR_NOMEM;
    }
    p.a.b[0].offset = 0, p.a.b[0].size = UINT64_MAX / 2;
    for (size_t k = 0; k < g->n_leafs; k++) allocate(&p, g->leafs[k]);
    for (size_t k = 0; k < g->n_nodes; k++) {
        const g_tensor *t = &g->t[g->nodes[k]];
        if (t->view_src >= 0) p.h[t->view_src].n_views++;
        if (t->input) allocate(&p, g->nodes[k]);
        for (int s = 0; s < 4; s++) {
            if (t->src[s] < 0) continue;
            p.h[t->src[s]].n_children++;
            if (g->t[t->src[s]].input) allocate(&p, t->src[s]);
        }
    }
    for (size_t k = 0; k < g->n_nodes && !p.a.failed; k++) {
        int32_t i = g->nodes[k];
        for (int s = 0; s < 4; s++)
            if (g->t[i].src[s] >= 0) allocate(&p, g->t[i].src[s]);
        allocate(&p, i);
        update_parents(&p, i);
    }
    lgg_status st = p.a.nomem ? LGG_ERR_NOMEM : p.a.failed ? LGG_ERR_RANGE : LGG_OK;
    *size = p.a.max_size;
    lgg__free(g->a, p.h);
    lgg__free(g->a, p.a.b);
    return st;
}
