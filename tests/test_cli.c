/* test_cli.c -- the gguf tool, end to end: every case in tests/cli/ runs the
 * built binary and compares stdout, stderr and the exit status exactly.
 *
 * A case NAME has NAME.cmd (the arguments, one per line), NAME.out, NAME.err
 * and NAME.status.  "@SHARED@" in any of them stands for the shared reference
 * directory, "@STANDIN@" for the stand-ins of its models (standin.h),
 * "@VOCAB@" for ../shared/corpus/llama.cpp when ../shared is there, else the
 * directory of the reduced vocabularies (vocab_standin.h), and "@REF@/REL"
 * for the reference file REL (a path under ../shared) when ../shared is
 * there, else for its stand-in (model_path(), standin.h): a case on a file
 * whose stand-in gives what the reference gives.  Run
 * with GGUF_CLI_REGEN=1 to rewrite the expectations from the current tool
 * (then read the diff before committing it). */
#include "test.h"
#include "standin.h"
#include "vocab_standin.h"

#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

static char *load_text(const char *path) {
    size_t n;
    unsigned char *b = read_file(path, &n);
    if (!b) return NULL;
    char *s = malloc(n + 1);
    memcpy(s, b, n);
    s[n] = 0;
    free(b);
    return s;
}

static void save_text(const char *path, const char *s) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(s, f);
        fclose(f);
    }
}

/* True when TEXT (a case's .cmd or .stdin) names the shared reference
 * directory and that is not there. */
static bool needs_missing(const char *text, const char *shared) {
    return strstr(text, "@SHARED@") && access(shared, R_OK) != 0;
}

/* The stand-in models' directory when the case names "@STANDIN@" (built on
 * first use, standin.h), else a string no output holds. */
static const char *standin_placeholder(const char *cmd, const char *in) {
    const char *dir = strstr(cmd, "@STANDIN@") || (in && strstr(in, "@STANDIN@")) ? standin_dir() : NULL;
    return dir ? dir : "\n@@";
}

/* The vocabularies' directory when the case names "@VOCAB@": the shared
 * reference's corpus/llama.cpp, or without it the reduced stand-ins (built
 * on first use); else a string no output holds. */
static const char *vocab_placeholder(const char *cmd, const char *in, const char *shared) {
    static char dir[4200];
    if (!strstr(cmd, "@VOCAB@") && !(in && strstr(in, "@VOCAB@"))) return "\n@@@";
    if (access(shared, R_OK) == 0) {
        snprintf(dir, sizeof dir, "%s/corpus/llama.cpp", shared);
        return dir;
    }
    const char *d = vocab_standin_dir();
    return d ? d : "\n@@@";
}

/* TEXT with "@SHARED@", "@STANDIN@" and "@VOCAB@" made the directories they
 * stand for (paths[0], [1], [2]). */
static char *with_paths(const char *text, const char *const paths[3]) {
    char *a = text_replace(text, "@VOCAB@", paths[2]);
    char *b = text_replace(a, "@SHARED@", paths[0]);
    char *c = text_replace(b, "@STANDIN@", paths[1]);
    free(a);
    free(b);
    return c;
}

/* The tool's output with those directories made placeholders again. */
static char *placeholders(const char *text, const char *shared, const char *standin, const char *vocab) {
    char *a = text_replace(text, vocab, "@VOCAB@");
    char *b = text_replace(a, standin, "@STANDIN@");
    char *c = text_replace(b, shared, "@SHARED@");
    free(a);
    free(b);
    return c;
}

#define MAX_REFS 8
/* The "@REF@/REL" names of a case and the files they stand for. */
typedef struct refs {
    int n;
    char name[MAX_REFS][600], path[MAX_REFS][1700];
} refs;

/* Find CMD's "@REF@/REL" names (one argument each) and the files they
 * stand for; false, the test skipped, when one is not there. */
static bool find_refs(const char *cmd, refs *r) {
    r->n = 0;
    for (const char *p = strstr(cmd, "@REF@/"); p; p = strstr(p + 1, "@REF@/")) {
        const size_t len = strcspn(p, "\n");
        if (r->n == MAX_REFS || len >= sizeof r->name[0]) {
            test_fail(__FILE__, __LINE__, "too many or too long @REF@ names");
            return false;
        }
        snprintf(r->name[r->n], sizeof r->name[0], "%.*s", (int)len, p);
        const char *path = model_path(r->name[r->n] + 6);
        if (!path || access(path, R_OK) != 0) {
            test_skip("neither %s nor a stand-in for it is there", shared_path(r->name[r->n] + 6));
            return false;
        }
        snprintf(r->path[r->n++], sizeof r->path[0], "%s", path);
    }
    return true;
}

/* TEXT (malloc'd, freed) with each of R's names made its path (TO_PATH)
 * or each path made its name. */
static char *swap_refs(char *text, const refs *r, bool to_path) {
    for (int i = 0; i < r->n && text; i++) {
        char *t = to_path ? text_replace(text, r->name[i], r->path[i]) : text_replace(text, r->path[i], r->name[i]);
        free(text);
        text = t;
    }
    return text;
}

/* One case: NAME.cmd holds the arguments, one per line; NAME.stdin, if
 * present, names the file given as standard input (else /dev/null), or
 * "pipe:FILE" for FILE's bytes through a pipe. */
static void run_case(void *arg) {
    const char *name = arg;
    char shared[4096];
    snprintf(shared, sizeof shared, "%s", shared_path(""));
    if (shared[0] && shared[strlen(shared) - 1] == '/') shared[strlen(shared) - 1] = 0;
    char tool[1024];
    snprintf(tool, sizeof tool, "%s/gguf", build_dir());
    const bool regen = getenv("GGUF_CLI_REGEN") != NULL;
    char p[1024];
    snprintf(p, sizeof p, "tests/cli/%s.cmd", name);
    char *cmd_raw = load_text(p);
    REQUIRE(cmd_raw != NULL);
    snprintf(p, sizeof p, "tests/cli/%s.stdin", name);
    char *in_raw = load_text(p);
    if (needs_missing(cmd_raw, shared) || (in_raw && needs_missing(in_raw, shared))) {
        /* named: a case stays on @SHARED@ when it reads the reference's own bytes (no stand-in has them) */
        const char *at = strstr(cmd_raw, "@SHARED@") ? strstr(cmd_raw, "@SHARED@") : strstr(in_raw, "@SHARED@");
        test_skip("the reference material (%s) is missing: the case reads %s%.*s", shared, shared,
                  (int)strcspn(at + 8, "\n"), at + 8);
        free(cmd_raw);
        free(in_raw);
        return;
    }
    refs *rf = calloc(1, sizeof *rf);
    REQUIRE(rf != NULL);
    if (!find_refs(cmd_raw, rf)) {
        free(rf);
        free(cmd_raw);
        free(in_raw);
        return;
    }
    const char *standin = standin_placeholder(cmd_raw, in_raw);
    const char *vocab = vocab_placeholder(cmd_raw, in_raw, shared);
    const char *const paths[3] = {shared, standin, vocab};
    char *cmd = swap_refs(with_paths(cmd_raw, paths), rf, true);
    char *in = in_raw ? with_paths(in_raw, paths) : NULL;
    if (in && in[0] && in[strlen(in) - 1] == '\n') in[strlen(in) - 1] = 0;
    const bool piped = in && !strncmp(in, "pipe:", 5);
    char *argv[72];
    int argc = 0;
    if (piped) { /* sh -c 'cat "$0" | exec "$@"' FILE gguf ARGS... */
        argv[argc++] = (char *)"/bin/sh";
        argv[argc++] = (char *)"-c";
        argv[argc++] = (char *)"cat \"$0\" | exec \"$@\"";
        argv[argc++] = in + 5;
    }
    argv[argc++] = tool;
    for (char *line = strtok(cmd, "\n"); line && argc < 71; line = strtok(NULL, "\n")) argv[argc++] = line;
    argv[argc] = NULL;
    char *out, *err;
    size_t ol, el;
    int status;
    REQUIRE(run_capture_stdin(argv, in && !piped ? in : "/dev/null", &out, &ol, &err, &el, &status) == 0);
    const bool have_shared = access(shared, R_OK) == 0; /* else no path in the output is the shared one */
    out = swap_refs(out, rf, false);
    err = swap_refs(err, rf, false);
    char *out_t = placeholders(out ? out : "", have_shared ? shared : "\n@@", standin, vocab);
    char *err_t = placeholders(err ? err : "", have_shared ? shared : "\n@@", standin, vocab);
    char st[16];
    snprintf(st, sizeof st, "%d\n", status);
    const char *ext[3] = {"out", "err", "status"};
    const char *got[3] = {out_t, err_t, st};
    for (int k = 0; k < 3; k++) {
        snprintf(p, sizeof p, "tests/cli/%s.%s", name, ext[k]);
        if (regen) {
            save_text(p, got[k]);
            continue;
        }
        char *want = load_text(p);
        CHECKF(want != NULL, "%s: missing", p);
        if (want && strcmp(want, got[k]) != 0) {
            size_t j = 0;
            while (want[j] && want[j] == got[k][j]) j++;
            test_fail(__FILE__, __LINE__, "%s differs at byte %zu: want \"%.60s\" got \"%.60s\"", p, j, want + j,
                      got[k] + j);
        }
        free(want);
    }
    free(out_t);
    free(err_t);
    free(out);
    free(err);
    free(rf);
    free(cmd);
    free(cmd_raw);
    free(in);
    free(in_raw);
}

/* Each case in tests/cli/ is a test of its own, "cli/NAME", so a failure
 * names the case.  The runner starts in the repository's root. */
__attribute__((constructor)) static void register_cases(void) {
    test_register_dir("tests/cli", ".cmd", "cli/", run_case);
}

TEST(cli_cases_present) {
    DIR *d = opendir("tests/cli");
    REQUIRE(d != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        n += l > 4 && !strcmp(e->d_name + l - 4, ".cmd");
    }
    closedir(d);
    CHECK(n >= 15);
}
