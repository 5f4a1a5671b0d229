/* ernie.c -- ERNIE 4.5 (llama.cpp master's Ernie4_5Model) and ERNIE 4.5 MoE
 * (its Ernie4_5MoeModel), which only master converts.  Names under
 * "ernie." are read as "model."; the dense model's fused matrices are split
 * as master splits them: qkv_proj into q, k and v (num_attention_heads,
 * num_key_value_heads, num_key_value_heads heads of head_dim rows),
 * up_gate_proj into gate (its first half) and up.  The MoE model leaves out
 * the next-token-prediction tensors (mtp_block.N, mtp_emb_norm.N,
 * mtp_hidden_norm.N, mtp_linear_proj.N) and writes the shared experts'
 * width as master computes it: intermediate_size // num_key_value_heads,
 * when there are shared experts.  PaddleOCR-VL's text is the dense model's
 * under another architecture name, its vision parts left out. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "ernie." read as "model." (every occurrence, as Python's replace); a
 * name too long for out is dropped, as gpt2.c drops one. */
static int ernie_name(const char *hf, char *out, size_t cap) {
    size_t o = 0;
    for (const char *p = hf; *p;) {
        if (o + 7 > cap) return 0;
        if (!strncmp(p, "ernie.", 6)) memcpy(out + o, "model.", 6), o += 6, p += 6;
        else out[o++] = *p++;
    }
    out[o] = 0;
    return 1;
}

/* master's filter: re.match(r"model.PART.(\d+)") for each MTP part ('.' any character). */
static int mtp_name(const char *hf) {
    static const char *const PARTS[] = {"mtp_block", "mtp_emb_norm", "mtp_hidden_norm", "mtp_linear_proj"};
    if (strncmp(hf, "model", 5) || !hf[5]) return 0;
    for (int k = 0; k < 4; k++) {
        size_t l = strlen(PARTS[k]);
        const char *p = hf + 6;
        if (strncmp(p, PARTS[k], l) || !p[l] || p[l + 1] < '0' || p[l + 1] > '9') continue;
        return 1;
    }
    return 0;
}

static int ernie_moe_name(const char *hf, char *out, size_t cap) { return mtp_name(hf) ? 0 : ernie_name(hf, out, cap); }

/* A count of config.json (absent or null: dflt; another type: -2). */
static int64_t count_or(const lgg_convert *c, const char *key, int64_t dflt) {
    const json_t *v = json_object_get(c->config, key);
    if (!v || json_is_null(v)) return dflt;
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= (1 << 30) ? json_integer_value(v) : -2;
}

/* qkv_proj into q, k and v; up_gate_proj into gate and up (the rows' names
 * are the family's: the whole matrix arrives as attn_q or ffn_gate). */
static lgg_status ernie_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    int qkv = strstr(t->src_name, "qkv_proj") != NULL, gate_up = strstr(t->src_name, "up_gate_proj") != NULL;
    if (!qkv && !gate_up) return LGG_OK;
    if (gate_up) {
        if (t->n_dims != 2 || t->n_units % 2)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': not a matrix of an even number of rows", c->dir,
                                t->src_name);
        return lgg__cv_split_rows(c, t, t->n_units / 2, "ffn_up", err);
    }
    int64_t nh = count_or(c, "num_attention_heads", -1), nkv = count_or(c, "num_key_value_heads", -1);
    int64_t hd = count_or(c, "head_dim", -1), h = count_or(c, "hidden_size", -1);
    if (hd < 0 && lgg__cv_heads_ok(nh) && h >= 0) hd = h / nh;
    if (!lgg__cv_heads_ok(nh) || !lgg__cv_heads_ok(nkv) || hd <= 0 || t->n_dims != 2 ||
        t->n_units != (uint64_t)(nh + 2 * nkv) * (uint64_t)hd)
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s: tensor '%s': not (num_attention_heads + 2 * num_key_value_heads) * head_dim rows (config.json)",
                            c->dir, t->src_name);
    size_t k = c->n_t; /* where the split adds attn_k */
    lgg_status st = lgg__cv_split_rows(c, t, (uint64_t)(nh * hd), "attn_k", err); /* c->t may move */
    return st ? st : lgg__cv_split_rows(c, &c->t[k], (uint64_t)(nkv * hd), "attn_v", err);
}

/* The shared experts' width, master's intermediate_size // num_key_value_heads
 * (lgg.shexp_ff: ERNIEMOE_META's), when moe_num_shared_experts > 0. */
static lgg_status ernie_moe_init(lgg_convert *c, lgg_error *err) {
    int64_t sh = count_or(c, "moe_num_shared_experts", 0), ff = count_or(c, "intermediate_size", -1);
    int64_t nkv = count_or(c, "num_key_value_heads", -1);
    if (sh < 0) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'moe_num_shared_experts' is not a count", c->dir);
    if (sh == 0 || ff == -1 || nkv == -1) return LGG_OK;
    if (ff < 0 || nkv <= 0)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a count", c->dir,
                            ff < 0 ? "intermediate_size" : "num_key_value_heads");
    json_t *v = json_integer(ff / nkv);
    return !v || json_object_set_new(c->config, "lgg.shexp_ff", v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
                                                                    : LGG_OK;
}

const cv_hooks lgg__cv_hooks_ernie = {NULL, ernie_name, ernie_tensor, NULL, NULL, NULL};

/* PaddleOCR-VL's text (master's PaddleOCRModel: its Ernie4_5Model as "paddleocr"): ERNIE 4.5's, the
 * vision tower (visual.) and projector (mlp_AR.) left out by master's text filter. */
static int paddleocr_name(const char *hf, char *out, size_t cap) {
    return ernie_name(hf, out, cap) && !lgg__cv_master_multimodal(out);
}

const cv_hooks lgg__cv_hooks_paddleocr = {NULL, paddleocr_name, ernie_tensor, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_ernie_moe = {ernie_moe_init, ernie_moe_name, NULL, NULL, NULL, NULL};
