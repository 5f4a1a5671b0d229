/* llama4.c -- Llama 4 (Llama4ForCausalLM, the text part of
 * Llama4ForConditionalGeneration) as llama.cpp master (3f545becc) converts
 * it (conversion/llama.py's Llama4Model): text_config over the top level,
 * the vision model and projector dropped, "language_model." taken out of
 * the names; intermediate_size is the experts' width (written as
 * expert_feed_forward_length) and intermediate_size_mlp the dense one; the
 * stacked experts come (experts, in, out): gate_up_proj's columns are gate
 * then up, each expert transposed, and down_proj transposed; no q/k
 * permutation; llama 3 rope factors with equal low and high frequency
 * factors; the vocabulary always BPE.  The no-rope layers and chunked
 * attention are llama.cpp's own (master writes no keys for them). */
#include "../cvint.h"

#include <stdio.h>
#include <string.h>

/* Llama4Model.__init__: intermediate_size_moe = intermediate_size,
 * intermediate_size = intermediate_size_mlp (both required). */
static lgg_status llama4_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    if (st) return st;
    json_t *moe = json_object_get(c->config, "intermediate_size"), *mlp = json_object_get(c->config, "intermediate_size_mlp");
    if (!moe || !mlp)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing (Llama 4 needs both widths)", c->dir,
                            moe ? "intermediate_size_mlp" : "intermediate_size");
    if (json_object_set(c->config, "intermediate_size_moe", moe) || json_object_set(c->config, "intermediate_size", mlp))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* LlamaModel's "text_model." out, TextModel's multimodal filter,
 * ModelBase's "language_model." out; then Llama4Model's names: the
 * experts' gate_up_proj as its gate (the tensor hook adds up), down_proj
 * with ".weight". */
static int llama4_name(const char *hf, char *out, size_t cap) {
    if (!lgg__cv_master_llama_name(hf, out, cap)) return 0;
    size_t n = strlen(out);
    if (lgg__cv_ends_with(out, ".experts.gate_up_proj")) {
        n -= strlen("gate_up_proj");
        return (size_t)snprintf(out + n, cap - n, "gate_proj.weight") < cap - n;
    }
    if (lgg__cv_ends_with(out, ".experts.down_proj")) return (size_t)snprintf(out + n, cap - n, ".weight") < cap - n;
    return 1;
}

/* gate_up_proj (experts, hidden, 2 ff): gate its first ff columns, up the
 * rest, each expert transposed; down_proj (experts, ff, hidden) transposed. */
static lgg_status llama4_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (lgg__cv_ends_with(t->src_name, ".experts.down_proj")) return lgg__cv_expert_t(c, t, 1, 1, err);
    if (!lgg__cv_ends_with(t->src_name, ".experts.gate_up_proj")) return LGG_OK;
    return lgg__cv_expert_gate_up(c, t, err);
}

/* After llama's keys, the interleave step and the experts' width (the
 * table's): an all full-attention layer_types (MobileLLM's) turns sliding
 * window attention off. */
static lgg_status llama4_meta(lgg_convert *c, lgg_error *err) {
    const json_t *lt = json_object_get(c->config, "layer_types"), *v;
    size_t i;
    if (!lt) return LGG_OK;
    if (!json_is_array(lt)) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'layer_types' is not a list", c->dir);
    json_array_foreach(lt, i, v) if (!json_is_string(v) || strcmp(json_string_value(v), "full_attention")) return LGG_OK;
    char key[160];
    snprintf(key, sizeof key, "%s.attention.sliding_window", c->fam->arch);
    return lgg_writer_set_u32(c->w, key, 0, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key) : LGG_OK;
}

const cv_hooks lgg__cv_hooks_llama4 = {llama4_init, llama4_name, llama4_tensor, llama4_meta, NULL, NULL};
