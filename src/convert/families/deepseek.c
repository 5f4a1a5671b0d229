/* deepseek.c -- the classes llama.cpp master's conversion/deepseek.py
 * converts on top of DeepSeek V2's latent attention (families/glm4.c's
 * split of kv_b_proj and hparams): DeepSeek V3.2 (DeepseekV32Model: the
 * "deepseek32" architecture, its sparse-attention indexer's tensors and
 * keys, the next-token-prediction blocks kept past num_hidden_layers unless
 * --no-mtp, and master's assertion that the tokenizer adds its BOS), and
 * Youtu-LLM and Youtu-VL's text (master's DeepseekV2Model itself under
 * their names: dense blocks only, tied embeddings, text_config's keys over
 * the top level, the vision tower and projector left out), and DeepSeek-OCR
 * and Unlimited-OCR's text (the same class as "deepseek2-ocr": plain
 * multi-head attention, no latent-attention keys, a default chat template
 * written first), and GLM-DSA (conversion/glm.py's GlmMoeDsaModel over
 * DeepseekV2Model: V3.2's without the BOS assertion, GLM's vocabulary). */
#include "../cvint.h"

#include <stdint.h>
#include <string.h>

static lgg_status set_value(lgg_convert *c, const char *key, json_t *v, lgg_error *err) {
    return !v || json_object_set_new(c->config, key, v) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory") : LGG_OK;
}

/* Master asserts the tokenizer's add_bos_token: LlamaTokenizerFast's
 * (tokenizer_config.json's, true when absent); another class has none. */
static lgg_status bos_asserted(lgg_convert *c, lgg_error *err) {
    json_t *tc = NULL;
    lgg_status st = lgg__cv_json(c, "tokenizer_config.json", 0, &tc, err);
    if (st) return st;
    const char *cls = json_string_value(json_object_get(tc, "tokenizer_class"));
    const json_t *ab = json_object_get(tc, "add_bos_token");
    int llama = cls && (!strcmp(cls, "LlamaTokenizerFast") || !strcmp(cls, "LlamaTokenizer"));
    int bos = llama && (!ab || json_is_true(ab));
    json_decref(tc);
    if (!bos)
        return lgg__cv_fail(err, LGG_ERR_UNSUPPORTED, "%s/tokenizer_config.json: the tokenizer does not add its BOS "
                            "(LlamaTokenizerFast with add_bos_token true): llama.cpp master refuses DeepSeek V3.2 without it",
                            c->dir);
    return LGG_OK;
}

/* DeepSeek V3.2: V2's hparams with the next-token-prediction blocks counted
 * (their count written whenever config.json has one, 0 too, unless
 * --no-mtp); the indexer's keys are DEEPSEEK32_META's. */
static lgg_status dsa_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_mla_init(c, 1, err);
    const json_t *nx = json_object_get(c->config, "num_nextn_predict_layers");
    if (!st && c->mtp != LGG_CONVERT_MTP_NONE && json_is_integer(nx) && !json_object_get(c->config, "lgg.nextn"))
        st = set_value(c, "lgg.nextn", json_integer(json_integer_value(nx)), err);
    return st;
}

static lgg_status deepseek32_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = bos_asserted(c, err);
    return st ? st : dsa_init(c, err);
}

/* Youtu: text_config over the top level, then DeepSeek V2's hparams (every
 * block dense without n_routed_experts). */
static lgg_status youtu_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = lgg__cv_master_text_config(c, err);
    return st ? st : lgg__cv_mla_init(c, 0, err);
}

/* Master's DeepseekV2Model filter: DeepSeek-OCR's vision towers (sam_model,
 * qwen2_model) and TextModel's multimodal parts out, then every
 * "language_model." out. */
static int ds_name(const char *hf, char *out, size_t cap) {
    if (strstr(hf, "sam_model") || strstr(hf, "qwen2_model") || lgg__cv_master_multimodal(hf)) return 0;
    return lgg__cv_master_strip(hf, "language_model.", out, 0, cap) != 0;
}

/* DeepSeek-OCR: language_config (master's name for its text_config) over
 * the top level (master's rope_theta default comes after its rope
 * parameters are read: no freq_base without one), DeepSeek V2's hparams
 * without latent attention, the sliding window (sliding_window_size, else
 * sliding_window, when not 0), master's default chat template. */
static lgg_status ocr_init(lgg_convert *c, lgg_error *err) {
    json_t *lc = json_object_get(c->config, "language_config");
    lgg_status st = json_is_object(lc) && json_object_set(c->config, "text_config", lc)
                        ? lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory")
                        : lgg__cv_master_text_config(c, err);
    if (!st) st = lgg__cv_mla_init(c, 2, err);
    const json_t *sw = json_object_get(c->config, "sliding_window_size");
    if (!json_is_integer(sw) || !json_integer_value(sw)) sw = json_object_get(c->config, "sliding_window");
    if (!st && json_is_integer(sw) && json_integer_value(sw)) {
        if (json_integer_value(sw) < 0 || json_integer_value(sw) > UINT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: the sliding window is not a count", c->dir);
        st = set_value(c, "lgg.sliding_window", json_integer(json_integer_value(sw)), err);
    }
    c->early_template = "{% for m in messages %}{{m['content']}}{% endfor %}";
    return st;
}

const cv_hooks lgg__cv_hooks_deepseek_ocr = {ocr_init, ds_name, lgg__cv_mla_kv_b, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_youtu = {youtu_init, ds_name, lgg__cv_mla_kv_b, NULL, NULL, NULL};
const cv_hooks lgg__cv_hooks_deepseek32 = {deepseek32_init, NULL, lgg__cv_mla_kv_b, NULL, NULL, NULL};

/* GLM-DSA (GlmMoeDsaForCausalLM: master's GlmMoeDsaModel over DeepseekV2Model): DeepSeek V3.2's hparams and
 * latent attention, GLM's named special tokens, and as lgg.dsa_rope the rope dimension master writes over
 * qk_rope_head_dim in its place: int(qk_rope_head_dim x the partial rotary factor of its rope parameters,
 * else config.json's, else 1). */
static lgg_status glm_dsa_init(lgg_convert *c, lgg_error *err) {
    lgg_status st = dsa_init(c, err);
    if (st) return st;
    const json_t *rp = lgg__cv_master_rope_params(c), *f = json_object_get(rp, "partial_rotary_factor");
    if (!f && !json_object_get(rp, "full_attention") && !json_object_get(rp, "sliding_attention"))
        f = json_object_get(c->config, "partial_rotary_factor");
    int64_t rd = lgg__cv_hparam_int(c, "qk_rope_head_dim", -1);
    double d = (double)rd * (json_is_number(f) ? json_number_value(f) : 1.0);
    if (rd < 0 || (f && !json_is_null(f) && !json_is_number(f)) || !(d >= 0 && d <= UINT32_MAX))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'qk_rope_head_dim' (or its partial_rotary_factor) "
                            "is missing or out of range", c->dir);
    return set_value(c, "lgg.dsa_rope", json_integer((json_int_t)d), err);
}

const cv_hooks lgg__cv_hooks_glm_dsa = {glm_dsa_init, NULL, lgg__cv_mla_kv_b, NULL, lgg__cv_glm_vocab, NULL};
