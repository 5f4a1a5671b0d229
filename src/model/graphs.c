/* graphs.c -- llama.cpp b4747's compute graphs, rebuilt tensor by tensor in
 * the order its builders (src/llama.cpp: build_llama, build_qwen2,
 * llm_build_kv, llm_build_kqv, llm_build_ffn) create them, for the
 * allocator replica in galloc.c.  Only what decides memory is kept: each
 * operation's result shape and type, its sources, whether it is a view and
 * whether ggml may run it in place. */
#include "model/galloc.h"

#define F32 LGG_TYPE_F32
#define F16 LGG_TYPE_F16
#define I32 LGG_TYPE_I32
#define NONE (-1)

typedef struct gb {
    g_graph *g;
    const g_model *m;
    int32_t cache; /* the KV cache, outside the compute buffer */
} gb;

static const g_tensor *T_(const gb *b, int32_t i) {
    static const g_tensor none = {{1, 1, 1, 1}, {4, 4, 4, 4}, 0, 0, 0, 0, {-1, -1, -1, -1}, -1};
    return i >= 0 ? &b->g->t[i] : &none;
}

static int32_t same_as(gb *b, uint8_t kind, int32_t a, int32_t s1, int32_t s2) {
    return lgg__g_op(b->g, kind, T_(b, a)->type, T_(b, a)->ne, a, s1, s2, NONE);
}

/* ggml_mul_mat(w, x): F32 [w.ne1, x.ne1, x.ne2, x.ne3]. */
static int32_t mul_mat(gb *b, int32_t w, int32_t x) {
    const g_tensor *a = T_(b, w), *c = T_(b, x);
    int64_t ne[4] = {a->ne[1], c->ne[1], c->ne[2], c->ne[3]};
    return lgg__g_op(b->g, G_NEW, F32, ne, w, x, NONE, NONE);
}

/* A weight matrix of ne0 x ne1: a leaf with data of its own. */
static int32_t weight(gb *b, int64_t ne0, int64_t ne1) {
    int32_t w = lgg__g_external(b->g);
    if (w >= 0) b->g->t[w].ne[0] = ne0, b->g->t[w].ne[1] = ne1;
    return w;
}

static int32_t reshape(gb *b, int32_t a, int64_t ne0, int64_t ne1, int64_t ne2) {
    int64_t ne[4] = {ne0, ne1, ne2, 1};
    return lgg__g_view(b->g, a, T_(b, a)->type, ne, NULL);
}

/* ggml_permute(a, 0, 2, 1, 3) and ggml_transpose(a): views with axes swapped. */
static int32_t swap_axes(gb *b, int32_t a, int d0, int d1) {
    const g_tensor *t = T_(b, a);
    int64_t ne[4];
    uint64_t nb[4];
    memcpy(ne, t->ne, sizeof ne);
    memcpy(nb, t->nb, sizeof nb);
    ne[d0] = t->ne[d1], ne[d1] = t->ne[d0], nb[d0] = t->nb[d1], nb[d1] = t->nb[d0];
    return lgg__g_view(b->g, a, t->type, ne, nb);
}

/* A view of the KV cache (its shape is what the graph reads). */
static int32_t cache_view(gb *b, uint32_t type, int64_t ne0, int64_t ne1, int64_t ne2) {
    int64_t ne[4] = {ne0, ne1, ne2, 1};
    return lgg__g_view(b->g, b->cache, type, ne, NULL);
}

/* ggml_cpy(a, dst): a view of dst that reads a. */
static int32_t cpy(gb *b, int32_t a, int32_t dst) {
    int32_t r = lgg__g_view(b->g, dst, T_(b, dst)->type, T_(b, dst)->ne, T_(b, dst)->nb);
    if (r >= 0) b->g->t[r].src[0] = a, b->g->t[r].src[1] = dst;
    return r;
}

/* llm_build_norm with an RMS norm and a weight. */
static int32_t norm(gb *b, int32_t x) {
    int32_t n = same_as(b, G_INPLACE, x, NONE, NONE);
    return same_as(b, G_INPLACE, n, weight(b, b->m->n_embd, 1), NONE);
}

/* A projection, plus its bias when the model has one. */
static int32_t proj(gb *b, int32_t x, int64_t rows, bool bias) {
    int32_t r = mul_mat(b, weight(b, b->m->n_embd, rows), x);
    return bias ? same_as(b, G_INPLACE, r, weight(b, rows, 1), NONE) : r;
}

typedef struct inputs {
    int32_t pos, mask, out_ids;
} inputs;

/* llm_build_kv: the K and V stores, attention over the cache, the output
 * projection.  Returns the projected attention output. */
static int32_t attention(gb *b, const inputs *in, int32_t cur, uint32_t il) {
    const g_model *m = b->m;
    const int64_t T = (int64_t)m->n_tokens, kv = (int64_t)m->n_kv, H = m->n_head[il], Hkv = m->n_head_kv[il];
    const int64_t hk = m->head_k, hv = m->head_v;
    int32_t q = proj(b, cur, H * hk, m->bias_q), k = proj(b, cur, Hkv * hk, m->bias_k);
    int32_t v = proj(b, cur, Hkv * hv, m->bias_v);
    q = same_as(b, G_INPLACE, reshape(b, q, hk, H, T), in->pos, NONE);
    k = same_as(b, G_INPLACE, reshape(b, k, hk, Hkv, T), in->pos, NONE);
    lgg__g_expand(b->g, q);
    lgg__g_expand(b->g, k);
    lgg__g_expand(b->g, v);
    lgg__g_expand(b->g, cpy(b, k, cache_view(b, m->type_k, Hkv * hk * T, 1, 1)));
    if (m->flash_attn) {
        lgg__g_expand(b->g, cpy(b, v, cache_view(b, m->type_v, Hkv * hv * T, 1, 1)));
    } else {
        int32_t vt = swap_axes(b, v, 0, 1);
        lgg__g_expand(b->g, cpy(b, vt, cache_view(b, m->type_v, T, Hkv * hv, 1)));
    }
    int32_t qp = swap_axes(b, q, 1, 2), kc = cache_view(b, m->type_k, hk, kv, Hkv), out;
    if (m->flash_attn) {
        int32_t vc = cache_view(b, m->type_v, hv, kv, Hkv);
        int64_t ne[4] = {hv, H, T, 1};
        out = lgg__g_op(b->g, G_NEW, F32, ne, qp, kc, vc, in->mask);
        out = reshape(b, out, hv * H, T, 1);
    } else {
        int32_t kq = mul_mat(b, kc, qp);
        kq = same_as(b, G_INPLACE, kq, in->mask, NONE);
        int32_t vc = cache_view(b, m->type_v, kv, hv, Hkv);
        int32_t kqv = swap_axes(b, mul_mat(b, vc, kq), 1, 2);
        int64_t ne[4] = {hv * H, T, 1, 1};
        out = lgg__g_op(b->g, G_NEW, F32, ne, kqv, NONE, NONE, NONE);
    }
    lgg__g_expand(b->g, out);
    int32_t o = mul_mat(b, weight(b, hv * H, (int64_t)m->n_embd), out);
    return m->bias_o ? same_as(b, G_INPLACE, o, weight(b, (int64_t)m->n_embd, 1), NONE) : o;
}

/* llm_build_ffn with SiLU and a parallel gate. */
static int32_t ffn(gb *b, int32_t cur, uint32_t il) {
    const int64_t E = (int64_t)b->m->n_embd, F = b->m->n_ff[il];
    int32_t up = mul_mat(b, weight(b, E, F), cur);
    int32_t gate = mul_mat(b, weight(b, E, F), cur);
    gate = same_as(b, G_INPLACE, gate, NONE, NONE);
    int32_t par = same_as(b, G_INPLACE, gate, up, NONE);
    return mul_mat(b, weight(b, F, E), par);
}

static inputs make_inputs(gb *b) {
    const g_model *m = b->m;
    const int64_t T = (int64_t)m->n_tokens;
    inputs in;
    in.pos = lgg__g_input(b->g, I32, T, 1);
    in.mask = lgg__g_input(b->g, F32, (int64_t)m->n_kv, (T + 63) / 64 * 64);
    if (m->flash_attn) { /* ggml_cast: a copy whose second source is itself */
        const g_tensor *mk = T_(b, in.mask);
        int32_t c = lgg__g_op(b->g, G_NEW, F16, mk->ne, in.mask, NONE, NONE, NONE);
        if (c >= 0) b->g->t[c].src[1] = c;
        in.mask = c;
    }
    in.out_ids = -1;
    return in;
}

lgg_status lgg__g_llama_compute(const g_model *m, uint64_t *bytes) {
    g_graph g;
    lgg__g_init(&g);
    gb b = {&g, m, lgg__g_external(&g)};
    const int64_t T = (int64_t)m->n_tokens;
    int32_t tokens = lgg__g_input(&g, I32, T, 1);
    int64_t ne_e[4] = {(int64_t)m->n_embd, T, 1, 1};
    int32_t inpL = lgg__g_op(&g, G_NEW, F32, ne_e, weight(&b, (int64_t)m->n_embd, (int64_t)m->n_vocab), tokens, NONE, NONE);
    inputs in = make_inputs(&b);
    for (uint32_t il = 0; il < m->n_layer && !g.failed; il++) {
        int32_t inpSA = inpL;
        int32_t cur = attention(&b, &in, norm(&b, inpL), il);
        if (il + 1 == m->n_layer) { /* only the tokens that produce output go on */
            in.out_ids = lgg__g_input(&g, I32, T, 1);
            cur = lgg__g_op(&g, G_NEW, F32, ne_e, cur, in.out_ids, NONE, NONE);
            inpSA = lgg__g_op(&g, G_NEW, F32, ne_e, inpSA, in.out_ids, NONE, NONE);
        }
        int32_t ffn_inp = same_as(&b, G_INPLACE, cur, inpSA, NONE);
        cur = ffn(&b, norm(&b, ffn_inp), il);
        inpL = same_as(&b, G_INPLACE, cur, ffn_inp, NONE);
    }
    int32_t out = mul_mat(&b, weight(&b, (int64_t)m->n_embd, (int64_t)m->n_vocab), norm(&b, inpL));
    lgg__g_expand(&g, out);
    lgg_status st = lgg__g_reserve(&g, bytes);
    lgg__g_free(&g);
    return st;
}
