/* hub.c -- a Hugging Face repository as a whole: its file listing from the
 * hub's API, and `hf://OWNER/REPO:QUANT`, the GGUF file (or shard set) of
 * a repository whose name carries a quantization, picked as llama.cpp's
 * -hf picks it.
 *
 * The listing is GET ENDPOINT/api/models/OWNER/REPO/tree/REV?recursive=true
 * through an lgg_remote handle, so the token, redirect and retry rules are
 * those of every other read.  Its JSON is untrusted: entries without a
 * string path or an integer size are refused, not guessed at. */
#include "remote/http.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define fail(err, code, ...) lgg_error_set((err), (code), LGG_NO_OFFSET, __VA_ARGS__)

enum { MAX_LISTING = 64 << 20 }; /* bytes of JSON accepted for one listing (all its pages) */
enum { MAX_PAGES = 10000 };       /* the hub's pages hold 1000 entries or more */

struct lgg_hub_repo {
    lgg_hub_file *files;
    size_t n;
};

void lgg_hub_free(lgg_hub_repo *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) free((char *)r->files[i].path), free((char *)r->files[i].sha256);
    free(r->files);
    free(r);
}

size_t lgg_hub_file_count(const lgg_hub_repo *r) { return r ? r->n : 0; }
const lgg_hub_file *lgg_hub_file_at(const lgg_hub_repo *r, size_t i) { return r && i < r->n ? &r->files[i] : NULL; }

/* A path the listing may name: relative, no control characters (it is
 * printed), no "." or ".." segment, no '?' or '#' (it becomes a URL). */
static int sane_path(const char *p) {
    if (*p == '/') return 0;
    for (const char *s = p; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '?' || *s == '#' || *s == '\\') return 0;
    for (const char *seg = p; seg; seg = strchr(seg, '/') ? strchr(seg, '/') + 1 : NULL) {
        size_t l = strcspn(seg, "/");
        if (!l || (l == 1 && seg[0] == '.') || (l == 2 && seg[0] == '.' && seg[1] == '.')) return 0;
    }
    return 1;
}

/* The tree listing's entries (type "file") into r. */
static lgg_status parse_listing(const char *url, const char *body, size_t len, lgg_hub_repo *r, lgg_error *err) {
    json_error_t je;
    json_t *a = json_loadb(body, len, 0, &je);
    if (!json_is_array(a)) {
        json_decref(a);
        return a ? fail(err, LGG_ERR_INVALID, "%s: the listing is not a JSON array", url)
                 : fail(err, LGG_ERR_INVALID, "%s: the listing is not a JSON array (%s)", url, je.text);
    }
    lgg_hub_file *grown = realloc(r->files, (r->n + json_array_size(a) + 1) * sizeof *r->files);
    if (!grown) return json_decref(a), fail(err, LGG_ERR_NOMEM, "out of memory");
    r->files = grown;
    size_t i;
    json_t *e;
    json_array_foreach(a, i, e) {
        const char *type = json_string_value(json_object_get(e, "type"));
        if (type && strcmp(type, "file")) continue; /* directories */
        const char *path = json_string_value(json_object_get(e, "path"));
        json_t *size = json_object_get(e, "size"), *lfs = json_object_get(e, "lfs");
        const char *oid = json_string_value(json_object_get(lfs, "oid"));
        if (!path || !*path || !json_is_integer(size) || json_integer_value(size) < 0) {
            json_decref(a);
            return fail(err, LGG_ERR_INVALID, "%s: entry %zu has no path or size", url, i);
        }
        if (!sane_path(path)) {
            json_decref(a);
            return fail(err, LGG_ERR_INVALID, "%s: entry %zu: a path that cannot be a file of the repository", url, i);
        }
        lgg_hub_file *f = &r->files[r->n++];
        memset(f, 0, sizeof *f);
        f->size = (uint64_t)json_integer_value(size);
        f->path = strdup(path);
        f->sha256 = strdup(oid && strlen(oid) == 64 && strspn(oid, "0123456789abcdef") == 64 ? oid : "");
        if (!f->path || !f->sha256) return json_decref(a), fail(err, LGG_ERR_NOMEM, "out of memory");
    }
    json_decref(a);
    return LGG_OK;
}

/* One page of a listing appended to *r (a new repository when *r is NULL):
 * parse_listing for fuzz/fuzz_hub_listing.c, which has no server. */
lgg_status lgg__hub_parse_page(const char *url, const char *body, size_t len, lgg_hub_repo **r, lgg_error *err) {
    if (!*r && !(*r = calloc(1, sizeof **r))) return fail(err, LGG_ERR_NOMEM, "out of memory");
    return parse_listing(url, body, len, *r, err);
}

/* Whether url is on the endpoint's server (scheme, host and port: the
 * endpoint's own text followed by '/'). */
static int same_origin(const char *url, const char *ep, size_t el) {
    const char *host = strstr(ep, "://");
    size_t ol = host ? (size_t)(strcspn(host + 3, "/") + (size_t)(host + 3 - ep)) : el;
    if (ol > el) ol = el;
    return !strncasecmp(url, ep, ol) && url[ol] == '/';
}

/* One page of the listing at url into r (total: the bytes of JSON so far,
 * bounded); *next gets the next page's URL (Link: rel="next"), or NULL. */
static lgg_status list_page(const char *url, const lgg_remote_options *o, lgg_hub_repo *r, uint64_t *total,
                            char **next, lgg_error *err) {
    lgg_remote *rm = NULL;
    char *body = NULL;
    size_t len = 0;
    FILE *fp = NULL;
    lgg__http_req q;
    memset(&q, 0, sizeof q);
    lgg_status st = lgg__remote_new(url, o, &rm, err);
    if (!st && !(fp = open_memstream(&body, &len))) st = fail(err, LGG_ERR_NOMEM, "out of memory");
    if (!st) {
        q.from = 0, q.want = UINT64_MAX, q.fp = fp;
        st = lgg__remote_fetch(rm, &q, err);
        if (!st && (*total += q.got) > MAX_LISTING) st = fail(err, LGG_ERR_LIMIT, "%s: a listing of more than 64 MiB", url);
        if (!st && q.resp.next_too_long) st = fail(err, LGG_ERR_LIMIT, "%s: the next page's URL is too long", url);
    }
    if (fp) fclose(fp);
    if (!st) st = parse_listing(url, body ? body : "", len, r, err);
    if (!st && q.resp.next[0] && !(*next = strdup(q.resp.next))) st = fail(err, LGG_ERR_NOMEM, "out of memory");
    free(body);
    lgg_remote_free(rm);
    return st;
}

lgg_status lgg_hub_list(const char *repo, const char *revision, const lgg_remote_options *o, lgg_hub_repo **out,
                        lgg_error *err) {
    if (!repo || !out) return fail(err, LGG_ERR_ARG, "lgg_hub_list: NULL argument");
    *out = NULL;
    const char *ep = o && o->endpoint && *o->endpoint ? o->endpoint : getenv("HF_ENDPOINT");
    if (!ep || !*ep) ep = "https://huggingface.co";
    size_t el = strlen(ep);
    while (el && ep[el - 1] == '/') el--;
    /* checked before any request: no '..', '?', '#', ... in any part */
    const char *why = NULL;
    char *url = lgg__hub_tree_url(ep, el, repo, revision, &why);
    if (!url) return why ? fail(err, LGG_ERR_ARG, "hf://%s: %s", repo, why) : fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_hub_repo *r = calloc(1, sizeof *r);
    lgg_status st = r ? LGG_OK : fail(err, LGG_ERR_NOMEM, "out of memory");
    uint64_t total = 0;
    for (unsigned page = 0; !st && url; page++) {
        char *next = NULL;
        if (page == MAX_PAGES) st = fail(err, LGG_ERR_LIMIT, "%s: a listing of more than %d pages", url, MAX_PAGES);
        else st = list_page(url, o, r, &total, &next, err);
        if (!st && next && !same_origin(next, ep, el)) /* the token goes with the next page's request */
            st = fail(err, LGG_ERR_INVALID, "%s: the listing's next page is on another server", url);
        free(url);
        url = next;
    }
    free(url);
    if (st) {
        lgg_hub_free(r);
        return st;
    }
    *out = r;
    return LGG_OK;
}

static int is_gguf(const char *path) {
    size_t l = strlen(path);
    return l > 5 && !strcmp(path + l - 5, ".gguf");
}

/* Whether `hay` contains `needle`, ignoring case. */
static const char *find_nocase(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n)) return hay;
    return NULL;
}

size_t lgg_hub_quant_name(const char *path, char *buf, size_t cap) {
    /* the longest preset name (or F32) standing alone in the file name:
     * Q4_K_M over Q4_K, IQ4_XS over IQ4 */
    const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *best = NULL;
    const lgg_quant_preset *pr;
    for (size_t i = 0; base && (pr = lgg_quant_preset_at(i)) != NULL; i++) {
        for (const char *p = find_nocase(base, pr->name); p; p = find_nocase(p + 1, pr->name)) {
            size_t l = strlen(pr->name);
            int alone = (p == base || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[l]) && p[l] != '_';
            if (alone && (!best || l > strlen(best))) best = pr->name;
        }
    }
    if (!best && base && find_nocase(base, "f32")) best = "F32";
    int n = snprintf(buf, buf ? cap : 0, "%s", best ? best : "");
    return n < 0 ? 0 : (size_t)n;
}

/* The quantizations the repository's GGUF files carry, ", "-separated,
 * each once, into buf. */
static void quant_list(const lgg_hub_repo *r, char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; i < r->n; i++) {
        char q[64];
        if (!is_gguf(r->files[i].path) || !lgg_hub_quant_name(r->files[i].path, q, sizeof q)) continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            char q2[64];
            seen = is_gguf(r->files[j].path) && lgg_hub_quant_name(r->files[j].path, q2, sizeof q2) && !strcmp(q, q2);
        }
        if (!seen && n < cap) n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", q);
    }
    if (!n) snprintf(buf, cap, "none");
}

lgg_status lgg_hub_select(const lgg_hub_repo *r, const char *tag, size_t *index, lgg_error *err) {
    if (!r || !index) return fail(err, LGG_ERR_ARG, "lgg_hub_select: NULL argument");
    const char *want = tag && *tag ? tag : "Q4_K_M";
    const char *p0 = NULL; /* the first match: the others must be its shard set */
    size_t first = SIZE_MAX, n_match = 0, pre0 = 0;
    uint32_t cnt0 = 0;
    int one_set = 0;
    char listed[2048];
    size_t ln = 0;
    listed[0] = 0;
    for (size_t i = 0; i < r->n; i++) {
        const char *p = r->files[i].path;
        if (!is_gguf(p) || !find_nocase(p, want)) continue;
        size_t prefix = 0;
        uint32_t no = 0, count = 0;
        int split = lgg_split_name_parse(p, strlen(p), &no, &count, &prefix);
        if (!n_match) p0 = p, pre0 = prefix, cnt0 = count, one_set = split;
        else one_set &= split && prefix == pre0 && count == cnt0 && !strncmp(p, p0, prefix);
        if (!split || no == 0) first = i;
        n_match++;
        if (ln < sizeof listed) ln += (size_t)snprintf(listed + ln, sizeof listed - ln, "%s%s", ln ? ", " : "", p);
    }
    char quants[1024];
    if (!n_match) {
        quant_list(r, quants, sizeof quants);
        if (!tag || !*tag)
            return fail(err, LGG_ERR_NOT_FOUND, "no Q4_K_M file: name a quantization with :QUANT (the repository has %s)",
                        quants);
        return fail(err, LGG_ERR_NOT_FOUND, "no GGUF file matches '%s' (the repository has %s)", want, quants);
    }
    if (n_match > 1 && !one_set)
        return fail(err, LGG_ERR_INVALID, "'%s' matches %zu files that are not one shard set: %s", want, n_match, listed);
    if (one_set && (n_match != cnt0 || first == SIZE_MAX))
        return fail(err, LGG_ERR_NOT_FOUND, "'%s': the shard set has %zu of its %u files: %s", want, n_match, cnt0,
                    listed);
    *index = first;
    return LGG_OK;
}

bool lgg_hub_is_repo_name(const char *name) {
    if (!name || strncmp(name, "hf://", 5)) return false;
    const char *p = name + 5, *s1 = strchr(p, '/');
    return s1 && s1 > p && s1[1] && !strchr(s1 + 1, '/');
}

lgg_status lgg_hub_pick(const char *name, const lgg_remote_options *o, char *buf, size_t cap, lgg_error *err) {
    if (!lgg_hub_is_repo_name(name) || !buf) return fail(err, LGG_ERR_ARG, "%s: not hf://OWNER/REPO[:QUANT][@REVISION]", name ? name : "");
    char repo[1024], tag[128] = "", rev[256] = "";
    const char *p = name + 5, *at = strrchr(p, '@'), *end = at ? at : p + strlen(p);
    const char *colon = memchr(p, ':', (size_t)(end - p));
    size_t rl = (size_t)((colon ? colon : end) - p);
    if (rl >= sizeof repo || (colon && (size_t)(end - colon - 1) >= sizeof tag) || (at && strlen(at + 1) >= sizeof rev) ||
        (at && !at[1]) || (colon && colon + 1 == end))
        return fail(err, LGG_ERR_ARG, "%s: not hf://OWNER/REPO[:QUANT][@REVISION]", name);
    memcpy(repo, p, rl), repo[rl] = 0;
    if (colon) memcpy(tag, colon + 1, (size_t)(end - colon - 1)), tag[end - colon - 1] = 0;
    if (at) snprintf(rev, sizeof rev, "%s", at + 1);
    lgg_hub_repo *r = NULL;
    lgg_status st = lgg_hub_list(repo, at ? rev : NULL, o, &r, err);
    size_t i = 0;
    if (!st && (st = lgg_hub_select(r, tag, &i, err)) != LGG_OK) {
        char m[sizeof err->message];
        snprintf(m, sizeof m, "%s", err ? err->message : "");
        fail(err, st, "hf://%s: %s", repo, m);
    }
    /* a path with '@' keeps an explicit revision after it (the last '@' is the revision's) */
    if (!at && !st && strchr(r->files[i].path, '@')) snprintf(rev, sizeof rev, "main"), at = "@";
    if (!st && (size_t)snprintf(buf, cap, "hf://%s/%s%s%s", repo, r->files[i].path, at ? "@" : "", rev) >= cap)
        st = fail(err, LGG_ERR_RANGE, "%s: the file's name is too long", name);
    lgg_hub_free(r);
    return st;
}
