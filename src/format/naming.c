/* naming.c -- the GGUF naming convention (spec section "GGUF Naming
 * Convention").  The spec defines valid names by a regular expression; this
 * matcher walks the '-'-separated tokens in the order that expression's
 * backtracking tries them (greedy BaseName, then the optional SizeLabel with
 * its optional attribute, greedy FineTune, Version, then optional Encoding,
 * Type and Shard), so it returns the same parts. */
#include "format/file.h"

#include <stdio.h>


typedef struct tok {
    const char *p;
    size_t n;
} tok;

#define MAX_TOKS 64

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
static bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* [A-Za-z0-9\s]* */
static bool all_alnum_ws(tok t) {
    for (size_t i = 0; i < t.n; i++)
        if (!is_alpha(t.p[i]) && !is_digit(t.p[i]) && !is_ws(t.p[i])) return false;
    return true;
}
/* a BaseName segment after a '-': [A-Za-z\s][A-Za-z0-9\s]* | [0-9\s]* */
static bool base_seg(tok t) {
    if (t.n && (is_alpha(t.p[0]) || is_ws(t.p[0]))) return all_alnum_ws(t);
    for (size_t i = 0; i < t.n; i++)
        if (!is_digit(t.p[i]) && !is_ws(t.p[i])) return false;
    return true;
}
/* the lenient reading's BaseName segment: also '.' and '_', which gguf-py
 * copies from general.basename ("Llama-3.1", "Qwen2.5") */
static bool base_seg_lenient(tok t) {
    if (t.n == 0) return false;
    for (size_t i = 0; i < t.n; i++)
        if (!is_alpha(t.p[i]) && !is_digit(t.p[i]) && !is_ws(t.p[i]) && t.p[i] != '.' && t.p[i] != '_') return false;
    return true;
}
/* (\d+\.)?\d+[A-Za-z] */
static bool size_core(const char *p, size_t n) {
    size_t i = 0;
    while (i < n && is_digit(p[i])) i++;
    if (i == 0 || n == 0 || !is_alpha(p[n - 1])) return false;
    if (p[i] == '.') {
        size_t k = ++i;
        while (i < n && is_digit(p[i])) i++;
        if (i == k) return false;
    }
    return i == n - 1;
}
/* (\d+x)?(\d+\.)?\d+[A-Za-z] */
static bool size_main(tok t) {
    if (size_core(t.p, t.n)) return true;
    size_t j = 0;
    while (j < t.n && is_digit(t.p[j])) j++;
    return j > 0 && j < t.n && t.p[j] == 'x' && size_core(t.p + j + 1, t.n - j - 1);
}
/* [A-Za-z]+(\d+\.)?\d+[A-Za-z]+ */
static bool size_attr(tok t) {
    size_t i = 0, n = t.n;
    const char *p = t.p;
    while (i < n && is_alpha(p[i])) i++;
    if (i == 0) return false;
    size_t s = i;
    while (i < n && is_digit(p[i])) i++;
    if (i == s) return false;
    if (i < n && p[i] == '.') {
        size_t k = ++i;
        while (i < n && is_digit(p[i])) i++;
        if (i == k) return false;
    }
    size_t a = i;
    while (i < n && is_alpha(p[i])) i++;
    return i > a && i == n;
}
/* [A-Za-z0-9\s-]+ token (one of the tokens FineTune spans) */
static bool fine_tok(tok t) { return all_alnum_ws(t); }
/* v\d+(\.\d+)* */
static bool version_tok(tok t) {
    if (t.n < 2 || t.p[0] != 'v') return false;
    size_t i = 1;
    for (;;) {
        size_t s = i;
        while (i < t.n && is_digit(t.p[i])) i++;
        if (i == s) return false;
        if (i == t.n) return true;
        if (t.p[i] != '.') return false;
        i++;
    }
}
/* (?!LoRA|vocab)[\w_]+ */
static bool encoding_tok(tok t) {
    if (t.n == 0) return false;
    if ((t.n >= 4 && memcmp(t.p, "LoRA", 4) == 0) || (t.n >= 5 && memcmp(t.p, "vocab", 5) == 0)) return false;
    for (size_t i = 0; i < t.n; i++)
        if (!is_alpha(t.p[i]) && !is_digit(t.p[i]) && t.p[i] != '_') return false;
    return true;
}
static bool type_tok(tok t) {
    return (t.n == 4 && memcmp(t.p, "LoRA", 4) == 0) || (t.n == 5 && memcmp(t.p, "vocab", 5) == 0);
}
/* Five decimal digits at p (shard numbers are written %05u). */
static bool read5(const char *p, uint32_t *v) {
    uint32_t x = 0;
    for (int i = 0; i < 5; i++) {
        if (!is_digit(p[i])) return false;
        x = x * 10 + (uint32_t)(p[i] - '0');
    }
    *v = x;
    return true;
}

static bool five_digits(tok t) {
    uint32_t v;
    return t.n == 5 && read5(t.p, &v);
}

static lgg_str span(const tok *t, size_t a, size_t b) { /* tokens [a, b) joined by '-' */
    lgg_str s = {NULL, 0};
    if (b <= a) return s;
    s.ptr = t[a].p;
    s.len = (uint64_t)(t[b - 1].p + t[b - 1].n - t[a].p);
    return s;
}

/* Match the tail after Version (tokens [i, n)). */
static bool tail(const tok *t, size_t i, size_t n, lgg_name_parts *o) {
    for (int enc = 1; enc >= 0; enc--) {
        size_t j = i;
        if (enc) {
            if (j >= n || !encoding_tok(t[j])) continue;
            j++;
        }
        for (int ty = 1; ty >= 0; ty--) {
            size_t k = j;
            if (ty) {
                if (k >= n || !type_tok(t[k])) continue;
                k++;
            }
            for (int sh = 1; sh >= 0; sh--) {
                size_t m = k;
                if (sh) {
                    if (m + 3 > n || !five_digits(t[m]) || !(t[m + 1].n == 2 && memcmp(t[m + 1].p, "of", 2) == 0) ||
                        !five_digits(t[m + 2]))
                        continue;
                    m += 3;
                }
                if (m != n) continue;
                o->encoding = enc ? span(t, i, i + 1) : (lgg_str){NULL, 0};
                o->type = ty ? span(t, j, j + 1) : (lgg_str){NULL, 0};
                o->shard = sh ? span(t, k, k + 3) : (lgg_str){NULL, 0};
                return true;
            }
        }
    }
    return false;
}

/* The spec's expression, or with `lenient` its prose: a missing Version
 * means v1.0 (so it may be left out), and BaseName segments may hold '.'
 * and '_'.  A SizeLabel is required either way. */
static bool parse(const char *name, size_t len, lgg_name_parts *out, bool lenient) {
    lgg_name_parts o;
    memset(&o, 0, sizeof o);
    if (!name || len < 5 || memcmp(name + len - 5, ".gguf", 5) != 0) return false;
    size_t stem = len - 5;
    tok t[MAX_TOKS];
    size_t n = 0, start = 0;
    for (size_t i = 0; i <= stem; i++) {
        if (i == stem || name[i] == '-') {
            if (n == MAX_TOKS) return false;
            t[n].p = name + start;
            t[n].n = i - start;
            n++;
            start = i + 1;
        }
    }
    if (lenient ? !base_seg_lenient(t[0]) : !all_alnum_ws(t[0])) return false;
    size_t bmax = 1;
    while (bmax < n && (lenient ? base_seg_lenient(t[bmax]) : base_seg(t[bmax]))) bmax++;
    for (size_t b = bmax; b >= 1; b--) {
        /* with a SizeLabel (two-token form first), then FineTune greedy */
        for (int two = 1; two >= 0; two--) {
            size_t s = b;
            if (s >= n || !size_main(t[s])) break;
            size_t after = s + 1;
            if (two) {
                if (after >= n || !size_attr(t[after])) continue;
                after++;
            }
            size_t fmax = after;
            while (fmax < n && fine_tok(t[fmax]) && t[fmax].n) fmax++;
            for (size_t fe = fmax;; fe--) {
                /* FineTune = tokens [after, fe); [A-Za-z0-9\s-]+ may also hold empty tokens
                   between dashes, handled by fine_tok allowing them only inside the run */
                const bool versioned = fe < n && version_tok(t[fe]) && tail(t, fe + 1, n, &o);
                if (versioned || (lenient && tail(t, fe, n, &o))) {
                    o.base_name = span(t, 0, b);
                    o.size_label = span(t, s, after);
                    o.fine_tune = span(t, after, fe);
                    o.version = versioned ? span(t, fe, fe + 1) : (lgg_str){NULL, 0};
                    if (out) *out = o;
                    return true;
                }
                if (fe == after) break;
            }
        }
        /* without: "Base--vX" */
        if (b + 1 < n && t[b].n == 0 && version_tok(t[b + 1]) && tail(t, b + 2, n, &o)) {
            o.base_name = span(t, 0, b);
            o.version = span(t, b + 1, b + 2);
            if (out) *out = o;
            return true;
        }
        if (b == 1) break;
    }
    return false;
}

bool lgg_name_parse(const char *name, size_t len, lgg_name_parts *out) { return parse(name, len, out, false); }

bool lgg__name_parse_lenient(const char *name, size_t len) {
    return parse(name, len, NULL, false) || parse(name, len, NULL, true);
}

/* ---- the recommended name ------------------------------------------------ */

typedef struct sbuf {
    char *p;
    size_t cap, n;
} sbuf;

static void sb_putc(sbuf *b, char c) {
    if (b->n + 1 < b->cap) b->p[b->n] = c;
    b->n++;
}

/* s[0..n) as part of one file name: control bytes (C0, DEL, UTF-8's C1
 * such as U+009B CSI) left out, so that no newline or terminal escape from
 * a file's metadata reaches a name or a terminal; '/' (and, when `dash`,
 * ' ') made '-', so that the name names no folder. */
static void sb_text(sbuf *b, const char *s, size_t n, bool dash) {
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) continue;
        if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f) {
            i++;
            continue;
        }
        sb_putc(b, c == '/' || (dash && c == ' ') ? '-' : (char)c);
    }
}

/* A metadata string, trimmed of surrounding white space, with spaces
 * turned into dashes, as gguf-py writes the parts. */
static void sb_part(sbuf *b, lgg_str s) {
    size_t i = 0, n = (size_t)s.len;
    while (i < n && is_ws(s.ptr[i])) i++;
    while (n > i && is_ws(s.ptr[n - 1])) n--;
    sb_text(b, s.ptr + i, n - i, true);
}

static void sb_str(sbuf *b, const char *s) {
    while (*s) sb_putc(b, *s++);
}

static bool get_str(const lgg_file *f, const char *key, lgg_str *out) {
    lgg_value v;
    return lgg_get(f, key, &v) == LGG_OK && lgg_value_string(&v, out) == LGG_OK;
}

static bool get_uint(const lgg_file *f, const char *key, uint64_t *out) {
    lgg_value v;
    return lgg_get(f, key, &v) == LGG_OK && lgg_value_uint(&v, out) == LGG_OK;
}

static bool contains(lgg_str s, const char *sub) {
    size_t k = strlen(sub);
    for (uint64_t i = 0; i + k <= s.len; i++)
        if (!memcmp(s.ptr + i, sub, k)) return true;
    return false;
}

/* The name from f's metadata, the parameters counted over set[0..n_set)
 * (f alone when n_set is 0), and shard `no` of `count` (none when count is 0). */
static size_t name_of(const lgg_file *f, const lgg_file *const *set, size_t n_set, uint64_t no, uint64_t count,
                      char *buf, size_t cap) {
    sbuf b = {buf, buf ? cap : 0, 0};
    lgg_str s;
    if (!n_set) set = &f, n_set = 1;
    if (get_str(f, "general.basename", &s) || get_str(f, "general.name", &s)) sb_part(&b, s);
    else sb_str(&b, "ggml-model");
    if (get_str(f, "general.size_label", &s)) {
        sb_putc(&b, '-'); /* gguf-py takes the label as it is (its spaces too) */
        sb_text(&b, s.ptr, (size_t)s.len, false);
    } else {
        /* gguf-py's count: for a mixture of experts, the shared weights plus
         * one expert's share of the expert tensors (names with "_exps") */
        uint64_t total = 0, experts = 0, n_expert = 0;
        lgg_str arch;
        if (get_str(f, "general.architecture", &arch) && arch.len < 200) {
            char key[256];
            memcpy(key, arch.ptr, (size_t)arch.len);
            memcpy(key + arch.len, ".expert_count", sizeof ".expert_count");
            if (!get_uint(f, key, &n_expert) || n_expert > UINT32_MAX) n_expert = 0;
        }
        for (size_t k = 0; k < n_set; k++)
            for (uint64_t i = 0; set[k] && i < lgg_tensor_count(set[k]); i++) {
                const lgg_tensor *t = lgg_tensor_at(set[k], i);
                if (!t->type_known) continue;
                total += t->n_elements;
                if (contains(t->name, "_exps.")) experts += t->n_elements;
            }
        if (total > 0) {
            char label[64];
            uint64_t n_params = n_expert > 0 ? total - experts + experts / n_expert : total;
            if (n_expert > 0) {
                /* gguf-py writes "<experts>x" for any expert count, 1 included */
                int p = snprintf(label, 24, "%llux", (unsigned long long)n_expert);
                lgg_size_label(n_params, 0, label + p, sizeof label - (size_t)p);
            } else {
                lgg_size_label(n_params, 0, label, sizeof label);
            }
            sb_putc(&b, '-');
            sb_str(&b, label);
        }
    }
    if (get_str(f, "general.finetune", &s)) {
        sb_putc(&b, '-');
        sb_part(&b, s);
    }
    if (get_str(f, "general.version", &s)) {
        sb_putc(&b, '-');
        sb_part(&b, s);
    }
    uint64_t ft;
    const char *ftn;
    if (get_uint(f, "general.file_type", &ft) && ft <= UINT32_MAX && (ftn = lgg_file_type_name((uint32_t)ft))) {
        /* gguf-py takes the enum name after its first '_': MOSTLY_Q4_K_M -> Q4_K_M */
        const char *u = strchr(ftn, '_');
        sb_putc(&b, '-');
        sb_str(&b, u ? u + 1 : ftn);
    }
    if (get_str(f, "general.type", &s) && s.len == 7 && !memcmp(s.ptr, "adapter", 7)) sb_str(&b, "-LoRA");
    else if (get_str(f, "general.type", &s) && s.len == 5 && !memcmp(s.ptr, "vocab", 5)) sb_str(&b, "-vocab");
    if (count > 0 && count <= 99999 && no < count) {
        char sh[32];
        snprintf(sh, sizeof sh, "-%05llu-of-%05llu", (unsigned long long)no + 1, (unsigned long long)count);
        sb_str(&b, sh);
    }
    sb_str(&b, ".gguf");
    if (b.cap) b.p[b.n < b.cap ? b.n : b.cap - 1] = 0;
    if (b.cap && b.n >= b.cap) b.p[0] = 0;
    return b.n;
}

size_t lgg_recommended_name(const lgg_file *f, char *buf, size_t cap) {
    if (!f) return 0;
    uint64_t no = 0, count = 0;
    if (!get_uint(f, "split.count", &count) || !get_uint(f, "split.no", &no)) count = 0;
    return name_of(f, NULL, 0, no, count, buf, cap);
}

size_t lgg_recommended_shard_name(const lgg_file *const *set, size_t n_set, uint32_t index, char *buf, size_t cap) {
    if (!set || !n_set || !set[0]) return 0;
    return name_of(set[0], set, n_set, index, n_set > 1 ? n_set : 0, buf, cap);
}

/* ---- shard names (llama.cpp's gguf-split: PREFIX-00001-of-00003.gguf) ---- */

size_t lgg_split_path(char *buf, size_t cap, const char *prefix, uint32_t index, uint32_t count) {
    if (!prefix) prefix = "";
    int n = snprintf(buf, buf ? cap : 0, "%s-%05u-of-%05u.gguf", prefix, index + 1, count);
    return n < 0 ? 0 : (size_t)n;
}


bool lgg_split_name_parse(const char *path, size_t len, uint32_t *index, uint32_t *count, size_t *prefix_len) {
    static const char tail[] = "-00000-of-00000.gguf";
    const size_t tn = sizeof tail - 1;
    if (!path || len < tn) return false;
    const char *t = path + len - tn;
    uint32_t no, cnt;
    if (t[0] != '-' || !read5(t + 1, &no) || memcmp(t + 6, "-of-", 4) || !read5(t + 10, &cnt) ||
        memcmp(t + 15, ".gguf", 5))
        return false;
    if (no < 1 || cnt < 1 || no > cnt) return false;
    if (index) *index = no - 1;
    if (count) *count = cnt;
    if (prefix_len) *prefix_len = len - tn;
    return true;
}

/* A name that tries the convention: a token after the first ('-'-separated)
 * that reads as a SizeLabel ("8B", "8x7B", "1.5M"), the part no name
 * written without the convention in mind has.  "model.gguf" and
 * llama-quantize's "ggml-model-Q4_K_M.gguf" do not try it. */
bool lgg__name_attempted(const char *name, size_t len) {
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] != '-' && name[i] != '.') continue;
        tok t = {name + start, i - start};
        if (start > 0 && t.n && size_main(t)) return true;
        start = i + 1;
    }
    return false;
}
