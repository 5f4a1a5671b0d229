/* graphs.c -- llama.cpp b4747's compute graphs, rebuilt tensor by tensor as
 * its builders (src/llama.cpp: build_llama, build_qwen2, build_qwen2moe,
 * build_gemma, build_gemma2, build_phi3, build_deepseek2, and the
 * llm_build_kv, llm_build_kqv, llm_build_ffn and llm_build_moe_ffn they
 * share) create them, for the allocator replica in
 * galloc.c.  Only what decides memory is kept: each operation's result shape
 * and type, its sources in order, whether it is a view and whether ggml may
 * run it in place.  The builders differ in a few places, marked by layout:
 *
 *   gemma, gemma2  embeddings scaled; Q scaled after RoPE; GELU (the same
 *                  memory as SiLU); gemma2 also norms after attention and
 *                  after the FFN, soft-caps the attention scores and the
 *                  logits, and gives its even layers a second (SWA) mask;
 *   phi3           one fused QKV projection copied out into Q, K and V; Q
 *                  scaled after RoPE; one up projection of 2 x n_ff whose
 *                  halves are copied out (SwiGLU); the second residual add
 *                  takes the residual first;
 *   experts        llm_build_moe_ffn (router, top-k, the chosen experts,
 *                  their weighted sum), plus qwen2moe's gated shared expert;
 *   deepseek2      latent attention: Q through its low-rank pair (but for the
 *                  27-layer lite model), K and V decompressed from a shared
 *                  latent, RoPE on their last n_rot dimensions, concatenated
 *                  back; leading dense layers, then experts with ungated
 *                  shared ones. */
#include "model/galloc.h"

#define F32 LGG_TYPE_F32
#define F16 LGG_TYPE_F16
#define I32 LGG_TYPE_I32
#define NONE (-1)

typedef struct gb {
    g_graph *g;
    const g_model *m;
    int32_t cache;          /* the KV cache, outside the compute buffer */
    int32_t pos;            /* the graph's inputs: positions, */
    int32_t mask, mask_swa; /* the KQ masks (mask_swa: gemma2's even layers) */
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

static int32_t view4(gb *b, int32_t a, uint32_t type, int64_t ne0, int64_t ne1, int64_t ne2, const uint64_t *nb) {
    int64_t ne[4] = {ne0, ne1, ne2, 1};
    return lgg__g_view(b->g, a, type, ne, nb);
}

/* An F32 view with row strides nb1 and nb2. */
static int32_t view3(gb *b, int32_t a, int64_t ne0, int64_t ne1, int64_t ne2, uint64_t nb1, uint64_t nb2) {
    const uint64_t nb[4] = {4, nb1, nb2, nb2 * (uint64_t)ne2};
    return view4(b, a, F32, ne0, ne1, ne2, nb);
}

/* ggml_cont. */
static int32_t cont(gb *b, int32_t a) { return lgg__g_op(b->g, G_NEW, F32, T_(b, a)->ne, a, NONE, NONE, NONE); }

/* A copy of `rows` columns of every row of the 2-D x: ggml_cont of a
 * ggml_view_2d (which columns does not change the memory). */
static int32_t cont_rows(gb *b, int32_t x, int64_t rows) {
    const uint64_t nb1 = T_(b, x)->nb[1];
    return cont(b, view3(b, x, rows, T_(b, x)->ne[1], 1, nb1, nb1 * (uint64_t)T_(b, x)->ne[1]));
}

/* Q, K and V of the batch (before RoPE). */
static void qkv(gb *b, int32_t cur, uint32_t il, int32_t *q, int32_t *k, int32_t *v) {
    const g_model *m = b->m;
    const int64_t H = m->n_head[il], Hkv = m->n_head_kv[il], hk = m->head_k, hv = m->head_v;
    if (m->layout == G_PHI3) {
        int32_t f = mul_mat(b, weight(b, (int64_t)m->n_embd, H * hk + Hkv * (hk + hv)), cur);
        *q = cont_rows(b, f, H * hk), *k = cont_rows(b, f, Hkv * hk), *v = cont_rows(b, f, Hkv * hv);
        return;
    }
    *q = proj(b, cur, H * hk, m->bias_q), *k = proj(b, cur, Hkv * hk, m->bias_k), *v = proj(b, cur, Hkv * hv, m->bias_v);
}

/* build_deepseek2's Q, K and V states: (head_k, H, T), (head_k, H, T) and
 * (head_v * H, T). */
static void mla(gb *b, int32_t cur, uint32_t il, int32_t *qs, int32_t *ks, int32_t *vs) {
    const g_model *m = b->m;
    const int64_t E = (int64_t)m->n_embd, T = (int64_t)m->n_tokens, H = m->n_head[il], hk = m->head_k;
    const int64_t hv = m->head_v, rot = m->n_rot, nope = hk - rot, kvl = m->kv_lora;
    int32_t q;
    if (m->q_lora) {
        q = mul_mat(b, weight(b, E, m->q_lora), cur);
        q = same_as(b, G_INPLACE, same_as(b, G_INPLACE, q, NONE, NONE), weight(b, m->q_lora, 1), NONE); /* its norm */
        q = mul_mat(b, weight(b, m->q_lora, H * hk), q);
    } else {
        q = mul_mat(b, weight(b, E, H * hk), cur);
    }
    int32_t q_nope = view3(b, q, nope, H, T, (uint64_t)hk * 4, (uint64_t)(hk * H) * 4);
    int32_t q_pe = view3(b, q, rot, H, T, (uint64_t)hk * 4, (uint64_t)(hk * H) * 4);
    int32_t kvpc = mul_mat(b, weight(b, E, kvl + rot), cur);
    const uint64_t nb1 = T_(b, kvpc)->nb[1];
    int32_t kvc = cont(b, view3(b, kvpc, kvl, T, 1, nb1, nb1 * (uint64_t)T));
    int32_t k_pe = view3(b, kvpc, rot, 1, T, nb1, nb1);
    kvc = same_as(b, G_INPLACE, same_as(b, G_INPLACE, kvc, NONE, NONE), weight(b, kvl, 1), NONE); /* its norm */
    int32_t kv = mul_mat(b, weight(b, kvl, H * (nope + hv)), kvc);
    int32_t k_nope = view3(b, kv, nope, H, T, (uint64_t)(nope + hv) * 4, (uint64_t)((nope + hv) * H) * 4);
    int32_t v = cont(b, view3(b, kv, hv, H, T, (uint64_t)(nope + hv) * 4, (uint64_t)((nope + hv) * H) * 4));
    *vs = view3(b, v, hv * H, T, 1, (uint64_t)(hv * H) * 4, (uint64_t)(hv * H * T) * 4);
    q_pe = same_as(b, G_INPLACE, cont(b, q_pe), b->pos, NONE);  /* RoPE */
    k_pe = same_as(b, G_INPLACE, cont(b, k_pe), b->pos, NONE);
    int64_t ne_s[4] = {hk, H, T, 1};
    *qs = lgg__g_op(b->g, G_NEW, F32, ne_s, q_nope, q_pe, NONE, NONE); /* ggml_concat */
    int32_t rep = lgg__g_op(b->g, G_NEW, F32, T_(b, q_pe)->ne, k_pe, NONE, NONE, NONE); /* ggml_repeat to q_pe's shape */
    *ks = lgg__g_op(b->g, G_NEW, F32, ne_s, k_nope, rep, NONE, NONE);
}

/* KQ, soft-capped for gemma2, then its softmax. */
static int32_t scores(gb *b, int32_t kc, int32_t qp, int32_t mask) {
    int32_t kq = mul_mat(b, kc, qp);
    if (b->m->layout == G_GEMMA2) {
        kq = same_as(b, G_INPLACE, kq, NONE, NONE); /* scale, tanh, scale */
        kq = same_as(b, G_INPLACE, kq, NONE, NONE);
        kq = same_as(b, G_INPLACE, kq, NONE, NONE);
    }
    return same_as(b, G_INPLACE, kq, mask, NONE);
}

/* llm_build_kv: the K and V stores, attention over the cache, the output
 * projection.  Returns the projected attention output. */
static int32_t attention(gb *b, int32_t cur, uint32_t il) {
    const g_model *m = b->m;
    const int64_t T = (int64_t)m->n_tokens, kv = (int64_t)m->n_kv, H = m->n_head[il], Hkv = m->n_head_kv[il];
    const int64_t hk = m->head_k, hv = m->head_v;
    int32_t q, k, v;
    if (m->layout == G_DEEPSEEK2) {
        mla(b, cur, il, &q, &k, &v);
    } else {
        qkv(b, cur, il, &q, &k, &v);
        q = same_as(b, G_INPLACE, reshape(b, q, hk, H, T), b->pos, NONE);
        if (m->layout != G_LLAMA) q = same_as(b, G_INPLACE, q, NONE, NONE); /* Q scaled after RoPE */
        k = same_as(b, G_INPLACE, reshape(b, k, hk, Hkv, T), b->pos, NONE);
    }
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
    int32_t mask = m->layout == G_GEMMA2 && il % 2 == 0 ? b->mask_swa : b->mask;
    int32_t qp = swap_axes(b, q, 1, 2), kc = cache_view(b, m->type_k, hk, kv, Hkv), out;
    if (m->flash_attn) {
        int32_t vc = cache_view(b, m->type_v, hv, kv, Hkv);
        int64_t ne[4] = {hv, H, T, 1};
        out = lgg__g_op(b->g, G_NEW, F32, ne, qp, kc, vc, mask);
        out = reshape(b, out, hv * H, T, 1);
    } else {
        int32_t kq = scores(b, kc, qp, mask);
        int32_t vc = cache_view(b, m->type_v, kv, hv, Hkv);
        int32_t kqv = swap_axes(b, mul_mat(b, vc, kq), 1, 2);
        int64_t ne[4] = {hv * H, T, 1, 1};
        out = lgg__g_op(b->g, G_NEW, F32, ne, kqv, NONE, NONE, NONE);
    }
    lgg__g_expand(b->g, out);
    int32_t o = mul_mat(b, weight(b, hv * H, (int64_t)m->n_embd), out);
    return m->bias_o ? same_as(b, G_INPLACE, o, weight(b, (int64_t)m->n_embd, 1), NONE) : o;
}

/* llm_build_ffn of width F: SiLU or GELU with a parallel gate, or (phi3)
 * SwiGLU over one up projection of 2 x F. */
static int32_t ffn(gb *b, int32_t cur, int64_t F) {
    const int64_t E = (int64_t)b->m->n_embd;
    if (b->m->layout == G_PHI3) {
        int32_t up = mul_mat(b, weight(b, E, 2 * F), cur);
        int32_t x0 = same_as(b, G_INPLACE, cont_rows(b, up, F), NONE, NONE);
        int32_t x = same_as(b, G_INPLACE, x0, cont_rows(b, up, F), NONE);
        return mul_mat(b, weight(b, F, E), x);
    }
    int32_t up = mul_mat(b, weight(b, E, F), cur);
    int32_t gate = mul_mat(b, weight(b, E, F), cur);
    gate = same_as(b, G_INPLACE, gate, NONE, NONE);
    int32_t par = same_as(b, G_INPLACE, gate, up, NONE);
    return mul_mat(b, weight(b, F, E), par);
}

/* llm_build_moe_ffn with SiLU experts: a softmax or (deepseek2) sigmoid
 * router, optionally a selection bias, renormalized and scaled weights. */
static int32_t moe(gb *b, int32_t cur) {
    const g_model *m = b->m;
    const int64_t E = (int64_t)m->n_embd, T = (int64_t)m->n_tokens, X = m->n_expert, K = m->n_expert_used;
    const int64_t F = m->n_ff_exp;
    int32_t probs = same_as(b, G_INPLACE, mul_mat(b, weight(b, E, X), cur), NONE, NONE); /* softmax or sigmoid */
    int32_t pick = m->probs_bias ? same_as(b, G_INPLACE, probs, weight(b, X, 1), NONE) : probs;
    int64_t ne_x[4] = {X, T, 1, 1};
    int32_t sorted = lgg__g_op(b->g, G_NEW, I32, ne_x, pick, NONE, NONE, NONE); /* ggml_top_k: argsort, */
    int32_t sel = view4(b, sorted, I32, K, T, 1, T_(b, sorted)->nb);             /* then its first k */
    int64_t ne_w[4] = {1, K, T, 1};
    int32_t w = lgg__g_op(b->g, G_NEW, F32, ne_w, reshape(b, probs, 1, X, T), sel, NONE, NONE);
    if (m->norm_w) {
        int32_t w2 = reshape(b, w, K, T, 1);
        int64_t ne_s[4] = {1, T, 1, 1};
        int32_t sum = lgg__g_op(b->g, G_NEW, F32, ne_s, w2, NONE, NONE, NONE);
        w = reshape(b, same_as(b, G_INPLACE, w2, sum, NONE), 1, K, T);
    }
    if (m->scale_w) w = same_as(b, G_INPLACE, w, NONE, NONE);
    int32_t c3 = reshape(b, cur, E, 1, T);
    int64_t ne_f[4] = {F, K, T, 1}, ne_e[4] = {E, K, T, 1};
    int32_t up = lgg__g_op(b->g, G_NEW, F32, ne_f, weight(b, E, F), c3, sel, NONE);
    int32_t gate = lgg__g_op(b->g, G_NEW, F32, ne_f, weight(b, E, F), c3, sel, NONE);
    int32_t par = same_as(b, G_INPLACE, up, same_as(b, G_INPLACE, gate, NONE, NONE), NONE);
    int32_t ex = lgg__g_op(b->g, G_NEW, F32, ne_e, weight(b, F, E), par, sel, NONE);
    ex = same_as(b, G_INPLACE, ex, w, NONE);
    const g_tensor *et = T_(b, ex);
    uint64_t nb[4] = {et->nb[0], et->nb[2], et->nb[2] * (uint64_t)T, et->nb[2] * (uint64_t)T};
    int32_t out = view4(b, ex, F32, E, T, 1, nb);
    for (int64_t i = 1; i < K; i++) {
        int32_t v = view4(b, ex, F32, E, T, 1, nb);
        int64_t ne2[4] = {E, T, 1, 1};
        out = lgg__g_op(b->g, G_INPLACE, F32, ne2, out, v, NONE, NONE);
    }
    if (K == 1) out = cont(b, out);
    return out;
}

/* qwen2moe's shared expert, scaled by the sigmoid of its gate. */
static int32_t shared_expert(gb *b, int32_t cur) {
    int32_t gi = mul_mat(b, weight(b, (int64_t)b->m->n_embd, 1), cur);
    int32_t g = same_as(b, G_INPLACE, same_as(b, G_INPLACE, gi, NONE, NONE), gi, NONE); /* silu(x) / x */
    return same_as(b, G_INPLACE, ffn(b, cur, b->m->n_ff_shexp), g, NONE);
}

/* ggml_cast(mask, F16) with flash attention: a copy whose second source is
 * itself. */
static int32_t mask_input(gb *b) {
    const g_model *m = b->m;
    int32_t mask = lgg__g_input(b->g, F32, (int64_t)m->n_kv, ((int64_t)m->n_tokens + 63) / 64 * 64);
    if (!m->flash_attn) return mask;
    int32_t c = lgg__g_op(b->g, G_NEW, F16, T_(b, mask)->ne, mask, NONE, NONE, NONE);
    if (c >= 0) b->g->t[c].src[1] = c;
    return c;
}

/* One layer: attention and FFN with their norms and residual adds. */
static int32_t layer(gb *b, int32_t inpL, uint32_t il) {
    const g_model *m = b->m;
    const int64_t ne_e[4] = {(int64_t)m->n_embd, (int64_t)m->n_tokens, 1, 1};
    int32_t res = inpL;
    int32_t cur = attention(b, norm(b, inpL), il);
    if (m->layout == G_GEMMA2) cur = norm(b, cur);
    if (il + 1 == m->n_layer) { /* only the tokens that produce output go on */
        int32_t out_ids = lgg__g_input(b->g, I32, (int64_t)m->n_tokens, 1);
        cur = lgg__g_op(b->g, G_NEW, F32, ne_e, cur, out_ids, NONE, NONE);
        res = lgg__g_op(b->g, G_NEW, F32, ne_e, res, out_ids, NONE, NONE);
    }
    int32_t ffn_inp = same_as(b, G_INPLACE, cur, res, NONE);
    int32_t normed = norm(b, ffn_inp);
    if (m->n_expert > 0 && il >= m->n_dense_lead) {
        cur = moe(b, normed);
        if (m->n_ff_shexp && m->layout == G_DEEPSEEK2) cur = same_as(b, G_INPLACE, cur, ffn(b, normed, m->n_ff_shexp), NONE);
        else if (m->n_ff_shexp) cur = same_as(b, G_INPLACE, cur, shared_expert(b, normed), NONE);
    } else {
        cur = ffn(b, normed, m->n_ff[il]);
    }
    if (m->layout == G_GEMMA2) cur = norm(b, cur);
    return m->layout == G_PHI3 ? same_as(b, G_INPLACE, ffn_inp, cur, NONE) : same_as(b, G_INPLACE, cur, ffn_inp, NONE);
}

lgg_status lgg__g_compute(const g_model *m, uint64_t *bytes) {
    g_graph g;
    lgg__g_init(&g, m->alloc);
    gb b = {&g, m, lgg__g_external(&g), -1, -1, -1};
    const int64_t T = (int64_t)m->n_tokens, E = (int64_t)m->n_embd;
    int32_t tokens = lgg__g_input(&g, I32, T, 1);
    int64_t ne_e[4] = {E, T, 1, 1};
    int32_t inpL = lgg__g_op(&g, G_NEW, F32, ne_e, weight(&b, E, (int64_t)m->n_vocab), tokens, NONE, NONE);
    if (m->layout == G_GEMMA || m->layout == G_GEMMA2) inpL = same_as(&b, G_INPLACE, inpL, NONE, NONE);
    b.pos = lgg__g_input(&g, I32, T, 1);
    b.mask = mask_input(&b);
    if (m->layout == G_GEMMA2) b.mask_swa = mask_input(&b);
    for (uint32_t il = 0; il < m->n_layer && !g.failed; il++) inpL = layer(&b, inpL, il);
    int32_t out = mul_mat(&b, weight(&b, E, (int64_t)m->n_vocab), norm(&b, inpL));
    if (m->layout == G_GEMMA2) { /* soft-capped logits: scale, tanh, scale */
        for (int k = 0; k < 3; k++) out = same_as(&b, G_INPLACE, out, NONE, NONE);
    }
    lgg__g_expand(&g, out);
    lgg_status st = lgg__g_reserve(&g, bytes);
    lgg__g_free(&g);
    return st;
}
