/* test_hash.c -- `gguf hash` and `gguf verify` beyond the golden CLI cases
 * (tests/cli/hash-*, whose expected output llama-gguf-hash printed): digests
 * of tensors spanning several read chunks against libcrypto computed here,
 * the same output for every thread count, bounded memory on a large file,
 * shard sets, the metadata hash across byte orders, and verify catching a
 * flipped byte, a truncation, bad padding and trailing data. */
#include "libgguf.h"
#include "test.h"
#include "standin.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifndef LGG_TEST_NO_GOLDEN_LIBS
#include <openssl/sha.h>
#endif

#define EXAMPLE "examples/Tiny-Llama-82K-v1.0-Q8_0.gguf"

typedef struct run {
    char *out, *err;
    int status;
} run;

/* gguf with the NULL-terminated arguments: its output and status */
#define gguf(...)                                                                  \
    ({                                                                             \
        run r_ = {NULL, NULL, 0};                                                  \
        r_.status = run_gguf_capture(&r_.out, &r_.err, __VA_ARGS__);               \
        r_;                                                                        \
    })

static void run_free(run *r) {
    free(r->out);
    free(r->err);
}

#define scratch scratch_path

static bool copy_file(const char *from, const char *to, size_t cut) {
    size_t n;
    unsigned char *b = read_file(from, &n);
    if (!b || cut > n) {
        free(b);
        return false;
    }
    FILE *f = fopen(to, "wb");
    bool ok = f && fwrite(b, 1, n - cut, f) == n - cut;
    if (f) ok = !fclose(f) && ok;
    free(b);
    return ok;
}

static bool poke(const char *path, uint64_t off, unsigned char xor_with) {
    int fd = open(path, O_RDWR);
    unsigned char c = 0;
    bool ok = fd >= 0 && pread(fd, &c, 1, (off_t)off) == 1;
    c ^= xor_with;
    ok = ok && pwrite(fd, &c, 1, (off_t)off) == 1;
    if (fd >= 0) close(fd);
    return ok;
}

static lgg_status fill(void *ud, uint64_t off, void *dst, size_t n, lgg_error *err) {
    (void)err;
    uint8_t *p = dst;
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(((off + i) * 2654435761u >> 11) ^ (uintptr_t)ud);
    return LGG_OK;
}

/* Tensors of 9 MiB + 5, 4 MiB (a multiple of the read chunk) and 12 bytes: items
 * that span chunks, end on a chunk's edge, and share none. */
static bool write_multichunk(const char *path) {
    lgg_writer *w = NULL;
    lgg_error e;
    int64_t ne_a[1] = {(9 << 20) + 5}, ne_b[1] = {4 << 20}, ne_c[1] = {3};
    bool ok = lgg_writer_create(NULL, &w, &e) == LGG_OK && lgg_writer_set_str(w, "general.architecture", "test", &e) == LGG_OK &&
              lgg_writer_add_tensor_callback(w, "a", 1, 1, ne_a, LGG_TYPE_I8, fill, (void *)1, LGG_LITTLE_ENDIAN, &e) == LGG_OK &&
              lgg_writer_add_tensor_callback(w, "b", 1, 1, ne_b, LGG_TYPE_I8, fill, (void *)2, LGG_LITTLE_ENDIAN, &e) == LGG_OK &&
              lgg_writer_add_tensor_callback(w, "c", 1, 1, ne_c, LGG_TYPE_F32, fill, (void *)3, LGG_LITTLE_ENDIAN, &e) == LGG_OK &&
              lgg_writer_write_file(w, path, NULL, &e) == LGG_OK;
    lgg_writer_free(w);
    return ok;
}

#ifndef LGG_TEST_NO_GOLDEN_LIBS
static void hex(char *o, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) sprintf(o + 2 * i, "%02x", p[i]);
}

TEST(hash_multichunk_matches_libcrypto) {
    const char *path = scratch("hash-multi.gguf");
    REQUIRE(write_multichunk(path));
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(path, NULL, &f, NULL) == LGG_OK);
    /* the expected lines, from libcrypto over the mapped tensors */
    char want[4096] = "", line[512], h[129];
    unsigned char *all = malloc(16 << 20);
    size_t all_n = 0;
    REQUIRE(all != NULL);
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        unsigned char d[32];
        SHA1(t->data, (size_t)t->size, d);
        hex(h, d, 20);
        snprintf(line, sizeof line, "sha1      %s  %s:%.*s\n", h, path, (int)t->name.len, t->name.ptr);
        strcat(want, line);
        SHA256(t->data, (size_t)t->size, d);
        hex(h, d, 32);
        snprintf(line, sizeof line, "sha256    %s  %s:%.*s\n", h, path, (int)t->name.len, t->name.ptr);
        strcat(want, line);
        REQUIRE(all_n + t->size <= (16u << 20));
        memcpy(all + all_n, t->data, (size_t)t->size);
        all_n += (size_t)t->size;
    }
    unsigned char d[32];
    SHA1(all, all_n, d);
    hex(h, d, 20);
    snprintf(line, sizeof line, "sha1      %s  %s\n", h, path);
    strcat(want, line);
    SHA256(all, all_n, d);
    free(all);
    hex(h, d, 32);
    snprintf(line, sizeof line, "sha256    %s  %s\n", h, path);
    strcat(want, line);
    lgg_close(f);
    const char *threads[] = {"1", "2", "3", "8"};
    for (int k = 0; k < 4; k++) {
        run r = gguf("hash", "--sha256", "--sha1", "--threads", threads[k], path, NULL);
        CHECK_EQ_U(r.status, 0);
        CHECKF(r.out && !strcmp(r.out, want), "--threads %s:\n%s\nwant:\n%s", threads[k], r.out ? r.out : "", want);
        run_free(&r);
    }
}
#endif

/* The same lines whatever the thread count, every hash at once. */
TEST(hash_threads_same_output) {
    const char *path = scratch("hash-threads.gguf");
    REQUIRE(write_multichunk(path));
    run base = gguf("hash", "--all", "--uuid", "--metadata", "--threads", "1", path, NULL);
    REQUIRE(base.status == 0 && base.out);
    CHECK(strstr(base.out, "uuid      ") != NULL);
    for (int rep = 0; rep < 20; rep++) {
        run r = gguf("hash", "--all", "--uuid", "--metadata", path, NULL);
        CHECK_EQ_U(r.status, 0);
        CHECK_STR(r.out, base.out);
        run_free(&r);
    }
    run_free(&base);
}

/* Peak RSS of `gguf hash --no-layer FILE`, in KiB (-1 on failure).  The
 * child's figure includes the runner's resident set at the spawn (the
 * address space it had before exec), hence the small-file baseline. */
static long peak_rss_kib(const char *file) {
    char tool[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    char *argv[] = {tool, "hash", "--no-layer", (char *)file, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    extern char **environ;
    int bad = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int st = 0;
    struct rusage ru;
    if (bad || wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) return -1;
    return ru.ru_maxrss;
}

/* A 192 MiB tensor (a sparse file: the hole reads as zeros) is hashed in
 * far less memory than the file: nothing maps or holds the whole data. */
TEST(hash_memory_bounded) {
    const char *path = scratch("hash-big.gguf");
    buf b = {0};
    uint64_t ne = UINT64_C(48) << 20; /* f32: 192 MiB */
    buf_put(&b, "GGUF", 4);
    buf_u32(&b, 3);
    buf_u64(&b, 1);
    buf_u64(&b, 0);
    buf_str(&b, "big");
    buf_u32(&b, 1);
    buf_u64(&b, ne);
    buf_u32(&b, LGG_TYPE_F32);
    buf_u64(&b, 0);
    buf_pad(&b, 32);
    FILE *f = fopen(path, "wb");
    REQUIRE(f && fwrite(b.p, 1, b.n, f) == b.n && !fclose(f));
    REQUIRE(truncate(path, (off_t)(b.n + ne * 4)) == 0);
    buf_free(&b);
    long small = peak_rss_kib(EXAMPLE), big = peak_rss_kib(path);
    CHECK(small > 0 && big > 0);
    CHECKF(big < small + 96 * 1024, "peak RSS %ld KiB for a 192 MiB tensor, %ld KiB for a small file", big, small);
    unlink(path);
}

static bool has(const char *s, const char *sub) { return s && strstr(s, sub); }

/* The text after "HASH  " on the line ending in NAME, or "" */
static void line_hash(const char *out, const char *name, char *h, size_t cap) {
    h[0] = 0;
    char pat[512];
    snprintf(pat, sizeof pat, "  %s\n", name);
    const char *e = out ? strstr(out, pat) : NULL;
    if (!e) return;
    const char *s = e;
    while (s > out && s[-1] != ' ') s--;
    snprintf(h, cap, "%.*s", (int)(e - s), s);
}

TEST(verify_flipped_byte_and_truncation) {
    size_t n;
    unsigned char *orig = read_file(EXAMPLE, &n);
    REQUIRE(orig != NULL);
    free(orig);
    run good = gguf("verify", "--json", EXAMPLE, NULL);
    CHECK_EQ_U(good.status, 0);
    CHECK(has(good.out, "\"intact\": true"));
    run_free(&good);
    /* the published sha256 of the example, from the tool itself over the intact file */
    run sum = gguf("verify", EXAMPLE, "--sha256", "0000000000000000000000000000000000000000000000000000000000000000", NULL);
    char sha[80] = "";
    CHECK_EQ_U(sum.status, 1);
    if (sum.out) sscanf(sum.out, "%64s", sha);
    CHECK(has(sum.err, "sha256 differs: expected 0000"));
    run_free(&sum);
    REQUIRE(strlen(sha) == 64);

    const char *flip = scratch("verify-flip.gguf");
    REQUIRE(copy_file(EXAMPLE, flip, 0));
    REQUIRE(poke(flip, n - 1000, 0x40)); /* inside the last tensor's data */
    run r = gguf("verify", flip, "--sha256", sha, NULL);
    CHECK_EQ_U(r.status, 1);
    CHECK(has(r.out, "not intact"));
    char want[512];
    snprintf(want, sizeof want, "gguf verify: %s: sha256 differs: expected %s, the file has ", flip, sha);
    CHECKF(has(r.err, want), "%s", r.err ? r.err : "");
    run_free(&r);

    const char *cut = scratch("verify-cut.gguf");
    REQUIRE(copy_file(EXAMPLE, cut, 4096));
    r = gguf("verify", EXAMPLE, cut, NULL);
    CHECK_EQ_U(r.status, 1);
    snprintf(want, sizeof want, "gguf verify: %s: truncated: the file has %zu bytes, its header describes at least %zu (4096 missing;",
             cut, n - 4096, n);
    CHECKF(has(r.err, want), "%s", r.err ? r.err : "");
    CHECK(!has(r.err, "past the declared end"));
    snprintf(want, sizeof want, "%s: intact\n%s: not intact\n", EXAMPLE, cut);
    CHECK_STR(r.out, want);
    run_free(&r);

    const char *head = scratch("verify-head.gguf");
    REQUIRE(copy_file(EXAMPLE, head, n - 100));
    r = gguf("verify", head, NULL);
    CHECK_EQ_U(r.status, 1);
    CHECK(has(r.err, "truncated in the header: the file has 100 bytes"));
    run_free(&r);
}

TEST(verify_padding_and_trailing_data) {
    const char *src = scratch("verify-src.gguf");
    REQUIRE(write_multichunk(src));
    lgg_file *f = NULL;
    REQUIRE(lgg_open_file(src, NULL, &f, NULL) == LGG_OK);
    uint64_t pad_at = 0, size = lgg_file_size(f);
    for (uint64_t i = 0; i < lgg_tensor_count(f) && !pad_at; i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        if ((t->offset + t->size) % lgg_file_alignment(f) && t->file_offset + t->size < size) pad_at = t->file_offset + t->size;
    }
    lgg_close(f);
    REQUIRE(pad_at != 0);
    const char *p = scratch("verify-pad.gguf");
    REQUIRE(copy_file(src, p, 0));
    REQUIRE(poke(p, pad_at, 0x01));
    run r = gguf("verify", p, NULL);
    CHECK_EQ_U(r.status, 1);
    CHECKF(has(r.err, "bad padding: padding after tensor"), "%s", r.err ? r.err : "");
    run_free(&r);

    const char *t = scratch("verify-tail.gguf");
    REQUIRE(copy_file(EXAMPLE, t, 0));
    FILE *fp = fopen(t, "ab");
    REQUIRE(fp && fwrite("extra", 1, 5, fp) == 5 && !fclose(fp));
    r = gguf("verify", t, NULL);
    CHECK_EQ_U(r.status, 1);
    CHECK(has(r.err, "data past the declared end: 5 bytes after"));
    run_free(&r);
}

#define LQ "golden/llama-quantize/"

/* A shard set hashed with --shards gives the merged file's lines. */
TEST(hash_shards_as_one_model) {
    char merged[4096], first[4096], second[4096];
    snprintf(merged, sizeof merged, "%s", model_path(LQ "pub-dense-Q8_0.gguf"));
    snprintf(first, sizeof first, "%s", model_path(LQ "pub-dense-Q8_0-split-00001-of-00003.gguf"));
    snprintf(second, sizeof second, "%s", model_path(LQ "pub-dense-Q8_0-split-00002-of-00003.gguf"));
    if (!need_models()) return;
    run a = gguf("hash", "--all", "--uuid", "--metadata", merged, NULL);
    run b = gguf("hash", "--all", "--uuid", "--metadata", "--shards", first, NULL);
    CHECK_EQ_U(a.status, 0);
    CHECK_EQ_U(b.status, 0);
    REQUIRE(a.out && b.out);
    /* the same lines once each file's own name is taken out */
    size_t la = strlen(merged), lb = strlen(first);
    char *pa = a.out, *pb = b.out;
    int lines = 0;
    while (*pa && *pb) {
        char *ea = strstr(pa, merged), *eb = strstr(pb, first);
        REQUIRE(ea && eb && ea - pa == eb - pb && !memcmp(pa, pb, (size_t)(ea - pa)));
        pa = ea + la, pb = eb + lb;
        char *na = strchr(pa, '\n'), *nb = strchr(pb, '\n');
        REQUIRE(na && nb && na - pa == nb - pb && !memcmp(pa, pb, (size_t)(na - pa)));
        pa = na + 1, pb = nb + 1, lines++;
    }
    CHECK(!*pa && !*pb);
    CHECK_EQ_U(lines, 39 * 3 + 4 + 3);
    run_free(&a);
    run_free(&b);
    /* a later shard alone: its own tensors, and a note about --shards */
    run c = gguf("hash", second, NULL);
    CHECK_EQ_U(c.status, 0);
    CHECK(has(c.err, "one shard of 3; --shards on the first hashes the set as one model"));
    run_free(&c);
    run d = gguf("hash", "--shards", second, NULL);
    CHECK_EQ_U(d.status, 1);
    CHECK(has(d.err, "a first shard's name ends in -00001-of-00003.gguf"));
    run_free(&d);
}

/* --metadata: the same across byte orders; another when a value changes,
 * while the tensors' hashes stay. */
TEST(hash_metadata_canonical) {
    char le[4096], be[4096];
    snprintf(le, sizeof le, "%s", model_path(LQ "pub-dense-f16.gguf"));
    snprintf(be, sizeof be, "%s", model_path(LQ "pub-dense-f16.BE.gguf"));
    if (need_models()) {
        run a = gguf("hash", "--metadata", "--no-layer", "--sha256", le, NULL);
        run b = gguf("hash", "--metadata", "--no-layer", "--sha256", be, NULL);
        char n1[4200], n2[4200], ha[80], hb[80], ma[80], mb[80];
        snprintf(n1, sizeof n1, "%s@metadata", le);
        snprintf(n2, sizeof n2, "%s@metadata", be);
        line_hash(a.out, n1, ma, sizeof ma);
        line_hash(b.out, n2, mb, sizeof mb);
        line_hash(a.out, le, ha, sizeof ha);
        line_hash(b.out, be, hb, sizeof hb);
        CHECK(strlen(ma) == 64);
        CHECK_STR(ma, mb);
        CHECK(strlen(ha) == 64 && strcmp(ha, hb) != 0); /* the data is stored in the other byte order */
        run_free(&a);
        run_free(&b);
    }
    const char *edited = scratch("hash-edited.gguf");
    run s = gguf("set", EXAMPLE, "general.name=str:renamed", "-o", edited, NULL);
    CHECK_EQ_U(s.status, 0);
    run_free(&s);
    run a = gguf("hash", "--metadata", EXAMPLE, NULL), b = gguf("hash", "--metadata", edited, NULL);
    char n1[1100], n2[1100], ma[80], mb[80], ta[80], tb[80];
    snprintf(n1, sizeof n1, "%s@metadata", EXAMPLE);
    snprintf(n2, sizeof n2, "%s@metadata", edited);
    line_hash(a.out, n1, ma, sizeof ma);
    line_hash(b.out, n2, mb, sizeof mb);
    CHECK(strlen(ma) == 16 && strlen(mb) == 16 && strcmp(ma, mb) != 0);
    line_hash(a.out, EXAMPLE, ta, sizeof ta);
    line_hash(b.out, edited, tb, sizeof tb);
    CHECK(strlen(ta) == 16);
    CHECK_STR(ta, tb);
    run_free(&a);
    run_free(&b);
}

/* A file that changes under the reader: the error names it, no crash. */
TEST(hash_errors) {
    run r = gguf("hash", "tests/hash/absent.gguf", EXAMPLE, NULL);
    CHECK_EQ_U(r.status, 1);
    CHECK(has(r.err, "gguf hash: tests/hash/absent.gguf: "));
    CHECK(has(r.out, "xxh64     c4cf232518d6233d  " EXAMPLE "\n")); /* the other file is still hashed */
    run_free(&r);
}
