/* mmproj.c -- a vision projector (mmproj) as master's mtmd/clip.cpp loads it: clip_model_loader reads the
 * clip.vision.* hyperparameters and puts every tensor in one buffer (ggml_backend_alloc_ctx_tensors_from_buft:
 * each padded to the buffer type's alignment); clip's warm-up reserves the graph of one image of image_size
 * pixels a side.  The weights follow that rule; the compute buffer is a model of the vision transformer's
 * peak (build_vit: patch embedding, attention, feed-forward, then the projector), not a replay. */
#include "model/mmproj.h"

#include <stdio.h>

static uint64_t pad_to(uint64_t x, uint64_t a) { return x % a ? x + (a - x % a) : x; }

/* clip.<key>: an unsigned 32-bit value; absent: def, or LGG_ERR_NOT_FOUND when required. */
static lgg_status clip_u32(const lgg_file *f, const char *key, bool required, uint32_t def, uint32_t *out,
                           lgg_error *err) {
    lgg_value v;
    uint64_t x;
    *out = def;
    if (lgg_get(f, key, &v) != LGG_OK)
        return required ? lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "the projector has no %s", key) : LGG_OK;
    if (lgg_value_uint(&v, &x) != LGG_OK || x > UINT32_MAX)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "the projector's %s is not an unsigned 32-bit integer", key);
    *out = (uint32_t)x;
    return LGG_OK;
}

/* The string of key into buf (cut to cap - 1, printable ASCII); false when absent or not a string. */
static bool clip_str(const lgg_file *f, const char *key, char *buf, size_t cap) {
    lgg_value v;
    lgg_str s;
    if (lgg_get(f, key, &v) != LGG_OK || lgg_value_string(&v, &s) != LGG_OK) return false;
    size_t n = s.len < cap - 1 ? (size_t)s.len : cap - 1;
    for (size_t i = 0; i < n; i++) buf[i] = s.ptr[i] >= 0x20 && s.ptr[i] < 0x7f ? s.ptr[i] : '?';
    buf[n] = 0;
    return true;
}

/* A projector clip would load for images: architecture "clip", a vision encoder, a projector type. */
static lgg_status check_kind(const lgg_file *f, lgg__mmproj *o, lgg_error *err) {
    char arch[32] = "";
    lgg_value v;
    bool vision = false;
    if (!clip_str(f, "general.architecture", arch, sizeof arch) || strcmp(arch, "clip"))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "not a multimodal projector: general.architecture is '%s', not 'clip'", arch);
    if (lgg_get(f, "clip.has_vision_encoder", &v) == LGG_OK && lgg_value_bool(&v, &vision) != LGG_OK) vision = false;
    if (!vision)
        return lgg__fail(err, LGG_ERR_UNSUPPORTED, LGG_NO_OFFSET,
                         "the projector has no vision encoder (clip.has_vision_encoder): audio encoders are not "
                         "estimated");
    if (!clip_str(f, "clip.vision.projector_type", o->type, sizeof o->type) &&
        !clip_str(f, "clip.projector_type", o->type, sizeof o->type))
        return lgg__fail(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "the projector has no clip.projector_type");
    return LGG_OK;
}

static lgg_status read_hparams(const lgg_file *f, lgg__mmproj *o, lgg_error *err) {
    lgg_status st;
    if ((st = clip_u32(f, "clip.vision.image_size", true, 0, &o->image_size, err)) ||
        (st = clip_u32(f, "clip.vision.patch_size", true, 0, &o->patch_size, err)) ||
        (st = clip_u32(f, "clip.vision.embedding_length", true, 0, &o->n_embd, err)) ||
        (st = clip_u32(f, "clip.vision.block_count", true, 0, &o->n_layer, err)) ||
        (st = clip_u32(f, "clip.vision.attention.head_count", true, 0, &o->n_head, err)) ||
        (st = clip_u32(f, "clip.vision.feed_forward_length", false, 0, &o->n_ff, err)) ||
        (st = clip_u32(f, "clip.vision.projection_dim", false, 0, &o->proj_dim, err)))
        return st;
    if (!o->patch_size || !o->image_size || !o->n_embd || !o->n_head || o->image_size < o->patch_size)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                         "the projector's image_size %u, patch_size %u, embedding_length %u or head_count %u is 0 "
                         "(or the image is smaller than a patch)", o->image_size, o->patch_size, o->n_embd, o->n_head);
    const uint64_t side = o->image_size / o->patch_size; /* below 2^32: its square fits 64 bits */
    if (side * side >= UINT32_MAX)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "the projector's image_size %u over patch_size %u gives "
                         "%llu patches", o->image_size, o->patch_size, (unsigned long long)(side * side));
    o->n_pos = (uint32_t)(side * side) + (lgg_find_tensor_cstr(f, "v.class_embd") >= 0);
    return LGG_OK;
}

/* Overflow-checked a * b * c * d added to *sum (false on overflow). */
static bool add_prod(uint64_t *sum, uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    uint64_t r;
    return !(lgg__mul_ovf(a, b, &r) || lgg__mul_ovf(r, c, &r) || lgg__mul_ovf(r, d, &r) || lgg__add_ovf(*sum, r, sum));
}

/* The peak: the largest of the patch embedding (the image, its im2col and the embeddings), one layer's
 * attention (the residual, the normed input, Q, K, V and the output; with flash attention K and V also
 * as F16, without it the P x P scores of every head) and its feed-forward (residual, normed input, the
 * up projection and the output), and the projector's output rows (the MLP's two, up to P rows). */
static bool vit_peak(const lgg__mmproj *o, bool flash_attn, uint64_t *peak) {
    const uint64_t P = o->n_pos, E = o->n_embd, ps = o->patch_size, img = o->image_size;
    uint64_t in = 0, at = 0, ff = 0, pj = 0;
    bool ok = add_prod(&in, img, img, 3, 4) && add_prod(&in, P, ps * ps, 3, 2) && add_prod(&in, P, E, 4, 2);
    ok = ok && add_prod(&at, P, E, 4, 6);
    ok = ok && (flash_attn ? add_prod(&at, P, E, 2, 2) : add_prod(&at, P, P, o->n_head, 4));
    ok = ok && add_prod(&ff, P, E, 4, 3) && add_prod(&ff, P, o->n_ff, 4, 1);
    ok = ok && add_prod(&pj, P, E, 4, 1) && add_prod(&pj, P, o->proj_dim, 4, 2);
    *peak = in > at ? in : at;
    if (ff > *peak) *peak = ff;
    if (pj > *peak) *peak = pj;
    return ok;
}

lgg_status lgg__mmproj_estimate(const lgg_file *f, uint64_t align, bool flash_attn, lgg__mmproj *out, lgg_error *err) {
    memset(out, 0, sizeof *out);
    lgg_status st = check_kind(f, out, err);
    if (st || (st = read_hparams(f, out, err))) return st;
    for (uint64_t i = 0, n = lgg_tensor_count(f); i < n; i++)
        if (lgg__add_ovf(out->weights, pad_to(lgg_tensor_at(f, i)->size, align), &out->weights))
            return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the projector's weights overflow 64 bits");
    if (!vit_peak(out, flash_attn, &out->compute))
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "the projector's compute buffer overflows 64 bits");
    return LGG_OK;
}
