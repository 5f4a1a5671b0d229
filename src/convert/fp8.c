/* fp8.c -- block-scaled FP8 checkpoints (config.json's quantization_config
 * with quant_method "fp8": DeepSeek V3, Qwen3-FP8, GLM-4.5-FP8), dequantized
 * as llama.cpp master's converter does: each F8_E4M3 matrix NAME.weight
 * times its NAME.weight_scale_inv, the scale repeated over blocks of
 * weight_block_size (rows x columns) and cut to the matrix, in float32; the
 * scale tensors and the unused activation scales are not written. */
#include "cvint.h"

#include <stdlib.h>
#include <string.h>

lgg_status lgg__cv_fp8_init(lgg_convert *c, lgg_error *err) {
    const json_t *q = json_object_get(c->config, "quantization_config");
    const char *m = json_string_value(json_object_get(q, "quant_method"));
    if (!m || strcmp(m, "fp8")) return LGG_OK;
    c->fp8 = 1;
    const json_t *bs = json_object_get(q, "weight_block_size");
    if (!bs || json_is_null(bs)) return LGG_OK; /* a scale per tensor or per row */
    json_int_t b0 = json_integer_value(json_array_get(bs, 0)), b1 = json_integer_value(json_array_get(bs, 1));
    if (json_array_size(bs) != 2 || b0 <= 0 || b1 <= 0 || b0 > (1 << 20) || b1 > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: quantization_config.weight_block_size is not two "
                            "block sizes from 1 to 2^20", c->dir);
    c->fp8_bs[0] = (uint64_t)b0, c->fp8_bs[1] = (uint64_t)b1;
    return LGG_OK;
}

int lgg__cv_fp8_skipped(const lgg_convert *c, const char *name) {
    return c->fp8 && (lgg__cv_ends_with(name, "_scale_inv") || lgg__cv_ends_with(name, ".activation_scale") ||
                      lgg__cv_ends_with(name, "_activation_scale"));
}

const lgg_st_tensor *lgg__cv_find_tensor(const lgg_convert *c, const char *name, uint32_t *shard) {
    size_t len = strlen(name);
    for (uint32_t s = 0; s < c->n_shards; s++) {
        size_t lo = 0, hi = lgg_st_count(c->shards[s]);
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            const lgg_st_tensor *t = lgg_st_at(c->shards[s], mid);
            size_t n = t->name.len < len ? t->name.len : len;
            int r = memcmp(t->name.ptr, name, n);
            if (!r) r = (t->name.len > len) - (t->name.len < len);
            if (!r) return *shard = s, t;
            if (r < 0) lo = mid + 1;
            else hi = mid;
        }
    }
    return NULL;
}

/* The scale matrix's shape against the weight's (rows x cols): master's repeat-and-cut must give the
 * weight's shape, or, without block sizes, one scale for the tensor or one per row. */
static lgg_status scale_shape(lgg_convert *c, const lgg_st_tensor *w, const lgg_st_tensor *s, cv_fp8 *f,
                              lgg_error *err) {
    uint64_t rows = w->shape[0], cols = w->shape[1], n = 1;
    for (uint32_t d = 0; d < s->n_dims; d++) n *= s->shape[d];
    if (c->fp8_bs[0]) {
        f->bs0 = c->fp8_bs[0], f->bs1 = c->fp8_bs[1];
        f->rows = s->n_dims == 2 ? s->shape[0] : 0, f->cols = s->n_dims == 2 ? s->shape[1] : 0;
        if (f->rows && f->rows <= rows && f->cols <= cols && rows <= f->rows * f->bs0 && cols <= f->cols * f->bs1 &&
            rows > (f->rows - 1) * f->bs0 && cols > (f->cols - 1) * f->bs1)
            return LGG_OK;
    } else if (n == 1 || (s->n_dims == 1 && n == rows)) {
        f->rows = n, f->cols = 1, f->bs0 = n == 1 ? rows : 1, f->bs1 = cols;
        return LGG_OK;
    }
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': its scales do not cover its %llu x %llu elements in "
                        "blocks of weight_block_size", c->dir, s->name.ptr, (unsigned long long)rows,
                        (unsigned long long)cols);
}

/* The scales of w, read whole (they are small: one per block) and widened to float32. */
static lgg_status read_scales(lgg_convert *c, uint32_t shard, const lgg_st_tensor *s, cv_fp8 *f, lgg_error *err) {
    uint64_t n = f->rows * f->cols, es = s->dtype == LGG_TYPE_F32 ? 4 : 2;
    if (s->dtype != LGG_TYPE_F32 && s->dtype != LGG_TYPE_F16 && s->dtype != LGG_TYPE_BF16)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: tensor '%s': scales are not F32, F16 or BF16", c->dir,
                            s->name.ptr);
    if (n > (1u << 26) || s->size != n * es)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': %llu scales", c->dir, s->name.ptr,
                            (unsigned long long)n);
    uint8_t *raw = malloc((size_t)s->size);
    f->scale = malloc((size_t)n * sizeof *f->scale);
    lgg_status st = raw && f->scale ? lgg__cv_pread(c, c->shard_names[shard], s->offset, raw, (size_t)s->size, err)
                                    : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st && es == 4) memcpy(f->scale, raw, (size_t)n * 4);
    else if (!st) lgg_dequantize(s->dtype, raw, (size_t)n * 2, LGG_LITTLE_ENDIAN, f->scale, (size_t)n);
    free(raw);
    return st;
}

lgg_status lgg__cv_fp8_scales(lgg_convert *c, uint32_t shard, const lgg_st_tensor *src, const cv_fp8 **out,
                              lgg_error *err) {
    *out = NULL;
    if (src->dtype != LGG_ST_F8_E4M3) return LGG_OK;
    char name[512];
    if (!c->fp8 || src->n_dims != 2 || src->name.len + 11 > sizeof name)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/%s: tensor '%s': F8_E4M3 is converted for 2-D matrices of a "
                            "checkpoint whose quantization_config.quant_method is \"fp8\"", c->dir,
                            c->shard_names[shard], src->name.ptr);
    snprintf(name, sizeof name, "%s_scale_inv", src->name.ptr);
    uint32_t ss;
    const lgg_st_tensor *s = lgg__cv_find_tensor(c, name, &ss);
    if (!s) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s' has no %s", c->dir, src->name.ptr, name);
    cv_fp8 *f = calloc(1, sizeof *f), **grown = f ? realloc(c->fp8s, (c->n_fp8s + 1) * sizeof *c->fp8s) : NULL;
    if (!grown) return free(f), lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    c->fp8s = grown, c->fp8s[c->n_fp8s++] = f;
    lgg_status st = scale_shape(c, src, s, f, err);
    if (!st) st = read_scales(c, ss, s, f, err);
    if (!st) *out = f;
    return st;
}

/* float8 e4m3fn to float32 bit for bit as torch converts it (c10's fp8e4m3fn_to_fp32_value: NaN keeps
 * its sign and becomes 0x7FF00000 or 0xFFF00000). */
static float e4m3(uint8_t b) {
    uint32_t w = (uint32_t)b << 24, sign = w & 0x80000000u, nonsign = w & 0x7FFFFFFFu;
    uint32_t shift = nonsign ? (uint32_t)__builtin_clz(nonsign) : 32;
    shift = shift > 4 ? shift - 4 : 0;
    uint32_t inf_nan = (uint32_t)((int32_t)(nonsign + 0x01000000u) >> 8) & 0x7F800000u;
    uint32_t zero = (uint32_t)((int32_t)(nonsign - 1) >> 31);
    uint32_t bits = sign | ((((nonsign << shift >> 4) + ((0x78u - shift) << 23)) | inf_nan) & ~zero);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

void lgg__cv_fp8_row(const cv_fp8 *f, uint64_t r, const uint8_t *p, uint64_t n, float *x) {
    const float *s = f->scale + (r / f->bs0) * f->cols;
    for (uint64_t j = 0; j < n; j++) x[j] = e4m3(p[j]) * s[j / f->bs1];
}

void lgg__cv_fp8_free(lgg_convert *c) {
    for (size_t i = 0; i < c->n_fp8s; i++) free(c->fp8s[i]->scale), free(c->fp8s[i]);
    free(c->fp8s);
}
