/* hfname.c -- hf:// names, checked and turned into URLs without a request:
 * the one checker that libgguf-remote (the CLI's hf:// names) and the GGUF
 * Editor (web/, built to WebAssembly without libcurl) both apply, so that a
 * name one refuses the other refuses too, for the same reason.
 *
 * Pure string work: no allocation, no environment (the remote part passes
 * HF_ENDPOINT in), no I/O. */
#include "base/internal.h"

#include <stdio.h>
#include <string.h>

#define HF_ENDPOINT_DEFAULT "https://huggingface.co"

/* One part of an hf:// name (owner, repository, a path or revision
 * segment): why it cannot be sent, or NULL.  These would change which
 * resource the URL names: ".." and "." segments, empty ones, '?' and '#'
 * (query, fragment), backslashes (some servers read them as '/'), control
 * characters, and '.', '/' or a backslash percent-encoded (the name is
 * encoded again on its way to the URL, "%2e" going as "%252e", but a server
 * or proxy that decodes twice would see them). */
static const char *bad_segment(const char *s, size_t n) {
    if (!n) return "an hf:// name may not have empty segments";
    if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) return "an hf:// name may not have '.' or '..' segments";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '?' || c == '#') return "an hf:// name may not contain '?' or '#'";
        if (c == '\\') return "an hf:// name may not contain a backslash";
        if (c < 0x20 || c == 0x7f) return "an hf:// name may not contain control characters";
        if (c == '%' && i + 2 < n) {
            char a = s[i + 1], b = (char)(s[i + 2] | 0x20);
            if ((a == '2' && (b == 'e' || b == 'f')) || (a == '5' && b == 'c'))
                return "an hf:// name may not contain a percent-encoded '.', '/' or backslash (%2e, %2f, %5c)";
        }
    }
    return NULL;
}

/* Each '/'-separated segment of s[0..n) checked as above. */
static const char *bad_path(const char *s, size_t n) {
    for (size_t a = 0;;) {
        size_t b = a;
        while (b < n && s[b] != '/') b++;
        const char *why = bad_segment(s + a, b - a);
        if (why || b == n) return why;
        a = b + 1;
    }
}

/* The parts of hf://OWNER/REPO/PATH[@REVISION] (the revision after the
 * last '@' of the path, "main" when none), or why not. */
typedef struct hf_name {
    const char *owner, *repo, *path, *rev;
    size_t owner_n, repo_n, path_n, rev_n;
} hf_name;

static const char *hf_parse(const char *name, hf_name *h) {
    if (!name || strncmp(name, "hf://", 5)) return "not hf://OWNER/REPO/PATH[@REVISION]";
    const char *p = name + 5, *s1 = strchr(p, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
    if (!s1 || !s2) return "not hf://OWNER/REPO/PATH[@REVISION]";
    const char *at = strrchr(s2 + 1, '@');
    *h = (hf_name){p, s1 + 1, s2 + 1, at ? at + 1 : "main", (size_t)(s1 - p), (size_t)(s2 - s1 - 1),
                   at ? (size_t)(at - s2 - 1) : strlen(s2 + 1), at ? strlen(at + 1) : 4};
    const char *why;
    if ((why = bad_segment(h->owner, h->owner_n))) return why;
    if ((why = bad_segment(h->repo, h->repo_n))) return why;
    if ((why = bad_path(h->path, h->path_n))) return why;
    return bad_path(h->rev, h->rev_n);
}

enum { RAW, KEEP_SLASH, ONE_SEGMENT };
/* s[0..n) appended at buf[at], percent-encoded (but RAW) as Python's
 * urllib.parse.quote does, which is what huggingface_hub sends: letters,
 * digits and "-._~" kept, '/' kept unless ONE_SEGMENT, every other byte
 * %XX.  Returns the new length; writes only what fits. */
static size_t quote(char *buf, size_t cap, size_t at, const char *s, size_t n, int how) {
    static const char H[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool keep = how == RAW || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '.' || c == '_' || c == '~' || (how == KEEP_SLASH && c == '/');
        char e[3] = {(char)c, H[c >> 4], H[c & 15]};
        if (!keep) e[0] = '%';
        for (int k = 0; k < (keep ? 1 : 3); k++, at++)
            if (buf && at + 1 < cap) buf[at] = e[k];
    }
    return at;
}

static void say(char *why, size_t cap, const char *w) {
    if (w && why && cap) snprintf(why, cap, "%s", w);
}

bool lgg_hf_name_check(const char *name, char *why, size_t cap) {
    hf_name h;
    const char *w = hf_parse(name, &h);
    say(why, cap, w);
    return !w;
}

/* The endpoint without its trailing '/': its length. */
static size_t endpoint_of(const char **endpoint) {
    if (!*endpoint || !**endpoint) *endpoint = HF_ENDPOINT_DEFAULT;
    size_t el = strlen(*endpoint);
    while (el && (*endpoint)[el - 1] == '/') el--;
    return el;
}

static size_t done(char *buf, size_t cap, size_t at) {
    if (buf && cap) buf[at < cap ? at : cap - 1] = 0;
    return at;
}

size_t lgg_hf_resolve(const char *name, const char *endpoint, char *buf, size_t cap) {
    hf_name h;
    if (hf_parse(name, &h)) {
        done(buf, cap, 0);
        return 0;
    }
    size_t el = endpoint_of(&endpoint);
    /* ENDPOINT/OWNER/REPO/resolve/REVISION/PATH, as huggingface_hub's
     * hf_hub_url: the revision one segment (refs/pr/1 -> refs%2Fpr%2F1) */
    size_t at = quote(buf, cap, 0, endpoint, el, RAW);
    at = quote(buf, cap, at, "/", 1, RAW);
    at = quote(buf, cap, at, h.owner, h.owner_n, ONE_SEGMENT);
    at = quote(buf, cap, at, "/", 1, RAW);
    at = quote(buf, cap, at, h.repo, h.repo_n, ONE_SEGMENT);
    at = quote(buf, cap, at, "/resolve/", 9, RAW);
    at = quote(buf, cap, at, h.rev, h.rev_n, ONE_SEGMENT);
    at = quote(buf, cap, at, "/", 1, RAW);
    at = quote(buf, cap, at, h.path, h.path_n, KEEP_SLASH);
    return done(buf, cap, at);
}

size_t lgg_hf_tree_url(const char *repo, const char *revision, const char *endpoint, char *buf, size_t cap, char *why,
                       size_t why_cap) {
    const char *slash = repo ? strchr(repo, '/') : NULL;
    const char *w = !slash ? "not OWNER/REPO" : bad_segment(repo, (size_t)(slash - repo));
    if (!w) w = bad_segment(slash + 1, strlen(slash + 1));
    if (!w && revision) w = bad_path(revision, strlen(revision));
    if (w) {
        say(why, why_cap, w);
        done(buf, cap, 0);
        return 0;
    }
    if (!revision) revision = "main";
    size_t el = endpoint_of(&endpoint);
    /* the same encoding as a file's URL: owner and repository each a
     * segment, the revision one segment (refs/pr/1 -> refs%2Fpr%2F1) */
    size_t at = quote(buf, cap, 0, endpoint, el, RAW);
    at = quote(buf, cap, at, "/api/models/", 12, RAW);
    at = quote(buf, cap, at, repo, (size_t)(slash - repo), ONE_SEGMENT);
    at = quote(buf, cap, at, "/", 1, RAW);
    at = quote(buf, cap, at, slash + 1, strlen(slash + 1), ONE_SEGMENT);
    at = quote(buf, cap, at, "/tree/", 6, RAW);
    at = quote(buf, cap, at, revision, strlen(revision), ONE_SEGMENT);
    at = quote(buf, cap, at, "?recursive=true", 15, RAW);
    return done(buf, cap, at);
}

static int is_gguf(const char *path) {
    size_t l = strlen(path);
    return l > 5 && !strcmp(path + l - 5, ".gguf");
}

/* Where `hay` contains `needle`, ignoring ASCII case, or NULL. */
static const char *find_nocase(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < n && hay[k]) {
            unsigned char a = (unsigned char)hay[k], b = (unsigned char)needle[k];
            if (a >= 'A' && a <= 'Z') a = (unsigned char)(a - 'A' + 'a');
            if (b >= 'A' && b <= 'Z') b = (unsigned char)(b - 'A' + 'a');
            if (a != b) break;
            k++;
        }
        if (k == n) return hay;
    }
    return NULL;
}

lgg_status lgg_hf_select(const char *const *paths, size_t n, const char *tag, const char *has, size_t *index,
                         lgg_error *err) {
    if ((!paths && n) || !index) return lgg_error_set(err, LGG_ERR_ARG, LGG_NO_OFFSET, "lgg_hf_select: NULL argument");
    const char *want = tag && *tag ? tag : "Q4_K_M";
    const char *p0 = NULL; /* the first match: the others must be its shard set */
    size_t first = SIZE_MAX, n_match = 0, pre0 = 0;
    uint32_t cnt0 = 0;
    int one_set = 0;
    char listed[2048];
    size_t ln = 0;
    listed[0] = 0;
    for (size_t i = 0; i < n; i++) {
        const char *p = paths[i];
        if (!p || !is_gguf(p) || !find_nocase(p, want)) continue;
        size_t prefix = 0;
        uint32_t no = 0, count = 0;
        int split = lgg_split_name_parse(p, strlen(p), &no, &count, &prefix);
        if (!n_match) p0 = p, pre0 = prefix, cnt0 = count, one_set = split;
        else one_set &= split && prefix == pre0 && count == cnt0 && !strncmp(p, p0, prefix);
        if (!split || no == 0) first = i;
        n_match++;
        if (ln < sizeof listed) ln += (size_t)snprintf(listed + ln, sizeof listed - ln, "%s%s", ln ? ", " : "", p);
    }
    char more[1100] = "";
    if (has) snprintf(more, sizeof more, " (the repository has %.1000s)", has);
    if (!n_match) {
        if (!tag || !*tag)
            return lgg_error_set(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET,
                                 "no Q4_K_M file: name a quantization with :QUANT%s", more);
        return lgg_error_set(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "no GGUF file matches '%s'%s", want, more);
    }
    if (n_match > 1 && !one_set)
        return lgg_error_set(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "'%s' matches %zu files that are not one shard set: %s",
                             want, n_match, listed);
    if (one_set && (n_match != cnt0 || first == SIZE_MAX))
        return lgg_error_set(err, LGG_ERR_NOT_FOUND, LGG_NO_OFFSET, "'%s': the shard set has %zu of its %u files: %s",
                             want, n_match, cnt0, listed);
    *index = first;
    return LGG_OK;
}
