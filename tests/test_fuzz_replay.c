/* test_fuzz_replay.c -- every fuzz target replays its whole corpus (and its
 * regressions) as part of `make test`.
 *
 * The targets are built as plain programs (fuzz/replay.c main) into
 * <build>/fuzz/<target>; `make test` builds them first.  Each runs in a child
 * process (a finding aborts it), from the project root, and must exit 0
 * after replaying at least one input.  Under `make check-asan` they carry the
 * sanitizers too. */
#include "test.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void replay(const char *target) {
    char bin[1024], corpus[512], out[1024];
    snprintf(bin, sizeof bin, "%s/fuzz/%s", build_dir(), target);
    snprintf(corpus, sizeof corpus, "fuzz/corpus/%s", target);
    snprintf(out, sizeof out, "%s/replay-%s.out", scratch_dir(), target);
    struct stat st;
    CHECKF(stat(corpus, &st) == 0 && S_ISDIR(st.st_mode), "no corpus directory %s (run from the project root)", corpus);
    CHECKF(access(bin, X_OK) == 0, "%s is not built (make test builds it)", bin);
    if (test_failures()) return;

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char *argv[] = {bin, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, bin, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    REQUIRE(rc == 0);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    if (WIFSIGNALED(status))
        test_fail(__FILE__, __LINE__, "%s died of signal %d (%s): a fuzz finding; see its stderr above", target,
                  WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        CHECKF(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s exited with status %d", target,
               WEXITSTATUS(status));

    /* "<target>: N inputs replayed" */
    size_t n = 0;
    unsigned char *text = read_file(out, &n);
    REQUIRE(text != NULL);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), (const char *)text);
    free(text);
    char want[128];
    snprintf(want, sizeof want, "%s: ", target);
    CHECKF(strncmp(line, want, strlen(want)) == 0, "%s printed '%s'", target, line);
    unsigned long count = strtoul(line + strlen(want), NULL, 10);
    CHECKF(count > 0 && strstr(line, " inputs replayed") != NULL, "%s replayed nothing: '%s'", target, line);
}

static const char *const KNOWN[] = {"fuzz_open", "fuzz_dump", "fuzz_dequant", "fuzz_name", "fuzz_edit", "fuzz_split", "fuzz_args"};

TEST(fuzz_replay_open) { replay("fuzz_open"); }
TEST(fuzz_replay_dump) { replay("fuzz_dump"); }
TEST(fuzz_replay_dequant) { replay("fuzz_dequant"); }
TEST(fuzz_replay_name) { replay("fuzz_name"); }
TEST(fuzz_replay_edit) { replay("fuzz_edit"); }
TEST(fuzz_replay_split) { replay("fuzz_split"); }
TEST(fuzz_replay_args) { replay("fuzz_args"); }

/* Targets added later (fuzz/fuzz_*.c) replay here until they get a test of
 * their own; a target without a corpus directory fails. */
TEST(fuzz_replay_other_targets) {
    DIR *d = opendir("fuzz");
    REQUIRE(d != NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, "fuzz_", 5) != 0 || l < 3 || strcmp(e->d_name + l - 2, ".c") != 0) continue;
        char t[256];
        snprintf(t, sizeof t, "%.*s", (int)(l - 2), e->d_name);
        bool known = false;
        for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++) known |= strcmp(KNOWN[i], t) == 0;
        if (!known) replay(t);
    }
    closedir(d);
}
