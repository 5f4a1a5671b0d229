/* gemma4.c -- Gemma 4 as llama.cpp master (3f545becc) converts it
 * (conversion/gemma.py's Gemma4Model and Gemma4UnifiedModel, on Gemma 3's
 * code): the text of Gemma4ForConditionalGeneration (text_config, the towers
 * dropped) or a Gemma4ForCausalLM, its norms as they are (no + 1),
 * layer_scalar and the experts' fused tensors given ".weight", the router's
 * scale and per-expert scale as ffn_gate_inp.scale and ffn_down_exps.scale;
 * rope_freqs for the full-attention layers' proportional rope (1 for the
 * rotated half-dimensions, 1e30 for the others); Gemma 3's parameters, then
 * Gemma 4's: shared KV layers, per-layer input width, sliding-window layers,
 * the full and sliding layers' head sizes, the experts' width, the
 * double-wide MLP of the KV-sharing layers, per-layer KV head counts and the
 * two rope dimensions; the vocabulary read by gguf-py's LlamaHfVocab as
 * tokenizer model "gemma4" with its merges; the unified model's
 * suppress_tokens. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const cv_hooks lgg__cv_hooks_gemma3;

static const json_t *full_rope(const lgg_convert *c) {
    return json_object_get(json_object_get(c->config, "rope_parameters"), "full_attention");
}

/* A count field (or a per_layer_config entry's `key` for the first full-attention layer, master's fallback). */
static const json_t *full_layer_value(const lgg_convert *c, const char *field, const char *key) {
    const json_t *v = json_object_get(c->config, field);
    if (v && !json_is_null(v)) return v;
    const json_t *plc = json_object_get(c->config, "per_layer_config"), *types = json_object_get(c->config, "layer_types");
    if (!json_is_object(plc)) return NULL;
    const char *k;
    const json_t *lc;
    json_object_foreach((json_t *)plc, k, lc) { /* in config.json's order, as Python's dict */
        char *end = NULL;
        long i = strtol(k, &end, 10);
        const json_t *ty = i >= 0 && end && !*end ? json_array_get(types, (size_t)i) : NULL;
        if (json_is_string(ty) && !strcmp(json_string_value(ty), "full_attention") && json_object_get(lc, key))
            return json_object_get(lc, key);
    }
    return NULL;
}

static int is_count(const json_t *v) {
    return json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 0xffffffffLL;
}

/* Gemma 3's __init__, then what master's set_gguf_parameters and rope_freqs require. */
static lgg_status gemma4_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_hooks_gemma3.init(c, err);
    if (st) return st;
    static const char *const NEED[] = {"num_kv_shared_layers", "head_dim"};
    for (int k = 0; k < 2; k++)
        if (!is_count(json_object_get(c->config, NEED[k])))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, NEED[k]);
    if (!json_is_array(json_object_get(c->config, "layer_types")) ||
        json_array_size(json_object_get(c->config, "layer_types")) > (1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'layer_types' is missing or not a list", c->dir);
    const json_t *hd = full_layer_value(c, "global_head_dim", "head_dim");
    if (!is_count(hd) || json_integer_value(hd) > (1 << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the full-attention layers' head size (global_head_dim) is "
                            "missing or out of range", c->dir);
    const json_t *fr = full_rope(c), *rt = json_object_get(fr, "rope_type");
    if (!json_is_string(rt) || strcmp(json_string_value(rt), "proportional") ||
        !json_is_number(json_object_get(fr, "partial_rotary_factor")))
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/config.json: rope_parameters.full_attention is not a "
                            "\"proportional\" rope with a partial_rotary_factor (llama.cpp master requires it)", c->dir);
    if (!json_object_get(c->config, "expert_intermediate_size") && !json_object_get(c->config, "moe_intermediate_size"))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'expert_intermediate_size' (or "
                            "'moe_intermediate_size') is missing (llama.cpp master requires one, null for no experts)", c->dir);
    const json_t *dw = json_object_get(c->config, "use_double_wide_mlp");
    if (dw && json_is_true(dw) && !is_count(json_object_get(c->config, "intermediate_size")))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'intermediate_size' is not a count", c->dir);
    if (json_integer_value(json_object_get(c->config, "num_kv_shared_layers")) > (json_int_t)(1u << 20))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: num_kv_shared_layers is out of range", c->dir);
    return LGG_OK;
}

/* Gemma 3's renames, then ".weight" after layer_scalar and per_dim_scale, and after an experts' tensor
 * named without a suffix (gate_up_proj, down_proj). */
static int gemma4_name(const char *hf, char *out, size_t cap) {
    if (!lgg__cv_hooks_gemma3.hf_name(hf, out, cap)) return 0;
    size_t len = strlen(out);
    int add = lgg__cv_ends_with(out, "per_dim_scale") || lgg__cv_ends_with(out, "layer_scalar");
    if (strstr(out, ".experts.") && !lgg__cv_ends_with(out, ".weight") && !lgg__cv_ends_with(out, ".weight_scale") &&
        !lgg__cv_ends_with(out, ".weight_scale_2") && !lgg__cv_ends_with(out, ".input_scale"))
        add = 1;
    if (add && len + 8 <= cap) memcpy(out + len, ".weight", 8);
    return 1;
}

/* An array of n values (INT32, or BOOL bytes) as <arch>.NAME (or the key
 * NAME itself when it starts with "tokenizer."); none when n is 0, as
 * gguf-py's add_array writes no empty array. */
static lgg_status set_array(lgg_convert *c, const char *name, uint32_t type, size_t n, const void *v, lgg_error *err) {
    char key[128];
    if (!n) return LGG_OK;
    if (!strncmp(name, "tokenizer.", 10)) snprintf(key, sizeof key, "%s", name);
    else snprintf(key, sizeof key, "%s.%s", c->fam->arch, name);
    lgg_wvalue w = {LGG_VT_ARRAY, type, n, v};
    return lgg_writer_set(c->w, key, strlen(key), &w, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

/* The per-layer lists over the base's values: the double-wide MLP's widths, the KV head counts. */
static lgg_status layer_lists(lgg_convert *c, const uint8_t *swa, size_t n, lgg_error *err) {
    lgg_status st = LGG_OK;
    int32_t *v = malloc((c->block_count > n ? c->block_count : n) * sizeof *v + 4);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    uint64_t kv_shared = (uint64_t)json_integer_value(json_object_get(c->config, "num_kv_shared_layers"));
    if (!st && json_is_true(json_object_get(c->config, "use_double_wide_mlp"))) {
        int64_t ff = json_integer_value(json_object_get(c->config, "intermediate_size"));
        for (uint64_t i = 0; i < c->block_count; i++)
            v[i] = (int32_t)((int64_t)i < (int64_t)c->block_count - (int64_t)kv_shared ? ff : ff * 2);
        st = set_array(c, "feed_forward_length", LGG_VT_I32, c->block_count, v, err);
    }
    const json_t *full = full_layer_value(c, "num_global_key_value_heads", "num_key_value_heads");
    const json_t *sw = json_object_get(c->config, "num_key_value_heads");
    if (!st && full && !json_is_null(full) && sw && !json_is_null(sw)) {
        if (!json_is_integer(full) || !json_is_integer(sw))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the KV head counts are not integers", c->dir);
        for (size_t i = 0; !st && i < n; i++) v[i] = (int32_t)json_integer_value(swa[i] ? sw : full);
        if (!st) st = set_array(c, "attention.head_count_kv", LGG_VT_I32, n, v, err);
    }
    free(v);
    return st;
}

/* Gemma 3's: the token embedding cut to the tokenizer's size. */
static lgg_status gemma4_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) { return lgg__cv_hooks_gemma3.tensor(c, t, err); }

/* Gemma 3's parameters, then Gemma 4's in master's order. */
static lgg_status gemma4_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_hooks_gemma3.meta(c, err);
    const json_t *types = json_object_get(c->config, "layer_types"), *pl = json_object_get(c->config, "hidden_size_per_layer_input");
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.shared_kv_layers", (uint64_t)json_integer_value(json_object_get(c->config, "num_kv_shared_layers")), err);
    if (!st && pl && !json_is_null(pl) && !is_count(pl) && !json_is_false(pl))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'hidden_size_per_layer_input' is not a count", c->dir);
    if (!st) st = lgg__cv_put_arch_u32(c, "embedding_length_per_layer_input", is_count(pl) ? (uint64_t)json_integer_value(pl) : 0, err);
    size_t n = json_array_size(types);
    uint8_t *swa = malloc(n + 1);
    if (!swa) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *t = json_array_get(types, i);
        swa[i] = json_is_string(t) && !strcmp(json_string_value(t), "sliding_attention");
    }
    if (!st) st = set_array(c, "attention.sliding_window_pattern", LGG_VT_BOOL, n, swa, err);
    uint64_t hd_full = (uint64_t)json_integer_value(full_layer_value(c, "global_head_dim", "head_dim"));
    uint64_t hd_swa = (uint64_t)json_integer_value(json_object_get(c->config, "head_dim"));
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.key_length", hd_full, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.value_length", hd_full, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.key_length_swa", hd_swa, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "attention.value_length_swa", hd_swa, err);
    char which[64];
    const json_t *eff = lgg__cv_first_key(c->config, "expert_intermediate_size|moe_intermediate_size", which, sizeof which);
    if (!st && eff && !json_is_null(eff))
        st = is_count(eff) ? lgg__cv_put_arch_u32(c, "expert_feed_forward_length", (uint64_t)json_integer_value(eff), err)
                           : lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a count", c->dir, which);
    if (!st) st = layer_lists(c, swa, n, err);
    free(swa);
    const json_t *prf = json_object_get(json_object_get(c->config, "rope_parameters"), "partial_rotary_factor");
    if (!st && prf && !json_is_number(prf))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rope_parameters.partial_rotary_factor is not a number", c->dir);
    if (!st) st = lgg__cv_put_arch_u32(c, "rope.dimension_count", hd_full, err);
    if (!st) st = lgg__cv_put_arch_u32(c, "rope.dimension_count_swa", (uint64_t)((double)hd_swa * (prf ? json_number_value(prf) : 1.0)), err);
    return st;
}

/* LlamaHfVocab's reading as tokenizer model "gemma4" (the chat format's
 * tokens always rendered: USER_DEFINED), the merges, no space prefix, and
 * add_bos_token true over what the files say. */
static lgg_status gemma4_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    (void)o;
    static const char *const VISIBLE[] = {"<|channel>", "<channel|>", "<|tool_call>", "<tool_call|>", "<|tool_response>",
                                          "<tool_response|>", "<|\"|>", NULL};
    static const cv_hf_vocab GEMMA4 = {"gemma4", VISIBLE, 1};
    lgg_status st = lgg__cv_llama_hf_vocab_as(c, tc, &GEMMA4, err);
    if (!st && (lgg_writer_set_bool(c->w, "tokenizer.ggml.add_space_prefix", false, NULL) ||
                lgg_writer_set_bool(c->w, "tokenizer.ggml.add_bos_token", true, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the tokenizer's flags");
    return st;
}

/* rope_freqs: of the full layers' head_dim / 2 frequencies, the first
 * head_dim * partial_rotary_factor / 2 rotated (1), the others not (1e30). */
static lgg_status gemma4_generated(lgg_convert *c, lgg_error *err) {
    int64_t hd = json_integer_value(full_layer_value(c, "global_head_dim", "head_dim"));
    double prf = json_number_value(json_object_get(full_rope(c), "partial_rotary_factor"));
    double rot_d = (double)hd * prf / 2.0;
    if (!(rot_d >= 0.0 && rot_d <= (double)(hd / 2)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rope_parameters.full_attention.partial_rotary_factor is "
                            "not in [0, 1]", c->dir);
    uint64_t n = (uint64_t)(hd / 2), rot = (uint64_t)rot_d;
    float *f = malloc((n ? n : 1) * sizeof *f);
    if (!f) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; i < n; i++) f[i] = i < rot ? 1.0f : 1e30f;
    lgg_status st = lgg__cv_add_generated(c, "rope_freqs.weight", f, n, err);
    if (st) free(f);
    return st;
}

/* Gemma4UnifiedModel: Gemma 4's parameters, then generation_config.json's
 * suppress_tokens (an INT32 array) when it has them. */
static lgg_status unified_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = gemma4_meta(c, err);
    json_t *gen = NULL;
    if (!st && lgg__cv_exists(c, "generation_config.json", NULL)) st = lgg__cv_json(c, "generation_config.json", 1, &gen, err);
    const json_t *sup = json_object_get(gen, "suppress_tokens"), *e;
    size_t n = json_array_size(sup), i;
    int32_t *v = st || !sup || json_is_null(sup) ? NULL : malloc((n + 1) * sizeof *v);
    if (!st && sup && !json_is_null(sup) && (!json_is_array(sup) || n > (1u << 24)))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/generation_config.json: suppress_tokens is not a list", c->dir);
    else if (!st && sup && !json_is_null(sup) && !v)
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st && v) json_array_foreach(sup, i, e) {
        if (!json_is_integer(e) || json_integer_value(e) < INT32_MIN || json_integer_value(e) > INT32_MAX) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/generation_config.json: suppress_tokens[%zu] is not a 32-bit integer",
                              c->dir, i);
            break;
        }
        v[i] = (int32_t)json_integer_value(e);
    }
    if (!st && v) st = set_array(c, "tokenizer.ggml.suppress_tokens", LGG_VT_I32, n, v, err);
    free(v);
    json_decref(gen);
    return st;
}

const cv_hooks lgg__cv_hooks_gemma4 = {gemma4_init, gemma4_name, gemma4_tensor, gemma4_meta, gemma4_vocab, gemma4_generated};
/* Gemma 4's drafting assistants (Gemma4AssistantForCausalLM, Gemma4UnifiedAssistantForCausalLM: master's
 * Gemma4AssistantModel over Gemma4Model, "gemma4-assistant"): Gemma 4's, the masked embedding (centroids,
 * token ordering) left out as master leaves it, then the backbone's width (backbone_hidden_size) as
 * embedding_length_out and every block as a next-token-prediction one. */
static int assistant_name(const char *hf, char *out, size_t cap) {
    return !strstr(hf, "masked_embedding") && gemma4_name(hf, out, cap);
}

static lgg_status assistant_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = gemma4_meta(c, err);
    const json_t *bh = json_object_get(c->config, "backbone_hidden_size");
    if (!st && !is_count(bh))
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'backbone_hidden_size' is missing or not a count", c->dir);
    if (!st) st = lgg__cv_put_arch_u32(c, "embedding_length_out", (uint64_t)json_integer_value(bh), err);
    return st ? st : lgg__cv_put_arch_u32(c, "nextn_predict_layers", c->block_count, err);
}

const cv_hooks lgg__cv_hooks_gemma4_assistant = {gemma4_init, assistant_name, gemma4_tensor, assistant_meta, gemma4_vocab,
                                                 gemma4_generated};
const cv_hooks lgg__cv_hooks_gemma4_unified = {gemma4_init,  gemma4_name,  gemma4_tensor,
                                               unified_meta, gemma4_vocab, gemma4_generated};
