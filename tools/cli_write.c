/* cli_write.c -- every file the tool writes goes through here, so that
 * SIGINT, SIGTERM and SIGHUP remove the temporary file a write has beside
 * its target (SIGKILL aside, no run leaves one behind).
 *
 * The library reports each temporary file through lgg_write_options'
 * temp_fn; the paths are kept in a fixed table the signal handler can read
 * without allocating, and the handler only unlink()s (async-signal-safe),
 * then dies of the same signal so the exit status still says what happened. */
#include "cli.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { SLOTS = 8, PATH_CAP = 4096 };
static char temp_path[SLOTS][PATH_CAP];
static volatile sig_atomic_t temp_live[SLOTS];

static void on_fatal(int sig) {
    for (int i = 0; i < SLOTS; i++)
        if (temp_live[i]) unlink(temp_path[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_temp_note(void *ud, const char *path, int created) {
    (void)ud;
    static int installed;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal;
        sigemptyset(&sa.sa_mask);
        for (int s = 0; s < 3; s++) sigaddset(&sa.sa_mask, s == 0 ? SIGINT : s == 1 ? SIGTERM : SIGHUP);
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        installed = 1;
    }
    /* the table changes with the signals blocked, so the handler never sees
     * a half-written path */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int i = 0; i < SLOTS; i++) {
        if (created && !temp_live[i] && strlen(path) < PATH_CAP) {
            memcpy(temp_path[i], path, strlen(path) + 1);
            temp_live[i] = 1;
            break;
        }
        if (!created && temp_live[i] && !strcmp(temp_path[i], path)) {
            temp_live[i] = 0;
            break;
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

lgg_status cli_write_file(const lgg_writer *w, const char *out, const lgg_write_options *o, lgg_error *e) {
    lgg_write_options opt;
    lgg_write_options_init(&opt);
    if (o) opt = *o;
    opt.temp_fn = cli_temp_note;
    return lgg_writer_write_file(w, out, &opt, e);
}
