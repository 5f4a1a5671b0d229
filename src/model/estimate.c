/* estimate.c -- the memory llama.cpp b4747 allocates to run a model, from the
 * header alone: weights, KV cache, output buffer, compute buffer, and their
 * split between the host and the devices (n_gpu_layers, and placement.c's
 * rules for several devices and tensor overrides).
 *
 * Weights, KV cache and output follow llama.cpp's allocation rules exactly;
 * the compute buffer is a model of ggml-alloc's peak (docs/estimate.md says
 * how it was derived and how close it is). */
#include "base/internal.h"
#include "format/file.h"
#include "model/galloc.h"
#include "model/mmproj.h"
#include "model/placement.h"

#include <stdio.h>

/* llama.cpp's LLAMA_MAX_LAYERS: a larger block_count is refused there too. */
#define MAX_LAYERS 512u
/* llama.cpp's LLAMA_MAX_EXPERTS (it asserts on more): b4747's, and master's (Qwen3-Next has 512) */
#define MAX_EXPERTS 256u
#define MAX_EXPERTS_MASTER 1024u
/* GGML_KQ_MASK_PAD: the mask's row count and the smallest n_batch. */
#define KQ_MASK_PAD 64u
/* Tensor alignment of ggml's CPU buffers. */
#define BUF_ALIGN 32u
/* and of a device's: CUDA's (ggml_backend_cuda_buffer_type_get_alignment); Metal's is 32, Vulkan's the
 * device's storage-buffer offset alignment (16 to 256) */
#define DEV_ALIGN 128u

/* The recurrent state's shape: none (attention only), Mamba's (conv and SSM states), RWKV's (token shift
 * and WKV states), LFM2's short convolution (a conv state alone), lightning (linear) attention's (MiniMax-01: an S
 * state of key_length x key_length per head, no R). */
enum { FAM_ATTN, FAM_MAMBA, FAM_RWKV, FAM_SHORTCONV, FAM_LINEAR };
/* Which layers of a recurrent or hybrid model hold a recurrent state, and which an attention KV cache
 * (llama_memory_hybrid's filters): every layer a state (mamba, rwkv); a state where head_count_kv is 0, the
 * cache elsewhere (jamba, granitehybrid, lfm2); both in every layer (falcon-h1); a state where head_count_kv
 * and feed_forward_length are 0, the cache where only the FFN size is 0, neither in FFN layers (nemotron_h). */
enum { LAYERS_STATE, LAYERS_KV0, LAYERS_BOTH, LAYERS_NEMOTRON, LAYERS_INTERVAL };
/* LAYERS_KV0 on an attention family (deci): the layers whose head_count_kv is 0 have no attention and no cache
 * (a linear replacement or nothing), and no state either. */
/* LAYERS_INTERVAL (qwen3next): attention every full_attention_interval-th layer (default 4), or where
 * attention.recurrent_layers says 0; the multi-token-prediction layers have neither. */
/* gate+up+down, or one up of 2*n_ff (phi3), or up and down alone (an encoder's: the others count a plain FFN as
 * gated) */
enum { FFN_GATED, FFN_FUSED_UP, FFN_PLAIN };
#define NO_GRAPH (-1)

/* What an architecture's graph and hyperparameters look like.  Only the
 * shapes the memory depends on are recorded. */
typedef struct arch_row {
    const char *name;
    uint8_t family;
    uint8_t ffn;
    bool qkv_fused;        /* one attn_qkv matrix: its output is one more tensor */
    bool swa;              /* sliding-window layers: b4747 still gives them a full-size cache */
    bool mla;              /* deepseek2: latent attention decompressed per head (K 192, V 128) */
    bool moe;              /* expert layers when expert_count > 0 */
    const char *expert_ff; /* key suffix of the experts' FFN size; NULL: feed_forward_length */
    const char *shared_ff; /* key suffix of the shared experts' FFN size, or NULL */
    int graph;             /* G_* of galloc.h: the compute buffer from llama.cpp's graph when dense and
                              on the host; NO_GRAPH: a model of its peaks */
    uint32_t swa_window;   /* master: the default attention.sliding_window (0: none unless the key says) */
    uint8_t swa_period;    /* master: the default attention.sliding_window_pattern; 0: every layer gets a
                              full-size cache in master too */
    bool nextn_skipped;    /* master loads none of the last nextn_predict_layers layers' tensors (the
                              multi-token-prediction layers; their KV cache is kept) */
    uint8_t layers;        /* LAYERS_*: for a family other than FAM_ATTN, which layers are recurrent */
    uint8_t encoder;       /* ENC_*: llama.cpp gives it no memory at all (no KV cache), each ubatch attends to
                              itself; non-causal (attention.causal false, or a diffusion model), its batch is -b
                              whatever the context */
    int8_t kv_from_start;  /* master: only the first N layers have a KV cache, the others reuse one of theirs
                              (gemma3n: 20); KV_SHARED_KEY: block_count less attention.shared_kv_layers */
    bool output_first;     /* master creates the tied output (a duplicate of token_embd) before token_embd itself:
                              without mmap both are allocated (gemma3n), with mmap they share the mapping */
    bool swa_full_first;   /* master: the full-attention layer opens each period of swa_period layers
                              (set_swa_pattern's dense_first: laguna, cohere2moe), not closes it */
    bool no_flash_attn;    /* master turns flash attention off whatever -fa says (grok) */
    uint8_t expert_rows;   /* the chosen experts' rows a token at the FFN's peak: 0 = 2 (gate and up); 3 where the
                              product is measured alive beside them (grok) */
    uint8_t indexer;       /* master: IDX_*, the sparse-attention indexer's key cache beside the latent one */
    uint8_t logits_copies; /* master: copies of the logits alive beside them at the output's peak (chameleon's
                              ggml_set_1d blanking the image tokens: 1) */
} arch_row;

#define KV_SHARED_KEY (-1)
/* arch_row.encoder: an embedding encoder (BERT and kin: no memory, no logits in its graph), a diffusion model
 * (non-causal whatever the file says, no memory, logits for every token), a decoder's layers for embeddings (a KV
 * cache, no logits: llama-embed) */
enum { ENC_NONE, ENC_EMBED, ENC_DIFFUSION, ENC_EMBED_CACHED, ENC_RELATIVE };
/* ENC_RELATIVE (t5encoder in master): an encoder graph (the ubatch attends to itself, with a relative-position bias)
 * though master gives it a KV cache and logits, and decoder settings */
/* arch_row.indexer (llama_kv_cache_dsa): none; a cache of one key head of attention.indexer.key_length in every
 * layer (deepseek32); in the layers attention.indexer.types flags (glm-dsa; without the key every layer when the
 * training context is under 2^20, else GLM-5.2's pattern: layers 0 and 1, then every fourth from 2).  Both beside
 * a latent MLA cache.  IDX_AFTER_DENSE (llama_kv_cache_msa, minimax-m3): beside a plain attention cache, in the
 * layers after the leading dense ones, with a V row of one head too (its cache is not MLA). */
enum { IDX_NONE, IDX_EVERY, IDX_FLAGGED, IDX_AFTER_DENSE };

static const arch_row ARCHS[] = {
    {"llama", FAM_ATTN, FFN_GATED, false, false, false, true, NULL, NULL, G_LLAMA, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"qwen2", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, G_LLAMA, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"phi3", FAM_ATTN, FFN_FUSED_UP, true, true, false, false, NULL, NULL, G_PHI3, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"gemma", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, G_GEMMA, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"gemma2", FAM_ATTN, FFN_GATED, false, true, false, false, NULL, NULL, G_GEMMA2, 4096, 2, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"qwen2moe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", G_LLAMA, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"deepseek2", FAM_ATTN, FFN_GATED, false, false, true, true, "expert_feed_forward_length", NULL, G_DEEPSEEK2, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* llama.cpp master's llama-like architectures: the compute buffer is modelled */
    {"qwen3", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"granite", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"exaone", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"internlm2", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"minicpm", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"olmo2", FAM_ATTN, FFN_GATED, false, true, false, false, NULL, NULL, NO_GRAPH, 0, 4, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"command-r", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"olmoe", FAM_ATTN, FFN_GATED, false, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"smollm3", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"mistral3", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"arcee", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0}, /* up, down (ReLU^2) */
    {"ernie4_5", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"seed_oss", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"granitemoe", FAM_ATTN, FFN_GATED, false, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"exaone4", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0}, /* SWA: 32B only */
    {"dots1", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"glm4moe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     true, 0, false, 0, false, false, false, 0, 0, 0},
    {"glm4", FAM_ATTN, FFN_FUSED_UP, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, true, 0, false, 0, false, false, false, 0, 0, 0},
    {"minimax-m2", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, false, 0, false, false, false, 0, 0, 0},
    /* chunked attention on three layers of four, 8192 by default: the same cache as a sliding window */
    {"llama4", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 8192, 4,
     false, 0, false, 0, false, false, false, 0, 0, 0},
    {"qwen3moe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"gemma3", FAM_ATTN, FFN_GATED, false, true, false, false, NULL, NULL, NO_GRAPH, 0, 6, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"gpt-oss", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 2, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* newer families of master's converter */
    {"ernie4_5-moe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"smallthinker", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, false, 0, false, false, false, 0, 0, 0}, /* SWA (SmallThinker-21B) not modelled */
    /* the experts are feed_forward_length wide */
    {"hunyuan-moe", FAM_ATTN, FFN_GATED, false, false, false, true, NULL, "expert_shared_feed_forward_length",
     NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"hunyuan-dense", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"apertus", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0}, /* up, down */
    {"bailingmoe2", FAM_ATTN, FFN_GATED, true, false, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* a sliding window of 128 on three layers of four by default */
    {"exaone-moe", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 128, 4, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* ... and with a plain (non-gated) feed-forward: the model counts it as gated (a little more) */
    {"gpt2", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"gptneox", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"falcon", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"phi2", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"starcoder2", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"nemotron", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* recurrent: a state per sequence in every layer */
    {"mamba", FAM_MAMBA, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_STATE, false, 0, false, false, false, 0, 0, 0},
    {"mamba2", FAM_MAMBA, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_STATE, false, 0, false, false, false, 0, 0, 0},
    {"rwkv6", FAM_RWKV, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_STATE, false, 0, false, false, false, 0, 0, 0},
    {"rwkv6qwen2", FAM_RWKV, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_STATE, false, 0, false, false, false, 0, 0, 0},
    {"rwkv7", FAM_RWKV, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_STATE, false, 0, false, false, false, 0, 0, 0},
    {"arwkv7", FAM_RWKV, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_STATE, false, 0, false, false, false, 0, 0, 0},
    /* hybrid: a KV cache for the attention layers, a state for the others */
    {"jamba", FAM_MAMBA, FFN_GATED, false, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_KV0, false, 0, false, false, false, 0, 0, 0},
    {"granitehybrid", FAM_MAMBA, FFN_GATED, false, false, false, true, NULL, "expert_shared_feed_forward_length",
     NO_GRAPH, 0, 0, false, LAYERS_KV0, false, 0, false, false, false, 0, 0, 0},
    {"lfm2", FAM_SHORTCONV, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_KV0, false, 0, false, false, false, 0, 0, 0},
    {"lfm2moe", FAM_SHORTCONV, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, LAYERS_KV0, false, 0, false, false, false, 0, 0, 0},
    {"falcon-h1", FAM_MAMBA, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_BOTH, false, 0, false, false, false, 0, 0, 0},
    {"nemotron_h", FAM_MAMBA, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false,
     LAYERS_NEMOTRON, false, 0, false, false, false, 0, 0, 0},
    /* Nemotron 3 (Nano): nemotron_h's layers, the FFN ones with experts (up and down) and a shared expert */
    {"nemotron_h_moe", FAM_MAMBA, FFN_GATED, false, false, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 0, false, LAYERS_NEMOTRON, false, 0, false, false, false, 0, 0, 0},
    /* PLaMo 2: Mamba layers where head_count_kv is 0 (their state as mamba's), fused-Q/K/V attention elsewhere */
    {"plamo2", FAM_MAMBA, FFN_FUSED_UP, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_KV0, ENC_NONE,
     0, false, false, false, 0, 0, 0},
    {"qwen3next", FAM_MAMBA, FFN_GATED, false, false, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 0, true, LAYERS_INTERVAL, false, 0, false, false, false, 0, 0, 0},
    /* Qwen3.5: qwen3next's layers (gated delta-net, attention every 4th), dense or with experts */
    {"qwen35", FAM_MAMBA, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, true, LAYERS_INTERVAL, false, 0, false, false, false, 0, 0, 0},
    {"qwen35moe", FAM_MAMBA, FFN_GATED, false, false, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 0, true, LAYERS_INTERVAL, false, 0, false, false, false, 0, 0, 0},
    /* Command R7B: a sliding window (attention.sliding_window, required) on three layers of four */
    {"cohere2", FAM_ATTN, FFN_GATED, false, true, false, false, NULL, NULL, NO_GRAPH, 0, 4, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* Phi-3.5-MoE: experts of feed_forward_length; DeepSeek-MoE (V1): leading dense layers, shared experts */
    {"phimoe", FAM_ATTN, FFN_GATED, false, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"deepseek", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, false, 0, false, false, false, 0, 0, 0},
    /* plain dense families (a non-gated FFN counted as gated, as gpt2's) */
    {"baichuan", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"stablelm", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"starcoder", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"refact", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"bloom", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"mpt", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"olmo", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"orion", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"xverse", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"codeshell", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"chatglm", FAM_ATTN, FFN_FUSED_UP, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* non-causal encoders: no KV cache */
    {"bert", FAM_ATTN, FFN_PLAIN, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, true, 0, false, false, false, 0, 0, 0},
    {"nomic-bert", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, true, 0, false, false, false, 0, 0, 0},
    {"jina-bert-v2", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, true, 0,
     false, false, false, 0, 0, 0},
    /* ModernBERT: gate and up in one matrix; its sliding window only masks (no cache) */
    {"modern-bert", FAM_ATTN, FFN_FUSED_UP, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, true, 0,
     false, false, false, 0, 0, 0},
    /* nomic-embed-text-v2-moe: experts (up and down) on every other layer */
    {"nomic-bert-moe", FAM_ATTN, FFN_PLAIN, true, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_EMBED, 0,
     false, false, false, 0, 0, 0},
    {"jina-bert-v3", FAM_ATTN, FFN_PLAIN, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_EMBED, 0,
     false, false, false, 0, 0, 0},
    /* DBRX: fused Q/K/V, experts of feed_forward_length */
    {"dbrx", FAM_ATTN, FFN_GATED, true, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* llama's layers for embeddings: a KV cache all the same (master gives it memory) */
    {"llama-embed", FAM_ATTN, FFN_GATED, false, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, 0,
     ENC_EMBED_CACHED, 0, false, false, false, 0, 0, 0},
    {"neo-bert", FAM_ATTN, FFN_FUSED_UP, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_EMBED, 0,
     false, false, false, 0, 0, 0},
    {"eurobert", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_EMBED, 0,
     false, false, false, 0, 0, 0},
    /* diffusion language models: non-causal, no memory, logits for every token */
    {"dream", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_DIFFUSION, 0,
     false, false, false, 0, 0, 0},
    {"llada", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_DIFFUSION, 0,
     false, false, false, 0, 0, 0},
    {"gemma-embedding", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, true, 0, false, false, false, 0, 0, 0},
    {"jais", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"bitnet", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* Gemma 3n: a sliding window on four layers of five, per-layer embeddings; layers from the 20th on reuse
     * the KV cache of layer 18 (sliding) or 19 */
    {"gemma3n", FAM_ATTN, FFN_GATED, false, true, false, false, NULL, NULL, NO_GRAPH, 0, 5, false, 0, false, 20, true, false, false, 0, 0, 0},
    /* MiniCPM3: latent projections, the decompressed K and V cached (key_length, value_length) */
    {"minicpm3", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    /* the text models of the Qwen VL checkpoints (multi-section RoPE changes no buffer) */
    {"qwen2vl", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"qwen3vl", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, false, 0, false, false, false, 0, 0, 0},
    {"qwen3vlmoe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, false, 0, false, false, false, 0, 0, 0},
    /* master-only families (#36, batch 3).  LLaDA-MoE: a diffusion model with experts in every layer */
    {"llada-moe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, ENC_DIFFUSION, 0, false, false, false, 0, 0, 0},
    /* Ling (V1): experts with expert_shared_count shared ones of the experts' size */
    {"bailingmoe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* GroveMoE: experts, and chunk experts (one per group of two) beside them */
    {"grovemoe", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* HunyuanOCR's text model (q/k norms; multi-section RoPE changes no buffer), openPangu-Embedded */
    {"hunyuan_vl", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0,
     false, false, false, 0, 0, 0},
    /* Gemma 4: sliding-window layers as attention.sliding_window_pattern flags them, with their own head sizes
     * (key_length_swa) and KV head counts; the last shared_kv_layers layers reuse earlier caches; the tied output
     * is created before token_embd, as gemma3n's */
    {"gemma4", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 6, false, 0,
     ENC_NONE, KV_SHARED_KEY, true, false, false, 0, 0, 0},
    {"pangu-embedded", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0,
     false, false, false, 0, 0, 0},
    /* MiMo-V2: sliding-window layers flagged one by one, per-layer KV heads, K and V heads of different sizes,
     * experts with a selection bias (its dense first layers are counted as expert ones) */
    {"mimo2", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 4, false, 0,
     ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* Grok-1: experts of expert_feed_forward_length (an optional dense FFN beside them) */
    {"grok", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0, false, 0,
     ENC_NONE, 0, false, false, true, 3, 0, 0},
    /* Snowflake Arctic: a dense residual FFN beside experts of feed_forward_length; its peak is the experts' FFN
     * (gate, up and product rows) while the residual FFN's output waits */
    {"arctic", FAM_ATTN, FFN_GATED, false, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false,
     false, false, 3, 0, 0},
    /* Granite 4 with sliding-window layers flagged one by one (attention sinks change no buffer) */
    {"granite_swa", FAM_ATTN, FFN_GATED, false, true, false, true, NULL, "expert_shared_feed_forward_length", NO_GRAPH, 0,
     4, false, 0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* Step 3.5: sliding-window layers flagged one by one, dense and expert layers as the file has them */
    {"step35", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 4, false, 0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* Hy3: q/k norms, dense and expert layers (with a shared expert) as the file has them */
    {"hy_v3", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* dense families: PLaMo, Qwen (v1: fused Q/K/V, its FFN n_ff/2 wide, counted n_ff), Maincoder (q/k norms),
     * Nanbeige (its looped layers share weights, not caches: one loop here), Jais 2 (plain FFN, biases); Mellum's
     * experts in every layer (its sliding window, when the file has one, not modelled) */
    {"plamo", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false,
     false, false, 0, 0, 0},
    {"qwen", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false,
     false, false, 0, 0, 0},
    {"maincoder", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0,
     false, false, false, 0, 0, 0},
    {"nanbeige", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0,
     false, false, false, 0, 0, 0},
    {"jais2", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false,
     false, false, 0, 0, 0},
    {"mellum", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0, false,
     0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* DeciLM / Nemotron-NAS: per-layer heads, KV heads (0: no attention) and FFN sizes (0: none) */
    {"deci", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, LAYERS_KV0, ENC_NONE, 0,
     false, false, false, 0, 0, 0},
    /* RND1: a diffusion model with qwen3moe's layers (experts in every layer) */
    {"rnd1", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0, false, 0,
     ENC_DIFFUSION, 0, false, false, false, 0, 0, 0},
    /* PLaMo 3: fused Q/K/V, gate and up fused; a sliding window (when the file has one) on seven layers of eight */
    {"plamo3", FAM_ATTN, FFN_FUSED_UP, true, true, false, false, NULL, NULL, NO_GRAPH, 0, 8, false, 0, ENC_NONE, 0, false,
     false, false, 0, 0, 0},
    /* OpenELM: per-layer heads, KV heads and FFN sizes, fused Q/K/V */
    {"openelm", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false,
     false, false, 0, 0, 0},
    /* Mistral 4: deepseek2's loader and latent attention (its graph not replayed) */
    {"mistral4", FAM_ATTN, FFN_GATED, false, false, true, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0, false,
     0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* DeepSeek-V3.2: deepseek2's latent attention in master's MLA layout (one latent KV head, no V cache) and the
     * sparse-attention indexer's key cache in every layer; its multi-token-prediction layers are neither loaded
     * nor cached */
    {"deepseek32", FAM_ATTN, FFN_GATED, false, false, true, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     true, 0, ENC_NONE, 0, false, false, false, 0, IDX_EVERY, 0},
    /* GLM-5 (glm-dsa): deepseek32's layers; the indexer keeps keys in the layers attention.indexer.types flags */
    {"glm-dsa", FAM_ATTN, FFN_GATED, false, false, true, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     true, 0, ENC_NONE, 0, false, false, false, 0, IDX_FLAGGED, 0},
    /* MiniMax-M3: minimax-m2's attention, a dense first layer then experts with a shared one; the sparse attention's
     * indexer keeps keys (and a V row) in the expert layers */
    {"minimax-m3", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, ENC_NONE, 0, false, false, false, 0, IDX_AFTER_DENSE, 0},
    /* MiniMax-Text-01: lightning-attention layers (a state of key_length^2 a head) but every
     * full_attention_interval-th (default 8), experts of feed_forward_length in every layer */
    {"minimax-01", FAM_LINEAR, FFN_GATED, false, false, false, true, NULL, NULL, NO_GRAPH, 0, 0, false,
     LAYERS_INTERVAL, ENC_NONE, 0, false, false, false, 0, IDX_NONE, 0},
    /* PaddleOCR-VL's text model: ernie4_5's loader, qwen2vl's graph (multi-section RoPE changes no buffer) */
    {"paddleocr", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0,
     false, false, false, 0, IDX_NONE, 0},
    /* DeepSeek-OCR's decoder: deepseek2's layers without MLA (plain Q/K/V), leading dense layers, shared experts */
    {"deepseek2-ocr", FAM_ATTN, FFN_GATED, false, false, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 0,
     false, 0, ENC_NONE, 0, false, false, false, 0, IDX_NONE, 0},
    /* CogVLM2's text model: llama's layers with fused Q/K/V and a visual expert beside each matrix (vis_*) */
    {"cogvlm", FAM_ATTN, FFN_GATED, true, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false,
     false, false, 0, IDX_NONE, 0},
    /* talkie: llama's layers without norm weights, a q gain per head, an output scale per layer */
    {"talkie", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0, false,
     false, false, 0, IDX_NONE, 0},
    /* T5's encoder: relative-position attention, its tensors under enc.; master gives it a KV cache and logits */
    {"t5encoder", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_RELATIVE, 0,
     false, false, false, 0, IDX_NONE, 0},
    /* Chameleon: llama's layers with per-head q/k norms; its graph copies the logits to blank the image tokens' */
    {"chameleon", FAM_ATTN, FFN_GATED, false, false, false, false, NULL, NULL, NO_GRAPH, 0, 0, false, 0, ENC_NONE, 0,
     false, false, false, 0, IDX_NONE, 1},
    /* Trinity (afmoe): gated attention, leading dense layers, experts with shared ones; a sliding window on three
     * layers of four when attention.sliding_window is set */
    {"afmoe", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length", NULL, NO_GRAPH, 0, 4, false,
     0, ENC_NONE, 0, false, false, false, 0, 0, 0},
    /* Laguna: per-layer head counts, experts with a shared one after the leading dense layers; the full-attention
     * layer first of each four */
    {"laguna", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 4, false, 0, ENC_NONE, 0, false, true, false, 0, 0, 0},
    /* Cohere2 MoE: cohere2's parallel attention and FFN, experts after the leading dense layers, its
     * sliding-window layers flagged by attention.sliding_window_pattern (else three of four, full first) */
    {"cohere2moe", FAM_ATTN, FFN_GATED, false, true, false, true, "expert_feed_forward_length",
     "expert_shared_feed_forward_length", NO_GRAPH, 0, 4, false, 0, ENC_NONE, 0, false, true, false, 0, 0, 0},
};

/* Hyperparameters of one model, checked once. */
typedef struct facts {
    const lgg_file *f;    /* the first file: where the hyperparameters are */
    const arch_row *row;  /* NULL: unknown architecture */
    char arch[32];
    uint32_t n_layer, n_ctx_train, n_embd;
    lgg_value head, head_kv; /* scalar or one element per layer */
    bool has_head;
    uint32_t head_k, head_v;  /* per-head K and V sizes */
    uint32_t head_k_swa, head_v_swa; /* the sliding-window layers' (attention.key_length_swa; else head_k, head_v) */
    uint32_t n_ff_max;        /* largest dense FFN size */
    lgg_value ff;             /* feed_forward_length: scalar or per layer (has_ff) */
    bool has_ff;
    bool bias_q, bias_k, bias_v, bias_o; /* the attention projections have biases */
    /* deepseek2: the latent ranks (q_lora 0: none), RoPE dimensions, router */
    uint32_t q_lora, kv_lora, n_rot, gating;
    bool norm_w, probs_bias, mla_known;
    bool mla_latent;    /* master's MLA layout (key_length_mla and value_length_mla set): the cache holds the latent
                           K row alone, no V */
    uint32_t indexer_k; /* the sparse-attention indexer's key size (row->indexer) */
    lgg_value indexer_types; /* attention.indexer.types: a layer's indexer keeps keys (has_indexer_types) */
    bool has_indexer_types;
    uint32_t n_expert, n_expert_used, n_ff_exp, n_ff_shexp, n_expert_shared;
    uint32_t n_dense_lead;             /* deepseek2: leading layers with a dense FFN */
    uint32_t n_nextn;                  /* nextn_predict_layers (rows with nextn_skipped) */
    uint32_t n_kv_layers;              /* the leading layers with a KV cache of their own (row->kv_from_start) */
    bool causal;                       /* attention.causal (default true; a diffusion model's is false) */
    uint32_t d_conv, d_inner, d_state, n_group, dt_rank; /* mamba (mamba2: n_group) */
    uint32_t wkv_head, token_shift;    /* rwkv */
    uint32_t l_cache;                  /* lfm2's short convolution */
    uint32_t attn_interval;            /* LAYERS_INTERVAL: every attn_interval-th layer has attention */
    lgg_value recr_layers;             /* ... or this per-layer array (has_recr_layers) says which do not */
    bool has_recr_layers;
    uint32_t n_swa, swa_period; /* master's sliding window (row->swa_window != 0) */
    lgg_value swa_layers;       /* ... or attention.sliding_window_pattern as one flag a layer (has_swa_layers) */
    bool has_swa_layers;
    uint64_t n_vocab;
    bool tied; /* no output.weight: the output layer reads token_embd */
    bool cls, cls_b;            /* the classification head's cls.weight and cls.bias (rank pooling) */
    uint64_t cls_rows, cls_out_rows; /* the rows of cls.weight and cls.output.weight (0: absent) */
    const lgg_allocator *alloc; /* the caller's (lgg_estimate_params.allocator) */
    uint32_t target;            /* the params' target: what llama.cpp accepts */
} facts;

void lgg_estimate_params_init(lgg_estimate_params *p) {
    if (p) *p = (lgg_estimate_params)LGG_ESTIMATE_PARAMS_INIT;
}

/* ---- hyperparameters --------------------------------------------------- */

static lgg_status get_key(const lgg_file *f, const facts *m, const char *suffix, lgg_value *v) {
    char key[128];
    snprintf(key, sizeof key, "%s.%s", m->arch, suffix);
    return lgg_get(f, key, v);
}

/* Where a finding about <arch>.suffix points: as lgg_validate has it. */
static uint64_t key_at(const facts *m, const char *suffix) {
    char key[128];
    int n = snprintf(key, sizeof key, "%s.%s", m->arch, suffix);
    return n > 0 && (size_t)n < sizeof key ? lgg__key_offset(m->f, key, (size_t)n) : LGG_NO_OFFSET;
}

/* An unsigned 32-bit hyperparameter.  Absent: *out = def and LGG_OK, unless
 * required (then LGG_ERR_NOT_FOUND naming the key). */
static lgg_status get_u32(const lgg_file *f, const facts *m, const char *suffix, bool required, uint32_t def,
                          uint32_t *out, lgg_error *err) {
    lgg_value v;
    uint64_t x;
    *out = def;
    if (get_key(f, m, suffix, &v) != LGG_OK) {
        if (!required) return LGG_OK;
        return lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "missing hyperparameter %s.%s", m->arch, suffix);
    }
    if (lgg_value_uint(&v, &x) != LGG_OK || x > UINT32_MAX)
        return lgg__fail(err, LGG_ERR_INVALID, key_at(m, suffix), "%s.%s is not an unsigned 32-bit integer", m->arch,
                         suffix);
    *out = (uint32_t)x;
    return LGG_OK;
}

/* A per-layer value: a scalar, or an array with one element per layer. */
static uint32_t layer_u32(const lgg_value *v, uint32_t il) {
    lgg_value e;
    uint64_t x = 0;
    if (v->type == LGG_VT_ARRAY) {
        if (lgg_array_get(v, il, &e) != LGG_OK || lgg_value_uint(&e, &x) != LGG_OK) return 0;
    } else if (lgg_value_uint(v, &x) != LGG_OK) {
        return 0;
    }
    return x > UINT32_MAX ? 0 : (uint32_t)x;
}

/* Checks a per-layer key (scalar or array of n_layer unsigned integers);
 * *max is its largest value, *min its smallest. */
static lgg_status check_layers(const facts *m, const char *suffix, const lgg_value *v, uint32_t *min,
                               uint32_t *max, lgg_error *err) {
    if (v->type == LGG_VT_ARRAY && v->count != m->n_layer)
        return lgg__fail(err, LGG_ERR_INVALID, key_at(m, suffix), "%s.%s has %llu elements for %u layers", m->arch, suffix,
                         (unsigned long long)v->count, m->n_layer);
    *min = UINT32_MAX;
    *max = 0;
    for (uint32_t il = 0; il < m->n_layer; il++) {
        lgg_value e;
        uint64_t x;
        const lgg_value *s = v;
        if (v->type == LGG_VT_ARRAY) {
            if (lgg_array_get(v, il, &e) != LGG_OK) return lgg__fail(err, LGG_ERR_INVALID, key_at(m, suffix), "bad array");
            s = &e;
        }
        if (lgg_value_uint(s, &x) != LGG_OK || x > UINT32_MAX)
            return lgg__fail(err, LGG_ERR_INVALID, key_at(m, suffix), "%s.%s: layer %u is not an unsigned 32-bit integer",
                             m->arch, suffix, il);
        if (x < *min) *min = (uint32_t)x;
        if (x > *max) *max = (uint32_t)x;
    }
    return LGG_OK;
}

static lgg_status attn_facts(const lgg_file *f, facts *m, lgg_error *err) {
    uint32_t lo, hi, lo_kv, hi_kv;
    if (get_key(f, m, "attention.head_count", &m->head) != LGG_OK)
        return lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "missing hyperparameter %s.attention.head_count",
                         m->arch);
    m->has_head = true;
    lgg_status st = check_layers(m, "attention.head_count", &m->head, &lo, &hi, err);
    if (st) return st;
    /* a hybrid's recurrent layers may have none, and deci's attention-free ones */
    if (lo == 0 && ((m->row->family == FAM_ATTN && m->row->layers != LAYERS_KV0) || hi == 0))
        return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "attention.head_count"), "%s.attention.head_count is 0", m->arch);
    if (get_key(f, m, "attention.head_count_kv", &m->head_kv) != LGG_OK) m->head_kv = m->head;
    st = check_layers(m, "attention.head_count_kv", &m->head_kv, &lo_kv, &hi_kv, err);
    if (st) return st;
    if (lo_kv == 0 && m->row->family == FAM_ATTN && m->row->layers != LAYERS_KV0) /* a hybrid's recurrent layers have none */
        return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "attention.head_count_kv"), "%s.attention.head_count_kv is 0", m->arch);
    if (hi_kv == 0)
        return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "attention.head_count_kv"), "%s: no layer has attention heads",
                         m->arch);
    /* llama.cpp derives the head size from the first layer's head count */
    uint32_t h0 = layer_u32(&m->head, 0);
    if (h0 == 0) h0 = hi;
    uint32_t def = m->n_embd / h0;
    if ((st = get_u32(f, m, "attention.key_length", false, def, &m->head_k, err)) ||
        (st = get_u32(f, m, "attention.value_length", false, def, &m->head_v, err)))
        return st;
    if ((st = get_u32(f, m, "attention.key_length_swa", false, m->head_k, &m->head_k_swa, err)) ||
        (st = get_u32(f, m, "attention.value_length_swa", false, m->head_v, &m->head_v_swa, err)))
        return st;
    if (m->head_k == 0 || m->head_v == 0 || m->head_k_swa == 0 || m->head_v_swa == 0)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "%s: head size 0 (embedding_length %u, head_count %u, key/value_length, their _swa)", m->arch,
                         m->n_embd, h0);
    return LGG_OK;
}

/* The sparse-attention indexer (llama_kv_cache_dsa): its key size, required as master requires it, and which
 * layers keep keys. */
static lgg_status indexer_facts(const lgg_file *f, facts *m, lgg_error *err) {
    if (m->row->indexer == IDX_NONE || m->target != LGG_ESTIMATE_MASTER) return LGG_OK;
    lgg_status st = get_u32(f, m, "attention.indexer.key_length", true, 0, &m->indexer_k, err);
    if (st) return st;
    if (m->row->indexer == IDX_AFTER_DENSE) { /* master asserts on a block size of 0 */
        uint32_t block;
        if ((st = get_u32(f, m, "attention.indexer.block_size", true, 0, &block, err))) return st;
        return block ? LGG_OK : lgg__fail(err, LGG_ERR_INVALID, key_at(m, "attention.indexer.block_size"),
                                          "%s.attention.indexer.block_size is 0", m->arch);
    }
    if (!m->mla_latent)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "%s needs MLA (attention.key_length_mla and value_length_mla), as llama.cpp master does", m->arch);
    if (m->row->indexer != IDX_FLAGGED || get_key(f, m, "attention.indexer.types", &m->indexer_types) != LGG_OK)
        return LGG_OK;
    /* one flag for each layer but the multi-token-prediction ones (master reads it for n_layer() layers) */
    facts trunk = *m;
    trunk.n_layer = m->n_layer - m->n_nextn;
    uint32_t lo, hi;
    if ((st = check_layers(&trunk, "attention.indexer.types", &m->indexer_types, &lo, &hi, err))) return st;
    m->has_indexer_types = true;
    return LGG_OK;
}

/* deepseek2's latent attention and router, for its graph (missing keys:
 * the graph is not replayed, and the compute buffer is modelled). */
static lgg_status mla_facts(const lgg_file *f, facts *m, lgg_error *err) {
    lgg_value v;
    lgg_status st;
    bool lite = m->n_layer == 27; /* llama.cpp's test for the model without Q compression */
    if ((st = get_u32(f, m, "attention.q_lora_rank", false, 0, &m->q_lora, err)) ||
        (st = get_u32(f, m, "attention.kv_lora_rank", false, 0, &m->kv_lora, err)) ||
        (st = get_u32(f, m, "rope.dimension_count", false, m->head_k, &m->n_rot, err)) ||
        (st = get_u32(f, m, "expert_gating_func", false, 0, &m->gating, err)))
        return st;
    if (lite) m->q_lora = 0;
    uint32_t k_mla, v_mla;
    if ((st = get_u32(f, m, "attention.key_length_mla", false, 0, &k_mla, err)) ||
        (st = get_u32(f, m, "attention.value_length_mla", false, 0, &v_mla, err)))
        return st;
    m->mla_latent = m->target == LGG_ESTIMATE_MASTER && k_mla && v_mla;
    bool b = false;
    m->norm_w = get_key(f, m, "expert_weights_norm", &v) == LGG_OK && lgg_value_bool(&v, &b) == LGG_OK && b;
    m->mla_known = m->kv_lora > 0 && m->n_rot > 0 && m->n_rot <= m->head_k && (lite || m->q_lora > 0) &&
                   get_key(f, m, "expert_weights_scale", &v) == LGG_OK && m->gating <= 2;
    return LGG_OK;
}

static lgg_status ffn_facts(const lgg_file *f, facts *m, lgg_error *err) {
    lgg_value v;
    uint32_t lo;
    lgg_status st;
    m->n_ff_max = 0;
    if (m->row->nextn_skipped && (st = get_u32(f, m, "nextn_predict_layers", false, 0, &m->n_nextn, err))) return st;
    if (m->n_nextn >= m->n_layer)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s.nextn_predict_layers %u is not below block_count %u",
                         m->arch, m->n_nextn, m->n_layer);
    if (get_key(f, m, "feed_forward_length", &v) == LGG_OK) {
        if ((st = check_layers(m, "feed_forward_length", &v, &lo, &m->n_ff_max, err))) return st;
        m->ff = v, m->has_ff = true;
    }
    if (!m->row->moe) return LGG_OK;
    if ((st = get_u32(f, m, "expert_count", false, 0, &m->n_expert, err)) ||
        (st = get_u32(f, m, "expert_used_count", false, 0, &m->n_expert_used, err)))
        return st;
    const uint32_t max_experts = m->target == LGG_ESTIMATE_MASTER ? MAX_EXPERTS_MASTER : MAX_EXPERTS;
    if (m->n_expert > max_experts)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s.expert_count %u exceeds llama.cpp's %u experts",
                         m->arch, m->n_expert, max_experts);
    if (m->n_expert_used > m->n_expert || (m->n_expert > 0 && m->n_expert_used == 0))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s: expert_used_count %u with expert_count %u",
                         m->arch, m->n_expert_used, m->n_expert);
    m->n_ff_exp = m->n_ff_max;
    if (m->row->expert_ff && (st = get_u32(f, m, m->row->expert_ff, false, m->n_ff_max, &m->n_ff_exp, err)))
        return st;
    if (m->row->shared_ff && (st = get_u32(f, m, m->row->shared_ff, false, 0, &m->n_ff_shexp, err))) return st;
    if ((st = get_u32(f, m, "expert_shared_count", false, 0, &m->n_expert_shared, err)) ||
        (st = get_u32(f, m, "leading_dense_block_count", false, 0, &m->n_dense_lead, err)))
        return st;
    if (m->n_ff_shexp == 0 && m->n_expert_shared > 0) m->n_ff_shexp = m->n_ff_exp * m->n_expert_shared;
    if (m->row->mla && (st = mla_facts(f, m, err))) return st;
    return indexer_facts(f, m, err);
}

static lgg_status recurrent_facts(const lgg_file *f, facts *m, lgg_error *err) {
    lgg_status st;
    if (m->row->layers == LAYERS_INTERVAL) {
        /* master's default: every 4th layer (qwen3next), every 8th (minimax-01) */
        const uint32_t interval = m->row->family == FAM_LINEAR ? 8 : 4;
        if ((st = get_u32(f, m, "full_attention_interval", false, interval, &m->attn_interval, err))) return st;
        if (m->attn_interval == 0)
            return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "full_attention_interval"), "%s.full_attention_interval is 0",
                             m->arch);
        m->has_recr_layers = get_key(f, m, "attention.recurrent_layers", &m->recr_layers) == LGG_OK &&
                             m->recr_layers.type == LGG_VT_ARRAY;
        if (m->has_recr_layers && m->recr_layers.count < m->n_layer)
            return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "attention.recurrent_layers"),
                             "%s.attention.recurrent_layers has %llu elements for %u layers", m->arch,
                             (unsigned long long)m->recr_layers.count, m->n_layer);
    }
    if (m->row->family == FAM_MAMBA) {
        if ((st = get_u32(f, m, "ssm.conv_kernel", true, 0, &m->d_conv, err)) ||
            (st = get_u32(f, m, "ssm.inner_size", true, 0, &m->d_inner, err)) ||
            (st = get_u32(f, m, "ssm.state_size", true, 0, &m->d_state, err)) ||
            (st = get_u32(f, m, "ssm.group_count", false, 0, &m->n_group, err)) ||
            (st = get_u32(f, m, "ssm.time_step_rank", false, 0, &m->dt_rank, err)))
            return st;
        if (m->d_inner == 0 || m->d_state == 0)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s: ssm.inner_size or ssm.state_size is 0",
                             m->arch);
        return LGG_OK;
    }
    if (m->row->family == FAM_LINEAR) return LGG_OK; /* its state is sized by the attention keys */
    if (m->row->family == FAM_SHORTCONV) {
        if ((st = get_u32(f, m, "shortconv.l_cache", true, 0, &m->l_cache, err))) return st;
        if (m->l_cache == 0) return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s.shortconv.l_cache is 0", m->arch);
        return LGG_OK;
    }
    if ((st = get_u32(f, m, "wkv.head_size", true, 0, &m->wkv_head, err)) ||
        (st = get_u32(f, m, "token_shift_count", false, 2, &m->token_shift, err)))
        return st;
    if (m->wkv_head == 0) return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s.wkv.head_size is 0", m->arch);
    return LGG_OK;
}

/* A layer's feed-forward size (0 without the key). */
static uint32_t layer_ff(const facts *m, uint32_t il) { return m->has_ff ? layer_u32(&m->ff, il) : 0; }

/* qwen3next's layer il: recurrent (1), attention (0), or a multi-token-prediction one (2). */
static int interval_layer(const facts *m, uint32_t il) {
    if (il >= m->n_layer - m->n_nextn) return 2;
    if (!m->has_recr_layers) return (il + 1) % m->attn_interval != 0;
    lgg_value e;
    bool b = false;
    uint64_t x = 0;
    if (lgg_array_get(&m->recr_layers, il, &e) != LGG_OK) return 0;
    return lgg_value_bool(&e, &b) == LGG_OK ? b : lgg_value_uint(&e, &x) == LGG_OK && x != 0;
}

/* Layer il holds a recurrent state (llama_hparams::is_recr and the hybrid memory's filter). */
static bool layer_recurrent(const facts *m, uint32_t il) {
    if (m->row->family == FAM_ATTN) return false;
    switch (m->row->layers) {
    case LAYERS_INTERVAL: return interval_layer(m, il) == 1;
    case LAYERS_KV0: return layer_u32(&m->head_kv, il) == 0;
    case LAYERS_NEMOTRON: return layer_u32(&m->head_kv, il) == 0 && layer_ff(m, il) == 0;
    default: return true;
    }
}

/* Layer il has attention, and a KV cache. */
static bool layer_attention(const facts *m, uint32_t il) {
    if (m->row->family == FAM_ATTN) return m->row->layers != LAYERS_KV0 || layer_u32(&m->head_kv, il) != 0;
    switch (m->row->layers) {
    case LAYERS_KV0: return layer_u32(&m->head_kv, il) != 0;
    case LAYERS_BOTH: return true;
    case LAYERS_NEMOTRON: return layer_u32(&m->head_kv, il) != 0 && layer_ff(m, il) == 0;
    case LAYERS_INTERVAL: return interval_layer(m, il) == 0;
    default: return false;
    }
}

/* The bytes of one sequence's R (conv, token shift) and S (SSM, WKV) states in one layer, as
 * llama_hparams::n_embd_r and n_embd_s count them (F32). */
static void state_row(const facts *m, uint64_t *r, uint64_t *s) {
    if (m->row->family == FAM_RWKV) {
        *r = (uint64_t)m->token_shift * m->n_embd, *s = (uint64_t)m->n_embd * m->wkv_head;
    } else if (m->row->family == FAM_SHORTCONV) {
        *r = (uint64_t)m->n_embd * (m->l_cache - 1), *s = 0;
    } else if (m->row->family == FAM_LINEAR) { /* n_embd_head_la^2 x n_head() (the first layer's head count) */
        *r = 0, *s = (uint64_t)m->head_k * m->head_k * layer_u32(&m->head, 0);
    } else {
        *r = (uint64_t)(m->d_conv ? m->d_conv - 1 : 0) * ((uint64_t)m->d_inner + 2ull * m->n_group * m->d_state);
        *s = (uint64_t)m->d_state * m->d_inner;
    }
}

/* How many leading layers have a KV cache of their own: all, or as the row says (master's layer reuse). */
static lgg_status kv_layer_facts(const lgg_file *f, facts *m, lgg_error *err) {
    m->n_kv_layers = m->n_layer;
    if (m->row->kv_from_start > 0) {
        if ((uint32_t)m->row->kv_from_start < m->n_layer) m->n_kv_layers = (uint32_t)m->row->kv_from_start;
    } else if (m->row->kv_from_start == KV_SHARED_KEY) {
        uint32_t shared;
        lgg_status st = get_u32(f, m, "attention.shared_kv_layers", false, 0, &shared, err);
        if (st) return st;
        if (shared >= m->n_layer)
            return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "attention.shared_kv_layers"),
                             "%s.attention.shared_kv_layers %u leaves no layer with a KV cache of %u", m->arch, shared,
                             m->n_layer);
        m->n_kv_layers = m->n_layer - shared;
    }
    return LGG_OK;
}

/* attention.sliding_window_pattern: a period (all but the last layer of each slide), or one flag a layer
 * (master's get_key_or_arr: gemma4's layer_types) */
static lgg_status swa_pattern_facts(const lgg_file *f, facts *m, lgg_error *err) {
    lgg_value v;
    if (get_key(f, m, "attention.sliding_window_pattern", &v) == LGG_OK && v.type == LGG_VT_ARRAY) {
        if (v.count != m->n_layer)
            return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "attention.sliding_window_pattern"),
                             "%s.attention.sliding_window_pattern has %llu elements for %u layers", m->arch,
                             (unsigned long long)v.count, m->n_layer);
        m->swa_layers = v, m->has_swa_layers = true;
        return LGG_OK;
    }
    return get_u32(f, m, "attention.sliding_window_pattern", false, m->row->swa_period, &m->swa_period, err);
}

static uint64_t vocab_size(const lgg_file *f) {
    lgg_value v;
    if (lgg_get(f, "tokenizer.ggml.tokens", &v) == LGG_OK && v.type == LGG_VT_ARRAY) return v.count;
    int64_t t = lgg_find_tensor_cstr(f, "token_embd.weight");
    return t >= 0 ? (uint64_t)lgg_tensor_at(f, (uint64_t)t)->ne[1] : 0;
}

/* The classification head rank pooling runs (llm_graph_context::build_pooling), as far as f has it. */
static void head_facts(const lgg_file *f, facts *m) {
    int64_t c = lgg_find_tensor_cstr(f, "cls.weight"), o = lgg_find_tensor_cstr(f, "cls.output.weight");
    if (c >= 0) m->cls = true, m->cls_rows = lgg_tensor_at(f, (uint64_t)c)->n_dims > 1 ? lgg_tensor_at(f, (uint64_t)c)->ne[1] : 1;
    if (o >= 0) m->cls_out_rows = lgg_tensor_at(f, (uint64_t)o)->n_dims > 1 ? lgg_tensor_at(f, (uint64_t)o)->ne[1] : 1;
    m->cls_b |= lgg_find_tensor_cstr(f, "cls.bias") >= 0;
}

static lgg_status read_facts(const lgg_file *const *files, size_t n_files, uint32_t target, facts *m,
                             lgg_error *err) {
    const lgg_file *f = files[0];
    lgg_value v;
    lgg_str s;
    memset(m, 0, sizeof *m);
    m->f = f;
    m->target = target;
    if (lgg_get(f, "general.architecture", &v) != LGG_OK || lgg_value_string(&v, &s) != LGG_OK)
        return lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "missing general.architecture (a string)");
    size_t n = s.len < sizeof m->arch - 1 ? (size_t)s.len : sizeof m->arch - 1;
    for (size_t i = 0; i < n; i++) m->arch[i] = (s.ptr[i] >= 0x20 && s.ptr[i] < 0x7f) ? s.ptr[i] : '?';
    for (size_t i = 0; i < sizeof ARCHS / sizeof ARCHS[0]; i++)
        if (s.len == strlen(ARCHS[i].name) && !memcmp(s.ptr, ARCHS[i].name, s.len)) m->row = &ARCHS[i];
    m->tied = true;
    for (size_t k = 0; k < n_files; k++) {
        if (lgg_find_tensor_cstr(files[k], "output.weight") >= 0) m->tied = false;
        m->bias_q |= lgg_find_tensor_cstr(files[k], "blk.0.attn_q.bias") >= 0;
        m->bias_k |= lgg_find_tensor_cstr(files[k], "blk.0.attn_k.bias") >= 0;
        m->bias_v |= lgg_find_tensor_cstr(files[k], "blk.0.attn_v.bias") >= 0;
        m->bias_o |= lgg_find_tensor_cstr(files[k], "blk.0.attn_output.bias") >= 0;
        head_facts(files[k], m);
    }
    if (!m->row) return LGG_OK; /* only the weights can be estimated */
    lgg_status st = get_u32(f, m, "block_count", true, 0, &m->n_layer, err);
    if (st) return st;
    if (m->n_layer > MAX_LAYERS)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s.block_count %u exceeds llama.cpp's %u layers",
                         m->arch, m->n_layer, MAX_LAYERS);
    if ((st = get_u32(f, m, "context_length", false, 0, &m->n_ctx_train, err)) ||
        (st = get_u32(f, m, "embedding_length", true, 0, &m->n_embd, err)))
        return st;
    if (m->n_layer == 0 || m->n_embd == 0)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s: block_count or embedding_length is 0", m->arch);
    m->n_vocab = vocab_size(f);
    if (m->n_vocab == 0)
        return lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET,
                         "no vocabulary size: tokenizer.ggml.tokens and token_embd.weight are missing");
    if ((m->row->family == FAM_ATTN || m->row->layers != LAYERS_STATE) && (st = attn_facts(f, m, err))) return st;
    if (m->row->family != FAM_ATTN && (st = recurrent_facts(f, m, err))) return st;
    if ((st = ffn_facts(f, m, err))) return st;
    if ((st = kv_layer_facts(f, m, err))) return st;
    bool causal = true;
    m->causal = m->row->encoder != ENC_DIFFUSION &&
                !(get_key(f, m, "attention.causal", &v) == LGG_OK && lgg_value_bool(&v, &causal) == LGG_OK && !causal);
    if (m->row->swa_period && ((st = get_u32(f, m, "attention.sliding_window", false, m->row->swa_window, &m->n_swa, err)) ||
                               (st = swa_pattern_facts(f, m, err))))
        return st;
    /* deepseek3's expert-selection bias, on every expert layer: the first one tells */
    char name[64];
    snprintf(name, sizeof name, "blk.%u.exp_probs_b.bias", m->n_dense_lead);
    for (size_t k = 0; k < n_files && m->row->mla; k++) m->probs_bias |= lgg_find_tensor_cstr(files[k], name) >= 0;
    return LGG_OK;
}

/* ---- settings ---------------------------------------------------------- */

static uint64_t pad_up(uint64_t x, uint64_t a) { return x % a ? x + (a - x % a) : x; }

static bool cache_type_ok(uint32_t t) {
    static const uint32_t ok[] = {LGG_TYPE_F32,  LGG_TYPE_F16,  LGG_TYPE_BF16,   LGG_TYPE_Q8_0, LGG_TYPE_Q4_0,
                                  LGG_TYPE_Q4_1, LGG_TYPE_IQ4_NL, LGG_TYPE_Q5_0, LGG_TYPE_Q5_1};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (ok[i] == t) return true;
    return false;
}

/* Layer il is a sliding-window one (llama_hparams::set_swa_pattern: all but the last of each period; or the
 * pattern's flag for the layer), whatever its cache's size. */
static bool layer_swa(const facts *m, uint32_t il) {
    if (!m->n_swa) return false;
    if (!m->has_swa_layers && m->row->swa_full_first) return m->swa_period == 0 || il % m->swa_period != 0;
    if (!m->has_swa_layers) return m->swa_period == 0 || il % m->swa_period < m->swa_period - 1u;
    lgg_value e;
    bool b = false;
    uint64_t x = 0;
    if (lgg_array_get(&m->swa_layers, il, &e) != LGG_OK) return false;
    return lgg_value_bool(&e, &b) == LGG_OK ? b : lgg_value_uint(&e, &x) == LGG_OK && x != 0;
}

/* Sliding-window layer il with a cache smaller than the others'. */
static bool is_swa(const facts *m, const lgg_estimate *e, uint32_t il) {
    return e->kv_size_swa != e->kv_size && layer_swa(m, il);
}

/* Layer il's K and V head sizes (llama_hparams::n_embd_head_k(il): the _swa ones on sliding-window layers). */
static uint64_t head_k_of(const facts *m, uint32_t il) { return layer_swa(m, il) ? m->head_k_swa : m->head_k; }
static uint64_t head_v_of(const facts *m, uint32_t il) { return layer_swa(m, il) ? m->head_v_swa : m->head_v; }

/* Master's KV cells: one stream per sequence (kv_unified off), each of n_ctx / n_seq_max cells padded to 256;
 * the sliding-window layers' cache min(that, n_swa + n_ubatch) padded to 256 (llama_kv_cache_iswa). */
static void master_cells(const facts *m, const lgg_estimate_params *p, lgg_estimate *e) {
    uint64_t seq = e->n_ctx / e->n_seq_max;
    seq = seq ? pad_up(seq, 256) : 256;
    uint64_t cells = seq * e->n_seq_max, swa = seq;
    if (m->n_swa && !p->swa_full) {
        uint64_t w = (uint64_t)m->n_swa + e->n_ubatch;
        swa = pad_up(w < seq ? w : seq, 256);
    }
    e->kv_size = cells > UINT32_MAX ? UINT32_MAX : (uint32_t)cells;
    swa *= e->n_seq_max;
    e->kv_size_swa = swa > UINT32_MAX ? UINT32_MAX : (uint32_t)swa;
    for (uint32_t il = 0; il < m->n_layer; il++) e->n_swa_layers += is_swa(m, e, il);
}

/* An embedding context's pooling: the one asked for, else the model's <arch>.pooling_type (llama.cpp's
 * enum: 0 none, 1 mean, 2 cls, 3 last, 4 rank), else none (llama_context's constructor). */
static lgg_status settle_embeddings(const facts *m, const lgg_estimate_params *p, lgg_estimate *e, lgg_error *err) {
    e->pooling = LGG_POOLING_NONE;
    if (!p->embeddings) return LGG_OK;
    e->embeddings = true;
    if (p->pooling > LGG_POOLING_RANK)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "pooling %u is not one of LGG_POOLING_*", p->pooling);
    uint32_t model;
    lgg_status st = get_u32(m->f, m, "pooling_type", false, UINT32_MAX, &model, err);
    if (st) return st;
    if (model != UINT32_MAX && model > 4)
        return lgg__fail(err, LGG_ERR_INVALID, key_at(m, "pooling_type"),
                         "%s.pooling_type %u is not one of llama.cpp's (0 none, 1 mean, 2 cls, 3 last, 4 rank)", m->arch,
                         model);
    e->pooling = p->pooling != LGG_POOLING_MODEL ? p->pooling : model == UINT32_MAX ? LGG_POOLING_NONE : model + 1;
    /* b4747's build_pooling asserts on a missing head; master's runs without it (Qwen3's reranker has none) */
    if (e->pooling == LGG_POOLING_RANK && e->target != LGG_ESTIMATE_MASTER && !(m->cls && m->cls_b))
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET,
                         "rank pooling needs the classification head cls.weight and cls.bias, which the model does "
                         "not have (llama.cpp b4747 aborts; master runs without it: --target master)");
    return LGG_OK;
}

/* Without memory (no KV cache): an embedding encoder, a diffusion model. */
static bool no_memory(const facts *m) { return m->row->encoder == ENC_EMBED || m->row->encoder == ENC_DIFFUSION; }

/* An embedding graph computes no logits. */
static bool no_logits(const facts *m) { return m->row->encoder == ENC_EMBED || m->row->encoder == ENC_EMBED_CACHED; }

static lgg_status settle(const facts *m, const lgg_estimate_params *p, lgg_estimate *e, lgg_error *err) {
    if (!cache_type_ok(p->type_k) || !cache_type_ok(p->type_v)) {
        const char *bad = lgg_type_name(cache_type_ok(p->type_k) ? p->type_v : p->type_k);
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET,
                         "cache type %s is not one llama.cpp accepts (f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, "
                         "q5_0, q5_1)",
                         bad ? bad : "(unknown)");
    }
    if (p->n_batch == 0 && p->n_ubatch == 0)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "n_batch and n_ubatch cannot both be 0");
    if (p->n_batch == 0 && p->target == LGG_ESTIMATE_MASTER)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "n_batch cannot be 0");
    bool recurrent = m->row->family != FAM_ATTN && m->row->layers == LAYERS_STATE; /* no attention at all */
    bool master = e->target == LGG_ESTIMATE_MASTER;
    /* master's -fa auto turns it on where the CPU backend runs it, which is everywhere here */
    e->flash_attn = master ? !p->no_flash_attn && !m->row->no_flash_attn : p->flash_attn && (recurrent || m->head_k == m->head_v);
    if (master && m->row->indexer == IDX_AFTER_DENSE && !e->flash_attn) /* its MSA graph asserts on a transposed V */
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET,
                         "%s: llama.cpp master's sparse attention runs only with flash attention (it aborts with -fa off)",
                         m->arch);
    if (lgg_type_get(p->type_v)->quantized && !e->flash_attn)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "V cache quantization requires flash_attn%s",
                         p->flash_attn && !master ? " (forced off: the K and V head sizes differ)" : "");
    uint32_t n_ctx = p->n_ctx ? p->n_ctx : m->n_ctx_train;
    if (n_ctx == 0)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "context size 0: -c 0 asks for the model's %s.context_length, which is 0 or missing",
                         m->arch);
    uint32_t pad = e->flash_attn || e->target == LGG_ESTIMATE_MASTER ? 256u : 32u;
    if (n_ctx > UINT32_MAX - (pad - 1))
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "context size %u overflows when padded", n_ctx);
    e->n_ctx = (n_ctx + pad - 1) / pad * pad;
    if (!m->causal) { /* non-causal (llama_context's causal_attn false): -b as given */
        e->n_batch = p->n_batch;
    } else if (master) { /* min(the context asked for, -b): master pads the context afterwards */
        e->n_batch = p->n_batch < n_ctx ? p->n_batch : n_ctx;
    } else {
        e->n_batch = p->n_batch < e->n_ctx ? p->n_batch : e->n_ctx;
        if (e->n_batch < KQ_MASK_PAD) e->n_batch = KQ_MASK_PAD;
    }
    uint32_t ub = p->n_ubatch ? p->n_ubatch : e->n_batch;
    e->n_ubatch = ub < e->n_batch ? ub : e->n_batch;
    e->n_seq_max = p->n_seq_max ? p->n_seq_max : 1;
    if (master) { /* n_ctx_seq = pad(n_ctx / n_seq_max, 256) cells a sequence, n_ctx their sum */
        uint64_t seq = e->n_ctx / e->n_seq_max, all;
        all = (seq ? pad_up(seq, 256) : 256) * e->n_seq_max;
        e->n_ctx = all > UINT32_MAX ? UINT32_MAX : (uint32_t)all;
    }
    e->recurrent = recurrent;
    e->kv_size = recurrent ? e->n_seq_max : no_memory(m) ? 0 : e->n_ctx;
    e->rs_size = m->row->family != FAM_ATTN ? e->n_seq_max : 0; /* max(1, n_seq_max) state rows */
    if (e->target == LGG_ESTIMATE_MASTER && !recurrent && !no_memory(m)) master_cells(m, p, e);
    else e->kv_size_swa = e->kv_size;
    e->type_k = recurrent ? LGG_TYPE_F32 : p->type_k;
    e->type_v = recurrent ? LGG_TYPE_F32 : p->type_v;
    if (!recurrent && (m->head_k % lgg_type_get(e->type_k)->block_size || m->head_v % lgg_type_get(e->type_v)->block_size))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "head sizes K %u / V %u are not multiples of the cache types' blocks (%s, %s)", m->head_k,
                         m->head_v, lgg_type_name(e->type_k), lgg_type_name(e->type_v));
    e->n_gpu_layers = p->n_gpu_layers > m->n_layer + 1 ? m->n_layer + 1 : p->n_gpu_layers;
    return settle_embeddings(m, p, e, err);
}

/* ---- weights ------------------------------------------------------------ */

/* Layer index of a tensor: 0..n_layer-1 for blk.N., n_layer for the output
 * layer's, UINT32_MAX for the input layer's (always on the host). */
static uint32_t tensor_layer(const facts *m, lgg_str name) {
    static const char *const input[] = {"token_embd.", "token_embd_norm.", "position_embd.", "token_types.",
                                        "per_layer_token_embd."};
    for (size_t i = 0; i < sizeof input / sizeof input[0]; i++) {
        size_t l = strlen(input[i]);
        if (name.len < l || memcmp(name.ptr, input[i], l)) continue;
        /* lfm2's (and lfm2moe's) output norm is named token_embd_norm (LLM_TENSOR_OUTPUT_NORM_LFM2) */
        return i == 1 && m->row && !strncmp(m->row->name, "lfm2", 4) ? m->n_layer : UINT32_MAX;
    }
    /* an encoder's layers are enc.blk.N (t5encoder) */
    const size_t at = name.len > 8 && !memcmp(name.ptr, "enc.blk.", 8) ? 4 : 0;
    if (name.len > at + 4 && !memcmp(name.ptr + at, "blk.", 4)) {
        uint64_t il = 0;
        size_t i = at + 4;
        for (; i < name.len && name.ptr[i] >= '0' && name.ptr[i] <= '9' && il <= MAX_LAYERS; i++)
            il = il * 10 + (uint64_t)(name.ptr[i] - '0');
        if (i > at + 4 && i < name.len && name.ptr[i] == '.' && il < m->n_layer) return (uint32_t)il;
    }
    return m->n_layer;
}

/* The part of the host or of device d. */
static lgg_estimate_part *part_of(lgg_estimate *e, int32_t d) { return d == LGG__HOST ? &e->host : &e->devices[d]; }


/* The repacking master's CPU backend does on x86 (ggml_repack_get_optimal_repack_type): which ISA. */
static uint32_t repack_isa(uint32_t asked) {
    if (asked != LGG_REPACK_HOST) return asked;
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    if (__builtin_cpu_supports("avx512f")) return LGG_REPACK_AVX512;
    if (__builtin_cpu_supports("avx2")) return LGG_REPACK_AVX2;
#endif
    return LGG_REPACK_NONE;
}

/* The name contains `part`. */
static bool name_has(lgg_str name, const char *part) {
    size_t n = strlen(part);
    for (size_t i = 0; i + n <= name.len; i++)
        if (!memcmp(name.ptr + i, part, n)) return true;
    return false;
}

/* A matrix master copies into the CPU_REPACK buffer: one a MUL_MAT (2-D) or MUL_MAT_ID (3-D) reads, of a
 * type the ISA repacks, with a multiple of 8 rows; token_embd is read by GET_ROWS and stays. */
static bool repacked(const lgg_estimate *e, const lgg_tensor *t, uint32_t il) {
    if (e->repack_isa != LGG_REPACK_AVX2 && e->repack_isa != LGG_REPACK_AVX512) return false;
    bool type = t->type == LGG_TYPE_Q4_0 || t->type == LGG_TYPE_Q4_K || t->type == LGG_TYPE_IQ4_NL ||
                t->type == LGG_TYPE_MXFP4 || (t->type == LGG_TYPE_Q2_K && e->repack_isa == LGG_REPACK_AVX512);
    /* MUL_MAT takes a 2-D matrix, MUL_MAT_ID a 3-D one: the experts' and chunk experts' (*_exps, grovemoe's *_chexps; gemma3n's 3-D altup_proj is read by
     * MUL_MAT, and stays) */
    return type && il != UINT32_MAX && (t->n_dims == 2 || (t->n_dims == 3 && name_has(t->name, "exps."))) &&
           t->ne[1] % 8 == 0;
}

/* A tensor each layer reads (rope frequencies): llama.cpp creates it with each layer
 * (TENSOR_DUPLICATED), so every place holding a layer has its own copy. */
static bool every_layer_reads(lgg_str name) {
    static const char *const shared[] = {"rope_freqs.", "rope_factors_long.", "rope_factors_short."};
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
        if (name.len > strlen(shared[i]) && !memcmp(name.ptr, shared[i], strlen(shared[i]))) return true;
    return false;
}

/* Its copies on the devices holding layers; *on_host: the host holds one too.  true on overflow. */
static bool copy_per_device(const lgg__placement *pl, lgg_estimate *e, uint64_t size, bool *on_host) {
    bool has[LGG_ESTIMATE_MAX_DEVICES] = {false};
    *on_host = false;
    for (uint32_t il = 0; il < e->n_layer; il++) {
        int32_t d = lgg__layer_device(pl, il);
        if (d == LGG__HOST) *on_host = true;
        else has[d] = true;
    }
    for (uint32_t d = 0; d < e->n_devices; d++)
        if (has[d] && lgg__add_ovf(e->devices[d].weights, pad_up(size, DEV_ALIGN), &e->devices[d].weights))
            return true;
    return false;
}

/* A layer master does not load (a multi-token-prediction one). */
static bool skipped_layer(const facts *m, const lgg_estimate *e, uint32_t il) {
    return m->row && m->row->nextn_skipped && e->target == LGG_ESTIMATE_MASTER && il < m->n_layer &&
           il >= m->n_layer - m->n_nextn;
}

/* pl NULL: an unknown architecture, everything on the host */
static lgg_status weights(const lgg_file *const *files, size_t n_files, const facts *m, const lgg__placement *pl,
                          lgg_estimate *e, lgg_error *err) {
    uint64_t host = 0, repack = 0, master_repack = 0;
    for (size_t k = 0; k < n_files; k++) {
        uint64_t lo = UINT64_MAX, hi = 0, n = lgg_tensor_count(files[k]);
        for (uint64_t i = 0; i < n; i++) {
            const lgg_tensor *t = lgg_tensor_at(files[k], i);
            uint32_t il = tensor_layer(m, t->name);
            if (skipped_layer(m, e, il)) continue; /* never loaded: in no buffer, not even the mapped one */
            bool overridden;
            int32_t d = pl ? lgg__tensor_device(pl, t->name, il, &overridden) : LGG__HOST;
            if (d == LGG__PLACE_NOMEM) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
            uint64_t sz = pad_up(t->size, d == LGG__HOST ? BUF_ALIGN : DEV_ALIGN);
            if (pl && !overridden && every_layer_reads(t->name)) {
                bool on_host;
                if (copy_per_device(pl, e, t->size, &on_host)) goto ovf;
                if (!on_host) continue;
                d = LGG__HOST, sz = pad_up(t->size, BUF_ALIGN), il = 0;
            }
            if (d != LGG__HOST) {
                if (lgg__add_ovf(e->devices[d].weights, sz, &e->devices[d].weights)) goto ovf;
                continue;
            }
            if (t->type == LGG_TYPE_Q4_0 && t->n_dims == 2 && t->ne[1] % 8 == 0 && il != UINT32_MAX) repack += t->size;
            bool moved = m->row && repacked(e, t, il);
            if (moved && lgg__add_ovf(master_repack, sz, &master_repack)) goto ovf;
            if (moved) continue; /* in the CPU_REPACK buffer, not in the mapped one */
            if (!e->mmap) {
                if (lgg__add_ovf(host, sz, &host)) goto ovf;
                continue;
            }
            /* a mapped buffer spans its file from the first of its tensors to the end of the last */
            uint64_t end = t->file_offset + t->size;
            if (t->file_offset < lo) lo = t->file_offset;
            if (end > hi) hi = end;
        }
        if (e->mmap && hi > lo && lgg__add_ovf(host, hi - lo, &host)) goto ovf;
    }
    /* a tied output layer on a device gets its own copy of token_embd */
    int64_t te = lgg_find_tensor_cstr(files[0], "token_embd.weight");
    if (m->row && m->tied && e->output_device != LGG__HOST && te >= 0) {
        uint64_t *w = &e->devices[e->output_device].weights;
        if (lgg__add_ovf(*w, pad_up(lgg_tensor_at(files[0], (uint64_t)te)->size, DEV_ALIGN), w)) goto ovf;
    }
    /* the output layer's own copy of token_embd, read into memory without mmap (output_first) */
    if (m->row && m->row->output_first && m->tied && !e->mmap && e->output_device == LGG__HOST && te >= 0 &&
        lgg__add_ovf(host, pad_up(lgg_tensor_at(files[0], (uint64_t)te)->size, BUF_ALIGN), &host))
        goto ovf;
    if (lgg__add_ovf(host, master_repack, &host)) goto ovf;
    e->host.weights = host;
    e->repack_q4_0 = e->target == LGG_ESTIMATE_MASTER ? 0 : repack;
    e->repack = master_repack;
    return LGG_OK;
ovf:
    return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the weights' size overflows 64 bits");
}

/* ---- adapters: LoRA and control vectors (llama-adapter.cpp) -------------- */

/* The model's tensor `name` (len bytes) across the shards, or NULL. */
static const lgg_tensor *model_tensor(const lgg_file *const *files, size_t n_files, const char *name, size_t len) {
    for (size_t k = 0; k < n_files; k++) {
        int64_t i = lgg_find_tensor(files[k], name, len);
        if (i >= 0) return lgg_tensor_at(files[k], (uint64_t)i);
    }
    return NULL;
}

/* `size` bytes of adapter tensors in place d's buffer (its alignment); true on overflow. */
static bool add_adapter(lgg_estimate *e, int32_t d, uint64_t size) {
    uint64_t sz = pad_up(size, d == LGG__HOST ? BUF_ALIGN : DEV_ALIGN);
    uint64_t *w = &part_of(e, d)->weights, *a = d == LGG__HOST ? &e->adapters_host : &e->adapters_devices[d];
    return lgg__add_ovf(*w, sz, w) || lgg__add_ovf(*a, sz, a);
}

/* Key `key` of f is the string `want` (NULL: the architecture of the model). */
static bool key_is(const lgg_file *f, const char *key, const char *want) {
    lgg_value v;
    lgg_str s;
    return lgg_get(f, key, &v) == LGG_OK && lgg_value_string(&v, &s) == LGG_OK && s.len == strlen(want) &&
           !memcmp(s.ptr, want, s.len);
}

static bool ends_with_str(lgg_str s, const char *suf) {
    size_t n = strlen(suf);
    return s.len >= n && !memcmp(s.ptr + s.len - n, suf, n);
}

/* One pair NAME.lora_a (a) / NAME.lora_b of LoRA k, checked as llama.cpp checks it, placed with NAME. */
static lgg_status lora_pair(const lgg_file *const *files, size_t n_files, const facts *m, const lgg__placement *pl,
                            lgg_estimate *e, const lgg_file *lf, const lgg_tensor *a, uint32_t k, lgg_error *err) {
    lgg_str base = {a->name.ptr, a->name.len - 7};
    char bname[512];
    if (base.len + 8 > sizeof bname)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: a tensor name of %llu bytes", k,
                         (unsigned long long)a->name.len);
    memcpy(bname, base.ptr, base.len);
    memcpy(bname + base.len, ".lora_b", 8);
    int64_t bi = lgg_find_tensor_cstr(lf, bname);
    if (bi < 0)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: tensor pair for '%.*s' is missing one component",
                         k, (int)base.len, base.ptr);
    const lgg_tensor *b = lgg_tensor_at(lf, (uint64_t)bi), *t = model_tensor(files, n_files, base.ptr, base.len);
    uint32_t il = tensor_layer(m, base);
    if (!t || skipped_layer(m, e, il))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: tensor '%.*s' does not exist in the model", k,
                         (int)base.len, base.ptr);
    bool embd = base.len == 17 && !memcmp(base.ptr, "token_embd.weight", 17);
    bool shape = embd ? t->ne[0] == b->ne[1] && t->ne[1] == a->ne[1]
                      : t->ne[0] == a->ne[0] && t->ne[1] == b->ne[1] && a->ne[1] == b->ne[0];
    if (!shape)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: tensor '%.*s' has a shape the model's does not "
                         "match (another base model?)", k, (int)base.len, base.ptr);
    bool overridden;
    int32_t d = lgg__tensor_device(pl, base, il, &overridden);
    if (d == LGG__PLACE_NOMEM) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    /* a repacked matrix's pair goes to the plain CPU buffer: the host either way */
    if (add_adapter(e, d, a->size) || add_adapter(e, d, b->size))
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the adapters' size overflows 64 bits");
    return LGG_OK;
}

/* The NAME.lora_a beside a NAME.lora_b. */
static bool has_lora_a(const lgg_file *lf, lgg_str b) {
    char aname[512];
    if (b.len + 1 > sizeof aname) return false;
    memcpy(aname, b.ptr, b.len);
    aname[b.len - 1] = 'a', aname[b.len] = 0;
    return lgg_find_tensor_cstr(lf, aname) >= 0;
}

static lgg_status one_lora(const lgg_file *const *files, size_t n_files, const facts *m, const lgg__placement *pl,
                           lgg_estimate *e, const lgg_file *lf, uint32_t k, lgg_error *err) {
    if (!key_is(lf, "general.type", "adapter"))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: general.type is not 'adapter'", k);
    if (!key_is(lf, "general.architecture", m->arch))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: its architecture is not the model's (%s)", k,
                         m->arch);
    if (!key_is(lf, "adapter.type", "lora"))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: adapter.type is not 'lora'", k);
    for (uint64_t i = 0, n = lgg_tensor_count(lf); i < n; i++) {
        const lgg_tensor *t = lgg_tensor_at(lf, i);
        lgg_status st = LGG_OK;
        if (ends_with_str(t->name, ".lora_a")) {
            st = lora_pair(files, n_files, m, pl, e, lf, t, k, err);
        } else if (ends_with_str(t->name, ".lora_b")) {
            if (!has_lora_a(lf, t->name))
                st = lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                               "LoRA %u: tensor pair for '%.*s' is missing one component", k, (int)t->name.len - 7,
                               t->name.ptr);
        } else if (!ends_with_str(t->name, "_norm.weight")) { /* llama.cpp skips those */
            st = lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "LoRA %u: tensor '%.*s' has an unexpected suffix", k,
                           (int)t->name.len, t->name.ptr);
        }
        if (st) return st;
    }
    return LGG_OK;
}

/* The n_embd of control vector file cf ("direction.N" F32 vectors, N > 0), or 0 with err set. */
static uint64_t cvec_embd(const lgg_file *cf, uint32_t k, lgg_error *err) {
    uint64_t n_embd = 0, n = lgg_tensor_count(cf);
    for (uint64_t i = 0; i < n; i++) {
        const lgg_tensor *t = lgg_tensor_at(cf, i);
        size_t j = 10;
        bool named = t->name.len > 10 && !memcmp(t->name.ptr, "direction.", 10);
        uint64_t layer = 0;
        for (; named && j < t->name.len && t->name.ptr[j] >= '0' && t->name.ptr[j] <= '9' && layer < INT32_MAX; j++)
            layer = layer * 10 + (uint64_t)(t->name.ptr[j] - '0');
        const char *why = !named || j == 10 ? "a tensor that is not direction.N"
                          : layer == 0      ? "direction.0 (layer 0 has none)"
                          : t->type != LGG_TYPE_F32 ? "a direction that is not F32"
                          : t->n_dims != 1  ? "a direction that is not a vector"
                          : n_embd && (uint64_t)t->ne[0] != n_embd ? "directions of different lengths" : NULL;
        if (why) {
            lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "control vector %u: %s ('%.*s')", k, why, (int)t->name.len,
                      t->name.ptr);
            return 0;
        }
        n_embd = (uint64_t)t->ne[0];
    }
    if (!n_embd) lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "control vector %u: no direction tensors", k);
    return n_embd;
}

/* With control vectors, llama.cpp allocates one n_embd F32 vector for each layer but the first. */
static lgg_status control_vectors(const lgg_estimate_params *p, const facts *m, const lgg__placement *pl,
                                  lgg_estimate *e, lgg_error *err) {
    for (uint32_t k = 0; k < p->n_control_vectors; k++) {
        uint64_t n_embd = cvec_embd(p->control_vectors[k], k, err);
        if (!n_embd) return LGG_ERR_INVALID;
        if (n_embd != m->n_embd)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                             "control vector %u: its n_embd %llu is not the model's (%u)", k,
                             (unsigned long long)n_embd, m->n_embd);
    }
    for (uint32_t il = 1; p->n_control_vectors && il < m->n_layer; il++)
        if (add_adapter(e, lgg__layer_device(pl, il), (uint64_t)m->n_embd * 4))
            return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the adapters' size overflows 64 bits");
    return LGG_OK;
}

static lgg_status adapters(const lgg_file *const *files, size_t n_files, const facts *m, const lgg__placement *pl,
                           const lgg_estimate_params *p, lgg_estimate *e, lgg_error *err) {
    if ((p->n_loras && !p->loras) || (p->n_control_vectors && !p->control_vectors))
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "n_loras or n_control_vectors without their files");
    for (uint32_t k = 0; k < p->n_loras; k++) {
        if (!p->loras[k]) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "LoRA %u is NULL", k);
        lgg_status st = one_lora(files, n_files, m, pl, e, p->loras[k], k, err);
        if (st) return st;
    }
    for (uint32_t k = 0; k < p->n_control_vectors; k++)
        if (!p->control_vectors[k]) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "control vector %u is NULL", k);
    return control_vectors(p, m, pl, e, err);
}

/* ---- KV cache ------------------------------------------------------------ */

/* Bytes of n1 * n2 * n3 elements of `type`; false on overflow. */
static bool type_bytes(uint32_t type, uint64_t n1, uint64_t n2, uint64_t n3, uint64_t *out) {
    uint64_t n;
    if (lgg__mul_ovf(n1, n2, &n) || lgg__mul_ovf(n, n3, &n)) return false;
    return lgg_type_nbytes(type, n, out) == LGG_OK;
}

/* Each layer's KV cache (its attention layers'), and the recurrent states: R with K, S with V, F32, one row
 * per sequence (llama_memory_recurrent, alone or in llama_memory_hybrid), in the layer's place. */
/* Whether layer il's indexer keeps keys (row->indexer; its multi-token-prediction layers have no cache at all). */
static bool indexer_layer(const facts *m, const lgg_estimate *e, uint32_t il) {
    if (m->row->indexer == IDX_NONE || e->target != LGG_ESTIMATE_MASTER || il >= m->n_layer - m->n_nextn) return false;
    if (m->row->indexer == IDX_EVERY) return true;
    if (m->row->indexer == IDX_AFTER_DENSE) return il >= m->n_dense_lead;
    if (m->has_indexer_types) return layer_u32(&m->indexer_types, il) != 0;
    return m->n_ctx_train < (1u << 20) || il < 2 || (il - 2) % 4 == 0; /* GLM 5/5.1: every layer; 5.2's pattern */
}

/* The indexer's key row a cell of layer il: one head of indexer_k; and its V row, one head of value_length (none
 * beside a latent cache). */
static uint64_t indexer_row(const facts *m, const lgg_estimate *e, uint32_t il) {
    return indexer_layer(m, e, il) ? m->indexer_k : 0;
}
static uint64_t indexer_v_row(const facts *m, const lgg_estimate *e, uint32_t il) {
    return indexer_layer(m, e, il) && !m->mla_latent ? m->head_v : 0;
}

static lgg_status kv_cache(const facts *m, const lgg__placement *pl, lgg_estimate *e, lgg_error *err) {
    uint64_t r_row = 0, s_row = 0, v_max = 0;
    if (m->row->family != FAM_ATTN) state_row(m, &r_row, &s_row);
    /* master without flash attention stores V transposed, every layer's as wide as the widest layer's
     * (llama_kv_cache: n_embd_v_gqa_max; gemma4's full-attention layers get the sliding ones' width) */
    for (uint32_t il = 0; il < m->n_layer && e->target == LGG_ESTIMATE_MASTER && !e->flash_attn; il++) {
        uint64_t w = layer_attention(m, il) ? head_v_of(m, il) * layer_u32(&m->head_kv, il) : 0;
        if (w > v_max) v_max = w;
    }
    for (uint32_t il = 0; il < m->n_layer; il++) {
        uint64_t k = 0, v = 0, r = 0, s = 0;
        /* an attention family's cache holds every layer, deci's attention-free ones too (K 0 wide, V as wide as
         * the widest when transposed); a hybrid's only its attention layers */
        /* a sparse-attention model's multi-token-prediction layers have no cache */
        bool dsa_nextn = m->row->indexer != IDX_NONE && e->target == LGG_ESTIMATE_MASTER && il >= m->n_layer - m->n_nextn;
        if ((layer_attention(m, il) || m->row->family == FAM_ATTN) && il < m->n_kv_layers && !dsa_nextn) {
            uint64_t hkv = layer_u32(&m->head_kv, il), ik = 0, iv = 0;
            uint32_t cells = is_swa(m, e, il) ? e->kv_size_swa : e->kv_size;
            /* the latent MLA cache has no V; the indexer's keys are a cache of their own, counted in K */
            uint64_t v_row = m->mla_latent ? 0 : v_max ? v_max : head_v_of(m, il) * hkv;
            if (!type_bytes(e->type_k, head_k_of(m, il) * hkv, cells, 1, &k) ||
                !type_bytes(e->type_v, v_row, cells, 1, &v) ||
                !type_bytes(e->type_k, indexer_row(m, e, il), cells, 1, &ik) || lgg__add_ovf(k, ik, &k) ||
                !type_bytes(e->type_v, indexer_v_row(m, e, il), cells, 1, &iv) || lgg__add_ovf(v, iv, &v))
                return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "layer %u: the KV cache size overflows", il);
        }
        if (layer_recurrent(m, il)) {
            if (!type_bytes(LGG_TYPE_F32, r_row, e->rs_size, 1, &r) || !type_bytes(LGG_TYPE_F32, s_row, e->rs_size, 1, &s))
                return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "layer %u: the recurrent state's size overflows", il);
            e->n_recurrent_layers++;
        }
        lgg_estimate_part *part = part_of(e, lgg__kv_device(pl, il));
        if (lgg__add_ovf(part->kv_k, k, &part->kv_k) || lgg__add_ovf(part->kv_v, v, &part->kv_v) ||
            lgg__add_ovf(part->kv_k, r, &part->kv_k) || lgg__add_ovf(part->kv_v, s, &part->kv_v) ||
            lgg__add_ovf(e->state_r, r, &e->state_r) || lgg__add_ovf(e->state_s, s, &e->state_s))
            return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the KV cache size overflows");
    }
    return LGG_OK;
}

/* ---- output buffer ------------------------------------------------------- */

/* llama_output_reserve: n_vocab logits per sequence, and in an embedding context n_embd_out floats per
 * sequence beside them (master; <arch>.embedding_length_out, else n_embd), or instead of them (b4747, which
 * keeps them only without pooling: pooled embeddings go to a map of their own). */
static lgg_status output_buffer(const facts *m, lgg_estimate *e, lgg_error *err) {
    const bool master = e->target == LGG_ESTIMATE_MASTER;
    uint32_t embd = m->n_embd;
    uint64_t logits = 0;
    if (master && e->embeddings) {
        lgg_status st = get_u32(m->f, m, "embedding_length_out", false, 0, &embd, err);
        if (st) return st;
        if (!embd) embd = m->n_embd;
    }
    bool ok = true;
    if (!e->embeddings || master) ok = type_bytes(LGG_TYPE_F32, m->n_vocab, e->n_seq_max, 1, &logits);
    if (e->embeddings && (master || e->pooling == LGG_POOLING_NONE))
        ok = ok && type_bytes(LGG_TYPE_F32, embd, e->n_seq_max, 1, &e->output_embd);
    if (!ok || lgg__add_ovf(logits, e->output_embd, &e->host.output))
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the output buffer's size overflows");
    return LGG_OK;
}

/* ---- compute buffer ------------------------------------------------------ */

/* Overflow-checked sums of products: each term is a product of up to four
 * factors.  Any overflow poisons the result. */
typedef struct acc {
    uint64_t v;
    bool ovf;
} acc;

static void term(acc *a, uint64_t x, uint64_t y, uint64_t z, uint64_t w) {
    uint64_t r;
    if (lgg__mul_ovf(x, y, &r) || lgg__mul_ovf(r, z, &r) || lgg__mul_ovf(r, w, &r) || lgg__add_ovf(a->v, r, &a->v))
        a->ovf = true;
}

static void take_max(acc *best, acc a) {
    if (a.ovf) best->ovf = true;
    if (a.v > best->v) best->v = a.v;
}

static acc ffn_peak(const facts *m, uint32_t il, uint64_t T, acc base, acc best);

/* The tensors alive in a recurrent layer's mixer, beside the residual and the normed input (rough: in
 * master's references the output's peak is larger; docs/estimate.md). */
static void mixer_terms(const facts *m, const lgg_estimate *e, uint64_t T, acc *a) {
    const uint64_t E = m->n_embd;
    uint64_t r, s;
    state_row(m, &r, &s);
    term(a, 2, r + s, e->rs_size, 4);                  /* the states read and written */
    if (m->row->family == FAM_RWKV) {
        term(a, 14, E, T, 4);                          /* token shift, the mixes and projections */
    } else if (m->row->family == FAM_SHORTCONV) {
        term(a, 5, E, T, 4);                           /* in_proj (3E), the convolution's input and output */
    } else if (m->row->family == FAM_LINEAR) {
        term(a, 5 * (uint64_t)layer_u32(&m->head, 0), m->head_k, T, 4); /* fused Q/K/V, the gate, the output */
    } else {
        const uint64_t conv = (uint64_t)m->d_inner + 2ull * m->n_group * m->d_state;
        term(a, (uint64_t)m->d_inner + conv + m->dt_rank, T, 4, 1); /* in_proj */
        term(a, 2, conv, T, 4);                        /* the convolution's input and output */
        term(a, 2, m->d_inner, T, 4);                  /* the scan's output, gated */
    }
}

/* Peak of one layer's attention (or recurrent mixer, or both) and FFN (see docs/estimate.md). */
/* An encoder layer's peak (no KV cache: the ubatch's T tokens attend to each other), the larger of
 * attention and FFN, measured on master's bert, nomic-bert and gemma-embedding: the T x T mask (f16 alone
 * with flash attention, f32 without), the residual and normed input (2E); then Q, K and V (a fused
 * projection's output, and Q and K taken out of it), KQ without flash attention, the attention output; or
 * the FFN's input, output and
 * residual (3E) with up (plain) or gate, up and their product (gated). */
static acc encoder_peak(const facts *m, const lgg_estimate *e, uint32_t il, uint64_t T) {
    const uint64_t E = m->n_embd, H = layer_u32(&m->head, il), Hkv = layer_u32(&m->head_kv, il);
    acc at = {0, false}, ff = {0, false};
    term(&at, T, T, e->flash_attn ? 2 : 4, 1);
    ff = at;
    term(&at, 2, E, T, 4);
    term(&at, H * m->head_k + Hkv * (m->head_k + m->head_v), T, 4, 1);
    if (m->row->qkv_fused) term(&at, (H + Hkv) * m->head_k, T, 4, 1); /* Q and K out of the fused output */
    if (!e->flash_attn) term(&at, T, T, H, 4);
    term(&at, H, m->head_v, T, 4);
    acc moe = ff;
    term(&ff, 3, E, T, 4);
    term(&ff, m->row->ffn == FFN_PLAIN ? 1 : 3, layer_ff(m, il), T, 4);
    take_max(&at, ff);
    if (m->row->moe && m->n_expert) { /* an expert layer: the chosen experts' up and down, the router */
        term(&moe, 3, E, T, 4);
        term(&moe, m->n_expert_used, (uint64_t)m->n_ff_exp + E, T, 4);
        term(&moe, 3, m->n_expert, T, 4);
        take_max(&at, moe);
    }
    return at;
}

/* ENC_RELATIVE's layer peak, measured on master's t5encoder: the T x T mask (f16 with flash attention, f32 without),
 * three T x T x n_head products (KQ, KQ with the relative-position bias, the softmax: the bias keeps the graph off
 * flash attention), and 3E and one n_ff row a token. */
static acc relative_peak(const facts *m, const lgg_estimate *e, uint32_t il, uint64_t T) {
    acc at = {0, false};
    term(&at, T, T, e->flash_attn ? 2 : 4, 1);
    term(&at, 3 * (uint64_t)layer_u32(&m->head, il), T, T, 4);
    term(&at, 3 * (uint64_t)m->n_embd + layer_ff(m, il), T, 4, 1);
    return at;
}

static acc layer_peak(const facts *m, const lgg_estimate *e, uint32_t il, uint64_t T) {
    if (no_memory(m)) return encoder_peak(m, e, il, T);
    if (m->row->encoder == ENC_RELATIVE) return relative_peak(m, e, il, T);
    acc best = {0, false};
    acc base = {0, false};
    /* master: each sequence's stream of kv_size / n_seq_max cells attends its share of the batch */
    const uint64_t E = m->n_embd, kv = e->target == LGG_ESTIMATE_MASTER ? e->kv_size / e->n_seq_max : e->kv_size;
    const uint64_t Tp = pad_up(T, KQ_MASK_PAD);
    term(&base, 3, T, 4, 1);                           /* tokens, positions, output ids */
    if (!e->recurrent) term(&base, kv, Tp, e->flash_attn ? 6 : 4, 1); /* KQ mask (f32, plus its f16 copy with FA) */
    acc at = base;
    term(&at, 2, E, T, 4);                             /* residual, normed input */
    if (layer_recurrent(m, il)) mixer_terms(m, e, T, &at);
    if (!layer_attention(m, il)) {
        take_max(&best, at);
        return layer_ff(m, il) || (m->row->moe && m->n_expert) ? ffn_peak(m, il, T, base, best) : best;
    }
    const uint64_t H = layer_u32(&m->head, il), Hkv = layer_u32(&m->head_kv, il);
    const uint64_t hk = head_k_of(m, il), hv = head_v_of(m, il);
    if (!m->mla_latent) {
        term(&at, H, hk, T, 4);                        /* Q */
        term(&at, H, hv, T, 4);                        /* attention output */
    }
    if (e->flash_attn) {
        if (!m->mla_latent) term(&at, Hkv, hk + hv, T, 4); /* K and V of the batch */
    } else {
        term(&at, kv, T, H, 4);                        /* KQ and its softmax, in place */
    }
    if (m->row->qkv_fused) term(&at, 2 * Hkv, hk, T, 4); /* the fused output's K and V parts */
    /* decompressed K, V, K states; in master's latent layout the absorbed Q (key_length wide), its RoPE'd copy and
     * the latent output (value_length), measured on deepseek32 (its indexer's scores not counted) */
    if (m->row->mla) term(&at, H, 2 * (uint64_t)m->head_k + m->head_v, T, 4);
    take_max(&best, at);
    if (m->row->layers == LAYERS_NEMOTRON && !layer_ff(m, il)) return best; /* attention alone */
    return ffn_peak(m, il, T, base, best);
}

/* The FFN's peak, or `best` when that is larger. */
static acc ffn_peak(const facts *m, uint32_t il, uint64_t T, acc base, acc best) {
    const uint64_t E = m->n_embd;
    acc ff = base;
    /* residual, normed input and (but for the fused up, whose halves are
     * copied out while it lives) the FFN output */
    term(&ff, m->row->ffn == FFN_FUSED_UP ? 2 : 3, E, T, 4);
    if (m->row->moe && m->n_expert > 0 && il >= m->n_dense_lead) {
        term(&ff, 3, m->n_expert, T, 4);               /* router logits, probabilities, sorted ids */
        /* gate and up of the chosen experts (and, where measured so, their product: grok) */
        term(&ff, m->row->expert_rows ? m->row->expert_rows : 2, m->n_ff_exp, m->n_expert_used, T * 4);
        term(&ff, E, m->n_expert_used, T, 4);          /* their down projections */
        term(&ff, 2, m->n_ff_shexp, T, 4);             /* shared experts */
    } else {
        /* gate, up (and, measured on the embedding graphs whose FFN is their peak, their product) */
        term(&ff, m->row->ffn == FFN_FUSED_UP ? 4 : no_logits(m) ? 3 : 2, m->n_ff_max, T, 4);
    }
    take_max(&best, ff);
    return best;
}

/* Whether anything is on a device (weights or cache): then each place has a compute buffer. */
static bool offloaded(const lgg_estimate *e) {
    if (e->n_gpu_layers > 0) return true;
    for (uint32_t d = 0; d < e->n_devices; d++)
        if (e->devices[d].weights || e->devices[d].kv_k || e->devices[d].kv_v) return true;
    return false;
}

/* The buffer ggml-alloc reserves for llama.cpp's worst-case graph, replayed
 * (galloc.c, graphs.c): exact where the graph is rebuilt.  false: use the
 * model of the peaks below (*nomem: because an allocation failed). */
static bool graph_compute(const facts *m, const lgg_estimate *e, uint64_t T, uint64_t *bytes, bool *nomem) {
    const bool moe = m->row->moe && m->n_expert > 0;
    if (m->row->graph == NO_GRAPH || offloaded(e) || (!moe && !m->has_ff)) return false;
    uint32_t h[MAX_LAYERS], hkv[MAX_LAYERS], ff[MAX_LAYERS];
    for (uint32_t il = 0; il < m->n_layer; il++) {
        h[il] = layer_u32(&m->head, il), hkv[il] = layer_u32(&m->head_kv, il);
        ff[il] = m->has_ff ? layer_u32(&m->ff, il) : m->n_ff_exp;
        if (!h[il] || !hkv[il] || (!ff[il] && !moe)) return false;
    }
    if (moe && (!m->n_ff_exp || !m->n_expert_used)) return false;
    if (m->row->mla && !m->mla_known) return false;
    g_model g = {(uint8_t)m->row->graph, m->n_layer, m->n_embd, m->n_vocab, h, hkv, ff, m->head_k, m->head_v,
                 e->type_k, e->type_v, m->bias_q, m->bias_k, m->bias_v, m->bias_o, e->flash_attn, T, e->kv_size,
                 moe ? m->n_expert : 0, m->n_expert_used, m->n_ff_exp,
                 /* build_llama renormalizes the chosen experts' weights, build_qwen2moe does not,
                  * build_deepseek2 as expert_weights_norm says */
                 m->row->mla ? m->norm_w : !strcmp(m->row->name, "llama"), m->n_ff_shexp, m->n_dense_lead,
                 m->row->mla, m->row->mla && m->gating == 2, m->probs_bias, m->q_lora, m->kv_lora, m->n_rot,
                 m->alloc};
    lgg_status st = lgg__g_compute(&g, bytes);
    *nomem = st == LGG_ERR_NOMEM;
    return st == LGG_OK;
}

/* The pooling's tensors (llm_graph_context::build_pooling), added after the logits while they stay
 * allocated: for S sequences (the worst-case batch's: master's n_seq_max, b4747's 1) of T tokens. */
static acc pooling_terms(const facts *m, const lgg_estimate *e, uint64_t T) {
    const uint64_t E = m->n_embd, S = e->target == LGG_ESTIMATE_MASTER ? e->n_seq_max : 1;
    acc a = {0, false};
    if (e->pooling == LGG_POOLING_MEAN) {
        term(&a, E, T, 4, 1); /* the transposed hidden states, made contiguous */
        term(&a, T, S, 4, 1); /* the averaging matrix */
    } else if (e->pooling != LGG_POOLING_NONE) {
        term(&a, S, 4, 1, 1); /* the rows picked (cls, last, rank) */
    }
    if (e->pooling != LGG_POOLING_NONE) term(&a, E, S, 4, 1); /* one pooled row per sequence */
    if (e->pooling == LGG_POOLING_RANK) /* the head's products and their bias, activation or softmax */
        term(&a, 2 * (m->cls_rows + m->cls_out_rows), S, 4, 1);
    return a;
}

/* master's worst-case batch: T tokens, min(T, n_outputs_max) of them outputs (0: n_batch, so all) */
static lgg_status compute(const facts *m, const lgg__placement *pl, uint32_t n_outputs_max, lgg_estimate *e,
                          lgg_error *err) {
    const uint64_t T = e->n_ubatch < e->n_ctx ? e->n_ubatch : e->n_ctx;
    const uint64_t O = e->target == LGG_ESTIMATE_MASTER && n_outputs_max && n_outputs_max < T ? n_outputs_max : T;
    const acc pool = pooling_terms(m, e, T);
    uint64_t exact;
    bool nomem = false;
    /* the replayed graph is b4747's, every token an output: not a batch of fewer outputs */
    if (O == T && graph_compute(m, e, T, &exact, &nomem)) {
        /* on the host alone: the device's stays 0.  Pooling is not replayed: counted on top */
        if (pool.ovf || lgg__add_ovf(exact, pool.v, &e->host.compute))
            return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the compute buffer's size overflows");
        /* b4747's graph: master's is not replayed yet */
        e->compute_exact = e->target != LGG_ESTIMATE_MASTER && !pool.v;
        return LGG_OK;
    }
    if (nomem) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory (the compute graph)");
    acc host = {0, false}, dev[LGG_ESTIMATE_MAX_DEVICES] = {{0, false}}, out = {0, false}, in = {0, false};
    /* logits of every output of the batch (none in an embedding graph), and their copies */
    if (!no_logits(m)) term(&out, m->n_vocab, O, 4, 1 + (e->target == LGG_ESTIMATE_MASTER ? m->row->logits_copies : 0));
    /* the final norm feeding them; in master also the last layer's output and residual (measured: the
     * llama-like and plain-FFN references' peak is the logits and 3E) */
    term(&out, m->n_embd, O, 4, e->target == LGG_ESTIMATE_MASTER ? 3 : 1);
    term(&out, pool.v, 1, 1, 1);                       /* the pooling (an embedding context) */
    out.ovf |= pool.ovf;
    term(&in, m->n_embd, T, 4, 1);                     /* token embeddings (always on the host) */
    term(&in, 3, T, 4, 1);
    for (uint32_t il = 0; il <= m->n_layer; il++) {
        int32_t d = lgg__layer_device(pl, il);
        take_max(d == LGG__HOST ? &host : &dev[d], il < m->n_layer ? layer_peak(m, e, il, T) : out);
    }
    if (offloaded(e)) take_max(&host, in);
    for (uint32_t d = 0; d < e->n_devices; d++) {
        if (dev[d].ovf) host.ovf = true;
        e->devices[d].compute = dev[d].v;
    }
    if (host.ovf) return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the compute buffer's size overflows");
    e->host.compute = host.v;
    return LGG_OK;
}

/* ---- putting it together -------------------------------------------------- */

static lgg_status sum_part(lgg_estimate_part *p) {
    uint64_t t = 0;
    if (lgg__add_ovf(t, p->weights, &t) || lgg__add_ovf(t, p->kv_k, &t) || lgg__add_ovf(t, p->kv_v, &t) ||
        lgg__add_ovf(t, p->output, &t) || lgg__add_ovf(t, p->compute, &t))
        return LGG_ERR_RANGE;
    p->total = t;
    return LGG_OK;
}

/* a += b, figure by figure (not the total) */
static bool add_part(lgg_estimate_part *a, const lgg_estimate_part *b) {
    return lgg__add_ovf(a->weights, b->weights, &a->weights) || lgg__add_ovf(a->kv_k, b->kv_k, &a->kv_k) ||
           lgg__add_ovf(a->kv_v, b->kv_v, &a->kv_v) || lgg__add_ovf(a->compute, b->compute, &a->compute);
}

/* The totals of host and devices, `device` the devices' sum, and `all`,
 * host and device (the output buffer is the host's only). */
static lgg_status finish(lgg_estimate *e, lgg_error *err) {
    lgg_estimate_part *a = &e->all;
    a->output = e->host.output;
    bool ovf = false;
    for (uint32_t d = 0; d < e->n_devices; d++) ovf = ovf || add_part(&e->device, &e->devices[d]) || sum_part(&e->devices[d]);
    if (ovf || sum_part(&e->host) || sum_part(&e->device) || lgg__add_ovf(e->host.weights, e->device.weights, &a->weights) ||
        lgg__add_ovf(e->host.kv_k, e->device.kv_k, &a->kv_k) || lgg__add_ovf(e->host.kv_v, e->device.kv_v, &a->kv_v) ||
        lgg__add_ovf(e->host.compute, e->device.compute, &a->compute) || sum_part(a))
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the total overflows 64 bits");
    return LGG_OK;
}

/* The devices and where the layers went. */
static void place_layers(const lgg__placement *pl, const lgg_estimate_params *p, lgg_estimate *e) {
    e->n_devices = p->n_devices > 1 ? p->n_devices : 1;
    for (uint32_t il = 0; il < e->n_layer; il++) {
        int32_t d = lgg__layer_device(pl, il);
        if (d != LGG__HOST) e->device_layers[d]++;
    }
    e->output_device = lgg__layer_device(pl, e->n_layer);
    e->output_offloaded = e->output_device != LGG__HOST;
}

static lgg_status start(const lgg_file *const *files, size_t n_files, const lgg_estimate_params **p,
                        lgg_estimate_params *defaults, facts *m, lgg_error *err);
static lgg_status run(const lgg_file *const *files, size_t n_files, const facts *m, const lgg_estimate_params *p,
                      lgg_estimate *e, lgg_error *err);

/* ---- a draft model (speculative decoding) -------------------------------- */

/* The draft context's settings as llama.cpp's server derives them from the target's (p asked, e used):
 * master's common_speculative_init_from_params (the target's n_ctx, batches and sequences, one output per
 * sequence), b4747's server (a context per sequence, of -cd cells or the asked -c over the sequences, its
 * n_batch its padded size: set by the caller once known).  Both: F16 caches; the target's devices, -ts, split
 * mode, -nkvo, flash attention, mmap and repacking; no tensor overrides, adapters or embeddings. */
static lgg_estimate_params draft_params(const lgg_estimate_params *p, const lgg_estimate *e) {
    lgg_estimate_params q = *p;
    q.draft_files = NULL, q.n_draft_files = 0;
    q.overrides = NULL, q.n_overrides = 0;
    q.loras = NULL, q.n_loras = 0, q.control_vectors = NULL, q.n_control_vectors = 0;
    q.embeddings = false, q.pooling = LGG_POOLING_MODEL;
    q.type_k = q.type_v = LGG_TYPE_F16;
    q.n_gpu_layers = p->draft_n_gpu_layers;
    if (e->target == LGG_ESTIMATE_MASTER) {
        q.n_ctx = e->n_ctx;
        q.n_outputs_max = e->n_seq_max;
    } else {
        q.n_ctx = p->draft_n_ctx ? p->draft_n_ctx : p->n_ctx / e->n_seq_max; /* 0: the draft model's own */
        q.n_seq_max = 1;
    }
    return q;
}

/* Every context's buffers (KV cache, output, compute) k times: b4747's one draft context per sequence. */
static bool times_contexts(lgg_estimate_part *a, uint64_t k) {
    return lgg__mul_ovf(a->kv_k, k, &a->kv_k) || lgg__mul_ovf(a->kv_v, k, &a->kv_v) ||
           lgg__mul_ovf(a->output, k, &a->output) || lgg__mul_ovf(a->compute, k, &a->compute) || sum_part(a);
}

/* "WHOSE: " before err's message (the draft model's, the projector's: not the model's own) */
static lgg_status named_fail(lgg_status st, const char *whose, lgg_error *err) {
    if (!err) return st;
    char msg[sizeof err->message];
    snprintf(msg, sizeof msg, "%s", err->message);
    snprintf(err->message, sizeof err->message, "%s: %.*s", whose, (int)sizeof msg - 24, msg);
    return st;
}

/* The draft model's figures (e->draft_*) beside the target's in e. */
static lgg_status draft(const lgg_estimate_params *p, lgg_estimate *e, lgg_error *err) {
    lgg_estimate_params q = draft_params(p, e), defaults;
    const lgg_estimate_params *qp = &q;
    facts m;
    lgg_estimate d;
    lgg_status st = start(p->draft_files, p->n_draft_files, &qp, &defaults, &m, err);
    if (st == LGG_OK) st = run(p->draft_files, p->n_draft_files, &m, &q, &d, err);
    if (st == LGG_OK && e->target != LGG_ESTIMATE_MASTER) { /* n_batch: the context's padded size */
        q.n_ctx = q.n_batch = d.n_ctx;
        st = run(p->draft_files, p->n_draft_files, &m, &q, &d, err);
    }
    if (st != LGG_OK) return named_fail(st, "the draft model", err);
    const uint32_t k = e->target == LGG_ESTIMATE_MASTER ? 1 : e->n_seq_max;
    bool ovf = times_contexts(&d.host, k);
    for (uint32_t i = 0; i < d.n_devices; i++) ovf = ovf || times_contexts(&d.devices[i], k);
    ovf = ovf || times_contexts(&d.device, k);
    /* all: host and devices again (the output buffer is the host's) */
    d.all = d.device, d.all.output = d.host.output;
    ovf = ovf || add_part(&d.all, &d.host) || sum_part(&d.all);
    if (ovf) return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the draft model: the total overflows 64 bits");
    e->has_draft = true;
    memcpy(e->draft_arch, d.arch, sizeof e->draft_arch);
    e->draft_n_layer = d.n_layer, e->draft_n_ctx = d.n_ctx, e->draft_n_batch = d.n_batch;
    e->draft_n_ubatch = d.n_ubatch, e->draft_n_seq_max = d.n_seq_max, e->draft_contexts = k;
    e->draft_n_gpu_layers = d.n_gpu_layers, e->draft_compute_exact = d.compute_exact;
    e->draft_all = d.all, e->draft_host = d.host, e->draft_device = d.device;
    memcpy(e->draft_devices, d.devices, sizeof e->draft_devices);
    return LGG_OK;
}

/* ---- a multimodal projector (mmproj.c) ---------------------------------- */

/* Where and how clip runs it: master's mtmd on the first GPU unless --no-mmproj-offload (here: when anything
 * is offloaded), with flash attention as -fa says (auto: on); b4747's clip.cpp on the CPU alone (its GPU
 * backends are commented out) and without flash attention. */
static lgg_status mmproj(const lgg_estimate_params *p, lgg_estimate *e, lgg_error *err) {
    const bool master = e->target == LGG_ESTIMATE_MASTER;
    const int32_t dev = master && !p->no_mmproj_offload && offloaded(e) ? 0 : LGG__HOST;
    lgg__mmproj mp;
    lgg_status st = lgg__mmproj_estimate(p->mmproj, dev == LGG__HOST ? BUF_ALIGN : DEV_ALIGN,
                                         master && !p->no_flash_attn, &mp, err);
    if (st) return named_fail(st, "the projector", err);
    e->has_mmproj = true;
    memcpy(e->mmproj_type, mp.type, sizeof e->mmproj_type);
    e->mmproj_device = dev;
    e->mmproj_n_layer = mp.n_layer, e->mmproj_n_embd = mp.n_embd, e->mmproj_image_size = mp.image_size;
    e->mmproj_patch_size = mp.patch_size, e->mmproj_n_patches = mp.n_pos;
    e->mmproj_weights = mp.weights, e->mmproj_compute = mp.compute;
    return LGG_OK;
}

static lgg_status run(const lgg_file *const *files, size_t n_files, const facts *m, const lgg_estimate_params *p,
                      lgg_estimate *e, lgg_error *err) {
    memset(e, 0, sizeof *e);
    memcpy(e->arch, m->arch, sizeof e->arch);
    e->mmap = !p->no_mmap;
    e->target = p->target == LGG_ESTIMATE_MASTER ? LGG_ESTIMATE_MASTER : LGG_ESTIMATE_B4747;
    e->repack_isa = e->target == LGG_ESTIMATE_MASTER ? repack_isa(p->repack) : LGG_REPACK_NONE;
    e->n_layer = m->n_layer;
    e->n_ctx_train = m->n_ctx_train;
    e->n_vocab = m->n_vocab;
    e->n_devices = 1;
    e->output_device = LGG__HOST;
    if (!m->row) {
        lgg_status st = weights(files, n_files, m, NULL, e, err);
        if (st || (st = finish(e, err))) return st;
        /* the list would not fit one message: the docs have it */
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                         "architecture '%s' is not known to the estimator (docs/estimate.md lists the %zu it "
                         "knows): only the weights are estimated",
                         m->arch, sizeof ARCHS / sizeof ARCHS[0]);
    }
    e->arch_known = true;
    lgg__placement pl;
    lgg_status st = settle(m, p, e, err);
    if (st == LGG_OK) st = lgg__placement_init(&pl, p, m->n_layer, e->n_gpu_layers, err);
    else memset(&pl, 0, sizeof pl);
    if (st == LGG_OK) {
        place_layers(&pl, p, e);
        if (!(st = weights(files, n_files, m, &pl, e, err)) && !(st = adapters(files, n_files, m, &pl, p, e, err)) &&
            !(st = kv_cache(m, &pl, e, err))) {
            if (!(st = output_buffer(m, e, err)) && !(st = compute(m, &pl, p->n_outputs_max, e, err)) &&
                !(st = finish(e, err)) && p->draft_files)
                st = draft(p, e, err);
            if (st == LGG_OK && p->mmproj) st = mmproj(p, e, err);
        }
    }
    lgg__placement_free(&pl);
    return st;
}

static lgg_status start(const lgg_file *const *files, size_t n_files, const lgg_estimate_params **p,
                        lgg_estimate_params *defaults, facts *m, lgg_error *err) {
    if (!files || n_files == 0) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "no model file");
    for (size_t i = 0; i < n_files; i++)
        if (!files[i]) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "file %zu is NULL", i);
    if (!*p) {
        lgg_estimate_params_init(defaults);
        *p = defaults;
    }
    lgg_status st = read_facts(files, n_files, (*p)->target, m, err);
    m->alloc = (*p)->allocator;
    return st;
}

lgg_status lgg_estimate_model(const lgg_file *const *files, size_t n_files, const lgg_estimate_params *p,
                              lgg_estimate *out, lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "out is NULL");
    LGG__OPTIONS_IN(lgg_estimate_params, p, err)
    memset(out, 0, sizeof *out);
    lgg_estimate_params defaults;
    facts m;
    lgg_status st = start(files, n_files, &p, &defaults, &m, err);
    if (st) return st;
    return run(files, n_files, &m, p, out, err);
}

/* Check the inputs once for a search; *q starts as the caller's settings. */
static lgg_status search_start(const lgg_file *const *files, size_t n_files, const lgg_estimate_params *p,
                               lgg_estimate_params *q, facts *m, lgg_error *err) {
    lgg_estimate_params defaults;
    lgg_status st = start(files, n_files, &p, &defaults, m, err);
    if (st == LGG_OK) *q = *p;
    return st;
}

/* With several devices, each against its own budget (the params' device_free); with one, device_budget. */
/* A place's total with the draft model's and the projector's there; false on overflow. */
static bool place_total(const lgg_estimate *e, int32_t d, bool all_devices, uint64_t *t) {
    const lgg_estimate_part *m = d == LGG__HOST ? &e->host : all_devices ? &e->device : &e->devices[d];
    const lgg_estimate_part *x = d == LGG__HOST ? &e->draft_host : all_devices ? &e->draft_device : &e->draft_devices[d];
    uint64_t proj = e->has_mmproj && e->mmproj_device == (all_devices ? 0 : d) ? e->mmproj_weights : 0;
    return !(lgg__add_ovf(m->total, x->total, t) || lgg__add_ovf(*t, proj, t) ||
             lgg__add_ovf(*t, proj ? e->mmproj_compute : 0, t));
}

static bool fits(const lgg_estimate *e, const lgg_estimate_params *p, uint64_t host_budget, uint64_t device_budget) {
    /* with a draft model and a projector, all together (a wrapped sum would be a false fit) */
    uint64_t t;
    if (!place_total(e, LGG__HOST, false, &t) || t > host_budget) return false;
    if (e->n_devices > 1) {
        for (uint32_t d = 0; d < e->n_devices; d++)
            if (p->device_free[d] && (!place_total(e, (int32_t)d, false, &t) || t > p->device_free[d])) return false;
        return true;
    }
    return device_budget == 0 || (place_total(e, 0, true, &t) && t <= device_budget);
}

lgg_status lgg_estimate_fit_ctx(const lgg_file *const *files, size_t n_files, const lgg_estimate_params *p,
                                uint64_t host_budget, uint64_t device_budget, uint32_t *n_ctx, lgg_error *err) {
    return lgg_estimate_fit_ctx_max(files, n_files, p, host_budget, device_budget, 0, n_ctx, err);
}

lgg_status lgg_estimate_fit_ctx_max(const lgg_file *const *files, size_t n_files, const lgg_estimate_params *p,
                                    uint64_t host_budget, uint64_t device_budget, uint32_t max_ctx, uint32_t *n_ctx,
                                    lgg_error *err) {
    if (!n_ctx) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "n_ctx is NULL");
    LGG__OPTIONS_IN(lgg_estimate_params, p, err)
    lgg_estimate_params q;
    facts m;
    lgg_estimate e;
    lgg_status st = search_start(files, n_files, p, &q, &m, err);
    if (st) return st;
    q.n_ctx = 1;
    if ((st = run(files, n_files, &m, &q, &e, err))) return st;
    if (!fits(&e, &q, host_budget, device_budget))
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET,
                         "even the smallest context (%u) needs %llu bytes on the host and %llu on the device", e.n_ctx,
                         (unsigned long long)e.host.total, (unsigned long long)e.device.total);
    /* every figure but the compute buffer grows with the context, and that one
     * nearly so: bisect the steps of the padding */
    const uint64_t step = e.n_ctx;
    uint64_t max_steps = (UINT32_MAX - 255u) / step;
    if (max_ctx && max_ctx / step < max_steps) max_steps = max_ctx / step ? max_ctx / step : 1;
    uint64_t lo = 1, hi = max_steps;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        q.n_ctx = (uint32_t)(mid * step);
        st = run(files, n_files, &m, &q, &e, err);
        if (st != LGG_OK && st != LGG_ERR_RANGE) return st;
        if (st == LGG_OK && fits(&e, &q, host_budget, device_budget)) lo = mid;
        else hi = mid - 1;
    }
    /* the compute buffer is not monotonic in the context by a block or two of
     * the allocator, which a few steps of cache can outweigh: look past the
     * bisection's answer for a larger context that still fits */
    for (uint64_t k = lo + 1, best = lo; k <= best + 16 && k <= max_steps; k++) {
        q.n_ctx = (uint32_t)(k * step);
        st = run(files, n_files, &m, &q, &e, err);
        if (st != LGG_OK && st != LGG_ERR_RANGE) return st;
        if (st == LGG_OK && fits(&e, &q, host_budget, device_budget)) best = lo = k;
    }
    *n_ctx = (uint32_t)(lo * step);
    return LGG_OK;
}

lgg_status lgg_estimate_fit_gpu_layers(const lgg_file *const *files, size_t n_files, const lgg_estimate_params *p,
                                       uint64_t device_budget, uint32_t *n_gpu_layers, lgg_error *err) {
    if (!n_gpu_layers) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "n_gpu_layers is NULL");
    LGG__OPTIONS_IN(lgg_estimate_params, p, err)
    lgg_estimate_params q;
    facts m;
    lgg_estimate e;
    lgg_status st = search_start(files, n_files, p, &q, &m, err);
    if (st) return st;
    /* offloading more layers never shrinks the device's share, so count down */
    for (uint32_t n = m.n_layer + 1;; n--) {
        q.n_gpu_layers = n;
        if ((st = run(files, n_files, &m, &q, &e, err))) return st;
        uint64_t t; /* one device: its total with the draft's and the projector's there */
        if (n == 0 || (e.n_devices > 1 ? fits(&e, &q, UINT64_MAX, 0)
                                       : place_total(&e, 0, true, &t) && t <= device_budget)) {
            *n_gpu_layers = n;
            return LGG_OK;
        }
    }
}
