/* gpt_oss.c -- gpt-oss (GptOssForCausalLM, llama.cpp master's GptOssModel).
 *
 * Its experts come as MXFP4 (config.json's quantization_config.quant_method
 * "mxfp4"): per block, U8 tensors mlp.experts.{gate_up,down}_proj_blocks
 * (experts, rows, blocks of 32 values, 16 bytes) and _scales (experts,
 * rows, blocks: one e8m0 byte each).  Master writes them as GGML MXFP4
 * without requantizing, before every other tensor: each block is its
 * scale byte then 16 bytes whose low nibble is value j and high nibble
 * value j + 16 (the checkpoint's byte k holds values 2k, low, and 2k + 1);
 * gate_up's rows are interleaved, gate the even ones and up the odd ones
 * (its bias the same by column).  The sinks are attn_sinks.weight, the
 * down bias ffn_down_exps.bias.  Experts not in MXFP4 (a bf16 checkpoint:
 * gate_up_proj (experts, hidden, 2 ff), down_proj (experts, ff, hidden))
 * are transposed per expert, gate_up's columns split the same way, and
 * written in the outtype where the checkpoint has them. */
#include "../cvint.h"

#include <stdlib.h>
#include <string.h>

static lgg_status gptoss_init(struct lgg_convert *c, lgg_error *err) {
    const json_t *q = json_object_get(c->config, "quantization_config");
    const json_t *m = json_object_get(q, "quant_method");
    if (!json_is_object(q) || !m) return LGG_OK;
    if (json_is_string(m) && !strcmp(json_string_value(m), "mxfp4")) {
        c->mxfp4 = 1;
        return LGG_OK;
    }
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s/config.json: quantization_config.quant_method %s: llama.cpp master converts gpt-oss's "
                        "MXFP4 checkpoints here (quant_method \"mxfp4\"); this converter does not read others",
                        c->dir, json_is_string(m) ? json_string_value(m) : "(not a string)");
}

/* master's renames: the sinks get ".weight", the experts' biases become
 * ".bias" of the projection; the MXFP4 blocks and scales are the
 * generated hook's. */
static int gptoss_hf_name(const char *hf, char *out, size_t cap) {
    size_t n = strlen(hf);
    if (strstr(hf, "mlp.experts.") && (lgg__cv_ends_with(hf, "_blocks") || lgg__cv_ends_with(hf, "_scales"))) return 0;
    if (lgg__cv_ends_with(hf, "_proj_bias") && strstr(hf, "mlp.experts.")) {
        if (n + 1 > cap) return 0;
        memcpy(out, hf, n + 1);
        out[n - 5] = '.'; /* "_bias" -> ".bias" */
        return 1;
    }
    if (lgg__cv_ends_with(hf, ".sinks") || lgg__cv_ends_with(hf, "mlp.experts.gate_up_proj") || lgg__cv_ends_with(hf, "mlp.experts.down_proj"))
        return (size_t)snprintf(out, cap, "%s.weight", hf) < cap;
    return snprintf(out, cap, "%s", hf) >= 0 && n < cap;
}

/* Output column j of the half `row_arg[0]` (0 gate, 1 up) of an interleaved
 * row: source column 2j + row_arg[0]; the source rows are twice as long. */
static uint64_t interleaved_col(const cv_tensor *t, uint64_t j) { return 2 * j + t->row_arg[0]; }
static uint64_t double_row(const cv_tensor *t, uint64_t u) {
    (void)t;
    return 2 * u;
}

/* gate_up_proj_bias (experts, 2 * ff): gate the even columns, up the odd;
 * a bf16 checkpoint's gate_up_proj and down_proj transposed. */
static lgg_status gptoss_tensor(struct lgg_convert *c, cv_tensor *t, lgg_error *err) {
    char up[160];
    lgg_status st;
    if (lgg__cv_ends_with(t->src_name, "mlp.experts.down_proj")) return lgg__cv_expert_t(c, t, 1, 1, err);
    if (lgg__cv_ends_with(t->src_name, "mlp.experts.gate_up_proj")) {
        if ((st = lgg__cv_expert_t(c, t, 2, 2, err)) || (st = lgg__cv_up_name(c, t, up, sizeof up, err))) return st;
        if (!(st = lgg__cv_dup_tensor(c, (size_t)(t - c->t), up, err))) c->t[c->n_t - 1].row_arg[2] = 1; /* t moves */
        return st;
    }
    if (!lgg__cv_ends_with(t->src_name, "mlp.experts.gate_up_proj_bias")) return LGG_OK;
    const lgg_st_tensor *s = t->src;
    if (s->n_dims != 2 || s->shape[1] % 2 || !s->shape[1])
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': not (experts, an even width)", c->dir,
                            c->shard_names[t->shard], s->name.ptr);
    t->ne[0] = (int64_t)(s->shape[1] / 2), t->unit = s->shape[1] / 2;
    t->row_of = double_row, t->col_of = interleaved_col, t->col_block = 1, t->row_arg[0] = 0;
    if ((st = lgg__cv_up_name(c, t, up, sizeof up, err))) return st;
    st = lgg__cv_dup_tensor(c, (size_t)(t - c->t), up, err); /* t moves */
    if (!st) c->t[c->n_t - 1].row_arg[0] = 1;
    return st;
}

/* ---- MXFP4 ---- */

/* One GGML MXFP4 block (17 bytes) from a checkpoint's 16 bytes and scale. */
static void repack_block(const uint8_t *q, uint8_t e, uint8_t *out) {
    out[0] = e;
    for (int j = 0; j < 16; j++) {
        uint8_t lo = (uint8_t)(q[j >> 1] >> ((j & 1) * 4) & 15), hi = (uint8_t)(q[8 + (j >> 1)] >> ((j & 1) * 4) & 15);
        out[1 + j] = (uint8_t)(lo | hi << 4);
    }
}

/* The source row of output unit u: row_arg = {step, first, rows per expert
 * out, blocks per row}. */
static uint64_t mx_row(const cv_tensor *t, uint64_t u) {
    uint64_t rows = t->row_arg[2], e = u / rows, r = u % rows;
    return e * rows * t->row_arg[0] + r * t->row_arg[0] + t->row_arg[1];
}

/* Row u's MXFP4 bytes (ob of them) into out; requantized when a quantize
 * plan gives t another type (as llama-quantize dequantizes and quantizes). */
static lgg_status mx_store(const cv_tensor *t, uint64_t u, const uint8_t *q, const uint8_t *e, uint8_t *mx, float *x,
                           uint8_t *out) {
    uint64_t nb = t->row_arg[3];
    for (uint64_t b = 0; b < nb; b++) repack_block(q + b * 16, e[b], mx + b * 17);
    if (!t->qtype || t->qtype == LGG_TYPE_MXFP4) return LGG_OK;
    if (lgg_dequantize(LGG_TYPE_MXFP4, mx, (size_t)nb * 17, LGG_LITTLE_ENDIAN, x, (size_t)t->unit)) return LGG_ERR_INVALID;
    const float *im = t->imatrix ? t->imatrix + (u / (uint64_t)t->ne[1]) * t->unit : NULL;
    size_t written = 0, ob = (size_t)lgg__cv_out_bytes(t);
    return lgg_quantize(t->qtype, x, out, ob, 1, (int64_t)t->unit, im, &written);
}

static lgg_status mx_rows(struct lgg_convert *c, const cv_tensor *t, uint64_t u0, uint64_t u1, uint8_t *out,
                          lgg_error *err) {
    uint64_t nb = t->row_arg[3], ob = lgg__cv_out_bytes(t), r0 = mx_row(t, u0), r1 = mx_row(t, u1 - 1) + 1;
    uint8_t *bq = NULL, *be = NULL;
    const uint8_t *q = NULL, *e = NULL;
    int requant = t->qtype && t->qtype != LGG_TYPE_MXFP4;
    uint8_t *mx = requant ? malloc((size_t)nb * 17) : NULL;
    float *x = requant ? malloc((size_t)t->unit * sizeof *x) : NULL;
    lgg_status st = requant && (!mx || !x) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", t->name) : LGG_OK;
    if (!st) st = lgg__cv_span(c, t->shard, t->src, r0 * nb * 16, (r1 - r0) * nb * 16, &bq, &q, err);
    if (!st) st = lgg__cv_span(c, t->shard2, t->src2, r0 * nb, (r1 - r0) * nb, &be, &e, err);
    for (uint64_t u = u0; !st && u < u1; u++) {
        uint64_t r = mx_row(t, u) - r0;
        uint8_t *o = out + (u - u0) * ob;
        st = mx_store(t, u, q + r * nb * 16, e + r * nb, requant ? mx : o, x, o);
        if (st) lgg__cv_fail(err, st, "%s: row %llu: requantizing MXFP4 to %s failed", t->name, (unsigned long long)u,
                             lgg_type_name(t->qtype));
    }
    free(bq), free(be), free(mx), free(x);
    return st;
}

/* One MXFP4 output: rows first, first + step, ... of each expert of blocks
 * b (shard sb) and scales s (shard ss), under the GGUF name of `hf`. */
static lgg_status add_mxfp4(struct lgg_convert *c, const char *hf, uint32_t sb, const lgg_st_tensor *b, uint32_t ss,
                            const lgg_st_tensor *s, uint64_t step, uint64_t first, lgg_error *err) {
    char out[512];
    unsigned xform = 0;
    long bid = -1, xid = -1;
    const char *file = c->shard_names[sb];
    if (b->dtype != LGG_TYPE_I8 || s->dtype != LGG_TYPE_I8 || b->n_dims != 4 || s->n_dims != 3 || b->shape[3] != 16 ||
        b->shape[0] != s->shape[0] || b->shape[1] != s->shape[1] || b->shape[2] != s->shape[2])
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/%s: tensor '%s': MXFP4 blocks must be U8 (experts, rows, blocks, 16) and their scales U8 "
                            "(experts, rows, blocks) of the same first three sizes", c->dir, file, b->name.ptr);
    if (!b->shape[0] || !b->shape[1] || !b->shape[2] || b->shape[1] % step)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': %s", c->dir, file, b->name.ptr,
                            step == 2 ? "gate_up rows must be a positive even count" : "empty");
    if (!lgg__cv_map_name(c->fam, hf, out, sizeof out, &xform, &bid, &xid) || bid < 0 || (uint64_t)bid >= c->block_count)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s': no GGUF name for it in the %s table", c->dir, file,
                            b->name.ptr, c->fam->arch);
    cv_tensor *t = lgg__cv_new_tensor(c, err);
    if (!t) return LGG_ERR_NOMEM;
    if (!(t->name = strdup(out))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    t->shard = sb, t->src = b, t->src_name = b->name.ptr, t->shard2 = ss, t->src2 = s, t->raw = mx_rows;
    t->type = LGG_TYPE_MXFP4, t->work = LGG_TYPE_F32, t->n_dims = 3;
    t->ne[0] = (int64_t)(b->shape[2] * 32), t->ne[1] = (int64_t)(b->shape[1] / step), t->ne[2] = (int64_t)b->shape[0];
    t->ne[3] = 1;
    t->unit = b->shape[2] * 32, t->n_units = b->shape[0] * (b->shape[1] / step);
    t->row_arg[0] = step, t->row_arg[1] = first, t->row_arg[2] = b->shape[1] / step, t->row_arg[3] = b->shape[2];
    c->n_t++;
    return LGG_OK;
}

/* A name ending in `what` (e.g. "down_proj_scales") with the blocks last
 * seen being its own: the blocks' name is the same with "_blocks". */
static int pairs(const lgg_st_tensor *blocks, const char *scales) {
    size_t n = strlen(scales);
    return blocks && blocks->name.len == n && !memcmp(blocks->name.ptr, scales, n - 7);
}

/* master's generate_extra_tensors: every MXFP4 expert tensor, in the
 * checkpoint's order, before the others (each scales tensor with the
 * blocks just before it). */
static lgg_status gptoss_mxfp4(struct lgg_convert *c, lgg_error *err) {
    const lgg_st_tensor *blocks = NULL;
    uint32_t bs = 0;
    lgg_status st = LGG_OK;
    for (uint32_t s = 0; !st && s < c->n_shards; s++)
        for (size_t i = 0; !st && i < lgg_st_count(c->shards[s]); i++) {
            const lgg_st_tensor *t = lgg_st_at(c->shards[s], i);
            const char *name = t->name.ptr;
            char hf[512];
            int down = lgg__cv_ends_with(name, "mlp.experts.down_proj_scales"), gu = lgg__cv_ends_with(name, "mlp.experts.gate_up_proj_scales");
            if (lgg__cv_ends_with(name, "mlp.experts.down_proj_blocks") || lgg__cv_ends_with(name, "mlp.experts.gate_up_proj_blocks")) {
                blocks = t, bs = s;
            } else if ((down || gu) && !pairs(blocks, name)) {
                st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/%s: tensor '%s' has no _blocks tensor just before it",
                                  c->dir, c->shard_names[s], name);
            } else if (down || gu) {
                size_t stem = strlen(name) - (down ? strlen("down_proj_scales") : strlen("gate_up_proj_scales"));
                snprintf(hf, sizeof hf, "%.*s%s", (int)stem, name, down ? "down_proj.weight" : "gate_proj.weight");
                st = add_mxfp4(c, hf, bs, blocks, s, t, down ? 1 : 2, 0, err);
                snprintf(hf, sizeof hf, "%.*sup_proj.weight", (int)stem, name);
                if (!st && gu) st = add_mxfp4(c, hf, bs, blocks, s, t, 2, 1, err);
                blocks = NULL;
            }
        }
    return st;
}

const cv_hooks lgg__cv_hooks_gptoss = {gptoss_init, gptoss_hf_name, gptoss_tensor, NULL, NULL, gptoss_mxfp4};
