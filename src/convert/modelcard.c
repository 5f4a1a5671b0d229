/* modelcard.c -- the model card: README.md's YAML front matter, read as
 * gguf-py reads it (the first line is "---", the text up to the next
 * "---\n" is YAML, loaded with PyYAML's safe_load), parsed with libyaml and
 * turned into a JSON value so the rest of the converter reads it like
 * config.json.
 *
 * PyYAML resolves plain (unquoted) scalars by YAML 1.1's rules: null, ~ and
 * the empty scalar are null; yes/no/on/off/true/false (three spellings) are
 * booleans; integers (0b, 0x, octal, sexagesimal, underscores), floats
 * (which need a dot) and timestamps are numbers or dates.  The reference
 * writes model-card values as GGUF strings, and any non-string it meets
 * there makes it fail, so only the distinction matters here: strings stay
 * strings, null is null, booleans are booleans, and other resolved scalars
 * become {"!!int": text} (or !!float, !!timestamp) -- not strings. */
#include "cvint.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MAX_DEPTH LGG_CONVERT_MAX_CARD_DEPTH
/* Aliases are expanded into copies: a card whose anchors, referenced over
 * and over, expand to more than this many bytes (each value counted as
 * NODE_COST bytes plus its text) is refused, a "billion laughs" of few
 * values and long strings as well as one of many values.  The front
 * matter's own text (at most LGG_CONVERT_MAX_CARD) cannot reach it
 * without aliases. */
#define MAX_EXPANDED ((size_t)64 << 20)
#define NODE_COST 16
/* Why node_json gave up. */
enum { WALK_OOM_OR_UTF8, WALK_TOO_DEEP, WALK_TOO_LARGE };
typedef struct walk {
    size_t budget; /* bytes of expanded values left */
    int why;
} walk;

static bool digit(char c) { return c >= '0' && c <= '9'; }

/* The longest run of characters of `set` from *i; returns its length. */
static size_t run(const char *s, size_t n, size_t *i, const char *set) {
    size_t k = 0;
    while (*i < n && s[*i] && strchr(set, s[*i])) (*i)++, k++;
    return k;
}

/* (?::[0-5]?[0-9])+ from *i. */
static bool sexagesimal(const char *s, size_t n, size_t *i) {
    size_t groups = 0;
    while (*i < n && s[*i] == ':') {
        size_t j = *i + 1;
        if (j < n && s[j] >= '0' && s[j] <= '5' && j + 1 < n && digit(s[j + 1])) j += 2;
        else if (j < n && digit(s[j])) j += 1;
        else break;
        *i = j, groups++;
    }
    return groups > 0;
}

/* [eE][-+][0-9]+ (optional) from *i. */
static bool exponent(const char *s, size_t n, size_t *i) {
    if (*i >= n || (s[*i] != 'e' && s[*i] != 'E')) return true;
    size_t j = *i + 1;
    if (j >= n || (s[j] != '-' && s[j] != '+')) return false;
    j++;
    size_t start = j;
    while (j < n && digit(s[j])) j++;
    if (j == start) return false;
    *i = j;
    return true;
}

static bool is_int(const char *s, size_t n) {
    size_t i = (n && (s[0] == '-' || s[0] == '+')) ? 1 : 0, j;
    if (i + 2 <= n && s[i] == '0' && s[i + 1] == 'b') return (j = i + 2, run(s, n, &j, "01_") > 0 && j == n);
    if (i + 2 <= n && s[i] == '0' && s[i + 1] == 'x')
        return (j = i + 2, run(s, n, &j, "0123456789abcdefABCDEF_") > 0 && j == n);
    if (i + 1 < n && s[i] == '0') return (j = i + 1, run(s, n, &j, "01234567_") > 0 && j == n);
    if (i < n && s[i] == '0') return i + 1 == n;
    if (i >= n || s[i] < '1' || s[i] > '9') return false;
    j = i + 1;
    run(s, n, &j, "0123456789_");
    if (j == n) return true;
    return sexagesimal(s, n, &j) && j == n;
}

static bool is_float(const char *s, size_t n) {
    size_t i = (n && (s[0] == '-' || s[0] == '+')) ? 1 : 0, j;
    const char *t = s + i;
    size_t m = n - i;
    if ((m == 4 && (!memcmp(t, ".inf", 4) || !memcmp(t, ".Inf", 4) || !memcmp(t, ".INF", 4))) ||
        (i == 0 && n == 4 && (!memcmp(s, ".nan", 4) || !memcmp(s, ".NaN", 4) || !memcmp(s, ".NAN", 4))))
        return true;
    if (i == 0 && n >= 2 && s[0] == '.' && digit(s[1])) { /* \.[0-9][0-9_]*(exp)? */
        j = 2;
        run(s, n, &j, "0123456789_");
        return exponent(s, n, &j) && j == n;
    }
    if (i >= n || !digit(s[i])) return false;
    j = i + 1;
    run(s, n, &j, "0123456789_");
    size_t k = j;
    if (j < n && s[j] == '.') { /* [0-9][0-9_]*\.[0-9_]*(exp)? */
        j++;
        run(s, n, &j, "0123456789_");
        if (exponent(s, n, &j) && j == n) return true;
    }
    j = k; /* [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* */
    if (!sexagesimal(s, n, &j) || j >= n || s[j] != '.') return false;
    j++;
    run(s, n, &j, "0123456789_");
    return j == n;
}

/* YYYY-MM-DD, or with a time (the timestamp resolver's pattern). */
static bool is_timestamp(const char *s, size_t n) {
    if (n < 8 || !digit(s[0]) || !digit(s[1]) || !digit(s[2]) || !digit(s[3]) || s[4] != '-') return false;
    if (n == 10 && digit(s[5]) && digit(s[6]) && s[7] == '-' && digit(s[8]) && digit(s[9])) return true;
    size_t i = 5, k;
    for (k = 0; i < n && digit(s[i]) && k < 2; i++, k++) {}
    if (!k || i >= n || s[i++] != '-') return false;
    for (k = 0; i < n && digit(s[i]) && k < 2; i++, k++) {}
    if (!k || i >= n) return false;
    if (s[i] == 'T' || s[i] == 't') i++;
    else if (s[i] == ' ' || s[i] == '\t') while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    else return false;
    for (k = 0; i < n && digit(s[i]) && k < 2; i++, k++) {}
    if (!k || i + 6 > n || s[i] != ':' || !digit(s[i + 1]) || !digit(s[i + 2]) || s[i + 3] != ':' ||
        !digit(s[i + 4]) || !digit(s[i + 5]))
        return false;
    i += 6;
    if (i < n && s[i] == '.') for (i++; i < n && digit(s[i]); i++) {}
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i == n) return true;
    if (s[i] == 'Z') return i + 1 == n;
    if (s[i] != '-' && s[i] != '+') return false;
    for (i++, k = 0; i < n && digit(s[i]) && k < 2; i++, k++) {}
    if (!k) return false;
    if (i < n && s[i] == ':') {
        if (i + 3 != n || !digit(s[i + 1]) || !digit(s[i + 2])) return false;
        i += 3;
    }
    return i == n;
}

static json_t *tagged(const char *tag, const char *s, size_t n) {
    json_t *o = json_object();
    if (o && json_object_set_new(o, tag, json_stringn(s, n))) json_decref(o), o = NULL;
    return o;
}

static bool one_of(const char *s, size_t n, const char *const *words) {
    for (; *words; words++)
        if (strlen(*words) == n && !memcmp(*words, s, n)) return true;
    return false;
}

/* A plain scalar as PyYAML's resolver types it. */
static json_t *plain(const char *s, size_t n) {
    static const char *const T[] = {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", NULL};
    static const char *const F[] = {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", NULL};
    static const char *const NUL[] = {"", "~", "null", "Null", "NULL", NULL};
    if (one_of(s, n, T)) return json_true();
    if (one_of(s, n, F)) return json_false();
    if (is_float(s, n)) return tagged("!!float", s, n);
    if (is_int(s, n)) return tagged("!!int", s, n);
    if (one_of(s, n, NUL)) return json_null();
    if (is_timestamp(s, n)) return tagged("!!timestamp", s, n);
    return json_stringn(s, n);
}

/* Charge a value of n text bytes to the walk; false when it is spent. */
static bool charge(walk *w, size_t n) {
    if (n > w->budget || NODE_COST > w->budget - n) {
        w->budget = 0;
        w->why = WALK_TOO_LARGE;
        return false;
    }
    w->budget -= n + NODE_COST;
    return true;
}

/* The JSON value of document node id (NULL: out of memory, too deep, too
 * large once its aliases are expanded, or not valid UTF-8 as jansson
 * requires; w->why says which). */
static json_t *node_json(yaml_document_t *d, int id, int depth, walk *w) {
    yaml_node_t *nd = yaml_document_get_node(d, id);
    if (!nd) return NULL;
    if (depth > MAX_DEPTH) {
        w->why = WALK_TOO_DEEP;
        return NULL;
    }
    if (!charge(w, nd->type == YAML_SCALAR_NODE ? nd->data.scalar.length : 0)) return NULL;
    if (nd->type == YAML_SCALAR_NODE) {
        const char *s = (const char *)nd->data.scalar.value;
        size_t n = nd->data.scalar.length;
        return nd->data.scalar.style == YAML_PLAIN_SCALAR_STYLE ? plain(s, n) : json_stringn(s, n);
    }
    if (nd->type == YAML_SEQUENCE_NODE) {
        json_t *a = json_array();
        for (yaml_node_item_t *it = nd->data.sequence.items.start; a && it < nd->data.sequence.items.top; it++) {
            json_t *v = node_json(d, *it, depth + 1, w);
            if (!v || json_array_append_new(a, v)) json_decref(a), a = NULL;
        }
        return a;
    }
    json_t *o = json_object();
    for (yaml_node_pair_t *p = nd->data.mapping.pairs.start; o && p < nd->data.mapping.pairs.top; p++) {
        json_t *k = node_json(d, p->key, depth + 1, w);
        if (!k) {
            json_decref(o);
            return NULL;
        }
        /* a key that is not a string (a number, a boolean) cannot be one the
         * reference looks up: keep only string keys; a later duplicate wins */
        if (json_is_string(k)) {
            json_t *v = node_json(d, p->value, depth + 1, w);
            if (!v || json_object_setn_new(o, json_string_value(k), json_string_length(k), v)) json_decref(o), o = NULL;
        }
        json_decref(k);
    }
    return o;
}

/* Python's universal newlines: \r\n and \r read as \n. */
static size_t unix_newlines(char *s, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\r') {
            s[w++] = '\n';
            if (i + 1 < n && s[i + 1] == '\n') i++;
        } else {
            s[w++] = s[i];
        }
    }
    return w;
}

/* The first LGG_CONVERT_MAX_CARD + 8 bytes of the card (the front matter
 * is all the reference takes from it, and a longer front matter is refused
 * below); *more: the file goes on. */
static lgg_status read_card(lgg_convert *c, const char *path, char **text, size_t *len, bool *more, lgg_error *err) {
    const size_t cap = LGG_CONVERT_MAX_CARD + 8;
    uint64_t size = 0;
    lgg__cv_exists(c, "README.md", &size);
    size_t n = size > cap ? cap + 1 : (size_t)size;
    char *b = malloc(cap + 1);
    if (!b) return lgg__cv_fail(err, LGG_ERR_NOMEM, "%s: out of memory", path);
    lgg_status st = lgg__cv_pread(c, "README.md", 0, b, n, err);
    if (st) {
        free(b);
        return st;
    }
    *more = n > cap;
    *text = b, *len = unix_newlines(b, n > cap ? cap : n);
    return LGG_OK;
}

/* libyaml's parser spends time that grows with the square of the nesting
 * (100,000 levels: 36 s), so the events are walked first, stopping at the
 * first level beyond MAX_DEPTH: only that prefix is ever parsed.  A syntax
 * error is left for the loader to report. */
static bool too_deep(const char *body, size_t n) {
    yaml_parser_t p;
    if (!yaml_parser_initialize(&p)) return false;
    yaml_parser_set_input_string(&p, (const unsigned char *)body, n);
    int depth = 0;
    bool deep = false, done = false;
    while (!done && !deep) {
        yaml_event_t e;
        if (!yaml_parser_parse(&p, &e)) break;
        if (e.type == YAML_SEQUENCE_START_EVENT || e.type == YAML_MAPPING_START_EVENT) deep = ++depth > MAX_DEPTH;
        else if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT) depth--;
        done = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&p);
    return deep;
}

/* The front matter of dir/README.md as a JSON object, *out NULL when there
 * is none (no file, no "---" first line, or YAML that is not a mapping: the
 * reference then uses no model card).  Malformed YAML is an error, as it is
 * for the reference; so is a front matter beyond LGG_CONVERT_MAX_CARD bytes
 * or LGG_CONVERT_MAX_CARD_DEPTH levels (not a model card, and costly to
 * parse). */
lgg_status lgg__cv_model_card(lgg_convert *c, json_t **out, lgg_error *err) {
    *out = NULL;
    if (!lgg__cv_exists(c, "README.md", NULL)) return LGG_OK;
    char *path = lgg__cv_path(c->dir, "README.md"), *text = NULL;
    size_t len = 0;
    bool more = false;
    if (!path) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_status st = lgg__cv_note_input(c, path, err);
    if (!st) st = read_card(c, path, &text, &len, &more, err);
    if (st || len < 4 || memcmp(text, "---\n", 4)) {
        free(path), free(text);
        return st;
    }
    const char *body = text + 4, *end = NULL;
    for (const char *p = body; p + 4 <= text + len; p++) /* str.partition: the first "---\n" anywhere */
        if (!memcmp(p, "---\n", 4)) {
            end = p;
            break;
        }
    size_t blen = end ? (size_t)(end - body) : len - 4;
    if (blen > LGG_CONVERT_MAX_CARD || (!end && more))
        st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: model card front matter larger than %llu MiB", path,
                          (unsigned long long)(LGG_CONVERT_MAX_CARD >> 20));
    else if (too_deep(body, blen))
        st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: model card front matter nested deeper than %d levels", path,
                          MAX_DEPTH);
    if (st) {
        free(path), free(text);
        return st;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        free(path), free(text);
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)body, blen);
    if (!yaml_parser_load(&parser, &doc)) {
        st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: model card front matter: %s at line %zu", path,
                          parser.problem ? parser.problem : "bad YAML", (size_t)parser.problem_mark.line + 2);
    } else {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (root && root->type == YAML_MAPPING_NODE) {
            walk w = {MAX_EXPANDED, WALK_OOM_OR_UTF8};
            *out = node_json(&doc, 1, 0, &w);
            if (!*out && w.why == WALK_TOO_LARGE)
                st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: model card front matter: its aliases expand to more than %zu MiB",
                                  path, MAX_EXPANDED >> 20);
            else if (!*out && w.why == WALK_TOO_DEEP)
                st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: model card front matter: its aliases nest deeper than %d levels",
                                  path, MAX_DEPTH);
            else if (!*out)
                st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: model card front matter: not valid UTF-8, or out of memory",
                                  path);
        }
        yaml_document_delete(&doc);
    }
    yaml_parser_delete(&parser);
    free(path), free(text);
    return st;
}

/* ---- what the reference takes from the card (gguf-py's Metadata) ------- */

const char *const LGG__CV_SOURCE_KEYS[] = {"name", "author", "version", "organization", "description", "url", "doi",
                                           "uuid", "repo_url", NULL};

/* The first of keys ('|' separated) whose value is not null: a string, or
 * an error naming the key (the reference cannot write anything else). */
static lgg_status card_str(const json_t *card, const char *keys, char **out, const char *where, lgg_error *err) {
    char which[64];
    const json_t *v = lgg__cv_first_key(card, keys, which, sizeof which);
    if (!v) return LGG_OK;
    if (!json_is_string(v))
        return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: model card key '%s' is not a string", where, which);
    if (!(*out = strdup(json_string_value(v)))) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* license: a string, or a list of strings joined with ','. */
static lgg_status card_license(const json_t *card, char **out, const char *where, lgg_error *err) {
    const json_t *v = json_object_get(card, "license");
    if (!json_is_array(v)) return card_str(card, "license", out, where, err);
    size_t i, len = 1;
    const json_t *e;
    json_array_foreach(v, i, e) {
        if (!json_is_string(e))
            return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: model card key 'license': item %zu is not a string", where, i);
        len += json_string_length(e) + 1;
    }
    char *s = malloc(len), *w = s;
    if (!s) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    *w = 0;
    json_array_foreach(v, i, e) w += sprintf(w, "%s%s", i ? "," : "", json_string_value(e));
    *out = s;
    return LGG_OK;
}

/* tags + pipeline_tag, languages + language: each a string or a list of
 * strings, appended in that order; another type adds nothing. */
static lgg_status card_list(const json_t *card, const char *k1, const char *k2, json_t **out, const char *where,
                            lgg_error *err) {
    const char *keys[2] = {k1, k2};
    for (int k = 0; k < 2; k++) {
        const json_t *v = json_object_get(card, keys[k]);
        if (!v || json_is_null(v)) continue;
        if (!*out && !(*out = json_array())) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        if (json_is_string(v)) {
            json_array_append(*out, (json_t *)v);
            continue;
        }
        size_t i;
        const json_t *e;
        json_array_foreach(v, i, e) {
            if (!json_is_string(e))
                return lgg__cv_fail(err, LGG_ERR_INVALID, "%s: model card key '%s': item %zu is not a string", where,
                                    keys[k], i);
            json_array_append(*out, (json_t *)e);
        }
    }
    return LGG_OK;
}

static int set_str(json_t *o, const char *key, const char *v) {
    return v ? json_object_set_new(o, key, json_string(v)) : 0;
}

/* One base model or dataset named by a string: a Hugging Face id or a URL. */
static json_t *source_entry(const char *id, int64_t total) {
    json_t *o = json_object();
    if (!o) return NULL;
    const char *comp = id;
    bool url = !strncmp(id, "http://", 7) || !strncmp(id, "https://", 8) || !strncmp(id, "ssh://", 6);
    if (url) {
        set_str(o, "repo_url", id);
        comp = NULL;
        /* https?://huggingface.co/ORG/NAME and nothing more */
        const char *rest = !strncmp(id, "https://huggingface.co/", 23) ? id + 23
                           : !strncmp(id, "http://huggingface.co/", 22) ? id + 22
                                                                         : NULL;
        const char *slash = rest ? strchr(rest, '/') : NULL;
        if (slash && slash > rest && slash[1] && !strchr(slash + 1, '/')) comp = rest;
    }
    if (comp) {
        cv_names m;
        lgg__cv_model_id(comp, total, &m);
        char *name = m.name ? lgg__cv_id_to_title(m.name) : NULL, *org = m.org ? lgg__cv_id_to_title(m.org) : NULL;
        set_str(o, "name", name);
        set_str(o, "organization", org);
        set_str(o, "version", m.version);
        if (!url && m.org && m.name) {
            size_t cap = strlen(m.org) + strlen(m.name) + 32;
            char *r = malloc(cap);
            if (r) snprintf(r, cap, "https://huggingface.co/%s/%s", m.org, m.name);
            set_str(o, "repo_url", r);
            free(r);
        }
        free(name), free(org);
        lgg__cv_names_free(&m);
    }
    return o;
}

/* base_model (or base_models, base_model_sources) and datasets (dataset,
 * dataset_sources): present means a count is written, even of 0. */
static lgg_status card_sources(const json_t *card, const char *keys[3], int64_t total, json_t **out, const char *where,
                               lgg_error *err) {
    const json_t *v = NULL;
    bool present = false;
    for (int k = 0; k < 3 && !present; k++) /* dict.get(k0, dict.get(k1, ...)): the first key present */
        if (json_object_get(card, keys[k])) v = json_object_get(card, keys[k]), present = true;
    if (!present) return LGG_OK;
    if (!(*out = json_array())) return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    json_t *one = json_is_string(v) ? json_pack("[O]", v) : NULL;
    const json_t *list = one ? one : json_is_array(v) ? v : NULL;
    size_t i;
    const json_t *e;
    lgg_status st = LGG_OK;
    json_array_foreach(list, i, e) {
        json_t *entry = json_is_string(e) ? source_entry(json_string_value(e), total)
                        : json_is_object(e) ? json_deep_copy(e)
                                            : json_object(); /* the reference logs it and keeps an empty entry */
        if (!entry || json_array_append_new(*out, entry)) {
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
            break;
        }
        for (const char *const *k = LGG__CV_SOURCE_KEYS; *k; k++) { /* the keys the reference writes */
            const json_t *x = json_object_get(entry, *k);
            if (x && !json_is_string(x)) {
                st = lgg__cv_fail(err, LGG_ERR_INVALID, "%s: model card key '%s': item %zu: '%s' is not a string",
                                  where, keys[0], i, *k);
                break;
            }
        }
        if (st) break;
    }
    json_decref(one);
    return st;
}

lgg_status lgg__cv_card_meta(const json_t *card, const char *where, int64_t total, cv_names *n, cv_card *c,
                             lgg_error *err) {
    memset(c, 0, sizeof *c);
    if (!card) return LGG_OK;
    static const char *const BASE[3] = {"base_model", "base_models", "base_model_sources"};
    static const char *const DATA[3] = {"datasets", "dataset", "dataset_sources"};
    lgg_status st;
    if ((st = card_str(card, "name|model_name", &n->name, where, err)) ||
        (st = card_str(card, "author|model_author|model_creator", &c->author, where, err)) ||
        (st = card_str(card, "version|model_version", &n->version, where, err)) ||
        (st = card_str(card, "organization|model_organization", &n->org, where, err)) ||
        (st = card_str(card, "description|model_description", &c->description, where, err)) ||
        (st = card_str(card, "finetune|model_finetune", &n->finetune, where, err)) ||
        (st = card_str(card, "basename|model_basename|model_type", &n->basename, where, err)) ||
        (st = card_str(card, "size_label|model_size_label", &n->size_label, where, err)) ||
        (st = card_str(card, "url|model_url", &c->source_url, where, err)) ||
        (st = card_str(card, "doi|model_doi", &c->source_doi, where, err)) ||
        (st = card_str(card, "uuid|model_uuid", &c->source_uuid, where, err)) ||
        (st = card_str(card, "repo_url|model_repo_url", &c->source_repo_url, where, err)) ||
        (st = card_sources(card, (const char **)BASE, total, &c->base_models, where, err)) ||
        (st = card_sources(card, (const char **)DATA, total, &c->datasets, where, err)) ||
        (st = card_license(card, &c->license, where, err)) ||
        (st = card_str(card, "license_name", &c->license_name, where, err)) ||
        (st = card_str(card, "license_link", &c->license_link, where, err)) ||
        (st = card_list(card, "tags", "pipeline_tag", &c->tags, where, err)) ||
        (st = card_list(card, "languages", "language", &c->languages, where, err)))
        return st;
    return LGG_OK;
}

void lgg__cv_card_free(cv_card *c) {
    free(c->quantized_by), free(c->url), free(c->doi), free(c->uuid), free(c->repo_url);
    free(c->author), free(c->description), free(c->license), free(c->license_name), free(c->license_link);
    free(c->source_url), free(c->source_doi), free(c->source_uuid), free(c->source_repo_url);
    json_decref(c->base_models), json_decref(c->datasets), json_decref(c->tags), json_decref(c->languages);
    memset(c, 0, sizeof *c);
}
