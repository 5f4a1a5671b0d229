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

static void install(void) {
    static int installed;
    if (installed) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    installed = 1;
}

/* created: 2 = about to create (signals are held from here until the name is
 * recorded, so no signal finds a file nobody knows of), 1 = created,
 * 0 = renamed or removed (path NULL: the creation failed). */
void cli_temp_note(void *ud, const char *path, int created) {
    (void)ud;
    static sigset_t before;
    static int holding;
    install();
    sigset_t fatal;
    sigemptyset(&fatal);
    sigaddset(&fatal, SIGINT);
    sigaddset(&fatal, SIGTERM);
    sigaddset(&fatal, SIGHUP);
    if (created == 2) {
        if (!holding) pthread_sigmask(SIG_BLOCK, &fatal, &before);
        holding = 1;
        return;
    }
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &fatal, &old);
    for (int i = 0; path && i < SLOTS; i++) {
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
    /* a signal held since "about to create" is delivered here, with the
     * path recorded */
    pthread_sigmask(SIG_SETMASK, holding ? &before : &old, NULL);
    holding = 0;
}

lgg_status cli_write_file(const lgg_writer *w, const char *out, const lgg_write_options *o, lgg_error *e) {
    lgg_write_options opt;
    lgg_write_options_init(&opt);
    if (o) opt = *o;
    opt.temp_fn = cli_temp_note;
    return lgg_writer_write_file(w, out, &opt, e);
}
