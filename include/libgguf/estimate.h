/* libgguf/estimate.h -- the memory estimate: what llama.cpp (b4747, or master) allocates
 * to run a model. Part of libgguf's public API, included by libgguf.h (only
 * that one is included directly; its conventions hold here). */
#ifndef LIBGGUF_ESTIMATE_H
#define LIBGGUF_ESTIMATE_H

#ifndef LIBGGUF_H
#error "include libgguf.h, which includes this header (inside its extern \"C\")"
#endif

/* ======================================================================== */
/* Memory estimate: what llama.cpp (b4747, or master) allocates for a model  */
/* ======================================================================== */

/* llama.cpp's llama_max_devices(): the most devices a model is split over. */
#define LGG_ESTIMATE_MAX_DEVICES 16

/* A tensor placement rule, llama.cpp's --override-tensor PATTERN=BUFFER: a tensor whose name the
 * pattern matches (searched anywhere in the name, as std::regex_search does) is placed on `device`,
 * whatever its layer's place.  The pattern is a POSIX extended regular expression, which reads the
 * patterns people write for llama.cpp's ECMAScript ones the same (blk\.[0-9]+\.ffn_.*_exps,
 * \.ffn_(up|down|gate)_exps; not \d or lookarounds).  A rule to the host keeps repacking
 * (master's CPU_REPACK), as llama.cpp's override to CPU does. */
typedef struct lgg_estimate_override {
    const char *pattern;
    int32_t device; /* LGG_ESTIMATE_HOST: the host (llama.cpp's CPU buffer), else a device index below
                       n_devices */
} lgg_estimate_override;
#define LGG_ESTIMATE_HOST (-1)

/* Run settings, with llama.cpp's names and llama-cli's defaults
 * (lgg_estimate_params_init). */
typedef struct lgg_estimate_params {
    size_t size;           /* sizeof(lgg_estimate_params), or 0 (see lgg_open_options) */
    uint32_t n_ctx;        /* -c: context size; 0 = the model's context_length.  Default 4096 */
    uint32_t n_batch;      /* -b: logical batch.  Default 2048 */
    uint32_t n_ubatch;     /* -ub: physical batch.  Default 512 */
    uint32_t n_seq_max;    /* -np: parallel sequences (they share n_ctx).  Default 1 */
    uint32_t type_k;       /* -ctk: K cache type (F32, F16, BF16, Q8_0, Q4_0, Q4_1, IQ4_NL, Q5_0, Q5_1).  F16 */
    uint32_t type_v;       /* -ctv: V cache type (the same list; quantized needs flash_attn).  F16 */
    bool flash_attn;       /* -fa */
    bool no_mmap;          /* --no-mmap: weights are read into host memory instead of mapped */
    uint32_t n_gpu_layers; /* -ngl: layers offloaded to one device, counted from the last layer; the
                              output layer is offloaded when it exceeds n_layer.  Default 0 */
    const lgg_allocator *allocator; /* NULL: malloc/free (the replayed compute graph's working memory) */
    /* Added (zero: the earlier behaviour). */
    uint32_t target;   /* whose allocation: LGG_ESTIMATE_B4747 (default) or LGG_ESTIMATE_MASTER
                          (llama.cpp master 3f545becc: context padded to 256, SWA caches, CPU_REPACK) */
    uint32_t repack;   /* master: LGG_REPACK_HOST (default: as this CPU does), LGG_REPACK_NONE
                          (--no-repack), LGG_REPACK_AVX2, LGG_REPACK_AVX512 (--repack) */
    bool swa_full;     /* master: --swa-full (sliding-window layers get a full-size cache) */
    bool no_flash_attn; /* master: -fa off (master's default, auto, turns flash attention on for the CPU;
                           flash_attn is b4747's switch) */
    /* Added: several devices, placed as llama.cpp's llama_model_load places them (both targets). */
    uint32_t n_devices;   /* devices the n_gpu_layers offloaded layers are split over: 0 or 1 is one
                             device (`device` alone), at most LGG_ESTIMATE_MAX_DEVICES */
    float tensor_split[LGG_ESTIMATE_MAX_DEVICES]; /* -ts: each device's share of the layers; all 0: by
                             device_free, or equal shares when that is all 0 too */
    uint64_t device_free[LGG_ESTIMATE_MAX_DEVICES]; /* each device's free memory: llama.cpp's default
                             split, and with n_devices > 1 the budget lgg_estimate_fit_* check each
                             device against (0: unchecked) */
    uint32_t split_mode;  /* -sm: LGG_SPLIT_LAYER (default) or LGG_SPLIT_NONE (everything offloaded on
                             main_gpu); row splits are not estimated (LGG_ERR_UNSUPPORTED) */
    uint32_t main_gpu;    /* -mg: the device of LGG_SPLIT_NONE */
    bool no_kv_offload;   /* -nkvo: every layer's KV cache on the host */
    uint32_t n_overrides; /* -ot, --cpu-moe, --n-cpu-moe: the rules below, the first match wins */
    const lgg_estimate_override *overrides;
    /* Added: adapters, allocated as llama.cpp allocates them (both targets). */
    uint32_t n_loras;     /* --lora: LoRA adapter files (general.type "adapter", adapter.type "lora", the
                             model's architecture); each pair NAME.lora_a/NAME.lora_b is allocated where
                             the model's NAME is (the host for a repacked one), in a buffer per place */
    const lgg_file *const *loras;
    uint32_t n_control_vectors; /* --control-vector: control vector files (F32 direction.N vectors of
                             n_embd); with any, one n_embd F32 vector per layer 1..n_layer-1 on its layer's place */
    const lgg_file *const *control_vectors;
    /* Added: an embedding context (llama.cpp's --embedding, --pooling, --reranking: llama_context_params'
     * embeddings and pooling_type). */
    bool embeddings;      /* the output buffer holds embeddings: beside the logits in master, instead of them
                             in b4747 (and only without pooling there) */
    uint32_t pooling;     /* LGG_POOLING_MODEL (0: the model's <arch>.pooling_type, none without it), or
                             LGG_POOLING_NONE, _MEAN, _CLS, _LAST, _RANK (--reranking: embeddings and RANK);
                             used only with embeddings */
    /* Added: master's llama_context_params.n_outputs_max, the outputs of the worst-case batch (their logits
     * are in the compute buffer).  0: n_batch, llama.cpp's default (every token); a draft context has one per
     * sequence.  b4747 has no such setting: every token. */
    uint32_t n_outputs_max;
    /* Added: a draft model for speculative decoding (llama.cpp's -md), its context made as llama.cpp's server
     * makes it (docs/estimate.md): master one context of the target's n_ctx, n_batch, n_ubatch and sequences
     * with one output per sequence; b4747 one context per sequence of draft_n_ctx (0: the asked n_ctx /
     * n_seq_max) cells, its n_batch that size.  F16 caches, the same devices, -ts, split mode and -nkvo, no
     * tensor overrides or adapters.  Its figures are the estimate's draft_* (not in the others). */
    const lgg_file *const *draft_files; /* its file, or every shard of a set in order; NULL: no draft */
    size_t n_draft_files;
    uint32_t draft_n_gpu_layers;        /* -ngld: the draft's offloaded layers (counted as n_gpu_layers is) */
    uint32_t draft_n_ctx;               /* -cd, b4747 only: each draft context's size (0: as above) */
    /* Added: a multimodal projector (llama.cpp's --mmproj, general.architecture "clip" with a vision encoder),
     * as master's mtmd/clip.cpp allocates it: its tensors in one buffer, each padded to the place's alignment,
     * on the first device when anything is offloaded (n_gpu_layers, or a device's weights) and on the host
     * with no_mmproj_offload (--no-mmproj-offload) or nothing offloaded; and the compute buffer of its
     * warm-up image (image_size square), modelled.  Its figures are the estimate's mmproj_* (not in the
     * others). */
    const lgg_file *mmproj;
    bool no_mmproj_offload;
} lgg_estimate_params;
#define LGG_POOLING_MODEL 0u
#define LGG_POOLING_NONE 1u
#define LGG_POOLING_MEAN 2u
#define LGG_POOLING_CLS 3u
#define LGG_POOLING_LAST 4u
#define LGG_POOLING_RANK 5u
#define LGG_SPLIT_LAYER 0u
#define LGG_SPLIT_NONE 1u
#define LGG_SPLIT_ROW 2u
#define LGG_ESTIMATE_B4747 0u
#define LGG_ESTIMATE_MASTER 1u
#define LGG_REPACK_HOST 0u
#define LGG_REPACK_NONE 1u
#define LGG_REPACK_AVX2 2u   /* Q4_0, Q4_K, IQ4_NL, MXFP4 matrices with rows a multiple of 8 */
#define LGG_REPACK_AVX512 3u /* those and Q2_K */
#define LGG_ESTIMATE_PARAMS_INIT                                                                   \
    {.size = sizeof(lgg_estimate_params), .n_ctx = 4096, .n_batch = 2048, .n_ubatch = 512, .n_seq_max = 1, \
     .type_k = LGG_TYPE_F16, .type_v = LGG_TYPE_F16}

/* Fill `p` with llama-cli's defaults (above). */
LGG_API void lgg_estimate_params_init(lgg_estimate_params *p);

/* Bytes held by one place (the host, or the device). */
typedef struct lgg_estimate_part {
    uint64_t weights;  /* model tensors (mapped file range, or allocated buffers) */
    uint64_t kv_k;     /* K cache (recurrent models: the conv/token-shift state) */
    uint64_t kv_v;     /* V cache (recurrent models: the SSM/WKV state) */
    uint64_t output;   /* logits buffer (host only) */
    uint64_t compute;  /* compute buffer reserved for the worst-case graph (an estimate: docs/estimate.md) */
    uint64_t total;    /* the sum of the above */
} lgg_estimate_part;

typedef struct lgg_estimate {
    char arch[32];            /* general.architecture (cut at 31 bytes) */
    bool arch_known;          /* false: only the weights are filled (see lgg_estimate_model) */
    bool recurrent;           /* mamba/rwkv: fixed-size state instead of a KV cache (hybrids: false, and
                                 n_recurrent_layers says which layers have a state) */
    /* Settings as llama.cpp uses them. */
    uint32_t n_ctx;           /* padded to a multiple of 32, or of 256 with flash attention */
    uint32_t n_ctx_train;     /* the model's context_length */
    uint32_t n_batch;         /* min(n_ctx, n_batch), at least 64 */
    uint32_t n_ubatch;        /* min(n_batch, n_ubatch) */
    uint32_t n_seq_max;
    uint32_t kv_size;         /* KV cells: n_ctx (recurrent: max(1, n_seq_max)) */
    uint32_t type_k, type_v;  /* as used (recurrent models: F32) */
    bool flash_attn;          /* as used: forced off when the K and V head sizes differ */
    bool mmap;
    uint32_t n_layer;
    uint32_t n_gpu_layers;    /* as used: min(requested, n_layer + 1) */
    bool output_offloaded;    /* the output layer is on the device */
    uint64_t n_vocab;         /* tokenizer entries (the logits' row length) */
    /* Figures.  `all` sums host and device; with n_gpu_layers 0 it equals `host`. */
    lgg_estimate_part all;
    lgg_estimate_part host;
    lgg_estimate_part device;
    /* Bytes of Q4_0 matrices that a CPU build with repacking (x86 with AVX2)
     * moves into an extra CPU_AARCH64 buffer; depends on the CPU, so it is a
     * note and stays counted in the weights. */
    uint64_t repack_q4_0;
    /* true: the compute buffer comes from replaying llama.cpp's graph for
     * this model through a copy of ggml's allocator, exact to the byte;
     * false: a model of the allocator's peaks (docs/estimate.md). */
    bool compute_exact;
    /* Added. */
    uint32_t target;      /* the params' target */
    uint64_t repack;      /* master: bytes of the CPU_REPACK buffer (in host.weights; 0 without repacking) */
    uint32_t repack_isa;  /* master: the LGG_REPACK_* used (LGG_REPACK_NONE: none) */
    uint32_t kv_size_swa; /* master: KV cells of the sliding-window layers (kv_size when there are none,
                             or with swa_full) */
    uint32_t n_swa_layers; /* layers with a sliding-window cache of kv_size_swa cells */
    /* Added: several devices (n_devices > 1 in the params).  `device` is their sum. */
    uint32_t n_devices;    /* 1 with one device, else the params' n_devices */
    lgg_estimate_part devices[LGG_ESTIMATE_MAX_DEVICES]; /* each device's figures */
    uint32_t device_layers[LGG_ESTIMATE_MAX_DEVICES];  /* repeating layers each device holds */
    int32_t output_device; /* the output layer's device, -1: the host */
    /* Added: of the weights above, the bytes of the LoRA adapters and control vectors */
    uint64_t adapters_host;
    uint64_t adapters_devices[LGG_ESTIMATE_MAX_DEVICES];
    /* Added: recurrent states (llama_memory_recurrent, alone or in a hybrid's llama_memory_hybrid): of
     * kv_k and kv_v above, the bytes of the R states (conv, token shift) and of the S states (SSM, WKV),
     * F32, rs_size rows (one per sequence, whatever the context) in each of n_recurrent_layers layers. */
    uint64_t state_r, state_s;
    uint32_t n_recurrent_layers;
    uint32_t rs_size;
    /* Added: an embedding context (the params' embeddings).  pooling: the LGG_POOLING_* used (the model's
     * when asked for LGG_POOLING_MODEL; LGG_POOLING_NONE without embeddings); output_embd: of output, the
     * embeddings' bytes (n_embd_out floats per sequence). */
    bool embeddings;
    uint32_t pooling;
    uint64_t output_embd;
    /* Added: the draft model (the params' draft_files), counted in none of the figures above: its weights
     * once, its contexts' (draft_contexts: master 1, b4747 one per sequence) KV cache, output and compute
     * buffers summed; draft_host and draft_devices[] as host and devices[] are (draft_device their sum), and
     * draft_all their sum.  The lgg_estimate_fit_* searches check the model's and the draft's totals together. */
    bool has_draft;
    char draft_arch[32];
    uint32_t draft_n_layer, draft_n_ctx, draft_n_batch, draft_n_ubatch, draft_n_seq_max, draft_contexts;
    uint32_t draft_n_gpu_layers;
    bool draft_compute_exact;
    lgg_estimate_part draft_all, draft_host, draft_device;
    lgg_estimate_part draft_devices[LGG_ESTIMATE_MAX_DEVICES];
    /* Added: the projector (the params' mmproj), counted in none of the figures above: its weights and its
     * compute buffer (a model of the vision encoder's peak for one warm-up image: not replayed) on
     * mmproj_device (-1: the host); the lgg_estimate_fit_* searches count them where they are. */
    bool has_mmproj;
    char mmproj_type[32];     /* clip.projector_type (or clip.vision.projector_type) */
    int32_t mmproj_device;
    uint32_t mmproj_n_layer, mmproj_n_embd, mmproj_image_size, mmproj_patch_size, mmproj_n_patches;
    uint64_t mmproj_weights, mmproj_compute;
} lgg_estimate;

/* Estimate the memory llama.cpp b4747 (p->target: or master at 3f545becc,
 * docs/estimate.md) allocates to run the model whose
 * header is in files[0..n_files) (one file, or every shard of a set in
 * order; the shards' tensors are summed, metadata comes from files[0]) with
 * settings `p` (NULL: defaults).  Only headers are read; tensor data need
 * not be present.  Weights, KV cache and output buffer are exact; the
 * compute buffer is exact where the model's graph is replayed (compute_exact:
 * llama, mistral, mixtral, qwen2, qwen2moe, gemma, gemma2, phi3, deepseek2, on
 * the host, b4747 only) and otherwise a model of ggml's
 * allocator (docs/estimate.md).
 * Returns LGG_OK and fills *out.  Errors (err says which key or setting):
 * LGG_ERR_ARG (NULL, n_files 0, a setting out of range: batch 0, a cache
 * type llama.cpp refuses, a quantized V cache without flash attention as
 * llama.cpp refuses it), LGG_ERR_NOT_FOUND (a required hyperparameter is
 * missing, e.g. the head count), LGG_ERR_INVALID (a hyperparameter is zero
 * or inconsistent: zero heads, a context of 0, a head size the cache type's
 * block does not divide), LGG_ERR_RANGE (a product overflows),
 * LGG_ERR_UNSUPPORTED (an architecture the estimator does not know: *out
 * still has arch, mmap and the weights (all on the host), with arch_known
 * false; the other figures are 0).
 * Thread-safe (reads the files only). */
LGG_API lgg_status lgg_estimate_model(const lgg_file *const *files, size_t n_files, const lgg_estimate_params *p,
                                      lgg_estimate *out, lgg_error *err);

/* The largest context (a multiple of the padding, at most 2^32 - 256) at which
 * host.total <= host_budget and, when device_budget is not 0,
 * device.total <= device_budget (with n_devices > 1: each device's total <=
 * its device_free where that is not 0); other settings from `p`.  *n_ctx is the
 * -c value (already padded).  Errors: those of lgg_estimate_model, and
 * LGG_ERR_RANGE when even the smallest context does not fit. */
LGG_API lgg_status lgg_estimate_fit_ctx(const lgg_file *const *files, size_t n_files, const lgg_estimate_params *p,
                                        uint64_t host_budget, uint64_t device_budget, uint32_t *n_ctx,
                                        lgg_error *err);

/* lgg_estimate_fit_ctx searching contexts up to max_ctx only (rounded down
 * to the padding, at least the smallest context; 0: no bound), e.g. the
 * model's n_ctx_train: past it llama.cpp runs, but the model was not
 * trained for it. */
LGG_API lgg_status lgg_estimate_fit_ctx_max(const lgg_file *const *files, size_t n_files,
                                            const lgg_estimate_params *p, uint64_t host_budget,
                                            uint64_t device_budget, uint32_t max_ctx, uint32_t *n_ctx,
                                            lgg_error *err);

/* The largest n_gpu_layers (0 ... n_layer + 1) at which device.total <=
 * device_budget (with n_devices > 1: each device's total <= its
 * device_free, device_budget unused), at the settings `p` (its n_gpu_layers
 * ignored).  0 always fits.  Errors: those of lgg_estimate_model. */
LGG_API lgg_status lgg_estimate_fit_gpu_layers(const lgg_file *const *files, size_t n_files,
                                               const lgg_estimate_params *p, uint64_t device_budget,
                                               uint32_t *n_gpu_layers, lgg_error *err);

#endif /* LIBGGUF_ESTIMATE_H */
