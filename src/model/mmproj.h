/* mmproj.h -- what master's mtmd/clip.cpp allocates for a vision projector
 * (--mmproj): its weights' buffer and a model of its warm-up compute buffer.
 * Internal to libgguf's estimator. */
#ifndef LGG_MODEL_MMPROJ_H
#define LGG_MODEL_MMPROJ_H

#include "base/internal.h"

typedef struct lgg__mmproj {
    char type[32];          /* clip.projector_type (or clip.vision.projector_type) */
    uint32_t n_layer, n_embd, n_ff, n_head, image_size, patch_size, proj_dim;
    uint32_t n_pos;         /* the encoder's positions: the patches, and CLIP's class embedding */
    uint64_t weights;       /* the tensors, each padded to the buffer's alignment */
    uint64_t compute;       /* the modelled peak of the warm-up image's graph */
} lgg__mmproj;

/* The projector f on a buffer of alignment `align`, with or without flash attention. */
lgg_status lgg__mmproj_estimate(const lgg_file *f, uint64_t align, bool flash_attn, lgg__mmproj *out, lgg_error *err);

#endif
