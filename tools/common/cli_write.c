/* cli_write.c -- every file the tool writes goes through here, so that
 * SIGINT, SIGTERM and SIGHUP remove the temporary file a write has beside
 * its target (SIGKILL aside, no run leaves one behind).
 *
 * The library reports each temporary file through lgg_write_options'
 * temp_fn; the paths are kept in a fixed table the signal handler can read
 * without allocating, and the handler only unlink()s (async-signal-safe),
 * then dies of the same signal so the exit status still says what happened.
 * A command writing several files opens an output set (cli_outputs_begin):
 * the handler then also removes every file of the set already in place. */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SLOTS = 24, PATH_CAP = 4096 }; /* convert's 7 outputs at once: each staged, its lock, each being written */
static char temp_path[SLOTS][PATH_CAP];
static volatile sig_atomic_t temp_live[SLOTS];
/* The open output set's finished files: the array is replaced (never
 * changed in place) with the signals blocked, so the handler sees either
 * the old or the new one whole. */
static char **volatile outputs;
static volatile sig_atomic_t n_outputs, outputs_open;

static void on_fatal(int sig) {
    for (int i = 0; i < SLOTS; i++)
        if (temp_live[i]) unlink(temp_path[i]);
    for (sig_atomic_t i = 0; outputs_open && i < n_outputs; i++) unlink(outputs[i]);
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

static void fatal_set(sigset_t *s) {
    sigemptyset(s);
    sigaddset(s, SIGINT);
    sigaddset(s, SIGTERM);
    sigaddset(s, SIGHUP);
}

void cli_outputs_begin(void) {
    install();
    cli_outputs_keep();
    outputs_open = 1;
}

void cli_outputs_add(const char *path) {
    if (!outputs_open || !path) return;
    sigset_t fatal, old;
    fatal_set(&fatal);
    pthread_sigmask(SIG_BLOCK, &fatal, &old);
    char **v = malloc(((size_t)n_outputs + 1) * sizeof *v), *p = strdup(path);
    if (v && p) {
        if (n_outputs) memcpy(v, (char **)outputs, (size_t)n_outputs * sizeof *v);
        v[n_outputs] = p;
        char **was = outputs;
        outputs = v;
        n_outputs++;
        free(was);
    } else {
        free(v), free(p); /* out of memory: this file stays if a signal comes */
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Close the set; with cmd, its files are removed first. */
static void outputs_end(const char *cmd) {
    sigset_t fatal, old;
    fatal_set(&fatal);
    pthread_sigmask(SIG_BLOCK, &fatal, &old);
    for (sig_atomic_t i = 0; i < n_outputs; i++) {
        if (cmd && unlink(outputs[i]) == 0) fprintf(stderr, "gguf %s: removed %s\n", cmd, outputs[i]);
        free(outputs[i]);
    }
    free(outputs);
    outputs = NULL;
    n_outputs = outputs_open = 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void cli_outputs_remove(const char *cmd) { outputs_end(cmd); }

void cli_outputs_stat(size_t *n, uint64_t *bytes) {
    *n = (size_t)n_outputs, *bytes = 0;
    for (sig_atomic_t i = 0; i < n_outputs; i++) {
        struct stat st;
        if (stat(outputs[i], &st) == 0) *bytes += (uint64_t)st.st_size;
    }
}
void cli_outputs_keep(void) { outputs_end(NULL); }

/* A new temporary file takes the main input's permission bits, less the
 * umask (what open() applied to 0666), as cp gives a new copy its source's
 * bits; the library then gives a replaced target's bits back to it. */
static void input_mode(const char *tmp) {
    unsigned m;
    if (!cli_input_mode(&m)) return;
    mode_t um = umask(0);
    umask(um);
    chmod(tmp, (mode_t)m & ~um & 07777);
}

/* Record path as a temporary file (created) or no longer one. */
static void note(const char *path, int created) {
    if (created && path) input_mode(path);
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
}

/* Several writers at once (cli_parallel_begin): the thread that began
 * takes the fatal signals, in cli_parallel_wait, and the writers hold
 * `naming` where single-threaded code holds its signals. */
static pthread_mutex_t naming = PTHREAD_MUTEX_INITIALIZER;
static int parallel;
static _Thread_local int named; /* this writer holds `naming` */

/* A writer's note: from "about to create or rename" (2) to its next 0 or 1
 * it holds `naming`, so the signal taker never finds a file nobody knows
 * of. */
static void note_parallel(const char *path, int created) {
    if (!named) pthread_mutex_lock(&naming);
    named = created == 2 || created == 3;
    if (created != 2) note(path, created != 0);
    if (!named) pthread_mutex_unlock(&naming);
}

void cli_parallel_begin(sigset_t *old) {
    install();
    sigset_t fatal;
    fatal_set(&fatal);
    pthread_sigmask(SIG_BLOCK, &fatal, old); /* the threads started from here on inherit it */
    parallel = 1;
}

void cli_parallel_wait(int (*done)(void *), void *ud) {
    sigset_t fatal;
    fatal_set(&fatal);
    while (!done(ud)) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        int sig = sigtimedwait(&fatal, NULL, &ts);
        if (sig <= 0) continue;
        pthread_mutex_lock(&naming); /* no writer between creating a file and naming it */
        on_fatal(sig);               /* the signal stays pending: it is blocked here */
        pthread_sigmask(SIG_UNBLOCK, &fatal, NULL);
    }
}

void cli_parallel_end(const sigset_t *old) {
    parallel = 0;
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* created: 2 = about to create or to rename (signals are held from here
 * until the next 0 or 1, so no signal finds a file nobody knows of),
 * 1 = created, 3 = renamed into place as `path` (a finished output),
 * 0 = renamed or removed (path NULL: the creation failed). */
void cli_temp_note(void *ud, const char *path, int created) {
    (void)ud;
    static sigset_t before;
    static int holding;
    if (parallel) {
        note_parallel(path, created);
        return;
    }
    install();
    sigset_t fatal;
    fatal_set(&fatal);
    if (created == 2 || created == 3) {
        if (!holding) pthread_sigmask(SIG_BLOCK, &fatal, &before);
        holding = 1;
        if (created == 3) cli_outputs_add(path);
        return;
    }
    sigset_t old;
    pthread_sigmask(SIG_BLOCK, &fatal, &old);
    note(path, created);
    /* a signal held since "about to create" is delivered here, with the
     * path recorded */
    pthread_sigmask(SIG_SETMASK, holding ? &before : &old, NULL);
    holding = 0;
}

lgg_status cli_write_file(const lgg_writer *w, const char *out, const lgg_write_options *o, lgg_error *e) {
    lgg_status st = cli_output_check_lgg(out, e);
    if (st) return st;
    lgg_write_options opt;
    lgg_write_options_init(&opt);
    if (o) opt = *o;
    opt.temp_fn = cli_temp_note;
    return lgg_writer_write_file(w, out, &opt, e);
}

/* ---- staged outputs: locked while their writer lives ---------------------
 *
 * A command that renames several outputs into place at the end stages each
 * as ".NAME.PID.part" beside NAME.  SIGKILL leaves it (and the library's
 * "..NAME.PID.part.tmpXXXXXX" being written), and no signal handler runs;
 * so the writer holds an flock on ".NAME.PID.part.lock" from before the
 * first of them exists until the last is gone, and the next run that
 * stages NAME removes the ones whose lock it can take: their writer is
 * dead, whatever its PID has become since.  A live writer's lock is never
 * taken, so its files are kept. */

enum { STALE_MAX = 16 }; /* stale writers swept per run; more wait for the next */

/* Whether `name` is a staged output's lock file: ".BASE.DIGITS.part.lock". */
static int is_lock_of(const char *name, const char *base) {
    size_t bl = strlen(base);
    if (name[0] != '.' || strncmp(name + 1, base, bl) || name[1 + bl] != '.') return 0;
    const char *p = name + 2 + bl;
    size_t nd = strspn(p, "0123456789");
    return nd && !strcmp(p + nd, ".part.lock");
}

/* The lock file `name` in dfd, locked here when its writer is gone (and it
 * is still the file of that name): the open descriptor, else -1. */
static int take_lock(int dfd, const char *name) {
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat a, b;
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &a) == 0 &&
        fstatat(dfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
        S_ISREG(a.st_mode))
        return fd;
    if (fd >= 0) close(fd);
    return -1;
}

/* Whether entry `name` belongs to one of the n lock files' stems (STEM
 * ".lock"): ".BASE.PID.part" itself, or the library's temporary file "."
 * STEM ".tmp...". */
static int of_stem(const char *name, char (*lock)[NAME_MAX + 1], size_t n) {
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(lock[i]) - 5;
        if ((!strncmp(name, lock[i], l) && !name[l]) ||
            (name[0] == '.' && !strncmp(name + 1, lock[i], l) && !strncmp(name + 1 + l, ".tmp", 4)))
            return 1;
    }
    return 0;
}

/* Remove dir's staged files of BASE whose writers are dead. */
static void sweep_stale(const char *dir, const char *base) {
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0) close(dfd);
        return;
    }
    static char name[STALE_MAX][NAME_MAX + 1]; /* the lock files taken */
    int fd[STALE_MAX];
    size_t n = 0;
    for (struct dirent *e; n < STALE_MAX && (e = readdir(d));)
        if (is_lock_of(e->d_name, base) && strlen(e->d_name) <= NAME_MAX && (fd[n] = take_lock(dfd, e->d_name)) >= 0)
            memcpy(name[n++], e->d_name, strlen(e->d_name) + 1);
    if (n) rewinddir(d);
    for (struct dirent *e; n && (e = readdir(d));)
        if (of_stem(e->d_name, name, n)) unlinkat(dfd, e->d_name, 0);
    for (size_t i = 0; i < n; i++) { /* the lock last: a sweep cut short here leaves it for the next */
        unlinkat(dfd, name[i], 0);
        close(fd[i]);
    }
    closedir(d);
}

/* The folder of `final` into dir; the length of that prefix of final. */
static int dir_of(const char *final, char *dir, size_t cap) {
    const char *slash = strrchr(final, '/');
    const int dl = slash ? (int)(slash - final + 1) : 0;
    snprintf(dir, cap, "%.*s", dl ? dl : 1, dl ? final : ".");
    return dl;
}

void cli_stage_sweep(const char *final) {
    char dir[PATH_CAP];
    const int dl = dir_of(final, dir, sizeof dir);
    sweep_stale(dir, final + dl);
}

int cli_stage_begin(const char *cmd, const char *final, char *staged, size_t cap, int *lock_fd) {
    char dir[PATH_CAP], lk[PATH_CAP + 8];
    const int dl = dir_of(final, dir, sizeof dir);
    *lock_fd = -1;
    if ((size_t)snprintf(staged, cap, "%.*s.%s.%ld.part", dl, final, final + dl, (long)getpid()) >= cap ||
        strlen(staged) - (size_t)dl + 5 > NAME_MAX || (size_t)snprintf(lk, sizeof lk, "%s.lock", staged) >= PATH_CAP) {
        cli_err(cmd, final, "path too long");
        staged[0] = 0;
        return CLI_FAIL;
    }
    /* a lock file is ours once locked while it still has its name: a sweep
     * may take a stale one of our PID, or this one before our flock */
    for (int attempt = 0; *lock_fd < 0 && attempt < 5; attempt++) {
        sweep_stale(dir, final + dl);
        int fd = open(lk, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        struct stat a, b;
        if (fd >= 0 && flock(fd, LOCK_EX) == 0 && fstat(fd, &a) == 0 && lstat(lk, &b) == 0 && a.st_ino == b.st_ino &&
            a.st_dev == b.st_dev)
            *lock_fd = fd;
        else if (fd >= 0) close(fd);
        else if (errno != EEXIST) break;
    }
    if (*lock_fd < 0) {
        cli_err(cmd, lk, "cannot create and lock it: %s", strerror(errno));
        staged[0] = 0;
        return CLI_FAIL;
    }
    cli_temp_note(NULL, lk, 1); /* a signal removes it with the staged file */
    return CLI_OK;
}

void cli_stage_end(const char *staged, int lock_fd) {
    if (lock_fd < 0) return;
    char lk[PATH_CAP + 8];
    snprintf(lk, sizeof lk, "%s.lock", staged);
    unlink(lk); /* before the lock goes: no sweep finds it unlocked */
    cli_temp_note(NULL, lk, 0);
    close(lock_fd);
}
