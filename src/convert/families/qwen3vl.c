/* qwen3vl.c -- the text of Qwen3-VL (Qwen3VLForConditionalGeneration,
 * qwen3vl), Qwen3-VL-MoE (Qwen3VLMoeForConditionalGeneration, qwen3vlmoe),
 * Qwen3-Omni's thinker (Qwen3OmniMoeForConditionalGeneration, qwen3vlmoe)
 * and Qwen3-ASR's (Qwen3ASRForConditionalGeneration, qwen3vl) as llama.cpp
 * master (3f545becc) converts them (conversion/qwen3vl.py's text models):
 * Qwen3's and Qwen3-MoE's conversion of the text_config (a thinker's for
 * Omni and ASR), "thinker." and "language_model." out of the names, the
 * vision and audio towers dropped, rope_parameters' mrope_section as
 * rope.dimension_sections (master's base), then n_deepstack_layers (the
 * vision tower's deepstack_visual_indexes; 0 for Omni and ASR).  The MoE's
 * experts come stacked and transposed, (experts, hidden, 2 ff) gate_up_proj
 * and (experts, ff, hidden) down_proj; Omni's per expert as Qwen3-MoE's.
 * Omni and ASR take <|im_end|> (tokenizer_config.json's added token) as
 * both BOS and EOS; ASR writes master's ChatML template. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const cv_hooks lgg__cv_hooks_qwen3, lgg__cv_hooks_qwen3_rerank, lgg__cv_hooks_qwen3vl_rerank;

/* The deepstack layer count master writes as lgg.deepstack: the length of
 * vision_config's deepstack_visual_indexes (thinker_config's vision_config
 * when `thinker` and config.json has a thinker_config: the dense model's
 * reading); 0 when `zero` (Omni, ASR: written over it), after the same
 * reading, which master does first. */
static lgg_status deepstack(lgg_convert *c, int thinker, int zero, lgg_error *err) {
    const json_t *th = json_object_get(c->config, "thinker_config");
    const json_t *vc = json_object_get(thinker && th ? th : c->config, "vision_config");
    const json_t *ix = vc ? json_object_get(vc, "deepstack_visual_indexes") : NULL;
    if ((vc && !json_is_object(vc)) || (json_is_object(vc) && ix && !json_is_array(ix)))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'vision_config' is not an object with a list "
                            "'deepstack_visual_indexes'", c->dir);
    json_t *n = json_integer(zero ? 0 : (json_int_t)json_array_size(ix));
    return !n || json_object_set_new(c->config, "lgg.deepstack", n) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

static lgg_status deepstack_key(lgg_convert *c, lgg_error *err) {
    char key[96];
    snprintf(key, sizeof key, "%s.n_deepstack_layers", c->fam->arch);
    return lgg_writer_set_u32(c->w, key, (uint32_t)json_integer_value(json_object_get(c->config, "lgg.deepstack")), NULL)
               ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set metadata key '%s'", key)
               : LGG_OK;
}

/* Qwen3-VL (and ASR, `zero`): the text_config, Qwen3's reranker reading. */
static lgg_status dense_init(lgg_convert *c, int zero, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    if (!st) st = deepstack(c, 1, zero, err);
    const cv_hooks *own = c->hooks;
    if (!st) st = lgg__cv_hooks_qwen3.init(c, err);
    c->hooks = own;
    if (!st && json_object_get(c->config, "lgg.rerank_yes")) {
        if (zero)
            return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s: a Qwen3-ASR checkpoint named as a reranker is not converted",
                                c->dir);
        c->hooks = &lgg__cv_hooks_qwen3vl_rerank;
    }
    return st;
}

static lgg_status qwen3vl_init(lgg_convert *c, lgg_error *err) { return dense_init(c, 0, err); }
static lgg_status qwen3asr_init(lgg_convert *c, lgg_error *err) { return dense_init(c, 1, err); }

static lgg_status qwen3vlmoe_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    return st ? st : deepstack(c, 0, 0, err);
}

static lgg_status qwen3omni_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    return st ? st : deepstack(c, 0, 1, err);
}

/* Every "thinker." out, TextModel's multimodal filter, every "language_model." out. */
static int text_name(const char *hf, char *out, size_t cap) {
    char tmp[512];
    if (!lgg__cv_master_strip(hf, "thinker.", tmp, 0, sizeof tmp) || lgg__cv_master_multimodal(tmp)) return 0;
    return lgg__cv_master_strip(tmp, "language_model.", out, 0, cap) != 0;
}

/* The dense model: then Qwen3's (its embedding checkpoints' bare names). */
static int qwen3vl_name(const char *hf, char *out, size_t cap) {
    char tmp[512];
    return text_name(hf, tmp, sizeof tmp) && lgg__cv_hooks_qwen3.hf_name(tmp, out, cap);
}

/* A reranker's head: Qwen3's (cls.output from the rows of "yes" and "no"). */
static lgg_status rerank_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    return lgg__cv_hooks_qwen3_rerank.tensor(c, t, err);
}

/* The MoE: the stacked experts' gate_up_proj as their gate (the tensor hook
 * adds up), down_proj with ".weight". */
static int qwen3vlmoe_name(const char *hf, char *out, size_t cap) {
    if (!text_name(hf, out, cap)) return 0;
    size_t n = strlen(out);
    if (lgg__cv_ends_with(out, ".weight")) out[n -= 7] = 0;
    const char *tail = lgg__cv_ends_with(out, "mlp.experts.gate_up_proj") ? "gate_up_proj" : NULL;
    if (tail) n -= strlen(tail);
    return (size_t)snprintf(out + n, cap - n, "%s.weight", tail ? "gate_proj" : "") < cap - n;
}

/* The stacked experts: gate_up_proj split into gate and up, each expert
 * transposed, down_proj transposed; another stacked name (experts.gate_proj,
 * experts.up_proj) is left unprocessed by master, which stops. */
static lgg_status qwen3vlmoe_tensor(lgg_convert *c, cv_tensor *t, lgg_error *err) {
    char src[512];
    snprintf(src, sizeof src, "%s", t->src_name);
    if (lgg__cv_ends_with(src, ".weight")) src[strlen(src) - 7] = 0;
    if (lgg__cv_ends_with(src, "mlp.experts.down_proj")) return lgg__cv_expert_t(c, t, 1, 1, err);
    if (lgg__cv_ends_with(src, "mlp.experts.gate_up_proj")) return lgg__cv_expert_gate_up(c, t, err);
    if (strstr(t->name, "_exps."))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: tensor '%s': stacked experts other than gate_up_proj and down_proj "
                            "(llama.cpp master leaves them unprocessed)", c->dir, t->src_name);
    return LGG_OK;
}

/* After the base parameters: Qwen3's pooling and reranker keys (the dense
 * model), then the deepstack layers. */
static lgg_status qwen3vl_meta(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_hooks_qwen3.meta(c, err);
    return st ? st : deepstack_key(c, err);
}

/* <|im_end|>'s id from tokenizer_config.json's added_tokens_decoder (the
 * first entry holding it), or -1. */
static lgg_status im_end_id(lgg_convert *c, int64_t *id, lgg_error *err) {
    json_t *tc = NULL, *v;
    const char *k;
    lgg_status st = lgg__cv_json(c, "tokenizer_config.json", 1, &tc, err);
    const json_t *added = json_object_get(tc, "added_tokens_decoder");
    *id = -1;
    json_object_foreach((json_t *)added, k, v) {
        if (st || *id >= 0) break;
        char *end;
        long long n = strtoll(k, &end, 10);
        if (!json_is_object(v) || !*k || *end || n < 0 || n > UINT32_MAX)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/tokenizer_config.json: added_tokens_decoder entry '%s' is not an id "
                              "with an object", c->dir, k);
        else if (json_is_string(json_object_get(v, "content")) && !strcmp(json_string_value(json_object_get(v, "content")), "<|im_end|>"))
            *id = n;
    }
    json_decref(tc);
    return st;
}

/* The ChatML template Qwen3-ASR's conversion writes. */
static const char ASR_TEMPLATE[] =
    "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/* The family's vocabulary (SentencePiece first for ASR, a Qwen3), then ASR's
 * template, then BOS and EOS both <|im_end|>'s (each in its place when set,
 * else appended). */
static lgg_status thinker_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, int asr, lgg_error *err) {
    lgg_status st = asr && lgg__cv_exists(c, "tokenizer.model", NULL) ? lgg__cv_spm(c, tc, err) : lgg__cv_bpe(c, tc, o, err);
    if (!st && asr && lgg_writer_set_str(c->w, "tokenizer.chat_template", ASR_TEMPLATE, NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.chat_template");
    int64_t id = -1;
    if (!st) st = im_end_id(c, &id, err);
    if (!st && id >= 0 && (lgg_writer_set_u32(c->w, "tokenizer.ggml.bos_token_id", (uint32_t)id, NULL) ||
                           lgg_writer_set_u32(c->w, "tokenizer.ggml.eos_token_id", (uint32_t)id, NULL)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set the special token ids");
    return st;
}

static lgg_status omni_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    return thinker_vocab(c, tc, o, 0, err);
}

static lgg_status asr_vocab(lgg_convert *c, json_t *tc, const lgg_convert_options *o, lgg_error *err) {
    return thinker_vocab(c, tc, o, 1, err);
}

const cv_hooks lgg__cv_hooks_qwen3vl = {qwen3vl_init, qwen3vl_name, NULL, qwen3vl_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_qwen3vl_rerank = {qwen3vl_init, qwen3vl_name, rerank_tensor, qwen3vl_meta, NULL, NULL};
const cv_hooks lgg__cv_hooks_qwen3asr = {qwen3asr_init, qwen3vl_name, NULL, qwen3vl_meta, asr_vocab, NULL};
const cv_hooks lgg__cv_hooks_qwen3vlmoe = {qwen3vlmoe_init, qwen3vlmoe_name, qwen3vlmoe_tensor, deepstack_key, NULL, NULL};
const cv_hooks lgg__cv_hooks_qwen3omni = {qwen3omni_init, qwen3vlmoe_name, qwen3vlmoe_tensor, deepstack_key, omni_vocab, NULL};
