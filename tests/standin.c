/* standin.c -- stand-ins for the reference models (standin.h): each one is
 * the reference's header followed by data made from a seed, the same for
 * a tensor's name in every file (so a shard holds what the whole file holds,
 * and the Q8_0 model is the Q8_0 of the f16 one's values). */
#include "standin.h"

#include "golden.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define STANDIN_DATA "tests/data/golden/standin"

void swap_blocks_to_big(const lgg_type_info *ti, uint8_t *p, size_t nblocks) {
    for (size_t b = 0; b < nblocks; b++)
        for (int f = 0; f < ti->n_fields; f++) {
            uint8_t *q = p + b * ti->type_size + ti->fields[f].offset;
            for (int c = 0; c < ti->fields[f].count; c++, q += ti->fields[f].width)
                for (int k = 0; k < ti->fields[f].width / 2; k++) {
                    uint8_t t = q[k];
                    q[k] = q[ti->fields[f].width - 1 - k];
                    q[ti->fields[f].width - 1 - k] = t;
                }
        }
}

/* Values in [-0.05, 0.05) that an f16 holds exactly, from the name's seed. */
static void seeded_values(const lgg_str *name, float *x, uint64_t n) {
    uint64_t s = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < name->len; i++) s = (s ^ (uint8_t)name->ptr[i]) * 0x100000001b3ull;
    for (uint64_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const float v = (float)((double)(s >> 11) / 9007199254740992.0 - 0.5) * 0.1f;
        x[i] = lgg_f16_to_f32(lgg_f32_to_f16(v));
    }
}

void pyswap_q8_0(const lgg_tensor *t, uint8_t *p) {
    const uint64_t rows = t->n_elements / (uint64_t)t->ne[0], row = t->size / rows;
    for (uint64_t k = 0; k < rows / 34; k++)
        for (uint64_t i = 0; i + 1 < 2 * row; i += 2) {
            uint8_t *q = p + 34 * k * row + i, c = q[0];
            q[0] = q[1], q[1] = c;
        }
}

/* Tensor T's seeded data, in the file's type and byte order, at DST
 * (PYSWAP: a Q8_0 one swapped as gguf-py's converter swapped it). */
static bool fill_tensor(const lgg_file *f, const lgg_tensor *t, uint8_t *dst, bool pyswap) {
    const lgg_type_info *ti = lgg_type_get(t->type);
    float *x = malloc(t->n_elements * sizeof(float) + 1);
    if (!ti || !ti->type_size || !x) {
        free(x);
        return false;
    }
    seeded_values(&t->name, x, t->n_elements);
    bool ok = true;
    if (t->type == LGG_TYPE_F32) {
        memcpy(dst, x, t->size);
    } else {
        const int64_t per_row = t->ne[0];
        size_t written = 0;
        ok = lgg_quantize(t->type, x, dst, t->size, (int64_t)t->n_elements / per_row, per_row, NULL, &written) ==
                 LGG_OK &&
             written == t->size;
    }
    if (ok && lgg_file_endian(f) == LGG_BIG_ENDIAN && pyswap && t->type == LGG_TYPE_Q8_0) pyswap_q8_0(t, dst);
    else if (ok && lgg_file_endian(f) == LGG_BIG_ENDIAN) swap_blocks_to_big(ti, dst, t->size / ti->type_size);
    free(x);
    return ok;
}

/* The data of tensor "<case>.weight" in ggml's type-<TY>.gguf: the f32 input,
 * or ggml's quantization of it (quant.<ty>.<case>[.imatrix].bin), rebuilt
 * from the committed inputs and checked against the reference's sha256
 * (golden.h). */
static unsigned char *ggml_types_tensor(const char *ty, const lgg_str *name, size_t *n) {
    if (name->len < 8 || memcmp(name->ptr + name->len - 7, ".weight", 7) != 0) return NULL;
    char b[160];
    if (!strcmp(ty, "f32")) {
        snprintf(b, sizeof b, "input.%.*s.f32", (int)name->len - 7, name->ptr);
        return golden_input(b, n);
    }
    snprintf(b, sizeof b, "quant.%s.%.*s.bin", ty, (int)name->len - 7, name->ptr);
    unsigned char *q = golden_quant_bytes(b, n);
    if (q) return q;
    snprintf(b, sizeof b, "quant.%s.%.*s.imatrix.bin", ty, (int)name->len - 7, name->ptr);
    return golden_quant_bytes(b, n);
}

/* Write the bytes FILE[0..SIZE) to TO through a temporary name, so a
 * concurrent worker never sees half. */
static bool write_whole(const char *to, const uint8_t *file, size_t size) {
    char p[1700];
    snprintf(p, sizeof p, "%s.%ld", to, (long)getpid());
    FILE *out = fopen(p, "wb");
    bool ok = out && fwrite(file, 1, size, out) == size;
    if (out) ok = (fclose(out) == 0) && ok && rename(p, to) == 0;
    return ok;
}

/* N items of element type ET in exactly BYTES bytes at DST: strings of
 * letters (lengths as even as the bytes allow), INT32 ones (a token type:
 * normal), zeros otherwise. */
static void synth_items(uint32_t et, uint64_t n, uint64_t bytes, uint8_t *dst) {
    if (et != LGG_VT_STRING) {
        for (uint64_t i = 0; et == LGG_VT_I32 && i < n; i++) memcpy(dst + 4 * i, &(int32_t){1}, 4);
        return;
    }
    const uint64_t text = bytes - 8 * n;
    for (uint64_t i = 0; i < n; i++) {
        const uint64_t len = text / n + (i < text % n);
        memcpy(dst, &len, 8);
        for (uint64_t j = 0; j < len; j++) dst[8 + j] = (uint8_t)('a' + (i + j) % 26);
        dst += 8 + len;
    }
}

/* Array KEY's COUNT and BYTES in SPEC (KEY:COUNT:BYTES,...); false when
 * SPEC does not name it. */
static bool spec_of(const char *spec, const lgg_str *key, unsigned long long *count, unsigned long long *bytes) {
    for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, key->ptr, key->len) && p[key->len] == ':')
            return sscanf(p + key->len + 1, "%llu:%llu", count, bytes) == 2;
    return false;
}

/* A "vocab" stand-in's header (standin.tsv): HEAD (a GGUF whose long arrays
 * were cut to their first items) with each array SPEC names grown back to
 * its count in its bytes; the tensor infos after them as they are.
 * Malloc'd, its size in *N; NULL when HEAD does not open. */
static uint8_t *grow_vocab(const uint8_t *head, size_t hn, const char *spec, size_t *n) {
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
    lgg_file *f = NULL;
    unsigned long long cap = hn, c, by;
    for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (sscanf(strchr(p, ':') ? strchr(p, ':') + 1 : "", "%llu:%llu", &c, &by) == 2) cap += by;
    uint8_t *file = hn >= 24 ? malloc(cap) : NULL;
    bool ok = file && lgg_open_memory(head, hn, &o, &f, NULL) == LGG_OK;
    const uint64_t kv_end = ok && lgg_tensor_count(f) ? lgg_tensor_at(f, 0)->info_offset : hn;
    uint64_t at = 24;
    if (ok) memcpy(file, head, 24);
    for (uint64_t i = 0; ok && i < lgg_kv_count(f); i++) {
        const lgg_kv *kv = lgg_kv_at(f, i);
        const uint64_t end = i + 1 < lgg_kv_count(f) ? lgg_kv_at(f, i + 1)->offset : kv_end;
        unsigned long long count = 0, bytes = 0;
        const uint64_t items = kv->offset + 8 + kv->key.len + 4 + 4 + 8, kept = end - items;
        if (kv->value.type != LGG_VT_ARRAY || !spec_of(spec, &kv->key, &count, &bytes)) {
            ok = at + (end - kv->offset) <= cap;
            if (ok) memcpy(file + at, head + kv->offset, end - kv->offset);
            at += end - kv->offset;
            continue;
        }
        ok = count > kv->value.count && bytes > kept && at + (items - kv->offset) + bytes <= cap;
        if (!ok) break;
        memcpy(file + at, head + kv->offset, items - kv->offset - 8);
        memcpy(file + at + (items - kv->offset) - 8, &count, 8);
        at += items - kv->offset;
        memcpy(file + at, head + items, kept);
        synth_items(kv->value.elem_type, count - kv->value.count, bytes - kept, file + at + kept);
        at += bytes;
    }
    ok = ok && at + (hn - kv_end) <= cap;
    if (ok) memcpy(file + at, head + kv_end, hn - kv_end);
    lgg_close(f);
    if (!ok) {
        free(file);
        return NULL;
    }
    *n = at + (hn - kv_end);
    return file;
}

/* Write TO from NAME.head and the data DATA says ("seeded", "seeded-pyswap", "zeros", "whole"
 * or "quant": standin.tsv): the whole reference-sized file.  A "whole" or
 * "quant" stand-in is the reference: its sha256 must be WANT_SHA256. */
static bool build_one(const char *name, uint64_t want_size, const char *want_sha256, const char *data,
                      const char *spec, const char *to) {
    char p[1700];
    snprintf(p, sizeof p, "%s/%s.head", STANDIN_DATA, name);
    size_t hn;
    unsigned char *head = read_file(p, &hn);
    if (head && !strcmp(data, "vocab")) { /* its header grown back; then as "seeded" */
        size_t gn = 0;
        uint8_t *grown = grow_vocab(head, hn, spec, &gn);
        CHECKF(grown != NULL, "%s: cannot grow the arrays %s from %zu header bytes", p, spec, hn);
        free(head);
        head = grown, hn = gn, data = "seeded";
        if (grown && gn == want_size) { /* no tensors: the header is the file */
            const bool ok = write_whole(to, grown, gn);
            free(grown);
            return ok;
        }
    }
    const bool pyswap = !strcmp(data, "seeded-pyswap");
    if (pyswap) data = "seeded";
    if (head && strcmp(data, "seeded") != 0 && strcmp(data, "quant") != 0) {
        /* The reference itself, or its header and zeros up to its size. */
        bool ok = hn <= want_size && (hn == want_size || strcmp(data, "zeros") == 0);
        uint8_t *file = ok ? calloc(1, want_size + 1) : NULL;
        if (file) memcpy(file, head, hn);
        char got[65] = "";
        if (file && hn == want_size) sha256_hex(file, want_size, got);
        ok = file && (hn < want_size || strcmp(got, want_sha256) == 0) && write_whole(to, file, want_size);
        CHECKF(ok, "%s: cannot build the stand-in (%s data from %zu header bytes)", to, data, hn);
        free(file);
        free(head);
        return ok;
    }
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags = LGG_OPEN_ALLOW_MISSING_DATA;
    lgg_file *f = NULL;
    if (!head || lgg_open_memory(head, hn, &o, &f, NULL) != LGG_OK) {
        free(head);
        CHECKF(false, "%s: missing or not a GGUF header", p);
        return false;
    }
    const uint64_t size = lgg_file_expected_size(f);
    CHECKF(size == want_size, "%s: the header makes %llu bytes, the reference has %llu", p,
           (unsigned long long)size, (unsigned long long)want_size);
    uint8_t *file = calloc(1, size);
    bool ok = size == want_size && file;
    if (ok) memcpy(file, head, hn);
    const bool quant = strcmp(data, "quant") == 0;
    char ty[32] = "";
    if (quant) sscanf(name, "type-%31[^.].gguf", ty);
    for (uint64_t k = 0; ok && k < lgg_tensor_count(f); k++) {
        const lgg_tensor *t = lgg_tensor_at(f, k);
        if (!quant) {
            ok = fill_tensor(f, t, file + t->file_offset, pyswap);
            continue;
        }
        size_t qn = 0;
        unsigned char *q = ggml_types_tensor(ty, &t->name, &qn);
        ok = q && qn == t->size;
        CHECKF(ok, "%s: no quantization vector of %zu bytes for tensor '%.*s'", name, (size_t)t->size,
               (int)t->name.len, t->name.ptr);
        if (ok) memcpy(file + t->file_offset, q, qn);
        free(q);
    }
    if (ok && want_sha256) {
        /* ggml's file itself: the committed header and ggml's quantizations */
        char got[65];
        sha256_hex(file, size, got);
        ok = strcmp(got, want_sha256) == 0;
        CHECKF(ok, "%s: sha256 %s, the reference's is %s", name, got, want_sha256);
    }
    ok = ok && write_whole(to, file, size);
    CHECKF(ok, "%s: cannot build the stand-in", to);
    lgg_close(f);
    free(head);
    free(file);
    return ok;
}

const char *standin_dir(void) {
    static char dir[1024];
    static int state; /* 0 not built, 1 built, -1 failed */
    if (state == 0) {
        snprintf(dir, sizeof dir, "%s/standin", scratch_dir());
        size_t n;
        char *tsv = (char *)read_file(STANDIN_DATA "/standin.tsv", &n);
        CHECKF(tsv != NULL, "%s/standin.tsv is missing", STANDIN_DATA);
        state = tsv && (mkdir(dir, 0700) == 0 || errno == EEXIST) ? 1 : -1;
        char *save = NULL;
        for (char *line = tsv ? strtok_r(tsv, "\n", &save) : NULL; line && state == 1;
             line = strtok_r(NULL, "\n", &save)) {
            char rel[512], to[1600], sha[65] = "", data[16] = "seeded", spec[512] = "";
            unsigned long long bytes;
            if (sscanf(line, "%511s %llu %64s %*s %15s %511s", rel, &bytes, sha, data, spec) < 2) continue; /* the heading */
            const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
            snprintf(to, sizeof to, "%s/%s", dir, base);
            if (access(to, R_OK) != 0 && !build_one(base, bytes, strncmp(data, "seeded", 6) && strcmp(data, "vocab") ? sha : NULL, data, spec, to))
                state = -1;
        }
        free(tsv);
    }
    return state == 1 ? dir : NULL;
}

const char *standin_path(const char *name) {
    static char p[4][1600];
    static int k;
    const char *dir = standin_dir();
    if (!dir) return NULL;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

bool need_models(void) {
    if (shared_present()) return true;
    return standin_dir() != NULL;
}

const char *model_path(const char *rel) {
    if (shared_present()) return shared_path(rel);
    return standin_path(strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel);
}

const char *need_model(const char *rel) {
    const char *p = shared_present() ? shared_path(rel) : standin_dir() ? model_path(rel) : NULL;
    if (p && access(p, R_OK) == 0) return p;
    test_skip("neither %s nor a stand-in for it is there", shared_path(rel));
    return NULL;
}

const char *ggml_types_dir(void) {
    return shared_present() ? shared_path("golden/ggml-types") : standin_dir();
}

/* The quantization vector NAME (input.*, random.*, quant.*, dequant.* as in
 * ../shared/golden/quant/) rebuilt from the committed inputs and checked
 * against the reference's sha256 (golden.h), or NULL (the test failed when
 * it was in the index but differs). */
static unsigned char *golden_vector(const char *name, size_t *n) {
    if (strncmp(name, "dequant.", 8) != 0) return golden_quant_bytes(name, n);
    static golden_vec rows[512];
    const int nr = golden_index("dequantize", rows, 512);
    for (int i = 0; i < nr; i++) {
        if (strcmp(rows[i].output, name) != 0) continue;
        size_t qn = 0;
        unsigned char *q = golden_quant_bytes(rows[i].input, &qn);
        float *x = q ? malloc(rows[i].bytes) : NULL;
        bool ok = x && lgg_dequantize(rows[i].type_id, q, qn, LGG_LITTLE_ENDIAN, x,
                                      (uint64_t)rows[i].nrows * rows[i].n_per_row) == LGG_OK &&
                  golden_check(&rows[i], x, rows[i].bytes, "rebuilding a dequantized vector");
        free(q);
        if (!ok) {
            free(x);
            return NULL;
        }
        *n = rows[i].bytes;
        return (unsigned char *)x;
    }
    return NULL;
}

const char *ref_path(const char *rel) {
    if (shared_present()) return shared_path(rel);
    static char p[8][1600];
    static int k;
    k = (k + 1) % 8;
    const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
    if (!strcmp(rel, "golden/ggml-types") || !strcmp(rel, "golden/ggml-types/") ||
        !strcmp(rel, "golden/llama-quantize") || !strcmp(rel, "golden/llama-quantize/")) {
        const char *d = standin_dir();
        snprintf(p[k], sizeof p[k], "%s%s", d ? d : "/nonexistent", rel[strlen(rel) - 1] == '/' ? "/" : "");
        return p[k];
    }
    if (!strncmp(rel, "golden/ggml-types/", 18) || !strncmp(rel, "golden/llama-quantize/", 22)) {
        const char *s = standin_path(base);
        snprintf(p[k], sizeof p[k], "%s", s ? s : "/nonexistent");
        return p[k];
    }
    if (!strncmp(rel, "golden/quant/", 13) && !strchr(base, '/')) {
        char dir[1200];
        snprintf(dir, sizeof dir, "%s/golden-quant", scratch_dir());
        mkdir(dir, 0700);
        snprintf(p[k], sizeof p[k], "%s/%s", dir, base);
        if (access(p[k], R_OK) == 0) return p[k];
        size_t n = 0;
        unsigned char *b = golden_vector(base, &n);
        bool ok = b && write_whole(p[k], b, n);
        free(b);
        if (ok) return p[k];
    }
    return shared_path(rel); /* not there: opening it fails */
}
