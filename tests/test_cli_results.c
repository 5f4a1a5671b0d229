/* test_cli_results.c -- the gguf tool's answers hold: what set writes,
 * validate accepts; validate and estimate name one offset for one key;
 * gguf(1) is the page its generator writes, and every option a command
 * takes is in its --help and its section of the page. */
#include "test.h"
#include "standin.h"
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
    if (!need_models()) return;
    char in[1024];
    snprintf(in, sizeof in, "%s", model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
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
    /* a rename moves a value to a key the spec types otherwise */
    CHECK(run_gguf_capture(NULL, &err, "set", in, "-o", out, "--rename", "general.name=llama.context_length", NULL) == 1);
    CHECK(err && strstr(err, "'llama.context_length' is string, expected u32"));
    CHECK(!exists(out));
    free(err);
    /* not a power of two: no file can have it, so --force is not offered */
    CHECK(run_gguf_capture(NULL, &err, "set", in, "-o", out, "general.alignment=u32:12", NULL) == 1);
    CHECK(err && strstr(err, "general.alignment 12 is not a non-zero power of two\n") && !strstr(err, "--force"));
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
    if (!need_models()) return;
    char in[1024];
    snprintf(in, sizeof in, "%s", model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
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
    if (!need_models()) return;
    char m[1024];
    snprintf(m, sizeof m, "%s", model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"));
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

/* stdout (its length in *len) and status of `sh -c 'ulimit -v KIB; exec
 * gguf ARGS'` (kib 0: no limit); args end at the first NULL. */
static char *limited(int *status, size_t *len, long kib, const char *const args[4]) {
    char tool[1024], lim[32];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    snprintf(lim, sizeof lim, "%ld", kib);
    char *argv[] = {(char *)"/bin/sh", (char *)"-c",
                    (char *)"[ \"$0\" = 0 ] || ulimit -v \"$0\" || exit 99; exec \"$@\"", lim, tool,
                    (char *)args[0], (char *)args[1], (char *)args[2], (char *)args[3], NULL};
    char *out = NULL, *err = NULL;
    size_t el;
    if (run_capture(argv, &out, len, &err, &el, status) != 0) return NULL;
    free(err);
    return out;
}

/* A 16 GiB model (sparse) under a 1 GiB address-space limit: estimate reads
 * only its header, and the other read-only commands fall back to reading
 * the header with pread when the whole file cannot be mapped: the same
 * output as without the limit. */
TEST(cli_header_only_under_ulimit) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    test_skip("a sanitizer's shadow memory does not fit an address-space limit");
    return;
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    test_skip("a sanitizer's shadow memory does not fit an address-space limit");
    return;
#endif
#endif
    if (!need_models()) return;
    char big[1024];
    snprintf(big, sizeof big, "%s", scratch_path("big-16g.gguf"));
    REQUIRE(file_copy(model_path("golden/llama-quantize/pub-dense-Q8_0.gguf"), big));
    REQUIRE(truncate(big, 16LL << 30) == 0);
    const char *const cmds[][4] = {
        {"estimate", "--json", big, NULL}, {"estimate", "--fit", "1GiB", big}, {"info", big, NULL, NULL},
        {"tensors", big, NULL, NULL},      {"dump", big, NULL, NULL},          {"validate", big, NULL, NULL},
        {"stats", big, NULL, NULL},        {"hash", big, NULL, NULL},          {"cat", big, "output_norm.weight", NULL},
        {"verify", big, NULL, NULL}, /* not intact: the bytes past the last tensor */
    };
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
        int s1 = -1, s2 = -1;
        size_t n1 = 0, n2 = 0;
        char *x = limited(&s1, &n1, 0, cmds[k]), *y = limited(&s2, &n2, 1L << 20, cmds[k]);
        const int want = strcmp(cmds[k][0], "verify") ? 0 : 1;
        CHECKF(s1 == want && s2 == want && x && y && n1 == n2 && n1 > 0 && !memcmp(x, y, n1),
               "%s: status %d unlimited, %d under ulimit -v; %zu and %zu bytes out", cmds[k][0], s1, s2, n1, n2);
        free(x);
        free(y);
    }
    unlink(big);
}

/* cat on a truncated file: every tensor whose bytes are all there is served
 * (the same bytes as in the whole file); the others are refused, each named. */
TEST(cli_cat_truncated_serves_complete_tensors) {
    const char *whole = "examples/Tiny-Llama-82K-v1.0-Q8_0.gguf", *cut = "tests/data/truncated-Q8_0.gguf";
    lgg_file *w = NULL, *c = NULL;
    lgg_error e;
    lgg_open_options o;
    lgg_open_options_init(&o);
    o.flags |= LGG_OPEN_ALLOW_MISSING_DATA;
    REQUIRE(lgg_open_file(whole, NULL, &w, &e) == LGG_OK);
    REQUIRE(lgg_open_file(cut, &o, &c, &e) == LGG_OK);
    const uint64_t end = lgg_file_size(c);
    int served = 0, refused = 0;
    for (uint64_t i = 0; i < lgg_tensor_count(w); i++) {
        const lgg_tensor *t = lgg_tensor_at(w, i);
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)t->name.len, t->name.ptr);
        char tool[1024];
        snprintf(tool, sizeof tool, "%s/gguf", build_dir());
        char *argv[] = {tool, (char *)"cat", (char *)cut, name, NULL};
        char *out = NULL, *err = NULL;
        size_t ol = 0, el = 0;
        int st = -1;
        REQUIRE(run_capture(argv, &out, &ol, &err, &el, &st) == 0);
        if (t->file_offset + t->size <= end) {
            CHECKF(st == 0 && ol == t->size && !memcmp(out, t->data, ol), "%s: status %d, %zu bytes", name, st, ol);
            served++;
        } else {
            char want[200];
            snprintf(want, sizeof want, "tensor '%s' is incomplete", name);
            CHECKF(st == 1 && err && strstr(err, want), "%s: status %d, %s", name, st, err ? err : "");
            refused++;
        }
        free(out);
        free(err);
    }
    CHECK(served >= 8 && refused >= 10);
    lgg_close(w);
    lgg_close(c);
}

/* ---- gguf(1) is generated; every option is in --help and in gguf(1) ----
 * docs/gguf.1 is written by `gguf help --man docs/gguf.1.in`
 * (scripts/make-man.sh) from the prose there and the commands' option
 * tables: the committed page must be that output, byte for byte.  The
 * options are also read from the command's table in tools/cmd_NAME.c (the
 * rows of `static const cli_opt OPTS[]`, whose second field spells the
 * option), so the test follows the tables; --token and --timeout are every
 * command's (cli_args.c). */

TEST(cli_man_page_generated) {
    size_t n = 0;
    char *committed = (char *)read_file("docs/gguf.1", &n), *out = NULL, *err = NULL;
    REQUIRE(committed != NULL);
    int st = run_gguf_capture(&out, &err, "help", "--man", "docs/gguf.1.in", NULL);
    CHECKF(st == 0 && err && !err[0], "gguf help --man: status %d, stderr: %s", st, err ? err : "(none)");
    REQUIRE(out != NULL);
    size_t m = strlen(out), i = 0, line = 1;
    while (i < n && i < m && committed[i] == out[i]) line += out[i++] == '\n';
    CHECKF(i == n && i == m,
           "docs/gguf.1 is not what docs/gguf.1.in and the option tables give (first difference at line %zu): "
           "run scripts/make-man.sh", line);
    /* the generator refuses a template that leaves a command out */
    const char *bad = scratch_path("gguf.1.in");
    FILE *f = fopen(bad, "w");
    REQUIRE(f != NULL);
    fputs(".TH GGUF 1\n@command info\n@options info\n@command nosuch\n", f);
    fclose(f);
    char *err2 = NULL;
    CHECK(run_gguf_capture(NULL, &err2, "help", "--man", bad, NULL) == 1);
    CHECK(err2 && strstr(err2, "no such command") && strstr(err2, "'@command dump' is there 0 times"));
    free(err2);
    free(committed);
    free(out);
    free(err);
}

/* Does `word` occur in s as a whole option (not inside a longer one)? */
static bool has_option(const char *s, const char *word) {
    size_t n = strlen(word);
    for (const char *p = s; (p = strstr(p, word)); p++) {
        char before = p == s ? ' ' : p[-1], after = p[n];
        bool edge_b = !(before == '-' || (before >= 'a' && before <= 'z') || (before >= '0' && before <= '9'));
        bool edge_a = !(after == '-' || after == '_' || (after >= 'a' && after <= 'z') || (after >= '0' && after <= '9'));
        if (edge_b && edge_a) return true;
    }
    return false;
}

/* The option spellings in tools/spec/NAME.txt, '\n'-separated (malloc'd):
 * the NAMES of each "option ID NAMES [ARG]" line outside text (which runs
 * from "about", "epilog" or "option" to a line holding only "."); an "alias"
 * is not listed. */
static char *table_options(const char *src) {
    size_t cap = 4096, n = 0;
    char *out = calloc(1, cap);
    bool text = false;
    for (const char *p = src; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const size_t line = strcspn(p, "\n");
        if (text) {
            text = !(line == 1 && *p == '.');
            continue;
        }
        const bool opt = !strncmp(p, "option ", 7);
        text = opt || (line == 5 && !strncmp(p, "about", 5)) || (line == 6 && !strncmp(p, "epilog", 6));
        if (!opt) continue; /* an alias is not listed */
        const char *a = strchr(p, ' ') + 1;
        a += strcspn(a, " \n");
        if (*a != ' ') continue;
        a++;
        const char *close = a + strcspn(a, " \n");
        while (a < close) {
            size_t len = strcspn(a, "|");
            if (len > (size_t)(close - a)) len = (size_t)(close - a);
            if (n + len + 2 < cap) memcpy(out + n, a, len), n += len, out[n++] = '\n';
            a += len + (a + len < close);
        }
    }
    return out;
}

/* gguf(1)'s text with "\-" as "-", and the part of it from ".SS CMD" to
 * the next ".SS" or ".SH" (NULL when the command has no such section). */
static char *man_text(void) {
    size_t n;
    char *raw = (char *)read_file("docs/gguf.1", &n);
    if (!raw) return NULL;
    char *m = malloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (raw[i] == '\\' && i + 1 < n && raw[i + 1] == '-') continue;
        m[k++] = raw[i];
    }
    m[k] = 0;
    free(raw);
    return m;
}

static char *man_entry(const char *man, const char *cmd) {
    char head[64];
    snprintf(head, sizeof head, "\n.SS %s\n", cmd);
    const char *a = strstr(man, head);
    if (!a) return NULL;
    a++;
    const char *b = strstr(a + 4, "\n.SS"), *c = strstr(a + 4, "\n.SH");
    if (!b || (c && c < b)) b = c;
    size_t len = b ? (size_t)(b - a) : strlen(a);
    char *e = malloc(len + 1);
    memcpy(e, a, len);
    e[len] = 0;
    return e;
}

TEST(cli_every_option_in_help_and_man_page) {
    static const char *const cmds[] = {"info", "dump", "tensors", "validate", "cat", "stats", "diff",
                                       "get", "set", "rm", "copy", "split", "merge", "name",
                                       "quantize", "hash", "verify", "convert", "estimate", "download", "ls",
                                       "tokenize", "detokenize"};
    char *man = man_text();
    REQUIRE(man != NULL);
    /* the options every command takes: documented once, for all */
    CHECK(has_option(man, "--token") && has_option(man, "--timeout"));
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char path[256];
        snprintf(path, sizeof path, "tools/spec/%s.txt", cmds[c]);
        size_t n;
        char *src = (char *)read_file(path, &n);
        REQUIRE(src != NULL);
        src = realloc(src, n + 1);
        src[n] = 0;
        char *opts = table_options(src);
        /* every command but these two has options: a spec read as none is a reader's bug */
        CHECKF(opts && (*opts || !strcmp(cmds[c], "name") || !strcmp(cmds[c], "detokenize")), "%s: no options read", path);
        char *help = NULL;
        CHECKF(run_gguf_capture(&help, NULL, cmds[c], "--help", NULL) == 0 && help, "%s --help", cmds[c]);
        char *entry = man_entry(man, cmds[c]);
        CHECKF(entry != NULL, "gguf(1) has no .SS section for %s", cmds[c]);
        static const char *const common[] = {"--token", "--timeout"};
        for (int k = 0; k < 2; k++)
            CHECKF(help && has_option(help, common[k]), "%s --help does not list %s", cmds[c], common[k]);
        for (char *o = opts, *nl; o && *o; o = nl + 1) {
            nl = strchr(o, '\n');
            *nl = 0;
            CHECKF(help && has_option(help, o), "%s --help does not list %s", cmds[c], o);
            CHECKF(entry && has_option(entry, o), "gguf(1)'s %s entry does not list %s", cmds[c], o);
        }
        free(opts);
        free(entry);
        free(help);
        free(src);
    }
    free(man);
}

/* gguf convert --help's architecture table: the Hugging Face names start in
 * one column, after architectures of 10 characters and more too
 * (starcoder2, wavtokenizer-dec), and the table is whole. */
TEST(cli_convert_help_architectures_aligned) {
    char *out = NULL;
    REQUIRE(run_gguf_capture(&out, NULL, "convert", "--help", NULL) == 0 && out);
    const char *t = strstr(out, "\nArchitectures (");
    REQUIRE(t != NULL);
    int rows = 0;
    for (const char *l = strchr(t + 1, '\n') + 1; *l == ' '; l = strchr(l, '\n') + 1, rows++) {
        const size_t n = strcspn(l, "\n");
        if (l[2] != ' ' && strcspn(l + 2, " \n") == n - 2) /* a long architecture alone: names below */
            CHECKF(n > 11 && l[n + 1] == ' ', "%.*s: no names below", (int)n, l);
        else if (n > 12 && l[2] != ' ') /* "  arch      Names": the names from column 13 */
            CHECKF(l[11] == ' ' && l[12] != ' ', "misaligned: %.*s", (int)n, l);
        else if (n > 12) CHECKF(strspn(l, " ") == 12, "misaligned: %.*s", (int)n, l);
    }
    CHECK(rows > 50);
    CHECK(strstr(out, "  starcoder2\n            Starcoder2ForCausalLM\n") != NULL);
    const size_t n = strlen(out);
    CHECK(n > 15 && !strcmp(out + n - 15, "2 usage error.\n"));
    free(out);
}
