/* placement.h -- where llama.cpp's llama_model_load puts each layer, tensor
 * and KV cache: the host or one of several devices (-ngl, -ts, -sm, -mg,
 * -ot, -nkvo).  Internal to libgguf's estimator. */
#ifndef LGG_MODEL_PLACEMENT_H
#define LGG_MODEL_PLACEMENT_H

#include "base/internal.h"

#include <regex.h>

#define LGG__HOST (-1)
/* lgg__tensor_device: no memory to match a name of 256 bytes or more against the rules */
#define LGG__PLACE_NOMEM (-2)
/* The most override rules one estimate compiles (llama.cpp: llama_max_tensor_buft_overrides(), 4096;
 * a few dozen in practice, each tried on every tensor name). */
#define LGG__MAX_OVERRIDES 512u

typedef struct lgg__placement {
    uint32_t n_layer;       /* repeating layers; layer n_layer is the output layer */
    uint32_t gpu_start;     /* the first offloaded layer (llama.cpp's i_gpu_start) */
    uint32_t act_layers;    /* offloaded layers, the output layer included (act_gpu_layers) */
    uint32_t n_dev;         /* devices layers may go to (1 with LGG_SPLIT_NONE) */
    uint32_t first_dev;     /* the index of the first of them (main_gpu with LGG_SPLIT_NONE) */
    float splits[LGG_ESTIMATE_MAX_DEVICES]; /* the normalised cumulative shares */
    bool kv_on_host;        /* -nkvo */
    uint32_t n_re;
    regex_t *re;            /* the override patterns, compiled */
    int32_t *re_dev;        /* and their devices */
} lgg__placement;

/* Set up the placement of n_layer layers with n_gpu_layers offloaded
 * (already clamped to n_layer + 1) for the settings p (and its target:
 * master's -ngl N offloads the output layer and N - 1 repeating layers,
 * b4747's N repeating layers and the output layer only past n_layer).  Errors: LGG_ERR_ARG
 * (too many devices, a device index out of range, a pattern that does not
 * compile), LGG_ERR_UNSUPPORTED (row split), LGG_ERR_NOMEM.  Free with
 * lgg__placement_free, also after an error. */
LGG_HIDDEN lgg_status lgg__placement_init(lgg__placement *pl, const lgg_estimate_params *p, uint32_t n_layer,
                                          uint32_t n_gpu_layers, lgg_error *err);
LGG_HIDDEN void lgg__placement_free(lgg__placement *pl);

/* The device of layer il (0..n_layer; n_layer: the output layer), LGG__HOST
 * for the host. */
LGG_HIDDEN int32_t lgg__layer_device(const lgg__placement *pl, uint32_t il);

/* The device of a tensor of layer il (UINT32_MAX: the input layer, always on
 * the host unless a rule moves it); *overridden: a rule placed it.
 * LGG__PLACE_NOMEM: out of memory. */
LGG_HIDDEN int32_t lgg__tensor_device(const lgg__placement *pl, lgg_str name, uint32_t il, bool *overridden);

/* The device of layer il's KV cache. */
LGG_HIDDEN int32_t lgg__kv_device(const lgg__placement *pl, uint32_t il);

#endif
