/* test_split.c -- split and merge: gguf-split's golden shards reproduced and
 * merged back byte for byte, merge(split(x)) == x by count and by size for
 * the corpus and generated files, gguf-split's size rule, the merge's
 * refusals (missing shard, wrong count, duplicate tensor, metadata in a later
 * shard, OUT one of the inputs through a hard link or a symlink) with exact
 * messages and statuses, shard names, and the recommended file name. */
#include "gen.h"
#include "corpus.h"
#include "test.h"
#include "standin.h"
#include "libgguf.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define LQ "golden/llama-quantize/"

/* Write `w` to a scratch file and return its bytes (malloc'd). */
static unsigned char *writer_bytes_e(const lgg_writer *w, lgg_endian en, size_t *n) {
    char path[512];
    snprintf(path, sizeof path, "%s/split.tmp", scratch_dir());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return NULL;
    lgg_error e;
    uint64_t written = 0;
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.endian = en;
    lgg_status st = lgg_writer_write_fd(w, fd, &o, &written, &e);
    close(fd);
    if (st) {
        test_fail(__FILE__, __LINE__, "write: %s", e.message);
        return NULL;
    }
    unsigned char *p = read_file(path, n);
    if (p && *n != written) test_fail(__FILE__, __LINE__, "wrote %llu, file has %zu", (unsigned long long)written, *n);
    return p;
}

static unsigned char *writer_bytes(const lgg_writer *w, size_t *n) { return writer_bytes_e(w, LGG_LITTLE_ENDIAN, n); }

/* The canonical copy of a file's bytes (little-endian v3, its alignment). */
static unsigned char *canonical(const unsigned char *p, size_t n, size_t *cn) {
    lgg_file *f = NULL;
    if (lgg_open_memory(p, n, NULL, &f, NULL)) return NULL;
    lgg_writer *w = NULL;
    unsigned char *out = NULL;
    if (lgg_writer_from_file(f, -1, NULL, 0, &w, NULL) == LGG_OK) out = writer_bytes(w, cn);
    lgg_writer_free(w);
    lgg_close(f);
    return out;
}

typedef struct shards {
    uint32_t n;
    unsigned char **bytes;
    size_t *len;
    lgg_file **files;
    lgg_shard *plan;
} shards;

static void shards_free(shards *s) {
    for (uint32_t i = 0; i < s->n; i++) {
        lgg_close(s->files[i]);
        free(s->bytes[i]);
    }
    free(s->bytes);
    free(s->len);
    free(s->files);
    free(s->plan);
    memset(s, 0, sizeof *s);
}

/* Split the file at p[0..n) in memory with the given limits. */
static lgg_status split_mem(const unsigned char *p, size_t n, uint64_t max_tensors, uint64_t max_size, shards *out) {
    memset(out, 0, sizeof *out);
    lgg_file *f = NULL;
    lgg_status st = lgg_open_memory(p, n, NULL, &f, NULL);
    if (st) return st;
    lgg_split_options o;
    lgg_split_options_init(&o);
    o.max_tensors = max_tensors;
    o.max_size = max_size;
    lgg_split_plan *plan = NULL;
    lgg_error e;
    if ((st = lgg_split_plan_make(f, &o, &plan, &e))) {
        lgg_close(f);
        return st;
    }
    uint32_t k = lgg_split_plan_count(plan);
    out->n = k;
    out->bytes = calloc(k, sizeof *out->bytes);
    out->len = calloc(k, sizeof *out->len);
    out->files = calloc(k, sizeof *out->files);
    out->plan = calloc(k, sizeof *out->plan);
    for (uint32_t i = 0; i < k && !st; i++) {
        lgg_writer *w = NULL;
        out->plan[i] = *lgg_split_plan_shard(plan, i);
        if ((st = lgg_split_shard_writer(f, -1, plan, i, &w, &e))) break;
        out->bytes[i] = writer_bytes_e(w, lgg_file_endian(f), &out->len[i]);
        lgg_writer_free(w);
        if (!out->bytes[i]) st = LGG_ERR_IO;
        else if (out->len[i] != out->plan[i].size) {
            test_fail(__FILE__, __LINE__, "shard %u: plan says %llu bytes, wrote %zu", i,
                      (unsigned long long)out->plan[i].size, out->len[i]);
        }
        if (!st) st = lgg_open_memory(out->bytes[i], out->len[i], NULL, &out->files[i], &e);
    }
    lgg_split_plan_free(plan);
    lgg_close(f);
    return st;
}

static unsigned char *merge_mem(const shards *s, size_t *n, lgg_status *st, lgg_error *e) {
    lgg_writer *w = NULL;
    unsigned char *out = NULL;
    *st = lgg_merge_writer((const lgg_file *const *)s->files, NULL, s->n, NULL, &w, e);
    if (!*st) out = writer_bytes_e(w, lgg_file_endian(s->files[0]), n);
    lgg_writer_free(w);
    return out;
}

TEST(split_reproduces_gguf_split_golden_shards_and_merges_back) {
    if (!need_models()) return;
    size_t n;
    unsigned char *orig = read_file(model_path(LQ "pub-dense-Q8_0.gguf"), &n);
    REQUIRE(orig != NULL);
    shards s;
    REQUIRE(split_mem(orig, n, 16, 0, &s) == LGG_OK);
    CHECK_EQ_U(s.n, 3);
    for (uint32_t i = 0; i < s.n && i < 3; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, LQ "pub-dense-Q8_0-split-%05u-of-00003.gguf", i + 1);
        size_t gn;
        unsigned char *g = read_file(model_path(rel), &gn);
        CHECKF(g && gn == s.len[i] && memcmp(g, s.bytes[i], gn) == 0, "%s differs", rel);
        free(g);
    }
    shards_free(&s);

    /* the golden shards themselves merge into the input exactly */
    shards gs = {0};
    gs.n = 3;
    gs.bytes = calloc(3, sizeof *gs.bytes);
    gs.len = calloc(3, sizeof *gs.len);
    gs.files = calloc(3, sizeof *gs.files);
    for (uint32_t i = 0; i < 3; i++) {
        char rel[128];
        snprintf(rel, sizeof rel, LQ "pub-dense-Q8_0-split-%05u-of-00003.gguf", i + 1);
        gs.bytes[i] = read_file(model_path(rel), &gs.len[i]);
        REQUIRE(gs.bytes[i] != NULL);
        REQUIRE(lgg_open_memory(gs.bytes[i], gs.len[i], NULL, &gs.files[i], NULL) == LGG_OK);
    }
    size_t mn = 0;
    lgg_status st;
    lgg_error e;
    unsigned char *m = merge_mem(&gs, &mn, &st, &e);
    CHECKF(m && mn == n && memcmp(m, orig, n) == 0, "merged golden shards differ from the input");
    free(m);
    shards_free(&gs);
    free(orig);
}

/* merge(split(x)) == canonical(x), shards consistent with the plan and the
 * limits.  Returns the number of shards. */
static uint32_t round_trip(const char *what, const unsigned char *canon, size_t cn, uint64_t max_tensors,
                           uint64_t max_size) {
    shards s;
    lgg_status st = split_mem(canon, cn, max_tensors, max_size, &s);
    if (st) {
        test_fail(__FILE__, __LINE__, "%s: split (%llu, %llu) failed: %s", what, (unsigned long long)max_tensors,
                  (unsigned long long)max_size, lgg_status_name(st));
        shards_free(&s);
        return 0;
    }
    lgg_file *f = NULL;
    lgg_open_memory(canon, cn, NULL, &f, NULL);
    uint64_t next = 0;
    for (uint32_t i = 0; i < s.n; i++) {
        const lgg_shard *sh = &s.plan[i];
        CHECKF(sh->first_tensor == next, "%s: shard %u starts at %llu", what, i, (unsigned long long)sh->first_tensor);
        next += sh->n_tensors;
        CHECKF(sh->n_tensors > 0 || lgg_tensor_count(f) == 0, "%s: empty shard %u", what, i);
        if (max_tensors) CHECKF(sh->n_tensors <= max_tensors, "%s: shard %u has %llu tensors", what, i,
                                (unsigned long long)sh->n_tensors);
        if (max_size && sh->n_tensors > 1) {
            uint64_t a = lgg_file_alignment(f), sum = 0;
            for (uint64_t t = sh->first_tensor; t < sh->first_tensor + sh->n_tensors; t++)
                sum += (lgg_tensor_at(f, t)->size + a - 1) / a * a;
            CHECKF(sum <= max_size, "%s: shard %u holds %llu bytes > %llu", what, i, (unsigned long long)sum,
                   (unsigned long long)max_size);
        }
        /* gguf-split's greedy rule: the next shard's first tensor would not have fit */
        if (max_size && i + 1 < s.n) {
            uint64_t a = lgg_file_alignment(f), sum = 0;
            for (uint64_t t = sh->first_tensor; t <= sh->first_tensor + sh->n_tensors; t++)
                sum += (lgg_tensor_at(f, t)->size + a - 1) / a * a;
            CHECKF(sum > max_size, "%s: shard %u closed early", what, i);
        }
        if (max_tensors && i + 1 < s.n) CHECK_EQ_U(sh->n_tensors, max_tensors);
        CHECK_EQ_U(lgg_tensor_count(s.files[i]), sh->n_tensors);
        if (i > 0) /* metadata only in the first shard */
            CHECKF(lgg_kv_count(s.files[i]) == 3 + (lgg_file_alignment(f) != 32), "%s: shard %u has %llu keys", what,
                   i, (unsigned long long)lgg_kv_count(s.files[i]));
    }
    CHECK_EQ_U(next, lgg_tensor_count(f));
    size_t mn = 0;
    lgg_error e;
    unsigned char *m = merge_mem(&s, &mn, &st, &e);
    CHECKF(m && mn == cn && memcmp(m, canon, cn) == 0, "%s: merge(split(x)) != x (%llu, %llu)%s%s", what,
           (unsigned long long)max_tensors, (unsigned long long)max_size, st ? ": " : "", st ? e.message : "");
    uint32_t k = s.n;
    free(m);
    lgg_close(f);
    shards_free(&s);
    return k;
}

static void round_trips(const char *what, const unsigned char *canon, size_t cn) {
    lgg_file *f = NULL;
    if (lgg_open_memory(canon, cn, NULL, &f, NULL)) {
        test_fail(__FILE__, __LINE__, "%s: canonical copy does not open", what);
        return;
    }
    uint64_t nt = lgg_tensor_count(f), data = lgg_file_size(f) - lgg_file_data_offset(f);
    lgg_close(f);
    static const uint64_t counts[] = {1, 2, 3, 7, 1000000};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        uint32_t k = round_trip(what, canon, cn, counts[i], 0);
        CHECKF(k == (nt ? (nt + counts[i] - 1) / counts[i] : 1), "%s: %u shards for %llu tensors by %llu", what, k,
               (unsigned long long)nt, (unsigned long long)counts[i]);
    }
    uint64_t sizes[] = {1, data / 5 + 1, data / 2 + 1, data + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) round_trip(what, canon, cn, 0, sizes[i]);
}

TEST(split_merge_round_trips_every_valid_corpus_file) {
    if (!need_corpus()) return;
    FILE *x = fopen("tests/corpus_expect.tsv", "r");
    REQUIRE(x != NULL);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, x)) {
        char *tab = strchr(line, '\t');
        if (!tab || strncmp(tab + 1, "ok", 2) != 0) continue;
        *tab = 0;
        const char *path = corpus_path(line); /* NULL: left out of the compact copy */
        size_t len;
        unsigned char *p = path ? read_file(path, &len) : NULL;
        if (!p) continue;
        lgg_file *f = NULL;
        bool usable = lgg_open_memory(p, len, NULL, &f, NULL) == LGG_OK;
        for (uint64_t i = 0; usable && i < lgg_tensor_count(f); i++) usable = lgg_tensor_at(f, i)->type_known;
        /* a file that is already a shard keeps its split keys' values only where split puts them */
        if (usable && lgg_find_key_cstr(f, "split.count") >= 0) usable = false;
        lgg_close(f);
        size_t cn = 0;
        unsigned char *c = usable ? canonical(p, len, &cn) : NULL;
        if (c) {
            round_trips(line, c, cn);
            n++;
        }
        free(c);
        free(p);
    }
    fclose(x);
    /* the compact copy: its 23 valid files, no vocabulary */
    CHECKF(n >= (shared_present() ? 25 : 23), "only %d corpus files", n);
}

/* A generated model: `nt` tensors of assorted types and sizes, alignment
 * `align`, written in byte order `e`. */
static unsigned char *gen_model(uint32_t seed, int nt, uint64_t align, lgg_endian e, size_t *n) {
    static const uint32_t types[] = {LGG_TYPE_F32, LGG_TYPE_F16, LGG_TYPE_Q4_0, LGG_TYPE_Q8_0, LGG_TYPE_Q4_K,
                                     LGG_TYPE_IQ2_XXS, LGG_TYPE_BF16, LGG_TYPE_I8};
    lgg_writer *w = NULL;
    if (lgg_writer_create(NULL, &w, NULL)) return NULL;
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    lgg_writer_set_u32(w, "general.alignment", (uint32_t)align, NULL);
    lgg_writer_set_str(w, "general.name", "gen", NULL);
    void **bufs = calloc((size_t)nt, sizeof *bufs);
    uint32_t r = seed * 2654435761u + 1;
    for (int i = 0; i < nt; i++) {
        r = r * 1103515245u + 12345u;
        uint32_t type = types[(r >> 8) % (sizeof types / sizeof types[0])];
        const lgg_type_info *ti = lgg_type_get(type);
        int64_t ne[2] = {(int64_t)ti->block_size * (1 + (r >> 16) % 3), 1 + (r >> 20) % 5};
        uint64_t size;
        lgg_type_nbytes(type, (uint64_t)(ne[0] * ne[1]), &size);
        bufs[i] = malloc(size);
        for (uint64_t k = 0; k < size; k++) ((unsigned char *)bufs[i])[k] = (unsigned char)(k * 31 + i);
        char name[32];
        snprintf(name, sizeof name, "t%d.weight", i);
        lgg_writer_add_tensor_buffer(w, name, strlen(name), 2, ne, type, bufs[i], size, LGG_LITTLE_ENDIAN, NULL);
    }
    lgg_write_options o;
    lgg_write_options_init(&o);
    o.endian = e;
    char path[512];
    snprintf(path, sizeof path, "%s/gen.tmp", scratch_dir());
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    unsigned char *out = NULL;
    if (fd >= 0 && lgg_writer_write_fd(w, fd, &o, NULL, NULL) == LGG_OK) out = read_file(path, n);
    if (fd >= 0) close(fd);
    for (int i = 0; i < nt; i++) free(bufs[i]);
    free(bufs);
    lgg_writer_free(w);
    return out;
}

TEST(split_merge_round_trips_generated_files_any_alignment_and_byte_order) {
    for (uint32_t seed = 1; seed <= 6; seed++) {
        uint64_t align = seed % 3 == 0 ? 64 : seed % 3 == 1 ? 32 : 128;
        lgg_endian e = seed % 2 ? LGG_LITTLE_ENDIAN : LGG_BIG_ENDIAN;
        size_t n;
        unsigned char *p = gen_model(seed, 5 + (int)seed * 3, align, e, &n);
        REQUIRE(p != NULL);
        char what[64];
        snprintf(what, sizeof what, "generated seed %u (align %llu, %s)", seed, (unsigned long long)align,
                 e == LGG_BIG_ENDIAN ? "BE" : "LE");
        /* generated files are canonical in their own byte order: shards keep it */
        round_trips(what, p, n);
        shards s;
        if (split_mem(p, n, 2, 0, &s) == LGG_OK)
            for (uint32_t i = 0; i < s.n; i++) CHECK(lgg_file_endian(s.files[i]) == e);
        shards_free(&s);
        free(p);
    }
}

TEST(split_plan_errors_and_edges) {
    size_t n;
    unsigned char *p = gen_model(9, 4, 32, LGG_LITTLE_ENDIAN, &n);
    REQUIRE(p != NULL);
    lgg_file *f = NULL;
    REQUIRE(lgg_open_memory(p, n, NULL, &f, NULL) == LGG_OK);
    lgg_split_options o;
    lgg_split_options_init(&o);
    lgg_split_plan *plan = NULL;
    lgg_error e;
    CHECK(lgg_split_plan_make(f, &o, &plan, &e) == LGG_ERR_ARG); /* no limit */
    o.max_tensors = 1;
    o.max_size = 1;
    CHECK(lgg_split_plan_make(f, &o, &plan, &e) == LGG_ERR_ARG); /* two limits */
    o.max_size = 0;
    REQUIRE(lgg_split_plan_make(f, &o, &plan, &e) == LGG_OK);
    CHECK_EQ_U(lgg_split_plan_count(plan), 4);
    CHECK(lgg_split_plan_shard(plan, 4) == NULL);
    lgg_writer *w = NULL;
    CHECK(lgg_split_shard_writer(f, -1, plan, 4, &w, &e) == LGG_ERR_RANGE);
    lgg_split_plan_free(plan);
    lgg_close(f);
    free(p);

    /* a file without tensors: one shard with the metadata and the split keys */
    buf b = {0};
    gen_header(&b, 3, 0, 1);
    gen_key(&b, 3, "general.architecture", LGG_VT_STRING);
    gen_str(&b, 3, "llama");
    REQUIRE(lgg_open_memory(b.p, b.n, NULL, &f, NULL) == LGG_OK);
    o.max_tensors = 5;
    REQUIRE(lgg_split_plan_make(f, &o, &plan, &e) == LGG_OK);
    CHECK_EQ_U(lgg_split_plan_count(plan), 1);
    REQUIRE(lgg_split_shard_writer(f, -1, plan, 0, &w, &e) == LGG_OK);
    CHECK_EQ_U(lgg_writer_kv_count(w), 4);
    lgg_writer_free(w);
    lgg_split_plan_free(plan);
    lgg_close(f);
    buf_free(&b);
}

TEST(split_shard_names) {
    char nb[64];
    CHECK_EQ_U(lgg_split_path(nb, sizeof nb, "dir/model", 0, 3), strlen("dir/model-00001-of-00003.gguf"));
    CHECK_STR(nb, "dir/model-00001-of-00003.gguf");
    CHECK_EQ_U(lgg_split_path(nb, 8, "dir/model", 41, 65535), strlen("dir/model-00042-of-65535.gguf"));
    CHECK_STR(nb, "dir/mod");
    uint32_t idx = 9, cnt = 9;
    size_t pl = 0;
    const char *a = "x/Grok-100B-v1.0-Q4_0-00003-of-00009.gguf";
    CHECK(lgg_split_name_parse(a, strlen(a), &idx, &cnt, &pl));
    CHECK_EQ_U(idx, 2);
    CHECK_EQ_U(cnt, 9);
    CHECK_EQ_U(pl, strlen("x/Grok-100B-v1.0-Q4_0"));
    static const char *const bad[] = {"m-00000-of-00003.gguf", "m-00004-of-00003.gguf", "m-0001-of-00003.gguf",
                                      "m-00001-of-00003.ggu", "m_00001-of-00003.gguf", "m-00001-of-0000a.gguf",
                                      "00001-of-00003.gguf", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECKF(!lgg_split_name_parse(bad[i], strlen(bad[i]), NULL, NULL, NULL), "%s parsed", bad[i]);
    const char *ok = "-00001-of-00001.gguf"; /* an empty prefix is still a name */
    CHECK(lgg_split_name_parse(ok, strlen(ok), &idx, &cnt, &pl) && pl == 0 && idx == 0 && cnt == 1);
}

/* ---- the CLI ---------------------------------------------------------------- */

static const char *tool(void) {
    static char t[512];
    snprintf(t, sizeof t, "%s/gguf", build_dir());
    return t;
}

static char *scratch(const char *name) {
    static char p[64][700];
    static int k;
    k = (k + 1) % 64;
    snprintf(p[k], sizeof p[k], "%s/%s", scratch_dir(), name);
    return p[k];
}

/* Run gguf with up to 6 arguments; return status, stdout and stderr with the
 * scratch directory written as $T. */
static int run(char **out, char **err, const char *a0, const char *a1, const char *a2, const char *a3,
               const char *a4, const char *a5) {
    char *argv[8] = {(char *)tool(), (char *)a0, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL};
    char *o = NULL, *e = NULL;
    size_t ol, el;
    int st = -1;
    if (run_capture(argv, &o, &ol, &e, &el, &st)) return -1;
    const char *dir = scratch_dir();
    size_t dl = strlen(dir);
    char *bufs[2] = {o, e};
    for (int k = 0; k < 2; k++) {
        char *s = bufs[k], *q;
        while ((q = strstr(s, dir))) {
            q[0] = '$';
            q[1] = 'T';
            memmove(q + 2, q + dl, strlen(q + dl) + 1);
            s = q + 2;
        }
    }
    *out = o;
    *err = e;
    return st;
}

#define EXPECT(st_, out_, err_, ...)                                                           \
    do {                                                                                       \
        char *o_, *e_;                                                                         \
        int s_ = run(&o_, &e_, __VA_ARGS__);                                                   \
        CHECKF(s_ == (st_), "status %d, want %d (stderr: %s)", s_, (st_), e_ ? e_ : "");        \
        if (o_) CHECK_STR(o_, out_);                                                           \
        if (e_) CHECK_STR(e_, err_);                                                           \
        free(o_);                                                                              \
        free(e_);                                                                              \
    } while (0)

static bool same_file(const char *a, const char *b) {
    size_t an, bn;
    unsigned char *x = read_file(a, &an), *y = read_file(b, &bn);
    bool same = x && y && an == bn && memcmp(x, y, an) == 0;
    free(x);
    free(y);
    return same;
}

TEST(cli_split_and_merge_golden) {
    if (!need_models()) return;
    char in[700];
    snprintf(in, sizeof in, "%s", model_path(LQ "pub-dense-Q8_0.gguf"));
    char *prefix = scratch("pub-dense-Q8_0-split");
    EXPECT(0,
           "$T/pub-dense-Q8_0-split-00001-of-00003.gguf\n$T/pub-dense-Q8_0-split-00002-of-00003.gguf\n"
           "$T/pub-dense-Q8_0-split-00003-of-00003.gguf\n",
           "", "split", "--max-tensors", "16", in, prefix, NULL);
    for (int i = 1; i <= 3; i++) {
        char a[200], b[200];
        snprintf(a, sizeof a, "pub-dense-Q8_0-split-%05d-of-00003.gguf", i);
        snprintf(b, sizeof b, LQ "pub-dense-Q8_0-split-%05d-of-00003.gguf", i);
        CHECKF(same_file(scratch(a), model_path(b)), "%s differs from llama-gguf-split's", a);
    }
    char *merged = scratch("merged.gguf");
    EXPECT(0, "", "", "merge", scratch("pub-dense-Q8_0-split-00001-of-00003.gguf"), merged, NULL, NULL, NULL);
    CHECK(same_file(merged, in));
    /* by size: 1M in llama.cpp's units (10^6), then back */
    EXPECT(0,
           "$T/s-00001-of-00005.gguf\n$T/s-00002-of-00005.gguf\n$T/s-00003-of-00005.gguf\n$T/s-00004-of-00005.gguf\n"
           "$T/s-00005-of-00005.gguf\n",
           "gguf split: note: --max-size 1M is 1000000 bytes (MB, powers of 1000); 1MiB is 1048576\n", "split",
           "--max-size", "1M", in, scratch("s"), NULL);
    EXPECT(0, "", "", "merge", scratch("s-00001-of-00005.gguf"), merged, NULL, NULL, NULL);
    CHECK(same_file(merged, in));
    /* --dry-run writes nothing */
    EXPECT(0, "1 shards, 39 tensors\n$T/d-00001-of-00001.gguf: 39 tensors from output.weight, 3929472 bytes\n",
           "gguf split: note: --max-size 4G is 4000000000 bytes (GB, powers of 1000); 4GiB is 4294967296\n", "split",
           "--dry-run", "--max-size", "4G", in, scratch("d"));
    CHECK(access(scratch("d-00001-of-00001.gguf"), F_OK) != 0);
}

TEST(cli_merge_refusals) {
    if (!need_models()) return;
    char in[700];
    snprintf(in, sizeof in, "%s", model_path(LQ "pub-dense-Q8_0.gguf"));
    EXPECT(0, "$T/r-00001-of-00003.gguf\n$T/r-00002-of-00003.gguf\n$T/r-00003-of-00003.gguf\n", "", "split",
           "--max-tensors", "16", in, scratch("r"), NULL);
    char *r1 = scratch("r-00001-of-00003.gguf"), *r2 = scratch("r-00002-of-00003.gguf"),
         *r3 = scratch("r-00003-of-00003.gguf");
    size_t n2, n3;
    unsigned char *b2 = read_file(r2, &n2), *b3 = read_file(r3, &n3);
    REQUIRE(b2 && b3);

    /* OUT is a shard under another name: a hard link, a symlink */
    char *hl = scratch("hard.gguf"), *sl = scratch("soft.gguf");
    REQUIRE(link(r2, hl) == 0);
    REQUIRE(symlink(r3, sl) == 0);
    EXPECT(1, "", "gguf merge: $T/hard.gguf: refusing to write over the input $T/r-00002-of-00003.gguf"
              " (the same file); nothing written\n", "merge", r1, hl,
           NULL, NULL, NULL);
    EXPECT(1, "", "gguf merge: $T/soft.gguf: refusing to write over the input $T/r-00003-of-00003.gguf"
              " (the same file); nothing written\n", "merge", r1, sl,
           NULL, NULL, NULL);
    EXPECT(1, "", "gguf merge: $T/r-00001-of-00003.gguf: refusing to write over the input "
                  "$T/r-00001-of-00003.gguf (the same file); nothing written\n",
           "merge", r1, r1, NULL, NULL, NULL);
    size_t m;
    unsigned char *after = read_file(r2, &m);
    CHECK(after && m == n2 && memcmp(after, b2, m) == 0);
    free(after);
    after = read_file(r3, &m);
    CHECK(after && m == n3 && memcmp(after, b3, m) == 0);
    free(after);
    unlink(hl);
    unlink(sl);

    char *out = scratch("out.gguf");
    /* a missing shard */
    REQUIRE(rename(r2, scratch("moved.gguf")) == 0);
    EXPECT(1, "", "gguf merge: $T/r-00002-of-00003.gguf: No such file or directory (shard 2 of 3)\n", "merge", r1, out,
           NULL, NULL, NULL);
    REQUIRE(rename(scratch("moved.gguf"), r2) == 0);
    CHECK(access(out, F_OK) != 0);

    /* a name that disagrees with split.count */
    char *w1 = scratch("w-00001-of-00002.gguf");
    REQUIRE(file_copy(r1, w1));
    EXPECT(1, "", "gguf merge: $T/w-00001-of-00002.gguf: a first shard's name ends in -00001-of-00003.gguf (its "
                  "split.count is 3)\n",
           "merge", w1, out, NULL, NULL, NULL);
    /* a later shard with another split.count */
    REQUIRE(file_copy(r2, scratch("keep2.gguf")));
    EXPECT(0, "", "", "set", r2, "split.count=u16:4", NULL, NULL, NULL);
    EXPECT(1, "", "gguf merge: $T/r-00001-of-00003.gguf: shard 2 says split.count 4, the first shard says 3\n",
           "merge", r1, out, NULL, NULL, NULL);
    /* a later shard in the wrong place */
    REQUIRE(file_copy(scratch("keep2.gguf"), r2));
    EXPECT(0, "", "", "set", r2, "split.no=u16:2", NULL, NULL, NULL);
    EXPECT(1, "", "gguf merge: $T/r-00001-of-00003.gguf: shard 2 says split.no 2 (shard 3 of the set)\n",
           "merge", r1, out, NULL, NULL, NULL);
    /* a tensor in two shards: shard 2's content again as shard 3 */
    REQUIRE(file_copy(r3, scratch("keep3.gguf")));
    REQUIRE(file_copy(r2, r3)); /* split.no is 2 already */
    REQUIRE(file_copy(scratch("keep2.gguf"), r2));
    EXPECT(1, "", "gguf merge: $T/r-00001-of-00003.gguf: tensor 'blk.1.attn_v.weight' is in shard 2 and shard 3\n",
           "merge", r1, out, NULL, NULL, NULL);
    REQUIRE(file_copy(scratch("keep3.gguf"), r3));
    /* metadata outside the first shard */
    EXPECT(0, "", "gguf set: $T/r-00003-of-00003.gguf: the header no longer fits its padding: rewriting the whole file "
                  "(783.56 KiB)\n",
           "set", r3, "general.name=str:x", NULL, NULL, NULL);
    EXPECT(1, "", "gguf merge: $T/r-00001-of-00003.gguf: shard 3 has metadata key 'general.name': metadata belongs "
                  "in the first shard only\n",
           "merge", r1, out, NULL, NULL, NULL);
    REQUIRE(file_copy(scratch("keep3.gguf"), r3));
    /* a tensor count that disagrees with the shards */
    EXPECT(0, "", "", "set", r1, "split.tensors.count=i32:40", NULL, NULL, NULL);
    EXPECT(1, "", "gguf merge: $T/r-00001-of-00003.gguf: shard 2 says split.tensors.count 39, the first shard says 40\n",
           "merge", r1, out, NULL, NULL, NULL);
    CHECK(access(out, F_OK) != 0);
    /* and the repaired set merges */
    EXPECT(0, "", "", "set", r1, "split.tensors.count=i32:39", NULL, NULL, NULL);
    EXPECT(0, "", "", "merge", r1, out, NULL, NULL, NULL);
    CHECK(same_file(out, in));
    free(b2);
    free(b3);
}

TEST(cli_split_never_replaces_its_input) {
    if (!need_models()) return;
    char *one = scratch("x-00001-of-00001.gguf");
    REQUIRE(file_copy(model_path(LQ "pub-dense-Q8_0.gguf"), one));
    EXPECT(1, "", "gguf split: $T/x-00001-of-00001.gguf: refusing to write over the input $T/x-00001-of-00001.gguf"
                  " (the same file); nothing written\n",
           "split", "--max-tensors", "100", one, scratch("x"), NULL);
    CHECK(same_file(one, model_path(LQ "pub-dense-Q8_0.gguf")));
    /* a later shard that is the input: refused before the first is written */
    char *two = scratch("y-00002-of-00002.gguf");
    REQUIRE(file_copy(model_path(LQ "pub-dense-Q8_0.gguf"), two));
    EXPECT(1, "",
           "gguf split: $T/y-00002-of-00002.gguf: refusing to write over the input $T/y-00002-of-00002.gguf"
           " (the same file); nothing written\n",
           "split", "--max-tensors", "20", two, scratch("y"), NULL);
    CHECK(access(scratch("y-00001-of-00002.gguf"), F_OK) != 0);
    CHECK(same_file(two, model_path(LQ "pub-dense-Q8_0.gguf")));
}

/* ---- the recommended name ---------------------------------------------------- */

static void name_of(lgg_writer *w, const char *want) {
    size_t n;
    unsigned char *p = writer_bytes(w, &n);
    lgg_file *f = NULL;
    if (!p || lgg_open_memory(p, n, NULL, &f, NULL)) {
        test_fail(__FILE__, __LINE__, "generated file does not open");
        free(p);
        return;
    }
    char name[256];
    size_t len = lgg_recommended_name(f, name, sizeof name);
    CHECK_STR(name, want);
    CHECK_EQ_U(len, strlen(want));
    char tiny[4];
    CHECK_EQ_U(lgg_recommended_name(f, tiny, sizeof tiny), strlen(want));
    CHECK_STR(tiny, "");
    lgg_close(f);
    free(p);
}

TEST(recommended_name_from_metadata) {
    lgg_writer *w = NULL;
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    name_of(w, "ggml-model.gguf");
    lgg_writer_set_str(w, "general.name", " Meta/Llama 3 ", NULL);
    name_of(w, "Meta-Llama-3.gguf");
    lgg_writer_set_str(w, "general.basename", "Hermes 2 Pro", NULL);
    lgg_writer_set_str(w, "general.size_label", "8B", NULL);
    lgg_writer_set_str(w, "general.finetune", "Instruct", NULL);
    lgg_writer_set_str(w, "general.version", "v1.0", NULL);
    lgg_writer_set_u32(w, "general.file_type", 15, NULL);
    name_of(w, "Hermes-2-Pro-8B-Instruct-v1.0-Q4_K_M.gguf");
    lgg_writer_set_str(w, "general.type", "adapter", NULL);
    uint16_t no = 2, cnt = 9;
    lgg_wvalue vno = {LGG_VT_U16, 0, 1, &no}, vcnt = {LGG_VT_U16, 0, 1, &cnt};
    lgg_writer_set(w, "split.no", 8, &vno, NULL);
    lgg_writer_set(w, "split.count", 11, &vcnt, NULL);
    name_of(w, "Hermes-2-Pro-8B-Instruct-v1.0-Q4_K_M-LoRA-00003-of-00009.gguf");
    lgg_name_parts parts;
    const char *nm = "Hermes-2-Pro-8B-Instruct-v1.0-Q4_K_M-LoRA-00003-of-00009.gguf";
    CHECK(lgg_name_parse(nm, strlen(nm), &parts));
    lgg_writer_free(w);

    /* the size label computed from the tensors: 2 x 512 x 1000 = 1.0M */
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    lgg_writer_set_str(w, "general.basename", "tiny", NULL);
    lgg_writer_set_u32(w, "general.file_type", 0, NULL);
    static float zeros[512 * 1000];
    int64_t ne[2] = {512, 1000};
    lgg_writer_add_tensor_buffer(w, "a", 1, 2, ne, LGG_TYPE_F32, zeros, sizeof zeros, LGG_LITTLE_ENDIAN, NULL);
    lgg_writer_add_tensor_buffer(w, "b", 1, 2, ne, LGG_TYPE_F32, zeros, sizeof zeros, LGG_LITTLE_ENDIAN, NULL);
    name_of(w, "tiny-1.0M-F32.gguf");
    lgg_writer_free(w);

    /* experts: the shared tensor plus one expert's share: 4x(512000 + 512000/4) = 4x640K */
    REQUIRE(lgg_writer_create(NULL, &w, NULL) == LGG_OK);
    lgg_writer_set_str(w, "general.architecture", "llama", NULL);
    lgg_writer_set_str(w, "general.basename", "moe", NULL);
    lgg_writer_set_u32(w, "llama.expert_count", 4, NULL);
    lgg_writer_add_tensor_buffer(w, "blk.0.attn_q.weight", 19, 2, ne, LGG_TYPE_F32, zeros, sizeof zeros,
                                 LGG_LITTLE_ENDIAN, NULL);
    lgg_writer_add_tensor_buffer(w, "blk.0.ffn_up_exps.weight", 24, 2, ne, LGG_TYPE_F32, zeros, sizeof zeros,
                                 LGG_LITTLE_ENDIAN, NULL);
    name_of(w, "moe-4x640K.gguf");
    lgg_writer_free(w);
}
