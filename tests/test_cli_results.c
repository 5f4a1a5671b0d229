/* test_cli_results.c -- the gguf tool's answers hold: what set writes,
 * validate accepts; validate and estimate name one offset for one key;
 * every option a command takes is in its --help and the man page. */
#include "test.h"
#include "libgguf.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static bool exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}

/* The number after `tag` in s, or -1. */
static long long number_after(const char *s, const char *tag) {
    const char *p = s ? strstr(s, tag) : NULL;
    return p ? strtoll(p + strlen(tag), NULL, 10) : -1;
}

TEST(cli_set_refuses_what_validate_rejects) {
    if (!need_shared()) return;
    char in[1024];
    snprintf(in, sizeof in, "%s", shared_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
    const char *out = scratch_path("set-type.gguf");
    char *err = NULL;
    /* a standard key of another type than the spec's: refused, nothing written */
    CHECK(run_gguf_capture(NULL, &err, "set", in, "-o", out, "llama.context_length=str:abc", NULL) == 1);
    CHECK(err && strstr(err, "'llama.context_length' is string, expected u32") && strstr(err, "--force"));
    CHECK(!exists(out));
    free(err);
    /* an alignment that is a power of two but not a multiple of 8 */
    CHECK(run_gguf_capture(NULL, &err, "set", in, "-o", out, "general.alignment=u32:1", NULL) == 1);
    CHECK(err && strstr(err, "general.alignment 1 is not a multiple of 8"));
    CHECK(!exists(out));
    free(err);
    /* a generic int at a standard key takes its type; a good alignment passes */
    CHECK(run_gguf_capture(NULL, NULL, "set", in, "-o", out, "llama.context_length=int:64", "general.alignment=u32:64",
                           NULL) == 0);
    char *vo = NULL;
    CHECK(run_gguf_capture(&vo, NULL, "validate", "-q", out, NULL) == 0);
    free(vo);
    unlink(out);
    /* --force writes it, and validate then rejects it */
    CHECK(run_gguf_capture(NULL, NULL, "set", in, "-o", out, "--force", "llama.context_length=str:abc", NULL) == 0);
    CHECK(run_gguf_capture(NULL, NULL, "validate", out, NULL) == 1);
}

/* validate and estimate point at the same byte for the same key: the start
 * of its pair (the key's length field), as lgg_kv.offset has it. */
TEST(cli_validate_estimate_same_offset) {
    if (!need_shared()) return;
    char in[1024];
    snprintf(in, sizeof in, "%s", shared_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
    const char *out = scratch_path("offset.gguf");
    REQUIRE(run_gguf_capture(NULL, NULL, "set", in, "-o", out, "--force", "llama.context_length=str:abc", NULL) == 0);
    lgg_file *f = NULL;
    lgg_error e;
    REQUIRE(lgg_open_file(out, NULL, &f, &e) == LGG_OK);
    int64_t i = lgg_find_key_cstr(f, "llama.context_length");
    REQUIRE(i >= 0);
    long long pair = (long long)lgg_kv_at(f, (uint64_t)i)->offset;
    lgg_close(f);
    char *vo = NULL, *ee = NULL;
    CHECK(run_gguf_capture(&vo, NULL, "validate", out, NULL) == 1);
    CHECK(run_gguf_capture(NULL, &ee, "estimate", out, NULL) == 1);
    long long at_v = number_after(vo ? strstr(vo, "offset") : NULL, "offset ");
    long long at_e = number_after(ee, "(at byte ");
    CHECKF(at_v == pair && at_e == pair, "validate %lld, estimate %lld, the pair starts at %lld", at_v, at_e, pair);
    free(vo);
    free(ee);
}

/* stdout of `gguf ARGS...` (NULL-terminated), or NULL; stderr into *err. */
static char *out_of(char **err, int *status, const char *a, const char *b, const char *c, const char *d,
                    const char *e, const char *f) {
    char *o = NULL;
    *status = run_gguf_capture(&o, err, a, b, c, d, e, f, NULL);
    return o;
}

static bool same_out(const char *x, const char *y) { return x && y && !strcmp(x, y); }

/* One size parser: split's bare G is 1000^3 (llama-gguf-split), estimate's
 * 1024^3; GB and GiB mean the same in both; a bare letter gets a note. */
TEST(cli_size_suffixes) {
    if (!need_shared()) return;
    char m[1024];
    snprintf(m, sizeof m, "%s", shared_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
    const char *pre = scratch_path("never");
    int st;
    char *e1 = NULL, *e2 = NULL, *e3 = NULL, *e4 = NULL;
    char *dec = out_of(&e1, &st, "split", "--dry-run", "--max-size", "1000000", m, pre);
    CHECK(st == 0);
    char *bare = out_of(&e2, &st, "split", "--dry-run", "--max-size", "1M", m, pre);
    CHECK(st == 0 && same_out(dec, bare));
    CHECK(e2 && strstr(e2, "--max-size 1M is 1000000 bytes (MB, powers of 1000); 1MiB is 1048576"));
    char *mb = out_of(&e3, &st, "split", "--dry-run", "--max-size", "1MB", m, pre);
    CHECK(st == 0 && same_out(dec, mb) && e3 && !e3[0]);
    char *bin = out_of(&e4, &st, "split", "--dry-run", "--max-size", "1048576", m, pre);
    char *mib = out_of(NULL, &st, "split", "--dry-run", "--max-size", "1MiB", m, pre);
    CHECK(st == 0 && same_out(bin, mib) && !same_out(bin, dec));
    free(dec), free(bare), free(mb), free(bin), free(mib), free(e1), free(e2), free(e3), free(e4);
    /* estimate: a bare G is GiB */
    char *ee = NULL;
    char *g = out_of(&ee, &st, "estimate", "--json", "--fit", "1G", m, NULL);
    char *gib = out_of(NULL, &st, "estimate", "--json", "--fit", "1GiB", m, NULL);
    char *exact = out_of(NULL, &st, "estimate", "--json", "--fit", "1073741824", m, NULL);
    char *gb = out_of(NULL, &st, "estimate", "--json", "--fit", "1GB", m, NULL);
    char *dexact = out_of(NULL, &st, "estimate", "--json", "--fit", "1000000000", m, NULL);
    CHECK(same_out(g, gib) && same_out(g, exact) && same_out(gb, dexact));
    CHECK(ee && strstr(ee, "--fit 1G is 1073741824 bytes (GiB, powers of 1024); 1GB is 1000000000"));
    free(g), free(gib), free(exact), free(gb), free(dexact), free(ee);
    CHECK(run_gguf_capture(NULL, NULL, "split", "--dry-run", "--max-size", "1Mi", m, pre, NULL) == 2);
}
