/* chattemplate.c -- the chat template keys.  tokenizer_config.json's
 * chat_template: a string, or a list of named ones (the default as
 * tokenizer.chat_template, the others as tokenizer.chat_template.NAME).
 * With target master, when tokenizer_config.json (present and not empty)
 * has no chat_template, the files transformers now saves beside it, as
 * master's SpecialVocab reads them: chat_template.jinja (with
 * additional_chat_templates/NAME.jinja, a list named "default" and NAME),
 * else chat_template.json's "chat_template". */
#include "cvint.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TEMPLATES = 64, MAX_NAME = 40 };

/* The most bytes a template file may have: as the JSON files other than
 * config.json and tokenizer.json (--max-json-size replaces it). */
static uint64_t template_cap(const lgg_convert *c) { return c->max_json ? c->max_json : LGG_CONVERT_MAX_OTHER_JSON; }

/* lgg__cv_read_text: NAME read as Python reads text: UTF-8 (anything else fails, as master
 * does) with universal newlines ("\r\n" and "\r" become "\n"); a new JSON
 * string in *out. */
lgg_status lgg__cv_read_text(lgg_convert *c, const char *name, json_t **out, lgg_error *err) {
    char *b = NULL, *p = lgg__cv_path(c->dir, name);
    size_t n = 0, w = 0;
    lgg_status st = p ? lgg__cv_load(c, name, template_cap(c), &b, &n, err) : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st && !b)
        st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: %zu bytes, more than the %llu a chat template may have (--max-json-size)", p, n,
                          (unsigned long long)template_cap(c));
    if (!st) st = lgg__cv_note_input(c, p, err);
    for (size_t r = 0; !st && r < n; r++) {
        char ch = b[r]; /* read before the write: w may be r */
        b[w++] = ch == '\r' ? '\n' : ch;
        if (ch == '\r' && r + 1 < n && b[r + 1] == '\n') r++;
    }
    if (!st && !(*out = json_stringn(b, w))) {
        json_t *raw = json_stringn_nocheck(b, w); /* NULL only when memory ran out */
        st = raw ? lgg__cv_fail(err, LGG_ERR_INVALID, "%s: not UTF-8 text", p) : lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
        json_decref(raw);
    }
    free(b);
    free(p);
    return st;
}

/* additional_chat_templates/'s *.jinja names in the directory's order (a
 * local folder only: lgg_convert_io names no subfolders), as master's
 * pathlib glob lists them: dot files too. */
static lgg_status additional_names(lgg_convert *c, char **names, size_t *n, lgg_error *err) {
    *n = 0;
    char *p = c->has_io ? NULL : lgg__cv_path(c->dir, "additional_chat_templates");
    DIR *d = p ? opendir(p) : NULL;
    free(p);
    struct dirent *e;
    lgg_status st = LGG_OK;
    while (d && !st && (e = readdir(d)) != NULL) {
        if (!lgg__cv_ends_with(e->d_name, ".jinja")) continue;
        if (*n == MAX_TEMPLATES || strlen(e->d_name) >= MAX_NAME + 6)
            st = lgg__cv_fail(err, LGG_ERR_LIMIT, "%s/additional_chat_templates: more than %d templates, or a name longer than %d bytes",
                              c->dir, MAX_TEMPLATES, MAX_NAME - 1);
        else if (!(names[(*n)++] = strdup(e->d_name)))
            st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    if (d) closedir(d);
    return st;
}

/* A file name's stem as pathlib has it: without ".jinja", except ".jinja" itself. */
static size_t stem_len(const char *name) { return strcmp(name, ".jinja") ? strlen(name) - 6 : 6; }

static lgg_status add_named(json_t *list, const char *name, size_t len, json_t *text, lgg_error *err) {
    json_t *o = json_object();
    if (!o || json_object_set_new(o, "name", json_stringn_nocheck(name, len)) || json_object_set(o, "template", text) ||
        json_array_append_new(list, o))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    return LGG_OK;
}

/* chat_template.jinja, and its named companions when there are any: *out a
 * string or a list. */
static lgg_status jinja_templates(lgg_convert *c, json_t **out, lgg_error *err) {
    char *names[MAX_TEMPLATES];
    size_t n = 0;
    json_t *dflt = NULL, *list = NULL;
    lgg_status st = lgg__cv_read_text(c, "chat_template.jinja", &dflt, err);
    if (!st) st = additional_names(c, names, &n, err);
    if (!st && n && (!(list = json_array()) || add_named(list, "default", 7, dflt, err)))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; !st && i < n; i++) {
        char rel[64 + MAX_NAME];
        json_t *t = NULL;
        snprintf(rel, sizeof rel, "additional_chat_templates/%s", names[i]);
        st = lgg__cv_read_text(c, rel, &t, err);
        if (!st) st = add_named(list, names[i], stem_len(names[i]), t, err);
        json_decref(t);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    if (st) json_decref(list), json_decref(dflt);
    else if (list) json_decref(dflt), *out = list;
    else *out = dflt;
    return st;
}

/* Master's fallback for a tokenizer_config.json without chat_template. */
static lgg_status template_files(lgg_convert *c, json_t **out, lgg_error *err) {
    *out = NULL;
    if (lgg__cv_exists(c, "chat_template.jinja", NULL)) return jinja_templates(c, out, err);
    json_t *j = NULL;
    lgg_status st = lgg__cv_json(c, "chat_template.json", 0, &j, err);
    if (!st && j && json_object_get(j, "chat_template")) *out = json_incref(json_object_get(j, "chat_template"));
    json_decref(j);
    return st;
}

/* A list of named templates: the default's key, and each other one's under
 * its name with anything but ASCII letters and digits as '_'. */
static lgg_status write_list(lgg_convert *c, const json_t *ct, lgg_error *err) {
    const json_t *dflt = NULL;
    lgg_str names[MAX_TEMPLATES];
    char store[MAX_TEMPLATES][64];
    size_t n = 0, i;
    json_t *ch;
    json_array_foreach(ct, i, ch) {
        json_t *nm = json_object_get(ch, "name"), *tp = json_object_get(ch, "template");
        const char *name = json_is_string(nm) ? json_string_value(nm) : "";
        if (!*name || !json_is_string(tp)) continue;
        if (!strcmp(name, "default")) {
            dflt = tp;
            continue;
        }
        if (n == MAX_TEMPLATES || strlen(name) >= MAX_NAME)
            return lgg__cv_fail(err, LGG_ERR_LIMIT, "%s: too many or too long chat template names", c->dir);
        char key[96];
        for (size_t k = 0; name[k]; k++) {
            char ch2 = name[k];
            store[n][k] = ((ch2 >= 'a' && ch2 <= 'z') || (ch2 >= 'A' && ch2 <= 'Z') || (ch2 >= '0' && ch2 <= '9')) ? ch2 : '_';
            store[n][k + 1] = 0;
        }
        snprintf(key, sizeof key, "tokenizer.chat_template.%s", store[n]);
        if (lgg_writer_set_str(c->w, key, json_string_value(tp), NULL))
            return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set %s", key);
        names[n].ptr = store[n], names[n].len = strlen(store[n]), n++;
    }
    lgg_wvalue arr = {LGG_VT_ARRAY, LGG_VT_STRING, n, names};
    if (n && lgg_writer_set(c->w, "tokenizer.chat_templates", 24, &arr, NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.chat_templates");
    if (dflt && lgg_writer_set_str(c->w, "tokenizer.chat_template", json_string_value(dflt), NULL))
        return lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.chat_template");
    return LGG_OK;
}

lgg_status lgg__cv_chat_template(lgg_convert *c, json_t *tc, lgg_error *err) {
    json_t *ct = tc ? json_object_get(tc, "chat_template") : NULL, *alt = NULL;
    lgg_status st = LGG_OK;
    if (!ct && c->master && json_object_size(tc)) st = template_files(c, &alt, err), ct = alt;
    if (!st && json_is_string(ct) && lgg_writer_set_str(c->w, "tokenizer.chat_template", json_string_value(ct), NULL))
        st = lgg__cv_fail(err, LGG_ERR_NOMEM, "cannot set tokenizer.chat_template");
    if (!st && json_is_array(ct)) st = write_list(c, ct, err);
    json_decref(alt);
    return st;
}
