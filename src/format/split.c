/* split.c -- splitting a file into shards and merging shards back, in the
 * layout llama.cpp's gguf-split uses, so that its shards load anywhere
 * llama.cpp's do and a merge gives back the file before the split.
 *
 * A shard set: every metadata pair in the first shard; in every shard the
 * keys split.no (u16, 0-based), split.tensors.count (i32, tensors in the
 * whole set) and split.count (u16), appended in that order (gguf-split
 * sets split.count last, after it knows the count, which moves it behind
 * split.tensors.count); tensors in the input's order.
 *
 * LGG_SPLIT_GGUF_PY gives the other layout in use, that of gguf-py's writer
 * (convert_hf_to_gguf.py --split-max-*): the keys in the order split.no,
 * split.count, split.tensors.count, and a size limit on the tensors' data
 * without their padding. */
#include "format/file.h"
#include "format/writer.h"

#include <stdio.h>

#define KEY_NO "split.no"
#define KEY_COUNT "split.count"
#define KEY_TENSORS "split.tensors.count"
#define DEFAULT_ALIGNMENT 32u
/* split.count is a u16; shard numbers are written with five digits */
#define MAX_SHARDS 65535u

struct lgg_split_plan {
    const lgg_allocator *alloc;
    lgg_allocator alloc_copy;
    uint32_t n;
    uint32_t flags; /* LGG_SPLIT_* */
    lgg_shard *shards;
};

static bool is_split_key(const char *k, uint64_t n) {
    return (n == sizeof KEY_NO - 1 && !memcmp(k, KEY_NO, n)) || (n == sizeof KEY_COUNT - 1 && !memcmp(k, KEY_COUNT, n)) ||
           (n == sizeof KEY_TENSORS - 1 && !memcmp(k, KEY_TENSORS, n));
}

static bool is_alignment_key(const char *k, uint64_t n) { return n == 17 && !memcmp(k, "general.alignment", 17); }

static uint64_t pad_up(uint64_t n, uint64_t a, bool *ovf) {
    uint64_t r = n % a, out = n;
    if (r && lgg__add_ovf(n, a - r, &out)) *ovf = true;
    return out;
}

/* ---- split ------------------------------------------------------------------ */

void lgg_split_options_init(lgg_split_options *o) {
    if (o) *o = (lgg_split_options)LGG_SPLIT_OPTIONS_INIT;
}

static lgg_status shard_writer(const lgg_file *f, int fd, const lgg_split_plan *p, uint32_t index, uint64_t first,
                               uint64_t n, lgg_writer **out, lgg_error *err) {
    const uint32_t count = p->n;
    lgg_writer *w;
    lgg_status s = lgg_writer_create(p->alloc, &w, err);
    if (s) return s;
    uint64_t align = lgg_file_alignment(f);
    if (index == 0) {
        /* gguf-split re-sets the split keys after copying the metadata, so
         * split keys the input already has move behind the others */
        for (uint64_t i = 0; i < lgg_kv_count(f) && !s; i++) {
            const lgg_kv *kv = lgg_kv_at(f, i);
            if (is_split_key(kv->key.ptr, kv->key.len)) continue;
            s = lgg__writer_append_value(w, kv->key.ptr, kv->key.len, &kv->value, err);
        }
    } else if (align != DEFAULT_ALIGNMENT) {
        /* readers must find this shard's data where it is: the one key a later
         * shard needs besides the split keys */
        s = lgg_writer_set_u32(w, "general.alignment", (uint32_t)align, err);
    }
    uint16_t no = (uint16_t)index, cnt = (uint16_t)count;
    int32_t total = (int32_t)lgg_tensor_count(f);
    lgg_wvalue v_no = {LGG_VT_U16, 0, 1, &no}, v_cnt = {LGG_VT_U16, 0, 1, &cnt}, v_tot = {LGG_VT_I32, 0, 1, &total};
    const bool py = p->flags & LGG_SPLIT_GGUF_PY;
    if (!s) s = lgg_writer_set(w, KEY_NO, sizeof KEY_NO - 1, &v_no, err);
    if (!s && py) s = lgg_writer_set(w, KEY_COUNT, sizeof KEY_COUNT - 1, &v_cnt, err);
    if (!s) s = lgg_writer_set(w, KEY_TENSORS, sizeof KEY_TENSORS - 1, &v_tot, err);
    if (!s && !py) s = lgg_writer_set(w, KEY_COUNT, sizeof KEY_COUNT - 1, &v_cnt, err);
    for (uint64_t i = first; i < first + n && !s; i++) s = lgg_writer_add_tensor_from_file(w, f, fd, i, err);
    if (s) {
        lgg_writer_free(w);
        return s;
    }
    w->src_fd = fd; /* so that no shard can be written onto the input */
    *out = w;
    return LGG_OK;
}

/* What a split can take: one of the two limits, counts that fit the keys,
 * tensors whose data can be copied. */
static lgg_status check_splittable(const lgg_file *f, const lgg_split_options *opts, lgg_error *err) {
    if ((opts->max_tensors == 0) == (opts->max_size == 0))
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "give exactly one of max_tensors and max_size");
    uint64_t nt = lgg_tensor_count(f);
    if (nt > (uint64_t)INT32_MAX)
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "%llu tensors do not fit split.tensors.count (i32)",
                         (unsigned long long)nt);
    uint64_t align = lgg_file_alignment(f);
    if (align > UINT32_MAX)
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "general.alignment %llu does not fit 32 bits",
                         (unsigned long long)align);
    for (uint64_t i = 0; i < nt; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        if (!t->type_known || (!t->data_available && !f->described)) {
            char q[160];
            lgg__quote(q, sizeof q, t->name.ptr, t->name.len, 120);
            return lgg__fail(err, LGG_ERR_UNSUPPORTED, t->info_offset, "tensor '%s' has %s; it cannot be copied", q,
                             t->type_known ? "no data in the file" : "an unknown or removed type");
        }
    }
    return LGG_OK;
}

/* Does tensor i start a new shard that holds in_shard tensors and `bytes`
 * of data so far?  *padded is its padded size (by size limit only).
 * gguf-split's rule: a tensor that would take the shard's data (each tensor
 * padded) past the limit starts a new shard.  A shard never starts empty,
 * so a tensor larger than the limit gets a shard of its own (gguf-split
 * refuses that for the first tensor only).  gguf-py's rule is the same on
 * the tensors' sizes without padding. */
static bool starts_shard(const lgg_file *f, const lgg_split_options *opts, uint64_t i, uint64_t in_shard,
                         uint64_t bytes, uint64_t *padded) {
    *padded = 0;
    if (i == lgg_tensor_count(f)) return false;
    if (opts->max_tensors) return in_shard == opts->max_tensors;
    bool ovf = false;
    const uint64_t size = lgg_tensor_at(f, i)->size;
    *padded = opts->flags & LGG_SPLIT_GGUF_PY ? size : pad_up(size, lgg_file_alignment(f), &ovf);
    uint64_t next;
    return in_shard > 0 && (ovf || lgg__add_ovf(bytes, *padded, &next) || next > opts->max_size);
}

/* Cut the tensors into shards: counts them (shards NULL) or records them. */
static lgg_status cut_shards(const lgg_file *f, const lgg_split_options *opts, lgg_shard *shards, uint32_t *n_out,
                             lgg_error *err) {
    const uint64_t nt = lgg_tensor_count(f);
    uint32_t n = 0;
    uint64_t in_shard = 0, bytes = 0;
    for (uint64_t i = 0; i <= nt; i++) {
        uint64_t padded;
        const bool start = starts_shard(f, opts, i, in_shard, bytes, &padded);
        if (i == 0 && nt > 0 && (opts->flags & LGG_SPLIT_NO_TENSOR_FIRST)) {
            /* gguf-split's --no-tensor-first-split: a first shard of metadata
             * alone, so it can be read without the weights */
            if (shards) shards[n].first_tensor = 0, shards[n].n_tensors = 0;
            n++;
        }
        if (i == 0 || start) {
            if (n == MAX_SHARDS) return lgg__fail(err, LGG_ERR_LIMIT, LGG_NO_OFFSET, "more than %u shards", MAX_SHARDS);
            if (shards) shards[n].first_tensor = i;
            n++;
            in_shard = 0;
            bytes = 0;
        }
        if (i == nt) break;
        in_shard++;
        bytes += padded; /* cannot overflow: checked against max_size above */
        if (shards) shards[n - 1].n_tensors = in_shard;
    }
    *n_out = nt == 0 ? 1 : n;
    return LGG_OK;
}

lgg_status lgg_split_plan_make(const lgg_file *f, const lgg_split_options *opts, lgg_split_plan **out,
                               lgg_error *err) {
    if (!f || !opts || !out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    *out = NULL;
    LGG__OPTIONS_IN(lgg_split_options, opts, err)
    lgg_status s = check_splittable(f, opts, err);
    if (s) return s;
    lgg_split_plan *p = lgg__calloc(opts->allocator, 1, sizeof *p);
    if (!p) return lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
    if (opts->allocator) {
        p->alloc_copy = *opts->allocator;
        p->alloc = &p->alloc_copy;
    }
    uint32_t n = 0;
    if ((s = cut_shards(f, opts, NULL, &n, err))) goto fail;
    if (!(p->shards = lgg__calloc(p->alloc, n, sizeof *p->shards))) {
        s = lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        goto fail;
    }
    p->n = n;
    p->flags = opts->flags;
    if ((s = cut_shards(f, opts, p->shards, &n, err))) goto fail;
    for (uint32_t i = 0; i < p->n; i++) {
        lgg_writer *w;
        if ((s = shard_writer(f, -1, p, i, p->shards[i].first_tensor, p->shards[i].n_tensors, &w, err)))
            goto fail;
        lgg_write_options wo;
        lgg_write_options_init(&wo);
        wo.endian = lgg_file_endian(f);
        s = lgg_writer_file_size(w, &wo, &p->shards[i].size, err);
        lgg_writer_free(w);
        if (s) goto fail;
    }
    *out = p;
    return LGG_OK;
fail:
    lgg_split_plan_free(p);
    return s;
}

uint32_t lgg_split_plan_count(const lgg_split_plan *p) { return p ? p->n : 0; }

const lgg_shard *lgg_split_plan_shard(const lgg_split_plan *p, uint32_t i) {
    return p && i < p->n ? &p->shards[i] : NULL;
}

void lgg_split_plan_free(lgg_split_plan *p) {
    if (!p) return;
    lgg_allocator copy = p->alloc_copy;
    const lgg_allocator *a = p->alloc ? &copy : NULL;
    lgg__free(a, p->shards);
    lgg__free(a, p);
}

lgg_status lgg_split_shard_writer(const lgg_file *f, int fd, const lgg_split_plan *p, uint32_t index,
                                  lgg_writer **out, lgg_error *err) {
    if (!f || !p || !out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    *out = NULL;
    if (index >= p->n)
        return lgg__fail(err, LGG_ERR_RANGE, LGG_NO_OFFSET, "shard %u of a plan of %u", index, p->n);
    const lgg_shard *sh = &p->shards[index];
    if (sh->first_tensor > lgg_tensor_count(f) || sh->n_tensors > lgg_tensor_count(f) - sh->first_tensor)
        return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "the plan was made for another file");
    return shard_writer(f, fd, p, index, sh->first_tensor, sh->n_tensors, out, err);
}

/* ---- merge ------------------------------------------------------------------ */

/* An integer split key of shard i, or a failure naming it. */
static lgg_status split_int(const lgg_file *f, uint32_t i, const char *key, int64_t *v, lgg_error *err) {
    int64_t k = lgg_find_key_cstr(f, key);
    if (k < 0) return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "shard %u has no %s", i + 1, key);
    const lgg_kv *kv = lgg_kv_at(f, (uint64_t)k);
    if (lgg_value_int(&kv->value, v))
        return lgg__fail(err, LGG_ERR_INVALID, kv->offset, "shard %u: %s is a %s, not an integer", i + 1, key,
                         lgg_vtype_name(kv->value.type) ? lgg_vtype_name(kv->value.type) : "?");
    return LGG_OK;
}

lgg_status lgg_merge_check(const lgg_file *const *shards, uint32_t n, lgg_error *err) {
    if (!shards || n == 0) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "no shards");
    for (uint32_t i = 0; i < n; i++)
        if (!shards[i]) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "shard %u is NULL", i + 1);
    int64_t count, total;
    lgg_status s;
    if ((s = split_int(shards[0], 0, KEY_COUNT, &count, err))) return s;
    if (count != (int64_t)n)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "the first shard says split.count %lld, %u shards given",
                         (long long)count, n);
    if ((s = split_int(shards[0], 0, KEY_TENSORS, &total, err))) return s;
    uint64_t sum = 0;
    lgg_endian e = lgg_file_endian(shards[0]);
    for (uint32_t i = 0; i < n; i++) {
        const lgg_file *f = shards[i];
        int64_t no, c, t;
        if ((s = split_int(f, i, KEY_NO, &no, err)) || (s = split_int(f, i, KEY_COUNT, &c, err)) ||
            (s = split_int(f, i, KEY_TENSORS, &t, err)))
            return s;
        if (no != (int64_t)i)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "shard %u says split.no %lld (shard %lld of the set)",
                             i + 1, (long long)no, (long long)no + 1);
        if (c != count)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                             "shard %u says split.count %lld, the first shard says %lld", i + 1, (long long)c,
                             (long long)count);
        if (t != total)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET,
                             "shard %u says split.tensors.count %lld, the first shard says %lld", i + 1, (long long)t,
                             (long long)total);
        if (lgg_file_endian(f) != e)
            return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "shard %u is %s-endian, the first shard is %s-endian",
                             i + 1, lgg_file_endian(f) == LGG_BIG_ENDIAN ? "big" : "little",
                             e == LGG_BIG_ENDIAN ? "big" : "little");
        if (i > 0)
            for (uint64_t k = 0; k < lgg_kv_count(f); k++) {
                const lgg_kv *kv = lgg_kv_at(f, k);
                if (is_split_key(kv->key.ptr, kv->key.len) || is_alignment_key(kv->key.ptr, kv->key.len)) continue;
                char q[160];
                lgg__quote(q, sizeof q, kv->key.ptr, kv->key.len, 120);
                return lgg__fail(err, LGG_ERR_INVALID, kv->offset,
                                 "shard %u has metadata key '%s': metadata belongs in the first shard only", i + 1, q);
            }
        for (uint64_t k = 0; k < lgg_tensor_count(f); k++) {
            const lgg_tensor *t1 = lgg_tensor_at(f, k);
            /* a header-only file (a shard on a server) reads its data when asked:
             * its placement was checked against the size at open */
            if (!t1->type_known || (!t1->data_available && !lgg_file_header_only(f))) {
                char q[160];
                lgg__quote(q, sizeof q, t1->name.ptr, t1->name.len, 120);
                return lgg__fail(err, LGG_ERR_UNSUPPORTED, t1->info_offset,
                                 "shard %u: tensor '%s' has %s; it cannot be copied", i + 1, q,
                                 t1->type_known ? "no data in the file" : "an unknown or removed type");
            }
            /* within a shard names are unique (open checks it); across shards
             * each earlier shard's name index answers */
            for (uint32_t j = 0; j < i; j++)
                if (lgg_find_tensor(shards[j], t1->name.ptr, (size_t)t1->name.len) >= 0) {
                    char q[160];
                    lgg__quote(q, sizeof q, t1->name.ptr, t1->name.len, 120);
                    return lgg__fail(err, LGG_ERR_TENSOR_DUP, t1->info_offset, "tensor '%s' is in shard %u and shard %u",
                                     q, j + 1, i + 1);
                }
        }
        sum += lgg_tensor_count(f);
    }
    if (total < 0 || sum != (uint64_t)total)
        return lgg__fail(err, LGG_ERR_INVALID, LGG_NO_OFFSET, "the shards hold %llu tensors, split.tensors.count says %lld",
                         (unsigned long long)sum, (long long)total);
    return LGG_OK;
}

lgg_status lgg_merge_writer(const lgg_file *const *shards, const int *fds, uint32_t n, const lgg_allocator *allocator,
                            lgg_writer **out, lgg_error *err) {
    if (!out) return lgg__fail(err, LGG_ERR_ARG, LGG_NO_OFFSET, "NULL argument");
    *out = NULL;
    lgg_status s = lgg_merge_check(shards, n, err);
    if (s) return s;
    lgg_writer *w;
    if ((s = lgg_writer_create(allocator, &w, err))) return s;
    const lgg_file *first = shards[0];
    for (uint64_t i = 0; i < lgg_kv_count(first) && !s; i++) {
        const lgg_kv *kv = lgg_kv_at(first, i);
        if (is_split_key(kv->key.ptr, kv->key.len)) continue;
        s = lgg__writer_append_value(w, kv->key.ptr, kv->key.len, &kv->value, err);
    }
    for (uint32_t i = 0; i < n && !s; i++)
        for (uint64_t k = 0; k < lgg_tensor_count(shards[i]) && !s; k++)
            s = lgg_writer_add_tensor_from_file(w, shards[i], fds ? fds[i] : -1, k, err);
    if (!s && fds) {
        w->in_fds = lgg__calloc(w->alloc, n, sizeof *w->in_fds);
        if (!w->in_fds) s = lgg__fail(err, LGG_ERR_NOMEM, LGG_NO_OFFSET, "out of memory");
        else
            for (uint32_t i = 0; i < n; i++)
                if (fds[i] >= 0) w->in_fds[w->n_in_fds++] = fds[i];
    }
    if (s) {
        lgg_writer_free(w);
        return s;
    }
    *out = w;
    return LGG_OK;
}
