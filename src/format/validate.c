/* validate.c -- checking an open file against the letter of the spec.
 *
 * Opening already proved the structure (every byte accounted for), so this
 * pass can read without bounds checks.  It reports every finding, each with a
 * severity and an offset.  The policies are written down in docs/validation.md. */
#include "format/file.h"

#include <stdio.h>
#include <stdlib.h>

#define N_CHECKS 32 /* > the highest lgg_check */

struct lgg_report {
    lgg_allocator alloc_copy;
    const lgg_allocator *alloc;
    lgg_finding *items;
    size_t n, cap;
    bool oom;
    bool strict;
    /* at most LGG_REPORT_MAX_PER_CHECK findings of one check are kept: a file
     * of 2^24 empty keys would otherwise cost 2^25 findings (11 GiB) */
    uint64_t listed[N_CHECKS], dropped[N_CHECKS];
    lgg_severity dropped_sev[N_CHECKS]; /* the most severe finding dropped */
};

static void add(lgg_report *r, lgg_severity sev, lgg_check check, uint64_t off, const char *fmt, ...)
    LGG_PRINTF(5, 6);
static void add(lgg_report *r, lgg_severity sev, lgg_check check, uint64_t off, const char *fmt, ...) {
    if (r->oom) return;
    /* a file's name is no part of the file: strictness does not judge it */
    if (r->strict && sev == LGG_SEV_WARNING && check != LGG_CHECK_FILE_NAME) sev = LGG_SEV_ERROR;
    if ((unsigned)check < N_CHECKS) {
        if (r->listed[check] >= LGG_REPORT_MAX_PER_CHECK) {
            if (!r->dropped[check]++ || sev < r->dropped_sev[check]) r->dropped_sev[check] = sev;
            return;
        }
        r->listed[check]++;
    }
    if (!lgg__grow(r->alloc, (void **)&r->items, &r->cap, r->n + 1, sizeof *r->items, 16)) {
        r->oom = true;
        return;
    }
    lgg_finding *f = &r->items[r->n++];
    f->severity = sev;
    f->check = check;
    f->offset = off;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
}

static lgg_report *report_new(const lgg_allocator *a) {
    lgg_report *r = lgg__calloc(a, 1, sizeof *r);
    if (!r) return NULL;
    if (a) {
        r->alloc_copy = *a;
        r->alloc = &r->alloc_copy;
    }
    return r;
}

void lgg_report_free(lgg_report *r) {
    if (!r) return;
    lgg_allocator copy = r->alloc_copy;
    const lgg_allocator *a = r->alloc ? &copy : NULL;
    lgg__free(a, r->items);
    lgg__free(a, r);
}

size_t lgg_report_count(const lgg_report *r) { return r ? r->n : 0; }
const lgg_finding *lgg_report_at(const lgg_report *r, size_t i) { return r && i < r->n ? &r->items[i] : NULL; }
size_t lgg_report_count_severity(const lgg_report *r, lgg_severity s) {
    size_t c = 0;
    for (size_t i = 0; r && i < r->n; i++) c += r->items[i].severity == s;
    return c;
}
const char *lgg_severity_name(lgg_severity s) {
    switch (s) {
    case LGG_SEV_ERROR: return "error";
    case LGG_SEV_WARNING: return "warning";
    case LGG_SEV_NOTE: return "note";
    }
    return "unknown";
}

lgg_report *lgg_report_from_error(const lgg_error *err, const lgg_allocator *a) {
    lgg_report *r = report_new(a);
    if (!r) return NULL;
    add(r, LGG_SEV_ERROR, LGG_CHECK_STRUCTURE, err ? err->offset : LGG_NO_OFFSET, "%s",
        err ? err->message : "cannot open");
    if (r->oom) {
        lgg_report_free(r);
        return NULL;
    }
    return r;
}

/* ---- helpers ---- */

#define Q(buf, s, len) lgg__quote(buf, sizeof buf, (s), (len), 80)

static bool key_eq(lgg_str k, const char *s) { return k.len == strlen(s) && memcmp(k.ptr, s, k.len) == 0; }

static bool seg_ok(const char *p, size_t n) {
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}

/* lower_snake_case segments joined by '.'; a first segment equal to `arch`
 * is judged by the architecture rule instead */
static bool key_syntax_ok(const char *k, uint64_t n, lgg_str arch) {
    if (n == 0) return false;
    size_t segstart = 0, seg = 0;
    for (size_t j = 0; j <= n; j++) {
        if (j == n || k[j] == '.') {
            const char *sp = k + segstart;
            size_t sn = j - segstart;
            bool arch_seg = seg == 0 && arch.len == sn && sn && memcmp(sp, arch.ptr, sn) == 0;
            if (!arch_seg && !seg_ok(sp, sn)) return false;
            segstart = j + 1;
            seg++;
        }
    }
    return true;
}

bool lgg_key_name_ok(const char *key, size_t len) {
    const lgg_str none = {NULL, 0};
    return key && len <= 65535 && key_syntax_ok(key, len, none);
}

static bool arch_name_ok(lgg_str a) {
    if (a.len == 0) return false;
    for (uint64_t i = 0; i < a.len; i++) {
        char c = a.ptr[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
    }
    return true;
}

/* ---- standardized keys ---- */

enum kind { K_STR, K_U32, K_COUNT, K_F32, K_BOOL, K_ARR_STR, K_ARR_F32, K_ARR_I32, K_UINT_OR_ARR };
typedef struct std_key {
    const char *name; /* after "general." / "<arch>." / "tokenizer." as written */
    enum kind kind;
} std_key;

static const std_key GENERAL_KEYS[] = {
    {"general.architecture", K_STR},  {"general.quantization_version", K_U32}, {"general.alignment", K_U32},
    {"general.name", K_STR},          {"general.author", K_STR},               {"general.version", K_STR},
    {"general.organization", K_STR},  {"general.basename", K_STR},             {"general.finetune", K_STR},
    {"general.description", K_STR},   {"general.quantized_by", K_STR},         {"general.size_label", K_STR},
    {"general.license", K_STR},       {"general.license.name", K_STR},         {"general.license.link", K_STR},
    {"general.url", K_STR},           {"general.doi", K_STR},                  {"general.uuid", K_STR},
    {"general.repo_url", K_STR},      {"general.file_type", K_U32},            {"general.source.url", K_STR},
    {"general.source.huggingface.repository", K_STR},
    {"general.tags", K_ARR_STR},      {"general.languages", K_ARR_STR},        {"general.datasets", K_ARR_STR},
    {"tokenizer.ggml.model", K_STR},  {"tokenizer.ggml.tokens", K_ARR_STR},    {"tokenizer.ggml.scores", K_ARR_F32},
    {"tokenizer.ggml.token_type", K_ARR_I32}, {"tokenizer.ggml.merges", K_ARR_STR},
    {"tokenizer.ggml.added_tokens", K_ARR_STR}, {"tokenizer.ggml.bos_token_id", K_U32},
    {"tokenizer.ggml.eos_token_id", K_U32}, {"tokenizer.ggml.unknown_token_id", K_U32},
    {"tokenizer.ggml.separator_token_id", K_U32}, {"tokenizer.ggml.padding_token_id", K_U32},
    {"tokenizer.huggingface.json", K_STR}, {"tokenizer.rwkv.world", K_STR}, {"tokenizer.chat_template", K_STR},
};

static const std_key ARCH_KEYS[] = {
    {"context_length", K_COUNT},          {"embedding_length", K_COUNT},
    {"block_count", K_COUNT},             {"feed_forward_length", K_UINT_OR_ARR},
    {"use_parallel_residual", K_BOOL},  {"tensor_data_layout", K_STR},
    {"expert_count", K_U32},            {"expert_used_count", K_U32},
    {"attention.head_count", K_UINT_OR_ARR}, {"attention.head_count_kv", K_UINT_OR_ARR},
    {"attention.max_alibi_bias", K_F32}, {"attention.clamp_kqv", K_F32},
    {"attention.layer_norm_epsilon", K_F32}, {"attention.layer_norm_rms_epsilon", K_F32},
    {"rope.dimension_count", K_COUNT},    {"rope.freq_base", K_F32},
    {"rope.scaling.type", K_STR},       {"rope.scaling.factor", K_F32},
    {"rope.scaling.original_context_length", K_U32}, {"rope.scaling.finetuned", K_BOOL},
    {"rope.scale_linear", K_F32},
};

static const char *kind_name(enum kind k) {
    switch (k) {
    case K_STR: return "string";
    case K_U32: return "u32";
    case K_COUNT: return "u32";
    case K_F32: return "f32";
    case K_BOOL: return "bool";
    case K_ARR_STR: return "array of string";
    case K_ARR_F32: return "array of f32";
    case K_ARR_I32: return "array of i32";
    case K_UINT_OR_ARR: return "u32 (or an array of per-layer integers)";
    }
    return "?";
}

/* The type writers give kind k (gguf-py; the counts the spec lists as
 * uint64 are written as u32) and llama.cpp reads: its loader accepts exactly
 * one type per key. */
static uint32_t kind_vtype(enum kind k) {
    switch (k) {
    case K_STR: return LGG_VT_STRING;
    case K_U32: case K_COUNT: case K_UINT_OR_ARR: return LGG_VT_U32;
    case K_F32: return LGG_VT_F32;
    case K_BOOL: return LGG_VT_BOOL;
    case K_ARR_STR: case K_ARR_F32: case K_ARR_I32: return LGG_VT_ARRAY;
    }
    return LGG_VT_COUNT;
}

/* The kind of a standardized key: general.* and tokenizer.* as listed,
 * "<arch>.<rest>" for the architecture `arch`, or any when it is NULL. */
static const std_key *find_std_key(const char *key, uint64_t len, const lgg_str *only_arch) {
    const lgg_str k = {key, len};
    for (size_t s = 0; s < sizeof GENERAL_KEYS / sizeof GENERAL_KEYS[0]; s++)
        if (key_eq(k, GENERAL_KEYS[s].name)) return &GENERAL_KEYS[s];
    const char *dot = memchr(key, '.', len);
    if (!dot || dot == key) return NULL;
    const lgg_str arch = {key, (uint64_t)(dot - key)};
    if (key_eq(arch, "general") || key_eq(arch, "tokenizer")) return NULL;
    if (only_arch && (only_arch->len != arch.len || memcmp(only_arch->ptr, arch.ptr, arch.len) != 0)) return NULL;
    const lgg_str rest = {dot + 1, len - arch.len - 1};
    for (size_t s = 0; s < sizeof ARCH_KEYS / sizeof ARCH_KEYS[0]; s++)
        if (key_eq(rest, ARCH_KEYS[s].name)) return &ARCH_KEYS[s];
    return NULL;
}

lgg_status lgg_standard_key_type(const char *key, size_t len, uint32_t *vtype) {
    if (!key || !vtype) return LGG_ERR_ARG;
    const std_key *s = find_std_key(key, len, NULL);
    if (!s) return LGG_ERR_NOT_FOUND;
    *vtype = kind_vtype(s->kind);
    return LGG_OK;
}

static bool is_int(uint32_t t) {
    return t == LGG_VT_U8 || t == LGG_VT_I8 || t == LGG_VT_U16 || t == LGG_VT_I16 || t == LGG_VT_U32 ||
           t == LGG_VT_I32 || t == LGG_VT_U64 || t == LGG_VT_I64;
}

/* Does a value of `type` (arrays: of elem_type) have the type the spec
 * gives kind k?  Integer and float widths must be exact (llama.cpp refuses
 * any other); integer arrays where the spec has a scalar or other elements
 * pass only when not strict. */
static bool kind_ok(uint32_t type, uint32_t elem_type, enum kind k, bool strict) {
    switch (k) {
    case K_STR: return type == LGG_VT_STRING;
    case K_U32: return type == LGG_VT_U32;
    case K_COUNT: return type == LGG_VT_U32;
    case K_F32: return type == LGG_VT_F32;
    case K_BOOL: return type == LGG_VT_BOOL;
    case K_ARR_STR: return type == LGG_VT_ARRAY && elem_type == LGG_VT_STRING;
    case K_ARR_F32: return type == LGG_VT_ARRAY && elem_type == LGG_VT_F32;
    case K_ARR_I32: return type == LGG_VT_ARRAY && (elem_type == LGG_VT_I32 || (!strict && is_int(elem_type)));
    case K_UINT_OR_ARR:
        return type == LGG_VT_U32 || (!strict && type == LGG_VT_ARRAY && is_int(elem_type));
    }
    return false;
}

/* What is wrong with a value of `type` (elem_type) at a standardized key,
 * as one message into buf (the key quoted as q); false when nothing is. */
static bool key_type_problem(const std_key *s, uint32_t type, uint32_t elem_type, bool strict, const char *q,
                             char *buf, size_t cap) {
    if (kind_ok(type, elem_type, s->kind, strict)) return false;
    if (type == LGG_VT_ARRAY)
        snprintf(buf, cap, "'%s' is array of %s, expected %s", q, lgg_vtype_name(elem_type), kind_name(s->kind));
    else if (type == LGG_VT_U64 && (s->kind == K_COUNT || s->kind == K_UINT_OR_ARR))
        snprintf(buf, cap, "'%s' is u64, expected u32: llama.cpp reads u32 only (the spec lists it as uint64)", q);
    else
        snprintf(buf, cap, "'%s' is %s, expected %s", q, lgg_vtype_name(type), kind_name(s->kind));
    return true;
}

/* What is wrong with general.alignment holding `type` (value a when an
 * integer): the spec says u32, a multiple of 8 (ggml: a power of two). */
static bool alignment_problem(uint32_t type, uint64_t a, char *buf, size_t cap) {
    if (type != LGG_VT_U32)
        snprintf(buf, cap, "general.alignment is %s, the spec says u32%s", lgg_vtype_name(type),
                 is_int(type) ? "" : " (ignored; the default 32 applies)");
    else if (a == 0 || (a & (a - 1)))
        snprintf(buf, cap, "general.alignment %llu is not a non-zero power of two", (unsigned long long)a);
    else if (a % 8)
        snprintf(buf, cap, "general.alignment %llu is not a multiple of 8", (unsigned long long)a);
    else
        return false;
    return true;
}

lgg_status lgg_standard_key_check(const char *key, size_t len, const char *arch, size_t arch_len,
                                  const lgg_wvalue *v, lgg_error *err) {
    if (!key || !v || (!arch && arch_len)) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    char msg[400], q[200];
    const lgg_str k = {key, len}, a = {arch, arch_len};
    if (key_eq(k, "general.alignment")) {
        uint32_t x = 0;
        if (v->type == LGG_VT_U32 && v->data) memcpy(&x, v->data, sizeof x);
        if (!alignment_problem(v->type, x, msg, sizeof msg)) return LGG_OK;
        /* not a power of two: no reader could lay the file out */
        const bool pow2 = v->type == LGG_VT_U32 && x && !(x & (x - 1));
        return lgg__fail(err, v->type != LGG_VT_U32 || pow2 ? LGG_ERR_INVALID : LGG_ERR_ALIGNMENT, LGG_NO_OFFSET,
                         "%s", msg);
    }
    if (key_eq(k, "general.architecture") && v->type != LGG_VT_STRING)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "general.architecture is %s, not a string",
                         lgg_vtype_name(v->type));
    const std_key *s = find_std_key(key, len, &a);
    Q(q, key, len);
    if (s && key_type_problem(s, v->type, v->elem_type, false, q, msg, sizeof msg))
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "%s", msg);
    return LGG_OK;
}

/* Keys the spec requires per architecture. */
typedef struct arch_req {
    const char *arch;
    const char *keys[11];
} arch_req;
static const arch_req REQUIRED[] = {
    {"llama", {"context_length", "embedding_length", "block_count", "feed_forward_length", "rope.dimension_count",
               "attention.head_count", "attention.layer_norm_rms_epsilon"}},
    {"mpt", {"context_length", "embedding_length", "block_count", "attention.head_count",
             "attention.alibi_bias_max", "attention.clip_kqv", "attention.layer_norm_epsilon"}},
    {"gptneox", {"context_length", "embedding_length", "block_count", "use_parallel_residual",
                 "rope.dimension_count", "attention.head_count", "attention.layer_norm_epsilon"}},
    {"gptj", {"context_length", "embedding_length", "block_count", "rope.dimension_count", "attention.head_count",
              "attention.layer_norm_epsilon"}},
    {"gpt2", {"context_length", "embedding_length", "block_count", "attention.head_count",
              "attention.layer_norm_epsilon"}},
    {"bloom", {"context_length", "embedding_length", "block_count", "feed_forward_length", "attention.head_count",
               "attention.layer_norm_epsilon"}},
    /* the spec's falcon row also lists attention.head_count_kv (llama.cpp
     * reads it when present, else head_count) and attention.use_norm (which
     * neither llama.cpp nor gguf-py ever wrote or read): only what the loader
     * requires is required */
    {"falcon", {"context_length", "embedding_length", "block_count", "attention.head_count",
                "attention.layer_norm_epsilon"}},
    {"rwkv", {"architecture_version", "context_length", "block_count", "embedding_length", "feed_forward_length"}},
    {"whisper", {"encoder.context_length", "encoder.embedding_length", "encoder.block_count", "encoder.mels_count",
                 "encoder.attention.head_count", "decoder.context_length", "decoder.embedding_length",
                 "decoder.block_count", "decoder.attention.head_count"}},
};

/* ---- the passes ---- */

typedef struct vctx {
    const lgg_file *f;
    lgg_report *r;
    bool strict;
    bool has_nested;
    uint64_t nested_at;
    lgg_str arch;
} vctx;

static void check_string(vctx *c, const char *what, const lgg_str *key, const uint8_t *p, uint64_t len, uint64_t off) {
    uint64_t bad;
    if (!lgg__utf8_valid(p, len, &bad)) {
        char q[200];
        Q(q, key->ptr, key->len);
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_UTF8, off + bad, "%s of '%s' is not valid UTF-8 (byte 0x%02x at offset %llu)",
            what, q, p[bad], (unsigned long long)(off + bad));
    }
}

/* Walk every element of a value: UTF-8 of strings, bool bytes, nesting. */
/* What an array holds that is not allowed: strings that are not UTF-8,
 * bools that are not 0 or 1, and the offset of the first of either. */
typedef struct bad_elems {
    uint64_t strings, bools, first;
} bad_elems;

/* An array of strings.  A length field below 128 is all ASCII bytes in
 * either byte order, and ASCII ends any UTF-8 sequence: so a run of strings
 * whose length fields are all < 128 is valid exactly when the whole run of
 * bytes is.  Validate such runs in one pass; a longer length field breaks
 * the run.  Only when something is bad are the strings counted one by one. */
static void bad_strings_in(const lgg_value *v, bad_elems *bad) {
    const uint8_t *p = v->data, *end = v->data + v->size, *run = p;
    const uint8_t lw = v->len_width;
    uint64_t b;
    while (p < end) {
        uint64_t len = lw == 4 ? lgg__ld32(p, v->swap) : lgg__ld64(p, v->swap);
        if (len >= 128) {
            if (p > run && !lgg__utf8_valid(run, (uint64_t)(p - run), &b)) {
                if (!bad->strings) bad->first = v->offset + (uint64_t)(run - v->data) + b;
                bad->strings++;
            }
            run = p + lw;
        }
        p += lw + len;
    }
    if (end > run && !lgg__utf8_valid(run, (uint64_t)(end - run), &b)) {
        if (!bad->strings) bad->first = v->offset + (uint64_t)(run - v->data) + b;
        bad->strings++;
    }
    if (!bad->strings) return;
    lgg_iter it;
    lgg_value e;
    bad->strings = 0;
    lgg_array_iter(v, &it);
    while (lgg_iter_next(&it, &e))
        if (!lgg__utf8_valid(e.data, e.count, &b)) {
            if (!bad->strings) bad->first = e.offset + b;
            bad->strings++;
        }
}

/* Nested arrays, walked with an explicit stack of iterators. */
static void bad_nested_in(const lgg_value *v, bad_elems *bad) {
    lgg_iter st[72];
    int sp = 0;
    lgg_array_iter(v, &st[sp++]);
    lgg_value e;
    while (sp) {
        if (!lgg_iter_next(&st[sp - 1], &e)) {
            sp--;
            continue;
        }
        uint64_t b;
        if (e.type == LGG_VT_STRING) {
            if (!lgg__utf8_valid(e.data, e.count, &b)) {
                if (!bad->strings && !bad->bools) bad->first = e.offset + b;
                bad->strings++;
            }
        } else if (e.type == LGG_VT_BOOL) {
            if (e.data[0] > 1) {
                if (!bad->strings && !bad->bools) bad->first = e.offset;
                bad->bools++;
            }
        } else if (e.type == LGG_VT_ARRAY) {
            if (sp < 72) lgg_array_iter(&e, &st[sp++]);
        } else {
            /* scalars of one type: skip the rest of this array at once */
            st[sp - 1].index = st[sp - 1].arr.count;
        }
    }
}

static void check_array(vctx *c, const lgg_kv *kv) {
    const lgg_value *v = &kv->value;
    char q[200];
    if (v->elem_type == LGG_VT_ARRAY && v->count && !c->has_nested) {
        c->has_nested = true;
        c->nested_at = kv->offset;
    }
    bad_elems bad = {0, 0, 0};
    if (v->elem_type == LGG_VT_STRING) {
        bad_strings_in(v, &bad);
    } else if (v->elem_type == LGG_VT_BOOL) {
        for (uint64_t i = 0; i < v->count; i++)
            if (v->data[i] > 1) {
                if (!bad.bools) bad.first = v->offset + i;
                bad.bools++;
            }
    } else if (v->elem_type == LGG_VT_ARRAY) {
        bad_nested_in(v, &bad);
    }
    if (bad.strings) {
        Q(q, kv->key.ptr, kv->key.len);
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_UTF8, bad.first,
            "array '%s' has %llu strings that are not valid UTF-8 (first at offset %llu)", q,
            (unsigned long long)bad.strings, (unsigned long long)bad.first);
    }
    if (bad.bools) {
        Q(q, kv->key.ptr, kv->key.len);
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_BOOL_VALUE, bad.first,
            "array '%s' has %llu bools that are neither 0 nor 1 (first at offset %llu)", q,
            (unsigned long long)bad.bools, (unsigned long long)bad.first);
    }
}

static void check_value(vctx *c, const lgg_kv *kv) {
    const lgg_value *v = &kv->value;
    char q[200];
    if (v->type == LGG_VT_STRING) {
        check_string(c, "value", &kv->key, v->data, v->count, v->offset);
    } else if (v->type == LGG_VT_BOOL) {
        if (v->data[0] > 1) {
            Q(q, kv->key.ptr, kv->key.len);
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_BOOL_VALUE, v->offset, "bool '%s' at offset %llu holds %u, not 0 or 1", q,
                (unsigned long long)v->offset, v->data[0]);
        }
    } else if (v->type == LGG_VT_ARRAY) {
        check_array(c, kv);
    }
}

/* A standardized key (general.*, tokenizer.*, and <arch>.* for the file's
 * own architecture) with another type than the spec's. */
static void check_key_type(vctx *c, const lgg_kv *kv, const char *q) {
    const lgg_str k = kv->key;
    if (key_eq(k, "general.alignment") || key_eq(k, "general.architecture")) return; /* checked on their own */
    const std_key *s = find_std_key(k.ptr, k.len, &c->arch);
    if (!s) return;
    const lgg_value *v = &kv->value;
    char msg[400];
    if (key_type_problem(s, v->type, v->elem_type, c->strict, q, msg, sizeof msg))
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_KEY_TYPE, lgg__key_offset(c->f, k.ptr, k.len), "%s", msg);
}

static void check_keys(vctx *c) {
    const lgg_file *f = c->f;
    char q[200];
    for (uint64_t i = 0; i < f->n_kv; i++) {
        const lgg_kv *kv = &f->kv[i];
        lgg_str k = kv->key;
        Q(q, k.ptr, k.len);
        if (k.len > 65535)
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_KEY_LENGTH, kv->offset, "key at offset %llu is %llu bytes long, over 65535",
                (unsigned long long)kv->offset, (unsigned long long)k.len);
        if (!key_syntax_ok(k.ptr, k.len, c->arch))
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_KEY_SYNTAX, kv->offset,
                "key '%s' at offset %llu is not lower_snake_case ASCII segments separated by '.'", q,
                (unsigned long long)kv->offset);
        int64_t first = lgg_find_key(f, k.ptr, k.len);
        if (first >= 0 && (uint64_t)first != i)
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_KEY_DUPLICATE, kv->offset,
                "key '%s' at offset %llu repeats the key of pair %lld (offset %llu)", q, (unsigned long long)kv->offset,
                (long long)first, (unsigned long long)f->kv[first].offset);
        check_value(c, kv);

        check_key_type(c, kv, q);
    }
}

/* Where findings about the metadata as a whole point: the end of the pairs,
 * where a missing key would go. */
static uint64_t meta_end(const lgg_file *f) { return f->n_tensors ? f->tensors[0].info_offset : f->header_size; }

static void check_general(vctx *c) {
    const lgg_file *f = c->f;
    int64_t ai = f->alignment_kv;
    if (ai >= 0) {
        const lgg_kv *kv = &f->kv[ai];
        char msg[160];
        if (alignment_problem(kv->value.type, f->alignment, msg, sizeof msg))
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_ALIGNMENT_KEY, lgg__key_offset(f, "general.alignment", 17), "%s", msg);
    }
    int64_t a = lgg_find_key_cstr(f, "general.architecture");
    /* a later shard of a split model holds only the split keys: the model's
     * metadata lives in the first shard */
    lgg_value sv;
    uint64_t split_no = 0;
    if (lgg_get(f, "split.no", &sv) == LGG_OK && lgg_value_uint(&sv, &split_no) == LGG_OK && split_no > 0 && a < 0)
        return;
    if (a < 0) {
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_ARCHITECTURE, meta_end(f), "general.architecture is missing");
    } else if (f->kv[a].value.type != LGG_VT_STRING) {
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_ARCHITECTURE, f->kv[a].offset, "general.architecture is %s, not a string",
            lgg_vtype_name(f->kv[a].value.type));
    } else if (!arch_name_ok(c->arch)) {
        char q[200];
        Q(q, c->arch.ptr, c->arch.len);
        add(c->r, LGG_SEV_WARNING, LGG_CHECK_ARCH_NAME, f->kv[a].value.offset,
            "architecture '%s' is outside the spec's [a-z0-9]+", q);
    }
    bool quantized = false;
    for (uint64_t i = 0; i < f->n_tensors && !quantized; i++) {
        const lgg_type_info *t = lgg_type_get(f->tensors[i].type);
        quantized = t && !t->removed && t->quantized;
    }
    if (quantized && lgg_find_key_cstr(f, "general.quantization_version") < 0)
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_QUANT_VERSION, meta_end(f),
            "general.quantization_version is missing but tensors are quantized");

    /* required keys of the spec's architectures; a vocabulary-only file (no
     * tensors) carries no hyperparameters, so there they are warnings */
    for (size_t r = 0; c->arch.len && r < sizeof REQUIRED / sizeof REQUIRED[0]; r++) {
        if (!key_eq(c->arch, REQUIRED[r].arch)) continue;
        for (size_t k = 0; k < 11 && REQUIRED[r].keys[k]; k++) {
            char key[128];
            snprintf(key, sizeof key, "%s.%s", REQUIRED[r].arch, REQUIRED[r].keys[k]);
            if (lgg_find_key_cstr(f, key) < 0)
                add(c->r, f->n_tensors ? LGG_SEV_ERROR : LGG_SEV_WARNING, LGG_CHECK_REQUIRED_KEY, meta_end(f),
                    "%s is missing (required for architecture %s)%s", key, REQUIRED[r].arch,
                    f->n_tensors ? "" : "; vocabulary-only file");
        }
    }
}

static void check_tokenizer(vctx *c) {
    const lgg_file *f = c->f;
    int64_t ti = lgg_find_key_cstr(f, "tokenizer.ggml.tokens");
    if (ti < 0 || f->kv[ti].value.type != LGG_VT_ARRAY) return;
    uint64_t n = f->kv[ti].value.count;
    static const char *const SAME_LEN[] = {"tokenizer.ggml.scores", "tokenizer.ggml.token_type"};
    for (size_t i = 0; i < 2; i++) {
        int64_t k = lgg_find_key_cstr(f, SAME_LEN[i]);
        if (k >= 0 && f->kv[k].value.type == LGG_VT_ARRAY && f->kv[k].value.count != n)
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_TOKENIZER, f->kv[k].offset, "%s has %llu entries but there are %llu tokens",
                SAME_LEN[i], (unsigned long long)f->kv[k].value.count, (unsigned long long)n);
    }
    static const char *const IDS[] = {"tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id",
                                      "tokenizer.ggml.unknown_token_id", "tokenizer.ggml.separator_token_id",
                                      "tokenizer.ggml.padding_token_id", "tokenizer.ggml.eot_token_id",
                                      "tokenizer.ggml.eom_token_id", "tokenizer.ggml.mask_token_id",
                                      "tokenizer.ggml.cls_token_id"};
    for (size_t i = 0; i < sizeof IDS / sizeof IDS[0]; i++) {
        int64_t k = lgg_find_key_cstr(f, IDS[i]);
        int64_t id;
        if (k < 0 || lgg_value_int(&f->kv[k].value, &id) != LGG_OK) continue;
        /* -1 (or its u32 image) is how writers say "none" */
        if (id == -1 || id == (int64_t)UINT32_MAX) continue;
        if (id < 0 || (uint64_t)id >= n)
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_TOKENIZER, f->kv[k].value.offset,
                "%s = %lld is outside the vocabulary of %llu tokens", IDS[i], (long long)id, (unsigned long long)n);
    }
}

/* Ties in info order, so the result is the same whatever libc's qsort
 * (glibc's is stable, musl's and so the WebAssembly build's is not). */
static int cmp_u32_by_offset(const void *a, const void *b, void *ctx) {
    const lgg_tensor *t = ctx;
    const uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (t[i].file_offset != t[j].file_offset) return t[i].file_offset < t[j].file_offset ? -1 : 1;
    return i < j ? -1 : i > j;
}

static bool all_zero(const uint8_t *p, uint64_t n, uint64_t *at) {
    for (uint64_t i = 0; i < n; i++)
        if (p[i]) {
            *at = i;
            return false;
        }
    return true;
}

/* Tensor data past the end (only opened with LGG_OPEN_ALLOW_MISSING_DATA):
 * one finding for the whole file, which says what a reader needs to know (a
 * partial download, how much is missing), rather than one per tensor. */
static void check_missing_data(vctx *c) {
    const lgg_file *f = c->f;
    uint64_t n_missing = 0, first = 0;
    for (uint64_t i = 0; i < f->n_tensors; i++)
        if (f->tensors[i].type_known && !lgg__tensor_in_file(f, &f->tensors[i]) && !n_missing++) first = i;
    if (lgg_file_metadata_only(f)) {
        add(c->r, LGG_SEV_WARNING, LGG_CHECK_MISSING_DATA, f->size, "metadata only: no tensor data");
    } else if (n_missing) {
        char q[200];
        Q(q, f->tensors[first].name.ptr, f->tensors[first].name.len);
        add(c->r, LGG_SEV_ERROR, LGG_CHECK_MISSING_DATA, f->size,
            "truncated: %llu bytes missing (the file has %llu bytes, its tensor data needs %llu); %llu of %llu "
            "tensors lack data, the first being '%s'",
            (unsigned long long)(f->expected_end - f->size), (unsigned long long)f->size,
            (unsigned long long)f->expected_end, (unsigned long long)n_missing, (unsigned long long)f->n_tensors, q);
    }
}

/* After the last tensor: its padding (which ggml reads with the data) and
 * trailing bytes. */
static void check_data_end(vctx *c) {
    const lgg_file *f = c->f;
    /* a truncated file's last bytes are part of a tensor cut short, which the
     * truncation error already says */
    if (f->expected_end > f->size) return;
    uint64_t end = f->data_end;
    if (f->n_tensors) {
        /* the last tensor's own padding is not trailing data */
        uint64_t padded = end + (f->alignment - (end - f->data_offset) % f->alignment) % f->alignment;
        if (padded <= f->size) {
            end = padded;
        } else if (f->expected_end <= f->size) {
            add(c->r, LGG_SEV_NOTE, LGG_CHECK_COMPAT, f->size,
                "the file ends %llu bytes before the padded end of the last tensor's data (offset %llu): valid, but "
                "ggml refuses it when it reads the tensor data (gguf_init_from_file reads the padding too)",
                (unsigned long long)(padded - f->size), (unsigned long long)padded);
            end = f->size; /* what is there of the padding is checked with the other padding */
        }
    } else {
        /* ggml pads a header without tensors to the alignment as well (its
         * data section is empty but aligned): that padding, or what is there
         * of it, is not trailing data; it is checked like other padding */
        uint64_t padded = end + (f->alignment - end % f->alignment) % f->alignment, at;
        if (padded > f->size) padded = f->size;
        uint64_t in_mem = padded < f->mem_size ? padded : f->mem_size;
        if (in_mem > end && !all_zero(f->base + end, in_mem - end, &at))
            add(c->r, LGG_SEV_WARNING, LGG_CHECK_PADDING, end + at,
                "padding after the header has a non-zero byte at offset %llu", (unsigned long long)(end + at));
        end = padded;
    }
    if (f->size > end)
        add(c->r, LGG_SEV_WARNING, LGG_CHECK_TRAILING_BYTES, end, "%llu bytes after the end of the %s at offset %llu",
            (unsigned long long)(f->size - end), f->n_tensors ? "last tensor's data" : "header's padding",
            (unsigned long long)end);
}

static void check_tensors(vctx *c) {
    const lgg_file *f = c->f;
    char q[200];
    /* packing is checked up to the first tensor whose size is unknown: where
     * the next one should start is unknown past it */
    bool packed = true, sizes_known = true;
    uint64_t expect = 0;
    check_missing_data(c);
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const lgg_tensor *t = &f->tensors[i];
        Q(q, t->name.ptr, t->name.len);
        if (t->name.len > 64)
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_TENSOR_NAME_LENGTH, t->info_offset,
                "tensor name '%s' at offset %llu is %llu bytes, over the spec's 64", q,
                (unsigned long long)t->info_offset, (unsigned long long)t->name.len);
        else if (t->name.len == 64)
            add(c->r, LGG_SEV_NOTE, LGG_CHECK_COMPAT, t->info_offset,
                "tensor name '%s' is exactly 64 bytes: llama.cpp will not load it (ggml allows 63)", q);
        uint64_t bad;
        if (!lgg__utf8_valid((const uint8_t *)t->name.ptr, t->name.len, &bad))
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_UTF8, t->info_offset + c->f->lw + bad,
                "tensor name '%s' is not valid UTF-8", q);
        if (t->n_dims == 0)
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_TENSOR_NDIMS, t->info_offset, "tensor '%s' has 0 dimensions", q);
        if (!t->type_known) {
            const lgg_type_info *ti = lgg_type_get(t->type);
            add(c->r, LGG_SEV_ERROR, LGG_CHECK_TENSOR_TYPE, t->info_offset,
                "tensor '%s' has %s type %u%s%s: the size of its data is unknown", q, ti ? "removed" : "unknown",
                t->type, ti ? " " : "", ti ? ti->name : "");
            sizes_known = false;
            continue;
        }
        if (sizes_known && t->offset != expect) packed = false;
        expect = t->offset + t->size + (f->alignment - t->size % f->alignment) % f->alignment;
    }
    if (!packed && f->n_tensors)
        add(c->r, LGG_SEV_NOTE, LGG_CHECK_COMPAT, f->data_offset,
            "tensor data is not packed tightly in info order: llama.cpp will not load it (ggml requires each offset "
            "to follow the previous tensor's padded end)");

    /* padding: after the tensor infos, and after each tensor up to the next aligned offset */
    uint64_t at;
    /* (the bytes in memory: a file opened through a source holds its header
     * and what followed it in the last read, not its tensor data) */
    uint64_t hp = (f->data_offset < f->mem_size ? f->data_offset : f->mem_size) - f->header_size;
    if (hp && !all_zero(f->base + f->header_size, hp, &at))
        add(c->r, LGG_SEV_WARNING, LGG_CHECK_PADDING, f->header_size + at,
            "padding after the tensor infos has a non-zero byte at offset %llu",
            (unsigned long long)(f->header_size + at));
    uint32_t *ord = f->n_tensors ? lgg__calloc(c->r->alloc, f->n_tensors, sizeof *ord) : NULL;
    if (f->n_tensors && !ord) c->r->oom = true; /* a report silently missing the padding checks would lie */
    if (ord) {
        uint64_t m = 0;
        for (uint64_t i = 0; i < f->n_tensors; i++)
            if (f->tensors[i].data_available) ord[m++] = (uint32_t)i;
        qsort_r(ord, m, sizeof *ord, cmp_u32_by_offset, f->tensors);
        for (uint64_t k = 0; k < m; k++) {
            const lgg_tensor *t = &f->tensors[ord[k]];
            uint64_t end = t->file_offset + t->size;
            uint64_t next = end + (f->alignment - (end - f->data_offset) % f->alignment) % f->alignment;
            if (k + 1 < m && f->tensors[ord[k + 1]].file_offset < next) next = f->tensors[ord[k + 1]].file_offset;
            if (next > f->mem_size) next = f->mem_size;
            if (next > end && !all_zero(f->base + end, next - end, &at)) {
                Q(q, t->name.ptr, t->name.len);
                add(c->r, LGG_SEV_WARNING, LGG_CHECK_PADDING, end + at,
                    "padding after tensor '%s' has a non-zero byte at offset %llu", q, (unsigned long long)(end + at));
            }
        }
        lgg__free(c->r->alloc, ord);
    }
    /* bytes after the known tensors may be the data of one whose size is unknown */
    if (sizes_known) check_data_end(c);
}

/* The convention's expression, its prose (lgg__name_parse_lenient), or
 * exactly the name lgg_recommended_name gives the file. */
static bool file_name_ok(const lgg_file *f, const char *name, size_t n, lgg_report *r) {
    if (lgg__name_parse_lenient(name, n)) return true;
    if (lgg_recommended_name(f, NULL, 0) != n) return false;
    char *rec = lgg__alloc(r->alloc, n + 1);
    if (!rec) {
        r->oom = true;
        return true;
    }
    lgg_recommended_name(f, rec, n + 1);
    const bool same = memcmp(rec, name, n) == 0;
    lgg__free(r->alloc, rec);
    return same;
}

/* A shard's name and its split keys must tell the same position: loaders
 * find the other shards by name and check them by key. */
static void check_shard_name(vctx *c, const char *name, size_t n) {
    uint32_t idx, cnt;
    bool named = lgg_split_name_parse(name, n, &idx, &cnt, NULL);
    lgg_value v;
    uint64_t no = 0, count = 0;
    bool keyed = lgg_get(c->f, "split.count", &v) == LGG_OK && lgg_value_uint(&v, &count) == LGG_OK &&
                 lgg_get(c->f, "split.no", &v) == LGG_OK && lgg_value_uint(&v, &no) == LGG_OK;
    if (named && !keyed)
        add(c->r, LGG_SEV_WARNING, LGG_CHECK_FILE_NAME, LGG_NO_OFFSET,
            "file name says shard %u of %u, but the file has no split.no and split.count", idx + 1, cnt);
    else if (named && (no != idx || count != cnt))
        add(c->r, LGG_SEV_WARNING, LGG_CHECK_FILE_NAME, LGG_NO_OFFSET,
            "file name says shard %u of %u, but split.no and split.count say %llu of %llu", idx + 1, cnt,
            (unsigned long long)no + 1, (unsigned long long)count);
    else if (!named && keyed && no < count && count <= 99999)
        add(c->r, LGG_SEV_WARNING, LGG_CHECK_FILE_NAME, LGG_NO_OFFSET,
            "the file is shard %llu of %llu, but its name does not end in -%05llu-of-%05llu.gguf: loaders will not "
            "find the other shards", (unsigned long long)no + 1, (unsigned long long)count,
            (unsigned long long)no + 1, (unsigned long long)count);
}

lgg_status lgg_validate(const lgg_file *f, const lgg_validate_options *opts, lgg_report **out) {
    if (!f || !out) return LGG_ERR_ARG;
    *out = NULL;
    LGG__OPTIONS_IN(lgg_validate_options, opts, NULL)
    lgg_report *r = report_new(opts ? opts->allocator : NULL);
    if (!r) return LGG_ERR_NOMEM;
    vctx c = {f, r, opts && (opts->flags & LGG_VALIDATE_STRICT), false, 0, {NULL, 0}};
    r->strict = c.strict;
    int64_t a = lgg_find_key_cstr(f, "general.architecture");
    if (a >= 0 && f->kv[a].value.type == LGG_VT_STRING) lgg_value_string(&f->kv[a].value, &c.arch);

    check_keys(&c);
    check_general(&c);
    check_tokenizer(&c);
    check_tensors(&c);
    if (f->version == 1)
        add(r, LGG_SEV_NOTE, LGG_CHECK_COMPAT, 4, "GGUF version 1: llama.cpp will not load it (it reads v2 and v3)");
    if (c.has_nested)
        add(r, LGG_SEV_NOTE, LGG_CHECK_COMPAT, c.nested_at,
            "metadata holds nested arrays: llama.cpp will not load it (ggml's reader rejects arrays of arrays)");
    if (opts && opts->file_name) {
        size_t n = strlen(opts->file_name);
        if ((c.strict || lgg__name_attempted(opts->file_name, n)) && !file_name_ok(f, opts->file_name, n, r))
            add(r, LGG_SEV_WARNING, LGG_CHECK_FILE_NAME, LGG_NO_OFFSET,
                "file name does not follow the naming convention "
                "<BaseName>-<SizeLabel>[-<FineTune>][-<Version>][-<Encoding>]...gguf");
        check_shard_name(&c, opts->file_name, n);
    }
    /* one line for each check that had more findings than a report lists */
    for (unsigned k = 0; k < N_CHECKS; k++) {
        if (!r->dropped[k]) continue;
        r->listed[k] = 0; /* let this one through */
        add(r, r->dropped_sev[k], (lgg_check)k, LGG_NO_OFFSET,
            "... and %llu more findings of this kind, not listed (a report lists at most %u of each)",
            (unsigned long long)r->dropped[k], (unsigned)LGG_REPORT_MAX_PER_CHECK);
    }
    if (r->oom) {
        lgg_report_free(r);
        return LGG_ERR_NOMEM;
    }
    *out = r;
    return LGG_OK;
}
