/* fuzz_split.c -- split then merge, on arbitrary files.
 *
 * Input: byte 0 chooses the limit (even: at most 1 + (byte>>1) % 8 tensors
 * per shard; odd: at most bytes 1..2 as a size in units of 64 bytes); the
 * rest is a GGUF file.  A file that opens and can be copied is first made
 * canonical (lgg_writer_from_file written little-endian v3); the canonical
 * copy is split into shards written to memory files, the shards are opened
 * again, checked as a set and merged, and the merge must equal the
 * canonical copy byte for byte (for files without split.* keys: those are
 * the set's own, and a round trip drops them as gguf-split does).  The plan
 * must tile the tensors in order, obey the limit (a lone oversized tensor
 * excepted) and predict each shard's size exactly.  Any file that opens
 * also gets its recommended name (lgg_recommended_name) built.  Removing one shard, or giving the shards out of
 * order, must make the merge check fail. */
#include "fuzz.h"
#include "libgguf.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Write `w` into a new buffer (malloc'd) through a memory file. */
static uint8_t *write_mem(const lgg_writer *w, size_t *n, lgg_status *st) {
    int fd = memfd_create("fuzz_split", 0);
    FUZZ_ASSERT(fd >= 0);
    uint64_t written = 0;
    lgg_error err;
    *st = lgg_writer_write_fd(w, fd, NULL, &written, &err);
    uint8_t *out = NULL;
    if (*st == LGG_OK) {
        out = malloc(written ? (size_t)written : 1);
        FUZZ_ASSERT(out && pread(fd, out, (size_t)written, 0) == (ssize_t)written);
        *n = (size_t)written;
    }
    close(fd);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    lgg_split_options so;
    lgg_split_options_init(&so);
    if (data[0] & 1) so.max_size = (uint64_t)(1 + (data[1] | data[2] << 8)) * 64;
    else so.max_tensors = 1 + (data[0] >> 1) % 8;
    const bool py = data[0] & 0x80; /* gguf-py's layout: another key order and size rule */
    if (py) so.flags |= LGG_SPLIT_GGUF_PY;
    lgg_file *f = NULL;
    if (lgg_open_memory(data + 3, size - 3, NULL, &f, NULL) != LGG_OK) return 0;
    /* the recommended name of any file that opens: snprintf's contract */
    size_t need = lgg_recommended_name(f, NULL, 0);
    char *nm = malloc(need + 1);
    FUZZ_ASSERT(nm && lgg_recommended_name(f, nm, need + 1) == need && strlen(nm) == need);
    FUZZ_ASSERT(need >= 5 && memcmp(nm + need - 5, ".gguf", 5) == 0);
    if (need > 1) {
        FUZZ_ASSERT(lgg_recommended_name(f, nm, need) == need && nm[0] == 0);
    }
    free(nm);
    lgg_writer *w = NULL;
    lgg_status st;
    uint8_t *canon = NULL;
    size_t cn = 0;
    /* huge alignments make huge padding: not what this target is about */
    /* the split keys are the set's own: a file that has any loses them in a
     * round trip, as with gguf-split */
    bool has_split_keys = lgg_find_key_cstr(f, "split.count") >= 0 || lgg_find_key_cstr(f, "split.no") >= 0 ||
                          lgg_find_key_cstr(f, "split.tensors.count") >= 0;
    if (lgg_file_alignment(f) <= 65536 && !has_split_keys &&
        lgg_writer_from_file(f, -1, NULL, 0, &w, NULL) == LGG_OK)
        canon = write_mem(w, &cn, &st);
    lgg_writer_free(w);
    lgg_close(f);
    if (!canon) return 0;

    lgg_file *c = NULL;
    FUZZ_ASSERT(lgg_open_memory(canon, cn, NULL, &c, NULL) == LGG_OK);
    lgg_split_plan *plan = NULL;
    lgg_error err;
    st = lgg_split_plan_make(c, &so, &plan, &err);
    if (st != LGG_OK) {
        FUZZ_ASSERT(st == LGG_ERR_LIMIT || st == LGG_ERR_RANGE);
        lgg_close(c);
        free(canon);
        return 0;
    }
    uint32_t n = lgg_split_plan_count(plan);
    FUZZ_ASSERT(n >= 1);
    uint8_t **bytes = calloc(n, sizeof *bytes);
    size_t *len = calloc(n, sizeof *len);
    lgg_file **shards = calloc(n, sizeof *shards);
    FUZZ_ASSERT(bytes && len && shards);
    uint64_t next = 0, align = lgg_file_alignment(c);
    for (uint32_t i = 0; i < n; i++) {
        const lgg_shard *sh = lgg_split_plan_shard(plan, i);
        FUZZ_ASSERT(sh && sh->first_tensor == next);
        FUZZ_ASSERT(sh->n_tensors > 0 || lgg_tensor_count(c) == 0);
        next += sh->n_tensors;
        if (so.max_tensors) FUZZ_ASSERT(sh->n_tensors <= so.max_tensors);
        if (so.max_size && sh->n_tensors > 1) {
            uint64_t sum = 0;
            for (uint64_t t = sh->first_tensor; t < next; t++) {
                const uint64_t sz = lgg_tensor_at(c, t)->size;
                sum += py ? sz : (sz + align - 1) / align * align;
            }
            FUZZ_ASSERT(sum <= so.max_size);
        }
        lgg_writer *sw = NULL;
        FUZZ_ASSERT(lgg_split_shard_writer(c, -1, plan, i, &sw, &err) == LGG_OK);
        bytes[i] = write_mem(sw, &len[i], &st);
        FUZZ_ASSERT(st == LGG_OK);
        FUZZ_ASSERT(len[i] == sh->size);
        lgg_writer_free(sw);
        st = lgg_open_memory(bytes[i], len[i], NULL, &shards[i], &err);
        if (st != LGG_OK) fprintf(stderr, "shard %u does not open: %s\n", i, err.message);
        FUZZ_ASSERT(st == LGG_OK);
    }
    FUZZ_ASSERT(next == lgg_tensor_count(c));

    lgg_writer *mw = NULL;
    st = lgg_merge_writer((const lgg_file *const *)shards, NULL, n, NULL, &mw, &err);
    if (st != LGG_OK) fprintf(stderr, "merge: %s\n", err.message);
    FUZZ_ASSERT(st == LGG_OK);
    size_t mn = 0;
    uint8_t *merged = write_mem(mw, &mn, &st);
    FUZZ_ASSERT(st == LGG_OK && mn == cn && memcmp(merged, canon, cn) == 0);
    free(merged);
    lgg_writer_free(mw);

    if (n > 1) {
        /* an incomplete set, and a set out of order, are refused */
        FUZZ_ASSERT(lgg_merge_check((const lgg_file *const *)shards, n - 1, NULL) != LGG_OK);
        lgg_file *t = shards[0];
        shards[0] = shards[n - 1];
        shards[n - 1] = t;
        FUZZ_ASSERT(lgg_merge_check((const lgg_file *const *)shards, n, NULL) != LGG_OK);
    }
    for (uint32_t i = 0; i < n; i++) {
        lgg_close(shards[i]);
        free(bytes[i]);
    }
    free(shards);
    free(bytes);
    free(len);
    lgg_split_plan_free(plan);
    lgg_close(c);
    free(canon);
    return 0;
}
