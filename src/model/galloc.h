/* galloc.h -- a replica of ggml's graph allocator (ggml-alloc.c, b4747) over
 * a description of a compute graph: tensor shapes, sources, views and which
 * operations may overwrite a source.  It gives the compute buffer llama.cpp
 * reserves for a graph, to the byte, from the graph alone (no data).
 *
 * The graph is built with the g_* calls in the order llama.cpp's builders
 * call ggml, and g_expand adds nodes in ggml_build_forward_expand's
 * depth-first order, which decides where each tensor lands in the buffer. */
#ifndef LGG_GALLOC_H
#define LGG_GALLOC_H

#include "base/internal.h"

/* What the allocator needs to know of an operation. */
enum {
    G_LEAF,    /* no operation: an input, a weight or a cache */
    G_VIEW,    /* reshape, view, permute, transpose, cpy: no memory of its own */
    G_INPLACE, /* may take over a source's memory (ggml_op_can_inplace) */
    G_NEW      /* always gets memory of its own */
};

typedef struct g_tensor {
    int64_t ne[4];
    uint64_t nb[4];
    uint32_t type;  /* LGG_TYPE_F32, F16, I32 ... */
    uint8_t kind;   /* G_* */
    uint8_t input;  /* ggml_set_input */
    uint8_t external; /* data outside the compute buffer (weights, KV cache) */
    int32_t src[4]; /* -1: none */
    int32_t view_src; /* the tensor whose memory a view uses, or -1 */
} g_tensor;

typedef struct g_graph {
    g_tensor *t;
    size_t n, cap;
    uint8_t *kind_of; /* per tensor: 0 not visited, 1 node, 2 leaf, 3 being visited */
    size_t n_nodes, n_leafs;
    int32_t *nodes, *leafs;
    int32_t *stack;   /* lgg__g_expand's depth-first walk (2 entries per tensor) */
    bool failed;      /* out of memory or a size overflow: the result is meaningless */
    bool nomem;       /* ... and it was an allocation that failed */
    const lgg_allocator *a; /* every allocation of the graph and of its sizing */
} g_graph;

void lgg__g_init(g_graph *g, const lgg_allocator *a);
void lgg__g_free(g_graph *g);

/* New tensors; each returns its index (or -1 with g->failed set). */
int32_t lgg__g_external(g_graph *g);                                     /* a weight or cache */
int32_t lgg__g_input(g_graph *g, uint32_t type, int64_t ne0, int64_t ne1); /* ggml_new_tensor_2d + set_input */
/* A contiguous result of `kind` (G_INPLACE or G_NEW) with up to four sources. */
int32_t lgg__g_op(g_graph *g, uint8_t kind, uint32_t type, const int64_t ne[4], int32_t s0, int32_t s1, int32_t s2,
                  int32_t s3);
/* A view of src with the given shape and strides (nb NULL: contiguous). */
int32_t lgg__g_view(g_graph *g, int32_t src, uint32_t type, const int64_t ne[4], const uint64_t *nb);

/* ggml_build_forward_expand(t). */
void lgg__g_expand(g_graph *g, int32_t t);

/* ggml_gallocr_reserve on the graph: the buffer's size (its peak), 32-byte
 * aligned allocations.  LGG_ERR_NOMEM or LGG_ERR_RANGE when the graph
 * could not be built or sized. */
lgg_status lgg__g_reserve(g_graph *g, uint64_t *size);

/* ---- llama.cpp's graphs (graphs.c) ---- */

/* The worst-case graph llama.cpp reserves (a batch of T tokens attending to
 * n_kv cells, every token producing logits) for the decoders whose
 * builders are rebuilt: build_llama and build_qwen2 (biases where the file
 * has them), build_gemma, build_gemma2 and build_phi3. */
enum { G_LLAMA, G_GEMMA, G_GEMMA2, G_PHI3, G_DEEPSEEK2 };
typedef struct g_model {
    uint8_t layout; /* G_* */
    uint32_t n_layer;
    uint64_t n_embd, n_vocab;
    const uint32_t *n_head, *n_head_kv, *n_ff; /* per layer */
    uint32_t head_k, head_v;
    uint32_t type_k, type_v;
    bool bias_q, bias_k, bias_v, bias_o;
    bool flash_attn;
    uint64_t n_tokens, n_kv;
    /* mixture of experts (n_expert > 0: every layer's FFN from n_dense_lead on) */
    uint32_t n_expert, n_expert_used, n_ff_exp;
    bool norm_w;         /* the chosen experts' weights renormalized (mixtral, some deepseek2) */
    uint32_t n_ff_shexp; /* shared experts' width (qwen2moe: one, gated), 0: none */
    uint32_t n_dense_lead;
    bool scale_w, sigmoid, probs_bias; /* deepseek2: weights scaled, sigmoid router, selection bias */
    /* deepseek2's latent attention: q_lora 0 without the Q compression (the lite model) */
    uint32_t q_lora, kv_lora, n_rot;
    const lgg_allocator *alloc; /* lgg_estimate_params.allocator */
} g_model;

/* The compute buffer of m's graph: LGG_OK and *bytes, or an error when the
 * graph cannot be sized. */
lgg_status lgg__g_compute(const g_model *m, uint64_t *bytes);

#endif
