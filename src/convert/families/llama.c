/* llama.c -- the names llama.cpp master (3f545becc) converts with its
 * LlamaModel as "llama" that b4747 does not know (conversion/llama.py):
 * LlamaModel (the bare model: its names get "model."), IQuestCoder, and the
 * text part of LlavaForConditionalGeneration (text_config over the top
 * level, the vision tower and projector dropped, "language_model." out of
 * the names).  Their keys are master's base parameters with llama's
 * vocab_size and rope dimension (families.c), their tensors llama's. */
#include "../cvint.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* LlamaModel.modify_tensors: "model." before every name of a bare LlamaModel. */
static int bare_name(const char *hf, char *out, size_t cap) {
    char tmp[512];
    if (!lgg__cv_master_llama_name(hf, tmp, sizeof tmp)) return 0;
    return (size_t)snprintf(out, cap, "model.%s", tmp) < cap;
}

/* A bare LlamaModel with llama 3 rope scaling: master prefixes its generated
 * rope_freqs.weight with "model." too and stops ("Can not map tensor
 * 'model.rope_freqs.weight'"); refused with that reason. */
static lgg_status bare_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    const json_t *rp = json_object_get(c->config, "rope_parameters");
    if (!json_is_object(rp)) rp = json_object_get(c->config, "rope_scaling");
    if (json_is_object(json_object_get(rp, "full_attention"))) rp = json_object_get(rp, "full_attention");
    const json_t *ty = json_object_get(rp, "rope_type");
    if (!ty) ty = json_object_get(rp, "type");
    if (!st && json_is_string(ty) && !strcasecmp(json_string_value(ty), "llama3"))
        st = lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                          "%s/config.json: a LlamaModel with llama3 rope scaling: llama.cpp master cannot convert it "
                          "(it names the generated rope factors 'model.rope_freqs.weight' and cannot map that)", c->dir);
    return st;
}

/* LlamaBidirectionalModel (llama-embed): master maps its bare names ("layers.N...", "norm") as the
 * "model." ones, and generates llama 3's rope factors as usual. */
static int embed_name(const char *hf, char *out, size_t cap) {
    char tmp[512];
    if (!lgg__cv_master_llama_name(hf, tmp, sizeof tmp)) return 0;
    int bare = strncmp(tmp, "model.", 6) && strncmp(tmp, "lm_head", 7);
    return (size_t)snprintf(out, cap, "%s%s", bare ? "model." : "", tmp) < cap;
}

const cv_hooks lgg__cv_hooks_llama_embed = {lgg__cv_master_text_config, embed_name, NULL, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_llama_master = {lgg__cv_master_text_config, lgg__cv_master_llama_name, NULL, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_llama_bare = {bare_init, bare_name, NULL, NULL, NULL, NULL};

/* CogVLM's text (CogVLMForCausalLM, cogvlm: master's CogVLMModel, a LlamaModel): its language expert's
 * fused query_key_value, dense and MLP (families.c's table), the vision expert's and the vision tower
 * dropped by master's multimodal filter ("vision_", "vision.").  Master's LlamaModel.modify_tensors
 * requires num_key_value_heads (or n_kv_heads), which CogVLM's own configs lack (they have
 * num_multi_query_heads): master stops on their first tensor (KeyError), refused here the same way. */
static lgg_status cogvlm_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    if (json_object_get(c->config, "num_key_value_heads") || json_object_get(c->config, "n_kv_heads")) return LGG_OK;
    return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED,
                        "%s: tensor '%s': config.json has no num_key_value_heads (nor n_kv_heads), which llama.cpp master "
                        "(3f545becc) requires for CogVLM's text (its LlamaModel stops with KeyError)", c->dir, t->src_name);
}

const cv_hooks lgg__cv_hooks_cogvlm = {lgg__cv_master_text_config, lgg__cv_master_llama_name, cogvlm_tensor, NULL, NULL, NULL};
