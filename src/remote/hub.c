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

/* The listing's bytes so far (*ud, all pages), counted as they arrive:
 * false past the cap stops the transfer, so a body without end is never
 * held whole before the cap is checked. */
static bool under_cap(void *ud, const void *p, size_t n) {
    uint64_t *total = ud;
    (void)p;
    *total += n;
    return *total <= MAX_LISTING;
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
        q.from = 0, q.want = UINT64_MAX, q.fp = fp, q.on_bytes = under_cap, q.ud = total;
        st = lgg__remote_fetch(rm, &q, err);
        if (*total > MAX_LISTING) st = fail(err, LGG_ERR_LIMIT, "%s: a listing of more than 64 MiB", url);
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
    /* checked before any request, by the core's one checker of hf:// names:
     * no '..', '?', '#', ... in any part */
    char why[160] = "";
    size_t need = lgg_hf_tree_url(repo, revision, ep, NULL, 0, why, sizeof why);
    if (!need) return fail(err, LGG_ERR_ARG, "hf://%s: %s", repo, why);
    char *url = malloc(need + 1);
    if (!url) return fail(err, LGG_ERR_NOMEM, "out of memory");
    lgg_hf_tree_url(repo, revision, ep, url, need + 1, NULL, 0);
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

/* The selection is the core's (lgg_hf_select), which the GGUF Editor runs
 * too; the repository's quantizations go in its message. */
lgg_status lgg_hub_select(const lgg_hub_repo *r, const char *tag, size_t *index, lgg_error *err) {
    if (!r || !index) return fail(err, LGG_ERR_ARG, "lgg_hub_select: NULL argument");
    const char **paths = malloc((r->n ? r->n : 1) * sizeof *paths);
    if (!paths) return fail(err, LGG_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < r->n; i++) paths[i] = r->files[i].path;
    lgg_status st = lgg_hf_select(paths, r->n, tag, NULL, index, err);
    if (st == LGG_ERR_NOT_FOUND) { /* again, with what the repository has (not worked out unless needed) */
        char quants[1024];
        quant_list(r, quants, sizeof quants);
        st = lgg_hf_select(paths, r->n, tag, quants, index, err);
    }
    free(paths);
    return st;
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
