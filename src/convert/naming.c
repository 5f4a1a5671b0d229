/* naming.c -- general.name/basename/finetune/version/size_label from a model
 * id ("org/Name-7B-Instruct"), following the reference converter's
 * heuristics: each '-'-separated part is classed as version, quantization
 * type, size label or finetune word; leading plain words form the base name,
 * later unclassed words the finetune.  Character classes are ASCII (bytes
 * from 0x80 count as letters), where Python's are Unicode. */
#include "cv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The longest model id split into name parts (bytes after the '/'); the
 * dedup of size labels is quadratic in the parts, at most this many. */
enum { LGG_CV_ID_MAX = 1024 };

enum { T_VERSION = 1, T_TYPE = 2, T_SIZE = 4, T_FINETUNE = 8, T_BASE = 16 };

static int ieq(const char *a, const char *b) { return strcasecmp(a, b) == 0; }
static int dig(char c) { return c >= '0' && c <= '9'; }
static int alpha(char c) { return isalpha((unsigned char)c) || (unsigned char)c >= 0x80; }
static int word(char c) { return alpha(c) || dig(c) || c == '_'; }

static const char *digits(const char *p) {
    while (dig(*p)) p++;
    return p;
}

/* (v|iter)?\d+([.]\d+)* over the n bytes at s (a word inside a longer
 * string: no copy, so no stack or heap use that grows with the input) */
static int is_version_n(const char *s, size_t n) {
    const char *e = s + n;
    if (n >= 4 && !strncasecmp(s, "iter", 4)) s += 4;
    else if (s < e && (*s == 'v' || *s == 'V')) s++;
    if (s >= e || !dig(*s)) return 0;
    while (s < e && dig(*s)) s++;
    while (s + 1 < e && *s == '.' && dig(s[1]))
        for (s++; s < e && dig(*s);) s++;
    return s == e;
}
static int is_version(const char *s) { return is_version_n(s, strlen(s)); }

/* i?q\d(_\w)*|b?fp?(16|32) */
static int is_type(const char *s) {
    const char *p = s;
    if (*p == 'i' || *p == 'I') p++;
    if ((*p == 'q' || *p == 'Q') && dig(p[1])) {
        p += 2;
        while (*p == '_' && word(p[1])) p += 2;
        if (*p == 0) return 1;
    }
    p = s;
    if (*p == 'b' || *p == 'B') p++;
    if (*p != 'f' && *p != 'F') return 0;
    p++;
    if (*p == 'p' || *p == 'P') p++;
    return !strcmp(p, "16") || !strcmp(p, "32");
}

static int size_rest(const char *p) {
    if (!dig(*p)) return 0;
    p = digits(p);
    if ((*p == '.' || *p == '_') && dig(p[1])) p = digits(p + 1);
    if (!*p || !strchr("kmbtKMBT", *p)) return 0;
    p++;
    if (dig(*p)) p++;
    return *p == 0;
}

/* (([A]|\d+[x])?\d+([._]\d+)?[KMBT][\d]?|small|mini|medium|large|x?xl) */
static int is_size(const char *s) {
    static const char *const words[] = {"small", "mini", "medium", "large", "xl", "xxl"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (ieq(s, words[i])) return 1;
    if ((*s == 'a' || *s == 'A') && size_rest(s + 1)) return 1;
    const char *d = digits(s);
    if (d > s && (*d == 'x' || *d == 'X') && size_rest(d + 1)) return 1;
    return size_rest(s);
}

/* Normalise a size part in place ("7b1" -> "7.1B") and decide whether it
 * is a size label or (far from the real count: a context length) a finetune. */
static unsigned size_part(char *part, int64_t total) {
    size_t n = strlen(part);
    for (char *p = part; *p; p++)
        if (*p == '_') *p = '.';
    if (dig(part[n - 1]) && n >= 2) { /* bloom's "7b1"; each part has a spare byte */
        char a = part[n - 2], b = part[n - 1];
        part[n - 2] = '.', part[n - 1] = b, part[n] = a, part[n + 1] = 0;
        n++;
    }
    if (n > 1 && dig(part[n - 2]) && strchr("kmbt", part[n - 1])) part[n - 1] = (char)toupper((unsigned char)part[n - 1]);
    unsigned t = 0;
    if (total != 0) {
        const char *units = " KMBT", *u = strchr(units, part[n - 1]);
        char *end;
        char num[64];
        if (n - 1 < sizeof num) {
            memcpy(num, part, n - 1);
            num[n - 1] = 0;
            int ok = n > 1 && strspn(num, "0123456789.") == n - 1;
            double v = ok ? strtod(num, &end) : 0;
            if (ok && *end == 0) {
                double scale = 1.0;
                if (u && part[n - 1] != ' ')
                    for (long k = u - units; k > 0; k--) scale *= 1000.0;
                else
                    scale = 0.001;
                double label = v * scale;
                double tot = (double)total;
                if ((total < 0 && label < (double)((-total) / 8)) ||
                    (total > 0 && (label - tot < 0 ? tot - label : label - tot) > (double)(7 * total / 8))) {
                    t |= T_FINETUNE;
                    part[n - 1] = (char)tolower((unsigned char)part[n - 1]);
                }
            }
        }
    }
    return t ? t : T_SIZE;
}

/* The parts of the wanted class joined by '-' (linear: appended at a write
 * pointer; the dedup scan is bounded by LGG_CV_ID_MAX_PARTS parts). */
static char *join(char **parts, const unsigned *types, size_t n, unsigned want, unsigned exclude, int dedup) {
    size_t len = 0;
    for (size_t i = 0; i < n; i++) len += strlen(parts[i]) + 1;
    char *out = calloc(1, len + 1), *w = out;
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (!(types[i] & want) || (types[i] & exclude)) continue;
        int seen = 0;
        for (size_t j = 0; dedup && j < i && !seen; j++)
            if ((types[j] & want) && !strcmp(parts[j], parts[i])) seen = 1;
        if (seen) continue;
        if (w > out) *w++ = '-';
        size_t l = strlen(parts[i]);
        memcpy(w, parts[i], l);
        w += l;
    }
    *w = 0;
    if (!*out) {
        free(out);
        return NULL;
    }
    return out;
}

static void classify(char **parts, unsigned *types, size_t n, int64_t total) {
    for (size_t i = 0; i < n; i++) {
        char *p = parts[i];
        if (is_version(p)) types[i] = T_VERSION;
        else if (is_type(p)) {
            types[i] = T_TYPE;
            for (char *q = p; *q; q++) *q = (char)toupper((unsigned char)*q);
        } else if (i > 0 && is_size(p)) types[i] = size_part(p, total);
        else if (i > 0 && (ieq(p, "chat") || ieq(p, "instruct") || ieq(p, "vision") || ieq(p, "lora")))
            types[i] = (total < 0 && ieq(p, "lora")) ? T_TYPE : T_FINETUNE;
    }
    int numeric_size = 0;
    for (size_t i = 0; i < n; i++)
        if ((types[i] & T_SIZE) && strpbrk(parts[i], "0123456789")) numeric_size = 1;
    for (size_t i = 0; numeric_size && i < n; i++) {
        int all_alpha = 1;
        for (char *q = parts[i]; *q; q++) all_alpha &= alpha(*q);
        if ((types[i] & T_SIZE) && all_alpha) types[i] &= ~(unsigned)T_SIZE;
    }
    int at_start = 1;
    for (size_t i = 0; i < n; i++) {
        if (at_start && ((types[i] == 0 && alpha(parts[i][0])) || (types[i] & T_VERSION))) {
            types[i] |= T_BASE;
        } else {
            at_start = 0;
            if (types[i] == 0) types[i] = T_FINETUNE;
        }
    }
    for (size_t i = n; i-- > 0;) {
        if ((types[i] & T_BASE) && types[i] != T_BASE) types[i] &= ~(unsigned)T_BASE;
        else break;
    }
}

void lgg__cv_model_id(const char *id, int64_t total, cv_names *o) {
    memset(o, 0, sizeof *o);
    if (!id) return;
    if (strchr(id, ' ')) {
        o->name = strdup(id);
        return;
    }
    const char *slash = strchr(id, '/'), *full = slash ? slash + 1 : id;
    if (slash && slash > id && id[0] != '.') o->org = strndup(id, (size_t)(slash - id));
    o->name = strdup(full);
    size_t len = strlen(full), n = 0;
    /* Hugging Face's repository names are at most 96 bytes: an id far longer
     * is no model id, and is kept whole as the name, not split into parts */
    if (len > LGG_CV_ID_MAX) return;
    char *buf = malloc(2 * len + 2); /* each part gets a spare byte for size_part */
    char **parts = calloc(len + 1, sizeof *parts);
    unsigned *types = calloc(len + 1, sizeof *types);
    if (!buf || !parts || !types) goto done;
    char *w = buf;
    for (const char *p = full; *p;) {
        size_t l = strcspn(p, "-");
        if (l) {
            memcpy(w, p, l);
            w[l] = 0;
            parts[n++] = w;
            w += l + 2;
        }
        p += l + (p[l] == '-');
    }
    classify(parts, types, n, total);
    o->basename = join(parts, types, n, T_BASE, 0, 0);
    o->size_label = join(parts, types, n, T_SIZE, 0, 1);
    o->finetune = join(parts, types, n, T_FINETUNE, 0, 0);
    o->version = join(parts, types, n, T_VERSION, T_BASE, 0);
    if (!o->size_label && !o->finetune && !o->version) {
        free(o->basename);
        o->basename = NULL;
    }
done:
    free(buf);
    free(parts);
    free(types);
}

/* Capitalise lower-case words that are not versions or numbers. */
char *lgg__cv_id_to_title(const char *s) {
    size_t n = strlen(s);
    char *out = malloc(n + 1), *o = out;
    if (!out) return NULL;
    const char *p = s;
    while (*p) {
        while (*p == ' ' || *p == '-' || *p == '\t' || *p == '\n') p++;
        if (!*p) break;
        const char *e = p;
        while (*e && *e != ' ' && *e != '-' && *e != '\t' && *e != '\n') e++;
        int lower = 0, upper = 0;
        for (const char *q = p; q < e; q++) lower |= islower((unsigned char)*q), upper |= isupper((unsigned char)*q);
        int keep = dig(*p) || ((*p == 'v') && dig(p[1]) && is_version_n(p, (size_t)(e - p)));
        if (o > out) *o++ = ' ';
        int prev_letter = 0;
        for (const char *q = p; q < e; q++) {
            char c = *q;
            if (lower && !upper && !keep) c = prev_letter ? (char)tolower((unsigned char)c) : (char)toupper((unsigned char)c);
            prev_letter = isalpha((unsigned char)*q) != 0;
            *o++ = c;
        }
        p = e;
    }
    *o = 0;
    return out;
}

void lgg__cv_names_free(cv_names *n) {
    free(n->name);
    free(n->org);
    free(n->basename);
    free(n->finetune);
    free(n->version);
    free(n->size_label);
    memset(n, 0, sizeof *n);
}
