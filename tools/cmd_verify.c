/* cmd_verify.c -- `gguf verify FILE... [--sha256 HEX]...`: is a downloaded
 * file complete and unchanged?  The structural checks of `validate` that a
 * broken download trips (a header or tensor data cut short, non-zero padding,
 * bytes past the declared end), and optionally the whole file's sha256 (what
 * sha256sum prints, the hub's LFS oid) against the published one. */
#include "tool.h"
#include "hash.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { O_SHA256 = 1, O_JSON };
#include "spec_verify.h" /* from tools/spec/verify.txt (scripts/cli-spec.awk) */

typedef struct vres {
    bool intact, have_sha, sha_ok;
    uint64_t size, needed; /* needed: bytes the header says the file has at least (0: unknown) */
    char sha[65];
    char problems[6][400];
    int n_problems, more;
} vres;

static void problem(vres *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(vres *r, const char *fmt, ...) {
    r->intact = false;
    if (r->n_problems == 6) {
        r->more++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->problems[r->n_problems++], sizeof r->problems[0], fmt, ap);
    va_end(ap);
}

/* Tensor data the file is too short to hold: how much is needed and how many tensors lack data. */
static void check_truncation(const lgg_file *f, vres *r) {
    uint64_t need = lgg_file_data_offset(f), missing = 0;
    for (uint64_t i = 0; i < lgg_tensor_count(f); i++) {
        const lgg_tensor *t = lgg_tensor_at(f, i);
        if (t->type_known && t->file_offset + t->size > need) need = t->file_offset + t->size;
        if (t->type_known && t->file_offset + t->size > r->size) missing++;
    }
    r->needed = need;
    if (need > r->size)
        problem(r, "truncated: the file has %llu bytes, its header describes at least %llu (%llu missing; %llu of %llu tensors incomplete)",
                (unsigned long long)r->size, (unsigned long long)need, (unsigned long long)(need - r->size),
                (unsigned long long)missing, (unsigned long long)lgg_tensor_count(f));
}

/* The structural findings a broken download leaves: padding, trailing bytes. */
static void check_layout(const lgg_file *f, vres *r) {
    lgg_report *rep = NULL;
    if (lgg_validate(f, NULL, &rep) != LGG_OK) {
        problem(r, "out of memory while checking");
        return;
    }
    for (size_t i = 0; i < lgg_report_count(rep); i++) {
        const lgg_finding *x = lgg_report_at(rep, i);
        if (x->check == LGG_CHECK_PADDING) problem(r, "bad padding: %s", x->message);
        /* a cut-short file's "end" is its last complete tensor's: not data past the end */
        else if (x->check == LGG_CHECK_TRAILING_BYTES && r->needed <= r->size) problem(r, "data past the declared end: %s", x->message);
    }
    lgg_report_free(rep);
}

static void file_sha256(int fd, uint64_t size, vres *r, const char *want) {
    hash_range one = {fd, 0, size, NULL};
    hash_job j = {&one, 1, 0, HASH_SHA256, 1, NULL, NULL, NULL, NULL, NULL};
    hash_digest d;
    char why[320];
    if (hash_stream(&j, &d, why, sizeof why)) {
        problem(r, "%s", why);
        return;
    }
    hash_hex(r->sha, d.sha256, 32);
    r->have_sha = true;
    r->sha_ok = !strcmp(r->sha, want);
    if (!r->sha_ok) problem(r, "sha256 differs: expected %s, the file has %s", want, r->sha);
}

static void verify_one(const char *path, const char *want_sha, vres *r) {
    memset(r, 0, sizeof *r);
    r->intact = true;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        problem(r, "cannot open: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return;
    }
    r->size = (uint64_t)st.st_size;
    lgg_open_options oo;
    lgg_open_options_init(&oo);
    oo.flags = LGG_OPEN_ALLOW_MISSING_DATA;
    lgg_file *f = NULL;
    lgg_error e;
    memset(&e, 0, sizeof e);
    bool header = false;
    if (cli_open_local(fd, &oo, CLI_OPEN_META, &f, &e, &header) != LGG_OK) {
        if (e.code == LGG_ERR_TRUNCATED)
            problem(r, "truncated in the header: the file has %llu bytes (%s)", (unsigned long long)r->size,
                    e.message);
        else problem(r, "not a readable GGUF file: %s [%s]", e.message, lgg_status_name(e.code));
    } else {
        check_truncation(f, r);
        check_layout(f, r);
        /* the whole file could not be mapped: its header was read instead */
        if (header)
            cli_err("verify", path, "note: the file could not be mapped; its header was read with pread and "
                    "the padding between tensors was not checked");
    }
    if (want_sha) file_sha256(fd, r->size, r, want_sha);
    lgg_close(f);
    close(fd);
}

static void print_json(const char *path, const vres *r, const char *want, bool first) {
    printf("%s{\"file\": ", first ? "" : ",\n ");
    cli_json_str(stdout, path, strlen(path));
    printf(", \"intact\": %s, \"size\": %llu", r->intact ? "true" : "false", (unsigned long long)r->size);
    if (r->needed) printf(", \"needed\": %llu", (unsigned long long)r->needed);
    if (want) printf(", \"sha256_expected\": \"%s\"", want);
    if (r->have_sha) printf(", \"sha256\": \"%s\", \"sha256_match\": %s", r->sha, r->sha_ok ? "true" : "false");
    printf(", \"problems\": [");
    for (int i = 0; i < r->n_problems; i++) {
        if (i) printf(", ");
        cli_json_str(stdout, r->problems[i], strlen(r->problems[i]));
    }
    printf("], \"more_problems\": %d}", r->more);
}

static void print_text(const char *path, const vres *r) {
    if (r->have_sha) printf("%s  %s\n", r->sha, path);
    printf("%s: %s\n", path, r->intact ? "intact" : "not intact");
    fflush(stdout);
    for (int i = 0; i < r->n_problems; i++) cli_err("verify", path, "%s", r->problems[i]);
    if (r->more) cli_err("verify", path, "and %d more problems", r->more);
}

/* 64 hex digits, lower-cased in place; false otherwise. */
static bool sha_arg(char *h) {
    size_t n = strlen(h);
    for (size_t i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)h[i])) return false;
        h[i] = (char)tolower((unsigned char)h[i]);
    }
    return n == 64;
}

typedef struct vopts {
    char **shas;
    int n_shas;
    bool json;
} vopts;

static int verify_opt(void *ud, int id, const char *val, char *why, size_t cap) {
    vopts *o = ud;
    if (id == O_JSON) o->json = true;
    else if (id == O_SHA256) {
        char *h = strdup(val);
        if (!h || !sha_arg(h)) {
            free(h);
            return cli_why(why, cap, "--sha256 takes 64 hex digits, not '%s'", val);
        }
        o->shas[o->n_shas++] = h;
    } else if (id == CLI_OPERAND && cli_is_stdin(val))
        return cli_why(why, cap, "verify checks files, not standard input");
    return 0;
}

int cmd_verify(int argc, char **argv) {
    vopts o = {calloc((size_t)argc, sizeof(char *)), 0, false};
    int nf = 0, rc = o.shas ? cli_parse(&SPEC, argc, argv, verify_opt, &o, &nf) : CLI_FAIL;
    if (rc == CLI_OK && o.n_shas > nf)
        rc = cli_usage_error("verify", SPEC.usage, "%d --sha256 for %d FILE%s", o.n_shas, nf, nf == 1 ? "" : "s");
    if (rc == CLI_OK && o.json) printf("{\"files\": [");
    for (int i = 0; rc != CLI_HELP && rc != CLI_USAGE && o.shas && i < nf; i++) {
        const char *path = argv[1 + i], *want = i < o.n_shas ? o.shas[i] : NULL;
        vres r;
        verify_one(path, want, &r);
        if (!r.intact) rc = CLI_FAIL;
        if (o.json) print_json(path, &r, want, i == 0);
        else print_text(path, &r);
        if (o.json && !r.intact) cli_err("verify", path, "not intact: %s", r.n_problems ? r.problems[0] : "");
    }
    if ((rc == CLI_OK || rc == CLI_FAIL) && o.json && nf) printf("], \"intact\": %s}\n", rc == CLI_OK ? "true" : "false");
    for (int i = 0; i < o.n_shas; i++) free(o.shas[i]);
    free(o.shas);
    return rc == CLI_HELP ? CLI_OK : rc;
}
