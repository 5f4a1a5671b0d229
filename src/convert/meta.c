/* meta.c -- the output's metadata in the reference converter's order:
 * general.architecture and .type, the names (general.*), the family's
 * hyperparameters, the tokenizer, general.quantization_version. */
#include "cvint.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static lgg_status wfail(lgg_status st, const char *key, lgg_error *err) {
    return st ? lgg__cv_fail(err, st, "cannot set metadata key '%s'", key) : LGG_OK;
}

static lgg_status set_str(lgg_writer *w, const char *key, const char *v, lgg_error *err) {
    return v ? wfail(lgg_writer_set_str(w, key, v, NULL), key, err) : LGG_OK;
}

/* The first of `from` ('|' separated) present in config.json. */
static json_t *hparam(const lgg_convert *c, const char *from, char *which, size_t cap) {
    return lgg__cv_first_key(c->config, from, which, cap);
}

static int as_u32(const json_t *v, uint32_t *out) {
    if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= UINT32_MAX) {
        *out = (uint32_t)json_integer_value(v);
        return 1;
    }
    if (json_is_real(v) && json_real_value(v) >= 0 && json_real_value(v) <= UINT32_MAX &&
        json_real_value(v) == (double)(uint32_t)json_real_value(v)) {
        *out = (uint32_t)json_real_value(v);
        return 1;
    }
    return 0;
}

/* head_dim, else hidden_size / num_attention_heads; by_heads: always the
 * latter. */
static lgg_status rope_dim(lgg_convert *c, const char *key, int by_heads, lgg_error *err) {
    char which[64];
    uint32_t v = 0, h = 0, n = 0;
    json_t *hd = by_heads || (c->fam->flags & CV_F_NO_HEAD_DIM) ? NULL : hparam(c, "head_dim", which, sizeof which);
    if (hd ? !as_u32(hd, &v)
           : (!as_u32(json_object_get(c->config, "hidden_size"), &h) ||
              !as_u32(json_object_get(c->config, "num_attention_heads"), &n) || n == 0))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'head_dim' (or hidden_size and num_attention_heads) missing or not a count",
                            c->dir);
    if (!hd) v = h / n;
    return wfail(lgg_writer_set_u32(c->w, key, v, NULL), key, err);
}

static lgg_status rope_scaling(lgg_convert *c, const cv_mkey *m, lgg_error *err) {
    if (!strcmp(m->from, "master")) return lgg__cv_master_rope(c, err);
    int log_mul = !strcmp(m->from, "yarn+log"), rope_type = !strcmp(m->from, "linear+rope_type");
    const char *type = log_mul ? "yarn" : rope_type ? "linear" : m->from;
    const json_t *rs = json_object_get(c->config, "rope_scaling"), *f = json_object_get(rs, "factor");
    const json_t *ty = json_object_get(rs, "type"), *rty = rope_type ? json_object_get(rs, "rope_type") : NULL;
    int named = (json_is_string(ty) && !strcmp(json_string_value(ty), type)) ||
                (json_is_string(rty) && !strcmp(json_string_value(rty), type));
    if (!json_is_object(rs) || !f || !named) return LGG_OK;
    char key[160];
    snprintf(key, sizeof key, "%s.rope.scaling.type", c->fam->arch);
    lgg_status st = set_str(c->w, key, type, err);
    snprintf(key, sizeof key, "%s.rope.scaling.factor", c->fam->arch);
    if (!st && !json_is_number(f))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.factor' is not a number", c->dir);
    if (!st) st = wfail(lgg_writer_set_f32(c->w, key, (float)json_number_value(f), NULL), key, err);
    if (st || strcmp(type, "yarn")) return st;
    uint32_t ctx;
    if (!as_u32(json_object_get(rs, "original_max_position_embeddings"), &ctx))
        return lgg__cv_fail(err, LGG_ERR_INVALID,
                            "%s/config.json: key 'rope_scaling.original_max_position_embeddings' is missing", c->dir);
    snprintf(key, sizeof key, "%s.rope.scaling.original_context_length", c->fam->arch);
    st = wfail(lgg_writer_set_u32(c->w, key, ctx, NULL), key, err);
    if (st || !log_mul) return st;
    const json_t *ms = json_object_get(rs, "mscale_all_dim");
    if (!json_is_number(ms))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key 'rope_scaling.mscale_all_dim' is missing or not a number",
                            c->dir);
    snprintf(key, sizeof key, "%s.rope.scaling.yarn_log_multiplier", c->fam->arch);
    return wfail(lgg_writer_set_f32(c->w, key, (float)(0.1 * json_number_value(ms)), NULL), key, err);
}

/* CV_M_ENUM: `from` is "key=name:value,name:value" (key: the first present
 * of '|' separated keys; none is an error only when required). */
static lgg_status enum_param(lgg_convert *c, const char *key, const char *from, unsigned required, lgg_error *err) {
    const char *eq = strchr(from, '=');
    char name[160], which[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - from), from);
    const json_t *jv = hparam(c, name, which, sizeof which);
    if (!jv && required != CV_M_REQUIRED) return LGG_OK;
    if (jv) snprintf(name, sizeof name, "%s", which);
    const char *v = json_string_value(jv);
    size_t vl = v ? strlen(v) : 0;
    for (const char *p = eq + 1; v && *p;) {
        const char *colon = strchr(p, ':');
        if ((size_t)(colon - p) == vl && !memcmp(p, v, vl))
            return wfail(lgg_writer_set_u32(c->w, key, (uint32_t)strtoul(colon + 1, NULL, 10), NULL), key, err);
        p = strchr(colon, ',');
        p = p ? p + 1 : "";
    }
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or has a value not supported (%s)",
                        c->dir, name, eq + 1);
}

/* A required count of config.json for a computed value. */
static lgg_status need_u32(const lgg_convert *c, const char *name, uint32_t *v, lgg_error *err) {
    if (as_u32(json_object_get(c->config, name), v)) return LGG_OK;
    return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, name);
}

/* The values computed from config.json or hard-coded in the reference. */
static lgg_status computed(lgg_convert *c, const cv_mkey *m, const char *key, lgg_error *err) {
    uint32_t a = 0, b = 0;
    lgg_status st = LGG_OK;
    switch (m->kind) {
    case CV_M_STR: return set_str(c->w, key, m->from, err);
    case CV_M_FALSE: return wfail(lgg_writer_set_bool(c->w, key, false, NULL), key, err);
    case CV_M_U32_CONST: return wfail(lgg_writer_set_u32(c->w, key, (uint32_t)strtoul(m->from, NULL, 10), NULL), key, err);
    case CV_M_F32_CONST: return wfail(lgg_writer_set_f32(c->w, key, strtof(m->from, NULL), NULL), key, err);
    case CV_M_ENUM: return enum_param(c, key, m->from, m->required, err);
    case CV_M_SUM: {
        const char *op = m->from + strcspn(m->from, "+*");
        char first[64], which[64];
        snprintf(first, sizeof first, "%.*s", (int)(op - m->from), m->from);
        const json_t *fv = hparam(c, first, which, sizeof which);
        if (!fv || !as_u32(fv, &a))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a count", c->dir, first);
        if (*op == '*') b = (uint32_t)strtoul(op + 1, NULL, 10);
        else st = need_u32(c, op + 1, &b, err);
        uint64_t r = *op == '*' ? (uint64_t)a * b : (uint64_t)a + b;
        if (!st && r > UINT32_MAX)
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: %s is beyond 32 bits", c->dir, m->from);
        return st ? st : wfail(lgg_writer_set_u32(c->w, key, (uint32_t)r, NULL), key, err);
    }
    default: { /* CV_M_ROPE_PCT, CV_M_ROPE_PCT_EMBD */
        char which[64];
        const json_t *pct = hparam(c, m->from, which, sizeof which);
        st = need_u32(c, "hidden_size", &a, err);
        if (!st) st = need_u32(c, "num_attention_heads", &b, err);
        if (!st && (!b || !json_is_number(pct) || json_number_value(pct) < 0 || json_number_value(pct) > 1))
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' (or num_attention_heads) missing or out of range", c->dir, m->from);
        double p = json_number_value(pct);
        uint32_t dims = m->kind == CV_M_ROPE_PCT_EMBD ? (uint32_t)(p * a) / b : (uint32_t)(p * (double)(a / b));
        return st ? st : wfail(lgg_writer_set_u32(c->w, key, dims, NULL), key, err);
    }
    }
}

/* CV_M_SWA_LAYERS: each entry of the list m->from ("KEY" or "KEY=VALUE") as a bool, true where it is VALUE
 * ("sliding_attention" without one); a missing list is an error when required, as master's hparams[...]
 * fails. */
static lgg_status swa_layers(lgg_convert *c, const cv_mkey *m, const char *key, lgg_error *err) {
    char name[64];
    const char *eq = strchr(m->from, '='), *want = eq ? eq + 1 : "sliding_attention";
    snprintf(name, sizeof name, "%.*s", (int)(eq ? (size_t)(eq - m->from) : strlen(m->from)), m->from);
    const json_t *lt = json_object_get(c->config, name);
    if ((!lt || json_is_null(lt)) && m->required != CV_M_REQUIRED) return LGG_OK;
    if (!json_is_array(lt))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing or not a list", c->dir, name);
    size_t n = json_array_size(lt);
    uint8_t *pat = malloc(n ? n : 1);
    if (!pat) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(lt, i);
        pat[i] = json_is_string(e) && !strcmp(json_string_value(e), want);
    }
    lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_BOOL, n, pat};
    lgg_status st = wfail(lgg_writer_set(c->w, key, strlen(key), &a, NULL), key, err);
    free(pat);
    return st;
}

static lgg_status one_param(lgg_convert *c, const cv_mkey *m, lgg_error *err) {
    char key[160], which[64];
    if (!strncmp(m->key, "general.", 8) || !strncmp(m->key, "tokenizer.", 10) || !strncmp(m->key, "diffusion.", 10))
        snprintf(key, sizeof key, "%s", m->key);
    else snprintf(key, sizeof key, "%s.%s", c->fam->arch, m->key);
    if (m->required == CV_M_UNLESS_WRITTEN && !lgg__cv_may_write(c, key)) return LGG_OK;
    if (m->kind == CV_M_FILE_TYPE) return wfail(lgg_writer_set_u32(c->w, key, lgg__cv_file_type(c), NULL), key, err);
    if (m->kind == CV_M_ROPE_DIM || m->kind == CV_M_ROPE_DIM_HEADS) return rope_dim(c, key, m->kind == CV_M_ROPE_DIM_HEADS, err);
    if (m->kind == CV_M_ROPE_SCALING) return rope_scaling(c, m, err);
    if (m->kind == CV_M_MASTER_THETA) return lgg__cv_master_theta_key(c, key, !strcmp(m->from, "swa"), err);
    if (m->kind == CV_M_POOLING) return lgg__cv_master_pooling(c, err);
    if (m->kind == CV_M_SWA_LAYERS) return swa_layers(c, m, key, err);
    if (m->kind >= CV_M_SUM) return computed(c, m, key, err);
    json_t *v = (c->fam->flags & CV_F_NO_HEAD_DIM) && !strcmp(m->from, "head_dim") ? NULL : hparam(c, m->from, which, sizeof which);
    if (v && m->required == CV_M_NONZERO && json_is_number(v) && json_number_value(v) == 0) v = NULL;
    if (!v && m->required == CV_M_TRUE_IF_ABSENT) return wfail(lgg_writer_set_bool(c->w, key, true, NULL), key, err);
    if (!v && m->required == CV_M_ZERO_IF_ABSENT) return wfail(lgg_writer_set_u32(c->w, key, 0, NULL), key, err);
    if (!v) {
        if (m->required != CV_M_REQUIRED) return LGG_OK;
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is missing", c->dir, m->from);
    }
    if (m->kind == CV_M_BOOL) {
        if (!json_is_boolean(v))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not true or false", c->dir, which);
        return wfail(lgg_writer_set_bool(c->w, key, json_is_true(v), NULL), key, err);
    }
    if (m->kind == CV_M_F32) {
        if (!json_is_number(v))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a number", c->dir, which);
        return wfail(lgg_writer_set_f32(c->w, key, (float)json_number_value(v), NULL), key, err);
    }
    uint32_t u;
    if (!as_u32(v, &u))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s/config.json: key '%s' is not a 32-bit count", c->dir, which);
    return wfail(lgg_writer_set_u32(c->w, key, u, NULL), key, err);
}

/* Parameters as the writer counts them: elements of every output tensor,
 * with the "_exps." ones counted once per expert; a LoRA pair counts as
 * the matrix it changes (B's rows by A's columns), and the total of an
 * adapter is negated (gguf-py's sign for "not exact"). */
static void param_count(const lgg_convert *c, int64_t *total_out, uint64_t *per_path, uint32_t *experts) {
    uint64_t shared = 0, expert = 0, esum = 0, n_exp = 0, total = 0;
    const cv_tensor *lora_a = NULL;
    for (size_t i = 0; i < c->n_t; i++) {
        const cv_tensor *t = &c->t[i];
        uint64_t n = 1;
        size_t l = strlen(t->name);
        if (l > 7 && !strcmp(t->name + l - 7, ".lora_a")) {
            lora_a = t;
            continue;
        }
        for (int d = 0; d < 4; d++) n *= (uint64_t)t->ne[d];
        if (l > 7 && !strcmp(t->name + l - 7, ".lora_b") && lora_a) n = n / (uint64_t)t->ne[0] * (uint64_t)lora_a->ne[0];
        if (strstr(t->name, "_exps.") && t->n_dims >= 3 && t->ne[2] > 0) {
            expert += n / (uint64_t)t->ne[2], esum += (uint64_t)t->ne[2], n_exp++;
        } else {
            shared += n;
        }
        total += n;
    }
    *experts = n_exp ? (uint32_t)(esum / n_exp) : 0;
    *per_path = shared + expert;
    *total_out = lora_a ? -(int64_t)total : (int64_t)total;
}

/* s into buf of cap > 0 bytes, cut to fit (a directory name is at most
 * NAME_MAX bytes; the cut only guards the buffer). */
static void copy_cut(char *buf, size_t cap, const char *s) {
    size_t l = strlen(s);
    if (l >= cap) l = cap - 1;
    memcpy(buf, s, l);
    buf[l] = 0;
}

static const char *dir_name(const lgg_convert *c, char *buf, size_t cap) {
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", c->dir);
    size_t l = strlen(tmp);
    while (l > 1 && tmp[l - 1] == '/') tmp[--l] = 0;
    while (l > 2 && !strcmp(tmp + l - 2, "/.")) tmp[l -= 2] = 0;
    const char *b = strrchr(tmp, '/');
    b = b ? b + 1 : tmp;
    if (!*b || !strcmp(b, ".")) { /* "." names the current directory */
        char *r = realpath(c->dir, NULL);
        const char *rb = r ? strrchr(r, '/') : NULL;
        copy_cut(buf, cap, rb ? rb + 1 : "");
        free(r);
        return buf;
    }
    copy_cut(buf, cap, b);
    return buf;
}

/* Fill names not yet known from a model id (config's _name_or_path, then
 * the directory name). */
static void names_from(cv_names *n, const char *id, int64_t total) {
    cv_names m;
    lgg__cv_model_id(id, total, &m);
    char **dst[] = {&n->name, &n->org, &n->basename, &n->finetune, &n->version, &n->size_label};
    char **src[] = {&m.name, &m.org, &m.basename, &m.finetune, &m.version, &m.size_label};
    for (int i = 0; i < 6; i++) {
        if (*dst[i] || !*src[i]) continue;
        *dst[i] = i < 2 ? lgg__cv_id_to_title(*src[i]) : *src[i];
        if (i >= 2) *src[i] = NULL;
    }
    lgg__cv_names_free(&m);
}

/* general.base_model.* or general.dataset.*: a count, then each entry's
 * keys in the reference's order. */
static lgg_status sources(lgg_writer *w, const char *what, const json_t *list, lgg_error *err) {
    if (!list) return LGG_OK;
    char key[96];
    snprintf(key, sizeof key, "general.%s.count", what);
    lgg_status st = wfail(lgg_writer_set_u32(w, key, (uint32_t)json_array_size(list), NULL), key, err);
    size_t i;
    const json_t *e;
    json_array_foreach(list, i, e) {
        for (const char *const *k = LGG__CV_SOURCE_KEYS; *k && !st; k++) {
            snprintf(key, sizeof key, "general.%s.%zu.%s", what, i, *k);
            st = set_str(w, key, json_string_value(json_object_get(e, *k)), err);
        }
    }
    return st;
}

/* general.tags or general.languages (an empty list is not written). */
static lgg_status str_array(lgg_writer *w, const char *key, const json_t *list, lgg_error *err) {
    size_t n = json_array_size(list);
    if (!n) return LGG_OK;
    lgg_str *v = calloc(n, sizeof *v);
    if (!v) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(list, i);
        v[i].ptr = json_string_value(e), v[i].len = json_string_length(e);
    }
    lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_STRING, n, v};
    lgg_status st = wfail(lgg_writer_set(w, key, strlen(key), &arr, NULL), key, err);
    free(v);
    return st;
}

/* What the model card adds after general.size_label. */
static lgg_status card_rest(lgg_writer *w, const cv_card *cc, lgg_error *err) {
    lgg_status st = set_str(w, "general.license", cc->license, err);
    if (!st) st = set_str(w, "general.license.name", cc->license_name, err);
    if (!st) st = set_str(w, "general.license.link", cc->license_link, err);
    if (!st) st = set_str(w, "general.url", cc->url, err);
    if (!st) st = set_str(w, "general.doi", cc->doi, err);
    if (!st) st = set_str(w, "general.uuid", cc->uuid, err);
    if (!st) st = set_str(w, "general.repo_url", cc->repo_url, err);
    if (!st) st = set_str(w, "general.source.url", cc->source_url, err);
    if (!st) st = set_str(w, "general.source.doi", cc->source_doi, err);
    if (!st) st = set_str(w, "general.source.uuid", cc->source_uuid, err);
    if (!st) st = set_str(w, "general.source.repo_url", cc->source_repo_url, err);
    if (!st) st = sources(w, "base_model", cc->base_models, err);
    if (!st) st = sources(w, "dataset", cc->datasets, err);
    if (!st) st = str_array(w, "general.tags", cc->tags, err);
    if (!st) st = str_array(w, "general.languages", cc->languages, err);
    return st;
}

/* The names: the model card first, then config.json's _name_or_path, then
 * the directory's name. */
static lgg_status names(lgg_convert *c, int64_t total, cv_names *n, cv_card *cc, char *dn, size_t dn_cap,
                        lgg_error *err) {
    json_t *card = NULL;
    memset(cc, 0, sizeof *cc); /* freed by the caller whatever happens */
    lgg_status st = lgg__cv_model_card(c, &card, err);
    if (!st) {
        char where[4200];
        snprintf(where, sizeof where, "%s/README.md", c->dir);
        st = lgg__cv_card_meta(card, where, total, n, cc, err);
    }
    json_decref(card);
    if (st) return st;
    json_t *nop = json_object_get(c->lora ? c->card_config : c->config, "_name_or_path");
    if (json_is_string(nop)) {
        const char *s = json_string_value(nop);
        int slashes = 0;
        for (const char *p = s; *p; p++) slashes += *p == '/';
        if (slashes <= 1) names_from(n, s, total);
    }
    names_from(n, dir_name(c, dn, dn_cap), total);
    return LGG_OK;
}

/* The reference's metadata override file (--metadata FILE.json, gguf-py's
 * Metadata.load): each "general.*" key it holds replaces what the model
 * card and the names gave; other keys are ignored, as there.  Unlike the
 * reference a missing file or a value of the wrong type is an error (the
 * reference skips the one and writes or crashes on the other). */
static lgg_status override(lgg_convert *c, const char *path, cv_names *n, cv_card *cc, lgg_error *err) {
    static const char *const STR[] = {"name", "author", "version", "organization", "finetune", "basename",
                                      "description", "quantized_by", "size_label", "license.name", "license.link",
                                      "url", "doi", "uuid", "repo_url", "source.url", "source.doi", "source.uuid",
                                      "source.repo_url", NULL};
    char **const D[] = {&n->name,       &cc->author,       &n->version,       &n->org,          &n->finetune,
                        &n->basename,   &cc->description,  &cc->quantized_by, &n->size_label,   &cc->license_name,
                        &cc->license_link, &cc->url,       &cc->doi,          &cc->uuid,        &cc->repo_url,
                        &cc->source_url, &cc->source_doi,  &cc->source_uuid,  &cc->source_repo_url};
    struct stat sb;
    const uint64_t max = c->max_json ? c->max_json : LGG_CONVERT_MAX_OTHER_JSON;
    if (stat(path, &sb) != 0)
        return lgg__cv_fail(err, LGG_ERR_IO, "%s: cannot read the metadata file: %s", path, strerror(errno));
    if (!S_ISREG(sb.st_mode)) return lgg__cv_fail(err, LGG_ERR_IO, "%s: the metadata file is not a regular file", path);
    if ((uint64_t)sb.st_size > max)
        return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: %lld bytes, over the %llu-byte bound of a JSON input", path,
                            (long long)sb.st_size, (unsigned long long)max);
    json_error_t je;
    json_t *o = json_load_file(path, JSON_DECODE_ANY, &je);
    if (!o) return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: line %d: %s", path, je.line, je.text);
    lgg_status st = json_is_object(o) ? lgg__cv_note_input(c, path, err)
                                      : lgg__cv_fail(err, LGG_ERR_INVALID, "%s: not a JSON object", path);
    char key[64];
    for (size_t i = 0; !st && STR[i]; i++) {
        snprintf(key, sizeof key, "general.%s", STR[i]);
        const json_t *v = json_object_get(o, key);
        if (!v) continue;
        if (!json_is_string(v)) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: '%s' is not a string", path, key);
        } else {
            free(*D[i]);
            if (!(*D[i] = strdup(json_string_value(v)))) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        }
    }
    /* lists: base models and datasets (objects of strings), tags and languages (strings) */
    static const char *const LIST[] = {"general.base_models", "general.datasets", "general.tags", "general.languages"};
    json_t **const L[] = {&cc->base_models, &cc->datasets, &cc->tags, &cc->languages};
    for (size_t i = 0; !st && i < 4; i++) {
        json_t *v = json_object_get(o, LIST[i]);
        if (!v) continue;
        size_t j;
        json_t *e;
        int ok = json_is_array(v);
        json_array_foreach(ok ? v : NULL, j, e) {
            if (i >= 2) {
                ok &= json_is_string(e);
                continue;
            }
            ok &= json_is_object(e);
            for (const char *const *k = LGG__CV_SOURCE_KEYS; ok && *k; k++)
                ok &= !json_object_get(e, *k) || json_is_string(json_object_get(e, *k));
        }
        if (!ok) {
            st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: '%s' is not a list of %s", path, LIST[i],
                              i < 2 ? "objects of strings" : "strings");
            break;
        }
        json_decref(*L[i]);
        *L[i] = json_incref(v);
    }
    json_decref(o);
    return st;
}

/* The default name comes from a model card or config.json: a file name of
 * printable characters alone, so no newline, terminal escape (C0, DEL, or
 * UTF-8's C1 such as U+009B CSI) or folder reaches a path or a message;
 * spaces and slashes become dashes as in gguf-py's names. */
static void file_name_chars(char *s) {
    char *o = s;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) continue;
        if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) { /* a C1 control's two bytes */
            p++;
            continue;
        }
        *o++ = *p == ' ' || *p == '/' ? '-' : (char)*p;
    }
    *o = 0;
}

static lgg_status general(lgg_convert *c, const lgg_convert_options *o, lgg_error *err) {
    int64_t total;
    uint64_t per_path;
    uint32_t experts;
    param_count(c, &total, &per_path, &experts);
    cv_names n = {0};
    cv_card cc;
    char dn[NAME_MAX + 1];
    lgg_status st = names(c, total, &n, &cc, dn, sizeof dn, err);
    if (!st && o->metadata_override) st = override(c, o->metadata_override, &n, &cc, err);
    if (!st && o->model_name) {
        free(n.name);
        if (!(n.name = strdup(o->model_name))) st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    if (st) {
        lgg__cv_names_free(&n);
        lgg__cv_card_free(&cc);
        return st;
    }
    if (!n.name) n.name = strdup(dn);
    if (!n.size_label && total > 0) {
        char b[32];
        lgg_size_label(per_path, experts, b, sizeof b);
        n.size_label = strdup(b);
    }
    st = set_str(c->w, "general.name", n.name ? n.name : "", err);
    if (!st) st = set_str(c->w, "general.author", cc.author, err);
    if (!st) st = set_str(c->w, "general.version", n.version, err);
    if (!st) st = set_str(c->w, "general.organization", n.org, err);
    if (!st) st = set_str(c->w, "general.finetune", n.finetune, err);
    if (!st) st = set_str(c->w, "general.basename", n.basename, err);
    if (!st) st = set_str(c->w, "general.description", cc.description, err);
    if (!st) st = set_str(c->w, "general.quantized_by", cc.quantized_by, err);
    if (!st) st = set_str(c->w, "general.size_label", n.size_label, err);
    if (!st) st = card_rest(c->w, &cc, err);
    lgg__cv_card_free(&cc);
    if (!st) {
        /* The reference's default file name: the naming convention's. */
        const char *base = n.basename ? n.basename : n.name ? n.name : "ggml-model";
        size_t cap = strlen(base) + 64 + (n.size_label ? strlen(n.size_label) : 0) +
                     (n.finetune ? strlen(n.finetune) : 0) + (n.version ? strlen(n.version) : 0);
        if ((c->default_name = malloc(cap))) {
            /* a vocabulary-only file has no size or encoding, and the type "vocab" */
            /* master's --mtp: "mtp-" before a name without the size */
            int mtp = !c->vocab_only && c->mtp == LGG_CONVERT_MTP_ONLY && !(c->fam->flags & CV_F_MTP_PLAIN_NAME);
            const char *sl = c->vocab_only || mtp ? NULL : n.size_label;
            snprintf(c->default_name, cap, "%s%s%s%s%s%s%s%s-%s%s.gguf", mtp ? "mtp-" : "", base, sl ? "-" : "", sl ? sl : "",
                     n.finetune ? "-" : "", n.finetune ? n.finetune : "", n.version ? "-" : "", n.version ? n.version : "",
                     c->vocab_only ? "vocab" : lgg__cv_outtype_name(c), c->lora ? "-LoRA" : "");
            file_name_chars(c->default_name);
        }
    }
    lgg__cv_names_free(&n);
    return st;
}

/* Add t to w as `type`, its data from the converter; keep_dims: with all
 * of its dimensions, trailing 1s too, as gguf-py writes them (the
 * quantizer's output follows ggml's rule instead). */
lgg_status lgg__cv_writer_add(lgg_writer *w, cv_tensor *t, uint32_t type, int keep_dims, lgg_error *err) {
    lgg_status st = lgg_writer_add_tensor_callback(w, t->name, strlen(t->name), t->n_dims, t->ne, type, lgg__cv_read, t,
                                                   LGG_LITTLE_ENDIAN, err);
    if (!st && keep_dims) st = lgg_writer_set_tensor_n_dims(w, lgg_writer_tensor_count(w) - 1, t->n_dims, err);
    return st;
}

lgg_status lgg__cv_add_tensors(lgg_convert *c, lgg_error *err) {
    for (size_t i = 0; i < c->n_t; i++) {
        cv_tensor *t = &c->t[i];
        lgg_error we;
        if (lgg__cv_writer_add(c->w, t, t->type, 1, &we))
            return lgg__cv_fail(err, we.code, "%s/%s: tensor '%s': %s", c->dir, c->shard_names[t->shard], t->src_name,
                                we.message);
        c->total += lgg__cv_out_bytes(t) * t->n_units;
    }
    return LGG_OK;
}

lgg_status lgg__cv_meta_keys(lgg_convert *c, const cv_mkey *m, lgg_error *err) {
    lgg_status st = LGG_OK;
    for (; !st && m->key; m++) st = one_param(c, m, err);
    return st;
}

static lgg_status quant_version(lgg_convert *c, lgg_error *err) {
    return wfail(lgg_writer_set_u32(c->w, "general.quantization_version", 2, NULL), "general.quantization_version", err);
}

lgg_status lgg__cv_metadata(lgg_convert *c, const lgg_convert_options *o, lgg_error *err) {
    lgg_status st = set_str(c->w, "general.architecture", c->fam->arch, err);
    if (!st && c->early_template) st = set_str(c->w, "tokenizer.chat_template", c->early_template, err);
    if (!st && c->has_attn_factor) {
        char key[96];
        snprintf(key, sizeof key, "%s.rope.scaling.attn_factor", c->fam->arch);
        st = wfail(lgg_writer_set_f32(c->w, key, c->attn_factor, NULL), key, err);
    }
    if (!st && c->has_max_alibi_bias) {
        char key[96];
        snprintf(key, sizeof key, "%s.attention.max_alibi_bias", c->fam->arch);
        st = wfail(lgg_writer_set_f32(c->w, key, c->max_alibi_bias, NULL), key, err);
    }
    for (int i = 0; !st && i < c->n_early; i++) {
        lgg_wvalue a = {LGG_VT_ARRAY, LGG_VT_F32, c->early[i].n, c->early[i].v};
        if (c->early[i].scalar) a = (lgg_wvalue){LGG_VT_F32, 0, 1, c->early[i].v};
        st = wfail(lgg_writer_set(c->w, c->early[i].key, strlen(c->early[i].key), &a, NULL), c->early[i].key, err);
    }
    if (!st) st = set_str(c->w, "general.type", c->lora ? "adapter" : "model", err);
    if (!st && c->lora) st = set_str(c->w, "adapter.type", "lora", err);
    if (!st && c->master && !c->lora) st = lgg__cv_master_sampling(c, err);
    if (!st) st = general(c, o, err);
    if (c->lora) { /* an adapter's parameters are its alpha alone, and it has no vocabulary */
        if (!st) st = wfail(lgg_writer_set_f32(c->w, "adapter.lora.alpha", c->lora_alpha, NULL), "adapter.lora.alpha", err);
    } else {
        if (!st) st = lgg__cv_meta_keys(c, c->fam->meta, err);
        if (!st && c->hooks && c->hooks->meta) st = c->hooks->meta(c, err);
        if (!st && c->master) st = quant_version(c, err); /* master: before the tokenizer keys */
        if (!st) st = lgg__cv_vocab(c, o, err);
    }
    if (!st && (!c->master || c->lora)) st = quant_version(c, err);
    return st;
}
