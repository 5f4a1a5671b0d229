/* fuzz_open.c -- the reader on arbitrary bytes.
 *
 * Opens the input from memory with the default limits, with tiny limits and
 * with LGG_OPEN_ALLOW_MISSING_DATA; on success validates it (plain and
 * strict), walks every metadata value through every typed accessor, iterates
 * every (nested) array and reads back a few elements with lgg_array_get,
 * looks every key and tensor up by name, and dequantizes small tensors.
 *
 * Besides "no crash, no over-read, no leak" (the sanitizers' job) it checks
 * the reader's promises: every view lies inside the input, offsets agree
 * with pointers, exactly one typed accessor accepts a value, iteration
 * covers an array's bytes exactly, the limits hold on what was accepted,
 * and a failed open fills the error consistently. */
#include "fuzz.h"
#include "libgguf.h"

#include <math.h>
#include <string.h>

typedef struct span {
    const uint8_t *lo, *hi; /* the input: [lo, hi) */
} span;

static void in_input(const span *in, const void *p, uint64_t len) {
    if (len == 0) return; /* an empty view may point anywhere (or be NULL) */
    const uint8_t *q = p;
    FUZZ_ASSERT(q != NULL);
    FUZZ_ASSERT(q >= in->lo && q <= in->hi);
    FUZZ_ASSERT(len <= (uint64_t)(in->hi - q));
}

static volatile uint64_t sink; /* keeps reads from being optimised away */

/* Every accessor on one value: exactly the matching one succeeds. */
static void check_scalar(const lgg_value *v) {
    uint8_t u8; int8_t i8; uint16_t u16; int16_t i16; uint32_t u32; int32_t i32;
    uint64_t u64; int64_t i64; float f32; double f64; bool b; lgg_str s;
    int ok = 0;
    ok += lgg_value_u8(v, &u8) == LGG_OK;
    ok += lgg_value_i8(v, &i8) == LGG_OK;
    ok += lgg_value_u16(v, &u16) == LGG_OK;
    ok += lgg_value_i16(v, &i16) == LGG_OK;
    ok += lgg_value_u32(v, &u32) == LGG_OK;
    ok += lgg_value_i32(v, &i32) == LGG_OK;
    ok += lgg_value_u64(v, &u64) == LGG_OK;
    ok += lgg_value_i64(v, &i64) == LGG_OK;
    ok += lgg_value_f32(v, &f32) == LGG_OK;
    ok += lgg_value_f64(v, &f64) == LGG_OK;
    ok += lgg_value_bool(v, &b) == LGG_OK;
    lgg_status ss = lgg_value_string(v, &s);
    ok += ss == LGG_OK;
    FUZZ_ASSERT(ok == (v->type == LGG_VT_ARRAY ? 0 : 1));
    if (ss == LGG_OK) FUZZ_ASSERT(s.len == v->count && (s.len == 0 || s.ptr == (const char *)v->data));

    lgg_status su = lgg_value_uint(v, &u64);
    lgg_status si = lgg_value_int(v, &i64);
    lgg_status sf = lgg_value_float(v, &f64);
    bool is_int = v->type <= LGG_VT_I32 || v->type == LGG_VT_U64 || v->type == LGG_VT_I64;
    if (!is_int) {
        FUZZ_ASSERT(su == LGG_ERR_TYPE && si == LGG_ERR_TYPE);
        FUZZ_ASSERT(sf == ((v->type == LGG_VT_F32 || v->type == LGG_VT_F64) ? LGG_OK : LGG_ERR_TYPE));
    } else {
        FUZZ_ASSERT(su == LGG_OK || su == LGG_ERR_RANGE);
        FUZZ_ASSERT(si == LGG_OK || si == LGG_ERR_RANGE);
        FUZZ_ASSERT(su == LGG_OK || si == LGG_OK); /* a negative fits int64, a big u64 fits uint64 */
        FUZZ_ASSERT(sf == LGG_OK);
    }
    sink += u64 + (uint64_t)i64;
}

/* One value view: its bytes lie inside the input and agree with its offset. */
static void check_view(const span *in, const lgg_value *v) {
    FUZZ_ASSERT(v->type < LGG_VT_COUNT);
    FUZZ_ASSERT(v->len_width == 4 || v->len_width == 8);
    in_input(in, v->data, v->size);
    if (v->size) FUZZ_ASSERT(v->offset == (uint64_t)(v->data - in->lo));
    size_t esz = lgg_vtype_size(v->type);
    if (esz) FUZZ_ASSERT(v->count == 1 && v->size == esz);
    if (v->type == LGG_VT_STRING) FUZZ_ASSERT(v->size == v->count);
    if (v->type == LGG_VT_ARRAY) {
        FUZZ_ASSERT(v->elem_type < LGG_VT_COUNT);
        size_t es = lgg_vtype_size(v->elem_type);
        if (es) FUZZ_ASSERT(v->size == v->count * es);
    }
    check_scalar(v);
}

#define MAX_STACK 80

/* Walk a value and everything nested in it with an explicit stack. */
static void walk_value(const span *in, const lgg_value *top, uint32_t max_depth) {
    check_view(in, top);
    if (top->type != LGG_VT_ARRAY) return;
    lgg_iter st[MAX_STACK];
    lgg_value arrs[MAX_STACK];
    const uint8_t *mid[MAX_STACK], *last[MAX_STACK];
    int sp = 0;
    arrs[0] = *top;
    lgg_array_iter(top, &st[0]);
    mid[0] = last[0] = NULL;
    sp = 1;
    while (sp) {
        lgg_iter *it = &st[sp - 1];
        const lgg_value *a = &arrs[sp - 1];
        lgg_value e;
        uint64_t idx = it->index;
        if (!lgg_iter_next(it, &e)) {
            /* finished: every element seen, every byte of the array covered */
            FUZZ_ASSERT(it->index == a->count);
            FUZZ_ASSERT(it->pos == a->size);
            FUZZ_ASSERT(lgg_array_get(a, a->count, &e) == LGG_ERR_RANGE);
            if (a->count) {
                lgg_value g;
                FUZZ_ASSERT(lgg_array_get(a, a->count / 2, &g) == LGG_OK && g.data == mid[sp - 1]);
                FUZZ_ASSERT(lgg_array_get(a, a->count - 1, &g) == LGG_OK && g.data == last[sp - 1]);
                FUZZ_ASSERT(lgg_array_get(a, 0, &g) == LGG_OK && g.type == a->elem_type);
            }
            sp--;
            continue;
        }
        FUZZ_ASSERT(e.type == a->elem_type);
        FUZZ_ASSERT(e.data >= a->data && e.data <= a->data + a->size);
        if (idx == a->count / 2) mid[sp - 1] = e.data;
        if (idx == a->count - 1) last[sp - 1] = e.data;
        check_view(in, &e);
        if (e.type == LGG_VT_STRING) {
            for (uint64_t k = 0; k < e.count; k++) sink += (uint8_t)e.data[k];
        }
        if (e.type == LGG_VT_ARRAY) {
            FUZZ_ASSERT(sp < MAX_STACK);
            FUZZ_ASSERT((uint32_t)sp + 1 <= max_depth);
            arrs[sp] = e;
            lgg_array_iter(&e, &st[sp]);
            mid[sp] = last[sp] = NULL;
            sp++;
        }
    }
}

static float deq_buf[1 << 16];

static void check_file(const span *in, lgg_file *f, const lgg_limits *lim) {
    const uint64_t size = (uint64_t)(in->hi - in->lo);
    FUZZ_ASSERT(lgg_file_bytes(f) == in->lo || size == 0);
    FUZZ_ASSERT(lgg_file_size(f) == size);
    uint32_t ver = lgg_file_version(f);
    FUZZ_ASSERT(ver >= 1 && ver <= 3);
    uint64_t al = lgg_file_alignment(f);
    FUZZ_ASSERT(al && (al & (al - 1)) == 0);
    FUZZ_ASSERT(lgg_file_header_size(f) <= lgg_file_data_offset(f));
    /* only a metadata-only file (opened with ALLOW_MISSING_DATA) has its data section past the end */
    const bool meta_only = lgg_file_metadata_only(f);
    FUZZ_ASSERT(lgg_file_data_offset(f) <= size || meta_only);
    FUZZ_ASSERT(lgg_file_data_offset(f) <= lgg_file_data_end(f) && (lgg_file_data_end(f) <= size || meta_only));
    FUZZ_ASSERT(lgg_file_data_end(f) <= lgg_file_expected_size(f));
    const uint64_t nkv = lgg_kv_count(f), nt = lgg_tensor_count(f);
    if (meta_only) FUZZ_ASSERT(nt > 0 && size <= lgg_file_data_offset(f));
    FUZZ_ASSERT(lgg_kv_at(f, nkv) == NULL && lgg_tensor_at(f, nt) == NULL);
    if (lim) FUZZ_ASSERT(nkv <= lim->max_kv && nt <= lim->max_tensors);
    const uint32_t max_depth = lim ? lim->max_depth : LGG_DEFAULT_MAX_DEPTH;

    for (uint64_t i = 0; i < nkv; i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        FUZZ_ASSERT(kv != NULL);
        in_input(in, kv->key.ptr, kv->key.len);
        FUZZ_ASSERT(kv->offset < size);
        if (lim) FUZZ_ASSERT(kv->key.len <= lim->max_string_len);
        int64_t j = lgg_find_key(f, kv->key.ptr, (size_t)kv->key.len);
        FUZZ_ASSERT(j >= 0 && (uint64_t)j <= i);
        const lgg_kv *first = lgg_kv_at(f, (uint64_t)j);
        FUZZ_ASSERT(first->key.len == kv->key.len &&
                    (kv->key.len == 0 || memcmp(first->key.ptr, kv->key.ptr, (size_t)kv->key.len) == 0));
        if (lim && kv->value.type == LGG_VT_STRING) FUZZ_ASSERT(kv->value.count <= lim->max_string_len);
        if (lim && kv->value.type == LGG_VT_ARRAY) FUZZ_ASSERT(kv->value.count <= lim->max_array_len);
        walk_value(in, &kv->value, max_depth);
    }
    lgg_value v;
    if (lgg_get(f, "general.architecture", &v) == LGG_OK) check_view(in, &v);

    for (uint64_t i = 0; i < nt; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        FUZZ_ASSERT(t != NULL);
        in_input(in, t->name.ptr, t->name.len);
        FUZZ_ASSERT(t->n_dims <= LGG_MAX_DIMS);
        if (lim) FUZZ_ASSERT(t->n_dims <= lim->max_dims && t->name.len <= lim->max_string_len);
        uint64_t n = 1;
        for (uint32_t d = 0; d < LGG_MAX_DIMS; d++) {
            FUZZ_ASSERT(t->ne[d] >= 0);
            if (d >= t->n_dims) FUZZ_ASSERT(t->ne[d] == 1);
            FUZZ_ASSERT(!__builtin_mul_overflow(n, (uint64_t)t->ne[d], &n));
        }
        FUZZ_ASSERT(n == t->n_elements);
        FUZZ_ASSERT(lgg_find_tensor(f, t->name.ptr, (size_t)t->name.len) == (int64_t)i);
        if (!t->type_known) {
            FUZZ_ASSERT(t->size == 0 && t->data == NULL && !lgg_type_is_valid(t->type));
            continue;
        }
        uint64_t bytes;
        FUZZ_ASSERT(lgg_type_nbytes(t->type, t->n_elements, &bytes) == LGG_OK && bytes == t->size);
        FUZZ_ASSERT(t->offset % al == 0 || lgg_file_layout_error(f, NULL)); /* opened for inspection */
        if (!t->data_available) {
            FUZZ_ASSERT(t->data == NULL);
            continue;
        }
        FUZZ_ASSERT(t->file_offset >= lgg_file_data_offset(f) && t->file_offset <= lgg_file_data_end(f));
        FUZZ_ASSERT(t->file_offset - lgg_file_data_offset(f) == t->offset);
        FUZZ_ASSERT(t->size <= lgg_file_data_end(f) - t->file_offset);
        in_input(in, t->data, t->size);
        if (t->size) FUZZ_ASSERT((const uint8_t *)t->data == in->lo + t->file_offset);
        /* no two tensors' data overlap (quadratic, so only for a few) */
        for (uint64_t k = 0; k < i && nt <= 64; k++) {
            const lgg_tensor *o = lgg_tensor_at(f, k);
            if (!o->data_available || !o->size || !t->size) continue;
            FUZZ_ASSERT(o->file_offset + o->size <= t->file_offset || t->file_offset + t->size <= o->file_offset);
        }
        /* dequantize a row, and small tensors whole */
        const uint64_t cap = sizeof deq_buf / sizeof deq_buf[0];
        if (t->ne[0] > 0 && (uint64_t)t->ne[0] <= cap) {
            uint64_t rows = t->n_elements / (uint64_t)t->ne[0];
            lgg_status s = lgg_dequantize_rows(f, t, 0, rows ? 1 : 0, deq_buf, cap);
            FUZZ_ASSERT(s == LGG_OK);
            FUZZ_ASSERT(lgg_dequantize_rows(f, t, rows, rows + 1, deq_buf, cap) == LGG_ERR_RANGE);
            if (rows) sink += (uint64_t)isnan(deq_buf[0]);
        }
        if (t->n_elements <= cap) {
            lgg_status s = lgg_dequantize_tensor(f, t, deq_buf, cap, 1);
            FUZZ_ASSERT(s == LGG_OK);
        }
    }
    uint64_t np = lgg_parameter_count(f);
    char label[32];
    FUZZ_ASSERT(lgg_size_label(np, (uint32_t)(np & 15), label, sizeof label) < sizeof label);
    if (lgg_get(f, "general.file_type", &v) == LGG_OK) {
        uint64_t ft;
        if (lgg_value_uint(&v, &ft) == LGG_OK) sink += (uint64_t)(uintptr_t)lgg_file_type_name((uint32_t)ft);
    }

    /* validation, plain and strict, with a file name to check */
    static const char *const names[] = {NULL, "Mixtral-8x7B-Instruct-v0.1-Q4_K_M-00001-of-00003.gguf"};
    for (int k = 0; k < 2; k++) {
        lgg_validate_options vo = {.flags = k ? LGG_VALIDATE_STRICT : 0, .file_name = names[k]};
        lgg_report *r = NULL;
        FUZZ_ASSERT(lgg_validate(f, &vo, &r) == LGG_OK && r != NULL);
        size_t n = lgg_report_count(r), errs = 0;
        for (size_t i = 0; i < n; i++) {
            const lgg_finding *fd = lgg_report_at(r, i);
            FUZZ_ASSERT(fd != NULL);
            FUZZ_ASSERT(memchr(fd->message, 0, sizeof fd->message) != NULL);
            FUZZ_ASSERT(fd->severity <= LGG_SEV_NOTE && fd->check <= LGG_CHECK_MISSING_DATA);
            FUZZ_ASSERT(fd->check != LGG_CHECK_STRUCTURE);
            /* a file-name finding is a warning without an offset, under strict too */
            if (fd->check == LGG_CHECK_FILE_NAME)
                FUZZ_ASSERT(fd->severity == LGG_SEV_WARNING && fd->offset == LGG_NO_OFFSET);
            else if (k) FUZZ_ASSERT(fd->severity != LGG_SEV_WARNING);
            errs += fd->severity == LGG_SEV_ERROR;
        }
        FUZZ_ASSERT(lgg_report_at(r, n) == NULL);
        FUZZ_ASSERT(lgg_report_count_severity(r, LGG_SEV_ERROR) == errs);
        lgg_report_free(r);
    }

    /* the load check (gguf validate --load): a verdict, and issues exactly when refused */
    static lgg_load_check lc;
    lgg_error le;
    FUZZ_ASSERT(lgg_load_check_file(f, &lc, &le) == LGG_OK);
    FUZZ_ASSERT(lc.verdict <= LGG_LOAD_NO_TABLE && memchr(lc.arch, 0, sizeof lc.arch) != NULL);
    FUZZ_ASSERT((lc.verdict == LGG_LOAD_REFUSED) == (lc.n_issues > 0));
    for (uint32_t i = 0; i < lc.n_issues && i < LGG_LOAD_MAX_ISSUES; i++) {
        const lgg_load_issue *is = &lc.issues[i];
        FUZZ_ASSERT(lgg_load_problem_name(is->problem) != NULL);
        FUZZ_ASSERT(memchr(is->name, 0, sizeof is->name) && memchr(is->expected, 0, sizeof is->expected) &&
                    memchr(is->found, 0, sizeof is->found));
    }
}

static bool structural(lgg_status s) {
    return s == LGG_ERR_MAGIC || s == LGG_ERR_VERSION || s == LGG_ERR_TRUNCATED || s == LGG_ERR_LIMIT ||
           s == LGG_ERR_VALUE_TYPE || s == LGG_ERR_NESTING || s == LGG_ERR_ALIGNMENT ||
           (s >= LGG_ERR_TENSOR_DUP && s <= LGG_ERR_TENSOR_OVERLAP);
}

/* Open with `o`; check the outcome; returns the status. */
static lgg_status open_and_check(const span *in, const lgg_open_options *o, const lgg_limits *lim) {
    lgg_file *f = (lgg_file *)(uintptr_t)1; /* must be overwritten */
    lgg_error e;
    memset(&e, 0x5a, sizeof e);
    const size_t size = (size_t)(in->hi - in->lo);
    lgg_status s = lgg_open_memory(size ? in->lo : NULL, size, o, &f, &e);
    if (s != LGG_OK) {
        FUZZ_ASSERT(f == NULL);
        FUZZ_ASSERT(e.code == s);
        FUZZ_ASSERT(structural(s));
        FUZZ_ASSERT(memchr(e.message, 0, sizeof e.message) != NULL && e.message[0] != 0);
        FUZZ_ASSERT(e.offset == LGG_NO_OFFSET || e.offset <= size);
        FUZZ_ASSERT(strcmp(lgg_status_name(s), "unknown") != 0);
        lgg_report *r = lgg_report_from_error(&e, NULL);
        FUZZ_ASSERT(r != NULL && lgg_report_count(r) == 1);
        FUZZ_ASSERT(lgg_report_at(r, 0)->check == LGG_CHECK_STRUCTURE);
        lgg_report_free(r);
        /* NULL err is allowed and gives the same answer */
        lgg_file *g = NULL;
        FUZZ_ASSERT(lgg_open_memory(size ? in->lo : NULL, size, o, &g, NULL) == s && g == NULL);
        return s;
    }
    FUZZ_ASSERT(f != NULL);
    check_file(in, f, lim);
    lgg_close(f);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    span in = {data, data + size};
    lgg_open_options o;

    /* defaults */
    lgg_open_options_init(&o);
    lgg_limits def = {LGG_DEFAULT_MAX_STRING_LEN, LGG_DEFAULT_MAX_ARRAY_LEN, LGG_DEFAULT_MAX_DEPTH,
                      LGG_DEFAULT_MAX_KV, LGG_DEFAULT_MAX_TENSORS, LGG_MAX_DIMS};
    lgg_status s_def = open_and_check(&in, NULL, &def);

    /* tiny limits: whatever opens must respect them */
    lgg_limits tiny = {16, 8, 2, 4, 2, 2};
    o.limits = tiny;
    lgg_status s_tiny = open_and_check(&in, &o, &tiny);
    if (s_def != LGG_OK) FUZZ_ASSERT(s_tiny != LGG_OK); /* tighter limits never accept more */

    /* the deepest nesting allowed (64), one level of limits */
    lgg_open_options_init(&o);
    o.limits.max_depth = 1000; /* clamped to the ceiling */
    lgg_limits deep = def;
    deep.max_depth = 64;
    lgg_status s_deep = open_and_check(&in, &o, &deep);
    if (s_def == LGG_OK) FUZZ_ASSERT(s_deep == LGG_OK);

    /* partial downloads: opens whatever opens by default, and maybe more */
    lgg_open_options_init(&o);
    o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
    lgg_status s_miss = open_and_check(&in, &o, &def);
    if (s_def == LGG_OK) FUZZ_ASSERT(s_miss == LGG_OK);
    if (s_miss != LGG_OK && s_def != LGG_OK) FUZZ_ASSERT(s_miss == s_def || s_def == LGG_ERR_TRUNCATED);

    /* inspection (gguf info/dump/tensors): also opens a file that is bad only
     * in where its tensor data lies, keeping that error and no data */
    lgg_open_options_init(&o);
    o.flags = LGG_OPEN_ALLOW_MISSING_DATA | LGG_OPEN_ALLOW_BAD_LAYOUT;
    lgg_status s_insp = open_and_check(&in, &o, &def);
    const bool layout =
        s_miss == LGG_ERR_TENSOR_BOUNDS || s_miss == LGG_ERR_TENSOR_ALIGN || s_miss == LGG_ERR_TENSOR_OVERLAP;
    /* a layout error no longer stops the checks: a later, other problem may */
    if (!layout) FUZZ_ASSERT(s_insp == s_miss);
    else FUZZ_ASSERT(s_insp == LGG_OK || (s_insp != LGG_ERR_TENSOR_BOUNDS && s_insp != LGG_ERR_TENSOR_ALIGN &&
                                          s_insp != LGG_ERR_TENSOR_OVERLAP));
    if (s_insp == LGG_OK) {
        lgg_file *f = NULL;
        lgg_error e;
        FUZZ_ASSERT(lgg_open_memory(size ? data : NULL, size, &o, &f, NULL) == LGG_OK);
        FUZZ_ASSERT(lgg_file_layout_error(f, &e) == layout && (!layout || e.code == s_miss));
        for (uint64_t i = 0; layout && i < lgg_tensor_count(f); i++)
            FUZZ_ASSERT(!lgg_tensor_at(f, i)->data_available && lgg_file_load_tensor(f, i, NULL) == s_miss);
        lgg_close(f);
    }
    return 0;
}
