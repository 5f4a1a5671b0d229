/* qwen2vl.c -- what Qwen2-VL does in code in the reference converter:
 * its text part only (the vision tower's tensors skipped) and its
 * multimodal rope sections.  llama.cpp master (3f545becc,
 * conversion/qwenvl.py's Qwen2VLModel) converts Qwen2-VL, Qwen2.5-VL, the
 * bare Qwen2VLModel and Qwen2.5-Omni's thinker the same way with its base
 * parameters (the sections among them): the text_config (a thinker's),
 * "thinker." out of names that start with it, TextModel's multimodal filter,
 * "language_model." out, bare names as "model."'s. */
#include "../cvint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vision tower (visual.*) is not part of the text model. */
static int qwen2vl_name(const char *hf, char *out, size_t cap) {
    if (!strncmp(hf, "visual.", 7)) return 0;
    snprintf(out, cap, "%s", hf);
    return strlen(hf) < cap;
}

/* rope_scaling.mrope_section, padded with zeros to four entries (INT32). */
static lgg_status qwen2vl_meta(lgg_convert *c, lgg_error *err) {
    const json_t *ms = json_object_get(json_object_get(c->config, "rope_scaling"), "mrope_section");
    size_t n = json_array_size(ms), i;
    if (!json_is_array(ms) || n > 64)
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.mrope_section' is missing or not a short list",
                            c->dir);
    int32_t v[64] = {0};
    const json_t *e;
    json_array_foreach(ms, i, e) {
        if (!json_is_integer(e) || json_integer_value(e) < INT32_MIN || json_integer_value(e) > INT32_MAX)
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: rope_scaling.mrope_section[%zu] is not a 32-bit integer",
                                c->dir, i);
        v[i] = (int32_t)json_integer_value(e);
    }
    char key[96];
    snprintf(key, sizeof key, "%s.rope.dimension_sections", c->fam->arch);
    lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_I32, n < 4 ? 4 : n, v};
    return lgg_writer_set(c->w, key, strlen(key), &arr, NULL) ? lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key) : LGG_OK;
}

const cv_hooks lgg__cv_hooks_qwen2vl = {NULL, qwen2vl_name, NULL, qwen2vl_meta, NULL, NULL};

extern const cv_hooks lgg__cv_hooks_qwen3;

static int master_name(const char *hf, char *out, size_t cap) {
    char a[512], b[512];
    if (!strncmp(hf, "thinker.", 8)) {
        if (!lgg__cv_master_strip(hf, "thinker.", a, 0, sizeof a)) return 0;
        hf = a;
    }
    if (lgg__cv_master_multimodal(hf) || !lgg__cv_master_strip(hf, "language_model.", b, 0, sizeof b)) return 0;
    return lgg__cv_hooks_qwen3.hf_name(b, out, cap);
}

const cv_hooks lgg__cv_hooks_qwen2vl_master = {lgg__cv_master_text_config, master_name, NULL, NULL, NULL, NULL};
